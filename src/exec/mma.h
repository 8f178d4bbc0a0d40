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

/* wgmma.mma_async for one warp of the warpgroup, rows 16*rank.. of the
 * 64: D (its mma_regs registers) = A*B + D, or A*B without scale_d.  A
 * comes from registers (A, its four) or, when A is NULL, from shared
 * memory through adesc; B through bdesc; scale_a/b are 1 or -1, trans_a/b
 * read a descriptor's matrix MN-major; .sp: A holds the kept half of each
 * row, E and sel say which columns (as mma.sp).  smem(ctx, addr, n) returns the n
 * bytes of shared memory at addr, or NULL when they are not there (the
 * warp has faulted: wgmma_run returns WG_FAULT). */
typedef const uint8_t *(*WgSmem)(void *ctx, uint64_t addr, unsigned n);
typedef struct WgmmaOp {
	const MmaShape *s;
	unsigned rank;
	uint64_t *const *D;
	const uint64_t *const *A;
	uint64_t adesc, bdesc;
	bool scale_d, trans_a, trans_b;
	int scale_a, scale_b;
	const uint64_t *E;      /* .sp: the metadata register (32 lanes), and */
	unsigned sel;           /* the sparsity selector */
	WgSmem smem;
	void *ctx;
} WgmmaOp;
enum { WG_OK, WG_FAULT, WG_NOMEM };    /* WG_FAULT: smem has reported it */
int wgmma_run(const WgmmaOp *op);

#endif
