// Conditional graph nodes' values, set by kernels (nvcc -rdc=true):
// cudaGraphSetConditional as nvcc compiles it.  Driven by tests/t_devrt.c.
#include <cuda_runtime.h>

// Thread 0 takes 1 from p[0], adds 1 to p[1] and sets h to whether p[0]
// is still above 0: a WHILE node over it turns p[0]'s start times.
extern "C" __global__ void cond_countdown(cudaGraphConditionalHandle h, unsigned *p)
{
    if (threadIdx.x == 0) {
        unsigned left = --p[0];
        p[1]++;
        cudaGraphSetConditional(h, left != 0);
    }
}
