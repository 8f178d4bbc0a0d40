// nvcc-flags: -rdc=true
// device_updates.cu: device-updatable kernel nodes.  A kernel node made
// device-updatable (the node attribute) adds its parameter v to a counter
// once per block; a kernel before it in the graph changes it through its
// handle (cudaGraphKernelNodeSetParam, ...SetGridDim, ...SetEnabled,
// cudaGraphKernelNodeUpdatesApply).  The counter after two launches is
// blocks x v x 2 of what the update made of the node, computed here; bad
// updates return cudaErrorInvalidValue and change nothing.
#include "check.h"

__device__ cudaGraphDeviceNode_t target;
__device__ int err;

__global__ void tgt(unsigned *p, unsigned v)
{
	if (threadIdx.x == 0)
		atomicAdd(p, v);
}

__global__ void upd(int mode)
{
	cudaGraphDeviceNode_t n = target;
	unsigned v = 7;
	// the union's dim3 has a constructor: storage, then its fields
	alignas(cudaGraphKernelNodeUpdate) unsigned char buf[2 * sizeof(cudaGraphKernelNodeUpdate)];
	cudaGraphKernelNodeUpdate *u = (cudaGraphKernelNodeUpdate *)buf;
	switch (mode) {
	case 0: err = cudaGraphKernelNodeSetParam(n, 8, &v, sizeof v); break;
	case 1: err = cudaGraphKernelNodeSetGridDim(n, dim3(3, 2, 1)); break;
	case 2: err = cudaGraphKernelNodeSetEnabled(n, false); break;
	case 3:
		u[0].node = n;
		u[0].field = cudaGraphKernelNodeFieldGridDim;
		u[0].updateData.gridDim = dim3(5, 1, 1);
		u[1].node = n;
		u[1].field = cudaGraphKernelNodeFieldParam;
		u[1].updateData.param.pValue = &v;
		u[1].updateData.param.offset = 8;
		u[1].updateData.param.size = sizeof v;
		err = cudaGraphKernelNodeUpdatesApply(u, 2);
		break;
	case 4: err = cudaGraphKernelNodeSetParam(n, 64, &v, sizeof v); break;   // past the parameters
	case 5: err = cudaGraphKernelNodeSetGridDim(n, dim3(0, 1, 1)); break;
	case 6: err = cudaGraphKernelNodeSetEnabled((cudaGraphDeviceNode_t)0x1234, false); break;  // no node
	}
}

int main()
{
	unsigned *p;
	CK(cudaMalloc(&p, sizeof *p));
	cudaStream_t s;
	CK(cudaStreamCreate(&s));
	//                          blocks x v per launch after the update, and its answer
	const unsigned want[7] = { 7, 6, 0, 35, 1, 1, 1 };
	const int want_err[7] = { 0, 0, 0, 0, cudaErrorInvalidValue, cudaErrorInvalidValue, cudaErrorInvalidValue };
	for (int mode = 0; mode < 7; mode++) {
		cudaGraph_t g;
		CK(cudaGraphCreate(&g, 0));
		cudaKernelNodeParams kp = {};
		void *uargs[] = { &mode };
		kp.func = (void *)upd;
		kp.gridDim = dim3(1);
		kp.blockDim = dim3(1);
		kp.kernelParams = uargs;
		cudaGraphNode_t un, tn;
		CK(cudaGraphAddKernelNode(&un, g, NULL, 0, &kp));
		unsigned one = 1;
		void *targs[] = { &p, &one };
		kp.func = (void *)tgt;
		kp.blockDim = dim3(32);
		kp.kernelParams = targs;
		CK(cudaGraphAddKernelNode(&tn, g, &un, 1, &kp));
		cudaKernelNodeAttrValue a = {};
		a.deviceUpdatableKernelNode.deviceUpdatable = 1;
		CK(cudaGraphKernelNodeSetAttribute(tn, cudaLaunchAttributeDeviceUpdatableKernelNode, &a));
		cudaKernelNodeAttrValue got = {};
		CK(cudaGraphKernelNodeGetAttribute(tn, cudaLaunchAttributeDeviceUpdatableKernelNode, &got));
		if (mode == 0) {
			expect(got.deviceUpdatableKernelNode.deviceUpdatable == 1 && got.deviceUpdatableKernelNode.devNode,
			       "a device-updatable node has a handle");
			a.deviceUpdatableKernelNode.deviceUpdatable = 0;
			expect(cudaGraphKernelNodeSetAttribute(tn, cudaLaunchAttributeDeviceUpdatableKernelNode, &a) ==
				       cudaErrorInvalidValue, "a device-updatable node cannot opt out");
			(void)cudaGetLastError();
		}
		cudaGraphDeviceNode_t n = got.deviceUpdatableKernelNode.devNode;
		CK(cudaMemcpyToSymbol(target, &n, sizeof n));
		cudaGraphExec_t x, x2;
		CK(cudaGraphInstantiate(&x, g, 0));
		if (mode == 0) {
			expect(cudaGraphInstantiate(&x2, g, 0) != cudaSuccess, "a graph with a device-updatable node is "
			       "instantiated once at a time");
			(void)cudaGetLastError();
		}
		CK(cudaGraphUpload(x, s));
		CK(cudaMemset(p, 0, sizeof *p));
		CK(cudaGraphLaunch(x, s));
		CK(cudaGraphLaunch(x, s));
		CK(cudaStreamSynchronize(s));
		unsigned count = 0;
		int e = -1;
		CK(cudaMemcpy(&count, p, sizeof count, cudaMemcpyDeviceToHost));
		CK(cudaMemcpyFromSymbol(&e, err, sizeof e));
		expect(count == 2 * want[mode] && e == want_err[mode],
		       "update %d: counter %u after two launches (want %u), the call returned %d (want %d)", mode, count,
		       2 * want[mode], e, want_err[mode]);
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));
	}
	CK(cudaStreamDestroy(s));
	CK(cudaFree(p));
	return finish();
}
