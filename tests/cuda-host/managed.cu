// Managed memory: one allocation the host and the device both use.
#include "check.h"

__managed__ int mvar[8];

__global__ void step(double *p, int n, double k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = p[i] * k + (double)i;
}

__global__ void bump_managed_var(void)
{
	mvar[threadIdx.x] += threadIdx.x * 10;
}

int main()
{
	int managed = 0;
	CK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
	expect(managed == 1, "cudaDevAttrManagedMemory is 1");
	const int n = 5000;
	double *p, *want = (double *)malloc(n * sizeof(double));
	CK(cudaMallocManaged(&p, n * sizeof(double)));
	for (int i = 0; i < n; i++)
		want[i] = p[i] = (double)i / 3.0;
	for (int round = 0; round < 3; round++) {
		step<<<(n + 255) / 256, 256>>>(p, n, 1.5);
		CK(cudaDeviceSynchronize());
		for (int i = 0; i < n; i++)
			want[i] = want[i] * 1.5 + (double)i;
		expect_eq("managed doubles after a kernel", p, want, n);
		for (int i = 0; i < n; i += 2) // the host writes between kernels
			p[i] = -p[i];
		for (int i = 0; i < n; i += 2)
			want[i] = -want[i];
	}
	// copies to and from managed memory work like device memory
	double *d;
	CK(cudaMalloc(&d, n * sizeof(double)));
	CK(cudaMemcpy(d, p, n * sizeof(double), cudaMemcpyDefault));
	CK(cudaMemset(p, 0, n * sizeof(double)));
	CK(cudaMemcpy(p, d, n * sizeof(double), cudaMemcpyDeviceToDevice));
	CK(cudaDeviceSynchronize());
	expect_eq("managed memory through cudaMemcpy", p, want, n);

	cudaPointerAttributes a;
	CK(cudaPointerGetAttributes(&a, p));
	expect(a.type == cudaMemoryTypeManaged && a.devicePointer == p && a.hostPointer == p,
	       "cudaPointerGetAttributes: managed, one address (type %d)", (int)a.type);

	for (int i = 0; i < 8; i++)
		mvar[i] = i;
	bump_managed_var<<<1, 8>>>();
	CK(cudaDeviceSynchronize());
	int wantv[8];
	for (int i = 0; i < 8; i++)
		wantv[i] = i + i * 10;
	expect_eq("a __managed__ variable", mvar, wantv, 8);
	CK(cudaPointerGetAttributes(&a, mvar));
	expect(a.type == cudaMemoryTypeManaged && a.devicePointer == mvar && a.hostPointer == mvar,
	       "cudaPointerGetAttributes: a __managed__ variable is managed, one address (type %d)", (int)a.type);

	// the hints: prefetches, advice and attachment to a stream, of an
	// allocation and of a __managed__ variable, change no value; device
	// memory is no managed memory, and one cannot attach singly to the
	// NULL stream
	cudaStream_t s;
	CK(cudaStreamCreate(&s));
	cudaMemLocation dev = { cudaMemLocationTypeDevice, 0 }, host = { cudaMemLocationTypeHost, 0 };
	CK(cudaMemPrefetchAsync(p, n * sizeof(double), dev, 0, s));
	CK(cudaMemPrefetchAsync(mvar, sizeof mvar, dev, 0, s));
	CK(cudaMemAdvise(p, n * sizeof(double), cudaMemAdviseSetPreferredLocation, dev));
	CK(cudaMemAdvise(mvar, sizeof mvar, cudaMemAdviseSetReadMostly, dev));
	CK(cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachSingle));
	CK(cudaStreamAttachMemAsync(s, mvar, sizeof mvar, cudaMemAttachSingle));
	step<<<(n + 255) / 256, 256, 0, s>>>(p, n, 2.0);
	bump_managed_var<<<1, 8, 0, s>>>();
	CK(cudaMemPrefetchAsync(p, n * sizeof(double), host, 0, s));
	CK(cudaMemPrefetchAsync(mvar, sizeof mvar, host, 0, s));
	CK(cudaStreamSynchronize(s));
	for (int i = 0; i < n; i++)
		want[i] = want[i] * 2.0 + (double)i;
	for (int i = 0; i < 8; i++)
		wantv[i] += i * 10;
	expect_eq("managed doubles after prefetches, advice and an attachment", p, want, n);
	expect_eq("a __managed__ variable after prefetches and an attachment", mvar, wantv, 8);
	CK(cudaStreamAttachMemAsync(s, p, 0, cudaMemAttachGlobal));
	expect(cudaMemPrefetchAsync(d, n * sizeof(double), dev, 0, s) == cudaErrorInvalidValue,
	       "prefetching device memory is an invalid value");
	(void)cudaGetLastError();
	expect(cudaStreamAttachMemAsync(0, p, 0, cudaMemAttachSingle) == cudaErrorInvalidValue,
	       "attaching singly to the NULL stream is an invalid value");
	(void)cudaGetLastError();
	CK(cudaStreamDestroy(s));
	CK(cudaFree(p));
	CK(cudaFree(d));
	return finish();
}
