/* device.c: the public device interface (ptxvm.h): devices, memory,
 * programs, kernels and launches, over mem, lower and exec.
 *
 * A device owns its memory and its programs; nothing here is global, so
 * devices in one process are independent.  Every entry point validates
 * its arguments and leaves a message for the calling thread.
 *
 * Threads: any number of host threads may use one device at once.  Memory
 * and the image table (arrays, surfaces, textures, samplers) are
 * copy-on-write tables with their own locks (mem.h, surf.h); a launch pins
 * a version of each and holds a reference on its program, so that frees,
 * destroys and unloads from other threads are deferred until it ends.
 * Launches run concurrently, each on its own workers, watchdog and printf
 * FIFO.  The device's own lock guards its list of programs, the launches
 * in flight and its limits, never while a kernel runs.  Programs and
 * kernels are registry handles (registry.c).
 */
#include "host.h"
#include "../front/parse.h"
#include "../check/check.h"
#include "../lower/prog.h"
#include "../exec/exec.h"
#include "../exec/san.h"
#include "../exec/solo.h"
#include "../jit/jit.h"
#include "../surf/surf.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(sizeof(void *) == 8, "handles are 64-bit values cast to pointers");

struct ptxvm_device {
	uint64_t serial;        /* names the device in the threads' messages */
	DevMem mem;
	SurfTable surf;         /* arrays, surfaces, textures and samplers */
	pthread_mutex_t lock;   /* progs, busy, printf_fifo, printed, heap_bytes, heap_made, stack_bytes */
	pthread_cond_t idle;    /* busy fell to 0 */
	unsigned busy;          /* launches in flight */
	unsigned workers;
	unsigned cc;            /* the target's compute capability, 90 for sm_90 */
	char sm_suffix;         /* 'a' for the arch-specific target sm_90a */
	int attr[DEVICE_ATTR_MAX + 1];  /* its attributes (attr.c) */
	double timeout;
	size_t stack_bytes;
	FILE *out;
	size_t printf_fifo;     /* bytes */
	bool printed;           /* a kernel using printf was launched */
	size_t heap_bytes;      /* the malloc heap's size (cudaLimitMallocHeapSize) */
	size_t pending;         /* grids launched from kernels and not yet run, at most
				   (cudaLimitDevRuntimePendingLaunchCount) */
	bool heap_made;         /* a kernel using malloc was launched: heap is allocated */
	uint64_t errtab;        /* the error texts of kernels' cudaGetErrorName/String; 0: not yet */
	Heap heap;
	struct ptxvm_program **progs;
	size_t nprogs, capprogs;
	atomic_uint_fast64_t launches;
	San *san;               /* the runtime checks; NULL: none */
	bool jit;               /* the compiling tier is on */
	DevGraphs graphs;       /* graphs kernels may launch (devgraph.c) */
};

struct ptxvm_kernel {
	RegObj o;               /* owner: the program */
	uint64_t handle;
	struct ptxvm_program *p;
	const XFunc *f;
	const char *why;        /* not executable: the first reason, with its place */
};

struct ptxvm_program {
	RegObj o;
	uint64_t handle;
	ptxvm_device *d;
	Module *m;
	char *text, *file;
	Prog *prog;
	struct ptxvm_kernel *k;
	size_t nk;
	KAttrs *kattr;          /* each function's attributes (kernels' only), [prog->nfn] */
	uint64_t *statics;      /* surface objects of .surfref initializers */
	size_t nstatics;
	uint64_t *mapped;       /* variables mapped at their host address too (ptxvm_program_managed) */
	size_t nmapped;
	pthread_mutex_t map_lock;       /* guards mapped, and the compiled code: */
	struct KernelJit {              /* by function index: each kernel's compiled code */
		bool tried, said;     /* said: PTXVM_LOG told why it is not compiled */
		Jit *jit;               /* NULL: the tier could not take the kernel */
		JitInfo info;
	} *jit;
};

typedef struct ptxvm_kernel Kernel;
typedef struct ptxvm_program Program;

static void kernel_attrs(const Kernel *k, ptxvm_kernel_attrs *out);
static void kattr_init(const Kernel *k);

static atomic_uint_fast64_t next_serial = 1;

const char *ptxvm_result_name(ptxvm_result r)
{
	switch (r) {
	case PTXVM_SUCCESS: return "CUDA_SUCCESS";
	case PTXVM_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
	case PTXVM_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
	case PTXVM_ERROR_INVALID_PTX: return "CUDA_ERROR_INVALID_PTX";
	case PTXVM_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
	case PTXVM_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
	case PTXVM_ERROR_ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
	case PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
	case PTXVM_ERROR_LAUNCH_TIMEOUT: return "CUDA_ERROR_LAUNCH_TIMEOUT";
	case PTXVM_ERROR_ASSERT: return "CUDA_ERROR_ASSERT";
	case PTXVM_ERROR_HARDWARE_STACK_ERROR: return "CUDA_ERROR_HARDWARE_STACK_ERROR";
	case PTXVM_ERROR_ILLEGAL_INSTRUCTION: return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
	case PTXVM_ERROR_MISALIGNED_ADDRESS: return "CUDA_ERROR_MISALIGNED_ADDRESS";
	case PTXVM_ERROR_INVALID_ADDRESS_SPACE: return "CUDA_ERROR_INVALID_ADDRESS_SPACE";
	case PTXVM_ERROR_LAUNCH_FAILED: return "CUDA_ERROR_LAUNCH_FAILED";
	case PTXVM_ERROR_NOT_SUPPORTED: return "CUDA_ERROR_NOT_SUPPORTED";
	}
	return "CUDA_ERROR_UNKNOWN";
}

ptxvm_result host_say(ptxvm_device *d, ptxvm_result r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	host_vsay(d ? d->serial : 0, fmt, ap);
	va_end(ap);
	return r;
}
#define say host_say

/* A program or kernel handle's object, with a reference; NULL when the
 * handle is stale (the reason is then said for the calling thread). */
static Program *prog_get(const ptxvm_program *h, const char *fn)
{
	Program *p = (Program *)reg_get(host_handle(h), TAG_PROGRAM);
	if (!p)
		say(NULL, PTXVM_ERROR_INVALID_HANDLE, "%s: %s", fn,
		    h ? "the program was unloaded (or is no program)" : "NULL program");
	return p;
}

static Kernel *kernel_get(const ptxvm_kernel *h)
{
	return (Kernel *)reg_get(host_handle(h), TAG_KERNEL);
}

static void put(RegObj *o) { reg_put(o); }

ptxvm_device *ptxvm_device_create(const ptxvm_device_opts *opts)
{
	unsigned cc, sm, minptx;
	char suffix = 0;
	const char *arch = opts && opts->arch ? opts->arch : "sm_90";
	if (!host_attr_target(arch, &cc) || !ptx_target_lookup(arch, strlen(arch), &sm, &suffix, &minptx))
		return NULL;
	ptxvm_device *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->sm_suffix = suffix;
	if (!mem_init(&d->mem)) {
		free(d);
		return NULL;
	}
	if (!surf_init(&d->surf)) {
		mem_fini(&d->mem);
		free(d);
		return NULL;
	}
	d->serial = atomic_fetch_add(&next_serial, 1);
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->idle, NULL);
	devgraphs_init(&d->graphs);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	d->workers = opts && opts->workers ? opts->workers : n > 0 ? (unsigned)n : 1;
	if (d->workers > 1024)
		d->workers = 1024;
	d->cc = cc;
	host_attrs(cc, d->workers, d->attr);
	d->timeout = opts && opts->timeout > 0 ? opts->timeout : 0;
	d->stack_bytes = opts && opts->stack_bytes ? opts->stack_bytes : 16384;
	d->out = opts && opts->printf_stream ? opts->printf_stream : stdout;
	d->printf_fifo = opts && opts->printf_fifo_bytes ? opts->printf_fifo_bytes : FIFO_DEFAULT_BYTES;
	d->heap_bytes = HEAP_DEFAULT_BYTES;
	d->pending = CDP_MAX_PENDING;
	unsigned checks = opts ? opts->checks : 0;
	const char *env = getenv("PTXVM_CHECK");
	if (!checks && env && *env && ptxvm_check_parse(env, &checks))
		fprintf(stderr, "ptxvm: PTXVM_CHECK='%s' is not a list of memcheck, racecheck, initcheck, synccheck, "
			"all, none: no checks\n", env);
	d->san = san_create(checks & PTXVM_CHECK_ALL, opts ? opts->check_stream : NULL);
	if (checks && !d->san) {
		ptxvm_device_destroy(d);
		return NULL;
	}
	d->mem.track_init = checks & PTXVM_CHECK_INITCHECK;
	int jit = opts ? opts->jit : 0;
	d->jit = jit ? jit > 0 : jit_env() == 1;
	return d;
}

ptxvm_result ptxvm_check_parse(const char *spec, unsigned *checks)
{
	static const char *const names[] = { "memcheck", "racecheck", "initcheck", "synccheck" };
	if (!spec || !checks)
		return PTXVM_ERROR_INVALID_VALUE;
	unsigned c = 0;
	for (const char *p = spec; *p;) {
		size_t n = strcspn(p, ",");
		bool known = false;
		for (unsigned i = 0; i < 4; i++)
			if (n == strlen(names[i]) && !strncmp(p, names[i], n))
				c |= 1u << i, known = true;
		if (n == 3 && !strncmp(p, "all", 3))
			c = PTXVM_CHECK_ALL, known = true;
		if (n == 4 && !strncmp(p, "none", 4))
			known = true;
		if (!known)
			return PTXVM_ERROR_INVALID_VALUE;
		p += n + (p[n] == ',');
	}
	*checks = c;
	return PTXVM_SUCCESS;
}

unsigned ptxvm_device_checks(const ptxvm_device *d) { return d ? san_checks(d->san) : 0; }

ptxvm_result ptxvm_device_attribute(ptxvm_device *d, int attr, int *value)
{
	if (!d || !value)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_attribute: NULL argument");
	if (attr < 1 || attr > DEVICE_ATTR_MAX)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_attribute: %d is not a device attribute", attr);
	*value = d->attr[attr];
	return say(d, PTXVM_SUCCESS, NULL);
}

size_t ptxvm_device_check_finish(ptxvm_device *d)
{
	if (!d || !d->san)
		return 0;
	/* launches from other threads end first */
	pthread_mutex_lock(&d->lock);
	while (d->busy)
		pthread_cond_wait(&d->idle, &d->lock);
	pthread_mutex_unlock(&d->lock);
	return (size_t)san_finish(d->san, &d->mem);
}

static void program_close(Program *p);

ptxvm_result ptxvm_device_set_limit(ptxvm_device *d, ptxvm_limit limit, size_t value)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_set_limit: NULL device");
	if (limit == PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT) {
		/* launches in flight keep theirs */
		if (!value || value > CDP_MAX_PENDING_LIMIT)
			return say(d, PTXVM_ERROR_INVALID_VALUE, "%zu pending device launches: from 1 to %u", value,
				   CDP_MAX_PENDING_LIMIT);
		pthread_mutex_lock(&d->lock);
		d->pending = value;
		pthread_mutex_unlock(&d->lock);
		return say(d, PTXVM_SUCCESS, NULL);
	}
	if (limit == PTXVM_LIMIT_STACK_SIZE) {
		/* whole 16-byte slots, within a thread's local memory; launches
		 * in flight keep theirs */
		if (value > EXEC_MAX_LOCAL)
			return say(d, PTXVM_ERROR_INVALID_VALUE, "a call stack of %zu bytes: at most %u per thread",
				   value, EXEC_MAX_LOCAL);
		pthread_mutex_lock(&d->lock);
		d->stack_bytes = (value + 15) & ~(size_t)15;
		pthread_mutex_unlock(&d->lock);
		return say(d, PTXVM_SUCCESS, NULL);
	}
	if (limit != PTXVM_LIMIT_PRINTF_FIFO_SIZE && limit != PTXVM_LIMIT_MALLOC_HEAP_SIZE)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_set_limit: limit %d is not supported",
			   (int)limit);
	bool heap = limit == PTXVM_LIMIT_MALLOC_HEAP_SIZE;
	if (!heap && !value)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "the printf FIFO must hold at least 1 byte");
	if (heap && value > MEM_MAX_ALLOC)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "a malloc heap of %zu bytes: at most 1 TiB", value);
	pthread_mutex_lock(&d->lock);
	bool fixed = heap ? d->heap_made : d->printed;
	if (!fixed && heap)
		d->heap_bytes = value;
	else if (!fixed)
		d->printf_fifo = value;
	pthread_mutex_unlock(&d->lock);
	if (fixed)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "the %s cannot change size after a kernel that uses %s has "
			   "been launched on the device (as in CUDA)", heap ? "malloc heap" : "printf FIFO",
			   heap ? "malloc or free" : "printf");
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_device_get_limit(ptxvm_device *d, ptxvm_limit limit, size_t *value)
{
	if (!d || !value)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_get_limit: NULL argument");
	if (limit == PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT) {
		pthread_mutex_lock(&d->lock);
		*value = d->pending;
		pthread_mutex_unlock(&d->lock);
		return say(d, PTXVM_SUCCESS, NULL);
	}
	if (limit != PTXVM_LIMIT_STACK_SIZE && limit != PTXVM_LIMIT_PRINTF_FIFO_SIZE &&
	    limit != PTXVM_LIMIT_MALLOC_HEAP_SIZE)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_get_limit: limit %d is not supported",
			   (int)limit);
	pthread_mutex_lock(&d->lock);
	*value = limit == PTXVM_LIMIT_MALLOC_HEAP_SIZE ? d->heap_bytes :
		 limit == PTXVM_LIMIT_STACK_SIZE ? d->stack_bytes : d->printf_fifo;
	pthread_mutex_unlock(&d->lock);
	return say(d, PTXVM_SUCCESS, NULL);
}

/* The malloc heap, allocated when the first kernel that uses it is
 * launched (d->lock held); false when there is no memory for it. */
static bool heap_make(ptxvm_device *d)
{
	if (d->heap_made)
		return true;
	uint64_t base = 0;
	if (d->heap_bytes && !mem_alloc(&d->mem, d->heap_bytes, ALLOC_GLOBAL, 0, &base))
		return false;
	if (!heap_init(&d->heap, base, d->heap_bytes)) {
		if (base)
			mem_free(&d->mem, base, 0);
		return false;
	}
	d->heap_made = true;
	return true;
}

/* The error texts kernels' cudaGetErrorName and cudaGetErrorString
 * return, read-only device memory made when the first kernel that calls
 * them is launched (d->lock held); false when there is no memory for it. */
static bool errtab_make(ptxvm_device *d)
{
	if (d->errtab)
		return true;
	size_t n = exec_errtab(NULL);
	uint64_t base;
	if (!mem_alloc(&d->mem, n, ALLOC_CONST, 0, &base))
		return false;
	exec_errtab(mem_host_own(&d->mem, base, n));
	d->errtab = base;
	return true;
}

void ptxvm_device_destroy(ptxvm_device *d)
{
	if (!d)
		return;
	/* launches from other threads end first; calls that start after this
	 * one are the caller's error */
	pthread_mutex_lock(&d->lock);
	while (d->busy)
		pthread_cond_wait(&d->idle, &d->lock);
	pthread_mutex_unlock(&d->lock);
	if (d->san) {
		san_finish(d->san, &d->mem);
		san_free(d->san);
	}
	while (d->nprogs)
		program_close(d->progs[d->nprogs - 1]);
	free(d->progs);
	if (d->heap_made)
		heap_fini(&d->heap);
	mem_fini(&d->mem);
	surf_fini(&d->surf);
	pthread_cond_destroy(&d->idle);
	pthread_mutex_destroy(&d->lock);
	devgraphs_fini(&d->graphs);
	host_forget(d->serial);
	free(d);
}

const char *ptxvm_device_message(const ptxvm_device *d) { return host_message(d ? d->serial : 0); }

/* ---- memory ------------------------------------------------------------- */
ptxvm_result ptxvm_mem_alloc(ptxvm_device *d, size_t bytes, uint64_t *dptr)
{
	if (!d || !dptr)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_alloc: NULL argument");
	if (!mem_alloc(&d->mem, bytes, ALLOC_GLOBAL, ALLOC_USER, dptr))
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "cannot allocate %zu bytes of device memory%s", bytes,
			   bytes > MEM_MAX_ALLOC ? " (at most 1 TiB in one allocation)" : "");
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_mem_free(ptxvm_device *d, uint64_t dptr)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_free: NULL device");
	switch (mem_free(&d->mem, dptr, ALLOC_USER)) {
	case MEM_OK:
		return say(d, PTXVM_SUCCESS, NULL);
	case MEM_NOT_FREEABLE:
		return say(d, PTXVM_ERROR_INVALID_VALUE, "0x%llx is a variable of a loaded program, which "
			   "ptxvm_program_unload frees, or the device's malloc heap", (unsigned long long)dptr);
	case MEM_NOMEM:
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory to free 0x%llx", (unsigned long long)dptr);
	}
	return say(d, PTXVM_ERROR_INVALID_VALUE, "0x%llx is not the start of a device allocation (never "
		   "allocated, or freed already)", (unsigned long long)dptr);
}

/* A host copy runs on a pinned version of the table, so that a free from
 * another thread waits for it to end before the memory goes. */
static ptxvm_result copy(ptxvm_device *d, const char *what, uint64_t a, uint64_t b, void *host, size_t n,
			 int dir)
{
	const MemView *v = mem_pin(&d->mem);
	const Alloc *pa = mem_find(v, a, n), *qa = dir == 2 && pa ? mem_find(v, b, n) : NULL;
	uint8_t *p = pa ? pa->host + (a - pa->base) : NULL, *q = qa ? qa->host + (b - qa->base) : NULL;
	ptxvm_result r = PTXVM_SUCCESS;
	if (dir != 1)           /* no launch does its atomics as plain writes meanwhile */
		solo_host_begin();
	if (!p || (dir == 2 && !q)) {
		r = say(d, PTXVM_ERROR_INVALID_VALUE, "%s%s: [0x%llx, +%zu) is not inside one device allocation",
			what, dir == 2 ? (p ? " destination" : " source") : "", (unsigned long long)(p ? b : a), n);
	} else if (n) {
		switch (dir) {
		case 0: memmove(p, host, n); break;             /* to the device */
		case 1: memmove(host, p, n); break;             /* to the host */
		case 2: memmove(q, p, n); break;                /* a to b */
		case 3: memset(p, *(const uint8_t *)host, n); break;
		case 4: for (size_t i = 0; i < n; i += 2) memcpy(p + i, host, 2); break;
		default: for (size_t i = 0; i < n; i += 4) memcpy(p + i, host, 4); break;
		}
		if (dir == 2)                                   /* initcheck: what is written now */
			mem_copy_init(qa, b - qa->base, pa, a - pa->base, n);
		else if (dir != 1)
			mem_mark_init(pa, a - pa->base, n);
	}
	if (dir != 1)
		solo_host_end();
	mem_unpin(&d->mem, v);
	return r ? r : say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_memcpy_htod(ptxvm_device *d, uint64_t dst, const void *src, size_t n)
{
	if (!d || (!src && n))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy_htod: NULL argument");
	return copy(d, "ptxvm_memcpy_htod", dst, 0, (void *)src, n, 0);
}

ptxvm_result ptxvm_memcpy_dtoh(ptxvm_device *d, void *dst, uint64_t src, size_t n)
{
	if (!d || (!dst && n))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy_dtoh: NULL argument");
	return copy(d, "ptxvm_memcpy_dtoh", src, 0, dst, n, 1);
}

ptxvm_result ptxvm_memcpy_dtod(ptxvm_device *d, uint64_t dst, uint64_t src, size_t n)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy_dtod: NULL device");
	return copy(d, "ptxvm_memcpy_dtod", src, dst, NULL, n, 2);
}

ptxvm_result ptxvm_memset_d8(ptxvm_device *d, uint64_t dst, uint8_t v, size_t n)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memset_d8: NULL device");
	return copy(d, "ptxvm_memset_d8", dst, 0, &v, n, 3);
}

ptxvm_result ptxvm_memset_d16(ptxvm_device *d, uint64_t dst, uint16_t v, size_t count)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memset_d16: NULL device");
	if ((dst & 1) || count > SIZE_MAX / 2)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memset_d16: 0x%llx is not 2-byte aligned, or the count "
			   "is absurd", (unsigned long long)dst);
	return copy(d, "ptxvm_memset_d16", dst, 0, &v, count * 2, 4);
}

ptxvm_result ptxvm_memset_d32(ptxvm_device *d, uint64_t dst, uint32_t v, size_t count)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memset_d32: NULL device");
	if ((dst & 3) || count > SIZE_MAX / 4)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memset_d32: 0x%llx is not 4-byte aligned, or the count "
			   "is absurd", (unsigned long long)dst);
	return copy(d, "ptxvm_memset_d32", dst, 0, &v, count * 4, 5);
}

ptxvm_result ptxvm_mem_map_host(ptxvm_device *d, void *host, size_t bytes)
{
	if (!d || !host || !bytes)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_map_host: NULL argument or no bytes");
	switch (mem_map(&d->mem, (uint64_t)(uintptr_t)host, bytes, host, ALLOC_GLOBAL, ALLOC_BORROWED)) {
	case MEM_OK:
		return say(d, PTXVM_SUCCESS, NULL);
	case MEM_NOMEM:
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "ptxvm_mem_map_host: out of memory");
	default:
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_map_host: [%p, +%zu) overlaps device memory or a "
			   "window of the device's address space", host, bytes);
	}
}

ptxvm_result ptxvm_mem_unmap_host(ptxvm_device *d, void *host)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_unmap_host: NULL device");
	if (mem_free(&d->mem, (uint64_t)(uintptr_t)host, ALLOC_BORROWED) != MEM_OK)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_unmap_host: %p is not mapped host memory", host);
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_mem_range(ptxvm_device *d, uint64_t addr, uint64_t *base, size_t *bytes)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_range: NULL device");
	const MemView *v = mem_pin(&d->mem);
	const Alloc *a = mem_find(v, addr, 1);
	if (a) {
		if (base)
			*base = a->base;
		if (bytes)
			*bytes = a->size;
	}
	mem_unpin(&d->mem, v);
	return a ? say(d, PTXVM_SUCCESS, NULL)
		 : say(d, PTXVM_ERROR_NOT_FOUND, "0x%llx is in no device allocation", (unsigned long long)addr);
}

/* ---- programs ----------------------------------------------------------- */
/* The first instruction of f (or of a function it calls) that ptxvm cannot
 * execute, as "file:line:col: error: ...". */
static char *why_not(const Prog *p, const XFunc *f, uint8_t *seen)
{
	size_t i = (size_t)(f - p->fn);
	if (seen[i])
		return NULL;
	seen[i] = 1;
	if (f->why)
		return strdup(f->why);
	for (uint32_t k = 0; k < f->ncode; k++) {
		const XIns *x = &f->code[k];
		const char *why = exec_unsupported(x);
		if (why) {
			char *s = NULL;
			if (asprintf(&s, "%s:%u:%u: error: %s: %s", p->file, x->src->pos.line, x->src->pos.col,
				     isa_op[x->op].name, why) < 0)
				s = NULL;
			return s;
		}
		if (x->op == OPC_call && x->irnd) {
			char *s = why_not(p, &p->fn[x->target], seen);
			if (s)
				return s;
		}
	}
	return NULL;
}

/* A .global .surfref with a static initializer starts out holding a
 * description-only surface object, so that suq answers from its fields
 * until the host binds the variable.  The program frees them. */
static void static_surfaces(ptxvm_device *d, Program *p)
{
	static const char *const field[7] = { "width", "height", "depth", "channel_data_type", "channel_order",
					       "array_size", "memory_layout" };
	const Prog *pg = p->prog;
	for (uint32_t i = 0; i < pg->nvars; i++) {
		const XVar *v = &pg->vars[i];
		const Init *in = v->d->init;
		if (v->d->type != TY_surfref || !v->d->has_init || !in || in->kind != IN_FIELDS)
			continue;
		uint32_t q[7] = { 0, 0, 0, 0, 0, 0, 0 };
		for (uint32_t k = 0; k < in->n; k++)
			for (int f = 0; f < 7; f++)
				if (str_eq(in->items[k].name, field[f]) && in->items[k].sub &&
				    in->items[k].sub->kind == IN_INT)
					q[f] = (uint32_t)in->items[k].sub->ival;
		uint64_t *st = realloc(p->statics, (p->nstatics + 1) * sizeof *st);
		if (!st)
			continue;
		p->statics = st;
		uint64_t h = surf_static_new(&d->surf, q);
		uint8_t *host = h ? mem_host_own(&d->mem, v->addr, 8) : NULL;
		if (host)
			memcpy(host, &h, 8);
		if (h)
			p->statics[p->nstatics++] = h;
	}
}

/* The last reference is gone: no launch runs the program any more. */
static void program_destroy(RegObj *o)
{
	Program *p = (Program *)o;
	ptxvm_device *d = p->d;
	for (size_t i = 0; i < p->nmapped; i++)
		mem_free(&d->mem, p->mapped[i], ALLOC_BORROWED);
	free(p->mapped);
	pthread_mutex_destroy(&p->map_lock);
	for (uint32_t i = 0; p->jit && i < p->prog->nfn; i++)
		jit_free(p->jit[i].jit);
	free(p->jit);
	if (p->prog)
		prog_free(p->prog, &d->mem);
	for (size_t i = 0; i < p->nstatics; i++)
		surf_static_free(&d->surf, p->statics[i]);
	free(p->statics);
	tex_release(&d->surf, host_handle(p));
	for (size_t i = 0; i < p->nk; i++)
		free((char *)p->k[i].why);
	free(p->k);
	free(p->kattr);
	if (p->m)
		ptx_module_free(p->m);
	free(p->text);
	free(p->file);
	free(p);
}

/* Makes the program's handles stale and drops the device's reference. */
static void program_close(Program *p)
{
	ptxvm_device *d = p->d;
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->nprogs; i++)
		if (d->progs[i] == p) {
			d->progs[i] = d->progs[--d->nprogs];
			break;
		}
	pthread_mutex_unlock(&d->lock);
	for (size_t i = 0; i < p->nk; i++)
		reg_remove(p->k[i].handle, TAG_KERNEL);
	reg_remove(p->handle, TAG_PROGRAM);
}

ptxvm_result ptxvm_program_load(ptxvm_device *d, const ptxvm_module *m, ptxvm_program **out)
{
	if (!d || !m || !out)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_program_load: NULL argument");
	*out = NULL;
	RegObj *mo = reg_get(host_handle(m), TAG_MODULE);
	if (!mo)
		return say(d, PTXVM_ERROR_INVALID_HANDLE, "ptxvm_program_load: the module was freed (or is no module)");
	reg_put(mo);
	if (ptxvm_module_errors(m))
		return say(d, PTXVM_ERROR_INVALID_PTX, "the module has %zu errors", ptxvm_module_errors(m));
	Program *p = calloc(1, sizeof *p);
	if (!p)
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	p->d = d;
	pthread_mutex_init(&p->map_lock, NULL);
	p->o.destroy = program_destroy;
	p->m = host_module_copy(m, &p->text, &p->file);
	if (!p->m) {
		free(p);
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory (or the module was freed meanwhile)");
	}
	/* arch-specific code (.target sm_90a) runs only on its own target */
	unsigned msm = p->m->sm;
	char msuf = (char)p->m->sm_suffix;
	if (msuf && (msm != d->cc || msuf != d->sm_suffix)) {
		program_destroy(&p->o);
		return say(d, PTXVM_ERROR_INVALID_PTX, "the module is for sm_%u%c, which only a device created as "
			   "sm_%u%c runs; this device is sm_%u%s", msm, msuf, msm, msuf, d->cc,
			   d->sm_suffix == 'a' ? "a" : d->sm_suffix == 'f' ? "f" : "");
	}
	char *err = NULL;
	int code = 0;
	p->prog = prog_lower(p->m, &d->mem, &err, &code);
	if (!p->prog) {
		ptxvm_result r = say(d, code ? (ptxvm_result)code : PTXVM_ERROR_NOT_SUPPORTED, "%s",
				     err ? err : "cannot load the module");
		free(err);
		program_destroy(&p->o);
		return r;
	}
	const Prog *pg = p->prog;
	static_surfaces(d, p);
	char *bad = host_static_textures(d, pg, host_handle(p));
	if (bad) {
		ptxvm_result r = say(d, PTXVM_ERROR_NOT_SUPPORTED, "%s", bad);
		free(bad);
		program_destroy(&p->o);
		return r;
	}
	p->k = calloc(pg->nfn + 1, sizeof *p->k);
	p->kattr = calloc(pg->nfn + 1, sizeof *p->kattr);
	uint8_t *seen = calloc(pg->nfn + 1, 1);
	if (!p->k || !p->kattr || !seen) {
		free(seen);
		program_destroy(&p->o);
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	for (uint32_t i = 0; i < pg->nfn; i++)
		if (pg->fn[i].entry) {
			memset(seen, 0, pg->nfn);
			char *why = why_not(pg, &pg->fn[i], seen);
			p->k[p->nk++] = (Kernel){ .o.owner = &p->o, .p = p, .f = &pg->fn[i], .why = why };
			kattr_init(&p->k[p->nk - 1]);
		}
	free(seen);
	p->handle = reg_add(&p->o, TAG_PROGRAM);
	bool ok = p->handle != 0;
	for (size_t i = 0; i < p->nk && ok; i++)
		ok = (p->k[i].handle = reg_add(&p->k[i].o, TAG_KERNEL)) != 0;
	pthread_mutex_lock(&d->lock);
	if (ok && d->nprogs == d->capprogs) {
		size_t cap = d->capprogs ? d->capprogs * 2 : 4;
		Program **v = realloc(d->progs, cap * sizeof *v);
		ok = v != NULL;
		if (ok) {
			d->progs = v;
			d->capprogs = cap;
		}
	}
	if (ok)
		d->progs[d->nprogs++] = p;
	pthread_mutex_unlock(&d->lock);
	if (!ok) {
		for (size_t i = 0; i < p->nk; i++)
			reg_remove(p->k[i].handle, TAG_KERNEL);
		if (!p->handle || !reg_remove(p->handle, TAG_PROGRAM))
			program_destroy(&p->o);
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	*out = (ptxvm_program *)(uintptr_t)p->handle;
	return say(d, PTXVM_SUCCESS, NULL);
}

void ptxvm_program_unload(ptxvm_program *h)
{
	/* a stale handle (unloaded twice) says so and changes nothing; a
	 * launch still running the program keeps it until it ends */
	Program *p = prog_get(h, "ptxvm_program_unload");
	if (!p)
		return;
	program_close(p);
	say(p->d, PTXVM_SUCCESS, NULL);
	put(&p->o);
}

ptxvm_result ptxvm_program_managed(ptxvm_program *h, const char *name, void **host, size_t *bytes)
{
	uint64_t a;
	size_t n;
	ptxvm_result r = ptxvm_program_global(h, name, &a, &n);
	Program *p = r ? NULL : prog_get(h, "ptxvm_program_managed");
	if (!p)
		return r ? r : PTXVM_ERROR_INVALID_HANDLE;
	ptxvm_device *d = p->d;
	const MemView *v = mem_pin(&d->mem);
	uint8_t *q = mem_host(v, a, n ? n : 1);
	mem_unpin(&d->mem, v);
	pthread_mutex_lock(&p->map_lock);
	bool done = false;
	for (size_t i = 0; i < p->nmapped && !done; i++)
		done = p->mapped[i] == (uint64_t)(uintptr_t)q;
	uint64_t *m = done ? NULL : realloc(p->mapped, (p->nmapped + 1) * sizeof *m);
	if (!q || !n)
		r = say(d, PTXVM_ERROR_INVALID_VALUE, "variable '%s' has no storage to map", name);
	else if (!done && !m)
		r = say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	else if (!done) {
		p->mapped = m;
		if (mem_map(&d->mem, (uint64_t)(uintptr_t)q, n, q, ALLOC_GLOBAL, ALLOC_BORROWED) != MEM_OK)
			r = say(d, PTXVM_ERROR_INVALID_VALUE, "variable '%s' cannot be mapped at its host address", name);
		else
			p->mapped[p->nmapped++] = (uint64_t)(uintptr_t)q;
	}
	pthread_mutex_unlock(&p->map_lock);
	if (!r) {
		if (host)
			*host = q;
		if (bytes)
			*bytes = n;
		r = say(d, PTXVM_SUCCESS, NULL);
	}
	put(&p->o);
	return r;
}

ptxvm_result ptxvm_program_global(ptxvm_program *h, const char *name, uint64_t *dptr, size_t *bytes)
{
	Program *p = prog_get(h, "ptxvm_program_global");
	if (!p)
		return PTXVM_ERROR_INVALID_HANDLE;
	ptxvm_result r = PTXVM_ERROR_NOT_FOUND;
	for (uint32_t i = 0; name && i < p->prog->nvars && r; i++)
		if (!strcmp(p->prog->vars[i].name, name)) {
			if (dptr)
				*dptr = p->prog->vars[i].addr;
			if (bytes)
				*bytes = (size_t)p->prog->vars[i].bytes;
			r = say(p->d, PTXVM_SUCCESS, NULL);
		}
	if (!name)
		r = say(p->d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_program_global: NULL name");
	else if (r)
		say(p->d, r, "no .global or .const variable '%s'", name);
	put(&p->o);
	return r;
}

/* ---- kernels ------------------------------------------------------------ */
size_t ptxvm_kernel_count(const ptxvm_program *h)
{
	Program *p = (Program *)reg_get(host_handle(h), TAG_PROGRAM);
	size_t n = p ? p->nk : 0;
	reg_put(p ? &p->o : NULL);
	return n;
}

const ptxvm_kernel *ptxvm_kernel_at(const ptxvm_program *h, size_t i)
{
	Program *p = (Program *)reg_get(host_handle(h), TAG_PROGRAM);
	uint64_t k = p && i < p->nk ? p->k[i].handle : 0;
	reg_put(p ? &p->o : NULL);
	return (const ptxvm_kernel *)(uintptr_t)k;
}

const ptxvm_kernel *ptxvm_kernel_find(const ptxvm_program *h, const char *name)
{
	Program *p = (Program *)reg_get(host_handle(h), TAG_PROGRAM);
	uint64_t k = 0;
	for (size_t i = 0; p && name && i < p->nk && !k; i++)
		if (!strcmp(p->k[i].f->name, name))
			k = p->k[i].handle;
	reg_put(p ? &p->o : NULL);
	return (const ptxvm_kernel *)(uintptr_t)k;
}

/* The name stays valid while the program is loaded. */
const char *ptxvm_kernel_name(const ptxvm_kernel *h)
{
	Kernel *k = kernel_get(h);
	const char *n = k ? k->f->name : NULL;
	reg_put(k ? &k->o : NULL);
	return n;
}

size_t ptxvm_kernel_param_count(const ptxvm_kernel *h)
{
	Kernel *k = kernel_get(h);
	size_t n = k ? k->f->nparams : 0;
	reg_put(k ? &k->o : NULL);
	return n;
}

size_t ptxvm_kernel_params_size(const ptxvm_kernel *h)
{
	Kernel *k = kernel_get(h);
	size_t n = k ? k->f->param_bytes : 0;
	reg_put(k ? &k->o : NULL);
	return n;
}

/* Whether f, or a function it may call, launches grids (the device
 * runtime's cudaLaunchDevice and cudaGetParameterBuffer); an indirect call
 * may reach any function of the program. */
static bool launches_grids(const Prog *p, const XFunc *f, uint8_t *seen)
{
	size_t i = (size_t)(f - p->fn);
	if (seen[i])
		return false;
	seen[i] = 1;
	if (!(f->ast && f->ast->has_body))
		return strstr(f->name, "LaunchDevice") || strstr(f->name, "GetParameterBuffer");
	for (uint32_t k = 0; k < f->ncode; k++) {
		const XIns *x = &f->code[k];
		if (x->op != OPC_call)
			continue;
		if (x->irnd && launches_grids(p, &p->fn[x->target], seen))
			return true;
		for (uint32_t j = 0; !x->irnd && j < p->nfn; j++)
			if (launches_grids(p, &p->fn[j], seen))
				return true;
	}
	return false;
}

int ptxvm_kernel_launches_grids(const ptxvm_kernel *h)
{
	Kernel *k = kernel_get(h);
	if (!k)
		return 0;
	const Prog *p = k->p->prog;
	uint8_t *seen = calloc(p->nfn ? p->nfn : 1, 1);
	/* without memory to look, the answer that refuses */
	int r = !seen || launches_grids(p, k->f, seen);
	free(seen);
	reg_put(&k->o);
	return r;
}

int ptxvm_kernel_param(const ptxvm_kernel *h, size_t i, ptxvm_param_info *out)
{
	Kernel *k = kernel_get(h);
	int r = -1;
	if (k && out && i < k->f->nparams) {
		const XKParam *q = &k->f->kparams[i];
		*out = (ptxvm_param_info){ q->name, q->type, q->off, q->bytes, q->align, q->is_ptr };
		r = 0;
	}
	reg_put(k ? &k->o : NULL);
	return r;
}

ptxvm_result ptxvm_kernel_attributes(const ptxvm_kernel *h, ptxvm_kernel_attrs *out)
{
	Kernel *k = kernel_get(h);
	if (!k || !out) {
		reg_put(k ? &k->o : NULL);
		return say(NULL, k ? PTXVM_ERROR_INVALID_VALUE : PTXVM_ERROR_INVALID_HANDLE,
			   "ptxvm_kernel_attributes: %s", k ? "NULL argument" : "no kernel");
	}
	kernel_attrs(k, out);
	reg_put(&k->o);
	return PTXVM_SUCCESS;
}

/* The index of a kernel's function in its program, its row of kattr. */
static size_t kernel_fn(const Kernel *k)
{
	return (size_t)(k->f - k->p->prog->fn);
}

ptxvm_result ptxvm_kernel_get_attribute(const ptxvm_kernel *h, int attr, int *value)
{
	Kernel *k = kernel_get(h);
	ptxvm_result r = !k ? PTXVM_ERROR_INVALID_HANDLE : !value || attr < 0 || attr >= KATTR_N ?
			 PTXVM_ERROR_INVALID_VALUE : PTXVM_SUCCESS;
	if (!r)
		*value = atomic_load_explicit(&k->p->kattr[kernel_fn(k)].v[attr], memory_order_relaxed);
	reg_put(k ? &k->o : NULL);
	return say(NULL, r, r ? "ptxvm_kernel_get_attribute: %s" : NULL, !k ? "no kernel" : !value ?
		   "NULL argument" : "no such attribute");
}

ptxvm_result ptxvm_kernel_set_attribute(const ptxvm_kernel *h, int attr, int v)
{
	Kernel *k = kernel_get(h);
	if (!k)
		return say(NULL, PTXVM_ERROR_INVALID_HANDLE, "ptxvm_kernel_set_attribute: no kernel");
	uint64_t fixed = k->f->shared_dyn - XSMEM_RESERVED;
	int optin = k->p->d->attr[97];          /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
	const char *bad = NULL;
	switch (attr) {
	case PTXVM_KATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (v < 0 || (uint64_t)v + fixed > (uint64_t)optin)
			bad = "dynamic shared memory beyond what the device allows a CTA";
		break;
	case PTXVM_KATTR_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (v < -1 || v > 100)
			bad = "a carveout is a percentage, or -1";
		break;
	case PTXVM_KATTR_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
		if (v != 0 && v != 1)
			bad = "the value is 0 or 1";
		break;
	case PTXVM_KATTR_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		if (v < 0 || v > 2)     /* default, spread, load balancing: one worker runs a cluster either way */
			bad = "no such policy";
		break;
	case PTXVM_KATTR_CLUSTER_SIZE_MUST_BE_SET:
	case PTXVM_KATTR_REQUIRED_CLUSTER_WIDTH:
	case PTXVM_KATTR_REQUIRED_CLUSTER_HEIGHT:
	case PTXVM_KATTR_REQUIRED_CLUSTER_DEPTH:
		reg_put(&k->o);
		return say(NULL, PTXVM_ERROR_NOT_SUPPORTED, "ptxvm_kernel_set_attribute: attribute %d: a kernel's "
			   "cluster shape is set only by .reqnctapercluster or at launch", attr);
	default:
		bad = "the attribute is read-only or none";
		break;
	}
	if (!bad)
		atomic_store_explicit(&k->p->kattr[kernel_fn(k)].v[attr], v, memory_order_relaxed);
	reg_put(&k->o);
	return say(NULL, bad ? PTXVM_ERROR_INVALID_VALUE : PTXVM_SUCCESS, bad ? "ptxvm_kernel_set_attribute: "
		   "attribute %d = %d: %s" : NULL, attr, v, bad);
}

/* What a launch of k takes (ptxvm_kernel_attributes). */
static void kernel_attrs(const Kernel *k, ptxvm_kernel_attrs *out)
{
	const Func *f = k->f->ast;
	unsigned cl[3] = { 0, 0, 0 }, maxrank = 0;
	for (uint32_t i = 0; f && i < f->nperf; i++) {
		const PerfDir *p = &f->perf[i];
		if (p->kind == PD_REQNCTAPERCLUSTER)
			for (unsigned j = 0; j < 3; j++)
				cl[j] = j < p->n && p->v[j] ? (unsigned)p->v[j] : 1;
		else if (p->kind == PD_MAXCLUSTERRANK && p->n)
			maxrank = (unsigned)p->v[0];
	}
	const Module *m = k->p->m;
	*out = (ptxvm_kernel_attrs){
		.shared_bytes = k->f->shared_static - XSMEM_RESERVED,
		.local_bytes = k->f->frame_bytes,
		.max_threads = exec_max_threads(k->f),
		.ptx_version = m->ver_major * 10u + m->ver_minor,
		.sm = m->sm,
		.cluster = { cl[0], cl[1], cl[2] },
		.max_cluster_rank = maxrank,
	};
}

/* A kernel's row of its program's attribute table: what a launch of it
 * takes, and the defaults of what a host may set. */
static void kattr_init(const Kernel *k)
{
	ptxvm_kernel_attrs a;
	kernel_attrs(k, &a);
	const int *da = k->p->d->attr;
	int v[KATTR_N] = {
		[PTXVM_KATTR_MAX_THREADS_PER_BLOCK] = (int)a.max_threads,
		[PTXVM_KATTR_SHARED_SIZE_BYTES] = (int)a.shared_bytes,
		[PTXVM_KATTR_CONST_SIZE_BYTES] = 0,             /* constants live in module variables */
		[PTXVM_KATTR_LOCAL_SIZE_BYTES] = (int)a.local_bytes,
		[PTXVM_KATTR_NUM_REGS] = 32,                    /* no register allocation: a nominal figure */
		[PTXVM_KATTR_PTX_VERSION] = (int)a.sm,          /* CUDA reports the target, 90 */
		[PTXVM_KATTR_BINARY_VERSION] = da[75] * 10 + da[76],    /* the device's compute capability */
		/* without opting in, what remains of 48 KiB after the static */
		[PTXVM_KATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES] = a.shared_bytes >= 49152 ? 0 : 49152 - (int)a.shared_bytes,
		[PTXVM_KATTR_PREFERRED_SHARED_MEMORY_CARVEOUT] = -1,    /* no preference */
		[PTXVM_KATTR_REQUIRED_CLUSTER_WIDTH] = (int)a.cluster[0],
		[PTXVM_KATTR_REQUIRED_CLUSTER_HEIGHT] = (int)a.cluster[1],
		[PTXVM_KATTR_REQUIRED_CLUSTER_DEPTH] = (int)a.cluster[2],
	};
	KAttrs *t = &k->p->kattr[kernel_fn(k)];
	for (int i = 0; i < KATTR_N; i++)
		atomic_init(&t->v[i], v[i]);
}

ptxvm_result ptxvm_kernel_occupancy(const ptxvm_kernel *h, int block, size_t dyn_shared, int *blocks)
{
	Kernel *k = kernel_get(h);
	if (!k || !blocks) {
		reg_put(k ? &k->o : NULL);
		return say(NULL, k ? PTXVM_ERROR_INVALID_VALUE : PTXVM_ERROR_INVALID_HANDLE,
			   "ptxvm_kernel_occupancy: %s", k ? "NULL argument" : "no kernel");
	}
	uint64_t shared = k->f->shared_dyn - XSMEM_RESERVED;
	/* more dynamic shared memory than the kernel may take: no block fits
	 * (an H200 answers 0, tests/hw/golden/h200.attrs.txt) */
	int most = atomic_load(&k->p->kattr[kernel_fn(k)].v[PTXVM_KATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES]);
	*blocks = dyn_shared > (size_t)(most > 0 ? most : 0) ? 0 :
		  exec_occupancy(k->p->d->attr, exec_max_threads(k->f), block, shared + dyn_shared);
	reg_put(&k->o);
	return PTXVM_SUCCESS;
}

/* ---- launches ----------------------------------------------------------- */
/* Checks a launch's shape and resources in 64-bit arithmetic before any is
 * taken; fills L.  0, or the result with the message said. */
/* The launch's cluster shape: the configuration's, else the kernel's
 * .reqnctapercluster, else one CTA.  As the CUDA driver has it, a shape
 * other than the kernel's .reqnctapercluster, one over .maxclusterrank or
 * over 16 CTAs (an H100's non-portable maximum; the driver layer keeps
 * CUDA's rule that more than 8 need the kernel's opt-in), or one that does
 * not divide the grid, is an invalid value, and so is no shape for an
 * .explicitcluster kernel. */
static ptxvm_result cluster_shape(ptxvm_device *d, const XFunc *f, const ptxvm_launch_config *cfg,
				  const uint32_t g[3], uint32_t cl[3], bool *explicit_cluster)
{
	const Func *a = f->ast;
	uint32_t req[3] = { 0, 0, 0 }, maxrank = EXEC_MAX_CLUSTER;
	bool must = false;
	for (uint32_t i = 0; i < a->nperf; i++) {
		const PerfDir *p = &a->perf[i];
		if (p->kind == PD_REQNCTAPERCLUSTER)
			for (unsigned k = 0; k < 3; k++)
				req[k] = k < p->n && p->v[k] ? p->v[k] : 1;
		else if (p->kind == PD_EXPLICITCLUSTER)
			must = true;
		else if (p->kind == PD_MAXCLUSTERRANK && p->n && p->v[0] < maxrank)
			maxrank = p->v[0];
	}
	bool given = cfg->cluster[0] || cfg->cluster[1] || cfg->cluster[2];
	for (int k = 0; k < 3; k++)
		cl[k] = given ? (cfg->cluster[k] ? cfg->cluster[k] : 1) : req[k] ? req[k] : 1;
	*explicit_cluster = given || req[0];
	if (must && !*explicit_cluster)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s' is .explicitcluster: the launch must give its "
			   "cluster dimensions", f->name);
	if (req[0] && (cl[0] != req[0] || cl[1] != req[1] || cl[2] != req[2]))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s' requires clusters of %ux%ux%u CTAs "
			   "(.reqnctapercluster), not %ux%ux%u", f->name, req[0], req[1], req[2], cl[0], cl[1], cl[2]);
	uint64_t n = (uint64_t)cl[0] * cl[1] * cl[2];
	if (n > maxrank)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s': a cluster of %ux%ux%u CTAs; at most %u (%s)",
			   f->name, cl[0], cl[1], cl[2], maxrank, maxrank < EXEC_MAX_CLUSTER ? ".maxclusterrank" :
			   "the largest cluster of an H100");
	for (int k = 0; k < 3; k++)
		if (g[k] % cl[k])
			return say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s': a grid of %ux%ux%u CTAs is not made of "
				   "clusters of %ux%ux%u", f->name, g[0], g[1], g[2], cl[0], cl[1], cl[2]);
	return PTXVM_SUCCESS;
}

static ptxvm_result launch_shape(ptxvm_device *d, const Prog *pg, const XFunc *f, const ptxvm_launch_config *cfg,
				 int coop,
				 Launch *L)
{
	uint32_t g[3], b[3];
	for (int i = 0; i < 3; i++) {
		g[i] = cfg->grid[i] ? cfg->grid[i] : 1;
		b[i] = cfg->block[i] ? cfg->block[i] : 1;
	}
	uint64_t nthreads = (uint64_t)b[0] * b[1] * b[2];
	if (nthreads > EXEC_MAX_THREADS || b[2] > 64)
		return say(d, PTXVM_ERROR_INVALID_VALUE,
			   "a CTA of %ux%ux%u threads: at most 1024 threads, and z at most 64", b[0], b[1], b[2]);
	if (g[0] > 0x7fffffffu || g[1] > 65535 || g[2] > 65535)
		return say(d, PTXVM_ERROR_INVALID_VALUE,
			   "a grid of %ux%ux%u CTAs: x below 2^31, y and z at most 65535", g[0], g[1], g[2]);
	/* the shared window: the reserved kilobyte, then the CTA's own; a
	 * request past the hardware's maximum is an invalid value, as the
	 * CUDA driver has it */
	uint64_t own = f->shared_dyn - XSMEM_RESERVED;
	if (own > EXEC_MAX_SHARED || cfg->shared_bytes > EXEC_MAX_SHARED - own)
		return say(d, PTXVM_ERROR_INVALID_VALUE,
			   "kernel '%s': %llu bytes of static and %zu of dynamic shared memory exceed the %u bytes a "
			   "CTA can have", f->name, (unsigned long long)own, cfg->shared_bytes, EXEC_MAX_SHARED);
	pthread_mutex_lock(&d->lock);
	size_t stack = d->stack_bytes;  /* a launch keeps the stack it started with */
	size_t pending = d->pending;    /* and its limit of pending device launches */
	pthread_mutex_unlock(&d->lock);
	if (stack > EXEC_MAX_LOCAL || f->frame_bytes > EXEC_MAX_LOCAL ||
	    ((f->frame_bytes + stack + 15) & ~15ull) > EXEC_MAX_LOCAL)
		return say(d, PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES,
			   "kernel '%s': %llu bytes of local variables and a %zu-byte call stack exceed the %u bytes "
			   "of local memory a thread can have", f->name, (unsigned long long)f->frame_bytes, stack,
			   EXEC_MAX_LOCAL);
	uint32_t cl[3];
	bool explicit_cluster;
	ptxvm_result r = cluster_shape(d, f, cfg, g, cl, &explicit_cluster);
	if (r)
		return r;
	*L = (Launch){
		.p = pg, .k = f,
		.grid = { g[0], g[1], g[2] }, .block = { b[0], b[1], b[2] },
		.cluster = { cl[0], cl[1], cl[2] }, .ncl = cl[0] * cl[1] * cl[2],
		.explicit_cluster = explicit_cluster,
		.nthreads = (uint32_t)nthreads, .nwarps = (uint32_t)((nthreads + 31) / 32),
		.ncta = (uint64_t)g[0] * g[1] * g[2],
		.dyn_shared = (uint32_t)cfg->shared_bytes,
		.shared_bytes = (uint32_t)(f->shared_dyn + cfg->shared_bytes),
		.stack_bytes = (uint32_t)stack,
		.max_pending = pending,
		.local_bytes = (uint32_t)((f->frame_bytes + stack + 15) & ~15ull),
		.workers = d->workers, .attrs = d->attr, .timeout = d->timeout, .out = d->out,
	};
	if (coop) {
		if (L->ncta > 1024)
			return say(d, PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, "kernel '%s': a cooperative launch of %llu CTAs; "
				   "at most 1024 run at once", f->name, (unsigned long long)L->ncta);
		L->coop = true;
		L->workers = (unsigned)(L->ncta / L->ncl);     /* a cluster's CTAs share one */
	}
	char why[256];
	if (exec_resources(L, why, sizeof why))
		return say(d, PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, "kernel '%s': %s", f->name, why);
	return PTXVM_SUCCESS;
}

static int run_children(ptxvm_device *d, const Program *prog, Launch *P);

/* The compiling tier's runner for kernel f of prog, compiling the kernel
 * and the functions it may call at its first launch; NULL: the
 * interpreter, the reason in st. */
static JitRun jit_runner(ptxvm_device *d, const Program *prog, const XFunc *f, ptxvm_launch_stats *st)
{
	if (!d->jit)
		return NULL;
	if (d->san) {
		snprintf(st->jit_note, sizeof st->jit_note, "the checks run on the interpreter");
		return NULL;
	}
	Program *p = (Program *)prog;
	size_t fi = (size_t)(f - p->prog->fn);
	pthread_mutex_lock(&p->map_lock);
	if (!p->jit && !(p->jit = calloc(p->prog->nfn, sizeof *p->jit))) {
		pthread_mutex_unlock(&p->map_lock);
		snprintf(st->jit_note, sizeof st->jit_note, "out of host memory");
		return NULL;
	}
	struct KernelJit *kj = &p->jit[fi];
	if (!kj->tried) {
		kj->tried = true;
		kj->jit = jit_compile(p->prog, f, &kj->info);
		st->jit_seconds = kj->info.seconds;
	}
	st->jit_cache_hit = kj->info.hit;
	const char *why = kj->info.why;
	JitRun run = kj->jit ? jit_kernel(kj->jit, f, &why) : NULL;
	if (!run && !kj->said && getenv("PTXVM_LOG")) {  /* once a kernel: compiled, or why not */
		kj->said = true;
		fprintf(stderr, "ptxvm: the compiling tier is off for kernel '%s' of '%s': %s\n", f->name,
			p->file ? p->file : "?", why);
	}
	pthread_mutex_unlock(&p->map_lock);
	if (!run)
		snprintf(st->jit_note, sizeof st->jit_note, "%s", why);
	st->compiled = run != NULL;
	return run;
}

/* Runs grid ch, which a thread of grid P launched, then its own children;
 * a failure becomes P's, naming both kernels. */
static int run_child(ptxvm_device *d, const Program *prog, Launch *P, const Child *ch)
{
	const Kernel *k = NULL;
	for (size_t i = 0; i < prog->nk && !k; i++)
		if (prog->k[i].f == ch->k)
			k = &prog->k[i];
	ptxvm_launch_config cfg = { { ch->grid[0], ch->grid[1], ch->grid[2] },
				    { ch->block[0], ch->block[1], ch->block[2] }, ch->shared, { 0, 0, 0 } };
	Launch C;
	int code = !k ? PTXVM_ERROR_INVALID_VALUE : k->why ? (int)say(d, PTXVM_ERROR_NOT_SUPPORTED, "%s", k->why)
		   : (int)launch_shape(d, P->p, ch->k, &cfg, 0, &C);
	char *why = NULL;
	if (code) {
		if (asprintf(&why, "%s", ptxvm_device_message(d)) < 0)
			why = NULL;
	} else {
		C.mem = P->mem;
		C.surf = P->surf;
		C.heap = P->heap;
		C.cdp = P->cdp;
		C.errtab = P->errtab;
		C.kattr = P->kattr;
		C.depth = P->depth + 1;
		C.graph = P->graph;
		C.printf_fifo = P->printf_fifo;
		C.heap_limit = P->heap_limit;
		C.max_pending = P->max_pending;
		C.grid_id = atomic_fetch_add(&d->launches, 1) + 1;
		C.params = ch->params;
		C.param_bytes = ch->k->param_bytes;
		ptxvm_launch_stats js = { 0 };
		C.run = jit_runner(d, prog, ch->k, &js);
		code = launch_run(&C);
		pthread_mutex_lock(&P->cdp->lock);
		P->cdp->pending--;
		pthread_mutex_unlock(&P->cdp->lock);
		int later = run_children(d, prog, &C);
		if (!code && later)
			code = later;
		atomic_fetch_add(&P->thread_ins, atomic_load(&C.thread_ins));
		atomic_fetch_add(&P->warp_ins, atomic_load(&C.warp_ins));
		why = C.report;
	}
	if (code) {
		P->code = code;
		if (asprintf(&P->report, "%s (in a grid of %ux%ux%u CTAs of kernel '%s' launched from kernel '%s')",
			     why ? why : "", ch->grid[0], ch->grid[1], ch->grid[2], ch->k->name, P->k->name) < 0)
			P->report = NULL;
	}
	free(why);
	return code;
}

/* The grids that P's threads launched, depth first, in the order of their
 * launches; those into cudaStreamTailLaunch after the others (their
 * parent and its other work have completed).  Then P is complete.  After a
 * failure the rest do not run. */
/* A copy or fill that a thread of P queued (cudaMemcpy{,2D,3D}Async,
 * cudaMemset{,2D,3D}Async): in device memory, row by row, when its turn
 * comes; each row lies inside one allocation. */
static int run_rows(Launch *P, const Child *ch)
{
	const char *what = ch->fill ? "cudaMemsetAsync" : "cudaMemcpyAsync";
	/* rows move forward (pitches at least the width, planes apart): the
	 * first row outside the allocation, or past 2^64, ends the run */
	for (uint64_t z = 0; z < ch->planes; z++)
		for (uint64_t y = 0; y < ch->rows; y++) {
			uint64_t dst, src, t;
			bool wrap = __builtin_mul_overflow(z, ch->dslice, &dst) || __builtin_mul_overflow(y, ch->dpitch, &t) ||
				    __builtin_add_overflow(dst, t, &dst) || __builtin_add_overflow(dst, ch->dst, &dst) ||
				    __builtin_mul_overflow(z, ch->sslice, &src) || __builtin_mul_overflow(y, ch->spitch, &t) ||
				    __builtin_add_overflow(src, t, &src) || __builtin_add_overflow(src, ch->src, &src);
			const Alloc *da = wrap ? NULL : mem_find(P->mem, dst, ch->bytes);
			const Alloc *sa = ch->fill || wrap ? NULL : mem_find(P->mem, src, ch->bytes);
			if (wrap || !da || (!ch->fill && !sa)) {
				P->code = PTXVM_ERROR_ILLEGAL_ADDRESS;
				if (asprintf(&P->report, "%s from kernel '%s' of %llu bytes %s 0x%llx: not inside one "
					     "allocation of device memory", what, P->k->name, (unsigned long long)ch->bytes,
					     !da ? "to" : "from", (unsigned long long)(!da ? dst : src)) < 0)
					P->report = NULL;
				return P->code;
			}
			uint8_t *dp = da->host + (dst - da->base);
			if (ch->fill) {
				memset(dp, (int)(ch->src & 0xff), (size_t)ch->bytes);
				mem_mark_init(da, dst - da->base, ch->bytes);
			} else {
				memmove(dp, sa->host + (src - sa->base), (size_t)ch->bytes);
				mem_copy_init(da, dst - da->base, sa, src - sa->base, ch->bytes);
			}
		}
	return 0;
}

/* run_rows, in the gate's turn (solo.h). */
static int run_copy(Launch *P, const Child *ch)
{
	if (!ch->bytes || !ch->rows || !ch->planes)
		return 0;
	solo_host_begin();      /* no launch does its atomics as plain writes meanwhile */
	int r = run_rows(P, ch);
	solo_host_end();
	return r;
}

static int run_children(ptxvm_device *d, const Program *prog, Launch *P)
{
	int code = P->code;
	for (int tail = 0; tail < 2; tail++)
		for (size_t i = 0; i < P->nkids && !code; i++)
			if (P->kids[i].tail == tail)
				code = P->kids[i].k ? run_child(d, prog, P, &P->kids[i]) : run_copy(P, &P->kids[i]);
	for (size_t i = 0; i < P->nkids; i++)
		free(P->kids[i].params);
	free(P->kids);
	P->kids = NULL;
	P->nkids = 0;
	return code;
}

static ptxvm_result launch_packed(ptxvm_device *d, const ptxvm_kernel *kh, const ptxvm_launch_config *cfg,
				  const void *params, size_t bytes, ptxvm_launch_stats *stats, int coop, GraphNode *graph)
{
	if (!d || !kh || !cfg)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_launch: NULL argument");
	Kernel *k = kernel_get(kh);
	if (!k)
		return say(d, PTXVM_ERROR_INVALID_HANDLE, "ptxvm_launch: the kernel's program was unloaded (or it "
			   "is no kernel)");
	ptxvm_result r = PTXVM_SUCCESS;
	Launch L;
	if (k->p->d != d)
		r = say(d, PTXVM_ERROR_INVALID_HANDLE, "the kernel belongs to another device");
	else if (k->why)
		r = say(d, PTXVM_ERROR_NOT_SUPPORTED, "%s", k->why);
	else if (bytes != k->f->param_bytes || (bytes && !params))
		r = say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s' takes %u bytes of parameters, not %zu",
			k->f->name, k->f->param_bytes, bytes);
	else
		r = launch_shape(d, k->p->prog, k->f, cfg, coop, &L);
	if (r) {
		put(&k->o);
		return r;
	}
	/* the launch holds what it uses: its program (the kernel's reference),
	 * and versions of the memory and surface tables */
	pthread_mutex_lock(&d->lock);
	if (launch_uses_heap(L.p) && !heap_make(d)) {
		size_t hb = d->heap_bytes;
		pthread_mutex_unlock(&d->lock);
		put(&k->o);
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "kernel '%s': no memory for the %zu-byte malloc heap "
			   "(PTXVM_LIMIT_MALLOC_HEAP_SIZE)", k->f->name, hb);
	}
	if (launch_uses_errtab(L.p) && !errtab_make(d)) {
		pthread_mutex_unlock(&d->lock);
		put(&k->o);
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "kernel '%s': no memory for the device runtime's error "
			   "texts", k->f->name);
	}
	L.errtab = d->errtab;
	L.kattr = k->p->kattr;
	L.heap = d->heap_made ? &d->heap : NULL;
	d->busy++;
	L.printf_fifo = d->printf_fifo;
	L.heap_limit = d->heap_bytes;
	d->printed |= launch_uses_printf(L.p);  /* the FIFO's size is fixed from now on */
	pthread_mutex_unlock(&d->lock);
	L.grid_id = atomic_fetch_add(&d->launches, 1) + 1;
	if (L.coop && !mem_alloc(&d->mem, 8, ALLOC_GLOBAL, 0, &L.grid_ws))
		L.grid_ws = 0;  /* no memory for the barrier: the launch does not run */
	/* grids launched from the device take their parameter buffers from a
	 * pool the whole tree of grids shares */
	Cdp cdp = { .pool_bytes = CDP_POOL_BYTES };
	bool dp = launch_uses_cdp(L.p);
	if (dp && !mem_alloc(&d->mem, CDP_POOL_BYTES, ALLOC_GLOBAL, 0, &cdp.pool)) {
		if (L.grid_ws)
			mem_free(&d->mem, L.grid_ws, 0);
		put(&k->o);
		pthread_mutex_lock(&d->lock);
		if (--d->busy == 0)
			pthread_cond_broadcast(&d->idle);
		pthread_mutex_unlock(&d->lock);
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "kernel '%s': no memory for device launches", k->f->name);
	}
	if (dp) {
		pthread_mutex_init(&cdp.lock, NULL);
		L.cdp = &cdp;
	}
	L.mem = mem_pin(&d->mem);
	L.surf = surf_pin(&d->surf);
	L.san = d->san;
	L.params = params;
	L.param_bytes = (uint32_t)bytes;
	L.graph = graph;
	ptxvm_launch_stats js = { 0 };
	L.run = jit_runner(d, k->p, k->f, &js);
	double t0 = exec_now();
	int code = L.coop && !L.grid_ws ? PTXVM_ERROR_OUT_OF_MEMORY : launch_run(&L);
	if (dp)
		code = run_children(d, k->p, &L);
	double t1 = exec_now();
	surf_unpin(&d->surf, L.surf);
	mem_unpin(&d->mem, L.mem);
	if (L.grid_ws)
		mem_free(&d->mem, L.grid_ws, 0);
	if (dp) {
		mem_free(&d->mem, cdp.pool, 0);
		pthread_mutex_destroy(&cdp.lock);
		free(cdp.buf);
	}
	if (stats) {
		stats->thread_instructions = atomic_load(&L.thread_ins);
		stats->warp_instructions = atomic_load(&L.warp_ins);
		stats->seconds = t1 - t0;
		stats->workers = L.workers < L.ncta ? L.workers : (unsigned)L.ncta;
		stats->printf_dropped = L.printf_dropped;
		stats->compiled = js.compiled;
		stats->jit_cache_hit = js.jit_cache_hit;
		stats->jit_seconds = js.jit_seconds;
		memcpy(stats->jit_note, js.jit_note, sizeof js.jit_note);
	}
	r = say(d, (ptxvm_result)code, "%s", L.report ? L.report : "");
	free(L.report);
	put(&k->o);
	pthread_mutex_lock(&d->lock);
	if (--d->busy == 0)
		pthread_cond_broadcast(&d->idle);
	pthread_mutex_unlock(&d->lock);
	return r;
}

ptxvm_result ptxvm_launch_packed(ptxvm_device *d, const ptxvm_kernel *kh, const ptxvm_launch_config *cfg,
				 const void *params, size_t bytes, ptxvm_launch_stats *stats)
{
	return launch_packed(d, kh, cfg, params, bytes, stats, 0, NULL);
}

ptxvm_result ptxvm_launch_graph_node(ptxvm_device *d, const ptxvm_kernel *kh, const ptxvm_launch_config *cfg,
				     const void *params, size_t bytes, ptxvm_graph_env *env, ptxvm_launch_stats *stats)
{
	if (!env)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_launch_graph_node: NULL environment");
	return launch_packed(d, kh, cfg, params, bytes, stats, 0, devgraph_node(env));
}

static ptxvm_result launch_args(ptxvm_device *d, const ptxvm_kernel *kh, const ptxvm_launch_config *cfg,
				void *const *args, ptxvm_launch_stats *stats, int coop)
{
	if (!d || !kh)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_launch: NULL argument");
	Kernel *k = kernel_get(kh);
	if (!k)
		return say(d, PTXVM_ERROR_INVALID_HANDLE, "ptxvm_launch: the kernel's program was unloaded (or it "
			   "is no kernel)");
	const XFunc *f = k->f;
	ptxvm_result r = PTXVM_SUCCESS;
	uint8_t *buf = NULL;
	if (f->nparams && !args)
		r = say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s' takes %u parameters; args is NULL", f->name,
			f->nparams);
	else if (!(buf = calloc((size_t)f->param_bytes + 1, 1)))
		r = say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	for (uint32_t i = 0; !r && i < f->nparams; i++) {
		const XKParam *q = &f->kparams[i];
		if (!args[i])
			r = say(d, PTXVM_ERROR_INVALID_VALUE, "argument %u ('%s') is NULL", i, q->name);
		else
			memcpy(buf + q->off, args[i], q->bytes);
	}
	size_t bytes = f->param_bytes;
	/* no reference across the launch: it takes its own, and gives it back
	 * before a ptxvm_device_destroy waiting for it may go on */
	put(&k->o);
	if (!r)
		r = launch_packed(d, kh, cfg, buf, bytes, stats, coop, NULL);
	free(buf);
	return r;
}

ptxvm_result ptxvm_launch(ptxvm_device *d, const ptxvm_kernel *kh, const ptxvm_launch_config *cfg,
			  void *const *args, ptxvm_launch_stats *stats)
{
	return launch_args(d, kh, cfg, args, stats, 0);
}

ptxvm_result ptxvm_launch_cooperative(ptxvm_device *d, const ptxvm_kernel *kh, const ptxvm_launch_config *cfg,
				      void *const *args, ptxvm_launch_stats *stats)
{
	return launch_args(d, kh, cfg, args, stats, 1);
}

ptxvm_result ptxvm_device_synchronize(ptxvm_device *d)
{
	return d ? say(d, PTXVM_SUCCESS, NULL) : say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_synchronize: NULL device");
}

/* ---- arrays and surfaces ------------------------------------------------ */
ptxvm_result ptxvm_array_create(ptxvm_device *d, const ptxvm_array_desc *a, uint64_t *array)
{
	if (!d || !a || !array)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_array_create: NULL argument");
	uint32_t sz[4];
	char why[256];
	if (surf_shape(a, sz, why, sizeof why))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "%s", why);
	uint64_t id = surf_array_new(&d->surf, a->kind, a->format, a->channels, sz[0], sz[1], sz[2], sz[3]);
	if (!id)
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for the array");
	*array = id;
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_array_destroy(ptxvm_device *d, uint64_t array)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_array_destroy: NULL device");
	return surf_array_free(&d->surf, array)
		? say(d, PTXVM_SUCCESS, NULL)
		: say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not an array (never created, or destroyed "
		      "already)", (unsigned long long)array);
}

size_t ptxvm_array_bytes(const ptxvm_device *d, uint64_t array)
{
	return d ? surf_array_bytes(&((ptxvm_device *)d)->surf, array) : 0;
}

static ptxvm_result array_copy(ptxvm_device *d, uint64_t array, void *host, size_t bytes, bool in)
{
	if (!d || !host)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "array copy: NULL argument");
	switch (surf_array_copy(&d->surf, array, host, bytes, in)) {
	case 0:
		return say(d, PTXVM_SUCCESS, NULL);
	case -2:
		return say(d, PTXVM_ERROR_INVALID_VALUE, "the array holds %zu bytes, not %zu",
			   surf_array_bytes(&d->surf, array), bytes);
	}
	return say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not an array", (unsigned long long)array);
}

ptxvm_result ptxvm_array_write(ptxvm_device *d, uint64_t array, const void *src, size_t bytes)
{
	return array_copy(d, array, (void *)src, bytes, true);
}

ptxvm_result ptxvm_array_read(ptxvm_device *d, uint64_t array, void *dst, size_t bytes)
{
	return array_copy(d, array, dst, bytes, false);
}

ptxvm_result ptxvm_surface_create(ptxvm_device *d, uint64_t array, uint64_t *surface)
{
	if (!d || !surface)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_surface_create: NULL argument");
	uint64_t h = surf_object_new(&d->surf, array);
	if (!h)
		return surf_array_bytes(&d->surf, array)
			? say(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for the surface object")
			: say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not an array", (unsigned long long)array);
	*surface = h;
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_surface_destroy(ptxvm_device *d, uint64_t surface)
{
	if (!d)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_surface_destroy: NULL device");
	return surf_object_free(&d->surf, surface)
		? say(d, PTXVM_SUCCESS, NULL)
		: say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a surface object (never created, or "
		      "destroyed already)", (unsigned long long)surface);
}

ptxvm_result ptxvm_program_bind_surface(ptxvm_program *h, const char *name, uint64_t surface)
{
	Program *p = prog_get(h, "ptxvm_program_bind_surface");
	if (!p)
		return PTXVM_ERROR_INVALID_HANDLE;
	ptxvm_device *d = p->d;
	const XVar *v = NULL;
	for (uint32_t i = 0; name && i < p->prog->nvars; i++)
		if (!strcmp(p->prog->vars[i].name, name))
			v = &p->prog->vars[i];
	ptxvm_result r;
	if (!v || v->d->type != TY_surfref)
		r = say(d, PTXVM_ERROR_NOT_FOUND, "no .global .surfref variable '%s'", name ? name : "(NULL)");
	else if (!surf_object_valid(&d->surf, surface))
		r = say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a surface object", (unsigned long long)surface);
	else
		r = copy(d, "ptxvm_program_bind_surface", v->addr, 0, &surface, 8, 0);
	put(&p->o);
	return r;
}

/* ---- for the interface's other files (host.h) ----------------------------- */
HostDev host_dev(ptxvm_device *d) { return (HostDev){ &d->mem, &d->surf, &d->graphs, d->timeout }; }
struct ptxvm_program *host_prog_get(const ptxvm_program *h, const char *fn) { return prog_get(h, fn); }
void host_prog_put(struct ptxvm_program *p) { put(&p->o); }
ptxvm_device *host_prog_device(const struct ptxvm_program *p) { return p->d; }
const Prog *host_prog(const struct ptxvm_program *p) { return p->prog; }
