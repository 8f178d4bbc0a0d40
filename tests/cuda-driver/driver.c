/* driver.c: the driver API of build/lib/libcuda.so.1, through NVIDIA's
 * cuda.h alone: devices, contexts, modules from PTX, every synchronous copy
 * and fill against a reference made here, launches, errors, sticky faults
 * and cuGetProcAddress.  Prints "cuda-driver: N passed, M failed". */
/* texture and surface references are deprecated, and tested */
#define CUDA_ENABLE_DEPRECATED
#include <cuda.h>
#include <cudaProfiler.h>

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond, ...) do { \
	if (cond) passed++; \
	else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
} while (0)
#define EXPECT(call, want) do { \
	CUresult r_ = (call); \
	const char *n_ = NULL; cuGetErrorName(r_, &n_); \
	CHECK(r_ == (want), "%s returned %d (%s), want %d", #call, (int)r_, n_ ? n_ : "?", (int)(want)); \
} while (0)
#define OK(call) EXPECT(call, CUDA_SUCCESS)

static const char ptx[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".global .u32 counter = 7;\n"
	".extern .shared .align 4 .b8 dynsh[];\n"
	".visible .entry add(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
	"{\n"
	"	.reg .pred %p;\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	.reg .f32 %f<4>;\n"
	"	ld.param.u64 %rd1, [a];\n"
	"	ld.param.u64 %rd2, [b];\n"
	"	ld.param.u64 %rd3, [c];\n"
	"	ld.param.u32 %r1, [n];\n"
	"	mov.u32 %r2, %ctaid.x;\n"
	"	mov.u32 %r3, %ntid.x;\n"
	"	mov.u32 %r4, %tid.x;\n"
	"	mad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"	setp.ge.u32 %p, %r5, %r1;\n"
	"	@%p bra done;\n"
	"	mul.wide.u32 %rd4, %r5, 4;\n"
	"	add.s64 %rd5, %rd1, %rd4;\n"
	"	add.s64 %rd6, %rd2, %rd4;\n"
	"	add.s64 %rd7, %rd3, %rd4;\n"
	"	ld.global.f32 %f1, [%rd5];\n"
	"	ld.global.f32 %f2, [%rd6];\n"
	"	add.f32 %f3, %f1, %f2;\n"
	"	st.global.f32 [%rd7], %f3;\n"
	"done:\n"
	"	ret;\n"
	"}\n"
	".visible .entry bump()\n"
	"{\n"
	"	.reg .b32 %r<2>;\n"
	"	atom.global.add.u32 %r1, [counter], 1;\n"
	"	ret;\n"
	"}\n"
	".visible .entry dyn(.param .u64 out, .param .u32 at)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	ld.param.u32 %r1, [at];\n"
	"	mov.u32 %r4, dynsh;\n"
	"	add.u32 %r5, %r4, %r1;\n"
	"	mov.u32 %r2, 0x5eed;\n"
	"	st.shared.u32 [%r5], %r2;\n"
	"	ld.shared.u32 %r3, [%r5];\n"
	"	st.global.u32 [%rd1], %r3;\n"
	"	ret;\n"
	"}\n"
	".visible .entry fault(.param .u64 p)\n"
	"{\n"
	"	.reg .b32 %r1;\n"
	"	.reg .b64 %rd1;\n"
	"	ld.param.u64 %rd1, [p];\n"
	"	mov.u32 %r1, 1;\n"
	"	st.global.u32 [%rd1], %r1;\n"
	"	ret;\n"
	"}\n";

static void devices(void)
{
	int v = 0, n = 0;
	OK(cuDriverGetVersion(&v));
	CHECK(v == 13000, "driver version %d", v);
	OK(cuDeviceGetCount(&n));
	CHECK(n == 1, "%d devices", n);
	CUdevice d;
	OK(cuDeviceGet(&d, 0));
	EXPECT(cuDeviceGet(&d, 1), CUDA_ERROR_INVALID_DEVICE);
	char name[64] = "";
	OK(cuDeviceGetName(name, sizeof name, 0));
	CHECK(!strcmp(name, "ptxvm"), "name '%s'", name);
	int major = 0, minor = -1;
	OK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
	OK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
	CHECK(major == 9 && minor == 0, "compute capability %d.%d", major, minor);
	OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
	CHECK(v == 32, "warp size %d", v);
	OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0));
	CHECK(v == 232448, "opt-in shared memory %d", v);
	OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0));
	CHECK(v == 1024, "threads per block %d", v);
	int bad = 0;
	for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++)
		bad += cuDeviceGetAttribute(&v, (CUdevice_attribute)a, 0) != CUDA_SUCCESS;
	CHECK(bad == 0, "%d attributes below CU_DEVICE_ATTRIBUTE_MAX refused", bad);
	EXPECT(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, 0), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 3), CUDA_ERROR_INVALID_DEVICE);
	CUuuid u;
	memset(&u, 0, sizeof u);
	OK(cuDeviceGetUuid(&u, 0));
	CHECK(!memcmp(u.bytes, "ptxvm", 5), "uuid");
	size_t mem = 0;
	OK(cuDeviceTotalMem(&mem, 0));
	CHECK(mem > (1u << 20), "total memory %zu", mem);
}

static void contexts(CUcontext *primary)
{
	CUcontext c = NULL, cur = NULL, popped = NULL;
	EXPECT(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
	/* the profiler's range needs a context; no profiler attached, it does nothing */
	EXPECT(cuProfilerStart(), CUDA_ERROR_INVALID_CONTEXT);
	EXPECT(cuProfilerStop(), CUDA_ERROR_INVALID_CONTEXT);
	OK(cuCtxCreate(&c, NULL, 0, 0));
	OK(cuProfilerStart());
	OK(cuProfilerStart());
	OK(cuProfilerStop());
	OK(cuProfilerStop());
	OK(cuCtxGetCurrent(&cur));
	CHECK(cur == c, "a created context is current");
	/* the runtime's tools TLS table: slot 2 answers the current context
	 * (cuBLASLt keys its kernels by it; a NULL slot crashed cublasCreate) */
	static const CUuuid tools_tls = { { 0x42, (char)0xd8, 0x5a, (char)0x81, 0x23, (char)0xf6, (char)0xcb, 0x47,
					    (char)0x82, (char)0x98, (char)0xf6, (char)0xe7, (char)0x8a, 0x3a,
					    (char)0xec, (char)0xdc } };
	const void *const *tls = NULL;
	OK(cuGetExportTable((const void **)&tls, &tools_tls));
	CHECK(tls && (uintptr_t)tls[0] >= 3 * sizeof(void *) && tls[2], "the tools TLS table has slot 2");
	CUresult (*tls_current)(CUcontext *) = tls && tls[2] ? (CUresult (*)(CUcontext *))(uintptr_t)tls[2] : NULL;
	if (tls_current) {
		cur = NULL;
		OK(tls_current(&cur));
		CHECK(cur == c, "tools TLS slot 2 gives the current context");
	}
	OK(cuDevicePrimaryCtxRetain(primary, 0));
	OK(cuCtxPushCurrent(*primary));
	OK(cuCtxGetCurrent(&cur));
	CHECK(cur == *primary, "the pushed context is current");
	if (tls_current) {
		cur = NULL;
		OK(tls_current(&cur));
		CHECK(cur == *primary, "tools TLS slot 2 gives the pushed context");
	}
	OK(cuCtxPopCurrent(&popped));
	CHECK(popped == *primary, "pop gives the pushed context");
	OK(cuCtxGetCurrent(&cur));
	CHECK(cur == c, "pop makes the one below current");
	OK(cuCtxDestroy(c));
	EXPECT(cuCtxPushCurrent(c), CUDA_ERROR_INVALID_CONTEXT);
	unsigned flags;
	int active = 0;
	OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
	CHECK(active == 1, "the primary context is active");
	OK(cuCtxSetCurrent(*primary));
	CUdevice d = -1;
	OK(cuCtxGetDevice(&d));
	CHECK(d == 0, "device %d", d);
	size_t fifo = 0;
	OK(cuCtxGetLimit(&fifo, CU_LIMIT_PRINTF_FIFO_SIZE));
	CHECK(fifo == 8650752, "printf FIFO %zu", fifo);
	/* the malloc heap: 8 MiB unless set, settable before its first use */
	size_t heap = 0;
	OK(cuCtxGetLimit(&heap, CU_LIMIT_MALLOC_HEAP_SIZE));
	CHECK(heap == 8 << 20, "malloc heap %zu", heap);
	OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1 << 20));
	OK(cuCtxGetLimit(&heap, CU_LIMIT_MALLOC_HEAP_SIZE));
	CHECK(heap == 1 << 20, "malloc heap after setting 1 MiB: %zu", heap);
	OK(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 8 << 20));
	/* the other limits, as an H200 answers them (tests/hw/golden/h200.attrs.txt) */
	size_t v = 0;
	OK(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
	CHECK(v == 2048, "pending device launches %zu", v);
	OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 4096));     /* cdpAdvancedQuicksort's */
	OK(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
	CHECK(v == 4096, "pending device launches after setting 4096: %zu", v);
	OK(cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 2048));
	OK(cuCtxGetLimit(&v, CU_LIMIT_SHMEM_SIZE));
	CHECK(v == 232448, "CU_LIMIT_SHMEM_SIZE %zu", v);
	EXPECT(cuCtxSetLimit(CU_LIMIT_SHMEM_SIZE, 1024), CUDA_ERROR_INVALID_VALUE);
	OK(cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 128));
	OK(cuCtxGetLimit(&v, CU_LIMIT_MAX_L2_FETCH_GRANULARITY));
	CHECK(v == 128, "L2 fetch granularity %zu after setting 128", v);
	EXPECT(cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 96), CUDA_ERROR_INVALID_VALUE);
	OK(cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 64));
	EXPECT(cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH), CUDA_ERROR_UNSUPPORTED_LIMIT);
}

/* A reference for 2D/3D copies: bytes as the box rule has them. */
static void ref3d(unsigned char *dst, size_t dpitch, size_t dheight, size_t dx, size_t dy, size_t dz,
		  const unsigned char *src, size_t spitch, size_t sheight, size_t sx, size_t sy, size_t sz, size_t w,
		  size_t h, size_t depth)
{
	for (size_t z = 0; z < depth; z++)
		for (size_t y = 0; y < h; y++)
			for (size_t x = 0; x < w; x++)
				dst[((dz + z) * dheight + dy + y) * dpitch + dx + x] =
					src[((sz + z) * sheight + sy + y) * spitch + sx + x];
}

static void copies(void)
{
	enum { N = 4096 };
	unsigned char *h = malloc(N), *back = malloc(N), *want = malloc(N);
	for (int i = 0; i < N; i++)
		h[i] = (unsigned char)(i * 7 + 3);
	CUdeviceptr a, b;
	OK(cuMemAlloc(&a, N));
	OK(cuMemAlloc(&b, N));
	OK(cuMemcpyHtoD(a, h, N));
	OK(cuMemcpyDtoD(b, a, N));
	memset(back, 0, N);
	OK(cuMemcpyDtoH(back, b, N));
	CHECK(!memcmp(back, h, N), "HtoD, DtoD, DtoH round trip");
	/* unified: host and device addresses told apart */
	memset(back, 0, N);
	OK(cuMemcpy((CUdeviceptr)(uintptr_t)back, a + 100, 200));
	CHECK(!memcmp(back, h + 100, 200), "cuMemcpy device to host");
	OK(cuMemcpy(b, (CUdeviceptr)(uintptr_t)(h + 1000), 16));
	OK(cuMemcpyDtoH(back, b, 16));
	CHECK(!memcmp(back, h + 1000, 16), "cuMemcpy host to device");
	EXPECT(cuMemcpyHtoD(a + N - 4, h, 8), CUDA_ERROR_INVALID_VALUE);
	CUdeviceptr base = 0;
	size_t size = 0;
	OK(cuMemGetAddressRange(&base, &size, a + 17));
	CHECK(base == a && size == N, "address range of a+17: 0x%llx, %zu", (unsigned long long)base, size);
	/* fills */
	OK(cuMemsetD8(a, 0xab, N));
	OK(cuMemsetD16(a + 2, 0x1234, 3));
	OK(cuMemsetD32(a + 16, 0xdeadbeef, 2));
	memset(want, 0xab, N);
	for (int i = 0; i < 3; i++)
		memcpy(want + 2 + 2 * i, &(unsigned short){ 0x1234 }, 2);
	for (int i = 0; i < 2; i++)
		memcpy(want + 16 + 4 * i, &(unsigned){ 0xdeadbeef }, 4);
	OK(cuMemcpyDtoH(back, a, N));
	CHECK(!memcmp(back, want, N), "memset D8, D16, D32");
	EXPECT(cuMemsetD32(a + 1, 0, 1), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemsetD2D8(a, 64, 0x11, 10, 3));
	OK(cuMemsetD2D16(a + 256, 64, 0x2233, 5, 2));
	OK(cuMemsetD2D32(a + 512, 64, 0x44556677, 3, 4));
	for (int y = 0; y < 3; y++)
		memset(want + y * 64, 0x11, 10);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 5; x++)
			memcpy(want + 256 + y * 64 + 2 * x, &(unsigned short){ 0x2233 }, 2);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 3; x++)
			memcpy(want + 512 + y * 64 + 4 * x, &(unsigned){ 0x44556677 }, 4);
	OK(cuMemcpyDtoH(back, a, N));
	CHECK(!memcmp(back, want, N), "memset 2D D8, D16, D32");
	/* 2D: host (pitch 100) to device (pitch 64), a 20x7 box at offsets */
	OK(cuMemsetD8(b, 0, N));
	CUDA_MEMCPY2D c2 = { 0 };
	c2.srcMemoryType = CU_MEMORYTYPE_HOST;
	c2.srcHost = h;
	c2.srcPitch = 100;
	c2.srcXInBytes = 3;
	c2.srcY = 2;
	c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c2.dstDevice = b;
	c2.dstPitch = 64;
	c2.dstXInBytes = 5;
	c2.dstY = 1;
	c2.WidthInBytes = 20;
	c2.Height = 7;
	OK(cuMemcpy2D(&c2));
	memset(want, 0, N);
	ref3d(want, 64, 0, 5, 1, 0, h, 100, 0, 3, 2, 0, 20, 7, 1);
	OK(cuMemcpyDtoH(back, b, N));
	CHECK(!memcmp(back, want, N), "cuMemcpy2D host to device");
	/* device to host through unified addressing, unaligned form */
	CUDA_MEMCPY2D u2 = { 0 };
	u2.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	u2.srcDevice = b;
	u2.srcPitch = 64;
	u2.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	u2.dstDevice = (CUdeviceptr)(uintptr_t)back;
	u2.dstPitch = 32;
	u2.WidthInBytes = 32;
	u2.Height = 8;
	memset(back, 0, N);
	OK(cuMemcpy2DUnaligned(&u2));
	memset(want, 0, N);
	unsigned char *dev = malloc(N);
	OK(cuMemcpyDtoH(dev, b, N));
	ref3d(want, 32, 0, 0, 0, 0, dev, 64, 0, 0, 0, 0, 32, 8, 1);
	CHECK(!memcmp(back, want, N), "cuMemcpy2DUnaligned unified");
	c2.dstPitch = 10;
	EXPECT(cuMemcpy2D(&c2), CUDA_ERROR_INVALID_VALUE);
	/* 3D: a 6x3x4 box from a 16x8x8 host volume to a 12x5x5 device one */
	CUDA_MEMCPY3D c3;
	memset(&c3, 0, sizeof c3);
	c3.srcMemoryType = CU_MEMORYTYPE_HOST;
	c3.srcHost = h;
	c3.srcPitch = 16;
	c3.srcHeight = 8;
	c3.srcXInBytes = 1;
	c3.srcY = 2;
	c3.srcZ = 3;
	c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c3.dstDevice = a;
	c3.dstPitch = 12;
	c3.dstHeight = 5;
	c3.dstXInBytes = 4;
	c3.dstY = 1;
	c3.dstZ = 1;
	c3.WidthInBytes = 6;
	c3.Height = 3;
	c3.Depth = 4;
	OK(cuMemsetD8(a, 0, N));
	OK(cuMemcpy3D(&c3));
	memset(want, 0, N);
	ref3d(want, 12, 5, 4, 1, 1, h, 16, 8, 1, 2, 3, 6, 3, 4);
	OK(cuMemcpyDtoH(back, a, N));
	CHECK(!memcmp(back, want, N), "cuMemcpy3D host to device");
	c3.Depth = 100;
	EXPECT(cuMemcpy3D(&c3), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemFree(a));
	OK(cuMemFree(b));
	EXPECT(cuMemFree(a), CUDA_ERROR_INVALID_VALUE);
	free(h);
	free(back);
	free(want);
	free(dev);
}

/* Arrays: a 2D array written and read through cuMemcpy2D, a 1D one
 * through HtoA/AtoH, the 3D kinds and their descriptors. */
static void arrays(void)
{
	enum { W = 13, H = 5 };
	float src[H][W], back[H][W + 3];
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			src[y][x] = (float)(y * 100 + x);
	CUDA_ARRAY_DESCRIPTOR ad = { W, H, CU_AD_FORMAT_FLOAT, 1 };
	CUarray a;
	OK(cuArrayCreate(&a, &ad));
	CUDA_MEMCPY2D c = { 0 };
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = sizeof src[0];
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = sizeof src[0];
	c.Height = H;
	OK(cuMemcpy2D(&c));
	memset(back, 0, sizeof back);
	CUDA_MEMCPY2D r = { 0 };
	r.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	r.srcArray = a;
	r.srcXInBytes = 4 * sizeof(float);
	r.srcY = 1;
	r.dstMemoryType = CU_MEMORYTYPE_HOST;
	r.dstHost = back;
	r.dstPitch = sizeof back[0];
	r.WidthInBytes = 6 * sizeof(float);
	r.Height = 3;
	OK(cuMemcpy2D(&r));
	int bad = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W + 3; x++)
			bad += back[y][x] != (y < 3 && x < 6 ? src[y + 1][x + 4] : 0.0f);
	CHECK(bad == 0, "2D array round trip: %d wrong", bad);
	CUDA_ARRAY_DESCRIPTOR got;
	OK(cuArrayGetDescriptor(&got, a));
	CHECK(got.Width == W && got.Height == H && got.Format == CU_AD_FORMAT_FLOAT && got.NumChannels == 1,
	      "array descriptor");
	OK(cuArrayDestroy(a));
	EXPECT(cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
	unsigned short line[64], line2[64];
	for (int i = 0; i < 64; i++)
		line[i] = (unsigned short)(i * 1000);
	CUDA_ARRAY_DESCRIPTOR ad1 = { 64, 0, CU_AD_FORMAT_UNSIGNED_INT16, 1 };
	OK(cuArrayCreate(&a, &ad1));
	OK(cuMemcpyHtoA(a, 0, line, sizeof line));
	memset(line2, 0, sizeof line2);
	OK(cuMemcpyAtoH(line2, a, 20, 40));
	CHECK(!memcmp(line2, line + 10, 40), "1D array HtoA, AtoH at an offset");
	EXPECT(cuMemcpyHtoA(a, 100, line, sizeof line), CUDA_ERROR_INVALID_VALUE);
	OK(cuArrayDestroy(a));
	CUDA_ARRAY3D_DESCRIPTOR d3 = { 8, 8, 12, CU_AD_FORMAT_UNSIGNED_INT8, 4,
				       CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST };
	OK(cuArray3DCreate(&a, &d3));
	CUDA_ARRAY3D_DESCRIPTOR g3;
	OK(cuArray3DGetDescriptor(&g3, a));
	CHECK(g3.Width == 8 && g3.Height == 8 && g3.Depth == 12 && g3.Format == d3.Format && g3.NumChannels == 4 &&
	      g3.Flags == d3.Flags, "3D descriptor of a layered cubemap");
	CUDA_RESOURCE_DESC rd;
	memset(&rd, 0, sizeof rd);
	rd.resType = CU_RESOURCE_TYPE_ARRAY;
	rd.res.array.hArray = a;
	CUsurfObject so;
	OK(cuSurfObjectCreate(&so, &rd));
	OK(cuSurfObjectDestroy(so));
	OK(cuArrayDestroy(a));
	d3.Depth = 7;
	EXPECT(cuArray3DCreate(&a, &d3), CUDA_ERROR_INVALID_VALUE);
}

static void modules(void)
{
	/* lazy, CUDA's default, unless CUDA_MODULE_LOADING=EAGER */
	CUmoduleLoadingMode mode = 0;
	OK(cuModuleGetLoadingMode(&mode));
	const char *env = getenv("CUDA_MODULE_LOADING");
	CHECK(mode == (env && strcmp(env, "EAGER") == 0 ? CU_MODULE_EAGER_LOADING : CU_MODULE_LAZY_LOADING),
	      "loading mode %d", (int)mode);
	CUmodule m;
	OK(cuModuleLoadData(&m, ptx));
	CUfunction add, bump, dyn, none;
	OK(cuModuleGetFunction(&add, m, "add"));
	OK(cuModuleGetFunction(&bump, m, "bump"));
	OK(cuModuleGetFunction(&dyn, m, "dyn"));
	EXPECT(cuModuleGetFunction(&none, m, "nope"), CUDA_ERROR_NOT_FOUND);
	int v = 0;
	OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, add));
	CHECK(v == 1024, "max threads per block %d", v);
	/* vector add, with kernelParams and then with the packed buffer */
	enum { N = 1000 };
	float x[N], y[N], z[N];
	for (int i = 0; i < N; i++) {
		x[i] = (float)i * 0.5f;
		y[i] = (float)(N - i);
	}
	CUdeviceptr dx, dy, dz;
	OK(cuMemAlloc(&dx, sizeof x));
	OK(cuMemAlloc(&dy, sizeof y));
	OK(cuMemAlloc(&dz, sizeof z));
	OK(cuMemcpyHtoD(dx, x, sizeof x));
	OK(cuMemcpyHtoD(dy, y, sizeof y));
	unsigned n = N;
	void *args[] = { &dx, &dy, &dz, &n };
	OK(cuLaunchKernel(add, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
	OK(cuCtxSynchronize());
	OK(cuMemcpyDtoH(z, dz, sizeof z));
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += z[i] != x[i] + y[i];
	CHECK(bad == 0, "vector add: %d wrong", bad);
	struct { CUdeviceptr a, b, c; unsigned n; } packed = { dy, dy, dz, N };
	size_t psize = sizeof packed;
	void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &psize,
			  CU_LAUNCH_PARAM_END };
	OK(cuLaunchKernel(add, 8, 1, 1, 128, 1, 1, 0, NULL, NULL, extra));
	OK(cuMemcpyDtoH(z, dz, sizeof z));
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += z[i] != y[i] + y[i];
	CHECK(bad == 0, "vector add through extra: %d wrong", bad);
	/* a block or grid too large: CUDA_ERROR_INVALID_VALUE, as on an H200 */
	EXPECT(cuLaunchKernel(add, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuLaunchKernel(add, 1, 70000, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_INVALID_VALUE);
	/* a module variable */
	CUdeviceptr counter;
	size_t bytes = 0;
	OK(cuModuleGetGlobal(&counter, &bytes, m, "counter"));
	CHECK(bytes == 4, "counter is %zu bytes", bytes);
	OK(cuLaunchKernel(bump, 3, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL));
	unsigned cv = 0;
	OK(cuMemcpyDtoH(&cv, counter, 4));
	CHECK(cv == 7 + 192, "counter %u", cv);
	/* dynamic shared memory past 48 KiB needs the opt-in */
	unsigned at = 60000, got = 0;
	void *dargs[] = { &dz, &at };
	EXPECT(cuLaunchKernel(dyn, 1, 1, 1, 1, 1, 1, 64 << 10, NULL, dargs, NULL), CUDA_ERROR_INVALID_VALUE);
	OK(cuFuncSetAttribute(dyn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 << 10));
	OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dyn));
	CHECK(v == 64 << 10, "max dynamic shared %d", v);
	OK(cuLaunchKernel(dyn, 1, 1, 1, 1, 1, 1, 64 << 10, NULL, dargs, NULL));
	OK(cuMemcpyDtoH(&got, dz, 4));
	CHECK(got == 0x5eed, "dynamic shared memory read back 0x%x", got);
	EXPECT(cuFuncSetAttribute(dyn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1 << 20),
	       CUDA_ERROR_INVALID_VALUE);
	/* the attribute bounds every launch, also below 48 KiB */
	OK(cuFuncSetAttribute(dyn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024));
	EXPECT(cuLaunchKernel(dyn, 1, 1, 1, 1, 1, 1, 2048, NULL, dargs, NULL), CUDA_ERROR_INVALID_VALUE);
	OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, dyn));
	CHECK(v == -1, "carveout %d before any is set", v);
	OK(cuFuncSetAttribute(dyn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 25));
	OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, dyn));
	CHECK(v == 25, "carveout %d after setting 25", v);
	EXPECT(cuFuncSetAttribute(dyn, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 2), CUDA_ERROR_NOT_SUPPORTED);
	EXPECT(cuFuncGetAttribute(&v, (CUfunction_attribute)99, dyn), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemFree(dx));
	OK(cuMemFree(dy));
	OK(cuMemFree(dz));
	OK(cuModuleUnload(m));
	EXPECT(cuModuleGetFunction(&none, m, "add"), CUDA_ERROR_INVALID_HANDLE);
	/* bad PTX: CUDA_ERROR_INVALID_PTX, the diagnostics in the error log */
	char log[512] = "";
	CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *val[] = { log, (void *)(uintptr_t)sizeof log };
	EXPECT(cuModuleLoadDataEx(&m, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { frob; }\n",
				  2, opt, val), CUDA_ERROR_INVALID_PTX);
	CHECK(strstr(log, "error") != NULL, "error log: '%s'", log);
	/* PTX ISA 9.1 and 9.2 load, as CUDA 13.2's driver takes them (NVIDIA's
	   libraries ship 9.2; ptxas 13.0 and `ptxvm check` refuse them); 9.3 not */
	static const char v92[] = ".version 9.2\n.target sm_90\n.address_size 64\n"
				  ".visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n"
				  "\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], 92;\n\tret;\n}\n";
	OK(cuModuleLoadData(&m, v92));
	CUfunction k92;
	CUdeviceptr d92;
	unsigned got92 = 0;
	OK(cuModuleGetFunction(&k92, m, "k"));
	OK(cuMemAlloc(&d92, 4));
	void *a92[] = { &d92 };
	OK(cuLaunchKernel(k92, 1, 1, 1, 1, 1, 1, 0, NULL, a92, NULL));
	OK(cuMemcpyDtoH(&got92, d92, 4));
	CHECK(got92 == 92, "a PTX ISA 9.2 kernel ran: %u", got92);
	OK(cuMemFree(d92));
	OK(cuModuleUnload(m));
	char v93[sizeof v92];
	memcpy(v93, v92, sizeof v92);
	v93[11] = '3';
	log[0] = 0;
	EXPECT(cuModuleLoadDataEx(&m, v93, 2, opt, val), CUDA_ERROR_INVALID_PTX);
	CHECK(strstr(log, "unsupported PTX ISA .version 9.3 (the newest is 9.2)") != NULL, "error log: '%s'", log);
	EXPECT(cuModuleLoad(&m, "/nonexistent/x.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
	/* the same module from a file: cuModuleLoad and cuLinkAddFile read it whole */
	char path[] = "/tmp/ptxvm-driver-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, ptx, sizeof ptx - 1) == (ssize_t)(sizeof ptx - 1), "a temporary PTX file");
	if (fd >= 0)
		close(fd);
	OK(cuModuleLoad(&m, path));
	OK(cuModuleGetFunction(&none, m, "add"));
	OK(cuModuleUnload(m));
	CUlinkState l;
	void *img;
	size_t imgsz;
	OK(cuLinkCreate(0, NULL, NULL, &l));
	OK(cuLinkAddFile(l, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
	OK(cuLinkComplete(l, &img, &imgsz));
	CHECK(imgsz == strlen(img) + 1, "cuLinkComplete: the size of the PTX, %zu bytes", imgsz);
	OK(cuModuleLoadData(&m, img));
	OK(cuModuleGetFunction(&none, m, "add"));
	OK(cuModuleUnload(m));
	OK(cuLinkDestroy(l));
	unlink(path);
}

/* Streams, events, callbacks, host and managed memory, async copies,
 * cuLaunchKernelEx and occupancy. */
static int callbacks;
static void host_fn(void *data) { callbacks += *(int *)data; }

static void streams(void)
{
	CUstream s;
	CUevent e0, e1, nt;
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	unsigned flags = 0;
	OK(cuStreamGetFlags(s, &flags));
	CHECK(flags == CU_STREAM_NON_BLOCKING, "stream flags %u", flags);
	OK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
	OK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
	OK(cuEventCreate(&nt, CU_EVENT_DISABLE_TIMING));
	enum { N = 4096 };
	int *pinned = NULL;
	OK(cuMemHostAlloc((void **)&pinned, N * sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP));
	for (int i = 0; i < N; i++)
		pinned[i] = i * 3;
	CUdeviceptr dp = 0, d;
	OK(cuMemHostGetDevicePointer(&dp, pinned, 0));
	CHECK(dp == (CUdeviceptr)(uintptr_t)pinned, "a mapped pointer is its own device pointer");
	OK(cuMemAllocAsync(&d, N * sizeof(int), s));
	OK(cuEventRecord(e0, s));
	OK(cuMemcpyAsync(d, dp, N * sizeof(int), s));        /* through the mapping */
	OK(cuMemsetD32Async(dp, 0, N, s));
	int k = 5;
	OK(cuLaunchHostFunc(s, host_fn, &k));
	OK(cuStreamWaitEvent(s, e0, 0));
	OK(cuMemcpyDtoHAsync(pinned, d + 8, 16, s));
	OK(cuEventRecord(e1, s));
	OK(cuStreamSynchronize(s));
	OK(cuStreamQuery(s));
	OK(cuEventQuery(e1));
	CHECK(pinned[0] == 6 && pinned[3] == 15 && pinned[4] == 0, "async copies through mapped memory: %d %d %d",
	      pinned[0], pinned[3], pinned[4]);
	CHECK(callbacks == 5, "the host function ran (%d)", callbacks);
	float ms = -1;
	OK(cuEventElapsedTime(&ms, e0, e1));
	CHECK(ms >= 0 && ms < 60000, "elapsed %f ms", ms);
	EXPECT(cuEventElapsedTime(&ms, e0, nt), CUDA_ERROR_INVALID_HANDLE);
	unsigned hf = 0;
	OK(cuMemHostGetFlags(&hf, pinned));
	CHECK(hf & CU_MEMHOSTALLOC_DEVICEMAP, "host flags 0x%x", hf);
	CUmemorytype mt = 0;
	OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dp));
	CHECK(mt == CU_MEMORYTYPE_HOST, "pinned memory's type %d", (int)mt);
	OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
	CHECK(mt == CU_MEMORYTYPE_DEVICE, "device memory's type %d", (int)mt);
	OK(cuMemFreeAsync(d, s));
	OK(cuMemFreeHost(pinned));
	EXPECT(cuMemFreeHost(pinned), CUDA_ERROR_INVALID_VALUE);
	/* managed memory: one pointer, written by the host and read by a copy */
	CUdeviceptr m;
	OK(cuMemAllocManaged(&m, 64, CU_MEM_ATTACH_GLOBAL));
	memset((void *)(uintptr_t)m, 0x5a, 64);
	unsigned char got[64];
	OK(cuMemcpyDtoH(got, m + 0, 64));
	CHECK(got[0] == 0x5a && got[63] == 0x5a, "managed memory seen by a device copy");
	int managed = 0;
	OK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m));
	CHECK(managed == 1, "managed attribute");
	/* its hints move nothing and check their arguments as CUDA documents them */
	CUmemLocation dev0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 }, host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
	CUmemLocation dev1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 }, none = { CU_MEM_LOCATION_TYPE_INVALID, 0 };
	OK(cuMemPrefetchAsync(m, 64, dev0, 0, s));
	OK(cuMemPrefetchAsync(m + 16, 16, host, 0, s));
	OK(cuMemPrefetchAsync(m, 64, (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 7 }, 0, NULL));
	EXPECT(cuMemPrefetchAsync(m, 64, dev1, 0, s), CUDA_ERROR_INVALID_DEVICE);
	EXPECT(cuMemPrefetchAsync(m, 64, none, 0, s), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemPrefetchAsync(m, 64, dev0, 1, s), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemPrefetchAsync(m, 0, dev0, 0, s), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemPrefetchAsync(m, (size_t)1 << 30, dev0, 0, s), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemPrefetchAsync(m, 64, dev0, 0, (CUstream)(uintptr_t)0x7777), CUDA_ERROR_INVALID_HANDLE);
	CUdeviceptr plain;
	OK(cuMemAlloc(&plain, 64));
	fprintf(stderr, "(a message on prefetching device memory is expected on stderr)\n");
	EXPECT(cuMemPrefetchAsync(plain, 64, dev0, 0, s), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemAdvise(m, 64, CU_MEM_ADVISE_SET_READ_MOSTLY, none));
	OK(cuMemAdvise(m, 64, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0));
	OK(cuMemAdvise(m, 32, CU_MEM_ADVISE_SET_ACCESSED_BY, host));
	OK(cuMemAdvise(m, 64, CU_MEM_ADVISE_UNSET_ACCESSED_BY, host));
	EXPECT(cuMemAdvise(m, 64, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev1), CUDA_ERROR_INVALID_DEVICE);
	EXPECT(cuMemAdvise(m, 64, (CUmem_advise)7, dev0), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemAdvise(m, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, dev0), CUDA_ERROR_INVALID_VALUE);
	OK(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_SINGLE));
	OK(cuStreamAttachMemAsync(s, m, 64, CU_MEM_ATTACH_HOST));
	OK(cuStreamAttachMemAsync(NULL, m, 0, CU_MEM_ATTACH_GLOBAL));
	EXPECT(cuStreamAttachMemAsync(NULL, m, 0, CU_MEM_ATTACH_SINGLE), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuStreamAttachMemAsync(s, m, 32, CU_MEM_ATTACH_GLOBAL), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuStreamAttachMemAsync(s, m + 16, 0, CU_MEM_ATTACH_GLOBAL), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_GLOBAL | CU_MEM_ATTACH_HOST), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemcpyDtoH(got, m + 0, 64));
	CHECK(got[0] == 0x5a && got[63] == 0x5a, "managed memory unchanged by its hints");
	OK(cuMemFree(plain));
	OK(cuMemFree(m));
	/* registered memory */
	static int reg[256];
	OK(cuMemHostRegister(reg, sizeof reg, CU_MEMHOSTREGISTER_DEVICEMAP));
	EXPECT(cuMemHostRegister(reg, sizeof reg, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	OK(cuMemsetD32((CUdeviceptr)(uintptr_t)reg, 77, 256));
	CHECK(reg[0] == 77 && reg[255] == 77, "registered memory filled by the device");
	OK(cuMemHostUnregister(reg));
	EXPECT(cuMemHostUnregister(reg), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
	OK(cuEventDestroy(e0));
	EXPECT(cuEventRecord(e0, s), CUDA_ERROR_INVALID_HANDLE);
	OK(cuEventDestroy(e1));
	OK(cuEventDestroy(nt));
	OK(cuStreamDestroy(s));
	EXPECT(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
}

/* Graph memory nodes: allocation and free nodes made node by node and by
 * capture, their parameters, CUDA's rules for a graph's allocations (the
 * error codes an H200 gives), and the device's graph memory attributes. */
static CUDA_MEM_ALLOC_NODE_PARAMS alloc_params(size_t bytes)
{
	CUDA_MEM_ALLOC_NODE_PARAMS p;
	memset(&p, 0, sizeof p);
	p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.poolProps.location.id = 0;
	p.bytesize = bytes;
	return p;
}

static void graph_memory(void)
{
	enum { N = 256 };
	static unsigned out[N];
	CUstream s;
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CUgraph g, other;
	CUgraphNode alloc, fill, copy, release, extra;
	OK(cuGraphCreate(&g, 0));
	CUDA_MEM_ALLOC_NODE_PARAMS p = alloc_params(N * 4);
	OK(cuGraphAddMemAllocNode(&alloc, g, NULL, 0, &p));
	CUdeviceptr a = p.dptr;
	CHECK(a != 0 && a % 256 == 0, "an allocation node's address %#llx", (unsigned long long)a);
	CUDA_MEMSET_NODE_PARAMS mp;
	memset(&mp, 0, sizeof mp);
	mp.dst = a;
	mp.value = 0xc0ffee;
	mp.elementSize = 4;
	mp.width = N;
	mp.height = 1;
	CUcontext ctx;
	OK(cuCtxGetCurrent(&ctx));
	OK(cuGraphAddMemsetNode(&fill, g, &alloc, 1, &mp, ctx));
	CUDA_MEMCPY3D cp;
	memset(&cp, 0, sizeof cp);
	cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	cp.srcDevice = a;
	cp.dstMemoryType = CU_MEMORYTYPE_HOST;
	cp.dstHost = out;
	cp.WidthInBytes = N * 4;
	cp.Height = cp.Depth = 1;
	OK(cuGraphAddMemcpyNode(&copy, g, &fill, 1, &cp, ctx));
	OK(cuGraphAddMemFreeNode(&release, g, &copy, 1, a));
	EXPECT(cuGraphAddMemFreeNode(&extra, g, &release, 1, a), CUDA_ERROR_INVALID_VALUE);      /* twice */
	EXPECT(cuGraphAddMemFreeNode(&extra, g, NULL, 0, a + 4), CUDA_ERROR_INVALID_VALUE);     /* not an allocation's */
	CUgraphNodeType t1 = CU_GRAPH_NODE_TYPE_EMPTY, t2 = CU_GRAPH_NODE_TYPE_EMPTY;
	OK(cuGraphNodeGetType(alloc, &t1));
	OK(cuGraphNodeGetType(release, &t2));
	CHECK(t1 == CU_GRAPH_NODE_TYPE_MEM_ALLOC && t2 == CU_GRAPH_NODE_TYPE_MEM_FREE, "memory node types %d %d",
	      (int)t1, (int)t2);
	CUDA_MEM_ALLOC_NODE_PARAMS got;
	memset(&got, 0xff, sizeof got);
	OK(cuGraphMemAllocNodeGetParams(alloc, &got));
	CHECK(got.dptr == a && got.bytesize == N * 4 && got.poolProps.allocType == CU_MEM_ALLOCATION_TYPE_PINNED &&
	      got.poolProps.location.type == CU_MEM_LOCATION_TYPE_DEVICE && got.accessDescCount == 0,
	      "an allocation node's parameters");
	CUdeviceptr fp = 0;
	OK(cuGraphMemFreeNodeGetParams(release, &fp));
	CHECK(fp == a, "a free node's address");
	EXPECT(cuGraphMemAllocNodeGetParams(release, &got), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphMemFreeNodeGetParams(alloc, &fp), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuMemFree(a), CUDA_ERROR_INVALID_VALUE);         /* its graph frees it */
	CUgraphExec x, x2;
	OK(cuGraphInstantiate(&x, g, 0));
	EXPECT(cuGraphInstantiate(&x2, g, 0), CUDA_ERROR_NOT_SUPPORTED);        /* one at a time */
	for (int round = 0; round < 2; round++) {
		memset(out, 0, sizeof out);
		OK(cuGraphLaunch(x, s));
		OK(cuStreamSynchronize(s));
		CHECK(out[0] == 0xc0ffee && out[N - 1] == 0xc0ffee, "launch %d of a graph that allocates: %#x %#x",
		      round, out[0], out[N - 1]);
	}
	cuuint64_t used = 0, high = 0;
	OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &used));
	OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &high));
	CHECK(used >= N * 4 && high >= used, "graph memory in use after a launch: %llu, high %llu",
	      (unsigned long long)used, (unsigned long long)high);
	OK(cuGraphExecDestroy(x));
	OK(cuGraphInstantiate(&x, g, 0));
	OK(cuGraphExecDestroy(x));

	/* another graph frees an allocation its own graph does not */
	OK(cuGraphCreate(&other, 0));
	CUgraph keep;
	OK(cuGraphCreate(&keep, 0));
	p = alloc_params(64);
	OK(cuGraphAddMemAllocNode(&alloc, keep, NULL, 0, &p));
	CUdeviceptr k = p.dptr;
	OK(cuGraphAddMemFreeNode(&extra, other, NULL, 0, k));
	EXPECT(cuGraphAddMemFreeNode(&extra, keep, &alloc, 1, k), CUDA_ERROR_INVALID_VALUE);
	CUgraphExec xk, xo;
	OK(cuGraphInstantiate(&xk, keep, 0));
	OK(cuGraphInstantiate(&xo, other, 0));
	EXPECT(cuGraphLaunch(xo, s), CUDA_ERROR_INVALID_VALUE);         /* nothing allocated yet */
	OK(cuGraphLaunch(xk, s));
	OK(cuMemsetD8(k, 9, 64));                                       /* live after its graph */
	EXPECT(cuGraphLaunch(xk, s), CUDA_ERROR_INVALID_VALUE);         /* not freed */
	OK(cuGraphLaunch(xo, s));
	OK(cuGraphLaunch(xk, s));
	OK(cuMemFreeAsync(k, s));
	EXPECT(cuMemFree(k), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphExecDestroy(xk));
	cuuint64_t flags = 0;
	OK(cuGraphInstantiate(&xk, keep, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
	OK(cuGraphExecGetFlags(xk, &flags));
	CHECK(flags == CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH, "flags %llu", (unsigned long long)flags);
	OK(cuGraphLaunch(xk, s));
	OK(cuGraphLaunch(xk, s));
	OK(cuGraphExecDestroy(xk));
	OK(cuGraphDestroy(keep));
	OK(cuMemsetD8(k, 1, 64));                                       /* still live */
	OK(cuGraphExecDestroy(xo));
	OK(cuGraphDestroy(other));
	OK(cuMemFree(k));

	/* parameters that are refused */
	EXPECT(cuGraphAddMemAllocNode(&extra, g, NULL, 0, NULL), CUDA_ERROR_INVALID_VALUE);
	p = alloc_params(0);
	EXPECT(cuGraphAddMemAllocNode(&extra, g, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
	p = alloc_params(64);
	p.poolProps.location.id = 3;
	EXPECT(cuGraphAddMemAllocNode(&extra, g, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
	p = alloc_params(64);
	p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
	EXPECT(cuGraphAddMemAllocNode(&extra, g, NULL, 0, &p), CUDA_ERROR_INVALID_VALUE);
	p = alloc_params(64);
	p.poolProps.location.type = CU_MEM_LOCATION_TYPE_HOST;
	EXPECT(cuGraphAddMemAllocNode(&extra, g, NULL, 0, &p), CUDA_ERROR_NOT_SUPPORTED);
	p = alloc_params(64);
	p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	EXPECT(cuGraphAddMemAllocNode(&extra, g, NULL, 0, &p), CUDA_ERROR_NOT_SUPPORTED);
	CUmemAccessDesc ad;
	memset(&ad, 0, sizeof ad);
	ad.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	ad.location.id = 0;
	ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	p = alloc_params(64);
	p.accessDescs = &ad;
	p.accessDescCount = 1;
	EXPECT(cuGraphAddMemAllocNode(&extra, g, NULL, 0, &p), CUDA_ERROR_NOT_SUPPORTED);
	ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	OK(cuGraphAddMemAllocNode(&extra, g, NULL, 0, &p));
	OK(cuGraphMemAllocNodeGetParams(extra, &got));
	CHECK(got.accessDescCount == 1 && got.accessDescs && got.accessDescs->flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	      "an allocation node's access list");
	OK(cuGraphDestroy(g));

	/* by capture: cuMemAllocAsync and cuMemFreeAsync become memory nodes */
	CUdeviceptr c = 0;
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(cuMemAllocAsync(&c, N * 4, s));
	OK(cuMemsetD32Async(c, 77, N, s));
	OK(cuMemcpyDtoHAsync(out, c, N * 4, s));
	OK(cuMemFreeAsync(c, s));
	EXPECT(cuMemFreeAsync(c, s), CUDA_ERROR_INVALID_VALUE);        /* the capture goes on */
	EXPECT(cuStreamEndCapture(s, NULL), CUDA_ERROR_INVALID_VALUE); /* the graph made needs a place */
	OK(cuStreamEndCapture(s, &g));
	size_t n = 0;
	OK(cuGraphGetNodes(g, NULL, &n));
	CHECK(n == 4, "the capture has 4 nodes (%zu)", n);
	memset(out, 0, sizeof out);
	OK(cuGraphInstantiate(&x, g, 0));
	OK(cuGraphLaunch(x, s));
	OK(cuStreamSynchronize(s));
	CHECK(out[0] == 77 && out[N - 1] == 77, "the captured allocation was filled and copied: %u %u", out[0],
	      out[N - 1]);
	OK(cuGraphExecDestroy(x));
	OK(cuGraphDestroy(g));

	/* a capture that fails takes its allocations with it */
	cuuint64_t before = 0, after = 1;
	OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &before));
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(cuMemAllocAsync(&c, 1 << 20, s));
	EXPECT(cuStreamSynchronize(s), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	EXPECT(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &after));
	CHECK(after == before, "graph memory in use before a failed capture (%llu) and after (%llu)",
	      (unsigned long long)before, (unsigned long long)after);

	/* the device's attributes */
	OK(cuDeviceGraphMemTrim(0));
	OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &used));
	CHECK(used == 0, "no graph memory in use once the graphs are gone and trimmed (%llu)", (unsigned long long)used);
	cuuint64_t zero = 0, one = 1;
	EXPECT(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &one), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &zero), CUDA_ERROR_INVALID_VALUE);
	OK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
	OK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &zero));
	OK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &high));
	CHECK(high == 0, "the reserved high-water mark after a reset (%llu)", (unsigned long long)high);
	EXPECT(cuDeviceGetGraphMemAttribute(1, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &used), CUDA_ERROR_INVALID_DEVICE);
	EXPECT(cuDeviceGraphMemTrim(1), CUDA_ERROR_INVALID_DEVICE);
	OK(cuStreamDestroy(s));
}

/* Instantiation for device launch refuses, with CUDA_ERROR_INVALID_VALUE,
 * what the programming guide's "Device Graph Requirements" exclude:
 * graphs with no node, or with nodes other than kernels, copies and
 * fills; copies of host memory the device does not reach; and the flag
 * with AUTO_FREE_ON_LAUNCH.  What it takes runs from the host. */
static CUresult one_node(int kind, CUdeviceptr d, void *host, CUgraphExec *x, unsigned long long flags)
{
	CUgraph g;
	CUgraphNode n;
	CUcontext ctx;
	OK(cuCtxGetCurrent(&ctx));
	OK(cuGraphCreate(&g, 0));
	CUDA_MEMCPY3D cp;
	memset(&cp, 0, sizeof cp);
	cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	cp.srcDevice = d;
	cp.dstMemoryType = CU_MEMORYTYPE_HOST;
	cp.dstHost = host;
	cp.WidthInBytes = 64;
	cp.Height = cp.Depth = 1;
	CUDA_MEMSET_NODE_PARAMS mp;
	memset(&mp, 0, sizeof mp);
	mp.dst = d;
	mp.value = 0x5a;
	mp.elementSize = 1;
	mp.width = 64;
	mp.height = 1;
	CUDA_HOST_NODE_PARAMS hp = { host_fn, &(int){ 0 } };
	CUDA_MEM_ALLOC_NODE_PARAMS ap = alloc_params(64);
	switch (kind) {
	case 0: break;                                                          /* no node */
	case 1: OK(cuGraphAddMemsetNode(&n, g, NULL, 0, &mp, ctx)); break;
	case 2: OK(cuGraphAddMemcpyNode(&n, g, NULL, 0, &cp, ctx)); break;
	case 3: OK(cuGraphAddHostNode(&n, g, NULL, 0, &hp)); break;
	case 4: OK(cuGraphAddEmptyNode(&n, g, NULL, 0)); break;
	case 6: OK(cuGraphAddMemAllocNode(&n, g, NULL, 0, &ap)); break;
	}
	CUresult r = cuGraphInstantiateWithFlags(x, g, flags);
	if (kind != 6)  /* a graph's allocation stays until its graph is freed: keep it */
		OK(cuGraphDestroy(g));
	return r;
}

static void device_graphs(void)
{
	enum { DL = CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH, AF = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH };
	CUstream s;
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CUdeviceptr d;
	OK(cuMemAlloc(&d, 64));
	unsigned char *pinned = NULL, pageable[64];
	OK(cuMemHostAlloc((void **)&pinned, 64, CU_MEMHOSTALLOC_DEVICEMAP));
	CUgraphExec x;
	EXPECT(one_node(0, d, pinned, &x, DL), CUDA_ERROR_INVALID_VALUE);      /* no node */
	EXPECT(one_node(2, d, pageable, &x, DL), CUDA_ERROR_INVALID_VALUE);    /* pageable host memory */
	EXPECT(one_node(3, d, pinned, &x, DL), CUDA_ERROR_INVALID_VALUE);      /* a host node */
	EXPECT(one_node(4, d, pinned, &x, DL), CUDA_ERROR_INVALID_VALUE);      /* an empty node */
	EXPECT(one_node(6, d, pinned, &x, DL), CUDA_ERROR_INVALID_VALUE);      /* a memory node */
	EXPECT(one_node(1, d, pinned, &x, DL | AF), CUDA_ERROR_INVALID_VALUE); /* both flags */
	/* a fill, then a copy into mapped host memory: valid, and they run */
	OK(one_node(1, d, pinned, &x, DL));
	cuuint64_t flags = 0;
	OK(cuGraphExecGetFlags(x, &flags));
	CHECK(flags == DL, "a device graph's flags: %llu", (unsigned long long)flags);
	OK(cuGraphUpload(x, s));
	OK(cuGraphLaunch(x, s));
	OK(cuGraphExecDestroy(x));
	EXPECT(cuGraphUpload(x, s), CUDA_ERROR_INVALID_VALUE);                  /* destroyed */
	OK(one_node(2, d, pinned, &x, DL));
	memset(pinned, 0, 64);
	OK(cuGraphLaunch(x, s));        /* uploads it */
	OK(cuStreamSynchronize(s));
	CHECK(pinned[0] == 0x5a && pinned[63] == 0x5a, "a device graph launched from the host: %#x %#x", pinned[0],
	      pinned[63]);
	OK(cuGraphExecDestroy(x));
	/* cuGraphInstantiateWithParams, uploading to a stream */
	CUgraph g;
	CUgraphNode n;
	CUcontext ctx;
	OK(cuCtxGetCurrent(&ctx));
	OK(cuGraphCreate(&g, 0));
	CUDA_MEMSET_NODE_PARAMS mp;
	memset(&mp, 0, sizeof mp);
	mp.dst = d;
	mp.elementSize = 4;
	mp.width = 16;
	mp.height = 1;
	OK(cuGraphAddMemsetNode(&n, g, NULL, 0, &mp, ctx));
	CUDA_GRAPH_INSTANTIATE_PARAMS ip;
	memset(&ip, 0, sizeof ip);
	ip.flags = DL | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
	ip.hUploadStream = s;
	OK(cuGraphInstantiateWithParams(&x, g, &ip));
	CHECK(ip.result_out == CUDA_GRAPH_INSTANTIATE_SUCCESS, "instantiate result %d", (int)ip.result_out);
	OK(cuGraphExecGetFlags(x, &flags));
	CHECK(flags == DL, "flags after cuGraphInstantiateWithParams: %llu", (unsigned long long)flags);
	OK(cuGraphExecDestroy(x));
	ip.flags = DL | AF;
	EXPECT(cuGraphInstantiateWithParams(&x, g, &ip), CUDA_ERROR_INVALID_VALUE);
	CHECK(ip.result_out == CUDA_GRAPH_INSTANTIATE_ERROR, "instantiate result %d", (int)ip.result_out);
	OK(cuGraphDestroy(g));
	OK(cuMemFreeHost(pinned));
	OK(cuMemFree(d));
	OK(cuStreamDestroy(s));
}

/* Child graph nodes: the child is copied when its node is made (later
 * changes to it do not reach the parent, changes to the node's own graph
 * do), runs in its place in every launch and in clones of the parent;
 * memory nodes are refused in a child, as CUDA does; a device graph may
 * hold child graphs of its own kinds of nodes.  bump adds 1 to counter per
 * thread: the count after the launches is the bumps the graphs hold. */
static unsigned read_counter(CUdeviceptr counter)
{
	unsigned v = 0;
	OK(cuMemcpyDtoH(&v, counter, 4));
	return v;
}

static void child_graphs(void)
{
	CUmodule m;
	CUfunction bump;
	CUdeviceptr counter, d;
	size_t bytes;
	CUcontext ctx;
	CUstream s;
	OK(cuCtxGetCurrent(&ctx));
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&bump, m, "bump"));
	OK(cuModuleGetGlobal(&counter, &bytes, m, "counter"));
	OK(cuMemAlloc(&d, 64));
	CUDA_KERNEL_NODE_PARAMS kp;
	memset(&kp, 0, sizeof kp);
	kp.func = bump;
	kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
	kp.blockDimX = 4, kp.blockDimY = kp.blockDimZ = 1;       /* 4 a launch */
	CUDA_MEMSET_NODE_PARAMS mp;
	memset(&mp, 0, sizeof mp);
	mp.dst = d;
	mp.value = 0x11223344;
	mp.elementSize = 4;
	mp.width = 16;
	mp.height = 1;
	CUgraph child, parent, own, other;
	CUgraphNode a, b, x, y, e, extra;
	OK(cuGraphCreate(&child, 0));
	OK(cuGraphAddMemsetNode(&a, child, NULL, 0, &mp, ctx));
	OK(cuGraphAddKernelNode(&b, child, &a, 1, &kp));
	OK(cuGraphCreate(&parent, 0));
	OK(cuGraphAddChildGraphNode(&x, parent, NULL, 0, child));
	OK(cuGraphAddChildGraphNode(&y, parent, &x, 1, child));
	OK(cuGraphAddEmptyNode(&e, parent, &y, 1));
	OK(cuGraphAddKernelNode(&extra, child, &b, 1, &kp));    /* after: not in the parent */
	CUgraphNodeType t = CU_GRAPH_NODE_TYPE_EMPTY;
	OK(cuGraphNodeGetType(x, &t));
	CHECK(t == CU_GRAPH_NODE_TYPE_GRAPH, "a child graph node's type: %d", (int)t);
	OK(cuGraphChildGraphNodeGetGraph(x, &own));
	CHECK(own != child, "a child graph node holds the graph it was given, not a copy");
	size_t n = 0;
	OK(cuGraphGetNodes(own, NULL, &n));
	CHECK(n == 2, "the node's graph has %zu nodes, want the 2 the child had when the node was made", n);
	OK(cuGraphAddKernelNode(&extra, own, NULL, 0, &kp));    /* the node's own graph: in the parent */
	EXPECT(cuGraphDestroy(own), CUDA_ERROR_INVALID_VALUE);  /* it goes with its node */
	EXPECT(cuGraphChildGraphNodeGetGraph(e, &other), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphAddChildGraphNode(&extra, parent, NULL, 0, NULL), CUDA_ERROR_INVALID_VALUE);
	/* x: 2 bumps, y: 1 bump */
	CUgraphExec xp, xc;
	OK(cuGraphInstantiate(&xp, parent, 0));
	OK(cuMemsetD8(d, 0, 64));
	unsigned before = read_counter(counter);
	OK(cuGraphLaunch(xp, s));
	OK(cuGraphLaunch(xp, s));
	OK(cuStreamSynchronize(s));
	unsigned after = read_counter(counter);
	CHECK(after - before == 2 * 3 * 4, "two launches of a parent of 3 bumps by 4 threads: counter +%u", after - before);
	unsigned host[16];
	OK(cuMemcpyDtoH(host, d, sizeof host));
	CHECK(host[0] == 0x11223344 && host[15] == 0x11223344, "a child's fill: %#x %#x", host[0], host[15]);
	/* a clone runs the same, and outlives the original */
	CUgraph copy;
	OK(cuGraphClone(&copy, parent));
	OK(cuGraphGetNodes(copy, NULL, &n));
	CHECK(n == 3, "a clone of 3 nodes has %zu", n);
	CUgraphNode roots[3] = { 0 };
	size_t nr = 3;
	OK(cuGraphGetRootNodes(copy, roots, &nr));
	CHECK(nr == 1 && roots[0] != x, "a clone's roots: %zu, its own nodes", nr);
	OK(cuGraphExecDestroy(xp));
	OK(cuGraphDestroy(parent));
	OK(cuGraphInstantiate(&xc, copy, 0));
	before = read_counter(counter);
	OK(cuGraphLaunch(xc, s));
	OK(cuStreamSynchronize(s));
	after = read_counter(counter);
	CHECK(after - before == 3 * 4, "a clone's launch: counter +%u, want 12", after - before);
	OK(cuGraphExecDestroy(xc));
	OK(cuGraphDestroy(copy));
	/* cuGraphAddNode: copied as cuGraphAddChildGraphNode does; moving is not supported */
	CUgraphNodeParams np;
	memset(&np, 0, sizeof np);
	np.type = CU_GRAPH_NODE_TYPE_GRAPH;
	np.graph.graph = child;
	OK(cuGraphCreate(&parent, 0));
	OK(cuGraphAddNode(&x, parent, NULL, NULL, 0, &np));
	np.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE;
	EXPECT(cuGraphAddNode(&y, parent, NULL, NULL, 0, &np), CUDA_ERROR_NOT_SUPPORTED);
	OK(cuGraphInstantiate(&xp, parent, 0));
	before = read_counter(counter);
	OK(cuGraphLaunch(xp, s));
	OK(cuStreamSynchronize(s));
	CHECK(read_counter(counter) - before == 2 * 4, "a child of 2 bumps, added by cuGraphAddNode: +%u",
	      read_counter(counter) - before);
	OK(cuGraphExecDestroy(xp));
	/* launched from the device: children of kernels and fills are allowed, an empty node is not */
	OK(cuGraphInstantiateWithFlags(&xp, parent, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH));
	OK(cuGraphLaunch(xp, s));
	OK(cuStreamSynchronize(s));
	OK(cuGraphExecDestroy(xp));
	OK(cuGraphAddEmptyNode(&e, child, NULL, 0));
	OK(cuGraphAddChildGraphNode(&y, parent, &x, 1, child));
	EXPECT(cuGraphInstantiateWithFlags(&xp, parent, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH),
	       CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphDestroy(parent));
	/* memory nodes: not in a child graph; a child within a child is copied whole */
	CUDA_MEM_ALLOC_NODE_PARAMS ap = alloc_params(64);
	CUgraph mem, outer;
	OK(cuGraphCreate(&mem, 0));
	OK(cuGraphAddMemAllocNode(&a, mem, NULL, 0, &ap));
	OK(cuGraphCreate(&parent, 0));
	EXPECT(cuGraphAddChildGraphNode(&x, parent, NULL, 0, mem), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphGetNodes(parent, NULL, &n));
	CHECK(n == 0, "a refused child graph node was added (%zu nodes)", n);
	OK(cuGraphCreate(&outer, 0));
	OK(cuGraphAddChildGraphNode(&x, outer, NULL, 0, child));
	OK(cuGraphAddChildGraphNode(&y, parent, NULL, 0, outer));
	OK(cuGraphInstantiate(&xp, parent, 0));
	before = read_counter(counter);
	OK(cuGraphLaunch(xp, s));
	OK(cuStreamSynchronize(s));
	CHECK(read_counter(counter) - before == 2 * 4, "a child of a child of 2 bumps: +%u",
	      read_counter(counter) - before);
	OK(cuGraphExecDestroy(xp));
	OK(cuGraphDestroy(outer));
	OK(cuGraphDestroy(parent));
	OK(cuGraphDestroy(mem));
	OK(cuGraphDestroy(child));
	OK(cuMemFree(d));
	OK(cuModuleUnload(m));
	OK(cuStreamDestroy(s));
}

/* Conditional nodes, their values set by kernels as nvcc compiles
 * cudaGraphSetConditional (an .extern .func of the device runtime). */
static const char cond_ptx[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".extern .func cudaGraphSetConditional\n"
	"(\n"
	"	.param .b64 cudaGraphSetConditional_param_0,\n"
	"	.param .b32 cudaGraphSetConditional_param_1\n"
	")\n"
	";\n"
	/* countdown(h, p): thread 0 takes 1 from p[0], adds 1 to p[1] and sets
	 * h to whether p[0] is still above 0 */
	".visible .entry countdown(.param .u64 h, .param .u64 p)\n"
	"{\n"
	"	.reg .pred %q;\n"
	"	.reg .b32 %r<5>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	setp.ne.u32 %q, %r1, 0;\n"
	"	@%q bra done;\n"
	"	ld.param.u64 %rd1, [h];\n"
	"	ld.param.u64 %rd2, [p];\n"
	"	ld.global.u32 %r2, [%rd2];\n"
	"	sub.u32 %r2, %r2, 1;\n"
	"	st.global.u32 [%rd2], %r2;\n"
	"	ld.global.u32 %r3, [%rd2+4];\n"
	"	add.u32 %r3, %r3, 1;\n"
	"	st.global.u32 [%rd2+4], %r3;\n"
	"	setp.ne.u32 %q, %r2, 0;\n"
	"	selp.u32 %r4, 1, 0, %q;\n"
	"	{ // callseq 0, 0\n"
	"	.param .b64 param0;\n"
	"	st.param.b64 [param0+0], %rd1;\n"
	"	.param .b32 param1;\n"
	"	st.param.b32 [param1+0], %r4;\n"
	"	call.uni \n"
	"	cudaGraphSetConditional, \n"
	"	(\n"
	"	param0, \n"
	"	param1\n"
	"	);\n"
	"	} // callseq 0\n"
	"done:\n"
	"	ret;\n"
	"}\n"
	/* setv(h, v): sets h to v */
	".visible .entry setv(.param .u64 h, .param .u32 v)\n"
	"{\n"
	"	.reg .b32 %r1;\n"
	"	.reg .b64 %rd1;\n"
	"	ld.param.u64 %rd1, [h];\n"
	"	ld.param.u32 %r1, [v];\n"
	"	{\n"
	"	.param .b64 param0;\n"
	"	st.param.b64 [param0+0], %rd1;\n"
	"	.param .b32 param1;\n"
	"	st.param.b32 [param1+0], %r1;\n"
	"	call.uni cudaGraphSetConditional, (param0, param1);\n"
	"	}\n"
	"	ret;\n"
	"}\n"
	/* mark(p, i): p[i] += 1 */
	".visible .entry mark(.param .u64 p, .param .u32 i)\n"
	"{\n"
	"	.reg .b32 %r<3>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [p];\n"
	"	ld.param.u32 %r1, [i];\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	atom.global.add.u32 %r2, [%rd3], 1;\n"
	"	ret;\n"
	"}\n";

static CUfunction cond_countdown, cond_setv, cond_mark;

/* A kernel node of one thread, its parameters a (u64) and b (u32 or u64) */
static CUresult cond_kernel(CUgraphNode *out, CUgraph g, const CUgraphNode *dep, CUfunction f, void *a, void *b)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	memset(&kp, 0, sizeof kp);
	void *params[] = { a, b };
	kp.func = f;
	kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
	kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
	kp.kernelParams = params;
	return cuGraphAddKernelNode(out, g, dep, dep ? 1 : 0, &kp);
}

/* A conditional node of g after dep; *body gets the array of its bodies'
 * graphs, which the node owns. */
static CUresult cond_node(CUgraphNode *out, CUgraph g, const CUgraphNode *dep, CUgraphConditionalHandle h,
			  CUgraphConditionalNodeType type, unsigned size, CUgraph **body)
{
	CUgraphNodeParams np;
	memset(&np, 0, sizeof np);
	np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	np.conditional.handle = h;
	np.conditional.type = type;
	np.conditional.size = size;
	OK(cuCtxGetCurrent(&np.conditional.ctx));
	CUresult r = cuGraphAddNode(out, g, dep, NULL, dep ? 1 : 0, &np);
	*body = np.conditional.phGraph_out;
	return r;
}

/* Launches x once on s; the 8 words at d afterwards into w. */
static CUresult cond_launch(CUgraphExec x, CUstream s, CUdeviceptr d, unsigned *w)
{
	CUresult r = cuGraphLaunch(x, s);
	CUresult q = cuStreamSynchronize(s);
	if (!r)
		r = q;
	OK(cuMemcpyDtoH(w, d, 8 * sizeof *w));
	return r;
}

static void conditional_nodes(void)
{
	CUmodule m;
	CUstream s;
	CUcontext ctx;
	CUdeviceptr d;
	OK(cuCtxGetCurrent(&ctx));
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	/* relocatable code, linked as nvcc -rdc=true code is (the device
	 * runtime's functions are ptxvm's) */
	CUlinkState l;
	void *img;
	size_t sz;
	OK(cuLinkCreate(0, NULL, NULL, &l));
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)cond_ptx, sizeof cond_ptx, "cond.ptx", 0, NULL, NULL));
	OK(cuLinkComplete(l, &img, &sz));
	OK(cuModuleLoadData(&m, img));
	OK(cuLinkDestroy(l));
	OK(cuModuleGetFunction(&cond_countdown, m, "countdown"));
	OK(cuModuleGetFunction(&cond_setv, m, "setv"));
	OK(cuModuleGetFunction(&cond_mark, m, "mark"));
	OK(cuMemAlloc(&d, 64));
	unsigned w[8], zero[8] = { 0 };
	CUgraph g, *body, *inner;
	CUgraphNode n, k, e;
	CUgraphExec x;
	CUgraphConditionalHandle h, h2;

	/* WHILE: the body counts p[0] down to 0; its turns are p[0]'s start */
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
	OK(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body));
	CUgraphNodeType t = CU_GRAPH_NODE_TYPE_EMPTY;
	OK(cuGraphNodeGetType(n, &t));
	CHECK(t == CU_GRAPH_NODE_TYPE_CONDITIONAL, "a conditional node's type: %d", (int)t);
	OK(cond_kernel(&k, body[0], NULL, cond_countdown, &h, &d));
	OK(cuGraphInstantiate(&x, g, 0));
	unsigned starts[] = { 5, 1, 37 };
	for (int i = 0; i < 3; i++) {
		unsigned p[2] = { starts[i], 0 };
		OK(cuMemcpyHtoD(d, p, sizeof p));
		OK(cond_launch(x, s, d, w));
		CHECK(w[0] == 0 && w[1] == starts[i], "a WHILE loop counting %u down: %u left after %u turns",
		      starts[i], w[0], w[1]);
	}
	OK(cuGraphExecDestroy(x));
	OK(cuGraphDestroy(g));

	/* without CU_GRAPH_COND_ASSIGN_DEFAULT the value stays from the last
	 * launch (ptxvm's choice, docs/EXECUTION.md): the second runs no turn */
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphConditionalHandleCreate(&h, g, ctx, 1, 0));
	OK(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body));
	OK(cond_kernel(&k, body[0], NULL, cond_countdown, &h, &d));
	OK(cuGraphInstantiate(&x, g, 0));
	unsigned p3[2] = { 3, 0 };
	OK(cuMemcpyHtoD(d, p3, sizeof p3));
	OK(cond_launch(x, s, d, w));
	CHECK(w[0] == 0 && w[1] == 3, "a WHILE loop of 3: %u left, %u turns", w[0], w[1]);
	OK(cuMemcpyHtoD(d, p3, sizeof p3));
	OK(cond_launch(x, s, d, w));
	CHECK(w[0] == 3 && w[1] == 0, "relaunched, the value 0 kept: %u left, %u turns", w[0], w[1]);
	OK(cuGraphExecDestroy(x));
	OK(cuGraphDestroy(g));

	/* a body filled by capture (cuStreamBeginCaptureToGraph), after a node
	 * of its own: 4 turns, each filling and counting down */
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
	OK(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body));
	OK(cuGraphAddEmptyNode(&e, body[0], NULL, 0));
	EXPECT(cuStreamBeginCaptureToGraph(s, body[0], &n, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE);     /* a node of another graph */
	OK(cuStreamBeginCaptureToGraph(s, body[0], &e, NULL, 1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(cuMemsetD32Async(d + 8, 0x77, 1, s));
	void *cargs[] = { &h, &d };
	OK(cuLaunchKernel(cond_countdown, 1, 1, 1, 1, 1, 1, 0, s, cargs, NULL));
	/* the graph captured into needs no answer (NVIDIA's graphConditionalNodes
	   ends such captures with a NULL graph pointer) */
	OK(cuStreamEndCapture(s, NULL));
	CUgraph captured = NULL;
	EXPECT(cuStreamEndCapture(s, &captured), CUDA_ERROR_ILLEGAL_STATE);     /* it has ended */
	size_t nb = 0;
	OK(cuGraphGetNodes(body[0], NULL, &nb));
	CHECK(nb == 3, "a body of an empty node and 2 captured: %zu nodes", nb);
	OK(cuGraphInstantiate(&x, g, 0));
	unsigned p4[3] = { 4, 0, 0 };
	OK(cuMemcpyHtoD(d, p4, sizeof p4));
	OK(cond_launch(x, s, d, w));
	CHECK(w[0] == 0 && w[1] == 4 && w[2] == 0x77, "a captured WHILE body of 4 turns: %u left, %u turns, %#x",
	      w[0], w[1], w[2]);
	OK(cuGraphExecDestroy(x));
	OK(cuGraphDestroy(g));

	/* IF with an else body: a kernel before the node sets the value; a
	 * handle's default decides where no kernel sets it */
	for (unsigned v = 0; v < 3; v++) {
		OK(cuGraphCreate(&g, 0));
		OK(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
		unsigned idx0 = 0, idx1 = 1;
		CUgraphNode *dep = NULL;
		if (v < 2) {            /* v 2: no setter, the default 1 */
			OK(cond_kernel(&k, g, NULL, cond_setv, &h, &v));
			dep = &k;
		}
		OK(cond_node(&n, g, dep, h, CU_GRAPH_COND_TYPE_IF, 2, &body));
		OK(cond_kernel(&e, body[0], NULL, cond_mark, &d, &idx0));
		OK(cond_kernel(&e, body[1], NULL, cond_mark, &d, &idx1));
		OK(cuGraphInstantiate(&x, g, 0));
		OK(cuMemcpyHtoD(d, zero, sizeof zero));
		OK(cond_launch(x, s, d, w));
		unsigned want0 = v != 0;
		CHECK(w[0] == want0 && w[1] == !want0, "IF/else with the value %s: then %u, else %u",
		      v == 2 ? "by default 1" : v ? "set to 1" : "set to 0", w[0], w[1]);
		OK(cuGraphExecDestroy(x));
		OK(cuGraphDestroy(g));
	}

	/* SWITCH of 3 bodies: body[v] for v below 3, none for 3 and above;
	 * body 2 holds a child graph and a nested IF on a second handle made
	 * for the outer graph */
	for (unsigned v = 0; v < 5; v++) {
		OK(cuGraphCreate(&g, 0));
		OK(cuGraphConditionalHandleCreate(&h, g, ctx, 0, CU_GRAPH_COND_ASSIGN_DEFAULT));
		OK(cuGraphConditionalHandleCreate(&h2, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
		OK(cond_kernel(&k, g, NULL, cond_setv, &h, &v));
		OK(cond_node(&n, g, &k, h, CU_GRAPH_COND_TYPE_SWITCH, 3, &body));
		unsigned idx[4] = { 0, 1, 2, 3 };
		OK(cond_kernel(&e, body[0], NULL, cond_mark, &d, &idx[0]));
		OK(cond_kernel(&e, body[1], NULL, cond_mark, &d, &idx[1]));
		CUgraph child;
		OK(cuGraphCreate(&child, 0));
		OK(cond_kernel(&e, child, NULL, cond_mark, &d, &idx[2]));
		OK(cuGraphAddChildGraphNode(&e, body[2], NULL, 0, child));
		OK(cond_node(&e, body[2], &e, h2, CU_GRAPH_COND_TYPE_IF, 1, &inner));
		OK(cond_kernel(&e, inner[0], NULL, cond_mark, &d, &idx[3]));
		OK(cuGraphDestroy(child));
		OK(cuGraphInstantiate(&x, g, 0));
		OK(cuMemcpyHtoD(d, zero, sizeof zero));
		OK(cond_launch(x, s, d, w));
		CHECK(w[0] == (v == 0) && w[1] == (v == 1) && w[2] == (v == 2) && w[3] == (v == 2),
		      "SWITCH on %u: bodies ran %u %u %u, nested IF %u", v, w[0], w[1], w[2], w[3]);
		OK(cuGraphExecDestroy(x));
		OK(cuGraphDestroy(g));
	}

	/* refused */
	OK(cuGraphCreate(&g, 0));
	CUgraph other;
	OK(cuGraphCreate(&other, 0));
	OK(cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
	OK(cuGraphConditionalHandleCreate(&h2, other, ctx, 0, 0));
	EXPECT(cuGraphConditionalHandleCreate(&h2, other, ctx, 0, 2), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_WHILE, 2, &body), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_IF, 3, &body), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_SWITCH, 0, &body), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cond_node(&n, g, NULL, h, (CUgraphConditionalNodeType)3, 1, &body), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cond_node(&n, g, NULL, h2, CU_GRAPH_COND_TYPE_IF, 1, &body), CUDA_ERROR_INVALID_VALUE);  /* another graph's */
	EXPECT(cond_node(&n, g, NULL, 12345, CU_GRAPH_COND_TYPE_IF, 1, &body), CUDA_ERROR_INVALID_VALUE);
	size_t nn = 9;
	OK(cuGraphGetNodes(g, NULL, &nn));
	CHECK(nn == 0, "refused conditional nodes were added: %zu nodes", nn);
	OK(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_IF, 1, &body));
	EXPECT(cuGraphDestroy(body[0]), CUDA_ERROR_INVALID_VALUE);      /* its node's */
	CUgraphNode c;
	EXPECT(cuGraphAddChildGraphNode(&c, other, NULL, 0, g), CUDA_ERROR_INVALID_VALUE);
	CUgraph copy;
	EXPECT(cuGraphClone(&copy, g), CUDA_ERROR_NOT_SUPPORTED);
	EXPECT(cuGraphInstantiateWithFlags(&x, g, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH), CUDA_ERROR_INVALID_VALUE);
	CUDA_HOST_NODE_PARAMS hp = { host_fn, &(int){ 0 } };
	OK(cuGraphAddHostNode(&e, body[0], NULL, 0, &hp));
	EXPECT(cuGraphInstantiate(&x, g, 0), CUDA_ERROR_INVALID_VALUE);        /* a body holds kernels, copies... */
	OK(cuGraphDestroy(g));
	OK(cuGraphDestroy(other));
	/* a WHILE whose body cannot change its value would never end */
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
	OK(cond_node(&n, g, NULL, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body));
	OK(cuGraphAddEmptyNode(&e, body[0], NULL, 0));
	OK(cuGraphInstantiate(&x, g, 0));
	EXPECT(cuGraphLaunch(x, s), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphExecDestroy(x));
	OK(cuGraphDestroy(g));
	OK(cuStreamSynchronize(s));
	OK(cuMemFree(d));
	OK(cuModuleUnload(m));
	OK(cuStreamDestroy(s));
}

/* Device-updatable kernel nodes, the host's side: the attribute gives a
 * handle and cannot be taken back; such a graph is instantiated once at a
 * time and is not copied (tests/cuda-host/device_updates.cu: the updates). */
static void device_updatable(void)
{
	CUmodule m;
	CUfunction bump;
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&bump, m, "bump"));
	CUDA_KERNEL_NODE_PARAMS kp;
	memset(&kp, 0, sizeof kp);
	kp.func = bump;
	kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
	kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
	CUgraph g, other, copy;
	CUgraphNode k, e, c;
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddKernelNode(&k, g, NULL, 0, &kp));
	OK(cuGraphAddEmptyNode(&e, g, NULL, 0));
	CUkernelNodeAttrValue v, got;
	memset(&v, 0, sizeof v);
	memset(&got, 0, sizeof got);
	OK(cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &got));
	CHECK(!got.deviceUpdatableKernelNode.deviceUpdatable && !got.deviceUpdatableKernelNode.devNode,
	      "a kernel node is not device-updatable at first");
	OK(cuGraphCreate(&other, 0));
	OK(cuGraphAddChildGraphNode(&c, other, NULL, 0, g));   /* a copy, before the attribute */
	v.deviceUpdatableKernelNode.deviceUpdatable = 2;
	EXPECT(cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v),
	       CUDA_ERROR_INVALID_VALUE);
	v.deviceUpdatableKernelNode.deviceUpdatable = 1;
	EXPECT(cuGraphKernelNodeSetAttribute(e, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v),
	       CUDA_ERROR_INVALID_VALUE);     /* no kernel node */
	OK(cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v));
	OK(cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &got));
	CHECK(got.deviceUpdatableKernelNode.deviceUpdatable == 1 && got.deviceUpdatableKernelNode.devNode,
	      "a device-updatable node's handle");
	CUgraphDeviceNode dn = got.deviceUpdatableKernelNode.devNode;
	OK(cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v));
	OK(cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &got));
	CHECK(got.deviceUpdatableKernelNode.devNode == dn, "setting the attribute again keeps the handle");
	v.deviceUpdatableKernelNode.deviceUpdatable = 0;
	EXPECT(cuGraphKernelNodeSetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, &v),
	       CUDA_ERROR_INVALID_VALUE);     /* no way back */
	EXPECT(cuGraphKernelNodeGetAttribute(k, CU_KERNEL_NODE_ATTRIBUTE_PRIORITY, &got), CUDA_ERROR_NOT_SUPPORTED);
	EXPECT(cuGraphClone(&copy, g), CUDA_ERROR_NOT_SUPPORTED);
	EXPECT(cuGraphAddChildGraphNode(&c, other, NULL, 0, g), CUDA_ERROR_NOT_SUPPORTED);
	CUgraphExec x, x2;
	OK(cuGraphInstantiate(&x, g, 0));
	EXPECT(cuGraphInstantiate(&x2, g, 0), CUDA_ERROR_NOT_SUPPORTED);
	OK(cuGraphLaunch(x, NULL));
	OK(cuGraphExecDestroy(x));
	OK(cuGraphInstantiate(&x, g, 0));               /* once the other is gone */
	OK(cuGraphExecDestroy(x));
	OK(cuCtxSynchronize());
	OK(cuGraphDestroy(other));
	OK(cuGraphDestroy(g));
	OK(cuModuleUnload(m));
}

/* Node parameters read and changed in a graph and in an executable graph,
 * and cuGraphExecUpdate, as CUDA documents them; the sums the kernel
 * `add` writes are computed here. */
enum { UN = 16 };
static int host_sum;
static void host_add(void *p) { host_sum += *(int *)p; }

/* The add kernel's buffers: a and b hold ha and hb (UN floats each), c
 * and c2 its results, zeroed, and d 64 bytes of scratch. */
static void add_buffers(const float *ha, const float *hb, CUdeviceptr *a, CUdeviceptr *b, CUdeviceptr *c,
			CUdeviceptr *c2, CUdeviceptr *d)
{
	OK(cuMemAlloc(a, UN * sizeof *ha));
	OK(cuMemAlloc(b, UN * sizeof *hb));
	OK(cuMemAlloc(c, UN * sizeof(float)));
	OK(cuMemAlloc(c2, UN * sizeof(float)));
	OK(cuMemAlloc(d, 64));
	OK(cuMemcpyHtoD(*a, ha, UN * sizeof *ha));
	OK(cuMemcpyHtoD(*b, hb, UN * sizeof *hb));
	OK(cuMemsetD8(*c, 0, UN * sizeof(float)));
	OK(cuMemsetD8(*c2, 0, UN * sizeof(float)));
}

/* Reads n floats of d and checks each is want[i] (NULL: all zero). */
static int floats_are(CUdeviceptr d, const float *want)
{
	float got[UN];
	OK(cuMemcpyDtoH(got, d, sizeof got));
	for (int i = 0; i < UN; i++)
		if (got[i] != (want ? want[i] : 0.0f))
			return 0;
	return 1;
}

static void kernel_params(CUDA_KERNEL_NODE_PARAMS *kp, CUfunction f, void **args)
{
	memset(kp, 0, sizeof *kp);
	kp->func = f;
	kp->gridDimX = kp->gridDimY = kp->gridDimZ = 1;
	kp->blockDimX = UN, kp->blockDimY = kp->blockDimZ = 1;
	kp->kernelParams = args;
}

static void node_params(void)
{
	CUmodule m;
	CUfunction add, bump;
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&add, m, "add"));
	OK(cuModuleGetFunction(&bump, m, "bump"));
	float ha[UN], hb[UN], sum[UN];
	for (int i = 0; i < UN; i++)
		ha[i] = (float)i, hb[i] = (float)(100 * i), sum[i] = (float)(101 * i);
	CUdeviceptr a, b, c, c2, d;
	add_buffers(ha, hb, &a, &b, &c, &c2, &d);
	unsigned n = UN;
	void *args[] = { &a, &b, &c, &n };
	CUDA_KERNEL_NODE_PARAMS kp, got;
	kernel_params(&kp, add, args);
	CUDA_MEMSET_NODE_PARAMS mp, mgot;
	memset(&mp, 0, sizeof mp);
	mp.dst = d, mp.value = 0x01020304, mp.elementSize = 4, mp.width = 16, mp.height = 1;
	int one = 1, ten = 10;
	CUDA_HOST_NODE_PARAMS hp = { host_add, &one }, hgot;
	CUgraph g;
	CUgraphNode k, s, h, e;
	CUcontext ctx;
	OK(cuCtxGetCurrent(&ctx));
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddKernelNode(&k, g, NULL, 0, &kp));
	OK(cuGraphAddMemsetNode(&s, g, &k, 1, &mp, ctx));
	OK(cuGraphAddHostNode(&h, g, &s, 1, &hp));
	OK(cuGraphAddEmptyNode(&e, g, &h, 1));
	/* a kernel node's parameters: its own copy of the arguments */
	memset(&got, 0, sizeof got);
	OK(cuGraphKernelNodeGetParams(k, &got));
	CHECK(got.func == add && got.gridDimX == 1 && got.blockDimX == UN && got.blockDimY == 1 &&
	      got.sharedMemBytes == 0 && !got.extra && got.kernelParams, "a kernel node's launch");
	CHECK(got.kernelParams && got.kernelParams[0] != (void *)&a && *(CUdeviceptr *)got.kernelParams[0] == a &&
	      *(CUdeviceptr *)got.kernelParams[2] == c && *(unsigned *)got.kernelParams[3] == UN,
	      "a kernel node's arguments, copied when it was made");
	EXPECT(cuGraphKernelNodeGetParams(s, &got), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphKernelNodeGetParams(k, NULL), CUDA_ERROR_INVALID_VALUE);
	/* the first form's structure ends before kern and ctx */
	CUresult (*get_v1)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS *) = NULL;
	CUdriverProcAddressQueryResult st;
	OK(cuGetProcAddress("cuGraphKernelNodeGetParams", (void **)&get_v1, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
	if (get_v1) {
		CUDA_KERNEL_NODE_PARAMS v1;
		memset(&v1, 0xab, sizeof v1);
		OK(get_v1(k, &v1));
		unsigned char tail[sizeof v1 - offsetof(CUDA_KERNEL_NODE_PARAMS, kern)];
		memset(tail, 0xab, sizeof tail);
		CHECK(v1.func == add && v1.blockDimX == UN && !memcmp(&v1.kern, tail, sizeof tail),
		      "cuGraphKernelNodeGetParams (v1) writes the v1 structure only");
	}
	/* llama.cpp's way: an argument changed through the kernelParams the node gave */
	void **kept = got.kernelParams;
	got.kernelParams[2] = &c2;
	OK(cuGraphKernelNodeSetParams(k, &got));
	OK(cuGraphKernelNodeGetParams(k, &got));
	CHECK(got.kernelParams == kept && got.kernelParams[2] != (void *)&c2 && *(CUdeviceptr *)got.kernelParams[2] == c2 &&
	      *(CUdeviceptr *)got.kernelParams[0] == a, "the same kernel's new arguments, in place, the node's copy");
	kp.blockDimX = 0;
	EXPECT(cuGraphKernelNodeSetParams(k, &kp), CUDA_ERROR_INVALID_VALUE);
	kp.blockDimX = UN;
	EXPECT(cuGraphKernelNodeSetParams(s, &kp), CUDA_ERROR_INVALID_VALUE);
	/* fills, host functions */
	OK(cuGraphMemsetNodeGetParams(s, &mgot));
	CHECK(mgot.dst == d && mgot.value == 0x01020304 && mgot.elementSize == 4 && mgot.width == 16 &&
	      mgot.height == 1, "a fill node's parameters");
	mgot.elementSize = 3;
	EXPECT(cuGraphMemsetNodeSetParams(s, &mgot), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphMemsetNodeGetParams(k, &mgot), CUDA_ERROR_INVALID_VALUE);
	mp.value = 0x0a0b0c0d;
	OK(cuGraphMemsetNodeSetParams(s, &mp));
	OK(cuGraphHostNodeGetParams(h, &hgot));
	CHECK(hgot.fn == host_add && hgot.userData == &one, "a host node's parameters");
	hp.fn = NULL;
	EXPECT(cuGraphHostNodeSetParams(h, &hp), CUDA_ERROR_INVALID_VALUE);
	hp.fn = host_add, hp.userData = &ten;
	OK(cuGraphHostNodeSetParams(h, &hp));
	/* cuGraphNodeSetParams: by the node's own kind */
	CUgraphNodeParams np;
	memset(&np, 0, sizeof np);
	np.type = CU_GRAPH_NODE_TYPE_EMPTY;
	OK(cuGraphNodeSetParams(e, &np));
	EXPECT(cuGraphNodeSetParams(k, &np), CUDA_ERROR_INVALID_VALUE);
	np.type = CU_GRAPH_NODE_TYPE_HOST;
	np.host.fn = host_add, np.host.userData = &ten;
	OK(cuGraphNodeSetParams(h, &np));
	/* an executable graph is a copy: later changes to the nodes do not reach it */
	CUgraphExec x;
	OK(cuGraphInstantiate(&x, g, 0));
	mp.value = 0x55555555;
	OK(cuGraphMemsetNodeSetParams(s, &mp));
	host_sum = 0;
	OK(cuGraphLaunch(x, NULL));
	OK(cuCtxSynchronize());
	unsigned words[16];
	OK(cuMemcpyDtoH(words, d, sizeof words));
	CHECK(floats_are(c2, sum) && floats_are(c, NULL), "the kernel writes to the argument set in place");
	CHECK(words[0] == 0x0a0b0c0d && words[15] == 0x0a0b0c0d, "the fill's value when instantiated: %#x", words[0]);
	CHECK(host_sum == 10, "the host node's new data: %d", host_sum);
	/* event record nodes: the event is the executable graph's own */
	CUevent e1, e2, e3;
	OK(cuEventCreate(&e1, 0));
	OK(cuEventCreate(&e2, 0));
	OK(cuEventCreate(&e3, 0));
	CUgraph ge;
	CUgraphNode rec;
	CUevent ev = NULL;
	float ms;
	OK(cuGraphCreate(&ge, 0));
	EXPECT(cuGraphAddEventRecordNode(&rec, ge, NULL, 0, NULL), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphAddEventRecordNode(&rec, ge, NULL, 0, e1));
	OK(cuGraphEventRecordNodeGetEvent(rec, &ev));
	CHECK(ev == e1, "an event record node's event");
	EXPECT(cuGraphEventRecordNodeGetEvent(k, &ev), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphEventRecordNodeSetEvent(rec, e2));
	memset(&np, 0, sizeof np);
	np.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
	np.eventRecord.event = e2;
	OK(cuGraphNodeSetParams(rec, &np));
	CUgraphExec xe;
	OK(cuGraphInstantiate(&xe, ge, 0));
	OK(cuGraphEventRecordNodeSetEvent(rec, e1));    /* after: not the executable graph's */
	np.eventRecord.event = e3;
	OK(cuGraphExecNodeSetParams(xe, rec, &np));
	EXPECT(cuGraphExecEventRecordNodeSetEvent(xe, k, e3), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphLaunch(xe, NULL));
	OK(cuCtxSynchronize());
	OK(cuEventElapsedTime(&ms, e3, e3));            /* recorded */
	EXPECT(cuEventElapsedTime(&ms, e2, e2), CUDA_ERROR_INVALID_HANDLE);     /* never recorded */
	EXPECT(cuEventElapsedTime(&ms, e1, e1), CUDA_ERROR_INVALID_HANDLE);
	OK(cuGraphExecDestroy(xe));
	OK(cuGraphAddNode(&rec, ge, NULL, NULL, 0, &np));
	OK(cuGraphEventRecordNodeGetEvent(rec, &ev));
	CHECK(ev == e3, "an event record node made by cuGraphAddNode");
	/* event wait nodes: the work before the event's record is done */
	CUgraphNode wait, after;
	OK(cuGraphAddEventWaitNode(&wait, ge, &rec, 1, e1));
	OK(cuGraphEventWaitNodeGetEvent(wait, &ev));
	CHECK(ev == e1, "an event wait node's event");
	EXPECT(cuGraphEventWaitNodeGetEvent(rec, &ev), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphEventRecordNodeGetEvent(wait, &ev), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphEventWaitNodeSetEvent(wait, NULL), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphEventWaitNodeSetEvent(wait, e2));
	np.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
	np.eventWait.event = e3;
	OK(cuGraphAddNode(&after, ge, &wait, NULL, 1, &np));
	OK(cuGraphEventWaitNodeGetEvent(after, &ev));
	CHECK(ev == e3, "an event wait node made by cuGraphAddNode");
	np.eventWait.event = e1;
	OK(cuGraphNodeSetParams(wait, &np));
	OK(cuGraphInstantiate(&xe, ge, 0));
	OK(cuGraphExecEventWaitNodeSetEvent(xe, wait, e3));
	OK(cuGraphExecNodeSetParams(xe, after, &np));
	EXPECT(cuGraphExecEventWaitNodeSetEvent(xe, rec, e3), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphLaunch(xe, NULL));
	OK(cuCtxSynchronize());
	OK(cuGraphExecDestroy(xe));
	EXPECT(cuGraphInstantiateWithFlags(&xe, ge, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphDestroy(ge));
	OK(cuEventDestroy(e1));
	OK(cuEventDestroy(e2));
	OK(cuEventDestroy(e3));
	/* the copy node's parameters */
	CUgraph g2;
	CUgraphNode cp;
	CUDA_MEMCPY3D c3, c3got;
	memset(&c3, 0, sizeof c3);
	c3.srcMemoryType = CU_MEMORYTYPE_DEVICE, c3.srcDevice = a;
	c3.dstMemoryType = CU_MEMORYTYPE_DEVICE, c3.dstDevice = c;
	c3.WidthInBytes = sizeof ha, c3.Height = c3.Depth = 1;
	OK(cuGraphCreate(&g2, 0));
	OK(cuGraphAddMemcpyNode(&cp, g2, NULL, 0, &c3, ctx));
	memset(&c3got, 0, sizeof c3got);
	OK(cuGraphMemcpyNodeGetParams(cp, &c3got));
	CHECK(!memcmp(&c3got, &c3, sizeof c3), "a copy node's parameters");
	EXPECT(cuGraphMemcpyNodeGetParams(k, &c3got), CUDA_ERROR_INVALID_VALUE);
	c3.srcDevice = b;
	OK(cuGraphMemcpyNodeSetParams(cp, &c3));
	CUgraphExec x2;
	OK(cuGraphInstantiate(&x2, g2, 0));
	OK(cuGraphLaunch(x2, NULL));
	OK(cuCtxSynchronize());
	CHECK(floats_are(c, hb), "the copy node's new source");
	OK(cuGraphExecDestroy(x2));
	OK(cuGraphDestroy(g2));
	OK(cuGraphExecDestroy(x));
	OK(cuGraphDestroy(g));
	OK(cuMemFree(a));
	OK(cuMemFree(b));
	OK(cuMemFree(c));
	OK(cuMemFree(c2));
	OK(cuMemFree(d));
	OK(cuModuleUnload(m));
}

/* A launch that has begun is not changed by an update made meanwhile on
 * another thread: its host node lets the update start, then the kernel
 * after it writes where it was told when the launch began. */
static volatile int launch_started;
static void mark_started(void *p)
{
	(void)p;
	__atomic_store_n(&launch_started, 1, __ATOMIC_SEQ_CST);
	usleep(50000);
}

typedef struct Updater {
	CUcontext ctx;
	CUgraphExec x;
	CUgraphNode k;
	CUDA_KERNEL_NODE_PARAMS kp;
	CUresult r;
} Updater;

static void *updater(void *arg)
{
	Updater *u = arg;
	cuCtxSetCurrent(u->ctx);
	while (!__atomic_load_n(&launch_started, __ATOMIC_SEQ_CST))
		usleep(1000);
	u->r = cuGraphExecKernelNodeSetParams(u->x, u->k, &u->kp);
	return NULL;
}

static void exec_params(void)
{
	CUmodule m;
	CUfunction add, bump;
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&add, m, "add"));
	OK(cuModuleGetFunction(&bump, m, "bump"));
	CUdeviceptr counter;
	size_t bytes;
	OK(cuModuleGetGlobal(&counter, &bytes, m, "counter"));
	float ha[UN], hb[UN], sum[UN];
	for (int i = 0; i < UN; i++)
		ha[i] = (float)(3 * i), hb[i] = (float)(7 + i), sum[i] = (float)(4 * i + 7);
	CUdeviceptr a, b, c, c2, d, d2;
	add_buffers(ha, hb, &a, &b, &c, &c2, &d);
	OK(cuMemAlloc(&d2, 64));
	unsigned n = UN;
	void *args[] = { &a, &b, &c, &n }, *args2[] = { &a, &b, &c2, &n };
	CUDA_KERNEL_NODE_PARAMS kp, kp2, kgot;
	kernel_params(&kp, add, args);
	kernel_params(&kp2, add, args2);
	CUDA_MEMSET_NODE_PARAMS mp;
	memset(&mp, 0, sizeof mp);
	mp.dst = d, mp.value = 0x11111111, mp.elementSize = 4, mp.width = 16, mp.height = 1;
	CUDA_MEMCPY3D cp;
	memset(&cp, 0, sizeof cp);
	cp.srcMemoryType = CU_MEMORYTYPE_DEVICE, cp.srcDevice = d;
	cp.dstMemoryType = CU_MEMORYTYPE_DEVICE, cp.dstDevice = d2;
	cp.WidthInBytes = 64, cp.Height = cp.Depth = 1;
	int one = 1, ten = 10;
	CUDA_HOST_NODE_PARAMS hp = { host_add, &one };
	CUcontext ctx;
	OK(cuCtxGetCurrent(&ctx));
	CUgraph g, other;
	CUgraphNode k, s, copy, h, later, foreign;
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddKernelNode(&k, g, NULL, 0, &kp));
	OK(cuGraphAddMemsetNode(&s, g, &k, 1, &mp, ctx));
	OK(cuGraphAddMemcpyNode(&copy, g, &s, 1, &cp, ctx));
	OK(cuGraphAddHostNode(&h, g, &copy, 1, &hp));
	CUgraphExec x;
	OK(cuGraphInstantiate(&x, g, 0));
	OK(cuGraphAddEmptyNode(&later, g, NULL, 0));
	OK(cuGraphCreate(&other, 0));
	OK(cuGraphAddKernelNode(&foreign, other, NULL, 0, &kp));
	/* a kernel node: the executable graph's changes, the node's stay */
	OK(cuMemsetD8(c, 0, sizeof sum));
	OK(cuMemsetD8(c2, 0, sizeof sum));
	OK(cuGraphExecKernelNodeSetParams(x, k, &kp2));
	host_sum = 0;
	OK(cuGraphLaunch(x, NULL));
	OK(cuCtxSynchronize());
	CHECK(floats_are(c2, sum) && floats_are(c, NULL), "the executable graph's kernel writes the new output");
	OK(cuGraphKernelNodeGetParams(k, &kgot));
	CHECK(*(CUdeviceptr *)kgot.kernelParams[2] == c, "the graph's node is not changed");
	EXPECT(cuGraphExecKernelNodeSetParams(x, s, &kp2), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphExecKernelNodeSetParams(x, foreign, &kp2), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphExecKernelNodeSetParams(x, later, &kp2), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphExecKernelNodeSetParams(x, k, NULL), CUDA_ERROR_INVALID_VALUE);
	kp2.gridDimY = 0;
	EXPECT(cuGraphExecKernelNodeSetParams(x, k, &kp2), CUDA_ERROR_INVALID_VALUE);
	kp2.gridDimY = 1;
	/* a kernel of the same context may replace it: bump, 16 threads */
	CUDA_KERNEL_NODE_PARAMS kb;
	kernel_params(&kb, bump, NULL);
	unsigned before = read_counter(counter);
	OK(cuGraphExecKernelNodeSetParams(x, k, &kb));
	OK(cuGraphLaunch(x, NULL));
	OK(cuCtxSynchronize());
	CHECK(read_counter(counter) - before == UN, "the node's new kernel: counter +%u", read_counter(counter) - before);
	OK(cuGraphExecKernelNodeSetParams(x, k, &kp));
	/* fills: value and address; a 1D fill stays 1D */
	CUDA_MEMSET_NODE_PARAMS mp2 = mp;
	mp2.dst = d2, mp2.value = 0x22222222;
	OK(cuGraphExecMemsetNodeSetParams(x, s, &mp2, ctx));
	mp2.height = 2, mp2.pitch = 64;
	EXPECT(cuGraphExecMemsetNodeSetParams(x, s, &mp2, ctx), CUDA_ERROR_INVALID_VALUE);
	mp2.height = 1, mp2.width = 0;
	EXPECT(cuGraphExecMemsetNodeSetParams(x, s, &mp2, ctx), CUDA_ERROR_INVALID_VALUE);
	mp2.width = 16;
	EXPECT(cuGraphExecMemsetNodeSetParams(x, k, &mp2, ctx), CUDA_ERROR_INVALID_VALUE);
	/* copies: addresses, the same kinds of memory, one row */
	unsigned words[16];
	CUDA_MEMCPY3D cp2 = cp;
	cp2.srcDevice = d2, cp2.dstDevice = d;
	cp2.dstMemoryType = CU_MEMORYTYPE_HOST, cp2.dstHost = words;
	EXPECT(cuGraphExecMemcpyNodeSetParams(x, copy, &cp2, ctx), CUDA_ERROR_INVALID_VALUE);
	cp2.dstMemoryType = CU_MEMORYTYPE_DEVICE, cp2.dstHost = NULL;
	cp2.WidthInBytes = 32, cp2.Height = 2;
	EXPECT(cuGraphExecMemcpyNodeSetParams(x, copy, &cp2, ctx), CUDA_ERROR_INVALID_VALUE);
	cp2.WidthInBytes = 64, cp2.Height = 1;
	OK(cuGraphExecMemcpyNodeSetParams(x, copy, &cp2, ctx));
	/* host nodes */
	hp.userData = &ten;
	OK(cuGraphExecHostNodeSetParams(x, h, &hp));
	hp.fn = NULL;
	EXPECT(cuGraphExecHostNodeSetParams(x, h, &hp), CUDA_ERROR_INVALID_VALUE);
	hp.fn = host_add;
	OK(cuMemsetD8(d, 0, 64));
	OK(cuMemsetD8(d2, 0, 64));
	host_sum = 0;
	OK(cuGraphLaunch(x, NULL));
	OK(cuCtxSynchronize());
	OK(cuMemcpyDtoH(words, d, sizeof words));
	CHECK(words[0] == 0x22222222 && words[15] == 0x22222222, "the fill of d2, copied to d: %#x", words[0]);
	CHECK(host_sum == 10, "the host node's new data: %d", host_sum);
	/* disabled nodes do nothing; only kernel, copy and fill nodes may be */
	unsigned on = 7;
	OK(cuGraphNodeGetEnabled(x, k, &on));
	CHECK(on == 1, "a node is enabled at first (%u)", on);
	OK(cuGraphNodeSetEnabled(x, k, 0));
	OK(cuGraphNodeSetEnabled(x, s, 0));
	OK(cuGraphNodeGetEnabled(x, k, &on));
	CHECK(on == 0, "a disabled node (%u)", on);
	EXPECT(cuGraphNodeSetEnabled(x, h, 0), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphNodeGetEnabled(x, h, &on), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphNodeSetEnabled(x, later, 0), CUDA_ERROR_INVALID_VALUE);
	OK(cuMemsetD8(c, 0, sizeof sum));
	OK(cuMemsetD8(d, 0, 64));
	OK(cuMemsetD8(d2, 0x77, 64));
	OK(cuGraphLaunch(x, NULL));
	OK(cuCtxSynchronize());
	OK(cuMemcpyDtoH(words, d, sizeof words));
	CHECK(floats_are(c, NULL), "a disabled kernel writes nothing");
	CHECK(words[0] == 0x77777777, "a disabled fill writes nothing; the copy still runs: %#x", words[0]);
	OK(cuGraphNodeSetEnabled(x, k, 1));
	OK(cuGraphNodeSetEnabled(x, s, 1));
	/* cuGraphExecNodeSetParams: by the node's kind */
	CUgraphNodeParams np;
	memset(&np, 0, sizeof np);
	np.type = CU_GRAPH_NODE_TYPE_KERNEL;
	np.kernel.func = add;
	np.kernel.gridDimX = np.kernel.gridDimY = np.kernel.gridDimZ = 1;
	np.kernel.blockDimX = UN, np.kernel.blockDimY = np.kernel.blockDimZ = 1;
	np.kernel.kernelParams = args2;
	EXPECT(cuGraphExecNodeSetParams(x, s, &np), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphExecNodeSetParams(x, k, &np));
	OK(cuMemsetD8(c2, 0, sizeof sum));
	OK(cuGraphLaunch(x, NULL));
	OK(cuCtxSynchronize());
	CHECK(floats_are(c2, sum), "cuGraphExecNodeSetParams's kernel arguments");
	/* an update made while a launch runs reaches the later launches only */
	CUgraph lg;
	CUgraphNode lh, lk;
	CUgraphExec lx;
	CUDA_HOST_NODE_PARAMS mark = { mark_started, NULL };
	OK(cuGraphCreate(&lg, 0));
	OK(cuGraphAddHostNode(&lh, lg, NULL, 0, &mark));
	OK(cuGraphAddKernelNode(&lk, lg, &lh, 1, &kp));
	OK(cuGraphInstantiate(&lx, lg, 0));
	OK(cuMemsetD8(c, 0, sizeof sum));
	OK(cuMemsetD8(c2, 0, sizeof sum));
	Updater u = { ctx, lx, lk, kp2, CUDA_ERROR_UNKNOWN };
	pthread_t t;
	launch_started = 0;
	CHECK(pthread_create(&t, NULL, updater, &u) == 0, "a thread");
	OK(cuGraphLaunch(lx, NULL));
	OK(cuCtxSynchronize());
	pthread_join(t, NULL);
	OK(u.r);
	CHECK(floats_are(c, sum) && floats_are(c2, NULL), "the launch under way keeps its arguments");
	OK(cuGraphLaunch(lx, NULL));
	OK(cuCtxSynchronize());
	CHECK(floats_are(c2, sum), "the next launch has the new ones");
	OK(cuGraphExecDestroy(lx));
	OK(cuGraphDestroy(lg));
	/* a graph for device launch copies only memory the device reaches */
	void *pinned, *pinned2, *pageable = malloc(64);
	OK(cuMemAllocHost(&pinned, 64));
	OK(cuMemAllocHost(&pinned2, 64));
	CUgraph dg;
	CUgraphNode dcopy;
	CUgraphExec dx;
	CUDA_MEMCPY3D hd = cp;
	hd.srcMemoryType = CU_MEMORYTYPE_HOST, hd.srcHost = pinned, hd.srcDevice = 0;
	OK(cuGraphCreate(&dg, 0));
	OK(cuGraphAddMemcpyNode(&dcopy, dg, NULL, 0, &hd, ctx));
	OK(cuGraphInstantiateWithFlags(&dx, dg, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH));
	hd.srcHost = pageable;
	EXPECT(cuGraphExecMemcpyNodeSetParams(dx, dcopy, &hd, ctx), CUDA_ERROR_INVALID_VALUE);
	hd.srcHost = pinned2;
	OK(cuGraphExecMemcpyNodeSetParams(dx, dcopy, &hd, ctx));
	memset(pinned2, 0x5a, 64);
	OK(cuGraphLaunch(dx, NULL));
	OK(cuCtxSynchronize());
	OK(cuMemcpyDtoH(words, d2, sizeof words));
	CHECK(words[0] == 0x5a5a5a5a && words[15] == 0x5a5a5a5a, "a device graph's copy from its new source: %#x",
	      words[0]);
	OK(cuGraphExecDestroy(dx));
	OK(cuGraphDestroy(dg));
	OK(cuMemFreeHost(pinned));
	OK(cuMemFreeHost(pinned2));
	free(pageable);
	/* a child graph's work takes another graph's parameters, of the same shape */
	CUgraph parent, child, same, bigger;
	CUgraphNode cn, ck, extra;
	CUgraphExec px;
	kb.blockDimX = 4;
	OK(cuGraphCreate(&child, 0));
	OK(cuGraphAddKernelNode(&ck, child, NULL, 0, &kb));
	OK(cuGraphCreate(&parent, 0));
	OK(cuGraphAddChildGraphNode(&cn, parent, NULL, 0, child));
	OK(cuGraphInstantiate(&px, parent, 0));
	kb.blockDimX = 8;
	OK(cuGraphCreate(&same, 0));
	OK(cuGraphAddKernelNode(&ck, same, NULL, 0, &kb));
	OK(cuGraphCreate(&bigger, 0));
	OK(cuGraphAddKernelNode(&ck, bigger, NULL, 0, &kb));
	OK(cuGraphAddKernelNode(&extra, bigger, &ck, 1, &kb));
	EXPECT(cuGraphExecChildGraphNodeSetParams(px, cn, bigger), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphExecChildGraphNodeSetParams(px, k, same), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphExecChildGraphNodeSetParams(px, cn, same));
	before = read_counter(counter);
	OK(cuGraphLaunch(px, NULL));
	OK(cuCtxSynchronize());
	CHECK(read_counter(counter) - before == 8, "the child's new launch of 8 threads: counter +%u",
	      read_counter(counter) - before);
	/* the nodes of the node's own graph name their work too */
	CUgraph own;
	CUgraphNode inner;
	size_t one_node = 1;
	OK(cuGraphChildGraphNodeGetGraph(cn, &own));
	OK(cuGraphGetNodes(own, &inner, &one_node));
	kb.blockDimX = 2;
	OK(cuGraphExecKernelNodeSetParams(px, inner, &kb));
	before = read_counter(counter);
	OK(cuGraphLaunch(px, NULL));
	OK(cuCtxSynchronize());
	CHECK(read_counter(counter) - before == 2, "a child's node changed by its own handle: counter +%u",
	      read_counter(counter) - before);
	OK(cuGraphExecDestroy(px));
	OK(cuGraphDestroy(parent));
	OK(cuGraphDestroy(child));
	OK(cuGraphDestroy(same));
	OK(cuGraphDestroy(bigger));
	OK(cuGraphExecDestroy(x));
	EXPECT(cuGraphExecKernelNodeSetParams(x, k, &kp), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphDestroy(g));
	OK(cuGraphDestroy(other));
	OK(cuMemFree(a));
	OK(cuMemFree(b));
	OK(cuMemFree(c));
	OK(cuMemFree(c2));
	OK(cuMemFree(d));
	OK(cuMemFree(d2));
	OK(cuModuleUnload(m));
}

/* cuGraphExecUpdate as llama.cpp's CUDA graphs use it: each step captures
 * the same work again, with other arguments, and updates the executable
 * graph from it; what an update may not change is refused, the reason
 * and node said, and the executable graph is left as it was. */
static void capture_step(CUstream s, CUgraph *g, CUfunction add, CUdeviceptr *a, CUdeviceptr *b, CUdeviceptr *out,
			 CUdeviceptr fill, unsigned value)
{
	unsigned n = UN;
	void *args[] = { a, b, out, &n };
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	OK(cuLaunchKernel(add, 1, 1, 1, UN, 1, 1, 0, s, args, NULL));
	OK(cuMemsetD32Async(fill, value, 16, s));
	OK(cuStreamEndCapture(s, g));
}

static void exec_update(void)
{
	CUmodule m;
	CUfunction add, bump;
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&add, m, "add"));
	OK(cuModuleGetFunction(&bump, m, "bump"));
	CUstream s;
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	float ha[UN], hb[UN], sum[UN];
	for (int i = 0; i < UN; i++)
		ha[i] = (float)(i * i), hb[i] = (float)(1 - i), sum[i] = (float)(i * i + 1 - i);
	CUdeviceptr a, b, c, c2, d;
	add_buffers(ha, hb, &a, &b, &c, &c2, &d);
	CUgraph g1, g2, g;
	CUgraphExec x;
	capture_step(s, &g1, add, &a, &b, &c, d, 0x31);
	OK(cuGraphInstantiate(&x, g1, 0));
	OK(cuGraphDestroy(g1));         /* as llama.cpp does: the executable graph lives on */
	capture_step(s, &g2, add, &a, &b, &c2, d, 0x32);
	CUgraphExecUpdateResultInfo info;
	memset(&info, 0xff, sizeof info);
	OK(cuGraphExecUpdate(x, g2, &info));
	CHECK(info.result == CU_GRAPH_EXEC_UPDATE_SUCCESS && !info.errorNode && !info.errorFromNode,
	      "a successful update's result %d", (int)info.result);
	OK(cuGraphLaunch(x, s));
	OK(cuStreamSynchronize(s));
	unsigned words[16];
	OK(cuMemcpyDtoH(words, d, sizeof words));
	CHECK(floats_are(c2, sum) && floats_are(c, NULL), "the updated kernel writes the new output");
	CHECK(words[0] == 0x32 && words[15] == 0x32, "the updated fill's value %#x", words[0]);
	/* a captured wait on an event from outside, CU_EVENT_WAIT_EXTERNAL: an event wait node */
	CUevent outside, ev = NULL;
	CUgraph gw;
	CUgraphNode wn[4];
	CUgraphNodeType wt[3] = { CU_GRAPH_NODE_TYPE_EMPTY, CU_GRAPH_NODE_TYPE_EMPTY, CU_GRAPH_NODE_TYPE_EMPTY };
	size_t nw = 4;
	OK(cuEventCreate(&outside, 0));
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	OK(cuMemsetD32Async(d, 1, 16, s));
	OK(cuStreamWaitEvent(s, outside, CU_EVENT_WAIT_EXTERNAL));
	OK(cuMemsetD32Async(d, 2, 16, s));
	OK(cuStreamEndCapture(s, &gw));
	OK(cuGraphGetNodes(gw, wn, &nw));
	for (size_t i = 0; i < nw && i < 3; i++)
		OK(cuGraphNodeGetType(wn[i], &wt[i]));
	CHECK(nw == 3 && wt[0] == CU_GRAPH_NODE_TYPE_MEMSET && wt[1] == CU_GRAPH_NODE_TYPE_WAIT_EVENT &&
	      wt[2] == CU_GRAPH_NODE_TYPE_MEMSET, "a fill, an event wait node, a fill (%zu nodes)", nw);
	if (nw == 3)
		OK(cuGraphEventWaitNodeGetEvent(wn[1], &ev));
	CHECK(ev == outside, "the wait node's event");
	EXPECT(cuStreamWaitEvent(s, outside, 2), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphDestroy(gw));
	OK(cuEventDestroy(outside));
	/* the dependencies of a capture's next node, added to or replaced */
	CUgraph gd;
	CUgraphNode fa, dn[4];
	const CUgraphNode *cdeps = NULL;
	size_t ncdeps = 0, nd = 4;
	CUstreamCaptureStatus cst;
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	OK(cuMemsetD32Async(d, 1, 16, s));
	OK(cuStreamGetCaptureInfo(s, &cst, NULL, NULL, &cdeps, NULL, &ncdeps));
	CHECK(ncdeps == 1 && cdeps, "the capture's last node (%zu)", ncdeps);
	fa = ncdeps == 1 ? cdeps[0] : NULL;
	OK(cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0, CU_STREAM_SET_CAPTURE_DEPENDENCIES));
	OK(cuMemsetD32Async(d, 2, 16, s));              /* a root */
	EXPECT(cuStreamUpdateCaptureDependencies(s, &fa, NULL, 1, 7), CUDA_ERROR_INVALID_VALUE);
	OK(cuStreamUpdateCaptureDependencies(s, &fa, NULL, 1, CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
	OK(cuMemsetD32Async(d, 3, 16, s));              /* after both */
	OK(cuStreamEndCapture(s, &gd));
	OK(cuGraphGetRootNodes(gd, dn, &nd));
	CHECK(nd == 2, "two roots: %zu", nd);
	nd = 4;
	OK(cuGraphGetNodes(gd, dn, &nd));
	size_t last = 0;
	if (nd == 3)
		OK(cuGraphNodeGetDependencies(dn[2], NULL, NULL, &last));
	CHECK(nd == 3 && last == 2, "the last node depends on both (%zu)", last);
	EXPECT(cuStreamUpdateCaptureDependencies(s, &fa, NULL, 1, 0), CUDA_ERROR_ILLEGAL_STATE);  /* not capturing */
	OK(cuGraphDestroy(gd));
	/* a node more: the topology changed, no node named */
	CUgraphNode nodes[3];
	size_t nn = 2;
	OK(cuGraphGetNodes(g2, nodes, &nn));
	CUgraphNode extra;
	OK(cuGraphClone(&g, g2));
	OK(cuGraphAddEmptyNode(&extra, g, NULL, 0));
	EXPECT(cuGraphExecUpdate(x, g, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
	CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED && !info.errorNode,
	      "another node count: result %d", (int)info.result);
	OK(cuGraphDestroy(g));
	/* the same nodes without the edge between them */
	CUDA_KERNEL_NODE_PARAMS kp;
	unsigned n = UN;
	void *args[] = { &a, &b, &c, &n };
	kernel_params(&kp, add, args);
	CUDA_MEMSET_NODE_PARAMS mp;
	memset(&mp, 0, sizeof mp);
	mp.dst = d, mp.value = 0x33, mp.elementSize = 4, mp.width = 16, mp.height = 1;
	CUcontext ctx;
	OK(cuCtxGetCurrent(&ctx));
	CUgraphNode k, f;
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddKernelNode(&k, g, NULL, 0, &kp));
	OK(cuGraphAddMemsetNode(&f, g, NULL, 0, &mp, ctx));
	EXPECT(cuGraphExecUpdate(x, g, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
	CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED && info.errorNode == f,
	      "a dependency less: result %d, the node without it", (int)info.result);
	OK(cuGraphDestroy(g));
	/* a node of another kind in the same place */
	CUgraphNode hn;
	int one = 1;
	CUDA_HOST_NODE_PARAMS hp = { host_add, &one };
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddKernelNode(&k, g, NULL, 0, &kp));
	OK(cuGraphAddHostNode(&hn, g, &k, 1, &hp));
	EXPECT(cuGraphExecUpdate(x, g, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
	CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED && info.errorNode == hn,
	      "a host node for a fill: result %d", (int)info.result);
	OK(cuGraphDestroy(g));
	/* a 1D fill made 2D: parameters an update may not change */
	mp.height = 2, mp.pitch = 64, mp.width = 8;
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddKernelNode(&k, g, NULL, 0, &kp));
	OK(cuGraphAddMemsetNode(&f, g, &k, 1, &mp, ctx));
	EXPECT(cuGraphExecUpdate(x, g, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
	CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED && info.errorNode == f,
	      "a fill of two rows: result %d", (int)info.result);
	/* the first form: the node and the result by pointer */
	CUresult (*update_v1)(CUgraphExec, CUgraph, CUgraphNode *, CUgraphExecUpdateResult *) = NULL;
	CUdriverProcAddressQueryResult st;
	OK(cuGetProcAddress("cuGraphExecUpdate", (void **)&update_v1, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
	if (update_v1) {
		CUgraphNode err = NULL;
		CUgraphExecUpdateResult res = CU_GRAPH_EXEC_UPDATE_SUCCESS;
		EXPECT(update_v1(x, g, &err, &res), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
		CHECK(res == CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED && err == f, "cuGraphExecUpdate (v1): %d",
		      (int)res);
	}
	OK(cuGraphDestroy(g));
	/* a kernel node's function changed to one of the same context: allowed */
	CUDA_KERNEL_NODE_PARAMS kb;
	kernel_params(&kb, bump, NULL);
	mp.height = 1, mp.width = 16, mp.pitch = 0;
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddKernelNode(&k, g, NULL, 0, &kb));
	OK(cuGraphAddMemsetNode(&f, g, &k, 1, &mp, ctx));
	OK(cuGraphExecUpdate(x, g, &info));
	/* and back, with the arguments set on the graph's node first */
	OK(cuGraphKernelNodeSetParams(k, &kp));
	OK(cuGraphExecUpdate(x, g, &info));
	EXPECT(cuGraphExecUpdate(x, g, NULL), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphExecUpdate(x, NULL, &info), CUDA_ERROR_INVALID_VALUE);
	/* a refused update changed nothing: the last good one holds */
	OK(cuMemsetD8(c, 0, sizeof sum));
	OK(cuMemsetD8(c2, 0, sizeof sum));
	OK(cuGraphLaunch(x, s));
	OK(cuStreamSynchronize(s));
	OK(cuMemcpyDtoH(words, d, sizeof words));
	CHECK(floats_are(c, sum) && floats_are(c2, NULL) && words[3] == 0x33, "the last update's work (%#x)", words[3]);
	OK(cuGraphDestroy(g));
	OK(cuGraphExecDestroy(x));
	OK(cuGraphDestroy(g2));
	OK(cuMemFree(a));
	OK(cuMemFree(b));
	OK(cuMemFree(c));
	OK(cuMemFree(c2));
	OK(cuMemFree(d));
	OK(cuStreamDestroy(s));
	OK(cuModuleUnload(m));
}

/* Graphs edited after their nodes were made: edges added and removed,
 * nodes removed, clones' nodes found.  Host nodes record the order they
 * run in. */
static char ran[8];
static int nran;
static void record_run(void *p) { ran[__atomic_fetch_add(&nran, 1, __ATOMIC_SEQ_CST)] = *(const char *)p; }

/* Whether, in the last run, x ran and before y (y 0: x alone, anywhere). */
static int ran_before(char x, char y)
{
	const char *a = memchr(ran, x, (size_t)nran), *b = y ? memchr(ran, y, (size_t)nran) : NULL;
	return a && (!y || (b && a < b));
}

static void graph_editing(void)
{
	static const char names[] = "ABCD";
	CUDA_HOST_NODE_PARAMS hp[4];
	for (int i = 0; i < 4; i++)
		hp[i].fn = record_run, hp[i].userData = (void *)&names[i];
	CUgraph g, other;
	CUgraphNode a, b, c, x, got[4];
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddHostNode(&a, g, NULL, 0, &hp[0]));
	OK(cuGraphAddHostNode(&b, g, NULL, 0, &hp[1]));
	OK(cuGraphAddHostNode(&c, g, NULL, 0, &hp[2]));
	OK(cuGraphCreate(&other, 0));
	OK(cuGraphAddHostNode(&x, other, NULL, 0, &hp[3]));
	/* an edge from a node to one made before it: A runs after C */
	OK(cuGraphAddDependencies(g, &c, &a, NULL, 1));
	size_t n = 4;
	CUgraphNode from[2] = { 0 }, to[2] = { 0 };
	n = 2;
	OK(cuGraphGetEdges(g, from, to, NULL, &n));
	CHECK(n == 1 && from[0] == c && to[0] == a && !from[1] && !to[1], "the edge C -> A (%zu edges)", n);
	n = 0;
	OK(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
	CHECK(n == 1, "the count of edges alone: %zu", n);
	EXPECT(cuGraphGetEdges(g, from, NULL, NULL, &n), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphAddDependencies(g, &c, &a, NULL, 1), CUDA_ERROR_INVALID_VALUE);       /* there already */
	EXPECT(cuGraphAddDependencies(g, &a, &a, NULL, 1), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphAddDependencies(g, &a, &x, NULL, 1), CUDA_ERROR_INVALID_VALUE);       /* another graph's */
	EXPECT(cuGraphAddDependencies(g, NULL, &a, NULL, 1), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphAddDependencies(g, NULL, NULL, NULL, 0));
	/* a cycle is refused, and nothing of the call is added */
	CUgraphNode f2[2] = { b, a }, t2[2] = { a, c };
	EXPECT(cuGraphAddDependencies(g, f2, t2, NULL, 2), CUDA_ERROR_INVALID_VALUE);
	n = 0;
	OK(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
	CHECK(n == 1, "a refused call adds no edge (%zu edges)", n);
	CUgraphExec ex;
	OK(cuGraphInstantiate(&ex, g, 0));
	nran = 0;
	OK(cuGraphLaunch(ex, NULL));
	OK(cuCtxSynchronize());
	CHECK(nran == 3 && ran_before('C', 'A') && ran_before('B', 0), "C before A, and B: %.*s", nran, ran);
	/* the forms with edge data, all zero */
	CUgraphEdgeData ed[2];
	memset(ed, 0, sizeof ed);
	OK(cuGraphAddDependencies(g, &b, &a, ed, 1));
	memset(ed, 0xff, sizeof ed);
	n = 2;
	OK(cuGraphNodeGetDependencies(a, got, ed, &n));
	CHECK(n == 2 && ((got[0] == c && got[1] == b) || (got[0] == b && got[1] == c)) && !ed[0].type &&
	      !ed[1].from_port && !ed[1].to_port, "A's dependencies: %zu, zero edge data", n);
	n = 2;
	OK(cuGraphNodeGetDependentNodes(c, got, NULL, &n));
	CHECK(n == 1 && got[0] == a && !got[1], "C's dependent: %zu", n);
	n = 0;
	OK(cuGraphNodeGetDependentNodes(a, NULL, NULL, &n));
	CHECK(n == 0, "A has no dependents: %zu", n);
	memset(ed, 0xff, sizeof ed);
	n = 1;
	OK(cuGraphNodeGetDependentNodes(b, got, ed, &n));
	CHECK(n == 1 && got[0] == a && !ed[0].type, "B's dependent, with edge data");
	EXPECT(cuGraphNodeGetDependentNodes(b, got, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
	/* the first forms, without edge data */
	CUresult (*edges_v1)(CUgraph, CUgraphNode *, CUgraphNode *, size_t *) = NULL;
	CUresult (*remove_v1)(CUgraph, const CUgraphNode *, const CUgraphNode *, size_t) = NULL;
	CUdriverProcAddressQueryResult st;
	OK(cuGetProcAddress("cuGraphGetEdges", (void **)&edges_v1, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
	OK(cuGetProcAddress("cuGraphRemoveDependencies", (void **)&remove_v1, 12000, CU_GET_PROC_ADDRESS_DEFAULT,
			    &st));
	if (edges_v1 && remove_v1) {
		n = 2;
		OK(edges_v1(g, from, to, &n));
		CHECK(n == 2 && to[0] == a && to[1] == a, "cuGraphGetEdges (v1): %zu edges", n);
		OK(remove_v1(g, &b, &a, 1));
		OK(cuGraphAddDependencies(g, &b, &a, NULL, 1));
	}
	/* removing edges */
	OK(cuGraphRemoveDependencies(g, &c, &a, NULL, 1));
	EXPECT(cuGraphRemoveDependencies(g, &c, &a, NULL, 1), CUDA_ERROR_INVALID_VALUE);  /* gone already */
	n = 2;
	OK(cuGraphGetEdges(g, from, to, ed, &n));
	CHECK(n == 1 && from[0] == b && to[0] == a, "the edge B -> A is left (%zu edges)", n);
	/* clones: the node made from a node */
	CUgraph copy;
	CUgraphNode ca;
	OK(cuGraphClone(&copy, g));
	OK(cuGraphNodeFindInClone(&ca, a, copy));
	CUDA_HOST_NODE_PARAMS cp;
	OK(cuGraphHostNodeGetParams(ca, &cp));
	CHECK(ca != a && cp.userData == (void *)&names[0], "A's copy in the clone");
	EXPECT(cuGraphNodeFindInClone(&ca, x, copy), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphNodeFindInClone(&ca, a, other), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphNodeFindInClone(NULL, a, copy), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphNodeFindInClone(&ca, b, copy));
	OK(cuGraphDestroyNode(ca));
	EXPECT(cuGraphNodeFindInClone(&ca, b, copy), CUDA_ERROR_INVALID_VALUE);     /* removed from the clone */
	/* the graph in DOT */
	char path[64], text[4096] = "";
	snprintf(path, sizeof path, "/tmp/ptxvm-graph-%d.dot", (int)getpid());
	OK(cuGraphDebugDotPrint(g, path, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
	FILE *f = fopen(path, "r");
	size_t got_bytes = f ? fread(text, 1, sizeof text - 1, f) : 0;
	if (f)
		fclose(f);
	unlink(path);
	text[got_bytes] = 0;
	CHECK(strstr(text, "digraph") && strstr(text, "->"), "the graph in DOT: %zu bytes", got_bytes);
	EXPECT(cuGraphDebugDotPrint(g, "/nonexistent-dir/graph.dot", 0), CUDA_ERROR_OPERATING_SYSTEM);
	EXPECT(cuGraphDebugDotPrint(g, NULL, 0), CUDA_ERROR_INVALID_VALUE);
	/* removing a node takes its edges with it; executable graphs made before keep it */
	OK(cuGraphDestroyNode(b));
	EXPECT(cuGraphDestroyNode(b), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphHostNodeGetParams(b, &cp), CUDA_ERROR_INVALID_VALUE);
	n = 4;
	OK(cuGraphGetNodes(g, got, &n));
	CHECK(n == 2 && ((got[0] == a && got[1] == c) || (got[0] == c && got[1] == a)), "two nodes left: %zu", n);
	n = 0;
	OK(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
	CHECK(n == 0, "no edge left: %zu", n);
	nran = 0;
	OK(cuGraphLaunch(ex, NULL));
	OK(cuCtxSynchronize());
	CHECK(nran == 3 && ran_before('C', 'A'), "the executable graph made before: %.*s", nran, ran);
	CUgraphExec ex2;
	OK(cuGraphInstantiate(&ex2, g, 0));
	nran = 0;
	OK(cuGraphLaunch(ex2, NULL));
	OK(cuCtxSynchronize());
	CHECK(nran == 2 && ran_before('A', 0) && ran_before('C', 0), "the graph now: %.*s", nran, ran);
	OK(cuGraphExecDestroy(ex2));
	OK(cuGraphExecDestroy(ex));
	/* a graph with memory nodes keeps its nodes and edges */
	CUgraph mem;
	CUgraphNode al, em;
	CUDA_MEM_ALLOC_NODE_PARAMS ap = alloc_params(64);
	OK(cuGraphCreate(&mem, 0));
	OK(cuGraphAddMemAllocNode(&al, mem, NULL, 0, &ap));
	OK(cuGraphAddEmptyNode(&em, mem, &al, 1));
	EXPECT(cuGraphRemoveDependencies(mem, &al, &em, NULL, 1), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphDestroyNode(em), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphDestroy(mem));
	OK(cuGraphDestroy(copy));
	OK(cuGraphDestroy(other));
	OK(cuGraphDestroy(g));
}

/* Graphs, their nodes and executable graphs destroyed in the orders a
 * program may choose, and what is refused on the way (not in the
 * graph_memory run for a GPU's driver: a host node's CUDA call is
 * undefined there). */
static CUgraphExec host_self;
static CUresult host_destroy_r;
static int host_hits;
static void destroy_own_exec(void *p)
{
	(void)p;
	host_destroy_r = cuGraphExecDestroy(host_self);
}
static void count_hit(void *p)
{
	(void)p;
	host_hits++;
}

/* An executable graph destroyed on another thread while it runs: the
 * first host node waits for the destruction, the second looks whether the
 * user object the graph holds went meanwhile. */
typedef struct InFlight {
	CUcontext ctx;
	CUgraphExec x;
	CUresult r;
} InFlight;
static volatile int flight_started, flight_destroyed, dtor_ran, dtor_in_flight = -1;
static void flight_wait(void *p)
{
	(void)p;
	__atomic_store_n(&flight_started, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 5000 && !__atomic_load_n(&flight_destroyed, __ATOMIC_SEQ_CST); i++)
		usleep(1000);
}
static void flight_look(void *p)
{
	(void)p;
	dtor_in_flight = __atomic_load_n(&dtor_ran, __ATOMIC_SEQ_CST);
}
static void flight_dtor(void *p)
{
	(void)p;
	__atomic_store_n(&dtor_ran, 1, __ATOMIC_SEQ_CST);
}
static void *flight_destroyer(void *arg)
{
	InFlight *f = arg;
	cuCtxSetCurrent(f->ctx);
	while (!__atomic_load_n(&flight_started, __ATOMIC_SEQ_CST))
		usleep(1000);
	f->r = cuGraphExecDestroy(f->x);
	__atomic_store_n(&flight_destroyed, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void graph_lifetimes(void)
{
	/* a host node may not destroy the executable graph it runs in: the
	   nodes after it still run */
	CUgraph g;
	CUgraphNode first, next;
	CUDA_HOST_NODE_PARAMS kill = { destroy_own_exec, NULL }, hit = { count_hit, NULL };
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddHostNode(&first, g, NULL, 0, &kill));
	for (int i = 0; i < 3; i++)
		OK(cuGraphAddHostNode(&next, g, &first, 1, &hit));
	OK(cuGraphInstantiate(&host_self, g, 0));
	host_hits = 0;
	host_destroy_r = CUDA_SUCCESS;
	OK(cuGraphLaunch(host_self, NULL));
	OK(cuCtxSynchronize());
	CHECK(host_destroy_r == CUDA_ERROR_NOT_PERMITTED && host_hits == 3,
	      "cuGraphExecDestroy from the graph's own host node: %d, %d nodes after it ran", (int)host_destroy_r,
	      host_hits);
	OK(cuGraphExecDestroy(host_self));              /* from the host, afterwards */
	EXPECT(cuGraphExecDestroy(host_self), CUDA_ERROR_INVALID_VALUE);
	/* a node's dependencies are each named once */
	CUgraphNode twice[2] = { first, first }, made;
	size_t n = 0;
	EXPECT(cuGraphAddEmptyNode(&made, g, twice, 2), CUDA_ERROR_INVALID_VALUE);
	OK(cuGraphGetNodes(g, NULL, &n));
	CHECK(n == 4, "a refused node is not added: %zu nodes", n);
	n = 0;
	OK(cuGraphGetEdges(g, NULL, NULL, NULL, &n));
	CHECK(n == 3, "nor its edges: %zu", n);
	OK(cuGraphDestroy(g));
	/* a child graph being captured into stays while the capture lasts:
	   neither its node nor its parent may be destroyed */
	CUgraph parent, child, inner, got = NULL;
	CUgraphNode cn;
	CUstream s;
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	OK(cuGraphCreate(&parent, 0));
	OK(cuGraphCreate(&child, 0));
	OK(cuGraphAddChildGraphNode(&cn, parent, NULL, 0, child));
	OK(cuGraphChildGraphNodeGetGraph(cn, &inner));
	OK(cuStreamBeginCaptureToGraph(s, inner, NULL, NULL, 0, CU_STREAM_CAPTURE_MODE_RELAXED));
	EXPECT(cuGraphDestroyNode(cn), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphDestroy(parent), CUDA_ERROR_INVALID_VALUE);
	OK(cuLaunchHostFunc(s, count_hit, NULL));
	OK(cuStreamEndCapture(s, &got));
	n = 0;
	OK(cuGraphGetNodes(inner, NULL, &n));
	CHECK(got == inner && n == 1, "the capture into the child graph ended with its node in it: %zu", n);
	OK(cuGraphDestroyNode(cn));                     /* once the capture is over */
	EXPECT(cuGraphGetNodes(inner, NULL, &n), CUDA_ERROR_INVALID_VALUE);     /* went with its node */
	OK(cuGraphDestroy(parent));
	OK(cuGraphDestroy(child));
	OK(cuStreamDestroy(s));
	/* destroyed in flight, it is freed when its run is done (CUDA's
	   words): the run goes on, and the user object goes after it */
	CUDA_HOST_NODE_PARAMS wait = { flight_wait, NULL }, look = { flight_look, NULL };
	CUuserObject uo;
	InFlight f = { .r = CUDA_ERROR_UNKNOWN };
	pthread_t t;
	OK(cuCtxGetCurrent(&f.ctx));
	OK(cuGraphCreate(&g, 0));
	OK(cuGraphAddHostNode(&first, g, NULL, 0, &wait));
	OK(cuGraphAddHostNode(&next, g, &first, 1, &look));
	OK(cuUserObjectCreate(&uo, NULL, flight_dtor, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	OK(cuGraphRetainUserObject(g, uo, 1, CU_GRAPH_USER_OBJECT_MOVE));
	OK(cuGraphInstantiate(&f.x, g, 0));
	OK(cuGraphDestroy(g));                          /* the executable graph holds the object alone */
	CHECK(!dtor_ran, "the user object stays with the executable graph");
	pthread_create(&t, NULL, flight_destroyer, &f);
	OK(cuGraphLaunch(f.x, NULL));
	pthread_join(t, NULL);
	CHECK(f.r == CUDA_SUCCESS && flight_destroyed && dtor_in_flight == 0 && dtor_ran,
	      "destroyed in flight: %d, the user object gone during the run %d, after it %d", (int)f.r,
	      dtor_in_flight, dtor_ran);
	EXPECT(cuGraphExecDestroy(f.x), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuGraphLaunch(f.x, NULL), CUDA_ERROR_INVALID_VALUE);
}

/* Unsafe calls during a capture (cuCtxSynchronize), as CUDA's rules for
 * the calling thread's capture interaction mode allow or refuse them. */
typedef struct Syncer {
	CUcontext ctx;
	CUstreamCaptureMode mode;       /* the thread's */
	CUresult r;
} Syncer;

static void *syncer(void *arg)
{
	Syncer *y = arg;
	cuCtxSetCurrent(y->ctx);
	CUstreamCaptureMode m = y->mode;
	cuThreadExchangeStreamCaptureMode(&m);
	y->r = cuCtxSynchronize();
	return NULL;
}

static CUresult sync_from_thread(CUcontext ctx, CUstreamCaptureMode mode)
{
	Syncer y = { ctx, mode, CUDA_ERROR_UNKNOWN };
	pthread_t t;
	if (pthread_create(&t, NULL, syncer, &y))
		return CUDA_ERROR_UNKNOWN;
	pthread_join(t, NULL);
	return y.r;
}

typedef struct Ender {
	CUcontext ctx;
	CUstream s;
	CUgraph g;
	CUresult r;
} Ender;

static void *ender(void *arg)
{
	Ender *x = arg;
	cuCtxSetCurrent(x->ctx);
	x->r = cuStreamEndCapture(x->s, &x->g);
	return NULL;
}

/* cuStreamEndCapture on another thread. */
static CUresult end_from_thread(CUcontext ctx, CUstream s, CUgraph *g)
{
	Ender x = { ctx, s, NULL, CUDA_ERROR_UNKNOWN };
	pthread_t t;
	if (pthread_create(&t, NULL, ender, &x))
		return CUDA_ERROR_UNKNOWN;
	pthread_join(t, NULL);
	*g = x.g;
	return x.r;
}

static void capture_modes(void)
{
	CUcontext ctx;
	CUstream s;
	CUdeviceptr d;
	CUgraph g;
	OK(cuCtxGetCurrent(&ctx));
	OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	OK(cuMemAlloc(&d, 64));
	CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;
	OK(cuThreadExchangeStreamCaptureMode(&m));
	CHECK(m == CU_STREAM_CAPTURE_MODE_GLOBAL, "a thread's mode is global at first (%d)", (int)m);
	OK(cuThreadExchangeStreamCaptureMode(&m));
	CHECK(m == CU_STREAM_CAPTURE_MODE_RELAXED, "the mode given back (%d)", (int)m);
	m = (CUstreamCaptureMode)3;
	EXPECT(cuThreadExchangeStreamCaptureMode(&m), CUDA_ERROR_INVALID_VALUE);
	EXPECT(cuThreadExchangeStreamCaptureMode(NULL), CUDA_ERROR_INVALID_VALUE);
	/* the capturing thread, in global mode: refused, the capture invalidated */
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(cuMemsetD8Async(d, 1, 64, s));
	EXPECT(cuCtxSynchronize(), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	EXPECT(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	/* in relaxed mode: allowed */
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	m = CU_STREAM_CAPTURE_MODE_RELAXED;
	OK(cuThreadExchangeStreamCaptureMode(&m));
	OK(cuCtxSynchronize());
	OK(cuThreadExchangeStreamCaptureMode(&m));
	OK(cuMemsetD8Async(d, 1, 64, s));
	OK(cuStreamEndCapture(s, &g));
	OK(cuGraphDestroy(g));
	/* another thread: a global capture refuses its unsafe calls unless its mode is thread-local or relaxed */
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(sync_from_thread(ctx, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	OK(sync_from_thread(ctx, CU_STREAM_CAPTURE_MODE_RELAXED));
	OK(cuMemsetD8Async(d, 1, 64, s));
	OK(cuStreamEndCapture(s, &g));
	OK(cuGraphDestroy(g));
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	EXPECT(sync_from_thread(ctx, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	EXPECT(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	/* a thread-local capture is no concern of other threads' */
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	OK(sync_from_thread(ctx, CU_STREAM_CAPTURE_MODE_GLOBAL));
	EXPECT(cuCtxSynchronize(), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);     /* but of its own thread's */
	EXPECT(cuStreamEndCapture(s, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	/* an event recorded in a capture in progress cannot be queried or waited for */
	CUevent ev;
	OK(cuEventCreate(&ev, 0));
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(cuMemsetD8Async(d, 1, 64, s));
	OK(cuEventRecord(ev, s));
	EXPECT(cuEventQuery(ev), CUDA_ERROR_CAPTURED_EVENT);
	EXPECT(cuEventSynchronize(ev), CUDA_ERROR_CAPTURED_EVENT);
	OK(cuStreamEndCapture(s, &g));                  /* not invalidated */
	OK(cuGraphDestroy(g));
	OK(cuEventRecord(ev, NULL));
	OK(cuEventQuery(ev));
	OK(cuEventDestroy(ev));
	/* a capture not begun relaxed ends on its own thread; a relaxed one anywhere */
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	OK(cuMemsetD8Async(d, 1, 64, s));
	EXPECT(end_from_thread(ctx, s, &g), CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
	OK(cuStreamEndCapture(s, &g));
	OK(cuGraphDestroy(g));
	OK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
	OK(cuMemsetD8Async(d, 1, 64, s));
	OK(end_from_thread(ctx, s, &g));
	OK(cuGraphDestroy(g));
	OK(cuMemFree(d));
	OK(cuStreamDestroy(s));
}

static void launch_ex(void)
{
	CUmodule m;
	CUfunction add;
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&add, m, "add"));
	int per = 0;
	OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per, add, 128, 0));
	CHECK(per == 16, "occupancy of 128-thread blocks: %d per SM (2048 threads)", per);
	OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per, add, 1024, 0));
	CHECK(per == 2, "occupancy of 1024-thread blocks: %d per SM", per);
	enum { N = 300 };
	float x[N], z[N];
	for (int i = 0; i < N; i++)
		x[i] = (float)i;
	CUdeviceptr dx, dz;
	OK(cuMemAlloc(&dx, sizeof x));
	OK(cuMemAlloc(&dz, sizeof z));
	OK(cuMemcpyHtoD(dx, x, sizeof x));
	unsigned n = N;
	void *args[] = { &dx, &dx, &dz, &n };
	CUlaunchAttribute at[2];
	memset(at, 0, sizeof at);
	at[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	at[0].value.priority = 0;
	at[1].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	at[1].value.cooperative = 1;
	CUlaunchConfig cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.gridDimX = 3;
	cfg.gridDimY = cfg.gridDimZ = 1;
	cfg.blockDimX = 128;
	cfg.blockDimY = cfg.blockDimZ = 1;
	cfg.attrs = at;
	cfg.numAttrs = 2;
	OK(cuLaunchKernelEx(&cfg, add, args, NULL));
	OK(cuMemcpyDtoH(z, dz, sizeof z));
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += z[i] != 2.0f * (float)i;
	CHECK(bad == 0, "cuLaunchKernelEx, cooperative: %d wrong", bad);
	at[1].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	at[1].value.clusterDim.x = 2;
	at[1].value.clusterDim.y = at[1].value.clusterDim.z = 1;
	cfg.gridDimX = 4;
	OK(cuMemsetD32(dz, 0, N));
	OK(cuLaunchKernelEx(&cfg, add, args, NULL));
	OK(cuMemcpyDtoH(z, dz, sizeof z));
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += z[i] != 2.0f * (float)i;
	CHECK(bad == 0, "cuLaunchKernelEx, clusters of 2 CTAs: %d wrong", bad);
	cfg.gridDimX = 3;       /* a cluster shape must divide the grid */
	CUresult r = cuLaunchKernelEx(&cfg, add, args, NULL);
	CHECK(r != CUDA_SUCCESS, "cuLaunchKernelEx: clusters of 2 in a grid of 3 CTAs ran");
	cfg.gridDimX = 4;
	at[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	at[0].value.cooperative = 1;
	EXPECT(cuLaunchKernelEx(&cfg, add, args, NULL), CUDA_ERROR_NOT_SUPPORTED);
	EXPECT(cuLaunchCooperativeKernel(add, 100000, 1, 1, 128, 1, 1, 0, NULL, args),
	       CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
	OK(cuMemFree(dx));
	OK(cuMemFree(dz));
	OK(cuModuleUnload(m));
}

/* cuLink* with a PTX input gives PTX that loads; cubins are refused. */
/* Texture and surface references: the .texref and .surfref variables of
 * a module (hand-written PTX: CUDA 12 removed texture references from the
 * language), bound to linear, pitched and array memory through cuTexRef*
 * and cuSurfRef*, with their sampler state, as launches see it. */
static const char refs_ptx[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".global .texref lin;\n"
	".global .texref img;\n"
	".global .surfref dst;\n"
	".visible .entry fetch(.param .u64 out, .param .u32 i)\n"
	"{\n"
	"	.reg .b32 %r<2>;\n"
	"	.reg .f32 %f<5>;\n"
	"	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	ld.param.u32 %r1, [i];\n"
	"	tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [lin, {%r1}];\n"
	"	st.global.f32 [%rd1], %f1;\n"
	"	ret;\n"
	"}\n"
	".visible .entry sample(.param .u64 out, .param .f32 x, .param .f32 y)\n"
	"{\n"
	"	.reg .f32 %f<7>;\n"
	"	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	ld.param.f32 %f5, [x];\n"
	"	ld.param.f32 %f6, [y];\n"
	"	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [img, {%f5, %f6}];\n"
	"	st.global.f32 [%rd1], %f1;\n"
	"	ret;\n"
	"}\n"
	".visible .entry write(.param .u32 x, .param .u32 y, .param .u32 v)\n"
	"{\n"
	"	.reg .b32 %r<5>;\n"
	"	ld.param.u32 %r1, [x];\n"
	"	ld.param.u32 %r2, [y];\n"
	"	ld.param.u32 %r3, [v];\n"
	"	shl.b32 %r4, %r1, 2;\n"
	"	sust.b.2d.b32.trap [dst, {%r4, %r2}], {%r3};\n"
	"	ret;\n"
	"}\n";

static float fetch_at(CUfunction f, CUdeviceptr out, unsigned i)
{
	float v = -1;
	void *args[] = { &out, &i };
	OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	OK(cuMemcpyDtoH(&v, out, 4));
	return v;
}

static float sample_at(CUfunction f, CUdeviceptr out, float x, float y)
{
	float v = -1;
	void *args[] = { &out, &x, &y };
	OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	OK(cuMemcpyDtoH(&v, out, 4));
	return v;
}

static void references(void)
{
	CUmodule m;
	CUfunction fetch, sample, write;
	CUtexref lin, img, again;
	CUsurfref dst, none;
	OK(cuModuleLoadData(&m, refs_ptx));
	OK(cuModuleGetFunction(&fetch, m, "fetch"));
	OK(cuModuleGetFunction(&sample, m, "sample"));
	OK(cuModuleGetFunction(&write, m, "write"));
	OK(cuModuleGetTexRef(&lin, m, "lin"));
	OK(cuModuleGetTexRef(&img, m, "img"));
	OK(cuModuleGetTexRef(&again, m, "lin"));
	CHECK(again == lin, "a module's texture reference is one handle");
	EXPECT(cuModuleGetTexRef(&again, m, "nope"), CUDA_ERROR_NOT_FOUND);
	EXPECT(cuModuleGetSurfRef(&none, m, "lin"), CUDA_ERROR_NOT_FOUND);
	OK(cuModuleGetSurfRef(&dst, m, "dst"));
	CUdeviceptr out, lindata;
	OK(cuMemAlloc(&out, 4));
	/* linear memory: tex1Dfetch of element i */
	float vals[16];
	for (int i = 0; i < 16; i++)
		vals[i] = (float)i * 1.5f;
	OK(cuMemAlloc(&lindata, sizeof vals));
	OK(cuMemcpyHtoD(lindata, vals, sizeof vals));
	OK(cuTexRefSetFormat(lin, CU_AD_FORMAT_FLOAT, 1));
	size_t off = 99;
	OK(cuTexRefSetAddress(&off, lin, lindata, sizeof vals));
	CHECK(off == 0, "no alignment offset (%zu)", off);
	CUdeviceptr got = 0;
	OK(cuTexRefGetAddress(&got, lin));
	CHECK(got == lindata, "the texture reference's address");
	float v = fetch_at(fetch, out, 5);
	CHECK(v == 7.5f, "tex1Dfetch through a reference to linear memory: %g, want 7.5", v);
	CUarray_format fmt;
	int nch = 0;
	OK(cuTexRefGetFormat(&fmt, &nch, lin));
	CHECK(fmt == CU_AD_FORMAT_FLOAT && nch == 1, "format %d x%d", (int)fmt, nch);
	/* a 4x4 float array, texel (x, y) = x + 10 y */
	float texels[4][4];
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++)
			texels[y][x] = (float)(x + 10 * y);
	CUDA_ARRAY_DESCRIPTOR ad = { 4, 4, CU_AD_FORMAT_FLOAT, 1 };
	CUarray arr;
	OK(cuArrayCreate(&arr, &ad));
	CUDA_MEMCPY2D c = { 0 };
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = texels;
	c.srcPitch = sizeof texels[0];
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = arr;
	c.WidthInBytes = sizeof texels[0];
	c.Height = 4;
	OK(cuMemcpy2D(&c));
	EXPECT(cuTexRefSetArray(img, arr, 2), CUDA_ERROR_INVALID_VALUE);
	OK(cuTexRefSetArray(img, arr, CU_TRSA_OVERRIDE_FORMAT));
	CUarray back;
	OK(cuTexRefGetArray(&back, img));
	CHECK(back == arr, "the texture reference's array");
	v = sample_at(sample, out, 1.5f, 2.5f);
	CHECK(v == 21.0f, "point sampling at (1.5, 2.5): %g, want 21", v);
	v = sample_at(sample, out, -3.0f, 2.5f);
	CHECK(v == 20.0f, "clamped by default at (-3, 2.5): %g, want 20", v);
	OK(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_LINEAR));
	CUfilter_mode fm;
	OK(cuTexRefGetFilterMode(&fm, img));
	CHECK(fm == CU_TR_FILTER_MODE_LINEAR, "filter mode %d", (int)fm);
	v = sample_at(sample, out, 1.0f, 2.5f);
	CHECK(v == 20.5f, "linear filtering between two texels: %g, want 20.5", v);
	OK(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_POINT));
	float border[4] = { 7, 7, 7, 7 }, bgot[4];
	OK(cuTexRefSetBorderColor(img, border));
	OK(cuTexRefGetBorderColor(bgot, img));
	CHECK(bgot[0] == 7, "border color %g", bgot[0]);
	OK(cuTexRefSetAddressMode(img, 0, CU_TR_ADDRESS_MODE_BORDER));
	CUaddress_mode am;
	OK(cuTexRefGetAddressMode(&am, img, 0));
	CHECK(am == CU_TR_ADDRESS_MODE_BORDER, "address mode %d", (int)am);
	v = sample_at(sample, out, -3.0f, 2.5f);
	CHECK(v == 7.0f, "the border color outside in x: %g, want 7", v);
	OK(cuTexRefSetAddressMode(img, 0, CU_TR_ADDRESS_MODE_CLAMP));
	OK(cuTexRefSetFlags(img, CU_TRSF_NORMALIZED_COORDINATES));
	unsigned flags = 0;
	OK(cuTexRefGetFlags(&flags, img));
	CHECK(flags == CU_TRSF_NORMALIZED_COORDINATES, "flags 0x%x", flags);
	v = sample_at(sample, out, 0.375f, 0.625f);
	CHECK(v == 21.0f, "normalized coordinates (0.375, 0.625): %g, want 21", v);
	OK(cuTexRefSetFlags(img, 0));
	/* pitched memory: the same texels, rows 512 bytes apart */
	CUdeviceptr pitched;
	size_t pitch = 0;
	OK(cuMemAllocPitch(&pitched, &pitch, sizeof texels[0], 4, 4));
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = pitched;
	c.dstPitch = pitch;
	OK(cuMemcpy2D(&c));
	OK(cuTexRefSetAddress2D(img, &ad, pitched, pitch));
	v = sample_at(sample, out, 2.5f, 3.5f);
	CHECK(v == 32.0f, "a reference to pitched memory at (2.5, 3.5): %g, want 32", v);
	/* a surface reference: sust writes the array */
	CUDA_ARRAY3D_DESCRIPTOR sd = { 4, 4, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST };
	CUarray sa;
	OK(cuArray3DCreate(&sa, &sd));
	EXPECT(cuSurfRefSetArray(dst, arr, 0), CUDA_ERROR_INVALID_VALUE);      /* not a surface array */
	OK(cuSurfRefSetArray(dst, sa, 0));
	OK(cuSurfRefGetArray(&back, dst));
	CHECK(back == sa, "the surface reference's array");
	unsigned x = 2, y = 3, val = 99, cells[4][4];
	void *wargs[] = { &x, &y, &val };
	OK(cuLaunchKernel(write, 1, 1, 1, 1, 1, 1, 0, NULL, wargs, NULL));
	CUDA_MEMCPY2D r = { 0 };
	r.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	r.srcArray = sa;
	r.dstMemoryType = CU_MEMORYTYPE_HOST;
	r.dstHost = cells;
	r.dstPitch = sizeof cells[0];
	r.WidthInBytes = sizeof cells[0];
	r.Height = 4;
	OK(cuMemcpy2D(&r));
	CHECK(cells[3][2] == 99, "sust through a surface reference wrote %u, want 99", cells[3][2]);
	/* references go with their module */
	OK(cuModuleUnload(m));
	EXPECT(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_POINT), CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuSurfRefGetArray(&back, dst), CUDA_ERROR_INVALID_HANDLE);
	OK(cuArrayDestroy(arr));
	OK(cuArrayDestroy(sa));
	OK(cuMemFree(out));
	OK(cuMemFree(lindata));
	OK(cuMemFree(pitched));
}

/* Several inputs linked as nvlink links relocatable PTX: main.ptx uses
 * a variable and a function lib.ptx defines; both define the .weak
 * helper and a private `secret` of their own, and number their .file 1. */
static const char link_main[] =
	".version 8.0\n"
	".target sm_80\n"
	".address_size 64\n"
	".file 1 \"main.cu\"\n"
	".extern .global .align 4 .u32 base;\n"
	".extern .func (.param .b32 r) twice (.param .b32 a);\n"
	".global .align 4 .u32 secret = 1;\n"
	".weak .func (.param .b32 r) helper (.param .b32 a)\n"
	"{\n"
	"	.reg .b32 %r<3>;\n"
	"	ld.param.b32 %r1, [a];\n"
	"	add.u32 %r2, %r1, 100;\n"
	"	st.param.b32 [r], %r2;\n"
	"	ret;\n"
	"}\n"
	".visible .entry linked(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<2>;\n"
	"	.loc 1 10 1\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	ld.global.u32 %r1, [base];\n"
	"	{\n"
	"	.param .b32 p0;\n"
	"	st.param.b32 [p0], %r1;\n"
	"	.param .b32 rv;\n"
	"	call.uni (rv), twice, (p0);\n"
	"	ld.param.b32 %r2, [rv];\n"
	"	}\n"
	"	{\n"
	"	.param .b32 p0;\n"
	"	st.param.b32 [p0], 0;\n"
	"	.param .b32 rv;\n"
	"	call.uni (rv), helper, (p0);\n"
	"	ld.param.b32 %r3, [rv];\n"
	"	}\n"
	"	ld.global.u32 %r4, [secret];\n"
	"	st.global.u32 [%rd1], %r2;\n"
	"	st.global.u32 [%rd1+4], %r3;\n"
	"	st.global.u32 [%rd1+8], %r4;\n"
	"	ret;\n"
	"}\n";

static const char link_lib[] =
	".version 8.3\n"
	".target sm_90\n"
	".address_size 64\n"
	".file 1 \"lib.cu\"\n"
	".visible .global .align 4 .u32 base = 21;\n"
	".global .align 4 .u32 secret = 2;\n"
	".weak .func (.param .b32 r) helper (.param .b32 a)\n"
	"{\n"
	"	.reg .b32 %r<3>;\n"
	"	ld.param.b32 %r1, [a];\n"
	"	add.u32 %r2, %r1, 100;\n"
	"	st.param.b32 [r], %r2;\n"
	"	ret;\n"
	"}\n"
	".visible .func (.param .b32 r) twice (.param .b32 a)\n"
	"{\n"
	"	.reg .b32 %r<5>;\n"
	"	.loc 1 3 1\n"
	"	ld.param.b32 %r1, [a];\n"
	"	ld.global.u32 %r2, [secret];\n"
	"	shl.b32 %r3, %r1, 1;\n"
	"	add.u32 %r4, %r3, %r2;\n"
	"	st.param.b32 [r], %r4;\n"
	"	ret;\n"
	"}\n";

/* A C++17 inline __device__ variable as nvcc writes it (.weak), in
 * several inputs, and a .visible definition of the same name. */
#define WEAK_PTX(kernel, def) \
	".version 8.0\n.target sm_90\n.address_size 64\n" def "\n" \
	".visible .entry " kernel "(.param .u64 out)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n" \
	"\tld.param.u64 %rd1, [out];\n\tld.global.u32 %r1, [shared_v];\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
static const char weak_a[] = WEAK_PTX("ka", ".weak .global .align 4 .u32 shared_v = 5;");
static const char weak_b[] = WEAK_PTX("kb", ".weak .global .align 4 .u32 shared_v = 5;");
static const char strong_c[] = WEAK_PTX("kc", ".visible .global .align 4 .u32 shared_v = 9;");

/* Links two inputs and runs kernel: the value it reads (-1: failed). */
static int weak_value(const char *a, size_t na, const char *b, size_t nb, const char *kernel)
{
	CUlinkState l;
	void *img;
	size_t sz;
	CUmodule m;
	CUfunction f;
	CUdeviceptr d;
	int v = -1;
	OK(cuLinkCreate(0, NULL, NULL, &l));
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)a, na, "a.ptx", 0, NULL, NULL));
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)b, nb, "b.ptx", 0, NULL, NULL));
	if (cuLinkComplete(l, &img, &sz) == CUDA_SUCCESS && cuModuleLoadData(&m, img) == CUDA_SUCCESS) {
		OK(cuModuleGetFunction(&f, m, kernel));
		OK(cuMemAlloc(&d, 4));
		void *args[] = { &d };
		OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		OK(cuMemcpyDtoH(&v, d, 4));
		OK(cuMemFree(d));
		OK(cuModuleUnload(m));
	}
	OK(cuLinkDestroy(l));
	return v;
}

static const char link_undefined[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".extern .func nothere ();\n"
	".extern .func (.param .b32 rv) vprintf (.param .b64 f, .param .b64 a);\n"
	".visible .entry calls()\n"
	"{\n"
	"	call.uni nothere, ();\n"
	"	ret;\n"
	"}\n";

/* A fat binary of one uncompressed PTX entry for compute_90 (the layout
 * src/cuda/fatbin.c describes). */
static size_t fatbin_of(const char *text, unsigned char *buf, size_t cap)
{
	size_t n = strlen(text) + 1, pad = (n + 7) & ~(size_t)7, total = 16 + 64 + pad;
	if (total > cap)
		return 0;
	memset(buf, 0, total);
	uint32_t magic = 0xba55ed50u, ehsz = 64, arch = 90;
	uint16_t version = 1, hsz = 16, kind = 1, minor = 0, major = 8;
	uint64_t size = 64 + pad, psz = pad, usz = n;
	memcpy(buf, &magic, 4);
	memcpy(buf + 4, &version, 2);
	memcpy(buf + 6, &hsz, 2);
	memcpy(buf + 8, &size, 8);
	unsigned char *e = buf + 16;
	memcpy(e, &kind, 2);
	memcpy(e + 4, &ehsz, 4);
	memcpy(e + 8, &psz, 8);
	memcpy(e + 24, &minor, 2);
	memcpy(e + 26, &major, 2);
	memcpy(e + 28, &arch, 4);
	memcpy(e + 56, &usz, 8);
	memcpy(e + 64, text, n);
	return total;
}

static void several_inputs(void)
{
	char err[1024], info[256];
	CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
			       CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
	void *val[] = { err, (void *)(uintptr_t)sizeof err, info, (void *)(uintptr_t)sizeof info };
	static unsigned char fat[8192];
	size_t fatsz = fatbin_of(link_lib, fat, sizeof fat);
	CHECK(fatsz > 0, "a fat binary of lib.ptx");
	/* PTX + PTX, and PTX + the same PTX in a fat binary */
	for (int form = 0; form < 2; form++) {
		CUlinkState l;
		OK(cuLinkCreate(4, opt, val, &l));
		OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)link_main, sizeof link_main, "main.ptx", 0, NULL, NULL));
		if (form == 0)
			OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)link_lib, sizeof link_lib, "lib.ptx", 0, NULL, NULL));
		else
			OK(cuLinkAddData(l, CU_JIT_INPUT_FATBINARY, fat, fatsz, "lib.fatbin", 0, NULL, NULL));
		void *img = NULL;
		size_t sz = 0;
		EXPECT(cuLinkComplete(l, &img, &sz), CUDA_SUCCESS);
		CHECK(strstr(info, "linked 2 inputs") != NULL, "the info log: '%s'", info);
		CUmodule m;
		CUfunction f;
		CUdeviceptr d;
		unsigned got[3] = { 0 };
		if (img && cuModuleLoadData(&m, img) == CUDA_SUCCESS) {
			OK(cuModuleGetFunction(&f, m, "linked"));
			OK(cuMemAlloc(&d, sizeof got));
			void *args[] = { &d };
			OK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
			OK(cuMemcpyDtoH(got, d, sizeof got));
			OK(cuMemFree(d));
			size_t bytes = 0;
			CUdeviceptr base;
			OK(cuModuleGetGlobal(&base, &bytes, m, "base"));
			CHECK(bytes == 4, "one variable base of 4 bytes (%zu)", bytes);
			OK(cuModuleUnload(m));
		} else {
			CHECK(0, "the linked PTX loads (form %d): %s", form, err);
		}
		/* twice(base) = 2 * 21 + lib's secret 2; helper(0) = 100; main's secret 1 */
		CHECK(got[0] == 44 && got[1] == 100 && got[2] == 1, "linked kernel gave %u %u %u, want 44 100 1", got[0],
		      got[1], got[2]);
		OK(cuLinkDestroy(l));
	}
	/* nvcc's relocatable PTX from files (tests/cuda-driver/link): kmain
	 * gives out[t] = (2 (t + 1) + 5) * 3 + 1000 */
	{
		CUlinkState l;
		void *img = NULL;
		size_t sz;
		int out[4] = { 0 };
		OK(cuLinkCreate(4, opt, val, &l));
		OK(cuLinkAddFile(l, CU_JIT_INPUT_PTX, "tests/cuda-driver/link/main.rdc.ptx", 0, NULL, NULL));
		OK(cuLinkAddFile(l, CU_JIT_INPUT_PTX, "tests/cuda-driver/link/lib.rdc.ptx", 0, NULL, NULL));
		OK(cuLinkComplete(l, &img, &sz));
		CUmodule m;
		CUfunction f;
		CUdeviceptr d;
		if (img && cuModuleLoadData(&m, img) == CUDA_SUCCESS) {
			OK(cuModuleGetFunction(&f, m, "kmain"));
			OK(cuMemAlloc(&d, sizeof out));
			void *args[] = { &d };
			OK(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL));
			OK(cuMemcpyDtoH(out, d, sizeof out));
			OK(cuMemFree(d));
			OK(cuModuleUnload(m));
		}
		CHECK(out[0] == 1021 && out[1] == 1027 && out[3] == 1039, "nvcc's relocatable PTX linked: %d %d %d %d",
		      out[0], out[1], out[2], out[3]);
		OK(cuLinkDestroy(l));
	}
	/* kernels that launch grids, linked with libcudadevrt.a, which adds
	 * nothing (ptxvm provides the device runtime): cdp_mid<<<2, 1>>>(a, 0)
	 * launches cdp_add<<<2, 32>>>(a, 1 + block) from each block, so each
	 * of 64 elements gets 1 + 2 */
	{
		CUlinkState l;
		void *img = NULL;
		size_t sz;
		int out[64] = { 0 };
		static const char empty_ar[] = "!<arch>\n";
		OK(cuLinkCreate(4, opt, val, &l));
		OK(cuLinkAddFile(l, CU_JIT_INPUT_PTX, "tests/ptx/cdp.rdc.ptx", 0, NULL, NULL));
		OK(cuLinkAddData(l, CU_JIT_INPUT_LIBRARY, (void *)empty_ar, 8, "/usr/local/cuda/lib64/libcudadevrt.a", 0,
				 NULL, NULL));
		OK(cuLinkComplete(l, &img, &sz));
		CUmodule m;
		CUfunction f;
		CUdeviceptr d;
		if (img && cuModuleLoadData(&m, img) == CUDA_SUCCESS) {
			OK(cuModuleGetFunction(&f, m, "cdp_mid"));
			OK(cuMemAlloc(&d, sizeof out));
			OK(cuMemsetD8(d, 0, sizeof out));
			int depth = 0;
			void *args[] = { &d, &depth };
			OK(cuLaunchKernel(f, 2, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
			OK(cuMemcpyDtoH(out, d, sizeof out));
			OK(cuMemFree(d));
			OK(cuModuleUnload(m));
		} else {
			CHECK(0, "the link's output, which calls the device runtime, does not load");
		}
		CHECK(out[0] == 3 && out[63] == 3, "device launches linked with libcudadevrt: %d %d, want 3 3", out[0],
		      out[63]);
		OK(cuLinkDestroy(l));
		/* the same PTX, not linked, is a whole program with unresolved calls */
		char *text;
		size_t tl;
		FILE *fp = fopen("tests/ptx/cdp.rdc.ptx", "rb");
		text = fp ? malloc(1 << 20) : NULL;
		tl = text ? fread(text, 1, (1 << 20) - 1, fp) : 0;
		if (fp)
			fclose(fp);
		if (text) {
			text[tl] = 0;
			EXPECT(cuModuleLoadData(&m, text), CUDA_ERROR_INVALID_PTX);
			free(text);
		}
	}
	/* host objects of nvcc -dc: an object and an archive (run.sh makes
	 * them from the same sources where nvcc is) */
	const char *objs = getenv("PTXVM_TEST_OBJECTS");
	char obj[512], lib[512];
	if (objs && sscanf(objs, "%511s %511s", obj, lib) == 2) {
		CUlinkState l;
		void *img = NULL;
		size_t sz;
		int out[4] = { 0 };
		OK(cuLinkCreate(4, opt, val, &l));
		OK(cuLinkAddFile(l, CU_JIT_INPUT_OBJECT, obj, 0, NULL, NULL));
		OK(cuLinkAddFile(l, CU_JIT_INPUT_LIBRARY, lib, 0, NULL, NULL));
		OK(cuLinkComplete(l, &img, &sz));
		CUmodule m;
		CUfunction f;
		CUdeviceptr d;
		if (img && cuModuleLoadData(&m, img) == CUDA_SUCCESS) {
			OK(cuModuleGetFunction(&f, m, "kmain"));
			OK(cuMemAlloc(&d, sizeof out));
			void *args[] = { &d };
			OK(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL));
			OK(cuMemcpyDtoH(out, d, sizeof out));
			OK(cuMemFree(d));
			OK(cuModuleUnload(m));
		}
		CHECK(out[0] == 1021 && out[3] == 1039, "an object and an archive linked: %d %d %d %d", out[0], out[1],
		      out[2], out[3]);
		EXPECT(cuLinkAddData(l, CU_JIT_INPUT_LIBRARY, (void *)link_lib, sizeof link_lib, "x.a", 0, NULL, NULL),
		       CUDA_ERROR_INVALID_IMAGE);
		EXPECT(cuLinkAddData(l, CU_JIT_INPUT_OBJECT, (void *)link_lib, sizeof link_lib, "x.o", 0, NULL, NULL),
		       CUDA_ERROR_INVALID_IMAGE);
		OK(cuLinkDestroy(l));
	} else {
		printf("cuda-driver: no host objects (PTXVM_TEST_OBJECTS, made by run.sh with nvcc): cuLink of objects "
		       "and archives not tested\n");
	}
	/* weak variables: one of them is kept, and a .visible one wins */
	int w = weak_value(weak_a, sizeof weak_a, weak_b, sizeof weak_b, "kb");
	CHECK(w == 5, "a .weak variable in two inputs: %d, want 5", w);
	w = weak_value(weak_a, sizeof weak_a, strong_c, sizeof strong_c, "ka");
	CHECK(w == 9, "a .weak variable and a .visible one after it: %d, want 9", w);
	w = weak_value(strong_c, sizeof strong_c, weak_a, sizeof weak_a, "ka");
	CHECK(w == 9, "a .visible variable and a .weak one after it: %d, want 9", w);
	/* nvlink's errors, in the error log */
	CUlinkState l;
	void *img;
	size_t sz;
	OK(cuLinkCreate(2, opt, val, &l));
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)link_main, sizeof link_main, "main.ptx", 0, NULL, NULL));
	EXPECT(cuLinkComplete(l, &img, &sz), CUDA_ERROR_UNKNOWN);
	CHECK(strstr(err, "Undefined reference to 'base' in 'main.ptx'") != NULL, "undefined variable: '%s'", err);
	OK(cuLinkDestroy(l));
	OK(cuLinkCreate(2, opt, val, &l));
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)link_undefined, sizeof link_undefined, "u.ptx", 0, NULL, NULL));
	EXPECT(cuLinkComplete(l, &img, &sz), CUDA_ERROR_UNKNOWN);
	CHECK(strstr(err, "Undefined reference to 'nothere' in 'u.ptx'") != NULL && !strstr(err, "vprintf"),
	      "undefined function (vprintf is the device's): '%s'", err);
	OK(cuLinkDestroy(l));
	OK(cuLinkCreate(2, opt, val, &l));
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)link_lib, sizeof link_lib, "lib.ptx", 0, NULL, NULL));
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)link_lib, sizeof link_lib, "lib2.ptx", 0, NULL, NULL));
	EXPECT(cuLinkComplete(l, &img, &sz), CUDA_ERROR_UNKNOWN);
	CHECK(strstr(err, "Multiple definition of 'twice' in 'lib2.ptx', first defined in 'lib.ptx'") != NULL,
	      "duplicate definition: '%s'", err);
	OK(cuLinkDestroy(l));
	/* a PTX error is the input's, when it is added */
	OK(cuLinkCreate(2, opt, val, &l));
	static const char bad[] = ".version 8.0\n.target sm_90\n.address_size 64\nbogus;\n";
	EXPECT(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)bad, sizeof bad - 1, "bad.ptx", 0, NULL, NULL),
	       CUDA_ERROR_INVALID_PTX);
	CHECK(strstr(err, "bad.ptx:4") != NULL, "the PTX error names its input and line: '%s'", err);
	OK(cuLinkDestroy(l));
}

static void linking(void)
{
	CUlinkState l;
	char err[256] = "x";
	CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *val[] = { err, (void *)(uintptr_t)sizeof err };
	OK(cuLinkCreate(2, opt, val, &l));
	CHECK(err[0] == 0, "the error log starts empty");
	OK(cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)ptx, sizeof ptx, "k.ptx", 0, NULL, NULL));
	void *image = NULL;
	size_t size = 0;
	OK(cuLinkComplete(l, &image, &size));
	CUmodule m;
	CUfunction f;
	OK(cuModuleLoadData(&m, image));
	OK(cuModuleGetFunction(&f, m, "add"));
	OK(cuModuleUnload(m));
	OK(cuLinkDestroy(l));
	OK(cuLinkCreate(2, opt, val, &l));
	EXPECT(cuLinkAddData(l, CU_JIT_INPUT_CUBIN, "\177ELF", 4, "k.cubin", 0, NULL, NULL), CUDA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(err, "PTX") != NULL, "the error log says why: '%s'", err);
	OK(cuLinkDestroy(l));
	EXPECT(cuLinkDestroy(l), CUDA_ERROR_INVALID_HANDLE);
	several_inputs();
}

static void errors(void)
{
	const char *s = NULL;
	OK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
	CHECK(s && !strcmp(s, "CUDA_ERROR_ILLEGAL_ADDRESS"), "name %s", s ? s : "(null)");
	OK(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s));
	CHECK(s && *s, "a description");
	EXPECT(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
}

static void proc(void)
{
	void *fn = NULL;
	CUdriverProcAddressQueryResult st;
	OK(cuGetProcAddress("cuMemAlloc", &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
	CHECK(fn == (void *)cuMemAlloc && st == CU_GET_PROC_ADDRESS_SUCCESS, "cuMemAlloc is cuMemAlloc_v2");
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	CHECK(lib != NULL, "libcuda.so.1 is loaded");
	OK(cuGetProcAddress("cuMemAlloc", &fn, 3000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
	CHECK(lib && fn == dlsym(lib, "cuMemAlloc"), "cuMemAlloc as of 3.0 is the legacy symbol");
	OK(cuGetProcAddress("cuLaunchKernel", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
	CHECK(lib && fn == dlsym(lib, "cuLaunchKernel_ptsz"), "per-thread cuLaunchKernel is _ptsz");
	OK(cuGetProcAddress("cuMemcpyHtoD", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
	CHECK(lib && fn == dlsym(lib, "cuMemcpyHtoD_v2_ptds"), "per-thread cuMemcpyHtoD is _v2_ptds");
	OK(cuGetProcAddress("cuCtxCreate", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
	CHECK(lib && fn == dlsym(lib, "cuCtxCreate_v4"), "cuCtxCreate is _v4");
	EXPECT(cuGetProcAddress("cuNoSuchThing", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st), CUDA_ERROR_NOT_FOUND);
	CHECK(st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND && !fn, "unknown name");
	EXPECT(cuGetProcAddress("cuMemAllocAsync", &fn, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &st), CUDA_ERROR_NOT_FOUND);
	CHECK(st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, "a function newer than the version asked");
	/* every name the export list has resolves at 13.0 */
	EXPECT(cuGraphKernelNodeCopyAttributes(NULL, NULL), CUDA_ERROR_NOT_SUPPORTED);
	EXPECT(cuGraphKernelNodeCopyAttributes(NULL, NULL), CUDA_ERROR_NOT_SUPPORTED); /* named on stderr once (run.sh) */
	if (lib)
		dlclose(lib);
}

/* A fault in a context: the launch fails, and so does every later call in
 * it, until it is destroyed; other contexts go on. */
static void sticky(CUcontext primary)
{
	CUmodule m;
	CUfunction fault;
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&fault, m, "fault"));
	CUcontext c;
	OK(cuCtxCreate(&c, NULL, 0, 0));
	CUmodule m2;
	OK(cuModuleLoadData(&m2, ptx));
	OK(cuModuleGetFunction(&fault, m2, "fault"));
	CUdeviceptr wild = 0x10;
	void *args[] = { &wild };
	printf("(a fault report is expected on stderr)\n");
	fflush(stdout);
	EXPECT(cuLaunchKernel(fault, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
	EXPECT(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
	CUdeviceptr p;
	EXPECT(cuMemAlloc(&p, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
	OK(cuCtxDestroy(c));
	OK(cuCtxSetCurrent(primary));
	OK(cuMemAlloc(&p, 16));
	OK(cuMemFree(p));
	OK(cuModuleUnload(m));
}

/* Device printf through the driver: held until a synchronisation point.
 * CU_LIMIT_PRINTF_FIFO_SIZE is made at least 512 KiB and a multiple of
 * 2 KiB, as by an H200's driver, so a FIFO asked for 100 bytes keeps all
 * that 32 threads print ("line NN\n", 8 bytes each), in thread order (a
 * FIFO that overflows: t_hostile's fifo group, through the C API).  stdout
 * is sent to a file meanwhile. */
static const char printf_ptx[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".extern .func (.param .b32 rv) vprintf (.param .b64 f, .param .b64 a);\n"
	".global .align 1 .b8 fmt[11] = {108, 105, 110, 101, 32, 37, 48, 50, 100, 10, 0};\n"
	".visible .entry say()\n"
	"{\n"
	"	.local .align 8 .b8 buf[8];\n"
	"	.reg .b32 %r<3>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	st.local.u32 [buf], %r1;\n"
	"	mov.u64 %rd1, fmt;\n"
	"	cvta.global.u64 %rd2, %rd1;\n"
	"	mov.u64 %rd1, buf;\n"
	"	cvta.local.u64 %rd3, %rd1;\n"
	"	{\n"
	"	.param .b64 p0;\n"
	"	.param .b64 p1;\n"
	"	.param .b32 r;\n"
	"	st.param.b64 [p0], %rd2;\n"
	"	st.param.b64 [p1], %rd3;\n"
	"	call.uni (r), vprintf, (p0, p1);\n"
	"	}\n"
	"	ret;\n"
	"}\n";

static long out_size(void)
{
	fflush(stdout);
	return lseek(1, 0, SEEK_END);
}

static void device_printf(void)
{
	CUmodule m;
	CUfunction say;
	OK(cuModuleLoadData(&m, printf_ptx));
	OK(cuModuleGetFunction(&say, m, "say"));
	size_t fifo = 0;
	OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 600000));
	OK(cuCtxGetLimit(&fifo, CU_LIMIT_PRINTF_FIFO_SIZE));
	CHECK(fifo == 600064, "a printf FIFO asked for 600000 bytes holds %zu, want 600064", fifo);
	OK(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 100));
	OK(cuCtxGetLimit(&fifo, CU_LIMIT_PRINTF_FIFO_SIZE));
	CHECK(fifo == 524288, "a printf FIFO asked for 100 bytes holds %zu, want 524288", fifo);
	FILE *f = tmpfile();
	fflush(stdout);
	int saved = dup(1);
	if (!f || saved < 0 || dup2(fileno(f), 1) < 0) {
		CHECK(0, "stdout cannot be sent to a file");
		return;
	}
	OK(cuLaunchKernel(say, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
	long before = out_size();
	OK(cuStreamQuery(NULL));
	long query = out_size();
	OK(cuCtxSynchronize());
	long after = out_size();
	EXPECT(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20), CUDA_ERROR_INVALID_VALUE);
	dup2(saved, 1);
	close(saved);
	char got[512] = "", want[512] = "";
	ssize_t n = pread(fileno(f), got, sizeof got - 1, 0);
	got[n > 0 ? n : 0] = 0;
	fclose(f);
	for (int i = 0; i < 32; i++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "line %02d\n", i);
	CHECK(before == 0 && query == 0, "device printf appeared before a synchronisation (%ld, %ld bytes)", before,
	      query);
	CHECK(after == 256 && strcmp(got, want) == 0, "cuCtxSynchronize wrote %ld bytes, want the 32 lines:\n%s",
	      after, got);
	OK(cuModuleUnload(m));
}

/* A context another thread has current is destroyed: that thread's calls
 * get CUDA_ERROR_CONTEXT_IS_DESTROYED, never reach freed memory. */
static pthread_barrier_t gone;
static CUcontext doomed;
static CUresult after_destroy;

static void *holder(void *arg)
{
	(void)arg;
	cuCtxSetCurrent(doomed);
	pthread_barrier_wait(&gone);    /* current here */
	pthread_barrier_wait(&gone);    /* destroyed by main */
	CUdeviceptr p;
	after_destroy = cuMemAlloc(&p, 16);
	return NULL;
}

/* Destroyed objects are freed and their handles refused: a stale handle
 * stays refused when its memory is reused, and creating and destroying
 * without end does not grow the process. */
static void lifetimes(CUcontext primary)
{
	CUevent e, e2;
	OK(cuEventCreate(&e, 0));
	OK(cuEventDestroy(e));
	OK(cuEventCreate(&e2, 0));
	EXPECT(cuEventRecord(e, NULL), CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuEventDestroy(e), CUDA_ERROR_INVALID_HANDLE);
	OK(cuEventRecord(e2, NULL));
	OK(cuEventDestroy(e2));
	CUstream s;
	OK(cuStreamCreate(&s, 0));
	OK(cuStreamDestroy(s));
	EXPECT(cuStreamDestroy(s), CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuEventRecord(e, (CUstream)e), CUDA_ERROR_INVALID_HANDLE);      /* an event is no stream */

	/* 100,000 events and streams: the heap in use after them is what it
	 * was before (mallinfo2; under a sanitizer, which has its own
	 * allocator, LeakSanitizer checks instead) */
	for (int i = 0; i < 1000; i++) {
		cuEventCreate(&e, 0);
		cuEventDestroy(e);
	}
	size_t before = mallinfo2().uordblks;
	int bad = 0;
	for (int i = 0; i < 100000; i++) {
		bad |= cuEventCreate(&e, i & 1 ? CU_EVENT_DISABLE_TIMING : 0) || cuEventRecord(e, NULL) ||
		       cuStreamCreate(&s, 0) || cuEventDestroy(e) || cuStreamDestroy(s);
	}
	/* and 10,000 contexts, 300 modules with their functions, libraries and links */
	CUcontext cur;
	cuCtxGetCurrent(&cur);
	for (int i = 0; i < 10000; i++) {
		CUcontext c;
		bad |= cuCtxCreate(&c, NULL, 0, 0) || cuCtxDestroy(c);
	}
	cuCtxSetCurrent(cur);
	for (int i = 0; i < 300; i++) {
		CUmodule m;
		CUfunction f;
		CUlibrary lib;
		CUlinkState l;
		void *img;
		size_t sz;
		bad |= cuModuleLoadData(&m, ptx) || cuModuleGetFunction(&f, m, "add") || cuModuleUnload(m) ||
		       cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0) || cuLibraryUnload(lib) ||
		       cuLinkCreate(0, NULL, NULL, &l) ||
		       cuLinkAddData(l, CU_JIT_INPUT_PTX, (void *)ptx, sizeof ptx, "k.ptx", 0, NULL, NULL) ||
		       cuLinkComplete(l, &img, &sz) || cuLinkDestroy(l);
	}
	size_t after = mallinfo2().uordblks;
	CHECK(!bad, "creating and destroying objects failed");
	if (before)
		CHECK(after < before + 65536, "creating and destroying objects grew the heap from %zu to %zu bytes",
		      before, after);
	else
		printf("cuda-driver: mallinfo2 reports no heap (a sanitizer's allocator): growth checked by LeakSanitizer\n");

	/* modules, functions, libraries */
	CUmodule m;
	CUfunction f;
	OK(cuModuleLoadData(&m, ptx));
	OK(cuModuleGetFunction(&f, m, "bump"));
	OK(cuModuleUnload(m));
	EXPECT(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuModuleGetFunction(&f, m, "bump"), CUDA_ERROR_INVALID_HANDLE);
	CUlibrary lib;
	CUkernel k;
	OK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
	OK(cuLibraryGetKernel(&k, lib, "bump"));
	OK(cuLibraryUnload(lib));
	EXPECT(cuLibraryGetKernel(&k, lib, "bump"), CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuLibraryUnload(lib), CUDA_ERROR_INVALID_HANDLE);
	EXPECT(cuLaunchKernel((CUfunction)k, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_HANDLE);

	/* contexts */
	CUcontext c;
	OK(cuCtxCreate(&c, NULL, 0, 0));
	OK(cuModuleLoadData(&m, ptx));          /* freed with its context */
	OK(cuCtxDestroy(c));
	EXPECT(cuCtxDestroy(c), CUDA_ERROR_INVALID_CONTEXT);
	EXPECT(cuCtxSetCurrent(c), CUDA_ERROR_INVALID_CONTEXT);
	EXPECT(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
	OK(cuCtxCreate(&doomed, NULL, 0, 0));
	OK(cuCtxSetCurrent(primary));
	pthread_barrier_init(&gone, NULL, 2);
	pthread_t t;
	pthread_create(&t, NULL, holder, NULL);
	pthread_barrier_wait(&gone);
	OK(cuCtxDestroy(doomed));
	pthread_barrier_wait(&gone);
	pthread_join(t, NULL);
	pthread_barrier_destroy(&gone);
	EXPECT(after_destroy, CUDA_ERROR_CONTEXT_IS_DESTROYED);
	OK(cuCtxSetCurrent(primary));
}

/* CU_LIMIT_STACK_SIZE: each thread's call stack, honoured by launches.
 * 20,000 bytes of alloca overflow a 16 KiB stack (a sticky
 * CUDA_ERROR_HARDWARE_STACK_ERROR, in a context made for it) and fit in
 * 64 KiB; the size rounds up to 16 bytes, and more than a thread's 512 KiB
 * of local memory is refused. */
static const char stack_ptx[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".visible .entry big(.param .u64 n)\n"
	"{\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [n];\n"
	"	alloca.u64 %rd2, %rd1;\n"
	"	st.local.u32 [%rd2], 1;\n"
	"	ret;\n"
	"}\n";

static void stack_limit(CUcontext primary)
{
	size_t was = 0, v = 0;
	OK(cuCtxGetLimit(&was, CU_LIMIT_STACK_SIZE));
	CUcontext c;
	CUmodule m;
	CUfunction big;
	unsigned long long n = 20000;
	void *args[] = { &n };
	OK(cuCtxCreate(&c, NULL, 0, 0));
	OK(cuModuleLoadData(&m, stack_ptx));
	OK(cuModuleGetFunction(&big, m, "big"));
	OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 16384));
	printf("(a stack overflow report is expected on stderr)\n");
	fflush(stdout);
	EXPECT(cuLaunchKernel(big, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_ERROR_HARDWARE_STACK_ERROR);
	OK(cuCtxDestroy(c));
	OK(cuCtxSetCurrent(primary));
	OK(cuModuleLoadData(&m, stack_ptx));
	OK(cuModuleGetFunction(&big, m, "big"));
	OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 65530));
	OK(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK(v == 65536, "a stack of 65,530 bytes is %zu", v);
	OK(cuLaunchKernel(big, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	EXPECT(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, (512 << 10) + 1), CUDA_ERROR_INVALID_VALUE);
	OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, was));
	OK(cuModuleUnload(m));
}

/* The device is PTXVM_ARCH's: its compute capability and the shared
 * memory a block may opt in to (the CUDA Programming Guide's table);
 * tests/t_devrt.c checks that kernels see the same table. */
static void attributes(void)
{
	const char *arch = getenv("PTXVM_ARCH");
	int want = arch && !strncmp(arch, "sm_", 3) ? atoi(arch + 3) : 90, major = 0, minor = 0, optin = 0, sms = 0;
	int want_optin = want == 80 ? 163 << 10 : want == 86 || want == 89 || want == 120 ? 99 << 10 : 227 << 10;
	OK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
	OK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
	CHECK(major * 10 + minor == want, "compute capability %d.%d, want %d.%d", major, minor, want / 10, want % 10);
	OK(cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 0));
	CHECK(optin == want_optin, "opt-in shared memory %d, want %d", optin, want_optin);
	OK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	CHECK(sms == sysconf(_SC_NPROCESSORS_ONLN), "%d multiprocessors, want one per core", sms);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "attributes")) {       /* run.sh, for each of several PTXVM_ARCH */
		OK(cuInit(0));
		attributes();
		printf("cuda-driver: %d passed, %d failed\n", passed, failed);
		return failed != 0;
	}
	if (argc > 1 && !strcmp(argv[1], "graph_memory")) {     /* the graphs alone, to run on a GPU's driver too */
		CUcontext ctx;
		OK(cuInit(0));
		OK(cuDevicePrimaryCtxRetain(&ctx, 0));
		OK(cuCtxSetCurrent(ctx));
		graph_memory();
		device_graphs();
		child_graphs();
		conditional_nodes();
		device_updatable();
		node_params();
		exec_params();
		exec_update();
		graph_editing();
		capture_modes();
		printf("cuda-driver: %d passed, %d failed\n", passed, failed);
		return failed != 0;
	}
	CUcontext primary;
	EXPECT(cuDeviceGetCount(&(int){ 0 }), CUDA_ERROR_NOT_INITIALIZED);
	OK(cuInit(0));
	devices();
	contexts(&primary);
	device_printf();
	copies();
	arrays();
	references();
	modules();
	streams();
	graph_memory();
	device_graphs();
	child_graphs();
	conditional_nodes();
	device_updatable();
	node_params();
	exec_params();
	exec_update();
	graph_editing();
	graph_lifetimes();
	capture_modes();
	launch_ex();
	linking();
	errors();
	proc();
	sticky(primary);
	lifetimes(primary);
	stack_limit(primary);
	attributes();
	OK(cuDevicePrimaryCtxRelease(0));
	printf("cuda-driver: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
