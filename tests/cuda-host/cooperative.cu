// Cooperative launch: grid-wide synchronisation between phases.
#include "check.h"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Phase 1 writes one value per thread; after grid.sync() every thread
// reads a value another block wrote; phase 3 sums per block.
__global__ void phases(int *a, int *b, int n, int rounds)
{
	cg::grid_group grid = cg::this_grid();
	int i = (int)grid.thread_rank();
	for (int r = 0; r < rounds; r++) {
		a[i] = i * (r + 1);
		grid.sync();
		b[i] = a[(i + blockDim.x) % n] + a[(n - 1 - i)];
		grid.sync();
	}
}

int main()
{
	int coop = 0;
	CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
	expect(coop == 1, "cudaDevAttrCooperativeLaunch is 1");
	int per_sm = 0, sms = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases, 128, 0));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	expect(per_sm >= 1 && sms >= 1, "occupancy: %d blocks of 128 per SM, %d SMs", per_sm, sms);
	int blocks = 8 < per_sm * sms ? 8 : per_sm * sms, threads = 128, n = blocks * threads, rounds = 3;
	int *a, *b;
	CK(cudaMalloc(&a, n * sizeof(int)));
	CK(cudaMalloc(&b, n * sizeof(int)));
	void *args[] = { &a, &b, &n, &rounds };
	CK(cudaLaunchCooperativeKernel((void *)phases, blocks, threads, args, 0, 0));
	CK(cudaDeviceSynchronize());
	int *got = (int *)malloc(n * sizeof(int)), *want = (int *)malloc(n * sizeof(int));
	CK(cudaMemcpy(got, b, n * sizeof(int), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		want[i] = ((i + threads) % n) * rounds + (n - 1 - i) * rounds;
	expect_eq("grid.sync() between phases across 8 blocks", got, want, n);
	// more blocks than can be resident at once is refused
	int too_many = per_sm * sms + 1;
	cudaError_t e = cudaLaunchCooperativeKernel((void *)phases, too_many, threads, args, 0, 0);
	expect(e == cudaErrorCooperativeLaunchTooLarge, "%d blocks cooperatively: %s", too_many, cudaGetErrorName(e));
	CK(cudaFree(a));
	CK(cudaFree(b));
	return finish();
}
