// Separate compilation (-rdc=true): device-side launches through the
// device runtime, and calls to functions defined in another module.
#include <cstdio>

extern __device__ int other_module(int);
extern __device__ int shared_counter;

__global__ void child(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = other_module(data[i]) + shared_counter;
}

__global__ void parent(int *data, int n)
{
    if (threadIdx.x == 0) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        child<<<(n + 127) / 128, 128, 0, s>>>(data, n);
        cudaStreamDestroy(s);
        child<<<1, 32, 0, cudaStreamTailLaunch>>>(data, 32);
        child<<<1, 32, 0, cudaStreamFireAndForget>>>(data, 32);
    }
    int dev;
    cudaGetDevice(&dev);
    if (cudaGetLastError() != cudaSuccess)
        printf("launch failed on %d\n", dev);
}
