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
