/* split.h: exec_one's text, by opcode (split.c), for the compiling tier.
 *
 * exec_one's body as segments: text kept as it is, and the top-level switches on xk->op, each
 * a list of groups (one or more case labels and their statements, up to
 * the next case that does not fall into them).  An instruction of opcode
 * op needs, of each switch, the group that labels op, else the switch's
 * default, else none: split_key. */
#ifndef PTXVM_SPLIT_H
#define PTXVM_SPLIT_H

#include "../lower/prog.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct SplitGroup {
	const char *text;       /* its labels and statements */
	size_t len, labels_len;
} SplitGroup;

typedef struct Switch {
	SplitGroup *group;
	unsigned ngroup;
	int deflt;              /* the group with `default:`, or -1 */
} Switch;

typedef struct SplitSeg {
	const char *text;       /* text kept as it is, or NULL: */
	size_t len;
	int sw;                 /* switch sw, for text NULL */
} SplitSeg;

typedef struct Split {
	SplitSeg *seg;
	unsigned nseg;
	Switch *sw;
	unsigned nsw;
	uint8_t has[XOP__COUNT], sw_of[XOP__COUNT];
	uint16_t gi_of[XOP__COUNT];
} Split;

/* Splits the text of ops.inc; false, with the reason, where it is not in
 * the shape split.c reads. */
bool split_exec_one(const char *text, Split *sp, char *why, size_t wn);
/* The group of each switch that opcode op reaches (-1: none) into key[],
 * which has room for sp->nsw; returns sp->nsw. */
unsigned split_key(const Split *sp, unsigned op, int *key);
/* Whether opcode op lies outside exec_one's first switch, the control
 * flow, whose cases set the pc themselves: the others leave the
 * reconvergence stack alone and, returning RUN_GO, the pc at the next
 * instruction. */
bool split_straight(const Split *sp, unsigned op);
void split_free(Split *sp);

#endif
