/* builtins.c: the surface-store builtin table and its lowering (builtins.h). */
#include "builtins.h"

#include "../util/util.h"

#include <stdio.h>
#include <string.h>

const char *const builtin_mode[3] = { "clamp", "trap", "zero" };
const char *const builtin_dim[5] = { "1d", "1d_array", "2d", "2d_array", "3d" };
const char *const builtin_type[11] = { "i8", "i16", "i32", "i64", "v2i8", "v2i16", "v2i32", "v2i64",
				       "v4i8", "v4i16", "v4i32" };
static const char *const geom[5] = { "1d", "a1d", "2d", "a2d", "3d" };
static const unsigned ncoords[5] = { 1, 2, 2, 4, 4 };

const char *sust_geom(unsigned dim) { return dim < 5 ? geom[dim] : "?"; }

bool sust_by_id(unsigned id, SustBuiltin *b)
{
	if (id < SUST_FIRST || id >= SUST_FIRST + SUST_COUNT)
		return false;
	unsigned k = id - SUST_FIRST;
	b->id = id;
	b->mode = k / 55;
	b->dim = k % 55 / 11;
	b->type = k % 11;
	b->vec = b->type < 4 ? 1 : b->type < 8 ? 2 : 4;
	static const unsigned bits[11] = { 8, 16, 32, 64, 8, 16, 32, 64, 8, 16, 32 };
	b->bits = bits[b->type];
	b->ncoords = ncoords[b->dim];
	return true;
}

bool sust_by_name(const char *name, SustBuiltin *b)
{
	/* the table is small: name each ID and compare */
	char buf[64];
	for (unsigned id = SUST_FIRST; id < SUST_FIRST + SUST_COUNT; id++) {
		sust_by_id(id, b);
		sust_name(b, buf, sizeof buf);
		if (!strcmp(buf, name))
			return true;
	}
	return false;
}

void sust_name(const SustBuiltin *b, char *buf, size_t n)
{
	snprintf(buf, n, "__nvvm_sust_b_%s_%s_%s", builtin_dim[b->dim], builtin_type[b->type], builtin_mode[b->mode]);
}

void sust_ptx(const SustBuiltin *b, char *buf, size_t n)
{
	static const char *const coords[5] = { "{x}", "{layer, x}", "{x, y}", "{layer, x, y, w}", "{x, y, z, w}" };
	static const char *const data[5] = { "", "c", "{c0, c1}", "", "{c0, c1, c2, c3}" };
	char vec[16] = "";
	if (b->vec > 1)
		snprintf(vec, sizeof vec, ".v%u", b->vec);
	snprintf(buf, n, "sust.b.%s%s.b%u.%s [a, %s], %s;", geom[b->dim], vec, b->bits, builtin_mode[b->mode],
		 coords[b->dim], data[b->vec]);
}

char *sust_module(const SustBuiltin *b)
{
	char name[64], ins[128];
	sust_name(b, name, sizeof name);
	Buf m = { 0 };
	unsigned rb = b->bits == 64 ? 64 : b->bits == 32 ? 32 : 16;   /* data registers */
	unsigned shift = b->bits == 8 ? 0 : b->bits == 16 ? 1 : b->bits == 32 ? 2 : 3;
	buf_printf(&m, "//\n// %s: a kernel that stores through it.\n// Made by ptxvm builtins --module.\n//\n\n",
		   name);
	buf_puts(&m, ".version 8.0\n.target sm_90\n.address_size 64\n\n");
	buf_printf(&m, ".visible .entry store_%s(\n\t.param .u64 surface\n)\n{\n", name + 2);
	buf_printf(&m, "\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<2>;\n\t.reg .b%u %%v<4>;\n\n", rb);
	buf_puts(&m, "\tld.param.u64 %rd1, [surface];\n");
	/* x in bytes: the thread's index times the element's size */
	buf_puts(&m, "\tmov.u32 %r1, %tid.x;\n");
	buf_printf(&m, "\tshl.b32 %%r2, %%r1, %u;\n", shift + (b->vec == 4 ? 2 : b->vec == 2 ? 1 : 0));
	buf_puts(&m, "\tmov.u32 %r3, %tid.y;\n\tmov.u32 %r4, %tid.z;\n\tmov.u32 %r5, %ctaid.x;\n");
	for (unsigned i = 0; i < b->vec; i++) {
		if (rb == 64)
			buf_printf(&m, "\tcvt.u64.u32 %%v%u, %%r1;\n", i);
		else if (rb == 32)
			buf_printf(&m, "\tadd.u32 %%v%u, %%r1, %u;\n", i, i);
		else
			buf_printf(&m, "\tcvt.u16.u32 %%v%u, %%r1;\n", i);
	}
	static const char *const coords[5] = { "{%r2}", "{%r5, %r2}", "{%r2, %r3}", "{%r5, %r2, %r3, %r3}",
					       "{%r2, %r3, %r4, %r4}" };
	static const char *const data[5] = { "", "%v0", "{%v0, %v1}", "", "{%v0, %v1, %v2, %v3}" };
	char vec[16] = "";
	if (b->vec > 1)
		snprintf(vec, sizeof vec, ".v%u", b->vec);
	snprintf(ins, sizeof ins, "sust.b.%s%s.b%u.%s [%%rd1, %s], %s;", geom[b->dim], vec, b->bits,
		 builtin_mode[b->mode], coords[b->dim], data[b->vec]);
	buf_printf(&m, "\t%s\n\tret;\n}\n", ins);
	return m.p;
}
