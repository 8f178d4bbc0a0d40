// printf.cu MODE: device printf where docs/PRINTF.md marks a choice "to
// confirm on hardware".  Its output on a GPU is the golden file
// tests/hw/golden/NAME.printf.txt; on ptxvm's libcuda.so.1 it must print
// the same bytes (tests/hw/run.sh).  One thread prints at a time, so the
// order is fixed.  Each mode runs in its own process (the FIFO's size can
// only be set before the first launch that prints):
//   formats   conversions outside the guide's list, and printf's return value
//   mixed     unsupported conversions beside supported ones
//   fifo N    a FIFO of N bytes (what the driver makes of N), overrun:
//             which records are kept, how big a record counts
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("error %s at %s:%d\n", cudaGetErrorName(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void formats(int *ret)
{
	const char *null = 0;
	long long big = 0x123456789abLL;
	int k = 0;
	ret[k++] = printf("star-precision [%.*f]\n", 3, 3.14159265);
	ret[k++] = printf("star-precision-negative [%.*f]\n", -1, 2.5);
	ret[k++] = printf("upper-F [%F] [%F] [%F]\n", 1.5, 1.0 / 0.0, -0.0);
	ret[k++] = printf("sizes [%zd] [%jd] [%td] [%Ld]\n", (size_t)big, (long long)big, (long long)-big, big);
	ret[k++] = printf("null-s [%s] [%.3s] [%.6s] [%10s]\n", null, null, null, null);
	ret[k++] = printf("null-p [%p]\n", (void *)0);
	ret[k++] = printf("hh [%hhu] [%hd]\n", 300, 70000);
	ret[k++] = printf("unknown [%y] after\n");
	ret[k++] = printf("percent-width [%5%] [%-5%]\n");
	ret[k++] = printf("no-args\n");
	ret[k++] = printf("many %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	ret[k++] = printf("negative-width [%*d]\n", -6, 42);
	ret[k++] = printf("g [%g] [%g] [%a] [%e]\n", 1e-5, 123456789.0, 1.0, 0.1);
	ret[k++] = printf("nan [%f] [%F] [%e] [%g]\n", __longlong_as_double(0x7ff8000000000000LL),
			  __longlong_as_double(0xfff8000000000000LL), __longlong_as_double(0x7ff0000000000001LL), 0.0 / 0.0);
	ret[k++] = printf("c [%c] [%5c] [%-3c]\n", 'a', 'b', 'c');
	ret[k++] = printf("x [%#x] [%#o] [%+d] [% d] [%08.3f] [%-8d]\n", 255, 8, 5, 5, 3.14159, 7);
	ret[k] = -1000;
}

// Unsupported conversions next to supported ones: is the whole call
// printed as written, or only the conversion?
__global__ void mixed(int *ret)
{
	int k = 0;
	ret[k++] = printf("mixed-before %d [%zd] %d\n", 1, (size_t)2, 3);
	ret[k++] = printf("mixed-after %d %d [%.*f]\n", 1, 2, 3, 4.5);
	ret[k++] = printf("mixed-y %d [%y] %d\n", 1, 2);
	ret[k++] = printf("mixed-percent %d [%5%] %d\n", 1, 2);
	ret[k++] = printf("star-width [%*d] [%-*d]\n", 5, 42, 5, 42);
	ret[k++] = printf("hd [%hd] [%hd] [%hhd] [%hu]\n", 70000, -1, 300, 70000);
	ret[k++] = printf("ld [%ld] [%lld] [%lu] [%llx]\n", -5L, -6LL, 7UL, 0x123456789abcULL);
	ret[k++] = printf("lf [%lf] [%Lf]\n", 1.25, 2.5);
	ret[k++] = printf("s-precision [%.2s] [%8.3s]\n", "abcdef", "abcdef");
	ret[k++] = printf("too-many %d\n", 1, 2, 3);
	ret[k++] = printf("nan-div [%f] [%g]\n", 0.0 / 0.0, __longlong_as_double(0x7ff8000000000000LL));
	ret[k++] = printf("pct-noargs 100%% [%5%]\n");
	ret[k++] = printf("pct-args %d 100%% [%5%]\n", 1);
	ret[k++] = printf("hh-then [%hhd] [%d] [%d]\n", 1, 2, 3);
	ret[k++] = printf("star-star [%*.*f] [%d]\n", 8, 3, 1.5, 4);
	ret[k] = -1000;
}

// Records past a FIFO of the size the host set: which are kept, and how
// many of each size fit (printf.sh prints runs of numbered lines as ranges).
__global__ void fifo(int *ret, const char *longstr)
{
	int k = 0;
	for (int i = 0; i < 40000; i++) {
		int r = printf("small %05d\n", i);
		if (i < 2)
			ret[k++] = r;
	}
	for (int i = 0; i < 20000; i++) {
		int r = printf("wide %05d %d %d %d %d %d %d %d %d\n", i, i, i, i, i, i, i, i, i);
		if (i < 2)
			ret[k++] = r;
	}
	ret[k++] = printf("long [%s]\n", longstr);
	ret[k] = -1000;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "formats";
	int *ret;
	char *longstr;
	int h[256];
	if (!strcmp(mode, "fifo")) {
		size_t n = argc > 2 ? strtoul(argv[2], 0, 0) : 4096, got = 0;
		CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, n));
		CHECK(cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize));
		printf("fifo: asked %zu, got %zu\n", n, got);
		fflush(stdout);
	}
	CHECK(cudaMalloc(&ret, sizeof h));
	CHECK(cudaMemset(ret, 0, sizeof h));
	if (!strcmp(mode, "fifo")) {
		static char s[3001];
		for (int i = 0; i < 3000; i++)
			s[i] = 'a' + i % 26;
		CHECK(cudaMalloc(&longstr, sizeof s));
		CHECK(cudaMemcpy(longstr, s, sizeof s, cudaMemcpyHostToDevice));
		fifo<<<1, 1>>>(ret, longstr);
	} else if (!strcmp(mode, "mixed")) {
		mixed<<<1, 1>>>(ret);
	} else {
		formats<<<1, 1>>>(ret);
	}
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	fflush(stdout);
	CHECK(cudaMemcpy(h, ret, sizeof h, cudaMemcpyDeviceToHost));
	printf("returns:");
	for (int i = 0; i < 256 && h[i] != -1000; i++)
		printf(" %d", h[i]);
	printf("\n");
	return 0;
}
