/* launch.c: cuLaunchKernel, with kernelParams or the packed `extra`
 * buffer.  Launches run to completion before the call returns; a fault
 * makes the context sticky-failed (context.c). */
#include "cu.h"

#include <string.h>

#define CU_LAUNCH_PARAM_END ((void *)0)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)2)
#define CU_LAUNCH_PARAM_END_AS_INT ((void *)0)

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
			unsigned shared, CUstream stream, void **params, void **extra)
{
	CUcontext c;
	CUresult r = cu_enter(&c);
	if (r)
		return r;
	if (!cu_func_alive(f))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!gx || !gy || !gz || !bx || !by || !bz)
		return CUDA_ERROR_INVALID_VALUE;
	const ptxvm_kernel *k = cu_func_kernel(f);
	ptxvm_kernel_attrs a;
	if (ptxvm_kernel_attributes(k, &a))
		return CUDA_ERROR_INVALID_HANDLE;
	if ((uint64_t)bx * by * bz > a.max_threads || bx > 1024 || by > 1024 || bz > 64)
		return CUDA_ERROR_INVALID_VALUE;        /* the driver's answer to a block too large */
	/* past 48 KiB of shared memory a kernel must have opted in */
	int optin = cu_func_max_dynamic_shared(f);
	if (shared + a.shared_bytes > 49152 && shared > (unsigned)optin) {
		cu_warn("cuLaunchKernel: %u bytes of dynamic shared memory need "
			"cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)", shared);
		return CUDA_ERROR_INVALID_VALUE;
	}
	ptxvm_launch_config cfg = { { gx, gy, gz }, { bx, by, bz }, shared };
	ptxvm_result pr;
	if (extra) {
		if (params)
			return CUDA_ERROR_INVALID_VALUE;
		const void *buf = NULL;
		size_t size = 0;
		int have_size = 0;
		for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
			if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
				buf = extra[i + 1];
			else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1]) {
				size = *(size_t *)extra[i + 1];
				have_size = 1;
			} else
				return CUDA_ERROR_INVALID_VALUE;
		}
		size_t want = ptxvm_kernel_params_size(k);
		if ((want && !buf) || !have_size || size < want) {
			cu_warn("cuLaunchKernel: the extra buffer holds %zu bytes; the kernel's parameters take %zu",
				size, want);
			return CUDA_ERROR_INVALID_VALUE;
		}
		pr = ptxvm_launch_packed(cu_dev.dev, k, &cfg, buf, want, NULL);
	} else {
		if (!params && ptxvm_kernel_param_count(k))
			return CUDA_ERROR_INVALID_VALUE;
		pr = ptxvm_launch(cu_dev.dev, k, &cfg, (void *const *)params, NULL);
	}
	return cu_result(c, pr, "cuLaunchKernel");
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			     unsigned bz, unsigned shared, CUstream stream, void **params, void **extra)
{
	return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
}
