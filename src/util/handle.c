/* handle.c: generation-checked handles (handle.h). */
#include "handle.h"

#include <stdlib.h>

bool handles_init(Handles *t, void (*reclaim)(CowRec *r, void *arg), void *arg)
{
	*t = (Handles){ 0 };
	return cow_init(&t->cow, reclaim, arg);
}

void handles_fini(Handles *t)
{
	cow_fini(&t->cow);
	free(t->gen);
	free(t->free);
	*t = (Handles){ 0 };
}

void handles_each(const Handles *t, void (*fn)(HRec *r, void *arg), void *arg)
{
	const CowVer *v = cow_latest(&t->cow);
	for (size_t i = 0; i < v->n; i++)
		if (v->item[i])
			fn(v->item[i], arg);
}

uint64_t handle_add(Handles *t, uint16_t tag, HRec *r)
{
	const CowVer *l = cow_latest(&t->cow);
	size_t slot = t->nfree ? t->free[t->nfree - 1] : l->n;
	if (slot >= UINT32_MAX - 1 || !tag)
		return 0;
	CowVer *d = cow_edit(&t->cow, slot + 1);
	if (!d)
		return 0;
	if (slot >= t->capgen) {
		size_t cap = t->capgen ? t->capgen * 2 : 64;
		uint16_t *g = realloc(t->gen, cap * sizeof *g);
		if (!g)
			return 0;
		for (size_t i = t->capgen; i < cap; i++)
			g[i] = 1;
		t->gen = g;
		t->capgen = cap;
	}
	if (t->nfree)
		t->nfree--;
	else
		d->item[d->n++] = NULL;
	r->handle = (uint64_t)tag << 48 | (uint64_t)t->gen[slot] << 32 | (slot + 1);
	d->item[slot] = r;
	return r->handle;
}

HRec *handle_find(const Handles *t, uint64_t h, uint16_t tag)
{
	return handle_in(cow_latest(&t->cow), h, tag);
}

bool handle_remove(Handles *t, uint64_t h, uint16_t tag)
{
	HRec *r = handle_find(t, h, tag);
	if (!r)
		return false;
	size_t slot = (uint32_t)h - 1u;
	/* the free list has room for every slot; without it the slot is
	 * simply not reused */
	if (t->nfree == t->capfree) {
		size_t cap = t->capfree ? t->capfree * 2 : 64;
		uint32_t *f = realloc(t->free, cap * sizeof *f);
		if (f) {
			t->free = f;
			t->capfree = cap;
		}
	}
	CowVer *d = cow_edit(&t->cow, 0);
	if (!d)
		return false;   /* out of memory: the record stays, still valid */
	d->item[slot] = NULL;
	if (++t->gen[slot] != 0 && t->nfree < t->capfree)
		t->free[t->nfree++] = (uint32_t)slot;
	cow_retire(&t->cow, &r->cow);
	return true;
}
