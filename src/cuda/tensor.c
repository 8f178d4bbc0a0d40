/* tensor.c: the tensor maps of cp.async.bulk.tensor (cuTensorMapEncodeTiled,
 * cuTensorMapEncodeIm2col, cuTensorMapReplaceAddress) over the interface's
 * encoders; the 128 bytes are ptxvm's own (docs/TENSOR.md).  Like CUDA's,
 * they need the driver initialised, not a context. */
#include "cu.h"

CUresult cuTensorMapEncodeTiled(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dims,
				const uint64_t *strides, const uint32_t *box, const uint32_t *estrides, int interleave,
				int swizzle, int l2promo, int oobfill)
{
	CUresult r = cu_ready();
	if (r)
		return r;
	return cu_result(NULL, ptxvm_tensor_map_tiled(cu_dev.dev, map, (unsigned)dtype, rank, (uint64_t)(uintptr_t)addr,
						       dims, strides, box, estrides, (unsigned)interleave,
						       (unsigned)swizzle, (unsigned)l2promo, (unsigned)oobfill),
			 "cuTensorMapEncodeTiled");
}

CUresult cuTensorMapEncodeIm2col(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dims,
				 const uint64_t *strides, const int *lower, const int *upper, uint32_t channels,
				 uint32_t pixels, const uint32_t *estrides, int interleave, int swizzle, int l2promo,
				 int oobfill)
{
	CUresult r = cu_ready();
	if (r)
		return r;
	return cu_result(NULL, ptxvm_tensor_map_im2col(cu_dev.dev, map, (unsigned)dtype, rank,
							(uint64_t)(uintptr_t)addr, dims, strides, lower, upper, channels,
							pixels, estrides, (unsigned)interleave, (unsigned)swizzle,
							(unsigned)l2promo, (unsigned)oobfill),
			 "cuTensorMapEncodeIm2col");
}

CUresult cuTensorMapReplaceAddress(void *map, void *addr)
{
	CUresult r = cu_ready();
	if (r)
		return r;
	return cu_result(NULL, ptxvm_tensor_map_replace_address(cu_dev.dev, map, (uint64_t)(uintptr_t)addr),
			 "cuTensorMapReplaceAddress");
}
