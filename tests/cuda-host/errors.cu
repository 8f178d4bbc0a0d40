// The error paths a program must survive: a bad launch configuration is
// reported and does not poison the context; a kernel's out-of-range store
// is reported by the next synchronisation as cudaErrorIllegalAddress, the
// error is sticky, and the program keeps control and exits cleanly.
#include "check.h"

__global__ void fill(int *p, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v;
}

// Thread 0 stores far past the end of p.
// p is NULL: a store 1 GiB past an allocation landed in another address
// space on an H200 (cudaErrorInvalidAddressSpace) or in none, as its
// layout had it; one next to address 0 is in none
__global__ void stray(int *p)
{
	if (threadIdx.x == 0)
		p[16] = 1;
}

int main()
{
	int *d, h[64];
	CK(cudaMalloc(&d, 64 * sizeof(int)));

	fill<<<1, 2048>>>(d, 64, 1);
	cudaError_t e = cudaGetLastError();
	expect(e == cudaErrorInvalidValue, "2048 threads per block: %s", cudaGetErrorName(e));
	expect(cudaGetLastError() == cudaSuccess, "cudaGetLastError cleared the launch error");
	fill<<<dim3(1, 1, 1), dim3(1, 1, 128)>>>(d, 64, 1);
	e = cudaGetLastError();
	expect(e == cudaErrorInvalidValue, "blockDim.z 128: %s", cudaGetErrorName(e));
	fill<<<dim3(1, 70000), 32>>>(d, 64, 1);
	e = cudaGetLastError();
	expect(e == cudaErrorInvalidValue, "gridDim.y 70000: %s", cudaGetErrorName(e));

	// the context is still good
	fill<<<1, 64>>>(d, 64, 7);
	CK(cudaGetLastError());
	CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < 64; i++)
		bad += h[i] != 7;
	expect(bad == 0, "a good launch after the bad ones");

	expect(cudaMemcpy(h, d, 1 << 20, cudaMemcpyDeviceToHost) != cudaSuccess,
	       "a copy past the end of an allocation fails");
	cudaGetLastError();
	expect(cudaFree((void *)0x1234) == cudaErrorInvalidValue, "freeing a pointer that was never allocated");
	cudaGetLastError();
	expect(!strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") &&
		       strlen(cudaGetErrorString(cudaErrorIllegalAddress)) > 0,
	       "cudaGetErrorName / String");

	// a fault: reported at synchronisation, sticky afterwards
	stray<<<1, 32>>>(NULL);
	e = cudaDeviceSynchronize();
	expect(e == cudaErrorIllegalAddress, "an out-of-range store: cudaDeviceSynchronize returns %s",
	       cudaGetErrorName(e));
	e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	expect(e == cudaErrorIllegalAddress, "later calls keep failing: cudaMemcpy returns %s", cudaGetErrorName(e));
	fill<<<1, 64>>>(d, 64, 1);
	e = cudaDeviceSynchronize();
	expect(e == cudaErrorIllegalAddress, "a launch after the fault: %s", cudaGetErrorName(e));
	e = cudaPeekAtLastError();
	expect(e == cudaErrorIllegalAddress, "cudaPeekAtLastError: %s", cudaGetErrorName(e));
	printf("errors: the program still has control after the fault\n");
	return finish();
}
