/* builtins_api.c: the public builtin interface (ptxvm.h) over src/builtins. */
#include "../../include/ptxvm.h"
#include "../builtins/builtins.h"

#include <stdlib.h>
#include <string.h>

size_t ptxvm_builtin_count(void) { return SUST_COUNT; }

static void fill(const SustBuiltin *b, ptxvm_builtin *out)
{
	memset(out, 0, sizeof *out);
	out->id = b->id;
	sust_name(b, out->name, sizeof out->name);
	sust_ptx(b, out->ptx, sizeof out->ptx);
	out->mode = builtin_mode[b->mode];
	out->dim = builtin_dim[b->dim];
	out->type = builtin_type[b->type];
}

int ptxvm_builtin_at(size_t i, ptxvm_builtin *out)
{
	SustBuiltin b;
	if (!out || i >= SUST_COUNT || !sust_by_id(SUST_FIRST + (unsigned)i, &b))
		return -1;
	fill(&b, out);
	return 0;
}

int ptxvm_builtin_find(const char *s, ptxvm_builtin *out)
{
	SustBuiltin b;
	if (!s || !out)
		return -1;
	char *end;
	unsigned long id = strtoul(s, &end, 10);
	bool ok = *s >= '0' && *s <= '9' && !*end ? sust_by_id((unsigned)id, &b) : sust_by_name(s, &b);
	if (!ok)
		return -1;
	fill(&b, out);
	return 0;
}

char *ptxvm_builtin_module(unsigned id)
{
	SustBuiltin b;
	return sust_by_id(id, &b) ? sust_module(&b) : NULL;
}
