// wgmma.sm_90a.cu: warpgroup matrix products (wgmma, sm_90a) as CUTLASS-style
// code writes them: operands staged in shared memory in the canonical
// layouts, matrix descriptors built in the kernel, wgmma through inline PTX.
// Compiled with nvcc -arch=sm_90a; the module runs on an sm_90a device.
#include <cuda_fp16.h>
#include <stdint.h>

// A matrix descriptor: start address, leading and stride byte offsets
// (each >> 4), swizzling (1: 128 bytes).
__device__ uint64_t make_desc(const void *smem, unsigned lbo, unsigned sbo, unsigned swizzle)
{
    uint32_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return (uint64_t)((a & 0x3ffff) >> 4) | (uint64_t)(lbo >> 4) << 16 | (uint64_t)(sbo >> 4) << 32 |
           (uint64_t)swizzle << 62;
}

// The byte offset of element (r, k) of a 64-column tile of 16-bit values,
// K-major with 128-byte swizzling: rows of 128 bytes whose 16-byte chunks
// are XORed with the row within 8.
__device__ unsigned sw128(unsigned r, unsigned k)
{
    unsigned off = r * 128 + k * 2;
    return off ^ ((off >> 7 & 7) << 4);
}

// D (64x64, f32, row-major) = A (64x64, row-major) * B^T (B: 64x64, row n
// holds column n of the product's right operand): four k-steps of
// m64n64k16, each descriptor advanced by the 32 bytes of a step within the
// swizzled rows.
__global__ void __launch_bounds__(128) wgmma_f16(const __half *A, const __half *B, float *D)
{
    __shared__ alignas(1024) __half sa[64 * 64];
    __shared__ alignas(1024) __half sb[64 * 64];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 64 * 64; i += 128) {
        *(__half *)((char *)sa + sw128(i / 64, i % 64)) = A[i];
        *(__half *)((char *)sb + sw128(i / 64, i % 64)) = B[i];
    }
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    float d[32];
    for (int i = 0; i < 32; i++)
        d[i] = 0.5f;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (unsigned ks = 0; ks < 4; ks++) {
        uint64_t da = make_desc(sa, 16, 1024, 1) + 2 * ks, db = make_desc(sb, 16, 1024, 1) + 2 * ks;
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                     : "l"(da), "l"(db), "r"(1));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    // element i of thread t: row 16*(t/32) + (t%32)/4 + 8*((i/2)%2), column 8*(i/4) + 2*(t%4) + i%2
    unsigned w = t / 32, l = t % 32;
    for (unsigned i = 0; i < 32; i++)
        D[(16 * w + l / 4 + 8 * (i / 2 % 2)) * 64 + 8 * (i / 4) + 2 * (l % 4) + i % 2] = d[i];
}

// D (64x32, s32) = A (64x32 s8, row-major, from registers) * B^T (B: 32x32
// s8, row n = column n) + C, B unswizzled in 8x16-byte core matrices.
__global__ void __launch_bounds__(128) wgmma_s8(const int8_t *A, const int8_t *B, const int *C, int *D)
{
    __shared__ alignas(128) int8_t sb[32 * 32];
    unsigned t = threadIdx.x, w = t / 32, l = t % 32;
    // core matrix (n/8, k/16): 128 bytes, row n%8 at 16 bytes; LBO 128 (along K), SBO 256 (along N)
    for (unsigned i = t; i < 32 * 32; i += 128) {
        unsigned n = i / 32, k = i % 32;
        sb[n / 8 * 256 + k / 16 * 128 + n % 8 * 16 + k % 16] = B[i];
    }
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    // A's fragment: byte j of register r is element i = 4r + j, at row
    // 16w + l/4 + 8*((i/4)%2), column 4*(l%4) + i%4 + 16*(i/8)
    uint32_t a[4] = { 0, 0, 0, 0 };
    for (unsigned i = 0; i < 16; i++) {
        unsigned row = 16 * w + l / 4 + 8 * (i / 4 % 2), col = 4 * (l % 4) + i % 4 + 16 * (i / 8);
        a[i / 4] |= (uint32_t)(uint8_t)A[row * 32 + col] << 8 * (i % 4);
    }
    int d[16];
    for (unsigned i = 0; i < 16; i++)
        d[i] = C[(16 * w + l / 4 + 8 * (i / 2 % 2)) * 32 + 8 * (i / 4) + 2 * (l % 4) + i % 2];
    uint64_t db = make_desc(sb, 128, 256, 0);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.s8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, {%16, %17, %18, %19}, %20, 1;\n"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (unsigned i = 0; i < 16; i++)
        D[(16 * w + l / 4 + 8 * (i / 2 % 2)) * 32 + 8 * (i / 4) + 2 * (l % 4) + i % 2] = d[i];
}

// D (64x16, f32) = A * B^T, A (64x32 f16) 2:4 sparse: Ac (64x16) its kept
// elements, meta one metadata word per thread (the host places the indices),
// B (16x32, row n = column n of the right operand) unswizzled in shared memory.
__global__ void __launch_bounds__(128) wgmma_sp(const __half *Ac, const uint32_t *meta, const __half *B, float *D)
{
    __shared__ alignas(128) __half sb[16 * 32];
    unsigned t = threadIdx.x, w = t / 32, l = t % 32;
    // core matrix (n/8, k/8): row n%8 at 16 bytes; LBO 128 (along K), SBO 512 (along N)
    for (unsigned i = t; i < 16 * 32; i += 128) {
        unsigned n = i / 32, k = i % 32;
        *(__half *)((char *)sb + n / 8 * 512 + k / 8 * 128 + n % 8 * 16 + k % 8 * 2) = B[i];
    }
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    // the kept elements as a dense k16 fragment: element i of thread t at row
    // 16w + l/4 + 8*((i/2)%2), column 2*(l%4) + i%2 + 8*(i/4), two to a register
    uint32_t a[4];
    for (unsigned r = 0; r < 4; r++) {
        unsigned row = 16 * w + l / 4 + 8 * (r % 2), col = 2 * (l % 4) + 8 * (r / 2);
        __half lo = Ac[row * 16 + col], hi = Ac[row * 16 + col + 1];
        a[r] = (uint32_t)__half_as_ushort(lo) | (uint32_t)__half_as_ushort(hi) << 16;
    }
    float d[8];
    for (int i = 0; i < 8; i++)
        d[i] = 0;
    uint64_t db = make_desc(sb, 128, 512, 0);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("wgmma.mma_async.sp.sync.aligned.m64n16k32.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, %13, 0, 0, 1, 1, 0;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(meta[t]));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (unsigned i = 0; i < 8; i++)
        D[(16 * w + l / 4 + 8 * (i / 2 % 2)) * 16 + 8 * (i / 4) + 2 * (l % 4) + i % 2] = d[i];
}

// setmaxnreg: a producer warpgroup gives registers back, the consumer asks for more
__global__ void __launch_bounds__(256) regs(int *out)
{
    if (threadIdx.x < 128)
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    else
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    out[threadIdx.x] = threadIdx.x * 3;
}
