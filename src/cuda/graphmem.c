/* graphmem.c: the memory of graphs' allocation nodes (CUDA's graph memory
 * nodes), and the rules of its lifetime.  graph.c makes the nodes; this
 * file keeps one record per allocation node.
 *
 * The model: an allocation node's memory is reserved on the device when
 * the node is made, so its address is fixed for the graph's life, as CUDA
 * promises.  Each run of the node makes the allocation live; a free node
 * (in the owning graph or another), cuMemFreeAsync or cuMemFree ends that.
 * The memory goes back to the device when nothing can reach it any more:
 * the owning graph and every executable graph made from it destroyed, and
 * the allocation not live (CUDA: destroying a graph does not free a live
 * allocation).  docs/CUDA.md, "Graph memory". */
#include "cu.h"

#include <stdlib.h>

typedef struct GAlloc {
	uint64_t addr;
	size_t bytes;
	unsigned long long id;  /* a free node names the record too: addresses are reused */
	CUgraph owner;          /* the graph with the allocation node; NULL once destroyed */
	CUgraph freer;          /* the graph with a free node for it; NULL: none */
	unsigned execs;         /* executable graphs holding the allocation node */
	int live;               /* allocated by a run, not freed since */
	struct GAlloc *next;
} GAlloc;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static GAlloc *allocs;
static unsigned long long next_id = 1;
static uint64_t used_high, reserved_high, total;       /* bytes; total: reserved now */

/* The record with that address (and id, when id is not 0), lock held. */
static GAlloc **find(uint64_t addr, unsigned long long id)
{
	GAlloc **p = &allocs;
	while (*p && ((*p)->addr != addr || (id && (*p)->id != id)))
		p = &(*p)->next;
	return *p ? p : NULL;
}

/* Gives *p's memory back if nothing can reach it any more (lock held). */
static void settle(GAlloc **p)
{
	GAlloc *a = *p;
	if (a->owner || a->execs || a->live)
		return;
	*p = a->next;
	ptxvm_mem_free(cu_dev.dev, a->addr);
	total -= a->bytes;
	free(a);
}

CUresult cu_gmem_reserve(CUgraph g, size_t bytes, uint64_t *addr, unsigned long long *id)
{
	GAlloc *a = calloc(1, sizeof *a);
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ptxvm_result r = ptxvm_mem_alloc(cu_dev.dev, bytes, &a->addr);
	if (r) {
		free(a);
		cu_warn("a graph's allocation of %zu bytes: %s", bytes, ptxvm_device_message(cu_dev.dev));
		return r == PTXVM_ERROR_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&lock);
	a->bytes = bytes;
	a->owner = g;
	a->id = next_id++;
	a->next = allocs;
	allocs = a;
	total += bytes;
	if (total > used_high)
		used_high = total;
	if (total > reserved_high)
		reserved_high = total;
	*addr = a->addr;
	*id = a->id;
	pthread_mutex_unlock(&lock);
	return CUDA_SUCCESS;
}

void cu_gmem_unreserve(uint64_t addr, unsigned long long id)
{
	pthread_mutex_lock(&lock);
	GAlloc **p = find(addr, id);
	if (p) {
		(*p)->owner = NULL;
		(*p)->freer = NULL;
		settle(p);
	}
	pthread_mutex_unlock(&lock);
}

/* CUDA's rules for a free node (cuGraphAddMemFreeNode): the address is an
 * allocation node's, and no graph frees it yet — neither the owning graph
 * nor another. */
CUresult cu_gmem_free_node(CUgraph g, uint64_t addr, unsigned long long *id)
{
	pthread_mutex_lock(&lock);
	GAlloc **p = find(addr, 0);
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	if (p && !(*p)->freer) {
		(*p)->freer = g;
		*id = (*p)->id;
		r = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&lock);
	if (r)
		cu_warn("a free node for %#llx: %s", (unsigned long long)addr,
			!p ? "no allocation node returned that address"
			   : "a graph already has a free node for that allocation");
	return r;
}

void cu_gmem_unfree(uint64_t addr, unsigned long long id)
{
	pthread_mutex_lock(&lock);
	GAlloc **p = find(addr, id);
	if (p)
		(*p)->freer = NULL;
	pthread_mutex_unlock(&lock);
}

/* g is destroyed: its allocations lose their owner, and a free node of g
 * no longer claims another graph's allocation. */
void cu_gmem_graph_gone(CUgraph g)
{
	pthread_mutex_lock(&lock);
	for (GAlloc **p = &allocs; *p;) {
		GAlloc *a = *p;
		if (a->freer == g)
			a->freer = NULL;
		if (a->owner == g) {
			a->owner = NULL;
			settle(p);
			if (*p != a)
				continue;
		}
		p = &a->next;
	}
	pthread_mutex_unlock(&lock);
}

void cu_gmem_hold(uint64_t addr, unsigned long long id, int delta)
{
	pthread_mutex_lock(&lock);
	GAlloc **p = find(addr, id);
	if (p) {
		(*p)->execs += delta;
		settle(p);
	}
	pthread_mutex_unlock(&lock);
}

int cu_gmem_live(uint64_t addr, unsigned long long id)
{
	pthread_mutex_lock(&lock);
	GAlloc **p = find(addr, id);
	int live = p && (*p)->live;
	pthread_mutex_unlock(&lock);
	return live;
}

/* A run reaches an allocation node (live: 1) or a free node (0): the
 * allocation must be free, or live, before. */
CUresult cu_gmem_run(uint64_t addr, unsigned long long id, int live)
{
	pthread_mutex_lock(&lock);
	GAlloc **p = find(addr, id);
	CUresult r = p && (*p)->live != live ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	if (!r) {
		(*p)->live = live;
		settle(p);
	}
	pthread_mutex_unlock(&lock);
	if (r)
		cu_warn("cuGraphLaunch: the graph's allocation at %#llx is %s", (unsigned long long)addr,
			!p ? "gone" : live ? "still allocated by an earlier launch" : "not allocated: there is nothing to free");
	return r;
}

/* cuMemFree or cuMemFreeAsync of addr: -1 when it is no graph's
 * allocation; else the result.  Only a live allocation that its own
 * graph does not free can be freed outside a graph. */
int cu_gmem_free_outside(uint64_t addr, const char *what)
{
	pthread_mutex_lock(&lock);
	GAlloc **p = find(addr, 0);
	int r = -1;
	const char *why = NULL;
	if (p) {
		GAlloc *a = *p;
		if (a->freer && a->freer == a->owner)
			why = "its graph frees it";
		else if (!a->live)
			why = "it is not allocated (its graph has not run since it was freed)";
		else {
			a->live = 0;
			settle(p);
		}
		r = why ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&lock);
	if (why)
		cu_warn("%s: %#llx is a graph's allocation, and %s", what, (unsigned long long)addr, why);
	return r;
}

/* ---- the device's graph memory ------------------------------------------------------- */
enum { ATTR_USED_CURRENT, ATTR_USED_HIGH, ATTR_RESERVED_CURRENT, ATTR_RESERVED_HIGH };

/* Nothing is cached for graphs: what is reserved belongs to a node. */
CUresult cuDeviceGraphMemTrim(CUdevice dev)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* Used and reserved are the same here: the bytes of the allocation
 * nodes' memory, which is reserved as long as a node can reach it. */
CUresult cuDeviceGetGraphMemAttribute(CUdevice dev, int attr, void *value)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	if (!value || attr < ATTR_USED_CURRENT || attr > ATTR_RESERVED_HIGH)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&lock);
	uint64_t v = attr == ATTR_USED_HIGH ? used_high : attr == ATTR_RESERVED_HIGH ? reserved_high : total;
	pthread_mutex_unlock(&lock);
	*(uint64_t *)value = v;
	return CUDA_SUCCESS;
}

/* Only a high-water mark can be set, and only to 0; it then starts again
 * from what is reserved now. */
CUresult cuDeviceSetGraphMemAttribute(CUdevice dev, int attr, void *value)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	if (!value || (attr != ATTR_USED_HIGH && attr != ATTR_RESERVED_HIGH) || *(uint64_t *)value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&lock);
	if (attr == ATTR_USED_HIGH)
		used_high = total;
	else
		reserved_high = total;
	pthread_mutex_unlock(&lock);
	return CUDA_SUCCESS;
}

/* At exit, after the device is gone: the records alone. */
void cu_gmem_teardown(void)
{
	while (allocs) {
		GAlloc *a = allocs;
		allocs = a->next;
		free(a);
	}
	total = 0;
}
