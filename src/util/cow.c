/* cow.c: copy-on-write tables with deferred reclamation (cow.h). */
#include "cow.h"

#include <stdlib.h>
#include <string.h>

static CowVer *ver_new(size_t cap)
{
	CowVer *v = malloc(sizeof *v + cap * sizeof v->item[0]);
	if (v)
		*v = (CowVer){ .cap = cap };
	return v;
}

bool cow_init(Cow *c, void (*reclaim)(CowRec *r, void *arg), void *arg)
{
	*c = (Cow){ .reclaim = reclaim, .arg = arg };
	c->cur = ver_new(0);
	if (c->cur)
		c->cur->seq = 1;
	return c->cur != NULL;
}

/* The oldest version a reader holds; UINT64_MAX when none is pinned. */
static uint64_t oldest_pinned(const Cow *c)
{
	uint64_t m = c->cur && c->cur->pins ? c->cur->seq : UINT64_MAX;
	for (const CowVer *v = c->old; v; v = v->next)
		if (v->seq < m)
			m = v->seq;
	return m;
}

/* Reclaims every retired record that no pinned version holds. */
static void reclaim(Cow *c)
{
	uint64_t m = oldest_pinned(c);
	for (CowRec **p = &c->retired; *p;) {
		CowRec *r = *p;
		if (r->died <= m) {
			*p = r->next;
			if (c->reclaim)
				c->reclaim(r, c->arg);
		} else {
			p = &r->next;
		}
	}
}

bool cow_held(const Cow *c, const CowRec *r) { return r->died > oldest_pinned(c); }

void cow_fini(Cow *c)
{
	while (c->old) {
		CowVer *v = c->old;
		c->old = v->next;
		free(v);
	}
	if (c->cur)
		c->cur->pins = 0;
	reclaim(c);
	free(c->cur);
	free(c->draft);
	*c = (Cow){ 0 };
}

CowVer *cow_edit(Cow *c, size_t room)
{
	CowVer *d = c->draft;
	if (d && d->cap >= room)
		return d;
	size_t n = d ? d->n : c->cur->n, cap = d ? d->cap : n;
	if (cap < room)
		cap = cap * 2 > room ? cap * 2 : room < 8 ? 8 : room;
	if (d) {
		/* the draft is private: it can move */
		CowVer *v = realloc(d, sizeof *v + cap * sizeof v->item[0]);
		if (!v)
			return NULL;
		v->cap = cap;
		return c->draft = v;
	}
	d = ver_new(cap);
	if (!d)
		return NULL;
	d->n = n;
	if (n)
		memcpy(d->item, c->cur->item, n * sizeof d->item[0]);
	return c->draft = d;
}

void cow_retire(Cow *c, CowRec *r)
{
	r->died = c->cur->seq + 1;      /* the draft is published as the next version */
	r->next = c->retired;
	c->retired = r;
	reclaim(c);
}

const CowVer *cow_pin(Cow *c)
{
	if (c->draft) {
		CowVer *o = c->cur;
		c->draft->seq = o->seq + 1;
		c->cur = c->draft;
		c->draft = NULL;
		if (o->pins) {
			o->next = c->old;
			c->old = o;
		} else {
			free(o);
		}
	}
	c->cur->pins++;
	reclaim(c);
	return c->cur;
}

void cow_unpin(Cow *c, const CowVer *cv)
{
	CowVer *v = (CowVer *)cv;
	if (--v->pins == 0 && v != c->cur) {
		for (CowVer **p = &c->old; *p; p = &(*p)->next)
			if (*p == v) {
				*p = v->next;
				break;
			}
		free(v);
	}
	reclaim(c);
}
