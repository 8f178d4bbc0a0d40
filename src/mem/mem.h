/* mem.h: the device address space.
 *
 * Guest addresses are never host pointers.  Global memory is a table of
 * allocations, each a host block at a device address of its own, with a
 * gap after it so that an overrun falls outside every allocation.  The
 * other state spaces are windows of the generic address space, resolved
 * against the running CTA and thread by the executor:
 *
 *   [MEM_SHARED_BASE, +4 GiB)   the CTA's shared memory
 *   [MEM_LOCAL_BASE,  +4 GiB)   the thread's local memory
 *   [MEM_PARAM_BASE,  +4 GiB)   the kernel's parameter buffer
 *   [MEM_FUNC_BASE,   +4 GiB)   function addresses (for indirect calls)
 *   [MEM_GLOBAL_BASE, ...)      allocations (global, and the .const banks)
 *
 * The windows are ptxvm's choice: programs only see them through cvta,
 * isspacep and generic loads, whose results are consistent with them.
 */
#ifndef PTXVM_MEM_H
#define PTXVM_MEM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEM_SHARED_BASE 0x0000100000000000ull
#define MEM_LOCAL_BASE  0x0000200000000000ull
#define MEM_PARAM_BASE  0x0000300000000000ull
#define MEM_FUNC_BASE   0x0000400000000000ull
#define MEM_WINDOW      0x0000000100000000ull
#define MEM_GLOBAL_BASE 0x0000700000000000ull
#define MEM_GAP         4096u           /* unmapped bytes after each allocation */

static inline bool mem_in_window(uint64_t a, uint64_t base) { return a - base < MEM_WINDOW; }

enum { ALLOC_GLOBAL, ALLOC_CONST };

typedef struct Alloc {
	uint64_t base, size;
	uint8_t *host;
	uint8_t kind;           /* ALLOC_* */
} Alloc;

typedef struct DevMem {
	pthread_mutex_t lock;   /* allocation and free; a launch excludes both */
	Alloc *v;               /* sorted by base */
	size_t n, cap;
	uint64_t next;          /* device address of the next allocation */
	size_t bytes;           /* live bytes */
} DevMem;

void mem_init(DevMem *m);
void mem_fini(DevMem *m);
/* Zero-filled; returns false when out of memory or bytes is absurd. */
bool mem_alloc(DevMem *m, size_t bytes, uint8_t kind, uint64_t *dptr);
/* Only the base of a live allocation can be freed. */
bool mem_free(DevMem *m, uint64_t dptr);
/* The allocation holding [addr, addr+len), or NULL. */
const Alloc *mem_find(const DevMem *m, uint64_t addr, uint64_t len);
/* Host pointer to [addr, addr+len) inside one allocation, or NULL. */
static inline uint8_t *mem_host(const DevMem *m, uint64_t addr, uint64_t len)
{
	const Alloc *a = mem_find(m, addr, len);
	return a ? a->host + (addr - a->base) : NULL;
}

#endif
