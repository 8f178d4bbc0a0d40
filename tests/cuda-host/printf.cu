// Device printf: the output appears at the synchronisation points where
// CUDA flushes the printf FIFO (the CUDA Programming Guide, "Formatted
// Output"), so host output printed before such a point comes first.  The
// harness checks that the lines of printf.expected are in the output, in
// that order.  The two CTAs' lines are in no fixed order (an H200 printed
// block 1's first), so only block 0's are expected.  stdout is left as the C library makes it (fully buffered
// when it is a file): the device's output goes through the same stream.
#include "check.h"

__global__ void say(int k, double x)
{
	if (threadIdx.x == 0 && blockIdx.x == 0)
		printf("printf: block 0 says %d %5.2f %s %x %lld %c|%-4s|\n", k, x, "str", 255u, -123456789012ll, 'Q', "ab");
	__syncthreads();
	printf("printf: thread %d of block %d\n", threadIdx.x, blockIdx.x);
}

__global__ void one(const char *what, int *out)
{
	printf("printf: device, flushed by %s\n", what);
	*out = 7;
}

static char *label(const char *s)
{
	char *d;
	CK(cudaMalloc(&d, strlen(s) + 1));
	CK(cudaMemcpy(d, s, strlen(s) + 1, cudaMemcpyHostToDevice));
	return d;
}

int main()
{
	// the FIFO's size is set before the first kernel that prints
	size_t fifo = 0;
	CK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
	expect(fifo > 0, "cudaLimitPrintfFifoSize is %zu", fifo);
	CK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
	CK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
	expect(fifo >= (4 << 20), "cudaDeviceSetLimit raised the printf FIFO to %zu", fifo);
	int *d, h = 0;
	CK(cudaMalloc(&d, sizeof *d));
	char *by_sync = label("cudaDeviceSynchronize"), *by_copy = label("cudaMemcpy");
	char *by_stream = label("cudaStreamSynchronize"), *by_event = label("cudaEventSynchronize");
	char *by_async = label("the synchronisation after cudaMemcpyAsync");
	char *by_reset = label("cudaDeviceReset");

	printf("printf: host, before the first launch\n");
	say<<<2, 3>>>(42, 3.14159);
	printf("printf: host, after the launch, before cudaDeviceSynchronize\n");
	CK(cudaDeviceSynchronize());
	printf("printf: host, after cudaDeviceSynchronize\n");

	one<<<1, 1>>>(by_copy, d);
	printf("printf: host, before cudaMemcpy\n");
	CK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
	printf("printf: host, after cudaMemcpy\n");

	cudaStream_t s;
	CK(cudaStreamCreate(&s));
	one<<<1, 1, 0, s>>>(by_stream, d);
	printf("printf: host, before cudaStreamSynchronize\n");
	CK(cudaStreamSynchronize(s));
	printf("printf: host, after cudaStreamSynchronize\n");

	cudaEvent_t e;
	CK(cudaEventCreate(&e));
	one<<<1, 1, 0, s>>>(by_event, d);
	CK(cudaEventRecord(e, s));
	printf("printf: host, before cudaEventSynchronize\n");
	CK(cudaEventSynchronize(e));
	printf("printf: host, after cudaEventSynchronize\n");

	// an asynchronous copy is no synchronisation point
	one<<<1, 1, 0, s>>>(by_async, d);
	CK(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, s));
	printf("printf: host, after cudaMemcpyAsync\n");
	CK(cudaStreamSynchronize(s));
	printf("printf: host, after the synchronisation\n");
	expect(h == 7, "the kernels that print ran (%d)", h);
	CK(cudaEventDestroy(e));
	CK(cudaStreamDestroy(s));

	// destroying the context flushes too (nothing synchronises before it)
	one<<<1, 1>>>(by_reset, d);
	printf("printf: host, before cudaDeviceReset\n");
	CK(cudaDeviceReset());
	printf("printf: host, after cudaDeviceReset\n");

	// nothing flushes this kernel's output before the program exits: the
	// guide says a GPU need not print it, and an H200 does not; nor does
	// ptxvm (docs/CUDA.md)
	char *by_exit = label("the end of the program");
	CK(cudaMalloc(&d, sizeof *d));
	one<<<1, 1>>>(by_exit, d);
	printf("printf: host, last words\n");
	return finish();
}
