// The device runtime as whole-program code: device malloc and free, printf,
// assert, warpSize (WARP_SZ) and the warp intrinsics around it.
#include <cstdio>
#include <cassert>

__global__ void heap(int n, int **keep)
{
    int *p = (int *)malloc(n * sizeof(int));
    if (!p)
        return;
    for (int i = 0; i < n; i++)
        p[i] = i * threadIdx.x;
    keep[threadIdx.x] = p;
    __syncthreads();
    if (threadIdx.x % 2)
        free(keep[threadIdx.x - 1]);
}

__global__ void report(const float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    if (v[i] != v[i])
        printf("NaN at %d (warp %d of %d lanes)\n", i, i / warpSize, warpSize);
}

__global__ void warp_size(int *out)
{
    int lane = threadIdx.x % warpSize;
    int w = threadIdx.x / warpSize;
    unsigned m = __ballot_sync(__activemask(), lane & 1);
    out[threadIdx.x] = lane + w * warpSize + __popc(m) + __shfl_sync(0xffffffff, lane, warpSize - 1) +
                       __reduce_add_sync(0xffffffff, lane) + (int)__match_any_sync(0xffffffff, lane / 4);
}
