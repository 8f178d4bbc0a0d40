/* mem.c: device allocations, their bounds and their lifetime (mem.h). */
#include "mem.h"

#include <stdlib.h>
#include <string.h>

static void reclaim(CowRec *r, void *arg)
{
	Alloc *a = (Alloc *)r;
	(void)arg;
	if (!(a->flags & ALLOC_BORROWED))
		free(a->host);
	free(a->init);
	free(a);
}

bool mem_init(DevMem *m)
{
	memset(m, 0, sizeof *m);
	if (!cow_init(&m->tab, reclaim, m))
		return false;
	pthread_mutex_init(&m->lock, NULL);
	m->next = MEM_GLOBAL_BASE;
	return true;
}

void mem_fini(DevMem *m)
{
	const CowVer *v = cow_latest(&m->tab);
	for (size_t i = 0; i < v->n; i++)
		reclaim(v->item[i], m);
	cow_fini(&m->tab);
	pthread_mutex_destroy(&m->lock);
}

/* The first allocation of v with base > addr. */
static size_t find_index(const CowVer *v, uint64_t addr)
{
	size_t lo = 0, hi = v->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (((const Alloc *)v->item[mid])->base <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const Alloc *mem_find(const MemView *v, uint64_t addr, uint64_t len)
{
	size_t i = find_index(v, addr);
	if (i == 0)
		return NULL;
	const Alloc *a = v->item[i - 1];
	uint64_t off = addr - a->base;
	if (off > a->size || len > a->size - off)
		return NULL;
	return a;
}

void mem_mark_init(const Alloc *a, uint64_t off, uint64_t n)
{
	for (uint64_t i = off; a->init && i < off + n; i++)
		__atomic_fetch_or(&a->init[i >> 3], (uint8_t)(1u << (i & 7)), __ATOMIC_RELAXED);
}

void mem_copy_init(const Alloc *d, uint64_t doff, const Alloc *s, uint64_t soff, uint64_t n)
{
	if (!d->init)
		return;
	for (uint64_t i = 0; i < n; i++) {
		uint8_t m = (uint8_t)(1u << ((doff + i) & 7));
		bool set = !s->init || __atomic_load_n(&s->init[(soff + i) >> 3], __ATOMIC_RELAXED) & (1u << ((soff + i) & 7));
		if (set)
			__atomic_fetch_or(&d->init[(doff + i) >> 3], m, __ATOMIC_RELAXED);
		else
			__atomic_fetch_and(&d->init[(doff + i) >> 3], (uint8_t)~m, __ATOMIC_RELAXED);
	}
}

const Alloc *mem_nearest(const MemView *v, uint64_t addr)
{
	size_t i = find_index(v, addr);
	const Alloc *below = i > 0 ? v->item[i - 1] : NULL, *above = i < v->n ? v->item[i] : NULL;
	if (!below || !above)
		return below ? below : above;
	uint64_t end = below->base + below->size;
	return addr < end || addr - end <= above->base - addr ? below : above;
}

/* What of the table or of the retired allocations still held by a launch
 * meets [base, end); NULL when nothing does.  Generated allocations count
 * their gap. */
static const Alloc *overlap(const DevMem *m, uint64_t base, uint64_t end)
{
	const CowVer *v = cow_latest(&m->tab);
	size_t i = find_index(v, end - 1);
	if (i > 0) {
		const Alloc *a = v->item[i - 1];
		uint64_t aend = a->base + a->size + (a->flags & ALLOC_BORROWED ? 0 : MEM_GAP);
		if (a->base >= base || aend > base)
			return a;
	}
	for (const CowRec *r = m->tab.retired; r; r = r->next) {
		const Alloc *a = (const Alloc *)r;
		if (a->base < end && a->base + a->size + MEM_GAP > base && cow_held(&m->tab, r))
			return a;
	}
	return NULL;
}

/* Inserts a into the table at its place; false when out of memory. */
static bool insert(DevMem *m, Alloc *a)
{
	CowVer *d = cow_edit(&m->tab, cow_latest(&m->tab)->n + 1);
	if (!d)
		return false;
	size_t i = find_index(d, a->base);
	memmove(&d->item[i + 1], &d->item[i], (d->n - i) * sizeof d->item[0]);
	d->item[i] = a;
	d->n++;
	m->bytes += a->size;
	return true;
}

bool mem_alloc(DevMem *m, size_t bytes, uint8_t kind, uint8_t flags, uint64_t *dptr)
{
	if (bytes > MEM_MAX_ALLOC)
		return false;
	Alloc *a = calloc(1, sizeof *a);
	uint8_t *host = calloc(1, bytes ? bytes : 1);
	uint8_t *init = m->track_init && flags & ALLOC_USER ? calloc(1, bytes / 8 + 1) : NULL;
	if (!a || !host || (m->track_init && flags & ALLOC_USER && !init)) {
		free(a);
		free(host);
		free(init);
		return false;
	}
	pthread_mutex_lock(&m->lock);
	/* addresses only grow; a range mapped by mem_map is stepped over.
	 * 256-byte alignment is what cudaMalloc guarantees. */
	uint64_t base = m->next;
	const Alloc *o;
	while ((o = overlap(m, base, base + bytes + MEM_GAP)))
		base = (o->base + o->size + MEM_GAP + 255) & ~255ull;
	bool ok = base < (1ull << 62);
	if (ok) {
		*a = (Alloc){ .base = base, .size = bytes, .host = host, .kind = kind,
			      .flags = (uint8_t)(flags & ~ALLOC_BORROWED), .init = init };
		ok = insert(m, a);
	}
	if (ok)
		m->next = (base + bytes + MEM_GAP + 255) & ~255ull;
	pthread_mutex_unlock(&m->lock);
	if (!ok) {
		free(a);
		free(host);
		free(init);
		return false;
	}
	*dptr = base;
	return true;
}

int mem_map(DevMem *m, uint64_t base, size_t bytes, void *host, uint8_t kind, uint8_t flags)
{
	uint64_t end = base + bytes;
	if (!bytes || !host || end < base || bytes > MEM_MAX_ALLOC || base < 4096)
		return MEM_WINDOWED;
	if (base < MEM_FUNC_BASE + MEM_WINDOW && end > MEM_SHARED_BASE)
		return MEM_WINDOWED;
	Alloc *a = calloc(1, sizeof *a);
	if (!a)
		return MEM_NOMEM;
	*a = (Alloc){ .base = base, .size = bytes, .host = host, .kind = kind, .flags = flags };
	pthread_mutex_lock(&m->lock);
	const Alloc *o = overlap(m, base, end);
	int r = MEM_OK;
	if (o) {
		/* a live allocation, or a freed one still held by a launch: its
		 * address is not handed out again while the launch may reach it */
		const CowVer *v = cow_latest(&m->tab);
		size_t i = find_index(v, o->base);
		r = i > 0 && v->item[i - 1] == o ? MEM_OVERLAP : MEM_HELD;
	} else if (!insert(m, a)) {
		r = MEM_NOMEM;
	}
	pthread_mutex_unlock(&m->lock);
	if (r != MEM_OK)
		free(a);
	return r;
}

int mem_free(DevMem *m, uint64_t dptr, uint8_t need)
{
	pthread_mutex_lock(&m->lock);
	const CowVer *v = cow_latest(&m->tab);
	size_t i = find_index(v, dptr);
	Alloc *a = i > 0 ? v->item[i - 1] : NULL;
	int r = !a || a->base != dptr ? MEM_NOT_BASE : (a->flags & need) != need ? MEM_NOT_FREEABLE : MEM_OK;
	CowVer *d = r == MEM_OK ? cow_edit(&m->tab, 0) : NULL;
	if (r == MEM_OK && !d)
		r = MEM_NOMEM;
	if (d) {
		memmove(&d->item[i - 1], &d->item[i], (d->n - i) * sizeof d->item[0]);
		d->n--;
		m->bytes -= a->size;
		cow_retire(&m->tab, &a->cow);
	}
	pthread_mutex_unlock(&m->lock);
	return r;
}

const MemView *mem_pin(DevMem *m)
{
	pthread_mutex_lock(&m->lock);
	const MemView *v = cow_pin(&m->tab);
	pthread_mutex_unlock(&m->lock);
	return v;
}

void mem_unpin(DevMem *m, const MemView *v)
{
	pthread_mutex_lock(&m->lock);
	cow_unpin(&m->tab, v);
	pthread_mutex_unlock(&m->lock);
}

uint8_t *mem_host_own(DevMem *m, uint64_t addr, uint64_t len)
{
	pthread_mutex_lock(&m->lock);
	uint8_t *p = mem_host(cow_latest(&m->tab), addr, len);
	pthread_mutex_unlock(&m->lock);
	return p;
}
