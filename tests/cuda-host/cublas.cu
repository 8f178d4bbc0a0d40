// nvcc-flags: -lcublas
// cuBLAS on ptxvm: NVIDIA's library, unmodified, loads its own kernels
// (PTX for compute_120 only, so the device answers as sm_120) and runs
// them.  cublasCreate needs the runtime's tools TLS table (its slot 2,
// the current context).  What runs is checked exactly: small integers,
// so every result is exact in single precision.  Routines that need the
// driver's private context tables (dot, nrm2, gemv) or SASS-only kernels
// (gemm) fail on ptxvm and are not called: docs/CUDA.md.
#include <cublas_v2.h>
#include <stdlib.h>
#include "check.h"

#define CB(call) do { \
	cublasStatus_t s_ = (call); \
	if (s_ != CUBLAS_STATUS_SUCCESS) { \
		printf("FAIL %s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_); \
		return 1; \
	} \
} while (0)

int main(void)
{
	setenv("PTXVM_ARCH", "sm_120", 1);      /* ptxvm's device; a GPU's driver ignores it */
	enum { N = 1000, M = 48, K = 15 };
	static float x[N], y[N], a[M * K], r[N];
	for (int i = 0; i < N; i++) {
		x[i] = (float)(i % 7) - 3;
		y[i] = (float)(i % 5) - 2;
	}
	for (int i = 0; i < M * K; i++)
		a[i] = (float)(i % 11);
	float *dx, *dy, *da;
	CK(cudaMalloc(&dx, sizeof x));
	CK(cudaMalloc(&dy, sizeof y));
	CK(cudaMalloc(&da, sizeof a));
	CK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
	cublasHandle_t h;
	CB(cublasCreate(&h));
	expect(true, "cublasCreate");

	/* y = 3 x + y */
	float three = 3, half = 0.5f, two = 2;
	CB(cublasSaxpy(h, N, &three, dx, 1, dy, 1));
	CK(cudaMemcpy(r, dy, sizeof r, cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += r[i] != 3 * x[i] + y[i];
	expect(bad == 0, "saxpy: %d of %d wrong", bad, N);

	/* every other element of x halved */
	CB(cublasSscal(h, N / 2, &half, dx, 2));
	CK(cudaMemcpy(r, dx, sizeof r, cudaMemcpyDeviceToHost));
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += r[i] != (i % 2 ? x[i] : x[i] / 2);
	expect(bad == 0, "sscal with a stride of 2: %d of %d wrong", bad, N);

	/* A (M x K, column-major) += 2 u v^T, u = the first M of x, v = of y, as they are now */
	float u[M], v[K];
	for (int i = 0; i < M; i++)
		u[i] = i % 2 ? x[i] : x[i] / 2;
	for (int j = 0; j < K; j++)
		v[j] = 3 * x[j] + y[j];
	CB(cublasSger(h, M, K, &two, dx, 1, dy, 1, da, M));
	CK(cudaMemcpy(r, da, sizeof a, cudaMemcpyDeviceToHost));
	bad = 0;
	for (int j = 0; j < K; j++)
		for (int i = 0; i < M; i++)
			bad += r[j * M + i] != a[j * M + i] + 2 * u[i] * v[j];
	expect(bad == 0, "sger: %d of %d wrong", bad, M * K);

	CB(cublasDestroy(h));
	CK(cudaFree(dx));
	CK(cudaFree(dy));
	CK(cudaFree(da));
	return finish();
}
