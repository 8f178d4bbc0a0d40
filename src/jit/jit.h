/* jit.h: the compiling tier.
 *
 * A lowered program becomes C in which every instruction is a constant
 * given to the interpreter's own semantics (exec.c and ops.inc, embedded
 * in the library when it is built), so the system compiler folds the
 * opcode, type and operand switches away.  The shared object it makes is
 * cached on disk by the hash of that C text and loaded with dlopen; its
 * runner takes the place of warp_run for the kernels it could compile.
 * The interpreter stays the reference and the fallback (docs/ARCHITECTURE.md).
 */
#ifndef PTXVM_JIT_H
#define PTXVM_JIT_H

#include "../lower/prog.h"

#include <stdbool.h>

struct Cta;
struct Warp;
typedef int (*JitRun)(struct Cta *c, struct Warp *w, uint64_t budget);

typedef struct Jit Jit;

/* What compiling a program came to. */
typedef struct JitInfo {
	bool hit;               /* the shared object was in the cache */
	double seconds;         /* generating, compiling and loading it */
	char why[512];          /* jit_compile returned NULL: the reason */
} JitInfo;

/* The tier's setting from PTXVM_JIT: 1 on, 0 off, -1 not set. */
int jit_env(void);
/* Compiles kernel k of p with the functions it may call, every function
 * that is no kernel (or loads them from the cache).  NULL: the tier cannot
 * take them, the reason in info->why. */
Jit *jit_compile(const Prog *p, const XFunc *k, JitInfo *info);
/* The runner of kernel k, or NULL with the reason (an instruction the
 * tier does not take). */
JitRun jit_kernel(const Jit *j, const XFunc *k, const char **why);
void jit_free(Jit *j);

#endif
