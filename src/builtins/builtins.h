/* builtins.h: NVIDIA's surface and texture builtins, as data, lowered to PTX.
 *
 * Two families (seed 004):
 *
 *   __nvvm_sust_b_{dim}_{type}_{oob}   IDs 474..638: block by boundary mode
 *       (clamp, trap, zero), then dimension (1d, 1d_array, 2d, 2d_array, 3d),
 *       then type (i8 i16 i32 i64 v2i8 v2i16 v2i32 v2i64 v4i8 v4i16 v4i32).
 *       Each is one sust.b instruction.
 *   __nv_tex_surf_handler              ID 647: CUDA's headers call it with an
 *       operation name ("__isurf2Dread", "__itex2DLod", ...); the front end
 *       appends the element type ("_int4", "_char_as_uchar", ...) and the
 *       resulting name stands for one suld.b, sust.b, tex or tld4.
 *
 * A Builtin describes either kind the same way: what the caller passes, in
 * order, and the PTX instruction it becomes.
 */
#ifndef PTXVM_BUILTINS_H
#define PTXVM_BUILTINS_H

#include "../util/util.h"

#include <stdbool.h>
#include <stddef.h>

#define SUST_FIRST 474
#define SUST_COUNT 165
#define HANDLER_ID 647

enum { BM_CLAMP, BM_TRAP, BM_ZERO };          /* the order of the ID blocks */
enum { BD_1D, BD_1D_ARRAY, BD_2D, BD_2D_ARRAY, BD_3D };

extern const char *const builtin_mode[3];      /* "clamp" ... */
extern const char *const builtin_dim[5];       /* "1d", "1d_array" ... */
extern const char *const builtin_type[11];     /* "i8" ... "v4i32" */

/* What the PTX instruction is. */
enum { BK_SUST, BK_SULD, BK_TEX, BK_TLD4 };
/* What the call's extra argument is: none (the name fixes everything), a
 * boundary mode (BM_*), or a gather component 0..3. */
enum { BA_NONE, BA_MODE, BA_COMP };

typedef struct Builtin {
	char name[48];
	unsigned id;            /* 474..638, or HANDLER_ID */
	uint8_t kind;           /* BK_* */
	uint8_t arg;            /* BA_* */
	int8_t mode;            /* BM_* fixed by the name, -1 when the call gives it */
	const char *geom;       /* PTX geometry: "1d", "a2d", "cube", ... */
	const char *coords;     /* PTX coordinate i is the caller's coordinate coords[i]-'0' */
	uint8_t ncoord;         /* coordinates the caller passes */
	uint8_t vec, bits;      /* surfaces: the element vector and size */
	const char *dtype;      /* textures: "f32", "s32" or "u32" (always .v4) */
	const char *ctype;      /* textures: coordinate type, "s32" for fetches */
	uint8_t lod, ngrad;     /* textures: a level operand; gradient vector size */
	uint8_t sparse;         /* textures: a residency predicate after the results */
	/* decomposition, for display */
	unsigned sust_mode, sust_dim, sust_type;        /* sust builtins */
	const char *op, *elem;  /* handler names: "__isurf2Dread", "int4" */
} Builtin;

/* A builtin by name or decimal ID (handler names have no ID of their own).
 * On failure, why says what is wrong with the name. */
bool builtin_find(const char *name_or_id, Builtin *b, char *why, size_t n);
/* The i-th builtin: the 165 surface stores in ID order, then the handler's
 * names; false past the end. */
bool builtin_at(size_t i, Builtin *b);
size_t builtin_count(void);

/* The caller's operands, in order: the data of a store or the results of a
 * load (textures: 4, then the predicate when sparse), the handle, the
 * coordinates in the builtin's own order, then the level or the gradients
 * (dPdx then dPdy).  Each name is a placeholder for display: "d0", "s", "x". */
size_t builtin_nopnd(const Builtin *b);
const char *builtin_opnd_name(const Builtin *b, size_t i);
/* Operand i is the image handle. */
size_t builtin_handle_index(const Builtin *b);
/* The register type operand i has: "b16", "b32", "b64", "f32", "pred". */
const char *builtin_opnd_type(const Builtin *b, size_t i);

/* The PTX instruction, without ';', for the operands op[0..builtin_nopnd)
 * and the call's argument (a boundary mode or a component; ignored for
 * BA_NONE).  False, with why, for an argument out of range. */
bool builtin_lower(const Builtin *b, int arg, const char *const *op, Buf *out, char *why, size_t n);
/* The PTX form with the placeholder operands and the default argument
 * (trap, component 0): "suld.b.2d.b32.trap {d}, [s, {x, y}]". */
void builtin_form(const Builtin *b, Buf *out);

/* The image-type rule of the PTX emitter: the instruction (BK_* or
 * "suq") against a handle declared as an opaque type (TY_texref, ...).
 * NULL when legal, else "Invalid image type in .suld" and the like. */
const char *builtin_image_error(const char *opcode, int opaque_type);

#endif
