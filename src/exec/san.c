/* san.c: the runtime checks (san.h, docs/CHECKS.md).  Reports follow
 * compute-sanitizer's wording and layout, line for line, so that users
 * recognise them; sites are named by function and source line (the CUDA
 * line from .loc when the PTX has line info, else the PTX line). */
#include "san.h"
#include "../../include/ptxvm.h"

#include <stdlib.h>
#include <string.h>

#define BAR "========="

struct San {
	unsigned checks;
	FILE *out;
	pthread_mutex_t lock;           /* errors, finished, the output */
	uint64_t errors;
	bool finished;
};

/* A finding: its kind and sites; reported once per launch with its count. */
enum { F_INVALID, F_RACE, F_UNINIT, F_SYNC };
typedef struct Find {
	uint8_t kind;
	uint64_t a, b;          /* the sites' keys (site_key) */
	uint64_t count;
	char *text;             /* the report, without the count */
} Find;

struct SanLaunch {
	San *s;
	const Prog *p;
	pthread_mutex_t lock;
	Find *f;
	size_t n, cap;
	bool short_of_memory;   /* a worker ran without its shadow */
};

/* A shared-memory byte's accesses in the current barrier interval: the
 * last write, and the first read (with whether readers of several warps
 * read it).  An epoch of a CTA never recurs on its worker. */
typedef struct RaceCell {
	uint32_t wep, rep;
	uint32_t wthr, rthr;    /* thread index in the CTA; rthr's high bit: readers of several warps */
	const XIns *wins, *rins;
} RaceCell;
#define MULTI 0x80000000u

struct SanCta {
	SanLaunch *sl;
	unsigned checks;
	uint32_t bytes;         /* the CTA's shared memory */
	uint32_t epoch;
	RaceCell *race;         /* racecheck */
	uint8_t *init;          /* initcheck: a byte per shared byte, non-zero once written */
	const XIns *bar_site[NBARRIERS + 1];    /* where the first warp arrived at each barrier */
};

San *san_create(unsigned checks, FILE *out)
{
	if (!checks)
		return NULL;
	San *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->checks = checks;
	s->out = out ? out : stderr;
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

unsigned san_checks(const San *s) { return s ? s->checks : 0; }

void san_free(San *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	free(s);
}

uint64_t san_finish(San *s, DevMem *mem)
{
	if (!s)
		return 0;
	pthread_mutex_lock(&s->lock);
	if (!s->finished) {
		s->finished = true;
		if (s->checks & PTXVM_CHECK_MEMCHECK) {
			uint64_t bytes = 0, n = 0;
			pthread_mutex_lock(&mem->lock);
			const CowVer *v = cow_latest(&mem->tab);
			for (size_t i = 0; i < v->n; i++) {
				const Alloc *a = v->item[i];
				if (!(a->flags & ALLOC_USER))
					continue;
				fprintf(s->out, BAR " Leaked %llu bytes at 0x%llx\n" BAR "\n", (unsigned long long)a->size,
					(unsigned long long)a->base);
				bytes += a->size;
				n++;
			}
			pthread_mutex_unlock(&mem->lock);
			if (n)
				fprintf(s->out, BAR " LEAK SUMMARY: %llu bytes leaked in %llu allocations\n",
					(unsigned long long)bytes, (unsigned long long)n);
			s->errors += n;
		}
		fprintf(s->out, BAR " ERROR SUMMARY: %llu error%s\n", (unsigned long long)s->errors,
			s->errors == 1 ? "" : "s");
		fflush(s->out);
	}
	uint64_t e = s->errors;
	pthread_mutex_unlock(&s->lock);
	return e;
}

/* ---- launches ----------------------------------------------------------- */
void san_launch_begin(San *s, Launch *L)
{
	L->chk = NULL;
	if (!s)
		return;
	SanLaunch *sl = calloc(1, sizeof *sl);
	if (!sl) {
		pthread_mutex_lock(&s->lock);
		fprintf(s->out, BAR " ptxvm: no host memory to check the launch of '%s': it runs unchecked\n",
			L->k->name);
		pthread_mutex_unlock(&s->lock);
		return;
	}
	sl->s = s;
	sl->p = L->p;
	pthread_mutex_init(&sl->lock, NULL);
	L->chk = sl;
}

void san_launch_end(Launch *L)
{
	SanLaunch *sl = L->chk;
	if (!sl)
		return;
	San *s = sl->s;
	pthread_mutex_lock(&s->lock);
	if (sl->short_of_memory)
		fprintf(s->out, BAR " ptxvm: no host memory for the shadow of shared memory: some CTAs of '%s' "
			"ran without racecheck and initcheck of shared memory\n", L->k->name);
	for (size_t i = 0; i < sl->n; i++) {
		const Find *f = &sl->f[i];
		fputs(f->text, s->out);
		if (f->kind == F_RACE)
			fprintf(s->out, " [%llu hazard%s]", (unsigned long long)f->count, f->count == 1 ? "" : "s");
		fputs("\n" BAR "\n", s->out);
		free(f->text);
	}
	s->errors += sl->n;
	fflush(s->out);
	pthread_mutex_unlock(&s->lock);
	free(sl->f);
	pthread_mutex_destroy(&sl->lock);
	free(sl);
	L->chk = NULL;
}

/* The function holding instruction x. */
static const XFunc *func_of(const Prog *p, const XIns *x)
{
	for (uint32_t i = 0; i < p->nfn; i++)
		if (p->fn[i].code && x >= p->fn[i].code && x < p->fn[i].code + p->fn[i].ncode)
			return &p->fn[i];
	return NULL;
}

/* What makes two sites one: their source line when the PTX has line
 * info (an unrolled loop is one line of many instructions), else the
 * instruction. */
static uint64_t site_key(const Prog *p, const XIns *x)
{
	const XFunc *fn = x ? func_of(p, x) : NULL;
	if (!fn || !fn->loc)
		return (uint64_t)(uintptr_t)x;
	const XLoc *l = &fn->loc[x - fn->code];
	return 1ull << 63 | (uint64_t)(fn - p->fn) << 44 | (uint64_t)(l->file & 0xfff) << 32 | l->line;
}

/* Records a finding, or counts it again; the text is made only the first
 * time (text() is called under the launch's lock). */
typedef void (*TextFn)(Buf *b, const void *arg);
static void find(SanLaunch *sl, uint8_t kind, const XIns *xa, const XIns *xb, TextFn text, const void *arg)
{
	const Prog *p = sl->p;
	uint64_t a = site_key(p, xa), b = site_key(p, xb);
	pthread_mutex_lock(&sl->lock);
	for (size_t i = 0; i < sl->n; i++)
		if (sl->f[i].kind == kind && sl->f[i].a == a && sl->f[i].b == b) {
			sl->f[i].count++;
			pthread_mutex_unlock(&sl->lock);
			return;
		}
	if (sl->n == sl->cap) {
		size_t cap = sl->cap ? sl->cap * 2 : 8;
		Find *f = realloc(sl->f, cap * sizeof *f);
		if (!f) {
			pthread_mutex_unlock(&sl->lock);
			return;
		}
		sl->f = f;
		sl->cap = cap;
	}
	Buf t = { 0 };
	text(&t, arg);
	sl->f[sl->n++] = (Find){ .kind = kind, .a = a, .b = b, .count = 1, .text = t.p };
	pthread_mutex_unlock(&sl->lock);
}

/* "FUNCTION in FILE:LINE": the source line from .loc, else the PTX line. */
static void site(Buf *b, const Prog *p, const XIns *x)
{
	const XFunc *fn = func_of(p, x);
	uint32_t line;
	const char *src = fn ? prog_source(p, fn, (uint32_t)(x - fn->code), &line) : NULL;
	buf_printf(b, "%s in ", fn ? fn->name : "?");
	if (src)
		buf_printf(b, "%s:%u (%s:%u)", src, line, p->file, x->line);
	else
		buf_printf(b, "%s:%u", p->file, x->line);
}

/* The thread and block lines of a report. */
static void who(Buf *b, const Cta *c, const Warp *w, unsigned lane)
{
	const Launch *L = c->L;
	uint32_t t = w->idx * 32 + lane, bx = L->block[0], by = L->block[1];
	buf_printf(b, BAR "     by thread (%u,%u,%u) in block (%u,%u,%u)\n", t % bx, t / bx % by, t / (bx * by),
		   c->id[0], c->id[1], c->id[2]);
}

static const char *mem_space(unsigned sp) { return sp == XS_SHARED ? "__shared__" : sp == XS_LOCAL || sp == XS_FRAME ? "__local__" : "__global__"; }

/* ---- memcheck ----------------------------------------------------------- */
typedef struct Access {
	const Cta *c;
	const Warp *w;
	const XIns *x;
	unsigned lane, sp, n;
	uint64_t addr;
	bool wr, misaligned;
	const char *where;
} Access;

static void invalid_text(Buf *b, const void *arg)
{
	const Access *a = arg;
	buf_printf(b, BAR " Invalid %s %s of size %u bytes\n" BAR "     at ", mem_space(a->sp),
		   a->wr ? "write" : "read", a->n);
	site(b, a->c->L->p, a->x);
	buf_putc(b, '\n');
	who(b, a->c, a->w, a->lane);
	if (a->misaligned)
		buf_printf(b, BAR "     Address 0x%llx is misaligned", (unsigned long long)a->addr);
	else
		buf_printf(b, BAR "     Address 0x%llx is out of bounds\n" BAR "     and %s", (unsigned long long)a->addr,
			   a->where);
}

void san_invalid(Cta *c, const Warp *w, const XIns *x, unsigned lane, unsigned sp, uint64_t addr, unsigned n,
		 bool wr, bool misaligned, const char *where)
{
	SanLaunch *sl = c->L->chk;
	if (!sl || !(sl->s->checks & PTXVM_CHECK_MEMCHECK))
		return;
	Access a = { c, w, x, lane, sp, n, addr, wr, misaligned, where };
	find(sl, F_INVALID, x, NULL, invalid_text, &a);
}

/* ---- initcheck ---------------------------------------------------------- */
static void uninit_text(Buf *b, const void *arg)
{
	const Access *a = arg;
	buf_printf(b, BAR " Uninitialized %s memory read of size %u bytes\n" BAR "     at ", mem_space(a->sp), a->n);
	site(b, a->c->L->p, a->x);
	buf_putc(b, '\n');
	who(b, a->c, a->w, a->lane);
	buf_printf(b, BAR "     Address 0x%llx", (unsigned long long)a->addr);
}

/* Whether bytes [off, off+n) of a bit map are all set; sets them if wr. */
static bool bits(uint8_t *map, uint64_t off, unsigned n, bool wr)
{
	bool all = true;
	for (uint64_t i = off; i < off + n; i++) {
		uint8_t m = (uint8_t)(1u << (i & 7));
		if (wr)
			__atomic_fetch_or(&map[i >> 3], m, __ATOMIC_RELAXED);
		else if (!(__atomic_load_n(&map[i >> 3], __ATOMIC_RELAXED) & m))
			all = false;
	}
	return all;
}

/* ---- racecheck ---------------------------------------------------------- */
typedef struct Race {
	const Prog *p;
	const XIns *a, *b;
	bool awr, bwr;
} Race;

static void race_text(Buf *b, const void *arg)
{
	const Race *r = arg;
	buf_printf(b, BAR " Error: Race reported between %s access at ", r->awr ? "Write" : "Read");
	site(b, r->p, r->a);
	buf_printf(b, "\n" BAR "     and %s access at ", r->bwr ? "Write" : "Read");
	site(b, r->p, r->b);
}

static void race(Cta *c, const XIns *a, bool awr, const XIns *b, bool bwr)
{
	Race r = { c->L->p, a, b, awr, bwr };
	find(c->L->chk, F_RACE, a, b, race_text, &r);
}

/* One thread's access to [off, off+n) of shared memory; at most one
 * hazard of each kind is counted per access. */
static void race_access(Cta *c, SanCta *t, const XIns *x, uint32_t thr, uint64_t off, unsigned n, bool wr)
{
	const XIns *raw = NULL, *waw = NULL, *war = NULL;
	uint32_t e = t->epoch, warp = thr / 32;
	for (uint64_t i = off; i < off + n; i++) {
		RaceCell *k = &t->race[i];
		bool wrote = k->wep == e && k->wthr / 32 != warp;
		if (!wr) {
			if (wrote && !raw)
				raw = k->wins;
			if (k->rep != e)
				k->rep = e, k->rthr = thr, k->rins = x;
			else if ((k->rthr & ~MULTI) / 32 != warp)
				k->rthr |= MULTI;
			continue;
		}
		if (wrote && !waw)
			waw = k->wins;
		if (k->rep == e && (k->rthr & MULTI || k->rthr / 32 != warp) && !war)
			war = k->rins;
		k->wep = e, k->wthr = thr, k->wins = x;
	}
	if (raw)
		race(c, raw, true, x, false);
	if (waw)
		race(c, waw, true, x, true);
	if (war)
		race(c, war, false, x, true);
}

/* ---- the hooks ---------------------------------------------------------- */
void san_access(Cta *c, const Warp *w, const XIns *x, unsigned lane, const Alloc *al, uint64_t off,
		unsigned n, bool wr)
{
	SanCta *t = c->chk;
	bool atomic = x->op == OPC_atom || x->op == OPC_red;
	if (al) {
		if (al->init && t->checks & PTXVM_CHECK_INITCHECK && !bits(al->init, off, n, wr || atomic)) {
			Access a = { c, w, x, lane, XS_GLOBAL, n, al->base + off, false, false, NULL };
			find(t->sl, F_UNINIT, x, NULL, uninit_text, &a);
		}
		return;
	}
	if (off + n > t->bytes)
		return;         /* no shadow (short of memory) */
	if (t->init) {
		bool all = true;
		for (uint64_t i = off; i < off + n; i++) {
			all &= t->init[i] != 0;
			if (wr || atomic)
				t->init[i] = 1;
		}
		if (!all && !wr && !atomic) {
			Access a = { c, w, x, lane, XS_SHARED, n, MEM_SHARED_BASE + off, false, false, NULL };
			find(t->sl, F_UNINIT, x, NULL, uninit_text, &a);
		}
	}
	if (t->race && !atomic)
		race_access(c, t, x, w->idx * 32 + lane, off, n, wr);
}

static void sync_text(Buf *b, const void *arg)
{
	const Access *a = arg;
	buf_printf(b, BAR " Barrier error detected. Divergent thread(s) in warp\n" BAR "     at ");
	site(b, a->c->L->p, a->x);
	buf_putc(b, '\n');
	who(b, a->c, a->w, a->lane);
	buf_printf(b, BAR "     %u of the warp's %u live threads reached the barrier (lanes 0x%08x)", (unsigned)a->addr,
		   a->n, (unsigned)(a->addr >> 32));
}

typedef struct Split {
	Access a;
	const XIns *other;
} Split;

static void split_text(Buf *b, const void *arg)
{
	const Split *s = arg;
	buf_printf(b, BAR " Barrier error detected. Divergent thread(s) in block\n" BAR "     at ");
	site(b, s->a.c->L->p, s->a.x);
	buf_putc(b, '\n');
	who(b, s->a.c, s->a.w, s->a.lane);
	buf_printf(b, BAR "     while other threads of the block wait at ");
	site(b, s->a.c->L->p, s->other);
}

void san_arrive(Cta *c, const Warp *w, const XIns *x, uint32_t act, unsigned id)
{
	SanCta *t = c->chk;
	if (!(t->checks & PTXVM_CHECK_SYNCCHECK))
		return;
	uint32_t live = w->valid & ~w->exited;
	if (act != live) {
		Access a = { c, w, x, (unsigned)__builtin_ctz(act), XS_NONE, (unsigned)__builtin_popcount(live),
			     (uint64_t)act << 32 | (unsigned)__builtin_popcount(act), false, false, NULL };
		find(t->sl, F_SYNC, x, NULL, sync_text, &a);
	}
	if (!t->bar_site[id]) {
		t->bar_site[id] = x;
	} else if (t->bar_site[id] != x) {
		Split s = { { c, w, x, (unsigned)__builtin_ctz(act), XS_NONE, 0, 0, false, false, NULL }, t->bar_site[id] };
		find(t->sl, F_SYNC, x, t->bar_site[id], split_text, &s);
	}
}

/* ---- workers ------------------------------------------------------------ */
SanCta *san_cta_new(Launch *L)
{
	SanLaunch *sl = L->chk;
	if (!sl)
		return NULL;
	SanCta *t = calloc(1, sizeof *t);
	if (!t)
		goto short_of_memory;
	t->sl = sl;
	t->checks = sl->s->checks;
	t->bytes = L->shared_bytes;
	if (t->checks & PTXVM_CHECK_RACECHECK && !(t->race = calloc((size_t)t->bytes + 1, sizeof *t->race)))
		t->bytes = 0;
	if (t->checks & PTXVM_CHECK_INITCHECK && !(t->init = malloc((size_t)t->bytes + 1)))
		t->bytes = 0;
	if (t->bytes || !L->shared_bytes)
		return t;
short_of_memory:
	pthread_mutex_lock(&sl->lock);
	sl->short_of_memory = true;
	pthread_mutex_unlock(&sl->lock);
	if (t) {
		free(t->race);
		free(t->init);
		t->race = NULL, t->init = NULL;
		t->bytes = 0;
	}
	return t;
}

void san_cta_free(SanCta *t)
{
	if (!t)
		return;
	free(t->race);
	free(t->init);
	free(t);
}

void san_cta_begin(SanCta *t)
{
	t->epoch++;
	memset(t->bar_site, 0, sizeof t->bar_site);
	if (t->init)
		memset(t->init, 0, t->bytes);
}

void san_barrier(SanCta *t, unsigned id)
{
	t->epoch++;
	t->bar_site[id] = NULL;
}
