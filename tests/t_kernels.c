/* t_kernels.c: every kernel of tests/cuda/{intmath,floatmath,half,shared,
 * warp,functions,memory,constant,printf,atomics,sm90}.cu, run from its nvcc
 * output in tests/ptx through the public API and compared with a reference
 * computed here in C from what CUDA's documentation says the source means.
 *
 * Each kernel counts one pass, or one fail naming the kernel, the first
 * mismatching element, the expected and the obtained value (hex for
 * floats).  Inputs are deterministic pseudo-random values mixed with edge
 * values; launches use several CTAs with a partial last warp where the
 * kernel allows it.
 *
 * Comparisons: integers and correctly rounded float results bit for bit,
 * except that a NaN matches any NaN (PTX leaves NaN payloads of arithmetic
 * results to the implementation).  Intrinsics documented as approximate are
 * compared within the bound the CUDA programming guide (Appendix "Mathematical
 * Functions", "Intrinsic Functions" tables) or the PTX ISA gives; each bound
 * is stated where it is used.
 */
#include "test.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the harness ------------------------------------------------------------ */

typedef struct Ctx {
	ptxvm_device *d;
	ptxvm_program *p;
	const char *file;
	int bad;                /* the module did not load: every kernel fails */
} Ctx;

static int ctx_open_opts(Ctx *c, const char *root, const char *name, const ptxvm_device_opts *o)
{
	char path[4096];
	size_t len;
	memset(c, 0, sizeof *c);
	c->file = name;
	snprintf(path, sizeof path, "%s/tests/ptx/%s.ptx", root, name);
	char *text = slurp(path, &len);
	if (!text) {
		fail("kernels: %s unreadable", path);
		c->bad = 1;
		return 0;
	}
	ptxvm_module *m = ptxvm_module_load(path, text, len, NULL);
	free(text);
	c->d = ptxvm_device_create(o);
	ptxvm_result r = ptxvm_program_load(c->d, m, &c->p);
	ptxvm_module_free(m);
	if (r != PTXVM_SUCCESS) {
		fail("kernels: %s: program_load: %s: %s", name, ptxvm_result_name(r),
		     ptxvm_device_message(c->d));
		c->bad = 1;
		return 0;
	}
	return 1;
}

static int ctx_open(Ctx *c, const char *root, const char *name)
{
	ptxvm_device_opts o = { 0 };
	o.workers = 2;
	return ctx_open_opts(c, root, name, &o);
}

static void ctx_close(Ctx *c)
{
	if (c->p)
		ptxvm_program_unload(c->p);
	if (c->d)
		ptxvm_device_destroy(c->d);
	memset(c, 0, sizeof *c);
}

/* Device copy of host data (zeroed when h is NULL). */
static uint64_t up(Ctx *c, const void *h, size_t bytes)
{
	uint64_t a = 0;
	if (!c->d || ptxvm_mem_alloc(c->d, bytes ? bytes : 1, &a) != PTXVM_SUCCESS)
		return 0;
	if (h)
		ptxvm_memcpy_htod(c->d, a, h, bytes);
	else
		ptxvm_memset_d8(c->d, a, 0, bytes ? bytes : 1);
	return a;
}

static uint64_t zbuf(Ctx *c, size_t bytes) { return up(c, NULL, bytes); }

static void *down(Ctx *c, uint64_t a, size_t bytes)
{
	void *h = calloc(1, bytes ? bytes : 1);
	if (c->d && a)
		ptxvm_memcpy_dtoh(c->d, h, a, bytes);
	return h;
}

static void downto(Ctx *c, void *h, uint64_t a, size_t bytes)
{
	if (c->d && a)
		ptxvm_memcpy_dtoh(c->d, h, a, bytes);
}

/* Launches kernel k; on failure reports it (one fail) and returns 0. */
static int launch3(Ctx *c, const char *k, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
		   unsigned bz, size_t shared, void **args)
{
	if (c->bad) {
		fail("%s: %s.ptx did not load", k, c->file);
		return 0;
	}
	const ptxvm_kernel *kk = ptxvm_kernel_find(c->p, k);
	if (!kk) {
		fail("%s: no such kernel in %s.ptx", k, c->file);
		return 0;
	}
	ptxvm_launch_config cfg = { { gx, gy, gz }, { bx, by, bz }, shared };
	ptxvm_result r = ptxvm_launch(c->d, kk, &cfg, args, NULL);
	if (r != PTXVM_SUCCESS) {
		fail("%s: launch: %s: %s", k, ptxvm_result_name(r), ptxvm_device_message(c->d));
		return 0;
	}
	return 1;
}

#define LAUNCH(c, k, g, b, sh, ...) \
	launch3(c, k, g, 1, 1, b, 1, 1, sh, (void *[]){ __VA_ARGS__ })

/* Returns the launch result without reporting. */
static ptxvm_result launch_raw(Ctx *c, const char *k, unsigned g, unsigned b, void **args)
{
	if (c->bad)
		return PTXVM_ERROR_INVALID_HANDLE;
	const ptxvm_kernel *kk = ptxvm_kernel_find(c->p, k);
	if (!kk)
		return PTXVM_ERROR_NOT_FOUND;
	ptxvm_launch_config cfg = { { g, 1, 1 }, { b, 1, 1 }, 0 };
	return ptxvm_launch(c->d, kk, &cfg, args, NULL);
}

static unsigned cdiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

/* ---- inputs ----------------------------------------------------------------- */

static uint64_t rng_s = 0x9e3779b97f4a7c15ull;
static void seed(uint64_t s) { rng_s = s * 0x9e3779b97f4a7c15ull + 1; }
static uint64_t rnd64(void)
{
	uint64_t x = rng_s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_s = x;
	return x * 0x2545f4914f6cdd1dull;
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static int rndint(int lo, int hi) { return lo + (int)(rnd64() % (uint64_t)(hi - lo + 1)); }
/* A float of moderate magnitude with a random mantissa: [-range, range]. */
static float rndf(float range) { return (float)((double)(rnd64() >> 11) / 9007199254740992.0 * 2.0 - 1.0) * range; }

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double f64_of(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t bits64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

static const uint32_t edge_u32[] = { 0, 0xffffffffu, 0x80000000u, 0x7fffffffu, 1, 2, 3, 0x80000001u, 0xfffffffeu,
				     0x55555555u, 0xaaaaaaaau, 0x0000ffffu, 0xffff0000u, 0x00ff00ffu, 0x12345678u,
				     0x7f7f7f7fu, 0x80808080u, 0x01010101u, 0xfefefefeu, 0x8000u, 0x7fffu, 0x80u };
#define NEDGE_U32 (sizeof edge_u32 / sizeof edge_u32[0])
static const uint64_t edge_u64[] = { 0, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 1, 2, 0xffffffffull,
				     0x100000000ull, 0x8000000000000001ull, 0xfffffffffffffffeull,
				     0x5555555555555555ull, 0x00000000ffffffffull, 0xffffffff00000000ull,
				     0x123456789abcdef0ull, 0x80000000ull, 0xffffffff80000000ull };
#define NEDGE_U64 (sizeof edge_u64 / sizeof edge_u64[0])
static const uint32_t edge_f32[] = {
	0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00001,
	0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
	0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000,
	0x4f000000, 0xcf000000, 0x4f800000, 0x5f000000, 0xdf000000, 0x5f800000, 0x4b000001, 0x3effffff,
	0x40490fdb, 0x42c80000, 0x3dcccccd, 0x34000000, 0x4effffff, 0x5effffff, 0xcf000001,
};
#define NEDGE_F32 (sizeof edge_f32 / sizeof edge_f32[0])
static const uint64_t edge_f64[] = {
	0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
	0x0000000000000001ull, 0x800fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
	0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull, 0xbfe0000000000000ull,
	0x3ff8000000000000ull, 0xc004000000000000ull, 0x41e0000000000000ull, 0xc1e0000000000000ull,
	0x41f0000000000000ull, 0x43e0000000000000ull, 0xc3e0000000000000ull, 0x43f0000000000000ull,
	0x41dfffffffc00000ull, 0x3fdfffffffffffffull, 0x400921fb54442d18ull, 0x4059000000000000ull,
	0x36a0000000000000ull, 0x47efffffe0000000ull, 0x47efffffe0000001ull, 0x3810000000000000ull,
	0x3690000000000000ull,
};
#define NEDGE_F64 (sizeof edge_f64 / sizeof edge_f64[0])

static void fill_u32(uint32_t *v, int n, int edges)
{
	for (int i = 0; i < n; i++) {
		uint32_t r = rnd32();
		switch (rnd32() % 4) {
		case 0: r &= 0xff; break;
		case 1: r = (uint32_t)(int32_t)(int16_t)r; break;
		default: break;
		}
		v[i] = (edges && (unsigned)i < NEDGE_U32 * 2 && i % 2 == 0) ? edge_u32[i / 2] : r;
	}
}
static void fill_u64(uint64_t *v, int n, int edges)
{
	for (int i = 0; i < n; i++) {
		uint64_t r = rnd64();
		switch (rnd32() % 4) {
		case 0: r &= 0xffff; break;
		case 1: r = (uint64_t)(int64_t)(int32_t)r; break;
		default: break;
		}
		v[i] = (edges && (unsigned)i < NEDGE_U64 * 3 && i % 3 == 1) ? edge_u64[i / 3] : r;
	}
}
/* Floats: edges at the start (offset by phase so two operands pair differently), then random. */
static void fill_f32(float *v, int n, int phase, float range)
{
	for (int i = 0; i < n; i++) {
		if (i < (int)(NEDGE_F32 * 2) && (i % 2 == 0 || phase))
			v[i] = f32_of(edge_f32[(i + phase * 7) % NEDGE_F32]);
		else if (rnd32() % 8 == 0)
			v[i] = (float)rndint(-20, 20) * 0.5f;
		else
			v[i] = rndf(range);
	}
}
static void fill_f64(double *v, int n, int phase, double range)
{
	for (int i = 0; i < n; i++) {
		if (i < (int)(NEDGE_F64 * 2) && (i % 2 == 0 || phase))
			v[i] = f64_of(edge_f64[(i + phase * 5) % NEDGE_F64]);
		else if (rnd32() % 8 == 0)
			v[i] = (double)rndint(-20, 20) * 0.5;
		else
			v[i] = ((double)(rnd64() >> 11) / 9007199254740992.0 * 2.0 - 1.0) * range;
	}
}

/* ---- comparisons ------------------------------------------------------------ */

/* Each compares n elements; on the first mismatch reports and returns 0. */
static int cmp_u32(const char *k, const void *exp, const void *got, size_t n)
{
	const uint32_t *e = exp, *g = got;
	for (size_t i = 0; i < n; i++)
		if (e[i] != g[i]) {
			fail("%s: element %zu: expected 0x%08x (%d), got 0x%08x (%d)", k, i, e[i], (int)e[i], g[i],
			     (int)g[i]);
			return 0;
		}
	return 1;
}
static int cmp_u64(const char *k, const void *exp, const void *got, size_t n)
{
	const uint64_t *e = exp, *g = got;
	for (size_t i = 0; i < n; i++)
		if (e[i] != g[i]) {
			fail("%s: element %zu: expected 0x%016llx (%lld), got 0x%016llx (%lld)", k, i,
			     (unsigned long long)e[i], (long long)e[i], (unsigned long long)g[i], (long long)g[i]);
			return 0;
		}
	return 1;
}
static int cmp_u16(const char *k, const void *exp, const void *got, size_t n)
{
	const uint16_t *e = exp, *g = got;
	for (size_t i = 0; i < n; i++)
		if (e[i] != g[i]) {
			fail("%s: element %zu: expected 0x%04x, got 0x%04x", k, i, e[i], g[i]);
			return 0;
		}
	return 1;
}
static int cmp_u8(const char *k, const void *exp, const void *got, size_t n)
{
	const uint8_t *e = exp, *g = got;
	for (size_t i = 0; i < n; i++)
		if (e[i] != g[i]) {
			fail("%s: element %zu: expected 0x%02x, got 0x%02x", k, i, e[i], g[i]);
			return 0;
		}
	return 1;
}
/* Floats: bit-exact, a NaN matching any NaN. */
static int cmp_f32(const char *k, const float *e, const float *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (bits32(e[i]) != bits32(g[i]) && !(isnan(e[i]) && isnan(g[i]))) {
			fail("%s: element %zu: expected 0x%08x (%.9g), got 0x%08x (%.9g)", k, i, bits32(e[i]),
			     (double)e[i], bits32(g[i]), (double)g[i]);
			return 0;
		}
	return 1;
}
static int cmp_f64(const char *k, const double *e, const double *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (bits64(e[i]) != bits64(g[i]) && !(isnan(e[i]) && isnan(g[i]))) {
			fail("%s: element %zu: expected 0x%016llx (%.17g), got 0x%016llx (%.17g)", k, i,
			     (unsigned long long)bits64(e[i]), e[i], (unsigned long long)bits64(g[i]), g[i]);
			return 0;
		}
	return 1;
}
/* Within tolerance: |g - e| <= abs_tol + rel_tol * |e| (same specials). */
static int near_f32(float e, float g, double rel, double abst)
{
	if (isnan(e) || isnan(g))
		return isnan(e) && isnan(g);
	if (isinf(e) || isinf(g))
		return e == g;
	return fabs((double)g - (double)e) <= abst + rel * fabs((double)e);
}
static int report_near(const char *k, size_t i, float e, float g, const char *bound)
{
	fail("%s: element %zu: expected 0x%08x (%.9g), got 0x%08x (%.9g), beyond %s", k, i, bits32(e), (double)e,
	     bits32(g), (double)g, bound);
	return 0;
}

static void ok(int good)
{
	if (good)
		passed++;
}

/* ===========================================================================
 * intmath.cu
 * =========================================================================== */

static uint32_t brev32(uint32_t x)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++)
		r |= ((x >> i) & 1) << (31 - i);
	return r;
}
static int clz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }
static int clz64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }

/* prmt.b32 default mode: {b:a} bytes 0..7, selector nibble bit 3 replicates the sign. */
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t s)
{
	uint64_t v = (uint64_t)b << 32 | a;
	uint32_t r = 0;
	for (int n = 0; n < 4; n++) {
		unsigned c = (s >> (4 * n)) & 15;
		uint32_t byte = (uint32_t)(v >> (8 * (c & 7))) & 0xff;
		if (c & 8)
			byte = (byte & 0x80) ? 0xff : 0;
		r |= byte << (8 * n);
	}
	return r;
}

/* shf: funnel shift of {hi:lo}; wrap takes the amount mod 32, clamp min(n, 32). */
static uint32_t shf_l(uint32_t lo, uint32_t hi, uint32_t n)
{
	if (n == 0) return hi;
	if (n >= 32) return lo;
	return (hi << n) | (lo >> (32 - n));
}
static uint32_t shf_r(uint32_t lo, uint32_t hi, uint32_t n)
{
	if (n == 0) return lo;
	if (n >= 32) return hi;
	return (lo >> n) | (hi << (32 - n));
}

static void t_int_mul_hi(Ctx *c)
{
	enum { N = 1000 };
	int32_t a[N], b[N];
	int64_t la[N], lb[N], e[10 * N];
	fill_u32((uint32_t *)a, N, 1);
	fill_u32((uint32_t *)b, N, 0);
	fill_u64((uint64_t *)la, N, 1);
	fill_u64((uint64_t *)lb, N, 0);
	for (int i = 0; i < N; i++) {
		int32_t x = a[i], y = b[i];
		int64_t X = la[i], Y = lb[i];
		int64_t *o = e + 10 * i;
		o[0] = (int32_t)(((int64_t)x * y) >> 32);
		o[1] = (uint32_t)(((uint64_t)(uint32_t)x * (uint32_t)y) >> 32);
		o[2] = (int64_t)(((__int128)X * Y) >> 64);
		o[3] = (int64_t)(uint64_t)(((unsigned __int128)(uint64_t)X * (uint64_t)Y) >> 64);
		o[4] = (int64_t)x * y;
		o[5] = (int64_t)((uint64_t)(uint32_t)x * (uint32_t)y);
		o[6] = (int32_t)((uint32_t)x * (uint32_t)y + (uint32_t)X);
		o[7] = (int64_t)((uint64_t)X * (uint64_t)Y + (uint64_t)(int64_t)x);
		int32_t x24 = (int32_t)((uint32_t)x << 8) >> 8, y24 = (int32_t)((uint32_t)y << 8) >> 8;
		uint32_t m24 = (uint32_t)((int64_t)x24 * y24);
		uint32_t u24 = (uint32_t)((uint64_t)((uint32_t)x & 0xffffff) * ((uint32_t)y & 0xffffff));
		o[8] = (uint32_t)(m24 + u24);       /* int + unsigned is unsigned */
		o[9] = (int64_t)((uint64_t)X - (uint64_t)Y * 3);
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), dla = up(c, la, sizeof la),
		 dlb = up(c, lb, sizeof lb), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_mul_hi", cdiv(N, 256), 256, 0, &da, &db, &dla, &dlb, &dout, &n))
		return;
	int64_t *g = down(c, dout, sizeof e);
	ok(cmp_u64("int_mul_hi", e, g, 10 * N));
	free(g);
}

static void t_int_divmod(Ctx *c)
{
	enum { N = 1000 };
	int32_t a[N], b[N];
	int64_t la[N], lb[N], e[8 * N];
	fill_u32((uint32_t *)a, N, 1);
	fill_u32((uint32_t *)b, N, 0);
	fill_u64((uint64_t *)la, N, 1);
	fill_u64((uint64_t *)lb, N, 0);
	for (int i = 0; i < N; i++) {
		if (i % 5 == 0)
			b[i] = rndint(-40, 40);
		if (i % 7 == 0)
			lb[i] = rndint(-1000, 1000);
		if (b[i] == 0 || (a[i] == INT_MIN && b[i] == -1))
			b[i] = i % 3 ? 7 : -1;
		if (lb[i] == 0 || (la[i] == INT64_MIN && lb[i] == -1))
			lb[i] = i % 3 ? 13 : -1;
	}
	for (int i = 0; i < N; i++) {
		int32_t x = a[i], y = b[i];
		int64_t X = la[i], Y = lb[i];
		int64_t *o = e + 8 * i;
		o[0] = x / y;
		o[1] = x % y;
		o[2] = (uint32_t)x / (uint32_t)y;
		o[3] = (uint32_t)x % (uint32_t)y;
		o[4] = X / Y;
		o[5] = X % Y;
		o[6] = (int64_t)((uint64_t)X / (uint64_t)Y);
		o[7] = (int64_t)((uint64_t)X % (uint64_t)Y);
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), dla = up(c, la, sizeof la),
		 dlb = up(c, lb, sizeof lb), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_divmod", cdiv(N, 256), 256, 0, &da, &db, &dla, &dlb, &dout, &n))
		return;
	int64_t *g = down(c, dout, sizeof e);
	ok(cmp_u64("int_divmod", e, g, 8 * N));
	free(g);
}

static void t_int_div_const(Ctx *c)
{
	enum { N = 1000 };
	int32_t a[N], e[6 * N];
	fill_u32((uint32_t *)a, N, 1);
	for (int i = 0; i < N; i++) {
		int32_t x = a[i];
		uint32_t u = (uint32_t)x;
		int32_t *o = e + 6 * i;
		o[0] = x / 7;
		o[1] = x % 10;
		o[2] = (int32_t)(u / 3u);
		o[3] = (int32_t)(u % 1000u);
		o[4] = x / 16;
		o[5] = (int32_t)((u >> 5) + (uint32_t)(x >> 3));
	}
	uint64_t da = up(c, a, sizeof a), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_div_const", cdiv(N, 256), 256, 0, &da, &dout, &n))
		return;
	int32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_div_const", e, g, 6 * N));
	free(g);
}

static int fns_ref(uint32_t mask, int base, int offset)
{
	/* offset > 0: the offset-th set bit at or above base */
	int cnt = 0;
	for (int p = base; p < 32; p++)
		if ((mask >> p) & 1)
			if (++cnt == offset)
				return p;
	return -1;
}

static void t_int_bits(Ctx *c)
{
	enum { N = 1000 };
	uint32_t a[N];
	uint64_t la[N];
	int32_t e[10 * N];
	fill_u32(a, N, 1);
	fill_u64(la, N, 1);
	for (int i = 0; i < N; i++) {
		uint32_t x = a[i];
		uint64_t X = la[i];
		int32_t *o = e + 10 * i;
		o[0] = (int32_t)brev32(x);
		o[1] = (int32_t)brev32((uint32_t)X);
		o[2] = clz32(x);
		o[3] = clz64(X);
		o[4] = __builtin_popcount(x);
		o[5] = __builtin_popcountll(X);
		o[6] = __builtin_ffs((int)x);
		o[7] = __builtin_ffsll((long long)X);
		o[8] = 31 - clz32(x | 1);
		o[9] = fns_ref(x, 0, 3);
	}
	uint64_t da = up(c, a, sizeof a), dla = up(c, la, sizeof la), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_bits", cdiv(N, 256), 256, 0, &da, &dla, &dout, &n))
		return;
	int32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_bits", e, g, 10 * N));
	free(g);
}

static void t_int_permute_shift(Ctx *c)
{
	enum { N = 1000 };
	uint32_t a[N], b[N], s[N], e[8 * N];
	fill_u32(a, N, 1);
	fill_u32(b, N, 0);
	for (int i = 0; i < N; i++)
		s[i] = i % 3 ? (uint32_t)i % 70 : rnd32();
	for (int i = 0; i < N; i++) {
		uint32_t x = a[i], y = b[i], k = s[i];
		uint32_t *o = e + 8 * i;
		o[0] = prmt(x, y, 0x0123);
		/* __byte_perm uses the low 3 bits of each selector nibble */
		o[1] = prmt(x, y, k & 0x7777);
		o[2] = prmt(x, 0, (0x8880 | (k & 3)) & 0x7777);
		o[3] = shf_l(x, y, k & 31);
		o[4] = shf_r(x, y, k & 31);
		o[5] = shf_l(x, y, k < 32 ? k : 32);
		o[6] = shf_r(x, y, k < 32 ? k : 32);
		o[7] = (x << (k & 31)) | (x >> ((32 - (k & 31)) & 31));
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), ds = up(c, s, sizeof s), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_permute_shift", cdiv(N, 256), 256, 0, &da, &db, &ds, &dout, &n))
		return;
	uint32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_permute_shift", e, g, 8 * N));
	free(g);
}

static void t_int_dot(Ctx *c)
{
	enum { N = 1000 };
	int32_t a[N], b[N];
	uint32_t cc[N], e[8 * N];
	fill_u32((uint32_t *)a, N, 1);
	fill_u32((uint32_t *)b, N, 0);
	fill_u32(cc, N, 0);
	for (int i = 0; i < N; i++) {
		uint32_t ux = (uint32_t)a[i], uy = (uint32_t)b[i], z = cc[i];
		uint32_t *o = e + 8 * i;
		uint32_t s4 = z, u4 = z, s2l = z, s2h = z, u2l = z, u2h = z;
		for (int k = 0; k < 4; k++) {
			s4 += (uint32_t)((int8_t)(ux >> (8 * k)) * (int8_t)(uy >> (8 * k)));
			u4 += (uint32_t)(((ux >> (8 * k)) & 0xff) * ((uy >> (8 * k)) & 0xff));
		}
		for (int k = 0; k < 2; k++) {
			int16_t ha = (int16_t)(ux >> (16 * k));
			uint32_t uha = (ux >> (16 * k)) & 0xffff;
			s2l += (uint32_t)(ha * (int8_t)(uy >> (8 * k)));
			s2h += (uint32_t)(ha * (int8_t)(uy >> (8 * (k + 2))));
			u2l += uha * ((uy >> (8 * k)) & 0xff);
			u2h += uha * ((uy >> (8 * (k + 2))) & 0xff);
		}
		o[0] = s4; o[1] = u4; o[2] = s2l; o[3] = s2h; o[4] = u2l; o[5] = u2h;
		int64_t d = (int64_t)a[i] - b[i];
		o[6] = (uint32_t)(d < 0 ? -d : d) + z;
		o[7] = (ux > uy ? ux - uy : uy - ux) + z;
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), dc = up(c, cc, sizeof cc), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_dot", cdiv(N, 256), 256, 0, &da, &db, &dc, &dout, &n))
		return;
	uint32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_dot", e, g, 8 * N));
	free(g);
}

static void t_int_bitfield(Ctx *c)
{
	enum { N = 1000 };
	uint32_t a[N], e[8 * N];
	int32_t s[N];
	fill_u32(a, N, 1);
	fill_u32((uint32_t *)s, N, 0);
	for (int i = 0; i < N; i++) {
		uint32_t x = a[i];
		int32_t sv = s[i];
		uint32_t *o = e + 8 * i;
		int p = i & 31;
		o[0] = (x >> 8) & 0xff;
		o[1] = (x >> 4) & 0xfff;
		o[2] = (uint32_t)((int32_t)((uint32_t)sv << 12) >> 20);
		o[3] = (x & ~0xff00u) | (((uint32_t)sv << 8) & 0xff00u);
		/* bfe.u32: len 5 from pos p, missing bits 0 */
		uint64_t w = x;
		o[4] = (uint32_t)((w >> p) & 31);
		/* bfe.s32: len 7 from p; bits past 31 replicate bit 31 */
		int64_t sw = sv;
		int64_t f = (sw >> p) & 127;
		if (f & 64)
			f -= 128;
		o[5] = (uint32_t)(int32_t)f;
		/* bfi.b32 d, a=s, b=x, pos p, len 9 */
		uint32_t m = (p + 9 >= 32) ? (0xffffffffu << p) : (((1u << 9) - 1) << p);
		o[6] = (x & ~m) | (((uint32_t)sv << p) & m);
		uint64_t v = (uint64_t)x << 20 | (uint32_t)sv;
		int p64 = i & 63;
		uint64_t R = (v >> p64) & ((1ull << 40) - 1);
		o[7] = (uint32_t)(R ^ (R >> 32));
	}
	uint64_t da = up(c, a, sizeof a), ds = up(c, s, sizeof s), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_bitfield", cdiv(N, 256), 256, 0, &da, &ds, &dout, &n))
		return;
	uint32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_bitfield", e, g, 8 * N));
	free(g);
}

/* SIMD video helpers: lanes of w bits (16 or 8). */
typedef int64_t (*lane_fn)(int64_t a, int64_t b, int w);
static uint32_t simd(uint32_t x, uint32_t y, int w, int sgn, lane_fn f)
{
	uint32_t r = 0, m = (1u << w) - 1;
	for (int k = 0; k < 32; k += w) {
		int64_t a = (x >> k) & m, b = (y >> k) & m;
		if (sgn) {
			if (a >> (w - 1)) a -= (int64_t)1 << w;
			if (b >> (w - 1)) b -= (int64_t)1 << w;
		}
		r |= ((uint32_t)f(a, b, w) & m) << k;
	}
	return r;
}
static int64_t l_add(int64_t a, int64_t b, int w) { return a + b; }
static int64_t l_sub(int64_t a, int64_t b, int w) { return a - b; }
static int64_t sat_s(int64_t v, int w) { int64_t hi = ((int64_t)1 << (w - 1)) - 1; return v > hi ? hi : v < -hi - 1 ? -hi - 1 : v; }
static int64_t sat_u(int64_t v, int w) { int64_t hi = ((int64_t)1 << w) - 1; return v > hi ? hi : v < 0 ? 0 : v; }
static int64_t l_addss(int64_t a, int64_t b, int w) { return sat_s(a + b, w); }
static int64_t l_addus(int64_t a, int64_t b, int w) { return sat_u(a + b, w); }
static int64_t l_subus(int64_t a, int64_t b, int w) { return sat_u(a - b, w); }
static int64_t l_absdiff(int64_t a, int64_t b, int w) { return a > b ? a - b : b - a; }
static int64_t l_max(int64_t a, int64_t b, int w) { return a > b ? a : b; }
static int64_t l_min(int64_t a, int64_t b, int w) { return a < b ? a : b; }
static int64_t l_eq(int64_t a, int64_t b, int w) { return a == b ? -1 : 0; }
static int64_t l_gt(int64_t a, int64_t b, int w) { return a > b ? -1 : 0; }
static int64_t l_lt(int64_t a, int64_t b, int w) { return a < b ? -1 : 0; }
static int64_t l_ge(int64_t a, int64_t b, int w) { return a >= b ? -1 : 0; }
static int64_t l_avgr(int64_t a, int64_t b, int w) { return (a + b + 1) >> 1; }
static int64_t l_havg(int64_t a, int64_t b, int w) { return (a + b) >> 1; }
static int64_t l_neg(int64_t a, int64_t b, int w) { return -a; }
static int64_t l_absss(int64_t a, int64_t b, int w) { return sat_s(a < 0 ? -a : a, w); }
static uint32_t simd_sad(uint32_t x, uint32_t y, int w, int sgn)
{
	uint32_t r = 0, m = (1u << w) - 1;
	for (int k = 0; k < 32; k += w) {
		int64_t a = (x >> k) & m, b = (y >> k) & m;
		if (sgn) {
			if (a >> (w - 1)) a -= (int64_t)1 << w;
			if (b >> (w - 1)) b -= (int64_t)1 << w;
		}
		r += (uint32_t)(a > b ? a - b : b - a);
	}
	return r;
}

static void t_int_simd(Ctx *c)
{
	enum { N = 1000 };
	uint32_t a[N], b[N], e[24 * N];
	fill_u32(a, N, 1);
	fill_u32(b, N, 0);
	for (int i = 0; i < N; i++) {
		uint32_t x = a[i], y = b[i];
		uint32_t *o = e + 24 * i;
		o[0] = simd(x, y, 16, 0, l_add);
		o[1] = simd(x, y, 16, 0, l_sub);
		o[2] = simd(x, y, 16, 1, l_addss);
		o[3] = simd(x, y, 16, 0, l_addus);
		o[4] = simd(x, y, 16, 1, l_absdiff);
		o[5] = simd(x, y, 16, 0, l_absdiff);
		o[6] = simd(x, y, 16, 1, l_max);
		o[7] = simd(x, y, 16, 0, l_min);
		o[8] = simd(x, y, 16, 0, l_eq);
		o[9] = simd(x, y, 16, 1, l_gt);
		o[10] = simd(x, y, 16, 0, l_avgr);
		o[11] = simd_sad(x, y, 16, 1);
		o[12] = simd(x, y, 8, 0, l_add);
		o[13] = simd(x, y, 8, 0, l_sub);
		o[14] = simd(x, y, 8, 1, l_addss);
		o[15] = simd(x, y, 8, 0, l_subus);
		o[16] = simd(x, y, 8, 0, l_absdiff);
		o[17] = simd(x, y, 8, 1, l_absdiff);
		o[18] = simd(x, y, 8, 0, l_max);
		o[19] = simd(x, y, 8, 1, l_min);
		o[20] = simd(x, y, 8, 0, l_lt);
		o[21] = simd(x, y, 8, 1, l_ge);
		o[22] = simd_sad(x, y, 8, 0);
		o[23] = simd(x, y, 8, 0, l_havg) ^ simd(x, 0, 8, 1, l_neg) ^ simd(y, 0, 8, 1, l_absss);
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_simd", cdiv(N, 256), 256, 0, &da, &db, &dout, &n))
		return;
	uint32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_simd", e, g, 24 * N));
	free(g);
}

static void t_int_minmax_sat(Ctx *c)
{
	enum { N = 1000 };
	int32_t a[N], b[N];
	int64_t la[N], e[12 * N];
	fill_u32((uint32_t *)a, N, 1);
	fill_u32((uint32_t *)b, N, 0);
	fill_u64((uint64_t *)la, N, 1);
	for (int i = 0; i < N; i++) {
		int32_t x = a[i], y = b[i];
		uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
		int64_t X = la[i];
		int64_t *o = e + 12 * i;
		o[0] = x < y ? x : y;
		o[1] = x > y ? x : y;
		o[2] = ux < uy ? ux : uy;
		o[3] = ux > uy ? ux : uy;
		o[4] = X < y ? X : y;
		o[5] = X > y ? X : y;
		o[6] = (int32_t)(x < 0 ? 0u - ux : ux);          /* abs(INT_MIN) = INT_MIN */
		o[7] = (int64_t)(X < 0 ? 0ull - (uint64_t)X : (uint64_t)X);
		o[8] = (int32_t)(((int64_t)x + y) >> 1);
		o[9] = (int32_t)(((int64_t)x + y + 1) >> 1);
		o[10] = (int64_t)(uint32_t)(((uint64_t)ux + uy) >> 1) + (int64_t)(uint32_t)(((uint64_t)ux + uy + 1) >> 1);
		int64_t s = (int64_t)x + y;
		o[11] = s > INT_MAX ? INT_MAX : s < INT_MIN ? INT_MIN : s;
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), dla = up(c, la, sizeof la), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_minmax_sat", cdiv(N, 256), 256, 0, &da, &db, &dla, &dout, &n))
		return;
	int64_t *g = down(c, dout, sizeof e);
	ok(cmp_u64("int_minmax_sat", e, g, 12 * N));
	free(g);
}

static void t_int_narrow(Ctx *c)
{
	enum { N = 1000 };
	int8_t sc[N];
	uint8_t uc[N];
	int16_t s[N];
	uint16_t us[N];
	int32_t e[6 * N];
	for (int i = 0; i < N; i++) {
		uint32_t r = rnd32();
		sc[i] = (int8_t)(i < 4 ? (int[]){ -128, 127, -1, 0 }[i] : (int)(r & 0xff) - 128);
		uc[i] = (uint8_t)(i < 4 ? (int[]){ 255, 0, 128, 1 }[i] : (int)(r >> 8));
		s[i] = (int16_t)(i < 4 ? (int[]){ -32768, 32767, -1, 0 }[i] : (int)(int16_t)(r >> 16));
		us[i] = (uint16_t)(i < 4 ? (int[]){ 65535, 0, 32768, 1 }[i] : (int)(rnd32() & 0xffff));
	}
	for (int i = 0; i < N; i++) {
		int a = sc[i], b = uc[i], d = s[i], ee = us[i];
		int32_t *o = e + 6 * i;
		o[0] = a * b;
		o[1] = (int16_t)(d * 3);
		o[2] = (uint16_t)(ee + d);
		o[3] = (int8_t)(a + b);
		o[4] = d * ee;
		o[5] = (d >> 3) ^ (ee >> 5);
	}
	uint64_t d1 = up(c, sc, sizeof sc), d2 = up(c, uc, sizeof uc), d3 = up(c, s, sizeof s), d4 = up(c, us, sizeof us),
		 dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_narrow", cdiv(N, 256), 256, 0, &d1, &d2, &d3, &d4, &dout, &n))
		return;
	int32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_narrow", e, g, 6 * N));
	free(g);
}

static void t_int64_misc(Ctx *c)
{
	enum { N = 1000 };
	uint64_t a[N], b[N], e[8 * N];
	int32_t k[N];
	fill_u64(a, N, 1);
	fill_u64(b, N, 0);
	fill_u32((uint32_t *)k, N, 1);
	for (int i = 0; i < N; i++) {
		uint64_t x = a[i], y = b[i];
		int sh = k[i] & 63;
		int64_t sx = (int64_t)x;
		uint64_t *o = e + 8 * i;
		o[0] = x << sh;
		o[1] = x >> sh;
		o[2] = (uint64_t)(sx >> sh);
		o[3] = (x & y) | (~x & ~y);
		o[4] = x < y ? x : y;
		o[5] = (int64_t)x < (int64_t)y;
		o[6] = x + y + (x > ~y ? 1 : 0);
		o[7] = 0 - x;
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), dk = up(c, k, sizeof k), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int64_misc", cdiv(N, 256), 256, 0, &da, &db, &dk, &dout, &n))
		return;
	uint64_t *g = down(c, dout, sizeof e);
	ok(cmp_u64("int64_misc", e, g, 8 * N));
	free(g);
}

static void t_int_carry_chain(Ctx *c)
{
	enum { N = 300 };
	uint32_t a[4 * N], b[4 * N], e[10 * N];
	fill_u32(a, 4 * N, 1);
	fill_u32(b, 4 * N, 0);
	for (int i = 0; i < 20; i++)
		a[i] = b[i] = 0xffffffffu;
	for (int i = 0; i < N; i++) {
		uint32_t *x = a + 4 * i, *y = b + 4 * i, *o = e + 10 * i;
		uint64_t cy = 0;
		for (int k = 0; k < 4; k++) {
			uint64_t s = (uint64_t)x[k] + y[k] + cy;
			o[k] = (uint32_t)s;
			cy = s >> 32;
		}
		o[4] = (uint32_t)cy;
		uint32_t bw = x[0] < y[0];
		o[5] = x[0] - y[0];
		uint64_t d1 = (uint64_t)x[1] - y[1] - bw;
		o[6] = (uint32_t)d1;
		uint32_t bw2 = ((uint64_t)x[1] < (uint64_t)y[1] + bw);
		o[7] = 0u - bw2;
		uint64_t p = (uint64_t)x[0] * y[0];
		uint64_t m0 = (p & 0xffffffffu) + x[1];
		o[8] = (uint32_t)m0;
		o[9] = (uint32_t)((p >> 32) + y[1] + (m0 >> 32));
	}
	uint64_t da = up(c, a, sizeof a), db = up(c, b, sizeof b), dout = zbuf(c, sizeof e);
	int n = N;
	if (!LAUNCH(c, "int_carry_chain", cdiv(N, 128), 128, 0, &da, &db, &dout, &n))
		return;
	uint32_t *g = down(c, dout, sizeof e);
	ok(cmp_u32("int_carry_chain", e, g, 10 * N));
	free(g);
}

static void group_intmath(const char *root)
{
	Ctx c;
	ctx_open(&c, root, "intmath");
	seed(1);
	t_int_mul_hi(&c);
	t_int_divmod(&c);
	t_int_div_const(&c);
	t_int_bits(&c);
	t_int_permute_shift(&c);
	t_int_dot(&c);
	t_int_bitfield(&c);
	t_int_simd(&c);
	t_int_minmax_sat(&c);
	t_int_narrow(&c);
	t_int64_misc(&c);
	t_int_carry_chain(&c);
	ctx_close(&c);
}

void test_kernels(const char *root)
{
	group_intmath(root);
}
