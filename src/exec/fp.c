/* fp.c: the floating-point semantics of PTX (see fp.h), bit-exact.
 *
 * Three techniques, each used where it is exact:
 *
 *  - f16, bf16 and f32 results: the operation is done in double, where it
 *    is exact (products, f16 sums) or where its exact error is available
 *    (TwoSum for sums, an fma residual for quotients and roots).  The double
 *    result plus the sign of its error is then rounded once, in integer
 *    arithmetic, by round_pack().  This is a single rounding of the exact
 *    value: every rounding boundary of the narrower format is a double, so
 *    "s nudged a quarter ulp towards the error" sits on the same side of
 *    every boundary as the exact value does.
 *  - f64 results: the host's own IEEE arithmetic under fesetround(), the
 *    operands and result passed through volatile so that gcc, which does not
 *    honour FENV_ACCESS, can neither fold nor move the operation across the
 *    mode switch.  The mode is restored before returning.
 *  - approximate functions: libm in double, rounded to the format.
 *
 * NaN results are the canonical NaNs of fp.h.
 */
#include "fp.h"
#include "../isa/isa.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* ---- bits ---------------------------------------------------------------- */
static inline float f_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline double d_of(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint32_t bits_f(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline uint64_t bits_d(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* A format: eb exponent bits, mb fraction bits. */
#define F16_  5, 10
#define BF16_ 8, 7
#define F32_  8, 23
#define F64_  11, 52

static inline uint64_t inf_bits(int eb, int mb)
{
	return (uint64_t)((1u << eb) - 1) << mb;
}

/* ---- rounding ------------------------------------------------------------ */
/* sig / 2^sh (sh >= 1) rounded to an integer in rm, for a value of the
 * given sign (the magnitude is rounded; the sign steers RM and RP). */
static uint64_t shift_round(uint64_t sig, int sh, int sign, int rm)
{
	uint64_t q, rem;
	bool gt, eq;            /* remainder above / at half the last unit */

	if (sh < 64) {
		uint64_t half = 1ull << (sh - 1);
		q = sig >> sh;
		rem = sig & ((half << 1) - 1);
		gt = rem > half;
		eq = rem == half;
	} else {                /* everything is below the last unit */
		q = 0;
		rem = sig;
		gt = sh == 64 && rem > 1ull << 63;
		eq = sh == 64 && rem == 1ull << 63;
	}
	if (!rem)
		return q;
	switch (rm) {
	case FP_RN: return q + (gt || (eq && (q & 1)));
	case FP_RNA: return q + (gt || eq);
	case FP_RM: return q + (sign != 0);
	case FP_RP: return q + (sign == 0);
	default:    return q;
	}
}

/* (-1)^sign * sig * 2^exp (sig != 0) rounded into the format (eb, mb).  An
 * inexact caller folds what it dropped into a low sticky bit of sig, below
 * every rounding position of the format. */
static uint64_t round_pack(int sign, int exp, uint64_t sig, int eb, int mb, int rm)
{
	int bias = (1 << (eb - 1)) - 1;
	int e = exp + 63 - __builtin_clzll(sig);        /* value in [2^e, 2^e+1) */
	uint64_t sbit = (uint64_t)sign << (eb + mb);
	uint64_t inf = inf_bits(eb, mb), m, bits;

	if (e <= bias) {
		/* q: the exponent of the last kept bit, emin - mb for subnormals */
		int q = (e < 1 - bias ? 1 - bias : e) - mb;
		int sh = q - exp;
		m = sh <= 0 ? sig << -sh : shift_round(sig, sh, sign, rm);
		/* m holds the hidden bit of a normal, so the field is one short;
		 * a carry out of rounding moves into the exponent by itself, and
		 * a subnormal rounding up to 2^mb becomes the smallest normal. */
		bits = e < 1 - bias ? m : ((uint64_t)(q + mb + bias - 1) << mb) + m;
		if (bits < inf)
			return sbit | bits;
	}
	/* overflow: infinity, or the largest finite value when rounding towards zero */
	if (rm == FP_RZ || (rm == FP_RM && !sign) || (rm == FP_RP && sign))
		return sbit | (inf - 1);
	return sbit | inf;
}

/* The value s + err, where s is a double and err is the exact error of s
 * (|err| <= half an ulp of s, or 0), rounded once into (eb, mb). */
static uint64_t from_d(double s, double err, int eb, int mb, int rm, uint64_t cnan)
{
	uint64_t b = bits_d(s);
	int sign = b >> 63;
	uint64_t sbit = (uint64_t)sign << (eb + mb);

	if (s != s)
		return cnan;
	if (isinf(s))
		return sbit | inf_bits(eb, mb);
	if (s == 0)
		return sbit;
	int ex = (b >> 52) & 0x7ff;
	uint64_t sig = b & ((1ull << 52) - 1);
	int exp;
	if (ex) {
		sig |= 1ull << 52;
		exp = ex - 1075;
	} else {
		exp = -1074;
	}
	if (err != 0) {         /* a quarter ulp towards the exact value */
		sig = (sig << 2) + ((signbit(err) != 0) == sign ? 1 : (uint64_t)-1);
		exp -= 2;
	}
	return round_pack(sign, exp, sig, eb, mb, rm);
}

/* The exact error of s = x + y (TwoSum; no overflow here). */
static inline double sum_err(double x, double y, double s)
{
	double yy = s - x;
	return (x - (s - yy)) + (y - yy);
}

/* The sign of an exact zero x + y: -0 only for -0 + -0, or in RM. */
static inline int zero_sign(double x, double y, int rm)
{
	if (x == 0 && y == 0 && (signbit(x) != 0) == (signbit(y) != 0))
		return signbit(x) != 0;
	return rm == FP_RM;
}

/* x + y for doubles holding values of a narrower format */
static uint64_t add_d(double x, double y, int eb, int mb, int rm, uint64_t cnan)
{
	double s = x + y;

	if (s == 0)
		return (uint64_t)zero_sign(x, y, rm) << (eb + mb);
	if (!isfinite(s))
		return from_d(s, 0, eb, mb, rm, cnan);
	return from_d(s, sum_err(x, y, s), eb, mb, rm, cnan);
}

/* x * y + z; x * y is exact in double for f16, bf16 and f32 operands */
static uint64_t fma_d(double x, double y, double z, int eb, int mb, int rm, uint64_t cnan)
{
	double p = x * y;

	if (!isfinite(p) || !isfinite(z))
		return from_d(p + z, 0, eb, mb, rm, cnan);
	return add_d(p, z, eb, mb, rm, cnan);
}

/* ---- f32 ------------------------------------------------------------------ */
#define R32(call) ((uint32_t)(call))

uint32_t f32_add(uint32_t a, uint32_t b, int rm)
{
	return R32(add_d(f_of(a), f_of(b), F32_, rm, FP_F32_CNAN));
}

uint32_t f32_sub(uint32_t a, uint32_t b, int rm)
{
	return R32(add_d(f_of(a), -(double)f_of(b), F32_, rm, FP_F32_CNAN));
}

uint32_t f32_mul(uint32_t a, uint32_t b, int rm)
{
	return R32(from_d((double)f_of(a) * f_of(b), 0, F32_, rm, FP_F32_CNAN));
}

uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, int rm)
{
	return R32(fma_d(f_of(a), f_of(b), f_of(c), F32_, rm, FP_F32_CNAN));
}

/* q = RN(x / y); the residual x - q*y is exact in double for f32 operands
 * (it is a multiple of about 2^-500), and its sign, times y's, is the side
 * of q on which x / y lies. */
uint32_t f32_div(uint32_t a, uint32_t b, int rm)
{
	double x = f_of(a), y = f_of(b), q = x / y;

	if (!isfinite(q) || q == 0)
		return R32(from_d(q, 0, F32_, rm, FP_F32_CNAN));
	double r = fma(-q, y, x);
	return R32(from_d(q, y < 0 ? -r : r, F32_, rm, FP_F32_CNAN));
}

uint32_t f32_sqrt(uint32_t a, int rm)
{
	double x = f_of(a), s = sqrt(x);

	if (!isfinite(s) || s == 0)
		return R32(from_d(s, 0, F32_, rm, FP_F32_CNAN));
	return R32(from_d(s, fma(-s, s, x), F32_, rm, FP_F32_CNAN));
}

uint32_t f32_rcp(uint32_t a, int rm)
{
	return f32_div(0x3f800000u, a, rm);
}

/* ---- f64: the host's arithmetic in the requested mode --------------------- */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FMA, OP_SQRT };
static const int fe_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static uint64_t f64_op(int op, uint64_t a, uint64_t b, uint64_t c, int rm)
{
	volatile double x = d_of(a), y = d_of(b), z = d_of(c);
	volatile double r = 0;
	int old = FE_TONEAREST;

	if (rm != FP_RN) {
		old = fegetround();
		fesetround(fe_mode[rm & 3]);
	}
	switch (op) {
	case OP_ADD:  r = x + y; break;
	case OP_SUB:  r = x - y; break;
	case OP_MUL:  r = x * y; break;
	case OP_DIV:  r = x / y; break;
	case OP_FMA:  r = fma(x, y, z); break;
	case OP_SQRT: r = sqrt(x); break;
	}
	if (rm != FP_RN)
		fesetround(old);
	double d = r;
	if (d == d)
		return bits_d(d);
	switch (op) {
	case OP_FMA:  return f64_nan(b, c, a);
	case OP_DIV:  return f64_nan(a, b, 0);
	case OP_SQRT: return f64_nan(a, 0, 0);
	default:      return f64_nan(b, a, 0);
	}
}

static inline bool nan64(uint64_t x) { return (x & ~(1ull << 63)) > 0x7ff0000000000000ull; }

uint64_t f64_nan(uint64_t p, uint64_t q, uint64_t r)
{
	const uint64_t quiet = 1ull << 51;
	if (nan64(p))
		return p | quiet;
	if (nan64(q))
		return q | quiet;
	if (nan64(r))
		return r | quiet;
	return FP_F64_DNAN;
}

uint64_t f64_add(uint64_t a, uint64_t b, int rm) { return f64_op(OP_ADD, a, b, 0, rm); }
uint64_t f64_sub(uint64_t a, uint64_t b, int rm) { return f64_op(OP_SUB, a, b, 0, rm); }
uint64_t f64_mul(uint64_t a, uint64_t b, int rm) { return f64_op(OP_MUL, a, b, 0, rm); }
uint64_t f64_div(uint64_t a, uint64_t b, int rm) { return f64_op(OP_DIV, a, b, 0, rm); }
uint64_t f64_sqrt(uint64_t a, int rm) { return f64_op(OP_SQRT, a, 0, 0, rm); }
uint64_t f64_rcp(uint64_t a, int rm) { return f64_op(OP_DIV, 0x3ff0000000000000ull, a, 0, rm); }
uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, int rm)
{
	return f64_op(OP_FMA, a, b, c, rm);
}

/* ---- .sat ----------------------------------------------------------------- */
/* NaN and every negative (-0.0 included) -> +0.0; above 1.0 -> 1.0 */
static uint64_t sat_bits(uint64_t x, int eb, int mb)
{
	uint64_t sbit = 1ull << (eb + mb);
	uint64_t one = (uint64_t)((1u << (eb - 1)) - 1) << mb;

	if ((x & ~sbit) > inf_bits(eb, mb) || (x & sbit))
		return 0;
	return x > one ? one : x;
}

uint32_t f32_sat(uint32_t x) { return (uint32_t)sat_bits(x, F32_); }
uint64_t f64_sat(uint64_t x) { return sat_bits(x, F64_); }
uint16_t f16_sat(uint16_t x) { return (uint16_t)sat_bits(x, F16_); }
uint16_t bf16_sat(uint16_t x) { return (uint16_t)sat_bits(x, BF16_); }

/* ---- f16 and bf16 ----------------------------------------------------------
 * Both widen exactly to double; sums of two f16 and products of two f16 or
 * bf16 are exact there, and fma gets the TwoSum error of its sum. */
static double h2d(uint16_t h)
{
	uint64_t s = (uint64_t)(h >> 15) << 63;
	unsigned e = (h >> 10) & 31, m = h & 0x3ff;

	if (e == 31)
		return d_of(s | 0x7ff0000000000000ull | ((uint64_t)m << 42));
	if (e == 0) {
		double v = m * 0x1p-24;
		return s ? -v : v;
	}
	return d_of(s | ((uint64_t)(e - 15 + 1023) << 52) | ((uint64_t)m << 42));
}

static inline double b2d(uint16_t h) { return f_of((uint32_t)h << 16); }

#define R16(call) ((uint16_t)(call))

uint16_t f16_add(uint16_t a, uint16_t b, int rm)
{
	return R16(add_d(h2d(a), h2d(b), F16_, rm, FP_F16_CNAN));
}

uint16_t f16_sub(uint16_t a, uint16_t b, int rm)
{
	return R16(add_d(h2d(a), -h2d(b), F16_, rm, FP_F16_CNAN));
}

uint16_t f16_mul(uint16_t a, uint16_t b, int rm)
{
	return R16(from_d(h2d(a) * h2d(b), 0, F16_, rm, FP_F16_CNAN));
}

uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, int rm)
{
	return R16(fma_d(h2d(a), h2d(b), h2d(c), F16_, rm, FP_F16_CNAN));
}

uint16_t bf16_add(uint16_t a, uint16_t b, int rm)
{
	return R16(add_d(b2d(a), b2d(b), BF16_, rm, FP_BF16_CNAN));
}

uint16_t bf16_sub(uint16_t a, uint16_t b, int rm)
{
	return R16(add_d(b2d(a), -b2d(b), BF16_, rm, FP_BF16_CNAN));
}

uint16_t bf16_mul(uint16_t a, uint16_t b, int rm)
{
	return R16(from_d(b2d(a) * b2d(b), 0, BF16_, rm, FP_BF16_CNAN));
}

uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, int rm)
{
	return R16(fma_d(b2d(a), b2d(b), b2d(c), BF16_, rm, FP_BF16_CNAN));
}

/* ---- format conversions ----------------------------------------------------- */
float f16_to_f32(uint16_t h)
{
	return (h & 0x7fff) > 0x7c00 ? f_of(FP_F32_CNAN) : (float)h2d(h);
}

float bf16_to_f32(uint16_t h)
{
	return (h & 0x7fff) > 0x7f80 ? f_of(FP_F32_CNAN) : b2d(h);
}

uint16_t f32_to_f16(uint32_t f, int rm) { return R16(from_d(f_of(f), 0, F16_, rm, FP_F16_CNAN)); }
uint16_t f32_to_bf16(uint32_t f, int rm) { return R16(from_d(f_of(f), 0, BF16_, rm, FP_BF16_CNAN)); }
uint16_t f64_to_f16(uint64_t d, int rm) { return R16(from_d(d_of(d), 0, F16_, rm, FP_F16_CNAN)); }
uint16_t f64_to_bf16(uint64_t d, int rm) { return R16(from_d(d_of(d), 0, BF16_, rm, FP_BF16_CNAN)); }
uint32_t f64_to_f32(uint64_t d, int rm) { return R32(from_d(d_of(d), 0, F32_, rm, FP_F32_CNAN)); }

/* ---- min / max --------------------------------------------------------------
 * Equal operands are the same bits except for +-0: min takes the OR of the
 * two (the -0), max the AND (the +0). */
#define MINMAX(name, T, tof, cnan, lt, combine)                                  \
T name(T a, T b, bool nanprop)                                                   \
{                                                                                \
	double x = tof(a), y = tof(b);                                           \
	if (x != x || y != y) {                                                  \
		if (nanprop || (x != x && y != y))                               \
			return (cnan);                                           \
		return x != x ? b : a;                                           \
	}                                                                        \
	if (x != y)                                                              \
		return (lt) ? a : b;                                             \
	return (T)(a combine b);                                                 \
}
static inline double f32d(uint32_t a) { return f_of(a); }
MINMAX(f32_min, uint32_t, f32d, FP_F32_CNAN, x < y, |)
MINMAX(f32_max, uint32_t, f32d, FP_F32_CNAN, x > y, &)
MINMAX(f64_min, uint64_t, d_of, f64_nan(b, a, 0), x < y, |)
MINMAX(f64_max, uint64_t, d_of, f64_nan(b, a, 0), x > y, &)
MINMAX(f16_min, uint16_t, h2d, FP_F16_CNAN, x < y, |)
MINMAX(f16_max, uint16_t, h2d, FP_F16_CNAN, x > y, &)
MINMAX(bf16_min, uint16_t, b2d, FP_BF16_CNAN, x < y, |)
MINMAX(bf16_max, uint16_t, b2d, FP_BF16_CNAN, x > y, &)

/* ---- comparisons --------------------------------------------------------- */
static int cmp_d(double x, double y, int cmp)
{
	bool un = x != x || y != y;

	switch (cmp) {
	case FC_EQ:  return !un && x == y;
	case FC_NE:  return !un && x != y;
	case FC_LT:  return !un && x < y;
	case FC_LE:  return !un && x <= y;
	case FC_GT:  return !un && x > y;
	case FC_GE:  return !un && x >= y;
	case FC_EQU: return un || x == y;
	case FC_NEU: return un || x != y;
	case FC_LTU: return un || x < y;
	case FC_LEU: return un || x <= y;
	case FC_GTU: return un || x > y;
	case FC_GEU: return un || x >= y;
	case FC_NUM: return !un;
	case FC_NAN: return un;
	}
	return 0;
}

int f32_cmp(uint32_t a, uint32_t b, int cmp) { return cmp_d(f_of(a), f_of(b), cmp); }
int f64_cmp(uint64_t a, uint64_t b, int cmp) { return cmp_d(d_of(a), d_of(b), cmp); }
int f16_cmp(uint16_t a, uint16_t b, int cmp) { return cmp_d(h2d(a), h2d(b), cmp); }
int bf16_cmp(uint16_t a, uint16_t b, int cmp) { return cmp_d(b2d(a), b2d(b), cmp); }

/* ---- testp ---------------------------------------------------------------- */
static int testp(uint64_t mag, uint64_t inf, uint64_t minnorm, int cls)
{
	switch (cls) {
	case FT_FINITE:     return mag < inf;
	case FT_INFINITE:   return mag == inf;
	case FT_NUMBER:     return mag <= inf;
	case FT_NOTANUMBER: return mag > inf;
	case FT_NORMAL:     return mag < inf && (mag == 0 || mag >= minnorm);
	case FT_SUBNORMAL:  return mag != 0 && mag < minnorm;
	}
	return 0;
}

int f32_testp(uint32_t a, int cls)
{
	return testp(a & 0x7fffffffu, 0x7f800000u, 0x00800000u, cls);
}

int f64_testp(uint64_t a, int cls)
{
	return testp(a & ~(1ull << 63), 0x7ff0000000000000ull, 1ull << 52, cls);
}

/* ---- cvt ------------------------------------------------------------------- */
enum { V_ZERO, V_NUM, V_INF, V_NAN };
typedef struct Val {
	int cls, sign, exp;
	uint64_t sig;           /* V_NUM: the value is sig * 2^exp */
} Val;

static Val unpack(uint64_t b, int eb, int mb)
{
	Val v = { V_NUM, (int)((b >> (eb + mb)) & 1), 0, 0 };
	int bias = (1 << (eb - 1)) - 1;
	unsigned e = (b >> mb) & ((1u << eb) - 1);
	uint64_t m = b & ((1ull << mb) - 1);

	if (e == (1u << eb) - 1) {
		v.cls = m ? V_NAN : V_INF;
	} else if (e == 0) {
		v.cls = m ? V_NUM : V_ZERO;
		v.exp = 1 - bias - mb;
		v.sig = m;
	} else {
		v.exp = (int)e - bias - mb;
		v.sig = m | 1ull << mb;
	}
	return v;
}

static uint64_t pack(Val v, int eb, int mb, int rm, uint64_t cnan)
{
	uint64_t sbit = (uint64_t)v.sign << (eb + mb);

	switch (v.cls) {
	case V_NAN:  return cnan;
	case V_INF:  return sbit | inf_bits(eb, mb);
	case V_ZERO: return sbit;
	}
	return round_pack(v.sign, v.exp, v.sig, eb, mb, rm);
}

/* Rounds to an integral value in rm; a zero keeps the sign (IEEE). */
static Val integral(Val v, int rm)
{
	if (v.cls != V_NUM || v.exp >= 0)
		return v;
	v.sig = shift_round(v.sig, -v.exp, v.sign, rm);
	v.exp = 0;
	if (!v.sig)
		v.cls = V_ZERO;
	return v;
}

/* A signed magnitude clamped into a w-bit integer of kind 'U' or 'S'; big:
 * the magnitude is beyond 64 bits.  Signed results come sign-extended. */
static uint64_t sat_int(int neg, uint64_t mag, bool big, int kind, int w)
{
	uint64_t umax = w == 64 ? ~0ull : (1ull << w) - 1, smax = umax >> 1;

	if (kind == 'U') {
		if (neg)
			return 0;
		return big || mag > umax ? umax : mag;
	}
	if (!neg)
		return big || mag > smax ? smax : mag;
	if (big || mag > smax + 1)
		mag = smax + 1;
	return 0 - mag;
}

static inline uint64_t extend(uint64_t x, int kind, int w)
{
	if (w == 64)
		return x;
	x &= (1ull << w) - 1;
	if (kind == 'S' && (x >> (w - 1)))
		x |= ~0ull << w;
	return x;
}

/* The cvt view of a type: kind 'U', 'S' or 'F', width; 0 if not cvt's. */
static int cvt_type(unsigned ty, int *w)
{
	switch (ty) {
	case TY_u8:  *w = 8;  return 'U';
	case TY_u16: *w = 16; return 'U';
	case TY_u32: *w = 32; return 'U';
	case TY_u64: *w = 64; return 'U';
	case TY_s8:  *w = 8;  return 'S';
	case TY_s16: *w = 16; return 'S';
	case TY_s32: *w = 32; return 'S';
	case TY_s64: *w = 64; return 'S';
	case TY_f16: case TY_bf16: *w = 16; return 'F';
	case TY_f32: *w = 32; return 'F';
	case TY_f64: *w = 64; return 'F';
	}
	return 0;
}

static void float_fmt(unsigned ty, int *eb, int *mb, uint64_t *cnan)
{
	switch (ty) {
	case TY_f16:  *eb = 5;  *mb = 10; *cnan = FP_F16_CNAN; break;
	case TY_bf16: *eb = 8;  *mb = 7;  *cnan = FP_BF16_CNAN; break;
	case TY_f32:  *eb = 8;  *mb = 23; *cnan = FP_F32_CNAN; break;
	default:      *eb = 11; *mb = 52; *cnan = FP_F64_CNAN; break;
	}
}

/* cvt of a NaN v between float types (an H200's rules, docs/FLOAT.md):
 * bf16 -> f32 is the bits shifted, as they are; a conversion with f64 on
 * one side keeps the sign and the payload's top bits, quieted (f16 and
 * bf16 reach f64 through f32); the others give the canonical NaN. */
static uint64_t cvt_nan(unsigned dty, unsigned sty, uint64_t v)
{
	int deb, dmb, seb, smb;
	uint64_t dcnan, scnan;

	if (sty == TY_bf16 && dty == TY_f32)
		return v << 16;
	if ((sty == TY_f16 || sty == TY_bf16) && dty == TY_f64)
		return cvt_nan(TY_f64, TY_f32, cvt_nan(TY_f32, sty, v));
	float_fmt(dty, &deb, &dmb, &dcnan);
	if (dty != TY_f64 && sty != TY_f64)
		return dcnan;
	float_fmt(sty, &seb, &smb, &scnan);
	uint64_t sign = v >> (seb + smb) & 1, pay = v & ((1ull << smb) - 1);
	pay = dmb > smb ? pay << (dmb - smb) : pay >> (smb - dmb);
	return sign << (deb + dmb) | inf_bits(deb, dmb) | 1ull << (dmb - 1) | pay;
}

uint64_t fp_cvt(unsigned dty, unsigned sty, uint64_t v, int rm, bool irnd,
		bool ftz, bool sat, bool *ok)
{
	if (dty == TY_f32 && (sty == TY_s32 || sty == TY_u32) && (rm & 3) == FP_RN && !sat && !irnd) {
		/* the common int -> f32 to nearest: the host's conversion rounds so */
		float f = sty == TY_s32 ? (float)(int32_t)v : (float)(uint32_t)v;
		uint32_t b;
		memcpy(&b, &f, 4);
		if (ok)
			*ok = true;
		return b;
	}
	int dw = 0, sw = 0, eb = 0, mb = 0;
	int dk = cvt_type(dty, &dw), sk = cvt_type(sty, &sw);
	uint64_t cnan = 0;
	Val x;

	if (ok)
		*ok = dk && sk;
	if (!dk || !sk)
		return 0;
	rm &= 3;
	if (sk != 'F') {
		uint64_t s = extend(v, sk, sw);
		int neg = sk == 'S' && (int64_t)s < 0;
		if (dk != 'F') {
			if (sat)
				return sat_int(neg, neg ? 0 - s : s, false, dk, dw);
			return extend(s, dk, dw);
		}
		x = (Val){ s ? V_NUM : V_ZERO, neg, 0, neg ? 0 - s : s };
	} else {
		float_fmt(sty, &eb, &mb, &cnan);
		if (ftz && sty == TY_f32)
			v = f32_ftz((uint32_t)v);
		x = unpack(v, eb, mb);
	}
	if (dk != 'F') {                /* float -> int: round, saturate */
		uint64_t mag = 0;
		bool big = x.cls == V_INF;
		if (x.cls == V_NAN)     /* 0, or the top bit alone where a side has 64 */
			return dw < 64 && sw < 64 ? 0 : extend(1ull << (dw - 1), dk, dw);
		if (x.cls == V_NUM) {
			if (x.exp < 0)
				mag = shift_round(x.sig, -x.exp, x.sign, rm);
			else if (63 - __builtin_clzll(x.sig) + x.exp >= 64)
				big = true;
			else
				mag = x.sig << x.exp;
		}
		return sat_int(x.sign, mag, big, dk, dw);
	}
	if (irnd)
		x = integral(x, rm);
	float_fmt(dty, &eb, &mb, &cnan);
	uint64_t r = x.cls == V_NAN ? cvt_nan(dty, sty, v) : pack(x, eb, mb, rm, cnan);
	if (ftz && dty == TY_f32)
		r = f32_ftz((uint32_t)r);
	return sat ? sat_bits(r, eb, mb) : r;
}

/* ---- tf32 and the 8-bit formats --------------------------------------------- */
uint32_t f32_to_tf32(uint32_t f, int rm, bool satfinite, bool relu)
{
	Val x = unpack(f, F32_);
	uint32_t r;
	if (x.cls != V_NAN)
		r = (uint32_t)pack(x, 8, 10, rm, 0) << 13;
	else if (rm == FP_RNA)  /* the bits truncated: 0x7f800001 becomes +inf */
		r = f & 0xffffe000u;
	else
		return FP_TF32_CNAN;
	/* an all-ones exponent, infinity or NaN, loses one unit of the last place */
	if (satfinite && (r & 0x7f800000u) == 0x7f800000u)
		r -= 0x2000;
	if (relu && (r & 0x80000000u))
		r = 0;
	return r;
}

/* x rounded to nearest even into e4m3 or e5m2, saturated to the largest
 * finite value.  e4m3 has no infinities: its exponent field 15 holds
 * finite values.  Rounded into e5m3 (one more exponent bit, bias 15) after
 * scaling by 2^-8, every e4m3 value has the very fields it has in e4m3,
 * and whatever overflows e4m3 comes out above its largest code, 0x7e. */
static uint8_t pack_fp8(Val x, int fmt, bool relu)
{
	if (x.cls == V_NAN)
		return FP_FP8_CNAN;
	if (relu && x.sign)
		return 0;
	uint8_t sbit = (uint8_t)(x.sign << 7), mag;
	if (fmt == FP8_E4M3) {
		uint64_t r = x.cls == V_INF ? 0xf8 : x.cls == V_ZERO ? 0 : round_pack(0, x.exp - 8, x.sig, 5, 3, FP_RN);
		mag = r > 0x7e ? 0x7e : (uint8_t)r;
	} else {
		uint64_t r = x.cls == V_INF ? 0x7c : x.cls == V_ZERO ? 0 : round_pack(0, x.exp, x.sig, 5, 2, FP_RN);
		mag = r > 0x7b ? 0x7b : (uint8_t)r;
	}
	return sbit | mag;
}

uint8_t f32_to_fp8(uint32_t f, int fmt, bool relu) { return pack_fp8(unpack(f, F32_), fmt, relu); }
uint8_t f16_to_fp8(uint16_t h, int fmt, bool relu) { return pack_fp8(unpack(h, F16_), fmt, relu); }

uint16_t fp8_to_f16(uint8_t v, int fmt, bool relu)
{
	Val x;
	if (fmt == FP8_E5M2) {
		x = unpack(v, 5, 2);
	} else if ((v & 0x7f) == 0x7f) {
		x = (Val){ V_NAN, 0, 0, 0 };
	} else {                        /* bias 7; exponent field 0: subnormal */
		unsigned e = (v >> 3) & 15, m = v & 7;
		x = (Val){ e || m ? V_NUM : V_ZERO, v >> 7, e ? (int)e - 10 : -9, e ? 8u | m : m };
	}
	if (x.cls == V_NAN)
		return FP_F16_CNAN;
	if (relu && x.sign)
		return 0;
	return (uint16_t)pack(x, F16_, FP_RN, FP_F16_CNAN);   /* exact */
}

/* ---- approximate functions ----------------------------------------------------
 * The bounds quoted are the PTX ISA manual's (PTX 8.x); our results are the
 * libm double value rounded to nearest once (or twice, where noted), i.e.
 * within about 0.5 ulp, so far inside each bound. */
static inline uint32_t out32(double r, bool ftz)
{
	if (r != r)
		return FP_F32_CNAN;
	uint32_t b = bits_f((float)r);
	return ftz ? f32_ftz(b) : b;
}

static inline double in32(uint32_t a, bool ftz)
{
	return f_of(ftz ? f32_ftz(a) : a);
}

/* ex2.approx.f32: max error 2 + floor(|1.16 * x|) ulp; ex2(-inf) = +0 */
uint32_t f32_ex2_approx(uint32_t a, bool ftz) { return out32(exp2(in32(a, ftz)), ftz); }

/* lg2.approx.f32: max absolute error 2^-22.6 (mantissa); lg2(+-0) = -inf,
 * lg2(x < 0) = NaN */
uint32_t f32_lg2_approx(uint32_t a, bool ftz) { return out32(log2(in32(a, ftz)), ftz); }

/* sin/cos.approx.f32: max absolute error 2^-20.9 in [-100pi, 100pi]
 * (2^-21.41 in [-pi, pi]); +-inf -> NaN */
uint32_t f32_sin_approx(uint32_t a, bool ftz) { return out32(sin(in32(a, ftz)), ftz); }
uint32_t f32_cos_approx(uint32_t a, bool ftz) { return out32(cos(in32(a, ftz)), ftz); }

/* rsqrt.approx.f32: max relative error 2^-22.9; rsqrt(+-0) = +-inf.  Two
 * double roundings then one to f32: under 0.51 ulp. */
uint32_t f32_rsqrt_approx(uint32_t a, bool ftz)
{
	return out32(1.0 / sqrt(in32(a, ftz)), ftz);
}

/* rcp.approx.f32: max error 1 ulp; rcp(+-0) = +-inf, rcp(+-inf) = +-0 */
uint32_t f32_rcp_approx(uint32_t a, bool ftz) { return out32(1.0 / in32(a, ftz), ftz); }

/* sqrt.approx.f32: max relative error 2^-23 (ours is correctly rounded:
 * sqrt in double, then to f32, is innocuous double rounding) */
uint32_t f32_sqrt_approx(uint32_t a, bool ftz) { return out32(sqrt(in32(a, ftz)), ftz); }

/* tanh.approx.f32: max relative error 2^-11 (2^-10.987) */
uint32_t f32_tanh_approx(uint32_t a, bool ftz) { return out32(tanh(in32(a, ftz)), ftz); }

/* div.approx.f32: d = a * (1/b), max error 2 ulp for |b| in [2^-126, 2^126];
 * for 2^126 < |b| < 2^128 the manual gives 0 for finite a and NaN for
 * infinite a: the reciprocal flushes to zero, which we reproduce. */
uint32_t f32_div_approx(uint32_t a, uint32_t b, bool ftz)
{
	if (ftz) {
		a = f32_ftz(a);
		b = f32_ftz(b);
	}
	uint32_t r = f32_ftz(f32_rcp(b, FP_RN));
	r = f32_mul(a, r, FP_RN);
	return ftz ? f32_ftz(r) : r;
}

/* div.full.f32: max error 2 ulp over the full range; ours is correctly
 * rounded to nearest */
uint32_t f32_div_full(uint32_t a, uint32_t b, bool ftz)
{
	if (ftz) {
		a = f32_ftz(a);
		b = f32_ftz(b);
	}
	uint32_t r = f32_div(a, b, FP_RN);
	return ftz ? f32_ftz(r) : r;
}

/* rcp.approx.ftz.f64 and rsqrt.approx.f64: the manual gives them as fast
 * approximations (sufficient to seed Newton's method) without a tighter
 * figure we rely on; ours are within 1 ulp of f64 */
uint64_t f64_rcp_approx_ftz(uint64_t a)
{
	double r = 1.0 / d_of(f64_ftz(a));
	return r != r ? FP_F64_CNAN : f64_ftz(bits_d(r));
}

uint64_t f64_rsqrt_approx(uint64_t a, bool ftz)
{
	double r = 1.0 / sqrt(d_of(ftz ? f64_ftz(a) : a));
	if (r != r)
		return FP_F64_CNAN;
	return ftz ? f64_ftz(bits_d(r)) : bits_d(r);
}

/* ex2.approx.f16: max relative error 2^-9.9; subnormals kept */
uint16_t f16_ex2_approx(uint16_t a)
{
	return R16(from_d(exp2(h2d(a)), 0, F16_, FP_RN, FP_F16_CNAN));
}

/* tanh.approx.f16: max relative error 2^-10.987 */
uint16_t f16_tanh_approx(uint16_t a)
{
	return R16(from_d(tanh(h2d(a)), 0, F16_, FP_RN, FP_F16_CNAN));
}

/* ex2.approx.ftz.bf16: max relative error 2^-7; input and result flushed */
uint16_t bf16_ex2_approx(uint16_t a)
{
	uint16_t r = R16(from_d(exp2(b2d(bf16_ftz(a))), 0, BF16_, FP_RN, FP_BF16_CNAN));
	return bf16_ftz(r);
}

/* tanh.approx.bf16: max relative error 2^-8 */
uint16_t bf16_tanh_approx(uint16_t a)
{
	return R16(from_d(tanh(b2d(a)), 0, BF16_, FP_RN, FP_BF16_CNAN));
}

/* ---- copysign ---------------------------------------------------------------- */
uint32_t f32_copysign(uint32_t a, uint32_t b)
{
	return (b & 0x7fffffffu) | (a & 0x80000000u);
}

uint64_t f64_copysign(uint64_t a, uint64_t b)
{
	return (b & ~(1ull << 63)) | (a & (1ull << 63));
}
