/* host.h: what the host interface's files share. */
#ifndef PTXVM_HOST_H
#define PTXVM_HOST_H

#include "../../include/ptxvm.h"
#include "../front/ast.h"

/* A fresh parse and check of a copy of a module's text: a loaded program
 * keeps its own, so that the module can be freed after loading.  The
 * caller frees the result (ptx_module_free), then *text and *file. */
Module *host_module_copy(const ptxvm_module *pm, char **text, char **file);

/* Diagnostic i of d for the public interface (ptxvm_diag); -1 if none. */
int host_diag(const Diags *d, size_t i, ptxvm_diag *out);

/* ptxvm_build_builtin with its operands in an array. */
int host_build_builtin(ptxvm_builder_fn *f, const char *name, int arg, const char *const *v, size_t n);

#endif
