/* mma.h: the executor's warp-level matrix product (mma.c). */
#ifndef PTXVM_EXEC_MMA_H
#define PTXVM_EXEC_MMA_H

#include "../isa/mma.h"

/* D = A*B + C for a whole warp: each array lists an operand's registers
 * (mma_regs of them), each 32 lanes of 64-bit slots.  D may alias the
 * sources: every source is read before D is written.  For mma.sp, E is
 * the metadata register and sel the sparsity selector (else NULL, 0). */
void mma_run(const MmaShape *s, uint64_t *const *D, const uint64_t *const *A, const uint64_t *const *B,
	     const uint64_t *const *C, const uint64_t *E, unsigned sel);

#endif
