/* cu.h: what the driver library's files share: the CUDA driver API's
 * types and constants that they use (the values are the driver ABI's),
 * the objects behind its handles, and the calling thread's context.
 *
 * The library (libcuda.so.1) is a layer over include/ptxvm.h: one ptxvm
 * device is CUDA device 0; a context is a view of it with its own modules
 * and its own sticky error.  Launches are synchronous, so every stream is
 * already in order. */
#ifndef PTXVM_CU_H
#define PTXVM_CU_H

#include "../../include/ptxvm.h"

#include "../util/handle.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the ABI -------------------------------------------------------------- */
typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef void *CUarray;
typedef struct CUgraph_st *CUgraph;

enum {
	CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_DEINITIALIZED = 4, CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101, CUDA_ERROR_INVALID_IMAGE = 200,
	CUDA_ERROR_INVALID_CONTEXT = 201, CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_UNSUPPORTED_LIMIT = 215, CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_FILE_NOT_FOUND = 301, CUDA_ERROR_OPERATING_SYSTEM = 304, CUDA_ERROR_INVALID_HANDLE = 400, CUDA_ERROR_ILLEGAL_STATE = 401,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_NOT_READY = 600, CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701, CUDA_ERROR_LAUNCH_TIMEOUT = 702,
	CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708, CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
	CUDA_ERROR_ASSERT = 710, CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
	CUDA_ERROR_ILLEGAL_INSTRUCTION = 715, CUDA_ERROR_MISALIGNED_ADDRESS = 716,
	CUDA_ERROR_INVALID_ADDRESS_SPACE = 717, CUDA_ERROR_INVALID_PC = 718,
	CUDA_ERROR_LAUNCH_FAILED = 719, CUDA_ERROR_NOT_PERMITTED = 800,
	CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
	CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901, CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903,
	CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904, CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905,
	CUDA_ERROR_CAPTURED_EVENT = 907, CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908,
	CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910, CUDA_ERROR_UNKNOWN = 999,
};

enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };

typedef struct CUDA_MEMCPY2D {
	size_t srcXInBytes, srcY;
	int srcMemoryType;
	const void *srcHost;
	CUdeviceptr srcDevice;
	CUarray srcArray;
	size_t srcPitch;
	size_t dstXInBytes, dstY;
	int dstMemoryType;
	void *dstHost;
	CUdeviceptr dstDevice;
	CUarray dstArray;
	size_t dstPitch;
	size_t WidthInBytes, Height;
} CUDA_MEMCPY2D;

typedef struct CUDA_MEMCPY3D {
	size_t srcXInBytes, srcY, srcZ, srcLOD;
	int srcMemoryType;
	const void *srcHost;
	CUdeviceptr srcDevice;
	CUarray srcArray;
	void *reserved0;
	size_t srcPitch, srcHeight;
	size_t dstXInBytes, dstY, dstZ, dstLOD;
	int dstMemoryType;
	void *dstHost;
	CUdeviceptr dstDevice;
	CUarray dstArray;
	void *reserved1;
	size_t dstPitch, dstHeight;
	size_t WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D;

/* ---- the library's state ------------------------------------------------------ */
/* The one device, made by cuInit. */
typedef struct CuDevice {
	ptxvm_device *dev;
	const char *arch;               /* the target modules are checked for: "sm_90a" for
					   sm_90 (or PTXVM_ARCH), its arch-specific form */
	unsigned major, minor;          /* its compute capability */
	size_t total_mem;               /* what cuDeviceTotalMem and cuMemGetInfo report */
} CuDevice;
extern CuDevice cu_dev;

/* ---- handles (object.c) ---------------------------------------------------------
 * Every object the library hands out (contexts, modules, functions,
 * libraries, links, streams, events, graphs, their nodes, executable
 * graphs, user objects) is named by a generation-checked
 * handle (src/util/handle.h) cast to the API's pointer type, never by a
 * pointer into the library: a destroyed object is freed at once, and its
 * stale handle is refused (CUDA_ERROR_INVALID_HANDLE, or
 * CUDA_ERROR_CONTEXT_IS_DESTROYED for the current context) instead of
 * followed.  A record is calloc'd, a CuObj first. */
typedef enum CuKind {
	CU_KIND_CTX = 1, CU_KIND_MODULE, CU_KIND_FUNCTION, CU_KIND_LIBRARY, CU_KIND_LINK, CU_KIND_STREAM,
	CU_KIND_EVENT, CU_KIND_TEXREF, CU_KIND_SURFREF, CU_KIND_GRAPH, CU_KIND_GRAPH_NODE, CU_KIND_GRAPH_EXEC,
	CU_KIND_USER_OBJECT,
} CuKind;

typedef struct CuObj {
	HRec h;
	void (*drop)(void *rec);        /* frees what the record owns when the library
					   is torn down at exit; NULL: nothing */
} CuObj;

/* Gives rec a handle of the kind; NULL when out of memory. */
void *cu_obj_add(void *rec, CuKind kind);
/* The record a handle names, NULL for a stale handle or another kind. */
void *cu_obj_get(const void *handle, CuKind kind);
/* Removes the record a handle names and frees it; false when stale. */
int cu_obj_free(const void *handle, CuKind kind);
/* A record's handle, as the API's type. */
#define CU_HANDLE(type, rec) ((type)(uintptr_t)(rec)->obj.h.handle)
/* At exit: frees every record (drop first), after the device is gone. */
void cu_obj_teardown(void);

typedef struct CuCtx {
	CuObj obj;
	unsigned flags;
	int primary;                    /* the device's primary context */
	_Atomic int sticky;             /* a kernel fault: every later call fails with it */
	pthread_mutex_t lock;           /* guards the lists */
	struct CuMod *modules;
	struct CuStore *store;          /* context-local storage (context.c) */
} CuCtx;

/* CUDA_SUCCESS once cuInit has succeeded, else CUDA_ERROR_NOT_INITIALIZED. */
CUresult cu_ready(void);
/* The calling thread's current context (NULL: none). */
CUcontext cu_current(void);
/* The context a handle names (NULL: the current one); NULL when stale. */
CuCtx *cu_ctx(CUcontext h);
/* The context a call works in: cu_ready, a current context, not sticky
 * failed.  *ctx gets it. */
CUresult cu_enter(CuCtx **ctx);
#define CTX_CALL(c) CuCtx *c; do { CUresult r_ = cu_enter(&c); if (r_) return r_; } while (0)
/* A call's result from ptxvm: a failure of a running kernel makes ctx
 * sticky-failed and its report goes to stderr.  what names the call. */
CUresult cu_result(CuCtx *ctx, ptxvm_result r, const char *what);
/* module.c: a function: its kernel (whose attributes the C API keeps). */
typedef struct CuFunc {
	CuObj obj;
	struct CuMod *mod;
	const ptxvm_kernel *k;
	struct CuFunc *next;
} CuFunc;
/* The function a handle names (a CUfunction or a CUkernel); NULL: stale. */
static inline CuFunc *cu_func(CUfunction f) { return cu_obj_get(f, CU_KIND_FUNCTION); }
/* The context whose module holds f (NULL: a library's, of no context). */
CuCtx *cu_func_ctx(const CuFunc *f);
/* Frees what a context owns (its modules). */
void cu_ctx_release_modules(CuCtx *ctx);
/* module.c: the whole file at path, NUL-terminated, in *out (the caller
 * frees it); and a JIT log buffer of *size bytes given text (*size
 * becomes its length; nothing when buf or size is NULL). */
CUresult cu_read_file(const char *path, char **out, size_t *outlen);
/* The process's relocatable device code (nvcc -rdc=true) that goes with
 * image, an image without PTX: the PTX of the fat binaries in the
 * __nv_relfatbin section of the loaded file that holds image, linked
 * (rdc.c).  CUDA_ERROR_NOT_FOUND when that file has no such section; other
 * errors with a one-line reason in why. */
int cu_rdc_ptx(const void *image, char **ptx_out, char *why, size_t whylen);
/* link.c: whether image is cuLinkComplete's output of a live link (PTX
 * linked with the device runtime). */
int cu_link_output(const void *image);
void cu_put_log(char *buf, size_t *size, const char *text);
/* module.c: the C API's program of a module (NULL: a stale handle). */
ptxvm_program *cu_module_program(CUmodule h);
/* images.c: frees the texture and surface references of a module that is
 * unloaded. */
void cu_refs_release(CUmodule mod);
/* module.c: an image (PTX text, a fat binary or nvcc's wrapper of one)
 * loaded in the current context; what names the caller in messages. */
CUresult cu_module_load_image(CUmodule *out, const void *image, const char *what);

/* context.c, for the runtime's private tables: the primary context
 * (retained), a new context, and context-local storage: values by key,
 * each with a destructor called (ctx, key, value) when the context is
 * destroyed or reset. */
typedef void (*CuStoreDtor)(CUcontext ctx, void *key, void *value);
CUresult cu_primary_context(CUcontext *out, CUdevice dev);
CUresult cu_ctx_create(CUcontext *out, unsigned flags, CUdevice dev);
CUresult cu_ctx_storage_put(CUcontext ctx, void *key, void *value, CuStoreDtor dtor);
CUresult cu_ctx_storage_delete(CUcontext ctx, void *key);
CUresult cu_ctx_storage_get(void **value, CUcontext ctx, void *key);
/* device.c: the device's UUID. */
void cu_device_uuid(unsigned char out[16]);

/* api.c: every entry point of api.def, NAME as of VERSION is fn. */
typedef struct CuEntry {
	const char *name;
	int version;
	int stream;             /* 0, 1 (_ptds), 2 (_ptsz) */
	void *fn;
} CuEntry;
extern const CuEntry cu_api[];
extern const size_t cu_api_count;

/* device.c: the value of a CUdevice_attribute (0 for an unknown one).  The
 * files here call no cu* entry point of another: they share these. */
int cu_attribute(int attr);

/* A function exported but not implemented: CUDA_ERROR_NOT_SUPPORTED, and
 * with PTXVM_LOG=1 its name on stderr, once. */
CUresult cu_unsupported(const char *name, _Atomic int *said);
/* PTXVM_LOG=1: a line on stderr, "ptxvm cuda: ...". */
void cu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A message that always goes to stderr ("ptxvm cuda: ..."), for failures
 * the error code alone does not explain. */
void cu_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A per-thread default-stream variant (_ptds, _ptsz) of an entry point
 * defined in the same file: launches and copies complete before their call
 * returns, so the variants behave alike. */
#define CU_PT_ALIAS(base, suffix) extern __typeof__(base) base##suffix __attribute__((alias(#base)))

/* printf.c: device printf's stream, made by cuInit (NULL: none, the output
 * goes to stdout when each launch ends); cu_printf_flush writes what it
 * holds to stdout, at each point where CUDA flushes the printf FIFO;
 * cu_printf_launched, after each launch, flushes too with
 * CUDA_LAUNCH_BLOCKING=1. */
void *cu_printf_stream(void);
void cu_printf_flush(void);
void cu_printf_launched(void);

/* memory.c: a 3D copy and a 2D fill (elem 1, 2 or 4 bytes), for graph.c. */
CUresult cu_copy3d(const CUDA_MEMCPY3D *p, const char *what);
CUresult cu_memset2d(const char *what, CUdeviceptr dst, size_t pitch, unsigned v, unsigned elem, size_t w, size_t h);
/* memory.c: a module's __managed__ variable [p, p + bytes), managed memory
 * for the calls that take it until cu_managed_vars_drop(owner). */
void cu_managed_var(const void *owner, void *p, size_t bytes);
void cu_managed_vars_drop(const void *owner);

/* launch.c: runs f with cfg on the current context c: its parameters
 * params[i], or laid out in buf (params NULL); flushes device printf. */
CUresult cu_launch_run(CuCtx *c, CuFunc *f, const ptxvm_launch_config *cfg, void *const *params,
		       const void *buf, int cooperative, ptxvm_graph_env *env);

/* graph.c: stream capture.  cu_capturing: whether s is being captured
 * (cheap while nothing is); then the work submitted to it is recorded by
 * cu_capture_* instead of being run: a kernel with its parameters' values
 * now (params[i], or the laid-out buf), a linear copy (dev: 1 when dst is
 * device memory, 2 when src is, 3 both) or a 3D one, a fill of h rows of
 * w elements of elem bytes, pitch apart, a host function, an event
 * record (a node only when external).  cu_capture_refuse: what cannot be captured invalidates the
 * capture (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
 * cu_capture_any: the same for a call that synchronises with every stream,
 * while a capture CUDA's rules for the calling thread's mode make it unsafe
 * is in progress (else success). */
int cu_capturing(CUstream s);
CUresult cu_capture_refuse(CUstream s, const char *what);
CUresult cu_capture_any(const char *what);
CUresult cu_capture_kernel(CUstream s, CUfunction f, const ptxvm_launch_config *cfg, void *const *params,
			   const void *buf);
CUresult cu_capture_copy(CUstream s, int dev, uint64_t dst, uint64_t src, size_t n);
CUresult cu_capture_copy3d(CUstream s, const CUDA_MEMCPY3D *p);
CUresult cu_capture_set(CUstream s, uint64_t dst, size_t pitch, unsigned value, unsigned elem, size_t w, size_t h);
CUresult cu_capture_host(CUstream s, void (*fn)(void *), void *data);
CUresult cu_capture_event(CUstream s, CUevent e, int external);
/* cuStreamWaitEvent with CU_EVENT_WAIT_EXTERNAL on a stream being
 * captured: an event wait node, the event no mark of the capture's. */
CUresult cu_capture_event_wait(CUstream s, CUevent e);
/* stream.c's hooks: an event recorded outside a capture, a stream waiting
 * on an event (which may bring it into a capture). */
void cu_capture_forget(CUevent e);
/* Whether e was last recorded in a capture still in progress: querying or
 * waiting for it from the host is CUDA_ERROR_CAPTURED_EVENT. */
int cu_capture_marked(CUevent e);
CUresult cu_capture_wait(CUstream s, CUevent e);
/* stream.c: records the time in e (a graph's event node); a dead e is
 * left alone. */
void cu_event_stamp(CUevent e);

/* graph.c: a stream-ordered allocation (*addr, fixed for the graph's
 * life) or free of addr, on a stream being captured: a memory node. */
CUresult cu_capture_alloc(CUstream s, size_t bytes, uint64_t *addr);
CUresult cu_capture_free(CUstream s, uint64_t addr);

/* graphmem.c: the memory of graphs' allocation nodes, one record each,
 * named by its address and an id.  cu_gmem_reserve: the memory of a new
 * allocation node of g (unreserve: the node could not be made);
 * cu_gmem_free_node: a free node of g for addr, if CUDA's rules allow one
 * (unfree: the node could not be made); cu_gmem_graph_gone: g is
 * destroyed; cu_gmem_hold: an executable graph holds (+1) or lets go (-1)
 * of an allocation node; cu_gmem_live: whether a run allocated it and
 * nothing freed it since; cu_gmem_run: a run reaches its allocation node
 * (live 1) or a free node (0); cu_gmem_free_outside: cuMemFree(Async) of
 * addr, -1 when it is no graph allocation; cu_gmem_teardown: at exit. */
CUresult cu_gmem_reserve(CUgraph g, size_t bytes, uint64_t *addr, unsigned long long *id);
void cu_gmem_unreserve(uint64_t addr, unsigned long long id);
CUresult cu_gmem_free_node(CUgraph g, uint64_t addr, unsigned long long *id);
void cu_gmem_unfree(uint64_t addr, unsigned long long id);
void cu_gmem_graph_gone(CUgraph g);
void cu_gmem_hold(uint64_t addr, unsigned long long id, int delta);
int cu_gmem_live(uint64_t addr, unsigned long long id);
CUresult cu_gmem_run(uint64_t addr, unsigned long long id, int live);
int cu_gmem_free_outside(uint64_t addr, const char *what);
void cu_gmem_teardown(void);

/* stream.c: whether a stream handle may be used in the current context
 * (NULL, the legacy and per-thread default streams, or a live stream). */
CUresult cu_stream_check(CUstream s);

#endif
