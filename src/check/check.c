/* check.c: the semantic checker.
 *
 * It walks a parsed module once: the header (.version, .target,
 * .address_size), the module-scope symbols, every declaration and
 * initializer, then each function body: scopes, labels, and every
 * instruction against the forms of its opcode in ops.def.  Each problem
 * is reported once, at the token it concerns, and checking goes on.
 */
#include "check.h"
#include "../front/parse.h"
#include "../isa/mma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- symbol tables ------------------------------------------------------ */
enum { SY_VAR = 1, SY_FUNC, SY_LABEL, SY_PROTO, SY_TARGETS };

typedef struct Sym {
	Str key;
	uint8_t kind;
	void *val;
} Sym;

typedef struct SymTab {
	Sym *v;
	size_t cap, n;
} SymTab;

static uint32_t str_hash(Str s)
{
	uint32_t h = 2166136261u;
	for (uint32_t i = 0; i < s.n; i++)
		h = (h ^ (unsigned char)s.p[i]) * 16777619u;
	return h;
}

static Sym *tab_find(const SymTab *t, Str k)
{
	if (!t->cap)
		return NULL;
	for (size_t i = str_hash(k) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		Sym *s = &t->v[i];
		if (!s->kind)
			return NULL;
		if (str_same(s->key, k))
			return s;
	}
}

/* Inserts; returns the existing symbol if the name is taken. */
static Sym *tab_put(SymTab *t, Str k, uint8_t kind, void *val)
{
	if ((t->n + 1) * 2 > t->cap) {
		SymTab nt = { calloc(t->cap ? t->cap * 2 : 64, sizeof(Sym)), t->cap ? t->cap * 2 : 64, 0 };
		if (!nt.v)
			abort();
		for (size_t i = 0; i < t->cap; i++)
			if (t->v[i].kind)
				tab_put(&nt, t->v[i].key, t->v[i].kind, t->v[i].val);
		free(t->v);
		*t = nt;
	}
	for (size_t i = str_hash(k) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		Sym *s = &t->v[i];
		if (!s->kind) {
			*s = (Sym){ k, kind, val };
			t->n++;
			return NULL;
		}
		if (str_same(s->key, k))
			return s;
	}
}

static void tab_clear(SymTab *t)
{
	if (t->n)
		memset(t->v, 0, t->cap * sizeof *t->v);
	t->n = 0;
}

/* ---- checker state ------------------------------------------------------ */
typedef struct Local {
	Str name;
	Decl *d;
	int depth;
} Local;

typedef struct Ck {
	Module *m;
	Diags *d;
	CheckOpts opt;
	SymTab glob;            /* module scope: variables and functions */
	SymTab fn;              /* function scope: params, body-level decls */
	SymTab labels;          /* labels, prototypes, target lists */
	SymTab ranges;          /* "%r" -> Decl with range, function level */
	Local *blk;             /* declarations inside nested { } blocks */
	size_t nblk, cblk;
	int depth;
	Func *fn_cur;
	const Instr *in_cur;    /* the instruction being checked */
	bool quiet;             /* trial checking: count errors, say nothing */
	int qerr;
} Ck;

static void err(Ck *c, Pos p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err(Ck *c, Pos p, const char *fmt, ...)
{
	if (c->quiet) {
		c->qerr++;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(c->d, DIAG_ERROR, p, fmt, ap);
	va_end(ap);
}

/* An operand of the wrong shape (vector for scalar or the reverse): in a
 * trial it weighs more than a type error, so that the form reported is
 * the one the text was closest to. */
static void shape_err(Ck *c, Pos p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void shape_err(Ck *c, Pos p, const char *fmt, ...)
{
	if (c->quiet) {
		c->qerr += 10;
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(c->d, DIAG_ERROR, p, fmt, ap);
	va_end(ap);
}

static unsigned errors(const Ck *c) { return c->quiet ? (unsigned)c->qerr : (unsigned)c->d->nerrors; }

static void ver_str(unsigned v, char *b) { sprintf(b, "%u.%u", v / 10, v % 10); }

/* Gates.  "what" names the feature, as the manual does. */
static bool need_ptx(Ck *c, Pos p, unsigned v, const char *what)
{
	if (c->m->ptx >= v)
		return true;
	char a[16], b[16];
	ver_str(v, a);
	ver_str(c->m->ptx, b);
	err(c, p, "%s requires PTX ISA version %s or later (this module is .version %s)", what, a, b);
	return false;
}

static bool need_sm(Ck *c, Pos p, unsigned sm, const char *what)
{
	if (c->m->sm >= sm)
		return true;
	err(c, p, "%s requires sm_%u or higher (this module targets sm_%u)", what, sm, c->m->sm);
	return false;
}

/* Modifier ids by word, for the rules written here rather than in ops.def. */
static unsigned mod_id(const char *w) { return isa_lookup_mod(w, strlen(w)); }

static bool has_mod(const Instr *in, unsigned m)
{
	for (int i = 0; i < in->nmods; i++)
		if (in->mods[i] == m)
			return true;
	return false;
}

static int find_mod(const Instr *in, const char *const *words, int n)
{
	for (int k = 0; k < n; k++) {
		unsigned m = mod_id(words[k]);
		if (m != MOD_NONE && has_mod(in, m))
			return k;
	}
	return -1;
}

/* ---- targets ------------------------------------------------------------ */
typedef struct TargetInfo {
	const char *name;
	uint16_t sm;
	char suffix;
	uint8_t min_ptx;
} TargetInfo;

static const TargetInfo targets[] = {
#define TG(name, sm, suffix, ptx) { name, sm, suffix, ptx },
#include "../isa/targets.def"
#undef TG
};

bool ptx_target_lookup(const char *name, size_t n, unsigned *sm, char *suffix, unsigned *min_ptx)
{
	char tmp[32];
	if (n > 8 && n < 24 && !memcmp(name, "compute_", 8)) {   /* compute_90 = sm_90 */
		snprintf(tmp, sizeof tmp, "sm_%.*s", (int)(n - 8), name + 8);
		name = tmp;
		n = strlen(tmp);
	}
	for (size_t i = 0; i < NELEM(targets); i++)
		if (strlen(targets[i].name) == n && !memcmp(targets[i].name, name, n)) {
			*sm = targets[i].sm;
			*suffix = targets[i].suffix;
			*min_ptx = targets[i].min_ptx;
			return true;
		}
	return false;
}

/* The newest PTX ISA version this checker knows, and the newest a
 * driver's load takes (CheckOpts.newer_versions). */
#define PTX_NEWEST 90
#define PTX_NEWEST_DRIVER 92

static void check_header(Ck *c)
{
	Module *m = c->m;
	if (!m->has_version || m->ver_seq != 0) {
		err(c, m->has_version ? m->ver_pos : (Pos){ 1, 1 }, "missing .version directive at the start of the module");
		m->ptx = m->has_version ? m->ver_major * 10u + m->ver_minor : PTX_NEWEST;
	} else {
		m->ptx = m->ver_major * 10u + m->ver_minor;
	}
	/* the PTX ISA versions that exist (ptxas 13.0 knows exactly these;
	   a driver's load, 9.1 and 9.2 too) */
	static const uint8_t last_minor[10] = { 0, 5, 3, 2, 3, 1, 5, 8, 8, PTX_NEWEST_DRIVER % 10 };
	unsigned newest = c->opt.newer_versions ? PTX_NEWEST_DRIVER : PTX_NEWEST;
	if (m->has_version && (m->ver_major < 1 || m->ver_major > 9 || m->ver_minor > last_minor[m->ver_major] ||
			       m->ptx > newest)) {
		char b[16];
		ver_str(newest, b);
		err(c, m->ver_pos, "unsupported PTX ISA .version %u.%u (the newest is %s)",
		    m->ver_major, m->ver_minor, b);
	}
	if (!m->ntargets) {
		err(c, m->has_version ? m->ver_pos : (Pos){ 1, 1 }, "missing .target directive");
		m->sm = c->opt.arch;
		return;
	}
	if (m->has_version && m->target_seq != m->ver_seq + 1)
		err(c, m->target_pos, ".target must directly follow .version");
	bool have_sm = false, texmode = false;
	for (uint32_t i = 0; i < m->ntargets; i++) {
		Target *t = &m->targets[i];
		unsigned sm, minptx;
		char suf;
		if (ptx_target_lookup(t->name.p, t->name.n, &sm, &suf, &minptx)) {
			if (have_sm)
				continue;       /* ptxas ignores further architectures */
			have_sm = true;
			m->sm = sm;
			m->sm_suffix = (uint8_t)suf;
			if (m->has_version && m->ptx < minptx) {
				char a[16], b[16];
				ver_str(minptx, a);
				ver_str(m->ptx, b);
				err(c, t->pos, "target %.*s requires PTX ISA version %s or later (this module is .version %s)",
				    (int)t->name.n, t->name.p, a, b);
			}
			if (sm > c->opt.arch || (suf && (sm != c->opt.arch || suf != c->opt.arch_suffix)))
				err(c, t->pos, "this module is for %.*s; the device is sm_%u%s",
				    (int)t->name.n, t->name.p, c->opt.arch,
				    c->opt.arch_suffix == 'a' ? "a" : c->opt.arch_suffix == 'f' ? "f" : "");
			continue;
		}
		if (i == 0) {
			err(c, t->pos, "the first .target item must be an architecture such as sm_90");
			continue;
		}
		if (str_eq(t->name, "texmode_unified") || str_eq(t->name, "texmode_independent")) {
			if (texmode && str_eq(t->name, "texmode_independent") != m->texmode_independent)
				err(c, t->pos, "conflicting texture modes in .target");
			texmode = true;
			m->texmode_independent = str_eq(t->name, "texmode_independent");
			need_ptx(c, t->pos, 15, "texmode_unified and texmode_independent");
		} else if (str_eq(t->name, "debug")) {
			m->debug = 1;
			need_ptx(c, t->pos, 30, ".target debug");
		} else if (str_eq(t->name, "map_f64_to_f32")) {
			m->map_f64 = 1;
		} else {
			err(c, t->pos, "unknown target '%.*s'", (int)t->name.n, t->name.p);
		}
	}
	if (!have_sm)
		m->sm = c->opt.arch;
	if (m->map_f64 && m->sm >= 13)
		err(c, m->target_pos, "map_f64_to_f32 applies only to targets below sm_13");
	if (m->debug && !m->has_debug_sections)
		err(c, m->target_pos, ".target debug needs DWARF .section directives, and this module has none");
	if (m->has_asize) {
		if (m->asize_seq < m->target_seq)
			err(c, m->asize_pos, ".address_size must follow .target");
		if (m->address_size != 32 && m->address_size != 64)
			err(c, m->asize_pos, ".address_size must be 32 or 64");
		else if (m->address_size == 32 && c->opt.arch >= 90)
			err(c, m->asize_pos, "32-bit addressing is not supported on sm_90 and later: use .address_size 64");
		need_ptx(c, m->asize_pos, 23, ".address_size");
	} else {
		m->address_size = 64;
	}
}

/* ---- types -------------------------------------------------------------- */
static const char *ty_name(unsigned t) { return t < TY__ALL ? isa_type[t].name : "?"; }
static unsigned ty_bytes(unsigned t) { return t < TY__ALL ? isa_type[t].bytes : 0; }
static char ty_kind(unsigned t) { return t < TY__ALL ? isa_type[t].kind : 0; }

/* May a register of type have be used where the instruction says want?
 * PTX's rules: bit-size types fit any type of the same size, integer types
 * of one size fit each other, floats need the same float type; relaxed
 * operands (ld/st/cvt) may use a wider integer or bit-size register. */
static bool type_fits(unsigned want, unsigned have, bool relaxed)
{
	if (want == have)
		return true;
	char wk = ty_kind(want), hk = ty_kind(have);
	if (wk == TK_P || hk == TK_P || wk == TK_O || hk == TK_O)
		return false;
	unsigned wb = ty_bytes(want), hb = ty_bytes(have);
	if (wb == hb) {
		if (wk == TK_B || hk == TK_B)
			return true;
		if ((wk == TK_U || wk == TK_S) && (hk == TK_U || hk == TK_S))
			return true;
		return false;
	}
	/* a wider register: integer and bit-size data only */
	if (relaxed && hb > wb)
		return wk != TK_F && hk != TK_F;
	return false;
}

/* ---- name resolution ---------------------------------------------------- */
/* Finds a variable visible here: nested blocks, then the function, then
 * "%r<N>" ranges, then the module. */
static Decl *find_var(Ck *c, Opnd *o)
{
	for (size_t i = c->nblk; i-- > 0;)
		if (str_same(c->blk[i].name, o->name))
			return c->blk[i].d;
	Sym *s = tab_find(&c->fn, o->name);
	if (s)
		return s->val;
	Str prefix;
	int64_t k = ptx_name_index(o->name, &prefix);
	if (k >= 0) {
		Sym *r = tab_find(&c->ranges, prefix);
		if (r && k < ((Decl *)r->val)->range) {
			o->regidx = (int32_t)k;
			return r->val;
		}
	}
	s = tab_find(&c->glob, o->name);
	if (s && s->kind == SY_VAR)
		return s->val;
	return NULL;
}

/* Resolves a name operand; reports undefined names.  Returns o->res. */
static int resolve(Ck *c, Opnd *o)
{
	if (o->res)
		return o->res;
	Decl *d = find_var(c, o);
	if (d) {
		o->ref = d;
		o->res = d->space == SP_REG ? R_REG : d->space == SP_PARAM ? R_PARAM : R_VAR;
		if (o->comp && !(d->vec || d->space != SP_REG))
			err(c, o->pos, "'%.*s' is not a vector", (int)o->name.n, o->name.p);
		return o->res;
	}
	if (o->name.n && o->name.p[0] == '%') {
		int s = isa_lookup_sreg(o->name.p, o->name.n);
		if (s >= 0) {
			const IsaSreg *sr = &isa_sreg[s];
			o->ref = (void *)sr;
			o->res = R_SREG;
			if (sr->vec && !o->comp)
				err(c, o->pos, "special register %s needs a component (.x, .y or .z)", sr->name);
			else if (!sr->vec && o->comp)
				err(c, o->pos, "special register %s has no components", sr->name);
			else if (sr->vec && o->comp > sr->vec)
				err(c, o->pos, "special register %s has no component .%c", sr->name, "xyzw"[o->comp - 1]);
			char what[64];
			snprintf(what, sizeof what, "special register %s", sr->name);
			if (need_ptx(c, o->pos, sr->ptx, what))
				need_sm(c, o->pos, sr->sm, what);
			return o->res;
		}
	}
	Sym *s = tab_find(&c->labels, o->name);
	if (s) {
		o->ref = s->val;
		o->res = s->kind == SY_LABEL ? R_LABEL : R_LABEL;
		return o->res;
	}
	s = tab_find(&c->glob, o->name);
	if (s && s->kind == SY_FUNC) {
		o->ref = s->val;
		o->res = R_FUNC;
		return o->res;
	}
	err(c, o->pos, "undefined identifier '%.*s'", (int)o->name.n, o->name.p);
	o->res = R_NONE;
	return R_NONE;
}

/* Forgets what a trial check resolved, so that the real check reports. */
static void unresolve(Opnd *o)
{
	o->res = R_NONE;
	o->ref = NULL;
	o->regidx = -1;
	for (uint32_t i = 0; i < o->n; i++)
		unresolve(&o->elems[i]);
}

/* Resolves every name in an operand tree (for operands checked loosely). */
static void resolve_all(Ck *c, Opnd *o)
{
	if (o->kind == OK_SYM)
		resolve(c, o);
	for (uint32_t i = 0; i < o->n; i++)
		resolve_all(c, &o->elems[i]);
}

/* Type of a resolved register or special register operand. */
static int opnd_type(const Opnd *o)
{
	if (o->res == R_SREG)
		return ((const IsaSreg *)o->ref)->type;
	if (o->res == R_REG || o->res == R_PARAM || o->res == R_VAR)
		return ((const Decl *)o->ref)->type;
	return -1;
}

/* The functions ptxas provides to a whole program (the device runtime's
 * system calls, and the calls of kernels in graphs, which ptxas 13
 * resolves without separate compilation while it leaves the rest of the
 * device runtime, cudaGetParameterBufferV2 and the like, unresolved): a
 * module may declare them without defining them. */
static bool system_function(Str name)
{
	static const char *const sys[] = { "vprintf", "malloc", "free", "__assertfail",
					     "__cuda_syscall_aligned_malloc", "cudaGraphSetConditional",
					     "cudaGraphLaunch", "cudaGraphKernelNodeSetParam",
					     "cudaGraphKernelNodeSetEnabled", "cudaGraphKernelNodeSetGridDim",
					     "cudaGraphKernelNodeUpdatesApply" };
	for (size_t i = 0; i < NELEM(sys); i++)
		if (str_eq(name, sys[i]))
			return true;
	return false;
}

/* A whole program must define every function it calls or takes the
 * address of; relocatable code (compile_only) may leave an .extern one to
 * the linker. */
static void need_definition(Ck *c, const Opnd *o, bool address)
{
	const Func *f = o->ref;
	if (!f->has_body && c->opt.arch >= 90 && str_eq(f->name, "cudaDeviceSynchronize")) {
		/* ptxas: "Unsupported Function 'cudaDeviceSynchronize' on arch 'sm_90' or higher" */
		err(c, o->pos, "device-side cudaDeviceSynchronize() is not supported on sm_90 and later "
		    "(CUDA 12 removed it from the device runtime)");
		return;
	}
	if ((c->opt.compile_only && (f->linkage & L_EXTERN)) || f->has_body || system_function(f->name))
		return;
	char nm[256];
	if (c->opt.provided && (f->linkage & L_EXTERN) && f->name.n < sizeof nm) {
		memcpy(nm, f->name.p, f->name.n);
		nm[f->name.n] = 0;
		if (c->opt.provided(nm))
			return;
	}
	if (c->opt.compile_only)
		err(c, o->pos, "'%.*s' is neither defined nor declared .extern: only .extern functions are left to the linker",
		    (int)o->name.n, o->name.p);
	else if (address)
		err(c, o->pos, "cannot take the address of '%.*s', which this module does not define (relocatable code, ptxvm check -c, may)",
		    (int)o->name.n, o->name.p);
	else
		err(c, o->pos, "unresolved .extern function '%.*s': a whole program defines every function it calls (relocatable code, ptxvm check -c, may call it)",
		    (int)o->name.n, o->name.p);
}

/* ---- declarations ------------------------------------------------------- */
enum { SC_MODULE, SC_ENTRY_PARAM, SC_FUNC_PARAM, SC_FUNC_RET, SC_BODY, SC_PROTO };

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* Checks one initializer value against the element type. */
static void check_init_leaf(Ck *c, Decl *d, Init *it)
{
	unsigned t = d->type;
	char k = ty_kind(t);
	switch (it->kind) {
	case IN_INT:
		if (k == TK_F)
			err(c, it->pos, "integer value in the initializer of a .%s variable (write a floating-point constant)",
			    ty_name(t));
		break;
	case IN_FLOAT:
		if (k != TK_F && !(it->fkind && k == TK_B)) {
			err(c, it->pos, "floating-point value in the initializer of an integer variable");
		}
		break;
	case IN_SYM: {
		if (it->generic)
			need_ptx(c, it->pos, 31, "the generic() operator");
		Sym *s = tab_find(&c->glob, it->name);
		if (!s) {
			err(c, it->pos, "undefined identifier '%.*s' in initializer", (int)it->name.n, it->name.p);
			break;
		}
		if (s->kind == SY_VAR) {
			Decl *v = s->val;
			if (!v->seen) {
				err(c, it->pos, "'%.*s' is used in an initializer before its declaration is complete",
				    (int)it->name.n, it->name.p);
				break;
			}
			if (v->space != SP_GLOBAL && v->space != SP_CONST) {
				err(c, it->pos, "only .global and .const variables may be used in initializers");
				break;
			}
		} else if (s->kind == SY_FUNC) {
			Func *f = s->val;
			if (f->entry && need_ptx(c, it->pos, 31, "a kernel name in an initializer"))
				need_sm(c, it->pos, 35, "a kernel name in an initializer");
			if (it->generic)
				err(c, it->pos, "generic() takes a variable, not a function");
		}
		if (t != TY_u32 && t != TY_u64)
			err(c, it->pos, "a variable holding an address must be .u32 or .u64, not .%s", ty_name(t));
		break;
	}
	case IN_MASK: {
		static const uint64_t masks[] = {
			0xFFull, 0xFF00ull, 0xFF0000ull, 0xFF000000ull, 0xFF00000000ull,
			0xFF0000000000ull, 0xFF000000000000ull, 0xFF00000000000000ull };
		bool ok = false;
		for (size_t i = 0; i < NELEM(masks); i++)
			ok |= it->ival == masks[i];
		need_ptx(c, it->pos, 71, "the mask() operator");
		if (!ok)
			err(c, it->pos, "invalid mask 0x%llX: the mask selects one byte (0xFF, 0xFF00, ..., 0xFF00000000000000)",
			    (unsigned long long)it->ival);
		if (t != TY_u8 && t != TY_u32 && t != TY_u64)
			err(c, it->pos, "mask() initializes a .u8, .u32 or .u64 variable, not .%s", ty_name(t));
		Init *s = it->sub;
		if (s && s->kind == IN_INT)
			need_ptx(c, s->pos, 72, "an integer expression in mask()");   /* ptxas 13: 7.2; the manual: 7.3 */
		else if (s && s->kind == IN_FLOAT)
			err(c, s->pos, "mask() takes an address or an integer expression");
		else if (s && s->kind == IN_SYM) {
			Sym *sy = tab_find(&c->glob, s->name);
			if (!sy)
				err(c, s->pos, "undefined identifier '%.*s' in initializer", (int)s->name.n, s->name.p);
			else if (sy->kind == SY_VAR && ((Decl *)sy->val)->space != SP_GLOBAL &&
				 ((Decl *)sy->val)->space != SP_CONST)
				err(c, s->pos, "only .global and .const variables may be used in initializers");
		}
		return;
	}
	case IN_LIST:
		err(c, it->pos, "too many braces in initializer");
		return;
	case IN_FIELDS:
		err(c, it->pos, "named members initialize only .texref, .samplerref and .surfref variables");
		return;
	}
}

/* Walks a (possibly nested) list against the dimensions dims[level..]. */
static void check_init_list(Ck *c, Decl *d, Init *it, int level)
{
	int ndims = d->ndim + (d->vec ? 1 : 0);
	uint64_t extent = level < d->ndim ? d->dim[level] : d->vec;
	if (level >= ndims) {
		check_init_leaf(c, d, it);
		return;
	}
	if (it->kind != IN_LIST) {
		/* A scalar where a list is expected: C allows brace elision;
		 * PTX does not. */
		err(c, it->pos, "expected '{' in the initializer of '%.*s'", (int)d->name.n, d->name.p);
		return;
	}
	if (it->n == 0) {
		if (level == 0 && d->dim_omitted)
			err(c, it->pos, "empty initializer list for an array of unknown size");
		return;
	}
	if (level == 0 && d->dim_omitted) {
		d->dim[0] = it->n;
		extent = it->n;
	}
	if (level == d->ndim && d->vec && it->n != d->vec)
		err(c, it->pos, "a .v%u vector initializer has %u elements, not %u", d->vec, d->vec, it->n);
	if (it->n > extent)
		err(c, it->items[extent].pos, "too many initializers for '%.*s' (dimension has %llu elements)",
		    (int)d->name.n, d->name.p, (unsigned long long)extent);
	for (uint32_t i = 0; i < it->n && i < extent; i++)
		check_init_list(c, d, &it->items[i], level + 1);
}

/* The named members an opaque variable may initialize (seed 002, tables
 * 10 and 11, as ptxas 13 applies them: a .texref takes its sampler
 * members in both texture modes; values are not judged). */
static void check_fields(Ck *c, Decl *d, Init *it)
{
	static const char *const tex[] = { "width", "height", "depth", "channel_data_type", "channel_order",
		"normalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2",
		"array_size", "num_mipmap_levels", "num_samples", NULL };
	static const char *const smp[] = { "force_unnormalized_coords", "filter_mode", "addr_mode_0",
		"addr_mode_1", "addr_mode_2", NULL };
	static const char *const surf[] = { "width", "height", "depth", "channel_data_type", "channel_order",
		"array_size", "memory_layout", NULL };
	if (it->kind == IN_LIST && d->ndim) {
		for (uint32_t i = 0; i < it->n; i++)
			check_fields(c, d, &it->items[i]);
		if (it->n > d->dim[0] && !d->dim_omitted)
			err(c, it->pos, "too many initializers for '%.*s'", (int)d->name.n, d->name.p);
		return;
	}
	if (it->kind != IN_FIELDS) {
		err(c, it->pos, "an opaque variable is initialized with named members: { name = value, ... }");
		return;
	}
	const char *const *ok = d->type == TY_surfref ? surf : d->type == TY_samplerref ? smp : tex;
	for (uint32_t i = 0; i < it->n; i++) {
		Init *f = &it->items[i];
		bool found = false;
		for (int k = 0; ok[k]; k++)
			found |= str_eq(f->name, ok[k]);
		if (!found)
			err(c, f->pos, "'%.*s' is not a member of .%s", (int)f->name.n, f->name.p, ty_name(d->type));
		static const char *const words[] = { "nearest", "linear", "wrap", "mirror", "clamp_ogl",
						     "clamp_to_edge", "clamp_to_border", NULL };
		bool known = !f->word.n;
		for (int k = 0; !known && words[k]; k++)
			known = str_eq(f->word, words[k]);
		if (!known)
			err(c, f->pos, "'%.*s' is not a value of an opaque member (nearest, linear, wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border, or a number)",
			    (int)f->word.n, f->word.p);
	}
}

static bool var_type_ok(unsigned t)
{
	switch (t) {
	case TY_bf16: case TY_bf16x2: case TY_tf32: case TY_e4m3x2: case TY_e5m2x2:
	case TY_u16x2: case TY_s16x2:
		return false;
	}
	return true;
}

static void check_decl(Ck *c, Decl *d, int scope)
{
	Pos p = d->pos;
	unsigned t = d->type;
	bool opaque = t >= TY__COUNT;
	if (!var_type_ok(t)) {
		err(c, p, ".%s is not a type for variables (use .b%u)", ty_name(t), ty_bytes(t) * 8);
		return;
	}
	switch (scope) {
	case SC_MODULE:
		if (d->space == SP_REG || d->space == SP_PARAM || d->space == SP_SREG)
			err(c, p, ".%s variables may not be declared at module scope", space_name[d->space]);
		else if (d->space == SP_LOCAL)
			err(c, p, "module-scope .local variables are not allowed: .local lives on each thread's stack");
		if ((d->linkage & L_COMMON) && d->space != SP_GLOBAL)
			err(c, p, ".common variables must be in the .global state space");
		break;
	case SC_ENTRY_PARAM:
		if (d->space != SP_PARAM)
			err(c, p, "kernel parameters are in the .param state space");
		break;
	case SC_FUNC_PARAM:
	case SC_FUNC_RET:
		if (d->space != SP_PARAM && d->space != SP_REG)
			err(c, p, "function parameters are in the .param or .reg state space");
		break;
	case SC_BODY:
		if (d->space == SP_TEX || d->space == SP_SREG)
			err(c, p, ".%s variables may not be declared inside a function", space_name[d->space]);
		if (d->linkage)
			err(c, p, "linkage directives apply only at module scope");
		break;
	}
	if (d->space == SP_TEX) {
		err(c, p, "the .tex state space is not supported; use .global .texref");
		return;
	}
	if (t == TY_pred && d->space != SP_REG)
		err(c, p, "predicates may only be declared in the .reg state space");
	if (d->space == SP_REG && d->ndim)
		err(c, p, "'%.*s': arrays cannot be held in registers", (int)d->name.n, d->name.p);
	if (scope == SC_ENTRY_PARAM && d->dim_omitted)
		err(c, p, "a kernel parameter cannot be an array of unknown size");
	if (opaque) {
		if (t == TY_samplerref && !c->m->texmode_independent && !d->ndim)
			err(c, p, ".samplerref variables are not allowed in unified texture mode (use .target ..., texmode_independent)");
		if (d->space == SP_REG)
			err(c, p, "'%.*s': a .%s cannot be held in a register", (int)d->name.n, d->name.p, ty_name(t));
		else if (scope == SC_MODULE && d->space != SP_GLOBAL)
			err(c, p, ".%s variables must be in the .global state space at module scope", ty_name(t));
		else if (scope == SC_BODY)
			err(c, p, ".%s variables may be declared only at module scope or as kernel parameters", ty_name(t));
		else if ((scope == SC_FUNC_PARAM || scope == SC_FUNC_RET) && d->space == SP_PARAM)
			err(c, p, ".%s parameters are allowed only on kernels (.entry)", ty_name(t));
		if (d->vec)
			err(c, p, "opaque types cannot form vectors");
	}
	if (d->nvec > 1 || d->vec_after_type)
		err(c, p, d->nvec > 1 ? "only one vector qualifier (.v2, .v4)" : "the vector qualifier comes before the type");
	if (d->vec && scope == SC_ENTRY_PARAM)
		err(c, p, "kernel parameters cannot be vectors");
	if (scope == SC_ENTRY_PARAM && d->ndim > 1)
		err(c, p, "kernel parameter arrays have one dimension");
	if (scope == SC_BODY && d->space == SP_PARAM && t == TY_f16x2)
		err(c, p, "'%.*s': .f16x2 cannot be allocated in the .param state space", (int)d->name.n, d->name.p);
	if (d->vec) {
		if (t == TY_pred)
			err(c, p, "vectors of predicates are not allowed");
		else if (!opaque && (d->vec == 8 || d->vec * ty_bytes(t) > 16))
			err(c, p, "vector .v%u .%s is %u bits; vectors are at most 128 bits", d->vec, ty_name(t),
			    d->vec * ty_bytes(t) * 8);
	}
	if (d->align && !pow2(d->align))
		err(c, p, "alignment %u is not a power of two", d->align);
	if (d->ptr) {
		if (scope != SC_ENTRY_PARAM && scope != SC_FUNC_PARAM)
			err(c, d->attr_pos, ".ptr is allowed only on kernel parameters");
		else if (t != TY_u64 && t != TY_u32 && t != TY_b64 && t != TY_s64 && t != TY_b32 && t != TY_s32)
			err(c, d->attr_pos, ".ptr parameters must be 32- or 64-bit integers");
		if (d->ptr_align && !pow2(d->ptr_align))
			err(c, d->attr_pos, "alignment %u is not a power of two", d->ptr_align);
		need_ptx(c, d->attr_pos, 22, ".ptr");
		if (d->ptr_opaque)
			need_ptx(c, d->attr_pos, 43, "kernel parameter pointers to opaque types");
	}
	if (d->managed || d->unified) {
		need_ptx(c, d->attr_pos, 40, ".attribute");
		if (d->managed) {
			need_sm(c, d->attr_pos, 30, ".attribute(.managed)");
			if (d->space != SP_GLOBAL)
				err(c, d->attr_pos, ".managed applies only to .global variables");
		}
		if (d->unified && need_ptx(c, d->attr_pos, 80, ".attribute(.unified)") &&
		    need_sm(c, d->attr_pos, 90, ".attribute(.unified)")) {
			if (d->space != SP_GLOBAL)
				err(c, d->attr_pos, ".unified applies only to .global variables and functions");
			else if (!c->opt.compile_only)
				err(c, d->attr_pos, ".unified needs separate compilation (ptxvm check -c, ptxas --compile-only); a whole program cannot use it");
		}
	}
	if (d->range >= 0) {
		if (d->ndim)
			err(c, p, "parameterized names %%name<N> cannot declare arrays");
		if (d->has_init)
			err(c, p, "parameterized names %%name<N> cannot have initializers");
	}
	for (int i = 0; i < d->ndim; i++)
		if (d->dim[i] == 0 && !(i == 0 && d->dim_omitted))
			err(c, p, "array dimension must be positive");
	if (d->has_init) {
		if (d->linkage & L_EXTERN)
			err(c, p, "initializers are not allowed on .extern variables");
		else if (d->space != SP_GLOBAL && d->space != SP_CONST)
			err(c, p, "initializers are allowed only in the .global and .const state spaces");
		else if (opaque)
			check_fields(c, d, d->init);
		else if (t == TY_f16 || t == TY_f16x2 || t == TY_pred)
			err(c, p, "variables of type .%s cannot be initialized", ty_name(t));
		else
			check_init_list(c, d, d->init, 0);
	} else if (d->dim_omitted && (d->linkage & L_EXTERN) && d->space != SP_SHARED) {
		err(c, p, "'%.*s': an .extern array of unknown size is resolved only for .shared (dynamic shared memory)",
		    (int)d->name.n, d->name.p);
	} else if (d->dim_omitted && !(d->linkage & L_EXTERN) &&
		   scope != SC_ENTRY_PARAM && scope != SC_FUNC_PARAM && scope != SC_PROTO) {
		err(c, p, "array '%.*s' has no size: the first dimension may be omitted only with an initializer or .extern",
		    (int)d->name.n, d->name.p);
	}
}

/* Declares d in the current function scope. */
static void declare_local(Ck *c, Decl *d)
{
	if (c->depth > 1) {     /* depth 1 is the function's own braces */
		for (size_t i = c->nblk; i-- > 0 && c->blk[i].depth == c->depth;)
			if (str_same(c->blk[i].name, d->name)) {
				err(c, d->pos, "'%.*s' is already declared in this block", (int)d->name.n, d->name.p);
				return;
			}
		c->blk = vec_grow(c->blk, &c->cblk, c->nblk + 1, sizeof *c->blk);
		c->blk[c->nblk++] = (Local){ d->name, d, c->depth };
		return;
	}
	Sym *s;
	if (d->range >= 0) {
		s = tab_put(&c->ranges, d->name, SY_VAR, d);
	} else {
		/* "%r2" is taken if "%r<4>" was declared */
		Str prefix;
		int64_t k = ptx_name_index(d->name, &prefix);
		Sym *r = k >= 0 ? tab_find(&c->ranges, prefix) : NULL;
		s = r && k < ((Decl *)r->val)->range ? r : tab_put(&c->fn, d->name, SY_VAR, d);
	}
	if (s)
		err(c, d->pos, "'%.*s' is already declared", (int)d->name.n, d->name.p);
	else if (tab_find(&c->labels, d->name))
		err(c, d->pos, "'%.*s' is already declared as a label", (int)d->name.n, d->name.p);
}

/* A module-scope variable declared again: at most one definition, the
 * same type, and a definition of an .extern variable must be .visible. */
static void redeclare_var(Ck *c, Decl *old, Decl *d)
{
	bool old_ext = old->linkage & L_EXTERN, new_ext = d->linkage & L_EXTERN;
	if (old->type != d->type || old->space != d->space || old->vec != d->vec || old->ndim != d->ndim) {
		err(c, d->pos, "'%.*s' does not match its earlier declaration", (int)d->name.n, d->name.p);
		return;
	}
	if (!old_ext && !new_ext) {
		err(c, d->pos, "'%.*s' is already declared", (int)d->name.n, d->name.p);
		return;
	}
	if (old_ext && !new_ext && !(d->linkage & (L_VISIBLE | L_WEAK | L_COMMON)))
		err(c, d->pos, "'%.*s' was declared .extern; its definition must be .visible", (int)d->name.n, d->name.p);
}

/* ---- instruction forms -------------------------------------------------- */
typedef struct Match {
	int form;                       /* index into isa_form */
	uint8_t slot[8];                /* chosen type per slot */
	int vec;                        /* 0, 2, 4, 8 */
} Match;

/* Matches the modifiers against the form's elements.  ptxas takes the
 * modifiers of an instruction in any order, except that types fill the
 * type slots left to right (cvt.f32.s32: .f32 is the destination).  Each
 * element takes at most one modifier; every required element must get
 * one.  Returns -1 on success, else the index of the first modifier that
 * fits nowhere (in->nmods when a required element is missing, named in
 * *missing).  *score measures how well the form fits (types count
 * double), to pick the form a diagnostic should speak of. */
static int match_mods(const IsaForm *f, const Instr *in, Match *mt, int *missing, int *score)
{
	uint32_t used = 0;
	int next_slot_elem = 0, bad = -1;
	*missing = -1;
	*score = 0;
	/* A leading element marked '^' is part of the name (suld.b, mul.hi,
	 * cvta.to): ptxas wants its word first. */
	const IsaElem *e0 = &f->elem[0];
	if (f->lead && !e0->optional) {
		if (!in->nmods) {
			*missing = 0;
			return 0;
		}
		if (!isa_set_has(e0->set, in->mods[0]))
			return 0;
	}
	for (int i = 0; i < in->nmods; i++) {
		unsigned m = in->mods[i];
		int hit = -1;
		if (isa_mod_is_type(m)) {
			/* the next type slot at or after the last one filled */
			for (int e = next_slot_elem; e < f->nelem; e++)
				if (f->elem[e].slot >= 0 && !(used >> e & 1)) {
					if (isa_set_has(f->elem[e].set, m))
						hit = e;
					else if (!f->elem[e].optional)
						break;
					if (hit >= 0)
						break;
				}
			if (hit >= 0)
				next_slot_elem = hit + 1;
		}
		if (hit < 0)
			for (int e = f->lead && i > 0; e < f->nelem; e++)
				if (f->elem[e].slot < 0 && !(used >> e & 1) && isa_set_has(f->elem[e].set, m)) {
					hit = e;
					break;
				}
		if (hit < 0) {
			if (bad < 0)
				bad = i;
			continue;
		}
		*score += isa_mod_is_type(m) ? 2 : 1;
		used |= 1u << hit;
		if (f->elem[hit].slot >= 0)
			mt->slot[f->elem[hit].slot] = (uint8_t)m;
	}
	if (bad >= 0)
		return bad;
	for (int e = 0; e < f->nelem; e++)
		if (!f->elem[e].optional && !(used >> e & 1)) {
			*missing = e;
			return in->nmods;
		}
	return -1;
}

static int vec_of(const Instr *in)
{
	for (int i = 0; i < in->nmods; i++) {
		const char *w = isa_mod_name[in->mods[i]];
		if (w[0] == 'v' && (w[1] == '2' || w[1] == '4' || w[1] == '8') && !w[2])
			return w[1] - '0';
	}
	return 0;
}

static bool is_int_type(unsigned t) { char k = ty_kind(t); return k == TK_B || k == TK_U || k == TK_S; }

/* One scalar operand against its expected type. */
static void check_scalar(Ck *c, const IsaOpnd *s, Opnd *o, int want, bool dest)
{
	char kind = s->kind;
	bool relaxed = s->relaxed;
	/* '!' negates a predicate source (mov.pred %p1, !%p2 too) */
	if (o->neg && (dest || (kind != 'q' && want != TY_pred))) {
		err(c, o->pos, "'!' applies only to predicate sources");
		return;
	}
	switch (o->kind) {
	case OK_SINK:
		if (!dest)
			err(c, o->pos, "'_' may only be a destination");
		return;
	case OK_INT:
		if (dest || kind == 'r' || kind == 'p' || kind == 'P' || kind == 'm' || kind == 'l' || kind == 'f') {
			err(c, o->pos, "expected a register, found an immediate");
			return;
		}
		/* a predicate source may be any integer (nonzero is true), as
		 * nvcc writes mov.pred %p1, -1 */
		if (kind != 'q' && want >= 0 && ty_kind(want) == TK_F)
			err(c, o->pos, "integer immediate for a .%s operand (write a floating-point constant)", ty_name(want));
		return;
	case OK_FLOAT:
		if (kind == 'q' || want == TY_pred) {
			err(c, o->pos, "a predicate operand takes a register or an integer, not a floating-point constant");
			return;
		}
		if (dest || kind != 'a') {
			err(c, o->pos, "expected a register, found an immediate");
			return;
		}
		if (want >= 0 && ty_kind(want) != TK_F && !(o->fkind && ty_kind(want) == TK_B &&
							     ty_bytes(want) == (o->fkind == 'f' ? 4u : 8u)))
			err(c, o->pos, "floating-point immediate for a .%s operand", ty_name(want));
		return;
	case OK_SYM:
		break;
	default:
		err(c, o->pos, "expected a %s", dest ? "register" : "register or immediate");
		return;
	}
	int r = resolve(c, o);
	if (r == R_NONE)
		return;
	if (kind == 'i') {
		err(c, o->pos, "expected an immediate");
		return;
	}
	if ((r == R_VAR || r == R_PARAM) && ((Decl *)o->ref)->type >= TY__COUNT) {
		/* mov.u64 r, opaque: a handle for indirect access (PTX 3.1). */
		const Instr *in = c->in_cur;
		const char *what = ((Decl *)o->ref)->type == TY_surfref ? "surface"
				   : ((Decl *)o->ref)->type == TY_texref ? "texture" : "sampler";
		if (in && (in->opc == OPC_cvta) && !dest)
			return;         /* ptxas accepts cvta of a handle */
		if (!in || in->opc != OPC_mov || dest)
			err(c, o->pos, "opaque variable '%.*s' can only be used by texture and surface instructions or taken with mov.u64",
			    (int)o->name.n, o->name.p);
		else if (want != TY_u64)
			err(c, o->pos, "indirect access to a %s requires mov.u64", what);
		else
			need_ptx(c, o->pos, 31, "indirect texture and surface access");
		return;
	}
	if (o->has_off && r != R_VAR && r != R_PARAM && r != R_FUNC) {
		err(c, o->pos, "an offset applies only to the address of a variable");
		return;
	}
	if (r == R_LABEL || r == R_FUNC || r == R_VAR || r == R_PARAM) {
		/* A variable or function name stands for its address: mov and cvta. */
		bool addr_ok = !dest && (kind == 'a' || kind == 'r') && want >= 0 &&
			       is_int_type(want) && ty_bytes(want) >= 4 && r != R_LABEL;
		if (!addr_ok)
			err(c, o->pos, "'%.*s' is not a register", (int)o->name.n, o->name.p);
		else if (r == R_FUNC)
			need_definition(c, o, true);
		return;
	}
	if (r == R_SREG && dest) {
		err(c, o->pos, "special register %.*s is read-only", (int)o->name.n, o->name.p);
		return;
	}
	int have = opnd_type(o);
	if (have < 0)
		return;
	bool pred_kind = kind == 'p' || kind == 'P' || kind == 'q';
	if (pred_kind || want == TY_pred) {
		if (have != TY_pred)
			err(c, o->pos, "expected a predicate register, '%.*s' is .%s", (int)o->name.n, o->name.p, ty_name(have));
		return;
	}
	if (have == TY_pred) {
		err(c, o->pos, "predicate '%.*s' used where a .%s value is expected", (int)o->name.n, o->name.p,
		    want >= 0 ? ty_name(want) : "data");
		return;
	}
	if (want >= 0 && !type_fits((unsigned)want, (unsigned)have, relaxed))
		err(c, o->pos, "operand '%.*s' has type .%s, which does not fit .%s", (int)o->name.n, o->name.p,
		    ty_name(have), ty_name(want));
}

/* The state space an instruction names for its k-th memory operand
 * (cp.async.ca.shared.global [dst], [src]: dst in .shared, src in .global). */
static int instr_space_nth(const Instr *in, int k)
{
	for (int i = 0; i < in->nmods; i++) {
		int sp = SP_NONE;
		const char *w = isa_mod_name[in->mods[i]];
		if (!strncmp(w, "shared", 6))
			sp = SP_SHARED;
		else if (!strcmp(w, "global"))
			sp = SP_GLOBAL;
		else if (!strcmp(w, "local"))
			sp = SP_LOCAL;
		else if (!strncmp(w, "param", 5))
			sp = SP_PARAM;
		else if (!strcmp(w, "const"))
			sp = SP_CONST;
		if (sp == SP_NONE)
			continue;
		if (k-- == 0)
			return sp;
	}
	return SP_NONE;         /* more memory operands than spaces named */
}

/* Operands that are shared memory whatever the modifiers say: ptxas takes
 * a 32-bit shared-window address there (the mbarrier of cp.async.bulk,
 * st.async and red.async, the matrices of ldmatrix/stmatrix). */
static bool implies_shared(const Instr *in)
{
	switch (in->opc) {
	case OPC_ldmatrix: case OPC_stmatrix:
		return true;
	case OPC_st: case OPC_red: case OPC_cp:
		return has_mod(in, MOD_async);
	}
	return false;
}

int ptx_mem_space(const Instr *in, int k)
{
	int sp = instr_space_nth(in, k);
	return sp == SP_NONE && implies_shared(in) ? SP_SHARED : sp;
}

static void check_mem(Ck *c, const Instr *in, Opnd *o, int nth)
{
	if (o->kind != OK_MEM || o->n != 1) {
		err(c, o->pos, "expected a memory operand [address]");
		return;
	}
	Opnd *b = &o->elems[0];
	if (b->kind == OK_INT)
		return;
	if (b->kind != OK_SYM) {
		err(c, b->pos, "expected a register or variable as the address");
		return;
	}
	int r = resolve(c, b);
	if (r == R_NONE)
		return;
	if (r == R_REG) {
		int t = opnd_type(b);
		int sp = ptx_mem_space(in, nth);
		/* ptxas takes an integer register of any width for a bulk copy's
		 * source and destination (not for its mbarrier) */
		if (in->opc == OPC_cp && has_mod(in, MOD_bulk) && nth < 2 && t != TY_pred && ty_kind(t) != TK_F)
			return;
		if (t == TY_pred || ty_kind(t) == TK_F || ty_bytes(t) < 4)
			err(c, b->pos, "address register '%.*s' must be a 32- or 64-bit integer, not .%s",
			    (int)b->name.n, b->name.p, ty_name(t));
		else if (ty_bytes(t) == 4 && c->m->address_size == 64 && (sp == SP_GLOBAL || sp == SP_NONE) &&
			 in->opc != OPC_tensormap)      /* ptxas takes 32 bits there, zero-extended */
			err(c, b->pos, "a %s address is 64 bits; '%.*s' is .%s", sp == SP_GLOBAL ? ".global" : "generic",
			    (int)b->name.n, b->name.p, ty_name(t));
		return;
	}
	if (r == R_VAR || r == R_PARAM) {
		Decl *d = b->ref;
		int sp = ptx_mem_space(in, nth);
		/* ptxas takes prefetch of a surface or sampler handle (and crashes on a texture) */
		if (d->type >= TY__COUNT && (d->type == TY_texref || (in->opc != OPC_prefetch && in->opc != OPC_prefetchu))) {
			err(c, b->pos, "opaque variable '%.*s' cannot be accessed with %s", (int)b->name.n, b->name.p,
			    isa_op[in->opc].name);
			return;
		}
		if (sp != SP_NONE && sp != d->space && d->space != SP_REG)
			err(c, b->pos, "'%.*s' is in .%s, not in .%s", (int)b->name.n, b->name.p,
			    space_name[d->space], space_name[sp]);
		return;
	}
	err(c, b->pos, "'%.*s' is not an address", (int)b->name.n, b->name.p);
}

/* ---- surfaces and textures ---------------------------------------------- */
static const char *const geoms[] = { "1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "2dms", "a2dms" };
static const int geom_arity[] = { 1, 2, 4, 2, 4, 4, 4, 4, 4 };

/* The image operand: a .surfref/.texref/.samplerref variable or a .u64 register. */
static void check_image(Ck *c, Opnd *o, unsigned want, const char *what)
{
	if (o->kind != OK_SYM) {
		err(c, o->pos, "expected a %s (a .%s variable or a .u64 register)", what, ty_name(want));
		return;
	}
	int r = resolve(c, o);
	if (r == R_NONE)
		return;
	if (r == R_REG) {
		int t = opnd_type(o);
		if (t != TY_u64 && t != TY_b64 && t != TY_s64)
			err(c, o->pos, "indirect %s access needs a 64-bit register, '%.*s' is .%s", what,
			    (int)o->name.n, o->name.p, ty_name(t));
		if (need_ptx(c, o->pos, 31, "indirect texture and surface access"))
			need_sm(c, o->pos, 20, "indirect texture and surface access");
		if (want == TY_texref && c->m->texmode_independent && 0)
			err(c, o->pos, "indirect texture access requires unified texture mode");
		return;
	}
	if (r == R_VAR || r == R_PARAM) {
		Decl *d = o->ref;
		if (d->type != want)
			err(c, o->pos, "'%.*s' is not a .%s", (int)o->name.n, o->name.p, ty_name(want));
		return;
	}
	err(c, o->pos, "'%.*s' is not a %s", (int)o->name.n, o->name.p, what);
}

/* A coordinate vector of n elements of type ctype.  For surfaces ptxas
 * also takes a single register, or a longer vector of 1, 2 or 4 elements
 * whose extra elements are ignored (scalar_ok). */
static void check_coords(Ck *c, Opnd *o, int n, const char *geom, bool scalar_ok, int ctype)
{
	IsaOpnd s = { 'r', -1, (uint8_t)ctype, 0, 0 };
	if (o->kind != OK_VEC) {
		if (!scalar_ok && n != 1)
			err(c, o->pos, "the .%s coordinates are a vector of %d elements {...}", geom, n);
		else if (o->kind != OK_SYM)
			err(c, o->pos, "expected a coordinate register or vector");
		else
			check_scalar(c, &s, o, ctype, false);
		return;
	}
	bool ok = scalar_ok ? (o->n == 1 || o->n == 2 || o->n == 4) && (int)o->n >= n : (int)o->n == n;
	if (!ok) {
		err(c, o->pos, "the .%s coordinates are a vector of %d element%s, not %u", geom, n, n > 1 ? "s" : "", o->n);
		return;
	}
	s.kind = 'a';
	for (uint32_t i = 0; i < o->n; i++)
		check_scalar(c, &s, &o->elems[i], ctype, false);
}

/* The data of suld (dest), sust and sured (source).  ptxas takes any
 * register at least as wide as the element, float ones too; without .vN
 * suld and sust also take a vector of 1, 2 or 4 registers of one size. */
static void check_surf_data(Ck *c, const Instr *in, Opnd *o, int want, int vec, bool dest)
{
	const char *name = in->opc == OPC_suld ? "suld" : in->opc == OPC_sust ? "sust" : "sured";
	if (o->kind == OK_SINK || (o->kind == OK_VEC && o->n && o->elems[0].kind == OK_SINK)) {
		err(c, o->pos, "%s cannot discard its result with '_'", name);
		return;
	}
	Opnd *el = o;
	uint32_t n = 1;
	if (o->kind == OK_VEC) {
		if (in->opc == OPC_sured) {
			err(c, o->pos, "sured takes a scalar operand, not a vector");
			return;
		}
		if (vec && (int)o->n != vec) {
			err(c, o->pos, "expected a vector of %d elements, found %u", vec, o->n);
			return;
		}
		if (!vec && !(o->n == 1 || o->n == 2 || o->n == 4)) {
			err(c, o->pos, "illegal vector size %u (1, 2 or 4)", o->n);
			return;
		}
		el = o->elems;
		n = o->n;
	} else if (vec) {
		err(c, o->pos, "a .v%d instruction takes a vector operand {...} of %d elements", vec, vec);
		return;
	}
	int size0 = -1;
	for (uint32_t i = 0, n0 = errors(c); i < n && errors(c) == n0; i++) {
		Opnd *e = &el[i];
		if ((e->kind == OK_INT && !dest) || (e->kind == OK_SINK && dest && i > 0))
			continue;
		if (e->kind != OK_SYM) {
			err(c, e->pos, "expected a register");
			continue;
		}
		int r = resolve(c, e);
		if (r == R_NONE)
			continue;
		if (r != R_REG && !(r == R_SREG && !dest)) {
			err(c, e->pos, "'%.*s' is not a register", (int)e->name.n, e->name.p);
			continue;
		}
		int t = opnd_type(e);
		if (in->opc == OPC_sured && ty_kind(t) == TK_F) {
			err(c, e->pos, "sured takes integer data; '%.*s' is .%s", (int)e->name.n, e->name.p, ty_name(t));
			continue;
		}
		if (t == TY_pred || ty_bytes(t) < ty_bytes(want)) {
			err(c, e->pos, "operand '%.*s' has type .%s, which is narrower than .%s", (int)e->name.n,
			    e->name.p, ty_name(t), ty_name(want));
			continue;
		}
		if (size0 < 0)
			size0 = (int)ty_bytes(t);
		else if (size0 != (int)ty_bytes(t))
			err(c, e->pos, "the elements of a vector operand must have one size");
	}
}

/* [image, coords] of suld/sust/sured, [image] of suq. */
static void check_surf_mem(Ck *c, const Instr *in, Opnd *o)
{
	if (o->kind != OK_MEM) {
		err(c, o->pos, in->opc == OPC_suq ? "expected [surface]" : "expected [surface, coordinates]");
		return;
	}
	if (in->opc == OPC_suq) {
		if (in->nopnd && in->opnd[0].kind == OK_SINK)
			err(c, in->opnd[0].pos, "suq cannot discard its result with '_'");
		if (o->n != 1 || o->has_off)
			err(c, o->pos, "suq takes [surface]");
		else
			check_image(c, &o->elems[0], TY_surfref, "surface");
		return;
	}
	if (o->n != 2 || o->has_off) {
		err(c, o->pos, "expected [surface, coordinates]");
		return;
	}
	check_image(c, &o->elems[0], TY_surfref, "surface");
	int g = find_mod(in, geoms, 5);
	if (g >= 0)
		check_coords(c, &o->elems[1], geom_arity[g], geoms[g], true, TY_s32);
}

/* [tex, {coords}] or [tex, sampler, {coords}] of tex/tld4; [tex] of txq. */
static void check_tex_mem(Ck *c, const Instr *in, Opnd *o)
{
	if (o->kind != OK_MEM || o->has_off) {
		err(c, o->pos, "expected [texture, ...]");
		return;
	}
	bool sampler_q = false;
	if (in->opc != OPC_tex && in->opc != OPC_tld4) {
		/* txq: [tex] or, for sampler queries, [sampler] */
		static const char *const sq[] = { "force_unnormalized_coords", "filter_mode", "addr_mode_0",
						  "addr_mode_1", "addr_mode_2" };
		sampler_q = find_mod(in, sq, 5) >= 0;
		if (o->n != 1) {
			err(c, o->pos, "expected [%s]", sampler_q ? "sampler" : "texture");
			return;
		}
		if (sampler_q && c->m->texmode_independent)
			check_image(c, &o->elems[0], TY_samplerref, "sampler");
		else
			check_image(c, &o->elems[0], TY_texref, "texture");
		return;
	}
	int want = c->m->texmode_independent ? 3 : 2;
	if ((int)o->n != want) {
		err(c, o->pos, "%s mode takes [texture, %scoordinates]",
		    c->m->texmode_independent ? "independent texture" : "unified texture",
		    c->m->texmode_independent ? "sampler, " : "");
		return;
	}
	check_image(c, &o->elems[0], TY_texref, "texture");
	if (want == 3)
		check_image(c, &o->elems[1], TY_samplerref, "sampler");
	int g = find_mod(in, geoms, (int)NELEM(geoms));
	Opnd *co = &o->elems[want - 1];
	if (g >= 0) {
		/* the coordinate type is the instruction's last type */
		int ct = -1;
		for (int i = in->nmods; i-- > 0;)
			if (isa_mod_is_type(in->mods[i])) {
				ct = in->mods[i];
				break;
			}
		int n = geom_arity[g];
		bool array = geoms[g][0] == 'a';
		if (co->kind == OK_VEC && (int)co->n == n && array) {
			/* the layer index is an integer in front of the coordinates */
			IsaOpnd s0 = { 'a', -1, TY_u32, 0, 0 };
			check_scalar(c, &s0, &co->elems[0], TY_u32, false);
			Opnd rest = *co;
			rest.elems++;
			rest.n--;
			check_coords(c, &rest, n - 1, geoms[g], false, ct >= 0 ? ct : TY_s32);
		} else {
			check_coords(c, co, n, geoms[g], false, ct >= 0 ? ct : TY_s32);
		}
	}
}

/* The dimension of a tensor copy (.1d ... .5d), 0 if none. */
static int tensor_dim(const Instr *in)
{
	static const char *const dims[] = { "1d", "2d", "3d", "4d", "5d" };     /* TDIM, TDIM3 */
	int g = find_mod(in, dims, 5);
	return g + 1;
}

/* cp.async.bulk.tensor's [tmap, {coords}] and im2col {offsets}.  As ptxas:
 * the map is a register of any width (a generic address) or a .global variable,
 * with no offset; one .b32 coordinate per dimension; N-2 .b16 offsets. */
static void check_tensor_opnd(Ck *c, const Instr *in, Opnd *o)
{
	int n = tensor_dim(in);
	if (o->kind == OK_VEC) {
		IsaOpnd s = { 'a', -1, TY_b16, 0, 0 };
		if ((int)o->n != n - 2) {
			err(c, o->pos, "im2col takes %d offset%s {...} for a .%dd copy, not %u", n - 2, n == 3 ? "" : "s",
			    n, o->n);
			return;
		}
		for (uint32_t i = 0; i < o->n; i++)
			check_scalar(c, &s, &o->elems[i], TY_b16, false);
		return;
	}
	if (o->kind != OK_MEM || o->has_off || o->n != 2 || o->elems[0].kind != OK_SYM || o->elems[0].has_off) {
		err(c, o->pos, "expected [tensor-map, {coordinates}]");
		return;
	}
	if (n < 3 && (has_mod(in, MOD_im2col) || has_mod(in, MOD_im2col_no_offs)))
		err(c, in->pos, "im2col copies have 3 to 5 dimensions, not .%dd", n);
	Opnd *m = &o->elems[0];
	int r = resolve(c, m);
	if (r == R_REG) {
		/* ptxas takes a register of any width and kind: its bits, widened */
		if (opnd_type(m) == TY_pred)
			err(c, m->pos, "the tensor map's address is not a predicate");
	} else if (r == R_VAR || r == R_PARAM) {
		if (((const Decl *)m->ref)->space != SP_GLOBAL)
			err(c, m->pos, "state space mismatch: a tensor map is named by a generic address or a .global "
			    "variable");
	} else if (r != R_NONE) {
		err(c, m->pos, "expected the tensor map's address");
	}
	Opnd *co = &o->elems[1];
	if (co->kind != OK_VEC || (int)co->n != n) {
		err(c, co->pos, "a .%dd tensor copy takes a vector of %d coordinate%s {...}", n, n, n > 1 ? "s" : "");
		return;
	}
	IsaOpnd s = { 'a', -1, TY_b32, 0, 0 };
	for (uint32_t i = 0; i < co->n; i++)
		check_scalar(c, &s, &co->elems[i], TY_b32, false);
}

/* tex and tld4: d, [texture, {sampler,} coords] {, lod | dPdx, dPdy} {, offset} {, depth}.
 * d is a vector of 4 (2 for .f16x2) registers of the result type, or
 * "{...}|p" with the residency predicate of a sparse texture. */
static void check_tex(Ck *c, Instr *in, const Match *mt)
{
	if (in->nopnd < 2) {
		err(c, in->pos, "%s takes d, [texture, coordinates] and optional operands", isa_op[in->opc].name);
		return;
	}
	Opnd *d = &in->opnd[0];
	if (d->kind == OK_PIPE) {
		IsaOpnd p = { 'p', -1, TY_pred, 0, 0 };
		check_scalar(c, &p, &d->elems[1], TY_pred, true);
		d = &d->elems[0];
	}
	int want = mt->vec ? mt->vec : 4;
	if (d->kind != OK_VEC || (int)d->n != want) {
		err(c, d->pos, "the result of %s is a vector of %d registers {...}", isa_op[in->opc].name, want);
	} else {
		IsaOpnd s = { 'd', 0, 0, 0, 0 };
		for (uint32_t i = 0; i < d->n; i++)
			check_scalar(c, &s, &d->elems[i], mt->slot[0], true);
	}
	check_tex_mem(c, in, &in->opnd[1]);
	for (int k = 2; k < in->nopnd; k++)
		resolve_all(c, &in->opnd[k]);
}

/* ---- calls -------------------------------------------------------------- */
static void check_args(Ck *c, Opnd *list, uint32_t want, const char *what, Pos at)
{
	uint32_t have = list ? list->n : 0;
	if (have != want) {
		err(c, list ? list->pos : at, "%s: expected %u, found %u", what, want, have);
	}
	for (uint32_t i = 0; list && i < list->n; i++) {
		Opnd *a = &list->elems[i];
		if (a->kind == OK_SYM)
			resolve(c, a);
		else if (a->kind != OK_INT && a->kind != OK_FLOAT)
			err(c, a->pos, "expected a parameter, register or immediate");
	}
}

/* ptxas's ABI passes no scalar predicate, .u8, .s8, .u16 or .s16 through
 * a function's formals (.b8, .b16, .f16, vectors and arrays pass): it
 * refuses them in a function that is called or whose address is taken, and
 * in a prototype a call uses.  Reported once, at the formal. */
static bool abi_narrow(const Decl *d)
{
	switch (d->type) {
	case TY_pred: case TY_u8: case TY_s8: case TY_u16: case TY_s16:
		return !d->ndim && !d->vec;
	}
	return false;
}

static void abi_formals(Ck *c, Func *f, const char *what)
{
	if (f->abi_used == 2)
		return;
	f->abi_used = 2;
	for (uint32_t i = 0; i < f->nrets + f->nparams; i++) {
		bool ret = i < f->nrets;
		const Decl *d = ret ? &f->rets[i] : &f->params[i - f->nrets];
		if (abi_narrow(d))
			err(c, d->pos, "%s predicate, 8-bit and 16-bit %s device functions is not supported: %s '%.*s' "
			    "of %s '%.*s' is .%s", ret ? "returning" : "passing", ret ? "values from" : "parameters to",
			    ret ? "return value" : "parameter", (int)d->name.n, d->name.p, what, (int)f->name.n,
			    f->name.p, ty_name(d->type));
	}
}

/* An indirect call through a .calltargets list: every function listed
 * must take the call's arguments and return values. */
static void call_targets(Ck *c, Stmt *ls, Opnd *rets, Opnd *args)
{
	uint32_t nr = rets ? rets->n : 0, na = args ? args->n : 0;
	for (uint32_t k = 0; k < ls->nlist; k++) {
		Opnd *o = &ls->list[k];
		if (o->res != R_FUNC)
			continue;
		Func *g = o->ref;
		g->abi_used = g->abi_used ? g->abi_used : 1;
		if (g->nparams != na || g->nrets != nr)
			err(c, c->in_cur->pos, "call has wrong number of parameters: '%.*s' of the .calltargets list "
			    "'%.*s' takes %u and returns %u, the call passes %u and takes %u", (int)g->name.n,
			    g->name.p, (int)ls->name.n, ls->name.p, g->nparams, g->nrets, na, nr);
	}
}

static void check_call(Ck *c, Instr *in)
{
	uint32_t i = 0;
	Opnd *rets = NULL, *args = NULL, *fn, *extra = NULL;
	if (i < in->nopnd && in->opnd[i].kind == OK_LIST)
		rets = &in->opnd[i++];
	if (i >= in->nopnd || in->opnd[i].kind != OK_SYM) {
		err(c, in->pos, "call needs a function name or a register holding its address");
		return;
	}
	fn = &in->opnd[i++];
	if (i < in->nopnd && in->opnd[i].kind == OK_LIST)
		args = &in->opnd[i++];
	if (i < in->nopnd)
		extra = &in->opnd[i++];
	if (i < in->nopnd) {
		err(c, in->opnd[i].pos, "too many operands to call");
		return;
	}
	int r = resolve(c, fn);
	Func *f = NULL;
	if (r == R_FUNC) {
		f = fn->ref;
		if (f->entry) {
			err(c, fn->pos, "'%.*s' is a kernel; kernels cannot be called", (int)fn->name.n, fn->name.p);
			return;
		}
		if (extra)
			err(c, extra->pos, "a direct call takes no prototype");
		need_definition(c, fn, false);
	} else if (r == R_REG) {
		if (!extra) {
			err(c, fn->pos, "an indirect call needs a .callprototype or .calltargets label");
		} else if (extra->kind != OK_SYM || resolve(c, extra) != R_LABEL) {
			err(c, extra->pos, "expected a .callprototype or .calltargets label");
		} else {
			Sym *s = tab_find(&c->labels, extra->name);
			if (s && s->kind == SY_PROTO) {
				f = ((Stmt *)s->val)->proto;
				abi_formals(c, f, "the prototype");
			} else if (s && s->kind == SY_TARGETS) {
				call_targets(c, s->val, rets, args);
			} else {
				err(c, extra->pos, "'%.*s' is not a .callprototype or .calltargets label",
				    (int)extra->name.n, extra->name.p);
			}
		}
	} else if (r != R_NONE) {
		err(c, fn->pos, "'%.*s' is not a function", (int)fn->name.n, fn->name.p);
		return;
	}
	if (!f) {
		if (rets)
			check_args(c, rets, rets->n, "return values", in->pos);
		if (args)
			check_args(c, args, args->n, "arguments", in->pos);
		return;
	}
	check_args(c, rets, f->nrets, "return values", fn->pos);
	check_args(c, args, f->nparams, "arguments", fn->pos);
}

/* A matrix fragment: a brace vector of exactly n registers of ty's size
 * (ptxas: "Vector of size n is expected"), all of one type; src_kind 'a'
 * also allows immediates in a source. */
static void check_frag(Ck *c, Opnd *o, unsigned n, int ty, bool dest, char src_kind)
{
	if (o->kind != OK_VEC) {
		err(c, o->pos, "expected a vector of %u .%s registers {...}", n, ty_name(ty));
		return;
	}
	if (o->n != n) {
		err(c, o->pos, "expected a vector of %u elements, found %u", n, o->n);
		return;
	}
	int first = -1;
	for (uint32_t e = 0, n0 = errors(c); e < n && errors(c) == n0; e++) {
		Opnd *x = &o->elems[e];
		check_scalar(c, &(IsaOpnd){ dest ? 'd' : src_kind, -1, (uint8_t)ty, 0, 0 }, x, ty, dest);
		int t = x->kind == OK_SYM && x->res == R_REG ? opnd_type(x) : -1;
		if (t >= 0 && first >= 0 && t != first && errors(c) == n0)
			err(c, x->pos, "the elements of a fragment must have one type: '%.*s' is .%s, the first .%s",
			    (int)x->name.n, x->name.p, ty_name(t), ty_name(first));
		if (first < 0)
			first = t;
	}
}

/* wgmma's d, or a from registers: a vector of 32-bit registers, each of a
 * type ptxas takes (not one type for all, as mma's): .b32 or the type of
 * the elements (d .f32, .f16x2; a .f16x2), integers .b32 .u32 .s32 (a
 * also .f32 and .f16x2). */
static void check_wgmma_frag(Ck *c, Opnd *o, const MmaShape *s, int op)
{
	unsigned bits, n = mma_regs(s, op, &bits);
	int t = s->type[op];
	bool in = t == MT_S32 || t == MT_S8 || t == MT_U8 || t == MT_B1;
	const char *takes = in ? (op == MMA_A ? ".b32, .u32, .s32, .f32 or .f16x2" : ".b32, .u32 or .s32")
			  : op == MMA_A || t == MT_F16 ? ".b32 or .f16x2" : ".b32 or .f32";
	if (o->kind != OK_VEC) {
		err(c, o->pos, "expected a vector of %u 32-bit registers {...}", n);
		return;
	}
	if (o->n != n) {
		err(c, o->pos, "expected a vector of %u elements, found %u", n, o->n);
		return;
	}
	for (uint32_t e = 0; e < n; e++) {
		Opnd *x = &o->elems[e];
		if (x->kind != OK_SYM || resolve(c, x) != R_REG) {
			if (x->kind != OK_SYM || x->res != R_NONE)
				err(c, x->pos, "expected a register");
			return;
		}
		int rt = opnd_type(x);
		bool ok = rt == TY_b32 || (in ? rt == TY_u32 || rt == TY_s32 || (op == MMA_A && (rt == TY_f32 || rt == TY_f16x2))
				       : rt == (op == MMA_A || t == MT_F16 ? TY_f16x2 : TY_f32));
		if (!ok) {
			err(c, x->pos, "'%.*s' is .%s: this fragment takes %s registers", (int)x->name.n, x->name.p,
			    rt < 0 ? "?" : ty_name((unsigned)rt), takes);
			return;
		}
	}
}

/* The fragments of mma (d, a, b, c) and wmma (those, or a load's or a
 * store's one): their length and register width come from the shape and
 * types (src/isa/mma.c); an mma's c may hold immediates. */
static void check_mma(Ck *c, const Instr *in, Opnd *o, int k)
{
	MmaShape s;
	bool w = in->opc == OPC_wmma;
	if (in->opc == OPC_wgmma) {     /* d, or a from registers */
		if (wgmma_decode(in->mods, in->nmods, &s))
			check_wgmma_frag(c, o, &s, k ? MMA_A : MMA_D);
		return;
	}
	if (!(w ? wmma_decode(in->mods, in->nmods, &s) : mma_decode(in->mods, in->nmods, &s)))
		return;         /* the form did not match: already reported */
	static const int which[4] = { MMA_D, MMA_A, MMA_B, MMA_C };
	int op = w && s.what != WM_MMA ? wmma_operand(&s) : which[k];
	unsigned bits, n = mma_regs(&s, op, &bits);
	bool dest = k == 0 && !(w && s.what == WM_STORE_D);     /* a load's fragment, or D */
	check_frag(c, o, n, bits == 64 ? TY_b64 : TY_b32, dest, op == MMA_C && !dest && k == 3 ? 'a' : 'r');
	/* the layouts are A's then B's: all but m8n8k4 .f16 are .row.col */
	if (k == 0 && !w && mma_groups(&s) == 1 && (s.acol || s.brow))
		err(c, in->pos, "mma takes its layouts in the order .row.col (A row-major, B column-major)");
	/* mma.sp's sparsity selector: the range ptxas takes for the shape */
	const Opnd *f = in->nopnd == 6 ? &in->opnd[5] : NULL;
	if (k == 0 && s.sp && f && f->kind == OK_INT && f->ival > mma_sp_selmax(&s))
		err(c, f->pos, "sparsity selector %lld out of range: expected 0 to %u for this shape and type",
		    (long long)f->ival, mma_sp_selmax(&s));
}

/* mov's pack and unpack: {a, b} or {a, b, c, d} whose pieces together
 * are the width of the type, the first piece the low bits. */
static void check_pack(Ck *c, Opnd *o, int type, bool dest)
{
	if (o->kind != OK_VEC || (o->n != 2 && o->n != 4)) {
		shape_err(c, o->pos, "expected a vector {...} of 2 or 4 pieces to %s", dest ? "unpack into" : "pack");
		return;
	}
	unsigned piece = ty_bytes((unsigned)type) / o->n;
	if (piece < 1) {
		err(c, o->pos, ".%s cannot be split into %u pieces", ty_name((unsigned)type), o->n);
		return;
	}
	for (uint32_t i = 0; i < o->n; i++) {
		Opnd *e = &o->elems[i];
		if (e->kind == OK_SINK && dest)
			continue;
		if (e->kind == OK_INT && !dest)
			continue;
		if (e->kind != OK_SYM) {
			err(c, e->pos, "expected a register");
			return;
		}
		int r = resolve(c, e);
		if (r == R_NONE)
			continue;
		int t = opnd_type(e);
		if (r != R_REG || t < 0 || t == TY_pred || ty_bytes((unsigned)t) != piece) {
			err(c, e->pos, "each piece of a .%s split in %u is %u bits; '%.*s' is not", ty_name((unsigned)type),
			    o->n, piece * 8, (int)e->name.n, e->name.p);
			return;
		}
	}
}

/* ---- instructions ------------------------------------------------------- */
/* Operands of a matched form; returns the number of errors. */
static int check_opnds(Ck *c, Instr *in, const Match *mt)
{
	const IsaForm *f = &isa_form[mt->form];
	int before = c->quiet ? c->qerr : (int)c->d->nerrors;
	int min = 0;
	for (int k = 0; k < f->nopnd; k++)
		if (!f->opnd[k].optional)
			min = k + 1;
	if (f->anyopnds) {
		if (in->opc == OPC_call)
			check_call(c, in);
		else if (in->opc == OPC_tex || in->opc == OPC_tld4)
			check_tex(c, in, mt);
		else
			for (int k = 0; k < in->nopnd; k++)
				resolve_all(c, &in->opnd[k]);
		goto done;
	}
	if (in->nopnd < min || in->nopnd > f->nopnd) {
		if (min == f->nopnd)
			err(c, in->pos, "%s takes %d operand%s, found %u", isa_op[in->opc].name, min, min == 1 ? "" : "s", in->nopnd);
		else
			err(c, in->pos, "%s takes %d to %d operands, found %u", isa_op[in->opc].name, min, f->nopnd, in->nopnd);
		goto done;
	}
	int nmem = 0;
	for (int k = 0; k < in->nopnd; k++) {
		const IsaOpnd *s = &f->opnd[k];
		Opnd *o = &in->opnd[k];
		int want = s->slot >= 0 ? mt->slot[s->slot] : s->slot == -1 ? s->type : -1;
		bool dest = s->kind == 'd' || s->kind == 'p' || s->kind == 'P';
		switch (s->kind) {
		case 'm':
			check_mem(c, in, o, nmem++);
			break;
		case 'l':
			if (o->kind != OK_SYM)
				err(c, o->pos, "expected a label");
			else if (resolve(c, o) != R_LABEL && o->res != R_NONE)
				err(c, o->pos, "'%.*s' is not a label", (int)o->name.n, o->name.p);
			break;
		case 'f':
			if (o->kind != OK_SYM)
				err(c, o->pos, "expected a function name");
			else if (resolve(c, o) != R_FUNC && o->res != R_NONE)
				err(c, o->pos, "'%.*s' is not a function", (int)o->name.n, o->name.p);
			break;
		case 'i':
			if (o->kind != OK_INT)
				err(c, o->pos, "expected an integer constant");
			break;
		case '*':
			if (in->opc == OPC_suld || in->opc == OPC_sust || in->opc == OPC_sured || in->opc == OPC_suq)
				check_surf_mem(c, in, o);
			else if (o->kind == OK_MEM && (in->opc == OPC_tex || in->opc == OPC_tld4 ||
						       in->opc == OPC_txq))
				check_tex_mem(c, in, o);
			else if (in->opc == OPC_mma || in->opc == OPC_wmma || in->opc == OPC_wgmma)
				check_mma(c, in, o, k);
			else if (in->opc == OPC_ldmatrix || in->opc == OPC_stmatrix)
				check_frag(c, o, has_mod(in, MOD_x4) ? 4 : has_mod(in, MOD_x2) ? 2 : 1, TY_b32,
					   in->opc == OPC_ldmatrix, 'r');
			else if (in->opc == OPC_mov)
				check_pack(c, o, want >= 0 ? want : mt->slot[0], k == 0);
			else if (in->opc == OPC_isspacep)
				check_scalar(c, &(IsaOpnd){ 'a', -1, TY_u64, 0, 0 }, o, TY_u64, false);
			else if (in->opc == OPC_cp)     /* [tmap, {coords}] is the copy's global operand */
				check_tensor_opnd(c, in, o), nmem += o->kind == OK_MEM;
			else if (in->opc == OPC_vmad)     /* {-}a{.asel}, {-}b{.bsel}, {-}c */
				check_scalar(c, &(IsaOpnd){ 'a', -2, 0, 0, 0 }, o, mt->slot[k < 3 ? k : 0], false);
			else
				resolve_all(c, o);
			break;
		case 'P':
			if (o->kind == OK_PIPE) {
				check_scalar(c, s, &o->elems[0], TY_pred, true);
				check_scalar(c, s, &o->elems[1], TY_pred, true);
				break;
			}
			/* fall through */
		default:
			if ((in->opc == OPC_suld || in->opc == OPC_sust || in->opc == OPC_sured) &&
			    (s->kind == 'd' || s->kind == 'a' || s->kind == 'r')) {
				check_surf_data(c, in, o, want, mt->vec, dest);
				break;
			}
			if (mt->vec && f->vecmods && s->slot >= 0 && (s->kind == 'd' || s->kind == 'a' || s->kind == 'r')) {
				if (o->kind != OK_VEC) {
					shape_err(c, o->pos, "a .v%d instruction takes a vector operand {...} of %d elements", mt->vec, mt->vec);
					break;
				}
				if ((int)o->n != mt->vec) {
					err(c, o->pos, "expected a vector of %d elements, found %u", mt->vec, o->n);
					break;
				}
				for (uint32_t e = 0, n0 = errors(c); e < o->n && errors(c) == n0; e++)
					check_scalar(c, s, &o->elems[e], want, dest);
				break;
			}
			if (o->kind == OK_VEC) {
				shape_err(c, o->pos, "unexpected vector operand");
				break;
			}
			check_scalar(c, s, o, want, dest);
		}
	}
done:
	return (c->quiet ? c->qerr : (int)c->d->nerrors) - before;
}

/* The gate of an instruction under a form: the row's, raised by the
 * modifiers that carry their own (modgates.def). */
static void gates(const Instr *in, const Match *mt, uint8_t *ptx, uint8_t *sm)
{
	*ptx = isa_form[mt->form].ptx;
	*sm = isa_form[mt->form].sm;
	isa_mod_gates(in->mods, in->nmods, ptx, sm);
}

/* Whether the module meets a form's gates; an arch-specific form (SMA)
 * needs exactly its target, sm_90a. */
static bool gates_met(Ck *c, const Instr *in, const Match *mt)
{
	uint8_t gp, gs;
	gates(in, mt, &gp, &gs);
	if (isa_form[mt->form].arch)
		return c->m->ptx >= gp && c->m->sm == gs && c->m->sm_suffix == isa_form[mt->form].arch;
	return c->m->ptx >= gp && c->m->sm >= gs;
}

/* "ld.shared::cluster.u32": the instruction as written, for messages. */
static void instr_name(const Instr *in, char *buf, size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "%s", isa_op[in->opc].name);
	for (int i = 0; i < in->nmods && len + 2 < n; i++)
		len += (size_t)snprintf(buf + len, n - len, ".%s", isa_mod_name[in->mods[i]]);
}

/* ---- video operands ------------------------------------------------------ */
enum { VID_NONE, VID_SCALAR, VID_SIMD2, VID_SIMD4 };

static int video_kind(unsigned opc)
{
	switch (opc) {
	case OPC_vadd: case OPC_vsub: case OPC_vabsdiff: case OPC_vmin: case OPC_vmax: case OPC_vshl:
	case OPC_vshr: case OPC_vmad: case OPC_vset:
		return VID_SCALAR;
	case OPC_vadd2: case OPC_vsub2: case OPC_vavrg2: case OPC_vabsdiff2: case OPC_vmin2: case OPC_vmax2:
	case OPC_vset2:
		return VID_SIMD2;
	case OPC_vadd4: case OPC_vsub4: case OPC_vavrg4: case OPC_vabsdiff4: case OPC_vmin4: case OPC_vmax4:
	case OPC_vset4:
		return VID_SIMD4;
	}
	return VID_NONE;
}

/* '-' and byte/half selectors anywhere in a non-video operand */
static void no_video_marks(Ck *c, const Opnd *o)
{
	if (o->selk)
		err(c, o->pos, "'.%c...' selects a byte or half-word of a video instruction's operand", o->selk);
	else if (o->minus)
		err(c, o->pos, "'-' before a register negates a source of vmad only; write an immediate or use neg");
	for (uint32_t i = 0; i < o->n; i++)
		no_video_marks(c, &o->elems[i]);
}

/* Whether selector digits d (n of them, as written) are each at most max,
 * and, with desc, strictly decreasing. */
static bool sel_digits(const Opnd *o, unsigned n_min, unsigned n_max, unsigned max, bool desc)
{
	if (o->seln < n_min || o->seln > n_max)
		return false;
	for (unsigned i = 0; i < o->seln; i++) {
		unsigned d = o->seld >> (4 * i) & 15, above = o->seld >> (4 * (i + 1)) & 15;
		if (d > max || (desc && i + 1 < o->seln && above <= d))
			return false;
	}
	return true;
}

/* ptxas's rules for video operands: scalar a and b take .b0-.b3, .h0,
 * .h1, and d too in the merge form (four operands, no secondary
 * operation); SIMD d takes a mask (.h0 .h1 .h10; .b0 ... .b3210 with
 * decreasing digits), a and b lane selectors (.hxy of halves 0-3, .bxyzw
 * of bytes 0-7); c never; vmad negates (a xor b) or c, not with .po. */
static void check_video(Ck *c, const Instr *in)
{
	int vk = video_kind(in->opc);
	if (!vk) {
		for (int k = 0; k < in->nopnd; k++)
			no_video_marks(c, &in->opnd[k]);
		return;
	}
	static const char *const op2[] = { "add", "min", "max" };
	bool merge = in->nopnd == 4 && find_mod(in, op2, 3) < 0 && in->opc != OPC_vmad;
	bool neg[4] = { false, false, false, false };
	for (int k = 0; k < in->nopnd && k < 4; k++) {
		const Opnd *o = &in->opnd[k];
		if (o->kind != OK_SYM)
			continue;
		if (o->comp) {
			err(c, o->pos, "unknown video selector '.%c'", "xyzw"[o->comp - 1]);
			continue;
		}
		neg[k] = o->minus;
		if (o->minus && (in->opc != OPC_vmad || k == 0))
			err(c, o->pos, "'-' negates a source of vmad only");
		if (!o->selk)
			continue;
		bool ok;
		if (k == 3)
			ok = false;
		else if (vk == VID_SCALAR)
			ok = (k > 0 || merge) && o->seln == 1 && (o->selk == 'b' ? o->seld <= 3 : o->seld <= 1);
		else if (vk == VID_SIMD2)
			ok = o->selk == 'h' && (k == 0 ? (o->seln == 1 && o->seld <= 1) || (o->seln == 2 && o->seld == 0x10)
					    : sel_digits(o, 2, 2, 3, false));
		else
			ok = o->selk == 'b' && (k == 0 ? sel_digits(o, 1, 4, 3, true) : sel_digits(o, 4, 4, 7, false));
		if (!ok)
			err(c, o->pos, "'.%c%0*x' is not a selector %s of %s", o->selk, o->seln > 8 ? 8 : o->seln, o->seld,
			    k == 0 ? "for the destination" : k == 3 ? "for c (it takes none)" : "for this source",
			    isa_op[in->opc].name);
	}
	static const char *const po[] = { "po" };
	if (in->opc == OPC_vmad && (neg[1] || neg[2] || neg[3]) && find_mod(in, po, 1) >= 0)
		err(c, in->pos, "vmad.po does not negate its sources");
	else if (in->opc == OPC_vmad && (neg[1] != neg[2]) && neg[3])
		err(c, in->pos, "vmad negates either the product (a xor b) or c, not both");
}

/* Limits a row's gates cannot express. */
static void check_rules(Ck *c, const Instr *in, const Match *mt)
{
	/* wgmma.mma_async's immediates after scale-d: imm-scale-a, imm-scale-b
	 * (1 or -1), then imm-trans-a, imm-trans-b (0 or 1); setmaxnreg's
	 * register count: 24 to 256, a multiple of 8 */
	if (in->opc == OPC_wgmma && has_mod(in, MOD_mma_async)) {
		/* .sp: sp-meta and sp-sel come before scale-d */
		MmaShape s;
		int sp = has_mod(in, MOD_sp) ? 2 : 0;
		const Opnd *sel = sp && in->nopnd > 4 ? &in->opnd[4] : NULL;
		if (sel && sel->kind == OK_INT && wgmma_decode(in->mods, in->nmods, &s) &&
		    sel->ival > mma_sp_selmax(&s))
			err(c, sel->pos, "sp-sel must be %s for this type", mma_sp_selmax(&s) ? "0 or 1" : "0");
		for (int k = 4 + sp, areg = in->nopnd > 1 && in->opnd[1].kind == OK_VEC; k < in->nopnd; k++) {
			const Opnd *o = &in->opnd[k];
			int64_t v = (int64_t)o->ival;
			if (o->kind != OK_INT)
				continue;
			if (k < 6 + sp && v != 1 && v != -1)
				err(c, o->pos, "imm-scale-%c must be 1 or -1", k == 4 + sp ? 'a' : 'b');
			else if (k >= 6 + sp && v != 0 && v != 1)
				err(c, o->pos, "imm-trans-%c must be 0 or 1", k == 6 + sp && !areg ? 'a' : 'b');
		}
	}
	if (in->opc == OPC_wgmma && has_mod(in, MOD_wait_group) && in->nopnd == 1 && in->opnd[0].kind == OK_INT &&
	    (int64_t)in->opnd[0].ival < 0)
		err(c, in->opnd[0].pos, "wgmma.wait_group takes a count of pending groups, not negative");
	/* tensormap.replace: the field's range (ptxas's), the dimension ordinal 0..4 (global_stride's too:
	 * ptxas takes 4); element types 13-15 (sm_100's packed types) from PTX ISA 8.7 */
	if (in->opc == OPC_tensormap && in->nopnd >= 2 && in->opnd[1].kind == OK_INT) {
		static const struct { unsigned mod; int64_t max; } lim[] = {
			{ MOD_elemtype, 15 }, { MOD_interleave_layout, 2 }, { MOD_swizzle_mode, 3 }, { MOD_fill_mode, 1 },
			{ MOD_box_dim, 4 }, { MOD_global_dim, 4 }, { MOD_element_stride, 4 }, { MOD_global_stride, 4 },
		};
		int64_t v = (int64_t)in->opnd[1].ival;
		for (size_t i = 0; i < NELEM(lim); i++)
			if (has_mod(in, lim[i].mod) && (v < 0 || v > lim[i].max))
				err(c, in->opnd[1].pos, "tensormap.replace.%s takes a value from 0 to %d here",
				    isa_mod_name[lim[i].mod], (int)lim[i].max);
		if (has_mod(in, MOD_elemtype) && v >= 13 && v <= 15 && c->m->ptx < 87)
			err(c, in->opnd[1].pos, "tensormap.replace.elemtype %d (a packed type) requires PTX ISA 8.7",
			    (int)v);
	}
	if (in->opc == OPC_tensormap && has_mod(in, MOD_cp_fenceproxy) && in->nopnd == 3 &&
	    in->opnd[2].kind == OK_INT && in->opnd[2].ival != 128)
		err(c, in->opnd[2].pos, "tensormap.cp_fenceproxy copies a tensor map: its size is 128");
	if (in->opc == OPC_setmaxnreg && in->nopnd == 1 && in->opnd[0].kind == OK_INT &&
	    (in->opnd[0].ival < 24 || in->opnd[0].ival > 256 || in->opnd[0].ival % 8))
		err(c, in->opnd[0].pos, "setmaxnreg takes a register count from 24 to 256, a multiple of 8");
	static const char *const sync[] = { "sync" };
	if ((in->opc == OPC_vote || in->opc == OPC_shfl) && find_mod(in, sync, 1) < 0 &&
	    c->m->sm >= 70 && c->m->ptx >= 64)
		err(c, in->pos, "%s without .sync is not supported on sm_70 and later from PTX ISA 6.4: use %s.sync",
		    isa_op[in->opc].name, isa_op[in->opc].name);
	static const char *const u32[] = { "u32" };
	if (in->opc == OPC_cvta && c->m->address_size == 64 && find_mod(in, u32, 1) >= 0)
		err(c, in->pos, "cvta.u32 is 32-bit addressing, which sm_90 and later do not support: use cvta.u64");
	static const int simd[] = { OPC_vadd2, OPC_vsub2, OPC_vavrg2, OPC_vabsdiff2, OPC_vmin2, OPC_vmax2, OPC_vset2,
				    OPC_vadd4, OPC_vsub4, OPC_vavrg4, OPC_vabsdiff4, OPC_vmin4, OPC_vmax4, OPC_vset4 };
	for (size_t i = 0; i < NELEM(simd); i++)
		if (in->opc == simd[i])
			for (int k = 0; k < in->nopnd; k++)
				if (in->opnd[k].kind == OK_INT)
					err(c, in->opnd[k].pos, "SIMD video instructions take registers, not immediates");
	static const char *const sat[] = { "sat" };
	const IsaForm *f = &isa_form[mt->form];
	/* ops.def's convention: in a form that offers {.L2::cache_hint}, the
	 * optional .b64 operand is the cache policy, there exactly with it */
	const IsaOpnd *last = f->nopnd ? &f->opnd[f->nopnd - 1] : NULL;
	if (last && last->optional && last->slot == -1 && last->type == TY_b64) {
		bool offers = false;
		for (int e = 0; e < f->nelem; e++)
			offers |= isa_set_has(f->elem[e].set, MOD_L2_cache_hint);
		bool hint = has_mod(in, MOD_L2_cache_hint);
		if (offers && hint && in->nopnd < f->nopnd)
			err(c, in->pos, ".L2::cache_hint needs the cache-policy operand (.b64) last");
		else if (offers && !hint && in->nopnd == f->nopnd)
			err(c, in->opnd[in->nopnd - 1].pos, "a cache-policy operand goes with .L2::cache_hint");
	}
	/* cp.async.bulk's size, when an immediate, is a multiple of 16 */
	static const char *const bulk[] = { "bulk" };
	if (in->opc == OPC_cp && find_mod(in, bulk, 1) >= 0) {
		int k = has_mod(in, MOD_prefetch) ? 1 : 2;
		if (in->nopnd > k && in->opnd[k].kind == OK_INT && in->opnd[k].ival % 16)
			err(c, in->opnd[k].pos, "the size of a bulk copy is a multiple of 16 bytes");
	}
	if (in->opc == OPC_cvt && f->nslot == 2 && find_mod(in, sat, 1) >= 0 && is_int_type(mt->slot[0]) &&
	    is_int_type(mt->slot[1])) {
		/* ptxas rejects .sat where the source's range fits the destination's */
		unsigned d = mt->slot[0], s = mt->slot[1];
		bool ds = isa_type[d].kind == TK_S, ss = isa_type[s].kind == TK_S;
		unsigned db = isa_type[d].bytes, sb = isa_type[s].bytes;
		if (d == s)
			err(c, in->pos, "cvt.sat between identical integer types is not allowed");
		else if ((ds == ss && db >= sb) || (ds && !ss && db > sb))
			err(c, in->pos, "cvt.sat.%s.%s cannot saturate: every %s value fits in %s",
			    isa_type[d].name, isa_type[s].name, isa_type[s].name, isa_type[d].name);
	}
}

static void check_instr(Ck *c, Instr *in)
{
	const IsaOp *op = &isa_op[in->opc];
	c->in_cur = in;
	if (in->guard) {
		IsaOpnd q = { 'q', -1, TY_pred, 0, 0 };
		check_scalar(c, &q, in->guard, TY_pred, false);
	}
	Match cand[64];
	int ncand = 0, best = -1, best_missing = -1, best_form = -1, best_score = -1;
	for (int k = 0; k < op->nform; k++) {
		Match mt = { .form = op->first + k };
		const IsaForm *g = &isa_form[mt.form];
		if (g->gone_ptx && c->m->ptx >= g->gone_ptx && c->m->sm >= g->gone_sm)
			continue;       /* a form this target no longer has (GONE) */
		int missing, score;
		int bad = match_mods(&isa_form[mt.form], in, &mt, &missing, &score);
		if (bad < 0) {
			mt.vec = vec_of(in);
			if (ncand < (int)NELEM(cand))
				cand[ncand++] = mt;
		} else if (score >= best_score) {       /* on a tie the later, more general row */
			best = bad;
			best_score = score;
			best_missing = missing;
			best_form = mt.form;
		}
	}
	if (!ncand) {
		if (best < in->nmods && best >= 0) {
			unsigned m = in->mods[best];
			bool anywhere = false;
			for (int k = 0; k < op->nform && !anywhere; k++)
				for (int e = 0; e < isa_form[op->first + k].nelem; e++)
					anywhere |= isa_set_has(isa_form[op->first + k].elem[e].set, m);
			if (!anywhere)
				err(c, in->modpos[best], "'.%s' is not a modifier of %s", isa_mod_name[m], op->name);
			else
				err(c, in->modpos[best], "'.%s' is not valid here in %s (expected form: %s%s)",
				    isa_mod_name[m], op->name, op->name, isa_form[best_form].text);
		} else if (best_form >= 0 && best_missing >= 0) {
			char set[256];
			isa_elem_words(&isa_form[best_form], &isa_form[best_form].elem[best_missing], set, sizeof set);
			Pos p = in->nmods ? in->modpos[in->nmods - 1] : in->pos;
			if (in->nmods)
				p.col += (uint32_t)strlen(isa_mod_name[in->mods[in->nmods - 1]]) + 1;
			err(c, p, "%s needs a modifier here: one of %s", op->name, set);
		} else {
			err(c, in->pos, "invalid modifiers for %s", op->name);
		}
		for (int k = 0; k < in->nopnd; k++)
			if (in->opc != OPC_call)
				resolve_all(c, &in->opnd[k]);
		return;
	}
	/* Several forms may fit the modifiers (e.g. mov's scalar and packing
	 * forms): take the first whose gates and operands pass; failing that,
	 * report the first one's errors. */
	bool was_quiet = c->quiet;
	int chosen = -1, gate_fail = -1, closest = 0, closest_err = -1;
	c->quiet = true;
	for (int k = 0; k < ncand && ncand > 1; k++) {
		c->qerr = 0;
		check_opnds(c, in, &cand[k]);
		if (c->qerr) {
			if (closest_err < 0 || c->qerr < closest_err) {
				closest_err = c->qerr;
				closest = k;
			}
			continue;
		}
		if (gates_met(c, in, &cand[k])) {
			chosen = k;
			break;
		}
		if (gate_fail < 0)
			gate_fail = k;
	}
	c->quiet = was_quiet;
	if (ncand > 1)
		for (int k = 0; k < in->nopnd; k++)
			unresolve(&in->opnd[k]);
	if (ncand == 1) {
		if (!gates_met(c, in, &cand[0]))
			gate_fail = 0;
		else
			chosen = 0;
	}
	int pick = chosen >= 0 ? chosen : gate_fail >= 0 ? gate_fail : closest;
	const IsaForm *f = &isa_form[cand[pick].form];
	in->form = (uint16_t)cand[pick].form;
	if (cand[pick].vec && f->nslot) {
		unsigned t = cand[pick].slot[0];
		if (cand[pick].vec * ty_bytes(t) > 16)
			err(c, in->pos, ".v%d.%s is %u bits: vector accesses are at most 128 bits", cand[pick].vec,
			    ty_name(t), cand[pick].vec * ty_bytes(t) * 8);
	}
	check_opnds(c, in, &cand[pick]);
	check_rules(c, in, &cand[pick]);
	check_video(c, in);
	if (chosen < 0 && gate_fail >= 0) {
		char what[160];
		uint8_t gp, gs;
		gates(in, &cand[pick], &gp, &gs);
		instr_name(in, what, sizeof what);
		if (!need_ptx(c, in->pos, gp, what))
			;
		else if (f->arch)
			err(c, in->pos, "%s requires the target sm_%u%c (this module targets sm_%u%s)", what, gs, f->arch,
			    c->m->sm, c->m->sm_suffix == 'a' ? "a" : c->m->sm_suffix == 'f' ? "f" : "");
		else
			need_sm(c, in->pos, gs, what);
	}
}

/* ---- functions ---------------------------------------------------------- */
static void check_perf(Ck *c, Func *f)
{
	for (uint32_t i = 0; i < f->nperf; i++) {
		PerfDir *p = &f->perf[i];
		const char *n = perf_name[p->kind];
		char what[48];
		snprintf(what, sizeof what, ".%s", n);
		switch (p->kind) {
		case PD_MAXNTID:
		case PD_REQNTID:
		case PD_REQNCTAPERCLUSTER:
			if (!f->entry)
				err(c, p->pos, ".%s applies only to kernels (.entry)", n);
			for (int k = 0; k < p->n; k++)
				if (p->v[k] == 0)
					err(c, p->pos, ".%s values must be positive", n);
			if (p->kind == PD_REQNCTAPERCLUSTER && need_ptx(c, p->pos, 78, what))
				need_sm(c, p->pos, 90, what);
			if (p->kind == PD_REQNTID)
				need_ptx(c, p->pos, 21, what);
			break;
		case PD_MINNCTAPERSM:
		case PD_MAXNCTAPERSM:
			if (!f->entry)
				err(c, p->pos, ".%s applies only to kernels (.entry)", n);
			if (p->n != 1)
				err(c, p->pos, ".%s takes one value", n);
			need_ptx(c, p->pos, 20, what);
			break;
		case PD_MAXNREG:
			if (p->n != 1)
				err(c, p->pos, ".maxnreg takes one value");
			need_ptx(c, p->pos, 13, what);
			break;
		case PD_NORETURN:
			if (f->entry)
				err(c, p->pos, ".noreturn applies only to functions (.func)");
			need_ptx(c, p->pos, 64, what);
			break;
		case PD_EXPLICITCLUSTER:
		case PD_MAXCLUSTERRANK:
		case PD_BLOCKSARECLUSTERS:
			if (!f->entry)
				err(c, p->pos, ".%s applies only to kernels (.entry)", n);
			if (need_ptx(c, p->pos, p->kind == PD_BLOCKSARECLUSTERS ? 90 : 78, what))
				need_sm(c, p->pos, 90, what);
			break;
		case PD_PRAGMA:
			break;
		}
	}
}

static void check_params(Ck *c, Func *f, bool declare)
{
	for (uint32_t i = 0; i < f->nrets; i++) {
		check_decl(c, &f->rets[i], f->proto ? SC_PROTO : SC_FUNC_RET);
		if (declare)
			declare_local(c, &f->rets[i]);
	}
	if (f->entry && f->nrets)
		err(c, f->pos, "kernels (.entry) have no return parameters");
	for (uint32_t i = 0; i < f->nparams; i++) {
		check_decl(c, &f->params[i], f->proto ? SC_PROTO : f->entry ? SC_ENTRY_PARAM : SC_FUNC_PARAM);
		if (declare)
			declare_local(c, &f->params[i]);
	}
}

/* Functions an instruction names (called, or its address taken). */
static void mark_funcs(Opnd *o)
{
	if (o->kind == OK_SYM && o->res == R_FUNC && !((Func *)o->ref)->abi_used)
		((Func *)o->ref)->abi_used = 1;
	for (uint32_t i = 0; i < o->n; i++)
		mark_funcs(&o->elems[i]);
}

static void check_body(Ck *c, Func *f)
{
	tab_clear(&c->fn);
	tab_clear(&c->labels);
	tab_clear(&c->ranges);
	c->nblk = 0;
	c->depth = 0;
	c->fn_cur = f;
	check_params(c, f, true);
	/* Labels are visible in the whole function: collect them first. */
	for (uint32_t i = 0; i < f->nbody; i++) {
		Stmt *s = &f->body[i];
		uint8_t kind = s->kind == ST_LABEL ? SY_LABEL : s->kind == ST_PROTO ? SY_PROTO
			       : s->kind == ST_TARGETS ? SY_TARGETS : 0;
		if (kind && tab_put(&c->labels, s->name, kind, s))
			err(c, s->pos, "label '%.*s' is already defined", (int)s->name.n, s->name.p);
	}
	for (uint32_t i = 0; i < f->nbody; i++) {
		Stmt *s = &f->body[i];
		switch (s->kind) {
		case ST_OPEN:
			c->depth++;
			break;
		case ST_CLOSE:
			while (c->nblk && c->blk[c->nblk - 1].depth == c->depth)
				c->nblk--;
			c->depth--;
			break;
		case ST_DECL:
			check_decl(c, s->decl, SC_BODY);
			declare_local(c, s->decl);
			break;
		case ST_INSTR:
			check_instr(c, s->in);
			for (uint32_t k = 0; k < s->in->nopnd; k++)
				mark_funcs(&s->in->opnd[k]);
			break;
		case ST_PROTO:
			check_params(c, s->proto, false);
			break;
		case ST_TARGETS:
			need_ptx(c, s->pos, s->tkind == 'b' ? 21 : 21, s->tkind == 'b' ? ".branchtargets" : ".calltargets");
			for (uint32_t k = 0; k < s->nlist; k++) {
				Opnd *o = &s->list[k];
				int r = resolve(c, o);
				if (s->tkind == 'b' && r != R_LABEL && r != R_NONE)
					err(c, o->pos, "'%.*s' is not a label", (int)o->name.n, o->name.p);
				if (s->tkind == 'c' && r != R_FUNC && r != R_NONE)
					err(c, o->pos, "'%.*s' is not a function", (int)o->name.n, o->name.p);
			}
			break;
		default:
			break;
		}
	}
}

static const char *linkage_word(unsigned l)
{
	return l & L_EXTERN ? ".extern" : l & L_VISIBLE ? ".visible" : l & L_WEAK ? ".weak" : "without a linkage";
}

/* Two declarations of one function must agree; the later may add a body. */
static void declare_func(Ck *c, Func *f)
{
	Sym *s = tab_put(&c->glob, f->name, SY_FUNC, f);
	if (!s)
		return;
	if (s->kind != SY_FUNC) {
		err(c, f->pos, "'%.*s' is already declared as a variable", (int)f->name.n, f->name.p);
		return;
	}
	Func *g = s->val;
	if (g->has_body && f->has_body) {
		err(c, f->pos, "function '%.*s' is defined twice", (int)f->name.n, f->name.p);
		return;
	}
	if (g->entry != f->entry || g->nparams != f->nparams || g->nrets != f->nrets)
		err(c, f->pos, "'%.*s' does not match its earlier declaration", (int)f->name.n, f->name.p);
	/* ptxas: every declaration has the linkage of the first, except that
	 * one without a linkage may follow a .visible or .weak one */
	unsigned lk = g->linkage & (L_EXTERN | L_VISIBLE | L_WEAK), nk = f->linkage & (L_EXTERN | L_VISIBLE | L_WEAK);
	if (nk != lk && !(nk == 0 && (lk == L_VISIBLE || lk == L_WEAK)))
		err(c, f->pos, "'%.*s' is declared %s here and %s before: every declaration of a function has one linkage",
		    (int)f->name.n, f->name.p, linkage_word(nk), linkage_word(lk));
	if (f->has_body) {
		f->linkage |= lk;       /* a definition without a linkage keeps the declaration's */
		s->val = f;
	}
}

/* ---- what a kernel uses: ptxas's limits ------------------------------------ */
#define MAX_STATIC_SHARED 0xc000u       /* 48 KiB of static .shared per kernel */
#define MAX_PARAMS_81 0x7ffcu           /* kernel parameters, PTX ISA 8.1 and sm_70 on */
#define MAX_PARAMS 0x1100u              /* before */

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

/* A declaration's bytes and alignment; sizes saturate rather than wrap
 * (ptxas truncates them to 32 bits: a 4 GiB array passes it as 0). */
static uint64_t decl_size(const Decl *d, uint64_t *align)
{
	uint64_t n = (uint64_t)ty_bytes(d->type) * (d->vec ? d->vec : 1);
	*align = d->align ? d->align : n ? n : 1;
	for (unsigned i = 0; i < d->ndim; i++)
		if (__builtin_mul_overflow(n, d->dim[i], &n))
			n = UINT64_MAX;
	return n;
}

static uint64_t place(uint64_t off, const Decl *d)
{
	uint64_t a, n = decl_size(d, &a);
	off = off > UINT64_MAX - a ? UINT64_MAX : (off + a - 1) / a * a;
	return sat_add(off, n);
}

typedef struct Uses {
	const Decl **v;         /* .shared variables, in the order first met */
	size_t n, cap;
	uint32_t mark;
} Uses;

static void use_shared(Uses *u, const Decl *d)
{
	if (d->space != SP_SHARED || (d->linkage & L_EXTERN))
		return;
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i] == d)
			return;
	u->v = vec_grow(u->v, &u->cap, u->n + 1, sizeof *u->v);
	u->v[u->n++] = d;
}

static void uses_of(Uses *u, Func *f);

static void uses_in(Uses *u, const Opnd *o)
{
	if (o->kind == OK_SYM && o->res == R_VAR)
		use_shared(u, o->ref);
	else if (o->kind == OK_SYM && o->res == R_FUNC)
		uses_of(u, o->ref);
	else if (o->kind == OK_SYM && o->res == R_LABEL && o->ref && ((const Stmt *)o->ref)->kind == ST_TARGETS) {
		const Stmt *ls = o->ref;
		for (uint32_t k = 0; k < ls->nlist; k++)
			if (ls->list[k].res == R_FUNC)
				uses_of(u, ls->list[k].ref);
	}
	for (uint32_t i = 0; i < o->n; i++)
		uses_in(u, &o->elems[i]);
}

/* The .shared variables f and the functions it names (calls, addresses
 * taken, .calltargets) use or declare. */
static void uses_of(Uses *u, Func *f)
{
	if (f->mark == u->mark)
		return;
	f->mark = u->mark;
	for (uint32_t i = 0; i < f->nbody; i++) {
		const Stmt *s = &f->body[i];
		if (s->kind == ST_DECL)
			use_shared(u, s->decl);
		else if (s->kind == ST_INSTR)
			for (uint32_t k = 0; k < s->in->nopnd; k++)
				uses_in(u, &s->in->opnd[k]);
	}
}

static int by_place(const void *a, const void *b)
{
	const Decl *x = *(const Decl *const *)a, *y = *(const Decl *const *)b;
	return x->pos.line != y->pos.line ? (x->pos.line > y->pos.line) - (x->pos.line < y->pos.line)
					  : (x->pos.col > y->pos.col) - (x->pos.col < y->pos.col);
}

/* ptxas's per-kernel limits: the parameter space, and the static shared
 * memory of everything the kernel reaches. */
static void check_kernel_limits(Ck *c, Func *f, Uses *u)
{
	uint64_t pbytes = 0;
	for (uint32_t i = 0; i < f->nparams; i++)
		pbytes = place(pbytes, &f->params[i]);
	bool big = c->m->ptx >= 81 && c->m->sm >= 70;
	uint64_t pmax = big ? MAX_PARAMS_81 : MAX_PARAMS;
	if (pbytes > pmax)
		err(c, f->pos, "kernel '%.*s' uses too much parameter space (0x%llx bytes, 0x%llx max%s)", (int)f->name.n,
		    f->name.p, (unsigned long long)pbytes, (unsigned long long)pmax,
		    big || c->m->sm < 70 ? "" : "; up to 0x7ffc needs PTX ISA 8.1");
	u->n = 0;
	u->mark++;
	uses_of(u, f);
	if (u->n > 1)
		qsort(u->v, u->n, sizeof *u->v, by_place);     /* laid out in declaration order */
	uint64_t sbytes = 0;
	for (size_t i = 0; i < u->n; i++)
		sbytes = place(sbytes, u->v[i]);
	if (sbytes > MAX_STATIC_SHARED)
		err(c, f->pos, "kernel '%.*s' uses too much shared data (0x%llx bytes, 0x%x max)", (int)f->name.n,
		    f->name.p, (unsigned long long)sbytes, MAX_STATIC_SHARED);
}

size_t ptx_check(Module *m, const CheckOpts *opt)
{
	isa_init();
	Ck c = { 0 };
	c.m = m;
	c.d = &m->diags;
	c.opt = opt ? *opt : (CheckOpts){ .arch = 90 };
	if (!c.opt.arch)
		c.opt.arch = 90;
	check_header(&c);
	/* Module scope: every name first, so functions may refer forward. */
	for (uint32_t i = 0; i < m->ntop; i++) {
		Top *t = &m->top[i];
		if (t->kind == TOP_DECL) {
			Sym *s = tab_put(&c.glob, t->decl->name, SY_VAR, t->decl);
			if (s && s->kind == SY_VAR) {
				redeclare_var(&c, s->val, t->decl);
				if (!(t->decl->linkage & L_EXTERN))
					s->val = t->decl;       /* the definition wins */
			} else if (s) {
				err(&c, t->decl->pos, "'%.*s' is already declared as a function",
				    (int)t->decl->name.n, t->decl->name.p);
			}
		} else if (t->kind == TOP_FUNC) {
			declare_func(&c, t->func);
		}
	}
	for (uint32_t i = 0; i < m->ntop; i++) {
		Top *t = &m->top[i];
		if (t->kind == TOP_DECL) {
			check_decl(&c, t->decl, SC_MODULE);
			t->decl->seen = 1;
			Sym *s = tab_find(&c.glob, t->decl->name);
			if (s && s->kind == SY_VAR)
				((Decl *)s->val)->seen = 1;
		} else if (t->kind == TOP_FUNC) {
			Func *f = t->func;
			if (f->managed)
				err(&c, f->pos, ".managed applies only to .global variables");
			if (f->linkage & L_COMMON)
				err(&c, f->pos, ".common applies only to .global variables");
			if (f->unified && need_ptx(&c, f->pos, 80, ".attribute(.unified) on a function") &&
			    need_sm(&c, f->pos, 90, ".attribute(.unified)") && !c.opt.compile_only)
				err(&c, f->pos, ".unified needs separate compilation (ptxvm check -c, ptxas --compile-only); a whole program cannot use it");
			if ((f->linkage & L_WEAK))
				need_ptx(&c, f->pos, 31, ".weak");
			if ((f->linkage & L_EXTERN) && f->has_body)
				err(&c, f->pos, ".extern functions have no body");
			check_perf(&c, f);
			if (f->has_body)
				check_body(&c, f);
			else
				check_params(&c, f, false);
		}
	}
	Uses u = { 0 };
	for (uint32_t i = 0; i < m->ntop; i++) {
		Func *f = m->top[i].kind == TOP_FUNC ? m->top[i].func : NULL;
		if (f && !f->entry && !f->proto && f->abi_used == 1)
			abi_formals(&c, f, "function");
		if (f && f->entry && f->has_body)
			check_kernel_limits(&c, f, &u);
	}
	free(u.v);
	free(c.glob.v);
	free(c.fn.v);
	free(c.labels.v);
	free(c.ranges.v);
	free(c.blk);
	return m->diags.nerrors;
}
