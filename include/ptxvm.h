/* ptxvm.h: the public interface of ptxvm, a virtual NVIDIA GPU for the CPU.
 *
 * This release reads PTX, checks it as ptxas does, and writes it back in
 * canonical form.  All functions are thread-safe on distinct objects; no
 * global state is kept beyond read-only tables.
 */
#ifndef PTXVM_H
#define PTXVM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTXVM_VERSION "0.1.0"

const char *ptxvm_version(void);

typedef struct ptxvm_module ptxvm_module;

typedef enum { PTXVM_ERROR = 0, PTXVM_WARNING = 1, PTXVM_NOTE = 2 } ptxvm_level;

typedef struct ptxvm_diag {
	ptxvm_level level;
	unsigned line, col;     /* 1-based; 0 when not tied to a place */
	const char *message;    /* owned by the module */
} ptxvm_diag;

typedef struct ptxvm_check_opts {
	const char *arch;       /* the device, e.g. "sm_90" (NULL: sm_90) */
} ptxvm_check_opts;

/* Parses and checks PTX text.  The text is copied; filename names it in
 * diagnostics.  Returns NULL only when text is NULL with len > 0, when
 * opts->arch is not a known target, or when memory is exhausted;
 * otherwise a module, valid or not.  Every function below accepts NULL
 * for the module: no diagnostics, NULL text. */
ptxvm_module *ptxvm_module_load(const char *filename, const char *text, size_t len,
				const ptxvm_check_opts *opts);
void ptxvm_module_free(ptxvm_module *m);

/* Number of errors; 0 means the module is valid. */
size_t ptxvm_module_errors(const ptxvm_module *m);
size_t ptxvm_module_diag_count(const ptxvm_module *m);
int ptxvm_module_diag(const ptxvm_module *m, size_t i, ptxvm_diag *out);
/* All diagnostics as "FILE:LINE:COL: error: MESSAGE", each followed by
 * the source line and a caret.  The caller frees the string. */
char *ptxvm_module_diagnostics(const ptxvm_module *m);

/* The canonical text of a valid module; NULL if the module has errors.
 * The caller frees the string; *len (if non-NULL) gets its length. */
char *ptxvm_module_format(const ptxvm_module *m, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
