/* parse.c: recursive-descent parser for whole PTX modules.
 *
 * The parser records what the text says; validity beyond syntax is the
 * checker's business.  On a syntax error it reports once and skips to the
 * end of the statement, so that every statement of a file gets a verdict.
 *
 *   module     := { directive }
 *   directive  := .version MAJOR.MINOR | .target NAME {, NAME} | .address_size N
 *               | .file N "name" {, N} | .section NAME { ... }
 *               | {linkage} ( declaration ";" | function )
 *   function   := (.entry | .func) [attribute] ["(" params ")"] NAME
 *                 ["(" params ")"] {performance-directive} ( body | ";" )
 *   body       := "{" { statement } "}"
 *   statement  := declaration ";" | LABEL ":" [targets | prototype] | body
 *               | ["@" ["!"] PRED] OPCODE {.mod} [operand {, operand}] ";"
 *               | .loc ... NEWLINE | .pragma STRING ";"
 */
#include "parse.h"
#include "lex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const space_name[SP__COUNT] = {
	[SP_NONE] = "", [SP_REG] = "reg", [SP_SREG] = "sreg", [SP_CONST] = "const",
	[SP_GLOBAL] = "global", [SP_LOCAL] = "local", [SP_PARAM] = "param",
	[SP_SHARED] = "shared", [SP_TEX] = "tex",
};

const char *const perf_name[PD__COUNT] = {
	[PD_MAXNTID] = "maxntid", [PD_REQNTID] = "reqntid",
	[PD_MINNCTAPERSM] = "minnctapersm", [PD_MAXNCTAPERSM] = "maxnctapersm",
	[PD_MAXNREG] = "maxnreg", [PD_PRAGMA] = "pragma", [PD_NORETURN] = "noreturn",
	[PD_REQNCTAPERCLUSTER] = "reqnctapercluster",
	[PD_EXPLICITCLUSTER] = "explicitcluster",
	[PD_MAXCLUSTERRANK] = "maxclusterrank",
	[PD_BLOCKSARECLUSTERS] = "blocksareclusters",
};

typedef struct Parser {
	Lexer lx;
	Token tok, peek;
	bool has_peek;
	Module *m;
	Arena *a;
	Diags *d;
	bool failed;            /* an error in the current statement */
	bool in_call;           /* parsing call operands: "(" is a list */
	uint32_t seq;           /* module items parsed so far */
	int depth;              /* nesting of expressions, operands, initializers */
} Parser;

/* Deeper nesting than this is an error rather than a risk to the stack. */
#define MAX_NESTING 200

/* ---- tokens ------------------------------------------------------------- */
static void next(Parser *P)
{
	if (P->has_peek) {
		P->tok = P->peek;
		P->has_peek = false;
	} else {
		P->tok = lex_next(&P->lx);
	}
}

static Token *peek(Parser *P)
{
	if (!P->has_peek) {
		P->peek = lex_next(&P->lx);
		P->has_peek = true;
	}
	return &P->peek;
}

static bool is_punct(const Token *t, int c) { return t->kind == T_PUNCT && t->c == c; }

static bool is_dot(const Token *t, const char *w)
{
	return t->kind == T_DOT && strlen(w) == t->n && !memcmp(t->p, w, t->n);
}

static bool is_ident(const Token *t, const char *w)
{
	return t->kind == T_IDENT && strlen(w) == t->n && !memcmp(t->p, w, t->n);
}

static Str tok_str(const Token *t) { return (Str){ t->p, t->n }; }

static const char *tok_desc(const Token *t, char *buf, size_t n)
{
	switch (t->kind) {
	case T_EOF: return "end of file";
	case T_DOT: snprintf(buf, n, "'.%.*s'", (int)(t->n > 40 ? 40 : t->n), t->p); return buf;
	default: snprintf(buf, n, "'%.*s'", (int)(t->n > 40 ? 40 : t->n), t->p); return buf;
	}
}

static void error_at(Parser *P, Pos p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void error_at(Parser *P, Pos p, const char *fmt, ...)
{
	if (P->failed)
		return;         /* one error per statement */
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(P->d, DIAG_ERROR, p, fmt, ap);
	va_end(ap);
	P->failed = true;
}

static void expected(Parser *P, const char *what)
{
	char buf[64];
	if (P->tok.kind == T_BAD) {
		P->failed = true;       /* the lexer already said why */
		return;
	}
	error_at(P, P->tok.pos, "expected %s, found %s", what, tok_desc(&P->tok, buf, sizeof buf));
}

static bool accept(Parser *P, int c)
{
	if (is_punct(&P->tok, c)) {
		next(P);
		return true;
	}
	return false;
}

static bool expect(Parser *P, int c, const char *what)
{
	if (accept(P, c))
		return true;
	expected(P, what);
	return false;
}

/* Skip to just after the next ';' at this brace depth, or to a '}' that
 * closes it (left in place), or to the start of a new top-level directive. */
static void recover(Parser *P)
{
	int depth = 0;
	while (P->tok.kind != T_EOF) {
		if (is_punct(&P->tok, ';') && depth == 0) {
			next(P);
			break;
		}
		if (is_punct(&P->tok, '{'))
			depth++;
		if (is_punct(&P->tok, '}')) {
			if (depth == 0)
				break;
			depth--;
		}
		next(P);
	}
	P->failed = false;
}

static void *alloc(Parser *P, size_t n) { return arena_alloc(P->a, n); }

/* Copy a malloc'd growable array into the arena. */
static void *freeze(Parser *P, void *v, size_t n, size_t item)
{
	void *p = n ? alloc(P, n * item) : NULL;
	if (n)
		memcpy(p, v, n * item);
	free(v);
	return p;
}

/* ---- constant expressions ----------------------------------------------- */
typedef struct Val {
	uint64_t v;
	double f;
	bool is_float, is_unsigned;
	uint8_t fkind;
} Val;

static bool parse_expr(Parser *P, Val *out);

static int prec(const Token *t)
{
	if (t->kind != T_PUNCT)
		return -1;
	switch (t->c) {
	case '*': case '/': case '%': return 10;
	case '+': case '-': return 9;
	case P_SHL: case P_SHR: return 8;
	case '<': case '>': case P_LE: case P_GE: return 7;
	case P_EQ: case P_NE: return 6;
	case '&': return 5;
	case '^': return 4;
	case '|': return 3;
	case P_ANDAND: return 2;
	case P_OROR: return 1;
	}
	return -1;
}

static bool enter(Parser *P)
{
	if (++P->depth <= MAX_NESTING)
		return true;
	error_at(P, P->tok.pos, "nesting deeper than %d levels", MAX_NESTING);
	return false;
}

static bool parse_unary_(Parser *P, Val *v);

static bool parse_unary(Parser *P, Val *v)
{
	bool ok = enter(P) && parse_unary_(P, v);
	P->depth--;
	return ok;
}

static bool parse_unary_(Parser *P, Val *v)
{
	Token t = P->tok;
	memset(v, 0, sizeof *v);
	if (t.kind == T_INT) {
		v->v = t.ival;
		v->is_unsigned = t.is_unsigned;
		next(P);
		return true;
	}
	if (t.kind == T_FLOAT) {
		v->is_float = true;
		v->fkind = t.fkind;
		v->v = t.ival;
		v->f = t.fval;
		next(P);
		return true;
	}
	if (is_punct(&t, '(')) {
		next(P);
		if (!parse_expr(P, v))
			return false;
		return expect(P, ')', "')'");
	}
	if (is_punct(&t, '-') || is_punct(&t, '+') || is_punct(&t, '~') || is_punct(&t, '!')) {
		next(P);
		/* ptxas's grammar has no sign on a 0f bit pattern (0d and
		 * parenthesized ones are fine): -0f3F800000 is a syntax error */
		if (P->tok.kind == T_FLOAT && P->tok.fkind == 'f') {
			error_at(P, P->tok.pos, "'%c' cannot precede a 0f literal: write the bits of the value (0fBF800000), or -(0f...)",
				 t.c);
			return false;
		}
		if (!parse_unary(P, v))
			return false;
		if (v->is_float) {
			if (t.c == '-') {
				if (v->fkind == 'f')
					v->v ^= 0x80000000u;
				else if (v->fkind == 'd')
					v->v ^= 0x8000000000000000ull;
				else
					v->f = -v->f;
			} else if (t.c != '+') {
				error_at(P, t.pos, "operator '%c' needs an integer operand", t.c);
				return false;
			}
			return true;
		}
		if (t.c == '-')
			v->v = -v->v;
		else if (t.c == '~')
			v->v = ~v->v;
		else if (t.c == '!')
			v->v = !v->v;
		return true;
	}
	expected(P, "a constant");
	return false;
}

static bool parse_binary(Parser *P, Val *l, int minprec)
{
	if (!parse_unary(P, l))
		return false;
	for (;;) {
		int p = prec(&P->tok);
		if (p < minprec || p < 0)
			break;
		Token op = P->tok;
		next(P);
		Val r;
		if (!parse_binary(P, &r, p + 1))
			return false;
		if (l->is_float || r.is_float) {
			error_at(P, op.pos, "floating-point constant expressions are not supported");
			return false;
		}
		bool u = l->is_unsigned || r.is_unsigned;
		uint64_t a = l->v, b = r.v;
		int64_t sa = (int64_t)a, sb = (int64_t)b;
		uint64_t x = 0;
		switch (op.c) {
		case '*': x = a * b; break;
		case '/': case '%':
			if (b == 0) {
				error_at(P, op.pos, "division by zero in constant expression");
				return false;
			}
			if (u)
				x = op.c == '/' ? a / b : a % b;
			else if (sa == INT64_MIN && sb == -1)
				x = op.c == '/' ? a : 0;
			else
				x = (uint64_t)(op.c == '/' ? sa / sb : sa % sb);
			break;
		case '+': x = a + b; break;
		case '-': x = a - b; break;
		case P_SHL: x = b >= 64 ? 0 : a << b; break;
		case P_SHR: x = b >= 64 ? (u ? 0 : (uint64_t)(sa >> 63)) : u ? a >> b : (uint64_t)(sa >> b); break;
		case '<': x = u ? a < b : sa < sb; break;
		case '>': x = u ? a > b : sa > sb; break;
		case P_LE: x = u ? a <= b : sa <= sb; break;
		case P_GE: x = u ? a >= b : sa >= sb; break;
		case P_EQ: x = a == b; break;
		case P_NE: x = a != b; break;
		case '&': x = a & b; break;
		case '^': x = a ^ b; break;
		case '|': x = a | b; break;
		case P_ANDAND: x = a && b; break;
		case P_OROR: x = a || b; break;
		}
		l->v = x;
		l->is_unsigned = u;
	}
	return true;
}

static bool parse_expr(Parser *P, Val *out)
{
	if (!parse_binary(P, out, 1))
		return false;
	if (is_punct(&P->tok, '?')) {
		next(P);
		Val a, b;
		if (!parse_expr(P, &a) || !expect(P, ':', "':'") || !parse_expr(P, &b))
			return false;
		*out = out->v ? a : b;
	}
	return true;
}

static bool parse_int_expr(Parser *P, uint64_t *v, const char *what)
{
	Pos p = P->tok.pos;
	Val x;
	if (!parse_expr(P, &x))
		return false;
	if (x.is_float) {
		error_at(P, p, "%s must be an integer", what);
		return false;
	}
	*v = x.v;
	return true;
}

/* ---- operands ----------------------------------------------------------- */
static bool parse_operand(Parser *P, Opnd *o);

static bool starts_expr(const Token *t)
{
	return t->kind == T_INT || t->kind == T_FLOAT || is_punct(t, '-') ||
	       is_punct(t, '~') || is_punct(t, '(') || is_punct(t, '+');
}

static void set_imm(Opnd *o, const Val *v, Pos p)
{
	o->pos = p;
	if (v->is_float) {
		o->kind = OK_FLOAT;
		o->fkind = v->fkind;
		o->ival = v->v;
		o->fval = v->f;
	} else {
		o->kind = OK_INT;
		o->ival = v->v;
		o->is_unsigned = v->is_unsigned;
	}
}

/* A list of operands up to the closing punctuator. */
static bool parse_list(Parser *P, Opnd *o, OpndKind kind, int close, const char *what)
{
	Opnd *v = NULL;
	size_t n = 0, cap = 0;
	o->kind = (uint8_t)kind;
	o->pos = P->tok.pos;
	next(P);
	if (!is_punct(&P->tok, close)) {
		for (;;) {
			v = vec_grow(v, &cap, n + 1, sizeof *v);
			memset(&v[n], 0, sizeof v[n]);
			if (!parse_operand(P, &v[n++])) {
				free(v);
				return false;
			}
			if (!accept(P, ','))
				break;
		}
	}
	if (!expect(P, close, what)) {
		free(v);
		return false;
	}
	o->elems = freeze(P, v, n, sizeof *v);
	o->n = (uint32_t)n;
	return true;
}

static const char comp_chars[] = "xyzw";

/* A video operand's selector: b or h and digits (.b0, .h10, .b7654). */
static bool is_video_sel(const Token *t)
{
	if (t->kind != T_DOT || t->n < 2 || (t->p[0] != 'b' && t->p[0] != 'h'))
		return false;
	for (uint32_t i = 1; i < t->n; i++)
		if (!isdigit((unsigned char)t->p[i]))
			return false;
	return true;
}

/* name [.x|.y|.z|.w] [video selector] */
static void parse_name(Parser *P, Opnd *o)
{
	o->kind = is_ident(&P->tok, "_") ? OK_SINK : OK_SYM;
	o->pos = P->tok.pos;
	o->name = tok_str(&P->tok);
	o->regidx = -1;
	next(P);
	if (P->tok.kind == T_DOT && P->tok.n == 1 && !P->tok.space_before) {
		const char *c = strchr(comp_chars, P->tok.p[0]);
		const char *rgba = strchr("rgba", P->tok.p[0]);
		if (c || rgba) {
			o->comp = (uint8_t)((c ? c - comp_chars : rgba - "rgba") + 1);
			next(P);
		}
	}
	if (o->kind == OK_SYM && is_video_sel(&P->tok)) {     /* ptxas takes a space before it */
		o->selk = (uint8_t)P->tok.p[0];
		o->seln = (uint8_t)(P->tok.n - 1 > 8 ? 9 : P->tok.n - 1);
		for (uint32_t i = 1; i < P->tok.n && i <= 8; i++)
			o->seld = o->seld << 4 | (uint32_t)(P->tok.p[i] - '0');
		next(P);
	}
}

/* [ item {, item} ] where the first item may carry +/- offset. */
static bool parse_mem(Parser *P, Opnd *o)
{
	Opnd *v = NULL;
	size_t n = 0, cap = 0;
	o->kind = OK_MEM;
	o->pos = P->tok.pos;
	next(P);
	for (;;) {
		v = vec_grow(v, &cap, n + 1, sizeof *v);
		Opnd *e = &v[n++];
		memset(e, 0, sizeof *e);
		if (P->tok.kind == T_IDENT) {
			parse_name(P, e);
			if (n == 1 && (is_punct(&P->tok, '+') || is_punct(&P->tok, '-'))) {
				bool minus = P->tok.c == '-';
				Pos op = P->tok.pos;
				next(P);
				uint64_t off;
				if (!parse_int_expr(P, &off, "an address offset")) {
					free(v);
					return false;
				}
				(void)op;
				o->off = minus ? -(int64_t)off : (int64_t)off;
				o->has_off = 1;
			}
		} else if (!parse_operand(P, e)) {
			free(v);
			return false;
		}
		if (!accept(P, ','))
			break;
	}
	o->elems = freeze(P, v, n, sizeof *v);
	o->n = (uint32_t)n;
	return expect(P, ']', "']'");
}

static bool parse_primary(Parser *P, Opnd *o)
{
	Token *t = &P->tok;
	if (t->kind == T_IDENT) {
		parse_name(P, o);
		return true;
	}
	if (is_punct(t, '{'))
		return parse_list(P, o, OK_VEC, '}', "'}'");
	if (is_punct(t, '['))
		return parse_mem(P, o);
	if (is_punct(t, '(') && P->in_call)
		return parse_list(P, o, OK_LIST, ')', "')'");
	if (starts_expr(t)) {
		Pos p = t->pos;
		Val v;
		if (!parse_expr(P, &v))
			return false;
		set_imm(o, &v, p);
		return true;
	}
	expected(P, "an operand");
	return false;
}

static bool parse_operand_(Parser *P, Opnd *o);

static bool parse_operand(Parser *P, Opnd *o)
{
	bool ok = enter(P) && parse_operand_(P, o);
	P->depth--;
	return ok;
}

static bool parse_operand_(Parser *P, Opnd *o)
{
	Pos p = P->tok.pos;
	if (is_punct(&P->tok, '!') && peek(P)->kind == T_IDENT) {
		next(P);
		parse_name(P, o);
		o->neg = 1;
		o->pos = p;
	} else if (is_punct(&P->tok, '-') && peek(P)->kind == T_IDENT) {
		next(P);                /* vmad's -a, -b, -c */
		parse_name(P, o);
		o->minus = 1;
		o->pos = p;
	} else if (!parse_primary(P, o)) {
		return false;
	}
	if (o->kind == OK_SYM && is_punct(&P->tok, '+')) {
		next(P);
		uint64_t off;
		if (!parse_int_expr(P, &off, "an address offset"))
			return false;
		o->off = (int64_t)off;
		o->has_off = 1;
	}
	if (is_punct(&P->tok, '|')) {
		Opnd *pair = alloc(P, 2 * sizeof *pair);
		pair[0] = *o;
		next(P);
		if (!parse_primary(P, &pair[1]))
			return false;
		memset(o, 0, sizeof *o);
		o->kind = OK_PIPE;
		o->pos = p;
		o->elems = pair;
		o->n = 2;
	}
	return true;
}

/* ---- instructions ------------------------------------------------------- */
static Instr *parse_instr(Parser *P, Opnd *guard)
{
	Instr *in = alloc(P, sizeof *in);
	in->pos = P->tok.pos;
	in->guard = guard;
	in->form = 0xffff;
	int opc = isa_lookup_op(P->tok.p, P->tok.n);
	if (opc < 0) {
		error_at(P, P->tok.pos, "unknown instruction '%.*s'", (int)P->tok.n, P->tok.p);
		return NULL;
	}
	in->opc = (uint16_t)opc;
	next(P);
	while (P->tok.kind == T_DOT) {
		unsigned m = isa_lookup_mod(P->tok.p, P->tok.n);
		if (m == MOD_NONE) {
			error_at(P, P->tok.pos, "unknown modifier '.%.*s' on '%s'",
				 (int)P->tok.n, P->tok.p, isa_op[opc].name);
			return NULL;
		}
		if (in->nmods == MAXMODS) {
			error_at(P, P->tok.pos, "too many modifiers");
			return NULL;
		}
		in->modpos[in->nmods] = P->tok.pos;
		in->mods[in->nmods++] = (uint16_t)m;
		next(P);
	}
	Opnd *v = NULL;
	size_t n = 0, cap = 0;
	P->in_call = opc == OPC_call;
	if (!is_punct(&P->tok, ';')) {
		for (;;) {
			v = vec_grow(v, &cap, n + 1, sizeof *v);
			memset(&v[n], 0, sizeof v[n]);
			if (!parse_operand(P, &v[n++])) {
				free(v);
				P->in_call = false;
				return NULL;
			}
			if (!accept(P, ','))
				break;
		}
	}
	P->in_call = false;
	if (n > 255) {
		error_at(P, in->pos, "too many operands");
		free(v);
		return NULL;
	}
	in->opnd = freeze(P, v, n, sizeof *v);
	in->nopnd = (uint8_t)n;
	if (!expect(P, ';', "';' after the instruction"))
		return NULL;
	return in;
}

/* ---- declarations ------------------------------------------------------- */
static int space_of(const Token *t)
{
	static const char *const w[] = { "reg", "sreg", "const", "global", "local", "param", "shared", "tex" };
	static const int sp[] = { SP_REG, SP_SREG, SP_CONST, SP_GLOBAL, SP_LOCAL, SP_PARAM, SP_SHARED, SP_TEX };
	if (t->kind != T_DOT)
		return -1;
	for (size_t i = 0; i < NELEM(w); i++)
		if (is_dot(t, w[i]))
			return sp[i];
	/* .shared::cta and friends in .ptr qualifiers */
	if (t->n > 8 && !memcmp(t->p, "shared::", 8))
		return SP_SHARED;
	return -1;
}

static int type_of(const Token *t)
{
	if (t->kind != T_DOT)
		return -1;
	if (is_dot(t, "texref"))
		return TY_texref;
	if (is_dot(t, "samplerref"))
		return TY_samplerref;
	if (is_dot(t, "surfref"))
		return TY_surfref;
	unsigned m = isa_lookup_mod(t->p, t->n);
	return m != MOD_NONE && isa_mod_is_type(m) ? (int)m : -1;
}

/* .attribute( .managed | .unified(a, b) {, ...} ) */
static bool parse_attribute(Parser *P, uint8_t *managed, uint8_t *unified, uint64_t uuid[2])
{
	next(P);
	if (!expect(P, '(', "'(' after .attribute"))
		return false;
	for (;;) {
		if (is_dot(&P->tok, "managed")) {
			*managed = 1;
			next(P);
		} else if (is_dot(&P->tok, "unified")) {
			*unified = 1;
			next(P);
			if (!expect(P, '(', "'(' after .unified"))
				return false;
			for (int k = 0; k < 2; k++) {
				if (P->tok.kind != T_INT) {
					expected(P, "an integer identifier in .unified(a, b)");
					return false;
				}
				uuid[k] = P->tok.ival;
				next(P);
				if (!expect(P, k ? ')' : ',', k ? "')'" : "','"))
					return false;
			}
		} else {
			expected(P, "an attribute (.managed or .unified)");
			return false;
		}
		if (!accept(P, ','))
			break;
	}
	return expect(P, ')', "')'");
}

static Init *parse_init(Parser *P, bool opaque);

/* A constant as an initializer value. */
static void init_set_val(Init *it, const Val *v)
{
	it->kind = v->is_float ? IN_FLOAT : IN_INT;
	it->ival = v->v;
	it->fval = v->f;
	it->fkind = v->fkind;
	it->is_unsigned = v->is_unsigned;
}

/* name [ = value ] inside an opaque initializer */
static bool parse_field(Parser *P, Init *it)
{
	it->pos = P->tok.pos;
	if (P->tok.kind != T_IDENT) {
		expected(P, "a member name");
		return false;
	}
	it->name = tok_str(&P->tok);
	next(P);
	if (!expect(P, '=', "'=' after the member name"))
		return false;
	if (P->tok.kind == T_IDENT) {
		it->word = tok_str(&P->tok);
		it->sub = NULL;
		next(P);
		return true;
	}
	Val v;
	Pos p = P->tok.pos;
	if (!parse_expr(P, &v))
		return false;
	Init *x = alloc(P, sizeof *x);
	x->pos = p;
	init_set_val(x, &v);
	it->sub = x;
	return true;
}

/* symbol [+/- offset] | generic(symbol) [+/- offset] */
static bool parse_sym_init(Parser *P, Init *it)
{
	it->kind = IN_SYM;
	it->pos = P->tok.pos;
	if (is_ident(&P->tok, "generic") && is_punct(peek(P), '(')) {
		next(P);
		next(P);
		if (P->tok.kind != T_IDENT) {
			expected(P, "a variable name in generic()");
			return false;
		}
		it->generic = 1;
		it->name = tok_str(&P->tok);
		next(P);
		if (!expect(P, ')', "')'"))
			return false;
	} else {
		it->name = tok_str(&P->tok);
		next(P);
	}
	if (is_punct(&P->tok, '+')) {
		next(P);
		uint64_t off;
		if (!parse_int_expr(P, &off, "an offset"))
			return false;
		it->off = (int64_t)off;
	}
	return true;
}

static Init *parse_init_(Parser *P, bool opaque);

static Init *parse_init(Parser *P, bool opaque)
{
	Init *it = enter(P) ? parse_init_(P, opaque) : NULL;
	P->depth--;
	return it;
}

static Init *parse_init_(Parser *P, bool opaque)
{
	Init *it = alloc(P, sizeof *it);
	it->pos = P->tok.pos;
	if (is_punct(&P->tok, '{')) {
		next(P);
		Init *v = NULL;
		size_t n = 0, cap = 0;
		/* opaque: { name = v, ... }, or for an array { {..}, {..} } */
		bool fields = (opaque && !is_punct(&P->tok, '{')) ||
			      (P->tok.kind == T_IDENT && is_punct(peek(P), '='));
		it->kind = fields ? IN_FIELDS : IN_LIST;
		if (!is_punct(&P->tok, '}')) {
			for (;;) {
				v = vec_grow(v, &cap, n + 1, sizeof *v);
				memset(&v[n], 0, sizeof v[n]);
				if (fields) {
					if (!parse_field(P, &v[n++])) {
						free(v);
						return NULL;
					}
				} else {
					Init *e = parse_init(P, opaque);
					if (!e) {
						free(v);
						return NULL;
					}
					v[n++] = *e;
				}
				if (!accept(P, ','))
					break;
			}
		}
		it->items = freeze(P, v, n, sizeof *v);
		it->n = (uint32_t)n;
		if (!expect(P, '}', "'}'"))
			return NULL;
		return it;
	}
	if (P->tok.kind == T_IDENT) {
		if (!parse_sym_init(P, it))
			return NULL;
		return it;
	}
	/* mask(expr): an integer literal directly followed by '(' */
	if (P->tok.kind == T_INT && is_punct(peek(P), '(')) {
		it->kind = IN_MASK;
		it->ival = P->tok.ival;
		next(P);
		next(P);
		Init *sub = alloc(P, sizeof *sub);
		sub->pos = P->tok.pos;
		if (P->tok.kind == T_IDENT) {
			if (!parse_sym_init(P, sub))
				return NULL;
		} else {
			Val v;
			if (!parse_expr(P, &v))
				return NULL;
			init_set_val(sub, &v);
		}
		it->sub = sub;
		if (!expect(P, ')', "')'"))
			return NULL;
		return it;
	}
	Val v;
	if (!parse_expr(P, &v))
		return NULL;
	init_set_val(it, &v);
	return it;
}

/* The qualifiers and type of a declaration, up to the first name. */
static bool parse_decl_head(Parser *P, Decl *d, uint8_t linkage)
{
	d->linkage = linkage;
	d->pos = P->tok.pos;
	d->range = -1;
	int sp = space_of(&P->tok);
	if (sp < 0) {
		expected(P, "a state space");
		return false;
	}
	d->space = (uint8_t)sp;
	next(P);
	bool have_type = false;
	for (;;) {
		Token *t = &P->tok;
		int ty;
		if (is_dot(t, "align")) {
			if (have_type && !d->ptr) {
				error_at(P, t->pos, ".align comes before the type");
				return false;
			}
			next(P);
			if (P->tok.kind != T_INT) {
				expected(P, "an integer alignment");
				return false;
			}
			uint64_t a = P->tok.ival;
			next(P);
			if (d->ptr)
				d->ptr_align = (uint32_t)(a > UINT32_MAX ? UINT32_MAX : a);
			else
				d->align = (uint32_t)(a > UINT32_MAX ? UINT32_MAX : a);
			if (a == 0 || a > UINT32_MAX) {
				if (d->ptr) d->ptr_align = 3; else d->align = 3;    /* not a power of two: checker reports */
			}
		} else if (is_dot(t, "attribute")) {
			if (have_type) {
				error_at(P, t->pos, ".attribute comes before the type");
				return false;
			}
			d->attr_pos = t->pos;
			if (!parse_attribute(P, &d->managed, &d->unified, d->uuid))
				return false;
		} else if (is_dot(t, "v2") || is_dot(t, "v4") || is_dot(t, "v8")) {
			d->vec = (uint8_t)(t->p[1] - '0');
			d->nvec++;
			d->vec_after_type |= have_type;
			next(P);
		} else if (is_dot(t, "ptr")) {
			d->ptr = 1;
			d->attr_pos = t->pos;
			next(P);
		} else if (d->ptr && space_of(t) >= 0) {
			d->ptr_space = (uint8_t)space_of(t);
			next(P);
		} else if ((ty = type_of(t)) >= 0) {
			if (have_type && d->ptr && ty >= TY__COUNT) {
				d->ptr_opaque = (uint8_t)ty;
			} else if (have_type) {
				error_at(P, t->pos, "a declaration has one type");
				return false;
			} else {
				d->type = (uint8_t)ty;
				have_type = true;
			}
			next(P);
		} else {
			break;
		}
	}
	if (!have_type) {
		expected(P, "a type");
		return false;
	}
	return true;
}

/* name [<N>] {[dim]} [= init] */
static bool parse_declarator(Parser *P, Decl *d)
{
	if (P->tok.kind != T_IDENT) {
		expected(P, "a name");
		return false;
	}
	d->name = tok_str(&P->tok);
	d->pos = P->tok.pos;
	next(P);
	if (is_punct(&P->tok, '<')) {
		next(P);
		if (P->tok.kind != T_INT) {
			expected(P, "a count in '<N>'");
			return false;
		}
		d->range = P->tok.ival > INT32_MAX ? INT32_MAX : (int64_t)P->tok.ival;
		next(P);
		if (!expect(P, '>', "'>'"))
			return false;
	}
	while (is_punct(&P->tok, '[')) {
		Pos p = P->tok.pos;
		next(P);
		if (d->ndim == 4) {
			error_at(P, p, "too many array dimensions");
			return false;
		}
		if (is_punct(&P->tok, ']')) {
			if (d->ndim == 0)
				d->dim_omitted = 1;
			else {
				error_at(P, P->tok.pos, "only the first array dimension may be omitted");
				return false;
			}
			d->dim[d->ndim++] = 0;
		} else {
			if (P->tok.kind != T_INT) {
				expected(P, "an integer array dimension");
				return false;
			}
			d->dim[d->ndim++] = P->tok.ival;
			next(P);
		}
		if (!expect(P, ']', "']'"))
			return false;
	}
	if (accept(P, '=')) {
		d->has_init = 1;
		d->init = parse_init(P, d->type >= TY__COUNT);
		if (!d->init)
			return false;
	}
	return true;
}

/* A declaration statement: head then declarators separated by ','.  The
 * Decls are appended to *v. */
static bool parse_decls(Parser *P, uint8_t linkage, Decl **v, size_t *n, size_t *cap)
{
	Decl head = { 0 };
	if (!parse_decl_head(P, &head, linkage))
		return false;
	for (;;) {
		*v = vec_grow(*v, cap, *n + 1, sizeof **v);
		Decl *d = &(*v)[(*n)++];
		*d = head;
		if (!parse_declarator(P, d))
			return false;
		if (!accept(P, ','))
			break;
	}
	return expect(P, ';', "';' after the declaration");
}

/* ( .param type name, ... ) */
static bool parse_params(Parser *P, Decl **out, uint32_t *nout)
{
	Decl *v = NULL;
	size_t n = 0, cap = 0;
	next(P);        /* ( */
	if (!is_punct(&P->tok, ')')) {
		for (;;) {
			v = vec_grow(v, &cap, n + 1, sizeof *v);
			Decl *d = &v[n++];
			memset(d, 0, sizeof *d);
			if (!parse_decl_head(P, d, 0) || !parse_declarator(P, d)) {
				free(v);
				return false;
			}
			if (!accept(P, ','))
				break;
		}
	}
	*out = freeze(P, v, n, sizeof *v);
	*nout = (uint32_t)n;
	return expect(P, ')', "')' after the parameters");
}

/* ---- functions ---------------------------------------------------------- */
typedef struct StmtVec {
	Stmt *v;
	size_t n, cap;
} StmtVec;

static Stmt *push_stmt(StmtVec *s, StmtKind k, Pos p)
{
	s->v = vec_grow(s->v, &s->cap, s->n + 1, sizeof *s->v);
	Stmt *st = &s->v[s->n++];
	memset(st, 0, sizeof *st);
	st->kind = (uint8_t)k;
	st->pos = p;
	return st;
}

static Func *parse_proto(Parser *P, Pos pos);

/* label: .branchtargets / .calltargets name {, name} ; */
static bool parse_targets(Parser *P, Stmt *st)
{
	st->kind = ST_TARGETS;
	st->tkind = is_dot(&P->tok, "branchtargets") ? 'b' : 'c';
	next(P);
	Opnd *v = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (P->tok.kind != T_IDENT) {
			expected(P, "a name");
			free(v);
			return false;
		}
		v = vec_grow(v, &cap, n + 1, sizeof *v);
		memset(&v[n], 0, sizeof v[n]);
		parse_name(P, &v[n++]);
		if (!accept(P, ','))
			break;
	}
	st->list = freeze(P, v, n, sizeof *v);
	st->nlist = (uint32_t)n;
	return expect(P, ';', "';'");
}

static void parse_statement(Parser *P, StmtVec *body, int *depth)
{
	Token *t = &P->tok;
	Pos pos = t->pos;
	if (is_punct(t, '{')) {
		push_stmt(body, ST_OPEN, pos);
		(*depth)++;
		next(P);
		return;
	}
	if (is_punct(t, '}')) {
		push_stmt(body, ST_CLOSE, pos);
		(*depth)--;
		next(P);
		return;
	}
	if (is_dot(t, "loc") || is_dot(t, "file")) {
		Stmt *st = push_stmt(body, ST_LOC, pos);
		st->name = tok_str(t);
		lex_rest_of_line(&P->lx, &st->text.p, &st->text.n);
		next(P);
		return;
	}
	if (is_dot(t, "pragma")) {
		Stmt *st = push_stmt(body, ST_PRAGMA, pos);
		next(P);
		if (P->tok.kind != T_STRING) {
			expected(P, "a string after .pragma");
			return;
		}
		st->text = tok_str(&P->tok);
		next(P);
		expect(P, ';', "';' after .pragma");
		return;
	}
	if (space_of(t) >= 0) {
		Decl *v = NULL;
		size_t n = 0, cap = 0;
		bool ok = parse_decls(P, 0, &v, &n, &cap);
		for (size_t i = 0; i < n && ok; i++) {
			Stmt *st = push_stmt(body, ST_DECL, v[i].pos);
			st->decl = alloc(P, sizeof *st->decl);
			*st->decl = v[i];
		}
		free(v);
		return;
	}
	if (t->kind == T_DOT) {
		error_at(P, pos, "unexpected directive '.%.*s' in a function body", (int)t->n, t->p);
		return;
	}
	Opnd *guard = NULL;
	if (is_punct(t, '@')) {
		next(P);
		guard = alloc(P, sizeof *guard);
		if (accept(P, '!'))
			guard->neg = 1;
		if (P->tok.kind != T_IDENT) {
			expected(P, "a predicate after '@'");
			return;
		}
		bool neg = guard->neg;
		parse_name(P, guard);
		guard->neg = neg;
		guard->pos = pos;
	} else if (t->kind == T_IDENT && is_punct(peek(P), ':')) {
		Str name = tok_str(t);
		next(P);
		next(P);
		if (is_dot(&P->tok, "branchtargets") || is_dot(&P->tok, "calltargets")) {
			Stmt *st = push_stmt(body, ST_TARGETS, pos);
			st->name = name;
			parse_targets(P, st);
		} else if (is_dot(&P->tok, "callprototype")) {
			Func *f = parse_proto(P, pos);
			if (f) {
				Stmt *st = push_stmt(body, ST_PROTO, pos);
				st->name = name;
				f->name = name;
				st->proto = f;
			}
		} else {
			Stmt *st = push_stmt(body, ST_LABEL, pos);
			st->name = name;
		}
		return;
	}
	if (P->tok.kind != T_IDENT) {
		expected(P, "an instruction");
		return;
	}
	Instr *in = parse_instr(P, guard);
	if (in) {
		Stmt *st = push_stmt(body, ST_INSTR, in->pos);
		st->in = in;
	}
}

/* .callprototype [( ret )] _ ( params ) ; */
static Func *parse_proto(Parser *P, Pos pos)
{
	Func *f = alloc(P, sizeof *f);
	f->pos = pos;
	f->proto = 1;
	next(P);
	if (is_punct(&P->tok, '(')) {
		f->has_rets = 1;
		if (!parse_params(P, &f->rets, &f->nrets))
			return NULL;
	}
	if (!is_ident(&P->tok, "_")) {
		expected(P, "'_' in a .callprototype");
		return NULL;
	}
	next(P);
	if (is_punct(&P->tok, '(') && !parse_params(P, &f->params, &f->nparams))
		return NULL;
	if (is_dot(&P->tok, "noreturn")) {
		PerfDir *pd = alloc(P, sizeof *pd);
		pd->kind = PD_NORETURN;
		pd->pos = P->tok.pos;
		f->perf = pd;
		f->nperf = 1;
		next(P);
	}
	if (!expect(P, ';', "';' after the prototype"))
		return NULL;
	return f;
}

static int perf_of(const Token *t)
{
	if (t->kind != T_DOT)
		return -1;
	for (int i = 0; i < PD__COUNT; i++)
		if (i != PD_PRAGMA && is_dot(t, perf_name[i]))
			return i;
	return -1;
}

static Func *parse_func(Parser *P, uint8_t linkage)
{
	Func *f = alloc(P, sizeof *f);
	f->pos = P->tok.pos;
	f->entry = is_dot(&P->tok, "entry");
	f->linkage = linkage;
	next(P);
	if (is_dot(&P->tok, "attribute") && !parse_attribute(P, &f->managed, &f->unified, f->uuid))
		return NULL;
	if (is_punct(&P->tok, '(')) {
		f->has_rets = 1;
		if (!parse_params(P, &f->rets, &f->nrets))
			return NULL;
	}
	if (P->tok.kind != T_IDENT) {
		expected(P, "a function name");
		return NULL;
	}
	f->name = tok_str(&P->tok);
	f->pos = P->tok.pos;
	next(P);
	if (is_punct(&P->tok, '(') && !parse_params(P, &f->params, &f->nparams))
		return NULL;
	PerfDir *pv = NULL;
	size_t np = 0, pcap = 0;
	int k;
	while ((k = perf_of(&P->tok)) >= 0 || is_dot(&P->tok, "pragma")) {
		pv = vec_grow(pv, &pcap, np + 1, sizeof *pv);
		PerfDir *pd = &pv[np++];
		memset(pd, 0, sizeof *pd);
		pd->pos = P->tok.pos;
		if (k < 0) {
			pd->kind = PD_PRAGMA;
			next(P);
			if (P->tok.kind != T_STRING) {
				expected(P, "a string after .pragma");
				free(pv);
				return NULL;
			}
			pd->text = tok_str(&P->tok);
			next(P);
			accept(P, ';');
			continue;
		}
		pd->kind = (uint8_t)k;
		next(P);
		if (k == PD_NORETURN || k == PD_EXPLICITCLUSTER || k == PD_BLOCKSARECLUSTERS)
			continue;
		for (;;) {
			uint64_t v;
			if (pd->n == 3) {
				error_at(P, P->tok.pos, "at most three values");
				free(pv);
				return NULL;
			}
			if (!parse_int_expr(P, &v, "a directive value")) {
				free(pv);
				return NULL;
			}
			pd->v[pd->n++] = (uint32_t)(v > UINT32_MAX ? UINT32_MAX : v);
			if (!accept(P, ','))
				break;
		}
	}
	f->perf = freeze(P, pv, np, sizeof *pv);
	f->nperf = (uint32_t)np;
	if (accept(P, ';'))
		return f;
	if (!is_punct(&P->tok, '{')) {
		expected(P, "'{' or ';' after the function header");
		return NULL;
	}
	f->has_body = 1;
	StmtVec body = { 0 };
	int depth = 0;
	do {
		if (P->tok.kind == T_EOF) {
			error_at(P, f->pos, "function '%.*s' has no closing '}'", (int)f->name.n, f->name.p);
			break;
		}
		parse_statement(P, &body, &depth);
		if (P->failed) {
			recover(P);
		}
	} while (depth > 0);
	f->body = freeze(P, body.v, body.n, sizeof *body.v);
	f->nbody = (uint32_t)body.n;
	return f;
}

/* ---- module directives -------------------------------------------------- */
static Top *push_top(Parser *P, Top **v, size_t *n, size_t *cap, TopKind k, Pos p)
{
	(void)P;
	*v = vec_grow(*v, cap, *n + 1, sizeof **v);
	Top *t = &(*v)[(*n)++];
	memset(t, 0, sizeof *t);
	t->kind = (uint8_t)k;
	t->pos = p;
	return t;
}

/* .version MAJOR.MINOR: the lexer sees "7.8" as a decimal float. */
static void parse_version(Parser *P)
{
	Module *m = P->m;
	Pos p = P->tok.pos;
	next(P);
	if (m->has_version) {
		error_at(P, p, "duplicate .version directive");
		return;
	}
	Token t = P->tok;
	const char *s = t.p, *e = t.p + t.n;
	unsigned maj = 0, min = 0;
	const char *q = s;
	while (q < e && *q >= '0' && *q <= '9')
		maj = maj * 10 + (unsigned)(*q++ - '0');
	bool ok = t.kind == T_FLOAT && t.fkind == 0 && q > s && q < e && *q == '.';
	if (ok) {
		const char *r = ++q;
		while (q < e && *q >= '0' && *q <= '9')
			min = min * 10 + (unsigned)(*q++ - '0');
		ok = q == e && q > r && maj < 100 && min < 10;
	}
	if (!ok) {
		expected(P, "a version number MAJOR.MINOR");
		return;
	}
	m->has_version = 1;
	m->ver_major = (uint8_t)maj;
	m->ver_minor = (uint8_t)min;
	m->ver_pos = p;
	next(P);
}

static void parse_target(Parser *P)
{
	Module *m = P->m;
	Pos p = P->tok.pos;
	next(P);
	Target *v = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (P->tok.kind != T_IDENT) {
			expected(P, "a target name");
			free(v);
			return;
		}
		v = vec_grow(v, &cap, n + 1, sizeof *v);
		v[n].name = tok_str(&P->tok);
		v[n++].pos = P->tok.pos;
		next(P);
		if (!accept(P, ','))
			break;
	}
	if (m->ntargets) {
		free(v);        /* a later .target: ptxas accepts and ignores it */
		return;
	}
	m->targets = freeze(P, v, n, sizeof *v);
	m->ntargets = (uint32_t)n;
	m->target_pos = p;
}

/* .section NAME { ... } : kept verbatim for the writer. */
static void parse_section(Parser *P, Top *t)
{
	const char *start = P->tok.p - 1;      /* the dot */
	next(P);
	int depth = 0;
	while (P->tok.kind != T_EOF) {
		if (is_punct(&P->tok, '{'))
			depth++;
		else if (is_punct(&P->tok, '}') && --depth == 0)
			break;
		next(P);
	}
	if (P->tok.kind == T_EOF) {
		error_at(P, t->pos, "unterminated .section");
		return;
	}
	t->text = (Str){ start, (uint32_t)(P->tok.p + 1 - start) };
	next(P);
}

static void parse_toplevel(Parser *P, Top **v, size_t *n, size_t *cap)
{
	Module *m = P->m;
	Token *t = &P->tok;
	Pos pos = t->pos;
	uint32_t seq = P->seq++;
	if (is_dot(t, "version")) {
		m->ver_seq = seq;
		parse_version(P);
		return;
	}
	if (is_dot(t, "target")) {
		if (!m->ntargets)
			m->target_seq = seq;
		parse_target(P);
		return;
	}
	if (is_dot(t, "address_size")) {
		if (m->has_asize) {
			error_at(P, pos, "duplicate .address_size directive");
			return;
		}
		m->asize_seq = seq;
		next(P);
		if (P->tok.kind != T_INT) {
			expected(P, "32 or 64 after .address_size");
			return;
		}
		m->has_asize = 1;
		m->address_size = (uint32_t)(P->tok.ival > 1000 ? 1000 : P->tok.ival);
		m->asize_pos = pos;
		next(P);
		return;
	}
	if (is_dot(t, "file")) {
		Top *tp = push_top(P, v, n, cap, TOP_FILE, pos);
		next(P);
		if (P->tok.kind != T_INT) {
			expected(P, "a file number");
			return;
		}
		tp->fileno = (uint32_t)P->tok.ival;
		lex_rest_of_line(&P->lx, &tp->text.p, &tp->text.n);
		next(P);
		return;
	}
	if (is_dot(t, "section")) {
		Top *tp = push_top(P, v, n, cap, TOP_SECTION, pos);
		m->has_debug_sections = 1;
		parse_section(P, tp);
		return;
	}
	uint8_t linkage = 0;
	for (;;) {
		if (linkage && (is_dot(t, "visible") || is_dot(t, "extern") || is_dot(t, "weak") || is_dot(t, "common"))) {
			error_at(P, t->pos, "only one of .visible, .extern, .weak and .common");
			return;
		}
		if (is_dot(t, "visible"))
			linkage |= L_VISIBLE;
		else if (is_dot(t, "extern"))
			linkage |= L_EXTERN;
		else if (is_dot(t, "weak"))
			linkage |= L_WEAK;
		else if (is_dot(t, "common"))
			linkage |= L_COMMON;
		else
			break;
		next(P);
	}
	if (is_dot(t, "align") || is_dot(t, "attribute")) {
		/* ".align 8 .global .u32 v;": ptxas takes these before the space */
		Decl pre = { 0 };
		Token at = *t;
		if (is_dot(t, "align")) {
			next(P);
			if (P->tok.kind != T_INT) {
				expected(P, "an integer alignment");
				return;
			}
			pre.align = P->tok.ival && P->tok.ival <= UINT32_MAX ? (uint32_t)P->tok.ival : 3;
			next(P);
		} else {
			pre.attr_pos = at.pos;
			if (!parse_attribute(P, &pre.managed, &pre.unified, pre.uuid))
				return;
		}
		if (space_of(&P->tok) < 0) {
			expected(P, "a state space");
			return;
		}
		Decl *dv = NULL;
		size_t dn = 0, dcap = 0;
		bool ok = parse_decls(P, linkage, &dv, &dn, &dcap);
		for (size_t i = 0; i < dn && ok; i++) {
			if (pre.align && !dv[i].align)
				dv[i].align = pre.align;
			if (pre.managed || pre.unified) {
				dv[i].managed |= pre.managed;
				dv[i].unified |= pre.unified;
				dv[i].uuid[0] = pre.uuid[0];
				dv[i].uuid[1] = pre.uuid[1];
				dv[i].attr_pos = pre.attr_pos;
			}
			Top *tp = push_top(P, v, n, cap, TOP_DECL, dv[i].pos);
			tp->decl = alloc(P, sizeof *tp->decl);
			*tp->decl = dv[i];
		}
		free(dv);
		return;
	}
	if (is_dot(t, "entry") || is_dot(t, "func")) {
		Func *f = parse_func(P, linkage);
		if (f) {
			Top *tp = push_top(P, v, n, cap, TOP_FUNC, f->pos);
			tp->func = f;
		}
		return;
	}
	if (space_of(t) >= 0) {
		Decl *dv = NULL;
		size_t dn = 0, dcap = 0;
		bool ok = parse_decls(P, linkage, &dv, &dn, &dcap);
		for (size_t i = 0; i < dn && ok; i++) {
			Top *tp = push_top(P, v, n, cap, TOP_DECL, dv[i].pos);
			tp->decl = alloc(P, sizeof *tp->decl);
			*tp->decl = dv[i];
		}
		free(dv);
		return;
	}
	if (t->kind == T_PUNCT && t->c == '#') {
		error_at(P, pos, "preprocessor directives are not supported");
		return;
	}
	if (t->kind == T_DOT)
		error_at(P, pos, "unknown directive '.%.*s'", (int)t->n, t->p);
	else
		expected(P, "a directive");
}

/* After an error at module scope: skip to the next directive that can
 * start a module item, so that junk is reported once. */
static void recover_top(Parser *P)
{
	static const char *const starts[] = { "version", "target", "address_size", "file", "section",
		"visible", "extern", "weak", "common", "entry", "func", "global", "const", "shared",
		"align", "attribute", NULL };
	for (;;) {
		if (P->tok.kind == T_EOF)
			break;
		if (P->tok.kind == T_DOT)
			for (int i = 0; starts[i]; i++)
				if (is_dot(&P->tok, starts[i]))
					goto done;
		next(P);
	}
done:
	P->failed = false;
}

Module *ptx_parse(const char *filename, const char *src, size_t n)
{
	isa_init();
	Module *m = calloc(1, sizeof *m);
	if (!m)
		abort();
	m->filename = filename;
	m->src = src;
	m->srclen = n;
	m->diags.file = filename;
	m->diags.src = src;
	m->diags.srclen = n;
	m->diags.limit = 1000;
	Parser P = { 0 };
	P.m = m;
	P.a = &m->arena;
	P.d = &m->diags;
	lex_init(&P.lx, src, n, &m->diags);
	next(&P);
	Top *v = NULL;
	size_t nt = 0, cap = 0;
	while (P.tok.kind != T_EOF) {
		const char *start = P.tok.p;
		parse_toplevel(&P, &v, &nt, &cap);
		if (P.failed) {
			if (P.tok.p == start)
				next(&P);       /* always make progress */
			recover_top(&P);
		}
	}
	m->top = freeze(&P, v, nt, sizeof *v);
	m->ntop = (uint32_t)nt;
	return m;
}

void ptx_module_free(Module *m)
{
	if (!m)
		return;
	arena_free(&m->arena);
	diag_free(&m->diags);
	free(m);
}

int64_t ptx_name_index(Str name, Str *prefix)
{
	uint32_t i = name.n;
	while (i > 0 && name.p[i - 1] >= '0' && name.p[i - 1] <= '9')
		i--;
	if (i == name.n || i == 0 || name.n - i > 9)
		return -1;
	int64_t v = 0;
	for (uint32_t j = i; j < name.n; j++)
		v = v * 10 + (name.p[j] - '0');
	prefix->p = name.p;
	prefix->n = i;
	return v;
}
