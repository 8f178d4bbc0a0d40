/* tables.c: cuGetExportTable, the driver's private tables.  NVIDIA's
 * runtime (libcudart, static or shared) asks for them by UUID before it
 * does anything else: a table is an array of function pointers, most
 * starting with the table's size in bytes.  What each entry does is known
 * from public study of the runtime (ZLUDA's dark_api); entries whose
 * purpose is unknown stay NULL.  One table, the integrity check, answers a
 * keyed hash of the process, the tables and the devices, which the
 * runtime verifies (HMAC over MD2, RFC 2104 and RFC 1319). */
#include "cu.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *Table[];
#define SIZE_OF(n) ((void *)(uintptr_t)((n) * sizeof(void *)))

/* ---- the runtime's interface: modules from fat binaries, the primary context ---- */
static CUresult module_from_wrapper(CUmodule *out, const void *wrapper)
{
	return cu_module_load_image(out, wrapper, "the runtime's fat binary");
}

static CUresult module_from_wrapper_ext(CUmodule *out, const void *wrapper, void *a3, void *a4, unsigned a5)
{
	if (a3 || a4 || a5) {
		cu_warn("loading a fat binary with options the runtime passes (%p %p %u) is not supported", a3, a4, a5);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	return module_from_wrapper(out, wrapper);
}

static CUresult module_from_fatbin_ext(const void *fatbin, CUmodule *out, void *a3, void *a4, unsigned a5)
{
	return module_from_wrapper_ext(out, fatbin, a3, a4, a5);
}

static CUresult primary_context(CUcontext *out, CUdevice dev) { return cu_primary_context(out, dev); }
static void runtime_fn7(size_t arg) { (void)arg; }
static CUresult load_compilers(void) { return CUDA_SUCCESS; }     /* PTX is what ptxvm runs */

static Table cudart_interface = {
	SIZE_OF(13), (void *)module_from_wrapper, (void *)primary_context, NULL, NULL, NULL,
	(void *)module_from_wrapper_ext, (void *)runtime_fn7, (void *)module_from_fatbin_ext, NULL, NULL, NULL,
	(void *)load_compilers,
};

/* ---- tools: thread-local storage and callback hooks, which no tool uses here ---- */
CUresult cuCtxGetCurrent(CUcontext *c);

/* Slot 2: the calling thread's current context, which cuBLAS keys what it
 * keeps per context by (cublasCreate calls it). */
static CUresult tools_current_context(CUcontext *out)
{
	return cuCtxGetCurrent(out);
}
static Table tools_tls = { SIZE_OF(4), NULL, (void *)tools_current_context, NULL };

static uint64_t hook_buffer1[1024], hook_buffer2[14];
static void hooks1(void **p, size_t *n) { *p = hook_buffer1; *n = 1024; }
static void hooks2(void **p, size_t *n) { *p = hook_buffer2; *n = 14; }
static Table tools_hooks = { SIZE_OF(7), NULL, (void *)hooks1, NULL, NULL, NULL, (void *)hooks2 };

/* ---- context-local storage (this table has no size entry) ------------------------- */
static Table context_storage = {
	(void *)cu_ctx_storage_put, (void *)cu_ctx_storage_delete, (void *)cu_ctx_storage_get, NULL,
};

/* ---- context creation bypassing the runtime's checks; heap records; device ext ---- */
static CUresult ctx_create_bypass(CUcontext *out, unsigned flags, CUdevice dev)
{
	return cu_ctx_create(out, flags, dev);
}
static Table ctx_create = { SIZE_OF(2), (void *)ctx_create_bypass };

static CUresult heap_alloc(const void **rec, size_t a, size_t b)
{
	static _Atomic int said;
	return cu_unsupported("the runtime's heap_alloc", &said);
}
static CUresult heap_free(const void *rec, size_t *a)
{
	static _Atomic int said;
	return cu_unsupported("the runtime's heap_free", &said);
}
static Table heap_access = { SIZE_OF(3), (void *)heap_alloc, (void *)heap_free };

static CUresult device_attribute_ext(CUdevice dev, unsigned attr, int unknown, size_t out[2])
{
	static _Atomic int said;
	return cu_unsupported("the runtime's device_get_attribute_ext", &said);
}
static CUresult device_flag(unsigned char *out, CUdevice dev)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	*out = 0;       /* what drivers are seen to answer */
	return CUDA_SUCCESS;
}
static Table device_ext = {
	SIZE_OF(26), NULL, NULL, NULL, NULL, (void *)device_attribute_ext, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	(void *)device_flag, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

/* ---- context checks: bits never seen set ---------------------------------------- */
static CUresult context_check(CUcontext ctx, unsigned *r1, const void **r2)
{
	if (r1)
		*r1 = 0;
	return CUDA_SUCCESS;
}
static unsigned check3(void) { return 0; }
static Table context_checks = { SIZE_OF(4), NULL, (void *)context_check, (void *)check3 };

/* ---- the integrity check ---------------------------------------------------------- */
/* MD2 (RFC 1319): S is the permutation of 0..255 built from the digits of pi. */
static const uint8_t md2_s[256] = {
	41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19, 98, 167, 5, 243, 192, 199, 115, 140,
	152, 147, 43, 217, 188, 76, 130, 202, 30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229,
	18, 190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122, 169, 104, 121, 145, 21,
	178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33, 128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191,
	247, 151, 3, 255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198, 79, 184, 56, 210,
	150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241, 69, 157, 112, 89, 100, 113, 135, 32, 134, 91,
	207, 101, 230, 45, 168, 2, 27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15, 85, 71,
	163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186, 197, 234, 38, 44, 83, 13, 110, 133, 40, 132, 9, 211,
	223, 205, 244, 65, 129, 77, 82, 106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
	120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57, 242, 239, 183, 14, 102, 88, 208,
	228, 166, 119, 114, 248, 235, 117, 75, 10, 49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17,
	131, 20,
};

typedef struct Md2 {
	uint8_t x[48], c[16], block[16];
	unsigned n;
} Md2;

static void md2_block(Md2 *m)
{
	for (int j = 0; j < 16; j++) {
		m->x[16 + j] = m->block[j];
		m->x[32 + j] = m->x[16 + j] ^ m->x[j];
	}
	unsigned t = 0;
	for (int j = 0; j < 18; j++) {
		for (int k = 0; k < 48; k++)
			t = m->x[k] ^= md2_s[t];
		t = (t + (unsigned)j) & 0xff;
	}
	uint8_t l = m->c[15];
	for (int j = 0; j < 16; j++)
		l = m->c[j] ^= md2_s[m->block[j] ^ l];
}

static void md2_update(Md2 *m, const void *p, size_t len)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < len; i++) {
		m->block[m->n++] = b[i];
		if (m->n == 16) {
			md2_block(m);
			m->n = 0;
		}
	}
}

static void md2_final(Md2 *m, uint8_t out[16])
{
	uint8_t pad[16], c[16];
	memset(pad, (int)(16 - m->n), sizeof pad);
	md2_update(m, pad, 16 - m->n);
	memcpy(c, m->c, 16);
	md2_update(m, c, 16);
	memcpy(out, m->x, 16);
}

/* HMAC-MD2 with the runtime's key; the message is the process, the
 * tables, the driver and every device. */
static const uint8_t integrity_key[16] = { 0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
					   0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f };

static CUresult integrity_check(unsigned version, uint64_t unix_seconds, uint64_t result[2]);
static Table integrity = { SIZE_OF(3), (void *)integrity_check, NULL };

static CUresult integrity_check(unsigned version, uint64_t unix_seconds, uint64_t result[2])
{
	if (!result)
		return CUDA_ERROR_INVALID_VALUE;
	/* two generations of the runtime take a fixed answer */
	if (version % 10 == 0 || version % 10 == 1) {
		result[0] = version % 10 ? 0x1841181c03cb675cull : 0x3341181c03cb675cull;
		result[1] = 0x8ed383aa1f4cd1e8ull;
		return CUDA_SUCCESS;
	}
	struct {
		uint32_t driver, version, pid, tid;
		const void *cudart, *integrity, *fn;
		uint64_t seconds;
	} msg = { 13000, version, (uint32_t)getpid(), (uint32_t)pthread_self(), cudart_interface, integrity,
		  (const void *)integrity_check, unix_seconds };
	struct {
		uint8_t uuid[16];
		int32_t pci_domain, pci_bus, pci_device;
	} dev = { .pci_domain = cu_attribute(50), .pci_bus = cu_attribute(33), .pci_device = cu_attribute(34) };
	cu_device_uuid(dev.uuid);
	uint8_t pad[16], inner[16], outer[16];
	Md2 m = { 0 };
	for (int i = 0; i < 16; i++)
		pad[i] = integrity_key[i] ^ 0x36;
	md2_update(&m, pad, 16);
	md2_update(&m, &msg, sizeof msg);
	md2_update(&m, &dev, sizeof dev);
	md2_final(&m, inner);
	memset(&m, 0, sizeof m);
	for (int i = 0; i < 16; i++)
		pad[i] = integrity_key[i] ^ 0x5c;
	md2_update(&m, pad, 16);
	md2_update(&m, inner, 16);
	md2_final(&m, outer);
	memcpy(result, outer, 16);
	return CUDA_SUCCESS;
}

/* ---- the tables by UUID -------------------------------------------------------------- */
static const struct { uint8_t id[16]; void **table; const char *name; } tables[] = {
	{ { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 },
	  cudart_interface, "runtime interface" },
	{ { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc },
	  tools_tls, "tools TLS" },
	{ { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 },
	  tools_hooks, "tools callback hooks" },
	{ { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 },
	  context_storage, "context-local storage" },
	{ { 0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86 },
	  ctx_create, "context creation" },
	{ { 0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae },
	  heap_access, "heap access" },
	{ { 0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a, 0x9f, 0x64, 0xf2, 0x23, 0xbe, 0x99, 0xf1, 0xe2 },
	  device_ext, "device extensions" },
	{ { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 },
	  integrity, "integrity check" },
	{ { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e },
	  context_checks, "context checks" },
};

CUresult cuGetExportTable(const void **out, const unsigned char *id)
{
	if (!out || !id)
		return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (!memcmp(tables[i].id, id, 16)) {
			*out = tables[i].table;
			cu_log("cuGetExportTable: the %s table", tables[i].name);
			return CUDA_SUCCESS;
		}
	*out = NULL;
	cu_log("cuGetExportTable(%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x): no such table",
	       id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13],
	       id[14], id[15]);
	return CUDA_ERROR_INVALID_VALUE;
}
