/* memory.c: device memory, and every synchronous copy and fill: linear,
 * 2D and 3D, between host, device and array memory.  Unified addressing:
 * an address inside a device allocation is device memory, any other is
 * host memory. */
#include "cu.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
	CTX_CALL(c);
	if (!dptr || !bytes)
		return CUDA_ERROR_INVALID_VALUE;
	return cu_result(c, ptxvm_mem_alloc(cu_dev.dev, bytes, dptr), "cuMemAlloc");
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned elem)
{
	CTX_CALL(c);
	if (!dptr || !pitch || !width || !height || (elem != 4 && elem != 8 && elem != 16))
		return CUDA_ERROR_INVALID_VALUE;
	size_t p = (width + 511) & ~(size_t)511;        /* CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT */
	if (p < width || height > SIZE_MAX / p)
		return CUDA_ERROR_INVALID_VALUE;
	CUresult r = cu_result(c, ptxvm_mem_alloc(cu_dev.dev, p * height, dptr), "cuMemAllocPitch");
	if (!r)
		*pitch = p;
	return r;
}

/* ---- host memory the device sees at the same address ------------------------------
 * Pinned (cuMemHostAlloc, cuMemAllocHost), registered (cuMemHostRegister)
 * and managed (cuMemAllocManaged) memory are host memory mapped into the
 * device at its own address (ptxvm_mem_map_host): one pointer for both
 * sides, as unified addressing has it.  A module's __managed__ variables,
 * which the C API maps at their host address, are recorded as managed
 * memory too while their module lives (cu_managed_var). */
enum { HOST_ALLOCATED, HOST_REGISTERED, HOST_MANAGED, HOST_MANAGED_VAR };
enum { CU_MEM_ATTACH_GLOBAL = 1, CU_MEM_ATTACH_HOST = 2, CU_MEM_ATTACH_SINGLE = 4 };

typedef struct HostMem {
	void *p;
	size_t bytes;           /* whole pages where allocated here */
	size_t asked;           /* the size the program gave */
	unsigned flags;
	int kind;
	const void *owner;      /* a __managed__ variable's module */
	struct HostMem *next;
} HostMem;
static HostMem *host_mem;
static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;

/* The record holding [p, p + n), copied to *out; false when none does. */
static int host_find(const void *p, size_t n, HostMem *out)
{
	uintptr_t a = (uintptr_t)p;
	pthread_mutex_lock(&host_lock);
	HostMem *h = host_mem;
	while (h && !(a >= (uintptr_t)h->p && a - (uintptr_t)h->p + n <= h->bytes))
		h = h->next;
	if (h && out)
		*out = *h;
	pthread_mutex_unlock(&host_lock);
	return h != NULL;
}

static CUresult host_add(CuCtx *c, void *p, size_t bytes, size_t asked, unsigned flags, int kind, const char *what)
{
	HostMem *h = malloc(sizeof *h);
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ptxvm_result r = ptxvm_mem_map_host(cu_dev.dev, p, bytes);
	if (r) {
		free(h);
		cu_warn("%s: %s", what, ptxvm_device_message(cu_dev.dev));
		return r == PTXVM_ERROR_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
	}
	*h = (HostMem){ p, bytes, asked, flags, kind, NULL, NULL };
	pthread_mutex_lock(&host_lock);
	h->next = host_mem;
	host_mem = h;
	pthread_mutex_unlock(&host_lock);
	return CUDA_SUCCESS;
}

/* Removes the record that starts at p, of one of the kinds in mask; false
 * when there is none. */
static int host_remove(void *p, unsigned mask, HostMem *out)
{
	pthread_mutex_lock(&host_lock);
	HostMem *h = NULL;
	for (HostMem **q = &host_mem; *q; q = &(*q)->next)
		if ((*q)->p == p && (mask & (1u << (*q)->kind))) {
			h = *q;
			*q = h->next;
			break;
		}
	pthread_mutex_unlock(&host_lock);
	if (!h)
		return 0;
	ptxvm_device_synchronize(cu_dev.dev);
	ptxvm_mem_unmap_host(cu_dev.dev, p);
	*out = *h;
	free(h);
	return 1;
}

static int is_managed(const HostMem *h) { return h->kind == HOST_MANAGED || h->kind == HOST_MANAGED_VAR; }

void cu_managed_var(const void *owner, void *p, size_t bytes)
{
	HostMem *h = malloc(sizeof *h);
	if (!h || host_find(p, bytes, NULL)) {  /* asked for again: recorded already */
		free(h);
		return;
	}
	*h = (HostMem){ p, bytes, bytes, CU_MEM_ATTACH_GLOBAL, HOST_MANAGED_VAR, owner, NULL };
	pthread_mutex_lock(&host_lock);
	h->next = host_mem;
	host_mem = h;
	pthread_mutex_unlock(&host_lock);
}

void cu_managed_vars_drop(const void *owner)
{
	pthread_mutex_lock(&host_lock);
	for (HostMem **q = &host_mem; *q;) {
		HostMem *h = *q;
		if (h->kind == HOST_MANAGED_VAR && h->owner == owner) {
			*q = h->next;
			free(h);
		} else {
			q = &h->next;
		}
	}
	pthread_mutex_unlock(&host_lock);
}

static CUresult host_alloc(void **out, size_t bytes, unsigned flags, int kind, const char *what)
{
	CTX_CALL(c);
	if (!out || !bytes || bytes > ((size_t)1 << 40))
		return CUDA_ERROR_INVALID_VALUE;
	size_t page = 4096, n = (bytes + page - 1) & ~(page - 1);
	void *p = NULL;
	if (posix_memalign(&p, page, n))
		return CUDA_ERROR_OUT_OF_MEMORY;
	memset(p, 0, n);
	CUresult r = host_add(c, p, n, bytes, flags, kind, what);
	if (r) {
		free(p);
		return r;
	}
	*out = p;
	return CUDA_SUCCESS;
}

enum { CU_MEMHOSTALLOC_PORTABLE = 1, CU_MEMHOSTALLOC_DEVICEMAP = 2, CU_MEMHOSTALLOC_WRITECOMBINED = 4 };

CUresult cuMemHostAlloc(void **out, size_t bytes, unsigned flags)
{
	if (flags & ~7u)
		return CUDA_ERROR_INVALID_VALUE;
	return host_alloc(out, bytes, flags, HOST_ALLOCATED, "cuMemHostAlloc");
}

CUresult cuMemAllocHost_v2(void **out, size_t bytes) { return host_alloc(out, bytes, 0, HOST_ALLOCATED, "cuMemAllocHost"); }

CUresult cuMemFreeHost(void *p)
{
	CTX_CALL(c);
	HostMem h;
	if (!host_remove(p, 1u << HOST_ALLOCATED, &h))
		return CUDA_ERROR_INVALID_VALUE;
	free(h.p);
	return CUDA_SUCCESS;
}


CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned flags)
{
	if (!dptr || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
		return CUDA_ERROR_INVALID_VALUE;
	void *p;
	CUresult r = host_alloc(&p, bytes, flags, HOST_MANAGED, "cuMemAllocManaged");
	if (!r)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return r;
}

CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags)
{
	CTX_CALL(c);
	if (!p || !bytes || (flags & ~0xfu))
		return CUDA_ERROR_INVALID_VALUE;
	if (host_find(p, 1, NULL))
		return 712;     /* CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED */
	return host_add(c, p, bytes, bytes, flags, HOST_REGISTERED, "cuMemHostRegister");
}

CUresult cuMemHostRegister(void *p, size_t bytes, unsigned flags) { return cuMemHostRegister_v2(p, bytes, flags); }

CUresult cuMemHostUnregister(void *p)
{
	CTX_CALL(c);
	HostMem h;
	return host_remove(p, 1u << HOST_REGISTERED, &h) ? CUDA_SUCCESS : 713;  /* ..._NOT_REGISTERED */
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p, unsigned flags)
{
	CTX_CALL(c);
	if (!dptr || flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (!host_find(p, 1, NULL))
		return CUDA_ERROR_INVALID_VALUE;
	*dptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

CUresult cuMemHostGetFlags(unsigned *flags, void *p)
{
	CTX_CALL(c);
	HostMem h;
	if (!flags || !host_find(p, 1, &h) || is_managed(&h))
		return CUDA_ERROR_INVALID_VALUE;
	*flags = h.flags | CU_MEMHOSTALLOC_DEVICEMAP;   /* all of it is mapped */
	return CUDA_SUCCESS;
}

/* what names the call in messages. */
static CUresult mem_free(CUdeviceptr dptr, const char *what)
{
	CTX_CALL(c);
	if (!dptr)
		return CUDA_SUCCESS;
	int graph = cu_gmem_free_outside(dptr, what);
	if (graph >= 0)
		return graph;
	HostMem h;
	if (host_remove((void *)(uintptr_t)dptr, 1u << HOST_MANAGED, &h)) {
		free(h.p);
		return CUDA_SUCCESS;
	}
	return cu_result(c, ptxvm_mem_free(cu_dev.dev, dptr), what);
}

CUresult cuMemFree_v2(CUdeviceptr dptr) { return mem_free(dptr, "cuMemFree"); }

/* ---- pointer attributes ------------------------------------------------------------- */
enum {
	CU_POINTER_ATTRIBUTE_CONTEXT = 1, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
	CU_POINTER_ATTRIBUTE_HOST_POINTER, CU_POINTER_ATTRIBUTE_P2P_TOKENS, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
	CU_POINTER_ATTRIBUTE_BUFFER_ID, CU_POINTER_ATTRIBUTE_IS_MANAGED, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
	CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
	CU_POINTER_ATTRIBUTE_RANGE_SIZE, CU_POINTER_ATTRIBUTE_MAPPED, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES,
	CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS,
	CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, CU_POINTER_ATTRIBUTE_MAPPING_SIZE,
	CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID,
	CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE,
};

/* One attribute of a pointer; CUDA_ERROR_INVALID_VALUE when the pointer is
 * no memory the driver knows, or the attribute does not apply. */
static CUresult pointer_attribute(CuCtx *c, void *data, int attr, CUdeviceptr ptr)
{
	HostMem h;
	uint64_t base = 0;
	size_t size = 0;
	int host = host_find((void *)(uintptr_t)ptr, 1, &h), managed = host && is_managed(&h);
	if (host) {
		base = (uint64_t)(uintptr_t)h.p;
		size = h.bytes;
	} else if (ptxvm_mem_range(cu_dev.dev, ptr, &base, &size)) {
		return CUDA_ERROR_INVALID_VALUE;
	}
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_CONTEXT: *(CUcontext *)data = CU_HANDLE(CUcontext, c); break;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned *)data = host && !managed ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *(CUdeviceptr *)data = ptr; break;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (!host)
			return CUDA_ERROR_INVALID_VALUE;
		*(void **)data = (void *)(uintptr_t)ptr;
		break;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(int *)data = 1; break;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = base; break;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED: *(int *)data = managed; break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; break;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: *(int *)data = 0; break;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(CUdeviceptr *)data = base; break;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *(size_t *)data = size; break;
	case CU_POINTER_ATTRIBUTE_MAPPED: *(int *)data = 1; break;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: *(unsigned long long *)data = 0; break;
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: *(int *)data = 0; break;
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: *(int *)data = 3; break;        /* read-write */
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: *(void **)data = NULL; break;
	case CU_POINTER_ATTRIBUTE_MAPPING_SIZE: *(size_t *)data = size; break;
	case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR: *(CUdeviceptr *)data = base; break;
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: *(unsigned long long *)data = base; break;
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE: *(int *)data = 0; break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, int attr, CUdeviceptr ptr)
{
	CTX_CALL(c);
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	return pointer_attribute(c, data, attr, ptr);
}

/* Unlike cuPointerGetAttribute, memory the driver does not know gives
 * zeros, not an error. */
CUresult cuPointerGetAttributes(unsigned n, int *attrs, void **data, CUdeviceptr ptr)
{
	CTX_CALL(c);
	if (!attrs || !data)
		return CUDA_ERROR_INVALID_VALUE;
	for (unsigned i = 0; i < n; i++) {
		if (!data[i])
			continue;
		if (pointer_attribute(c, data[i], attrs[i], ptr)) {
			if (attrs[i] == CU_POINTER_ATTRIBUTE_CONTEXT || attrs[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER ||
			    attrs[i] == CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE)
				*(void **)data[i] = NULL;
			else if (attrs[i] == CU_POINTER_ATTRIBUTE_DEVICE_POINTER ||
				 attrs[i] == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR ||
				 attrs[i] == CU_POINTER_ATTRIBUTE_RANGE_SIZE || attrs[i] == CU_POINTER_ATTRIBUTE_BUFFER_ID)
				*(uint64_t *)data[i] = 0;
			else
				*(int *)data[i] = 0;
		}
	}
	return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr dptr)
{
	CTX_CALL(c);
	uint64_t b;
	size_t n;
	if (ptxvm_mem_range(cu_dev.dev, dptr, &b, &n))
		return CUDA_ERROR_NOT_FOUND;
	if (base)
		*base = b;
	if (size)
		*size = n;
	return CUDA_SUCCESS;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
	CTX_CALL(c);
	if (free_bytes)
		*free_bytes = cu_dev.total_mem;         /* memory is the host's, taken as it is touched */
	if (total)
		*total = cu_dev.total_mem;
	return CUDA_SUCCESS;
}

/* ---- linear copies and fills ---------------------------------------------------- */
/* A blocking copy flushes the printf FIFO, as CUDA's do; an Async form runs
 * its blocking twin below with in_async set, and flushes nothing. */
static _Thread_local int in_async;
#define SYNC_POINT() do { if (!in_async) cu_printf_flush(); } while (0)

/* Device memory, mapped host memory included (a copy reaches it either way). */
static int is_device(uint64_t a) { return ptxvm_mem_range(cu_dev.dev, a, NULL, NULL) == PTXVM_SUCCESS; }

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	SYNC_POINT();
	CTX_CALL(c);
	return cu_result(c, ptxvm_memcpy_htod(cu_dev.dev, dst, src, n), "cuMemcpyHtoD");
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	SYNC_POINT();
	CTX_CALL(c);
	return cu_result(c, ptxvm_memcpy_dtoh(cu_dev.dev, dst, src, n), "cuMemcpyDtoH");
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	SYNC_POINT();
	CTX_CALL(c);
	return cu_result(c, ptxvm_memcpy_dtod(cu_dev.dev, dst, src, n), "cuMemcpyDtoD");
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	SYNC_POINT();
	CTX_CALL(c);
	if (!n)
		return CUDA_SUCCESS;
	int dd = is_device(dst), sd = is_device(src);
	ptxvm_result r;
	if (dd && sd)
		r = ptxvm_memcpy_dtod(cu_dev.dev, dst, src, n);
	else if (dd)
		r = ptxvm_memcpy_htod(cu_dev.dev, dst, (const void *)(uintptr_t)src, n);
	else if (sd)
		r = ptxvm_memcpy_dtoh(cu_dev.dev, (void *)(uintptr_t)dst, src, n);
	else {
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
		r = PTXVM_SUCCESS;
	}
	return cu_result(c, r, "cuMemcpy");
}

CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n)
{
	SYNC_POINT();
	CTX_CALL(c);
	return cu_result(c, ptxvm_memcpy_dtod(cu_dev.dev, dst, src, n), "cuMemcpyPeer");
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n)
{
	CTX_CALL(c);
	return cu_result(c, ptxvm_memset_d8(cu_dev.dev, dst, v, n), "cuMemsetD8");
}

CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short v, size_t n)
{
	CTX_CALL(c);
	return cu_result(c, ptxvm_memset_d16(cu_dev.dev, dst, v, n), "cuMemsetD16");
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned v, size_t n)
{
	CTX_CALL(c);
	return cu_result(c, ptxvm_memset_d32(cu_dev.dev, dst, v, n), "cuMemsetD32");
}

/* A 2D fill, row by row; elem is 1, 2 or 4 bytes. */
static CUresult memset2d(const char *what, CUdeviceptr dst, size_t pitch, unsigned v, unsigned elem, size_t w,
			 size_t h)
{
	CTX_CALL(c);
	if (h > 1 && pitch < w * elem)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t y = 0; y < h; y++) {
		uint64_t row = dst + y * pitch;
		ptxvm_result r = elem == 1 ? ptxvm_memset_d8(cu_dev.dev, row, (uint8_t)v, w)
			       : elem == 2 ? ptxvm_memset_d16(cu_dev.dev, row, (uint16_t)v, w)
					   : ptxvm_memset_d32(cu_dev.dev, row, v, w);
		if (r)
			return cu_result(c, r, what);
	}
	return CUDA_SUCCESS;
}

CUresult cu_memset2d(const char *what, CUdeviceptr dst, size_t pitch, unsigned v, unsigned elem, size_t w, size_t h)
{
	return memset2d(what, dst, pitch, v, elem, w, h);
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h)
{
	return memset2d("cuMemsetD2D8", dst, pitch, v, 1, w, h);
}

CUresult cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h)
{
	return memset2d("cuMemsetD2D16", dst, pitch, v, 2, w, h);
}

CUresult cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h)
{
	return memset2d("cuMemsetD2D32", dst, pitch, v, 4, w, h);
}

/* ---- region copies ---------------------------------------------------------------- */
/* One side of a copy, unified memory resolved to host or device. */
static int side(int type, const void *host, CUdeviceptr dev, CUarray array, ptxvm_memory_type *t,
		const void **h, uint64_t *d, uint64_t *a)
{
	if (type == CU_MEMORYTYPE_UNIFIED) {
		type = is_device(dev) ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
		host = (const void *)(uintptr_t)dev;
	}
	switch (type) {
	case CU_MEMORYTYPE_HOST: *t = PTXVM_MEMORY_HOST; *h = host; return host != NULL;
	case CU_MEMORYTYPE_DEVICE: *t = PTXVM_MEMORY_DEVICE; *d = dev; return 1;
	case CU_MEMORYTYPE_ARRAY: *t = PTXVM_MEMORY_ARRAY; *a = (uint64_t)(uintptr_t)array; return 1;
	default: return 0;
	}
}

static CUresult copy3d(const CUDA_MEMCPY3D *p, const char *what)
{
	CTX_CALL(c);
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (p->srcLOD || p->dstLOD) {
		cu_warn("%s: srcLOD and dstLOD must be 0", what);
		return CUDA_ERROR_INVALID_VALUE;
	}
	ptxvm_copy3d k = {
		.src_x_bytes = p->srcXInBytes, .src_y = p->srcY, .src_z = p->srcZ,
		.src_pitch = p->srcPitch, .src_height = p->srcHeight,
		.dst_x_bytes = p->dstXInBytes, .dst_y = p->dstY, .dst_z = p->dstZ,
		.dst_pitch = p->dstPitch, .dst_height = p->dstHeight,
		.width_bytes = p->WidthInBytes, .height = p->Height, .depth = p->Depth,
	};
	const void *dh = NULL;
	if (!side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, &k.src_type, &k.src_host, &k.src_device,
		  &k.src_array) ||
	    !side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, &k.dst_type, &dh, &k.dst_device,
		  &k.dst_array))
		return CUDA_ERROR_INVALID_VALUE;
	k.dst_host = (void *)dh;
	return cu_result(c, ptxvm_memcpy3d(cu_dev.dev, &k), what);
}

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *p) { SYNC_POINT(); return copy3d(p, "cuMemcpy3D"); }

/* A 2D copy as the 3D copy of depth 1 it is; 0 for a pitch narrower than
 * the rows, which the driver refuses. */
static int to3d(const CUDA_MEMCPY2D *p, CUDA_MEMCPY3D *out)
{
	CUDA_MEMCPY3D q = {
		.srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcMemoryType = p->srcMemoryType,
		.srcHost = p->srcHost, .srcDevice = p->srcDevice, .srcArray = p->srcArray, .srcPitch = p->srcPitch,
		.dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstMemoryType = p->dstMemoryType,
		.dstHost = p->dstHost, .dstDevice = p->dstDevice, .dstArray = p->dstArray, .dstPitch = p->dstPitch,
		.WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = 1,
	};
	*out = q;
	return !((p->srcMemoryType != CU_MEMORYTYPE_ARRAY && p->Height > 1 && p->srcPitch < p->WidthInBytes) ||
		 (p->dstMemoryType != CU_MEMORYTYPE_ARRAY && p->Height > 1 && p->dstPitch < p->WidthInBytes));
}

static CUresult copy2d(const CUDA_MEMCPY2D *p, const char *what)
{
	CUDA_MEMCPY3D q;
	if (!p || !to3d(p, &q))
		return CUDA_ERROR_INVALID_VALUE;
	return copy3d(&q, what);
}

/* graph.c's copy and fill nodes run these when a graph is launched. */
CUresult cu_copy3d(const CUDA_MEMCPY3D *p, const char *what) { return copy3d(p, what); }

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *p) { SYNC_POINT(); return copy2d(p, "cuMemcpy2D"); }
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *p) { SYNC_POINT(); return copy2d(p, "cuMemcpy2DUnaligned"); }

/* Copies between linear memory and arrays: one row of bytes at an offset. */
static CUresult array_copy(const char *what, int st, const void *sh, CUdeviceptr sd, CUarray sa, size_t soff,
			   int dt, void *dh, CUdeviceptr dd, CUarray da, size_t doff, size_t n)
{
	CUDA_MEMCPY3D q = {
		.srcXInBytes = st == CU_MEMORYTYPE_ARRAY ? soff : 0, .srcMemoryType = st, .srcHost = sh,
		.srcDevice = sd + (st == CU_MEMORYTYPE_DEVICE ? soff : 0), .srcArray = sa, .srcPitch = n,
		.dstXInBytes = dt == CU_MEMORYTYPE_ARRAY ? doff : 0, .dstMemoryType = dt, .dstHost = dh,
		.dstDevice = dd + (dt == CU_MEMORYTYPE_DEVICE ? doff : 0), .dstArray = da, .dstPitch = n,
		.WidthInBytes = n, .Height = 1, .Depth = 1,
	};
	if (st == CU_MEMORYTYPE_HOST)
		q.srcHost = (const char *)sh + soff;
	if (dt == CU_MEMORYTYPE_HOST)
		q.dstHost = (char *)dh + doff;
	return copy3d(&q, what);
}

CUresult cuMemcpyHtoA_v2(CUarray dst, size_t off, const void *src, size_t n)
{
	SYNC_POINT();
	return array_copy("cuMemcpyHtoA", CU_MEMORYTYPE_HOST, src, 0, NULL, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, dst, off, n);
}

CUresult cuMemcpyAtoH_v2(void *dst, CUarray src, size_t off, size_t n)
{
	SYNC_POINT();
	return array_copy("cuMemcpyAtoH", CU_MEMORYTYPE_ARRAY, NULL, 0, src, off, CU_MEMORYTYPE_HOST, dst, 0, NULL, 0, n);
}

CUresult cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n)
{
	SYNC_POINT();
	return array_copy("cuMemcpyDtoA", CU_MEMORYTYPE_DEVICE, NULL, src, NULL, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, dst,
			  off, n);
}

CUresult cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n)
{
	SYNC_POINT();
	return array_copy("cuMemcpyAtoD", CU_MEMORYTYPE_ARRAY, NULL, 0, src, off, CU_MEMORYTYPE_DEVICE, NULL, dst, NULL,
			  0, n);
}

CUresult cuMemcpyAtoA_v2(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n)
{
	SYNC_POINT();
	return array_copy("cuMemcpyAtoA", CU_MEMORYTYPE_ARRAY, NULL, 0, src, soff, CU_MEMORYTYPE_ARRAY, NULL, 0, dst,
			  doff, n);
}

/* ---- the asynchronous forms: the copy is done when the call returns ------------------ */
/* A stream being captured records the linear copies and fills (CAPTURE);
 * the other forms cannot be captured. */
#define ASYNC(body) do { CUresult rs_ = cu_stream_check(s); if (rs_) return rs_; \
	if (cu_capturing(s)) return cu_capture_refuse(s, __func__); \
	in_async++; rs_ = body; in_async--; return rs_; } while (0)
#define CAPTURE(call) do { if (cu_capturing(s)) { CUresult rc_ = cu_stream_check(s); return rc_ ? rc_ : call; } } while (0)

CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s)
{
	CAPTURE(cu_capture_copy(s, is_device(d) | is_device(src) << 1, d, src, n));
	ASYNC(cuMemcpy(d, src, n));
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *src, size_t n, CUstream s)
{
	CAPTURE(cu_capture_copy(s, 1, d, (uint64_t)(uintptr_t)src, n));
	ASYNC(cuMemcpyHtoD_v2(d, src, n));
}
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr src, size_t n, CUstream s)
{
	CAPTURE(cu_capture_copy(s, 2, (uint64_t)(uintptr_t)d, src, n));
	ASYNC(cuMemcpyDtoH_v2(d, src, n));
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s)
{
	CAPTURE(cu_capture_copy(s, 3, d, src, n));
	ASYNC(cuMemcpyDtoD_v2(d, src, n));
}
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream s)
{
	CUDA_MEMCPY3D q;
	CAPTURE(!p || !to3d(p, &q) ? CUDA_ERROR_INVALID_VALUE : cu_capture_copy3d(s, &q));
	ASYNC(copy2d(p, "cuMemcpy2DAsync"));
}

CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream s)
{
	CAPTURE(!p ? CUDA_ERROR_INVALID_VALUE : cu_capture_copy3d(s, p));
	ASYNC(copy3d(p, "cuMemcpy3DAsync"));
}
CUresult cuMemcpyHtoAAsync_v2(CUarray d, size_t off, const void *src, size_t n, CUstream s)
{
	ASYNC(cuMemcpyHtoA_v2(d, off, src, n));
}
CUresult cuMemcpyAtoHAsync_v2(void *d, CUarray src, size_t off, size_t n, CUstream s)
{
	ASYNC(cuMemcpyAtoH_v2(d, src, off, n));
}
CUresult cuMemcpyPeerAsync(CUdeviceptr d, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n, CUstream s)
{
	ASYNC(cuMemcpyPeer(d, dc, src, sc, n));
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
	CAPTURE(cu_capture_set(s, d, 0, v, 1, n, 1));
	ASYNC(cuMemsetD8_v2(d, v, n));
}
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s)
{
	CAPTURE(cu_capture_set(s, d, 0, v, 2, n, 1));
	ASYNC(cuMemsetD16_v2(d, v, n));
}
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, CUstream s)
{
	CAPTURE(cu_capture_set(s, d, 0, v, 4, n, 1));
	ASYNC(cuMemsetD32_v2(d, v, n));
}
CUresult cuMemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h, CUstream s)
{
	CAPTURE(cu_capture_set(s, d, pitch, v, 1, w, h));
	ASYNC(cuMemsetD2D8_v2(d, pitch, v, w, h));
}
CUresult cuMemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h, CUstream s)
{
	CAPTURE(cu_capture_set(s, d, pitch, v, 2, w, h));
	ASYNC(cuMemsetD2D16_v2(d, pitch, v, w, h));
}
CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned v, size_t w, size_t h, CUstream s)
{
	CAPTURE(cu_capture_set(s, d, pitch, v, 4, w, h));
	ASYNC(cuMemsetD2D32_v2(d, pitch, v, w, h));
}

CU_PT_ALIAS(cuMemcpy, _ptds);
CU_PT_ALIAS(cuMemcpyHtoD_v2, _ptds);
CU_PT_ALIAS(cuMemcpyDtoH_v2, _ptds);
CU_PT_ALIAS(cuMemcpyDtoD_v2, _ptds);
CU_PT_ALIAS(cuMemcpyHtoA_v2, _ptds);
CU_PT_ALIAS(cuMemcpyAtoH_v2, _ptds);
CU_PT_ALIAS(cuMemcpyDtoA_v2, _ptds);
CU_PT_ALIAS(cuMemcpyAtoD_v2, _ptds);
CU_PT_ALIAS(cuMemcpyAtoA_v2, _ptds);
CU_PT_ALIAS(cuMemcpyPeer, _ptds);
CU_PT_ALIAS(cuMemcpy2D_v2, _ptds);
CU_PT_ALIAS(cuMemcpy2DUnaligned_v2, _ptds);
CU_PT_ALIAS(cuMemcpy3D_v2, _ptds);
CU_PT_ALIAS(cuMemsetD8_v2, _ptds);
CU_PT_ALIAS(cuMemsetD16_v2, _ptds);
CU_PT_ALIAS(cuMemsetD32_v2, _ptds);
CU_PT_ALIAS(cuMemsetD2D8_v2, _ptds);
CU_PT_ALIAS(cuMemsetD2D16_v2, _ptds);
CU_PT_ALIAS(cuMemsetD2D32_v2, _ptds);
CU_PT_ALIAS(cuMemcpyAsync, _ptsz);
CU_PT_ALIAS(cuMemcpyHtoDAsync_v2, _ptsz);
CU_PT_ALIAS(cuMemcpyDtoHAsync_v2, _ptsz);
CU_PT_ALIAS(cuMemcpyDtoDAsync_v2, _ptsz);
CU_PT_ALIAS(cuMemcpy2DAsync_v2, _ptsz);
CU_PT_ALIAS(cuMemcpy3DAsync_v2, _ptsz);
CU_PT_ALIAS(cuMemcpyHtoAAsync_v2, _ptsz);
CU_PT_ALIAS(cuMemcpyAtoHAsync_v2, _ptsz);
CU_PT_ALIAS(cuMemcpyPeerAsync, _ptsz);
CU_PT_ALIAS(cuMemsetD8Async, _ptsz);
CU_PT_ALIAS(cuMemsetD16Async, _ptsz);
CU_PT_ALIAS(cuMemsetD32Async, _ptsz);
CU_PT_ALIAS(cuMemsetD2D8Async, _ptsz);
CU_PT_ALIAS(cuMemsetD2D16Async, _ptsz);
CU_PT_ALIAS(cuMemsetD2D32Async, _ptsz);

/* ---- managed memory's hints: prefetches, advice, stream attachment --------------------
 * Managed memory is host memory the device reaches at the same address, and
 * every access is coherent (a launch ends before its call returns), so
 * nothing moves: the calls check their arguments as CUDA documents them and
 * succeed.  The range must lie in one cuMemAllocManaged allocation or one
 * __managed__ variable. */
enum { LOC_DEVICE = 1, LOC_HOST, LOC_HOST_NUMA, LOC_HOST_NUMA_CURRENT };
enum { ADVISE_SET_READ_MOSTLY = 1, ADVISE_UNSET_READ_MOSTLY, ADVISE_SET_PREFERRED_LOCATION,
       ADVISE_UNSET_PREFERRED_LOCATION, ADVISE_SET_ACCESSED_BY, ADVISE_UNSET_ACCESSED_BY };
enum { CU_DEVICE_CPU = -1 };
typedef struct { int type, id; } CuMemLoc;      /* CUmemLocation */

static CUresult managed_range(CUdeviceptr p, size_t n, HostMem *h, const char *what)
{
	if (!p || !n)
		return CUDA_ERROR_INVALID_VALUE;
	if (host_find((void *)(uintptr_t)p, n, h) && is_managed(h))
		return CUDA_SUCCESS;
	uint64_t base;
	size_t size;
	if (!host_find((void *)(uintptr_t)p, 1, NULL) && !ptxvm_mem_range(cu_dev.dev, p, &base, &size))
		cu_log("%s: [0x%llx, +%zu) is device memory, not managed memory", what, (unsigned long long)p, n);
	return CUDA_ERROR_INVALID_VALUE;
}

/* A location prefetched to or advised about: the device, or the host (its
 * one NUMA node, 0). */
static CUresult location(CuMemLoc l)
{
	switch (l.type) {
	case LOC_DEVICE: return l.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
	case LOC_HOST: case LOC_HOST_NUMA_CURRENT: return CUDA_SUCCESS;
	case LOC_HOST_NUMA: return l.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
}

static CuMemLoc device_location(CUdevice dev) { return (CuMemLoc){ dev == CU_DEVICE_CPU ? LOC_HOST : LOC_DEVICE, dev }; }

CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, CuMemLoc loc, unsigned flags, CUstream s)
{
	CTX_CALL(c);
	CUresult r = cu_stream_check(s);
	if (r)
		return r;
	HostMem h;
	if (flags || (r = location(loc)) || (r = managed_range(p, n, &h, "cuMemPrefetchAsync")))
		return r ? r : CUDA_ERROR_INVALID_VALUE;
	return cu_capturing(s) ? cu_capture_refuse(s, "cuMemPrefetchAsync") : CUDA_SUCCESS;
}

CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice dev, CUstream s)
{
	return cuMemPrefetchAsync_v2(p, n, device_location(dev), 0, s);
}

CUresult cuMemAdvise_v2(CUdeviceptr p, size_t n, int advice, CuMemLoc loc)
{
	CTX_CALL(c);
	if (advice < ADVISE_SET_READ_MOSTLY || advice > ADVISE_UNSET_ACCESSED_BY)
		return CUDA_ERROR_INVALID_VALUE;
	/* read-mostly names no location */
	CUresult r = advice <= ADVISE_UNSET_READ_MOSTLY ? CUDA_SUCCESS : location(loc);
	HostMem h;
	return r ? r : managed_range(p, n, &h, "cuMemAdvise");
}

CUresult cuMemAdvise(CUdeviceptr p, size_t n, int advice, CUdevice dev)
{
	return cuMemAdvise_v2(p, n, advice, device_location(dev));
}

/* The whole of an allocation (length 0 or its size) is attached to the
 * stream, the host or every stream; one cannot attach singly to the NULL
 * stream, which is no stream of its own. */
CUresult cuStreamAttachMemAsync(CUstream s, CUdeviceptr p, size_t length, unsigned flags)
{
	CTX_CALL(c);
	CUresult r = cu_stream_check(s);
	if (r)
		return r;
	HostMem h;
	if ((flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE) ||
	    (flags == CU_MEM_ATTACH_SINGLE && (!s || s == (CUstream)0x1)))
		return CUDA_ERROR_INVALID_VALUE;
	if ((r = managed_range(p, length ? length : 1, &h, "cuStreamAttachMemAsync")))
		return r;
	if ((uintptr_t)h.p != p || (length && length != h.asked))
		return CUDA_ERROR_INVALID_VALUE;
	return cu_capturing(s) ? cu_capture_refuse(s, "cuStreamAttachMemAsync") : CUDA_SUCCESS;
}

CU_PT_ALIAS(cuMemPrefetchAsync, _ptsz);
CU_PT_ALIAS(cuMemPrefetchAsync_v2, _ptsz);
CU_PT_ALIAS(cuStreamAttachMemAsync, _ptsz);

/* ---- stream-ordered allocation: the stream is always idle, so the memory
 * is allocated and freed at once, from the device's one default pool; on
 * a stream being captured, allocation and free nodes (graph.c) ---- */
/* While capturing, 0 bytes allocate nothing (address 0) and freeing 0
 * frees nothing, both successfully, as on an H200. */
static CUresult capture_alloc(CUdeviceptr *dptr, size_t bytes, CUstream s)
{
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	*dptr = 0;
	return bytes ? cu_capture_alloc(s, bytes, dptr) : CUDA_SUCCESS;
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, CUstream s)
{
	CAPTURE(capture_alloc(dptr, bytes, s));
	ASYNC(cuMemAlloc_v2(dptr, bytes));
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream s)
{
	CAPTURE(dptr ? cu_capture_free(s, dptr) : CUDA_SUCCESS);
	ASYNC(mem_free(dptr, "cuMemFreeAsync"));
}

CU_PT_ALIAS(cuMemAllocAsync, _ptsz);
CU_PT_ALIAS(cuMemFreeAsync, _ptsz);

/* ---- the device's one memory pool ----------------------------------------------------
 * Stream-ordered allocations come from the default pool, which is the
 * device's memory: its attributes are kept and reported, and trimming has
 * nothing to release.  Other pools are not supported. */
static struct CuPool {
	int reuse[4];           /* CU_MEMPOOL_ATTR_REUSE_* (1..3) */
	uint64_t threshold;     /* CU_MEMPOOL_ATTR_RELEASE_THRESHOLD */
} default_pool = { { 0, 1, 1, 1 }, 0 };

CUresult cuDeviceGetDefaultMemPool(void **pool, CUdevice dev)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	*pool = &default_pool;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetMemPool(void **pool, CUdevice dev) { return cuDeviceGetDefaultMemPool(pool, dev); }

CUresult cuDeviceSetMemPool(CUdevice dev, void *pool)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	return pool == &default_pool ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytes, void *pool, CUstream s)
{
	if (pool != &default_pool)
		return CUDA_ERROR_INVALID_VALUE;
	return cuMemAllocAsync(dptr, bytes, s);
}

CU_PT_ALIAS(cuMemAllocFromPoolAsync, _ptsz);

enum { POOL_REUSE_FIRST = 1, POOL_REUSE_LAST = 3, POOL_RELEASE_THRESHOLD, POOL_RESERVED_CURRENT, POOL_RESERVED_HIGH,
       POOL_USED_CURRENT, POOL_USED_HIGH };

CUresult cuMemPoolSetAttribute(void *pool, int attr, void *value)
{
	if (pool != &default_pool || !value)
		return CUDA_ERROR_INVALID_VALUE;
	if (attr >= POOL_REUSE_FIRST && attr <= POOL_REUSE_LAST)
		default_pool.reuse[attr] = *(int *)value != 0;
	else if (attr == POOL_RELEASE_THRESHOLD)
		default_pool.threshold = *(uint64_t *)value;
	else if (attr == POOL_RESERVED_HIGH || attr == POOL_USED_HIGH) {
		if (*(uint64_t *)value)
			return CUDA_ERROR_INVALID_VALUE;        /* only a reset to 0 */
	} else
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAttribute(void *pool, int attr, void *value)
{
	if (pool != &default_pool || !value)
		return CUDA_ERROR_INVALID_VALUE;
	if (attr >= POOL_REUSE_FIRST && attr <= POOL_REUSE_LAST)
		*(int *)value = default_pool.reuse[attr];
	else if (attr == POOL_RELEASE_THRESHOLD)
		*(uint64_t *)value = default_pool.threshold;
	else if (attr >= POOL_RESERVED_CURRENT && attr <= POOL_USED_HIGH)
		*(uint64_t *)value = 0;         /* allocations are the device's, not held by the pool */
	else
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUresult cuMemPoolTrimTo(void *pool, size_t keep)
{
	return pool == &default_pool ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
