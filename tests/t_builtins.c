/* t_builtins.c: the surface-store builtin table.
 *
 *   table    every ID <-> name <-> decomposition round trip, against the
 *            seed's formula written out here; 165 distinct names
 *   cicc     where CUDA's cicc exists, the __nvvm_sust_b_ names it carries
 *            are exactly the table's (skipped, saying why, without it)
 *   modules  every --module output checks clean and runs on ptxvm, storing
 *            through a surface of the builtin's shape
 */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const dims[5] = { "1d", "1d_array", "2d", "2d_array", "3d" };
static const char *const types[11] = { "i8", "i16", "i32", "i64", "v2i8", "v2i16", "v2i32", "v2i64",
				       "v4i8", "v4i16", "v4i32" };
static const char *const modes[3] = { "clamp", "trap", "zero" };

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void test_builtins(const char *root)
{
	(void)root;
	int bad = 0;
	char *names[165];
	if (ptxvm_builtin_count() != 165)
		bad++, fail("builtins: %zu builtins, expected 165", ptxvm_builtin_count());
	for (unsigned i = 0; i < 165; i++) {
		ptxvm_builtin b, c, d;
		/* the seed: mode_offset = id - 474; block = /55; dim = %55/11; type = %11 */
		unsigned id = 474 + i, mo = id - 474;
		char want[64], sid[16];
		snprintf(want, sizeof want, "__nvvm_sust_b_%s_%s_%s", dims[mo % 55 / 11], types[mo % 11], modes[mo / 55]);
		snprintf(sid, sizeof sid, "%u", id);
		if (ptxvm_builtin_at(i, &b) || b.id != id || strcmp(b.name, want) || ptxvm_builtin_find(b.name, &c) ||
		    c.id != id || ptxvm_builtin_find(sid, &d) || strcmp(d.name, want) ||
		    strcmp(b.mode, modes[mo / 55]) || strcmp(b.dim, dims[mo % 55 / 11]) || strcmp(b.type, types[mo % 11])) {
			bad++;
			fail("builtins: ID %u: got '%s' (%s, %s, %s), expected '%s'", id, b.name, b.mode, b.dim, b.type, want);
		}
		names[i] = strdup(b.name);
	}
	ptxvm_builtin x;
	if (ptxvm_builtin_find("473", &x) == 0 || ptxvm_builtin_find("639", &x) == 0 ||
	    ptxvm_builtin_find("__nvvm_sust_b_4d_i8_trap", &x) == 0 || ptxvm_builtin_at(165, &x) == 0)
		bad++, fail("builtins: a name or ID outside the table was found");
	qsort(names, 165, sizeof *names, cmp);
	for (int i = 1; i < 165; i++)
		if (!strcmp(names[i], names[i - 1]))
			bad++, fail("builtins: '%s' twice", names[i]);
	if (!bad)
		passed++;

	/* cicc's own names */
	const char *cicc = "/usr/local/cuda/nvvm/bin/cicc";
	if (access(cicc, R_OK) != 0) {
		printf("builtins: %s not found: the comparison with cicc's names is skipped\n", cicc);
	} else {
		char cmd[512];
		snprintf(cmd, sizeof cmd, "strings %s | grep -x '__nvvm_sust_b_[a-z0-9_]*' | sort -u", cicc);
		FILE *p = popen(cmd, "r");
		char line[128];
		int n = 0, unknown = 0;
		while (p && fgets(line, sizeof line, p)) {
			line[strcspn(line, "\n")] = 0;
			char *key = line;
			if (!bsearch(&key, names, 165, sizeof *names, cmp)) {
				unknown++;
				fail("builtins: cicc has '%s', the table does not", line);
			}
			n++;
		}
		if (p)
			pclose(p);
		if (n != 165 || unknown)
			fail("builtins: cicc carries %d __nvvm_sust_b_ names (%d unknown to the table), the table 165", n, unknown);
		else
			passed++;
	}
	for (int i = 0; i < 165; i++)
		free(names[i]);

	/* every module checks clean and runs */
	ptxvm_device_opts o = { .workers = 1 };
	ptxvm_device *dev = ptxvm_device_create(&o);
	int mbad = 0;
	for (unsigned i = 0; i < 165; i++) {
		ptxvm_builtin b;
		ptxvm_builtin_at(i, &b);
		char *text = ptxvm_builtin_module(b.id);
		ptxvm_module *m = ptxvm_module_load(b.name, text, strlen(text), NULL);
		ptxvm_program *p = NULL;
		if (ptxvm_module_errors(m) || ptxvm_program_load(dev, m, &p)) {
			char *dg = ptxvm_module_diagnostics(m);
			fail("builtins: the module of %s does not check: %s%s", b.name, dg, ptxvm_device_message(dev));
			free(dg);
			mbad++;
		} else {
			/* a surface whose elements are as wide as the store: 8 elements,
			 * 2 rows, 2 slices or layers */
			unsigned vec = strstr(b.type, "v4") ? 4 : strstr(b.type, "v2") ? 2 : 1;
			unsigned bits = atoi(strchr(b.type, 'i') + 1), es = vec * bits / 8;
			ptxvm_array_desc ad = { PTXVM_ARRAY_1D, es == 1 ? PTXVM_FORMAT_U8 : es == 2 ? PTXVM_FORMAT_U16
					       : PTXVM_FORMAT_U32, es <= 4 ? 1 : es / 4, 8, 0, 0, 0 };
			if (!strcmp(b.dim, "1d_array"))
				ad.kind = PTXVM_ARRAY_1D_LAYERED, ad.layers = 2;
			else if (!strcmp(b.dim, "2d"))
				ad.kind = PTXVM_ARRAY_2D, ad.height = 2;
			else if (!strcmp(b.dim, "2d_array"))
				ad.kind = PTXVM_ARRAY_2D_LAYERED, ad.height = 2, ad.layers = 2;
			else if (!strcmp(b.dim, "3d"))
				ad.kind = PTXVM_ARRAY_3D, ad.height = 2, ad.depth = 2;
			uint64_t a, s;
			ptxvm_array_create(dev, &ad, &a);
			ptxvm_surface_create(dev, a, &s);
			ptxvm_launch_config cfg = { { 2, 1, 1 }, { 8, 2, 2 }, 0 };
			if (ptxvm_launch(dev, ptxvm_kernel_at(p, 0), &cfg, (void *[]){ &s }, NULL)) {
				fail("builtins: the module of %s does not run: %s", b.name, ptxvm_device_message(dev));
				mbad++;
			}
			ptxvm_array_destroy(dev, a);
		}
		ptxvm_program_unload(p);
		ptxvm_module_free(m);
		free(text);
	}
	ptxvm_device_destroy(dev);
	if (!mbad)
		passed++;
}
