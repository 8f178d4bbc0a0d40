// collatz.cu: the Collatz stopping time of every n in 1..N, and the n with
// the longest.  Lanes of a warp loop different numbers of times (divergence
// and reconvergence), a CTA reduces in shared memory between barriers, and
// CTAs combine their results with a 64-bit atomicMax.  `make demo` runs it.
extern "C" __global__ void collatz(unsigned n, unsigned *steps, unsigned long long *best)
{
	__shared__ unsigned long long sbest[256];
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x + 1;
	unsigned long long key = 0;
	if (i <= n) {
		unsigned long long v = i;
		unsigned s = 0;
		while (v != 1) {
			v = (v & 1) ? 3 * v + 1 : v >> 1;
			s++;
		}
		steps[i - 1] = s;
		key = ((unsigned long long)s << 32) | (0xffffffffu - i);   // most steps, then smallest n
	}
	sbest[threadIdx.x] = key;
	__syncthreads();
	for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k && sbest[threadIdx.x + k] > sbest[threadIdx.x])
			sbest[threadIdx.x] = sbest[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicMax(best, sbest[0]);
}
