/* warp.h: the state of CTAs and warps, shared by the interpreter (exec.c)
 * and the CTA scheduler (cta.c). */
#ifndef PTXVM_WARP_H
#define PTXVM_WARP_H

#include "exec.h"
#include "../util/util.h"

#define FULL_MASK 0xffffffffu

/* A reconvergence-stack entry: run mask from pc until pc reaches rpc. */
typedef struct Entry {
	uint32_t pc, rpc, mask;
} Entry;

/* A call frame: the function, its registers, its local memory. */
typedef struct Frame {
	const XFunc *fn;
	uint64_t *r;            /* fn->nslots * 32 */
	uint32_t *p;            /* fn->npreds */
	size_t rcap, pcap;      /* what r and p hold: kept when the frame is popped, for the next push */
	uint32_t lbase;         /* frame base in local memory */
	uint32_t depth;         /* stack entries below the callee's base entry */
	uint32_t call_pc;       /* the caller's call instruction */
	uint32_t mask;          /* the lanes that called */
} Frame;

enum { W_RUN, W_BAR, W_CLUSTER, W_DONE };     /* W_CLUSTER: at barrier.cluster.wait */
/* What running a warp (or one of its instructions) came to; RUN_GO: go on. */
enum { RUN_BLOCK, RUN_YIELD, RUN_DONE, RUN_FAULT, RUN_GO };

typedef struct Warp {
	struct Cta *cta;
	uint32_t idx;           /* warp index within the CTA */
	uint32_t valid;         /* lanes that are threads of the CTA */
	uint32_t exited;
	uint32_t cc;            /* carry flags, a bit per lane */
	uint8_t state;          /* W_* */
	uint8_t bar_id;
	uint32_t bar_count;     /* thread count of the barrier, 0 = all */
	uint32_t bar_mask;      /* lanes that arrived */
	uint16_t cdp_err[32];   /* each thread's last device-runtime error (cudaGetLastError) */
	uint32_t cl_phase;      /* barrier.cluster: the cluster's phase + 1 when the
				   warp last arrived, 0 before */
	uint32_t bar_pred;      /* bar.red: lanes whose predicate is true */
	const XIns *bar_ins;    /* bar.red: the instruction, for its result */
	Entry *st;
	uint32_t nst, capst;
	Frame *fr;
	uint32_t nfr, capfr;
	uint64_t *sreg;         /* prog->nsregs * 32 */
	size_t sregcap;
	bool sreg_set;          /* sreg holds this warp's values but for the CTA's own (warp_init) */
	uint32_t lsp;           /* local stack pointer */
	uint64_t nthr, nwarp;   /* instructions executed */
	/* last, and not cleared when the warp starts: only ever written */
	uint64_t scratch[32];   /* the sink '_' */
} Warp;

typedef struct Barrier {
	uint32_t arrived;       /* threads arrived */
	uint32_t warps;         /* warps arrived */
	uint32_t expected;      /* thread count, 0 = every live warp */
	uint8_t red_op;         /* bar.red: MOD_popc/and/or, 0 none */
	uint32_t red_count;     /* true predicates so far */
	uint32_t red_total;     /* predicates so far */
} Barrier;

#define NBARRIERS 16

/* A shared::cluster address: CTA rank r's shared offset o is
 * ((r + 1) << CLUSTER_SHIFT) | o; offsets below 1 << CLUSTER_SHIFT are the
 * running CTA's own (the shared::cta window within shared::cluster). */
#define CLUSTER_SHIFT 24
#define CLUSTER_OFFSET ((1u << CLUSTER_SHIFT) - 1)

/* The CTAs of one cluster, which one worker runs together (cta.c), and
 * their barrier.cluster: a phase counter and the threads that arrived in
 * the current phase; and the instructions its worker ran, counted here
 * rather than in the launch so that workers share no counter per warp. */
typedef struct Cluster {
	struct Cta *cta;        /* by rank */
	uint32_t n;             /* L->ncl */
	uint32_t phase;
	uint64_t arrived;
	uint64_t thread_ins, warp_ins;  /* the worker's counts, added to the launch's once */
} Cluster;

typedef struct Cta {
	Launch *L;
	Cluster *cl;
	uint32_t rank;          /* %cluster_ctarank */
	uint32_t id[3];
	uint64_t linear;
	unsigned worker;
	uint8_t *shared;        /* L->shared_bytes */
	uint8_t *local;         /* nthreads * L->local_bytes (mapped: cta.c) */
	Warp *w;
	uint32_t nwarps;
	Barrier bar[NBARRIERS];
	uint32_t bar_busy;      /* the barriers a warp has arrived at (bit per id) */
	FifoCta pf;             /* device printf records */
	Buf rec;                /* one printf call's text */
	const Alloc *last[4];   /* the allocations the last global accesses hit (a kernel's
				   few arrays), most recent first */
	uint64_t reg_bytes;     /* host bytes of the warps' register frames */
	struct SanCta *chk;     /* the checks' shadow of shared memory; NULL: no check is on */
	uint32_t shared_lim;    /* the shared bytes xlate's fast path admits: all, or 0 with
				   checks (their accesses take the slow path, san.h) */
	size_t local_map;       /* local's bytes mapped; 0: allocated (cta.c) */
	uint64_t ctav[PROG_CTA_SREGS];  /* the values of Prog.cta_sregs here (cta_sreg_values) */
} Cta;

/* Sets c->ctav, once a CTA, for its warps' starts to copy (warp_init). */
void cta_sreg_values(Cta *c);
/* Runs warp w until it blocks, yields, finishes or faults. */
int warp_run(Cta *c, Warp *w, uint64_t budget);
/* Sets up a warp at the kernel's entry; false (the launch failed) without
 * host memory for its registers.  warp_fini ends it but keeps its host
 * memory for the next warp_init of the same Warp (a worker's next CTA);
 * warp_free releases that memory. */
bool warp_init(Cta *c, Warp *w, uint32_t idx);
void warp_fini(Warp *w);
void warp_free(Warp *w);
/* Records the first failure of the launch and stops it. */
void exec_fault(Cta *c, const Warp *w, const XIns *x, int lane, int code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Warp w arrives at barrier w->bar_id (with w->bar_count, w->bar_mask);
 * wait: it blocks until the barrier completes. */
void cta_arrive(struct Cta *c, Warp *w, bool wait);
/* barrier.cluster.arrive by the lanes act of w. */
void cluster_arrive(struct Cta *c, Warp *w, uint32_t act);
/* barrier.cluster.wait: true if w must block until the phase it arrived
 * in completes. */
bool cluster_wait(struct Cta *c, Warp *w);
/* bar.red: writes the reduction's result to each lane that arrived. */
void warp_bar_red_done(Warp *w, const Barrier *b);

#endif
