// cuda_fp8.h as CUDA C++ code uses it: float to __nv_fp8_e4m3 and
// __nv_fp8_e5m2 (round to nearest even, saturating to the largest finite
// value), pairs through __nv_fp8x2_*, and back to float and __half2.
// Driven by tests/t_kernels.c.
#include <cuda_fp8.h>

// bits4/bits5: the fp8 codes of in[i]; back4/back5: their values as float.
extern "C" __global__ void fp8_scalar(const float *in, unsigned char *bits4, unsigned char *bits5, float *back4,
                                      float *back5, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_fp8_e4m3 a(in[i]);
    __nv_fp8_e5m2 b(in[i]);
    bits4[i] = a.__x;
    bits5[i] = b.__x;
    back4[i] = float(a);
    back5[i] = float(b);
}

// Pairs: (in[2i], in[2i+1]) to __nv_fp8x2_e4m3 and __nv_fp8x2_e5m2 (the
// codes, the first in the low byte), and the e4m3 pair back as __half2.
extern "C" __global__ void fp8_pairs(const float2 *in, unsigned short *bits4, unsigned short *bits5, __half2 *h,
                                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    __nv_fp8x2_e4m3 a(in[i]);
    __nv_fp8x2_e5m2 b(in[i]);
    bits4[i] = a.__x;
    bits5[i] = b.__x;
    h[i] = __half2(a);
}
