// Layered and cubemap surface-object kernels.
//
// Layered 1D/2D surfaces, cubemaps (6 faces) and layered cubemaps
// (layerface = layer * 6 + face).  x coordinates are in bytes.

#include <cuda_runtime.h>

// ---------------------------------------------------------------------------
// 1D layered
// ---------------------------------------------------------------------------

// Sum all layers of a 1D layered float surface into out[x].
extern "C" __global__ void surf1dl_sum_layers(cudaSurfaceObject_t s, float *out, int width, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width) {
        float acc = 0.0f;
        for (int l = 0; l < layers; ++l)
            acc += surf1DLayeredread<float>(s, x * 4, l);
        out[x] = acc;
    }
}

// Write layer index * x into every layer (int, trap) and read back an
// unsigned byte layer with clamp.
extern "C" __global__ void surf1dl_write_int(cudaSurfaceObject_t s, cudaSurfaceObject_t s_u8,
                                             unsigned *out, int width, int layer)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width) {
        surf1DLayeredwrite(layer * x, s, x * 4, layer);
        unsigned char b;
        surf1DLayeredread(&b, s_u8, x + 3, layer, cudaBoundaryModeClamp);
        out[x] = b;
    }
}

// 1D layered with zero boundary on short2 / uchar4 vectors.
extern "C" __global__ void surf1dl_vec_zero(cudaSurfaceObject_t s_s2, cudaSurfaceObject_t s_u4,
                                            int4 *out, int width, int layer, int shift)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width) {
        short2 a = surf1DLayeredread<short2>(s_s2, (x + shift) * 4, layer, cudaBoundaryModeZero);
        uchar4 c = surf1DLayeredread<uchar4>(s_u4, (x - shift) * 4, layer, cudaBoundaryModeZero);
        out[x] = make_int4(a.x, a.y, c.x + c.y, c.z + c.w);
        surf1DLayeredwrite(make_uchar4(c.w, c.z, c.y, c.x), s_u4, (x + shift) * 4, layer,
                           cudaBoundaryModeZero);
    }
}

// ---------------------------------------------------------------------------
// 2D layered
// ---------------------------------------------------------------------------

// Per-layer scale of a 2D layered float4 surface.
extern "C" __global__ void surf2dl_scale_float4(cudaSurfaceObject_t s, const float *scale,
                                                int width, int height, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int l = blockIdx.z;
    if (x < width && y < height && l < layers) {
        float4 v = surf2DLayeredread<float4>(s, x * 16, y, l);
        float k = scale[l];
        v.x *= k; v.y *= k; v.z *= k; v.w *= k;
        surf2DLayeredwrite(v, s, x * 16, y, l);
    }
}

// Difference between two layers of an int2 surface, clamp mode.
extern "C" __global__ void surf2dl_layer_diff_clamp(cudaSurfaceObject_t s, int2 *out,
                                                    int width, int height, int la, int lb)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int2 a, b;
        surf2DLayeredread(&a, s, (x + 1) * 8, y, la, cudaBoundaryModeClamp);
        surf2DLayeredread(&b, s, x * 8, y - 1, lb, cudaBoundaryModeClamp);
        out[y * width + x] = make_int2(a.x - b.x, a.y - b.y);
    }
}

// 2D layered unsigned long long / char with zero mode writes.
extern "C" __global__ void surf2dl_ull_char_zero(cudaSurfaceObject_t s_u64, cudaSurfaceObject_t s_i8,
                                                 int width, int height, int layer)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        unsigned long long v = surf2DLayeredread<unsigned long long>(s_u64, x * 8, y, layer);
        char c = surf2DLayeredread<char>(s_i8, x, y, layer, cudaBoundaryModeZero);
        surf2DLayeredwrite<unsigned long long>(v * 3ull + (unsigned long long)(long long)c,
                                               s_u64, x * 8, y, layer + 1, cudaBoundaryModeZero);
        surf2DLayeredwrite<char>((char)(c + 1), s_i8, x + 1, y, layer, cudaBoundaryModeZero);
    }
}

// 2D surface with 16-byte longlong2 and 8-byte float2 elements, clamp-mode writes.
extern "C" __global__ void surf2dl_wide_clamp(cudaSurfaceObject_t s_ll2, cudaSurfaceObject_t s_f2,
                                              int width, int height, int layer)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        longlong2 a = surf2DLayeredread<longlong2>(s_ll2, x * 16, y, layer);
        float2 f = surf2DLayeredread<float2>(s_f2, x * 8, y, layer, cudaBoundaryModeClamp);
        surf2DLayeredwrite(make_longlong2(a.y, a.x + (long long)f.x), s_ll2, x * 16, y, layer,
                           cudaBoundaryModeClamp);
        surf2DLayeredwrite(make_float2(f.x * 0.5f, f.y * 2.0f), s_f2, (x + 1) * 8, y, layer,
                           cudaBoundaryModeClamp);
    }
}

// ---------------------------------------------------------------------------
// Cubemaps
// ---------------------------------------------------------------------------

// Fill each face of a float cubemap with face*1000 + y*size + x.
extern "C" __global__ void surfcube_fill(cudaSurfaceObject_t s, int size)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int face = blockIdx.z;
    if (x < size && y < size && face < 6)
        surfCubemapwrite((float)(face * 1000 + y * size + x), s, x * 4, y, face);
}

// Average of all six faces at (x, y), uchar4 cubemap, out-param read.
extern "C" __global__ void surfcube_average_uchar4(cudaSurfaceObject_t s, uchar4 *out, int size)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size && y < size) {
        unsigned r = 0, g = 0, b = 0, a = 0;
        for (int f = 0; f < 6; ++f) {
            uchar4 p;
            surfCubemapread(&p, s, x * 4, y, f);
            r += p.x; g += p.y; b += p.z; a += p.w;
        }
        out[y * size + x] = make_uchar4(r / 6, g / 6, b / 6, a / 6);
    }
}

// Cubemap int reads with clamp and zero, writes with zero.
extern "C" __global__ void surfcube_int_modes(cudaSurfaceObject_t s, int2 *out, int size, int face)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size && y < size) {
        int c = surfCubemapread<int>(s, (x + 1) * 4, y, face, cudaBoundaryModeClamp);
        int z = surfCubemapread<int>(s, (x + 1) * 4, y, face, cudaBoundaryModeZero);
        out[y * size + x] = make_int2(c, z);
        surfCubemapwrite<int>(c - z, s, x * 4, y + 1, face, cudaBoundaryModeZero);
    }
}

// Cubemap of shorts.
extern "C" __global__ void surfcube_short(cudaSurfaceObject_t s, int size)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int face = blockIdx.z;
    if (x < size && y < size) {
        short v = surfCubemapread<short>(s, x * 2, y, face);
        surfCubemapwrite<short>((short)(-v), s, x * 2, y, face, cudaBoundaryModeTrap);
    }
}

// ---------------------------------------------------------------------------
// Layered cubemaps
// ---------------------------------------------------------------------------

// Copy layer `src_layer` of a float layered cubemap to `dst_layer`.
extern "C" __global__ void surfcubel_copy_layer(cudaSurfaceObject_t s, int size, int src_layer, int dst_layer)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int face = blockIdx.z;
    if (x < size && y < size && face < 6) {
        float v = surfCubemapLayeredread<float>(s, x * 4, y, src_layer * 6 + face);
        surfCubemapLayeredwrite(v, s, x * 4, y, dst_layer * 6 + face);
    }
}

// float4 layered cubemap with clamp reads; int4 with zero-mode writes.
extern "C" __global__ void surfcubel_vec(cudaSurfaceObject_t s_f4, cudaSurfaceObject_t s_i4,
                                         int size, int layerface)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size && y < size) {
        float4 f;
        surfCubemapLayeredread(&f, s_f4, (x - 1) * 16, y, layerface, cudaBoundaryModeClamp);
        int4 i = make_int4(__float2int_rn(f.x), __float2int_rn(f.y), __float2int_rn(f.z),
                           __float2int_rn(f.w));
        surfCubemapLayeredwrite(i, s_i4, (x + 1) * 16, y, layerface, cudaBoundaryModeZero);
    }
}

// Unsigned char and unsigned int layered cubemaps, zero reads.
extern "C" __global__ void surfcubel_narrow_zero(cudaSurfaceObject_t s_u8, cudaSurfaceObject_t s_u32,
                                                 unsigned *out, int size, int layerface)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size && y < size) {
        unsigned char b = surfCubemapLayeredread<unsigned char>(s_u8, x, y - 1, layerface,
                                                                cudaBoundaryModeZero);
        unsigned u = surfCubemapLayeredread<unsigned int>(s_u32, x * 4, y, layerface,
                                                          cudaBoundaryModeZero);
        out[y * size + x] = u * 256u + b;
        surfCubemapLayeredwrite<unsigned char>((unsigned char)(b * 2), s_u8, x, y, layerface);
    }
}
