// tmreplace.sm_90a.cu: tensormap.replace (sm_90a) as CUDA C++ reaches it,
// through cuda::ptx::tensormap_replace_*: a kernel rewrites fields of a
// tensor map in global memory, or in a copy in shared memory that it then
// writes to global memory (by stores or tensormap.cp_fenceproxy), fences
// the tensormap proxy and loads a box with
// the map by cp.async.bulk.tensor.  t_tma.c says which fields and values,
// and checks the box against a CPU model of the tensor it described.
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace ptx = cuda::ptx;
using barrier = cuda::barrier<cuda::thread_scope_block>;

// Which fields a kernel replaces, and with what.  The dimension fields
// are replaced at every ordinal (0 to 4; global_stride 0 to 3), as
// CUTLASS replaces them, whatever the rank.
enum {
    R_ADDR = 1, R_RANK = 2, R_BOX = 4, R_GDIM = 8, R_GSTRIDE = 16, R_ESTRIDE = 32, R_ELEMTYPE = 64,
    R_INTERLEAVE = 128, R_SWIZZLE = 256, R_FILL = 512,
    R_GSTRIDE4 = 1024,  // global_stride at ordinal 4 (no such stride: the launch fails)
};
struct Rep {
    unsigned long long addr, gstride[4];
    unsigned gdim[5], box[5], estride[5];
    int rank_m1, elemtype, interleave, swizzle, fill;
    unsigned mask;
};
struct Coords { int c[5]; };

template <int N, class S> __device__ void replace_dim(S sp, void *tm, const Rep &r)
{
    if (r.mask & R_BOX)
        ptx::tensormap_replace_box_dim(sp, tm, ptx::n32_t<N>{}, r.box[N]);
    if (r.mask & R_GDIM)
        ptx::tensormap_replace_global_dim(sp, tm, ptx::n32_t<N>{}, r.gdim[N]);
    if constexpr (N < 4) {
        if (r.mask & R_GSTRIDE)
            ptx::tensormap_replace_global_stride(sp, tm, ptx::n32_t<N>{}, r.gstride[N]);
    } else {
        if (r.mask & R_GSTRIDE4)
            ptx::tensormap_replace_global_stride(sp, tm, ptx::n32_t<4>{}, r.gstride[0]);
    }
    if (r.mask & R_ESTRIDE)
        ptx::tensormap_replace_element_size(sp, tm, ptx::n32_t<N>{}, r.estride[N]);
}

// The enumerated fields take immediates: one instruction per value.
#define CASE(F, V) case V: ptx::tensormap_replace_##F(sp, tm, ptx::n32_t<V>{}); break

template <class S> __device__ void replace(S sp, void *tm, const Rep &r)
{
    if (r.mask & R_ADDR)
        ptx::tensormap_replace_global_address(sp, tm, r.addr);
    if (r.mask & R_RANK)
        ptx::tensormap_replace_rank(sp, tm, r.rank_m1);
    replace_dim<0>(sp, tm, r);
    replace_dim<1>(sp, tm, r);
    replace_dim<2>(sp, tm, r);
    replace_dim<3>(sp, tm, r);
    replace_dim<4>(sp, tm, r);
    if (r.mask & R_ELEMTYPE)
        switch (r.elemtype) {
        CASE(elemtype, 0); CASE(elemtype, 1); CASE(elemtype, 2); CASE(elemtype, 3); CASE(elemtype, 4);
        CASE(elemtype, 5); CASE(elemtype, 6); CASE(elemtype, 7); CASE(elemtype, 8); CASE(elemtype, 9);
        CASE(elemtype, 10); CASE(elemtype, 11); CASE(elemtype, 12);
        }
    if (r.mask & R_INTERLEAVE)
        switch (r.interleave) {
        CASE(interleave_layout, 0); CASE(interleave_layout, 1); CASE(interleave_layout, 2);
        }
    if (r.mask & R_SWIZZLE)
        switch (r.swizzle) {
        CASE(swizzle_mode, 0); CASE(swizzle_mode, 1); CASE(swizzle_mode, 2); CASE(swizzle_mode, 3);
        }
    if (r.mask & R_FILL)
        switch (r.fill) {
        CASE(fill_mode, 0); CASE(fill_mode, 1);
        }
}

#define BOX_BYTES 16384

// Loads the box at c[0..rank) of the map at tm (global memory) into
// shared memory (1024-byte aligned: the swizzle pattern starts at its
// first byte) and copies its `bytes` bytes to out.
__device__ void load_box(const CUtensorMap *tm, int rank, const int *c, unsigned bytes, unsigned char *out)
{
    __shared__ alignas(1024) unsigned char box[BOX_BYTES];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    barrier::arrival_token tok;
    if (threadIdx.x == 0) {
        // the map was written through the generic proxy: make it visible to the tensormap proxy
        ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, tm, ptx::n32_t<128>{});
        uint64_t *mb = cuda::device::barrier_native_handle(bar);
        switch (rank) {
        case 1: { int32_t k[1] = { c[0] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        case 2: { int32_t k[2] = { c[0], c[1] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        case 3: { int32_t k[3] = { c[0], c[1], c[2] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        case 4: { int32_t k[4] = { c[0], c[1], c[2], c[3] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        default: { int32_t k[5] = { c[0], c[1], c[2], c[3], c[4] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        }
        tok = cuda::device::barrier_arrive_tx(bar, 1, bytes);
    } else {
        tok = bar.arrive();
    }
    bar.wait(cuda::std::move(tok));
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        out[i] = box[i];
}

// Replaces fields of the map at tm in place (.global), then loads with it.
extern "C" __global__ void tmr_global(CUtensorMap *tm, Rep r, int rank, Coords c, unsigned bytes, unsigned char *out)
{
    if (threadIdx.x == 0) {
        replace(ptx::space_global, tm, r);
        ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
    }
    __syncthreads();
    load_box(tm, rank, c.c, bytes, out);
}

// Copies *src to shared memory, replaces fields there (.shared::cta),
// writes the result to *dst (with stores, or with cp the first warp's
// tensormap.cp_fenceproxy), then loads with dst.
extern "C" __global__ void tmr_shared(const CUtensorMap *src, CUtensorMap *dst, Rep r, int rank, Coords c,
                                      unsigned bytes, unsigned char *out, int cp)
{
    __shared__ alignas(128) CUtensorMap sm;
    if (threadIdx.x == 0) {
        sm = *src;
        replace(ptx::space_shared, &sm, r);
        if (!cp) {
            *dst = sm;
            ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu);
        }
    }
    __syncthreads();
    if (cp && threadIdx.x < 32)
        ptx::tensormap_cp_fenceproxy(ptx::sem_release, ptx::scope_gpu, dst, &sm, ptx::n32_t<128>{});
    __syncthreads();
    load_box(dst, rank, c.c, bytes, out);
}
