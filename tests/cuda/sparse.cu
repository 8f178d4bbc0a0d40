// Sparse tensor-core products through inline mma.sp, as hand-written CUDA
// kernels use them: each warp compresses a 2:4-sparse A (row-major, zeros
// in place) into its fragment and metadata, then multiplies by B.
//
//   sp_f16:  D (16x8 f32) = A (16x32 half) * B (32x8 half, column-major),
//            mma.sp m16n8k32, sparsity selector 1 (lanes 2 and 3 of each
//            quad hold the metadata)
//   sp_s8:   D (16x8 s32) = A (16x64 s8) * B (64x8 s8, column-major) + 7,
//            mma.sp::ordered_metadata m16n8k64, selector 0 (all four lanes)
#include <cuda_fp16.h>
#include <stdint.h>

// The kept elements of the 4-wide chunk at p (two; the first two if fewer
// are non-zero) and their 2-bit indices, the first in the low bits.
template <typename T>
__device__ unsigned keep2(const T *p, T *k0, T *k1)
{
    int i0 = -1, i1 = -1;
    for (int i = 0; i < 4; i++)
        if (p[i] != T(0)) {
            if (i0 < 0) i0 = i;
            else if (i1 < 0) i1 = i;
        }
    if (i0 < 0) i0 = 0;
    if (i1 < 0) i1 = i0 == 3 ? 3 : i0 + 1;
    if (i1 == i0) i0 = 2;       // chunk 3 only: keep 2 and 3
    *k0 = p[i0];
    *k1 = p[i1];
    return (unsigned)i0 | (unsigned)i1 << 2;
}

extern "C" __global__ void sp_f16(const __half *A, const __half *B, float *D)
{
    unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    uint32_t a[4], b[4], e = 0;
    // A: registers 0/1 rows g/g+8 of columns 4t..4t+3, 2/3 the same at +16
    for (int r = 0; r < 4; r++) {
        unsigned row = g + 8 * (r % 2), col = 4 * t + 16 * (r / 2);
        __half k0, k1;
        keep2(A + row * 32 + col, &k0, &k1);
        a[r] = (uint32_t)__half_as_ushort(k0) | (uint32_t)__half_as_ushort(k1) << 16;
    }
    // the metadata: selector 1, lane 2 + q of the quad holds columns
    // 16q..16q+15 of row g (bits 0-15) and of row g+8 (bits 16-31)
    if (t >= 2) {
        unsigned q = t - 2;
        for (int half = 0; half < 2; half++)
            for (int c = 0; c < 4; c++) {
                __half k0, k1;
                unsigned row = g + 8 * half, col = 16 * q + 4 * c;
                e |= keep2(A + row * 32 + col, &k0, &k1) << (16 * half + 4 * c);
            }
    }
    // B: register r holds rows 2t + 8r and 2t + 8r + 1 of column g
    for (int r = 0; r < 4; r++) {
        unsigned k = 2 * t + 8 * r;
        b[r] = (uint32_t)__half_as_ushort(B[g * 32 + k]) | (uint32_t)__half_as_ushort(B[g * 32 + k + 1]) << 16;
    }
    float d[4] = { 0, 0, 0, 0 };
    asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 1;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e));
    for (int i = 0; i < 4; i++)
        D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
}

extern "C" __global__ void sp_s8(const int8_t *A, const int8_t *B, int *D)
{
    unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    uint32_t a[4], b[4], e = 0;
    // A: registers 0/1 rows g/g+8 of columns 8t..8t+7 (two chunks), 2/3 at +32
    for (int r = 0; r < 4; r++) {
        unsigned row = g + 8 * (r % 2), col = 8 * t + 32 * (r / 2);
        int8_t k[4];
        keep2(A + row * 64 + col, &k[0], &k[1]);
        keep2(A + row * 64 + col + 4, &k[2], &k[3]);
        a[r] = 0;
        for (int i = 0; i < 4; i++)
            a[r] |= (uint32_t)(uint8_t)k[i] << 8 * i;
    }
    // the metadata: every lane, columns 16t..16t+15 of rows g and g+8
    for (int half = 0; half < 2; half++)
        for (int c = 0; c < 4; c++) {
            int8_t k0, k1;
            e |= keep2(A + (g + 8 * half) * 64 + 16 * t + 4 * c, &k0, &k1) << (16 * half + 4 * c);
        }
    // B: register r holds rows 4t + 16r .. 4t + 16r + 3 of column g
    for (int r = 0; r < 4; r++) {
        b[r] = 0;
        for (int i = 0; i < 4; i++)
            b[r] |= (uint32_t)(uint8_t)B[g * 64 + 4 * t + 16 * r + i] << 8 * i;
    }
    int d[4] = { 7, 7, 7, 7 };
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e));
    for (int i = 0; i < 4; i++)
        D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
}
