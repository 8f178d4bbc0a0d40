// The programming guide's tensor memory access as a CUDA program writes
// it: cuTensorMapEncodeTiled reached through cudaGetDriverEntryPoint, the
// map a __grid_constant__ parameter, a 2-d tile loaded by
// cp.async.bulk.tensor into shared memory on a cuda::barrier, changed, and
// stored back by cp.async.bulk.tensor; then the driver's argument checks.
// Last, a cluster of 16 CTAs, which CUDA allows a kernel that opts in to
// non-portable cluster sizes (cudaFuncAttributeNonPortableClusterSizeAllowed).
#include "check.h"

#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda/barrier>
#include <cudaTypedefs.h>

namespace cde = cuda::device::experimental;
using barrier = cuda::barrier<cuda::thread_scope_block>;

#define TW 32
#define TH 8

// Each block: the TW x TH tile at (blockIdx.x * TW, blockIdx.y * TH) of a
// W x H float matrix, doubled plus one, written back in place.  The last
// column of tiles reaches past W: those elements read as zero and are
// not written.
__global__ void tile_update(const __grid_constant__ CUtensorMap tm)
{
	__shared__ alignas(128) float tile[TH][TW];
#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ barrier bar;
	int x = blockIdx.x * TW, y = blockIdx.y * TH;
	if (threadIdx.x == 0) {
		init(&bar, blockDim.x);
		cde::fence_proxy_async_shared_cta();
	}
	__syncthreads();
	barrier::arrival_token tok;
	if (threadIdx.x == 0) {
		cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &tm, x, y, bar);
		tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof tile);
	} else {
		tok = bar.arrive();
	}
	bar.wait(std::move(tok));
	for (int i = threadIdx.x; i < TW * TH; i += blockDim.x)
		tile[i / TW][i % TW] = 2 * tile[i / TW][i % TW] + 1;
	cde::fence_proxy_async_shared_cta();
	__syncthreads();
	if (threadIdx.x == 0) {
		cde::cp_async_bulk_tensor_2d_shared_to_global(&tm, x, y, &tile);
		cde::cp_async_bulk_commit_group();
		cde::cp_async_bulk_wait_group_read<0>();
	}
}

// Each CTA of the cluster keeps its rank in shared memory; after the
// cluster barrier each reads the next CTA's through distributed shared
// memory: out[b] = (cluster size << 16) | neighbour's rank.
__global__ void cluster_ring(unsigned *out)
{
	namespace cg = cooperative_groups;
	__shared__ unsigned mine;
	cg::cluster_group cl = cg::this_cluster();
	unsigned r = cl.block_rank(), n = cl.num_blocks();
	if (threadIdx.x == 0)
		mine = r;
	cl.sync();
	if (threadIdx.x == 0)
		out[blockIdx.x] = n << 16 | *cl.map_shared_rank(&mine, (r + 1) % n);
	cl.sync();
}

static void clusters()
{
	const int G = 32;
	unsigned *d, h[G];
	CK(cudaMalloc(&d, sizeof h));
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute at[1];
	at[0].id = cudaLaunchAttributeClusterDimension;
	at[0].val.clusterDim.x = 16, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
	cfg.gridDim = dim3(G), cfg.blockDim = dim3(32), cfg.attrs = at, cfg.numAttrs = 1;
	cudaError_t e = cudaLaunchKernelEx(&cfg, cluster_ring, d);
	expect(e != cudaSuccess, "a cluster of 16 without the opt-in fails (%s)", cudaGetErrorName(e));
	cudaGetLastError();
	CK(cudaFuncSetAttribute(cluster_ring, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
	CK(cudaLaunchKernelEx(&cfg, cluster_ring, d));
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int b = 0; b < G; b++)
		bad += h[b] != (16u << 16 | (unsigned)((b % 16 + 1) % 16));
	expect(bad == 0, "two clusters of 16 CTAs read their neighbours' shared memory (%d wrong)", bad);
	CK(cudaFree(d));
}

int main()
{
	const int W = 100, H = 40, pitch = 112; // rows padded to 448 bytes
	float *h = (float *)malloc(sizeof(float) * pitch * H), *want = (float *)malloc(sizeof(float) * pitch * H);
	for (int i = 0; i < pitch * H; i++) {
		h[i] = (float)(i % 1000) * 0.25f;
		want[i] = (i % pitch) < W ? 2 * h[i] + 1 : h[i];
	}
	float *d;
	CK(cudaMalloc(&d, sizeof(float) * pitch * H));
	CK(cudaMemcpy(d, h, sizeof(float) * pitch * H, cudaMemcpyHostToDevice));

	PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
	cudaDriverEntryPointQueryResult q;
	CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &q));
	expect(encode && q == cudaDriverEntryPointSuccess, "cuTensorMapEncodeTiled is a driver entry point");
	if (!encode)
		return finish();

	alignas(64) CUtensorMap tm;
	cuuint64_t dims[2] = { W, H }, strides[1] = { pitch * sizeof(float) };
	cuuint32_t box[2] = { TW, TH }, es[2] = { 1, 1 };
	CUresult r = encode(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d, dims, strides, box, es,
			    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
			    CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	expect(r == CUDA_SUCCESS, "cuTensorMapEncodeTiled: %d", (int)r);

	tile_update<<<dim3((W + TW - 1) / TW, H / TH), 64>>>(tm);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(h, d, sizeof(float) * pitch * H, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < pitch * H; i++)
		bad += h[i] != want[i];
	expect(bad == 0, "every element of the matrix updated once, the padding untouched (%d differ)", bad);

	// the driver's rules: a stride that is not a multiple of 16, a box of 257
	cuuint64_t s12[1] = { 12 };
	expect(encode(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d, dims, s12, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
		      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
	       CUDA_ERROR_INVALID_VALUE, "a stride of 12 bytes: CUDA_ERROR_INVALID_VALUE");
	cuuint32_t big[2] = { 257, 1 };
	expect(encode(&tm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, d, dims, strides, big, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
		      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
	       CUDA_ERROR_INVALID_VALUE, "a box of 257: CUDA_ERROR_INVALID_VALUE");
	expect(encode(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 6, d, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
		      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
	       CUDA_ERROR_INVALID_VALUE, "rank 6: CUDA_ERROR_INVALID_VALUE");
	CK(cudaFree(d));
	free(h);
	free(want);
	clusters();
	return finish();
}
