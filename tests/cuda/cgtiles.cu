// Cooperative-groups tiles wider than a warp: they keep their barriers and
// exchange slots in the shared memory the driver reserves below the CTA's
// own (%reserved_smem_offset_1), next to the kernel's own .shared data.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// Per 64-thread tile: the sum, the maximum, whether any value is 7, the
// value of the tile's thread 0 and of its thread 37 (a tile wider than a
// warp shuffles from one source rank for all its threads), and the tile's
// index; a static .shared array is used alongside, so that it and the
// reserved scratch must not overlap.
extern "C" __global__ void tile64(const int *in, int *out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    __shared__ int mine[256];
    cg::thread_block b = cg::this_thread_block(scratch);
    auto t = cg::tiled_partition<64>(b);
    unsigned r = b.thread_rank();
    int v = in[blockIdx.x * blockDim.x + r];
    mine[r] = -v;
    int s = cg::reduce(t, v, cg::plus<int>());
    int m = cg::reduce(t, v, cg::greater<int>());
    int any = t.any(v == 7);
    int first = t.shfl(v, 0);
    int mirror = t.shfl(v, 37);
    t.sync();
    int *o = out + 8 * (blockIdx.x * blockDim.x + r);
    o[0] = s;
    o[1] = m;
    o[2] = any;
    o[3] = first;
    o[4] = mirror;
    o[5] = t.meta_group_rank();
    o[6] = mine[r ^ 1];
    o[7] = t.num_threads();
}

// Per 128-thread tile: the exclusive prefix sum of the values.
extern "C" __global__ void tile128_scan(const unsigned *in, unsigned *out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block b = cg::this_thread_block(scratch);
    auto t = cg::tiled_partition<128>(b);
    unsigned i = blockIdx.x * blockDim.x + b.thread_rank();
    out[i] = cg::exclusive_scan(t, in[i]);
}

// The reserved window as the special registers describe it, and the
// shared-window address of a .shared variable, which lies above it.
extern "C" __global__ void reserved_window(unsigned *out)
{
    __shared__ int var[4];
    unsigned v[6];
    asm("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v[0]));
    asm("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v[1]));
    asm("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v[2]));
    asm("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v[3]));
    asm("mov.u32 %0, %%total_smem_size;" : "=r"(v[4]));
    v[5] = (unsigned)__cvta_generic_to_shared(var);
    var[threadIdx.x & 3] = threadIdx.x;
    for (int k = 0; k < 6; k++)
        out[k] = v[k];
}
