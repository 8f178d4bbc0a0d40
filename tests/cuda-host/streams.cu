// Streams and events: asynchronous copies and kernels in several streams,
// ordering across streams with events, host callbacks, timing, queries.
#include "check.h"

__global__ void scale(int *p, int n, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = p[i] * k + 1;
}

// Spins long enough that a stream waiting on it would see a stale value
// if the wait were not honoured.
__global__ void slow_fill(int *p, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	volatile int acc = 0;
	for (int k = 0; k < 300; k++)
		acc += k;
	if (i < n)
		p[i] = v + (acc & 0);
}

__global__ void copy_plus(const int *src, int *dst, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i] + 1;
}

static void CUDART_CB on_host(void *arg) { *(volatile int *)arg += 1; }

static void CUDART_CB on_stream(cudaStream_t s, cudaError_t status, void *arg)
{
	if (status == cudaSuccess)
		*(volatile int *)arg += 10;
}

int main()
{
	const int ns = 4, n = 4096;
	cudaStream_t s[ns];
	int *h, *d;
	CK(cudaMallocHost(&h, ns * n * sizeof(int)));
	CK(cudaMalloc(&d, ns * n * sizeof(int)));
	for (int k = 0; k < ns; k++) {
		CK(cudaStreamCreate(&s[k]));
		for (int i = 0; i < n; i++)
			h[k * n + i] = i - k;
	}
	for (int k = 0; k < ns; k++) {
		CK(cudaMemcpyAsync(d + k * n, h + k * n, n * sizeof(int), cudaMemcpyHostToDevice, s[k]));
		scale<<<n / 256, 256, 0, s[k]>>>(d + k * n, n, k + 2);
		CK(cudaMemcpyAsync(h + k * n, d + k * n, n * sizeof(int), cudaMemcpyDeviceToHost, s[k]));
	}
	for (int k = 0; k < ns; k++)
		CK(cudaStreamSynchronize(s[k]));
	int bad = 0;
	for (int k = 0; k < ns; k++)
		for (int i = 0; i < n; i++)
			bad += h[k * n + i] != (i - k) * (k + 2) + 1;
	expect(bad == 0, "4 streams: copy, kernel, copy back (%d wrong)", bad);

	// s[1] waits for an event recorded after a slow kernel in s[0]
	int *a, *b;
	CK(cudaMalloc(&a, n * sizeof(int)));
	CK(cudaMalloc(&b, n * sizeof(int)));
	CK(cudaMemset(a, 0, n * sizeof(int)));
	cudaEvent_t done;
	CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
	slow_fill<<<n / 128, 128, 0, s[0]>>>(a, n, 41);
	CK(cudaEventRecord(done, s[0]));
	CK(cudaStreamWaitEvent(s[1], done, 0));
	copy_plus<<<n / 128, 128, 0, s[1]>>>(a, b, n);
	CK(cudaMemcpyAsync(h, b, n * sizeof(int), cudaMemcpyDeviceToHost, s[1]));
	CK(cudaStreamSynchronize(s[1]));
	bad = 0;
	for (int i = 0; i < n; i++)
		bad += h[i] != 42;
	expect(bad == 0, "cudaStreamWaitEvent orders s1 after s0 (%d wrong)", bad);
	CK(cudaEventSynchronize(done));
	expect(cudaEventQuery(done) == cudaSuccess, "cudaEventQuery after the event completed");

	// timing
	cudaEvent_t t0, t1;
	CK(cudaEventCreate(&t0));
	CK(cudaEventCreate(&t1));
	CK(cudaEventRecord(t0, s[2]));
	slow_fill<<<n / 128, 128, 0, s[2]>>>(a, n, 7);
	CK(cudaEventRecord(t1, s[2]));
	CK(cudaEventSynchronize(t1));
	float ms = -1;
	CK(cudaEventElapsedTime(&ms, t0, t1));
	expect(ms >= 0 && ms < 60000, "cudaEventElapsedTime %.3f ms", ms);
	expect(cudaEventElapsedTime(&ms, done, t1) == cudaErrorInvalidResourceHandle,
	       "elapsed time with an event made without timing: cudaErrorInvalidResourceHandle");

	// host functions and callbacks run in stream order
	volatile int flag = 0;
	CK(cudaLaunchHostFunc(s[3], on_host, (void *)&flag));
	CK(cudaStreamAddCallback(s[3], on_stream, (void *)&flag, 0));
	CK(cudaStreamSynchronize(s[3]));
	expect(flag == 11, "cudaLaunchHostFunc and cudaStreamAddCallback ran (flag %d)", flag);
	expect(cudaStreamQuery(s[3]) == cudaSuccess, "cudaStreamQuery on an idle stream");

	// the legacy default stream orders with blocking streams
	CK(cudaMemset(a, 0, n * sizeof(int)));
	slow_fill<<<n / 128, 128>>>(a, n, 5);
	copy_plus<<<n / 128, 128, 0, s[0]>>>(a, b, n);
	CK(cudaMemcpy(h, b, n * sizeof(int), cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < n; i++)
		bad += h[i] != 6;
	expect(bad == 0, "the legacy default stream orders a blocking stream after it (%d wrong)", bad);

	// a non-blocking stream, synchronised explicitly
	cudaStream_t nb;
	CK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
	unsigned flags = 0;
	CK(cudaStreamGetFlags(nb, &flags));
	expect(flags == cudaStreamNonBlocking, "cudaStreamGetFlags: non-blocking");
	CK(cudaMemsetAsync(b, 0, n * sizeof(int), nb));
	copy_plus<<<n / 128, 128, 0, nb>>>(b, a, n);
	CK(cudaStreamSynchronize(nb));
	CK(cudaMemcpy(h, a, n * sizeof(int), cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < n; i++)
		bad += h[i] != 1;
	expect(bad == 0, "a non-blocking stream (%d wrong)", bad);

	for (int k = 0; k < ns; k++)
		CK(cudaStreamDestroy(s[k]));
	CK(cudaStreamDestroy(nb));
	CK(cudaEventDestroy(done));
	CK(cudaEventDestroy(t0));
	CK(cudaEventDestroy(t1));
	CK(cudaFreeHost(h));
	CK(cudaFree(d));
	CK(cudaFree(a));
	CK(cudaFree(b));
	return finish();
}
