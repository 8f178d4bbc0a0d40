// tma.cu: sm_90's tensor memory accelerator as CUDA C++ reaches it: a
// CUtensorMap made on the host (cuTensorMapEncodeTiled / Im2col) passed as
// a __grid_constant__ parameter or read from global memory, copies by
// cp.async.bulk.tensor in 1 to 5 dimensions through cuda::ptx and the
// programming guide's cuda::device::experimental wrappers, completing on a
// cuda::barrier's transaction count; stores and reductions back to global
// memory in bulk groups; im2col loads; .multicast::cluster into every CTA
// of a cluster.  t_tma.c builds the maps and checks every byte against a
// CPU model of its own.
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cooperative_groups.h>

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;
using barrier = cuda::barrier<cuda::thread_scope_block>;

// The shared box of every kernel: 1024-byte aligned, so that the swizzle
// pattern (address bits 4-9) starts at its first byte.
#define BOX_BYTES 16384

// Loads the box at c[0..rank) of tm into shared memory, then copies its
// `bytes` bytes to out; *saddr gets the box's shared address.
__device__ void load_box(const CUtensorMap *tm, int rank, const int *c, unsigned bytes, unsigned char *out,
                         unsigned *saddr)
{
    __shared__ alignas(1024) unsigned char box[BOX_BYTES];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    barrier::arrival_token tok;
    if (threadIdx.x == 0) {
        uint64_t *mb = cuda::device::barrier_native_handle(bar);
        switch (rank) {
        case 1: { int32_t k[1] = { c[0] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        case 2: cde::cp_async_bulk_tensor_2d_global_to_shared(box, tm, c[0], c[1], bar); break;
        case 3: { int32_t k[3] = { c[0], c[1], c[2] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        case 4: { int32_t k[4] = { c[0], c[1], c[2], c[3] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        default: { int32_t k[5] = { c[0], c[1], c[2], c[3], c[4] }; ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, box, tm, k, mb); break; }
        }
        tok = cuda::device::barrier_arrive_tx(bar, 1, bytes);
        *saddr = (unsigned)__cvta_generic_to_shared(box);
    } else {
        tok = bar.arrive();
    }
    bar.wait(cuda::std::move(tok));
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        out[i] = box[i];
}

struct Coords { int c[5]; };

extern "C" __global__ void tma_load(const __grid_constant__ CUtensorMap tm, int rank, Coords c, unsigned bytes,
                                    unsigned char *out, unsigned *saddr)
{
    load_box(&tm, rank, c.c, bytes, out, saddr);
}

// The same from a map in global memory.
extern "C" __global__ void tma_load_global(const CUtensorMap *tm, int rank, Coords c, unsigned bytes,
                                           unsigned char *out, unsigned *saddr)
{
    load_box(tm, rank, c.c, bytes, out, saddr);
}

// Fills the shared box with `bytes` bytes of in, then stores it (or, with
// op 1, adds it) at c[0..rank) of tm, in a bulk group.
extern "C" __global__ void tma_store(const __grid_constant__ CUtensorMap tm, int rank, Coords c, unsigned bytes,
                                     const unsigned char *in, int op)
{
    __shared__ alignas(1024) unsigned char box[BOX_BYTES];
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        box[i] = in[i];
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        if (op == 1 && rank == 2) {
            int32_t k[2] = { c.c[0], c.c[1] };
            ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &tm, k, box);
        } else if (op == 1) {
            int32_t k[3] = { c.c[0], c.c[1], c.c[2] };
            ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &tm, k, box);
        } else if (op == 2) {
            int32_t k[2] = { c.c[0], c.c[1] };
            ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_max, &tm, k, box);
        } else if (rank == 2) {
            cde::cp_async_bulk_tensor_2d_shared_to_global(&tm, c.c[0], c.c[1], box);
        } else {
            int32_t k[3] = { c.c[0], c.c[1], c.c[2] };
            ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tm, k, box);
        }
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

// An im2col load: coordinates c (rank 3 or 4), offsets off (rank - 2).
extern "C" __global__ void tma_im2col(const __grid_constant__ CUtensorMap tm, int rank, Coords c, int offw, int offh,
                                      unsigned bytes, unsigned char *out, unsigned *saddr)
{
    __shared__ alignas(1024) unsigned char box[BOX_BYTES];
    __shared__ uint64_t mb;
    unsigned sb = (unsigned)__cvta_generic_to_shared(box), smb = (unsigned)__cvta_generic_to_shared(&mb);
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&mb, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &mb, bytes);
        uint16_t w = (uint16_t)offw, h = (uint16_t)offh;
        if (rank == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                         :: "r"(sb), "l"(&tm), "r"(c.c[0]), "r"(c.c[1]), "r"(c.c[2]), "r"(smb), "h"(w) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                         :: "r"(sb), "l"(&tm), "r"(c.c[0]), "r"(c.c[1]), "r"(c.c[2]), "r"(c.c[3]), "r"(smb),
                            "h"(w), "h"(h) : "memory");
        *saddr = sb;
    }
    while (!ptx::mbarrier_try_wait_parity(&mb, 0))
        ;
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
        out[i] = box[i];
}

// A cluster of 4 CTAs: CTA 0 multicasts the 2-d box at (x, y) to the CTAs
// of mask, and a 256-byte bulk copy of raw to the same CTAs; each CTA of
// the mask waits on its own barrier, then writes what it got to
// out[rank * 2 * bytes ...] (box, then the raw copy's 256 bytes).
extern "C" __global__ void __cluster_dims__(4, 1, 1) tma_multicast(const __grid_constant__ CUtensorMap tm, int x, int y,
                                                                  unsigned bytes, unsigned short mask,
                                                                  const unsigned char *raw, unsigned char *out)
{
    __shared__ alignas(1024) unsigned char box[4096];
    __shared__ alignas(16) unsigned char line[256];
    __shared__ uint64_t mb;
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank();
    bool mine = mask >> r & 1;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&mb, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
        if (mine)   // the box and the raw line land here
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &mb, bytes + 256);
    }
    cl.sync();
    if (r == 0 && threadIdx.x == 0) {
        // cuda::ptx offers the multicast forms for sm_90a only; sm_90 PTX has them
        unsigned sb = (unsigned)__cvta_generic_to_shared(box), sl = (unsigned)__cvta_generic_to_shared(line);
        unsigned smb = (unsigned)__cvta_generic_to_shared(&mb);
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%2, %3}], [%4], %5;" :: "r"(sb), "l"(&tm), "r"(x), "r"(y), "r"(smb), "h"(mask)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1], 256, [%2], %3;" :: "r"(sl), "l"(raw), "r"(smb), "h"(mask) : "memory");
    }
    if (mine) {
        while (!ptx::mbarrier_try_wait_parity(&mb, 0))
            ;
        for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x)
            out[r * 2 * bytes + i] = box[i];
        for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
            out[r * 2 * bytes + bytes + i] = line[i];
    }
    cl.sync();
}

// prefetch.tensormap and cp.async.bulk.prefetch.tensor: no effect but the
// map's checks; *done = 1 after them.
extern "C" __global__ void tma_prefetch(const __grid_constant__ CUtensorMap tm, int x, int y, int *done)
{
    asm volatile("prefetch.tensormap [%0];" :: "l"(&tm) : "memory");
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" :: "l"(&tm), "r"(x), "r"(y)
                 : "memory");
    *done = 1;
}

// A cluster of the launch's shape, up to 16 CTAs (a non-portable size on
// an H100): CTA 0 multicasts 256 bytes of raw into `line` of the CTAs of
// mask (cp.async.bulk .multicast::cluster); then each CTA reads the line of
// the next CTA (rank + 1 mod n) through distributed shared memory.  Block
// b writes its rank and the cluster's size, then what it read, at
// out[b * 264 ...]; a CTA outside the mask keeps its line of 0xff.
extern "C" __global__ void cluster_wide(const unsigned char *raw, unsigned short mask, unsigned char *out)
{
    __shared__ alignas(16) unsigned char line[256];
    __shared__ uint64_t mb;
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank(), n = cl.num_blocks();
    bool mine = mask >> r & 1;
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
        line[i] = 0xff;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&mb, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
        if (mine)
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &mb, 256);
    }
    cl.sync();
    if (r == 0 && threadIdx.x == 0) {
        unsigned sl = (unsigned)__cvta_generic_to_shared(line), smb = (unsigned)__cvta_generic_to_shared(&mb);
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1], 256, [%2], %3;" :: "r"(sl), "l"(raw), "r"(smb), "h"(mask) : "memory");
    }
    if (mine)
        while (!ptx::mbarrier_try_wait_parity(&mb, 0))
            ;
    cl.sync();
    const unsigned char *peer = cl.map_shared_rank(line, (r + 1) % n);
    unsigned char *o = out + blockIdx.x * 264;
    if (threadIdx.x == 0) {
        ((unsigned *)o)[0] = r;
        ((unsigned *)o)[1] = n;
    }
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
        o[8 + i] = peer[i];
    cl.sync();
}

// cp.reduce.async.bulk into global memory: n bytes of in, staged in shared
// memory, combined into out by operation `which` (below), in a bulk group.
#define RED(op) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." op " [%0], [%1], %2;" \
                             :: "l"(out), "r"(sb), "r"(n) : "memory")
extern "C" __global__ void bulk_reduce_global(const unsigned char *in, void *out, unsigned n, int which)
{
    __shared__ alignas(16) unsigned char buf[1024];
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
        buf[i] = in[i];
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned sb = (unsigned)__cvta_generic_to_shared(buf);
        switch (which) {
        case 0: RED("add.s32"); break;
        case 1: RED("min.u32"); break;
        case 2: RED("max.s64"); break;
        case 3: RED("add.f32"); break;
        case 4: RED("add.noftz.f16"); break;
        case 5: RED("xor.b64"); break;
        case 6: RED("inc.u32"); break;
        case 7: RED("add.u64"); break;
        case 8: RED("max.bf16"); break;
        default: RED("and.b32"); break;
        }
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

// cp.reduce.async.bulk into another CTA's shared memory: a cluster of 2;
// each CTA adds its 64 words (its rank * 1000 + i) into the other's, whose
// mbarrier counts the bytes; out[rank * 64 + i] is what each then holds
// (it started at i).
extern "C" __global__ void __cluster_dims__(2, 1, 1) bulk_reduce_cluster(unsigned *out)
{
    __shared__ alignas(16) unsigned mine[64], give[64];
    __shared__ uint64_t mb;
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    unsigned r = cl.block_rank();
    for (unsigned i = threadIdx.x; i < 64; i += blockDim.x)
        mine[i] = i, give[i] = r * 1000 + i;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&mb, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &mb, sizeof mine);
    }
    cde::fence_proxy_async_shared_cta();
    cl.sync();
    if (threadIdx.x == 0) {
        unsigned other = r ^ 1;
        unsigned dst, bar;     // the other CTA's mine and mb, as shared::cluster addresses
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(dst) : "r"((unsigned)__cvta_generic_to_shared(mine)), "r"(other));
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(bar) : "r"((unsigned)__cvta_generic_to_shared(&mb)), "r"(other));
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32"
                     " [%0], [%1], 256, [%2];" :: "r"(dst), "r"((unsigned)__cvta_generic_to_shared(give)), "r"(bar)
                     : "memory");
    }
    while (!ptx::mbarrier_try_wait_parity(&mb, 0))
        ;
    for (unsigned i = threadIdx.x; i < 64; i += blockDim.x)
        out[r * 64 + i] = mine[i];
    cl.sync();
}

// The programming guide's third way to pass a map: __constant__ memory
// (cudaMemcpyToSymbol), reached by its generic address.
__constant__ CUtensorMap const_map;

extern "C" __global__ void tma_load_const(int rank, Coords c, unsigned bytes, unsigned char *out, unsigned *saddr)
{
    load_box(&const_map, rank, c.c, bytes, out, saddr);
}
