// Dynamic parallelism (nvcc -rdc=true): grids launched from kernels, into
// the default stream, a non-blocking stream and the tail-launch stream, two
// levels deep; the device runtime's queries.  Driven by tests/t_devrt.c.

// Adds v to each element of its grid's slice.
extern "C" __global__ void cdp_add(int *a, int v)
{
    a[blockIdx.x * blockDim.x + threadIdx.x] += v;
}

// Doubles every element: a tail launch must see every other child's work.
extern "C" __global__ void cdp_double(int *a)
{
    a[blockIdx.x * blockDim.x + threadIdx.x] *= 2;
}

// Launches cdp_add on a slice of 2 x 32 elements, then one level deeper.
extern "C" __global__ void cdp_mid(int *a, int depth)
{
    if (threadIdx.x == 0) {
        cdp_add<<<2, 32>>>(a, 1 + blockIdx.x);
        if (depth > 0)
            cdp_mid<<<1, 1>>>(a, depth - 1);
    }
}

// CTA b launches cdp_add over its own slice a[b*64 .. b*64+63] (two CTAs of
// 32), then cdp_mid into a non-blocking stream, then cdp_double over the
// whole array as a tail launch from CTA 0.  info gets the device runtime's
// answers (thread 0 of CTA 0).
extern "C" __global__ void cdp_parent(int *a, int *info, int n)
{
    if (threadIdx.x != 0)
        return;
    cdp_add<<<2, 32>>>(a + blockIdx.x * 64, 10 * (blockIdx.x + 1));
    cudaStream_t s;
    cudaError_t e1 = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cdp_mid<<<1, 1, 0, s>>>(a + blockIdx.x * 64, 1);
    cudaStreamDestroy(s);
    if (blockIdx.x == 0) {
        cdp_double<<<n / 32, 32, 0, cudaStreamTailLaunch>>>(a);
        int dev = -1, threads = 0, warp = 0, major = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerBlock, dev);
        cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
        info[0] = dev;
        info[1] = threads;
        info[2] = warp;
        info[3] = major;
        info[4] = (int)e1;
        info[5] = (int)cudaGetLastError();
        // an invalid configuration: 2048 threads in a CTA
        cdp_add<<<1, 2048>>>(a, 1);
        info[6] = (int)cudaPeekAtLastError();
        info[7] = (int)cudaGetLastError();
        info[8] = (int)cudaGetLastError();
    }
}

// Launches itself ever deeper: past CUDA's 24 levels the launch fails.
extern "C" __global__ void cdp_deep(int *depth_reached, int *err, int depth)
{
    atomicMax(depth_reached, depth);
    cdp_deep<<<1, 1>>>(depth_reached, err, depth + 1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        *err = (int)e;
}
