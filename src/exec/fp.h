/* fp.h: the floating-point semantics of PTX, bit-exact, as pure functions.
 *
 * Every value is a raw bit pattern (uint16_t f16/bf16, uint32_t f32,
 * uint64_t f64).  Nothing here keeps state: the interpreter calls these per
 * lane.  f32/f64/f16/bf16 arithmetic is correctly rounded in the mode given
 * (FP_RN..FP_RP) and never flushes; a caller that executes .ftz applies
 * f32_ftz()/f16_ftz() to the inputs and to the result itself.
 *
 * What the PTX ISA manual leaves open is decided in the block below, and
 * listed in docs/FLOAT.md.  The code assumes the host FPU is left in its
 * default round-to-nearest mode between calls (fp.c restores it).
 */
#ifndef PTXVM_FP_H
#define PTXVM_FP_H

#include <stdint.h>
#include <stdbool.h>

/* ---- choices not fixed by the manual: to confirm on hardware ------------- */
/* The canonical NaN an f32, f16 or bf16 operation writes when its result
 * is NaN, whatever the NaN inputs were: payloads do not propagate through
 * their arithmetic, min/max, neg or abs (mov and copysign are bitwise and
 * keep them; cvt has rules of its own, fp_cvt).  Confirmed on an H200
 * (tests/hw/golden/h200.isa.txt).  See docs/FLOAT.md. */
#define FP_F32_CNAN   0x7fffffffu
#define FP_F16_CNAN   ((uint16_t)0x7fff)
#define FP_BF16_CNAN  ((uint16_t)0x7fff)
/* f64 arithmetic is IEEE's (confirmed on an H200): a NaN input comes out
 * quieted (payload and sign kept; f64_nan picks which), and a NaN made
 * from numbers (inf - inf, 0 * inf, 0 / 0, sqrt(-1)) is FP_F64_DNAN. */
#define FP_F64_DNAN   0xfff8000000000000ull
/* The f64 NaN ptxvm writes where no hardware rule is recorded (matrix
 * products' f64 results, rcp.approx.ftz.f64 and rsqrt.approx.f64 of a NaN,
 * tensor copies' out-of-bounds fill). */
#define FP_F64_CNAN   0x7fffffffffffffffull
/* .sat of -0.0 gives +0.0 (the clamp is max(x, +0.0) with -0.0 < +0.0);
 * to confirm on hardware. */
/* min/max: -0.0 < +0.0 (the manual: "+0.0 > -0.0" when both inputs are 0). */
/* cvt float->int: out-of-range values saturate (manual); NaN gives 0, or
 * the destination's top bit alone where a side has 64 bits (an H200's). */
/* cvt float->float of a NaN: the H200's rules, in cvt_nan (fp.c). */
/* .ftz of add, sub, mul and fma flushes a result whose exact value is below
 * the smallest normal, even one that rounds up to it (f32_ftz_result; an
 * H200's).  Elsewhere callers flush the rounded result (to confirm). */
/* tf32 in a .b32 register is an f32 whose 13 low fraction bits are zero; a
 * NaN converted with .rn or .rz is the f32 canonical NaN so truncated (an
 * H200's; .rna truncates the NaN's own bits, see f32_to_tf32). */
#define FP_TF32_CNAN  0x7fffe000u
/* The one NaN of e4m3 and e5m2 results: 0x7f, positive (what CUDA's
 * cuda_fp8.h gives on the host for a canonical f32 NaN; to confirm). */
#define FP_FP8_CNAN   ((uint8_t)0x7f)
/* The 16-bit OOB-NaN that tensor copies write for out-of-bounds elements
 * and that fma.oob tests for, by magnitude (to confirm on hardware). */
#define FP_OOB_NAN16  ((uint16_t)0x7ff7)

/* nearest-even, zero, -inf, +inf; nearest with ties away from zero (.rna) */
enum { FP_RN, FP_RZ, FP_RM, FP_RP, FP_RNA };

/* ---- f32 / f64 arithmetic, correctly rounded in mode rm ------------------- */
uint32_t f32_add(uint32_t a, uint32_t b, int rm);
uint32_t f32_sub(uint32_t a, uint32_t b, int rm);
uint32_t f32_mul(uint32_t a, uint32_t b, int rm);
uint32_t f32_div(uint32_t a, uint32_t b, int rm);
uint32_t f32_fma(uint32_t a, uint32_t b, uint32_t c, int rm);  /* a*b+c, one rounding */
uint32_t f32_sqrt(uint32_t a, int rm);
uint32_t f32_rcp(uint32_t a, int rm);                          /* rcp.rnd: 1/a */

uint64_t f64_add(uint64_t a, uint64_t b, int rm);
uint64_t f64_sub(uint64_t a, uint64_t b, int rm);
uint64_t f64_mul(uint64_t a, uint64_t b, int rm);
uint64_t f64_div(uint64_t a, uint64_t b, int rm);
uint64_t f64_fma(uint64_t a, uint64_t b, uint64_t c, int rm);
uint64_t f64_sqrt(uint64_t a, int rm);
uint64_t f64_rcp(uint64_t a, int rm);
/* The NaN result of an f64 operation: the first NaN among p, q, r, quieted
 * (0 stands for no operand), else FP_F64_DNAN.  The order is the GPU's:
 * add, sub and mul (b, a); fma (b, c, a); div (a, b); sqrt, rcp (a);
 * min and max with two NaNs (b, a). */
uint64_t f64_nan(uint64_t p, uint64_t q, uint64_t r);

/* subnormal -> zero of the same sign; anything else unchanged */
static inline uint32_t f32_ftz(uint32_t x)
{
	return (x & 0x7f800000u) ? x : (x & 0x80000000u);
}
/* .ftz of an f32 add, sub, mul or fma result r, rz being the same operation
 * rounded towards zero: a result whose exact value lies below the smallest
 * normal is flushed even where it rounds up to it (an H200's: tininess
 * before rounding, docs/FLOAT.md). */
static inline uint32_t f32_ftz_result(uint32_t r, uint32_t rz)
{
	if ((r & 0x7fffffffu) == 0x00800000u && (rz & 0x7fffffffu) < 0x00800000u)
		return r & 0x80000000u;
	return f32_ftz(r);
}
static inline uint64_t f64_ftz(uint64_t x)
{
	return (x & 0x7ff0000000000000ull) ? x : (x & 0x8000000000000000ull);
}
static inline uint16_t f16_ftz(uint16_t x)
{
	return (x & 0x7c00) ? x : (uint16_t)(x & 0x8000);
}
static inline uint16_t bf16_ftz(uint16_t x)
{
	return (x & 0x7f80) ? x : (uint16_t)(x & 0x8000);
}

/* neg (or abs): the sign bit flipped (cleared); a NaN gives the canonical
 * NaN (an H200's; f64's neg and abs are bitwise).  .ftz is the caller's. */
static inline uint32_t f32_negabs(uint32_t x, bool neg)
{
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return FP_F32_CNAN;
	return neg ? x ^ 0x80000000u : x & 0x7fffffffu;
}
static inline uint16_t f16_negabs(uint16_t x, bool neg)
{
	if ((x & 0x7fff) > 0x7c00)
		return FP_F16_CNAN;
	return neg ? x ^ 0x8000 : x & 0x7fff;
}
static inline uint16_t bf16_negabs(uint16_t x, bool neg)
{
	if ((x & 0x7fff) > 0x7f80)
		return FP_BF16_CNAN;
	return neg ? x ^ 0x8000 : x & 0x7fff;
}

/* .sat: clamp to [+0.0, 1.0]; NaN and -0.0 -> +0.0 */
uint32_t f32_sat(uint32_t x);
uint64_t f64_sat(uint64_t x);
uint16_t f16_sat(uint16_t x);
uint16_t bf16_sat(uint16_t x);

/* ---- half precision (binary16) and bfloat16, correctly rounded ----------- */
uint16_t f16_add(uint16_t a, uint16_t b, int rm);
uint16_t f16_sub(uint16_t a, uint16_t b, int rm);
uint16_t f16_mul(uint16_t a, uint16_t b, int rm);
uint16_t f16_fma(uint16_t a, uint16_t b, uint16_t c, int rm);
uint16_t bf16_add(uint16_t a, uint16_t b, int rm);
uint16_t bf16_sub(uint16_t a, uint16_t b, int rm);
uint16_t bf16_mul(uint16_t a, uint16_t b, int rm);
uint16_t bf16_fma(uint16_t a, uint16_t b, uint16_t c, int rm);

/* ---- min / max -----------------------------------------------------------
 * One NaN input: the other input.  Both NaN, or any NaN with nanprop
 * (.NaN): the canonical NaN.  -0.0 < +0.0.  A non-NaN result is one of the
 * inputs, bit for bit.  .ftz, .abs and .xorsign are the caller's. */
uint32_t f32_min(uint32_t a, uint32_t b, bool nanprop);
uint32_t f32_max(uint32_t a, uint32_t b, bool nanprop);
uint64_t f64_min(uint64_t a, uint64_t b, bool nanprop);
uint64_t f64_max(uint64_t a, uint64_t b, bool nanprop);
uint16_t f16_min(uint16_t a, uint16_t b, bool nanprop);
uint16_t f16_max(uint16_t a, uint16_t b, bool nanprop);
uint16_t bf16_min(uint16_t a, uint16_t b, bool nanprop);
uint16_t bf16_max(uint16_t a, uint16_t b, bool nanprop);

/* ---- setp / set comparisons: 1 if "a cmp b" holds ------------------------
 * The ordered ones (EQ..GE, NE included) are false when either input is
 * NaN, the unordered ones (EQU..GEU) true; NUM: neither is NaN; NAN: either
 * is.  +0.0 == -0.0. */
enum { FC_EQ, FC_NE, FC_LT, FC_LE, FC_GT, FC_GE,
       FC_EQU, FC_NEU, FC_LTU, FC_LEU, FC_GTU, FC_GEU, FC_NUM, FC_NAN };
int f32_cmp(uint32_t a, uint32_t b, int cmp);
int f64_cmp(uint64_t a, uint64_t b, int cmp);
int f16_cmp(uint16_t a, uint16_t b, int cmp);
int bf16_cmp(uint16_t a, uint16_t b, int cmp);

/* ---- testp: 1 if a is of the class.  The manual counts +-0.0 as normal. -- */
enum { FT_FINITE, FT_INFINITE, FT_NUMBER, FT_NOTANUMBER, FT_NORMAL, FT_SUBNORMAL };
int f32_testp(uint32_t a, int cls);
int f64_testp(uint64_t a, int cls);

/* ---- cvt ----------------------------------------------------------------
 * dty, sty: TY_u8 .. TY_s64, TY_f16, TY_bf16, TY_f32, TY_f64 (isa.h).
 * v: the source bits, zero-extended.  rm: the rounding mode of .rn/.rz/.rm/
 * .rp or of .rni/.rzi/.rmi/.rpi (float->int always rounds to an integer in
 * rm).  irnd: float->float rounds to an integral value (cvt.rni.f32.f32).
 * ftz: f32 subnormal sources and f32 results are flushed.  sat: .sat.
 *   float->int  saturates to the destination range; NaN -> 0, or the top
 *               bit alone where the source or destination has 64 bits
 *   int->int    truncates or extends by the source's signedness; with .sat
 *               clamps to the destination range
 *   ->float     with .sat clamps to [0.0, 1.0], NaN -> +0.0
 * Result: the destination bits, sign-extended to 64 for a signed integer
 * destination, zero-extended otherwise.  *ok (if not NULL) is false for a
 * type PTX's cvt does not convert (b*, packed, tf32, fp8, pred). */
uint64_t fp_cvt(unsigned dty, unsigned sty, uint64_t v, int rm, bool irnd,
		bool ftz, bool sat, bool *ok);

/* conversions between the float formats for ptxvm's own use (one rounding,
 * NaN -> canonical; cvt's NaN rules are fp_cvt's) */
float    f16_to_f32(uint16_t h);                /* exact */
float    bf16_to_f32(uint16_t h);               /* exact */
uint16_t f32_to_f16(uint32_t f, int rm);
uint16_t f32_to_bf16(uint32_t f, int rm);
uint16_t f64_to_f16(uint64_t d, int rm);
uint16_t f64_to_bf16(uint64_t d, int rm);
uint32_t f64_to_f32(uint64_t d, int rm);

/* ---- tf32 and the 8-bit formats ----------------------------------------
 * tf32: 8 exponent bits and 10 fraction bits, kept in an f32 (FP_TF32_CNAN).
 * rm: FP_RN, FP_RZ or FP_RNA.  satfinite: a result with an all-ones
 * exponent loses one unit of the last place, so infinity becomes the
 * largest finite value and a NaN stays a NaN (an H200's).  relu: a
 * negative result, -0 included, is +0 (NaN stays NaN).
 * e4m3 (bias 7, no infinity, largest 448) and e5m2 (bias 15, IEEE-like,
 * largest 57344): conversions to them round to nearest even and saturate
 * to the largest finite value (cvt requires .satfinite); NaN gives
 * FP_FP8_CNAN.  Conversions from them to f16 are exact; NaN gives the f16
 * canonical NaN. */
enum { FP8_E4M3, FP8_E5M2 };
uint32_t f32_to_tf32(uint32_t f, int rm, bool satfinite, bool relu);
uint8_t  f32_to_fp8(uint32_t f, int fmt, bool relu);
uint8_t  f16_to_fp8(uint16_t h, int fmt, bool relu);
uint16_t fp8_to_f16(uint8_t v, int fmt, bool relu);

/* ---- approximate functions ----------------------------------------------
 * Each result lies within the maximum error the PTX ISA manual documents
 * (quoted in fp.c); ours is computed in double and rounded once or twice,
 * so it is far inside the bound, but not the hardware's bits.  ftz flushes
 * a subnormal input and result to a zero of the same sign. */
uint32_t f32_ex2_approx(uint32_t a, bool ftz);
uint32_t f32_lg2_approx(uint32_t a, bool ftz);
uint32_t f32_sin_approx(uint32_t a, bool ftz);
uint32_t f32_cos_approx(uint32_t a, bool ftz);
uint32_t f32_rsqrt_approx(uint32_t a, bool ftz);
uint32_t f32_rcp_approx(uint32_t a, bool ftz);
uint32_t f32_sqrt_approx(uint32_t a, bool ftz);
uint32_t f32_tanh_approx(uint32_t a, bool ftz);
uint32_t f32_div_approx(uint32_t a, uint32_t b, bool ftz);  /* a * (1/b) */
uint32_t f32_div_full(uint32_t a, uint32_t b, bool ftz);
uint64_t f64_rcp_approx_ftz(uint64_t a);
uint64_t f64_rsqrt_approx(uint64_t a, bool ftz);
uint16_t f16_ex2_approx(uint16_t a);
uint16_t f16_tanh_approx(uint16_t a);
uint16_t bf16_ex2_approx(uint16_t a);                       /* .ftz implied */
uint16_t bf16_tanh_approx(uint16_t a);

/* copysign.f32 d, a, b: the sign of a on the magnitude of b (bitwise, so
 * a NaN b keeps its payload) */
uint32_t f32_copysign(uint32_t a, uint32_t b);
uint64_t f64_copysign(uint64_t a, uint64_t b);

#endif
