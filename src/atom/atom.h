/* atom.h: the atomic unit, the one place where ptxvm performs atomic
 * read-modify-write operations on guest memory (atom, red, and later sured
 * and the SASS ATOM front end all come here).
 *
 * Every operation is atomic with respect to every other operation of the
 * unit on the same address, across worker threads, and returns the value
 * memory held before it.
 */
#ifndef PTXVM_ATOM_H
#define PTXVM_ATOM_H

#include <stdbool.h>
#include <stdint.h>

enum { AT_ADD, AT_MIN, AT_MAX, AT_INC, AT_DEC, AT_AND, AT_OR, AT_XOR, AT_EXCH, AT_CAS };

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
const char *atom_error(int err);

#endif
