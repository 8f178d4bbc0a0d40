/* attrs.c: what a device says about itself through the driver API alone:
 * every CUdevice_attribute, the context's limits, a small kernel's
 * function attributes and occupancy.  Recorded on a GPU by
 * tests/hw/record.sh as tests/hw/golden/NAME.attrs.txt, to hold ptxvm's
 * table (src/host/attr.c) against; ptxvm's own output is the same program
 * on its libcuda.so.1.  One line per value: "attr N V", or "attr N error
 * NAME" where the driver refuses the number; occupancy's N is the block
 * size times 10^6 plus the dynamic shared memory. */
#include <cuda.h>

#include <stdio.h>
#include <string.h>

static const char ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 out)\n{\n"
	".reg .b32 %r<4>; .reg .b64 %rd<4>; .shared .align 4 .b8 s[1024];\n"
	"ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1; mov.u32 %r1, %tid.x;\n"
	"mov.u64 %rd2, s; st.shared.u32 [%rd2], %r1; bar.sync 0; ld.shared.u32 %r2, [%rd2];\n"
	"st.global.u32 [%rd1], %r2;\nret;\n}\n";

static void line(const char *what, int n, CUresult r, long long v)
{
	const char *name = NULL;
	if (r) {
		cuGetErrorName(r, &name);
		printf("%s %d error %s\n", what, n, name ? name : "?");
	} else {
		printf("%s %d %lld\n", what, n, v);
	}
}

/* attrs, or attrs all: everything; attrs --groups: "all" (tests/hw/run.sh
 * runs every probe group by group) */
int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--groups")) {
		printf("all\n");
		return 0;
	}
	CUdevice dev;
	CUcontext ctx;
	CUresult r = cuInit(0);
	if (r || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) {
		printf("error: no device (%d)\n", (int)r);
		return 1;
	}
	char name[256] = "";
	cuDeviceGetName(name, sizeof name, dev);
	size_t mem = 0;
	cuDeviceTotalMem(&mem, dev);
	int ver = 0;
	cuDriverGetVersion(&ver);
	printf("name %s\ntotal_mem %zu\ndriver %d\n", name, mem, ver);
	for (int a = 1; a <= 160; a++) {
		int v = 0;
		r = cuDeviceGetAttribute(&v, (CUdevice_attribute)a, dev);
		line("attr", a, r, v);
	}
	for (int l = 0; l <= 8; l++) {
		size_t v = 0;
		r = cuCtxGetLimit(&v, (CUlimit)l);
		line("limit", l, r, (long long)v);
	}
	CUmodule m;
	CUfunction f;
	if (cuModuleLoadData(&m, ptx) || cuModuleGetFunction(&f, m, "k")) {
		printf("error: the kernel does not load\n");
		return 1;
	}
	for (int a = 0; a <= 16; a++) {
		int v = 0;
		r = cuFuncGetAttribute(&v, (CUfunction_attribute)a, f);
		line("func", a, r, v);
	}
	static const int blocks[] = { 32, 64, 128, 256, 512, 1024 };
	static const size_t smem[] = { 0, 16384, 49152 };
	for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
		for (size_t s = 0; s < sizeof smem / sizeof *smem; s++) {
			int n = 0;
			r = cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, blocks[b], smem[s]);
			line("occupancy", blocks[b] * 1000000 + (int)smem[s], r, n);
		}
	cuModuleUnload(m);
	cuDevicePrimaryCtxRelease(dev);
	return 0;
}
