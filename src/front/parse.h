/* parse.h: PTX text -> Module. */
#ifndef PTXVM_PARSE_H
#define PTXVM_PARSE_H

#include "ast.h"

/* Parse a whole module.  Never returns NULL; syntax errors are recorded in
 * m->diags and the parser recovers at the next statement.  The text must
 * stay alive as long as the module. */
Module *ptx_parse(const char *filename, const char *src, size_t n);
void ptx_module_free(Module *m);

/* Resolve "%r12" against a "%r<N>" declaration: splits name into a prefix
 * and a number; returns the number, or -1 if the name has no numeric tail. */
int64_t ptx_name_index(Str name, Str *prefix);

static inline bool str_eq(Str s, const char *c)
{
	size_t i = 0;
	for (; i < s.n; i++)
		if (c[i] != s.p[i])
			return false;
	return c[i] == 0;
}

static inline bool str_same(Str a, Str b)
{
	return a.n == b.n && (a.n == 0 || __builtin_memcmp(a.p, b.p, a.n) == 0);
}

#endif
