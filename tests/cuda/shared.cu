// Shared-memory kernels: static and dynamic shared arrays, barriers,
// barrier-with-predicate reductions, block reductions and a tiled transpose.

#include <cuda_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8

// Block-wide sum with a static shared array (blockDim.x must be 256).
extern "C" __global__ void block_sum_static(const float *in, float *block_sums, int n)
{
    __shared__ float s[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        block_sums[blockIdx.x] = s[0];
}

// Block-wide integer max with dynamic shared memory sized blockDim.x ints.
extern "C" __global__ void block_max_dynamic(const int *in, int *block_max, int n)
{
    extern __shared__ int sdata[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    sdata[tid] = (i < n) ? in[i] : (int)0x80000000;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            sdata[tid] = max(sdata[tid], sdata[tid + stride]);
        __syncthreads();
    }
    if (tid == 0)
        block_max[blockIdx.x] = sdata[0];
}

// Dynamic shared memory split into two arrays of different types
// (float values followed by int keys): sizes given by blockDim.x.
extern "C" __global__ void dynamic_split(const float *vals, const int *keys, float *out, int n)
{
    extern __shared__ float smem[];
    float *sv = smem;
    int *sk = (int *)&smem[blockDim.x];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    sv[tid] = (i < n) ? vals[i] : 0.0f;
    sk[tid] = (i < n) ? keys[i] : 0;
    __syncthreads();
    // each thread reads the element of its mirror position in the block
    int m = blockDim.x - 1 - tid;
    if (i < n)
        out[i] = sv[m] * (float)sk[m];
}

// __syncthreads_count / _and / _or: per-block predicate statistics.
extern "C" __global__ void barrier_predicates(const int *in, int *stats, int threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    int above = v > threshold;
    int cnt = __syncthreads_count(above);
    int all = __syncthreads_and(v != 0);
    int any = __syncthreads_or(v < 0);
    if (threadIdx.x == 0) {
        stats[blockIdx.x * 3 + 0] = cnt;
        stats[blockIdx.x * 3 + 1] = all;
        stats[blockIdx.x * 3 + 2] = any;
    }
}

// Matrix transpose through a padded shared tile (TILE x TILE, BLOCK_ROWS rows
// of threads per block, blockDim = (32, 8)).
extern "C" __global__ void transpose_tiled(const float *in, float *out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Inclusive scan (Hillis-Steele) of ints within a block, double-buffered
// in dynamic shared memory (2 * blockDim.x ints).
extern "C" __global__ void block_scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    int pout = 0, pin = 1;
    buf[pout * blockDim.x + tid] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (unsigned off = 1; off < blockDim.x; off <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        int v = buf[pin * blockDim.x + tid];
        if (tid >= off)
            v += buf[pin * blockDim.x + tid - off];
        buf[pout * blockDim.x + tid] = v;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[pout * blockDim.x + tid];
}

// 1D stencil with halo loaded into static shared memory (blockDim.x == 128).
#define RADIUS 3
extern "C" __global__ void stencil1d(const int *in, int *out, int n)
{
    __shared__ int temp[128 + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    temp[l] = (g < n) ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        int left = g - RADIUS;
        int right = g + blockDim.x;
        temp[l - RADIUS] = (left >= 0 && left < n) ? in[left] : 0;
        temp[l + blockDim.x] = (right < n) ? in[right] : 0;
    }
    __syncthreads();
    if (g < n) {
        int r = 0;
        for (int o = -RADIUS; o <= RADIUS; ++o)
            r += temp[l + o];
        out[g] = r;
    }
}

// Shared memory of mixed element sizes: bytes, shorts, doubles.
extern "C" __global__ void shared_mixed_types(const unsigned char *b, const short *s, const double *d,
                                              double *out, int n)
{
    __shared__ unsigned char sb[64];
    __shared__ short ss[64];
    __shared__ double sd[64];
    int t = threadIdx.x;       // blockDim.x == 64
    int i = blockIdx.x * 64 + t;
    sb[t] = (i < n) ? b[i] : 0;
    ss[t] = (i < n) ? s[i] : 0;
    sd[t] = (i < n) ? d[i] : 0.0;
    __syncthreads();
    int o = (t + 1) & 63;
    if (i < n)
        out[i] = sd[o] + (double)ss[o] - (double)sb[o];
}

// Vectorized shared loads/stores (float4) with a rotation inside the block.
extern "C" __global__ void shared_float4_rotate(const float4 *in, float4 *out, int n)
{
    __shared__ float4 s[128];   // blockDim.x == 128
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) s[t] = in[i];
    __syncthreads();
    int src = (t + 5) % blockDim.x;
    int gsrc = blockIdx.x * blockDim.x + src;
    if (i < n && gsrc < n) {
        float4 v = s[src];
        out[i] = make_float4(v.w, v.z, v.y, v.x);
    }
}

// Matrix multiply with 16x16 shared tiles (blockDim = (16, 16)).
extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int row = blockIdx.y * 16 + threadIdx.y;
    int col = blockIdx.x * 16 + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + 15) / 16; ++t) {
        int ak = t * 16 + threadIdx.x;
        int bk = t * 16 + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; ++k)
            acc = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// Memory fences around a shared flag (threadfence_block) + volatile reads.
extern "C" __global__ void shared_fence(int *out)
{
    __shared__ volatile int flag;
    __shared__ int data[32];
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    if (threadIdx.x < 32) {
        data[threadIdx.x] = threadIdx.x * threadIdx.x;
        __threadfence_block();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < 32; ++k) s += data[k];
        flag = s;
        __threadfence();
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = flag;
}
