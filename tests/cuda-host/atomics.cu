// Atomics on global and shared memory: every thread of many blocks hits
// the same few words; the results are what any order gives.
#include "check.h"

struct Out {
	int add, sub, max, min, exch_seen, cas_count;
	unsigned inc, dec, and_, or_, xor_;
	unsigned long long add64;
	float fadd;
	double dadd;
	int hist[16];
};

__global__ void hammer(Out *o, const int *v, int n)
{
	__shared__ int sh[16];
	if (threadIdx.x < 16)
		sh[threadIdx.x] = 0;
	__syncthreads();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		int x = v[i];
		atomicAdd(&o->add, x);
		atomicSub(&o->sub, x);
		atomicMax(&o->max, x);
		atomicMin(&o->min, x);
		atomicInc(&o->inc, 99u);        // wraps to 0 after 99
		atomicDec(&o->dec, 49u);        // wraps to 49 below 0
		atomicAnd(&o->and_, ~(1u << (i % 32)) | 0x80000000u);
		atomicOr(&o->or_, 1u << (i % 31));
		atomicXor(&o->xor_, (unsigned)x);
		atomicAdd(&o->add64, (unsigned long long)(unsigned)x << 20);
		atomicAdd(&o->fadd, 0.5f);      // exact: sums of halves below 2^24
		atomicAdd(&o->dadd, 0.25);
		atomicAdd(&sh[x & 15], 1);
		// a lock-free increment by compare-and-swap
		int old = o->cas_count, seen;
		while ((seen = atomicCAS(&o->cas_count, old, old + 1)) != old)
			old = seen;
		int prev = atomicExch(&o->exch_seen, i);
		(void)prev;
	}
	__syncthreads();
	if (threadIdx.x < 16)
		atomicAdd(&o->hist[threadIdx.x], sh[threadIdx.x]);
}

int main()
{
	const int n = 20000;
	int *v = (int *)malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		v[i] = (int)((i * 2654435761u) % 200001u) - 100000;
	Out init = {};
	init.min = 0x7fffffff;
	init.max = (int)0x80000000;
	init.and_ = 0xffffffffu;
	init.dec = 7;
	init.exch_seen = -1;
	Out want = init;
	for (int i = 0; i < n; i++) {
		int x = v[i];
		want.add = (int)((unsigned)want.add + (unsigned)x);
		want.sub = (int)((unsigned)want.sub - (unsigned)x);
		want.max = x > want.max ? x : want.max;
		want.min = x < want.min ? x : want.min;
		want.inc = want.inc >= 99u ? 0 : want.inc + 1;
		want.dec = want.dec == 0 || want.dec > 49u ? 49u : want.dec - 1;
		want.and_ &= ~(1u << (i % 32)) | 0x80000000u;
		want.or_ |= 1u << (i % 31);
		want.xor_ ^= (unsigned)x;
		want.add64 += (unsigned long long)(unsigned)x << 20;
		want.fadd += 0.5f;
		want.dadd += 0.25;
		want.hist[x & 15]++;
		want.cas_count++;
	}
	Out *d, got;
	int *dv;
	CK(cudaMalloc(&d, sizeof(Out)));
	CK(cudaMalloc(&dv, n * sizeof(int)));
	CK(cudaMemcpy(d, &init, sizeof init, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dv, v, n * sizeof(int), cudaMemcpyHostToDevice));
	hammer<<<(n + 255) / 256, 256>>>(d, dv, n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost));
	expect(got.add == want.add && got.sub == want.sub, "atomicAdd / atomicSub int: %d %d", got.add, got.sub);
	expect(got.max == want.max && got.min == want.min, "atomicMax / atomicMin: %d %d", got.max, got.min);
	// inc and dec wrap, so their result depends on the count only
	expect(got.inc == want.inc && got.dec == want.dec, "atomicInc / atomicDec wrap: %u %u (want %u %u)", got.inc,
	       got.dec, want.inc, want.dec);
	expect(got.and_ == want.and_ && got.or_ == want.or_ && got.xor_ == want.xor_, "atomicAnd / Or / Xor");
	expect(got.add64 == want.add64, "atomicAdd unsigned long long");
	expect(got.fadd == want.fadd && got.dadd == want.dadd, "atomicAdd float %g, double %g", got.fadd, got.dadd);
	expect(got.cas_count == n, "atomicCAS loop counted %d of %d", got.cas_count, n);
	expect(got.exch_seen >= 0 && got.exch_seen < n, "atomicExch left one thread's index (%d)", got.exch_seen);
	expect_eq("shared-memory histogram merged with global atomics", got.hist, want.hist, 16);
	CK(cudaFree(d));
	CK(cudaFree(dv));
	return finish();
}
