// Device printf: the output appears at the synchronisation points.  The
// harness checks that every line of printf.expected is in the output.
#include "check.h"

__global__ void say(int k, double x)
{
	if (threadIdx.x == 0 && blockIdx.x == 0)
		printf("printf: block 0 says %d %5.2f %s %x %lld %c|%-4s|\n", k, x, "str", 255u, -123456789012ll, 'Q', "ab");
	__syncthreads();
	printf("printf: thread %d of block %d\n", threadIdx.x, blockIdx.x);
}

int main()
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	// the FIFO's size is set before the first kernel that prints
	size_t fifo = 0;
	CK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
	expect(fifo > 0, "cudaLimitPrintfFifoSize is %zu", fifo);
	CK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
	CK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
	expect(fifo >= (4 << 20), "cudaDeviceSetLimit raised the printf FIFO to %zu", fifo);
	say<<<2, 3>>>(42, 3.14159);
	CK(cudaDeviceSynchronize());
	printf("printf: after the first synchronisation\n");
	return finish();
}
