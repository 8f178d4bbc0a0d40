/* printf.c: formats one device printf call (see printf.h, docs/PRINTF.md).
 *
 * The format and the argument buffer are guest data: nothing is trusted.
 * Each conversion is parsed here, its argument fetched from the buffer
 * with bounds checks, and the host's snprintf is called with a rebuilt
 * single-conversion format made only of characters this parser accepted,
 * so the digits of every number are exactly glibc's.
 */
#include "printf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char FLAGS[] = "-+ #0";

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_64 };

typedef struct Out {
	Buf *b;
	size_t base;            /* b->len before the call */
	bool full;              /* PRINTF_MAX_OUT reached: drop the rest */
} Out;

typedef struct Args {
	const uint8_t *p;
	size_t n, off;
	int used;               /* arguments consumed: the return value */
	bool starved;           /* one did not fit: serve no more */
} Args;

static void put(Out *o, const char *s, size_t n)
{
	size_t room = PRINTF_MAX_OUT - (o->b->len - o->base);

	if (o->full)
		return;
	if (n > room) {
		n = room;
		o->full = true;
	}
	buf_put(o->b, s, n);
}

/* Appends snprintf(spec, ...); spec holds one conversion. */
static void emit(Out *o, const char *spec, ...)
{
	char tmp[512];
	va_list ap, aq;

	va_start(ap, spec);
	va_copy(aq, ap);
	int n = vsnprintf(tmp, sizeof tmp, spec, ap);
	if (n >= 0 && (size_t)n < sizeof tmp) {
		put(o, tmp, (size_t)n);
	} else if (n > 0) {
		char *big = malloc((size_t)n + 1);
		if (big) {
			vsnprintf(big, (size_t)n + 1, spec, aq);
			put(o, big, (size_t)n);
			free(big);
		} else {
			o->full = true;
		}
	}
	va_end(aq);
	va_end(ap);
}

/* Where the next argument of size sz lies, or -1 if the buffer ends first;
 * the offset is relative to the buffer, which nvcc aligns to 8 at least. */
static long long arg_at(const Args *a, size_t sz, size_t from)
{
	size_t at = (from + sz - 1) & ~(sz - 1);

	if (at > a->n || a->n - at < sz)
		return -1;
	return (long long)at;
}

static uint64_t load(const Args *a, size_t at, size_t sz)
{
	uint32_t v4;
	uint64_t v8;

	if (sz == 4) {
		memcpy(&v4, a->p + at, 4);
		return v4;
	}
	memcpy(&v8, a->p + at, 8);
	return v8;
}

/* Saturating decimal: digits beyond the cap are read and ignored. */
static int digits(const char **pp)
{
	const char *p = *pp;
	int v = 0;

	for (; *p >= '0' && *p <= '9'; p++)
		if (v <= PRINTF_MAX_FIELD)
			v = v * 10 + (*p - '0');
	*pp = p;
	return v > PRINTF_MAX_FIELD ? PRINTF_MAX_FIELD : v;
}

static void fmt_string(Out *o, const char *spec, uint64_t addr, int prec,
		       PrintfReadStr rs, void *ctx, bool *bad)
{
	/* a string longer than the room left fills the output: read no more */
	size_t max = PRINTF_MAX_OUT, room = PRINTF_MAX_OUT - (o->b->len - o->base);
	Buf s = {0};

	if (room < max)
		max = room + 1;

	if (!addr) {
		/* glibc prints "(null)" unless the precision is too short */
		emit(o, spec, prec >= 0 && prec < 6 ? "" : "(null)");
		return;
	}
	if (prec >= 0 && (size_t)prec < max)
		max = (size_t)prec;
	if (!rs || !rs(ctx, addr, &s, max)) {
		*bad = true;
		buf_free(&s);
		return;
	}
	/* The reader is guest-facing code too: keep to max and one string. */
	size_t n = s.len < max ? s.len : max;
	const char *nul = n ? memchr(s.p, 0, n) : NULL;
	if (nul)
		n = (size_t)(nul - s.p);
	if (s.p)
		s.p[n] = 0;
	emit(o, spec, s.p ? s.p : "");
	buf_free(&s);
}

int dev_printf(Buf *out, const char *fmt, const uint8_t *args, size_t nargs,
	       PrintfReadStr rs, void *ctx)
{
	Out o = { out, out->len, false };
	Args a = { args, args ? nargs : 0, 0, 0, false };
	bool err = false;
	const char *p = fmt;

	if (!fmt)
		return PRINTF_ERR_FORMAT;
	while (*p && !o.full) {
		if (*p != '%') {
			const char *q = strchrnul(p, '%');
			put(&o, p, (size_t)(q - p));
			p = q;
			continue;
		}

		/* %[flags][width][.precision][length]conversion */
		const char *start = p++;
		bool fl[5] = {0};               /* - + space # 0 */
		const char *f;
		while (*p && (f = strchr(FLAGS, *p))) {
			fl[f - FLAGS] = true;
			p++;
		}
		int width = -1, prec = -1, nstar = 0;
		bool wstar = false, pstar = false;
		if (*p == '*') {
			wstar = true;
			nstar++;
			p++;
		} else if (*p >= '0' && *p <= '9') {
			width = digits(&p);
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				pstar = true;
				nstar++;
				p++;
			} else {
				prec = digits(&p);
			}
		}
		int len = LEN_NONE;
		if (*p == 'h') {
			len = p[1] == 'h' ? LEN_HH : LEN_H;
			p += len == LEN_HH ? 2 : 1;
		} else if (*p == 'l') {
			len = p[1] == 'l' ? LEN_LL : LEN_L;
			p += len == LEN_LL ? 2 : 1;
		} else if (*p && strchr("zjtL", *p)) {
			len = LEN_64;
			p++;
		}
		char conv = *p;
		if (!conv) {                    /* unterminated: as written */
			put(&o, start, (size_t)(p - start));
			break;
		}
		p++;
		if (conv == '%') {
			put(&o, "%", 1);
			continue;
		}

		/* the argument's size; 0 for an unknown conversion, and for a '*'
		 * precision or a z, j, t or L length, which an H200 prints as
		 * written too (tests/hw/golden/h200.printf.txt) */
		size_t sz = 0;
		if (pstar || len == LEN_64)
			sz = 0;
		else if (strchr("diouxXc", conv))
			sz = len >= LEN_L && conv != 'c' ? 8 : 4;
		else if (strchr("eEfFgGaAspn", conv))
			sz = 8;
		if (!sz) {                      /* as written, no argument */
			put(&o, start, (size_t)(p - start));
			continue;
		}

		/* Fetch all of the conversion's arguments or none. */
		long long wat = -1, pat = -1, vat;
		size_t off = a.off;
		bool ok = !a.starved && a.used + nstar + 1 <= PRINTF_MAX_ARGS;
		if (ok && wstar && (wat = arg_at(&a, 4, off)) >= 0)
			off = (size_t)wat + 4;
		if (ok && pstar && (pat = arg_at(&a, 4, off)) >= 0)
			off = (size_t)pat + 4;
		vat = ok ? arg_at(&a, sz, off) : -1;
		if (ok && (vat < 0 || (wstar && wat < 0) || (pstar && pat < 0))) {
			a.starved = true;
			err = true;
			ok = false;
		}
		if (!ok) {
			put(&o, start, (size_t)(p - start));
			continue;
		}
		a.off = (size_t)vat + sz;
		a.used += nstar + 1;
		uint64_t v = load(&a, (size_t)vat, sz);

		if (wstar) {
			int32_t w = (int32_t)load(&a, (size_t)wat, 4);
			if (w < 0)
				fl[0] = true;   /* a negative '*' width left-justifies */
			int64_t aw = w < 0 ? -(int64_t)w : w;
			width = aw > PRINTF_MAX_FIELD ? PRINTF_MAX_FIELD : (int)aw;
		}
		if (pstar) {
			int32_t pr = (int32_t)load(&a, (size_t)pat, 4);
			prec = pr < 0 ? -1 : pr > PRINTF_MAX_FIELD ? PRINTF_MAX_FIELD : pr;
		}
		if (conv == 'n')                /* never writes guest memory */
			continue;

		/* Rebuild the conversion from parsed parts only. */
		char spec[48], *s = spec;
		*s++ = '%';
		for (int i = 0; i < 5; i++)
			if (fl[i])
				*s++ = FLAGS[i];
		/* width 0 would read as the '0' flag */
		if (width > 0)
			s += sprintf(s, "%d", width);
		if (prec >= 0)
			s += sprintf(s, ".%d", prec);
		if (strchr("diouxX", conv)) {
			*s++ = 'l';
			*s++ = 'l';
		}
		*s++ = conv;
		*s = 0;

		switch (conv) {
		case 'd': case 'i': {
			int64_t x = sz == 8 ? (int64_t)v : (int32_t)v;
			if (len == LEN_HH)
				x = (signed char)x;
			else if (len == LEN_H)
				x = (short)x;
			emit(&o, spec, (long long)x);
			break;
		}
		case 'o': case 'u': case 'x': case 'X': {
			uint64_t x = sz == 8 ? v : (uint32_t)v;
			if (len == LEN_HH)
				x = (unsigned char)x;
			else if (len == LEN_H)
				x = (unsigned short)x;
			emit(&o, spec, (unsigned long long)x);
			break;
		}
		case 'c':
			emit(&o, spec, (int)(unsigned char)v);
			break;
		case 'p':
			emit(&o, spec, (void *)(uintptr_t)v);
			break;
		case 's': {
			bool bad = false;
			fmt_string(&o, spec, v, prec, rs, ctx, &bad);
			if (bad) {
				put(&o, start, (size_t)(p - start));
				err = true;
			}
			break;
		}
		default: {                      /* e E f F g G a A */
			double d;
			memcpy(&d, &v, sizeof d);
			emit(&o, spec, d);
			break;
		}
		}
	}
	return err || o.full ? PRINTF_ERR_ARGS : a.used;
}
