/* tex.h: texture and sampler objects of a device, and the one sampler.
 *
 * A texture object names a resource (an array, a mipmapped array, linear
 * or pitch-2D device memory) and how it is sampled; a sampler object holds
 * only the sampling, for PTX's independent mode (.samplerref).  A module's
 * .texref or .samplerref with a static initializer gets a reference
 * object: the fields its initializer names, over the object the host
 * binds (or over no object: then txq answers from the initializer).
 * The objects are records of the device's image table (surf.h): their
 * handles are generation-checked, resolved in the version of the table a
 * launch pinned, so a guest reaches only its own device's live images and
 * a destroyed object stays intact until the launches using it end.
 *
 * Before sampling, the executor resolves a handle (and, in independent
 * mode, a sampler) into a TexView: the resource's levels as host memory
 * and the sampler state after CUDA's rules.  tex_sample (sample.c) is the
 * one implementation of sampling, for tex, tex.level, tex.grad and tld4;
 * every rule the manuals leave open is in docs/TEXTURES.md.
 */
#ifndef PTXVM_TEX_H
#define PTXVM_TEX_H

#include "../mem/mem.h"
#include "../surf/surf.h"

/* Address modes: CUDA's four, then PTX's clamp_ogl. */
enum { TEX_WRAP, TEX_CLAMP, TEX_MIRROR, TEX_BORDER, TEX_CLAMP_OGL };
/* Resources. */
enum { TEX_RES_ARRAY, TEX_RES_MIP, TEX_RES_LINEAR, TEX_RES_PITCH2D, TEX_RES_NONE };
/* Geometries of the instructions. */
enum { TEX_G1D, TEX_G2D, TEX_G3D, TEX_GA1D, TEX_GA2D, TEX_GCUBE, TEX_GACUBE };
/* Mipmap modes. */
enum { TEX_BASE, TEX_LEVEL, TEX_GRAD };

/* txq's fields; a static description keeps the first TEX_Q_DESC of them. */
enum {
	TEX_Q_WIDTH, TEX_Q_HEIGHT, TEX_Q_DEPTH, TEX_Q_CDT, TEX_Q_CORDER, TEX_Q_ARRAY_SIZE, TEX_Q_LEVELS,
	TEX_Q_SAMPLES, TEX_Q_DESC,
	TEX_Q_NORMALIZED = TEX_Q_DESC, TEX_Q_FORCE_UNNORM, TEX_Q_FILTER, TEX_Q_ADDR0, TEX_Q_ADDR1, TEX_Q_ADDR2,
};

typedef struct TexSampler {
	uint8_t addr[3];        /* TEX_WRAP ... */
	uint8_t filter;         /* 0 point, 1 linear */
	uint8_t mipfilter;
	uint8_t normalized;     /* texture: normalized coordinates; sampler: not forced unnormalized */
	uint8_t seamless;
	uint32_t border[4];     /* f32 bits */
	uint32_t max_aniso;
	float bias, minlod, maxlod;
} TexSampler;

/* The sampler fields a reference object's initializer names. */
enum { TEX_SET_ADDR0 = 1, TEX_SET_ADDR1 = 2, TEX_SET_ADDR2 = 4, TEX_SET_FILTER = 8, TEX_SET_NORMALIZED = 16 };

typedef struct TexObj {
	HRec h;                 /* tag TEX_OBJECT_TAG or TEX_SAMPLER_TAG */
	uint8_t sampler_only;   /* a sampler object, or a .samplerref's reference */
	uint8_t rtype;          /* TEX_RES_*; TEX_RES_NONE for samplers and references */
	uint64_t res;           /* ARRAY, MIP: the id */
	uint64_t dptr;          /* LINEAR, PITCH2D */
	size_t bytes, width, height, pitch;
	uint8_t format, channels;
	uint8_t read_norm, srgb;
	TexSampler s;
	/* references: the bound object (0: none; read and written atomically,
	 * as the host binds while launches run), the program that owns the
	 * reference, the fields set, the description */
	uint8_t is_ref;
	uint64_t base;
	uint64_t owner;
	uint32_t set;
	uint32_t q[TEX_Q_DESC];
} TexObj;

#define TEX_OBJECT_TAG   0x5478u        /* "Tx" */
#define TEX_SAMPLER_TAG  0x536du        /* "Sm" */

/* The host's side; each takes the table's lock.
 * Adds a copy of o: its handle, tagged as a sampler or a texture, or 0
 * when out of memory. */
uint64_t tex_add(SurfTable *t, const TexObj *o);
/* Destroys a texture (sampler: a sampler) object, never a reference;
 * false when h names none. */
bool tex_free(SurfTable *t, uint64_t h, bool sampler);
/* Binds the reference object ref to object h of its kind (0: unbinds):
 * 0; -1 when h is no texture (sampler) object; 1 when ref is no reference
 * of that kind. */
int tex_bind(SurfTable *t, uint64_t ref, uint64_t h, bool sampler);
/* Frees the reference objects of owner (a program that unloads). */
void tex_release(SurfTable *t, uint64_t owner);

/* A launch's side: the texture or sampler object h names in v, or NULL. */
static inline const TexObj *tex_obj_in(const SurfView *v, uint64_t h)
{
	const HRec *r = handle_in(v, h, TEX_OBJECT_TAG);
	return (const TexObj *)(r ? r : handle_in(v, h, TEX_SAMPLER_TAG));
}

/* Texel and level geometry, in host memory. */
typedef struct TexLevel {
	const uint8_t *data;
	uint32_t w, h, d;
	size_t row, slice, layer;       /* bytes between rows, depth slices, layers */
} TexLevel;

/* A texture (and sampler) resolved for a launch. */
typedef struct TexView {
	uint8_t kind;           /* ptxvm_array_kind the resource is shaped as */
	uint8_t linear;         /* linear memory: reads outside are zero, no filtering */
	uint8_t format, channels, esize;
	uint8_t norm;           /* texels read as normalized floats */
	uint8_t srgb;
	uint8_t fresult;        /* the result is floating point */
	uint8_t nlevels;
	uint8_t has_res;        /* a resource to sample (else only txq answers) */
	uint8_t independent;    /* a sampler object supplied the sampling */
	uint32_t layers;        /* layers; 6 per cube for cubemaps */
	TexLevel lv[SURF_MAX_LEVELS];
	TexSampler s;           /* the effective sampling state */
	uint32_t force_unnorm;  /* txq.force_unnormalized_coords */
	const uint32_t *q;      /* a description without resource: its txq answers */
} TexView;

/* Resolves handle h -- a texture object, or the address of a .texref
 * variable holding one -- with sampler handle smp in independent mode (0
 * in unified mode) into *v.  sample: a resource is needed.  Returns 0, or
 * -1 with the reason in why (n bytes). */
int tex_resolve(const SurfView *t, const MemView *m, uint64_t h, uint64_t smp, bool sample, TexView *v,
		char *why, size_t n);
/* A sampler handle (or the address of a .samplerref holding one) alone,
 * for txq's sampler fields in independent mode. */
int tex_resolve_sampler(const SurfView *t, const MemView *m, uint64_t h, TexView *v, char *why, size_t n);
/* Is h an object of the type -- 0 texture, 1 sampler, 2 surface? */
bool tex_is_type(const SurfView *t, uint64_t h, int type);

/* Does an instruction of geometry g fit the texture?  NULL, or why not. */
const char *tex_geom_check(const TexView *v, unsigned g);

/* One lane's lookup.  (PTX's depth compare operand is not part of it: a
 * CUDA sampler has no comparison function, and the hardware returns the
 * texels as without the operand.) */
typedef struct TexQuery {
	uint8_t geom;           /* TEX_G* */
	uint8_t icoord;         /* .s32 coordinates: texel indices */
	uint8_t mip;            /* TEX_BASE, TEX_LEVEL, TEX_GRAD */
	int8_t gather;          /* tld4: the component, 0..3; tex: -1 */
	uint32_t layer;         /* arrays: the layer (or cube) index */
	uint32_t c[3];          /* coordinates: f32 or s32 bits */
	uint32_t lod;           /* .level: f32 or s32 bits */
	uint32_t dx[3], dy[3];  /* .grad: f32 bits */
	int32_t off[3];         /* texel offsets */
} TexQuery;

/* n lookups of one instruction (the same geometry, mipmap mode, gather,
 * and presence of offsets; their own coordinates):
 * out[i][0..3] are the four components, f32 bits when v->fresult, else
 * 32-bit integers. */
void tex_sample(const TexView *v, const TexQuery *q, unsigned n, uint32_t (*out)[4]);

/* txq: field TEX_Q_* (level >= 0: the size of that mipmap level). */
uint32_t tex_query(const TexView *v, unsigned field, int level);

#endif
