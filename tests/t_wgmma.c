/* t_wgmma.c: wgmma (sm_90a) against references written here.
 *
 *   shapes     every m64nNkK shape of every type combination sm_90a has
 *              (.f16/.bf16 k16, .tf32 k8, .e4m3/.e5m2 k32 into .f16 and
 *              .f32, .s8/.u8 k32 with and without .satfinite, .b1 k256)
 *              against the product of the matrices as the test lays them
 *              out, on one warpgroup of 128 threads
 *   layouts    A from registers or shared memory; each operand K-major or
 *              (16-bit types) MN-major, unswizzled with padded leading and
 *              stride offsets, or swizzled 32, 64 or 128 bytes, also from
 *              the second 32 bytes of a swizzled row, or from inside a
 *              swizzle pattern with the base offset; scale-d false,
 *              imm-scale -1; two warpgroups at once
 *   rounding   products too small to move D one at a time (docs/FLOAT.md)
 *   refusals   an incomplete warpgroup, a descriptor outside shared memory,
 *              the module on an sm_90 device
 *
 * The layouts here are the canonical ones of the manual's matrix
 * descriptor section, written from its description: core matrices of
 * 8 rows x 16 bytes, swizzle atoms of 8 rows x W bytes whose 16-byte
 * chunks are permuted by XOR with the row (bits 7.. of the byte address,
 * less the descriptor's base offset, which the manual sets to bits 7-9 of
 * a start inside the 1024-byte pattern),
 * the fragments of D and A from its figures for wgmma.
 */
#include "test.h"
#include "mmaref.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof *(a))

enum { T_F16, T_BF16, T_TF32, T_F32, T_E4M3, T_E5M2, T_S8, T_U8, T_B1, T_S32 };
static const char *const tname[] = { "f16", "bf16", "tf32", "f32", "e4m3", "e5m2", "s8", "u8", "b1", "s32" };
static const unsigned tbits[] = { 16, 16, 32, 32, 8, 8, 8, 8, 1, 32 };

static bool is_int(int t) { return t >= T_S8; }

/* The bits of small value v (exactly representable) in a float format of
 * e exponent and m mantissa bits; 0 is +0. */
static uint32_t minifloat(double v, unsigned e, unsigned m)
{
	if (v == 0)
		return 0;
	uint32_t sign = v < 0;
	int ex;
	double f = frexp(fabs(v), &ex);         /* v = f * 2^ex, f in [0.5, 1) */
	int bias = (1 << (e - 1)) - 1, be = ex - 1 + bias;
	uint32_t man = (uint32_t)((f * 2 - 1) * (1u << m));
	return sign << (e + m) | (uint32_t)be << m | man;
}

static uint32_t enc(int t, double v)
{
	switch (t) {
	case T_F16: return minifloat(v, 5, 10);
	case T_BF16: return minifloat(v, 8, 7);
	case T_TF32: case T_F32: return minifloat(v, 8, 23);
	case T_E4M3: return minifloat(v, 4, 3);
	case T_E5M2: return minifloat(v, 5, 2);
	default: return (uint32_t)(int32_t)v & (tbits[t] == 32 ? 0xffffffffu : (1u << tbits[t]) - 1);
	}
}

static double f32v(uint32_t b)
{
	float f;
	memcpy(&f, &b, 4);
	return f;
}

static double f16v(uint32_t h)
{
	int e = (int)(h >> 10 & 31);
	double m = (double)(h & 1023);
	double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
	return h & 0x8000 ? -v : v;
}

/* ---- layouts ------------------------------------------------------------ */
/* An operand in shared memory: tile of R rows (M or N) x K elements. */
typedef struct Lay {
	int swz;                /* 0, or the swizzle width 32, 64, 128 */
	bool mn;                /* MN-major */
	unsigned koff;          /* swizzled K-major: the tile starts this far into its rows */
	unsigned bo;            /* swizzled: the tile starts bo rows of 128 bytes into its pattern */
	unsigned lbo, sbo;      /* bytes */
} Lay;

static unsigned swz_code(int w) { return w == 128 ? 1 : w == 64 ? 2 : w == 32 ? 3 : 0; }

/* Chooses offsets for a tile of R rows (M or N) by K elements of ebits
 * (K * ebits / 8: 32 bytes, 64 for the B of .sp): returns its size. */
static unsigned lay_plan(Lay *y, unsigned R, unsigned K, unsigned ebits)
{
	unsigned kbytes = K * ebits / 8;
	if (!y->mn && !y->swz) {                /* core matrices: 16-byte pieces of K LBO apart, 8-row groups SBO */
		y->lbo = 128 + 16;
		y->sbo = (kbytes / 16 - 1) * y->lbo + 128 + 48;
		return R / 8 * y->sbo;
	}
	if (!y->mn) {                           /* atoms of 8 rows x W bytes; K past W: the next atoms, LBO on */
		y->sbo = 8 * (unsigned)y->swz;
		y->lbo = kbytes > (unsigned)y->swz ? R / 8 * y->sbo : 16;
		return R / 8 * y->sbo * (kbytes > (unsigned)y->swz ? kbytes / (unsigned)y->swz : 1);
	}
	unsigned chunks = R * ebits / 8 / 16;   /* 16-byte chunks along MN */
	if (!y->swz) {                          /* core matrices: 8 K rows x 16 bytes */
		y->sbo = 128;                   /* between chunks */
		y->lbo = chunks * 128 + 32;     /* between groups of 8 K rows */
		return K / 8 * y->lbo;
	}
	unsigned per = (unsigned)y->swz / 16;   /* chunks a swizzled row holds */
	unsigned atoms = (chunks + per - 1) / per;
	y->lbo = 8 * (unsigned)y->swz;          /* between atoms along MN */
	y->sbo = atoms * y->lbo;                /* between groups of 8 K rows */
	return K / 8 * y->sbo;
}

/* Byte offset (from a 1024-aligned base) and bit of element (r, k). */
static unsigned lay_at(const Lay *y, unsigned start, unsigned ebits, unsigned r, unsigned k, unsigned *bit)
{
	unsigned off;
	*bit = 0;
	start += y->bo * 128;
	if (!y->mn) {
		unsigned kbit = k * ebits, kb = kbit / 8, w = y->swz ? (unsigned)y->swz : 16;
		*bit = kbit % 8;
		if (!y->swz)
			off = start + r / 8 * y->sbo + kb / 16 * y->lbo + r % 8 * 16 + kb % 16;
		else
			off = start + r / 8 * y->sbo + kb / w * y->lbo + r % 8 * w + y->koff + kb % w;
	} else {
		unsigned b = r * ebits / 8, chunk = b / 16;
		if (!y->swz) {
			off = start + chunk * y->sbo + k / 8 * y->lbo + k % 8 * 16 + b % 16;
		} else {
			unsigned per = (unsigned)y->swz / 16;
			off = start + chunk / per * y->lbo + k / 8 * y->sbo + k % 8 * (unsigned)y->swz +
			      chunk % per * 16 + b % 16;
		}
	}
	if (y->swz) {   /* the 16-byte chunk of the row XOR the row in the pattern */
		unsigned mask = (unsigned)y->swz / 16 - 1, row = off / 128 - y->bo;
		off = (off & ~(mask << 4)) | (((off >> 4) ^ row) & mask) << 4;
	}
	return off;
}

static uint64_t lay_desc(const Lay *y, unsigned start)
{
	unsigned s = start + y->bo * 128 + (y->mn ? 0 : y->koff);
	return (uint64_t)(s >> 4) | (uint64_t)(y->lbo >> 4) << 16 | (uint64_t)(y->sbo >> 4) << 32 |
	       (uint64_t)y->bo << 49 | (uint64_t)swz_code(y->swz) << 62;
}

/* ---- one case ------------------------------------------------------------ */
typedef struct Case {
	int d, a, b;            /* types */
	unsigned n, k;
	bool areg, satf, nod;   /* A in registers, .satfinite, scale-d false */
	int sa, sb;             /* imm-scale */
	Lay la, lb;
	int data;               /* 0 small values; 1 whole-range integers; 2 rounding */
	unsigned groups;        /* warpgroups */
	bool sp;                /* .sp: A 2:4 sparse, k the dense K */
	unsigned sel;           /* its sparsity selector */
} Case;

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t rnd32(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* A value of type t for the case's data. */
static double pick(const Case *c, int t, bool acc)
{
	if (c->data == 1 && is_int(t))
		return t == T_S32 ? (double)(int32_t)rnd32() : t == T_S8 ? (double)(int8_t)rnd32() :
		       t == T_U8 ? (double)(uint8_t)rnd32() : (double)(rnd32() & 1);
	if (t == T_B1)
		return rnd32() & 1;
	if (acc)
		return (double)(int)(rnd32() % 41) - 20;
	if (t == T_U8)
		return rnd32() % 6;
	return (double)(int)(rnd32() % 7) - 3;
}

static const char *sname(const Case *c)
{
	static char b[160];
	snprintf(b, sizeof b, "%sm64n%uk%u.%s.%s.%s%s%s a:%s%s/%d b:%s/%d%s%s", c->sp ? "sp." : "", c->n, c->k, tname[c->d], tname[c->a],
		 tname[c->b], c->satf ? ".satfinite" : "", c->nod ? " scale-d=0" : "", c->areg ? "regs" : "desc",
		 c->la.mn ? ".mn" : "", c->la.swz, c->lb.mn ? "mn" : "k", c->lb.swz, c->sa < 0 || c->sb < 0 ? " neg" : "",
		 c->groups > 1 ? " 2wg" : "");
	return b;
}

static bool run_case(ptxvm_device *dev, const Case *c)
{
	const unsigned M = 64, N = c->n, K = c->k, KA = c->sp ? K / 2 : K, G = c->groups, T = 128 * G;
	unsigned ea = tbits[c->a], eb = tbits[c->b];
	bool fl = !is_int(c->a), hd = c->d == T_F16;
	unsigned nd = hd ? N / 4 : N / 2;       /* D registers per thread */
	/* shared memory: [A tile][B tile], each 1024-aligned */
	Lay la = c->la, lb = c->lb;
	unsigned asz = c->areg ? 0 : (lay_plan(&la, M, KA, ea) + la.bo * 128 + 1023) / 1024 * 1024;
	unsigned bsz = (lay_plan(&lb, N, K, eb) + lb.bo * 128 + 1023) / 1024 * 1024, ssz = asz + bsz;
	/* the matrices (per warpgroup g: A and C differ, B is shared) */
	double *A = calloc((size_t)G * M * K, sizeof *A), *B = calloc((size_t)K * N, sizeof *B);
	double *C = calloc((size_t)G * M * N, sizeof *C);
	uint8_t *in = calloc(ssz + (size_t)T * 4 * (5 + nd), 1);
	uint32_t *ar = (uint32_t *)(in + ssz), *dr = ar + T * 4, *mr = dr + T * nd, *out = calloc((size_t)T * nd, 4);
	double *Ac = calloc((size_t)G * M * KA, sizeof *Ac);   /* A as stored: .sp's kept elements */
	/* .sp: 2-bit indices in units of 16 bits (8 for 8-bit types), two kept of
	 * each chunk of four units; nib[row][chunk] the chunk's two indices */
	unsigned unit = ea >= 16 ? 16 : 8, nchunk = K * ea / unit / 4;
	uint8_t *nib = calloc((size_t)G * M * nchunk + 1, 1);
	for (size_t i = 0; i < (size_t)K * N; i++)
		B[i] = pick(c, c->b, false);
	for (size_t i = 0; i < (size_t)G * M * K; i++)
		A[i] = pick(c, c->a, false);
	for (size_t i = 0; i < (size_t)G * M * N; i++)
		C[i] = pick(c, c->d, true);
	if (c->data == 2) {     /* C = 4096, products 0.75 * 2^-12 each: only their sum moves C */
		for (size_t i = 0; i < (size_t)K * N; i++)
			B[i] = 0.75;
		for (size_t i = 0; i < (size_t)G * M * K; i++)
			A[i] = ldexp(1, -12);
		for (size_t i = 0; i < (size_t)G * M * N; i++)
			C[i] = 4096;
	}
	for (unsigned r = 0; r < G * M; r++)
		for (unsigned k = 0; k < KA; k++)
			Ac[r * KA + k] = A[r * K + k];
	if (c->sp)              /* prune A: per chunk of four units keep two (a .tf32 element is two units) */
		for (unsigned r = 0; r < G * M; r++)
			for (unsigned ch = 0, kc = 0; ch < nchunk; ch++) {
				double *row = &A[(size_t)r * K];
				if (ea == 32) {         /* one of two elements: indices 0,1 or 2,3 */
					unsigned e = rnd32() & 1;
					row[2 * ch + !e] = 0;
					Ac[r * KA + kc++] = row[2 * ch + e];
					nib[r * nchunk + ch] = e ? 0xe : 0x4;
				} else {
					unsigned p0 = rnd32() % 4, p1;
					do
						p1 = rnd32() % 4;
					while (p1 == p0);
					if (p1 < p0)
						p1 ^= p0, p0 ^= p1, p1 ^= p0;
					for (unsigned x = 0; x < 4; x++)
						if (x != p0 && x != p1)
							row[4 * ch + x] = 0;
					Ac[r * KA + kc++] = row[4 * ch + p0];
					Ac[r * KA + kc++] = row[4 * ch + p1];
					nib[r * nchunk + ch] = (uint8_t)(p0 | p1 << 2);
				}
			}
	/* B in shared memory; A too (warpgroup 0's: with two warpgroups A is in registers) */
	for (unsigned j = 0; j < N; j++)
		for (unsigned k = 0; k < K; k++) {
			unsigned bit, off = lay_at(&lb, asz, eb, j, k, &bit);
			uint64_t v = enc(c->b, B[k * N + j]);
			for (unsigned x = 0; x < (eb + 7) / 8; x++)
				in[off + x] |= (uint8_t)(v << bit >> 8 * x);
		}
	if (!c->areg)
		for (unsigned i = 0; i < M; i++)
			for (unsigned k = 0; k < KA; k++) {
				unsigned bit, off = lay_at(&la, 0, ea, i, k, &bit);
				uint64_t v = enc(c->a, Ac[i * KA + k]);
				for (unsigned x = 0; x < (ea + 7) / 8; x++)
					in[off + x] |= (uint8_t)(v << bit >> 8 * x);
			}
	/* the fragments: thread t of warpgroup g, warp w = t/32 of it, lane l:
	 * D's element i at row 16w + l/4 + 8*((i/2)%2), column 8*(i/4) + 2*(l%4) + i%2;
	 * A's (e = 32/bits per register) at row 16w + l/4 + 8*((i/e)%2),
	 * column e*(l%4) + i%e + 4e*(i/(2e)) */
	unsigned de = hd ? 2 : 1, ae = 32 / ea;
	for (unsigned t = 0; t < T; t++) {
		unsigned g = t / 128, w = t % 128 / 32, l = t % 32;
		for (unsigned i = 0; i < N / 2; i++) {
			unsigned r = 16 * w + l / 4 + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
			dr[t * nd + i / de] |= enc(c->d, C[(g * M + r) * N + col]) << 16 * (i % de);
		}
		for (unsigned i = 0; i < KA / 2; i++) {
			unsigned r = 16 * w + l / 4 + 8 * (i / ae % 2), col = ae * (l % 4) + i % ae + 4 * ae * (i / (2 * ae));
			ar[t * 4 + i / ae] |= enc(c->a, Ac[(g * M + r) * KA + col]) << ea * (i % ae);
		}
		/* .sp's metadata (as mma.sp's figures, per warp): lane 4R + q, n lanes to a
		 * row, holds when q / n is the selector, for rows R and R + 8 of the warp
		 * (bits 0-15, 16-31), the nibbles of chunks 4(q % n).. 4(q % n) + 3;
		 * the other lanes' registers are ignored: noise */
		unsigned nl = nchunk / 4, q = l % 4;
		mr[t] = rnd32();
		if (c->sp && q / nl == c->sel) {
			mr[t] = 0;
			for (unsigned h = 0; h < 2; h++)
				for (unsigned x = 0; x < 4; x++)
					mr[t] |= (uint32_t)nib[(g * M + 16 * w + l / 4 + 8 * h) * nchunk + 4 * (q % nl) + x]
						 << (16 * h + 4 * x);
		}
	}
	/* the kernel */
	size_t cap = 64 * 1024 + (size_t)nd * 200;
	char *p = malloc(cap);
	size_t n = 0;
	bool mixed = (c->a == T_S8) != (c->b == T_S8) && is_int(c->a) && c->a != T_B1;
	n += (size_t)snprintf(p + n, cap - n,
			      ".version %s\n.target sm_90a\n.address_size 64\n"
			      ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
			      "\t.reg .b32 %%d<%u>;\n\t.reg .b32 %%a<4>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<12>;\n"
			      "\t.reg .pred %%p<2>;\n\t.shared .align 1024 .b8 sm[%u];\n"
			      "\tld.param.u64 %%rd0, [pin];\n\tld.param.u64 %%rd1, [pout];\n"
			      "\tmov.u32 %%r0, %%tid.x;\n\tmov.u32 %%r1, %%r0;\n"
			      "CP:\tsetp.ge.u32 %%p0, %%r1, %u;\n\t@%%p0 bra DONE;\n"
			      "\tmul.wide.u32 %%rd2, %%r1, 4;\n\tadd.u64 %%rd3, %%rd0, %%rd2;\n\tld.global.b32 %%r2, [%%rd3];\n"
			      "\tmov.u32 %%r3, sm;\n\tmul.lo.u32 %%r4, %%r1, 4;\n\tadd.u32 %%r3, %%r3, %%r4;\n"
			      "\tst.shared.b32 [%%r3], %%r2;\n\tadd.u32 %%r1, %%r1, %u;\n\tbra CP;\n"
			      "DONE:\tbar.sync 0;\n"
			      "\tmul.wide.u32 %%rd4, %%r0, %u;\n\tadd.u64 %%rd5, %%rd0, %u;\n\tadd.u64 %%rd5, %%rd5, %%rd4;\n",
			      mixed ? "8.4" : c->sp ? "8.2" : "8.0", nd, ssz, ssz / 4, T, 16, ssz);
	for (unsigned r = 0; r < 4; r++)
		n += (size_t)snprintf(p + n, cap - n, "\tld.global.b32 %%a%u, [%%rd5+%u];\n", r, 4 * r);
	n += (size_t)snprintf(p + n, cap - n, "\tmul.wide.u32 %%rd6, %%r0, %u;\n\tadd.u64 %%rd7, %%rd0, %u;\n"
			      "\tadd.u64 %%rd7, %%rd7, %%rd6;\n", 4 * nd, ssz + T * 16);
	for (unsigned r = 0; r < nd; r++)
		n += (size_t)snprintf(p + n, cap - n, "\tld.global.b32 %%d%u, [%%rd7+%u];\n", r, 4 * r);
	n += (size_t)snprintf(p + n, cap - n, "\tmul.wide.u32 %%rd6, %%r0, 4;\n\tadd.u64 %%rd7, %%rd0, %u;\n"
			      "\tadd.u64 %%rd7, %%rd7, %%rd6;\n\tld.global.b32 %%r6, [%%rd7];\n", ssz + T * 4 * (4 + nd));
	/* descriptors: the shared address of sm plus the layouts' offsets */
	n += (size_t)snprintf(p + n, cap - n,
			      "\tmov.u32 %%r5, sm;\n\tcvt.u64.u32 %%rd8, %%r5;\n\tshr.u64 %%rd8, %%rd8, 4;\n"
			      "\tadd.u64 %%rd9, %%rd8, %llu;\n\tadd.u64 %%rd10, %%rd8, %llu;\n"
			      "\tsetp.ne.u32 %%p1, %u, 0;\n\twgmma.fence.sync.aligned;\n"
			      "\twgmma.mma_async%s.sync.aligned.m64n%uk%u.%s.%s.%s%s%s {",
			      (unsigned long long)lay_desc(&la, 0), (unsigned long long)lay_desc(&lb, asz), !c->nod,
			      c->sp ? ".sp" : "", N, K,
			      tname[c->d], tname[c->a], tname[c->b], c->satf ? ".satfinite" : "",
			      c->a == T_B1 ? ".and.popc" : "");
	for (unsigned r = 0; r < nd; r++)
		n += (size_t)snprintf(p + n, cap - n, "%s%%d%u", r ? ", " : "", r);
	n += (size_t)snprintf(p + n, cap - n, "}, %s, %%rd10", c->areg ? "{%a0, %a1, %a2, %a3}" : "%rd9");
	if (c->sp)
		n += (size_t)snprintf(p + n, cap - n, ", %%r6, %u", c->sel);
	n += (size_t)snprintf(p + n, cap - n, ", %%p1");
	if (fl)
		n += (size_t)snprintf(p + n, cap - n, ", %d, %d", c->sa, c->sb);
	if (fl && ea == 16)
		n += c->areg ? (size_t)snprintf(p + n, cap - n, ", %d", lb.mn)
			     : (size_t)snprintf(p + n, cap - n, ", %d, %d", la.mn, lb.mn);
	n += (size_t)snprintf(p + n, cap - n, ";\n\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n"
			      "\tmul.wide.u32 %%rd6, %%r0, %u;\n\tadd.u64 %%rd11, %%rd1, %%rd6;\n", 4 * nd);
	for (unsigned r = 0; r < nd; r++)
		n += (size_t)snprintf(p + n, cap - n, "\tst.global.b32 [%%rd11+%u], %%d%u;\n", 4 * r, r);
	n += (size_t)snprintf(p + n, cap - n, "\tret;\n}\n");
	/* launch */
	bool ok = false;
	ptxvm_check_opts co = { .arch = "sm_90a" };
	ptxvm_module *m = ptxvm_module_load("wgmma", p, n, &co);
	ptxvm_program *pg = NULL;
	uint64_t din = 0, dout = 0;
	size_t nin = ssz + (size_t)T * 4 * (5 + nd);
	if (!m || ptxvm_module_errors(m)) {
		char *dg = ptxvm_module_diagnostics(m);
		fail("wgmma %s: does not check: %.600s", sname(c), dg ? dg : "");
		free(dg);
		goto out;
	}
	if (ptxvm_program_load(dev, m, &pg) || ptxvm_mem_alloc(dev, nin, &din) ||
	    ptxvm_mem_alloc(dev, (size_t)T * nd * 4, &dout) || ptxvm_memcpy_htod(dev, din, in, nin)) {
		fail("wgmma %s: %s", sname(c), ptxvm_device_message(dev));
		goto out;
	}
	ptxvm_launch_config cfg = { { 1, 1, 1 }, { T, 1, 1 }, 0, { 0, 0, 0 } };
	void *args[] = { &din, &dout };
	int r = ptxvm_launch(dev, ptxvm_kernel_find(pg, "k"), &cfg, args, NULL);
	if (r || ptxvm_memcpy_dtoh(dev, out, dout, (size_t)T * nd * 4)) {
		fail("wgmma %s: launch: %s", sname(c), ptxvm_device_message(dev));
		goto out;
	}
	/* compare with the reference product */
	ok = true;
	for (unsigned t = 0; t < T && ok; t++) {
		unsigned g = t / 128, w = t % 128 / 32, l = t % 32;
		for (unsigned i = 0; i < N / 2 && ok; i++) {
			unsigned row = 16 * w + l / 4 + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
			/* warpgroup 1 reads A from registers only; with A in shared
			 * memory both read warpgroup 0's */
			const double *Ar = &A[((c->areg ? g : 0) * M + row) * K];
			uint32_t got = out[t * nd + i / de] >> 16 * (i % de);
			if (hd)
				got &= 0xffff;
			if (!fl) {
				int64_t acc = c->nod ? 0 : (int64_t)C[(g * M + row) * N + col];
				for (unsigned k = 0; k < K; k++)
					acc += c->a == T_B1 ? ((int64_t)Ar[k] & (int64_t)B[k * N + col])
							    : (int64_t)Ar[k] * (int64_t)B[k * N + col];
				if (c->satf)
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				if ((uint32_t)acc != got) {
					fail("wgmma %s: D[%u][%u] (thread %u, element %u) = %d, expected %d", sname(c), row,
					     col, t, i, (int32_t)got, (int32_t)acc);
					ok = false;
				}
			} else {
				double prod[256];
				for (unsigned k = 0; k < K; k++)
					prod[k] = c->sa * Ar[k] * c->sb * B[k * N + col];
				bool fp8 = c->a == T_E4M3 || c->a == T_E5M2;
				double acc = mmaref_sum(c->nod ? 0 : C[(g * M + row) * N + col], prod, K, fp8);
				if (!hd)
					acc = mmaref_f32(acc, fp8);
				double v = hd ? f16v(got) : f32v(got);
				if (v != acc) {
					fail("wgmma %s: D[%u][%u] (thread %u, element %u) = %g, expected %g", sname(c), row,
					     col, t, i, v, acc);
					ok = false;
				}
			}
		}
	}
out:
	if (!ok && verbose)
		fprintf(stderr, "%s", p);
	if (din)
		ptxvm_mem_free(dev, din);
	if (dout)
		ptxvm_mem_free(dev, dout);
	if (pg)
		ptxvm_program_unload(pg);
	ptxvm_module_free(m);
	free(p), free(A), free(B), free(C), free(in), free(out), free(Ac), free(nib);
	return ok;
}

/* ---- the groups ----------------------------------------------------------- */
static const unsigned nf[] = { 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 144, 152,
			       160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 256 };
static const unsigned ni[] = { 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256 };

static Case base(int d, int a, int b, unsigned n)
{
	unsigned k = a == T_TF32 ? 8 : a == T_B1 ? 256 : tbits[a] == 8 ? 32 : 16;
	Case c = { d, a, b, n, k, false, false, false, 1, 1, { 0 }, { 0 }, 0, 1, false, 0 };
	c.la.swz = c.lb.swz = 128;
	return c;
}

static int run_all(ptxvm_device *dev, Case *cs, size_t n)
{
	int bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += !run_case(dev, &cs[i]);
	return bad;
}

/* Every shape of every type combination. */
static int test_shapes(ptxvm_device *dev, size_t *ncase)
{
	static const int fcomb[][3] = { { T_F16, T_F16, T_F16 }, { T_F32, T_F16, T_F16 }, { T_F32, T_BF16, T_BF16 },
					{ T_F32, T_TF32, T_TF32 } };
	Case cs[2048];
	size_t n = 0;
	for (size_t f = 0; f < NELEM(fcomb); f++)
		for (size_t i = 0; i < NELEM(nf); i++)
			cs[n++] = base(fcomb[f][0], fcomb[f][1], fcomb[f][2], nf[i]);
	for (int d = 0; d < 2; d++)
		for (int a = T_E4M3; a <= T_E5M2; a++)
			for (int b = T_E4M3; b <= T_E5M2; b++)
				for (size_t i = 0; i < NELEM(nf); i++)
					cs[n++] = base(d ? T_F32 : T_F16, a, b, nf[i]);
	for (int a = T_S8; a <= T_U8; a++)
		for (int b = T_S8; b <= T_U8; b++)
			for (size_t i = 0; i < NELEM(ni); i++) {
				cs[n] = base(T_S32, a, b, ni[i]);
				cs[n].data = 1;                 /* the whole range: wraps */
				cs[n].satf = i % 2;             /* and clamps */
				n++;
			}
	for (size_t i = 0; i < NELEM(ni); i++)
		cs[n++] = base(T_S32, T_B1, T_B1, ni[i]);
	*ncase += n;
	return run_all(dev, cs, n);
}

/* A from registers or shared memory, every layout of each operand. */
static int test_layouts(ptxvm_device *dev, size_t *ncase)
{
	static const int sw[] = { 0, 32, 64, 128 };
	static const int comb[][3] = { { T_F32, T_F16, T_F16 }, { T_F32, T_BF16, T_BF16 }, { T_F32, T_TF32, T_TF32 },
				       { T_F32, T_E4M3, T_E5M2 }, { T_S32, T_S8, T_U8 }, { T_S32, T_B1, T_B1 } };
	Case cs[1024];
	size_t n = 0;
	for (size_t t = 0; t < NELEM(comb); t++) {
		bool h = tbits[comb[t][1]] == 16;
		for (int mn = 0; mn < (h ? 4 : 1); mn++)
			for (int s = 0; s < 4; s++)
				for (int areg = 0; areg < 2; areg++) {
					if (areg && mn & 1)
						continue;
					Case c = base(comb[t][0], comb[t][1], comb[t][2], 24);
					c.areg = areg;
					c.la.swz = sw[s], c.lb.swz = sw[3 - s];
					c.la.mn = mn & 1, c.lb.mn = mn >> 1;
					cs[n++] = c;
					if (sw[s] >= 64 && !c.la.mn) {  /* the second 32 bytes of the rows */
						c.la.koff = 32;
						cs[n++] = c;
					}
				}
		Case c = base(comb[t][0], comb[t][1], comb[t][2], 16);
		c.nod = true;                                   /* scale-d false */
		cs[n++] = c;
		c.nod = false;
		c.groups = 2, c.areg = true;                    /* two warpgroups */
		cs[n++] = c;
		if (!is_int(comb[t][1])) {
			c.groups = 1, c.sa = -1;                /* imm-scale-a, -b */
			cs[n++] = c;
			c.sb = -1, c.sa = 1, c.areg = false;
			cs[n++] = c;
		}
	}
	Case c = base(T_F32, T_F16, T_F16, 64);                 /* B K-major, 64-byte swizzle, second half */
	c.lb.swz = 64, c.lb.koff = 32;
	cs[n++] = c;
	/* tiles that start inside their swizzle pattern, the base offset
	 * saying where: each width, K- and MN-major */
	static const int bw[3] = { 128, 64, 32 };
	for (int s = 0; s < 3; s++)
		for (int mn = 0; mn < 2; mn++) {
			c = base(T_F32, T_F16, T_F16, 16);
			c.la.swz = bw[s], c.lb.swz = bw[(s + 1) % 3];
			c.la.mn = mn, c.lb.mn = !mn;
			c.la.bo = 1 + (unsigned)s * 2, c.lb.bo = 7 - (unsigned)s;
			cs[n++] = c;
		}
	*ncase += n;
	return run_all(dev, cs, n);
}

/* .sp: every shape of .f32.f16.f16, every type combination at two shapes,
 * both selectors where there are two, A in registers and in shared memory,
 * B in each layout (64 bytes of K a row: past a 32-byte swizzle's width). */
static Case sparse(int d, int a, int b, unsigned n)
{
	Case c = base(d, a, b, n);
	c.sp = true, c.k *= 2;
	return c;
}

static int test_sparse(ptxvm_device *dev, size_t *ncase)
{
	static const int comb[][3] = { { T_F16, T_F16, T_F16 }, { T_F32, T_F16, T_F16 }, { T_F32, T_BF16, T_BF16 },
				       { T_F32, T_TF32, T_TF32 }, { T_F16, T_E4M3, T_E5M2 }, { T_F32, T_E5M2, T_E4M3 },
				       { T_F32, T_E4M3, T_E4M3 }, { T_S32, T_S8, T_S8 }, { T_S32, T_U8, T_S8 },
				       { T_S32, T_U8, T_U8 } };
	static const int sw[] = { 0, 32, 64, 128 };
	Case cs[512];
	size_t n = 0;
	for (size_t i = 0; i < NELEM(nf); i++)
		cs[n++] = sparse(T_F32, T_F16, T_F16, nf[i]);
	for (size_t t = 0; t < NELEM(comb); t++) {
		bool h = tbits[comb[t][1]] == 16, i8 = is_int(comb[t][1]);
		for (unsigned sel = 0; sel < (tbits[comb[t][1]] >= 16 ? 2u : 1u); sel++)
			for (int areg = 0; areg < 2; areg++)
				for (int s = 0; s < 4; s++) {
					Case c = sparse(comb[t][0], comb[t][1], comb[t][2], s % 2 ? 24 : i8 ? 48 : 40);
					c.sel = sel, c.areg = areg;
					c.la.swz = sw[s], c.lb.swz = sw[3 - s];
					c.lb.mn = h && s >= 2, c.la.mn = h && !areg && s == 1;
					c.satf = i8 && s == 3;
					c.data = i8 && s >= 2;
					cs[n++] = c;
				}
	}
	Case c = sparse(T_F32, T_F16, T_F16, 16);
	c.nod = true, c.sa = -1;
	cs[n++] = c;
	c = sparse(T_F32, T_BF16, T_BF16, 16);
	c.groups = 2, c.areg = true, c.sel = 1;
	cs[n++] = c;
	c = sparse(T_F32, T_F16, T_F16, 8);
	c.data = 2;
	cs[n++] = c;
	*ncase += n;
	return run_all(dev, cs, n);
}

/* The single rounding: with C = 4096, sixteen products of 0.75 * 2^-12
 * give 4096.01171875 exactly in f32; a chain of f32 additions, 4096. */
static int test_rounding(ptxvm_device *dev, size_t *ncase)
{
	Case cs[3] = { base(T_F32, T_F16, T_F16, 8), base(T_F32, T_BF16, T_BF16, 8), base(T_F32, T_TF32, T_TF32, 8) };
	for (int i = 0; i < 3; i++)
		cs[i].data = 2;
	*ncase += 3;
	return run_all(dev, cs, 3);
}

/* What fails loudly: an incomplete warpgroup, B outside shared memory; an
 * sm_90a module on an sm_90 device. */
static int test_refusals(ptxvm_device *dev)
{
	static const char *const body[] = {
		/* 0: 96 threads, 1: B past the end */
		"\tmov.u64 %rd1, 0;\n",
		"\tmov.u64 %rd1, 0x3fff;\n",
	};
	static const char *const want[] = { "whole warpgroup", "shared" };
	static const unsigned threads[] = { 96, 128 };
	int bad = 0;
	for (int i = 0; i < 2; i++) {
		char p[2048];
		snprintf(p, sizeof p,
			 ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
			 "\t.reg .f32 %%f<4>;\n\t.reg .b64 %%rd<2>;\n\t.shared .align 128 .b8 sm[256];\n"
			 "\tmov.u64 %%rd0, 0;\n%s"
			 "\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%%f0, %%f1, %%f2, %%f3}, %%rd0, %%rd1, 1, 1, 1, 0, 0;\n"
			 "\tst.shared.f32 [sm], %%f0;\n\tret;\n}\n", body[i]);
		ptxvm_check_opts co = { .arch = "sm_90a" };
		ptxvm_module *m = ptxvm_module_load("refuse", p, strlen(p), &co);
		ptxvm_program *pg = NULL;
		if (ptxvm_module_errors(m) || ptxvm_program_load(dev, m, &pg)) {
			fail("wgmma refusal %d: does not load: %s", i, ptxvm_device_message(dev));
			bad++;
		} else {
			ptxvm_launch_config cfg = { { 1, 1, 1 }, { threads[i], 1, 1 }, 0, { 0, 0, 0 } };
			int r = ptxvm_launch(dev, ptxvm_kernel_find(pg, "k"), &cfg, NULL, NULL);
			const char *msg = ptxvm_device_message(dev);
			if (!r || !strstr(msg, want[i])) {
				fail("wgmma refusal %d: launch gives %d: %s (expected an error naming '%s')", i, r, msg,
				     want[i]);
				bad++;
			}
			ptxvm_program_unload(pg);
		}
		ptxvm_module_free(m);
	}
	/* the same module on an sm_90 device: refused, naming the targets */
	const char *p = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
			"\twgmma.fence.sync.aligned;\n\tret;\n}\n";
	ptxvm_module *m = ptxvm_module_load("sm90", p, strlen(p), NULL);
	char *dg = ptxvm_module_diagnostics(m);
	if (!ptxvm_module_errors(m) || !dg || !strstr(dg, "sm_90a")) {
		fail("wgmma: an sm_90a module checked for sm_90 gives: %s", dg ? dg : "(nothing)");
		bad++;
	}
	free(dg);
	ptxvm_module_free(m);
	return bad;
}

void test_wgmma(const char *root)
{
	(void)root;
	ptxvm_device_opts o = { .workers = 2, .arch = "sm_90a" };
	ptxvm_device *d = ptxvm_device_create(&o);
	if (!d) {
		fail("wgmma: no sm_90a device");
		return;
	}
	size_t ncase = 0;
	int bad = 0;
	bad += test_shapes(d, &ncase);
	bad += test_layouts(d, &ncase);
	bad += test_rounding(d, &ncase);
	bad += test_sparse(d, &ncase);
	bad += test_refusals(d);
	ptxvm_device_destroy(d);
	if (!bad)
		passed++;
	printf("wgmma: %zu products against the reference, 3 refusals\n", ncase);
}
