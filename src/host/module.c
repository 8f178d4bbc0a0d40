/* module.c: the public module interface (ptxvm.h) over front, check, write.
 *
 * A ptxvm_module * is a handle of the registry (registry.c): every function
 * takes a reference for its duration, and a stale or freed module is
 * treated as NULL. */
#include "../../include/ptxvm.h"
#include "../front/parse.h"
#include "../check/check.h"
#include "../write/write.h"
#include "host.h"
#include "../exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ptxvm_module {
	RegObj o;
	Module *m;
	char *text;
	size_t len;
	char *file;
	CheckOpts opts;
};

static ptxvm_module *get(const ptxvm_module *h) { return (ptxvm_module *)reg_get(host_handle(h), TAG_MODULE); }
static void put(ptxvm_module *pm) { reg_put(pm ? &pm->o : NULL); }

Module *host_module_copy(const ptxvm_module *h, char **text, char **file)
{
	ptxvm_module *pm = get(h);
	if (!pm)
		return NULL;
	*text = malloc(pm->len + 1);
	*file = strdup(pm->file);
	if (!*text || !*file) {
		free(*text);
		free(*file);
		put(pm);
		return NULL;
	}
	memcpy(*text, pm->text, pm->len + 1);
	Module *m = ptx_parse(*file, *text, pm->len);
	ptx_check(m, &pm->opts);
	put(pm);
	return m;
}

static void destroy(RegObj *o)
{
	ptxvm_module *pm = (ptxvm_module *)o;
	ptx_module_free(pm->m);
	free(pm->text);
	free(pm->file);
	free(pm);
}

const char *ptxvm_version(void) { return PTXVM_VERSION; }

ptxvm_module *ptxvm_module_load(const char *filename, const char *text, size_t len,
				const ptxvm_check_opts *opts)
{
	CheckOpts co = { .arch = 90 };
	if (!text && len)
		return NULL;
	if (!text)
		text = "";
	if (opts && opts->arch) {
		unsigned sm, minptx;
		char suf;
		if (!ptx_target_lookup(opts->arch, strlen(opts->arch), &sm, &suf, &minptx))
			return NULL;
		co.arch = sm;
		co.arch_suffix = suf;
	}
	co.compile_only = opts && opts->compile_only;
	co.newer_versions = opts && opts->newer_versions;
	co.provided = opts && opts->device_runtime ? exec_devrt_provides : NULL;
	ptxvm_module *pm = calloc(1, sizeof *pm);
	if (!pm)
		return NULL;
	pm->file = strdup(filename ? filename : "<input>");
	pm->text = malloc(len + 1);
	if (!pm->file || !pm->text) {
		free(pm->file);
		free(pm->text);
		free(pm);
		return NULL;
	}
	memcpy(pm->text, text, len);
	pm->text[len] = 0;
	pm->len = len;
	pm->opts = co;
	pm->m = ptx_parse(pm->file, pm->text, len);
	ptx_check(pm->m, &co);  /* also after syntax errors: report every problem */
	pm->o.destroy = destroy;
	uint64_t h = reg_add(&pm->o, TAG_MODULE);
	if (!h)
		destroy(&pm->o);
	return (ptxvm_module *)(uintptr_t)h;
}

ptxvm_module *ptxvm_module_load_file(const char *path, const ptxvm_check_opts *opts)
{
	size_t n;
	char *p = path ? read_file(path, &n) : NULL;
	if (!p)
		return NULL;
	ptxvm_module *m = ptxvm_module_load(strcmp(path, "-") ? path : "<stdin>", p, n, opts);
	free(p);
	return m;
}

void ptxvm_module_free(ptxvm_module *h)
{
	reg_remove(host_handle(h), TAG_MODULE);         /* a stale handle: nothing to do */
}

/* A NULL (or stale) module has no diagnostics, and so no errors: callers
 * must check what ptxvm_module_load returned. */
size_t ptxvm_module_errors(const ptxvm_module *h)
{
	ptxvm_module *pm = get(h);
	size_t n = pm ? pm->m->diags.nerrors : 0;
	put(pm);
	return n;
}

size_t ptxvm_module_diag_count(const ptxvm_module *h)
{
	ptxvm_module *pm = get(h);
	size_t n = pm ? pm->m->diags.n : 0;
	put(pm);
	return n;
}

int host_diag(const Diags *d, size_t i, ptxvm_diag *out)
{
	if (!out || i >= d->n)
		return -1;
	const Diag *g = &d->v[i];
	out->level = (ptxvm_level)g->level;
	out->line = g->pos.line;
	out->col = g->pos.col;
	out->message = g->msg;
	return 0;
}

int ptxvm_module_diag(const ptxvm_module *h, size_t i, ptxvm_diag *out)
{
	ptxvm_module *pm = get(h);
	int r = pm ? host_diag(&pm->m->diags, i, out) : -1;
	put(pm);
	return r;
}

char *ptxvm_module_diagnostics(const ptxvm_module *h)
{
	ptxvm_module *pm = get(h);
	char *s = pm ? diag_format_all(&pm->m->diags) : NULL;
	put(pm);
	return s;
}

char *ptxvm_module_format(const ptxvm_module *h, size_t *len)
{
	ptxvm_module *pm = get(h);
	Buf b = { 0 };
	if (pm && !pm->m->diags.nerrors) {
		ptx_write(pm->m, &b);
		if (len)
			*len = b.len;
	}
	put(pm);
	return b.p;
}
