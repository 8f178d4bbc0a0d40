/* surf.c: arrays and surface objects (surf.h). */
#include "surf.h"
#include "../util/util.h"
#include "../../include/ptxvm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void surf_init(SurfTable *t) { memset(t, 0, sizeof *t); }

void surf_fini(SurfTable *t)
{
	for (size_t i = 0; i < t->narr; i++)
		if (t->arr[i]) {
			free(t->arr[i]->data);
			free(t->arr[i]);
		}
	free(t->arr);
	free(t->surf);
	for (size_t i = 0; i < t->nmip; i++)
		free(t->mip[i]);
	free(t->mip);
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

SurfArray *surf_array(const SurfTable *t, uint64_t id)
{
	if ((id & 0xffff000000000000ull) != SURF_ARRAY_TAG)
		return NULL;
	uint64_t i = (id & 0xffffffffffffull) - 1;
	return i < t->narr ? t->arr[i] : NULL;
}

const SurfArray *surf_lookup(const SurfTable *t, uint64_t handle)
{
	if ((handle & 0xffff000000000000ull) != SURF_OBJECT_TAG)
		return NULL;
	uint64_t i = (handle & 0xffffffffffffull) - 1;
	if (i >= t->nsurf || !t->surf[i])
		return NULL;
	return surf_array(t, SURF_ARRAY_TAG | t->surf[i]);
}

uint64_t surf_array_new(SurfTable *t, unsigned kind, unsigned format, unsigned channels, uint32_t w,
			uint32_t h, uint32_t d, uint32_t layers)
{
	SurfArray *a = calloc(1, sizeof *a);
	if (!a)
		return 0;
	*a = (SurfArray){ (uint8_t)kind, (uint8_t)format, (uint8_t)channels,
			  surf_format_bytes(format, channels), w, h, d, layers, NULL, 0, { 0 }, 0 };
	a->bytes = (size_t)a->esize * w * h * d * layers;
	a->data = calloc(a->bytes ? a->bytes : 1, 1);
	if (!a->data) {
		free(a);
		return 0;
	}
	t->arr = xrealloc(t->arr, (t->narr + 1) * sizeof *t->arr);
	t->arr[t->narr++] = a;
	return SURF_ARRAY_TAG | t->narr;
}

static void array_free(SurfTable *t, uint64_t id, SurfArray *a)
{
	uint32_t n = (uint32_t)(id & 0xffffffffu);
	for (size_t i = 0; i < t->nsurf; i++)
		if (t->surf[i] == n)
			t->surf[i] = 0;
	t->arr[n - 1] = NULL;
	free(a->data);
	free(a);
}

bool surf_array_free(SurfTable *t, uint64_t id)
{
	SurfArray *a = surf_array(t, id);
	if (!a || a->mip)
		return false;
	array_free(t, id, a);
	return true;
}

uint64_t surf_mip_new(SurfTable *t, unsigned kind, unsigned format, unsigned channels, uint32_t w, uint32_t h,
		      uint32_t d, uint32_t layers, unsigned n)
{
	SurfMip *m = calloc(1, sizeof *m);
	if (!m)
		return 0;
	t->mip = xrealloc(t->mip, (t->nmip + 1) * sizeof *t->mip);
	t->mip[t->nmip++] = m;
	uint64_t id = SURF_MIP_TAG | t->nmip;
	for (unsigned l = 0; l < n; l++) {
		uint32_t lw = w >> l, lh = h >> l, ld = d >> l;
		uint64_t a = surf_array_new(t, kind, format, channels, lw ? lw : 1, lh ? lh : 1, ld ? ld : 1,
					    layers);
		if (!a) {
			surf_mip_free(t, id);
			return 0;
		}
		surf_array(t, a)->mip = (uint32_t)t->nmip;
		m->level[m->nlevels++] = a;
	}
	return id;
}

const SurfMip *surf_mip(const SurfTable *t, uint64_t id)
{
	if ((id & 0xffff000000000000ull) != SURF_MIP_TAG)
		return NULL;
	uint64_t i = (id & 0xffffffffffffull) - 1;
	return i < t->nmip ? t->mip[i] : NULL;
}

bool surf_mip_free(SurfTable *t, uint64_t id)
{
	const SurfMip *m = surf_mip(t, id);
	if (!m)
		return false;
	for (unsigned l = 0; l < m->nlevels; l++)
		array_free(t, m->level[l], surf_array(t, m->level[l]));
	t->mip[(id & 0xffffffffffffull) - 1] = NULL;
	free((void *)m);
	return true;
}

uint64_t surf_object_new(SurfTable *t, uint64_t id)
{
	if (!surf_array(t, id))
		return 0;
	t->surf = xrealloc(t->surf, (t->nsurf + 1) * sizeof *t->surf);
	t->surf[t->nsurf++] = (uint32_t)(id & 0xffffffffu);
	return SURF_OBJECT_TAG | t->nsurf;
}

bool surf_object_free(SurfTable *t, uint64_t handle)
{
	if (!surf_lookup(t, handle))
		return false;
	t->surf[(handle & 0xffffffffffffull) - 1] = 0;
	return true;
}

uint64_t surf_static_new(SurfTable *t, const uint32_t q[7])
{
	SurfArray *a = calloc(1, sizeof *a);
	if (!a)
		return 0;
	memcpy(a->q, q, sizeof a->q);
	t->arr = xrealloc(t->arr, (t->narr + 1) * sizeof *t->arr);
	t->arr[t->narr++] = a;
	return surf_object_new(t, SURF_ARRAY_TAG | t->narr);
}
