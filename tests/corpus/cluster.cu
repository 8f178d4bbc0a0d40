// Thread-block clusters: __cluster_dims__, the cluster group, distributed
// shared memory through map_shared_rank, cluster barriers.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_histogram(const int *in, int *out, int bins)
{
    extern __shared__ int smem[];
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    for (int i = threadIdx.x; i < bins; i += blockDim.x)
        smem[i] = 0;
    cl.sync();
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int *dst = cl.map_shared_rank(smem, (v / bins) % cl.num_blocks());
    atomicAdd(dst + v % bins, 1);
    cl.sync();
    for (int i = threadIdx.x; i < bins; i += blockDim.x)
        atomicAdd(&out[i], smem[i]);
    if (threadIdx.x == 0)
        out[bins + rank] = cl.dim_blocks().x + cl.block_index().x + cl.num_threads() + cl.thread_rank();
}

__global__ void __cluster_dims__(2, 2, 1) cluster_split(float *out)
{
    __shared__ float s[64];
    cg::cluster_group cl = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x + cl.block_rank();
    cl.barrier_wait(cl.barrier_arrive());
    float *peer = cl.map_shared_rank(s, (cl.block_rank() + 1) % 4);
    out[blockIdx.x * 64 + threadIdx.x] = peer[63 - threadIdx.x] + cl.query_shared_rank(peer);
    cl.sync();
}
