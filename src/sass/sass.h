/* sass.h: the SASS ATOM front end (include/ptxvm.h, "SASS ATOM").
 *
 * parse.c reads a file of docs/ATOM.md's format into a ptxvm_sass: the
 * initial registers, predicates and memory image, and the checked ATOM
 * instructions.  run.c runs them through the atomic unit (src/atom) and
 * holds the public functions.
 */
#ifndef PTXVM_SASS_H
#define PTXVM_SASS_H

#include "../../include/ptxvm.h"
#include "../util/util.h"
#include "../atom/atom.h"

#define SASS_RZ 255     /* register number of RZ */
#define SASS_PT 7       /* predicate number of PT */

typedef struct SassIns {
	uint32_t line, col;     /* where the instruction starts */
	uint32_t off, len;      /* its text in the source, without comment */
	uint8_t guard, guard_neg;       /* @P / @!P; PT when there is none */
	uint8_t ext;            /* .E */
	uint8_t op, size;       /* AT_*, AS_* */
	uint8_t sparse, ps;     /* the Ps, Rd, [Ra], Rb forms */
	uint8_t has_ra;         /* 0: absolute [ImmU20] */
	uint8_t rd, ra, rb, rc; /* SASS_RZ for RZ; rc is RZ when absent */
	int64_t imm;
} SassIns;

typedef struct SassRegion {
	uint64_t base, size;
	uint8_t *mem;           /* host copy, congruent to base modulo 16 */
	uint8_t *init;          /* the initial bytes */
	void *alloc;
	uint32_t line, col;     /* of its base */
} SassRegion;

enum { SW_SHARED, SW_LOCAL, SW_SPARSE };
typedef struct SassWindow {
	uint64_t base, size;
	int kind;
	uint32_t line, col;     /* of its base */
} SassWindow;

/* A set directive, applied once every region is known. */
typedef struct SassSet {
	uint64_t base;
	size_t len, off;        /* its bytes in the parse's byte buffer */
	uint32_t line, col;
} SassSet;

struct ptxvm_sass {
	Diags diags;
	char *file, *src;
	size_t len;
	uint32_t reg0[256], reg[256];
	uint8_t pred0[8], pred[8];
	SassRegion *rg;         /* sorted by base after parsing */
	size_t nrg, caprg;
	uint64_t total;         /* bytes of all regions */
	SassWindow *win;        /* shared and local windows, sorted by base */
	size_t nwin, capwin;
	SassWindow *sparse;     /* sparse windows (they may overlap), sorted by base */
	uint64_t *sparse_last;  /* the highest last byte of sparse[0..i] */
	size_t nsparse, capsparse;
	SassIns *ins;
	size_t nins, capins;
	ptxvm_result status;
	char msg[768];
	unsigned fault_line;
	uint64_t fault_addr;
};

/* Fills s from s->src; errors go to s->diags, in the order of the file. */
void sass_parse(ptxvm_sass *s);
/* The region holding [a, a + n), or NULL. */
SassRegion *sass_region(const ptxvm_sass *s, uint64_t a, uint64_t n);
/* The shared or local window holding a, or NULL; sparse: non-NULL when a
 * sparse window holds a. */
const SassWindow *sass_window(const ptxvm_sass *s, uint64_t a, bool sparse);

extern const char *const sass_window_name[3];

#endif
