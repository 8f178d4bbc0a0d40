/* context.c: the primary context, explicit contexts, each thread's stack of
 * current contexts, synchronisation, limits, and the sticky error a
 * faulting kernel leaves in its context.
 *
 * A destroyed context is freed; its stale handle is refused (object.c),
 * also where another thread still has it current. */
#include "cu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STACK_MAX = 64 };
static __thread CUcontext stack[STACK_MAX];
static __thread int depth;

static CuCtx *primary;            /* made by the first retain; lives until exit */
static pthread_mutex_t primary_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned primary_refs;
static unsigned primary_flags;

CUcontext cu_current(void) { return depth ? stack[depth - 1] : NULL; }

CuCtx *cu_ctx(CUcontext h) { return cu_obj_get(h ? h : cu_current(), CU_KIND_CTX); }

static int alive(CUcontext h) { return cu_obj_get(h, CU_KIND_CTX) != NULL; }

CUresult cu_enter(CuCtx **ctx)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	CUcontext h = cu_current();
	if (!h)
		return CUDA_ERROR_INVALID_CONTEXT;
	CuCtx *c = cu_obj_get(h, CU_KIND_CTX);
	if (!c)
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	int s = atomic_load(&c->sticky);
	if (s)
		return s;
	*ctx = c;
	return CUDA_SUCCESS;
}

/* The errors after which CUDA's context is unusable. */
static int sticky(ptxvm_result r)
{
	switch (r) {
	case PTXVM_ERROR_ILLEGAL_ADDRESS: case PTXVM_ERROR_LAUNCH_TIMEOUT: case PTXVM_ERROR_ASSERT:
	case PTXVM_ERROR_HARDWARE_STACK_ERROR: case PTXVM_ERROR_ILLEGAL_INSTRUCTION:
	case PTXVM_ERROR_MISALIGNED_ADDRESS: case PTXVM_ERROR_INVALID_ADDRESS_SPACE:
	case PTXVM_ERROR_LAUNCH_FAILED:
		return 1;
	default:
		return 0;
	}
}

CUresult cu_result(CuCtx *ctx, ptxvm_result r, const char *what)
{
	if (r == PTXVM_SUCCESS)
		return CUDA_SUCCESS;
	const char *msg = ptxvm_device_message(cu_dev.dev);
	if (sticky(r)) {
		int none = 0;
		if (ctx && atomic_compare_exchange_strong(&ctx->sticky, &none, (int)r))
			cu_warn("%s: %s", what, msg);
	} else if (msg && *msg) {
		cu_log("%s: %s: %s", what, ptxvm_result_name(r), msg);
	}
	return (CUresult)r;
}

/* ---- context-local storage ------------------------------------------------------ */
typedef struct CuStore {
	void *key, *value;
	CuStoreDtor dtor;
	struct CuStore *next;
} CuStore;

static CuCtx *storage_ctx(CUcontext h) { return cu_ctx(h); }

CUresult cu_ctx_storage_put(CUcontext h, void *key, void *value, CuStoreDtor dtor)
{
	CuCtx *ctx = storage_ctx(h);
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_lock(&ctx->lock);
	CuStore *s = ctx->store;
	while (s && s->key != key)
		s = s->next;
	if (!s && (s = calloc(1, sizeof *s))) {
		s->key = key;
		s->next = ctx->store;
		ctx->store = s;
	}
	if (s) {
		s->value = value;
		s->dtor = dtor;
	}
	pthread_mutex_unlock(&ctx->lock);
	return s ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cu_ctx_storage_delete(CUcontext h, void *key)
{
	CuCtx *ctx = storage_ctx(h);
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_lock(&ctx->lock);
	for (CuStore **p = &ctx->store; *p; p = &(*p)->next)
		if ((*p)->key == key) {
			CuStore *s = *p;
			*p = s->next;
			free(s);
			break;
		}
	pthread_mutex_unlock(&ctx->lock);
	return CUDA_SUCCESS;
}

CUresult cu_ctx_storage_get(void **value, CUcontext h, void *key)
{
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	CuCtx *ctx = storage_ctx(h);
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_lock(&ctx->lock);
	CuStore *s = ctx->store;
	while (s && s->key != key)
		s = s->next;
	if (s)
		*value = s->value;
	pthread_mutex_unlock(&ctx->lock);
	return s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* Calls the destructors of a context's storage and empties it. */
static void storage_release(CuCtx *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	CuStore *s = ctx->store;
	ctx->store = NULL;
	pthread_mutex_unlock(&ctx->lock);
	while (s) {
		CuStore *next = s->next;
		if (s->dtor)
			s->dtor(CU_HANDLE(CUcontext, ctx), s->key, s->value);
		free(s);
		s = next;
	}
}

/* ---- the current-context stack ------------------------------------------------ */
CUresult cuCtxGetCurrent(CUcontext *c)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	*c = cu_current();
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext c)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (c && !alive(c))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!c) {
		if (depth)
			depth--;
		return CUDA_SUCCESS;
	}
	if (depth)
		stack[depth - 1] = c;
	else
		stack[depth++] = c;
	return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext c)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!alive(c))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (depth == STACK_MAX) {
		cu_warn("cuCtxPushCurrent: more than %d contexts pushed on one thread", STACK_MAX);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	stack[depth++] = c;
	return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent_v2(CUcontext *c)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!depth)
		return CUDA_ERROR_INVALID_CONTEXT;
	depth--;
	if (c)
		*c = stack[depth];
	return CUDA_SUCCESS;
}

/* ---- creation ------------------------------------------------------------- */
/* At exit (object.c): the storage's records; its destructors are the
 * runtime's, which is gone by then. */
static void ctx_drop(void *rec)
{
	CuCtx *c = rec;
	for (CuStore *s = c->store, *next; s; s = next) {
		next = s->next;
		free(s);
	}
	pthread_mutex_destroy(&c->lock);
}

CUresult cuCtxCreate_v2(CUcontext *out, unsigned flags, CUdevice dev)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	if (flags & ~0x1fu)
		return CUDA_ERROR_INVALID_VALUE;
	CuCtx *c = calloc(1, sizeof *c);
	if (!c || !cu_obj_add(c, CU_KIND_CTX)) {
		free(c);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->obj.drop = ctx_drop;
	c->flags = flags;
	CUcontext h = CU_HANDLE(CUcontext, c);
	CUresult r = cuCtxPushCurrent_v2(h);
	if (r) {
		cu_obj_free(h, CU_KIND_CTX);
		return r;
	}
	*out = h;
	return CUDA_SUCCESS;
}

CUresult cuCtxCreate(CUcontext *out, unsigned flags, CUdevice dev) { return cuCtxCreate_v2(out, flags, dev); }
CUresult cu_ctx_create(CUcontext *out, unsigned flags, CUdevice dev) { return cuCtxCreate_v2(out, flags, dev); }

CUresult cuCtxCreate_v3(CUcontext *out, void *affinity, int n, unsigned flags, CUdevice dev)
{
	if (affinity || n) {
		cu_warn("cuCtxCreate: execution affinity is not supported");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	return cuCtxCreate_v2(out, flags, dev);
}

typedef struct CUctxCreateParams { void *affinity; int naffinity; void *cig; } CUctxCreateParams;

CUresult cuCtxCreate_v4(CUcontext *out, CUctxCreateParams *p, unsigned flags, CUdevice dev)
{
	if (p && (p->affinity || p->naffinity || p->cig)) {
		cu_warn("cuCtxCreate: execution affinity and CIG contexts are not supported");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	return cuCtxCreate_v2(out, flags, dev);
}

CUresult cuCtxDestroy_v2(CUcontext h)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	CuCtx *c = cu_obj_get(h, CU_KIND_CTX);
	if (!c || c->primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	ptxvm_device_synchronize(cu_dev.dev);
	cu_printf_flush();
	storage_release(c);
	cu_ctx_release_modules(c);
	ctx_drop(c);
	cu_obj_free(h, CU_KIND_CTX);
	/* no thread's stack names it any more: this one's is cleared here;
	 * other threads' entries are refused as destroyed */
	for (int i = 0; i < depth; i++)
		if (stack[i] == h) {
			memmove(stack + i, stack + i + 1, (size_t)(depth - i - 1) * sizeof *stack);
			depth--;
			i--;
		}
	return CUDA_SUCCESS;
}

CUresult cuCtxDestroy(CUcontext c) { return cuCtxDestroy_v2(c); }
CUresult cuCtxPushCurrent(CUcontext c) { return cuCtxPushCurrent_v2(c); }
CUresult cuCtxPopCurrent(CUcontext *c) { return cuCtxPopCurrent_v2(c); }

/* ---- the primary context ---------------------------------------------------- */
CUresult cuDevicePrimaryCtxRetain(CUcontext *out, CUdevice dev)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&primary_lock);
	if (!primary) {
		CuCtx *c = calloc(1, sizeof *c);
		if (!c || !cu_obj_add(c, CU_KIND_CTX)) {
			free(c);
			pthread_mutex_unlock(&primary_lock);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		pthread_mutex_init(&c->lock, NULL);
		c->obj.drop = ctx_drop;
		c->primary = 1;
		primary = c;
	}
	if (!primary_refs++) {
		primary->flags = primary_flags;
		atomic_store(&primary->sticky, 0);
	}
	pthread_mutex_unlock(&primary_lock);
	*out = CU_HANDLE(CUcontext, primary);
	return CUDA_SUCCESS;
}

CUresult cu_primary_context(CUcontext *out, CUdevice dev) { return cuDevicePrimaryCtxRetain(out, dev); }

static void primary_reset(void)
{
	if (!primary)
		return;
	ptxvm_device_synchronize(cu_dev.dev);
	cu_printf_flush();
	storage_release(primary);
	cu_ctx_release_modules(primary);
	atomic_store(&primary->sticky, 0);
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&primary_lock);
	CUresult r = CUDA_SUCCESS;
	if (!primary_refs)
		r = CUDA_ERROR_INVALID_CONTEXT;
	else if (!--primary_refs)
		primary_reset();        /* the handle stays valid, as CUDA's does, for a later retain */
	pthread_mutex_unlock(&primary_lock);
	return r;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&primary_lock);
	primary_reset();
	primary_flags = 0;
	pthread_mutex_unlock(&primary_lock);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned *flags, int *active)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	if (!flags || !active)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&primary_lock);
	*flags = primary_flags;
	*active = primary_refs > 0;
	pthread_mutex_unlock(&primary_lock);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	if (flags & ~0x1fu)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&primary_lock);
	primary_flags = flags;
	if (primary)
		primary->flags = flags;
	pthread_mutex_unlock(&primary_lock);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned flags) { return cuDevicePrimaryCtxSetFlags_v2(dev, flags); }

/* ---- questions and synchronisation ----------------------------------------------- */
CUresult cuCtxGetDevice(CUdevice *dev)
{
	CTX_CALL(c);
	if (!dev)
		return CUDA_ERROR_INVALID_VALUE;
	*dev = 0;
	return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice_v2(CUdevice *dev, CUcontext ctx)
{
	if (ctx && !alive(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	return cuCtxGetDevice(dev);
}

CUresult cuCtxGetFlags(unsigned *flags)
{
	CTX_CALL(c);
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	*flags = c->flags;
	return CUDA_SUCCESS;
}

CUresult cuCtxSetFlags(unsigned flags)
{
	CTX_CALL(c);
	if (flags & ~0x1fu)
		return CUDA_ERROR_INVALID_VALUE;
	c->flags = flags;
	return CUDA_SUCCESS;
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long *id)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	CuCtx *c = cu_ctx(ctx);
	if (!c)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	*id = c->obj.h.handle;      /* unique: a slot's generation never repeats */
	return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *v)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!cu_ctx(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	*v = 3020;      /* the context API of CUDA 3.2 onwards, what the driver reports */
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	cu_printf_flush();
	CTX_CALL(c);
	CUresult rc = cu_capture_any("cuCtxSynchronize");
	if (rc)
		return rc;
	return cu_result(c, ptxvm_device_synchronize(cu_dev.dev), "cuCtxSynchronize");
}

CUresult cuCtxSynchronize_v2(CUcontext h)
{
	if (!h)
		return cuCtxSynchronize();
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	CuCtx *ctx = cu_ctx(h);
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	cu_printf_flush();
	int s = atomic_load(&ctx->sticky);
	return s ? s : cu_result(ctx, ptxvm_device_synchronize(cu_dev.dev), "cuCtxSynchronize");
}

CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
	CTX_CALL(c);
	if (least)
		*least = 0;
	if (greatest)
		*greatest = -5;
	return CUDA_SUCCESS;
}

CUresult cuCtxGetCacheConfig(int *cfg)
{
	CTX_CALL(c);
	if (!cfg)
		return CUDA_ERROR_INVALID_VALUE;
	*cfg = 0;       /* CU_FUNC_CACHE_PREFER_NONE */
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCacheConfig(int cfg)
{
	CTX_CALL(c);
	return cfg >= 0 && cfg <= 3 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;     /* a hint; no cache to split */
}

CUresult cuCtxGetSharedMemConfig(int *cfg)
{
	CTX_CALL(c);
	if (!cfg)
		return CUDA_ERROR_INVALID_VALUE;
	*cfg = 1;       /* CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE */
	return CUDA_SUCCESS;
}

CUresult cuCtxSetSharedMemConfig(int cfg)
{
	CTX_CALL(c);
	return cfg >= 0 && cfg <= 2 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The profiler's range: the tools that collect within it attach to a GPU's
 * driver, never to this one, so there is nothing to start or stop; the
 * calls succeed in a context, as they do on a GPU with no profiler attached.
 * (cuProfilerInitialize stays unsupported, as since CUDA 12.) */
CUresult cuProfilerStart(void)
{
	CTX_CALL(c);
	return CUDA_SUCCESS;
}

CUresult cuProfilerStop(void)
{
	CTX_CALL(c);
	return CUDA_SUCCESS;
}

/* ---- limits --------------------------------------------------------------- */
enum { CU_LIMIT_STACK_SIZE, CU_LIMIT_PRINTF_FIFO_SIZE, CU_LIMIT_MALLOC_HEAP_SIZE, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4 };

/* The device's limits, which every context shares (ptxvm has the one
 * device): the call stack per thread (launches in flight keep theirs), the
 * printf FIFO and the malloc heap (both fixed once a kernel that uses
 * them has run: CUDA_ERROR_INVALID_VALUE, as CUDA). */
static int device_limit(int limit, ptxvm_limit *out)
{
	switch (limit) {
	case CU_LIMIT_STACK_SIZE: *out = PTXVM_LIMIT_STACK_SIZE; return 1;
	case CU_LIMIT_PRINTF_FIFO_SIZE: *out = PTXVM_LIMIT_PRINTF_FIFO_SIZE; return 1;
	case CU_LIMIT_MALLOC_HEAP_SIZE: *out = PTXVM_LIMIT_MALLOC_HEAP_SIZE; return 1;
	case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *out = PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT; return 1;
	default: return 0;
	}
}

/* The limits that change nothing ptxvm computes, as an H200 answers them
 * (tests/hw/golden/h200.attrs.txt): the L2 fetch granularity and the
 * persisting L2 size (cache hints, kept), the shared memory a block may
 * opt in to (the device attribute) and CIG (read only). */
enum { LIMIT_L2_FETCH = 5, LIMIT_L2_PERSIST = 6, LIMIT_SHMEM = 7, LIMIT_CIG = 8 };
static _Atomic size_t l2_fetch = 64, l2_persist = 11796480;

static int fixed_limit(int limit, size_t *v)
{
	switch (limit) {
	case LIMIT_L2_FETCH: *v = atomic_load(&l2_fetch); return 1;
	case LIMIT_L2_PERSIST: *v = atomic_load(&l2_persist); return 1;
	case LIMIT_SHMEM: {
		int a = 0;              /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
		*v = ptxvm_device_attribute(cu_dev.dev, 97, &a) == PTXVM_SUCCESS ? (size_t)a : 0;
		return 1;
	}
	case LIMIT_CIG: *v = 0; return 1;
	default: return 0;
	}
}

CUresult cuCtxGetLimit(size_t *v, int limit)
{
	CTX_CALL(c);
	ptxvm_limit l;
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	if (fixed_limit(limit, v))
		return CUDA_SUCCESS;
	if (!device_limit(limit, &l))
		return CUDA_ERROR_UNSUPPORTED_LIMIT;
	return cu_result(c, ptxvm_device_get_limit(cu_dev.dev, l, v), "cuCtxGetLimit");
}

CUresult cuCtxSetLimit(int limit, size_t v)
{
	CTX_CALL(c);
	ptxvm_limit l;
	size_t now;
	if (limit == LIMIT_L2_FETCH || limit == LIMIT_L2_PERSIST) {    /* hints: kept, nothing else */
		if (limit == LIMIT_L2_FETCH && (v > 128 || (v & (v - 1))))     /* 0 or a power of 2 up to 128 */
			return CUDA_ERROR_INVALID_VALUE;
		atomic_store(limit == LIMIT_L2_FETCH ? &l2_fetch : &l2_persist, v);
		return CUDA_SUCCESS;
	}
	if (fixed_limit(limit, &now)) {
		if (v == now)
			return CUDA_SUCCESS;
		cu_warn("cuCtxSetLimit: limit %d is fixed at %zu", limit, now);
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!device_limit(limit, &l))
		return CUDA_ERROR_UNSUPPORTED_LIMIT;
	/* An H200's driver makes the printf FIFO at least 512 KiB and a whole
	 * number of 2 KiB (4096 -> 524288, 600000 -> 600064, 2 MiB kept;
	 * tests/hw/printf.cu: the granularity is to confirm on hardware) */
	if (l == PTXVM_LIMIT_PRINTF_FIFO_SIZE && v)
		v = v < (512u << 10) ? 512u << 10 : v > SIZE_MAX - 2047 ? v : (v + 2047) & ~(size_t)2047;
	return cu_result(c, ptxvm_device_set_limit(cu_dev.dev, l, v), "cuCtxSetLimit");
}
