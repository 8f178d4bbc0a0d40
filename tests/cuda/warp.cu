// Warp-level primitives: shuffles, votes, match, reduce and warp sync.
// All kernels assume blockDim.x is a multiple of 32 unless noted.

#include <cuda_runtime.h>

#define FULL 0xffffffffu

// Broadcast lane `src` of each warp; also a width-8 broadcast of lane 3 of
// each 8-lane segment.
extern "C" __global__ void shfl_broadcast(const int *in, int *out, int src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int a = __shfl_sync(FULL, v, src);
    int b = __shfl_sync(FULL, v, 3, 8);
    float f = __shfl_sync(FULL, (float)v * 0.5f, (threadIdx.x + 1) & 31);
    if (i < n) {
        out[3 * i + 0] = a;
        out[3 * i + 1] = b;
        out[3 * i + 2] = (int)f;
    }
}

// Inclusive warp scan with __shfl_up_sync.
extern "C" __global__ void shfl_up_scan(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = (i < n) ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(FULL, v, d);
        if (lane >= d)
            v += t;
    }
    if (i < n)
        out[i] = v;
}

// Segmented scan with width 16 (two independent halves per warp).
extern "C" __global__ void shfl_up_scan16(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 15;
    float v = (i < n) ? in[i] : 0.0f;
    for (int d = 1; d < 16; d <<= 1) {
        float t = __shfl_up_sync(FULL, v, d, 16);
        if (lane >= d)
            v += t;
    }
    if (i < n)
        out[i] = v;
}

// Warp reduction with __shfl_down_sync (int and double).
extern "C" __global__ void shfl_down_reduce(const int *in, const double *din, int *out, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    double d = (i < n) ? din[i] : 0.0;
    for (int off = 16; off > 0; off >>= 1) {
        v += __shfl_down_sync(FULL, v, off);
        d += __shfl_down_sync(FULL, d, off);
    }
    if ((threadIdx.x & 31) == 0) {
        out[i >> 5] = v;
        dout[i >> 5] = d;
    }
}

// Butterfly all-reduce with __shfl_xor_sync, full width and width 4.
extern "C" __global__ void shfl_xor_allreduce(const float *in, float *out_max, float *out_sum4, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : -3.0e38f;
    float m = v;
    for (int mask = 16; mask > 0; mask >>= 1)
        m = fmaxf(m, __shfl_xor_sync(FULL, m, mask));
    float s = (i < n) ? in[i] : 0.0f;
    for (int mask = 2; mask > 0; mask >>= 1)
        s += __shfl_xor_sync(FULL, s, mask, 4);
    if (i < n) {
        out_max[i] = m;
        out_sum4[i] = s;
    }
}

// 64-bit shuffles (long long, unsigned long long) are split into two 32-bit shuffles.
extern "C" __global__ void shfl_64bit(const long long *in, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long v = (i < n) ? in[i] : 0;
    long long r = __shfl_xor_sync(FULL, v, 1);
    unsigned long long u = __shfl_down_sync(FULL, (unsigned long long)v, 2);
    if (i < n)
        out[i] = r + (long long)u;
}

// Votes: ballot, all, any and the popc of the ballot.
extern "C" __global__ void votes(const int *in, unsigned *ballots, int *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    unsigned b = __ballot_sync(FULL, v > 0);
    int all = __all_sync(FULL, v != 0);
    int any = __any_sync(FULL, v < 0);
    int cnt = __popc(b);
    int lane = threadIdx.x & 31;
    int rank = __popc(b & ((1u << lane) - 1u));   // rank among positive lanes
    if (lane == 0) {
        ballots[i >> 5] = b;
        flags[(i >> 5) * 3 + 0] = all;
        flags[(i >> 5) * 3 + 1] = any;
        flags[(i >> 5) * 3 + 2] = cnt;
    }
    if (i < n && v > 0)
        flags[n + i] = rank;
}

// Votes under divergence: lanes with even index take one branch and use
// __activemask() for their mask.  Under the usual SIMT model the mask is
// the even (resp. odd) in-range lanes of the warp, e.g. 0x55555555 for a
// full warp; the ballot/any results are then fully determined.
extern "C" __global__ void votes_divergent(const int *in, unsigned *masks, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    if ((threadIdx.x & 1) == 0) {
        unsigned m = __activemask();
        unsigned b = __ballot_sync(m, v & 1);
        masks[2 * i] = m;
        masks[2 * i + 1] = b;
    } else {
        unsigned m = __activemask();
        masks[2 * i] = m;
        masks[2 * i + 1] = __any_sync(m, v > 100) ? 1u : 0u;
    }
}

// __match_any_sync / __match_all_sync: group lanes with equal keys.
extern "C" __global__ void match_keys(const int *keys, const long long *keys64, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = (i < n) ? keys[i] : -1;
    long long k64 = (i < n) ? keys64[i] : -1;
    unsigned peers = __match_any_sync(FULL, k);
    unsigned peers64 = __match_any_sync(FULL, k64);
    int pred = 0, pred64 = 0;
    unsigned allm = __match_all_sync(FULL, k, &pred);
    unsigned allm64 = __match_all_sync(FULL, k64, &pred64);
    // leader of each group: lowest set lane
    int leader = __ffs(peers) - 1;
    if (i < n) {
        out[4 * i + 0] = peers;
        out[4 * i + 1] = peers64;
        out[4 * i + 2] = allm | (unsigned)pred;
        out[4 * i + 3] = (allm64 ^ (unsigned)pred64) + (unsigned)leader;
    }
}

// Warp reduce intrinsics (redux.sync).
extern "C" __global__ void warp_reduce_intrinsics(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    unsigned u = (unsigned)v;
    int sadd = __reduce_add_sync(FULL, v);
    unsigned uadd = __reduce_add_sync(FULL, u * 3u);
    int smin = __reduce_min_sync(FULL, v);
    int smax = __reduce_max_sync(FULL, v);
    unsigned umin = __reduce_min_sync(FULL, u);
    unsigned umax = __reduce_max_sync(FULL, u);
    unsigned a = __reduce_and_sync(FULL, u);
    unsigned o = __reduce_or_sync(FULL, u);
    unsigned x = __reduce_xor_sync(FULL, u);
    if ((threadIdx.x & 31) == 0) {
        int *p = out + (i >> 5) * 9;
        p[0] = sadd; p[1] = (int)uadd; p[2] = smin; p[3] = smax;
        p[4] = (int)umin; p[5] = (int)umax; p[6] = (int)a; p[7] = (int)o; p[8] = (int)x;
    }
}

// Block reduction: warp shuffle reduce, then first warp reduces the partials.
extern "C" __global__ void block_reduce_shfl(const float *in, float *out, int n)
{
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    float v = (i < n) ? in[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    if (lane == 0)
        partial[wid] = v;
    __syncthreads();
    int nwarps = (blockDim.x + 31) >> 5;
    if (wid == 0) {
        v = (lane < nwarps) ? partial[lane] : 0.0f;
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(FULL, v, off);
        if (lane == 0)
            out[blockIdx.x] = v;
    }
}

// __syncwarp between shared-memory phases inside a warp (warp-synchronous
// programming made legal), plus a partial-mask __syncwarp.
extern "C" __global__ void syncwarp_phases(const int *in, int *out, int n)
{
    __shared__ int s[64];     // blockDim.x == 64
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0;
    __syncwarp();
    int lane = t & 31;
    int base = t & ~31;
    int v = s[base + ((lane + 1) & 31)];
    __syncwarp();
    s[t] = v * 2;
    __syncwarp();
    if (lane < 16) {
        int w = s[base + lane + 16];
        __syncwarp(0x0000ffffu);
        s[base + lane] += w;
        __syncwarp(0x0000ffffu);
    }
    __syncwarp();
    if (i < n)
        out[i] = s[t];
}

// Warp-aggregated atomic: the mask of participating lanes comes from a
// ballot taken before the branch (deterministic), the leader performs one
// atomicAdd for the whole warp.  slot[i] receives base + rank; since warps
// may reach the atomic in any order, only rank (the low part) is
// deterministic, so the kernel stores the rank and the per-warp total, and
// the global counter is the (order-independent) total count.
extern "C" __global__ void warp_aggregated_atomic(const int *in, int *counter, int *rank_out,
                                                  int *warp_total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pred = (i < n) && in[i] > 0;
    unsigned active = __ballot_sync(FULL, pred);
    if (pred) {
        int leader = __ffs(active) - 1;
        int lane = threadIdx.x & 31;
        int total = __popc(active);
        int base = 0;
        if (lane == leader)
            base = atomicAdd(counter, total);
        base = __shfl_sync(active, base, leader);
        (void)base;
        rank_out[i] = __popc(active & ((1u << lane) - 1u));
        if (lane == leader)
            warp_total[i >> 5] = total;
    }
}

// Lane id / warp id special registers read through inline PTX, as some
// libraries do.
extern "C" __global__ void lane_warp_ids(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane, lt, le, gt, ge, eq;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    if (i < n) {
        out[6 * i + 0] = lane;
        out[6 * i + 1] = lt;
        out[6 * i + 2] = le;
        out[6 * i + 3] = gt;
        out[6 * i + 4] = ge;
        out[6 * i + 5] = eq;
    }
}
