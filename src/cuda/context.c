/* context.c: the primary context, explicit contexts, each thread's stack of
 * current contexts, synchronisation, limits, and the sticky error a
 * faulting kernel leaves in its context.
 *
 * A context that is destroyed keeps its (small) record, marked dead, so
 * that a stale handle is refused rather than read after it is freed. */
#include "cu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STACK_MAX = 64 };
static __thread CUcontext stack[STACK_MAX];
static __thread int depth;

static struct CUctx_st primary_ctx = { .primary = 1, .lock = PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t primary_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned primary_refs;
static unsigned primary_flags;

CUcontext cu_current(void) { return depth ? stack[depth - 1] : NULL; }

static int alive(CUcontext c) { return c && c->magic == CU_CTX_MAGIC; }

CUresult cu_enter(CUcontext *ctx)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	CUcontext c = cu_current();
	if (!c)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!alive(c))
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

CUresult cu_result(CUcontext ctx, ptxvm_result r, const char *what)
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

static CUcontext storage_ctx(CUcontext ctx)
{
	if (!ctx)
		ctx = cu_current();
	return alive(ctx) ? ctx : NULL;
}

CUresult cu_ctx_storage_put(CUcontext ctx, void *key, void *value, CuStoreDtor dtor)
{
	if (!(ctx = storage_ctx(ctx)))
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

CUresult cu_ctx_storage_delete(CUcontext ctx, void *key)
{
	if (!(ctx = storage_ctx(ctx)))
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

CUresult cu_ctx_storage_get(void **value, CUcontext ctx, void *key)
{
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	if (!(ctx = storage_ctx(ctx)))
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
static void storage_release(CUcontext ctx)
{
	pthread_mutex_lock(&ctx->lock);
	CuStore *s = ctx->store;
	ctx->store = NULL;
	pthread_mutex_unlock(&ctx->lock);
	while (s) {
		CuStore *next = s->next;
		if (s->dtor)
			s->dtor(ctx, s->key, s->value);
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
	CUcontext c = calloc(1, sizeof *c);
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_init(&c->lock, NULL);
	c->flags = flags;
	c->magic = CU_CTX_MAGIC;
	CUresult r = cuCtxPushCurrent_v2(c);
	if (r) {
		c->magic = 0;
		return r;
	}
	*out = c;
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

CUresult cuCtxDestroy_v2(CUcontext c)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!alive(c) || c->primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	ptxvm_device_synchronize(cu_dev.dev);
	cu_printf_flush();
	storage_release(c);
	cu_ctx_release_modules(c);
	c->magic = 0;
	/* no thread's stack names it any more: this one's is cleared here;
	 * other threads' entries are refused as destroyed */
	for (int i = 0; i < depth; i++)
		if (stack[i] == c) {
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
	if (!primary_refs++) {
		primary_ctx.flags = primary_flags;
		atomic_store(&primary_ctx.sticky, 0);
		primary_ctx.magic = CU_CTX_MAGIC;
	}
	pthread_mutex_unlock(&primary_lock);
	*out = &primary_ctx;
	return CUDA_SUCCESS;
}

CUresult cu_primary_context(CUcontext *out, CUdevice dev) { return cuDevicePrimaryCtxRetain(out, dev); }

static void primary_reset(void)
{
	ptxvm_device_synchronize(cu_dev.dev);
	cu_printf_flush();
	storage_release(&primary_ctx);
	cu_ctx_release_modules(&primary_ctx);
	atomic_store(&primary_ctx.sticky, 0);
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
	primary_ctx.flags = flags;
	pthread_mutex_unlock(&primary_lock);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned flags) { return cuDevicePrimaryCtxSetFlags_v2(dev, flags); }

/* ---- questions and synchronisation ----------------------------------------------- */
#define CTX_CALL(c) CUcontext c; do { CUresult r_ = cu_enter(&c); if (r_) return r_; } while (0)

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
	if (!ctx)
		ctx = cu_current();
	if (!alive(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	*id = (unsigned long long)(uintptr_t)ctx;
	return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned *v)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!ctx)
		ctx = cu_current();
	if (!alive(ctx))
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
	return cu_result(c, ptxvm_device_synchronize(cu_dev.dev), "cuCtxSynchronize");
}

CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
	if (ctx && !alive(ctx))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (ctx) {
		if (cu_ready())
			return CUDA_ERROR_NOT_INITIALIZED;
		cu_printf_flush();
		int s = atomic_load(&ctx->sticky);
		return s ? s : cu_result(ctx, ptxvm_device_synchronize(cu_dev.dev), "cuCtxSynchronize");
	}
	return cuCtxSynchronize();
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

/* ---- limits --------------------------------------------------------------- */
enum { CU_LIMIT_STACK_SIZE, CU_LIMIT_PRINTF_FIFO_SIZE, CU_LIMIT_MALLOC_HEAP_SIZE };

CUresult cuCtxGetLimit(size_t *v, int limit)
{
	CTX_CALL(c);
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	if (limit == CU_LIMIT_PRINTF_FIFO_SIZE)
		return cu_result(c, ptxvm_device_get_limit(cu_dev.dev, PTXVM_LIMIT_PRINTF_FIFO_SIZE, v), "cuCtxGetLimit");
	if (limit == CU_LIMIT_MALLOC_HEAP_SIZE)
		return cu_result(c, ptxvm_device_get_limit(cu_dev.dev, PTXVM_LIMIT_MALLOC_HEAP_SIZE, v), "cuCtxGetLimit");
	if (limit == CU_LIMIT_STACK_SIZE) {
		*v = 16384;     /* ptxvm_device_opts' default call stack */
		return CUDA_SUCCESS;
	}
	return CUDA_ERROR_UNSUPPORTED_LIMIT;
}

CUresult cuCtxSetLimit(int limit, size_t v)
{
	CTX_CALL(c);
	if (limit == CU_LIMIT_PRINTF_FIFO_SIZE)
		return cu_result(c, ptxvm_device_set_limit(cu_dev.dev, PTXVM_LIMIT_PRINTF_FIFO_SIZE, v), "cuCtxSetLimit");
	/* fixed once a kernel that uses malloc has run: INVALID_VALUE, as CUDA */
	if (limit == CU_LIMIT_MALLOC_HEAP_SIZE)
		return cu_result(c, ptxvm_device_set_limit(cu_dev.dev, PTXVM_LIMIT_MALLOC_HEAP_SIZE, v), "cuCtxSetLimit");
	if (limit == CU_LIMIT_STACK_SIZE)
		cu_warn("cuCtxSetLimit: limit %d cannot be changed yet", limit);
	return CUDA_ERROR_UNSUPPORTED_LIMIT;
}
