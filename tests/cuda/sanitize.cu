// Kernels with one known defect each, and defect-free kernels that use
// shared memory the same ways: the fixtures of ptxvm's checks
// (docs/CHECKS.md).  Compiled with -lineinfo, so that reports name lines
// of this file.

// Reads and writes one element past the end when n is the array's size.
__global__ void past_end(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i <= n)
		x[i] = x[i] * 2.0f;
}

// Reverses a block's elements through dynamic shared memory, which the
// launch must size.
extern __shared__ float dyn[];
__global__ void reverse(float *x)
{
	dyn[threadIdx.x] = x[threadIdx.x];
	__syncthreads();
	x[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

// A block sum whose barrier is missing: thread 0 reads what other warps
// write (read-after-write race).
__global__ void sum_racy(const int *in, int *out)
{
	__shared__ int s[256];
	s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
	if (threadIdx.x == 0) {
		int t = 0;
		for (int i = 0; i < blockDim.x; i++)
			t += s[i];
		out[blockIdx.x] = t;
	}
}

// The same sum as a tree reduction with a barrier between its steps (as
// CUB's block reduction does): race-free.
__global__ void sum_tree(const int *in, int *out)
{
	__shared__ int s[256];
	unsigned t = threadIdx.x;
	s[t] = in[blockIdx.x * blockDim.x + t];
	__syncthreads();
	for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

// A warp-level reduction with shuffles and one shared word per warp (the
// other way CUB reduces a block): race-free.
__global__ void sum_warps(const int *in, int *out)
{
	__shared__ int part[32];
	unsigned t = threadIdx.x;
	int v = in[blockIdx.x * blockDim.x + t];
	for (int k = 16; k > 0; k >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, k);
	if (t % 32 == 0)
		part[t / 32] = v;
	__syncthreads();
	if (t < 32) {
		v = t < blockDim.x / 32 ? part[t] : 0;
		for (int k = 16; k > 0; k >>= 1)
			v += __shfl_down_sync(0xffffffffu, v, k);
		if (t == 0)
			out[blockIdx.x] = v;
	}
}

// Tiled matrix multiply C = A B of n x n matrices (n a multiple of 16):
// race-free.
#define TILE 16
__global__ void matmul(const float *a, const float *b, float *c, int n)
{
	__shared__ float ta[TILE][TILE], tb[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
	float acc = 0.0f;
	for (int k0 = 0; k0 < n; k0 += TILE) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = acc;
}

// The tiled multiply without its second barrier: the next tile overwrites
// what slower warps still read (write-after-read race).
__global__ void matmul_racy(const float *a, const float *b, float *c, int n)
{
	__shared__ float ta[TILE][TILE], tb[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
	float acc = 0.0f;
	for (int k0 = 0; k0 < n; k0 += TILE) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
	}
	c[row * n + col] = acc;
}

// Reads one element more than the host wrote (initcheck).
__global__ void read_uninit(const int *in, int *out, int n)
{
	int i = threadIdx.x;
	if (i < n)
		out[i] = in[i] + in[i + 1];
}

// A barrier inside a branch that only some threads of a warp take
// (synccheck).
__global__ void divergent_barrier(int *out)
{
	__shared__ int s[64];
	s[threadIdx.x] = threadIdx.x;
	if (threadIdx.x % 2 == 0)
		__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}

// Two barriers, one in each branch of a condition that differs between
// warps: each warp waits at a barrier the others never reach (synccheck:
// divergent threads in block; the hardware counts them as one barrier).
__global__ void split_barrier(int *out)
{
	__shared__ int s[64];
	s[threadIdx.x] = threadIdx.x;
	if (threadIdx.x < 32) {
		__syncthreads();
		out[threadIdx.x] = s[63 - threadIdx.x];
	} else {
		__syncthreads();
		out[threadIdx.x] = s[63 - threadIdx.x] + 1;
	}
}
