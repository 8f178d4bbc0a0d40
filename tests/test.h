/* test.h: what the test groups of the runner share.
 *
 * runner.c holds main and the front-end groups; each tests/t_*.c file is
 * one more group, a function named below, called by main in this order.
 * A group counts one pass or one fail() per thing it checks.
 */
#ifndef PTXVM_TEST_H
#define PTXVM_TEST_H

#include "../include/ptxvm.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern int passed, failed;
extern int verbose;     /* PTXVM_TEST_VERBOSE is set */

/* Prints "FAIL ..." and counts a failure. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A whole file, NUL-terminated; NULL if unreadable.  The caller frees. */
char *slurp(const char *path, size_t *len);
/* PTX text checked and loaded onto d; NULL with the reason in why. */
ptxvm_program *load_ptx(ptxvm_device *d, const char *name, const char *text, char *why, size_t n);

/* Groups: root is the repository root. */
#define TEST_GROUPS(X) \
	X(fp)           /* t_fp.c: floating-point semantics against references */ \
	X(printf)       /* t_printf.c: device printf formatting */ \
	X(forms)        /* t_forms.c: every form of tests/isa-forms launched */ \
	X(exec)         /* t_exec.c: divergence, barriers, warps, memory, faults */ \
	X(kernels)      /* t_kernels.c: the kernels of tests/cuda against CPU references */ \
	X(insn)         /* t_insn.c: each instruction x type x modifier against a reference */ \
	X(mma)          /* t_mma.c: ldmatrix, stmatrix, movmatrix, mma and wmma against references */ \
	X(mmasp)        /* t_mmasp.c: mma.sp in every shape x type against a reference */ \
	X(wgmma)        /* t_wgmma.c: wgmma (sm_90a) in every shape, type and layout against references */ \
	X(atom)         /* t_atom.c: the atomic unit: operation x size table, concurrency */ \
	X(sass)         /* t_sass.c: the SASS ATOM front end: syntax, rules, execution */ \
	X(surf)         /* t_surf.c: arrays, surface objects, suld.b and sust.b */ \
	X(surfk)        /* t_surfk.c: the kernels of tests/cuda/surfaces*.cu against CPU references */ \
	X(surfm)        /* t_surfm.c: every suld.b / sust.b variant x boundary case */ \
	X(tex)          /* t_tex.c: the sampler against a reference model: kinds x formats x modes */ \
	X(texk)         /* t_texk.c: the kernels of tests/cuda/textures.cu and tests/ptx/texrefs.ptx */ \
	X(builtins)     /* t_builtins.c: the surface and texture builtin tables, cicc, modules */ \
	X(hostile)      /* t_hostile.c: watchdog, printf FIFO, linear tools, fuzz findings */ \
	X(sandbox)      /* t_sandbox.c: stale handles, calls, limits: each defect class */ \
	X(threads)      /* t_threads.c: many host threads on one device (run under TSan) */ \
	X(fatbin)       /* t_fatbin.c: the PTX inside nvcc's fat binaries, and damaged ones */ \
	X(devrt)        /* t_devrt.c: the device runtime: malloc heap; clusters */ \
	X(san)          /* t_san.c: the runtime checks on tests/cuda/sanitize.cu */ \
	X(tma)          /* t_tma.c: tensor maps and the kernels of tests/cuda/tma.cu against a model */

#define X(name) void test_##name(const char *root);
TEST_GROUPS(X)
#undef X

#endif
