/* graph.c: CUDA graphs, made by stream capture or node by node, and run.
 * Between cuStreamBeginCapture and cuStreamEndCapture the kernels, copies,
 * fills, host functions, event records and stream-ordered allocations and
 * frees submitted to a stream are recorded in a graph instead of being
 * run, each node depending on the one before; cuGraphAdd*Node adds kernel,
 * copy, fill, host, empty, event record and wait, memory, child graph and
 * conditional nodes after nodes already in the graph (a conditional node
 * runs its bodies in its place, by a value kernels set).  Either way the
 * nodes in the order they were added are an order their dependencies
 * allow, and cuGraphLaunch runs an executable copy of
 * them (cuGraphInstantiate) in that order.  A node's parameters are read
 * and changed in its graph, and in an executable graph made from it
 * (cuGraphExec*SetParams, cuGraphExecUpdate from a graph of the same
 * shape), for the launches after; edges and nodes are added and removed
 * after the nodes were made.  Other streams join a capture
 * through events, as in CUDA.  The memory of allocation nodes is
 * graphmem.c's.  The forms that are not recorded (copies to and from
 * arrays by offset, cooperative launches, callbacks, synchronisation) fail with
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidate the capture, as
 * CUDA's unsupported operations do.  A graph instantiated for device
 * launch is registered with the device when it is uploaded, so that
 * kernels may launch it (src/host/devgraph.c keeps the order of those
 * launches; the same function runs a graph's nodes from the host and from
 * kernels).  docs/CUDA.md, "Graphs". */
#include "cu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kinds, numbered as CUgraphNodeType. */
enum { NODE_KERNEL = 0, NODE_COPY = 1, NODE_SET = 2, NODE_HOST = 3, NODE_GRAPH = 4, NODE_EMPTY = 5, NODE_WAIT = 6,
       NODE_EVENT = 7, NODE_MEM_ALLOC = 10, NODE_MEM_FREE = 11, NODE_COND = 13 };
/* CUgraphConditionalNodeType, and CU_GRAPH_COND_ASSIGN_DEFAULT */
enum { COND_IF, COND_WHILE, COND_SWITCH };
enum { COND_ASSIGN_DEFAULT = 1 };
enum { CU_STREAM_CAPTURE_STATUS_NONE, CU_STREAM_CAPTURE_STATUS_ACTIVE, CU_STREAM_CAPTURE_STATUS_INVALIDATED };
enum { CU_STREAM_CAPTURE_MODE_GLOBAL, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL, CU_STREAM_CAPTURE_MODE_RELAXED };

typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUgraphNode_st *CUgraphNode;

/* CUmemPoolProps and CUmemAccessDesc, as an allocation node keeps them. */
typedef struct CuPoolProps {
	int alloc_type, handle_types;
	struct { int type, id; } location;
	void *win32;
	size_t max_size;
	unsigned short usage;
	unsigned char reserved[54];
} CuPoolProps;

typedef struct CuAccessDesc {
	struct { int type, id; } location;
	int flags;
} CuAccessDesc;

/* What a node does; an executable graph holds these by value.  Kernels
 * and events are named by their handles, looked up when the graph runs;
 * memory nodes by their allocation's address and record (graphmem.c).  A
 * child graph node owns its graph, a conditional node its bodies' graphs;
 * an executable graph's copy holds their work instead (v, n; body), which
 * it owns, and the conditional's value by its place in the executable
 * graph's slots. */
typedef struct Work Work;
typedef struct Body {
	Work *v;
	size_t n;
} Body;
struct Work {
	int kind;
	int is3d;               /* NODE_COPY: copy3d, else copy */
	int disabled;           /* kernel, copy, fill: by cuGraphNodeSetEnabled, or a kernel's
				   cudaGraphKernelNodeSetEnabled (under dev_lock when devnode) */
	CUgraphNode node;       /* an executable graph's: the node it was made from, */
	CUgraphNode alt;        /* and the node of the graph it was last updated from */
	size_t *dep, ndep;      /* an executable graph's: its dependencies' places in its list */
	union {
		struct {
			CUfunction f;
			ptxvm_launch_config cfg;
			void *params;
			uint64_t devnode;       /* device-updatable: its handle for kernels; else 0 */
		} k;
		struct { int dev; uint64_t dst, src; size_t n; } copy;  /* dev: 1 dst on the device, 2 src, 3 both */
		CUDA_MEMCPY3D copy3d;
		struct { uint64_t dst; size_t pitch; unsigned value, elem; size_t w, h; } set;
		struct { void (*fn)(void *); void *data; } host;
		CUevent event;          /* NODE_EVENT: recorded; NODE_WAIT: waited on */
		struct {
			uint64_t addr;
			unsigned long long id;
			size_t bytes;
			CuPoolProps pool;       /* NODE_MEM_ALLOC: its parameters */
			CuAccessDesc access;
			size_t naccess;
		} mem;
		struct { CUgraph g; Work *v; size_t n; } sub;   /* NODE_GRAPH */
		struct {
			uint64_t handle;
			int type;
			unsigned size;
			CUgraph *g;     /* the node's: its bodies' graphs */
			Body *body;     /* the executable graph's: their work */
			size_t slot;
		} cond;                                         /* NODE_COND */
	};
};

typedef struct CuNode {
	CuObj obj;
	CUgraph graph;
	size_t idx;             /* its place in graph's nodes */
	Work w;
	CUgraphNode *deps;
	size_t ndeps;
	void **argv;            /* kernel: the kernelParams cuGraphKernelNodeGetParams gave, into w.k.params */
	CUgraphNode orig;       /* made by cuGraphClone: the node it copies */
} CuNode;

typedef struct CUuserObject_st *CUuserObject;

/* References to user objects that a graph or an executable graph holds. */
typedef struct Refs {
	struct { CUuserObject o; unsigned n; } *v;
	size_t n;
} Refs;

/* Its nodes in the order they were added, which their dependencies allow. */
typedef struct CuGraph {
	CuObj obj;
	CUgraphNode *v;
	size_t n, cap;
	Refs refs;
	unsigned execs;         /* executable graphs made from it that exist */
	CUgraphNode owner;      /* the child graph or conditional node it belongs to; NULL: the user's */
	struct CondHandle { uint64_t h; unsigned dflt, flags; } *conds;  /* the conditional handles made for it */
	size_t nconds;
} CuGraph;

/* A conditional handle's value in an executable graph. */
typedef struct Slot {
	uint64_t h;
	unsigned dflt, flags;
	_Atomic unsigned value;
} Slot;

typedef struct CuExec {
	CuObj obj;
	Work *v;
	size_t n;
	Refs refs;              /* the graph's, when it was instantiated */
	CUgraph from;
	CUgraph upd;            /* the graph of the last cuGraphExecUpdate */
	unsigned long long flags;
	Slot *slot;             /* the conditional handles of the graph and the graphs in it */
	size_t nslot;
	pthread_rwlock_t rw;    /* read by each run, written by the updates of its work */
	unsigned users;         /* under exec_life: the calls and runs using it now */
	int dead;               /* under exec_life: destroyed, freed when its last user is done */
} CuExec;

static void refs_release(Refs *r);
static void refs_clone(Refs *to, const Refs *from);

static CuGraph *graph_of(CUgraph g) { return cu_obj_get(g, CU_KIND_GRAPH); }
static CuNode *node_of(CUgraphNode n) { return cu_obj_get(n, CU_KIND_GRAPH_NODE); }
static CuExec *exec_of(CUgraphExec e) { return cu_obj_get(e, CU_KIND_GRAPH_EXEC); }

static void works_free(Work *v, size_t n);

static void work_free(Work *w)
{
	free(w->dep);
	if (w->kind == NODE_KERNEL)
		free(w->k.params);
	else if (w->kind == NODE_GRAPH)
		works_free(w->sub.v, w->sub.n);
	else if (w->kind == NODE_COND) {
		for (size_t i = 0; w->cond.body && i < w->cond.size; i++)
			works_free(w->cond.body[i].v, w->cond.body[i].n);
		free(w->cond.body);
		free(w->cond.g);
	}
}

static void works_free(Work *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		work_free(&v[i]);
	free(v);
}

/* What the records own, for cu_obj_teardown and for destruction. */
static void node_drop(void *rec)
{
	CuNode *n = rec;
	work_free(&n->w);
	free(n->deps);
	free(n->argv);
}

static void graph_drop(void *rec)
{
	free(((CuGraph *)rec)->v);
	free(((CuGraph *)rec)->refs.v);
	free(((CuGraph *)rec)->conds);
}

static void exec_drop(void *rec)
{
	CuExec *e = rec;
	works_free(e->v, e->n);
	free(e->refs.v);
	free(e->slot);
	pthread_rwlock_destroy(&e->rw);
}

static void graph_free(CUgraph h, CuGraph *g);

/* Destroys node h (n), the graphs it owns with it. */
static void node_free(CUgraphNode h, CuNode *n)
{
	CuGraph *sub = n->w.kind == NODE_GRAPH ? graph_of(n->w.sub.g) : NULL;
	if (sub)
		graph_free(n->w.sub.g, sub);
	for (size_t j = 0; n->w.kind == NODE_COND && j < n->w.cond.size; j++)
		if ((sub = graph_of(n->w.cond.g[j])))
			graph_free(n->w.cond.g[j], sub);
	node_drop(n);
	cu_obj_free(h, CU_KIND_GRAPH_NODE);
}

/* Destroys g and its nodes, the graphs they own with them. */
static void graph_free(CUgraph h, CuGraph *g)
{
	for (size_t i = 0; i < g->n; i++) {
		CuNode *n = node_of(g->v[i]);
		if (n)
			node_free(g->v[i], n);
	}
	refs_release(&g->refs);
	cu_gmem_graph_gone(h);
	graph_drop(g);
	cu_obj_free(h, CU_KIND_GRAPH);
}

static CUgraph graph_new(void)
{
	CuGraph *g = calloc(1, sizeof *g);
	if (!g || !cu_obj_add(g, CU_KIND_GRAPH)) {
		free(g);
		return NULL;
	}
	g->obj.drop = graph_drop;
	return CU_HANDLE(CUgraph, g);
}

/* A node doing w after deps (nodes of h, each once, as CUDA requires)
 * is added to h; w's kernel parameters become the node's.  *out gets it
 * (NULL: not wanted). */
static CUresult node_add(CUgraph h, const CUgraphNode *deps, size_t ndeps, const Work *w, CUgraphNode *out)
{
	CuGraph *g = graph_of(h);
	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < ndeps; i++) {
		CuNode *d = node_of(deps[i]);
		if (!d || d->graph != h)
			return CUDA_ERROR_INVALID_VALUE;
		for (size_t j = 0; j < i; j++)
			if (deps[j] == deps[i])
				return CUDA_ERROR_INVALID_VALUE;
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		CUgraphNode *v = realloc(g->v, cap * sizeof *v);
		if (!v)
			return CUDA_ERROR_OUT_OF_MEMORY;
		g->v = v;
		g->cap = cap;
	}
	CuNode *n = calloc(1, sizeof *n);
	CUgraphNode *d = ndeps ? malloc(ndeps * sizeof *d) : NULL;
	if (!n || (ndeps && !d) || !cu_obj_add(n, CU_KIND_GRAPH_NODE)) {
		free(n);
		free(d);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (ndeps)
		memcpy(d, deps, ndeps * sizeof *d);
	n->obj.drop = node_drop;
	n->graph = h;
	n->idx = g->n;
	n->w = *w;
	n->deps = d;
	n->ndeps = ndeps;
	g->v[g->n++] = CU_HANDLE(CUgraphNode, n);
	if (out)
		*out = g->v[g->n - 1];
	return CUDA_SUCCESS;
}

/* ---- captures in progress ------------------------------------------------------------
 * A capture sequence begins on its origin stream; another stream joins it
 * by waiting on an event recorded in it (a fork), and must be waited on by
 * the origin again before the sequence ends (a join).  Each stream in it
 * knows the nodes its next node depends on. */
typedef struct Seq {
	CUgraph g;
	CUstream origin;
	int invalid;            /* an unsupported operation: EndCapture fails */
	int mode;
	pthread_t thread;       /* the one that began it: where it must end unless relaxed */
	unsigned long long id;
	int into;               /* g is the caller's (cuStreamBeginCaptureToGraph): never freed here */
} Seq;

typedef struct Member {
	CUstream s;
	Seq *seq;
	CUgraphNode *last;      /* the next node depends on these */
	size_t nlast, cap;
	int unjoined;           /* work since the origin last waited on it (not the origin) */
	struct Member *next;
} Member;

/* An event recorded in a capture: the stream's dependencies then. */
typedef struct Mark {
	CUevent e;
	Seq *seq;
	Member *from;
	CUgraphNode *deps;
	size_t ndeps;
	int joins;              /* recorded after the stream's last work: waiting on it joins that */
	struct Mark *next;
} Mark;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Member *members;
static Mark *marks;
static _Atomic int ncaptures;   /* streams capturing: a launch looks no further while it is 0 */
static unsigned long long next_id = 1;

/* The member that is s (lock held). */
static Member *find(CUstream s)
{
	for (Member *m = members; m; m = m->next)
		if (m->s == s)
			return m;
	return NULL;
}

static Mark *mark_of(CUevent e)
{
	for (Mark *k = marks; k; k = k->next)
		if (k->e == e)
			return k;
	return NULL;
}

static void mark_free(Mark **p)
{
	Mark *k = *p;
	*p = k->next;
	free(k->deps);
	free(k);
}

/* m's next node depends on deps too (lock held); 0: no memory. */
static int depend(Member *m, const CUgraphNode *deps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < m->nlast && m->last[j] != deps[i])
			j++;
		if (j < m->nlast)
			continue;
		if (m->nlast == m->cap) {
			size_t cap = m->cap ? m->cap * 2 : 4;
			CUgraphNode *v = realloc(m->last, cap * sizeof *v);
			if (!v)
				return 0;
			m->last = v;
			m->cap = cap;
		}
		m->last[m->nlast++] = deps[i];
	}
	return 1;
}

static Member *join(CUstream s, Seq *seq)
{
	Member *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->s = s;
	m->seq = seq;
	m->next = members;
	members = m;
	atomic_fetch_add(&ncaptures, 1);
	return m;
}

int cu_capturing(CUstream s)
{
	if (!atomic_load(&ncaptures) || !s)
		return 0;
	pthread_mutex_lock(&lock);
	int r = find(s) != NULL;
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult cu_capture_refuse(CUstream s, const char *what)
{
	pthread_mutex_lock(&lock);
	Member *m = find(s);
	if (m)
		m->seq->invalid = 1;
	pthread_mutex_unlock(&lock);
	cu_warn("%s cannot be captured in a graph: the stream's capture is invalidated", what);
	return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* The calling thread's capture interaction mode (cuThreadExchangeStream-
 * CaptureMode). */
static _Thread_local int thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

/* CUDA's rule: a thread whose mode is not relaxed may not make an unsafe
 * call while it captures a sequence begun not relaxed, nor, in global
 * mode, while another thread captures one begun in global mode; the call
 * fails and invalidates those captures. */
CUresult cu_capture_any(const char *what)
{
	if (!atomic_load(&ncaptures) || thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&lock);
	int n = 0;
	for (Member *m = members; m; m = m->next) {
		const Seq *q = m->seq;
		int mine = pthread_equal(q->thread, pthread_self());
		if (q->mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
		    (mine || (thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL && q->mode == CU_STREAM_CAPTURE_MODE_GLOBAL))) {
			m->seq->invalid = 1;
			n++;
		}
	}
	pthread_mutex_unlock(&lock);
	if (!n)
		return CUDA_SUCCESS;
	cu_warn("%s while a stream is being captured: the capture is invalidated", what);
	return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
}

/* w becomes the next node of s's capture; on failure w's parameters are
 * freed. */
static CUresult record(CUstream s, Work *w)
{
	pthread_mutex_lock(&lock);
	Member *m = find(s);
	CUresult r = CUDA_SUCCESS;
	CUgraphNode n = NULL;
	if (!m)
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;      /* ended meanwhile, by another thread */
	else if (m->seq->invalid)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	else if (!(r = node_add(m->seq->g, m->last, m->nlast, w, &n))) {
		m->nlast = 0;
		depend(m, &n, 1);       /* room for one is there */
		m->unjoined = m->s != m->seq->origin;
	}
	pthread_mutex_unlock(&lock);
	if (r)
		work_free(w);
	return r;
}

/* An event recorded in a capture: with external set, a node that records
 * it when the graph runs (CU_EVENT_RECORD_EXTERNAL); either way a mark of
 * the stream's dependencies, for the streams that wait on it. */
CUresult cu_capture_event(CUstream s, CUevent e, int external)
{
	if (external) {
		CUresult r = record(s, &(Work){ .kind = NODE_EVENT, .event = e });
		if (r)
			return r;
	}
	pthread_mutex_lock(&lock);
	Member *m = find(s);
	if (!m) {               /* ended meanwhile, by another thread */
		pthread_mutex_unlock(&lock);
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	CUresult r = CUDA_SUCCESS;
	Mark *k = mark_of(e);
	if (!k && (k = calloc(1, sizeof *k))) {
		k->e = e;
		k->seq = m->seq;
		k->from = m;
		k->next = marks;
		marks = k;
	}
	CUgraphNode *deps = m->nlast ? malloc(m->nlast * sizeof *deps) : NULL;
	if (!k || (m->nlast && !deps))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	else {
		free(k->deps);
		if (m->nlast)
			memcpy(deps, m->last, m->nlast * sizeof *deps);
		k->deps = deps;
		k->ndeps = m->nlast;
		k->seq = m->seq;
		k->from = m;
		k->joins = m->unjoined;
		deps = NULL;
	}
	free(deps);
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult cu_capture_event_wait(CUstream s, CUevent e)
{
	return record(s, &(Work){ .kind = NODE_WAIT, .event = e });
}

int cu_capture_marked(CUevent e)
{
	if (!atomic_load(&ncaptures))
		return 0;
	pthread_mutex_lock(&lock);
	int r = mark_of(e) != NULL;
	pthread_mutex_unlock(&lock);
	return r;
}

/* Recorded outside a capture again: the event no longer forks one. */
void cu_capture_forget(CUevent e)
{
	if (!atomic_load(&ncaptures))
		return;
	pthread_mutex_lock(&lock);
	for (Mark **p = &marks; *p; p = &(*p)->next)
		if ((*p)->e == e) {
			mark_free(p);
			break;
		}
	pthread_mutex_unlock(&lock);
}

/* s waits on e: an event recorded in a capture brings s into it (or adds
 * the event's dependencies to s's); any other event's work is done. */
CUresult cu_capture_wait(CUstream s, CUevent e)
{
	if (!atomic_load(&ncaptures))
		return CUDA_SUCCESS;
	pthread_mutex_lock(&lock);
	Mark *k = mark_of(e);
	Member *m = find(s);
	CUresult r = CUDA_SUCCESS;
	if (k && m && m->seq != k->seq) {
		m->seq->invalid = k->seq->invalid = 1;
		r = CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
	} else if (k && !m && !(m = join(s, k->seq)))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (k && !r) {
		if (!depend(m, k->deps, k->ndeps))
			r = CUDA_ERROR_OUT_OF_MEMORY;
		else if (k->joins && m->s == k->seq->origin)
			k->from->unjoined = 0;
	}
	pthread_mutex_unlock(&lock);
	if (r == CUDA_ERROR_STREAM_CAPTURE_ISOLATION)
		cu_warn("cuStreamWaitEvent: the event belongs to another stream capture: both are invalidated");
	return r;
}

/* The parameters of f's kernel k, laid out as it takes them: from
 * params[i], or from buf, the layout already.  NULL: no host memory. */
static void *pack(const ptxvm_kernel *k, void *const *params, const void *buf)
{
	size_t bytes = ptxvm_kernel_params_size(k);
	char *p = malloc(bytes ? bytes : 1);
	if (!p)
		return NULL;
	if (buf)
		memcpy(p, buf, bytes);
	else
		for (size_t i = 0; i < ptxvm_kernel_param_count(k); i++) {
			ptxvm_param_info pi;
			if (ptxvm_kernel_param(k, i, &pi) == 0)
				memcpy(p + pi.offset, params[i], pi.size);
		}
	return p;
}

CUresult cu_capture_kernel(CUstream s, CUfunction f, const ptxvm_launch_config *cfg, void *const *params,
			   const void *buf)
{
	CuFunc *fn = cu_func(f);
	if (!fn)
		return CUDA_ERROR_INVALID_HANDLE;
	/* the parameters' values as they are now */
	Work w = { .kind = NODE_KERNEL, .k = { .f = f, .cfg = *cfg, .params = pack(fn->k, params, buf) } };
	return w.k.params ? record(s, &w) : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cu_capture_copy(CUstream s, int dev, uint64_t dst, uint64_t src, size_t n)
{
	return record(s, &(Work){ .kind = NODE_COPY, .copy = { dev, dst, src, n } });
}

CUresult cu_capture_copy3d(CUstream s, const CUDA_MEMCPY3D *p)
{
	return record(s, &(Work){ .kind = NODE_COPY, .is3d = 1, .copy3d = *p });
}

CUresult cu_capture_set(CUstream s, uint64_t dst, size_t pitch, unsigned value, unsigned elem, size_t w, size_t h)
{
	return record(s, &(Work){ .kind = NODE_SET, .set = { dst, pitch, value, elem, w, h } });
}

CUresult cu_capture_host(CUstream s, void (*fn)(void *), void *data)
{
	return record(s, &(Work){ .kind = NODE_HOST, .host = { fn, data } });
}

/* The graph s is captured into, or why there is none (lock taken). */
static CUresult capture_graph(CUstream s, CUgraph *g)
{
	pthread_mutex_lock(&lock);
	Member *m = find(s);
	CUresult r = !m ? CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
		     : m->seq->invalid ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
	*g = r ? NULL : m->seq->g;
	pthread_mutex_unlock(&lock);
	return r;
}

/* The properties of the device's default pool, which stream-ordered
 * allocations come from: pinned, on device 0. */
static const CuPoolProps default_props = { .alloc_type = 1, .location = { 1, 0 } };

/* cuMemAllocAsync while capturing: an allocation node, whose memory is
 * reserved now, at the address it keeps for the graph's life. */
CUresult cu_capture_alloc(CUstream s, size_t bytes, uint64_t *addr)
{
	CUgraph g;
	CUresult r = capture_graph(s, &g);
	Work w = { .kind = NODE_MEM_ALLOC, .mem = { .bytes = bytes, .pool = default_props } };
	if (r || (r = cu_gmem_reserve(g, bytes, &w.mem.addr, &w.mem.id)))
		return r;
	if ((r = record(s, &w))) {
		cu_gmem_unreserve(w.mem.addr, w.mem.id);
		return r;
	}
	*addr = w.mem.addr;
	return CUDA_SUCCESS;
}

/* cuMemFreeAsync while capturing: a free node.  An address no graph's
 * allocation node returned, or one a graph frees already, is
 * CUDA_ERROR_INVALID_VALUE, and the capture goes on, as on an H200. */
CUresult cu_capture_free(CUstream s, uint64_t addr)
{
	CUgraph g;
	CUresult r = capture_graph(s, &g);
	Work w = { .kind = NODE_MEM_FREE, .mem = { .addr = addr } };
	if (r || (r = cu_gmem_free_node(g, addr, &w.mem.id)))
		return r;
	if ((r = record(s, &w)))
		cu_gmem_unfree(addr, w.mem.id);
	return r;
}


/* ---- beginning and ending a capture ------------------------------------------------------ */
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

typedef struct CUgraphEdgeData CUgraphEdgeData;
static int edges_plain(const CUgraphEdgeData *edges, size_t n, const char *who);

/* Into a new graph, or (into) into g after its nodes deps. */
static CUresult begin_capture(CUstream s, int mode, CUgraph into, const CUgraphNode *deps, size_t ndeps)
{
	CUresult r = cu_stream_check(s);
	if (r)
		return r;
	if (mode < CU_STREAM_CAPTURE_MODE_GLOBAL || mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD) {
		cu_warn("cuStreamBeginCapture: the default streams cannot be captured here; capture a stream of "
			"cuStreamCreate");
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	}
	if (into) {
		if (!graph_of(into) || (ndeps && !deps))
			return CUDA_ERROR_INVALID_VALUE;
		for (size_t i = 0; i < ndeps; i++) {
			CuNode *d = node_of(deps[i]);
			if (!d || d->graph != into)
				return CUDA_ERROR_INVALID_VALUE;
		}
	}
	Seq *seq = calloc(1, sizeof *seq);
	CUgraph g = into ? into : graph_new();
	if (!seq || !g) {
		free(seq);
		if (g && !into)
			graph_free(g, graph_of(g));
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	pthread_mutex_lock(&lock);
	r = find(s) ? CUDA_ERROR_ILLEGAL_STATE : CUDA_SUCCESS;
	for (Member *m = members; !r && into && m; m = m->next)
		if (m->seq->g == into)
			r = CUDA_ERROR_ILLEGAL_STATE;   /* one capture into a graph at a time */
	if (!r) {
		*seq = (Seq){ .g = g, .origin = s, .mode = mode, .thread = pthread_self(), .id = next_id++,
			      .into = into != NULL };
		Member *m = join(s, seq);
		if (!m)
			r = CUDA_ERROR_OUT_OF_MEMORY;
		else if (!depend(m, deps, ndeps))
			seq->invalid = 1;               /* no memory: cuStreamEndCapture says so */
	}
	pthread_mutex_unlock(&lock);
	if (r) {
		free(seq);
		if (!into)
			graph_free(g, graph_of(g));
	}
	return r;
}

CUresult cuStreamBeginCapture_v2(CUstream s, int mode)
{
	CTX_CALL(c);
	return begin_capture(s, mode, NULL, NULL, 0);
}

/* The captured work joins g after deps; cuStreamEndCapture gives g back. */
CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges,
				     size_t ndeps, int mode)
{
	CTX_CALL(c);
	if (!edges_plain(edges, ndeps, "cuStreamBeginCaptureToGraph"))
		return CUDA_ERROR_NOT_SUPPORTED;
	return begin_capture(s, mode, g, deps, ndeps);
}

CUresult cuStreamBeginCapture(CUstream s) { return cuStreamBeginCapture_v2(s, CU_STREAM_CAPTURE_MODE_GLOBAL); }

/* The calling thread's mode becomes *mode, which gets the one before. */
CUresult cuThreadExchangeStreamCaptureMode(int *mode)
{
	CUresult r = cu_ready();
	if (r)
		return r;
	if (!mode || *mode < CU_STREAM_CAPTURE_MODE_GLOBAL || *mode > CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	int was = thread_mode;
	thread_mode = *mode;
	*mode = was;
	return CUDA_SUCCESS;
}

/* Ends the sequence s began: every stream that joined it must have been
 * joined back (CUDA_ERROR_STREAM_CAPTURE_UNJOINED), and it must not have
 * been invalidated; either failure frees the graph.  A sequence not begun
 * relaxed ends on the thread that began it, else
 * CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD and it goes on (to confirm on
 * hardware). */
CUresult cuStreamEndCapture(CUstream s, CUgraph *out)
{
	CTX_CALL(c);
	CUresult r = cu_stream_check(s);
	if (r)
		return r;
	pthread_mutex_lock(&lock);
	Member *me = find(s);
	Seq *seq = me ? me->seq : NULL;
	if (!me)
		r = out ? CUDA_ERROR_ILLEGAL_STATE : CUDA_ERROR_INVALID_VALUE;
	else if (!out && !seq->into)    /* a capture into the caller's graph needs no answer */
		r = CUDA_ERROR_INVALID_VALUE;   /* the capture goes on */
	else if (seq->origin != s) {
		seq->invalid = 1;
		r = CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
	} else if (seq->mode != CU_STREAM_CAPTURE_MODE_RELAXED && !pthread_equal(seq->thread, pthread_self()))
		r = CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;     /* the capture goes on */
	else {
		for (Member **p = &members; *p;) {
			Member *m = *p;
			if (m->seq != seq) {
				p = &m->next;
				continue;
			}
			if (m->unjoined)
				r = CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
			*p = m->next;
			free(m->last);
			free(m);
			atomic_fetch_sub(&ncaptures, 1);
		}
		for (Mark **p = &marks; *p;)
			if ((*p)->seq == seq)
				mark_free(p);
			else
				p = &(*p)->next;
	}
	pthread_mutex_unlock(&lock);
	if (r == CUDA_ERROR_ILLEGAL_STATE || r == CUDA_ERROR_STREAM_CAPTURE_UNMATCHED ||
	    r == CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD || r == CUDA_ERROR_INVALID_VALUE)
		return r;
	if (out)
		*out = NULL;
	CUgraph g = seq->g;
	int into = seq->into;
	if (!r && seq->invalid)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	free(seq);
	if (r) {
		if (r == CUDA_ERROR_STREAM_CAPTURE_UNJOINED)
			cu_warn("cuStreamEndCapture: a stream that joined the capture was not joined back to its origin");
		if (!into)
			graph_free(g, graph_of(g));
		return r;
	}
	if (out)
		*out = g;
	return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream s, int *status)
{
	CTX_CALL(c);
	CUresult r = cu_stream_check(s);
	if (r)
		return r;
	if (!status)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&lock);
	Member *m = s ? find(s) : NULL;
	*status = !m ? CU_STREAM_CAPTURE_STATUS_NONE
		     : m->seq->invalid ? CU_STREAM_CAPTURE_STATUS_INVALIDATED : CU_STREAM_CAPTURE_STATUS_ACTIVE;
	pthread_mutex_unlock(&lock);
	return CUDA_SUCCESS;
}

/* The capture's graph, and the nodes the stream's next one will depend on
 * (no edge data: edges are plain).  *deps points into the capture, valid
 * until the stream's next node. */
CUresult cuStreamGetCaptureInfo_v3(CUstream s, int *status, uint64_t *id, CUgraph *graph,
				   const CUgraphNode **deps, const void **edges, size_t *ndeps)
{
	CUresult r = cuStreamIsCapturing(s, status);
	if (r)
		return r;
	pthread_mutex_lock(&lock);
	Member *m = s ? find(s) : NULL;
	if (id && m)
		*id = m->seq->id;
	if (graph)
		*graph = m ? m->seq->g : NULL;
	if (deps)
		*deps = m && m->nlast ? m->last : NULL;
	if (ndeps)
		*ndeps = m ? m->nlast : 0;
	pthread_mutex_unlock(&lock);
	if (edges)
		*edges = NULL;
	return CUDA_SUCCESS;
}

CUresult cuStreamGetCaptureInfo_v2(CUstream s, int *status, uint64_t *id, CUgraph *graph, const CUgraphNode **deps,
				   size_t *ndeps)
{
	return cuStreamGetCaptureInfo_v3(s, status, id, graph, deps, NULL, ndeps);
}

CUresult cuStreamGetCaptureInfo(CUstream s, int *status, uint64_t *id)
{
	return cuStreamGetCaptureInfo_v3(s, status, id, NULL, NULL, NULL, NULL);
}

/* The nodes the stream's next captured node depends on: these added
 * (flags CU_STREAM_ADD_CAPTURE_DEPENDENCIES, 0) or these alone
 * (CU_STREAM_SET_CAPTURE_DEPENDENCIES, 1); nodes of the capture's graph,
 * plain edges only. */
CUresult cuStreamUpdateCaptureDependencies_v2(CUstream s, CUgraphNode *deps, const CUgraphEdgeData *edges, size_t n,
					      unsigned flags)
{
	CTX_CALL(c);
	CUresult r = cu_stream_check(s);
	if (r)
		return r;
	if (flags > 1 || (n && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	if (!edges_plain(edges, n, "cuStreamUpdateCaptureDependencies"))
		return CUDA_ERROR_NOT_SUPPORTED;
	pthread_mutex_lock(&lock);
	Member *m = s ? find(s) : NULL;
	if (!m)
		r = CUDA_ERROR_ILLEGAL_STATE;
	for (size_t i = 0; !r && i < n; i++) {
		const CuNode *d = node_of(deps[i]);
		if (!d || d->graph != m->seq->g)
			r = CUDA_ERROR_INVALID_VALUE;
	}
	if (!r && flags)
		m->nlast = 0;
	if (!r && !depend(m, deps, n))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_unlock(&lock);
	return r;
}

CUresult cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode *deps, size_t n, unsigned flags)
{
	return cuStreamUpdateCaptureDependencies_v2(s, deps, NULL, n, flags);
}

CU_PT_ALIAS(cuStreamBeginCapture, _ptsz);
CU_PT_ALIAS(cuStreamBeginCapture_v2, _ptsz);
CU_PT_ALIAS(cuStreamBeginCaptureToGraph, _ptsz);
CU_PT_ALIAS(cuStreamEndCapture, _ptsz);
CU_PT_ALIAS(cuStreamIsCapturing, _ptsz);
CU_PT_ALIAS(cuStreamGetCaptureInfo, _ptsz);
CU_PT_ALIAS(cuStreamGetCaptureInfo_v2, _ptsz);
CU_PT_ALIAS(cuStreamGetCaptureInfo_v3, _ptsz);
CU_PT_ALIAS(cuStreamUpdateCaptureDependencies, _ptsz);
CU_PT_ALIAS(cuStreamUpdateCaptureDependencies_v2, _ptsz);

/* ---- graphs and their nodes --------------------------------------------------------------- */
CUresult cuGraphCreate(CUgraph *out, unsigned flags)
{
	CTX_CALL(c);
	if (!out || flags)
		return CUDA_ERROR_INVALID_VALUE;
	CUgraph g = graph_new();
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*out = g;
	return CUDA_SUCCESS;
}

/* Whether a stream is being captured into h, or into a graph that h's
 * nodes own (a child graph or a body, at any depth); with node, into h
 * or into a graph that node owns, at any depth. */
static int capturing_into(CUgraph h, CUgraphNode node)
{
	pthread_mutex_lock(&lock);
	int capturing = 0;
	for (Member *m = members; m && !capturing; m = m->next) {
		capturing = m->seq->g == h;
		for (const CuGraph *cg = graph_of(m->seq->g); cg && cg->owner && !capturing;) {
			const CuNode *o = node_of(cg->owner);
			capturing = node ? cg->owner == node : o && o->graph == h;
			cg = o ? graph_of(o->graph) : NULL;
		}
	}
	pthread_mutex_unlock(&lock);
	return capturing;
}

/* Frees the graph and its nodes; a graph being captured into (or a
 * graph in it) is refused. */
CUresult cuGraphDestroy(CUgraph h)
{
	CTX_CALL(c);
	int capturing = capturing_into(h, NULL);
	CuGraph *g = graph_of(h);
	if (!g || capturing || g->owner)        /* a child graph goes with its node */
		return CUDA_ERROR_INVALID_VALUE;
	graph_free(h, g);
	return CUDA_SUCCESS;
}

/* A list of nodes as the driver answers one: into out (NULL: the count
 * alone), whose room *room is, the rest of out NULL; *room gets the count. */
static void list_out(CUgraphNode *out, size_t *room, CUgraphNode const *v, size_t n)
{
	for (size_t i = 0; out && i < *room; i++)
		out[i] = i < n ? v[i] : NULL;
	*room = n;
}

CUresult cuGraphGetNodes(CUgraph h, CUgraphNode *nodes, size_t *n)
{
	CTX_CALL(c);
	CuGraph *g = graph_of(h);
	if (!g || !n)
		return CUDA_ERROR_INVALID_VALUE;
	list_out(nodes, n, g->v, g->n);
	return CUDA_SUCCESS;
}

CUresult cuGraphGetRootNodes(CUgraph h, CUgraphNode *nodes, size_t *n)
{
	CTX_CALL(c);
	CuGraph *g = graph_of(h);
	if (!g || !n)
		return CUDA_ERROR_INVALID_VALUE;
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++) {
		CuNode *nd = node_of(g->v[i]);
		if (nd && !nd->ndeps) {
			if (nodes && k < *n)
				nodes[k] = g->v[i];
			k++;
		}
	}
	for (size_t i = k; nodes && i < *n; i++)
		nodes[i] = NULL;
	*n = k;
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetType(CUgraphNode h, int *type)
{
	CTX_CALL(c);
	CuNode *n = node_of(h);
	if (!n || !type)
		return CUDA_ERROR_INVALID_VALUE;
	*type = n->w.kind;
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetDependencies(CUgraphNode h, CUgraphNode *deps, size_t *count)
{
	CTX_CALL(c);
	CuNode *n = node_of(h);
	if (!n || !count)
		return CUDA_ERROR_INVALID_VALUE;
	list_out(deps, count, n->deps, n->ndeps);
	return CUDA_SUCCESS;
}

/* cuGraphAdd*Node: the common checks, then node_add. */
#define ADD_CALL(c, out, g, deps, ndeps) CTX_CALL(c); do { \
	if (!(out) || !graph_of(g) || ((ndeps) && !(deps))) return CUDA_ERROR_INVALID_VALUE; } while (0)

typedef struct CUDA_KERNEL_NODE_PARAMS {
	CUfunction func;
	unsigned gx, gy, gz, bx, by, bz, shared;
	void **params;
	void **extra;
	CUfunction kern;        /* _v2: a CUkernel, which is a CUfunction here, when func is NULL */
	CUcontext ctx;
} CUDA_KERNEL_NODE_PARAMS;

/* A kernel node's work from p, checked (who names the call), its
 * parameters' values copied now.  v2: the kernel may be given as kern;
 * v1 has neither kern nor ctx. */
static CUresult kernel_work(const CUDA_KERNEL_NODE_PARAMS *p, int v2, const char *who, Work *w)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	CUfunction f = p->func ? p->func : v2 ? p->kern : NULL;
	CuFunc *fn = cu_func(f);
	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	if (p->extra) {
		cu_warn("%s: parameters by `extra` are not supported; use kernelParams", who);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (!p->gx || !p->gy || !p->gz || !p->bx || !p->by || !p->bz || (!p->params && ptxvm_kernel_param_count(fn->k)))
		return CUDA_ERROR_INVALID_VALUE;
	*w = (Work){ .kind = NODE_KERNEL,
		     .k = { .f = f, .cfg = { { p->gx, p->gy, p->gz }, { p->bx, p->by, p->bz }, p->shared, { 0, 0, 0 } },
			    .params = pack(fn->k, (void *const *)p->params, NULL) } };
	return w->k.params ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static CUresult add_kernel(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
			   const CUDA_KERNEL_NODE_PARAMS *p, int v2)
{
	ADD_CALL(c, out, g, deps, ndeps);
	Work w;
	CUresult r = kernel_work(p, v2, "cuGraphAddKernelNode", &w);
	if (r)
		return r;
	if ((r = node_add(g, deps, ndeps, &w, out)))
		work_free(&w);
	return r;
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
				 const CUDA_KERNEL_NODE_PARAMS *p)
{
	return add_kernel(out, g, deps, ndeps, p, 1);
}

CUresult cuGraphAddKernelNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
			      const CUDA_KERNEL_NODE_PARAMS *p)
{
	return add_kernel(out, g, deps, ndeps, p, 0);
}

/* The copy's sides are checked when the graph runs. */
CUresult cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
			      const CUDA_MEMCPY3D *p, CUcontext ctx)
{
	ADD_CALL(c, out, g, deps, ndeps);
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	return node_add(g, deps, ndeps, &(Work){ .kind = NODE_COPY, .is3d = 1, .copy3d = *p }, out);
}

typedef struct CUDA_MEMSET_NODE_PARAMS {
	CUdeviceptr dst;
	size_t pitch;
	unsigned value, elem;
	size_t w, h;
} CUDA_MEMSET_NODE_PARAMS;

/* Whether a fill's parameters are whole: an element of 1, 2 or 4 bytes,
 * rows no longer than their pitch. */
static int set_ok(const CUDA_MEMSET_NODE_PARAMS *p)
{
	return p && (p->elem == 1 || p->elem == 2 || p->elem == 4) && !(p->h > 1 && p->pitch < p->w * p->elem);
}

CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
			      const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx)
{
	ADD_CALL(c, out, g, deps, ndeps);
	if (!set_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	return node_add(g, deps, ndeps,
			&(Work){ .kind = NODE_SET, .set = { p->dst, p->pitch, p->value, p->elem, p->w, p->h } }, out);
}

typedef struct CUDA_HOST_NODE_PARAMS {
	void (*fn)(void *);
	void *data;
} CUDA_HOST_NODE_PARAMS;

CUresult cuGraphAddHostNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
			    const CUDA_HOST_NODE_PARAMS *p)
{
	ADD_CALL(c, out, g, deps, ndeps);
	if (!p || !p->fn)
		return CUDA_ERROR_INVALID_VALUE;
	return node_add(g, deps, ndeps, &(Work){ .kind = NODE_HOST, .host = { p->fn, p->data } }, out);
}

CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps)
{
	ADD_CALL(c, out, g, deps, ndeps);
	return node_add(g, deps, ndeps, &(Work){ .kind = NODE_EMPTY }, out);
}

static int event_live(CUevent e) { return cu_obj_get(e, CU_KIND_EVENT) != NULL; }

/* Records the event each time the graph runs, as a captured
 * cuEventRecordWithFlags(CU_EVENT_RECORD_EXTERNAL) does. */
CUresult cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUevent e)
{
	ADD_CALL(c, out, g, deps, ndeps);
	if (!event_live(e))
		return CUDA_ERROR_INVALID_VALUE;
	return node_add(g, deps, ndeps, &(Work){ .kind = NODE_EVENT, .event = e }, out);
}

/* Waits for the work the event's last record followed: done, as all work
 * is once submitted, so the node does nothing when the graph runs. */
CUresult cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUevent e)
{
	ADD_CALL(c, out, g, deps, ndeps);
	if (!event_live(e))
		return CUDA_ERROR_INVALID_VALUE;
	return node_add(g, deps, ndeps, &(Work){ .kind = NODE_WAIT, .event = e }, out);
}

/* ---- child graphs ---------------------------------------------------------------------------
 * A child graph node runs a graph of its own, a copy of the one it was
 * given, made when the node is (as CUDA clones it). */

/* A copy of h's nodes and their dependencies in a new graph (*out).  What
 * a child graph may not hold is refused: memory nodes (CUDA's rule for a
 * child graph, CUDA_ERROR_INVALID_VALUE; cuGraphClone, where CUDA would
 * copy them, CUDA_ERROR_NOT_SUPPORTED).  who names the call. */
static CUresult graph_clone(CUgraph h, CUgraph *out, int child, const char *who)
{
	CuGraph *g = graph_of(h);
	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < g->n; i++) {
		CuNode *n = node_of(g->v[i]);
		if (n && n->w.kind == NODE_KERNEL && n->w.k.devnode) {
			cu_warn("%s: node %zu is a device-updatable kernel node, which ptxvm does not copy", who, i);
			return CUDA_ERROR_NOT_SUPPORTED;
		}
		if (n && (n->w.kind == NODE_MEM_ALLOC || n->w.kind == NODE_MEM_FREE || n->w.kind == NODE_COND)) {
			cu_warn("%s: node %zu is a %s node, which %s", who, i, n->w.kind == NODE_COND ? "conditional" :
				"memory", child ? "a child graph may not hold" : "ptxvm does not copy");
			return child ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_SUPPORTED;
		}
	}
	CUgraph c = graph_new();
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	CUresult r = CUDA_SUCCESS;
	CUgraphNode *deps = NULL;
	for (size_t i = 0; i < g->n && !r; i++) {
		CuNode *n = node_of(g->v[i]);
		CuGraph *cg = graph_of(c);
		CUgraphNode *d = n && n->ndeps ? realloc(deps, n->ndeps * sizeof *d) : deps;
		if (!n || !cg || (n->ndeps && !d)) {
			r = n ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
			break;
		}
		deps = d;
		for (size_t j = 0; j < n->ndeps; j++)   /* the copy's node in the same place */
			deps[j] = cg->v[node_of(n->deps[j])->idx];
		Work w = n->w;
		if (w.kind == NODE_KERNEL) {
			CuFunc *fn = cu_func(w.k.f);
			size_t bytes = fn ? ptxvm_kernel_params_size(fn->k) : 0;
			if (!fn || !(w.k.params = malloc(bytes ? bytes : 1))) {
				r = fn ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
				break;
			}
			memcpy(w.k.params, n->w.k.params, bytes);
		} else if (w.kind == NODE_GRAPH && (r = graph_clone(n->w.sub.g, &w.sub.g, child, who)))
			break;
		CUgraphNode made;
		if ((r = node_add(c, deps, n->ndeps, &w, &made))) {
			if (w.kind == NODE_GRAPH)
				graph_free(w.sub.g, graph_of(w.sub.g));
			work_free(&w);
			break;
		}
		node_of(made)->orig = g->v[i];
		if (w.kind == NODE_GRAPH)
			graph_of(w.sub.g)->owner = made;
	}
	free(deps);
	if (r) {
		graph_free(c, graph_of(c));
		return r;
	}
	*out = c;
	return CUDA_SUCCESS;
}

/* The node owns the copy of child. */
static CUresult add_child(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUgraph child)
{
	CUgraph copy;
	CUresult r = graph_clone(child, &copy, 1, "cuGraphAddChildGraphNode");
	if (r)
		return r;
	CUgraphNode made;
	if ((r = node_add(g, deps, ndeps, &(Work){ .kind = NODE_GRAPH, .sub = { .g = copy } }, &made))) {
		graph_free(copy, graph_of(copy));
		return r;
	}
	graph_of(copy)->owner = made;
	*out = made;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUgraph child)
{
	ADD_CALL(c, out, g, deps, ndeps);
	return add_child(out, g, deps, ndeps, child);
}

/* The node's own graph: nodes may be added to it until the parent is
 * instantiated; it goes with the node. */
CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode h, CUgraph *out)
{
	CTX_CALL(c);
	CuNode *n = node_of(h);
	if (!n || n->w.kind != NODE_GRAPH || !out)
		return CUDA_ERROR_INVALID_VALUE;
	*out = n->w.sub.g;
	return CUDA_SUCCESS;
}

CUresult cuGraphClone(CUgraph *out, CUgraph h)
{
	CTX_CALL(c);
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = graph_clone(h, out, 0, "cuGraphClone");
	if (!r)                         /* the copy holds the user objects too */
		refs_clone(&graph_of(*out)->refs, &graph_of(h)->refs);
	return r;
}

/* ---- memory nodes ------------------------------------------------------------------------
 * An allocation node's memory is reserved when the node is made; the
 * rules of its lifetime are graphmem.c's. */
typedef struct CUDA_MEM_ALLOC_NODE_PARAMS {
	CuPoolProps pool;
	const CuAccessDesc *access;
	size_t naccess;
	size_t bytes;
	CUdeviceptr dptr;       /* out */
} CUDA_MEM_ALLOC_NODE_PARAMS;

enum { CU_MEM_ALLOCATION_TYPE_PINNED = 1, CU_MEM_LOCATION_TYPE_DEVICE = 1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3 };

/* Pinned memory on device 0, no IPC handles, read-write access for device
 * 0 at most (the one device); p->dptr gets the address. */
CUresult cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
				CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	ADD_CALL(c, out, g, deps, ndeps);
	if (!p || !p->bytes || p->pool.alloc_type != CU_MEM_ALLOCATION_TYPE_PINNED || p->naccess > 1 ||
	    (p->naccess && !p->access))
		return CUDA_ERROR_INVALID_VALUE;
	/* what an H200 refuses as not supported: memory on the host, IPC
	 * handles, the allocating device's access other than read-write */
	if (p->pool.location.type != CU_MEM_LOCATION_TYPE_DEVICE || p->pool.handle_types) {
		cu_warn("cuGraphAddMemAllocNode: only device memory without IPC handles is supported");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (p->pool.location.id != 0 ||
	    (p->naccess && (p->access->location.type != CU_MEM_LOCATION_TYPE_DEVICE || p->access->location.id != 0)))
		return CUDA_ERROR_INVALID_VALUE;
	if (p->naccess && p->access->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
		cu_warn("cuGraphAddMemAllocNode: the allocating device's access must be read-write");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	Work w = { .kind = NODE_MEM_ALLOC, .mem = { .bytes = p->bytes, .pool = p->pool, .naccess = p->naccess } };
	if (p->naccess)
		w.mem.access = *p->access;
	CUresult r = cu_gmem_reserve(g, p->bytes, &w.mem.addr, &w.mem.id);
	if (r)
		return r;
	if ((r = node_add(g, deps, ndeps, &w, out))) {
		cu_gmem_unreserve(w.mem.addr, w.mem.id);
		return r;
	}
	p->dptr = w.mem.addr;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUdeviceptr dptr)
{
	ADD_CALL(c, out, g, deps, ndeps);
	Work w = { .kind = NODE_MEM_FREE, .mem = { .addr = dptr } };
	CUresult r = cu_gmem_free_node(g, dptr, &w.mem.id);
	if (!r && (r = node_add(g, deps, ndeps, &w, out)))
		cu_gmem_unfree(dptr, w.mem.id);
	return r;
}

/* ---- conditional nodes ----------------------------------------------------------------------
 * A conditional handle is made for a graph; a conditional node of that
 * graph, or of a graph in it (a body, a child), runs its bodies by the
 * handle's value: IF body 0 once if it is not 0 (else body 1, if there
 * is one), WHILE body 0 as long as it is not 0 (asked before each turn),
 * SWITCH body[value] if there is one.  Kernels set the value with
 * cudaGraphSetConditional; each executable graph has its own values,
 * which the handle's default starts (and, with CU_GRAPH_COND_ASSIGN_DEFAULT,
 * restarts at each launch).  Handles are numbers, looked up, never
 * followed. */
#define COND_TAG (0xc0ull << 56)
static _Atomic unsigned long long next_cond = 1;

CUresult cuGraphConditionalHandleCreate(uint64_t *out, CUgraph h, CUcontext ctx, unsigned dflt, unsigned flags)
{
	CTX_CALL(c);
	CuGraph *g = graph_of(h);
	if (!out || !g || flags & ~(unsigned)COND_ASSIGN_DEFAULT)
		return CUDA_ERROR_INVALID_VALUE;
	struct CondHandle *v = realloc(g->conds, (g->nconds + 1) * sizeof *v);
	if (!v)
		return CUDA_ERROR_OUT_OF_MEMORY;
	g->conds = v;
	uint64_t id = COND_TAG | atomic_fetch_add(&next_cond, 1);
	v[g->nconds++] = (struct CondHandle){ id, dflt, flags };
	*out = id;
	return CUDA_SUCCESS;
}

/* Whether handle was made for h or for a graph h is part of. */
static int cond_known(CUgraph h, uint64_t handle)
{
	for (const CuGraph *g = graph_of(h); g;) {
		for (size_t i = 0; i < g->nconds; i++)
			if (g->conds[i].h == handle)
				return 1;
		const CuNode *o = g->owner ? node_of(g->owner) : NULL;
		g = o ? graph_of(o->graph) : NULL;
	}
	return 0;
}

typedef struct CUDA_CONDITIONAL_NODE_PARAMS {
	uint64_t handle;
	int type;
	unsigned size;
	CUgraph *out;           /* set: the bodies' graphs, which the node makes and owns, as the array it owns */
	CUcontext ctx;
} CUDA_CONDITIONAL_NODE_PARAMS;

static CUresult add_cond(CUgraphNode *out, CUgraph h, const CUgraphNode *deps, size_t ndeps,
			 CUDA_CONDITIONAL_NODE_PARAMS *p)
{
	ADD_CALL(c, out, h, deps, ndeps);
	if (!p->size || p->type < COND_IF || p->type > COND_SWITCH || (p->type == COND_IF && p->size > 2) ||
	    (p->type == COND_WHILE && p->size != 1))
		return CUDA_ERROR_INVALID_VALUE;
	if (!cond_known(h, p->handle)) {
		cu_warn("cuGraphAddNode: conditional handle %#llx was made for neither this graph nor a graph it is in",
			(unsigned long long)p->handle);
		return CUDA_ERROR_INVALID_VALUE;
	}
	CUgraph *b = calloc(p->size, sizeof *b);
	size_t i = 0;
	while (b && i < p->size && (b[i] = graph_new()))
		i++;
	CUgraphNode made;
	CUresult r = !b || i < p->size ? CUDA_ERROR_OUT_OF_MEMORY :
		     node_add(h, deps, ndeps, &(Work){ .kind = NODE_COND,
						     .cond = { p->handle, p->type, p->size, b, NULL, 0 } }, &made);
	if (r) {
		while (i-- > 0)
			graph_free(b[i], graph_of(b[i]));
		free(b);
		return r;
	}
	for (i = 0; i < p->size; i++)
		graph_of(b[i])->owner = made;
	p->out = b;
	*out = made;
	return CUDA_SUCCESS;
}

/* ---- device-updatable kernel nodes ----------------------------------------------------------
 * A kernel node made device-updatable (the kernel node attribute
 * CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE) gets a handle kernels
 * pass to cudaGraphKernelNodeSetParam, ...SetEnabled, ...SetGridDim and
 * cudaGraphKernelNodeUpdatesApply; they change the node of the one
 * executable graph made from its graph, from then on: the nodes after it
 * in the same launch, and later launches.  The executable graphs' nodes
 * are found by handle in a table, never followed. */
enum { ATTR_DEVICE_UPDATABLE = 13 };
#define DEVNODE_TAG (0xd0ull << 56)
static _Atomic unsigned long long next_devnode = 1;

typedef struct DevNode {
	uint64_t h;
	CuExec *e;
	Work *w;
} DevNode;
static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;  /* the table, and the nodes' kernels' launch data */
static DevNode *devnodes;
static size_t ndevnodes, capdevnodes;

/* CUlaunchAttributeValue, as this attribute has it */
typedef union CuAttrValue {
	char pad[64];
	struct { int updatable; uint64_t devnode; } dev;
} CuAttrValue;

static CuNode *kernel_node(CUgraphNode h)
{
	CuNode *n = node_of(h);
	return n && n->w.kind == NODE_KERNEL ? n : NULL;
}

/* Once device-updatable, a node stays so (0 afterwards is refused, as in
 * CUDA); the node's handle is cuGraphKernelNodeGetAttribute's to give. */
CUresult cuGraphKernelNodeSetAttribute(CUgraphNode h, int attr, const CuAttrValue *v)
{
	CTX_CALL(c);
	CuNode *n = kernel_node(h);
	if (!n || !v)
		return CUDA_ERROR_INVALID_VALUE;
	if (attr != ATTR_DEVICE_UPDATABLE) {
		cu_warn("cuGraphKernelNodeSetAttribute: attribute %d is not supported", attr);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (v->dev.updatable != 0 && v->dev.updatable != 1)
		return CUDA_ERROR_INVALID_VALUE;
	if (!v->dev.updatable)
		return n->w.k.devnode ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	if (!n->w.k.devnode)
		n->w.k.devnode = DEVNODE_TAG | atomic_fetch_add(&next_devnode, 1);
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetAttribute(CUgraphNode h, int attr, CuAttrValue *v)
{
	CTX_CALL(c);
	CuNode *n = kernel_node(h);
	if (!n || !v)
		return CUDA_ERROR_INVALID_VALUE;
	if (attr != ATTR_DEVICE_UPDATABLE) {
		cu_warn("cuGraphKernelNodeGetAttribute: attribute %d is not supported", attr);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	v->dev.updatable = n->w.k.devnode != 0;
	v->dev.devnode = n->w.k.devnode;
	return CUDA_SUCCESS;
}

/* The device-updatable nodes of e's work v[0..n) join the table (+1) or
 * leave it (-1, all of e's).  0, or CUDA_ERROR_OUT_OF_MEMORY. */
static CUresult devnodes_add(CuExec *e, Work *v, size_t n)
{
	CUresult r = CUDA_SUCCESS;
	for (size_t i = 0; i < n && !r; i++) {
		Work *w = &v[i];
		if (w->kind == NODE_GRAPH)
			r = devnodes_add(e, w->sub.v, w->sub.n);
		for (unsigned j = 0; w->kind == NODE_COND && j < w->cond.size && !r; j++)
			r = devnodes_add(e, w->cond.body[j].v, w->cond.body[j].n);
		if (r || w->kind != NODE_KERNEL || !w->k.devnode)
			continue;
		pthread_mutex_lock(&dev_lock);
		if (ndevnodes == capdevnodes) {
			DevNode *nv = realloc(devnodes, (capdevnodes * 2 + 8) * sizeof *nv);
			if (nv)
				devnodes = nv, capdevnodes = capdevnodes * 2 + 8;
		}
		if (ndevnodes < capdevnodes)
			devnodes[ndevnodes++] = (DevNode){ w->k.devnode, e, w };
		else
			r = CUDA_ERROR_OUT_OF_MEMORY;
		pthread_mutex_unlock(&dev_lock);
	}
	return r;
}

static void devnodes_drop(const CuExec *e)
{
	pthread_mutex_lock(&dev_lock);
	for (size_t i = 0; i < ndevnodes;)
		if (devnodes[i].e == e)
			devnodes[i] = devnodes[--ndevnodes];
		else
			i++;
	pthread_mutex_unlock(&dev_lock);
}

/* A kernel's update (ptxvm_graph_env_updates): cudaErrorInvalidValue (1)
 * for a node not in the table, a field out of range, bytes past the
 * kernel's parameters or a grid dimension of 0 or past CUDA's limits. */
static int dev_update(void *arg, const ptxvm_node_update *u)
{
	(void)arg;
	int r = 1;
	pthread_mutex_lock(&dev_lock);
	Work *w = NULL;
	for (size_t i = 0; i < ndevnodes && !w; i++)
		if (devnodes[i].h == u->node)
			w = devnodes[i].w;
	CuFunc *fn = w ? cu_func(w->k.f) : NULL;
	size_t bytes = fn ? ptxvm_kernel_params_size(fn->k) : 0;
	if (!fn)
		;
	else if (u->field == 1) {
		if (u->grid[0] && u->grid[1] && u->grid[2] && u->grid[0] <= 0x7fffffffu && u->grid[1] <= 65535 &&
		    u->grid[2] <= 65535) {
			memcpy(w->k.cfg.grid, u->grid, sizeof u->grid);
			r = 0;
		}
	} else if (u->field == 2) {
		if (u->offset <= bytes && u->size <= bytes - u->offset) {
			if (u->size)
				memcpy((char *)w->k.params + u->offset, u->value, u->size);
			r = 0;
		}
	} else if (u->field == 3) {
		w->disabled = !u->enabled;
		r = 0;
	}
	pthread_mutex_unlock(&dev_lock);
	return r;
}

/* ---- cuGraphAddNode ----------------------------------------------------------------------------
 * A node of any kind from one structure, CUgraphNodeParams: its members
 * are the structures of the cuGraphAdd*Node calls (the _v2 and later
 * ones, which begin as the earlier ones do). */
typedef struct CuNodeParams {
	int type;
	int reserved0[3];
	union {
		long long reserved1[29];
		CUDA_KERNEL_NODE_PARAMS kernel;
		struct { int flags, reserved; CUcontext ctx; CUDA_MEMCPY3D copy; } memcpy;
		struct { CUDA_MEMSET_NODE_PARAMS p; CUcontext ctx; } memset;
		CUDA_HOST_NODE_PARAMS host;
		struct { CUgraph graph; int ownership; } graph;
		CUDA_MEM_ALLOC_NODE_PARAMS alloc;
		CUdeviceptr free;
		CUDA_CONDITIONAL_NODE_PARAMS cond;
		CUevent event;          /* an event record or wait node's */
	};
	long long reserved2;
} CuNodeParams;

CUresult cuGraphAddNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps, CuNodeParams *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->type) {
	case NODE_KERNEL:
		return add_kernel(out, g, deps, ndeps, &p->kernel, 1);
	case NODE_COPY:
		return cuGraphAddMemcpyNode(out, g, deps, ndeps, &p->memcpy.copy, p->memcpy.ctx);
	case NODE_SET:
		return cuGraphAddMemsetNode(out, g, deps, ndeps, &p->memset.p, p->memset.ctx);
	case NODE_HOST:
		return cuGraphAddHostNode(out, g, deps, ndeps, &p->host);
	case NODE_EMPTY:
		return cuGraphAddEmptyNode(out, g, deps, ndeps);
	case NODE_MEM_ALLOC:
		return cuGraphAddMemAllocNode(out, g, deps, ndeps, &p->alloc);
	case NODE_MEM_FREE:
		return cuGraphAddMemFreeNode(out, g, deps, ndeps, p->free);
	case NODE_GRAPH: {
		ADD_CALL(c, out, g, deps, ndeps);
		if (p->graph.ownership) {       /* CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE */
			cu_warn("cuGraphAddNode: a child graph is copied into its node; moving it in is not supported");
			return CUDA_ERROR_NOT_SUPPORTED;
		}
		return add_child(out, g, deps, ndeps, p->graph.graph);
	}
	case NODE_COND:
		return add_cond(out, g, deps, ndeps, &p->cond);
	case NODE_EVENT:
		return cuGraphAddEventRecordNode(out, g, deps, ndeps, p->event);
	case NODE_WAIT:
		return cuGraphAddEventWaitNode(out, g, deps, ndeps, p->event);
	}
	cu_warn("cuGraphAddNode: nodes of type %d are not supported", p->type);
	return CUDA_ERROR_NOT_SUPPORTED;
}

struct CUgraphEdgeData {
	unsigned char from_port, to_port, type, reserved[5];
};

/* Edges that carry data (ports, programmatic launches) are not supported:
 * every edge must be a full dependency, its data zero. */
static int edges_plain(const CUgraphEdgeData *edges, size_t n, const char *who)
{
	for (size_t i = 0; edges && i < n; i++) {
		static const CUgraphEdgeData zero;
		if (memcmp(&edges[i], &zero, sizeof zero)) {
			cu_warn("%s: edge %zu has data (a port or type): only full dependencies are supported", who, i);
			return 0;
		}
	}
	return 1;
}

CUresult cuGraphAddNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, const CUgraphEdgeData *edges,
			   size_t ndeps, CuNodeParams *p)
{
	if (!edges_plain(edges, ndeps, "cuGraphAddNode_v2"))
		return CUDA_ERROR_NOT_SUPPORTED;
	return cuGraphAddNode(out, g, deps, ndeps, p);
}

/* A node of that kind, or NULL */
static CuNode *kind_node(CUgraphNode h, int kind)
{
	CuNode *n = node_of(h);
	return n && n->w.kind == kind ? n : NULL;
}

/* The pool's properties and access list point into the node. */
CUresult cuGraphMemAllocNodeGetParams(CUgraphNode h, CUDA_MEM_ALLOC_NODE_PARAMS *out)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_MEM_ALLOC);
	if (!n || !out)
		return CUDA_ERROR_INVALID_VALUE;
	out->pool = n->w.mem.pool;
	out->access = n->w.mem.naccess ? &n->w.mem.access : NULL;
	out->naccess = n->w.mem.naccess;
	out->bytes = n->w.mem.bytes;
	out->dptr = n->w.mem.addr;
	return CUDA_SUCCESS;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode h, CUdeviceptr *out)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_MEM_FREE);
	if (!n || !out)
		return CUDA_ERROR_INVALID_VALUE;
	*out = n->w.mem.addr;
	return CUDA_SUCCESS;
}

/* ---- node parameters ---------------------------------------------------------------------------
 * A node's parameters are read and changed in its graph; executable
 * graphs made from it before keep theirs.  Each call takes the node's
 * own kind (else CUDA_ERROR_INVALID_VALUE) and checks what its
 * cuGraphAdd*Node checks. */

/* The kernelParams cuGraphKernelNodeGetParams gives: pointers to each
 * parameter's value in the node's copy (set again at each call, should
 * the program have written into them).  The array stays where it is until
 * the node's kernel changes or the node goes, and a ...SetParams with the
 * same kernel writes the values in place: llama.cpp's CUDA graphs point
 * one of these at a new value and set them again, step after step. */
static void **node_argv(CuNode *n, const CuFunc *fn)
{
	size_t cnt = ptxvm_kernel_param_count(fn->k);
	if (!n->argv && !(n->argv = calloc(cnt ? cnt : 1, sizeof *n->argv)))
		return NULL;
	for (size_t i = 0; i < cnt; i++) {
		ptxvm_param_info pi;
		if (ptxvm_kernel_param(fn->k, i, &pi) == 0)
			n->argv[i] = (char *)n->w.k.params + pi.offset;
	}
	return n->argv;
}

/* v2: the structure has kern and ctx: kern is the kernel too (a CUkernel
 * is a CUfunction here; NVIDIA's runtime looks it up), ctx its module's
 * context. */
static CUresult kernel_get(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *p, int v2)
{
	CTX_CALL(c);
	CuNode *n = kernel_node(h);
	CuFunc *fn = n ? cu_func(n->w.k.f) : NULL;
	if (!fn || !p)
		return CUDA_ERROR_INVALID_VALUE;
	void **argv = node_argv(n, fn);
	if (!argv)
		return CUDA_ERROR_OUT_OF_MEMORY;
	const ptxvm_launch_config *k = &n->w.k.cfg;
	CuCtx *owner = cu_func_ctx(fn);
	CUDA_KERNEL_NODE_PARAMS o = { .func = n->w.k.f, .gx = k->grid[0], .gy = k->grid[1], .gz = k->grid[2],
				      .bx = k->block[0], .by = k->block[1], .bz = k->block[2],
				      .shared = (unsigned)k->shared_bytes, .params = argv, .extra = NULL,
				      .kern = n->w.k.f, .ctx = owner ? CU_HANDLE(CUcontext, owner) : NULL };
	memcpy(p, &o, v2 ? sizeof o : offsetof(CUDA_KERNEL_NODE_PARAMS, kern));
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *p) { return kernel_get(h, p, 1); }
CUresult cuGraphKernelNodeGetParams(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *p) { return kernel_get(h, p, 0); }

/* The node's kernel becomes p's; its parameters' values are copied now. */
static CUresult kernel_set(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p, int v2)
{
	CTX_CALL(c);
	CuNode *n = kernel_node(h);
	Work w;
	CUresult r = n ? kernel_work(p, v2, "cuGraphKernelNodeSetParams", &w) : CUDA_ERROR_INVALID_VALUE;
	if (r)
		return r;
	CuFunc *fn = cu_func(w.k.f);
	if (w.k.f == n->w.k.f) {        /* in place: the kernelParams given stay valid */
		memcpy(n->w.k.params, w.k.params, ptxvm_kernel_params_size(fn->k));
		free(w.k.params);
	} else {
		free(n->w.k.params);
		free(n->argv);
		n->argv = NULL;
		n->w.k.params = w.k.params;
		n->w.k.f = w.k.f;
	}
	n->w.k.cfg = w.k.cfg;
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p) { return kernel_set(h, p, 1); }
CUresult cuGraphKernelNodeSetParams(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p) { return kernel_set(h, p, 0); }

/* A copy's parameters as CUDA_MEMCPY3D: a captured linear copy is one
 * row of its bytes, each side host or device memory. */
static CUDA_MEMCPY3D copy_params(const Work *w)
{
	if (w->is3d)
		return w->copy3d;
	CUDA_MEMCPY3D p;
	memset(&p, 0, sizeof p);
	p.srcMemoryType = w->copy.dev & 2 ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	p.dstMemoryType = w->copy.dev & 1 ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	if (w->copy.dev & 2)
		p.srcDevice = w->copy.src;
	else
		p.srcHost = (const void *)(uintptr_t)w->copy.src;
	if (w->copy.dev & 1)
		p.dstDevice = w->copy.dst;
	else
		p.dstHost = (void *)(uintptr_t)w->copy.dst;
	p.WidthInBytes = w->copy.n;
	p.Height = p.Depth = 1;
	return p;
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode h, CUDA_MEMCPY3D *p)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_COPY);
	if (!n || !p)
		return CUDA_ERROR_INVALID_VALUE;
	*p = copy_params(&n->w);
	return CUDA_SUCCESS;
}

/* Checked when the graph runs, as cuGraphAddMemcpyNode's. */
CUresult cuGraphMemcpyNodeSetParams(CUgraphNode h, const CUDA_MEMCPY3D *p)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_COPY);
	if (!n || !p)
		return CUDA_ERROR_INVALID_VALUE;
	n->w.is3d = 1;
	n->w.copy3d = *p;
	return CUDA_SUCCESS;
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode h, CUDA_MEMSET_NODE_PARAMS *p)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_SET);
	if (!n || !p)
		return CUDA_ERROR_INVALID_VALUE;
	*p = (CUDA_MEMSET_NODE_PARAMS){ .dst = n->w.set.dst, .pitch = n->w.set.pitch, .value = n->w.set.value,
					.elem = n->w.set.elem, .w = n->w.set.w, .h = n->w.set.h };
	return CUDA_SUCCESS;
}

CUresult cuGraphMemsetNodeSetParams(CUgraphNode h, const CUDA_MEMSET_NODE_PARAMS *p)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_SET);
	if (!n || !set_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	n->w.set.dst = p->dst, n->w.set.pitch = p->pitch, n->w.set.value = p->value;
	n->w.set.elem = p->elem, n->w.set.w = p->w, n->w.set.h = p->h;
	return CUDA_SUCCESS;
}

CUresult cuGraphHostNodeGetParams(CUgraphNode h, CUDA_HOST_NODE_PARAMS *p)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_HOST);
	if (!n || !p)
		return CUDA_ERROR_INVALID_VALUE;
	p->fn = n->w.host.fn;
	p->data = n->w.host.data;
	return CUDA_SUCCESS;
}

CUresult cuGraphHostNodeSetParams(CUgraphNode h, const CUDA_HOST_NODE_PARAMS *p)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, NODE_HOST);
	if (!n || !p || !p->fn)
		return CUDA_ERROR_INVALID_VALUE;
	n->w.host.fn = p->fn;
	n->w.host.data = p->data;
	return CUDA_SUCCESS;
}

/* An event record (NODE_EVENT) or wait (NODE_WAIT) node's event. */
static CUresult event_get(CUgraphNode h, int kind, CUevent *out)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, kind);
	if (!n || !out)
		return CUDA_ERROR_INVALID_VALUE;
	*out = n->w.event;
	return CUDA_SUCCESS;
}

static CUresult event_set(CUgraphNode h, int kind, CUevent e)
{
	CTX_CALL(c);
	CuNode *n = kind_node(h, kind);
	if (!n || !event_live(e))
		return CUDA_ERROR_INVALID_VALUE;
	n->w.event = e;
	return CUDA_SUCCESS;
}

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode h, CUevent *out) { return event_get(h, NODE_EVENT, out); }
CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode h, CUevent e) { return event_set(h, NODE_EVENT, e); }
CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode h, CUevent *out) { return event_get(h, NODE_WAIT, out); }
CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode h, CUevent e) { return event_set(h, NODE_WAIT, e); }

/* The node's kind must be p's; kernel, copy, fill, host and event
 * nodes change as their own calls change them, an empty node has nothing
 * to change.  Memory nodes cannot change (CUDA's rule); child graph and
 * conditional nodes are not supported here. */
CUresult cuGraphNodeSetParams(CUgraphNode h, CuNodeParams *p)
{
	CTX_CALL(c);
	CuNode *n = node_of(h);
	if (!n || !p || p->type != n->w.kind)
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->type) {
	case NODE_KERNEL:
		return kernel_set(h, &p->kernel, 1);
	case NODE_COPY:
		return cuGraphMemcpyNodeSetParams(h, &p->memcpy.copy);
	case NODE_SET:
		return cuGraphMemsetNodeSetParams(h, &p->memset.p);
	case NODE_HOST:
		return cuGraphHostNodeSetParams(h, &p->host);
	case NODE_EVENT:
	case NODE_WAIT:
		return event_set(h, p->type, p->event);
	case NODE_EMPTY:
		return CUDA_SUCCESS;
	case NODE_MEM_ALLOC:
	case NODE_MEM_FREE:
		cu_warn("cuGraphNodeSetParams: a memory node's parameters cannot change");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	cu_warn("cuGraphNodeSetParams: changing a node of type %d is not supported", p->type);
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* Whether g has memory nodes: then it may have one executable graph at a
 * time. */
static int has_memory_nodes(const CuGraph *g)
{
	for (size_t i = 0; i < g->n; i++) {
		CuNode *n = node_of(g->v[i]);
		if (n && (n->w.kind == NODE_MEM_ALLOC || n->w.kind == NODE_MEM_FREE))
			return 1;
	}
	return 0;
}

/* Whether g, or a graph in it, has device-updatable kernel nodes: then
 * it too may have one executable graph at a time. */
static int has_devnodes(const CuGraph *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const CuNode *n = node_of(g->v[i]);
		const CuGraph *sub;
		if (!n)
			continue;
		if (n->w.kind == NODE_KERNEL && n->w.k.devnode)
			return 1;
		if (n->w.kind == NODE_GRAPH && (sub = graph_of(n->w.sub.g)) && has_devnodes(sub))
			return 1;
		for (unsigned j = 0; n->w.kind == NODE_COND && j < n->w.cond.size; j++)
			if ((sub = graph_of(n->w.cond.g[j])) && has_devnodes(sub))
				return 1;
	}
	return 0;
}

/* An executable graph's allocation nodes, held (+1) or let go (-1). */
static void hold_memory(const Work *v, size_t n, int delta)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].kind == NODE_MEM_ALLOC)
			cu_gmem_hold(v[i].mem.addr, v[i].mem.id, delta);
}

/* Before a launch: an allocation still live from the last one is freed
 * with AUTO_FREE_ON_LAUNCH; without it the launch fails, before any node
 * runs, with CUDA_ERROR_INVALID_VALUE, as CUDA documents; so does a free
 * node of another graph's allocation that is not live. */
static CUresult relaunch_memory(const Work *v, size_t n, unsigned long long flags)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].kind == NODE_MEM_FREE && !cu_gmem_live(v[i].mem.addr, v[i].mem.id)) {
			size_t j = 0;
			while (j < n && !(v[j].kind == NODE_MEM_ALLOC && v[j].mem.id == v[i].mem.id))
				j++;
			if (j == n)
				return cu_gmem_run(v[i].mem.addr, v[i].mem.id, 0);     /* says why */
		}
		if (v[i].kind != NODE_MEM_ALLOC || !cu_gmem_live(v[i].mem.addr, v[i].mem.id))
			continue;
		if (!(flags & 1)) {
			cu_warn("cuGraphLaunch: the allocation at %#llx from the graph's last launch is not freed "
				"(free it, or instantiate with CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)",
				(unsigned long long)v[i].mem.addr);
			return CUDA_ERROR_INVALID_VALUE;
		}
		cu_gmem_run(v[i].mem.addr, v[i].mem.id, 0);
	}
	return CUDA_SUCCESS;
}

/* ---- editing a graph ---------------------------------------------------------------------------
 * Nodes are removed, and edges added and removed, after the nodes were
 * made (plain edges only: edge data is refused as cuGraphAddNode_v2
 * refuses it).  The nodes stay in an order their dependencies allow:
 * an edge from a node to one added before it moves nodes, each as little
 * as it must (cuGraphGetNodes shows the new order).  CUDA forbids
 * removing nodes or edges of a graph with memory nodes; a graph being
 * captured into keeps its nodes too (the capture's next node depends on
 * them).  Executable graphs made before are not changed. */

/* Puts g's nodes in an order their dependencies allow, keeping the order
 * they were in where it may (the first node whose dependencies are placed
 * goes next).  0 when the edges make a cycle (nothing changes), -1 when
 * out of memory, else 1. */
static int reorder(CuGraph *g)
{
	size_t n = g->n;
	CUgraphNode *v = malloc((n ? n : 1) * sizeof *v);
	unsigned char *placed = calloc(n ? n : 1, 1);
	int r = v && placed ? 1 : -1;
	for (size_t k = 0; r == 1 && k < n; k++) {
		size_t i = 0;
		for (; i < n; i++) {
			const CuNode *nd = node_of(g->v[i]);
			size_t j = 0;
			while (!placed[i] && j < nd->ndeps && placed[node_of(nd->deps[j])->idx])
				j++;
			if (!placed[i] && j == nd->ndeps)
				break;
		}
		if (i == n)
			r = 0;
		else
			placed[i] = 1, v[k] = g->v[i];
	}
	if (r == 1) {
		memcpy(g->v, v, n * sizeof *v);
		for (size_t i = 0; i < n; i++)
			node_of(g->v[i])->idx = i;
	}
	free(v);
	free(placed);
	return r;
}

/* Where from is among n's dependencies; n->ndeps when it is not. */
static size_t dep_at(const CuNode *n, CUgraphNode from)
{
	size_t j = 0;
	while (j < n->ndeps && n->deps[j] != from)
		j++;
	return j;
}

/* The checks of cuGraphAddDependencies and ...Remove...: nodes of h, not
 * both the same; each pair once; the edge there (remove) or not yet. */
static CUresult edges_check(CUgraph h, const CUgraphNode *from, const CUgraphNode *to, size_t n, int remove)
{
	if (!graph_of(h) || (n && (!from || !to)))
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < n; i++) {
		const CuNode *a = node_of(from[i]), *b = node_of(to[i]);
		if (!a || !b || a->graph != h || b->graph != h || a == b || (dep_at(b, from[i]) < b->ndeps) != remove)
			return CUDA_ERROR_INVALID_VALUE;
		for (size_t j = 0; j < i; j++)
			if (from[j] == from[i] && to[j] == to[i])
				return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

/* An edge that would close a cycle is CUDA_ERROR_INVALID_VALUE, and none
 * of the edges given is added (to confirm on hardware, where cuGraph-
 * Instantiate may be the call that fails). */
CUresult cuGraphAddDependencies_v2(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
				   const CUgraphEdgeData *edges, size_t n)
{
	CTX_CALL(c);
	if (!edges_plain(edges, n, "cuGraphAddDependencies"))
		return CUDA_ERROR_NOT_SUPPORTED;
	CUresult r = edges_check(h, from, to, n, 0);
	if (r)
		return r;
	size_t i = 0;
	for (; i < n; i++) {
		CuNode *b = node_of(to[i]);
		CUgraphNode *d = realloc(b->deps, (b->ndeps + 1) * sizeof *d);
		if (!d) {
			r = CUDA_ERROR_OUT_OF_MEMORY;
			break;
		}
		b->deps = d;
		b->deps[b->ndeps++] = from[i];
	}
	int order = r ? 1 : reorder(graph_of(h));
	if (order == 0) {
		cu_warn("cuGraphAddDependencies: the edges would make a cycle");
		r = CUDA_ERROR_INVALID_VALUE;
	} else if (order < 0)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	while (r && i-- > 0)            /* the edges added go again, the last first */
		node_of(to[i])->ndeps--;
	return r;
}

CUresult cuGraphAddDependencies(CUgraph h, const CUgraphNode *from, const CUgraphNode *to, size_t n)
{
	return cuGraphAddDependencies_v2(h, from, to, NULL, n);
}

CUresult cuGraphRemoveDependencies_v2(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
				      const CUgraphEdgeData *edges, size_t n)
{
	CTX_CALL(c);
	if (!edges_plain(edges, n, "cuGraphRemoveDependencies"))
		return CUDA_ERROR_NOT_SUPPORTED;
	CUresult r = edges_check(h, from, to, n, 1);
	if (r)
		return r;
	if (has_memory_nodes(graph_of(h))) {
		cu_warn("cuGraphRemoveDependencies: the graph has memory nodes, whose edges cannot be removed");
		return CUDA_ERROR_INVALID_VALUE;
	}
	for (size_t i = 0; i < n; i++) {
		CuNode *b = node_of(to[i]);
		size_t j = dep_at(b, from[i]);
		memmove(&b->deps[j], &b->deps[j + 1], (b->ndeps - j - 1) * sizeof *b->deps);
		b->ndeps--;
	}
	return CUDA_SUCCESS;
}

CUresult cuGraphRemoveDependencies(CUgraph h, const CUgraphNode *from, const CUgraphNode *to, size_t n)
{
	return cuGraphRemoveDependencies_v2(h, from, to, NULL, n);
}

/* The edges to and from it go with it. */
CUresult cuGraphDestroyNode(CUgraphNode h)
{
	CTX_CALL(c);
	CuNode *n = node_of(h);
	CuGraph *g = n ? graph_of(n->graph) : NULL;
	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	if (has_memory_nodes(g) || capturing_into(n->graph, h)) {
		cu_warn("cuGraphDestroyNode: the node's graph %s", has_memory_nodes(g) ? "has memory nodes, which "
			"keep their graph's nodes" : "is being captured into");
		return CUDA_ERROR_INVALID_VALUE;
	}
	for (size_t i = 0; i < g->n; i++) {
		CuNode *o = node_of(g->v[i]);
		size_t j = dep_at(o, h);
		if (j < o->ndeps) {
			memmove(&o->deps[j], &o->deps[j + 1], (o->ndeps - j - 1) * sizeof *o->deps);
			o->ndeps--;
		}
	}
	memmove(&g->v[n->idx], &g->v[n->idx + 1], (g->n - n->idx - 1) * sizeof *g->v);
	g->n--;
	for (size_t i = n->idx; i < g->n; i++)
		node_of(g->v[i])->idx = i;
	node_free(h, n);
	return CUDA_SUCCESS;
}

/* Edge data, where asked for, is all zero: edges are plain. */
static void edges_zero(CUgraphEdgeData *edges, size_t n)
{
	if (edges && n)
		memset(edges, 0, n * sizeof *edges);
}

/* As list_out answers: from[i] -> to[i] into the room *n gives (both
 * NULL: the count alone), the rest NULL; *n gets the count. */
CUresult cuGraphGetEdges_v2(CUgraph h, CUgraphNode *from, CUgraphNode *to, CUgraphEdgeData *edges, size_t *n)
{
	CTX_CALL(c);
	const CuGraph *g = graph_of(h);
	if (!g || !n || !from != !to || (edges && !from))
		return CUDA_ERROR_INVALID_VALUE;
	size_t k = 0;
	for (size_t i = 0; i < g->n; i++) {
		const CuNode *nd = node_of(g->v[i]);
		for (size_t j = 0; j < nd->ndeps; j++, k++)
			if (from && k < *n)
				from[k] = nd->deps[j], to[k] = g->v[i];
	}
	for (size_t i = k; from && i < *n; i++)
		from[i] = to[i] = NULL;
	edges_zero(edges, *n);
	*n = k;
	return CUDA_SUCCESS;
}

CUresult cuGraphGetEdges(CUgraph h, CUgraphNode *from, CUgraphNode *to, size_t *n)
{
	return cuGraphGetEdges_v2(h, from, to, NULL, n);
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode h, CUgraphNode *deps, CUgraphEdgeData *edges, size_t *count)
{
	if (edges && !deps)
		return CUDA_ERROR_INVALID_VALUE;
	size_t room = count ? *count : 0;
	CUresult r = cuGraphNodeGetDependencies(h, deps, count);
	if (!r)
		edges_zero(edges, room);
	return r;
}

/* The nodes of its graph that depend on it, in the graph's order. */
CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode h, CUgraphNode *out, CUgraphEdgeData *edges, size_t *count)
{
	CTX_CALL(c);
	const CuNode *n = node_of(h);
	const CuGraph *g = n ? graph_of(n->graph) : NULL;
	if (!g || !count || (edges && !out))
		return CUDA_ERROR_INVALID_VALUE;
	size_t k = 0;
	for (size_t i = n->idx + 1; i < g->n; i++)
		if (dep_at(node_of(g->v[i]), h) < node_of(g->v[i])->ndeps) {
			if (out && k < *count)
				out[k] = g->v[i];
			k++;
		}
	for (size_t i = k; out && i < *count; i++)
		out[i] = NULL;
	edges_zero(edges, *count);
	*count = k;
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetDependentNodes(CUgraphNode h, CUgraphNode *out, size_t *count)
{
	return cuGraphNodeGetDependentNodes_v2(h, out, NULL, count);
}

/* The node of a clone that cuGraphClone made from orig (one of the graph
 * cloned, not of a child graph in it), if it is still there. */
static CUgraphNode find_clone(const CuGraph *g, CUgraphNode orig)
{
	for (size_t i = 0; i < g->n; i++)
		if (node_of(g->v[i])->orig == orig)
			return g->v[i];
	return NULL;
}

CUresult cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode orig, CUgraph clone)
{
	CTX_CALL(c);
	const CuGraph *g = graph_of(clone);
	CUgraphNode found = g && node_of(orig) ? find_clone(g, orig) : NULL;
	if (!out || !found)
		return CUDA_ERROR_INVALID_VALUE;
	*out = found;
	return CUDA_SUCCESS;
}

/* ---- cuGraphDebugDotPrint ----------------------------------------------------------------------
 * The graph in Graphviz's DOT language: each graph a cluster, each node a
 * box naming its kind (a kernel's name and launch, a copy's or fill's
 * size, an event's handle), each dependency an arrow; a child graph's or
 * body's cluster inside its node's graph, with a dashed arrow from the
 * node.  The flags choose nothing here: every node says the same. */
static void dot_graph(FILE *f, const CuGraph *g, const char *id, const char *label, const char *from)
{
	static const char *const kinds[] = { [NODE_KERNEL] = "kernel", [NODE_COPY] = "copy", [NODE_SET] = "fill",
					     [NODE_HOST] = "host", [NODE_GRAPH] = "child graph", [NODE_EMPTY] = "empty",
					     [NODE_WAIT] = "event wait", [NODE_EVENT] = "event record",
					     [NODE_MEM_ALLOC] = "memory allocation", [NODE_MEM_FREE] = "memory free",
					     [NODE_COND] = "conditional" };
	fprintf(f, "subgraph cluster_%s {\nlabel=\"%s\";\n", id, label);
	for (size_t i = 0; i < g->n; i++) {
		const CuNode *n = node_of(g->v[i]);
		const Work *w = &n->w;
		const CuFunc *fn = w->kind == NODE_KERNEL ? cu_func(w->k.f) : NULL;
		fprintf(f, "\"%s_%zu\" [shape=box, label=\"%zu: %s", id, i, i, kinds[w->kind]);
		if (fn)
			fprintf(f, " %s\\ngrid (%u,%u,%u) block (%u,%u,%u) shared %zu", ptxvm_kernel_name(fn->k),
				w->k.cfg.grid[0], w->k.cfg.grid[1], w->k.cfg.grid[2], w->k.cfg.block[0],
				w->k.cfg.block[1], w->k.cfg.block[2], w->k.cfg.shared_bytes);
		else if (w->kind == NODE_COPY)
			fprintf(f, "\\n%zu bytes", w->is3d ? w->copy3d.WidthInBytes * w->copy3d.Height * w->copy3d.Depth
							   : w->copy.n);
		else if (w->kind == NODE_SET)
			fprintf(f, "\\n%zu x %zu of %u bytes, %#x", w->set.w, w->set.h, w->set.elem, w->set.value);
		else if (w->kind == NODE_EVENT || w->kind == NODE_WAIT)
			fprintf(f, "\\nevent %p", (void *)w->event);
		else if (w->kind == NODE_MEM_ALLOC || w->kind == NODE_MEM_FREE)
			fprintf(f, "\\n%#llx", (unsigned long long)w->mem.addr);
		fprintf(f, "\"];\n");
		for (size_t j = 0; j < n->ndeps; j++)
			fprintf(f, "\"%s_%zu\" -> \"%s_%zu\";\n", id, node_of(n->deps[j])->idx, id, i);
		char sub[256], node[300];
		snprintf(node, sizeof node, "%s_%zu", id, i);
		const CuGraph *c = w->kind == NODE_GRAPH ? graph_of(w->sub.g) : NULL;
		if (c) {
			snprintf(sub, sizeof sub, "%s_%zu", id, i);
			dot_graph(f, c, sub, "child graph", node);
		}
		for (unsigned j = 0; w->kind == NODE_COND && j < w->cond.size; j++)
			if ((c = graph_of(w->cond.g[j]))) {
				snprintf(sub, sizeof sub, "%s_%zu_%u", id, i, j);
				dot_graph(f, c, sub, "body", node);
			}
	}
	fprintf(f, "}\n");
	if (from && g->n)
		fprintf(f, "\"%s\" -> \"%s_0\" [style=dashed];\n", from, id);
}

CUresult cuGraphDebugDotPrint(CUgraph h, const char *path, unsigned flags)
{
	CTX_CALL(c);
	const CuGraph *g = graph_of(h);
	if (!g || !path || flags >> 16)
		return CUDA_ERROR_INVALID_VALUE;
	FILE *f = fopen(path, "w");
	if (!f) {
		cu_warn("cuGraphDebugDotPrint: cannot write %s", path);
		return CUDA_ERROR_OPERATING_SYSTEM;
	}
	fprintf(f, "digraph dot {\ncompound=true;\n");
	dot_graph(f, g, "g", "graph", NULL);
	fprintf(f, "}\n");
	return fclose(f) ? CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS;
}

/* ---- user objects ----------------------------------------------------------------------------
 * A reference-counted pointer whose destructor runs when the last
 * reference goes; graphs, and the executable graphs made from them, hold
 * references (CUDA's way of keeping a graph's resources alive).  The
 * destructor runs on the thread that releases the last reference. */
typedef struct CuUser {
	CuObj obj;
	void *ptr;
	void (*destroy)(void *);
	unsigned refs;          /* under lock */
} CuUser;

static CuUser *user_of(CUuserObject o) { return cu_obj_get(o, CU_KIND_USER_OBJECT); }

/* Adds n references to o (n may be 0: a check); 0 for a stale o. */
static int user_retain(CUuserObject o, unsigned n)
{
	pthread_mutex_lock(&lock);
	CuUser *u = user_of(o);
	if (u)
		u->refs += n;
	pthread_mutex_unlock(&lock);
	return u != NULL;
}

/* Drops n references; the last runs the destructor and frees o. */
static CUresult user_release(CUuserObject o, unsigned n)
{
	pthread_mutex_lock(&lock);
	CuUser *u = user_of(o);
	CUresult r = u && n <= u->refs ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	void *ptr = NULL;
	void (*destroy)(void *) = NULL;
	if (!r && !(u->refs -= n)) {
		ptr = u->ptr;
		destroy = u->destroy;
		cu_obj_free(o, CU_KIND_USER_OBJECT);
	}
	pthread_mutex_unlock(&lock);
	if (destroy)
		destroy(ptr);
	return r;
}

static void refs_release(Refs *r)
{
	for (size_t i = 0; i < r->n; i++)
		user_release(r->v[i].o, r->v[i].n);
	r->n = 0;
}

static void refs_clone(Refs *to, const Refs *from)
{
	to->v = from->n ? malloc(from->n * sizeof *to->v) : NULL;
	to->n = 0;
	for (size_t i = 0; to->v && i < from->n; i++)
		if (user_retain(from->v[i].o, from->v[i].n))
			to->v[to->n++] = from->v[i];
}

CUresult cuUserObjectCreate(CUuserObject *out, void *ptr, void (*destroy)(void *), unsigned refs, unsigned flags)
{
	CTX_CALL(c);
	/* CU_USER_OBJECT_NO_DESTRUCTOR_SYNC is required, as by CUDA */
	if (!out || !destroy || !refs || flags != 1)
		return CUDA_ERROR_INVALID_VALUE;
	CuUser *u = calloc(1, sizeof *u);
	if (!u || !cu_obj_add(u, CU_KIND_USER_OBJECT)) {
		free(u);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	u->ptr = ptr;
	u->destroy = destroy;
	u->refs = refs;
	*out = CU_HANDLE(CUuserObject, u);
	return CUDA_SUCCESS;
}

CUresult cuUserObjectRetain(CUuserObject o, unsigned n)
{
	CTX_CALL(c);
	return n && user_retain(o, n) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuUserObjectRelease(CUuserObject o, unsigned n)
{
	CTX_CALL(c);
	return n ? user_release(o, n) : CUDA_ERROR_INVALID_VALUE;
}

/* flags CU_GRAPH_USER_OBJECT_MOVE (1): the caller's references move to
 * the graph, instead of new ones being taken. */
CUresult cuGraphRetainUserObject(CUgraph h, CUuserObject o, unsigned n, unsigned flags)
{
	CTX_CALL(c);
	CuGraph *g = graph_of(h);
	if (!g || !n || flags > 1 || !user_retain(o, flags ? 0 : n))
		return CUDA_ERROR_INVALID_VALUE;
	size_t i = 0;
	while (i < g->refs.n && g->refs.v[i].o != o)
		i++;
	if (i == g->refs.n) {
		void *v = realloc(g->refs.v, (g->refs.n + 1) * sizeof *g->refs.v);
		if (!v) {
			if (!flags)
				user_release(o, n);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		g->refs.v = v;
		g->refs.v[g->refs.n++].n = 0;
		g->refs.v[i].o = o;
	}
	g->refs.v[i].n += n;
	return CUDA_SUCCESS;
}

CUresult cuGraphReleaseUserObject(CUgraph h, CUuserObject o, unsigned n)
{
	CTX_CALL(c);
	CuGraph *g = graph_of(h);
	size_t i = 0;
	while (g && i < g->refs.n && g->refs.v[i].o != o)
		i++;
	if (!g || !n || i == g->refs.n || n > g->refs.v[i].n)
		return CUDA_ERROR_INVALID_VALUE;
	g->refs.v[i].n -= n;
	if (!g->refs.v[i].n)
		g->refs.v[i] = g->refs.v[--g->refs.n];
	return user_release(o, n);
}

/* ---- executable graphs -------------------------------------------------------------------------- */
/* cuGraphInstantiate's flags (CUgraphInstantiate_flags) */
enum { INSTANTIATE_AUTO_FREE = 1, INSTANTIATE_UPLOAD = 2, INSTANTIATE_DEVICE_LAUNCH = 4 };

static CUresult upload(CUgraphExec h);

/* How many executable graphs this thread is running (their host nodes
 * call here): an update of one would wait for itself. */
static _Thread_local unsigned running;

/* Whether a side of a copy is memory the device reaches: device memory,
 * or host memory mapped into it (pinned, registered, managed). */
static int reachable(uint64_t a) { return ptxvm_mem_range(cu_dev.dev, a, NULL, NULL) == PTXVM_SUCCESS; }

/* Whether a copy may be launched from the device: no CUDA arrays, host
 * memory only where the device reaches it. */
static int device_copy(const Work *w)
{
	if (!w->is3d)
		return reachable(w->copy.dst) && reachable(w->copy.src);
	const CUDA_MEMCPY3D *p = &w->copy3d;
	return p->srcMemoryType != CU_MEMORYTYPE_ARRAY && p->dstMemoryType != CU_MEMORYTYPE_ARRAY &&
	       (p->srcMemoryType != CU_MEMORYTYPE_HOST || reachable((uint64_t)(uintptr_t)p->srcHost)) &&
	       (p->dstMemoryType != CU_MEMORYTYPE_HOST || reachable((uint64_t)(uintptr_t)p->dstHost));
}

/* What CUDA requires of a graph instantiated for device launch (the
 * programming guide, "Device Graph Requirements"): kernel, copy, fill and
 * child graph nodes only (no empty, host, event, memory or conditional
 * nodes: the guide's list does not name conditional nodes), at least one; kernels that do not launch grids themselves
 * (dynamic parallelism); copies between memory the device reaches, no
 * CUDA arrays; and not AUTO_FREE_ON_LAUNCH.  Else CUDA_ERROR_INVALID_VALUE
 * with the reason said.  The nodes of child graphs are held to the same
 * rules; an empty child graph is allowed (to confirm on hardware). */
static CUresult device_nodes(const CuGraph *g, const char *in)
{
	static const char *const kind[] = { [NODE_HOST] = "a host", [NODE_EMPTY] = "an empty", [NODE_EVENT] = "an event",
					    [NODE_WAIT] = "an event wait",
					    [NODE_MEM_ALLOC] = "a memory allocation", [NODE_MEM_FREE] = "a memory free",
					    [NODE_COND] = "a conditional" };
	for (size_t i = 0; i < g->n; i++) {
		CuNode *n = node_of(g->v[i]);
		const Work *w = n ? &n->w : NULL;
		CuFunc *fn;
		const char *bad = NULL;
		if (!w)
			return CUDA_ERROR_INVALID_VALUE;
		switch (w->kind) {
		case NODE_KERNEL:
			if ((fn = cu_func(w->k.f)) && ptxvm_kernel_launches_grids(fn->k))
				bad = "its kernel launches grids (dynamic parallelism)";
			break;
		case NODE_COPY:
			if (!device_copy(w))
				bad = "it copies a CUDA array or host memory the device does not reach";
			break;
		case NODE_SET:
			break;
		case NODE_GRAPH: {
			const CuGraph *sub = graph_of(w->sub.g);
			CUresult r = sub ? device_nodes(sub, "a child graph's ") : CUDA_ERROR_INVALID_VALUE;
			if (r)
				return r;
			break;
		}
		default:
			bad = "device graphs have kernel, copy, fill and child graph nodes only";
			cu_warn("cuGraphInstantiate: %snode %zu is %s node: %s", in, i,
				w->kind < (int)(sizeof kind / sizeof *kind) && kind[w->kind] ? kind[w->kind] : "a", bad);
			return CUDA_ERROR_INVALID_VALUE;
		}
		if (bad) {
			cu_warn("cuGraphInstantiate: %snode %zu cannot be launched from the device: %s", in, i, bad);
			return CUDA_ERROR_INVALID_VALUE;
		}
	}
	return CUDA_SUCCESS;
}

static CUresult device_launchable(const CuGraph *g, unsigned long long flags)
{
	if (flags & INSTANTIATE_AUTO_FREE) {
		cu_warn("cuGraphInstantiate: DEVICE_LAUNCH and AUTO_FREE_ON_LAUNCH exclude each other");
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!g->n) {
		cu_warn("cuGraphInstantiate: a graph for device launch needs a kernel, copy or fill node");
		return CUDA_ERROR_INVALID_VALUE;
	}
	return device_nodes(g, "");
}

/* The conditional handles of g and of the graphs in it, appended to *v. */
static CUresult collect_slots(const CuGraph *g, Slot **v, size_t *n)
{
	if (g->nconds) {
		Slot *nv = realloc(*v, (*n + g->nconds) * sizeof *nv);
		if (!nv)
			return CUDA_ERROR_OUT_OF_MEMORY;
		*v = nv;
		for (size_t i = 0; i < g->nconds; i++) {
			Slot *s = &nv[(*n)++];
			s->h = g->conds[i].h, s->dflt = g->conds[i].dflt, s->flags = g->conds[i].flags;
			atomic_init(&s->value, s->dflt);
		}
	}
	for (size_t i = 0; i < g->n; i++) {
		const CuNode *nd = node_of(g->v[i]);
		const CuGraph *sub;
		CUresult r = CUDA_SUCCESS;
		if (nd && nd->w.kind == NODE_GRAPH && (sub = graph_of(nd->w.sub.g)))
			r = collect_slots(sub, v, n);
		for (size_t j = 0; !r && nd && nd->w.kind == NODE_COND && j < nd->w.cond.size; j++)
			if ((sub = graph_of(nd->w.cond.g[j])))
				r = collect_slots(sub, v, n);
		if (r)
			return r;
	}
	return CUDA_SUCCESS;
}

typedef struct Snap {
	const Slot *slot;       /* the executable graph's conditional handles */
	size_t nslot;
} Snap;

/* An executable copy of g's work (*v, *n): later changes to the graph do
 * not reach it; its kernels' parameters, child graphs and bodies are
 * copied.  In a conditional node's body (body: at any depth, children
 * included) only kernel, fill, copy, empty, child graph and conditional
 * nodes may be, as CUDA requires (CUDA_ERROR_INVALID_VALUE, said).
 * CUDA_ERROR_OUT_OF_MEMORY also for a kernel unloaded since its node was
 * made. */
static CUresult snapshot(const CuGraph *g, Work **out, size_t *nout, const Snap *sn, int body)
{
	Work *v = calloc(g->n ? g->n : 1, sizeof *v);
	CUresult r = v ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
	size_t done = 0;
	for (; !r && done < g->n; done++) {
		CuNode *n = node_of(g->v[done]);
		if (!n) {
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		}
		Work w = n->w;
		w.node = g->v[done];
		if (body && w.kind != NODE_KERNEL && w.kind != NODE_SET && w.kind != NODE_COPY && w.kind != NODE_EMPTY &&
		    w.kind != NODE_GRAPH && w.kind != NODE_COND) {
			cu_warn("cuGraphInstantiate: a conditional node's body holds a node of type %d: bodies hold "
				"kernel, copy, fill, empty, child graph and conditional nodes only", w.kind);
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		}
		if (w.kind == NODE_KERNEL) {
			CuFunc *fn = cu_func(w.k.f);
			size_t bytes = fn ? ptxvm_kernel_params_size(fn->k) : 0;
			if (!fn || !(w.k.params = malloc(bytes ? bytes : 1))) {
				r = CUDA_ERROR_OUT_OF_MEMORY;
				break;
			}
			memcpy(w.k.params, n->w.k.params, bytes);
		} else if (w.kind == NODE_GRAPH) {
			const CuGraph *sub = graph_of(w.sub.g);
			if (!sub || (r = snapshot(sub, &w.sub.v, &w.sub.n, sn, body)))
				break;
		} else if (w.kind == NODE_COND) {
			w.cond.g = NULL;
			for (w.cond.slot = 0; w.cond.slot < sn->nslot && sn->slot[w.cond.slot].h != w.cond.handle;)
				w.cond.slot++;
			if (w.cond.slot == sn->nslot) {
				cu_warn("cuGraphInstantiate: a conditional node's handle %#llx was made for a graph "
					"outside the one instantiated", (unsigned long long)w.cond.handle);
				r = CUDA_ERROR_INVALID_VALUE;
				break;
			}
			if (!(w.cond.body = calloc(w.cond.size, sizeof *w.cond.body))) {
				r = CUDA_ERROR_OUT_OF_MEMORY;
				break;
			}
			for (unsigned i = 0; !r && i < w.cond.size; i++) {
				const CuGraph *sub = graph_of(n->w.cond.g[i]);
				r = sub ? snapshot(sub, &w.cond.body[i].v, &w.cond.body[i].n, sn, 1)
					: CUDA_ERROR_INVALID_VALUE;
			}
			if (r) {
				work_free(&w);
				break;
			}
		}
		if (n->ndeps && !(w.dep = malloc(n->ndeps * sizeof *w.dep))) {
			work_free(&w);
			r = CUDA_ERROR_OUT_OF_MEMORY;
			break;
		}
		w.ndep = n->ndeps;
		for (size_t j = 0; j < n->ndeps; j++)
			w.dep[j] = node_of(n->deps[j])->idx;
		v[done] = w;
	}
	if (r) {
		works_free(v, done);
		return r;
	}
	*out = v;
	*nout = g->n;
	return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph h, unsigned long long flags)
{
	CTX_CALL(c);
	CuGraph *g = graph_of(h);
	if (!out || !g)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & ~(unsigned long long)(INSTANTIATE_AUTO_FREE | INSTANTIATE_DEVICE_LAUNCH)) {
		cu_warn("cuGraphInstantiate: flags %#llx are not supported", flags);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	CUresult why = flags & INSTANTIATE_DEVICE_LAUNCH ? device_launchable(g, flags) : CUDA_SUCCESS;
	if (why)
		return why;
	if (g->execs && (has_memory_nodes(g) || has_devnodes(g))) {
		cu_warn("cuGraphInstantiate: a graph with memory nodes or device-updatable kernel nodes has one "
			"executable graph at a time: destroy the other first");
		return CUDA_ERROR_NOT_SUPPORTED;        /* an H200's answer */
	}
	CuExec *e = calloc(1, sizeof *e);
	Work *v = NULL;
	size_t n = 0;
	if (e)
		pthread_rwlock_init(&e->rw, NULL);
	CUresult r = e ? collect_slots(g, &e->slot, &e->nslot) : CUDA_ERROR_OUT_OF_MEMORY;
	if (!r)
		r = snapshot(g, &v, &n, &(Snap){ e->slot, e->nslot }, 0);
	if (!r && !cu_obj_add(e, CU_KIND_GRAPH_EXEC))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r) {
		works_free(v, n);
		if (e) {
			free(e->slot);
			pthread_rwlock_destroy(&e->rw);
		}
		free(e);
		return r;
	}
	e->obj.drop = exec_drop;
	e->v = v;
	e->n = n;
	if (devnodes_add(e, v, n)) {
		devnodes_drop(e);
		exec_drop(e);
		cu_obj_free(CU_HANDLE(CUgraphExec, e), CU_KIND_GRAPH_EXEC);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	e->from = h;
	e->flags = flags;
	g->execs++;
	hold_memory(v, e->n, 1);
	refs_clone(&e->refs, &g->refs);
	*out = CU_HANDLE(CUgraphExec, e);
	return CUDA_SUCCESS;
}

CUresult cuGraphInstantiate_v2(CUgraphExec *out, CUgraph g, CUgraphNode *err_node, char *log, size_t logsz)
{
	if (err_node)
		*err_node = NULL;
	if (log && logsz)
		log[0] = 0;
	return cuGraphInstantiateWithFlags(out, g, 0);
}

CUresult cuGraphInstantiate(CUgraphExec *out, CUgraph g, CUgraphNode *err_node, char *log, size_t logsz)
{
	return cuGraphInstantiate_v2(out, g, err_node, log, logsz);
}

typedef struct CUDA_GRAPH_INSTANTIATE_PARAMS {
	uint64_t flags;
	CUstream upload;
	CUgraphNode err_node;
	int result;             /* CUgraphInstantiateResult: 0 success, 1 error */
} CUDA_GRAPH_INSTANTIATE_PARAMS;

CUresult cuGraphInstantiateWithParams(CUgraphExec *out, CUgraph g, CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (p->flags & INSTANTIATE_UPLOAD) {    /* to the stream p->upload */
		CUresult r = cu_stream_check(p->upload);
		if (r)
			return r;
	}
	CUresult r = cuGraphInstantiateWithFlags(out, g, p->flags & ~(unsigned long long)INSTANTIATE_UPLOAD);
	if (!r && p->flags & INSTANTIATE_UPLOAD)
		r = upload(*out);
	p->err_node = NULL;
	p->result = r != CUDA_SUCCESS;
	return r;
}

/* An executable graph destroyed while another thread runs it (in flight,
 * as CUDA says) is freed when that run is done, as in CUDA: each call and
 * run that uses one holds it (exec_get) until it lets go (exec_put), and
 * the last to let go of a destroyed one frees it.  Its handle is refused
 * from the destruction on. */
static pthread_mutex_t exec_life = PTHREAD_MUTEX_INITIALIZER;

static CuExec *exec_get(CUgraphExec h)
{
	pthread_mutex_lock(&exec_life);
	CuExec *e = exec_of(h);
	if (e && e->dead)
		e = NULL;
	if (e)
		e->users++;
	pthread_mutex_unlock(&exec_life);
	return e;
}

/* Frees e (under exec_life, so that no exec_get reads it meanwhile) but
 * for its user objects' references, which it gives back: their
 * destructors run outside the lock. */
static Refs exec_free(CuExec *e)
{
	CUgraphExec h = CU_HANDLE(CUgraphExec, e);
	Refs refs = e->refs;
	e->refs = (Refs){ 0 };
	hold_memory(e->v, e->n, -1);
	CuGraph *g = graph_of(e->from);
	if (g)
		g->execs--;
	if (e->flags & INSTANTIATE_DEVICE_LAUNCH)
		ptxvm_graph_unregister(cu_dev.dev, (uint64_t)(uintptr_t)h);    /* if it was uploaded */
	devnodes_drop(e);
	exec_drop(e);
	cu_obj_free(h, CU_KIND_GRAPH_EXEC);
	return refs;
}

static void exec_put(CuExec *e)
{
	Refs refs = { 0 };
	pthread_mutex_lock(&exec_life);
	if (!--e->users && e->dead)
		refs = exec_free(e);
	pthread_mutex_unlock(&exec_life);
	refs_release(&refs);
	free(refs.v);
}

/* From a host node of a graph being run on this thread it is refused
 * (CUDA_ERROR_NOT_PERMITTED), as the updates are. */
CUresult cuGraphExecDestroy(CUgraphExec h)
{
	CTX_CALL(c);
	CuExec *e = exec_get(h);
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	if (running) {
		cu_warn("cuGraphExecDestroy: called while this thread runs a graph (from a host node)");
		exec_put(e);
		return CUDA_ERROR_NOT_PERMITTED;
	}
	pthread_mutex_lock(&exec_life);
	int was = e->dead;      /* by another thread meanwhile */
	e->dead = 1;
	pthread_mutex_unlock(&exec_life);
	exec_put(e);
	return was ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuGraphExecGetFlags(CUgraphExec h, uint64_t *flags)
{
	CTX_CALL(c);
	CuExec *e = exec_get(h);
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	if (flags)
		*flags = e->flags;
	exec_put(e);
	return flags ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---- changing an executable graph's work -----------------------------------------------------
 * A node of the graph an executable graph was made from, or of the graph
 * it was last updated from (or of a child graph or body in either), names
 * the work it became.  A change holds the
 * executable graph for writing, so it waits for the runs already started
 * (on other threads) and reaches the later ones, as CUDA's updates reach
 * the launches after them only. */

/* The work node h became in e, NULL if h is no node e was made from (one
 * added since, or of another graph) nor one of the graph e was last
 * updated from: through the graphs h is in, up to e's. */
static Work *exec_work(CuExec *e, CUgraphNode h)
{
	CuNode *n = node_of(h);
	const CuGraph *g = n ? graph_of(n->graph) : NULL;
	Work *v = NULL;
	size_t cnt = 0;
	if (!g)
		return NULL;
	if (n->graph == e->from || n->graph == e->upd)
		v = e->v, cnt = e->n;
	else if (g->owner) {
		Work *o = exec_work(e, g->owner);
		const CuNode *on = node_of(g->owner);
		if (o && o->kind == NODE_GRAPH)
			v = o->sub.v, cnt = o->sub.n;
		for (unsigned j = 0; o && o->kind == NODE_COND && j < o->cond.size; j++)
			if (on->w.cond.g[j] == n->graph)
				v = o->cond.body[j].v, cnt = o->cond.body[j].n;
	}
	for (size_t i = 0; i < cnt; i++)
		if (v[i].node == h || v[i].alt == h)
			return &v[i];
	return NULL;
}

/* The start of a change: e held for writing (exec_end lets go), and
 * (exec_begin) its work for h, of kind (-1: any).  A host node of a graph
 * being run on this thread cannot change one (CUDA forbids CUDA calls
 * there): refused with CUDA_ERROR_NOT_PERMITTED rather than waiting for
 * itself. */
static CUresult exec_hold(CUgraphExec he, const char *who, CuExec **e)
{
	if (!(*e = exec_get(he)))
		return CUDA_ERROR_INVALID_VALUE;
	if (running) {
		cu_warn("%s: called while this thread runs a graph (from a host node)", who);
		exec_put(*e);
		return CUDA_ERROR_NOT_PERMITTED;
	}
	pthread_rwlock_wrlock(&(*e)->rw);
	return CUDA_SUCCESS;
}

static CUresult exec_end(CuExec *e, CUresult r);

static CUresult exec_begin(CUgraphExec he, CUgraphNode h, int kind, const char *who, CuExec **e, Work **w)
{
	CUresult r = exec_hold(he, who, e);
	if (r)
		return r;
	*w = exec_work(*e, h);
	if (!*w || (kind >= 0 && (*w)->kind != kind))
		return exec_end(*e, CUDA_ERROR_INVALID_VALUE);
	return CUDA_SUCCESS;
}

static CUresult exec_end(CuExec *e, CUresult r)
{
	pthread_rwlock_unlock(&e->rw);
	exec_put(e);
	return r;
}

/* What CUDA allows a kernel node's function to become: one of the same
 * context, and not one that launches grids when the old one did not
 * (dynamic parallelism).  0: allowed. */
static int function_change(CUfunction from, CUfunction to)
{
	CuFunc *a = cu_func(from), *b = cu_func(to);
	if (!a || !b)
		return 1;
	return cu_func_ctx(a) != cu_func_ctx(b) ||
	       (!ptxvm_kernel_launches_grids(a->k) && ptxvm_kernel_launches_grids(b->k));
}

/* w's kernel and launch become nw's (whose parameters it takes). */
static void kernel_into(Work *w, Work *nw)
{
	if (w->k.devnode)
		pthread_mutex_lock(&dev_lock);
	free(w->k.params);
	w->k.f = nw->k.f;
	w->k.cfg = nw->k.cfg;
	w->k.params = nw->k.params;
	if (w->k.devnode)
		pthread_mutex_unlock(&dev_lock);
}

static CUresult exec_kernel_set(CUgraphExec he, CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p, int v2)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w, nw;
	CUresult r = exec_begin(he, h, NODE_KERNEL, "cuGraphExecKernelNodeSetParams", &e, &w);
	if (r)
		return r;
	if ((r = kernel_work(p, v2, "cuGraphExecKernelNodeSetParams", &nw)))
		return exec_end(e, r);
	if (function_change(w->k.f, nw.k.f)) {
		cu_warn("cuGraphExecKernelNodeSetParams: the kernel may not change to one of another context, or "
			"to one that launches grids when the node's did not");
		free(nw.k.params);
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	}
	kernel_into(w, &nw);
	return exec_end(e, CUDA_SUCCESS);
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec e, CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p)
{
	return exec_kernel_set(e, h, p, 1);
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec e, CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p)
{
	return exec_kernel_set(e, h, p, 0);
}

static int one_row(const CUDA_MEMCPY3D *p) { return p->Height == 1 && p->Depth == 1; }

/* CUDA's rules: both the copy and its new parameters one-dimensional, not
 * empty, each side of the same kind of memory as before (and, in a graph
 * for device launch, memory the device reaches). */
CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec he, CUgraphNode h, const CUDA_MEMCPY3D *p, CUcontext ctx)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w;
	CUresult r = exec_begin(he, h, NODE_COPY, "cuGraphExecMemcpyNodeSetParams", &e, &w);
	if (r)
		return r;
	CUDA_MEMCPY3D old = copy_params(w);
	Work nw = { .kind = NODE_COPY, .is3d = 1 };
	if (!p || !one_row(p) || !one_row(&old) || !p->WidthInBytes || p->srcMemoryType != old.srcMemoryType ||
	    p->dstMemoryType != old.dstMemoryType)
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	nw.copy3d = *p;
	if (e->flags & INSTANTIATE_DEVICE_LAUNCH && !device_copy(&nw))
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	w->is3d = 1;
	w->copy3d = *p;
	return exec_end(e, CUDA_SUCCESS);
}

/* Whether a fill may become p: a 2D fill keeps its shape, a 1D fill
 * stays 1D. */
static int set_change_ok(const Work *w, const CUDA_MEMSET_NODE_PARAMS *p)
{
	if (w->set.h > 1)
		return p->w == w->set.w && p->h == w->set.h && p->elem == w->set.elem && p->pitch == w->set.pitch;
	return p->h == 1;
}

static void set_into(Work *w, const CUDA_MEMSET_NODE_PARAMS *p)
{
	w->set.dst = p->dst, w->set.pitch = p->pitch, w->set.value = p->value;
	w->set.elem = p->elem, w->set.w = p->w, w->set.h = p->h;
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec he, CUgraphNode h, const CUDA_MEMSET_NODE_PARAMS *p,
					CUcontext ctx)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w;
	CUresult r = exec_begin(he, h, NODE_SET, "cuGraphExecMemsetNodeSetParams", &e, &w);
	if (r)
		return r;
	if (!set_ok(p) || !p->w || !set_change_ok(w, p))
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	set_into(w, p);
	return exec_end(e, CUDA_SUCCESS);
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec he, CUgraphNode h, const CUDA_HOST_NODE_PARAMS *p)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w;
	CUresult r = exec_begin(he, h, NODE_HOST, "cuGraphExecHostNodeSetParams", &e, &w);
	if (r)
		return r;
	if (!p || !p->fn)
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	w->host.fn = p->fn;
	w->host.data = p->data;
	return exec_end(e, CUDA_SUCCESS);
}

static CUresult exec_event_set(CUgraphExec he, CUgraphNode h, int kind, CUevent ev, const char *who)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w;
	CUresult r = exec_begin(he, h, kind, who, &e, &w);
	if (r)
		return r;
	if (!event_live(ev))
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	w->event = ev;
	return exec_end(e, CUDA_SUCCESS);
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec he, CUgraphNode h, CUevent ev)
{
	return exec_event_set(he, h, NODE_EVENT, ev, "cuGraphExecEventRecordNodeSetEvent");
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec he, CUgraphNode h, CUevent ev)
{
	return exec_event_set(he, h, NODE_WAIT, ev, "cuGraphExecEventWaitNodeSetEvent");
}

/* Only kernel, copy and fill nodes may be disabled (CUDA's rule); a
 * disabled node does nothing when the graph runs. */
CUresult cuGraphNodeSetEnabled(CUgraphExec he, CUgraphNode h, unsigned on)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w;
	CUresult r = exec_begin(he, h, -1, "cuGraphNodeSetEnabled", &e, &w);
	if (r)
		return r;
	if (w->kind != NODE_KERNEL && w->kind != NODE_COPY && w->kind != NODE_SET)
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	pthread_mutex_lock(&dev_lock);
	w->disabled = !on;
	pthread_mutex_unlock(&dev_lock);
	return exec_end(e, CUDA_SUCCESS);
}

CUresult cuGraphNodeGetEnabled(CUgraphExec he, CUgraphNode h, unsigned *on)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w;
	CUresult r = exec_begin(he, h, -1, "cuGraphNodeGetEnabled", &e, &w);
	if (r)
		return r;
	if (!on || (w->kind != NODE_KERNEL && w->kind != NODE_COPY && w->kind != NODE_SET))
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	pthread_mutex_lock(&dev_lock);
	*on = !w->disabled;
	pthread_mutex_unlock(&dev_lock);
	return exec_end(e, CUDA_SUCCESS);
}

/* ---- cuGraphExecUpdate -----------------------------------------------------------------------
 * An executable graph's work takes the parameters of a graph of the same
 * shape: node i of the graph (in the order the nodes were added) gives
 * its parameters to the work made from node i of the graph instantiated,
 * which must have the same dependencies (as a set) and kind, and whose
 * parameters may change only as CUDA's rules allow.  All is checked
 * before anything changes. */
enum { UPD_SUCCESS, UPD_ERROR, UPD_TOPOLOGY, UPD_TYPE, UPD_FUNCTION, UPD_PARAMETERS, UPD_NOT_SUPPORTED,
       UPD_FUNCTION_CHANGE, UPD_ATTRIBUTES };      /* CUgraphExecUpdateResult */

typedef struct CuUpdateInfo {   /* CUgraphExecUpdateResultInfo */
	int result;
	CUgraphNode node, from;
} CuUpdateInfo;

/* Whether g may give its parameters to work v[0..n) (device: of a graph
 * instantiated for device launch, whose copies stay within what the
 * device reaches): 0, or 1 with the reason and the node of g (at any
 * depth) in *u. */
static int update_check(const Work *v, size_t n, const CuGraph *g, int device, CuUpdateInfo *u)
{
	if (g->n != n) {
		*u = (CuUpdateInfo){ UPD_TOPOLOGY, NULL, NULL };
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const CuNode *nd = node_of(g->v[i]);
		const Work *w = &v[i];
		int bad = UPD_SUCCESS;
		*u = (CuUpdateInfo){ UPD_TOPOLOGY, g->v[i], NULL };
		if (!nd || nd->ndeps != w->ndep)
			return 1;
		for (size_t j = 0; j < nd->ndeps; j++) {
			size_t at = node_of(nd->deps[j])->idx, k = 0;
			while (k < w->ndep && w->dep[k] != at)
				k++;
			if (k == w->ndep) {
				u->from = nd->deps[j];
				return 1;
			}
		}
		if (nd->w.kind != w->kind)
			bad = UPD_TYPE;
		else if (w->kind == NODE_KERNEL)
			bad = w->k.devnode || nd->w.k.devnode ? UPD_NOT_SUPPORTED :
			      function_change(w->k.f, nd->w.k.f) ? UPD_FUNCTION_CHANGE : UPD_SUCCESS;
		else if (w->kind == NODE_COPY) {
			CUDA_MEMCPY3D a = copy_params(w), b = copy_params(&nd->w);
			if (a.srcMemoryType != b.srcMemoryType || a.dstMemoryType != b.dstMemoryType ||
			    (device && !device_copy(&nd->w)))
				bad = UPD_PARAMETERS;
		} else if (w->kind == NODE_SET) {
			const CUDA_MEMSET_NODE_PARAMS p = { .dst = nd->w.set.dst, .pitch = nd->w.set.pitch,
							    .value = nd->w.set.value, .elem = nd->w.set.elem,
							    .w = nd->w.set.w, .h = nd->w.set.h };
			bad = set_change_ok(w, &p) ? UPD_SUCCESS : UPD_PARAMETERS;
		} else if (w->kind == NODE_MEM_ALLOC || w->kind == NODE_MEM_FREE)
			bad = w->mem.id != nd->w.mem.id ? UPD_NOT_SUPPORTED : UPD_SUCCESS;
		else if (w->kind == NODE_GRAPH) {
			const CuGraph *sub = graph_of(nd->w.sub.g);
			if (!sub)
				bad = UPD_ERROR;
			else if (update_check(w->sub.v, w->sub.n, sub, device, u))
				return 1;
		} else if (w->kind == NODE_COND) {
			if (w->cond.handle != nd->w.cond.handle || w->cond.type != nd->w.cond.type ||
			    w->cond.size != nd->w.cond.size)
				bad = UPD_PARAMETERS;
			for (unsigned j = 0; !bad && j < w->cond.size; j++) {
				const CuGraph *sub = graph_of(nd->w.cond.g[j]);
				if (!sub)
					bad = UPD_ERROR;
				else if (update_check(w->cond.body[j].v, w->cond.body[j].n, sub, device, u))
					return 1;
			}
		}
		if (bad) {
			*u = (CuUpdateInfo){ bad, g->v[i], NULL };
			return 1;
		}
	}
	*u = (CuUpdateInfo){ UPD_SUCCESS, NULL, NULL };
	return 0;
}

/* Work v[0..n) takes g's parameters (update_check allowed it), and g's
 * nodes name it too from now on; whether a node was enabled stays as it
 * was.  CUDA_ERROR_OUT_OF_MEMORY: a kernel's
 * parameters could not be copied (the nodes before it have changed). */
static CUresult update_apply(Work *v, size_t n, const CuGraph *g)
{
	CUresult r = CUDA_SUCCESS;
	for (size_t i = 0; i < n && !r; i++) {
		const CuNode *nd = node_of(g->v[i]);
		Work *w = &v[i];
		w->alt = g->v[i];
		switch (w->kind) {
		case NODE_KERNEL: {
			size_t bytes = ptxvm_kernel_params_size(cu_func(nd->w.k.f)->k);
			Work nw = nd->w;
			if (!(nw.k.params = malloc(bytes ? bytes : 1)))
				return CUDA_ERROR_OUT_OF_MEMORY;
			memcpy(nw.k.params, nd->w.k.params, bytes);
			kernel_into(w, &nw);
			break;
		}
		case NODE_COPY:
			if ((w->is3d = nd->w.is3d))
				w->copy3d = nd->w.copy3d;
			else
				w->copy = nd->w.copy;
			break;
		case NODE_SET:
			w->set = nd->w.set;
			break;
		case NODE_HOST:
			w->host = nd->w.host;
			break;
		case NODE_EVENT:
		case NODE_WAIT:
			w->event = nd->w.event;
			break;
		case NODE_GRAPH:
			r = update_apply(w->sub.v, w->sub.n, graph_of(nd->w.sub.g));
			break;
		case NODE_COND:
			for (unsigned j = 0; !r && j < w->cond.size; j++)
				r = update_apply(w->cond.body[j].v, w->cond.body[j].n, graph_of(nd->w.cond.g[j]));
			break;
		}
	}
	return r;
}

/* e's conditional handles take the defaults and flags g's have now. */
static void update_slots(CuExec *e, const CuGraph *g)
{
	Slot *v = NULL;
	size_t n = 0;
	if (!collect_slots(g, &v, &n))
		for (size_t i = 0; i < e->nslot; i++)
			for (size_t j = 0; j < n; j++)
				if (e->slot[i].h == v[j].h)
					e->slot[i].dflt = v[j].dflt, e->slot[i].flags = v[j].flags;
	free(v);
}

/* A refused update is no failure of the program's (llama.cpp instantiates
 * again then): its reason is said with PTXVM_LOG=1 only. */
CUresult cuGraphExecUpdate_v2(CUgraphExec he, CUgraph hg, CuUpdateInfo *info)
{
	CTX_CALL(c);
	if (!info)
		return CUDA_ERROR_INVALID_VALUE;
	*info = (CuUpdateInfo){ UPD_ERROR, NULL, NULL };
	CuGraph *g = graph_of(hg);
	CuExec *e;
	CUresult r = g ? exec_hold(he, "cuGraphExecUpdate", &e) : CUDA_ERROR_INVALID_VALUE;
	if (r)
		return r;
	if (update_check(e->v, e->n, g, (e->flags & INSTANTIATE_DEVICE_LAUNCH) != 0, info)) {
		cu_log("cuGraphExecUpdate: refused, CUgraphExecUpdateResult %d", info->result);
		r = CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
	} else if ((r = update_apply(e->v, e->n, g)))
		info->result = UPD_ERROR;
	else {
		update_slots(e, g);
		e->upd = hg;
	}
	return exec_end(e, r);
}

CUresult cuGraphExecUpdate(CUgraphExec he, CUgraph hg, CUgraphNode *node, int *result)
{
	if (!node || !result)
		return CUDA_ERROR_INVALID_VALUE;
	CuUpdateInfo u;
	CUresult r = cuGraphExecUpdate_v2(he, hg, &u);
	*node = u.node;
	*result = u.result;
	return r;
}

/* The child graph's work takes child's parameters, by cuGraphExecUpdate's
 * rules (CUDA_ERROR_INVALID_VALUE when they refuse). */
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec he, CUgraphNode h, CUgraph child)
{
	CTX_CALL(c);
	CuExec *e;
	Work *w;
	const CuGraph *g = graph_of(child);
	CUresult r = g ? exec_begin(he, h, NODE_GRAPH, "cuGraphExecChildGraphNodeSetParams", &e, &w)
		       : CUDA_ERROR_INVALID_VALUE;
	if (r)
		return r;
	CuUpdateInfo u;
	if (update_check(w->sub.v, w->sub.n, g, (e->flags & INSTANTIATE_DEVICE_LAUNCH) != 0, &u)) {
		cu_warn("cuGraphExecChildGraphNodeSetParams: the graph's shape or parameters differ as an update may "
			"not change them (CUgraphExecUpdateResult %d)", u.result);
		return exec_end(e, CUDA_ERROR_INVALID_VALUE);
	}
	return exec_end(e, update_apply(w->sub.v, w->sub.n, g));
}

/* By the node's kind, which must be p's, as the calls of each kind do. */
CUresult cuGraphExecNodeSetParams(CUgraphExec he, CUgraphNode h, CuNodeParams *p)
{
	CTX_CALL(c);
	CuNode *n = node_of(h);
	CuExec *e;
	Work *w;
	if (!n || !p || p->type != n->w.kind)
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->type) {
	case NODE_KERNEL:
		return exec_kernel_set(he, h, &p->kernel, 1);
	case NODE_COPY:
		return cuGraphExecMemcpyNodeSetParams(he, h, &p->memcpy.copy, p->memcpy.ctx);
	case NODE_SET:
		return cuGraphExecMemsetNodeSetParams(he, h, &p->memset.p, p->memset.ctx);
	case NODE_HOST:
		return cuGraphExecHostNodeSetParams(he, h, &p->host);
	case NODE_GRAPH:
		return cuGraphExecChildGraphNodeSetParams(he, h, p->graph.graph);
	case NODE_EVENT:
	case NODE_WAIT:
		return exec_event_set(he, h, p->type, p->event, "cuGraphExecNodeSetParams");
	case NODE_EMPTY: {
		CUresult r = exec_begin(he, h, NODE_EMPTY, "cuGraphExecNodeSetParams", &e, &w);
		return r ? r : exec_end(e, CUDA_SUCCESS);
	}
	case NODE_MEM_ALLOC:
	case NODE_MEM_FREE:
		cu_warn("cuGraphExecNodeSetParams: a memory node's parameters cannot change");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	cu_warn("cuGraphExecNodeSetParams: changing a node of type %d is not supported", p->type);
	return CUDA_ERROR_NOT_SUPPORTED;
}

static ptxvm_result run_exec(void *arg, uint64_t graph, ptxvm_graph_env *env);

/* The graph's memory is the device's already; a graph instantiated for
 * device launch may be launched from kernels from now on (before its
 * upload, or its first launch from the host, a kernel's cudaGraphLaunch
 * of it fails, as the programming guide requires). */
static CUresult upload(CUgraphExec h)
{
	CuExec *e = exec_of(h);
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	if (!(e->flags & INSTANTIATE_DEVICE_LAUNCH))
		return CUDA_SUCCESS;
	return cu_result(NULL, ptxvm_graph_register(cu_dev.dev, (uint64_t)(uintptr_t)h, run_exec, h), "cuGraphUpload");
}

CUresult cuGraphUpload(CUgraphExec h, CUstream s)
{
	CTX_CALL(c);
	CuExec *e = exec_get(h);
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = cu_stream_check(s);
	if (!r)
		r = upload(h);
	exec_put(e);
	return r;
}

static CUresult run_copy(CuCtx *c, const Work *w)
{
	if (w->is3d)
		return cu_copy3d(&w->copy3d, "cuGraphLaunch (a copy)");
	const uint64_t d = w->copy.dst, s = w->copy.src;
	ptxvm_result r = PTXVM_SUCCESS;
	switch (w->copy.dev) {
	case 3: r = ptxvm_memcpy_dtod(cu_dev.dev, d, s, w->copy.n); break;
	case 1: r = ptxvm_memcpy_htod(cu_dev.dev, d, (const void *)(uintptr_t)s, w->copy.n); break;
	case 2: r = ptxvm_memcpy_dtoh(cu_dev.dev, (void *)(uintptr_t)d, s, w->copy.n); break;
	default: memmove((void *)(uintptr_t)d, (const void *)(uintptr_t)s, w->copy.n); break;
	}
	return cu_result(c, r, "cuGraphLaunch (a copy)");
}

/* Whether work v[0..n) has a kernel, at any depth. */
static int has_kernel(const Work *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int k = v[i].kind == NODE_KERNEL || (v[i].kind == NODE_GRAPH && has_kernel(v[i].sub.v, v[i].sub.n));
		for (unsigned j = 0; !k && v[i].kind == NODE_COND && j < v[i].cond.size; j++)
			k = has_kernel(v[i].cond.body[j].v, v[i].cond.body[j].n);
		if (k)
			return 1;
	}
	return 0;
}

static CUresult run_work(CuCtx *c, CuExec *e, const Work *v, size_t n, ptxvm_graph_env *env);

/* A device-updatable kernel node: its launch data as kernels left it,
 * copied under the table's lock (its own kernel may change it). */
static CUresult run_devnode(CuCtx *c, CuFunc *fn, const Work *w, ptxvm_graph_env *env)
{
	size_t bytes = ptxvm_kernel_params_size(fn->k);
	void *params = malloc(bytes ? bytes : 1);
	if (!params)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&dev_lock);
	ptxvm_launch_config cfg = w->k.cfg;
	int off = w->disabled;
	memcpy(params, w->k.params, bytes);
	pthread_mutex_unlock(&dev_lock);
	CUresult r = off ? CUDA_SUCCESS : cu_launch_run(c, fn, &cfg, NULL, params, 0, env);
	free(params);
	return r;
}

/* A conditional node of e (conditional nodes, above).  A WHILE loop asks
 * the device's time limit before each turn; one whose body has no kernel
 * to change its value would never end, and fails at once (to confirm on
 * hardware, where it would hang). */
static CUresult run_cond(CuCtx *c, CuExec *e, const Work *w, ptxvm_graph_env *env)
{
	_Atomic unsigned *val = &e->slot[w->cond.slot].value;
	unsigned x = atomic_load(val);
	const Body *b = w->cond.body;
	switch (w->cond.type) {
	case COND_IF:
		return x ? run_work(c, e, b[0].v, b[0].n, env) :
		       w->cond.size == 2 ? run_work(c, e, b[1].v, b[1].n, env) : CUDA_SUCCESS;
	case COND_SWITCH:
		return x < w->cond.size ? run_work(c, e, b[x].v, b[x].n, env) : CUDA_SUCCESS;
	}
	if (x && !has_kernel(b[0].v, b[0].n)) {
		cu_warn("cuGraphLaunch: a WHILE node's value is %u and its body has no kernel to change it: "
			"the loop would never end", x);
		return CUDA_ERROR_INVALID_VALUE;        /* before it starts: the context stays usable */
	}
	CUresult r = CUDA_SUCCESS;
	for (; !r && atomic_load(val); ) {
		ptxvm_result pr = ptxvm_graph_env_expired(env);
		r = pr ? cu_result(c, pr, "cuGraphLaunch (a WHILE node)") : run_work(c, e, b[0].v, b[0].n, env);
	}
	return r;
}

/* Runs work v[0..n) of e in order, as the stream would have run the
 * captured work, its kernels as nodes of the graph in env (so that they
 * may launch device graphs and set conditional values), a child graph's
 * work in its place; the first failure ends the run with its error. */
static CUresult run_work(CuCtx *c, CuExec *e, const Work *v, size_t n, ptxvm_graph_env *env)
{
	CUresult r = CUDA_SUCCESS;
	for (size_t i = 0; i < n && !r; i++) {
		const Work *w = &v[i];
		CuFunc *fn;
		switch (w->kind) {
		case NODE_KERNEL:
			if (!(fn = cu_func(w->k.f))) {
				cu_warn("cuGraphLaunch: node %zu's kernel was unloaded", i);
				return CUDA_ERROR_INVALID_HANDLE;
			}
			if (!w->k.devnode) {
				r = w->disabled ? CUDA_SUCCESS : cu_launch_run(c, fn, &w->k.cfg, NULL, w->k.params, 0, env);
				break;
			}
			r = run_devnode(c, fn, w, env);
			break;
		case NODE_COPY:
			r = w->disabled ? CUDA_SUCCESS : run_copy(c, w);
			break;
		case NODE_SET:
			r = w->disabled ? CUDA_SUCCESS : cu_memset2d("cuGraphLaunch (a fill)", w->set.dst, w->set.pitch, w->set.value, w->set.elem,
					w->set.w, w->set.h);
			break;
		case NODE_HOST:
			cu_printf_flush();      /* as before a stream's host function */
			w->host.fn(w->host.data);
			break;
		case NODE_EVENT:
			cu_event_stamp(w->event);
			break;
		case NODE_WAIT:         /* the work its event followed is done */
			break;
		case NODE_MEM_ALLOC:
		case NODE_MEM_FREE:
			r = cu_gmem_run(w->mem.addr, w->mem.id, w->kind == NODE_MEM_ALLOC);
			break;
		case NODE_GRAPH:
			r = run_work(c, e, w->sub.v, w->sub.n, env);
			break;
		case NODE_COND:
			r = run_cond(c, e, w, env);
			break;
		}
	}
	return r;
}

/* A kernel's cudaGraphSetConditional in executable graph arg. */
static int set_cond(void *arg, uint64_t handle, unsigned value)
{
	CuExec *e = arg;
	for (size_t i = 0; i < e->nslot; i++)
		if (e->slot[i].h == handle) {
			atomic_store(&e->slot[i].value, value);
			return 0;
		}
	return -1;
}

/* Runs an executable graph (run_work).  arg is the executable graph: the
 * same function runs it from the host and from kernels (devgraph.c in the
 * C API).  The run holds the graph for reading: an update of its work
 * waits for the runs already started, and reaches the later ones only. */
static ptxvm_result run_exec(void *arg, uint64_t graph, ptxvm_graph_env *env)
{
	(void)graph;
	CuCtx *c;
	CUresult r = cu_enter(&c);
	CuExec *e = r ? NULL : exec_get((CUgraphExec)arg);
	if (!r && !e)
		r = CUDA_ERROR_INVALID_VALUE;   /* destroyed while its launch was queued */
	if (!r) {
		pthread_rwlock_rdlock(&e->rw);
		running++;
		for (size_t i = 0; i < e->nslot; i++)
			if (e->slot[i].flags & COND_ASSIGN_DEFAULT)
				atomic_store(&e->slot[i].value, e->slot[i].dflt);
		ptxvm_graph_env_conditionals(env, set_cond, e);
		ptxvm_graph_env_updates(env, dev_update, NULL);
		r = run_work(c, e, e->v, e->n, env);
		running--;
		pthread_rwlock_unlock(&e->rw);
		exec_put(e);
	}
	return (ptxvm_result)r;
}

/* Runs the graph, then the graphs its kernels launched (ptxvm_graph_run);
 * launching a graph made for device launch from the host uploads it. */
CUresult cuGraphLaunch(CUgraphExec h, CUstream s)
{
	CTX_CALL(c);
	CuExec *e = exec_get(h);
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = cu_stream_check(s);
	if (!r && cu_capturing(s))
		r = cu_capture_refuse(s, "cuGraphLaunch (a child graph)");
	if (!r && !(r = relaunch_memory(e->v, e->n, e->flags)) && !(r = upload(h))) {
		int device = (e->flags & INSTANTIATE_DEVICE_LAUNCH) != 0;
		ptxvm_result pr = ptxvm_graph_run(cu_dev.dev, device ? (uint64_t)(uintptr_t)h : 0, run_exec, h);
		r = pr ? cu_result(c, pr, "cuGraphLaunch") : CUDA_SUCCESS;
	}
	exec_put(e);
	return r;
}

CU_PT_ALIAS(cuGraphLaunch, _ptsz);
CU_PT_ALIAS(cuGraphUpload, _ptsz);
CU_PT_ALIAS(cuGraphInstantiateWithParams, _ptsz);
