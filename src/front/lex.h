/* lex.h: PTX tokens.  The lexer runs on demand, one token at a time. */
#ifndef PTXVM_LEX_H
#define PTXVM_LEX_H

#include "../util/util.h"

typedef enum {
	T_EOF,
	T_IDENT,        /* name, %reg, $label */
	T_DOT,          /* .word (also .shared::cta, .L2::cache_hint, .1d) */
	T_INT,          /* integer literal: ival, is_unsigned */
	T_FLOAT,        /* 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX (fkind 'f'/'d', ival bits), decimal (fval) */
	T_STRING,       /* "..." (p/n include the quotes) */
	T_PUNCT,        /* one of the punctuators; c holds it (two-char ones encoded) */
	T_BAD,          /* an invalid character or literal; already reported */
} TokKind;

/* Two-character punctuators. */
enum { P_SHL = 256, P_SHR, P_EQ, P_NE, P_LE, P_GE, P_ANDAND, P_OROR };

typedef struct Token {
	TokKind kind;
	int c;                  /* T_PUNCT */
	const char *p;          /* text */
	uint32_t n;
	Pos pos;
	uint64_t ival;
	double fval;
	uint8_t fkind;          /* T_FLOAT: 0 decimal, 'f', 'd' */
	uint8_t is_unsigned;    /* T_INT */
	uint8_t space_before;   /* whitespace precedes the token */
} Token;

typedef struct Lexer {
	const char *src, *cur, *end;
	uint32_t line;
	const char *line_start;
	Diags *diags;
} Lexer;

void lex_init(Lexer *lx, const char *src, size_t n, Diags *d);
Token lex_next(Lexer *lx);
/* The rest of the current line (after the last token), trimmed; the lexer
 * moves to the next line.  For .loc and friends. */
void lex_rest_of_line(Lexer *lx, const char **p, uint32_t *n);

#endif
