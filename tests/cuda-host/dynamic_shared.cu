// Dynamic shared memory: a size given at launch, and above the 48 KiB
// default once cudaFuncSetAttribute allows it.
#include "check.h"

extern __shared__ unsigned char smem[];

// Each block reverses its chunk of `per` ints through shared memory.
__global__ void reverse_chunks(const int *in, int *out, int per)
{
	int *s = (int *)smem;
	const int *src = in + blockIdx.x * per;
	for (int i = threadIdx.x; i < per; i += blockDim.x)
		s[i] = src[i];
	__syncthreads();
	for (int i = threadIdx.x; i < per; i += blockDim.x)
		out[blockIdx.x * per + i] = s[per - 1 - i];
}

// A tree sum over blockDim.x values in shared memory.
__global__ void block_sum(const unsigned *in, unsigned *out)
{
	unsigned *s = (unsigned *)smem;
	s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
	__syncthreads();
	for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
		if (threadIdx.x < w)
			s[threadIdx.x] += s[threadIdx.x + w];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

int main()
{
	const int blocks = 6;
	for (int per : { 100, 12288, 16384 + 1000 }) { // 400 B, 48 KiB, 69 KiB
		size_t sh = per * sizeof(int);
		if (sh > 48 * 1024)
			CK(cudaFuncSetAttribute(reverse_chunks, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
		int *h = (int *)malloc(blocks * sh), *want = (int *)malloc(blocks * sh);
		for (int i = 0; i < blocks * per; i++)
			h[i] = i * 31 + 7;
		for (int b = 0; b < blocks; b++)
			for (int i = 0; i < per; i++)
				want[b * per + i] = h[b * per + per - 1 - i];
		int *din, *dout;
		CK(cudaMalloc(&din, blocks * sh));
		CK(cudaMalloc(&dout, blocks * sh));
		CK(cudaMemcpy(din, h, blocks * sh, cudaMemcpyHostToDevice));
		reverse_chunks<<<blocks, 256, sh>>>(din, dout, per);
		CK(cudaGetLastError());
		CK(cudaMemcpy(h, dout, blocks * sh, cudaMemcpyDeviceToHost));
		char what[64];
		snprintf(what, sizeof what, "reverse through %zu bytes of dynamic shared memory", sh);
		expect_eq(what, h, want, blocks * per);
		CK(cudaFree(din));
		CK(cudaFree(dout));
		free(h);
		free(want);
	}

	cudaFuncAttributes attr;
	CK(cudaFuncGetAttributes(&attr, reverse_chunks));
	expect(attr.maxDynamicSharedSizeBytes == (16384 + 1000) * 4, "cudaFuncGetAttributes: max dynamic shared %d",
	       attr.maxDynamicSharedSizeBytes);

	// more than the device allows per block is refused at launch
	int optin = 0;
	CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
	expect(cudaFuncSetAttribute(reverse_chunks, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1) ==
		       cudaErrorInvalidValue,
	       "a dynamic shared limit above the opt-in maximum (%d) is refused", optin);
	reverse_chunks<<<1, 32, 64 * 1024 * 1024>>>(NULL, NULL, 0);
	cudaError_t e = cudaGetLastError();
	expect(e != cudaSuccess, "a launch asking for 64 MiB of shared memory fails: %s", cudaGetErrorName(e));

	for (int t : { 32, 128, 1024 }) {
		const int nb = 5;
		unsigned *h = (unsigned *)malloc(nb * t * 4), want[nb], got[nb];
		for (int b = 0; b < nb; b++) {
			want[b] = 0;
			for (int i = 0; i < t; i++) {
				h[b * t + i] = (unsigned)(b * 1000003 + i * 7919) ^ 0x9e3779b9u;
				want[b] += h[b * t + i];
			}
		}
		unsigned *din, *dout;
		CK(cudaMalloc(&din, nb * t * 4));
		CK(cudaMalloc(&dout, nb * 4));
		CK(cudaMemcpy(din, h, nb * t * 4, cudaMemcpyHostToDevice));
		block_sum<<<nb, t, t * 4>>>(din, dout);
		CK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
		char what[64];
		snprintf(what, sizeof what, "tree sum over %d threads", t);
		expect_eq(what, got, want, nb);
		CK(cudaFree(din));
		CK(cudaFree(dout));
		free(h);
	}
	return finish();
}
