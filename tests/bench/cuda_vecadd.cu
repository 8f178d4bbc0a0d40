// cuda_vecadd.cu: a vector add of 2^22 floats through NVIDIA's runtime on
// ptxvm's libcuda.so.1, timed as tests/bench/cuda_launch.c times the same
// kernel through the C API (best of 5 launches, each synchronised).
#include <chrono>
#include <cstdio>

__global__ void vecadd(const float *a, const float *b, float *c, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

int main()
{
	unsigned n = 1u << 22;
	float *a, *b, *c;
	if (cudaMalloc(&a, n * 4) || cudaMalloc(&b, n * 4) || cudaMalloc(&c, n * 4))
		return 1;
	double best = 1e9;
	for (int rep = 0; rep < 5; rep++) {
		auto t0 = std::chrono::steady_clock::now();
		vecadd<<<n / 256, 256>>>(a, b, c, n);
		if (cudaDeviceSynchronize())
			return 1;
		double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		if (t < best)
			best = t;
	}
	printf("vector add of %u floats through the runtime: %.2f ms (best of 5)\n", n, best * 1e3);
	return 0;
}
