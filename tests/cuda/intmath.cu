// Integer arithmetic and bit-manipulation intrinsics.
// Every kernel reads a few operand arrays and writes several results per
// element, so the harness can compare against a CPU reference.

#include <cuda_runtime.h>

// High halves of products, mad, 64-bit arithmetic.
extern "C" __global__ void int_mul_hi(const int *a, const int *b, const long long *la, const long long *lb,
                                      long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        long long X = la[i], Y = lb[i];
        long long *o = out + 10 * i;
        o[0] = __mulhi(x, y);
        o[1] = __umulhi((unsigned)x, (unsigned)y);
        o[2] = __mul64hi(X, Y);
        o[3] = (long long)__umul64hi((unsigned long long)X, (unsigned long long)Y);
        o[4] = (long long)x * (long long)y;               // mul.wide.s32
        o[5] = (long long)((unsigned long long)(unsigned)x * (unsigned)y); // mul.wide.u32
        o[6] = x * y + (int)X;                           // mad.lo
        o[7] = X * Y + (long long)x;                     // 64-bit mad
        o[8] = __mul24(x, y) + __umul24((unsigned)x, (unsigned)y);
        o[9] = X - Y * 3;
    }
}

// Signed and unsigned division and modulo in 32 and 64 bits (divisors nonzero).
extern "C" __global__ void int_divmod(const int *a, const int *b, const long long *la, const long long *lb,
                                      long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        long long X = la[i], Y = lb[i];
        long long *o = out + 8 * i;
        o[0] = x / y;
        o[1] = x % y;
        o[2] = (unsigned)x / (unsigned)y;
        o[3] = (unsigned)x % (unsigned)y;
        o[4] = X / Y;
        o[5] = X % Y;
        o[6] = (long long)((unsigned long long)X / (unsigned long long)Y);
        o[7] = (long long)((unsigned long long)X % (unsigned long long)Y);
    }
}

// Division by constants (strength-reduced into mul.hi / shifts).
extern "C" __global__ void int_div_const(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i];
        unsigned u = (unsigned)x;
        out[6 * i + 0] = x / 7;
        out[6 * i + 1] = x % 10;
        out[6 * i + 2] = (int)(u / 3u);
        out[6 * i + 3] = (int)(u % 1000u);
        out[6 * i + 4] = x / 16;
        out[6 * i + 5] = (int)(u >> 5) + (x >> 3);
    }
}

// Bit counting and reversal.
extern "C" __global__ void int_bits(const unsigned *a, const unsigned long long *la, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i];
        unsigned long long X = la[i];
        int *o = out + 10 * i;
        o[0] = (int)__brev(x);
        o[1] = (int)(__brevll(X) >> 32);
        o[2] = __clz((int)x);
        o[3] = __clzll((long long)X);
        o[4] = __popc(x);
        o[5] = __popcll(X);
        o[6] = __ffs((int)x);
        o[7] = __ffsll((long long)X);
        o[8] = 31 - __clz((int)(x | 1));      // floor(log2)
        o[9] = __fns(x, 0, 3);                // find 3rd set bit
    }
}

// Byte permute, funnel shifts, rotates.
extern "C" __global__ void int_permute_shift(const unsigned *a, const unsigned *b, const unsigned *s,
                                             unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i], k = s[i];
        unsigned *o = out + 8 * i;
        o[0] = __byte_perm(x, y, 0x0123);      // byte swap of x
        o[1] = __byte_perm(x, y, k & 0xffff);  // variable selector
        o[2] = __byte_perm(x, 0, 0x8880 | (k & 3));   // sign-replicate mode bits
        o[3] = __funnelshift_l(x, y, k);
        o[4] = __funnelshift_r(x, y, k);
        o[5] = __funnelshift_lc(x, y, k);
        o[6] = __funnelshift_rc(x, y, k);
        o[7] = (x << (k & 31)) | (x >> ((32 - (k & 31)) & 31));   // rotate idiom
    }
}

// Dot products and sum of absolute differences.
extern "C" __global__ void int_dot(const int *a, const int *b, const unsigned *c, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        unsigned ux = (unsigned)x, uy = (unsigned)y, z = c[i];
        int *o = out + 8 * i;
        o[0] = __dp4a(x, y, (int)z);
        o[1] = (int)__dp4a(ux, uy, z);
        o[2] = __dp2a_lo(x, y, (int)z);
        o[3] = __dp2a_hi(x, y, (int)z);
        o[4] = (int)__dp2a_lo(ux, uy, z);
        o[5] = (int)__dp2a_hi(ux, uy, z);
        o[6] = (int)__sad(x, y, z);
        o[7] = (int)__usad(ux, uy, z);
    }
}

// Bit-field extract / insert patterns (the compiler emits bfe/bfi).
extern "C" __global__ void int_bitfield(const unsigned *a, const int *sa, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i];
        int s = sa[i];
        unsigned *o = out + 8 * i;
        o[0] = (x >> 8) & 0xff;                    // extract byte 1
        o[1] = (x >> 4) & 0xfff;                   // extract 12 bits
        o[2] = (unsigned)((s << 12) >> 20);        // signed 12-bit field at bit 8
        o[3] = (x & ~0xff00u) | ((unsigned)s << 8 & 0xff00u);   // insert byte 1
        unsigned r;
        asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(i & 31), "r"(5));
        o[4] = r;
        int sr;
        asm("bfe.s32 %0, %1, %2, %3;" : "=r"(sr) : "r"(s), "r"(i & 31), "r"(7));
        o[5] = (unsigned)sr;
        asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"((unsigned)s), "r"(x), "r"(i & 31), "r"(9));
        o[6] = r;
        unsigned long long R;
        asm("bfe.u64 %0, %1, %2, %3;" : "=l"(R) : "l"((unsigned long long)x << 20 | (unsigned)s), "r"(i & 63), "r"(40));
        o[7] = (unsigned)(R ^ (R >> 32));
    }
}

// SIMD video intrinsics on packed halfwords and bytes.
extern "C" __global__ void int_simd(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i];
        unsigned *o = out + 24 * i;
        o[0] = __vadd2(x, y);
        o[1] = __vsub2(x, y);
        o[2] = __vaddss2(x, y);
        o[3] = __vaddus2(x, y);
        o[4] = __vabsdiffs2(x, y);
        o[5] = __vabsdiffu2(x, y);
        o[6] = __vmaxs2(x, y);
        o[7] = __vminu2(x, y);
        o[8] = __vcmpeq2(x, y);
        o[9] = __vcmpgts2(x, y);
        o[10] = __vavgu2(x, y);
        o[11] = __vsads2(x, y);
        o[12] = __vadd4(x, y);
        o[13] = __vsub4(x, y);
        o[14] = __vaddss4(x, y);
        o[15] = __vsubus4(x, y);
        o[16] = __vabsdiffu4(x, y);
        o[17] = __vabsdiffs4(x, y);
        o[18] = __vmaxu4(x, y);
        o[19] = __vmins4(x, y);
        o[20] = __vcmpltu4(x, y);
        o[21] = __vcmpges4(x, y);
        o[22] = __vsadu4(x, y);
        o[23] = __vhaddu4(x, y) ^ __vneg4(x) ^ __vabsss4(y);
    }
}

// Saturation, halving add, min/max/abs.
extern "C" __global__ void int_minmax_sat(const int *a, const int *b, const long long *la,
                                          long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i], y = b[i];
        long long X = la[i];
        long long *o = out + 12 * i;
        o[0] = min(x, y);
        o[1] = max(x, y);
        o[2] = umin((unsigned)x, (unsigned)y);
        o[3] = umax((unsigned)x, (unsigned)y);
        o[4] = llmin(X, (long long)y);
        o[5] = llmax(X, (long long)y);
        o[6] = abs(x);
        o[7] = llabs(X);
        o[8] = __hadd(x, y);                    // (x + y) >> 1 without overflow
        o[9] = __rhadd(x, y);
        o[10] = (long long)__uhadd((unsigned)x, (unsigned)y) + __urhadd((unsigned)x, (unsigned)y);
        int s;
        asm("add.sat.s32 %0, %1, %2;" : "=r"(s) : "r"(x), "r"(y));
        o[11] = s;
    }
}

// Narrow integer types: char/short arithmetic, sign/zero extension, cvt.
extern "C" __global__ void int_narrow(const signed char *c, const unsigned char *uc, const short *s,
                                      const unsigned short *us, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        signed char a = c[i];
        unsigned char b = uc[i];
        short d = s[i];
        unsigned short e = us[i];
        int *o = out + 6 * i;
        o[0] = a * b;
        o[1] = (short)(d * 3);                  // wrap to 16 bits
        o[2] = (unsigned short)(e + d);
        o[3] = (signed char)(a + b);            // wrap to 8 bits
        o[4] = (int)(long long)d * (int)e;
        o[5] = (d >> 3) ^ (e >> 5);
    }
}

// 64-bit shifts, logic, comparisons and selects.
extern "C" __global__ void int64_misc(const unsigned long long *a, const unsigned long long *b,
                                      const int *k, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long x = a[i], y = b[i];
        int s = k[i] & 63;
        long long sx = (long long)x;
        unsigned long long *o = out + 8 * i;
        o[0] = x << s;
        o[1] = x >> s;
        o[2] = (unsigned long long)(sx >> s);
        o[3] = (x & y) | (~x & ~y);
        o[4] = (x < y) ? x : y;
        o[5] = ((long long)x < (long long)y) ? 1ull : 0ull;
        o[6] = x + y + (x > ~y ? 1ull : 0ull);   // add with manual carry
        o[7] = (unsigned long long)(-sx);
    }
}

// Extended-precision add/sub/mad with carry (addc, subc, madc).
extern "C" __global__ void int_carry_chain(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        // 128-bit add of (a[4i..4i+3]) + (b[4i..4i+3])
        const unsigned *x = a + 4 * i, *y = b + 4 * i;
        unsigned r0, r1, r2, r3, c;
        asm("add.cc.u32 %0, %5, %9;\n\t"
            "addc.cc.u32 %1, %6, %10;\n\t"
            "addc.cc.u32 %2, %7, %11;\n\t"
            "addc.cc.u32 %3, %8, %12;\n\t"
            "addc.u32 %4, 0, 0;"
            : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3), "=r"(c)
            : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
        unsigned d0, d1, bw;
        asm("sub.cc.u32 %0, %3, %4;\n\t"
            "subc.cc.u32 %1, %5, %6;\n\t"
            "subc.u32 %2, 0, 0;"
            : "=r"(d0), "=r"(d1), "=r"(bw) : "r"(x[0]), "r"(y[0]), "r"(x[1]), "r"(y[1]));
        unsigned m0, m1;
        asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\t"
            "madc.hi.u32 %1, %2, %3, %5;"
            : "=r"(m0), "=r"(m1) : "r"(x[0]), "r"(y[0]), "r"(x[1]), "r"(y[1]));
        unsigned *o = out + 10 * i;
        o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = c;
        o[5] = d0; o[6] = d1; o[7] = bw; o[8] = m0; o[9] = m1;
    }
}
