// Atomic-operation kernels.
//
// Determinism: every kernel either uses commutative/associative integer
// operations, float additions of exactly representable small integers (so
// order does not matter), or has each thread touch its own address.  Where
// the returned "old" value is stored it is only stored when it is order-
// independent (single thread per address, or a CAS-loop that always ends
// the same way).

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>

// ---------------------------------------------------------------------------
// atomicAdd for every supported type
// ---------------------------------------------------------------------------

// Sum of in[] into acc[0] (int), acc[1] (unsigned), with per-thread old values
// written to a private slot of a second counter (each thread adds to its own).
extern "C" __global__ void atomic_add_int(const int *in, int *sum_i, unsigned *sum_u,
                                          int *own, int *old_own, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(sum_i, in[i]);
        atomicAdd(sum_u, (unsigned)in[i] * 3u);
        old_own[i] = atomicAdd(&own[i], i);   // private address: old is deterministic
    }
}

extern "C" __global__ void atomic_add_u64(const unsigned *in, unsigned long long *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(sum, (unsigned long long)in[i] << 20);
}

// Float and double sums of small integers are exact, so order does not matter.
extern "C" __global__ void atomic_add_float_double(const int *in, float *sf, double *sd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(sf, (float)in[i]);
        atomicAdd(sd, (double)in[i] * 0.5);
    }
}

// Half-precision adds of small integer values (exact in fp16/bf16).
extern "C" __global__ void atomic_add_half(const int *in, __half *h, __half2 *h2,
                                           __nv_bfloat16 *b, __nv_bfloat162 *b2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i] & 7;
        atomicAdd(h, __int2half_rn(v));
        atomicAdd(h2, __halves2half2(__int2half_rn(v), __int2half_rn(-v)));
        atomicAdd(b, __int2bfloat16_rn(v));
        atomicAdd(b2, __halves2bfloat162(__int2bfloat16_rn(1), __int2bfloat16_rn(v)));
    }
}

// sm_90 vector float atomics: float2 and float4.
extern "C" __global__ void atomic_add_float_vec(const int *in, float2 *a2, float4 *a4, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = (float)in[i];
        atomicAdd(a2, make_float2(v, 1.0f));
        atomicAdd(a4, make_float4(v, 2.0f * v, -v, 1.0f));
    }
}

// ---------------------------------------------------------------------------
// Sub / Exch / Min / Max / Inc / Dec
// ---------------------------------------------------------------------------

extern "C" __global__ void atomic_sub(const int *in, int *ci, unsigned *cu, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicSub(ci, in[i]);
        atomicSub(cu, (unsigned)(in[i] & 0xff));
    }
}

// Each thread exchanges its own slot (old value deterministic).
extern "C" __global__ void atomic_exch(int *pi, unsigned *pu, unsigned long long *pull, float *pf,
                                       int *oi, unsigned *ou, unsigned long long *oull, float *of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        oi[i] = atomicExch(&pi[i], -i);
        ou[i] = atomicExch(&pu[i], (unsigned)i * 7u);
        oull[i] = atomicExch(&pull[i], 0x100000000ull * (unsigned long long)i + 1ull);
        of[i] = atomicExch(&pf[i], (float)i * 0.25f);
    }
}

extern "C" __global__ void atomic_minmax(const long long *in, int *mn_i, int *mx_i,
                                         unsigned *mn_u, unsigned *mx_u,
                                         long long *mn_ll, long long *mx_ll,
                                         unsigned long long *mn_ull, unsigned long long *mx_ull, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long v = in[i];
        atomicMin(mn_i, (int)v);
        atomicMax(mx_i, (int)v);
        atomicMin(mn_u, (unsigned)v);
        atomicMax(mx_u, (unsigned)v);
        atomicMin(mn_ll, v);
        atomicMax(mx_ll, v);
        atomicMin(mn_ull, (unsigned long long)v);
        atomicMax(mx_ull, (unsigned long long)v);
    }
}

// Wrapping counters: inc wraps to 0 after `limit`, dec wraps to `limit`.
extern "C" __global__ void atomic_inc_dec(unsigned *inc_ctr, unsigned *dec_ctr, unsigned limit, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicInc(inc_ctr, limit);
        atomicDec(dec_ctr, limit);
    }
}

// ---------------------------------------------------------------------------
// CAS
// ---------------------------------------------------------------------------

// Emulated atomic multiply via a CAS loop (product of +-1 values and 2's is exact).
__device__ int atomic_mul_int(int *addr, int v)
{
    int old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed * v);
    } while (old != assumed);
    return old;
}

// Double max via 64-bit CAS (classic pattern).
__device__ double atomic_max_double(double *addr, double v)
{
    unsigned long long *p = (unsigned long long *)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        if (__longlong_as_double(assumed) >= v)
            break;
        old = atomicCAS(p, assumed, (unsigned long long)__double_as_longlong(v));
    } while (old != assumed);
    return __longlong_as_double(old);
}

extern "C" __global__ void atomic_cas_loops(const int *in, int *prod, double *dmax, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomic_mul_int(prod, (in[i] & 1) ? -1 : 1);
        atomic_max_double(dmax, (double)in[i] * 1.5);
    }
}

// Claim slots: first thread to CAS 0 -> id wins; every winner is deterministic
// because each thread targets its own slot (slot i / 2 for unsigned, own for others).
extern "C" __global__ void atomic_cas_types(unsigned *pu, unsigned long long *pull, unsigned short *ps,
                                            int *pi, int *res, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned a = atomicCAS(&pu[i], 0u, (unsigned)i + 1u);
        unsigned long long b = atomicCAS(&pull[i], 0ull, (unsigned long long)i << 33);
        unsigned short c = atomicCAS(&ps[i], (unsigned short)5, (unsigned short)(i + 100));
        int d = atomicCAS(&pi[i], i, -i);
        res[i] = (int)a + (int)(b >> 33) + (int)c + d;
    }
}

// ---------------------------------------------------------------------------
// Bitwise
// ---------------------------------------------------------------------------

extern "C" __global__ void atomic_bitwise(const unsigned *in, int *ai, unsigned *au,
                                          unsigned long long *aull, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = in[i];
        atomicAnd(&ai[0], (int)~(1u << (i & 31)));
        atomicOr(&ai[1], (int)(1u << (i & 31)));
        atomicXor(&ai[2], (int)v);
        atomicAnd(&au[0], v | 0x0f0f0f0fu);
        atomicOr(&au[1], v & 0xf0u);
        atomicXor(&au[2], v * 2654435761u);
        atomicAnd(&aull[0], ~(1ull << (i & 63)));
        atomicOr(&aull[1], 1ull << (i & 63));
        atomicXor(&aull[2], (unsigned long long)v << 16);
    }
}

// ---------------------------------------------------------------------------
// Scoped variants (_block / _system)
// ---------------------------------------------------------------------------

extern "C" __global__ void atomic_scoped(const int *in, int *blk, int *sys, unsigned long long *u64,
                                         float *f, unsigned *u, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        atomicAdd_block(&blk[blockIdx.x], v);
        atomicAdd_system(&sys[0], v);
        atomicMax_block(&blk[gridDim.x + blockIdx.x], v);
        atomicMin_system(&sys[1], v);
        atomicOr_block(&u[0], 1u << (threadIdx.x & 31));
        atomicAnd_system(&u[1], ~(1u << (threadIdx.x & 31)));
        atomicXor_block(&u[2], (unsigned)v);
        atomicInc_block(&u[3], 1000u);
        atomicDec_system(&u[4], 1000u);
        atomicAdd_block(&u64[0], 1ull);
        atomicAdd_system(&u64[1], (unsigned long long)v);
        atomicAdd_block(f, 1.0f);
        atomicAdd_system(f + 1, 2.0f);
        atomicExch_block(&u[5 + (i & 1)], 0u);          // all threads store 0: deterministic
        atomicCAS_system(&sys[2], 0, 1);                 // first wins, value is 1 regardless
        atomicCAS_block(&blk[2 * gridDim.x + blockIdx.x], 0, 7);
        atomicSub(&sys[3], 1);
    }
}

// ---------------------------------------------------------------------------
// 128-bit atomics (sm_90)
// ---------------------------------------------------------------------------

struct __align__(16) pair128 {
    unsigned long long lo, hi;
};

// Each thread owns one 128-bit slot: CAS it from {0,0} to {i, ~i} then exchange.
extern "C" __global__ void atomic_128(pair128 *slots, pair128 *olds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        pair128 zero = {0ull, 0ull};
        pair128 want = {(unsigned long long)i, ~(unsigned long long)i};
        pair128 got = atomicCAS(&slots[i], zero, want);
        pair128 next = {got.lo + 1ull, got.hi};
        pair128 prev = atomicExch(&slots[i], next);
        olds[i].lo = prev.lo ^ got.lo;
        olds[i].hi = prev.hi ^ got.hi;
    }
}

// ---------------------------------------------------------------------------
// Shared-memory atomics and histogram
// ---------------------------------------------------------------------------

// 256-bin histogram of bytes: privatized per block in shared memory, then
// merged into the global histogram.
extern "C" __global__ void histogram256(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b])
            atomicAdd(&hist[b], local[b]);
}

// Shared-memory atomics of several kinds; results written once per block.
extern "C" __global__ void atomic_shared_mix(const int *in, int *out, int n)
{
    __shared__ int s_sum, s_min, s_max, s_or, s_cnt;
    __shared__ unsigned long long s_u64;
    __shared__ float s_f;
    if (threadIdx.x == 0) {
        s_sum = 0; s_min = 0x7fffffff; s_max = (int)0x80000000; s_or = 0; s_cnt = 0;
        s_u64 = 0; s_f = 0.0f;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        atomicAdd(&s_sum, v);
        atomicMin(&s_min, v);
        atomicMax(&s_max, v);
        atomicOr(&s_or, v);
        atomicInc((unsigned *)&s_cnt, 0xffffffffu);
        atomicAdd(&s_u64, (unsigned long long)(unsigned)v);
        atomicAdd(&s_f, (float)(v & 15));
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int *o = out + blockIdx.x * 8;
        o[0] = s_sum; o[1] = s_min; o[2] = s_max; o[3] = s_or; o[4] = s_cnt;
        o[5] = (int)s_u64; o[6] = (int)(s_u64 >> 32); o[7] = (int)s_f;
    }
}

// Stream compaction with an atomic counter in shared memory; the order of
// survivors inside a block is not deterministic, so only the count and the
// sum of survivors are output.
extern "C" __global__ void compact_count(const int *in, int *count, long long *sum, int threshold, int n)
{
    __shared__ int s_count;
    if (threadIdx.x == 0) s_count = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > threshold) {
        atomicAdd(&s_count, 1);
        atomicAdd((unsigned long long *)sum, (unsigned long long)(long long)in[i]);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(count, s_count);
}

// ---------------------------------------------------------------------------
// cuda::atomic_ref with explicit memory orders and scopes
// ---------------------------------------------------------------------------

extern "C" __global__ void atomic_ref_orders(int *counter, int *flags, unsigned long long *u64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
        c.fetch_add(1, cuda::std::memory_order_relaxed);
        c.fetch_add(2, cuda::std::memory_order_release);
        c.fetch_sub(1, cuda::std::memory_order_acquire);
        c.fetch_add(1, cuda::std::memory_order_acq_rel);
        c.fetch_sub(1, cuda::std::memory_order_seq_cst);

        // flags[2b] collects bits, flags[2b+1] the max index (separate words so
        // the result does not depend on the order of the two kinds of update)
        cuda::atomic_ref<int, cuda::thread_scope_block> f(flags[2 * blockIdx.x]);
        f.fetch_or(1 << (threadIdx.x & 31), cuda::std::memory_order_relaxed);
        cuda::atomic_ref<int, cuda::thread_scope_block> g(flags[2 * blockIdx.x + 1]);
        g.fetch_max(i, cuda::std::memory_order_acq_rel);

        cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> u(*u64);
        u.fetch_add(1ull, cuda::std::memory_order_acq_rel);
        u.fetch_min(~0ull, cuda::std::memory_order_relaxed);
    }
}

// Message passing: thread 0 of each block publishes data with a release
// store; thread 32 (another warp, so blockDim.x must be > 32) spins with
// acquire loads.  Data is
// written before the flag, so the reader always sees it.
extern "C" __global__ void atomic_ref_message(int *data, int *flag, int *out)
{
    int b = blockIdx.x;
    if (threadIdx.x == 0) {
        data[b] = 1000 + b;
        cuda::atomic_ref<int, cuda::thread_scope_device> fl(flag[b]);
        fl.store(1, cuda::std::memory_order_release);
    } else if (threadIdx.x == 32) {
        cuda::atomic_ref<int, cuda::thread_scope_device> fl(flag[b]);
        while (fl.load(cuda::std::memory_order_acquire) == 0) { }
        out[b] = data[b];
    }
}

// exchange / compare_exchange via atomic_ref on private slots.
extern "C" __global__ void atomic_ref_exchange(int *slots, int *res, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cuda::atomic_ref<int, cuda::thread_scope_device> s(slots[i]);
        int old = s.exchange(i * 2, cuda::std::memory_order_acq_rel);
        int expected = i * 2;
        bool ok = s.compare_exchange_strong(expected, old + 1, cuda::std::memory_order_seq_cst);
        res[i] = ok ? old : -1;
    }
}

// ---------------------------------------------------------------------------
// Compiler builtins with explicit order and scope (CUDA 12.8+)
// ---------------------------------------------------------------------------

extern "C" __global__ void nv_atomic_builtins(int *ctr, int *buf, unsigned *ubuf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_atomic_fetch_add(ctr, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
        __nv_atomic_fetch_or(&ubuf[0], 1u << (i & 31), __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
        __nv_atomic_fetch_and(&ubuf[1], ~(1u << (i & 31)), __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_SYSTEM);
        __nv_atomic_fetch_max(&buf[0], i, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
        __nv_atomic_fetch_min(&buf[1], -i, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
        __nv_atomic_store_n(&buf[2 + i], i * 3, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
        int v = __nv_atomic_load_n(&buf[2 + i], __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
        __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
        __nv_atomic_store_n(&buf[2 + n + i], v + 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM);
    }
}

// ---------------------------------------------------------------------------
// Reductions without a return value (red.*), as written by libraries
// that reduce into global memory with inline PTX.
// ---------------------------------------------------------------------------

extern "C" __global__ void red_inline(const int *in, unsigned *u, float *f, unsigned long long *u64,
                                      __half2 *h2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        asm volatile("red.global.add.u32 [%0], %1;" ::"l"(u), "r"((unsigned)v) : "memory");
        asm volatile("red.relaxed.gpu.global.max.u32 [%0], %1;" ::"l"(u + 1), "r"((unsigned)v) : "memory");
        asm volatile("red.global.or.b32 [%0], %1;" ::"l"(u + 2), "r"(1u << (i & 31)) : "memory");
        asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(u64), "l"((unsigned long long)v) : "memory");
        asm volatile("red.global.add.f32 [%0], %1;" ::"l"(f), "f"((float)(v & 255)) : "memory");
        __half2 one = __halves2half2(__int2half_rn(1), __int2half_rn(v & 3));
        asm volatile("red.global.add.noftz.f16x2 [%0], %1;" ::"l"(h2), "r"(*(unsigned *)&one) : "memory");
    }
}
