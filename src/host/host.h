/* host.h: what the host interface's files share. */
#ifndef PTXVM_HOST_H
#define PTXVM_HOST_H

#include "../../include/ptxvm.h"
#include "../front/ast.h"
#include "../lower/prog.h"
#include "../mem/mem.h"
#include "../surf/surf.h"
#include "../tex/tex.h"
#include "../util/handle.h"

#include <pthread.h>
#include <stdarg.h>

/* A fresh parse and check of a copy of a module's text: a loaded program
 * keeps its own, so that the module can be freed after loading.  The
 * caller frees the result (ptx_module_free), then *text and *file.  NULL
 * when pm is no module or memory runs out. */
Module *host_module_copy(const ptxvm_module *pm, char **text, char **file);

/* Diagnostic i of d for the public interface (ptxvm_diag); -1 if none. */
int host_diag(const Diags *d, size_t i, ptxvm_diag *out);

/* ptxvm_build_builtin with its operands in an array. */
int host_build_builtin(ptxvm_builder_fn *f, const char *name, int arg, const char *const *v, size_t n);

/* ---- the device's attributes (attr.c) -----------------------------------
 * The compute capability of a target name ("sm_90" -> 90; NULL: sm_90);
 * false for a name that is none.  out[a]: CUdevice_attribute a of a
 * device of that capability with sms workers, 1 <= a <= DEVICE_ATTR_MAX. */
bool host_attr_target(const char *arch, unsigned *cc);
void host_attrs(unsigned cc, unsigned sms, int *out);

/* ---- the registry (registry.c) ------------------------------------------
 * Modules, programs and kernels are named by handles cast to their pointer
 * types.  An object starts with a RegObj; it is destroyed when its handle
 * has been removed and the last use has ended. */
typedef struct RegObj {
	HRec h;
	unsigned refs;          /* the handle's, and one per use in progress */
	struct RegObj *owner;   /* a kernel's program: uses take its references */
	void (*destroy)(struct RegObj *o);
} RegObj;

enum { TAG_MODULE = 0x4d6f, TAG_PROGRAM = 0x5072, TAG_KERNEL = 0x4b65 };  /* "Mo" "Pr" "Ke" */

/* Registers o (refs becomes 1); its handle, or 0 when out of memory. */
uint64_t reg_add(RegObj *o, uint16_t tag);
/* The object a handle names, with a reference for the caller; NULL when
 * the handle is stale, freed or of another kind. */
RegObj *reg_get(uint64_t h, uint16_t tag);
void reg_put(RegObj *o);
/* Makes the handle stale and drops its reference; false when it already
 * was. */
bool reg_remove(uint64_t h, uint16_t tag);

static inline uint64_t host_handle(const void *p) { return (uint64_t)(uintptr_t)p; }

/* ---- messages (registry.c) ----------------------------------------------
 * The calling thread's message for the device with serial dev (0: calls
 * that name no valid device).  fmt NULL clears it. */
void host_vsay(uint64_t dev, const char *fmt, va_list ap);
const char *host_message(uint64_t dev);
/* Drops the calling thread's message for a device that goes away. */
void host_forget(uint64_t dev);

/* ---- graphs launched from kernels (devgraph.c) ---------------------------
 * A device's registered graphs (ptxvm_graph_register), by handle; busy:
 * its runs in progress (its nodes and their fire-and-forget work, not its
 * tail launches) and its fire-and-forget or sibling launches queued. */
typedef struct DevGraph {
	uint64_t handle;
	ptxvm_graph_fn run;
	void *arg;
	unsigned busy;
} DevGraph;
typedef struct DevGraphs {
	pthread_mutex_t lock;   /* the table, and every environment's queues */
	DevGraph *v;
	size_t n, cap;
} DevGraphs;
void devgraphs_init(DevGraphs *g);
void devgraphs_fini(DevGraphs *g);
/* What the kernels of the graph running in env see of it (exec.h). */
struct GraphNode *devgraph_node(ptxvm_graph_env *env);

/* ---- for the interface's other files (device.c) -------------------------
 * The tables of a device: each has its own lock (mem.h, surf.h,
 * DevGraphs); its time limit of a launch, in seconds (0: none). */
typedef struct HostDev {
	DevMem *mem;
	SurfTable *surf;
	DevGraphs *graphs;
	double timeout;
} HostDev;
HostDev host_dev(ptxvm_device *d);
/* The program a handle names, with a reference the caller gives back with
 * host_prog_put; NULL (the reason said, naming fn) when it is stale. */
struct ptxvm_program *host_prog_get(const ptxvm_program *h, const char *fn);
void host_prog_put(struct ptxvm_program *p);
/* A program's device and lowered code (p from host_prog_get). */
ptxvm_device *host_prog_device(const struct ptxvm_program *p);
const Prog *host_prog(const struct ptxvm_program *p);
/* Leaves a message for the calling thread (fmt NULL: none) and returns r. */
ptxvm_result host_say(ptxvm_device *d, ptxvm_result r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* image.c: the reference objects of a program's .texref and .samplerref
 * variables with static initializers, owned by owner (tex_release frees
 * them).  NULL, or (malloc'd) why the program cannot load. */
char *host_static_textures(ptxvm_device *d, const Prog *pg, uint64_t owner);

#endif
