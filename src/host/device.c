/* device.c: the public device interface (ptxvm.h): devices, memory,
 * programs, kernels and launches, over mem, lower and exec.
 *
 * A device owns its memory and its programs; nothing here is global, so
 * devices in one process are independent.  Every entry point validates
 * its arguments and leaves a message in the device for the caller.
 */
#include "host.h"
#include "../front/parse.h"
#include "../lower/prog.h"
#include "../exec/exec.h"
#include "../surf/surf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ptxvm_device {
	DevMem mem;
	SurfTable surf;         /* arrays and surface objects, under lock */
	TexTable tex;           /* texture and sampler objects, under lock */
	pthread_mutex_t lock;   /* one launch or program change at a time */
	unsigned workers;
	double timeout;
	size_t stack_bytes;
	FILE *out;
	size_t printf_fifo;     /* bytes */
	bool printed;           /* a kernel using printf was launched */
	char *msg;
	ptxvm_program **progs;
	size_t nprogs, capprogs;
	uint64_t launches;
};

struct ptxvm_kernel {
	ptxvm_program *p;
	const XFunc *f;
	const char *why;        /* not executable: the first reason, with its place */
};

struct ptxvm_program {
	ptxvm_device *d;
	Module *m;
	char *text, *file;
	Prog *prog;
	ptxvm_kernel *k;
	size_t nk;
};

const char *ptxvm_result_name(ptxvm_result r)
{
	switch (r) {
	case PTXVM_SUCCESS: return "CUDA_SUCCESS";
	case PTXVM_ERROR_INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
	case PTXVM_ERROR_OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
	case PTXVM_ERROR_INVALID_PTX: return "CUDA_ERROR_INVALID_PTX";
	case PTXVM_ERROR_INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
	case PTXVM_ERROR_NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
	case PTXVM_ERROR_ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
	case PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
	case PTXVM_ERROR_LAUNCH_TIMEOUT: return "CUDA_ERROR_LAUNCH_TIMEOUT";
	case PTXVM_ERROR_ASSERT: return "CUDA_ERROR_ASSERT";
	case PTXVM_ERROR_HARDWARE_STACK_ERROR: return "CUDA_ERROR_HARDWARE_STACK_ERROR";
	case PTXVM_ERROR_ILLEGAL_INSTRUCTION: return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
	case PTXVM_ERROR_MISALIGNED_ADDRESS: return "CUDA_ERROR_MISALIGNED_ADDRESS";
	case PTXVM_ERROR_INVALID_ADDRESS_SPACE: return "CUDA_ERROR_INVALID_ADDRESS_SPACE";
	case PTXVM_ERROR_LAUNCH_FAILED: return "CUDA_ERROR_LAUNCH_FAILED";
	case PTXVM_ERROR_NOT_SUPPORTED: return "CUDA_ERROR_NOT_SUPPORTED";
	}
	return "CUDA_ERROR_UNKNOWN";
}

static ptxvm_result say(ptxvm_device *d, ptxvm_result r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static ptxvm_result say(ptxvm_device *d, ptxvm_result r, const char *fmt, ...)
{
	if (!d)
		return r;
	free(d->msg);
	d->msg = NULL;
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		if (vasprintf(&d->msg, fmt, ap) < 0)
			d->msg = NULL;
		va_end(ap);
	}
	return r;
}

ptxvm_device *ptxvm_device_create(const ptxvm_device_opts *opts)
{
	ptxvm_device *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	mem_init(&d->mem);
	surf_init(&d->surf);
	tex_init(&d->tex);
	pthread_mutex_init(&d->lock, NULL);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	d->workers = opts && opts->workers ? opts->workers : n > 0 ? (unsigned)n : 1;
	if (d->workers > 1024)
		d->workers = 1024;
	d->timeout = opts && opts->timeout > 0 ? opts->timeout : 0;
	d->stack_bytes = opts && opts->stack_bytes ? opts->stack_bytes : 16384;
	d->out = opts && opts->printf_stream ? opts->printf_stream : stdout;
	d->printf_fifo = opts && opts->printf_fifo_bytes ? opts->printf_fifo_bytes : FIFO_DEFAULT_BYTES;
	return d;
}

ptxvm_result ptxvm_device_set_limit(ptxvm_device *d, ptxvm_limit limit, size_t value)
{
	if (!d)
		return PTXVM_ERROR_INVALID_VALUE;
	if (limit != PTXVM_LIMIT_PRINTF_FIFO_SIZE)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_set_limit: limit %d is not supported",
			   (int)limit);
	if (!value)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "the printf FIFO must hold at least 1 byte");
	pthread_mutex_lock(&d->lock);
	bool printed = d->printed;
	if (!printed)
		d->printf_fifo = value;
	pthread_mutex_unlock(&d->lock);
	if (printed)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "the printf FIFO cannot change size after a kernel that "
			   "uses printf has been launched on the device (as in CUDA)");
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_device_get_limit(ptxvm_device *d, ptxvm_limit limit, size_t *value)
{
	if (!d || !value)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_get_limit: NULL argument");
	if (limit != PTXVM_LIMIT_PRINTF_FIFO_SIZE)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_device_get_limit: limit %d is not supported",
			   (int)limit);
	pthread_mutex_lock(&d->lock);
	*value = d->printf_fifo;
	pthread_mutex_unlock(&d->lock);
	return say(d, PTXVM_SUCCESS, NULL);
}

void ptxvm_device_destroy(ptxvm_device *d)
{
	if (!d)
		return;
	while (d->nprogs)
		ptxvm_program_unload(d->progs[d->nprogs - 1]);
	free(d->progs);
	mem_fini(&d->mem);
	surf_fini(&d->surf);
	tex_fini(&d->tex);
	pthread_mutex_destroy(&d->lock);
	free(d->msg);
	free(d);
}

const char *ptxvm_device_message(const ptxvm_device *d) { return d && d->msg ? d->msg : ""; }

/* ---- memory ------------------------------------------------------------- */
ptxvm_result ptxvm_mem_alloc(ptxvm_device *d, size_t bytes, uint64_t *dptr)
{
	if (!d || !dptr)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mem_alloc: NULL argument");
	if (!mem_alloc(&d->mem, bytes, ALLOC_GLOBAL, dptr))
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "cannot allocate %zu bytes of device memory", bytes);
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_mem_free(ptxvm_device *d, uint64_t dptr)
{
	if (!d)
		return PTXVM_ERROR_INVALID_VALUE;
	const Alloc *a = mem_find(&d->mem, dptr, 0);
	if (!a || a->base != dptr || a->kind != ALLOC_GLOBAL)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "0x%llx is not the start of a device allocation",
			   (unsigned long long)dptr);
	mem_free(&d->mem, dptr);
	return say(d, PTXVM_SUCCESS, NULL);
}

static uint8_t *range(ptxvm_device *d, uint64_t a, size_t n, const char *what)
{
	uint8_t *p = mem_host(&d->mem, a, n);
	if (!p)
		say(d, PTXVM_ERROR_INVALID_VALUE, "%s: [0x%llx, +%zu) is not inside one device allocation",
		    what, (unsigned long long)a, n);
	return p;
}

ptxvm_result ptxvm_memcpy_htod(ptxvm_device *d, uint64_t dst, const void *src, size_t n)
{
	if (!d || (!src && n))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy_htod: NULL argument");
	uint8_t *p = range(d, dst, n, "ptxvm_memcpy_htod");
	if (!p)
		return PTXVM_ERROR_INVALID_VALUE;
	if (n)
		memmove(p, src, n);
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_memcpy_dtoh(ptxvm_device *d, void *dst, uint64_t src, size_t n)
{
	if (!d || (!dst && n))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy_dtoh: NULL argument");
	uint8_t *p = range(d, src, n, "ptxvm_memcpy_dtoh");
	if (!p)
		return PTXVM_ERROR_INVALID_VALUE;
	if (n)
		memmove(dst, p, n);
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_memcpy_dtod(ptxvm_device *d, uint64_t dst, uint64_t src, size_t n)
{
	if (!d)
		return PTXVM_ERROR_INVALID_VALUE;
	uint8_t *s = range(d, src, n, "ptxvm_memcpy_dtod source");
	uint8_t *t = s ? range(d, dst, n, "ptxvm_memcpy_dtod destination") : NULL;
	if (!t)
		return PTXVM_ERROR_INVALID_VALUE;
	if (n)
		memmove(t, s, n);
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_memset_d8(ptxvm_device *d, uint64_t dst, uint8_t v, size_t n)
{
	if (!d)
		return PTXVM_ERROR_INVALID_VALUE;
	uint8_t *p = range(d, dst, n, "ptxvm_memset_d8");
	if (!p)
		return PTXVM_ERROR_INVALID_VALUE;
	if (n)
		memset(p, v, n);
	return say(d, PTXVM_SUCCESS, NULL);
}

/* ---- programs ----------------------------------------------------------- */
/* The first instruction of f (or of a function it calls) that ptxvm cannot
 * execute, as "file:line:col: error: ...". */
static char *why_not(const Prog *p, const XFunc *f, uint8_t *seen)
{
	size_t i = (size_t)(f - p->fn);
	if (seen[i])
		return NULL;
	seen[i] = 1;
	if (f->why)
		return strdup(f->why);
	for (uint32_t k = 0; k < f->ncode; k++) {
		const XIns *x = &f->code[k];
		const char *why = exec_unsupported(x);
		if (why) {
			char *s = NULL;
			if (asprintf(&s, "%s:%u:%u: error: %s: %s", p->file, x->src->pos.line, x->src->pos.col,
				     isa_op[x->op].name, why) < 0)
				s = NULL;
			return s;
		}
		if (x->op == OPC_call && x->irnd) {
			char *s = why_not(p, &p->fn[x->target], seen);
			if (s)
				return s;
		}
	}
	return NULL;
}

/* A kernel that asks for clusters of several CTAs: ptxvm runs every
 * cluster as one CTA, which such a kernel would notice. */
static char *cluster_why(const Prog *p, const XFunc *f)
{
	const Func *a = f->ast;
	for (uint32_t i = 0; i < a->nperf; i++) {
		const PerfDir *d = &a->perf[i];
		uint64_t n = 1;
		for (unsigned k = 0; k < d->n; k++)
			n *= d->v[k] ? d->v[k] : 1;
		if (d->kind == PD_EXPLICITCLUSTER || (d->kind == PD_REQNCTAPERCLUSTER && n > 1)) {
			char *s = NULL;
			if (asprintf(&s, "%s:%u:%u: error: kernel '%s' asks for clusters of several CTAs (.%s), "
				     "which are not executable yet", p->file, d->pos.line, d->pos.col, f->name,
				     perf_name[d->kind]) < 0)
				s = NULL;
			return s;
		}
	}
	return NULL;
}

/* A .global .surfref with a static initializer starts out holding a
 * description-only surface object, so that suq answers from its fields
 * until the host binds the variable. */
static void static_surfaces(ptxvm_device *d, const Prog *pg)
{
	static const char *const field[7] = { "width", "height", "depth", "channel_data_type", "channel_order",
					       "array_size", "memory_layout" };
	for (uint32_t i = 0; i < pg->nvars; i++) {
		const XVar *v = &pg->vars[i];
		const Init *in = v->d->init;
		if (v->d->type != TY_surfref || !v->d->has_init || !in || in->kind != IN_FIELDS)
			continue;
		uint32_t q[7] = { 0, 0, 0, 0, 0, 0, 0 };
		for (uint32_t k = 0; k < in->n; k++)
			for (int f = 0; f < 7; f++)
				if (str_eq(in->items[k].name, field[f]) && in->items[k].sub &&
				    in->items[k].sub->kind == IN_INT)
					q[f] = (uint32_t)in->items[k].sub->ival;
		pthread_mutex_lock(&d->lock);
		uint64_t h = surf_static_new(&d->surf, q);
		uint8_t *host = h ? mem_host(&d->mem, v->addr, 8) : NULL;
		if (host)
			memcpy(host, &h, 8);
		pthread_mutex_unlock(&d->lock);
	}
}

ptxvm_result ptxvm_program_load(ptxvm_device *d, const ptxvm_module *m, ptxvm_program **out)
{
	if (!d || !m || !out)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_program_load: NULL argument");
	*out = NULL;
	if (ptxvm_module_errors(m))
		return say(d, PTXVM_ERROR_INVALID_PTX, "the module has %zu errors", ptxvm_module_errors(m));
	ptxvm_program *p = calloc(1, sizeof *p);
	if (!p)
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	p->d = d;
	p->m = host_module_copy(m, &p->text, &p->file);
	if (!p->m) {
		free(p);
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	char *err = NULL;
	pthread_mutex_lock(&d->lock);
	p->prog = prog_lower(p->m, &d->mem, &err);
	pthread_mutex_unlock(&d->lock);
	if (!p->prog) {
		ptxvm_result r = say(d, PTXVM_ERROR_NOT_SUPPORTED, "%s", err ? err : "cannot load the module");
		free(err);
		ptx_module_free(p->m);
		free(p->text);
		free(p->file);
		free(p);
		return r;
	}
	const Prog *pg = p->prog;
	static_surfaces(d, pg);
	char *bad = host_static_textures(d, pg);
	if (bad) {
		ptxvm_result r = say(d, PTXVM_ERROR_NOT_SUPPORTED, "%s", bad);
		free(bad);
		host_release_textures(d, pg);
		pthread_mutex_lock(&d->lock);
		prog_free(p->prog, &d->mem);
		pthread_mutex_unlock(&d->lock);
		ptx_module_free(p->m);
		free(p->text);
		free(p->file);
		free(p);
		return r;
	}
	p->k = calloc(pg->nfn + 1, sizeof *p->k);
	uint8_t *seen = calloc(pg->nfn + 1, 1);
	for (uint32_t i = 0; i < pg->nfn; i++)
		if (pg->fn[i].entry) {
			memset(seen, 0, pg->nfn);
			char *why = cluster_why(pg, &pg->fn[i]);
			if (!why)
				why = why_not(pg, &pg->fn[i], seen);
			p->k[p->nk++] = (ptxvm_kernel){ p, &pg->fn[i], why };
		}
	free(seen);
	pthread_mutex_lock(&d->lock);
	if (d->nprogs == d->capprogs) {
		d->capprogs = d->capprogs ? d->capprogs * 2 : 4;
		d->progs = realloc(d->progs, d->capprogs * sizeof *d->progs);
	}
	d->progs[d->nprogs++] = p;
	pthread_mutex_unlock(&d->lock);
	*out = p;
	return say(d, PTXVM_SUCCESS, NULL);
}

void ptxvm_program_unload(ptxvm_program *p)
{
	if (!p)
		return;
	ptxvm_device *d = p->d;
	host_release_textures(d, p->prog);
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->nprogs; i++)
		if (d->progs[i] == p) {
			d->progs[i] = d->progs[--d->nprogs];
			break;
		}
	prog_free(p->prog, &d->mem);
	pthread_mutex_unlock(&d->lock);
	for (size_t i = 0; i < p->nk; i++)
		free((char *)p->k[i].why);
	free(p->k);
	ptx_module_free(p->m);
	free(p->text);
	free(p->file);
	free(p);
}

ptxvm_result ptxvm_program_global(ptxvm_program *p, const char *name, uint64_t *dptr, size_t *bytes)
{
	if (!p || !name)
		return PTXVM_ERROR_INVALID_VALUE;
	for (uint32_t i = 0; i < p->prog->nvars; i++)
		if (!strcmp(p->prog->vars[i].name, name)) {
			if (dptr)
				*dptr = p->prog->vars[i].addr;
			if (bytes)
				*bytes = (size_t)p->prog->vars[i].bytes;
			return say(p->d, PTXVM_SUCCESS, NULL);
		}
	return say(p->d, PTXVM_ERROR_NOT_FOUND, "no .global or .const variable '%s'", name);
}

/* ---- kernels ------------------------------------------------------------ */
size_t ptxvm_kernel_count(const ptxvm_program *p) { return p ? p->nk : 0; }

const ptxvm_kernel *ptxvm_kernel_at(const ptxvm_program *p, size_t i)
{
	return p && i < p->nk ? &p->k[i] : NULL;
}

const ptxvm_kernel *ptxvm_kernel_find(const ptxvm_program *p, const char *name)
{
	if (!p || !name)
		return NULL;
	for (size_t i = 0; i < p->nk; i++)
		if (!strcmp(p->k[i].f->name, name))
			return &p->k[i];
	return NULL;
}

const char *ptxvm_kernel_name(const ptxvm_kernel *k) { return k ? k->f->name : NULL; }
size_t ptxvm_kernel_param_count(const ptxvm_kernel *k) { return k ? k->f->nparams : 0; }
size_t ptxvm_kernel_params_size(const ptxvm_kernel *k) { return k ? k->f->param_bytes : 0; }

int ptxvm_kernel_param(const ptxvm_kernel *k, size_t i, ptxvm_param_info *out)
{
	if (!k || !out || i >= k->f->nparams)
		return -1;
	const XKParam *q = &k->f->kparams[i];
	*out = (ptxvm_param_info){ q->name, q->type, q->off, q->bytes, q->align, q->is_ptr };
	return 0;
}

/* ---- launches ----------------------------------------------------------- */
#define MAX_SHARED (227u * 1024)        /* sm_90's largest shared memory per CTA */

ptxvm_result ptxvm_launch_packed(ptxvm_device *d, const ptxvm_kernel *k, const ptxvm_launch_config *cfg,
				 const void *params, size_t bytes, ptxvm_launch_stats *stats)
{
	if (!d || !k || !cfg)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_launch: NULL argument");
	if (k->p->d != d)
		return say(d, PTXVM_ERROR_INVALID_HANDLE, "the kernel belongs to another device");
	if (k->why)
		return say(d, PTXVM_ERROR_NOT_SUPPORTED, "%s", k->why);
	if (bytes != k->f->param_bytes || (bytes && !params))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s' takes %u bytes of parameters, not %zu",
			   k->f->name, k->f->param_bytes, bytes);
	uint32_t g[3], b[3];
	for (int i = 0; i < 3; i++) {
		g[i] = cfg->grid[i] ? cfg->grid[i] : 1;
		b[i] = cfg->block[i] ? cfg->block[i] : 1;
	}
	uint64_t nthreads = (uint64_t)b[0] * b[1] * b[2];
	if (nthreads > 1024 || b[2] > 64)
		return say(d, PTXVM_ERROR_INVALID_VALUE,
			   "a CTA of %ux%ux%u threads: at most 1024 threads, and z at most 64", b[0], b[1], b[2]);
	if (g[0] > 0x7fffffffu || g[1] > 65535 || g[2] > 65535)
		return say(d, PTXVM_ERROR_INVALID_VALUE,
			   "a grid of %ux%ux%u CTAs: x below 2^31, y and z at most 65535", g[0], g[1], g[2]);
	const Prog *pg = k->p->prog;
	uint64_t sh = ((uint64_t)pg->shared_bytes + cfg->shared_bytes);    /* with the reserved 1 KB */
	if (sh - XSMEM_RESERVED > MAX_SHARED)
		return say(d, PTXVM_ERROR_INVALID_VALUE,
			   "%llu bytes of shared memory (%u static + %zu dynamic) exceed the %u a CTA can have",
			   (unsigned long long)(sh - XSMEM_RESERVED), pg->shared_bytes - XSMEM_RESERVED,
			   cfg->shared_bytes, MAX_SHARED);
	uint64_t local = ((uint64_t)k->f->frame_bytes + d->stack_bytes + 15) & ~15ull;
	if (local > (1u << 24))
		return say(d, PTXVM_ERROR_LAUNCH_OUT_OF_RESOURCES, "%llu bytes of local memory per thread",
			   (unsigned long long)local);
	Launch L = {
		.p = pg, .k = k->f, .mem = &d->mem,
		.grid = { g[0], g[1], g[2] }, .block = { b[0], b[1], b[2] },
		.nthreads = (uint32_t)nthreads, .nwarps = (uint32_t)((nthreads + 31) / 32),
		.ncta = (uint64_t)g[0] * g[1] * g[2],
		.dyn_shared = (uint32_t)cfg->shared_bytes, .shared_bytes = (uint32_t)sh,
		.params = params, .param_bytes = (uint32_t)bytes,
		.stack_bytes = (uint32_t)d->stack_bytes, .local_bytes = (uint32_t)local,
		.workers = d->workers, .timeout = d->timeout, .out = d->out, .surf = &d->surf,
		.tex = &d->tex,
	};
	pthread_mutex_lock(&d->lock);
	L.grid_id = ++d->launches;
	L.printf_fifo = d->printf_fifo;
	double t0 = exec_now();
	int code = launch_run(&L);
	double t1 = exec_now();
	d->printed |= L.uses_printf;
	pthread_mutex_unlock(&d->lock);
	if (stats) {
		stats->thread_instructions = atomic_load(&L.thread_ins);
		stats->warp_instructions = atomic_load(&L.warp_ins);
		stats->seconds = t1 - t0;
		stats->workers = L.workers < L.ncta ? L.workers : (unsigned)L.ncta;
		stats->printf_dropped = L.printf_dropped;
	}
	ptxvm_result r = say(d, (ptxvm_result)code, "%s", L.report ? L.report : "");
	free(L.report);
	return r;
}

ptxvm_result ptxvm_launch(ptxvm_device *d, const ptxvm_kernel *k, const ptxvm_launch_config *cfg,
			  void *const *args, ptxvm_launch_stats *stats)
{
	if (!d || !k)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_launch: NULL argument");
	size_t n = k->f->param_bytes;
	if (k->f->nparams && !args)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "kernel '%s' takes %u parameters; args is NULL",
			   k->f->name, k->f->nparams);
	uint8_t *buf = calloc(n + 1, 1);
	if (!buf)
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "out of memory");
	for (uint32_t i = 0; i < k->f->nparams; i++) {
		const XKParam *q = &k->f->kparams[i];
		if (!args[i]) {
			free(buf);
			return say(d, PTXVM_ERROR_INVALID_VALUE, "argument %u ('%s') is NULL", i, q->name);
		}
		memcpy(buf + q->off, args[i], q->bytes);
	}
	ptxvm_result r = ptxvm_launch_packed(d, k, cfg, buf, n, stats);
	free(buf);
	return r;
}

ptxvm_result ptxvm_device_synchronize(ptxvm_device *d)
{
	return d ? say(d, PTXVM_SUCCESS, NULL) : PTXVM_ERROR_INVALID_VALUE;
}

/* ---- arrays and surfaces ------------------------------------------------ */
ptxvm_result ptxvm_array_create(ptxvm_device *d, const ptxvm_array_desc *a, uint64_t *array)
{
	if (!d || !a || !array)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_array_create: NULL argument");
	uint32_t sz[4];
	char why[256];
	if (surf_shape(a, sz, why, sizeof why))
		return say(d, PTXVM_ERROR_INVALID_VALUE, "%s", why);
	pthread_mutex_lock(&d->lock);
	uint64_t id = surf_array_new(&d->surf, a->kind, a->format, a->channels, sz[0], sz[1], sz[2], sz[3]);
	pthread_mutex_unlock(&d->lock);
	if (!id)
		return say(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for the array");
	*array = id;
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_array_destroy(ptxvm_device *d, uint64_t array)
{
	if (!d)
		return PTXVM_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&d->lock);
	bool ok = surf_array_free(&d->surf, array);
	pthread_mutex_unlock(&d->lock);
	return ok ? say(d, PTXVM_SUCCESS, NULL)
		  : say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not an array", (unsigned long long)array);
}

size_t ptxvm_array_bytes(const ptxvm_device *d, uint64_t array)
{
	const SurfArray *a = d ? surf_array(&d->surf, array) : NULL;
	return a ? a->bytes : 0;
}

static ptxvm_result array_copy(ptxvm_device *d, uint64_t array, void *host, size_t bytes, bool in)
{
	if (!d || !host)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "array copy: NULL argument");
	pthread_mutex_lock(&d->lock);
	SurfArray *a = surf_array(&d->surf, array);
	ptxvm_result r = PTXVM_SUCCESS;
	if (!a)
		r = say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not an array", (unsigned long long)array);
	else if (bytes != a->bytes)
		r = say(d, PTXVM_ERROR_INVALID_VALUE, "the array holds %zu bytes, not %zu", a->bytes, bytes);
	else if (in)
		memcpy(a->data, host, bytes);
	else
		memcpy(host, a->data, bytes);
	pthread_mutex_unlock(&d->lock);
	return r ? r : say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_array_write(ptxvm_device *d, uint64_t array, const void *src, size_t bytes)
{
	return array_copy(d, array, (void *)src, bytes, true);
}

ptxvm_result ptxvm_array_read(ptxvm_device *d, uint64_t array, void *dst, size_t bytes)
{
	return array_copy(d, array, dst, bytes, false);
}

ptxvm_result ptxvm_surface_create(ptxvm_device *d, uint64_t array, uint64_t *surface)
{
	if (!d || !surface)
		return say(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_surface_create: NULL argument");
	pthread_mutex_lock(&d->lock);
	uint64_t h = surf_object_new(&d->surf, array);
	pthread_mutex_unlock(&d->lock);
	if (!h)
		return say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not an array", (unsigned long long)array);
	*surface = h;
	return say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_surface_destroy(ptxvm_device *d, uint64_t surface)
{
	if (!d)
		return PTXVM_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&d->lock);
	bool ok = surf_object_free(&d->surf, surface);
	pthread_mutex_unlock(&d->lock);
	return ok ? say(d, PTXVM_SUCCESS, NULL)
		  : say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a surface object", (unsigned long long)surface);
}

ptxvm_result ptxvm_program_bind_surface(ptxvm_program *p, const char *name, uint64_t surface)
{
	if (!p || !name)
		return PTXVM_ERROR_INVALID_VALUE;
	ptxvm_device *d = p->d;
	const XVar *v = NULL;
	for (uint32_t i = 0; i < p->prog->nvars; i++)
		if (!strcmp(p->prog->vars[i].name, name))
			v = &p->prog->vars[i];
	if (!v || v->d->type != TY_surfref)
		return say(d, PTXVM_ERROR_NOT_FOUND, "no .global .surfref variable '%s'", name);
	pthread_mutex_lock(&d->lock);
	bool ok = surf_lookup(&d->surf, surface) != NULL;
	uint8_t *host = ok ? mem_host(&d->mem, v->addr, 8) : NULL;
	if (host)
		memcpy(host, &surface, 8);
	pthread_mutex_unlock(&d->lock);
	if (!ok)
		return say(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a surface object", (unsigned long long)surface);
	return say(d, PTXVM_SUCCESS, NULL);
}

/* ---- for the interface's other files (host.h) ----------------------------- */
HostDev host_dev(ptxvm_device *d) { return (HostDev){ &d->mem, &d->surf, &d->tex, &d->lock }; }
ptxvm_device *host_prog_device(const ptxvm_program *p) { return p->d; }
const Prog *host_prog(const ptxvm_program *p) { return p->prog; }

ptxvm_result host_say(ptxvm_device *d, ptxvm_result r, const char *fmt, ...)
{
	char *s = NULL;
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		if (vasprintf(&s, fmt, ap) < 0)
			s = NULL;
		va_end(ap);
	}
	say(d, r, s ? "%s" : NULL, s);
	free(s);
	return r;
}
