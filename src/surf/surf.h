/* surf.h: CUDA arrays and surface objects of a device.
 *
 * An array is a block of elements of one format (channel type x 1, 2 or 4
 * channels) with a width, height, depth and layer count; its storage is
 * private (row-major, layer after layer, cube faces as layers).  A surface
 * object is a 64-bit handle naming an array; kernels receive handles as
 * .u64 values and the executor resolves them here, so a guest can reach
 * nothing but the arrays of its own device.  A mipmapped array is a chain
 * of arrays, its levels, which live and die with it.
 *
 * Arrays, mipmapped arrays, surface objects, and the texture and sampler
 * objects of src/tex are records of one handle table (util/handle.h):
 * their handles are generation-checked, so that a stale or doubly freed
 * handle names nothing, and a launch pins a version of the table
 * (surf_pin), so that an object destroyed while a kernel uses it stays
 * intact until the launch ends.
 */
#ifndef PTXVM_SURF_H
#define PTXVM_SURF_H

#include "../util/handle.h"

#include <pthread.h>

typedef struct SurfArray {
	HRec h;                 /* tag SURF_ARRAY_TAG */
	uint8_t kind;           /* ptxvm_array_kind */
	uint8_t format;         /* ptxvm_format */
	uint8_t channels;       /* 1, 2 or 4 */
	uint32_t esize;         /* bytes of one element */
	uint32_t width, height, depth;  /* in elements; 1 for unused dimensions */
	uint32_t layers;        /* 1 for plain arrays; 6 x n for cubemaps */
	uint8_t *data;          /* NULL for a static description */
	size_t bytes;
	uint32_t q[7];          /* a static description's suq answers (SURF_Q_*) */
	uint64_t mip;           /* the mipmapped array it is a level of, or 0 */
} SurfArray;

#define SURF_MAX_LEVELS 16      /* 1 + log2(32768), the largest mipmapped array */

typedef struct SurfMip {
	HRec h;                 /* tag SURF_MIP_TAG */
	uint32_t nlevels;
	uint64_t level[SURF_MAX_LEVELS];        /* array ids */
} SurfMip;

/* A surface object: the array it names. */
typedef struct SurfObj {
	HRec h;                 /* tag SURF_OBJECT_TAG */
	SurfArray *a;
} SurfObj;

/* suq queries, in the order of a static description's answers. */
enum { SURF_Q_WIDTH, SURF_Q_HEIGHT, SURF_Q_DEPTH, SURF_Q_CDT, SURF_Q_CORDER, SURF_Q_ARRAY_SIZE,
       SURF_Q_LAYOUT };

/* Handle tags, so that a pointer or an integer is not taken for one. */
#define SURF_ARRAY_TAG   0x4172u        /* "Ar" */
#define SURF_OBJECT_TAG  0x5375u        /* "Su" */
#define SURF_MIP_TAG     0x4d70u        /* "Mp" */

typedef struct SurfTable {
	pthread_mutex_t lock;
	Handles h;              /* every record: the image objects of the device */
} SurfTable;

/* A pinned version of the table: what a launch resolves handles in. */
typedef CowVer SurfView;

/* false when out of memory. */
bool surf_init(SurfTable *t);
void surf_fini(SurfTable *t);
const SurfView *surf_pin(SurfTable *t);
void surf_unpin(SurfTable *t, const SurfView *v);
/* The array a surface object names in v, or NULL. */
static inline const SurfArray *surf_lookup(const SurfView *v, uint64_t handle)
{
	const SurfObj *o = (const SurfObj *)handle_in(v, handle, SURF_OBJECT_TAG);
	return o ? o->a : NULL;
}
/* The array or mipmapped array id names in v, or NULL. */
static inline const SurfArray *surf_array_in(const SurfView *v, uint64_t id)
{
	return (const SurfArray *)handle_in(v, id, SURF_ARRAY_TAG);
}
static inline const SurfMip *surf_mip_in(const SurfView *v, uint64_t id)
{
	return (const SurfMip *)handle_in(v, id, SURF_MIP_TAG);
}

/* Element size of a format with n channels, 0 if the pair is invalid. */
unsigned surf_format_bytes(unsigned format, unsigned channels);
/* OpenCL 1.0's channel data type of a format and channel order of 1, 2 or
 * 4 channels (seed 002): what suq and txq answer. */
uint32_t surf_cl_type(unsigned format);
uint32_t surf_cl_order(unsigned channels);

struct ptxvm_array_desc;
/* The sizes an array description asks for -- width, height, depth, and
 * layers (6 per cube) -- after checking them against the kind and CUDA's
 * limits for sm_90; -1 with the reason in why (n bytes). */
int surf_shape(const struct ptxvm_array_desc *a, uint32_t sz[4], char *why, size_t n);

/* The host's side: each takes the table's lock.
 * A new zero-filled array; returns its id, or 0 when out of memory.  The
 * caller has validated the shape. */
uint64_t surf_array_new(SurfTable *t, unsigned kind, unsigned format, unsigned channels, uint32_t w,
			uint32_t h, uint32_t d, uint32_t layers);
/* Frees an array and every surface object naming it; false if no array or
 * if it is a level of a mipmapped array. */
bool surf_array_free(SurfTable *t, uint64_t id);
/* The array's size in bytes; 0 when id is no array. */
size_t surf_array_bytes(SurfTable *t, uint64_t id);
/* Copies the whole array in (to the array) or out: 0, -1 when id is no
 * array, or -2 when bytes is not the array's size. */
int surf_array_copy(SurfTable *t, uint64_t id, void *host, size_t bytes, bool in);
/* A mipmapped array of n levels (the caller has validated shape and n):
 * level l is max(1, size >> l) in width, height and depth.  Returns its
 * id, or 0 when out of memory. */
uint64_t surf_mip_new(SurfTable *t, unsigned kind, unsigned format, unsigned channels, uint32_t w, uint32_t h,
		      uint32_t d, uint32_t layers, unsigned n);
/* Level l's array id, 0 when there is no such level; -1 when id is no
 * mipmapped array, else its number of levels. */
int surf_mip_level(SurfTable *t, uint64_t id, unsigned l, uint64_t *array);
/* Frees the chain, its levels and the surface objects naming them; false
 * if there is no such chain. */
bool surf_mip_free(SurfTable *t, uint64_t id);
/* The host address of row y of slice z (a depth slice or a layer) of an
 * array with data. */
static inline uint8_t *surf_row(const SurfArray *a, size_t y, size_t z)
{
	return a->data + ((size_t)z * a->height + y) * a->width * a->esize;
}
/* A surface object for array id; 0 if there is no such array or memory
 * ran out. */
uint64_t surf_object_new(SurfTable *t, uint64_t id);
bool surf_object_free(SurfTable *t, uint64_t handle);
bool surf_object_valid(SurfTable *t, uint64_t handle);
/* A surface object with no array, only the answers suq gives for it: what
 * a .surfref's static initializer describes until the host binds it.
 * surf_static_free frees the object and its description. */
uint64_t surf_static_new(SurfTable *t, const uint32_t q[7]);
void surf_static_free(SurfTable *t, uint64_t handle);

/* ---- suld.b, sust.b, sured: where an access lands (docs/SURFACES.md) ----
 * The rules an H200 follows, in this one place: x is a byte offset in the
 * row (xscale turns .p's element index into one) and must be a multiple
 * of the access's `bytes`; a layer is its low 16 bits; .clamp moves x to
 * the row's last whole access, the others to the nearest; .a1d on a 2D
 * layered array reaches nothing. */
enum { SURF_G1D, SURF_G2D, SURF_G3D, SURF_GA1D, SURF_GA2D };   /* geometries */
enum { SURF_TRAP, SURF_CLAMP, SURF_ZERO };                      /* boundary modes */
enum { SURF_AT, SURF_NOTHING, SURF_MISALIGNED, SURF_WIDE, SURF_OUTSIDE };
typedef struct SurfAt {
	int64_t x, y, z, layer;         /* x in bytes, after .clamp */
	size_t off;                     /* SURF_AT: the access's byte offset in a->data */
} SurfAt;
int surf_locate(const SurfArray *a, int geom, const int32_t co[4], unsigned bytes, unsigned xscale, int mode,
		SurfAt *at);

#endif
