/* devgraph.c: graphs launched from kernels (CUDA's device graph launch,
 * docs/EXECUTION.md "Graphs launched from kernels").  The embedder
 * registers the graphs kernels may launch; a kernel running as a node of
 * a graph queues its cudaGraphLaunch calls in that graph's execution
 * environment, and this file runs them in CUDA's order once the graph's
 * own nodes have run:
 *
 *   - fire-and-forget launches (cudaStreamGraphFireAndForget) run as
 *     children of the launching graph, each in an environment of its own
 *     under the launcher's, in the order of their launches; the launching
 *     graph is complete when they are;
 *   - sibling launches (cudaStreamGraphFireAndForgetAsSibling) are
 *     fire-and-forget launches of the launching graph's parent environment
 *     (the stream's, for a graph launched from the host);
 *   - tail launches (cudaStreamGraphTailLaunch) run after the launching
 *     graph and all its fire-and-forget work, one at a time in the order
 *     they were queued, each taking the launcher's place under its parent,
 *     so that the tail launches a tail graph queues run before those queued
 *     before it.
 *
 * Everything runs on the thread of the host's launch, one graph at a time:
 * one of the schedules CUDA allows.  A guest's handle is only ever looked
 * up in the table, never followed. */
#include "host.h"

#include "../exec/exec.h"

#include <stdlib.h>
#include <string.h>

/* the stream's top byte: the device-only graph launch streams */
enum { MODE_TAIL = 1, MODE_FIRE_AND_FORGET = 2, MODE_SIBLING = 3 };
#define MAX_FIRE_AND_FORGET 120         /* per graph, over its run (the programming guide) */
#define MAX_TAIL 255                    /* pending tail launches of a graph (the programming guide) */

typedef struct Queue {
	uint64_t *v;
	size_t n, cap;
} Queue;

typedef struct Tree Tree;

struct ptxvm_graph_env {
	GraphNode node;                 /* what its kernels see: first, so that it is the env */
	Tree *tr;                       /* the host launch it is part of */
	ptxvm_graph_cond_fn cond;       /* its conditional nodes' values (the embedder's) */
	void *cond_arg;
	ptxvm_graph_update_fn update;   /* device-updatable kernel nodes (the embedder's) */
	void *update_arg;
	ptxvm_device *d;
	DevGraphs *t;
	struct ptxvm_graph_env *parent; /* NULL: the stream's environment */
	uint64_t graph;                 /* the graph running in it; 0: the stream's, or a host graph */
	Queue faf;                      /* fire-and-forget launches into it, in order */
	unsigned launched;              /* how many over its run */
	Queue tail;                     /* its tail launches, in order */
	bool self_queued;               /* one of them relaunches its own graph */
};

GraphNode *devgraph_node(ptxvm_graph_env *env) { return &env->node; }

void devgraphs_init(DevGraphs *g)
{
	memset(g, 0, sizeof *g);
	pthread_mutex_init(&g->lock, NULL);
}

void devgraphs_fini(DevGraphs *g)
{
	free(g->v);
	pthread_mutex_destroy(&g->lock);
}

/* The registered graph of that handle, or NULL (under t->lock). */
static DevGraph *find(DevGraphs *t, uint64_t h)
{
	for (size_t i = 0; h && i < t->n; i++)
		if (t->v[i].handle == h)
			return &t->v[i];
	return NULL;
}

static bool push(Queue *q, uint64_t h)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 8;
		uint64_t *v = realloc(q->v, cap * sizeof *v);
		if (!v)
			return false;
		q->v = v, q->cap = cap;
	}
	q->v[q->n++] = h;
	return true;
}

ptxvm_result ptxvm_graph_register(ptxvm_device *d, uint64_t graph, ptxvm_graph_fn run, void *arg)
{
	if (!d || !graph || !run)
		return host_say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_graph_register: NULL argument");
	DevGraphs *t = host_dev(d).graphs;
	pthread_mutex_lock(&t->lock);
	DevGraph *g = find(t, graph);
	if (!g && t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		DevGraph *v = realloc(t->v, cap * sizeof *v);
		if (v)
			t->v = v, t->cap = cap;
	}
	if (!g && t->n < t->cap)
		g = &t->v[t->n++], *g = (DevGraph){ .handle = graph };
	if (g)
		g->run = run, g->arg = arg;
	pthread_mutex_unlock(&t->lock);
	return g ? PTXVM_SUCCESS : host_say(d, PTXVM_ERROR_OUT_OF_MEMORY, "ptxvm_graph_register: out of memory");
}

ptxvm_result ptxvm_graph_unregister(ptxvm_device *d, uint64_t graph)
{
	if (!d)
		return host_say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_graph_unregister: NULL device");
	DevGraphs *t = host_dev(d).graphs;
	pthread_mutex_lock(&t->lock);
	DevGraph *g = find(t, graph);
	if (g)
		*g = t->v[--t->n];
	pthread_mutex_unlock(&t->lock);
	return g ? PTXVM_SUCCESS : host_say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_graph_unregister: graph %#llx is "
					     "not registered", (unsigned long long)graph);
}

/* cudaGraphLaunch(graph, stream) by a thread of a kernel of the graph
 * running in env (several workers may call at once): queued, or the
 * cudaError_t the call returns.  A graph running (its nodes or their
 * fire-and-forget work) or queued to run fire-and-forget cannot be
 * launched again, but for its own one tail relaunch;
 * every error is cudaErrorInvalidValue but the limits on launches, which
 * are cudaErrorLaunchPendingCountExceeded (to confirm on hardware). */
static int env_launch(GraphNode *node, uint64_t graph, uint64_t stream)
{
	ptxvm_graph_env *e = (ptxvm_graph_env *)node;
	unsigned mode = (unsigned)(stream >> 56);
	if (stream & ((1ull << 56) - 1) || mode < MODE_TAIL || mode > MODE_SIBLING)
		return cudaErrorInvalidValue;       /* an ordinary stream: not for graphs in kernels */
	DevGraphs *t = e->t;
	int r = 0;
	pthread_mutex_lock(&t->lock);
	DevGraph *g = find(t, graph);
	ptxvm_graph_env *to = mode == MODE_SIBLING ? e->parent : e;
	bool self = graph == e->graph;
	if (!g)
		r = cudaErrorInvalidValue;          /* not made for device launch and uploaded, or forged, or destroyed */
	else if (mode == MODE_TAIL) {
		if (self ? e->self_queued : g->busy != 0)
			r = cudaErrorInvalidValue;
		else if (e->tail.n >= MAX_TAIL)
			r = cudaErrorLaunchPendingCountExceeded;
		else if (!push(&e->tail, graph))
			r = 2;                  /* cudaErrorMemoryAllocation */
		else
			e->self_queued |= self;
	} else {
		if (g->busy || !to)
			r = cudaErrorInvalidValue;
		else if (to->launched >= MAX_FIRE_AND_FORGET)
			r = cudaErrorLaunchPendingCountExceeded;
		else if (!push(&to->faf, graph))
			r = 2;
		else
			to->launched++, g->busy++;
	}
	pthread_mutex_unlock(&t->lock);
	return r;
}

/* busy of graph h changes by delta, if it is still registered. */
static void busy(DevGraphs *t, uint64_t h, int delta)
{
	pthread_mutex_lock(&t->lock);
	DevGraph *g = find(t, h);
	if (g && (delta > 0 || g->busy))       /* registered anew meanwhile: from 0 */
		g->busy += (unsigned)delta;
	pthread_mutex_unlock(&t->lock);
}

/* The function that runs graph h now (false: no longer registered). */
static bool runner(DevGraphs *t, uint64_t h, ptxvm_graph_fn *run, void **arg)
{
	pthread_mutex_lock(&t->lock);
	DevGraph *g = find(t, h);
	if (g)
		*run = g->run, *arg = g->arg;
	pthread_mutex_unlock(&t->lock);
	return g != NULL;
}

struct Tree {
	ptxvm_device *d;
	DevGraphs *t;
	double t0, limit;               /* the whole tree's start and the device's time limit */
};

/* A thread's cudaGraphSetConditional: the embedder's answer. */
static int env_set_cond(GraphNode *node, uint64_t handle, unsigned value)
{
	ptxvm_graph_env *e = (ptxvm_graph_env *)node;
	return e->cond ? e->cond(e->cond_arg, handle, value) : -1;
}

/* A thread's device-side update of a kernel node: the embedder's answer. */
static int env_update(GraphNode *node, const ptxvm_node_update *u)
{
	ptxvm_graph_env *e = (ptxvm_graph_env *)node;
	return e->update ? e->update(e->update_arg, u) : cudaErrorNotSupported;
}

void ptxvm_graph_env_updates(ptxvm_graph_env *env, ptxvm_graph_update_fn update, void *arg)
{
	if (env)
		env->update = update, env->update_arg = arg;
}

void ptxvm_graph_env_conditionals(ptxvm_graph_env *env, ptxvm_graph_cond_fn set, void *arg)
{
	if (env)
		env->cond = set, env->cond_arg = arg;
}

static ptxvm_result expired(Tree *tr)
{
	if (tr->limit > 0 && exec_now() - tr->t0 > tr->limit)
		return host_say(tr->d, PTXVM_ERROR_LAUNCH_TIMEOUT, "a graph launch (its loops and the graphs its "
				"kernels launched) ran past the device's time limit of %g s", tr->limit);
	return PTXVM_SUCCESS;
}

ptxvm_result ptxvm_graph_env_expired(ptxvm_graph_env *env)
{
	return env && env->tr ? expired(env->tr) : PTXVM_SUCCESS;
}

static ptxvm_result gone(Tree *tr, uint64_t h)
{
	return host_say(tr->d, PTXVM_ERROR_INVALID_HANDLE, "a graph launched from a kernel (%#llx) was destroyed before "
			"its launch ran", (unsigned long long)h);
}

static ptxvm_result run_faf(Tree *tr, ptxvm_graph_env *e, ptxvm_result r);

/* Runs graph h (with run, arg) in an environment under parent, then its
 * fire-and-forget work, then its tail launches, each in its turn. */
static ptxvm_result run_graph(Tree *tr, uint64_t h, ptxvm_graph_fn run, void *arg, ptxvm_graph_env *parent)
{
	Queue tails = { 0 };            /* to run, the next last */
	ptxvm_result r = PTXVM_SUCCESS;
	for (;;) {
		if ((r = expired(tr)))
			break;
		pthread_mutex_lock(&tr->t->lock);
		bool known = find(tr->t, h) != NULL;
		pthread_mutex_unlock(&tr->t->lock);
		ptxvm_graph_env e = { .node = { .exec = known ? h : 0, .launch = env_launch, .set_cond = env_set_cond,
					.update = env_update },
				      .tr = tr, .d = tr->d, .t = tr->t, .parent = parent, .graph = h };
		/* running from here until its own work is complete: its tail
		 * launches may launch it again */
		busy(tr->t, h, 1);
		r = run_faf(tr, &e, run(arg, h, &e));
		busy(tr->t, h, -1);
		/* its tail launches come before those queued before them */
		for (size_t i = e.tail.n; !r && i-- > 0;)
			if (!push(&tails, e.tail.v[i]))
				r = host_say(tr->d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for a tail launch");
		free(e.tail.v);
		free(e.faf.v);
		if (r || !tails.n)
			break;
		h = tails.v[--tails.n];
		if (!runner(tr->t, h, &run, &arg)) {
			r = gone(tr, h);
			break;
		}
	}
	free(tails.v);
	return r;
}

/* Runs the fire-and-forget launches into e, in order, those that arrive
 * meanwhile included; after a failure (r, or one of theirs) the rest are
 * dropped.  The first failure. */
static ptxvm_result run_faf(Tree *tr, ptxvm_graph_env *e, ptxvm_result r)
{
	for (size_t i = 0;; i++) {
		pthread_mutex_lock(&tr->t->lock);
		uint64_t h = i < e->faf.n ? e->faf.v[i] : 0;
		pthread_mutex_unlock(&tr->t->lock);
		if (!h)
			break;
		ptxvm_graph_fn run;
		void *arg;
		busy(tr->t, h, -1);     /* queued no more: run_graph counts it running */
		if (!r)
			r = runner(tr->t, h, &run, &arg) ? run_graph(tr, h, run, arg, e) : gone(tr, h);
	}
	return r;
}

ptxvm_result ptxvm_graph_run(ptxvm_device *d, uint64_t graph, ptxvm_graph_fn run, void *arg)
{
	if (!d || !run)
		return host_say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_graph_run: NULL argument");
	HostDev hd = host_dev(d);
	Tree tr = { d, hd.graphs, exec_now(), hd.timeout };
	/* the stream's environment: the parent of the graph, and of its siblings */
	ptxvm_graph_env stream = { .tr = &tr, .d = d, .t = hd.graphs };
	ptxvm_result r = run_faf(&tr, &stream, run_graph(&tr, graph, run, arg, &stream));
	free(stream.faf.v);
	return r;
}
