/* images.c: CUDA arrays (cuArrayCreate, cuArray3DCreate with the layered,
 * cubemap and surface flags), mipmapped arrays, and texture and surface
 * objects, over the C API's arrays, surfaces and textures.  A CUarray is
 * the C API's array id; the driver keeps each array's descriptor for
 * cuArrayGetDescriptor and for the read mode of textures over it. */
#include "cu.h"

#include <stdlib.h>
#include <string.h>

typedef struct CUDA_ARRAY_DESCRIPTOR {
	size_t Width, Height;
	int Format;
	unsigned NumChannels;
} CUDA_ARRAY_DESCRIPTOR;

typedef struct CUDA_ARRAY3D_DESCRIPTOR {
	size_t Width, Height, Depth;
	int Format;
	unsigned NumChannels;
	unsigned Flags;
} CUDA_ARRAY3D_DESCRIPTOR;

enum { CUDA_ARRAY3D_LAYERED = 0x01, CUDA_ARRAY3D_SURFACE_LDST = 0x02, CUDA_ARRAY3D_CUBEMAP = 0x04,
       CUDA_ARRAY3D_TEXTURE_GATHER = 0x08, CUDA_ARRAY3D_DEPTH_TEXTURE = 0x10,
       CUDA_ARRAY3D_COLOR_ATTACHMENT = 0x20 };

/* ---- the arrays the driver made ------------------------------------------------ */
typedef struct Known {
	uint64_t id;            /* array or mipmapped array */
	CUDA_ARRAY3D_DESCRIPTOR desc;
	struct Known *next;
} Known;
static Known *known;
static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;

static int remember(uint64_t id, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	Known *k = malloc(sizeof *k);
	if (!k)
		return 0;
	*k = (Known){ id, *d, NULL };
	pthread_mutex_lock(&known_lock);
	k->next = known;
	known = k;
	pthread_mutex_unlock(&known_lock);
	return 1;
}

static int recall(uint64_t id, CUDA_ARRAY3D_DESCRIPTOR *d)
{
	pthread_mutex_lock(&known_lock);
	Known *k = known;
	while (k && k->id != id)
		k = k->next;
	if (k && d)
		*d = k->desc;
	pthread_mutex_unlock(&known_lock);
	return k != NULL;
}

static void forget(uint64_t id)
{
	pthread_mutex_lock(&known_lock);
	for (Known **p = &known; *p; p = &(*p)->next)
		if ((*p)->id == id) {
			Known *k = *p;
			*p = k->next;
			free(k);
			break;
		}
	pthread_mutex_unlock(&known_lock);
}

/* CUarray_format and a channel count to the C API's; 0 when ptxvm has no
 * such format. */
static int format(int f, unsigned ch, ptxvm_format *out, unsigned *channels)
{
	static const struct { int cu; ptxvm_format f; } plain[] = {
		{ 0x01, PTXVM_FORMAT_U8 }, { 0x02, PTXVM_FORMAT_U16 }, { 0x03, PTXVM_FORMAT_U32 },
		{ 0x08, PTXVM_FORMAT_S8 }, { 0x09, PTXVM_FORMAT_S16 }, { 0x0a, PTXVM_FORMAT_S32 },
		{ 0x10, PTXVM_FORMAT_F16 }, { 0x20, PTXVM_FORMAT_F32 },
	};
	for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
		if (plain[i].cu == f) {
			*out = plain[i].f;
			*channels = ch;
			return ch == 1 || ch == 2 || ch == 4;
		}
	/* CU_AD_FORMAT_{UNORM,SNORM}_INT{8,16}X{1,2,4}: 0xc0 .. 0xcb */
	if (f >= 0xc0 && f <= 0xcb) {
		static const ptxvm_format nf[4] = { PTXVM_FORMAT_UNORM8, PTXVM_FORMAT_UNORM16, PTXVM_FORMAT_SNORM8,
						    PTXVM_FORMAT_SNORM16 };
		*out = nf[(f - 0xc0) / 3];
		*channels = 1u << ((f - 0xc0) % 3);
		return ch == *channels || ch == 0;
	}
	return 0;
}

/* A 3D descriptor to the C API's array description; a message and 0 when
 * ptxvm cannot make it. */
static int shape(const CUDA_ARRAY3D_DESCRIPTOR *d, ptxvm_array_desc *a, const char *what)
{
	memset(a, 0, sizeof *a);
	if (!format(d->Format, d->NumChannels, &a->format, &a->channels)) {
		cu_warn("%s: format 0x%x with %u channels is not supported", what, (unsigned)d->Format, d->NumChannels);
		return 0;
	}
	unsigned ok = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
		      CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_COLOR_ATTACHMENT;
	if (d->Flags & ~ok) {
		cu_warn("%s: array flags 0x%x are not supported (depth textures, sparse and deferred-mapping arrays)",
			what, d->Flags & ~ok);
		return 0;
	}
	a->width = d->Width;
	int layered = (d->Flags & CUDA_ARRAY3D_LAYERED) != 0, cube = (d->Flags & CUDA_ARRAY3D_CUBEMAP) != 0;
	if (cube) {
		if (d->Width != d->Height || !d->Depth || d->Depth % 6 || (!layered && d->Depth != 6))
			return 0;
		a->kind = layered ? PTXVM_ARRAY_CUBEMAP_LAYERED : PTXVM_ARRAY_CUBEMAP;
		a->height = d->Height;
		a->layers = layered ? d->Depth / 6 : 0;
	} else if (layered) {
		a->kind = d->Height ? PTXVM_ARRAY_2D_LAYERED : PTXVM_ARRAY_1D_LAYERED;
		a->height = d->Height;
		a->layers = d->Depth;
	} else if (d->Depth) {
		if (!d->Height)
			return 0;
		a->kind = PTXVM_ARRAY_3D;
		a->height = d->Height;
		a->depth = d->Depth;
	} else {
		a->kind = d->Height ? PTXVM_ARRAY_2D : PTXVM_ARRAY_1D;
		a->height = d->Height;
	}
	return 1;
}

CUresult cuArray3DCreate_v2(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	CTX_CALL(c);
	ptxvm_array_desc a;
	if (!out || !d || !shape(d, &a, "cuArray3DCreate"))
		return CUDA_ERROR_INVALID_VALUE;
	uint64_t id;
	CUresult r = cu_result(c, ptxvm_array_create(cu_dev.dev, &a, &id), "cuArray3DCreate");
	if (r)
		return r;
	if (!remember(id, d)) {
		ptxvm_array_destroy(cu_dev.dev, id);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*out = (CUarray)(uintptr_t)id;
	return CUDA_SUCCESS;
}

CUresult cuArrayCreate_v2(CUarray *out, const CUDA_ARRAY_DESCRIPTOR *d)
{
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_ARRAY3D_DESCRIPTOR d3 = { d->Width, d->Height, 0, d->Format, d->NumChannels, 0 };
	return cuArray3DCreate_v2(out, &d3);
}

CUresult cuArrayDestroy(CUarray a)
{
	CTX_CALL(c);
	uint64_t id = (uint64_t)(uintptr_t)a;
	if (!recall(id, NULL))
		return CUDA_ERROR_INVALID_HANDLE;
	forget(id);
	return cu_result(c, ptxvm_array_destroy(cu_dev.dev, id), "cuArrayDestroy");
}

CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *d, CUarray a)
{
	CTX_CALL(c);
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	return recall((uint64_t)(uintptr_t)a, d) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR *d, CUarray a)
{
	CTX_CALL(c);
	CUDA_ARRAY3D_DESCRIPTOR d3;
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	if (!recall((uint64_t)(uintptr_t)a, &d3))
		return CUDA_ERROR_INVALID_HANDLE;
	if (d3.Depth)
		return CUDA_ERROR_INVALID_VALUE;        /* a 3D or layered array, as the driver has it */
	*d = (CUDA_ARRAY_DESCRIPTOR){ d3.Width, d3.Height, d3.Format, d3.NumChannels };
	return CUDA_SUCCESS;
}

/* ---- mipmapped arrays ------------------------------------------------------------ */
CUresult cuMipmappedArrayCreate(void **out, const CUDA_ARRAY3D_DESCRIPTOR *d, unsigned levels)
{
	CTX_CALL(c);
	ptxvm_array_desc a;
	if (!out || !d || !shape(d, &a, "cuMipmappedArrayCreate"))
		return CUDA_ERROR_INVALID_VALUE;
	uint64_t id;
	CUresult r = cu_result(c, ptxvm_mipmapped_array_create(cu_dev.dev, &a, levels, &id), "cuMipmappedArrayCreate");
	if (r)
		return r;
	if (!remember(id, d)) {
		ptxvm_mipmapped_array_destroy(cu_dev.dev, id);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*out = (void *)(uintptr_t)id;
	return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayGetLevel(CUarray *out, void *m, unsigned level)
{
	CTX_CALL(c);
	CUDA_ARRAY3D_DESCRIPTOR d;
	uint64_t mid = (uint64_t)(uintptr_t)m, id;
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (!recall(mid, &d))
		return CUDA_ERROR_INVALID_HANDLE;
	CUresult r = cu_result(c, ptxvm_mipmapped_array_level(cu_dev.dev, mid, level, &id), "cuMipmappedArrayGetLevel");
	if (r)
		return r;
	/* the level's descriptor, for copies and textures that name it */
	if (!recall(id, NULL)) {
		d.Width = d.Width >> level ? d.Width >> level : 1;
		if (d.Height && !(d.Flags & CUDA_ARRAY3D_CUBEMAP))
			d.Height = d.Height >> level ? d.Height >> level : 1;
		else if (d.Height)
			d.Height = d.Width;
		if (d.Depth && !(d.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)))
			d.Depth = d.Depth >> level ? d.Depth >> level : 1;
		remember(id, &d);
	}
	*out = (CUarray)(uintptr_t)id;
	return CUDA_SUCCESS;
}

CUresult cuMipmappedArrayDestroy(void *m)
{
	CTX_CALL(c);
	uint64_t mid = (uint64_t)(uintptr_t)m;
	if (!recall(mid, NULL))
		return CUDA_ERROR_INVALID_HANDLE;
	for (unsigned l = 0;; l++) {     /* the levels' records go with the chain */
		uint64_t id;
		if (ptxvm_mipmapped_array_level(cu_dev.dev, mid, l, &id))
			break;
		forget(id);
	}
	forget(mid);
	return cu_result(c, ptxvm_mipmapped_array_destroy(cu_dev.dev, mid), "cuMipmappedArrayDestroy");
}

/* ---- texture and surface objects ---------------------------------------------------- */
typedef struct CUDA_RESOURCE_DESC {
	int resType;
	union {
		struct { CUarray hArray; } array;
		struct { void *hMipmappedArray; } mipmap;
		struct { CUdeviceptr devPtr; int format; unsigned numChannels; size_t sizeInBytes; } linear;
		struct { CUdeviceptr devPtr; int format; unsigned numChannels; size_t width, height, pitchInBytes; } pitch2D;
		struct { int reserved[32]; } reserved;
	} res;
	unsigned flags;
} CUDA_RESOURCE_DESC;

typedef struct CUDA_TEXTURE_DESC {
	int addressMode[3];
	int filterMode;
	unsigned flags;
	unsigned maxAnisotropy;
	int mipmapFilterMode;
	float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
	float borderColor[4];
	int reserved[12];
} CUDA_TEXTURE_DESC;

enum { CU_TRSF_READ_AS_INTEGER = 0x01, CU_TRSF_NORMALIZED_COORDINATES = 0x02, CU_TRSF_SRGB = 0x10,
       CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION = 0x20, CU_TRSF_SEAMLESS_CUBEMAP = 0x40 };

/* Reads of 8- and 16-bit integer elements are normalized to float unless
 * CU_TRSF_READ_AS_INTEGER; other formats always read as they are. */
static ptxvm_read_mode read_mode(ptxvm_format f, unsigned flags)
{
	int small = f == PTXVM_FORMAT_U8 || f == PTXVM_FORMAT_U16 || f == PTXVM_FORMAT_S8 || f == PTXVM_FORMAT_S16;
	return small && !(flags & CU_TRSF_READ_AS_INTEGER) ? PTXVM_READ_NORMALIZED_FLOAT : PTXVM_READ_ELEMENT_TYPE;
}

CUresult cuTexObjectCreate(unsigned long long *out, const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *td,
			   const void *view)
{
	CTX_CALL(c);
	if (!out || !rd || !td)
		return CUDA_ERROR_INVALID_VALUE;
	if (view) {
		cu_warn("cuTexObjectCreate: resource views are not supported");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	ptxvm_resource_desc r = { .type = (ptxvm_resource_type)rd->resType };
	CUDA_ARRAY3D_DESCRIPTOR ad;
	ptxvm_format f = PTXVM_FORMAT_U8;
	unsigned ch;
	switch (rd->resType) {
	case PTXVM_RESOURCE_ARRAY:
	case PTXVM_RESOURCE_MIPMAPPED_ARRAY: {
		uint64_t id = (uint64_t)(uintptr_t)(rd->resType == PTXVM_RESOURCE_ARRAY ? rd->res.array.hArray
										 : rd->res.mipmap.hMipmappedArray);
		if (!recall(id, &ad) || !format(ad.Format, ad.NumChannels, &f, &ch))
			return CUDA_ERROR_INVALID_HANDLE;
		if (rd->resType == PTXVM_RESOURCE_ARRAY)
			r.array = id;
		else
			r.mipmap = id;
		break;
	}
	case PTXVM_RESOURCE_LINEAR:
		if (!format(rd->res.linear.format, rd->res.linear.numChannels, &f, &ch))
			return CUDA_ERROR_INVALID_VALUE;
		r.dptr = rd->res.linear.devPtr;
		r.format = f;
		r.channels = ch;
		r.bytes = rd->res.linear.sizeInBytes;
		break;
	case PTXVM_RESOURCE_PITCH2D:
		if (!format(rd->res.pitch2D.format, rd->res.pitch2D.numChannels, &f, &ch))
			return CUDA_ERROR_INVALID_VALUE;
		r.dptr = rd->res.pitch2D.devPtr;
		r.format = f;
		r.channels = ch;
		r.width = rd->res.pitch2D.width;
		r.height = rd->res.pitch2D.height;
		r.pitch = rd->res.pitch2D.pitchInBytes;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	ptxvm_texture_desc t = {
		.filter_mode = (ptxvm_filter_mode)td->filterMode,
		.read_mode = read_mode(f, td->flags),
		.srgb = (td->flags & CU_TRSF_SRGB) != 0,
		.normalized_coords = (td->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0,
		.max_anisotropy = td->maxAnisotropy,
		.mipmap_filter_mode = (ptxvm_filter_mode)td->mipmapFilterMode,
		.mipmap_level_bias = td->mipmapLevelBias,
		.min_mipmap_level_clamp = td->minMipmapLevelClamp,
		.max_mipmap_level_clamp = td->maxMipmapLevelClamp,
		.disable_trilinear_optimization = (td->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) != 0,
		.seamless_cubemap = (td->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0,
	};
	for (int i = 0; i < 3; i++)
		t.address_mode[i] = (ptxvm_address_mode)td->addressMode[i];
	memcpy(t.border_color, td->borderColor, sizeof t.border_color);
	uint64_t h;
	CUresult res = cu_result(c, ptxvm_texture_create(cu_dev.dev, &r, &t, &h), "cuTexObjectCreate");
	if (res == CUDA_ERROR_INVALID_VALUE)
		cu_warn("cuTexObjectCreate: %s", ptxvm_device_message(cu_dev.dev));
	if (!res)
		*out = h;
	return res;
}

CUresult cuTexObjectDestroy(unsigned long long t)
{
	CTX_CALL(c);
	ptxvm_result r = ptxvm_texture_destroy(cu_dev.dev, t);
	return r == PTXVM_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : cu_result(c, r, "cuTexObjectDestroy");
}

CUresult cuSurfObjectCreate(unsigned long long *out, const CUDA_RESOURCE_DESC *rd)
{
	CTX_CALL(c);
	if (!out || !rd || rd->resType != PTXVM_RESOURCE_ARRAY)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_ARRAY3D_DESCRIPTOR ad;
	uint64_t id = (uint64_t)(uintptr_t)rd->res.array.hArray;
	if (!recall(id, &ad))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!(ad.Flags & CUDA_ARRAY3D_SURFACE_LDST)) {
		cu_warn("cuSurfObjectCreate: the array was not created with CUDA_ARRAY3D_SURFACE_LDST");
		return CUDA_ERROR_INVALID_VALUE;
	}
	uint64_t s;
	CUresult r = cu_result(c, ptxvm_surface_create(cu_dev.dev, id, &s), "cuSurfObjectCreate");
	if (!r)
		*out = s;
	return r;
}

CUresult cuSurfObjectDestroy(unsigned long long s)
{
	CTX_CALL(c);
	ptxvm_result r = ptxvm_surface_destroy(cu_dev.dev, s);
	return r == PTXVM_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : cu_result(c, r, "cuSurfObjectDestroy");
}
