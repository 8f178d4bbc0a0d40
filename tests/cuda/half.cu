// Half precision (__half, __half2) and bfloat16 (__nv_bfloat16,
// __nv_bfloat162) arithmetic, comparisons and conversions.

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// Scalar __half arithmetic.
extern "C" __global__ void half_arith(const __half *a, const __half *b, const __half *c, __half *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half x = a[i], y = b[i], z = c[i];
        __half *o = out + 14 * i;
        o[0] = __hadd(x, y);
        o[1] = __hsub(x, y);
        o[2] = __hmul(x, y);
        o[3] = __hdiv(x, y);
        o[4] = __hfma(x, y, z);
        o[5] = __hneg(x);
        o[6] = __habs(x);
        o[7] = __hmax(x, y);
        o[8] = __hmin(x, y);
        o[9] = __hmax_nan(x, y);
        o[10] = __hmin_nan(x, y);
        o[11] = __hadd_sat(x, y);
        o[12] = __hfma_relu(x, y, z);
        o[13] = x * y + z - x / (y + __float2half(2.0f));   // operator overloads
    }
}

// Packed __half2 arithmetic.
extern "C" __global__ void half2_arith(const __half2 *a, const __half2 *b, const __half2 *c, __half2 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 x = a[i], y = b[i], z = c[i];
        __half2 *o = out + 12 * i;
        o[0] = __hadd2(x, y);
        o[1] = __hsub2(x, y);
        o[2] = __hmul2(x, y);
        o[3] = __h2div(x, y);
        o[4] = __hfma2(x, y, z);
        o[5] = __hneg2(x);
        o[6] = __habs2(x);
        o[7] = __hmax2(x, y);
        o[8] = __hmin2_nan(x, y);
        o[9] = __hfma2_sat(x, y, z);
        o[10] = __lowhigh2highlow(x);
        o[11] = __halves2half2(__low2half(x), __high2half(y));
    }
}

// Comparisons, returning masks / bools.
extern "C" __global__ void half_compare(const __half *a, const __half *b, const __half2 *a2, const __half2 *b2,
                                        unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half x = a[i], y = b[i];
        __half2 X = a2[i], Y = b2[i];
        unsigned bits = 0;
        bits |= (unsigned)__heq(x, y) << 0;
        bits |= (unsigned)__hne(x, y) << 1;
        bits |= (unsigned)__hlt(x, y) << 2;
        bits |= (unsigned)__hle(x, y) << 3;
        bits |= (unsigned)__hgt(x, y) << 4;
        bits |= (unsigned)__hge(x, y) << 5;
        bits |= (unsigned)__hisnan(x) << 6;
        bits |= (unsigned)__hisinf(x) << 7;        // returns -1/0/1
        bits |= (unsigned)__hequ(x, y) << 8;
        bits |= (unsigned)__hltu(x, y) << 9;
        bits |= (unsigned)__hbeq2(X, Y) << 10;
        bits |= (unsigned)__hblt2(X, Y) << 11;
        bits |= (unsigned)__hbgtu2(X, Y) << 12;
        out[3 * i + 0] = bits;
        out[3 * i + 1] = __heq2_mask(X, Y) ^ __hlt2_mask(X, Y);
        __half2 c = __hgt2(X, Y);                    // 1.0 / 0.0 per lane
        out[3 * i + 2] = *(unsigned *)&c;
    }
}

// Conversions float <-> half with rounding modes, int <-> half.
extern "C" __global__ void half_convert(const float *f, const int *k, __half *h, float *back, int *ints, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = f[i];
        int v = k[i];
        __half *o = h + 12 * i;
        o[0] = __float2half(x);
        o[1] = __float2half_rn(x);
        o[2] = __float2half_rz(x);
        o[3] = __float2half_ru(x);
        o[4] = __float2half_rd(x);
        o[5] = __int2half_rn(v);
        o[6] = __int2half_rz(v);
        o[7] = __uint2half_rd((unsigned)v);
        o[8] = __short2half_rn((short)v);
        o[9] = __ll2half_ru((long long)v * 3);
        o[10] = __double2half((double)x * 1.0000001);
        __half2 p = __floats2half2_rn(x, -x);
        o[11] = __hadd(__low2half(p), __high2half(p));
        back[2 * i + 0] = __half2float(o[1]);
        back[2 * i + 1] = __high2float(__float2half2_rn(x));
        int *q = ints + 6 * i;
        q[0] = __half2int_rn(o[1]);
        q[1] = __half2int_rz(o[1]);
        q[2] = __half2int_ru(o[1]);
        q[3] = __half2int_rd(o[1]);
        q[4] = (int)__half2uint_rn(__habs(o[1]));
        q[5] = (int)__half2short_rz(o[1]) + (int)__half_as_ushort(o[1]);
    }
}

// Half math functions.
extern "C" __global__ void half_math(const __half *a, const __half2 *a2, __half *out, __half2 *out2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half x = __habs(a[i]) + __float2half(0.5f);
        __half2 X = __habs2(a2[i]) + __float2half2_rn(0.5f);
        __half *o = out + 8 * i;
        o[0] = hsqrt(x);
        o[1] = hrsqrt(x);
        o[2] = hrcp(x);
        o[3] = hexp(x);
        o[4] = hlog2(x);
        o[5] = hsin(x);
        o[6] = hfloor(x);
        o[7] = htrunc(x);
        out2[2 * i + 0] = h2sqrt(X);
        out2[2 * i + 1] = h2exp2(X);
    }
}

// bfloat16 scalar and packed arithmetic.
extern "C" __global__ void bf16_arith(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat162 *a2,
                                      const __nv_bfloat162 *b2, __nv_bfloat16 *out, __nv_bfloat162 *out2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __nv_bfloat16 x = a[i], y = b[i];
        __nv_bfloat162 X = a2[i], Y = b2[i];
        __nv_bfloat16 *o = out + 10 * i;
        o[0] = __hadd(x, y);
        o[1] = __hsub(x, y);
        o[2] = __hmul(x, y);
        o[3] = __hdiv(x, y);
        o[4] = __hfma(x, y, x);
        o[5] = __hmax(x, y);
        o[6] = __hmin_nan(x, y);
        o[7] = __hneg(x);
        o[8] = __habs(y);
        o[9] = __hfma_relu(x, y, y);
        __nv_bfloat162 *p = out2 + 7 * i;
        p[0] = __hadd2(X, Y);
        p[1] = __hmul2(X, Y);
        p[2] = __hfma2(X, Y, X);
        p[3] = __hmax2_nan(X, Y);
        p[4] = __hmin2(X, Y);
        p[5] = __h2div(X, Y);
        p[6] = __hsub2(X, Y);
    }
}

// Conversions float <-> bf16 <-> half.
extern "C" __global__ void bf16_convert(const float *f, __nv_bfloat16 *b, float *back, __half *h, int *ints, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = f[i];
        __nv_bfloat16 *o = b + 8 * i;
        o[0] = __float2bfloat16(x);
        o[1] = __float2bfloat16_rz(x);
        o[2] = __float2bfloat16_ru(x);
        o[3] = __float2bfloat16_rd(x);
        o[4] = __int2bfloat16_rn((int)x);
        o[5] = __double2bfloat16((double)x);
        __nv_bfloat162 p = __floats2bfloat162_rn(x, x * 2.0f);
        o[6] = __high2bfloat16(p);
        o[7] = __ushort_as_bfloat16((unsigned short)(__bfloat16_as_ushort(o[0]) ^ 0x8000));
        back[3 * i + 0] = __bfloat162float(o[0]);
        back[3 * i + 1] = __low2float(p);
        back[3 * i + 2] = __bfloat162float(o[3]) + __bfloat162float(o[2]);
        // bf16 -> half goes through float
        h[i] = __float2half_rn(__bfloat162float(o[1]));
        ints[2 * i + 0] = __bfloat162int_rz(o[0]);
        ints[2 * i + 1] = (int)__bfloat162uint_rd(__habs(o[0]));
    }
}

// Realistic: half-precision AXPY with float accumulation of a dot product.
extern "C" __global__ void half2_axpy_dot(const __half2 *x, __half2 *y, __half2 alpha, float *dot, int n2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        __half2 v = __hfma2(alpha, x[i], y[i]);
        y[i] = v;
        float2 f = __half22float2(v);
        float2 g = __half22float2(x[i]);
        dot[i] = f.x * g.x + f.y * g.y;
    }
}
