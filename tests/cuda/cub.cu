// CUB's block and warp algorithms and Thrust's sequential algorithms in
// kernels, as library users write them.  Driven by tests/t_kernels.c.
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

// One CTA of 256 threads over in[0..1023] (4 items each, blocked):
// out[0] the block's sum, out[1 + 4t + j] the exclusive prefix sums,
// warp_max[w] each warp's largest item.
extern "C" __global__ void cub_reduce_scan(const int *in, int *out, int *warp_max)
{
    using Load = cub::BlockLoad<int, 256, 4, cub::BLOCK_LOAD_TRANSPOSE>;
    using Reduce = cub::BlockReduce<int, 256>;
    using Scan = cub::BlockScan<int, 256>;
    using WarpMax = cub::WarpReduce<int>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Reduce::TempStorage reduce;
        typename Scan::TempStorage scan;
        typename WarpMax::TempStorage warp[8];
    } tmp;
    int items[4];
    Load(tmp.load).Load(in, items);
    __syncthreads();
    int sum = Reduce(tmp.reduce).Sum(items);
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = sum;
    int prefix[4];
    Scan(tmp.scan).ExclusiveSum(items, prefix);
    __syncthreads();
    for (int j = 0; j < 4; j++)
        out[1 + 4 * threadIdx.x + j] = prefix[j];
    int m = max(max(items[0], items[1]), max(items[2], items[3]));
    int wm = WarpMax(tmp.warp[threadIdx.x / 32]).Reduce(m, cuda::maximum<>());
    if (threadIdx.x % 32 == 0)
        warp_max[threadIdx.x / 32] = wm;
}

// Each CTA of 128 threads sorts its 512 keys (4 per thread, blocked),
// with the keys' original positions as values; in place.
extern "C" __global__ void cub_radix_sort(unsigned *keys, int *vals)
{
    using Sort = cub::BlockRadixSort<unsigned, 128, 4, int>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned k[4];
    int v[4];
    unsigned base = blockIdx.x * 512 + threadIdx.x * 4;
    for (int j = 0; j < 4; j++)
        k[j] = keys[base + j], v[j] = (int)(base + j);
    Sort(tmp).Sort(k, v);
    for (int j = 0; j < 4; j++)
        keys[base + j] = k[j], vals[base + j] = v[j];
}

// Each thread sorts its own 16 values with thrust::seq, descending, and
// writes their sum.
extern "C" __global__ void thrust_seq(int *a, long long *sums, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int *p = a + 16 * t;
    thrust::sort(thrust::seq, p, p + 16, thrust::greater<int>());
    sums[t] = thrust::reduce(thrust::seq, p, p + 16, 0ll);
}
