/* atom.c: the atomic unit (atom.h).
 *
 * Integer add, and, or, xor and exchange map to the host's atomic
 * instructions; everything else (min, max, inc, dec, safeadd, floating
 * point, 16-bit and packed halves) is a compare-and-swap loop on the
 * containing word around atom_combine, so no update is ever lost.  128-bit
 * operations take one of a set of striped locks, as x86-64 without
 * cmpxchg16b has no other way.
 */
#include "atom.h"
#include "../isa/isa.h"
#include "../exec/fp.h"

#include <pthread.h>
#include <string.h>

const char *atom_error(int err)
{
	switch (err) {
	case ATOM_EBADOP: return "the atomic unit has no such operation for this type";
	case ATOM_EALIGN: return "misaligned atomic address";
	}
	return "atomic operation failed";
}

/* ---- the SASS table (seed 001) -------------------------------------------- */
const AtomSassSize atom_sass_size[AS__COUNT] = {
	[AS_U32] = { "U32", TY_u32, 0, 4 },
	[AS_S32] = { "S32", TY_s32, 0, 4 },
	[AS_U64] = { "U64", TY_u64, 0, 8 },
	[AS_S64] = { "S64", TY_s64, 0, 8 },
	[AS_F32_FTZ_RN] = { "F32.FTZ.RN", TY_f32, ATF_FTZ, 4 },
	[AS_F16X2_RN] = { "F16x2.RN", TY_f16x2, 0, 4 },
	[AS_F16X2_FTZ_RN] = { "F16x2.FTZ.RN", TY_f16x2, ATF_FTZ, 4 },
	[AS_F64_RN] = { "F64.RN", TY_f64, 0, 8 },
	[AS_U128] = { "U128", TY_b128, 0, 16 },
};

#define Z(s) (1u << AS_##s)
#define INTS (Z(U32) | Z(S32) | Z(U64))
const AtomSassOp atom_sass_op[AT__COUNT] = {
	[AT_ADD] = { "ADD", INTS | Z(F32_FTZ_RN) | Z(F16X2_RN) | Z(F16X2_FTZ_RN) | Z(F64_RN), 0 },
	[AT_MIN] = { "MIN", INTS | Z(S64) | Z(F16X2_RN) | Z(F16X2_FTZ_RN), Z(U64) | Z(S64) },
	[AT_MAX] = { "MAX", INTS | Z(S64) | Z(F16X2_RN) | Z(F16X2_FTZ_RN), Z(U64) | Z(S64) },
	[AT_INC] = { "INC", Z(U32), 0 },
	[AT_DEC] = { "DEC", Z(U32), 0 },
	[AT_AND] = { "AND", INTS, Z(U64) },
	[AT_OR] = { "OR", INTS, Z(U64) },
	[AT_XOR] = { "XOR", INTS, Z(U64) },
	[AT_EXCH] = { "EXCH", INTS, 0 },
	[AT_CAS] = { "CAS", INTS, 0 },
	[AT_SAFEADD] = { "SAFEADD", Z(U64), Z(U64) },
};
#undef INTS
#undef Z

/* ---- the operations -------------------------------------------------------- */
static uint32_t f32_add_rn(uint32_t x, uint32_t y, bool ftz)
{
	if (ftz)
		x = f32_ftz(x), y = f32_ftz(y);
	float fx, fy;
	memcpy(&fx, &x, 4);
	memcpy(&fy, &y, 4);
	float r = fx + fy;      /* the host FPU rounds to nearest even */
	uint32_t v;
	memcpy(&v, &r, 4);
	if ((v & 0x7fffffffu) > 0x7f800000u)
		v = FP_F32_CNAN;
	return ftz ? f32_ftz(v) : v;
}

/* f64 add: a NaN operand, else a NaN in memory, is stored as it is (not
 * quieted, unlike add.f64's); inf - inf is FP_F64_DNAN (an H200's, see
 * docs/ATOM.md). */
static uint64_t f64_add_rn(uint64_t m, uint64_t b)
{
	const uint64_t inf = 0x7ff0000000000000ull, mag = ~(1ull << 63);
	if ((b & mag) > inf)
		return b;
	if ((m & mag) > inf)
		return m;
	double x, y;
	memcpy(&x, &m, 8);
	memcpy(&y, &b, 8);
	double r = x + y;
	uint64_t v;
	memcpy(&v, &r, 8);
	return (v & mag) > inf ? FP_F64_DNAN : v;
}

/* One f16 or bf16 half. */
static uint16_t op_half(int op, bool bf, bool ftz, uint16_t m, uint16_t b)
{
	if (ftz) {
		m = bf ? bf16_ftz(m) : f16_ftz(m);
		b = bf ? bf16_ftz(b) : f16_ftz(b);
	}
	uint16_t r;
	switch (op) {
	case AT_ADD: r = bf ? bf16_add(m, b, FP_RN) : f16_add(m, b, FP_RN); break;
	case AT_MIN: r = bf ? bf16_min(m, b, false) : f16_min(m, b, false); break;
	case AT_MAX: r = bf ? bf16_max(m, b, false) : f16_max(m, b, false); break;
	default: r = b; break;
	}
	if (ftz)
		r = bf ? bf16_ftz(r) : f16_ftz(r);
	return r;
}

static uint64_t safeadd(uint64_t m, uint64_t b)
{
	uint64_t n = (uint32_t)b, s = b >> 32;
	if (s == 0)
		s = 1ull << 32;
	return (m % s + n) % s;
}

uint64_t atom_combine(int op, unsigned ty, unsigned flags, uint64_t m, uint64_t b, uint64_t c)
{
	bool ftz = flags & ATF_FTZ;
	unsigned bytes = isa_type[ty].bytes;
	if (op == AT_CAS)
		return m == b ? c : m;
	if (op == AT_EXCH)
		return b;
	switch (ty) {
	case TY_f32:
		return f32_add_rn((uint32_t)m, (uint32_t)b, ftz);
	case TY_f64:
		return f64_add_rn(m, b);
	case TY_f16: case TY_bf16:
		return op_half(op, ty == TY_bf16, ftz, (uint16_t)m, (uint16_t)b);
	case TY_f16x2: case TY_bf16x2: {
		bool bf = ty == TY_bf16x2;
		uint16_t lo = op_half(op, bf, ftz, (uint16_t)m, (uint16_t)b);
		uint16_t hi = op_half(op, bf, ftz, (uint16_t)(m >> 16), (uint16_t)(b >> 16));
		return (uint32_t)hi << 16 | lo;
	}
	}
	/* integers: m and b hold the value zero-extended to 64 bits */
	uint64_t mask = bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
	int64_t sm = (int64_t)m, sb = (int64_t)b;
	if (isa_type[ty].kind == TK_S && bytes == 4)
		sm = (int32_t)m, sb = (int32_t)b;
	bool sgn = isa_type[ty].kind == TK_S;
	uint64_t v;
	switch (op) {
	case AT_ADD: v = m + b; break;
	case AT_MIN: v = sgn ? (sm < sb ? m : b) : (m < b ? m : b); break;
	case AT_MAX: v = sgn ? (sm > sb ? m : b) : (m > b ? m : b); break;
	case AT_INC: v = m >= b ? 0 : m + 1; break;
	case AT_DEC: v = (m == 0 || m > b) ? b : m - 1; break;
	case AT_AND: v = m & b; break;
	case AT_OR: v = m | b; break;
	case AT_XOR: v = m ^ b; break;
	case AT_SAFEADD: v = safeadd(m, b); break;
	default: v = b; break;
	}
	return v & mask;
}

bool atom_has(int op, unsigned ty)
{
	if (op < 0 || op >= AT__COUNT)
		return false;
	switch (ty) {
	case TY_b32: case TY_u32: case TY_s32: case TY_b64: case TY_u64: case TY_s64:
		if ((op == AT_INC || op == AT_DEC) && ty != TY_u32)
			return false;
		if (op == AT_SAFEADD && ty != TY_u64)
			return false;
		return true;
	case TY_f32: return op == AT_ADD || op == AT_EXCH;
	case TY_f64: return op == AT_ADD;
	case TY_f16x2: case TY_bf16x2: return op == AT_ADD || op == AT_MIN || op == AT_MAX;
	case TY_f16: case TY_bf16: return op == AT_ADD || op == AT_MIN || op == AT_MAX;
	case TY_b16: case TY_u16: case TY_s16: return op == AT_CAS || op == AT_EXCH;
	case TY_b128: return op == AT_CAS || op == AT_EXCH;
	}
	return false;
}

static pthread_mutex_t stripes[64] = {
#define S4 PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER
	S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4
#undef S4
};

int atom_apply(int op, unsigned ty, unsigned flags, void *p, AtomVal b, AtomVal c, AtomVal *old)
{
	if (ty >= TY__COUNT || !atom_has(op, ty))
		return ATOM_EBADOP;
	unsigned bytes = isa_type[ty].bytes;
	if ((uintptr_t)p & (bytes - 1))
		return ATOM_EALIGN;
	old->hi = 0;
	bool intty = isa_type[ty].kind != TK_F;
	switch (bytes) {
	case 2: {
		uint16_t *q = p, m = __atomic_load_n(q, __ATOMIC_RELAXED), v;
		do
			v = (uint16_t)atom_combine(op, ty, flags, m, (uint16_t)b.lo, (uint16_t)c.lo);
		while (!__atomic_compare_exchange_n(q, &m, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		old->lo = m;
		return ATOM_OK;
	}
	case 4: {
		uint32_t *q = p;
		if (intty) {
			switch (op) {
			case AT_ADD: old->lo = __atomic_fetch_add(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_AND: old->lo = __atomic_fetch_and(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_OR: old->lo = __atomic_fetch_or(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_XOR: old->lo = __atomic_fetch_xor(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_EXCH: old->lo = __atomic_exchange_n(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			}
		}
		uint32_t m = __atomic_load_n(q, __ATOMIC_RELAXED), v;
		do
			v = (uint32_t)atom_combine(op, ty, flags, m, (uint32_t)b.lo, (uint32_t)c.lo);
		while (!__atomic_compare_exchange_n(q, &m, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		old->lo = m;
		return ATOM_OK;
	}
	case 8: {
		uint64_t *q = p;
		if (intty) {
			switch (op) {
			case AT_ADD: old->lo = __atomic_fetch_add(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_AND: old->lo = __atomic_fetch_and(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_OR: old->lo = __atomic_fetch_or(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_XOR: old->lo = __atomic_fetch_xor(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_EXCH: old->lo = __atomic_exchange_n(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			}
		}
		uint64_t m = __atomic_load_n(q, __ATOMIC_RELAXED), v;
		do
			v = atom_combine(op, ty, flags, m, b.lo, c.lo);
		while (!__atomic_compare_exchange_n(q, &m, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		old->lo = m;
		return ATOM_OK;
	}
	case 16: {
		pthread_mutex_t *lk = &stripes[((uintptr_t)p >> 4) & 63];
		pthread_mutex_lock(lk);
		uint64_t m[2];
		memcpy(m, p, 16);
		old->lo = m[0];
		old->hi = m[1];
		if (op == AT_EXCH || (m[0] == b.lo && m[1] == b.hi)) {
			uint64_t v[2] = { op == AT_EXCH ? b.lo : c.lo, op == AT_EXCH ? b.hi : c.hi };
			memcpy(p, v, 16);
		}
		pthread_mutex_unlock(lk);
		return ATOM_OK;
	}
	}
	return ATOM_EBADOP;
}

void atom_load128(const void *p, uint64_t v[2])
{
	pthread_mutex_t *lk = &stripes[((uintptr_t)p >> 4) & 63];
	pthread_mutex_lock(lk);
	memcpy(v, p, 16);
	pthread_mutex_unlock(lk);
}

void atom_store128(void *p, const uint64_t v[2])
{
	pthread_mutex_t *lk = &stripes[((uintptr_t)p >> 4) & 63];
	pthread_mutex_lock(lk);
	memcpy(p, v, 16);
	pthread_mutex_unlock(lk);
}

int atom_rmw(int op, unsigned ty, void *p, AtomVal b, AtomVal c, bool global, AtomVal *old)
{
	if (op == AT_SAFEADD)   /* PTX has no such operation */
		return ATOM_EBADOP;
	return atom_apply(op, ty, global && ty == TY_f32 ? ATF_FTZ : 0, p, b, c, old);
}

int atom_rmw_private(int op, unsigned ty, void *p, AtomVal b, AtomVal c, bool global, AtomVal *old)
{
	unsigned fl = global && ty == TY_f32 ? ATF_FTZ : 0;
	if (op == AT_SAFEADD || ty >= TY__COUNT || !atom_has(op, ty))
		return ATOM_EBADOP;
	unsigned bytes = isa_type[ty].bytes;
	if ((uintptr_t)p & (bytes - 1))
		return ATOM_EALIGN;
	old->hi = 0;
	switch (bytes) {
	case 2: {
		uint16_t m;
		memcpy(&m, p, 2);
		uint16_t v = (uint16_t)atom_combine(op, ty, fl, m, (uint16_t)b.lo, (uint16_t)c.lo);
		memcpy(p, &v, 2);
		old->lo = m;
		return ATOM_OK;
	}
	case 4: {
		uint32_t m;
		memcpy(&m, p, 4);
		uint32_t v = (uint32_t)atom_combine(op, ty, fl, m, (uint32_t)b.lo, (uint32_t)c.lo);
		memcpy(p, &v, 4);
		old->lo = m;
		return ATOM_OK;
	}
	case 8: {
		uint64_t m;
		memcpy(&m, p, 8);
		uint64_t v = atom_combine(op, ty, fl, m, b.lo, c.lo);
		memcpy(p, &v, 8);
		old->lo = m;
		return ATOM_OK;
	}
	}
	return atom_rmw(op, ty, p, b, c, global, old);   /* 128 bits: the unit's own way */
}

/* The lanes of act, in lane order; the full warp's as a counted loop (a
 * third fewer instructions a lane than finding each lane's bit). */
#define EACH(act, ...) do { \
	if ((act) == 0xffffffffu) { \
		for (unsigned l = 0; l < 32; l++) { __VA_ARGS__; } \
	} else { \
		for (uint32_t _m = (act); _m; _m &= _m - 1) { \
			unsigned l = (unsigned)__builtin_ctz(_m); \
			__VA_ARGS__; \
		} \
	} \
} while (0)

/* One operation for every lane, on T, with an atomic builtin (FN) or a
 * plain read and write (EXPR of m and v). */
#define LANE_OPS(T, FN, EXPR) do { \
	if (priv) \
		EACH(act, { \
			T *q = (T *)(uintptr_t)(a[l] + delta), m = *q, v = (T)b[l]; \
			*q = (T)(EXPR); \
			old[l] = m; \
		}); \
	else \
		EACH(act, old[l] = FN((T *)(uintptr_t)(a[l] + delta), (T)b[l], __ATOMIC_SEQ_CST)); \
} while (0)

#define LANE_WIDTHS(FN, EXPR) do { \
	if (bytes == 4) \
		LANE_OPS(uint32_t, FN, EXPR); \
	else \
		LANE_OPS(uint64_t, FN, EXPR); \
} while (0)

bool atom_rmw_lanes(int op, unsigned ty, bool priv, uint32_t act, const uint64_t *a, uintptr_t delta,
		    const uint64_t *b, uint64_t *old)
{
	if (ty >= TY__COUNT || isa_type[ty].kind == TK_F || !atom_has(op, ty))
		return false;
	unsigned bytes = isa_type[ty].bytes;
	if (bytes != 4 && bytes != 8)
		return false;
	uint64_t sink[32];      /* the old values, where the caller takes none */
	if (!old)
		old = sink;
	switch (op) {
	case AT_ADD: LANE_WIDTHS(__atomic_fetch_add, m + v); return true;
	case AT_AND: LANE_WIDTHS(__atomic_fetch_and, m & v); return true;
	case AT_OR: LANE_WIDTHS(__atomic_fetch_or, m | v); return true;
	case AT_XOR: LANE_WIDTHS(__atomic_fetch_xor, m ^ v); return true;
	case AT_EXCH: LANE_WIDTHS(__atomic_exchange_n, v); return true;
	}
	return false;
}
