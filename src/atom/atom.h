/* atom.h: the atomic unit, the one place where ptxvm performs atomic
 * read-modify-write operations on guest memory (atom, red, and later sured
 * and the SASS ATOM front end all come here).
 *
 * Every operation is atomic with respect to every other operation of the
 * unit on the same address, across worker threads, and returns the value
 * memory held before it.
 *
 * The ways in, one implementation (atom.c):
 *   atom_rmw    PTX atom/red: a TY_* type and "is this global memory"
 *   atom_rmw_private  the same on memory no other thread can reach
 *   atom_rmw_lanes    either, for a warp's lanes at once (integer add, and,
 *               or, xor, exch: the loop chosen once, not per lane)
 *   atom_apply  an operation with explicit flags (ATF_*), used by atom_rmw
 *               and by the SASS ATOM front end through the table below
 * docs/ATOM.md lists the operations, the table and the choices made.
 */
#ifndef PTXVM_ATOM_H
#define PTXVM_ATOM_H

#include <stdbool.h>
#include <stdint.h>

enum { AT_ADD, AT_MIN, AT_MAX, AT_INC, AT_DEC, AT_AND, AT_OR, AT_XOR, AT_EXCH, AT_CAS,
       AT_SAFEADD, AT__COUNT };

/* A value of up to 128 bits (lo holds values up to 64 bits). */
typedef struct AtomVal {
	uint64_t lo, hi;
} AtomVal;

enum { ATOM_OK, ATOM_EBADOP, ATOM_EALIGN };

/* Applies op of type ty (TY_* of isa.h) at host address p, already
 * bounds-checked and aligned to the type by the caller.  b is the operand,
 * c the swap value of CAS.  global: the address is in global memory
 * (atom.add.f32 flushes subnormals there, not in shared memory).  Returns
 * ATOM_OK and the prior value in *old, or an error for a combination the
 * unit does not have. */
int atom_rmw(int op, unsigned ty, void *p, AtomVal b, AtomVal c, bool global, AtomVal *old);
/* atom_rmw for memory only the calling thread reaches while the operation
 * runs: a CTA's shared memory, which the one worker running the CTA owns,
 * or global memory while a launch runs alone (exec/solo.h).  The same
 * operations through atom_combine, as a plain read and write, without a
 * locked instruction; results are those of atom_rmw.  (A CTA whose shared
 * memory other workers could reach, as distributed shared memory of a
 * cluster would, must use atom_rmw.) */
int atom_rmw_private(int op, unsigned ty, void *p, AtomVal b, AtomVal c, bool global, AtomVal *old);
const char *atom_error(int err);
/* A single-copy atomic 16-byte load and store (the memory-model qualifiers'
 * ld/st.v2.b64, .v4.b32), under the lock the unit's 128-bit operations take,
 * so that they are atomic with respect to each other and to those. */
void atom_load128(const void *p, uint64_t v[2]);
void atom_store128(void *p, const uint64_t v[2]);
/* atom_rmw (or, priv, atom_rmw_private) of one integer op for the lanes of
 * a warp, in lane order: lane l of act at host address a[l] + delta (each
 * aligned, in global memory unless priv: as atom_rmw_private) with operand
 * b[l]; its prior value (zero-extended) to old[l] unless old is NULL.  The
 * loop chosen once for the warp: add, and, or, xor and exch of 32- and
 * 64-bit integer types.
 * false (nothing done) for any other op or type. */
bool atom_rmw_lanes(int op, unsigned ty, bool priv, uint32_t act, const uint64_t *a, uintptr_t delta,
		    const uint64_t *b, uint64_t *old);

/* Flags of atom_apply. */
enum {
	ATF_FTZ = 1,    /* f32, f16x2, bf16x2: subnormal inputs and results
			   are flushed to a zero of the same sign */
};

/* atom_rmw with the flags explicit: atom_rmw(op, ty, p, b, c, global, old)
 * is atom_apply(op, ty, global && ty == TY_f32 ? ATF_FTZ : 0, ...).
 * AT_SAFEADD (u64 only): b.lo holds the count n in bits 0-31 and the queue
 * size S in bits 32-63; M = (M mod S + n) mod S, S = 0 meaning 2^32. */
int atom_apply(int op, unsigned ty, unsigned flags, void *p, AtomVal b, AtomVal c,
	       AtomVal *old);

/* The new value memory gets for op on old value m (not atomic: the
 * function the unit applies inside its loops).  Types up to 64 bits. */
uint64_t atom_combine(int op, unsigned ty, unsigned flags, uint64_t m, uint64_t b, uint64_t c);

/* Whether the unit has op for ty (any flags). */
bool atom_has(int op, unsigned ty);

/* ---- the SASS ATOM operation x size table (seed 001, SPA 5.0) -------------
 * .sz of ATOM as data: its spelling, the TY_* and flags it maps to. */
enum { AS_U32, AS_S32, AS_U64, AS_S64, AS_F32_FTZ_RN, AS_F16X2_RN, AS_F16X2_FTZ_RN,
       AS_F64_RN, AS_U128, AS__COUNT };

typedef struct AtomSassSize {
	const char *name;       /* "U32", "F32.FTZ.RN" */
	uint8_t ty;             /* TY_* */
	uint8_t flags;          /* ATF_* */
	uint8_t bytes;          /* memory access size */
} AtomSassSize;
extern const AtomSassSize atom_sass_size[AS__COUNT];

typedef struct AtomSassOp {
	const char *name;       /* "ADD" */
	uint16_t sizes;         /* 1 << AS_* for each size the table allows */
	uint16_t spa35;         /* sizes marked "SPA 3.5 (and higher)" */
} AtomSassOp;
extern const AtomSassOp atom_sass_op[AT__COUNT];   /* indexed by AT_* */

static inline bool atom_sass_allowed(int op, int size)
{
	return op >= 0 && op < AT__COUNT && size >= 0 && size < AS__COUNT &&
	       ((atom_sass_op[op].sizes >> size) & 1);
}

#endif
