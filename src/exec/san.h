/* san.h: the runtime checks of compute-sanitizer's tools (docs/CHECKS.md).
 *
 *   memcheck   invalid accesses reported in its form, and leaks at the end
 *   racecheck  shared-memory hazards between threads of different warps
 *              with no barrier between them (RAW, WAW, WAR)
 *   initcheck  loads of device and shared memory never written
 *   synccheck  barriers that only part of a warp reaches, or that warps
 *              reach at different instructions
 *
 * A device with checks has a San; each launch a SanLaunch that collects
 * its findings, one per site (or pair of sites), and prints them when the
 * launch ends; each worker a SanCta with the shadow of its CTA's shared
 * memory.  The interpreter calls in here from three places only: the
 * translation of a guest address (exec.c, xlate_span: on its slow path,
 * which a launch with checks takes for every global and shared access), a
 * barrier's arrival (ops.inc, bar) and a barrier's release (cta.c).  Each
 * call is behind a test of Cta.chk, which is NULL when no check is on.
 */
#ifndef PTXVM_SAN_H
#define PTXVM_SAN_H

#include "warp.h"

typedef struct San San;                 /* a device's checks */
typedef struct SanLaunch SanLaunch;     /* a launch's findings */
typedef struct SanCta SanCta;           /* a worker's shadow of shared memory */

/* NULL when checks is 0 or memory is short. */
San *san_create(unsigned checks, FILE *out);
/* Reports the leaks (memcheck: allocations of mem with ALLOC_USER still
 * live) and the ERROR SUMMARY, once; returns the errors found. */
uint64_t san_finish(San *s, DevMem *mem);
void san_free(San *s);
unsigned san_checks(const San *s);

/* Around a launch (cta.c): L->chk is set, then cleared and reported. */
void san_launch_begin(San *s, Launch *L);
void san_launch_end(Launch *L);
/* A worker's shadow; NULL when memory is short (the checks of its
 * shared memory are then off, and the report says so). */
SanCta *san_cta_new(Launch *L);
void san_cta_free(SanCta *t);
/* A new CTA on the worker; a barrier of it released. */
void san_cta_begin(SanCta *t);
void san_barrier(SanCta *t, unsigned id);

/* An access that xlate_span allowed: al and off for global memory (al
 * NULL for shared memory, off then the window's offset). */
void san_access(Cta *c, const Warp *w, const XIns *x, unsigned lane, const Alloc *al, uint64_t off,
		unsigned n, bool wr);
/* An access xlate_span refused (memcheck): what it found, as "is ...". */
void san_invalid(Cta *c, const Warp *w, const XIns *x, unsigned lane, unsigned sp, uint64_t addr, unsigned n,
		 bool wr, bool misaligned, const char *where);
/* Lanes act of w arrive at barrier id at instruction x (synccheck: all
 * the warp's live lanes must, and all warps at the same instruction). */
void san_arrive(Cta *c, const Warp *w, const XIns *x, uint32_t act, unsigned id);

#endif
