/* image.c: the public interface of images beyond whole arrays (ptxvm.h):
 * region copies between host, device memory and arrays, mipmapped arrays,
 * texture and sampler objects, and binding them to a program's .texref
 * and .samplerref variables (with the reference objects of their static
 * initializers).  Sampling itself is src/tex's.
 */
#include "host.h"
#include "../front/parse.h"
#include "../exec/solo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAY host_say

/* ---- region copies ----------------------------------------------------------- */

/* One side of a copy, validated: the host address of the box's first byte,
 * and the bytes between its rows and slices. */
typedef struct Side {
	uint8_t *base;
	size_t pitch, slice;
} Side;

static bool mul_add(size_t a, size_t b, size_t c, size_t *r)
{
	return !__builtin_mul_overflow(a, b, r) && !__builtin_add_overflow(*r, c, r);
}

static ptxvm_result copy_side(ptxvm_device *d, const SurfView *sv, const MemView *mv, const ptxvm_copy3d *c,
			      bool dst, Side *s)
{
	const char *name = dst ? "destination" : "source";
	ptxvm_memory_type type = dst ? c->dst_type : c->src_type;
	size_t x = dst ? c->dst_x_bytes : c->src_x_bytes, y = dst ? c->dst_y : c->src_y, z = dst ? c->dst_z : c->src_z;
	size_t pitch = dst ? c->dst_pitch : c->src_pitch, height = dst ? c->dst_height : c->src_height;
	size_t W = c->width_bytes, H = c->height, D = c->depth;
	if (type == PTXVM_MEMORY_ARRAY) {
		uint64_t id = dst ? c->dst_array : c->src_array;
		const SurfArray *a = surf_array_in(sv, id);
		if (!a || !a->data)
			return SAY(d, PTXVM_ERROR_INVALID_HANDLE, "ptxvm_memcpy3d: the %s, 0x%llx, is not an array", name,
				   (unsigned long long)id);
		size_t es = a->esize, row = (size_t)a->width * es, slices = (size_t)a->depth * a->layers;
		if (x % es || W % es)
			return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: the %s array has %zu-byte elements; "
				   "x = %zu and width = %zu bytes must be whole elements", name, es, x, W);
		if (x > row || W > row - x || y > a->height || H > a->height - y || z > slices || D > slices - z)
			return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: a box of %zu bytes x %zu rows x %zu "
				   "slices at (%zu, %zu, %zu) does not fit the %s array of %zu bytes x %u rows x %zu slices",
				   W, H, D, x, y, z, name, row, a->height, slices);
		*s = (Side){ surf_row(a, y, z) + x, row, row * a->height };
		return PTXVM_SUCCESS;
	}
	if (type != PTXVM_MEMORY_HOST && type != PTXVM_MEMORY_DEVICE)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: the %s type %d is not host (1), device (2) "
			   "or array (3)", name, (int)type);
	if ((H > 1 || D > 1) && pitch < W + x)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: the %s pitch, %zu bytes, is shorter than "
			   "x + width = %zu bytes", name, pitch, W + x);
	if (D > 1 && height < H + y)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: the %s height, %zu rows, is less than "
			   "y + height = %zu rows", name, height, H + y);
	size_t slice, start, len;
	if (__builtin_mul_overflow(pitch, height, &slice) || !mul_add(z, slice, 0, &start) ||
	    !mul_add(y, pitch, start, &start) || __builtin_add_overflow(start, x, &start) ||
	    !mul_add(D - 1, slice, 0, &len) || !mul_add(H - 1, pitch, len, &len) || __builtin_add_overflow(len, W, &len))
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: the %s box overflows the address space", name);
	if (type == PTXVM_MEMORY_HOST) {
		const void *p = dst ? c->dst_host : c->src_host;
		if (!p)
			return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: the %s host pointer is NULL", name);
		*s = (Side){ (uint8_t *)p + start, pitch, slice };
		return PTXVM_SUCCESS;
	}
	uint64_t dev = dst ? c->dst_device : c->src_device;
	const Alloc *al = mem_find(mv, dev + start, len);
	uint8_t *p = al ? al->host + (dev + start - al->base) : NULL;
	if (p && dst)           /* initcheck: the rows are written (with what lies between them) */
		mem_mark_init(al, dev + start - al->base, len);
	if (!p)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: the %s rows, [0x%llx, +%zu), are not inside one "
			   "device allocation", name, (unsigned long long)(dev + start), len);
	*s = (Side){ p, pitch, slice };
	return PTXVM_SUCCESS;
}

/* Rows from one side to the other. */
static void copy_rows(Side t, Side f, size_t W, size_t H, size_t D)
{
	for (size_t k = 0; k < D; k++)
		for (size_t r = 0; r < H; r++)
			memcpy(t.base + k * t.slice + r * t.pitch, f.base + k * f.slice + r * f.pitch, W);
}

ptxvm_result ptxvm_memcpy3d(ptxvm_device *d, const ptxvm_copy3d *c)
{
	if (!d || !c)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_memcpy3d: NULL argument");
	size_t W = c->width_bytes, H = c->height, D = c->depth;
	if (!W || !H || !D)
		return SAY(d, PTXVM_SUCCESS, NULL);
	/* on pinned versions of the tables, so that a free or destroy from
	 * another thread waits for the copy to end */
	HostDev h = host_dev(d);
	const SurfView *sv = surf_pin(h.surf);
	const MemView *mv = mem_pin(h.mem);
	Side s, t;
	solo_host_begin();      /* no launch does its atomics as plain writes meanwhile */
	ptxvm_result r = copy_side(d, sv, mv, c, false, &s);
	if (!r)
		r = copy_side(d, sv, mv, c, true, &t);
	if (!r) {
		/* the first and one-past-the-last bytes each side touches */
		uint8_t *s0 = s.base, *s1 = s.base + (D - 1) * s.slice + (H - 1) * s.pitch + W;
		uint8_t *t0 = t.base, *t1 = t.base + (D - 1) * t.slice + (H - 1) * t.pitch + W;
		if (s0 < t1 && t0 < s1) {       /* overlapping: through a packed copy */
			uint8_t *tmp = malloc(W * H * D);
			if (!tmp) {
				r = SAY(d, PTXVM_ERROR_OUT_OF_MEMORY, "ptxvm_memcpy3d: out of memory");
			} else {
				Side k = { tmp, W, W * H };
				copy_rows(k, s, W, H, D);
				copy_rows(t, k, W, H, D);
				free(tmp);
			}
		} else {
			copy_rows(t, s, W, H, D);
		}
	}
	solo_host_end();
	mem_unpin(h.mem, mv);
	surf_unpin(h.surf, sv);
	return r ? r : SAY(d, PTXVM_SUCCESS, NULL);
}

/* ---- mipmapped arrays -------------------------------------------------------- */

ptxvm_result ptxvm_mipmapped_array_create(ptxvm_device *d, const ptxvm_array_desc *a, unsigned levels,
					  uint64_t *mipmap)
{
	if (!d || !a || !mipmap)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mipmapped_array_create: NULL argument");
	uint32_t sz[4];
	char why[256];
	if (surf_shape(a, sz, why, sizeof why))
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "%s", why);
	uint32_t big = sz[0] > sz[1] ? sz[0] : sz[1];
	big = big > sz[2] ? big : sz[2];
	unsigned most = 1;
	while (big >> most)
		most++;
	if (big > 32768 || (a->kind == PTXVM_ARRAY_3D && big > 16384))
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "a mipmapped array is at most 32768 wide (3D: 16384), not %u",
			   big);
	if (!levels || levels > most)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "a mipmapped array of %u x %u x %u has 1 to %u levels, not %u",
			   sz[0], sz[1], sz[2], most, levels);
	uint64_t id = surf_mip_new(host_dev(d).surf, a->kind, a->format, a->channels, sz[0], sz[1], sz[2], sz[3],
				   levels);
	if (!id)
		return SAY(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for the mipmapped array");
	*mipmap = id;
	return SAY(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_mipmapped_array_destroy(ptxvm_device *d, uint64_t mipmap)
{
	if (!d)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mipmapped_array_destroy: NULL device");
	return surf_mip_free(host_dev(d).surf, mipmap) ? SAY(d, PTXVM_SUCCESS, NULL)
		  : SAY(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a mipmapped array", (unsigned long long)mipmap);
}

ptxvm_result ptxvm_mipmapped_array_level(ptxvm_device *d, uint64_t mipmap, unsigned level, uint64_t *array)
{
	if (!d || !array)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_mipmapped_array_level: NULL argument");
	uint64_t id;
	int n = surf_mip_level(host_dev(d).surf, mipmap, level, &id);
	if (n < 0)
		return SAY(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a mipmapped array", (unsigned long long)mipmap);
	if (!id)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "the mipmapped array has %d levels; there is no level %u", n, level);
	*array = id;
	return SAY(d, PTXVM_SUCCESS, NULL);
}

/* ---- texture and sampler objects --------------------------------------------- */

/* The sampling fields of a description; NULL with the reason where one is
 * out of range. */
static const char *sampler_desc(const ptxvm_texture_desc *t, TexSampler *s)
{
	memset(s, 0, sizeof *s);
	for (int k = 0; k < 3; k++) {
		if ((unsigned)t->address_mode[k] > PTXVM_ADDRESS_BORDER)
			return "an address mode is not a ptxvm_address_mode";
		s->addr[k] = (uint8_t)t->address_mode[k];       /* TEX_* has CUDA's values */
	}
	if ((unsigned)t->filter_mode > PTXVM_FILTER_LINEAR || (unsigned)t->mipmap_filter_mode > PTXVM_FILTER_LINEAR)
		return "a filter mode is not a ptxvm_filter_mode";
	if (t->max_anisotropy > 16)
		return "max_anisotropy is at most 16";
	s->filter = (uint8_t)t->filter_mode;
	s->mipfilter = (uint8_t)t->mipmap_filter_mode;
	s->normalized = t->normalized_coords != 0;
	s->seamless = t->seamless_cubemap != 0;
	memcpy(s->border, t->border_color, sizeof s->border);
	s->max_aniso = t->max_anisotropy;
	s->bias = t->mipmap_level_bias;
	s->minlod = t->min_mipmap_level_clamp;
	s->maxlod = t->max_mipmap_level_clamp;
	return NULL;
}

/* The resource of a texture object, checked in pinned versions of the
 * tables.  (Destroyed later, the resource makes the texture's use fail
 * with a message.) */
static ptxvm_result texture_resource(ptxvm_device *d, const SurfView *sv, const MemView *mv,
				     const ptxvm_resource_desc *r, TexObj *o)
{
	o->rtype = (uint8_t)r->type;
	switch (r->type) {
	case PTXVM_RESOURCE_ARRAY: {
		const SurfArray *a = surf_array_in(sv, r->array);
		if (!a || !a->data)
			return SAY(d, PTXVM_ERROR_INVALID_HANDLE, "ptxvm_texture_create: 0x%llx is not an array",
				   (unsigned long long)r->array);
		o->res = r->array;
		o->format = a->format;
		o->channels = a->channels;
		return PTXVM_SUCCESS;
	}
	case PTXVM_RESOURCE_MIPMAPPED_ARRAY: {
		const SurfMip *m = surf_mip_in(sv, r->mipmap);
		if (!m)
			return SAY(d, PTXVM_ERROR_INVALID_HANDLE, "ptxvm_texture_create: 0x%llx is not a mipmapped array",
				   (unsigned long long)r->mipmap);
		const SurfArray *a = surf_array_in(sv, m->level[0]);
		o->res = r->mipmap;
		o->format = a->format;
		o->channels = a->channels;
		return PTXVM_SUCCESS;
	}
	case PTXVM_RESOURCE_LINEAR:
	case PTXVM_RESOURCE_PITCH2D: {
		bool lin = r->type == PTXVM_RESOURCE_LINEAR;
		unsigned es = surf_format_bytes(r->format, r->channels);
		if (!es)
			return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: format %d with %u channels: "
				   "expected a ptxvm_format and 1, 2 or 4 channels", (int)r->format, r->channels);
		unsigned cs = es / r->channels;
		if (r->dptr % cs)
			return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: the device address 0x%llx is not "
				   "aligned to the %u-byte channels", (unsigned long long)r->dptr, cs);
		size_t bytes;
		if (lin) {
			if (r->bytes < es || r->bytes / es > (1u << 27))
				return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: linear memory of %zu bytes: "
					   "from one element (%u bytes) to 2^27 elements", r->bytes, es);
			bytes = r->bytes;
		} else {
			if (!r->width || r->width > 131072 || !r->height || r->height > 65000)
				return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: pitch-2D memory of %zu x %zu "
					   "elements: sizes from 1 x 1 to 131072 x 65000", r->width, r->height);
			if (r->pitch < r->width * es || r->pitch % 32)
				return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: a pitch of %zu bytes: at least "
					   "the row's %zu bytes, and a multiple of 32", r->pitch, r->width * es);
			bytes = r->pitch * (r->height - 1) + r->width * es;
		}
		if (!mem_host(mv, r->dptr, bytes))
			return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: [0x%llx, +%zu) is not inside one "
				   "device allocation", (unsigned long long)r->dptr, bytes);
		o->dptr = r->dptr;
		o->bytes = r->bytes;
		o->width = r->width;
		o->height = r->height;
		o->pitch = r->pitch;
		o->format = (uint8_t)r->format;
		o->channels = (uint8_t)r->channels;
		return PTXVM_SUCCESS;
	}
	}
	return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: resource type %d is not a ptxvm_resource_type",
		   (int)r->type);
}

ptxvm_result ptxvm_texture_create(ptxvm_device *d, const ptxvm_resource_desc *res, const ptxvm_texture_desc *desc,
				  uint64_t *texture)
{
	if (!d || !res || !desc || !texture)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: NULL argument");
	TexObj o;
	memset(&o, 0, sizeof o);
	const char *bad = sampler_desc(desc, &o.s);
	if (bad)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: %s", bad);
	if ((unsigned)desc->read_mode > PTXVM_READ_NORMALIZED_FLOAT)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: read mode %d is not a ptxvm_read_mode",
			   (int)desc->read_mode);
	HostDev h = host_dev(d);
	const SurfView *sv = surf_pin(h.surf);
	const MemView *mv = mem_pin(h.mem);
	ptxvm_result r = texture_resource(d, sv, mv, res, &o);
	mem_unpin(h.mem, mv);
	surf_unpin(h.surf, sv);
	if (r)
		return r;
	unsigned f = o.format;
	bool is_float = f == PTXVM_FORMAT_F16 || f == PTXVM_FORMAT_F32 || f >= PTXVM_FORMAT_UNORM8;
	bool wide_int = f == PTXVM_FORMAT_U32 || f == PTXVM_FORMAT_S32;
	o.read_norm = desc->read_mode == PTXVM_READ_NORMALIZED_FLOAT && !is_float;
	o.srgb = desc->srgb != 0;
	if (o.read_norm && wide_int)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: 32-bit integer texels cannot be read as "
			   "normalized floats (8- and 16-bit ones can)");
	if (desc->filter_mode == PTXVM_FILTER_LINEAR && !is_float && !o.read_norm && res->type != PTXVM_RESOURCE_LINEAR)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: linear filtering needs a floating-point "
			   "result: a float format, or 8- or 16-bit integers read as normalized floats");
	if (o.srgb && !(f == PTXVM_FORMAT_UNORM8 || (f == PTXVM_FORMAT_U8 && o.read_norm)))
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_texture_create: sRGB applies to 8-bit unsigned texels read "
			   "as normalized floats");
	uint64_t t = tex_add(h.surf, &o);
	if (!t)
		return SAY(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for the texture object");
	*texture = t;
	return SAY(d, PTXVM_SUCCESS, NULL);
}

/* Destroys a texture (or sampler) object, not a reference. */
static ptxvm_result object_destroy(ptxvm_device *d, uint64_t handle, bool sampler)
{
	if (!d)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_%s_destroy: NULL device", sampler ? "sampler" : "texture");
	return tex_free(host_dev(d).surf, handle, sampler)
		? SAY(d, PTXVM_SUCCESS, NULL)
		: SAY(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a %s object (never created, or destroyed already)",
		      (unsigned long long)handle, sampler ? "sampler" : "texture");
}

ptxvm_result ptxvm_texture_destroy(ptxvm_device *d, uint64_t texture) { return object_destroy(d, texture, false); }

ptxvm_result ptxvm_sampler_create(ptxvm_device *d, const ptxvm_texture_desc *desc, uint64_t *sampler)
{
	if (!d || !desc || !sampler)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_sampler_create: NULL argument");
	TexObj o;
	memset(&o, 0, sizeof o);
	const char *bad = sampler_desc(desc, &o.s);
	if (bad)
		return SAY(d, PTXVM_ERROR_INVALID_VALUE, "ptxvm_sampler_create: %s", bad);
	o.sampler_only = 1;
	o.rtype = TEX_RES_NONE;
	uint64_t t = tex_add(host_dev(d).surf, &o);
	if (!t)
		return SAY(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for the sampler object");
	*sampler = t;
	return SAY(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_sampler_destroy(ptxvm_device *d, uint64_t sampler) { return object_destroy(d, sampler, true); }

/* ---- .texref and .samplerref variables ------------------------------------- */

/* A reference object from a static initializer { name = value, ... }: the
 * description fields txq answers before binding, and the sampling fields
 * it names (words, or their numbers in PTX's enumerations).  NULL, or why
 * not (malloc'd). */
static char *ref_fields(const Prog *pg, const Decl *dc, TexObj *o)
{
	static const char *const desc[TEX_Q_DESC] = { "width", "height", "depth", "channel_data_type",
		"channel_order", "array_size", "num_mipmap_levels", "num_samples" };
	static const char *const addr[] = { "wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border" };
	static const uint8_t addr_mode[] = { TEX_WRAP, TEX_MIRROR, TEX_CLAMP_OGL, TEX_CLAMP, TEX_BORDER };
	static const char *const filt[] = { "nearest", "linear" };
	memset(o, 0, sizeof *o);
	o->is_ref = 1;
	o->sampler_only = dc->type == TY_samplerref;
	o->rtype = TEX_RES_NONE;
	o->s.normalized = o->sampler_only;
	const Init *in = dc->init;
	for (uint32_t i = 0; i < in->n; i++) {
		const Init *f = &in->items[i];
		bool num = !f->word.n && f->sub && f->sub->kind == IN_INT;
		uint64_t val = num ? f->sub->ival : 0;
		int which = -1;
		for (int k = 0; k < TEX_Q_DESC; k++)
			if (str_eq(f->name, desc[k]))
				which = k;
		const char *want = NULL;
		if (which >= 0) {
			if (!num || val > 0xffffffffu)
				want = "a 32-bit number";
			else
				o->q[which] = (uint32_t)val;
		} else if (str_eq(f->name, "normalized_coords") || str_eq(f->name, "force_unnormalized_coords")) {
			bool force = str_eq(f->name, "force_unnormalized_coords");
			if (!num || val > 1)
				want = "0 or 1";
			o->s.normalized = force ? !val : val != 0;
			o->set |= TEX_SET_NORMALIZED;
		} else if (str_eq(f->name, "filter_mode")) {
			int v = num && val < 2 ? (int)val : -1;
			for (int k = 0; k < 2; k++)
				if (f->word.n && str_eq(f->word, filt[k]))
					v = k;
			if (v < 0)
				want = "nearest or linear (0 or 1)";
			o->s.filter = (uint8_t)(v > 0);
			o->set |= TEX_SET_FILTER;
		} else {        /* addr_mode_0, _1, _2 */
			int k = f->name.p[f->name.n - 1] - '0', v = num && val < 5 ? (int)val : -1;
			for (int a = 0; a < 5; a++)
				if (f->word.n && str_eq(f->word, addr[a]))
					v = a;
			if (v < 0)
				want = "wrap, mirror, clamp_ogl, clamp_to_edge or clamp_to_border (0 to 4)";
			else
				o->s.addr[k] = addr_mode[v];
			o->set |= (uint32_t)TEX_SET_ADDR0 << k;
		}
		if (want) {
			char *s = NULL;
			if (asprintf(&s, "%s:%u:%u: error: '%.*s' of '%.*s' takes %s", pg->file, f->pos.line, f->pos.col,
				     (int)f->name.n, f->name.p, (int)dc->name.n, dc->name.p, want) < 0)
				s = NULL;
			return s ? s : strdup("out of memory");
		}
	}
	return NULL;
}

static bool has_fields(const Decl *dc)
{
	return dc->has_init && dc->init && dc->init->kind == IN_FIELDS;
}

char *host_static_textures(ptxvm_device *d, const Prog *pg, uint64_t owner)
{
	HostDev h = host_dev(d);
	for (uint32_t i = 0; i < pg->nvars; i++) {
		const XVar *v = &pg->vars[i];
		if ((v->d->type != TY_texref && v->d->type != TY_samplerref) || !has_fields(v->d))
			continue;
		TexObj o;
		char *why = ref_fields(pg, v->d, &o);
		if (why)
			return why;
		o.owner = owner;
		uint64_t handle = tex_add(h.surf, &o);
		if (!handle)
			return strdup("out of memory");
		uint8_t *host = mem_host_own(h.mem, v->addr, 8);
		if (host)
			memcpy(host, &handle, 8);
	}
	return NULL;
}

/* The 8 bytes of a variable, read (out) or written, on a pinned version of
 * the memory table; false if the program's memory is gone. */
static bool var_bytes(HostDev h, const XVar *v, uint64_t *val, bool out)
{
	const MemView *mv = mem_pin(h.mem);
	uint8_t *host = mem_host(mv, v->addr, 8);
	if (host && out)
		memcpy(val, host, 8);
	else if (host)
		memcpy(host, val, 8);
	mem_unpin(h.mem, mv);
	return host != NULL;
}

/* Binds variable `name` of type ty to object `handle` (0: unbinds).  A
 * variable holding a reference object (its static initializer's) keeps
 * it: the reference is bound, so that its initializer's fields still
 * apply. */
static ptxvm_result bind(const ptxvm_program *ph, const char *name, uint64_t handle, unsigned ty, const char *fn)
{
	struct ptxvm_program *p = host_prog_get(ph, fn);
	if (!p)
		return PTXVM_ERROR_INVALID_HANDLE;
	ptxvm_device *d = host_prog_device(p);
	const Prog *pg = host_prog(p);
	bool smp = ty == TY_samplerref;
	const XVar *v = NULL;
	for (uint32_t i = 0; name && i < pg->nvars; i++)
		if (!strcmp(pg->vars[i].name, name))
			v = &pg->vars[i];
	HostDev h = host_dev(d);
	uint64_t cur = 0;
	ptxvm_result r = PTXVM_SUCCESS;
	if (!v || v->d->type != ty || v->d->ndim)
		r = SAY(d, PTXVM_ERROR_NOT_FOUND, "no .global .%s variable '%s'", smp ? "samplerref" : "texref",
			name ? name : "(NULL)");
	else if (!var_bytes(h, v, &cur, true))
		r = SAY(d, PTXVM_ERROR_INVALID_HANDLE, "%s: the program was unloaded", fn);
	int k = r ? 0 : tex_bind(h.surf, cur, handle, smp);
	if (k < 0) {
		r = SAY(d, PTXVM_ERROR_INVALID_HANDLE, "0x%llx is not a %s object", (unsigned long long)handle,
			smp ? "sampler" : "texture");
	} else if (k > 0 && has_fields(v->d)) {
		/* the guest overwrote the variable: a new reference */
		TexObj n;
		free(ref_fields(pg, v->d, &n));
		n.base = handle;
		n.owner = host_handle(p);
		cur = tex_add(h.surf, &n);
		if (!cur)
			r = SAY(d, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for the reference object");
		else
			var_bytes(h, v, &cur, false);
	} else if (k > 0) {
		var_bytes(h, v, &handle, false);
	}
	host_prog_put(p);
	return r ? r : SAY(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_program_bind_texture(ptxvm_program *p, const char *name, uint64_t texture)
{
	return bind(p, name, texture, TY_texref, "ptxvm_program_bind_texture");
}

ptxvm_result ptxvm_program_bind_sampler(ptxvm_program *p, const char *name, uint64_t sampler)
{
	return bind(p, name, sampler, TY_samplerref, "ptxvm_program_bind_sampler");
}
