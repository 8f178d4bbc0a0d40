/* printf.h: the output of one CUDA device printf (vprintf) call.
 *
 * nvcc lowers printf(fmt, ...) in device code to
 *   call.uni (ret), vprintf, (fmt_generic_addr, argbuf_generic_addr);
 * with the arguments packed in a local buffer: each at an offset aligned
 * to its own size, float promoted to double, char and short promoted to
 * int, pointers and 64-bit integers 8 bytes.  The buffer address is 0 when
 * there are no arguments.  The rules and every choice made where CUDA
 * leaves the behaviour open are in docs/PRINTF.md.
 */
#ifndef PTXVM_PRINTF_H
#define PTXVM_PRINTF_H

#include "../util/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRINTF_MAX_ARGS  32             /* CUDA's limit; later conversions print as written */
#define PRINTF_MAX_FIELD 4096           /* cap on a width or a precision */
#define PRINTF_MAX_OUT   (1u << 20)     /* cap on one call's output and on one %s string */

#define PRINTF_ERR_FORMAT (-1)          /* the format is NULL */
#define PRINTF_ERR_ARGS   (-2)          /* arguments missing or unreadable, or output capped */

/* Reads guest memory for %s arguments: copies the NUL-terminated string at
 * device address addr (at most max bytes) into out; returns false if the
 * address is not readable. */
typedef bool (*PrintfReadStr)(void *ctx, uint64_t addr, Buf *out, size_t max);

/* Formats one device printf call: fmt is the format string (already copied
 * out of guest memory, NUL-terminated), args/nargs the argument buffer bytes
 * (may be NULL/0 when the call passes a null buffer).  Appends the output to
 * out.  Returns the value vprintf returns to the guest: the number of
 * arguments consumed (a '*' width or precision counts as one).  On a
 * malformed call (argument buffer too short for the conversions, a %s string
 * that cannot be read, output over PRINTF_MAX_OUT) the conversions that
 * cannot be served are appended as written in the format and the result is
 * PRINTF_ERR_ARGS; a NULL fmt appends nothing and gives PRINTF_ERR_FORMAT. */
int dev_printf(Buf *out, const char *fmt, const uint8_t *args, size_t nargs,
	       PrintfReadStr rs, void *ctx);

#endif
