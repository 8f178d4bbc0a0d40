/* t_threads.c: many host threads on one device, as ptxvm.h allows: the
 * group ThreadSanitizer runs.
 *
 *   work        launches, allocations, copies and frees from 4 threads
 *   messages    each thread's message is its own (no double free)
 *   concurrent  two launches from two threads run at the same time: each
 *               waits for the other
 *   deferred    memory freed, a program unloaded, an array destroyed, a
 *               texture and its array destroyed by one thread while
 *               another's launch uses them: the launch finishes on intact
 *               objects, new calls see them gone
 *   destroy     ptxvm_device_destroy waits for a launch in another thread
 *   churn       programs, arrays, surfaces, textures, samplers and memory
 *               made and freed, and the device's limits read and set,
 *               from 4 threads while launches run
 *   turns       a kernel whose CTAs cannot wait for each other has them
 *               dealt to the workers in turns
 *   tear        a memory-model vector store and load on two workers: no
 *               load sees half of a store
 *   alone       atomics of launches that run alone on one worker, as
 *               plain reads and writes (src/exec/solo.h), and of others
 *               started meanwhile on the same counters from 4 threads: no
 *               update lost; a .sys atomic of a launch alone and the
 *               host's own atomics on the same word, in mapped memory
 *               and in a __managed__ variable: none lost either; nor a
 *               copy (and a 3D copy) to a word a launch alone polls with
 *               atomics
 *               (not under ThreadSanitizer, to which that is a race)
 *   fork        a child of fork, whose parent's launches left their worker
 *               threads waiting (src/exec/pool.c), launches on two workers
 *               (not under ThreadSanitizer, which cannot start threads
 *               after a fork of a process with threads)
 *
 * Kernels that must overlap a host thread's call wait on flags in device
 * memory that other launches set (atomics on both sides), never on the
 * clock; each device has a watchdog so that a failure cannot hang.
 */
#include "test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"
#define NT 4

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

/* fill: out[i] = v + i.  oob: a store outside every allocation.
 * wait: spins until *flag != 0.  set: *flag = 1.
 * hold: *started = 1, waits for *go, then dst[i] = src[i] (32 threads).
 * ping: *mine = 1, then waits for *other. */
static const char *const k_main =
	HDR
	".visible .entry fill(.param .u64 out, .param .u32 v)\n{\n"
	"\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<5>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [v];\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n"
	"\tmad.lo.u32 %r2, %r3, %r4, %r2;\n\tadd.u32 %r1, %r1, %r2;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n"
	".visible .entry oob(.param .u64 p)\n{\n\t.reg .b64 %rd;\n\t.reg .b32 %r;\n"
	"\tld.param.u64 %rd, [p];\n\tst.global.u32 [%rd+1048576], %r;\n\tret;\n}\n"
	".visible .entry wait(.param .u64 flag)\n{\n\t.reg .b64 %rd;\n\t.reg .b32 %r;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd, [flag];\nL:\n\tatom.global.add.u32 %r, [%rd], 0;\n\tsetp.eq.u32 %p, %r, 0;\n"
	"\t@%p bra L;\n\tret;\n}\n"
	".visible .entry set(.param .u64 flag)\n{\n\t.reg .b64 %rd;\n\t.reg .b32 %r;\n"
	"\tld.param.u64 %rd, [flag];\n\tatom.global.exch.b32 %r, [%rd], 1;\n\tret;\n}\n"
	".visible .entry ping(.param .u64 mine, .param .u64 other)\n{\n\t.reg .b64 %rd<3>;\n\t.reg .b32 %r;\n"
	"\t.reg .pred %p;\n\tld.param.u64 %rd1, [mine];\n\tld.param.u64 %rd2, [other];\n"
	"\tatom.global.exch.b32 %r, [%rd1], 1;\nL:\n\tatom.global.add.u32 %r, [%rd2], 0;\n"
	"\tsetp.eq.u32 %p, %r, 0;\n\t@%p bra L;\n\tret;\n}\n";

/* The kernels another thread's call pulls the ground from under;
 * hold_print prints "held" first. */
static const char *const k_hold =
	HDR
	".extern .func (.param .b32 st) vprintf(.param .b64 f, .param .b64 a);\n"
	".global .align 1 .b8 said[6] = { 104, 101, 108, 100, 10, 0 };\n"
	".visible .entry hold_print(.param .u64 started, .param .u64 go, .param .u64 src, .param .u64 dst)\n{\n"
	"\t.reg .b64 %rd<3>;\n\t.reg .b32 %r;\n\t.reg .pred %p;\n"
	"\t.param .b64 f;\n\t.param .b64 a;\n\t.param .b32 st;\n"
	"\tmov.u64 %rd1, said;\n\tcvta.global.u64 %rd1, %rd1;\n\tst.param.b64 [f], %rd1;\n"
	"\tst.param.b64 [a], 0;\n\tcall (st), vprintf, (f, a);\n"
	"\tld.param.u64 %rd1, [started];\n\tld.param.u64 %rd2, [go];\n"
	"\tatom.global.exch.b32 %r, [%rd1], 1;\nL:\n\tatom.global.add.u32 %r, [%rd2], 0;\n"
	"\tsetp.eq.u32 %p, %r, 0;\n\t@%p bra L;\n\tret;\n}\n"
	".visible .entry hold(.param .u64 started, .param .u64 go, .param .u64 src, .param .u64 dst)\n{\n"
	"\t.reg .b64 %rd<7>;\n\t.reg .b32 %r<3>;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd1, [started];\n\tld.param.u64 %rd2, [go];\n"
	"\tld.param.u64 %rd3, [src];\n\tld.param.u64 %rd4, [dst];\n"
	"\tatom.global.exch.b32 %r1, [%rd1], 1;\nL:\n\tatom.global.add.u32 %r1, [%rd2], 0;\n"
	"\tsetp.eq.u32 %p, %r1, 0;\n\t@%p bra L;\n"
	"\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd5, %r2, 4;\n\tadd.u64 %rd6, %rd3, %rd5;\n"
	"\tld.global.u32 %r1, [%rd6];\n\tadd.u64 %rd6, %rd4, %rd5;\n\tst.global.u32 [%rd6], %r1;\n\tret;\n}\n"
	".visible .entry hold_surf(.param .u64 started, .param .u64 go, .param .u64 surf, .param .u64 dst)\n{\n"
	"\t.reg .b64 %rd<6>;\n\t.reg .b32 %r<4>;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd1, [started];\n\tld.param.u64 %rd2, [go];\n"
	"\tld.param.u64 %rd3, [surf];\n\tld.param.u64 %rd4, [dst];\n"
	"\tatom.global.exch.b32 %r1, [%rd1], 1;\nL:\n\tatom.global.add.u32 %r1, [%rd2], 0;\n"
	"\tsetp.eq.u32 %p, %r1, 0;\n\t@%p bra L;\n"
	"\tmov.u32 %r2, %tid.x;\n\tshl.b32 %r3, %r2, 2;\n\tsuld.b.1d.b32.trap {%r1}, [%rd3, {%r3}];\n"
	"\tmul.wide.u32 %rd5, %r2, 4;\n\tadd.u64 %rd5, %rd4, %rd5;\n\tst.global.u32 [%rd5], %r1;\n\tret;\n}\n"
	".visible .entry hold_tex(.param .u64 started, .param .u64 go, .param .u64 tex, .param .u64 dst)\n{\n"
	"\t.reg .b64 %rd<6>;\n\t.reg .b32 %r<6>;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd1, [started];\n\tld.param.u64 %rd2, [go];\n"
	"\tld.param.u64 %rd3, [tex];\n\tld.param.u64 %rd4, [dst];\n"
	"\tatom.global.exch.b32 %r1, [%rd1], 1;\nL:\n\tatom.global.add.u32 %r1, [%rd2], 0;\n"
	"\tsetp.eq.u32 %p, %r1, 0;\n\t@%p bra L;\n"
	"\tmov.u32 %r2, %tid.x;\n\ttex.1d.v4.s32.s32 {%r1, %r3, %r4, %r5}, [%rd3, {%r2}];\n"
	"\tmul.wide.u32 %rd5, %r2, 4;\n\tadd.u64 %rd5, %rd4, %rd5;\n\tst.global.u32 [%rd5], %r1;\n\tret;\n}\n";

typedef struct Ctx {
	ptxvm_device *d;
	ptxvm_program *p;       /* k_main */
	int id;
	char err[512];          /* the first problem, or "" */
	atomic_int *flag;       /* a host-side signal, per test */
} Ctx;

static void note(Ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(Ctx *c, const char *fmt, ...)
{
	if (c->err[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof c->err, fmt, ap);
	va_end(ap);
}

static ptxvm_result run1(ptxvm_device *d, ptxvm_program *p, const char *k, unsigned grid, unsigned block,
			 void **args)
{
	ptxvm_launch_config cfg = { { grid, 1, 1 }, { block, 1, 1 }, 0, { 0, 0, 0 } };
	return ptxvm_launch(d, ptxvm_kernel_find(p, k), &cfg, args, NULL);
}

/* The contexts of NT threads on d and p. */
static void ctx_fill(Ctx *ctx, ptxvm_device *d, ptxvm_program *p)
{
	for (int i = 0; i < NT; i++)
		ctx[i] = (Ctx){ .d = d, .p = p, .id = i };
}

/* Runs fn on n threads and reports the scenario. */
static void in_threads(const char *what, int n, void *(*fn)(void *), Ctx *ctx)
{
	pthread_t th[NT + 1];
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, fn, &ctx[i]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < n; i++)
		if (ctx[i].err[0]) {
			fail("threads %s: thread %d: %s", what, i, ctx[i].err);
			return;
		}
	passed++;
}

static uint64_t dalloc(ptxvm_device *d, size_t n)
{
	uint64_t a = 0;
	if (ptxvm_mem_alloc(d, n, &a) || ptxvm_memset_d8(d, a, 0, n))
		return 0;
	return a;
}

/* ---- work: launches, copies and frees ------------------------------------ */
static void *work(void *arg)
{
	Ctx *c = arg;
	enum { N = 256 };
	uint32_t host[N];
	for (int it = 0; it < 20 && !c->err[0]; it++) {
		uint64_t out = dalloc(c->d, N * 4);
		uint32_t v = (uint32_t)(c->id * 100000 + it * 1000);
		void *args[] = { &out, &v };
		ptxvm_result r = out ? run1(c->d, c->p, "fill", 2, 128, args) : PTXVM_ERROR_OUT_OF_MEMORY;
		if (r || ptxvm_memcpy_dtoh(c->d, host, out, sizeof host))
			note(c, "iteration %d: %s: %s", it, ptxvm_result_name(r), ptxvm_device_message(c->d));
		for (int i = 0; i < N && !c->err[0]; i++)
			if (host[i] != v + (uint32_t)i)
				note(c, "iteration %d: out[%d] = %u, want %u", it, i, host[i], v + i);
		if (ptxvm_mem_free(c->d, out))
			note(c, "free: %s", ptxvm_device_message(c->d));
	}
	return NULL;
}

/* ---- messages: each thread's own ----------------------------------------- */
static void *messages(void *arg)
{
	Ctx *c = arg;
	uint64_t buf = dalloc(c->d, 64);
	for (int it = 0; it < 200 && !c->err[0]; it++) {
		if (c->id & 1) {
			uint64_t bogus = 0x1000 + (uint64_t)c->id;
			char want[64];
			snprintf(want, sizeof want, "0x%llx is not the start", (unsigned long long)bogus);
			ptxvm_result r = ptxvm_mem_free(c->d, bogus);
			if (r != PTXVM_ERROR_INVALID_VALUE || !strstr(ptxvm_device_message(c->d), want))
				note(c, "a bad free: %s, message '%s'", ptxvm_result_name(r), ptxvm_device_message(c->d));
			if (it % 20 == 0) {
				void *args[] = { &buf };
				r = run1(c->d, c->p, "oob", 1, 32, args);
				if (r != PTXVM_ERROR_ILLEGAL_ADDRESS ||
				    !strstr(ptxvm_device_message(c->d), "kernel 'oob', CTA (0,0,0)"))
					note(c, "the oob launch: %s, message '%s'", ptxvm_result_name(r),
					     ptxvm_device_message(c->d));
			}
		} else {
			uint64_t a = 0;
			ptxvm_result r = ptxvm_mem_alloc(c->d, 128, &a);
			if (r || *ptxvm_device_message(c->d))
				note(c, "an allocation: %s, message '%s'", ptxvm_result_name(r), ptxvm_device_message(c->d));
			r = ptxvm_mem_free(c->d, a);
			if (r || *ptxvm_device_message(c->d))
				note(c, "its free: %s, message '%s'", ptxvm_result_name(r), ptxvm_device_message(c->d));
		}
	}
	ptxvm_mem_free(c->d, buf);
	return NULL;
}

/* ---- concurrent: two launches that need each other ----------------------- */
static uint64_t g_flags;        /* two words */

static void *ping(void *arg)
{
	Ctx *c = arg;
	uint64_t mine = g_flags + 4 * (uint64_t)c->id, other = g_flags + 4 * (uint64_t)(1 - c->id);
	void *args[] = { &mine, &other };
	ptxvm_result r = run1(c->d, c->p, "ping", 1, 1, args);
	if (r)
		note(c, "%s: %s", ptxvm_result_name(r), ptxvm_device_message(c->d));
	return NULL;
}

/* ---- deferred: objects that go while a launch uses them ------------------ */
typedef struct Hold {
	ptxvm_program *held;    /* the program of hold / hold_surf */
	const char *kernel;
	uint64_t started, go, arg, dst;  /* the held launch's arguments */
	uint64_t src;           /* what the other thread frees: arg, or the surface's array */
	ptxvm_result result;    /* of the held launch */
	char msg[512];
} Hold;

static Hold g_hold;

static void *held_launch(void *arg)
{
	Ctx *c = arg;
	Hold *h = &g_hold;
	void *args[] = { &h->started, &h->go, &h->arg, &h->dst };
	h->result = run1(c->d, h->held, h->kernel, 1, 32, args);
	if (c->flag)
		atomic_store(c->flag, 1);       /* the device may be gone now */
	else
		snprintf(h->msg, sizeof h->msg, "%s", ptxvm_device_message(c->d));
	return NULL;
}

/* Waits until the held launch has begun; false with a note if not. */
static bool wait_started(Ctx *c)
{
	void *args[] = { &g_hold.started };
	ptxvm_result r = run1(c->d, c->p, "wait", 1, 1, args);
	if (r)
		note(c, "waiting for the held launch: %s: %s", ptxvm_result_name(r), ptxvm_device_message(c->d));
	return !r;
}

static void release(Ctx *c)
{
	void *args[] = { &g_hold.go };
	ptxvm_result r = run1(c->d, c->p, "set", 1, 1, args);
	if (r)
		note(c, "releasing the held launch: %s: %s", ptxvm_result_name(r), ptxvm_device_message(c->d));
}

static void *free_src(void *arg)
{
	Ctx *c = arg;
	if (!wait_started(c))
		return NULL;
	ptxvm_result r = ptxvm_mem_free(c->d, g_hold.src);
	uint32_t x;
	ptxvm_result r2 = ptxvm_memcpy_dtoh(c->d, &x, g_hold.src, 4);
	if (r)
		note(c, "the free: %s: %s", ptxvm_result_name(r), ptxvm_device_message(c->d));
	else if (r2 != PTXVM_ERROR_INVALID_VALUE)
		note(c, "a copy from the freed memory: %s, want CUDA_ERROR_INVALID_VALUE", ptxvm_result_name(r2));
	release(c);
	return NULL;
}

static void *unload_held(void *arg)
{
	Ctx *c = arg;
	if (!wait_started(c))
		return NULL;
	const ptxvm_kernel *k = ptxvm_kernel_find(g_hold.held, "hold");
	ptxvm_program_unload(g_hold.held);
	if (ptxvm_kernel_name(k))
		note(c, "the unloaded program's kernel still answers");
	release(c);
	return NULL;
}

static void *destroy_array(void *arg)
{
	Ctx *c = arg;
	if (!wait_started(c))
		return NULL;
	/* src is the array; its surface object (the kernel's handle) goes with it */
	ptxvm_result r = ptxvm_array_destroy(c->d, g_hold.src);
	uint32_t x[32];
	ptxvm_result r2 = ptxvm_array_read(c->d, g_hold.src, x, sizeof x);
	if (r)
		note(c, "the destroy: %s: %s", ptxvm_result_name(r), ptxvm_device_message(c->d));
	else if (r2 != PTXVM_ERROR_INVALID_HANDLE)
		note(c, "reading the destroyed array: %s, want CUDA_ERROR_INVALID_HANDLE", ptxvm_result_name(r2));
	release(c);
	return NULL;
}

static void *destroy_texture(void *arg)
{
	Ctx *c = arg;
	if (!wait_started(c))
		return NULL;
	/* arg is the texture object, src its array: both go */
	ptxvm_result r = ptxvm_texture_destroy(c->d, g_hold.arg), r1 = ptxvm_array_destroy(c->d, g_hold.src);
	ptxvm_result r2 = ptxvm_texture_destroy(c->d, g_hold.arg);
	if (r || r1)
		note(c, "the destroys: %s, %s: %s", ptxvm_result_name(r), ptxvm_result_name(r1),
		     ptxvm_device_message(c->d));
	else if (r2 != PTXVM_ERROR_INVALID_HANDLE)
		note(c, "destroying the texture again: %s, want CUDA_ERROR_INVALID_HANDLE", ptxvm_result_name(r2));
	release(c);
	return NULL;
}

/* The image a held launch reads: an array of 32 u32 holding want, and
 * the surface (image 1) or texture (2) object over it; 0 on failure. */
static uint64_t held_image(ptxvm_device *d, int image, const uint32_t *want, uint64_t *array)
{
	ptxvm_array_desc ad = { PTXVM_ARRAY_1D, PTXVM_FORMAT_U32, 1, 32, 0, 0, 0 };
	uint64_t h = 0;
	if (ptxvm_array_create(d, &ad, array) || ptxvm_array_write(d, *array, want, 32 * 4))
		return 0;
	if (image == 1) {
		ptxvm_surface_create(d, *array, &h);
	} else {
		ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY, .array = *array };
		ptxvm_texture_desc td = { .filter_mode = PTXVM_FILTER_POINT };
		ptxvm_texture_create(d, &rd, &td, &h);
	}
	return h;
}

/* One deferral scenario: thread 0 runs the held launch, thread 1 `what`.
 * image: the launch reads memory (0), a surface (1) or a texture (2). */
static void deferred(const char *what, Ctx *ctx, const char *kernel, int image, void *(*other)(void *))
{
	ptxvm_device *d = ctx[0].d;
	char why[1024];
	Hold *h = &g_hold;
	memset(h, 0, sizeof *h);
	h->kernel = kernel;
	h->held = load_ptx(d, "hold.ptx", k_hold, why, sizeof why);
	h->started = dalloc(d, 4);
	h->go = dalloc(d, 4);
	h->dst = dalloc(d, 128);
	uint32_t want[32];
	for (int i = 0; i < 32; i++)
		want[i] = 0xc0de0000u + (uint32_t)i;
	uint64_t obj = 0;
	if (image)
		obj = held_image(d, image, want, &h->src);
	else if ((h->src = dalloc(d, 128)))
		ptxvm_memcpy_htod(d, h->src, want, sizeof want);
	if (!h->held || !h->started || !h->go || !h->dst || !h->src || (image && !obj)) {
		fail("threads %s: setting up: %s %s", what, why, ptxvm_device_message(d));
		return;
	}
	h->arg = image ? obj : h->src;
	Ctx c[2] = { ctx[0], ctx[1] };
	c[0].err[0] = c[1].err[0] = 0;
	c[0].flag = c[1].flag = NULL;
	pthread_t t0, t1;
	pthread_create(&t0, NULL, held_launch, &c[0]);
	pthread_create(&t1, NULL, other, &c[1]);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	uint32_t got[32] = { 0 };
	ptxvm_memcpy_dtoh(d, got, h->dst, sizeof got);
	if (c[1].err[0])
		fail("threads %s: %s", what, c[1].err);
	else if (h->result)
		fail("threads %s: the held launch: %s: %s", what, ptxvm_result_name(h->result), h->msg);
	else if (memcmp(got, want, sizeof want))
		fail("threads %s: the held launch read %08x..., want %08x...", what, got[0], want[0]);
	else
		passed++;
	if (other != unload_held)
		ptxvm_program_unload(h->held);
	ptxvm_mem_free(d, h->started);
	ptxvm_mem_free(d, h->go);
	ptxvm_mem_free(d, h->dst);
}

/* ---- destroy: waits for a launch in another thread ----------------------- */
static void *destroy_device(void *arg)
{
	Ctx *c = arg;
	if (wait_started(c))
		ptxvm_device_destroy(c->d);
	return NULL;
}

/* ---- churn: everything at once ------------------------------------------- */
static void *churn(void *arg)
{
	Ctx *c = arg;
	char why[1024];
	for (int it = 0; it < 10 && !c->err[0]; it++) {
		switch ((c->id + it) % 3) {
		case 0: {       /* a program of its own, launched and unloaded */
			ptxvm_program *p = load_ptx(c->d, "main.ptx", k_main, why, sizeof why);
			uint64_t out = dalloc(c->d, 64 * 4);
			uint32_t v = 5, host[64];
			void *args[] = { &out, &v };
			ptxvm_result r = p && out ? run1(c->d, p, "fill", 1, 64, args) : PTXVM_ERROR_INVALID_VALUE;
			if (r || ptxvm_memcpy_dtoh(c->d, host, out, sizeof host) || host[63] != 5 + 63)
				note(c, "own program: %s: %s %s", ptxvm_result_name(r), why, ptxvm_device_message(c->d));
			ptxvm_program_unload(p);
			ptxvm_mem_free(c->d, out);
			break;
		}
		case 1: {       /* arrays, surfaces, textures, samplers, limits */
			ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_U8, 4, 64, 64, 0, 0 };
			ptxvm_texture_desc td = { .filter_mode = PTXVM_FILTER_POINT };
			uint64_t a = 0, s = 0, t = 0, m = 0, smp = 0;
			if (ptxvm_array_create(c->d, &ad, &a) || ptxvm_surface_create(c->d, a, &s) ||
			    ptxvm_texture_create(c->d, &(ptxvm_resource_desc){ .type = PTXVM_RESOURCE_ARRAY, .array = a },
						 &td, &t) ||
			    ptxvm_mipmapped_array_create(c->d, &ad, 4, &m) || ptxvm_sampler_create(c->d, &td, &smp) ||
			    ptxvm_surface_destroy(c->d, s) || ptxvm_array_destroy(c->d, a) ||
			    ptxvm_texture_destroy(c->d, t) || ptxvm_mipmapped_array_destroy(c->d, m) ||
			    ptxvm_sampler_destroy(c->d, smp))
				note(c, "images: %s", ptxvm_device_message(c->d));
			/* a module using printf has run (deferred): the FIFO's size is fixed */
			size_t fifo = 0;
			ptxvm_result r = ptxvm_device_set_limit(c->d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, 4096);
			if (r != PTXVM_ERROR_INVALID_VALUE || !strstr(ptxvm_device_message(c->d), "cannot change size") ||
			    ptxvm_device_get_limit(c->d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, &fifo) || fifo != 8650752)
				note(c, "limits: %s, %zu bytes: %s", ptxvm_result_name(r), fifo, ptxvm_device_message(c->d));
			break;
		}
		default: {      /* memory of many sizes */
			uint64_t a[8];
			for (int i = 0; i < 8; i++)
				a[i] = dalloc(c->d, (size_t)1 << (4 + i * 2));
			for (int i = 0; i < 8; i++)
				if (!a[i] || ptxvm_memcpy_dtod(c->d, a[7], a[i], (size_t)1 << (4 + i * 2)) ||
				    ptxvm_mem_free(c->d, a[i]))
					note(c, "memory: %s", ptxvm_device_message(c->d));
			break;
		}
		}
		uint64_t out = dalloc(c->d, 32 * 4);
		uint32_t v = 1;
		void *args[] = { &out, &v };
		ptxvm_result r = run1(c->d, c->p, "fill", 1, 32, args);
		if (r)
			note(c, "the shared program: %s: %s", ptxvm_result_name(r), ptxvm_device_message(c->d));
		ptxvm_mem_free(c->d, out);
	}
	return NULL;
}

/* tear: CTA 0 stores the pairs {i, i} (v2.u32 and v2.u64, .relaxed.gpu)
 * for i up to 20000 while CTA 1, on the other worker, loads them and
 * counts the pairs whose halves differ: a memory-model vector access is
 * one access, as CUB's decoupled look-back needs (its tile status and
 * value, one ld.relaxed.v2).  Before, each element was its own access:
 * about a thousand torn pairs a run. */
static const char *const k_tear =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".visible .entry tear(.param .u64 pair, .param .u64 pair16, .param .u64 flag, .param .u64 torn)\n"
	"{\n"
	"\t.reg .b32 %r<8>;\n"
	"\t.reg .b64 %rd<8>;\n"
	"\t.reg .pred %p<4>;\n"
	"\tld.param.u64 %rd1, [pair];\n"
	"\tld.param.u64 %rd2, [pair16];\n"
	"\tld.param.u64 %rd3, [flag];\n"
	"\tld.param.u64 %rd4, [torn];\n"
	"\tmov.u32 %r1, %ctaid.x;\n"
	"\tsetp.ne.u32 %p1, %r1, 0;\n"
	"\t@%p1 bra READ;\n"
	"W0:\n"
	"\tatom.global.add.u32 %r2, [%rd3], 0;\n"
	"\tsetp.eq.u32 %p2, %r2, 0;\n"
	"\t@%p2 bra W0;\n"
	"\tmov.u32 %r3, 1;\n"
	"W1:\n"
	"\tst.relaxed.gpu.global.v2.u32 [%rd1], {%r3, %r3};\n"
	"\tcvt.u64.u32 %rd5, %r3;\n"
	"\tst.relaxed.gpu.global.v2.u64 [%rd2], {%rd5, %rd5};\n"
	"\tadd.u32 %r3, %r3, 1;\n"
	"\tsetp.le.u32 %p2, %r3, 20000;\n"
	"\t@%p2 bra W1;\n"
	"\tret;\n"
	"READ:\n"
	"\tatom.global.exch.b32 %r2, [%rd3], 1;\n"
	"\tmov.u32 %r4, 0;\n"
	"R1:\n"
	"\tld.relaxed.gpu.global.v2.u32 {%r5, %r6}, [%rd1];\n"
	"\tsetp.ne.u32 %p2, %r5, %r6;\n"
	"\tselp.u32 %r7, 1, 0, %p2;\n"
	"\tadd.u32 %r4, %r4, %r7;\n"
	"\tld.relaxed.gpu.global.v2.u64 {%rd6, %rd7}, [%rd2];\n"
	"\tsetp.ne.u64 %p3, %rd6, %rd7;\n"
	"\tselp.u32 %r7, 1, 0, %p3;\n"
	"\tadd.u32 %r4, %r4, %r7;\n"
	"\tsetp.lt.u32 %p2, %r5, 20000;\n"
	"\t@%p2 bra R1;\n"
	"\tst.global.u32 [%rd4], %r4;\n"
	"\tret;\n"
	"}\n";

static void tear(void)
{
	char why[1024];
	ptxvm_device_opts o = { .workers = 2, .timeout = 60 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = d ? load_ptx(d, "tear.ptx", k_tear, why, sizeof why) : NULL;
	uint64_t pair = p ? dalloc(d, 8) : 0, pair16 = p ? dalloc(d, 16) : 0, flag = p ? dalloc(d, 4) : 0,
		 torn = p ? dalloc(d, 4) : 0;
	uint32_t n = ~0u;
	void *args[] = { &pair, &pair16, &flag, &torn };
	ptxvm_result r = !p ? PTXVM_ERROR_INVALID_PTX : !pair || !pair16 || !flag || !torn ? PTXVM_ERROR_OUT_OF_MEMORY
		       : run1(d, p, "tear", 2, 1, args);
	if (!r)
		r = ptxvm_memcpy_dtoh(d, &n, torn, 4);
	if (r)
		fail("threads tear: %s: %s", ptxvm_result_name(r), p ? ptxvm_device_message(d) : why);
	else if (n)
		fail("threads tear: %u vector loads saw one half of a vector store and not the other", n);
	else
		passed++;
	ptxvm_device_destroy(d);
}

/* ---- alone: atomics of a launch alone on the device's host ---------------
 * count: every thread adds 1 to ctr[0] (atom) and 3 to the u64 at ctr + 8
 * (red), k times.  count_sys: waits for flag[0], adds 1.0 to the f32
 * ctr[lane] k times with .sys atomics (float: each lane's add is a call
 * of the atomic unit, long enough for the host's adds to fall inside a
 * plain one), then 1 to flag[1].  poll: *started = 1 (in host
 * memory), then atom.or of 0 to *go, until *go is not 0. */
static const char *const k_alone =
	HDR
	".visible .entry count(.param .u64 ctr, .param .u32 k)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<4>;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd1, [ctr];\n\tld.param.u32 %r1, [k];\n\tmov.u32 %r2, 0;\n"
	"L:\n\tatom.global.add.u32 %r3, [%rd1], 1;\n\tred.global.add.u64 [%rd1+8], 3;\n"
	"\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p, %r2, %r1;\n\t@%p bra L;\n\tret;\n}\n"
	".visible .global .attribute(.managed) .align 4 .u32 mctr[32];\n"
	".visible .entry count_sys(.param .u64 ctr, .param .u64 flag, .param .u32 k)\n{\n"
	"\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f1;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd1, [ctr];\n\tld.param.u64 %rd2, [flag];\n\tld.param.u32 %r1, [k];\n"
	"\tmov.u32 %r2, %laneid;\n\tmul.wide.u32 %rd3, %r2, 4;\n\tadd.u64 %rd1, %rd1, %rd3;\n"
	"W:\n\tld.volatile.global.u32 %r3, [%rd2];\n\tsetp.eq.u32 %p, %r3, 0;\n\t@%p bra W;\n"
	"\tmov.u32 %r2, 0;\n"
	"L:\n\tatom.sys.global.add.f32 %f1, [%rd1], 0f3F800000;\n"
	"\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p, %r2, %r1;\n\t@%p bra L;\n"
	"\tred.sys.global.add.u32 [%rd2+4], 1;\n\tret;\n}\n"
	".visible .entry poll(.param .u64 started, .param .u64 go)\n{\n"
	"\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<2>;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd1, [started];\n\tld.param.u64 %rd2, [go];\n"
	"\tatom.global.exch.b32 %r1, [%rd1], 1;\n"
	"L:\n\tatom.global.or.b32 %r1, [%rd2], 0;\n\tsetp.eq.u32 %p, %r1, 0;\n\t@%p bra L;\n\tret;\n}\n";

enum { ALONE_IT = 12, ALONE_K = 40, ALONE_BLOCK = 64 };
static uint64_t g_ctr;

/* Thread i: grids of 1 CTA (a launch of one worker) when i is odd, of 3
 * (two workers) when it is even. */
static void *count_launches(void *arg)
{
	Ctx *c = arg;
	uint32_t k = ALONE_K;
	void *args[] = { &g_ctr, &k };
	for (int it = 0; it < ALONE_IT && !c->err[0]; it++) {
		ptxvm_result r = run1(c->d, c->p, "count", c->id & 1 ? 1 : 3, ALONE_BLOCK, args);
		if (r)
			note(c, "iteration %d: %s: %s", it, ptxvm_result_name(r), ptxvm_device_message(c->d));
	}
	return NULL;
}

/* 32 counters, the go flag, the kernel's threads done, the launch over:
 * host memory the device reaches, and host_adds' count. */
enum { SYS_GO = 32, SYS_DONE, SYS_OVER };
static _Alignas(64) uint32_t g_sys[36];
static uint32_t g_host_adds, *g_ctr_host;       /* where the host adds */

/* Adds 1 to the counter from the kernel's start to its end. */
static void *host_adds(void *arg)
{
	(void)arg;
	uint32_t n = 0;
	__atomic_store_n(&g_sys[SYS_GO], 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&g_sys[SYS_DONE], __ATOMIC_SEQ_CST) < 256 && !__atomic_load_n(&g_sys[SYS_OVER], __ATOMIC_SEQ_CST)) {
		uint32_t *w = &g_ctr_host[n & 31], old = __atomic_load_n(w, __ATOMIC_SEQ_CST), new;
		do {            /* += 1.0f */
			float f;
			memcpy(&f, &old, 4);
			f += 1.0f;
			memcpy(&new, &f, 4);
		} while (!__atomic_compare_exchange_n(w, &old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
		n++;
	}
	g_host_adds = n;
	return NULL;
}

#ifndef UNDER_TSAN
/* The host's side of poll: once it has started (*started, in host
 * memory), *go = 1 by a copy. */
static _Alignas(64) uint32_t g_started;
static uint64_t g_go;
static int g_round;     /* odd: the copy is ptxvm_memcpy3d's */

static void *host_go(void *arg)
{
	Ctx *c = arg;
	uint32_t one = 1;
	while (!__atomic_load_n(&g_started, __ATOMIC_SEQ_CST))
		;
	ptxvm_copy3d k = { .src_type = PTXVM_MEMORY_HOST, .src_host = &one, .src_pitch = 4,
			   .dst_type = PTXVM_MEMORY_DEVICE, .dst_device = g_go, .dst_pitch = 4,
			   .width_bytes = 4, .height = 1, .depth = 1 };
	if (g_round & 1 ? ptxvm_memcpy3d(c->d, &k) : ptxvm_memcpy_htod(c->d, g_go, &one, 4))
		note(c, "the copy: %s", ptxvm_device_message(c->d));
	return NULL;
}
#endif

static void alone(void)
{
	char why[1024];
	ptxvm_device_opts o = { .workers = 2, .timeout = 10 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = d ? load_ptx(d, "alone.ptx", k_alone, why, sizeof why) : NULL;
	g_ctr = p ? dalloc(d, 16) : 0;
	if (!g_ctr) {
		fail("threads alone: setting up: %s", p ? ptxvm_device_message(d) : why);
		ptxvm_device_destroy(d);
		return;
	}
	Ctx ctx[NT];
	ctx_fill(ctx, d, p);
	in_threads("alone: atomics of launches alone and of others started meanwhile", NT, count_launches, ctx);
	uint64_t got[2] = { 0, 0 }, per = (uint64_t)ALONE_IT * ALONE_K * ALONE_BLOCK,
		 want = per * (NT / 2) * 1 + per * (NT - NT / 2) * 3;
	ptxvm_result r = ptxvm_memcpy_dtoh(d, got, g_ctr, 16);
	if (r || (uint32_t)got[0] != want || got[1] != 3 * want)
		fail("threads alone: counters %llu and %llu, want %llu and %llu (%s)", (unsigned long long)(uint32_t)got[0],
		     (unsigned long long)got[1], (unsigned long long)want, (unsigned long long)(3 * want),
		     ptxvm_result_name(r));
	else
		passed++;

	/* .sys on memory the host reaches: the launch runs alone (one CTA),
	 * yet its atomics meet the host's, made all the time the kernel runs;
	 * in mapped host memory, then in a __managed__ variable */
	uint64_t mdev = 0;
	uint32_t *mhost = NULL;
	size_t mbytes = 0;
	r = ptxvm_mem_map_host(d, g_sys, sizeof g_sys);
	if (!r)
		r = ptxvm_program_global(p, "mctr", &mdev, &mbytes);
	if (!r)
		r = ptxvm_program_managed(p, "mctr", (void **)&mhost, &mbytes);
	for (int m = 0; m < 2 && !r; m++) {
		memset(g_sys, 0, sizeof g_sys);
		g_ctr_host = m ? mhost : &g_sys[0];
		memset(g_ctr_host, 0, 32 * 4);
		uint64_t ctr = m ? mdev : (uint64_t)(uintptr_t)&g_sys[0], flag = (uint64_t)(uintptr_t)&g_sys[SYS_GO];
		uint32_t k = 2000;
		void *args[] = { &ctr, &flag, &k };
		pthread_t th;
		pthread_create(&th, NULL, host_adds, NULL);
		r = run1(d, p, "count_sys", 1, 256, args);
		__atomic_store_n(&g_sys[SYS_OVER], 1, __ATOMIC_SEQ_CST);
		pthread_join(th, NULL);
		uint32_t n = 0, want_n = 2000u * 256 + g_host_adds;
		for (int i = 0; i < 32; i++) {   /* each under 2^24: exact */
			uint32_t b = __atomic_load_n(&g_ctr_host[i], __ATOMIC_SEQ_CST);
			float f;
			memcpy(&f, &b, 4);
			n += (uint32_t)f;
		}
		const char *where = m ? "a __managed__ variable" : "mapped host memory";
		if (r)
			fail("threads alone .sys, %s: %s: %s", where, ptxvm_result_name(r), ptxvm_device_message(d));
		else if (n != want_n)
			fail("threads alone .sys, %s: the counter is %u, want %u (%u of them the host's): updates lost",
			     where, n, want_n, g_host_adds);
		else
			passed++;
	}
	if (r && !mhost)
		fail("threads alone .sys: setting up: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	ptxvm_mem_unmap_host(d, g_sys);

	/* the host's copy meets a launch alone that polls with atomics: a
	 * race by ThreadSanitizer's rules (a plain write and atomics), which
	 * the gate orders but does not make atomic */
#ifdef UNDER_TSAN
	printf("threads alone copy: skipped under ThreadSanitizer, to which a host copy into a word a kernel "
	       "polls with atomics is a race\n");
#else
	pthread_t th;
	g_go = dalloc(d, 4);
	uint64_t started = (uint64_t)(uintptr_t)&g_started;
	r = !g_go ? PTXVM_ERROR_OUT_OF_MEMORY : ptxvm_mem_map_host(d, &g_started, sizeof g_started);
	int it = 0;
	for (; !r && it < 40 && !ctx[0].err[0]; it++) {
		void *a2[] = { &started, &g_go };
		__atomic_store_n(&g_started, 0, __ATOMIC_SEQ_CST);
		if ((r = ptxvm_memset_d8(d, g_go, 0, 4)))
			break;
		g_round = it;
		pthread_create(&th, NULL, host_go, &ctx[0]);
		r = run1(d, p, "poll", 1, 256, a2);
		__atomic_store_n(&g_started, 1, __ATOMIC_SEQ_CST);     /* host_go's wait ends */
		pthread_join(th, NULL);
	}
	if (r || ctx[0].err[0])
		fail("threads alone copy: round %d: %s: %s %s", it, ptxvm_result_name(r), ptxvm_device_message(d),
		     ctx[0].err);
	else
		passed++;
	ptxvm_mem_unmap_host(d, &g_started);
#endif
	ptxvm_device_destroy(d);
}

/* turns: a kernel whose CTAs cannot wait for each other (no atom, red,
 * memory-model access or call) has them dealt in turns: with 2 workers and
 * 1024 CTAs, 8 at a turn (1024 / (2 * 64)), so each aligned run of 8
 * CTAs ran on one worker (%smid), whichever it was. */
static void turns(void)
{
	static const char k_smid[] = HDR ".visible .entry smid(.param .u64 out)\n{\n"
				     "\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<3>;\n"
				     "\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %smid;\n\tmov.u32 %r2, %ctaid.x;\n"
				     "\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
				     "\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";
	enum { CTAS = 1024, TURN = 8 };
	char why[1024];
	ptxvm_device_opts o = { .workers = 2, .timeout = 60 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = d ? load_ptx(d, "smid.ptx", k_smid, why, sizeof why) : NULL;
	uint64_t out = p ? dalloc(d, CTAS * 4) : 0;
	uint32_t got[CTAS];
	void *args[] = { &out };
	ptxvm_result r = !p ? PTXVM_ERROR_INVALID_PTX : !out ? PTXVM_ERROR_OUT_OF_MEMORY : run1(d, p, "smid", CTAS, 32, args);
	if (!r)
		r = ptxvm_memcpy_dtoh(d, got, out, sizeof got);
	int split = -1;
	for (int c = 0; !r && c < CTAS && split < 0; c++)
		if (got[c] != got[c / TURN * TURN])
			split = c;
	if (r)
		fail("threads turns: %s: %s", ptxvm_result_name(r), p ? ptxvm_device_message(d) : why);
	else if (split >= 0)
		fail("threads turns: CTA %d ran on worker %u, the first of its turn of %d on worker %u", split, got[split],
		     TURN, got[split / TURN * TURN]);
	else
		passed++;
	ptxvm_device_destroy(d);
}

#ifndef UNDER_TSAN
/* 64 CTAs of fill on a 2-worker device: whether every thread wrote.  Only
 * the fork case uses it, and that case cannot run under ThreadSanitizer. */
static bool fill64(ptxvm_device *d, ptxvm_program *p, char *why, size_t n)
{
	enum { CTAS = 64, T = 32 };
	uint64_t out = dalloc(d, CTAS * T * 4);
	uint32_t v = 7, got[CTAS * T];
	void *args[] = { &out, &v };
	ptxvm_result r = out ? run1(d, p, "fill", CTAS, T, args) : PTXVM_ERROR_OUT_OF_MEMORY;
	if (!r)
		r = ptxvm_memcpy_dtoh(d, got, out, sizeof got);
	if (r) {
		snprintf(why, n, "%s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
		return false;
	}
	ptxvm_mem_free(d, out);
	for (uint32_t i = 0; i < CTAS * T; i++)
		if (got[i] != 7 + i) {
			snprintf(why, n, "out[%u] = %u, want %u", i, got[i], 7 + i);
			return false;
		}
	return true;
}
#endif

/* fork: the parent's launch leaves a worker thread waiting for the next;
 * the child has no such thread, and its launches must not wait for one. */
static void fork_child(void)
{
#ifdef UNDER_TSAN
	printf("threads fork: skipped under ThreadSanitizer, which cannot start threads after a fork of a process "
	       "with threads\n");
#else
	char why[1024];
	ptxvm_device_opts o = { .workers = 2 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = d ? load_ptx(d, "main.ptx", k_main, why, sizeof why) : NULL;
	if (!p || !fill64(d, p, why, sizeof why)) {
		fail("threads fork: the parent's launch: %s", p ? why : "no device or program");
		ptxvm_device_destroy(d);
		return;
	}
	ptxvm_device_destroy(d);
	usleep(200000);         /* for the parent's worker thread to be back waiting */
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		alarm(20);      /* a launch waiting for a worker that is not there ends here */
		ptxvm_device *dc = ptxvm_device_create(&o);
		ptxvm_program *pc = dc ? load_ptx(dc, "main.ptx", k_main, why, sizeof why) : NULL;
		bool ok = pc && fill64(dc, pc, why, sizeof why);
		if (!ok)
			fprintf(stderr, "threads fork: the child's launch: %s\n", pc ? why : "no device or program");
		_exit(ok ? 0 : 1);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		fail("threads fork: no child");
	else if (WIFSIGNALED(st))
		fail("threads fork: the child's launch did not end (signal %d): it waited for the parent's workers",
		     WTERMSIG(st));
	else if (WEXITSTATUS(st))
		fail("threads fork: the child's launch failed (its message above)");
	else
		passed++;
#endif
}

void test_threads(const char *root)
{
	(void)root;
	ptxvm_device_opts o = { .workers = 2, .timeout = 60 };
	ptxvm_device *d = ptxvm_device_create(&o);
	char why[1024];
	ptxvm_program *p = load_ptx(d, "main.ptx", k_main, why, sizeof why);
	if (!p) {
		fail("threads: %s", why);
		ptxvm_device_destroy(d);
		return;
	}
	Ctx ctx[NT];
	ctx_fill(ctx, d, p);
	in_threads("work: launches, copies and frees from 4 threads", NT, work, ctx);
	in_threads("messages: each thread's own", NT, messages, ctx);

	g_flags = dalloc(d, 8);
	in_threads("concurrent: two launches that wait for each other", 2, ping, ctx);
	ptxvm_mem_free(d, g_flags);

	deferred("deferred: memory freed during a launch that reads it", ctx, "hold", 0, free_src);
	deferred("deferred: the program of a running launch unloaded", ctx, "hold", 0, unload_held);
	deferred("deferred: an array destroyed during a launch that reads it", ctx, "hold_surf", 1, destroy_array);
	deferred("deferred: a texture and its array destroyed during a launch that samples them", ctx, "hold_tex", 2,
		 destroy_texture);
	in_threads("churn: programs, images, limits and memory while launches run", NT, churn, ctx);
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
	fork_child();
	tear();
	turns();
	alone();

	/* destroy waits: the held launch never gets its go and ends by the
	 * watchdog, writing its printf output (the last thing a launch does
	 * with its device); only then may the device go */
	char *said = NULL;
	size_t nsaid = 0;
	FILE *out = open_memstream(&said, &nsaid);
	ptxvm_device_opts q = { .workers = 1, .timeout = 2, .printf_stream = out };
	ptxvm_device *dd = ptxvm_device_create(&q);
	ptxvm_program *pd = load_ptx(dd, "main.ptx", k_main, why, sizeof why);
	Hold *h = &g_hold;
	memset(h, 0, sizeof *h);
	h->kernel = "hold_print";
	h->held = load_ptx(dd, "hold.ptx", k_hold, why, sizeof why);
	h->started = dalloc(dd, 4);
	h->go = dalloc(dd, 4);
	h->arg = h->src = dalloc(dd, 128);
	h->dst = dalloc(dd, 128);
	if (!pd || !h->held || !h->started || !h->go || !h->src || !h->dst) {
		fail("threads destroy: setting up: %s", why);
		ptxvm_device_destroy(dd);
		fclose(out);
		free(said);
		return;
	}
	atomic_int returned = 0;
	Ctx c[2] = { { .d = dd, .p = pd, .id = 0, .flag = &returned },
		     { .d = dd, .p = pd, .id = 1, .flag = &returned } };
	pthread_t t0, t1;
	pthread_create(&t0, NULL, held_launch, &c[0]);
	pthread_create(&t1, NULL, destroy_device, &c[1]);
	pthread_join(t1, NULL);
	fflush(out);
	bool printed = nsaid >= 5 && !memcmp(said, "held\n", 5);      /* before t0 ends */
	pthread_join(t0, NULL);
	fclose(out);
	free(said);
	if (c[1].err[0])
		fail("threads destroy: %s", c[1].err);
	else if (!printed)
		fail("threads destroy: ptxvm_device_destroy returned before the launch it had to wait for ended");
	else if (h->result != PTXVM_ERROR_LAUNCH_TIMEOUT)
		fail("threads destroy: the held launch: %s, want CUDA_ERROR_LAUNCH_TIMEOUT",
		     ptxvm_result_name(h->result));
	else
		passed++;
}
