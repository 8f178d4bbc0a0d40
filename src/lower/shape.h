/* shape.h: the common shapes of lowered instructions.
 *
 * A shape is every field of an instruction but its operands, guard,
 * target, offset, line and source: what exec_one's cases branch on.  The
 * executor has a copy of exec_one for each shape of shapes.def, with the
 * shape a constant, which the compiler folds to that instruction's lane
 * loop (exec.c, shaped); lowering gives each instruction its shape's
 * number in XFunc.shape (XSH_NONE: none of them), so that the interpreter
 * chooses the copy without looking at the instruction's fields.
 */
#ifndef PTXVM_SHAPE_H
#define PTXVM_SHAPE_H

#include "prog.h"

enum {
	XSH_NONE,
#define SH(name, op, ty, ty2, sp, sub, sub2, n) XSH_##name,
#include "shapes.def"
#undef SH
	XSH__COUNT
};

/* x has the shape (op, ty, ty2, sp, sub, sub2, n), with ty's width and
 * signedness bits and sg, and the defaults of every other shape field: no
 * third type, rounding, flags or vector.  The executor's copy for the
 * shape reads these fields from a constant that holds exactly them.
 * XF_UNI (bra.uni), a hint the executor never reads, is no flag here. */
static inline __attribute__((always_inline)) bool shape_is(const XIns *x, unsigned op, unsigned ty, unsigned ty2,
							   unsigned sp, unsigned sub, unsigned sub2, unsigned n,
							   unsigned bits, bool sg)
{
	return x->op == op && x->ty == ty && x->ty2 == ty2 && x->ty3 == TY__COUNT && x->sp == sp && x->rnd == 0 &&
	       x->irnd == 0 && (x->flags & ~XF_UNI) == 0 && x->sub == sub && x->sub2 == sub2 && x->vec == 1 && x->n == n &&
	       x->bits == bits && x->sg == sg;
}

#endif
