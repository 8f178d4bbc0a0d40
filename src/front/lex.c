/* lex.c: the PTX lexer.
 *
 *   identifier  [a-zA-Z][a-zA-Z0-9_$]* | [_$%][a-zA-Z0-9_$]+
 *               (WARP_SZ is not one: it is the integer constant 32)
 *   .word       '.' [a-zA-Z0-9_]+ ('::' [a-zA-Z0-9_]+)*
 *   integer     decimal | 0x hex | 0 octal | 0b binary, optional 'U'
 *   float       0f + 8 hex digits | 0d + 16 hex digits | decimal with '.' or exponent
 *   string      "..." with backslash escapes
 *   comments    // to end of line, and C block comments
 */
#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void lex_init(Lexer *lx, const char *src, size_t n, Diags *d)
{
	lx->src = lx->cur = lx->line_start = src;
	lx->end = src + n;
	lx->line = 1;
	lx->diags = d;
}

static Pos here(const Lexer *lx, const char *p)
{
	return (Pos){ lx->line, (uint32_t)(p - lx->line_start) + 1 };
}

static bool is_follow(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Skip blanks and comments; returns true if anything was skipped. */
static bool skip_space(Lexer *lx)
{
	const char *start = lx->cur;
	while (lx->cur < lx->end) {
		char c = *lx->cur;
		if (c == '\n') {
			lx->cur++;
			lx->line++;
			lx->line_start = lx->cur;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->cur++;
		} else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '/') {
			while (lx->cur < lx->end && *lx->cur != '\n')
				lx->cur++;
		} else if (c == '/' && lx->cur + 1 < lx->end && lx->cur[1] == '*') {
			const char *open = lx->cur;
			Pos p = here(lx, open);
			lx->cur += 2;
			for (;;) {
				if (lx->cur + 1 >= lx->end) {
					diag_add(lx->diags, DIAG_ERROR, p, "unterminated comment");
					lx->cur = lx->end;
					break;
				}
				if (lx->cur[0] == '*' && lx->cur[1] == '/') {
					lx->cur += 2;
					break;
				}
				if (*lx->cur == '\n') {
					lx->line++;
					lx->line_start = lx->cur + 1;
				}
				lx->cur++;
			}
		} else {
			break;
		}
	}
	return lx->cur != start;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A decimal float literal s..q: its double, read from the whole text (a
 * literal may carry any number of digits).  ptxas 13.0 rejects one whose
 * value overflows a double or falls below its normal range, to a
 * subnormal or zero ("Constant overflow": 1.8e308, 1e-310, 4.9e-324,
 * 2.4e-324; tests/check/float_literals.ptx, which ptxas-verify.py puts to
 * ptxas); glibc's strtod reports those as ERANGE.  (It does not for a
 * subnormal written out exactly, some 750 digits, which is accepted: to
 * confirm on ptxas.) */
static void lex_decimal(Lexer *lx, Token *t, const char *s, const char *q)
{
	char small[128];
	size_t n = (size_t)(q - s);
	char *buf = n < sizeof small ? small : xmalloc(n + 1);
	memcpy(buf, s, n);
	buf[n] = 0;
	t->kind = T_FLOAT;
	t->fkind = 0;
	errno = 0;
	t->fval = strtod(buf, NULL);
	if (errno == ERANGE) {
		diag_add(lx->diags, DIAG_ERROR, t->pos,
			 "constant overflow: '%.*s%s' is outside the normal range of a double",
			 (int)(n < 40 ? n : 40), s, n < 40 ? "" : "...");
		t->kind = T_BAD;
	}
	if (buf != small)
		free(buf);
	lx->cur = q;
}

static void lex_number(Lexer *lx, Token *t)
{
	const char *s = lx->cur, *e = lx->end;
	/* 0f / 0d bit patterns */
	if (s[0] == '0' && s + 1 < e && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
		int ndig = (s[1] | 0x20) == 'f' ? 8 : 16;
		const char *p = s + 2;
		uint64_t v = 0;
		int k = 0;
		while (p < e && hexval(*p) >= 0 && k < 17) {
			v = v << 4 | (uint64_t)hexval(*p);
			p++, k++;
		}
		lx->cur = p;
		t->kind = T_FLOAT;
		t->fkind = (s[1] | 0x20) == 'f' ? 'f' : 'd';
		t->ival = v;
		if (k != ndig || (p < e && is_follow(*p))) {
			while (lx->cur < e && is_follow(*lx->cur))
				lx->cur++;
			diag_add(lx->diags, DIAG_ERROR, t->pos,
				 "malformed %s literal: expected %d hex digits after '0%c'",
				 ndig == 8 ? "single-precision" : "double-precision", ndig, s[1]);
			t->kind = T_BAD;
		}
		return;
	}
	/* decimal float? */
	const char *p = s;
	while (p < e && isdigit((unsigned char)*p))
		p++;
	bool hexlike = s[0] == '0' && s + 1 < e && ((s[1] | 0x20) == 'x' || (s[1] | 0x20) == 'b');
	if (!hexlike && p < e && (*p == '.' || *p == 'e' || *p == 'E')) {
		const char *q = p;
		if (*q == '.') {
			q++;
			while (q < e && isdigit((unsigned char)*q))
				q++;
		}
		if (q < e && (*q == 'e' || *q == 'E')) {
			const char *r = q + 1;
			if (r < e && (*r == '+' || *r == '-'))
				r++;
			if (r < e && isdigit((unsigned char)*r)) {
				q = r;
				while (q < e && isdigit((unsigned char)*q))
					q++;
			}
		}
		lex_decimal(lx, t, s, q);
		return;
	}
	/* integers */
	uint64_t v = 0;
	bool overflow = false;
	int base = 10;
	p = s;
	if (s[0] == '0' && s + 1 < e && (s[1] | 0x20) == 'x')
		base = 16, p = s + 2;
	else if (s[0] == '0' && s + 1 < e && (s[1] | 0x20) == 'b')
		base = 2, p = s + 2;
	else if (s[0] == '0')
		base = 8;
	const char *digits = p;
	for (; p < e; p++) {
		int d = hexval(*p);
		if (d < 0 || d >= base)
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			overflow = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	t->kind = T_INT;
	t->ival = v;
	if (p < e && *p == 'U') {
		t->is_unsigned = 1;
		p++;
	}
	lx->cur = p;
	if ((base != 8 && p == digits) || overflow || (p < e && is_follow(*p))) {
		while (lx->cur < e && is_follow(*lx->cur))
			lx->cur++;
		diag_add(lx->diags, DIAG_ERROR, t->pos, "malformed integer literal '%.*s'",
			 (int)(lx->cur - s), s);
		t->kind = T_BAD;
		return;
	}
	/* A literal that does not fit in .s64 is unsigned. */
	if (v > (uint64_t)INT64_MAX)
		t->is_unsigned = 1;
}

/* ".05" and ".5e3" are numbers; ".1d" and ".2d" are modifiers. */
static bool dot_number(const char *s, const char *end)
{
	const char *q = s + 1;
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *r = q + 1;
		if (r < end && (*r == '+' || *r == '-'))
			r++;
		if (r < end && isdigit((unsigned char)*r)) {
			while (r < end && isdigit((unsigned char)*r))
				r++;
			q = r;
		}
	}
	return q >= end || !(isalnum((unsigned char)*q) || *q == '_');
}

Token lex_next(Lexer *lx)
{
	Token t = { 0 };
	t.space_before = skip_space(lx);
	t.p = lx->cur;
	t.pos = here(lx, lx->cur);
	if (lx->cur >= lx->end) {
		t.kind = T_EOF;
		return t;
	}
	const char *s = lx->cur;
	int c = (unsigned char)*s;
	if (isalpha(c) || ((c == '_' || c == '$' || c == '%') && s + 1 < lx->end && is_follow((unsigned char)s[1]))) {
		lx->cur++;
		while (lx->cur < lx->end && is_follow((unsigned char)*lx->cur))
			lx->cur++;
		t.kind = T_IDENT;
		if (lx->cur - s == 7 && !memcmp(s, "WARP_SZ", 7)) {
			t.kind = T_INT;         /* the predefined constant: the warp size */
			t.ival = 32;
		}
	} else if (c == '_') {
		lx->cur++;
		t.kind = T_IDENT;       /* the sink "_" */
	} else if (c == '.' && s + 1 < lx->end && isdigit((unsigned char)s[1]) && dot_number(s, lx->end)) {
		const char *q = s + 1;
		while (q < lx->end && isdigit((unsigned char)*q))
			q++;
		if (q < lx->end && (*q == 'e' || *q == 'E')) {
			q++;
			if (q < lx->end && (*q == '+' || *q == '-'))
				q++;
			while (q < lx->end && isdigit((unsigned char)*q))
				q++;
		}
		lex_decimal(lx, &t, s, q);
	} else if (c == '.' && s + 1 < lx->end && (isalnum((unsigned char)s[1]) || s[1] == '_')) {
		lx->cur++;
		for (;;) {
			while (lx->cur < lx->end && (isalnum((unsigned char)*lx->cur) || *lx->cur == '_'))
				lx->cur++;
			if (lx->cur + 2 < lx->end && lx->cur[0] == ':' && lx->cur[1] == ':' &&
			    (isalnum((unsigned char)lx->cur[2]) || lx->cur[2] == '_'))
				lx->cur += 2;
			else
				break;
		}
		t.kind = T_DOT;
		t.p = s + 1;    /* the word without its dot */
		t.n = (uint32_t)(lx->cur - s - 1);
		return t;
	} else if (isdigit(c)) {
		lex_number(lx, &t);
	} else if (c == '"') {
		lx->cur++;
		while (lx->cur < lx->end && *lx->cur != '"' && *lx->cur != '\n') {
			if (*lx->cur == '\\' && lx->cur + 1 < lx->end)
				lx->cur++;
			lx->cur++;
		}
		if (lx->cur >= lx->end || *lx->cur != '"') {
			diag_add(lx->diags, DIAG_ERROR, t.pos, "unterminated string");
			t.kind = T_BAD;
		} else {
			lx->cur++;
			t.kind = T_STRING;
		}
	} else {
		static const struct { char a, b; int code; } two[] = {
			{ '<', '<', P_SHL }, { '>', '>', P_SHR }, { '=', '=', P_EQ },
			{ '!', '=', P_NE }, { '<', '=', P_LE }, { '>', '=', P_GE },
			{ '&', '&', P_ANDAND }, { '|', '|', P_OROR },
		};
		t.kind = T_PUNCT;
		t.c = c;
		lx->cur++;
		for (size_t i = 0; i < NELEM(two); i++)
			if (c == two[i].a && lx->cur < lx->end && *lx->cur == two[i].b) {
				t.c = two[i].code;
				lx->cur++;
				break;
			}
		if (!strchr("{}()[],;:@!|+-*/%~&^<>=?", c)) {
			if (isprint(c))
				diag_add(lx->diags, DIAG_ERROR, t.pos, "unexpected character '%c'", c);
			else
				diag_add(lx->diags, DIAG_ERROR, t.pos, "unexpected byte 0x%02x", c);
			t.kind = T_BAD;
		}
	}
	t.n = (uint32_t)(lx->cur - s);
	return t;
}

void lex_rest_of_line(Lexer *lx, const char **p, uint32_t *n)
{
	const char *s = lx->cur;
	while (s < lx->end && (*s == ' ' || *s == '\t'))
		s++;
	const char *e = s;
	while (e < lx->end && *e != '\n')
		e++;
	lx->cur = e;
	/* trim trailing blanks and a trailing comment */
	const char *q = s;
	bool instr = false;
	for (; q < e; q++) {
		if (*q == '"')
			instr = !instr;
		if (!instr && q + 1 < e && q[0] == '/' && q[1] == '/')
			break;
	}
	while (q > s && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
		q--;
	*p = s;
	*n = (uint32_t)(q - s);
}
