/* sass.c: `ptxvm sass FILE`, SASS ATOM instructions on a register file and
 * a memory image (docs/ATOM.md has the file format).
 *
 * Prints the final state (registers and predicates that are non-zero or
 * changed, then every memory region) on stdout.  Exit status: 0 success,
 * 1 invalid input (diagnostics on stderr), 2 usage error or unreadable
 * file, 3 an execution error (its name, the instruction's line and the
 * address on stderr).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_sass(int argc, char **argv)
{
	int i = 2;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	else if (i < argc && argv[i][0] == '-' && argv[i][1]) {
		fprintf(stderr, "ptxvm sass: unknown option '%s'\n", argv[i]);
		return 2;
	}
	if (i + 1 != argc) {
		fprintf(stderr, "ptxvm sass: expected exactly one input file\n");
		return 2;
	}
	const char *path = argv[i];
	size_t len;
	char *text = slurp(path, &len);
	if (!text)
		return 2;
	ptxvm_sass *s = ptxvm_sass_load(strcmp(path, "-") ? path : "<stdin>", text, len);
	free(text);
	if (!s) {
		fprintf(stderr, "ptxvm sass: out of memory\n");
		return 2;
	}
	int st = 0;
	if (ptxvm_sass_errors(s)) {
		char *d = ptxvm_sass_diagnostics(s);
		fputs(d, stderr);
		free(d);
		st = 1;
	} else if (ptxvm_sass_run(s) != PTXVM_SUCCESS) {
		fprintf(stderr, "%s\n", ptxvm_sass_message(s));
		st = 3;
	} else {
		char *out = ptxvm_sass_state(s);
		fputs(out, stdout);
		free(out);
	}
	ptxvm_sass_free(s);
	return st;
}
