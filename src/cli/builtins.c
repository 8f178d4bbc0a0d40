/* builtins.c: `ptxvm builtins`, the surface-store builtin table.
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
		fprintf(stderr, "ptxvm builtins: no builtin '%s' (the surface stores are IDs 474 to 638, "
			"e.g. __nvvm_sust_b_2d_i32_trap)\n", key);
		return 2;
	}
	if (module) {
		char *m = ptxvm_builtin_module(b.id);
		fputs(m, stdout);
		free(m);
		return 0;
	}
	printf("id\t%u\nname\t%s\nptx\t%s\nmode\t%s (block %u: IDs %u..%u)\ndimension\t%s\ntype\t%s\n", b.id,
	       b.name, b.ptx, b.mode, (b.id - 474) / 55, 474 + (b.id - 474) / 55 * 55, 474 + (b.id - 474) / 55 * 55 + 54,
	       b.dim, b.type);
	return 0;
}
