/* t_san.c: the runtime checks (docs/CHECKS.md) on the kernels of
 * tests/cuda/sanitize.cu (compiled with -lineinfo): each defect reported
 * once, in compute-sanitizer's words, at the right lines; the race-free
 * kernels clean and right; leaks; PTXVM_CHECK. */
#include "test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Run {
	ptxvm_device *d;
	ptxvm_program *p;
	FILE *out;
} Run;

static const char *root_dir;

static bool open_run(Run *r, unsigned checks)
{
	char path[4096];
	size_t len;
	memset(r, 0, sizeof *r);
	snprintf(path, sizeof path, "%s/tests/ptx/sanitize.lineinfo.ptx", root_dir);
	char *text = slurp(path, &len);
	r->out = tmpfile();
	if (!text || !r->out) {
		fail("san: %s unreadable, or no temporary file", path);
		free(text);
		return false;
	}
	ptxvm_module *m = ptxvm_module_load("sanitize.lineinfo.ptx", text, len, NULL);
	free(text);
	ptxvm_device_opts o = { .workers = 2, .checks = checks, .check_stream = r->out };
	r->d = ptxvm_device_create(&o);
	ptxvm_result res = ptxvm_program_load(r->d, m, &r->p);
	ptxvm_module_free(m);
	if (res) {
		fail("san: program_load: %s", ptxvm_device_message(r->d));
		return false;
	}
	return true;
}

/* Ends the run: the reports written, NUL-terminated (the caller frees),
 * and the error count. */
static char *close_run(Run *r, size_t *errors)
{
	*errors = ptxvm_device_check_finish(r->d);
	ptxvm_device_destroy(r->d);
	long n = ftell(r->out);
	char *t = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
	rewind(r->out);
	if (t && n > 0 && fread(t, 1, (size_t)n, r->out) != (size_t)n)
		t[0] = 0;
	fclose(r->out);
	return t;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static ptxvm_result launch(Run *r, const char *kernel, unsigned gx, unsigned gy, unsigned bx, unsigned by,
			   void **args)
{
	const ptxvm_kernel *k = ptxvm_kernel_find(r->p, kernel);
	if (!k) {
		fail("san: no kernel %s", kernel);
		return PTXVM_ERROR_NOT_FOUND;
	}
	ptxvm_launch_config c = { .grid = { gx, gy, 1 }, .block = { bx, by, 1 } };
	return ptxvm_launch(r->d, k, &c, args, NULL);
}

static uint64_t dalloc(Run *r, size_t n, const void *init, size_t ninit)
{
	uint64_t a = 0;
	if (ptxvm_mem_alloc(r->d, n, &a))
		fail("san: alloc: %s", ptxvm_device_message(r->d));
	if (init && ninit)
		ptxvm_memcpy_htod(r->d, a, init, ninit);
	return a;
}

/* One report: what must be in it, how often, and the error count. */
static void expect(const char *what, const char *text, size_t errors, size_t want_errors,
		   const char *const *needles, const int *times)
{
	bool ok = errors == want_errors;
	for (size_t i = 0; needles[i]; i++)
		ok &= count(text, needles[i]) == times[i];
	if (ok) {
		passed++;
		return;
	}
	fail("san: %s: %zu errors (expected %zu); the report:\n%s", what, errors, want_errors, text);
	for (size_t i = 0; needles[i]; i++)
		if (count(text, needles[i]) != times[i])
			fprintf(stderr, "    '%s' %d times, expected %d\n", needles[i], count(text, needles[i]), times[i]);
}

static void race_and_clean(void)
{
	int in[512], want[2] = { 0, 0 };
	for (int i = 0; i < 512; i++)
		in[i] = i * 7 - 300, want[i / 256] += in[i];
	static const char *const kernels[] = { "_Z8sum_racyPKiPi", "_Z8sum_treePKiPi", "_Z9sum_warpsPKiPi" };
	for (int k = 0; k < 3; k++) {
		Run r;
		if (!open_run(&r, PTXVM_CHECK_ALL))
			return;
		uint64_t din = dalloc(&r, sizeof in, in, sizeof in), dout = dalloc(&r, 8, NULL, 0);
		void *args[] = { &din, &dout };
		ptxvm_result res = launch(&r, kernels[k], 2, 1, 256, 1, args);
		int got[2] = { 0, 0 };
		ptxvm_memcpy_dtoh(r.d, got, dout, 8);
		ptxvm_mem_free(r.d, din);
		ptxvm_mem_free(r.d, dout);
		size_t e;
		char *t = close_run(&r, &e);
		if (res)
			fail("san: %s: %s", kernels[k], ptxvm_result_name(res));
		if (k == 0) {
			/* thread 0 reads what the other warps write, with no barrier
			 * between (sanitize.cu:29 writes, :33 reads); ptxvm runs warp 0
			 * first, so the read comes first.  The reads also find shared
			 * memory not yet written: racecheck alone is asked below. */
			free(t);
			if (!open_run(&r, PTXVM_CHECK_RACECHECK))
				return;
			din = dalloc(&r, sizeof in, in, sizeof in), dout = dalloc(&r, 8, NULL, 0);
			void *a2[] = { &din, &dout };
			launch(&r, kernels[k], 2, 1, 256, 1, a2);
			ptxvm_mem_free(r.d, din);
			ptxvm_mem_free(r.d, dout);
			t = close_run(&r, &e);
			const char *n[] = { "========= Error: Race reported between Read access at _Z8sum_racyPKiPi in ",
					    "sanitize.cu:33 (sanitize.lineinfo.ptx:",
					    "=========     and Write access at _Z8sum_racyPKiPi in ",
					    "sanitize.cu:29 (sanitize.lineinfo.ptx:", "========= ERROR SUMMARY: 1 error\n",
					    NULL };
			const int c[] = { 1, 1, 1, 1, 1 };
			expect("racecheck: the racy block sum", t, e, 1, n, c);
		} else {
			const char *n[] = { "========= ERROR SUMMARY: 0 errors\n", "Race", "Uninitialized", NULL };
			const int c[] = { 1, 0, 0 };
			expect(kernels[k], t, e, 0, n, c);
			if (got[0] != want[0] || got[1] != want[1])
				fail("san: %s: sums %d %d, expected %d %d", kernels[k], got[0], got[1], want[0], want[1]);
			else
				passed++;
		}
		free(t);
	}
}

static void matmul(void)
{
	enum { N = 32 };
	static float a[N * N], b[N * N], want[N * N];
	for (int i = 0; i < N * N; i++)
		a[i] = (float)(i % 7) - 3.0f, b[i] = (float)(i % 5) * 0.5f;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			float s = 0;        /* small integers and halves: exact in any order */
			for (int k = 0; k < N; k++)
				s += a[i * N + k] * b[k * N + j];
			want[i * N + j] = s;
		}
	for (int racy = 0; racy < 2; racy++) {
		Run r;
		if (!open_run(&r, PTXVM_CHECK_ALL))
			return;
		uint64_t da = dalloc(&r, sizeof a, a, sizeof a), db = dalloc(&r, sizeof b, b, sizeof b);
		uint64_t dc = dalloc(&r, sizeof a, NULL, 0);
		int n = N;
		void *args[] = { &da, &db, &dc, &n };
		ptxvm_result res = launch(&r, racy ? "_Z11matmul_racyPKfS0_Pfi" : "_Z6matmulPKfS0_Pfi", N / 16, N / 16,
					  16, 16, args);
		static float got[N * N];
		ptxvm_memcpy_dtoh(r.d, got, dc, sizeof got);
		ptxvm_mem_free(r.d, da);
		ptxvm_mem_free(r.d, db);
		ptxvm_mem_free(r.d, dc);
		size_t e;
		char *t = close_run(&r, &e);
		if (res)
			fail("san: matmul: %s", ptxvm_result_name(res));
		if (!racy) {
			const char *nd[] = { "========= ERROR SUMMARY: 0 errors\n", NULL };
			const int c[] = { 1 };
			expect("the tiled matrix multiply", t, e, 0, nd, c);
			if (memcmp(got, want, sizeof got))
				fail("san: the tiled matrix multiply computes a wrong product");
			else
				passed++;
		} else {
			/* the next tile's stores (:104) against the reads of the
			 * product (:107) that other warps have still to make */
			const char *nd[] = { "sanitize.cu:104 (", "sanitize.cu:107 (", "Uninitialized", NULL };
			const int c[] = { 2, 2, 0 };
			expect("racecheck: the tiled multiply without its second barrier", t, e, 2, nd, c);
		}
		free(t);
	}
}

static void others(void)
{
	Run r;
	size_t e;
	char *t;
	/* memcheck: one element past the end of a 256-byte array */
	if (!open_run(&r, PTXVM_CHECK_MEMCHECK))
		return;
	uint64_t x = dalloc(&r, 256, NULL, 0);
	int n = 64;
	void *a1[] = { &x, &n };
	ptxvm_result res = launch(&r, "_Z8past_endPfi", 1, 1, 96, 1, a1);
	char msg[1024];
	snprintf(msg, sizeof msg, "%s", ptxvm_device_message(r.d));
	ptxvm_mem_free(r.d, x);
	t = close_run(&r, &e);
	{
		const char *nd[] = { "========= Invalid __global__ read of size 4 bytes\n"
				     "=========     at _Z8past_endPfi in ", "sanitize.cu:11 (",
				     "=========     by thread (64,0,0) in block (0,0,0)\n",
				     "is out of bounds\n=========     and is 4 bytes past the end of a 256-byte allocation at 0x",
				     "========= ERROR SUMMARY: 1 error\n", NULL };
		const int c[] = { 1, 1, 1, 1, 1 };
		expect("memcheck: past the end", t, e, 1, nd, c);
		if (res != PTXVM_ERROR_ILLEGAL_ADDRESS)
			fail("san: memcheck: the launch returned %s", ptxvm_result_name(res));
		if (!strstr(msg, "ld.global.f32 at sanitize.lineinfo.ptx:") || !strstr(msg, "sanitize.cu:11): global load "
		    "of 4 bytes at 0x") || !strstr(msg, " is 4 bytes past the end of a 256-byte allocation at 0x"))
			fail("san: the launch's report lacks the source line or the allocation: %s", msg);
		else
			passed++;
	}
	free(t);

	/* initcheck: 64 of 65 elements written; thread 63 reads the 65th */
	if (!open_run(&r, PTXVM_CHECK_INITCHECK))
		return;
	int in[64];
	for (int i = 0; i < 64; i++)
		in[i] = i;
	uint64_t din = dalloc(&r, 65 * 4, in, sizeof in), dout = dalloc(&r, 256, NULL, 0);
	void *a2[] = { &din, &dout, &n };
	res = launch(&r, "_Z11read_uninitPKiPii", 1, 1, 64, 1, a2);
	char addr[64];
	snprintf(addr, sizeof addr, "=========     Address 0x%llx\n", (unsigned long long)din + 256);
	t = close_run(&r, &e);
	{
		const char *nd[] = { "========= Uninitialized __global__ memory read of size 4 bytes\n"
				     "=========     at _Z11read_uninitPKiPii in ", "sanitize.cu:117 (",
				     "by thread (63,0,0) in block (0,0,0)", addr, "ERROR SUMMARY: 1 error\n", NULL };
		const int c[] = { 1, 1, 1, 1, 1 };
		expect("initcheck: one element never written", t, e, 1, nd, c);
	}
	free(t);

	/* initcheck: memset and device-to-device copies count as writes */
	if (!open_run(&r, PTXVM_CHECK_INITCHECK))
		return;
	din = dalloc(&r, 65 * 4, in, sizeof in), dout = dalloc(&r, 256, NULL, 0);
	uint64_t tmp = dalloc(&r, 8, NULL, 0);
	ptxvm_memset_d8(r.d, tmp, 0, 4);
	ptxvm_memcpy_dtod(r.d, din + 256, tmp, 4);
	void *a3[] = { &din, &dout, &n };
	launch(&r, "_Z11read_uninitPKiPii", 1, 1, 64, 1, a3);
	ptxvm_mem_free(r.d, din);
	ptxvm_mem_free(r.d, dout);
	ptxvm_mem_free(r.d, tmp);
	t = close_run(&r, &e);
	{
		const char *nd[] = { "ERROR SUMMARY: 0 errors\n", NULL };
		const int c[] = { 1 };
		expect("initcheck: memset and copies write", t, e, 0, nd, c);
	}
	free(t);

	/* synccheck: a barrier that the even threads alone reach, in 2 warps */
	if (!open_run(&r, PTXVM_CHECK_SYNCCHECK))
		return;
	dout = dalloc(&r, 256, NULL, 0);
	void *a4[] = { &dout };
	launch(&r, "_Z17divergent_barrierPi", 1, 1, 64, 1, a4);
	ptxvm_mem_free(r.d, dout);
	t = close_run(&r, &e);
	{
		const char *nd[] = { "========= Barrier error detected. Divergent thread(s) in warp\n"
				     "=========     at _Z17divergent_barrierPi in ", "sanitize.cu:127 (",
				     "16 of the warp's 32 live threads reached the barrier (lanes 0x55555555)",
				     "ERROR SUMMARY: 1 error\n", NULL };
		const int c[] = { 1, 1, 1, 1 };
		expect("synccheck: a divergent barrier", t, e, 1, nd, c);
	}
	free(t);

	/* synccheck: warps at two different barriers, in one CTA (the kernel's
	 * stores do not depend on the block: two CTAs would race on out) */
	if (!open_run(&r, PTXVM_CHECK_SYNCCHECK))
		return;
	dout = dalloc(&r, 256, NULL, 0);
	void *a5[] = { &dout };
	res = launch(&r, "_Z13split_barrierPi", 1, 1, 64, 1, a5);
	int split[64];
	ptxvm_memcpy_dtoh(r.d, split, dout, sizeof split);
	ptxvm_mem_free(r.d, dout);
	t = close_run(&r, &e);
	{
		const char *nd[] = { "========= Barrier error detected. Divergent thread(s) in block\n"
				     "=========     at _Z13split_barrierPi in ", "sanitize.cu:142 (",
				     "by thread (32,0,0) in block (0,0,0)",
				     "=========     while other threads of the block wait at _Z13split_barrierPi in ",
				     "sanitize.cu:139 (", "Divergent thread(s) in warp", "ERROR SUMMARY: 1 error\n", NULL };
		const int c[] = { 1, 1, 1, 1, 1, 0, 1 };
		expect("synccheck: warps at different barriers", t, e, 1, nd, c);
		bool right = res == PTXVM_SUCCESS;
		for (int i = 0; i < 64; i++)
			right &= split[i] == 63 - i + (i >= 32);
		if (!right)
			fail("san: split_barrier: %s, or wrong results", ptxvm_result_name(res));
		else
			passed++;
	}
	free(t);

	/* memcheck's leak check: one allocation of two never freed */
	if (!open_run(&r, PTXVM_CHECK_MEMCHECK))
		return;
	uint64_t kept = dalloc(&r, 1000, NULL, 0), freed = dalloc(&r, 24, NULL, 0);
	ptxvm_mem_free(r.d, freed);
	char leak[96];
	snprintf(leak, sizeof leak, "========= Leaked 1000 bytes at 0x%llx\n", (unsigned long long)kept);
	size_t first = ptxvm_device_check_finish(r.d);
	t = close_run(&r, &e);
	{
		const char *nd[] = { leak, "Leaked", "========= LEAK SUMMARY: 1000 bytes leaked in 1 allocations\n",
				     "========= ERROR SUMMARY: 1 error\n", NULL };
		const int c[] = { 1, 1, 1, 1 };
		expect("memcheck: a leak, reported once", t, e, 1, nd, c);
		if (first != 1)
			fail("san: the first ptxvm_device_check_finish returned %zu", first);
	}
	free(t);
}

static void api(void)
{
	static const struct { const char *spec; int ok; unsigned checks; } specs[] = {
		{ "memcheck", 1, PTXVM_CHECK_MEMCHECK },
		{ "racecheck,initcheck", 1, PTXVM_CHECK_RACECHECK | PTXVM_CHECK_INITCHECK },
		{ "synccheck", 1, PTXVM_CHECK_SYNCCHECK },
		{ "all", 1, PTXVM_CHECK_ALL },
		{ "none", 1, 0 },
		{ "", 1, 0 },
		{ "memcheck,bogus", 0, 0 },
		{ "memcheckx", 0, 0 },
	};
	for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
		unsigned c = 99;
		ptxvm_result r = ptxvm_check_parse(specs[i].spec, &c);
		if ((r == PTXVM_SUCCESS) != specs[i].ok || (specs[i].ok && c != specs[i].checks))
			fail("san: ptxvm_check_parse('%s'): %s, %u", specs[i].spec, ptxvm_result_name(r), c);
		else
			passed++;
	}
	/* PTXVM_CHECK when the options name none; the options win */
	const char *old = getenv("PTXVM_CHECK");
	char *keep = old ? strdup(old) : NULL;
	setenv("PTXVM_CHECK", "racecheck,synccheck", 1);
	FILE *devnull = fopen("/dev/null", "w");
	ptxvm_device_opts o1 = { .check_stream = devnull }, o2 = { .checks = PTXVM_CHECK_INITCHECK, .check_stream = devnull };
	ptxvm_device *d = ptxvm_device_create(&o1), *d2 = ptxvm_device_create(&o2);
	if (ptxvm_device_checks(d) != (PTXVM_CHECK_RACECHECK | PTXVM_CHECK_SYNCCHECK) ||
	    ptxvm_device_checks(d2) != PTXVM_CHECK_INITCHECK)
		fail("san: PTXVM_CHECK: checks %u and %u", ptxvm_device_checks(d), ptxvm_device_checks(d2));
	else
		passed++;
	ptxvm_device_destroy(d);
	ptxvm_device_destroy(d2);
	if (devnull)
		fclose(devnull);
	unsetenv("PTXVM_CHECK");
	d = ptxvm_device_create(NULL);
	if (ptxvm_device_checks(d) || ptxvm_device_check_finish(d))
		fail("san: a device without checks has checks");
	else
		passed++;
	ptxvm_device_destroy(d);
	if (keep) {
		setenv("PTXVM_CHECK", keep, 1);
		free(keep);
	}
}

void test_san(const char *root)
{
	root_dir = root;
	api();
	race_and_clean();
	matmul();
	others();
}
