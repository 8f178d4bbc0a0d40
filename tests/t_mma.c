/* t_mma.c: the warp-wide matrix instructions against references written
 * here from the PTX ISA manual's fragment figures.
 *
 *   ldmatrix   .x1/.x2/.x4, with and without .trans, through a .shared
 *              32-bit address, a generic 64-bit one, a 32-bit address
 *              without a state space and a .shared::cta 64-bit one; row
 *              addresses permuted across the lanes
 *   stmatrix   the same forms, over a sentinel-filled shared buffer
 *   movmatrix  the transpose of a fragment
 *   faults     a partial warp, a row outside shared memory, a misaligned row
 *   wmma       load, mma and store in every shape, type and layout sm_90
 *              has, with and without strides, against the product of the
 *              matrices as they lie in memory (the fragments are opaque)
 *   mma        every shape x type x layout of mma.sync that sm_90 has: small
 *              integers (exact in any order), random integers over the
 *              whole range (wrapping, .satfinite), and floating-point
 *              products too small to move c one at a time but not together
 *              (the single rounding docs/FLOAT.md chooses)
 *
 * Each kernel is PTX generated here, checked and launched on one warp; the
 * reference places each fragment element where the manual's figure for
 * the form says thread t holds it (row t/4, columns 2(t%4) and 2(t%4)+1).
 */
#include "test.h"
#include "mmaref.h"

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Runs kernel "k" of text on one CTA of `threads` threads with two
 * buffers (in: nin bytes, out: nout bytes, 0xee-filled) and copies out
 * back; returns the launch's result, or -1 (with why) if it does not load. */
static int launch(ptxvm_device *d, const char *name, const char *text, const void *in, size_t nin, void *out,
		  size_t nout, unsigned threads, char *why, size_t nwhy)
{
	ptxvm_program *p = load_ptx(d, name, text, why, nwhy);
	if (!p)
		return -1;
	uint64_t din = 0, dout = 0;
	int r = -1;
	if (ptxvm_mem_alloc(d, nin ? nin : 1, &din) || ptxvm_mem_alloc(d, nout, &dout) ||
	    (nin && ptxvm_memcpy_htod(d, din, in, nin)) || ptxvm_memset_d8(d, dout, 0xee, nout)) {
		snprintf(why, nwhy, "%s: device memory: %s", name, ptxvm_device_message(d));
	} else {
		ptxvm_launch_config c = { { 1, 1, 1 }, { threads, 1, 1 }, 0, { 0, 0, 0 } };
		void *args[] = { &din, &dout };
		r = ptxvm_launch(d, ptxvm_kernel_find(p, "k"), &c, args, NULL);
		if (r)
			snprintf(why, nwhy, "%s: %s: %s", name, ptxvm_result_name((ptxvm_result)r),
				 ptxvm_device_message(d));
		else if (ptxvm_memcpy_dtoh(d, out, dout, nout))
			r = -1, snprintf(why, nwhy, "%s: copy back: %s", name, ptxvm_device_message(d));
	}
	if (din)
		ptxvm_mem_free(d, din);
	if (dout)
		ptxvm_mem_free(d, dout);
	ptxvm_program_unload(p);
	return r;
}

/* ---- ldmatrix, stmatrix, movmatrix ------------------------------------- */
/* Matrix k's row i lives in the 16-byte shared slot perm(8k + i). */
static unsigned perm(unsigned l) { return (l * 5 + 3) % 32; }
/* The 16-bit shared contents loaded by ldmatrix: distinct values. */
static uint16_t elem(unsigned i) { return (uint16_t)(i * 37 + 11); }
/* The register k of lane t before stmatrix / movmatrix: distinct halves. */
static uint32_t frag(unsigned k, unsigned t) { return (uint32_t)(k * 256 + t * 2) | (uint32_t)(k * 256 + t * 2 + 1) << 16; }

/* How each form reaches shared memory: the row address register, the
 * state-space words, and the PTX that makes the address from %r9 (the
 * shared-window offset). */
static const struct Addr {
	const char *name, *space, *reg, *make;
} addrs[] = {
	{ "shared32", ".shared", "%r9", "" },
	{ "generic64", "", "%rd5", "cvt.u64.u32 %rd5, %r9;\n\tcvta.shared.u64 %rd5, %rd5;\n" },
	{ "nospace32", "", "%r9", "" },
	{ "cta64", ".shared::cta", "%rd5", "cvt.u64.u32 %rd5, %r9;\n" },
};

/* The kernel: shared slots 0..31 get in's 512 bytes (ldmatrix) or the
 * sentinel (stmatrix); lane l's row address is slot perm(l). */
static void matrix_kernel(char *t, size_t n, bool st, unsigned nm, bool trans, const struct Addr *a)
{
	char regs[64] = "", stores[512] = "", inits[512] = "";
	size_t o = 0, so = 0, io = 0;
	for (unsigned k = 0; k < nm; k++) {
		o += (size_t)snprintf(regs + o, sizeof regs - o, "%s%%r%u", k ? ", " : "", 20 + k);
		so += (size_t)snprintf(stores + so, sizeof stores - so, "\tst.global.u32 [%%rd6+%u], %%r%u;\n", k * 128,
				       20 + k);
		/* frag(k, t) = (k*256 + 2t) | (k*256 + 2t + 1) << 16 */
		io += (size_t)snprintf(inits + io, sizeof inits - io,
				       "\tmad.lo.u32 %%r%u, %%r1, 0x20002, %u;\n", 20 + k, k * 256 | (k * 256 + 1) << 16);
	}
	char body[1024];
	if (st)
		snprintf(body, sizeof body,
			 "%s\tstmatrix.sync.aligned.m8n8.x%u%s%s.b16 [%s], {%s};\n\tbar.sync 0;\n"
			 "\tld.shared.v4.u32 {%%r2, %%r3, %%r4, %%r5}, [%%r7];\n"
			 "\tadd.s64 %%rd7, %%rd2, %%rd3;\n\tst.global.v4.u32 [%%rd7], {%%r2, %%r3, %%r4, %%r5};\n",
			 inits, nm, trans ? ".trans" : "", a->space, a->reg, regs);
	else
		snprintf(body, sizeof body, "\tldmatrix.sync.aligned.m8n8.x%u%s%s.b16 {%s}, [%s];\n%s", nm,
			 trans ? ".trans" : "", a->space, regs, a->reg, stores);
	snprintf(t, n, HDR
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 "\t.reg .b32 %%r<32>;\n\t.reg .b64 %%rd<8>;\n"
		 "\t.shared .align 16 .b8 sm[512];\n"
		 "\tld.param.u64 %%rd1, [in];\n\tld.param.u64 %%rd2, [out];\n"
		 "\tmov.u32 %%r1, %%laneid;\n"
		 "\tmul.wide.u32 %%rd3, %%r1, 16;\n\tadd.s64 %%rd4, %%rd1, %%rd3;\n"
		 "\t%s\n"
		 "\tmov.u32 %%r6, sm;\n\tmad.lo.u32 %%r7, %%r1, 16, %%r6;\n"
		 "\tst.shared.v4.u32 [%%r7], {%%r2, %%r3, %%r4, %%r5};\n\tbar.sync 0;\n"
		 "\tmad.lo.u32 %%r8, %%r1, 5, 3;\n\tand.b32 %%r8, %%r8, 31;\n\tmad.lo.u32 %%r9, %%r8, 16, %%r6;\n"
		 "%s"
		 "\tmul.wide.u32 %%rd6, %%r1, 4;\n\tadd.s64 %%rd6, %%rd2, %%rd6;\n"
		 "%s\tret;\n}\n",
		 st ? "mov.u32 %r2, 0xeeeeeeee;\n\tmov.u32 %r3, %r2;\n\tmov.u32 %r4, %r2;\n\tmov.u32 %r5, %r2;"
		    : "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];",
		 a->make, body);
}

static void test_ldst(ptxvm_device *d)
{
	uint16_t in[256];
	for (unsigned i = 0; i < 256; i++)
		in[i] = elem(i);
	int cases = 0, bad = 0;
	for (int st = 0; st < 2; st++)
		for (unsigned nm = 1; nm <= 4; nm *= 2)
			for (int trans = 0; trans < 2; trans++)
				for (size_t ai = 0; ai < sizeof addrs / sizeof *addrs; ai++) {
					char text[4096], why[1024], name[96];
					snprintf(name, sizeof name, "%s.x%u%s.%s", st ? "stmatrix" : "ldmatrix", nm,
						 trans ? ".trans" : "", addrs[ai].name);
					matrix_kernel(text, sizeof text, st, nm, trans, &addrs[ai]);
					uint32_t got[128], want[128];
					uint16_t *w16 = (uint16_t *)want;
					memset(want, 0xee, sizeof want);
					/* M[k][i][j]: matrix k as the figure places it */
					uint16_t M[4][8][8];
					for (unsigned k = 0; k < nm; k++)
						for (unsigned i = 0; i < 8; i++)
							for (unsigned j = 0; j < 8; j++)
								M[k][i][j] = in[perm(8 * k + i) * 8 + j];
					for (unsigned k = 0; k < nm; k++)
						for (unsigned t = 0; t < 32; t++)
							for (unsigned h = 0; h < 2; h++) {
								unsigned r = t / 4, c = 2 * (t % 4) + h;
								if (trans) {     /* the fragment of the transpose */
									unsigned x = r;
									r = c, c = x;
								}
								if (st)  /* stored: row r of matrix k at slot perm(8k+r) */
									w16[perm(8 * k + r) * 8 + c] =
										(uint16_t)(frag(k, t) >> 16 * h);
								else
									w16[(k * 32 + t) * 2 + h] = M[k][r][c];
							}
					cases++;
					int r = launch(d, name, text, in, sizeof in, got, st ? 512 : nm * 128, 32, why,
						       sizeof why);
					if (r) {
						fail("mma: %s", why);
						bad++;
						continue;
					}
					for (unsigned i = 0; i < (st ? 128 : nm * 32); i++)
						if (got[i] != want[i]) {
							fail("mma: %s: word %u is 0x%08x, expected 0x%08x", name, i, got[i],
							     want[i]);
							bad++;
							break;
						}
				}
	if (!bad)
		passed++;
	if (verbose)
		printf("mma: %d ldmatrix/stmatrix forms\n", cases);
}

/* stmatrix.x1 with lanes 0 and 1 giving row 0's address: row 0 (lanes 0-3)
 * stays there, row 1 (lanes 4-7) is lost, as on an H200; row 1's own slot
 * keeps its sentinel. */
static void test_stmatrix_same_row(ptxvm_device *d)
{
	static const char text[] = HDR
		".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<8>;\n\t.reg .pred %p<2>;\n"
		"\t.shared .align 16 .b8 sm[128];\n"
		"\tld.param.u64 %rd2, [out];\n\tmov.u32 %r1, %laneid;\n\tmov.u32 %r6, sm;\n"
		"\tmad.lo.u32 %r7, %r1, 4, %r6;\n\tst.shared.u32 [%r7], 0xeeeeeeee;\n\tbar.sync 0;\n"
		"\tmad.lo.u32 %r3, %r1, 0x20002, 0x10000;\n"
		"\tsetp.eq.u32 %p1, %r1, 1;\n\tselp.u32 %r8, 0, %r1, %p1;\n\tmad.lo.u32 %r9, %r8, 16, %r6;\n"
		"\tstmatrix.sync.aligned.m8n8.x1.shared.b16 [%r9], {%r3};\n\tbar.sync 0;\n"
		"\tld.shared.u32 %r4, [%r7];\n"
		"\tmul.wide.u32 %rd6, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd6;\n\tst.global.u32 [%rd6], %r4;\n"
		"\tret;\n}\n";
	uint32_t got[32], in[1] = { 0 };
	char why[1024];
	if (launch(d, "stmatrix same row", text, in, sizeof in, got, sizeof got, 32, why, sizeof why)) {
		fail("mma: %s", why);
		return;
	}
	for (unsigned w = 0; w < 32; w++) {
		uint32_t want = w >= 4 && w < 8 ? 0xeeeeeeeeu : frag(0, w);
		if (got[w] != want) {
			fail("mma: stmatrix rows at one address: word %u is 0x%08x, expected 0x%08x (row 0's)",
			     w, got[w], want);
			return;
		}
	}
	passed++;
}

static void test_movmatrix(ptxvm_device *d)
{
	const char *text = HDR
		".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %laneid;\n"
		"\tmad.lo.u32 %r2, %r1, 0x20002, 0x10000;\n"
		"\tmovmatrix.sync.aligned.m8n8.trans.b16 %r3, %r2;\n"
		"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd2, %rd1, %rd2;\n\tst.global.u32 [%rd2], %r3;\n"
		"\tret;\n}\n";
	uint16_t A[8][8];
	for (unsigned t = 0; t < 32; t++)
		for (unsigned h = 0; h < 2; h++)
			A[t / 4][2 * (t % 4) + h] = (uint16_t)(frag(0, t) >> 16 * h);
	uint32_t want[32], got[32];
	for (unsigned t = 0; t < 32; t++)      /* lane t holds D = A^T at row t/4, columns 2(t%4) + h */
		want[t] = A[2 * (t % 4)][t / 4] | (uint32_t)A[2 * (t % 4) + 1][t / 4] << 16;
	char why[1024];
	int r = launch(d, "movmatrix", text, NULL, 0, got, sizeof got, 32, why, sizeof why);
	if (r) {
		fail("mma: %s", why);
		return;
	}
	for (unsigned t = 0; t < 32; t++)
		if (got[t] != want[t]) {
			fail("mma: movmatrix: lane %u holds 0x%08x, expected 0x%08x", t, got[t], want[t]);
			return;
		}
	passed++;
}

/* Faults: each names its cause. */
static void test_faults(ptxvm_device *d)
{
	static const struct {
		const char *name, *make, *insn;
		unsigned threads;
		int code;
		const char *msg;
	} cases[] = {
		{ "partial warp", "mov.u32 %r2, sm;", "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r2];", 16,
		  PTXVM_ERROR_ILLEGAL_INSTRUCTION, "all 32 lanes" },
		{ "global row", "ld.param.u64 %rd2, [out];", "ldmatrix.sync.aligned.m8n8.x4.b16 {%r3, %r4, %r5, %r6}, [%rd2];",
		  32, PTXVM_ERROR_ILLEGAL_ADDRESS, "not in shared memory" },
		{ "misaligned row", "mov.u32 %r2, sm;\n\tadd.u32 %r2, %r2, 8;",
		  "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r2], {%r3};", 32, PTXVM_ERROR_MISALIGNED_ADDRESS,
		  "not aligned" },
		{ "rows past shared", "mov.u32 %r2, 0x40000;", "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r3, %r4}, [%r2];",
		  32, PTXVM_ERROR_ILLEGAL_ADDRESS, "" },
		/* wmma: 16-byte aligned runs (immaTensorCoreGemm's tiles), 8 does not */
		{ "wmma 16 bytes past 32", "mov.u32 %r2, sm;\n\tadd.u32 %r2, %r2, 31;\n\tand.b32 %r2, %r2, -32;\n\tadd.u32 %r2, %r2, 16;",
		  "wmma.load.a.sync.aligned.row.m16n16k16.shared.u8 {%r3, %r4}, [%r2], 16;", 32, 0, "" },
		{ "wmma 8 bytes past 32", "mov.u32 %r2, sm;\n\tadd.u32 %r2, %r2, 31;\n\tand.b32 %r2, %r2, -32;\n\tadd.u32 %r2, %r2, 8;",
		  "wmma.load.a.sync.aligned.row.m16n16k16.shared.u8 {%r3, %r4}, [%r2], 16;", 32,
		  PTXVM_ERROR_MISALIGNED_ADDRESS, "is not 16-byte aligned" },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[2048], why[1024] = "";
		uint32_t out[4];
		snprintf(text, sizeof text, HDR
			 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
			 "\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n\t.shared .align 16 .b8 sm[512];\n"
			 "\tmov.u32 %%r3, 0;\n\t%s\n\t%s\n\tret;\n}\n", cases[i].make, cases[i].insn);
		int r = launch(d, cases[i].name, text, NULL, 0, out, sizeof out, cases[i].threads, why, sizeof why);
		if (r != cases[i].code || !strstr(why, cases[i].msg)) {
			fail("mma: %s: expected %s (\"%s\"), got %d: %s", cases[i].name,
			     ptxvm_result_name((ptxvm_result)cases[i].code), cases[i].msg, r, r ? why : "success");
			bad++;
		}
	}
	if (!bad)
		passed++;
}

/* ---- mma.sync ---------------------------------------------------------- */
enum { E_F16, E_BF16, E_TF32, E_F32, E_F64, E_E4M3, E_E5M2, E_S8, E_U8, E_S4, E_U4, E_B1, E_S32 };
static const char *const ename[] = { "f16", "bf16", "tf32", "f32", "f64", "e4m3", "e5m2", "s8", "u8", "s4", "u4",
				     "b1", "s32" };
static const unsigned ebits[] = { 16, 16, 32, 32, 64, 8, 8, 8, 8, 4, 4, 1, 32 };

typedef struct Mf {
	unsigned m, n, k;
	int d, a, b, c;         /* E_* */
	bool acol, brow;        /* m8n8k4 .f16 layouts */
	bool satf, band;
} Mf;

static bool mf_float(int t) { return t <= E_E5M2; }
static bool mf_quad(const Mf *f) { return f->m == 8 && f->k == 4 && f->a == E_F16; }

/* Elements a lane holds of op (0 d, 1 a, 2 b, 3 c). */
static unsigned mf_elems(const Mf *f, int op)
{
	if (mf_quad(f))
		return op == 1 || op == 2 ? 4 : 8;
	return (op == 2 ? f->k : f->m) * (op == 1 ? f->k : f->n) / 32;
}

static int mf_type(const Mf *f, int op) { return op == 0 ? f->d : op == 1 ? f->a : op == 2 ? f->b : f->c; }

/* The manual's figures: register j of the lane, position p in it.  A: two
 * row halves (g, g+8) alternate by register, column blocks of 4 positions
 * per lane follow every two registers; B: blocks of rows by register;
 * C/D: pairs of columns, rows g and g+8. */
static void mf_place(const Mf *f, int op, unsigned lane, unsigned i, unsigned *row, unsigned *col, unsigned *q)
{
	unsigned g = lane >> 2, t = lane & 3;
	*q = 0;
	if (mf_quad(f)) {
		unsigned hi = lane < 16 ? 0 : 4;
		*q = (lane >> 2) & 3;
		if (op == 1)
			*row = f->acol ? i + hi : t + hi, *col = f->acol ? t : i;
		else if (op == 2)
			*row = f->brow ? t : i, *col = f->brow ? i + hi : t + hi;
		else if (mf_type(f, op) == E_F32)
			*row = (t & 1) + (i & 2) + hi, *col = (i & 4) + (t & 2) + (i & 1);
		else
			*row = t + hi, *col = i;
		return;
	}
	unsigned b = ebits[mf_type(f, op)], per = b >= 32 ? 1 : 32 / b, j = i / per, p = i % per;
	if (op == 1) {
		*row = g + ((j & 1) ? 8 : 0);
		*col = t * per + p + (j >> 1) * 4 * per;
	} else if (op == 2) {
		*row = t * per + p + j * 4 * per;
		*col = g;
	} else {
		*row = g + (i >= 2 ? 8 : 0);
		*col = t * 2 + (i & 1);
	}
}

/* Bits of the exactly representable value v in float type t. */
static uint64_t enc(int t, double v)
{
	if (t == E_F64) {
		uint64_t u;
		memcpy(&u, &v, 8);
		return u;
	}
	if (t == E_F32 || t == E_TF32) {
		float x = (float)v;
		uint32_t u;
		memcpy(&u, &x, 4);
		return u;
	}
	if (t == E_BF16) {
		float x = (float)v;
		uint32_t u;
		memcpy(&u, &x, 4);
		return u >> 16;
	}
	/* f16 (5 exponent bits, 10 fraction), e4m3 (4, 3), e5m2 (5, 2) */
	unsigned eb = t == E_E4M3 ? 4 : 5, fb = t == E_F16 ? 10 : t == E_E4M3 ? 3 : 2, bias = (1u << (eb - 1)) - 1;
	uint64_t s = v < 0 ? 1 : 0;
	double a = fabs(v);
	if (a == 0)
		return s << (eb + fb);
	int e;
	frexp(a, &e);           /* a = m * 2^e, m in [0.5, 1) */
	int be = e - 1 + (int)bias;
	uint64_t bits;
	if (be <= 0)            /* subnormal: a / 2^(1 - bias - fb) */
		bits = (uint64_t)ldexp(a, (int)fb + (int)bias - 1);
	else
		bits = (uint64_t)be << fb | ((uint64_t)ldexp(a, (int)fb - e + 1) & ((1ull << fb) - 1));
	return s << (eb + fb) | bits;
}

/* The value of f16 bits (the destination of an f16 accumulation). */
static double dec_f16(unsigned h)
{
	unsigned e = h >> 10 & 31, m = h & 1023;
	double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, (int)e - 25);
	return h & 0x8000 ? -v : v;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* Runs one form on one input set (kind 0: small values, 1: whole-range
 * integers, 2: the rounding case); false after reporting a failure. */
static bool mma_case(ptxvm_device *d, const Mf *f, int kind)
{
	unsigned M = f->m, N = f->n, K = f->k, nq = mf_quad(f) ? 4 : 1;
	static double A[4][16][256], B[4][256][8], C[4][16][8];
	bool fl = mf_float(f->a);
	for (unsigned q = 0; q < nq; q++) {
		for (unsigned i = 0; i < M; i++)
			for (unsigned k = 0; k < K; k++) {
				double v;
				if (kind == 2)
					v = 0.75 / 64;          /* 0.75 * 2^-6 */
				else if (fl)
					v = (double)((int)(rnd32() % 9) - 4);
				else if (f->a == E_B1)
					v = rnd32() & 1;
				else {
					unsigned b = ebits[f->a];
					int64_t r = rnd32() % (1u << b);
					v = (double)(f->a == E_S8 || f->a == E_S4 ? r - (1 << (b - 1)) : r);
				}
				A[q][i][k] = v;
			}
		for (unsigned k = 0; k < K; k++)
			for (unsigned j = 0; j < N; j++) {
				double v;
				if (kind == 2)
					v = 1.0 / 64;
				else if (fl)
					v = (double)((int)(rnd32() % 9) - 4);
				else if (f->b == E_B1)
					v = rnd32() & 1;
				else {
					unsigned b = ebits[f->b];
					int64_t r = rnd32() % (1u << b);
					v = (double)(f->b == E_S8 || f->b == E_S4 ? r - (1 << (b - 1)) : r);
				}
				B[q][k][j] = v;
			}
		for (unsigned i = 0; i < M; i++)
			for (unsigned j = 0; j < N; j++)
				C[q][i][j] = kind == 2 ? 4096 : kind == 1 ? (double)(int32_t)rnd32() : (double)((int)(rnd32() % 41) - 20);
	}
	/* the registers: operand op's register r of lane l at word (base + r) * 32 + l */
	unsigned nreg[4], base[4], tot = 0;
	for (int op = 0; op < 4; op++) {
		unsigned b = ebits[mf_type(f, op)];
		nreg[op] = mf_elems(f, op) * b / (b == 64 ? 64 : 32);
		base[op] = tot;
		tot += nreg[op];
	}
	static uint64_t in[40 * 32], out[8 * 32];
	memset(in, 0, sizeof in);
	for (int op = 1; op < 4; op++) {
		int t = mf_type(f, op);
		unsigned b = ebits[t], per = b >= 32 ? 1 : 32 / b;
		for (unsigned l = 0; l < 32; l++)
			for (unsigned i = 0; i < mf_elems(f, op); i++) {
				unsigned r, c, q;
				mf_place(f, op, l, i, &r, &c, &q);
				double v = op == 1 ? A[q][r][c] : op == 2 ? B[q][r][c] : C[q][r][c];
				uint64_t bits = mf_float(t) ? enc(t, v) : (uint64_t)(int64_t)v;
				if (b < 64)
					bits &= (1ull << b) - 1;
				in[(base[op] + i / per) * 32 + l] |= bits << (i % per) * b;
			}
	}
	/* the kernel */
	char text[8192], vec[4][512];
	size_t o = 0;
	int rt[4];
	for (int op = 0; op < 4; op++) {
		rt[op] = ebits[mf_type(f, op)] == 64;
		size_t v = 0;
		for (unsigned r = 0; r < nreg[op]; r++)
			v += (size_t)snprintf(vec[op] + v, sizeof vec[op] - v, "%s%%%s%u", r ? ", " : "",
					      rt[op] ? "d" : "r", base[op] + r);
	}
	char loads[4096] = "", stores[2048] = "";
	size_t lo = 0, so = 0;
	for (int op = 1; op < 4; op++)
		for (unsigned r = 0; r < nreg[op]; r++)
			lo += (size_t)snprintf(loads + lo, sizeof loads - lo, "\tld.global.%s %%%s%u, [%%rd3+%u];\n",
					       rt[op] ? "f64" : "b32", rt[op] ? "d" : "r", base[op] + r,
					       (base[op] + r) * 256);
	for (unsigned r = 0; r < nreg[0]; r++)
		so += (size_t)snprintf(stores + so, sizeof stores - so, "\tst.global.%s [%%rd4+%u], %%%s%u;\n",
				       rt[0] ? "f64" : "b32", r * 256, rt[0] ? "d" : "r", r);
	char name[128];
	int isint = !fl;
	snprintf(name, sizeof name, "mma.sync.aligned.m%un%uk%u.%s.%s%s.%s.%s.%s.%s%s%s", M, N, K,
		 mf_quad(f) ? (f->acol ? "col" : "row") : "row", mf_quad(f) ? (f->brow ? "row" : "col") : "col",
		 f->satf ? ".satfinite" : "", ename[f->d], ename[f->a], ename[f->b], ename[f->c],
		 f->a == E_B1 ? (f->band ? ".and" : ".xor") : "", f->a == E_B1 ? ".popc" : "");
	o = (size_t)snprintf(text, sizeof text, ".version 8.7\n.target sm_90\n.address_size 64\n"
			     ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
			     "\t.reg .b32 %%r<48>;\n\t.reg .f64 %%d<48>;\n\t.reg .b64 %%rd<8>;\n"
			     "\tld.param.u64 %%rd1, [in];\n\tld.param.u64 %%rd2, [out];\n"
			     "\tmov.u32 %%r47, %%laneid;\n\tmul.wide.u32 %%rd5, %%r47, 8;\n"
			     "\tadd.s64 %%rd3, %%rd1, %%rd5;\n\tadd.s64 %%rd4, %%rd2, %%rd5;\n%s"
			     "\t%s {%s}, {%s}, {%s}, {%s};\n%s\tret;\n}\n",
			     loads, name, vec[0], vec[1], vec[2], vec[3], stores);
	(void)o;
	(void)isint;
	char why[1024];
	int r = launch(d, name, text, in, tot * 256, out, nreg[0] * 256, 32, why, sizeof why);
	if (r) {
		fail("mma: %s (inputs %d): %s", name, kind, why);
		return false;
	}
	/* the reference: D = A*B + C, each element on its own */
	unsigned b = ebits[f->d], per = b >= 32 ? 1 : 32 / b;
	for (unsigned l = 0; l < 32; l++)
		for (unsigned i = 0; i < mf_elems(f, 0); i++) {
			unsigned row, col, q;
			mf_place(f, 0, l, i, &row, &col, &q);
			uint64_t word = out[(i / per) * 32 + l], got = b == 64 ? word : word >> (i % per) * b & ((1ull << b) - 1);
			uint64_t want;
			if (!fl) {
				int64_t acc = (int64_t)C[q][row][col];
				for (unsigned k = 0; k < K; k++) {
					int64_t x = (int64_t)A[q][row][k], y = (int64_t)B[q][k][col];
					acc += f->a != E_B1 ? x * y : f->band ? (x & y) : (x ^ y);
				}
				if (f->satf)
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				want = (uint32_t)acc;
				got &= 0xffffffffu;
			} else {
				double acc = C[q][row][col], p[256];
				for (unsigned k = 0; k < K; k++)
					if (f->d == E_F64)
						acc = fma(A[q][row][k], B[q][k][col], acc);
					else
						p[k] = A[q][row][k] * B[q][k][col];
				if (f->d != E_F64)
					acc = mmaref_sum(acc, p, K, f->a == E_E4M3 || f->a == E_E5M2);
				if (f->d == E_F64)
					want = enc(E_F64, acc);
				else if (f->d == E_F32)
					want = enc(E_F32, mmaref_f32(acc, f->a == E_E4M3 || f->a == E_E5M2));
				else {
					want = enc(E_F16, acc);         /* the cases keep f16 sums exact */
					if (dec_f16((unsigned)want) != acc) {
						fail("mma: %s: the test's f16 sum %g is not exact", name, acc);
						return false;
					}
				}
				if (f->d != E_F64)
					got &= f->d == E_F16 ? 0xffffu : 0xffffffffu;
			}
			if (got != want) {
				fail("mma: %s (inputs %d): lane %u element %u (D[%u][%u] of product %u) is 0x%llx, "
				     "expected 0x%llx", name, kind, l, i, row, col, q, (unsigned long long)got,
				     (unsigned long long)want);
				return false;
			}
		}
	return true;
}

static void test_mma_sync(ptxvm_device *d)
{
	Mf forms[160];
	unsigned n = 0;
	for (int ac = 0; ac < 2; ac++)
		for (int br = 0; br < 2; br++) {
			static const int dc[3][2] = { { E_F16, E_F16 }, { E_F32, E_F16 }, { E_F32, E_F32 } };
			for (int x = 0; x < 3; x++)
				forms[n++] = (Mf){ 8, 8, 4, dc[x][0], E_F16, E_F16, dc[x][1], ac, br, 0, 0 };
		}
	for (unsigned k = 8; k <= 16; k += 8) {
		forms[n++] = (Mf){ 16, 8, k, E_F16, E_F16, E_F16, E_F16, 0, 0, 0, 0 };
		forms[n++] = (Mf){ 16, 8, k, E_F32, E_F16, E_F16, E_F32, 0, 0, 0, 0 };
		forms[n++] = (Mf){ 16, 8, k, E_F32, E_BF16, E_BF16, E_F32, 0, 0, 0, 0 };
		forms[n++] = (Mf){ 16, 8, k / 2, E_F32, E_TF32, E_TF32, E_F32, 0, 0, 0, 0 };
	}
	for (int a = E_E4M3; a <= E_E5M2; a++)
		for (int b = E_E4M3; b <= E_E5M2; b++)
			forms[n++] = (Mf){ 16, 8, 32, E_F32, a, b, E_F32, 0, 0, 0, 0 };
	forms[n++] = (Mf){ 8, 8, 4, E_F64, E_F64, E_F64, E_F64, 0, 0, 0, 0 };
	for (unsigned k = 4; k <= 16; k *= 2)
		forms[n++] = (Mf){ 16, 8, k, E_F64, E_F64, E_F64, E_F64, 0, 0, 0, 0 };
	static const unsigned shp[2][3][3] = { { { 8, 8, 16 }, { 16, 8, 16 }, { 16, 8, 32 } },
					       { { 8, 8, 32 }, { 16, 8, 32 }, { 16, 8, 64 } } };
	for (int w = 0; w < 2; w++)
		for (int s = 0; s < 3; s++)
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < 2; b++)
					for (int sat = 0; sat < 2; sat++)
						forms[n++] = (Mf){ shp[w][s][0], shp[w][s][1], shp[w][s][2], E_S32,
								   (w ? E_S4 : E_S8) + a, (w ? E_S4 : E_S8) + b, E_S32,
								   0, 0, sat, 0 };
	static const unsigned b1k[3][2] = { { 8, 128 }, { 16, 128 }, { 16, 256 } };
	for (int s = 0; s < 3; s++)
		for (int op = 0; op < 2; op++)
			forms[n++] = (Mf){ b1k[s][0], 8, b1k[s][1], E_S32, E_B1, E_B1, E_S32, 0, 0, 0, op };
	int bad = 0;
	for (unsigned i = 0; i < n; i++) {
		const Mf *f = &forms[i];
		bool ok = mma_case(d, f, 0);
		if (ok && !mf_float(f->a) && f->a != E_B1)
			ok = mma_case(d, f, 1);
		if (ok && mf_float(f->a) && f->d == E_F32)
			ok = mma_case(d, f, 2);
		bad += !ok;
	}
	if (!bad)
		passed++;
	if (verbose)
		printf("mma: %u mma.sync forms\n", n);
}

/* ---- wmma --------------------------------------------------------------- */
typedef struct Wf {
	unsigned m, n, k;
	int d, a, c;            /* E_*; B's type is A's */
	bool acol, bcol, ccol, dcol;
	bool stride, satf, band;
	int rnd;                /* f64: 0 none, 1 .rn, 2 .rz, 3 .rm, 4 .rp */
} Wf;

static const char *const rname[] = { "", ".rn", ".rz", ".rm", ".rp" };

/* Writes element (r, c) of a matrix of eb-bit elements at mem, layout
 * col-major or row-major with stride ld (elements). */
static void put(uint8_t *mem, bool col, unsigned ld, unsigned eb, unsigned r, unsigned c, uint64_t v)
{
	uint64_t bit = (uint64_t)(col ? c * ld + r : r * ld + c) * eb;
	if (eb < 8) {
		mem[bit / 8] = (uint8_t)((mem[bit / 8] & ~(((1u << eb) - 1) << bit % 8)) | (v & ((1u << eb) - 1)) << bit % 8);
		return;
	}
	for (unsigned i = 0; i < eb / 8; i++)
		mem[bit / 8 + i] = (uint8_t)(v >> 8 * i);
}

static uint64_t get_el(const uint8_t *mem, bool col, unsigned ld, unsigned eb, unsigned r, unsigned c)
{
	uint64_t bit = (uint64_t)(col ? c * ld + r : r * ld + c) * eb, v = 0;
	if (eb < 8)
		return mem[bit / 8] >> bit % 8 & ((1u << eb) - 1);
	for (unsigned i = 0; i < eb / 8; i++)
		v |= (uint64_t)mem[bit / 8 + i] << 8 * i;
	return v;
}

static double ref_fma(double a, double b, double c, int rnd)
{
	static const int modes[] = { FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
	int old = fegetround();
	fesetround(modes[rnd]);
	volatile double r = fma(a, b, c);
	fesetround(old);
	return r;
}

/* kind: 0 small values, 1 whole-range integers, 2 the rounding case, 3
 * random f64 (every rounding of the fma chain shows) */
static bool wmma_case(ptxvm_device *d, const Wf *f, int kind)
{
	unsigned M = f->m, N = f->n, K = f->k, ea = ebits[f->a], ec = ebits[f->c], ed = ebits[f->d];
	unsigned pad = f->stride ? 256 : 0;     /* 32 bytes of bits more per row or column */
	unsigned lda = (f->acol ? M : K) + pad / ea, ldb = (f->bcol ? K : N) + pad / ea;
	unsigned ldc = (f->ccol ? M : N) + pad / ec, ldd = (f->dcol ? M : N) + pad / ed;
	static double A[32][128], B[128][32], C[32][32];
	bool fl = mf_float(f->a);
	for (unsigned i = 0; i < M; i++)
		for (unsigned k = 0; k < K; k++) {
			unsigned b = ea;
			int64_t r = b >= 32 ? 0 : rnd32() % (1u << b);
			A[i][k] = kind == 2 ? 0.75 / 64 : kind == 3 ? (double)rnd32() / 4294967296.0
				  : fl ? (double)((int)(rnd32() % 9) - 4)
				  : (double)(f->a == E_S8 || f->a == E_S4 ? r - (1 << (b - 1)) : r);
		}
	for (unsigned k = 0; k < K; k++)
		for (unsigned j = 0; j < N; j++) {
			unsigned b = ea;
			int64_t r = b >= 32 ? 0 : rnd32() % (1u << b);
			B[k][j] = kind == 2 ? 1.0 / 64 : kind == 3 ? (double)rnd32() / 4294967296.0 - 0.5
				  : fl ? (double)((int)(rnd32() % 9) - 4)
				  : (double)(f->a == E_S8 || f->a == E_S4 ? r - (1 << (b - 1)) : r);
		}
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++)
			C[i][j] = kind == 2 ? 4096 : kind == 1 ? (double)(int32_t)rnd32()
				  : kind == 3 ? (double)rnd32() / 65536.0 : (double)((int)(rnd32() % 41) - 20);
	enum { OA = 0, OB = 16384, OC = 32768, NIN = 49152, NOUT = 16384 };
	static uint8_t in[NIN], out[NOUT];
	memset(in, 0, sizeof in);
	for (unsigned i = 0; i < M; i++)
		for (unsigned k = 0; k < K; k++)
			put(in + OA, f->acol, lda, ea, i, k, fl ? enc(f->a, A[i][k]) : (uint64_t)(int64_t)A[i][k]);
	for (unsigned k = 0; k < K; k++)
		for (unsigned j = 0; j < N; j++)
			put(in + OB, f->bcol, ldb, ea, k, j, fl ? enc(f->a, B[k][j]) : (uint64_t)(int64_t)B[k][j]);
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++)
			put(in + OC, f->ccol, ldc, ec, i, j, mf_float(f->c) ? enc(f->c, C[i][j]) : (uint64_t)(int64_t)C[i][j]);
	/* fragments: register counts as the manual gives them */
	Mf mf = { M, N, K, f->d, f->a, f->a, f->c, 0, 0, 0, 0 };
	unsigned nreg[4];
	for (int op = 0; op < 4; op++) {
		unsigned b = ebits[mf_type(&mf, op)], rows = op == 2 ? K : M, cols = op == 1 ? K : N;
		nreg[op] = (op == 1 || op == 2) && mf_type(&mf, op) == E_F16 ? 8 : rows * cols / 32 * b / (b == 64 ? 64 : 32);
	}
	char vec[4][256];
	unsigned base = 0;
	for (int op = 0; op < 4; op++) {
		size_t v = 0;
		bool w64 = ebits[mf_type(&mf, op)] == 64;
		for (unsigned r = 0; r < nreg[op]; r++)
			v += (size_t)snprintf(vec[op] + v, sizeof vec[op] - v, "%s%%%s%u", r ? ", " : "", w64 ? "d" : "r",
					      base + r);
		base += nreg[op];
	}
	char sh[16], ty[64], sa[16] = "", sb[16] = "", sc[16] = "", sd[16] = "";
	snprintf(sh, sizeof sh, "m%un%uk%u", M, N, K);
	if (f->a == E_F16)
		snprintf(ty, sizeof ty, ".%s.%s", ename[f->d], ename[f->c]);
	else if (f->a == E_B1)
		snprintf(ty, sizeof ty, ".s32.b1.b1.s32%s.popc", f->band ? ".and" : ".xor");
	else
		snprintf(ty, sizeof ty, "%s.%s.%s.%s.%s%s", rname[f->rnd], ename[f->d], ename[f->a], ename[f->a],
			 ename[f->c], f->satf ? ".satfinite" : "");
	if (f->stride) {
		snprintf(sa, sizeof sa, ", %u", lda);
		snprintf(sb, sizeof sb, ", %u", ldb);
		snprintf(sc, sizeof sc, ", %u", ldc);
		snprintf(sd, sizeof sd, ", %u", ldd);
	}
	const char *lay[2] = { "row", "col" };
	char text[8192], name[160];
	snprintf(name, sizeof name, "wmma.%s.%s.%s%s.c%s.d%s%s", sh, lay[f->acol], lay[f->bcol], ty, lay[f->ccol],
		 lay[f->dcol], f->stride ? ".stride" : "");
	snprintf(text, sizeof text, ".version 8.7\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 "\t.reg .b32 %%r<64>;\n\t.reg .f64 %%d<64>;\n\t.reg .b64 %%rd<8>;\n"
		 "\tld.param.u64 %%rd1, [in];\n\tld.param.u64 %%rd2, [out];\n"
		 "\twmma.load.a.sync.aligned.%s.%s.global.%s {%s}, [%%rd1+%u]%s;\n"
		 "\twmma.load.b.sync.aligned.%s.%s.global.%s {%s}, [%%rd1+%u]%s;\n"
		 "\twmma.load.c.sync.aligned.%s.%s.global.%s {%s}, [%%rd1+%u]%s;\n"
		 "\twmma.mma.sync.aligned.%s.%s.%s%s {%s}, {%s}, {%s}, {%s};\n"
		 "\twmma.store.d.sync.aligned.%s.%s.global.%s [%%rd2], {%s}%s;\n\tret;\n}\n",
		 lay[f->acol], sh, ename[f->a], vec[1], OA, sa, lay[f->bcol], sh, ename[f->a], vec[2], OB, sb,
		 lay[f->ccol], sh, ename[f->c], vec[3], OC, sc, lay[f->acol], lay[f->bcol], sh, ty, vec[0], vec[1],
		 vec[2], vec[3], lay[f->dcol], sh, ename[f->d], vec[0], sd);
	char why[1024];
	int r = launch(d, name, text, in, sizeof in, out, sizeof out, 32, why, sizeof why);
	if (r) {
		fail("mma: %s (inputs %d): %s", name, kind, why);
		return false;
	}
	static uint8_t want[NOUT];
	memset(want, 0xee, sizeof want);
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++) {
			uint64_t w;
			if (!fl) {
				int64_t acc = (int64_t)C[i][j];
				for (unsigned k = 0; k < K; k++) {
					int64_t x = (int64_t)A[i][k], y = (int64_t)B[k][j];
					acc += f->a != E_B1 ? x * y : f->band ? (x & y) : (x ^ y);
				}
				if (f->satf)
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				w = (uint32_t)acc;
			} else if (f->d == E_F64) {
				double acc = C[i][j];
				for (unsigned k = 0; k < K; k++)
					acc = ref_fma(A[i][k], B[k][j], acc, f->rnd);
				w = enc(E_F64, acc);
			} else {
				double p[128];
				for (unsigned k = 0; k < K; k++)
					p[k] = A[i][k] * B[k][j];
				double acc = mmaref_sum(C[i][j], p, K, false);         /* wmma has no .e4m3, .e5m2 */
				w = f->d == E_F32 ? enc(E_F32, mmaref_f32(acc, false)) : enc(E_F16, acc);
			}
			put(want, f->dcol, ldd, ed, i, j, w);
		}
	size_t span = (size_t)(f->dcol ? N : M) * ldd * ed / 8;
	for (size_t i = 0; i < span; i++)
		if (out[i] != want[i]) {
			unsigned rr = 0, cc = 0;
			for (unsigned i2 = 0; i2 < M; i2++)
				for (unsigned j2 = 0; j2 < N; j2++)
					if ((uint64_t)(f->dcol ? j2 * ldd + i2 : i2 * ldd + j2) * ed / 8 <= i)
						rr = i2, cc = j2;
			fail("mma: %s (inputs %d): byte %zu (near D[%u][%u]) is 0x%02x, expected 0x%02x; D[%u][%u] = 0x%llx",
			     name, kind, i, rr, cc, out[i], want[i], rr, cc,
			     (unsigned long long)get_el(out, f->dcol, ldd, ed, rr, cc));
			return false;
		}
	return true;
}

static void test_wmma(ptxvm_device *d)
{
	static Wf forms[400];
	unsigned n = 0, v = 0;
	static const unsigned f3[3][3] = { { 16, 16, 16 }, { 8, 32, 16 }, { 32, 8, 16 } };
	/* layouts of A, B, C, D and the stride vary with a counter */
#define LAYS(f) ((f).acol = v & 1, (f).bcol = v >> 1 & 1, (f).ccol = v >> 2 & 1, (f).dcol = v >> 3 & 1, \
		 (f).stride = v >> 4 & 1, v += 7)
	for (int s = 0; s < 3; s++)
		for (int dt = 0; dt < 2; dt++)
			for (int ct = 0; ct < 2; ct++)
				for (int l = 0; l < 4; l++) {
					Wf f = { .m = f3[s][0], .n = f3[s][1], .k = f3[s][2], .d = dt ? E_F32 : E_F16, .a = E_F16, .c = ct ? E_F32 : E_F16 };
					LAYS(f);
					f.acol = l & 1, f.bcol = l >> 1;
					forms[n++] = f;
				}
	for (int s = 0; s < 3; s++)
		for (int l = 0; l < 4; l++) {
			Wf f = { .m = f3[s][0], .n = f3[s][1], .k = f3[s][2], .d = E_F32, .a = E_BF16, .c = E_F32 };
			LAYS(f);
			f.acol = l & 1, f.bcol = l >> 1;
			forms[n++] = f;
		}
	for (int l = 0; l < 4; l++) {
		Wf f = { .m = 16, .n = 16, .k = 8, .d = E_F32, .a = E_TF32, .c = E_F32 };
		LAYS(f);
		f.acol = l & 1, f.bcol = l >> 1;
		forms[n++] = f;
	}
	for (int s = 0; s < 3; s++)
		for (int t = E_S8; t <= E_U8; t++)
			for (int l = 0; l < 4; l++)
				for (int sat = 0; sat < 2; sat++) {
					Wf f = { .m = f3[s][0], .n = f3[s][1], .k = f3[s][2], .d = E_S32, .a = t, .c = E_S32 };
					LAYS(f);
					f.acol = l & 1, f.bcol = l >> 1, f.satf = sat;
					forms[n++] = f;
				}
	for (int t = E_S4; t <= E_U4; t++)
		for (int sat = 0; sat < 2; sat++) {
			Wf f = { .m = 8, .n = 8, .k = 32, .d = E_S32, .a = t, .c = E_S32 };
			LAYS(f);
			f.acol = 0, f.bcol = 1, f.satf = sat;
			forms[n++] = f;
		}
	for (int op = 0; op < 2; op++) {
		Wf f = { .m = 8, .n = 8, .k = 128, .d = E_S32, .a = E_B1, .c = E_S32 };
		LAYS(f);
		f.acol = 0, f.bcol = 1, f.band = op;
		forms[n++] = f;
	}
	for (int l = 0; l < 4; l++)
		for (int rn = 0; rn < 5; rn++) {
			Wf f = { .m = 8, .n = 8, .k = 4, .d = E_F64, .a = E_F64, .c = E_F64 };
			LAYS(f);
			f.acol = l & 1, f.bcol = l >> 1, f.rnd = rn;
			forms[n++] = f;
		}
#undef LAYS
	int bad = 0;
	for (unsigned i = 0; i < n; i++) {
		const Wf *f = &forms[i];
		bool ok = wmma_case(d, f, 0);
		if (ok && !mf_float(f->a) && f->a != E_B1)
			ok = wmma_case(d, f, 1);
		if (ok && mf_float(f->a) && f->d == E_F32)
			ok = wmma_case(d, f, 2);
		if (ok && f->d == E_F64)
			ok = wmma_case(d, f, 3);
		bad += !ok;
	}
	if (!bad)
		passed++;
	if (verbose)
		printf("mma: %u wmma forms\n", n);
}

void test_mma(const char *root)
{
	(void)root;
	ptxvm_device *d = ptxvm_device_create(NULL);
	if (!d) {
		fail("mma: ptxvm_device_create failed");
		return;
	}
	test_ldst(d);
	test_stmatrix_same_row(d);
	test_movmatrix(d);
	test_faults(d);
	test_mma_sync(d);
	test_wmma(d);
	ptxvm_device_destroy(d);
}
