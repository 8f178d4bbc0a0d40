/* main.c: the ptxvm command line.  Every command is a thin layer over the
 * library in include/ptxvm.h.
 *
 * Exit status: 0 success, 1 invalid PTX, 2 usage error or unreadable file.
 */
#include "cli.h"
#include "../util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

const char usage[] =
	"usage: ptxvm <command> [options] [FILE...]\n"
	"\n"
	"commands:\n"
	"  check [--arch sm_NN] [-c] FILE...\n"
	"                                 check PTX modules as ptxas does; '-' reads stdin;\n"
	"                                 -c (--compile-only): relocatable code, whose calls\n"
	"                                 and .unified symbols another module may define\n"
	"  fmt [--arch sm_NN] [-c] FILE   print a valid module in canonical form\n"
	"  run FILE --grid X[,Y[,Z]] --block X[,Y[,Z]] [--kernel NAME] [--shared BYTES]\n"
	"      [--arg SPEC]... [--workers N] [--timeout SECONDS] [--printf-fifo BYTES] [--stats]\n"
	"                                 run a kernel; SPEC is TYPE:VALUE (u8..u64, s8..s64,\n"
	"                                 f32, f64), buf:BYTES[:in=FILE][:out=FILE], or\n"
	"                                 KIND:FORMAT:DIMS[:in=FILE][:out=FILE] for a surface\n"
	"                                 (surf2d:u8x1:640x480; .png files for 8/16-bit formats),\n"
	"                                 or KIND:FORMAT:DIMS[:in=FILE][:filter=linear]\n"
	"                                 [:address=wrap|clamp|mirror|border][:normalized]\n"
	"                                 [:readmode=float] for a texture (tex2d:unorm8x4:64x48);\n"
	"                                 the launch may run 60 s unless --timeout says (0: no\n"
	"                                 limit); device printf keeps 1 MiB unless --printf-fifo\n"
	"  sass FILE                      run SASS ATOM instructions on registers and a memory\n"
	"                                 image (docs/ATOM.md); prints the final state\n"
	"  builtins [[--module] NAME|ID]  the surface-store builtins (ID, name, PTX form);\n"
	"                                 one with its decomposition; a module using it\n"
	"  --help                         this text\n"
	"  --version                      the version\n"
	"\n"
	"The device is sm_90 unless --arch names another target.\n"
	"Exit status: 0 success, 1 invalid PTX, 2 usage error or unreadable file,\n"
	"3 the launch failed (the CUDA error name and a report on stderr).\n";

/* Reads a whole file ('-' = stdin); returns NULL and reports on failure. */
char *slurp(const char *path, size_t *len)
{
	char *p = read_file(path, len);
	if (!p)
		fprintf(stderr, "ptxvm: cannot %s '%s': %s\n", errno == EIO || errno == EFBIG ? "read" : "open", path,
			strerror(errno));
	return p;
}

/* Options shared by the commands; returns the index of the first file. */
static int parse_opts(int argc, char **argv, int i, ptxvm_check_opts *o)
{
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--arch")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ptxvm: --arch needs a target, e.g. --arch sm_90\n");
				return -1;
			}
			o->arch = argv[++i];
		} else if (!strncmp(argv[i], "--arch=", 7)) {
			o->arch = argv[i] + 7;
		} else if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "--compile-only")) {
			o->compile_only = 1;
		} else if (!strcmp(argv[i], "--")) {
			return i + 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "ptxvm: unknown option '%s'\n", argv[i]);
			return -1;
		} else {
			break;
		}
	}
	return i;
}

ptxvm_module *load(const char *path, const ptxvm_check_opts *o, int *status)
{
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		*status = 2;
		return NULL;
	}
	ptxvm_module *m = ptxvm_module_load(strcmp(path, "-") ? path : "<stdin>", text, len, o);
	free(text);
	if (!m) {
		fprintf(stderr, "ptxvm: unknown architecture '%s'\n", o->arch ? o->arch : "?");
		*status = 2;
		return NULL;
	}
	if (ptxvm_module_errors(m)) {
		char *d = ptxvm_module_diagnostics(m);
		fputs(d, stderr);
		free(d);
		*status = 1;
	}
	return m;
}

static int cmd_check(int argc, char **argv)
{
	ptxvm_check_opts o = { 0 };
	int i = parse_opts(argc, argv, 2, &o);
	if (i < 0)
		return 2;
	if (i >= argc) {
		fprintf(stderr, "ptxvm check: no input files\n%s", usage);
		return 2;
	}
	int worst = 0;
	for (; i < argc; i++) {
		int st = 0;
		ptxvm_module *m = load(argv[i], &o, &st);
		ptxvm_module_free(m);
		if (st > worst)
			worst = st;
	}
	return worst;
}

static int cmd_fmt(int argc, char **argv)
{
	ptxvm_check_opts o = { 0 };
	int i = parse_opts(argc, argv, 2, &o);
	if (i < 0)
		return 2;
	if (i + 1 != argc) {
		fprintf(stderr, "ptxvm fmt: expected exactly one input file\n");
		return 2;
	}
	int st = 0;
	ptxvm_module *m = load(argv[i], &o, &st);
	if (m && st == 0) {
		size_t len;
		char *text = ptxvm_module_format(m, &len);
		fwrite(text, 1, len, stdout);
		free(text);
	}
	ptxvm_module_free(m);
	return st;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("ptxvm %s\n", ptxvm_version());
		return 0;
	}
	if (!strcmp(cmd, "check"))
		return cmd_check(argc, argv);
	if (!strcmp(cmd, "fmt"))
		return cmd_fmt(argc, argv);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if (!strcmp(cmd, "builtins"))
		return cmd_builtins(argc, argv);
	if (!strcmp(cmd, "sass"))
		return cmd_sass(argc, argv);
	fprintf(stderr, "ptxvm: unknown command '%s'\n%s", cmd, usage);
	return 2;
}
