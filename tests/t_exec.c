/* t_exec.c: kernels run through the public device API (src/exec, src/host).
 *
 * Hand-written PTX programs (tests/exec/NAME.ptx, a few short ones inline)
 * are launched and their output compared with results computed here in C
 * from the PTX ISA's definitions.  Scenarios:
 *
 *   divergence   nested if/else, per-lane loops with breaks, early exit,
 *                ret under divergence, recursion (.param and .reg), calls
 *                through a function-pointer table, brx.idx
 *   barriers     bar.sync after reconvergence, a 256-thread reduction,
 *                named barriers with counts, bar.red, bar.arrive
 *   warp         shfl (all modes, clamps, segments, partial masks), vote,
 *                match, activemask, redux, elect
 *   sregs        3D ids, lanes and warps, lane masks, dynamic shared memory,
 *                %clock64
 *   lanes        stretches of lane-local instructions (src/exec/lane.h), which
 *                the compiling tier runs as one loop over the lanes
 *   memory       initialised module variables, .const, .local, generic
 *                addressing, vectors, accesses almost one block,
 *                ptxvm_program_global
 *   stack        alloca across a call, stacksave/stackrestore, overflow
 *   bulk         cp.async.bulk in every direction, the mbarrier transaction
 *                count in both orders, arrive_drop, faults
 *   faults       each failure's code and report, then a clean launch
 *   api          bad arguments
 *   determinism  identical bytes with 1, 2 and 7 workers
 *   unwritten    registers read before written are 0 in every warp
 *   devices      two devices in one process are independent
 *   legacy mad   mad.f32 without a rounding modifier, for sm_10 and sm_20
 *
 * Each scenario counts one pass or one fail.  PTXVM_EXEC_DUMP=DIR writes
 * the inline programs there (to check them with ptxas).
 */
#include "test.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"
#define SENT 0xeeeeeeeeu        /* what untouched output words hold */

/* ---- scenarios ---------------------------------------------------------- */
typedef struct Sc {
	const char *name;
	char msg[1536];
	bool bad;
} Sc;

static void bad(Sc *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bad(Sc *s, const char *fmt, ...)
{
	if (s->bad)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof s->msg, fmt, ap);
	va_end(ap);
	s->bad = true;
}

static void done(Sc *s)
{
	if (s->bad)
		fail("exec %s: %s", s->name, s->msg);
	else
		passed++;
}

/* ---- programs ----------------------------------------------------------- */
static const char *g_root;

static void dump(const char *name, const char *text)
{
	const char *dir = getenv("PTXVM_EXEC_DUMP");
	if (!dir)
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/%s.ptx", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Loads text onto d; NULL (and s marked bad) on any error. */
static ptxvm_program *load_text(Sc *s, ptxvm_device *d, const char *name, const char *text)
{
	ptxvm_module *m = ptxvm_module_load(name, text, strlen(text), NULL);
	if (!m || ptxvm_module_errors(m)) {
		char *diag = ptxvm_module_diagnostics(m);
		bad(s, "%s does not check: %.600s", name, diag ? diag : "(no module)");
		free(diag);
		ptxvm_module_free(m);
		return NULL;
	}
	ptxvm_program *p = NULL;
	ptxvm_result r = ptxvm_program_load(d, m, &p);
	ptxvm_module_free(m);
	if (r != PTXVM_SUCCESS) {
		bad(s, "%s: ptxvm_program_load: %s: %s", name, ptxvm_result_name(r), ptxvm_device_message(d));
		return NULL;
	}
	return p;
}

/* tests/exec/NAME; *text (if non-NULL) gets the file, which the caller frees. */
static ptxvm_program *load_file(Sc *s, ptxvm_device *d, const char *name, char **text)
{
	char path[1024];
	size_t len;
	snprintf(path, sizeof path, "%s/tests/exec/%s", g_root, name);
	char *t = slurp(path, &len);
	if (!t) {
		bad(s, "cannot read %s", path);
		return NULL;
	}
	ptxvm_program *p = load_text(s, d, path, t);
	if (text)
		*text = t;
	else
		free(t);
	return p;
}

static ptxvm_launch_config cfg3(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
				size_t shared)
{
	ptxvm_launch_config c = { { gx, gy, gz }, { bx, by, bz }, shared, { 0, 0, 0 } };
	return c;
}
#define CFG(g, b) cfg3(g, 1, 1, b, 1, 1, 0)

/* Launches kernel kname; false (s marked bad) unless it succeeds. */
static bool run(Sc *s, ptxvm_device *d, ptxvm_program *p, const char *kname, ptxvm_launch_config c,
		void **args)
{
	const ptxvm_kernel *k = ptxvm_kernel_find(p, kname);
	if (!k) {
		bad(s, "no kernel '%s'", kname);
		return false;
	}
	ptxvm_result r = ptxvm_launch(d, k, &c, args, NULL);
	if (r != PTXVM_SUCCESS) {
		bad(s, "launch of %s: %s: %s", kname, ptxvm_result_name(r), ptxvm_device_message(d));
		return false;
	}
	return true;
}

/* A device buffer of n bytes holding init (NULL: SENT bytes); 0 on failure. */
static uint64_t dbuf(Sc *s, ptxvm_device *d, size_t n, const void *init)
{
	uint64_t a = 0;
	if (ptxvm_mem_alloc(d, n, &a) != PTXVM_SUCCESS) {
		bad(s, "ptxvm_mem_alloc(%zu): %s", n, ptxvm_device_message(d));
		return 0;
	}
	ptxvm_result r = init ? ptxvm_memcpy_htod(d, a, init, n) : ptxvm_memset_d8(d, a, 0xee, n);
	if (r != PTXVM_SUCCESS)
		bad(s, "initialising a buffer: %s", ptxvm_device_message(d));
	return a;
}

static bool get(Sc *s, ptxvm_device *d, void *dst, uint64_t src, size_t n)
{
	if (ptxvm_memcpy_dtoh(d, dst, src, n) != PTXVM_SUCCESS) {
		bad(s, "ptxvm_memcpy_dtoh: %s", ptxvm_device_message(d));
		return false;
	}
	return true;
}

/* Compares n words; reports the first mismatches with `what` naming the
 * layout of an index. */
static void cmp32(Sc *s, const char *what, const uint32_t *got, const uint32_t *want, size_t n)
{
	size_t nbad = 0;
	char b[600] = "";
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			if (nbad < 4 && k < sizeof b)
				k += (size_t)snprintf(b + k, sizeof b - k, " [%zu] got 0x%08x want 0x%08x;", i, got[i],
						      want[i]);
			nbad++;
		}
	if (nbad)
		bad(s, "%s: %zu of %zu words differ:%s", what, nbad, n, b);
}

static void cmp64(Sc *s, const char *what, const uint64_t *got, const uint64_t *want, size_t n)
{
	size_t nbad = 0;
	char b[600] = "";
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			if (nbad < 4 && k < sizeof b)
				k += (size_t)snprintf(b + k, sizeof b - k, " [%zu] got %llu want %llu;", i,
						      (unsigned long long)got[i], (unsigned long long)want[i]);
			nbad++;
		}
	if (nbad)
		bad(s, "%s: %zu of %zu words differ:%s", what, nbad, n, b);
}

/* Runs kernel kname with a single output buffer of n words (SENT-filled)
 * and compares it with want. */
static void run_out32(Sc *s, ptxvm_device *d, ptxvm_program *p, const char *kname, ptxvm_launch_config c,
		      const uint32_t *want, size_t n)
{
	uint64_t out = dbuf(s, d, n * 4, NULL);
	uint32_t *got = calloc(n, 4);
	void *args[] = { &out };
	if (out && run(s, d, p, kname, c, args) && get(s, d, got, out, n * 4))
		cmp32(s, kname, got, want, n);
	free(got);
	if (out)
		ptxvm_mem_free(d, out);
}

/* ---- divergence --------------------------------------------------------- */
static uint32_t ref_nested(uint32_t lane)
{
	uint32_t v;
	if (!(lane & 1)) {
		if (!(lane & 2))
			v = 10 + ((lane & 4) ? 100 : 0);
		else
			v = 20 + ((lane & 4) ? 300 : 200);
		v += 1000;
	} else if (lane & 8) {
		v = 2030;
	} else {
		v = lane * 3 + ((lane & 16) ? 7 : 0);
	}
	return v * 3 + lane;
}

static uint32_t ref_f(uint32_t a)
{
	if (a & 1)
		return 7 * a;
	uint32_t r = 0;
	for (uint32_t i = 0; i < a; i += 2)
		r += i;
	return r > 100 ? r : r + 5000;
}

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static uint32_t ref_g(unsigned which, uint32_t a)
{
	switch (which) {
	case 0: return a + 1;
	case 1: return a << 1;
	case 2: return a ^ 85;
	default: return a * a + (a > 40 ? 3 : 0);
	}
}

static uint32_t ref_busy(uint32_t t)     /* b_after_div's value */
{
	if (!(t & 1))
		return t * 1000;
	uint32_t x = 1;
	for (uint32_t j = 0; j < t; j++)
		x = x * 3 + j;
	return x;
}

static void test_divergence(ptxvm_device *d)
{
	Sc ld = { .name = "divergence: load" };
	ptxvm_program *p = load_file(&ld, d, "divergence.ptx", NULL);
	if (!p) {
		done(&ld);
		return;
	}
	uint32_t w[256];
	{
		Sc s = { .name = "divergence: nested if/else on lane bits (d_nested)" };
		for (uint32_t t = 0; t < 64; t++)
			w[t] = ref_nested(t & 31);
		run_out32(&s, d, p, "d_nested", CFG(1, 64), w, 64);
		done(&s);
	}
	{
		Sc s = { .name = "divergence: per-lane trip counts with inner and outer breaks (d_loops)" };
		for (uint32_t t = 0; t < 96; t++) {
			uint32_t n = t * 7 % 41, acc = 0, k;
			for (k = 0; k < n; k++) {
				acc += k * k + t;
				for (uint32_t j = 0; j < k % 3; j++) {
					acc = acc * 3 + j;
					if (acc & 65536)
						break;
				}
				if (acc > 50000000)
					break;
			}
			w[2 * t] = acc;
			w[2 * t + 1] = k;
		}
		run_out32(&s, d, p, "d_loops", CFG(1, 96), w, 192);
		done(&s);
	}
	{
		Sc s = { .name = "divergence: early exit of some lanes, then work of the others (d_exit)" };
		for (uint32_t t = 0; t < 64; t++) {
			if (t % 3 == 0) {
				w[2 * t] = 0xdead0000u | t;
				w[2 * t + 1] = SENT;
				continue;
			}
			uint32_t acc = 0, mask = 0;
			for (uint32_t j = 0; j < t; j++)
				acc = acc * 31 + j;
			for (uint32_t l = 0; l < 32; l++)
				if ((t / 32 * 32 + l) % 3)
					mask |= 1u << l;
			w[2 * t] = acc;
			w[2 * t + 1] = mask;
		}
		run_out32(&s, d, p, "d_exit", CFG(1, 64), w, 128);
		done(&s);
	}
	{
		Sc s = { .name = "divergence: ret from a .func under divergence (d_ret)" };
		for (uint32_t t = 0; t < 64; t++)
			w[t] = (t & 3) == 3 ? 77 : ref_f(t) + 1;
		run_out32(&s, d, p, "d_ret", CFG(1, 64), w, 64);
		done(&s);
	}
	{
		Sc s1 = { .name = "divergence: recursive fib with .param passing, per-lane depth (d_recurse)" };
		Sc s2 = { .name = "divergence: recursive factorial with .reg parameters, per-lane depth (d_recurse)" };
		uint64_t got[128], wf[64], gf[64], wx[64], gx[64];
		uint64_t out = dbuf(&s1, d, sizeof got, NULL);
		void *args[] = { &out };
		if (out && run(&s1, d, p, "d_recurse", CFG(1, 64), args) && get(&s1, d, got, out, sizeof got)) {
			for (uint32_t t = 0; t < 64; t++) {
				wf[t] = fib(t % 16);
				gf[t] = got[2 * t];
				uint64_t f = 1;
				for (uint32_t i = 2; i <= t % 21; i++)
					f *= i;
				wx[t] = f;
				gx[t] = got[2 * t + 1];
			}
			cmp64(&s1, "fib(t % 16)", gf, wf, 64);
			cmp64(&s2, "(t % 21)!", gx, wx, 64);
		} else if (s1.bad)
			bad(&s2, "the launch failed: %s", s1.msg);
		done(&s1);
		done(&s2);
	}
	{
		Sc s = { .name = "divergence: indirect calls through a function-pointer table (d_indirect)" };
		for (uint32_t t = 0; t < 64; t++)
			w[t] = (t & 31) < 24 ? ref_g((3 * t + t / 5) & 3, t) : ref_g(2, t);
		run_out32(&s, d, p, "d_indirect", CFG(1, 64), w, 64);
		done(&s);
	}
	{
		Sc s = { .name = "divergence: brx.idx with per-lane indices in a loop (d_brx)" };
		static const uint32_t add[5] = { 1, 2, 304, 4, 5 };
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t base = (t & 31) * 3 + t / 32, acc = 0;
			for (uint32_t r = 0; r < 3; r++)
				acc = acc * 10 + add[(base + r) % 5];
			w[t] = acc;
		}
		run_out32(&s, d, p, "d_brx", CFG(1, 64), w, 64);
		done(&s);
	}
	{
		Sc s = { .name = "divergence: registers read across a back edge, on one side, by another lane (d_live)" };
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t acc = 0, v = 7;
			for (uint32_t i = 0; i < 5; i++) {
				acc += v;
				v = (t + i) * 3 ^ i;
			}
			uint32_t src = (t & 32) | ((t + 1) & 31);
			w[t] = acc;
			w[64 + t] = ((t & 3) == 0 ? t * 11 + 5 : 900) + t + 1000 + src * 5;
		}
		run_out32(&s, d, p, "d_live", CFG(1, 64), w, 128);
		done(&s);
	}
}

/* ---- barriers ----------------------------------------------------------- */
static void test_barriers(ptxvm_device *d)
{
	Sc ld = { .name = "barriers: load" };
	ptxvm_program *p = load_file(&ld, d, "barriers.ptx", NULL);
	if (!p) {
		done(&ld);
		return;
	}
	uint32_t w[256];
	{
		Sc s = { .name = "barriers: bar.sync where a divergent region reconverges (b_after_div)" };
		for (uint32_t t = 0; t < 64; t++)
			w[t] = ref_busy((t + 33) % 64) * 2 + ref_busy(t);
		run_out32(&s, d, p, "b_after_div", CFG(1, 64), w, 64);
		done(&s);
	}
	{
		Sc s = { .name = "barriers: shared-memory reduction of 256 threads, 8 CTAs (b_reduce)" };
		enum { N = 8 * 256 };
		uint32_t *in = malloc(N * 4), sums[8], got[8];
		for (uint32_t i = 0; i < N; i++)
			in[i] = (i * 2654435761u) >> 7;
		for (int c = 0; c < 8; c++) {
			sums[c] = 0;
			for (int i = 0; i < 256; i++)
				sums[c] += in[c * 256 + i];
		}
		uint64_t din = dbuf(&s, d, N * 4, in), dout = dbuf(&s, d, sizeof got, NULL);
		void *args[] = { &din, &dout };
		if (din && dout && run(&s, d, p, "b_reduce", CFG(8, 256), args) && get(&s, d, got, dout, sizeof got))
			cmp32(&s, "sums per CTA", got, sums, 8);
		free(in);
		done(&s);
	}
	{
		Sc s = { .name = "barriers: named barriers with counts, bar.sync 1,64 and bar.sync 0,64 (b_named)" };
		for (uint32_t t = 0; t < 128; t++) {
			w[t] = 0;
			for (uint32_t r = 0; r < 4; r++)
				w[t] += 10 * (t ^ 32) + r;
		}
		run_out32(&s, d, p, "b_named", CFG(1, 128), w, 128);
		done(&s);
	}
	{
		Sc s = { .name = "barriers: bar.red.popc/and/or (b_red)" };
		uint32_t popc = 0;
		for (uint32_t t = 0; t < 128; t++)
			popc += t % 3 == 0;
		for (uint32_t t = 0; t < 128; t++)
			w[t] = popc | 1u << 16 | 0u << 17 | 1u << 18 | 0u << 19;
		run_out32(&s, d, p, "b_red", CFG(1, 128), w, 128);
		done(&s);
	}
	{
		Sc s = { .name = "barriers: bar.arrive + bar.sync producer/consumer (b_prodcons)" };
		for (uint32_t l = 0; l < 32; l++) {
			w[l] = 0;
			for (uint32_t r = 0; r < 5; r++)
				w[l] += (r + 1) * (100 * r + l);
		}
		run_out32(&s, d, p, "b_prodcons", CFG(1, 64), w, 32);
		done(&s);
	}
}

/* ---- warp --------------------------------------------------------------- */
enum { UP, DOWN, BFLY, IDX };
enum { B_REV = -1, B_PLUS3 = -2, B_AND3 = -3, B_PLUS4 = -4, B_MINUS1 = -5 };   /* per-lane b */

typedef struct ShflCase {
	int mode, b;
	uint32_t c;
} ShflCase;

/* The PTX ISA's pseudocode for shfl.sync: the source lane j and p. */
static uint32_t shfl_src(int mode, uint32_t lane, int b, uint32_t c, bool *pval)
{
	uint32_t bv = b == B_REV ? 31 - lane : b == B_PLUS3 ? lane + 3 : b == B_AND3 ? (lane & 3)
		      : b == B_PLUS4 ? (lane + 4) & 31 : b == B_MINUS1 ? lane - 1 : (uint32_t)b;
	bv &= 31;
	uint32_t cval = c & 31, segmask = (c >> 8) & 31;
	int32_t maxl = (int32_t)((lane & segmask) | (cval & ~segmask)), minl = (int32_t)(lane & segmask);
	int32_t j;
	bool p;
	switch (mode) {
	case UP: j = (int32_t)lane - (int32_t)bv; p = j >= maxl; break;
	case DOWN: j = (int32_t)lane + (int32_t)bv; p = j <= maxl; break;
	case BFLY: j = (int32_t)(lane ^ bv); p = j <= maxl; break;
	default: j = minl | (int32_t)(bv & ~segmask); p = j <= maxl; break;
	}
	if (!p)
		j = (int32_t)lane;
	*pval = p;
	return (uint32_t)j;
}

static const char *mode_name[] = { "up", "down", "bfly", "idx" };

static void shfl_expect(Sc *s, const ShflCase *cs, size_t ncase, uint32_t active[], uint32_t *w)
{
	for (size_t k = 0; k < ncase; k++)
		for (uint32_t l = 0; l < 32; l++) {
			uint32_t *o = &w[(k * 32 + l) * 2];
			if (!(active[k] >> l & 1)) {
				o[0] = o[1] = SENT;
				continue;
			}
			bool p;
			uint32_t j = shfl_src(cs[k].mode, l, cs[k].b, cs[k].c, &p);
			/* a source lane outside the mask gives 0 (an H200's) */
			o[0] = active[k] >> j & 1 ? j * j + 100 : 0;
			o[1] = p;
		}
}

static void shfl_compare(Sc *s, const ShflCase *cs, size_t ncase, const uint32_t *got, const uint32_t *w)
{
	for (size_t k = 0; k < ncase && !s->bad; k++)
		for (uint32_t l = 0; l < 32; l++) {
			const uint32_t *g = &got[(k * 32 + l) * 2], *e = &w[(k * 32 + l) * 2];
			if (g[0] != e[0] || g[1] != e[1]) {
				bad(s, "case %zu (shfl.%s b=%d c=0x%x): lane %u got d=%u p=%u, want d=%u p=%u", k,
				    mode_name[cs[k].mode], cs[k].b, cs[k].c, l, g[0], g[1], e[0], e[1]);
				break;
			}
		}
}

static void test_warp(ptxvm_device *d)
{
	Sc ld = { .name = "warp: load" };
	ptxvm_program *p = load_file(&ld, d, "warp.ptx", NULL);
	if (!p) {
		done(&ld);
		return;
	}
	static uint32_t w[2048], got[2048];
	{
		Sc s = { .name = "warp: shfl.sync up/down/bfly/idx with clamps and segment masks (w_shfl)" };
		static const ShflCase cs[] = {
			{ UP, 1, 0 }, { UP, 3, 0x1800 }, { UP, 2, 5 }, { DOWN, 1, 31 }, { DOWN, 5, 0x181f },
			{ DOWN, 2, 0x101f }, { BFLY, 1, 31 }, { BFLY, 12, 0x181f }, { BFLY, 7, 20 },
			{ IDX, 5, 31 }, { IDX, 3, 0x181f }, { IDX, B_REV, 31 }, { IDX, B_PLUS3, 0x1c1f },
			{ DOWN, B_AND3, 31 }, { IDX, 9, 0x0817 },
		};
		enum { NC = sizeof cs / sizeof cs[0] };
		uint32_t act[NC];
		for (int k = 0; k < NC; k++)
			act[k] = 0xffffffffu;
		shfl_expect(&s, cs, NC, act, w);
		uint64_t out = dbuf(&s, d, NC * 64 * 4, NULL);
		void *args[] = { &out };
		if (out && run(&s, d, p, "w_shfl", CFG(1, 32), args) && get(&s, d, got, out, NC * 64 * 4))
			shfl_compare(&s, cs, NC, got, w);
		done(&s);
	}
	{
		Sc s = { .name = "warp: shfl.sync under partial membermasks in divergent branches (w_shfl_part)" };
		static const ShflCase cs[] = {
			{ BFLY, 2, 31 }, { DOWN, 2, 31 }, { IDX, B_PLUS4, 31 }, { UP, 4, 0 }, { IDX, 0, 31 }, { DOWN, 1, 11 },
			{ IDX, B_MINUS1, 31 },
		};
		enum { NC = sizeof cs / sizeof cs[0] };
		uint32_t act[NC] = { 0xaaaaaaaau, 0xaaaaaaaau, 0xaaaaaaaau, 0xaaaaaaaau, 0xfffu, 0xfffu, 0xaaaaaaaau };
		shfl_expect(&s, cs, NC, act, w);
		uint64_t out = dbuf(&s, d, NC * 64 * 4, NULL);
		void *args[] = { &out };
		if (out && run(&s, d, p, "w_shfl_part", CFG(1, 32), args) && get(&s, d, got, out, NC * 64 * 4))
			shfl_compare(&s, cs, NC, got, w);
		done(&s);
	}
	{
		Sc s = { .name = "warp: vote.sync all/any/uni/ballot, full and partial (w_vote)" };
		uint32_t full = 0, part = 0;
		for (uint32_t l = 0; l < 32; l++)
			if (l % 3 == 0) {
				full |= 1u << l;
				if (l >= 16)
					part |= 1u << l;
			}
		for (uint32_t l = 0; l < 32; l++) {
			/* all(l%3==0) 0, any 1, uni 0; all(l<40) 1, uni 1 */
			uint32_t f = 2 | 8 | 16;
			if (l >= 16)    /* all(l>=16) 1, any(l%3==0) 1, uni 0, all 0 */
				f |= 32 | 64;
			w[3 * l] = f;
			w[3 * l + 1] = full;
			w[3 * l + 2] = l >= 16 ? part : SENT;
		}
		run_out32(&s, d, p, "w_vote", CFG(1, 32), w, 96);
		done(&s);
	}
	{
		Sc s = { .name = "warp: match.any/all.sync b32 and b64, full and partial (w_match)" };
		for (uint32_t l = 0; l < 32; l++) {
			uint32_t same = 0, same20 = 0;
			for (uint32_t k = 0; k < 32; k++)
				if (k % 3 == l % 3) {
					same |= 1u << k;
					if (k < 20)
						same20 |= 1u << k;
				}
			uint32_t *o = &w[7 * l];
			o[0] = same;
			o[1] = 0;                       /* match.all of differing values */
			o[2] = 0 | 2;                   /* p: differing false, uniform true */
			o[3] = 0xffffffffu;
			o[4] = 0xffu << (8 * (l / 8));
			o[5] = l < 20 ? same20 : SENT;
			o[6] = l < 20 ? 0xfffffu : SENT;
		}
		run_out32(&s, d, p, "w_match", CFG(1, 32), w, 224);
		done(&s);
	}
	{
		Sc s = { .name = "warp: activemask in nested divergence (w_active)" };
		for (uint32_t l = 0; l < 32; l++) {
			w[3 * l] = 0xffffffffu;
			w[3 * l + 1] = l >= 20 ? 0xfff00000u : (l & 1) ? 0x000aaaaau : 0x00055555u;
			w[3 * l + 2] = l < 20 ? 0xfffffu : SENT;
		}
		run_out32(&s, d, p, "w_active", CFG(1, 32), w, 96);
		done(&s);
	}
	{
		Sc s = { .name = "warp: redux.sync add/min/max (u32, s32)/and/or/xor, full and partial (w_redux)" };
		for (int half = 0; half < 2; half++) {
			uint32_t mask = half ? 0xeeeeeeeeu : 0xffffffffu;
			uint32_t add = 0, umin = UINT32_MAX, umax = 0, and = UINT32_MAX, or = 0, xor = 0;
			int32_t smin = INT32_MAX, smax = INT32_MIN;
			for (uint32_t l = 0; l < 32; l++) {
				if (!(mask >> l & 1))
					continue;
				uint32_t a = (l * 37) ^ 0x5a;
				int32_t b = (int32_t)(a - 600);
				add += a;
				umin = a < umin ? a : umin;
				umax = a > umax ? a : umax;
				smin = b < smin ? b : smin;
				smax = b > smax ? b : smax;
				and &= a;
				or |= a;
				xor ^= a;
			}
			uint32_t r[8] = { add, umin, umax, (uint32_t)smin, (uint32_t)smax, and, or, xor };
			for (uint32_t l = 0; l < 32; l++)
				for (int i = 0; i < 8; i++)
					w[16 * l + 8 * half + i] = (mask >> l & 1) ? r[i] : SENT;
		}
		run_out32(&s, d, p, "w_redux", CFG(1, 32), w, 512);
		done(&s);
	}
	{
		Sc s = { .name = "warp: elect.sync, full and partial (w_elect)" };
		for (uint32_t l = 0; l < 32; l++) {
			w[4 * l] = 0;
			w[4 * l + 1] = l == 0;
			bool in = (l & 1) && l >= 5;
			w[4 * l + 2] = in ? 5 : SENT;
			w[4 * l + 3] = in ? l == 5 : SENT;
		}
		run_out32(&s, d, p, "w_elect", CFG(1, 32), w, 128);
		done(&s);
	}
	{
		Sc s = { .name = "warp: .sync instructions of four 8-lane tiles, each lane naming its own (w_tiles)" };
		for (uint32_t l = 0; l < 32; l++) {
			uint32_t base = l & 24, tile = 0xffu << base, ballot = 0, sum = 0, parity = 0;
			for (uint32_t k = base; k < base + 8; k++) {
				ballot |= (uint32_t)(k % 3 == 0) << k;
				sum += k;
				parity |= (uint32_t)((k & 1) == (l & 1)) << k;
			}
			uint32_t *o = &w[8 * l];
			o[0] = ballot & tile;
			o[1] = base == 8;               /* lane 9 is in the second tile */
			o[2] = 0;                       /* every tile has its lane 7 */
			o[3] = sum;
			o[4] = parity;
			o[5] = base;
			o[6] = l == base;
			o[7] = base + 7;
		}
		run_out32(&s, d, p, "w_tiles", CFG(1, 32), w, 256);
		done(&s);
	}
}

/* ---- special registers -------------------------------------------------- */
static void test_sregs(ptxvm_device *d)
{
	Sc ld = { .name = "sregs: load" };
	ptxvm_program *p = load_file(&ld, d, "sregs.ptx", NULL);
	if (!p) {
		done(&ld);
		return;
	}
	{
		Sc s = { .name = "sregs: %tid/%ntid/%ctaid/%nctaid in a 3D launch, %laneid, %warpid, %lanemask_* (s_ids)" };
		enum { GX = 3, GY = 2, GZ = 2, BX = 4, BY = 3, BZ = 5, NT = BX * BY * BZ, NCTA = GX * GY * GZ };
		size_t n = (size_t)NCTA * NT * 20;
		uint32_t *got = malloc(n * 4), *want = malloc(n * 4);
		uint64_t out = dbuf(&s, d, n * 4, NULL);
		void *args[] = { &out };
		if (out && run(&s, d, p, "s_ids", cfg3(GX, GY, GZ, BX, BY, BZ, 0), args) && get(&s, d, got, out, n * 4)) {
			for (uint32_t c = 0; c < NCTA; c++)
				for (uint32_t t = 0; t < NT; t++) {
					uint32_t *o = &want[((size_t)c * NT + t) * 20], l = t % 32;
					uint32_t v[20] = { t % BX, t / BX % BY, t / (BX * BY), BX, BY, BZ,
							   c % GX, c / GX % GY, c / (GX * GY), GX, GY, GZ, l, 0, 0,
							   1u << l, l == 31 ? ~0u : (2u << l) - 1, (1u << l) - 1, ~0u << l,
							   l == 31 ? 0 : ~0u << (l + 1) };
					memcpy(o, v, sizeof v);
					/* %warpid and %nwarpid are the machine's: take them from the
					 * output and check their consistency below */
					o[13] = got[((size_t)c * NT + t) * 20 + 13];
					o[14] = got[((size_t)c * NT + t) * 20 + 14];
				}
			cmp32(&s, "20 words per thread (tid xyz, ntid xyz, ctaid xyz, nctaid xyz, laneid, warpid, "
			      "nwarpid, lanemask eq le lt ge gt)", got, want, n);
			for (uint32_t c = 0; c < NCTA && !s.bad; c++) {
				const uint32_t *g = &got[(size_t)c * NT * 20];
				uint32_t w0 = g[13], w1 = g[32 * 20 + 13], nw = g[14];
				for (uint32_t t = 0; t < NT; t++)
					if (g[t * 20 + 13] != (t < 32 ? w0 : w1) || g[t * 20 + 14] != nw)
						bad(&s, "CTA %u thread %u: %%warpid %u / %%nwarpid %u differ within the "
						    "warp or CTA", c, t, g[t * 20 + 13], g[t * 20 + 14]);
				if (w0 == w1 || w0 >= nw || w1 >= nw)
					bad(&s, "CTA %u: %%warpid of its two warps %u and %u (%%nwarpid %u)", c, w0, w1, nw);
			}
		}
		free(got);
		free(want);
		done(&s);
	}
	{
		Sc s = { .name = "sregs: %dynamic_smem_size with .extern .shared dsm[] beside static shared (s_dyn)" };
		uint32_t w[256];
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t nb = (t + 1) % 64;
			w[4 * t] = 1024;
			w[4 * t + 1] = 4 * 16 * nb + 6;
			w[4 * t + 2] = 0xabc + (t & 7);
			w[4 * t + 3] = 1;
		}
		run_out32(&s, d, p, "s_dyn", cfg3(1, 1, 1, 64, 1, 1, 1024), w, 256);
		done(&s);
	}
	{
		Sc s = { .name = "sregs: %clock64 never decreases within a thread and advances (s_clock)" };
		uint32_t w[128];
		for (int i = 0; i < 128; i++)
			w[i] = 1;
		run_out32(&s, d, p, "s_clock", CFG(1, 64), w, 128);
		done(&s);
	}
}

/* ---- lane-local stretches ------------------------------------------------ */
static uint32_t bits_f32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static void test_lanes(ptxvm_device *d)
{
	Sc s = { .name = "lanes: stretches of lane-local instructions, full and partial masks, a loop (lanes.ptx)" };
	ptxvm_program *p = load_file(&s, d, "lanes.ptx", NULL);
	enum { NCTA = 2, NT = 96, N = NCTA * NT, W = 28 };
	uint32_t iters = 40;
	uint64_t *got = calloc((size_t)N * W, 8), *want = calloc((size_t)N * W, 8);
	uint64_t out = p ? dbuf(&s, d, (size_t)N * W * 8, want) : 0;
	void *args[] = { &out, &iters };
	if (out && run(&s, d, p, "lanes", CFG(NCTA, NT), args) && get(&s, d, got, out, (size_t)N * W * 8)) {
		for (uint32_t t = 0; t < N; t++) {
			uint64_t *o = &want[(size_t)t * W];
			int32_t a = -6 * (int32_t)t - 1000;
			uint32_t ua = (uint32_t)a;
			o[0] = t >= 32 ? 0 : (uint32_t)(ua << t);
			o[1] = (uint32_t)(a >> (t >= 32 ? 31 : t));
			o[2] = t >= 32 ? 0 : ua >> t;
			o[3] = (uint64_t)((int64_t)a * 100003);
			o[4] = (uint64_t)ua * 100003;
			o[5] = (uint32_t)(int32_t)(int16_t)(ua & 0xffff);
			o[6] = (uint64_t)(int64_t)a * o[3] + o[4];
			o[7] = (ua & 0xff00ffu) | t;
			uint64_t x8 = o[6] ^ o[3];
			o[8] = t >= 64 ? 0 : x8 >> t;
			o[9] = (uint64_t)((int64_t)o[6] >> (t >= 64 ? 63 : t));
			o[10] = t >= 64 ? 0 : (uint64_t)(int64_t)a << t;
			o[11] = a < -700 ? o[7] : o[2];
			o[12] = ua > 4294966000u ? o[7] : o[2];
			o[13] = (uint32_t)(o[5] * o[11] + o[12]);
			o[14] = (uint32_t)x8;
			o[15] = (ua & 0xffff) * 40000u;
			uint32_t q = t & 3;
			o[16] = q == 0 ? 0 : q == 2 ? 77 : (((ua ^ t) + q) << 3);
			uint32_t x = t, acc = 0;
			for (uint32_t i = 0; i < iters + (t & 7); i++) {
				x = x * 1103515245u + 12345u;
				acc ^= x >> 16;
			}
			o[17] = acc;
			float fa = (float)a, f2 = fa * 1.1f, f3 = f2 + fa;
			o[18] = bits_f32(f2);
			o[19] = bits_f32(f3);
			o[20] = 0x7fffffffu;    /* -inf + inf: the canonical NaN */
			o[21] = bits_f32(fa * 0x3p-149f);
			o[22] = (uint64_t)(int64_t)a;
			o[23] = (t % 32) ^ t;
			bool p5 = (t & 5) == 1, p7 = (p5 || a < -900) != (ua > 4294966000u), p6 = p7 && !p5;
			o[24] = (uint32_t)p7 + 2 * (uint32_t)p6;
			o[25] = bits_f32(fmaf(fa, 1.1f, -f2));  /* rounded once: not 0 */
			o[26] = 0x7fffffffu;
			o[27] = bits_f32(fmaf(fa, 0x3p-149f, 0x1p-149f));
		}
		cmp64(&s, "28 words per thread", got, want, (size_t)N * W);
	}
	free(got);
	free(want);
	done(&s);
}

/* The kernel called name in PTX text, or NULL (a failure recorded). */
static const ptxvm_kernel *text_kernel(Sc *s, ptxvm_device *d, const char *file, const char *text, const char *name)
{
	ptxvm_program *p = load_text(s, d, file, text);
	const ptxvm_kernel *k = p ? ptxvm_kernel_find(p, name) : NULL;
	if (p && !k)
		bad(s, "no kernel '%s'", name);
	return k;
}

/* Launches k (NULL: nothing) as one CTA of nt threads with args, compares
 * nt words at out with want and the launch's counts with thr and warp,
 * then frees out. */
static void counted(Sc *s, ptxvm_device *d, const ptxvm_kernel *k, uint64_t out, void **args, unsigned nt,
		    const uint32_t *want, uint64_t thr, uint64_t warp)
{
	uint32_t got[64];
	ptxvm_launch_config c = CFG(1, nt);
	ptxvm_launch_stats st = { 0 };
	ptxvm_result r = k && out && nt <= 64 ? ptxvm_launch(d, k, &c, args, &st) : PTXVM_ERROR_INVALID_VALUE;
	if (r != PTXVM_SUCCESS)
		bad(s, "launch: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	else if (get(s, d, got, out, nt * sizeof *got)) {
		cmp32(s, "out", got, want, nt);
		if (st.thread_instructions != thr || st.warp_instructions != warp)
			bad(s, "%llu thread and %llu warp instructions, want %llu and %llu",
			    (unsigned long long)st.thread_instructions, (unsigned long long)st.warp_instructions,
			    (unsigned long long)thr, (unsigned long long)warp);
	}
	if (out)
		ptxvm_mem_free(d, out);
}

/* The launch's counts of instructions, which the compiling tier takes for
 * a stretch of lane-local instructions at once (exec_count): twelve an
 * active thread, and the guarded add for the 40 threads whose guard holds,
 * in a full warp and one of 16 lanes. */
static void test_counts(ptxvm_device *d)
{
	Sc s = { .name = "counts: instructions per thread and per warp, a stretch of lane-local ones among them" };
	static const char text[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry counts(.param .u64 out, .param .u32 k)\n{\n"
		"\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
		"\tld.param.u64 %rd1, [out];\n"
		"\tld.param.u32 %r1, [k];\n"
		"\tmov.u32 %r2, %tid.x;\n"
		"\tadd.u32 %r3, %r2, %r1;\n"
		"\tmul.lo.u32 %r4, %r3, 3;\n"
		"\txor.b32 %r5, %r4, %r2;\n"
		"\tsetp.lt.u32 %p1, %r2, 40;\n"
		"\t@%p1 add.u32 %r5, %r5, 1;\n"
		"\tcvta.to.global.u64 %rd2, %rd1;\n"
		"\tmul.wide.u32 %rd3, %r2, 4;\n"
		"\tadd.u64 %rd3, %rd2, %rd3;\n"
		"\tst.global.u32 [%rd3], %r5;\n"
		"\tret;\n}\n";
	enum { NT = 48 };
	const ptxvm_kernel *k = text_kernel(&s, d, "counts.ptx", text, "counts");
	uint32_t kk = 1000, want[NT];
	for (uint32_t t = 0; t < NT; t++)
		want[t] = (((t + kk) * 3) ^ t) + (t < 40);
	uint64_t out = k ? dbuf(&s, d, sizeof want, NULL) : 0;
	void *args[] = { &out, &kk };
	counted(&s, d, k, out, args, NT, want, 12 * NT + 40, 13 * 2);
	done(&s);
}

/* A lane-local instruction alone between others that cannot join it (a
 * load each side, a branch after it) is a group of one on the compiling
 * tier: its results, the predicate it writes for a branch that diverges,
 * and its counts are the interpreter's. */
static void test_lone(ptxvm_device *d)
{
	Sc s = { .name = "counts: lone lane-local instructions between loads and before a branch" };
	static const char text[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry lone(.param .u64 buf)\n{\n"
		"\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
		"\tld.param.u64 %rd1, [buf];\n"
		"\tmov.u32 %r1, %tid.x;\n"
		"\tmul.wide.u32 %rd2, %r1, 4;\n"
		"\tadd.u64 %rd3, %rd1, %rd2;\n"
		"\tld.global.u32 %r2, [%rd3];\n"
		"\tadd.u32 %r3, %r2, 7;\n"              /* alone between two loads */
		"\tld.global.u32 %r4, [%rd3+256];\n"
		"\tsetp.lt.u32 %p1, %r3, %r4;\n"        /* alone before the branch */
		"\t@%p1 bra SKIP;\n"
		"\tsub.u32 %r3, %r4, %r3;\n"            /* alone before a meeting point */
		"SKIP:\n"
		"\tst.global.u32 [%rd3], %r3;\n"
		"\tret;\n}\n";
	enum { NT = 48 };
	const ptxvm_kernel *k = text_kernel(&s, d, "lone.ptx", text, "lone");
	uint32_t in[128] = { 0 }, want[NT];
	for (uint32_t t = 0; t < NT; t++) {
		in[t] = 3 * t;
		in[64 + t] = 80;
		/* 3t + 7 < 80 for t <= 24, which branch; the others subtract,
		 * wrapping below zero */
		want[t] = t <= 24 ? 3 * t + 7 : 80u - (3 * t + 7);
	}
	uint64_t buf = k ? dbuf(&s, d, sizeof in, in) : 0;
	void *args[] = { &buf };
	/* each thread runs the 10 unguarded instructions but the sub; the bra
	 * counts the 25 lanes whose guard holds (t <= 24), the sub the 23 that
	 * do not branch; each of the two warps issues all 12 (the first
	 * diverges and meets again at SKIP, the second, of lanes 32-47, takes
	 * no branch) */
	counted(&s, d, k, buf, args, NT, want, 10 * NT + 25 + 23, 12 * 2);
	done(&s);
}

/* ---- memory ------------------------------------------------------------- */
static void test_memory(ptxvm_device *d)
{
	Sc ld = { .name = "memory: load" };
	ptxvm_program *p = load_file(&ld, d, "memory.ptx", NULL);
	if (!p) {
		done(&ld);
		return;
	}
	{
		Sc s = { .name = "memory: .global initializers with addresses and generic() (m_globals)" };
		uint64_t tab = 0, ptr = 0, gptr = 0, ptr2 = 0, cnt = 0, vals[3];
		size_t ntab = 0, ncnt = 0;
		uint32_t c0 = 1000, c1 = 0, got[6];
		if (ptxvm_program_global(p, "m_tab", &tab, &ntab) || ptxvm_program_global(p, "m_ptr", &ptr, NULL) ||
		    ptxvm_program_global(p, "m_gptr", &gptr, NULL) || ptxvm_program_global(p, "m_ptr2", &ptr2, NULL) ||
		    ptxvm_program_global(p, "m_cnt", &cnt, &ncnt))
			bad(&s, "ptxvm_program_global: %s", ptxvm_device_message(d));
		else if (ntab != 16 || ncnt != 4)
			bad(&s, "sizes: m_tab %zu (want 16), m_cnt %zu (want 4)", ntab, ncnt);
		else if (get(&s, d, &vals[0], ptr, 8) && get(&s, d, &vals[1], gptr, 8) && get(&s, d, &vals[2], ptr2, 8) &&
			 (vals[0] != tab || vals[1] != tab || vals[2] != tab + 8))
			bad(&s, "initialised pointers: m_ptr 0x%llx m_gptr 0x%llx m_ptr2 0x%llx; m_tab is at 0x%llx",
			    (unsigned long long)vals[0], (unsigned long long)vals[1], (unsigned long long)vals[2],
			    (unsigned long long)tab);
		if (!s.bad && ptxvm_memcpy_htod(d, cnt, &c0, 4))
			bad(&s, "writing m_cnt: %s", ptxvm_device_message(d));
		uint64_t out = s.bad ? 0 : dbuf(&s, d, sizeof got, NULL);
		void *args[] = { &out };
		if (out && run(&s, d, p, "m_globals", CFG(1, 1), args) && get(&s, d, got, out, sizeof got) &&
		    get(&s, d, &c1, cnt, 4)) {
			static const uint32_t want[6] = { 22, 44, 33, 11, 6, 3 };
			cmp32(&s, "m_tab[1] via m_ptr, [3] via m_gptr, [2] via m_ptr2, [0] via .const m_cptr, "
			      "m_bytes[5], pointer flags", got, want, 6);
			if (c1 != 2001)
				bad(&s, "m_cnt after the kernel: %u, want 2001", c1);
		}
		done(&s);
	}
	{
		Sc s = { .name = "memory: a warp's atomic adds to one address, old values in lane order (m_ticket)" };
		uint64_t init[2] = { 0xfffffff0u, 0xfffffffffffffff0ull }, c1[2];
		uint32_t got[32], want[32];
		uint64_t got64[32], want64[32];
		memset(got64, 0, sizeof got64);
		uint64_t ctr = dbuf(&s, d, sizeof init, init), out = dbuf(&s, d, sizeof got, NULL);
		uint64_t out64 = dbuf(&s, d, sizeof got64, got64);
		void *args[] = { &ctr, &out, &out64 };
		/* the reference: the lanes one after another */
		uint32_t r32 = (uint32_t)init[0];
		uint64_t r64 = init[1];
		for (unsigned t = 0; t < 32; t++) {
			want[t] = r32;
			r32 += t + 1;
			want64[t] = 0;
			if (t % 3) {
				want64[t] = r64;
				r64 += ((uint64_t)t << 33) + 1;
			}
		}
		if (ctr && out && out64 && run(&s, d, p, "m_ticket", CFG(1, 32), args) && get(&s, d, got, out, sizeof got) &&
		    get(&s, d, got64, out64, sizeof got64) && get(&s, d, c1, ctr, sizeof c1)) {
			cmp32(&s, "u32 old values", got, want, 32);
			for (unsigned t = 0; t < 32; t++)
				if (got64[t] != want64[t]) {
					bad(&s, "u64 old value of lane %u: 0x%llx, want 0x%llx", t,
					    (unsigned long long)got64[t], (unsigned long long)want64[t]);
					break;
				}
			if (c1[0] != r32 || c1[1] != r64)
				bad(&s, "counters after: 0x%llx 0x%llx, want 0x%llx 0x%llx", (unsigned long long)c1[0],
				    (unsigned long long)c1[1], (unsigned long long)r32, (unsigned long long)r64);
		}
		done(&s);
	}
	{
		/* a warp's load or store whose addresses are the warp's elements
		 * out of lane order, or all but one lane's in order, goes lane by
		 * lane, not as one block */
		Sc s = { .name = "memory: loads and stores almost one block (m_order)" };
		uint32_t w[96];
		for (uint32_t t = 0; t < 32; t++) {
			uint32_t i = t == 5 ? 6 : t == 6 ? 5 : t, j = t == 9 ? 10 : t == 10 ? 9 : t;
			w[t] = 3 * t + 1;
			w[32 + j] = 3 * i + 1;
			w[64 + t] = t == 31 ? 1 : 3 * t + 1;
		}
		run_out32(&s, d, p, "m_order", CFG(1, 32), w, 96);
		done(&s);
	}
	{
		Sc s = { .name = "memory: .const array read by every thread of 2 CTAs (m_const)" };
		uint32_t ctab[64], w[256];
		for (uint32_t i = 0; i < 64; i++)
			ctab[i] = (3 * i * i + 7) % 1000;
		for (uint32_t g = 0; g < 256; g++)
			w[g] = ctab[7 * g % 64] + 1000 * ctab[g % 64];
		run_out32(&s, d, p, "m_const", CFG(2, 128), w, 256);
		done(&s);
	}
	{
		Sc s = { .name = "memory: .local arrays indexed dynamically, in a kernel and a .func (m_local)" };
		uint32_t w[128];
		for (uint32_t t = 0; t < 64; t++) {
			uint32_t arr[64], acc = 0, a[16], r = 0;
			for (uint32_t i = 0; i < 64; i++)
				arr[i] = (t * i) ^ i;
			for (uint32_t i = 0; i < 64; i++)
				acc = acc * 3 + arr[(17 * i + t) % 64];
			for (uint32_t i = 0; i < 16; i++)
				a[i] = t + i * i;
			for (uint32_t i = 0; i < 16; i++)
				r += a[(5 * i + t) % 16] * (i + 1);
			w[2 * t] = acc;
			w[2 * t + 1] = r;
		}
		run_out32(&s, d, p, "m_local", CFG(1, 64), w, 128);
		done(&s);
	}
	{
		Sc s = { .name = "memory: generic addressing via cvta and isspacep for shared/local/global (m_generic)" };
		uint32_t w[128], got[128];
		for (uint32_t l = 0; l < 32; l++) {
			w[4 * l] = l * 5;
			w[4 * l + 1] = l + 7;
			w[4 * l + 2] = l * 9;
			w[4 * l + 3] = 1 | 8 | 16 | 64 | 128 | 1024;
		}
		uint64_t g = dbuf(&s, d, 128, NULL), out = dbuf(&s, d, sizeof got, NULL);
		void *args[] = { &g, &out };
		if (g && out && run(&s, d, p, "m_generic", CFG(1, 32), args) && get(&s, d, got, out, sizeof got))
			cmp32(&s, "{shared, local, global, flags} per lane", got, w, 128);
		done(&s);
	}
	{
		Sc s = { .name = "memory: v2/v4 loads and stores, global and shared (m_vec)" };
		enum { T = 64 };
		uint32_t vin[T * 4], vout[T * 4], sout[T * 4], wv[T * 4], ws[T * 4];
		double fin[T * 2], fout[T * 2], wf[T * 2];
		uint16_t hin[T * 4], hout[T * 4], wh[T * 4];
		for (uint32_t t = 0; t < T; t++) {
			for (int k = 0; k < 4; k++) {
				vin[4 * t + k] = t * 1000 + (uint32_t)k * 7 + 1;
				hin[4 * t + k] = (uint16_t)(t * 16 + (uint32_t)k + 0x8000);
			}
			fin[2 * t] = t * 0.5;
			fin[2 * t + 1] = -(double)t * 0.25;
		}
		for (uint32_t t = 0; t < T; t++) {
			for (int k = 0; k < 4; k++) {
				wv[4 * t + k] = vin[4 * t + 3 - k];
				ws[4 * t + k] = vin[4 * (t ^ 1) + k];
				wh[4 * t + k] = hin[4 * t + (k + 1) % 4];
			}
			wf[2 * t] = fin[2 * t + 1] * 2;
			wf[2 * t + 1] = fin[2 * t] + 1;
		}
		uint64_t a[7] = { dbuf(&s, d, sizeof vin, vin), dbuf(&s, d, sizeof fin, fin), dbuf(&s, d, sizeof hin, hin),
				  dbuf(&s, d, sizeof vout, NULL), dbuf(&s, d, sizeof fout, NULL),
				  dbuf(&s, d, sizeof sout, NULL), dbuf(&s, d, sizeof hout, NULL) };
		void *args[] = { &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6] };
		if (!s.bad && run(&s, d, p, "m_vec", CFG(1, T), args) && get(&s, d, vout, a[3], sizeof vout) &&
		    get(&s, d, fout, a[4], sizeof fout) && get(&s, d, sout, a[5], sizeof sout) &&
		    get(&s, d, hout, a[6], sizeof hout)) {
			cmp32(&s, "v4.u32 reversed", vout, wv, T * 4);
			cmp32(&s, "shared v4.u32 from t ^ 1", sout, ws, T * 4);
			if (memcmp(fout, wf, sizeof wf))
				bad(&s, "v2.f64: differs (first pair %g %g, want %g %g)", fout[0], fout[1], wf[0], wf[1]);
			if (memcmp(hout, wh, sizeof wh))
				bad(&s, "v4.u16: differs (first quad %04x %04x %04x %04x, want %04x %04x %04x %04x)",
				    hout[0], hout[1], hout[2], hout[3], wh[0], wh[1], wh[2], wh[3]);
		}
		done(&s);
	}
	{
		Sc s = { .name = "memory: ptxvm_program_global copies into .global/.const and out (m_poly)" };
		uint64_t coef = 0, scale = 0, dn = 0;
		size_t ncoef = 0, nscale = 0, ndone = 0;
		double c[3] = { 2.0, -1.0, 0.5 }, got[16], want[16];
		uint32_t sc = 5, vdone = 0;
		if (ptxvm_program_global(p, "m_coef", &coef, &ncoef) || ptxvm_program_global(p, "m_scale", &scale, &nscale) ||
		    ptxvm_program_global(p, "m_done", &dn, &ndone))
			bad(&s, "ptxvm_program_global: %s", ptxvm_device_message(d));
		else if (ncoef != 24 || nscale != 4 || ndone != 4)
			bad(&s, "sizes %zu %zu %zu, want 24 4 4", ncoef, nscale, ndone);
		else if (ptxvm_program_global(p, "m_nothing", NULL, NULL) != PTXVM_ERROR_NOT_FOUND)
			bad(&s, "ptxvm_program_global of an unknown name is not PTXVM_ERROR_NOT_FOUND");
		else if (ptxvm_memcpy_htod(d, coef, c, sizeof c) || ptxvm_memcpy_htod(d, scale, &sc, 4))
			bad(&s, "copies in: %s", ptxvm_device_message(d));
		uint64_t out = s.bad ? 0 : dbuf(&s, d, sizeof got, NULL);
		void *args[] = { &out };
		if (out && run(&s, d, p, "m_poly", CFG(1, 16), args) && get(&s, d, got, out, sizeof got) &&
		    get(&s, d, &vdone, dn, 4)) {
			for (int t = 0; t < 16; t++)
				want[t] = ((c[2] * t + c[1]) * t + c[0]) * sc;
			if (memcmp(got, want, sizeof got))
				bad(&s, "results differ: out[3] = %g, want %g", got[3], want[3]);
			if (vdone != 0x600d)
				bad(&s, "m_done read back 0x%x, want 0x600d", vdone);
		}
		done(&s);
	}
}

/* ---- faults ------------------------------------------------------------- */
/* The lines marked "FAULT" in function fn of text; returns their number. */
static int fault_lines(const char *text, const char *fn, unsigned *lines, int max)
{
	char key[128];
	snprintf(key, sizeof key, " %s(", fn);
	bool in = false;
	int n = 0;
	unsigned line = 1;
	for (const char *p = text; *p; line++) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), p);
		if (!strncmp(buf, ".func", 5) || !strncmp(buf, ".visible", 8) || !strncmp(buf, ".entry", 6))
			in = strstr(buf, key) != NULL;
		else if (in && strstr(buf, "// FAULT") && n < max)
			lines[n++] = line;
		if (!e)
			break;
		p = e + 1;
	}
	return n;
}

/* Whether msg names FILE:line (FILE ending in base, the line not a prefix). */
static bool names_line(const char *msg, const char *base, unsigned line)
{
	char key[128];
	snprintf(key, sizeof key, "%s:%u", base, line);
	for (const char *p = msg; (p = strstr(p, key)); p++) {
		char c = p[strlen(key)];
		if (c < '0' || c > '9')
			return true;
	}
	return false;
}

/* f_ok on d: false (s marked bad) unless it runs and gives out[g] = 3g. */
static bool next_ok(Sc *s, ptxvm_device *d, ptxvm_program *p, const char *after)
{
	uint32_t got[128], want[128];
	for (uint32_t g = 0; g < 128; g++)
		want[g] = 3 * g;
	uint64_t out = dbuf(s, d, sizeof got, NULL);
	void *args[] = { &out };
	const ptxvm_kernel *k = ptxvm_kernel_find(p, "f_ok");
	ptxvm_launch_config c = CFG(2, 64);
	ptxvm_result r = out ? ptxvm_launch(d, k, &c, args, NULL) : PTXVM_ERROR_INVALID_VALUE;
	bool ok = false;
	if (r != PTXVM_SUCCESS)
		bad(s, "the launch after %s failed: %s: %s", after, ptxvm_result_name(r), ptxvm_device_message(d));
	else if (get(s, d, got, out, sizeof got)) {
		cmp32(s, "the launch after the fault", got, want, 128);
		ok = !s->bad;
	}
	if (out)
		ptxvm_mem_free(d, out);
	return ok;
}

typedef struct Fault {
	const char *what;
	const char *kernel, *where;     /* where: the function holding the FAULT lines */
	ptxvm_result want;
	unsigned grid, block;
	const char *cta, *thread;       /* text the report must hold; NULL: not checked */
	bool has_n;                     /* a second parameter n = 69 */
	bool need_line;
} Fault;

static void fault_case(ptxvm_device *d, ptxvm_program *p, const char *text, const Fault *f)
{
	char name[256];
	snprintf(name, sizeof name, "faults: %s (%s)", f->what, f->kernel);
	Sc s = { .name = name };
	unsigned lines[4];
	int nl = fault_lines(text, f->where, lines, 4);
	if (f->need_line && !nl)
		bad(&s, "test bug: no FAULT line in '%s'", f->where);
	uint32_t zero[69] = { 0 }, n = 69;
	uint64_t buf = dbuf(&s, d, sizeof zero, zero);
	void *args[] = { &buf, &n };
	const ptxvm_kernel *k = ptxvm_kernel_find(p, f->kernel);
	ptxvm_launch_config c = CFG(f->grid, f->block);
	if (!s.bad && !k)
		bad(&s, "no kernel '%s'", f->kernel);
	if (!s.bad) {
		ptxvm_result r = ptxvm_launch(d, k, &c, args, NULL);
		const char *msg = ptxvm_device_message(d);
		char kq[128];
		snprintf(kq, sizeof kq, "'%s'", f->kernel);
		bool line_ok = !f->need_line;
		for (int i = 0; i < nl; i++)
			line_ok |= names_line(msg, "faults.ptx", lines[i]);
		if (r != f->want)
			bad(&s, "result %s, want %s; message: %s", ptxvm_result_name(r), ptxvm_result_name(f->want), msg);
		else if (!strstr(msg, kq))
			bad(&s, "the report does not name the kernel %s: %s", kq, msg);
		else if (f->cta && !strstr(msg, f->cta))
			bad(&s, "the report does not name %s: %s", f->cta, msg);
		else if (f->thread && !strstr(msg, f->thread))
			bad(&s, "the report does not name %s: %s", f->thread, msg);
		else if (!line_ok)
			bad(&s, "the report does not name faults.ptx:%u (the faulting instruction): %s", lines[0], msg);
		else if (verbose)
			printf("exec %s: %s\n", name, msg);
	}
	if (buf)
		ptxvm_mem_free(d, buf);
	if (!s.bad)
		next_ok(&s, d, p, f->kernel);
	done(&s);
}

static void test_faults(ptxvm_device *d)
{
	Sc ld = { .name = "faults: load" };
	char *text = NULL;
	ptxvm_program *p = load_file(&ld, d, "faults.ptx", &text);
	if (!p) {
		done(&ld);
		free(text);
		return;
	}
	static const Fault cases[] = {
		{ "global load just past the end of an allocation", "f_oob_ld", "f_oob_ld",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", true, true },
		{ "global store just past the end of an allocation", "f_oob_st", "f_oob_st",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", true, true },
		{ "whole coalesced warp's load running past the end", "f_oob_warp_ld", "f_oob_warp_ld",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
		{ "whole coalesced warp whose last lane alone is past the end", "f_oob_lane31", "f_oob_lane31",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (31,0,0)", false, true },
		{ "whole coalesced warp of pairs whose last pair crosses the end", "f_oob_v2_end", "f_oob_v2_end",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (31,0,0)", false, true },
		{ "whole coalesced warp's store running past the end", "f_oob_warp_st", "f_oob_warp_st",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
		{ "whole coalesced warp's misaligned load", "f_misaligned_warp", "f_misaligned_warp",
		  PTXVM_ERROR_MISALIGNED_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (0,0,0)", false, true },
		{ "load from address 0", "f_null", "f_null",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
		{ "misaligned u32 load", "f_misaligned", "f_misaligned",
		  PTXVM_ERROR_MISALIGNED_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
		{ "parameter read past the parameters", "f_param", "f_param",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", true, true },
		{ "shared load out of bounds", "f_shared", "f_shared",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
		{ "trap", "f_trap", "f_trap",
		  PTXVM_ERROR_LAUNCH_FAILED, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
		{ "barrier deadlock: warps waiting at barriers 1 and 2", "f_deadlock", "f_deadlock",
		  PTXVM_ERROR_ILLEGAL_INSTRUCTION, 1, 64, "CTA (0,0,0)", "thread (", false, true },
		{ "unbounded recursion", "f_recurse", "f_rec",
		  PTXVM_ERROR_HARDWARE_STACK_ERROR, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
		{ "store to .const through a generic address", "f_const_st", "f_const_st",
		  PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 64, "CTA (1,0,0)", "thread (5,0,0)", false, true },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		fault_case(d, p, text, &cases[i]);

	/* the watchdog, on a device of its own */
	ptxvm_device_opts o = { .workers = 2, .timeout = 0.5 };
	ptxvm_device *td = ptxvm_device_create(&o);
	Sc tl = { .name = "faults: load on a device with a timeout" };
	ptxvm_program *tp = td ? load_file(&tl, td, "faults.ptx", NULL) : NULL;
	if (!tp)
		done(&tl);
	else {
		static const Fault t = { "infinite loop with a 0.5 s timeout", "f_loop", "f_loop",
					 PTXVM_ERROR_LAUNCH_TIMEOUT, 1, 32, "CTA (0,0,0)", NULL, false, false };
		fault_case(td, tp, text, &t);
	}
	ptxvm_device_destroy(td);
	free(text);
}

/* ---- the API on bad arguments ------------------------------------------- */
static void test_api_args(ptxvm_device *d)
{
	Sc ld = { .name = "api: load" };
	ptxvm_program *p = load_file(&ld, d, "faults.ptx", NULL);
	if (!p) {
		done(&ld);
		return;
	}
	const ptxvm_kernel *k = ptxvm_kernel_find(p, "f_ok");
	uint64_t buf = 0;
	{
		Sc s = { .name = "api: NULL device" };
		uint64_t a = 0;
		uint32_t v = 0;
		ptxvm_launch_config c = CFG(1, 32);
		void *args[] = { &a };
		ptxvm_result r;
		if ((r = ptxvm_mem_alloc(NULL, 16, &a)) != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "ptxvm_mem_alloc(NULL): %s", ptxvm_result_name(r));
		else if ((r = ptxvm_memcpy_htod(NULL, 0x1000, &v, 4)) != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "ptxvm_memcpy_htod(NULL): %s", ptxvm_result_name(r));
		else if ((r = ptxvm_launch(NULL, k, &c, args, NULL)) != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "ptxvm_launch(NULL): %s", ptxvm_result_name(r));
		else if ((r = ptxvm_launch_packed(NULL, k, &c, &a, 8, NULL)) != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "ptxvm_launch_packed(NULL): %s", ptxvm_result_name(r));
		else if (!strstr(ptxvm_device_message(NULL), "NULL"))
			bad(&s, "ptxvm_device_message(NULL) does not name the NULL argument: '%s'",
			    ptxvm_device_message(NULL));
		done(&s);
	}
	{
		Sc s = { .name = "api: a block of 2048 threads" };
		buf = dbuf(&s, d, 4096 * 4, NULL);
		ptxvm_launch_config c = CFG(1, 2048);
		void *args[] = { &buf };
		ptxvm_result r = ptxvm_launch(d, k, &c, args, NULL);
		if (r != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "launch: %s, want CUDA_ERROR_INVALID_VALUE: %s", ptxvm_result_name(r), ptxvm_device_message(d));
		else if (!*ptxvm_device_message(d))
			bad(&s, "no message for the failed launch");
		else
			next_ok(&s, d, p, "the refused launch");
		done(&s);
	}
	{
		Sc s = { .name = "api: ptxvm_launch_packed with the wrong parameter size" };
		uint64_t pk[2] = { buf, 0 };
		ptxvm_launch_config c = CFG(2, 64);
		ptxvm_result r1 = ptxvm_launch_packed(d, k, &c, pk, 4, NULL);
		ptxvm_result r2 = ptxvm_launch_packed(d, k, &c, pk, 16, NULL);
		ptxvm_result r3 = ptxvm_launch_packed(d, k, &c, pk, 8, NULL);
		if (ptxvm_kernel_params_size(k) != 8)
			bad(&s, "f_ok's parameter buffer is %zu bytes, want 8", ptxvm_kernel_params_size(k));
		else if (r1 != PTXVM_ERROR_INVALID_VALUE || r2 != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "4 bytes: %s, 16 bytes: %s; want CUDA_ERROR_INVALID_VALUE for both", ptxvm_result_name(r1),
			    ptxvm_result_name(r2));
		else if (r3 != PTXVM_SUCCESS)
			bad(&s, "the right size, 8 bytes: %s: %s", ptxvm_result_name(r3), ptxvm_device_message(d));
		done(&s);
	}
	{
		Sc s = { .name = "api: copies outside an allocation" };
		uint64_t a = dbuf(&s, d, 64, NULL);
		uint8_t tmp[16] = { 0 };
		ptxvm_result r[6] = {
			ptxvm_memcpy_htod(d, a + 60, tmp, 8), ptxvm_memcpy_dtoh(d, tmp, a + 64, 4),
			ptxvm_memcpy_dtod(d, a + 56, a, 16), ptxvm_memset_d8(d, a - 1, 0, 2),
			ptxvm_memcpy_htod(d, 0, tmp, 4), ptxvm_memcpy_htod(d, a + 48, tmp, 16),
		};
		static const char *what[6] = { "htod [60,68) of 64", "dtoh [64,68) of 64", "dtod to [56,72) of 64",
					       "memset from base - 1", "htod to address 0", "htod [48,64) of 64 (valid)" };
		for (int i = 0; i < 6; i++) {
			ptxvm_result want = i == 5 ? PTXVM_SUCCESS : PTXVM_ERROR_INVALID_VALUE;
			if (r[i] != want)
				bad(&s, "%s: %s, want %s", what[i], ptxvm_result_name(r[i]), ptxvm_result_name(want));
		}
		if (a)
			ptxvm_mem_free(d, a);
		done(&s);
	}
	{
		Sc s = { .name = "api: 16- and 32-bit fills, the allocation of an address" };
		uint64_t a = dbuf(&s, d, 64, NULL);
		uint8_t got[64], want[64];
		memset(want, 0xee, sizeof want);
		for (int i = 0; i < 3; i++)
			memcpy(want + 2 + 2 * i, &(uint16_t){ 0xbeef }, 2);
		for (int i = 0; i < 5; i++)
			memcpy(want + 20 + 4 * i, &(uint32_t){ 0x01020304 }, 4);
		ptxvm_result r1 = ptxvm_memset_d16(d, a + 2, 0xbeef, 3), r2 = ptxvm_memset_d32(d, a + 20, 0x01020304, 5);
		ptxvm_result r3 = ptxvm_memset_d16(d, a + 1, 0, 1), r4 = ptxvm_memset_d32(d, a + 2, 0, 1);
		ptxvm_result r5 = ptxvm_memset_d32(d, a + 60, 0, 2);
		uint64_t base = 0;
		size_t size = 0;
		ptxvm_result r6 = ptxvm_mem_range(d, a + 63, &base, &size), r7 = ptxvm_mem_range(d, a + 64, NULL, NULL);
		if (r1 || r2 || ptxvm_memcpy_dtoh(d, got, a, 64) || memcmp(got, want, 64))
			bad(&s, "fills: %s, %s, or the bytes differ", ptxvm_result_name(r1), ptxvm_result_name(r2));
		if (r3 != PTXVM_ERROR_INVALID_VALUE || r4 != PTXVM_ERROR_INVALID_VALUE || r5 != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "misaligned d16 %s, misaligned d32 %s, d32 past the end %s: want invalid values",
			    ptxvm_result_name(r3), ptxvm_result_name(r4), ptxvm_result_name(r5));
		if (r6 || base != a || size != 64 || r7 != PTXVM_ERROR_NOT_FOUND)
			bad(&s, "range of a+63: %s base 0x%llx size %zu; of a+64: %s", ptxvm_result_name(r6),
			    (unsigned long long)(base - a), size, ptxvm_result_name(r7));
		if (a)
			ptxvm_mem_free(d, a);
		done(&s);
	}
	{
		Sc s = { .name = "api: host memory mapped at its own address" };
		static uint8_t host[4096] __attribute__((aligned(64)));
		memset(host, 1, sizeof host);
		ptxvm_result r1 = ptxvm_mem_map_host(d, host + 64, 256);
		ptxvm_result r2 = ptxvm_memset_d8(d, (uint64_t)(uintptr_t)(host + 64), 7, 256);
		ptxvm_result r3 = ptxvm_mem_map_host(d, host + 128, 16);       /* overlaps */
		uint64_t base = 0;
		size_t size = 0;
		ptxvm_result r4 = ptxvm_mem_range(d, (uint64_t)(uintptr_t)(host + 100), &base, &size);
		ptxvm_result r5 = ptxvm_mem_unmap_host(d, host + 64);
		ptxvm_result r6 = ptxvm_memset_d8(d, (uint64_t)(uintptr_t)(host + 64), 9, 1);
		ptxvm_result r7 = ptxvm_mem_unmap_host(d, host + 64);
		int bytes_ok = host[63] == 1 && host[64] == 7 && host[319] == 7 && host[320] == 1;
		if (r1 || r2 || !bytes_ok)
			bad(&s, "map %s, fill through the device %s, bytes %s", ptxvm_result_name(r1), ptxvm_result_name(r2),
			    bytes_ok ? "right" : "wrong");
		if (r3 != PTXVM_ERROR_INVALID_VALUE || r4 || base != (uint64_t)(uintptr_t)(host + 64) || size != 256)
			bad(&s, "an overlapping map: %s; the range: %s", ptxvm_result_name(r3), ptxvm_result_name(r4));
		if (r5 || r6 != PTXVM_ERROR_INVALID_VALUE || r7 != PTXVM_ERROR_INVALID_VALUE)
			bad(&s, "unmap %s, fill after %s, unmap again %s", ptxvm_result_name(r5), ptxvm_result_name(r6),
			    ptxvm_result_name(r7));
		done(&s);
	}
	{
		/* each CTA counts itself in the grid barrier word and waits for
		 * all the others: only a cooperative launch finishes */
		Sc s = { .name = "api: cooperative launch and its grid barrier word" };
		char why[512];
		ptxvm_program *q = load_ptx(d, "coop.ptx",
			".version 8.0\n.target sm_90\n.address_size 64\n"
			".visible .entry coop(.param .u64 out)\n{\n.reg .pred %p;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
			"mov.u32 %r1, %envreg1;\nmov.u32 %r2, %envreg2;\ncvt.u64.u32 %rd1, %r1;\ncvt.u64.u32 %rd2, %r2;\n"
			"shl.b64 %rd1, %rd1, 32;\nor.b64 %rd3, %rd1, %rd2;\nmov.u32 %r3, %nctaid.x;\n"
			"atom.global.add.u32 %r4, [%rd3], 1;\nspin:\nld.volatile.global.u32 %r5, [%rd3];\n"
			"setp.lt.u32 %p, %r5, %r3;\n@%p bra spin;\nld.param.u64 %rd4, [out];\nmov.u32 %r6, %ctaid.x;\n"
			"mul.wide.u32 %rd5, %r6, 4;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r5;\nret;\n}\n",
			why, sizeof why);
		uint64_t out = q ? dbuf(&s, d, 12 * 4, NULL) : 0;
		const ptxvm_kernel *ck = q ? ptxvm_kernel_find(q, "coop") : NULL;
		ptxvm_launch_config cfg = { { 12, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
		void *args[] = { &out };
		ptxvm_result r = ck ? ptxvm_launch_cooperative(d, ck, &cfg, args, NULL) : PTXVM_ERROR_INVALID_PTX;
		uint32_t got[12] = { 0 };
		if (!q)
			bad(&s, "coop.ptx: %s", why);
		else if (r || ptxvm_memcpy_dtoh(d, got, out, sizeof got))
			bad(&s, "the launch: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
		for (int i = 0; i < 12 && !r; i++)
			if (got[i] != 12)
				bad(&s, "CTA %d saw %u CTAs at the barrier, want 12", i, got[i]);
		ptxvm_launch_config big = { { 1025, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
		if (ck && ptxvm_launch_cooperative(d, ck, &big, args, NULL) != PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES)
			bad(&s, "1025 CTAs cooperatively are not refused");
		if (out)
			ptxvm_mem_free(d, out);
		ptxvm_program_unload(q);
		done(&s);
	}
	{
		/* Six kernels of 40 KiB of .shared each, more than a CTA may have
		   together: each counts and gets only what it reaches, directly,
		   through a function it calls, or through one it calls by address;
		   one variable two kernels name has one place for both; the .extern
		   array of the one that has it is above that kernel's own. */
		Sc s = { .name = "api: each kernel's static shared memory is what it reaches" };
		char why[512], src[4096];
		int n = snprintf(src, sizeof src, ".version 7.8\n.target sm_80\n.address_size 64\n"
				 ".shared .align 16 .b8 both[64];\n.extern .shared .align 16 .b8 dyn[];\n");
		for (int i = 0; i < 6; i++)
			n += snprintf(src + n, sizeof src - (size_t)n, ".shared .align 16 .b8 big%d[40960];\n", i);
		n += snprintf(src + n, sizeof src - (size_t)n,
			      ".func (.reg .u32 r) via() { mov.u32 r, big4; ret; }\n"
			      ".func (.reg .u32 r) byaddr() { mov.u32 r, big5; ret; }\n");
		/* k0..k3 name big0..big3 (k0 and k1 also both); k4 calls via, k5
		   byaddr through a pointer; each writes its lane's word of its
		   array and of both, reads them back, and writes the sum and the
		   array's offset */
		for (int i = 0; i < 6; i++)
			n += snprintf(src + n, sizeof src - (size_t)n,
				      ".visible .entry k%d(.param .u64 o) { .reg .b32 %%r<8>; .reg .b64 %%rd<4>;\n"
				      "%s"
				      "mov.u32 %%r2, %%tid.x; shl.b32 %%r3, %%r2, 2; add.u32 %%r4, %%r1, %%r3;\n"
				      "add.u32 %%r5, %%r2, %d; st.shared.u32 [%%r4+40832], %%r5; mov.u32 %%r6, both;\n"
				      "add.u32 %%r6, %%r6, %%r3; st.shared.u32 [%%r6], 1000; bar.sync 0;\n"
				      "ld.shared.u32 %%r5, [%%r4+40832]; ld.shared.u32 %%r7, [%%r6]; add.u32 %%r5, %%r5, %%r7;\n"
				      "ld.param.u64 %%rd1, [o]; cvta.to.global.u64 %%rd1, %%rd1; mul.wide.u32 %%rd2, %%r2, 8;\n"
				      "add.s64 %%rd3, %%rd1, %%rd2; st.global.v2.u32 [%%rd3], {%%r5, %%r1}; ret; }\n",
				      i, i < 4 ? (i == 0 ? "mov.u32 %r1, big0;\n" : i == 1 ? "mov.u32 %r1, big1;\n"
						  : i == 2 ? "mov.u32 %r1, big2; mov.u32 %r7, dyn;\n" : "mov.u32 %r1, big3;\n")
				      : i == 4 ? "call (%r1), via, ();\n"
				      : "{ .reg .b64 %f; P: .callprototype (.reg .u32 r) _ (); mov.u64 %f, byaddr;\n"
					"call (%r1), %f, (), P; }\n",
				      100 * i);
		ptxvm_program *q = load_ptx(d, "pershared.ptx", src, why, sizeof why);
		if (!q)
			bad(&s, "pershared.ptx: %s", why);
		for (int i = 0; q && i < 6; i++) {
			char name[8];
			snprintf(name, sizeof name, "k%d", i);
			const ptxvm_kernel *ki = ptxvm_kernel_find(q, name);
			ptxvm_kernel_attrs a = { 0 };
			size_t want = 40960 + 64;       /* its array and both, each aligned */
			if (!ki || ptxvm_kernel_attributes(ki, &a) || a.shared_bytes != want)
				bad(&s, "%s: static shared %zu, want %zu", name, a.shared_bytes, want);
			uint64_t out = dbuf(&s, d, 32 * 8, NULL);
			uint32_t got[64];
			void *args[] = { &out };
			if (out && run(&s, d, q, name, CFG(1, 32), args) && get(&s, d, got, out, sizeof got)) {
				for (uint32_t l = 0; l < 32; l++)
					if (got[2 * l] != l + 100u * (unsigned)i + 1000 || got[2 * l + 1] != got[1] ||
					    got[1] < 1024 || got[1] + 40960 > 1024 + 40960 + 64 + 16)
						bad(&s, "%s lane %u: %u at offset %u, want %u at an offset from 1024 to 1104", name,
						    l, got[2 * l], got[2 * l + 1], l + 100u * (unsigned)i + 1000);
			}
			if (out)
				ptxvm_mem_free(d, out);
		}
		ptxvm_program_unload(q);
		done(&s);
	}
	{
		Sc s = { .name = "api: kernel attributes" };
		char why[512];
		ptxvm_program *q = load_ptx(d, "attrs.ptx",
			".version 7.8\n.target sm_80\n.address_size 64\n.shared .align 4 .b8 tile[1000];\n"
			".visible .entry k(.param .u64 o) .maxntid 8, 4, 2 { .reg .b32 %r<2>; .local .b8 l[48];\n"
			"mov.u32 %r1, tile; st.shared.u32 [%r1], 1; ret; }\n", why, sizeof why);
		ptxvm_kernel_attrs a = { 0 }, b = { 0 };
		ptxvm_result r1 = q ? ptxvm_kernel_attributes(ptxvm_kernel_find(q, "k"), &a) : PTXVM_ERROR_INVALID_PTX;
		ptxvm_result r2 = ptxvm_kernel_attributes(k, &b);
		if (!q)
			bad(&s, "attrs.ptx: %s", why);
		else if (r1 || a.shared_bytes < 1000 || a.shared_bytes > 1016 || a.max_threads != 64 || a.ptx_version != 78 || a.sm != 80 ||
			 a.local_bytes < 48)
			bad(&s, "k: %s, shared %zu (1000, padded to at most 16), max threads %u (64), PTX %u (78), sm %u (80), local %zu (>= 48)",
			    ptxvm_result_name(r1), a.shared_bytes, a.max_threads, a.ptx_version, a.sm, a.local_bytes);
		/* a kernel's static shared memory is what it reaches, as ptxas counts it:
		   f_ok names none (f_shared's 256 bytes are f_shared's) */
		if (r2 || b.shared_bytes != 0 || b.max_threads != 1024 || b.ptx_version != 80 || b.sm != 90)
			bad(&s, "f_ok: %s, shared %zu, max threads %u, PTX %u, sm %u", ptxvm_result_name(r2), b.shared_bytes,
			    b.max_threads, b.ptx_version, b.sm);
		if (ptxvm_kernel_attributes(NULL, &a) != PTXVM_ERROR_INVALID_HANDLE)
			bad(&s, "a NULL kernel is not refused");
		ptxvm_program_unload(q);
		done(&s);
	}
	if (buf)
		ptxvm_mem_free(d, buf);
	ptxvm_program_unload(p);
}

/* ---- determinism -------------------------------------------------------- */
static void test_determinism(void)
{
	Sc s = { .name = "determinism: 64 CTAs with shared reduction and atomics, workers 1, 2, 7 (det)" };
	enum { NC = 64, NT = 128, N = NC * NT };
	uint32_t *in = malloc(N * 4), *res[3] = { 0 };
	size_t bytes = (NC + NC + N + N) * 4;
	for (uint32_t i = 0; i < N; i++)
		in[i] = i * 7919u + 17;
	static const unsigned workers[3] = { 1, 2, 7 };
	for (int w = 0; w < 3 && !s.bad; w++) {
		ptxvm_device_opts o = { .workers = workers[w] };
		ptxvm_device *d = ptxvm_device_create(&o);
		ptxvm_program *p = load_file(&s, d, "determinism.ptx", NULL);
		uint64_t din = dbuf(&s, d, N * 4, in);
		uint32_t *zero = calloc(bytes, 1);
		uint64_t sums = dbuf(&s, d, NC * 4, NULL), cnt = dbuf(&s, d, NC * 4, zero),
			 slot = dbuf(&s, d, N * 4, NULL), mine = dbuf(&s, d, N * 4, NULL);
		free(zero);
		void *args[] = { &din, &sums, &cnt, &slot, &mine };
		res[w] = malloc(bytes);
		if (p && !s.bad && run(&s, d, p, "det", CFG(NC, NT), args)) {
			get(&s, d, res[w], sums, NC * 4);
			get(&s, d, res[w] + NC, cnt, NC * 4);
			get(&s, d, res[w] + 2 * NC, slot, N * 4);
			get(&s, d, res[w] + 2 * NC + N, mine, N * 4);
		}
		ptxvm_device_destroy(d);
	}
	if (!s.bad) {
		uint32_t *want = malloc(bytes);
		for (uint32_t c = 0; c < NC; c++) {
			uint32_t sum = 0;
			for (uint32_t t = 0; t < NT; t++) {
				uint32_t g = c * NT + t, v = (in[g] * 2654435761u) ^ g;
				sum += v;
				uint32_t sl = v + 3;
				want[2 * NC + g] = sl > g ? sl : g;
				want[2 * NC + N + g] = 4 * t;
			}
			want[c] = want[NC + c] = sum;
		}
		cmp32(&s, "workers = 1 against the C result (sums | cnt | slot | mine)", res[0], want, bytes / 4);
		for (int w = 1; w < 3 && !s.bad; w++)
			if (memcmp(res[0], res[w], bytes))
				bad(&s, "the output bytes with %u workers differ from those with 1", workers[w]);
		free(want);
	}
	for (int w = 0; w < 3; w++)
		free(res[w]);
	free(in);
	done(&s);
}

/* ---- two devices -------------------------------------------------------- */
static const char two_ptx[] = HDR
	"\n.global .align 4 .u32 two_g = 7;\n\n"
	"// p[t] = 2 p[t] + k + two_g\n"
	".visible .entry two(.param .u64 p, .param .u32 k)\n{\n"
	"\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [k];\n\tmov.u32 %r2, %tid.x;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.u32 %r3, [%rd3];\n\tld.global.u32 %r4, [two_g];\n"
	"\tmad.lo.u32 %r3, %r3, 2, %r1;\n\tadd.u32 %r3, %r3, %r4;\n\tst.global.u32 [%rd3], %r3;\n\tret;\n}\n";

static void test_two_devices(void)
{
	Sc s = { .name = "devices: two devices in one process are independent" };
	dump("two", two_ptx);
	ptxvm_device *da = ptxvm_device_create(NULL), *db = ptxvm_device_create(NULL);
	ptxvm_program *pa = load_text(&s, da, "two.ptx", two_ptx), *pb = pa ? load_text(&s, db, "two.ptx", two_ptx) : NULL;
	uint32_t ia[32], ib[32], ga[32], gb[32], wa[32], wb[32], hundred = 100;
	for (uint32_t t = 0; t < 32; t++) {
		ia[t] = t;
		ib[t] = 1000 + t;
		wa[t] = ((t * 2 + 1 + 100) * 2 + 3 + 100);
		wb[t] = (1000 + t) * 2 + 2 + 7;
	}
	uint64_t a = 0, b = 0, ga_addr = 0;
	if (pa && pb) {
		a = dbuf(&s, da, 1 << 20, NULL);
		b = dbuf(&s, db, 256, NULL);
		if (!s.bad && (ptxvm_memcpy_htod(da, a, ia, sizeof ia) || ptxvm_memcpy_htod(db, b, ib, sizeof ib)))
			bad(&s, "copies in failed");
		if (!s.bad && (ptxvm_program_global(pa, "two_g", &ga_addr, NULL) ||
			       ptxvm_memcpy_htod(da, ga_addr, &hundred, 4)))
			bad(&s, "setting two_g on device A: %s", ptxvm_device_message(da));
	}
	if (pa && pb && !s.bad) {
		uint32_t k1 = 1, k2 = 2, k3 = 3;
		void *a1[] = { &a, &k1 }, *b2[] = { &b, &k2 }, *a3[] = { &a, &k3 };
		if (run(&s, da, pa, "two", CFG(1, 32), a1) && run(&s, db, pb, "two", CFG(1, 32), b2) &&
		    run(&s, da, pa, "two", CFG(1, 32), a3) && get(&s, da, ga, a, sizeof ga) && get(&s, db, gb, b, sizeof gb)) {
			cmp32(&s, "device A's buffer", ga, wa, 32);
			cmp32(&s, "device B's buffer (B's two_g must still be 7)", gb, wb, 32);
		}
		uint32_t v = 5;
		ptxvm_result r1 = ptxvm_memcpy_htod(db, a + 0x80000, &v, 4);
		ptxvm_result r2 = ptxvm_memcpy_dtoh(db, &v, a + 0x80000, 4);
		ptxvm_launch_config c = CFG(1, 32);
		ptxvm_result r3 = ptxvm_launch(db, ptxvm_kernel_find(pa, "two"), &c, a1, NULL);
		if (!s.bad && (r1 == PTXVM_SUCCESS || r2 == PTXVM_SUCCESS))
			bad(&s, "device B accepts copies to and from device A's address 0x%llx (%s, %s)",
			    (unsigned long long)(a + 0x80000), ptxvm_result_name(r1), ptxvm_result_name(r2));
		else if (!s.bad && r3 == PTXVM_SUCCESS)
			bad(&s, "device B launches a kernel of device A's program");
	}
	ptxvm_device_destroy(da);
	ptxvm_device_destroy(db);
	done(&s);
}

/* ---- the group ---------------------------------------------------------- */
/* ---- what nvcc writes: WARP_SZ, predicate immediates, relocatable code ---- */
static void test_stack(ptxvm_device *d)
{
	Sc s = { .name = "stack: alloca, stacksave, stackrestore (stack.ptx)" };
	ptxvm_program *p = load_file(&s, d, "stack.ptx", NULL);
	if (!p) {
		done(&s);
		return;
	}
	/* per thread: the sum of its words after the call, fill()'s sum, the
	 * allocation's address mod 64, and whether stackrestore gave the
	 * saved pointer back */
	uint32_t want[40 * 4];
	for (uint32_t t = 0; t < 40; t++) {
		uint32_t n = t % 5 + 1;
		want[4 * t] = n * t * 100 + n * (n - 1) / 2;
		want[4 * t + 1] = 1000 * (n + 3);
		want[4 * t + 2] = 0;
		want[4 * t + 3] = 1;
	}
	run_out32(&s, d, p, "stk", CFG(1, 40), want, 40 * 4);
	uint64_t big = 1 << 20;
	uint32_t bogus = 0xffffffffu;
	void *a1[] = { &big }, *a2[] = { &bogus };
	const ptxvm_kernel *k1 = ptxvm_kernel_find(p, "stk_big"), *k2 = ptxvm_kernel_find(p, "stk_restore");
	ptxvm_launch_config c = CFG(1, 32);
	ptxvm_result r = k1 ? ptxvm_launch(d, k1, &c, a1, NULL) : PTXVM_ERROR_NOT_FOUND;
	if (r != PTXVM_ERROR_HARDWARE_STACK_ERROR || !strstr(ptxvm_device_message(d), "alloca of 1048576 bytes"))
		bad(&s, "alloca beyond the stack: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	r = k2 ? ptxvm_launch(d, k2, &c, a2, NULL) : PTXVM_ERROR_NOT_FOUND;
	if (r != PTXVM_ERROR_ILLEGAL_ADDRESS || !strstr(ptxvm_device_message(d), "stackrestore to 0xffffffff"))
		bad(&s, "stackrestore outside the stack: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	/* the stack is a device limit (CU_LIMIT_STACK_SIZE): 20,000 bytes do
	 * not fit 16 KiB and fit 64 KiB; it rounds up to 16 bytes, at most
	 * 512 KiB */
	size_t was = 0, v = 0;
	uint64_t mid = 20000;
	void *a3[] = { &mid };
	ptxvm_device_get_limit(d, PTXVM_LIMIT_STACK_SIZE, &was);
	if (ptxvm_device_set_limit(d, PTXVM_LIMIT_STACK_SIZE, 16384) || !k1 ||
	    ptxvm_launch(d, k1, &c, a3, NULL) != PTXVM_ERROR_HARDWARE_STACK_ERROR)
		bad(&s, "alloca of 20,000 bytes in a 16 KiB stack: %s", ptxvm_device_message(d));
	if (ptxvm_device_set_limit(d, PTXVM_LIMIT_STACK_SIZE, 65530) ||
	    ptxvm_device_get_limit(d, PTXVM_LIMIT_STACK_SIZE, &v) || v != 65536)
		bad(&s, "a stack of 65,530 bytes is %zu: %s", v, ptxvm_device_message(d));
	r = k1 ? ptxvm_launch(d, k1, &c, a3, NULL) : PTXVM_ERROR_NOT_FOUND;
	if (r != PTXVM_SUCCESS)
		bad(&s, "alloca of 20,000 bytes in a 64 KiB stack: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	if (ptxvm_device_set_limit(d, PTXVM_LIMIT_STACK_SIZE, (512 << 10) + 1) != PTXVM_ERROR_INVALID_VALUE ||
	    ptxvm_device_get_limit(d, PTXVM_LIMIT_STACK_SIZE, &v) || v != 65536)
		bad(&s, "a stack over 512 KiB is not refused (%zu)", v);
	ptxvm_device_set_limit(d, PTXVM_LIMIT_STACK_SIZE, was);
	ptxvm_program_unload(p);
	done(&s);
}

/* Registers a lane reads before it writes them read 0 in every warp, even
 * where the warp before it on the same worker left other values: lanes
 * that skip a write (a branch, a false guard) where the warp before wrote
 * it, a loop's register used on the way in; 4 CTAs of 2 warps on one
 * worker, each CTA's skipping lanes 16 further on. */
static const char unwritten_ptx[] = HDR
	".visible .entry unwritten(.param .u64 out)\n"
	"{\n"
	"\t.reg .b32 %r<8>;\n\t.reg .pred %p<3>;\n\t.reg .b64 %rd<4>;\n"
	"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n\tmad.lo.u32 %r3, %r3, 64, %r1;\n"
	"\tmov.u32 %r7, %ctaid.x;\n\tmad.lo.u32 %r7, %r7, 16, %r1;\n"
	"\tand.b32 %r7, %r7, 63;\n\tsetp.lt.u32 %p1, %r7, 16;\n"   /* (tid + 16 ctaid) % 64 < 16 skip */
	"\t@%p1 bra SKIP;\n"
	"\tadd.u32 %r2, %r1, 1000;\n"   /* lanes 16..: r2 = tid + 1000 */
	"SKIP:\n"
	"\t@!%p1 mov.u32 %r4, 77;\n"    /* lanes 16..: r4 = 77 */
	"\tmov.u32 %r6, 3;\n"
	"LOOP:\n"                       /* r5 += r6 three times, r5 never set first */
	"\tadd.u32 %r5, %r5, %r6;\n\tsub.u32 %r6, %r6, 1;\n\tsetp.ne.u32 %p2, %r6, 0;\n\t@%p2 bra LOOP;\n"
	"\tld.param.u64 %rd1, [out];\n\tmul.wide.u32 %rd2, %r3, 12;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd1], %r2;\n\tst.global.u32 [%rd1+4], %r4;\n\tst.global.u32 [%rd1+8], %r5;\n"
	"\tret;\n"
	"}\n";

static void test_unwritten(void)
{
	Sc s = { .name = "registers read before written: 0 in every warp on one worker" };
	ptxvm_device_opts o = { .workers = 1 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = d ? load_text(&s, d, "unwritten", unwritten_ptx) : NULL;
	if (p) {
		enum { N = 4 * 64 };
		uint32_t want[N * 3];
		for (uint32_t g = 0; g < N; g++) {
			uint32_t t = g % 64, skip = (t + 16 * (g / 64)) % 64 < 16;
			want[3 * g] = skip ? 0 : t + 1000;
			want[3 * g + 1] = skip ? 0 : 77;
			want[3 * g + 2] = 3 + 2 + 1;
		}
		run_out32(&s, d, p, "unwritten", CFG(4, 64), want, N * 3);
		ptxvm_program_unload(p);
	}
	if (d)
		ptxvm_device_destroy(d);
	else
		bad(&s, "ptxvm_device_create failed");
	done(&s);
}

static void test_bulk(ptxvm_device *d)
{
	Sc s = { .name = "bulk: cp.async.bulk and mbarrier transaction counts (bulk.ptx)" };
	ptxvm_program *p = load_file(&s, d, "bulk.ptx", NULL);
	if (!p) {
		done(&s);
		return;
	}
	uint8_t src[128], got[128];
	for (int i = 0; i < 128; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	uint64_t out = dbuf(&s, d, 128, NULL), dsrc = dbuf(&s, d, 128, src);
	void *args[] = { &out, &dsrc };
	if (out && dsrc && run(&s, d, p, "mb_tx", CFG(1, 32), args) && get(&s, d, got, out, 128)) {
		/* phase completions after each step (see bulk.ptx), two pending counts */
		static const uint32_t want[9] = { 0, 0, 1, 0, 1, 2, 0, 1, 2 };
		uint32_t w[9];
		memcpy(w, got, sizeof w);
		cmp32(&s, "completions and pending counts", w, want, 9);
		if (memcmp(got + 64, src, 64))
			bad(&s, "the 64 bytes copied global -> shared -> shared -> global differ");
	}
	static const struct { uint32_t off, n; ptxvm_result r; const char *msg; } bad_copy[] = {
		{ 8, 16, PTXVM_ERROR_MISALIGNED_ADDRESS, "multiples of 16" },
		{ 0, 40, PTXVM_ERROR_MISALIGNED_ADDRESS, "multiples of 16" },
		{ 0, 4096, PTXVM_ERROR_ILLEGAL_ADDRESS, "bytes past the end of the CTA's 1296 bytes of shared memory" },
	};
	const ptxvm_kernel *k = ptxvm_kernel_find(p, "bulk_bad");
	for (size_t i = 0; k && i < sizeof bad_copy / sizeof *bad_copy; i++) {
		void *a[] = { &dsrc, (void *)&bad_copy[i].off, (void *)&bad_copy[i].n };
		ptxvm_launch_config c = CFG(1, 32);
		ptxvm_result r = ptxvm_launch(d, k, &c, a, NULL);
		if (r != bad_copy[i].r || !strstr(ptxvm_device_message(d), bad_copy[i].msg))
			bad(&s, "bulk copy of %u bytes at offset %u: %s: %s", bad_copy[i].n, bad_copy[i].off,
			    ptxvm_result_name(r), ptxvm_device_message(d));
	}
	ptxvm_mem_free(d, out);
	ptxvm_mem_free(d, dsrc);
	ptxvm_program_unload(p);
	done(&s);
}

static const char nvcc_ptx[] = HDR
	".extern .func (.param .b32 r) elsewhere(.param .b32 a);\n"
	".visible .entry consts(.param .u64 out)\n{\n"
	"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n"
	"\trem.u32 %r2, %r1, WARP_SZ;\n"                 /* lane */
	"\tmov.pred %p1, -1;\n\tmov.pred %p2, 0;\n"
	"\tsetp.lt.and.u32 %p3, %r1, WARP_SZ-16, 5;\n"  /* tid < 16, and true */
	"\tselp.b32 %r3, 1, 0, %p1;\n\tselp.b32 %r4, 1, 0, %p2;\n\tselp.b32 %r5, 1, 0, %p3;\n"
	"\tselp.b32 %r6, 1, 0, !%p2;\n"
	"\tvote.sync.ballot.b32 %r7, 1, -1;\n"          /* every lane votes true */
	"\tmul.wide.u32 %rd2, %r1, 32;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.v2.u32 [%rd3], {%r2, %r3};\n\tst.global.v4.u32 [%rd3+16], {%r4, %r5, %r6, %r7};\n"
	"\tret;\n}\n"
	".visible .entry calls_out(.param .u64 out)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\t{\n\t.param .b32 a;\n\t.param .b32 r;\n\tst.param.b32 [a], 1;\n"
	"\tcall (r), elsewhere, (a);\n\tld.param.b32 %r1, [r];\n\t}\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

static void test_nvcc(ptxvm_device *d)
{
	Sc s = { .name = "nvcc" };
	/* a whole program may not call a function it does not define ... */
	ptxvm_module *m = ptxvm_module_load("nvcc", nvcc_ptx, strlen(nvcc_ptx), NULL);
	char *diag = ptxvm_module_diagnostics(m);
	if (!diag || !strstr(diag, "unresolved .extern function 'elsewhere'"))
		bad(&s, "a whole program calling an undefined function: %s", diag ? diag : "(none)");
	free(diag);
	ptxvm_module_free(m);
	/* ... relocatable code may; it loads, runs, and the call fails loudly */
	ptxvm_check_opts o = { .compile_only = 1 };
	m = ptxvm_module_load("nvcc", nvcc_ptx, strlen(nvcc_ptx), &o);
	ptxvm_program *p = NULL;
	if (ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p) != PTXVM_SUCCESS) {
		bad(&s, "relocatable module does not load");
		ptxvm_module_free(m);
		done(&s);
		return;
	}
	ptxvm_module_free(m);
	uint32_t want[64 * 8];
	for (unsigned t = 0; t < 64; t++) {
		uint32_t w[8] = { t % 32, 1, SENT, SENT, 0, t < 16, 1, 0xffffffffu };
		memcpy(want + 8 * t, w, sizeof w);
	}
	run_out32(&s, d, p, "consts", cfg3(1, 1, 1, 64, 1, 1, 0), want, 64 * 8);
	uint64_t out = dbuf(&s, d, 4, NULL);
	void *args[] = { &out };
	const ptxvm_kernel *k = ptxvm_kernel_find(p, "calls_out");
	ptxvm_launch_config c = cfg3(1, 1, 1, 32, 1, 1, 0);
	ptxvm_result r = k ? ptxvm_launch(d, k, &c, args, NULL) : PTXVM_ERROR_NOT_FOUND;
	if (r != PTXVM_ERROR_NOT_SUPPORTED || !strstr(ptxvm_device_message(d), "'elsewhere' has no body"))
		bad(&s, "a call to an undefined function: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	ptxvm_mem_free(d, out);
	ptxvm_program_unload(p);
	done(&s);
}

/* mad.f32 without a rounding modifier: for an sm_1x target, as the driver's
 * JIT compiles it for later devices, fma.rn.ftz.f32 (PTX ISA 9.7.3.7;
 * docs/FLOAT.md); for an sm_20 target before PTX ISA 3.2, mad.rn.f32.  One
 * thread per case (a, b, c); each stores mad.f32 and mad.sat.f32. */
#define LEGACY_MAD_BODY \
	".global .f32 in[24];\n" \
	".entry madf(.param .u64 out)\n{\n" \
	"\t.reg .u32 %r<2>;\n\t.reg .u64 %rd<5>;\n\t.reg .f32 %f<6>;\n" \
	"\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd1, %r1, 12;\n\tmov.u64 %rd2, in;\n\tadd.u64 %rd2, %rd2, %rd1;\n" \
	"\tld.global.f32 %f1, [%rd2];\n\tld.global.f32 %f2, [%rd2+4];\n\tld.global.f32 %f3, [%rd2+8];\n" \
	"\tmad.f32 %f4, %f1, %f2, %f3;\n\tmad.sat.f32 %f5, %f1, %f2, %f3;\n" \
	"\tmul.wide.u32 %rd3, %r1, 8;\n\tld.param.u64 %rd4, [out];\n\tadd.u64 %rd4, %rd4, %rd3;\n" \
	"\tst.global.f32 [%rd4], %f4;\n\tst.global.f32 [%rd4+4], %f5;\n\texit;\n}\n"
static const char legacy_mad_sm10[] = ".version 1.4\n.target sm_10, map_f64_to_f32\n\n" LEGACY_MAD_BODY;
static const char legacy_mad_sm20[] = ".version 3.0\n.target sm_20\n\n" LEGACY_MAD_BODY;

static void test_legacy_mad(void)
{
	/* a, b, c as bits; the results worked out by hand:
	 *  0: (1+2^-23)^2 - (1+2^-22) = 2^-46 exactly, fused (0x28800000); the
	 *     product rounded (or truncated, as sm_1x did) first gives 0
	 *  1: 2.0 * 1.0 + 0.5 = 2.5, and 1.0 saturated
	 *  2: a subnormal input, 2^-127 * 2^23 + 0: 2^-104 (0x0b800000), or 0
	 *     when the input is flushed
	 *  3: a subnormal result, -2^-63 * 2^-64 + 0 = -2^-127 (0x80400000), or
	 *     -0 when flushed (sign kept); saturated: +0
	 *  4: NaN * 1 + 1: the canonical NaN; saturated: +0 */
	static const uint32_t in[24] = {
		0x3f800001, 0x3f800001, 0xbf800002,  0x40000000, 0x3f800000, 0x3f000000,
		0x00400000, 0x4b000000, 0x00000000,  0xa0000000, 0x1f800000, 0x00000000,
		0x7fc00000, 0x3f800000, 0x3f800000,  0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const struct { const char *name, *text; uint32_t want[10]; } mods[] = {
		{ "legacy_mad_sm10", legacy_mad_sm10,   /* fma.rn.ftz.f32 */
		  { 0x28800000, 0x28800000, 0x40200000, 0x3f800000, 0x00000000, 0x00000000,
		    0x80000000, 0x00000000, 0x7fffffff, 0x00000000 } },
		{ "legacy_mad_sm20", legacy_mad_sm20,   /* fma.rn.f32 */
		  { 0x28800000, 0x28800000, 0x40200000, 0x3f800000, 0x0b800000, 0x0b800000,
		    0x80400000, 0x00000000, 0x7fffffff, 0x00000000 } },
	};
	for (size_t i = 0; i < sizeof mods / sizeof *mods; i++) {
		Sc s = { .name = mods[i].name };
		dump(mods[i].name, mods[i].text);
		ptxvm_device *d = ptxvm_device_create(NULL);
		ptxvm_program *p = d ? load_text(&s, d, mods[i].name, mods[i].text) : NULL;
		if (p) {
			uint64_t gin = 0;
			if (ptxvm_program_global(p, "in", &gin, NULL) != PTXVM_SUCCESS ||
			    ptxvm_memcpy_htod(d, gin, in, sizeof in) != PTXVM_SUCCESS)
				bad(&s, "writing in: %s", ptxvm_device_message(d));
			run_out32(&s, d, p, "madf", CFG(1, 5), mods[i].want, 10);
			ptxvm_program_unload(p);
		}
		if (d)
			ptxvm_device_destroy(d);
		else
			bad(&s, "ptxvm_device_create failed");
		done(&s);
	}
}

void test_exec(const char *root)
{
	g_root = root;
	ptxvm_device *d = ptxvm_device_create(NULL);
	if (!d) {
		fail("exec: ptxvm_device_create failed");
		return;
	}
	test_divergence(d);
	test_barriers(d);
	test_warp(d);
	test_sregs(d);
	test_lanes(d);
	test_counts(d);
	test_lone(d);
	test_memory(d);
	test_stack(d);
	test_bulk(d);
	test_faults(d);
	test_api_args(d);
	test_nvcc(d);
	ptxvm_device_destroy(d);
	test_determinism();
	test_unwritten();
	test_two_devices();
	test_legacy_mad();
}
