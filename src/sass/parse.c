/* parse.c: the SASS ATOM text format (docs/ATOM.md) into a ptxvm_sass.
 *
 * One line at a time: a comment ('#' or '//') runs to the end of the line;
 * a line is empty, a register or predicate setting, a directive (mem, set,
 * shared, local, sparse) or an ATOM instruction.  The first error of a
 * line is reported at its column and the rest of the line is skipped.
 */
#include "sass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const sass_window_name[3] = { "shared", "local", "sparse" };

/* The set directives, applied after the whole file is read. */
typedef struct Sets {
	SassSet *v;
	size_t n, cap;
	Buf bytes;
} Sets;

typedef struct Cur {
	ptxvm_sass *s;
	const char *line;       /* start of the line */
	const char *p;          /* the cursor */
	const char *end;        /* end of the line's content (comment excluded) */
	uint32_t lno;
	bool bad;               /* an error was reported on this line */
	Sets *sets;
} Cur;

static void err(Cur *c, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err(Cur *c, const char *at, const char *fmt, ...)
{
	if (c->bad)
		return;
	c->bad = true;
	va_list ap;
	va_start(ap, fmt);
	Pos p = { c->lno, (uint32_t)(at - c->line) + 1 };
	diag_vadd(&c->s->diags, DIAG_ERROR, p, fmt, ap);
	va_end(ap);
}

static bool is_word(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

static void ws(Cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

/* A word at the cursor: its length (0 if none); the cursor moves past it. */
static size_t word(Cur *c, const char **start)
{
	*start = c->p;
	while (c->p < c->end && is_word(*c->p))
		c->p++;
	return (size_t)(c->p - *start);
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !strncasecmp(w, s, n);
}

/* The text of the token at q, for messages: up to the next space or comma. */
static int toklen(const Cur *c, const char *q)
{
	const char *e = q;
	while (e < c->end && *e != ' ' && *e != '\t' && *e != ',' && *e != ']' && *e != ';')
		e++;
	if (e == q && q < c->end)
		e++;
	return (int)(e - q > 40 ? 40 : e - q);
}

/* ---- numbers ---------------------------------------------------------------- */

/* [-]DIGITS or [-]0xHEX: *mag the magnitude, *neg the sign.  false (after
 * reporting) if there is no number or it exceeds 64 bits. */
static bool number(Cur *c, const char *what, bool *neg, uint64_t *mag)
{
	const char *q = c->p;
	*neg = false;
	if (c->p < c->end && *c->p == '-') {
		*neg = true;
		c->p++;
	}
	const char *d = c->p;
	int base = 10;
	if (c->end - c->p > 2 && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X')) {
		base = 16;
		c->p += 2;
		d = c->p;
	}
	uint64_t v = 0;
	bool over = false;
	while (c->p < c->end) {
		char ch = *c->p;
		int dv;
		if (ch >= '0' && ch <= '9')
			dv = ch - '0';
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			dv = ch - 'a' + 10;
		else if (base == 16 && ch >= 'A' && ch <= 'F')
			dv = ch - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base)
			over = true;
		v = v * (uint64_t)base + (uint64_t)dv;
		c->p++;
	}
	if (c->p == d || (c->p < c->end && is_word(*c->p))) {
		err(c, q, "expected %s, found '%.*s'", what, toklen(c, q), q);
		return false;
	}
	if (over) {
		err(c, q, "%s '%.*s' does not fit in 64 bits", what, (int)(c->p - q), q);
		return false;
	}
	*mag = v;
	return true;
}

/* An unsigned number. */
static bool unumber(Cur *c, const char *what, uint64_t *v)
{
	const char *q = c->p;
	bool neg;
	if (!number(c, what, &neg, v))
		return false;
	if (neg) {
		err(c, q, "%s cannot be negative", what);
		return false;
	}
	return true;
}

/* A value of `bits` bits (8..64): an integer in [-2^(bits-1), 2^bits - 1]
 * (two's complement), f32:FLOAT (bits 32) or f64:FLOAT (bits 64); with
 * bare set, a floating-point number of `bits` bits without the prefix. */
static bool value(Cur *c, unsigned bits, bool bare, uint64_t *out)
{
	const char *q = c->p;
	bool prefixed = c->end - c->p >= 4 && (!strncasecmp(c->p, "f32:", 4) || !strncasecmp(c->p, "f64:", 4));
	if (bare || prefixed) {
		bool is64 = prefixed ? c->p[1] == '6' : bits == 64;
		if (is64 != (bits == 64) || (!is64 && bits != 32)) {
			err(c, q, "a %s value does not fit here (%u bits)", is64 ? "f64" : "f32", bits);
			return false;
		}
		char tmp[64];
		const char *v = prefixed ? c->p + 4 : c->p, *e = v;
		while (e < c->end && *e != ' ' && *e != '\t' && *e != ',' && *e != '\r')
			e++;
		size_t n = (size_t)(e - v);
		if (n == 0 || n >= sizeof tmp) {
			err(c, v, "expected a floating-point number");
			return false;
		}
		memcpy(tmp, v, n);
		tmp[n] = 0;
		char *stop;
		if (is64) {
			double d = strtod(tmp, &stop);
			memcpy(out, &d, 8);
		} else {
			float f = strtof(tmp, &stop);
			uint32_t u;
			memcpy(&u, &f, 4);
			*out = u;
		}
		if (*stop) {
			err(c, v, "'%s' is not a floating-point number", tmp);
			return false;
		}
		c->p = e;
		return true;
	}
	bool neg;
	uint64_t mag;
	if (!number(c, "a value", &neg, &mag))
		return false;
	uint64_t max = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
	uint64_t nmax = 1ull << (bits - 1);
	if ((!neg && mag > max) || (neg && mag > nmax)) {
		err(c, q, "value %.*s does not fit in %u bits", (int)(c->p - q), q, bits);
		return false;
	}
	*out = (neg ? 0 - mag : mag) & max;
	return true;
}

/* ---- registers ---------------------------------------------------------------- */

/* Rn or RZ at the cursor; false (reported) if not a register. */
static bool reg(Cur *c, const char *what, uint8_t *r)
{
	const char *q;
	size_t n = word(c, &q);
	if (n == 2 && !strncasecmp(q, "RZ", 2)) {
		*r = SASS_RZ;
		return true;
	}
	if (n >= 2 && (q[0] == 'R' || q[0] == 'r')) {
		unsigned v = 0;
		size_t i = 1;
		for (; i < n && q[i] >= '0' && q[i] <= '9' && v < 1000; i++)
			v = v * 10 + (unsigned)(q[i] - '0');
		if (i == n) {
			if (v > 254 || (n > 2 && q[1] == '0')) {
				err(c, q, "'%.*s' is not a register: the registers are R0..R254 and RZ", (int)n, q);
				return false;
			}
			*r = (uint8_t)v;
			return true;
		}
	}
	c->p = q;
	err(c, q, "expected %s (R0..R254 or RZ), found '%.*s'", what, toklen(c, q), q);
	return false;
}

/* Pn or PT; returns 1 if the word is a predicate, 0 if it is not one (the
 * cursor unmoved, nothing reported), -1 after reporting a bad one. */
static int pred(Cur *c, uint8_t *p)
{
	const char *q = c->p, *w;
	size_t n = word(c, &w);
	if (n == 2 && (w[0] == 'P' || w[0] == 'p')) {
		if (w[1] == 'T' || w[1] == 't') {
			*p = SASS_PT;
			return 1;
		}
		if (w[1] >= '0' && w[1] <= '6') {
			*p = (uint8_t)(w[1] - '0');
			return 1;
		}
		if (w[1] >= '7' && w[1] <= '9') {
			err(c, w, "'%.2s' is not a predicate: the predicates are P0..P6 and PT", w);
			return -1;
		}
	}
	c->p = q;
	return 0;
}

/* ---- instructions ---------------------------------------------------------------- */

enum { K_REG, K_PRED, K_MEM };
typedef struct Opnd {
	int kind;
	const char *at;
	uint8_t r;              /* K_REG, K_PRED */
	uint8_t has_ra, ra, has_imm;
	int64_t imm;
	const char *imm_at;
} Opnd;

static const char *form_text(int op, bool sparse)
{
	if (op == AT_CAS)
		return sparse ? "Ps, Rd, [Ra], Rb, Rc" : "Rd, [Ra + ImmS20], Rb, Rc";
	return sparse ? "Ps, Rd, [Ra], Rb" : "Rd, [Ra + ImmS20], Rb";
}

/* '[' Ra ']' | '[' Ra (+|-) IMM ']' | '[' IMM ']' */
static bool mem_opnd(Cur *c, Opnd *o)
{
	c->p++;         /* '[' */
	ws(c);
	o->has_ra = o->has_imm = 0;
	o->imm = 0;
	if (c->p < c->end && (*c->p == 'R' || *c->p == 'r')) {
		if (!reg(c, "the address register Ra", &o->ra))
			return false;
		o->has_ra = 1;
		ws(c);
		if (c->p < c->end && (*c->p == '+' || *c->p == '-')) {
			bool minus = *c->p == '-';
			c->p++;
			ws(c);
			o->imm_at = c->p;
			bool neg;
			uint64_t mag;
			if (!number(c, "an immediate offset", &neg, &mag))
				return false;
			if (neg)
				minus = !minus;
			if (mag > 0x80000 || (!minus && mag > 0x7ffff)) {
				err(c, o->imm_at, "offset %s%.*s does not fit ImmS20 (-524288..524287)", minus ? "-" : "",
				    (int)(c->p - o->imm_at), o->imm_at);
				return false;
			}
			o->imm = minus ? -(int64_t)mag : (int64_t)mag;
			o->has_imm = 1;
			ws(c);
		}
	} else {
		o->imm_at = c->p;
		bool neg;
		uint64_t mag;
		if (!number(c, "a register Ra or an absolute address", &neg, &mag))
			return false;
		if (neg || mag > 0xfffff) {
			err(c, o->imm_at, "absolute address %.*s does not fit ImmU20 (0..0xfffff)",
			    (int)(c->p - o->imm_at), o->imm_at);
			return false;
		}
		o->imm = (int64_t)mag;
		o->has_imm = 1;
		ws(c);
	}
	if (c->p >= c->end || *c->p != ']') {
		err(c, c->p, "expected ']' to end the address, found '%.*s'", toklen(c, c->p), c->p);
		return false;
	}
	c->p++;
	return true;
}

/* The sizes op allows, as ".U32, .S32 or .U64". */
static void sizes_text(int op, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	int k = 0, total = 0;
	for (int z = 0; z < AS__COUNT; z++)
		total += atom_sass_allowed(op, z);
	for (int z = 0; z < AS__COUNT; z++)
		if (atom_sass_allowed(op, z)) {
			k++;
			len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s.%s",
						k == 1 ? "" : k == total ? " or " : ", ", atom_sass_size[z].name);
			if (len >= n)
				return;
		}
}

/* A register that holds a 64-bit value with the next one. */
static bool pair_ok(Cur *c, const char *at, uint8_t r, const char *what, const char *ins)
{
	if (r == SASS_RZ)
		return true;
	if (r & 1) {
		err(c, at, "%s %s is the register pair R%u, R%u: it must start at an even register, not R%u",
		    ins, what, r, r + 1, r);
		return false;
	}
	if (r == 254) {
		err(c, at, "%s %s cannot be R254: the pair R254, R255 would include RZ", ins, what);
		return false;
	}
	return true;
}

static void instruction(Cur *c)
{
	ptxvm_sass *s = c->s;
	SassIns in = { 0 };
	const char *start = c->p;
	in.line = c->lno;
	in.col = (uint32_t)(start - c->line) + 1;
	in.guard = SASS_PT;
	in.rc = SASS_RZ;
	if (*c->p == '@') {
		c->p++;
		if (c->p < c->end && *c->p == '!') {
			in.guard_neg = 1;
			c->p++;
		}
		const char *q = c->p;
		int r = pred(c, &in.guard);
		if (r < 0)
			return;
		if (r == 0) {
			err(c, q, "expected a predicate (P0..P6 or PT) after '@', found '%.*s'", toklen(c, q), q);
			return;
		}
		if (c->p < c->end && *c->p != ' ' && *c->p != '\t') {
			err(c, c->p, "expected a space after the guard predicate");
			return;
		}
		ws(c);
	}
	const char *mn;
	size_t n = word(c, &mn);
	if (!word_is(mn, n, "ATOM")) {
		err(c, mn, "unknown instruction '%.*s': this front end runs ATOM only", n ? (int)n : toklen(c, mn), mn);
		return;
	}
	/* the modifiers */
	const char *mw[8];
	size_t ml[8];
	int nm = 0;
	while (c->p < c->end && *c->p == '.') {
		c->p++;
		const char *w;
		size_t l = word(c, &w);
		if (l == 0) {
			err(c, c->p, "expected a modifier after '.'");
			return;
		}
		if (nm == 8) {
			err(c, w, "too many modifiers");
			return;
		}
		mw[nm] = w;
		ml[nm++] = l;
	}
	int i = 0;
	if (i < nm && word_is(mw[i], ml[i], "E")) {
		in.ext = 1;
		i++;
	}
	static const char ops_text[] = ".ADD, .MIN, .MAX, .INC, .DEC, .AND, .OR, .XOR, .EXCH, .SAFEADD or .CAS";
	if (i >= nm) {
		err(c, c->p, "ATOM needs an operation: %s", ops_text);
		return;
	}
	int op = -1;
	for (int k = 0; k < AT__COUNT; k++)
		if (word_is(mw[i], ml[i], atom_sass_op[k].name))
			op = k;
	if (op < 0) {
		if (word_is(mw[i], ml[i], "E"))
			err(c, mw[i], ".E must come right after ATOM and only once");
		else
			err(c, mw[i], "unknown ATOM operation '.%.*s': expected %s", (int)ml[i], mw[i], ops_text);
		return;
	}
	in.op = (uint8_t)op;
	i++;
	const char *opname = atom_sass_op[op].name;
	int size = AS_U32;
	if (i < nm) {
		for (int k = i; k < nm; k++)
			if (word_is(mw[k], ml[k], "E")) {
				err(c, mw[k], ".E must come right after ATOM");
				return;
			}
		const char *zs = mw[i];
		size_t zl = (size_t)(mw[nm - 1] + ml[nm - 1] - zs);
		size = -1;
		for (int z = 0; z < AS__COUNT; z++)
			if (word_is(zs, zl, atom_sass_size[z].name))
				size = z;
		if (word_is(zs, zl, "32"))
			size = AS_U32;
		else if (word_is(zs, zl, "64"))
			size = AS_U64;
		else if (word_is(zs, zl, "128"))
			size = AS_U128;
		if (size < 0) {
			if (ml[i] >= 3 && (word_is(mw[i], ml[i], "F32") || word_is(mw[i], ml[i], "F16x2") ||
					   word_is(mw[i], ml[i], "F64")))
				err(c, zs, "'.%.*s' is not a size of ATOM: the floating-point sizes are written in full, "
				    ".F32.FTZ.RN, .F16x2.RN, .F16x2.FTZ.RN and .F64.RN", (int)zl, zs);
			else
				err(c, zs, "unknown size '.%.*s' of ATOM: the sizes are .U32, .S32, .U64, .S64, "
				    ".F32.FTZ.RN, .F16x2.RN, .F16x2.FTZ.RN, .F64.RN (and .32, .64)", (int)zl, zs);
			return;
		}
		if (size == AS_U128) {
			err(c, zs, "ATOM.%s.%.*s: .128 (.U128) is recognised but illegal for ATOM", opname, (int)zl, zs);
			return;
		}
		if (!atom_sass_allowed(op, size)) {
			char buf[160];
			sizes_text(op, buf, sizeof buf);
			err(c, zs, "ATOM.%s does not take .%s: its sizes are %s", opname, atom_sass_size[size].name, buf);
			return;
		}
	}
	if (i >= nm && !atom_sass_allowed(op, size)) {
		char buf[160];
		sizes_text(op, buf, sizeof buf);
		err(c, mw[nm - 1] + ml[nm - 1], "ATOM.%s needs a size (the default .U32 is not one of its sizes): %s",
		    opname, buf);
		return;
	}
	in.size = (uint8_t)size;
	if (c->p < c->end && *c->p != ' ' && *c->p != '\t') {
		err(c, c->p, "unexpected '%.*s' after the opcode", toklen(c, c->p), c->p);
		return;
	}
	/* the operands */
	Opnd o[6];
	int no = 0;
	ws(c);
	const char *after_ops = c->p;
	if (c->p < c->end && *c->p != ';' && *c->p != '&' && *c->p != '?') {
		for (;;) {
			if (no == 6) {
				err(c, c->p, "too many operands: ATOM.%s takes %s", opname, form_text(op, no && o[0].kind == K_PRED));
				return;
			}
			Opnd *x = &o[no];
			x->at = c->p;
			if (c->p < c->end && *c->p == '[') {
				x->kind = K_MEM;
				if (!mem_opnd(c, x))
					return;
			} else {
				int r = pred(c, &x->r);
				if (r < 0)
					return;
				if (r > 0) {
					x->kind = K_PRED;
				} else {
					x->kind = K_REG;
					if (!reg(c, "a register", &x->r))
						return;
				}
			}
			no++;
			ws(c);
			if (c->p < c->end && *c->p == ',') {
				c->p++;
				ws(c);
				continue;
			}
			break;
		}
		after_ops = c->p;
	}
	/* scheduling annotations ({&req_6} {&rdN} {&wrN} {?sched}) are read
	 * and ignored */
	while (c->p < c->end && (*c->p == '&' || *c->p == '?')) {
		const char *q = c->p++;
		const char *w;
		if (!word(c, &w)) {
			err(c, q, "expected a scheduling annotation after '%c'", *q);
			return;
		}
		if (c->p < c->end && *c->p == '=') {
			c->p++;
			if (c->p < c->end && *c->p == '{') {
				while (c->p < c->end && *c->p != '}')
					c->p++;
				if (c->p == c->end) {
					err(c, q, "unterminated annotation: expected '}'");
					return;
				}
				c->p++;
			} else {
				while (c->p < c->end && (is_word(*c->p) || *c->p == '.'))
					c->p++;
			}
		}
		ws(c);
	}
	if (c->p < c->end && *c->p == ';') {
		c->p++;
		ws(c);
	}
	if (c->p < c->end) {
		err(c, c->p, "unexpected '%.*s' after the instruction", toklen(c, c->p), c->p);
		return;
	}
	/* the shape of the operands */
	bool sparse = no > 0 && o[0].kind == K_PRED;
	int k = sparse ? 1 : 0;
	int need = k + 3 + (op == AT_CAS);
	const char *form = form_text(op, sparse);
	char ins[64];
	if (size == AS_U32)
		snprintf(ins, sizeof ins, "ATOM.%s", opname);
	else
		snprintf(ins, sizeof ins, "ATOM.%s.%s", opname, atom_sass_size[size].name);
	for (int j = k; j < no && j < need; j++) {
		int want = j == k + 1 ? K_MEM : K_REG;
		if (o[j].kind == want)
			continue;
		static const char *const names[] = { "the destination Rd", "the address", "the operand Rb",
						     "the swap value Rc" };
		if (want == K_MEM)
			err(c, o[j].at, "expected the address [Ra + ImmS20] or [ImmU20] as the %s operand of %s",
			    sparse ? "third" : "second", ins);
		else if (o[j].kind == K_PRED && j > 0)
			err(c, o[j].at, "expected %s of %s, found a predicate (a sparse predicate Ps comes first)",
			    names[j - k], ins);
		else
			err(c, o[j].at, "expected %s of %s, a register", names[j - k], ins);
		return;
	}
	if (no < need) {
		err(c, after_ops, "missing operand: %s takes %s", ins, form);
		return;
	}
	if (no > need) {
		if (op != AT_CAS && no == need + 1 && o[need].kind == K_REG)
			err(c, o[need].at, "only ATOM.CAS takes a fourth operand Rc: %s takes %s", ins, form);
		else
			err(c, o[need].at, "too many operands: %s takes %s", ins, form);
		return;
	}
	if (sparse)
		in.ps = o[0].r;
	in.sparse = sparse;
	Opnd *d = &o[k], *m = &o[k + 1], *b = &o[k + 2];
	in.rd = d->r;
	in.rb = b->r;
	in.has_ra = m->has_ra;
	in.ra = m->has_ra ? m->ra : SASS_RZ;
	in.imm = m->imm;
	if (op == AT_CAS)
		in.rc = o[k + 3].r;
	/* the register rules */
	if (sparse && !m->has_ra) {
		err(c, m->at, "%s with a sparse predicate Ps needs a register address [Ra], not an absolute one", ins);
		return;
	}
	if (sparse && m->has_imm) {
		err(c, m->imm_at, "immediate offsets are not supported with a sparse predicate Ps: write [Ra]");
		return;
	}
	if (in.ext && m->has_ra && m->ra != SASS_RZ) {
		if (m->ra & 1) {
			err(c, m->at + 1, "with .E the address is the register pair R%u, R%u: Ra must be even, not R%u",
			    m->ra, m->ra + 1, m->ra);
			return;
		}
		if (m->ra == 254) {
			err(c, m->at + 1, "with .E Ra cannot be R254: the pair R254, R255 would include RZ");
			return;
		}
	}
	bool wide = atom_sass_size[size].bytes == 8;
	if (wide && !pair_ok(c, d->at, in.rd, "destination Rd", ins))
		return;
	if (op == AT_CAS) {
		unsigned al = wide ? 4 : 2;
		if (in.rb == SASS_RZ) {
			err(c, b->at, "%s: Rb cannot be RZ (the compare value and the swap value are the registers "
			    "from Rb on)", ins);
			return;
		}
		if (in.rb % al) {
			err(c, b->at, "%s: Rb must be %s, not R%u", ins,
			    wide ? "a multiple of 4 (R4n): the compare pair Rb, Rb+1 and the swap pair Rb+2, Rb+3"
				 : "even (R2n): the compare value Rb and the swap value Rb+1", in.rb);
			return;
		}
		unsigned want = in.rb + (wide ? 2u : 1u);
		if (in.rc != SASS_RZ && in.rc != want) {
			err(c, o[k + 3].at, "%s: Rc must be R%u (Rb+%u) or RZ, not R%u", ins, want, wide ? 2 : 1, in.rc);
			return;
		}
		if (wide && in.rc == 254) {
			err(c, o[k + 3].at, "%s: Rc cannot be R254: the pair R254, R255 would include RZ", ins);
			return;
		}
	} else if (wide && !pair_ok(c, b->at, in.rb, "operand Rb", ins)) {
		return;
	}
	const char *e = c->end;
	while (e > start && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	in.off = (uint32_t)(start - s->src);
	in.len = (uint32_t)(e - start);
	s->ins = vec_grow(s->ins, &s->capins, s->nins + 1, sizeof *s->ins);
	s->ins[s->nins++] = in;
}

/* ---- initial state ---------------------------------------------------------------- */

static bool at_end(Cur *c, const char *what)
{
	ws(c);
	if (c->p < c->end) {
		err(c, c->p, "unexpected '%.*s' after %s", toklen(c, c->p), c->p, what);
		return false;
	}
	return true;
}

/* R4 = V, R4.64 = V, P0 = 0|1 */
static void setting(Cur *c, const char *w, size_t n)
{
	ptxvm_sass *s = c->s;
	c->p = w;
	bool isp = w[0] == 'P' || w[0] == 'p';
	uint8_t r = 0;
	if (isp) {
		int k = pred(c, &r);
		if (k <= 0) {
			err(c, w, "'%.*s' is not a predicate: the predicates are P0..P6 and PT", (int)n, w);
			return;
		}
		if (r == SASS_PT) {
			err(c, w, "PT is always true and cannot be set");
			return;
		}
	} else {
		if (!reg(c, "a register", &r))
			return;
		if (r == SASS_RZ) {
			err(c, w, "RZ is always zero and cannot be set");
			return;
		}
	}
	unsigned bits = 32;
	if (!isp && c->p < c->end && *c->p == '.') {
		const char *q = ++c->p, *x;
		size_t l = word(c, &x);
		if (!word_is(x, l, "64")) {
			err(c, q, "expected '.64' (a register pair), found '.%.*s'", toklen(c, q), q);
			return;
		}
		if (r & 1 || r == 254) {
			err(c, w, "R%u.64: a register pair starts at an even register below R254", r);
			return;
		}
		bits = 64;
	}
	ws(c);
	if (c->p >= c->end || *c->p != '=') {
		err(c, c->p, "expected '=' after %.*s", (int)n, w);
		return;
	}
	c->p++;
	ws(c);
	uint64_t v;
	const char *q = c->p;
	if (!value(c, bits, false, &v))
		return;
	if (!at_end(c, "the value"))
		return;
	if (isp) {
		if (v > 1) {
			err(c, q, "a predicate is 0 or 1");
			return;
		}
		s->pred0[r] = (uint8_t)v;
	} else {
		s->reg0[r] = (uint32_t)v;
		if (bits == 64)
			s->reg0[r + 1] = (uint32_t)(v >> 32);
	}
}

typedef struct Ty {
	const char *name;
	unsigned bytes;
	bool fl;
} Ty;
static const Ty tys[] = {
	{ "u8", 1, 0 }, { "u16", 2, 0 }, { "u32", 4, 0 }, { "u64", 8, 0 },
	{ "s8", 1, 0 }, { "s16", 2, 0 }, { "s32", 4, 0 }, { "s64", 8, 0 },
	{ "b8", 1, 0 }, { "b16", 2, 0 }, { "b32", 4, 0 }, { "b64", 8, 0 },
	{ "f32", 4, 1 }, { "f64", 8, 1 },
};

static const Ty *type_word(const char *w, size_t n)
{
	for (size_t i = 0; i < NELEM(tys); i++)
		if (word_is(w, n, tys[i].name))
			return &tys[i];
	return NULL;
}

/* Values of type t after the cursor, written little-endian into buf
 * (grown); returns the number of bytes, or -1 after an error. */
static long values(Cur *c, const Ty *t, uint8_t **buf, size_t *cap)
{
	size_t len = 0;
	ws(c);
	while (c->p < c->end) {
		uint64_t v;
		if (!value(c, t->bytes * 8, t->fl, &v))
			return -1;
		if (len + t->bytes > (1u << 24)) {
			err(c, c->p, "too many values: a region holds at most 16 MiB");
			return -1;
		}
		*buf = vec_grow(*buf, cap, len + t->bytes, 1);
		for (unsigned i = 0; i < t->bytes; i++)
			(*buf)[len + i] = (uint8_t)(v >> (8 * i));
		len += t->bytes;
		ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			ws(c);
		}
	}
	if (len == 0) {
		err(c, c->p, "expected at least one %s value", t->name);
		return -1;
	}
	return (long)len;
}

static bool range(Cur *c, const char *at, uint64_t base, uint64_t size, uint64_t maxsize)
{
	if (size == 0) {
		err(c, at, "the size must be at least 1");
		return false;
	}
	if (size > maxsize) {
		err(c, at, "the size must be at most 0x%llx", (unsigned long long)maxsize);
		return false;
	}
	if (base + size - 1 < base) {
		err(c, at, "the range 0x%llx + 0x%llx wraps past 2^64", (unsigned long long)base,
		    (unsigned long long)size);
		return false;
	}
	return true;
}

static void add_region(Cur *c, const char *at, uint64_t base, const uint8_t *bytes, uint64_t size)
{
	ptxvm_sass *s = c->s;
	if (s->total + size > (1u << 28)) {
		err(c, c->line, "the memory image would exceed 256 MiB");
		return;
	}
	s->total += size;
	SassRegion r = { .base = base, .size = size, .line = c->lno, .col = (uint32_t)(at - c->line) + 1 };
	r.alloc = xmalloc((size_t)size + 32);
	uintptr_t a = ((uintptr_t)r.alloc + 15) & ~(uintptr_t)15;
	r.mem = (uint8_t *)a + (base & 15);
	r.init = xmalloc((size_t)size);
	if (bytes)
		memcpy(r.init, bytes, (size_t)size);
	else
		memset(r.init, 0, (size_t)size);
	memcpy(r.mem, r.init, (size_t)size);
	s->rg = vec_grow(s->rg, &s->caprg, s->nrg + 1, sizeof *s->rg);
	s->rg[s->nrg++] = r;
}

/* Regions, windows and sets are recorded here and checked against each
 * other once the file is read (sass_layout), in O(n log n). */
static void directive(Cur *c, const char *w, size_t n)
{
	ptxvm_sass *s = c->s;
	ws(c);
	const char *at = c->p;
	uint32_t col = (uint32_t)(at - c->line) + 1;
	uint64_t base;
	if (!unumber(c, "an address", &base))
		return;
	ws(c);
	if (word_is(w, n, "mem") || word_is(w, n, "set")) {
		const char *tw = c->p, *x;
		size_t tl = word(c, &x);
		const Ty *t = tl ? type_word(x, tl) : NULL;
		if (!t && word_is(w, n, "set")) {
			c->p = tw;
			err(c, tw, "expected a type (u8, u16, u32, u64, s8..s64, b8..b64, f32, f64), found '%.*s'",
			    toklen(c, tw), tw);
			return;
		}
		if (!t) {
			/* mem BASE SIZE */
			c->p = tw;
			uint64_t size;
			if (!unumber(c, "a size or a type", &size) || !at_end(c, "the size"))
				return;
			if (range(c, tw, base, size, 1u << 24))
				add_region(c, at, base, NULL, size);
			return;
		}
		uint8_t *buf = NULL;
		size_t cap = 0;
		long len = values(c, t, &buf, &cap);
		if (len > 0) {
			if (word_is(w, n, "mem")) {
				if (range(c, at, base, (uint64_t)len, 1u << 24))
					add_region(c, at, base, buf, (uint64_t)len);
			} else {
				Sets *st = c->sets;
				st->v = vec_grow(st->v, &st->cap, st->n + 1, sizeof *st->v);
				st->v[st->n++] = (SassSet){ base, (size_t)len, st->bytes.len, c->lno, col };
				buf_put(&st->bytes, (const char *)buf, (size_t)len);
			}
		}
		free(buf);
		return;
	}
	/* shared / local / sparse BASE SIZE */
	const char *zat = c->p;
	uint64_t size;
	if (!unumber(c, "a size", &size) || !at_end(c, "the size"))
		return;
	if (!range(c, zat, base, size, UINT64_MAX))
		return;
	int kind = word_is(w, n, "shared") ? SW_SHARED : word_is(w, n, "local") ? SW_LOCAL : SW_SPARSE;
	SassWindow win = { base, size, kind, c->lno, col };
	if (kind == SW_SPARSE) {
		s->sparse = vec_grow(s->sparse, &s->capsparse, s->nsparse + 1, sizeof *s->sparse);
		s->sparse[s->nsparse++] = win;
	} else {
		s->win = vec_grow(s->win, &s->capwin, s->nwin + 1, sizeof *s->win);
		s->win[s->nwin++] = win;
	}
}

/* ---- the layout, once the file is read ------------------------------------ */

/* A region or a shared or local window: none may overlap another, and the
 * later one in the file is the one in error. */
typedef struct Span {
	uint64_t base, last;
	uint32_t line, col;
	int kind;               /* SW_SHARED, SW_LOCAL, or -1 for a region */
	bool reported;
} Span;

/* A binary heap of span indices: the earliest line on top (sign 1) or the
 * latest (sign -1). */
typedef struct Heap {
	size_t *v, n, cap;
	const Span *sp;
	int sign;
} Heap;

static bool above(const Heap *h, size_t a, size_t b)
{
	return h->sign > 0 ? h->sp[a].line < h->sp[b].line : h->sp[a].line > h->sp[b].line;
}

static void heap_push(Heap *h, size_t x)
{
	h->v = vec_grow(h->v, &h->cap, h->n + 1, sizeof *h->v);
	size_t i = h->n++;
	for (; i && above(h, x, h->v[(i - 1) / 2]); i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = x;
}

static void heap_pop(Heap *h)
{
	size_t x = h->v[--h->n], i = 0;
	for (;;) {
		size_t k = 2 * i + 1;
		if (k >= h->n)
			break;
		if (k + 1 < h->n && above(h, h->v[k + 1], h->v[k]))
			k++;
		if (!above(h, h->v[k], x))
			break;
		h->v[i] = h->v[k];
		i = k;
	}
	if (h->n)
		h->v[i] = x;
}

static int cmp_span(const void *a, const void *b)
{
	const Span *x = a, *y = b;
	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* x overlaps y, which comes earlier in the file. */
static void overlap_error(ptxvm_sass *s, Span *x, const Span *y)
{
	Pos p = { x->line, x->col };
	x->reported = true;
	if (x->kind < 0 && y->kind < 0)
		diag_add(&s->diags, DIAG_ERROR, p, "0x%llx..0x%llx overlaps the region 0x%llx..0x%llx of line %u",
			 (unsigned long long)x->base, (unsigned long long)x->last, (unsigned long long)y->base,
			 (unsigned long long)y->last, y->line);
	else if (x->kind < 0)
		diag_add(&s->diags, DIAG_ERROR, p, "0x%llx..0x%llx overlaps the %s window 0x%llx..0x%llx of line %u",
			 (unsigned long long)x->base, (unsigned long long)x->last, sass_window_name[y->kind],
			 (unsigned long long)y->base, (unsigned long long)y->last, y->line);
	else if (y->kind < 0)
		diag_add(&s->diags, DIAG_ERROR, p, "the %s window 0x%llx..0x%llx overlaps the region of line %u: a "
			 "region is global memory", sass_window_name[x->kind], (unsigned long long)x->base,
			 (unsigned long long)x->last, y->line);
	else
		diag_add(&s->diags, DIAG_ERROR, p, "0x%llx..0x%llx overlaps the %s window of line %u",
			 (unsigned long long)x->base, (unsigned long long)x->last, sass_window_name[y->kind], y->line);
}

/* Every region or window that overlaps one earlier in the file gets an
 * error: a sweep by address keeps the spans that reach the current one in
 * two heaps, by earliest and by latest line (the expired ones leave lazily,
 * as addresses only grow). */
static void check_overlaps(ptxvm_sass *s)
{
	size_t n = s->nrg + s->nwin;
	if (n < 2)
		return;
	Span *sp = xmalloc(n * sizeof *sp);
	for (size_t i = 0; i < s->nrg; i++)
		sp[i] = (Span){ s->rg[i].base, s->rg[i].base + s->rg[i].size - 1, s->rg[i].line, s->rg[i].col, -1,
				false };
	for (size_t i = 0; i < s->nwin; i++)
		sp[s->nrg + i] = (Span){ s->win[i].base, s->win[i].base + s->win[i].size - 1, s->win[i].line,
					 s->win[i].col, s->win[i].kind, false };
	qsort(sp, n, sizeof *sp, cmp_span);
	Heap early = { .sp = sp, .sign = 1 }, late = { .sp = sp, .sign = -1 };
	for (size_t i = 0; i < n; i++) {
		Span *x = &sp[i];
		while (early.n && sp[early.v[0]].last < x->base)
			heap_pop(&early);
		while (late.n && sp[late.v[0]].last < x->base)
			heap_pop(&late);
		/* x overlaps every span left; one from an earlier line puts x in
		 * error, and x puts in error each from a later line */
		if (early.n && sp[early.v[0]].line < x->line)
			overlap_error(s, x, &sp[early.v[0]]);
		while (late.n && sp[late.v[0]].line > x->line) {
			if (!sp[late.v[0]].reported)
				overlap_error(s, &sp[late.v[0]], x);
			heap_pop(&late);
		}
		heap_push(&early, i);
		heap_push(&late, i);
	}
	free(early.v);
	free(late.v);
	free(sp);
}

static int cmp_window(const void *a, const void *b)
{
	const SassWindow *x = a, *y = b;
	return x->base < y->base ? -1 : x->base > y->base;
}

static int cmp_diag(const void *a, const void *b)
{
	const Diag *x = a, *y = b;
	if (x->pos.line != y->pos.line)
		return x->pos.line < y->pos.line ? -1 : 1;
	return x->pos.col < y->pos.col ? -1 : x->pos.col > y->pos.col;
}

static int cmp_region(const void *a, const void *b)
{
	const SassRegion *x = a, *y = b;
	return x->base < y->base ? -1 : x->base > y->base;
}

void sass_parse(ptxvm_sass *s)
{
	const char *p = s->src, *end = s->src + s->len;
	uint32_t lno = 0;
	Sets sets = { 0 };
	while (p < end || lno == 0) {
		lno++;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		Cur c = { s, p, p, le, lno, false, &sets };
		for (const char *q = p; q < le; q++)
			if (*q == '#' || (*q == '/' && q + 1 < le && q[1] == '/')) {
				c.end = q;
				break;
			}
		ws(&c);
		if (c.p < c.end) {
			if (*c.p == '@') {
				instruction(&c);
			} else {
				const char *w;
				size_t n = word(&c, &w);
				const char *after = c.p;
				ws(&c);
				bool isreg = n >= 2 && strchr("RrPp", w[0]);
				if (isreg && !(n == 2 && strchr("ZzTt", w[1])))
					for (size_t k = 1; k < n; k++)
						isreg = isreg && w[k] >= '0' && w[k] <= '9';
				bool dir = word_is(w, n, "mem") || word_is(w, n, "set") || word_is(w, n, "shared") ||
					   word_is(w, n, "local") || word_is(w, n, "sparse");
				if (n && !dir && !isreg) {
					c.p = w;
					instruction(&c);
				} else if (!n) {
					err(&c, w, "unexpected '%.*s': expected an ATOM instruction, a register or predicate "
					    "setting (R4 = 1), or a directive (mem, set, shared, local, sparse)", toklen(&c, w), w);
				} else if (s->nins) {
					err(&c, w, "the initial state (registers, predicates, memory) must come before the "
					    "first instruction");
				} else if (dir) {
					c.p = after;
					directive(&c, w, n);
				} else {
					setting(&c, w, n);
				}
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	/* the layout: regions and windows by address, their overlaps, the sets */
	size_t nparse = s->diags.n;
	if (s->nrg > 1)
		qsort(s->rg, s->nrg, sizeof *s->rg, cmp_region);
	if (s->nwin > 1)
		qsort(s->win, s->nwin, sizeof *s->win, cmp_window);
	if (s->nsparse > 1)
		qsort(s->sparse, s->nsparse, sizeof *s->sparse, cmp_window);
	s->sparse_last = xmalloc((s->nsparse ? s->nsparse : 1) * sizeof *s->sparse_last);
	for (size_t i = 0; i < s->nsparse; i++) {
		uint64_t last = s->sparse[i].base + s->sparse[i].size - 1;
		s->sparse_last[i] = i && s->sparse_last[i - 1] > last ? s->sparse_last[i - 1] : last;
	}
	check_overlaps(s);
	for (size_t i = 0; i < sets.n; i++) {
		const SassSet *st = &sets.v[i];
		SassRegion *r = st->base + st->len - 1 >= st->base ? sass_region(s, st->base, st->len) : NULL;
		if (!r || r->line > st->line) {
			diag_add(&s->diags, DIAG_ERROR, (Pos){ st->line, st->col }, "set 0x%llx..0x%llx: not inside "
				 "one memory region (declare it with mem first)", (unsigned long long)st->base,
				 (unsigned long long)(st->base + st->len - 1));
			continue;
		}
		memcpy(r->init + (st->base - r->base), sets.bytes.p + st->off, st->len);
		memcpy(r->mem + (st->base - r->base), sets.bytes.p + st->off, st->len);
	}
	free(sets.v);
	buf_free(&sets.bytes);
	/* the layout's errors join the others in the order of the file (each
	 * part is in order: the parse's by line, the layout's sorted here) */
	if (s->diags.n > nparse) {
		Diag *v = s->diags.v, *tmp = xmalloc(s->diags.n * sizeof *tmp);
		qsort(v + nparse, s->diags.n - nparse, sizeof *v, cmp_diag);
		size_t i = 0, j = nparse, k = 0;
		while (i < nparse || j < s->diags.n)
			tmp[k++] = j == s->diags.n || (i < nparse && cmp_diag(&v[i], &v[j]) <= 0) ? v[i++] : v[j++];
		memcpy(v, tmp, s->diags.n * sizeof *tmp);
		free(tmp);
	}
}
