// A CUDA graph kept across steps, as llama.cpp's CUDA backend keeps one:
// each step captures the same work with other arguments and updates the
// executable graph from it (cudaGraphExecUpdate); or changes one argument
// of a kernel node through the kernelParams cudaGraphKernelNodeGetParams
// gave and updates from the same graph; or sets an argument on the
// executable graph alone (cudaGraphExecKernelNodeSetParams).  A step whose
// work has another shape is refused, and instantiated again.  The lines
// of graph_update.expected are the update results CUDA documents.
#include "check.h"

__global__ void scale(float *x, const float *y, float k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = y[i] * k;
}

// llama.cpp's copy into the KV cache: the destination moves each step
__global__ void copy_row(const float *src, float *dst, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i] + 1.0f;
}

enum { N = 256, STEPS = 4 };

static void capture(cudaStream_t s, cudaGraph_t *g, float *x, const float *y, float k, float *dst, bool extra)
{
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
	scale<<<N / 64, 64, 0, s>>>(x, y, k, N);
	copy_row<<<N / 64, 64, 0, s>>>(x, dst, N);
	if (extra)
		scale<<<N / 64, 64, 0, s>>>(x, x, 2.0f, N);
	CK(cudaStreamEndCapture(s, g));
}

// Whether row `row` of cache is y * k + 1, and the other rows untouched (0).
static bool cache_is(const float *cache, const float *y, int row, float k)
{
	for (int r = 0; r < STEPS; r++)
		for (int i = 0; i < N; i++)
			if (cache[r * N + i] != (r == row ? y[i] * k + 1.0f : 0.0f))
				return false;
	return true;
}

int main()
{
	float *x, *y, *cache, hy[N], hc[STEPS * N];
	CK(cudaMalloc(&x, N * sizeof(float)));
	CK(cudaMalloc(&y, N * sizeof(float)));
	CK(cudaMalloc(&cache, STEPS * N * sizeof(float)));
	for (int i = 0; i < N; i++)
		hy[i] = (float)(i % 17) - 8.0f;
	CK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
	cudaStream_t s;
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

	// each step captured again, the executable graph updated from it
	cudaGraph_t g;
	cudaGraphExec_t exec = NULL;
	for (int step = 0; step < STEPS; step++) {
		CK(cudaMemset(cache, 0, sizeof hc));
		capture(s, &g, x, y, (float)(step + 2), cache + step * N, false);
		if (!exec)
			CK(cudaGraphInstantiate(&exec, g, 0));
		else {
			cudaGraphExecUpdateResultInfo info;
			cudaError_t e = cudaGraphExecUpdate(exec, g, &info);
			expect(e == cudaSuccess && info.result == cudaGraphExecUpdateSuccess,
			       "step %d: the executable graph is updated (%s, result %d)", step, cudaGetErrorName(e),
			       (int)info.result);
		}
		CK(cudaGraphDestroy(g));
		CK(cudaGraphLaunch(exec, s));
		CK(cudaStreamSynchronize(s));
		CK(cudaMemcpy(hc, cache, sizeof hc, cudaMemcpyDeviceToHost));
		expect(cache_is(hc, hy, step, (float)(step + 2)), "step %d: the new factor, the new row", step);
	}

	// one argument changed through the node's own kernelParams, step after step
	capture(s, &g, x, y, 3.0f, cache, false);
	cudaGraphNode_t nodes[2];
	size_t nn = 2;
	CK(cudaGraphGetNodes(g, nodes, &nn));
	cudaKernelNodeParams params[2];
	for (int i = 0; i < 2; i++) {
		cudaGraphNodeType t;
		CK(cudaGraphNodeGetType(nodes[i], &t));
		expect(t == cudaGraphNodeTypeKernel, "node %d is a kernel node", i);
		CK(cudaGraphKernelNodeGetParams(nodes[i], &params[i]));
	}
	int cpy = params[0].func == (void *)copy_row ? 0 : 1;
	expect(params[cpy].func == (void *)copy_row && params[1 - cpy].func == (void *)scale,
	       "the kernel nodes' functions");
	float *dst;
	for (int step = 0; step < STEPS; step++) {
		CK(cudaMemset(cache, 0, sizeof hc));
		dst = cache + step * N;
		params[cpy].kernelParams[1] = &dst;
		CK(cudaGraphKernelNodeSetParams(nodes[cpy], &params[cpy]));
		cudaGraphExecUpdateResultInfo info;
		CK(cudaGraphExecUpdate(exec, g, &info));
		CK(cudaGraphLaunch(exec, s));
		CK(cudaStreamSynchronize(s));
		CK(cudaMemcpy(hc, cache, sizeof hc, cudaMemcpyDeviceToHost));
		expect(cache_is(hc, hy, step, 3.0f), "step %d: the argument set through kernelParams", step);
	}

	// the executable graph's own argument; the graph's node keeps its own
	cudaGraphExec_t exec2;
	CK(cudaGraphInstantiate(&exec2, g, 0));
	CK(cudaMemset(cache, 0, sizeof hc));
	dst = cache + 2 * N;
	params[cpy].kernelParams[1] = &dst;
	CK(cudaGraphExecKernelNodeSetParams(exec2, nodes[cpy], &params[cpy]));
	CK(cudaGraphLaunch(exec2, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hc, cache, sizeof hc, cudaMemcpyDeviceToHost));
	expect(cache_is(hc, hy, 2, 3.0f), "cudaGraphExecKernelNodeSetParams: row 2");
	cudaKernelNodeParams now;
	CK(cudaGraphKernelNodeGetParams(nodes[cpy], &now));
	expect(*(float **)now.kernelParams[1] == cache + (STEPS - 1) * N, "the graph's node is unchanged");
	CK(cudaGraphExecDestroy(exec2));
	// a node of the graph the executable graph was last updated from
	CK(cudaMemset(cache, 0, sizeof hc));
	dst = cache + N;
	params[cpy].kernelParams[1] = &dst;
	cudaError_t e = cudaGraphExecKernelNodeSetParams(exec, nodes[cpy], &params[cpy]);
	printf("set through a node of the graph updated from: %s\n", cudaGetErrorName(e));
	if (e == cudaSuccess) {
		CK(cudaGraphLaunch(exec, s));
		CK(cudaStreamSynchronize(s));
		CK(cudaMemcpy(hc, cache, sizeof hc, cudaMemcpyDeviceToHost));
		expect(cache_is(hc, hy, 1, 3.0f), "the updated executable graph's argument: row 1");
	}
	cudaGetLastError();
	CK(cudaGraphDestroy(g));

	// work of another shape: refused, and instantiated again
	capture(s, &g, x, y, 5.0f, cache + N, true);
	cudaGraphExecUpdateResultInfo info;
	e = cudaGraphExecUpdate(exec, g, &info);
	printf("update with a node more: %s, result %d, error node %s\n", cudaGetErrorName(e), (int)info.result,
	       info.errorNode ? "set" : "none");
	expect(e == cudaErrorGraphExecUpdateFailure && info.result == cudaGraphExecUpdateErrorTopologyChanged,
	       "a node more is refused");
	cudaGetLastError();
	CK(cudaGraphExecDestroy(exec));
	CK(cudaGraphInstantiate(&exec, g, 0));
	CK(cudaMemset(cache, 0, sizeof hc));
	CK(cudaGraphLaunch(exec, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hc, cache, sizeof hc, cudaMemcpyDeviceToHost));
	expect(cache_is(hc, hy, 1, 5.0f), "the graph instantiated again");
	CK(cudaGraphDestroy(g));
	CK(cudaGraphExecDestroy(exec));
	CK(cudaStreamDestroy(s));
	CK(cudaFree(x));
	CK(cudaFree(y));
	CK(cudaFree(cache));
	return finish();
}
