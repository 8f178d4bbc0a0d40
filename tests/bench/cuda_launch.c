/* cuda_launch.c: what the driver layer costs.  An empty one-CTA kernel of
 * one thread launched 100,000 times through cuLaunchKernel (libcuda.so.1)
 * and through ptxvm_launch (the C API underneath, in the same process),
 * and 5,000 times in one CTA of 256 threads and in 64; then, given a PTX
 * file and a kernel taking (a, b, c, n), a vector add of n floats both
 * ways.  Prints microseconds per launch and the ratios. */
#include <cuda.h>

#include "../../include/ptxvm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char empty[] = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry empty()\n{\n\tret;\n}\n";

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define CK(x) do { CUresult r_ = (x); if (r_) { fprintf(stderr, "%s: %d\n", #x, (int)r_); exit(1); } } while (0)

int main(int argc, char **argv)
{
	enum { N = 100000 };
	CUdevice dev;
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	CK(cuModuleLoadData(&m, empty));
	CK(cuModuleGetFunction(&f, m, "empty"));
	ptxvm_device *d = ptxvm_device_create(NULL);
	ptxvm_module *pm = ptxvm_module_load("empty.ptx", empty, strlen(empty), NULL);
	ptxvm_program *p;
	if (!d || !pm || ptxvm_program_load(d, pm, &p))
		return 1;
	const ptxvm_kernel *k = ptxvm_kernel_find(p, "empty");
	/* one thread; a CTA of 256 (whose threads' local memory, the call stack,
	   the launch sets up); 64 of them (on every worker) */
	static const unsigned shape[][2] = { { 1, 1 }, { 1, 256 }, { 64, 256 } };
	for (unsigned sh = 0; sh < 3; sh++) {
		unsigned ctas = shape[sh][0], threads = shape[sh][1];
		ptxvm_launch_config cfg = { { ctas, 1, 1 }, { threads, 1, 1 }, 0, { 0, 0, 0 } };
		int n = threads == 1 ? N : N / 20;
		double best_c = 1e9, best_cu = 1e9;
		for (int rep = 0; rep < 3; rep++) {     /* best of three, alternating */
			double t0 = now();
			for (int i = 0; i < n; i++)
				if (ptxvm_launch(d, k, &cfg, NULL, NULL))
					return 1;
			double t1 = now();
			for (int i = 0; i < n; i++)
				CK(cuLaunchKernel(f, ctas, 1, 1, threads, 1, 1, 0, NULL, NULL, NULL));
			CK(cuCtxSynchronize());
			double t2 = now();
			if (t1 - t0 < best_c)
				best_c = t1 - t0;
			if (t2 - t1 < best_cu)
				best_cu = t2 - t1;
		}
		printf("empty kernel, %u CTA%s of %u thread%s, %d launches: cuLaunchKernel %.2f us each, ptxvm_launch "
		       "%.2f us each (driver layer %+.1f%%; target <= 5 us)\n", ctas, ctas == 1 ? "" : "s", threads,
		       threads == 1 ? "" : "s", n, best_cu / n * 1e6, best_c / n * 1e6, (best_cu / best_c - 1) * 100);
	}
	if (argc < 3)
		return 0;
	/* a vector add, from the PTX nvcc made of the runtime program */
	FILE *in = fopen(argv[1], "rb");
	if (!in)
		return 1;
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof text - 1, in);
	fclose(in);
	text[len] = 0;
	unsigned n = 1u << 22;
	ptxvm_module *vm = ptxvm_module_load(argv[1], text, len, NULL);
	ptxvm_program *vp;
	if (!vm || ptxvm_program_load(d, vm, &vp))
		return 1;
	const ptxvm_kernel *vk = ptxvm_kernel_find(vp, argv[2]);
	uint64_t a, b, c;
	if (!vk || ptxvm_mem_alloc(d, n * 4, &a) || ptxvm_mem_alloc(d, n * 4, &b) || ptxvm_mem_alloc(d, n * 4, &c))
		return 1;
	ptxvm_launch_config vc = { { n / 256, 1, 1 }, { 256, 1, 1 }, 0, { 0, 0, 0 } };
	void *args[] = { &a, &b, &c, &n };
	double best = 1e9;
	for (int rep = 0; rep < 5; rep++) {
		double t0 = now();
		if (ptxvm_launch(d, vk, &vc, args, NULL))
			return 1;
		double t = now() - t0;
		if (t < best)
			best = t;
	}
	printf("vector add of %u floats through the C API: %.2f ms (best of 5)\n", n, best * 1e3);
	return 0;
}
