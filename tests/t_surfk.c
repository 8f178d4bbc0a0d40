/* t_surfk.c: every kernel of tests/cuda/surfaces.cu and
 * tests/cuda/surfaces_layered.cu (tests/ptx/surfaces.ptx and
 * surfaces_layered.ptx) on arrays of pseudo-random contents, against a CPU
 * reference written here from CUDA's surface functions:
 *
 *   surfNDread/write(s, x_bytes, ..., mode): the element is x / element size,
 *   and x must be a multiple of it (an H200 faults with a misaligned address
 *   otherwise, whatever the mode); a layer is its low 16 bits;
 *   cudaBoundaryModeTrap (the default) fails the launch out of bounds, Clamp
 *   moves each coordinate (the layer too) to the nearest element, Zero reads
 *   0 and drops writes.  A cubemap's faces are its layers; a layered
 *   cubemap's layerFace is layer * 6 + face.
 *
 * The arrays are mirrored on the host (Arr.m), which the reference updates.
 * Kernels where one thread writes what another reads run as one warp per
 * set of such threads (a warp executes each instruction for all its lanes
 * before the next), so the reference reads a snapshot taken before the
 * launch and writes into the mirror.  Kernels with trap-mode accesses are
 * launched in bounds; surf1d_read_float is also launched once out of bounds
 * and must fail with PTXVM_ERROR_LAUNCH_FAILED.
 *
 * Each kernel counts one pass or one fail naming the kernel, the first
 * differing element and both values.
 */
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TR, CL, ZE };    /* boundary modes */

static uint32_t seed = 0x2545f491u;
static uint32_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

/* Finite floats: multiples of 1/64 in [-156.25, 156.25]. */
static float rf(void)
{
	return (float)((int32_t)(rnd() % 20001u) - 10000) / 64.0f;
}

static ptxvm_device *dv;
static ptxvm_program *P1, *P2;  /* surfaces.ptx, surfaces_layered.ptx */
static const char *kname;
static int kbad, reftrap, refmis;

#define KFAIL(...) do { if (!kbad++) fail(__VA_ARGS__); } while (0)

static void kb(const char *name)
{
	kname = name;
	kbad = 0;
	reftrap = 0;
	refmis = 0;
}

static void ke(void)
{
	if (reftrap)
		KFAIL("surfk: %s: the reference made %d out-of-bounds trap accesses", kname, reftrap);
	if (refmis)
		KFAIL("surfk: %s: the reference made %d misaligned accesses", kname, refmis);
	if (!kbad)
		passed++;
}

/* ---- arrays and their host mirrors --------------------------------------- */

typedef struct {
	uint64_t a, s;
	size_t es, w, h, d, bytes;      /* d: depth, layers, faces or 6 x cubes */
	int layered;                    /* d counts layers: an unsigned index */
	unsigned char *m;
} Arr;

static void put(Arr *A)
{
	if (ptxvm_array_write(dv, A->a, A->m, A->bytes))
		KFAIL("surfk: %s: array_write: %s", kname, ptxvm_device_message(dv));
}

static void mk(Arr *A, ptxvm_array_kind k, ptxvm_format f, unsigned ch, size_t w, size_t h, size_t d,
	       size_t layers)
{
	static const unsigned fs[] = { 1, 2, 4, 1, 2, 4, 2, 4, 1, 2, 1, 2 };
	ptxvm_array_desc ad = { k, f, ch, w, h, d, layers };
	memset(A, 0, sizeof *A);
	A->es = fs[f] * ch;
	A->w = w;
	A->h = h ? h : 1;
	A->d = k == PTXVM_ARRAY_3D ? d : k == PTXVM_ARRAY_CUBEMAP ? 6 : k == PTXVM_ARRAY_CUBEMAP_LAYERED ? 6 * layers
		: layers ? layers : 1;
	A->layered = k != PTXVM_ARRAY_1D && k != PTXVM_ARRAY_2D && k != PTXVM_ARRAY_3D;
	A->bytes = A->es * A->w * A->h * A->d;
	A->m = malloc(A->bytes);
	for (size_t i = 0; i < A->bytes; i++)
		A->m[i] = (unsigned char)rnd();
	if (ptxvm_array_create(dv, &ad, &A->a) || ptxvm_array_bytes(dv, A->a) != A->bytes) {
		KFAIL("surfk: %s: array_create: %s", kname, ptxvm_device_message(dv));
		return;
	}
	put(A);
	if (ptxvm_surface_create(dv, A->a, &A->s))
		KFAIL("surfk: %s: surface_create: %s", kname, ptxvm_device_message(dv));
}

/* Float contents (the element size a multiple of 4). */
static void mkf(Arr *A, ptxvm_array_kind k, unsigned ch, size_t w, size_t h, size_t d, size_t layers)
{
	mk(A, k, PTXVM_FORMAT_F32, ch, w, h, d, layers);
	float *f = (float *)A->m;
	for (size_t i = 0; i < A->bytes / 4; i++)
		f[i] = rf();
	put(A);
}

static void rm(Arr *A)
{
	if (A->a)
		ptxvm_array_destroy(dv, A->a);
	free(A->m);
	A->m = NULL;
}

static unsigned char *snap(const Arr *A)
{
	unsigned char *p = malloc(A->bytes);
	memcpy(p, A->m, A->bytes);
	return p;
}

static unsigned char *el(const Arr *A, unsigned char *buf, long x, long y, long z)
{
	return buf + (((size_t)z * A->h + (size_t)y) * A->w + (size_t)x) * A->es;
}

static int inb(long v, size_t n)
{
	return v >= 0 && (size_t)v < n;
}

static long clampl(long v, size_t n)
{
	return v < 0 ? 0 : (size_t)v >= n ? (long)n - 1 : v;
}

/* Resolves byte offset bx, y, z (layer) under a mode: 1 and the element's
 * coordinates in *x, *y, *z, or 0 for no access. */
static int addr(const Arr *A, long bx, long *x, long *y, long *z, int mode)
{
	if (bx % (long)A->es) {
		refmis++;
		return 0;
	}
	*x = bx < 0 ? -1 : bx / (long)A->es;
	/* a layer (or cube face) is the low 16 bits of PTX's unsigned index: a
	 * negative one is past the last layer, and .clamp brings it to the last */
	if (A->layered)
		*z = (long)(uint16_t)*z;
	if (inb(*x, A->w) && inb(*y, A->h) && inb(*z, A->d))
		return 1;
	if (mode == CL) {
		*x = clampl(*x, A->w);
		*y = clampl(*y, A->h);
		*z = clampl(*z, A->d);
		return 1;
	}
	if (mode == TR)
		reftrap++;
	return 0;
}

/* A whole-element read from buf (the mirror or a snapshot). */
static void rrd(const Arr *A, unsigned char *buf, long bx, long y, long z, int mode, void *v)
{
	long x;
	if (addr(A, bx, &x, &y, &z, mode))
		memcpy(v, el(A, buf, x, y, z), A->es);
	else
		memset(v, 0, A->es);
}

/* A whole-element write into the mirror. */
static void rwr(Arr *A, long bx, long y, long z, int mode, const void *v)
{
	long x;
	if (addr(A, bx, &x, &y, &z, mode))
		memcpy(el(A, A->m, x, y, z), v, A->es);
}

/* ---- device buffers, launches, comparisons ------------------------------ */

static uint64_t dbuf(size_t n)
{
	uint64_t p = 0;
	if (ptxvm_mem_alloc(dv, n, &p) || ptxvm_memset_d8(dv, p, 0xa5, n))
		KFAIL("surfk: %s: mem_alloc: %s", kname, ptxvm_device_message(dv));
	return p;
}

/* Launches kname; 0 when the result is `expect`. */
static int go(ptxvm_program *p, int expect, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
	      unsigned bz, void **args)
{
	if (kbad || !p)
		return -1;
	const ptxvm_kernel *k = ptxvm_kernel_find(p, kname);
	if (!k) {
		KFAIL("surfk: %s: no such kernel", kname);
		return -1;
	}
	ptxvm_launch_config cfg = { { gx, gy, gz }, { bx, by, bz }, 0, { 0, 0, 0 } };
	int r = ptxvm_launch(dv, k, &cfg, args, NULL);
	if (r != expect) {
		KFAIL("surfk: %s: launch gave %d, expected %d: %s", kname, r, expect, ptxvm_device_message(dv));
		return -1;
	}
	return 0;
}

static void hex(char *s, const unsigned char *p, size_t n)
{
	for (size_t i = n; i-- > 0;)
		s += sprintf(s, "%02x", p[i]);
}

static void report(const char *what, const char *coord, const unsigned char *want, const unsigned char *got,
		   size_t es)
{
	char w[40], g[40];
	hex(w, want, es);
	hex(g, got, es);
	KFAIL("surfk: %s: %s %s: expected 0x%s, got 0x%s", kname, what, coord, w, g);
}

/* The device array against the mirror. */
static void cmp_arr(const char *what, const Arr *A)
{
	if (kbad)
		return;
	unsigned char *g = malloc(A->bytes);
	if (ptxvm_array_read(dv, A->a, g, A->bytes)) {
		KFAIL("surfk: %s: array_read: %s", kname, ptxvm_device_message(dv));
	} else {
		for (size_t i = 0; i < A->bytes; i += A->es)
			if (memcmp(g + i, A->m + i, A->es)) {
				size_t e = i / A->es;
				char c[96];
				snprintf(c, sizeof c, "element (x=%zu, y=%zu, z/layer=%zu)", e % A->w, e / A->w % A->h,
					 e / (A->w * A->h));
				report(what, c, A->m + i, g + i, A->es);
				break;
			}
	}
	free(g);
}

/* A device buffer of n elements of es bytes, w x h x ..., against want. */
static void cmp_buf(const char *what, uint64_t dp, const void *want, size_t n, size_t es, size_t w, size_t h)
{
	if (kbad)
		return;
	unsigned char *g = malloc(n * es);
	const unsigned char *wa = want;
	if (ptxvm_memcpy_dtoh(dv, g, dp, n * es)) {
		KFAIL("surfk: %s: memcpy_dtoh: %s", kname, ptxvm_device_message(dv));
	} else {
		for (size_t i = 0; i < n; i++)
			if (memcmp(g + i * es, wa + i * es, es)) {
				char c[96];
				snprintf(c, sizeof c, "[%zu] (x=%zu, y=%zu, z=%zu)", i, i % w, i / w % h, i / (w * h));
				report(what, c, wa + i * es, g + i * es, es);
				break;
			}
	}
	free(g);
}

#define A1D PTXVM_ARRAY_1D
#define A2D PTXVM_ARRAY_2D
#define A3D PTXVM_ARRAY_3D
#define A1L PTXVM_ARRAY_1D_LAYERED
#define A2L PTXVM_ARRAY_2D_LAYERED
#define ACU PTXVM_ARRAY_CUBEMAP
#define ACL PTXVM_ARRAY_CUBEMAP_LAYERED

/* ---- surfaces.ptx: 1D ---------------------------------------------------- */

static void k_surf1d_read_float(void)
{
	kb("surf1d_read_float");
	enum { N = 100 };
	Arr A;
	mkf(&A, A1D, 1, N, 0, 0, 0);
	float want[N];
	for (int i = 0; i < N; i++)
		rrd(&A, A.m, i * 4, 0, 0, TR, &want[i]);
	uint64_t o = dbuf((N + 1) * 4);
	int n = N;
	if (!go(P1, 0, 2, 1, 1, 64, 1, 1, (void *[]){ &A.s, &o, &n }))
		cmp_buf("out", o, want, N, 4, N, 1);
	/* one element past the end under .trap */
	n = N + 1;
	go(P1, PTXVM_ERROR_LAUNCH_FAILED, 2, 1, 1, 64, 1, 1, (void *[]){ &A.s, &o, &n });
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

static void k_surf1d_write_float(void)
{
	kb("surf1d_write_float");
	enum { W = 100, N = 90 };
	Arr A;
	mkf(&A, A1D, 1, W, 0, 0, 0);
	float in[N], k = -0.75f;
	for (int i = 0; i < N; i++)
		in[i] = rf();
	uint64_t di = dbuf(sizeof in);
	ptxvm_memcpy_htod(dv, di, in, sizeof in);
	int n = N;
	for (int i = 0; i < N; i++) {
		float v = in[i] * k;
		rwr(&A, i * 4, 0, 0, TR, &v);
	}
	if (!go(P1, 0, 2, 1, 1, 64, 1, 1, (void *[]){ &di, &A.s, &k, &n }))
		cmp_arr("dst", &A);
	ptxvm_mem_free(dv, di);
	rm(&A);
	ke();
}

static void k_surf1d_rmw_int(void)
{
	kb("surf1d_rmw_int");
	enum { N = 77 };
	Arr A;
	mk(&A, A1D, PTXVM_FORMAT_S32, 1, N, 0, 0, 0);
	int add = 0x7fffff00, n = N;
	for (int i = 0; i < N; i++) {
		int32_t v;
		rrd(&A, A.m, i * 4, 0, 0, TR, &v);
		v = (int32_t)((uint32_t)v + (uint32_t)add);
		rwr(&A, i * 4, 0, 0, TR, &v);
	}
	if (!go(P1, 0, 3, 1, 1, 32, 1, 1, (void *[]){ &A.s, &add, &n }))
		cmp_arr("s", &A);
	rm(&A);
	ke();
}

static void k_surf1d_char_clamp(void)
{
	kb("surf1d_char_clamp");
	enum { W = 30, M = 48 };
	Arr C, U;
	mk(&C, A1D, PTXVM_FORMAT_S8, 1, W, 0, 0, 0);
	mk(&U, A1D, PTXVM_FORMAT_U8, 1, W, 0, 0, 0);
	uint64_t oc = dbuf(M * 4), ou = dbuf(M * 4);
	static const int cases[][2] = { { -5, 45 }, { 20, 20 }, { -40, 8 } };     /* offset, count */
	for (int t = 0; t < 3; t++) {
		int offset = cases[t][0], count = cases[t][1];
		int32_t wc[M];
		uint32_t wu[M];
		for (int i = 0; i < count; i++) {
			int8_t c;
			uint8_t u;
			rrd(&C, C.m, i + offset, 0, 0, CL, &c);
			rrd(&U, U.m, i + offset, 0, 0, CL, &u);
			wc[i] = c;
			wu[i] = u;
		}
		if (!go(P1, 0, (unsigned)(count + 31) / 32, 1, 1, 32, 1, 1,
			(void *[]){ &C.s, &U.s, &oc, &ou, &offset, &count })) {
			cmp_buf(t == 0 ? "out_c (offset -5)" : t == 1 ? "out_c (offset 20)" : "out_c (offset -40)", oc,
				wc, (size_t)count, 4, (size_t)count, 1);
			cmp_buf(t == 0 ? "out_uc (offset -5)" : t == 1 ? "out_uc (offset 20)" : "out_uc (offset -40)",
				ou, wu, (size_t)count, 4, (size_t)count, 1);
		}
	}
	ptxvm_mem_free(dv, oc);
	ptxvm_mem_free(dv, ou);
	rm(&C);
	rm(&U);
	ke();
}

static void k_surf1d_short_zero(void)
{
	kb("surf1d_short_zero");
	enum { W = 40 };
	Arr S, D;
	mk(&S, A1D, PTXVM_FORMAT_S16, 1, W, 0, 0, 0);
	mk(&D, A1D, PTXVM_FORMAT_S16, 1, W, 0, 0, 0);
	static const int shifts[] = { 5, -7, 45 };
	for (int t = 0; t < 3; t++) {
		int shift = shifts[t], count = W;
		for (int i = 0; i < count; i++) {
			int16_t v;
			rrd(&S, S.m, (i + shift) * 2, 0, 0, ZE, &v);
			v = (int16_t)(v * 2);
			rwr(&D, (i - shift) * 2, 0, 0, ZE, &v);
		}
		if (!go(P1, 0, 2, 1, 1, 32, 1, 1, (void *[]){ &S.s, &D.s, &shift, &count }))
			cmp_arr(t == 0 ? "dst (shift 5)" : t == 1 ? "dst (shift -7)" : "dst (shift 45)", &D);
	}
	rm(&S);
	rm(&D);
	ke();
}

static void k_surf1d_longlong(void)
{
	kb("surf1d_longlong");
	enum { N = 50 };
	Arr L, U;
	mk(&L, A1D, PTXVM_FORMAT_S32, 2, N, 0, 0, 0);
	mk(&U, A1D, PTXVM_FORMAT_U32, 2, N, 0, 0, 0);
	int64_t want[N];
	for (int i = 0; i < N; i++) {
		int64_t a;
		uint64_t b;
		rrd(&L, L.m, i * 8, 0, 0, TR, &a);
		rrd(&U, U.m, i * 8, 0, 0, TR, &b);
		want[i] = (int64_t)((uint64_t)a + (b >> 1));
		b ^= 0xffffffff00000000ull;
		rwr(&U, i * 8, 0, 0, TR, &b);
	}
	uint64_t o = dbuf(sizeof want);
	int n = N;
	if (!go(P1, 0, 2, 1, 1, 32, 1, 1, (void *[]){ &L.s, &U.s, &o, &n })) {
		cmp_buf("out", o, want, N, 8, N, 1);
		cmp_arr("s_ull", &U);
	}
	ptxvm_mem_free(dv, o);
	rm(&L);
	rm(&U);
	ke();
}

static void k_surf1d_vec2(void)
{
	kb("surf1d_vec2");
	enum { N = 70 };
	Arr C, S, I, F;
	mk(&C, A1D, PTXVM_FORMAT_S8, 2, N, 0, 0, 0);
	mk(&S, A1D, PTXVM_FORMAT_S16, 2, N, 0, 0, 0);
	mk(&I, A1D, PTXVM_FORMAT_S32, 2, N, 0, 0, 0);
	mkf(&F, A1D, 2, N, 0, 0, 0);
	int32_t want[N][4];
	for (int i = 0; i < N; i++) {
		int8_t c[2];
		int16_t s[2];
		int32_t v[2];
		float f[2];
		rrd(&C, C.m, i * 2, 0, 0, TR, c);
		rrd(&S, S.m, i * 4, 0, 0, TR, s);
		rrd(&I, I.m, i * 8, 0, 0, TR, v);
		rrd(&F, F.m, i * 8, 0, 0, TR, f);
		want[i][0] = c[0] + c[1];
		want[i][1] = s[0] - s[1];
		want[i][2] = (int32_t)((uint32_t)v[0] * (uint32_t)v[1]);
		want[i][3] = (int32_t)(f[0] + f[1]);
		float f2[2] = { f[1], f[0] };
		int8_t c2[2] = { c[1], c[0] };
		rwr(&F, i * 8, 0, 0, TR, f2);
		rwr(&C, i * 2, 0, 0, TR, c2);
	}
	uint64_t o = dbuf(sizeof want);
	int n = N;
	if (!go(P1, 0, 2, 1, 1, 64, 1, 1, (void *[]){ &C.s, &S.s, &I.s, &F.s, &o, &n })) {
		cmp_buf("out", o, want, N, 16, N, 1);
		cmp_arr("s_f2", &F);
		cmp_arr("s_c2", &C);
		cmp_arr("s_s2", &S);
		cmp_arr("s_i2", &I);
	}
	ptxvm_mem_free(dv, o);
	rm(&C);
	rm(&S);
	rm(&I);
	rm(&F);
	ke();
}

/* ---- surfaces.ptx: 2D ---------------------------------------------------- */

static void k_surf2d_copy_float(void)
{
	kb("surf2d_copy_float");
	enum { W = 37, H = 23 };
	Arr S, D;
	mkf(&S, A2D, 1, W, H, 0, 0);
	mkf(&D, A2D, 1, W, H, 0, 0);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float v;
			rrd(&S, S.m, x * 4, y, 0, TR, &v);
			rwr(&D, x * 4, y, 0, TR, &v);
		}
	int w = W, h = H;
	if (!go(P1, 0, 3, 3, 1, 16, 8, 1, (void *[]){ &S.s, &D.s, &w, &h }))
		cmp_arr("dst", &D);
	rm(&S);
	rm(&D);
	ke();
}

static void k_surf2d_invert_uchar4(void)
{
	kb("surf2d_invert_uchar4");
	enum { W = 29, H = 13 };
	Arr A;
	mk(&A, A2D, PTXVM_FORMAT_U8, 4, W, H, 0, 0);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t p[4];
			rrd(&A, A.m, x * 4, y, 0, TR, p);
			for (int c = 0; c < 3; c++)
				p[c] = (uint8_t)(255 - p[c]);
			rwr(&A, x * 4, y, 0, TR, p);
		}
	int w = W, h = H;
	if (!go(P1, 0, 2, 2, 1, 16, 8, 1, (void *[]){ &A.s, &w, &h }))
		cmp_arr("img", &A);
	rm(&A);
	ke();
}

static void k_surf2d_blur_clamp(void)
{
	kb("surf2d_blur_clamp");
	enum { W = 21, H = 17 };
	Arr A;
	mkf(&A, A2D, 1, W, H, 0, 0);
	static float want[H][W];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			float sum = 0.0f;
			for (int dy = -1; dy <= 1; ++dy)
				for (int dx = -1; dx <= 1; ++dx) {
					float v;
					rrd(&A, A.m, (x + dx) * 4, y + dy, 0, CL, &v);
					sum += v;
				}
			want[y][x] = sum * (1.0f / 9.0f);
		}
	uint64_t o = dbuf(sizeof want);
	int w = W, h = H;
	if (!go(P1, 0, 2, 3, 1, 16, 8, 1, (void *[]){ &A.s, &o, &w, &h }))
		cmp_buf("out", o, want, W * H, 4, W, H);
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

static void k_surf2d_laplace_zero(void)
{
	kb("surf2d_laplace_zero");
	enum { W = 21, H = 17 };
	Arr A;
	mk(&A, A2D, PTXVM_FORMAT_S32, 1, W, H, 0, 0);
	static int32_t want[H][W];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int32_t c, l, r, u, d;
			rrd(&A, A.m, x * 4, y, 0, ZE, &c);
			rrd(&A, A.m, (x - 1) * 4, y, 0, ZE, &l);
			rrd(&A, A.m, (x + 1) * 4, y, 0, ZE, &r);
			rrd(&A, A.m, x * 4, y - 1, 0, ZE, &u);
			rrd(&A, A.m, x * 4, y + 1, 0, ZE, &d);
			want[y][x] = (int32_t)(4u * (uint32_t)c - (uint32_t)l - (uint32_t)r - (uint32_t)u - (uint32_t)d);
		}
	uint64_t o = dbuf(sizeof want);
	int w = W, h = H;
	if (!go(P1, 0, 2, 3, 1, 16, 8, 1, (void *[]){ &A.s, &o, &w, &h }))
		cmp_buf("out", o, want, W * H, 4, W, H);
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

static void k_surf2d_uint_shift_write(void)
{
	kb("surf2d_uint_shift_write");
	enum { W = 19, H = 11 };
	Arr A;
	mk(&A, A2D, PTXVM_FORMAT_U32, 1, W, H, 0, 0);
	static const int sh[][2] = { { 3, -2 }, { -5, 4 }, { 0, 0 }, { 19, 0 } };
	static const char *const what[] = { "dst (dx 3, dy -2)", "dst (dx -5, dy 4)", "dst (dx 0, dy 0)",
					    "dst (dx 19, dy 0)" };
	for (int t = 0; t < 4; t++) {
		int dx = sh[t][0], dy = sh[t][1], w = W, h = H;
		if (t == 2)
			h = H - 3;      /* a part of the array */
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				uint32_t v = (uint32_t)(y * w + x) * 2654435761u;
				rwr(&A, (x + dx) * 4, y + dy, 0, ZE, &v);
			}
		if (!go(P1, 0, 2, 2, 1, 16, 8, 1, (void *[]){ &A.s, &dx, &dy, &w, &h }))
			cmp_arr(what[t], &A);
	}
	rm(&A);
	ke();
}

static void k_surf2d_vec4(void)
{
	kb("surf2d_vec4");
	enum { W = 13, H = 9 };
	Arr I, F;
	mk(&I, A2D, PTXVM_FORMAT_S32, 4, W, H, 0, 0);
	mkf(&F, A2D, 4, W, H, 0, 0);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int32_t a[4];
			float f[4], g[4];
			rrd(&I, I.m, x * 16, y, 0, TR, a);
			rrd(&F, F.m, x * 16, y, 0, CL, f);
			for (int c = 0; c < 4; c++)
				g[c] = f[c] + (float)a[c];
			int32_t r[4] = { a[3], a[2], a[1], a[0] };
			rwr(&F, x * 16, y, 0, TR, g);
			rwr(&I, x * 16, y, 0, TR, r);
		}
	int w = W, h = H;
	if (!go(P1, 0, 1, 2, 1, 16, 8, 1, (void *[]){ &I.s, &F.s, &w, &h })) {
		cmp_arr("s_f4", &F);
		cmp_arr("s_i4", &I);
	}
	rm(&I);
	rm(&F);
	ke();
}

static void k_surf2d_narrow(void)
{
	kb("surf2d_narrow");
	enum { W = 35, H = 9 };
	Arr B, S;
	mk(&B, A2D, PTXVM_FORMAT_U8, 1, W, H, 0, 0);
	mk(&S, A2D, PTXVM_FORMAT_S16, 1, W, H, 0, 0);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t b;
			int16_t s;
			rrd(&B, B.m, x, y, 0, TR, &b);
			rrd(&S, S.m, x * 2, y, 0, TR, &s);
			uint8_t b1 = (uint8_t)(b + 1);
			int16_t s1 = (int16_t)(s - b);
			rwr(&B, x, y, 0, TR, &b1);
			rwr(&S, x * 2, y, 0, TR, &s1);
		}
	int w = W, h = H;
	if (!go(P1, 0, 3, 2, 1, 16, 8, 1, (void *[]){ &B.s, &S.s, &w, &h })) {
		cmp_arr("s_u8", &B);
		cmp_arr("s_i16", &S);
	}
	rm(&B);
	rm(&S);
	ke();
}

static void k_surf2d_longlong_clamp(void)
{
	kb("surf2d_longlong_clamp");
	enum { W = 23, H = 7 };
	Arr A;
	mk(&A, A2D, PTXVM_FORMAT_S32, 2, W, H, 0, 0);
	static int64_t want[H][W];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int64_t a, b;
			rrd(&A, A.m, (x + 1) * 8, y, 0, CL, &a);
			rrd(&A, A.m, (x - 1) * 8, y, 0, CL, &b);
			want[y][x] = (int64_t)((uint64_t)a - (uint64_t)b);
		}
	uint64_t o = dbuf(sizeof want);
	int w = W, h = H;
	if (!go(P1, 0, 2, 1, 1, 16, 8, 1, (void *[]){ &A.s, &o, &w, &h }))
		cmp_buf("out", o, want, W * H, 8, W, H);
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

/* ---- surfaces.ptx: 3D ---------------------------------------------------- */

static void k_surf3d_float(void)
{
	kb("surf3d_float");
	enum { W = 11, H = 6, D = 5 };
	Arr S, T;
	mkf(&S, A3D, 1, W, H, D, 0);
	mkf(&T, A3D, 1, W, H, D, 0);
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float v;
				rrd(&S, S.m, x * 4, y, z, TR, &v);
				v = v + (float)z;
				rwr(&T, x * 4, y, z, TR, &v);
			}
	int w = W, h = H, d = D;
	if (!go(P1, 0, 2, 2, 3, 8, 4, 2, (void *[]){ &S.s, &T.s, &w, &h, &d }))
		cmp_arr("dst", &T);
	rm(&S);
	rm(&T);
	ke();
}

static void k_surf3d_stencil_zero(void)
{
	kb("surf3d_stencil_zero");
	enum { W = 11, H = 6, D = 5 };
	Arr A;
	mk(&A, A3D, PTXVM_FORMAT_S32, 1, W, H, D, 0);
	static int32_t want[D][H][W];
	static const int nb[6][3] = { { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 } };
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				uint32_t s = 0;
				for (int k = 0; k < 6; k++) {
					int32_t v;
					rrd(&A, A.m, (x + nb[k][0]) * 4, y + nb[k][1], z + nb[k][2], ZE, &v);
					s += (uint32_t)v;
				}
				want[z][y][x] = (int32_t)s;
			}
	uint64_t o = dbuf(sizeof want);
	int w = W, h = H, d = D;
	if (!go(P1, 0, 2, 2, 3, 8, 4, 2, (void *[]){ &A.s, &o, &w, &h, &d }))
		cmp_buf("out", o, want, W * H * D, 4, W, H);
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

/* One warp: thread (x+2, y+1, z) reads what thread (x, y, z) writes. */
static void k_surf3d_vec_clamp(void)
{
	kb("surf3d_vec_clamp");
	enum { W = 4, H = 3, D = 2 };
	Arr U, S;
	mk(&U, A3D, PTXVM_FORMAT_U8, 4, 3, 2, 2, 0);   /* smaller: x + 2 and z + 1 clamp */
	mk(&S, A3D, PTXVM_FORMAT_S16, 2, W, H, D, 0);
	unsigned char *old = snap(&S);
	static int32_t want[D][H][W][4];
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				uint8_t c[4];
				int16_t s[2];
				rrd(&U, U.m, (x + 2) * 4, y, z + 1, CL, c);
				rrd(&S, old, (x - 2) * 4, y - 1, z, CL, s);
				want[z][y][x][0] = c[0] + s[0];
				want[z][y][x][1] = c[1] + s[1];
				want[z][y][x][2] = c[2];
				want[z][y][x][3] = c[3];
				int16_t r[2] = { s[1], s[0] };
				rwr(&S, x * 4, y, z, TR, r);
			}
	free(old);
	uint64_t o = dbuf(sizeof want);
	int w = W, h = H, d = D;
	if (!go(P1, 0, 1, 1, 1, W, H, D, (void *[]){ &U.s, &S.s, &o, &w, &h, &d })) {
		cmp_buf("out", o, want, W * H * D, 16, W, H);
		cmp_arr("s_s2", &S);
		cmp_arr("s_u4", &U);
	}
	ptxvm_mem_free(dv, o);
	rm(&U);
	rm(&S);
	ke();
}

/* One warp: thread (x, y, z+1) reads what thread (x, y, z) writes. */
static void k_surf3d_uint_char(void)
{
	kb("surf3d_uint_char");
	enum { W = 3, H = 2, D = 4 };
	Arr U, C;
	mk(&U, A3D, PTXVM_FORMAT_U32, 1, W, H, D, 0);
	mk(&C, A3D, PTXVM_FORMAT_S8, 1, W, H, D, 0);
	unsigned char *old = snap(&U);
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				int8_t c;
				uint32_t u;
				rrd(&C, C.m, x, y, z, TR, &c);
				rrd(&U, old, x * 4, y, z, TR, &u);
				uint32_t v = u + (uint32_t)(int32_t)c;
				int8_t c2 = (int8_t)(c ^ 0x55);
				rwr(&U, x * 4, y, z + 1, ZE, &v);
				rwr(&C, x, y, z, TR, &c2);
			}
	free(old);
	int w = W, h = H, d = D;
	if (!go(P1, 0, 1, 1, 1, W, H, D, (void *[]){ &U.s, &C.s, &w, &h, &d })) {
		cmp_arr("s_u32", &U);
		cmp_arr("s_i8", &C);
	}
	rm(&U);
	rm(&C);
	ke();
}

static void k_surf_write_clamp(void)
{
	kb("surf_write_clamp");
	enum { W = 20, EXTRA = 25 };
	Arr S1, S2, S3;
	mk(&S1, A1D, PTXVM_FORMAT_S32, 1, W, 0, 0, 0);
	mkf(&S2, A2D, 1, W, 3, 0, 0);
	mk(&S3, A3D, PTXVM_FORMAT_U16, 2, W, 2, 2, 0);
	for (int x = 0; x < W + EXTRA; x++) {
		int32_t v = x < W ? x : W - 1;
		float f = (float)v;
		uint16_t u[2] = { (uint16_t)v, 7 };
		rwr(&S1, x * 4, 0, 0, CL, &v);
		rwr(&S2, x * 4, 0, 0, CL, &f);
		rwr(&S3, x * 4, 0, 0, CL, u);
	}
	int w = W, extra = EXTRA;
	if (!go(P1, 0, 2, 1, 1, 32, 1, 1, (void *[]){ &S1.s, &S2.s, &S3.s, &w, &extra })) {
		cmp_arr("s1", &S1);
		cmp_arr("s2", &S2);
		cmp_arr("s3", &S3);
	}
	rm(&S1);
	rm(&S2);
	rm(&S3);
	ke();
}

/* ---- surfaces_layered.ptx: 1D and 2D layered ----------------------------- */

static void k_surf1dl_sum_layers(void)
{
	kb("surf1dl_sum_layers");
	enum { W = 45, L = 5 };
	Arr A;
	mkf(&A, A1L, 1, W, 0, 0, L);
	float want[W];
	for (int x = 0; x < W; x++) {
		float acc = 0.0f;
		for (int l = 0; l < L; l++) {
			float v;
			rrd(&A, A.m, x * 4, 0, l, TR, &v);
			acc += v;
		}
		want[x] = acc;
	}
	uint64_t o = dbuf(sizeof want);
	int w = W, layers = L;
	if (!go(P2, 0, 2, 1, 1, 32, 1, 1, (void *[]){ &A.s, &o, &w, &layers }))
		cmp_buf("out", o, want, W, 4, W, 1);
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

static void k_surf1dl_write_int(void)
{
	kb("surf1dl_write_int");
	enum { W = 40, L = 4 };
	Arr S, B;
	mk(&S, A1L, PTXVM_FORMAT_S32, 1, W, 0, 0, L);
	mk(&B, A1L, PTXVM_FORMAT_U8, 1, W, 0, 0, 2);   /* 2 layers: layer 3 clamps to 1 */
	uint64_t o = dbuf(W * 4);
	static const int lay[] = { 1, 3, 0 };
	for (int t = 0; t < 3; t++) {
		int layer = lay[t], w = W;
		uint32_t want[W];
		for (int x = 0; x < W; x++) {
			int32_t v = layer * x;
			uint8_t b;
			rwr(&S, x * 4, 0, layer, TR, &v);
			rrd(&B, B.m, x + 3, 0, layer, CL, &b);
			want[x] = b;
		}
		if (!go(P2, 0, 2, 1, 1, 32, 1, 1, (void *[]){ &S.s, &B.s, &o, &w, &layer })) {
			cmp_buf(t == 0 ? "out (layer 1)" : t == 1 ? "out (layer 3)" : "out (layer 0)", o, want, W, 4, W, 1);
			cmp_arr(t == 0 ? "s (layer 1)" : t == 1 ? "s (layer 3)" : "s (layer 0)", &S);
		}
	}
	ptxvm_mem_free(dv, o);
	rm(&S);
	rm(&B);
	ke();
}

/* One warp: thread x + 2 shift reads what thread x writes. */
static void k_surf1dl_vec_zero(void)
{
	kb("surf1dl_vec_zero");
	enum { W = 20, L = 3 };
	Arr S2, U4;
	mk(&S2, A1L, PTXVM_FORMAT_S16, 2, W, 0, 0, L);
	mk(&U4, A1L, PTXVM_FORMAT_U8, 4, W, 0, 0, L);
	uint64_t o = dbuf(W * 16);
	static const int cs[][2] = { { 1, 3 }, { 2, -4 }, { 0, 25 } };   /* layer, shift */
	static const char *const what[][2] = { { "out (layer 1, shift 3)", "s_u4 (layer 1, shift 3)" },
					       { "out (layer 2, shift -4)", "s_u4 (layer 2, shift -4)" },
					       { "out (layer 0, shift 25)", "s_u4 (layer 0, shift 25)" } };
	for (int t = 0; t < 3; t++) {
		int w = W, layer = cs[t][0], shift = cs[t][1];
		int32_t want[W][4];
		unsigned char *old = snap(&U4);
		for (int x = 0; x < W; x++) {
			int16_t a[2];
			uint8_t c[4];
			rrd(&S2, S2.m, (x + shift) * 4, 0, layer, ZE, a);
			rrd(&U4, old, (x - shift) * 4, 0, layer, ZE, c);
			want[x][0] = a[0];
			want[x][1] = a[1];
			want[x][2] = c[0] + c[1];
			want[x][3] = c[2] + c[3];
			uint8_t r[4] = { c[3], c[2], c[1], c[0] };
			rwr(&U4, (x + shift) * 4, 0, layer, ZE, r);
		}
		free(old);
		if (!go(P2, 0, 1, 1, 1, 32, 1, 1, (void *[]){ &S2.s, &U4.s, &o, &w, &layer, &shift })) {
			cmp_buf(what[t][0], o, want, W, 16, W, 1);
			cmp_arr(what[t][1], &U4);
		}
	}
	ptxvm_mem_free(dv, o);
	rm(&S2);
	rm(&U4);
	ke();
}

static void k_surf2dl_scale_float4(void)
{
	kb("surf2dl_scale_float4");
	enum { W = 9, H = 7, L = 3 };
	Arr A;
	mkf(&A, A2L, 4, W, H, 0, L);
	float scale[L] = { 0.5f, -3.25f, 1.0f / 3.0f };
	for (int l = 0; l < L; l++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float v[4];
				rrd(&A, A.m, x * 16, y, l, TR, v);
				for (int c = 0; c < 4; c++)
					v[c] *= scale[l];
				rwr(&A, x * 16, y, l, TR, v);
			}
	uint64_t ds = dbuf(sizeof scale);
	ptxvm_memcpy_htod(dv, ds, scale, sizeof scale);
	int w = W, h = H, layers = L;
	if (!go(P2, 0, 1, 1, L, 16, 8, 1, (void *[]){ &A.s, &ds, &w, &h, &layers }))
		cmp_arr("s", &A);
	ptxvm_mem_free(dv, ds);
	rm(&A);
	ke();
}

static void k_surf2dl_layer_diff_clamp(void)
{
	kb("surf2dl_layer_diff_clamp");
	enum { W = 10, H = 6, L = 4 };
	Arr A;
	mk(&A, A2L, PTXVM_FORMAT_S32, 2, W, H, 0, L);
	uint64_t o = dbuf(W * H * 8);
	/* la, lb: past the end clamp to the last layer, and so does a negative
	 * layer, an unsigned index in PTX */
	static const int cs[][2] = { { 1, 3 }, { 6, -2 }, { -1, 4 } };
	static const char *const what[] = { "out (la 1, lb 3)", "out (la 6, lb -2)", "out (la -1, lb 4)" };
	for (int t = 0; t < 3; t++) {
		int la = cs[t][0], lb = cs[t][1], w = W, h = H;
		int32_t want[H][W][2];
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				int32_t a[2], b[2];
				rrd(&A, A.m, (x + 1) * 8, y, la, CL, a);
				rrd(&A, A.m, x * 8, y - 1, lb, CL, b);
				want[y][x][0] = (int32_t)((uint32_t)a[0] - (uint32_t)b[0]);
				want[y][x][1] = (int32_t)((uint32_t)a[1] - (uint32_t)b[1]);
			}
		if (!go(P2, 0, 1, 1, 1, 16, 8, 1, (void *[]){ &A.s, &o, &w, &h, &la, &lb }))
			cmp_buf(what[t], o, want, W * H, 8, W, H);
	}
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

/* Rows of 8 threads, 4 to a warp: thread x + 1 reads the char thread x writes. */
static void k_surf2dl_ull_char_zero(void)
{
	kb("surf2dl_ull_char_zero");
	enum { W = 8, H = 6, L = 3 };
	Arr U, C;
	mk(&U, A2L, PTXVM_FORMAT_U32, 2, W, H, 0, L);
	mk(&C, A2L, PTXVM_FORMAT_S8, 1, W, H, 0, L);
	static const int lay[] = { 0, 2, 1 };  /* layer 2: the u64 writes to layer 3 are dropped */
	static const char *const what[][2] = { { "s_u64 (layer 0)", "s_i8 (layer 0)" },
					       { "s_u64 (layer 2)", "s_i8 (layer 2)" },
					       { "s_u64 (layer 1)", "s_i8 (layer 1)" } };
	for (int t = 0; t < 3; t++) {
		int layer = lay[t], w = W, h = H;
		unsigned char *oldc = snap(&C), *oldu = snap(&U);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				uint64_t v;
				int8_t c;
				rrd(&U, oldu, x * 8, y, layer, TR, &v);
				rrd(&C, oldc, x, y, layer, ZE, &c);
				uint64_t nv = v * 3ull + (uint64_t)(int64_t)c;
				int8_t nc = (int8_t)(c + 1);
				rwr(&U, x * 8, y, layer + 1, ZE, &nv);
				rwr(&C, x + 1, y, layer, ZE, &nc);
			}
		free(oldc);
		free(oldu);
		if (!go(P2, 0, 1, 2, 1, 8, 4, 1, (void *[]){ &U.s, &C.s, &w, &h, &layer })) {
			cmp_arr(what[t][0], &U);
			cmp_arr(what[t][1], &C);
		}
	}
	rm(&U);
	rm(&C);
	ke();
}

/* Rows of 8 threads, 4 to a warp: thread x + 1 reads the float2 thread x
 * writes; threads 6 and 7 both write element 7 (7 + 1 clamps), so the two
 * elements start out equal in every row. */
static void k_surf2dl_wide_clamp(void)
{
	kb("surf2dl_wide_clamp");
	enum { W = 8, H = 5, L = 2 };
	Arr A, F;
	mk(&A, A2L, PTXVM_FORMAT_S32, 4, W, H, 0, L);
	mkf(&F, A2L, 2, W, H, 0, L);
	int layer = 1, w = W, h = H;
	for (int y = 0; y < H; y++)
		memcpy(el(&F, F.m, W - 1, y, layer), el(&F, F.m, W - 2, y, layer), F.es);
	put(&F);
	unsigned char *old = snap(&F);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int64_t a[2];
			float f[2];
			rrd(&A, A.m, x * 16, y, layer, TR, a);
			rrd(&F, old, x * 8, y, layer, CL, f);
			int64_t na[2] = { a[1], (int64_t)((uint64_t)a[0] + (uint64_t)(int64_t)f[0]) };
			float nf[2] = { f[0] * 0.5f, f[1] * 2.0f };
			rwr(&A, x * 16, y, layer, CL, na);
			rwr(&F, (x + 1) * 8, y, layer, CL, nf);
		}
	free(old);
	if (!go(P2, 0, 1, 2, 1, 8, 4, 1, (void *[]){ &A.s, &F.s, &w, &h, &layer })) {
		cmp_arr("s_ll2", &A);
		cmp_arr("s_f2", &F);
	}
	rm(&A);
	rm(&F);
	ke();
}

/* ---- surfaces_layered.ptx: cubemaps --------------------------------------- */

static void k_surfcube_fill(void)
{
	kb("surfcube_fill");
	enum { S = 7 };
	Arr A;
	mkf(&A, ACU, 1, S, S, 0, 0);
	for (int f = 0; f < 6; f++)
		for (int y = 0; y < S; y++)
			for (int x = 0; x < S; x++) {
				float v = (float)(f * 1000 + y * S + x);
				rwr(&A, x * 4, y, f, TR, &v);
			}
	int size = S;
	if (!go(P2, 0, 1, 1, 6, 8, 8, 1, (void *[]){ &A.s, &size }))
		cmp_arr("s", &A);
	rm(&A);
	ke();
}

static void k_surfcube_average_uchar4(void)
{
	kb("surfcube_average_uchar4");
	enum { S = 9 };
	Arr A;
	mk(&A, ACU, PTXVM_FORMAT_U8, 4, S, S, 0, 0);
	uint8_t want[S][S][4];
	for (int y = 0; y < S; y++)
		for (int x = 0; x < S; x++) {
			unsigned sum[4] = { 0 };
			for (int f = 0; f < 6; f++) {
				uint8_t p[4];
				rrd(&A, A.m, x * 4, y, f, TR, p);
				for (int c = 0; c < 4; c++)
					sum[c] += p[c];
			}
			for (int c = 0; c < 4; c++)
				want[y][x][c] = (uint8_t)(sum[c] / 6);
		}
	uint64_t o = dbuf(sizeof want);
	int size = S;
	if (!go(P2, 0, 2, 2, 1, 8, 8, 1, (void *[]){ &A.s, &o, &size }))
		cmp_buf("out", o, want, S * S, 4, S, S);
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

/* One warp (5 x 6 threads): thread (x - 1, y + 1) reads what (x, y) writes. */
static void k_surfcube_int_modes(void)
{
	kb("surfcube_int_modes");
	enum { S = 5 };
	Arr A;
	mk(&A, ACU, PTXVM_FORMAT_S32, 1, S, S, 0, 0);
	uint64_t o = dbuf(S * S * 8);
	static const int faces[] = { 3, 0, 5 };
	static const char *const what[][2] = { { "out (face 3)", "s (face 3)" }, { "out (face 0)", "s (face 0)" },
					       { "out (face 5)", "s (face 5)" } };
	for (int t = 0; t < 3; t++) {
		int face = faces[t], size = S;
		int32_t want[S][S][2];
		unsigned char *old = snap(&A);
		for (int y = 0; y < S; y++)
			for (int x = 0; x < S; x++) {
				int32_t c, z;
				rrd(&A, old, (x + 1) * 4, y, face, CL, &c);
				rrd(&A, old, (x + 1) * 4, y, face, ZE, &z);
				want[y][x][0] = c;
				want[y][x][1] = z;
				int32_t v = (int32_t)((uint32_t)c - (uint32_t)z);
				rwr(&A, x * 4, y + 1, face, ZE, &v);
			}
		free(old);
		if (!go(P2, 0, 1, 1, 1, 5, 6, 1, (void *[]){ &A.s, &o, &size, &face })) {
			cmp_buf(what[t][0], o, want, S * S, 8, S, S);
			cmp_arr(what[t][1], &A);
		}
	}
	ptxvm_mem_free(dv, o);
	rm(&A);
	ke();
}

static void k_surfcube_short(void)
{
	kb("surfcube_short");
	enum { S = 6 };
	Arr A;
	mk(&A, ACU, PTXVM_FORMAT_S16, 1, S, S, 0, 0);
	for (int f = 0; f < 6; f++)
		for (int y = 0; y < S; y++)
			for (int x = 0; x < S; x++) {
				int16_t v;
				rrd(&A, A.m, x * 2, y, f, TR, &v);
				v = (int16_t)-v;
				rwr(&A, x * 2, y, f, TR, &v);
			}
	int size = S;
	if (!go(P2, 0, 1, 1, 6, 8, 8, 1, (void *[]){ &A.s, &size }))
		cmp_arr("s", &A);
	rm(&A);
	ke();
}

static void k_surfcubel_copy_layer(void)
{
	kb("surfcubel_copy_layer");
	enum { S = 5, L = 3 };
	Arr A;
	mkf(&A, ACL, 1, S, S, 0, L);
	static const int cs[][2] = { { 2, 0 }, { 0, 1 } };
	for (int t = 0; t < 2; t++) {
		int size = S, src = cs[t][0], dst = cs[t][1];
		for (int f = 0; f < 6; f++)
			for (int y = 0; y < S; y++)
				for (int x = 0; x < S; x++) {
					float v;
					rrd(&A, A.m, x * 4, y, src * 6 + f, TR, &v);
					rwr(&A, x * 4, y, dst * 6 + f, TR, &v);
				}
		if (!go(P2, 0, 1, 1, 6, 8, 8, 1, (void *[]){ &A.s, &size, &src, &dst }))
			cmp_arr(t == 0 ? "s (layer 2 to 0)" : "s (layer 0 to 1)", &A);
	}
	rm(&A);
	ke();
}

static void k_surfcubel_vec(void)
{
	kb("surfcubel_vec");
	enum { S = 6, L = 2 };
	Arr F, I;
	mkf(&F, ACL, 4, S, S, 0, L);
	/* quarters, so that ties to even are exercised */
	float *fp = (float *)F.m;
	for (size_t i = 0; i < F.bytes / 4; i++)
		fp[i] = (float)((int32_t)(rnd() % 8001u) - 4000) / 4.0f;
	put(&F);
	mk(&I, ACL, PTXVM_FORMAT_S32, 4, S, S, 0, L);
	static const int lfs[] = { 10, 0, 11 };
	static const char *const what[] = { "s_i4 (layerface 10)", "s_i4 (layerface 0)", "s_i4 (layerface 11)" };
	for (int t = 0; t < 3; t++) {
		int size = S, lf = lfs[t];
		for (int y = 0; y < S; y++)
			for (int x = 0; x < S; x++) {
				float f[4];
				int32_t v[4];
				rrd(&F, F.m, (x - 1) * 16, y, lf, CL, f);
				for (int c = 0; c < 4; c++)
					v[c] = (int32_t)lrintf(f[c]);
				rwr(&I, (x + 1) * 16, y, lf, ZE, v);
			}
		if (!go(P2, 0, 1, 1, 1, 8, 8, 1, (void *[]){ &F.s, &I.s, &size, &lf }))
			cmp_arr(what[t], &I);
	}
	rm(&F);
	rm(&I);
	ke();
}

/* One warp (5 x 5 threads): thread (x, y + 1) reads the byte (x, y) writes. */
static void k_surfcubel_narrow_zero(void)
{
	kb("surfcubel_narrow_zero");
	enum { S = 5, L = 2 };
	Arr B, U;
	mk(&B, ACL, PTXVM_FORMAT_U8, 1, S, S, 0, L);
	mk(&U, ACL, PTXVM_FORMAT_U32, 1, S, S, 0, L);
	uint64_t o = dbuf(S * S * 4);
	static const int lfs[] = { 7, 0, 11 };
	static const char *const what[][2] = { { "out (layerface 7)", "s_u8 (layerface 7)" },
					       { "out (layerface 0)", "s_u8 (layerface 0)" },
					       { "out (layerface 11)", "s_u8 (layerface 11)" } };
	for (int t = 0; t < 3; t++) {
		int size = S, lf = lfs[t];
		uint32_t want[S][S];
		unsigned char *old = snap(&B);
		for (int y = 0; y < S; y++)
			for (int x = 0; x < S; x++) {
				uint8_t b;
				uint32_t u;
				rrd(&B, old, x, y - 1, lf, ZE, &b);
				rrd(&U, U.m, x * 4, y, lf, ZE, &u);
				want[y][x] = u * 256u + b;
				uint8_t b2 = (uint8_t)(b * 2);
				rwr(&B, x, y, lf, TR, &b2);
			}
		free(old);
		if (!go(P2, 0, 1, 1, 1, 5, 5, 1, (void *[]){ &B.s, &U.s, &o, &size, &lf })) {
			cmp_buf(what[t][0], o, want, S * S, 4, S, S);
			cmp_arr(what[t][1], &B);
		}
	}
	ptxvm_mem_free(dv, o);
	rm(&B);
	rm(&U);
	ke();
}

/* ---- the group ------------------------------------------------------------ */

static ptxvm_program *load(const char *root, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	ptxvm_module *m = ptxvm_module_load_file(path, NULL);
	ptxvm_program *p = NULL;
	if (!m || ptxvm_module_errors(m) || ptxvm_program_load(dv, m, &p)) {
		fail("surfk: cannot load %s: %s", rel, ptxvm_device_message(dv));
		p = NULL;
	}
	ptxvm_module_free(m);
	return p;
}

void test_surfk(const char *root)
{
	dv = ptxvm_device_create(NULL);
	if (!dv) {
		fail("surfk: cannot create a device");
		return;
	}
	P1 = load(root, "tests/ptx/surfaces.ptx");
	P2 = load(root, "tests/ptx/surfaces_layered.ptx");
	if (P1) {
		k_surf1d_read_float();
		k_surf1d_write_float();
		k_surf1d_rmw_int();
		k_surf1d_char_clamp();
		k_surf1d_short_zero();
		k_surf1d_longlong();
		k_surf1d_vec2();
		k_surf2d_copy_float();
		k_surf2d_invert_uchar4();
		k_surf2d_blur_clamp();
		k_surf2d_laplace_zero();
		k_surf2d_uint_shift_write();
		k_surf2d_vec4();
		k_surf2d_narrow();
		k_surf2d_longlong_clamp();
		k_surf3d_float();
		k_surf3d_stencil_zero();
		k_surf3d_vec_clamp();
		k_surf3d_uint_char();
		k_surf_write_clamp();
		ptxvm_program_unload(P1);
	}
	if (P2) {
		k_surf1dl_sum_layers();
		k_surf1dl_write_int();
		k_surf1dl_vec_zero();
		k_surf2dl_scale_float4();
		k_surf2dl_layer_diff_clamp();
		k_surf2dl_ull_char_zero();
		k_surf2dl_wide_clamp();
		k_surfcube_fill();
		k_surfcube_average_uchar4();
		k_surfcube_int_modes();
		k_surfcube_short();
		k_surfcubel_copy_layer();
		k_surfcubel_vec();
		k_surfcubel_narrow_zero();
		ptxvm_program_unload(P2);
	}
	ptxvm_device_destroy(dv);
	dv = NULL;
}
