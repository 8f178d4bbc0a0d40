/* demangle.c: C++ names of kernels, from the Itanium C++ ABI's mangling
 * (what nvcc emits): nested names and namespaces, templates with type,
 * literal and pack arguments, template parameters, substitutions, the
 * builtin types, pointers, references, const and volatile, function and
 * array types, pack expansions, lambdas and unnamed types, names local to
 * a function (nvcc's extended lambdas: main::{lambda(int)#1}).  Printed as
 * c++filt prints them: "void scale<float>(float*, float const*, int)".
 *
 * A recursive-descent parser that renders as it reads.  Every rendered
 * type or prefix that the ABI makes substitutable is appended to a table
 * (S_, S0_, ...); template arguments are kept for T_, T0_, ...  Function
 * and array types keep the place of their declarator as HOLE (then PTR
 * once a pointer or reference went there), so that `PFviE` reads
 * "void (*)(int)".  A pack parameter within a pack expansion renders as
 * PACK, and the expansion repeats the pattern for each element.
 */
#include "cli.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOLE '\1'       /* a declarator's place, without parentheses yet */
#define PTR '\2'        /* a declarator's place inside "(*...)" */
#define PACK '\3'       /* an element of the pack being expanded */

typedef struct Str {
	char *p;
	size_t n, cap;
} Str;

typedef struct Pack {
	char **v;               /* a template argument's pack elements; NULL for one argument */
	size_t n;
} Pack;

typedef struct D {
	const char *s;          /* the rest of the input */
	bool bad;
	char **sub;             /* substitution candidates */
	size_t nsub, csub;
	char **targ;            /* template arguments of the encoding, for T_ */
	Pack *tpack;
	size_t ntarg;
	const Pack *expanding;  /* the pack a PACK stands for, in a pack expansion */
	bool in_dp;             /* within a pack expansion's pattern */
	int depth;
} D;

/* Makes targ/tpack (n of them) the template arguments T_ refers to,
 * freeing the ones they replace. */
static void set_targs(D *d, char **targ, Pack *tpack, size_t n)
{
	for (size_t i = 0; i < d->ntarg; i++) {
		free(d->targ[i]);
		for (size_t k = 0; k < d->tpack[i].n; k++)
			free(d->tpack[i].v[k]);
		free(d->tpack[i].v);
	}
	free(d->targ);
	free(d->tpack);
	d->targ = targ;
	d->tpack = tpack;
	d->ntarg = n;
}

static void add(Str *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void adds(Str *b, const char *s) { add(b, s, strlen(s)); }

static char *done(Str *b)
{
	if (!b->p)
		adds(b, "");
	return b->p;
}

static char *cat(const char *a, const char *b, const char *c)
{
	Str s = { 0 };
	adds(&s, a);
	adds(&s, b);
	adds(&s, c);
	return done(&s);
}

static void push_sub(D *d, const char *s)
{
	if (d->nsub == d->csub) {
		d->csub = d->csub ? 2 * d->csub : 16;
		d->sub = realloc(d->sub, d->csub * sizeof *d->sub);
	}
	d->sub[d->nsub++] = strdup(s);
}

static bool eat(D *d, char c)
{
	if (*d->s != c)
		return false;
	d->s++;
	return true;
}

static char *fail(D *d)
{
	d->bad = true;
	return NULL;
}

/* A decimal number. */
static bool number(D *d, size_t *v)
{
	if (!isdigit((unsigned char)*d->s))
		return false;
	*v = 0;
	while (isdigit((unsigned char)*d->s) && *v < 100000000)
		*v = *v * 10 + (size_t)(*d->s++ - '0');
	return true;
}

/* <seq-id> _: "_" is 0, "0_" 1, ... base 36 (digits, capitals), plus one. */
static bool seq_id(D *d, size_t *v)
{
	if (eat(d, '_')) {
		*v = 0;
		return true;
	}
	size_t x = 0;
	int n = 0;
	while (isdigit((unsigned char)*d->s) || isupper((unsigned char)*d->s)) {
		char c = *d->s++;
		x = x * 36 + (size_t)(isdigit((unsigned char)c) ? c - '0' : c - 'A' + 10);
		if (++n > 6)
			return false;
	}
	if (!n || !eat(d, '_'))
		return false;
	*v = x + 1;
	return true;
}

static char *type(D *d);
static char *name(D *d, bool *templated);

/* <source-name>: a length and an identifier. */
static char *source_name(D *d)
{
	size_t n;
	if (!number(d, &n) || n == 0 || strnlen(d->s, n) < n)
		return fail(d);
	char *r;
	if (n > 10 && !strncmp(d->s, "_GLOBAL__N", 10))
		r = strdup("(anonymous namespace)");
	else
		r = strndup(d->s, n);
	d->s += n;
	return r;
}

static const struct { const char *code, *name; } builtins[] = {
	{ "v", "void" }, { "w", "wchar_t" }, { "b", "bool" }, { "c", "char" }, { "a", "signed char" },
	{ "h", "unsigned char" }, { "s", "short" }, { "t", "unsigned short" }, { "i", "int" },
	{ "j", "unsigned int" }, { "l", "long" }, { "m", "unsigned long" }, { "x", "long long" },
	{ "y", "unsigned long long" }, { "n", "__int128" }, { "o", "unsigned __int128" }, { "f", "float" },
	{ "d", "double" }, { "e", "long double" }, { "g", "__float128" }, { "z", "..." },
	{ "Dh", "half" }, { "DF16_", "_Float16" }, { "Di", "char32_t" }, { "Ds", "char16_t" },
	{ "Du", "char8_t" }, { "Da", "auto" }, { "Dc", "decltype(auto)" }, { "Dn", "decltype(nullptr)" },
};

/* The literal suffix c++filt gives an integer of a builtin type, or NULL
 * when it writes a cast. */
static const char *int_suffix(const char *t)
{
	static const char *const s[][2] = { { "int", "" }, { "unsigned int", "u" }, { "long", "l" },
					    { "unsigned long", "ul" }, { "long long", "ll" },
					    { "unsigned long long", "ull" } };
	for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
		if (!strcmp(t, s[i][0]))
			return s[i][1];
	return NULL;
}

/* <template-arg>s up to E; each into args (packs as their elements). */
static char *template_args(D *d, char ***outv, Pack **outp, size_t *outn);

/* L <type> <value> E, or L _Z <encoding> E. */
static char *literal(D *d)
{
	if (d->s[0] == '_' && d->s[1] == 'Z')
		return fail(d);         /* an external name as an argument: not emitted for kernels */
	char *t = type(d);
	if (!t)
		return NULL;
	bool neg = eat(d, 'n');
	const char *v = d->s;
	while (*d->s && *d->s != 'E')
		d->s++;
	size_t vn = (size_t)(d->s - v);
	if (!eat(d, 'E') || !vn) {
		free(t);
		return fail(d);
	}
	Str r = { 0 };
	const char *suf = int_suffix(t);
	if (!strcmp(t, "bool") && vn == 1 && (*v == '0' || *v == '1')) {
		adds(&r, *v == '1' ? "true" : "false");
	} else {
		if (!suf) {
			adds(&r, "(");
			adds(&r, t);
			adds(&r, ")");
		}
		if (neg)
			adds(&r, "-");
		add(&r, v, vn);
		if (suf)
			adds(&r, suf);
	}
	free(t);
	return done(&r);
}

/* The function type F [Y] <return> <params> [<ref>] E, with HOLE where the
 * declarator goes: "void \1(int)". */
static char *params(D *d, char end);

static char *function_type(D *d)
{
	eat(d, 'Y');
	char *ret = type(d);
	if (!ret)
		return NULL;
	if (strchr(ret, HOLE) || strchr(ret, PTR)) {
		free(ret);
		return fail(d);         /* a function returning a function or array pointer */
	}
	char *ps = params(d, 'E');
	if (!ps) {
		free(ret);
		return NULL;
	}
	Str r = { 0 };
	adds(&r, ret);
	adds(&r, " \1(");
	adds(&r, ps);
	adds(&r, ")");
	free(ret);
	free(ps);
	return done(&r);
}

/* A pointer, reference or qualifier applied to t: after the type, or at the
 * declarator's place in a function or array type. */
static char *apply(const char *t, const char *op)
{
	const char *h = strchr(t, HOLE), *p = strchr(t, PTR);
	if (!h && !p)
		return cat(t, op, "");
	Str r = { 0 };
	if (p) {
		add(&r, t, (size_t)(p - t));
		adds(&r, op[0] == ' ' ? op + 1 : op);   /* "(* const" reads "(*const" in c++filt's style */
		adds(&r, p);
	} else {
		add(&r, t, (size_t)(h - t));
		adds(&r, "(");
		adds(&r, op[0] == ' ' ? op + 1 : op);
		adds(&r, "\2)");
		if (h[1] == '[')
			adds(&r, " ");  /* "int (*) [10]" */
		adds(&r, h + 1);
	}
	return done(&r);
}

/* Expands a pattern that holds PACK over the pack being expanded. */
static char *expand(const char *pat, const Pack *p)
{
	Str r = { 0 };
	for (size_t i = 0; p && i < p->n; i++) {
		if (i)
			adds(&r, ", ");
		for (const char *c = pat; *c; c++)
			if (*c == PACK)
				adds(&r, p->v[i]);
			else
				add(&r, c, 1);
	}
	return done(&r);
}

/* T_ T0_ ...: the template argument; a pack, within an expansion, is PACK. */
static char *template_param(D *d)
{
	size_t i;
	if (!seq_id(d, &i) || i >= d->ntarg)
		return fail(d);
	if (d->tpack[i].v) {
		if (!d->in_dp)
			return strdup(d->targ[i]);      /* the pack's elements, as written */
		if (d->expanding == NULL || d->expanding == &d->tpack[i]) {
			d->expanding = &d->tpack[i];
			return strdup("\3");
		}
		return fail(d);
	}
	return strdup(d->targ[i]);
}

/* S_, S<seq-id>_, St Sa Sb Ss Si So Sd: a prefix or a type. */
static char *substitution(D *d, bool *is_std)
{
	static const char *const special[][2] = {
		{ "a", "std::allocator" }, { "b", "std::basic_string" }, { "s", "std::string" },
		{ "i", "std::istream" }, { "o", "std::ostream" }, { "d", "std::iostream" },
	};
	*is_std = false;
	if (eat(d, 't')) {
		*is_std = true;
		return strdup("std");
	}
	for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
		if (eat(d, special[i][0][0]))
			return strdup(special[i][1]);
	size_t i;
	if (!seq_id(d, &i) || i >= d->nsub)
		return fail(d);
	return strdup(d->sub[i]);
}

/* Ul <params> E [<number>] _: a lambda; Ut [<number>] _: an unnamed type. */
static char *closure(D *d)
{
	bool lambda = d->s[1] == 'l';
	d->s += 2;
	char *ps = lambda ? params(d, 'E') : strdup("");
	if (!ps)
		return NULL;
	size_t n = 0;
	bool numbered = number(d, &n);  /* none: the first; n: the (n + 2)th */
	if (!eat(d, '_')) {
		free(ps);
		return fail(d);
	}
	char buf[64];
	snprintf(buf, sizeof buf, "#%zu}", numbered ? n + 2 : 1);
	char *r = lambda ? cat("{lambda(", ps, ")") : strdup("{unnamed type");
	char *r2 = cat(r, buf, "");
	free(r);
	free(ps);
	return r2;
}

/* One <unqualified-name>: source name (with an abi tag), lambda, unnamed. */
static char *unqualified(D *d)
{
	eat(d, 'L');    /* internal linkage */
	char *r;
	if (d->s[0] == 'U' && (d->s[1] == 'l' || d->s[1] == 't'))
		r = closure(d);
	else if (isdigit((unsigned char)*d->s))
		r = source_name(d);
	else
		return fail(d);
	while (r && d->s[0] == 'B') {       /* B <source-name>: [abi:TAG] */
		d->s++;
		char *tag = source_name(d);
		if (!tag) {
			free(r);
			return NULL;
		}
		char *t = cat(r, "[abi:", tag);
		free(r);
		free(tag);
		r = cat(t, "]", "");
		free(t);
	}
	return r;
}

/* Renders template args "<a, b>" and, when keep, makes them the T_ args. */
static char *args_text(D *d, bool keep)
{
	char **v = NULL;
	Pack *p = NULL;
	size_t n = 0;
	char *r = template_args(d, &v, &p, &n);
	if (!r)
		return NULL;
	if (keep) {
		set_targs(d, v, p, n);
	} else {
		for (size_t i = 0; i < n; i++) {
			free(v[i]);
			for (size_t k = 0; k < p[i].n; k++)
				free(p[i].v[k]);
			free(p[i].v);
		}
		free(v);
		free(p);
	}
	return r;
}

/* With a prefix: prefix::part */
static char *join(char *prefix, char *part)
{
	if (!prefix)
		return part;
	char *r = cat(prefix, "::", part);
	free(prefix);
	free(part);
	return r;
}

/* N [<CV>] [<ref>] <prefix>... E.  *templated: it ends in template args
 * (which become the T_ args when keep). */
static char *nested(D *d, bool *templated, bool keep)
{
	while (*d->s == 'K' || *d->s == 'V' || *d->s == 'r' || *d->s == 'R' || *d->s == 'O')
		d->s++;
	char *cur = NULL;
	*templated = false;
	while (!eat(d, 'E')) {
		if (d->bad || !*d->s) {
			free(cur);
			return fail(d);
		}
		char *part;
		if (*d->s == 'S' && !cur) {
			bool is_std;
			d->s++;
			cur = substitution(d, &is_std);
			if (!cur)
				return NULL;
			continue;
		}
		if (*d->s == 'T' && !cur) {
			d->s++;
			cur = template_param(d);
			if (!cur)
				return NULL;
			push_sub(d, cur);
			continue;
		}
		if (*d->s == 'I') {
			if (!cur)
				return fail(d);
			d->s++;
			/* the function's own template args end the name: not a candidate */
			char *a = args_text(d, keep);
			if (!a) {
				free(cur);
				return NULL;
			}
			char *t = cat(cur, a, "");
			free(cur);
			free(a);
			cur = t;
			*templated = true;
			if (*d->s != 'E')
				push_sub(d, cur);
			continue;
		}
		part = unqualified(d);
		if (!part) {
			free(cur);
			return NULL;
		}
		cur = join(cur, part);
		*templated = false;
		if (*d->s != 'E')
			push_sub(d, cur);
	}
	return cur;
}

/* A <name>: nested, std::, substituted template, or unscoped (maybe a
 * template).  *templated: it ends in template args, which become T_'s. */
static char *name(D *d, bool *templated)
{
	*templated = false;
	if (eat(d, 'N'))
		return nested(d, templated, true);
	char *n;
	if (*d->s == 'S' && d->s[1] == 't') {
		d->s += 2;
		char *u = unqualified(d);
		n = u ? cat("std::", u, "") : NULL;
		free(u);
	} else if (*d->s == 'S') {
		bool is_std;
		d->s++;
		n = substitution(d, &is_std);
		if (n && *d->s != 'I') {        /* a substitution alone names no function */
			free(n);
			return fail(d);
		}
	} else {
		n = unqualified(d);
	}
	if (!n)
		return NULL;
	if (eat(d, 'I')) {
		push_sub(d, n);         /* <unscoped-template-name> */
		char *a = args_text(d, true);
		if (!a) {
			free(n);
			return NULL;
		}
		char *t = cat(n, a, "");
		free(n);
		free(a);
		*templated = true;
		return t;
	}
	return n;
}

/* Z <function encoding> E <entity> [<discriminator>]: a name local to a
 * function, as "main::{lambda(int)#1}" (nvcc's extended lambdas); the
 * function's own template arguments count only within its encoding. */
static char *local_name(D *d)
{
	char **targ = d->targ;
	Pack *tpack = d->tpack;
	size_t ntarg = d->ntarg;
	d->targ = NULL;
	d->tpack = NULL;
	d->ntarg = 0;
	bool templated;
	char *fn = name(d, &templated), *ret = NULL, *ps = NULL, *r = NULL;
	if (fn && templated)
		ret = type(d);
	if (fn && (!templated || ret))
		ps = *d->s == 'E' ? NULL : params(d, 'E');     /* main's encoding has no types */
	if (fn && (!templated || ret) && (ps || eat(d, 'E'))) {
		char *ent = eat(d, 's') ? strdup("string literal") : unqualified(d);
		if (ent) {
			if (eat(d, '_')) {      /* a discriminator: _N or __N_ */
				size_t n;
				bool two = eat(d, '_');
				if (!number(d, &n) || (two && !eat(d, '_')))
					fail(d);
			}
			char *f = ps ? cat(fn, "(", ps) : strdup(fn);
			r = cat(f, ps ? ")::" : "::", ent);
			free(f);
			free(ent);
		}
	}
	free(fn);
	free(ret);
	free(ps);
	set_targs(d, targ, tpack, ntarg);
	return r && !d->bad ? r : (free(r), fail(d));
}

/* A <type> as a class or enum name, as a type: candidates as the ABI adds them. */
static char *class_type(D *d)
{
	char *r;
	bool templated;
	if (eat(d, 'Z')) {
		r = local_name(d);
		if (r)
			push_sub(d, r);
		return r;
	}
	if (eat(d, 'N')) {
		r = nested(d, &templated, false);
		if (r)
			push_sub(d, r);
		return r;
	}
	r = unqualified(d);
	if (!r)
		return NULL;
	push_sub(d, r);
	if (eat(d, 'I')) {
		char *a = args_text(d, false);
		if (!a) {
			free(r);
			return NULL;
		}
		char *t = cat(r, a, "");
		free(r);
		free(a);
		r = t;
		push_sub(d, r);
	}
	return r;
}

static char *type(D *d)
{
	if (++d->depth > 200) {
		d->depth--;
		return fail(d);
	}
	char *r = NULL;
	char c = *d->s;
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
		size_t n = strlen(builtins[i].code);
		if (!strncmp(d->s, builtins[i].code, n)) {
			d->s += n;
			d->depth--;
			return strdup(builtins[i].name);
		}
	}
	if (c == 'P' || c == 'R' || c == 'O' || c == 'K' || c == 'V' || c == 'r') {
		d->s++;
		char *t = type(d);
		if (t) {
			const char *op = c == 'P' ? "*" : c == 'R' ? "&" : c == 'O' ? "&&" :
					 c == 'K' ? " const" : c == 'V' ? " volatile" : " restrict";
			r = apply(t, op);
			free(t);
			push_sub(d, r);
		}
	} else if (c == 'F') {
		d->s++;
		r = function_type(d);
		if (r)
			push_sub(d, r);
	} else if (c == 'A') {
		d->s++;
		size_t n = 0;
		bool has = number(d, &n);
		if (!eat(d, '_'))
			return d->depth--, fail(d);
		char *t = type(d);
		if (t) {
			char buf[40];
			snprintf(buf, sizeof buf, has ? "[%zu]" : "[]", n);
			char *h = strchr(t, HOLE);
			if (h && h[1] == '[') {         /* an array of arrays: float [3][4] */
				*h = 0;
				char *u = cat(t, "\1", buf);
				r = cat(u, h + 1, "");
				free(u);
			} else {
				r = cat(t, " \1", buf);
			}
			free(t);
			push_sub(d, r);
		}
	} else if (c == 'T') {
		d->s++;
		r = template_param(d);
		if (r) {
			push_sub(d, r);
			if (eat(d, 'I')) {
				char *a = args_text(d, false);
				char *t = a ? cat(r, a, "") : NULL;
				free(r);
				free(a);
				r = t;
				if (r)
					push_sub(d, r);
			}
		}
	} else if (c == 'D' && d->s[1] == 'p') {
		d->s += 2;
		const Pack *outer = d->expanding;
		bool outer_dp = d->in_dp;
		d->expanding = NULL;
		d->in_dp = true;
		char *pat = type(d);
		d->in_dp = outer_dp;
		if (pat) {
			r = d->expanding ? expand(pat, d->expanding) : strdup(pat);
			free(pat);
			push_sub(d, r);
		}
		d->expanding = outer;
	} else if (c == 'S' && d->s[1] == 't') {
		d->s += 2;
		char *u = unqualified(d);
		if (u) {
			r = cat("std::", u, "");
			free(u);
			push_sub(d, r);
			if (eat(d, 'I')) {
				char *a = args_text(d, false);
				char *t = a ? cat(r, a, "") : NULL;
				free(r);
				free(a);
				r = t;
				if (r)
					push_sub(d, r);
			}
		}
	} else if (c == 'S') {
		bool is_std;
		d->s++;
		r = substitution(d, &is_std);
		if (r && eat(d, 'I')) {
			char *a = args_text(d, false);
			char *t = a ? cat(r, a, "") : NULL;
			free(r);
			free(a);
			r = t;
			if (r)
				push_sub(d, r);
		}
	} else if (c == 'N' || c == 'Z' || isdigit((unsigned char)c) || (c == 'U' && (d->s[1] == 'l' || d->s[1] == 't'))) {
		r = class_type(d);
	} else {
		r = fail(d);
	}
	d->depth--;
	return r;
}

static char *template_args(D *d, char ***outv, Pack **outp, size_t *outn)
{
	Str r = { 0 };
	adds(&r, "<");
	size_t n = 0, cap = 0;
	char **v = NULL;
	Pack *p = NULL;
	while (!eat(d, 'E')) {
		if (d->bad || !*d->s)
			goto bad;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = realloc(v, cap * sizeof *v);
			p = realloc(p, cap * sizeof *p);
		}
		p[n].v = NULL;
		p[n].n = 0;
		char *a;
		if (eat(d, 'J')) {      /* an argument pack: its elements in place */
			Str j = { 0 };
			size_t pc = 0;
			while (!eat(d, 'E')) {
				char *e = eat(d, 'L') ? literal(d) : type(d);
				if (!e || !*d->s) {
					free(e);
					free(j.p);
					v[n] = NULL;
					n++;
					goto bad;
				}
				if (p[n].n == pc) {
					pc = pc ? pc * 2 : 4;
					p[n].v = realloc(p[n].v, pc * sizeof *p[n].v);
				}
				p[n].v[p[n].n++] = strdup(e);
				if (j.n)
					adds(&j, ", ");
				adds(&j, e);
				free(e);
			}
			if (!p[n].v)
				p[n].v = calloc(1, sizeof *p[n].v);     /* an empty pack is still a pack */
			a = done(&j);
		} else if (eat(d, 'L')) {
			a = literal(d);
		} else if (*d->s == 'X') {
			a = fail(d);    /* expressions: not emitted for kernels' names */
		} else {
			a = type(d);
		}
		if (!a) {
			v[n] = NULL;
			n++;
			goto bad;
		}
		if (r.n > 1 && *a)
			adds(&r, ", ");
		adds(&r, a);
		v[n++] = a;
	}
	if (r.p[r.n - 1] == '>')
		adds(&r, " ");
	adds(&r, ">");
	*outv = v;
	*outp = p;
	*outn = n;
	return done(&r);
bad:
	for (size_t i = 0; i < n; i++) {
		free(v[i]);
		for (size_t k = 0; k < p[i].n; k++)
			free(p[i].v[k]);
		free(p[i].v);
	}
	free(v);
	free(p);
	free(r.p);
	return fail(d);
}

/* Parameter types up to end (or the end of input when end is 0):
 * "int, float*"; a lone void is "". */
static char *params(D *d, char end)
{
	Str r = { 0 };
	int n = 0;
	while (end ? !eat(d, end) : *d->s != 0) {
		if (d->bad || !*d->s) {
			free(r.p);
			return fail(d);
		}
		if (end == 'E' && (*d->s == 'R' || *d->s == 'O') && d->s[1] == 'E') {
			d->s++;         /* a function type's ref-qualifier */
			continue;
		}
		char *t = type(d);
		if (!t) {
			free(r.p);
			return NULL;
		}
		if (!(n == 0 && !strcmp(t, "void") && (end ? *d->s == end : !*d->s))) {
			if (r.n && *t)
				adds(&r, ", ");
			adds(&r, t);
		}
		free(t);
		n++;
	}
	return done(&r);
}

/* Removes the declarator marks: HOLE and PTR ("void (int)", "void (*)(int)"). */
static void tidy(char *s)
{
	char *o = s;
	for (char *c = s; *c; c++) {
		if (*c != HOLE && *c != PTR)
			*o++ = *c;
	}
	*o = 0;
}

char *demangle(const char *mangled)
{
	if (!mangled || strncmp(mangled, "_Z", 2))
		return NULL;
	D d = { .s = mangled + 2 };
	bool templated;
	char *n = name(&d, &templated);
	char *r = NULL;
	if (n && !d.bad) {
		if (!*d.s) {
			r = n;          /* a variable */
			n = NULL;
		} else {
			char *ret = templated ? type(&d) : NULL;
			char *ps = (!templated || ret) ? params(&d, 0) : NULL;
			if (ps && !d.bad) {
				Str s = { 0 };
				if (ret) {
					adds(&s, ret);
					adds(&s, " ");
				}
				adds(&s, n);
				adds(&s, "(");
				adds(&s, ps);
				adds(&s, ")");
				r = done(&s);
			}
			free(ret);
			free(ps);
		}
	}
	free(n);
	if (r && d.bad) {
		free(r);
		r = NULL;
	}
	for (size_t i = 0; i < d.nsub; i++)
		free(d.sub[i]);
	free(d.sub);
	for (size_t i = 0; i < d.ntarg; i++) {
		free(d.targ[i]);
		for (size_t k = 0; k < d.tpack[i].n; k++)
			free(d.tpack[i].v[k]);
		free(d.tpack[i].v);
	}
	free(d.targ);
	free(d.tpack);
	if (r)
		tidy(r);
	return r;
}
