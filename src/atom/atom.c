/* atom.c: the atomic unit (atom.h).
 *
 * Integer add, and, or, xor and exchange map to the host's atomic
 * instructions; everything else (min, max, inc, dec, floating point,
 * 16-bit and packed halves) is a compare-and-swap loop on the containing
 * word, so no update is ever lost.  128-bit operations take one of a set
 * of striped locks, as x86-64 without cmpxchg16b has no other way.
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

static uint32_t f32_flush(uint32_t v) { return (v & 0x7f800000u) == 0 ? v & 0x80000000u : v; }

/* The new value of a 32-bit word for op. */
static uint32_t op32(int op, unsigned ty, uint32_t m, uint32_t b, bool global)
{
	switch (op) {
	case AT_ADD:
		if (ty == TY_f32) {
			uint32_t x = m, y = b;
			if (global)
				x = f32_flush(x), y = f32_flush(y);
			float fx, fy;
			memcpy(&fx, &x, 4);
			memcpy(&fy, &y, 4);
			float r = fx + fy;
			uint32_t v;
			memcpy(&v, &r, 4);
			if ((v & 0x7fffffffu) > 0x7f800000u)
				v = FP_F32_CNAN;
			return global ? f32_flush(v) : v;
		}
		if (ty == TY_f16x2 || ty == TY_bf16x2) {
			bool bf = ty == TY_bf16x2;
			uint16_t lo = bf ? bf16_add((uint16_t)m, (uint16_t)b, FP_RN) : f16_add((uint16_t)m, (uint16_t)b, FP_RN);
			uint16_t hi = bf ? bf16_add((uint16_t)(m >> 16), (uint16_t)(b >> 16), FP_RN)
					 : f16_add((uint16_t)(m >> 16), (uint16_t)(b >> 16), FP_RN);
			return (uint32_t)hi << 16 | lo;
		}
		return m + b;
	case AT_MIN:
		return ty == TY_s32 ? ((int32_t)m < (int32_t)b ? m : b) : (m < b ? m : b);
	case AT_MAX:
		return ty == TY_s32 ? ((int32_t)m > (int32_t)b ? m : b) : (m > b ? m : b);
	case AT_INC:
		return m >= b ? 0 : m + 1;
	case AT_DEC:
		return (m == 0 || m > b) ? b : m - 1;
	case AT_AND: return m & b;
	case AT_OR: return m | b;
	case AT_XOR: return m ^ b;
	default: return b;      /* EXCH */
	}
}

static uint64_t op64(int op, unsigned ty, uint64_t m, uint64_t b)
{
	switch (op) {
	case AT_ADD:
		if (ty == TY_f64) {
			double x, y;
			memcpy(&x, &m, 8);
			memcpy(&y, &b, 8);
			double r = x + y;
			uint64_t v;
			memcpy(&v, &r, 8);
			return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull ? FP_F64_CNAN : v;
		}
		return m + b;
	case AT_MIN:
		return ty == TY_s64 ? ((int64_t)m < (int64_t)b ? m : b) : (m < b ? m : b);
	case AT_MAX:
		return ty == TY_s64 ? ((int64_t)m > (int64_t)b ? m : b) : (m > b ? m : b);
	case AT_AND: return m & b;
	case AT_OR: return m | b;
	case AT_XOR: return m ^ b;
	default: return b;
	}
}

static uint16_t op16(int op, unsigned ty, uint16_t m, uint16_t b)
{
	bool bf = ty == TY_bf16;
	switch (op) {
	case AT_ADD: return bf ? bf16_add(m, b, FP_RN) : f16_add(m, b, FP_RN);
	case AT_MIN: return bf ? bf16_min(m, b, false) : f16_min(m, b, false);
	case AT_MAX: return bf ? bf16_max(m, b, false) : f16_max(m, b, false);
	default: return b;
	}
}

static pthread_mutex_t stripes[64] = {
#define S4 PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER
	S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4, S4
#undef S4
};

static bool op_allowed(int op, unsigned ty)
{
	switch (ty) {
	case TY_b32: case TY_u32: case TY_s32: case TY_b64: case TY_u64: case TY_s64:
		if ((op == AT_INC || op == AT_DEC) && ty != TY_u32)
			return false;
		return true;
	case TY_f32: return op == AT_ADD || op == AT_EXCH;
	case TY_f64: return op == AT_ADD;
	case TY_f16x2: case TY_bf16x2: return op == AT_ADD;
	case TY_f16: case TY_bf16: return op == AT_ADD || op == AT_MIN || op == AT_MAX;
	case TY_b16: case TY_u16: case TY_s16: return op == AT_CAS || op == AT_EXCH;
	case TY_b128: return op == AT_CAS || op == AT_EXCH;
	}
	return false;
}

int atom_rmw(int op, unsigned ty, void *p, AtomVal b, AtomVal c, bool global, AtomVal *old)
{
	if (!op_allowed(op, ty))
		return ATOM_EBADOP;
	unsigned bytes = isa_type[ty].bytes;
	if ((uintptr_t)p & (bytes - 1))
		return ATOM_EALIGN;
	old->hi = 0;
	switch (bytes) {
	case 2: {
		uint16_t *q = p, m = __atomic_load_n(q, __ATOMIC_RELAXED), v;
		do {
			if (op == AT_CAS)
				v = m == (uint16_t)b.lo ? (uint16_t)c.lo : m;
			else
				v = op16(op, ty, m, (uint16_t)b.lo);
		} while (!__atomic_compare_exchange_n(q, &m, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		old->lo = m;
		return ATOM_OK;
	}
	case 4: {
		uint32_t *q = p;
		if (ty != TY_f32 && ty != TY_f16x2 && ty != TY_bf16x2) {
			switch (op) {
			case AT_ADD: old->lo = __atomic_fetch_add(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_AND: old->lo = __atomic_fetch_and(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_OR: old->lo = __atomic_fetch_or(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_XOR: old->lo = __atomic_fetch_xor(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_EXCH: old->lo = __atomic_exchange_n(q, (uint32_t)b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			}
		}
		uint32_t m = __atomic_load_n(q, __ATOMIC_RELAXED), v;
		do {
			if (op == AT_CAS)
				v = m == (uint32_t)b.lo ? (uint32_t)c.lo : m;
			else
				v = op32(op, ty, m, (uint32_t)b.lo, global);
		} while (!__atomic_compare_exchange_n(q, &m, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
		old->lo = m;
		return ATOM_OK;
	}
	case 8: {
		uint64_t *q = p;
		if (ty != TY_f64) {
			switch (op) {
			case AT_ADD: old->lo = __atomic_fetch_add(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_AND: old->lo = __atomic_fetch_and(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_OR: old->lo = __atomic_fetch_or(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_XOR: old->lo = __atomic_fetch_xor(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			case AT_EXCH: old->lo = __atomic_exchange_n(q, b.lo, __ATOMIC_SEQ_CST); return ATOM_OK;
			}
		}
		uint64_t m = __atomic_load_n(q, __ATOMIC_RELAXED), v;
		do {
			if (op == AT_CAS)
				v = m == b.lo ? c.lo : m;
			else
				v = op64(op, ty, m, b.lo);
		} while (!__atomic_compare_exchange_n(q, &m, v, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
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
