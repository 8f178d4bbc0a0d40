// Magnifies an image through a bilinear texture: output pixel (x, y)
// samples the source texture at its centre mapped back by the scale, so
// the texture unit's linear filtering makes the smooth in-between values.
// The result goes to a surface, one RGBA8 pixel per thread.

#include <cuda_runtime.h>

extern "C" __global__ void magnify(cudaTextureObject_t src, cudaSurfaceObject_t dst, int w, int h, float scale)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float4 c = tex2D<float4>(src, ((float)x + 0.5f) / scale, ((float)y + 0.5f) / scale);
        uchar4 o = make_uchar4(__float2uint_rn(c.x * 255.0f), __float2uint_rn(c.y * 255.0f),
                               __float2uint_rn(c.z * 255.0f), __float2uint_rn(c.w * 255.0f));
        surf2Dwrite(o, dst, x * 4, y);
    }
}
