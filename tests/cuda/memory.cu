// Memory access forms: cache-hinted loads/stores, vector loads, local
// memory, generic-pointer address-space queries, volatile, fences.

#include <cuda_runtime.h>

// Read-only and cache-hinted loads of several widths.
extern "C" __global__ void cache_hint_loads(const float *a, const int4 *b, const double *c,
                                            const unsigned char *d, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = __ldg(&a[i]);
        int4 v = __ldg(&b[i]);
        double y = __ldcg(&c[i]);
        float z = __ldca(&a[(i + 1) % n]);
        float w = __ldcs(&a[(i + 2) % n]);
        float u = __ldlu(&a[(i + 3) % n]);
        float t = __ldcv(&a[(i + 4) % n]);
        unsigned char b8 = __ldg(&d[i]);
        out[i] = x + (float)(v.x + v.y + v.z + v.w) + (float)y + z + w + u + t + (float)b8;
    }
}

// Cache-hinted stores.
extern "C" __global__ void cache_hint_stores(float *a, float4 *b, int *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __stwb(&a[i], (float)i);
        __stcg(&b[i], make_float4((float)i, 1.0f, 2.0f, 3.0f));
        __stcs(&c[i], i * 2);
        __stwt(&c[n + i], i * 3);
    }
}

// Vectorized copies: float2, float4, double2, int2, short4, char4.
extern "C" __global__ void vector_copy(const float2 *a2, const float4 *a4, const double2 *d2, const int2 *i2,
                                       const short4 *s4, const char4 *c4, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float2 p = a2[i];
        float4 q = a4[i];
        double2 r = d2[i];
        int2 s = i2[i];
        short4 t = s4[i];
        char4 u = c4[i];
        out[i] = make_float4(p.x + q.x + (float)r.x + (float)s.x + t.x + u.x,
                             p.y + q.y + (float)r.y + (float)s.y + t.y + u.y,
                             q.z + t.z + u.z,
                             q.w + t.w + u.w);
    }
}

// Local-memory array with dynamic indexing (forces .local usage).
extern "C" __global__ void local_array(const int *in, const int *idx, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int buf[32];
        for (int k = 0; k < 32; ++k)
            buf[k] = in[i] * k + k * k;
        int s = 0;
        for (int k = 0; k < 8; ++k)
            s += buf[(idx[i] + k * 5) & 31];
        buf[idx[i] & 31] = s;
        out[i] = buf[(idx[i] + 1) & 31] + buf[idx[i] & 31];
    }
}

// Generic pointers pointing into different state spaces, and the
// __isGlobal/__isShared/__isLocal/__isConstant queries.
__constant__ int c_val[4] = {5, 6, 7, 8};

__device__ __noinline__ int read_generic(const int *p) { return *p; }

__device__ __noinline__ int classify(const void *p)
{
    return (__isGlobal(p) ? 1 : 0) | (__isShared(p) ? 2 : 0) | (__isLocal(p) ? 4 : 0) |
           (__isConstant(p) ? 8 : 0);
}

extern "C" __global__ void generic_pointers(const int *g, int *out, int n)
{
    __shared__ int s[64];      // blockDim.x == 64
    int local[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i * 2;
    for (int k = 0; k < 4; ++k) local[k] = i + k;
    __syncthreads();
    if (i < n) {
        const int *ptrs[4] = {&g[i], &s[(threadIdx.x + 1) & 63], &local[i & 3], &c_val[i & 3]};
        int sum = 0, cls = 0;
        for (int k = 0; k < 4; ++k) {
            sum += read_generic(ptrs[k]);
            cls |= classify(ptrs[k]) << (4 * k);
        }
        out[2 * i + 0] = sum;
        out[2 * i + 1] = cls;
    }
}

// Explicit address-space conversions.
extern "C" __global__ void cvta_roundtrip(int *g, unsigned long long *out, int n)
{
    __shared__ int s[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 32) s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    if (i < n) {
        size_t sa = __cvta_generic_to_shared(&s[threadIdx.x & 31]);
        size_t ga = __cvta_generic_to_global(&g[i]);
        int *back = (int *)__cvta_shared_to_generic(sa);
        int *gback = (int *)__cvta_global_to_generic(ga);
        *gback += *back;
        out[i] = (unsigned long long)(sa & 3) + (ga & 3);   // both addresses 4-aligned -> 0
    }
}

// Volatile global access in a polling loop bounded by a counter, and
// system/device fences.
extern "C" __global__ void volatile_and_fences(volatile int *flag, int *data, int *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        data[0] = 42;
        __threadfence();
        flag[0] = 1;
        __threadfence_system();
    }
    __syncthreads();
    if (blockIdx.x == 0 && threadIdx.x == 1) {
        int spins = 0;
        while (flag[0] == 0 && spins < 1000000)
            ++spins;
        out[0] = data[0];
    }
}

// Unaligned struct members and byte/short-sized global accesses.
struct __attribute__((packed)) Packed {
    unsigned char tag;
    short s;
    int v;
};

struct Record {
    char name[6];
    unsigned short id;
    double value;
    bool valid;
};

extern "C" __global__ void struct_access(const Record *recs, Record *outr, long long *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Record r = recs[i];
        long long s = r.id;
        for (int k = 0; k < 6; ++k)
            s += r.name[k];
        sums[i] = r.valid ? s + (long long)r.value : -s;
        r.id ^= 0xffff;
        r.valid = !r.valid;
        outr[i] = r;
    }
}

extern "C" __global__ void packed_struct(const Packed *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Packed p = in[i];
        out[i] = p.tag + p.s + p.v;
    }
}

// Prefetch hints and a grid-stride loop with a 64-bit index.
extern "C" __global__ void grid_stride_prefetch(const float *in, float *out, long long n)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        if (i + stride < n)
            asm volatile("prefetch.global.L2 [%0];" ::"l"(in + i + stride));
        out[i] = in[i] * 2.0f + 1.0f;
    }
}

// 2D/3D thread indexing: all of %tid, %ntid, %ctaid, %nctaid components.
extern "C" __global__ void thread_indexing(int *out)
{
    int bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int nbx = gridDim.x, nby = gridDim.y;
    int ntx = blockDim.x, nty = blockDim.y, ntz = blockDim.z;
    int block = (bz * nby + by) * nbx + bx;
    int tid = (tz * nty + ty) * ntx + tx;
    int g = block * (ntx * nty * ntz) + tid;
    out[4 * g + 0] = block;
    out[4 * g + 1] = tid;
    out[4 * g + 2] = gridDim.z;
    out[4 * g + 3] = tx + 10 * ty + 100 * tz;
}
