/* builder.c: modules built call by call (ptxvm_builder_*, ptxvm_build_*).
 *
 * The builder keeps the module's statements in order and checks what only
 * it can check when each is added: that a mnemonic names an instruction,
 * that a builtin exists and gets its operands, that a handle has the image
 * type its instruction needs (seed 004's "Invalid image type" rule).  The
 * front end is the one parser: printing parses the statements and hands
 * the tree to the canonical writer, and a module is that text, checked.
 */
#include "host.h"
#include "../builtins/builtins.h"
#include "../check/check.h"
#include "../front/parse.h"
#include "../write/write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Sym {
	char *name;
	int type;               /* TY_texref, TY_samplerref, TY_surfref */
} Sym;

typedef struct Syms {
	Sym *v;
	size_t n, cap;
} Syms;

struct ptxvm_builder_fn {
	ptxvm_builder *b;
	char *name;
	Buf params, body;
	unsigned nparams;
	Syms syms;              /* handle parameters by value */
};

struct ptxvm_builder {
	char target[32];
	unsigned version;
	bool independent;
	Buf globals;
	Syms syms;              /* module-scope handles */
	ptxvm_builder_fn **fns;
	size_t nfns, cap;
	char err[1024];
};

static const char *const image_name[] = { [PTXVM_TEXREF] = "texref", [PTXVM_SAMPLERREF] = "samplerref",
					  [PTXVM_SURFREF] = "surfref" };
static const int image_type[] = { [PTXVM_TEXREF] = TY_texref, [PTXVM_SAMPLERREF] = TY_samplerref,
				  [PTXVM_SURFREF] = TY_surfref };

static int fail(ptxvm_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ptxvm_builder *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->err, sizeof b->err, fmt, ap);
	va_end(ap);
	return -1;
}

/* One statement per call: no text may end it early or start another. */
static bool one_statement(const char *s)
{
	return s && !strpbrk(s, ";\n\r");
}

static bool is_name(const char *s)
{
	if (!s || !*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!(*p == '_' || *p == '$' || *p == '%' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (p > s && *p >= '0' && *p <= '9')))
			return false;
	return true;
}

static void sym_add(Syms *s, const char *name, int type)
{
	s->v = vec_grow(s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = (Sym){ xstrdup(name), type };
}

/* The opaque type a handle operand was declared with, or -1. */
static int sym_type(const ptxvm_builder_fn *f, const char *name, size_t len)
{
	const Syms *sets[2] = { &f->syms, &f->b->syms };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sets[k]->n; i++)
			if (strlen(sets[k]->v[i].name) == len && !strncmp(sets[k]->v[i].name, name, len))
				return sets[k]->v[i].type;
	return -1;
}

static void syms_free(Syms *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
}

/* ---- the module ----------------------------------------------------------- */
ptxvm_builder *ptxvm_builder_create(const char *target, unsigned ptx_version, int flags)
{
	if (!target)
		target = "sm_90";
	unsigned sm, minptx;
	char suf;
	if (!ptx_target_lookup(target, strlen(target), &sm, &suf, &minptx))
		return NULL;
	if (!ptx_version)
		ptx_version = minptx > 80 ? minptx : 80;
	isa_init();             /* the builder looks up mnemonics */
	ptxvm_builder *b = xcalloc(1, sizeof *b);
	snprintf(b->target, sizeof b->target, "%s", target);
	b->version = ptx_version;
	b->independent = (flags & PTXVM_TEXMODE_INDEPENDENT) != 0;
	return b;
}

void ptxvm_builder_destroy(ptxvm_builder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nfns; i++) {
		ptxvm_builder_fn *f = b->fns[i];
		free(f->name);
		buf_free(&f->params);
		buf_free(&f->body);
		syms_free(&f->syms);
		free(f);
	}
	free(b->fns);
	buf_free(&b->globals);
	syms_free(&b->syms);
	free(b);
}

const char *ptxvm_builder_error(const ptxvm_builder *b) { return b ? b->err : "no builder"; }

static bool valid_image(ptxvm_image k) { return k == PTXVM_TEXREF || k == PTXVM_SAMPLERREF || k == PTXVM_SURFREF; }

static bool one_of(const char *v, const char *const *allowed)
{
	for (; *allowed; allowed++)
		if (!strcmp(v, *allowed))
			return true;
	return false;
}

int ptxvm_build_image(ptxvm_builder *b, ptxvm_image kind, const char *name, const ptxvm_sampler *init)
{
	if (!b)
		return -1;
	if (!valid_image(kind))
		return fail(b, "image kind %d: it is PTXVM_TEXREF, PTXVM_SAMPLERREF or PTXVM_SURFREF", (int)kind);
	if (!is_name(name) || name[0] == '%')
		return fail(b, "'%s' is not a variable name", name ? name : "(null)");
	if (kind == PTXVM_SAMPLERREF && !b->independent)
		return fail(b, ".samplerref %s: samplers are separate objects only in texmode_independent "
			    "(create the builder with PTXVM_TEXMODE_INDEPENDENT)", name);
	Buf fields = { 0 };
	if (init) {
		static const char *const addr[] = { "wrap", "mirror", "clamp_to_edge", "clamp_to_border", NULL };
		static const char *const filt[] = { "nearest", "linear", NULL };
		static const char *const flag[] = { "0", "1", NULL };
		if (kind == PTXVM_SURFREF)
			return fail(b, ".surfref %s: a surface has no sampler fields", name);
		for (int i = 0; i < 3; i++) {
			if (!init->addr_mode[i])
				continue;
			if (!one_of(init->addr_mode[i], addr)) {
				buf_free(&fields);
				return fail(b, "%s: addr_mode_%d = '%s': it is wrap, mirror, clamp_to_edge or "
					    "clamp_to_border", name, i, init->addr_mode[i]);
			}
			buf_printf(&fields, "%saddr_mode_%d = %s", fields.len ? ", " : "", i, init->addr_mode[i]);
		}
		if (init->filter_mode) {
			if (!one_of(init->filter_mode, filt)) {
				buf_free(&fields);
				return fail(b, "%s: filter_mode = '%s': it is nearest or linear", name, init->filter_mode);
			}
			buf_printf(&fields, "%sfilter_mode = %s", fields.len ? ", " : "", init->filter_mode);
		}
		if (init->force_unnormalized_coords) {
			if (kind != PTXVM_SAMPLERREF || !one_of(init->force_unnormalized_coords, flag)) {
				buf_free(&fields);
				return fail(b, "%s: force_unnormalized_coords %s", name,
					    kind != PTXVM_SAMPLERREF ? "is a field of .samplerref only" : "is 0 or 1");
			}
			buf_printf(&fields, "%sforce_unnormalized_coords = %s", fields.len ? ", " : "",
				   init->force_unnormalized_coords);
		}
	}
	buf_printf(&b->globals, ".global .%s %s", image_name[kind], name);
	if (fields.len)
		buf_printf(&b->globals, " = { %s }", fields.p);
	buf_puts(&b->globals, ";\n");
	buf_free(&fields);
	sym_add(&b->syms, name, image_type[kind]);
	return 0;
}

int ptxvm_build_global(ptxvm_builder *b, const char *decl)
{
	if (!b)
		return -1;
	if (!one_statement(decl) || decl[0] != '.')
		return fail(b, "'%s' is not one declaration (a state space, a type, a name; no ';')",
			    decl ? decl : "(null)");
	buf_printf(&b->globals, "%s;\n", decl);
	return 0;
}

/* ---- kernels -------------------------------------------------------------- */
ptxvm_builder_fn *ptxvm_build_kernel(ptxvm_builder *b, const char *name)
{
	if (!b)
		return NULL;
	if (!is_name(name) || name[0] == '%') {
		fail(b, "'%s' is not a kernel name", name ? name : "(null)");
		return NULL;
	}
	ptxvm_builder_fn *f = xcalloc(1, sizeof *f);
	f->b = b;
	f->name = xstrdup(name);
	b->fns = vec_grow(b->fns, &b->cap, b->nfns + 1, sizeof *b->fns);
	b->fns[b->nfns++] = f;
	return f;
}

static void add_param(ptxvm_builder_fn *f, const char *text)
{
	buf_printf(&f->params, "%s\n\t.param %s", f->nparams++ ? "," : "", text);
}

int ptxvm_build_param(ptxvm_builder_fn *f, const char *type, const char *name)
{
	if (!f)
		return -1;
	if (!one_statement(type) || type[0] != '.' || strpbrk(type, ",()[]"))
		return fail(f->b, "'%s' is not a parameter type (e.g. .u64, .v2 .f32)", type ? type : "(null)");
	if (!is_name(name) || name[0] == '%')
		return fail(f->b, "'%s' is not a parameter name", name ? name : "(null)");
	char t[256];
	snprintf(t, sizeof t, "%s %s", type, name);
	add_param(f, t);
	return 0;
}

int ptxvm_build_image_param(ptxvm_builder_fn *f, ptxvm_image kind, int by_pointer, const char *name)
{
	if (!f)
		return -1;
	if (!valid_image(kind))
		return fail(f->b, "image kind %d: it is PTXVM_TEXREF, PTXVM_SAMPLERREF or PTXVM_SURFREF", (int)kind);
	if (!is_name(name) || name[0] == '%')
		return fail(f->b, "'%s' is not a parameter name", name ? name : "(null)");
	char t[256];
	snprintf(t, sizeof t, "%s.%s %s", by_pointer ? ".u64 .ptr " : "", image_name[kind], name);
	add_param(f, t);
	if (!by_pointer)
		sym_add(&f->syms, name, image_type[kind]);
	return 0;
}

int ptxvm_build_regs(ptxvm_builder_fn *f, const char *type, const char *prefix, unsigned count)
{
	if (!f)
		return -1;
	if (!type || !*type || strpbrk(type, " .;\n") || !is_name(prefix) || prefix[0] != '%' || !count)
		return fail(f->b, "registers: a type without its dot (\"b32\"), a prefix (\"%%r\") and a count > 0");
	buf_printf(&f->body, "\t.reg .%s %s<%u>;\n", type, prefix, count);
	return 0;
}

int ptxvm_build_label(ptxvm_builder_fn *f, const char *name)
{
	if (!f)
		return -1;
	if (!is_name(name) || name[0] == '%')
		return fail(f->b, "'%s' is not a label", name ? name : "(null)");
	buf_printf(&f->body, "%s:\n", name);
	return 0;
}

/* The handle an image instruction names: the first name inside its
 * address operand ("[tex, {...}]"), or the operand itself. */
static void image_check_opnd(ptxvm_builder_fn *f, const char *opcode, const char *opnd, const char **err,
			     char *who, size_t n)
{
	const char *p = opnd;
	while (*p == ' ' || *p == '[')
		p++;
	size_t len = strcspn(p, " ,]+");
	int ty = sym_type(f, p, len);
	const char *e = ty < 0 ? NULL : builtin_image_error(opcode, ty);
	if (e && !*err) {
		*err = e;
		snprintf(who, n, "'%.*s' is a .%s", (int)len, p, isa_type[ty].name);
	}
}

static int add_ins(ptxvm_builder_fn *f, const char *mnemonic, const char *const *opnd, size_t n)
{
	Buf line = { 0 };
	buf_printf(&line, "\t%s", mnemonic);
	for (size_t i = 0; i < n; i++)
		buf_printf(&line, "%s%s", i ? ", " : " ", opnd[i]);
	buf_puts(&line, ";\n");
	buf_put(&f->body, line.p, line.len);
	buf_free(&line);
	return 0;
}

#define MAXOPND 32

static size_t collect(va_list ap, const char **v)
{
	size_t n = 0;
	const char *s;
	while ((s = va_arg(ap, const char *)) != NULL) {
		if (n == MAXOPND)
			return MAXOPND + 1;
		v[n++] = s;
	}
	return n;
}

int ptxvm_build_ins(ptxvm_builder_fn *f, const char *mnemonic, ...)
{
	if (!f)
		return -1;
	const char *v[MAXOPND];
	va_list ap;
	va_start(ap, mnemonic);
	size_t n = collect(ap, v);
	va_end(ap);
	if (!one_statement(mnemonic) || !*mnemonic)
		return fail(f->b, "'%s' is not one instruction's mnemonic", mnemonic ? mnemonic : "(null)");
	if (n > MAXOPND)
		return fail(f->b, "%s: more than %d operands", mnemonic, MAXOPND);
	for (size_t i = 0; i < n; i++)
		if (!one_statement(v[i]) || !*v[i])
			return fail(f->b, "%s: operand %zu is empty or holds ';'", mnemonic, i + 1);
	/* the opcode and its modifiers must be the instruction set's */
	const char *p = mnemonic;
	if (*p == '@')
		p += strcspn(p, " \t"), p += strspn(p, " \t");
	size_t ol = strcspn(p, ". \t");
	int opc = isa_lookup_op(p, ol);
	if (opc < 0)
		return fail(f->b, "unknown instruction '%.*s'", (int)ol, p);
	for (const char *q = p + ol; *q == '.';) {
		size_t ml = strcspn(q + 1, ". \t");
		if (isa_lookup_mod(q + 1, ml) == MOD_NONE)
			return fail(f->b, "unknown modifier '.%.*s' on '%s'", (int)ml, q + 1, isa_op[opc].name);
		q += 1 + ml;
	}
	/* an image instruction's handle: [h, ...] for all but txq/suq's [h] */
	const char *opname = isa_op[opc].name;
	if (!strcmp(opname, "tex") || !strcmp(opname, "tld4") || !strcmp(opname, "txq") || !strcmp(opname, "suld") ||
	    !strcmp(opname, "sust") || !strcmp(opname, "sured") || !strcmp(opname, "suq")) {
		const char *err = NULL;
		char who[160];
		for (size_t i = 0; i < n; i++)
			if (v[i][strspn(v[i], " ")] == '[') {
				image_check_opnd(f, opname, v[i], &err, who, sizeof who);
				break;
			}
		if (err)
			return fail(f->b, "%s: %s", err, who);
	}
	return add_ins(f, mnemonic, v, n);
}

int ptxvm_build_builtin(ptxvm_builder_fn *f, const char *name, int arg, ...)
{
	if (!f)
		return -1;
	const char *v[MAXOPND];
	va_list ap;
	va_start(ap, arg);
	size_t n = collect(ap, v);
	va_end(ap);
	return host_build_builtin(f, name, arg, v, n);
}

int host_build_builtin(ptxvm_builder_fn *f, const char *name, int arg, const char *const *v, size_t n)
{
	Builtin bi;
	char why[512];
	if (!name || !builtin_find(name, &bi, why, sizeof why))
		return fail(f->b, "%s", name ? why : "no builtin named");
	size_t want = builtin_nopnd(&bi);
	if (n != want) {
		Buf s = { 0 };
		for (size_t i = 0; i < want; i++)
			buf_printf(&s, "%s%s", i ? ", " : "", builtin_opnd_name(&bi, i));
		fail(f->b, "%s takes %zu operands (%s), not %zu", bi.name, want, s.p, n);
		buf_free(&s);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!one_statement(v[i]) || !*v[i] || strpbrk(v[i], "{}[]"))
			return fail(f->b, "%s: operand %zu (%s) must be one register or value", bi.name, i + 1,
				    builtin_opnd_name(&bi, i));
	if ((bi.kind == BK_TEX || bi.kind == BK_TLD4) && f->b->independent)
		return fail(f->b, "%s: CUDA's texture builtins take unified-mode handles; this module is "
			    "texmode_independent", bi.name);
	static const char *const opcode[] = { [BK_SUST] = "sust", [BK_SULD] = "suld", [BK_TEX] = "tex",
					      [BK_TLD4] = "tld4" };
	const char *h = v[builtin_handle_index(&bi)];
	int ty = sym_type(f, h, strlen(h));
	const char *e = ty < 0 ? NULL : builtin_image_error(opcode[bi.kind], ty);
	if (e)
		return fail(f->b, "%s: %s: '%s' is a .%s", e, bi.name, h, isa_type[ty].name);
	Buf ins = { 0 };
	if (!builtin_lower(&bi, arg, v, &ins, why, sizeof why)) {
		buf_free(&ins);
		return fail(f->b, "%s", why);
	}
	buf_printf(&f->body, "\t%s;\n", ins.p);
	buf_free(&ins);
	return 0;
}

/* ---- printing ------------------------------------------------------------- */
static char *raw_text(const ptxvm_builder *b)
{
	Buf t = { 0 };
	buf_printf(&t, ".version %u.%u\n.target %s%s\n.address_size 64\n\n", b->version / 10, b->version % 10,
		   b->target, b->independent ? ", texmode_independent" : "");
	if (b->globals.len)
		buf_put(&t, b->globals.p, b->globals.len);
	for (size_t i = 0; i < b->nfns; i++) {
		const ptxvm_builder_fn *f = b->fns[i];
		buf_printf(&t, "\n.visible .entry %s(", f->name);
		if (f->params.len)
			buf_printf(&t, "%s\n", f->params.p);
		buf_puts(&t, ")\n{\n");
		if (f->body.len)
			buf_put(&t, f->body.p, f->body.len);
		buf_puts(&t, "}\n");
	}
	if (!t.p)
		buf_puts(&t, "");
	return t.p;
}

char *ptxvm_builder_print(ptxvm_builder *b)
{
	if (!b)
		return NULL;
	char *raw = raw_text(b);
	Module *m = ptx_parse("<builder>", raw, strlen(raw));
	char *out = NULL;
	if (m->diags.nerrors) {
		char *d = diag_format_all(&m->diags);
		fail(b, "the statements do not parse:\n%s", d);
		free(d);
	} else {
		Buf t = { 0 };
		ptx_write(m, &t);
		out = t.p;
	}
	ptx_module_free(m);
	free(raw);
	return out;
}

ptxvm_module *ptxvm_builder_module(ptxvm_builder *b, const ptxvm_check_opts *opts)
{
	char *text = ptxvm_builder_print(b);
	if (!text)
		return NULL;
	ptxvm_module *m = ptxvm_module_load("<builder>", text, strlen(text), opts);
	free(text);
	return m;
}
