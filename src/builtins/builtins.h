/* builtins.h: NVIDIA's surface and texture builtins, as data, lowered to PTX.
 *
 * The 165 surface-store builtins __nvvm_sust_b_{dim}_{type}_{oob} have IDs
 * 474..638: block by boundary mode (clamp, trap, zero), then dimension (1d,
 * 1d_array, 2d, 2d_array, 3d), then type (i8 i16 i32 i64 v2i8 v2i16 v2i32
 * v2i64 v4i8 v4i16 v4i32).  Each stands for one sust.b instruction.
 */
#ifndef PTXVM_BUILTINS_H
#define PTXVM_BUILTINS_H

#include <stdbool.h>
#include <stddef.h>

#define SUST_FIRST 474
#define SUST_COUNT 165

enum { BM_CLAMP, BM_TRAP, BM_ZERO };
enum { BD_1D, BD_1D_ARRAY, BD_2D, BD_2D_ARRAY, BD_3D };

extern const char *const builtin_mode[3];      /* "clamp" ... */
extern const char *const builtin_dim[5];       /* "1d", "1d_array" ... */
extern const char *const builtin_type[11];     /* "i8" ... "v4i32" */

typedef struct SustBuiltin {
	unsigned id;
	unsigned mode, dim, type;       /* BM_*, BD_*, index into builtin_type */
	unsigned vec;                   /* 1, 2 or 4 */
	unsigned bits;                  /* of one element: 8, 16, 32, 64 */
	unsigned ncoords;               /* 1d 1, 1d_array 2 (layer, x), 2d 2,
					   2d_array 4 (layer, x, y, ignored), 3d 4 (x, y, z, ignored) */
} SustBuiltin;

/* The builtin of an ID, or false. */
bool sust_by_id(unsigned id, SustBuiltin *out);
/* The builtin of a name, or false. */
bool sust_by_name(const char *name, SustBuiltin *out);
/* "__nvvm_sust_b_2d_v4i8_trap" */
void sust_name(const SustBuiltin *b, char *buf, size_t n);
/* "sust.b.2d.v4.b8.trap [a, {x, y}], {c0, c1, c2, c3};" */
void sust_ptx(const SustBuiltin *b, char *buf, size_t n);
/* The PTX geometry of a dimension: "1d", "a1d", "2d", "a2d", "3d". */
const char *sust_geom(unsigned dim);
/* A complete module whose kernel stores through the builtin to a .u64
 * surface object (malloc'd text). */
char *sust_module(const SustBuiltin *b);

#endif
