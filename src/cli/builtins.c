/* builtins.c: `ptxvm builtins`, the surface and texture builtin tables.
 *
 *   ptxvm builtins                  ID<TAB>NAME<TAB>PTX form, one per builtin
 *   ptxvm builtins NAME|ID          one builtin and its decomposition
 *   ptxvm builtins --module NAME|ID a complete PTX module using it
 */
#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_builtins(int argc, char **argv)
{
	ptxvm_builtin b;
	if (argc == 2) {
		for (size_t i = 0; ptxvm_builtin_at(i, &b) == 0; i++)
			printf("%u\t%s\t%s\n", b.id, b.name, b.ptx);
		return 0;
	}
	bool module = argc == 4 && !strcmp(argv[2], "--module");
	if (argc != 3 && !module) {
		fprintf(stderr, "usage: ptxvm builtins [[--module] NAME|ID]\n");
		return 2;
	}
	const char *key = argv[argc - 1];
	if (ptxvm_builtin_find(key, &b)) {
		fprintf(stderr, "ptxvm builtins: %s\n", ptxvm_builtin_why());
		return 2;
	}
	if (module) {
		char *m = ptxvm_builtin_module(key);
		if (!m) {
			fprintf(stderr, "ptxvm builtins: %s\n", ptxvm_builtin_why());
			return 1;
		}
		fputs(m, stdout);
		free(m);
		return 0;
	}
	printf("id\t%u\nname\t%s\nptx\t%s\n", b.id, b.name, b.ptx);
	if (b.mode) {
		unsigned block = (b.id - 474) / 55;
		printf("mode\t%s (block %u: IDs %u..%u)\ndimension\t%s\ntype\t%s\n", b.mode, block, 474 + block * 55,
		       474 + block * 55 + 54, b.dim, b.type);
	} else {
		printf("handler\t__nv_tex_surf_handler(\"%s\", ...) with element type %s\n", b.operation, b.element);
	}
	printf("operands");
	for (unsigned i = 0; i < b.operands; i++)
		printf("%s%s", i ? ", " : "\t", ptxvm_builtin_operand(&b, i));
	if (b.argument)
		printf("\nargument\t%s\n", !strcmp(b.argument, "mode")
		       ? "boundary mode: 0 zero, 1 clamp, 2 trap (cudaSurfaceBoundaryMode; the form shows trap)"
		       : "gather component: 0 r, 1 g, 2 b, 3 a (the form shows 0)");
	else
		putchar('\n');
	return 0;
}
