/* t_fp.c: the floating-point semantics of src/exec/fp.c against references.
 *
 * The references are exact and do not share fp.c's method (fp.c works in
 * double, with TwoSum and fma residuals, and in the host's rounding modes
 * for f64): here operands are unpacked to integers, the operation is done
 * in 128-bit integer arithmetic, with a sticky bit where a sum, quotient or
 * root is inexact, and the result is rounded by ref_round().  Each op x
 * format x mode counts one pass after all its edge and random inputs.
 */
#include "test.h"
#include "../src/exec/fp.h"
#include "../src/isa/isa.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

static const char *const rm_name[4] = { "rn", "rz", "rm", "rp" };

/* ---- formats and exact values --------------------------------------------- */
typedef struct Fmt {
	int eb, mb, w;
	uint64_t cnan;
	const char *name;
} Fmt;
static const Fmt FH = { 5, 10, 16, 0x7fff, "f16" };
static const Fmt FB = { 8, 7, 16, 0x7fff, "bf16" };
static const Fmt FS = { 8, 23, 32, 0x7fffffff, "f32" };
static const Fmt FD = { 11, 52, 64, 0x7fffffffffffffffull, "f64" };

enum { K_ZERO, K_NUM, K_INF, K_NAN };
typedef struct X {
	int k, neg, exp;
	u128 sig;               /* K_NUM: |value| = sig * 2^exp */
} X;

static int bias_of(const Fmt *f) { return (1 << (f->eb - 1)) - 1; }
static uint64_t inf_of(const Fmt *f) { return (uint64_t)((1u << f->eb) - 1) << f->mb; }
static uint64_t sbit_of(const Fmt *f) { return 1ull << (f->eb + f->mb); }

static X x_of(uint64_t b, const Fmt *f)
{
	X x = { K_NUM, (int)((b >> (f->eb + f->mb)) & 1), 0, 0 };
	unsigned emask = (1u << f->eb) - 1;
	unsigned e = (unsigned)(b >> f->mb) & emask;
	uint64_t frac = b & ((1ull << f->mb) - 1);

	if (e == emask)
		x.k = frac ? K_NAN : K_INF;
	else if (!e && !frac)
		x.k = K_ZERO;
	else {
		x.sig = e ? frac | 1ull << f->mb : frac;
		x.exp = (e ? (int)e : 1) - bias_of(f) - f->mb;
	}
	return x;
}

static int msb128(u128 v)
{
	uint64_t hi = (uint64_t)(v >> 64);
	return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)v);
}

/* Whether kept (with rest out of 2^d dropped below it) goes up one. */
static int goes_up(u128 kept, u128 rest, int d, int neg, int rm)
{
	if (!rest)
		return 0;
	switch (rm) {
	case FP_RZ: return 0;
	case FP_RM: return neg;
	case FP_RP: return !neg;
	}
	if (d > 126)
		return 0;
	u128 half = (u128)1 << (d - 1);
	return rest > half || (rest == half && (kept & 1));
}

/* (-1)^neg * sig * 2^exp, sig != 0, rounded into f. */
static uint64_t ref_round(int neg, int exp, u128 sig, const Fmt *f, int rm)
{
	int bias = bias_of(f), emin = 1 - bias;
	int m = msb128(sig);

	if (m < 120) {
		sig <<= 120 - m;
		exp -= 120 - m;
	} else if (m > 120) {   /* at most 7 bits, far below any rounding */
		int d = m - 120;
		u128 lost = sig & (((u128)1 << d) - 1);
		sig = (sig >> d) | (lost != 0);
		exp += d;
	}
	int e = exp + 120;
	int l = (e < emin ? emin : e) - f->mb;  /* weight of the last kept bit */
	int d = l - exp;                        /* >= 68 */
	u128 kept = d > 126 ? 0 : sig >> d;
	u128 rest = d > 126 ? sig : sig - (kept << d);
	kept += goes_up(kept, rest, d, neg, rm);
	if (kept >> (f->mb + 1)) {
		kept >>= 1;
		l++;
	}
	long field = kept >> f->mb ? (long)l + f->mb + bias : 0;
	uint64_t s = neg ? sbit_of(f) : 0;
	if (field >= (1L << f->eb) - 1) {
		bool tomax = rm == FP_RZ || (rm == FP_RM && !neg) || (rm == FP_RP && neg);
		return s | (inf_of(f) - tomax);
	}
	return s | (uint64_t)field << f->mb | ((uint64_t)kept & ((1ull << f->mb) - 1));
}

static uint64_t ref_pack(X x, const Fmt *f, int rm)
{
	uint64_t s = x.neg ? sbit_of(f) : 0;

	switch (x.k) {
	case K_NAN:  return f->cnan;
	case K_INF:  return s | inf_of(f);
	case K_ZERO: return s;
	}
	return ref_round(x.neg, x.exp, x.sig, f, rm);
}

static X xnan(void) { X x = { K_NAN, 0, 0, 0 }; return x; }
static X xinf(int neg) { X x = { K_INF, neg, 0, 0 }; return x; }
static X xzero(int neg) { X x = { K_ZERO, neg, 0, 0 }; return x; }

static X ref_mul(X a, X b)
{
	int neg = a.neg ^ b.neg;

	if (a.k == K_NAN || b.k == K_NAN)
		return xnan();
	if (a.k == K_INF || b.k == K_INF)
		return a.k == K_ZERO || b.k == K_ZERO ? xnan() : xinf(neg);
	if (a.k == K_ZERO || b.k == K_ZERO)
		return xzero(neg);
	X r = { K_NUM, neg, a.exp + b.exp, a.sig * b.sig };
	return r;
}

/* Exact sum; operands up to 107 bits.  Both are placed with the larger's
 * top bit at 123; only the smaller can lose bits there, and then only when
 * it is 2^16 times smaller, so the lost part is a sticky half unit. */
static X ref_add(X a, X b, int rm)
{
	if (a.k == K_NAN || b.k == K_NAN)
		return xnan();
	if (a.k == K_INF || b.k == K_INF) {
		if (a.k == K_INF && b.k == K_INF && a.neg != b.neg)
			return xnan();
		return a.k == K_INF ? a : b;
	}
	if (a.k == K_ZERO && b.k == K_ZERO)
		return xzero(a.neg == b.neg ? a.neg : rm == FP_RM);
	if (a.k == K_ZERO)
		return b;
	if (b.k == K_ZERO)
		return a;
	int ta = a.exp + msb128(a.sig), tb = b.exp + msb128(b.sig);
	int e0 = (ta > tb ? ta : tb) - 123, lost = 0;
	i128 s = 0;
	X *v[2] = { &a, &b };
	for (int i = 0; i < 2; i++) {
		u128 m;
		if (v[i]->exp >= e0) {
			m = v[i]->sig << (v[i]->exp - e0);
		} else {
			int d = e0 - v[i]->exp;
			m = d > 126 ? 0 : v[i]->sig >> d;
			if (d > 126 || (m << d) != v[i]->sig)
				lost = v[i]->neg ? -1 : 1;
		}
		s += v[i]->neg ? -(i128)m : (i128)m;
	}
	if (lost) {
		s = 2 * s + lost;
		e0--;
	}
	if (s == 0)
		return xzero(rm == FP_RM);
	X r = { K_NUM, s < 0, e0, (u128)(s < 0 ? -s : s) };
	return r;
}

static X ref_div(X a, X b)
{
	int neg = a.neg ^ b.neg;

	if (a.k == K_NAN || b.k == K_NAN)
		return xnan();
	if ((a.k == K_INF && b.k == K_INF) || (a.k == K_ZERO && b.k == K_ZERO))
		return xnan();
	if (a.k == K_INF || b.k == K_ZERO)
		return xinf(neg);
	if (b.k == K_INF || a.k == K_ZERO)
		return xzero(neg);
	int k = 65 + msb128(b.sig) - msb128(a.sig);
	u128 n = a.sig << k, q = n / b.sig;
	X r = { K_NUM, neg, a.exp - k - b.exp, q };
	if (q * b.sig != n) {
		r.sig = q << 1 | 1;
		r.exp--;
	}
	return r;
}

static X ref_sqrt(X a)
{
	if (a.k == K_NAN || (a.neg && a.k != K_ZERO))
		return xnan();
	if (a.k != K_NUM)
		return a;
	u128 n = a.sig;
	int exp = a.exp;
	if (exp & 1) {
		n <<= 1;
		exp--;
	}
	int j = (120 - msb128(n)) / 2;
	n <<= 2 * j;
	exp -= 2 * j;
	/* digit by digit */
	u128 r = 0, bit = (u128)1 << 126;
	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	X x = { K_NUM, 0, exp / 2, r };
	if (n) {
		x.sig = r << 1 | 1;
		x.exp--;
	}
	return x;
}

enum { OADD, OSUB, OMUL, ODIV, OFMA, OSQRT, ORCP, ONOPS };
static const char *const op_name[ONOPS] = { "add", "sub", "mul", "div", "fma", "sqrt", "rcp" };

/* An f64 NaN result, as an H200 gives it: the first NaN operand in the
 * order the GPU looks at them (add, sub, mul: b, a; fma: b, c, a; div: a,
 * b; sqrt and rcp: a), with its quiet bit set; a NaN made of numbers (inf -
 * inf, 0 * inf, 0 / 0, sqrt(-1)) is -NaN 0xfff8000000000000. */
static uint64_t ref_nan64(int op, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t ord[3] = { b, a, 0 };

	if (op == OFMA)
		ord[1] = c, ord[2] = a;
	else if (op == ODIV)
		ord[0] = a, ord[1] = b;
	else if (op == OSQRT || op == ORCP)
		ord[0] = a, ord[1] = 0;
	for (int i = 0; i < 3; i++)
		if ((ord[i] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
			return ord[i] | 0x0008000000000000ull;
	return 0xfff8000000000000ull;
}

static uint64_t ref_op(int op, uint64_t a, uint64_t b, uint64_t c, const Fmt *f, int rm)
{
	X x = x_of(a, f), y = x_of(b, f), z = x_of(c, f), one = { K_NUM, 0, 0, 1 }, r;

	switch (op) {
	case OADD: r = ref_add(x, y, rm); break;
	case OSUB: y.neg ^= 1; r = ref_add(x, y, rm); break;
	case OMUL: r = ref_mul(x, y); break;
	case ODIV: r = ref_div(x, y); break;
	case OFMA: r = ref_add(ref_mul(x, y), z, rm); break;
	case OSQRT: r = ref_sqrt(x); break;
	default:   r = ref_div(one, x); break;
	}
	if (f == &FD && r.k == K_NAN)
		return ref_nan64(op, a, b, c);
	return ref_pack(r, f, rm);
}

/* fp.c's function for op in format f */
static uint64_t lib_op(int op, uint64_t a, uint64_t b, uint64_t c, const Fmt *f, int rm)
{
	uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b, c32 = (uint32_t)c;
	uint16_t a16 = (uint16_t)a, b16 = (uint16_t)b, c16 = (uint16_t)c;

	if (f == &FS)
		switch (op) {
		case OADD: return f32_add(a32, b32, rm);
		case OSUB: return f32_sub(a32, b32, rm);
		case OMUL: return f32_mul(a32, b32, rm);
		case ODIV: return f32_div(a32, b32, rm);
		case OFMA: return f32_fma(a32, b32, c32, rm);
		case OSQRT: return f32_sqrt(a32, rm);
		default:   return f32_rcp(a32, rm);
		}
	if (f == &FD)
		switch (op) {
		case OADD: return f64_add(a, b, rm);
		case OSUB: return f64_sub(a, b, rm);
		case OMUL: return f64_mul(a, b, rm);
		case ODIV: return f64_div(a, b, rm);
		case OFMA: return f64_fma(a, b, c, rm);
		case OSQRT: return f64_sqrt(a, rm);
		default:   return f64_rcp(a, rm);
		}
	if (f == &FH)
		switch (op) {
		case OADD: return f16_add(a16, b16, rm);
		case OSUB: return f16_sub(a16, b16, rm);
		case OMUL: return f16_mul(a16, b16, rm);
		default:   return f16_fma(a16, b16, c16, rm);
		}
	switch (op) {
	case OADD: return bf16_add(a16, b16, rm);
	case OSUB: return bf16_sub(a16, b16, rm);
	case OMUL: return bf16_mul(a16, b16, rm);
	default:   return bf16_fma(a16, b16, c16, rm);
	}
}

/* ---- inputs ---------------------------------------------------------------- */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* The values every op meets: zeros, the subnormal and normal extremes,
 * numbers around 1, the largest finite, infinities and NaNs with payloads,
 * each with both signs. */
static int edges(const Fmt *f, uint64_t *out)
{
	uint64_t one = (uint64_t)bias_of(f) << f->mb, mn = 1ull << f->mb;
	uint64_t hb = 1ull << (f->mb - 1), inf = inf_of(f);
	uint64_t v[] = { 0, 1, 2, 3, mn - 1, mn, mn + 1, one, one + 1, one - 1,
			 one - mn, one | hb, (one + mn) | hb, one + 3 * mn,
			 inf - 1, inf - 2, inf - mn, inf, inf | 1, inf | hb,
			 inf | hb | 5 };
	int n = 0;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		out[n++] = v[i];
		out[n++] = v[i] | sbit_of(f);
	}
	return n;
}

static uint64_t mask_of(const Fmt *f) { return f->w == 64 ? ~0ull : (1ull << f->w) - 1; }

/* A random operand: raw bits, values near 1, subnormals, or an edge. */
static uint64_t rnd_val(const Fmt *f)
{
	uint64_t r = rnd(), m = mask_of(f), frac = r & ((1ull << f->mb) - 1);
	uint64_t s = (r >> 63) ? sbit_of(f) : 0;
	uint64_t eg[64];

	switch ((r >> 56) & 7) {
	case 0: case 1: case 2:
		return rnd() & m;
	case 3: case 4: {       /* exponent within +-8 of 1.0 */
		uint64_t e = (uint64_t)(bias_of(f) - 8 + (int)(rnd() % 17));
		return s | e << f->mb | frac;
	}
	case 5:                 /* subnormal or smallest normals */
		return s | (frac >> (rnd() % f->mb)) | ((r >> 40) & 1) << f->mb;
	case 6:                 /* short mantissa: exact cases, ties */
		return (rnd() & m & ~((1ull << f->mb) - 1)) | (frac & 0xf) << (f->mb - 4);
	default:
		{
			int n = edges(f, eg);
			return eg[rnd() % (unsigned)n];
		}
	}
}

/* A partner for a near a's magnitude or a rounding boundary of it. */
static uint64_t partner(uint64_t a, const Fmt *f)
{
	uint64_t r = rnd(), s = (r & 1) ? sbit_of(f) : 0;
	int64_t e = (int64_t)((a >> f->mb) & ((1u << f->eb) - 1));

	switch ((r >> 1) & 3) {
	case 0:                 /* near cancellation */
		return ((a ^ s) + (r >> 8) % 5 - 2) & mask_of(f);
	case 1: {               /* around half an ulp of a */
		int64_t ne = e - f->mb - 1 + (int64_t)((r >> 8) % 3) - 1;
		if (ne < 1)
			return s | 1;
		return s | (uint64_t)ne << f->mb | ((r >> 16) & 3) << (f->mb - 2);
	}
	default:
		return rnd_val(f);
	}
}

/* ---- arithmetic ------------------------------------------------------------ */
static void check_op(int op, const Fmt *f, int rm, int nrand)
{
	uint64_t eg[64];
	int ne = edges(f, eg), bad = 0;
	uint64_t ba = 0, bb = 0, bc = 0, want = 0, got = 0;
	int nargs = op == OSQRT || op == ORCP ? 1 : op == OFMA ? 3 : 2;

#define TRY(a_, b_, c_) do {                                                    \
		uint64_t a__ = (a_), b__ = (b_), c__ = (c_);                    \
		uint64_t w__ = ref_op(op, a__, b__, c__, f, rm);                \
		uint64_t g__ = lib_op(op, a__, b__, c__, f, rm);                \
		if (w__ != g__ && !bad++) {                                     \
			ba = a__; bb = b__; bc = c__; want = w__; got = g__;    \
		}                                                               \
	} while (0)

	if (nargs == 1)
		for (int i = 0; i < ne; i++)
			TRY(eg[i], 0, 0);
	else if (nargs == 2)
		for (int i = 0; i < ne; i++)
			for (int j = 0; j < ne; j++)
				TRY(eg[i], eg[j], 0);
	else
		for (int i = 0; i < ne; i++)
			for (int j = 0; j < ne; j++)
				for (int k = 0; k < ne; k += 3)
					TRY(eg[i], eg[j], eg[(k + i) % ne]);
	for (int i = 0; i < nrand; i++) {
		uint64_t a = rnd_val(f), b = partner(a, f), c = rnd_val(f);
		if (op == OFMA && (i & 1)) {
			/* c near -a*b: cancellation, sticky and tie cases */
			uint64_t p = ref_op(OMUL, a, b, 0, f, FP_RZ);
			c = partner(p, f);
		}
		TRY(a, b, c);
	}
#undef TRY
	if (bad)
		fail("fp: %s.%s.%s(%#llx, %#llx, %#llx): want %#llx, got %#llx (%d inputs wrong)",
		     op_name[op], rm_name[rm], f->name, (unsigned long long)ba,
		     (unsigned long long)bb, (unsigned long long)bc,
		     (unsigned long long)want, (unsigned long long)got, bad);
	else
		passed++;
}

/* A few hand-computed results, so that the reference itself is checked. */
static void check_known(void)
{
	static const struct { int op, rm; const Fmt *f; uint64_t a, b, c, want; } k[] = {
		/* 1 + 2^-24 is a tie: even is 1.0; 1+2^-23 + 2^-24 ties up */
		{ OADD, FP_RN, &FS, 0x3f800000, 0x33800000, 0, 0x3f800000 },
		{ OADD, FP_RN, &FS, 0x3f800001, 0x33800000, 0, 0x3f800002 },
		{ OADD, FP_RP, &FS, 0x3f800000, 0x00000001, 0, 0x3f800001 },
		{ OADD, FP_RM, &FS, 0x3f800000, 0x80000001, 0, 0x3f7fffff },
		{ OADD, FP_RZ, &FS, 0x3f800000, 0x80000001, 0, 0x3f7fffff },
		/* x - x is +0, but -0 when rounding down */
		{ OSUB, FP_RN, &FS, 0x40400000, 0x40400000, 0, 0x00000000 },
		{ OSUB, FP_RM, &FS, 0x40400000, 0x40400000, 0, 0x80000000 },
		{ OADD, FP_RM, &FD, 0x8000000000000000ull, 0, 0, 0x8000000000000000ull },
		/* overflow: inf in RN, max finite in RZ */
		{ OMUL, FP_RN, &FS, 0x7f7fffff, 0x40000000, 0, 0x7f800000 },
		{ OMUL, FP_RZ, &FS, 0x7f7fffff, 0x40000000, 0, 0x7f7fffff },
		{ OMUL, FP_RM, &FS, 0xff7fffff, 0x40000000, 0, 0xff800000 },
		{ OMUL, FP_RP, &FS, 0xff7fffff, 0x40000000, 0, 0xff7fffff },
		{ OADD, FP_RN, &FH, 0x7bff, 0x4c00, 0, 0x7c00 },   /* 65504 + 16 */
		{ OADD, FP_RZ, &FH, 0x7bff, 0x5000, 0, 0x7bff },
		{ OMUL, FP_RN, &FH, 0x0001, 0x3800, 0, 0x0000 },   /* 2^-25: tie to 0 */
		{ OMUL, FP_RP, &FH, 0x0001, 0x3800, 0, 0x0001 },
		{ OMUL, FP_RN, &FH, 0x0003, 0x3800, 0, 0x0002 },   /* 1.5 -> 2 (even) */
		/* the smallest subnormal times 0.5: RN ties to +0 */
		{ OMUL, FP_RN, &FD, 1, 0x3fe0000000000000ull, 0, 0 },
		{ OMUL, FP_RP, &FD, 1, 0x3fe0000000000000ull, 0, 1 },
		/* 0 * inf and inf - inf: f32's canonical NaN, f64's -NaN; f64
		 * NaN operands come out quieted, b's before a's */
		{ OMUL, FP_RN, &FS, 0, 0x7f800000, 0, 0x7fffffff },
		{ OADD, FP_RN, &FD, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0, 0xfff8000000000000ull },
		{ OADD, FP_RN, &FD, 0x7ff0000000000001ull, 0x3ff0000000000000ull, 0, 0x7ff8000000000001ull },
		{ OMUL, FP_RZ, &FD, 0x7ff8000000000002ull, 0xfff0000000000003ull, 0, 0xfff8000000000003ull },
		{ ODIV, FP_RN, &FD, 0x7ff8000000000002ull, 0xfff0000000000003ull, 0, 0x7ff8000000000002ull },
		{ OFMA, FP_RN, &FD, 0x7ff8000000000002ull, 0x3ff0000000000000ull, 0xfff0000000000003ull,
		  0xfff8000000000003ull },
		{ OADD, FP_RN, &FS, 0x7fc01234, 0x3f800000, 0, 0x7fffffff },
		{ OSQRT, FP_RN, &FS, 0x80000000, 0, 0, 0x80000000 },
		{ OSQRT, FP_RN, &FS, 0xbf800000, 0, 0, 0x7fffffff },
		{ OSQRT, FP_RZ, &FS, 0x40000000, 0, 0, 0x3fb504f3 },
		{ OSQRT, FP_RP, &FS, 0x40000000, 0, 0, 0x3fb504f4 },
		{ ODIV, FP_RN, &FS, 0x3f800000, 0x40400000, 0, 0x3eaaaaab },
		{ ODIV, FP_RZ, &FS, 0x3f800000, 0x40400000, 0, 0x3eaaaaaa },
		{ ORCP, FP_RN, &FS, 0x80000000, 0, 0, 0xff800000 },
		/* fma rounds once: (1+2^-23)(1-2^-23) - 1 = -2^-46 exactly */
		{ OFMA, FP_RN, &FS, 0x3f800001, 0x3f7ffffe, 0xbf800000, 0xa8800000 },
		/* f16 fma: 1 + 2^-11 + 2^-21 rounds up (via f32 it would tie) */
		{ OFMA, FP_RN, &FH, 0x3c01, 0x1000, 0x3c00, 0x3c01 },
		{ OFMA, FP_RN, &FH, 0x3c00, 0x1000, 0x3c00, 0x3c00 },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		uint64_t w = ref_op(k[i].op, k[i].a, k[i].b, k[i].c, k[i].f, k[i].rm);
		uint64_t g = lib_op(k[i].op, k[i].a, k[i].b, k[i].c, k[i].f, k[i].rm);
		if (w != k[i].want || g != k[i].want)
			fail("fp: %s.%s.%s(%#llx, %#llx, %#llx): want %#llx, reference %#llx, got %#llx",
			     op_name[k[i].op], rm_name[k[i].rm], k[i].f->name,
			     (unsigned long long)k[i].a, (unsigned long long)k[i].b,
			     (unsigned long long)k[i].c, (unsigned long long)k[i].want,
			     (unsigned long long)w, (unsigned long long)g);
		else
			passed++;
	}
}

static void test_arith(void)
{
	static const Fmt *const fmts[] = { &FH, &FB, &FS, &FD };
	for (int fi = 0; fi < 4; fi++) {
		const Fmt *f = fmts[fi];
		int nops = f->w == 16 ? 5 : ONOPS;      /* add sub mul (div) fma */
		for (int op = 0; op < nops; op++) {
			if (f->w == 16 && op == ODIV)
				continue;
			for (int rm = 0; rm < 4; rm++)
				check_op(op, f, rm, f->w == 16 ? 200000 : 60000);
		}
	}
	if (fegetround() != FE_TONEAREST)
		fail("fp: the host rounding mode was left changed");
	else
		passed++;
}

/* ---- conversions between float formats --------------------------------------- */
static float fbits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t bitsf(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static void test_half_conv(void)
{
	int bad = 0;
	uint32_t first = 0;

	/* every f16 widens exactly and comes back unchanged in every mode */
	for (uint32_t h = 0; h < 65536; h++) {
		X x = x_of(h, &FH);
		uint32_t want = (uint32_t)ref_pack(x, &FS, FP_RN);
		uint32_t got = bitsf(f16_to_f32((uint16_t)h));
		int ok = got == want;
		for (int rm = 0; rm < 4; rm++)
			ok &= f32_to_f16(got, rm) == (x.k == K_NAN ? 0x7fff : h);
		if (!ok && !bad++)
			first = h;
	}
	if (bad)
		fail("fp: f16 %#x -> f32 -> f16 does not round-trip (%d values)", first, bad);
	else
		passed++;

	/* f32 -> f16, bf16 around every representable value and midpoint */
	static const Fmt *const nar[] = { &FH, &FB };
	for (int ni = 0; ni < 2; ni++) {
		const Fmt *n = nar[ni];
		int sh = 23 - n->mb;
		for (int rm = 0; rm < 4; rm++) {
			bad = 0;
			uint32_t fa = 0, w0 = 0, g0 = 0;
			for (uint32_t h = 0; h < 65536; h++) {
				uint32_t v = (uint32_t)ref_pack(x_of(h, n), &FS, FP_RZ);
				uint32_t mid = v + (1u << (sh - 1));
				uint32_t in[] = { v, v + 1, v - 1, mid, mid - 1, mid + 1,
						  (uint32_t)rnd() };
				for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
					uint32_t g = n == &FH ? f32_to_f16(in[i], rm) : f32_to_bf16(in[i], rm);
					uint32_t w = (uint32_t)ref_pack(x_of(in[i], &FS), n, rm);
					if (g != w && !bad++) {
						fa = in[i];
						w0 = w;
						g0 = g;
					}
				}
			}
			if (bad)
				fail("fp: cvt.%s.%s.f32(%#x): want %#x, got %#x (%d wrong)",
				     rm_name[rm], n->name, fa, w0, g0, bad);
			else
				passed++;
		}
	}

	/* f64 -> f16, bf16, f32: one rounding from the full f64 value */
	for (int rm = 0; rm < 4; rm++) {
		bad = 0;
		uint64_t fa = 0, w0 = 0, g0 = 0;
		for (int i = 0; i < 300000; i++) {
			uint64_t d = rnd_val(&FD);
			if (i & 1) {    /* land near the narrow formats' ranges */
				uint64_t e = (uint64_t)(1023 - 160 + (int)(rnd() % 320));
				d = (d & 0x800fffffffffffffull) | e << 52;
			}
			uint64_t w[3] = { ref_pack(x_of(d, &FD), &FH, rm), ref_pack(x_of(d, &FD), &FB, rm),
					  ref_pack(x_of(d, &FD), &FS, rm) };
			uint64_t g[3] = { f64_to_f16(d, rm), f64_to_bf16(d, rm), f64_to_f32(d, rm) };
			for (int j = 0; j < 3; j++)
				if (w[j] != g[j] && !bad++) {
					fa = d;
					w0 = w[j];
					g0 = g[j];
				}
		}
		if (bad)
			fail("fp: cvt.%s.{f16,bf16,f32}.f64(%#llx): want %#llx, got %#llx (%d wrong)",
			     rm_name[rm], (unsigned long long)fa, (unsigned long long)w0,
			     (unsigned long long)g0, bad);
		else
			passed++;
	}

	/* bf16 widens exactly */
	bad = 0;
	for (uint32_t h = 0; h < 65536; h++) {
		uint32_t got = bitsf(bf16_to_f32((uint16_t)h));
		uint32_t want = (uint32_t)ref_pack(x_of(h, &FB), &FS, FP_RN);
		bad += got != want;
	}
	if (bad)
		fail("fp: bf16 -> f32 wrong for %d values", bad);
	else
		passed++;
}

/* ---- cvt ----------------------------------------------------------------------- */
static const unsigned cvt_tys[] = { TY_u8, TY_u16, TY_u32, TY_u64, TY_s8, TY_s16, TY_s32,
				    TY_s64, TY_f16, TY_bf16, TY_f32, TY_f64 };

static const Fmt *fmt_of(unsigned ty)
{
	switch (ty) {
	case TY_f16: return &FH;
	case TY_bf16: return &FB;
	case TY_f32: return &FS;
	case TY_f64: return &FD;
	}
	return NULL;
}

static i128 int_val(unsigned ty, uint64_t v)
{
	switch (ty) {
	case TY_u8:  return (uint8_t)v;
	case TY_u16: return (uint16_t)v;
	case TY_u32: return (uint32_t)v;
	case TY_u64: return v;
	case TY_s8:  return (int8_t)(uint8_t)v;
	case TY_s16: return (int16_t)(uint16_t)v;
	case TY_s32: return (int32_t)(uint32_t)v;
	default:     return (int64_t)v;
	}
}

/* v wrapped into ty, as cvt returns it */
static uint64_t int_wrap(unsigned ty, i128 v)
{
	uint64_t u = (uint64_t)v;
	switch (ty) {
	case TY_u8:  return (uint8_t)u;
	case TY_u16: return (uint16_t)u;
	case TY_u32: return (uint32_t)u;
	case TY_s8:  return (uint64_t)(int64_t)(int8_t)(uint8_t)u;
	case TY_s16: return (uint64_t)(int64_t)(int16_t)(uint16_t)u;
	case TY_s32: return (uint64_t)(int64_t)(int32_t)(uint32_t)u;
	default:     return u;
	}
}

static void int_range(unsigned ty, i128 *lo, i128 *hi)
{
	int w = ty == TY_u8 || ty == TY_s8 ? 8 : ty == TY_u16 || ty == TY_s16 ? 16
		: ty == TY_u32 || ty == TY_s32 ? 32 : 64;
	bool s = ty == TY_s8 || ty == TY_s16 || ty == TY_s32 || ty == TY_s64;
	*lo = s ? -((i128)1 << (w - 1)) : 0;
	*hi = s ? ((i128)1 << (w - 1)) - 1 : ((i128)1 << w) - 1;
}

static X xint_round(X x, int rm)
{
	if (x.k != K_NUM || x.exp >= 0)
		return x;
	int d = -x.exp;
	u128 kept = d > 126 ? 0 : x.sig >> d;
	u128 rest = d > 126 ? x.sig : x.sig - (kept << d);
	kept += goes_up(kept, rest, d, x.neg, rm);
	X r = { kept ? K_NUM : K_ZERO, x.neg, 0, kept };
	return r;
}

/* cvt of a NaN v between float formats (an H200's): bf16 -> f32 is v << 16;
 * f32 -> f64 and f64 -> f16, bf16, f32 keep the sign and the payload's top
 * bits, quiet bit set, as does f64 -> f64; f16 -> f64 is f32's canonical
 * NaN widened so, bf16 -> f64 v << 16 widened so; the rest give the
 * destination's canonical NaN. */
static uint64_t ref_cvt_nan(const Fmt *df, const Fmt *sf, uint64_t v)
{
	if (sf == &FB && df == &FS)
		return v << 16;
	if (sf == &FH && df == &FD)
		return 0x7fffffffe0000000ull;
	if (sf == &FB && df == &FD)
		return (v & 0x8000) << 48 | 0x7ff8000000000000ull | (v & 0x7f) << 45;
	if (sf == &FS && df == &FD)
		return (v & 0x80000000) << 32 | 0x7ff8000000000000ull | (v & 0x7fffff) << 29;
	if (sf == &FD) {
		uint64_t m = v & 0xfffffffffffffull, sg = v >> 63;
		if (df == &FD)
			return v | 0x0008000000000000ull;
		if (df == &FS)
			return sg << 31 | 0x7fc00000 | m >> 29;
		if (df == &FH)
			return sg << 15 | 0x7e00 | m >> 42;
		return sg << 15 | 0x7fc0 | m >> 45;
	}
	return df->cnan;
}

static uint64_t ref_cvt(unsigned dty, unsigned sty, uint64_t v, int rm, bool irnd, bool ftz, bool sat)
{
	const Fmt *df = fmt_of(dty), *sf = fmt_of(sty);
	X x;

	if (!df && !sf) {
		i128 n = int_val(sty, v), lo, hi;
		int_range(dty, &lo, &hi);
		if (sat)
			n = n < lo ? lo : n > hi ? hi : n;
		return int_wrap(dty, n);
	}
	if (sf) {
		if (ftz && sf == &FS && !(v & 0x7f800000))
			v &= 0x80000000;
		x = x_of(v, sf);
	} else {
		i128 n = int_val(sty, v);
		X t = { n ? K_NUM : K_ZERO, n < 0, 0, (u128)(n < 0 ? -n : n) };
		x = t;
	}
	if (!df) {
		i128 lo, hi, n;
		int_range(dty, &lo, &hi);
		if (x.k == K_NAN)       /* an H200's: 0, or 2^(w-1) (signed: the most negative) where a side has 64 bits */
			return isa_type[dty].bytes < 8 && sf->w < 64 ? 0 : int_wrap(dty, lo ? lo : (hi + 1) / 2);
		if (x.k == K_INF)
			n = x.neg ? lo : hi;
		else {
			X r = xint_round(x, rm);
			if (r.k == K_ZERO)
				n = 0;
			else if (r.exp + msb128(r.sig) > 100)
				n = r.neg ? lo : hi;
			else
				n = (i128)(r.sig << r.exp) * (r.neg ? -1 : 1);
			n = n < lo ? lo : n > hi ? hi : n;
		}
		return int_wrap(dty, n);
	}
	if (irnd)
		x = xint_round(x, rm);
	uint64_t r = x.k == K_NAN ? ref_cvt_nan(df, sf, v) : ref_pack(x, df, rm);
	if (ftz && df == &FS && !(r & 0x7f800000))
		r &= 0x80000000;
	if (sat) {
		X y = x_of(r, df);
		uint64_t one = (uint64_t)bias_of(df) << df->mb;
		if (y.k == K_NAN || y.neg)
			r = 0;
		else if (y.k == K_INF || (y.k == K_NUM && r > one))
			r = one;
	}
	return r;
}

static const char *ty_name(unsigned ty)
{
	return isa_type[ty].name;
}

/* Source values for a cvt test: edges, values at integer boundaries, and
 * random ones. */
static int cvt_inputs(unsigned sty, uint64_t *out, int max)
{
	const Fmt *f = fmt_of(sty);
	int n = 0;

	if (f) {
		n = edges(f, out);
		static const double dv[] = { 0.5, 1.5, 2.5, 0.49999997, 127.5, 128.5, 255.5, 256.0,
			32767.5, 32768.5, 65535.5, 65504, 65520, 65519.99, 2147483647.5,
			2147483648.0, 2147483648.9, 4294967295.5, 4294967296.0,
			9223372036854775808.0, 18446744073709551616.0, 1e30, 3e-39, 1e-8 };
		for (size_t i = 0; i < sizeof dv / sizeof dv[0]; i++)
			for (int s = 0; s < 2; s++) {
				double d = s ? -dv[i] : dv[i];
				uint64_t b;
				memcpy(&b, &d, 8);
				/* d in the source format, rounded to nearest */
				out[n++] = ref_pack(x_of(b, &FD), f, FP_RN);
			}
	} else {
		static const uint64_t iv[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000,
			0xffff, 0x10000, 0xfff0, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
			0x7fffffffffffffffull, 0x8000000000000000ull, 0xffffffffffffffffull,
			0xfffffffffffffffeull, 0xffffffffffffff80ull, 0x20000001, 0x1000001,
			0x1000000000000001ull, 0xffffff7fffffffffull };
		for (size_t i = 0; i < sizeof iv / sizeof iv[0]; i++)
			out[n++] = iv[i];
	}
	while (n < max) {
		uint64_t r = rnd();
		if (f)
			out[n] = (n & 1) ? rnd_val(f) : ref_pack(x_of(r >> (r & 63), &FD), f, FP_RN);
		else
			out[n] = r >> (r & 63);
		n++;
	}
	return n;
}

static void test_cvt_pairs(void)
{
	uint64_t in[256];

	for (size_t di = 0; di < sizeof cvt_tys / sizeof cvt_tys[0]; di++)
		for (size_t si = 0; si < sizeof cvt_tys / sizeof cvt_tys[0]; si++) {
			unsigned dty = cvt_tys[di], sty = cvt_tys[si];
			int n = cvt_inputs(sty, in, 256), bad = 0;
			uint64_t bv = 0, bw = 0, bg = 0;
			int bflags = 0;
			for (int i = 0; i < n; i++)
				for (int fl = 0; fl < 32; fl++) {
					int rm = fl & 3;
					bool irnd = fl & 4, ftz = fl & 8, sat = fl & 16;
					bool ok = false;
					uint64_t v = in[i] & (fmt_of(sty) ? mask_of(fmt_of(sty)) : ~0ull);
					if (!fmt_of(sty) && isa_type[sty].bytes < 8)
						v &= (1ull << (8 * isa_type[sty].bytes)) - 1;
					uint64_t g = fp_cvt(dty, sty, v, rm, irnd, ftz, sat, &ok);
					uint64_t w = ref_cvt(dty, sty, v, rm, irnd, ftz, sat);
					if ((g != w || !ok) && !bad++) {
						bv = v;
						bw = w;
						bg = g;
						bflags = fl;
					}
				}
			if (bad)
				fail("fp: cvt%s%s%s.%s.%s.%s(%#llx): want %#llx, got %#llx (%d wrong)",
				     bflags & 4 ? ".irnd" : "", bflags & 8 ? ".ftz" : "",
				     bflags & 16 ? ".sat" : "", rm_name[bflags & 3], ty_name(dty),
				     ty_name(sty), (unsigned long long)bv, (unsigned long long)bw,
				     (unsigned long long)bg, bad);
			else
				passed++;
		}
}

/* The boundary cases by name, with the value written out by hand. */
static void test_cvt_known(void)
{
	static const struct {
		unsigned d, s;
		int rm;
		bool irnd, ftz, sat;
		uint64_t v, want;
		const char *what;
	} k[] = {
		{ TY_s32, TY_f64, FP_RN, 1, 0, 0, 0x41dfffffffe00000ull, 0x7fffffff, "rni 2147483647.5 -> saturates" },
		{ TY_s32, TY_f64, FP_RZ, 1, 0, 0, 0x41dfffffffe00000ull, 0x7fffffff, "rzi 2147483647.5" },
		{ TY_s32, TY_f64, FP_RZ, 1, 0, 0, 0xc1e00000001ccccdull, 0xffffffff80000000ull, "rzi -2147483648.9 -> INT_MIN" },
		{ TY_s32, TY_f64, FP_RM, 1, 0, 0, 0xc1e00000001ccccdull, 0xffffffff80000000ull, "rmi -2147483648.9 saturates" },
		{ TY_s32, TY_f32, FP_RN, 1, 0, 0, 0x4f000000, 0x7fffffff, "2^31 -> INT_MAX" },
		{ TY_s32, TY_f32, FP_RN, 1, 0, 0, 0xcf000000, 0xffffffff80000000ull, "-2^31 exact" },
		{ TY_s64, TY_f32, FP_RZ, 1, 0, 0, 0x5f000000, 0x7fffffffffffffffull, "2^63 -> s64 max" },
		{ TY_u64, TY_f32, FP_RZ, 1, 0, 0, 0x5f000000, 0x8000000000000000ull, "2^63 -> u64" },
		{ TY_u64, TY_f32, FP_RZ, 1, 0, 0, 0x5f800000, 0xffffffffffffffffull, "2^64 -> u64 max" },
		{ TY_u32, TY_f32, FP_RZ, 1, 0, 0, 0xbf800000, 0, "-1.0 -> u32 0" },
		{ TY_u32, TY_f32, FP_RN, 1, 0, 0, 0xbf000000, 0, "-0.5 rni -> u32 0" },
		{ TY_u32, TY_f32, FP_RM, 1, 0, 0, 0xbf000000, 0, "-0.5 rmi -> -1 -> u32 0" },
		{ TY_s32, TY_f32, FP_RZ, 1, 0, 0, 0x7fc00000, 0, "NaN -> 0" },
		{ TY_s32, TY_f32, FP_RZ, 1, 0, 0, 0x7f800000, 0x7fffffff, "+inf -> INT_MAX" },
		{ TY_s32, TY_f32, FP_RZ, 1, 0, 0, 0xff800000, 0xffffffff80000000ull, "-inf -> INT_MIN" },
		{ TY_u8, TY_f32, FP_RZ, 1, 0, 0, 0x43960000, 0xff, "300.0 -> u8 255" },
		{ TY_s8, TY_f32, FP_RZ, 1, 0, 0, 0xc3480000, 0xffffffffffffff80ull, "-200.0 -> s8 -128" },
		{ TY_s32, TY_f32, FP_RN, 1, 0, 0, 0x40200000, 2, "rni 2.5 -> 2" },
		{ TY_s32, TY_f32, FP_RN, 1, 0, 0, 0x40600000, 4, "rni 3.5 -> 4" },
		{ TY_s32, TY_f32, FP_RP, 1, 0, 0, 0x00000001, 1, "rpi min subnormal -> 1" },
		{ TY_s32, TY_f32, FP_RP, 1, 1, 0, 0x00000001, 0, "rpi.ftz min subnormal -> 0" },
		{ TY_f32, TY_u64, FP_RN, 0, 0, 0, 0xffffffffffffffffull, 0x5f800000, "u64 max -> 2^64 (rn)" },
		{ TY_f32, TY_u64, FP_RZ, 0, 0, 0, 0xffffffffffffffffull, 0x5f7fffff, "u64 max (rz)" },
		{ TY_f64, TY_s64, FP_RN, 0, 0, 0, 0x8000000000000000ull, 0xc3e0000000000000ull, "s64 min exact" },
		{ TY_f32, TY_s32, FP_RN, 0, 0, 0, 0x01000001, 0x4b800000, "2^24+1 ties to even" },
		{ TY_f32, TY_s32, FP_RP, 0, 0, 0, 0x01000001, 0x4b800001, "2^24+1 rp" },
		{ TY_f16, TY_f32, FP_RN, 0, 0, 0, 0x477ff000, 0x7c00, "65520 -> inf (rn)" },
		{ TY_f16, TY_f32, FP_RZ, 0, 0, 0, 0x477ff000, 0x7bff, "65520 -> 65504 (rz)" },
		{ TY_f16, TY_f32, FP_RN, 0, 0, 0, 0x477fefff, 0x7bff, "65519.99 -> 65504" },
		{ TY_f16, TY_f32, FP_RP, 0, 0, 0, 0x477fe001, 0x7c00, "just above 65504 (rp) -> inf" },
		{ TY_f16, TY_f32, FP_RM, 0, 0, 0, 0xc77ff000, 0xfc00, "-65520 (rm) -> -inf" },
		{ TY_f16, TY_u32, FP_RN, 0, 0, 0, 70000, 0x7c00, "70000 -> inf (rn)" },
		{ TY_f16, TY_u32, FP_RZ, 0, 0, 0, 70000, 0x7bff, "70000 -> 65504 (rz)" },
		{ TY_f16, TY_f32, FP_RN, 0, 0, 0, 0x33000000, 0x0000, "2^-25 ties to +0" },
		{ TY_f16, TY_f32, FP_RN, 0, 0, 0, 0x33000001, 0x0001, "just above 2^-25" },
		{ TY_f16, TY_f32, FP_RN, 0, 0, 0, 0x7fc12345, 0x7fff, "NaN -> canonical f16 NaN" },
		{ TY_f32, TY_f16, FP_RN, 0, 0, 0, 0xfe01, 0x7fffffff, "f16 NaN -> canonical f32 NaN" },
		{ TY_bf16, TY_f32, FP_RN, 0, 0, 0, 0x3f808000, 0x3f80, "bf16 tie to even" },
		{ TY_bf16, TY_f32, FP_RN, 0, 0, 0, 0x3f818000, 0x3f82, "bf16 tie up to even" },
		{ TY_f32, TY_f64, FP_RN, 0, 0, 0, 0x3690000000000000ull, 0x00000000, "2^-150 ties to +0" },
		{ TY_f32, TY_f64, FP_RN, 0, 1, 0, 0x3800000000000000ull, 0, "ftz: 2^-127 result flushed" },
		{ TY_f32, TY_f32, FP_RN, 0, 1, 0, 0x807fffff, 0x80000000, "ftz keeps the sign" },
		{ TY_f32, TY_f32, FP_RN, 0, 0, 1, 0x3fc00000, 0x3f800000, "sat 1.5 -> 1.0" },
		{ TY_f32, TY_f32, FP_RN, 0, 0, 1, 0x80000000, 0x00000000, "sat -0.0 -> +0.0" },
		{ TY_f32, TY_f32, FP_RN, 0, 0, 1, 0x7fc00000, 0x00000000, "sat NaN -> +0.0" },
		{ TY_f32, TY_s32, FP_RN, 0, 0, 1, 0xfffffffe, 0x00000000, "sat -2 -> +0.0" },
		{ TY_f32, TY_f32, FP_RN, 1, 0, 0, 0x40200000, 0x40000000, "rni.f32.f32 2.5 -> 2.0" },
		{ TY_f32, TY_f32, FP_RZ, 1, 0, 0, 0xbe99999a, 0x80000000, "rzi -0.3 -> -0.0" },
		{ TY_f64, TY_f64, FP_RM, 1, 0, 0, 0xbfe0000000000000ull, 0xbff0000000000000ull, "rmi -0.5 -> -1.0" },
		{ TY_f64, TY_f64, FP_RP, 1, 0, 0, 0x4330000000000001ull, 0x4330000000000001ull, "rpi 2^52+1 exact" },
		{ TY_u16, TY_s8, FP_RN, 0, 0, 0, 0xff, 0xffff, "u16.s8 -1 sign-extends" },
		{ TY_s32, TY_u16, FP_RN, 0, 0, 0, 0xffff, 0xffff, "s32.u16 zero-extends" },
		{ TY_u32, TY_s32, FP_RN, 0, 0, 1, 0xfffffffb, 0, "sat.u32.s32 -5 -> 0" },
		{ TY_s32, TY_u32, FP_RN, 0, 0, 1, 0xffffffff, 0x7fffffff, "sat.s32.u32 -> INT_MAX" },
		{ TY_s16, TY_u32, FP_RN, 0, 0, 0, 0x18000, 0xffffffffffff8000ull, "s16.u32 truncates" },
		{ TY_s8, TY_s32, FP_RN, 0, 0, 1, 300, 127, "sat.s8.s32 300" },
		{ TY_u8, TY_s64, FP_RN, 0, 0, 1, 0xffffffffffffffffull, 0, "sat.u8.s64 -1" },
		{ TY_u64, TY_s32, FP_RN, 0, 0, 0, 0xffffffff, 0xffffffffffffffffull, "u64.s32 -1" },
		{ TY_s64, TY_u64, FP_RN, 0, 0, 1, 0x8000000000000000ull, 0x7fffffffffffffffull, "sat.s64.u64" },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		bool ok = false;
		uint64_t g = fp_cvt(k[i].d, k[i].s, k[i].v, k[i].rm, k[i].irnd, k[i].ftz, k[i].sat, &ok);
		uint64_t w = ref_cvt(k[i].d, k[i].s, k[i].v, k[i].rm, k[i].irnd, k[i].ftz, k[i].sat);
		if (g != k[i].want || w != k[i].want || !ok)
			fail("fp: cvt.%s.%s.%s(%#llx) [%s]: want %#llx, reference %#llx, got %#llx",
			     rm_name[k[i].rm], ty_name(k[i].d), ty_name(k[i].s),
			     (unsigned long long)k[i].v, k[i].what, (unsigned long long)k[i].want,
			     (unsigned long long)w, (unsigned long long)g);
		else
			passed++;
	}
	/* pairs cvt does not convert */
	static const unsigned no[][2] = { { TY_b32, TY_f32 }, { TY_f32, TY_b32 }, { TY_f16x2, TY_f32 },
					  { TY_tf32, TY_f32 }, { TY_pred, TY_u32 }, { TY_f32, TY_e4m3x2 } };
	int bad = 0;
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
		bool ok = true;
		fp_cvt(no[i][0], no[i][1], 0, FP_RN, false, false, false, &ok);
		bad += ok;
	}
	if (bad)
		fail("fp: cvt accepted %d pairs PTX does not convert", bad);
	else
		passed++;
}

/* ---- min, max, comparisons, testp ---------------------------------------------- */
static int is_nan(uint64_t b, const Fmt *f) { return x_of(b, f).k == K_NAN; }

/* order of non-NaN bit patterns with -0 < +0 */
static int64_t key_signed0(uint64_t b, const Fmt *f)
{
	uint64_t mag = b & (sbit_of(f) - 1);
	return (b & sbit_of(f)) ? -(int64_t)mag - 1 : (int64_t)mag;
}

/* order of non-NaN bit patterns with -0 == +0 */
static int64_t key_value(uint64_t b, const Fmt *f)
{
	uint64_t mag = b & (sbit_of(f) - 1);
	return (b & sbit_of(f)) ? -(int64_t)mag : (int64_t)mag;
}

static uint64_t lib_minmax(const Fmt *f, int max, uint64_t a, uint64_t b, bool np)
{
	if (f == &FS)
		return max ? f32_max((uint32_t)a, (uint32_t)b, np) : f32_min((uint32_t)a, (uint32_t)b, np);
	if (f == &FD)
		return max ? f64_max(a, b, np) : f64_min(a, b, np);
	if (f == &FH)
		return max ? f16_max((uint16_t)a, (uint16_t)b, np) : f16_min((uint16_t)a, (uint16_t)b, np);
	return max ? bf16_max((uint16_t)a, (uint16_t)b, np) : bf16_min((uint16_t)a, (uint16_t)b, np);
}

static int lib_cmp(const Fmt *f, uint64_t a, uint64_t b, int c)
{
	if (f == &FS)
		return f32_cmp((uint32_t)a, (uint32_t)b, c);
	if (f == &FD)
		return f64_cmp(a, b, c);
	if (f == &FH)
		return f16_cmp((uint16_t)a, (uint16_t)b, c);
	return bf16_cmp((uint16_t)a, (uint16_t)b, c);
}

static void test_minmax_cmp(void)
{
	static const Fmt *const fmts[] = { &FH, &FB, &FS, &FD };
	static const char *const cmpn[] = { "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
					    "ltu", "leu", "gtu", "geu", "num", "nan" };
	uint64_t eg[64];

	for (int fi = 0; fi < 4; fi++) {
		const Fmt *f = fmts[fi];
		int ne = edges(f, eg);
		for (int mm = 0; mm < 4; mm++) {
			int max = mm & 1, bad = 0;
			bool np = mm & 2;
			uint64_t ba = 0, bb = 0, bw = 0, bg = 0;
			for (int i = 0; i < ne * ne + 20000; i++) {
				uint64_t a = i < ne * ne ? eg[i / ne] : rnd_val(f);
				uint64_t b = i < ne * ne ? eg[i % ne] : (i & 1) ? partner(a, f) : rnd_val(f);
				uint64_t w;
				int na = is_nan(a, f), nb = is_nan(b, f);
				if (f == &FD && (na || nb) && (np || (na && nb)))
					w = (nb ? b : a) | 0x0008000000000000ull;  /* b's, quieted */
				else if ((na && nb) || (np && (na || nb)))
					w = f->cnan;
				else if (na || nb)
					w = na ? b : a;
				else if (max)
					w = key_signed0(a, f) >= key_signed0(b, f) ? a : b;
				else
					w = key_signed0(a, f) <= key_signed0(b, f) ? a : b;
				uint64_t g = lib_minmax(f, max, a, b, np);
				if (g != w && !bad++) {
					ba = a; bb = b; bw = w; bg = g;
				}
			}
			if (bad)
				fail("fp: %s%s.%s(%#llx, %#llx): want %#llx, got %#llx (%d wrong)",
				     max ? "max" : "min", np ? ".NaN" : "", f->name,
				     (unsigned long long)ba, (unsigned long long)bb,
				     (unsigned long long)bw, (unsigned long long)bg, bad);
			else
				passed++;
		}
		for (int c = FC_EQ; c <= FC_NAN; c++) {
			int bad = 0;
			uint64_t ba = 0, bb = 0;
			for (int i = 0; i < ne * ne + 20000; i++) {
				uint64_t a = i < ne * ne ? eg[i / ne] : rnd_val(f);
				uint64_t b = i < ne * ne ? eg[i % ne] : (i & 1) ? partner(a, f) : rnd_val(f);
				int un = is_nan(a, f) || is_nan(b, f);
				int64_t ka = un ? 0 : key_value(a, f), kb = un ? 0 : key_value(b, f);
				int lt = !un && ka < kb, eq = !un && ka == kb, gt = !un && ka > kb, w = 0;
				switch (c) {
				case FC_EQ: w = eq; break;
				case FC_NE: w = lt || gt; break;
				case FC_LT: w = lt; break;
				case FC_LE: w = lt || eq; break;
				case FC_GT: w = gt; break;
				case FC_GE: w = gt || eq; break;
				case FC_EQU: w = un || eq; break;
				case FC_NEU: w = un || lt || gt; break;
				case FC_LTU: w = un || lt; break;
				case FC_LEU: w = un || lt || eq; break;
				case FC_GTU: w = un || gt; break;
				case FC_GEU: w = un || gt || eq; break;
				case FC_NUM: w = !un; break;
				case FC_NAN: w = un; break;
				}
				if (lib_cmp(f, a, b, c) != w && !bad++) {
					ba = a;
					bb = b;
				}
			}
			if (bad)
				fail("fp: setp.%s.%s(%#llx, %#llx) wrong (%d inputs)", cmpn[c], f->name,
				     (unsigned long long)ba, (unsigned long long)bb, bad);
			else
				passed++;
		}
	}

	/* the documented corner: min(-0, +0) = -0 and max = +0, either order */
	if (f32_min(0, 0x80000000, false) != 0x80000000 || f32_min(0x80000000, 0, false) != 0x80000000 ||
	    f32_max(0, 0x80000000, false) != 0 || f32_max(0x80000000, 0, false) != 0 ||
	    f32_min(0x7fc00001, 0x3f800000, false) != 0x3f800000 ||
	    f32_min(0x7fc00001, 0x3f800000, true) != 0x7fffffff ||
	    f32_max(0x7fc00001, 0xffc00002, false) != 0x7fffffff)
		fail("fp: min/max of signed zeros or NaNs");
	else
		passed++;
}

static void test_testp(void)
{
	static const struct { uint64_t v; int f64; int cls[6]; } k[] = {
		/*                              fin inf num nan nrm sub */
		{ 0x00000000, 0,             { 1, 0, 1, 0, 1, 0 } },
		{ 0x80000000, 0,             { 1, 0, 1, 0, 1, 0 } },
		{ 0x00000001, 0,             { 1, 0, 1, 0, 0, 1 } },
		{ 0x807fffff, 0,             { 1, 0, 1, 0, 0, 1 } },
		{ 0x00800000, 0,             { 1, 0, 1, 0, 1, 0 } },
		{ 0x7f7fffff, 0,             { 1, 0, 1, 0, 1, 0 } },
		{ 0xff800000, 0,             { 0, 1, 1, 0, 0, 0 } },
		{ 0x7fc00000, 0,             { 0, 0, 0, 1, 0, 0 } },
		{ 0xff800001, 0,             { 0, 0, 0, 1, 0, 0 } },
		{ 0x8000000000000000ull, 1,  { 1, 0, 1, 0, 1, 0 } },
		{ 0x000fffffffffffffull, 1,  { 1, 0, 1, 0, 0, 1 } },
		{ 0x0010000000000000ull, 1,  { 1, 0, 1, 0, 1, 0 } },
		{ 0x7ff0000000000000ull, 1,  { 0, 1, 1, 0, 0, 0 } },
		{ 0xfff8000000000000ull, 1,  { 0, 0, 0, 1, 0, 0 } },
		{ 0x7ff0000000000001ull, 1,  { 0, 0, 0, 1, 0, 0 } },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		for (int c = 0; c < 6; c++) {
			int g = k[i].f64 ? f64_testp(k[i].v, c) : f32_testp((uint32_t)k[i].v, c);
			if (g != k[i].cls[c]) {
				fail("fp: testp class %d of %#llx: want %d, got %d", c,
				     (unsigned long long)k[i].v, k[i].cls[c], g);
				bad++;
			}
		}
	if (!bad)
		passed++;
}

static void test_bits(void)
{
	static const struct { uint32_t in, sat; } s[] = {
		{ 0x3f000000, 0x3f000000 }, { 0x3f800000, 0x3f800000 }, { 0x3f800001, 0x3f800000 },
		{ 0x7f800000, 0x3f800000 }, { 0xff800000, 0 }, { 0x80000000, 0 }, { 0xbf800000, 0 },
		{ 0x7fffffff, 0 }, { 0xffc00000, 0 }, { 0x00000001, 0x00000001 },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
		if (f32_sat(s[i].in) != s[i].sat) {
			fail("fp: sat.f32(%#x): want %#x, got %#x", s[i].in, s[i].sat, f32_sat(s[i].in));
			bad++;
		}
	if (f16_sat(0x3c01) != 0x3c00 || f16_sat(0xfc00) != 0 || bf16_sat(0x7fc1) != 0 ||
	    f64_sat(0x4000000000000000ull) != 0x3ff0000000000000ull)
		fail("fp: sat of f16/bf16/f64"), bad++;
	/* copysign.f32 d, a, b takes a's sign onto b; NaN payloads are kept */
	if (f32_copysign(0x80000000, 0x3f800000) != 0xbf800000 ||
	    f32_copysign(0x3f800000, 0x80000000) != 0x00000000 ||
	    f32_copysign(0x80000000, 0x7fc01234) != 0xffc01234 ||
	    f64_copysign(0x8000000000000000ull, 0x4000000000000000ull) != 0xc000000000000000ull)
		fail("fp: copysign operand order or payload"), bad++;
	if (f32_ftz(0x807fffff) != 0x80000000 || f32_ftz(0x00800000) != 0x00800000 ||
	    f64_ftz(1) != 0 || f16_ftz(0x83ff) != 0x8000 || f16_ftz(0x0400) != 0x0400 ||
	    bf16_ftz(0x007f) != 0)
		fail("fp: ftz"), bad++;
	if (!bad)
		passed++;
}

/* ---- approximate functions ------------------------------------------------------- */
/* the f32 ulp at |v| (subnormal spacing below 2^-126) */
static double ulp32(double v)
{
	int e;
	frexp(fabs(v), &e);
	return ldexp(1.0, (e - 1 < -126 ? -126 : e - 1) - 23);
}

typedef uint32_t (*Approx)(uint32_t, bool);
enum { B_ULP, B_ABS, B_REL, B_EX2 };

/* fn against ref over n inputs from gen; the error bound of kind bk */
static void check_approx(const char *name, Approx fn, double (*ref)(double), bool ftz,
			 float lo, float hi, int bk, double bound)
{
	int bad = 0;
	float bx = 0, bgot = 0;
	double bref = 0;
	for (int i = 0; i < 40000; i++) {
		float x = i < 20000 ? lo + (hi - lo) * (float)i / 20000
			: lo + (hi - lo) * (float)((double)(rnd() >> 11) * 0x1p-53);
		if (ftz && !(bitsf(x) & 0x7f800000))
			continue;
		double r = ref(x);
		float g = fbits(fn(bitsf(x), ftz));
		double err = fabs((double)g - r), lim;
		if (ftz && fabs(r) < 0x1p-126)  /* flushed or not, within a subnormal */
			r = 0, err = fabs(g), lim = 0x1p-126;
		else if (bk == B_ULP)
			lim = bound * ulp32(r);
		else if (bk == B_EX2)
			lim = (2 + floor(fabs(1.16 * x))) * ulp32(r);
		else if (bk == B_ABS)
			lim = fmax(bound, ulp32(r));    /* the bound is on the mantissa part */
		else
			lim = bound * fabs(r) + 0x1p-149;
		if (fabs(r) >= 0x1.ffffffp127) {       /* overflows f32 */
			if (!(isinf(g) && (g < 0) == (r < 0)) && !bad++) {
				bx = x;
				bgot = g;
				bref = r;
			}
			continue;
		}
		if (!(err <= lim) && !bad++) {
			bx = x;
			bgot = g;
			bref = r;
		}
	}
	if (bad)
		fail("fp: %s%s(%a = %#x): got %a, exact %a (%d outside the bound)", name,
		     ftz ? ".ftz" : "", bx, bitsf(bx), bgot, bref, bad);
	else
		passed++;
}

static double r_ex2(double x) { return exp2(x); }
static double r_lg2(double x) { return log2(x); }
static double r_rsqrt(double x) { return 1 / sqrt(x); }
static double r_rcp(double x) { return 1 / x; }

static void test_approx(void)
{
	for (int z = 0; z < 2; z++) {
		bool ftz = z;
		check_approx("ex2.approx.f32", f32_ex2_approx, r_ex2, ftz, -152, 129, B_EX2, 0);
		check_approx("ex2.approx.f32", f32_ex2_approx, r_ex2, ftz, -1, 1, B_EX2, 0);
		check_approx("lg2.approx.f32", f32_lg2_approx, r_lg2, ftz, 0x1p-149f, 4, B_ABS, exp2(-22.6));
		check_approx("lg2.approx.f32", f32_lg2_approx, r_lg2, ftz, 1, 3e38f, B_ABS, exp2(-22.6));
		check_approx("sin.approx.f32", f32_sin_approx, sin, ftz, -100 * M_PI, 100 * M_PI, B_ABS, exp2(-20.9));
		check_approx("cos.approx.f32", f32_cos_approx, cos, ftz, -100 * M_PI, 100 * M_PI, B_ABS, exp2(-20.9));
		check_approx("rsqrt.approx.f32", f32_rsqrt_approx, r_rsqrt, ftz, 0x1p-149f, 8, B_REL, exp2(-22.9));
		check_approx("rsqrt.approx.f32", f32_rsqrt_approx, r_rsqrt, ftz, 8, 3e38f, B_REL, exp2(-22.9));
		check_approx("rcp.approx.f32", f32_rcp_approx, r_rcp, ftz, -4, 4, B_ULP, 1);
		check_approx("rcp.approx.f32", f32_rcp_approx, r_rcp, ftz, 1e30f, 3e38f, B_ULP, 1);
		check_approx("sqrt.approx.f32", f32_sqrt_approx, sqrt, ftz, 0, 3e38f, B_REL, 0x1p-23);
		check_approx("sqrt.approx.f32", f32_sqrt_approx, sqrt, ftz, 0, 0x1p-120f, B_REL, 0x1p-23);
		check_approx("tanh.approx.f32", f32_tanh_approx, tanh, ftz, -12, 12, B_REL, exp2(-10.987));
	}

	/* div.approx and div.full: 2 ulp for |b| in [2^-126, 2^126] */
	int bad = 0;
	for (int i = 0; i < 100000; i++) {
		uint32_t a = (uint32_t)rnd_val(&FS), b = (uint32_t)rnd_val(&FS);
		float fa = fbits(a), fb = fbits(b);
		double q = (double)fa / fb;
		if (isnan(fa) || isnan(fb) || fabsf(fb) < 0x1p-126f || fabsf(fb) > 0x1p126f ||
		    isinf(fa) || fabs(q) > 0x1.fffffep127 || fabs(q) < 0x1p-126)
			continue;
		for (int full = 0; full < 2; full++) {
			if (!full && fabs(q) > 0x1p127)  /* a * (1/b) may overflow */
				continue;
			float g = fbits(full ? f32_div_full(a, b, false) : f32_div_approx(a, b, false));
			if (!(fabs(g - q) <= 2 * ulp32(q)) && !bad++)
				fail("fp: div.%s.f32(%#x, %#x): got %a, exact %a", full ? "full" : "approx",
				     a, b, g, q);
		}
	}
	/* the documented huge-divisor behaviour: 0 for finite a, NaN for inf */
	if (f32_div_approx(0x3f800000, 0x7f000000, false) != 0 ||
	    f32_div_approx(0x7f000000, 0x7f400000, false) != 0 ||
	    f32_div_approx(0xbf800000, 0x7f000000, false) != 0x80000000 ||
	    f32_div_approx(0x7f800000, 0x7f000000, false) != 0x7fffffff ||
	    f32_div_approx(0x40000000, 0x7e800000, false) != 0x01000000)
		fail("fp: div.approx.f32 for 2^126 < |b| < 2^128"), bad++;
	if (!bad)
		passed++;

	/* f64 rcp / rsqrt approximations: within 1 ulp of f64 */
	bad = 0;
	for (int i = 0; i < 100000; i++) {
		uint64_t a = rnd_val(&FD);
		double x, g;
		memcpy(&x, &a, 8);
		if (!isfinite(x) || x == 0 || fabs(x) < 0x1p-1022)
			continue;
		long double r = 1.0L / x, rs = 1.0L / sqrtl(fabsl((long double)x));
		uint64_t gb = f64_rcp_approx_ftz(a);
		memcpy(&g, &gb, 8);
		if (fabsl(g - r) > fabsl(r) * 0x1p-52L && fabsl(r) > 0x1p-1022L && !bad++)
			fail("fp: rcp.approx.ftz.f64(%#llx): got %a", (unsigned long long)a, g);
		gb = f64_rsqrt_approx(a & ~(1ull << 63), false);
		memcpy(&g, &gb, 8);
		if (fabsl(g - rs) > rs * 0x1p-52L && !bad++)
			fail("fp: rsqrt.approx.f64(%#llx): got %a", (unsigned long long)a, g);
	}
	if (!bad)
		passed++;

	/* half-precision ex2 and tanh, every input */
	bad = 0;
	for (uint32_t h = 0; h < 65536; h++) {
		double xh = f16_to_f32((uint16_t)h), xb = bf16_to_f32((uint16_t)h);
		struct { double got, want, rel; bool fl; const char *n; } c[4] = {
			{ f16_to_f32(f16_ex2_approx((uint16_t)h)), exp2(xh), exp2(-9.9), false, "ex2.approx.f16" },
			{ f16_to_f32(f16_tanh_approx((uint16_t)h)), tanh(xh), exp2(-10.987), false, "tanh.approx.f16" },
			{ bf16_to_f32(bf16_ex2_approx((uint16_t)h)),
			  exp2(fabs(xb) < 0x1p-126 ? 0 : xb), 0x1p-7, true, "ex2.approx.ftz.bf16" },
			{ bf16_to_f32(bf16_tanh_approx((uint16_t)h)), tanh(xb), 0x1p-8, false, "tanh.approx.bf16" },
		};
		for (int j = 0; j < 4; j++) {
			double w = c[j].want, g = c[j].got;
			bool inrange = j < 2 ? fabs(w) < 65520 : fabs(w) < 0x1.ffp127;
			double tiny = j < 2 ? 0x1p-24 : 0x1p-126;   /* subnormal / flush range */
			if (isnan(w) ? !isnan(g) : !inrange ? !isinf(g)
			    : !(fabs(g - w) <= c[j].rel * fabs(w) + tiny)) {
				if (!bad++)
					fail("fp: %s(%#x): got %a, exact %a", c[j].n, h, g, w);
			}
		}
	}
	if (!bad)
		passed++;

	/* special values, exact */
	static const struct { const char *n; Approx fn; uint32_t in, want; } sp[] = {
		{ "ex2(-inf)", f32_ex2_approx, 0xff800000, 0x00000000 },
		{ "ex2(+inf)", f32_ex2_approx, 0x7f800000, 0x7f800000 },
		{ "ex2(-0)", f32_ex2_approx, 0x80000000, 0x3f800000 },
		{ "ex2(NaN)", f32_ex2_approx, 0x7fc01234, 0x7fffffff },
		{ "lg2(+0)", f32_lg2_approx, 0x00000000, 0xff800000 },
		{ "lg2(-0)", f32_lg2_approx, 0x80000000, 0xff800000 },
		{ "lg2(-1)", f32_lg2_approx, 0xbf800000, 0x7fffffff },
		{ "lg2(+inf)", f32_lg2_approx, 0x7f800000, 0x7f800000 },
		{ "lg2(1)", f32_lg2_approx, 0x3f800000, 0x00000000 },
		{ "sin(inf)", f32_sin_approx, 0x7f800000, 0x7fffffff },
		{ "sin(-0)", f32_sin_approx, 0x80000000, 0x80000000 },
		{ "cos(-inf)", f32_cos_approx, 0xff800000, 0x7fffffff },
		{ "cos(0)", f32_cos_approx, 0x00000000, 0x3f800000 },
		{ "rsqrt(-0)", f32_rsqrt_approx, 0x80000000, 0xff800000 },
		{ "rsqrt(+0)", f32_rsqrt_approx, 0x00000000, 0x7f800000 },
		{ "rsqrt(+inf)", f32_rsqrt_approx, 0x7f800000, 0x00000000 },
		{ "rsqrt(-1)", f32_rsqrt_approx, 0xbf800000, 0x7fffffff },
		{ "rsqrt(4)", f32_rsqrt_approx, 0x40800000, 0x3f000000 },
		{ "rcp(-0)", f32_rcp_approx, 0x80000000, 0xff800000 },
		{ "rcp(-inf)", f32_rcp_approx, 0xff800000, 0x80000000 },
		{ "sqrt(-0)", f32_sqrt_approx, 0x80000000, 0x80000000 },
		{ "sqrt(-1)", f32_sqrt_approx, 0xbf800000, 0x7fffffff },
		{ "sqrt(+inf)", f32_sqrt_approx, 0x7f800000, 0x7f800000 },
		{ "tanh(+inf)", f32_tanh_approx, 0x7f800000, 0x3f800000 },
		{ "tanh(-inf)", f32_tanh_approx, 0xff800000, 0xbf800000 },
		{ "tanh(-0)", f32_tanh_approx, 0x80000000, 0x80000000 },
	};
	bad = 0;
	for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) {
		uint32_t g = sp[i].fn(sp[i].in, false);
		if (g != sp[i].want && ++bad)
			fail("fp: %s: want %#x, got %#x", sp[i].n, sp[i].want, g);
	}
	/* ftz: subnormal in -> as zero; subnormal out -> zero */
	if (f32_rcp_approx(0x00000001, true) != 0x7f800000 ||
	    f32_rsqrt_approx(0x80000001, true) != 0xff800000 ||
	    f32_lg2_approx(0x00000001, true) != 0xff800000 ||
	    f32_ex2_approx(0xc3000000, true) != 0 ||           /* 2^-128 flushed */
	    f32_ex2_approx(0xc3000000, false) != 0x00200000 ||
	    f64_rcp_approx_ftz(1) != 0x7ff0000000000000ull ||
	    f16_ex2_approx(0xfc00) != 0 || bf16_ex2_approx(0xc300) != 0 ||
	    f16_tanh_approx(0x7c00) != 0x3c00 || f16_ex2_approx(0x7e01) != 0x7fff)
		fail("fp: ftz/special cases of the approximate functions"), bad++;
	if (!bad)
		passed++;
}

void test_fp(const char *root)
{
	(void)root;
	isa_init();
	check_known();
	test_arith();
	test_half_conv();
	test_cvt_pairs();
	test_cvt_known();
	test_minmax_cmp();
	test_testp();
	test_bits();
	test_approx();
}
