/* heap.c: the device heap's allocator (heap.h). */
#include "heap.h"

#include <stdlib.h>
#include <string.h>

bool heap_init(Heap *h, uint64_t base, uint64_t size)
{
	memset(h, 0, sizeof *h);
	h->base = base;
	h->size = size & ~(uint64_t)(HEAP_ALIGN - 1);
	h->cap = 16;
	if (!(h->b = malloc(h->cap * sizeof *h->b)))
		return false;
	if (h->size)
		h->b[h->n++] = (HeapBlock){ 0, h->size, false };
	pthread_mutex_init(&h->lock, NULL);
	return true;
}

void heap_fini(Heap *h)
{
	if (h->b)
		pthread_mutex_destroy(&h->lock);
	free(h->b);
	memset(h, 0, sizeof *h);
}

/* Makes room for k more blocks after index i (shifting the rest). */
static bool open_gap(Heap *h, size_t i, size_t k)
{
	if (h->n + k > h->cap) {
		size_t cap = h->cap * 2 + k;
		HeapBlock *b = realloc(h->b, cap * sizeof *b);
		if (!b)
			return false;
		h->b = b;
		h->cap = cap;
	}
	memmove(&h->b[i + 1 + k], &h->b[i + 1], (h->n - i - 1) * sizeof *h->b);
	h->n += k;
	return true;
}

/* Carves [off, off+bytes) out of free block i; the index of the used block,
 * or -1 when out of host memory. */
static long carve(Heap *h, size_t i, uint64_t off, uint64_t bytes)
{
	HeapBlock f = h->b[i];
	uint64_t pre = off - f.off, post = f.off + f.size - off - bytes;
	size_t k = (pre != 0) + (post != 0);
	if (k && !open_gap(h, i, k))
		return -1;
	size_t j = i;
	if (pre)
		h->b[j++] = (HeapBlock){ f.off, pre, false };
	h->b[j] = (HeapBlock){ off, bytes, true };
	if (post)
		h->b[j + 1] = (HeapBlock){ off + bytes, post, false };
	return (long)j;
}

uint64_t heap_alloc(Heap *h, uint64_t bytes, uint64_t align)
{
	if (!bytes || bytes > h->size || (align & (align - 1)) || align > h->size)
		return 0;
	if (align < HEAP_ALIGN)
		align = HEAP_ALIGN;
	bytes = (bytes + HEAP_ALIGN - 1) & ~(uint64_t)(HEAP_ALIGN - 1);
	uint64_t r = 0;
	pthread_mutex_lock(&h->lock);
	for (size_t t = 0; t < h->n; t++) {
		size_t i = (h->rover + t) % h->n;
		const HeapBlock *f = &h->b[i];
		if (f->used || f->size < bytes)
			continue;
		uint64_t a = ((h->base + f->off + align - 1) & ~(align - 1)) - h->base;
		if (a - f->off > f->size - bytes)
			continue;
		long j = carve(h, i, a, bytes);
		if (j >= 0) {
			h->rover = (size_t)j;
			h->used += bytes;
			r = h->base + a;
		}
		break;
	}
	pthread_mutex_unlock(&h->lock);
	return r;
}

/* Merges block i with block i+1 when both are free. */
static void merge_next(Heap *h, size_t i)
{
	if (i + 1 >= h->n || h->b[i].used || h->b[i + 1].used)
		return;
	h->b[i].size += h->b[i + 1].size;
	memmove(&h->b[i + 1], &h->b[i + 2], (h->n - i - 2) * sizeof *h->b);
	h->n--;
	if (h->rover > i)
		h->rover--;
}

int heap_free(Heap *h, uint64_t addr)
{
	if (!addr)
		return HEAP_OK;
	if (addr - h->base >= h->size)
		return HEAP_NOT_BLOCK;
	uint64_t off = addr - h->base;
	int r = HEAP_NOT_BLOCK;
	pthread_mutex_lock(&h->lock);
	size_t lo = 0, hi = h->n;
	while (lo < hi) {               /* the first block with off > addr's */
		size_t mid = (lo + hi) / 2;
		if (h->b[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && h->b[lo - 1].off == off) {
		size_t i = lo - 1;
		if (!h->b[i].used) {
			r = HEAP_FREED;
		} else {
			r = HEAP_OK;
			h->b[i].used = false;
			h->used -= h->b[i].size;
			merge_next(h, i);
			if (i)
				merge_next(h, i - 1);
		}
	}
	pthread_mutex_unlock(&h->lock);
	return r;
}
