/* memory.c: device memory, and every synchronous copy and fill: linear,
 * 2D and 3D, between host, device and array memory.  Unified addressing:
 * an address inside a device allocation is device memory, any other is
 * host memory. */
#include "cu.h"

#include <stdlib.h>
#include <string.h>

#define CTX_CALL(c) CUcontext c; do { CUresult r_ = cu_enter(&c); if (r_) return r_; } while (0)

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

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	CTX_CALL(c);
	if (!dptr)
		return CUDA_SUCCESS;
	return cu_result(c, ptxvm_mem_free(cu_dev.dev, dptr), "cuMemFree");
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
static int is_device(uint64_t a) { return ptxvm_mem_range(cu_dev.dev, a, NULL, NULL) == PTXVM_SUCCESS; }

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	CTX_CALL(c);
	return cu_result(c, ptxvm_memcpy_htod(cu_dev.dev, dst, src, n), "cuMemcpyHtoD");
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	CTX_CALL(c);
	return cu_result(c, ptxvm_memcpy_dtoh(cu_dev.dev, dst, src, n), "cuMemcpyDtoH");
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	CTX_CALL(c);
	return cu_result(c, ptxvm_memcpy_dtod(cu_dev.dev, dst, src, n), "cuMemcpyDtoD");
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
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

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *p) { return copy3d(p, "cuMemcpy3D"); }

static CUresult copy2d(const CUDA_MEMCPY2D *p, const char *what)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_MEMCPY3D q = {
		.srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcMemoryType = p->srcMemoryType,
		.srcHost = p->srcHost, .srcDevice = p->srcDevice, .srcArray = p->srcArray, .srcPitch = p->srcPitch,
		.dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstMemoryType = p->dstMemoryType,
		.dstHost = p->dstHost, .dstDevice = p->dstDevice, .dstArray = p->dstArray, .dstPitch = p->dstPitch,
		.WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = 1,
	};
	/* a pitch narrower than the rows is refused, as the driver does */
	if ((p->srcMemoryType != CU_MEMORYTYPE_ARRAY && p->Height > 1 && p->srcPitch < p->WidthInBytes) ||
	    (p->dstMemoryType != CU_MEMORYTYPE_ARRAY && p->Height > 1 && p->dstPitch < p->WidthInBytes))
		return CUDA_ERROR_INVALID_VALUE;
	return copy3d(&q, what);
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *p) { return copy2d(p, "cuMemcpy2D"); }
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *p) { return copy2d(p, "cuMemcpy2DUnaligned"); }

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
	return array_copy("cuMemcpyHtoA", CU_MEMORYTYPE_HOST, src, 0, NULL, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, dst, off, n);
}

CUresult cuMemcpyAtoH_v2(void *dst, CUarray src, size_t off, size_t n)
{
	return array_copy("cuMemcpyAtoH", CU_MEMORYTYPE_ARRAY, NULL, 0, src, off, CU_MEMORYTYPE_HOST, dst, 0, NULL, 0, n);
}

CUresult cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n)
{
	return array_copy("cuMemcpyDtoA", CU_MEMORYTYPE_DEVICE, NULL, src, NULL, 0, CU_MEMORYTYPE_ARRAY, NULL, 0, dst,
			  off, n);
}

CUresult cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n)
{
	return array_copy("cuMemcpyAtoD", CU_MEMORYTYPE_ARRAY, NULL, 0, src, off, CU_MEMORYTYPE_DEVICE, NULL, dst, NULL,
			  0, n);
}

CUresult cuMemcpyAtoA_v2(CUarray dst, size_t doff, CUarray src, size_t soff, size_t n)
{
	return array_copy("cuMemcpyAtoA", CU_MEMORYTYPE_ARRAY, NULL, 0, src, soff, CU_MEMORYTYPE_ARRAY, NULL, 0, dst,
			  doff, n);
}
