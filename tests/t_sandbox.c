/* t_sandbox.c: one regression test per class of defect that could crash
 * the host process or reach memory that is not the guest's (docs/SECURITY.md):
 *
 *   handles   stale, doubly freed, forged and foreign handles of modules,
 *             programs, kernels, arrays and surfaces
 *   images    the same for textures, samplers, mipmapped arrays and the
 *             references of .texref variables, in calls and in kernels
 *   memory    frees the host may not make, absurd sizes, the table's
 *             placement and deferred reclamation (src/mem directly)
 *   calls     indirect calls to kernels, through mismatched prototypes,
 *             outside a .calltargets list, into predicate formals; the
 *             checker's ABI rule
 *   limits    registers x threads, local memory per thread and call
 *             stacks, shared memory, parameter space, device heap
 *
 * Every case asserts the result code and a part of the message.
 */
#include "test.h"
#include "../src/mem/mem.h"
#include "../src/util/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char *name_of(ptxvm_result r) { return ptxvm_result_name(r); }

/* One case: the result and a fragment its message must contain. */
static void expect(const char *what, ptxvm_result got, ptxvm_result want, const char *msg, const char *frag)
{
	if (got != want)
		fail("sandbox %s: %s, want %s (message: %s)", what, name_of(got), name_of(want), msg ? msg : "");
	else if (frag && (!msg || !strstr(msg, frag)))
		fail("sandbox %s: the message '%s' does not say '%s'", what, msg ? msg : "(none)", frag);
	else
		passed++;
}

/* The call first, then the message it left. */
#define EXPECT(what, call, want, dev, frag) do { \
	ptxvm_result r_ = (call); \
	expect(what, r_, want, ptxvm_device_message(dev), frag); \
} while (0)

static void check(const char *what, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void check(const char *what, bool ok, const char *fmt, ...)
{
	if (ok) {
		passed++;
		return;
	}
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fail("sandbox %s: %s", what, msg);
}

static ptxvm_program *load(ptxvm_device *d, const char *name, const char *text)
{
	char why[1024];
	ptxvm_program *p = load_ptx(d, name, text, why, sizeof why);
	if (!p)
		fail("sandbox %s", why);
	return p;
}

/* Launches kernel kname of p with one block of `threads` and the given
 * arguments; returns the result. */
static ptxvm_result launch(ptxvm_device *d, ptxvm_program *p, const char *kname, unsigned threads, size_t shared,
			   void **args)
{
	ptxvm_launch_config c = { { 1, 1, 1 }, { threads, 1, 1 }, shared, { 0, 0, 0 } };
	return ptxvm_launch(d, ptxvm_kernel_find(p, kname), &c, args, NULL);
}

static const char *const k_store =
	HDR
	".global .u32 var;\n"
	".visible .entry store(.param .u64 out, .param .u32 v)\n{\n"
	"\t.reg .b64 %rd;\n\t.reg .b32 %r;\n"
	"\tld.param.u64 %rd, [out];\n\tld.param.u32 %r, [v];\n\tst.global.u32 [%rd], %r;\n\tret;\n}\n";

/* ---- handles ------------------------------------------------------------ */
static void test_handles(ptxvm_device *d)
{
	ptxvm_program *p = load(d, "store.ptx", k_store);
	if (!p)
		return;
	const ptxvm_kernel *k = ptxvm_kernel_find(p, "store");
	uint64_t buf = 0, var = 0;
	ptxvm_mem_alloc(d, 16, &buf);
	ptxvm_program_global(p, "var", &var, NULL);
	uint32_t v = 7;
	void *args[] = { &buf, &v };
	EXPECT("handles: a live kernel runs", launch(d, p, "store", 1, 0, args), PTXVM_SUCCESS, d, NULL);

	/* a program's variables belong to it, not to ptxvm_mem_free */
	EXPECT("memory: freeing a program's variable", ptxvm_mem_free(d, var),
	       PTXVM_ERROR_INVALID_VALUE, d, "variable of a loaded program");

	ptxvm_program_unload(p);
	uint64_t a;
	EXPECT("handles: ptxvm_program_global on an unloaded program", ptxvm_program_global(p, "var", &a, NULL),
	       PTXVM_ERROR_INVALID_HANDLE, NULL, "unloaded");
	ptxvm_program_unload(p);        /* twice: nothing happens */
	EXPECT("handles: unloading twice", PTXVM_ERROR_INVALID_HANDLE,
	       PTXVM_ERROR_INVALID_HANDLE, NULL, "ptxvm_program_unload: the program was unloaded");
	ptxvm_launch_config c = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	EXPECT("handles: launching a kernel of an unloaded program", ptxvm_launch(d, k, &c, args, NULL),
	       PTXVM_ERROR_INVALID_HANDLE, d, "unloaded");
	EXPECT("handles: ptxvm_launch_packed with it", ptxvm_launch_packed(d, k, &c, args, 12, NULL),
	       PTXVM_ERROR_INVALID_HANDLE, d, "unloaded");
	int pi = ptxvm_kernel_param(k, 0, &(ptxvm_param_info){ 0 });
	check("handles: a stale kernel's name and parameters", !ptxvm_kernel_name(k) &&
	      !ptxvm_kernel_param_count(k) && !ptxvm_kernel_params_size(k) && pi == -1 && !ptxvm_kernel_count(p) &&
	      !ptxvm_kernel_at(p, 0) && !ptxvm_kernel_find(p, "store"),
	      "name %s, %zu parameters", ptxvm_kernel_name(k) ? ptxvm_kernel_name(k) : "NULL",
	      ptxvm_kernel_param_count(k));
	EXPECT("handles: binding a surface in an unloaded program", ptxvm_program_bind_surface(p, "s", 0),
	       PTXVM_ERROR_INVALID_HANDLE, NULL, "unloaded");

	/* modules */
	ptxvm_module *m = ptxvm_module_load("m.ptx", k_store, strlen(k_store), NULL);
	ptxvm_module_free(m);
	ptxvm_module_free(m);
	ptxvm_diag dg;
	check("handles: a freed module has no diagnostics, no text", ptxvm_module_errors(m) == 0 &&
	      ptxvm_module_diag_count(m) == 0 && ptxvm_module_diag(m, 0, &dg) == -1 &&
	      !ptxvm_module_diagnostics(m) && !ptxvm_module_format(m, NULL), "it still answers");
	ptxvm_program *p2 = NULL;
	EXPECT("handles: loading a freed module", ptxvm_program_load(d, m, &p2),
	       PTXVM_ERROR_INVALID_HANDLE, d, "module was freed");

	/* forged handles: an integer, a host pointer, a handle of another kind */
	int local = 0;
	ptxvm_program *forged[3] = { (ptxvm_program *)(uintptr_t)0x1234, (ptxvm_program *)&local,
				     (ptxvm_program *)(uintptr_t)k };
	for (int i = 0; i < 3; i++)
		EXPECT("handles: a forged program", ptxvm_program_global(forged[i], "var", &a, NULL),
		       PTXVM_ERROR_INVALID_HANDLE, NULL, "is no program");
	ptxvm_program *live = load(d, "store.ptx", k_store);
	EXPECT("handles: a program handle launched as a kernel",
	       ptxvm_launch(d, (const ptxvm_kernel *)live, &c, args, NULL), PTXVM_ERROR_INVALID_HANDLE, d, "no kernel");
	EXPECT("handles: a host pointer launched as a kernel",
	       ptxvm_launch(d, (const ptxvm_kernel *)&local, &c, args, NULL), PTXVM_ERROR_INVALID_HANDLE, d, "no kernel");

	/* a kernel on another device */
	ptxvm_device *d2 = ptxvm_device_create(NULL);
	EXPECT("handles: a kernel of another device", ptxvm_launch(d2, ptxvm_kernel_find(live, "store"), &c, args,
	       NULL), PTXVM_ERROR_INVALID_HANDLE, d2, "another device");

	/* arrays and surfaces: destroyed twice, destroyed with their array,
	 * and a stale id whose slot a new array reuses */
	ptxvm_array_desc ad = { PTXVM_ARRAY_1D, PTXVM_FORMAT_U32, 1, 16, 0, 0, 0 };
	uint64_t arr = 0, arr2 = 0, surf = 0;
	ptxvm_array_create(d, &ad, &arr);
	ptxvm_surface_create(d, arr, &surf);
	EXPECT("handles: a surface of another device", ptxvm_surface_destroy(d2, surf),
	       PTXVM_ERROR_INVALID_HANDLE, d2, "not a surface object");
	ptxvm_array_destroy(d, arr);
	EXPECT("handles: an array destroyed twice", ptxvm_array_destroy(d, arr),
	       PTXVM_ERROR_INVALID_HANDLE, d, "destroyed already");
	EXPECT("handles: a surface destroyed with its array", ptxvm_surface_destroy(d, surf),
	       PTXVM_ERROR_INVALID_HANDLE, d, "not a surface object");
	ptxvm_array_create(d, &ad, &arr2);
	uint32_t data[16] = { 0 };
	check("handles: a new array takes the freed slot with a new generation",
	      arr2 != arr && (uint32_t)arr2 == (uint32_t)arr, "old 0x%llx, new 0x%llx", (unsigned long long)arr,
	      (unsigned long long)arr2);
	EXPECT("handles: the stale id of a reused slot", ptxvm_array_write(d, arr, data, sizeof data),
	       PTXVM_ERROR_INVALID_HANDLE, d, "not an array");
	EXPECT("handles: the new id", ptxvm_array_write(d, arr2, data, sizeof data), PTXVM_SUCCESS, d, NULL);
	ptxvm_array_destroy(d, arr2);

	/* a program whose device is gone */
	ptxvm_program *p3 = load(d2, "store.ptx", k_store);
	ptxvm_device_destroy(d2);
	ptxvm_program_unload(p3);
	EXPECT("handles: a program of a destroyed device", ptxvm_program_global(p3, "var", &a, NULL),
	       PTXVM_ERROR_INVALID_HANDLE, NULL, "unloaded");

	ptxvm_program_unload(live);
	ptxvm_mem_free(d, buf);
	EXPECT("memory: freeing twice", ptxvm_mem_free(d, buf), PTXVM_ERROR_INVALID_VALUE, d,
	       "freed already");
	uint64_t big;
	EXPECT("memory: 2 TiB in one allocation", ptxvm_mem_alloc(d, (size_t)2 << 40, &big),
	       PTXVM_ERROR_OUT_OF_MEMORY, d, "1 TiB");
}

/* ---- image handles ------------------------------------------------------ */
static const char *const k_tex =
	HDR
	".global .texref tr;\n"
	".visible .entry obj(.param .u64 t, .param .u64 out)\n{\n"
	"\t.reg .b64 %rd<3>;\n\t.reg .f32 %f<5>;\n"
	"\tld.param.u64 %rd1, [t];\n\tld.param.u64 %rd2, [out];\n\tmov.f32 %f1, 0f3F000000;\n"
	"\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f1}];\n"
	"\tst.global.f32 [%rd2], %f1;\n\tret;\n}\n"
	".visible .entry ref(.param .u64 out)\n{\n"
	"\t.reg .b64 %rd<3>;\n\t.reg .f32 %f<5>;\n"
	"\tld.param.u64 %rd2, [out];\n\tmov.f32 %f1, 0f3F000000;\n"
	"\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tr, {%f1, %f1}];\n"
	"\tst.global.f32 [%rd2], %f1;\n\tret;\n}\n";

static void test_images(ptxvm_device *d)
{
	ptxvm_program *p = load(d, "tex.ptx", k_tex);
	if (!p)
		return;
	ptxvm_device *d2 = ptxvm_device_create(NULL);
	ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_F32, 1, 2, 2, 0, 0 };
	ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY };
	ptxvm_texture_desc td = { .filter_mode = PTXVM_FILTER_POINT };
	float texels[4] = { 5, 5, 5, 5 }, got = 0;
	uint64_t arr = 0, tex = 0, tex2 = 0, smp = 0, out = 0;
	ptxvm_array_create(d, &ad, &arr);
	ptxvm_array_write(d, arr, texels, sizeof texels);
	ptxvm_mem_alloc(d, 4, &out);
	rd.array = arr;
	EXPECT("images: a texture object", ptxvm_texture_create(d, &rd, &td, &tex), PTXVM_SUCCESS, d, NULL);
	void *args[] = { &tex, &out };
	EXPECT("images: a live texture samples", launch(d, p, "obj", 1, 0, args), PTXVM_SUCCESS, d, NULL);
	ptxvm_memcpy_dtoh(d, &got, out, 4);
	check("images: the texel", got == 5.0f, "%g", (double)got);

	/* destroyed twice, of another device, of another kind, forged */
	EXPECT("images: a texture of another device", ptxvm_texture_destroy(d2, tex), PTXVM_ERROR_INVALID_HANDLE, d2,
	       "not a texture object");
	EXPECT("images: an array id as a texture", ptxvm_texture_destroy(d, arr), PTXVM_ERROR_INVALID_HANDLE, d,
	       "not a texture object");
	EXPECT("images: a forged texture", ptxvm_texture_destroy(d, 0x5478000100000001ull), PTXVM_ERROR_INVALID_HANDLE,
	       d, "not a texture object");
	EXPECT("images: destroying the texture", ptxvm_texture_destroy(d, tex), PTXVM_SUCCESS, d, NULL);
	EXPECT("images: a texture destroyed twice", ptxvm_texture_destroy(d, tex), PTXVM_ERROR_INVALID_HANDLE, d,
	       "destroyed already");
	EXPECT("images: binding a destroyed texture", ptxvm_program_bind_texture(p, "tr", tex),
	       PTXVM_ERROR_INVALID_HANDLE, d, "not a texture object");

	/* the freed slot comes back with a new generation: the old handle
	 * names nothing, in calls and in kernels */
	ptxvm_texture_create(d, &rd, &td, &tex2);
	check("images: a new texture takes the freed slot with a new generation",
	      tex2 != tex && (uint32_t)tex2 == (uint32_t)tex, "old 0x%llx, new 0x%llx", (unsigned long long)tex,
	      (unsigned long long)tex2);
	char want[64];
	snprintf(want, sizeof want, "0x%llx is not a texture object", (unsigned long long)tex);
	EXPECT("images: a kernel given a stale texture", launch(d, p, "obj", 1, 0, args), PTXVM_ERROR_ILLEGAL_ADDRESS,
	       d, want);

	/* a .texref bound to a texture destroyed afterwards */
	EXPECT("images: binding", ptxvm_program_bind_texture(p, "tr", tex2), PTXVM_SUCCESS, d, NULL);
	void *rargs[] = { &out };
	EXPECT("images: the bound .texref samples", launch(d, p, "ref", 1, 0, rargs), PTXVM_SUCCESS, d, NULL);
	ptxvm_texture_destroy(d, tex2);
	EXPECT("images: the .texref after its texture is destroyed", launch(d, p, "ref", 1, 0, rargs),
	       PTXVM_ERROR_ILLEGAL_ADDRESS, d, "is not a texture object");

	/* a texture whose array is destroyed stays a handle, and says so */
	ptxvm_texture_create(d, &rd, &td, &tex);
	ptxvm_array_destroy(d, arr);
	EXPECT("images: a texture whose array was destroyed", launch(d, p, "obj", 1, 0, args),
	       PTXVM_ERROR_ILLEGAL_ADDRESS, d, "the array of this texture was destroyed");
	EXPECT("images: a texture over a destroyed array", ptxvm_texture_create(d, &rd, &td, &tex2),
	       PTXVM_ERROR_INVALID_HANDLE, d, "is not an array");
	ptxvm_texture_destroy(d, tex);

	/* samplers and mipmapped arrays */
	ptxvm_sampler_create(d, &td, &smp);
	EXPECT("images: a sampler destroyed as a texture", ptxvm_texture_destroy(d, smp), PTXVM_ERROR_INVALID_HANDLE,
	       d, "not a texture object");
	ptxvm_sampler_destroy(d, smp);
	EXPECT("images: a sampler destroyed twice", ptxvm_sampler_destroy(d, smp), PTXVM_ERROR_INVALID_HANDLE, d,
	       "not a sampler object");
	uint64_t mip = 0, lv = 0;
	ad.width = ad.height = 8;
	EXPECT("images: a mipmapped array", ptxvm_mipmapped_array_create(d, &ad, 3, &mip), PTXVM_SUCCESS, d, NULL);
	ptxvm_mipmapped_array_level(d, mip, 2, &lv);
	ptxvm_mipmapped_array_destroy(d, mip);
	EXPECT("images: a mipmapped array destroyed twice", ptxvm_mipmapped_array_destroy(d, mip),
	       PTXVM_ERROR_INVALID_HANDLE, d, "not a mipmapped array");
	EXPECT("images: a level of a destroyed mipmapped array", ptxvm_mipmapped_array_level(d, mip, 0, &lv),
	       PTXVM_ERROR_INVALID_HANDLE, d, "not a mipmapped array");
	EXPECT("images: the level's array went with it", ptxvm_array_write(d, lv, texels, 4),
	       PTXVM_ERROR_INVALID_HANDLE, d, "not an array");

	/* a program unloaded: binding fails, its references are freed */
	ptxvm_program_unload(p);
	EXPECT("images: binding in an unloaded program", ptxvm_program_bind_texture(p, "tr", 0),
	       PTXVM_ERROR_INVALID_HANDLE, NULL, "unloaded");
	ptxvm_mem_free(d, out);
	ptxvm_device_destroy(d2);
}

/* ---- the allocation table ----------------------------------------------- */
static void test_table(void)
{
	DevMem m;
	if (!mem_init(&m)) {
		fail("sandbox table: mem_init");
		return;
	}
	/* host memory at its own address, as memory host and kernels share */
	uint8_t *host = calloc(1, 4096);
	uint64_t at = (uint64_t)(uintptr_t)host;
	int r1 = mem_map(&m, at, 4096, host, ALLOC_GLOBAL, ALLOC_BORROWED | ALLOC_USER);
	int r2 = mem_map(&m, at + 100, 16, host, ALLOC_GLOBAL, ALLOC_BORROWED);
	int r3 = mem_map(&m, MEM_LOCAL_BASE + 64, 16, host, ALLOC_GLOBAL, ALLOC_BORROWED);
	const MemView *v = mem_pin(&m);
	check("table: host memory at its own address", r1 == MEM_OK && mem_host(v, at + 8, 8) == host + 8,
	      "mem_map %d, translation %p for %p", r1, (void *)mem_host(v, at + 8, 8), (void *)(host + 8));
	check("table: an overlapping range is refused", r2 == MEM_OVERLAP, "mem_map gave %d", r2);
	check("table: a range in a window is refused", r3 == MEM_WINDOWED, "mem_map gave %d", r3);
	mem_unpin(&m, v);

	/* generated addresses step over a mapped range */
	uint64_t a = 0, b = 0;
	mem_alloc(&m, 100, ALLOC_GLOBAL, ALLOC_USER, &a);
	uint8_t *blk = calloc(1, 1 << 16);
	int r4 = mem_map(&m, a + 100 + MEM_GAP + 4096, 1 << 16, blk, ALLOC_GLOBAL, ALLOC_BORROWED);
	mem_alloc(&m, 8192, ALLOC_GLOBAL, ALLOC_USER, &b);
	check("table: an allocation steps over a mapped range", r4 == MEM_OK && (b >= a + 100 + MEM_GAP + 4096 +
	      (1 << 16)), "mem_map %d, allocations at 0x%llx and 0x%llx", r4, (unsigned long long)a,
	      (unsigned long long)b);

	/* a free while a version is pinned: the memory stays for its reader,
	 * and the address is not handed out again until it lets go */
	v = mem_pin(&m);
	uint8_t *p = mem_host(v, a, 100);
	int f1 = mem_free(&m, a, ALLOC_USER);
	const MemView *v2 = mem_pin(&m);
	bool gone = mem_host(v2, a, 1) == NULL;
	mem_unpin(&m, v2);
	memset(p, 0x5a, 100);           /* still the reader's: ASan would see a use after free */
	uint8_t *again = calloc(1, 64);
	int r5 = mem_map(&m, a, 64, again, ALLOC_GLOBAL, ALLOC_BORROWED);
	mem_unpin(&m, v);
	int r6 = mem_map(&m, a, 64, again, ALLOC_GLOBAL, ALLOC_BORROWED);
	check("table: a free while pinned is deferred", f1 == MEM_OK && gone && r5 == MEM_HELD && r6 == MEM_OK,
	      "free %d, gone from new versions %d, mapping its address while held %d, after %d", f1, gone, r5, r6);
	check("table: only allocations the host made are freed by it", mem_free(&m, b + 8, ALLOC_USER) == MEM_NOT_BASE
	      && mem_free(&m, at, ALLOC_USER) == MEM_OK, "mem_free");
	mem_fini(&m);
	free(host);
	free(blk);
	free(again);
}

/* ---- calls -------------------------------------------------------------- */
static const char *const k_calls =
	HDR
	".visible .entry kern(.param .u32 x)\n{\n\tret;\n}\n"
	".func (.param .b32 r) wide(.param .b64 a)\n{\n\t.reg .b32 %r;\n\tmov.b32 %r, 1;\n"
	"\tst.param.b32 [r], %r;\n\tret;\n}\n"
	".func (.param .b32 r) twice(.param .b32 a)\n{\n\t.reg .b32 %r;\n\tld.param.b32 %r, [a];\n"
	"\tadd.s32 %r, %r, %r;\n\tst.param.b32 [r], %r;\n\tret;\n}\n"
	".func pred(.reg .pred p)\n{\n\tret;\n}\n"
	".visible .entry call(.param .u64 out, .param .u64 fp, .param .u32 how)\n{\n"
	"\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<4>;\n\t.reg .pred %p<4>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [fp];\n\tld.param.u32 %r1, [how];\n"
	"\tmov.b32 %r2, 21;\n"
	"\tP: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	"\tQ: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);\n"
	"\tR: .callprototype _ (.reg .b32 _);\n"
	"\tT: .calltargets twice;\n"
	"\t.param .b32 a;\n\t.param .b32 b;\n\t.param .b32 r;\n"
	"\tst.param.b32 [a], %r2;\n\tst.param.b32 [b], %r2;\n"
	"\tsetp.eq.u32 %p1, %r1, 1;\n\tsetp.eq.u32 %p2, %r1, 2;\n\tsetp.eq.u32 %p3, %r1, 3;\n"
	"\t@%p1 bra TWO;\n\t@%p2 bra LIST;\n\t@%p3 bra REG;\n"
	"\tcall (r), %rd2, (a), P;\n\tbra DONE;\n"
	"TWO:\n\tcall (r), %rd2, (a, b), Q;\n\tbra DONE;\n"
	"LIST:\n\tcall (r), %rd2, (a), T;\n\tbra DONE;\n"
	"REG:\n\tcall %rd2, (%r2), R;\n"
	"DONE:\n\tld.param.b32 %r3, [r];\n\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n"
	".visible .entry addr(.param .u64 out)\n{\n\t.reg .b64 %rd<5>;\n\tld.param.u64 %rd1, [out];\n"
	"\tmov.u64 %rd2, kern;\n\tmov.u64 %rd3, wide;\n\tmov.u64 %rd4, twice;\n"
	"\tst.global.v2.u64 [%rd1], {%rd2, %rd3};\n\tst.global.u64 [%rd1+16], %rd4;\n\tret;\n}\n";

static void test_calls(ptxvm_device *d)
{
	ptxvm_program *p = load(d, "calls.ptx", k_calls);
	uint64_t out = 0;
	ptxvm_mem_alloc(d, 64, &out);
	if (!p || !out)
		return;
	uint64_t fns[3] = { 0 };
	void *aa[] = { &out };
	if (launch(d, p, "addr", 1, 0, aa) || ptxvm_memcpy_dtoh(d, fns, out, sizeof fns)) {
		fail("sandbox calls: taking the functions' addresses: %s", ptxvm_device_message(d));
		return;
	}
	/* pred is the fourth function of the module: an address the module
	 * never takes, forged */
	uint64_t forged_pred = fns[0] + 3;
	struct {
		const char *what;
		uint64_t fp;
		uint32_t how;
		ptxvm_result want;
		const char *frag;
	} cs[] = {
		{ "calls: through a prototype that matches", fns[2], 0, PTXVM_SUCCESS, NULL },
		{ "calls: a .calltargets member", fns[2], 2, PTXVM_SUCCESS, NULL },
		{ "calls: a kernel through a pointer", fns[0], 0, PTXVM_ERROR_ILLEGAL_ADDRESS,
		  "'kern' is a kernel (.entry); only .func functions can be called" },
		{ "calls: a parameter of another size", fns[1], 0, PTXVM_ERROR_ILLEGAL_ADDRESS,
		  "parameter 0 of 'wide' is .param of 8 bytes; the call's prototype 'P' has .param of 4 bytes" },
		{ "calls: another number of parameters", fns[2], 1, PTXVM_ERROR_ILLEGAL_ADDRESS,
		  "'twice' takes 1 parameters and returns 1 values; the call's prototype 'Q' takes 2" },
		{ "calls: outside the .calltargets list", fns[1], 2, PTXVM_ERROR_ILLEGAL_ADDRESS,
		  "'wide' is not in the call's .calltargets list 'T'" },
		{ "calls: a forged address of a predicate formal", forged_pred, 3, PTXVM_ERROR_ILLEGAL_ADDRESS,
		  "parameter 0 of 'pred' is .reg .pred; the call's prototype 'R' has .reg of 4 bytes" },
		{ "calls: an address that is no function", fns[0] + 1000, 0, PTXVM_ERROR_ILLEGAL_ADDRESS,
		  "which is not a function" },
	};
	for (size_t i = 0; i < NELEM(cs); i++) {
		uint32_t res = 0;
		void *args[] = { &out, &cs[i].fp, &cs[i].how };
		ptxvm_result r = launch(d, p, "call", 32, 0, args);
		expect(cs[i].what, r, cs[i].want, ptxvm_device_message(d), cs[i].frag);
		if (!r && (ptxvm_memcpy_dtoh(d, &res, out, 4) || res != 42))
			fail("sandbox %s: the call returned %u, want 42", cs[i].what, res);
	}
	ptxvm_program_unload(p);
	ptxvm_mem_free(d, out);

	/* the checker: predicate formals of a called function */
	static const char *const pred_called =
		HDR ".func f(.reg .pred a)\n{\n\tret;\n}\n"
		".visible .entry k()\n{\n\t.reg .pred %p;\n\tsetp.eq.u32 %p, 1, 1;\n\tcall f, (%p);\n\tret;\n}\n";
	ptxvm_module *m = ptxvm_module_load("pred.ptx", pred_called, strlen(pred_called), NULL);
	char *diag = ptxvm_module_diagnostics(m);
	ptxvm_program *pp = NULL;
	expect("calls: a called function with a .pred parameter", ptxvm_program_load(d, m, &pp),
	       PTXVM_ERROR_INVALID_PTX, diag, "pred.ptx:4:20: error: passing predicate, 8-bit and 16-bit parameters "
	       "to device functions is not supported: parameter 'a' of function 'f' is .pred");
	free(diag);
	ptxvm_module_free(m);
}

/* ---- limits ------------------------------------------------------------- */
/* A kernel that names `n` registers (a store of the last one's value). */
static char *many_regs(unsigned n)
{
	size_t cap = 256 + (size_t)n * 32;
	char *t = malloc(cap);
	size_t k = (size_t)snprintf(t, cap, HDR ".visible .entry regs(.param .u64 out)\n{\n\t.reg .b32 %%r<%u>;\n"
				    "\t.reg .b64 %%rd;\n\tld.param.u64 %%rd, [out];\n", n);
	for (unsigned i = 0; i < n; i++)
		k += (size_t)snprintf(t + k, cap - k, "\tmov.b32 %%r%u, 7;\n", i);
	snprintf(t + k, cap - k, "\tst.global.u32 [%%rd], %%r%u;\n\tret;\n}\n", n - 1);
	return t;
}

static void test_limits(ptxvm_device *d)
{
	uint64_t out = 0;
	ptxvm_mem_alloc(d, 64, &out);
	void *args[] = { &out };
	uint32_t v = 0;

	/* 200 M declared registers cost what the code uses */
	static const char *const decl200m =
		HDR ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<200000000>;\n\t.reg .b64 %rd;\n"
		"\tld.param.u64 %rd, [out];\n\tmov.u32 %r199999999, 5;\n\tst.global.u32 [%rd], %r199999999;\n"
		"\tret;\n}\n";
	ptxvm_program *p = load(d, "decl200m.ptx", decl200m);
	if (p) {
		ptxvm_result r = launch(d, p, "k", 1024, 0, args);
		ptxvm_memcpy_dtoh(d, &v, out, 4);
		check("limits: 200 M declared registers", r == PTXVM_SUCCESS && v == 5, "%s, value %u: %s", name_of(r), v,
		      ptxvm_device_message(d));
		ptxvm_program_unload(p);
	}

	/* registers x threads: 140,000 used registers fit a warp, not 32 */
	char *t = many_regs(140000);
	p = load(d, "regs.ptx", t);
	free(t);
	if (p) {
		EXPECT("limits: 140,000 registers x 1024 threads", launch(d, p, "regs", 1024, 0, args),
		       PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, d,
		       "kernel 'regs': 140001 registers and 0 predicates per thread need 1093 MiB for a CTA of 1024 "
		       "threads, more than its limit of 1024 MiB");
		v = 0;
		ptxvm_result r = launch(d, p, "regs", 32, 0, args);
		ptxvm_memcpy_dtoh(d, &v, out, 4);
		check("limits: 140,000 registers x 32 threads", r == PTXVM_SUCCESS && v == 7, "%s, value %u: %s",
		      name_of(r), v, ptxvm_device_message(d));
		ptxvm_program_unload(p);
	}

	/* local memory per thread: CUDA's 512 KiB, sizes never truncated */
	static const char *const local_fmt =
		HDR ".visible .entry k(.param .u64 out)\n{\n\t.local .align 4 .b8 buf[%s];\n\t.reg .b64 %%rd;\n"
		"\t.reg .b32 %%r;\n\tld.local.u32 %%r, [buf+4];\n\tld.param.u64 %%rd, [out];\n"
		"\tst.global.u32 [%%rd], %%r;\n\tret;\n}\n";
	const char *sizes[] = { "600000", "4294967296", "4294967300" };
	const char *frags[] = { "600000 bytes of local variables", "4294967296 bytes of local variables",
				"4294967312 bytes of local variables" };
	for (int i = 0; i < 3; i++) {
		char text[1024];
		snprintf(text, sizeof text, local_fmt, sizes[i]);
		p = load(d, "local.ptx", text);
		if (!p)
			continue;
		char what[64];
		snprintf(what, sizeof what, "limits: .local of %s bytes", sizes[i]);
		EXPECT(what, launch(d, p, "k", 1, 0, args), PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, d, frags[i]);
		ptxvm_program_unload(p);
	}

	/* the call stack: SIZE_MAX, and a callee whose frame is 4 GiB */
	static const char *const call_big =
		HDR ".func f()\n{\n\t.local .align 4 .b8 buf[4294967296];\n\t.reg .b32 %r;\n"
		"\tld.local.u32 %r, [buf+8];\n\tret;\n}\n"
		".visible .entry k(.param .u64 out)\n{\n\tcall f, ();\n\tret;\n}\n";
	p = load(d, "callbig.ptx", call_big);
	if (p) {
		EXPECT("limits: a call into a 4 GiB frame", launch(d, p, "k", 32, 0, args),
		       PTXVM_ERROR_HARDWARE_STACK_ERROR, d,
		       "call stack overflow entering 'f' (1 frames; a frame of 4294967296 bytes");
		ptxvm_device_opts o = { .stack_bytes = SIZE_MAX };
		ptxvm_device *ds = ptxvm_device_create(&o);
		ptxvm_program *ps = load(ds, "callbig.ptx", call_big);
		if (ps)
			EXPECT("limits: stack_bytes = SIZE_MAX", launch(ds, ps, "k", 1, 0, args),
			       PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, ds,
			       "and a 18446744073709551615-byte call stack exceed the 524288 bytes");
		ptxvm_device_destroy(ds);
		ptxvm_program_unload(p);
	}

	/* recursion whose frames hold many registers: the registers count
	 * against the CTA's limit (named in dead code, so that the test does
	 * not touch the gigabyte it asks for) */
	{
		unsigned n = 20000;
		size_t cap = 512 + (size_t)n * 32;
		char *r = malloc(cap);
		size_t k = (size_t)snprintf(r, cap, HDR ".func rec(.reg .b32 depth)\n{\n\t.reg .b32 %%r<%u>;\n"
					    "\t.reg .pred %%p;\n\tsetp.eq.u32 %%p, depth, 0;\n\t@%%p bra DONE;\n"
					    "\tsub.u32 %%r0, depth, 1;\n\tcall rec, (%%r0);\nDONE:\n\tret;\n", n);
		for (unsigned i = 0; i < n; i++)
			k += (size_t)snprintf(r + k, cap - k, "\tmov.b32 %%r%u, %u;\n", i, 1u);
		snprintf(r + k, cap - k, "\tret;\n}\n"
			 ".visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %%d;\n\tmov.b32 %%d, 1000;\n"
			 "\tcall rec, (%%d);\n\tret;\n}\n");
		p = load(d, "rec.ptx", r);
		free(r);
		if (p) {
			EXPECT("limits: recursion with 20,000 registers a frame", launch(d, p, "k", 32, 0, args),
			       PTXVM_ERROR_HARDWARE_STACK_ERROR, d, "MiB of registers");
			ptxvm_program_unload(p);
		}
	}

	/* shared memory: SIZE_MAX and one byte past sm_90's 227 KiB, an invalid
	 * value as the CUDA driver has it */
	static const char *const dyn =
		HDR ".extern .shared .align 4 .b8 sh[];\n"
		".visible .entry k(.param .u64 out)\n{\n\t.reg .b64 %rd;\n\t.reg .b32 %r;\n"
		"\tmov.u32 %r, %dynamic_smem_size;\n\tst.shared.u32 [sh+232444], %r;\n\tld.shared.u32 %r, [sh+232444];\n"
		"\tld.param.u64 %rd, [out];\n\tst.global.u32 [%rd], %r;\n\tret;\n}\n";
	p = load(d, "dyn.ptx", dyn);
	if (p) {
		EXPECT("limits: shared_bytes = SIZE_MAX", launch(d, p, "k", 1, SIZE_MAX, args),
		       PTXVM_ERROR_INVALID_VALUE, d,
		       "0 bytes of static and 18446744073709551615 of dynamic shared memory exceed the 232448 bytes");
		EXPECT("limits: 232449 bytes of dynamic shared memory", launch(d, p, "k", 1, 232449, args),
		       PTXVM_ERROR_INVALID_VALUE, d, "exceed the 232448 bytes");
		v = 0;
		ptxvm_result r = launch(d, p, "k", 1, 232448, args);
		ptxvm_memcpy_dtoh(d, &v, out, 4);
		check("limits: 232448 bytes of dynamic shared memory", r == PTXVM_SUCCESS && v == 232448,
		      "%s, value %u: %s", name_of(r), v, ptxvm_device_message(d));
		ptxvm_program_unload(p);
	}

	/* what ptxas refuses, the checker refuses */
	static const char *const refused[][3] = {
		{ "params.ptx", HDR ".visible .entry k(.param .align 4 .b8 buf[32764], .param .u64 o)\n{\n\tret;\n}\n",
		  "params.ptx:4:17: error: kernel 'k' uses too much parameter space (0x8008 bytes, 0x1100 max; up to "
		  "0x7ffc needs PTX ISA 8.1)" },
		{ "shared.ptx", HDR ".shared .align 4 .b8 buf[4294967296];\n.visible .entry k()\n{\n\t.reg .b32 %r;\n"
		  "\tld.shared.u32 %r, [buf];\n\tret;\n}\n",
		  "shared.ptx:5:17: error: kernel 'k' uses too much shared data (0x100000000 bytes, 0xc000 max)" },
	};
	for (size_t i = 0; i < NELEM(refused); i++) {
		ptxvm_module *m = ptxvm_module_load(refused[i][0], refused[i][1], strlen(refused[i][1]), NULL);
		char *diag = ptxvm_module_diagnostics(m);
		ptxvm_program *pr = NULL;
		expect(refused[i][0], ptxvm_program_load(d, m, &pr), PTXVM_ERROR_INVALID_PTX, diag, refused[i][2]);
		free(diag);
		ptxvm_module_free(m);
	}

	/* the device heap: a request past it gives NULL, never host memory */
	static const char *const heap =
		HDR ".extern .func (.param .b64 r) malloc(.param .b64 n);\n"
		".visible .entry k(.param .u64 out)\n{\n\t.reg .b64 %rd<3>;\n\t.param .b64 n;\n\t.param .b64 r;\n"
		"\tst.param.b64 [n], 1099511627776;\n\tcall (r), malloc, (n);\n\tld.param.b64 %rd1, [r];\n"
		"\tld.param.u64 %rd2, [out];\n\tst.global.u64 [%rd2], %rd1;\n\tret;\n}\n";
	p = load(d, "heap.ptx", heap);
	if (p) {
		uint64_t got = 1;
		ptxvm_memcpy_htod(d, out, &got, 8);
		EXPECT("limits: device malloc of 1 TiB", launch(d, p, "k", 1, 0, args), PTXVM_SUCCESS, d, "");
		ptxvm_memcpy_dtoh(d, &got, out, 8);
		if (got != 0)
			fail("limits: device malloc of 1 TiB gave 0x%llx, not NULL", (unsigned long long)got);
		else
			passed++;
		ptxvm_program_unload(p);
	}
	ptxvm_mem_free(d, out);
}

void test_sandbox(const char *root)
{
	(void)root;
	ptxvm_device_opts o = { .workers = 2 };
	ptxvm_device *d = ptxvm_device_create(&o);
	test_handles(d);
	test_images(d);
	test_table();
	test_calls(d);
	test_limits(d);
	ptxvm_device_destroy(d);
}
