// Single- and double-precision arithmetic, rounding-mode intrinsics, fast
// approximate math, conversions with every rounding mode, classification.
// Compiled WITHOUT -use_fast_math, so sqrtf/division are IEEE-rounded and
// denormals are preserved unless an intrinsic says otherwise.

#include <cuda_runtime.h>
#include <math.h>

// Basic float ops and fma.
extern "C" __global__ void f32_basic(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i], z = c[i];
        float *o = out + 10 * i;
        o[0] = x + y;
        o[1] = x - y;
        o[2] = x * y;
        o[3] = x / y;                 // IEEE division (div.rn.f32)
        o[4] = fmaf(x, y, z);
        o[5] = x * y + z;             // contracted to fma by default
        o[6] = -x;
        o[7] = fabsf(x);
        o[8] = sqrtf(fabsf(y));       // sqrt.rn.f32
        o[9] = 1.0f / z;              // rcp.rn.f32
    }
}

// Explicit rounding-mode float intrinsics.
extern "C" __global__ void f32_rounding(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i], z = c[i];
        float *o = out + 28 * i;
        o[0] = __fadd_rn(x, y);  o[1] = __fadd_rz(x, y);  o[2] = __fadd_ru(x, y);  o[3] = __fadd_rd(x, y);
        o[4] = __fsub_rn(x, y);  o[5] = __fsub_rz(x, y);  o[6] = __fsub_ru(x, y);  o[7] = __fsub_rd(x, y);
        o[8] = __fmul_rn(x, y);  o[9] = __fmul_rz(x, y);  o[10] = __fmul_ru(x, y); o[11] = __fmul_rd(x, y);
        o[12] = __fdiv_rn(x, y); o[13] = __fdiv_rz(x, y); o[14] = __fdiv_ru(x, y); o[15] = __fdiv_rd(x, y);
        o[16] = __frcp_rn(z);    o[17] = __frcp_rz(z);    o[18] = __frcp_ru(z);    o[19] = __frcp_rd(z);
        o[20] = __fsqrt_rn(fabsf(z)); o[21] = __fsqrt_rz(fabsf(z));
        o[22] = __fsqrt_ru(fabsf(z)); o[23] = __fsqrt_rd(fabsf(z));
        o[24] = __fmaf_rn(x, y, z); o[25] = __fmaf_rz(x, y, z);
        o[26] = __fmaf_ru(x, y, z); o[27] = __fmaf_rd(x, y, z);
    }
}

// Approximate/fast intrinsics (results compared with a tolerance).
extern "C" __global__ void f32_fast(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        float *o = out + 14 * i;
        o[0] = __fdividef(x, y);
        o[1] = rsqrtf(fabsf(y) + 1.0f);
        o[2] = __sinf(x);
        o[3] = __cosf(x);
        o[4] = __expf(x * 0.1f);
        o[5] = __log2f(fabsf(y) + 1.0f);
        o[6] = __logf(fabsf(y) + 1.0f);
        o[7] = __powf(fabsf(x) + 1.0f, 0.5f);
        o[8] = __tanhf(x);
        o[9] = exp2f(x * 0.1f);
        o[10] = __saturatef(x);
        o[11] = __frsqrt_rn(fabsf(y) + 1.0f);
        o[12] = __tanf(x * 0.1f);
        o[13] = __exp10f(x * 0.01f);
    }
}

// Library math (software sequences built from basic ops).
extern "C" __global__ void f32_libm(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        float *o = out + 12 * i;
        o[0] = sinf(x);
        o[1] = cosf(x);
        o[2] = expf(x * 0.1f);
        o[3] = logf(fabsf(x) + 1.0f);
        o[4] = floorf(x);
        o[5] = ceilf(x);
        o[6] = truncf(x);
        o[7] = rintf(x);
        o[8] = roundf(x);
        o[9] = fmodf(x, 3.0f);
        o[10] = cbrtf(x);
        o[11] = atan2f(x, 1.5f);
    }
}

// min/max with NaN handling, copysign, classification.
extern "C" __global__ void f32_minmax_class(const float *a, const float *b, float *out, int *cls, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        float *o = out + 6 * i;
        o[0] = fminf(x, y);           // NaN-ignoring min
        o[1] = fmaxf(x, y);
        o[2] = copysignf(x, y);
        float mn;
        asm("max.NaN.f32 %0, %1, %2;" : "=f"(mn) : "f"(x), "f"(y));   // NaN-propagating
        o[3] = mn;
        asm("min.NaN.f32 %0, %1, %2;" : "=f"(mn) : "f"(x), "f"(y));
        o[4] = mn;
        o[5] = fdimf(x, y);
        int *c = cls + 5 * i;
        c[0] = isnan(x);
        c[1] = isinf(x);
        c[2] = isfinite(x);
        c[3] = signbit(x) != 0;
        c[4] = (x == y) | ((x < y) << 1) | ((x > y) << 2) | ((x != y) << 3) | ((x >= y) << 4);
    }
}

// Double precision arithmetic and rounding-mode intrinsics.
extern "C" __global__ void f64_arith(const double *a, const double *b, const double *c, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = a[i], y = b[i], z = c[i];
        double *o = out + 30 * i;
        o[0] = x + y; o[1] = x - y; o[2] = x * y; o[3] = x / y; o[4] = fma(x, y, z);
        o[5] = sqrt(fabs(z)); o[6] = 1.0 / z; o[7] = fmin(x, y); o[8] = fmax(x, y);
        o[9] = __dadd_rn(x, y);  o[10] = __dadd_rz(x, y); o[11] = __dadd_ru(x, y); o[12] = __dadd_rd(x, y);
        o[13] = __dmul_rn(x, y); o[14] = __dmul_rz(x, y); o[15] = __dmul_ru(x, y); o[16] = __dmul_rd(x, y);
        o[17] = __ddiv_rn(x, y); o[18] = __ddiv_rz(x, y); o[19] = __ddiv_ru(x, y); o[20] = __ddiv_rd(x, y);
        o[21] = __fma_rn(x, y, z); o[22] = __fma_rz(x, y, z); o[23] = __fma_ru(x, y, z); o[24] = __fma_rd(x, y, z);
        o[25] = __drcp_rn(z); o[26] = __drcp_rz(z);
        o[27] = __dsqrt_rn(fabs(z)); o[28] = __dsqrt_ru(fabs(z));
        o[29] = copysign(floor(x), y) + trunc(z) + ceil(x) + rint(y);
    }
}

// Float -> integer conversions with every rounding mode.
extern "C" __global__ void cvt_float_to_int(const float *a, const double *d, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        double y = d[i];
        long long *o = out + 40 * i;
        o[0] = __float2int_rn(x);  o[1] = __float2int_rz(x);  o[2] = __float2int_ru(x);  o[3] = __float2int_rd(x);
        o[4] = __float2uint_rn(x); o[5] = __float2uint_rz(x); o[6] = __float2uint_ru(x); o[7] = __float2uint_rd(x);
        o[8] = __float2ll_rn(x);   o[9] = __float2ll_rz(x);   o[10] = __float2ll_ru(x);  o[11] = __float2ll_rd(x);
        o[12] = (long long)__float2ull_rn(x); o[13] = (long long)__float2ull_rz(x);
        o[14] = (long long)__float2ull_ru(x); o[15] = (long long)__float2ull_rd(x);
        o[16] = __double2int_rn(y);  o[17] = __double2int_rz(y);  o[18] = __double2int_ru(y);  o[19] = __double2int_rd(y);
        o[20] = __double2uint_rn(y); o[21] = __double2uint_rz(y); o[22] = __double2uint_ru(y); o[23] = __double2uint_rd(y);
        o[24] = __double2ll_rn(y);   o[25] = __double2ll_rz(y);   o[26] = __double2ll_ru(y);   o[27] = __double2ll_rd(y);
        o[28] = (long long)__double2ull_rn(y); o[29] = (long long)__double2ull_rz(y);
        o[30] = (long long)__double2ull_ru(y); o[31] = (long long)__double2ull_rd(y);
        o[32] = (int)x;                         // C cast: cvt.rzi.s32.f32
        o[33] = (unsigned)x;
        o[34] = (long long)y;
        o[35] = (short)x;                       // cvt to 16-bit
        o[36] = (signed char)x;                 // cvt to 8-bit
        o[37] = (unsigned char)y;
        o[38] = lrintf(x);
        o[39] = llround(y);
    }
}

// Integer -> float conversions with every rounding mode; float <-> double.
extern "C" __global__ void cvt_int_to_float(const int *a, const long long *la, const double *d,
                                            float *fo, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i];
        unsigned u = (unsigned)x;
        long long X = la[i];
        unsigned long long U = (unsigned long long)X;
        double y = d[i];
        float *o = fo + 28 * i;
        o[0] = __int2float_rn(x);  o[1] = __int2float_rz(x);  o[2] = __int2float_ru(x);  o[3] = __int2float_rd(x);
        o[4] = __uint2float_rn(u); o[5] = __uint2float_rz(u); o[6] = __uint2float_ru(u); o[7] = __uint2float_rd(u);
        o[8] = __ll2float_rn(X);   o[9] = __ll2float_rz(X);   o[10] = __ll2float_ru(X);  o[11] = __ll2float_rd(X);
        o[12] = __ull2float_rn(U); o[13] = __ull2float_rz(U); o[14] = __ull2float_ru(U); o[15] = __ull2float_rd(U);
        o[16] = __double2float_rn(y); o[17] = __double2float_rz(y);
        o[18] = __double2float_ru(y); o[19] = __double2float_rd(y);
        o[20] = (float)x; o[21] = (float)u; o[22] = (float)X; o[23] = (float)U;
        o[24] = (float)y;
        o[25] = (float)(short)x;        // s16 -> f32
        o[26] = (float)(unsigned char)x;
        o[27] = __int_as_float(x) + __uint_as_float(u & 0x7f7fffffu);
        double *q = dout + 14 * i;
        q[0] = __int2double_rn(x);
        q[1] = __uint2double_rn(u);
        q[2] = __ll2double_rn(X); q[3] = __ll2double_rz(X); q[4] = __ll2double_ru(X); q[5] = __ll2double_rd(X);
        q[6] = __ull2double_rn(U); q[7] = __ull2double_rz(U); q[8] = __ull2double_ru(U); q[9] = __ull2double_rd(U);
        q[10] = (double)fo[28 * i + 16];     // f32 -> f64
        q[11] = __hiloint2double(x, (int)u ^ 0x55555555);
        q[12] = (double)__double2hiint(y) + (double)__double2loint(y);
        q[13] = __longlong_as_double(X) * 0.0 + __longlong_as_double(X & 0x7fefffffffffffffLL);
    }
}

// Float-to-float rounding to integral values with cvt.rni/rzi/rpi/rmi.
extern "C" __global__ void f32_round_integral(const float *a, const double *d, float *fo, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        double y = d[i];
        fo[4 * i + 0] = nearbyintf(x);
        fo[4 * i + 1] = truncf(x);
        fo[4 * i + 2] = ceilf(x);
        fo[4 * i + 3] = floorf(x);
        dout[4 * i + 0] = nearbyint(y);
        dout[4 * i + 1] = trunc(y);
        dout[4 * i + 2] = ceil(y);
        dout[4 * i + 3] = floor(y);
    }
}

// Flush-to-zero and saturating forms through inline PTX (fixed semantics).
extern "C" __global__ void f32_ftz_sat(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i], r;
        float *o = out + 8 * i;
        asm("add.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[0] = r;
        asm("mul.rn.ftz.sat.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); o[1] = r;
        asm("fma.rn.ftz.sat.f32 %0, %1, %2, %1;" : "=f"(r) : "f"(x), "f"(y)); o[2] = r;
        asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(fabsf(x))); o[3] = r;
        double dr;
        asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(dr) : "d"((double)y));
        o[4] = (float)dr;
        asm("sin.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); o[5] = r;
        asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x * 0.01f)); o[6] = r;
        asm("lg2.approx.f32 %0, %1;" : "=f"(r) : "f"(fabsf(y) + 1.0f)); o[7] = r;
    }
}

// testp classification via inline PTX (as used by some libraries).
extern "C" __global__ void f32_testp(const float *a, const double *d, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i];
        double y = d[i];
        int r[6];
        asm("{ .reg .pred p; testp.finite.f32 p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(r[0]) : "f"(x));
        asm("{ .reg .pred p; testp.infinite.f32 p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(r[1]) : "f"(x));
        asm("{ .reg .pred p; testp.number.f32 p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(r[2]) : "f"(x));
        asm("{ .reg .pred p; testp.notanumber.f64 p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(r[3]) : "d"(y));
        asm("{ .reg .pred p; testp.normal.f32 p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(r[4]) : "f"(x));
        asm("{ .reg .pred p; testp.subnormal.f64 p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(r[5]) : "d"(y));
        for (int k = 0; k < 6; ++k)
            out[6 * i + k] = r[k];
    }
}

// A realistic kernel: SAXPY and a numerically careful dot product (Kahan).
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void kahan_rows(const float *m, float *sums, int cols, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f, c = 0.0f;
        for (int k = 0; k < cols; ++k) {
            float y = __fsub_rn(m[r * cols + k], c);
            float t = __fadd_rn(s, y);
            c = __fsub_rn(__fsub_rn(t, s), y);
            s = t;
        }
        sums[r] = s;
    }
}
