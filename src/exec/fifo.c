/* fifo.c: a launch's device printf FIFO (see fifo.h).
 *
 * Each CTA keeps its records apart while it runs, at most the FIFO's size
 * of them (a record that does not fit in an empty FIFO cannot fit after
 * other CTAs' either).  A finished CTA's records join a list sorted by CTA;
 * whenever the list holds more than the FIFO, the records that cannot be
 * kept whatever the CTAs still running print are dropped: those after the
 * first record that overflows the list in CTA order (running CTAs can only
 * add records before them).  That CTA becomes the cut: later CTAs keep
 * nothing.  At the end the list is exactly the kept records.
 */
#include "fifo.h"

#include <stdlib.h>
#include <string.h>

struct FifoEntry {
	uint64_t id;
	Buf recs;
	size_t text;            /* text bytes of recs */
};

void fifo_init(Fifo *f, size_t cap)
{
	*f = (Fifo){ .cap = cap, .cut = UINT64_MAX };
	pthread_mutex_init(&f->lock, NULL);
}

void fifo_cta_begin(Fifo *f, FifoCta *c, uint64_t id)
{
	pthread_mutex_lock(&f->lock);
	bool past = id > f->cut;
	pthread_mutex_unlock(&f->lock);
	c->recs.len = 0;
	c->room = past ? 0 : f->cap;
	c->full = past;
	c->nrec = 0;
}

void fifo_cta_put(FifoCta *c, const char *p, size_t n)
{
	if (!n)
		return;
	c->nrec++;
	if (c->full || n > c->room) {
		c->full = true;
		return;
	}
	uint32_t len = (uint32_t)n;     /* a record is at most PRINTF_MAX_OUT */
	buf_put(&c->recs, (const char *)&len, 4);
	buf_put(&c->recs, p, n);
	c->room -= n;
}

/* Keeps the records of e that fit in room; returns their text bytes. */
static size_t keep_fitting(FifoEntry *e, size_t room)
{
	size_t off = 0, text = 0;
	while (off < e->recs.len) {
		uint32_t n;
		memcpy(&n, e->recs.p + off, 4);
		if (n > room - text)
			break;
		text += n;
		off += 4 + (size_t)n;
	}
	e->recs.len = off;
	e->text = text;
	if (off * 2 < e->recs.cap) {    /* give back what was dropped */
		char *p = realloc(e->recs.p, off ? off : 1);
		if (p) {
			e->recs.p = p;
			e->recs.cap = off ? off : 1;
		}
	}
	return text;
}

/* Nothing after CTA id can be kept: its later records are dropped. */
static void cut_after(Fifo *f, uint64_t id)
{
	f->cut = id;
	while (f->n && f->e[f->n - 1].id > id) {
		f->n--;
		f->bytes -= f->e[f->n].text;
		buf_free(&f->e[f->n].recs);
	}
}

/* The list holds more than the FIFO: drop what can never be kept. */
static void trim(Fifo *f)
{
	size_t used = 0, i = 0;
	for (; i < f->n && used + f->e[i].text <= f->cap; i++)
		used += f->e[i].text;
	if (i == f->n)
		return;
	f->bytes -= f->e[i].text;
	f->bytes += keep_fitting(&f->e[i], f->cap - used);
	cut_after(f, f->e[i].id);
}

void fifo_cta_end(Fifo *f, FifoCta *c, uint64_t id)
{
	pthread_mutex_lock(&f->lock);
	f->records += c->nrec;
	if (id <= f->cut) {
		if (c->full)            /* a record of this CTA did not fit */
			cut_after(f, id);
		if (c->recs.len) {
			size_t at = f->n;
			while (at && f->e[at - 1].id > id)     /* CTAs finish nearly in order */
				at--;
			f->e = vec_grow(f->e, &f->capn, f->n + 1, sizeof *f->e);
			memmove(&f->e[at + 1], &f->e[at], (f->n - at) * sizeof *f->e);
			f->e[at] = (FifoEntry){ id, c->recs, f->cap - c->room };
			f->n++;
			f->bytes += f->cap - c->room;
			c->recs = (Buf){ 0 };
			if (f->bytes > f->cap)
				trim(f);
		}
	}
	pthread_mutex_unlock(&f->lock);
	c->recs.len = 0;
	c->nrec = 0;
}

uint64_t fifo_finish(Fifo *f, FILE *out)
{
	uint64_t kept = 0;
	flockfile(out);         /* one launch's output is not interleaved with another's */
	for (size_t i = 0; i < f->n; i++) {
		const Buf *b = &f->e[i].recs;
		for (size_t off = 0; off < b->len;) {
			uint32_t n;
			memcpy(&n, b->p + off, 4);
			fwrite_unlocked(b->p + off + 4, 1, n, out);
			off += 4 + (size_t)n;
			kept++;
		}
		buf_free(&f->e[i].recs);
	}
	fflush_unlocked(out);
	funlockfile(out);
	free(f->e);
	pthread_mutex_destroy(&f->lock);
	uint64_t dropped = f->records - kept;
	*f = (Fifo){ 0 };
	return dropped;
}
