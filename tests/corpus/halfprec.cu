// cuda_fp16.h, cuda_bf16.h and cuda_fp8.h: conversions, arithmetic,
// comparisons and the packed forms, one kernel per header.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

__global__ void fp16_ops(const float *in, __half *out, __half2 *out2, float *fo)
{
    int i = threadIdx.x;
    __half a = __float2half_rn(in[i]), b = __float2half_rz(in[i + 1]), c = __float2half_rd(in[i + 2]);
    __half2 p = __floats2half2_rn(in[i], in[i + 3]), q = __halves2half2(b, c);
    __half r = __hfma(a, b, c) + __hmul_sat(a, b) - __hdiv(a, c) + __hmax(a, b) + __hmin_nan(b, c);
    r = __hadd_rn(r, hsqrt(a)) + hexp(b) + hlog2(c) + hrcp(a) + hsin(b) + htanh(c);
    __half2 s = __hfma2(p, q, p) + __hmul2(p, q) + __h2div(p, q) + __hmax2(p, q) + __habs2(q);
    s = __hfma2_relu(s, p, q) + __hcmadd(p, q, s) + h2exp2(p) + h2rsqrt(q) + __hneg2(p);
    out[i] = r + __int2half_rn(i) + __uint2half_rd(i) + __ll2half_ru(i) + __short2half_rz(i);
    out2[i] = s;
    fo[i] = __half2float(r) + __low2float(s) + __high2float(s) + __half2int_rn(a) + __half2uint_rz(b) +
            __hbeq2(p, q) + __hgt(a, b) + __hisnan(c) + __hisinf(a) + __half2ll_rd(c) + __half2short_ru(a);
    atomicAdd(&out2[0], s);
    atomicAdd(&out[1], r);
    __half2 sh = __shfl_xor_sync(0xffffffff, s, 1);
    fo[i + 32] = __low2float(sh);
}

__global__ void bf16_ops(const float *in, __nv_bfloat16 *out, __nv_bfloat162 *out2, float *fo)
{
    int i = threadIdx.x;
    __nv_bfloat16 a = __float2bfloat16(in[i]), b = __float2bfloat16_rz(in[i + 1]), c = __float2bfloat16_rd(in[i + 2]);
    __nv_bfloat162 p = __floats2bfloat162_rn(in[i], in[i + 3]), q = __halves2bfloat162(b, c);
    __nv_bfloat16 r = __hfma(a, b, c) + __hmul_rn(a, b) - __hdiv(a, c) + __hmax(a, b) + __hmin_nan(b, c);
    r = r + hsqrt(a) + hexp(b) + hlog(c) + hrcp(a) + hcos(b) + htanh_approx(c);
    __nv_bfloat162 s = __hfma2(p, q, p) + __hmul2(p, q) + __h2div(p, q) + __hmax2(p, q) + __habs2(q);
    s = __hfma2_relu(s, p, q) + h2exp(p) + h2sqrt(q) + __hneg2(p);
    out[i] = r + __int2bfloat16_rn(i) + __uint2bfloat16_rd(i) + __ll2bfloat16_ru(i) + __float2bfloat16_ru(in[i]);
    out2[i] = s;
    fo[i] = __bfloat162float(r) + __low2float(s) + __high2float(s) + __bfloat162int_rn(a) + __bfloat162uint_rz(b) +
            __hbeq2(p, q) + __hgt(a, b) + __hisnan(c) + __bfloat162ll_rd(c) + __bfloat162float(__double2bfloat16(in[i]));
    atomicAdd(&out2[0], s);
    atomicAdd(&out[1], r);
}

__global__ void fp8_ops(const float *in, unsigned char *out, float *fo)
{
    int i = threadIdx.x;
    float2 f2 = make_float2(in[i], in[i + 1]);
    __nv_fp8_e4m3 a(in[i]);
    __nv_fp8_e5m2 b(in[i + 1]);
    __nv_fp8x2_e4m3 p(f2);
    __nv_fp8x2_e5m2 q(f2);
    __nv_fp8x4_e4m3 x4(make_float4(in[i], in[i + 1], in[i + 2], in[i + 3]));
    __nv_fp8_storage_t s = __nv_cvt_float_to_fp8(in[i + 2], __NV_SATFINITE, __NV_E4M3);
    __nv_fp8x2_storage_t t = __nv_cvt_float2_to_fp8x2(f2, __NV_NOSAT, __NV_E5M2);
    __nv_fp8x2_storage_t u = __nv_cvt_halfraw2_to_fp8x2(__half2_raw(__floats2half2_rn(in[i], in[i + 2])), __NV_SATFINITE, __NV_E4M3);
    __nv_fp8_storage_t v = __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw(__float2bfloat16(in[i])), __NV_SATFINITE, __NV_E5M2);
    __nv_fp8x2_storage_t w = __nv_cvt_double2_to_fp8x2(make_double2(in[i], in[i + 3]), __NV_SATFINITE, __NV_E4M3);
    __half_raw h = __nv_cvt_fp8_to_halfraw(s, __NV_E4M3);
    __half2_raw h2 = __nv_cvt_fp8x2_to_halfraw2(t, __NV_E5M2);
    out[4 * i] = a.__x ^ b.__x ^ s ^ v;
    out[4 * i + 1] = (unsigned char)(p.__x ^ q.__x ^ t ^ u ^ w);
    out[4 * i + 2] = (unsigned char)x4.__x;
    fo[i] = float(a) + float(b) + float2(p).x + float2(q).y + __half2float(__half(h)) +
            __low2float(__half2(h2)) + float(x4.__x >> 8);
}
