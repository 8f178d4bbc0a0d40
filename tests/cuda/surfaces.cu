// Surface-object kernels: 1D, 2D and 3D surfaces.
//
// Every kernel takes its surfaces and buffers as parameters, so a test
// harness can bind any surface it likes.  Surface x coordinates are in
// BYTES (as in real CUDA code), so they are scaled by sizeof(element).
// Each kernel is deterministic: one thread handles one element.

#include <cuda_runtime.h>

// ---------------------------------------------------------------------------
// 1D surfaces
// ---------------------------------------------------------------------------

// Copy a 1D float surface into a buffer (templated read, trap mode).
extern "C" __global__ void surf1d_read_float(cudaSurfaceObject_t src, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = surf1Dread<float>(src, i * (int)sizeof(float));
}

// Fill a 1D float surface from a buffer, scaling by k.
extern "C" __global__ void surf1d_write_float(const float *in, cudaSurfaceObject_t dst, float k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        surf1Dwrite(in[i] * k, dst, i * (int)sizeof(float));
}

// Read-modify-write of a 1D int surface, out-param read form.
extern "C" __global__ void surf1d_rmw_int(cudaSurfaceObject_t s, int add, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v;
        surf1Dread(&v, s, i * (int)sizeof(int));
        surf1Dwrite(v + add, s, i * (int)sizeof(int));
    }
}

// Byte surfaces: signed and unsigned char, with clamp on reads past the end.
// Threads [0, count) read; coordinates may run past the surface width and
// are clamped to the edge.
extern "C" __global__ void surf1d_char_clamp(cudaSurfaceObject_t sc, cudaSurfaceObject_t suc,
                                             int *out_c, unsigned *out_uc, int offset, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        char c = surf1Dread<char>(sc, i + offset, cudaBoundaryModeClamp);
        unsigned char uc = surf1Dread<unsigned char>(suc, i + offset, cudaBoundaryModeClamp);
        out_c[i] = c;
        out_uc[i] = uc;
    }
}

// Short surface with zero boundary mode: out-of-range reads return 0,
// out-of-range writes are dropped.
extern "C" __global__ void surf1d_short_zero(cudaSurfaceObject_t src, cudaSurfaceObject_t dst,
                                             int shift, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        short v = surf1Dread<short>(src, (i + shift) * (int)sizeof(short), cudaBoundaryModeZero);
        surf1Dwrite<short>((short)(v * 2), dst, (i - shift) * (int)sizeof(short), cudaBoundaryModeZero);
    }
}

// 64-bit elements: long long and unsigned long long.
extern "C" __global__ void surf1d_longlong(cudaSurfaceObject_t s_ll, cudaSurfaceObject_t s_ull,
                                           long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        long long a = surf1Dread<long long>(s_ll, i * 8);
        unsigned long long b;
        surf1Dread(&b, s_ull, i * 8, cudaBoundaryModeTrap);
        out[i] = a + (long long)(b >> 1);
        surf1Dwrite<unsigned long long>(b ^ 0xffffffff00000000ull, s_ull, i * 8);
    }
}

// Vector types on a 1D surface: char2, short2, int2, float2.
extern "C" __global__ void surf1d_vec2(cudaSurfaceObject_t s_c2, cudaSurfaceObject_t s_s2,
                                       cudaSurfaceObject_t s_i2, cudaSurfaceObject_t s_f2,
                                       int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        char2 c = surf1Dread<char2>(s_c2, i * (int)sizeof(char2));
        short2 s = surf1Dread<short2>(s_s2, i * (int)sizeof(short2));
        int2 v = surf1Dread<int2>(s_i2, i * (int)sizeof(int2));
        float2 f = surf1Dread<float2>(s_f2, i * (int)sizeof(float2));
        out[i] = make_int4(c.x + c.y, s.x - s.y, v.x * v.y, (int)(f.x + f.y));
        surf1Dwrite(make_float2(f.y, f.x), s_f2, i * (int)sizeof(float2));
        surf1Dwrite(make_char2(c.y, c.x), s_c2, i * (int)sizeof(char2));
    }
}

// ---------------------------------------------------------------------------
// 2D surfaces
// ---------------------------------------------------------------------------

// Classic image copy with a 2D float surface.
extern "C" __global__ void surf2d_copy_float(cudaSurfaceObject_t src, cudaSurfaceObject_t dst,
                                             int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float v = surf2Dread<float>(src, x * 4, y);
        surf2Dwrite(v, dst, x * 4, y);
    }
}

// RGBA8 image: invert colours, keep alpha (uchar4).
extern "C" __global__ void surf2d_invert_uchar4(cudaSurfaceObject_t img, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        uchar4 p;
        surf2Dread(&p, img, x * (int)sizeof(uchar4), y);
        p.x = 255 - p.x;
        p.y = 255 - p.y;
        p.z = 255 - p.z;
        surf2Dwrite(p, img, x * (int)sizeof(uchar4), y);
    }
}

// 3x3 box blur on a float surface with clamped borders.
extern "C" __global__ void surf2d_blur_clamp(cudaSurfaceObject_t src, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                sum += surf2Dread<float>(src, (x + dx) * 4, y + dy, cudaBoundaryModeClamp);
        out[y * width + x] = sum * (1.0f / 9.0f);
    }
}

// Edge detection with zero padding on an int surface.
extern "C" __global__ void surf2d_laplace_zero(cudaSurfaceObject_t src, int *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int c = surf2Dread<int>(src, x * 4, y, cudaBoundaryModeZero);
        int l = surf2Dread<int>(src, (x - 1) * 4, y, cudaBoundaryModeZero);
        int r = surf2Dread<int>(src, (x + 1) * 4, y, cudaBoundaryModeZero);
        int u = surf2Dread<int>(src, x * 4, y - 1, cudaBoundaryModeZero);
        int d = surf2Dread<int>(src, x * 4, y + 1, cudaBoundaryModeZero);
        out[y * width + x] = 4 * c - l - r - u - d;
    }
}

// Unsigned int surface written with zero mode (writes outside are dropped).
extern "C" __global__ void surf2d_uint_shift_write(cudaSurfaceObject_t dst, int dx, int dy,
                                                   int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        unsigned v = (unsigned)(y * width + x) * 2654435761u;
        surf2Dwrite<unsigned int>(v, dst, (x + dx) * 4, y + dy, cudaBoundaryModeZero);
    }
}

// Wide vectors: int4 and float4 on 2D surfaces.
extern "C" __global__ void surf2d_vec4(cudaSurfaceObject_t s_i4, cudaSurfaceObject_t s_f4,
                                       int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int4 a = surf2Dread<int4>(s_i4, x * 16, y);
        float4 f;
        surf2Dread(&f, s_f4, x * 16, y, cudaBoundaryModeClamp);
        float4 g = make_float4(f.x + a.x, f.y + a.y, f.z + a.z, f.w + a.w);
        surf2Dwrite(g, s_f4, x * 16, y);
        surf2Dwrite(make_int4(a.w, a.z, a.y, a.x), s_i4, x * 16, y, cudaBoundaryModeTrap);
    }
}

// Scalar narrow types on 2D surfaces: unsigned char, short.
extern "C" __global__ void surf2d_narrow(cudaSurfaceObject_t s_u8, cudaSurfaceObject_t s_i16,
                                         int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        unsigned char b = surf2Dread<unsigned char>(s_u8, x, y);
        short s = surf2Dread<short>(s_i16, x * 2, y);
        surf2Dwrite<unsigned char>((unsigned char)(b + 1), s_u8, x, y);
        surf2Dwrite<short>((short)(s - b), s_i16, x * 2, y);
    }
}

// 2D surface of long long with clamp.
extern "C" __global__ void surf2d_longlong_clamp(cudaSurfaceObject_t s, long long *out,
                                                 int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        long long a = surf2Dread<long long>(s, (x + 1) * 8, y, cudaBoundaryModeClamp);
        long long b = surf2Dread<long long>(s, (x - 1) * 8, y, cudaBoundaryModeClamp);
        out[y * width + x] = a - b;
    }
}

// ---------------------------------------------------------------------------
// 3D surfaces
// ---------------------------------------------------------------------------

// Copy a volume, adding a z-dependent offset.
extern "C" __global__ void surf3d_float(cudaSurfaceObject_t src, cudaSurfaceObject_t dst,
                                        int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d) {
        float v = surf3Dread<float>(src, x * 4, y, z);
        surf3Dwrite(v + (float)z, dst, x * 4, y, z);
    }
}

// 6-neighbour sum over a volume of ints with zero boundary.
extern "C" __global__ void surf3d_stencil_zero(cudaSurfaceObject_t src, int *out, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d) {
        int s = 0;
        s += surf3Dread<int>(src, (x - 1) * 4, y, z, cudaBoundaryModeZero);
        s += surf3Dread<int>(src, (x + 1) * 4, y, z, cudaBoundaryModeZero);
        s += surf3Dread<int>(src, x * 4, y - 1, z, cudaBoundaryModeZero);
        s += surf3Dread<int>(src, x * 4, y + 1, z, cudaBoundaryModeZero);
        s += surf3Dread<int>(src, x * 4, y, z - 1, cudaBoundaryModeZero);
        s += surf3Dread<int>(src, x * 4, y, z + 1, cudaBoundaryModeZero);
        out[(z * h + y) * w + x] = s;
    }
}

// 3D surface of uchar4 and short2 with clamp; out-param reads.
extern "C" __global__ void surf3d_vec_clamp(cudaSurfaceObject_t s_u4, cudaSurfaceObject_t s_s2,
                                            int4 *out, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d) {
        uchar4 c;
        short2 s;
        surf3Dread(&c, s_u4, (x + 2) * 4, y, z + 1, cudaBoundaryModeClamp);
        surf3Dread(&s, s_s2, (x - 2) * 4, y - 1, z, cudaBoundaryModeClamp);
        out[(z * h + y) * w + x] = make_int4(c.x + s.x, c.y + s.y, c.z, c.w);
        surf3Dwrite(make_short2(s.y, s.x), s_s2, x * 4, y, z, cudaBoundaryModeTrap);
    }
}

// 3D surface of unsigned int with zero-mode writes and char surface.
extern "C" __global__ void surf3d_uint_char(cudaSurfaceObject_t s_u32, cudaSurfaceObject_t s_i8,
                                            int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d) {
        char c = surf3Dread<char>(s_i8, x, y, z);
        unsigned u = surf3Dread<unsigned int>(s_u32, x * 4, y, z);
        surf3Dwrite<unsigned int>(u + (unsigned)c, s_u32, x * 4, y, z + 1, cudaBoundaryModeZero);
        surf3Dwrite<char>((char)(c ^ 0x55), s_i8, x, y, z);
    }
}

// Clamp-mode writes: coordinates past the edge are clamped to the last
// texel.  Every thread that lands on the edge texel (x >= width - 1) writes
// the same value, width - 1, so the result is deterministic.
extern "C" __global__ void surf_write_clamp(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2,
                                            cudaSurfaceObject_t s3, int width, int extra)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width + extra) {
        int v = (x < width) ? x : width - 1;
        surf1Dwrite(v, s1, x * 4, cudaBoundaryModeClamp);
        surf2Dwrite((float)v, s2, x * 4, 0, cudaBoundaryModeClamp);
        surf3Dwrite(make_ushort2((unsigned short)v, 7), s3, x * 4, 0, 0, cudaBoundaryModeClamp);
    }
}
