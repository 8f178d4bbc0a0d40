// cudaMemcpyToSymbol / FromSymbol into __constant__ and __device__
// variables, with offsets; cudaGetSymbolAddress and cudaGetSymbolSize.
#include "check.h"

__constant__ float coeff[16];
__constant__ int shift;
__device__ int table[64];
__device__ unsigned long long counter;
__device__ int initialised[4] = { 3, 1, 4, 1 };

__global__ void poly(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float acc = 0;
	for (int k = 15; k >= 0; k--)
		acc = acc * x[i] + coeff[k];
	y[i] = acc;
	atomicAdd(&counter, 1ull);
}

__global__ void shift_table(void)
{
	int i = threadIdx.x;
	table[i] = (table[i] << shift) + initialised[i % 4];
}

int main()
{
	const int n = 1000;
	float c[16], x[n], y[n], want[n];
	for (int k = 0; k < 16; k++)
		c[k] = 1.0f / (float)(k + 1);
	for (int i = 0; i < n; i++)
		x[i] = (float)(i % 17) * 0.0625f;
	for (int i = 0; i < n; i++) {
		float acc = 0;
		for (int k = 15; k >= 0; k--)
			acc = __builtin_fmaf(acc, x[i], c[k]); // nvcc contracts a*b+c to fma
		want[i] = acc;
	}
	CK(cudaMemcpyToSymbol(coeff, c, 8 * sizeof(float)));
	CK(cudaMemcpyToSymbol(coeff, c + 8, 8 * sizeof(float), 8 * sizeof(float))); // at an offset
	unsigned long long zero = 0;
	CK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
	float *dx, *dy;
	CK(cudaMalloc(&dx, sizeof x));
	CK(cudaMalloc(&dy, sizeof y));
	CK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
	poly<<<(n + 127) / 128, 128>>>(dx, dy, n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost));
	expect_eq("Horner over a __constant__ array written in two parts", y, want, n);
	unsigned long long cnt = 0;
	CK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
	expect(cnt == n, "__device__ counter read back: %llu", cnt);

	int t[64], tw[64], s = 3;
	int init[4] = { 3, 1, 4, 1 };
	for (int i = 0; i < 64; i++) {
		t[i] = i * 1000 - 7;
		tw[i] = (int)((unsigned)t[i] << s) + init[i % 4];
	}
	CK(cudaMemcpyToSymbol(table, t, sizeof t));
	CK(cudaMemcpyToSymbol(shift, &s, sizeof s));
	shift_table<<<1, 64>>>();
	CK(cudaDeviceSynchronize());
	int back[64];
	CK(cudaMemcpyFromSymbol(back, table, sizeof back));
	expect_eq("__device__ table, __constant__ shift, initialised __device__ array", back, tw, 64);
	int part[8];
	CK(cudaMemcpyFromSymbol(part, table, sizeof part, 10 * sizeof(int)));
	expect_eq("cudaMemcpyFromSymbol at an offset", part, tw + 10, 8);

	int *addr = NULL;
	size_t size = 0;
	CK(cudaGetSymbolAddress((void **)&addr, table));
	CK(cudaGetSymbolSize(&size, table));
	expect(addr != NULL && size == sizeof t, "cudaGetSymbolAddress / Size: %zu bytes", size);
	CK(cudaMemcpy(back, addr, sizeof back, cudaMemcpyDeviceToHost));
	expect_eq("the symbol's address reads the same", back, tw, 64);
	CK(cudaMemcpyToSymbolAsync(table, t, sizeof t, 0, cudaMemcpyHostToDevice, 0));
	CK(cudaMemcpyFromSymbolAsync(back, table, sizeof back, 0, cudaMemcpyDeviceToHost, 0));
	CK(cudaStreamSynchronize(0));
	expect_eq("cudaMemcpyToSymbolAsync / FromSymbolAsync", back, t, 64);
	expect(cudaMemcpyToSymbol(coeff, c, 17 * sizeof(float)) == cudaErrorInvalidValue,
	       "a copy past the end of a symbol: cudaErrorInvalidValue");
	CK(cudaFree(dx));
	CK(cudaFree(dy));
	return finish();
}
