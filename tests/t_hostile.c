/* t_hostile.c: the sandbox against hostile kernels and inputs.
 *
 *   watchdog   kernels that never end, each of a kind that could starve a
 *              watchdog (tests/hostile/watchdog.ptx: printf of 1 MiB
 *              strings, wide printf fields, arithmetic in 1024-thread CTAs,
 *              atomics on one word, barriers, large frames): each stops
 *              with CUDA_ERROR_LAUNCH_TIMEOUT naming the kernel, well
 *              within a bound of its limit, and the device then runs a
 *              launch normally
 *   fifo       device printf through a small FIFO (tests/hostile/fifo.ptx):
 *              the records kept are the first that fit in CTA order, the
 *              same for 1, 2, 5 and 8 workers; the others are dropped and
 *              counted; vprintf returns the same either way; the limit's
 *              interface
 *   tools      fmt of deep nesting prints linear output; a SASS file of
 *              many regions loads and runs, and every overlap of a region
 *              or window with an earlier one is reported, in file order
 *   regress    every tests/fuzz/regress/NAME.ptx, replayed as the executor
 *              fuzzer launched it (tests/fuzz/harness.h), ends with the
 *              result its "// expect:" line names (and the message text
 *              after it), and its first buffer holds the "// bytes:" given
 */
#include "test.h"
#include "fuzz/harness.h"

#include <dirent.h>
#include <stdbool.h>
#include <time.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(bool ok, const char *fmt, ...)
{
	if (ok) {
		passed++;
		return;
	}
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fail("hostile: %s", msg);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static ptxvm_program *load(ptxvm_device *d, const char *root, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	ptxvm_module *m = ptxvm_module_load_file(path, NULL);
	ptxvm_program *p = NULL;
	if (!m || ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p))
		fail("hostile: %s does not load: %s", rel, ptxvm_device_message(d));
	ptxvm_module_free(m);
	return p;
}

/* ---- watchdog ----------------------------------------------------------- */
#define LIMIT 0.2               /* seconds */
#define BOUND 5.0               /* the launch must end this long after its limit at most */
#define BIG_STRING (1u << 20)

static void test_watchdog(const char *root)
{
	ptxvm_device_opts o = { .workers = 2, .timeout = LIMIT, .printf_stream = harness_null() };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = load(d, root, "tests/hostile/watchdog.ptx");
	if (!p) {
		ptxvm_device_destroy(d);
		return;
	}
	uint64_t str, word;
	char *s = malloc(BIG_STRING + 1);
	memset(s, 'A', BIG_STRING);
	s[BIG_STRING] = 0;
	if (ptxvm_mem_alloc(d, BIG_STRING + 1, &str) || ptxvm_memcpy_htod(d, str, s, BIG_STRING + 1) ||
	    ptxvm_mem_alloc(d, 8, &word))
		fail("hostile watchdog: no device memory");
	free(s);
	static const struct {
		const char *kernel;
		unsigned grid, block;
		int arg;                /* 0 none, 1 the string, 2 the word */
	} runs[] = {
		{ "printf_loop", 64, 1024, 1 }, { "printf_wide", 64, 1024, 0 }, { "alu_loop", 64, 1024, 0 },
		{ "atom_storm", 64, 1024, 2 }, { "barrier_loop", 4, 1024, 0 }, { "frames", 1000000, 1024, 0 },
	};
	for (size_t i = 0; i < NELEM(runs); i++) {
		const ptxvm_kernel *k = ptxvm_kernel_find(p, runs[i].kernel);
		void *args[1] = { runs[i].arg == 1 ? (void *)&str : &word };
		ptxvm_launch_config cfg = { { runs[i].grid, 1, 1 }, { runs[i].block, 1, 1 }, 0, { 0, 0, 0 } };
		double t0 = now();
		ptxvm_result r = ptxvm_launch(d, k, &cfg, runs[i].arg ? args : NULL, NULL);
		double late = now() - t0 - LIMIT;
		const char *msg = ptxvm_device_message(d);
		char want[128];
		snprintf(want, sizeof want, "CUDA_ERROR_LAUNCH_TIMEOUT: kernel '%s'", runs[i].kernel);
		check(r == PTXVM_ERROR_LAUNCH_TIMEOUT && !strncmp(msg, want, strlen(want)) &&
		      strstr(msg, "ran longer than its limit of 0.2 s"),
		      "watchdog %s: %s (%s)", runs[i].kernel, ptxvm_result_name(r), msg);
		check(late < BOUND, "watchdog %s: the launch ended %.3f s after its limit", runs[i].kernel, late);
		if (verbose)
			printf("watchdog %s: ended %.4f s after the limit\n", runs[i].kernel, late);
	}
	/* the device goes on as before */
	ptxvm_launch_config one = { { 1, 1, 1 }, { 32, 1, 1 }, 0, { 0, 0, 0 } };
	ptxvm_result r = ptxvm_launch(d, ptxvm_kernel_find(p, "frames"), &one, NULL, NULL);
	check(r == PTXVM_SUCCESS, "watchdog: the next launch fails: %s", ptxvm_device_message(d));
	ptxvm_device_destroy(d);
}

/* ---- the printf FIFO ---------------------------------------------------- */
#define G 8
#define B 64

/* The text of the lines kernel, thread by thread in CTA order, cut to the
 * records that fit in cap bytes; *kept: how many. */
static size_t expected_lines(char *out, size_t cap, unsigned *kept)
{
	size_t len = 0;
	*kept = 0;
	for (unsigned c = 0; c < G; c++)
		for (unsigned t = 0; t < B; t++) {
			char line[64];
			int n = snprintf(line, sizeof line, "cta %u thread %u\n", c, t);
			if (len + (size_t)n > cap)
				return len;
			memcpy(out + len, line, (size_t)n);
			len += (size_t)n;
			++*kept;
		}
	return len;
}

/* Launches kernel of fifo.ptx with a FIFO of cap bytes (0: the default)
 * on `workers` workers; the printed text into text (size *len). */
static ptxvm_result run_fifo(const char *root, const char *kernel, unsigned grid, unsigned block, size_t cap,
			     unsigned workers, char *text, size_t *len, uint32_t *rets, ptxvm_launch_stats *st)
{
	FILE *f = tmpfile();
	ptxvm_device_opts o = { .workers = workers, .printf_stream = f, .printf_fifo_bytes = cap };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = load(d, root, "tests/hostile/fifo.ptx");
	ptxvm_result r = PTXVM_ERROR_INVALID_PTX;
	if (p) {
		uint64_t out = 0;
		ptxvm_mem_alloc(d, (size_t)grid * block * 4, &out);
		void *args[1] = { &out };
		ptxvm_launch_config cfg = { { grid, 1, 1 }, { block, 1, 1 }, 0, { 0, 0, 0 } };
		r = ptxvm_launch(d, ptxvm_kernel_find(p, kernel), &cfg, args, st);
		if (rets)
			ptxvm_memcpy_dtoh(d, rets, out, (size_t)grid * block * 4);
	}
	ptxvm_device_destroy(d);
	rewind(f);
	*len = fread(text, 1, *len, f);
	fclose(f);
	return r;
}

static void test_fifo(const char *root)
{
	static char want[G * B * 32], got[G * B * 32];
	static uint32_t rets[G * B];
	/* the default (1 MiB) keeps everything */
	unsigned kept;
	size_t wl = expected_lines(want, SIZE_MAX, &kept), gl = sizeof got;
	ptxvm_launch_stats st = { 0 };
	ptxvm_result r = run_fifo(root, "lines", G, B, 0, 2, got, &gl, NULL, &st);
	check(r == PTXVM_SUCCESS && gl == wl && !memcmp(got, want, wl) && st.printf_dropped == 0,
	      "fifo: the default FIFO loses output (%zu of %zu bytes, %llu dropped)", gl, wl,
	      (unsigned long long)st.printf_dropped);
	/* a FIFO of 2,000 bytes: the first records that fit, for any number of workers */
	wl = expected_lines(want, 2000, &kept);
	static const unsigned workers[] = { 1, 2, 5, 8 };
	for (size_t wi = 0; wi < NELEM(workers); wi++) {
		unsigned w = workers[wi];
		gl = sizeof got;
		memset(rets, 0xee, sizeof rets);
		r = run_fifo(root, "lines", G, B, 2000, w, got, &gl, rets, &st);
		bool same = true;
		for (unsigned i = 0; i < G * B; i++)
			same = same && rets[i] == 2;
		check(r == PTXVM_SUCCESS && gl == wl && !memcmp(got, want, wl), "fifo: %u workers keep %zu bytes, "
		      "expected the first %zu", w, gl, wl);
		check(st.printf_dropped == G * B - kept, "fifo: %u workers: %llu records dropped, expected %u", w,
		      (unsigned long long)st.printf_dropped, G * B - kept);
		check(same, "fifo: %u workers: vprintf does not return 2 to every thread, kept or dropped", w);
	}
	/* a first record bigger than the FIFO: it and everything after it go */
	gl = sizeof got;
	r = run_fifo(root, "big", 2, 2, 1000, 2, got, &gl, NULL, &st);
	check(r == PTXVM_SUCCESS && gl == 0 && st.printf_dropped == 5,
	      "fifo: a record over the FIFO: %zu bytes printed, %llu dropped; expected 0 and 5", gl,
	      (unsigned long long)st.printf_dropped);
	gl = sizeof got;
	r = run_fifo(root, "big", 2, 2, 3000, 2, got, &gl, NULL, &st);
	check(r == PTXVM_SUCCESS && gl == 2001 + 4 * 15 && st.printf_dropped == 0,
	      "fifo: 3,000 bytes hold the big record and the lines: %zu printed, %llu dropped", gl,
	      (unsigned long long)st.printf_dropped);

	/* the limit's interface */
	size_t v = 0;
	ptxvm_device *d = ptxvm_device_create(NULL);
	check(ptxvm_device_get_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, &v) == PTXVM_SUCCESS && v == 8650752,
	      "fifo: the default limit is %zu, not an H200's 8,650,752 bytes", v);
	check(ptxvm_device_set_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, 0) == PTXVM_ERROR_INVALID_VALUE &&
	      strstr(ptxvm_device_message(d), "at least 1 byte"), "fifo: a FIFO of 0 bytes: %s",
	      ptxvm_device_message(d));
	check(ptxvm_device_set_limit(d, (ptxvm_limit)7, 4096) == PTXVM_ERROR_INVALID_VALUE &&
	      strstr(ptxvm_device_message(d), "limit 7 is not supported") &&
	      ptxvm_device_get_limit(d, (ptxvm_limit)3, &v) == PTXVM_ERROR_INVALID_VALUE &&
	      ptxvm_device_get_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, NULL) == PTXVM_ERROR_INVALID_VALUE &&
	      ptxvm_device_set_limit(NULL, PTXVM_LIMIT_PRINTF_FIFO_SIZE, 1) == PTXVM_ERROR_INVALID_VALUE,
	      "fifo: other limits and NULL arguments");
	check(ptxvm_device_set_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, 5000) == PTXVM_SUCCESS &&
	      ptxvm_device_get_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, &v) == PTXVM_SUCCESS && v == 5000,
	      "fifo: the limit does not change to 5000 (%zu)", v);
	ptxvm_device_destroy(d);
	ptxvm_device_opts o = { .printf_fifo_bytes = 123, .printf_stream = harness_null() };
	d = ptxvm_device_create(&o);
	check(ptxvm_device_get_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, &v) == PTXVM_SUCCESS && v == 123,
	      "fifo: printf_fifo_bytes 123 gives %zu", v);
	/* as in CUDA, fixed once a kernel of a module that prints has run */
	ptxvm_program *p = load(d, root, "tests/hostile/fifo.ptx");
	uint64_t out = 0;
	ptxvm_mem_alloc(d, 4, &out);
	void *args[1] = { &out };
	ptxvm_launch_config one = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	if (p)
		ptxvm_launch(d, ptxvm_kernel_find(p, "lines"), &one, args, NULL);
	check(ptxvm_device_set_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, 4096) == PTXVM_ERROR_INVALID_VALUE &&
	      strstr(ptxvm_device_message(d), "cannot change size after a kernel that uses printf") &&
	      ptxvm_device_get_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, &v) == PTXVM_SUCCESS && v == 123,
	      "fifo: the limit changes after a printing launch: %s", ptxvm_device_message(d));
	ptxvm_device_destroy(d);
}

/* ---- tools -------------------------------------------------------------- */
static void test_fmt_depth(void)
{
	enum { DEPTH = 50000 };
	size_t cap = DEPTH * 4 + 512, n = 0;
	char *src = malloc(cap);
	n += (size_t)snprintf(src, cap, ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
			      ".reg .b32 %%r<2>;\n");
	for (int i = 0; i < DEPTH; i++)
		src[n++] = '{', src[n++] = '\n';
	n += (size_t)snprintf(src + n, cap - n, "mov.u32 %%r1, 1;\n");
	for (int i = 0; i <= DEPTH; i++)
		src[n++] = '}', src[n++] = '\n';
	ptxvm_module *m = ptxvm_module_load("deep.ptx", src, n, NULL);
	size_t l1 = 0, l2 = 0;
	char *t1 = m && !ptxvm_module_errors(m) ? ptxvm_module_format(m, &l1) : NULL;
	ptxvm_module *m2 = t1 ? ptxvm_module_load("deep2.ptx", t1, l1, NULL) : NULL;
	char *t2 = m2 && !ptxvm_module_errors(m2) ? ptxvm_module_format(m2, &l2) : NULL;
	static const char tabs16[] = "\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t{", tabs17[] = "\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	check(t1 && l1 <= 40u * DEPTH + 1000 && strstr(t1, tabs16) && !strstr(t1, tabs17),
	      "tools: fmt of %d nested blocks prints %zu bytes, or indents past 16 tabs", DEPTH, l1);
	check(t2 && l1 == l2 && !memcmp(t1, t2, l1), "tools: fmt of deep nesting is not a fixed point");
	free(t1);
	free(t2);
	ptxvm_module_free(m);
	ptxvm_module_free(m2);
	free(src);
}

static void test_sass_layout(void)
{
	/* every region or window overlapping an earlier one, in file order */
	static const char ov[] =
		"mem 0x1000 0x100\nmem 0x1010 8\nmem 0x1014 8\nshared 0x10f0 0x20\nlocal 0x2000 0x10\n"
		"sparse 0x2000 4\nmem 0x3000 4\nset 0x3000 u32 5\nset 0x4000 u8 1\nmem 0x4000 4\nshared 0x2008 4\n"
		"mem 0x500 0x1000\n";
	static const struct {
		unsigned line, col;
		const char *msg;
	} want[] = {
		{ 2, 5, "0x1010..0x1017 overlaps the region 0x1000..0x10ff of line 1" },
		{ 3, 5, "0x1014..0x101b overlaps the region 0x1000..0x10ff of line 1" },
		{ 4, 8, "the shared window 0x10f0..0x110f overlaps the region of line 1: a region is global memory" },
		{ 9, 5, "set 0x4000..0x4000: not inside one memory region (declare it with mem first)" },
		{ 11, 8, "0x2008..0x200b overlaps the local window of line 5" },
		{ 12, 5, "0x500..0x14ff overlaps the region 0x1000..0x10ff of line 1" },
	};
	ptxvm_sass *s = ptxvm_sass_load("ov.sass", ov, strlen(ov));
	bool ok = s && ptxvm_sass_errors(s) == NELEM(want);
	for (size_t i = 0; ok && i < NELEM(want); i++) {
		ptxvm_diag d;
		ok = ptxvm_sass_diag(s, i, &d) == 0 && d.line == want[i].line && d.col == want[i].col &&
		     !strcmp(d.message, want[i].msg);
		if (!ok)
			fail("hostile: tools: sass overlap %zu: %u:%u '%s', expected %u:%u '%s'", i, d.line, d.col,
			     d.message, want[i].line, want[i].col, want[i].msg);
	}
	if (ok)
		passed++;
	else if (!s || ptxvm_sass_errors(s) != NELEM(want))
		fail("hostile: tools: sass overlaps: %zu errors, expected %zu", s ? ptxvm_sass_errors(s) : 0,
		     NELEM(want));
	ptxvm_sass_free(s);

	/* 30,000 regions declared downwards, as many windows, sets and ATOMs */
	enum { N = 30000 };
	size_t cap = (size_t)N * 120, n = 0;
	char *t = malloc(cap);
	for (unsigned i = 0; i < N; i++)
		n += (size_t)snprintf(t + n, cap - n, "mem 0x%x u32 %u 0\n", 0x1000 + (N - 1 - i) * 16, i);
	for (unsigned i = 0; i < N; i++)
		n += (size_t)snprintf(t + n, cap - n, "%s 0x%x 8\n", i & 1 ? "shared" : "local", 0x100000 + i * 16);
	for (unsigned i = 0; i < N; i++)
		n += (size_t)snprintf(t + n, cap - n, "sparse 0x%x 0x40\n", 0x400000 + i * 16);
	for (unsigned i = 0; i < N; i += 2)
		n += (size_t)snprintf(t + n, cap - n, "set 0x%x u32 %u\n", 0x1000 + i * 16 + 4, i);
	n += (size_t)snprintf(t + n, cap - n, "R1 = 7\nR2 = 1\nR4 = 0x400004\n");
	for (unsigned i = 0; i < N; i++)
		n += (size_t)snprintf(t + n, cap - n, "ATOM.ADD R0, [0x%x], R2\n", 0x1000 + i * 16);
	n += (size_t)snprintf(t + n, cap - n, "ATOM.ADD R1, [R4], R2\n");       /* sparse: reads 0 */
	s = ptxvm_sass_load("many.sass", t, n);
	uint32_t w[2] = { 0, 0 };
	ok = s && ptxvm_sass_errors(s) == 0 && ptxvm_sass_run(s) == PTXVM_SUCCESS;
	for (unsigned i = 0; ok && i < N; i += 997) {
		ok = ptxvm_sass_read(s, 0x1000 + i * 16, w, 8) == PTXVM_SUCCESS && w[0] == N - i &&
		     w[1] == (i % 2 ? 0 : i);
	}
	check(ok && ptxvm_sass_reg(s, 0) == 0 && ptxvm_sass_reg(s, 1) == 0,
	      "tools: a SASS file of %d regions, windows and sets (%zu errors: %s)", N, s ? ptxvm_sass_errors(s) : 0,
	      s ? ptxvm_sass_message(s) : "");
	ptxvm_sass_free(s);
	free(t);
}

/* ---- the fuzzer's findings ---------------------------------------------- */
static void replay(const char *dir, const char *name)
{
	char path[8192];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		fail("hostile: regress: cannot read %s", path);
		return;
	}
	char want[64] = "", msg[512] = "";
	const char *e = strstr(text, "// expect: ");
	if (!e || sscanf(e, "// expect: %63[A-Z_]%*[:]%*[ ]%511[^\n]", want, msg) < 1) {
		fail("hostile: regress: %s has no '// expect: RESULT[: message]' line", name);
		free(text);
		return;
	}
	HarnessRun run;
	/* the fuzzer's 0.05 s limit is too short for a sanitizer build on a
	 * busy machine; no finding expects the limit */
	int rc = harness_run(text, len, 10, &run);
	const char *got = run.checked ? ptxvm_result_name(run.result) : "INVALID";
	bool ok = rc == 0 && !strcmp(got, want) && strstr(run.message, msg);
	/* "// bytes: OFFSET HEX HEX ...": the first buffer after the launch */
	for (const char *b = strstr(text, "// bytes: "); ok && b; b = strstr(b + 1, "// bytes: ")) {
		char *q;
		unsigned long off = strtoul(b + 10, &q, 0);
		for (unsigned long v; ok && *q == ' ' && (v = strtoul(q, &q, 16), 1); off++)
			ok = off < HARNESS_BUF && run.buf0[off] == v;
	}
	check(ok, "regress %s: %s '%s', expected %s '%s'%s", name, got, run.message, want, msg,
	      rc ? " (the harness failed)" : "");
	free(text);
}

static void test_regress(const char *root)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/tests/fuzz/regress", root);
	DIR *d = opendir(dir);
	if (!d) {
		fail("hostile: regress: no %s", dir);
		return;
	}
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".ptx")) {
			names = realloc(names, (n + 1) * sizeof *names);
			names[n++] = strdup(e->d_name);
		}
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		replay(dir, names[i]);
		free(names[i]);
	}
	free(names);
	if (verbose)
		printf("regress: %zu findings replayed\n", n);
}

void test_hostile(const char *root)
{
	test_watchdog(root);
	test_fifo(root);
	test_fmt_depth();
	test_sass_layout();
	test_regress(root);
}
