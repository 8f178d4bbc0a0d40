/* ptxvm.h: the public interface of ptxvm, a virtual NVIDIA GPU for the CPU.
 *
 * Modules: PTX text is parsed and checked as ptxas does, and can be
 * written back in canonical form.  Devices: a checked module is loaded
 * onto a device and its kernels run there, on device memory the host
 * allocates and copies.  docs/API.md has the details, docs/SECURITY.md
 * what the sandbox guarantees.
 *
 * Threads: every function may be called from any number of threads at
 * once, on the same objects too (a device, a program, a module); only
 * ptxvm_device_destroy must be a device's last call.  Launches on one
 * device from several threads run concurrently.  A launch holds what it
 * uses: memory freed, arrays or surfaces destroyed and programs unloaded
 * by other threads while it runs stay valid for it until it ends.
 *
 * Handles: ptxvm_module *, ptxvm_program * and const ptxvm_kernel * are
 * handles, not addresses; array and surface ids are handles too.  Each is
 * generation-checked: a handle that was freed (or never was one) is
 * refused with PTXVM_ERROR_INVALID_HANDLE where a call returns a result,
 * and treated as NULL where it does not; using one is never undefined.
 * Two devices in one process are independent; the handle registry and
 * the threads' messages are the only state kept for the whole process.
 */
#ifndef PTXVM_H
#define PTXVM_H

#include <stddef.h>
#include <stdint.h>

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
	int compile_only;       /* relocatable code, as ptxas --compile-only
				   judges it: functions called but defined in
				   another module and .attribute(.unified)
				   symbols are valid.  Such a module loads onto
				   a device; a call to a function it does not
				   define fails the launch that reaches it. */
	int device_runtime;     /* the device runtime is linked (as nvlink
				   links libcudadevrt): a whole program may call
				   its entry points, which ptxvm provides
				   (ptxvm_device_runtime_provides) */
	int newer_versions;     /* also PTX ISA 9.1 and 9.2, which ptxas 13.0
				   refuses and the drivers of CUDA 13.1 and 13.2
				   compile: NVIDIA's libraries ship them.  What
				   the module uses must be 9.0's: an instruction
				   or modifier 9.0 lacks is an error, as any
				   unknown one. */
} ptxvm_check_opts;

/* Parses and checks PTX text.  The text is copied; filename names it in
 * diagnostics.  Returns NULL only when text is NULL with len > 0, when
 * opts->arch is not a known target, or when memory is exhausted;
 * otherwise a module, valid or not.  Every function below accepts NULL
 * (or a freed module) for the module: no diagnostics, NULL text. */
ptxvm_module *ptxvm_module_load(const char *filename, const char *text, size_t len,
				const ptxvm_check_opts *opts);
/* The same for a file ('-' reads stdin).  NULL when the file cannot be
 * read (errno tells why) or as ptxvm_module_load. */
ptxvm_module *ptxvm_module_load_file(const char *path, const ptxvm_check_opts *opts);
/* Freeing a module twice does nothing.  Strings a module returned
 * (ptxvm_diag.message) live until it is freed. */
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

/* ---- devices ------------------------------------------------------------ */

/* Results: the values are those of the CUDA driver's CUresult, so that a
 * driver-API layer passes them through unchanged. */
typedef enum ptxvm_result {
	PTXVM_SUCCESS = 0,
	PTXVM_ERROR_INVALID_VALUE = 1,          /* a bad argument */
	PTXVM_ERROR_OUT_OF_MEMORY = 2,
	PTXVM_ERROR_INVALID_PTX = 218,          /* the module has errors */
	PTXVM_ERROR_INVALID_HANDLE = 400,
	PTXVM_ERROR_NOT_FOUND = 500,            /* no kernel or variable of that name */
	PTXVM_ERROR_ILLEGAL_ADDRESS = 700,      /* a guest access outside every allocation */
	PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
	PTXVM_ERROR_LAUNCH_TIMEOUT = 702,       /* the watchdog ended the launch */
	PTXVM_ERROR_ASSERT = 710,               /* __assertfail */
	PTXVM_ERROR_HARDWARE_STACK_ERROR = 714, /* call stack overflow */
	PTXVM_ERROR_ILLEGAL_INSTRUCTION = 715,  /* barrier deadlock; .sync lanes not converged */
	PTXVM_ERROR_MISALIGNED_ADDRESS = 716,
	PTXVM_ERROR_INVALID_ADDRESS_SPACE = 717,  /* SASS ATOM outside global memory */
	PTXVM_ERROR_LAUNCH_FAILED = 719,        /* trap, and other failures of a running kernel */
	PTXVM_ERROR_NOT_SUPPORTED = 801,        /* valid PTX that ptxvm cannot run yet */
} ptxvm_result;

/* "CUDA_ERROR_ILLEGAL_ADDRESS" etc.; "CUDA_ERROR_UNKNOWN" for other values. */
const char *ptxvm_result_name(ptxvm_result r);

typedef struct ptxvm_device ptxvm_device;

typedef struct ptxvm_device_opts {
	unsigned workers;       /* threads running CTAs, per launch; 0: one per core */
	double timeout;         /* seconds a launch may run; 0 (or negative, NaN,
				   more than 10^9): no limit */
	size_t stack_bytes;     /* per-thread call stack (local memory); 0: 16 KiB.  With
				   the kernel's own local variables at most 512 KiB, else
				   launches fail with PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES */
	void *printf_stream;    /* FILE * for device printf; NULL: stdout */
	size_t printf_fifo_bytes;  /* device printf FIFO; 0: 8,650,752 bytes (an H200's default) */
	unsigned checks;        /* PTXVM_CHECK_* (docs/CHECKS.md); 0: those PTXVM_CHECK
				   names in the environment, if any */
	void *check_stream;     /* FILE * for the checks' reports; NULL: stderr */
	const char *arch;       /* the target the device is, e.g. "sm_80": its compute
				   capability and per-SM limits in ptxvm_device_attribute
				   and kernels' cudaDeviceGetAttribute (NULL: sm_90);
				   an unknown target makes ptxvm_device_create fail.
				   A module for an arch-specific target (.target
				   sm_90a: wgmma, setmaxnreg) loads only onto a
				   device of that target */
	int jit;                /* the compiling tier: 1 on, -1 off; 0: PTXVM_JIT (0 or 1)
				   in the environment, else off (docs/API.md) */
} ptxvm_device_opts;

/* The runtime checks of compute-sanitizer's tools, reported in its words
 * (docs/CHECKS.md).  memcheck: invalid accesses and, when the device is
 * destroyed, allocations never freed; racecheck: shared-memory hazards
 * between barriers; initcheck: loads of memory never written; synccheck:
 * barriers reached by part of a warp. */
enum {
	PTXVM_CHECK_MEMCHECK = 1,
	PTXVM_CHECK_RACECHECK = 2,
	PTXVM_CHECK_INITCHECK = 4,
	PTXVM_CHECK_SYNCCHECK = 8,
	PTXVM_CHECK_ALL = 15,
};
/* "memcheck,racecheck,initcheck,synccheck" (any of them, comma-separated),
 * "all" or "none" to PTXVM_CHECK_* bits; PTXVM_ERROR_INVALID_VALUE for an
 * unknown name. */
ptxvm_result ptxvm_check_parse(const char *spec, unsigned *checks);
/* The checks on the device (0: none). */
unsigned ptxvm_device_checks(const ptxvm_device *d);
/* Ends the device's checks: reports the leaks (memcheck) and writes
 * "========= ERROR SUMMARY: N errors"; returns N, the errors found by all
 * launches and the leak check.  Later calls write nothing and return N
 * again.  ptxvm_device_destroy calls it on a device with checks. */
size_t ptxvm_device_check_finish(ptxvm_device *d);

/* NULL opts: the defaults.  Returns NULL when memory is exhausted. */
ptxvm_device *ptxvm_device_create(const ptxvm_device_opts *opts);
/* Waits for launches other threads are running on the device, then frees
 * it, its memory, arrays and surfaces, and every program loaded onto it
 * (their handles become stale).  No call may use the device after. */
void ptxvm_device_destroy(ptxvm_device *d);
/* The device's attribute attr, numbered as CUDA's CUdevice_attribute
 * (1 .. 147), as the real driver answers for its target (the arch it was
 * created for): compute capability, block and grid limits, shared memory
 * per block and SM, warp size ...; the multiprocessor count is the number
 * of workers; 0 for features ptxvm does not have.  Kernels'
 * cudaDeviceGetAttribute answers the same values.
 * PTXVM_ERROR_INVALID_VALUE for a number that is no attribute. */
ptxvm_result ptxvm_device_attribute(ptxvm_device *d, int attr, int *value);

/* Device limits, numbered as the CUDA driver's CUlimit.  The printf FIFO
 * holds the text of a launch's device printf calls (docs/PRINTF.md): a
 * call that does not fit, and every later one, is dropped.  As in CUDA, it
 * cannot be changed (PTXVM_ERROR_INVALID_VALUE) once a kernel of a module
 * that uses printf has been launched on the device; it is at least 1 byte.
 * The malloc heap (8 MiB by default, as in CUDA) serves device malloc,
 * __nv_aligned_device_malloc and free, whose blocks outlive the launch
 * that made them; malloc gives NULL when it is exhausted.  It is
 * allocated, and its size fixed, when the first kernel of a module that
 * uses malloc or free is launched (docs/EXECUTION.md).  The call stack
 * (stack_bytes of the options) may change at any time: a launch keeps the
 * size it started with; it is rounded up to 16 bytes, at most 512 KiB
 * (PTXVM_ERROR_INVALID_VALUE). */
typedef enum ptxvm_limit {
	PTXVM_LIMIT_STACK_SIZE = 0,             /* CU_LIMIT_STACK_SIZE */
	PTXVM_LIMIT_PRINTF_FIFO_SIZE = 1,       /* CU_LIMIT_PRINTF_FIFO_SIZE */
	PTXVM_LIMIT_MALLOC_HEAP_SIZE = 2,       /* CU_LIMIT_MALLOC_HEAP_SIZE */
	PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,       /* read only: 2048, CUDA's default */
} ptxvm_limit;
ptxvm_result ptxvm_device_set_limit(ptxvm_device *d, ptxvm_limit limit, size_t value);
ptxvm_result ptxvm_device_get_limit(ptxvm_device *d, ptxvm_limit limit, size_t *value);

/* The message of the calling thread's last call on the device, if that
 * call failed (a launch failure's report names the kernel, CTA, thread,
 * PTX file:line, instruction and address); "" after success.  Each thread
 * has its own: calls from other threads do not change it.  Valid until the
 * calling thread's next call on the device.  d NULL: the message of the
 * thread's last call that named no valid device (a NULL device, or a
 * freed program). */
const char *ptxvm_device_message(const ptxvm_device *d);

/* Device memory.  Addresses are device addresses, never host pointers;
 * 0 is never a valid allocation.  Copies are bounds-checked against the
 * allocation that holds the device range.  Freeing memory a running launch
 * may use is deferred: the address is invalid for new calls at once, and
 * its memory (and the address) stay reserved until that launch ends. */
ptxvm_result ptxvm_mem_alloc(ptxvm_device *d, size_t bytes, uint64_t *dptr);
ptxvm_result ptxvm_mem_free(ptxvm_device *d, uint64_t dptr);
ptxvm_result ptxvm_memcpy_htod(ptxvm_device *d, uint64_t dst, const void *src, size_t bytes);
ptxvm_result ptxvm_memcpy_dtoh(ptxvm_device *d, void *dst, uint64_t src, size_t bytes);
ptxvm_result ptxvm_memcpy_dtod(ptxvm_device *d, uint64_t dst, uint64_t src, size_t bytes);
ptxvm_result ptxvm_memset_d8(ptxvm_device *d, uint64_t dst, uint8_t value, size_t bytes);
/* count 16- or 32-bit elements of value from dst (which must be aligned to
 * the element). */
ptxvm_result ptxvm_memset_d16(ptxvm_device *d, uint64_t dst, uint16_t value, size_t count);
ptxvm_result ptxvm_memset_d32(ptxvm_device *d, uint64_t dst, uint32_t value, size_t count);
/* Host memory the device reaches at the same address: kernels and copies
 * see [host, host + bytes) at device address (uint64_t)host, which is how
 * a driver layer gives mapped, registered and managed memory one address
 * for both sides.  The host keeps ownership and must keep the memory alive
 * until ptxvm_mem_unmap_host (launches running then keep their view).
 * PTXVM_ERROR_INVALID_VALUE when the range overlaps device memory or a
 * window of the device's address space. */
ptxvm_result ptxvm_mem_map_host(ptxvm_device *d, void *host, size_t bytes);
ptxvm_result ptxvm_mem_unmap_host(ptxvm_device *d, void *host);
/* The device allocation holding addr: its start and size.
 * PTXVM_ERROR_NOT_FOUND when addr lies in none. */
ptxvm_result ptxvm_mem_range(ptxvm_device *d, uint64_t addr, uint64_t *base, size_t *bytes);

/* Tensor maps for cp.async.bulk.tensor (docs/TENSOR.md): 128 opaque bytes,
 * what CUDA calls a CUtensorMap, that a kernel takes as a
 * `.param .align 64 .b8 [128]` parameter or reads from global memory.
 * The arguments and their rules are CUDA's cuTensorMapEncodeTiled and
 * cuTensorMapEncodeIm2col (the enumerations' values too: data type 0-12,
 * interleave 0-2, swizzle 0-3, L2 promotion 0-3, OOB fill 0-1); a broken
 * rule gives PTXVM_ERROR_INVALID_VALUE, the rule in the message, and map
 * unchanged.  map is 64-byte aligned.  d may be NULL: it only keeps the
 * message.  The address is not checked against the device's allocations
 * (a copy that reaches outside them fails then, as on a GPU). */
ptxvm_result ptxvm_tensor_map_tiled(ptxvm_device *d, void *map, unsigned dtype, unsigned rank, uint64_t addr,
				    const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
				    const uint32_t *element_strides, unsigned interleave, unsigned swizzle,
				    unsigned l2promo, unsigned oobfill);
ptxvm_result ptxvm_tensor_map_im2col(ptxvm_device *d, void *map, unsigned dtype, unsigned rank, uint64_t addr,
				     const uint64_t *dims, const uint64_t *strides, const int *lower_corner,
				     const int *upper_corner, unsigned channels_per_pixel, unsigned pixels_per_column,
				     const uint32_t *element_strides, unsigned interleave, unsigned swizzle,
				     unsigned l2promo, unsigned oobfill);
/* A valid map gets another tensor address (cuTensorMapReplaceAddress). */
ptxvm_result ptxvm_tensor_map_replace_address(ptxvm_device *d, void *map, uint64_t addr);

/* A module loaded onto a device: its variables placed and initialised,
 * its code lowered.  A module with errors gives PTXVM_ERROR_INVALID_PTX.
 * The module may be freed after loading. */
typedef struct ptxvm_program ptxvm_program;
ptxvm_result ptxvm_program_load(ptxvm_device *d, const ptxvm_module *m, ptxvm_program **out);
/* The program's handle and its kernels' become stale at once; launches
 * running it finish first.  Unloading twice does nothing (the message for
 * ptxvm_device_message(NULL) says so). */
void ptxvm_program_unload(ptxvm_program *p);

/* A module variable (.global or .const) by name: its device address and
 * size, for copies. */
ptxvm_result ptxvm_program_global(ptxvm_program *p, const char *name, uint64_t *dptr,
				  size_t *bytes);

/* A .global variable made reachable from the host: its storage is also
 * mapped into the device at its host address *host (as ptxvm_mem_map_host
 * does), so that the host reads and writes the variable through *host and
 * kernels reach it both by name and through that address: CUDA's
 * __managed__ variables.  The mapping lives as long as the program. */
ptxvm_result ptxvm_program_managed(ptxvm_program *p, const char *name, void **host, size_t *bytes);

/* Kernels (.entry functions) and their parameters.  A kernel's handle, and
 * the strings these functions return, are valid while its program is
 * loaded. */
typedef struct ptxvm_kernel ptxvm_kernel;
size_t ptxvm_kernel_count(const ptxvm_program *p);
const ptxvm_kernel *ptxvm_kernel_at(const ptxvm_program *p, size_t i);
const ptxvm_kernel *ptxvm_kernel_find(const ptxvm_program *p, const char *name);
const char *ptxvm_kernel_name(const ptxvm_kernel *k);

typedef struct ptxvm_param_info {
	const char *name;
	const char *type;       /* "u32", "f64", "b8" (arrays), "texref", ... */
	size_t offset;          /* in the parameter buffer */
	size_t size;            /* bytes, the whole array for arrays */
	size_t align;
	int is_pointer;         /* declared .ptr */
} ptxvm_param_info;
size_t ptxvm_kernel_param_count(const ptxvm_kernel *k);
int ptxvm_kernel_param(const ptxvm_kernel *k, size_t i, ptxvm_param_info *out);
/* Size of the whole parameter buffer. */
size_t ptxvm_kernel_params_size(const ptxvm_kernel *k);

/* What a launch of the kernel takes, as cuFuncGetAttribute reports it. */
typedef struct ptxvm_kernel_attrs {
	size_t shared_bytes;    /* static shared memory (the module's .shared variables) */
	size_t local_bytes;     /* local memory of one thread, without the call stack */
	unsigned max_threads;   /* threads a CTA may have: .maxntid or .reqntid, else 1024 */
	unsigned ptx_version;   /* the module's .version, major * 10 + minor */
	unsigned sm;            /* the module's .target, 90 for sm_90 */
	unsigned cluster[3];    /* .reqnctapercluster (missing dimensions 1), or 0 0 0 */
	unsigned max_cluster_rank; /* .maxclusterrank, or 0 */
} ptxvm_kernel_attrs;
ptxvm_result ptxvm_kernel_attributes(const ptxvm_kernel *k, ptxvm_kernel_attrs *out);
/* A kernel's attributes, numbered as CUDA's CUfunction_attribute: what
 * cuFuncGetAttribute and kernels' cudaFuncGetAttributes (the device
 * runtime) answer, from one table per program.  A host may set four
 * (cuFuncSetAttribute): the dynamic shared memory a launch may ask for
 * (0 .. the device's opt-in maximum less the static; without it, what
 * remains of 48 KiB), the carveout (-1 .. 100), whether clusters may be
 * larger than 8 CTAs (0, 1), the cluster scheduling policy (0 .. 2).
 * Setting another is PTXVM_ERROR_INVALID_VALUE, or NOT_SUPPORTED for the
 * cluster shape. */
typedef enum ptxvm_kernel_attr {
	PTXVM_KATTR_MAX_THREADS_PER_BLOCK, PTXVM_KATTR_SHARED_SIZE_BYTES, PTXVM_KATTR_CONST_SIZE_BYTES,
	PTXVM_KATTR_LOCAL_SIZE_BYTES, PTXVM_KATTR_NUM_REGS, PTXVM_KATTR_PTX_VERSION, PTXVM_KATTR_BINARY_VERSION,
	PTXVM_KATTR_CACHE_MODE_CA, PTXVM_KATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES,
	PTXVM_KATTR_PREFERRED_SHARED_MEMORY_CARVEOUT, PTXVM_KATTR_CLUSTER_SIZE_MUST_BE_SET,
	PTXVM_KATTR_REQUIRED_CLUSTER_WIDTH, PTXVM_KATTR_REQUIRED_CLUSTER_HEIGHT, PTXVM_KATTR_REQUIRED_CLUSTER_DEPTH,
	PTXVM_KATTR_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, PTXVM_KATTR_CLUSTER_SCHEDULING_POLICY_PREFERENCE,
} ptxvm_kernel_attr;
ptxvm_result ptxvm_kernel_get_attribute(const ptxvm_kernel *k, int attr, int *value);
ptxvm_result ptxvm_kernel_set_attribute(const ptxvm_kernel *k, int attr, int value);
/* How many CTAs of `block` threads with dyn_shared bytes of dynamic shared
 * memory fit on one multiprocessor at once (cuOccupancyMaxActiveBlocksPer-
 * Multiprocessor's answer), by the device's attributes; 0 if none fits. */
ptxvm_result ptxvm_kernel_occupancy(const ptxvm_kernel *k, int block, size_t dyn_shared, int *blocks);

typedef struct ptxvm_launch_config {
	unsigned grid[3];       /* CTAs; 0 counts as 1 */
	unsigned block[3];      /* threads per CTA; 0 counts as 1 */
	size_t shared_bytes;    /* dynamic shared memory (.extern .shared) */
	unsigned cluster[3];    /* CTAs per cluster (sm_90), dividing grid; all 0: the
				   kernel's .reqnctapercluster, else clusters of one CTA.
				   At most 16 CTAs, the non-portable maximum of an
				   H100 (docs/EXECUTION.md, "Clusters") */
} ptxvm_launch_config;

typedef struct ptxvm_launch_stats {
	uint64_t thread_instructions;   /* instructions executed, per active lane */
	uint64_t warp_instructions;     /* instructions executed, per warp */
	double seconds;
	unsigned workers;
	uint64_t printf_dropped;        /* device printf calls the full FIFO dropped */
	/* the compiling tier (ptxvm_device_opts.jit) */
	int compiled;                   /* 1: the kernel ran compiled; 0: interpreted */
	int jit_cache_hit;              /* its program's code was in the disk cache */
	double jit_seconds;             /* this launch generated, compiled or loaded it */
	char jit_note[200];             /* the tier is on and the kernel was interpreted: why */
} ptxvm_launch_stats;

/* Runs a kernel to completion.  args[i] points at the value of parameter
 * i (as cuLaunchKernel); its size is the parameter's.  stats may be NULL.
 * A failure of the running kernel returns its error; the device stays
 * usable and the next launch runs normally.  The launch sees device
 * memory, arrays and surfaces as they were when it began.  Resources
 * beyond a limit (docs/SECURITY.md) give PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES
 * before the launch starts. */
ptxvm_result ptxvm_launch(ptxvm_device *d, const ptxvm_kernel *k, const ptxvm_launch_config *cfg,
			  void *const *args, ptxvm_launch_stats *stats);
/* The same with the parameter buffer already laid out (offsets of
 * ptxvm_kernel_param); bytes must equal ptxvm_kernel_params_size. */
ptxvm_result ptxvm_launch_packed(ptxvm_device *d, const ptxvm_kernel *k,
				 const ptxvm_launch_config *cfg, const void *params, size_t bytes,
				 ptxvm_launch_stats *stats);
/* ptxvm_launch with every CTA running at once, each on its own worker (at
 * most 1024 CTAs, else PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES), and a zeroed
 * grid barrier word at %envreg1:%envreg2 (high:low): what cooperative
 * groups' grid.sync() expects of cuLaunchCooperativeKernel. */
ptxvm_result ptxvm_launch_cooperative(ptxvm_device *d, const ptxvm_kernel *k, const ptxvm_launch_config *cfg,
				      void *const *args, ptxvm_launch_stats *stats);
/* ---- graphs launched from kernels ------------------------------------------
 * CUDA's device graph launch (docs/EXECUTION.md, "Graphs launched from
 * kernels").  The embedder keeps its graphs; ptxvm keeps the order of
 * their runs.  A graph is run by a function of the embedder's that runs
 * its nodes in an order their dependencies allow, launching its kernels
 * with ptxvm_launch_graph_node into the environment it is given, and
 * returns the first failure.  ptxvm_graph_run runs a graph from the host:
 * the graph, then every graph its kernels launched (cudaGraphLaunch in
 * device code), in CUDA's order, on the calling thread; the first failure
 * anywhere is its result.  A kernel may launch only graphs registered
 * with ptxvm_graph_register (a graph instantiated for device launch and
 * uploaded), and only while it runs as a node of a graph; any other
 * handle, forged or stale, is refused to the calling thread with an error
 * code, never followed. */
typedef struct ptxvm_graph_env ptxvm_graph_env;
typedef ptxvm_result (*ptxvm_graph_fn)(void *arg, uint64_t graph, ptxvm_graph_env *env);
/* Kernels may launch `graph` (a non-zero handle of the embedder's) from
 * now on; run(arg, graph, env) runs it.  Registering it again replaces
 * run and arg. */
ptxvm_result ptxvm_graph_register(ptxvm_device *d, uint64_t graph, ptxvm_graph_fn run, void *arg);
/* Kernels may no longer launch it (launches already queued fail). */
ptxvm_result ptxvm_graph_unregister(ptxvm_device *d, uint64_t graph);
/* Runs graph (registered, or 0 for one kernels may not launch, which
 * they read as %current_graph_exec 0) with run(arg, graph, env), then
 * what its kernels launched. */
ptxvm_result ptxvm_graph_run(ptxvm_device *d, uint64_t graph, ptxvm_graph_fn run, void *arg);
/* Conditional nodes (docs/EXECUTION.md "Conditional graph nodes"): a
 * kernel's cudaGraphSetConditional(handle, value) in the graph running in
 * env calls set(arg, handle, value), which returns 0, or non-zero for a
 * handle that graph does not know (the calling thread then faults); with
 * no set given, every handle is unknown.  ptxvm_graph_env_expired says
 * whether the graphs of env's host launch have run past the device's time
 * limit (PTXVM_ERROR_LAUNCH_TIMEOUT, reported) or not (PTXVM_SUCCESS): a
 * loop of the embedder's asks it before each turn. */
typedef int (*ptxvm_graph_cond_fn)(void *arg, uint64_t handle, unsigned value);
void ptxvm_graph_env_conditionals(ptxvm_graph_env *env, ptxvm_graph_cond_fn set, void *arg);
ptxvm_result ptxvm_graph_env_expired(ptxvm_graph_env *env);
/* Device-updatable kernel nodes: a kernel's cudaGraphKernelNodeSetParam,
 * ...SetEnabled, ...SetGridDim and cudaGraphKernelNodeUpdatesApply in the
 * graph running in env call update(arg, u) for each update, which
 * returns 0 or the cudaError_t the call returns (cudaErrorInvalidValue for
 * a node it does not know); with no update given, cudaErrorNotSupported.
 * value points to the guest's bytes, read for the call only. */
typedef struct ptxvm_node_update {
	uint64_t node;          /* the guest's cudaGraphDeviceNode_t */
	int field;              /* cudaGraphKernelNodeField: 1 grid, 2 parameters, 3 enabled */
	unsigned grid[3];
	unsigned enabled;
	uint64_t offset;        /* into the parameters */
	const void *value;
	size_t size;
} ptxvm_node_update;
typedef int (*ptxvm_graph_update_fn)(void *arg, const ptxvm_node_update *u);
void ptxvm_graph_env_updates(ptxvm_graph_env *env, ptxvm_graph_update_fn update, void *arg);
/* ptxvm_launch_packed of a kernel node of the graph running in env. */
ptxvm_result ptxvm_launch_graph_node(ptxvm_device *d, const ptxvm_kernel *k, const ptxvm_launch_config *cfg,
				     const void *params, size_t bytes, ptxvm_graph_env *env,
				     ptxvm_launch_stats *stats);
/* Whether the kernel, or a function it calls, launches grids (dynamic
 * parallelism: cudaLaunchDevice, cudaGetParameterBuffer); 0 for a stale
 * handle. */
int ptxvm_kernel_launches_grids(const ptxvm_kernel *k);

/* Launches are synchronous; this returns PTXVM_SUCCESS, for callers
 * written against an asynchronous interface. */
ptxvm_result ptxvm_device_synchronize(ptxvm_device *d);


/* ---- arrays and surfaces -------------------------------------------------
 * A CUDA array: elements of one format, 1, 2 or 4 channels, in 1D, 2D, 3D,
 * layered or cubemap shape.  Its storage is private; the host writes and
 * reads it whole, tightly packed, row-major, layer after layer (a cubemap's
 * six faces are its layers, +x -x +y -y +z -z).  A surface object names an
 * array for kernels: its handle is the .u64 value a kernel's surface
 * parameter takes.  docs/SURFACES.md has the semantics. */
typedef enum ptxvm_format {
	PTXVM_FORMAT_U8, PTXVM_FORMAT_U16, PTXVM_FORMAT_U32,
	PTXVM_FORMAT_S8, PTXVM_FORMAT_S16, PTXVM_FORMAT_S32,
	PTXVM_FORMAT_F16, PTXVM_FORMAT_F32,
	PTXVM_FORMAT_UNORM8, PTXVM_FORMAT_UNORM16, PTXVM_FORMAT_SNORM8, PTXVM_FORMAT_SNORM16,
} ptxvm_format;

typedef enum ptxvm_array_kind {
	PTXVM_ARRAY_1D, PTXVM_ARRAY_2D, PTXVM_ARRAY_3D, PTXVM_ARRAY_1D_LAYERED,
	PTXVM_ARRAY_2D_LAYERED, PTXVM_ARRAY_CUBEMAP, PTXVM_ARRAY_CUBEMAP_LAYERED,
} ptxvm_array_kind;

typedef struct ptxvm_array_desc {
	ptxvm_array_kind kind;
	ptxvm_format format;
	unsigned channels;      /* 1, 2 or 4 */
	size_t width;           /* elements */
	size_t height;          /* 2D, 3D, 2D layered, cubemaps (= width); else 0 */
	size_t depth;           /* 3D; else 0 */
	size_t layers;          /* layered kinds (cubemap layered: cubes); else 0 */
} ptxvm_array_desc;

/* *array gets the array's id.  Sizes follow CUDA's limits for sm_90. */
ptxvm_result ptxvm_array_create(ptxvm_device *d, const ptxvm_array_desc *desc, uint64_t *array);
/* Frees the array; surface objects naming it stop being valid. */
ptxvm_result ptxvm_array_destroy(ptxvm_device *d, uint64_t array);
/* The array's size in bytes, 0 for no array. */
size_t ptxvm_array_bytes(const ptxvm_device *d, uint64_t array);
/* Whole-array copies; bytes must equal ptxvm_array_bytes. */
ptxvm_result ptxvm_array_write(ptxvm_device *d, uint64_t array, const void *src, size_t bytes);
ptxvm_result ptxvm_array_read(ptxvm_device *d, uint64_t array, void *dst, size_t bytes);
/* A surface object for the array (*surface: the kernel's handle). */
ptxvm_result ptxvm_surface_create(ptxvm_device *d, uint64_t array, uint64_t *surface);
ptxvm_result ptxvm_surface_destroy(ptxvm_device *d, uint64_t surface);
/* Binds a module-scope .global .surfref variable of a program to a surface
 * object: suld/sust naming the variable reach that surface's array.  An
 * unbound reference fails the launch when it is used. */
ptxvm_result ptxvm_program_bind_surface(ptxvm_program *p, const char *name, uint64_t surface);

/* ---- region copies ---------------------------------------------------------
 * A box of bytes copied between host memory, device memory and arrays, as
 * CUDA's CUDA_MEMCPY3D describes one (cuMemcpy2D is the same with depth 1).
 * Each side has a type and a start: x in bytes, y in rows, z in slices.
 * Host and device memory are laid out by the side's pitch (bytes per row)
 * and height (rows per slice); an array's rows and slices are its own, a
 * slice being a depth slice of a 3D array, a layer of a layered one, a face
 * of a cubemap (cube n's face f is slice 6n + f).  For an array, x and
 * width_bytes must be whole elements.  Every row of both sides must lie in
 * the side's memory: a host side is trusted, a device side must lie in one
 * allocation, an array side in the array.  Overlapping sides copy as if
 * through a temporary buffer.  A zero extent copies nothing. */
typedef enum ptxvm_memory_type {
	PTXVM_MEMORY_HOST = 1, PTXVM_MEMORY_DEVICE = 2, PTXVM_MEMORY_ARRAY = 3,
} ptxvm_memory_type;    /* CUmemorytype's values */

typedef struct ptxvm_copy3d {
	size_t src_x_bytes, src_y, src_z;
	ptxvm_memory_type src_type;
	const void *src_host;   /* PTXVM_MEMORY_HOST */
	uint64_t src_device;    /* PTXVM_MEMORY_DEVICE */
	uint64_t src_array;     /* PTXVM_MEMORY_ARRAY */
	size_t src_pitch;       /* host, device: bytes per row */
	size_t src_height;      /* host, device: rows per slice (used when depth > 1) */
	size_t dst_x_bytes, dst_y, dst_z;
	ptxvm_memory_type dst_type;
	void *dst_host;
	uint64_t dst_device;
	uint64_t dst_array;
	size_t dst_pitch, dst_height;
	size_t width_bytes, height, depth;      /* the box */
} ptxvm_copy3d;

ptxvm_result ptxvm_memcpy3d(ptxvm_device *d, const ptxvm_copy3d *copy);

/* ---- mipmapped arrays -----------------------------------------------------
 * A chain of arrays of one kind and format: level l is max(1, size >> l) in
 * each of width, height and depth (layers and faces stay), CUDA's sizes.
 * levels is 1 .. 1 + floor(log2(largest of width, height, depth)).  Each
 * level is an ordinary array (written, read, copied, made a surface of)
 * that lives and dies with the chain. */
ptxvm_result ptxvm_mipmapped_array_create(ptxvm_device *d, const ptxvm_array_desc *desc, unsigned levels,
					  uint64_t *mipmap);
ptxvm_result ptxvm_mipmapped_array_destroy(ptxvm_device *d, uint64_t mipmap);
ptxvm_result ptxvm_mipmapped_array_level(ptxvm_device *d, uint64_t mipmap, unsigned level, uint64_t *array);

/* ---- textures and samplers --------------------------------------------------
 * A texture object is a resource and a description of how it is sampled:
 * its handle is the .u64 value a kernel's cudaTextureObject_t parameter
 * takes.  The two descriptions follow CUDA's cudaResourceDesc and
 * cudaTextureDesc field for field, with their enumerations' values, so a
 * driver layer maps them one to one.  docs/TEXTURES.md has the sampling
 * rules. */
typedef enum ptxvm_resource_type {
	PTXVM_RESOURCE_ARRAY, PTXVM_RESOURCE_MIPMAPPED_ARRAY, PTXVM_RESOURCE_LINEAR, PTXVM_RESOURCE_PITCH2D,
} ptxvm_resource_type;

typedef struct ptxvm_resource_desc {
	ptxvm_resource_type type;
	uint64_t array;         /* ARRAY: an array id */
	uint64_t mipmap;        /* MIPMAPPED_ARRAY: a mipmapped array id */
	uint64_t dptr;          /* LINEAR, PITCH2D: device memory */
	ptxvm_format format;    /* LINEAR, PITCH2D: the elements */
	unsigned channels;
	size_t bytes;           /* LINEAR: the size in bytes */
	size_t width, height;   /* PITCH2D: in elements and rows */
	size_t pitch;           /* PITCH2D: bytes per row, a multiple of 32 */
} ptxvm_resource_desc;

typedef enum ptxvm_address_mode {
	PTXVM_ADDRESS_WRAP, PTXVM_ADDRESS_CLAMP, PTXVM_ADDRESS_MIRROR, PTXVM_ADDRESS_BORDER,
} ptxvm_address_mode;
typedef enum ptxvm_filter_mode { PTXVM_FILTER_POINT, PTXVM_FILTER_LINEAR } ptxvm_filter_mode;
typedef enum ptxvm_read_mode { PTXVM_READ_ELEMENT_TYPE, PTXVM_READ_NORMALIZED_FLOAT } ptxvm_read_mode;

typedef struct ptxvm_texture_desc {
	ptxvm_address_mode address_mode[3];     /* wrap and mirror need normalized_coords */
	ptxvm_filter_mode filter_mode;          /* linear needs a floating-point result */
	ptxvm_read_mode read_mode;              /* normalized float: 8- and 16-bit integer formats */
	int srgb;                               /* sRGB to linear, 8-bit unsigned formats read as float */
	float border_color[4];
	int normalized_coords;
	unsigned max_anisotropy;                /* tex.grad; 0 or 1: isotropic, at most 16 */
	ptxvm_filter_mode mipmap_filter_mode;
	float mipmap_level_bias;
	float min_mipmap_level_clamp, max_mipmap_level_clamp;
	int disable_trilinear_optimization;     /* ptxvm's trilinear filtering is always exact */
	int seamless_cubemap;
} ptxvm_texture_desc;

/* *texture gets the object's handle.  The resource is checked against the
 * description (PTXVM_ERROR_INVALID_VALUE with the reason): the object keeps
 * naming the array, mipmapped array or device memory, and stops being
 * valid for kernels when that is freed.  Texture and sampler handles are
 * generation-checked: once destroyed, a handle is PTXVM_ERROR_INVALID_HANDLE
 * for every call and ends a launch that uses it with
 * PTXVM_ERROR_ILLEGAL_ADDRESS. */
ptxvm_result ptxvm_texture_create(ptxvm_device *d, const ptxvm_resource_desc *resource,
				  const ptxvm_texture_desc *desc, uint64_t *texture);
ptxvm_result ptxvm_texture_destroy(ptxvm_device *d, uint64_t texture);
/* A sampler object, for PTX's independent texture mode (.samplerref): the
 * sampling fields of desc; its normalized_coords = 0 is the sampler's
 * force_unnormalized_coords. */
ptxvm_result ptxvm_sampler_create(ptxvm_device *d, const ptxvm_texture_desc *desc, uint64_t *sampler);
ptxvm_result ptxvm_sampler_destroy(ptxvm_device *d, uint64_t sampler);
/* Binds a module-scope .global .texref of a program to a texture object
 * (the sampler fields its initializer names take precedence), and a
 * .global .samplerref (independent mode) to a sampler object. */
ptxvm_result ptxvm_program_bind_texture(ptxvm_program *p, const char *name, uint64_t texture);
ptxvm_result ptxvm_program_bind_sampler(ptxvm_program *p, const char *name, uint64_t sampler);

/* ---- builtins ----------------------------------------------------------
 * NVIDIA's surface and texture builtins and the PTX they lower to
 * (docs/BUILTINS.md): the 165 surface stores __nvvm_sust_b_{dim}_{type}_{oob}
 * (IDs 474..638), then the names __nv_tex_surf_handler (ID 647) dispatches
 * to, an operation and an element type: "__isurf2Dread_int4",
 * "__itex2DLod_float". */
typedef struct ptxvm_builtin {
	unsigned id;            /* 474..638, or 647 for the handler's names */
	char name[48];          /* "__nvvm_sust_b_2d_v4i8_trap", "__itex2D_float4" */
	char ptx[160];          /* "sust.b.2d.v4.b8.trap [s, {x, y}], {c0, c1, c2, c3}" */
	const char *mode;       /* store builtins: "clamp", "trap", "zero"; else NULL */
	const char *dim;        /* store builtins: "1d" ... "3d"; else NULL */
	const char *type;       /* store builtins: "i8" ... "v4i32"; else NULL */
	const char *operation;  /* handler names: "__isurf2Dread"; else NULL */
	const char *element;    /* handler names: "int4"; else NULL */
	const char *argument;   /* what the call's int argument is: NULL, "mode"
				   (cudaSurfaceBoundaryMode: 0 zero, 1 clamp,
				   2 trap; the form shows trap) or "component"
				   (0..3; the form shows 0) */
	unsigned operands;      /* how many operands a call takes */
} ptxvm_builtin;

size_t ptxvm_builtin_count(void);
/* The i-th builtin: the stores in ID order, then the handler's names;
 * -1 past the end. */
int ptxvm_builtin_at(size_t i, ptxvm_builtin *out);
/* A builtin by name or by decimal ID; -1 if there is none (then
 * ptxvm_builtin_why says why, in a static string of this thread). */
int ptxvm_builtin_find(const char *name_or_id, ptxvm_builtin *out);
const char *ptxvm_builtin_why(void);
/* The name of operand i of a call ("s", "x", "d0", "lod"); NULL past the end. */
const char *ptxvm_builtin_operand(const ptxvm_builtin *b, unsigned i);
/* A complete PTX module whose kernel takes a .u64 handle (a surface or
 * texture object) and a .u64 buffer, and calls the builtin; the caller
 * frees it.  NULL for an unknown builtin. */
char *ptxvm_builtin_module(const char *name_or_id);

/* Whether a call to the function name is one the device provides itself,
 * so that no module defines it: the device runtime's entry points
 * (libcudadevrt: "__cudaCDP2LaunchDeviceV2", "cudaGetParameterBuffer" ...).
 * A linker treats them as defined (src/exec/exec.c holds the list). */
int ptxvm_device_runtime_provides(const char *name);

/* ---- building modules ----------------------------------------------------
 * A module built call by call and printed by the canonical writer: what a
 * language front end written in C uses to emit PTX.  Every call returns 0,
 * or -1 with the reason in ptxvm_builder_error; a failed call adds
 * nothing.  Names and operands are PTX text ("%r1", "[%rd1+8]", "{%f1,
 * %f2}", "0f3F800000"); each call adds one statement. */
typedef struct ptxvm_builder ptxvm_builder;
typedef struct ptxvm_builder_fn ptxvm_builder_fn;

enum { PTXVM_TEXMODE_INDEPENDENT = 1 };
/* target "sm_90" (NULL: sm_90), PTX version as major*10+minor (0: 8.0). */
ptxvm_builder *ptxvm_builder_create(const char *target, unsigned ptx_version, int flags);
void ptxvm_builder_destroy(ptxvm_builder *b);
const char *ptxvm_builder_error(const ptxvm_builder *b);

typedef enum { PTXVM_TEXREF = 1, PTXVM_SAMPLERREF, PTXVM_SURFREF } ptxvm_image;
/* Sampler fields of a .samplerref (or .texref) initializer; NULL leaves a
 * field out.  addr_mode: "wrap", "mirror", "clamp_to_edge",
 * "clamp_to_border"; filter_mode: "nearest", "linear";
 * force_unnormalized_coords: "0" or "1". */
typedef struct ptxvm_sampler {
	const char *addr_mode[3];
	const char *filter_mode;
	const char *force_unnormalized_coords;
} ptxvm_sampler;
/* .global .texref/.samplerref/.surfref NAME [= { ... }] */
int ptxvm_build_image(ptxvm_builder *b, ptxvm_image kind, const char *name, const ptxvm_sampler *init);
/* Any other module-scope declaration, without ';': ".global .u32 count". */
int ptxvm_build_global(ptxvm_builder *b, const char *decl);

/* A .visible .entry; parameters, registers and statements follow in order. */
ptxvm_builder_fn *ptxvm_build_kernel(ptxvm_builder *b, const char *name);
/* .param TYPE NAME, with TYPE one scalar or vector type: ".u64", ".v2 .f32". */
int ptxvm_build_param(ptxvm_builder_fn *f, const char *type, const char *name);
/* A handle parameter: .param .texref NAME, or by pointer,
 * .param .u64 .ptr .texref NAME (likewise .surfref, .samplerref). */
int ptxvm_build_image_param(ptxvm_builder_fn *f, ptxvm_image kind, int by_pointer, const char *name);
/* .reg .TYPE PREFIX<COUNT>: ("b32", "%r", 8) declares %r0..%r7. */
int ptxvm_build_regs(ptxvm_builder_fn *f, const char *type, const char *prefix, unsigned count);
/* One instruction: the mnemonic with its modifiers (and a guard, "@%p1
 * bra"), then its operands, then NULL. */
int ptxvm_build_ins(ptxvm_builder_fn *f, const char *mnemonic, ...);
int ptxvm_build_label(ptxvm_builder_fn *f, const char *name);
/* A builtin call, lowered to its instruction: the operands as
 * ptxvm_builtin_operand names them, then NULL; arg is the boundary mode or
 * the gather component where the builtin takes one, else ignored.  The
 * handle is checked against the image type it was declared with. */
int ptxvm_build_builtin(ptxvm_builder_fn *f, const char *builtin, int arg, ...);

/* The module's canonical text (the caller frees it), or NULL with the
 * reason in ptxvm_builder_error. */
char *ptxvm_builder_print(ptxvm_builder *b);
/* The canonical text loaded as a module (as ptxvm_module_load), or NULL. */
ptxvm_module *ptxvm_builder_module(ptxvm_builder *b, const ptxvm_check_opts *opts);

/* ---- SASS ATOM ------------------------------------------------------------
 * A front end for the hardware ATOM instruction (SPA 5.0 syntax): a text
 * file of initial registers, memory regions and a sequence of ATOM
 * instructions (the format is in docs/ATOM.md) is parsed and checked, then
 * run, one instruction after the other, against a register file (R0..R254,
 * RZ; P0..P6, PT) and a memory image, through ptxvm's atomic unit.
 *
 * Execution errors: PTXVM_ERROR_MISALIGNED_ADDRESS (misaligned address),
 * PTXVM_ERROR_ILLEGAL_ADDRESS (address out of range) and
 * PTXVM_ERROR_INVALID_ADDRESS_SPACE (717, CUDA's value: an address in a
 * shared or local window).  A file with errors runs nothing and gives
 * PTXVM_ERROR_INVALID_PTX. */

typedef struct ptxvm_sass ptxvm_sass;

/* Parses and checks the text (copied; filename names it in diagnostics).
 * NULL only when text is NULL with len > 0 or memory is exhausted. */
ptxvm_sass *ptxvm_sass_load(const char *filename, const char *text, size_t len);
/* The same for a file ('-' reads stdin); NULL when it cannot be read. */
ptxvm_sass *ptxvm_sass_load_file(const char *path);
void ptxvm_sass_free(ptxvm_sass *s);

/* Diagnostics, as for modules: FILE:LINE:COL with the line and a caret. */
size_t ptxvm_sass_errors(const ptxvm_sass *s);
size_t ptxvm_sass_diag_count(const ptxvm_sass *s);
int ptxvm_sass_diag(const ptxvm_sass *s, size_t i, ptxvm_diag *out);
char *ptxvm_sass_diagnostics(const ptxvm_sass *s);     /* the caller frees */
/* The number of instructions. */
size_t ptxvm_sass_count(const ptxvm_sass *s);

/* Resets registers and memory to the file's initial state and runs every
 * instruction in order; stops at the first execution error. */
ptxvm_result ptxvm_sass_run(ptxvm_sass *s);
/* After a failed run: the message "FILE:LINE: NAME (address 0xADDR):
 * DETAILS, in `INSTRUCTION`" (NAME: misaligned address, address out of
 * range, invalid address space), the instruction's source line (1-based)
 * and the address; "", 0, 0 after a successful run. */
const char *ptxvm_sass_message(const ptxvm_sass *s);
unsigned ptxvm_sass_fault_line(const ptxvm_sass *s);
uint64_t ptxvm_sass_fault_address(const ptxvm_sass *s);

/* The current state: register r (0..254; 255 is RZ, always 0), predicate
 * p (0..6; 7 is PT, always 1), and memory (PTXVM_ERROR_ILLEGAL_ADDRESS
 * unless [addr, addr + n) lies in one region). */
uint32_t ptxvm_sass_reg(const ptxvm_sass *s, unsigned r);
int ptxvm_sass_pred(const ptxvm_sass *s, unsigned p);
ptxvm_result ptxvm_sass_read(const ptxvm_sass *s, uint64_t addr, void *dst, size_t n);
/* The state in the stable text of `ptxvm sass` (docs/ATOM.md): registers
 * and predicates that are non-zero or changed, then every region.  The
 * caller frees. */
char *ptxvm_sass_state(const ptxvm_sass *s);

#ifdef __cplusplus
}
#endif
#endif
