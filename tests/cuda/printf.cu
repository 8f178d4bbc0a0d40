// Device printf.  Output order between threads is not defined, so most
// kernels print from a single thread (or the harness sorts lines).

#include <cstdio>
#include <cuda_runtime.h>

// One line per conversion, printed by thread 0 of block 0.
extern "C" __global__ void printf_conversions(int i, unsigned u, long long ll, unsigned long long ull,
                                              float f, double d, const char *s, char c, const void *p)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        printf("d=%d\n", i);
        printf("i=%i neg=%d\n", i, -i);
        printf("u=%u\n", u);
        printf("x=%x X=%X o=%o\n", u, u, u);
        printf("lld=%lld llu=%llu llx=%llx\n", ll, ull, ull);
        printf("f=%f\n", f);
        printf("lf=%f\n", d);
        printf("e=%e E=%E\n", d, d);
        printf("g=%g G=%G\n", f, d);
        printf("s=%s\n", s);
        printf("c=%c\n", c);
        printf("p=%p\n", p);
        printf("percent=%%\n");
    }
}

// Width, precision, flags and '*' width.
extern "C" __global__ void printf_widths(int i, float f, double d, const char *s)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        printf("[%8d][%-8d][%08d][%+d][% d]\n", i, i, i, i, i);
        printf("[%10.3f][%-10.2f][%.0f][%+.4e]\n", f, f, f, d);
        printf("[%12.5g][%#x][%#o][%.3s]\n", d, (unsigned)i, (unsigned)i, s);
        printf("[%*d][%-*d][%.*f]\n", 6, i, 6, i, 2, d);
        printf("[%5c][%-5c]\n", 'A', 'B');
        printf("[%hd][%hhu][%ld][%lu]\n", (short)i, (unsigned char)i, (long)i * 1000000L,
               (unsigned long)i * 3000000000UL);
    }
}

// Every thread prints its coordinates; harness must sort the lines.
extern "C" __global__ void printf_threads(const int *vals)
{
    int gx = blockIdx.x * blockDim.x + threadIdx.x;
    printf("block %d thread %d value %d\n", blockIdx.x, threadIdx.x, vals[gx]);
}

// printf inside a non-inlined device function and inside a loop; uses the
// return value (number of arguments bytes / negative on error).
__device__ __noinline__ int report(const char *tag, int k, float v)
{
    return printf("%s[%d] = %.2f\n", tag, k, v);
}

extern "C" __global__ void printf_in_function(const float *v, int *ret, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        int total = 0;
        for (int k = 0; k < n; ++k)
            total += (report("v", k, v[k]) >= 0);
        ret[0] = total;
        printf("done: %d lines\n", total);
        printf("no arguments at all\n");
    }
}

// Special floating-point values.
extern "C" __global__ void printf_special(float zero)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        float inf = 1.0f / zero;
        float nan = zero / zero;
        printf("inf=%f -inf=%f nan=%f\n", inf, -inf, nan);
        printf("neg zero=%f tiny=%e big=%g\n", -zero, 1.0e-40, 1.0e300);
    }
}
