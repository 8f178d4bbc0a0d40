/* tex.c: texture and sampler objects, their resolution for a launch, and
 * txq (tex.h).  Every effective-sampler rule is applied here, once, in
 * view_rules(). */
#include "tex.h"
#include "../mem/mem.h"
#include "../util/util.h"
#include "../../include/ptxvm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t tex_add(SurfTable *t, const TexObj *o)
{
	TexObj *c = malloc(sizeof *c);
	if (!c)
		return 0;
	*c = *o;
	pthread_mutex_lock(&t->lock);
	uint64_t h = handle_add(&t->h, o->sampler_only ? TEX_SAMPLER_TAG : TEX_OBJECT_TAG, &c->h);
	pthread_mutex_unlock(&t->lock);
	if (!h)
		free(c);
	return h;
}

/* The object h names (the owner's view, under the lock), or NULL. */
static TexObj *find(SurfTable *t, uint64_t h)
{
	HRec *r = handle_find(&t->h, h, TEX_OBJECT_TAG);
	return (TexObj *)(r ? r : handle_find(&t->h, h, TEX_SAMPLER_TAG));
}

bool tex_free(SurfTable *t, uint64_t h, bool sampler)
{
	pthread_mutex_lock(&t->lock);
	const TexObj *o = find(t, h);
	bool ok = o && !o->is_ref && (o->sampler_only != 0) == sampler &&
		  handle_remove(&t->h, h, sampler ? TEX_SAMPLER_TAG : TEX_OBJECT_TAG);
	pthread_mutex_unlock(&t->lock);
	return ok;
}

int tex_bind(SurfTable *t, uint64_t ref, uint64_t h, bool sampler)
{
	pthread_mutex_lock(&t->lock);
	const TexObj *o = h ? find(t, h) : NULL;
	TexObj *r = find(t, ref);
	int res = 0;
	if (h && (!o || o->is_ref || (o->sampler_only != 0) != sampler))
		res = -1;
	else if (!r || !r->is_ref || (r->sampler_only != 0) != sampler)
		res = 1;
	else
		__atomic_store_n(&r->base, h, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&t->lock);
	return res;
}

void tex_release(SurfTable *t, uint64_t owner)
{
	pthread_mutex_lock(&t->lock);
	const CowVer *v = cow_latest(&t->h.cow);
	for (size_t i = 0; i < v->n; i++) {
		const TexObj *o = v->item[i];
		uint16_t tag = o ? handle_tag(o->h.handle) : 0;
		if ((tag == TEX_OBJECT_TAG || tag == TEX_SAMPLER_TAG) && o->is_ref && o->owner == owner)
			handle_remove(&t->h, o->h.handle, tag);
	}
	pthread_mutex_unlock(&t->lock);
}

/* A handle, or (PTX's indirect access) the address of a variable holding one. */
static const TexObj *lookup(const SurfView *t, const MemView *m, uint64_t h, uint64_t *handle)
{
	const TexObj *o = tex_obj_in(t, h);
	const uint8_t *p;
	if (!o && m && (p = mem_host(m, h, 8))) {
		memcpy(&h, p, 8);
		o = tex_obj_in(t, h);
	}
	*handle = h;
	return o;
}

/* The sampling state an object gives: a reference's named fields over its
 * bound object's (or, unbound, over CUDA's zero-filled cudaTextureDesc; a
 * .samplerref's force_unnormalized_coords defaults to 0). */
static int sampler_of(const SurfView *t, const TexObj *o, TexSampler *s, const TexObj **res, char *why,
		      size_t n)
{
	*res = NULL;
	if (!o->is_ref) {
		*s = o->s;
		*res = o;
		return 0;
	}
	uint64_t base = __atomic_load_n(&o->base, __ATOMIC_ACQUIRE);
	const TexObj *b = base ? tex_obj_in(t, base) : NULL;
	if (base && !b) {
		snprintf(why, n, "the object bound to this %s was destroyed", o->sampler_only ? ".samplerref"
			 : ".texref");
		return -1;
	}
	if (b) {
		*s = b->s;
		*res = b;
	} else {
		memset(s, 0, sizeof *s);
		s->normalized = o->sampler_only;
	}
	for (int k = 0; k < 3; k++)
		if (o->set & (TEX_SET_ADDR0 << k))
			s->addr[k] = o->s.addr[k];
	if (o->set & TEX_SET_FILTER)
		s->filter = o->s.filter;
	if (o->set & TEX_SET_NORMALIZED)
		s->normalized = o->s.normalized;
	return 0;
}

/* The resource's levels as host memory. */
static int view_resource(const SurfView *st, const MemView *m, const TexObj *o, TexView *v, char *why, size_t n)
{
	const SurfArray *lv[SURF_MAX_LEVELS] = { NULL };
	unsigned nl = 1;
	switch (o->rtype) {
	case TEX_RES_ARRAY:
		lv[0] = surf_array_in(st, o->res);
		if (!lv[0] || !lv[0]->data) {
			snprintf(why, n, "the array of this texture was destroyed");
			return -1;
		}
		break;
	case TEX_RES_MIP: {
		const SurfMip *mp = surf_mip_in(st, o->res);
		if (!mp) {
			snprintf(why, n, "the mipmapped array of this texture was destroyed");
			return -1;
		}
		nl = mp->nlevels;
		for (unsigned l = 0; l < nl; l++)
			lv[l] = surf_array_in(st, mp->level[l]);
		break;
	}
	default: {      /* device memory: one level */
		unsigned es = surf_format_bytes(o->format, o->channels);
		bool lin = o->rtype == TEX_RES_LINEAR;
		size_t w = lin ? o->bytes / es : o->width, h = lin ? 1 : o->height;
		size_t bytes = lin ? o->bytes : o->pitch * (h - 1) + w * es;
		const uint8_t *p = mem_host(m, o->dptr, bytes);
		if (!p) {
			snprintf(why, n, "the device memory of this texture, [0x%llx, +%zu), is no longer allocated",
				 (unsigned long long)o->dptr, bytes);
			return -1;
		}
		v->kind = lin ? PTXVM_ARRAY_1D : PTXVM_ARRAY_2D;
		v->linear = lin;
		v->format = o->format;
		v->channels = o->channels;
		v->esize = (uint8_t)es;
		v->layers = 1;
		v->nlevels = 1;
		v->lv[0] = (TexLevel){ p, (uint32_t)w, (uint32_t)h, 1, lin ? w * es : o->pitch, 0, 0 };
		return 0;
	}
	}
	const SurfArray *a = lv[0];
	v->kind = a->kind;
	v->format = a->format;
	v->channels = a->channels;
	v->esize = (uint8_t)a->esize;
	v->layers = a->layers;
	v->nlevels = (uint8_t)nl;
	for (unsigned l = 0; l < nl; l++) {
		const SurfArray *b = lv[l];
		size_t row = (size_t)b->width * b->esize;
		v->lv[l] = (TexLevel){ b->data, b->width, b->height, b->depth, row, row * b->height,
				       row * b->height * b->depth };
	}
	return 0;
}

/* CUDA's rules on the sampling state, in one place (docs/TEXTURES.md):
 * texels of 8- and 16-bit integers read as normalized floats in that read
 * mode; linear filtering only where the result is floating point; wrap
 * and mirror only with normalized coordinates (else clamp); linear memory
 * is read texel by texel, zero outside. */
static void view_rules(TexView *v, const TexObj *o)
{
	TexSampler *s = &v->s;
	for (int k = 0; k < 3; k++)
		if (!s->normalized && (s->addr[k] == TEX_WRAP || s->addr[k] == TEX_MIRROR))
			s->addr[k] = TEX_CLAMP;
	if (s->max_aniso < 1)
		s->max_aniso = 1;
	if (!o)
		return;         /* a description only: no texels */
	unsigned f = v->format;
	bool small_int = f == PTXVM_FORMAT_U8 || f == PTXVM_FORMAT_U16 || f == PTXVM_FORMAT_S8 ||
			 f == PTXVM_FORMAT_S16;
	v->norm = (o && o->read_norm && small_int) || f >= PTXVM_FORMAT_UNORM8;
	v->srgb = o && o->srgb && v->norm && (f == PTXVM_FORMAT_U8 || f == PTXVM_FORMAT_UNORM8);
	v->fresult = v->norm || f == PTXVM_FORMAT_F16 || f == PTXVM_FORMAT_F32;
	if (!v->fresult) {
		s->filter = s->mipfilter = 0;
		s->max_aniso = 1;
	}
	if (v->linear) {
		s->filter = s->mipfilter = 0;
		s->normalized = 0;
		for (int k = 0; k < 3; k++)
			s->addr[k] = TEX_BORDER;
		memset(s->border, 0, sizeof s->border);
	}
}

int tex_resolve(const SurfView *t, const MemView *m, uint64_t h, uint64_t smp, bool sample, TexView *v,
		char *why, size_t n)
{
	memset(v, 0, sizeof *v);
	uint64_t hh;
	const TexObj *o = lookup(t, m, h, &hh), *res;
	if (!o || o->sampler_only) {
		snprintf(why, n, "0x%llx is not a texture object", (unsigned long long)h);
		return -1;
	}
	if (sampler_of(t, o, &v->s, &res, why, n))
		return -1;
	if (!res) {
		if (sample) {
			snprintf(why, n, "the texture reference has only its static description: bind it to a texture");
			return -1;
		}
		v->q = o->q;
	} else {
		if (view_resource(t, m, res, v, why, n))
			return -1;
		v->has_res = 1;
	}
	if (smp) {      /* independent mode: the sampler object samples */
		const TexObj *so = lookup(t, m, smp, &hh), *sres;
		TexSampler ss;
		if (!so || !so->sampler_only) {
			snprintf(why, n, "0x%llx is not a sampler object", (unsigned long long)smp);
			return -1;
		}
		if (sampler_of(t, so, &ss, &sres, why, n))
			return -1;
		v->force_unnorm = !ss.normalized;
		ss.normalized = v->s.normalized && ss.normalized;
		v->s = ss;
		v->independent = 1;
	}
	view_rules(v, res);
	return 0;
}

int tex_resolve_sampler(const SurfView *t, const MemView *m, uint64_t h, TexView *v, char *why, size_t n)
{
	memset(v, 0, sizeof *v);
	uint64_t hh;
	const TexObj *o = lookup(t, m, h, &hh), *res;
	if (!o || !o->sampler_only) {
		snprintf(why, n, "0x%llx is not a sampler object", (unsigned long long)h);
		return -1;
	}
	if (sampler_of(t, o, &v->s, &res, why, n))
		return -1;
	v->force_unnorm = !v->s.normalized;
	v->independent = 1;
	v->fresult = 1;
	return 0;
}

bool tex_is_type(const SurfView *t, uint64_t h, int type)
{
	if (type == 2)
		return surf_lookup(t, h) != NULL;
	const TexObj *o = tex_obj_in(t, h);
	return o && (o->sampler_only != 0) == (type == 1);
}

const char *tex_geom_check(const TexView *v, unsigned g)
{
	static const uint8_t want[] = { [TEX_G1D] = PTXVM_ARRAY_1D, [TEX_G2D] = PTXVM_ARRAY_2D,
					[TEX_G3D] = PTXVM_ARRAY_3D, [TEX_GA1D] = PTXVM_ARRAY_1D_LAYERED,
					[TEX_GA2D] = PTXVM_ARRAY_2D_LAYERED, [TEX_GCUBE] = PTXVM_ARRAY_CUBEMAP,
					[TEX_GACUBE] = PTXVM_ARRAY_CUBEMAP_LAYERED };
	static const char *const why[] = {
		"a 1D geometry on a texture that is not 1D", "a 2D geometry on a texture that is not 2D",
		"a 3D geometry on a texture that is not 3D", "an a1d geometry on a texture that is not 1D layered",
		"an a2d geometry on a texture that is not 2D layered", "a cube geometry on a texture that is not a cubemap",
		"an acube geometry on a texture that is not a layered cubemap" };
	return g < NELEM(want) && want[g] == v->kind ? NULL : g < NELEM(why) ? why[g] : "an unknown geometry";
}

uint32_t tex_query(const TexView *v, unsigned field, int level)
{
	const TexSampler *s = &v->s;
	static const uint8_t ptx_addr[] = { [TEX_WRAP] = 0, [TEX_MIRROR] = 1, [TEX_CLAMP_OGL] = 2, [TEX_CLAMP] = 3,
					    [TEX_BORDER] = 4 };  /* PTX's enum: wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border */
	switch (field) {
	case TEX_Q_NORMALIZED: return s->normalized;
	case TEX_Q_FORCE_UNNORM: return v->force_unnorm;
	case TEX_Q_FILTER: return s->filter;
	case TEX_Q_ADDR0: case TEX_Q_ADDR1: case TEX_Q_ADDR2: return ptx_addr[s->addr[field - TEX_Q_ADDR0]];
	}
	if (!v->has_res)
		return v->q && field < TEX_Q_DESC && level <= 0 ? v->q[field] : 0;
	const TexLevel *lv = &v->lv[level > 0 ? level : 0];
	bool layered = v->kind == PTXVM_ARRAY_1D_LAYERED || v->kind == PTXVM_ARRAY_2D_LAYERED ||
		       v->kind == PTXVM_ARRAY_CUBEMAP_LAYERED;
	if (level >= (int)v->nlevels)
		return 0;
	switch (field) {
	case TEX_Q_WIDTH: return lv->w;
	case TEX_Q_HEIGHT: return lv->h;
	case TEX_Q_DEPTH: return lv->d;
	case TEX_Q_CDT: {
		unsigned f = v->format;
		if (v->norm && f < PTXVM_FORMAT_UNORM8)     /* an integer format read as normalized */
			f = f == PTXVM_FORMAT_U8 ? PTXVM_FORMAT_UNORM8 : f == PTXVM_FORMAT_U16 ? PTXVM_FORMAT_UNORM16
			    : f == PTXVM_FORMAT_S8 ? PTXVM_FORMAT_SNORM8 : PTXVM_FORMAT_SNORM16;
		return surf_cl_type(f);
	}
	case TEX_Q_CORDER: return surf_cl_order(v->channels);
	case TEX_Q_ARRAY_SIZE:
		return !layered ? 0 : v->kind == PTXVM_ARRAY_CUBEMAP_LAYERED ? v->layers / 6 : v->layers;
	case TEX_Q_LEVELS: return v->nlevels;
	default: return 0;      /* num_samples: no texture is multi-sample */
	}
}
