// Vector add as every tutorial writes it: allocate, copy, launch, copy back.
#include "check.h"

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

__global__ void iaxpy(int k, const int *x, int *y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		y[i] = k * x[i] + y[i];
}

int main()
{
	const int n = 100003; // not a multiple of the block
	size_t bytes = n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes),
	      *ref = (float *)malloc(bytes);
	for (int i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 1.0f / (float)(i + 1);
		ref[i] = a[i] + b[i]; // one rounding, as the kernel does
	}
	float *da, *db, *dc;
	CK(cudaMalloc(&da, bytes));
	CK(cudaMalloc(&db, bytes));
	CK(cudaMalloc(&dc, bytes));
	CK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
	CK(cudaMemset(dc, 0xff, bytes));
	int threads = 256, blocks = (n + threads - 1) / threads;
	vadd<<<blocks, threads>>>(da, db, dc, n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
	expect_eq("vadd float", c, ref, n);

	// a grid-stride loop over ints, a grid smaller than the data
	int *x = (int *)malloc(n * sizeof(int)), *y = (int *)malloc(n * sizeof(int)), *want = (int *)malloc(n * sizeof(int));
	for (int i = 0; i < n; i++) {
		x[i] = i * 7 - 5000;
		y[i] = 3 - i;
		want[i] = (int)(-3u * (unsigned)x[i] + (unsigned)y[i]);
	}
	int *dx, *dy;
	CK(cudaMalloc(&dx, n * sizeof(int)));
	CK(cudaMalloc(&dy, n * sizeof(int)));
	CK(cudaMemcpy(dx, x, n * sizeof(int), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dy, y, n * sizeof(int), cudaMemcpyHostToDevice));
	iaxpy<<<13, 128>>>(-3, dx, dy, n);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(y, dy, n * sizeof(int), cudaMemcpyDeviceToHost));
	expect_eq("grid-stride int axpy", y, want, n);

	int dev = -1, count = 0;
	CK(cudaGetDeviceCount(&count));
	CK(cudaGetDevice(&dev));
	expect(count >= 1 && dev == 0, "one device, current device 0 (count %d)", count);
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	expect(prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024, "properties: warp size %d, %d threads per block",
	       prop.warpSize, prop.maxThreadsPerBlock);
	CK(cudaFree(da));
	CK(cudaFree(db));
	CK(cudaFree(dc));
	CK(cudaFree(dx));
	CK(cudaFree(dy));
	return finish();
}
