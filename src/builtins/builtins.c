/* builtins.c: the surface and texture builtin tables and their lowering
 * (builtins.h).
 *
 * Everything here is data: the store builtins' order from seed 004, the
 * handler's operation names from CUDA's surface_indirect_functions.h and
 * texture_indirect_functions.h, the element types from the seed's suffix
 * table and CUDA's vector types.  One function turns any of them into its
 * PTX instruction.
 */
#include "builtins.h"

#include "../isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const builtin_mode[3] = { "clamp", "trap", "zero" };
const char *const builtin_dim[5] = { "1d", "1d_array", "2d", "2d_array", "3d" };
const char *const builtin_type[11] = { "i8", "i16", "i32", "i64", "v2i8", "v2i16", "v2i32", "v2i64",
				       "v4i8", "v4i16", "v4i32" };

/* ---- geometries ----------------------------------------------------------
 * How a call's coordinates become the PTX coordinate vector.  map[i] names
 * the call's coordinate that fills PTX slot i; PTX pads 3-element vectors to
 * 4 by repeating the last, as nvcc does.  Surface cubemaps are 2D arrays
 * whose layer is the face (or layer * 6 + face). */
typedef struct Geom {
	const char *ptx, *map;
	const char *names[4];   /* the call's coordinates, in its order */
	uint8_t ngrad;          /* textures: the gradient vector's size */
} Geom;

enum { G_1D, G_2D, G_3D, G_A1D, G_A2D, G_SCUBE, G_SACUBE, G_CUBE, G_ACUBE, G_S1DA, G_S2DA };
static const Geom geoms[] = {
	[G_1D] = { "1d", "0", { "x" }, 1 },
	[G_2D] = { "2d", "01", { "x", "y" }, 2 },
	[G_3D] = { "3d", "0122", { "x", "y", "z" }, 4 },
	[G_A1D] = { "a1d", "10", { "x", "layer" }, 1 },
	[G_A2D] = { "a2d", "2011", { "x", "y", "layer" }, 2 },
	[G_SCUBE] = { "a2d", "2011", { "x", "y", "face" }, 0 },
	[G_SACUBE] = { "a2d", "2011", { "x", "y", "layerface" }, 0 },
	[G_CUBE] = { "cube", "0122", { "x", "y", "z" }, 4 },
	[G_ACUBE] = { "acube", "3012", { "x", "y", "z", "layer" }, 4 },
	/* the store builtins put the layer first */
	[G_S1DA] = { "a1d", "01", { "layer", "x" }, 0 },
	[G_S2DA] = { "a2d", "0122", { "layer", "x", "y" }, 0 },
};
static const uint8_t sust_geom[5] = { G_1D, G_S1DA, G_2D, G_S2DA, G_3D };

/* ---- the handler's operations --------------------------------------------
 * The names CUDA 13's headers pass to __nv_tex_surf_handler. */
enum { F_LOD = 1, F_GRAD = 2, F_SPARSE = 4, F_FETCH = 8 };
typedef struct Op {
	const char *name;
	uint8_t kind, geom, flags;
} Op;

static const Op ops[] = {
	{ "__isurf1Dread", BK_SULD, G_1D, 0 },
	{ "__isurf2Dread", BK_SULD, G_2D, 0 },
	{ "__isurf3Dread", BK_SULD, G_3D, 0 },
	{ "__isurf1DLayeredread", BK_SULD, G_A1D, 0 },
	{ "__isurf2DLayeredread", BK_SULD, G_A2D, 0 },
	{ "__isurfCubemapread", BK_SULD, G_SCUBE, 0 },
	{ "__isurfCubemapLayeredread", BK_SULD, G_SACUBE, 0 },
	{ "__isurf1Dwrite_v2", BK_SUST, G_1D, 0 },
	{ "__isurf2Dwrite_v2", BK_SUST, G_2D, 0 },
	{ "__isurf3Dwrite_v2", BK_SUST, G_3D, 0 },
	{ "__isurf1DLayeredwrite_v2", BK_SUST, G_A1D, 0 },
	{ "__isurf2DLayeredwrite_v2", BK_SUST, G_A2D, 0 },
	{ "__isurfCubemapwrite_v2", BK_SUST, G_SCUBE, 0 },
	{ "__isurfCubemapLayeredwrite_v2", BK_SUST, G_SACUBE, 0 },
	{ "__itex1Dfetch", BK_TEX, G_1D, F_FETCH },
	{ "__itex1D", BK_TEX, G_1D, 0 },
	{ "__itex1DLod", BK_TEX, G_1D, F_LOD },
	{ "__itex1DGrad", BK_TEX, G_1D, F_GRAD },
	{ "__itex2D", BK_TEX, G_2D, 0 },
	{ "__itex2D_sparse", BK_TEX, G_2D, F_SPARSE },
	{ "__itex2DLod", BK_TEX, G_2D, F_LOD },
	{ "__itex2DLod_sparse", BK_TEX, G_2D, F_LOD | F_SPARSE },
	{ "__itex2DGrad_v2", BK_TEX, G_2D, F_GRAD },
	{ "__itex2DGrad_sparse", BK_TEX, G_2D, F_GRAD | F_SPARSE },
	{ "__itex3D", BK_TEX, G_3D, 0 },
	{ "__itex3D_sparse", BK_TEX, G_3D, F_SPARSE },
	{ "__itex3DLod", BK_TEX, G_3D, F_LOD },
	{ "__itex3DLod_sparse", BK_TEX, G_3D, F_LOD | F_SPARSE },
	{ "__itex3DGrad_v2", BK_TEX, G_3D, F_GRAD },
	{ "__itex3DGrad_sparse", BK_TEX, G_3D, F_GRAD | F_SPARSE },
	{ "__itex1DLayered", BK_TEX, G_A1D, 0 },
	{ "__itex1DLayeredLod", BK_TEX, G_A1D, F_LOD },
	{ "__itex1DLayeredGrad", BK_TEX, G_A1D, F_GRAD },
	{ "__itex2DLayered", BK_TEX, G_A2D, 0 },
	{ "__itex2DLayered_sparse", BK_TEX, G_A2D, F_SPARSE },
	{ "__itex2DLayeredLod", BK_TEX, G_A2D, F_LOD },
	{ "__itex2DLayeredLod_sparse", BK_TEX, G_A2D, F_LOD | F_SPARSE },
	{ "__itex2DLayeredGrad_v2", BK_TEX, G_A2D, F_GRAD },
	{ "__itex2DLayeredGrad_sparse", BK_TEX, G_A2D, F_GRAD | F_SPARSE },
	{ "__itexCubemap", BK_TEX, G_CUBE, 0 },
	{ "__itexCubemapLod", BK_TEX, G_CUBE, F_LOD },
	{ "__itexCubemapGrad_v2", BK_TEX, G_CUBE, F_GRAD },
	{ "__itexCubemapLayered", BK_TEX, G_ACUBE, 0 },
	{ "__itexCubemapLayeredLod", BK_TEX, G_ACUBE, F_LOD },
	{ "__itexCubemapLayeredGrad_v2", BK_TEX, G_ACUBE, F_GRAD },
	{ "__itex2Dgather", BK_TLD4, G_2D, 0 },
	{ "__itex2Dgather_sparse", BK_TLD4, G_2D, F_SPARSE },
};
#define NOPS (sizeof ops / sizeof *ops)

/* ---- element types ---------------------------------------------------------
 * The seed's suffixes, then CUDA's vector types.  `uses` is which
 * operations CUDA declares them for: surfaces take 64-bit integers but no
 * long; textures take long (only where the host's long is 32 bits: the
 * headers declare it under !__LP64__, so it is 32-bit here) but no 64-bit
 * types.  The scalar plain char (signed on NVPTX) names only surface reads
 * and gathers, as in cicc; charN are vectors of signed char. */
enum { U_SULD = 1, U_SUST = 2, U_TEX = 4, U_TLD4 = 8 };
#define U_SURF (U_SULD | U_SUST)
#define U_TEXS (U_TEX | U_TLD4)
#define U_ALL (U_SURF | U_TEXS)

typedef struct Elem {
	const char *name;
	uint8_t bits;
	char cls;               /* 's' signed, 'u' unsigned, 'f' float */
	uint8_t uses;           /* the scalar NAME */
	uint8_t vuses;          /* the vectors NAME1, NAME2, NAME4 ... */
	uint8_t widths;         /* ... that exist: bit 0 for 1, 1 for 2, 2 for 4 */
} Elem;

static const Elem elems[] = {
	{ "char", 8, 's', U_SULD | U_TLD4, U_ALL, 7 },
	{ "char_as_schar", 8, 's', U_ALL, 0, 0 },
	{ "char_as_uchar", 8, 'u', U_ALL, 0, 0 },
	{ "schar", 8, 's', U_ALL, 0, 0 },
	{ "uchar", 8, 'u', U_ALL, U_ALL, 7 },
	{ "short", 16, 's', U_ALL, U_ALL, 7 },
	{ "ushort", 16, 'u', U_ALL, U_ALL, 7 },
	{ "int", 32, 's', U_ALL, U_ALL, 7 },
	{ "uint", 32, 'u', U_ALL, U_ALL, 7 },
	{ "long", 32, 's', U_TEXS, U_TEXS, 7 },
	{ "ulong", 32, 'u', U_TEXS, U_TEXS, 7 },
	{ "longlong", 64, 's', U_SURF, U_SURF, 3 },
	{ "ulonglong", 64, 'u', U_SURF, U_SURF, 3 },
	{ "float", 32, 'f', U_ALL, U_ALL, 7 },
};
#define NELEMS (sizeof elems / sizeof *elems)

static uint8_t use_of(const Op *o)
{
	return o->kind == BK_SULD ? U_SULD : o->kind == BK_SUST ? U_SUST : o->kind == BK_TEX ? U_TEX : U_TLD4;
}

/* The forms of one element type an operation takes, as vector widths:
 * 0 for the scalar NAME, then 1, 2, 4 for NAME1, NAME2, NAME4. */
static size_t elem_forms(const Elem *e, uint8_t use, unsigned vec[4])
{
	size_t n = 0;
	if (e->uses & use)
		vec[n++] = 0;
	if (e->vuses & use)
		for (unsigned w = 0; w < 3; w++)
			if (e->widths >> w & 1)
				vec[n++] = 1u << w;
	return n;
}

/* ---- lookup --------------------------------------------------------------- */
static void fill_sust(unsigned id, Builtin *b)
{
	unsigned k = id - SUST_FIRST;
	memset(b, 0, sizeof *b);
	b->id = id;
	b->kind = BK_SUST;
	b->arg = BA_NONE;
	b->sust_mode = k / 55;
	b->sust_dim = k % 55 / 11;
	b->sust_type = k % 11;
	b->mode = (int8_t)b->sust_mode;
	const Geom *g = &geoms[sust_geom[b->sust_dim]];
	b->geom = g->ptx;
	b->coords = g->map;
	b->ncoord = (uint8_t)(strlen(g->map) == 4 ? 3 : strlen(g->map));
	b->vec = (uint8_t)(b->sust_type < 4 ? 1 : b->sust_type < 8 ? 2 : 4);
	b->bits = (uint8_t)(8u << (b->sust_type < 8 ? b->sust_type % 4 : b->sust_type - 8));
	snprintf(b->name, sizeof b->name, "__nvvm_sust_b_%s_%s_%s", builtin_dim[b->sust_dim],
		 builtin_type[b->sust_type], builtin_mode[b->sust_mode]);
}

static unsigned ncoord_of(const Geom *g)
{
	unsigned n = 0;
	while (n < 4 && g->names[n])
		n++;
	return n;
}

static void fill_handler(const Op *o, const Elem *e, unsigned vec, Builtin *b)
{
	memset(b, 0, sizeof *b);
	b->id = HANDLER_ID;
	b->kind = o->kind;
	b->op = o->name;
	b->elem = e->name;
	b->mode = -1;
	b->arg = o->kind == BK_SULD || o->kind == BK_SUST ? BA_MODE : o->kind == BK_TLD4 ? BA_COMP : BA_NONE;
	const Geom *g = &geoms[o->geom];
	b->geom = g->ptx;
	b->coords = g->map;
	b->ncoord = (uint8_t)ncoord_of(g);
	b->vec = (uint8_t)(vec ? vec : 1);
	b->bits = e->bits;
	if (o->kind == BK_TEX || o->kind == BK_TLD4) {
		b->vec = 4;
		b->bits = 32;
		b->dtype = e->cls == 'f' ? "f32" : e->cls == 's' ? "s32" : "u32";
		b->ctype = o->flags & F_FETCH ? "s32" : "f32";
		b->lod = (o->flags & F_LOD) != 0;
		b->ngrad = o->flags & F_GRAD ? g->ngrad : 0;
		b->sparse = (o->flags & F_SPARSE) != 0;
	}
	if (vec)
		snprintf(b->name, sizeof b->name, "%s_%s%u", o->name, e->name, vec);
	else
		snprintf(b->name, sizeof b->name, "%s_%s", o->name, e->name);
}

size_t builtin_count(void)
{
	static size_t n;
	if (!n) {
		n = SUST_COUNT;
		unsigned v[4];
		for (size_t i = 0; i < NOPS; i++)
			for (size_t k = 0; k < NELEMS; k++)
				n += elem_forms(&elems[k], use_of(&ops[i]), v);
	}
	return n;
}

bool builtin_at(size_t i, Builtin *b)
{
	if (i < SUST_COUNT) {
		fill_sust(SUST_FIRST + (unsigned)i, b);
		return true;
	}
	i -= SUST_COUNT;
	for (size_t o = 0; o < NOPS; o++)
		for (size_t k = 0; k < NELEMS; k++) {
			unsigned v[4];
			size_t n = elem_forms(&elems[k], use_of(&ops[o]), v);
			if (i < n) {
				fill_handler(&ops[o], &elems[k], v[i], b);
				return true;
			}
			i -= n;
		}
	return false;
}

/* "__isurf2Dread_int4" = operation "__isurf2Dread" + "_" + element "int"
 * + width "4".  Operation names are prefixes of one another
 * ("__itex2D", "__itex2DLod"), so the longest one that fits wins. */
static bool find_handler(const char *name, Builtin *b, char *why, size_t n)
{
	const Op *op = NULL;
	size_t len = 0;
	for (size_t i = 0; i < NOPS; i++) {
		size_t l = strlen(ops[i].name);
		if (l > len && !strncmp(name, ops[i].name, l) && name[l] == '_')
			op = &ops[i], len = l;
	}
	if (!op) {
		snprintf(why, n, "'%s' names no __nv_tex_surf_handler operation (e.g. __isurf2Dread_int, "
			 "__itex2D_float4)", name);
		return false;
	}
	const char *suffix = name + len + 1;
	for (size_t k = 0; k < NELEMS; k++) {
		const Elem *e = &elems[k];
		size_t l = strlen(e->name);
		if (strncmp(suffix, e->name, l))
			continue;
		unsigned want = suffix[l] == 0 ? 0 : (unsigned)atoi(suffix + l);
		if (suffix[l] && (strlen(suffix + l) != 1 || (want != 1 && want != 2 && want != 4)))
			continue;
		unsigned v[4];
		size_t nf = elem_forms(e, use_of(op), v);
		for (size_t f = 0; f < nf; f++)
			if (v[f] == want) {
				fill_handler(op, e, want, b);
				return true;
			}
		if (op->kind == BK_SULD || op->kind == BK_SUST)
			snprintf(why, n, "%s: surfaces have no element type '%s'%s", name, suffix,
				 !strncmp(e->name, "long", 4) || !strncmp(e->name, "ulong", 5)
				 ? " (long is 32-bit on this ABI and not a surface type: use int, or longlong for 64 bits)"
				 : "");
		else
			snprintf(why, n, "%s: textures have no element type '%s'%s", name, suffix,
				 strstr(e->name, "longlong") ? " (textures hold at most 32-bit elements)" : "");
		return false;
	}
	snprintf(why, n, "%s: unknown element type '%s' (char_as_schar, char_as_uchar, schar, uchar, short, "
		 "ushort, int, uint, long, ulong, longlong, ulonglong, float, with 1, 2 or 4 for vectors)",
		 name, suffix);
	return false;
}

bool builtin_find(const char *s, Builtin *b, char *why, size_t n)
{
	char *end;
	if (*s >= '0' && *s <= '9') {
		unsigned long id = strtoul(s, &end, 10);
		if (!*end && id >= SUST_FIRST && id < SUST_FIRST + SUST_COUNT) {
			fill_sust((unsigned)id, b);
			return true;
		}
		if (!*end && id == HANDLER_ID)
			snprintf(why, n, "ID 647 is __nv_tex_surf_handler: name one of its operations, "
				 "e.g. __isurf2Dread_int or __itex2D_float4");
		else
			snprintf(why, n, "no builtin has ID '%s' (the surface stores are 474 to 638, the "
				 "texture/surface handler 647)", s);
		return false;
	}
	if (!strncmp(s, "__nvvm_sust_b_", 14)) {
		for (unsigned id = SUST_FIRST; id < SUST_FIRST + SUST_COUNT; id++) {
			fill_sust(id, b);
			if (!strcmp(b->name, s))
				return true;
		}
		snprintf(why, n, "'%s' is not a surface store builtin (__nvvm_sust_b_{1d,1d_array,2d,2d_array,3d}_"
			 "{i8,...,v4i32}_{clamp,trap,zero})", s);
		return false;
	}
	if (!strncmp(s, "__isurf", 7) || !strncmp(s, "__itex", 6))
		return find_handler(s, b, why, n);
	snprintf(why, n, "no builtin '%s' (surface stores: __nvvm_sust_b_*, IDs 474 to 638; the handler's "
		 "operations: __isurf*, __itex*)", s);
	return false;
}

/* ---- operands --------------------------------------------------------------
 * Layout:  sust builtins  handle, coordinates, data
 *          handler names  data or results [4], handle, coordinates,
 *                         level | dPdx, dPdy, then the sparse predicate */
static size_t ndata(const Builtin *b) { return b->kind == BK_TEX || b->kind == BK_TLD4 ? 4 : b->vec; }

size_t builtin_nopnd(const Builtin *b)
{
	return ndata(b) + 1 + b->ncoord + b->lod + 2u * b->ngrad + b->sparse;
}

size_t builtin_handle_index(const Builtin *b) { return b->id == HANDLER_ID ? ndata(b) : 0; }

/* Where the parts are: data first index, coordinates first index, extras. */
static size_t data_at(const Builtin *b) { return b->id == HANDLER_ID ? 0 : 1u + b->ncoord; }
static size_t coord_at(const Builtin *b) { return builtin_handle_index(b) + 1; }
static size_t extra_at(const Builtin *b)
{
	return b->id == HANDLER_ID ? coord_at(b) + b->ncoord : 1u + b->ncoord + b->vec;
}

static const Geom *geom_of(const Builtin *b)
{
	if (b->id != HANDLER_ID)
		return &geoms[sust_geom[b->sust_dim]];
	for (size_t i = 0; i < NOPS; i++)
		if (ops[i].name == b->op)
			return &geoms[ops[i].geom];
	return &geoms[G_1D];
}

const char *builtin_opnd_name(const Builtin *b, size_t i)
{
	static const char *const d[4] = { "d0", "d1", "d2", "d3" }, *const c[4] = { "c0", "c1", "c2", "c3" };
	static const char *const gx[4] = { "dx0", "dx1", "dx2", "dx3" }, *const gy[4] = { "dy0", "dy1", "dy2", "dy3" };
	bool store = b->kind == BK_SUST;
	if (i >= data_at(b) && i < data_at(b) + ndata(b)) {
		size_t k = i - data_at(b);
		if (ndata(b) == 1)
			return store ? "c" : "d";
		return store ? c[k] : d[k];
	}
	if (i == builtin_handle_index(b))
		return b->kind == BK_SUST || b->kind == BK_SULD ? "s" : "t";
	if (i >= coord_at(b) && i < coord_at(b) + b->ncoord)
		return geom_of(b)->names[i - coord_at(b)];
	size_t e = i - extra_at(b);
	if (b->lod && e == 0)
		return "lod";
	if (b->ngrad && e < 2u * b->ngrad) {
		if (b->ngrad == 1)
			return e ? "dy" : "dx";
		return e < b->ngrad ? gx[e] : gy[e - b->ngrad];
	}
	if (b->sparse && i == builtin_nopnd(b) - 1)
		return "p";
	return "?";
}

const char *builtin_opnd_type(const Builtin *b, size_t i)
{
	if (i == builtin_handle_index(b))
		return "b64";
	if (i >= data_at(b) && i < data_at(b) + ndata(b)) {
		if (b->dtype)
			return b->dtype[0] == 'f' ? "f32" : "b32";
		return b->bits <= 16 ? "b16" : b->bits == 32 ? "b32" : "b64";
	}
	if (i >= coord_at(b) && i < coord_at(b) + b->ncoord) {
		if (!b->ctype || b->ctype[0] == 's')
			return "b32";
		/* a texture's layer index is an integer */
		const char *nm = geom_of(b)->names[i - coord_at(b)];
		return !strcmp(nm, "layer") ? "b32" : "f32";
	}
	if (b->sparse && i == builtin_nopnd(b) - 1)
		return "pred";
	return "f32";           /* level and gradients */
}

/* ---- lowering ------------------------------------------------------------- */
static void put_vec(Buf *o, const char *const *op, size_t at, size_t n)
{
	buf_putc(o, '{');
	for (size_t i = 0; i < n; i++)
		buf_printf(o, "%s%s", i ? ", " : "", op[at + i]);
	buf_putc(o, '}');
}

/* [handle, {coordinates in PTX order}] */
static void put_addr(Buf *o, const Builtin *b, const char *const *op)
{
	buf_printf(o, "[%s, {", op[builtin_handle_index(b)]);
	for (size_t i = 0; b->coords[i]; i++)
		buf_printf(o, "%s%s", i ? ", " : "", op[coord_at(b) + (size_t)(b->coords[i] - '0')]);
	buf_puts(o, "}]");
}

bool builtin_lower(const Builtin *b, int arg, const char *const *op, Buf *o, char *why, size_t n)
{
	int mode = b->mode;
	if (b->arg == BA_MODE) {
		if (arg < 0 || arg > 2) {
			snprintf(why, n, "%s: boundary mode %d: it is 0 (zero), 1 (clamp) or 2 (trap), as "
				 "cudaSurfaceBoundaryMode", b->name, arg);
			return false;
		}
		/* cudaBoundaryModeZero, Clamp, Trap = 0, 1, 2 */
		static const int8_t from_cuda[3] = { BM_ZERO, BM_CLAMP, BM_TRAP };
		mode = from_cuda[arg];
	}
	if (b->arg == BA_COMP && (arg < 0 || arg > 3)) {
		snprintf(why, n, "%s: gather component %d: it is 0 to 3 (r, g, b, a)", b->name, arg);
		return false;
	}
	char vec[8] = "";
	if (b->kind == BK_SUST || b->kind == BK_SULD) {
		if (b->vec > 1)
			snprintf(vec, sizeof vec, ".v%u", b->vec);
		buf_printf(o, "%s.b.%s%s.b%u.%s ", b->kind == BK_SUST ? "sust" : "suld", b->geom, vec, b->bits,
			   builtin_mode[mode]);
		if (b->kind == BK_SUST) {
			put_addr(o, b, op);
			buf_puts(o, ", ");
			put_vec(o, op, data_at(b), b->vec);
		} else {
			put_vec(o, op, data_at(b), b->vec);
			buf_puts(o, ", ");
			put_addr(o, b, op);
		}
		return true;
	}
	if (b->kind == BK_TLD4)
		buf_printf(o, "tld4.%c.2d.v4.%s.f32 ", "rgba"[arg], b->dtype);
	else
		buf_printf(o, "tex%s.%s.v4.%s.%s ", b->lod ? ".level" : b->ngrad ? ".grad" : "", b->geom, b->dtype,
			   b->ctype);
	put_vec(o, op, 0, 4);
	if (b->sparse)
		buf_printf(o, "|%s", op[builtin_nopnd(b) - 1]);
	buf_puts(o, ", ");
	put_addr(o, b, op);
	size_t e = extra_at(b);
	if (b->lod)
		buf_printf(o, ", %s", op[e]);
	if (b->ngrad) {
		buf_puts(o, ", ");
		put_vec(o, op, e, b->ngrad);
		buf_puts(o, ", ");
		put_vec(o, op, e + b->ngrad, b->ngrad);
	}
	return true;
}

void builtin_form(const Builtin *b, Buf *out)
{
	const char *op[32];
	size_t n = builtin_nopnd(b);
	for (size_t i = 0; i < n && i < 32; i++)
		op[i] = builtin_opnd_name(b, i);
	char why[8];
	builtin_lower(b, b->arg == BA_MODE ? 2 : 0, op, out, why, sizeof why);
}

/* ---- image types -----------------------------------------------------------
 * Seed 004's four messages.  A .u64 handle (a texture or surface object) is
 * never wrong here; only a handle declared as another opaque type is. */
const char *builtin_image_error(const char *opcode, int ty)
{
	if (ty != TY_texref && ty != TY_surfref && ty != TY_samplerref)
		return NULL;
	if (!strcmp(opcode, "tex") || !strcmp(opcode, "tld4"))
		return ty != TY_texref ? "Invalid image type in .tex" : NULL;
	if (!strcmp(opcode, "txq"))     /* queries textures and samplers */
		return ty == TY_surfref ? "Invalid image type in .tex" : NULL;
	if (!strcmp(opcode, "suld"))
		return ty != TY_surfref ? "Invalid image type in .suld" : NULL;
	if (!strcmp(opcode, "sust") || !strcmp(opcode, "sured"))
		return ty != TY_surfref ? "Invalid image type in .sust" : NULL;
	if (!strcmp(opcode, "suq"))
		return ty != TY_surfref ? "Invalid image type in suq." : NULL;
	return NULL;
}
