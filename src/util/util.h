/* util.h: arena allocation, growable buffers, diagnostics.
 *
 * Everything a module owns lives in one arena and is freed at once; the
 * front end never frees a node on its own.
 */
#ifndef PTXVM_UTIL_H
#define PTXVM_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdbool.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation that aborts with a message when the host is out of memory:
 * for the tool's own bookkeeping, never for sizes a guest chooses. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t item);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* A whole file ('-' = standard input), NUL-terminated, malloc'd; NULL with
 * errno set when it cannot be read (EFBIG: more than READ_FILE_MAX bytes;
 * one byte more is read to know). */
#define READ_FILE_MAX (1ull << 30)
char *read_file(const char *path, size_t *len);

/* ---- arena ------------------------------------------------------------ */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
	ArenaBlock *head;
	char *cur, *end;
} Arena;

void *arena_alloc(Arena *a, size_t n);          /* zeroed, 16-aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
void  arena_free(Arena *a);

/* ---- growable byte buffer --------------------------------------------- */
typedef struct Buf {
	char *p;
	size_t len, cap;
} Buf;

void buf_put(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
void buf_printf(Buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_free(Buf *b);

/* A growable array of fixed-size items, allocated with malloc. */
void *vec_grow(void *p, size_t *cap, size_t need, size_t item);

/* ---- source positions and diagnostics --------------------------------- */
typedef struct Pos {
	uint32_t line, col;     /* 1-based; 0 = unknown */
} Pos;

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

typedef struct Diag {
	DiagLevel level;
	Pos pos;
	char *msg;
} Diag;

typedef struct Diags {
	const char *file;       /* name shown in messages */
	const char *src;        /* source text, for the caret line */
	size_t srclen;
	Diag *v;
	size_t n, cap;
	size_t nerrors;
	size_t limit;           /* stop recording after this many (0 = none) */
} Diags;

void diag_add(Diags *d, DiagLevel lv, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_vadd(Diags *d, DiagLevel lv, Pos p, const char *fmt, va_list ap);
/* "FILE:LINE:COL: error: MSG\n<source line>\n<caret>\n" */
void diag_format(const Diags *d, const Diag *g, Buf *out);
/* Every diagnostic formatted, plus a line for those past the limit;
 * malloc'd, "" when there are none. */
char *diag_format_all(const Diags *d);
void diag_free(Diags *d);

#endif
