/* cow.h: tables that running launches read without locks (copy on write).
 *
 * A table is a vector of record pointers.  Its owner edits a private draft
 * under its own lock; a reader (a launch, a copy) pins the latest version,
 * which publishes the draft, and then reads that version as long as it
 * likes without any lock: a published version never changes.  A record
 * removed from the table is retired, not freed: it is reclaimed once no
 * pinned version holds it any more.  So a launch sees the table as it was
 * when it began, everything in it stays alive until the launch ends, and
 * nothing is freed under a reader's feet.
 *
 * Costs: a pin is O(1); the first edit after a pin copies the vector
 * (O(n)); further edits until the next pin are edits of the draft.
 *
 * Every function below runs under the owner's lock, the readers' accesses
 * to a pinned version excepted.
 */
#ifndef PTXVM_COW_H
#define PTXVM_COW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The head of every record a table holds. */
typedef struct CowRec {
	struct CowRec *next;    /* on the retired list */
	uint64_t died;          /* the first version without the record */
} CowRec;

/* A version: n records (or NULL entries, for tables indexed by slot). */
typedef struct CowVer {
	struct CowVer *next;    /* older pinned versions */
	uint64_t seq;
	uint32_t pins;
	size_t n, cap;
	void *item[];
} CowVer;

typedef struct Cow {
	CowVer *cur;            /* the latest published version */
	CowVer *draft;          /* the owner's edits since, or NULL */
	CowVer *old;            /* earlier versions that are still pinned */
	CowRec *retired;        /* removed records not yet reclaimed */
	void (*reclaim)(CowRec *r, void *arg);
	void *arg;
} Cow;

/* false when out of memory. */
bool cow_init(Cow *c, void (*reclaim)(CowRec *r, void *arg), void *arg);
/* Reclaims the retired records and frees the versions; the owner frees
 * the records still in the table. */
void cow_fini(Cow *c);
/* What the owner reads: the draft, or the latest version. */
static inline const CowVer *cow_latest(const Cow *c) { return c->draft ? c->draft : c->cur; }
/* The draft, with room for at least `room` items; NULL when out of memory
 * (the table is unchanged). */
CowVer *cow_edit(Cow *c, size_t room);
/* r has been removed from the draft: reclaim it when no reader can reach it. */
void cow_retire(Cow *c, CowRec *r);
/* Publishes the draft and pins the latest version for a reader. */
const CowVer *cow_pin(Cow *c);
void cow_unpin(Cow *c, const CowVer *v);
/* Whether a retired record may still be reached by a pinned version. */
bool cow_held(const Cow *c, const CowRec *r);

#endif
