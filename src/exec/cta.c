/* cta.c: CTAs on worker threads: the grid loop, each CTA's warp
 * scheduler and barriers, the watchdog, and the launch's report.
 *
 * A worker takes the next CTA of the grid, runs its warps round-robin (a
 * warp runs until it blocks at a barrier, yields or uses its slice), and
 * releases a barrier when every live warp (or the barrier's thread count)
 * has arrived.  If no warp can run and none is released, the CTA is
 * deadlocked and the launch fails with a report naming the barrier.
 */
#include "warp.h"
#include "../../include/ptxvm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLICE 4096      /* warp instructions before the scheduler looks around */

double exec_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cta_arrive(Cta *c, Warp *w, bool wait)
{
	Barrier *b = &c->bar[w->bar_id];
	uint32_t live = w->valid & ~w->exited;
	b->arrived += live == FULL_MASK ? 32u : (uint32_t)__builtin_popcount(live);
	b->warps++;
	if (w->bar_count)
		b->expected = w->bar_count;
	if (w->bar_ins) {
		b->red_op = 1;
		b->red_count += (uint32_t)__builtin_popcount(w->bar_pred);
		b->red_total += (uint32_t)__builtin_popcount(w->bar_mask);
	}
	if (wait)
		w->state = W_BAR;
}

/* Releases every complete barrier; returns whether one was. */
static bool release(Cta *c, uint32_t live)
{
	bool any = false;
	for (unsigned id = 0; id <= NBARRIERS; id++) {
		Barrier *b = &c->bar[id];
		if (!b->warps)
			continue;
		bool done = b->expected ? b->arrived >= b->expected : b->warps >= live;
		if (!done)
			continue;
		for (uint32_t i = 0; i < c->nwarps; i++) {
			Warp *w = &c->w[i];
			if (w->state == W_BAR && w->bar_id == id) {
				if (w->bar_ins)
					warp_bar_red_done(w, b);
				w->state = W_RUN;
			}
		}
		memset(b, 0, sizeof *b);
		any = true;
	}
	return any;
}

static void deadlock(Cta *c)
{
	for (unsigned id = 0; id <= NBARRIERS; id++) {
		Barrier *b = &c->bar[id];
		if (!b->warps)
			continue;
		const Warp *w = NULL;
		for (uint32_t i = 0; i < c->nwarps && !w; i++)
			if (c->w[i].state == W_BAR && c->w[i].bar_id == id)
				w = &c->w[i];
		const XIns *x = w ? &w->fr[w->nfr - 1].fn->code[w->st[w->nst - 1].pc - 1] : NULL;
		if (b->expected)
			exec_fault(c, w, x, w ? __builtin_ctz(w->bar_mask) : -1, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
				   "barrier %u can never complete: %u of its %u threads arrived and the others have "
				   "exited or wait elsewhere", id, b->arrived, b->expected);
		else
			exec_fault(c, w, x, w ? __builtin_ctz(w->bar_mask) : -1, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
				   "barrier %u can never complete: %u warps arrived, the others wait at another "
				   "barrier or diverged within a warp", id, b->warps);
		return;
	}
	exec_fault(c, NULL, NULL, -1, PTXVM_ERROR_ILLEGAL_INSTRUCTION, "the CTA's warps are deadlocked");
}

static void run_cta(Cta *c)
{
	Launch *L = c->L;
	for (uint32_t i = 0; i < c->nwarps; i++)
		warp_init(c, &c->w[i], i);
	memset(c->bar, 0, sizeof c->bar);
	uint32_t live = c->nwarps;
	while (live && !atomic_load_explicit(&L->stop, memory_order_relaxed)) {
		bool ran = false;
		for (uint32_t i = 0; i < c->nwarps; i++) {
			Warp *w = &c->w[i];
			if (w->state != W_RUN)
				continue;
			ran = true;
			int r = warp_run(c, w, SLICE);
			if (r == RUN_FAULT)
				goto out;
			if (r == RUN_DONE) {
				w->state = W_DONE;
				live--;
			}
		}
		bool rel = release(c, live);
		if (!ran && !rel && live) {
			deadlock(c);
			break;
		}
		if (L->timeout > 0 && exec_now() > L->deadline) {
			/* name where a warp that was still running had got to */
			const Warp *w = NULL;
			for (uint32_t i = 0; i < c->nwarps && !w; i++)
				if (c->w[i].state == W_RUN && c->w[i].nst)
					w = &c->w[i];
			const Entry *e = w ? &w->st[w->nst - 1] : NULL;
			const XFunc *fn = w ? w->fr[w->nfr - 1].fn : NULL;
			const XIns *x = e && e->pc < fn->ncode ? &fn->code[e->pc] : NULL;
			uint32_t live_lanes = e ? e->mask & ~w->exited : 0;
			exec_fault(c, w, x, live_lanes ? __builtin_ctz(live_lanes) : -1, PTXVM_ERROR_LAUNCH_TIMEOUT,
				   "the launch ran longer than its limit of %g s", L->timeout);
			break;
		}
	}
out:
	for (uint32_t i = 0; i < c->nwarps; i++) {
		atomic_fetch_add_explicit(&L->thread_ins, c->w[i].nthr, memory_order_relaxed);
		atomic_fetch_add_explicit(&L->warp_ins, c->w[i].nwarp, memory_order_relaxed);
		warp_fini(&c->w[i]);
	}
}

typedef struct Worker {
	Launch *L;
	unsigned idx;
	pthread_t th;
	int ok;
} Worker;

static void *worker(void *arg)
{
	Worker *wk = arg;
	Launch *L = wk->L;
	Cta c = { .L = L, .worker = wk->idx, .nwarps = L->nwarps };
	c.shared = calloc(L->shared_bytes + 1, 1);
	c.local = calloc((size_t)L->nthreads * L->local_bytes + 1, 1);
	c.w = calloc(L->nwarps, sizeof *c.w);
	if (!c.shared || !c.local || !c.w) {
		exec_fault(&c, NULL, NULL, -1, PTXVM_ERROR_OUT_OF_MEMORY,
			   "no host memory for a CTA (%u bytes shared, %zu bytes local)", L->shared_bytes,
			   (size_t)L->nthreads * L->local_bytes);
		goto done;
	}
	for (;;) {
		if (atomic_load_explicit(&L->stop, memory_order_relaxed))
			break;
		uint64_t id = atomic_fetch_add(&L->next_cta, 1);
		if (id >= L->ncta)
			break;
		c.linear = id;
		c.id[0] = (uint32_t)(id % L->grid[0]);
		c.id[1] = (uint32_t)(id / L->grid[0] % L->grid[1]);
		c.id[2] = (uint32_t)(id / ((uint64_t)L->grid[0] * L->grid[1]));
		/* shared memory and the kernel's own frame start zeroed, so that a
		 * result never depends on which CTA ran on this worker before */
		memset(c.shared, 0, L->shared_bytes);
		if (L->k->frame_bytes)
			for (uint32_t t = 0; t < L->nthreads; t++)
				memset(c.local + (size_t)t * L->local_bytes, 0, L->k->frame_bytes);
		c.out.len = 0;
		run_cta(&c);
		if (c.out.len && L->printf_out) {
			L->printf_out[id] = c.out.p;
			L->printf_len[id] = c.out.len;
			c.out = (Buf){ 0 };
		}
	}
done:
	buf_free(&c.out);
	free(c.shared);
	free(c.local);
	free(c.w);
	return NULL;
}

int launch_run(Launch *L)
{
	atomic_init(&L->stop, 0);
	atomic_init(&L->next_cta, 0);
	atomic_init(&L->thread_ins, 0);
	atomic_init(&L->warp_ins, 0);
	pthread_mutex_init(&L->lock, NULL);
	L->code = 0;
	L->report = NULL;
	L->t0 = exec_now();
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	L->gtimer0 = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
	L->deadline = L->t0 + L->timeout;
	bool prints = false;
	for (uint32_t i = 0; i < L->p->nfn; i++)
		if (!strcmp(L->p->fn[i].name, "vprintf"))
			prints = true;
	if (prints) {
		/* device printf output is kept per CTA; without room for that, the
		 * launch fails rather than drop output */
		L->printf_out = calloc(L->ncta, sizeof *L->printf_out);
		L->printf_len = calloc(L->ncta, sizeof *L->printf_len);
		if (!L->printf_out || !L->printf_len) {
			free(L->printf_out);
			free(L->printf_len);
			L->printf_out = NULL;
			pthread_mutex_destroy(&L->lock);
			L->code = PTXVM_ERROR_OUT_OF_MEMORY;
			if (asprintf(&L->report, "CUDA_ERROR_OUT_OF_MEMORY: kernel '%s': no host memory to keep the "
				     "device printf output of %llu CTAs", L->k->name, (unsigned long long)L->ncta) < 0)
				L->report = NULL;
			return L->code;
		}
	}
	unsigned n = L->workers;
	if ((uint64_t)n > L->ncta)
		n = (unsigned)L->ncta;
	if (n < 1)
		n = 1;
	Worker *wk = calloc(n, sizeof *wk);
	for (unsigned i = 0; i < n; i++) {
		wk[i].L = L;
		wk[i].idx = i;
		wk[i].ok = i == 0 || pthread_create(&wk[i].th, NULL, worker, &wk[i]) == 0;
	}
	worker(&wk[0]);
	for (unsigned i = 1; i < n; i++)
		if (wk[i].ok)
			pthread_join(wk[i].th, NULL);
	free(wk);
	if (L->printf_out) {
		/* device printf: CTA by CTA, so that the output is the same for any
		 * number of workers */
		for (uint64_t i = 0; i < L->ncta; i++)
			if (L->printf_out[i]) {
				fwrite(L->printf_out[i], 1, L->printf_len[i], L->out ? L->out : stdout);
				free(L->printf_out[i]);
			}
		fflush(L->out ? L->out : stdout);
		free(L->printf_out);
		free(L->printf_len);
		L->printf_out = NULL;
	}
	pthread_mutex_destroy(&L->lock);
	return L->code;
}
