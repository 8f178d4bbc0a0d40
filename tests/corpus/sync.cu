// libcu++ synchronization: cuda::atomic and atomic_ref at every scope,
#pragma nv_diag_suppress static_var_with_dynamic_init
// cuda::barrier with memcpy_async, cuda::pipeline, the cuda_pipeline.h and
// cuda_awbarrier.h primitives, cuda::latch and semaphores.
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/latch>
#include <cuda/semaphore>
#include <cuda_pipeline.h>
#include <cuda_awbarrier_primitives.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void atomics(int *p, unsigned long long *q, float *f, double *d)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> a(p[0]);
    cuda::atomic_ref<int, cuda::thread_scope_block> b(p[1]);
    cuda::atomic_ref<int, cuda::thread_scope_system> s(p[2]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> u(q[0]);
    cuda::atomic_ref<float, cuda::thread_scope_device> fa(f[0]);
    cuda::atomic_ref<double, cuda::thread_scope_block> da(d[0]);
    int x = a.fetch_add(1, cuda::memory_order_relaxed) + b.fetch_sub(2, cuda::memory_order_acquire) +
            s.fetch_and(3, cuda::memory_order_release) + a.fetch_or(4) + b.fetch_xor(5, cuda::memory_order_acq_rel) +
            a.fetch_min(6) + s.fetch_max(7) + a.exchange(8) + b.load(cuda::memory_order_seq_cst);
    int e = 1;
    a.compare_exchange_strong(e, x, cuda::memory_order_acq_rel);
    b.compare_exchange_weak(e, x, cuda::memory_order_relaxed);
    u.fetch_add(x);
    u.fetch_max(3ull);
    fa.fetch_add(1.5f);
    fa.fetch_min(0.5f);
    da.fetch_add(2.0);
    s.store(x, cuda::memory_order_release);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
    __shared__ cuda::atomic<int, cuda::thread_scope_block> sh;
    if (threadIdx.x == 0)
        sh.store(0);
    __syncthreads();
    sh.fetch_add(1);
    __syncthreads();
    b.wait(0);
    if (threadIdx.x == 0)
        p[3] = sh.load() + (int)u.load();
}

__global__ void barrier_copy(const float *in, float *out)
{
    __shared__ float s[512];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, s, in + blockIdx.x * 512, sizeof(s), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 512 + threadIdx.x] = s[511 - threadIdx.x];
    auto t = bar.arrive();
    bar.wait(cuda::std::move(t));
    cuda::memcpy_async(s + threadIdx.x, in + threadIdx.x, cuda::aligned_size_t<4>(4), bar);
    bar.arrive_and_drop();
}

__global__ void pipeline_stages(const int *in, int *out, int n)
{
    __shared__ int buf[2][128];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int sum = 0;
    for (int k = 0; k < n; k++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[k & 1], in + k * 128, sizeof(int) * 128, pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        sum += buf[k & 1][threadIdx.x];
        pipe.consumer_release();
    }
    out[threadIdx.x] = sum;
}

__global__ void thread_pipeline(const int4 *in, int4 *out)
{
    __shared__ int4 s[128];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int4), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    out[threadIdx.x] = s[threadIdx.x];
    pipe.consumer_release();
}

__global__ void primitives(const int *in, int *out)
{
    __shared__ int s[256];
    __shared__ __mbarrier_t bar;
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    if (threadIdx.x == 0)
        __mbarrier_init(&bar, blockDim.x);
    __syncthreads();
    __mbarrier_token_t t = __mbarrier_arrive(&bar);
    while (!__mbarrier_test_wait(&bar, t))
        ;
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}

__global__ void latch_semaphore(int *out)
{
    using L = cuda::latch<cuda::thread_scope_block>;
    using S = cuda::binary_semaphore<cuda::thread_scope_block>;
    __shared__ alignas(L) unsigned char lm[sizeof(L)];
    __shared__ alignas(S) unsigned char sm[sizeof(S)];
    L *l = reinterpret_cast<L *>(lm);
    S *sem = reinterpret_cast<S *>(sm);
    if (threadIdx.x == 0) {
        new (l) L(blockDim.x);
        new (sem) S(1);
    }
    __syncthreads();
    l->arrive_and_wait();
    sem->acquire();
    out[0] += 1;
    sem->release();
}
