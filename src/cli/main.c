/* main.c: the ptxvm command line.  Every command is a thin layer over the
 * library in include/ptxvm.h.
 *
 * Exit status: 0 success, 1 invalid PTX, 2 usage error or unreadable file,
 * 3 a failed launch, 4 valid PTX that ptxvm cannot run yet.
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
	"  check     check PTX modules as ptxas does (gcc-style diagnostics)\n"
	"  fmt       print a valid module in canonical form\n"
	"  run       run kernels: list them, pass arguments, read and write files;\n"
	"            the launch may run 60 s unless --timeout says\n"
	"  sass      run SASS ATOM instructions on registers and a memory image\n"
	"  builtins  the surface and texture builtins nvcc's calls become (surf2Dwrite, tex2D, ...)\n"
	"  help COMMAND, COMMAND --help   what a command takes\n"
	"  --version                      the version\n"
	"\n"
	"From CUDA: nvcc -arch=sm_90 -ptx kernel.cu -o kernel.ptx; ptxvm run kernel.ptx --list\n"
	"Exit status: 0 success, 1 invalid PTX, 2 usage error or unreadable file,\n"
	"3 the launch failed, 4 valid PTX that ptxvm cannot run yet (with the CUDA error name).\n";

/* Each command's help: `ptxvm help COMMAND`, `ptxvm COMMAND --help`. */
static const struct { const char *cmd, *text; } helps[] = {
	{ "check",
	  "usage: ptxvm check [--arch sm_NN] [-c] FILE...\n"
	  "\n"
	  "Checks PTX modules as ptxas does and prints gcc-style diagnostics\n"
	  "(FILE:LINE:COL: error: ..., the line, a caret).  '-' reads stdin.\n"
	  "  --arch sm_NN         the target (default sm_90)\n"
	  "  -c, --compile-only   relocatable code (nvcc -rdc=true): calls and .unified\n"
	  "                       symbols another module may define\n"
	  "Exit status: 0 valid, 1 invalid PTX, 2 usage error or unreadable file.\n" },
	{ "fmt",
	  "usage: ptxvm fmt [--arch sm_NN] [-c] FILE\n"
	  "\n"
	  "Prints a valid module in canonical form (a fixed point: fmt of fmt is the same).\n"
	  "Exit status: 0 success, 1 invalid PTX, 2 usage error or unreadable file.\n" },
	{ "run",
	  "usage: ptxvm run FILE --list\n"
	  "       ptxvm run FILE [GLOBAL OPTIONS] LAUNCH [--launch LAUNCH]...\n"
	  "LAUNCH: [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]] [--cluster X[,Y[,Z]]]\n"
	  "        [--shared BYTES] [--arg SPEC]...\n"
	  "\n"
	  "Runs kernels of a PTX module (nvcc -arch=sm_90 -ptx) on the virtual GPU.\n"
	  "  --arch sm_NN         the device's target (default sm_90; sm_90a runs wgmma)\n"
	  "  --list               every kernel: its C++ name, the --kernel to give, and each\n"
	  "                       parameter's PTX type, size and C++ type\n"
	  "  --kernel NAME        the PTX (mangled) name, the C++ name (scale<float> or\n"
	  "                       scale<float>(float*, int)) or a prefix only one kernel has;\n"
	  "                       needed when the module has several\n"
	  "  --grid, --block      CTAs in the grid, threads in a CTA (up to 1024)\n"
	  "  --cluster X[,Y[,Z]]  CTAs in a thread-block cluster (sm_90, up to 16; dividing\n"
	  "                       the grid); without it the kernel's __cluster_dims__, or 1\n"
	  "  --shared BYTES       dynamic shared memory (extern __shared__)\n"
	  "  --arg SPEC           the next parameter, in order; it must fit the parameter's type:\n"
	  "      u8 u16 u32 u64 s8 s16 s32 s64:N   an integer (decimal, 0x hex)\n"
	  "      f32 f64:X                         a float\n"
	  "      b8 b16 b32 b64:N                  bits for any parameter of the size\n"
	  "                                        (b32:0x3f800000 for a float's bits)\n"
	  "      buf:BYTES[:FILES]                 a new device buffer, by address\n"
	  "      buf:in=FILE[:out=FILE]            one as large as its file\n"
	  "      @NAME[+OFFSET]                    the address of a --buf (may alias)\n"
	  "      bytes:HEX | bytes:N:in=FILE       a struct by value: its bytes\n"
	  "      surfKIND:FORMAT:DIMS[:FILES]      a surface object over a new array\n"
	  "      texKIND:FORMAT:DIMS[:in=FILE][:OPTION]...  a texture object over a new array\n"
	  "        KIND 1d 2d 3d 1dl 2dl cube cubel; FORMAT TYPExC: u8 u16 u32 s8 s16 s32 f16 f32\n"
	  "        unorm8 unorm16 snorm8 snorm16, C 1 2 4 (u8x1, f32x4); DIMS W, WxH, WxHxD;\n"
	  "        OPTION filter=linear|point address=wrap|clamp|mirror|border normalized\n"
	  "        readmode=float|element; .png files for 8- and 16-bit unsigned formats\n"
	  "  FILES: in=FILE out=FILE ('-': stdin, stdout; out= is written after the last\n"
	  "         launch), pad (a shorter in= file: the rest zero), truncate (a longer one:\n"
	  "         its first bytes); without them an in= file must have the exact size\n"
	  "GLOBAL OPTIONS:\n"
	  "  --buf NAME:BYTES[:FILES]   a device buffer all launches share, passed as @NAME\n"
	  "  --buf NAME:in=FILE[:out=FILE]   one as large as its file\n"
	  "  --global NAME[:FILES]      a __device__ or __constant__ variable: in= before\n"
	  "                             the first launch, out= after the last\n"
	  "  --launch                   starts the next launch; they run in order\n"
	  "  --workers N                host threads running CTAs (default: one per core)\n"
	  "  --timeout SECONDS          the launch may run 60 s unless --timeout says (0: no limit)\n"
	  "  --printf-fifo BYTES        device printf output kept per launch (default 8,650,752, as on an H200)\n"
	  "  -c                         relocatable code (nvcc -rdc=true): its kernels may\n"
	  "                             launch grids through the device runtime\n"
	  "  --stats                    a JSON line per launch on stderr\n"
	  "  --check LIST               compute-sanitizer's checks: memcheck, racecheck,\n"
	  "                             initcheck, synccheck (comma-separated) or all;\n"
	  "                             PTXVM_CHECK=LIST does the same (docs/CHECKS.md)\n"
	  "Exit status: 0 success, 1 invalid PTX, 2 usage error or unreadable file,\n"
	  "3 the launch failed (the CUDA error name and a report on stderr), 4 valid PTX\n"
	  "that ptxvm cannot run yet (CUDA_ERROR_NOT_SUPPORTED), 5 a check found errors.\n" },
	{ "sass",
	  "usage: ptxvm sass FILE\n"
	  "\n"
	  "Runs SASS ATOM instructions on registers and a memory image (docs/ATOM.md)\n"
	  "and prints the final state.\n"
	  "Exit status: 0 success, 1 invalid input, 2 usage error, 3 an execution error.\n" },
	{ "builtins",
	  "usage: ptxvm builtins [[--module] NAME|ID|CUDA-FUNCTION]\n"
	  "\n"
	  "The builtins that nvcc's surface and texture calls become (docs/BUILTINS.md):\n"
	  "  ptxvm builtins                 every builtin: ID, name, PTX form\n"
	  "  ptxvm builtins NAME|ID         one, with its decomposition\n"
	  "  ptxvm builtins CUDA-FUNCTION   the builtins a CUDA call becomes (surf2Dwrite, tex2D)\n"
	  "  ptxvm builtins --module NAME   a complete PTX module that uses it\n" },
};

static int help(const char *cmd)
{
	for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
		if (!strcmp(helps[i].cmd, cmd)) {
			fputs(helps[i].text, stdout);
			return 0;
		}
	fprintf(stderr, "ptxvm: no command '%s'\n%s", cmd, usage);
	return 2;
}

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
		fprintf(stderr, "ptxvm check: no input files (`ptxvm check --help`)\n");
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
		if (argc > 2 && !strcmp(cmd, "help"))
			return help(argv[2]);
		fputs(usage, stdout);
		return 0;
	}
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			for (size_t k = 0; k < sizeof helps / sizeof helps[0]; k++)
				if (!strcmp(helps[k].cmd, cmd))
					return help(cmd);
			break;
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
