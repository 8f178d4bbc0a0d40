/* cta.c: CTAs on worker threads: the grid loop, each cluster's warp
 * scheduler and barriers, the watchdog, and the launch's report.
 *
 * A worker takes the next cluster of the grid (one CTA unless the launch
 * has clusters), runs the warps of all its CTAs round-robin (a warp runs
 * until it blocks at a barrier, yields or uses its slice), and releases a
 * CTA's barrier when every live warp of the CTA (or the barrier's thread
 * count) has arrived, barrier.cluster when every live thread of the
 * cluster has.  Running a cluster's CTAs on one host thread makes them
 * concurrent, as the hardware guarantees, so that they can wait for each
 * other and reach each other's shared memory.  If no warp can run and
 * none is released, the cluster is deadlocked and the launch fails with a
 * report naming the barrier.
 *
 * With a time limit, the launching thread is the watchdog: it sleeps until
 * the workers are done or the deadline passes, and then stops the launch.
 * Warps look at the stop flag after every instruction, so the launch ends
 * within one instruction of the deadline whatever the kernel does.
 */
#include "warp.h"
#include "san.h"
#include "pool.h"
#include "solo.h"
#include "../../include/ptxvm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* Warp instructions before the scheduler looks around: short enough that
 * the warps of a CTA take turns through a grid-stride loop and read
 * neighbouring memory together (a warp running its whole loop alone reads
 * a line in every stride), long enough to cost nothing.  Under the checks
 * (san.c) a warp runs as long as before, to its barrier usually, since
 * racecheck names each hazard's accesses in the order they ran. */
#define SLICE 256
#define SLICE_CHECKED 4096

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
	c->bar_busy |= 1u << w->bar_id;
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
	for (uint32_t busy = c->bar_busy; busy; busy &= busy - 1) {
		unsigned id = (unsigned)__builtin_ctz(busy);
		Barrier *b = &c->bar[id];
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
		c->bar_busy &= ~(1u << id);
		if (c->chk)
			san_barrier(c->chk, id);
		any = true;
	}
	return any;
}

static uint32_t live_threads(const Cta *c)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < c->nwarps; i++)
		if (c->w[i].state != W_DONE)
			n += (uint32_t)__builtin_popcount(c->w[i].valid & ~c->w[i].exited);
	return n;
}

void cluster_arrive(Cta *c, Warp *w, uint32_t act)
{
	w->cl_phase = c->cl->phase + 1;
	c->cl->arrived += (uint32_t)__builtin_popcount(act & ~w->exited);
}

bool cluster_wait(Cta *c, Warp *w)
{
	if (w->cl_phase != c->cl->phase + 1)
		return false;   /* its phase has completed (or it never arrived) */
	w->state = W_CLUSTER;
	return true;
}

/* Completes barrier.cluster's phase once every live thread of the cluster
 * has arrived; returns whether it did. */
static bool release_cluster(Cluster *cl)
{
	if (!cl->arrived)
		return false;
	uint64_t live = 0;
	for (uint32_t r = 0; r < cl->n; r++)
		live += live_threads(&cl->cta[r]);
	if (cl->arrived < live)
		return false;
	cl->phase++;
	cl->arrived = 0;
	for (uint32_t r = 0; r < cl->n; r++)
		for (uint32_t i = 0; i < cl->cta[r].nwarps; i++)
			if (cl->cta[r].w[i].state == W_CLUSTER)
				cl->cta[r].w[i].state = W_RUN;
	return true;
}

/* Reports why c, whose cluster can make no progress, is stuck; false if
 * nothing in c waits. */
static bool deadlock(Cta *c)
{
	for (unsigned id = 0; id < NBARRIERS; id++) {
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
		return true;
	}
	for (uint32_t i = 0; i < c->nwarps; i++) {
		const Warp *w = &c->w[i];
		if (w->state != W_CLUSTER)
			continue;
		const XIns *x = &w->fr[w->nfr - 1].fn->code[w->st[w->nst - 1].pc - 1];
		exec_fault(c, w, x, __builtin_ctz(w->valid & ~w->exited), PTXVM_ERROR_ILLEGAL_INSTRUCTION,
			   "barrier.cluster can never complete: %llu threads of the cluster's %u CTAs arrived, "
			   "the others wait at another barrier", (unsigned long long)c->cl->arrived, c->cl->n);
		return true;
	}
	return false;
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

/* Runs the CTAs of cluster cl together. */
static void run_cluster(Cluster *cl)
{
	Launch *L = cl->cta[0].L;
	int (*run)(Cta *, Warp *, uint64_t) = L->run && !L->chk ? L->run : warp_run;
	uint64_t slice = L->chk ? SLICE_CHECKED : SLICE;
	uint32_t started = 0, ready = 0;        /* CTAs set up, warps of the last one */
	for (; started < cl->n; started++) {
		Cta *c = &cl->cta[started];
		for (ready = 0; ready < c->nwarps && warp_init(c, &c->w[ready], ready); ready++)
			c->w[ready].cl_phase = 0;
		memset(c->bar, 0, sizeof c->bar);
		c->bar_busy = 0;
		if (ready < c->nwarps) {
			ready++;        /* the one that failed frees what it took too */
			started++;
			goto out;
		}
	}
	cl->phase = 0;
	cl->arrived = 0;
	uint64_t live = (uint64_t)cl->n * cl->cta[0].nwarps;
	while (live) {
		bool ran = false, rel = false;
		for (uint32_t r = 0; r < cl->n; r++) {
			Cta *c = &cl->cta[r];
			uint32_t clive = 0;
			for (uint32_t i = 0; i < c->nwarps; i++) {
				Warp *w = &c->w[i];
				if (w->state != W_RUN) {
					clive += w->state != W_DONE;
					continue;
				}
				ran = true;
				int rr = run(c, w, slice);
				if (rr == RUN_FAULT) {
					stopped(c, w);
					goto out;
				}
				if (rr == RUN_DONE) {
					w->state = W_DONE;
					live--;
				} else {
					clive++;
				}
			}
			rel |= release(c, clive);
		}
		if (cl->n > 1 || cl->arrived)
			rel |= release_cluster(cl);
		if (!ran && !rel && live) {
			bool told = false;
			for (uint32_t r = 0; r < cl->n && !told; r++)
				told = deadlock(&cl->cta[r]);
			if (!told)
				exec_fault(&cl->cta[0], NULL, NULL, -1, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
					   "the cluster's warps are deadlocked");
			break;
		}
		solo_poll(L);
		if (atomic_load_explicit(&L->stop, memory_order_relaxed)) {
			const Warp *w = NULL;
			Cta *c = &cl->cta[0];
			for (uint32_t r = 0; r < cl->n && !w; r++)
				for (uint32_t i = 0; i < cl->cta[r].nwarps && !w; i++)
					if (cl->cta[r].w[i].state != W_DONE)
						c = &cl->cta[r], w = &c->w[i];
			stopped(c, w);
			break;
		}
	}
	ready = cl->cta[0].nwarps;
	started = cl->n;
out:
	for (uint32_t r = 0; r < started; r++) {
		Cta *c = &cl->cta[r];
		uint32_t nw = r + 1 == started ? ready : c->nwarps;
		for (uint32_t i = 0; i < nw; i++) {
			cl->thread_ins += c->w[i].nthr;
			cl->warp_ins += c->w[i].nwarp;
			warp_fini(&c->w[i]);
		}
	}
}

typedef struct Worker {
	Launch *L;
	unsigned idx;
	int ok;
	PoolJob job;            /* a thread of the pool runs it (pool.h) */
} Worker;

/* The most clusters a worker takes at a turn.  One at a time, two workers'
 * turns alternated: each fetched every other CTA's memory and bid for the
 * grid's counter at every CTA (vector add and saxpy 10-15% slower with 2
 * workers than with turns of 32). */
#define CTA_TURN 32

/* Local memory from this many bytes a CTA is mapped, not allocated. */
#define LOCAL_MAP_MIN (256u << 10)

/* A CTA's host memory, for CTA after CTA; false without it. */
static bool cta_alloc(Cta *c, Launch *L, Cluster *cl, unsigned worker, uint32_t rank)
{
	*c = (Cta){ .L = L, .cl = cl, .rank = rank, .worker = worker, .nwarps = L->nwarps };
	c->shared = calloc(L->shared_bytes + 1, 1);
	/* each thread's local memory, the call stack included (16 KiB each by
	 * default), zeroed.  From LOCAL_MAP_MIN on, pages of zeros the system
	 * maps as they are first touched: most kernels touch little or none
	 * of it, and zeroing it all was most of a small grid's launch (a
	 * 128-thread CTA's 2 MiB); below, the heap's, which costs less than
	 * the mapping's system calls. */
	size_t local = (size_t)L->nthreads * L->local_bytes + 1;
	if (local >= LOCAL_MAP_MIN) {
		c->local_map = local;
		c->local = mmap(NULL, local, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (c->local == MAP_FAILED)
			c->local = NULL;
	} else {
		c->local = calloc(local, 1);
	}
	c->w = calloc(L->nwarps, sizeof *c->w);
	c->chk = san_cta_new(L);
	c->shared_lim = c->chk ? 0 : L->shared_bytes;   /* checks: every shared access on the slow path */
	return c->shared && c->local && c->w;
}

static void cta_free(Cta *c)
{
	buf_free(&c->pf.recs);
	buf_free(&c->rec);
	free(c->shared);
	if (c->local_map && c->local)
		munmap(c->local, c->local_map);
	else
		free(c->local);
	for (uint32_t i = 0; c->w && i < c->nwarps; i++)
		warp_free(&c->w[i]);
	free(c->w);
	san_cta_free(c->chk);
}

/* Sets up CTA c for its turn at grid position id (each of x, y, z). */
static bool cta_begin(Cta *c, const uint32_t id[3])
{
	Launch *L = c->L;
	memcpy(c->id, id, sizeof c->id);
	c->linear = id[0] + (uint64_t)L->grid[0] * (id[1] + (uint64_t)L->grid[1] * id[2]);
	cta_sreg_values(c);
	/* shared memory and the kernel's own frame start zeroed, so that a
	 * result never depends on which CTA ran on this worker before */
	memset(c->shared, 0, L->shared_bytes);
	if (L->k->frame_bytes)  /* up to 1024 frames: the watchdog may stop it */
		for (uint32_t t = 0; t < L->nthreads; t++) {
			memset(c->local + (size_t)t * L->local_bytes, 0, L->k->frame_bytes);
			if (atomic_load_explicit(&L->stop, memory_order_relaxed))
				return false;
		}
	if (c->chk)
		san_cta_begin(c->chk);
	if (L->fifo)
		fifo_cta_begin(L->fifo, &c->pf, c->linear);
	return true;
}

static void *worker(void *arg)
{
	Worker *wk = arg;
	Launch *L = wk->L;
	solo_worker(L);
	Cluster cl = { .n = L->ncl };
	cl.cta = calloc(L->ncl, sizeof *cl.cta);
	bool ok = cl.cta != NULL;
	for (uint32_t r = 0; ok && r < L->ncl; r++)
		ok = cta_alloc(&cl.cta[r], L, &cl, wk->idx, r);
	if (!ok) {
		Cta c = { .L = L, .worker = wk->idx };
		exec_fault(&c, NULL, NULL, -1, PTXVM_ERROR_OUT_OF_MEMORY,
			   "no host memory for a cluster of %u CTAs (%u bytes shared, %zu bytes local each)", L->ncl,
			   L->shared_bytes, (size_t)L->nthreads * L->local_bytes);
		goto done;
	}
	/* clusters in the grid's order; the CTAs of one by rank, x fastest */
	uint32_t cg[3] = { L->grid[0] / L->cluster[0], L->grid[1] / L->cluster[1], L->grid[2] / L->cluster[2] };
	uint64_t nclusters = L->ncta / L->ncl;
	/* clusters taken a turn at a time, in order: up to CTA_TURN for a kernel
	 * whose CTAs cannot wait for each other (XFunc.alone), fewer where each
	 * worker would get under 64 turns (the last turns even the workers
	 * out); one at a time for the others, so that a CTA that waits for its
	 * predecessor (CUB's decoupled look-back) finds it running on another
	 * worker, not queued behind it on its own */
	uint64_t turn = L->coop || !L->k->alone ? 1 : nclusters / ((uint64_t)L->workers * 64);
	turn = turn < 1 ? 1 : turn > CTA_TURN ? CTA_TURN : turn;
	uint64_t next = 0, end = 0;
	for (;;) {
		if (atomic_load_explicit(&L->stop, memory_order_relaxed))
			break;
		if (next == end) {
			next = atomic_fetch_add(&L->next_cta, turn);
			end = next + turn < nclusters ? next + turn : nclusters;
		}
		uint64_t k = next++;
		if (k >= nclusters)
			break;
		uint32_t cid[3] = { (uint32_t)(k % cg[0]), (uint32_t)(k / cg[0] % cg[1]),
				    (uint32_t)(k / ((uint64_t)cg[0] * cg[1])) };
		bool stop = false;
		uint32_t r = 0;
		for (; r < L->ncl; r++) {
			uint32_t in[3] = { r % L->cluster[0], r / L->cluster[0] % L->cluster[1],
					   r / (L->cluster[0] * L->cluster[1]) };
			uint32_t id[3];
			for (int d = 0; d < 3; d++)
				id[d] = cid[d] * L->cluster[d] + in[d];
			if ((stop = !cta_begin(&cl.cta[r], id)))
				break;
		}
		if (!stop)
			run_cluster(&cl);
		if (L->fifo)
			for (uint32_t q = 0; q < r; q++)
				fifo_cta_end(L->fifo, &cl.cta[q].pf, cl.cta[q].linear);
		if (stop)
			break;
	}
done:
	atomic_fetch_add_explicit(&L->thread_ins, cl.thread_ins, memory_order_relaxed);
	atomic_fetch_add_explicit(&L->warp_ins, cl.warp_ins, memory_order_relaxed);
	if (cl.cta)
		for (uint32_t r = 0; r < L->ncl; r++)
			cta_free(&cl.cta[r]);
	free(cl.cta);
	solo_worker(NULL);
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

bool launch_uses_heap(const Prog *p)
{
	for (uint32_t i = 0; i < p->nfn; i++)
		if (!(p->fn[i].ast && p->fn[i].ast->has_body) && (!strcmp(p->fn[i].name, "malloc") || !strcmp(p->fn[i].name, "free") ||
					  !strcmp(p->fn[i].name, "__cuda_syscall_aligned_malloc") ||
					  !strcmp(p->fn[i].name, "__cudaCDP2Malloc") ||     /* device cudaMalloc */
					  !strcmp(p->fn[i].name, "__cudaCDP2Free")))
			return true;
	return false;
}

unsigned exec_max_threads(const XFunc *k)
{
	const Func *f = k->ast;
	unsigned max = EXEC_MAX_THREADS;
	for (uint32_t i = 0; f && i < f->nperf; i++)
		if (f->perf[i].kind == PD_MAXNTID || f->perf[i].kind == PD_REQNTID) {
			uint64_t n = 1;
			for (unsigned j = 0; j < f->perf[i].n; j++)
				n *= f->perf[i].v[j];
			if (n < max)
				max = (unsigned)n;
		}
	return max;
}

int exec_occupancy(const int *attrs, unsigned max_threads, int block, uint64_t shared)
{
	if (block <= 0 || (unsigned)block > max_threads)
		return 0;
	int warps = (block + 31) / 32;
	int n = attrs[106];                                     /* MAX_BLOCKS_PER_MULTIPROCESSOR */
	int by_threads = attrs[39] / (warps * 32);              /* MAX_THREADS_PER_MULTIPROCESSOR */
	int by_regs = attrs[82] / (warps * 32 * 32);            /* MAX_REGISTERS_PER_MULTIPROCESSOR */
	uint64_t smem = shared + (uint64_t)attrs[111];          /* the reserved kilobyte */
	int by_smem = smem ? (int)((uint64_t)attrs[81] / smem) : n;     /* MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
	if (by_threads < n)
		n = by_threads;
	if (by_regs < n)
		n = by_regs;
	if (by_smem < n)
		n = by_smem;
	return n;
}

bool launch_uses_cdp(const Prog *p)
{
	for (uint32_t i = 0; i < p->nfn; i++)
		if (!(p->fn[i].ast && p->fn[i].ast->has_body) &&
		    (strstr(p->fn[i].name, "LaunchDevice") || strstr(p->fn[i].name, "Memcpy") ||
		     strstr(p->fn[i].name, "Memset")))  /* copies: ordered among the launches */
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
	if ((uint64_t)n > L->ncta / L->ncl)
		n = (unsigned)(L->ncta / L->ncl);
	if (n < 1)
		n = 1;
	solo_begin(L, n == 1);
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
		wk[i].job = (PoolJob){ .fn = worker, .arg = &wk[i] };
		wk[i].ok = (!watchdog && i == 0) || pool_run(&wk[i].job);
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
	if (watchdog) {
		watch(L);
	} else {
		worker(&wk[0]);
		pthread_mutex_lock(&L->lock);   /* the pool's workers: each ends by counting itself out */
		while (L->active)
			pthread_cond_wait(&L->idle, &L->lock);
		pthread_mutex_unlock(&L->lock);
	}
	if (atomic_load(&L->expired) && !L->code) {
		/* stopped between CTAs: no warp to name */
		char why[96];
		snprintf(why, sizeof why, "the launch ran longer than its limit of %g s", L->timeout);
		launch_fail(L, PTXVM_ERROR_LAUNCH_TIMEOUT, why);
	}
out:
	solo_end(L);
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
