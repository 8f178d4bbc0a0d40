// Device-side updates of device-updatable kernel nodes (nvcc -rdc=true),
// as nvcc compiles them.  Driven by tests/t_devrt.c, whose host layer
// records the updates it is handed.
#include <cuda_runtime.h>

// Each call's answer into err[0..4): a parameter (offset 8, a 4-byte
// value from local memory), disabling, a grid of (3, 2, 1), and a batch of
// two updates of node m (a grid of (5, 1, 1), then 12 bytes at 4).
extern "C" __global__ void upd_calls(cudaGraphDeviceNode_t n, cudaGraphDeviceNode_t m, int *err)
{
    unsigned v = 0xabcd1234;
    unsigned three[3] = { 1, 2, 3 };
    err[0] = cudaGraphKernelNodeSetParam(n, 8, &v, sizeof v);
    err[1] = cudaGraphKernelNodeSetEnabled(n, false);
    err[2] = cudaGraphKernelNodeSetGridDim(n, dim3(3, 2, 1));
    alignas(cudaGraphKernelNodeUpdate) unsigned char buf[2 * sizeof(cudaGraphKernelNodeUpdate)];
    cudaGraphKernelNodeUpdate *u = (cudaGraphKernelNodeUpdate *)buf;
    u[0].node = m;
    u[0].field = cudaGraphKernelNodeFieldGridDim;
    u[0].updateData.gridDim = dim3(5, 1, 1);
    u[1].node = m;
    u[1].field = cudaGraphKernelNodeFieldParam;
    u[1].updateData.param.pValue = three;
    u[1].updateData.param.offset = 4;
    u[1].updateData.param.size = sizeof three;
    err[3] = cudaGraphKernelNodeUpdatesApply(u, 2);
}
