// Thread-block clusters (sm_90): the cluster registers, distributed shared
// memory through cooperative groups, barrier.cluster, and cluster-scope
// atomics on another CTA's shared memory.  Driven by tests/t_devrt.c.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// ids[8 * t ...]: what each thread sees of its cluster.
extern "C" __global__ void __cluster_dims__(2, 2, 1) cluster_ids(unsigned *ids)
{
    cg::cluster_group cl = cg::this_cluster();
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned t = b * blockDim.x + threadIdx.x;
    unsigned *o = ids + 8 * t;
    o[0] = cl.block_rank();
    o[1] = cl.num_blocks();
    o[2] = cl.block_index().x;
    o[3] = cl.block_index().y;
    o[4] = cl.dim_blocks().x;
    o[5] = cl.dim_blocks().y;
    unsigned cid;
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    o[6] = cid;
    unsigned ex;
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(ex));
    o[7] = ex;
}

// Each CTA fills its shared array with its rank's values; after the
// cluster barrier, each thread reads the next CTA's array (rank + 1 mod n)
// and adds into rank 0's counter with a shared-memory atomic.
extern "C" __global__ void cluster_ring(const int *in, int *out, int *sums)
{
    __shared__ int buf[128];
    __shared__ int total;
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank(), n = cl.num_blocks();
    unsigned b = blockIdx.x;
    if (threadIdx.x == 0)
        total = 0;
    buf[threadIdx.x] = in[b * blockDim.x + threadIdx.x];
    cl.sync();
    int *next = cl.map_shared_rank(buf, (rank + 1) % n);
    int v = next[threadIdx.x];
    out[b * blockDim.x + threadIdx.x] = v;
    int *t0 = cl.map_shared_rank(&total, 0);
    atomicAdd(t0, v);
    cl.sync();
    if (rank == 0 && threadIdx.x == 0)
        sums[b / n] = total;
}

// Reads the shared memory of CTA rank `rank` (out of range on purpose in
// the tests of faults).
extern "C" __global__ void cluster_peek(int *out, unsigned rank)
{
    __shared__ int buf[32];
    cg::cluster_group cl = cg::this_cluster();
    buf[threadIdx.x] = threadIdx.x;
    cl.sync();
    out[threadIdx.x] = *cl.map_shared_rank(buf + threadIdx.x, rank);
    cl.sync();
}
