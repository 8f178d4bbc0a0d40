/* object.c: the handles of the driver's objects (cu.h).  One table of
 * generation-checked handles (src/util/handle.h) holds every record, under
 * one reader-writer lock (lookups, one per handle a call takes, share it):
 * a lookup is an index and a comparison, and nobody pins a version, so a
 * removed record is freed at once.  A handle's tag is
 * 0x4300 plus the kind, so that a handle of one kind is never taken for
 * another, and no small integer (the special streams 1 and 2) or host
 * pointer is a handle; its top bit is clear, so that bindings that read
 * handles as signed integers (cuda-python's) see positive values. */
#include "cu.h"

#include <stdlib.h>

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static Handles table;
static int ready, torn_down;

static uint16_t tag(CuKind kind) { return (uint16_t)(0x4300u | (unsigned)kind); }

static void reclaim(CowRec *r, void *arg)
{
	(void)arg;
	free(r);        /* the CuObj, and so its record, starts with the CowRec */
}

void *cu_obj_add(void *rec, CuKind kind)
{
	uint64_t h = 0;
	pthread_rwlock_wrlock(&lock);
	if (!ready && !torn_down)
		ready = handles_init(&table, reclaim, NULL);
	if (ready)
		h = handle_add(&table, tag(kind), &((CuObj *)rec)->h);
	pthread_rwlock_unlock(&lock);
	return (void *)(uintptr_t)h;
}

void *cu_obj_get(const void *handle, CuKind kind)
{
	HRec *r = NULL;
	pthread_rwlock_rdlock(&lock);
	if (ready)
		r = handle_find(&table, (uint64_t)(uintptr_t)handle, tag(kind));
	pthread_rwlock_unlock(&lock);
	return r;
}

int cu_obj_free(const void *handle, CuKind kind)
{
	pthread_rwlock_wrlock(&lock);
	int ok = ready && handle_remove(&table, (uint64_t)(uintptr_t)handle, tag(kind));
	pthread_rwlock_unlock(&lock);
	return ok;
}

static void drop(HRec *r, void *arg)
{
	(void)arg;
	CuObj *o = (CuObj *)r;
	if (o->drop)
		o->drop(o);
	free(o);
}

void cu_obj_teardown(void)
{
	pthread_rwlock_wrlock(&lock);
	if (ready) {
		handles_each(&table, drop, NULL);
		handles_fini(&table);
	}
	ready = 0;
	torn_down = 1;  /* a call after this finds no object */
	pthread_rwlock_unlock(&lock);
}
