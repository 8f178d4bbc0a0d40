/* isa.c: the instruction-set tables and the compiler of their form strings.
 *
 * The form and operand strings of ops.def are parsed once, at isa_init(),
 * into IsaForm records.  A malformed row is a bug in the table; isa_init()
 * reports it and aborts, and the test suite runs isa_selftest() first.
 */
#include "isa.h"
#include "../util/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const IsaType isa_type[TY__ALL] = {
#define T(name, bytes, kind) { #name, bytes, TK_##kind },
#include "types.def"
#undef T
	[TY_texref] = { "texref", 8, TK_O },
	[TY_samplerref] = { "samplerref", 8, TK_O },
	[TY_surfref] = { "surfref", 8, TK_O },
};

const char *const isa_mod_name[MOD__COUNT] = {
#define T(name, bytes, kind) #name,
#include "types.def"
#undef T
#define M(cname, word) word,
#include "mods.def"
#undef M
};

static const char *const op_names[OPC__COUNT] = {
#define OP(name) #name,
#define F(op, form, opnds, ptx, sm)
#include "ops.def"
#undef OP
#undef F
};

/* The rows as written. */
typedef struct Row {
	uint16_t opc;
	const char *form, *opnds;
	uint8_t ptx;
	unsigned sm;            /* the sm column: a number, SMA() or GONE() */
	int line;
} Row;

static const Row rows[] = {
#define OP(name)
#define F(op, form, opnds, ptx, sm) { OPC_##op, form, opnds, ptx, sm, __LINE__ },
#include "ops.def"
#undef OP
#undef F
};

typedef struct Group {
	const char *name, *words;
} Group;

static const Group groups[] = {
#define G(name, words) { #name, words },
#include "groups.def"
#undef G
};

const IsaSreg isa_sreg[SREG__COUNT] = {
#define S(cname, text, type, vec, ptx, sm) { text, TY_##type, vec, ptx, sm },
#include "sregs.def"
#undef S
};

typedef struct ModGate {
	const char *word;
	uint8_t ptx, sm;
} ModGate;

static const ModGate modgates[] = {
#define MG(word, ptx, sm) { word, ptx, sm },
#include "modgates.def"
#undef MG
};
static uint8_t modgate_ptx[MOD__COUNT], modgate_sm[MOD__COUNT];

static IsaOp ops[OPC__COUNT];
static IsaForm forms[NELEM(rows)];
const IsaOp *isa_op = ops;
const IsaForm *isa_form = forms;
size_t isa_nform = NELEM(rows);

/* ---- a small static hash of words --------------------------------------- */
typedef struct Slot {
	const char *key;
	uint16_t klen;
	uint16_t val;
} Slot;

#define HSIZE 2048
static Slot h_mod[HSIZE], h_op[HSIZE], h_sreg[512];

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void h_put(Slot *t, size_t size, const char *k, uint16_t v)
{
	size_t n = strlen(k);
	for (uint32_t i = hash(k, n) & (size - 1);; i = (i + 1) & (size - 1)) {
		if (!t[i].key) {
			t[i] = (Slot){ k, (uint16_t)n, v };
			return;
		}
		if (t[i].klen == n && !memcmp(t[i].key, k, n)) {
			fprintf(stderr, "ptxvm: isa: duplicate word '%s'\n", k);
			abort();
		}
	}
}

static int h_get(const Slot *t, size_t size, const char *k, size_t n)
{
	for (uint32_t i = hash(k, n) & (size - 1); t[i].key; i = (i + 1) & (size - 1))
		if (t[i].klen == n && !memcmp(t[i].key, k, n))
			return t[i].val;
	return -1;
}

int isa_lookup_op(const char *s, size_t n) { return h_get(h_op, HSIZE, s, n); }
int isa_lookup_sreg(const char *s, size_t n) { return h_get(h_sreg, 512, s, n); }

unsigned isa_lookup_mod(const char *s, size_t n)
{
	int v = h_get(h_mod, HSIZE, s, n);
	return v < 0 ? MOD_NONE : (unsigned)v;
}

/* ---- compiling a row ---------------------------------------------------- */
static Buf errs;
static int nerrs;

static void bad(const Row *r, const char *what, const char *at)
{
	buf_printf(&errs, "ops.def:%d: %s %s: %s near '%.20s'\n", r->line,
		   op_names[r->opc], r->form, what, at);
	nerrs++;
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == ':';
}

/* Add the words of "w1 w2" (sep ' ') or "w1,w2" (sep ',') to set; returns
 * true when all of them are types. */
static bool add_words(const Row *r, const char *s, size_t n, uint64_t *set)
{
	bool all_types = true;
	size_t i = 0;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == ','))
			i++;
		size_t j = i;
		while (j < n && s[j] != ' ' && s[j] != ',')
			j++;
		if (j == i)
			break;
		unsigned m = isa_lookup_mod(s + i, j - i);
		if (m == MOD_NONE) {
			bad(r, "unknown word", s + i);
			return false;
		}
		set[m >> 6] |= 1ull << (m & 63);
		all_types &= isa_mod_is_type(m);
		i = j;
	}
	return all_types;
}

/* One element after its dot: WORD, NAME (a group) or {w,w,...}. */
static const char *compile_elem(const Row *r, const char *s, IsaElem *e, bool *types)
{
	if (*s == '{') {
		const char *end = strchr(s, '}');
		if (!end) {
			bad(r, "unclosed set", s);
			return NULL;
		}
		*types = add_words(r, s + 1, (size_t)(end - s - 1), e->set);
		return end + 1;
	}
	const char *p = s;
	while (word_char(*p))
		p++;
	if (p == s) {
		bad(r, "expected a word", s);
		return NULL;
	}
	for (size_t g = 0; g < NELEM(groups); g++)
		if (groups[g].name[0] == *s && strlen(groups[g].name) == (size_t)(p - s) &&
		    !memcmp(groups[g].name, s, (size_t)(p - s))) {
			*types = add_words(r, groups[g].words, strlen(groups[g].words), e->set);
			return p;
		}
	*types = add_words(r, s, (size_t)(p - s), e->set);
	return p;
}

static void compile_form(const Row *r, IsaForm *f)
{
	const char *s = r->form;
	f->opc = r->opc;
	f->text = r->form;
	f->ptx = r->ptx;
	f->sm = (uint8_t)(r->sm & 0xff & ~ISA_SM_ARCH);
	f->arch = r->sm & ISA_SM_ARCH ? 'a' : 0;
	f->gone_sm = (uint8_t)(r->sm >> 8);
	f->gone_ptx = (uint8_t)(r->sm >> 16);
	if (*s == '^') {
		f->lead = 1;
		s++;
	}
	while (*s) {
		if (f->nelem == ISA_MAXELEM) {
			bad(r, "too many elements", s);
			return;
		}
		IsaElem *e = &f->elem[f->nelem++];
		bool opt = false, types = false;
		const char *start = s;
		if (*s == '{' && s[1] == '.') {
			opt = true;
			s++;
		}
		if (*s != '.') {
			bad(r, "expected '.'", s);
			return;
		}
		s = compile_elem(r, s + 1, e, &types);
		if (!s)
			return;
		if (opt) {
			if (*s != '}') {
				bad(r, "expected '}'", s);
				return;
			}
			s++;
		}
		e->optional = opt;
		e->off = (uint8_t)(start - r->form);
		e->len = (uint8_t)(s - start);
		e->slot = types ? (int8_t)f->nslot++ : -1;
		/* the element's one word, if it has one: a word of the set at a
		 * time (a modifier at a time was a third of a small program's run) */
		unsigned n = 0, one = MOD_NONE;
		for (unsigned k = 0; k < MODSET_WORDS; k++)
			if (e->set[k]) {
				n += (unsigned)__builtin_popcountll(e->set[k]);
				one = k * 64 + (unsigned)__builtin_ctzll(e->set[k]);
			}
		e->single = n == 1 ? (uint16_t)one : MOD_NONE;
		if (isa_set_has(e->set, MOD_v2) || isa_set_has(e->set, MOD_v4) || isa_set_has(e->set, MOD_v8))
			f->vecmods = 1;
	}
}

static void compile_opnds(const Row *r, IsaForm *f)
{
	const char *s = r->opnds;
	if (!strcmp(s, "*")) {
		f->anyopnds = 1;
		return;
	}
	while (*s) {
		if (f->nopnd == ISA_MAXOPND) {
			bad(r, "too many operands", s);
			return;
		}
		IsaOpnd *o = &f->opnd[f->nopnd++];
		if (*s == '?') {
			o->optional = 1;
			s++;
		}
		if (!strchr("darRipPqmlf*", *s) || !*s) {
			bad(r, "bad operand kind", s);
			return;
		}
		o->kind = *s++;
		o->slot = f->nslot ? 0 : -2;
		if (*s >= '0' && *s <= '9') {
			o->slot = (int8_t)(*s++ - '0');
			if (o->slot >= f->nslot)
				bad(r, "no such type slot", s - 1);
		} else if (*s == '.') {
			const char *p = ++s;
			while (word_char(*p))
				p++;
			unsigned m = isa_lookup_mod(s, (size_t)(p - s));
			if (m == MOD_NONE || !isa_mod_is_type(m)) {
				bad(r, "unknown operand type", s);
				return;
			}
			o->slot = -1;
			o->type = (uint8_t)m;
			s = p;
		}
		if (*s == '~') {
			o->relaxed = 1;
			s++;
		}
		if (*s == '?') {
			o->optional = 1;
			s++;
		}
		if (*s == ',')
			s++;
		else if (*s) {
			bad(r, "expected ','", s);
			return;
		}
	}
	for (int i = 1; i < f->nopnd; i++)
		if (f->opnd[i - 1].optional && !f->opnd[i].optional)
			bad(r, "optional operand before a required one", r->opnds);
}

static void init_once(void)
{
	for (unsigned m = 0; m < MOD__COUNT; m++)
		h_put(h_mod, HSIZE, isa_mod_name[m], (uint16_t)m);
	for (unsigned o = 0; o < OPC__COUNT; o++) {
		ops[o].name = op_names[o];
		h_put(h_op, HSIZE, op_names[o], (uint16_t)o);
	}
	for (unsigned s = 0; s < SREG__COUNT; s++)
		h_put(h_sreg, 512, isa_sreg[s].name, (uint16_t)s);
	for (size_t g = 0; g < NELEM(modgates); g++) {
		unsigned m = isa_lookup_mod(modgates[g].word, strlen(modgates[g].word));
		if (m == MOD_NONE) {
			buf_printf(&errs, "modgates.def: unknown word '%s'\n", modgates[g].word);
			nerrs++;
			continue;
		}
		modgate_ptx[m] = modgates[g].ptx;
		modgate_sm[m] = modgates[g].sm;
	}
	/* Group the rows by opcode (a counting sort, so that the table's order
	 * is kept within an opcode: the checker tries forms in that order). */
	for (size_t i = 0; i < NELEM(rows); i++)
		ops[rows[i].opc].nform++;
	for (unsigned o = 1; o < OPC__COUNT; o++)
		ops[o].first = (uint16_t)(ops[o - 1].first + ops[o - 1].nform);
	uint16_t fill[OPC__COUNT] = { 0 };
	for (size_t i = 0; i < NELEM(rows); i++) {
		const Row *r = &rows[i];
		IsaForm *f = &forms[ops[r->opc].first + fill[r->opc]++];
		compile_form(r, f);
		compile_opnds(r, f);
	}
	if (nerrs && !getenv("PTXVM_ISA_LENIENT")) {
		fprintf(stderr, "ptxvm: the instruction table is malformed:\n%s", errs.p);
		abort();
	}
}

void isa_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, init_once);
}

void isa_mod_gates(const uint16_t *mods, int n, uint8_t *ptx, uint8_t *sm)
{
	for (int i = 0; i < n; i++) {
		if (modgate_ptx[mods[i]] > *ptx)
			*ptx = modgate_ptx[mods[i]];
		if (modgate_sm[mods[i]] > *sm)
			*sm = modgate_sm[mods[i]];
	}
}

void isa_elem_words(const IsaForm *f, const IsaElem *e, char *buf, size_t n)
{
	const char *s = f->text + e->off, *end = s + e->len;
	if (*s == '{' && s[1] == '.')
		s++, end--;
	s++;                                    /* the dot */
	const char *words = s;
	size_t wn = (size_t)(end - s);
	if (*s == '{') {
		words = s + 1;
		wn = (size_t)(end - s - 2);
	} else {
		for (size_t g = 0; g < NELEM(groups); g++)
			if (groups[g].name[0] == *s && strlen(groups[g].name) == wn && !memcmp(groups[g].name, s, wn)) {
				words = groups[g].words;
				wn = strlen(words);
			}
	}
	/* ".a, .b or .c" */
	size_t len = 0, count = 0, total = 1;
	for (size_t i = 0; i < wn; i++)
		total += words[i] == ' ' || words[i] == ',';
	buf[0] = 0;
	for (size_t i = 0; i < wn && len + 16 < n;) {
		while (i < wn && (words[i] == ' ' || words[i] == ','))
			i++;
		size_t j = i;
		while (j < wn && words[j] != ' ' && words[j] != ',')
			j++;
		if (j == i)
			break;
		count++;
		const char *sep = count == 1 ? "" : count == total ? " or " : ", ";
		len += (size_t)snprintf(buf + len, n - len, "%s.%.*s", sep, (int)(j - i), words + i);
		i = j;
	}
}

int isa_selftest(Buf *out)
{
	isa_init();
	int n = nerrs;
	if (out && errs.len)
		buf_put(out, errs.p, errs.len);
	for (unsigned o = 0; o < OPC__COUNT; o++)
		if (ops[o].nform == 0) {
			if (out)
				buf_printf(out, "opcode %s has no form\n", ops[o].name);
			n++;
		}
	return n;
}
