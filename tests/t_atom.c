/* t_atom.c: the atomic unit (src/atom).
 *
 *   table        the SASS operation x size table (seed 001) against a copy
 *                transcribed here: every cell allowed, every other refused
 *   cells        every allowed cell on edge values against an independent
 *                reference model (integers), or against expected bits
 *                worked out by hand (floating point)
 *   ptx          what PTX's atom/red need of atom_rmw: f32 flushing on
 *                global memory only, f16/bf16, 16-bit CAS, 128-bit
 *                exchange and CAS, refused combinations, misalignment
 *   private      atom_rmw_private (shared memory, no locked instruction)
 *                gives atom_rmw's results, memory and errors for every
 *                operation x type on edge values, also misaligned
 *   concurrency  threads hammering one address and many addresses:
 *                counts, CAS chains, exchange chains, histograms exact
 */
#include "test.h"
#include "../src/atom/atom.h"
#include "../src/isa/isa.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...) do { if (cond) passed++; else fail(__VA_ARGS__); } while (0)

/* ---- the table -------------------------------------------------------------- */
/* Seed 001, transcribed: ".op .sz" per row; F16x2.FTZ.RN is ptxvm's
 * addition (the seed's .sz list spells the packed size so). */
static const struct {
	int op;
	const char *sizes;
} seed_table[] = {
	{ AT_ADD, "U32 S32 U64 F32.FTZ.RN F16x2.RN F16x2.FTZ.RN F64.RN" },
	{ AT_MIN, "U32 S32 U64 S64 F16x2.RN F16x2.FTZ.RN" },
	{ AT_MAX, "U32 S32 U64 S64 F16x2.RN F16x2.FTZ.RN" },
	{ AT_INC, "U32" },
	{ AT_DEC, "U32" },
	{ AT_AND, "U32 S32 U64" },
	{ AT_OR, "U32 S32 U64" },
	{ AT_XOR, "U32 S32 U64" },
	{ AT_EXCH, "U32 S32 U64" },
	{ AT_SAFEADD, "U64" },
	{ AT_CAS, "U32 S32 U64" },
};

static bool seed_allows(int op, const char *size)
{
	for (size_t i = 0; i < sizeof seed_table / sizeof seed_table[0]; i++) {
		if (seed_table[i].op != op)
			continue;
		const char *p = seed_table[i].sizes;
		size_t n = strlen(size);
		while (*p) {
			const char *e = strchr(p, ' ');
			size_t l = e ? (size_t)(e - p) : strlen(p);
			if (l == n && !strncmp(p, size, n))
				return true;
			p += l + (e != NULL);
		}
	}
	return false;
}

static void test_table(void)
{
	int cells = 0;
	for (int op = 0; op < AT__COUNT; op++)
		for (int z = 0; z < AS__COUNT; z++) {
			bool want = seed_allows(op, atom_sass_size[z].name);
			bool got = atom_sass_allowed(op, z);
			CHECK(want == got, "atom table: ATOM.%s.%s is %s, the seed says %s", atom_sass_op[op].name,
			      atom_sass_size[z].name, got ? "allowed" : "refused", want ? "allowed" : "refused");
			cells += want;
			if (got)        /* the unit has every cell the table allows */
				CHECK(atom_has(op, atom_sass_size[z].ty), "atom table: the unit lacks ATOM.%s.%s",
				      atom_sass_op[op].name, atom_sass_size[z].name);
		}
	CHECK(cells == 37, "atom table: %d cells, expected 37", cells);
	CHECK(!atom_sass_allowed(AT_ADD, AS_U128) && !atom_sass_allowed(-1, AS_U32) &&
	      !atom_sass_allowed(AT_ADD, AS__COUNT), "atom table: out-of-range lookups");
	/* the sizes map to the unit's types */
	CHECK(atom_sass_size[AS_F32_FTZ_RN].ty == TY_f32 && atom_sass_size[AS_F32_FTZ_RN].flags == ATF_FTZ &&
	      atom_sass_size[AS_F16X2_RN].flags == 0 && atom_sass_size[AS_F64_RN].bytes == 8 &&
	      atom_sass_size[AS_S64].ty == TY_s64 && atom_sass_size[AS_U128].bytes == 16,
	      "atom table: size descriptors");
}

/* ---- the reference model (integers) ---------------------------------------- */
/* Written apart from atom.c: values as signed or unsigned C integers of the
 * width, the operation spelt out as the seed's table does. */
static uint64_t ref_int(int op, bool sgn, int bits, uint64_t m, uint64_t b, uint64_t c)
{
	uint64_t mask = bits == 64 ? ~0ull : 0xffffffffull;
	m &= mask, b &= mask, c &= mask;
	if (bits == 32) {
		uint32_t um = (uint32_t)m, ub = (uint32_t)b;
		int32_t im = (int32_t)um, ib = (int32_t)ub;
		switch (op) {
		case AT_ADD: return (uint32_t)(um + ub);
		case AT_MIN: return sgn ? (uint32_t)(im < ib ? im : ib) : (um < ub ? um : ub);
		case AT_MAX: return sgn ? (uint32_t)(im > ib ? im : ib) : (um > ub ? um : ub);
		case AT_INC: return um >= ub ? 0 : um + 1;
		case AT_DEC: return (um == 0 || um > ub) ? ub : um - 1;
		case AT_AND: return um & ub;
		case AT_OR: return um | ub;
		case AT_XOR: return um ^ ub;
		case AT_EXCH: return ub;
		case AT_CAS: return um == ub ? (uint32_t)c : um;
		}
	} else {
		int64_t im = (int64_t)m, ib = (int64_t)b;
		switch (op) {
		case AT_ADD: return m + b;
		case AT_MIN: return sgn ? (uint64_t)(im < ib ? im : ib) : (m < b ? m : b);
		case AT_MAX: return sgn ? (uint64_t)(im > ib ? im : ib) : (m > b ? m : b);
		case AT_AND: return m & b;
		case AT_OR: return m | b;
		case AT_XOR: return m ^ b;
		case AT_EXCH: return b;
		case AT_CAS: return m == b ? c : m;
		case AT_SAFEADD: {
			/* a queue of S entries (0: 2^32); n entries are put */
			unsigned __int128 S = (uint32_t)(b >> 32) ? (uint32_t)(b >> 32) : (unsigned __int128)1 << 32;
			unsigned __int128 n = (uint32_t)b;
			return (uint64_t)(((unsigned __int128)m + n) % S);
		}
		}
	}
	return 0xdeadbeef;
}

static const uint64_t edge32[] = { 0, 1, 2, 3, 5, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001,
				   0xfffffffe, 0xffffffff, 0x12345678, 0x0000ffff, 0xffff0000 };
static const uint64_t edge64[] = { 0, 1, 2, 7, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
				   0x8000000000000000ull, 0x8000000000000001ull, 0xfffffffffffffffeull,
				   0xffffffffffffffffull, 0x0123456789abcdefull, 0x0000000800000003ull,
				   0x00000003fffffffdull, 0xffffffff00000001ull };

/* One application through the unit on an aligned buffer: returns the
 * new memory value; *old the prior one. */
#define NELEM32 (sizeof edge32 / sizeof edge32[0])
#define NELEM64 (sizeof edge64 / sizeof edge64[0])

static uint64_t unit(int op, int size, uint64_t m, uint64_t b, uint64_t c, uint64_t *old, int *err)
{
	_Alignas(16) uint8_t buf[16] = { 0 };
	const AtomSassSize *z = &atom_sass_size[size];
	memcpy(buf, &m, z->bytes);
	AtomVal bv = { b, 0 }, cv = { c, 0 }, ov = { 0, 0 };
	*err = atom_apply(op, z->ty, z->flags, buf, bv, cv, &ov);
	*old = ov.lo;
	uint64_t v = 0;
	memcpy(&v, buf, z->bytes);
	return v;
}

static void test_int_cells(void)
{
	for (int op = 0; op < AT__COUNT; op++)
		for (int z = 0; z < AS__COUNT; z++) {
			if (!atom_sass_allowed(op, z) || (z != AS_U32 && z != AS_S32 && z != AS_U64 && z != AS_S64))
				continue;
			int bits = atom_sass_size[z].bytes * 8;
			bool sgn = z == AS_S32 || z == AS_S64;
			const uint64_t *e = bits == 32 ? edge32 : edge64;
			size_t ne = bits == 32 ? NELEM32 : NELEM64;
			int bad = 0, n = 0;
			for (size_t i = 0; i < ne; i++)
				for (size_t j = 0; j < ne; j++)
					for (size_t k = 0; k < (op == AT_CAS ? ne : 1); k++) {
						uint64_t old, want = ref_int(op, sgn, bits, e[i], e[j], e[k]);
						int err;
						uint64_t got = unit(op, z, e[i], e[j], e[k], &old, &err);
						n++;
						if (err || got != want || old != e[i]) {
							if (bad++ < 3)
								fail("atom cell ATOM.%s.%s: M=0x%llx b=0x%llx c=0x%llx: got M'=0x%llx "
								     "old=0x%llx err=%d, expected M'=0x%llx", atom_sass_op[op].name,
								     atom_sass_size[z].name, (unsigned long long)e[i],
								     (unsigned long long)e[j], (unsigned long long)e[k],
								     (unsigned long long)got, (unsigned long long)old, err,
								     (unsigned long long)want);
						}
					}
			if (!bad)
				passed++;
			if (verbose)
				printf("atom cell ATOM.%s.%s: %d vectors\n", atom_sass_op[op].name, atom_sass_size[z].name, n);
		}
}

/* Explicit vectors: named edges of INC/DEC/SAFEADD/signed min-max, and
 * the floating-point cells with expected bits worked out by hand. */
typedef struct Vec {
	int op, size;
	uint64_t m, b, c, want;
	const char *what;
} Vec;

static const Vec vecs[] = {
	/* INC: M = (M >= Rb) ? 0 : M + 1 */
	{ AT_INC, AS_U32, 4, 5, 0, 5, "INC below the bound" },
	{ AT_INC, AS_U32, 5, 5, 0, 0, "INC at the bound wraps to 0" },
	{ AT_INC, AS_U32, 9, 5, 0, 0, "INC above the bound gives 0" },
	{ AT_INC, AS_U32, 0xfffffffe, 0xffffffff, 0, 0xffffffff, "INC to the top" },
	{ AT_INC, AS_U32, 0xffffffff, 0xffffffff, 0, 0, "INC at 0xffffffff" },
	{ AT_INC, AS_U32, 0, 0, 0, 0, "INC with bound 0" },
	/* DEC: M = (M == 0 || M > Rb) ? Rb : M - 1 */
	{ AT_DEC, AS_U32, 0, 5, 0, 5, "DEC at 0 gives the bound" },
	{ AT_DEC, AS_U32, 6, 5, 0, 5, "DEC above the bound gives the bound" },
	{ AT_DEC, AS_U32, 5, 5, 0, 4, "DEC at the bound" },
	{ AT_DEC, AS_U32, 1, 5, 0, 0, "DEC to 0" },
	{ AT_DEC, AS_U32, 0, 0, 0, 0, "DEC at 0 with bound 0" },
	/* wrap-around */
	{ AT_ADD, AS_U32, 0xffffffff, 1, 0, 0, "ADD.U32 wraps" },
	{ AT_ADD, AS_S32, 0x7fffffff, 1, 0, 0x80000000, "ADD.S32 wraps to INT_MIN" },
	{ AT_ADD, AS_U64, 0xffffffffffffffffull, 2, 0, 1, "ADD.U64 wraps" },
	{ AT_ADD, AS_U64, 0xffffffff, 1, 0, 0x100000000ull, "ADD.U64 carries into the high word" },
	/* signed vs unsigned at the extremes */
	{ AT_MIN, AS_S32, 0x80000000, 0x7fffffff, 0, 0x80000000, "MIN.S32 INT_MIN" },
	{ AT_MIN, AS_U32, 0x80000000, 0x7fffffff, 0, 0x7fffffff, "MIN.U32 of the same bits" },
	{ AT_MAX, AS_S32, 0xffffffff, 0, 0, 0, "MAX.S32 -1 vs 0" },
	{ AT_MAX, AS_U32, 0xffffffff, 0, 0, 0xffffffff, "MAX.U32 0xffffffff vs 0" },
	{ AT_MIN, AS_S64, 0x8000000000000000ull, 0x7fffffffffffffffull, 0, 0x8000000000000000ull, "MIN.S64" },
	{ AT_MIN, AS_U64, 0x8000000000000000ull, 0x7fffffffffffffffull, 0, 0x7fffffffffffffffull, "MIN.U64" },
	{ AT_MAX, AS_S64, 0xffffffffffffffffull, 1, 0, 1, "MAX.S64 -1 vs 1" },
	{ AT_MAX, AS_U64, 0xffffffffffffffffull, 1, 0, 0xffffffffffffffffull, "MAX.U64" },
	{ AT_CAS, AS_U64, 0x100000005ull, 5, 9, 0x100000005ull, "CAS.U64 compares all 64 bits" },
	{ AT_CAS, AS_U32, 5, 5, 9, 9, "CAS.U32 swaps" },
	/* SAFEADD: b = n | S << 32; M' = (M mod S + n) mod S, S = 0 meaning 2^32 */
	{ AT_SAFEADD, AS_U64, 5, 1 | 8ull << 32, 0, 6, "SAFEADD inside the queue" },
	{ AT_SAFEADD, AS_U64, 7, 1 | 8ull << 32, 0, 0, "SAFEADD wraps at the end" },
	{ AT_SAFEADD, AS_U64, 7, 3 | 8ull << 32, 0, 2, "SAFEADD of 3 wraps" },
	{ AT_SAFEADD, AS_U64, 20, 1 | 8ull << 32, 0, 5, "SAFEADD from outside the queue" },
	{ AT_SAFEADD, AS_U64, 0xffffffff, 1, 0, 0, "SAFEADD with S = 0 (2^32)" },
	{ AT_SAFEADD, AS_U64, 0x100000005ull, 1, 0, 6, "SAFEADD with S = 0 drops the high word" },
	{ AT_SAFEADD, AS_U64, 0xffffffffffffffffull, 0xfffffffe | 0xffffffffull << 32, 0, 0xfffffffe,
	  "SAFEADD of the largest values" },
	/* F32.FTZ.RN */
	{ AT_ADD, AS_F32_FTZ_RN, 0x3f800000, 0x40000000, 0, 0x40400000, "1 + 2" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x00000001, 0x00000000, 0, 0x00000000, "subnormal M flushed" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x3f800000, 0x007fffff, 0, 0x3f800000, "subnormal Rb flushed" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x80000001, 0x80000000, 0, 0x80000000, "-subnormal + -0 = -0" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x00000001, 0x80000000, 0, 0x00000000, "+subnormal + -0 = +0" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x00800001, 0x80800000, 0, 0x00000000, "subnormal result flushed" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x00800000, 0x00800000, 0, 0x01000000, "normal result kept" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x3f800000, 0x33800000, 0, 0x3f800000, "tie to even (down)" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x3f800001, 0x33800000, 0, 0x3f800002, "tie to even (up)" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x3f800000, 0x33c00000, 0, 0x3f800001, "above the tie" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x7f7fffff, 0x7f7fffff, 0, 0x7f800000, "overflow to +inf" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x7fc00001, 0x3f800000, 0, 0x7fffffff, "NaN: the canonical NaN" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x7f800000, 0xff800000, 0, 0x7fffffff, "inf - inf" },
	{ AT_ADD, AS_F32_FTZ_RN, 0x3f800000, 0xbf800000, 0, 0x00000000, "1 - 1 = +0" },
	/* F16x2: each half rounded on its own (hi << 16 | lo) */
	{ AT_ADD, AS_F16X2_RN, 0x7bff3c00, 0x7bff3c00, 0, 0x7c004000, "lo 1+1, hi 65504+65504 = inf" },
	{ AT_ADD, AS_F16X2_RN, 0x3c003c00, 0x12001000, 0, 0x3c013c00, "lo tie to even, hi above the tie" },
	{ AT_ADD, AS_F16X2_RN, 0x3c007e01, 0x3c003c00, 0, 0x40007fff, "lo NaN, hi 1+1" },
	{ AT_ADD, AS_F16X2_RN, 0x7c00fc00, 0xfc003c00, 0, 0x7ffffc00, "hi inf-inf NaN, lo -inf+1" },
	{ AT_ADD, AS_F16X2_RN, 0x00010001, 0x00010001, 0, 0x00020002, "subnormals kept without .FTZ" },
	{ AT_ADD, AS_F16X2_FTZ_RN, 0x00010001, 0x00013c00, 0, 0x00003c00, "subnormals flushed with .FTZ" },
	{ AT_ADD, AS_F16X2_FTZ_RN, 0x04000400, 0x84018401, 0, 0x80008000, "subnormal results flushed to -0" },
	{ AT_ADD, AS_F16X2_FTZ_RN, 0x3c003c00, 0x3c003c00, 0, 0x40004000, "normal values unchanged" },
	{ AT_MIN, AS_F16X2_RN, 0xbc003c00, 0x3c00bc00, 0, 0xbc00bc00, "min per half" },
	{ AT_MAX, AS_F16X2_RN, 0xbc003c00, 0x3c00bc00, 0, 0x3c003c00, "max per half" },
	{ AT_MIN, AS_F16X2_RN, 0x7e003c00, 0x40004000, 0, 0x40003c00, "min: a NaN half gives the other" },
	{ AT_MAX, AS_F16X2_RN, 0x7e003c00, 0x40004000, 0, 0x40004000, "max: a NaN half gives the other" },
	{ AT_MIN, AS_F16X2_RN, 0x7e007e00, 0x7e017e01, 0, 0x7fff7fff, "min: both NaN, canonical" },
	{ AT_MIN, AS_F16X2_RN, 0x80000000, 0x00008000, 0, 0x80008000, "min: -0 < +0" },
	{ AT_MAX, AS_F16X2_RN, 0x80000000, 0x00008000, 0, 0x00000000, "max: +0 > -0" },
	{ AT_MIN, AS_F16X2_FTZ_RN, 0x80010001, 0x00000000, 0, 0x80000000, "min .FTZ: flushed inputs" },
	{ AT_MAX, AS_F16X2_FTZ_RN, 0x00018001, 0x80000000, 0, 0x00000000, "max .FTZ: +0 over flushed -0" },
	/* F64.RN */
	{ AT_ADD, AS_F64_RN, 0x3ff0000000000000ull, 0x3ca0000000000000ull, 0, 0x3ff0000000000000ull, "tie to even" },
	{ AT_ADD, AS_F64_RN, 0x3ff0000000000000ull, 0x3ca8000000000000ull, 0, 0x3ff0000000000001ull, "above the tie" },
	{ AT_ADD, AS_F64_RN, 0x3fb999999999999aull, 0x3fc999999999999aull, 0, 0x3fd3333333333334ull, "0.1 + 0.2" },
	{ AT_ADD, AS_F64_RN, 1, 1, 0, 2, "subnormals kept" },
	/* an H200's: inf - inf is -NaN; a NaN operand, else a NaN in memory,
	 * is stored as it is, signalling ones too */
	{ AT_ADD, AS_F64_RN, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0, 0xfff8000000000000ull, "inf - inf" },
	{ AT_ADD, AS_F64_RN, 0x7ff8000000000001ull, 0, 0, 0x7ff8000000000001ull, "NaN in memory: kept" },
	{ AT_ADD, AS_F64_RN, 0x3ff0000000000000ull, 0x7ff0000000000001ull, 0, 0x7ff0000000000001ull,
	  "signalling NaN operand: kept" },
	{ AT_ADD, AS_F64_RN, 0x7ff8000000000002ull, 0xfff0000000000003ull, 0, 0xfff0000000000003ull,
	  "two NaNs: the operand's" },
	{ AT_ADD, AS_F64_RN, 0x7fefffffffffffffull, 0x7fefffffffffffffull, 0, 0x7ff0000000000000ull, "overflow" },
};

static void test_vectors(void)
{
	for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) {
		const Vec *v = &vecs[i];
		uint64_t old;
		int err;
		uint64_t got = unit(v->op, v->size, v->m, v->b, v->c, &old, &err);
		CHECK(!err && got == v->want && old == v->m,
		      "atom vector ATOM.%s.%s %s: M=0x%llx b=0x%llx: got 0x%llx (old 0x%llx, err %d), expected 0x%llx",
		      atom_sass_op[v->op].name, atom_sass_size[v->size].name, v->what, (unsigned long long)v->m,
		      (unsigned long long)v->b, (unsigned long long)got, (unsigned long long)old, err,
		      (unsigned long long)v->want);
	}
	/* every floating-point cell of the table has vectors */
	for (int op = 0; op < AT__COUNT; op++)
		for (int z = AS_F32_FTZ_RN; z <= AS_F64_RN; z++) {
			if (!atom_sass_allowed(op, z))
				continue;
			int n = 0;
			for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
				n += vecs[i].op == op && vecs[i].size == z;
			CHECK(n > 0, "atom vectors: no vector for ATOM.%s.%s", atom_sass_op[op].name, atom_sass_size[z].name);
		}
}

/* ---- PTX's needs ---------------------------------------------------------- */
/* atom_rmw_lanes against plain C in lane order: 32 lanes over 5 words
 * (lanes sharing an address see each other's results), a partial mask,
 * both widths, shared (priv) and global, the old values; and the
 * combinations it declines. */
static void test_lanes(void)
{
	static const int ops[] = { AT_ADD, AT_AND, AT_OR, AT_XOR, AT_EXCH };
	static const unsigned tys[] = { TY_u32, TY_s32, TY_b64, TY_u64 };
	for (unsigned oi = 0; oi < 5; oi++)
		for (unsigned ti = 0; ti < 4; ti++)
			for (int priv = 0; priv < 2; priv++) {
				unsigned bytes = ti < 2 ? 4 : 8;
				uint64_t mem[5], ref[5], a[32], b[32], old[32], want[32];
				uint32_t act = ti & 1 ? 0xfff0f0ffu : 0xffffffffu;
				for (unsigned i = 0; i < 5; i++)
					mem[i] = ref[i] = 0x8000000180000001ull * (i + 3);
				for (unsigned l = 0; l < 32; l++) {
					a[l] = (uint64_t)(l * 7 % 5) * 8;  /* byte offsets into mem */
					b[l] = 0x9e3779b97f4a7c15ull * (l + 1);
					old[l] = want[l] = 0xdead;
				}
				for (unsigned l = 0; l < 32; l++) {
					if (!(act >> l & 1))
						continue;
					uint64_t *r = &ref[a[l] / 8], m = bytes == 4 ? (uint32_t)*r : *r, v = b[l], n;
					switch (ops[oi]) {
					case AT_ADD: n = m + v; break;
					case AT_AND: n = m & v; break;
					case AT_OR: n = m | v; break;
					case AT_XOR: n = m ^ v; break;
					default: n = v; break;
					}
					want[l] = m;
					*r = bytes == 4 ? (*r & ~0xffffffffull) | (uint32_t)n : n;
				}
				bool ok = atom_rmw_lanes(ops[oi], tys[ti], priv, act, a, (uintptr_t)mem, b, old);
				CHECK(ok && !memcmp(mem, ref, sizeof mem) && !memcmp(old, want, sizeof old),
				      "atom lanes: op %d type %u %s: %s", ops[oi], tys[ti], priv ? "private" : "global",
				      ok ? "memory or old values differ from lane order" : "declined");
			}
	uint64_t a[32] = { 0 }, b[32] = { 0 }, mem = 0;
	CHECK(!atom_rmw_lanes(AT_ADD, TY_f32, false, 1, a, (uintptr_t)&mem, b, NULL) &&
	      !atom_rmw_lanes(AT_CAS, TY_u32, false, 1, a, (uintptr_t)&mem, b, NULL) &&
	      !atom_rmw_lanes(AT_MIN, TY_s32, true, 1, a, (uintptr_t)&mem, b, NULL) &&
	      !atom_rmw_lanes(AT_EXCH, TY_b16, true, 1, a, (uintptr_t)&mem, b, NULL) && mem == 0,
	      "atom lanes: a float add, cas, min or 16-bit exch is taken (they are the per-lane path's)");
}

static void test_ptx(void)
{
	_Alignas(16) uint8_t buf[32];
	AtomVal b = { 0, 0 }, c = { 0, 0 }, old;
	uint32_t w;
	/* atom.add.f32: flushes on global memory, not on shared memory */
	w = 0x00000001;
	memcpy(buf, &w, 4);
	b.lo = 0x00000001;
	CHECK(atom_rmw(AT_ADD, TY_f32, buf, b, c, true, &old) == ATOM_OK && old.lo == 1 &&
	      (memcpy(&w, buf, 4), w == 0), "atom ptx: add.f32 on global flushes subnormals (got 0x%x)", w);
	w = 0x00000001;
	memcpy(buf, &w, 4);
	CHECK(atom_rmw(AT_ADD, TY_f32, buf, b, c, false, &old) == ATOM_OK && (memcpy(&w, buf, 4), w == 2),
	      "atom ptx: add.f32 on shared keeps subnormals (got 0x%x)", w);
	/* f16 and bf16 on one half of a word: the other half is untouched */
	uint16_t h[2] = { 0x3c00, 0x1234 };
	memcpy(buf, h, 4);
	b.lo = 0x3c00;
	CHECK(atom_rmw(AT_ADD, TY_f16, buf, b, c, true, &old) == ATOM_OK && old.lo == 0x3c00 &&
	      (memcpy(h, buf, 4), h[0] == 0x4000 && h[1] == 0x1234), "atom ptx: add.f16");
	b.lo = 0xbf80;          /* bf16 -1.0 */
	h[0] = 0x3f80;
	memcpy(buf, h, 4);
	CHECK(atom_rmw(AT_MIN, TY_bf16, buf, b, c, true, &old) == ATOM_OK && (memcpy(h, buf, 4), h[0] == 0xbf80),
	      "atom ptx: min.bf16");
	CHECK(atom_rmw(AT_MAX, TY_f16, buf + 2, (AtomVal){ 0x3c00, 0 }, c, true, &old) == ATOM_OK &&
	      old.lo == 0x1234 && (memcpy(h, buf, 4), h[1] == 0x3c00), "atom ptx: max.f16 on the high half");
	/* add.noftz.bf16x2 */
	uint32_t bw = 0x3f803f80;
	memcpy(buf, &bw, 4);
	CHECK(atom_rmw(AT_ADD, TY_bf16x2, buf, (AtomVal){ 0x3f80bf80, 0 }, c, true, &old) == ATOM_OK &&
	      (memcpy(&bw, buf, 4), bw == 0x40000000), "atom ptx: add.bf16x2 (got 0x%x)", bw);
	/* cas.b16 */
	h[0] = 7;
	h[1] = 0x5555;
	memcpy(buf, h, 4);
	CHECK(atom_rmw(AT_CAS, TY_b16, buf, (AtomVal){ 7, 0 }, (AtomVal){ 9, 0 }, true, &old) == ATOM_OK &&
	      old.lo == 7 && (memcpy(h, buf, 4), h[0] == 9 && h[1] == 0x5555), "atom ptx: cas.b16 swaps");
	CHECK(atom_rmw(AT_CAS, TY_b16, buf, (AtomVal){ 7, 0 }, (AtomVal){ 1, 0 }, true, &old) == ATOM_OK &&
	      old.lo == 9 && (memcpy(h, buf, 4), h[0] == 9), "atom ptx: cas.b16 keeps");
	/* exch.b128 and cas.b128 */
	uint64_t q[2] = { 1, 2 };
	memcpy(buf, q, 16);
	CHECK(atom_rmw(AT_EXCH, TY_b128, buf, (AtomVal){ 3, 4 }, c, true, &old) == ATOM_OK && old.lo == 1 &&
	      old.hi == 2 && (memcpy(q, buf, 16), q[0] == 3 && q[1] == 4), "atom ptx: exch.b128");
	CHECK(atom_rmw(AT_CAS, TY_b128, buf, (AtomVal){ 3, 5 }, (AtomVal){ 8, 8 }, true, &old) == ATOM_OK &&
	      (memcpy(q, buf, 16), q[0] == 3 && q[1] == 4), "atom ptx: cas.b128 compares both halves");
	CHECK(atom_rmw(AT_CAS, TY_b128, buf, (AtomVal){ 3, 4 }, (AtomVal){ 8, 9 }, true, &old) == ATOM_OK &&
	      old.lo == 3 && old.hi == 4 && (memcpy(q, buf, 16), q[0] == 8 && q[1] == 9), "atom ptx: cas.b128 swaps");
	/* exch.b32 on an f32 and the 64-bit integer operations */
	uint64_t d = 10;
	memcpy(buf, &d, 8);
	CHECK(atom_rmw(AT_MIN, TY_s64, buf, (AtomVal){ (uint64_t)-3, 0 }, c, true, &old) == ATOM_OK &&
	      (memcpy(&d, buf, 8), d == (uint64_t)-3), "atom ptx: min.s64");
	/* refused combinations */
	static const struct { int op; unsigned ty; } bad[] = {
		{ AT_INC, TY_u64 }, { AT_DEC, TY_s32 }, { AT_MIN, TY_f32 }, { AT_MAX, TY_f64 }, { AT_AND, TY_f32 },
		{ AT_ADD, TY_b16 }, { AT_ADD, TY_b128 }, { AT_MIN, TY_b128 }, { AT_INC, TY_f16 }, { AT_CAS, TY_f16 },
		{ AT_SAFEADD, TY_u32 }, { AT_SAFEADD, TY_s64 }, { AT_ADD, TY_u8 }, { AT_ADD, TY_pred }, { AT__COUNT, TY_u32 },
		{ -1, TY_u32 }, { AT_ADD, TY__COUNT },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int e = atom_apply(bad[i].op, bad[i].ty, 0, buf, b, c, &old);
		CHECK(e == ATOM_EBADOP, "atom ptx: op %d on type %u accepted", bad[i].op, bad[i].ty);
	}
	CHECK(atom_rmw(AT_SAFEADD, TY_u64, buf, b, c, true, &old) == ATOM_EBADOP, "atom ptx: PTX has no safeadd");
	CHECK(atom_rmw(AT_ADD, TY_u32, buf + 2, b, c, true, &old) == ATOM_EALIGN &&
	      atom_rmw(AT_ADD, TY_u64, buf + 4, b, c, true, &old) == ATOM_EALIGN &&
	      atom_rmw(AT_CAS, TY_b128, buf + 8, b, c, true, &old) == ATOM_EALIGN,
	      "atom ptx: misaligned addresses refused");
	CHECK(strstr(atom_error(ATOM_EALIGN), "misaligned") && strstr(atom_error(ATOM_EBADOP), "no such"),
	      "atom ptx: error texts");
}

/* ---- concurrency ----------------------------------------------------------- */
#define NT 8
#define NI 16000
#define NI16 4000        /* the cas.b16 chain: NT * NI16 < 65536 */

typedef struct Shared {
	_Alignas(16) uint32_t counter32;
	uint64_t counter64;
	uint32_t fsum;          /* f32 */
	uint64_t dsum;          /* f64 */
	uint32_t halves;        /* f16x2: lo counts even threads, hi odd ones */
	uint32_t inc;           /* INC with a bound */
	uint32_t dec;
	uint32_t chain;         /* CAS-incremented */
	uint16_t chain16[2];    /* cas.b16, with a neighbour that must not change */
	uint32_t mn, mx;        /* min / max of every value */
	int32_t smn;
	uint64_t xtoken;        /* EXCH chain */
	uint64_t queue;         /* SAFEADD put pointer */
	_Alignas(16) uint64_t wide[2];  /* 128-bit CAS counter */
	uint32_t hist[64];
	uint64_t hist64[16];
	uint32_t *casv;         /* [NT*NI] values the CAS chain returned */
	uint64_t *xv;           /* [NT*NI] values the EXCH chain returned */
	uint64_t *qv;           /* [NT*NI] slots SAFEADD returned */
	uint32_t *c16v;
} Shared;

#define QSIZE 37u
#define INCB 1000u

typedef struct Arg {
	Shared *s;
	int id;
} Arg;

static uint32_t hash(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static void *hammer(void *p)
{
	Arg *a = p;
	Shared *s = a->s;
	AtomVal z = { 0, 0 }, old;
	unsigned one_f32 = 0x3f800000;
	uint64_t one_f64 = 0x3ff0000000000000ull;
	for (int i = 0; i < NI; i++) {
		uint32_t k = (uint32_t)(a->id * NI + i);
		atom_apply(AT_ADD, TY_u32, 0, &s->counter32, (AtomVal){ 1, 0 }, z, &old);
		atom_apply(AT_ADD, TY_u64, 0, &s->counter64, (AtomVal){ 0x100000001ull, 0 }, z, &old);
		atom_apply(AT_ADD, TY_f32, ATF_FTZ, &s->fsum, (AtomVal){ one_f32, 0 }, z, &old);
		atom_apply(AT_ADD, TY_f64, 0, &s->dsum, (AtomVal){ one_f64, 0 }, z, &old);
		if (i < 256)
			atom_apply(AT_ADD, TY_f16x2, 0, &s->halves, (AtomVal){ a->id & 1 ? 0x3c000000u : 0x3c00u, 0 }, z,
				   &old);
		atom_apply(AT_INC, TY_u32, 0, &s->inc, (AtomVal){ INCB - 1, 0 }, z, &old);
		atom_apply(AT_DEC, TY_u32, 0, &s->dec, (AtomVal){ 0xffffffffu, 0 }, z, &old);
		uint32_t v = hash(k);
		atom_apply(AT_MIN, TY_u32, 0, &s->mn, (AtomVal){ v, 0 }, z, &old);
		atom_apply(AT_MAX, TY_u32, 0, &s->mx, (AtomVal){ v, 0 }, z, &old);
		atom_apply(AT_MIN, TY_s32, 0, &s->smn, (AtomVal){ v, 0 }, z, &old);
		/* CAS chain: read, then CAS old -> old + 1 until it holds */
		uint32_t cur = __atomic_load_n(&s->chain, __ATOMIC_RELAXED);
		for (;;) {
			atom_apply(AT_CAS, TY_u32, 0, &s->chain, (AtomVal){ cur, 0 }, (AtomVal){ cur + 1, 0 }, &old);
			if (old.lo == cur)
				break;
			cur = (uint32_t)old.lo;
		}
		s->casv[k] = cur;
		uint16_t c16 = __atomic_load_n(&s->chain16[0], __ATOMIC_RELAXED);
		for (; i < NI16;) {
			atom_apply(AT_CAS, TY_b16, 0, &s->chain16[0], (AtomVal){ c16, 0 }, (AtomVal){ (uint16_t)(c16 + 1), 0 },
				   &old);
			if (old.lo == c16)
				break;
			c16 = (uint16_t)old.lo;
		}
		if (i < NI16)
			s->c16v[a->id * NI16 + i] = c16;
		atom_apply(AT_EXCH, TY_u64, 0, &s->xtoken, (AtomVal){ (uint64_t)k + 1, 0 }, z, &old);
		s->xv[k] = old.lo;
		atom_apply(AT_SAFEADD, TY_u64, 0, &s->queue, (AtomVal){ 1 | (uint64_t)QSIZE << 32, 0 }, z, &old);
		s->qv[k] = old.lo;
		atom_apply(AT_ADD, TY_u32, 0, &s->hist[v & 63], (AtomVal){ 1, 0 }, z, &old);
		atom_apply(AT_ADD, TY_u64, 0, &s->hist64[(v >> 8) & 15], (AtomVal){ v, 0 }, z, &old);
		if (i < 500) {  /* 128-bit: a lock per stripe */
			AtomVal w = { 0, 0 };
			atom_apply(AT_CAS, TY_b128, 0, s->wide, (AtomVal){ ~0ull, ~0ull }, z, &w);  /* a read */
			for (;;) {
				AtomVal nw = { w.lo + 1, w.hi + 2 };
				atom_apply(AT_CAS, TY_b128, 0, s->wide, w, nw, &old);
				if (old.lo == w.lo && old.hi == w.hi)
					break;
				w = old;
			}
		}
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void test_concurrency(void)
{
	const uint32_t N = NT * NI;
	Shared *s = calloc(1, sizeof *s);
	s->casv = calloc(N, sizeof *s->casv);
	s->c16v = calloc(N, sizeof *s->c16v);
	s->xv = calloc(N, sizeof *s->xv);
	s->qv = calloc(N, sizeof *s->qv);
	s->mn = 0xffffffffu;
	s->smn = 0x7fffffff;
	s->chain16[1] = 0xabcd;
	s->dec = 0;
	pthread_t t[NT];
	Arg a[NT];
	for (int i = 0; i < NT; i++) {
		a[i] = (Arg){ s, i };
		pthread_create(&t[i], NULL, hammer, &a[i]);
	}
	for (int i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	CHECK(s->counter32 == N, "atom concurrency: ADD.U32 count %u, expected %u", s->counter32, N);
	CHECK(s->counter64 == (uint64_t)N * 0x100000001ull, "atom concurrency: ADD.U64 count 0x%llx",
	      (unsigned long long)s->counter64);
	float f;
	memcpy(&f, &s->fsum, 4);
	CHECK(f == (float)N, "atom concurrency: ADD.F32 sum %g, expected %u", f, N);
	double d;
	memcpy(&d, &s->dsum, 8);
	CHECK(d == (double)N, "atom concurrency: ADD.F64 sum %g, expected %u", d, N);
	/* 4 even and 4 odd threads each add 1.0 256 times: 1024 = 0x6400 */
	CHECK(s->halves == 0x64006400u, "atom concurrency: F16x2 per-half sums 0x%08x, expected 0x64006400",
	      s->halves);
	CHECK(s->inc == N % INCB, "atom concurrency: INC wrapped count %u, expected %u", s->inc, N % INCB);
	CHECK(s->dec == 0xffffffffu - (N - 1), "atom concurrency: DEC count 0x%x", s->dec);
	uint32_t mn = 0xffffffffu, mx = 0;
	int32_t smn = 0x7fffffff;
	uint32_t hist[64] = { 0 };
	uint64_t hist64[16] = { 0 };
	for (uint32_t k = 0; k < N; k++) {
		uint32_t v = hash(k);
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		smn = (int32_t)v < smn ? (int32_t)v : smn;
		hist[v & 63]++;
		hist64[(v >> 8) & 15] += v;
	}
	CHECK(s->mn == mn && s->mx == mx && s->smn == smn, "atom concurrency: MIN/MAX");
	CHECK(!memcmp(hist, s->hist, sizeof hist), "atom concurrency: ADD.U32 histogram of 64 bins differs");
	CHECK(!memcmp(hist64, s->hist64, sizeof hist64), "atom concurrency: ADD.U64 histogram of 16 bins differs");
	/* the CAS chain: every value 0..N-1 taken exactly once */
	uint8_t *seen = calloc(N, 1);
	int dup = 0;
	for (uint32_t k = 0; k < N; k++)
		if (s->casv[k] >= N || seen[s->casv[k]]++)
			dup++;
	CHECK(dup == 0 && s->chain == N, "atom concurrency: CAS chain: %d values repeated or out of range, final %u",
	      dup, s->chain);
	memset(seen, 0, N);
	dup = 0;
	for (uint32_t k = 0; k < NT * NI16; k++)
		if (s->c16v[k] >= NT * NI16 || seen[s->c16v[k]]++)
			dup++;
	CHECK(dup == 0 && s->chain16[0] == NT * NI16 && s->chain16[1] == 0xabcd,
	      "atom concurrency: CAS.b16 chain (%d repeated, final %u, neighbour 0x%x)", dup, s->chain16[0],
	      s->chain16[1]);
	/* the EXCH chain: the returned values and the final one are 0..N,
	 * each once */
	uint64_t *xs = malloc((N + 1) * sizeof *xs);
	memcpy(xs, s->xv, N * sizeof *xs);
	xs[N] = s->xtoken;
	qsort(xs, N + 1, sizeof *xs, cmp_u64);
	int bad = 0;
	for (uint32_t k = 0; k <= N; k++)
		bad += xs[k] != k;
	CHECK(bad == 0, "atom concurrency: EXCH chain: %d tokens lost or repeated", bad);
	/* SAFEADD: slot v handed out once per lap */
	uint32_t slots[QSIZE] = { 0 };
	bad = 0;
	for (uint32_t k = 0; k < N; k++)
		if (s->qv[k] < QSIZE)
			slots[s->qv[k]]++;
		else
			bad++;
	for (uint32_t v = 0; v < QSIZE; v++)
		bad += slots[v] != N / QSIZE + (v < N % QSIZE);
	CHECK(bad == 0 && s->queue == N % QSIZE, "atom concurrency: SAFEADD slots (%d wrong, final %llu)", bad,
	      (unsigned long long)s->queue);
	CHECK(s->wide[0] == NT * 500u && s->wide[1] == NT * 1000u, "atom concurrency: CAS.b128 counter %llu/%llu",
	      (unsigned long long)s->wide[0], (unsigned long long)s->wide[1]);
	free(seen);
	free(xs);
	free(s->casv);
	free(s->c16v);
	free(s->xv);
	free(s->qv);
	free(s);
}

/* ---- the private path ------------------------------------------------------- */
static void test_private(void)
{
	static const uint64_t vals[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x3c00, 0xbc00, 0x7c00,
					 0x7fffffff, 0x80000000u, 0xffffffffu, 0x3f800000, 0xbf800000, 0x00000001,
					 0x80000001u, 0x7f800000, 0x7fc00000, 0x3f80bf80, 0x7fffffffffffffffull,
					 0x8000000000000000ull, 0xffffffffffffffffull, 0x3ff0000000000000ull,
					 0x0000000000000001ull, 0x123456789abcdef0ull };
	unsigned nv = sizeof vals / sizeof *vals, cases = 0, bad = 0;
	for (int op = 0; op < AT__COUNT; op++)
		for (unsigned ty = 0; ty < TY__COUNT; ty++) {
			unsigned bytes = isa_type[ty].bytes;
			for (unsigned i = 0; i < nv; i++)
				for (unsigned j = 0; j < nv; j++)
					for (unsigned k = 0; k < 4; k++) {
						unsigned off = k & 1;
						bool global = k >> 1;   /* f32 add: subnormals flushed */
						_Alignas(16) uint8_t m1[32], m2[32];
						uint64_t init[2] = { vals[i], vals[(i + 3) % nv] };
						memset(m1, 0, sizeof m1);
						memcpy(m1 + off * (bytes > 1 ? bytes / 2 : 1), init, 16);
						memcpy(m2, m1, sizeof m1);
						size_t at = off * (bytes > 1 ? bytes / 2 : 1);
						AtomVal b = { vals[j], vals[(j + 5) % nv] }, c = { vals[(i + j) % nv], vals[i] };
						AtomVal o1 = { 0xdead, 0xbeef }, o2 = { 0xdead, 0xbeef };
						int r1 = atom_rmw(op, ty, m1 + at, b, c, global, &o1);
						int r2 = atom_rmw_private(op, ty, m2 + at, b, c, global, &o2);
						cases++;
						if (r1 != r2 || memcmp(m1, m2, sizeof m1) ||
						    (r1 == ATOM_OK && (o1.lo != o2.lo || o1.hi != o2.hi))) {
							if (!bad++)
								fail("atom private: op %d type %s old 0x%llx operand 0x%llx "
								     "offset %zu%s: %d vs %d", op, isa_type[ty].name,
								     (unsigned long long)vals[i], (unsigned long long)vals[j],
								     at, global ? " global" : "", r1, r2);
						}
					}
		}
	CHECK(!bad && cases > 100000, "atom private: %u of %u cases differ", bad, cases);
}

void test_atom(const char *root)
{
	(void)root;
	test_table();
	test_int_cells();
	test_vectors();
	test_ptx();
	test_lanes();
	test_private();
	test_concurrency();
}
