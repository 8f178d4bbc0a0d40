// tensor.cu: the tensor-core paths CUDA code takes on sm_90: nvcuda::wmma
// (half, bf16, tf32, int8, double) and mma.sync fed by ldmatrix, as inline
// PTX the way hand-tuned kernels write it.  Inputs are small integers, so
// every product is exact whatever the order of the sums (tests/t_kernels.c).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>

using namespace nvcuda;

// D (MxN, row-major f32) = 2 * (A (MxK, row-major half) * B (KxN, col-major half)) + 1:
// one warp per 16x16 tile of D, the K loop in steps of 16; the scaling is
// element-wise on the accumulator fragment.
extern "C" __global__ void wmma_half(const __half *a, const __half *b, float *d, int M, int N, int K)
{
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = 2.0f * acc.x[i] + 1.0f;
    wmma::store_matrix_sync(d + tm * N + tn, acc, N, wmma::mem_row_major);
}

// The same through shared memory with 32x8x16 tiles, half accumulators and a
// column-major D.
extern "C" __global__ void wmma_half_shared(const __half *a, const __half *b, const __half *c, __half *d)
{
    __shared__ __align__(32) __half sa[32 * 16], sb[16 * 8], sc[32 * 8];
    for (int i = threadIdx.x; i < 32 * 16; i += 32)
        sa[i] = a[i];
    for (int i = threadIdx.x; i < 16 * 8; i += 32)
        sb[i] = b[i];
    for (int i = threadIdx.x; i < 32 * 8; i += 32)
        sc[i] = c[i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, __half> acc;
    wmma::load_matrix_sync(fa, sa, 32);
    wmma::load_matrix_sync(fb, sb, 8);
    wmma::load_matrix_sync(acc, sc, 8, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 32, wmma::mem_col_major);
}

// bf16 8x32x16, f32 accumulate.
extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> acc;
    wmma::fill_fragment(acc, -3.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 32, wmma::mem_row_major);
}

// tf32 16x16x8: the inputs are floats, converted with __float_to_tf32.
extern "C" __global__ void wmma_tf32(const float *a, const float *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.5f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; i++)
        fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++)
        fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// int8 16x16x16 into int32, with saturation.
extern "C" __global__ void wmma_s8(const int8_t *a, const int8_t *b, const int *c, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc, true);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// double 8x8x4.
extern "C" __global__ void wmma_f64(const double *a, const double *b, double *d)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
    wmma::fill_fragment(acc, 0.25);
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_col_major);
}

// mma.sync m16n8k16 (f16 in, f32 out) with its operands loaded by ldmatrix:
// A (16x16 row-major) with .x4, B (16x8, stored row-major KxN) with .x2.trans.
// D is written from its fragment: c0..c3 at rows g and g+8, columns 2t, 2t+1.
extern "C" __global__ void mma_ldmatrix(const __half *a, const __half *b, float *d)
{
    __shared__ __align__(16) __half sa[16 * 16], sb[16 * 8];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32)
        sa[i] = a[i];
    for (int i = lane; i < 128; i += 32)
        sb[i] = b[i];
    __syncwarp();
    uint32_t ra[4], rb[2];
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3]) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(rb[0]), "=r"(rb[1]) : "r"(pb));
    float c[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    int g = lane / 4, t = lane % 4;
    d[g * 8 + 2 * t] = c[0];
    d[g * 8 + 2 * t + 1] = c[1];
    d[(g + 8) * 8 + 2 * t] = c[2];
    d[(g + 8) * 8 + 2 * t + 1] = c[3];
}

// mma.sync m16n8k32 s8 x u8 into s32 with .satfinite; fragments read straight
// from global memory in the layout of the manual's figures.
extern "C" __global__ void mma_s8u8(const int8_t *a, const uint8_t *b, const int *c, int *d)
{
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    uint32_t ra[4], rb[2];
    for (int r = 0; r < 4; r++) {
        int row = g + 8 * (r % 2), col = t * 4 + 16 * (r / 2);
        ra[r] = *(const uint32_t *)(a + row * 32 + col);
    }
    for (int r = 0; r < 2; r++) {
        uint32_t v = 0;
        for (int i = 0; i < 4; i++)
            v |= (uint32_t)b[(t * 4 + i + 16 * r) * 8 + g] << (8 * i);
        rb[r] = v;
    }
    int acc[4];
    for (int i = 0; i < 4; i++)
        acc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    for (int i = 0; i < 4; i++)
        d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = acc[i];
}
