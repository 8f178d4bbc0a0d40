/* mma.c: the warp-level matrix product (mma.sync.aligned) over the
 * fragments of a whole warp.
 *
 * The lanes' registers are gathered into the matrices A, B and C (where
 * each element sits: src/isa/mma.c), D = A*B + C is computed element by
 * element, and D is scattered back.  Integer sums are exact (then wrapped
 * to 32 bits, or clamped with .satfinite); floating-point sums follow
 * docs/FLOAT.md as an H200 computes them (fsum): products exact, every
 * term (c too) cut to 26 significant bits below the largest one's leading
 * bit, the sum exact, one rounding to D's type at the end (towards zero
 * to f32, but past its range an infinity; to nearest even to f16); of
 * .e4m3 and .e5m2 elements, the sum of the exact products in double, one
 * rounding to nearest even; .f64 is a chain
 * of fused multiply-adds in k order from c, each rounded as the
 * instruction says (wmma) or to nearest even.  mma.sp multiplies each kept
 * element of A by the row of B its metadata index names: the pruned
 * elements take no part (an infinity in B meets no zero); two kept
 * elements with one index both count.  wgmma.mma_async is the same
 * product for one warp's 16 rows, A and B read from shared memory through
 * matrix descriptors (src/isa/mma.c) where they are not in registers.
 */
#include "mma.h"
#include "fp.h"

#include <assert.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

typedef union {
	double f;
	int64_t i;
} Val;

static double dbl(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

static uint64_t dbits(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof b);
	return b;
}

static double flt(uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static bool is_float(int t)
{
	return t <= MT_E5M2;
}

/* One element of type t from its raw bits. */
static Val decode(int t, uint64_t raw)
{
	Val v = { 0 };
	switch (t) {
	case MT_F16: v.f = f16_to_f32((uint16_t)raw); break;
	case MT_BF16: v.f = bf16_to_f32((uint16_t)raw); break;
	case MT_TF32: v.f = flt((uint32_t)raw & 0xffffe000u); break;   /* the low 13 bits are ignored */
	case MT_F32: v.f = flt((uint32_t)raw); break;
	case MT_F64: v.f = dbl(raw); break;
	case MT_E4M3: v.f = f16_to_f32(fp8_to_f16((uint8_t)raw, FP8_E4M3, false)); break;
	case MT_E5M2: v.f = f16_to_f32(fp8_to_f16((uint8_t)raw, FP8_E5M2, false)); break;
	case MT_S8: v.i = (int8_t)raw; break;
	case MT_U8: v.i = (uint8_t)raw; break;
	case MT_S4: v.i = (int64_t)((raw & 15) ^ 8) - 8; break;
	case MT_U4: v.i = (int64_t)(raw & 15); break;
	case MT_B1: v.i = (int64_t)(raw & 1); break;
	default: v.i = (int32_t)raw; break;
	}
	return v;
}

/* .e4m3 and .e5m2 products sum in another way (docs/FLOAT.md 19). */
static bool fp8(const MmaShape *s)
{
	return s->type[MMA_A] == MT_E4M3 || s->type[MMA_A] == MT_E5M2;
}

/* Gathers operand op from its registers R into M (grp, row, col flat). */
static void gather(const MmaShape *s, int op, const uint64_t *const *R, Val *M, unsigned rows, unsigned cols)
{
	int t = s->type[op];
	unsigned eb = mma_bits(t), per = eb == 64 ? 1 : 32 / eb, ne = mma_elems(s, op);
	uint64_t mask = eb == 64 ? ~0ull : (1ull << eb) - 1;
	for (unsigned l = 0; l < 32; l++)
		for (unsigned i = 0; i < ne; i++) {
			unsigned r, c, g;
			mma_elem(s, op, l, i, &r, &c, &g);
			uint64_t raw = R[i / per][l] >> (i % per) * eb & mask;
			M[(g * rows + r) * cols + c] = decode(t, raw);
		}
}

/* Scatters D (grp, row, col flat) into its registers, rounded or clamped
 * to D's type. */
static void scatter(const MmaShape *s, uint64_t *const *D, const Val *d, unsigned M, unsigned N)
{
	int t = s->type[MMA_D];
	unsigned eb = mma_bits(t), per = eb == 64 ? 1 : 32 / eb, ne = mma_elems(s, MMA_D), nd = ne / per;
	uint64_t out[128][32];
	memset(out, 0, nd * sizeof out[0]);
	for (unsigned l = 0; l < 32; l++)
		for (unsigned i = 0; i < ne; i++) {
			unsigned r, cc, g;
			mma_elem(s, MMA_D, l, i, &r, &cc, &g);
			Val v = d[(g * M + r) * N + cc];
			uint64_t bits;
			switch (t) {
			case MT_F16: bits = f64_to_f16(dbits(v.f), FP_RN); break;
			case MT_F32:
				bits = f64_to_f32(dbits(v.f), fp8(s) ? FP_RN : FP_RZ);
				if (fabs(v.f) >= 0x1p128)
					bits = (v.f < 0 ? 0x80000000u : 0) | 0x7f800000u;  /* an infinity, as RZ would not */
				break;
			case MT_F64: bits = isnan(v.f) ? FP_F64_CNAN : dbits(v.f); break;
			default:
				if (s->satfinite)
					v.i = v.i > INT32_MAX ? INT32_MAX : v.i < INT32_MIN ? INT32_MIN : v.i;
				bits = (uint64_t)(int64_t)(int32_t)(uint32_t)v.i;     /* wraps; sign-extended */
			}
			if (eb < 64 && t != MT_S32)
				bits &= (1ull << eb) - 1;
			out[i / per][l] |= bits << (i % per) * eb;
		}
	for (unsigned r = 0; r < nd; r++)
		memcpy(D[r], out[r], sizeof out[r]);
}

/* The tensor core's sum of c and n exact products p (docs/FLOAT.md 19,
 * confirmed on an H200): each term is cut towards zero to a multiple of
 * 2^(E-25), E the exponent of the largest term, and the cut terms are
 * added exactly (17 terms of at most 26 bits: well inside a double).  An
 * infinity or NaN among them gives what plain addition gives.  .e4m3 and
 * .e5m2 products are not cut: their sum (the H200's, rounded to nearest
 * even by scatter) is as wide as the recording shows, taken as double. */
static double fsum(const MmaShape *sh, double c, const double *p, unsigned n)
{
	double big = fabs(c), s = c;
	if (fp8(sh)) {          /* in k order in double, from c */
		for (unsigned k = 0; k < n; k++)
			s += p[k];
		return s;
	}
	for (unsigned k = 0; k < n; k++) {
		big = fmax(big, fabs(p[k]));
		s += p[k];
	}
	if (!isfinite(s) || big == 0 || !isfinite(big))
		return s;
	int e;
	frexp(big, &e);         /* big in [2^(e-1), 2^e): E = e - 1 */
	double q = ldexp(1, e - 26);
	s = trunc(c / q) * q;
	for (unsigned k = 0; k < n; k++)
		s += trunc(p[k] / q) * q;
	return s;
}

void mma_run(const MmaShape *s, uint64_t *const *D, const uint64_t *const *A, const uint64_t *const *B,
	     const uint64_t *const *C, const uint64_t *E, unsigned sel)
{
	static_assert(MT_S8 > MT_E5M2, "float element types come first");
	unsigned M = s->m, N = s->n, K = s->k, KA = s->sp ? K / 2 : K;
	Val a[16 * 256], b[256 * 8], c[4 * 16 * 8], d[4 * 16 * 8];
	/* the column of B each element of A's row meets: mma.sp's kept
	 * elements the columns their indices name (src/isa/mma.c) */
	uint16_t kcol[16 * 256];
	for (unsigned i = 0; i < M; i++)
		for (unsigned k = 0; k < KA; k++) {
			unsigned lane = 0, bit = 0;
			if (s->sp)
				mma_sp_index(s, i, k, sel, &lane, &bit);
			kcol[i * KA + k] = (uint16_t)(s->sp ? mma_sp_col(s, k, (unsigned)(E[lane] >> bit & 3)) : k);
		}
	gather(s, MMA_A, A, a, M, KA);
	gather(s, MMA_B, B, b, K, N);
	gather(s, MMA_C, C, c, M, N);
	unsigned ngrp = mma_groups(s);
	bool fl = is_float(s->type[MMA_A]);
	for (unsigned g = 0; g < ngrp; g++)
		for (unsigned i = 0; i < M; i++)
			for (unsigned j = 0; j < N; j++) {
				const Val *ar = &a[(g * M + i) * KA], *bc = &b[g * K * N + j];
				const uint16_t *kc = &kcol[i * KA];
				Val acc = c[(g * M + i) * N + j];
				if (!fl) {
					for (unsigned k = 0; k < KA; k++)
						acc.i += s->type[MMA_A] != MT_B1 ? ar[k].i * bc[kc[k] * N].i
							 : s->bop ? ar[k].i & bc[kc[k] * N].i : ar[k].i ^ bc[kc[k] * N].i;
				} else if (s->type[MMA_D] == MT_F64) {
					static const int rm[4] = { FP_RN, FP_RZ, FP_RM, FP_RP };
					for (unsigned k = 0; k < KA; k++)
						acc.f = dbl(f64_fma(dbits(ar[k].f), dbits(bc[kc[k] * N].f), dbits(acc.f),
								    rm[s->rnd & 3]));
				} else {
					double p[256];
					for (unsigned k = 0; k < KA; k++)
						p[k] = ar[k].f * bc[kc[k] * N].f;
					acc.f = fsum(s, acc.f, p, KA);
				}
				d[(g * M + i) * N + j] = acc;
			}
	scatter(s, D, d, M, N);
}

/* One element of a wgmma operand in shared memory, through descriptor d. */
static bool desc_elem(const WgmmaOp *op, int t, uint64_t d, bool trans, unsigned mn, unsigned k, Val *v)
{
	unsigned eb = mma_bits(t), sh;
	uint64_t a = wgmma_desc_addr(d, trans, eb, mn, k, &sh);
	unsigned nb = eb < 8 ? 1 : eb / 8;
	const uint8_t *p = op->smem(op->ctx, a, nb);
	if (!p)
		return false;
	uint64_t raw = 0;
	for (unsigned i = 0; i < nb; i++)
		raw |= (uint64_t)p[i] << 8 * i;
	*v = decode(t, raw >> sh & (eb == 64 ? ~0ull : (1ull << eb) - 1));
	return true;
}

int wgmma_run(const WgmmaOp *op)
{
	const MmaShape *s = op->s;
	unsigned N = s->n, K = s->k, KA = s->sp ? K / 2 : K, ta = s->type[MMA_A], tb = s->type[MMA_B];
	Val a[16 * 256], c[16 * 256];
	uint16_t kcol[16 * 256];        /* the column of B each element of A's row meets */
	for (unsigned i = 0; i < 16; i++)
		for (unsigned k = 0; k < KA; k++) {
			unsigned lane = 0, bit = 0;
			if (s->sp)
				mma_sp_index(s, i, k, op->sel, &lane, &bit);
			kcol[i * KA + k] = (uint16_t)(s->sp ? mma_sp_col(s, k, (unsigned)(op->E[lane] >> bit & 3)) : k);
		}
	Val *b = malloc(sizeof *b * K * N);
	if (!b)
		return WG_NOMEM;
	bool fl = is_float(ta), ok = true;
	if (op->A) {
		gather(s, MMA_A, op->A, a, 16, KA);
	} else {
		for (unsigned i = 0; i < 16 && ok; i++)
			for (unsigned k = 0; k < KA && ok; k++)
				ok = desc_elem(op, ta, op->adesc, op->trans_a, 16 * op->rank + i, k, &a[i * KA + k]);
	}
	for (unsigned j = 0; j < N && ok; j++)
		for (unsigned k = 0; k < K && ok; k++)
			ok = desc_elem(op, tb, op->bdesc, op->trans_b, j, k, &b[k * N + j]);
	if (!ok) {
		free(b);
		return WG_FAULT;
	}
	gather(s, MMA_C, (const uint64_t *const *)op->D, c, 16, N);
	for (unsigned i = 0; i < 16; i++)
		for (unsigned j = 0; j < N; j++) {
			Val acc = op->scale_d ? c[i * N + j] : (Val){ 0 };
			const Val *ar = &a[i * KA], *bc = &b[j];
			const uint16_t *kc = &kcol[i * KA];
			if (!fl) {
				for (unsigned k = 0; k < KA; k++)
					acc.i += ta == MT_B1 ? ar[k].i & bc[kc[k] * N].i : ar[k].i * bc[kc[k] * N].i;
			} else {
				double p[256];
				for (unsigned k = 0; k < KA; k++)
					p[k] = op->scale_a * ar[k].f * (op->scale_b * bc[kc[k] * N].f);
				acc.f = fsum(s, acc.f, p, KA);
			}
			c[i * N + j] = acc;
		}
	free(b);
	scatter(s, op->D, c, 16, N);
	return WG_OK;
}
