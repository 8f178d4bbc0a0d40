// nvcuda::wmma (mma.h): every fragment shape and element type sm_90 has,
// both layouts, loads, stores, fill and mma.
#include <mma.h>
using namespace nvcuda;

template <int M, int N, int K, typename AB, typename C, typename LA, typename LB>
__device__ void tile(const AB *a, const AB *b, C *c)
{
    wmma::fragment<wmma::matrix_a, M, N, K, AB, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, AB, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, C> fc;
    wmma::fill_fragment(fc, C(0));
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 32, wmma::mem_row_major);
    wmma::load_matrix_sync(fc, c, 32, wmma::mem_col_major);
    wmma::store_matrix_sync(c + 1024, fc, 32, wmma::mem_col_major);
}

__global__ void wmma_f16(const half *a, const half *b, float *c, half *h)
{
    tile<16, 16, 16, half, float, wmma::row_major, wmma::col_major>(a, b, c);
    tile<32, 8, 16, half, float, wmma::col_major, wmma::row_major>(a, b, c);
    tile<8, 32, 16, half, half, wmma::row_major, wmma::row_major>(a, b, h);
    tile<16, 16, 16, half, half, wmma::col_major, wmma::col_major>(a, b, h);
}

__global__ void wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c)
{
    tile<16, 16, 16, __nv_bfloat16, float, wmma::row_major, wmma::col_major>(a, b, c);
    tile<32, 8, 16, __nv_bfloat16, float, wmma::row_major, wmma::row_major>(a, b, c);
    tile<8, 32, 16, __nv_bfloat16, float, wmma::col_major, wmma::col_major>(a, b, c);
}

__global__ void wmma_tf32(const float *a, const float *b, float *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    for (int i = 0; i < fa.num_elements; i++)
        fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

__global__ void wmma_f64(const double *a, const double *b, double *c)
{
    tile<8, 8, 4, double, double, wmma::row_major, wmma::col_major>(a, b, c);
    tile<8, 8, 4, double, double, wmma::col_major, wmma::row_major>(a, b, c);
}

__global__ void wmma_int8(const signed char *a, const signed char *b, int *c, const unsigned char *ua,
                          const unsigned char *ub)
{
    tile<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major>(a, b, c);
    tile<32, 8, 16, signed char, int, wmma::col_major, wmma::row_major>(a, b, c);
    tile<8, 32, 16, unsigned char, int, wmma::row_major, wmma::row_major>(ua, ub, c);
}

__global__ void wmma_subbyte(const void *a, const void *b, int *c)
{
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::u4, wmma::row_major> ga;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::u4, wmma::col_major> gb;
    wmma::load_matrix_sync(ga, a, 32);
    wmma::load_matrix_sync(gb, b, 32);
    wmma::mma_sync(fc, ga, gb, fc);
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> ba;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> bb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> bc;
    wmma::fill_fragment(bc, 0);
    wmma::load_matrix_sync(ba, a, 128);
    wmma::load_matrix_sync(bb, b, 128);
    wmma::bmma_sync(bc, ba, bb, bc, wmma::experimental::bmmaBitOpAND);
    wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
    wmma::store_matrix_sync(c + 64, bc, 8, wmma::mem_col_major);
}
