/* mem.c: device allocations and their bounds. */
#include "mem.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

void mem_init(DevMem *m)
{
	memset(m, 0, sizeof *m);
	pthread_mutex_init(&m->lock, NULL);
	m->next = MEM_GLOBAL_BASE;
}

void mem_fini(DevMem *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].host);
	free(m->v);
	pthread_mutex_destroy(&m->lock);
}

/* 1 TiB: larger requests fail cleanly instead of asking the host for it. */
#define MEM_MAX_ALLOC (1ull << 40)

bool mem_alloc(DevMem *m, size_t bytes, uint8_t kind, uint64_t *dptr)
{
	if (bytes > MEM_MAX_ALLOC)
		return false;
	uint8_t *host = calloc(1, bytes ? bytes : 1);
	if (!host)
		return false;
	pthread_mutex_lock(&m->lock);
	Alloc *v = vec_grow(m->v, &m->cap, m->n + 1, sizeof *m->v);
	if (!v) {
		pthread_mutex_unlock(&m->lock);
		free(host);
		return false;
	}
	m->v = v;
	/* Addresses only grow, so the table stays sorted by appending; 256-byte
	 * alignment is what cudaMalloc guarantees. */
	uint64_t base = m->next;
	m->next = (base + bytes + MEM_GAP + 255) & ~255ull;
	m->v[m->n++] = (Alloc){ base, bytes, host, kind };
	m->bytes += bytes;
	pthread_mutex_unlock(&m->lock);
	*dptr = base;
	return true;
}

static size_t find_index(const DevMem *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {               /* first allocation with base > addr */
		size_t mid = (lo + hi) / 2;
		if (m->v[mid].base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;                      /* candidate: lo - 1 */
}

bool mem_free(DevMem *m, uint64_t dptr)
{
	pthread_mutex_lock(&m->lock);
	size_t i = find_index(m, dptr);
	bool ok = i > 0 && m->v[i - 1].base == dptr;
	if (ok) {
		free(m->v[i - 1].host);
		m->bytes -= m->v[i - 1].size;
		memmove(&m->v[i - 1], &m->v[i], (m->n - i) * sizeof *m->v);
		m->n--;
	}
	pthread_mutex_unlock(&m->lock);
	return ok;
}

const Alloc *mem_find(const DevMem *m, uint64_t addr, uint64_t len)
{
	size_t i = find_index(m, addr);
	if (i == 0)
		return NULL;
	const Alloc *a = &m->v[i - 1];
	uint64_t off = addr - a->base;
	if (off > a->size || len > a->size - off)
		return NULL;
	return a;
}
