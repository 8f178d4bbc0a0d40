/* t_mmasp.c: mma.sp and mma.sp::ordered_metadata, every shape x type sm_90
 * has, against a reference written here from the PTX ISA manual's text on
 * sparse matrix storage and the sparse fragments:
 *
 *   - A (16 x K) is made structured sparse: in each chunk of 4 elements two
 *     are kept (.f16, .bf16, .s8, .u8, .e4m3, .e5m2), of 2 one (.tf32), of 8
 *     two pairs (.s4, .u4); the other elements are "pruned" and never given
 *     to the instruction;
 *   - lane l's A registers hold the kept elements of its column range
 *     [firstcol, firstcol + 2e) (e elements to a register), row g for even
 *     registers and g + 8 for odd ones, firstcol = 2e*t, + 8e for the
 *     second pair of registers;
 *   - the metadata: a chunk's two 2-bit indices (the index of the first
 *     kept element in the low bits; one 4-bit 0b0100 / 0b1110 for .tf32;
 *     pair indices for .s4/.u4) form nibble j of the row; nibbles 0..3 of
 *     row g lie in bits 0-15 of lane 4g + sel*n, those of row g+8 in bits
 *     16-31, nibbles 4..7 in the next lane and so on (n lanes per row: 1,
 *     2 or 4);
 *   - B, C and D as for mma.sync.
 *
 * mma.sp's indices come in either order (plain .sp); ::ordered_metadata's
 * in increasing order.  The lanes the selector does not name hold garbage
 * metadata.  Inputs: small values (exact in any order), whole-range
 * integers (wrapping, .satfinite), an infinity in B where A is pruned
 * (it must not reach D: the pruned elements take no part), and products
 * too small to move c = 4096 one at a time but not together (the single
 * rounding of docs/FLOAT.md).
 */
#include "test.h"
#include "mmaref.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F16, BF16, TF32, F32, E4M3, E5M2, S8, U8, S4, U4, S32 };
static const char *const tname[] = { "f16", "bf16", "tf32", "f32", "e4m3", "e5m2", "s8", "u8", "s4", "u4", "s32" };
static const unsigned tbits[] = { 16, 16, 32, 32, 8, 8, 8, 8, 4, 4, 32 };

typedef struct Sf {
	unsigned k;
	int d, a, b, c;
	bool satf, ordered;
} Sf;

static bool isfloat(int t) { return t <= E5M2; }

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* Bits of v in float type t: small integers, infinity, and the exactly
 * representable fractions of the rounding case. */
static uint32_t fenc(int t, double v)
{
	float x = (float)v;
	uint32_t u;
	memcpy(&u, &x, 4);
	switch (t) {
	case F32: case TF32: return u;
	case BF16: return u >> 16;
	default: break;
	}
	/* f16 (5, 10), e4m3 (4, 3; no infinity: the largest finite), e5m2 (5, 2) */
	unsigned eb = t == E4M3 ? 4 : 5, fb = t == F16 ? 10 : t == E4M3 ? 3 : 2, bias = (1u << (eb - 1)) - 1;
	uint32_t s = v < 0 ? 1u << (eb + fb) : 0;
	double a = fabs(v);
	if (isinf(a))
		return s | (t == E4M3 ? 0x7e : ((1u << eb) - 1) << fb);
	if (a == 0)
		return s;
	int e;
	frexp(a, &e);           /* a = m * 2^e, m in [0.5, 1) */
	if (e - 1 + (int)bias <= 0)     /* subnormal: a / 2^(1 - bias - fb) */
		return s | (uint32_t)ldexp(a, (int)fb + (int)bias - 1);
	return s | (uint32_t)(e - 1 + (int)bias) << fb | ((uint32_t)ldexp(a, (int)fb - e + 1) & ((1u << fb) - 1));
}

/* One form on one input set (0 small, 1 whole-range integers, 2 infinity
 * in B's pruned rows, 3 the rounding case); false after reporting. */
static bool sp_case(ptxvm_device *d, const Sf *f, int kind)
{
	const unsigned M = 16, N = 8, K = f->k;
	static double A[16][256], B[256][8], C[16][8];
	static bool kept[16][256];
	unsigned eb = tbits[f->a], e = eb >= 32 ? 1 : 32 / eb;     /* A elements per register */
	/* chunks: width w, kept per chunk; index granule (1 element, 2 for s4/u4) */
	unsigned w = f->a == TF32 ? 2 : f->a == S4 || f->a == U4 ? 8 : 4, gran = f->a == S4 || f->a == U4 ? 2 : 1;
	unsigned nkeep = f->a == TF32 ? 1 : 2;
	/* the metadata nibble of chunk j of each row, and which positions it keeps */
	static uint32_t nib[16][64];
	static unsigned order[16][64][2];
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < K / w; j++) {
			unsigned p0, p1 = 0;    /* kept granules of the chunk (of 4), p0 < p1 */
			if (kind == 2 && j == 0) {      /* every row prunes column 2 (column 1 for .tf32) */
				p0 = 0, p1 = 1;
				nib[i][j] = 0x4;
			} else if (nkeep == 1) {
				p0 = rnd() % 2;
				nib[i][j] = p0 ? 0xe : 0x4;
			} else {
				do
					p0 = rnd() % 4, p1 = rnd() % 4;
				while (p0 >= p1);
				bool swap = !f->ordered && (rnd() & 1);
				/* the first kept element stored is the one the low index names */
				nib[i][j] = swap ? (p1 | p0 << 2) : (p0 | p1 << 2);
			}
			/* the granules in the order A's register stores them */
			order[i][j][0] = nkeep == 1 ? p0 : nib[i][j] & 3;
			order[i][j][1] = nib[i][j] >> 2 & 3;
			for (unsigned c = 0; c < w; c++) {
				unsigned gi = c / gran;
				bool k = nkeep == 1 ? c == p0 : gi == p0 || gi == p1;
				kept[i][j * w + c] = k;
			}
		}
	for (unsigned i = 0; i < M; i++)
		for (unsigned k = 0; k < K; k++) {
			double v = 0;
			if (kept[i][k]) {
				if (kind == 3)
					v = 0.75 / 64;          /* 0.75 * 2^-6 */
				else if (isfloat(f->a))
					v = (double)((int)(rnd() % 9) - 4);
				else if (kind == 1) {
					int64_t r = rnd() % (1u << eb);
					v = (double)(f->a == S8 || f->a == S4 ? r - (1 << (eb - 1)) : r);
				} else
					v = (double)(rnd() % 7) - (f->a == S8 || f->a == S4 ? 3 : 0);
			}
			A[i][k] = v;
		}
	for (unsigned k = 0; k < K; k++)
		for (unsigned j = 0; j < N; j++) {
			double v;
			unsigned bb = tbits[f->b];
			if (kind == 3)
				v = 1.0 / 64;
			else if (isfloat(f->b))
				v = (double)((int)(rnd() % 9) - 4);
			else if (kind == 1) {
				int64_t r = rnd() % (1u << bb);
				v = (double)(f->b == S8 || f->b == S4 ? r - (1 << (bb - 1)) : r);
			} else
				v = (double)(rnd() % 7) - (f->b == S8 || f->b == S4 ? 3 : 0);
			B[k][j] = v;
		}
	if (kind == 2)          /* an infinity in the row of B that every row of A prunes */
		for (unsigned j = 0; j < N; j++)
			B[nkeep == 1 ? 1 : 2][j] = INFINITY;
	for (unsigned i = 0; i < M; i++)
		for (unsigned j = 0; j < N; j++)
			C[i][j] = kind == 3 ? 4096 : kind == 1 ? (double)(int32_t)rnd() : (double)((int)(rnd() % 41) - 20);

	/* registers: D, A, B, C, then e; register r of lane l at word (base + r) * 32 + l */
	unsigned nreg[5], base[5], tot = 0;
	nreg[0] = tbits[f->d] == 16 ? 2 : 4;
	nreg[1] = M * K / 2 * eb / 32 / 32;
	nreg[2] = K * N * tbits[f->b] / 32 / 32;
	nreg[3] = tbits[f->c] == 16 ? 2 : 4;
	nreg[4] = 1;
	for (int op = 0; op < 5; op++)
		base[op] = tot, tot += nreg[op];
	static uint32_t in[24 * 32], out[4 * 32];
	memset(in, 0, sizeof in);
	for (unsigned l = 0; l < 32; l++) {
		unsigned g = l / 4, t = l % 4;
		/* A: register r holds the kept elements of row g + 8(r%2), columns
		 * [firstcol, firstcol + 2e), firstcol = 2e*t + 8e*(r/2) */
		for (unsigned r = 0; r < nreg[1]; r++) {
			unsigned row = g + 8 * (r % 2), first = 2 * e * t + 8 * e * (r / 2), p = 0;
			for (unsigned j = first / w; j < (first + 2 * e) / w; j++)
				for (unsigned o = 0; o < nkeep; o++)
					for (unsigned x = 0; x < gran; x++) {
						unsigned c = j * w + order[row][j][o] * gran + x;
						uint32_t bits = isfloat(f->a) ? fenc(f->a, A[row][c])
									       : (uint32_t)(int64_t)A[row][c];
						if (eb < 32)
							bits &= (1u << eb) - 1;
						in[(base[1] + r) * 32 + l] |= bits << p * eb;
						p++;
					}
			if (p != e) {
				fail("mma.sp: the test's A register %u of lane %u holds %u elements", r, l, p);
				return false;
			}
		}
		/* B: register r position p is row t*e' + p + 4e'*r, column g */
		unsigned be = tbits[f->b] >= 32 ? 1 : 32 / tbits[f->b];
		for (unsigned r = 0; r < nreg[2]; r++)
			for (unsigned p = 0; p < be; p++) {
				double v = B[t * be + p + 4 * be * r][g];
				uint32_t bits = isfloat(f->b) ? fenc(f->b, v) : (uint32_t)(int64_t)v;
				if (tbits[f->b] < 32)
					bits &= (1u << tbits[f->b]) - 1;
				in[(base[2] + r) * 32 + l] |= bits << p * tbits[f->b];
			}
		/* C: element i at row g + 8(i/2), column 2t + i%2 */
		for (unsigned i = 0; i < 4; i++) {
			double v = C[g + 8 * (i / 2)][2 * t + i % 2];
			uint32_t bits = f->c == F32 ? fenc(F32, v) : f->c == F16 ? fenc(F16, v) : (uint32_t)(int64_t)v;
			if (f->c == F16)
				in[(base[3] + i / 2) * 32 + l] |= bits << (i % 2) * 16;
			else
				in[(base[3] + i) * 32 + l] = bits;
		}
		in[base[4] * 32 + l] = rnd();   /* garbage where the selector does not look */
	}
	unsigned lanes = K / w / 4;             /* lanes of a quad a row's nibbles need */
	unsigned sel = rnd() % (4 / lanes);
	for (unsigned g = 0; g < 8; g++)
		for (unsigned q = 0; q < lanes; q++) {
			uint32_t v = 0;
			for (unsigned j = 0; j < 4; j++)
				v |= nib[g][q * 4 + j] << 4 * j | nib[g + 8][q * 4 + j] << (16 + 4 * j);
			in[base[4] * 32 + g * 4 + sel * lanes + q] = v;
		}
	/* the kernel */
	char name[160], vec[5][256], loads[2048] = "", stores[1024] = "", text[8192];
	for (int op = 0; op < 5; op++) {
		size_t o = 0;
		for (unsigned r = 0; r < nreg[op]; r++)
			o += (size_t)snprintf(vec[op] + o, sizeof vec[op] - o, "%s%%r%u", r ? ", " : "", base[op] + r);
	}
	size_t lo = 0, so = 0;
	for (unsigned r = nreg[0]; r < tot; r++)
		lo += (size_t)snprintf(loads + lo, sizeof loads - lo, "\tld.global.b32 %%r%u, [%%rd3+%u];\n", r, r * 128);
	for (unsigned r = 0; r < nreg[0]; r++)
		so += (size_t)snprintf(stores + so, sizeof stores - so, "\tst.global.b32 [%%rd4+%u], %%r%u;\n", r * 128, r);
	snprintf(name, sizeof name, "mma.%s.sync.aligned.m16n8k%u.row.col%s.%s.%s.%s.%s",
		 f->ordered ? "sp::ordered_metadata" : "sp", K, f->satf ? ".satfinite" : "", tname[f->d], tname[f->a],
		 tname[f->b], tname[f->c]);
	snprintf(text, sizeof text, ".version 8.5\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 "\t.reg .b32 %%r<32>;\n\t.reg .b64 %%rd<8>;\n"
		 "\tld.param.u64 %%rd1, [in];\n\tld.param.u64 %%rd2, [out];\n"
		 "\tmov.u32 %%r31, %%laneid;\n\tmul.wide.u32 %%rd5, %%r31, 4;\n"
		 "\tadd.s64 %%rd3, %%rd1, %%rd5;\n\tadd.s64 %%rd4, %%rd2, %%rd5;\n%s"
		 "\t%s {%s}, {%s}, {%s}, {%s}, %%r%u, %u;\n%s\tret;\n}\n",
		 loads, name, vec[0], vec[1], vec[2], vec[3], base[4], sel, stores);
	char why[1024];
	ptxvm_program *p = load_ptx(d, name, text, why, sizeof why);
	if (!p) {
		fail("mma.sp: %s: %s", name, why);
		return false;
	}
	uint64_t din = 0, dout = 0;
	ptxvm_launch_config cfg = { { 1, 1, 1 }, { 32, 1, 1 }, 0, { 0, 0, 0 } };
	void *args[] = { &din, &dout };
	int r = -1;
	if (!ptxvm_mem_alloc(d, tot * 128, &din) && !ptxvm_mem_alloc(d, nreg[0] * 128, &dout) &&
	    !ptxvm_memcpy_htod(d, din, in, tot * 128))
		r = ptxvm_launch(d, ptxvm_kernel_find(p, "k"), &cfg, args, NULL);
	if (!r)
		r = ptxvm_memcpy_dtoh(d, out, dout, nreg[0] * 128);
	if (r)
		fail("mma.sp: %s (inputs %d): launch: %s", name, kind, ptxvm_device_message(d));
	if (din)
		ptxvm_mem_free(d, din);
	if (dout)
		ptxvm_mem_free(d, dout);
	ptxvm_program_unload(p);
	if (r)
		return false;
	/* the reference: D = A*B + C over the kept elements, each on its own */
	for (unsigned l = 0; l < 32; l++)
		for (unsigned i = 0; i < 4; i++) {
			unsigned row = l / 4 + 8 * (i / 2), col = 2 * (l % 4) + i % 2;
			uint32_t got = f->d == F16 ? out[(i / 2) * 32 + l] >> (i % 2) * 16 & 0xffff : out[i * 32 + l], want;
			if (!isfloat(f->a)) {
				int64_t acc = (int64_t)C[row][col];
				for (unsigned k = 0; k < K; k++)
					if (kept[row][k])
						acc += (int64_t)A[row][k] * (int64_t)B[k][col];
				if (f->satf)
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				want = (uint32_t)acc;
			} else {
				double prod[256];
				unsigned n = 0;
				for (unsigned k = 0; k < K; k++)
					if (kept[row][k])
						prod[n++] = A[row][k] * B[k][col];
				bool fp8 = f->a == E4M3 || f->a == E5M2;
				double acc = mmaref_sum(C[row][col], prod, n, fp8);
				want = fenc(f->d, f->d == F32 ? mmaref_f32(acc, fp8) : acc);
			}
			if (got != want) {
				fail("mma.sp: %s (inputs %d, selector %u): D[%u][%u] (lane %u element %u) is 0x%x, expected 0x%x",
				     name, kind, sel, row, col, l, i, got, want);
				return false;
			}
		}
	return true;
}

/* ptxvm check agrees with ptxas on the forms' edges (verdicts of ptxas
 * 13.0 -arch=sm_90, recorded by hand; tests/isa-forms covers the rows). */
static void test_checks(ptxvm_device *d)
{
	static const struct {
		const char *insn;
		bool ok;
	} cases[] = {
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %r20, 3;", true },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %r20, 4;", false },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %r20, %r21;", false },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, 5, 0;", false },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %rd1, 0;", false },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %f1, 0;", true },
		{ "mma.sp.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %r20, 0;", false },
		{ "mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f0,%f1,%f2,%f3};", false },
		{ "mma.sync.sp.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %r20, 0;", true },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 {%r9,%r10}, {%r1,%r2}, {%r5,%r6}, {%f0,%f1,%f2,%f3}, %r20, 0;", false },
		{ "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f0,%f1,%f2,%f3}, %r20, 3;", true },
		{ "mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {%r9,%r10}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%r9,%r10}, %r20, 2;", false },
		{ "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f0,%f1,%f2,%f3}, %r20, 2;", false },
		{ "mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4}, %r20, 1;", false },
		{ "mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f0,%f1,%f2,%f3}, %r20, 1;", false },
		{ "mma.sp.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r9,%r10}, {%r1}, {%r5,%r6}, {%r9,%r10}, %r20, 0;", false },
		{ "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {0f00000000,0f00000000,0f00000000,0f00000000}, %r20, 0;", true },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[1024], why[1024];
		snprintf(text, sizeof text, ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
			 "\t.reg .b32 %%r<40>;\n\t.reg .f32 %%f<40>;\n\t.reg .b64 %%rd<4>;\n\t%s\n\tret;\n}\n",
			 cases[i].insn);
		ptxvm_program *p = load_ptx(d, "check", text, why, sizeof why);
		if (!p != !cases[i].ok) {
			fail("mma.sp: ptxas %s '%s'; ptxvm does not%s%s", cases[i].ok ? "accepts" : "rejects",
			     cases[i].insn, p ? "" : ": ", p ? "" : why);
			bad++;
		}
		if (p)
			ptxvm_program_unload(p);
	}
	if (!bad)
		passed++;
}

void test_mmasp(const char *root)
{
	(void)root;
	ptxvm_device *d = ptxvm_device_create(NULL);
	if (!d) {
		fail("mma.sp: ptxvm_device_create failed");
		return;
	}
	Sf forms[96];
	unsigned n = 0;
	for (int o = 0; o < 2; o++) {
		for (unsigned k = 16; k <= 32; k += 16) {
			forms[n++] = (Sf){ k, F16, F16, F16, F16, 0, o };
			forms[n++] = (Sf){ k, F32, F16, F16, F32, 0, o };
			forms[n++] = (Sf){ k, F32, BF16, BF16, F32, 0, o };
			forms[n++] = (Sf){ k / 2, F32, TF32, TF32, F32, 0, o };
		}
		for (int a = E4M3; a <= E5M2; a++)
			for (int b = E4M3; b <= E5M2; b++)
				forms[n++] = (Sf){ 64, F32, a, b, F32, 0, o };
		for (int w = 0; w < 2; w++)
			for (unsigned k = 32; k <= 64; k *= 2)
				for (int a = 0; a < 2; a++)
					for (int b = 0; b < 2; b++)
						for (int sat = 0; sat < 2; sat++) {
							int t0 = w ? S4 : S8;
							forms[n++] = (Sf){ w ? 2 * k : k, S32, t0 + a, t0 + b, S32, sat, o };
						}
	}
	int bad = 0;
	for (unsigned i = 0; i < n; i++) {
		const Sf *f = &forms[i];
		bool ok = true;
		for (int rep = 0; rep < 3 && ok; rep++)     /* different patterns and selectors */
			ok = sp_case(d, f, 0);
		if (ok && !isfloat(f->a))
			ok = sp_case(d, f, 1);
		if (ok && isfloat(f->a))
			ok = sp_case(d, f, 2);
		if (ok && isfloat(f->a) && f->d == F32)
			ok = sp_case(d, f, 3);
		bad += !ok;
	}
	if (!bad)
		passed++;
	if (verbose)
		printf("mma.sp: %u forms\n", n);
	test_checks(d);
	ptxvm_device_destroy(d);
}
