/* device.c: cuInit, versions, and the one device: its name, compute
 * capability (sm_90, or the target PTXVM_ARCH names), attributes, UUID and
 * properties. */
#include "cu.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

CuDevice cu_dev;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CUresult init_result = CUDA_ERROR_NOT_INITIALIZED;
static _Atomic int initialised;         /* 1 after cuInit, -1 after the teardown at exit */

enum { DRIVER_VERSION = 13000 };        /* the CUDA API this library implements */

void cu_log(const char *fmt, ...)
{
	static int on = -1;
	if (on < 0) {
		const char *e = getenv("PTXVM_LOG");
		on = e && *e && strcmp(e, "0");
	}
	if (!on)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("ptxvm cuda: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cu_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("ptxvm cuda: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

CUresult cu_unsupported(const char *name, _Atomic int *said)
{
	if (!atomic_exchange(said, 1))
		cu_log("%s is not supported: CUDA_ERROR_NOT_SUPPORTED", name);
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* The compute capability of a target name, "sm_90a" -> 9.0; false when
 * ptxvm does not know the target. */
static int arch_cc(const char *arch, unsigned *major, unsigned *minor)
{
	ptxvm_check_opts o = { .arch = arch };
	ptxvm_module *m = ptxvm_module_load("arch", "", 0, &o);
	if (!m)
		return 0;
	ptxvm_module_free(m);
	unsigned n = (unsigned)strtoul(arch + 3, NULL, 10);
	*major = n / 10;
	*minor = n % 10;
	return strncmp(arch, "sm_", 3) == 0 && n >= 10;
}

/* With checks, the leak report and the ERROR SUMMARY when the program
 * ends, as compute-sanitizer writes them. */
static void check_finish(void) { ptxvm_device_check_finish(cu_dev.dev); }

static void init(void)
{
	const char *arch = getenv("PTXVM_ARCH");
	if (!arch || !*arch)
		arch = "sm_90";
	if (!arch_cc(arch, &cu_dev.major, &cu_dev.minor)) {
		cu_warn("PTXVM_ARCH=%s is not a target ptxvm knows (sm_90, sm_80, ...)", arch);
		init_result = CUDA_ERROR_INVALID_VALUE;
		return;
	}
	/* a GPU runs the arch-specific code of its own architecture (sm_90a
	 * on a 9.0 device): modules are checked for that target */
	static char specific[32];
	unsigned ma, mi;
	snprintf(specific, sizeof specific, "%sa", arch);
	cu_dev.arch = isdigit((unsigned char)arch[strlen(arch) - 1]) && arch_cc(specific, &ma, &mi) ? specific : arch;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	cu_dev.total_mem = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : (size_t)16 << 30;
	/* PTXVM_CHECK: the checks (docs/CHECKS.md); the device is the
	 * arch-specific target too, so that it runs sm_90a code */
	cu_dev.dev = ptxvm_device_create(&(ptxvm_device_opts){ .printf_stream = cu_printf_stream(),
							       .arch = cu_dev.arch });
	init_result = cu_dev.dev ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
	if (cu_dev.dev && ptxvm_device_checks(cu_dev.dev))
		atexit(check_finish);
	if (!init_result)
		atomic_store(&initialised, 1);
}

CUresult cuInit(unsigned flags)
{
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_once(&init_once, init);
	return init_result;
}

CUresult cu_ready(void)
{
	int i = atomic_load(&initialised);
	return i > 0 ? CUDA_SUCCESS : i < 0 ? CUDA_ERROR_DEINITIALIZED : CUDA_ERROR_NOT_INITIALIZED;
}

/* When the process exits (or the library is unloaded), after the
 * program's atexit handlers, where NVIDIA's runtime releases what it
 * holds: the device with its memory and programs, then every object
 * still named by a handle.  A later call gets CUDA_ERROR_DEINITIALIZED
 * (or CUDA_ERROR_INVALID_HANDLE), as from the real driver at exit. */
__attribute__((destructor)) static void teardown(void)
{
	if (atomic_exchange(&initialised, -1) <= 0)
		return;
	ptxvm_device_destroy(cu_dev.dev);
	cu_dev.dev = NULL;
	cu_obj_teardown();
	cu_gmem_teardown();
}

CUresult cuDriverGetVersion(int *v)
{
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	*v = DRIVER_VERSION;
	return CUDA_SUCCESS;
}

#define DEVICE_CHECK(dev) do { \
	if (cu_ready()) return CUDA_ERROR_NOT_INITIALIZED; \
	if ((dev) != 0) return CUDA_ERROR_INVALID_DEVICE; } while (0)

CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (ordinal != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	*d = 0;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *n)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	*n = 1;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(name, (size_t)len, "ptxvm");
	return CUDA_SUCCESS;
}

/* A fixed UUID: "ptxvm" and the compute capability, as a version-4 UUID. */
static void uuid(unsigned char out[16])
{
	static const unsigned char u[16] = { 'p', 't', 'x', 'v', 'm', 0, 0x40, 0, 0x80 };
	memcpy(out, u, 16);
	out[7] = (unsigned char)(cu_dev.major * 10 + cu_dev.minor);
}

void cu_device_uuid(unsigned char out[16]) { uuid(out); }

CUresult cuDeviceGetUuid(unsigned char *out, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	uuid(out);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(unsigned char *out, CUdevice dev) { return cuDeviceGetUuid(out, dev); }

CUresult cuDeviceGetLuid(char *luid, unsigned *mask, CUdevice dev)
{
	DEVICE_CHECK(dev);
	return CUDA_ERROR_NOT_SUPPORTED;        /* Windows only, as on Linux drivers */
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	*bytes = cu_dev.total_mem;
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(unsigned *bytes, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	*bytes = cu_dev.total_mem > 0xffffffffu ? 0xffffffffu : (unsigned)cu_dev.total_mem;
	return CUDA_SUCCESS;
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!major || !minor)
		return CUDA_ERROR_INVALID_VALUE;
	*major = (int)cu_dev.major;
	*minor = (int)cu_dev.minor;
	return CUDA_SUCCESS;
}

/* Every CUdevice_attribute, from the C API's table (src/host/attr.c),
 * which kernels' cudaDeviceGetAttribute reads too. */
static int attribute(int a, int *v) { return ptxvm_device_attribute(cu_dev.dev, a, v) == PTXVM_SUCCESS; }

int cu_attribute(int attr)
{
	int v = 0;
	return attribute(attr, &v) ? v : 0;
}

CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!v || !attribute(attr, v))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

typedef struct CUdevprop {
	int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], sharedMemPerBlock, totalConstantMemory,
	    SIMDWidth, memPitch, regsPerBlock, clockRate, textureAlign;
} CUdevprop;

CUresult cuDeviceGetProperties(CUdevprop *p, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	attribute(1, &p->maxThreadsPerBlock);
	for (int i = 0; i < 3; i++) {
		attribute(2 + i, &p->maxThreadsDim[i]);
		attribute(5 + i, &p->maxGridSize[i]);
	}
	attribute(8, &p->sharedMemPerBlock);
	attribute(9, &p->totalConstantMemory);
	attribute(10, &p->SIMDWidth);
	attribute(11, &p->memPitch);
	attribute(12, &p->regsPerBlock);
	attribute(13, &p->clockRate);
	attribute(14, &p->textureAlign);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *id, int len, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!id || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	snprintf(id, (size_t)len, "0000:00:00.0");
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *id)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!dev || !id)
		return CUDA_ERROR_INVALID_VALUE;
	unsigned dom, bus, slot, fn;
	if (sscanf(id, "%x:%x:%x.%x", &dom, &bus, &slot, &fn) != 4 || dom || bus || slot || fn)
		return CUDA_ERROR_INVALID_DEVICE;
	*dev = 0;
	return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	DEVICE_CHECK(dev);
	if (!can)
		return CUDA_ERROR_INVALID_VALUE;
	if (peer != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	*can = 0;               /* there is no other device */
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetExecAffinitySupport(int *pi, int type, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	*pi = 0;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *w, int format, unsigned channels, CUdevice dev)
{
	DEVICE_CHECK(dev);
	if (!w)
		return CUDA_ERROR_INVALID_VALUE;
	*w = (size_t)1 << 28;
	return CUDA_SUCCESS;
}
