/* mma.h: the warp-level matrix product's fragments, as data.
 *
 * An mma instruction's modifiers decide its shape (M, N, K), the element
 * types of A, B, C and D, and so how many registers of which width each
 * operand's brace vector holds, and which matrix element each lane's
 * register holds (the PTX manual's fragment figures).  The checker counts
 * operands with mma_regs(); the executor places elements with mma_elem().
 */
#ifndef PTXVM_ISA_MMA_H
#define PTXVM_ISA_MMA_H

#include <stdbool.h>
#include <stdint.h>

/* Element types of the fragments. */
enum { MT_F16, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_E4M3, MT_E5M2, MT_S8, MT_U8, MT_S4, MT_U4, MT_B1, MT_S32 };
/* The operands. */
enum { MMA_D, MMA_A, MMA_B, MMA_C };

typedef struct MmaShape {
	uint16_t m, n, k;
	uint8_t type[4];        /* MT_* of D, A, B, C */
	uint8_t acol, brow;     /* m8n8k4 .f16: A column-major, B row-major */
	uint8_t satfinite;
	uint8_t bop;            /* .b1: 0 xor, 1 and */
	uint8_t wmma;           /* wmma's fragments (the layout ptxvm chooses) */
	uint8_t what;           /* wmma: WM_* */
	uint8_t rnd;            /* wmma .f64: 0 .rn, 1 .rz, 2 .rm, 3 .rp */
	uint8_t sp;             /* mma.sp: A holds the kept half of each row */
	uint8_t wg;             /* wgmma: one warp's part of the warpgroup's product */
} MmaShape;

/* What a wmma instruction does. */
enum { WM_LOAD_A, WM_LOAD_B, WM_LOAD_C, WM_STORE_D, WM_MMA };

/* Decodes a checked instruction's modifiers; false if they name no shape. */
bool mma_decode(const uint16_t *mods, unsigned nmods, MmaShape *s);
/* The same for wmma: shape, what, the types of the operands it names
 * (acol: a load or store's memory is column-major). */
bool wmma_decode(const uint16_t *mods, unsigned nmods, MmaShape *s);
/* The same for wgmma.mma_async: m = 64, its n and k (.sp: sp set, k the
 * dense K), the types (C = D).  Its fragments (mma_regs, mma_elem with wg set) are one warp's: rows
 * 0..15 of its 16 (warp w of the warpgroup holds rows 16w..16w+15). */
bool wgmma_decode(const uint16_t *mods, unsigned nmods, MmaShape *s);
/* The operand (MMA_A ...) a wmma load or store moves. */
int wmma_operand(const MmaShape *s);
/* Registers in operand op's vector, each of *bits bits (32 or 64). */
unsigned mma_regs(const MmaShape *s, int op, unsigned *bits);
/* Elements each lane holds of operand op (packed several to a register
 * for types narrower than the register). */
unsigned mma_elems(const MmaShape *s, int op);
/* Where element i of lane l's fragment of operand op (A, B or C/D) sits:
 * *row and *col in the matrix, *grp the product it belongs to (m8n8k4
 * .f16 computes four, one per quad pair; else 0). */
void mma_elem(const MmaShape *s, int op, unsigned l, unsigned i, unsigned *row, unsigned *col, unsigned *grp);
/* Independent products the instruction computes: 4 for m8n8k4 .f16 (one
 * per quad pair), else 1. */
unsigned mma_groups(const MmaShape *s);
/* mma.sp: the largest sparsity selector ptxas takes for the shape. */
unsigned mma_sp_selmax(const MmaShape *s);
/* mma.sp: where the 2-bit index of element kc of row `row` of the kept
 * (compressed) A lies: in metadata register e of lane *lane, bits *bit and
 * *bit+1, when the selector is sel. */
void mma_sp_index(const MmaShape *s, unsigned row, unsigned kc, unsigned sel, unsigned *lane, unsigned *bit);
/* mma.sp: the column of A that kept element kc stands for, given its index. */
unsigned mma_sp_col(const MmaShape *s, unsigned kc, unsigned idx);
/* wgmma's matrix descriptor (64 bits): start address, leading and stride
 * byte offsets (each 14 bits of the byte value >> 4), base offset (bits
 * 49-51), swizzling (bits 62-63: 0 none, 1 128-byte, 2 64-byte, 3 32-byte). */
#define WG_DESC_BASE_OFFSET(d) ((unsigned)((d) >> 49 & 7))
/* The shared-memory byte address of element (mn, k) of an operand of
 * `bits`-bit elements read through descriptor d, K-major (the K elements
 * of a row contiguous) or, with trans, MN-major; *shift is the element's
 * first bit in that byte (.b1). */
uint64_t wgmma_desc_addr(uint64_t d, bool trans, unsigned bits, unsigned mn, unsigned k, unsigned *shift);
/* Bits of one element of type t. */
unsigned mma_bits(int t);

#endif
