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
	CK(cudaFree(p));
	CK(cudaFree(d));
	return finish();
}
