/* surf.c: arrays and surface objects (surf.h). */
#include "surf.h"
#include "../util/util.h"
#include "../../include/ptxvm.h"

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
			  surf_format_bytes(format, channels), w, h, d, layers, NULL, 0, { 0 } };
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

bool surf_array_free(SurfTable *t, uint64_t id)
{
	SurfArray *a = surf_array(t, id);
	if (!a)
		return false;
	uint32_t n = (uint32_t)(id & 0xffffffffu);
	for (size_t i = 0; i < t->nsurf; i++)
		if (t->surf[i] == n)
			t->surf[i] = 0;
	t->arr[n - 1] = NULL;
	free(a->data);
	free(a);
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
