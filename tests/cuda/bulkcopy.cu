// bulkcopy.cu: sm_90's bulk asynchronous copies (cp.async.bulk) the ways
// CUDA C++ reaches them: the programming guide's one-dimensional TMA
// pattern (cuda::device::experimental's cp_async_bulk_* wrappers with a
// cuda::barrier and barrier_arrive_tx), cuda::memcpy_async with a 16-byte
// aligned size, and CUB's DeviceTransform, whose sm_90 kernel loads its
// tiles in bulk.  t_kernels.c runs them against CPU references.
#include <cooperative_groups.h>
#include <cub/device/device_transform.cuh>
#include <cuda/barrier>
#include <cuda/std/tuple>

namespace cde = cuda::device::experimental;

#define TILE 256        // floats per block in tma_1d

// out = 2 * in + 1, one tile per block: in by a bulk copy that completes
// on the barrier's transaction count, out by a bulk copy in a bulk group.
__global__ void tma_1d(const float *in, float *out)
{
    __shared__ alignas(16) float tile[TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    cuda::barrier<cuda::thread_scope_block>::arrival_token token;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_global_to_shared(tile, in + blockIdx.x * TILE, sizeof tile, bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof tile);
    } else {
        token = bar.arrive();
    }
    bar.wait(cuda::std::move(token));
    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        tile[i] = 2 * tile[i] + 1;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_shared_to_global(out + blockIdx.x * TILE, tile, sizeof tile);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

// Each block copies n4 int4 of its row with cuda::memcpy_async (a 16-byte
// aligned size, so a bulk copy on sm_90), then thread t sums the ints at
// t, t + blockDim.x, ...
__global__ void memcpy_async_sum(const int4 *in, int *out, int n4)
{
    extern __shared__ int4 buf[];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cooperative_groups::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in + blockIdx.x * n4, cuda::aligned_size_t<16>(n4 * sizeof(int4)), bar);
    bar.arrive_and_wait();
    const int *v = reinterpret_cast<const int *>(buf);
    int s = 0;
    for (int i = threadIdx.x; i < 4 * n4; i += blockDim.x)
        s += v[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

struct saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

// Instantiates CUB's transform kernel for two float inputs.
void transform_saxpy(const float *x, const float *y, float *out, int n, float a)
{
    cub::DeviceTransform::Transform(cuda::std::make_tuple(x, y), out, n, saxpy{ a });
}
