/* util.c: arena, buffers and diagnostics (see util.h). */
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fputs("ptxvm: out of memory\n", stderr);
		abort();
	}
	return q;
}

void *xmalloc(size_t n) { return xrealloc(NULL, n); }

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

void *xcalloc(size_t n, size_t item)
{
	void *p = calloc(n ? n : 1, item ? item : 1);
	if (!p) {
		fputs("ptxvm: out of memory\n", stderr);
		abort();
	}
	return p;
}

char *read_file(const char *path, size_t *len)
{
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *p = malloc(cap);
	while (p) {
		size_t r = fread(p + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0 || n > READ_FILE_MAX)       /* /dev/zero, say */
			break;
		if (n == cap - 1) {
			cap = cap * 2 < READ_FILE_MAX + 2 ? cap * 2 : READ_FILE_MAX + 2;
			char *q = realloc(p, cap);
			if (!q)
				free(p);
			p = q;
		}
	}
	bool big = n > READ_FILE_MAX;
	bool bad = ferror(f);
	if (!in)
		fclose(f);
	if (bad || big || !p) {
		free(p);
		errno = bad ? EIO : big ? EFBIG : ENOMEM;
		return NULL;
	}
	p[n] = 0;
	*len = n;
	return p;
}

/* ---- arena ------------------------------------------------------------ */
struct ArenaBlock {
	ArenaBlock *next;
	size_t size;
	_Alignas(16) char data[];
};

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if ((size_t)(a->end - a->cur) < n) {
		size_t size = n > 60000 ? n : 64000;
		ArenaBlock *b = xrealloc(NULL, sizeof *b + size);
		b->next = a->head;
		b->size = size;
		a->head = b;
		a->cur = b->data;
		a->end = b->data + size;
	}
	void *p = a->cur;
	a->cur += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void arena_free(Arena *a)
{
	for (ArenaBlock *b = a->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
	a->cur = a->end = NULL;
}

/* ---- buffers ---------------------------------------------------------- */
void *vec_grow(void *p, size_t *cap, size_t need, size_t item)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap * 2 : 8;
	while (c < need)
		c *= 2;
	*cap = c;
	return xrealloc(p, c * item);
}

void buf_put(Buf *b, const char *s, size_t n)
{
	b->p = vec_grow(b->p, &b->cap, b->len + n + 1, 1);
	if (n)          /* s may be an empty Buf's NULL */
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_put(b, s, strlen(s)); }
void buf_putc(Buf *b, char c) { buf_put(b, &c, 1); }

void buf_printf(Buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		buf_put(b, tmp, (size_t)n);
		return;
	}
	b->p = vec_grow(b->p, &b->cap, b->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void buf_free(Buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- diagnostics ------------------------------------------------------ */
void diag_vadd(Diags *d, DiagLevel lv, Pos p, const char *fmt, va_list ap)
{
	if (lv == DIAG_ERROR)
		d->nerrors++;
	if (d->limit && d->n >= d->limit)
		return;
	char tmp[512];
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	d->v = vec_grow(d->v, &d->cap, d->n + 1, sizeof *d->v);
	Diag *g = &d->v[d->n++];
	g->level = lv;
	g->pos = p;
	g->msg = xrealloc(NULL, strlen(tmp) + 1);
	strcpy(g->msg, tmp);
}

void diag_add(Diags *d, DiagLevel lv, Pos p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(d, lv, p, fmt, ap);
	va_end(ap);
}

static const char *level_name[] = { "error", "warning", "note" };

/* The start of source line `line`, scanning on from *hp (the start of line
 * *hl) when it is not past it: diagnostics in file order cost one pass. */
static const char *line_start(const Diags *d, uint32_t line, uint32_t *hl, const char **hp)
{
	const char *s = *hp, *end = d->src + d->srclen;
	uint32_t l = *hl;
	if (!s || l > line) {
		s = d->src;
		l = 1;
	}
	for (; l < line && s < end; l++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	*hl = l;
	*hp = s;
	return s;
}

static void format_one(const Diags *d, const Diag *g, Buf *out, uint32_t *hl, const char **hp)
{
	buf_printf(out, "%s:%u:%u: %s: %s\n", d->file ? d->file : "<input>",
		   g->pos.line, g->pos.col, level_name[g->level], g->msg);
	if (!d->src || g->pos.line == 0)
		return;
	/* The source line, with a caret under the column. */
	const char *s = line_start(d, g->pos.line, hl, hp), *end = d->src + d->srclen;
	const char *e = s;
	while (e < end && *e != '\n' && *e != '\r')
		e++;
	if (e - s > 200)
		e = s + 200;
	buf_put(out, s, (size_t)(e - s));
	buf_putc(out, '\n');
	for (uint32_t c = 1; c < g->pos.col && s + c - 1 < e; c++)
		buf_putc(out, s[c - 1] == '\t' ? '\t' : ' ');
	buf_puts(out, "^\n");
}

void diag_format(const Diags *d, const Diag *g, Buf *out)
{
	uint32_t hl = 0;
	const char *hp = NULL;
	format_one(d, g, out, &hl, &hp);
}

void diag_free(Diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = d->nerrors = 0;
}

char *diag_format_all(const Diags *d)
{
	Buf b = { 0 };
	uint32_t hl = 0;
	const char *hp = NULL;
	for (size_t i = 0; i < d->n; i++)
		format_one(d, &d->v[i], &b, &hl, &hp);
	if (d->limit && d->nerrors > d->n)
		buf_printf(&b, "%s: %zu more errors not shown\n", d->file, d->nerrors - d->n);
	if (!b.p)
		buf_puts(&b, "");
	return b.p;
}
