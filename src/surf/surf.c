/* surf.c: arrays, mipmapped arrays and surface objects (surf.h). */
#include "surf.h"
#include "../util/util.h"
#include "../../include/ptxvm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Frees a record no pinned version holds: an image object of any kind
 * (the texture and sampler objects of src/tex own nothing else). */
static void reclaim(CowRec *r, void *arg)
{
	HRec *h = (HRec *)r;
	(void)arg;
	if (handle_tag(h->handle) == SURF_ARRAY_TAG)
		free(((SurfArray *)h)->data);
	free(h);
}

bool surf_init(SurfTable *t)
{
	if (!handles_init(&t->h, reclaim, t))
		return false;
	pthread_mutex_init(&t->lock, NULL);
	return true;
}

static void reclaim_live(HRec *r, void *arg) { reclaim(&r->cow, arg); }

void surf_fini(SurfTable *t)
{
	handles_each(&t->h, reclaim_live, t);
	handles_fini(&t->h);
	pthread_mutex_destroy(&t->lock);
}

const SurfView *surf_pin(SurfTable *t)
{
	pthread_mutex_lock(&t->lock);
	const SurfView *v = cow_pin(&t->h.cow);
	pthread_mutex_unlock(&t->lock);
	return v;
}

void surf_unpin(SurfTable *t, const SurfView *v)
{
	pthread_mutex_lock(&t->lock);
	cow_unpin(&t->h.cow, v);
	pthread_mutex_unlock(&t->lock);
}

unsigned surf_format_bytes(unsigned format, unsigned channels)
{
	static const uint8_t size[] = {
		[PTXVM_FORMAT_U8] = 1, [PTXVM_FORMAT_U16] = 2, [PTXVM_FORMAT_U32] = 4,
		[PTXVM_FORMAT_S8] = 1, [PTXVM_FORMAT_S16] = 2, [PTXVM_FORMAT_S32] = 4,
		[PTXVM_FORMAT_F16] = 2, [PTXVM_FORMAT_F32] = 4,
		[PTXVM_FORMAT_UNORM8] = 1, [PTXVM_FORMAT_UNORM16] = 2,
		[PTXVM_FORMAT_SNORM8] = 1, [PTXVM_FORMAT_SNORM16] = 2,
	};
	if (format >= NELEM(size) || !size[format] || (channels != 1 && channels != 2 && channels != 4))
		return 0;
	return size[format] * channels;
}

uint32_t surf_cl_type(unsigned format)
{
	/* CL_UNSIGNED_INT8 ...; ptxvm_format order */
	static const uint16_t cl[] = { 0x10DA, 0x10DB, 0x10DC, 0x10D7, 0x10D8, 0x10D9, 0x10DD, 0x10DE,
				       0x10D2, 0x10D3, 0x10D0, 0x10D1 };
	return format < NELEM(cl) ? cl[format] : 0;
}

uint32_t surf_cl_order(unsigned channels)
{
	return channels == 1 ? 0x10B0 : channels == 2 ? 0x10B2 : 0x10B5;      /* CL_R, CL_RG, CL_RGBA */
}

int surf_shape(const ptxvm_array_desc *a, uint32_t sz[4], char *why, size_t n)
{
	if (!surf_format_bytes(a->format, a->channels)) {
		snprintf(why, n, "array format %d with %u channels: expected a ptxvm_format and 1, 2 or 4 channels",
			 (int)a->format, a->channels);
		return -1;
	}
	/* which sizes each kind uses, and CUDA's largest for sm_90 */
	size_t w = a->width, h = a->height, dp = a->depth, l = a->layers;
	size_t maxw, maxh = 1, maxd = 1, maxl = 1;
	bool need_h = false, need_d = false, need_l = false;
	switch (a->kind) {
	case PTXVM_ARRAY_1D: maxw = 32768; break;
	case PTXVM_ARRAY_2D: maxw = 131072; maxh = 65536; need_h = true; break;
	case PTXVM_ARRAY_3D: maxw = maxh = maxd = 16384; need_h = need_d = true; break;
	case PTXVM_ARRAY_1D_LAYERED: maxw = 32768; maxl = 2048; need_l = true; break;
	case PTXVM_ARRAY_2D_LAYERED: maxw = maxh = 32768; maxl = 2048; need_h = need_l = true; break;
	case PTXVM_ARRAY_CUBEMAP: maxw = maxh = 32768; need_h = true; break;
	case PTXVM_ARRAY_CUBEMAP_LAYERED: maxw = maxh = 32768; maxl = 2046 / 6; need_h = need_l = true; break;
	default:
		snprintf(why, n, "array kind %d is not a ptxvm_array_kind", (int)a->kind);
		return -1;
	}
	if (!need_h) h = h ? h : 1;
	if (!need_d) dp = dp ? dp : 1;
	if (!need_l) l = l ? l : 1;
	bool cube = a->kind == PTXVM_ARRAY_CUBEMAP || a->kind == PTXVM_ARRAY_CUBEMAP_LAYERED;
	if (!w || w > maxw || !h || h > maxh || !dp || dp > maxd || !l || l > maxl || (cube && w != h) ||
	    (!need_h && h != 1) || (!need_d && dp != 1) || (!need_l && l != 1)) {
		snprintf(why, n, "array of %zu x %zu x %zu, %zu layers: not a valid shape for its kind (sizes from 1 "
			 "to %zu x %zu x %zu, %zu layers%s; unused sizes 0 or 1)", a->width, a->height, a->depth,
			 a->layers, maxw, maxh, maxd, maxl, cube ? ", square faces" : "");
		return -1;
	}
	sz[0] = (uint32_t)w;
	sz[1] = (uint32_t)h;
	sz[2] = (uint32_t)dp;
	sz[3] = (uint32_t)(l * (cube ? 6 : 1));
	return 0;
}

/* Adds a record under the lock; 0 when out of memory (r is then freed). */
static uint64_t add(SurfTable *t, uint16_t tag, HRec *r)
{
	pthread_mutex_lock(&t->lock);
	uint64_t h = handle_add(&t->h, tag, r);
	pthread_mutex_unlock(&t->lock);
	if (!h)
		reclaim(&r->cow, t);
	return h;
}

/* A zero-filled array, not in the table yet; NULL when out of memory. */
static SurfArray *array_make(unsigned kind, unsigned format, unsigned channels, uint32_t w, uint32_t h,
			     uint32_t d, uint32_t layers)
{
	SurfArray *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	*a = (SurfArray){ .kind = (uint8_t)kind, .format = (uint8_t)format, .channels = (uint8_t)channels,
			  .esize = surf_format_bytes(format, channels), .width = w, .height = h, .depth = d,
			  .layers = layers };
	a->bytes = (size_t)a->esize * w * h * d * layers;
	a->data = calloc(a->bytes ? a->bytes : 1, 1);
	if (!a->data) {
		free(a);
		return NULL;
	}
	a->h.handle = (uint64_t)SURF_ARRAY_TAG << 48;   /* for reclaim, until added */
	return a;
}

uint64_t surf_array_new(SurfTable *t, unsigned kind, unsigned format, unsigned channels, uint32_t w,
			uint32_t h, uint32_t d, uint32_t layers)
{
	SurfArray *a = array_make(kind, format, channels, w, h, d, layers);
	return a ? add(t, SURF_ARRAY_TAG, &a->h) : 0;
}

/* Removes an array and the surface objects naming it (under the lock). */
static void array_remove(SurfTable *t, SurfArray *a)
{
	const CowVer *v = cow_latest(&t->h.cow);
	for (size_t i = 0; i < v->n; i++) {
		const SurfObj *o = v->item[i];
		if (o && handle_tag(o->h.handle) == SURF_OBJECT_TAG && o->a == a)
			handle_remove(&t->h, o->h.handle, SURF_OBJECT_TAG);
	}
	handle_remove(&t->h, a->h.handle, SURF_ARRAY_TAG);
}

bool surf_array_free(SurfTable *t, uint64_t id)
{
	pthread_mutex_lock(&t->lock);
	SurfArray *a = (SurfArray *)handle_find(&t->h, id, SURF_ARRAY_TAG);
	/* a static description is no public array; a level goes with its chain */
	bool ok = a && a->data && !a->mip;
	if (ok)
		array_remove(t, a);
	pthread_mutex_unlock(&t->lock);
	return ok;
}

size_t surf_array_bytes(SurfTable *t, uint64_t id)
{
	pthread_mutex_lock(&t->lock);
	const SurfArray *a = (const SurfArray *)handle_find(&t->h, id, SURF_ARRAY_TAG);
	size_t n = a && a->data ? a->bytes : 0;
	pthread_mutex_unlock(&t->lock);
	return n;
}

int surf_array_copy(SurfTable *t, uint64_t id, void *host, size_t bytes, bool in)
{
	/* the copy runs on a pinned version, so that a concurrent destroy
	 * waits for it to end before the data goes */
	const SurfView *v = surf_pin(t);
	const SurfArray *a = surf_array_in(v, id);
	int r = !a || !a->data ? -1 : bytes != a->bytes ? -2 : 0;
	if (r == 0 && in)
		memcpy(a->data, host, bytes);
	else if (r == 0)
		memcpy(host, a->data, bytes);
	surf_unpin(t, v);
	return r;
}

/* Removes a chain and its levels (under the lock). */
static void mip_remove(SurfTable *t, SurfMip *m)
{
	for (unsigned l = 0; l < m->nlevels; l++) {
		SurfArray *a = (SurfArray *)handle_find(&t->h, m->level[l], SURF_ARRAY_TAG);
		if (a)
			array_remove(t, a);
	}
	handle_remove(&t->h, m->h.handle, SURF_MIP_TAG);
}

uint64_t surf_mip_new(SurfTable *t, unsigned kind, unsigned format, unsigned channels, uint32_t w, uint32_t h,
		      uint32_t d, uint32_t layers, unsigned n)
{
	SurfMip *m = calloc(1, sizeof *m);
	SurfArray *lv[SURF_MAX_LEVELS] = { NULL };
	bool ok = m && n <= SURF_MAX_LEVELS;
	for (unsigned l = 0; ok && l < n; l++) {
		uint32_t lw = w >> l, lh = h >> l, ld = d >> l;
		lv[l] = array_make(kind, format, channels, lw ? lw : 1, lh ? lh : 1, ld ? ld : 1, layers);
		ok = lv[l] != NULL;
	}
	uint64_t id = 0;
	unsigned added = 0;
	pthread_mutex_lock(&t->lock);
	if (ok)
		id = handle_add(&t->h, SURF_MIP_TAG, &m->h);
	bool in_table = id != 0;
	for (; id && added < n; added++) {
		lv[added]->mip = id;
		if (!(m->level[added] = handle_add(&t->h, SURF_ARRAY_TAG, &lv[added]->h)))
			break;
		m->nlevels = added + 1;
	}
	if (id && added < n) {          /* out of memory: undo (reclaims what was added) */
		mip_remove(t, m);
		id = 0;
	}
	pthread_mutex_unlock(&t->lock);
	if (!id) {
		for (unsigned l = added; l < n; l++)
			if (lv[l])
				reclaim(&lv[l]->h.cow, t);
		if (!in_table)
			free(m);
	}
	return id;
}

int surf_mip_level(SurfTable *t, uint64_t id, unsigned l, uint64_t *array)
{
	pthread_mutex_lock(&t->lock);
	const SurfMip *m = (const SurfMip *)handle_find(&t->h, id, SURF_MIP_TAG);
	int n = m ? (int)m->nlevels : -1;
	*array = m && l < m->nlevels ? m->level[l] : 0;
	pthread_mutex_unlock(&t->lock);
	return n;
}

bool surf_mip_free(SurfTable *t, uint64_t id)
{
	pthread_mutex_lock(&t->lock);
	SurfMip *m = (SurfMip *)handle_find(&t->h, id, SURF_MIP_TAG);
	if (m)
		mip_remove(t, m);
	pthread_mutex_unlock(&t->lock);
	return m != NULL;
}

uint64_t surf_object_new(SurfTable *t, uint64_t id)
{
	SurfObj *o = calloc(1, sizeof *o);
	if (!o)
		return 0;
	o->h.handle = (uint64_t)SURF_OBJECT_TAG << 48;
	pthread_mutex_lock(&t->lock);
	SurfArray *a = (SurfArray *)handle_find(&t->h, id, SURF_ARRAY_TAG);
	uint64_t h = 0;
	if (a && a->data) {
		o->a = a;
		h = handle_add(&t->h, SURF_OBJECT_TAG, &o->h);
	}
	pthread_mutex_unlock(&t->lock);
	if (!h)
		free(o);
	return h;
}

bool surf_object_free(SurfTable *t, uint64_t handle)
{
	pthread_mutex_lock(&t->lock);
	const SurfObj *o = (const SurfObj *)handle_find(&t->h, handle, SURF_OBJECT_TAG);
	bool ok = o && o->a->data && handle_remove(&t->h, handle, SURF_OBJECT_TAG);
	pthread_mutex_unlock(&t->lock);
	return ok;
}

bool surf_object_valid(SurfTable *t, uint64_t handle)
{
	pthread_mutex_lock(&t->lock);
	bool ok = handle_find(&t->h, handle, SURF_OBJECT_TAG) != NULL;
	pthread_mutex_unlock(&t->lock);
	return ok;
}

uint64_t surf_static_new(SurfTable *t, const uint32_t q[7])
{
	SurfArray *a = calloc(1, sizeof *a);
	SurfObj *o = calloc(1, sizeof *o);
	if (!a || !o) {
		free(a);
		free(o);
		return 0;
	}
	memcpy(a->q, q, sizeof a->q);
	o->a = a;
	pthread_mutex_lock(&t->lock);
	uint64_t h = handle_add(&t->h, SURF_ARRAY_TAG, &a->h) ? handle_add(&t->h, SURF_OBJECT_TAG, &o->h) : 0;
	if (!h && a->h.handle)
		handle_remove(&t->h, a->h.handle, SURF_ARRAY_TAG);     /* reclaims a */
	else if (!h)
		free(a);
	pthread_mutex_unlock(&t->lock);
	if (!h)
		free(o);
	return h;
}

void surf_static_free(SurfTable *t, uint64_t handle)
{
	pthread_mutex_lock(&t->lock);
	const SurfObj *o = (const SurfObj *)handle_find(&t->h, handle, SURF_OBJECT_TAG);
	if (o && !o->a->data) {
		uint64_t ah = o->a->h.handle;
		handle_remove(&t->h, handle, SURF_OBJECT_TAG);
		handle_remove(&t->h, ah, SURF_ARRAY_TAG);
	}
	pthread_mutex_unlock(&t->lock);
}

/* SURF_AT with at->off; SURF_NOTHING: loads read 0, stores and reductions
 * are dropped (.zero outside, .a1d on a 2D layered array); the rest are
 * faults, at->x .. at->layer saying where. */
int surf_locate(const SurfArray *a, int geom, const int32_t co[4], unsigned bytes, unsigned xscale, int mode,
		SurfAt *at)
{
	int64_t x = (int64_t)co[geom == SURF_GA1D || geom == SURF_GA2D] * xscale, y = 0, z = 0, layer = 0;
	if (geom == SURF_G2D || geom == SURF_G3D)
		y = co[1];
	if (geom == SURF_G3D)
		z = co[2];
	if (geom == SURF_GA2D)
		y = co[2];
	if (geom == SURF_GA1D || geom == SURF_GA2D)
		layer = (uint16_t)co[0];        /* an H200 reads layer 0x80000000 as 0 */
	*at = (SurfAt){ x, y, z, layer, 0 };
	if (bytes > a->esize)
		return SURF_WIDE;
	if (geom == SURF_GA1D && a->kind == PTXVM_ARRAY_2D_LAYERED)
		return SURF_NOTHING;            /* whatever x and the mode, as on an H200 */
	if (x % bytes)
		return SURF_MISALIGNED;         /* before the bounds, as on an H200 */
	int64_t row = (int64_t)a->width * a->esize;
	if (!(x >= 0 && x + bytes <= row && y >= 0 && y < a->height && z >= 0 && z < a->depth && layer < a->layers)) {
		if (mode == SURF_ZERO)
			return SURF_NOTHING;
		if (mode != SURF_CLAMP)
			return SURF_OUTSIDE;
		at->x = x < 0 ? 0 : x > row - bytes ? row - bytes : x;
		at->y = y < 0 ? 0 : y >= a->height ? a->height - 1 : y;
		at->z = z < 0 ? 0 : z >= a->depth ? a->depth - 1 : z;
		at->layer = layer >= a->layers ? a->layers - 1 : layer;
	}
	at->off = (((size_t)at->layer * a->depth + (size_t)at->z) * a->height + (size_t)at->y) * (size_t)row +
		  (size_t)at->x;
	return SURF_AT;
}
