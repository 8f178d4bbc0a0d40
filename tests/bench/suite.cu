// suite.cu: the kernels `make bench` runs on ptxvm, one source for both of
// its scripts.  The three-form benchmark (tests/bench/suite.sh): ptxvm on
// this file's PTX, plain C (suite.c) and OpenCL C (suite.cl) do the same
// operations in the same order, so every output agrees byte for byte.  The
// execution throughput (tests/bench/exec.sh) runs fma_loop, vec_add,
// block_reduce, the histograms and the kernels at the end of this file
// with `ptxvm run`, against their twins in native.c.
// suite.ptx is generated from this file and committed (no CUDA needed):
//     nvcc -arch=sm_90 -ptx tests/bench/suite.cu -o tests/bench/suite.ptx
// Multiply-adds are written as fmaf (fma.rn), so no compiler may fuse or
// split one differently.

extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy(float alpha, const float *x, const float *y, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = fmaf(alpha, x[i], y[i]);
}

// ALU-bound: a dependent chain of 8 FMAs per iteration, one chain per thread.
extern "C" __global__ void fma_loop(float *out, int iters)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float x = (float)i * 1e-6f;
	for (int k = 0; k < iters; k++) {
		x = fmaf(x, 0.999f, 0.001f);
		x = fmaf(x, 1.001f, -0.002f);
		x = fmaf(x, 0.998f, 0.003f);
		x = fmaf(x, 1.002f, -0.001f);
		x = fmaf(x, 0.997f, 0.002f);
		x = fmaf(x, 1.003f, -0.003f);
		x = fmaf(x, 0.996f, 0.001f);
		x = fmaf(x, 1.004f, -0.001f);
	}
	out[i] = x;
}

// Shared memory and barriers: a tree sum of 256 elements per CTA.
extern "C" __global__ void block_reduce(const float *in, float *out, int n)
{
	__shared__ float s[256];
	int t = threadIdx.x;
	int i = blockIdx.x * 256 + t;
	s[t] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (int w = 128; w > 0; w >>= 1) {
		if (t < w)
			s[t] += s[t + w];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

// 256 bins: atomics on global bins.
extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&bins[in[i] & 255], 1u);
}

// The same with the bins in shared memory, added to the global ones at the end.
extern "C" __global__ void histogram_shared(const unsigned *in, unsigned *bins, int n)
{
	__shared__ unsigned s[256];
	s[threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&s[in[i] & 255], 1u);
	__syncthreads();
	if (s[threadIdx.x])
		atomicAdd(&bins[threadIdx.x], s[threadIdx.x]);
}

// C = A B, n x n (n a multiple of 16), 16 x 16 tiles in shared memory; each
// element sums k = 0 .. n-1 in order.
extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
	__shared__ float As[16][16], Bs[16][16];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
	float acc = 0.0f;
	for (int t = 0; t < n; t += 16) {
		As[ty][tx] = A[row * n + t + tx];
		Bs[ty][tx] = B[(t + ty) * n + col];
		__syncthreads();
		for (int k = 0; k < 16; k++)
			acc = fmaf(As[ty][k], Bs[k][tx], acc);
		__syncthreads();
	}
	C[row * n + col] = acc;
}

// One step of a 5-point stencil on a w x h grid: the mean of a point and
// its 4 neighbours (summed in this order), the border copied.
extern "C" __global__ void stencil5(const float *in, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	int i = y * w + x;
	if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
		out[i] = in[i];
	else
		out[i] = ((((in[i] + in[i - 1]) + in[i + 1]) + in[i - w]) + in[i + w]) * 0.2f;
}

// Divergent: the Collatz stopping time of n = 1 .. count.
extern "C" __global__ void collatz(unsigned *steps, int count)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= count)
		return;
	unsigned long long v = (unsigned long long)i + 1;
	unsigned s = 0;
	while (v != 1) {
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		s++;
	}
	steps[i] = s;
}

// Atomic throughput (exec.sh), fully contended: every thread adds 1 to one
// counter, iters times.
extern "C" __global__ void atomic_contended(unsigned *ctr, int iters)
{
	for (int k = 0; k < iters; k++)
		atomicAdd(ctr, 1u);
}

// Atomic throughput, uncontended: every thread adds 1 to its own counter.
extern "C" __global__ void atomic_spread(unsigned *ctrs, int iters)
{
	unsigned *c = ctrs + blockIdx.x * blockDim.x + threadIdx.x;
	for (int k = 0; k < iters; k++)
		atomicAdd(c, 1u);
}

// Texture-bound (exec.sh): an image resampled through a bilinear texture
// (clamped edges, unnormalized coordinates); each thread samples the source
// at its output pixel's centre scaled by (sx, sy).
extern "C" __global__ void tex_resample(cudaTextureObject_t src, float *out, int w, int h, float sx, float sy)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		out[y * w + x] = tex2D<float>(src, ((float)x + 0.5f) * sx, ((float)y + 0.5f) * sy);
}
