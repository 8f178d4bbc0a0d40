// Control flow and calls: non-inlined device functions, recursion,
// function pointers, jump tables, per-thread loop trip counts, early exit.

#include <cuda_runtime.h>
#include <cassert>

// ---------------------------------------------------------------------------
// Non-inlined device functions
// ---------------------------------------------------------------------------

__device__ __noinline__ float lerp3(float a, float b, float c, float t, int mode)
{
    if (mode == 0)
        return a + (b - a) * t;
    return b + (c - b) * t;
}

struct MinMax {
    int lo;
    int hi;
    long long sum;
};

// Returns a struct by value (aggregate return via .param).
__device__ __noinline__ MinMax minmax3(int a, int b, int c)
{
    MinMax r;
    r.lo = min(a, min(b, c));
    r.hi = max(a, max(b, c));
    r.sum = (long long)a + b + c;
    return r;
}

// Results through pointer out-params.
__device__ __noinline__ void divmod(int a, int b, int *q, int *r)
{
    *q = a / b;
    *r = a % b;
}

// Double + 64-bit + byte params.
__device__ __noinline__ double mixed_params(double x, long long k, unsigned char c, short s, float f)
{
    return x * (double)k + (double)c - (double)s + (double)f;
}

extern "C" __global__ void call_noinline(const int *a, const int *b, const int *c,
                                         float *fout, int *iout, long long *lout, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = (float)(i & 7) * 0.125f;
        fout[i] = lerp3((float)a[i], (float)b[i], (float)c[i], t, i & 1);
        MinMax m = minmax3(a[i], b[i], c[i]);
        int q, r;
        divmod(a[i], (b[i] == 0) ? 1 : b[i], &q, &r);
        iout[4 * i + 0] = m.lo;
        iout[4 * i + 1] = m.hi;
        iout[4 * i + 2] = q;
        iout[4 * i + 3] = r;
        lout[i] = m.sum;
        dout[i] = mixed_params(0.5 * a[i], (long long)b[i] << 20, (unsigned char)c[i], (short)(a[i] ^ b[i]),
                               t);
    }
}

// ---------------------------------------------------------------------------
// Recursion
// ---------------------------------------------------------------------------

__device__ __noinline__ unsigned long long factorial(unsigned n)
{
    if (n <= 1)
        return 1ull;
    return (unsigned long long)n * factorial(n - 1);
}

__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

// Ackermann-like recursion with a small bound (deep stack use).
__device__ __noinline__ int gcd_rec(int a, int b)
{
    return b == 0 ? a : gcd_rec(b, a % b);
}

extern "C" __global__ void recursion(const int *in, unsigned long long *fact, int *fibs, int *gcds, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        fact[i] = factorial((unsigned)(v & 15) + 1u);
        fibs[i] = fib(v & 15);
        gcds[i] = gcd_rec(abs(v) + 1, i + 1);
    }
}

// Recursion on an array held in local memory (quicksort of 16 elements).
__device__ __noinline__ void qsort_rec(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) ++i;
        while (a[j] > p) --j;
        if (i <= j) {
            int t = a[i]; a[i] = a[j]; a[j] = t;
            ++i; --j;
        }
    }
    qsort_rec(a, lo, j);
    qsort_rec(a, i, hi);
}

extern "C" __global__ void local_sort16(const int *in, int *out, int nrows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows) {
        int a[16];
        for (int k = 0; k < 16; ++k)
            a[k] = in[r * 16 + k];
        qsort_rec(a, 0, 15);
        for (int k = 0; k < 16; ++k)
            out[r * 16 + k] = a[k];
    }
}

// ---------------------------------------------------------------------------
// Function pointers (indirect calls)
// ---------------------------------------------------------------------------

typedef float (*unary_fn)(float);

__device__ float op_square(float x) { return x * x; }
__device__ float op_negate(float x) { return -x; }
__device__ float op_half(float x) { return x * 0.5f; }
__device__ float op_inc(float x) { return x + 1.0f; }

__device__ unary_fn op_table[4] = {op_square, op_negate, op_half, op_inc};

// Apply the op selected by ops[i] from a device-side table of pointers.
extern "C" __global__ void indirect_calls(const float *in, const int *ops, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unary_fn f = op_table[ops[i] & 3];
        float v = f(in[i]);
        // chain: apply a second op selected locally
        unary_fn g = (i & 1) ? op_inc : op_half;
        out[i] = g(v);
    }
}

typedef int (*binop_fn)(int, int);
__device__ int bin_add(int a, int b) { return a + b; }
__device__ int bin_sub(int a, int b) { return a - b; }
__device__ int bin_mul(int a, int b) { return a * b; }

// Fold an array with a function pointer chosen by a parameter.
__device__ __noinline__ int fold(const int *p, int len, binop_fn f, int init)
{
    int acc = init;
    for (int k = 0; k < len; ++k)
        acc = f(acc, p[k]);
    return acc;
}

extern "C" __global__ void fold_kernel(const int *in, int *out, int op, int len, int nrows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nrows) {
        binop_fn f = (op == 0) ? bin_add : (op == 1) ? bin_sub : bin_mul;
        out[r] = fold(in + r * len, len, f, op == 2 ? 1 : 0);
    }
}

// ---------------------------------------------------------------------------
// Switch statements (dense -> jump table / brx.idx)
// ---------------------------------------------------------------------------

__device__ __noinline__ int opcode_eval(int op, int a, int b)
{
    switch (op) {
    case 0:  return a + b;
    case 1:  return a - b;
    case 2:  return a * b;
    case 3:  return b != 0 ? a / b : 0;
    case 4:  return b != 0 ? a % b : 0;
    case 5:  return a & b;
    case 6:  return a | b;
    case 7:  return a ^ b;
    case 8:  return a << (b & 31);
    case 9:  return a >> (b & 31);
    case 10: return (int)((unsigned)a >> (b & 31));
    case 11: return min(a, b);
    case 12: return max(a, b);
    case 13: return abs(a - b);
    case 14: return a == b;
    case 15: return a < b;
    default: return -1;
    }
}

// A small interpreter: each thread runs its own program of `len` (op, operand) pairs.
extern "C" __global__ void interpreter(const int *prog, const int *init, int *out, int len, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int acc = init[i];
        for (int k = 0; k < len; ++k)
            acc = opcode_eval(prog[2 * k], acc, prog[2 * k + 1] + i);
        out[i] = acc;
    }
}

// An inline dense switch in the kernel body, returning different constants.
extern "C" __global__ void switch_dense(const int *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float r;
    switch (in[i]) {
    case 0:  r = 1.5f; break;
    case 1:  r = -2.25f; break;
    case 2:  r = 3.0f; break;
    case 3:  r = 0.125f; break;
    case 4:  r = 100.0f; break;
    case 5:  r = -7.5f; break;
    case 6:  r = 42.0f; break;
    case 7:  r = 0.0f; break;
    case 8:  r = 9.75f; break;
    case 9:  r = -1.0f; break;
    case 10: r = 11.0f; break;
    case 11: r = 12.5f; break;
    default: r = (float)in[i]; break;
    }
    out[i] = r;
}

// ---------------------------------------------------------------------------
// Loops and early exit
// ---------------------------------------------------------------------------

// Collatz steps: per-thread data-dependent trip count.
extern "C" __global__ void collatz(const unsigned *in, int *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned long long x = in[i];
    int s = 0;
    while (x > 1 && s < 1000) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++s;
    }
    steps[i] = s;
}

// Linear search with early return; nested loops with break/continue.
__device__ __noinline__ int find_first(const int *row, int len, int key)
{
    for (int k = 0; k < len; ++k)
        if (row[k] == key)
            return k;
    return -1;
}

extern "C" __global__ void search_rows(const int *mat, const int *keys, int *pos, int *pairs, int len, int nrows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const int *row = mat + r * len;
    pos[r] = find_first(row, len, keys[r]);

    // count pairs (a, b), a < b, with row[a] + row[b] == key, skipping negatives
    int cnt = 0;
    for (int a = 0; a < len; ++a) {
        if (row[a] < 0)
            continue;
        for (int b = a + 1; b < len; ++b) {
            if (row[b] < 0)
                continue;
            if (row[a] + row[b] == keys[r])
                ++cnt;
            if (cnt >= 8)
                break;
        }
        if (cnt >= 8)
            break;
    }
    pairs[r] = cnt;
}

// do/while with a per-thread iteration count plus a goto-style cleanup path.
extern "C" __global__ void newton_sqrt(const float *in, float *out, int *iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = in[i];
    if (a <= 0.0f) {
        out[i] = 0.0f;
        iters[i] = 0;
        return;
    }
    float x = a > 1.0f ? a : 1.0f;
    int k = 0;
    do {
        float nx = 0.5f * (x + a / x);
        if (fabsf(nx - x) <= 1e-6f * nx) {
            x = nx;
            break;
        }
        x = nx;
    } while (++k < 50);
    out[i] = x;
    iters[i] = k;
}

// Kernel that calls a device function which exits the thread (trap-free):
// threads with invalid input leave before writing anything.
extern "C" __global__ void early_exit(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    if (v < 0)
        return;
    if (v == 0) {
        out[i] = -1;
        return;
    }
    int bits = 0;
    while (v) { v &= v - 1; ++bits; }
    out[i] = bits;
}

// ---------------------------------------------------------------------------
// Indirect branch through a jump table (brx.idx)
// ---------------------------------------------------------------------------
// NVCC lowers C switch statements to compare/branch trees (it does not emit
// brx.idx even for large dense switches), so the jump table is written in
// inline PTX, the way hand-tuned libraries do.  The function is __noinline__
// so the labels appear exactly once in the module.

__device__ __noinline__ int jump_table4(int sel, int a)
{
    int r;
    asm("{\n\t"
        "$Ljt_tab: .branchtargets $Ljt_c0, $Ljt_c1, $Ljt_c2, $Ljt_c3;\n\t"
        "brx.idx %1, $Ljt_tab;\n"
        "$Ljt_c0:\n\t"
        "mul.lo.s32 %0, %2, 3;\n\t"
        "bra.uni $Ljt_done;\n"
        "$Ljt_c1:\n\t"
        "add.s32 %0, %2, 100;\n\t"
        "bra.uni $Ljt_done;\n"
        "$Ljt_c2:\n\t"
        "neg.s32 %0, %2;\n\t"
        "bra.uni $Ljt_done;\n"
        "$Ljt_c3:\n\t"
        "shl.b32 %0, %2, 4;\n"
        "$Ljt_done:\n\t"
        "}"
        : "=r"(r)
        : "r"(sel & 3), "r"(a));
    return r;
}

// out[i] = case (sel[i] & 3) applied to in[i]:
//   0: in*3   1: in+100   2: -in   3: in<<4
extern "C" __global__ void jump_table(const int *sel, const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = jump_table4(sel[i], in[i]);
}

// ---------------------------------------------------------------------------
// Abnormal termination: assert (calls __assertfail), __trap, exit
// ---------------------------------------------------------------------------

// Divides a[i] by b[i]; a zero divisor fails the assertion (which aborts the
// kernel with cudaErrorAssert).  With valid input nothing fires.
extern "C" __global__ void checked_divide(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(b[i] != 0);
        out[i] = a[i] / b[i];
    }
}

// Raises a trap (cudaErrorLaunchFailure) when any input is negative.
extern "C" __global__ void trap_on_negative(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (in[i] < 0)
            __trap();
        out[i] = in[i] * 2;
    }
}

// A thread that executes PTX `exit` stops immediately; the others continue.
extern "C" __global__ void ptx_exit(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    out[i] = -1;
    if (in[i] == 0)
        asm volatile("exit;");
    out[i] = in[i] + 1;
}
