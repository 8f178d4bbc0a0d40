/* write.c: the canonical PTX printer.
 *
 * One layout for every module: directives first, one declaration or
 * instruction per line, a tab of indent per block level (at most 16),
 * operands separated by ", ", modifiers in the order of the instruction's
 * form, comments dropped, .loc/.file/.section kept.  Printing a printed
 * module gives the same text (a fixed point), and the text parses to the
 * same module.  Literal values print exactly: integers in decimal, floats
 * as written in hex (0f/0d) or as the shortest decimal that reads back to
 * the same double.
 */
#include "write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_str(Buf *b, Str s) { buf_put(b, s.p, s.n); }

static void put_int(Buf *b, uint64_t v, bool is_unsigned)
{
	if (is_unsigned)
		buf_printf(b, "%lluU", (unsigned long long)v);
	else
		buf_printf(b, "%lld", (long long)v);
}

/* The shortest decimal that reads back as the same double (finite: the
 * lexer refuses a literal outside the range of a double). */
static void put_double(Buf *b, double v)
{
	char tmp[64];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	buf_puts(b, tmp);
	if (!strpbrk(tmp, ".eEin"))
		buf_puts(b, ".0");
}

static void put_float(Buf *b, uint8_t fkind, uint64_t bits, double v)
{
	if (fkind == 'f')
		buf_printf(b, "0f%08X", (unsigned)bits);
	else if (fkind == 'd')
		buf_printf(b, "0d%016llX", (unsigned long long)bits);
	else
		put_double(b, v);
}

static void put_opnd(Buf *b, const Opnd *o)
{
	if (o->neg)
		buf_putc(b, '!');
	if (o->minus)
		buf_putc(b, '-');
	switch (o->kind) {
	case OK_SYM:
		put_str(b, o->name);
		if (o->comp)
			buf_printf(b, ".%c", "xyzw"[o->comp - 1]);
		if (o->selk)
			buf_printf(b, ".%c%0*x", o->selk, o->seln > 8 ? 8 : o->seln, o->seld);
		if (o->has_off)
			buf_printf(b, "+%lld", (long long)o->off);
		break;
	case OK_SINK:
		buf_putc(b, '_');
		break;
	case OK_INT:
		put_int(b, o->ival, o->is_unsigned);
		break;
	case OK_FLOAT:
		put_float(b, o->fkind, o->ival, o->fval);
		break;
	case OK_VEC:
	case OK_LIST:
	case OK_MEM:
		buf_putc(b, o->kind == OK_VEC ? '{' : o->kind == OK_LIST ? '(' : '[');
		for (uint32_t i = 0; i < o->n; i++) {
			if (i)
				buf_puts(b, ", ");
			put_opnd(b, &o->elems[i]);
			if (i == 0 && o->has_off) {
				if (o->off < 0)
					buf_printf(b, "+-%llu", (unsigned long long)-(uint64_t)o->off);
				else
					buf_printf(b, "+%lld", (long long)o->off);
			}
		}
		buf_putc(b, o->kind == OK_VEC ? '}' : o->kind == OK_LIST ? ')' : ']');
		break;
	case OK_PIPE:
		put_opnd(b, &o->elems[0]);
		buf_putc(b, '|');
		put_opnd(b, &o->elems[1]);
		break;
	}
}

static void put_instr(Buf *b, const Instr *in)
{
	if (in->guard) {
		buf_putc(b, '@');
		put_opnd(b, in->guard);
		buf_putc(b, ' ');
	}
	buf_puts(b, isa_op[in->opc].name);
	for (int i = 0; i < in->nmods; i++) {
		buf_putc(b, '.');
		buf_puts(b, isa_mod_name[in->mods[i]]);
	}
	for (int i = 0; i < in->nopnd; i++) {
		buf_puts(b, i ? ", " : " ");
		put_opnd(b, &in->opnd[i]);
	}
	buf_putc(b, ';');
}

static void put_sym_init(Buf *b, const Init *it)
{
	if (it->generic) {
		buf_puts(b, "generic(");
		put_str(b, it->name);
		buf_putc(b, ')');
	} else {
		put_str(b, it->name);
	}
	/* "+-4", as written: ptxas (and the parser) have no "-" here */
	if (it->off)
		buf_printf(b, "+%lld", (long long)it->off);
}

static void put_init(Buf *b, const Init *it)
{
	switch (it->kind) {
	case IN_INT:
		put_int(b, it->ival, it->is_unsigned);
		break;
	case IN_FLOAT:
		put_float(b, it->fkind, it->ival, it->fval);
		break;
	case IN_SYM:
		put_sym_init(b, it);
		break;
	case IN_MASK:
		buf_printf(b, "0x%llX(", (unsigned long long)it->ival);
		if (it->sub)
			put_init(b, it->sub);
		buf_putc(b, ')');
		break;
	case IN_LIST:
		buf_putc(b, '{');
		for (uint32_t i = 0; i < it->n; i++) {
			if (i)
				buf_puts(b, ", ");
			put_init(b, &it->items[i]);
		}
		buf_putc(b, '}');
		break;
	case IN_FIELDS:
		buf_puts(b, "{ ");
		for (uint32_t i = 0; i < it->n; i++) {
			const Init *f = &it->items[i];
			if (i)
				buf_puts(b, ", ");
			put_str(b, f->name);
			buf_puts(b, " = ");
			if (f->word.n)
				put_str(b, f->word);
			else if (f->sub)
				put_init(b, f->sub);
		}
		buf_puts(b, " }");
		break;
	}
}

static void put_linkage(Buf *b, uint8_t l)
{
	if (l & L_VISIBLE)
		buf_puts(b, ".visible ");
	if (l & L_EXTERN)
		buf_puts(b, ".extern ");
	if (l & L_WEAK)
		buf_puts(b, ".weak ");
	if (l & L_COMMON)
		buf_puts(b, ".common ");
}

static void put_uuid_attr(Buf *b, bool managed, bool unified, const uint64_t uuid[2])
{
	buf_puts(b, ".attribute(");
	if (managed)
		buf_puts(b, ".managed");
	if (unified)
		buf_printf(b, "%s.unified(%llu, %llu)", managed ? ", " : "",
			   (unsigned long long)uuid[0], (unsigned long long)uuid[1]);
	buf_puts(b, ") ");
}

/* A declaration without the trailing ';'. */
static void put_decl(Buf *b, const Decl *d)
{
	put_linkage(b, d->linkage);
	buf_printf(b, ".%s ", space_name[d->space]);
	if (d->managed || d->unified)
		put_uuid_attr(b, d->managed, d->unified, d->uuid);
	if (d->align)
		buf_printf(b, ".align %u ", d->align);
	if (d->vec)
		buf_printf(b, ".v%u ", d->vec);
	buf_printf(b, ".%s ", isa_type[d->type].name);
	if (d->ptr) {
		buf_puts(b, ".ptr ");
		if (d->ptr_space)
			buf_printf(b, ".%s ", space_name[d->ptr_space]);
		if (d->ptr_opaque)
			buf_printf(b, ".%s ", isa_type[d->ptr_opaque].name);
		if (d->ptr_align)
			buf_printf(b, ".align %u ", d->ptr_align);
	}
	put_str(b, d->name);
	if (d->range >= 0)
		buf_printf(b, "<%lld>", (long long)d->range);
	for (int i = 0; i < d->ndim; i++) {
		if (i == 0 && d->dim_omitted)
			buf_puts(b, "[]");
		else
			buf_printf(b, "[%llu]", (unsigned long long)d->dim[i]);
	}
	if (d->has_init && d->init) {
		buf_puts(b, " = ");
		put_init(b, d->init);
	}
}

static void put_params(Buf *b, const Decl *v, uint32_t n, bool multiline)
{
	buf_putc(b, '(');
	for (uint32_t i = 0; i < n; i++) {
		if (multiline)
			buf_puts(b, i ? ",\n\t" : "\n\t");
		else if (i)
			buf_puts(b, ", ");
		put_decl(b, &v[i]);
	}
	if (multiline && n)
		buf_putc(b, '\n');
	buf_putc(b, ')');
}

static void put_perf(Buf *b, const PerfDir *p)
{
	if (p->kind == PD_PRAGMA) {
		buf_puts(b, ".pragma ");
		put_str(b, p->text);
		buf_putc(b, ';');
		return;
	}
	buf_printf(b, ".%s", perf_name[p->kind]);
	for (int i = 0; i < p->n; i++)
		buf_printf(b, "%s%u", i ? ", " : " ", p->v[i]);
}

/* Blocks deeper than this print at this indent, so that the output stays
 * linear in the input however deep the nesting. */
#define MAX_INDENT 16

static void indent(Buf *b, int depth)
{
	static const char tabs[MAX_INDENT] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	buf_put(b, tabs, (size_t)(depth < MAX_INDENT ? depth : MAX_INDENT));
}

static void put_proto(Buf *b, const Func *f)
{
	buf_puts(b, ".callprototype ");
	if (f->has_rets) {
		put_params(b, f->rets, f->nrets, false);
		buf_putc(b, ' ');
	}
	buf_puts(b, "_ ");
	put_params(b, f->params, f->nparams, false);
	for (uint32_t i = 0; i < f->nperf; i++)
		if (f->perf[i].kind == PD_NORETURN)
			buf_puts(b, " .noreturn");
	buf_putc(b, ';');
}

static void put_func(Buf *b, const Func *f)
{
	put_linkage(b, f->linkage);
	buf_puts(b, f->entry ? ".entry " : ".func ");
	if (f->unified)
		put_uuid_attr(b, false, true, f->uuid);
	if (f->has_rets) {
		put_params(b, f->rets, f->nrets, false);
		buf_putc(b, ' ');
	}
	put_str(b, f->name);
	put_params(b, f->params, f->nparams, true);
	for (uint32_t i = 0; i < f->nperf; i++) {
		buf_putc(b, '\n');
		put_perf(b, &f->perf[i]);
	}
	if (!f->has_body) {
		buf_puts(b, ";\n");
		return;
	}
	buf_putc(b, '\n');
	int depth = 0;          /* the body holds the function's own braces */
	for (uint32_t i = 0; i < f->nbody; i++) {
		const Stmt *s = &f->body[i];
		switch (s->kind) {
		case ST_OPEN:
			indent(b, depth++);
			buf_puts(b, "{\n");
			continue;
		case ST_CLOSE:
			indent(b, --depth);
			buf_puts(b, "}\n");
			continue;
		case ST_LABEL:
			put_str(b, s->name);
			buf_puts(b, ":\n");
			continue;
		default:
			break;
		}
		indent(b, depth);
		switch (s->kind) {
		case ST_INSTR:
			put_instr(b, s->in);
			break;
		case ST_DECL:
			put_decl(b, s->decl);
			buf_putc(b, ';');
			break;
		case ST_LOC:
			buf_putc(b, '.');
			put_str(b, s->name);
			buf_putc(b, ' ');
			put_str(b, s->text);
			break;
		case ST_PRAGMA:
			buf_puts(b, ".pragma ");
			put_str(b, s->text);
			buf_putc(b, ';');
			break;
		case ST_TARGETS:
			put_str(b, s->name);
			buf_puts(b, s->tkind == 'b' ? ": .branchtargets " : ": .calltargets ");
			for (uint32_t k = 0; k < s->nlist; k++) {
				if (k)
					buf_puts(b, ", ");
				put_opnd(b, &s->list[k]);
			}
			buf_putc(b, ';');
			break;
		case ST_PROTO:
			put_str(b, s->name);
			buf_puts(b, ": ");
			put_proto(b, s->proto);
			break;
		}
		buf_putc(b, '\n');
	}
}

void ptx_write(const Module *m, Buf *b)
{
	if (m->has_version)
		buf_printf(b, ".version %u.%u\n", m->ver_major, m->ver_minor);
	if (m->ntargets) {
		buf_puts(b, ".target ");
		for (uint32_t i = 0; i < m->ntargets; i++) {
			if (i)
				buf_puts(b, ", ");
			put_str(b, m->targets[i].name);
		}
		buf_putc(b, '\n');
	}
	if (m->has_asize)
		buf_printf(b, ".address_size %u\n", m->address_size);
	int prev = -1;
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Top *t = &m->top[i];
		/* a blank line between groups, and around every function */
		if (t->kind != prev || t->kind == TOP_FUNC || t->kind == TOP_SECTION)
			buf_putc(b, '\n');
		prev = t->kind;
		switch (t->kind) {
		case TOP_DECL:
			put_decl(b, t->decl);
			buf_puts(b, ";\n");
			break;
		case TOP_FUNC:
			put_func(b, t->func);
			break;
		case TOP_FILE:
			buf_printf(b, ".file %u ", t->fileno);
			put_str(b, t->text);
			buf_putc(b, '\n');
			break;
		case TOP_SECTION:
		case TOP_ALIAS:
			put_str(b, t->text);
			buf_putc(b, '\n');
			break;
		}
	}
}
