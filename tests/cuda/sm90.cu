// sm_90 features: thread-block clusters, distributed shared memory,
// cluster special registers, mbarrier-based cuda::barrier, asynchronous
// copies (cp.async / cuda::memcpy_async), launch-bound directives.
//
// Cluster kernels use __cluster_dims__ so no special host launch API is
// needed (a plain <<<grid, block>>> launch with grid divisible by the
// cluster size).

#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

// cuda::barrier has a non-trivial constructor; the documented idiom is to
// declare it __shared__ and initialize it with init() from one thread.
#pragma nv_diag_suppress static_var_with_dynamic_init

// Cluster geometry as seen by each thread.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_info(unsigned *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
    dim3 bi = cluster.block_index();
    dim3 dims = cluster.dim_blocks();
    unsigned *o = out + 8 * gtid;
    o[0] = cluster.block_rank();
    o[1] = cluster.num_blocks();
    o[2] = cluster.thread_rank();
    o[3] = cluster.num_threads();
    o[4] = bi.x;
    o[5] = dims.x;
    o[6] = __clusterIdx().x;
    o[7] = __clusterGridDimInClusters().x;
}

// Raw cluster special registers through inline PTX.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_sregs(unsigned *out)
{
    unsigned ctarank, nctarank, cid, ncid, ctaid, nctaid, is_explicit;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(ctarank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nctarank));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncid));
    asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ctaid));
    asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(nctaid));
    asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }"
        : "=r"(is_explicit));
    if (threadIdx.x == 0) {
        unsigned *o = out + 7 * blockIdx.x;
        o[0] = ctarank; o[1] = nctarank; o[2] = cid; o[3] = ncid;
        o[4] = ctaid; o[5] = nctaid; o[6] = is_explicit;
    }
}

// Distributed shared memory: each block writes its rank into its own shared
// memory, the cluster synchronizes, then each block reads its neighbour's
// shared memory.
extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_exchange(const int *in, int *out, int n)
{
    __shared__ int buf[128];     // blockDim.x == 128
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = (i < n) ? in[i] * 10 + (int)rank : 0;
    cluster.sync();
    unsigned peer = (rank + 1) % cluster.num_blocks();
    int *remote = cluster.map_shared_rank(buf, peer);
    int v = remote[threadIdx.x];
    cluster.sync();              // keep peer shared memory alive until all reads finish
    if (i < n)
        out[i] = v;
}

// Cluster-wide reduction with atomics into block 0's shared memory.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_reduce(const int *in, int *out, int n)
{
    __shared__ int total;
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0)
        total = 0;
    cluster.sync();
    int *leader_total = cluster.map_shared_rank(&total, 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(leader_total, in[i]);
    cluster.sync();
    if (cluster.block_rank() == 0 && threadIdx.x == 0)
        out[blockIdx.x / cluster.num_blocks()] = total;
}

// Split arrive/wait cluster barrier intrinsics, cluster fence, and
// shared-window queries.
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_barrier_split(int *out)
{
    __shared__ int s;
    s = (int)blockIdx.x;
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
    int *peer = (int *)__cluster_map_shared_rank(&s, __clusterRelativeBlockRank() ^ 1u);
    int v = *peer;
    __threadfence_cluster();
    __cluster_barrier_arrive_relaxed();
    __cluster_barrier_wait();
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = v;
        out[3 * blockIdx.x + 1] = (int)__isClusterShared(peer);
        out[3 * blockIdx.x + 2] = (int)__cluster_query_shared_rank(peer);
    }
}

// cuda::barrier (mbarrier) in shared memory: producer/consumer phases.
extern "C" __global__ void mbarrier_phases(const int *in, int *out, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int stage[256];   // blockDim.x <= 256
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    for (int phase = 0; phase < 3; ++phase) {
        stage[threadIdx.x] = ((i < n) ? in[i] : 0) + phase;
        bar.arrive_and_wait();
        acc += stage[(threadIdx.x + 1) % blockDim.x];
        bar.arrive_and_wait();
    }
    if (i < n)
        out[i] = acc;
}

// Split arrive / wait with an arrival token.
extern "C" __global__ void mbarrier_token(const float *in, float *out, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float s[128];     // blockDim.x == 128
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    auto token = bar.arrive();
    float local = (float)threadIdx.x * 0.5f;     // independent work
    bar.wait(std::move(token));
    if (i < n)
        out[i] = s[127 - threadIdx.x] + local;
}

// Asynchronous global->shared copy with cuda::memcpy_async + cuda::barrier.
extern "C" __global__ void memcpy_async_barrier(const float *in, float *out, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ alignas(16) float tile[256];   // blockDim.x == 256
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    int base = blockIdx.x * blockDim.x;
    if (base + (int)blockDim.x <= n) {
        cuda::memcpy_async(&tile[threadIdx.x], &in[base + threadIdx.x], sizeof(float), bar);
        bar.arrive_and_wait();
        out[base + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x] * 2.0f;
    } else {
        int i = base + threadIdx.x;
        bar.arrive_and_wait();
        if (i < n)
            out[i] = in[base + (n - base) - 1 - threadIdx.x] * 2.0f;
    }
}

// cp.async with the pipeline primitives (commit groups / wait).
extern "C" __global__ void cp_async_pipeline(const int4 *in, int4 *out, int n)
{
    __shared__ int4 buf[2][64];   // blockDim.x == 64
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    int cur = 0;
    if (i < n)
        __pipeline_memcpy_async(&buf[cur][threadIdx.x], &in[i], sizeof(int4));
    __pipeline_commit();
    for (int j = i; j < n; j += stride) {
        int nxt = j + stride;
        if (nxt < n)
            __pipeline_memcpy_async(&buf[cur ^ 1][threadIdx.x], &in[nxt], sizeof(int4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        int4 v = buf[cur][threadIdx.x];
        out[j] = make_int4(v.w, v.z, v.y, v.x);
        cur ^= 1;
    }
    __pipeline_wait_prior(0);
}

// __launch_bounds__ (maxntid / minnctapersm) and explicit __maxnreg__.
extern "C" __global__ void __launch_bounds__(256, 2) launch_bounds_kernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i];
}

extern "C" __global__ void __maxnreg__(64) maxnreg_kernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1.0f;
}

// Grid-level special registers (grid id / smid are volatile: not stored),
// 64-bit global timer difference is nonzero-checked only, and %dynamic_smem_size.
extern "C" __global__ void special_regs(unsigned *out)
{
    unsigned dsmem, tsmem, nsmid;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dsmem));
    asm("mov.u32 %0, %%total_smem_size;" : "=r"(tsmem));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    unsigned long long t0 = clock64();
    unsigned long long g0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    unsigned long long t1 = clock64();
    unsigned c = clock();
    (void)c;
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * gtid + 0] = dsmem;
    out[4 * gtid + 1] = (tsmem >= dsmem) ? 1u : 0u;
    out[4 * gtid + 2] = (nsmid > 0) ? 1u : 0u;
    out[4 * gtid + 3] = (t1 >= t0 && g0 != 0) ? 1u : 0u;
}

// Elect one leader per warp (elect.sync) and cluster-scope fence via inline PTX.
extern "C" __global__ void elect_leader(int *out, int n)
{
    unsigned is_leader;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 ".reg .b32 lane;\n\t"
                 "elect.sync lane|p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t"
                 "}" : "=r"(is_leader));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (int)is_leader;
}
