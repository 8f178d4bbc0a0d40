/* t_builtins.c: the builtin layer and the module builder.
 *
 *   table    every store ID <-> name <-> decomposition round trip, against
 *            the seed's formula written out here; every handler name
 *            round-trips; 1,932 distinct names
 *   cicc     where CUDA's cicc exists, the __nvvm_sust_b_ and __isurf /
 *            __itex names it carries are exactly the table's (skipped,
 *            saying why, without it)
 *   nvcc     every surface and texture call of tests/cuda
 *            (tests/builtins/nvcc-calls.txt), lowered, is the instruction
 *            nvcc emitted in tests/ptx: same mnemonic, modifiers and operand
 *            shape, kernel by kernel
 *   modules  every builtin's sample module checks clean and runs on ptxvm,
 *            the texture ones on a texture of their kind (mipmapped for
 *            Lod and Grad)
 *   builder  emission of handles and samplers, the image-type messages,
 *            bad calls refused; kernels built with builtin calls give what
 *            the nvcc-compiled kernels give, on ptxvm
 */
#include "test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const dims[5] = { "1d", "1d_array", "2d", "2d_array", "3d" };
static const char *const types[11] = { "i8", "i16", "i32", "i64", "v2i8", "v2i16", "v2i32", "v2i64",
				       "v4i8", "v4i16", "v4i32" };
static const char *const modes[3] = { "clamp", "trap", "zero" };

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

#define NSUST 165
#define NALL 1932       /* 165 stores + 1,767 handler names */

/* ---- the table -------------------------------------------------------------- */
static char **table_names(void)
{
	int bad = 0;
	char **names = calloc(NALL, sizeof *names);
	if (ptxvm_builtin_count() != NALL)
		bad++, fail("builtins: %zu builtins, expected %d", ptxvm_builtin_count(), NALL);
	for (unsigned i = 0; i < NSUST; i++) {
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
	for (unsigned i = NSUST; i < NALL; i++) {
		ptxvm_builtin b, c;
		char joined[96];
		if (ptxvm_builtin_at(i, &b)) {
			bad++, fail("builtins: no builtin at %u", i);
			names[i] = strdup("");
			continue;
		}
		snprintf(joined, sizeof joined, "%s_%s", b.operation, b.element);
		if (b.id != 647 || strcmp(joined, b.name) || ptxvm_builtin_find(b.name, &c) || strcmp(c.name, b.name) ||
		    strcmp(c.ptx, b.ptx) || b.mode || !b.operands)
			bad++, fail("builtins: handler name %u '%s' (%s + %s) does not round-trip", i, b.name, b.operation,
				    b.element);
		names[i] = strdup(b.name);
	}
	ptxvm_builtin x;
	const char *nope[] = { "473", "639", "647", "__nvvm_sust_b_4d_i8_trap", "__isurf2Dread_long", "__itex2D_longlong",
			       "__isurf1Dwrite_v2_char", "__itex2D_float3", "__itex2D_int8", "__itex4D_float", "tex2D" };
	for (size_t i = 0; i < sizeof nope / sizeof *nope; i++)
		if (ptxvm_builtin_find(nope[i], &x) == 0 || !*ptxvm_builtin_why())
			bad++, fail("builtins: '%s' was found, or refused without a reason", nope[i]);
	if (ptxvm_builtin_at(NALL, &x) == 0)
		bad++, fail("builtins: a builtin past the end");
	qsort(names, NALL, sizeof *names, cmp);
	for (int i = 1; i < NALL; i++)
		if (!strcmp(names[i], names[i - 1]))
			bad++, fail("builtins: '%s' twice", names[i]);
	if (!bad)
		passed++;
	return names;
}

/* cicc's own names: the strings of its binary, split where one name runs
 * into the next. */
static void against_cicc(char **names)
{
	const char *cicc = "/usr/local/cuda/nvvm/bin/cicc";
	if (access(cicc, R_OK) != 0) {
		printf("builtins: %s not found: the comparison with cicc's names is skipped\n", cicc);
		return;
	}
	char cmd[512];
	/* the store names are whole strings; the handler's run together */
	snprintf(cmd, sizeof cmd,
		 "{ strings -n 6 %s | grep -x '__nvvm_sust_b_[a-z0-9_]*';"
		 " strings -n 6 %s | sed 's/__/\\n__/g' | grep -oE '^__i(surf|tex)[A-Za-z0-9_]*'; } | sort -u", cicc, cicc);
	FILE *p = popen(cmd, "r");
	char line[128];
	int n = 0, unknown = 0;
	while (p && fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = 0;
		char *key = line;
		if (!bsearch(&key, names, NALL, sizeof *names, cmp)) {
			unknown++;
			fail("builtins: cicc has '%s', the table does not", line);
		}
		n++;
	}
	if (p)
		pclose(p);
	if (n != NALL || unknown)
		fail("builtins: cicc carries %d builtin names (%d unknown to the table), the table %d", n, unknown, NALL);
	else
		passed++;
}

/* ---- against nvcc ------------------------------------------------------------
 * An instruction's signature: the mnemonic, then each operand's shape:
 * "r" for a register or value, "{n}" for a vector, "{n}|p" with a
 * predicate, "[h,{n}]" for an image address. */
static void signature(const char *ins, char *out, size_t n)
{
	size_t k = 0;
	const char *p = ins + strspn(ins, " \t");
	while (*p && *p != ' ' && *p != '\t' && k + 1 < n)
		out[k++] = *p++;
	out[k++] = ' ';
	int depth = 0, elems = 0;
	bool any = false;
	for (; *p && *p != ';' && k + 8 < n; p++) {
		char c = *p;
		if (c == ' ' || c == '\t')
			continue;
		if (c == '{' || c == '[') {
			k += (size_t)snprintf(out + k, n - k, "%c", c);
			depth++, elems = 1, any = false;
		} else if (c == '}') {
			k += (size_t)snprintf(out + k, n - k, "%d}", elems);
			depth--, any = false;
		} else if (c == ']') {
			k += (size_t)snprintf(out + k, n - k, "]");
			depth--;
		} else if (c == ',' && depth == 2) {
			elems++;
		} else if (c == ',' && depth == 1 && out[k - 1] == '[') {
			k += (size_t)snprintf(out + k, n - k, "h,");
		} else if (c == ',' && depth == 0) {
			k += (size_t)snprintf(out + k, n - k, any ? "r, " : ", ");
			any = false;
		} else if (c == ',' && depth == 1) {
			elems++;
		} else if (c == '|') {
			k += (size_t)snprintf(out + k, n - k, "|p");
			while (p[1] && p[1] != ',')
				p++;
		} else if (depth == 0) {
			any = true;
		}
	}
	if (any)
		k += (size_t)snprintf(out + k, n - k, "r");
	out[k] = 0;
}

typedef struct Sigs {
	char v[64][160];
	int n;
} Sigs;

static void sig_add(Sigs *s, const char *sig)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], sig))
			return;
	if (s->n < 64)
		snprintf(s->v[s->n++], sizeof s->v[0], "%s", sig);
}

/* The image instructions of kernel NAME in nvcc's output. */
static bool kernel_sigs(const char *const *ptx, int nptx, const char *name, Sigs *s)
{
	char head[160];
	snprintf(head, sizeof head, ".entry %s(", name);
	for (int f = 0; f < nptx; f++) {
		const char *k = ptx[f] ? strstr(ptx[f], head) : NULL;
		if (!k)
			continue;
		const char *body = strstr(k, "\n{\n"), *end = body ? strstr(body, "\n}\n") : NULL;
		if (!end)
			return false;
		for (const char *l = body + 3; l < end; l = strchr(l, '\n') + 1) {
			const char *t = l + strspn(l, " \t");
			if (!strncmp(t, "suld.", 5) || !strncmp(t, "sust.", 5) || !strncmp(t, "tex.", 4) ||
			    !strncmp(t, "tld4.", 5)) {
				char line[256], sig[160];
				size_t len = strcspn(t, "\n");
				snprintf(line, sizeof line, "%.*s", (int)len, t);
				signature(line, sig, sizeof sig);
				sig_add(s, sig);
			}
		}
		return true;
	}
	return false;
}

static void against_nvcc(const char *root)
{
	static const char *const files[3] = { "surfaces", "surfaces_layered", "textures" };
	char *ptx[3], path[1024];
	size_t len;
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/tests/ptx/%s.ptx", root, files[i]);
		ptx[i] = slurp(path, &len);
	}
	snprintf(path, sizeof path, "%s/tests/builtins/nvcc-calls.txt", root);
	char *list = slurp(path, &len);
	if (!list || !ptx[0] || !ptx[1] || !ptx[2]) {
		fail("builtins: tests/builtins/nvcc-calls.txt or tests/ptx/surfaces*.ptx, textures.ptx unreadable");
		goto out;
	}
	char *listed = strdup(list);      /* strtok_r cuts list */
	/* kernel by kernel: the calls' signatures, nvcc's signatures */
	char kernel[128] = "";
	Sigs mine = { .n = 0 };
	int kernels = 0, calls = 0, bad = 0;
	char *save = NULL;
	for (char *line = strtok_r(list, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
		char k[128] = "", name[96] = "", arg[16] = "";
		if (line && (line[0] == '#' || sscanf(line, "%127s %95s %15s", k, name, arg) < 2))
			continue;
		if (!line || strcmp(k, kernel)) {
			if (kernel[0]) {
				Sigs theirs = { .n = 0 };
				kernels++;
				if (!kernel_sigs((const char *const *)ptx, 3, kernel, &theirs)) {
					bad++, fail("builtins: nvcc: no kernel %s in tests/ptx", kernel);
				} else {
					for (int i = 0; i < mine.n; i++) {
						int j = 0;
						while (j < theirs.n && strcmp(mine.v[i], theirs.v[j]))
							j++;
						if (j == theirs.n)
							bad++, fail("builtins: nvcc: %s: the lowering gives '%s', which nvcc "
								    "did not emit", kernel, mine.v[i]);
					}
					for (int j = 0; j < theirs.n; j++) {
						int i = 0;
						while (i < mine.n && strcmp(mine.v[i], theirs.v[j]))
							i++;
						if (i == mine.n)
							bad++, fail("builtins: nvcc: %s: nvcc emitted '%s', which no call "
								    "lowers to", kernel, theirs.v[j]);
					}
				}
			}
			if (!line)
				break;
			snprintf(kernel, sizeof kernel, "%s", k);
			mine.n = 0;
		}
		ptxvm_builtin b;
		if (ptxvm_builtin_find(name, &b)) {
			bad++, fail("builtins: nvcc: %s: %s", kernel, ptxvm_builtin_why());
			continue;
		}
		int a = !strcmp(arg, "zero") ? 0 : !strcmp(arg, "clamp") ? 1 : !strcmp(arg, "trap") ? 2 : atoi(arg);
		/* lower it through the builder, with registers named as nvcc names them */
		ptxvm_builder *bd = ptxvm_builder_create("sm_90", 80, 0);
		ptxvm_builder_fn *f = ptxvm_build_kernel(bd, "k");
		const char *op[24];
		char regs[24][16];
		for (unsigned i = 0; i < b.operands && i < 24; i++) {
			snprintf(regs[i], sizeof regs[i], "%%r%u", i + 1);
			op[i] = regs[i];
		}
		for (unsigned i = b.operands; i < 24; i++)
			op[i] = NULL;
		if (ptxvm_build_builtin(f, name, a, op[0], op[1], op[2], op[3], op[4], op[5], op[6], op[7], op[8], op[9],
					op[10], op[11], op[12], op[13], op[14], op[15], op[16], op[17], op[18], NULL)) {
			bad++, fail("builtins: nvcc: %s: %s", kernel, ptxvm_builder_error(bd));
		} else {
			char *text = ptxvm_builder_print(bd);
			const char *ins = text ? strstr(text, "\n\t") : NULL;
			char line2[256], sig[160];
			if (!ins) {
				bad++, fail("builtins: nvcc: %s: %s printed nothing", kernel, name);
			} else {
				int n = (int)strcspn(ins + 2, "\n");
				snprintf(line2, sizeof line2, "%.*s", n, ins + 2);
				signature(line2, sig, sizeof sig);
				sig_add(&mine, sig);
			}
			free(text);
		}
		ptxvm_builder_destroy(bd);
		calls++;
	}
	if (verbose)
		printf("builtins: nvcc: %d calls in %d kernels\n", calls, kernels);
	/* every kernel of tests/ptx with an image instruction is listed */
	for (int i = 0; i < 3; i++)
		for (const char *k = ptx[i]; (k = strstr(k, ".entry ")) != NULL; k++) {
			char name[128];
			Sigs s = { .n = 0 };
			char line_start[140];
			if (sscanf(k + 7, "%127[A-Za-z0-9_]", name) != 1)
				continue;
			snprintf(line_start, sizeof line_start, "\n%s ", name);
			if (kernel_sigs((const char *const *)ptx, 3, name, &s) && s.n && !strstr(listed, line_start))
				bad++, fail("builtins: nvcc: kernel %s uses %s but tests/builtins/nvcc-calls.txt lists no "
					    "call of it", name, s.v[0]);
		}
	if (!bad)
		passed++;
	free(listed);
out:
	free(list);
	for (int i = 0; i < 3; i++)
		free(ptx[i]);
}

/* ---- sample modules ------------------------------------------------------------ */
static void modules(void)
{
	ptxvm_device_opts o = { .workers = 1 };
	ptxvm_device *dev = ptxvm_device_create(&o);
	int bad = 0, ran = 0, ran_tex = 0;
	uint64_t out;
	ptxvm_mem_alloc(dev, 64, &out);
	for (unsigned i = 0; i < NALL; i++) {
		ptxvm_builtin b;
		ptxvm_builtin_at(i, &b);
		char *text = ptxvm_builtin_module(b.name);
		ptxvm_module *m = text ? ptxvm_module_load(b.name, text, strlen(text), NULL) : NULL;
		ptxvm_program *p = NULL;
		if (!m || ptxvm_module_errors(m)) {
			char *dg = ptxvm_module_diagnostics(m);
			fail("builtins: the module of %s does not check: %s%s", b.name, dg ? dg : "", ptxvm_builtin_why());
			free(dg);
			bad++;
		} else if (ptxvm_program_load(dev, m, &p)) {
			fail("builtins: the module of %s does not load: %s", b.name, ptxvm_device_message(dev));
			bad++;
		} else if (strncmp(b.ptx, "suld", 4) && strncmp(b.ptx, "sust", 4)) {
			/* a texture of the operation's kind over f32x4 texels, mipmapped
			 * (two levels) for Lod and Grad */
			const char *op = b.operation;
			ptxvm_array_desc ad = { PTXVM_ARRAY_1D, PTXVM_FORMAT_F32, 4, 8, 0, 0, 0 };
			if (strstr(op, "1DLayered"))
				ad.kind = PTXVM_ARRAY_1D_LAYERED, ad.layers = 2;
			else if (strstr(op, "2DLayered"))
				ad.kind = PTXVM_ARRAY_2D_LAYERED, ad.height = 4, ad.layers = 2;
			else if (strstr(op, "CubemapLayered"))
				ad.kind = PTXVM_ARRAY_CUBEMAP_LAYERED, ad.height = 8, ad.layers = 2;
			else if (strstr(op, "Cubemap"))
				ad.kind = PTXVM_ARRAY_CUBEMAP, ad.height = 8;
			else if (strstr(op, "2D"))
				ad.kind = PTXVM_ARRAY_2D, ad.height = 4;
			else if (strstr(op, "3D"))
				ad.kind = PTXVM_ARRAY_3D, ad.height = 4, ad.depth = 4;
			bool mip = strstr(op, "Lod") || strstr(op, "Grad");
			ptxvm_resource_desc rd = { .type = mip ? PTXVM_RESOURCE_MIPMAPPED_ARRAY : PTXVM_RESOURCE_ARRAY };
			ptxvm_texture_desc td = { .max_mipmap_level_clamp = 8, .normalized_coords = 1 };
			uint64_t t = 0;
			ptxvm_result r = mip ? ptxvm_mipmapped_array_create(dev, &ad, 2, &rd.mipmap)
				       : ptxvm_array_create(dev, &ad, &rd.array);
			if (!r)
				r = ptxvm_texture_create(dev, &rd, &td, &t);
			ptxvm_launch_config cfg = { { 2, 1, 1 }, { 8, 2, 2 }, 0, { 0, 0, 0 } };
			if (r || ptxvm_launch(dev, ptxvm_kernel_at(p, 0), &cfg, (void *[]){ &t, &out }, NULL)) {
				fail("builtins: the module of %s does not run: %s", b.name, ptxvm_device_message(dev));
				bad++;
			}
			ran_tex++;
			ptxvm_texture_destroy(dev, t);
			if (mip)
				ptxvm_mipmapped_array_destroy(dev, rd.mipmap);
			else
				ptxvm_array_destroy(dev, rd.array);
		} else {
			/* an array whose elements are as wide as the access: 8 wide,
			 * 8 high for cubemaps, else 2; 2 slices, 2 layers, 2 cubes */
			const char *ptx = b.ptx;
			unsigned vec = strstr(ptx, ".v4.") ? 4 : strstr(ptx, ".v2.") ? 2 : 1;
			unsigned bits = (unsigned)atoi(strstr(ptx + 6, ".b") + 2);     /* after "suld.b" */
			unsigned es = vec * bits / 8;
			ptxvm_array_desc ad = { PTXVM_ARRAY_1D, es == 1 ? PTXVM_FORMAT_U8 : es == 2 ? PTXVM_FORMAT_U16
					       : PTXVM_FORMAT_U32, es <= 4 ? 1 : es / 4, 8, 0, 0, 0 };
			const char *what = b.dim ? b.dim : b.operation;
			if (!strcmp(what, "1d_array") || strstr(what, "1DLayered"))
				ad.kind = PTXVM_ARRAY_1D_LAYERED, ad.layers = 2;
			else if (!strcmp(what, "2d_array") || strstr(what, "2DLayered"))
				ad.kind = PTXVM_ARRAY_2D_LAYERED, ad.height = 2, ad.layers = 2;
			else if (strstr(what, "CubemapLayered"))
				ad.kind = PTXVM_ARRAY_CUBEMAP_LAYERED, ad.height = 8, ad.layers = 2;
			else if (strstr(what, "Cubemap"))
				ad.kind = PTXVM_ARRAY_CUBEMAP, ad.height = 8;
			else if (!strcmp(what, "2d") || strstr(what, "2D"))
				ad.kind = PTXVM_ARRAY_2D, ad.height = 2;
			else if (!strcmp(what, "3d") || strstr(what, "3D"))
				ad.kind = PTXVM_ARRAY_3D, ad.height = 2, ad.depth = 2;
			uint64_t a = 0, s = 0;
			if (ptxvm_array_create(dev, &ad, &a) || ptxvm_surface_create(dev, a, &s)) {
				fail("builtins: %s: no array of %u-byte elements", b.name, es);
				bad++;
			} else {
				ptxvm_launch_config cfg = { { 2, 1, 1 }, { 8, 2, 2 }, 0, { 0, 0, 0 } };
				if (ptxvm_launch(dev, ptxvm_kernel_at(p, 0), &cfg, (void *[]){ &s, &out }, NULL)) {
					fail("builtins: the module of %s does not run: %s", b.name, ptxvm_device_message(dev));
					bad++;
				}
				ran++;
			}
			ptxvm_array_destroy(dev, a);
		}
		ptxvm_program_unload(p);
		ptxvm_module_free(m);
		free(text);
	}
	if (ran != NSUST + 7 * 37 + 7 * 36)
		bad++, fail("builtins: %d surface modules ran, expected %d", ran, NSUST + 7 * 37 + 7 * 36);
	if (ran + ran_tex != NALL)
		bad++, fail("builtins: %d texture modules ran, expected %d", ran_tex, NALL - ran);
	ptxvm_device_destroy(dev);
	if (!bad)
		passed++;
}

void test_builtins_builder(const char *root);

void test_builtins(const char *root)
{
	char **names = table_names();
	against_cicc(names);
	for (int i = 0; i < NALL; i++)
		free(names[i]);
	free(names);
	against_nvcc(root);
	modules();
	test_builtins_builder(root);
}
