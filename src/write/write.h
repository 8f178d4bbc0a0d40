/* write.h: the canonical PTX printer. */
#ifndef PTXVM_WRITE_H
#define PTXVM_WRITE_H

#include "../front/ast.h"

/* Appends the canonical text of m to b. */
void ptx_write(const Module *m, Buf *b);

#endif
