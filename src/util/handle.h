/* handle.h: generation-checked handles.
 *
 * The public interface names objects by handles, never by pointers into
 * the library, so that a stale or doubly freed handle is recognised and
 * refused (CUDA's INVALID_HANDLE) instead of reaching freed memory.  A
 * handle is a 64-bit value:
 *
 *   bits 63..48  tag: the kind of object; never 0, so that no small
 *                integer and no host pointer is a handle
 *   bits 47..32  the slot's generation, 1..65535
 *   bits 31..0   slot + 1
 *
 * A freed slot gets the next generation, so the old handle no longer
 * matches; a slot whose generation would wrap is never used again.  A
 * record stores its own handle: a lookup is an index and one comparison.
 *
 * The table is a copy-on-write table (cow.h): its owner adds, finds and
 * removes under its own lock; a launch pins a version and resolves
 * handles in it without locking (handle_in), and a removed record stays
 * alive until no pinned version holds it.  Tables whose readers all take
 * the owner's lock simply never pin.
 */
#ifndef PTXVM_HANDLE_H
#define PTXVM_HANDLE_H

#include "cow.h"

typedef struct HRec {
	CowRec cow;
	uint64_t handle;        /* 0 until added */
} HRec;

typedef struct Handles {
	Cow cow;                /* item[slot]: HRec *, or NULL */
	uint16_t *gen;          /* per slot: the generation of its next record */
	uint32_t *free;         /* free slots */
	size_t nfree, capfree, capgen;
} Handles;

static inline uint16_t handle_tag(uint64_t h) { return (uint16_t)(h >> 48); }

/* reclaim: called for a removed record once no pinned version holds it;
 * NULL when the owner frees removed records itself.  false when out of
 * memory. */
bool handles_init(Handles *t, void (*reclaim)(CowRec *r, void *arg), void *arg);
/* Frees the table and the retired records (reclaim); the owner frees the
 * records still in the table, which handles_each visits. */
void handles_fini(Handles *t);
void handles_each(const Handles *t, void (*fn)(HRec *r, void *arg), void *arg);
/* Gives r a handle with the tag (non-zero); 0 when out of memory. */
uint64_t handle_add(Handles *t, uint16_t tag, HRec *r);
/* The record a handle names (the owner's view), or NULL. */
HRec *handle_find(const Handles *t, uint64_t h, uint16_t tag);
/* Removes the record a handle names and retires it (reclaim may free it
 * at once); false when the handle names none (stale, freed twice, another
 * kind) or memory ran out. */
bool handle_remove(Handles *t, uint64_t h, uint16_t tag);

/* A reader's lookup in a pinned version. */
static inline HRec *handle_in(const CowVer *v, uint64_t h, uint16_t tag)
{
	uint64_t slot = (uint32_t)h - 1ull;
	if (handle_tag(h) != tag || !v || slot >= v->n)
		return NULL;
	HRec *r = v->item[slot];
	return r && r->handle == h ? r : NULL;
}

#endif
