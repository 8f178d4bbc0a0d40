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
 *
 * Concurrency: the table is copy-on-write (util/cow.h).  Allocation and
 * free edit it under the lock; a launch or a host copy pins a version
 * (mem_pin) and translates addresses in it without locking.  A freed
 * allocation leaves the table at once, but its host block and its address
 * stay reserved until no pinned version holds it: a launch that began
 * before the free runs to its end on intact memory, and the address is not
 * handed out again while it runs.
 *
 * Allocations made here get fresh addresses from MEM_GLOBAL_BASE upwards,
 * never reused.  mem_map places host memory at an address of the caller's
 * choice (for memory the host and kernels share through one pointer, the
 * device address being the host address); the table refuses a range that
 * overlaps an allocation, one still held by a launch, or a window.
 */
#ifndef PTXVM_MEM_H
#define PTXVM_MEM_H

#include "../util/cow.h"

#include <pthread.h>

#define MEM_SHARED_BASE 0x0000100000000000ull
#define MEM_LOCAL_BASE  0x0000200000000000ull
#define MEM_PARAM_BASE  0x0000300000000000ull
#define MEM_FUNC_BASE   0x0000400000000000ull
#define MEM_WINDOW      0x0000000100000000ull
#define MEM_GLOBAL_BASE 0x0000700000000000ull
#define MEM_GAP         4096u           /* unmapped bytes after each allocation */
#define MEM_MAX_ALLOC   (1ull << 40)    /* larger requests fail cleanly */

static inline bool mem_in_window(uint64_t a, uint64_t base) { return a - base < MEM_WINDOW; }

enum { ALLOC_GLOBAL, ALLOC_CONST };     /* what kernels may do: read-write, read-only */
enum {
	ALLOC_USER = 1,         /* made by the host (ptxvm_mem_alloc): the host may free it */
	ALLOC_BORROWED = 2,     /* host memory the allocation does not own (mem_map) */
	ALLOC_HOST = 4,         /* the host reaches its bytes directly (a __managed__ variable) */
};

typedef struct Alloc {
	CowRec cow;
	uint64_t base, size;
	uint8_t *host;
	uint8_t kind;           /* ALLOC_GLOBAL, ALLOC_CONST */
	uint8_t flags;          /* ALLOC_USER, ALLOC_BORROWED, ALLOC_HOST */
	uint8_t *init;          /* initcheck: a bit per byte, set once written; NULL: not tracked */
} Alloc;

typedef struct DevMem {
	pthread_mutex_t lock;
	Cow tab;                /* Alloc *, sorted by base */
	uint64_t next;          /* device address of the next allocation */
	size_t bytes;           /* live bytes */
	bool track_init;        /* initcheck: what the host allocates gets Alloc.init */
} DevMem;

/* A pinned version of the table: what a launch translates in. */
typedef CowVer MemView;

/* false when out of memory. */
bool mem_init(DevMem *m);
void mem_fini(DevMem *m);
/* Zero-filled; false when out of memory or bytes is absurd. */
bool mem_alloc(DevMem *m, size_t bytes, uint8_t kind, uint8_t flags, uint64_t *dptr);
/* Results of mem_map and mem_free. */
enum { MEM_OK, MEM_NOMEM, MEM_OVERLAP, MEM_WINDOWED, MEM_HELD, MEM_NOT_BASE, MEM_NOT_FREEABLE };
/* host[0, bytes) at device address base (bytes > 0); the host keeps
 * ownership of the memory when flags has ALLOC_BORROWED. */
int mem_map(DevMem *m, uint64_t base, size_t bytes, void *host, uint8_t kind, uint8_t flags);
/* Frees the allocation that starts at dptr, if its flags include every
 * flag of `need` (ALLOC_USER: only what the host allocated). */
int mem_free(DevMem *m, uint64_t dptr, uint8_t need);

const MemView *mem_pin(DevMem *m);
void mem_unpin(DevMem *m, const MemView *v);
/* The allocation of v holding [addr, addr+len), or NULL. */
const Alloc *mem_find(const MemView *v, uint64_t addr, uint64_t len);
/* initcheck: marks [off, off+n) of a written (host copies and memsets);
 * copies the marks of a device-to-device copy. */
void mem_mark_init(const Alloc *a, uint64_t off, uint64_t n);
void mem_copy_init(const Alloc *d, uint64_t doff, const Alloc *s, uint64_t soff, uint64_t n);
/* The allocation of v nearest to addr (the one it follows or the one
 * it precedes, whichever is closer), or NULL when v has none. */
const Alloc *mem_nearest(const MemView *v, uint64_t addr);
/* Host pointer to [addr, addr+len) inside one allocation of v, or NULL. */
static inline uint8_t *mem_host(const MemView *v, uint64_t addr, uint64_t len)
{
	const Alloc *a = mem_find(v, addr, len);
	return a ? a->host + (addr - a->base) : NULL;
}
/* The same in the latest table, for an allocation the caller has just
 * made and alone knows (a program's variables while it loads). */
uint8_t *mem_host_own(DevMem *m, uint64_t addr, uint64_t len);

#endif
