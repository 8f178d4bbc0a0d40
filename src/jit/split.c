/* split.c: exec_one's text, by opcode (split.h).
 *
 * exec_one (ops.inc) is a prologue, then switches on xk->op (the opcode) whose cases
 * are the semantics, with statements between them.  The compiling tier
 * gives each instruction a copy of exec_one that keeps, of each switch,
 * only the case that instruction reaches: the compiler then folds one
 * opcode's semantics per instruction instead of all of them, which made
 * it take about 0.1 s an instruction.  Nothing is rewritten: the copy is
 * exec_one's own lines, in their order, less the cases another opcode
 * needs.  The split reads the text as the project writes C (a tab per
 * level, a top-level switch `switch (xk->op) {` whose labels are
 * `case OPC_...:` lines one tab in); text in another shape is refused,
 * and the tier is then off, saying why.
 */
#include "split.h"
#include "../isa/isa.h"
#include "../lower/prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The enum's names, as ops.inc writes its labels. */
static const char *const op_name[XOP__COUNT] = {
#define OP(name) [OPC_##name] = "OPC_" #name,
#define F(op, form, opnds, ptx, sm)
#include "../isa/ops.def"
#undef OP
#undef F
	[XOP_RDSREG] = "XOP_RDSREG", [XOP_FRAMEADDR] = "XOP_FRAMEADDR", [XOP_NOP] = "XOP_NOP",
};
_Static_assert(XOP__COUNT == OPC__COUNT + 3, "an XOP_ was added: name it in op_name");

/* A line's braces, outside comments, strings and character constants;
 * *com carries a comment that spans lines. */
static int braces(const char *s, const char *end, bool *com)
{
	int d = 0;
	while (s < end) {
		if (*com) {
			if (s + 1 < end && s[0] == '*' && s[1] == '/')
				*com = false, s++;
		} else if (s + 1 < end && s[0] == '/' && s[1] == '*') {
			*com = true, s++;
		} else if (s + 1 < end && s[0] == '/' && s[1] == '/') {
			break;
		} else if (*s == '"' || *s == '\'') {
			char q = *s++;
			while (s < end && *s != q)
				s += *s == '\\' ? 2 : 1;
		} else if (*s == '{') {
			d++;
		} else if (*s == '}') {
			d--;
		}
		s++;
	}
	return d;
}

static bool starts(const char *s, const char *end, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(end - s) >= n && !memcmp(s, w, n);
}

/* Whether the text of a case ends its case (its last statement, or the
 * last before its block's closing brace, is a break or a return at the
 * case's level): else it may fall through into the next, and the two
 * stay together. */
static bool ends_case(const char *s, const char *end)
{
	const char *last = NULL, *prev = NULL;
	for (const char *l = s; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		nl = nl ? nl : end;
		const char *t = l;
		while (t < nl && (*t == ' ' || *t == '\t'))
			t++;
		if (t < nl && !starts(t, nl, "/*") && !starts(t, nl, "*") && !starts(t, nl, "//"))
			prev = last, last = l;
		l = nl + 1;
	}
	if (last && starts(last, end, "\t}\n"))
		last = prev;
	return last && (starts(last, end, "\t\tbreak;") || starts(last, end, "\t\treturn"));
}

void split_free(Split *sp)
{
	for (unsigned i = 0; i < sp->nsw; i++)
		free(sp->sw[i].group);
	free(sp->sw);
	free(sp->seg);
	memset(sp, 0, sizeof *sp);
}

static bool fail(Split *sp, char *why, size_t wn, const char *what, unsigned line)
{
	snprintf(why, wn, "src/exec/ops.inc's exec_one is not in the shape src/jit/split.c splits "
		 "(ops.inc:%u: %s)", line, what);
	split_free(sp);
	return false;
}

bool split_exec_one(const char *text, Split *sp, char *why, size_t wn)
{
	memset(sp, 0, sizeof *sp);
	const char *f = strstr(text, " exec_one(Ctx *X, Entry *e, uint32_t m, uint32_t act)\n{\n");
	if (!f)
		return fail(sp, why, wn, "no definition of exec_one", 0);
	unsigned line = 1;
	for (const char *s = text; s < f; s++)
		line += *s == '\n';
	const char *body = strchr(f, '\n') + 3;        /* past "{\n" */
	line += 2;
	int depth = 1;
	bool com = false;
	Switch *cur = NULL;
	SplitGroup *g = NULL;
	const char *seg = body;         /* the text since the last switch */
	for (const char *l = body; *l; line++) {
		const char *nl = strchr(l, '\n');
		if (!nl)
			return fail(sp, why, wn, "the file ends inside exec_one", line);
		nl++;
		int d0 = depth;
		depth += braces(l, nl, &com);
		if (d0 == 1 && depth == 0) {                    /* exec_one's end */
			if (cur)
				return fail(sp, why, wn, "a switch does not end", line);
			if (sp->nsw < 2)        /* else each copy would be all of exec_one */
				return fail(sp, why, wn, "fewer than two switches on the opcode", line);
			SplitSeg *ns = realloc(sp->seg, (sp->nseg + 1) * sizeof *ns);
			if (!ns)
				return fail(sp, why, wn, "out of host memory", line);
			sp->seg = ns;
			sp->seg[sp->nseg++] = (SplitSeg){ seg, (size_t)(nl - seg), -1 };
			return true;
		}
		if (d0 == 1 && starts(l, nl, "\tswitch (xk->op) {\n")) {
			if (sp->nsw == 255)
				return fail(sp, why, wn, "too many switches", line);
			Switch *nw = realloc(sp->sw, (sp->nsw + 1) * sizeof *nw);
			SplitSeg *ns = realloc(sp->seg, (sp->nseg + 2) * sizeof *ns);
			if (nw)
				sp->sw = nw;
			if (ns)
				sp->seg = ns;
			if (!nw || !ns)
				return fail(sp, why, wn, "out of host memory", line);
			sp->seg[sp->nseg++] = (SplitSeg){ seg, (size_t)(l - seg), -1 };
			sp->seg[sp->nseg++] = (SplitSeg){ NULL, 0, (int)sp->nsw };
			cur = &sp->sw[sp->nsw++];
			*cur = (Switch){ .deflt = -1 };
			g = NULL;
			l = nl;
			continue;
		}
		if (cur && d0 == 2 && depth == 1) {             /* the switch's end */
			if (!starts(l, nl, "\t}\n"))
				return fail(sp, why, wn, "a switch ends on a line of its own", line);
			if (g)
				g->len = (size_t)(l - g->text);
			cur = NULL;
			seg = nl;
			l = nl;
			continue;
		}
		if (cur && d0 == 2 && (starts(l, nl, "\tcase ") || starts(l, nl, "\tdefault:"))) {
			/* a label: a new group, unless the last falls through */
			bool labels_only = g && (size_t)(l - g->text) == g->labels_len;
			if (g && !labels_only && !ends_case(g->text, l))
				labels_only = true;     /* falls through: the same group */
			if (!g || !labels_only) {
				if (g)
					g->len = (size_t)(l - g->text);
				SplitGroup *ng = realloc(cur->group, (cur->ngroup + 1) * sizeof *ng);
				if (!ng)
					return fail(sp, why, wn, "out of host memory", line);
				cur->group = ng;
				g = &cur->group[cur->ngroup++];
				*g = (SplitGroup){ .text = l };
			}
			if ((size_t)(l - g->text) == g->labels_len)
				g->labels_len = (size_t)(nl - g->text);
			for (const char *t = l; t < nl;) {
				const char *c = strstr(t, "case ");
				const char *dflt = strstr(t, "default:");
				if (dflt && dflt < nl && (!c || dflt < c)) {
					cur->deflt = (int)(g - cur->group);
					t = dflt + 8;
					continue;
				}
				if (!c || c >= nl)
					break;
				c += 5;
				const char *colon = memchr(c, ':', (size_t)(nl - c));
				if (!colon)
					return fail(sp, why, wn, "a case label without ':'", line);
				size_t n = (size_t)(colon - c);
				unsigned op = 0;
				while (op < XOP__COUNT && !(op_name[op] && strlen(op_name[op]) == n &&
							     !memcmp(op_name[op], c, n)))
					op++;
				if (op == XOP__COUNT)
					return fail(sp, why, wn, "a case label that names no opcode", line);
				if (sp->has[op])        /* one place for each opcode */
					return fail(sp, why, wn, "an opcode labelled twice", line);
				sp->has[op] = 1;
				sp->sw_of[op] = (uint8_t)(sp->nsw - 1);
				sp->gi_of[op] = (uint16_t)(g - cur->group);
				t = colon + 1;
			}
			l = nl;
			continue;
		}
		l = nl;         /* a statement of the group, or between switches */
	}
	return fail(sp, why, wn, "exec_one does not end", line);
}

unsigned split_key(const Split *sp, unsigned op, int *key)
{
	for (unsigned s = 0; s < sp->nsw; s++)
		key[s] = op < XOP__COUNT && sp->has[op] && sp->sw_of[op] == s ? (int)sp->gi_of[op] : sp->sw[s].deflt;
	return sp->nsw;
}

bool split_straight(const Split *sp, unsigned op)
{
	return op < XOP__COUNT && !(sp->has[op] && sp->sw_of[op] == 0);
}
