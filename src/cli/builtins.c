/* builtins.c: `ptxvm builtins`, the surface and texture builtin tables.
 *
 *   ptxvm builtins                  ID<TAB>NAME<TAB>PTX form, one per builtin
 *   ptxvm builtins NAME|ID          one builtin and its decomposition
 *   ptxvm builtins CUDA-FUNCTION    the builtins a CUDA call becomes
 *                                   (surf2Dwrite, tex2D, tex2DLod, tex1Dfetch)
 *   ptxvm builtins --module NAME|ID a complete PTX module using it
 */
#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether builtin b is what a call of the CUDA function fn becomes: the
 * handler's operation "__i" fn, with _v2, _sparse or _char_as after it
 * (tex2DGrad is __itex2DGrad_v2); and for surfNDwrite also the surface
 * stores of its dimension (__nvvm_sust_b_2d_* for surf2Dwrite). */
static bool from_cuda(const ptxvm_builtin *b, const char *fn)
{
	static const char *const stores[][2] = { { "surf1Dwrite", "1d" }, { "surf2Dwrite", "2d" },
						 { "surf3Dwrite", "3d" }, { "surf1DLayeredwrite", "1d_array" },
						 { "surf2DLayeredwrite", "2d_array" } };
	if (b->dim) {
		for (size_t i = 0; i < sizeof stores / sizeof stores[0]; i++)
			if (!strcmp(fn, stores[i][0]) && !strcmp(b->dim, stores[i][1]))
				return true;
		return false;
	}
	size_t n = strlen(fn);
	if (!b->operation || strncmp(b->operation, "__i", 3) || strncmp(b->operation + 3, fn, n))
		return false;
	const char *rest = b->operation + 3 + n;
	static const char *const tails[] = { "_v2", "_sparse", "_char_as" };
	while (*rest) {
		size_t k = 0;
		while (k < sizeof tails / sizeof tails[0] && strncmp(rest, tails[k], strlen(tails[k])))
			k++;
		if (k == sizeof tails / sizeof tails[0])
			return false;
		rest += strlen(tails[k]);
	}
	return true;
}

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
		fprintf(stderr, "usage: ptxvm builtins [[--module] NAME|ID|CUDA-FUNCTION] (`ptxvm builtins --help`)\n");
		return 2;
	}
	const char *key = argv[argc - 1];
	if (!module && strncmp(key, "__", 2) && strspn(key, "0123456789") != strlen(key) &&
	    ptxvm_builtin_find(key, &b)) {
		/* a CUDA function: every builtin its calls become */
		size_t hits = 0;
		for (size_t i = 0; ptxvm_builtin_at(i, &b) == 0; i++)
			if (from_cuda(&b, key)) {
				printf("%u\t%s\t%s\n", b.id, b.name, b.ptx);
				hits++;
			}
		if (hits)
			return 0;
		fprintf(stderr, "ptxvm builtins: %s, and no CUDA surface or texture function '%s' (surf2Dwrite, "
			"surf2Dread, tex2D, tex2DLod, tex2DGrad, tex2Dgather, tex1Dfetch, ...)\n", ptxvm_builtin_why(), key);
		return 2;
	}
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
