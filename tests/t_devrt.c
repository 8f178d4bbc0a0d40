/* t_devrt.c: the device runtime that ptxvm provides to kernels: the
 * malloc heap (tests/cuda/malloc.cu), its limit and its faults; thread-block
 * clusters (tests/cuda/cluster.cu): their registers, distributed shared
 * memory, barrier.cluster and the launch's shape rules; grids launched from
 * kernels (tests/cuda/cdp.rdc.cu, relocatable code): their order, the
 * tail launch, nesting, and the device runtime's answers; events, queries,
 * limits and cudaMalloc in kernels (tests/cuda/events.rdc.cu).
 *
 * References are what the CUDA programming guide says of the calls:
 * blocks persist across launches until freed, are 16-byte aligned (or as
 * __nv_aligned_device_malloc asks), never overlap and lie in the heap;
 * malloc gives NULL when the heap (cudaLimitMallocHeapSize, 8 MiB by
 * default, fixed once a kernel using it has run) is exhausted.
 */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ptxvm_program *open_prog(const char *root, const char *name, ptxvm_device *d)
{
	char path[4096], why[512];
	size_t len;
	snprintf(path, sizeof path, "%s/tests/ptx/%s.ptx", root, name);
	char *text = slurp(path, &len);
	if (!text) {
		fail("devrt: %s unreadable", path);
		return NULL;
	}
	ptxvm_program *p = load_ptx(d, path, text, why, sizeof why);
	free(text);
	if (!p)
		fail("devrt: %s: %s", path, why);
	return p;
}

static ptxvm_result run3(ptxvm_device *d, ptxvm_program *p, const char *k, const unsigned g[3], unsigned b,
			 const unsigned cl[3], void **args)
{
	ptxvm_launch_config cfg = { { g[0], g[1], g[2] }, { b, 1, 1 }, 0, { cl[0], cl[1], cl[2] } };
	const ptxvm_kernel *kh = ptxvm_kernel_find(p, k);
	if (!kh) {
		fail("devrt: no kernel %s", k);
		return PTXVM_ERROR_NOT_FOUND;
	}
	return ptxvm_launch(d, kh, &cfg, args, NULL);
}

static ptxvm_result run(ptxvm_device *d, ptxvm_program *p, const char *k, unsigned g, unsigned b, void **args)
{
	return run3(d, p, k, (const unsigned[3]){ g, 1, 1 }, b, (const unsigned[3]){ 0, 0, 0 }, args);
}

static void check(int good, const char *what)
{
	if (good)
		passed++;
	else
		fail("devrt: %s", what);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* malloc_fill then malloc_sum_free over many CTAs and workers: every
 * thread's block, disjoint and aligned, holds what it wrote a launch ago. */
static void t_blocks(const char *root, unsigned workers)
{
	ptxvm_device_opts o = { 0 };
	o.workers = workers;
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = open_prog(root, "malloc", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	enum { N = 3000 };
	uint64_t blocks, sums;
	unsigned n = N;
	ptxvm_mem_alloc(d, N * 8, &blocks);
	ptxvm_mem_alloc(d, N * 8, &sums);
	void *a1[] = { &blocks, &n };
	ptxvm_result r = run(d, p, "malloc_fill", (N + 127) / 128, 128, a1);
	check(r == PTXVM_SUCCESS, "malloc_fill launches");
	static uint64_t ptr[N], sorted[N];
	static long long s[N];
	ptxvm_memcpy_dtoh(d, ptr, blocks, sizeof ptr);
	int good = 1;
	for (unsigned t = 0; t < N; t++)
		good &= ptr[t] != 0 && ptr[t] % 16 == 0;
	check(good, "every malloc_fill block is non-NULL and 16-byte aligned");
	/* disjoint: sorted, each ends before the next begins */
	memcpy(sorted, ptr, sizeof ptr);
	qsort(sorted, N, 8, cmp_u64);
	good = 1;
	for (unsigned i = 0; i + 1 < N; i++) {
		uint64_t len = 0;
		for (unsigned t = 0; t < N; t++)
			if (ptr[t] == sorted[i])
				len = (t % 7 + 1) * 4;
		good &= sorted[i] + len <= sorted[i + 1];
	}
	check(good, "malloc_fill blocks do not overlap");
	void *a2[] = { &blocks, &sums, &n };
	r = run(d, p, "malloc_sum_free", (N + 255) / 256, 256, a2);
	check(r == PTXVM_SUCCESS, "malloc_sum_free launches");
	ptxvm_memcpy_dtoh(d, s, sums, sizeof s);
	good = 1;
	for (unsigned t = 0; t < N && good; t++)
		if (s[t] != (long long)t * (t % 7 + 1)) {
			fail("devrt: malloc_sum_free[%u] = %lld, expected %lld (workers %u)", t, s[t],
			     (long long)t * (t % 7 + 1), workers);
			good = 0;
		}
	if (good)
		passed++;
	/* everything was freed: the whole heap is one block again */
	size_t heap = 0;
	ptxvm_device_get_limit(d, PTXVM_LIMIT_MALLOC_HEAP_SIZE, &heap);
	uint64_t counts;
	ptxvm_mem_alloc(d, 32, &counts);
	unsigned long long chunk = heap, hb = heap;
	void *a3[] = { &chunk, &hb, &counts };
	r = run(d, p, "malloc_exhaust", 1, 1, a3);
	unsigned long long c[4] = { 0 };
	ptxvm_memcpy_dtoh(d, c, counts, sizeof c);
	check(r == PTXVM_SUCCESS && c[0] == 1 && c[1] == 1,
	      "after every block is freed, one block of the whole heap fits");
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

/* The limit: default, set before use, fixed after; exhaustion gives NULL. */
static void t_limit(const char *root)
{
	ptxvm_device_opts o = { 0 };
	o.workers = 2;
	ptxvm_device *d = ptxvm_device_create(&o);
	size_t v = 0;
	check(ptxvm_device_get_limit(d, PTXVM_LIMIT_MALLOC_HEAP_SIZE, &v) == PTXVM_SUCCESS && v == 8u << 20,
	      "the malloc heap is 8 MiB by default");
	check(ptxvm_device_set_limit(d, PTXVM_LIMIT_MALLOC_HEAP_SIZE, 65536) == PTXVM_SUCCESS,
	      "the malloc heap's size can be set before a kernel uses it");
	ptxvm_program *p = open_prog(root, "malloc", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	uint64_t counts;
	ptxvm_mem_alloc(d, 32, &counts);
	unsigned long long chunk = 4096, heap = 65536;
	void *a[] = { &chunk, &heap, &counts };
	ptxvm_result r = run(d, p, "malloc_exhaust", 1, 32, a);
	unsigned long long c[4] = { 0 };
	ptxvm_memcpy_dtoh(d, c, counts, sizeof c);
	/* the hardware keeps some bookkeeping in the heap, ptxvm none
	 * (docs/EXECUTION.md): 16 blocks of 4 KiB exactly */
	check(r == PTXVM_SUCCESS && c[0] >= 1 && c[0] * 4096 <= 65536 && c[0] == 16,
	      "a 64 KiB heap holds 16 blocks of 4 KiB, then malloc gives NULL");
	check(c[1] == c[0], "freed blocks can be allocated again, as many");
	check(c[2] == 1, "malloc of more than the heap gives NULL");
	check(c[3] == 1, "free(NULL) and malloc(0) do not fault");
	r = ptxvm_device_set_limit(d, PTXVM_LIMIT_MALLOC_HEAP_SIZE, 1 << 20);
	check(r == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(d), "malloc heap"),
	      "the heap's size is fixed once a kernel using malloc has been launched");
	check(ptxvm_device_get_limit(d, PTXVM_LIMIT_MALLOC_HEAP_SIZE, &v) == PTXVM_SUCCESS && v == 65536,
	      "a refused size leaves the limit as it was");
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);

	/* a heap of 0 bytes: every malloc gives NULL */
	d = ptxvm_device_create(&o);
	ptxvm_device_set_limit(d, PTXVM_LIMIT_MALLOC_HEAP_SIZE, 0);
	p = open_prog(root, "malloc", d);
	if (p) {
		ptxvm_mem_alloc(d, 32, &counts);
		heap = 0;
		r = run(d, p, "malloc_exhaust", 1, 1, a);
		memset(c, 0xff, sizeof c);
		ptxvm_memcpy_dtoh(d, c, counts, sizeof c);
		check(r == PTXVM_SUCCESS && c[0] == 0 && c[1] == 0 && c[3] == 1, "with a 0-byte heap malloc gives NULL");
		ptxvm_program_unload(p);
	}
	ptxvm_device_destroy(d);
	d = ptxvm_device_create(&o);
	check(ptxvm_device_set_limit(d, PTXVM_LIMIT_MALLOC_HEAP_SIZE, (size_t)1 << 41) == PTXVM_ERROR_INVALID_VALUE,
	      "a heap over 1 TiB is refused");
	ptxvm_device_destroy(d);
}

static void t_aligned(const char *root)
{
	ptxvm_device *d = ptxvm_device_create(NULL);
	ptxvm_program *p = open_prog(root, "malloc", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	enum { B = 100 };
	uint64_t out, a[B + 1];
	ptxvm_mem_alloc(d, sizeof a, &out);
	void *args[] = { &out };
	ptxvm_result r = run(d, p, "malloc_aligned", 1, B, args);
	ptxvm_memcpy_dtoh(d, a, out, sizeof a);
	int good = r == PTXVM_SUCCESS;
	for (unsigned t = 0; t < B; t++) {
		uint64_t align = 1ull << (t % 12);
		if (align < 16)
			align = 16;
		good &= a[t] != 0 && a[t] % align == 0;
	}
	check(good, "__nv_aligned_device_malloc gives blocks aligned as asked (at least 16)");
	check(a[B] == 0, "__nv_aligned_device_malloc with an alignment not a power of 2 gives NULL");
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

static void t_abuse(const char *root)
{
	static const char *const want[] = { "no block of the device heap starts there", "double free", "" };
	for (int mode = 0; mode < 3; mode++) {
		ptxvm_device *d = ptxvm_device_create(NULL);
		ptxvm_program *p = open_prog(root, "malloc", d);
		if (!p) {
			ptxvm_device_destroy(d);
			return;
		}
		int m = mode;
		long long off = 8u << 20 >> 2;          /* a heap's length past the block: beyond its end */
		void *args[] = { &m, &off };
		ptxvm_result r = run(d, p, "malloc_abuse", 1, 1, args);
		const char *msg = ptxvm_device_message(d);
		if (r != PTXVM_ERROR_ILLEGAL_ADDRESS || !strstr(msg, want[mode]))
			fail("devrt: malloc_abuse mode %d: %s: %s", mode, ptxvm_result_name(r), msg);
		else
			passed++;
		ptxvm_program_unload(p);
		ptxvm_device_destroy(d);
	}
	/* a store just past a block but inside the heap does not fault (it is
	 * the heap's memory, as on the hardware) */
	ptxvm_device *d = ptxvm_device_create(NULL);
	ptxvm_program *p = open_prog(root, "malloc", d);
	if (p) {
		int m = 2;
		long long off = 16;
		void *args[] = { &m, &off };
		check(run(d, p, "malloc_abuse", 1, 1, args) == PTXVM_SUCCESS,
		      "a store past a block but inside the heap lands in the heap");
		ptxvm_program_unload(p);
	}
	ptxvm_device_destroy(d);
}

/* cluster_ids: a 4x2 grid of 2x2 clusters (the kernel's __cluster_dims__). */
static void t_cluster_ids(const char *root)
{
	ptxvm_device_opts o = { 0 };
	o.workers = 2;
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = open_prog(root, "cluster", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	enum { GX = 4, GY = 2, B = 40 };
	uint64_t ids;
	ptxvm_mem_alloc(d, GX * GY * B * 8 * 4, &ids);
	void *args[] = { &ids };
	ptxvm_result r = run3(d, p, "cluster_ids", (const unsigned[3]){ GX, GY, 1 }, B,
			      (const unsigned[3]){ 0, 0, 0 }, args);
	check(r == PTXVM_SUCCESS, "cluster_ids launches with its .reqnctapercluster");
	static unsigned got[GX * GY * B * 8];
	ptxvm_memcpy_dtoh(d, got, ids, sizeof got);
	int good = 1;
	for (unsigned by = 0; by < GY; by++)
		for (unsigned bx = 0; bx < GX; bx++)
			for (unsigned t = 0; t < B; t++) {
				const unsigned *g = got + 8 * ((bx + GX * by) * B + t);
				unsigned want[8] = { bx % 2 + 2 * (by % 2), 4, bx % 2, by % 2, 2, 2, bx / 2, 1 };
				for (int k = 0; k < 8; k++)
					if (g[k] != want[k] && good) {
						fail("devrt: cluster_ids CTA (%u,%u) thread %u field %d: %u, expected %u",
						     bx, by, t, k, g[k], want[k]);
						good = 0;
					}
			}
	if (good)
		passed++;
	r = run3(d, p, "cluster_ids", (const unsigned[3]){ GX, GY, 1 }, B, (const unsigned[3]){ 4, 1, 1 }, args);
	check(r == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(d), ".reqnctapercluster"),
	      "a cluster shape other than the kernel's .reqnctapercluster is an invalid value");
	r = run3(d, p, "cluster_ids", (const unsigned[3]){ 3, 2, 1 }, B, (const unsigned[3]){ 0, 0, 0 }, args);
	check(r == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(d), "not made of clusters"),
	      "a grid that clusters do not divide is an invalid value");
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

/* cluster_ring: every CTA reads the next CTA's shared memory and adds into
 * rank 0's counter; clusters of 1, 2, 4 and 8 CTAs given at the launch. */
static void t_cluster_ring(const char *root, unsigned workers)
{
	ptxvm_device_opts o = { 0 };
	o.workers = workers;
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = open_prog(root, "cluster", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	enum { G = 16, B = 128 };
	static int in[G * B], out[G * B], sums[G];
	uint64_t din, dout, dsums;
	ptxvm_mem_alloc(d, sizeof in, &din);
	ptxvm_mem_alloc(d, sizeof out, &dout);
	ptxvm_mem_alloc(d, sizeof sums, &dsums);
	uint32_t x = 12345;
	for (int i = 0; i < G * B; i++) {
		x = x * 1103515245u + 12345u;
		in[i] = (int)(x >> 8) % 100000 - 50000;
	}
	ptxvm_memcpy_htod(d, din, in, sizeof in);
	void *args[] = { &din, &dout, &dsums };
	static const unsigned sizes[] = { 1, 2, 4, 8 };
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		unsigned n = sizes[s];
		ptxvm_memset_d8(d, dout, 0, sizeof out);
		ptxvm_memset_d8(d, dsums, 0, sizeof sums);
		ptxvm_result r = run3(d, p, "cluster_ring", (const unsigned[3]){ G, 1, 1 }, B,
				      (const unsigned[3]){ n, 1, 1 }, args);
		ptxvm_memcpy_dtoh(d, out, dout, sizeof out);
		ptxvm_memcpy_dtoh(d, sums, dsums, sizeof sums);
		int good = r == PTXVM_SUCCESS;
		if (!good)
			fail("devrt: cluster_ring, clusters of %u: %s: %s", n, ptxvm_result_name(r),
			     ptxvm_device_message(d));
		for (unsigned b = 0; b < G && good; b++) {
			unsigned base = b - b % n, src = base + (b % n + 1) % n;
			for (unsigned t = 0; t < B && good; t++)
				if (out[b * B + t] != in[src * B + t]) {
					fail("devrt: cluster_ring, clusters of %u: out[%u][%u] = %d, expected %d", n, b, t,
					     out[b * B + t], in[src * B + t]);
					good = 0;
				}
		}
		for (unsigned c = 0; c < G / n && good; c++) {
			int want = 0;
			for (unsigned i = c * n * B; i < (c + 1) * n * B; i++)
				want += in[i];
			if (sums[c] != want) {
				fail("devrt: cluster_ring, clusters of %u: sum of cluster %u = %d, expected %d", n, c,
				     sums[c], want);
				good = 0;
			}
		}
		if (good)
			passed++;
	}
	ptxvm_result r = run3(d, p, "cluster_ring", (const unsigned[3]){ G, 1, 1 }, B,
			      (const unsigned[3]){ 17, 1, 1 }, args);
	check(r == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(d), "at most 16"),
	      "a cluster of 17 CTAs is an invalid value (an H100's largest is 16)");
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

/* Distributed shared memory out of range: a rank past the cluster, an
 * offset past the other CTA's shared memory. */
static void t_cluster_faults(const char *root)
{
	ptxvm_device *d = ptxvm_device_create(NULL);
	ptxvm_program *p = open_prog(root, "cluster", d);
	if (p) {
		uint64_t out;
		ptxvm_mem_alloc(d, 32 * 4, &out);
		unsigned rank = 2;
		void *args[] = { &out, &rank };
		ptxvm_result r = run3(d, p, "cluster_peek", (const unsigned[3]){ 2, 1, 1 }, 32,
				      (const unsigned[3]){ 2, 1, 1 }, args);
		check(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(d), "CTA rank 2 of a cluster of 2"),
		      "mapa to a rank outside the cluster fails the launch");
		rank = 1;
		r = run3(d, p, "cluster_peek", (const unsigned[3]){ 2, 1, 1 }, 32, (const unsigned[3]){ 2, 1, 1 }, args);
		int got[32];
		ptxvm_memcpy_dtoh(d, got, out, sizeof got);
		int good = r == PTXVM_SUCCESS;
		for (int t = 0; t < 32; t++)
			good &= got[t] == t;
		check(good, "cluster_peek reads the other CTA's shared memory");
		ptxvm_program_unload(p);
	}
	static const char *const oob =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u32 off)\n{\n\t.reg .b32 %r<4>;\n\t.shared .b32 s[4];\n"
		"\tld.param.u32 %r1, [off];\n\tmov.u32 %r2, s;\n\tadd.u32 %r2, %r2, %r1;\n"
		"\tmapa.shared::cluster.u32 %r3, %r2, 1;\n\tld.shared::cluster.u32 %r1, [%r3];\n"
		"\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n\tret;\n}\n";
	char why[512];
	p = load_ptx(d, "oob.ptx", oob, why, sizeof why);
	if (!p) {
		fail("devrt: oob.ptx: %s", why);
	} else {
		unsigned off = 8;
		void *args[] = { &off };
		check(run3(d, p, "k", (const unsigned[3]){ 2, 1, 1 }, 32, (const unsigned[3]){ 2, 1, 1 }, args) ==
		      PTXVM_SUCCESS, "ld.shared::cluster inside the other CTA's shared memory");
		off = 1 << 20;
		ptxvm_result r = run3(d, p, "k", (const unsigned[3]){ 2, 1, 1 }, 32, (const unsigned[3]){ 2, 1, 1 }, args);
		check(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(d), "past the end of the CTA's"),
		      "ld.shared::cluster past the other CTA's shared memory fails the launch");
		ptxvm_program_unload(p);
	}
	/* a cluster barrier that some threads never reach: rank 1's warp 0
	 * waits at a CTA barrier for its warp 1, which waits at the cluster's */
	static const char *const dead =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .pred %p<3>;\n"
		"\tmov.u32 %r1, %cluster_ctarank;\n\tmov.u32 %r2, %tid.x;\n"
		"\tsetp.eq.u32 %p1, %r1, 1;\n\tsetp.lt.u32 %p2, %r2, 32;\n\tand.pred %p1, %p1, %p2;\n"
		"\t@%p1 bar.sync 1, 64;\n\t@%p1 bra DONE;\n"
		"\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\nDONE:\n\tret;\n}\n";
	p = load_ptx(d, "dead.ptx", dead, why, sizeof why);
	if (!p) {
		fail("devrt: dead.ptx: %s", why);
	} else {
		ptxvm_result r = run3(d, p, "k", (const unsigned[3]){ 2, 1, 1 }, 64, (const unsigned[3]){ 2, 1, 1 }, NULL);
		check(r == PTXVM_ERROR_ILLEGAL_INSTRUCTION && strstr(ptxvm_device_message(d), "can never complete"),
		      "a cluster barrier that cannot complete is reported as a deadlock");
		r = run3(d, p, "k", (const unsigned[3]){ 2, 1, 1 }, 64, (const unsigned[3]){ 1, 1, 1 }, NULL);
		check(r == PTXVM_SUCCESS, "with clusters of one CTA (no rank 1) the same kernel completes");
		ptxvm_program_unload(p);
	}
	ptxvm_device_destroy(d);
}

/* A relocatable module (nvcc -rdc=true) onto d. */
static ptxvm_program *open_rdc(const char *root, const char *name, ptxvm_device *d)
{
	char path[4096];
	size_t len;
	snprintf(path, sizeof path, "%s/tests/ptx/%s.ptx", root, name);
	char *text = slurp(path, &len);
	if (!text) {
		fail("devrt: %s unreadable", path);
		return NULL;
	}
	ptxvm_check_opts o = { .arch = "sm_90", .compile_only = 1 };
	ptxvm_module *m = ptxvm_module_load(path, text, len, &o);
	free(text);
	ptxvm_program *p = NULL;
	if (ptxvm_program_load(d, m, &p) != PTXVM_SUCCESS) {
		fail("devrt: %s: %s", path, ptxvm_device_message(d));
		p = NULL;
	}
	ptxvm_module_free(m);
	return p;
}

static void t_cdp(const char *root, unsigned workers)
{
	ptxvm_device_opts o = { 0 };
	o.workers = workers;
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = open_rdc(root, "cdp.rdc", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	enum { G = 5, N = G * 64 };
	static int a[N];
	int info[9];
	for (int i = 0; i < N; i++)
		a[i] = i;
	uint64_t da, di;
	ptxvm_mem_alloc(d, sizeof a, &da);
	ptxvm_mem_alloc(d, sizeof info, &di);
	ptxvm_memcpy_htod(d, da, a, sizeof a);
	int n = N;
	void *args[] = { &da, &di, &n };
	ptxvm_result r = run(d, p, "cdp_parent", G, 64, args);
	if (r)
		fail("devrt: cdp_parent: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	ptxvm_memcpy_dtoh(d, a, da, sizeof a);
	ptxvm_memcpy_dtoh(d, info, di, sizeof info);
	/* each slice: + 10 (b + 1) from the default stream, + 1 twice from the
	 * nested grids of the other stream; then the tail launch doubles all */
	int good = r == PTXVM_SUCCESS;
	for (int i = 0; i < N && good; i++) {
		int want = 2 * (i + 10 * (i / 64 + 1) + 2);
		if (a[i] != want) {
			fail("devrt: cdp_parent (workers %u): a[%d] = %d, expected %d", workers, i, a[i], want);
			good = 0;
		}
	}
	if (good)
		passed++;
	static const int want_info[9] = { 0, 1024, 32, 9, 0, 0, 9, 9, 0 };
	good = r == PTXVM_SUCCESS;
	for (int i = 0; i < 9; i++)
		if (info[i] != want_info[i] && good) {
			fail("devrt: cdp_parent: info[%d] = %d, expected %d", i, info[i], want_info[i]);
			good = 0;
		}
	if (good)
		passed++;

	/* a limit of one pending launch: CTA 0's first child is pending when it
	 * launches the others, which fail with
	 * cudaErrorLaunchPendingCountExceeded (69, its last error); only that
	 * child's + 10 reaches the slice */
	size_t lim = 0;
	check(ptxvm_device_set_limit(d, PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 0) == PTXVM_ERROR_INVALID_VALUE &&
	      ptxvm_device_set_limit(d, PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 1) == PTXVM_SUCCESS &&
	      ptxvm_device_get_limit(d, PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, &lim) == PTXVM_SUCCESS && lim == 1,
	      "the device runtime's pending launches may be limited to 1, not 0");
	for (int i = 0; i < 64; i++)
		a[i] = i;
	ptxvm_memcpy_htod(d, da, a, 64 * sizeof *a);
	n = 64;
	r = run(d, p, "cdp_parent", 1, 64, args);
	ptxvm_memcpy_dtoh(d, a, da, 64 * sizeof *a);
	ptxvm_memcpy_dtoh(d, info, di, sizeof info);
	good = r == PTXVM_SUCCESS && info[5] == 69;
	for (int i = 0; i < 64 && good; i++)
		good = a[i] == i + 10;
	check(good, "past the limit of pending device launches, a launch fails with "
	      "cudaErrorLaunchPendingCountExceeded");
	ptxvm_device_set_limit(d, PTXVM_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 2048);

	/* nesting: 24 levels run, the 25th launch fails with
	 * cudaErrorLaunchMaxDepthExceeded (65) */
	uint64_t dd, de;
	ptxvm_mem_alloc(d, 4, &dd);
	ptxvm_mem_alloc(d, 4, &de);
	ptxvm_memset_d8(d, dd, 0, 4);
	ptxvm_memset_d8(d, de, 0, 4);
	int depth = 0;
	void *a2[] = { &dd, &de, &depth };
	r = run(d, p, "cdp_deep", 1, 1, a2);
	int reached = -1, err = -1;
	ptxvm_memcpy_dtoh(d, &reached, dd, 4);
	ptxvm_memcpy_dtoh(d, &err, de, 4);
	check(r == PTXVM_SUCCESS && reached == 23 && err == 65,
	      "device launches nest 24 levels deep; the next fails with cudaErrorLaunchMaxDepthExceeded");
	/* a fault in a child grid fails the host's launch, naming both */
	uint64_t bad = 0x10;
	void *a3[] = { &bad, &di, &n };
	r = run(d, p, "cdp_parent", 1, 32, a3);
	check(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(d), "kernel 'cdp_add' launched from "
							 "kernel 'cdp_parent'"),
	      "a fault in a grid launched from a kernel fails the launch and names both kernels");
	ptxvm_program_unload(p);

	/* an entry point of the device runtime that ptxvm does not provide */
	static const char *const ev =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".extern .func (.param .b32 r) cudaCGGetRank(.param .b64 rank, .param .b64 h);\n"
		".visible .entry k()\n{\n\t.param .b64 pn;\n\t.param .b64 ph;\n\t.param .b32 r;\n"
		"\tst.param.b64 [pn], 1;\n\tst.param.b64 [ph], 0;\n"
		"\tcall.uni (r), cudaCGGetRank, (pn, ph);\n\tret;\n}\n";
	ptxvm_check_opts co = { .arch = "sm_90", .compile_only = 1 };
	ptxvm_module *m = ptxvm_module_load("ev.ptx", ev, strlen(ev), &co);
	if (ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p) != PTXVM_SUCCESS) {
		char *diag = ptxvm_module_diagnostics(m);
		fail("devrt: ev.ptx: %s", diag);
		free(diag);
	} else {
		r = run(d, p, "k", 1, 1, NULL);
		check(r == PTXVM_ERROR_NOT_SUPPORTED && strstr(ptxvm_device_message(d), "cudaCGGetRank"),
		      "a device-runtime call ptxvm does not provide fails the launch, naming it");
		ptxvm_program_unload(p);
	}
	ptxvm_module_free(m);
	ptxvm_device_destroy(d);
}

/* Kernels' cudaDeviceGetAttribute answers what ptxvm_device_attribute
 * (the driver library's cuDeviceGetAttribute) does, for every attribute
 * and several targets; a number that is no attribute gives
 * cudaErrorInvalidValue (1) in the kernel. */
static const char attr_ptx[] =
	".version 7.0\n"
	".target sm_70\n"
	".address_size 64\n"
	".extern .func (.param .b32 rv) __cudaCDP2DeviceGetAttribute(.param .b64 p, .param .b32 a, .param .b32 d);\n"
	".visible .entry attrs(.param .u64 out)\n"
	"{\n"
	"	.reg .pred %p;\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	mov.u32 %r1, 0;\n"
	"next:\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	{\n"
	"	.param .b64 p0;\n"
	"	st.param.b64 [p0], %rd3;\n"
	"	.param .b32 p1;\n"
	"	st.param.b32 [p1], %r1;\n"
	"	.param .b32 p2;\n"
	"	st.param.b32 [p2], 0;\n"
	"	.param .b32 rv;\n"
	"	call.uni (rv), __cudaCDP2DeviceGetAttribute, (p0, p1, p2);\n"
	"	ld.param.b32 %r2, [rv];\n"
	"	}\n"
	"	add.s64 %rd3, %rd3, 1024;\n"
	"	st.global.u32 [%rd3], %r2;\n"
	"	add.u32 %r1, %r1, 1;\n"
	"	setp.le.u32 %p, %r1, 148;\n"
	"	@%p bra next;\n"
	"	ret;\n"
	"}\n";

static void t_attributes(void)
{
	/* target, compute capability, opt-in shared memory per block (the
	 * CUDA Programming Guide's table) */
	static const struct { const char *arch; int cc, optin; } targets[] = {
		{ "sm_80", 80, 163 << 10 }, { "sm_89", 89, 99 << 10 }, { "sm_90", 90, 227 << 10 },
		{ "sm_100", 100, 227 << 10 }, { "sm_120", 120, 99 << 10 },
	};
	for (size_t t = 0; t < sizeof targets / sizeof *targets; t++) {
		ptxvm_device_opts o = { .workers = 3, .arch = targets[t].arch };
		ptxvm_device *d = ptxvm_device_create(&o);
		ptxvm_check_opts co = { .arch = "sm_70", .compile_only = 1 };
		ptxvm_module *m = ptxvm_module_load("attrs.ptx", attr_ptx, sizeof attr_ptx - 1, &co);
		ptxvm_program *p = NULL;
		if (!d || ptxvm_program_load(d, m, &p) != PTXVM_SUCCESS) {
			fail("devrt: attributes on %s: %s", targets[t].arch, d ? ptxvm_device_message(d) : "no device");
			ptxvm_module_free(m);
			ptxvm_device_destroy(d);
			continue;
		}
		ptxvm_module_free(m);
		uint64_t out;
		int got[512];
		ptxvm_mem_alloc(d, sizeof got, &out);
		ptxvm_memset_d32(d, out, 0xdeadbeef, 512);
		void *args[] = { &out };
		check(run(d, p, "attrs", 1, 1, args) == PTXVM_SUCCESS, "the attribute kernel runs");
		ptxvm_memcpy_dtoh(d, got, out, sizeof got);
		int differ = 0, host = 0;
		for (int a = 1; a <= 147; a++)
			if (ptxvm_device_attribute(d, a, &host) != PTXVM_SUCCESS || got[a] != host || got[256 + a]) {
				if (!differ++)
					fail("devrt: %s attribute %d: host %d, kernel %d (returned %d)", targets[t].arch,
					     a, host, got[a], got[256 + a]);
			}
		check(!differ, "kernels and the host agree on every attribute");
		check(got[256] == 1 && got[256 + 148] == 1 && ptxvm_device_attribute(d, 148, &host) &&
		      ptxvm_device_attribute(d, 0, &host), "no attribute 0 or 148, in kernels and on the host");
		check(got[75] * 10 + got[76] == targets[t].cc, "the target's compute capability");
		check(got[97] == targets[t].optin, "the target's opt-in shared memory per block");
		check(got[16] == 3, "one multiprocessor per worker");
		check(got[10] == 32, "warp size 32");
		ptxvm_device_destroy(d);
	}
	ptxvm_device_opts bad = { .arch = "sm_91" };
	check(ptxvm_device_create(&bad) == NULL, "a device for a target that is none is refused");
}

/* tests/cuda/events.rdc.cu: an event orders two streams of child grids;
 * the device runtime's queries, limits and cudaMalloc/cudaFree, with the
 * values and error codes the CUDA runtime API documents. */
static void t_events(const char *root, unsigned workers)
{
	ptxvm_device_opts o = { 0 };
	o.workers = workers;
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = open_rdc(root, "events.rdc", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	int a[32];
	long long info[30];
	for (int i = 0; i < 32; i++)
		a[i] = i - 7;
	uint64_t da, di;
	ptxvm_mem_alloc(d, sizeof a, &da);
	ptxvm_mem_alloc(d, sizeof info, &di);
	ptxvm_memcpy_htod(d, da, a, sizeof a);
	ptxvm_memset_d8(d, di, 0xff, sizeof info);
	void *args[] = { &da, &di };
	ptxvm_result r = run(d, p, "ev_parent", 1, 32, args);
	if (r)
		fail("devrt: ev_parent: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	ptxvm_memcpy_dtoh(d, a, da, sizeof a);
	ptxvm_memcpy_dtoh(d, info, di, sizeof info);
	int good = r == PTXVM_SUCCESS;
	for (int i = 0; i < 32 && good; i++)
		if (a[i] != (3 * (i - 7) + 1) * 5 + 2) {
			fail("devrt: ev_parent (workers %u): a[%d] = %d, expected %d", workers, i, a[i],
			     (3 * (i - 7) + 1) * 5 + 2);
			good = 0;
		}
	if (good)
		passed++;
	/* cudaSuccess 0, cudaErrorInvalidValue 1, cudaErrorMemoryAllocation 2,
	 * cudaErrorInvalidDevicePointer 17, cudaErrorUnsupportedLimit 215,
	 * cudaErrorInvalidResourceHandle 400 */
	static const long long want[30] = {
		0, 0, 0, 0, 0,                          /* create, record, wait, record with flags, destroy */
		1, 1,                                   /* create without cudaEventDisableTiming; last error */
		400, 400,                               /* record of no event; last error */
		0, 1, 0, 13000,                         /* one device; runtime 13.0 */
		0, 8 << 20, 8650752, 16384, 2048,      /* heap, printf FIFO (an H200's), stack, pending launches */
		215, 215,                               /* cudaLimitDevRuntimeSyncDepth: none in CUDA 12+ */
		0, 0,                                   /* cudaFuncCachePreferNone */
		0, 1, 42, 0,                            /* cudaMalloc: an aligned block that works; cudaFree */
		17, 17,                                 /* cudaFree of no heap block */
		0, 1,                                   /* cudaSharedMemBankSizeFourByte */
	};
	good = r == PTXVM_SUCCESS;
	for (int i = 0; i < 30 && good; i++)
		if (info[i] != want[i]) {
			fail("devrt: ev_parent: info[%d] = %lld, expected %lld", i, info[i], want[i]);
			good = 0;
		}
	if (good)
		passed++;

	/* copies and fills, in the order of the thread's launches */
	int b[96], inf[6];
	for (int i = 0; i < 96; i++)
		b[i] = i;
	uint64_t db, dj;
	ptxvm_mem_alloc(d, sizeof b, &db);
	ptxvm_mem_alloc(d, sizeof inf, &dj);
	ptxvm_memcpy_htod(d, db, b, sizeof b);
	ptxvm_memset_d8(d, dj, 0xff, sizeof inf);
	void *a2[] = { &db, &dj };
	r = run(d, p, "ev_copy", 1, 32, a2);
	if (r)
		fail("devrt: ev_copy: %s: %s", ptxvm_result_name(r), ptxvm_device_message(d));
	ptxvm_memcpy_dtoh(d, b, db, sizeof b);
	ptxvm_memcpy_dtoh(d, inf, dj, sizeof inf);
	good = r == PTXVM_SUCCESS;
	for (int i = 0; i < 96 && good; i++) {
		int want_b = i < 32 ? (i >= 8 && i < 16 ? 0 : 2 * i + 1) : i < 64 ? 2 * (i - 32) + 1 : 0x01010101 + 1000;
		if (b[i] != want_b) {
			fail("devrt: ev_copy (workers %u): a[%d] = %d, expected %d", workers, i, b[i], want_b);
			good = 0;
		}
	}
	/* cudaErrorInvalidMemcpyDirection (21) for a copy from the host */
	static const int want_inf[6] = { 0, 0, 0, 21, 21, 32 };
	for (int i = 0; i < 6 && good; i++)
		if (inf[i] != want_inf[i]) {
			fail("devrt: ev_copy: info[%d] = %d, expected %d", i, inf[i], want_inf[i]);
			good = 0;
		}
	if (good)
		passed++;
	/* 2D and 3D copies and fills (tests/cuda/events.rdc.cu, ev_copy3) */
	static uint8_t m2[192], src2[64], vol[576], m3[768], w2[192], w3[768];
	int inf3[6];
	memset(m2, 0x11, sizeof m2);
	memset(m3, 0x22, sizeof m3);
	for (int i = 0; i < 64; i++)
		src2[i] = (uint8_t)i;
	for (int i = 0; i < 576; i++)
		vol[i] = (uint8_t)(i * 7 + 3);
	memcpy(w2, m2, sizeof w2);
	memcpy(w3, m3, sizeof w3);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 16; x++)
			w2[32 * (1 + y) + 4 + x] = src2[16 * y + x];
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 4; x++)
			w2[64 + 8 + 32 * y + x] = 0xab;
	for (int z = 0; z < 3; z++)
		for (int y = 0; y < 4; y++)
			for (int x = 0; x < 16; x++)
				w3[(z + 1) * 192 + y * 32 + x] = vol[z * 192 + (y + 1) * 32 + 2 + x];
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 16; x++)
			w3[2 * 192 + y * 32 + x] = 0x5c;
	uint64_t dm2, ds2, dvol, dm3, di3;
	ptxvm_mem_alloc(d, sizeof m2, &dm2);
	ptxvm_mem_alloc(d, sizeof src2, &ds2);
	ptxvm_mem_alloc(d, sizeof vol, &dvol);
	ptxvm_mem_alloc(d, sizeof m3, &dm3);
	ptxvm_mem_alloc(d, sizeof inf3, &di3);
	ptxvm_memcpy_htod(d, dm2, m2, sizeof m2);
	ptxvm_memcpy_htod(d, ds2, src2, sizeof src2);
	ptxvm_memcpy_htod(d, dvol, vol, sizeof vol);
	ptxvm_memcpy_htod(d, dm3, m3, sizeof m3);
	void *a4[] = { &dm2, &ds2, &dvol, &dm3, &di3 };
	r = run(d, p, "ev_copy3", 1, 1, a4);
	ptxvm_memcpy_dtoh(d, m2, dm2, sizeof m2);
	ptxvm_memcpy_dtoh(d, m3, dm3, sizeof m3);
	ptxvm_memcpy_dtoh(d, inf3, di3, sizeof inf3);
	/* cudaErrorInvalidPitchValue (12) for a pitch below the width */
	static const int want3[6] = { 0, 0, 12, 0, 0, 12 };
	good = r == PTXVM_SUCCESS && !memcmp(inf3, want3, sizeof want3);
	for (int i = 0; i < 192 && good; i++)
		if (m2[i] != w2[i])
			fail("devrt: ev_copy3: 2D byte %d is 0x%02x, expected 0x%02x", i, m2[i], w2[i]), good = 0;
	for (int i = 0; i < 768 && good; i++)
		if (m3[i] != w3[i])
			fail("devrt: ev_copy3: 3D byte %d is 0x%02x, expected 0x%02x", i, m3[i], w3[i]), good = 0;
	check(good, "cudaMemcpy2DAsync, cudaMemset2DAsync, cudaMemcpy3DAsync, cudaMemset3DAsync in a kernel");
	/* copies that would never end are refused, or end at memory's edge */
	ptxvm_memset_d8(d, di3, 0xff, sizeof inf3);
	void *a5[] = { &dm2, &di3 };
	r = run(d, p, "ev_copy_wild", 1, 1, a5);
	int named = strstr(ptxvm_device_message(d), "cudaMemsetAsync from kernel 'ev_copy_wild'") != NULL;
	ptxvm_memcpy_dtoh(d, inf3, di3, sizeof inf3);
	check(r == PTXVM_ERROR_ILLEGAL_ADDRESS && inf3[0] == 1 && named,
	      "overlapping planes are an invalid value; rows 2^63 apart fail the launch at the second");
	/* cudaGetParameterBuffer and cudaLaunchDevice called by hand */
	for (int i = 0; i < 32; i++)
		b[i] = i - 5;
	ptxvm_memcpy_htod(d, db, b, 32 * sizeof *b);
	ptxvm_memset_d8(d, dj, 0xff, sizeof inf);
	r = run(d, p, "ev_launch_v1", 1, 1, a2);
	ptxvm_memcpy_dtoh(d, b, db, 32 * sizeof *b);
	ptxvm_memcpy_dtoh(d, inf, dj, sizeof inf);
	good = r == PTXVM_SUCCESS && inf[0] == 1 && inf[1] == 0 && inf[2] == 1 && inf[3] == 1 && inf[4] == 9;
	for (int i = 0; i < 32 && good; i++)
		good = b[i] == 3 * (i - 5) - 4;
	if (!good)
		fail("devrt: ev_launch_v1: %s; info %d %d %d %d %d (expected 1 0 1 1 9), a[0] %d (expected -19)",
		     ptxvm_result_name(r), inf[0], inf[1], inf[2], inf[3], inf[4], b[0]);
	else
		passed++;
	/* cudaOccupancyMaxActiveBlocksPerMultiprocessor in a kernel: sm_90's
	 * limits per multiprocessor (threads 2048, CTAs 32, registers 64K at
	 * 32 a thread, shared memory 228 KiB with 1 KiB reserved a CTA) */
	int occ[11];
	uint64_t docc;
	ptxvm_mem_alloc(d, sizeof occ, &docc);
	ptxvm_memset_d8(d, docc, 0xff, sizeof occ);
	void *a6[] = { &docc };
	r = run(d, p, "ev_occupancy", 1, 1, a6);
	ptxvm_memcpy_dtoh(d, occ, docc, sizeof occ);
	static const int want_occ[11] = { 0, 16, 0, 2, 0, 1, 0, 0, 0, 32, 1 };
	check(r == PTXVM_SUCCESS && !memcmp(occ, want_occ, sizeof occ),
	      "cudaOccupancyMaxActiveBlocksPerMultiprocessor in a kernel: 16, 2, 1 (shared memory), 0, 32; "
	      "flags 2 an invalid value");
	int n = 96;
	void *a3[] = { &db, &n };
	r = run(d, p, "ev_copy_bad", 1, 1, a3);
	check(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(d), "cudaMemcpyAsync from kernel 'ev_copy_bad'"),
	      "a kernel's copy outside device memory fails the launch, naming the call and the kernel");
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

/* Cluster-scope atomics: every thread of a cluster of 4 adds to and maxes
 * a counter in rank 0's shared memory (red/atom .cluster .shared::cluster
 * through mapa), fences at cluster scope and adds to a global counter
 * (atom.acq_rel.cluster.global); rank 0 reports after barrier.cluster. */
static void t_cluster_atomics(unsigned workers)
{
	static const char *const text =
		".version 8.0\n"
		".target sm_90\n"
		".address_size 64\n"
		".visible .entry k(.param .u64 out)\n"
		"{\n"
		"	.reg .b32 %r<12>;\n"
		"	.reg .b64 %rd<4>;\n"
		"	.reg .pred %p<3>;\n"
		"	.shared .align 4 .b32 cnt;\n"
		"	.shared .align 4 .b32 mx;\n"
		"	mov.u32 %r1, %tid.x;\n"
		"	mov.u32 %r4, %cluster_ctarank;\n"
		"	setp.ne.u32 %p1, %r1, 0;\n"
		"	@%p1 bra L0;\n"
		"	st.shared.u32 [cnt], 0;\n"
		"	st.shared.u32 [mx], 0;\n"
		"L0:\n"
		"	barrier.cluster.arrive.release;\n"
		"	barrier.cluster.wait.acquire;\n"
		"	mov.u32 %r2, cnt;\n"
		"	mapa.shared::cluster.u32 %r3, %r2, 0;\n"
		"	red.relaxed.cluster.shared::cluster.add.u32 [%r3], 1;\n"
		"	mov.u32 %r5, mx;\n"
		"	mapa.shared::cluster.u32 %r6, %r5, 0;\n"
		"	mad.lo.u32 %r7, %r4, 1000, %r1;\n"
		"	atom.relaxed.cluster.shared::cluster.max.u32 %r8, [%r6], %r7;\n"
		"	fence.acq_rel.cluster;\n"
		"	ld.param.u64 %rd1, [out];\n"
		"	cvta.to.global.u64 %rd1, %rd1;\n"
		"	atom.acq_rel.cluster.global.add.u32 %r9, [%rd1+8], 1;\n"
		"	barrier.cluster.arrive.release;\n"
		"	barrier.cluster.wait.acquire;\n"
		"	or.b32 %r10, %r1, %r4;\n"
		"	setp.ne.u32 %p2, %r10, 0;\n"
		"	@%p2 bra DONE;\n"
		"	ld.shared.u32 %r11, [cnt];\n"
		"	st.global.u32 [%rd1], %r11;\n"
		"	ld.shared.u32 %r11, [mx];\n"
		"	st.global.u32 [%rd1+4], %r11;\n"
		"DONE:\n"
		"	ret;\n"
		"}\n"
		;
	ptxvm_device_opts o = { 0 };
	o.workers = workers;
	ptxvm_device *d = ptxvm_device_create(&o);
	char why[512];
	ptxvm_program *p = load_ptx(d, "clat.ptx", text, why, sizeof why);
	if (!p) {
		fail("devrt: clat.ptx: %s", why);
		ptxvm_device_destroy(d);
		return;
	}
	for (int rep = 0; rep < 3; rep++) {
		uint64_t out;
		uint32_t got[3];
		ptxvm_mem_alloc(d, sizeof got, &out);
		ptxvm_memset_d8(d, out, 0, sizeof got);
		void *args[] = { &out };
		ptxvm_result r = run3(d, p, "k", (const unsigned[3]){ 4, 1, 1 }, 64, (const unsigned[3]){ 4, 1, 1 }, args);
		ptxvm_memcpy_dtoh(d, got, out, sizeof got);
		ptxvm_mem_free(d, out);
		if (r != PTXVM_SUCCESS || got[0] != 256 || got[1] != 3063 || got[2] != 256) {
			fail("devrt: cluster atomics (workers %u): %s: count %u, max %u, global %u (expected 256, "
			     "3063, 256)", workers, ptxvm_result_name(r), got[0], got[1], got[2]);
			break;
		}
		if (rep == 2)
			passed++;
	}
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

/* tests/cuda/devquery.rdc.cu: kernels' cudaGetErrorName and
 * cudaGetErrorString return CUDA's names of cudaError_t (the runtime's
 * enum, not CUresult's) and descriptions, in read-only device memory that
 * loads and printf's %s read. */
static void t_errors(const char *root, unsigned workers)
{
	static const struct { int code; const char *name, *text; } want[] = {
		{ 0, "cudaSuccess", "success" },
		{ 1, "cudaErrorInvalidValue", "invalid value" },
		{ 2, "cudaErrorMemoryAllocation", "memory allocation" },
		{ 3, "cudaErrorInitializationError", "initialization error" },
		{ 9, "cudaErrorInvalidConfiguration", "invalid configuration" },
		{ 65, "cudaErrorLaunchMaxDepthExceeded", "launch max depth exceeded" },
		{ 69, "cudaErrorLaunchPendingCountExceeded", "launch pending count exceeded" },
		{ 209, "cudaErrorNoKernelImageForDevice", "no kernel image for device" },
		{ 214, "cudaErrorECCUncorrectable", "ECC uncorrectable" },
		{ 215, "cudaErrorUnsupportedLimit", "unsupported limit" },
		{ 222, "cudaErrorUnsupportedPtxVersion", "unsupported ptx version" },
		{ 400, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
		{ 700, "cudaErrorIllegalAddress", "illegal address" },
		{ 805, "cudaErrorMpsConnectionFailed", "mps connection failed" },
		{ 915, "cudaErrorInvalidResourceConfiguration", "invalid resource configuration" },
		{ 999, "cudaErrorUnknown", "unknown" },
		{ 12345, "unrecognized error code", "unrecognized error code" },
		{ -1, "unrecognized error code", "unrecognized error code" },
		{ 10000, "unrecognized error code", "unrecognized error code" },
	};
	enum { N = sizeof want / sizeof *want, W = 48 };
	FILE *pf = tmpfile();
	ptxvm_device_opts o = { .workers = workers, .printf_stream = pf };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = open_rdc(root, "devquery.rdc", d);
	if (!p || !pf) {
		if (pf)
			fclose(pf);
		ptxvm_device_destroy(d);
		return;
	}
	int codes[N];
	static char got[N * 2 * W];
	for (int i = 0; i < N; i++)
		codes[i] = want[i].code;
	uint64_t dc, dout;
	int n = N, w = W;
	ptxvm_mem_alloc(d, sizeof codes, &dc);
	ptxvm_mem_alloc(d, sizeof got, &dout);
	ptxvm_memcpy_htod(d, dc, codes, sizeof codes);
	void *a[] = { &dc, &n, &dout, &w };
	ptxvm_result r = run(d, p, "dq_errors", 2, 16, a);
	ptxvm_memcpy_dtoh(d, got, dout, sizeof got);
	check(r == PTXVM_SUCCESS, "cudaGetErrorName/String in kernels run");
	for (int i = 0; r == PTXVM_SUCCESS && i < N; i++) {
		const char *gn = got + 2 * i * W, *gt = got + (2 * i + 1) * W;
		if (strcmp(gn, want[i].name) || strcmp(gt, want[i].text))
			fail("devrt: code %d: name '%s', text '%s' (expected '%s', '%s')", want[i].code, gn, gt,
			     want[i].name, want[i].text);
		else
			passed++;
	}
	/* printf's %s reads them */
	int code = 700;
	void *a2[] = { &code };
	r = run(d, p, "dq_print", 1, 2, a2);
	char line[256] = "";
	rewind(pf);
	size_t got_n = fread(line, 1, sizeof line - 1, pf);
	line[got_n] = 0;
	check(r == PTXVM_SUCCESS && !strcmp(line, "700 cudaErrorIllegalAddress: illegal address\n"
					    "700 cudaErrorIllegalAddress: illegal address\n"),
	      "device printf's %s prints cudaGetErrorName's and cudaGetErrorString's texts");
	/* they are read-only */
	code = 1;
	r = run(d, p, "dq_scribble", 1, 1, a2);
	check(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(d), "dq_scribble"),
	      "a kernel writing the text cudaGetErrorName returned faults");
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
	fclose(pf);
}

/* The device runtime linked (ptxvm_check_opts.device_runtime): a whole
 * program may call its entry points undefined, as nvlink with libcudadevrt
 * makes one; without it they are unresolved, as ptxas says.  And the names
 * ptxvm_device_runtime_provides answers for: the device runtime's under
 * both spellings, nothing else. */
static void t_linked(const char *root)
{
	char path[4096];
	size_t len;
	snprintf(path, sizeof path, "%s/tests/ptx/cdp.rdc.ptx", root);
	char *text = slurp(path, &len);
	if (!text) {
		fail("devrt: %s unreadable", path);
		return;
	}
	ptxvm_module *whole = ptxvm_module_load(path, text, len, &(ptxvm_check_opts){ .arch = "sm_90" });
	char *d = ptxvm_module_diagnostics(whole);
	check(ptxvm_module_errors(whole) && d && strstr(d, "unresolved .extern function '__cudaCDP2LaunchDeviceV2'"),
	      "a whole program calling the device runtime, not linked with it, is unresolved");
	free(d);
	ptxvm_module_free(whole);
	ptxvm_module *linked = ptxvm_module_load(path, text, len, &(ptxvm_check_opts){ .arch = "sm_90", .device_runtime = 1 });
	d = ptxvm_module_diagnostics(linked);
	if (ptxvm_module_errors(linked))
		fail("devrt: cdp.rdc.ptx linked with the device runtime does not check: %s", d ? d : "?");
	else
		passed++;
	free(d);
	ptxvm_module_free(linked);
	free(text);
	static const struct { const char *name; int yes; } names[] = {
		{ "__cudaCDP2LaunchDeviceV2", 1 }, { "__cudaCDP2GetParameterBufferV2", 1 }, { "cudaLaunchDevice_ptsz", 1 },
		{ "cudaGetParameterBuffer", 1 }, { "__cudaCDP2Malloc", 1 }, { "__cudaCDP2StreamCreateWithFlags", 1 },
		{ "__cudaCDP2FuncGetAttributes", 1 }, { "__cudaCDP2GetErrorString", 1 }, { "cudaGetErrorName", 1 },
		{ "__cudaCDP2LaunchDeviceV2_ptsz", 1 }, { "cudaGraphLaunch", 1 },
		{ "cudaGraphSetConditional", 1 }, { "cudaGraphKernelNodeSetEnabled", 1 },
		{ "cudaGraphKernelNodeUpdatesApply", 1 }, { "cudaCGGetRank", 0 },
		{ "__cudaCDP2Bogus", 0 }, { "cudaDeviceSynchronize", 0 }, { "vprintf", 0 }, { "twice", 0 },
		{ "__cudaCDP2", 0 }, { "", 0 }, { NULL, 0 },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!ptxvm_device_runtime_provides(names[i].name) != !names[i].yes)
			fail("devrt: ptxvm_device_runtime_provides(%s) is not %d", names[i].name ? names[i].name : "NULL",
			     names[i].yes);
		else
			passed++;
}

/* tests/cuda/devquery.rdc.cu: kernels' cudaFuncGetAttributes answers
 * what the C API (and so cuFuncGetAttribute) does, including what the host
 * set: the fields of cudaFuncAttributes for the kernels' declared resources
 * (1 KiB of static shared memory in the module, which ptxvm counts for each
 * of its kernels, docs/API.md; a 160-byte local depot, .maxntid 128,
 * __cluster_dims__(2, 1, 1)); an address that is no kernel gives
 * cudaErrorInvalidDeviceFunction (98). */
static void t_funcattrs(const char *root)
{
	ptxvm_device_opts o = { .workers = 2 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = open_rdc(root, "devquery.rdc", d);
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	const ptxvm_kernel *kp = ptxvm_kernel_find(p, "dq_plain"), *kb = ptxvm_kernel_find(p, "dq_bounded");
	const ptxvm_kernel *kc = ptxvm_kernel_find(p, "dq_cluster");
	/* the host's settings, as cuFuncSetAttribute makes them */
	check(ptxvm_kernel_set_attribute(kp, PTXVM_KATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000) == PTXVM_SUCCESS &&
	      ptxvm_kernel_set_attribute(kp, PTXVM_KATTR_PREFERRED_SHARED_MEMORY_CARVEOUT, 50) == PTXVM_SUCCESS &&
	      ptxvm_kernel_set_attribute(kc, PTXVM_KATTR_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1) == PTXVM_SUCCESS &&
	      ptxvm_kernel_set_attribute(kc, PTXVM_KATTR_CLUSTER_SCHEDULING_POLICY_PREFERENCE, 2) == PTXVM_SUCCESS,
	      "a host sets the four attributes CUDA lets it set");
	/* 227 KiB (sm_90's opt-in maximum) less 1 KiB static is the most */
	check(ptxvm_kernel_set_attribute(kp, PTXVM_KATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES, 227 * 1024 - 1023) ==
	      PTXVM_ERROR_INVALID_VALUE &&
	      ptxvm_kernel_set_attribute(kp, PTXVM_KATTR_PREFERRED_SHARED_MEMORY_CARVEOUT, 101) ==
	      PTXVM_ERROR_INVALID_VALUE &&
	      ptxvm_kernel_set_attribute(kp, PTXVM_KATTR_NUM_REGS, 64) == PTXVM_ERROR_INVALID_VALUE &&
	      ptxvm_kernel_set_attribute(kp, PTXVM_KATTR_REQUIRED_CLUSTER_WIDTH, 2) == PTXVM_ERROR_NOT_SUPPORTED &&
	      ptxvm_kernel_set_attribute(kp, 16, 0) == PTXVM_ERROR_INVALID_VALUE,
	      "settings out of range, of read-only attributes or of no attribute are refused");
	int v = 7;
	check(ptxvm_kernel_get_attribute(kp, 16, &v) == PTXVM_ERROR_INVALID_VALUE && v == 7 &&
	      ptxvm_kernel_get_attribute(kp, -1, &v) == PTXVM_ERROR_INVALID_VALUE,
	      "no attribute 16 or -1");
	uint64_t dout;
	static long long got[62];
	ptxvm_mem_alloc(d, sizeof got, &dout);
	void *a[] = { &dout };
	ptxvm_result r = run(d, p, "dq_attrs", 1, 1, a);
	ptxvm_memcpy_dtoh(d, got, dout, sizeof got);
	check(r == PTXVM_SUCCESS, "cudaFuncGetAttributes in a kernel runs");
	/* result, sharedSizeBytes, constSizeBytes, localSizeBytes,
	 * maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,
	 * maxDynamicSharedSizeBytes, preferredShmemCarveout,
	 * clusterDimMustBeSet, requiredCluster{Width,Height,Depth},
	 * clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed */
	static const long long want[3][17] = {
		{ 0, 1024, 0, 160, 1024, 32, 90, 90, 0, 100000, 50, 0, 0, 0, 0, 0, 0 },
		{ 0, 0, 0, 0, 128, 32, 90, 90, 0, 49152, -1, 0, 0, 0, 0, 0, 0 },
		{ 0, 0, 0, 0, 1024, 32, 90, 90, 0, 49152, -1, 0, 2, 1, 1, 2, 1 },
	};
	/* the same fields as CUfunction_attribute numbers them */
	static const int attr_of[17] = { -1, 1, 2, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14 };
	const ptxvm_kernel *ks[3] = { kp, kb, kc };
	for (int k = 0; r == PTXVM_SUCCESS && k < 3; k++)
		for (int i = 0; i < 17; i++) {
			int h = 0;
			if (i && ptxvm_kernel_get_attribute(ks[k], attr_of[i], &h) != PTXVM_SUCCESS)
				h = -12345;
			if (got[20 * k + i] != want[k][i] || (i && h != want[k][i]))
				fail("devrt: cudaFuncGetAttributes of kernel %d, field %d: %lld in the kernel, %d from the "
				     "host (expected %lld)", k, i, got[20 * k + i], h, want[k][i]);
			else
				passed++;
		}
	check(got[60] == 98 && got[61] == 98,
	      "cudaFuncGetAttributes of an address that is no kernel: cudaErrorInvalidDeviceFunction");
	ptxvm_mem_free(d, dout);
	ptxvm_program_unload(p);
	ptxvm_device_destroy(d);
}

/* Graphs launched from kernels, through the C interface: a kernel of no
 * graph may not launch one; a kernel of a graph reads its graph's handle
 * and relaunches it by tail launch; forged, stale and unregistered
 * handles and ordinary streams are refused with cudaErrorInvalidValue. */
typedef struct GArg {
	ptxvm_device *d;
	ptxvm_program *p;
	uint64_t out;           /* 3 u64: the launch's result, %current_graph_exec, runs */
	uint64_t target, stream;
	int relaunches;         /* launch target while this is above 0 */
	unsigned ctas;          /* of 32 threads, each launching target; 0: 1 thread */
} GArg;

static ptxvm_result g_run(void *arg, uint64_t graph, ptxvm_graph_env *env)
{
	GArg *a = arg;
	uint64_t target = a->relaunches-- > 0 ? a->target : 0;
	const ptxvm_kernel *k = ptxvm_kernel_find(a->p, "gl");
	uint64_t params[3] = { target, a->stream, a->out };
	ptxvm_launch_config cfg = { { a->ctas ? a->ctas : 1, 1, 1 }, { a->ctas ? 32 : 1, 1, 1 }, 0, { 0, 0, 0 } };
	if (!target)
		cfg.grid[0] = cfg.block[0] = 1;
	return target ? ptxvm_launch_graph_node(a->d, k, &cfg, params, sizeof params, env, NULL)
		      : ptxvm_launch_graph_node(a->d, ptxvm_kernel_find(a->p, "count"), &cfg, params + 2, 8, env, NULL);
}

static void t_graphs(void)
{
	static const char *const src =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".extern .func (.param .b32 r) cudaGraphLaunch(.param .b64 g, .param .b64 s);\n"
		".visible .entry gl(.param .u64 g, .param .u64 s, .param .u64 out)\n{\n"
		"\t.reg .b64 %rd<6>;\n\t.reg .b32 %r<2>;\n"
		"\tld.param.u64 %rd1, [g];\n\tld.param.u64 %rd2, [s];\n\tld.param.u64 %rd3, [out];\n"
		"\t{\n\t.param .b64 pg;\n\t.param .b64 ps;\n\t.param .b32 r;\n"
		"\tst.param.b64 [pg], %rd1;\n\tst.param.b64 [ps], %rd2;\n"
		"\tcall.uni (r), cudaGraphLaunch, (pg, ps);\n\tld.param.b32 %r1, [r];\n\t}\n"
		"\tcvt.u64.u32 %rd4, %r1;\n\tst.global.u64 [%rd3], %rd4;\n"
		"\tmov.u64 %rd5, %current_graph_exec;\n\tst.global.u64 [%rd3+8], %rd5;\n"
		"\tatom.global.add.u64 %rd4, [%rd3+16], 1;\n\tret;\n}\n"
		".visible .entry count(.param .u64 out)\n{\n\t.reg .b64 %rd<3>;\n"
		"\tld.param.u64 %rd1, [out];\n\tatom.global.add.u64 %rd2, [%rd1+16], 1;\n\tret;\n}\n";
	enum { TAIL = 1, FAF = 2 };
	ptxvm_device_opts o = { 0 };
	o.timeout = 0.3;
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_check_opts co = { .arch = "sm_90", .compile_only = 1 };
	ptxvm_module *m = ptxvm_module_load("graphs.ptx", src, strlen(src), &co);
	ptxvm_program *p = NULL;
	if (ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p) != PTXVM_SUCCESS) {
		char *diag = ptxvm_module_diagnostics(m);
		fail("devrt: graphs.ptx: %s", diag);
		free(diag);
		ptxvm_module_free(m);
		ptxvm_device_destroy(d);
		return;
	}
	uint64_t dout, got[3];
	ptxvm_mem_alloc(d, sizeof got, &dout);
	GArg a = { d, p, dout, 0x77, (uint64_t)TAIL << 56, 5, 0 };
	/* not a node of a graph */
	ptxvm_memset_d8(d, dout, 0, sizeof got);
	void *args[] = { &a.target, &a.stream, &dout };
	ptxvm_result r = run(d, p, "gl", 1, 1, args);
	ptxvm_memcpy_dtoh(d, got, dout, sizeof got);
	check(r == PTXVM_SUCCESS && got[0] == 800 && got[1] == 0,
	      "cudaGraphLaunch from a kernel of no graph: cudaErrorNotPermitted, %current_graph_exec 0");
	/* a registered graph relaunches itself 5 times */
	ptxvm_memset_d8(d, dout, 0, sizeof got);
	check(ptxvm_graph_register(d, 0x77, g_run, &a) == PTXVM_SUCCESS, "ptxvm_graph_register");
	r = ptxvm_graph_run(d, 0x77, g_run, &a);
	ptxvm_memcpy_dtoh(d, got, dout, sizeof got);
	check(r == PTXVM_SUCCESS && got[0] == 0 && got[1] == 0x77 && got[2] == 6,
	      "a graph relaunches itself by tail launch: 6 runs, %current_graph_exec its handle");
	/* refused: forged, an ordinary stream, unregistered */
	uint64_t bad[][2] = { { 0x1234, (uint64_t)FAF << 56 }, { 0x77, 0 }, { 0x77, 7ull << 56 }, { 0x77, FAF } };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ptxvm_memset_d8(d, dout, 0, sizeof got);
		GArg b = { d, p, dout, bad[i][0], bad[i][1], 1, 0 };
		r = ptxvm_graph_run(d, 0, g_run, &b);
		ptxvm_memcpy_dtoh(d, got, dout, sizeof got);
		check(r == PTXVM_SUCCESS && got[0] == 1 && got[1] == 0 && got[2] == 1,
		      "a forged handle or a stream that is no graph launch stream: cudaErrorInvalidValue");
	}
	/* 128 threads on 4 workers queue 128 tail launches of one graph at once */
	ptxvm_device_opts o4 = { 0 };
	o4.workers = 4;
	ptxvm_device *d4 = ptxvm_device_create(&o4);
	ptxvm_program *p4 = NULL;
	uint64_t out4;
	if (ptxvm_program_load(d4, m, &p4) == PTXVM_SUCCESS && ptxvm_mem_alloc(d4, sizeof got, &out4) == PTXVM_SUCCESS) {
		ptxvm_memset_d8(d4, out4, 0, sizeof got);
		GArg many = { d4, p4, out4, 0x88, (uint64_t)TAIL << 56, 1, 4 };
		ptxvm_graph_register(d4, 0x88, g_run, &many);
		r = ptxvm_graph_run(d4, 0, g_run, &many);
		ptxvm_memcpy_dtoh(d4, got, out4, sizeof got);
		check(r == PTXVM_SUCCESS && got[0] == 0 && got[2] == 256,
		      "128 threads on 4 workers queue 128 tail launches; each runs once");
	} else {
		fail("devrt: graphs.ptx on a device of 4 workers");
	}
	ptxvm_device_destroy(d4);
	/* a relaunch loop that does not stop: the device's time limit ends it */
	GArg loop = { d, p, dout, 0x77, (uint64_t)TAIL << 56, 1 << 30, 0 };
	check(ptxvm_graph_register(d, 0x77, g_run, &loop) == PTXVM_SUCCESS &&
	      ptxvm_graph_run(d, 0x77, g_run, &loop) == PTXVM_ERROR_LAUNCH_TIMEOUT &&
	      strstr(ptxvm_device_message(d), "time limit"), "a relaunch loop without end: LAUNCH_TIMEOUT");
	check(ptxvm_graph_unregister(d, 0x77) == PTXVM_SUCCESS &&
	      ptxvm_graph_unregister(d, 0x77) == PTXVM_ERROR_INVALID_VALUE, "ptxvm_graph_unregister, twice");
	ptxvm_memset_d8(d, dout, 0, sizeof got);
	GArg c = { d, p, dout, 0x77, (uint64_t)FAF << 56, 1, 0 };
	r = ptxvm_graph_run(d, 0, g_run, &c);
	ptxvm_memcpy_dtoh(d, got, dout, sizeof got);
	check(r == PTXVM_SUCCESS && got[0] == 1 && got[2] == 1, "an unregistered graph: cudaErrorInvalidValue");
	check(ptxvm_kernel_launches_grids(ptxvm_kernel_find(p, "gl")) == 0, "a graph launch is no grid launch");
	ptxvm_mem_free(d, dout);
	ptxvm_program_unload(p);
	ptxvm_module_free(m);
	ptxvm_device_destroy(d);
}

/* Conditional nodes through the C interface: a kernel's
 * cudaGraphSetConditional reaches the set function of the graph it runs
 * in, which looks the handle up; a handle it does not know, or a kernel
 * that runs in no graph, faults the launch, naming the call. */
typedef struct CArg {
	ptxvm_device *d;
	ptxvm_program *p;
	uint64_t handle;        /* what the kernel sets */
	unsigned value;         /* set by c_set, for handle 0x42 only */
	int setter;             /* whether the graph has a set function */
	ptxvm_result expired;
} CArg;

static int c_set(void *arg, uint64_t handle, unsigned value)
{
	CArg *a = arg;
	if (handle != 0x42)
		return -1;
	a->value = value;
	return 0;
}

static ptxvm_result c_run(void *arg, uint64_t graph, ptxvm_graph_env *env)
{
	CArg *a = arg;
	if (a->setter)
		ptxvm_graph_env_conditionals(env, c_set, a);
	a->expired = ptxvm_graph_env_expired(env);
	uint64_t params[2] = { a->handle, 9 };
	ptxvm_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	return ptxvm_launch_graph_node(a->d, ptxvm_kernel_find(a->p, "setv"), &cfg, params, 12, env, NULL);
}

/* A WHILE loop as the embedder runs one: the kernel of tests/cuda/
 * conditional.rdc.cu (nvcc's PTX) as its body, while handle 0x42 is not 0. */
typedef struct WArg {
	ptxvm_device *d;
	ptxvm_program *p;
	uint64_t mem;
	unsigned value;
} WArg;

static int w_set(void *arg, uint64_t handle, unsigned value)
{
	WArg *a = arg;
	if (handle != 0x42)
		return -1;
	a->value = value;
	return 0;
}

static ptxvm_result w_run(void *arg, uint64_t graph, ptxvm_graph_env *env)
{
	WArg *a = arg;
	ptxvm_graph_env_conditionals(env, w_set, a);
	uint64_t params[2] = { 0x42, a->mem };
	ptxvm_launch_config cfg = { { 1, 1, 1 }, { 32, 1, 1 }, 0, { 0, 0, 0 } };
	ptxvm_result r = PTXVM_SUCCESS;
	for (a->value = 1; !r && a->value;)
		r = ptxvm_launch_graph_node(a->d, ptxvm_kernel_find(a->p, "cond_countdown"), &cfg, params, sizeof params,
					    env, NULL);
	return r;
}

static void t_conditional(const char *root)
{
	ptxvm_device_opts ow = { 0 };
	ptxvm_device *dw = ptxvm_device_create(&ow);
	ptxvm_program *pw = open_rdc(root, "conditional.rdc", dw);
	WArg wa = { dw, pw, 0, 1 };
	if (pw && ptxvm_mem_alloc(dw, 8, &wa.mem) == PTXVM_SUCCESS) {
		for (unsigned start = 1; start <= 13; start += 6) {
			unsigned got[2] = { start, 0 };
			ptxvm_memcpy_htod(dw, wa.mem, got, sizeof got);
			ptxvm_result r = ptxvm_graph_run(dw, 0, w_run, &wa);
			ptxvm_memcpy_dtoh(dw, got, wa.mem, sizeof got);
			if (r == PTXVM_SUCCESS && got[0] == 0 && got[1] == start)
				passed++;
			else
				fail("devrt: conditional.rdc: a WHILE loop from %u: %d, %u left after %u turns", start,
				     (int)r, got[0], got[1]);
		}
	}
	ptxvm_device_destroy(dw);

	static const char *const src =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);\n"
		".visible .entry setv(.param .u64 h, .param .u32 v)\n{\n"
		"\t.reg .b64 %rd1;\n\t.reg .b32 %r1;\n"
		"\tld.param.u64 %rd1, [h];\n\tld.param.u32 %r1, [v];\n"
		"\t{\n\t.param .b64 ph;\n\t.param .b32 pv;\n"
		"\tst.param.b64 [ph], %rd1;\n\tst.param.b32 [pv], %r1;\n"
		"\tcall.uni cudaGraphSetConditional, (ph, pv);\n\t}\n\tret;\n}\n";
	ptxvm_device_opts o = { 0 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_check_opts co = { .arch = "sm_90", .compile_only = 1 };
	ptxvm_module *m = ptxvm_module_load("cond.ptx", src, strlen(src), &co);
	ptxvm_program *p = NULL;
	if (ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p) != PTXVM_SUCCESS) {
		char *diag = ptxvm_module_diagnostics(m);
		fail("devrt: cond.ptx: %s", diag);
		free(diag);
		ptxvm_module_free(m);
		ptxvm_device_destroy(d);
		return;
	}
	CArg a = { d, p, 0x42, 0, 1, PTXVM_ERROR_LAUNCH_FAILED };
	ptxvm_result r = ptxvm_graph_run(d, 0, c_run, &a);
	check(r == PTXVM_SUCCESS && a.value == 9 && a.expired == PTXVM_SUCCESS,
	      "cudaGraphSetConditional of a handle the graph knows sets it");
	ptxvm_device_destroy(d);
	/* each fault on a device of its own: a fault is sticky */
	const struct { uint64_t h; int setter; int graph; const char *what; } bad[] = {
		{ 0x43, 1, 1, "a handle the graph does not know" },
		{ 0x42, 0, 1, "a graph without conditional nodes" },
		{ 0x42, 1, 0, "a kernel of no graph" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		d = ptxvm_device_create(&o);
		p = NULL;
		if (ptxvm_program_load(d, m, &p) != PTXVM_SUCCESS) {
			fail("devrt: cond.ptx on a second device");
			ptxvm_device_destroy(d);
			continue;
		}
		CArg b = { d, p, bad[i].h, 0, bad[i].setter, PTXVM_SUCCESS };
		uint64_t h = bad[i].h;
		unsigned v = 9;
		void *args[] = { &h, &v };
		r = bad[i].graph ? ptxvm_graph_run(d, 0, c_run, &b) : run(d, p, "setv", 1, 1, args);
		const char *msg = ptxvm_device_message(d);
		if (r == PTXVM_ERROR_ILLEGAL_ADDRESS && b.value == 0 && msg && strstr(msg, "cudaGraphSetConditional"))
			passed++;
		else
			fail("devrt: cudaGraphSetConditional from %s: %d (%s), want ILLEGAL_ADDRESS naming the call",
			     bad[i].what, (int)r, msg ? msg : "no message");
		ptxvm_device_destroy(d);
	}
	ptxvm_module_free(m);
}

/* Device-side updates of kernel nodes through the C interface, with the
 * kernel of tests/cuda/updates.rdc.cu (nvcc's PTX): each update reaches
 * the graph's update function with the guest's fields and bytes, and the
 * call returns its answer; a graph without one answers
 * cudaErrorNotSupported. */
typedef struct UArg {
	ptxvm_device *d;
	ptxvm_program *p;
	uint64_t err;
	int with;               /* install the update function */
	ptxvm_node_update got[6];
	unsigned char bytes[6][16];
	int n;
} UArg;

static int u_update(void *arg, const ptxvm_node_update *u)
{
	UArg *a = arg;
	if (a->n < 6) {
		a->got[a->n] = *u;
		if (u->value && u->size <= 16)
			memcpy(a->bytes[a->n], u->value, u->size);
		a->n++;
	}
	return u->node == 0x51 || u->node == 0x52 ? 0 : 1;
}

static ptxvm_result u_run(void *arg, uint64_t graph, ptxvm_graph_env *env)
{
	UArg *a = arg;
	if (a->with)
		ptxvm_graph_env_updates(env, u_update, a);
	uint64_t params[3] = { 0x51, 0x52, a->err };
	ptxvm_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	return ptxvm_launch_graph_node(a->d, ptxvm_kernel_find(a->p, "upd_calls"), &cfg, params, sizeof params, env, NULL);
}

static void t_updates(const char *root)
{
	for (int with = 1; with >= 0; with--) {
		ptxvm_device_opts o = { 0 };
		ptxvm_device *d = ptxvm_device_create(&o);
		ptxvm_program *p = open_rdc(root, "updates.rdc", d);
		UArg a = { d, p, 0, with, { { 0 } }, { { 0 } }, 0 };
		int err[4] = { -1, -1, -1, -1 };
		if (p && ptxvm_mem_alloc(d, sizeof err, &a.err) == PTXVM_SUCCESS) {
			ptxvm_result r = ptxvm_graph_run(d, 0, u_run, &a);
			ptxvm_memcpy_dtoh(d, err, a.err, sizeof err);
			if (!with) {
				check(r == PTXVM_SUCCESS && a.n == 0 && err[0] == 801 && err[1] == 801 && err[2] == 801 &&
				      err[3] == 801, "kernel node updates in a graph without them: cudaErrorNotSupported");
			} else {
				static const unsigned three[3] = { 1, 2, 3 }, v = 0xabcd1234;
				const ptxvm_node_update *g = a.got;
				check(r == PTXVM_SUCCESS && a.n == 5 && err[0] == 0 && err[1] == 0 && err[2] == 0 &&
				      err[3] == 0, "kernel node updates: five reach the host layer");
				check(g[0].node == 0x51 && g[0].field == 2 && g[0].offset == 8 && g[0].size == 4 &&
				      !memcmp(a.bytes[0], &v, 4), "cudaGraphKernelNodeSetParam: node, offset and bytes");
				check(g[1].field == 3 && g[1].enabled == 0, "cudaGraphKernelNodeSetEnabled(false)");
				check(g[2].field == 1 && g[2].grid[0] == 3 && g[2].grid[1] == 2 && g[2].grid[2] == 1,
				      "cudaGraphKernelNodeSetGridDim(3, 2, 1)");
				check(g[3].node == 0x52 && g[3].field == 1 && g[3].grid[0] == 5 && g[3].grid[1] == 1 &&
				      g[4].node == 0x52 && g[4].field == 2 && g[4].offset == 4 && g[4].size == 12 &&
				      !memcmp(a.bytes[4], three, 12), "cudaGraphKernelNodeUpdatesApply: a grid, then 12 bytes");
			}
		} else {
			fail("devrt: updates.rdc on a device");
		}
		ptxvm_device_destroy(d);
	}
}

void test_devrt(const char *root)
{
	t_updates(root);
	t_conditional(root);
	t_graphs();
	t_funcattrs(root);
	t_errors(root, 1);
	t_errors(root, 2);
	t_linked(root);
	t_attributes();
	t_events(root, 1);
	t_events(root, 3);
	t_cdp(root, 1);
	t_cdp(root, 4);
	t_cluster_ids(root);
	t_cluster_ring(root, 1);
	t_cluster_ring(root, 3);
	t_cluster_faults(root);
	t_cluster_atomics(1);
	t_cluster_atomics(4);
	t_blocks(root, 1);
	t_blocks(root, 4);
	t_limit(root);
	t_aligned(root);
	t_abuse(root);
}
