/* tmap.h: tensor maps, the 128-byte objects that describe a tensor in
 * global memory to cp.async.bulk.tensor (CUDA's CUtensorMap).
 *
 * The 128 bytes are ptxvm's own encoding (docs/TENSOR.md has the layout):
 * tmap_encode_* check the arguments as CUDA's cuTensorMapEncodeTiled and
 * cuTensorMapEncodeIm2col do and write the bytes; tmap_decode reads them
 * back and checks every field again, since a guest can hand any 128 bytes
 * to the instruction.  A map says where the tensor is (a device address);
 * it never gives access to anything: the executor translates every address
 * it computes from a map like any other guest address.
 */
#ifndef PTXVM_TMAP_H
#define PTXVM_TMAP_H

#include <stdbool.h>
#include <stdint.h>

#define TMAP_BYTES 128
#define TMAP_MAX_RANK 5

/* CUtensorMapDataType values (the packed 16U4/16U6 types, 13-15, are
 * compute capability 10 features: refused). */
enum { TMAP_U8, TMAP_U16, TMAP_U32, TMAP_S32, TMAP_U64, TMAP_S64, TMAP_F16, TMAP_F32, TMAP_F64,
       TMAP_BF16, TMAP_F32_FTZ, TMAP_TF32, TMAP_TF32_FTZ, TMAP__TYPES };
enum { TMAP_TILE = 1, TMAP_IM2COL = 2 };

/* A decoded map.  Dimension 0 is the innermost (contiguous) one. */
typedef struct TMap {
	uint8_t mode;                   /* TMAP_TILE or TMAP_IM2COL */
	uint8_t rank;                   /* 1..5 (im2col: 3..5) */
	uint8_t dtype;                  /* TMAP_* */
	uint8_t esize;                  /* bytes of an element */
	uint8_t interleave;             /* 0 none, 1 16B, 2 32B */
	uint8_t swizzle;                /* 0 none, 1 32B, 2 64B, 3 128B */
	uint8_t l2promo;                /* 0..3: no semantic effect */
	uint8_t oob_nan;                /* out-of-bound elements read as NaN (floats) */
	uint64_t addr;                  /* device address of element (0, ..., 0) */
	uint64_t dim[TMAP_MAX_RANK];    /* elements, 1..2^32 */
	uint64_t stride[TMAP_MAX_RANK]; /* bytes between neighbours; stride[0] = esize */
	uint32_t box[TMAP_MAX_RANK];    /* tile: boxDim, 1..256 */
	uint32_t estride[TMAP_MAX_RANK];/* traversal steps, 1..8 */
	int32_t lower[3], upper[3];     /* im2col: the pixel box corners, W H D */
	uint32_t channels, pixels;      /* im2col: channelsPerPixel, pixelsPerColumn */
} TMap;

/* Each returns NULL and writes out[128], or says which argument is wrong
 * (CUDA_ERROR_INVALID_VALUE, nothing written).  rank-1 strides in bytes. */
const char *tmap_encode_tiled(uint8_t out[TMAP_BYTES], unsigned dtype, unsigned rank, uint64_t addr,
			      const uint64_t *dim, const uint64_t *strides, const uint32_t *box,
			      const uint32_t *estrides, unsigned interleave, unsigned swizzle, unsigned l2promo,
			      unsigned oobfill);
const char *tmap_encode_im2col(uint8_t out[TMAP_BYTES], unsigned dtype, unsigned rank, uint64_t addr,
			       const uint64_t *dim, const uint64_t *strides, const int *lower, const int *upper,
			       unsigned channels, unsigned pixels, const uint32_t *estrides, unsigned interleave,
			       unsigned swizzle, unsigned l2promo, unsigned oobfill);
/* cuTensorMapReplaceAddress: a valid map gets a new (16-byte aligned) address. */
const char *tmap_replace_address(uint8_t map[TMAP_BYTES], uint64_t addr);

/* The fields tensormap.replace rewrites (PTX ISA 8.3, sm_90a). */
enum { TMAP_F_ADDRESS, TMAP_F_RANK, TMAP_F_BOX_DIM, TMAP_F_GLOBAL_DIM, TMAP_F_GLOBAL_STRIDE,
       TMAP_F_ELEMENT_STRIDE, TMAP_F_ELEMTYPE, TMAP_F_INTERLEAVE, TMAP_F_SWIZZLE, TMAP_F_FILL };
/* tensormap.replace.tile: field (of dimension ord, where it has one) :=
 * value, as the instruction's operand gives it (docs/TENSOR.md): NULL, or
 * why the value is not one the field can hold (nothing written).  The map
 * need not be valid yet (a kernel may build one from zeroed bytes, field
 * by field): the other fields are kept as they are, the check value is
 * recomputed, and the map is checked as a whole when a copy reads it. */
const char *tmap_replace(uint8_t map[TMAP_BYTES], unsigned field, unsigned ord, uint64_t value);

/* Reads and checks 128 bytes; NULL, or why they are not a map. */
const char *tmap_decode(const uint8_t in[TMAP_BYTES], TMap *m);

/* The number of elements a copy moves along dimension i of the box (tile
 * mode; im2col: rows are pixels, columns channels), and the box's bytes:
 * what a load's mbarrier counts, whatever lies out of bounds. */
uint32_t tmap_box_count(const TMap *m, unsigned i);
uint64_t tmap_box_bytes(const TMap *m);

/* The elements of a box in the order of shared memory (dimension 0, or
 * the channels of an im2col pixel, fastest): tmap_next gives whether the
 * next one lies in the tensor's bounds and, if so, its device address.
 * The element's place in shared memory is its index times esize, before
 * swizzling. */
typedef struct TMapIter {
	const TMap *m;
	uint64_t left;                  /* elements still to give */
	int64_t c[TMAP_MAX_RANK];       /* tile: the position; im2col: the pixel (w h d n), channel c[0] */
	int64_t start0;                 /* the first element's dimension-0 coordinate */
	uint32_t j0, n0;                /* place in the innermost run and its length */
	uint32_t j[TMAP_MAX_RANK];      /* tile: the box counters */
	int32_t off[3];                 /* im2col: the offsets W H D */
} TMapIter;
void tmap_iter(TMapIter *it, const TMap *m, const int32_t *coords, const uint16_t *off);
bool tmap_next(TMapIter *it, uint64_t *ga);

/* The swizzled shared-memory offset of byte offset a (a shared window
 * offset, whose bits 4-9 the pattern uses). */
uint64_t tmap_swizzle(const TMap *m, uint64_t a);

/* The element written for an out-of-bound position: zero, or the
 * type's NaN when the map asks for NaN fill (float types). */
uint64_t tmap_oob_value(const TMap *m);

#endif
