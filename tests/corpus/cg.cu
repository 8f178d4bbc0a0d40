// Cooperative groups: thread blocks, warp and sub-warp tiles, tiles wider
// than a warp (block_tile_memory), coalesced and labeled groups, the grid.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void tile_reduce(const int *in, int *out)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
    cg::thread_block_tile<8> e = cg::tiled_partition<8>(w);
    int v = in[b.thread_rank()];
    int s = cg::reduce(w, v, cg::plus<int>());
    int m = cg::reduce(e, v, cg::greater<int>());
    int x = cg::inclusive_scan(w, v);
    out[b.thread_rank()] = s + m + x + w.shfl_down(v, 1) + e.meta_group_rank() + (int)w.ballot(v & 1);
}

__global__ void tile_dynamic(const float *in, float *out, int n)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_group t = cg::tiled_partition(b, n);
    float v = in[b.thread_rank()];
    t.sync();
    out[b.thread_rank()] = v * t.size() + t.thread_rank();
}

__global__ void tile64(const int *in, int *out)
{
    __shared__ cg::block_tile_memory<128> scratch;
    cg::thread_block b = cg::this_thread_block(scratch);
    auto t = cg::tiled_partition<64>(b);
    int v = in[b.thread_rank()];
    int s = cg::reduce(t, v, cg::plus<int>());
    t.sync();
    int any = t.any(v == 7);
    int first = t.shfl(v, 0);
    out[b.thread_rank()] = s + any + first + t.meta_group_rank();
}

__global__ void tile128_scan(const unsigned *in, unsigned *out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block b = cg::this_thread_block(scratch);
    auto t = cg::tiled_partition<128>(b);
    unsigned v = in[b.thread_rank()];
    out[b.thread_rank()] = cg::exclusive_scan(t, v) + cg::reduce(t, v, cg::bit_xor<unsigned>());
}

__global__ void coalesced(const int *in, int *out)
{
    int v = in[threadIdx.x];
    if (v > 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int r = g.thread_rank();
        int s = cg::reduce(g, v, cg::plus<int>());
        auto odd = cg::labeled_partition(g, v & 1);
        out[threadIdx.x] = r + s + odd.size() + g.shfl(v, 0);
    }
}

__global__ void binary_partition(const int *in, int *out)
{
    auto w = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    auto p = cg::binary_partition(w, v < 0);
    out[threadIdx.x] = cg::reduce(p, v, cg::plus<int>()) + p.num_threads();
}

__global__ void grid_sync(int *data, int n)
{
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    if (i < n)
        data[i] += 1;
    g.sync();
    if (i < n)
        data[i] += data[(i + 1) % n] + g.block_rank() + g.num_blocks();
}

__global__ void block_memcpy_async(const float *in, float *out)
{
    __shared__ float s[256];
    cg::thread_block b = cg::this_thread_block();
    cg::memcpy_async(b, s, in + blockIdx.x * 256, sizeof(float) * 256);
    cg::wait(b);
    out[blockIdx.x * 256 + b.thread_rank()] = s[255 - b.thread_rank()];
}

__global__ void warp_info(int *out)
{
    auto w = cg::tiled_partition<32>(cg::this_thread_block());
    auto h = cg::tiled_partition<16>(w);
    out[threadIdx.x] = w.num_threads() + h.thread_rank() + (int)h.match_any(threadIdx.x / 4) +
                       w.all(threadIdx.x < 64) + h.meta_group_size();
}
