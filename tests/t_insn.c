/* t_insn.c: instruction-level tests generated from tables.
 *
 * Small per-opcode tables (types x modifiers) are expanded into variants;
 * each variant becomes a PTX kernel that loads the operands of thread i
 * from input arrays (one 8-byte slot per thread and operand), applies the
 * instruction and stores the result(s) (predicates as u32 0/1).  The
 * kernel runs over edge values of the source types (all pairs; triples
 * subsampled) and every result is compared bit for bit with a reference
 * written here, independent of src/: host IEEE arithmetic under
 * fesetround() for f32/f64, round-to-odd in double plus a rounding routine
 * of our own for f16/bf16/tf32 and narrowing conversions, and plain C for
 * integers.  NaN results are those an H200 gives (docs/FLOAT.md); the
 * approximate instructions are checked against their documented bounds.
 * One pass per variant, or one fail naming it with the first bad inputs.
 */
#include "test.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- types ---------------------------------------------------------------- */
enum {
	U8, U16, U32, U64, S8, S16, S32, S64, B16, B32, B64,
	F16, BF16, F32, F64, F16X2, BF16X2, U16X2, S16X2, TF32, E4M3X2, E5M2X2, PRED, NTY
};
static const struct {
	const char *name;
	int bits;       /* value width */
	char kind;      /* u s b f p */
} TY[NTY] = {
	[U8] = { "u8", 8, 'u' },       [U16] = { "u16", 16, 'u' },   [U32] = { "u32", 32, 'u' },
	[U64] = { "u64", 64, 'u' },    [S8] = { "s8", 8, 's' },      [S16] = { "s16", 16, 's' },
	[S32] = { "s32", 32, 's' },    [S64] = { "s64", 64, 's' },   [B16] = { "b16", 16, 'b' },
	[B32] = { "b32", 32, 'b' },    [B64] = { "b64", 64, 'b' },   [F16] = { "f16", 16, 'f' },
	[BF16] = { "bf16", 16, 'f' },  [F32] = { "f32", 32, 'f' },   [F64] = { "f64", 64, 'f' },
	[F16X2] = { "f16x2", 32, 'f' }, [BF16X2] = { "bf16x2", 32, 'f' },
	[U16X2] = { "u16x2", 32, 'u' }, [S16X2] = { "s16x2", 32, 's' }, [TF32] = { "tf32", 32, 'f' },
	[E4M3X2] = { "e4m3x2", 16, 'f' }, [E5M2X2] = { "e5m2x2", 16, 'f' }, [PRED] = { "pred", 1, 'p' },
};
/* register width: 8-bit values live in 16-bit registers */
static int rbits(int t) { return t == PRED ? 32 : TY[t].bits < 16 ? 16 : TY[t].bits; }
static uint64_t MASK(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
static int64_t SX(uint64_t v, int w) { return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w); }
static int is_signed(int t) { return TY[t].kind == 's'; }
static int64_t IMIN(int w) { return w >= 64 ? INT64_MIN : -(1ll << (w - 1)); }
static int64_t IMAX(int w) { return w >= 64 ? INT64_MAX : (1ll << (w - 1)) - 1; }

/* ---- variants --------------------------------------------------------------- */
enum {
	F_INT, F_CHAIN, F_SETPI, F_SET, F_SELP, F_SLCT, F_CVT,
	F_FAR, F_HAR, F_MINMAX, F_ABSNEG, F_SETPF, F_TESTP, F_COPYSIGN, F_APPROX, F_PACK,
	F_VIDEO, F_SIMD,
};
/* integer ops */
enum {
	ADD, SUB, MULLO, MULHI, MULWIDE, MADLO, MADHI, MADWIDE, ADDSAT, SUBSAT, MADHISAT, SAD, DIV, REM,
	ABS, NEG, MIN, MAX, MINRELU, MAXRELU, POPC, CLZ, BFIND, BFINDSA, BREV, BFE, BFI, SZEXT, BMSK,
	DP4A, DP2ALO, DP2AHI, AND, OR, XOR, NOT, CNOT, LOP3, LOP3P, SHFL, SHFR, SHL, SHR, MUL24LO, MUL24HI,
	MAD24LO, MAD24HI, MAD24HISAT, PRMT, FNS,
	/* float ops */
	FADD, FSUB, FMUL, FFMA, FDIV, FSQRT, FRCP,
	/* approx */
	AEX2, ALG2, ASIN, ACOS, ARSQRT, ATANH, ARCP, ASQRT, ADIV, ADIVFULL,
};
enum { RN, RZ, RM, RP, RNA, RNONE };
static const char *const RNDN[] = { "rn", "rz", "rm", "rp", "rna", "" };

typedef struct V {
	char name[96];
	char insn[224];
	int ns, nd;
	int st[4], dt[2];
	int r8;         /* 8-bit operands in .b8 registers (ptxas wants them for bf16 <-> 8-bit cvt) */
	int ver;        /* PTX ISA version x10 (80 unless the form needs more) */
	int sm;         /* target (90 unless the form needs more) */
	int fam, op, t, t2, rnd, irnd, ftz, sat, nan, relu, satf, x, cmp, bop;
	/* video: signedness of d, a, b; selectors of d, a, b (scalar: 0 word,
	 * 1-4 .b0-.b3, 5-6 .h0-.h1; SIMD: lane sources as written, mask bits);
	 * vmad's negations; secondary operation 0 none, 1 add, 2 min, 3 max */
	int vsg[3], vsel[3], vneg[3], op2;
	const uint64_t *vals[4];
	int nvals[4];
} V;

static V *vs;
static size_t nv, cv;

static V *newv(int fam, int op, const char *name)
{
	if (nv == cv) {
		cv = cv ? cv * 2 : 256;
		vs = realloc(vs, cv * sizeof *vs);
	}
	V *v = &vs[nv++];
	memset(v, 0, sizeof *v);
	v->fam = fam;
	v->op = op;
	v->rnd = RNONE;
	v->irnd = RNONE;
	snprintf(v->name, sizeof v->name, "%s", name);
	return v;
}
/* operand shape: "d,a,b" etc. (d e: dests; a b c f: sources; p q: pred dests; g: pred source) */
static void shape(V *v, const char *ops)
{
	snprintf(v->insn, sizeof v->insn, "%s ", v->name);
	for (const char *p = ops; *p; p++) {
		const char *r = *p == 'd' ? "%da" : *p == 'e' ? "%db" : *p == 'a' ? "%sa" : *p == 'b' ? "%sb" :
				*p == 'c' ? "%sc" : *p == 'f' ? "%sd" : *p == 'p' ? "%pa" : *p == 'q' ? "%pb" :
				*p == 'g' ? "%pg" : NULL;
		char tmp[8] = { *p, 0 };
		strcat(v->insn, r ? r : tmp);
	}
	strcat(v->insn, ";");
}

/* ---- edge values -------------------------------------------------------------- */
static const uint64_t I64[] = {
	0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
	0x80000001, 0xffffffff, 0xfffffffe, 0x55555555, 0xaaaaaaaa, 0x12345678, 0x1f, 0x20, 0x21, 0x3f,
	0x40, 0xffffff, 0x800000, 0xfedcba98, 0x100000000ull, 0xffffffff00000000ull, 0x7fffffffffffffffull,
	0x8000000000000000ull, 0x8000000000000001ull, 0xffffffffffffffffull, 0xfffffffffffffffeull,
	0x123456789abcdef0ull, 0x00000001fffffffeull, 0xa5a5a5a55a5a5a5aull,
};
static const uint64_t SHAMT[] = { 0, 1, 7, 8, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65, 255, 256, 257, 0x80000000, 0xffffffff };
static const uint64_t F32V[] = {
	0, 0x80000000, 1, 0x80000001, 0x7fffff, 0x807fffff, 0x800000, 0x80800000, 0x3f800000, 0xbf800000,
	0x3f800001, 0x3f7fffff, 0x3fc00000, 0x40200000, 0xc0200000, 0x3f000000, 0xbfc00000, 0x40000000,
	0x3eaaaaab, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00001, 0xffc00000, 0x7f800001,
	0x4f000000, 0xcf000000, 0x4effffff, 0x4f800000, 0x5f000000, 0xdf000000, 0x5effffff, 0x5f800000,
	0x477fe000, 0x477ff000, 0x33800000, 0x33000000, 0x3f801000, 0x3f803000, 0x4b800001, 0x40490fdb,
	0xc2c80000, 0x42fe0000, 0x00400000, 0x7e800000, 0x3f7ff000, 0x387fc000, 0xcf000001, 0x4f7fffff,
};
static const uint64_t F64V[] = {
	0, 0x8000000000000000ull, 1, 0x8000000000000001ull, 0x000fffffffffffffull, 0x0010000000000000ull,
	0x8010000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3ff0000000000001ull,
	0x3fefffffffffffffull, 0x3ff8000000000000ull, 0x4004000000000000ull, 0xc004000000000000ull,
	0x3fe0000000000000ull, 0x4000000000000000ull, 0x3fd5555555555555ull, 0x7fefffffffffffffull,
	0xffefffffffffffffull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000001ull,
	0xfff8000000000000ull, 0x7ff0000000000001ull, 0x41e0000000000000ull, 0xc1e0000000000000ull,
	0x41dfffffffc00000ull, 0x41e0000000100000ull, 0xc1e0000000200000ull, 0x41f0000000000000ull,
	0x43e0000000000000ull, 0xc3e0000000000000ull, 0x43dfffffffffffffull, 0x43f0000000000000ull,
	0x47efffffe0000000ull, 0x47efffff00000000ull, 0x36a0000000000000ull, 0x3690000000000000ull,
	0x3ff0000010000000ull, 0x3ff0000030000000ull, 0x380fffffe0000000ull, 0x40effc0000000000ull,
	0x40effe0000000000ull, 0x3e70000000000000ull, 0x400921fb54442d18ull, 0x3ff0000000000003ull,
	0xc3e0000000000001ull, 0x4330000000000001ull,
};
static const uint64_t F16V[] = {
	0, 0x8000, 1, 0x8001, 0x3ff, 0x400, 0x8400, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x3e00, 0x4100, 0xc100,
	0x3800, 0x4000, 0x3555, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e01, 0xfe00, 0x7c01, 0x5bff, 0x6800,
	0x0200, 0x7800, 0x4248, 0xe400, 0x1400, 0x3c02,
};
static const uint64_t BF16V[] = {
	0, 0x8000, 1, 0x8001, 0x7f, 0x80, 0x8080, 0x3f80, 0xbf80, 0x3f81, 0x3f7f, 0x3fc0, 0x4020, 0xc020,
	0x3f00, 0x4000, 0x3eab, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc1, 0xffc0, 0x7f81, 0x4f00, 0xcf00,
	0x5f00, 0x477f, 0x3380, 0x4049, 0x0040, 0x7f00,
};

typedef struct L {
	uint64_t *v;
	int n;
} L;
static L lists[NTY];

static void ladd(L *l, uint64_t x)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i] == x)
			return;
	l->v = realloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
	l->v[l->n++] = x;
}

static void make_lists(void)
{
	for (int t = 0; t < NTY; t++) {
		L *l = &lists[t];
		int w = TY[t].bits;
		switch (t) {
		case F32: case TF32:
			for (size_t i = 0; i < sizeof F32V / sizeof *F32V; i++)
				ladd(l, F32V[i]);
			break;
		case F64:
			for (size_t i = 0; i < sizeof F64V / sizeof *F64V; i++)
				ladd(l, F64V[i]);
			break;
		case F16: case BF16: {
			const uint64_t *s = t == F16 ? F16V : BF16V;
			for (int i = 0; i < 32; i++)
				ladd(l, s[i]);
			break;
		}
		case F16X2: case BF16X2: {
			const uint64_t *s = t == F16X2 ? F16V : BF16V;
			for (int i = 0; i < 32; i++)
				ladd(l, s[i] | s[(i * 7 + 3) % 32] << 16);
			for (int i = 0; i < 8; i++)
				ladd(l, s[i * 3 % 32] << 16 | s[(i * 5 + 1) % 32]);
			break;
		}
		case E4M3X2: case E5M2X2:       /* every byte value in each half */
			for (int i = 0; i < 256; i++) {
				ladd(l, (uint64_t)i << 8 | (uint64_t)((i * 37 + 11) & 255));
				ladd(l, (uint64_t)((i * 101 + 7) & 255) << 8 | (uint64_t)i);
			}
			break;
		case PRED:
			ladd(l, 0);
			ladd(l, 1);
			break;
		default:
			for (size_t i = 0; i < sizeof I64 / sizeof *I64; i++)
				ladd(l, I64[i] & MASK(w));
			ladd(l, (uint64_t)IMIN(w) & MASK(w));
			ladd(l, (uint64_t)IMAX(w) & MASK(w));
			ladd(l, MASK(w));
			ladd(l, MASK(w) - 1);
			ladd(l, ((uint64_t)IMIN(w) + 1) & MASK(w));
			if (w == 8)     /* garbage in the upper byte of the 16-bit register */
				for (int i = 0; i < l->n; i++)
					l->v[i] |= (uint64_t)((i * 37 + 0x5a) & 0xff) << 8;
			break;
		}
	}
}

/* ---- float helpers ------------------------------------------------------------ */
typedef union { float f; uint32_t u; } FU;
typedef union { double f; uint64_t u; } DU;
static float f32of(uint64_t b) { FU x; x.u = (uint32_t)b; return x.f; }
static uint32_t bits32(float f) { FU x; x.f = f; return x.u; }
static double f64of(uint64_t b) { DU x; x.u = b; return x.f; }
static uint64_t bits64(double f) { DU x; x.f = f; return x.u; }

typedef struct Fmt { int eb, mb; } Fmt;
static const Fmt FMT_H = { 5, 10 }, FMT_B = { 8, 7 }, FMT_S = { 8, 23 }, FMT_T = { 8, 10 };

static double dec(uint64_t b, const Fmt *f)
{
	int s = (int)(b >> (f->eb + f->mb)) & 1;
	int e = (int)(b >> f->mb) & ((1 << f->eb) - 1);
	uint64_t m = b & MASK(f->mb);
	int bias = (1 << (f->eb - 1)) - 1;
	double r;
	if (e == (1 << f->eb) - 1)
		r = m ? NAN : INFINITY;
	else if (!e)
		r = ldexp((double)m, 1 - bias - f->mb);
	else
		r = ldexp((double)(m | 1ull << f->mb), e - bias - f->mb);
	return s ? -r : r;
}
static double h2d(uint64_t b) { return dec(b & 0xffff, &FMT_H); }
static double bf2d(uint64_t b) { return dec(b & 0xffff, &FMT_B); }

/* Rounds x (exact, or round-to-odd in double) to format f; NaN is the caller's. */
static uint64_t enc(double x, const Fmt *f, int rnd)
{
	uint64_t sign = signbit(x) ? 1ull << (f->eb + f->mb) : 0;
	uint64_t inf = ((1ull << f->eb) - 1) << f->mb;
	int bias = (1 << (f->eb - 1)) - 1, emin = 1 - bias;
	if (isinf(x))
		return sign | inf;
	double ax = fabs(x);
	if (ax == 0)
		return sign;
	int e;
	frexp(ax, &e);
	int E = e - 1;
	int qe = (E < emin ? emin : E) - f->mb;
	double sc = ldexp(ax, -qe);
	double fl = floor(sc);
	double frac = sc - fl;
	uint64_t m = (uint64_t)fl;
	int up = 0;
	switch (rnd) {
	case RN: up = frac > 0.5 || (frac == 0.5 && (m & 1)); break;
	case RNA: up = frac >= 0.5; break;
	case RZ: up = 0; break;
	case RM: up = sign && frac > 0; break;
	case RP: up = !sign && frac > 0; break;
	}
	m += (uint64_t)up;
	uint64_t r = E < emin ? m : ((uint64_t)(E + bias - 1) << f->mb) + m;
	if (r >= inf) {
		int toinf = rnd == RN || rnd == RNA || (rnd == RP && !sign) || (rnd == RM && sign);
		r = toinf ? inf : inf - 1;
	}
	return sign | r;
}

static int fe(int rnd) { return rnd == RZ ? FE_TOWARDZERO : rnd == RM ? FE_DOWNWARD : rnd == RP ? FE_UPWARD : FE_TONEAREST; }

/* a op b (op c) in double, rounded to odd (53 bits): exact enough for one
 * correct rounding to any format of at most 51 bits. */
static double odd(int op, double a, double b, double c)
{
	volatile double x = a, y = b, z = c, r;
	fesetround(FE_TOWARDZERO);
	feclearexcept(FE_INEXACT);
	switch (op) {
	case FADD: r = x + y; break;
	case FSUB: r = x - y; break;
	case FMUL: r = x * y; break;
	case FFMA: r = fma(x, y, z); break;
	default: r = x; break;
	}
	int inex = fetestexcept(FE_INEXACT);
	fesetround(FE_TONEAREST);
	double rr = r;
	if (inex && isfinite(rr))
		rr = f64of(bits64(rr) | 1);
	return rr;
}
static double odd_i(uint64_t v, int sgn)
{
	volatile uint64_t u = v;
	volatile int64_t s = (int64_t)v;
	volatile double r;
	fesetround(FE_TOWARDZERO);
	feclearexcept(FE_INEXACT);
	if (sgn)
		r = (double)s;
	else
		r = (double)u;
	int inex = fetestexcept(FE_INEXACT);
	fesetround(FE_TONEAREST);
	double rr = r;
	if (inex)
		rr = f64of(bits64(rr) | 1);
	return rr;
}

static float f32_op(int op, float a, float b, float c, int rnd)
{
	volatile float x = a, y = b, z = c, r;
	fesetround(fe(rnd));
	switch (op) {
	case FADD: r = x + y; break;
	case FSUB: r = x - y; break;
	case FMUL: r = x * y; break;
	case FFMA: r = fmaf(x, y, z); break;
	case FDIV: r = x / y; break;
	case FSQRT: r = sqrtf(x); break;
	case FRCP: r = 1.0f / x; break;
	default: r = 0; break;
	}
	fesetround(FE_TONEAREST);
	return r;
}
static double f64_op(int op, double a, double b, double c, int rnd)
{
	volatile double x = a, y = b, z = c, r;
	fesetround(fe(rnd));
	switch (op) {
	case FADD: r = x + y; break;
	case FSUB: r = x - y; break;
	case FMUL: r = x * y; break;
	case FFMA: r = fma(x, y, z); break;
	case FDIV: r = x / y; break;
	case FSQRT: r = sqrt(x); break;
	case FRCP: r = 1.0 / x; break;
	default: r = 0; break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

#define CN32 0x7fffffffull
#define CN64 0x7fffffffffffffffull
#define CN16 0x7fffull

static int fis_sub32(uint64_t b) { return (b & 0x7f800000) == 0 && (b & 0x7fffff); }
static uint64_t ftz32(uint64_t b) { return fis_sub32(b) ? b & 0x80000000 : b; }
static int fis_sub16(uint64_t b) { return (b & 0x7c00) == 0 && (b & 0x3ff); }
static uint64_t ftz16(uint64_t b) { return fis_sub16(b) ? b & 0x8000 : b; }
static int fis_subb(uint64_t b) { return (b & 0x7f80) == 0 && (b & 0x7f); }
static uint64_t ftzb(uint64_t b) { return fis_subb(b) ? b & 0x8000 : b; }

/* .sat on an encoded non-NaN result of format: one of 32, 64, 16 (f16), 17 (bf16) */
static uint64_t satf(uint64_t r, int fmt)
{
	double x;
	uint64_t one;
	switch (fmt) {
	case 32: x = f32of(r); one = 0x3f800000; break;
	case 64: x = f64of(r); one = 0x3ff0000000000000ull; break;
	case 16: x = h2d(r); one = 0x3c00; break;
	default: x = bf2d(r); one = 0x3f80; break;
	}
	if (isnan(x) || !(x > 0))
		return 0;
	if (x > 1)
		return one;
	return r;
}

/* ---- references ------------------------------------------------------------------ */
static uint64_t popc64(uint64_t x) { return (uint64_t)__builtin_popcountll(x); }

static uint64_t ref_int(const V *v, const uint64_t *in, uint64_t *r2)
{
	int t = v->t, w = TY[t].bits, s = is_signed(t);
	uint64_t m = MASK(w), a = in[0] & m, b = in[1] & m, c = in[2] & m;
	int64_t sa = SX(a, w), sb = SX(b, w), sc = SX(c, w);
	__int128 p;
	switch (v->op) {
	case ADD:
		if (t == U16X2 || t == S16X2)
			return ((a + b) & 0xffff) | (((a >> 16) + (b >> 16)) & 0xffff) << 16;
		return a + b;
	case SUB: return a - b;
	case MULLO: return a * b;
	case MULHI:
		p = s ? (__int128)sa * sb : (__int128)((unsigned __int128)a * b);
		if (!s)
			return (uint64_t)(((unsigned __int128)a * b) >> w);
		return (uint64_t)(p >> w);
	case MULWIDE: return s ? (uint64_t)(sa * sb) : a * b;
	case MADLO: return a * b + c;
	case MADHI:
		if (!s)
			return (uint64_t)(((unsigned __int128)a * b) >> w) + c;
		return (uint64_t)(((__int128)sa * sb) >> w) + c;
	case MADWIDE: {
		int w2 = 2 * w;
		uint64_t c2 = in[2] & MASK(w2);
		return s ? (uint64_t)(sa * sb) + c2 : a * b + c2;
	}
	case ADDSAT: case SUBSAT: case MADHISAT: {
		int64_t x = v->op == ADDSAT ? sa + sb : v->op == SUBSAT ? sa - sb : (int64_t)(((__int128)sa * sb) >> 32) + sc;
		return (uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
	}
	case SAD:
		if (s)
			return c + (sa < sb ? (uint64_t)sb - (uint64_t)sa : (uint64_t)sa - (uint64_t)sb);
		return c + (a < b ? b - a : a - b);
	case DIV:
		if (!b)
			return ~0ull;   /* by zero: all ones, as rem (an H200's) */
		if (s)
			return sa == IMIN(w) && sb == -1 ? a : (uint64_t)(sa / sb);
		return a / b;
	case REM:
		if (!b)
			return ~0ull;
		if (s)
			return sb == -1 ? 0 : (uint64_t)(sa % sb);
		return a % b;
	case ABS: return sa < 0 ? -a : a;
	case NEG: return -a;
	case MIN: case MINRELU: case MAX: case MAXRELU: {
		if (t == U16X2 || t == S16X2) {
			uint64_t r = 0;
			for (int h = 0; h < 2; h++) {
				uint64_t x = a >> 16 * h & 0xffff, y = b >> 16 * h & 0xffff, z;
				int64_t xs = SX(x, 16), ys = SX(y, 16);
				int mn = v->op == MIN || v->op == MINRELU;
				if (s)
					z = (uint64_t)(mn ? (xs < ys ? xs : ys) : (xs > ys ? xs : ys));
				else
					z = mn ? (x < y ? x : y) : (x > y ? x : y);
				if ((v->op == MINRELU || v->op == MAXRELU) && SX(z, 16) < 0)
					z = 0;
				r |= (z & 0xffff) << 16 * h;
			}
			return r;
		}
		int mn = v->op == MIN || v->op == MINRELU;
		uint64_t z = s ? (uint64_t)(mn ? (sa < sb ? sa : sb) : (sa > sb ? sa : sb)) : mn ? (a < b ? a : b) : (a > b ? a : b);
		if ((v->op == MINRELU || v->op == MAXRELU) && SX(z, w) < 0)
			z = 0;
		return z;
	}
	case POPC: return popc64(a);
	case CLZ: return a ? (uint64_t)(__builtin_clzll(a) - (64 - w)) : (uint64_t)w;
	case BFIND: case BFINDSA: {
		uint64_t x = s && sa < 0 ? ~a & m : a;
		if (!x)
			return 0xffffffff;
		int pos = 63 - __builtin_clzll(x);
		return v->op == BFINDSA ? (uint64_t)(w - 1 - pos) : (uint64_t)pos;
	}
	case BREV: {
		uint64_t r = 0;
		for (int i = 0; i < w; i++)
			if (a >> i & 1)
				r |= 1ull << (w - 1 - i);
		return r;
	}
	case BFE: {
		int msb = w - 1;
		unsigned pos = in[1] & 0xff, len = in[2] & 0xff;
		int sbit = 0;
		if (s && len) {
			unsigned k = pos + len - 1;
			sbit = (int)(a >> (k < (unsigned)msb ? k : (unsigned)msb) & 1);
		}
		uint64_t r = 0;
		for (int i = 0; i <= msb; i++) {
			int bit = ((unsigned)i < len && pos + (unsigned)i <= (unsigned)msb) ? (int)(a >> (pos + i) & 1) : sbit;
			r |= (uint64_t)bit << i;
		}
		return r;
	}
	case BFI: {
		int msb = w - 1;
		unsigned pos = in[2] & 0xff, len = in[3] & 0xff;
		uint64_t f = b;
		for (unsigned i = 0; i < len && pos + i <= (unsigned)msb; i++)
			f = (f & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
		return f;
	}
	case SZEXT: {
		unsigned n = (uint32_t)in[1];
		n = v->x ? (n > 32 ? 32 : n) : n & 31;     /* x: clamp */
		if (!n)
			return 0;
		uint64_t f = a & MASK((int)n);
		return s ? (uint64_t)SX(f, (int)n) & 0xffffffff : f;
	}
	case BMSK: {
		unsigned p0 = (uint32_t)in[0], n = (uint32_t)in[1];
		if (v->x) {
			p0 = p0 > 32 ? 32 : p0;
			n = n > 32 ? 32 : n;
		} else {
			p0 &= 31;
			n &= 31;
		}
		uint64_t m0 = p0 >= 32 ? 0 : (0xffffffffull << p0) & 0xffffffff;
		uint64_t m1 = p0 + n >= 32 ? 0 : (0xffffffffull << (p0 + n)) & 0xffffffff;
		return m0 & ~m1;
	}
	case DP4A: case DP2ALO: case DP2AHI: {
		int as = v->t == S32, bs = v->t2 == S32;
		int64_t sum = (int64_t)SX(c, 32);
		if (v->op == DP4A)
			for (int i = 0; i < 4; i++) {
				uint64_t x = a >> 8 * i & 0xff, y = b >> 8 * i & 0xff;
				sum += (as ? SX(x, 8) : (int64_t)x) * (bs ? SX(y, 8) : (int64_t)y);
			}
		else
			for (int i = 0; i < 2; i++) {
				uint64_t x = a >> 16 * i & 0xffff, y = b >> 8 * (i + (v->op == DP2AHI ? 2 : 0)) & 0xff;
				sum += (as ? SX(x, 16) : (int64_t)x) * (bs ? SX(y, 8) : (int64_t)y);
			}
		return (uint64_t)sum;
	}
	case AND: return a & b;
	case OR: return a | b;
	case XOR: return a ^ b;
	case NOT: return ~a;
	case CNOT: return a == 0;
	case LOP3: case LOP3P: {
		uint64_t r = 0;
		for (int i = 0; i < 32; i++) {
			unsigned k = (unsigned)((a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1));
			r |= (uint64_t)(v->x >> k & 1) << i;
		}
		if (v->op == LOP3P && r2) {
			int q = in[3] != 0, z = (r & 0xffffffff) != 0;
			*r2 = v->bop ? (z || q) : (z && q);
		}
		return r;
	}
	case SHFL: case SHFR: {
		unsigned n = (uint32_t)in[2];
		n = v->x ? (n > 32 ? 32 : n) : n & 31;
		uint64_t bits = (b & 0xffffffff) << 32 | (a & 0xffffffff);
		if (v->op == SHFL)
			return (bits << n) >> 32;
		return bits >> n;
	}
	case SHL: {
		uint64_t n = (uint32_t)in[1];
		return n >= (uint64_t)w ? 0 : a << n;
	}
	case SHR: {
		uint64_t n = (uint32_t)in[1];
		if (s)
			return (uint64_t)(n >= (uint64_t)w ? (sa < 0 ? -1 : 0) : sa >> n);
		return n >= (uint64_t)w ? 0 : a >> n;
	}
	case MUL24LO: case MUL24HI: case MAD24LO: case MAD24HI: case MAD24HISAT: {
		int64_t x = s ? SX(a & 0xffffff, 24) : (int64_t)(a & 0xffffff);
		int64_t y = s ? SX(b & 0xffffff, 24) : (int64_t)(b & 0xffffff);
		int64_t pr = x * y;
		uint64_t r = (v->op == MUL24HI || v->op == MAD24HI || v->op == MAD24HISAT) ? (uint64_t)(pr >> 16) : (uint64_t)pr;
		if (v->op == MAD24HISAT) {
			int64_t z = SX(r, 32) + sc;
			return (uint64_t)(z > INT32_MAX ? INT32_MAX : z < INT32_MIN ? INT32_MIN : z);
		}
		if (v->op >= MAD24LO)
			r += c;
		return r;
	}
	case FNS: {     /* fns.b32 d, mask, base, offset (base <= 31) */
		int base = (int)(uint32_t)in[1], off = (int)(int32_t)(uint32_t)in[2];
		if (!off)
			return (a >> base & 1) ? (uint64_t)base : 0xffffffff;
		long long cnt = llabs((long long)off) - 1;
		int inc = off > 0 ? 1 : -1;
		for (int pos = base; pos >= 0 && pos < 32; pos += inc)
			if (a >> pos & 1) {
				if (!cnt)
					return (uint64_t)pos;
				cnt--;
			}
		return 0xffffffff;
	}
	case PRMT: {
		uint8_t by[8];
		for (int i = 0; i < 4; i++) {
			by[i] = (uint8_t)(a >> 8 * i);
			by[4 + i] = (uint8_t)(b >> 8 * i);
		}
		uint32_t sel = (uint32_t)in[2], r = 0;
		static const uint8_t tab[6][4][4] = {
			/* f4e */ { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
			/* b4e */ { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
			/* rc8 */ { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
			/* ecl */ { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
			/* ecr */ { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
			/* rc16 */ { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
		};
		for (int i = 0; i < 4; i++) {
			uint8_t x;
			if (!v->x) {
				unsigned nib = sel >> 4 * i & 0xf;
				x = by[nib & 7];
				if (nib & 8)
					x = (x & 0x80) ? 0xff : 0;
			} else
				x = by[tab[v->x - 1][sel & 3][i]];
			r |= (uint32_t)x << 8 * i;
		}
		return r;
	}
	}
	return 0;
}

static int icmp(int cmp, int t, uint64_t a, uint64_t b)
{
	int w = TY[t].bits;
	a &= MASK(w);
	b &= MASK(w);
	int64_t x = SX(a, w), y = SX(b, w);
	int s = is_signed(t);
	switch (cmp) {
	case 0: return a == b;
	case 1: return a != b;
	case 2: return s ? x < y : a < b;
	case 3: return s ? x <= y : a <= b;
	case 4: return s ? x > y : a > b;
	case 5: return s ? x >= y : a >= b;
	case 6: return a < b;   /* lo */
	case 7: return a <= b;  /* ls */
	case 8: return a > b;   /* hi */
	case 9: return a >= b;  /* hs */
	}
	return 0;
}
static const char *const CMPN[] = { "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
				    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
static int fcmp(int cmp, double a, double b)
{
	int un = isnan(a) || isnan(b);
	switch (cmp) {
	case 0: return !un && a == b;
	case 1: return !un && a != b;
	case 2: return !un && a < b;
	case 3: return !un && a <= b;
	case 4: return !un && a > b;
	case 5: return !un && a >= b;
	case 10: return un || a == b;
	case 11: return un || a != b;
	case 12: return un || a < b;
	case 13: return un || a <= b;
	case 14: return un || a > b;
	case 15: return un || a >= b;
	case 16: return !un;
	case 17: return un;
	}
	return 0;
}
static int bool_op(int bop, int t, int q) { return bop == 1 ? t && q : bop == 2 ? t || q : bop == 3 ? t ^ q : t; }

/* a float source value of type t (ftz applied where asked) */
static double fval(int t, uint64_t b, int ftz)
{
	switch (t) {
	case F32: return f32of(ftz ? ftz32(b) : b);
	case F64: return f64of(b);
	case F16: return h2d(ftz ? ftz16(b) : b);
	case BF16: return bf2d(b);
	}
	return 0;
}

/* an exact or round-to-odd double, rounded to float type t */
static uint64_t fenc(int t, double x, int rnd)
{
	if (isnan(x))
		return t == F64 ? CN64 : t == F32 ? CN32 : CN16;
	switch (t) {
	case F32: return enc(x, &FMT_S, rnd);
	case F16: return enc(x, &FMT_H, rnd);
	case BF16: return enc(x, &FMT_B, rnd);
	case TF32: return enc(x, &FMT_T, rnd) << 13;
	}
	return bits64(x);
}

/* f16/bf16 arithmetic on one lane (16 bits) */
static uint64_t har1(const V *v, int t, uint64_t a, uint64_t b, uint64_t c)
{
	int h = t == F16 || t == F16X2;
	int st = h ? F16 : BF16;
	if (v->ftz && h) {
		a = ftz16(a);
		b = ftz16(b);
		c = ftz16(c);
	}
	if (v->x && ((a & 0x7fff) == 0x7ff7 || (b & 0x7fff) == 0x7ff7))
		return 0;       /* fma.oob: a multiplicand is the OOB-NaN */
	double x = fval(st, a, 0), y = fval(st, b, 0), z = fval(st, c, 0);
	double r = odd(v->op, x, y, z);
	uint64_t e = fenc(st, r, RN);
	if (isnan(r))
		return v->sat ? 0 : CN16;
	if (v->ftz && h)
		e = ftz16(e);
	if (v->relu && (e & 0x8000))
		e = 0;
	if (v->sat)
		e = satf(e, h ? 16 : 17);
	return e;
}

static uint64_t ref_far(const V *v, const uint64_t *in)
{
	if (v->t == F32) {
		uint64_t a = in[0], b = in[1], c = in[2];
		if (v->ftz) {
			a = ftz32(a);
			b = ftz32(b);
			c = ftz32(c);
		}
		float r = f32_op(v->op, f32of(a), f32of(b), f32of(c), v->rnd == RNONE ? RN : v->rnd);
		if (isnan(r))
			return v->sat ? 0 : CN32;
		uint64_t e = bits32(r);
		if (v->ftz)
			e = ftz32(e);
		/* add, sub, mul, fma: .ftz flushes a result whose exact value is
		 * below 2^-126 even when it rounds up to 2^-126 (an H200's) */
		if (v->ftz && v->op <= FFMA &&
		    fabsf(f32_op(v->op, f32of(a), f32of(b), f32of(c), RZ)) < 0x1p-126f)
			e &= 0x80000000;
		if (v->sat)
			e = satf(e, 32);
		return e;
	}
	if (v->t == F64) {
		double r = f64_op(v->op, f64of(in[0]), f64of(in[1]), f64of(in[2]), v->rnd == RNONE ? RN : v->rnd);
		if (isnan(r)) {
			/* an H200's: the first NaN operand, b a for add, sub, mul,
			 * b c a for fma, a b for div, quieted; else -NaN */
			static const int order[][3] = {
				[FADD] = { 1, 0, -1 }, [FSUB] = { 1, 0, -1 }, [FMUL] = { 1, 0, -1 },
				[FFMA] = { 1, 2, 0 }, [FDIV] = { 0, 1, -1 }, [FSQRT] = { 0, -1, -1 },
				[FRCP] = { 0, -1, -1 },
			};
			for (int k = 0; k < 3 && order[v->op][k] >= 0; k++)
				if (isnan(f64of(in[order[v->op][k]])))
					return in[order[v->op][k]] | 0x0008000000000000ull;
			return 0xfff8000000000000ull;
		}
		return bits64(r);
	}
	/* f16, bf16 and packed */
	if (v->t == F16X2 || v->t == BF16X2) {
		uint64_t lo = har1(v, v->t, in[0] & 0xffff, in[1] & 0xffff, in[2] & 0xffff);
		uint64_t hi = har1(v, v->t, in[0] >> 16 & 0xffff, in[1] >> 16 & 0xffff, in[2] >> 16 & 0xffff);
		return hi << 16 | lo;
	}
	return har1(v, v->t, in[0] & 0xffff, in[1] & 0xffff, in[2] & 0xffff);
}

/* min/max on one lane of format t (F32, F64, F16, BF16) */
static uint64_t mm1(const V *v, int t, uint64_t a, uint64_t b)
{
	int w = t == F64 ? 64 : t == F32 ? 32 : 16;
	uint64_t cn = t == F64 ? CN64 : t == F32 ? CN32 : CN16, sb = 1ull << (w - 1);
	if (v->ftz) {
		if (t == F32) {
			a = ftz32(a);
			b = ftz32(b);
		} else if (t == F16) {
			a = ftz16(a);
			b = ftz16(b);
		}
	}
	double x = fval(t, a, 0), y = fval(t, b, 0);
	int mn = v->op == MIN;
	uint64_t r;
	int xs = v->x; /* xorsign.abs */
	uint64_t sgn = (a ^ b) & sb;
	if (xs) {
		a &= ~sb;
		b &= ~sb;
		x = fabs(x);
		y = fabs(y);
	}
	if (t == F64 && isnan(x) && isnan(y))
		return b | 0x0008000000000000ull;       /* b, quieted (an H200's) */
	if ((isnan(x) && isnan(y)) || (v->nan && (isnan(x) || isnan(y))))
		return cn;
	if (isnan(x))
		r = b;
	else if (isnan(y))
		r = a;
	else if (x == y && x == 0)
		r = mn ? ((a & sb) ? a : b) : ((a & sb) ? b : a);
	else
		r = mn ? (x < y ? a : b) : (x > y ? a : b);
	if (xs)
		r = (r & ~sb) | sgn;
	return r;
}

static uint64_t absneg1(const V *v, int t, uint64_t a)
{
	int w = t == F64 ? 64 : t == F32 ? 32 : 16;
	uint64_t sb = 1ull << (w - 1);
	if (v->ftz)
		a = t == F32 ? ftz32(a) : t == F16 ? ftz16(a) : a;
	if (t != F64 && isnan(fval(t, a, 0)))
		return t == F32 ? CN32 : CN16;  /* an H200's; f64's are bitwise */
	return v->op == ABS ? a & ~sb : a ^ sb;
}

static int testp(int cls, int t, uint64_t a)
{
	double x = fval(t, a, 0);
	int sub = t == F32 ? fis_sub32(a) : ((a & 0x7ff0000000000000ull) == 0 && (a & 0xfffffffffffffull));
	switch (cls) {
	case 0: return isfinite(x) != 0;
	case 1: return isinf(x) != 0;
	case 2: return !isnan(x);
	case 3: return isnan(x) != 0;
	case 4: return isfinite(x) && !sub;     /* ±0 counts as normal */
	case 5: return sub;
	}
	return 0;
}

static int is_int(int t) { return TY[t].kind == 'u' || TY[t].kind == 's' || TY[t].kind == 'b'; }

static uint64_t ext_to_reg(uint64_t x, int t)
{
	int w = TY[t].bits, rw = rbits(t);
	return (is_signed(t) ? (uint64_t)SX(x, w) : x & MASK(w)) & MASK(rw);
}

/* cvt of a NaN between float types, as an H200 does it: bf16 -> f32 moves
 * the bits; f32 -> f64 and f64 -> anything keep the sign and the top of the
 * payload with the quiet bit set (f16 and bf16 reach f64 through f32); the
 * others give the canonical NaN. */
static uint64_t cvt_nan_ref(int dt, int stt, uint64_t a)
{
	static const struct { int t, mb, ew; uint64_t cn; } F[] = {
		{ F16, 10, 5, CN16 }, { BF16, 7, 8, CN16 }, { F32, 23, 8, CN32 }, { F64, 52, 11, CN64 },
	};
	int d = 0, s = 0;
	for (int i = 0; i < 4; i++) {
		if (F[i].t == dt)
			d = i;
		if (F[i].t == stt)
			s = i;
	}
	if (stt == BF16 && dt == F32)
		return a << 16;
	if ((stt == F16 || stt == BF16) && dt == F64)
		return cvt_nan_ref(F64, F32, cvt_nan_ref(F32, stt, a));
	if (stt != F64 && dt != F64)
		return F[d].cn;
	uint64_t sign = a >> (F[s].mb + F[s].ew) & 1, pay = a & MASK(F[s].mb);
	pay = F[d].mb > F[s].mb ? pay << (F[d].mb - F[s].mb) : pay >> (F[s].mb - F[d].mb);
	return sign << (F[d].mb + F[d].ew) | MASK(F[d].ew + 1) << (F[d].mb - 1) | pay;
}

/* cvt: one conversion of a scalar value (src type t2, dst type t) */
static uint64_t cvt1(const V *v, int dt, int stt, uint64_t a)
{
	int sw = TY[stt].bits, dw = TY[dt].bits;
	if (is_int(dt) && is_int(stt)) {
		uint64_t x = a & MASK(sw);
		if (v->sat) {
			if (is_signed(stt)) {
				int64_t y = SX(x, sw);
				int64_t lo = is_signed(dt) ? IMIN(dw) : 0;
				if (y < lo)
					y = lo;
				if (is_signed(dt) ? y > IMAX(dw) : (dw < 64 && y > (int64_t)MASK(dw)))
					y = is_signed(dt) ? IMAX(dw) : (int64_t)MASK(dw);
				x = (uint64_t)y;
			} else {
				uint64_t hi = is_signed(dt) ? (uint64_t)IMAX(dw) : MASK(dw);
				if (x > hi)
					x = hi;
			}
		} else if (is_signed(stt))
			x = (uint64_t)SX(x, sw);
		return ext_to_reg(x, dt);
	}
	if (is_int(dt)) {       /* float -> int */
		double x = fval(stt, a, v->ftz);
		if (isnan(x))           /* an H200's: 0, or only the top bit where a side has 64 bits */
			return sw < 64 && dw < 64 ? 0 : ext_to_reg(1ull << (dw - 1), dt);
		switch (v->irnd) {
		case RN: fesetround(FE_TONEAREST); x = nearbyint(x); break;
		case RZ: x = trunc(x); break;
		case RM: x = floor(x); break;
		case RP: x = ceil(x); break;
		}
		uint64_t r;
		if (is_signed(dt)) {
			if (x >= ldexp(1, dw - 1))
				r = (uint64_t)IMAX(dw);
			else if (x < -ldexp(1, dw - 1))
				r = (uint64_t)IMIN(dw);
			else
				r = (uint64_t)(int64_t)x;
		} else {
			if (x >= ldexp(1, dw))
				r = MASK(dw);
			else if (x <= 0)
				r = 0;
			else
				r = (uint64_t)x;
		}
		return ext_to_reg(r, dt);
	}
	/* -> float */
	int fmt = dt == F64 ? 64 : dt == F32 ? 32 : dt == F16 ? 16 : 17;
	uint64_t r;
	int rnd = v->rnd == RNONE ? RN : v->rnd;
	if (is_int(stt)) {
		uint64_t x = a & MASK(sw);
		int sg = is_signed(stt);
		if (sg)
			x = (uint64_t)SX(x, sw);
		if (dt == F64) {
			/* through the signed conversion, which x86-64 has in hardware:
			 * compilers expand the unsigned one into arithmetic that gives
			 * -0 when rounding down; unsigned values of 2^63 and above are
			 * halved with the lost bit kept sticky, then doubled exactly */
			int big = !sg && x >> 63;
			volatile int64_t si = big ? (int64_t)(x >> 1 | (x & 1)) : (int64_t)x;
			volatile double d;
			fesetround(fe(rnd));
			d = (double)si;
			fesetround(FE_TONEAREST);
			if (big)
				d = 2 * d;
			r = bits64(d);
		} else
			r = fenc(dt, odd_i(x, sg), rnd);
	} else {
		int sftz = v->ftz && stt == F32;
		double x = fval(stt, a, sftz);
		if (isnan(x))       /* .sat: NaN results become +0 */
			return v->sat ? 0 : cvt_nan_ref(dt, stt, a);
		if (v->irnd != RNONE) {
			switch (v->irnd) {
			case RN: fesetround(FE_TONEAREST); x = nearbyint(x); break;
			case RZ: x = trunc(x); break;
			case RM: x = floor(x); break;
			case RP: x = ceil(x); break;
			}
		}
		r = fenc(dt, x, rnd);
		if (v->relu && (r >> (dt == F64 ? 63 : dt == F32 ? 31 : 15) & 1))
			r = 0;
		if (v->satf) {
			uint64_t inf = dt == F16 ? 0x7c00 : dt == BF16 ? 0x7f80 : 0x7f800000;
			uint64_t sb = dt == F32 ? 0x80000000 : 0x8000;
			if ((r & ~sb) == inf)
				r = (r & sb) | (inf - 1);
		}
	}
	if (v->ftz && dt == F32)
		r = ftz32(r);
	if (v->sat)
		r = satf(r, fmt);
	return r;
}

/* ---- tf32, the 8-bit formats, cvt.pack --------------------------------------------- */
/* tf32: f32's exponent, 10 fraction bits, kept in an f32 with 13 zero bits */
static uint64_t tf32_ref(const V *v, uint64_t a)
{
	double x = f32of(a);
	uint64_t r;
	if (!isnan(x))
		r = enc(x, &FMT_T, v->rnd) << 13;
	else if (v->rnd == RNA)
		r = a & 0xffffe000;     /* an H200's: the NaN's bits truncated */
	else
		return 0x7fffe000;      /* .rn, .rz: f32's canonical NaN truncated */
	if (v->satf && (r & 0x7f800000) == 0x7f800000)
		r -= 0x2000;            /* inf or NaN: one tf32 unit less (an H200's) */
	if (v->relu && (r >> 31))
		r = 0;
	return r;
}

/* e4m3 (bias 7, S.1111.111 the only NaN, no infinity) and e5m2 (bias 15,
 * IEEE-like): the value of a code, decoded from its fields */
static double fp8_value(unsigned code, int e5)
{
	int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7;
	unsigned e = (code & 0x7f) >> mb, m = code & ((1u << mb) - 1);
	double r = e ? ldexp(1 + m / (double)(1 << mb), (int)e - bias) : ldexp(m / (double)(1 << mb), 1 - bias);
	return code & 0x80 ? -r : r;
}

/* cvt.rn.satfinite to an 8-bit format: the nearest finite code by search
 * (ties to the even code), so beyond the largest value, the largest */
static uint64_t fp8_ref(double x, int e5, int relu)
{
	if (isnan(x))
		return 0x7f;
	if (relu && signbit(x))
		return 0;
	unsigned maxc = e5 ? 0x7b : 0x7e, best = maxc;
	double ax = fabs(x), bd = INFINITY;
	for (unsigned c = 0; c <= maxc && ax < fp8_value(maxc, e5); c++) {
		double dd = fabs(fp8_value(c, e5) - ax);
		if (dd < bd || (dd == bd && !(c & 1))) {
			bd = dd;
			best = c;
		}
	}
	return (signbit(x) ? 0x80u : 0) | best;
}

/* an 8-bit code to f16: exact; NaN is the canonical NaN */
static uint64_t fp8_to_f16_ref(unsigned code, int e5, int relu)
{
	if (e5 ? (code & 0x7f) > 0x7c : (code & 0x7f) == 0x7f)
		return CN16;
	if (relu && (code & 0x80))
		return 0;
	if (e5 && (code & 0x7f) == 0x7c)
		return code & 0x80 ? 0xfc00 : 0x7c00;
	return enc(fp8_value(code, e5), &FMT_H, RN);
}

static uint64_t cvt_narrow(const V *v, const uint64_t *in)
{
	if (v->t == TF32)
		return tf32_ref(v, in[0]);
	if (v->t == E4M3X2 || v->t == E5M2X2) {
		int e5 = v->t == E5M2X2;
		if (v->t2 == F32)
			return fp8_ref(f32of(in[0]), e5, v->relu) << 8 | fp8_ref(f32of(in[1]), e5, v->relu);
		return fp8_ref(h2d(in[0] >> 16), e5, v->relu) << 8 | fp8_ref(h2d(in[0]), e5, v->relu);
	}
	int e5 = v->t2 == E5M2X2;       /* f16x2 <- 8-bit pairs */
	return fp8_to_f16_ref((unsigned)(in[0] >> 8) & 0xff, e5, v->relu) << 16 |
	       fp8_to_f16_ref((unsigned)in[0] & 0xff, e5, v->relu);
}

/* cvt.pack.sat.T.s32 d, a, b{, c}: v->x is T's width, v->t its signedness */
static uint64_t pack_ref(const V *v, const uint64_t *in)
{
	int w = v->x;
	int64_t lo = is_signed(v->t) ? -(1ll << (w - 1)) : 0, hi = is_signed(v->t) ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
	int64_t a = SX(in[0], 32), b = SX(in[1], 32);
	a = a < lo ? lo : a > hi ? hi : a;
	b = b < lo ? lo : b > hi ? hi : b;
	uint64_t r = ((uint64_t)a & MASK(w)) << w | ((uint64_t)b & MASK(w));
	if (v->ns > 2)
		r |= (in[2] & 0xffffffff) << (2 * w);
	return r & 0xffffffff;
}

/* ---- video instructions ------------------------------------------------------------ */
enum { VADD, VSUB, VABSDIFF, VMIN, VMAX, VSHL, VSHR, VSET, VMAD, VAVRG };
static const char *const VOPN[] = { "add", "sub", "absdiff", "min", "max", "shl", "shr", "set", "mad", "avrg" };

/* partSelectSignExtend: the word, byte or half-word a selector names */
static __int128 vpart(uint64_t x, int sel, int sg)
{
	int w = sel == 0 ? 32 : sel <= 4 ? 8 : 16, at = sel == 0 ? 0 : sel <= 4 ? 8 * (sel - 1) : 16 * (sel - 5);
	uint64_t f = x >> at & MASK(w);
	return sg ? (__int128)SX(f, w) : (__int128)f;
}

static __int128 clampw(__int128 r, int w, int sg)
{
	__int128 lo = sg ? -((__int128)1 << (w - 1)) : 0, hi = sg ? ((__int128)1 << (w - 1)) - 1 : ((__int128)1 << w) - 1;
	return r < lo ? lo : r > hi ? hi : r;
}

static int vcompare(int cmp, __int128 a, __int128 b)
{
	switch (cmp) {
	case 0: return a == b;
	case 1: return a != b;
	case 2: return a < b;
	case 3: return a <= b;
	case 4: return a > b;
	}
	return a >= b;
}

/* The scalar video instructions, as the PTX ISA's pseudocode states them. */
static uint64_t video_ref(const V *v, const uint64_t *in)
{
	__int128 a = vpart(in[0], v->vsel[1], v->vsg[1]), b = vpart(in[1], v->vsel[2], v->vsg[2]), t = 0;
	uint32_t c = (uint32_t)in[2];
	if (v->op == VMAD) {
		int na = v->vneg[0], nb = v->vneg[1], nc = v->vneg[2], po = v->x;
		int sf = v->vsg[1] || v->vsg[2] || (na ^ nb) || nc;
		__int128 tmp = a * b, lsb = 0;
		if (po)
			lsb = 1;
		else if (na ^ nb)
			tmp = ~tmp, lsb = 1;
		else if (nc)
			c = ~c, lsb = 1;
		tmp = tmp + (sf ? (__int128)(int32_t)c : (__int128)c) + lsb;
		if (v->bop)
			tmp >>= v->bop;         /* .shr7, .shr15 */
		if (v->sat)
			tmp = clampw(tmp, 32, sf);
		return (uint64_t)tmp & 0xffffffff;
	}
	switch (v->op) {
	case VADD: t = a + b; break;
	case VSUB: t = a - b; break;
	case VABSDIFF: t = a > b ? a - b : b - a; break;
	case VMIN: t = a < b ? a : b; break;
	case VMAX: t = a > b ? a : b; break;
	case VSHL: case VSHR: {
		uint64_t n = (uint64_t)b;
		n = v->x ? n & 0x1f : n > 32 ? 32 : n;      /* x: .wrap */
		t = v->op == VSHL ? a * ((__int128)1 << n) : a >> n;
		if (v->op == VSHL)      /* the GPU's shifter: 34 bits, signed */
			t = (t % ((__int128)1 << 34) + ((__int128)3 << 33)) % ((__int128)1 << 34) - ((__int128)1 << 33);
		break;
	}
	case VSET: t = vcompare(v->cmp, a, b); break;
	}
	int dsel = v->vsel[0], ds = v->vsg[0];
	if (v->sat)
		t = clampw(t, dsel == 0 ? 32 : dsel <= 4 ? 8 : 16, ds);
	__int128 cc = ds ? (__int128)(int32_t)c : (__int128)c;
	switch (v->op2) {
	case 1: t = t + cc; break;
	case 2: t = t < cc ? t : cc; break;
	case 3: t = t > cc ? t : cc; break;
	}
	uint64_t r = (uint64_t)t & 0xffffffff;
	if (dsel) {
		int w = dsel <= 4 ? 8 : 16, at = dsel <= 4 ? 8 * (dsel - 1) : 16 * (dsel - 5);
		r = (r & MASK(w)) << at | (c & ~(MASK(w) << at));
	}
	return r & 0xffffffff;
}

/* The SIMD video instructions: vsel[1], vsel[2] list the source element of
 * each lane (lane i in nibble i, counting a's elements then b's), vsel[0]
 * the mask of lanes written. */
static uint64_t simd_ref(const V *v, const uint64_t *in)
{
	int w = v->x, n = 32 / w;
	uint64_t ab = (in[1] & 0xffffffff) << 32 | (in[0] & 0xffffffff);
	uint32_t c = (uint32_t)in[2], d = 0;
	int64_t acc = 0;
	for (int i = 0; i < n; i++) {
		uint64_t ea = ab >> (w * (v->vsel[1] >> (4 * i) & 15)) & MASK(w);
		uint64_t eb = ab >> (w * (v->vsel[2] >> (4 * i) & 15)) & MASK(w);
		int64_t va = v->vsg[1] ? SX(ea, w) : (int64_t)ea, vb = v->vsg[2] ? SX(eb, w) : (int64_t)eb, t = 0;
		switch (v->op) {
		case VADD: t = va + vb; break;
		case VSUB: t = va - vb; break;
		case VAVRG: t = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1; break;
		case VABSDIFF: t = va > vb ? va - vb : vb - va; break;
		case VMIN: t = va < vb ? va : vb; break;
		case VMAX: t = va > vb ? va : vb; break;
		case VSET: t = vcompare(v->cmp, va, vb); break;
		}
		if (v->sat)
			t = (int64_t)clampw(t, w, v->vsg[0]);
		int on = v->vsel[0] >> i & 1;
		if (v->op2)
			acc += on ? t : 0;
		else
			d |= (uint32_t)((on ? (uint64_t)t : c >> (w * i)) & MASK(w)) << (w * i);
	}
	return v->op2 ? (uint64_t)(uint32_t)(c + (uint64_t)acc) : d;
}

/* ---- approximate instructions ----------------------------------------------------- */
static double ulp32(double x)
{
	x = fabs(x);
	if (x < ldexp(1, -126))
		return ldexp(1, -149);
	int e;
	frexp(x, &e);
	return ldexp(1, e - 24);
}

/* 1 if got (bits of v->t) is within the documented bound of the exact value */
static int approx_ok(const V *v, const uint64_t *in, uint64_t got, uint64_t *expb)
{
	int t = v->t;
	if (t == F16 || t == BF16) {
		double x = fval(t, in[0], 0);
		if (t == BF16 && v->op == AEX2)
			x = bf2d(ftzb(in[0]));
		double ex = v->op == AEX2 ? exp2(x) : tanh(x);
		uint64_t e = fenc(t, ex, RN);
		if (t == BF16 && v->op == AEX2)
			e = ftzb(e);
		*expb = e;
		double g = fval(t, got, 0);
		if (isnan(ex))
			return got == CN16;
		if (isnan(g))
			return 0;
		if (isinf(ex) || ex == 0 || isinf(g))
			return got == e || (isinf(ex) && isinf(g) && signbit(ex) == signbit(g)) ||
			       (ex == 0 && g == 0);
		double bound = v->op == AEX2 ? (t == F16 ? pow(2, -9.9) : ldexp(1, -7))
					       : (t == F16 ? pow(2, -10.987) : ldexp(1, -8));
		/* relative bound; results below the format's normal range get the absolute quantum */
		double q = t == F16 ? ldexp(1, -24) : ldexp(1, -133);
		if (t == BF16 && v->op == AEX2)
			q = ldexp(1, -126);
		return fabs(g - ex) <= bound * fabs(ex) + q;
	}
	if (t == F64) {
		double x = f64of(in[0]);
		if (v->op == ARCP && fabs(x) < ldexp(1, -1022) && x == x)
			x = copysign(0, x);
		double ex = v->op == ARCP ? 1 / x : 1 / sqrt(x);
		*expb = isnan(ex) ? CN64 : bits64(ex);
		double g = f64of(got);
		if (isnan(ex))
			return got == CN64;
		if (isinf(ex) || ex == 0)
			return bits64(g) == bits64(ex) || (v->op == ARCP && fabs(ex) < ldexp(1, -1022) && g == 0);
		if (v->op == ARCP && fabs(ex) < ldexp(1, -1022))
			return fabs(g) < ldexp(1, -1022);
		return fabs(g - ex) <= ldexp(1, -19) * fabs(ex);
	}
	/* f32 */
	double x = f32of(v->ftz ? ftz32(in[0]) : in[0]);
	double y = f32of(v->ftz ? ftz32(in[1]) : in[1]);
	long double X = x, Y = y, ex;
	switch (v->op) {
	case AEX2: ex = exp2l(X); break;
	case ALG2: ex = log2l(X); break;
	case ASIN: ex = sinl(X); break;
	case ACOS: ex = cosl(X); break;
	case ARSQRT: ex = 1 / sqrtl(X); break;
	case ATANH: ex = tanhl(X); break;
	case ARCP: ex = 1 / X; break;
	case ASQRT: ex = sqrtl(X); break;
	default: ex = X / Y; break;
	}
	double g = f32of(got);
	float er = (float)ex;
	*expb = isnan(er) ? CN32 : bits32(er);
	if (v->ftz && fis_sub32(*expb))
		*expb &= 0x80000000;
	if (v->op == ADIV && y != 0 && fabs(y) < ldexp(1, -126))
		return 1;       /* outside the documented range */
	if (v->op == ADIV && isinf(x) && isfinite(y) && fabs(y) > ldexp(1, 126))
		return got == CN32;     /* documented: NaN for a = ±inf and 2^126 < |b| < 2^128 */
	if (isnan(ex))
		return got == CN32;
	if (isnan(g))
		return 0;
	int tiny = fabsl(ex) < ldexpl(1, -126);
	if (v->ftz && tiny && g == 0)
		return 1;
	if (isinf(ex) || isinf(g) || ex == 0) {
		if (v->op == ADIV && fabs(y) > ldexp(1, 126) && isfinite(x))
			return g == 0;
		if (v->op == ADIV && !isinf(ex) && fabs(y) > ldexp(1, 126))
			return g == 0;
		if (v->op == ADIV && isinf(ex) && !isinf(x))
			return isinf(g) || fabsl((long double)g - ex) <= 2 * ulp32((double)ex);
		return bits32((float)g) == bits32(er) || (ex == 0 && g == 0);
	}
	long double err = fabsl((long double)g - ex);
	switch (v->op) {
	case AEX2: return err <= (2 + floor(fabs(1.16 * x))) * ulp32((double)ex);
	case ALG2: return err <= powl(2, -22.6L) + ulp32((double)ex);
	case ASIN: case ACOS:
		if (fabs(x) > 100 * M_PI)
			return fabs(g) <= 1;
		return err <= powl(2, -20.9L) + (tiny ? ulp32((double)ex) : 0);
	case ARSQRT: return err <= powl(2, -22.9L) * fabsl(ex);
	case ATANH: return err <= powl(2, -10.987L) * fabsl(ex) + (tiny ? ulp32((double)ex) : 0);
	case ARCP: return err <= ulp32((double)ex);
	case ASQRT: return err <= ldexpl(1, -23) * fabsl(ex) + (tiny ? ulp32((double)ex) : 0);
	case ADIV:
		if (fabs(y) > ldexp(1, 126))
			return g == 0 || err <= 2 * ulp32((double)ex);
		if (fabs(y) < ldexp(1, -126))
			return 1;      /* outside the documented range */
		return err <= 2 * ulp32((double)ex);
	case ADIVFULL: return err <= 2 * ulp32((double)ex);
	}
	return 0;
}

/* ---- the reference: fills exp[0..nd) for the thread's inputs ----------------------- */
static void reference(const V *v, const uint64_t *in, uint64_t *ex)
{
	switch (v->fam) {
	case F_INT:
		ex[0] = ref_int(v, in, &ex[1]);
		break;
	case F_CHAIN: {
		int w = TY[v->t].bits;
		uint64_t m = MASK(w), a = in[0] & m, b = in[1] & m, c = in[2] & m, d = in[3] & m;
		if (v->x) {     /* carry out of the middle addc.cc / subc.cc, read by a last addc / subc */
			unsigned __int128 c1, s2;
			if (v->op == ADD) {
				c1 = ((unsigned __int128)a + b) >> w;
				s2 = (unsigned __int128)c + d + c1;
				ex[0] = (uint64_t)(s2 >> w) & 1;
				ex[1] = (uint64_t)s2;
			} else {
				c1 = a < b;
				unsigned __int128 sub = (unsigned __int128)d + c1;
				ex[0] = (unsigned __int128)c < sub ? ~0ull : 0;
				ex[1] = c - (uint64_t)sub;
			}
		} else if (v->op == ADD) {
			uint64_t lo = (a + b) & m;
			int cf = lo < a;
			ex[0] = lo;
			ex[1] = c + d + (uint64_t)cf;
		} else if (v->op == SUB) {
			ex[0] = a - b;
			int bf = a < b;
			ex[1] = c - (d + (uint64_t)bf);
		} else {        /* mad.lo.cc a,b,c ; madc.hi a,b,d */
			unsigned __int128 p;
			int64_t sa = SX(a, w), sb = SX(b, w);
			p = is_signed(v->t) ? (unsigned __int128)((__int128)sa * sb) : (unsigned __int128)a * b;
			uint64_t lo = (uint64_t)p & m, hi = (uint64_t)(p >> w) & m;
			uint64_t s = (lo + c) & m;
			ex[0] = s;
			ex[1] = hi + d + (uint64_t)(s < lo);
		}
		break;
	}
	case F_SETPI: {
		int t = icmp(v->cmp, v->t, in[0], in[1]);
		ex[0] = (uint64_t)bool_op(v->bop, t, in[2] != 0);
		ex[1] = (uint64_t)bool_op(v->bop, !t, in[2] != 0);
		break;
	}
	case F_SETPF: {
		int t = v->t;
		if (t == F16X2 || t == BF16X2) {
			int st = t == F16X2 ? F16 : BF16;
			for (int h = 0; h < 2; h++)
				ex[h] = (uint64_t)fcmp(v->cmp, fval(st, in[0] >> 16 * h & 0xffff, v->ftz),
						       fval(st, in[1] >> 16 * h & 0xffff, v->ftz));
			break;
		}
		int r = fcmp(v->cmp, fval(t, in[0], v->ftz), fval(t, in[1], v->ftz));
		ex[0] = (uint64_t)bool_op(v->bop, r, in[2] != 0);
		ex[1] = (uint64_t)bool_op(v->bop, !r, in[2] != 0);
		break;
	}
	case F_SET: {
		int st = v->t2, r;
		if (TY[st].kind == 'f')
			r = fcmp(v->cmp, fval(st, in[0], v->ftz), fval(st, in[1], v->ftz));
		else
			r = icmp(v->cmp, st, in[0], in[1]);
		ex[0] = v->t == F32 ? (r ? 0x3f800000 : 0) : r ? 0xffffffff : 0;
		break;
	}
	case F_SELP:
		ex[0] = in[2] ? in[0] : in[1];
		break;
	case F_SLCT: {
		int ge;
		if (v->t2 == S32)
			ge = SX(in[2], 32) >= 0;
		else
			ge = f32of(v->ftz ? ftz32(in[2]) : in[2]) >= 0;
		ex[0] = ge ? in[0] : in[1];
		break;
	}
	case F_PACK:
		ex[0] = pack_ref(v, in);
		break;
	case F_VIDEO:
		ex[0] = video_ref(v, in);
		break;
	case F_SIMD:
		ex[0] = simd_ref(v, in);
		break;
	case F_CVT:
		if (v->t == TF32 || v->t == E4M3X2 || v->t == E5M2X2 || v->t2 == E4M3X2 || v->t2 == E5M2X2)
			ex[0] = cvt_narrow(v, in);
		else if (v->t == F16X2 || v->t == BF16X2) {
			int h = v->t == F16X2 ? F16 : BF16;
			ex[0] = cvt1(v, h, F32, in[0]) << 16 | cvt1(v, h, F32, in[1]);
		} else
			ex[0] = cvt1(v, v->t, v->t2, in[0]);
		break;
	case F_FAR: case F_HAR:
		ex[0] = ref_far(v, in);
		break;
	case F_MINMAX:
		if (v->ns == 3) {       /* the three-input form */
			V two = *v;
			uint64_t ab = mm1(&two, F32, in[0] & 0xffffffff, in[1] & 0xffffffff);
			ex[0] = mm1(&two, F32, ab, in[2] & 0xffffffff);
		} else if (v->t == F16X2 || v->t == BF16X2) {
			int st = v->t == F16X2 ? F16 : BF16;
			ex[0] = mm1(v, st, in[0] & 0xffff, in[1] & 0xffff) |
				mm1(v, st, in[0] >> 16 & 0xffff, in[1] >> 16 & 0xffff) << 16;
		} else
			ex[0] = mm1(v, v->t, in[0] & MASK(TY[v->t].bits), in[1] & MASK(TY[v->t].bits));
		break;
	case F_ABSNEG:
		if (v->t == F16X2 || v->t == BF16X2) {
			int st = v->t == F16X2 ? F16 : BF16;
			ex[0] = absneg1(v, st, in[0] & 0xffff) | absneg1(v, st, in[0] >> 16 & 0xffff) << 16;
		} else
			ex[0] = absneg1(v, v->t, in[0] & MASK(TY[v->t].bits));
		break;
	case F_TESTP:
		ex[0] = (uint64_t)testp(v->x, v->t, in[0]);
		break;
	case F_COPYSIGN:
		if (v->t == F32)
			ex[0] = (in[1] & 0x7fffffff) | (in[0] & 0x80000000);
		else
			ex[0] = (in[1] & ~(1ull << 63)) | (in[0] & (1ull << 63));
		break;
	}
}

/* ---- kernels ------------------------------------------------------------------------- */
static int rb(const V *v, int t) { return v->r8 && TY[t].bits == 8 ? 8 : rbits(t); }

static const char *regname_s[4] = { "%sa", "%sb", "%sc", "%sd" };

static char *kernel_text(const V *v, size_t *len)
{
	static char buf[8192];
	char *p = buf;
	size_t left = sizeof buf;
#define OUT(...) do { int n_ = snprintf(p, left, __VA_ARGS__); p += n_; left -= (size_t)n_; } while (0)
	OUT(".version %d.%d\n.target sm_%d\n.address_size 64\n\n"
	    ".visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u64 p3,\n"
	    "\t.param .u64 p4, .param .u64 p5, .param .u32 pn)\n{\n"
	    "\t.reg .b32 %%i, %%n, %%t;\n\t.reg .b64 %%o, %%ad;\n\t.reg .pred %%done, %%pa, %%pb, %%pg;\n",
	    (v->ver ? v->ver : 80) / 10, (v->ver ? v->ver : 80) % 10, v->sm ? v->sm : 90);
	for (int k = 0; k < v->ns; k++)
		if (v->st[k] != PRED)
			OUT("\t.reg .b%d %s;\n", rb(v, v->st[k]), regname_s[k]);
	for (int k = 0; k < v->nd; k++)
		if (v->dt[k] != PRED)
			OUT("\t.reg .b%d %s;\n", rb(v, v->dt[k]), k ? "%db" : "%da");
	OUT("\tmov.u32 %%i, %%tid.x;\n\tmov.u32 %%t, %%ctaid.x;\n\tmov.u32 %%n, %%ntid.x;\n"
	    "\tmad.lo.u32 %%i, %%t, %%n, %%i;\n\tld.param.u32 %%n, [pn];\n"
	    "\tsetp.ge.u32 %%done, %%i, %%n;\n\t@%%done bra END;\n\tmul.wide.u32 %%o, %%i, 8;\n");
	for (int k = 0; k < v->ns; k++) {
		OUT("\tld.param.u64 %%ad, [p%d];\n\tadd.u64 %%ad, %%ad, %%o;\n", k);
		if (v->st[k] == PRED)
			OUT("\tld.global.u32 %%t, [%%ad];\n\tsetp.ne.u32 %%pg, %%t, 0;\n");
		else
			OUT("\tld.global.b%d %s, [%%ad];\n", rb(v, v->st[k]), regname_s[k]);
	}
	OUT("\t%s\n", v->insn);
	for (int k = 0; k < v->nd; k++) {
		OUT("\tld.param.u64 %%ad, [p%d];\n\tadd.u64 %%ad, %%ad, %%o;\n", 4 + k);
		if (v->dt[k] == PRED)
			OUT("\tselp.u32 %%t, 1, 0, %s;\n\tst.global.u32 [%%ad], %%t;\n", k ? "%pb" : "%pa");
		else
			OUT("\tst.global.b%d [%%ad], %s;\n", rb(v, v->dt[k]), k ? "%db" : "%da");
	}
	OUT("END:\n\tret;\n}\n");
#undef OUT
	*len = (size_t)(p - buf);
	return buf;
}

/* ---- running ---------------------------------------------------------------------------- */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

enum { MAXN = 4096 };
static uint64_t hin[4][MAXN], hout[2][MAXN];
static uint64_t dptr[6];
static const char *g_dump;      /* PTXVM_INSN_DUMP: write the kernels to this directory */
static int nvar, npass;

static void run_variant(ptxvm_device *d, const V *v)
{
	nvar++;
	size_t len;
	char *text = kernel_text(v, &len);
	if (g_dump) {
		char path[512];
		snprintf(path, sizeof path, "%s/%04d.ptx", g_dump, nvar);
		FILE *f = fopen(path, "w");
		if (f) {
			fprintf(f, "// %s\n%s", v->name, text);
			fclose(f);
		}
	}
	char arch[16];
	snprintf(arch, sizeof arch, "sm_%d", v->sm ? v->sm : 90);
	ptxvm_check_opts co = { .arch = arch };
	ptxvm_module *m = ptxvm_module_load(v->name, text, len, &co);
	if (ptxvm_module_errors(m)) {
		char *dg = ptxvm_module_diagnostics(m);
		fail("insn: %s: the generated kernel is rejected:\n%s", v->name, dg);
		free(dg);
		ptxvm_module_free(m);
		return;
	}
	ptxvm_program *pg = NULL;
	ptxvm_result r = ptxvm_program_load(d, m, &pg);
	ptxvm_module_free(m);
	if (r) {
		fail("insn: %s: program load: %s %s", v->name, ptxvm_result_name(r), ptxvm_device_message(d));
		return;
	}
	/* inputs */
	const uint64_t *val[4];
	int nval[4];
	size_t total = 1;
	for (int k = 0; k < v->ns; k++) {
		if (v->vals[k]) {
			val[k] = v->vals[k];
			nval[k] = v->nvals[k];
		} else {
			val[k] = lists[v->st[k]].v;
			nval[k] = lists[v->st[k]].n;
		}
		total *= (size_t)nval[k];
	}
	int n;
	if (total <= 2600) {
		n = (int)total;
		for (int i = 0; i < n; i++) {
			size_t q = (size_t)i;
			for (int k = v->ns - 1; k >= 0; k--) {
				hin[k][i] = val[k][q % (size_t)nval[k]];
				q /= (size_t)nval[k];
			}
		}
	} else {
		n = 2600;
		for (int i = 0; i < n; i++)
			for (int k = 0; k < v->ns; k++)
				hin[k][i] = val[k][rnd64() % (uint64_t)nval[k]];
	}
	for (int k = 0; k < v->ns; k++)
		if (v->st[k] == PRED)
			for (int i = 0; i < n; i++)
				hin[k][i] &= 1;
	for (int k = 0; k < v->ns; k++)
		ptxvm_memcpy_htod(d, dptr[k], hin[k], (size_t)n * 8);
	for (int k = 0; k < v->nd; k++)
		ptxvm_memset_d8(d, dptr[4 + k], 0, (size_t)n * 8);
	const ptxvm_kernel *kn = ptxvm_kernel_find(pg, "k");
	uint32_t nn = (uint32_t)n;
	void *args[7] = { &dptr[0], &dptr[1], &dptr[2], &dptr[3], &dptr[4], &dptr[5], &nn };
	ptxvm_launch_config cfg = { { (unsigned)(n + 127) / 128, 1, 1 }, { 128, 1, 1 }, 0, { 0, 0, 0 } };
	r = ptxvm_launch(d, kn, &cfg, args, NULL);
	if (r) {
		fail("insn: %s: launch: %s %s", v->name, ptxvm_result_name(r), ptxvm_device_message(d));
		ptxvm_program_unload(pg);
		return;
	}
	for (int k = 0; k < v->nd; k++)
		ptxvm_memcpy_dtoh(d, hout[k], dptr[4 + k], (size_t)n * 8);
	ptxvm_program_unload(pg);
	for (int i = 0; i < n; i++) {
		uint64_t in[4] = { 0, 0, 0, 0 }, ex[2] = { 0, 0 }, got[2] = { 0, 0 };
		for (int k = 0; k < v->ns; k++)
			in[k] = hin[k][i];
		for (int k = 0; k < v->nd; k++)
			got[k] = hout[k][i] & MASK(rb(v, v->dt[k]));
		int ok = 1;
		if (v->fam == F_APPROX)
			ok = approx_ok(v, in, got[0], &ex[0]);
		else {
			reference(v, in, ex);
			for (int k = 0; k < v->nd; k++)
				ok &= (ex[k] & MASK(rb(v, v->dt[k]))) == got[k];
		}
		if (!ok) {
			char ins[128] = "", exs[64] = "", gots[64] = "";
			for (int k = 0; k < v->ns; k++)
				snprintf(ins + strlen(ins), sizeof ins - strlen(ins), "%s0x%llx", k ? ", " : "",
					 (unsigned long long)in[k]);
			for (int k = 0; k < v->nd; k++) {
				snprintf(exs + strlen(exs), sizeof exs - strlen(exs), "%s0x%llx", k ? ", " : "",
					 (unsigned long long)(ex[k] & MASK(rb(v, v->dt[k]))));
				snprintf(gots + strlen(gots), sizeof gots - strlen(gots), "%s0x%llx", k ? ", " : "",
					 (unsigned long long)got[k]);
			}
			fail("insn: %s: inputs %s: expected %s, got %s%s", v->name, ins, exs, gots,
			     v->fam == F_APPROX ? " (outside the documented bound)" : "");
			return;
		}
	}
	npass++;
	passed++;
}

/* ---- the tables ------------------------------------------------------------------------ */
static V *mk(int fam, int op, const char *name, const char *ops, int ns, const int *st, int nd, const int *dt)
{
	V *v = newv(fam, op, name);
	v->ns = ns;
	v->nd = nd;
	for (int k = 0; k < ns; k++)
		v->st[k] = st[k];
	for (int k = 0; k < nd; k++)
		v->dt[k] = dt[k];
	shape(v, ops);
	return v;
}
#define A(...) ((const int[]){ __VA_ARGS__ })
static void setvals(V *v, int k, const uint64_t *p, int n)
{
	v->vals[k] = p;
	v->nvals[k] = n;
}
#define SETV(v, k, arr) setvals(v, k, arr, (int)(sizeof arr / sizeof *arr))

static const uint64_t PRMTSEL[] = { 0x3210, 0x7654, 0, 0x4321, 0x1032, 0x8888, 0xba98, 0xffff, 0x5140, 0xcdef,
				    0x76543210, 0xdeadbeef, 1, 2, 3, 0x10003, 0xfffffffe, 0x89ab };
static const uint64_t BFPOS[] = { 0, 1, 4, 8, 15, 16, 24, 28, 31, 32, 33, 40, 63, 64, 255, 256, 0x101, 0xffffffff };
static const uint64_t LUTS[] = { 0x00, 0xff, 0x96, 0xe8, 0xf0, 0xcc, 0xaa, 0xca, 0x80, 0xfe, 0x1e, 0x6a };

static void gen_int(void)
{
	char nm[96];
	static const int T6[] = { U16, U32, U64, S16, S32, S64 };
	struct { int op; const char *n; } bin[] = {
		{ ADD, "add" }, { SUB, "sub" }, { MULLO, "mul.lo" }, { MULHI, "mul.hi" }, { DIV, "div" },
		{ REM, "rem" }, { MIN, "min" }, { MAX, "max" },
	};
	for (size_t o = 0; o < sizeof bin / sizeof *bin; o++)
		for (int i = 0; i < 6; i++) {
			int t = T6[i];
			snprintf(nm, sizeof nm, "%s.%s", bin[o].n, TY[t].name);
			mk(F_INT, bin[o].op, nm, "d, a, b", 2, A(t, t), 1, A(t))->t = t;
		}
	for (int i = 0; i < 6; i++) {
		int t = T6[i];
		snprintf(nm, sizeof nm, "mad.lo.%s", TY[t].name);
		mk(F_INT, MADLO, nm, "d, a, b, c", 3, A(t, t, t), 1, A(t))->t = t;
		snprintf(nm, sizeof nm, "mad.hi.%s", TY[t].name);
		mk(F_INT, MADHI, nm, "d, a, b, c", 3, A(t, t, t), 1, A(t))->t = t;
		snprintf(nm, sizeof nm, "sad.%s", TY[t].name);
		mk(F_INT, SAD, nm, "d, a, b, c", 3, A(t, t, t), 1, A(t))->t = t;
	}
	static const int W[][2] = { { U16, U32 }, { S16, S32 }, { U32, U64 }, { S32, S64 } };
	for (int i = 0; i < 4; i++) {
		int t = W[i][0], t2 = W[i][1];
		snprintf(nm, sizeof nm, "mul.wide.%s", TY[t].name);
		mk(F_INT, MULWIDE, nm, "d, a, b", 2, A(t, t), 1, A(t2))->t = t;
		snprintf(nm, sizeof nm, "mad.wide.%s", TY[t].name);
		mk(F_INT, MADWIDE, nm, "d, a, b, c", 3, A(t, t, t2), 1, A(t2))->t = t;
	}
	mk(F_INT, ADDSAT, "add.sat.s32", "d, a, b", 2, A(S32, S32), 1, A(S32))->t = S32;
	mk(F_INT, SUBSAT, "sub.sat.s32", "d, a, b", 2, A(S32, S32), 1, A(S32))->t = S32;
	mk(F_INT, MADHISAT, "mad.hi.sat.s32", "d, a, b, c", 3, A(S32, S32, S32), 1, A(S32))->t = S32;
	for (int i = 3; i < 6; i++) {
		int t = T6[i];
		snprintf(nm, sizeof nm, "abs.%s", TY[t].name);
		mk(F_INT, ABS, nm, "d, a", 1, A(t), 1, A(t))->t = t;
		snprintf(nm, sizeof nm, "neg.%s", TY[t].name);
		mk(F_INT, NEG, nm, "d, a", 1, A(t), 1, A(t))->t = t;
	}
	/* packed and relu forms */
	for (int t = U16X2; t <= S16X2; t++) {
		snprintf(nm, sizeof nm, "add.%s", TY[t].name);
		V *v = mk(F_INT, ADD, nm, "d, a, b", 2, A(t, t), 1, A(t));
		v->t = t;
		snprintf(nm, sizeof nm, "min.%s", TY[t].name);
		mk(F_INT, MIN, nm, "d, a, b", 2, A(t, t), 1, A(t))->t = t;
		snprintf(nm, sizeof nm, "max.%s", TY[t].name);
		mk(F_INT, MAX, nm, "d, a, b", 2, A(t, t), 1, A(t))->t = t;
	}
	mk(F_INT, MINRELU, "min.relu.s32", "d, a, b", 2, A(S32, S32), 1, A(S32))->t = S32;
	mk(F_INT, MAXRELU, "max.relu.s32", "d, a, b", 2, A(S32, S32), 1, A(S32))->t = S32;
	mk(F_INT, MINRELU, "min.relu.s16x2", "d, a, b", 2, A(S16X2, S16X2), 1, A(S16X2))->t = S16X2;
	mk(F_INT, MAXRELU, "max.relu.s16x2", "d, a, b", 2, A(S16X2, S16X2), 1, A(S16X2))->t = S16X2;
	/* bit operations */
	for (int w = 0; w < 2; w++) {
		int bt = w ? B64 : B32, ut = w ? U64 : U32, st = w ? S64 : S32;
		snprintf(nm, sizeof nm, "popc.%s", TY[bt].name);
		mk(F_INT, POPC, nm, "d, a", 1, A(bt), 1, A(U32))->t = bt;
		snprintf(nm, sizeof nm, "clz.%s", TY[bt].name);
		mk(F_INT, CLZ, nm, "d, a", 1, A(bt), 1, A(U32))->t = bt;
		snprintf(nm, sizeof nm, "brev.%s", TY[bt].name);
		mk(F_INT, BREV, nm, "d, a", 1, A(bt), 1, A(bt))->t = bt;
		int tt[2] = { ut, st };
		for (int k = 0; k < 2; k++) {
			snprintf(nm, sizeof nm, "bfind.%s", TY[tt[k]].name);
			mk(F_INT, BFIND, nm, "d, a", 1, A(tt[k]), 1, A(U32))->t = tt[k];
			snprintf(nm, sizeof nm, "bfind.shiftamt.%s", TY[tt[k]].name);
			mk(F_INT, BFINDSA, nm, "d, a", 1, A(tt[k]), 1, A(U32))->t = tt[k];
			snprintf(nm, sizeof nm, "bfe.%s", TY[tt[k]].name);
			V *v = mk(F_INT, BFE, nm, "d, a, b, c", 3, A(tt[k], U32, U32), 1, A(tt[k]));
			v->t = tt[k];
			SETV(v, 1, BFPOS);
			SETV(v, 2, BFPOS);
		}
		snprintf(nm, sizeof nm, "bfi.%s", TY[bt].name);
		V *v = mk(F_INT, BFI, nm, "d, a, b, c, f", 4, A(bt, bt, U32, U32), 1, A(bt));
		v->t = bt;
		SETV(v, 2, BFPOS);
		SETV(v, 3, BFPOS);
	}
	for (int c = 0; c < 2; c++) {
		for (int s = 0; s < 2; s++) {
			int t = s ? S32 : U32;
			snprintf(nm, sizeof nm, "szext.%s.%s", c ? "clamp" : "wrap", TY[t].name);
			V *v = mk(F_INT, SZEXT, nm, "d, a, b", 2, A(t, U32), 1, A(t));
			v->t = t;
			v->x = c;
			SETV(v, 1, SHAMT);
		}
		snprintf(nm, sizeof nm, "bmsk.%s.b32", c ? "clamp" : "wrap");
		V *v = mk(F_INT, BMSK, nm, "d, a, b", 2, A(U32, U32), 1, A(B32));
		v->t = B32;
		v->x = c;
		SETV(v, 0, SHAMT);
		SETV(v, 1, SHAMT);
	}
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 2; b++) {
			int at = a ? S32 : U32, bt = b ? S32 : U32;
			int dt = a || b ? S32 : U32;
			snprintf(nm, sizeof nm, "dp4a.%s.%s", TY[at].name, TY[bt].name);
			V *v = mk(F_INT, DP4A, nm, "d, a, b, c", 3, A(at, bt, dt), 1, A(dt));
			v->t = at;
			v->t2 = bt;
			for (int h = 0; h < 2; h++) {
				snprintf(nm, sizeof nm, "dp2a.%s.%s.%s", h ? "hi" : "lo", TY[at].name, TY[bt].name);
				v = mk(F_INT, h ? DP2AHI : DP2ALO, nm, "d, a, b, c", 3, A(at, bt, dt), 1, A(dt));
				v->t = at;
				v->t2 = bt;
			}
		}
	static const int BT[] = { B16, B32, B64 };
	struct { int op; const char *n; } lg[] = { { AND, "and" }, { OR, "or" }, { XOR, "xor" } };
	for (int i = 0; i < 3; i++) {
		int t = BT[i];
		for (int o = 0; o < 3; o++) {
			snprintf(nm, sizeof nm, "%s.%s", lg[o].n, TY[t].name);
			mk(F_INT, lg[o].op, nm, "d, a, b", 2, A(t, t), 1, A(t))->t = t;
		}
		snprintf(nm, sizeof nm, "not.%s", TY[t].name);
		mk(F_INT, NOT, nm, "d, a", 1, A(t), 1, A(t))->t = t;
		snprintf(nm, sizeof nm, "cnot.%s", TY[t].name);
		mk(F_INT, CNOT, nm, "d, a", 1, A(t), 1, A(t))->t = t;
		snprintf(nm, sizeof nm, "shl.%s", TY[t].name);
		V *v = mk(F_INT, SHL, nm, "d, a, b", 2, A(t, U32), 1, A(t));
		v->t = t;
		SETV(v, 1, SHAMT);
	}
	static const int SH[] = { B16, B32, B64, U16, U32, U64, S16, S32, S64 };
	for (int i = 0; i < 9; i++) {
		int t = SH[i];
		snprintf(nm, sizeof nm, "shr.%s", TY[t].name);
		V *v = mk(F_INT, SHR, nm, "d, a, b", 2, A(t, U32), 1, A(t));
		v->t = t;
		SETV(v, 1, SHAMT);
	}
	for (size_t l = 0; l < sizeof LUTS / sizeof *LUTS; l++) {
		char ops[64];
		snprintf(nm, sizeof nm, "lop3.b32");
		snprintf(ops, sizeof ops, "d, a, b, c, %u", (unsigned)LUTS[l]);
		V *v = mk(F_INT, LOP3, nm, ops, 3, A(B32, B32, B32), 1, A(B32));
		v->t = B32;
		v->x = (int)LUTS[l];
		snprintf(v->name, sizeof v->name, "lop3.b32 (lut 0x%02x)", (unsigned)LUTS[l]);
	}
	for (int bo = 0; bo < 2; bo++) {
		char ops[64];
		snprintf(nm, sizeof nm, "lop3.%s.b32", bo ? "or" : "and");
		snprintf(ops, sizeof ops, "d|q, a, b, c, 150, g");     /* q: the second destination, %pb */
		V *v = mk(F_INT, LOP3P, nm, ops, 4, A(B32, B32, B32, PRED), 2, A(B32, PRED));
		v->t = B32;
		v->x = 0x96;
		v->bop = bo;
		v->ver = 82;    /* lop3.BoolOp is PTX 8.2 */
	}
	for (int lr = 0; lr < 2; lr++)
		for (int c = 0; c < 2; c++) {
			snprintf(nm, sizeof nm, "shf.%s.%s.b32", lr ? "r" : "l", c ? "clamp" : "wrap");
			V *v = mk(F_INT, lr ? SHFR : SHFL, nm, "d, a, b, c", 3, A(B32, B32, U32), 1, A(B32));
			v->t = B32;
			v->x = c;
			SETV(v, 2, SHAMT);
		}
	for (int s = 0; s < 2; s++) {
		int t = s ? S32 : U32;
		static const char *const mn[] = { "mul24.lo", "mul24.hi", "mad24.lo", "mad24.hi" };
		static const int mo[] = { MUL24LO, MUL24HI, MAD24LO, MAD24HI };
		for (int k = 0; k < 4; k++) {
			snprintf(nm, sizeof nm, "%s.%s", mn[k], TY[t].name);
			mk(F_INT, mo[k], nm, k < 2 ? "d, a, b" : "d, a, b, c", k < 2 ? 2 : 3, A(t, t, t), 1, A(t))->t = t;
		}
	}
	mk(F_INT, MAD24HISAT, "mad24.hi.sat.s32", "d, a, b, c", 3, A(S32, S32, S32), 1, A(S32))->t = S32;
	static const char *const pm[] = { "", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16" };
	for (int k = 0; k < 7; k++) {
		snprintf(nm, sizeof nm, "prmt.b32%s", pm[k]);
		V *v = mk(F_INT, PRMT, nm, "d, a, b, c", 3, A(B32, B32, B32), 1, A(B32));
		v->t = B32;
		v->x = k;
		SETV(v, 2, PRMTSEL);
	}
	/* carry chains */
	static const int CT[] = { U32, S32, U64, S64 };
	for (int i = 0; i < 4; i++) {
		int t = CT[i];
		char ins[200];
		V *v;
		snprintf(nm, sizeof nm, "add.cc.%s + addc.%s", TY[t].name, TY[t].name);
		v = mk(F_CHAIN, ADD, nm, "", 4, A(t, t, t, t), 2, A(t, t));
		v->t = t;
		snprintf(ins, sizeof ins, "add.cc.%s %%da, %%sa, %%sb;\n\taddc.%s %%db, %%sc, %%sd;", TY[t].name, TY[t].name);
		snprintf(v->insn, sizeof v->insn, "%s", ins);
		snprintf(nm, sizeof nm, "sub.cc.%s + subc.%s", TY[t].name, TY[t].name);
		v = mk(F_CHAIN, SUB, nm, "", 4, A(t, t, t, t), 2, A(t, t));
		v->t = t;
		snprintf(ins, sizeof ins, "sub.cc.%s %%da, %%sa, %%sb;\n\tsubc.%s %%db, %%sc, %%sd;", TY[t].name, TY[t].name);
		snprintf(v->insn, sizeof v->insn, "%s", ins);
		snprintf(nm, sizeof nm, "mad.lo.cc.%s + madc.hi.%s", TY[t].name, TY[t].name);
		v = mk(F_CHAIN, MADLO, nm, "", 4, A(t, t, t, t), 2, A(t, t));
		v->t = t;
		snprintf(ins, sizeof ins, "mad.lo.cc.%s %%da, %%sa, %%sb, %%sc;\n\tmadc.hi.%s %%db, %%sa, %%sb, %%sd;",
			 TY[t].name, TY[t].name);
		snprintf(v->insn, sizeof v->insn, "%s", ins);
	}
	for (int i = 0; i < 4; i++) {
		int t = CT[i];
		char ins[220];
		for (int sb = 0; sb < 2; sb++) {
			const char *o = sb ? "sub" : "add";
			snprintf(nm, sizeof nm, "%s.cc.%s + %sc.cc.%s + %sc.%s", o, TY[t].name, o, TY[t].name, o, TY[t].name);
			V *v = mk(F_CHAIN, sb ? SUB : ADD, nm, "", 4, A(t, t, t, t), 2, A(t, t));
			v->t = t;
			v->x = 1;
			snprintf(ins, sizeof ins, "%s.cc.%s %%da, %%sa, %%sb;\n\t%sc.cc.%s %%db, %%sc, %%sd;\n\t%sc.%s %%da, 0, 0;",
				 o, TY[t].name, o, TY[t].name, o, TY[t].name);
			snprintf(v->insn, sizeof v->insn, "%s", ins);
		}
	}
	{
		static const uint64_t FBASE[] = { 0, 1, 2, 3, 7, 15, 16, 17, 30, 31 };
		static const uint64_t FOFF[] = { 0, 1, 2, 3, 5, 16, 31, 32, 33, 0x7fffffff, 0xffffffff, 0xfffffffe,
						 0xfffffffd, 0xfffffffb, 0xfffffff0, 0xffffffe0, 0x80000000 };
		V *v = mk(F_INT, FNS, "fns.b32", "d, a, b, c", 3, A(B32, U32, S32), 1, A(B32));
		v->t = B32;
		SETV(v, 1, FBASE);
		SETV(v, 2, FOFF);
	}
	/* integer compares and selects */
	static const int CMPT[] = { B16, B32, B64, U16, U32, U64, S16, S32, S64 };
	for (int i = 0; i < 9; i++) {
		int t = CMPT[i];
		int nc = TY[t].kind == 'b' ? 2 : TY[t].kind == 'u' ? 10 : 6;
		for (int c = 0; c < nc; c++) {
			snprintf(nm, sizeof nm, "setp.%s.%s", CMPN[c], TY[t].name);
			V *v = mk(F_SETPI, 0, nm, "p|q, a, b", 2, A(t, t), 2, A(PRED, PRED));
			v->t = t;
			v->cmp = c;
		}
		static const char *const bn[] = { "", "and", "or", "xor" };
		for (int b = 1; b < 4; b++) {
			int c = (i + b) % nc;
			snprintf(nm, sizeof nm, "setp.%s.%s.%s", CMPN[c], bn[b], TY[t].name);
			V *v = mk(F_SETPI, 0, nm, "p|q, a, b, g", 3, A(t, t, PRED), 2, A(PRED, PRED));
			v->t = t;
			v->cmp = c;
			v->bop = b;
		}
	}
	static const int SETT[] = { U32, S32, F32 };
	static const int SETS[] = { B32, U64, S16, S32, F32, F64 };
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 6; j++) {
			int st = SETS[j];
			int nc = TY[st].kind == 'b' ? 2 : TY[st].kind == 'u' ? 10 : TY[st].kind == 's' ? 6 : 18;
			for (int c = 0; c < nc; c += 1 + (nc > 10)) {
				if (nc == 18 && c >= 6 && c < 10)
					continue;
				snprintf(nm, sizeof nm, "set.%s.%s.%s", CMPN[c], TY[SETT[i]].name, TY[st].name);
				V *v = mk(F_SET, 0, nm, "d, a, b", 2, A(st, st), 1, A(SETT[i]));
				v->t = SETT[i];
				v->t2 = st;
				v->cmp = c;
			}
		}
	static const int SELT[] = { B16, B32, B64, U16, U32, U64, S16, S32, S64, F32, F64 };
	for (int i = 0; i < 11; i++) {
		int t = SELT[i];
		snprintf(nm, sizeof nm, "selp.%s", TY[t].name);
		mk(F_SELP, 0, nm, "d, a, b, g", 3, A(t, t, PRED), 1, A(t))->t = t;
		snprintf(nm, sizeof nm, "slct.%s.s32", TY[t].name);
		V *v = mk(F_SLCT, 0, nm, "d, a, b, c", 3, A(t, t, S32), 1, A(t));
		v->t = t;
		v->t2 = S32;
		for (int f = 0; f < 2; f++) {
			snprintf(nm, sizeof nm, "slct%s.%s.f32", f ? ".ftz" : "", TY[t].name);
			v = mk(F_SLCT, 0, nm, "d, a, b, c", 3, A(t, t, F32), 1, A(t));
			v->t = t;
			v->t2 = F32;
			v->ftz = f;
		}
	}
}

static void gen_float(void)
{
	char nm[96];
	static const char *const on[] = { [FADD] = "add", [FSUB] = "sub", [FMUL] = "mul", [FFMA] = "fma",
					   [FDIV] = "div", [FSQRT] = "sqrt", [FRCP] = "rcp" };
	static const int ops[] = { FADD, FSUB, FMUL, FFMA, FDIV, FSQRT, FRCP };
	for (int o = 0; o < 7; o++) {
		int op = ops[o];
		int nsrc = op == FFMA ? 3 : op == FSQRT || op == FRCP ? 1 : 2;
		const char *shp = nsrc == 3 ? "d, a, b, c" : nsrc == 2 ? "d, a, b" : "d, a";
		for (int r = (op <= FMUL ? RNONE : RN); r >= 0 && r <= RNONE; r = r == RNONE ? RN : r == RP ? -1 : r + 1) {
			if (r == RNA)
				continue;
			for (int ftz = 0; ftz < 2; ftz++)
				for (int sat = 0; sat < 2; sat++) {
					if (sat && op >= FDIV)
						continue;
					for (int mad = 0; mad < (op == FFMA ? 2 : 1); mad++) {
						snprintf(nm, sizeof nm, "%s%s%s%s%s.f32", mad ? "mad" : on[op], r == RNONE ? "" : ".",
							 RNDN[r], ftz ? ".ftz" : "", sat ? ".sat" : "");
						V *v = mk(F_FAR, op, nm, shp, nsrc, A(F32, F32, F32), 1, A(F32));
						v->t = F32;
						v->rnd = r;
						v->ftz = ftz;
						v->sat = sat;
					}
				}
			for (int mad = 0; mad < (op == FFMA ? 2 : 1); mad++) {
				snprintf(nm, sizeof nm, "%s%s%s.f64", mad ? "mad" : on[op], r == RNONE ? "" : ".", RNDN[r]);
				V *v = mk(F_FAR, op, nm, shp, nsrc, A(F64, F64, F64), 1, A(F64));
				v->t = F64;
				v->rnd = r;
			}
		}
	}
	/* half precision */
	static const int HT[] = { F16, F16X2, BF16, BF16X2 };
	for (int i = 0; i < 4; i++) {
		int t = HT[i], h = t == F16 || t == F16X2;
		for (int o = 0; o < 4; o++) {
			int op = ops[o];
			int nsrc = op == FFMA ? 3 : 2;
			const char *shp = nsrc == 3 ? "d, a, b, c" : "d, a, b";
			for (int rn = 0; rn < 2; rn++)
				for (int ftz = 0; ftz < (h ? 2 : 1); ftz++)
					for (int sat = 0; sat < (h ? 2 : 1); sat++)
						for (int relu = 0; relu < (op == FFMA ? 2 : 1); relu++) {
							if (op == FFMA && !rn)
								continue;
							if (relu && sat)
								continue;
							snprintf(nm, sizeof nm, "%s%s%s%s%s.%s", on[op], rn ? ".rn" : "",
								 ftz ? ".ftz" : "", sat ? ".sat" : "", relu ? ".relu" : "",
								 TY[t].name);
							V *v = mk(F_HAR, op, nm, shp, nsrc, A(t, t, t), 1, A(t));
							v->t = t;
							v->ftz = ftz;
							v->sat = sat;
							v->relu = relu;
						}
		}
	}
	/* fma.rn.oob{.relu} (PTX 8.1): +0 where a multiplicand is the OOB-NaN 0x7ff7
	 * (docs/FLOAT.md), by magnitude; other NaNs are NaNs */
	static const uint64_t OOBH[16] = { 0x7ff7, 0xfff7, 0x7ff6, 0x7fff, 0x3c00, 0xbc00, 0x0000, 0x8000,
					   0x7c00, 0x4000, 0x3555, 0x7bff, 0x0001, 0xfc00, 0x7e00, 0x3f80 };
	static uint64_t OOBH2[32];
	for (int i = 0; i < 16; i++) {
		OOBH2[i] = OOBH[i] | OOBH[(i * 5 + 3) % 16] << 16;
		OOBH2[16 + i] = OOBH[(i * 7 + 1) % 16] | OOBH[i] << 16;
	}
	for (int i = 0; i < 4; i++)
		for (int relu = 0; relu < 2; relu++) {
			int t = HT[i], two = t == F16X2 || t == BF16X2;
			snprintf(nm, sizeof nm, "fma.rn.oob%s.%s", relu ? ".relu" : "", TY[t].name);
			V *v = mk(F_HAR, FFMA, nm, "d, a, b, c", 3, A(t, t, t), 1, A(t));
			v->t = t;
			v->relu = relu;
			v->x = 1;
			v->ver = 81;
			for (int k = 0; k < 3; k++)
				setvals(v, k, two ? OOBH2 : OOBH, two ? 32 : 16);
		}
	/* abs, neg */
	struct { int t, ftz; } an[] = { { F32, 0 }, { F32, 1 }, { F64, 0 }, { F16, 0 }, { F16, 1 }, { F16X2, 0 },
					 { F16X2, 1 }, { BF16, 0 }, { BF16X2, 0 } };
	for (size_t i = 0; i < sizeof an / sizeof *an; i++)
		for (int o = 0; o < 2; o++) {
			snprintf(nm, sizeof nm, "%s%s.%s", o ? "neg" : "abs", an[i].ftz ? ".ftz" : "", TY[an[i].t].name);
			V *v = mk(F_ABSNEG, o ? NEG : ABS, nm, "d, a", 1, A(an[i].t), 1, A(an[i].t));
			v->t = an[i].t;
			v->ftz = an[i].ftz;
		}
	/* min, max: type x ftz x NaN x xorsign.abs */
	for (int t = 0; t < NTY; t++) {
		if (t != F32 && t != F64 && t != F16 && t != F16X2 && t != BF16 && t != BF16X2)
			continue;
		int canftz = t == F32 || t == F16 || t == F16X2;
		for (int o = 0; o < 2; o++)
			for (int ftz = 0; ftz <= canftz; ftz++)
				for (int nan = 0; nan < (t == F64 ? 1 : 2); nan++)
					for (int xs = 0; xs < (t == F64 ? 1 : 2); xs++) {
						snprintf(nm, sizeof nm, "%s%s%s%s.%s", o ? "max" : "min", ftz ? ".ftz" : "",
							 nan ? ".NaN" : "", xs ? ".xorsign.abs" : "", TY[t].name);
						V *v = mk(F_MINMAX, o ? MAX : MIN, nm, "d, a, b", 2, A(t, t), 1, A(t));
						v->t = t;
						v->ftz = ftz;
						v->nan = nan;
						v->x = xs;
					}
	}
	/* three-input min/max.f32 (PTX 8.8, sm_100): min(min(a, b), c) */
	for (int o = 0; o < 2; o++)
		for (int ftz = 0; ftz < 2; ftz++)
			for (int nan = 0; nan < 2; nan++) {
				snprintf(nm, sizeof nm, "%s%s%s.f32", o ? "max" : "min", ftz ? ".ftz" : "", nan ? ".NaN" : "");
				V *v = mk(F_MINMAX, o ? MAX : MIN, nm, "d, a, b, c", 3, A(F32, F32, F32), 1, A(F32));
				v->t = F32;
				v->ftz = ftz;
				v->nan = nan;
				v->ver = 88;
				v->sm = 100;
			}
	/* setp on floats */
	static const int FT[] = { F32, F64, F16, BF16, F16X2, BF16X2 };
	for (int i = 0; i < 6; i++) {
		int t = FT[i];
		int canftz = t == F32 || t == F16 || t == F16X2;
		for (int ftz = 0; ftz <= canftz; ftz++)
			for (int c = 0; c < 18; c++) {
				if (c >= 6 && c < 10)
					continue;
				int pair = t == F32 || t == F64 || t == F16X2 || t == BF16X2;
				snprintf(nm, sizeof nm, "setp.%s%s.%s", CMPN[c], ftz ? ".ftz" : "", TY[t].name);
				V *v = mk(F_SETPF, 0, nm, pair ? "p|q, a, b" : "p, a, b", 2, A(t, t), pair ? 2 : 1,
					  A(PRED, PRED));
				v->t = t;
				v->cmp = c;
				v->ftz = ftz;
				if (t == F16 || t == BF16) {    /* with a bool op: the scalar halves take p only */
					snprintf(nm, sizeof nm, "setp.%s.xor%s.%s", CMPN[c], ftz ? ".ftz" : "", TY[t].name);
					v = mk(F_SETPF, 0, nm, "p, a, b, g", 3, A(t, t, PRED), 1, A(PRED));
					v->t = t;
					v->cmp = c;
					v->ftz = ftz;
					v->bop = 3;
				} else if (t == F32 || t == F64) {
					snprintf(nm, sizeof nm, "setp.%s.%s%s.%s", CMPN[c], c & 1 ? "and" : "or",
						 ftz ? ".ftz" : "", TY[t].name);
					v = mk(F_SETPF, 0, nm, "p|q, a, b, g", 3, A(t, t, PRED), 2, A(PRED, PRED));
					v->t = t;
					v->cmp = c;
					v->ftz = ftz;
					v->bop = c & 1 ? 1 : 2;
				}
			}
	}
	static const char *const tp[] = { "finite", "infinite", "number", "notanumber", "normal", "subnormal" };
	for (int k = 0; k < 6; k++)
		for (int t = F32; t <= F64; t++) {
			snprintf(nm, sizeof nm, "testp.%s.%s", tp[k], TY[t].name);
			V *v = mk(F_TESTP, 0, nm, "p, a", 1, A(t), 1, A(PRED));
			v->t = t;
			v->x = k;
		}
	for (int t = F32; t <= F64; t++) {
		snprintf(nm, sizeof nm, "copysign.%s", TY[t].name);
		mk(F_COPYSIGN, 0, nm, "d, a, b", 2, A(t, t), 1, A(t))->t = t;
	}
	/* approximate */
	struct { int op; const char *n; int ns; } ap[] = {
		{ AEX2, "ex2", 1 }, { ALG2, "lg2", 1 }, { ASIN, "sin", 1 }, { ACOS, "cos", 1 }, { ARSQRT, "rsqrt", 1 },
		{ ARCP, "rcp", 1 }, { ASQRT, "sqrt", 1 }, { ADIV, "div", 2 },
	};
	for (size_t i = 0; i < sizeof ap / sizeof *ap; i++)
		for (int ftz = 0; ftz < 2; ftz++) {
			snprintf(nm, sizeof nm, "%s.approx%s.f32", ap[i].n, ftz ? ".ftz" : "");
			V *v = mk(F_APPROX, ap[i].op, nm, ap[i].ns == 2 ? "d, a, b" : "d, a", ap[i].ns, A(F32, F32), 1, A(F32));
			v->t = F32;
			v->ftz = ftz;
		}
	for (int ftz = 0; ftz < 2; ftz++) {
		snprintf(nm, sizeof nm, "div.full%s.f32", ftz ? ".ftz" : "");
		V *v = mk(F_APPROX, ADIVFULL, nm, "d, a, b", 2, A(F32, F32), 1, A(F32));
		v->t = F32;
		v->ftz = ftz;
	}
	mk(F_APPROX, ATANH, "tanh.approx.f32", "d, a", 1, A(F32), 1, A(F32))->t = F32;
	mk(F_APPROX, ATANH, "tanh.approx.f16", "d, a", 1, A(F16), 1, A(F16))->t = F16;
	mk(F_APPROX, ATANH, "tanh.approx.bf16", "d, a", 1, A(BF16), 1, A(BF16))->t = BF16;
	mk(F_APPROX, AEX2, "ex2.approx.f16", "d, a", 1, A(F16), 1, A(F16))->t = F16;
	mk(F_APPROX, AEX2, "ex2.approx.ftz.bf16", "d, a", 1, A(BF16), 1, A(BF16))->t = BF16;
	mk(F_APPROX, ARCP, "rcp.approx.ftz.f64", "d, a", 1, A(F64), 1, A(F64))->t = F64;
	mk(F_APPROX, ARSQRT, "rsqrt.approx.f64", "d, a", 1, A(F64), 1, A(F64))->t = F64;
}

static void cvt_v(int dt, int st, int rnd, int irnd, int ftz, int sat, int relu, int satf, const char *pre)
{
	char nm[96];
	snprintf(nm, sizeof nm, "cvt%s%s%s%s%s%s%s%s%s%s.%s.%s", pre, rnd != RNONE ? "." : "",
		 rnd != RNONE ? RNDN[rnd] : "", irnd != RNONE ? "." : "", irnd != RNONE ? RNDN[irnd] : "",
		 irnd != RNONE ? "i" : "", relu ? ".relu" : "", ftz ? ".ftz" : "", sat ? ".sat" : "",
		 satf ? ".satfinite" : "", TY[dt].name, TY[st].name);
	int two = (dt == F16X2 || dt == BF16X2 || dt == E4M3X2 || dt == E5M2X2) && st == F32;
	V *v = mk(F_CVT, 0, nm, two ? "d, a, b" : "d, a", two ? 2 : 1, A(st, st), 1, A(dt));
	v->t = dt;
	v->t2 = st;
	v->rnd = rnd;
	v->irnd = irnd;
	v->ftz = ftz;
	v->sat = sat;
	v->relu = relu;
	v->satf = satf;
	v->r8 = (dt == BF16 || st == BF16) && (TY[dt].bits == 8 || TY[st].bits == 8);
	if (satf)
		v->ver = 81;    /* .satfinite on these forms is PTX 8.1 */
}

/* every value of integer type s fits in integer type d */
static int fits(int d, int s)
{
	int dw = TY[d].bits, sw = TY[s].bits;
	if (is_signed(s))
		return is_signed(d) && dw >= sw;
	return is_signed(d) ? dw > sw : dw >= sw;
}

/* f32 values at the rounding boundaries of tf32, e4m3 and e5m2, with F32V */
static uint64_t NARROWV[96];
static const uint64_t NARROW_EXTRA[] = {
	0x43e00000, 0x43e80000, 0x43e80001, 0x43e7ffff, 0x43f00000, 0x47600000, 0x47700000, 0x476fffff,
	0x47700001, 0x3b000000, 0x3a800000, 0x3a800001, 0x3ac00000, 0x37800000, 0x37000000, 0x37000001,
	0x37400000, 0x3f880000, 0x3f980000, 0x3f900000, 0x3fa00000, 0x7f7ff000, 0x7f7fefff, 0x00001000,
	0x00003000, 0x80001000, 0x00000fff, 0x3f800fff, 0xc3e80000, 0xbb000000, 0x3c880000, 0x3ea00000,
};
/* f16 pairs at the boundaries of e4m3 and e5m2 */
static const uint64_t NARROWH[] = {
	0x5f005f40, 0x5f415f3f, 0x5f807b00, 0x7b807b7f, 0x18001400, 0x14010100, 0x00800081, 0x3c403c80,
	0x3cc03c20, 0x7c00fc00, 0x7e00fe01, 0x7bff0000, 0x80000001, 0xdf40df00, 0x3c003bff, 0x00c001c0,
};

static void gen_cvt(void)
{
	int nn = 0;
	for (size_t i = 0; i < sizeof F32V / sizeof *F32V; i++)
		NARROWV[nn++] = F32V[i];
	for (size_t i = 0; i < sizeof NARROW_EXTRA / sizeof *NARROW_EXTRA; i++)
		NARROWV[nn++] = NARROW_EXTRA[i];
	static const int CI[] = { U8, U16, U32, U64, S8, S16, S32, S64 };
	/* int <- int */
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			for (int sat = 0; sat < 2; sat++)
				if (!(sat && fits(CI[i], CI[j])))       /* ptxas: no .sat where nothing can overflow */
					cvt_v(CI[i], CI[j], RNONE, RNONE, 0, sat, 0, 0, "");
	for (int i = 0; i < 8; i++) {
		for (int r = RN; r <= RP; r++) {
			/* int <- float */
			for (int ftz = 0; ftz < 2; ftz++)
				for (int sat = 0; sat < 2; sat++)
					cvt_v(CI[i], F32, RNONE, r, ftz, sat, 0, 0, "");
			for (int sat = 0; sat < 2; sat++) {
				cvt_v(CI[i], F64, RNONE, r, 0, sat, 0, 0, "");
				cvt_v(CI[i], F16, RNONE, r, 0, sat, 0, 0, "");
			}
			cvt_v(CI[i], BF16, RNONE, r, 0, 0, 0, 0, "");
			/* float <- int */
			for (int ftz = 0; ftz < 2; ftz++)
				for (int sat = 0; sat < 2; sat++)
					cvt_v(F32, CI[i], r, RNONE, ftz, sat, 0, 0, "");
			for (int sat = 0; sat < 2; sat++) {
				cvt_v(F64, CI[i], r, RNONE, 0, sat, 0, 0, "");
				cvt_v(F16, CI[i], r, RNONE, 0, sat, 0, 0, "");
			}
			cvt_v(BF16, CI[i], r, RNONE, 0, 0, 0, 0, "");
		}
	}
	/* float <- float, same size */
	for (int r = RN; r <= RNONE; r++) {
		if (r == RNA)
			continue;
		for (int sat = 0; sat < 2; sat++) {
			for (int ftz = 0; ftz < 2; ftz++)
				cvt_v(F32, F32, RNONE, r, ftz, sat, 0, 0, "");
			cvt_v(F64, F64, RNONE, r, 0, sat, 0, 0, "");
			cvt_v(F16, F16, RNONE, r, 0, sat, 0, 0, "");
		}
		cvt_v(BF16, BF16, RNONE, r, 0, 0, 0, 0, "");
	}
	/* narrowing */
	for (int r = RN; r <= RP; r++) {
		for (int sat = 0; sat < 2; sat++) {
			for (int ftz = 0; ftz < 2; ftz++) {
				cvt_v(F32, F64, r, RNONE, ftz, sat, 0, 0, "");
				cvt_v(F16, F32, r, RNONE, ftz, sat, 0, 0, "");
			}
			cvt_v(F16, F64, r, RNONE, 0, sat, 0, 0, "");
		}
		cvt_v(BF16, F32, r, RNONE, 0, 0, 0, 0, "");
		cvt_v(BF16, F16, r, RNONE, 0, 0, 0, 0, "");
		cvt_v(BF16, F64, r, RNONE, 0, 0, 0, 0, "");
		cvt_v(F16, BF16, r, RNONE, 0, 0, 0, 0, "");
	}
	/* widening */
	for (int sat = 0; sat < 2; sat++) {
		for (int ftz = 0; ftz < 2; ftz++) {
			cvt_v(F64, F32, RNONE, RNONE, ftz, sat, 0, 0, "");
			cvt_v(F32, F16, RNONE, RNONE, ftz, sat, 0, 0, "");
		}
		cvt_v(F64, F16, RNONE, RNONE, 0, sat, 0, 0, "");
	}
	cvt_v(F32, BF16, RNONE, RNONE, 0, 0, 0, 0, "");
	cvt_v(F32, BF16, RNONE, RNONE, 1, 0, 0, 0, "");
	cvt_v(F64, BF16, RNONE, RNONE, 0, 0, 0, 0, "");
	/* relu, satfinite, packed pairs */
	for (int r = RN; r <= RZ; r++) {
		cvt_v(BF16, F32, r, RNONE, 0, 0, 1, 0, "");
		cvt_v(F16, F32, r, RNONE, 0, 0, 1, 0, "");
		cvt_v(F16, F32, r, RNONE, 0, 0, 0, 1, "");
		cvt_v(F16, F32, r, RNONE, 0, 0, 1, 1, "");
		cvt_v(BF16, F32, r, RNONE, 0, 0, 0, 1, "");
		cvt_v(BF16, F32, r, RNONE, 0, 0, 1, 1, "");
		for (int relu = 0; relu < 2; relu++)
			for (int sf = 0; sf < 2; sf++) {
				cvt_v(F16X2, F32, r, RNONE, 0, 0, relu, sf, "");
				cvt_v(BF16X2, F32, r, RNONE, 0, 0, relu, sf, "");
			}
	}
	/* tf32 (.rn/.rz with .relu are PTX 7.8, .satfinite 8.1) */
	V *v;
	for (int sf = 0; sf < 2; sf++) {
		cvt_v(TF32, F32, RNA, RNONE, 0, 0, 0, sf, "");
		setvals(&vs[nv - 1], 0, NARROWV, nn);
	}
	for (int r = RN; r <= RZ; r++)
		for (int relu = 0; relu < 2; relu++) {
			cvt_v(TF32, F32, r, RNONE, 0, 0, relu, 0, "");
			setvals(&vs[nv - 1], 0, NARROWV, nn);
		}
	/* e4m3x2, e5m2x2: to them (.rn.satfinite) from f32 pairs and f16x2, and back to f16x2 */
	for (int t = E4M3X2; t <= E5M2X2; t++)
		for (int relu = 0; relu < 2; relu++) {
			cvt_v(t, F32, RN, RNONE, 0, 0, relu, 1, "");
			v = &vs[nv - 1];
			setvals(v, 0, NARROWV, nn);
			setvals(v, 1, NARROWV, nn);
			cvt_v(t, F16X2, RN, RNONE, 0, 0, relu, 1, "");
			v = &vs[nv - 1];
			if (relu)
				SETV(v, 0, NARROWH);
			cvt_v(F16X2, t, RN, RNONE, 0, 0, relu, 0, "");
		}
	/* cvt.pack.sat.T.s32: a and b clamped and packed, c above them */
	static const struct { const char *n; int w, t; } pk[] = {
		{ "u16", 16, U16 }, { "s16", 16, S16 }, { "u8", 8, U8 }, { "s8", 8, S8 },
		{ "u4", 4, U8 }, { "s4", 4, S8 }, { "u2", 2, U8 }, { "s2", 2, S8 },
	};
	for (size_t i = 0; i < sizeof pk / sizeof *pk; i++) {
		char nm[64];
		int three = pk[i].w < 16;
		snprintf(nm, sizeof nm, "cvt.pack.sat.%s.s32%s", pk[i].n, three ? ".b32" : "");
		v = mk(F_PACK, 0, nm, three ? "d, a, b, c" : "d, a, b", three ? 3 : 2, A(S32, S32, B32), 1, A(B32));
		v->t = pk[i].t;
		v->x = pk[i].w;
	}
}

/* ---- video: types, selectors, secondary operations and merges, rotated
 * through each instruction's variants ---- */
static const char *const SELN[] = { "", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1" };
static const char *const SU[] = { "u32", "s32" };

static V *video_v(int fam, int op, const char *name, int ns)
{
	V *v = mk(fam, op, name, "", ns, A(U32, U32, U32), 1, A(U32));
	v->t = U32;
	return v;
}

static void gen_video(void)
{
	static const int ops[] = { VADD, VSUB, VABSDIFF, VMIN, VMAX, VSHL, VSHR, VSET };
	static const char *const op2n[] = { "", ".add", ".min", ".max" };
	for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
		for (int i = 0; i < 48; i++) {
			int op = ops[o], set = op == VSET, sh = op == VSHL || op == VSHR;
			int ds = i & 1, as = i >> 1 & 1, bs = sh ? 0 : i >> 2 & 1;
			int form = i / 2 % 10, sat = !set && i / 5 % 2, asel = i % 7, bsel = (i * 3 + 1) % 7;
			int op2 = form >= 1 && form <= 3 ? form : 0, dsel = form >= 4 ? form - 3 : 0;
			char ty[32], mode[16] = "", nm[160];
			if (set)
				snprintf(ty, sizeof ty, ".%s.%s.%s", SU[as], SU[bs], CMPN[i % 6]);
			else
				snprintf(ty, sizeof ty, ".%s.%s.%s", SU[ds], SU[as], sh ? "u32" : SU[bs]);
			if (sh)
				snprintf(mode, sizeof mode, ".%s", i % 3 ? "clamp" : "wrap");
			snprintf(nm, sizeof nm, "v%s%s%s%s%s", VOPN[op], ty, sat ? ".sat" : "", mode, op2n[op2]);
			V *v = video_v(F_VIDEO, op, nm, form ? 3 : 2);
			snprintf(v->insn, sizeof v->insn, "%s %%da%s, %%sa%s, %%sb%s%s;", nm, SELN[dsel], SELN[asel],
				 SELN[bsel], form ? ", %sc" : "");
			v->vsg[0] = set ? 0 : ds;
			v->vsg[1] = as;
			v->vsg[2] = bs;
			v->vsel[0] = dsel;
			v->vsel[1] = asel;
			v->vsel[2] = bsel;
			v->op2 = op2;
			v->sat = sat;
			v->cmp = i % 6;
			v->x = sh && !(i % 3);  /* .wrap */
			if (sh)
				SETV(v, 1, SHAMT);
		}
	/* vmad: the negations ptxas allows, .po, scales */
	static const int negs[7][4] = { { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 1, 1, 0, 0 }, { 0, 0, 1, 0 },
					{ 1, 1, 1, 0 }, { 0, 0, 0, 1 } };       /* a, b, c, .po */
	for (int i = 0; i < 63; i++) {
		const int *ng = negs[i % 7];
		int as = i >> 1 & 1, bs = i >> 2 & 1, scale = i / 7 % 3, sat = i / 3 % 2, asel = i % 7, bsel = (i * 5 + 2) % 7;
		char nm[160];
		snprintf(nm, sizeof nm, "vmad.%s.%s.%s%s%s%s", SU[i & 1], SU[as], SU[bs], ng[3] ? ".po" : "",
			 sat ? ".sat" : "", scale == 1 ? ".shr7" : scale == 2 ? ".shr15" : "");
		V *v = video_v(F_VIDEO, VMAD, nm, 3);
		snprintf(v->insn, sizeof v->insn, "%s %%da, %s%%sa%s, %s%%sb%s, %s%%sc;", nm, ng[0] ? "-" : "", SELN[asel],
			 ng[1] ? "-" : "", SELN[bsel], ng[2] ? "-" : "");
		v->vsg[1] = as;
		v->vsg[2] = bs;
		v->vsel[1] = asel;
		v->vsel[2] = bsel;
		for (int k = 0; k < 3; k++)
			v->vneg[k] = ng[k];
		v->x = ng[3];
		v->sat = sat;
		v->bop = scale == 1 ? 7 : scale == 2 ? 15 : 0;
	}
	/* SIMD: lane selectors, masks, .sat or .add */
	static const int sops[] = { VADD, VSUB, VAVRG, VABSDIFF, VMIN, VMAX, VSET };
	uint32_t lcg = 12345;
	for (int w = 16; w >= 8; w -= 8)
		for (size_t o = 0; o < sizeof sops / sizeof *sops; o++)
			for (int i = 0; i < 36; i++) {
				int op = sops[o], set = op == VSET, n = 32 / w;
				int ds = i & 1, as = i >> 1 & 1, bs = i >> 2 & 1, acc = i % 3 == 2, sat = !set && !acc && i / 3 % 2;
				int mask = w == 16 ? (int[]){ 3, 1, 2 }[i / 4 % 3] : i / 4 % 15 + 1;
				uint32_t sel[2];
				char st[2][8], mt[8] = "", ty[32], nm[160];
				for (int k = 0; k < 2; k++) {
					sel[k] = w == 16 ? (k ? 0x32 : 0x10) : (k ? 0x7654 : 0x3210);
					st[k][0] = 0;
					if ((i + k) % 4) {      /* a selector written out */
						sel[k] = 0;
						for (int l = 0; l < n; l++) {
							lcg = lcg * 1103515245u + 12345u;
							sel[k] |= (lcg >> 16) % (2u * n) << (4 * l);
						}
						snprintf(st[k], sizeof st[k], ".%c%0*x", w == 16 ? 'h' : 'b', n, sel[k]);
					}
				}
				if (i % 5) {            /* a mask written out */
					int k = snprintf(mt, sizeof mt, ".%c", w == 16 ? 'h' : 'b');
					for (int l = n - 1; l >= 0; l--)
						if (mask >> l & 1)
							mt[k++] = (char)('0' + l), mt[k] = 0;
				} else {
					mask = (1 << n) - 1;
				}
				if (set)
					snprintf(ty, sizeof ty, ".%s.%s.%s", SU[as], SU[bs], CMPN[i % 6]);
				else
					snprintf(ty, sizeof ty, ".%s.%s.%s", SU[ds], SU[as], SU[bs]);
				snprintf(nm, sizeof nm, "v%s%d%s%s%s", VOPN[op], n, ty, sat ? ".sat" : "", acc ? ".add" : "");
				V *v = video_v(F_SIMD, op, nm, 3);
				snprintf(v->insn, sizeof v->insn, "%s %%da%s, %%sa%s, %%sb%s, %%sc;", nm, mt, st[0], st[1]);
				v->x = w;
				v->vsg[0] = set ? 0 : ds;
				v->vsg[1] = as;
				v->vsg[2] = bs;
				v->vsel[0] = mask;
				v->vsel[1] = (int)sel[0];
				v->vsel[2] = (int)sel[1];
				v->op2 = acc;
				v->sat = sat;
				v->cmp = i % 6;
			}
}

void test_insn(const char *root);
void test_insn(const char *root)
{
	(void)root;
	g_dump = getenv("PTXVM_INSN_DUMP");
	make_lists();
	gen_int();
	gen_float();
	gen_cvt();
	gen_video();
	ptxvm_device_opts o = { .workers = 2, .timeout = 10, .printf_stream = NULL };
	ptxvm_device *d = ptxvm_device_create(&o);
	for (int k = 0; k < 6; k++)
		ptxvm_mem_alloc(d, MAXN * 8, &dptr[k]);
	const char *only = getenv("PTXVM_INSN_ONLY");
	for (size_t i = 0; i < nv; i++)
		if (!only || strstr(vs[i].name, only))
			run_variant(d, &vs[i]);
	ptxvm_device_destroy(d);
	printf("insn: %d instruction variants, %d agree with the references\n", nvar, npass);
	free(vs);
	vs = NULL;
	nv = cv = 0;
	for (int t = 0; t < NTY; t++) {
		free(lists[t].v);
		lists[t].v = NULL;
		lists[t].n = 0;
	}
}
