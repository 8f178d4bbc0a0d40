/* t_surf.c: arrays, surface objects and suld.b / sust.b, against CPU
 * references written here.
 *
 *   api        array shapes and formats, copies, handles, bad arguments
 *   box_blur   examples/box_blur.ptx: a 3x3 blur of an 8-bit image with
 *              .clamp reads at the borders
 *   kernels    tests/ptx/surfaces.ptx: 1D reads and writes, .clamp and .zero
 *              boundaries, a read past the end under .trap
 *   surfref    a module-scope .surfref, unbound and then bound
 *   param      a .param .surfref, and a .u64 holding a .surfref's address
 *   suq        every query on every array kind and format
 *   sured      reductions from 4 workers: exact sums, signed .p.min, and
 *   sust.p     components converted to every format, missing ones written 0
 *   static     a .surfref's initializer answers suq until it is bound
 *   sured      every op x type of the ISA on edge values (.p on signed and
 *              unsigned arrays)
 */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static ptxvm_program *load(ptxvm_device *d, const char *root, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	ptxvm_module *m = ptxvm_module_load_file(path, NULL);
	ptxvm_program *p = NULL;
	if (!m || ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p))
		fail("surf: cannot load %s: %s", rel, ptxvm_device_message(d));
	ptxvm_module_free(m);
	return p;
}

/* Loads inline PTX onto d; NULL after reporting why. */
static ptxvm_program *load_text(ptxvm_device *d, const char *name, const char *ptx, size_t len)
{
	ptxvm_module *m = ptxvm_module_load(name, ptx, len, NULL);
	ptxvm_program *p = NULL;
	if (ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p)) {
		char *dg = ptxvm_module_diagnostics(m);
		fail("surf: %s does not load: %s%s", name, ptxvm_device_message(d), dg ? dg : "");
		free(dg);
		p = NULL;
	}
	ptxvm_module_free(m);
	return p;
}

static uint64_t array2d_u8(ptxvm_device *d, unsigned w, unsigned h)
{
	ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_U8, 1, w, h, 0, 0 };
	uint64_t a = 0;
	if (ptxvm_array_create(d, &ad, &a))
		fail("surf: array_create %ux%u: %s", w, h, ptxvm_device_message(d));
	return a;
}

static void surf_api(ptxvm_device *d)
{
	int bad = 0;
	uint64_t a, s;
	ptxvm_array_desc ok = { PTXVM_ARRAY_3D, PTXVM_FORMAT_F32, 4, 5, 6, 7, 0 };
	bad += ptxvm_array_create(d, &ok, &a) != PTXVM_SUCCESS;
	bad += ptxvm_array_bytes(d, a) != 16u * 5 * 6 * 7;
	ptxvm_array_desc cube = { PTXVM_ARRAY_CUBEMAP_LAYERED, PTXVM_FORMAT_UNORM8, 2, 8, 8, 0, 3 };
	uint64_t c;
	bad += ptxvm_array_create(d, &cube, &c) != PTXVM_SUCCESS || ptxvm_array_bytes(d, c) != 2u * 8 * 8 * 6 * 3;
	/* shapes and formats that are not arrays */
	ptxvm_array_desc wrong[] = {
		{ PTXVM_ARRAY_1D, PTXVM_FORMAT_U8, 3, 4, 0, 0, 0 },             /* 3 channels */
		{ PTXVM_ARRAY_1D, PTXVM_FORMAT_U8, 1, 0, 0, 0, 0 },             /* width 0 */
		{ PTXVM_ARRAY_1D, PTXVM_FORMAT_U8, 1, 4, 2, 0, 0 },             /* a height for 1D */
		{ PTXVM_ARRAY_2D, PTXVM_FORMAT_U8, 1, 4, 0, 0, 0 },             /* no height */
		{ PTXVM_ARRAY_CUBEMAP, PTXVM_FORMAT_U8, 1, 4, 5, 0, 0 },        /* not square */
		{ PTXVM_ARRAY_2D_LAYERED, PTXVM_FORMAT_U8, 1, 4, 4, 0, 0 },     /* no layers */
		{ PTXVM_ARRAY_3D, PTXVM_FORMAT_U8, 1, 20000, 1, 1, 0 },         /* too wide */
		{ (ptxvm_array_kind)99, PTXVM_FORMAT_U8, 1, 4, 0, 0, 0 },
		{ PTXVM_ARRAY_1D, (ptxvm_format)99, 1, 4, 0, 0, 0 },
	};
	uint64_t x;
	for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
		if (ptxvm_array_create(d, &wrong[i], &x) != PTXVM_ERROR_INVALID_VALUE) {
			fail("surf: api: bad array description %zu was accepted", i);
			bad++;
		}
	uint8_t buf[16 * 5 * 6 * 7];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (uint8_t)rnd();
	uint8_t back[sizeof buf];
	bad += ptxvm_array_write(d, a, buf, sizeof buf) != PTXVM_SUCCESS;
	bad += ptxvm_array_read(d, a, back, sizeof back) != PTXVM_SUCCESS || memcmp(buf, back, sizeof buf);
	bad += ptxvm_array_write(d, a, buf, sizeof buf - 1) != PTXVM_ERROR_INVALID_VALUE;
	bad += ptxvm_surface_create(d, a, &s) != PTXVM_SUCCESS || !s;
	bad += ptxvm_surface_create(d, 12345, &x) != PTXVM_ERROR_INVALID_HANDLE;
	bad += ptxvm_array_destroy(d, a) != PTXVM_SUCCESS;
	bad += ptxvm_surface_destroy(d, s) != PTXVM_ERROR_INVALID_HANDLE;       /* went with its array */
	bad += ptxvm_array_read(d, a, back, sizeof back) != PTXVM_ERROR_INVALID_HANDLE;
	bad += ptxvm_array_create(NULL, &ok, &a) != PTXVM_ERROR_INVALID_VALUE;
	bad += ptxvm_array_destroy(d, c) != PTXVM_SUCCESS;
	if (bad)
		fail("surf: api: %d checks failed", bad);
	else
		passed++;
}

/* examples/box_blur.ptx over a w x h image with clamped borders. */
static void surf_box_blur(ptxvm_device *d, const char *root)
{
	ptxvm_program *p = load(d, root, "examples/box_blur.ptx");
	if (!p)
		return;
	enum { W = 37, H = 23 };
	static uint8_t img[H][W], want[H][W], got[H][W];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			img[y][x] = (uint8_t)rnd();
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			unsigned sum = 0;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++) {
					int yy = y + dy < 0 ? 0 : y + dy >= H ? H - 1 : y + dy;
					int xx = x + dx < 0 ? 0 : x + dx >= W ? W - 1 : x + dx;
					sum += img[yy][xx];
				}
			want[y][x] = (uint8_t)(sum / 9);
		}
	uint64_t a = array2d_u8(d, W, H), b = array2d_u8(d, W, H), sa, sb;
	ptxvm_array_write(d, a, img, sizeof img);
	ptxvm_surface_create(d, a, &sa);
	ptxvm_surface_create(d, b, &sb);
	int w = W, h = H;
	void *args[] = { &sa, &sb, &w, &h };
	ptxvm_launch_config cfg = { { (W + 15) / 16, (H + 7) / 8, 1 }, { 16, 8, 1 }, 0, { 0, 0, 0 } };
	if (ptxvm_launch(d, ptxvm_kernel_find(p, "box_blur"), &cfg, args, NULL)) {
		fail("surf: box_blur: %s", ptxvm_device_message(d));
	} else {
		ptxvm_array_read(d, b, got, sizeof got);
		int bad = -1;
		for (int i = 0; i < W * H && bad < 0; i++)
			if (((uint8_t *)got)[i] != ((uint8_t *)want)[i])
				bad = i;
		if (bad >= 0)
			fail("surf: box_blur: pixel (%d,%d) is %u, expected %u", bad % W, bad / W,
			     ((uint8_t *)got)[bad], ((uint8_t *)want)[bad]);
		else
			passed++;
	}
	ptxvm_array_destroy(d, a);
	ptxvm_array_destroy(d, b);
	ptxvm_program_unload(p);
}

static uint64_t array1d(ptxvm_device *d, ptxvm_format f, unsigned w, const void *init, size_t esize,
			uint64_t *surf)
{
	ptxvm_array_desc ad = { PTXVM_ARRAY_1D, f, 1, w, 0, 0, 0 };
	uint64_t a = 0;
	ptxvm_array_create(d, &ad, &a);
	if (init)
		ptxvm_array_write(d, a, init, esize * w);
	ptxvm_surface_create(d, a, surf);
	return a;
}

static int launch(ptxvm_device *d, ptxvm_program *p, const char *k, unsigned n, void **args)
{
	ptxvm_launch_config cfg = { { (n + 63) / 64, 1, 1 }, { 64, 1, 1 }, 0, { 0, 0, 0 } };
	return ptxvm_launch(d, ptxvm_kernel_find(p, k), &cfg, args, NULL);
}

static void surf_kernels(ptxvm_device *d, const char *root)
{
	ptxvm_program *p = load(d, root, "tests/ptx/surfaces.ptx");
	if (!p)
		return;
	/* surf1d_read_float: a 1D float surface copied out (.trap, in bounds) */
	enum { N = 100 };
	float f[N], out[N];
	for (int i = 0; i < N; i++)
		f[i] = (float)rnd() / 1024.0f;
	uint64_t s, a = array1d(d, PTXVM_FORMAT_F32, N, f, 4, &s), dout;
	ptxvm_mem_alloc(d, sizeof out, &dout);
	int n = N;
	if (launch(d, p, "surf1d_read_float", N, (void *[]){ &s, &dout, &n }))
		fail("surf: surf1d_read_float: %s", ptxvm_device_message(d));
	else if (ptxvm_memcpy_dtoh(d, out, dout, sizeof out), memcmp(out, f, sizeof f))
		fail("surf: surf1d_read_float: the copy differs");
	else
		passed++;
	/* the same past the end: .trap stops the launch and names the access */
	n = N + 1;
	int r = launch(d, p, "surf1d_read_float", N + 1, (void *[]){ &s, &dout, &n });
	if (r != PTXVM_ERROR_LAUNCH_FAILED || !strstr(ptxvm_device_message(d), "out of bounds (.trap): x = 400"))
		fail("surf: a .trap read past the end gave %d: %s", r, ptxvm_device_message(d));
	else
		passed++;
	/* a handle that is no surface object */
	uint64_t junk = 0x1234;
	n = 1;
	r = launch(d, p, "surf1d_read_float", 1, (void *[]){ &junk, &dout, &n });
	if (r != PTXVM_ERROR_ILLEGAL_ADDRESS || !strstr(ptxvm_device_message(d), "not a surface object"))
		fail("surf: a bad handle gave %d: %s", r, ptxvm_device_message(d));
	else
		passed++;
	ptxvm_array_destroy(d, a);

	/* surf1d_char_clamp: reads past the end take the last element */
	enum { C = 10 };
	int8_t sc[C];
	uint8_t suc[C];
	for (int i = 0; i < C; i++)
		sc[i] = (int8_t)rnd(), suc[i] = (uint8_t)rnd();
	uint64_t s1, s2, a1 = array1d(d, PTXVM_FORMAT_S8, C, sc, 1, &s1), a2 = array1d(d, PTXVM_FORMAT_U8, C, suc, 1, &s2);
	uint64_t oc, ouc;
	ptxvm_mem_alloc(d, 4 * 16, &oc);
	ptxvm_mem_alloc(d, 4 * 16, &ouc);
	int offset = -3, count = 16;
	if (launch(d, p, "surf1d_char_clamp", 16, (void *[]){ &s1, &s2, &oc, &ouc, &offset, &count })) {
		fail("surf: surf1d_char_clamp: %s", ptxvm_device_message(d));
	} else {
		int32_t gc[16];
		uint32_t guc[16];
		ptxvm_memcpy_dtoh(d, gc, oc, sizeof gc);
		ptxvm_memcpy_dtoh(d, guc, ouc, sizeof guc);
		int bad = 0;
		for (int i = 0; i < 16; i++) {
			int k = i + offset < 0 ? 0 : i + offset >= C ? C - 1 : i + offset;
			bad += gc[i] != sc[k] || guc[i] != suc[k];
		}
		if (bad)
			fail("surf: surf1d_char_clamp: %d elements differ", bad);
		else
			passed++;
	}
	ptxvm_array_destroy(d, a1);
	ptxvm_array_destroy(d, a2);

	/* surf1d_short_zero: reads past either end give 0, writes there vanish */
	enum { S = 20 };
	int16_t src[S], dst[S];
	for (int i = 0; i < S; i++)
		src[i] = (int16_t)rnd();
	uint64_t ss, sd, as = array1d(d, PTXVM_FORMAT_S16, S, src, 2, &ss), ad = array1d(d, PTXVM_FORMAT_S16, S, NULL, 2, &sd);
	int shift = 3;
	count = S;
	if (launch(d, p, "surf1d_short_zero", S, (void *[]){ &ss, &sd, &shift, &count })) {
		fail("surf: surf1d_short_zero: %s", ptxvm_device_message(d));
	} else {
		ptxvm_array_read(d, ad, dst, sizeof dst);
		int bad = 0;
		for (int j = 0; j < S; j++) {
			int i = j + shift;      /* the thread that writes element j */
			int16_t v = i < count ? (int16_t)((i + shift < S ? src[i + shift] : 0) * 2) : 0;
			bad += dst[j] != v;
		}
		if (bad)
			fail("surf: surf1d_short_zero: %d elements differ", bad);
		else
			passed++;
	}
	ptxvm_array_destroy(d, as);
	ptxvm_array_destroy(d, ad);
	ptxvm_program_unload(p);
}

/* A module-scope .surfref, bound through the API; unbound, a fault. */
static void surf_ref(ptxvm_device *d)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".global .surfref gs;\n"
		".visible .entry k(.param .u64 out)\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
		"\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n"
		"\tsuld.b.1d.b32.trap %r3, [gs, {%r2}];\n"
		"\tld.param.u64 %rd1, [out];\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
		"\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";
	ptxvm_program *p = load_text(d, "surfref.ptx", ptx, sizeof ptx - 1);
	if (!p)
		return;
	uint32_t v[8] = { 5, 6, 7, 8, 9, 10, 11, 12 }, got[8] = { 0 };
	uint64_t s, a = array1d(d, PTXVM_FORMAT_U32, 8, v, 4, &s), out;
	ptxvm_mem_alloc(d, sizeof got, &out);
	ptxvm_launch_config cfg = { { 1, 1, 1 }, { 8, 1, 1 }, 0, { 0, 0, 0 } };
	const ptxvm_kernel *k = ptxvm_kernel_at(p, 0);
	int r = ptxvm_launch(d, k, &cfg, (void *[]){ &out }, NULL);
	if (r != PTXVM_ERROR_ILLEGAL_ADDRESS || !strstr(ptxvm_device_message(d), "0x0 is not a surface object"))
		fail("surf: an unbound .surfref gave %d: %s", r, ptxvm_device_message(d));
	else
		passed++;
	if (ptxvm_program_bind_surface(p, "gs", s) || ptxvm_program_bind_surface(p, "nope", s) != PTXVM_ERROR_NOT_FOUND ||
	    ptxvm_program_bind_surface(p, "gs", 77) != PTXVM_ERROR_INVALID_HANDLE)
		fail("surf: ptxvm_program_bind_surface: %s", ptxvm_device_message(d));
	else if ((r = ptxvm_launch(d, k, &cfg, (void *[]){ &out }, NULL)))
		fail("surf: a bound .surfref gave %d: %s", r, ptxvm_device_message(d));
	else if (ptxvm_memcpy_dtoh(d, got, out, sizeof got), memcmp(got, v, sizeof v))
		fail("surf: a bound .surfref read the wrong values");
	else
		passed++;
	ptxvm_array_destroy(d, a);
	ptxvm_program_unload(p);
}

/* A .param .surfref kernel parameter, and indirect access: a .u64 holding
 * the address of a .surfref variable (mov.u64 %rd, gs). */
static void surf_param(ptxvm_device *d)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".global .surfref gs;\n"
		".visible .entry k(.param .surfref sp, .param .u64 out)\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [out];\n"
		"\tsuld.b.1d.b32.trap %r1, [sp, {4}];\n\tst.global.u32 [%rd1], %r1;\n"
		"\tmov.u64 %rd2, gs;\n\tsuld.b.1d.b32.trap %r2, [%rd2, {8}];\n\tst.global.u32 [%rd1+4], %r2;\n"
		"\tret;\n}\n";
	ptxvm_program *p = load_text(d, "param.ptx", ptx, sizeof ptx - 1);
	if (!p)
		return;
	uint32_t v1[4] = { 10, 11, 12, 13 }, v2[4] = { 20, 21, 22, 23 }, got[2];
	uint64_t s1, s2, out, a1 = array1d(d, PTXVM_FORMAT_U32, 4, v1, 4, &s1), a2 = array1d(d, PTXVM_FORMAT_U32, 4, v2, 4, &s2);
	ptxvm_mem_alloc(d, sizeof got, &out);
	ptxvm_program_bind_surface(p, "gs", s2);
	ptxvm_launch_config one = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	if (ptxvm_launch(d, ptxvm_kernel_at(p, 0), &one, (void *[]){ &s1, &out }, NULL))
		fail("surf: .param .surfref: %s", ptxvm_device_message(d));
	else if (ptxvm_memcpy_dtoh(d, got, out, sizeof got), got[0] != 11 || got[1] != 22)
		fail("surf: .param .surfref read %u (want 11), indirect .surfref read %u (want 22)", got[0], got[1]);
	else
		passed++;
	ptxvm_array_destroy(d, a1);
	ptxvm_array_destroy(d, a2);
	ptxvm_program_unload(p);
}

/* suq: every query on arrays of several kinds. */
static void surf_suq(ptxvm_device *d)
{
	static const char *const q[] = { "width", "height", "depth", "channel_data_type", "channel_order",
					 "array_size", "memory_layout" };
	char ptx[4096];
	int n = snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry k(.param .u64 s, .param .u64 out)\n{\n"
			 "\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<3>;\n"
			 "\tld.param.u64 %%rd1, [s];\n\tld.param.u64 %%rd2, [out];\n");
	for (int i = 0; i < 7; i++)
		n += snprintf(ptx + n, sizeof ptx - (size_t)n, "\tsuq.%s.b32 %%r%d, [%%rd1];\n"
			      "\tst.global.u32 [%%rd2+%d], %%r%d;\n", q[i], i, 4 * i, i);
	n += snprintf(ptx + n, sizeof ptx - (size_t)n, "\tret;\n}\n");
	ptxvm_program *p = load_text(d, "suq.ptx", ptx, (size_t)n);
	if (!p)
		return;
	/* kind, format, channels, w, h, d, layers -> the seven answers (OpenCL 1.0 enums) */
	static const struct {
		ptxvm_array_desc a;
		uint32_t want[7];
	} cases[] = {
		{ { PTXVM_ARRAY_1D, PTXVM_FORMAT_F32, 1, 40, 0, 0, 0 }, { 40, 1, 1, 0x10DE, 0x10B0, 0, 0 } },
		{ { PTXVM_ARRAY_2D_LAYERED, PTXVM_FORMAT_U16, 2, 9, 7, 0, 5 }, { 9, 7, 1, 0x10DB, 0x10B2, 5, 0 } },
		{ { PTXVM_ARRAY_3D, PTXVM_FORMAT_UNORM8, 4, 4, 5, 6, 0 }, { 4, 5, 6, 0x10D2, 0x10B5, 0, 0 } },
		{ { PTXVM_ARRAY_CUBEMAP_LAYERED, PTXVM_FORMAT_S8, 1, 8, 8, 0, 3 }, { 8, 8, 1, 0x10D7, 0x10B0, 3, 0 } },
		{ { PTXVM_ARRAY_1D_LAYERED, PTXVM_FORMAT_U32, 1, 7, 0, 0, 4 }, { 7, 1, 1, 0x10DC, 0x10B0, 4, 0 } },
		{ { PTXVM_ARRAY_2D, PTXVM_FORMAT_S16, 4, 3, 9, 0, 0 }, { 3, 9, 1, 0x10D8, 0x10B5, 0, 0 } },
		{ { PTXVM_ARRAY_CUBEMAP, PTXVM_FORMAT_F16, 2, 5, 5, 0, 0 }, { 5, 5, 1, 0x10DD, 0x10B2, 0, 0 } },
		{ { PTXVM_ARRAY_1D, PTXVM_FORMAT_S32, 2, 2, 0, 0, 0 }, { 2, 1, 1, 0x10D9, 0x10B2, 0, 0 } },
		{ { PTXVM_ARRAY_1D, PTXVM_FORMAT_U8, 4, 2, 0, 0, 0 }, { 2, 1, 1, 0x10DA, 0x10B5, 0, 0 } },
		{ { PTXVM_ARRAY_1D, PTXVM_FORMAT_UNORM16, 1, 2, 0, 0, 0 }, { 2, 1, 1, 0x10D3, 0x10B0, 0, 0 } },
		{ { PTXVM_ARRAY_1D, PTXVM_FORMAT_SNORM8, 1, 2, 0, 0, 0 }, { 2, 1, 1, 0x10D0, 0x10B0, 0, 0 } },
		{ { PTXVM_ARRAY_1D, PTXVM_FORMAT_SNORM16, 1, 2, 0, 0, 0 }, { 2, 1, 1, 0x10D1, 0x10B0, 0, 0 } },
	};
	uint64_t out;
	ptxvm_mem_alloc(d, 28, &out);
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t a, s;
		uint32_t got[7];
		ptxvm_array_create(d, &cases[i].a, &a);
		ptxvm_surface_create(d, a, &s);
		ptxvm_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
		if (ptxvm_launch(d, ptxvm_kernel_at(p, 0), &cfg, (void *[]){ &s, &out }, NULL)) {
			fail("surf: suq: %s", ptxvm_device_message(d));
			bad++;
		} else {
			ptxvm_memcpy_dtoh(d, got, out, sizeof got);
			for (int k = 0; k < 7; k++)
				if (got[k] != cases[i].want[k]) {
					fail("surf: suq.%s of array %zu is 0x%x, expected 0x%x", q[k], i, got[k],
					     cases[i].want[k]);
					bad++;
				}
		}
		ptxvm_array_destroy(d, a);
	}
	if (!bad)
		passed++;
	ptxvm_program_unload(p);
}

/* sured from every worker onto a few elements: exact sums; .p.min on a
 * signed array compares signed; .b.and; .zero drops a reduction past the end. */
static void surf_sured(void)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 sa, .param .u64 sm, .param .u64 sb)\n{\n"
		"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [sa];\n\tld.param.u64 %rd2, [sm];\n\tld.param.u64 %rd3, [sb];\n"
		"\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 3;\n\tshl.b32 %r3, %r2, 2;\n"
		"\tsured.b.add.1d.u32.trap [%rd1, {%r3}], 1;\n"
		"\tmov.u32 %r4, %ctaid.x;\n\tsub.s32 %r5, 0, %r4;\n"          /* -ctaid */
		"\tsured.p.min.1d.b32.trap [%rd2, {%r2}], %r5;\n"
		"\tnot.b32 %r6, %r1;\n\tsured.b.and.1d.b32.trap [%rd3, {%r3}], %r6;\n"
		"\tadd.s32 %r7, %r3, 64;\n\tsured.b.add.1d.u32.zero [%rd1, {%r7}], 1000;\n"
		"\tret;\n}\n";
	ptxvm_device_opts o = { .workers = 4 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = load_text(d, "sured.ptx", ptx, sizeof ptx - 1);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	uint32_t zero[4] = { 0 }, ones[4] = { ~0u, ~0u, ~0u, ~0u };
	int32_t big[4] = { 5, 5, 5, 5 };
	uint64_t sa, sm, sb;
	uint64_t aa = array1d(d, PTXVM_FORMAT_U32, 4, zero, 4, &sa);
	uint64_t am = array1d(d, PTXVM_FORMAT_S32, 4, big, 4, &sm);
	uint64_t ab = array1d(d, PTXVM_FORMAT_U32, 4, ones, 4, &sb);
	enum { G = 64, B = 256 };
	ptxvm_launch_config cfg = { { G, 1, 1 }, { B, 1, 1 }, 0, { 0, 0, 0 } };
	if (ptxvm_launch(d, ptxvm_kernel_at(p, 0), &cfg, (void *[]){ &sa, &sm, &sb }, NULL)) {
		fail("surf: sured: %s", ptxvm_device_message(d));
	} else {
		uint32_t add[4], and[4];
		int32_t mn[4];
		ptxvm_array_read(d, aa, add, sizeof add);
		ptxvm_array_read(d, am, mn, sizeof mn);
		ptxvm_array_read(d, ab, and, sizeof and);
		int bad = 0;
		for (int e = 0; e < 4; e++) {
			uint32_t want_and = ~0u;
			for (uint32_t t = (uint32_t)e; t < B; t += 4)
				want_and &= ~t;
			bad += add[e] != G * B / 4 || mn[e] != -(G - 1) || and[e] != want_and;
		}
		if (bad)
			fail("surf: sured: add %u %u %u %u (want %u each), min %d (want %d), and 0x%x",
			     add[0], add[1], add[2], add[3], G * B / 4, mn[0], -(G - 1), and[0]);
		else
			passed++;
	}
	ptxvm_array_destroy(d, aa);
	ptxvm_array_destroy(d, am);
	ptxvm_array_destroy(d, ab);
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

/* sust.p: components converted to each format; missing ones written 0. */
static void surf_sustp(ptxvm_device *d)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 s4, .param .u64 s2, .param .u32 a, .param .u32 b, "
		".param .u32 c, .param .u32 e)\n{\n"
		"\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<3>;\n"
		"\tld.param.u64 %rd1, [s4];\n\tld.param.u64 %rd2, [s2];\n"
		"\tld.param.u32 %r1, [a];\n\tld.param.u32 %r2, [b];\n\tld.param.u32 %r3, [c];\n"
		"\tld.param.u32 %r4, [e];\n\tmov.u32 %r5, 1;\n"
		"\tsust.p.1d.v4.b32.trap [%rd1, {%r5}], {%r1, %r2, %r3, %r4};\n"
		"\tsust.p.1d.v2.b32.trap [%rd2, {%r5}], {%r1, %r2};\n"
		"\tret;\n}\n";
	ptxvm_program *p = load_text(d, "sustp.ptx", ptx, sizeof ptx - 1);
	if (!p)
		return;
	const ptxvm_kernel *k = ptxvm_kernel_at(p, 0);
	int bad = 0;
	/* a format, four 32-bit components, and the channels .v4 writes (as
	 * stored: the low bits of each channel); .v2 writes the first two and
	 * zeros (converted) for the other two */
	static const struct {
		ptxvm_format f;
		unsigned cb;            /* channel bytes */
		uint32_t in[4];
		uint32_t want[4];
	} cases[] = {
		{ PTXVM_FORMAT_UNORM8, 1, { 0x3f000000, 0xbf800000, 0x40000000, 0x7fc00000 }, { 128, 0, 255, 0 } },
		{ PTXVM_FORMAT_U16, 2, { 70000, 5, 0xffffffff, 65535 }, { 65535, 5, 65535, 65535 } },
		{ PTXVM_FORMAT_S8, 1, { (uint32_t)-300, 300, (uint32_t)-5, 7 }, { 0x80, 0x7f, 0xfb, 7 } },
		{ PTXVM_FORMAT_F16, 2, { 0x3f800000, 0xc0000000, 0, 0x7f800000 }, { 0x3c00, 0xc000, 0, 0x7c00 } },
		{ PTXVM_FORMAT_SNORM16, 2, { 0xbf000000, 0x3f800000, 0xc0000000, 0x3e800000 },
		  { 0xc000, 0x7fff, 0x8001, 0x2000 } },
		{ PTXVM_FORMAT_F32, 4, { 1, 2, 3, 4 }, { 1, 2, 3, 4 } },
		{ PTXVM_FORMAT_U8, 1, { 300, 5, 0xffffffff, 7 }, { 255, 5, 255, 7 } },
		{ PTXVM_FORMAT_U32, 4, { 0xdeadbeef, 0, 1, 0xffffffff }, { 0xdeadbeef, 0, 1, 0xffffffff } },
		{ PTXVM_FORMAT_S16, 2, { (uint32_t)-40000, 40000, (uint32_t)-5, 7 }, { 0x8000, 0x7fff, 0xfffb, 7 } },
		{ PTXVM_FORMAT_S32, 4, { 0x80000000, 0x7fffffff, (uint32_t)-1, 0 }, { 0x80000000, 0x7fffffff, 0xffffffff, 0 } },
		{ PTXVM_FORMAT_UNORM16, 2, { 0x3f000000, 0xbf800000, 0x40000000, 0x7fc00000 }, { 0x8000, 0, 0xffff, 0 } },
		{ PTXVM_FORMAT_SNORM8, 1, { 0xbf000000, 0x3f800000, 0xc0000000, 0x3e800000 }, { 0xc0, 0x7f, 0x81, 0x20 } },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ptxvm_array_desc ad = { PTXVM_ARRAY_1D, cases[i].f, 4, 3, 0, 0, 0 };
		uint64_t a4, a2, s4, s2;
		ptxvm_array_create(d, &ad, &a4);
		ptxvm_array_create(d, &ad, &a2);
		ptxvm_surface_create(d, a4, &s4);
		ptxvm_surface_create(d, a2, &s2);
		ptxvm_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
		uint32_t in[4];
		memcpy(in, cases[i].in, sizeof in);
		if (ptxvm_launch(d, k, &cfg, (void *[]){ &s4, &s2, &in[0], &in[1], &in[2], &in[3] }, NULL)) {
			fail("surf: sust.p format %d: %s", (int)cases[i].f, ptxvm_device_message(d));
			bad++;
		} else {
			uint8_t g4[3 * 16], g2[3 * 16];
			size_t n = ptxvm_array_bytes(d, a4);
			ptxvm_array_read(d, a4, g4, n);
			ptxvm_array_read(d, a2, g2, n);
			unsigned cb = cases[i].cb, es = 4 * cb;
			for (unsigned ch = 0; ch < 4; ch++) {
				uint32_t v4 = 0, v2 = 0;
				memcpy(&v4, g4 + es + ch * cb, cb);
				memcpy(&v2, g2 + es + ch * cb, cb);
				uint32_t w2 = ch < 2 ? cases[i].want[ch] : 0;
				if (v4 != cases[i].want[ch] || v2 != w2) {
					fail("surf: sust.p format %d channel %u: .v4 wrote 0x%x (want 0x%x), .v2 0x%x (want 0x%x)",
					     (int)cases[i].f, ch, v4, cases[i].want[ch], v2, w2);
					bad++;
				}
			}
			/* elements 0 and 2 untouched */
			for (unsigned k2 = 0; k2 < es; k2++)
				bad += g4[k2] != 0 || g4[2 * es + k2] != 0;
		}
		ptxvm_array_destroy(d, a4);
		ptxvm_array_destroy(d, a2);
	}
	ptxvm_program_unload(p);
	if (!bad)
		passed++;
}

/* A .surfref's static initializer answers suq until the variable is bound;
 * a suld through it fails until then. */
static void surf_static(ptxvm_device *d)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".global .surfref gs = { width = 64, height = 32, channel_data_type = 0x10DE, channel_order = 0x10B5 };\n"
		".visible .entry q(.param .u64 out)\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n"
		"\tsuq.width.b32 %r1, [gs];\n\tst.global.u32 [%rd1], %r1;\n"
		"\tsuq.height.b32 %r2, [gs];\n\tst.global.u32 [%rd1+4], %r2;\n"
		"\tsuq.channel_data_type.b32 %r3, [gs];\n\tst.global.u32 [%rd1+8], %r3;\n"
		"\tret;\n}\n"
		".visible .entry r(.param .u64 out)\n{\n"
		"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [out];\n"
		"\tsuld.b.2d.b32.trap %r1, [gs, {0, 0}];\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
	ptxvm_program *p = load_text(d, "static.ptx", ptx, sizeof ptx - 1);
	if (!p)
		return;
	uint64_t out;
	uint32_t got[3];
	ptxvm_mem_alloc(d, sizeof got, &out);
	ptxvm_launch_config one = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	int bad = 0;
	if (ptxvm_launch(d, ptxvm_kernel_find(p, "q"), &one, (void *[]){ &out }, NULL))
		bad++, fail("surf: suq of a static .surfref: %s", ptxvm_device_message(d));
	else if (ptxvm_memcpy_dtoh(d, got, out, sizeof got), got[0] != 64 || got[1] != 32 || got[2] != 0x10DE)
		bad++, fail("surf: suq of a static .surfref: %u %u 0x%x", got[0], got[1], got[2]);
	int r = ptxvm_launch(d, ptxvm_kernel_find(p, "r"), &one, (void *[]){ &out }, NULL);
	if (r != PTXVM_ERROR_ILLEGAL_ADDRESS || !strstr(ptxvm_device_message(d), "static description"))
		bad++, fail("surf: suld through an unbound static .surfref gave %d: %s", r, ptxvm_device_message(d));
	ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_U8, 4, 5, 7, 0, 0 };
	uint64_t a, sobj;
	ptxvm_array_create(d, &ad, &a);
	ptxvm_surface_create(d, a, &sobj);
	ptxvm_program_bind_surface(p, "gs", sobj);
	if (ptxvm_launch(d, ptxvm_kernel_find(p, "q"), &one, (void *[]){ &out }, NULL))
		bad++, fail("surf: suq of a bound .surfref: %s", ptxvm_device_message(d));
	else if (ptxvm_memcpy_dtoh(d, got, out, sizeof got), got[0] != 5 || got[1] != 7 || got[2] != 0x10DA)
		bad++, fail("surf: suq of a bound .surfref: %u %u 0x%x", got[0], got[1], got[2]);
	if (!bad)
		passed++;
	ptxvm_array_destroy(d, a);
	ptxvm_program_unload(p);
}

/* Every sured op x type the ISA has, on edge values, one thread each:
 * the element afterwards against op(M, v) computed here. */
static uint64_t sured_ref(const char *op, const char *ty, int p, int fmt_signed, uint64_t m, uint64_t v)
{
	int bits = strstr(ty, "64") ? 64 : 32;
	uint64_t mask = bits == 64 ? ~0ull : 0xffffffffull;
	m &= mask, v &= mask;
	int sg = p ? fmt_signed : ty[0] == 's';
	int64_t sm = bits == 64 ? (int64_t)m : (int32_t)m, sv = bits == 64 ? (int64_t)v : (int32_t)v;
	if (!strcmp(op, "add"))
		return (m + v) & mask;
	if (!strcmp(op, "and"))
		return m & v;
	if (!strcmp(op, "or"))
		return m | v;
	int lt = sg ? sm < sv : m < v;
	if (!strcmp(op, "min"))
		return lt ? m : v;
	return lt ? v : m;
}

static void surf_sured_matrix(ptxvm_device *d)
{
	static const struct { int p; const char *op, *ty; } forms[] = {
		{ 0, "add", "u32" }, { 0, "add", "u64" }, { 0, "add", "s32" },
		{ 0, "min", "u32" }, { 0, "min", "s32" }, { 0, "max", "u32" }, { 0, "max", "s32" },
		{ 0, "min", "u64" }, { 0, "min", "s64" }, { 0, "max", "u64" }, { 0, "max", "s64" },
		{ 0, "and", "b32" }, { 0, "or", "b32" },
		{ 1, "add", "b32" }, { 1, "min", "b32" }, { 1, "max", "b32" }, { 1, "and", "b32" }, { 1, "or", "b32" },
	};
	static const uint64_t edge[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x8000000000000000ull,
					 0x7fffffffffffffffull, 0xffffffffffffffffull, 0x123456789abcdef0ull };
	int bad = 0;
	for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
		int b64 = strstr(forms[f].ty, "64") != NULL;
		char ptx[1024];
		int n = snprintf(ptx, sizeof ptx, ".version 8.1\n.target sm_90\n.address_size 64\n"
				 ".visible .entry k(.param .u64 s, .param .u%d v)\n{\n"
				 "\t.reg .b64 %%rd<2>;\n\t.reg .b%d %%v;\n\t.reg .b32 %%x;\n"
				 "\tld.param.u64 %%rd1, [s];\n\tld.param.u%d %%v, [v];\n\tmov.u32 %%x, %d;\n"
				 "\tsured.%s.%s.1d.%s.trap [%%rd1, {%%x}], %%v;\n\tret;\n}\n",
				 b64 ? 64 : 32, b64 ? 64 : 32, b64 ? 64 : 32, forms[f].p ? 1 : (b64 ? 8 : 4),
				 forms[f].p ? "p" : "b", forms[f].op, forms[f].ty);
		ptxvm_module *m = ptxvm_module_load("sured.ptx", ptx, (size_t)n, NULL);
		ptxvm_program *p = NULL;
		if (ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p)) {
			char *dg = ptxvm_module_diagnostics(m);
			fail("surf: sured.%s.%s.%s does not load: %s%s", forms[f].p ? "p" : "b", forms[f].op,
			     forms[f].ty, ptxvm_device_message(d), dg);
			free(dg);
			ptxvm_module_free(m);
			bad++;
			continue;
		}
		ptxvm_module_free(m);
		/* .p: a signed and an unsigned array; .b: the type decides */
		for (int fs = 0; fs < (forms[f].p ? 2 : 1); fs++) {
			ptxvm_array_desc ad = { PTXVM_ARRAY_1D, fs ? PTXVM_FORMAT_S32 : PTXVM_FORMAT_U32,
						b64 ? 2 : 1, 3, 0, 0, 0 };
			uint64_t a, so;
			ptxvm_array_create(d, &ad, &a);
			ptxvm_surface_create(d, a, &so);
			for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
				for (size_t j = 0; j < sizeof edge / sizeof edge[0]; j++) {
					uint64_t img[3] = { 0, 0, 0 }, got[3];
					size_t es = b64 ? 8 : 4;
					memcpy((uint8_t *)img + es, &edge[i], es);
					ptxvm_array_write(d, a, img, 3 * es);
					uint64_t v = edge[j];
					ptxvm_launch_config one = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
					if (ptxvm_launch(d, ptxvm_kernel_at(p, 0), &one, (void *[]){ &so, &v }, NULL)) {
						fail("surf: sured.%s.%s.%s: %s", forms[f].p ? "p" : "b", forms[f].op,
						     forms[f].ty, ptxvm_device_message(d));
						bad++;
						i = j = 99;
						break;
					}
					ptxvm_array_read(d, a, got, 3 * es);
					uint64_t r = 0;
					memcpy(&r, (uint8_t *)got + es, es);
					uint64_t want = sured_ref(forms[f].op, forms[f].ty, forms[f].p, fs, edge[i], v);
					if (r != want) {
						fail("surf: sured.%s.%s.%s%s: M = 0x%llx, v = 0x%llx: got 0x%llx, expected 0x%llx",
						     forms[f].p ? "p" : "b", forms[f].op, forms[f].ty,
						     forms[f].p ? (fs ? " (s32 array)" : " (u32 array)") : "",
						     (unsigned long long)(edge[i] & (b64 ? ~0ull : 0xffffffffull)),
						     (unsigned long long)(v & (b64 ? ~0ull : 0xffffffffull)),
						     (unsigned long long)r, (unsigned long long)want);
						bad++;
						i = j = 99;
						break;
					}
				}
			ptxvm_array_destroy(d, a);
		}
		ptxvm_program_unload(p);
	}
	if (!bad)
		passed++;
}

/* sust.p on layered arrays: x is an element index there too (layer 1,
 * element 2 of a 1D layered array; layer 1, element (2, 1) of a 2D one). */
static void surf_sustp_layered(ptxvm_device *d)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 s1, .param .u64 s2)\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
		"\tld.param.u64 %rd1, [s1];\n\tld.param.u64 %rd2, [s2];\n"
		"\tmov.u32 %r1, 1;\n\tmov.u32 %r2, 2;\n\tmov.u32 %r3, 0xabcd1234;\n"
		"\tsust.p.a1d.b32.trap [%rd1, {%r1, %r2}], {%r3};\n"
		"\tsust.p.a2d.b32.trap [%rd2, {%r1, %r2, %r1, %r1}], {%r3};\n"
		"\tret;\n}\n";
	ptxvm_program *p = load_text(d, "sustpl.ptx", ptx, sizeof ptx - 1);
	if (!p)
		return;
	ptxvm_array_desc d1 = { PTXVM_ARRAY_1D_LAYERED, PTXVM_FORMAT_U32, 1, 3, 0, 0, 2 };
	ptxvm_array_desc d2 = { PTXVM_ARRAY_2D_LAYERED, PTXVM_FORMAT_U32, 1, 3, 2, 0, 2 };
	uint64_t a1 = 0, a2 = 0, s1 = 0, s2 = 0;
	uint32_t g1[6] = { 0 }, g2[12] = { 0 };
	ptxvm_launch_config one = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	if (ptxvm_array_create(d, &d1, &a1) || ptxvm_array_create(d, &d2, &a2) || ptxvm_surface_create(d, a1, &s1) ||
	    ptxvm_surface_create(d, a2, &s2) ||
	    ptxvm_launch(d, ptxvm_kernel_at(p, 0), &one, (void *[]){ &s1, &s2 }, NULL)) {
		fail("surf: sust.p layered: %s", ptxvm_device_message(d));
	} else {
		ptxvm_array_read(d, a1, g1, sizeof g1);
		ptxvm_array_read(d, a2, g2, sizeof g2);
		int bad = 0;
		for (unsigned i = 0; i < 6; i++)
			bad += g1[i] != (i == 5 ? 0xabcd1234u : 0);
		for (unsigned i = 0; i < 12; i++)
			bad += g2[i] != (i == 11 ? 0xabcd1234u : 0);
		if (bad)
			fail("surf: sust.p layered wrote the wrong elements (%08x .. %08x, %08x .. %08x)", g1[0], g1[5], g2[0],
			     g2[11]);
		else
			passed++;
	}
	ptxvm_array_destroy(d, a1);
	ptxvm_array_destroy(d, a2);
	ptxvm_program_unload(p);
}

/* The rules an H200 follows (tests/hw/golden/h200.isa.txt, groups
 * surf-4x3x0 and surf-4x3x2, docs/SURFACES.md): a 4 x 3 array of 32-bit elements, 2 layers, byte b of
 * element (x, y) of layer l being 0x10 + x, 0x40 + y, 0x80 + l and
 * 0xc0 + x + 4y.  x is a byte offset; a b8 access reads the byte at x;
 * .clamp moves x to the row's last whole access; a layer is its low 16
 * bits (0x80000000 is layer 0); .a1d on a 2D layered array reads 0; an x
 * that is not a multiple of the access faults with a misaligned address. */
static void surf_h200(ptxvm_device *d)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 s, .param .u64 io)\n{\n"
		"\t.reg .b32 %r<8>;\n\t.reg .b16 %h<2>;\n\t.reg .b64 %rd<3>;\n\t.reg .pred %p<2>;\n"
		"\tld.param.u64 %rd1, [s];\n\tld.param.u64 %rd2, [io];\n"
		"\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2];\n\tmov.u16 %h1, 0;\n"
		"\tsuld.b.a2d.b32.clamp %r5, [%rd1, {%r3, %r1, %r2, %r2}];\n"
		"\tsuld.b.a2d.b32.zero %r6, [%rd1, {%r3, %r1, %r2, %r2}];\n"
		"\tsuld.b.a1d.b32.clamp %r7, [%rd1, {%r3, %r1}];\n"
		"\tst.global.v4.u32 [%rd2], {%r5, %r6, %r7, %r7};\n"
		"\tsetp.ne.u32 %p1, %r4, 0;\n"
		"\t@%p1 suld.b.a2d.b8.clamp %h1, [%rd1, {%r3, %r4, %r2, %r2}];\n"
		"\tcvt.u32.u16 %r5, %h1;\n\tst.global.u32 [%rd2+12], %r5;\n"
		"\tret;\n}\n";
	/* x, y, layer, b8 x : a2d clamp, a2d zero, a1d clamp, a2d.b8 clamp */
	static const struct { uint32_t in[4], out[4]; } c[] = {
		{ { 0, 0, 0, 0 }, { 0xc0804010, 0xc0804010, 0, 0 } },
		{ { 4, 1, 1, 1 }, { 0xc5814111, 0xc5814111, 0, 0x41 } },
		{ { 0, 2, 0x80000000u, 3 }, { 0xc8804210, 0xc8804210, 0, 0xc8 } },
		{ { 0, 2, 0xffffffffu, 7 }, { 0xc8814210, 0, 0, 0xc9 } },
		{ { 16, 3, 2, 17 }, { 0xcb814213, 0, 0, 0xcb } },
		{ { 0x7ffffffc, 1, 1, 100 }, { 0xc7814113, 0, 0, 0xc7 } },
		{ { 0xfffffffc, 0xffffffffu, 1, 0xffffffffu }, { 0xc0814010, 0, 0, 0x10 } },
		{ { 0x80000000u, 0x7fffffff, 3, 2 }, { 0xc8814210, 0, 0, 0x81 } },
	};
	ptxvm_program *p = load_text(d, "h200.ptx", ptx, sizeof ptx - 1);
	if (!p)
		return;
	ptxvm_array_desc ad = { PTXVM_ARRAY_2D_LAYERED, PTXVM_FORMAT_U32, 1, 4, 3, 0, 2 };
	uint64_t a = 0, s = 0, io = 0;
	uint8_t img[2 * 3 * 4 * 4];
	for (unsigned l = 0; l < 2; l++)
		for (unsigned y = 0; y < 3; y++)
			for (unsigned x = 0; x < 4; x++) {
				uint8_t *b = img + ((l * 3 + y) * 4 + x) * 4;
				b[0] = (uint8_t)(0x10 + x), b[1] = (uint8_t)(0x40 + y), b[2] = (uint8_t)(0x80 + l);
				b[3] = (uint8_t)(0xc0 + x + 4 * y);
			}
	if (ptxvm_array_create(d, &ad, &a) || ptxvm_array_write(d, a, img, sizeof img) ||
	    ptxvm_surface_create(d, a, &s) || ptxvm_mem_alloc(d, 16, &io)) {
		fail("surf: h200: %s", ptxvm_device_message(d));
		return;
	}
	const ptxvm_kernel *k = ptxvm_kernel_at(p, 0);
	ptxvm_launch_config one = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	int bad = 0;
	for (size_t i = 0; i < sizeof c / sizeof c[0] && !bad; i++) {
		uint32_t got[4];
		ptxvm_memcpy_htod(d, io, c[i].in, sizeof c[i].in);
		int r = ptxvm_launch(d, k, &one, (void *[]){ &s, &io }, NULL);
		ptxvm_memcpy_dtoh(d, got, io, sizeof got);
		if (r || memcmp(got, c[i].out, sizeof got)) {
			fail("surf: h200: x %x, y %x, layer %x, b8 x %x gave %d: %08x %08x %08x %08x, the H200 "
			     "%08x %08x %08x %08x", c[i].in[0], c[i].in[1], c[i].in[2], c[i].in[3], r, got[0], got[1],
			     got[2], got[3], c[i].out[0], c[i].out[1], c[i].out[2], c[i].out[3]);
			bad = 1;
		}
	}
	/* misaligned, whatever the bounds and the mode */
	static const uint32_t mis[][4] = { { 1, 0, 0, 0 }, { 0xffffffffu, 5, 9, 0 }, { 0x11, 0, 0, 0 } };
	for (size_t i = 0; i < sizeof mis / sizeof mis[0] && !bad; i++) {
		ptxvm_memcpy_htod(d, io, mis[i], sizeof mis[i]);
		int r = ptxvm_launch(d, k, &one, (void *[]){ &s, &io }, NULL);
		const char *m = ptxvm_device_message(d);
		if (r != PTXVM_ERROR_MISALIGNED_ADDRESS || !strstr(m, "suld.b.a2d.b32.clamp") ||
		    !strstr(m, "not aligned to the 4-byte access")) {
			fail("surf: h200: x %x gave %d: %s", mis[i][0], r, m);
			bad = 1;
		}
	}
	if (!bad)
		passed++;
	ptxvm_array_destroy(d, a);
	ptxvm_program_unload(p);
}

void test_surf(const char *root)
{
	ptxvm_device *d = ptxvm_device_create(NULL);
	surf_api(d);
	surf_box_blur(d, root);
	surf_kernels(d, root);
	surf_ref(d);
	surf_param(d);
	surf_suq(d);
	surf_sustp(d);
	surf_static(d);
	surf_sured_matrix(d);
	surf_h200(d);
	surf_sustp_layered(d);
	ptxvm_device_destroy(d);
	surf_sured();
}
