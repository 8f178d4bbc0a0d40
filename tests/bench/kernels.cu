// kernels.cu: the kernels `make bench` runs on ptxvm (tests/bench/exec.sh).
//
// kernels.ptx is generated from this file and committed, so the bench needs
// no CUDA:
//     nvcc -arch=sm_90 -ptx tests/bench/kernels.cu -o tests/bench/kernels.ptx
// (CUDA 13.0, V13.0.88).  Each kernel has a twin in native.c that does the
// same float operations in the same order, so the outputs must agree exactly.

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

// Memory-bound: one element per thread.
extern "C" __global__ void vec_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

// Shared memory and barriers: 256-thread CTAs, a tree sum of 256 elements.
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

// Atomic-heavy: every element an atomicAdd on one of 256 global bins.
extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		atomicAdd(&bins[in[i] & 255], 1u);
}

// The same with bins privatised in shared memory (256-thread CTAs).
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

// Atomic throughput, fully contended: every thread adds 1 to one counter,
// iters times.
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

// Texture-bound: an image resampled through a bilinear texture (clamped
// edges, unnormalized coordinates); each thread samples the source at its
// output pixel's centre scaled by (sx, sy).
extern "C" __global__ void tex_resample(cudaTextureObject_t src, float *out, int w, int h, float sx, float sy)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		out[y * w + x] = tex2D<float>(src, ((float)x + 0.5f) * sx, ((float)y + 0.5f) * sy);
}
