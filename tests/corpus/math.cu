// The CUDA math library and integer intrinsics: what sm_90 code calls
// through math_functions.h and sm_*_intrinsics.h.

__global__ void float_math(const float *x, float *y)
{
    int i = threadIdx.x;
    float a = x[i], b = x[i + 1];
    y[i] = sinf(a) + cosf(b) + tanf(a) + expf(b) + exp2f(a) + expm1f(b) + logf(a) + log1pf(b) + log10f(a) +
           powf(a, b) + sqrtf(a) + rsqrtf(b) + cbrtf(a) + erff(a) + erfcf(b) + erfinvf(a) + lgammaf(b) +
           tgammaf(a) + atan2f(a, b) + asinhf(b) + fmodf(a, b) + remainderf(a, b) + hypotf(a, b) + j0f(a) +
           normcdff(b) + __sinf(a) + __expf(b) + __fdividef(a, b) + __saturatef(a) + __fmaf_rz(a, b, a) +
           __frcp_rd(a) + __fsqrt_ru(b) + __fadd_rz(a, b) + __fmul_rd(a, b) + rintf(a) + truncf(b) + ldexpf(a, 3) +
           scalbnf(b, 2) + copysignf(a, b) + fminf(a, b) + fmaxf(a, b) + (float)ilogbf(a) + nextafterf(a, b);
}

__global__ void double_math(const double *x, double *y)
{
    int i = threadIdx.x;
    double a = x[i], b = x[i + 1];
    y[i] = sin(a) + cos(b) + exp(a) + log(b) + pow(a, b) + sqrt(a) + rsqrt(b) + cbrt(a) + erf(a) + lgamma(b) +
           atan2(a, b) + fmod(a, b) + hypot(a, b) + __dadd_rn(a, b) + __dmul_ru(a, b) + __drcp_rz(a) +
           __dsqrt_rd(b) + __fma_rn(a, b, a) + rint(a) + (double)__double2int_rz(b) + __double2float_ru(a) +
           (double)__double_as_longlong(a) + __hiloint2double(__double2hiint(a), __double2loint(b));
}

__global__ void int_intrinsics(const unsigned *x, unsigned *y)
{
    int i = threadIdx.x;
    unsigned a = x[i], b = x[i + 1], c = x[i + 2];
    y[i] = __popc(a) + __clz(b) + __ffs(c) + __brev(a) + __byte_perm(a, b, c) + __funnelshift_l(a, b, c) +
           __funnelshift_rc(a, b, c) + __mulhi(a, b) + __umulhi(a, b) + (unsigned)__mul64hi(a, b) + __sad(a, b, c) +
           __usad(a, b, c) + __dp4a(a, b, c) + __dp2a_lo(a, b, c) + __dp2a_hi((int)a, (int)b, (int)c) + __hadd(a, b) +
           __urhadd(a, b) + __popcll(((unsigned long long)a << 32) | b) + __fns(a, b, 1);
    y[i + 32] = __vadd2(a, b) + __vsub4(a, b) + __vabsdiffs2(a, b) + __vabsdiffu4(a, b) + __vavgs2(a, b) +
                __vavgu4(a, b) + __vcmpeq2(a, b) + __vcmpgtu4(a, b) + __vmaxs2(a, b) + __vminu4(a, b) +
                __vsads2(a, b) + __vsetgts4(a, b) + __vhaddu2(a, b) + __vneg4(a) + __vabsss2(a) + __vaddss4(a, b) +
                __vsubus2(a, b) + __vimax3_s32(a, b, c) + __vimin_s16x2_relu(a, b) + __viaddmax_s32(a, b, c) +
                __vibmax_u32(a, b, (bool *)&y[i + 64]);
}
