// nvcc-flags: -rdc=true tests/cuda-host/rdc/part.cu
// rdc.cu: separate compilation (nvcc -rdc=true, two files): the runtime
// registers nvlink's image, and each file's PTX is linked by the driver.
// A __device__ function and __device__ variables defined in rdc/part.cu are
// used here, and a kernel there calls a function defined here.
#include "check.h"

extern __device__ int scale;
extern __device__ int table[4];
extern __device__ int hits;
__device__ int twice_plus(int x);
__device__ int square(int x) { return x * x; }
__global__ void squares(int *out);

__global__ void combine(int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		out[i] = twice_plus(i) * scale;
		atomicAdd(&hits, 1);
	}
}

int main()
{
	const int n = 100;
	int *d, h[n], want[n];
	CK(cudaMalloc(&d, n * sizeof(int)));
	combine<<<(n + 31) / 32, 32>>>(d, n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	const int tab[4] = { 10, 20, 30, 40 };
	for (int i = 0; i < n; i++)
		want[i] = (2 * i + tab[i & 3]) * 5;
	expect_eq("a __device__ function and variables of the other file", h, want, n);

	int got_hits = 0;
	CK(cudaMemcpyFromSymbol(&got_hits, hits, sizeof got_hits));
	expect(got_hits == n, "atomicAdd on the other file's __device__ variable: %d (want %d)", got_hits, n);

	int s = 7;
	CK(cudaMemcpyToSymbol(scale, &s, sizeof s));
	combine<<<(n + 31) / 32, 32>>>(d, n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		want[i] = (2 * i + tab[i & 3]) * 7;
	expect_eq("cudaMemcpyToSymbol into the other file's variable", h, want, n);

	squares<<<1, 32>>>(d);
	CK(cudaGetLastError());
	CK(cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost));
	for (int i = 0; i < 32; i++)
		want[i] = i * i + 7;
	expect_eq("the other file's kernel calling this file's function", h, want, 32);
	CK(cudaFree(d));
	return finish();
}
