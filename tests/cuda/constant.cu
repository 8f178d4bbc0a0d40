// Module-scope data: __constant__ arrays with initializers, __device__
// variables with initializers (including addresses of other variables),
// structs, and constant tables used as lookup tables.

#include <cuda_runtime.h>

// ---------------------------------------------------------------------------
// __constant__ data
// ---------------------------------------------------------------------------

__constant__ float c_coeffs[8] = {1.0f, -0.5f, 0.25f, -0.125f, 0.0625f, 3.5f, -1.0e-3f, 2.0e10f};
__constant__ int c_lut[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
__constant__ double c_dcoef[4] = {3.141592653589793, 2.718281828459045, -1.0e-300, 1.0e300};
__constant__ unsigned char c_bytes[10] = {'h', 'e', 'l', 'l', 'o', 0xff, 0x80, 0x7f, 0, 1};
__constant__ short c_shorts[5] = {-32768, -1, 0, 1, 32767};
__constant__ long long c_i64[3] = {-9223372036854775807LL - 1, 1234567890123456789LL, -42};

// Uninitialized constant memory, filled by the host (cudaMemcpyToSymbol).
__constant__ float c_filter[32];
__constant__ int c_filter_len;

// Horner evaluation of the c_coeffs polynomial (first 5 coefficients).
extern "C" __global__ void const_poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i], acc = 0.0f;
        for (int k = 4; k >= 0; --k)
            acc = acc * v + c_coeffs[k];
        y[i] = acc;
    }
}

// Nibble popcount with a constant lookup table (indexed by thread data).
extern "C" __global__ void const_lut_popcount(const unsigned *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = in[i];
        int c = 0;
        for (int k = 0; k < 8; ++k)
            c += c_lut[(v >> (4 * k)) & 15];
        out[i] = c;
    }
}

// Read every typed constant array at a data-dependent index.
extern "C" __global__ void const_typed(const int *idx, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = idx[i];
        double r = c_dcoef[k & 3] + (double)c_bytes[k % 10] + (double)c_shorts[k % 5]
                   + (double)c_i64[k % 3] * 1.0e-18 + (double)c_coeffs[k & 7];
        out[i] = r;
    }
}

// 1D convolution with host-filled constant filter.
extern "C" __global__ void const_convolve(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.0f;
        int len = c_filter_len;
        for (int k = 0; k < len; ++k) {
            int j = i + k - len / 2;
            if (j >= 0 && j < n)
                acc += in[j] * c_filter[k];
        }
        out[i] = acc;
    }
}

// ---------------------------------------------------------------------------
// __device__ globals with initializers
// ---------------------------------------------------------------------------

__device__ int g_counter = 100;
__device__ float g_scale = 1.5f;
__device__ double g_dscale = -0.25;
__device__ int g_table[6] = {10, 20, 30, 40, 50, 60};
__device__ unsigned long long g_big = 0xdeadbeefcafebabeull;
__device__ char g_message[] = "ptxvm";

// Pointers initialized with the addresses of other device variables.
__device__ int *g_ptr_counter = &g_counter;
__device__ int *g_ptr_elem = &g_table[3];
__device__ int *g_ptr_array[3] = {&g_table[0], &g_table[2], &g_counter};
__device__ char *g_ptr_msg = g_message + 2;

struct Params {
    int width;
    int height;
    float gain;
    double offset;
    const int *lut;
    unsigned char flags[3];
    short bias;
};

__device__ Params g_params = {640, 480, 0.5f, 12.25, g_table, {1, 2, 3}, -7};

struct Node {
    int value;
    const Node *next;
};

// A constant linked list (addresses of other device variables).
__device__ Node g_n2 = {3, nullptr};
__device__ Node g_n1 = {2, &g_n2};
__device__ Node g_n0 = {1, &g_n1};
__device__ const Node *g_list = &g_n0;

// Read all globals, follow the pointers.
extern "C" __global__ void device_globals(long long *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        out[0] = g_counter;
        out[1] = (long long)(g_scale * 1000.0f);
        out[2] = (long long)(g_dscale * 1000.0);
        out[3] = *g_ptr_counter;
        out[4] = *g_ptr_elem;
        out[5] = *g_ptr_array[0] + *g_ptr_array[1] + *g_ptr_array[2];
        out[6] = (long long)g_big;
        out[7] = g_ptr_msg[0];                    // 'x'
        out[8] = g_params.width * g_params.height;
        out[9] = (long long)(g_params.gain * 100.0f) + (long long)g_params.offset;
        out[10] = g_params.lut[5] + g_params.flags[0] + g_params.flags[2] + g_params.bias;
        long long s = 0;
        for (const Node *p = g_list; p; p = p->next)
            s = s * 10 + p->value;
        out[11] = s;                              // 123
    }
}

// Update globals through pointers; each thread adds to g_table by slot.
extern "C" __global__ void device_globals_update(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&g_table[i % 6], 1);
        atomicAdd(g_ptr_counter, 2);
    }
    if (i == 0) {
        g_scale *= 2.0f;
        g_params.bias += 1;
    }
}

// Copy the struct and the message out (byte-wise).
extern "C" __global__ void device_struct_copy(Params *pout, char *msg)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *pout = g_params;
    if (threadIdx.x < sizeof(g_message))
        msg[threadIdx.x] = g_message[threadIdx.x];
}

// A static (internal linkage) device table and a constant struct.
static __device__ const float s_weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};

struct CStruct {
    int a;
    float b;
    int c[2];
};
__constant__ CStruct c_struct = {7, -2.5f, {11, 13}};

extern "C" __global__ void static_and_cstruct(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * s_weights[i & 3] + c_struct.b * (float)(c_struct.a + c_struct.c[i & 1]);
}

// Constant-memory pointers holding addresses of global-memory variables.
__constant__ const int *c_ptr_table = &g_table[1];
__constant__ const float *c_ptr_weights[2] = {&s_weights[0], &s_weights[2]};

extern "C" __global__ void const_pointers(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (float)c_ptr_table[i % 5] * c_ptr_weights[i & 1][(i >> 1) & 1];
}
