/* heap.h: the device heap that kernels' malloc and free draw on.
 *
 * One heap per device, a single global allocation of the size that
 * PTXVM_LIMIT_MALLOC_HEAP_SIZE (cudaLimitMallocHeapSize) gives when the
 * first kernel that can call malloc or free is launched.  Its bytes are
 * ordinary device memory: an access past a block stays inside the heap
 * as on the hardware, one past the heap's end falls in the gap after
 * every allocation and faults.  The allocator's bookkeeping lives on the
 * host, out of the guest's reach, so a kernel that overruns a block cannot
 * corrupt it.
 *
 * Blocks are 16-byte aligned (CUDA's guarantee for malloc) or more
 * (__nv_aligned_device_malloc); first fit from a roving position (next
 * fit), so that many threads allocating in turn cost O(1) each; freeing
 * merges a block with its free neighbours.  One lock serialises the
 * workers of every launch on the device.
 */
#ifndef PTXVM_HEAP_H
#define PTXVM_HEAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_ALIGN 16u
#define HEAP_DEFAULT_BYTES (8u << 20)    /* CUDA's default cudaLimitMallocHeapSize */

typedef struct HeapBlock {
	uint64_t off, size;     /* bytes from the heap's base */
	bool used;
} HeapBlock;

typedef struct Heap {
	pthread_mutex_t lock;
	uint64_t base, size;    /* the device allocation; size 0: every malloc fails */
	HeapBlock *b;           /* sorted by off, covering [0, size) */
	size_t n, cap;
	size_t rover;           /* where the next search starts */
	uint64_t used;          /* bytes in used blocks */
} Heap;

/* false when out of host memory. */
bool heap_init(Heap *h, uint64_t base, uint64_t size);
void heap_fini(Heap *h);
/* The device address of a new block of at least bytes (align a power of
 * two), or 0 when bytes is 0 or nothing fits: malloc's NULL. */
uint64_t heap_alloc(Heap *h, uint64_t bytes, uint64_t align);
/* Results of heap_free. */
enum { HEAP_OK, HEAP_NOT_BLOCK, HEAP_FREED };
/* Frees the block that starts at addr: HEAP_NOT_BLOCK if no block starts
 * there (an address malloc did not return), HEAP_FREED if it is free
 * already (a double free).  Freeing 0 does nothing. */
int heap_free(Heap *h, uint64_t addr);

#endif
