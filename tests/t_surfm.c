/* t_surfm.c: the matrix of suld.b and sust.b variants against a reference.
 *
 * Every variant (geometry 1d 2d 3d a1d a2d x vector none v2 v4 x size b8
 * b16 b32 b64, at most 128 bits, x boundary mode trap clamp zero: 165
 * each) runs, one thread per launch, at coordinates inside the array, on
 * each edge, one past each edge, negative, with the layer out of range, at
 * a byte offset that is not a multiple of the access (a misaligned-address
 * fault), on an array whose elements are twice as wide as the access (x
 * then reaches their upper half), and on one whose elements are narrower
 * (a launch failure).  The reference below is written from the PTX manual
 * and what an H200 does (docs/SURFACES.md), not from the executor.
 */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { G1D, G2D, G3D, GA1D, GA2D };
static const char *const geom[] = { "1d", "2d", "3d", "a1d", "a2d" };
static const char *const mode[] = { "trap", "clamp", "zero" };

typedef struct Shape {
	long w, h, d, layers;   /* elements */
	unsigned es;            /* element bytes */
} Shape;

static uint32_t seed = 99;
static uint8_t rnd8(void)
{
	seed = seed * 1103515245u + 12345u;
	return (uint8_t)(seed >> 16);
}

/* The array for a geometry: 1D/2D/3D/layered, of es-byte elements. */
static uint64_t make_array(ptxvm_device *d, int g, unsigned es, Shape *s)
{
	ptxvm_array_desc ad = { PTXVM_ARRAY_1D, PTXVM_FORMAT_U8, 1, 5, 0, 0, 0 };
	s->w = 5, s->h = 1, s->d = 1, s->layers = 1, s->es = es;
	switch (g) {
	case G2D: ad.kind = PTXVM_ARRAY_2D; ad.height = s->h = 4; break;
	case G3D: ad.kind = PTXVM_ARRAY_3D; ad.height = s->h = 4; ad.depth = s->d = 3; break;
	case GA1D: ad.kind = PTXVM_ARRAY_1D_LAYERED; ad.layers = s->layers = 3; break;
	case GA2D: ad.kind = PTXVM_ARRAY_2D_LAYERED; ad.height = s->h = 4; ad.layers = s->layers = 3; break;
	}
	/* es bytes: u8, u16, u32, u32x2, u32x4 */
	ad.format = es == 1 ? PTXVM_FORMAT_U8 : es == 2 ? PTXVM_FORMAT_U16 : PTXVM_FORMAT_U32;
	ad.channels = es <= 4 ? 1 : es / 4;
	uint64_t a = 0;
	if (ptxvm_array_create(d, &ad, &a))
		fail("surfm: array_create: %s", ptxvm_device_message(d));
	return a;
}

/* Reference addressing: the access's byte offset in the array image, -1
 * for an access the boundary mode turns into nothing (.zero), -2 for a
 * trap, -3 for an x that is not a multiple of the access's acc bytes (an
 * H200 faults on it before it looks at the bounds).  x is a byte offset
 * in the row; a layer is its low 16 bits; .clamp moves x to the row's
 * last whole access, in bytes. */
static long ref_offset(const Shape *s, int g, int m, const int32_t c[4], unsigned acc)
{
	long x, y = 0, z = 0, layer = 0;
	switch (g) {
	case G1D: x = c[0]; break;
	case G2D: x = c[0]; y = c[1]; break;
	case G3D: x = c[0]; y = c[1]; z = c[2]; break;
	case GA1D: layer = (long)(uint16_t)c[0]; x = c[1]; break;
	default: layer = (long)(uint16_t)c[0]; x = c[1]; y = c[2]; break;
	}
	if (x % (long)acc)
		return -3;
	long row = s->w * (long)s->es;
	int in = x >= 0 && x + (long)acc <= row && y >= 0 && y < s->h && z >= 0 && z < s->d && layer < s->layers;
	if (!in) {
		if (m == 0)
			return -2;
		if (m == 2)
			return -1;
		x = x < 0 ? 0 : x > row - (long)acc ? row - (long)acc : x;
		y = y < 0 ? 0 : y >= s->h ? s->h - 1 : y;
		z = z < 0 ? 0 : z >= s->d ? s->d - 1 : z;
		layer = layer >= s->layers ? s->layers - 1 : layer;
	}
	return ((layer * s->d + z) * s->h + y) * row + x;
}

/* The kernel of one variant: ld = suld, else sust.  The thread reads its
 * four coordinates from co; suld stores the n values to out (8 bytes
 * apart), sust takes them from out. */
static char *variant_ptx(int ld, int g, unsigned n, unsigned sb, int m)
{
	static char buf[4096];
	int k = 0;
	unsigned rb = sb == 8 ? 64 : 32;
	const char *coords = g == G1D ? "{%c0}" : g == G2D || g == GA1D ? "{%c0, %c1}" : "{%c0, %c1, %c2, %c3}";
	char vec[16] = "", data[128];
	if (n > 1)
		snprintf(vec, sizeof vec, ".v%u", n);
	if (n == 1)
		snprintf(data, sizeof data, "%%v0");
	else if (n == 2)
		snprintf(data, sizeof data, "{%%v0, %%v1}");
	else
		snprintf(data, sizeof data, "{%%v0, %%v1, %%v2, %%v3}");
	k += snprintf(buf + k, sizeof buf - (size_t)k,
		      ".version 8.0\n.target sm_90\n.address_size 64\n"
		      ".visible .entry k(.param .u64 s, .param .u64 co, .param .u64 out)\n{\n"
		      "\t.reg .b32 %%c<4>;\n\t.reg .b64 %%rd<4>;\n\t.reg .b%u %%v<4>;\n"
		      "\tld.param.u64 %%rd1, [s];\n\tld.param.u64 %%rd2, [co];\n\tld.param.u64 %%rd3, [out];\n"
		      "\tld.global.v4.u32 {%%c0, %%c1, %%c2, %%c3}, [%%rd2];\n", rb);
	if (ld) {
		k += snprintf(buf + k, sizeof buf - (size_t)k, "\tsuld.b.%s%s.b%u.%s %s, [%%rd1, %s];\n", geom[g], vec,
			      sb * 8, mode[m], data, coords);
		for (unsigned i = 0; i < n; i++)
			k += snprintf(buf + k, sizeof buf - (size_t)k, "\tst.global.u%u [%%rd3+%u], %%v%u;\n", rb,
				      8 * i, i);
	} else {
		for (unsigned i = 0; i < n; i++)
			k += snprintf(buf + k, sizeof buf - (size_t)k, "\tld.global.u%u %%v%u, [%%rd3+%u];\n", rb, i,
				      8 * i);
		k += snprintf(buf + k, sizeof buf - (size_t)k, "\tsust.b.%s%s.b%u.%s [%%rd1, %s], %s;\n", geom[g], vec,
			      sb * 8, mode[m], coords, data);
	}
	snprintf(buf + k, sizeof buf - (size_t)k, "\tret;\n}\n");
	return buf;
}

/* The coordinates a geometry is tried at (x in elements here; scaled to
 * bytes by the caller), as {x, y, z, layer}; a misaligned x is added. */
static int cases(int g, const Shape *s, long out[][4])
{
	long pts[][4] = {
		{ 0, 0, 0, 0 }, { s->w - 1, s->h - 1, s->d - 1, s->layers - 1 }, { 2, 1, 1, 1 },
		{ s->w, 0, 0, 0 }, { -1, 0, 0, 0 }, { 0, s->h, 0, 0 }, { 0, -1, 0, 0 }, { 1, 0, s->d, 0 },
		{ 1, 0, -1, 0 }, { 1, 0, 0, s->layers }, { 1, 0, 0, -1 }, { 100000, 100000, 0, 0 },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
		/* coordinates the geometry does not have stay 0 */
		if ((g == G1D || g == GA1D) && pts[i][1])
			continue;
		if (g != G3D && pts[i][2])
			continue;
		if (g != GA1D && g != GA2D && pts[i][3])
			continue;
		memcpy(out[n++], pts[i], sizeof pts[i]);
	}
	return n;
}

static void to_coords(int g, const long p[4], long xbytes, int32_t c[4])
{
	memset(c, 0, 4 * sizeof *c);
	switch (g) {
	case G1D: c[0] = (int32_t)xbytes; break;
	case G2D: c[0] = (int32_t)xbytes; c[1] = (int32_t)p[1]; break;
	case G3D: c[0] = (int32_t)xbytes; c[1] = (int32_t)p[1]; c[2] = (int32_t)p[2]; break;
	case GA1D: c[0] = (int32_t)p[3]; c[1] = (int32_t)xbytes; break;
	default: c[0] = (int32_t)p[3]; c[1] = (int32_t)xbytes; c[2] = (int32_t)p[1]; c[3] = 12345; break;
	}
}

/* One variant on one array (element es bytes, access n x sb bytes). */
static int run_variant(ptxvm_device *d, ptxvm_program *p, int ld, int g, unsigned n, unsigned sb, int m,
		       unsigned es, uint64_t co, uint64_t out, char *why, size_t whyn)
{
	Shape s;
	uint64_t a = make_array(d, g, es, &s), so;
	ptxvm_surface_create(d, a, &so);
	size_t bytes = ptxvm_array_bytes(d, a);
	uint8_t *img = malloc(bytes), *got = malloc(bytes);
	for (size_t i = 0; i < bytes; i++)
		img[i] = rnd8();
	const ptxvm_kernel *k = ptxvm_kernel_at(p, 0);
	ptxvm_launch_config one = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	long pts[16][4];
	int np = cases(g, &s, pts), bad = 0;
	unsigned acc = n * sb;
	for (int i = 0; i < np && !bad; i++)
		for (int mis = 0; mis < 2 && !bad; mis++) {
			long xb = pts[i][0] * (long)es + (mis && es > 1 ? (long)(es / 2) : 0);
			if (mis && es == 1)
				continue;
			int32_t c[4];
			to_coords(g, pts[i], xb, c);
			ptxvm_array_write(d, a, img, bytes);
			ptxvm_memcpy_htod(d, co, c, sizeof c);
			uint64_t vals[4];
			for (unsigned j = 0; j < 4; j++) {
				vals[j] = 0;
				for (unsigned b = 0; b < 8; b++)
					vals[j] |= (uint64_t)rnd8() << (8 * b);
			}
			ptxvm_memcpy_htod(d, out, vals, sizeof vals);
			int r = ptxvm_launch(d, k, &one, (void *[]){ &so, &co, &out }, NULL);
			long off = ref_offset(&s, g, m, c, acc);
			/* the expectation */
			if (acc > es) {
				if (r != PTXVM_ERROR_LAUNCH_FAILED || !strstr(ptxvm_device_message(d), "wider than")) {
					snprintf(why, whyn, "an access of %u bytes on %u-byte elements gave %d: %s", acc, es, r,
						 ptxvm_device_message(d));
					bad = 1;
				}
				break;
			}
			if (off == -3) {
				if (r != PTXVM_ERROR_MISALIGNED_ADDRESS || !strstr(ptxvm_device_message(d), "not aligned")) {
					snprintf(why, whyn, "coordinates %d,%d,%d,%d: a misaligned x gave %d: %s", c[0], c[1],
						 c[2], c[3], r, ptxvm_device_message(d));
					bad = 1;
				}
				continue;
			}
			if (off == -2) {
				if (r != PTXVM_ERROR_LAUNCH_FAILED) {
					snprintf(why, whyn, "coordinates %d,%d,%d,%d should trap; the launch gave %d",
						 c[0], c[1], c[2], c[3], r);
					bad = 1;
				}
				continue;
			}
			if (r) {
				snprintf(why, whyn, "coordinates %d,%d,%d,%d: %s", c[0], c[1], c[2], c[3],
					 ptxvm_device_message(d));
				bad = 1;
				continue;
			}
			if (ld) {
				uint64_t res[4];
				ptxvm_memcpy_dtoh(d, res, out, sizeof res);
				for (unsigned j = 0; j < n; j++) {
					uint64_t want = 0;
					if (off >= 0)
						for (unsigned b = 0; b < sb; b++)
							want |= (uint64_t)img[off + j * sb + b] << (8 * b);
					uint64_t g64 = sb == 8 ? res[j] : (uint32_t)res[j];
					if (g64 != want) {
						snprintf(why, whyn, "coordinates %d,%d,%d,%d: component %u is 0x%llx, "
							 "expected 0x%llx", c[0], c[1], c[2], c[3], j,
							 (unsigned long long)g64, (unsigned long long)want);
						bad = 1;
					}
				}
			} else {
				uint8_t *want = malloc(bytes);
				memcpy(want, img, bytes);
				if (off >= 0)
					for (unsigned j = 0; j < n; j++)
						for (unsigned b = 0; b < sb; b++)
							want[off + j * sb + b] = (uint8_t)(vals[j] >> (8 * b));
				ptxvm_array_read(d, a, got, bytes);
				if (memcmp(got, want, bytes)) {
					size_t at = 0;
					while (got[at] == want[at])
						at++;
					snprintf(why, whyn, "coordinates %d,%d,%d,%d: array byte %zu is 0x%02x, expected "
						 "0x%02x", c[0], c[1], c[2], c[3], at, got[at], want[at]);
					bad = 1;
				}
				free(want);
			}
		}
	free(img);
	free(got);
	ptxvm_array_destroy(d, a);
	return bad;
}

void test_surfm(const char *root)
{
	(void)root;
	ptxvm_device_opts o = { .workers = 1 };
	ptxvm_device *d = ptxvm_device_create(&o);
	uint64_t co, out;
	ptxvm_mem_alloc(d, 16, &co);
	ptxvm_mem_alloc(d, 32, &out);
	int variants = 0, ok = 0;
	static const unsigned vecs[] = { 1, 2, 4 }, sizes[] = { 1, 2, 4, 8 };
	for (int ld = 1; ld >= 0; ld--)
		for (int g = 0; g < 5; g++)
			for (int vi = 0; vi < 3; vi++)
				for (int si = 0; si < 4; si++)
					for (int m = 0; m < 3; m++) {
						unsigned n = vecs[vi], sb = sizes[si], acc = n * sb;
						if (acc > 16)
							continue;       /* .v4.b64: not PTX */
						variants++;
						const char *ptx = variant_ptx(ld, g, n, sb, m);
						ptxvm_module *mod = ptxvm_module_load("variant.ptx", ptx, strlen(ptx), NULL);
						ptxvm_program *p = NULL;
						char name[64], why[512] = "";
						snprintf(name, sizeof name, "%s.b.%s%s%u.b%u.%s", ld ? "suld" : "sust", geom[g],
							 n > 1 ? ".v" : "", n > 1 ? n : 0, sb * 8, mode[m]);
						if (ptxvm_module_errors(mod) || ptxvm_program_load(d, mod, &p)) {
							char *dg = ptxvm_module_diagnostics(mod);
							fail("surfm: %s does not load: %s%s", name, ptxvm_device_message(d), dg);
							free(dg);
							ptxvm_module_free(mod);
							continue;
						}
						ptxvm_module_free(mod);
						/* elements as wide as the access, twice as wide (low bytes), and
						 * narrower (a failure) */
						int bad = run_variant(d, p, ld, g, n, sb, m, acc, co, out, why, sizeof why);
						if (!bad && acc < 16)
							bad = run_variant(d, p, ld, g, n, sb, m, acc * 2, co, out, why, sizeof why);
						if (!bad && acc > 1)
							bad = run_variant(d, p, ld, g, n, sb, m, acc / 2, co, out, why, sizeof why);
						if (bad)
							fail("surfm: %s: %s", name, why);
						else
							ok++;
						ptxvm_program_unload(p);
					}
	if (ok == variants && variants == 330)
		passed++;
	else if (variants != 330)
		fail("surfm: %d variants, expected 165 suld and 165 sust", variants);
	printf("surfm: %d suld/sust variants, %d agree with the reference\n", variants, ok);
	ptxvm_device_destroy(d);
}
