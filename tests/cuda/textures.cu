// Texture-object kernels.
//
// Each kernel receives a cudaTextureObject_t; the harness decides the
// filter mode, address mode, normalized coordinates and read mode.
// Coordinates are computed deterministically from the thread index.

#include <cuda_runtime.h>

// Linear-memory texture: integer-indexed fetch (float and int).
extern "C" __global__ void tex_fetch1d(cudaTextureObject_t tf, cudaTextureObject_t ti,
                                       float *outf, int *outi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        outf[i] = tex1Dfetch<float>(tf, i);
        int v;
        tex1Dfetch(&v, ti, n - 1 - i);
        outi[i] = v;
    }
}

// tex1Dfetch of a uchar4 buffer bound with cudaReadModeNormalizedFloat.
extern "C" __global__ void tex_fetch1d_norm(cudaTextureObject_t t, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float4>(t, i);
}

// 1D array texture sampled at texel centres plus an offset.
extern "C" __global__ void tex_1d(cudaTextureObject_t t, float *out, float offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1D<float>(t, (float)i + 0.5f + offset);
}

// 1D texture, normalized coordinates, int4 result (element type int4).
extern "C" __global__ void tex_1d_int4(cudaTextureObject_t t, int4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1D<int4>(t, ((float)i + 0.5f) / (float)n);
}

// 2D texture: image resample (scale factor sx, sy).
extern "C" __global__ void tex_2d_resample(cudaTextureObject_t t, float *out, int w, int h,
                                           float sx, float sy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float>(t, ((float)x + 0.5f) * sx, ((float)y + 0.5f) * sy);
}

// 2D texture of uchar4 read as normalized float4 (RGBA8 -> float4).
extern "C" __global__ void tex_2d_rgba(cudaTextureObject_t t, float4 *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float4 c;
        tex2D(&c, t, (float)x + 0.5f, (float)y + 0.5f);
        // luminance-weighted grey in .w
        c.w = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
        out[y * w + x] = c;
    }
}

// 2D texture of unsigned int (element-type read mode).
extern "C" __global__ void tex_2d_uint(cudaTextureObject_t t, unsigned *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D<unsigned int>(t, (float)(w - 1 - x) + 0.5f, (float)y + 0.5f);
}

// 3D texture: trilinear sample at voxel centres shifted by half a voxel.
extern "C" __global__ void tex_3d(cudaTextureObject_t t, float *out, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d)
        out[(z * h + y) * w + x] = tex3D<float>(t, (float)x + 1.0f, (float)y + 0.5f, (float)z + 0.75f);
}

// 3D texture with int element type.
extern "C" __global__ void tex_3d_int(cudaTextureObject_t t, int *out, int w, int h, int d)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d)
        out[(z * h + y) * w + x] = tex3D<int>(t, (float)x + 0.5f, (float)y + 0.5f, (float)z + 0.5f);
}

// 1D layered texture: average of all layers.
extern "C" __global__ void tex_1d_layered(cudaTextureObject_t t, float *out, int w, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < w) {
        float s = 0.0f;
        for (int l = 0; l < layers; ++l)
            s += tex1DLayered<float>(t, (float)x + 0.5f, l);
        out[x] = s / (float)layers;
    }
}

// 2D layered texture: one layer per blockIdx.z, float4 result.
extern "C" __global__ void tex_2d_layered(cudaTextureObject_t t, float4 *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int l = blockIdx.z;
    if (x < w && y < h)
        out[(l * h + y) * w + x] = tex2DLayered<float4>(t, (float)x + 0.25f, (float)y + 0.75f, l);
}

// Cubemap lookup along a direction vector given per thread.
extern "C" __global__ void tex_cubemap(cudaTextureObject_t t, const float4 *dirs, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 d = dirs[i];
        out[i] = texCubemap<float>(t, d.x, d.y, d.z);
    }
}

// Layered cubemap lookup: direction + layer.
extern "C" __global__ void tex_cubemap_layered(cudaTextureObject_t t, const float4 *dirs, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 d = dirs[i];
        out[i] = texCubemapLayered<float4>(t, d.x, d.y, d.z, (int)d.w);
    }
}

// tex2Dgather of each component (0..3) of a float4 texture.
extern "C" __global__ void tex_2d_gather(cudaTextureObject_t t, float4 *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float u = (float)x + 1.0f, v = (float)y + 1.0f;
        int o = (y * w + x) * 4;
        out[o + 0] = tex2Dgather<float4>(t, u, v, 0);
        out[o + 1] = tex2Dgather<float4>(t, u, v, 1);
        out[o + 2] = tex2Dgather<float4>(t, u, v, 2);
        out[o + 3] = tex2Dgather<float4>(t, u, v, 3);
    }
}

// tex2Dgather on an int texture, component 0 (int4 result).
extern "C" __global__ void tex_2d_gather_int(cudaTextureObject_t t, int4 *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2Dgather<int4>(t, (float)x + 1.0f, (float)y + 1.0f);
}

// Explicit level-of-detail lookups: 1D, 2D, 3D.
extern "C" __global__ void tex_lod(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                                   float4 *out, float level, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float u = ((float)i + 0.5f) / (float)n;
        float a = tex1DLod<float>(t1, u, level);
        float b = tex2DLod<float>(t2, u, 1.0f - u, level);
        float c = tex3DLod<float>(t3, u, 0.5f, 1.0f - u, level);
        out[i] = make_float4(a, b, c, level);
    }
}

// Layered/cubemap LOD lookups.
extern "C" __global__ void tex_lod_layered(cudaTextureObject_t t1l, cudaTextureObject_t t2l,
                                           cudaTextureObject_t tc, cudaTextureObject_t tcl,
                                           float4 *out, float level, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float u = ((float)i + 0.5f) / (float)n;
        float a = tex1DLayeredLod<float>(t1l, u, i & 1, level);
        float b = tex2DLayeredLod<float>(t2l, u, u, i & 3, level);
        float c = texCubemapLod<float>(tc, 1.0f, u - 0.5f, 0.25f, level);
        float d = texCubemapLayeredLod<float>(tcl, -1.0f, 0.5f - u, 0.25f, i & 1, level);
        out[i] = make_float4(a, b, c, d);
    }
}

// Gradient lookups: tex1DGrad, tex2DGrad, tex3DGrad, tex1DLayeredGrad, tex2DLayeredGrad, texCubemapGrad.
extern "C" __global__ void tex_grad(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                                    cudaTextureObject_t t1l, cudaTextureObject_t t2l, cudaTextureObject_t tc,
                                    float *out, float g, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float u = ((float)i + 0.5f) / (float)n;
        float r = 0.0f;
        r += tex1DGrad<float>(t1, u, g, g);
        r += tex2DGrad<float>(t2, u, u, make_float2(g, 0.0f), make_float2(0.0f, g));
        r += tex3DGrad<float>(t3, u, u, u, make_float4(g, 0, 0, 0), make_float4(0, g, 0, 0));
        r += tex1DLayeredGrad<float>(t1l, u, 1, g, g);
        r += tex2DLayeredGrad<float>(t2l, u, u, 2, make_float2(g, 0.0f), make_float2(0.0f, g));
        r += texCubemapGrad<float>(tc, 1.0f, u, -u, make_float4(g, 0, 0, 0), make_float4(0, g, 0, 0));
        out[i] = r;
    }
}

// Sparse texture residency query via the isResident forms.
extern "C" __global__ void tex_resident(cudaTextureObject_t t2, cudaTextureObject_t t3,
                                        float *out, int *resident, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        bool r2 = false, r3 = false;
        float u = (float)i + 0.5f;
        float a = tex2D<float>(t2, u, 0.5f, &r2);
        float b = tex3D<float>(t3, u, 0.5f, 0.5f, &r3);
        out[i] = a + b;
        resident[i] = (r2 ? 1 : 0) | (r3 ? 2 : 0);
    }
}

// Gather on char4/short texture types (element-type reads) with out-param.
extern "C" __global__ void tex_2d_small_types(cudaTextureObject_t tc4, cudaTextureObject_t ts,
                                              int4 *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        char4 c;
        tex2D(&c, tc4, (float)x + 0.5f, (float)y + 0.5f);
        short s = tex2D<short>(ts, (float)x + 0.5f, (float)y + 0.5f);
        out[y * w + x] = make_int4(c.x, c.y, c.z + c.w, s);
    }
}
