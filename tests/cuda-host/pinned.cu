// Pinned host memory: cudaMallocHost, mapped cudaHostAlloc memory written by
// a kernel, cudaHostRegister on ordinary memory.
#include "check.h"

__global__ void write_squares(long long *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = (long long)i * i - 3;
}

__global__ void add_one(int *p, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += 1;
}

int main()
{
	const int n = 3000;
	long long want[n];
	for (int i = 0; i < n; i++)
		want[i] = (long long)i * i - 3;

	// mapped memory: the kernel writes the host's pages
	long long *h, *dh;
	CK(cudaHostAlloc(&h, n * sizeof(long long), cudaHostAllocMapped));
	memset(h, 0, n * sizeof(long long));
	CK(cudaHostGetDevicePointer((void **)&dh, h, 0));
	write_squares<<<(n + 127) / 128, 128>>>(dh, n);
	CK(cudaDeviceSynchronize());
	expect_eq("a kernel writes mapped pinned memory", h, want, n);
	unsigned fl = 0;
	CK(cudaHostGetFlags(&fl, h));
	expect(fl & cudaHostAllocMapped, "cudaHostGetFlags says mapped (0x%x)", fl);
	cudaPointerAttributes a;
	CK(cudaPointerGetAttributes(&a, h));
	expect(a.type == cudaMemoryTypeHost && a.hostPointer == h, "cudaPointerGetAttributes: host memory");
	CK(cudaFreeHost(h));

	// cudaMallocHost and asynchronous copies
	long long *p, *d;
	CK(cudaMallocHost(&p, n * sizeof(long long)));
	CK(cudaMalloc(&d, n * sizeof(long long)));
	write_squares<<<(n + 127) / 128, 128>>>(d, n);
	CK(cudaMemcpyAsync(p, d, n * sizeof(long long), cudaMemcpyDeviceToHost, 0));
	CK(cudaStreamSynchronize(0));
	expect_eq("cudaMallocHost + cudaMemcpyAsync", p, want, n);
	CK(cudaFreeHost(p));
	CK(cudaFree(d));

	// registered ordinary memory, used through its device pointer
	int *m = (int *)malloc(n * sizeof(int)), *dm, wi[n];
	for (int i = 0; i < n; i++)
		wi[i] = (m[i] = i * 3) + 1;
	CK(cudaHostRegister(m, n * sizeof(int), cudaHostRegisterMapped));
	CK(cudaHostGetDevicePointer((void **)&dm, m, 0));
	add_one<<<(n + 127) / 128, 128>>>(dm, n);
	CK(cudaDeviceSynchronize());
	expect_eq("a kernel updates cudaHostRegister'ed memory", m, wi, n);
	CK(cudaHostUnregister(m));
	expect(cudaHostUnregister(m) == cudaErrorHostMemoryNotRegistered,
	       "unregistering twice: cudaErrorHostMemoryNotRegistered");
	free(m);
	return finish();
}
