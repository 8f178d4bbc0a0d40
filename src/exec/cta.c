/* cta.c: CTAs on worker threads: the grid loop, each CTA's warp
 * scheduler and barriers, the watchdog, and the launch's report.
 *
 * A worker takes the next CTA of the grid, runs its warps round-robin (a
 * warp runs until it blocks at a barrier, yields or uses its slice), and
 * releases a barrier when every live warp (or the barrier's thread count)
 * has arrived.  If no warp can run and none is released, the CTA is
 * deadlocked and the launch fails with a report naming the barrier.
 *
 * With a time limit, the launching thread is the watchdog: it sleeps until
 * the workers are done or the deadline passes, and then stops the launch.
 * Warps look at the stop flag after every instruction, so the launch ends
 * within one instruction of the deadline whatever the kernel does.
 */
#include "warp.h"
#include "san.h"
#include "../../include/ptxvm.h"

#include <errno.h>
#include <math.h>
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
		if (c->chk)
			san_barrier(c->chk, id);
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

/* The launch was stopped while w ran (or was next to run): if the watchdog
 * stopped it, the report names where w had got to. */
static void stopped(Cta *c, const Warp *w)
{
	Launch *L = c->L;
	if (!atomic_load(&L->expired))
		return;
	const Entry *e = w && w->nst ? &w->st[w->nst - 1] : NULL;
	const XFunc *fn = e ? w->fr[w->nfr - 1].fn : NULL;
	const XIns *x = e && e->pc < fn->ncode ? &fn->code[e->pc] : NULL;
	uint32_t lanes = e ? e->mask & ~w->exited : 0;
	exec_fault(c, e ? w : NULL, x, lanes ? __builtin_ctz(lanes) : -1, PTXVM_ERROR_LAUNCH_TIMEOUT,
		   "the launch ran longer than its limit of %g s", L->timeout);
}

static void run_cta(Cta *c)
{
	Launch *L = c->L;
	uint32_t ready = 0;
	while (ready < c->nwarps && warp_init(c, &c->w[ready], ready))
		ready++;
	if (ready < c->nwarps) {
		ready++;        /* the one that failed frees what it took too */
		goto out;
	}
	memset(c->bar, 0, sizeof c->bar);
	uint32_t live = c->nwarps;
	while (live) {
		bool ran = false;
		for (uint32_t i = 0; i < c->nwarps; i++) {
			Warp *w = &c->w[i];
			if (w->state != W_RUN)
				continue;
			ran = true;
			int r = warp_run(c, w, SLICE);
			if (r == RUN_FAULT) {
				stopped(c, w);
				goto out;
			}
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
		if (atomic_load_explicit(&L->stop, memory_order_relaxed)) {
			const Warp *w = NULL;
			for (uint32_t i = 0; i < c->nwarps && !w; i++)
				if (c->w[i].state != W_DONE)
					w = &c->w[i];
			stopped(c, w);
			break;
		}
	}
out:
	for (uint32_t i = 0; i < ready; i++) {
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
	c.chk = san_cta_new(L);
	c.shared_lim = c.chk ? 0 : L->shared_bytes;
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
		bool stop = false;
		if (L->k->frame_bytes)  /* up to 1024 frames: the watchdog may stop it */
			for (uint32_t t = 0; t < L->nthreads && !stop; t++) {
				memset(c.local + (size_t)t * L->local_bytes, 0, L->k->frame_bytes);
				stop = atomic_load_explicit(&L->stop, memory_order_relaxed);
			}
		if (stop)
			break;
		if (c.chk)
			san_cta_begin(c.chk);
		if (L->fifo)
			fifo_cta_begin(L->fifo, &c.pf, id);
		run_cta(&c);
		if (L->fifo)
			fifo_cta_end(L->fifo, &c.pf, id);
	}
done:
	buf_free(&c.pf.recs);
	buf_free(&c.rec);
	free(c.shared);
	free(c.local);
	for (uint32_t i = 0; c.w && i < c.nwarps; i++)
		warp_free(&c.w[i]);
	free(c.w);
	san_cta_free(c.chk);
	pthread_mutex_lock(&L->lock);
	if (!--L->active)
		pthread_cond_signal(&L->idle);
	pthread_mutex_unlock(&L->lock);
	return NULL;
}

/* The watchdog: waits for the workers until the deadline, then stops the
 * launch and waits for them to see it (within one instruction). */
static void watch(Launch *L)
{
	struct timespec dl;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	double whole = floor(L->timeout);
	dl.tv_sec += (time_t)whole;
	dl.tv_nsec += (long)((L->timeout - whole) * 1e9);
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&L->lock);
	while (L->active) {
		if (atomic_load(&L->expired)) {
			pthread_cond_wait(&L->idle, &L->lock);
		} else if (pthread_cond_timedwait(&L->idle, &L->lock, &dl) == ETIMEDOUT && L->active) {
			atomic_store(&L->expired, 1);
			atomic_store(&L->stop, 1);
		}
	}
	pthread_mutex_unlock(&L->lock);
}

/* Longer limits than this (some 30 years) are no limit. */
#define MAX_TIMEOUT 1e9

/* A failure of the launch as a whole, with no CTA to name. */
static void launch_fail(Launch *L, int code, const char *why)
{
	L->code = code;
	if (asprintf(&L->report, "%s: kernel '%s': %s", ptxvm_result_name((ptxvm_result)code), L->k->name, why) < 0)
		L->report = NULL;
}

bool launch_uses_printf(const Prog *p)
{
	for (uint32_t i = 0; i < p->nfn; i++)
		if (!strcmp(p->fn[i].name, "vprintf"))
			return true;
	return false;
}

int launch_run(Launch *L)
{
	atomic_init(&L->stop, 0);
	atomic_init(&L->expired, 0);
	atomic_init(&L->next_cta, 0);
	atomic_init(&L->thread_ins, 0);
	atomic_init(&L->warp_ins, 0);
	pthread_mutex_init(&L->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&L->idle, &ca);
	pthread_condattr_destroy(&ca);
	L->code = 0;
	L->report = NULL;
	L->printf_dropped = 0;
	L->t0 = exec_now();
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	L->gtimer0 = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
	bool watchdog = L->timeout > 0 && L->timeout <= MAX_TIMEOUT;
	san_launch_begin(L->san, L);
	Fifo fifo;
	L->fifo = NULL;
	if (launch_uses_printf(L->p)) {
		fifo_init(&fifo, L->printf_fifo ? L->printf_fifo : FIFO_DEFAULT_BYTES);
		L->fifo = &fifo;
	}
	unsigned n = L->workers;
	if ((uint64_t)n > L->ncta)
		n = (unsigned)L->ncta;
	if (n < 1)
		n = 1;
	Worker *wk = calloc(n, sizeof *wk);
	if (!wk) {
		launch_fail(L, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory to start the launch");
		goto out;
	}
	/* Without a watchdog the launching thread is worker 0. */
	L->active = n;
	unsigned started = 0;
	for (unsigned i = 0; i < n; i++) {
		wk[i].L = L;
		wk[i].idx = i;
		wk[i].ok = (!watchdog && i == 0) || pthread_create(&wk[i].th, NULL, worker, &wk[i]) == 0;
		started += wk[i].ok;
	}
	pthread_mutex_lock(&L->lock);
	L->active -= n - started;
	pthread_mutex_unlock(&L->lock);
	if (L->coop && started < n)     /* the CTAs that run would wait for the others forever */
		launch_fail(L, PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, "a cooperative launch could not run every CTA at once");
	if (!started) {
		launch_fail(L, PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, "no worker thread could be started");
		goto out;
	}
	if (watchdog)
		watch(L);
	else
		worker(&wk[0]);
	for (unsigned i = watchdog ? 0 : 1; i < n; i++)
		if (wk[i].ok)
			pthread_join(wk[i].th, NULL);
	if (atomic_load(&L->expired) && !L->code) {
		/* stopped between CTAs: no warp to name */
		char why[96];
		snprintf(why, sizeof why, "the launch ran longer than its limit of %g s", L->timeout);
		launch_fail(L, PTXVM_ERROR_LAUNCH_TIMEOUT, why);
	}
out:
	free(wk);
	/* device printf: the kept records, CTA by CTA */
	if (L->fifo)
		L->printf_dropped = fifo_finish(L->fifo, L->out ? L->out : stdout);
	L->fifo = NULL;
	san_launch_end(L);
	pthread_cond_destroy(&L->idle);
	pthread_mutex_destroy(&L->lock);
	return L->code;
}
