/* lane.h: one lane's values, and the lane-local forms.
 *
 * A lane-local form is an instruction whose result in each lane is a
 * function of that lane's operands alone: nothing to fault on, no state
 * read or written but its destination.  lane_form names the form of an
 * instruction (LF_NONE: none), lane_raw gives one lane's result before its
 * extension into the 64-bit slot, lane_ext that extension.  exec_one's
 * cases run these forms through them, lane after lane in their warp loops
 * (ops.inc); the compiling tier runs a stretch of them in one loop over
 * the lanes, each lane's values kept in the host's registers from one
 * instruction to the next (src/jit/jit.c), from the same functions.
 * Included by exec.c, and so by the code the compiling tier writes.
 */
#ifndef PTXVM_LANE_H
#define PTXVM_LANE_H

#include "fp.h"
#include "../isa/isa.h"
#include "../lower/prog.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Width and kind of each type, from types.def as isa_type has them, but
 * constants of this file: the interpreter asks for them at every
 * instruction, and isa_type is reached through the global offset table. */
static const uint8_t ty_bits[TY__COUNT] = {
#define T(name, bytes, kind) [TY_##name] = (bytes) * 8,
#include "../isa/types.def"
#undef T
};
static const char ty_kind[TY__COUNT] = {
#define T(name, bytes, kind) [TY_##name] = TK_##kind,
#include "../isa/types.def"
#undef T
};
static inline unsigned tbits(unsigned ty) { return ty < TY__COUNT ? ty_bits[ty] : 64u; }
static inline bool tsigned(unsigned ty) { return ty < TY__COUNT && ty_kind[ty] == TK_S; }
static inline bool tfloat(unsigned ty) { return ty < TY__COUNT && ty_kind[ty] == TK_F; }
static inline bool tint(unsigned ty) { return ty < TY__COUNT && (ty_kind[ty] == TK_S || ty_kind[ty] == TK_U); }

/* The value of the low `bits` of v, extended to 64 bits. */
static inline __attribute__((always_inline)) uint64_t zx(uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }
/* The usual widths as casts, which the vectoriser takes: a 64-bit
 * arithmetic shift has no SSE2 instruction, so a lane loop that had one
 * (a signed comparison) stayed scalar. */
static inline __attribute__((always_inline)) int64_t sx(uint64_t v, unsigned bits)
{
	if (bits == 32)
		return (int32_t)v;
	if (bits == 16)
		return (int16_t)v;
	if (bits == 8)
		return (int8_t)v;
	return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}
static inline __attribute__((always_inline)) uint64_t ext(uint64_t v, unsigned ty)
{
	return tsigned(ty) ? (uint64_t)sx(v, tbits(ty)) : zx(v, tbits(ty));
}
/* ext with the type's width and signedness known (exec_one's bits, sg):
 * for lane loops, which then look nothing up per lane. */
static inline __attribute__((always_inline)) uint64_t extb(uint64_t v, unsigned bits, bool sg)
{
	return sg ? (uint64_t)sx(v, bits) : zx(v, bits);
}

static inline float f32(uint64_t v) { float f; uint32_t b = (uint32_t)v; memcpy(&f, &b, 4); return f; }
static inline uint64_t bf32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* Integer comparison cmp (MOD_eq ...) of a and b, `bits` wide. */
static inline __attribute__((always_inline)) bool icmp(uint16_t cmp, uint64_t a, uint64_t b, unsigned bits,
							 bool sg)
{
	int64_t x = sx(a, bits), y = sx(b, bits);
	uint64_t u = zx(a, bits), v = zx(b, bits);
	switch (cmp) {
	case MOD_eq: return u == v;
	case MOD_ne: return u != v;
	case MOD_lt: return sg ? x < y : u < v;
	case MOD_le: return sg ? x <= y : u <= v;
	case MOD_gt: return sg ? x > y : u > v;
	case MOD_ge: return sg ? x >= y : u >= v;
	case MOD_lo: return u < v;
	case MOD_ls: return u <= v;
	case MOD_hi: return u > v;
	case MOD_hs: return u >= v;
	}
	return false;
}

enum {
	LF_NONE,
	LF_MOV,         /* mov d, a: one register, not a predicate */
	LF_ADD,         /* add, sub: not floating point, without .sat, .cc or halves */
	LF_SUB,
	LF_MUL,         /* mul, mad .lo and .wide: not floating point, without .cc, .sat or .hi */
	LF_SHIFT,       /* shl, shr */
	LF_AND,         /* and, or, xor */
	LF_OR,
	LF_XOR,
	LF_CVT,         /* cvt: integer to integer, without .sat */
	LF_CVTA,        /* cvta: k, the space's offset (cvta_off) */
	LF_SETP,        /* setp: not floating point, one predicate, without a bool op */
	LF_SELP,        /* selp d, a, b, c: c the predicate's bit */
	LF_FADD,        /* add, sub, mul .f32: to nearest, without .ftz or .sat */
	LF_FSUB,
	LF_FMUL,
	LF_FFMA,        /* fma.rn.f32 without .ftz or .sat: one rounding */
};

/* The lane-local form of instruction xk, or LF_NONE. */
static inline __attribute__((always_inline)) unsigned lane_form(const XIns *xk)
{
	unsigned ty = xk->ty;
	if (xk->bits > 64)
		return LF_NONE;
	switch (xk->op) {
	case OPC_mov:
		/* sub2 1 and 2: mov's packing and unpacking of vectors */
		return ty != TY_pred && xk->sub2 != 1 && xk->sub2 != 2 ? LF_MOV : LF_NONE;
	case OPC_add:
	case OPC_sub:
	case OPC_mul:
		if (ty == TY_f32 && xk->rnd == FP_RN && !(xk->flags & (XF_FTZ | XF_SAT)))
			return xk->op == OPC_add ? LF_FADD : xk->op == OPC_sub ? LF_FSUB : LF_FMUL;
		if (xk->op == OPC_mul)
			break;
		if (tfloat(ty) || ty == TY_u16x2 || ty == TY_s16x2 || xk->flags & (XF_SAT | XF_CC))
			return LF_NONE;
		return xk->op == OPC_add ? LF_ADD : LF_SUB;
	}
	switch (xk->op) {
	case OPC_mul:
	case OPC_mad:
		return !tfloat(ty) && !(xk->flags & (XF_CC | XF_SAT)) && xk->sub != MOD_hi ? LF_MUL : LF_NONE;
	case OPC_shl:
	case OPC_shr:
		return LF_SHIFT;
	case OPC_and:
	case OPC_or:
	case OPC_xor:
		/* of predicates too: bitwise, on a lane's bit or a warp's mask */
		return xk->op == OPC_and ? LF_AND : xk->op == OPC_or ? LF_OR : LF_XOR;
	case OPC_cvt:
		return !(xk->flags & XF_SAT) && tint(ty) && tint(xk->ty2) && xk->n == 2 && xk->sub != MOD_pack
		       ? LF_CVT : LF_NONE;
	case OPC_fma:
		return ty == TY_f32 && xk->rnd == FP_RN && !(xk->flags & (XF_FTZ | XF_SAT)) && xk->n == 4 ? LF_FFMA
														 : LF_NONE;
	case OPC_cvta:
		return LF_CVTA;
	case OPC_setp:
		return !tfloat(ty) && xk->sub != MOD_NONE && xk->sub2 == MOD_NONE && xk->n == 3 ? LF_SETP : LF_NONE;
	case OPC_selp:
		return LF_SELP;
	}
	return LF_NONE;
}

/* One lane's result of form f (lane_form(xk)) from its operands a, b, c
 * (0 where the instruction has none), before lane_ext's extension; for
 * LF_SETP, the predicate's bit. */
static inline __attribute__((always_inline)) uint64_t lane_raw(unsigned f, const XIns *xk, uint64_t a, uint64_t b,
							     uint64_t c, uint64_t k)
{
	unsigned bits = xk->bits;
	bool sg = xk->sg;
	switch (f) {
	case LF_MOV: return a;
	case LF_ADD: return a + b;
	case LF_SUB: return a - b;
	case LF_MUL:
		/* .wide: the product of the extended sources, twice as wide */
		if (xk->sub == MOD_wide)
			return (sg ? (uint64_t)(sx(a, bits) * sx(b, bits)) : zx(a, bits) * zx(b, bits)) + c;
		return a * b + c;
	case LF_SHIFT: {
		/* amounts beyond the width give 0 (or the sign, shr.s) */
		uint32_t n = (uint32_t)b > bits ? bits : (uint32_t)b;
		if (xk->op == OPC_shl)
			return n >= 64 ? 0 : a << n;
		if (sg)
			return (uint64_t)(sx(a, bits) >> (n >= 64 ? 63 : n));
		return n >= 64 ? 0 : zx(a, bits) >> n;
	}
	case LF_AND: return a & b;
	case LF_OR: return a | b;
	case LF_XOR: return a ^ b;
	case LF_CVT:
		/* the source extended by its type; the result by its own (lane_ext) */
		return tsigned(xk->ty2) ? (uint64_t)sx(a, tbits(xk->ty2)) : zx(a, tbits(xk->ty2));
	case LF_CVTA: return a + k;     /* modulo 2^64 */
	case LF_SETP: return icmp(xk->sub, a, b, bits, sg);
	case LF_SELP: return c ? a : b;
	case LF_FADD:
	case LF_FSUB:
	case LF_FMUL:
	case LF_FFMA: {
		/* the host's rounding to nearest (fmaf: once, of the exact a*b+c,
		 * one instruction where the host has FMA); a NaN canonical, as
		 * the GPU's */
		float r = f == LF_FADD ? f32(a) + f32(b) : f == LF_FSUB ? f32(a) - f32(b)
		        : f == LF_FMUL ? f32(a) * f32(b) : fmaf(f32(a), f32(b), f32(c));
		uint32_t v = (uint32_t)bf32(r);
		return (v & 0x7fffffffu) > 0x7f800000u ? FP_F32_CNAN : v;
	}
	}
	return 0;
}

/* The extension of form f's raw result into its slot: the low *eb bits,
 * sign-extended where *es. */
static inline __attribute__((always_inline)) void lane_ext(unsigned f, const XIns *xk, unsigned *eb, bool *es)
{
	*eb = xk->bits;
	*es = xk->sg;
	switch (f) {
	case LF_MOV:
	case LF_SELP:
	case LF_FADD:
	case LF_FSUB:
	case LF_FMUL:
	case LF_FFMA:
		*eb = 64, *es = false;   /* as it is */
		break;
	case LF_MUL:
		if (xk->sub == MOD_wide)
			*eb = 2 * xk->bits;
		break;
	case LF_AND:
	case LF_OR:
	case LF_XOR:
		*eb = 64, *es = false;   /* of registers already extended */
		break;
	case LF_CVT:
		*eb = tbits(xk->ty), *es = tsigned(xk->ty);
		break;
	case LF_CVTA:
		*es = false;
		break;
	}
}

/* One lane's slot value of form f: lane_raw extended by lane_ext. */
static inline __attribute__((always_inline)) uint64_t lane_value(unsigned f, const XIns *xk, uint64_t a, uint64_t b,
							       uint64_t c, uint64_t k)
{
	unsigned eb;
	bool es;
	lane_ext(f, xk, &eb, &es);
	return extb(lane_raw(f, xk, a, b, c, k), eb, es);
}

#endif
