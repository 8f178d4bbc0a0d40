/* solo.h: a launch that runs alone does its atomics as plain reads and
 * writes.
 *
 * When a launch runs on one worker and no other launch runs in the
 * process, no other thread of any device reaches global memory with an
 * atomic, so the worker can read, combine and write without a locked
 * instruction (a locked add costs 5 ns on the bench machine: a third of a
 * global histogram's time).  The results are those of the atomic unit.
 * A launch that starts while another runs alone asks it to give that up
 * and waits until it has: the alone one looks at the request between warp
 * slices (cta.c), so the wait is one slice; so does the host before it
 * writes device memory.  Memory the host reaches itself (mapped host
 * memory, managed memory: ALLOC_BORROWED), where .sys atomics are atomic
 * with the host's, keeps the locked instructions.  docs/EXECUTION.md. */
#ifndef PTXVM_SOLO_H
#define PTXVM_SOLO_H

#include "exec.h"

/* Counts L in; L->solo is whether it runs alone (one: it has one worker). */
void solo_begin(Launch *L, bool one);
/* Gives up running alone, as asked (L->solo_give); L's worker calls it. */
void solo_give(Launch *L);
/* Counts L out. */
void solo_end(Launch *L);
/* This thread is a worker of L from now on (NULL: of none). */
void solo_worker(const Launch *L);
/* Around the host's writes of device memory (a copy, a set): a launch
 * running alone gives that up first, and none starts to until the end,
 * so that no plain read and write of an atomic undoes the host's write. */
void solo_host_begin(void);
void solo_host_end(void);

/* Between warp slices: the request, if any, answered. */
static inline void solo_poll(Launch *L)
{
	if (L->solo && atomic_load_explicit(&L->solo_give, memory_order_relaxed))
		solo_give(L);
}

#endif
