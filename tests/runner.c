/* runner.c: the front-end test runner.
 *
 *   isa        the instruction tables compile, every opcode has a form
 *   api        the public interface on bad arguments (NULL text, module,
 *              out-of-range index, unknown architecture)
 *   fixtures   every tests/ptx/NAME.ptx (nvcc output) checks clean, and `fmt` is a
 *              fixed point whose output checks clean too
 *   verify     every tests/check/NAME.ptx: a line ending in "// error: TEXT" must get
 *              an error containing TEXT on that line; no other line may get
 *              one; a file without such comments must be valid and round-trip
 *   coverage   every opcode of the table is parsed, checked valid and
 *              printed by some test input (fixtures, verify files, the
 *              corpora); the number of forms so exercised is reported
 *   corpus     every tests/corpus/ptx module (nvcc output for the toolkit's own
 *              headers): ptxvm agrees with ptxas's recorded verdicts, as a
 *              whole program and as relocatable code (-c); where valid,
 *              `fmt` is a fixed point whose output checks
 *   agree      tests/ptxas-agree/cases.txt: ptxvm accepts exactly what
 *              ptxas accepted, except the cases listed with a reason in
 *              tests/ptxas-agree/exceptions.txt (a listed case that agrees
 *              is reported too, so the list stays true)
 *   ...        the groups of tests/t_*.c, listed in tests/test.h
 *
 * Prints one line per failure, a line per group with its count and time
 * as it finishes ("group NAME  N passed, N failed, S s"), and ends with
 * "runner: N passed, N failed".
 */
#include "test.h"
#include "../src/isa/isa.h"
#include "../src/util/util.h"
#include "../src/front/parse.h"
#include "../src/check/check.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int passed, failed;
int verbose;
static uint8_t *form_seen;      /* [isa_nform]: a valid instruction used the form */

/* Marks the forms used by a valid module (checked for arch, NULL: sm_90). */
static void cover(const char *text, size_t len, const char *arch)
{
	Module *m = ptx_parse("cover", text, len);
	CheckOpts co = { .arch = 90 };
	if (arch) {
		unsigned minptx;
		ptx_target_lookup(arch, strlen(arch), &co.arch, &co.arch_suffix, &minptx);
	}
	if (ptx_check(m, &co) == 0)
		for (uint32_t i = 0; i < m->ntop; i++) {
			Func *f = m->top[i].func;
			if (m->top[i].kind != TOP_FUNC || !f->has_body)
				continue;
			for (uint32_t k = 0; k < f->nbody; k++)
				if (f->body[k].kind == ST_INSTR && f->body[k].in->form != 0xffff)
					form_seen[f->body[k].in->form] = 1;
		}
	ptx_module_free(m);
}

void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failed++;
}

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)n + 1);
	if (fread(p, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(p);
		return NULL;
	}
	fclose(f);
	p[n] = 0;
	*len = (size_t)n;
	return p;
}

ptxvm_program *load_ptx(ptxvm_device *d, const char *name, const char *text, char *why, size_t n)
{
	ptxvm_module *m = ptxvm_module_load(name, text, strlen(text), NULL);
	ptxvm_program *p = NULL;
	if (!m || ptxvm_module_errors(m)) {
		char *diag = ptxvm_module_diagnostics(m);
		snprintf(why, n, "%s does not check: %.600s", name, diag ? diag : "(no module)");
		free(diag);
	} else {
		ptxvm_result r = ptxvm_program_load(d, m, &p);
		if (r)
			snprintf(why, n, "%s: ptxvm_program_load: %s: %s", name, ptxvm_result_name(r),
				 ptxvm_device_message(d));
	}
	ptxvm_module_free(m);
	return p;
}

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted *.ptx paths of a directory. */
static char **list_ptx(const char *dir, int *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	if (!d)
		return NULL;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 4 || strcmp(e->d_name + l - 4, ".ptx"))
			continue;
		v = vec_grow(v, &cap, (size_t)*n + 1, sizeof *v);
		v[*n] = malloc(strlen(dir) + l + 2);
		sprintf(v[*n], "%s/%s", dir, e->d_name);
		(*n)++;
	}
	closedir(d);
	qsort(v, (size_t)*n, sizeof *v, cmpstr);
	return v;
}

/* ---- isa ---------------------------------------------------------------- */
static void test_isa(void)
{
	Buf b = { 0 };
	int n = isa_selftest(&b);
	if (n)
		fail("isa: %d problems in the tables:\n%s", n, b.p);
	else
		passed++;
	buf_free(&b);
}

/* ---- the public interface on bad arguments ------------------------------ */
static void test_api(void)
{
	int bad = 0;
	ptxvm_diag d;
	ptxvm_check_opts wrong = { .arch = "sm_9000" };
	bad += ptxvm_module_load("x", NULL, 5, NULL) != NULL;          /* NULL text */
	bad += ptxvm_module_load("x", "", 0, &wrong) != NULL;          /* unknown arch */
	bad += ptxvm_module_errors(NULL) != 0 || ptxvm_module_diag_count(NULL) != 0;
	bad += ptxvm_module_diag(NULL, 0, &d) != -1 || ptxvm_module_diagnostics(NULL) != NULL;
	bad += ptxvm_module_format(NULL, NULL) != NULL;
	ptxvm_module_free(NULL);
	ptxvm_module *m = ptxvm_module_load(NULL, NULL, 0, NULL);      /* empty input, no name */
	bad += !m || ptxvm_module_errors(m) == 0 || ptxvm_module_diag(m, 99999, &d) != -1 ||
	       ptxvm_module_diag(m, 0, NULL) != -1 || ptxvm_module_format(m, NULL) != NULL;
	char *text = ptxvm_module_diagnostics(m);
	bad += !text || !strstr(text, "<input>:1:1: error: missing .version");
	free(text);
	ptxvm_module_free(m);
	if (bad)
		fail("api: %d checks of bad arguments failed", bad);
	else
		passed++;
}

/* ---- round trip --------------------------------------------------------- */
/* text must be valid under opts; checks fmt's fixed point.  Returns true
 * if it passed. */
static bool round_trip_opts(const char *name, const char *text, size_t len, const ptxvm_check_opts *opts)
{
	ptxvm_module *m = ptxvm_module_load(name, text, len, opts);
	if (ptxvm_module_errors(m)) {
		char *d = ptxvm_module_diagnostics(m);
		fail("%s: expected valid PTX:\n%s", name, d);
		free(d);
		ptxvm_module_free(m);
		return false;
	}
	size_t l1, l2;
	char *t1 = ptxvm_module_format(m, &l1);
	ptxvm_module_free(m);
	if (!opts)
		cover(text, len, NULL);
	ptxvm_module *m1 = ptxvm_module_load(name, t1, l1, opts);
	if (ptxvm_module_errors(m1)) {
		char *d = ptxvm_module_diagnostics(m1);
		fail("%s: the formatted text is invalid:\n%s", name, d);
		free(d);
		ptxvm_module_free(m1);
		free(t1);
		return false;
	}
	char *t2 = ptxvm_module_format(m1, &l2);
	ptxvm_module_free(m1);
	bool ok = l1 == l2 && !memcmp(t1, t2, l1);
	if (!ok) {
		size_t i = 0;
		while (i < l1 && i < l2 && t1[i] == t2[i])
			i++;
		fail("%s: fmt is not a fixed point; first difference at byte %zu: '%.40s' vs '%.40s'",
		     name, i, t1 + i, t2 + i);
	}
	free(t1);
	free(t2);
	return ok;
}

static bool round_trip(const char *name, const char *text, size_t len)
{
	return round_trip_opts(name, text, len, NULL);
}

/* verdicts.txt: "NAME.ptx KERNELS WHOLE COMPILE_ONLY [# diagnostic]" per module */
static void test_corpus(const char *root)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/corpus/verdicts.txt", root);
	size_t len;
	char *v = slurp(path, &len);
	if (!v) {
		fail("corpus: cannot read %s", path);
		return;
	}
	int modules = 0, kernels = 0, agree = 0, bytes = 0;
	for (char *line = strtok(v, "\n"); line; line = strtok(NULL, "\n")) {
		char name[256], verdict[2][16];
		int nk;
		if (sscanf(line, "%255s %d %15s %15s", name, &nk, verdict[0], verdict[1]) != 4) {
			fail("corpus: malformed line in verdicts.txt: %s", line);
			continue;
		}
		char file[4096];
		snprintf(file, sizeof file, "%s/tests/corpus/ptx/%s", root, name);
		size_t tl;
		char *text = slurp(file, &tl);
		if (!text) {
			fail("corpus: cannot read %s", file);
			continue;
		}
		modules++;
		kernels += nk;
		bytes += (int)tl;
		for (int mode = 0; mode < 2; mode++) {
			ptxvm_check_opts o = { .compile_only = mode };
			ptxvm_module *m = ptxvm_module_load(file, text, tl, &o);
			bool ours = ptxvm_module_errors(m) == 0, theirs = !strcmp(verdict[mode], "ok");
			if (ours != theirs) {
				char *d = ptxvm_module_diagnostics(m);
				fail("corpus: %s%s: ptxas says %s, ptxvm says %s%.800s", name, mode ? " (-c)" : "",
				     verdict[mode], ours ? "ok" : "error:\n", ours ? "" : d);
				free(d);
			} else if (!ours || round_trip_opts(file, text, tl, &o)) {
				agree++;
				passed++;
			}
			ptxvm_module_free(m);
		}
		free(text);
	}
	free(v);
	printf("corpus: %d modules, %d kernels (%d KB of nvcc output): %d of %d verdicts agree with ptxas\n",
	       modules, kernels, bytes / 1024, agree, 2 * modules);
}

static void test_fixtures(const char *dir)
{
	int n;
	char **files = list_ptx(dir, &n);
	if (!n)
		fail("fixtures: no .ptx files in %s", dir);
	for (int i = 0; i < n; i++) {
		size_t len;
		char *text = slurp(files[i], &len);
		if (!text)
			fail("%s: unreadable", files[i]);
		else if (round_trip_opts(files[i], text, len, strstr(files[i], ".rdc.ptx") ?
					 &(ptxvm_check_opts){ .arch = "sm_90", .compile_only = 1 } : strstr(files[i], ".sm_90a.ptx") ?
					 &(ptxvm_check_opts){ .arch = "sm_90a" } : NULL))
			passed++;         /* NAME.rdc.ptx: relocatable code (nvcc -rdc=true); NAME.sm_90a.ptx: for sm_90a */
		free(text);
		free(files[i]);
	}
	free(files);
}

/* ---- verify ------------------------------------------------------------- */
typedef struct Expect {
	unsigned line;
	char text[200];
	bool seen;
} Expect;

static void test_verify_file(const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		fail("%s: unreadable", path);
		return;
	}
	Expect *ex = NULL;
	size_t nex = 0, cap = 0;
	unsigned line = 1;
	for (const char *p = text; *p; line++) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		const char *mark = NULL;
		for (size_t k = 0; k + 9 <= l; k++)
			if (!memcmp(p + k, "// error:", 9)) {
				mark = p + k + 9;
				break;
			}
		if (mark) {
			while (*mark == ' ')
				mark++;
			ex = vec_grow(ex, &cap, nex + 1, sizeof *ex);
			size_t tl = (size_t)(p + l - mark);
			while (tl && (mark[tl - 1] == ' ' || mark[tl - 1] == '\r'))
				tl--;
			if (tl >= sizeof ex[nex].text)
				tl = sizeof ex[nex].text - 1;
			memcpy(ex[nex].text, mark, tl);
			ex[nex].text[tl] = 0;
			ex[nex].line = line;
			ex[nex].seen = false;
			nex++;
		}
		p = e ? e + 1 : p + l;
	}
	if (!nex) {
		if (round_trip(path, text, len))
			passed++;
		free(text);
		return;
	}
	ptxvm_module *m = ptxvm_module_load(path, text, len, NULL);
	bool ok = true;
	for (size_t i = 0; i < ptxvm_module_diag_count(m); i++) {
		ptxvm_diag d;
		ptxvm_module_diag(m, i, &d);
		if (d.level != PTXVM_ERROR)
			continue;
		bool expected = false;
		for (size_t k = 0; k < nex; k++)
			if (ex[k].line == d.line && strstr(d.message, ex[k].text)) {
				ex[k].seen = true;
				expected = true;
			}
		if (!expected) {
			fail("%s:%u:%u: unexpected error: %s", path, d.line, d.col, d.message);
			ok = false;
		}
	}
	for (size_t k = 0; k < nex; k++)
		if (!ex[k].seen) {
			bool other = false;
			for (size_t i = 0; i < ptxvm_module_diag_count(m); i++) {
				ptxvm_diag d;
				ptxvm_module_diag(m, i, &d);
				if (d.line == ex[k].line) {
					fail("%s:%u: expected an error containing \"%s\", got \"%s\"", path,
					     ex[k].line, ex[k].text, d.message);
					other = true;
					break;
				}
			}
			if (!other)
				fail("%s:%u: expected an error containing \"%s\", got none", path, ex[k].line, ex[k].text);
			ok = false;
		}
	if (ok)
		passed++;
	ptxvm_module_free(m);
	free(ex);
	free(text);
}

static void test_verify(const char *dir)
{
	int n;
	char **files = list_ptx(dir, &n);
	if (!n)
		fail("verify: no .ptx files in %s", dir);
	for (int i = 0; i < n; i++) {
		test_verify_file(files[i]);
		free(files[i]);
	}
	free(files);
}

/* ---- agreement with ptxas ----------------------------------------------- */
typedef struct Exception {
	char name[128];
	bool used;
} Exception;

static void test_agree(const char *what, const char *cases, const char *exceptions, bool arch_names)
{
	size_t len, elen = 0;
	char *text = slurp(cases, &len);
	if (!text) {
		fail("%s: cannot read %s", what, cases);
		return;
	}
	/* exceptions.txt: "NAME reason..." per line, '#' comments */
	Exception *exc = NULL;
	size_t nexc = 0, cexc = 0;
	char *et = slurp(exceptions, &elen);
	for (char *p = et; p && *p;) {
		char *e = strchr(p, '\n');
		if (e)
			*e = 0;
		if (*p && *p != '#') {
			exc = vec_grow(exc, &cexc, nexc + 1, sizeof *exc);
			sscanf(p, "%127s", exc[nexc].name);
			exc[nexc++].used = false;
		}
		p = e ? e + 1 : p + strlen(p);
	}
	int total = 0, agree = 0, crashes = 0, excused = 0;
	char *p = text;
	while ((p = strstr(p, "@@ ")) && (p == text || p[-1] == '\n')) {
		char name[128] = "", verdict[16] = "";
		sscanf(p + 3, "%127s %15s", name, verdict);
		char *body = strchr(p, '\n');
		if (!body)
			break;
		body++;
		char *end = strstr(body, "\n@@ ");
		size_t blen = end ? (size_t)(end + 1 - body) : strlen(body);
		p = body + blen;
		total++;
		bool ptxas_ok = !strcmp(verdict, "ok");
		if (!strcmp(verdict, "crash")) {
			crashes++;      /* ptxas died: the spec decides; see exceptions */
		}
		/* a case named *.compile_only.* is relocatable code (ptxas --compile-only);
		 * in the forms corpus, one named *.sm_90a* is checked for that target
		 * (ptxas -arch=sm_90a: the arch-specific rows) */
		bool a = arch_names && strstr(name, ".sm_90a");
		ptxvm_check_opts o = { .arch = a ? "sm_90a" : NULL, .compile_only = strstr(name, ".compile_only.") != NULL };
		ptxvm_module *m = ptxvm_module_load(name, body, blen, &o);
		bool ours = ptxvm_module_errors(m) == 0;
		if (ours && ptxas_ok && !o.compile_only)
			cover(body, blen, o.arch);
		bool same = ours == ptxas_ok;
		Exception *x = NULL;
		for (size_t k = 0; k < nexc; k++)
			if (!strcmp(exc[k].name, name))
				x = &exc[k];
		if (x) {
			x->used = true;
			if (same && strcmp(verdict, "crash"))
				fail("%s: %s now agrees with ptxas (%s); remove it from exceptions.txt", what, name, verdict);
			else {
				excused++;
				passed++;
			}
		} else if (same) {
			agree++;
			passed++;
		} else {
			char *d = ptxvm_module_diagnostics(m);
			fail("%s: %s: ptxas says %s, ptxvm says %s%s%.600s", what, name, verdict,
			     ours ? "ok" : "error:\n", ours ? "" : "", ours ? "" : d);
			free(d);
		}
		if (verbose)
			printf("%s %s %s\n", name, verdict, ours ? "ok" : "error");
		ptxvm_module_free(m);
	}
	for (size_t k = 0; k < nexc; k++)
		if (!exc[k].used)
			fail("%s: exception %s names no case", what, exc[k].name);
	printf("%s: %d cases, %d agree with ptxas, %d listed exceptions (%d where ptxas crashed)\n",
	       what, total, agree, excused, crashes);
	free(exc);
	free(et);
	free(text);
}

static void test_coverage(void)
{
	uint8_t op_seen[OPC__COUNT] = { 0 };
	size_t nforms = 0;
	for (size_t i = 0; i < isa_nform; i++)
		if (form_seen[i]) {
			nforms++;
			op_seen[isa_form[i].opc] = 1;
		}
	int missing = 0, forms_missing = 0;
	Buf b = { 0 }, fb = { 0 };
	for (unsigned o = 0; o < OPC__COUNT; o++)
		if (!op_seen[o]) {
			buf_printf(&b, " %s", isa_op[o].name);
			missing++;
		}
	/* A form gated above the device (sm_90, or sm_90a for its own forms)
	 * can have no valid use here. */
	for (size_t i = 0; i < isa_nform; i++)
		if (!form_seen[i] && isa_form[i].sm <= 90) {
			buf_printf(&fb, "\n    %s%s", isa_op[isa_form[i].opc].name, isa_form[i].text);
			forms_missing++;
		}
	if (missing)
		fail("coverage: %d opcodes have no valid use in any test input:%s", missing, b.p);
	else
		passed++;
	if (forms_missing)
		fail("coverage: %d forms have no valid use in any test input:%s", forms_missing, fb.p);
	else
		passed++;
	buf_free(&fb);
	printf("coverage: %zu of %zu forms and %d of %d opcodes exercised by valid test inputs\n", nforms,
	       isa_nform, OPC__COUNT - missing, OPC__COUNT);
	buf_free(&b);
}

/* The progress line of a group: its own passes and failures, and time. */
static struct {
	const char *name;
	int passed, failed;
	struct timespec t0;
} cur;

static void group_begin(const char *name)
{
	cur.name = name;
	cur.passed = passed;
	cur.failed = failed;
	clock_gettime(CLOCK_MONOTONIC, &cur.t0);
}

static void group_end(void)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - cur.t0.tv_sec) + (double)(t1.tv_nsec - cur.t0.tv_nsec) * 1e-9;
	printf("group %-12s %6d passed, %d failed, %5.1f s\n", cur.name, passed - cur.passed, failed - cur.failed, s);
	fflush(stdout);
}

/* Whether the runner has a group of that name. */
static bool known_group(const char *g)
{
	static const char *const fixed[] = { "isa", "api", "fixtures", "verify", "corpus", "agree", "ptxas-agree",
					     "isa-forms" };
	for (size_t i = 0; i < NELEM(fixed); i++)
		if (!strcmp(g, fixed[i]))
			return true;
#define X(name) \
	if (!strcmp(g, #name)) \
		return true;
	TEST_GROUPS(X)
#undef X
	return false;
}

int main(int argc, char **argv)
{
	/* a group that does not exist is an error, never a silent pass */
	if (argc > 2 && !known_group(argv[2])) {
		fprintf(stderr, "runner: no group '%s'\n", argv[2]);
		return 2;
	}
	const char *root = argc > 1 ? argv[1] : ".";
	const char *only = argc > 2 ? argv[2] : NULL;
	verbose = getenv("PTXVM_TEST_VERBOSE") != NULL;
	isa_init();
	form_seen = calloc(isa_nform, 1);
	char a[4096], b[4096];
	setvbuf(stdout, NULL, _IOLBF, 0);       /* progress reaches a pipe as it is made */
	if (!only || !strcmp(only, "isa")) {
		group_begin("isa");
		test_isa();
		group_end();
	}
	if (!only || !strcmp(only, "api")) {
		group_begin("api");
		test_api();
		group_end();
	}
	if (!only || !strcmp(only, "fixtures")) {
		group_begin("fixtures");
		snprintf(a, sizeof a, "%s/tests/ptx", root);
		test_fixtures(a);
		group_end();
	}
	if (!only || !strcmp(only, "verify")) {
		group_begin("verify");
		snprintf(a, sizeof a, "%s/tests/check", root);
		test_verify(a);
		group_end();
	}
	if (!only || !strcmp(only, "corpus")) {
		group_begin("corpus");
		test_corpus(root);
		group_end();
	}
	/* the two corpora of ptxas verdicts: constructs, and instruction forms */
	static const char *const corpora[] = { "ptxas-agree", "isa-forms" };
	for (size_t i = 0; i < NELEM(corpora); i++)
		if (!only || !strcmp(only, "agree") || !strcmp(only, corpora[i])) {
			group_begin(corpora[i]);
			snprintf(a, sizeof a, "%s/tests/%s/cases.txt", root, corpora[i]);
			snprintf(b, sizeof b, "%s/tests/%s/exceptions.txt", root, corpora[i]);
			test_agree(corpora[i], a, b, !strcmp(corpora[i], "isa-forms"));
			group_end();
		}
	if (!only) {
		group_begin("coverage");
		test_coverage();
		group_end();
	}
#define X(name) \
	if (!only || !strcmp(only, #name)) { \
		group_begin(#name); \
		test_##name(root); \
		group_end(); \
	}
	TEST_GROUPS(X)
#undef X
	free(form_seen);
	printf("runner: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
