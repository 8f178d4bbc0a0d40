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
	if (cube && (d->Flags & CUDA_ARRAY3D_TEXTURE_GATHER)) {
		cu_warn("%s: a cubemap cannot be a texture gather array (CUDA_ARRAY3D_TEXTURE_GATHER is for 2D arrays)", what);
		return 0;
	}
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

/* A texture of the C API for a resource and a sampler as CUDA describes
 * them; what names the caller in messages. */
static CUresult texture_make(CuCtx *c, const CUDA_RESOURCE_DESC *rd, const CUDA_TEXTURE_DESC *td, uint64_t *out,
			     const char *what)
{
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
	CUresult res = cu_result(c, ptxvm_texture_create(cu_dev.dev, &r, &t, out), what);
	if (res == CUDA_ERROR_INVALID_VALUE)
		cu_warn("%s: %s", what, ptxvm_device_message(cu_dev.dev));
	return res;
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
	uint64_t h;
	CUresult res = texture_make(c, rd, td, &h, "cuTexObjectCreate");
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
	/* An array made without CUDA_ARRAY3D_SURFACE_LDST is accepted, as an
	 * H200's driver accepts it (tests/cuda-host/surfaces.cu); what a
	 * surface instruction then does on a GPU is to confirm on hardware:
	 * here it works as on any array. */
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

/* ---- texture and surface references: module .texref/.surfref variables ---------------
 * cuModuleGetTexRef gives, for each .global .texref of a module, one
 * reference whose state (the memory bound, its format, the sampler) the
 * cuTexRef* calls set and get.  Whenever memory is bound, that state is a
 * texture object of the C API bound to the variable
 * (ptxvm_program_bind_texture), made again at each change; launches see
 * the state of the moment.  A .surfref is bound to a surface object of
 * the array cuSurfRefSetArray names.  References belong to their module
 * and are freed with it (cu_refs_release). */
typedef struct CuRef {
	CuObj obj;
	CUmodule mod;
	char *name;
	int surface;
	int bound;              /* a resource is set */
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	int format;             /* cuTexRefSetFormat: for linear and pitched memory */
	unsigned channels;
	uint64_t object;        /* the C API's texture or surface bound now; 0: none */
	struct CuRef *next;
} CuRef;

static CuRef *refs;             /* refs_lock */
static pthread_mutex_t refs_lock = PTHREAD_MUTEX_INITIALIZER;

enum { CU_TR_ADDRESS_MODE_CLAMP = 1, CU_TR_FILTER_MODE_POINT = 0, CU_TRSA_OVERRIDE_FORMAT = 1 };

static void ref_drop(void *rec) { free(((CuRef *)rec)->name); }

static void ref_unbind(CuRef *r)
{
	if (r->object)
		(r->surface ? ptxvm_surface_destroy : ptxvm_texture_destroy)(cu_dev.dev, r->object);
	r->object = 0;
}

void cu_refs_release(CUmodule mod)
{
	pthread_mutex_lock(&refs_lock);
	for (CuRef **p = &refs; *p;) {
		CuRef *r = *p;
		if (r->mod != mod) {
			p = &r->next;
			continue;
		}
		*p = r->next;
		ref_unbind(r);
		free(r->name);
		cu_obj_free(CU_HANDLE(void *, r), r->surface ? CU_KIND_SURFREF : CU_KIND_TEXREF);
	}
	pthread_mutex_unlock(&refs_lock);
}

/* The reference of a module's variable, made at the first request: the
 * variable must exist and be of the kind (the C API refuses binding to
 * anything else: NOT_FOUND). */
static CUresult ref_get(void **out, CUmodule hmod, const char *name, int surface)
{
	CTX_CALL(c);
	if (!out || !name)
		return CUDA_ERROR_INVALID_VALUE;
	ptxvm_program *p = cu_module_program(hmod);
	if (!p)
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&refs_lock);
	CuRef *r = refs;
	while (r && !(r->mod == hmod && r->surface == surface && !strcmp(r->name, name)))
		r = r->next;
	CUresult res = CUDA_SUCCESS;
	if (!r) {
		/* binding nothing (no texture; surface 0, which no surface is)
		 * tells whether the variable is there */
		ptxvm_result b = surface ? ptxvm_program_bind_surface(p, name, 0) : ptxvm_program_bind_texture(p, name, 0);
		if (b == PTXVM_ERROR_NOT_FOUND)
			res = CUDA_ERROR_NOT_FOUND;
		else if (!(r = calloc(1, sizeof *r)) || !(r->name = strdup(name)) ||
			 !cu_obj_add(r, surface ? CU_KIND_SURFREF : CU_KIND_TEXREF)) {
			if (r)
				free(r->name);
			free(r);
			r = NULL;
			res = CUDA_ERROR_OUT_OF_MEMORY;
		} else {
			r->obj.drop = ref_drop;
			r->mod = hmod;
			r->surface = surface;
			for (int i = 0; i < 3; i++)      /* unnormalized coordinates clamp */
				r->tex.addressMode[i] = CU_TR_ADDRESS_MODE_CLAMP;
			r->tex.filterMode = CU_TR_FILTER_MODE_POINT;
			r->tex.maxAnisotropy = 1;
			r->format = 0x20;       /* CU_AD_FORMAT_FLOAT, one channel */
			r->channels = 1;
			r->next = refs;
			refs = r;
		}
	}
	pthread_mutex_unlock(&refs_lock);
	if (!res)
		*out = CU_HANDLE(void *, r);
	return res;
}

typedef struct CUtexref_st *CUtexref;
typedef struct CUsurfref_st *CUsurfref;

CUresult cuModuleGetTexRef(CUtexref *out, CUmodule hmod, const char *name)
{
	return ref_get((void **)out, hmod, name, 0);
}

CUresult cuModuleGetSurfRef(CUsurfref *out, CUmodule hmod, const char *name)
{
	return ref_get((void **)out, hmod, name, 1);
}

/* The texture reference a handle names and the current context. */
#define TEXREF_CALL(r, h) CTX_CALL(c); CuRef *r = cu_obj_get(h, CU_KIND_TEXREF); if (!r) return CUDA_ERROR_INVALID_HANDLE

/* Makes the reference's texture again from its state and binds it. */
static CUresult rebind(CuCtx *c, CuRef *r, const char *what)
{
	ptxvm_program *p = cu_module_program(r->mod);
	if (!p)
		return CUDA_ERROR_INVALID_HANDLE;
	uint64_t t = 0;
	if (r->bound) {
		CUresult res = texture_make(c, &r->res, &r->tex, &t, what);
		if (res)
			return res;
	}
	CUresult res = cu_result(c, ptxvm_program_bind_texture(p, r->name, t), what);
	if (res) {
		if (t)
			ptxvm_texture_destroy(cu_dev.dev, t);
		return res;
	}
	ref_unbind(r);
	r->object = t;
	return CUDA_SUCCESS;
}

CUresult cuTexRefSetArray(CUtexref h, CUarray a, unsigned flags)
{
	TEXREF_CALL(r, h);
	if (flags & ~(unsigned)CU_TRSA_OVERRIDE_FORMAT)
		return CUDA_ERROR_INVALID_VALUE;
	if (!recall((uint64_t)(uintptr_t)a, NULL))
		return CUDA_ERROR_INVALID_HANDLE;
	CUDA_RESOURCE_DESC was = r->res;
	int wasb = r->bound;
	r->res = (CUDA_RESOURCE_DESC){ .resType = PTXVM_RESOURCE_ARRAY, .res.array.hArray = a };
	r->bound = 1;
	CUresult res = rebind(c, r, "cuTexRefSetArray");
	if (res)
		r->res = was, r->bound = wasb;
	return res;
}

CUresult cuTexRefSetMipmappedArray(CUtexref h, void *a, unsigned flags)
{
	TEXREF_CALL(r, h);
	if (flags & ~(unsigned)CU_TRSA_OVERRIDE_FORMAT)
		return CUDA_ERROR_INVALID_VALUE;
	if (!recall((uint64_t)(uintptr_t)a, NULL))
		return CUDA_ERROR_INVALID_HANDLE;
	CUDA_RESOURCE_DESC was = r->res;
	int wasb = r->bound;
	r->res = (CUDA_RESOURCE_DESC){ .resType = PTXVM_RESOURCE_MIPMAPPED_ARRAY, .res.mipmap.hMipmappedArray = a };
	r->bound = 1;
	CUresult res = rebind(c, r, "cuTexRefSetMipmappedArray");
	if (res)
		r->res = was, r->bound = wasb;
	return res;
}

/* Linear memory in the reference's format; dptr 0 unbinds.  The texture
 * starts at dptr itself: no alignment offset. */
CUresult cuTexRefSetAddress_v2(size_t *offset, CUtexref h, CUdeviceptr dptr, size_t bytes)
{
	TEXREF_CALL(r, h);
	CUDA_RESOURCE_DESC was = r->res;
	int wasb = r->bound;
	r->res = (CUDA_RESOURCE_DESC){ .resType = PTXVM_RESOURCE_LINEAR };
	r->res.res.linear.devPtr = dptr;
	r->res.res.linear.format = r->format;
	r->res.res.linear.numChannels = r->channels;
	r->res.res.linear.sizeInBytes = bytes;
	r->bound = dptr != 0;
	CUresult res = rebind(c, r, "cuTexRefSetAddress");
	if (res)
		r->res = was, r->bound = wasb;
	else if (offset)
		*offset = 0;
	return res;
}

CUresult cuTexRefSetAddress2D_v3(CUtexref h, const CUDA_ARRAY_DESCRIPTOR *d, CUdeviceptr dptr, size_t pitch)
{
	TEXREF_CALL(r, h);
	if (!d)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_RESOURCE_DESC was = r->res;
	int wasb = r->bound;
	r->res = (CUDA_RESOURCE_DESC){ .resType = PTXVM_RESOURCE_PITCH2D };
	r->res.res.pitch2D.devPtr = dptr;
	r->res.res.pitch2D.format = d->Format;
	r->res.res.pitch2D.numChannels = d->NumChannels;
	r->res.res.pitch2D.width = d->Width;
	r->res.res.pitch2D.height = d->Height;
	r->res.res.pitch2D.pitchInBytes = pitch;
	r->bound = 1;
	CUresult res = rebind(c, r, "cuTexRefSetAddress2D");
	if (res)
		r->res = was, r->bound = wasb;
	else
		r->format = d->Format, r->channels = d->NumChannels;
	return res;
}

CUresult cuTexRefSetAddress2D_v2(CUtexref h, const CUDA_ARRAY_DESCRIPTOR *d, CUdeviceptr dptr, size_t pitch)
{
	return cuTexRefSetAddress2D_v3(h, d, dptr, pitch);
}

/* A change of the sampler state: applied to the texture at once. */
static CUresult retexture(CuCtx *c, CuRef *r, const CUDA_TEXTURE_DESC *was, const char *what)
{
	if (!r->bound)
		return CUDA_SUCCESS;
	CUresult res = rebind(c, r, what);
	if (res)
		r->tex = *was;
	return res;
}

CUresult cuTexRefSetFormat(CUtexref h, int fmt, int n)
{
	TEXREF_CALL(r, h);
	ptxvm_format f;
	unsigned ch;
	if (n < 1 || !format(fmt, (unsigned)n, &f, &ch))
		return CUDA_ERROR_INVALID_VALUE;
	r->format = fmt;
	r->channels = (unsigned)n;
	if (r->bound && r->res.resType == PTXVM_RESOURCE_LINEAR) {
		r->res.res.linear.format = fmt;
		r->res.res.linear.numChannels = (unsigned)n;
		return rebind(c, r, "cuTexRefSetFormat");
	}
	return CUDA_SUCCESS;
}

/* The sampling state's fields, set (when ok: the value is valid) and got
 * by their place in CUDA_TEXTURE_DESC; the value's size must be the
 * field's. */
static CUresult texref_set(CUtexref h, bool ok, size_t off, const void *v, size_t n, const char *what)
{
	TEXREF_CALL(r, h);
	if (!ok)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_TEXTURE_DESC was = r->tex;
	memcpy((char *)&r->tex + off, v, n);
	return retexture(c, r, &was, what);
}

static CUresult texref_get(void *out, CUtexref h, bool ok, size_t off, size_t n)
{
	TEXREF_CALL(r, h);
	if (!out || !ok)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(out, (const char *)&r->tex + off, n);
	return CUDA_SUCCESS;
}

#define TEX_FIELD_SIZE(field, v) \
	(sizeof(v) * sizeof(char[sizeof(v) == sizeof(((CUDA_TEXTURE_DESC *)0)->field) ? 1 : -1]))
#define TEXREF_SET(h, ok, field, v) \
	texref_set(h, ok, offsetof(CUDA_TEXTURE_DESC, field), &(v), TEX_FIELD_SIZE(field, v), __func__)
#define TEXREF_GET(out, h, ok, field) \
	texref_get(out, h, ok, offsetof(CUDA_TEXTURE_DESC, field), TEX_FIELD_SIZE(field, *(out)))

CUresult cuTexRefSetAddressMode(CUtexref h, int dim, int mode)
{
	bool ok = dim >= 0 && dim <= 2 && mode >= 0 && mode <= 3;
	return TEXREF_SET(h, ok, addressMode[ok ? dim : 0], mode);
}

CUresult cuTexRefSetFilterMode(CUtexref h, int mode)
{
	return TEXREF_SET(h, mode >= 0 && mode <= 1, filterMode, mode);
}

CUresult cuTexRefSetMipmapFilterMode(CUtexref h, int mode)
{
	return TEXREF_SET(h, mode >= 0 && mode <= 1, mipmapFilterMode, mode);
}

CUresult cuTexRefSetMipmapLevelBias(CUtexref h, float bias)
{
	return TEXREF_SET(h, true, mipmapLevelBias, bias);
}

CUresult cuTexRefSetMipmapLevelClamp(CUtexref h, float lo, float hi)
{
	float v[2] = { lo, hi };        /* minMipmapLevelClamp, then maxMipmapLevelClamp */
	_Static_assert(offsetof(CUDA_TEXTURE_DESC, maxMipmapLevelClamp) ==
		       offsetof(CUDA_TEXTURE_DESC, minMipmapLevelClamp) + sizeof(float), "clamps are adjacent");
	return texref_set(h, true, offsetof(CUDA_TEXTURE_DESC, minMipmapLevelClamp), v, sizeof v, __func__);
}

CUresult cuTexRefSetMaxAnisotropy(CUtexref h, unsigned n)
{
	return TEXREF_SET(h, true, maxAnisotropy, n);
}

CUresult cuTexRefSetBorderColor(CUtexref h, float *color)
{
	float v[4] = { 0 };
	if (color)
		memcpy(v, color, sizeof v);
	return TEXREF_SET(h, color != NULL, borderColor, v);
}

CUresult cuTexRefSetFlags(CUtexref h, unsigned flags)
{
	unsigned allowed = CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
			 CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP;
	return TEXREF_SET(h, !(flags & ~allowed), flags, flags);
}

CUresult cuTexRefGetAddress_v2(CUdeviceptr *out, CUtexref h)
{
	TEXREF_CALL(r, h);
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (!r->bound || (r->res.resType != PTXVM_RESOURCE_LINEAR && r->res.resType != PTXVM_RESOURCE_PITCH2D))
		return CUDA_ERROR_INVALID_VALUE;        /* bound to no memory */
	*out = r->res.resType == PTXVM_RESOURCE_LINEAR ? r->res.res.linear.devPtr : r->res.res.pitch2D.devPtr;
	return CUDA_SUCCESS;
}

CUresult cuTexRefGetArray(CUarray *out, CUtexref h)
{
	TEXREF_CALL(r, h);
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (!r->bound || r->res.resType != PTXVM_RESOURCE_ARRAY)
		return CUDA_ERROR_INVALID_VALUE;
	*out = r->res.res.array.hArray;
	return CUDA_SUCCESS;
}

CUresult cuTexRefGetMipmappedArray(void **out, CUtexref h)
{
	TEXREF_CALL(r, h);
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	if (!r->bound || r->res.resType != PTXVM_RESOURCE_MIPMAPPED_ARRAY)
		return CUDA_ERROR_INVALID_VALUE;
	*out = r->res.res.mipmap.hMipmappedArray;
	return CUDA_SUCCESS;
}

CUresult cuTexRefGetAddressMode(int *out, CUtexref h, int dim)
{
	bool ok = dim >= 0 && dim <= 2;
	return TEXREF_GET(out, h, ok, addressMode[ok ? dim : 0]);
}

CUresult cuTexRefGetFilterMode(int *out, CUtexref h)
{
	return TEXREF_GET(out, h, true, filterMode);
}

CUresult cuTexRefGetFormat(int *fmt, int *n, CUtexref h)
{
	TEXREF_CALL(r, h);
	if (!fmt || !n)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_ARRAY3D_DESCRIPTOR ad;
	if (r->bound && (r->res.resType == PTXVM_RESOURCE_ARRAY || r->res.resType == PTXVM_RESOURCE_MIPMAPPED_ARRAY) &&
	    recall((uint64_t)(uintptr_t)(r->res.resType == PTXVM_RESOURCE_ARRAY ? r->res.res.array.hArray
										: r->res.res.mipmap.hMipmappedArray), &ad)) {
		*fmt = ad.Format;       /* an array's own */
		*n = (int)ad.NumChannels;
	} else {
		*fmt = r->format;
		*n = (int)r->channels;
	}
	return CUDA_SUCCESS;
}

CUresult cuTexRefGetMipmapFilterMode(int *out, CUtexref h)
{
	return TEXREF_GET(out, h, true, mipmapFilterMode);
}

CUresult cuTexRefGetMipmapLevelBias(float *out, CUtexref h)
{
	return TEXREF_GET(out, h, true, mipmapLevelBias);
}

CUresult cuTexRefGetMipmapLevelClamp(float *lo, float *hi, CUtexref h)
{
	TEXREF_CALL(r, h);
	if (!lo || !hi)
		return CUDA_ERROR_INVALID_VALUE;
	*lo = r->tex.minMipmapLevelClamp;
	*hi = r->tex.maxMipmapLevelClamp;
	return CUDA_SUCCESS;
}

CUresult cuTexRefGetMaxAnisotropy(int *out, CUtexref h)
{
	return TEXREF_GET(out, h, true, maxAnisotropy);       /* at most 16: an int holds it */
}

CUresult cuTexRefGetBorderColor(float *out, CUtexref h)
{
	return texref_get(out, h, true, offsetof(CUDA_TEXTURE_DESC, borderColor), 4 * sizeof *out);
}

CUresult cuTexRefGetFlags(unsigned *out, CUtexref h)
{
	return TEXREF_GET(out, h, true, flags);
}

/* ---- surface references ---- */
CUresult cuSurfRefSetArray(CUsurfref h, CUarray a, unsigned flags)
{
	CTX_CALL(c);
	CuRef *r = cu_obj_get(h, CU_KIND_SURFREF);
	if (!r)
		return CUDA_ERROR_INVALID_HANDLE;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	CUDA_ARRAY3D_DESCRIPTOR ad;
	uint64_t id = (uint64_t)(uintptr_t)a;
	if (!recall(id, &ad))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!(ad.Flags & CUDA_ARRAY3D_SURFACE_LDST)) {
		cu_warn("cuSurfRefSetArray: the array was not created with CUDA_ARRAY3D_SURFACE_LDST");
		return CUDA_ERROR_INVALID_VALUE;
	}
	ptxvm_program *p = cu_module_program(r->mod);
	if (!p)
		return CUDA_ERROR_INVALID_HANDLE;
	uint64_t s;
	CUresult res = cu_result(c, ptxvm_surface_create(cu_dev.dev, id, &s), "cuSurfRefSetArray");
	if (res)
		return res;
	res = cu_result(c, ptxvm_program_bind_surface(p, r->name, s), "cuSurfRefSetArray");
	if (res) {
		ptxvm_surface_destroy(cu_dev.dev, s);
		return res;
	}
	ref_unbind(r);
	r->object = s;
	r->bound = 1;
	r->res = (CUDA_RESOURCE_DESC){ .resType = PTXVM_RESOURCE_ARRAY, .res.array.hArray = a };
	return CUDA_SUCCESS;
}

CUresult cuSurfRefGetArray(CUarray *out, CUsurfref h)
{
	CTX_CALL(c);
	CuRef *r = cu_obj_get(h, CU_KIND_SURFREF);
	if (!r)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!out || !r->bound)
		return CUDA_ERROR_INVALID_VALUE;
	*out = r->res.res.array.hArray;
	return CUDA_SUCCESS;
}
