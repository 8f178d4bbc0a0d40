/* module.c: modules from PTX text (cuModuleLoad, cuModuleLoadData(Ex)),
 * their functions and globals, and function attributes.  A module is a
 * ptxvm program loaded onto the device, owned by the context that loaded
 * it.  Unloading a module frees it and its functions; their handles
 * become stale (object.c). */
#include "cu.h"
#include "fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CuMod {
	CuObj obj;
	CuCtx *ctx;
	ptxvm_program *prog;
	CuFunc *funcs;
	struct CuMod *next;             /* in the context's list */
} CuMod;

enum { CU_JIT_INFO_LOG_BUFFER = 3, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4, CU_JIT_ERROR_LOG_BUFFER = 5,
       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

/* The first line of a diagnostics text, for a one-line explanation. */
static void warn_first_line(const char *what, const char *text)
{
	size_t n = strcspn(text, "\n");
	cu_warn("%s: %.*s", what, (int)n, text);
}

void cu_put_log(char *buf, size_t *size, const char *text)
{
	if (!buf || !size || !*size)
		return;
	size_t n = strlen(text);
	if (n >= *size)
		n = *size - 1;
	memcpy(buf, text, n);
	buf[n] = 0;
	*size = n;
}

/* Loads PTX text into ctx.  err/errsz: the JIT error log, where given;
 * devrt: the text was linked with the device runtime (rdc.c). */
static CUresult load_ptx(CuCtx *ctx, CUmodule *out, const char *name, const char *text, size_t len, char *err,
			 size_t *errsz, int devrt)
{
	ptxvm_check_opts o = { .arch = cu_dev.arch, .device_runtime = devrt, .newer_versions = 1 };
	ptxvm_module *m = ptxvm_module_load(name, text, len, &o);
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (ptxvm_module_errors(m)) {
		char *d = ptxvm_module_diagnostics(m);
		if (d) {
			cu_put_log(err, errsz, d);
			warn_first_line("cuModuleLoadData", d);
			free(d);
		}
		ptxvm_module_free(m);
		return CUDA_ERROR_INVALID_PTX;
	}
	CuMod *mod = calloc(1, sizeof *mod);
	if (!mod || !cu_obj_add(mod, CU_KIND_MODULE)) {
		free(mod);
		ptxvm_module_free(m);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	ptxvm_result r = ptxvm_program_load(cu_dev.dev, m, &mod->prog);
	ptxvm_module_free(m);
	if (r) {
		cu_obj_free(CU_HANDLE(CUmodule, mod), CU_KIND_MODULE);
		const char *msg = ptxvm_device_message(cu_dev.dev);
		cu_put_log(err, errsz, msg);
		warn_first_line("cuModuleLoadData", msg);
		return r == PTXVM_ERROR_NOT_SUPPORTED ? CUDA_ERROR_NOT_SUPPORTED : cu_result(ctx, r, "cuModuleLoadData");
	}
	mod->ctx = ctx;
	pthread_mutex_lock(&ctx->lock);
	mod->next = ctx->modules;
	ctx->modules = mod;
	pthread_mutex_unlock(&ctx->lock);
	*out = CU_HANDLE(CUmodule, mod);
	return CUDA_SUCCESS;
}

/* An image: PTX text, a fat binary or nvcc's wrapper of one (the best PTX
 * entry for the device, fatbin.c; for nvlink's SASS-only image of
 * relocatable device code, its inputs' PTX linked, rdc.c), or an ELF
 * cubin, which ptxvm cannot run (CUDA_ERROR_NO_BINARY_FOR_GPU). */
static CUresult load_image(CuCtx *ctx, CUmodule *out, const void *image, char *err, size_t *errsz)
{
	char *ptx = NULL, why[256] = "";
	int devrt = cu_link_output(image);
	int r = cuda_fatbin_ptx(image, CUDA_FATBIN_UNBOUNDED, cu_dev.arch, &ptx, why, sizeof why);
	if (r == CUDA_ERROR_NO_BINARY_FOR_GPU) {
		/* nvlink's image of relocatable device code: its inputs' PTX, linked */
		char rwhy[sizeof why];
		int rr = cu_rdc_ptx(image, &ptx, rwhy, sizeof rwhy);
		if (rr != CUDA_ERROR_NOT_FOUND) {
			r = rr;
			devrt = 1;
			if (r)
				memcpy(why, rwhy, sizeof why);
		}
	}
	if (r) {
		cu_warn("cuModuleLoadData: %s", why);
		cu_put_log(err, errsz, why);
		return r;
	}
	CUresult res = load_ptx(ctx, out, devrt ? "linked.ptx" : "module.ptx", ptx, strlen(ptx), err, errsz, devrt);
	free(ptx);
	return res;
}

CUresult cu_module_load_image(CUmodule *out, const void *image, const char *what)
{
	CTX_CALL(c);
	if (!out || !image)
		return CUDA_ERROR_INVALID_VALUE;
	return load_image(c, out, image, NULL, NULL);
}

CUresult cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned n, int *options, void **values)
{
	CTX_CALL(c);
	cu_printf_flush();
	if (!out || !image || (n && (!options || !values)))
		return CUDA_ERROR_INVALID_VALUE;
	char *err = NULL, *info = NULL;
	size_t *errsz = NULL, *infosz = NULL;
	for (unsigned i = 0; i < n; i++)
		switch (options[i]) {
		case CU_JIT_ERROR_LOG_BUFFER: err = values[i]; break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: errsz = (size_t *)&values[i]; break;
		case CU_JIT_INFO_LOG_BUFFER: info = values[i]; break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: infosz = (size_t *)&values[i]; break;
		default: break;         /* optimisation hints and the like change nothing here */
		}
	cu_put_log(info, infosz, "");
	CUresult r = load_image(c, out, image, err, errsz);
	if (!r)
		cu_put_log(err, errsz, "");
	return r;
}

CUresult cuModuleLoadData(CUmodule *out, const void *image) { return cuModuleLoadDataEx(out, image, 0, NULL, NULL); }

CUresult cu_read_file(const char *path, char **out, size_t *outlen)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return CUDA_ERROR_FILE_NOT_FOUND;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);
			if (!nb) {
				free(buf);
				fclose(f);
				return CUDA_ERROR_OUT_OF_MEMORY;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, 4096, f);
		len += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	buf[len] = 0;
	*out = buf;
	*outlen = len;
	return CUDA_SUCCESS;
}

CUresult cuModuleLoad(CUmodule *out, const char *path)
{
	CTX_CALL(c);
	cu_printf_flush();
	if (!out || !path)
		return CUDA_ERROR_INVALID_VALUE;
	char *buf;
	size_t len;
	CUresult rr = cu_read_file(path, &buf, &len);
	if (rr)
		return rr;
	CUresult r = len >= 4 ? load_image(c, out, buf, NULL, NULL) : load_ptx(c, out, path, buf, len, NULL, NULL, 0);
	free(buf);
	return r;
}

static CuMod *mod_of(CUmodule h) { return cu_obj_get(h, CU_KIND_MODULE); }

ptxvm_program *cu_module_program(CUmodule h)
{
	CuMod *m = mod_of(h);
	return m ? m->prog : NULL;
}

/* Unloads a module taken off its context's list, and frees it and its
 * functions. */
static void unload(CuMod *m)
{
	for (CuFunc *f = m->funcs, *next; f; f = next) {
		next = f->next;
		cu_obj_free(CU_HANDLE(CUfunction, f), CU_KIND_FUNCTION);
	}
	cu_refs_release(CU_HANDLE(CUmodule, m));
	cu_managed_vars_drop(m);
	ptxvm_program_unload(m->prog);
	cu_obj_free(CU_HANDLE(CUmodule, m), CU_KIND_MODULE);
}

/* Takes m off its context's list. */
static void unlist(CuMod *m)
{
	CuCtx *owner = m->ctx;
	pthread_mutex_lock(&owner->lock);
	for (CuMod **p = &owner->modules; *p; p = &(*p)->next)
		if (*p == m) {
			*p = m->next;
			break;
		}
	pthread_mutex_unlock(&owner->lock);
}

CUresult cuModuleUnload(CUmodule h)
{
	CTX_CALL(c);
	CuMod *m = mod_of(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	cu_printf_flush();      /* module loading and unloading flush the printf FIFO */
	unlist(m);
	unload(m);
	return CUDA_SUCCESS;
}

void cu_ctx_release_modules(CuCtx *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	CuMod *m = ctx->modules;
	ctx->modules = NULL;
	pthread_mutex_unlock(&ctx->lock);
	for (CuMod *next; m; m = next) {
		next = m->next;
		unload(m);
	}
}

static CUresult function_of(CuMod *m, const ptxvm_kernel *k, CUfunction *out)
{
	pthread_mutex_lock(&m->ctx->lock);
	CuFunc *f = m->funcs;
	while (f && f->k != k)
		f = f->next;
	if (!f && (f = calloc(1, sizeof *f))) {
		*f = (CuFunc){ .mod = m, .k = k, .next = m->funcs };
		if (cu_obj_add(f, CU_KIND_FUNCTION)) {
			m->funcs = f;
		} else {
			free(f);
			f = NULL;
		}
	}
	pthread_mutex_unlock(&m->ctx->lock);
	if (!f)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*out = CU_HANDLE(CUfunction, f);
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *out, CUmodule h, const char *name)
{
	CTX_CALL(c);
	if (!out || !name)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = mod_of(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	const ptxvm_kernel *k = ptxvm_kernel_find(m->prog, name);
	if (!k)
		return CUDA_ERROR_NOT_FOUND;
	return function_of(m, k, out);
}

CUresult cuModuleGetFunctionCount(unsigned *n, CUmodule h)
{
	CTX_CALL(c);
	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = mod_of(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	*n = (unsigned)ptxvm_kernel_count(m->prog);
	return CUDA_SUCCESS;
}

CUresult cuModuleEnumerateFunctions(CUfunction *fns, unsigned n, CUmodule h)
{
	CTX_CALL(c);
	if (!fns)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = mod_of(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	size_t count = ptxvm_kernel_count(m->prog);
	for (size_t i = 0; i < count && i < n; i++) {
		CUresult r = function_of(m, ptxvm_kernel_at(m->prog, i), &fns[i]);
		if (r)
			return r;
	}
	return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule h, const char *name)
{
	CTX_CALL(c);
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = mod_of(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	uint64_t a;
	size_t n;
	if (ptxvm_program_global(m->prog, name, &a, &n))
		return CUDA_ERROR_NOT_FOUND;
	if (dptr)
		*dptr = a;
	if (bytes)
		*bytes = n;
	return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal(unsigned *dptr, unsigned *bytes, CUmodule m, const char *name)
{
	(void)dptr, (void)bytes, (void)m, (void)name;
	cu_warn("cuModuleGetGlobal: the 32-bit form cannot hold ptxvm's device addresses; use cuModuleGetGlobal_v2");
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuModuleGetLoadingMode(int *mode)
{
	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	/* CUDA's default since 12.2, and what NVIDIA's runtime then does: it
	 * loads a fat binary when one of its kernels is first used, so a program
	 * with no image for the device fails at that launch
	 * (cudaErrorNoKernelImageForDevice), not in every call from the first.
	 * Loading here is the same either way: at once. */
	const char *env = getenv("CUDA_MODULE_LOADING");
	*mode = env && strcmp(env, "EAGER") == 0 ? 1 : 2;       /* CU_MODULE_EAGER_LOADING, LAZY */
	return CUDA_SUCCESS;
}

/* ---- functions ---------------------------------------------------------------- */

/* A function's attributes: the C API's table of the kernel, the one
 * kernels' cudaFuncGetAttributes reads (ptxvm_kernel_get_attribute). */
CUresult cuFuncGetAttribute(int *v, int attr, CUfunction h)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	return (CUresult)ptxvm_kernel_get_attribute(f->k, attr, v);
}

CUresult cuFuncSetAttribute(CUfunction h, int attr, int v)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	ptxvm_result r = ptxvm_kernel_set_attribute(f->k, attr, v);
	if (r == PTXVM_ERROR_NOT_SUPPORTED)
		cu_warn("cuFuncSetAttribute: %s", ptxvm_device_message(NULL));
	return (CUresult)r;
}

CUresult cuFuncSetCacheConfig(CUfunction h, int cfg)
{
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	return cfg >= 0 && cfg <= 3 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuFuncSetSharedMemConfig(CUfunction h, int cfg)
{
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	return cfg >= 0 && cfg <= 2 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CuCtx *cu_func_ctx(const CuFunc *f) { return f->mod ? f->mod->ctx : NULL; }

CUresult cuFuncGetModule(CUmodule *m, CUfunction h)
{
	if (!m)
		return CUDA_ERROR_INVALID_VALUE;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	*m = CU_HANDLE(CUmodule, f->mod);
	return CUDA_SUCCESS;
}

CUresult cuFuncGetName(const char **name, CUfunction h)
{
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	*name = ptxvm_kernel_name(f->k);
	return CUDA_SUCCESS;
}

CUresult cuFuncIsLoaded(int *state, CUfunction h)
{
	if (!state)
		return CUDA_ERROR_INVALID_VALUE;
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	*state = 1;     /* CU_FUNCTION_LOADING_STATE_LOADED */
	return CUDA_SUCCESS;
}

CUresult cuFuncLoad(CUfunction f) { return cu_func(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

CUresult cuFuncGetParamInfo(CUfunction h, size_t index, size_t *offset, size_t *size)
{
	CuFunc *f = cu_func(h);
	if (!f)
		return CUDA_ERROR_INVALID_HANDLE;
	ptxvm_param_info p;
	if (ptxvm_kernel_param(f->k, index, &p))
		return CUDA_ERROR_INVALID_VALUE;
	if (offset)
		*offset = p.offset;
	if (size)
		*size = p.size;
	return CUDA_SUCCESS;
}

/* ---- libraries: context-independent modules -------------------------------------
 * A library is a module that belongs to no context (CUDA loads it into each
 * context lazily; here every context shares the one device).  A CUkernel
 * is the CUfunction of the library's module, so that cuLaunchKernel takes
 * either, as CUDA's does. */
typedef struct CUlib_st *CUlibrary;

typedef struct CuLib {
	CuObj obj;
	CUmodule mod;           /* a handle: the program may unload the module itself */
} CuLib;

static CuCtx lib_owner = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* A library and its module; NULL when either is gone. */
static CuMod *lib_mod(CUlibrary h)
{
	CuLib *l = cu_obj_get(h, CU_KIND_LIBRARY);
	return l ? mod_of(l->mod) : NULL;
}

static CUresult library_load(CUlibrary *out, const void *code, unsigned nopt, const int *opts, void **vals)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!out || !code || (nopt && (!opts || !vals)))
		return CUDA_ERROR_INVALID_VALUE;
	char *err = NULL;
	size_t *errsz = NULL;
	for (unsigned i = 0; i < nopt; i++)
		if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
			err = vals[i];
		else if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			errsz = (size_t *)&vals[i];
	CuLib *l = calloc(1, sizeof *l);
	if (!l || !cu_obj_add(l, CU_KIND_LIBRARY)) {
		free(l);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	CUresult r = load_image(&lib_owner, &l->mod, code, err, errsz);
	if (r) {
		cu_obj_free(CU_HANDLE(CUlibrary, l), CU_KIND_LIBRARY);
		return r;
	}
	*out = CU_HANDLE(CUlibrary, l);
	return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *out, const void *code, int *jit_opts, void **jit_vals, unsigned njit,
			   int *lib_opts, void **lib_vals, unsigned nlib)
{
	return library_load(out, code, njit, jit_opts, jit_vals);
}

CUresult cuLibraryLoadFromFile(CUlibrary *out, const char *path, int *jit_opts, void **jit_vals, unsigned njit,
			       int *lib_opts, void **lib_vals, unsigned nlib)
{
	if (!path)
		return CUDA_ERROR_INVALID_VALUE;
	char *buf;
	size_t len;
	CUresult rr = cu_read_file(path, &buf, &len);
	if (rr)
		return rr;
	CUresult r = library_load(out, buf, njit, jit_opts, jit_vals);
	free(buf);
	return r;
}

/* Not a printf flush point: NVIDIA's runtime unloads its libraries when
 * the program exits, and an H200 prints nothing a kernel left in the FIFO
 * then (tests/cuda-host/printf.cu, run there by tests/hw/record.sh). */
CUresult cuLibraryUnload(CUlibrary h)
{
	CuLib *l = cu_obj_get(h, CU_KIND_LIBRARY);
	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	CuMod *m = mod_of(l->mod);
	if (m) {
		unlist(m);
		unload(m);
	}
	cu_obj_free(h, CU_KIND_LIBRARY);
	return CUDA_SUCCESS;
}

CUresult cuLibraryGetModule(CUmodule *out, CUlibrary h)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = lib_mod(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	*out = CU_HANDLE(CUmodule, m);
	return CUDA_SUCCESS;
}

CUresult cuLibraryGetKernel(CUfunction *out, CUlibrary h, const char *name)
{
	if (!out || !name)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = lib_mod(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	const ptxvm_kernel *k = ptxvm_kernel_find(m->prog, name);
	return k ? function_of(m, k, out) : CUDA_ERROR_NOT_FOUND;
}

CUresult cuLibraryGetKernelCount(unsigned *n, CUlibrary h)
{
	if (!n)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = lib_mod(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	*n = (unsigned)ptxvm_kernel_count(m->prog);
	return CUDA_SUCCESS;
}

CUresult cuLibraryEnumerateKernels(CUfunction *ks, unsigned n, CUlibrary h)
{
	if (!ks)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = lib_mod(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	size_t count = ptxvm_kernel_count(m->prog);
	for (size_t i = 0; i < count && i < n; i++) {
		CUresult r = function_of(m, ptxvm_kernel_at(m->prog, i), &ks[i]);
		if (r)
			return r;
	}
	return CUDA_SUCCESS;
}

CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary h, const char *name)
{
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = lib_mod(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	uint64_t a;
	size_t n;
	if (ptxvm_program_global(m->prog, name, &a, &n))
		return CUDA_ERROR_NOT_FOUND;
	if (dptr)
		*dptr = a;
	if (bytes)
		*bytes = n;
	return CUDA_SUCCESS;
}

/* A __managed__ variable: one address for the host and kernels. */
CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary h, const char *name)
{
	if (!name)
		return CUDA_ERROR_INVALID_VALUE;
	CuMod *m = lib_mod(h);
	if (!m)
		return CUDA_ERROR_INVALID_HANDLE;
	void *p;
	size_t n;
	ptxvm_result r = ptxvm_program_managed(m->prog, name, &p, &n);
	if (r)
		return r == PTXVM_ERROR_NOT_FOUND ? CUDA_ERROR_NOT_FOUND : (CUresult)r;
	cu_managed_var(m, p, n);
	if (dptr)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	if (bytes)
		*bytes = n;
	return CUDA_SUCCESS;
}

CUresult cuKernelGetFunction(CUfunction *out, CUfunction k)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (!cu_func(k))
		return CUDA_ERROR_INVALID_HANDLE;
	*out = k;
	return CUDA_SUCCESS;
}

CUresult cuKernelGetAttribute(int *v, int attr, CUfunction k, CUdevice dev)
{
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	return cuFuncGetAttribute(v, attr, k);
}

CUresult cuKernelSetAttribute(int attr, int v, CUfunction k, CUdevice dev)
{
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	return cuFuncSetAttribute(k, attr, v);
}

CUresult cuKernelSetCacheConfig(CUfunction k, int cfg, CUdevice dev)
{
	if (dev != 0)
		return CUDA_ERROR_INVALID_DEVICE;
	return cuFuncSetCacheConfig(k, cfg);
}

CUresult cuKernelGetName(const char **name, CUfunction k) { return cuFuncGetName(name, k); }

CUresult cuKernelGetParamInfo(CUfunction k, size_t i, size_t *offset, size_t *size)
{
	return cuFuncGetParamInfo(k, i, offset, size);
}

CUresult cuModuleLoadFatBinary(CUmodule *out, const void *image) { return cuModuleLoadData(out, image); }
