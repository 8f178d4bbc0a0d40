// The device runtime's queries of kernels and errors (nvcc -rdc=true):
// cudaGetErrorName, cudaGetErrorString and cudaFuncGetAttributes in
// kernels.  Driven by tests/t_devrt.c.
#include <cstdio>

// Thread i writes the name and the description of codes[i], each cut to
// width - 1 characters and NUL-terminated, at out[(2 i) width] and
// out[(2 i + 1) width].
extern "C" __global__ void dq_errors(const int *codes, int n, char *out, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const char *s[2] = { cudaGetErrorName((cudaError_t)codes[i]), cudaGetErrorString((cudaError_t)codes[i]) };
    for (int k = 0; k < 2; k++) {
        char *o = out + (2 * i + k) * width;
        int j = 0;
        for (; j < width - 1 && s[k][j]; j++)
            o[j] = s[k][j];
        o[j] = 0;
    }
}

// The texts through printf's %s.
extern "C" __global__ void dq_print(int code)
{
    printf("%d %s: %s\n", code, cudaGetErrorName((cudaError_t)code), cudaGetErrorString((cudaError_t)code));
}

// The texts are read-only: writing one faults.
extern "C" __global__ void dq_scribble(int code)
{
    char *p = (char *)cudaGetErrorName((cudaError_t)code);
    p[threadIdx.x] = 'x';
}

// 1 KiB of static shared memory, local memory (an array indexed at run
// time), no bounds.
extern "C" __global__ void dq_plain(int *x, int k)
{
    __shared__ int s[256];
    int loc[40];
    for (int j = 0; j < 40; j++)
        loc[j] = x[j] * k;
    s[threadIdx.x] = loc[(threadIdx.x + k) % 40];
    __syncthreads();
    x[threadIdx.x] = s[255 - threadIdx.x];
}

// At most 128 threads per block.
extern "C" __global__ void __launch_bounds__(128) dq_bounded(int *x)
{
    x[threadIdx.x] += 1;
}

// Clusters of 2 x 1 x 1.
extern "C" __global__ void __cluster_dims__(2, 1, 1) dq_cluster(int *x)
{
    x[threadIdx.x] += 2;
}

static __device__ void put(long long *o, cudaError_t e, const cudaFuncAttributes &a)
{
    o[0] = e;
    o[1] = (long long)a.sharedSizeBytes;
    o[2] = (long long)a.constSizeBytes;
    o[3] = (long long)a.localSizeBytes;
    o[4] = a.maxThreadsPerBlock;
    o[5] = a.numRegs;
    o[6] = a.ptxVersion;
    o[7] = a.binaryVersion;
    o[8] = a.cacheModeCA;
    o[9] = a.maxDynamicSharedSizeBytes;
    o[10] = a.preferredShmemCarveout;
    o[11] = a.clusterDimMustBeSet;
    o[12] = a.requiredClusterWidth;
    o[13] = a.requiredClusterHeight;
    o[14] = a.requiredClusterDepth;
    o[15] = a.clusterSchedulingPolicyPreference;
    o[16] = a.nonPortableClusterSizeAllowed;
}

// cudaFuncGetAttributes of the three kernels above, 20 answers each
// (put's 17, then unused), and of an address that is no kernel at
// out[60] (its answer and cudaGetLastError's).
extern "C" __global__ void dq_attrs(long long *out)
{
    cudaFuncAttributes a;
    put(out, cudaFuncGetAttributes(&a, (const void *)dq_plain), a);
    put(out + 20, cudaFuncGetAttributes(&a, (const void *)dq_bounded), a);
    put(out + 40, cudaFuncGetAttributes(&a, (const void *)dq_cluster), a);
    out[60] = cudaFuncGetAttributes(&a, (const void *)out);
    out[61] = cudaGetLastError();
}
