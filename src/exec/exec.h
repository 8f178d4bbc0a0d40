/* exec.h: running a kernel launch over a lowered program.
 *
 * A launch is a grid of CTAs taken by a pool of worker threads, one CTA
 * per worker at a time.  Inside a CTA the threads run as warps of 32
 * lanes, each a resumable state machine: a reconvergence stack of
 * (pc, reconvergence pc, mask) entries and a stack of call frames.  A
 * warp runs until it blocks on a barrier, yields, exits or faults; the
 * CTA's scheduler then moves to the next warp.
 */
#ifndef PTXVM_EXEC_H
#define PTXVM_EXEC_H

#include "../lower/prog.h"
#include "../mem/heap.h"
#include "../mem/mem.h"
#include "../surf/surf.h"
#include "fifo.h"

#include <stdatomic.h>
#include <stdio.h>

/* cudaError_t: the values the device runtime returns (cudaErrorInvalidValue...),
 * here and in the layer that runs graphs launched from kernels */
enum {
#define X(name, value) name = value,
#include "cudart_errors.def"
#undef X
};

/* Limits of a launch, each checked before anything is taken
 * (docs/SECURITY.md lists them with their errors). */
#define EXEC_MAX_THREADS 1024u                  /* threads per CTA */
#define EXEC_MAX_SHARED (227u * 1024)           /* static + dynamic shared memory per CTA (sm_90) */
#define EXEC_MAX_LOCAL (512u * 1024)            /* local memory per thread: frame + call stack (CUDA) */
#define EXEC_MAX_REGS (1ull << 30)              /* host bytes of a CTA's registers, call frames included */
#define EXEC_MAX_CLUSTER 16u                    /* CTAs per cluster: an H100's non-portable maximum */

/* A grid a kernel launched (dynamic parallelism, docs/EXECUTION.md): it
 * runs once its parent grid has finished, before the parent counts as
 * complete. */
typedef struct Child {
	const XFunc *k;                 /* NULL: a copy or fill (cudaMemcpyAsync, cudaMemsetAsync) */
	uint32_t grid[3], block[3], shared;
	uint8_t *params;                /* k->param_bytes, malloc'd */
	bool tail;                      /* cudaStreamTailLaunch: after the other children */
	uint64_t dst, src, bytes;       /* a copy's, bytes per row; a fill's byte is src */
	uint64_t rows, planes;          /* 2D and 3D copies and fills; else 1 */
	uint64_t dpitch, spitch, dslice, sslice;        /* bytes from row to row, plane to plane */
	bool fill;
} Child;

/* The parameter buffers that cudaGetParameterBufferV2 handed out in one
 * host launch's tree of grids: device memory taken in order from a pool,
 * each with the launch it was asked for. */
typedef struct CdpBuf {
	uint64_t addr, size;
	const XFunc *k;                 /* NULL: cudaGetParameterBuffer's, until cudaLaunchDevice */
	uint32_t grid[3], block[3], shared;
	bool launched;
} CdpBuf;

typedef struct Cdp {
	pthread_mutex_t lock;           /* everything below, and every grid's kids */
	uint64_t pool, pool_bytes, used;
	CdpBuf *buf;                    /* by addr */
	size_t nbuf, capbuf;
	uint64_t pending;               /* grids launched, not yet run */
} Cdp;

#define CDP_POOL_BYTES (1u << 20)       /* parameter buffers per host launch */
#define CDP_MAX_DEPTH 24                /* CUDA's nesting limit */
#define CDP_MAX_PENDING 2048            /* cudaLimitDevRuntimePendingLaunchCount's default */
#define CDP_MAX_PENDING_LIMIT (1u << 20) /* the most it may be set to (ptxvm's choice) */

/* The graph a launch runs in as a node (device graph launch,
 * docs/EXECUTION.md): what %current_graph_exec reads, and the host layer's
 * answer to a thread's cudaGraphLaunch(graph, stream): 0 when the launch is
 * queued, else the cudaError_t the call returns; and to its
 * cudaGraphSetConditional(handle, value): 0, or non-zero for a handle the
 * graph does not know.  Several workers may call them at once. */
struct ptxvm_node_update;
typedef struct GraphNode {
	uint64_t exec;                  /* the graph's handle; 0: a graph not made for device launch */
	int (*launch)(struct GraphNode *g, uint64_t graph, uint64_t stream);
	int (*set_cond)(struct GraphNode *g, uint64_t handle, unsigned value);
	int (*update)(struct GraphNode *g, const struct ptxvm_node_update *u);  /* a cudaError_t */
} GraphNode;

/* A kernel's attributes, numbered as CUfunction_attribute (0 .. KATTR_N - 1):
 * what cuFuncGetAttribute and kernels' cudaFuncGetAttributes answer.  The
 * host fills them when the program loads (ptxvm_kernel_get_attribute);
 * ptxvm_kernel_set_attribute changes the four a host may set while
 * launches read them. */
#define KATTR_N 16
typedef struct KAttrs {
	atomic_int v[KATTR_N];
} KAttrs;

/* CUdevice_attribute 1 .. DEVICE_ATTR_MAX, what kernels' cudaDeviceGetAttribute asks */
#define DEVICE_ATTR_MAX 147

struct Cta;
struct Warp;

typedef struct Launch {
	const Prog *p;
	const XFunc *k;
	const MemView *mem;             /* the device memory the launch sees (pinned) */
	uint32_t grid[3], block[3];
	uint32_t cluster[3];            /* CTAs per cluster, dividing grid */
	uint32_t ncl;                   /* their product */
	bool explicit_cluster;          /* %is_explicit_cluster */
	uint32_t nthreads, nwarps;      /* per CTA */
	uint64_t ncta;
	uint32_t dyn_shared;            /* dynamic shared bytes */
	uint32_t shared_bytes;          /* reserved (XSMEM_RESERVED) + static + dynamic */
	const uint8_t *params;
	uint32_t param_bytes;
	uint32_t stack_bytes;           /* per-thread call stack beyond the kernel frame */
	uint32_t local_bytes;           /* per-thread local memory */
	unsigned workers;
	const int *attrs;               /* the device's attributes, [DEVICE_ATTR_MAX + 1] (host/attr.c) */

	/* the compiling tier's runner for this kernel (src/jit); NULL: the
	   interpreter.  Launches with checks always interpret (san.c needs
	   the program's own instructions). */
	int (*run)(struct Cta *c, struct Warp *w, uint64_t budget);
	bool coop;                      /* cooperative: every CTA on its own worker */
	uint64_t grid_ws;               /* cooperative: the grid barrier word (%envreg1:%envreg2) */
	double timeout;                 /* seconds; 0: none */
	FILE *out;                      /* device printf */
	size_t printf_fifo;             /* its FIFO's bytes; 0: FIFO_DEFAULT_BYTES */
	struct San *san;                /* the device's checks (san.h); NULL: none */
	const SurfView *surf;           /* the device's image objects: arrays, surfaces,
					   textures, samplers (pinned) */
	uint64_t grid_id;
	Heap *heap;                     /* the device heap; NULL if the program has no malloc */
	uint64_t heap_limit;            /* the device's cudaLimitMallocHeapSize */
	uint64_t max_pending;           /* its cudaLimitDevRuntimePendingLaunchCount */
	Cdp *cdp;                       /* device launches; NULL if the program makes none */
	uint64_t errtab;                /* the device's error texts (exec_errtab, read-only); 0: none */
	KAttrs *kattr;                  /* each function's of p, [p->nfn] (kernels' only filled) */
	unsigned depth;                 /* 0: launched by the host */
	GraphNode *graph;               /* the graph the launch is a node of (its grids too); NULL: none */
	Child *kids;                    /* grids this one launched (cdp->lock) */
	size_t nkids, capkids;

	/* while running: stop, which every worker reads at every instruction,
	   on a cache line of its own, and next_cta, which they take turns to
	   write, on another, so that neither is lost to the other's writes */
	_Alignas(64) atomic_int stop;   /* a fault or the watchdog ended the launch */
	atomic_int solo_give;           /* another launch asks this one to stop running alone */
	bool solo;                      /* running alone: global atomics plain (solo.h);
					   read and cleared by its one worker */
	atomic_int expired;             /* the watchdog ended it */
	_Alignas(64) atomic_uint_fast64_t next_cta;
	_Alignas(64) atomic_uint_fast64_t thread_ins, warp_ins;
	atomic_uint events;             /* device-side events created */
	double t0;
	uint64_t gtimer0;               /* %globaltimer at t0: wall-clock nanoseconds */
	pthread_mutex_t lock;
	pthread_cond_t idle;            /* the last worker has finished */
	unsigned active;                /* workers still running */
	int code;                       /* ptxvm_result of the first failure */
	char *report;                   /* its report, malloc'd */
	Fifo *fifo;                     /* device printf; NULL if the program has none */
	uint64_t printf_dropped;        /* after the launch: records the FIFO dropped */
	struct SanLaunch *chk;          /* the checks' findings; NULL: no check is on */
} Launch;

/* Runs the whole grid; returns 0 or the ptxvm_result of the failure, with
 * L->report describing it. */
int launch_run(Launch *L);
/* Whether the program's kernels can call device printf (vprintf). */
bool launch_uses_printf(const Prog *p);
/* Whether they can call malloc, __nv_aligned_device_malloc or free. */
bool launch_uses_heap(const Prog *p);
/* Whether they can launch grids (the device runtime's cudaLaunchDevice). */
bool launch_uses_cdp(const Prog *p);
/* Whether they can call cudaGetErrorName or cudaGetErrorString; the bytes
 * of the texts those return (errtab.c: written to out unless NULL; their
 * count), and where in them the name or description of a code lies
 * (a code that is no cudaError_t: "unrecognized error code"). */
bool launch_uses_errtab(const Prog *p);
size_t exec_errtab(uint8_t *out);
uint64_t exec_errtab_at(int64_t code, bool text);
/* The most threads a CTA of kernel f may have: .maxntid or .reqntid, else
 * EXEC_MAX_THREADS. */
unsigned exec_max_threads(const XFunc *f);
/* How many CTAs of `block` threads with `shared` bytes of shared memory
 * (static and dynamic) fit on one multiprocessor at once, by the device's
 * attributes (host/attr.c): blocks, threads, registers (a nominal 32 per
 * thread) and shared memory (with the reserved kilobyte) per
 * multiprocessor; 0 for a block over max_threads.  The driver's
 * cuOccupancy... and kernels' cudaOccupancy... both ask this. */
int exec_occupancy(const int *attrs, unsigned max_threads, int block, uint64_t shared);

/* Whether the launch's registers fit EXEC_MAX_REGS; if not, the reason in
 * msg and non-zero. */
int exec_resources(const Launch *L, char *msg, size_t n);

/* Monotonic seconds. */
double exec_now(void);

/* Why an instruction cannot be executed yet, or NULL if it can. */
const char *exec_unsupported(const XIns *x);
/* Whether name is a device-runtime function the executor provides. */
bool exec_devrt_provides(const char *name);

#endif
