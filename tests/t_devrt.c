/* t_devrt.c: the device runtime that ptxvm provides to kernels: the
 * malloc heap (tests/cuda/malloc.cu), its limit and its faults.
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

static ptxvm_result run(ptxvm_device *d, ptxvm_program *p, const char *k, unsigned g, unsigned b, void **args)
{
	ptxvm_launch_config cfg = { { g, 1, 1 }, { b, 1, 1 }, 0 };
	const ptxvm_kernel *kh = ptxvm_kernel_find(p, k);
	if (!kh) {
		fail("devrt: no kernel %s", k);
		return PTXVM_ERROR_NOT_FOUND;
	}
	return ptxvm_launch(d, kh, &cfg, args, NULL);
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

void test_devrt(const char *root)
{
	t_blocks(root, 1);
	t_blocks(root, 4);
	t_limit(root);
	t_aligned(root);
	t_abuse(root);
}
