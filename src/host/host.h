/* host.h: what the host interface's files share. */
#ifndef PTXVM_HOST_H
#define PTXVM_HOST_H

#include "../../include/ptxvm.h"
#include "../front/ast.h"
#include "../lower/prog.h"
#include "../mem/mem.h"
#include "../surf/surf.h"
#include "../tex/tex.h"

#include <pthread.h>

/* A fresh parse and check of a copy of a module's text: a loaded program
 * keeps its own, so that the module can be freed after loading.  The
 * caller frees the result (ptx_module_free), then *text and *file. */
Module *host_module_copy(const ptxvm_module *pm, char **text, char **file);

/* Diagnostic i of d for the public interface (ptxvm_diag); -1 if none. */
int host_diag(const Diags *d, size_t i, ptxvm_diag *out);

/* ptxvm_build_builtin with its operands in an array. */
int host_build_builtin(ptxvm_builder_fn *f, const char *name, int arg, const char *const *v, size_t n);

/* The parts of a device that the interface's other files use (device.c):
 * the tables are changed under the lock. */
typedef struct HostDev {
	DevMem *mem;
	SurfTable *surf;
	TexTable *tex;
	pthread_mutex_t *lock;
} HostDev;
HostDev host_dev(ptxvm_device *d);
/* A program's device and lowered code. */
ptxvm_device *host_prog_device(const ptxvm_program *p);
const Prog *host_prog(const ptxvm_program *p);
/* Leaves a message in the device (fmt NULL: none) and returns r. */
ptxvm_result host_say(ptxvm_device *d, ptxvm_result r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* image.c: the reference objects of a program's .texref and .samplerref
 * variables with static initializers.  NULL, or (malloc'd) why the
 * program cannot load. */
char *host_static_textures(ptxvm_device *d, const Prog *pg);
/* Frees those reference objects, when the program unloads. */
void host_release_textures(ptxvm_device *d, const Prog *pg);

#endif
