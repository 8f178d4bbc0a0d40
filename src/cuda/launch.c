/* launch.c: cuLaunchKernel, with kernelParams or the packed `extra`
 * buffer.  Launches run to completion before the call returns; a fault
 * makes the context sticky-failed (context.c). */
#include "cu.h"

#include <string.h>

#define CU_LAUNCH_PARAM_END ((void *)0)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)2)
#define CU_LAUNCH_PARAM_END_AS_INT ((void *)0)

/* CUDA's rule for cluster sizes: more than 8 CTAs (the portable size), up
 * to the 16 an H100 has, only for a kernel that opted in with
 * CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED.  The shape is the
 * launch's, else the kernel's .reqnctapercluster. */
static CUresult cluster_allowed(const CuFunc *f, const ptxvm_kernel_attrs *a, const unsigned cluster[3])
{
	const unsigned *c = cluster ? cluster : a->cluster;
	uint64_t n = (uint64_t)(c[0] ? c[0] : 1) * (c[1] ? c[1] : 1) * (c[2] ? c[2] : 1);
	int nonportable = 0;
	ptxvm_kernel_get_attribute(f->k, PTXVM_KATTR_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, &nonportable);
	if (n <= 8 || nonportable)
		return CUDA_SUCCESS;
	cu_warn("a cluster of %llu CTAs is larger than the portable 8: the kernel must allow it with "
		"CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED (cudaFuncAttributeNonPortableClusterSizeAllowed)",
		(unsigned long long)n);
	return 912;     /* CUDA_ERROR_INVALID_CLUSTER_SIZE */
}

static CUresult launch(CUfunction h, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
		       unsigned shared, CUstream stream, void **params, void **extra, int cooperative,
		       const unsigned cluster[3])
{
	CuCtx *c;
	CUresult r = cu_enter(&c);
	if (r)
		return r;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!gx || !gy || !gz || !bx || !by || !bz)
		return CUDA_ERROR_INVALID_VALUE;
	const ptxvm_kernel *k = f->k;
	ptxvm_kernel_attrs a;
	if (ptxvm_kernel_attributes(k, &a))
		return CUDA_ERROR_INVALID_HANDLE;
	if ((uint64_t)bx * by * bz > a.max_threads || bx > 1024 || by > 1024 || bz > 64 || gx > 0x7fffffffu ||
	    gy > 65535 || gz > 65535)
		return CUDA_ERROR_INVALID_VALUE;        /* as an H200's driver answers */
	/* past 48 KiB of shared memory a kernel must have opted in */
	int most = 0;
	ptxvm_kernel_get_attribute(k, PTXVM_KATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES, &most);
	if (shared > (unsigned)most) {
		cu_warn("cuLaunchKernel: %u bytes of dynamic shared memory need "
			"cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)", shared);
		return CUDA_ERROR_INVALID_VALUE;
	}
	r = cu_stream_check(stream);
	if (!r)
		r = cluster_allowed(f, &a, cluster);
	if (r)
		return r;
	ptxvm_launch_config cfg = { { gx, gy, gz }, { bx, by, bz }, shared, { 0, 0, 0 } };
	if (cluster)    /* the C API refuses shapes the kernel or the grid does not allow */
		memcpy(cfg.cluster, cluster, sizeof cfg.cluster);
	const void *buf = NULL;
	size_t want = ptxvm_kernel_params_size(k);
	if (extra) {
		if (params)
			return CUDA_ERROR_INVALID_VALUE;
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
		if ((want && !buf) || !have_size || size < want) {
			cu_warn("cuLaunchKernel: the extra buffer holds %zu bytes; the kernel's parameters take %zu",
				size, want);
			return CUDA_ERROR_INVALID_VALUE;
		}
	} else if (!params && ptxvm_kernel_param_count(k))
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_capturing(stream))       /* recorded in the stream's graph, not run */
		return cooperative ? cu_capture_refuse(stream, "a cooperative launch")
				   : cu_capture_kernel(stream, h, &cfg, (void *const *)params, buf);
	return cu_launch_run(c, f, &cfg, (void *const *)params, buf, cooperative, NULL);
}

/* env: the graph the kernel is a node of (graph.c), or NULL */
CUresult cu_launch_run(CuCtx *c, CuFunc *f, const ptxvm_launch_config *cfg, void *const *params,
		       const void *buf, int cooperative, ptxvm_graph_env *env)
{
	const ptxvm_kernel *k = f->k;
	cu_printf_flush();      /* a launch flushes the printf FIFO when it starts */
	ptxvm_launch_stats st = { 0 };
	ptxvm_result pr;
	if (env)
		pr = ptxvm_launch_graph_node(cu_dev.dev, k, cfg, buf, ptxvm_kernel_params_size(k), env, &st);
	else if (!cooperative && (buf || !params))
		pr = ptxvm_launch_packed(cu_dev.dev, k, cfg, buf, ptxvm_kernel_params_size(k), &st);
	else
		pr = (cooperative ? ptxvm_launch_cooperative : ptxvm_launch)(cu_dev.dev, k, cfg, params, &st);
	if (st.printf_dropped)  /* lost without a word, as on a GPU, unless asked */
		cu_log("%s: %llu device printf calls dropped: the output exceeded the printf FIFO "
		       "(CU_LIMIT_PRINTF_FIFO_SIZE)", ptxvm_kernel_name(k), (unsigned long long)st.printf_dropped);
	cu_printf_launched();
	return cu_result(c, pr, env ? "cuGraphLaunch (a kernel node)" : cooperative ? "cuLaunchCooperativeKernel" :
				"cuLaunchKernel");
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
			unsigned shared, CUstream stream, void **params, void **extra)
{
	return launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra, 0, NULL);
}

CU_PT_ALIAS(cuLaunchKernel, _ptsz);

/* ---- cooperative launches and occupancy ---------------------------------------------- */
/* How many CTAs of f fit on one SM at once (ptxvm_kernel_occupancy: the
 * target's limits on blocks, threads and shared memory per SM, and
 * registers at the nominal 32 per thread cuFuncGetAttribute reports). */
static int per_sm(const CuFunc *f, int block, size_t dyn)
{
	int n = 0;
	return ptxvm_kernel_occupancy(f->k, block, dyn, &n) ? 0 : n;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, CUfunction h, int block, size_t dyn,
							       unsigned flags)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!n || flags > 1)
		return CUDA_ERROR_INVALID_VALUE;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	*n = per_sm(f, block, dyn);
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t dyn)
{
	return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, block, dyn, 0);
}

typedef size_t (*CUoccupancyB2DSize)(int block);

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *min_grid, int *best, CUfunction h, CUoccupancyB2DSize b2d,
						   size_t dyn, int limit, unsigned flags)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!min_grid || !best || flags > 1)
		return CUDA_ERROR_INVALID_VALUE;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	ptxvm_kernel_attrs a;
	if (ptxvm_kernel_attributes(f->k, &a))
		return CUDA_ERROR_INVALID_HANDLE;
	int most = (int)a.max_threads, best_threads = 0, best_block = 0, best_n = 0;
	if (limit > 0 && limit < most)
		most = limit;
	for (int b = 32; b <= most; b += 32) {        /* the largest block with the most threads per SM */
		int n = per_sm(f, b, b2d ? b2d(b) : dyn);
		if (n * b >= best_threads && n > 0) {
			best_threads = n * b;
			best_block = b;
			best_n = n;
		}
	}
	*best = best_block;
	*min_grid = best_n * cu_attribute(16);
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *best, CUfunction f, CUoccupancyB2DSize b2d, size_t dyn,
					  int limit)
{
	return cuOccupancyMaxPotentialBlockSizeWithFlags(min_grid, best, f, b2d, dyn, limit, 0);
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *out, CUfunction h, int blocks, int block)
{
	if (!out || blocks <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	ptxvm_kernel_attrs a;
	if (ptxvm_kernel_attributes(f->k, &a))
		return CUDA_ERROR_INVALID_HANDLE;
	size_t per = (size_t)cu_attribute(81) / (size_t)blocks, used = a.shared_bytes + (size_t)cu_attribute(111);
	size_t most = (size_t)cu_attribute(97) - a.shared_bytes;
	*out = per > used ? per - used : 0;
	if (*out > most)
		*out = most;
	return CUDA_SUCCESS;
}

/* All CTAs at once: no more than fit on the device, each on its own
 * worker, with the grid barrier cooperative groups use. */
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
				   unsigned bz, unsigned shared, CUstream stream, void **params)
{
	CuFunc *fn = cu_func(f);
	if (fn && cu_ready() == CUDA_SUCCESS) {
		uint64_t fit = (uint64_t)per_sm(fn, (int)(bx * by * bz), shared) * (uint64_t)cu_attribute(16);
		if ((uint64_t)gx * gy * gz > fit)
			return 720;     /* CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE */
	}
	return launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, NULL, 1, NULL);
}

CU_PT_ALIAS(cuLaunchCooperativeKernel, _ptsz);

/* ---- cuLaunchKernelEx: a launch with attributes ------------------------------------ */
typedef struct CUlaunchAttribute {
	int id;
	char pad[4];
	union {
		char bytes[64];
		int cooperative;
		struct { unsigned x, y, z; } cluster;
	} value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig {
	unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
	CUstream hStream;
	CUlaunchAttribute *attrs;
	unsigned numAttrs;
} CUlaunchConfig;

enum { ATTR_IGNORE, ATTR_ACCESS_POLICY_WINDOW, ATTR_COOPERATIVE, ATTR_SYNCHRONIZATION_POLICY, ATTR_CLUSTER_DIMENSION,
       ATTR_CLUSTER_SCHEDULING_POLICY, ATTR_PROGRAMMATIC_STREAM_SERIALIZATION, ATTR_PROGRAMMATIC_EVENT,
       ATTR_PRIORITY, ATTR_MEM_SYNC_DOMAIN_MAP, ATTR_MEM_SYNC_DOMAIN, ATTR_PREFERRED_CLUSTER_DIMENSION,
       ATTR_LAUNCH_COMPLETION_EVENT, ATTR_DEVICE_UPDATABLE_KERNEL_NODE, ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT };

/* Attributes that change nothing where launches are synchronous and run
 * alone (cache policies, priorities, memory domains, carveouts) are taken;
 * cooperative launches and clusters run (a cooperative launch in clusters
 * and events fail with a message). */
CUresult cuLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction f, void **params, void **extra)
{
	if (!cfg || (cfg->numAttrs && !cfg->attrs))
		return CUDA_ERROR_INVALID_VALUE;
	int coop = 0, clustered = 0;
	unsigned cl[3] = { 0, 0, 0 };
	for (unsigned i = 0; i < cfg->numAttrs; i++) {
		const CUlaunchAttribute *a = &cfg->attrs[i];
		switch (a->id) {
		case ATTR_COOPERATIVE:
			coop = a->value.cooperative != 0;
			break;
		case ATTR_CLUSTER_DIMENSION:
		case ATTR_PREFERRED_CLUSTER_DIMENSION:
			cl[0] = a->value.cluster.x, cl[1] = a->value.cluster.y, cl[2] = a->value.cluster.z;
			clustered = (uint64_t)cl[0] * cl[1] * cl[2] > 1;
			break;
		case ATTR_PROGRAMMATIC_EVENT:
		case ATTR_LAUNCH_COMPLETION_EVENT:
		case ATTR_DEVICE_UPDATABLE_KERNEL_NODE:
			cu_warn("cuLaunchKernelEx: launch attribute %d is not supported", a->id);
			return CUDA_ERROR_NOT_SUPPORTED;
		case ATTR_IGNORE: case ATTR_ACCESS_POLICY_WINDOW: case ATTR_SYNCHRONIZATION_POLICY:
		case ATTR_CLUSTER_SCHEDULING_POLICY: case ATTR_PROGRAMMATIC_STREAM_SERIALIZATION: case ATTR_PRIORITY:
		case ATTR_MEM_SYNC_DOMAIN_MAP: case ATTR_MEM_SYNC_DOMAIN: case ATTR_PREFERRED_SHARED_MEMORY_CARVEOUT:
			break;
		default:
			cu_warn("cuLaunchKernelEx: launch attribute %d is not supported", a->id);
			return CUDA_ERROR_NOT_SUPPORTED;
		}
	}
	if (coop && clustered) {
		cu_warn("cuLaunchKernelEx: a cooperative launch in clusters of %ux%ux%u CTAs is not supported",
			cl[0], cl[1], cl[2]);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	if (coop) {
		if (extra)
			return CUDA_ERROR_INVALID_VALUE;
		return cuLaunchCooperativeKernel(f, cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ, cfg->blockDimX,
						 cfg->blockDimY, cfg->blockDimZ, cfg->sharedMemBytes, cfg->hStream, params);
	}
	return launch(f, cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ, cfg->blockDimX, cfg->blockDimY, cfg->blockDimZ,
		      cfg->sharedMemBytes, cfg->hStream, params, extra, 0, clustered ? cl : NULL);
}

CU_PT_ALIAS(cuLaunchKernelEx, _ptsz);
