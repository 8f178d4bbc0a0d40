// nvcc-flags: -rdc=true
// dynamic_parallelism.cu: kernels that launch grids (nvcc -rdc=true; the
// device runtime, libcudadevrt, is ptxvm's own).  A parent launches one
// child grid per thread, a child launches a grandchild, and a launch with
// an invalid configuration reports its error on the device.
#include "check.h"

__global__ void grandchild(int *out, int base) { out[base + threadIdx.x] += 1000; }

__global__ void child(int *out, int base)
{
	int i = base + blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = i;
	if (threadIdx.x == 0 && blockIdx.x == 0)
		grandchild<<<1, 4>>>(out, base);        // the first 4 of the slice
}

__global__ void parent(int *out, int *errs)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	child<<<2, 16>>>(out, t * 32);
	errs[t] = (int)cudaGetLastError();
	if (t == 0) {
		child<<<1, 2048>>>(out, 0);             // more threads than a block holds
		errs[blockDim.x * gridDim.x] = (int)cudaGetLastError();
	}
}

int main()
{
	const int threads = 8, n = threads * 32;
	int *d, *e, h[n], want[n], herr[threads + 1], werr[threads + 1];
	CK(cudaMalloc(&d, n * sizeof(int)));
	CK(cudaMalloc(&e, sizeof herr));
	CK(cudaMemset(d, 0xff, n * sizeof(int)));
	parent<<<2, threads / 2>>>(d, e);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(herr, e, sizeof herr, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		want[i] = i + (i % 32 < 4 ? 1000 : 0);
	expect_eq("child and grandchild grids' results", h, want, n);
	for (int t = 0; t < threads; t++)
		werr[t] = cudaSuccess;
	werr[threads] = cudaErrorInvalidConfiguration;
	expect_eq("the device-side cudaGetLastError after each launch", herr, werr, threads + 1);
	CK(cudaFree(d));
	CK(cudaFree(e));
	return finish();
}
