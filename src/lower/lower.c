/* lower.c: a checked module -> a program the executor runs (prog.h).
 *
 * One pass places the module's variables, one numbers the functions, and
 * then each function body is lowered statement by statement; labels are
 * patched at the end of the body and reconvergence points computed from
 * its control-flow graph.
 */
#include "shape.h"
#include "../mem/mem.h"
#include "../front/parse.h"
#include "../check/check.h"
#include "../exec/fp.h"
#include "../isa/mma.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a pointer map: AST node -> what lowering made of it --------------- */
typedef struct PMap {
	const void **k;
	uint64_t *v;
	size_t cap, n;
} PMap;

static size_t phash(const void *p, size_t cap) { return ((uintptr_t)p * 0x9E3779B97F4A7C15ull >> 17) & (cap - 1); }

static void pmap_put(PMap *m, const void *k, uint64_t v)
{
	if (2 * (m->n + 1) > m->cap) {
		PMap o = *m;
		m->cap = o.cap ? o.cap * 2 : 256;
		m->k = xcalloc(m->cap, sizeof *m->k);
		m->v = xcalloc(m->cap, sizeof *m->v);
		m->n = 0;
		for (size_t i = 0; i < o.cap; i++)
			if (o.k[i])
				pmap_put(m, o.k[i], o.v[i]);
		free(o.k);
		free(o.v);
	}
	size_t i = phash(k, m->cap);
	while (m->k[i] && m->k[i] != k)
		i = (i + 1) & (m->cap - 1);
	if (!m->k[i])
		m->n++;
	m->k[i] = k;
	m->v[i] = v;
}

static bool pmap_get(const PMap *m, const void *k, uint64_t *v)
{
	if (!m->cap)
		return false;
	for (size_t i = phash(k, m->cap); m->k[i]; i = (i + 1) & (m->cap - 1))
		if (m->k[i] == k) {
			*v = m->v[i];
			return true;
		}
	return false;
}

static void pmap_free(PMap *m) { free(m->k); free(m->v); }

/* ---- a register map: (declaration, member of a %r<N> range) -> slot ---- */
typedef struct RMap {
	const void **d;
	int64_t *i;
	uint32_t *v;
	size_t cap, n;
} RMap;

static size_t rhash(const void *d, int64_t i, size_t cap)
{
	return (((uintptr_t)d ^ (uint64_t)i * 0xff51afd7ed558ccdull) * 0x9E3779B97F4A7C15ull >> 17) & (cap - 1);
}

static uint32_t *rmap_slot(RMap *m, const void *d, int64_t i)
{
	if (2 * (m->n + 1) > m->cap) {
		RMap o = *m;
		m->cap = o.cap ? o.cap * 2 : 256;
		m->d = xcalloc(m->cap, sizeof *m->d);
		m->i = xcalloc(m->cap, sizeof *m->i);
		m->v = xcalloc(m->cap, sizeof *m->v);
		m->n = 0;
		for (size_t k = 0; k < o.cap; k++)
			if (o.d[k])
				*rmap_slot(m, o.d[k], o.i[k]) = o.v[k];
		free(o.d);
		free(o.i);
		free(o.v);
	}
	size_t k = rhash(d, i, m->cap);
	while (m->d[k] && (m->d[k] != d || m->i[k] != i))
		k = (k + 1) & (m->cap - 1);
	if (!m->d[k]) {
		m->d[k] = d;
		m->i[k] = i;
		m->v[k] = UINT32_MAX;
		m->n++;
	}
	return &m->v[k];
}

static void rmap_clear(RMap *m)
{
	if (m->cap) {
		memset(m->d, 0, m->cap * sizeof *m->d);
		m->n = 0;
	}
}

static void rmap_free(RMap *m) { free(m->d); free(m->i); free(m->v); }

/* What a declaration became. */
enum { LV_SLOT, LV_PRED, LV_FRAME, LV_KPARAM, LV_SHARED, LV_GLOBAL, LV_CONST, LV_FUNC };
#define LV(kind, val) (((uint64_t)(kind) << 56) | (val))
#define LV_KIND(x) ((unsigned)((x) >> 56))
#define LV_VAL(x) ((x) & 0x00ffffffffffffffull)

typedef struct Lw {
	const Module *m;
	Prog *p;
	DevMem *mem;
	char *err;
	bool oom;               /* err is a lack of memory */
	PMap map;               /* Decl* and Func* -> LV() */
	PMap ktop;              /* kernel Func* -> the top of its static .shared, bit 63: it reaches
				   an .extern .shared array */
	uint64_t ext_shared;    /* where the .extern .shared arrays are */
	RMap regs;              /* registers used so far in the function -> slots */
	/* the function being lowered */
	XFunc *xf;
	const Func *f;
	XIns *code;
	size_t ncode, capcode;
	uint64_t *konst;
	size_t nconst, capk;
	uint32_t nslots, npreds;
	uint64_t frame;         /* the frame's bytes so far (saturating) */
	uint32_t *stmt_pc;      /* statement index -> first instruction */
	const Stmt **patch;     /* per instruction: label statement to resolve */
	uint32_t *targets;
	size_t ntargets, captargets;
	uint8_t *bank;          /* .const bank image */
	XLoc *loc;              /* per instruction: the .loc in force */
	size_t caploc;
	bool any_loc;           /* the function has a .loc */
} Lw;

static void lw_err(Lw *w, Pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void lw_err(Lw *w, Pos pos, const char *fmt, ...)
{
	if (w->err)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t n = strlen(w->m->filename) + strlen(msg) + 64;
	w->err = xmalloc(n);
	snprintf(w->err, n, "%s:%u:%u: error: %s", w->m->filename, pos.line, pos.col, msg);
}

static char *sdup(Lw *w, Str s)
{
	char *p = arena_alloc(&w->p->arena, s.n + 1);
	memcpy(p, s.p, s.n);
	p[s.n] = 0;
	return p;
}

/* ---- sizes -------------------------------------------------------------- */
static uint32_t type_bytes(unsigned ty) { return ty >= TY__COUNT ? 8 : isa_type[ty].bytes; }

/* Sizes saturate: a declaration past 2^64 bytes stays absurd instead of
 * wrapping to a small one. */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

static uint64_t decl_bytes(const Decl *d)
{
	uint64_t n = (uint64_t)type_bytes(d->type) * (d->vec ? d->vec : 1);
	for (unsigned i = 0; i < d->ndim; i++)
		n = sat_mul(n, d->dim[i]);
	return n;
}

static uint32_t decl_align(const Decl *d)
{
	if (d->align)
		return d->align;
	uint32_t a = type_bytes(d->type) * (d->vec ? d->vec : 1);
	return a ? a : 1;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return v > UINT64_MAX - a ? UINT64_MAX : (v + a - 1) / a * a; }

/* ---- constants and slots ------------------------------------------------ */
static XOpd konst(Lw *w, uint64_t v)
{
	for (size_t i = 0; i < w->nconst; i++)     /* small pools: reuse */
		if (w->konst[i * 32] == v)
			return (XOpd){ XK_CONST, 0, 0, (uint32_t)i };
	w->konst = vec_grow(w->konst, &w->capk, (w->nconst + 1) * 32, sizeof *w->konst);
	for (int l = 0; l < 32; l++)
		w->konst[w->nconst * 32 + l] = v;
	return (XOpd){ XK_CONST, 0, 0, (uint32_t)w->nconst++ };
}

static XOpd temp_slot(Lw *w) { return (XOpd){ XK_REG, 0, 8, w->nslots++ }; }

static uint32_t sreg_slot(Lw *w, unsigned sreg, unsigned comp)
{
	Prog *p = w->p;
	for (uint32_t i = 0; i < p->nsregs; i++)
		if (p->sregs[i].sreg == sreg && p->sregs[i].comp == comp)
			return i;
	p->sregs = xrealloc(p->sregs, (p->nsregs + 1) * sizeof *p->sregs);
	p->sregs[p->nsregs] = (XSreg){ (uint16_t)sreg, (uint8_t)comp };
	if (sreg == SREG_ctaid || sreg == SREG_clusterid) {
		/* at most PROG_CTA_SREGS: each (sreg, comp) is found above once made */
		p->cta_sregs = xrealloc(p->cta_sregs, (p->ncta_sregs + 1) * sizeof *p->cta_sregs);
		p->cta_sregs[p->ncta_sregs++] = p->nsregs;
	}
	return p->nsregs++;
}

/* The value of an integer or float immediate as an operand of type ty. */
static uint64_t imm_bits(const Opnd *o, unsigned ty)
{
	bool flt = ty < TY__COUNT && isa_type[ty].kind == TK_F;
	if (o->kind == OK_INT) {
		if (!flt)
			return o->ival;
		return o->ival;         /* an integer written for a float: its bits */
	}
	/* OK_FLOAT: 0f / 0d literals carry bits; decimal ones a double */
	double v = o->fval;
	if (o->fkind == 'f') {
		uint32_t b = (uint32_t)o->ival;
		if (ty == TY_f64) {
			float f;
			memcpy(&f, &b, 4);
			v = f;
		} else
			return b;
	} else if (o->fkind == 'd') {
		if (ty == TY_f64)
			return o->ival;
		memcpy(&v, &o->ival, 8);
	}
	if (ty == TY_f64) {
		uint64_t b;
		memcpy(&b, &v, 8);
		return b;
	}
	if (ty == TY_f16 || ty == TY_f16x2) {
		uint64_t b;
		memcpy(&b, &v, 8);
		return f64_to_f16(b, FP_RN);
	}
	if (ty == TY_bf16 || ty == TY_bf16x2) {
		float f = (float)v;
		uint32_t b;
		memcpy(&b, &f, 4);
		return f32_to_bf16(b, FP_RN);
	}
	float f = (float)v;
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

/* ---- variables ---------------------------------------------------------- */
static Decl *opnd_decl(const Opnd *o) { return (Decl *)o->ref; }

/* The address a name stands for in an initializer or as an operand:
 * globals and the const bank by device address, shared by offset (or
 * generic), functions by their window address. */
static bool sym_addr(Lw *w, const void *ref, bool generic, uint64_t *out)
{
	uint64_t lv;
	if (!pmap_get(&w->map, ref, &lv))
		return false;
	uint64_t v = LV_VAL(lv);
	switch (LV_KIND(lv)) {
	case LV_GLOBAL: *out = v; return true;
	case LV_CONST: *out = generic ? w->p->const_base + v : v; return true;
	case LV_SHARED: *out = generic ? MEM_SHARED_BASE + v : v; return true;
	case LV_KPARAM: *out = generic ? MEM_PARAM_BASE + v : v; return true;
	case LV_FUNC: *out = MEM_FUNC_BASE + v; return true;
	}
	return false;
}

/* n bytes of v, little-endian; a 128-bit element gets v zero-extended, as
 * ptxas initialises .b128 variables. */
static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = i < 8 ? (uint8_t)(v >> (8 * i)) : 0;
}

/* Writes initializer it for elements of type ty at dst; returns the
 * number of elements written. */
static uint64_t write_init(Lw *w, const Init *it, unsigned ty, uint8_t *dst, uint64_t max)
{
	unsigned eb = type_bytes(ty);
	if (!max)
		return 0;
	switch (it->kind) {
	case IN_LIST: {
		uint64_t n = 0;
		for (uint32_t i = 0; i < it->n && n < max; i++)
			n += write_init(w, &it->items[i], ty, dst + n * eb, max - n);
		return n;
	}
	case IN_INT:
	case IN_FLOAT: {
		Opnd o = { .kind = it->kind == IN_INT ? OK_INT : OK_FLOAT, .fkind = it->fkind,
			   .ival = it->ival, .fval = it->fval };
		uint64_t v = imm_bits(&o, ty);
		if (it->kind == IN_FLOAT && isa_type[ty].kind != TK_F) {
			v = (uint64_t)(int64_t)it->fval;
		}
		put_le(dst, v, eb);
		return 1;
	}
	case IN_SYM:
	case IN_MASK: {
		const Init *s = it->kind == IN_MASK ? it->sub : it;
		uint64_t v = s->ival;
		if (s->kind == IN_SYM) {
			const void *ref = NULL;
			Str name = s->name;
			for (uint32_t i = 0; i < w->m->ntop && !ref; i++) {
				const Top *t = &w->m->top[i];
				if (t->kind == TOP_DECL && str_same(t->decl->name, name))
					ref = t->decl;
				else if (t->kind == TOP_FUNC && !t->func->proto && str_same(t->func->name, name))
					ref = t->func;
			}
			if (!ref || !sym_addr(w, ref, s->generic, &v)) {
				lw_err(w, s->pos, "the address of '%.*s' cannot be taken here", (int)name.n,
				       name.p);
				return 1;
			}
			v += (uint64_t)s->off;
		}
		if (it->kind == IN_MASK) {      /* 0xFF00(x): the masked bytes, shifted down */
			uint64_t mask = it->ival;
			unsigned sh = mask ? (unsigned)__builtin_ctzll(mask) : 0;
			v = (v & mask) >> sh;
		}
		put_le(dst, v, eb);
		return 1;
	}
	case IN_FIELDS:
		return 1;               /* opaque initializers: the surface issue */
	}
	return 1;
}

/* ---- .shared variables, kernel by kernel --------------------------------- */
/* A growable list of indices. */
typedef struct IList {
	uint32_t *v;
	uint32_t n, cap;
} IList;

static void ilist_add(IList *l, uint32_t x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = x;
}

/* Which functions and .shared variables each function names: its
 * operands' references, walked into vectors, memory operands and lists;
 * and for each variable, the kernels that reach it. */
typedef struct Uses {
	PMap fidx, vidx;                /* Func* and shared Decl* -> index + 1 */
	const Func **fn;
	uint32_t nfn, nvar;
	IList *calls, *vars;            /* per function: the functions, the variables it names */
	uint8_t *taken;                 /* per function: named other than as a call's target */
	uint8_t *indirect;              /* per function: calls through a register */
	IList *kernels;                 /* per variable: the kernels (function indices) reaching it */
} Uses;

static void uses_opnd(Uses *u, uint32_t f, const Opnd *o, bool callee)
{
	uint64_t i;
	if (o->kind == OK_SYM && o->res == R_FUNC && pmap_get(&u->fidx, o->ref, &i)) {
		ilist_add(&u->calls[f], (uint32_t)i - 1);
		if (!callee)
			u->taken[i - 1] = 1;
	} else if (o->kind == OK_SYM && o->res == R_VAR && pmap_get(&u->vidx, o->ref, &i)) {
		ilist_add(&u->vars[f], (uint32_t)i - 1);
	}
	for (uint32_t k = 0; k < o->n; k++)
		uses_opnd(u, f, &o->elems[k], false);
}

static void uses_free(Uses *u)
{
	for (uint32_t f = 0; f < u->nfn; f++) {
		free(u->calls[f].v);
		free(u->vars[f].v);
	}
	for (uint32_t v = 0; v < u->nvar; v++)
		free(u->kernels[v].v);
	pmap_free(&u->fidx); pmap_free(&u->vidx);
	free(u->fn); free(u->calls); free(u->vars); free(u->taken); free(u->indirect); free(u->kernels);
}

/* Fills u for the module's functions and the variables vars (n): the
 * kernels that reach each, through the functions they call (every
 * function whose address is taken, where one calls through a register). */
static void uses_find(const Module *m, const Decl **vars, uint32_t n, Uses *u)
{
	*u = (Uses){ 0 };
	u->fn = xcalloc(m->ntop + 1, sizeof *u->fn);
	for (uint32_t i = 0; i < m->ntop; i++)
		if (m->top[i].kind == TOP_FUNC && !m->top[i].func->proto) {
			pmap_put(&u->fidx, m->top[i].func, u->nfn + 1);
			u->fn[u->nfn++] = m->top[i].func;
		}
	u->nvar = n;
	for (uint32_t v = 0; v < n; v++)
		pmap_put(&u->vidx, vars[v], v + 1);
	uint32_t nf = u->nfn;
	u->calls = xcalloc(nf + 1, sizeof *u->calls);
	u->vars = xcalloc(nf + 1, sizeof *u->vars);
	u->taken = xcalloc(nf + 1, 1);
	u->indirect = xcalloc(nf + 1, 1);
	u->kernels = xcalloc(n + 1, sizeof *u->kernels);
	for (uint32_t f = 0; f < nf; f++)
		for (uint32_t k = 0; k < u->fn[f]->nbody; k++) {
			const Instr *in = u->fn[f]->body[k].kind == ST_INSTR ? u->fn[f]->body[k].in : NULL;
			for (uint32_t j = 0; in && j < in->nopnd; j++) {
				const Opnd *o = &in->opnd[j];
				bool callee = in->opc == OPC_call && o->kind == OK_SYM;
				if (callee && o->res == R_REG)
					u->indirect[f] = 1;
				uses_opnd(u, f, o, callee);
			}
		}
	IList taken = { 0 };
	for (uint32_t g = 0; g < nf; g++)
		if (u->taken[g])
			ilist_add(&taken, g);
	/* each kernel's walk of the calls; seen and had: the kernel's index + 1 */
	uint32_t *seen = xcalloc(nf + 1, sizeof *seen), *had = xcalloc(n + 1, sizeof *had);
	uint32_t *stk = xmalloc((nf + 1) * sizeof *stk);
	for (uint32_t kf = 0; kf < nf; kf++) {
		if (!u->fn[kf]->entry)
			continue;
		uint32_t sp = 0;
		stk[sp++] = kf;
		seen[kf] = kf + 1;
		while (sp) {
			uint32_t f = stk[--sp];
			for (uint32_t j = 0; j < u->vars[f].n; j++) {
				uint32_t v = u->vars[f].v[j];
				if (had[v] != kf + 1) {
					had[v] = kf + 1;
					ilist_add(&u->kernels[v], kf);
				}
			}
			const IList *next[2] = { &u->calls[f], u->indirect[f] ? &taken : NULL };
			for (int t = 0; t < 2; t++)
				for (uint32_t j = 0; next[t] && j < next[t]->n; j++) {
					uint32_t g = next[t]->v[j];
					if (seen[g] != kf + 1) {
						seen[g] = kf + 1;
						stk[sp++] = g;
					}
				}
		}
	}
	free(seen); free(had); free(stk); free(taken.v);
}

/* Lays out the first nstatic of vars (the .shared variables that are not
 * .extern, in the module's order): each at the lowest offset (above the
 * reserved window, aligned) above every variable of any kernel that
 * reaches it (u), so that a kernel's static shared memory is what it
 * uses, as ptxas counts it, while a variable keeps one offset for every
 * kernel; a variable no kernel reaches goes at the bottom.  top: each
 * function's top (by index in u->fn; XSMEM_RESERVED but for kernels);
 * returns the highest. */
static uint64_t place_shared(Lw *w, const Decl **vars, uint32_t nstatic, const Uses *u, uint64_t *top,
			     uint64_t *salign)
{
	uint64_t high = XSMEM_RESERVED;
	for (uint32_t f = 0; f < u->nfn; f++)
		top[f] = XSMEM_RESERVED;
	for (uint32_t v = 0; v < nstatic; v++) {
		const IList *ks = &u->kernels[v];
		uint64_t a = decl_align(vars[v]), off = XSMEM_RESERVED;
		for (uint32_t j = 0; j < ks->n; j++)
			if (top[ks->v[j]] > off)
				off = top[ks->v[j]];
		off = align_up(off, a);
		uint64_t end = sat_add(off, decl_bytes(vars[v]));
		for (uint32_t j = 0; j < ks->n; j++)
			top[ks->v[j]] = end;
		pmap_put(&w->map, vars[v], LV(LV_SHARED, off));
		if (end > high)
			high = end;
		if (a > *salign)
			*salign = a;
	}
	return high;
}

/* Places the module-scope variables.  Globals get an allocation each; the
 * .const variables share one bank; .shared ones get CTA offsets
 * (place_shared), and each kernel its static shared bytes. */
static void place_vars(Lw *w)
{
	const Module *m = w->m;
	uint64_t cbytes = 0, salign = 16;
	const Decl **svars = NULL;
	uint32_t nsv = 0;
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Decl *d = m->top[i].kind == TOP_DECL ? m->top[i].decl : NULL;
		if (!d || (d->linkage & L_EXTERN && d->space != SP_SHARED))
			continue;
		uint64_t a = decl_align(d);
		if (d->space == SP_CONST) {
			cbytes = align_up(cbytes, a);
			pmap_put(&w->map, d, LV(LV_CONST, cbytes));
			cbytes = sat_add(cbytes, decl_bytes(d));
		} else if (d->space == SP_SHARED && !(d->linkage & L_EXTERN)) {
			svars = xrealloc(svars, (nsv + 1) * sizeof *svars);
			svars[nsv++] = d;
		}
	}
	/* functions' .shared variables join the module's; then the .extern
	   ones (the dynamic shared memory) */
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Func *f = m->top[i].kind == TOP_FUNC ? m->top[i].func : NULL;
		for (uint32_t k = 0; f && k < f->nbody; k++) {
			const Decl *d = f->body[k].kind == ST_DECL ? f->body[k].decl : NULL;
			if (d && d->space == SP_SHARED && !(d->linkage & L_EXTERN)) {
				svars = xrealloc(svars, (nsv + 1) * sizeof *svars);
				svars[nsv++] = d;
			}
		}
	}
	uint32_t nstatic = nsv;
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Func *f = m->top[i].kind == TOP_FUNC ? m->top[i].func : NULL;
		const Decl *d = m->top[i].kind == TOP_DECL ? m->top[i].decl : NULL;
		if (d && d->space == SP_SHARED && d->linkage & L_EXTERN) {
			svars = xrealloc(svars, (nsv + 1) * sizeof *svars);
			svars[nsv++] = d;
		}
		for (uint32_t k = 0; f && k < f->nbody; k++) {
			d = f->body[k].kind == ST_DECL ? f->body[k].decl : NULL;
			if (d && d->space == SP_SHARED && d->linkage & L_EXTERN) {
				svars = xrealloc(svars, (nsv + 1) * sizeof *svars);
				svars[nsv++] = d;
			}
		}
	}
	Uses u;
	uses_find(m, svars, nsv, &u);
	uint64_t *top = xmalloc((u.nfn + 1) * sizeof *top);
	uint64_t sbytes = place_shared(w, svars, nstatic, &u, top, &salign);
	/* the .extern arrays at one offset, above the static memory of every
	   kernel that reaches one of them */
	uint8_t *dyn = xcalloc(u.nfn + 1, 1);
	uint64_t ext = XSMEM_RESERVED;
	for (uint32_t f = 0; f < u.nfn; f++)
		top[f] = align_up(top[f], salign);
	for (uint32_t v = nstatic; v < nsv; v++)
		for (uint32_t j = 0; j < u.kernels[v].n; j++) {
			uint32_t f = u.kernels[v].v[j];
			dyn[f] = 1;
			if (top[f] > ext)
				ext = top[f];
		}
	ext = align_up(ext, salign);
	for (uint32_t v = nstatic; v < nsv; v++) {
		pmap_put(&w->map, svars[v], LV(LV_SHARED, ext));
		w->p->dyn_shared = 1;
	}
	for (uint32_t f = 0; f < u.nfn; f++)
		if (u.fn[f]->entry)
			pmap_put(&w->ktop, u.fn[f], top[f] | (uint64_t)dyn[f] << 63);
	w->ext_shared = ext;
	sbytes = align_up(sbytes > ext ? sbytes : ext, salign);
	free(svars);
	free(top);
	free(dyn);
	uses_free(&u);
	w->p->shared_bytes = sbytes;
	w->p->shared_align = (uint32_t)salign;
	if (cbytes && !mem_alloc(w->mem, cbytes, ALLOC_CONST, 0, &w->p->const_base)) {
		w->oom = true;
		lw_err(w, (Pos){ 0, 0 }, "no memory for the .const bank (%llu bytes)", (unsigned long long)cbytes);
		return;
	}
	w->p->const_bytes = cbytes;
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Decl *d = m->top[i].kind == TOP_DECL ? m->top[i].decl : NULL;
		if (!d || d->space != SP_GLOBAL || d->linkage & L_EXTERN)
			continue;
		uint64_t addr, n = decl_bytes(d);
		if (!mem_alloc(w->mem, n, ALLOC_GLOBAL, d->managed ? ALLOC_HOST : 0, &addr)) {
			w->oom = true;
			lw_err(w, d->pos, "no memory for '%.*s' (%llu bytes)", (int)d->name.n,
			       d->name.p, (unsigned long long)n);
			return;
		}
		pmap_put(&w->map, d, LV(LV_GLOBAL, addr));
	}
	/* functions by index, for calls, addresses in initializers and mov; a
	 * declaration stands for the definition of the same name, if any */
	uint32_t nf = 0;
	for (uint32_t i = 0; i < m->ntop; i++)
		if (m->top[i].kind == TOP_FUNC && !m->top[i].func->proto)
			pmap_put(&w->map, m->top[i].func, LV(LV_FUNC, nf++));
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Func *f = m->top[i].kind == TOP_FUNC ? m->top[i].func : NULL;
		if (!f || f->proto || f->has_body)
			continue;
		for (uint32_t j = 0; j < m->ntop; j++) {
			const Func *g = m->top[j].kind == TOP_FUNC ? m->top[j].func : NULL;
			uint64_t lv;
			if (g && g->has_body && str_same(g->name, f->name) && pmap_get(&w->map, g, &lv))
				pmap_put(&w->map, f, lv);
		}
	}
	/* the variables the host can look up, and their initializers */
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Decl *d = m->top[i].kind == TOP_DECL ? m->top[i].decl : NULL;
		uint64_t lv;
		if (!d || !pmap_get(&w->map, d, &lv) || (d->space != SP_GLOBAL && d->space != SP_CONST))
			continue;
		uint64_t n = decl_bytes(d);
		XVar v = { d, sdup(w, d->name), d->space == SP_GLOBAL ? XS_GLOBAL : XS_CONST,
			   d->space == SP_GLOBAL ? LV_VAL(lv) : w->p->const_base + LV_VAL(lv), n };
		w->p->vars = xrealloc(w->p->vars, (w->p->nvars + 1) * sizeof *w->p->vars);
		w->p->vars[w->p->nvars++] = v;
		if (d->has_init && d->init && d->type < TY__COUNT) {
			uint8_t *host = mem_host_own(w->mem, v.addr, n);
			unsigned eb = type_bytes(d->type);
			if (host && eb)
				write_init(w, d->init, d->type, host, n / eb);
		}
	}
}

/* ---- functions: frames and parameters ----------------------------------- */
static uint64_t frame_alloc(Lw *w, const Decl *d)
{
	w->frame = align_up(w->frame, decl_align(d));
	uint64_t off = w->frame;
	w->frame = sat_add(w->frame, decl_bytes(d));
	return off;
}

/* Registers get slots when they are first used, so that a declared range
 * costs only the members the code names (a slot per scalar, per component
 * for vectors; .b128 two, low then high); predicates get indices of their
 * own.  The declaration records which kind it is. */
static void declare_reg(Lw *w, const Decl *d)
{
	pmap_put(&w->map, d, LV(d->type == TY_pred ? LV_PRED : LV_SLOT, 0));
}

/* The first slot (or predicate index) of member i (-1: not a range) of a
 * register declaration. */
static uint32_t reg_slot(Lw *w, const Decl *d, int64_t i)
{
	uint32_t *v = rmap_slot(&w->regs, d, i);
	if (*v == UINT32_MAX) {
		uint32_t n = (d->vec ? d->vec : 1) * (type_bytes(d->type) == 16 ? 2 : 1);
		if (d->type == TY_pred) {
			*v = w->npreds;
			w->npreds += 1;
		} else {
			*v = w->nslots;
			w->nslots += n;
		}
	}
	return *v;
}

static void declare_var(Lw *w, const Decl *d)
{
	switch (d->space) {
	case SP_REG:
		declare_reg(w, d);
		break;
	case SP_LOCAL:
	case SP_PARAM:
		pmap_put(&w->map, d, LV(LV_FRAME, frame_alloc(w, d)));
		break;
	default:
		break;          /* shared placed with the module; others not in bodies */
	}
}

/* A formal's place in a signature: its space and size. */
static XParam formal_sig(const Decl *d)
{
	XParam x = { 0 };
	x.is_reg = d->space == SP_REG;
	x.is_pred = d->type == TY_pred;
	x.bytes = x.is_reg ? type_bytes(d->type) : decl_bytes(d);
	return x;
}

static XParam lower_formal(Lw *w, const Decl *d)
{
	XParam x = formal_sig(d);
	if (d->space == SP_REG) {
		declare_reg(w, d);
		x.slot = reg_slot(w, d, -1);
	} else {
		x.off = frame_alloc(w, d);
		pmap_put(&w->map, d, LV(LV_FRAME, x.off));
	}
	return x;
}

/* ---- operands ----------------------------------------------------------- */
static XOpd reg_opnd(Lw *w, const Opnd *o)
{
	const Decl *d = opnd_decl(o);
	uint64_t lv;
	if (!pmap_get(&w->map, d, &lv)) {
		lw_err(w, o->pos, "register '%.*s' has no storage", (int)o->name.n, o->name.p);
		return (XOpd){ XK_NONE, 0, 0, 0 };
	}
	uint32_t idx = reg_slot(w, d, d->range >= 0 ? o->regidx : -1);
	if (o->comp)
		idx += (o->comp - 1u) * (type_bytes(d->type) == 16 ? 2 : 1);
	if (LV_KIND(lv) == LV_PRED)
		return (XOpd){ XK_PRED, o->neg, 0, idx };
	return (XOpd){ XK_REG, 0, (uint8_t)type_bytes(d->type), idx };
}

static void emit(Lw *w, XIns x);

/* A source or destination operand (not memory) of type ty. */
static XOpd opnd(Lw *w, const Instr *in, const Opnd *o, unsigned ty)
{
	switch (o->kind) {
	case OK_SINK:
		return (XOpd){ XK_NONE, 0, 0, 0 };
	case OK_INT:
	case OK_FLOAT:
		return konst(w, imm_bits(o, ty));
	case OK_SYM:
		break;
	default:
		lw_err(w, o->pos, "this operand form is not executable yet");
		return (XOpd){ XK_NONE, 0, 0, 0 };
	}
	switch (o->res) {
	case R_REG:
		return reg_opnd(w, o);
	case R_SREG: {
		const IsaSreg *sr = o->ref;
		unsigned s = (unsigned)(sr - isa_sreg);
		int dyn = s == SREG_clock ? X_SR_CLOCK : s == SREG_clock64 ? X_SR_CLOCK64
			  : s == SREG_clock_hi ? X_SR_CLOCK64 : s == SREG_globaltimer ? X_SR_GTIMER
			  : s == SREG_globaltimer_lo ? X_SR_GTIMER_LO
			  : s == SREG_globaltimer_hi ? X_SR_GTIMER_HI : -1;
		if (dyn >= 0) {         /* read when executed, into a temporary */
			XOpd t = temp_slot(w);
			XOpd *ops = arena_alloc(&w->p->arena, sizeof *ops);
			ops[0] = t;
			emit(w, (XIns){ .op = XOP_RDSREG, .sub = (uint16_t)dyn, .n = 1, .o = ops,
					.guard = -1, .src = in, .line = in->pos.line,
					.sub2 = s == SREG_clock_hi });
			return t;
		}
		return (XOpd){ XK_SREG, 0, 4, sreg_slot(w, s, o->comp) };
	}
	case R_VAR:
	case R_PARAM:
	case R_FUNC: {
		uint64_t lv, a;
		if (pmap_get(&w->map, o->ref, &lv) && LV_KIND(lv) == LV_FRAME) {
			/* the local address of a frame variable depends on the call depth */
			XOpd t = temp_slot(w);
			XOpd *ops = arena_alloc(&w->p->arena, sizeof *ops);
			ops[0] = t;
			emit(w, (XIns){ .op = XOP_FRAMEADDR, .n = 1, .o = ops, .imm = (int64_t)(LV_VAL(lv) + (uint64_t)o->off),
					.guard = -1, .src = in, .line = in->pos.line });
			return t;
		}
		if (!sym_addr(w, o->ref, false, &a)) {
			lw_err(w, o->pos, "'%.*s' has no address ptxvm can use yet", (int)o->name.n, o->name.p);
			return (XOpd){ XK_NONE, 0, 0, 0 };
		}
		return konst(w, a + (uint64_t)o->off);
	}
	default:
		lw_err(w, o->pos, "operand '%.*s' is not executable yet", (int)o->name.n, o->name.p);
		return (XOpd){ XK_NONE, 0, 0, 0 };
	}
}

/* A memory operand: its base register (or none) and offset; the space may
 * be refined (a frame variable, a kernel parameter). */
static XOpd mem_opnd(Lw *w, const Opnd *o, uint8_t *sp, int64_t *imm)
{
	const Opnd *b = o->n ? &o->elems[0] : NULL;
	*imm = o->off;
	if (!b)
		return (XOpd){ XK_NONE, 0, 0, 0 };
	if (b->kind == OK_INT) {
		*imm += (int64_t)b->ival;
		return (XOpd){ XK_NONE, 0, 0, 0 };
	}
	if (b->kind != OK_SYM) {
		lw_err(w, o->pos, "this address form is not executable yet");
		return (XOpd){ XK_NONE, 0, 0, 0 };
	}
	*imm += b->off;
	if (b->res == R_REG) {
		if (*sp == XS_FRAME)            /* ld.param [%rd] in a function: a local address */
			*sp = XS_LOCAL;
		return reg_opnd(w, b);
	}
	uint64_t lv;
	if (!pmap_get(&w->map, b->ref, &lv)) {
		lw_err(w, b->pos, "'%.*s' has no storage ptxvm can use yet", (int)b->name.n, b->name.p);
		return (XOpd){ XK_NONE, 0, 0, 0 };
	}
	uint64_t v = LV_VAL(lv);
	unsigned k = LV_KIND(lv);
	uint8_t want = k == LV_FRAME ? XS_FRAME : k == LV_KPARAM ? XS_KPARAM : k == LV_SHARED ? XS_SHARED
		       : k == LV_CONST ? XS_CONST : XS_GLOBAL;
	if (*sp == XS_GENERIC) {
		if (k == LV_FRAME) {
			*sp = XS_FRAME;
		} else {
			uint64_t a = 0;
			sym_addr(w, b->ref, true, &a);
			v = a;
		}
	} else if (*sp == XS_LOCAL && k == LV_FRAME) {
		*sp = XS_FRAME;
	} else if (*sp != want && !(*sp == XS_FRAME && want == XS_FRAME) &&
		   !(*sp == XS_KPARAM && want == XS_KPARAM)) {
		*sp = want;
	}
	*imm += (int64_t)v;
	return (XOpd){ XK_NONE, 0, 0, 0 };
}

/* ---- instructions ------------------------------------------------------- */
/* ---- source lines ------------------------------------------------------- */
/* The module's .file names by number: `.file N "name"{, time, size}`. */
static void source_files(Lw *w)
{
	const Module *m = w->m;
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->ntop; i++)
		if (m->top[i].kind == TOP_FILE && m->top[i].fileno < (1u << 16) && m->top[i].fileno + 1 > n)
			n = m->top[i].fileno + 1;
	w->p->files = arena_alloc(&w->p->arena, (n + 1) * sizeof *w->p->files);
	w->p->nfiles = n;
	for (uint32_t i = 0; i < n; i++)
		w->p->files[i] = NULL;
	for (uint32_t i = 0; i < m->ntop; i++) {
		const Top *t = &m->top[i];
		if (t->kind != TOP_FILE || t->fileno >= n)
			continue;
		const char *q = memchr(t->text.p, '"', t->text.n);
		const char *e = q ? memchr(q + 1, '"', t->text.n - (size_t)(q + 1 - t->text.p)) : NULL;
		if (e)
			w->p->files[t->fileno] = sdup(w, (Str){ q + 1, (uint32_t)(e - q - 1) });
	}
}

/* `.loc FILE LINE COL{, function_name ..., inlined_at ...}`: the line in
 * force for the instructions that follow.  A .loc naming an undeclared
 * file, or line 0 (code with no line of its own), clears it. */
static void source_loc(Lw *w, const Stmt *s, XLoc *cur)
{
	if (s->name.n < 3 || memcmp(s->name.p + s->name.n - 3, "loc", 3))
		return;
	char buf[64];
	size_t n = s->text.n < sizeof buf - 1 ? s->text.n : sizeof buf - 1;
	memcpy(buf, s->text.p, n);
	buf[n] = 0;
	unsigned long file = 0, line = 0;
	if (sscanf(buf, "%lu %lu", &file, &line) != 2 || file >= w->p->nfiles || !w->p->files[file] || !line) {
		*cur = (XLoc){ 0, 0 };
		return;
	}
	*cur = (XLoc){ (uint32_t)file + 1, (uint32_t)line };
	w->any_loc = true;
}

static void emit(Lw *w, XIns x)
{
	x.bits = (uint8_t)(x.ty < TY__COUNT ? isa_type[x.ty].bytes * 8 : 64);
	x.sg = x.ty < TY__COUNT && isa_type[x.ty].kind == TK_S;
	w->code = vec_grow(w->code, &w->capcode, w->ncode + 1, sizeof *w->code);
	w->patch = xrealloc(w->patch, w->capcode * sizeof *w->patch);
	w->patch[w->ncode] = NULL;
	w->code[w->ncode++] = x;
}

/* The address base + imm in a slot: a constant, base itself, or a
 * temporary that an inserted add.u64 computes. */
static XOpd addr_slot(Lw *w, const Instr *in, XOpd base, int64_t imm)
{
	if (base.kind == XK_NONE)
		return konst(w, (uint64_t)imm);
	if (!imm)
		return base;
	XOpd t = temp_slot(w);
	XOpd *ops = arena_alloc(&w->p->arena, 3 * sizeof *ops);
	ops[0] = t;
	ops[1] = base;
	ops[2] = konst(w, (uint64_t)imm);
	emit(w, (XIns){ .op = OPC_add, .ty = TY_u64, .vec = 1, .n = 3, .o = ops, .guard = -1, .src = in,
			.line = in->pos.line, .sub = MOD_NONE, .sub2 = MOD_NONE });
	return t;
}

static bool has(const Instr *in, unsigned mod)
{
	for (unsigned i = 0; i < in->nmods; i++)
		if (in->mods[i] == mod)
			return true;
	return false;
}

/* The first modifier of in that is one of the list (terminated by MOD_NONE). */
static uint16_t pick(const Instr *in, const uint16_t *list)
{
	for (unsigned i = 0; i < in->nmods; i++)
		for (const uint16_t *l = list; *l != MOD_NONE; l++)
			if (in->mods[i] == *l)
				return *l;
	return MOD_NONE;
}

static const uint16_t sel_cmp[] = { MOD_eq, MOD_ne, MOD_lt, MOD_le, MOD_gt, MOD_ge, MOD_lo, MOD_ls,
				    MOD_hi, MOD_hs, MOD_equ, MOD_neu, MOD_ltu, MOD_leu, MOD_gtu,
				    MOD_geu, MOD_num, MOD_nan, MOD_NONE };
static const uint16_t sel_bool[] = { MOD_and, MOD_or, MOD_xor, MOD_NONE };
static const uint16_t sel_hilo[] = { MOD_hi, MOD_lo, MOD_wide, MOD_NONE };
static const uint16_t sel_mode[] = { MOD_up, MOD_down, MOD_bfly, MOD_idx, MOD_all, MOD_any, MOD_uni,
				     MOD_ballot, MOD_l, MOD_r, MOD_NONE };
static const uint16_t sel_atom[] = { MOD_and, MOD_or, MOD_xor, MOD_cas, MOD_exch, MOD_add, MOD_inc,
				     MOD_dec, MOD_min, MOD_max, MOD_popc, MOD_NONE };
static const uint16_t sel_space[] = { MOD_global, MOD_shared, MOD_shared_cta, MOD_shared_cluster,
				      MOD_local, MOD_const, MOD_param, MOD_NONE };
static const uint16_t sel_bar[] = { MOD_sync, MOD_arrive, MOD_red, MOD_wait, MOD_NONE };
static const uint16_t sel_testp[] = { MOD_finite, MOD_infinite, MOD_number, MOD_notanumber,
				      MOD_normal, MOD_subnormal, MOD_NONE };
static const uint16_t sel_prmt[] = { MOD_f4e, MOD_b4e, MOD_rc8, MOD_ecl, MOD_ecr, MOD_rc16, MOD_NONE };
static const uint16_t sel_clamp[] = { MOD_clamp, MOD_wrap, MOD_shiftamt, MOD_NONE };

/* cp.reduce.async.bulk's operations. */
static const uint16_t cp_reductions[] = { MOD_add, MOD_min, MOD_max, MOD_inc, MOD_dec, MOD_and, MOD_or, MOD_xor,
					  MOD_NONE };

static uint8_t space_of(uint16_t m)
{
	switch (m) {
	case MOD_global: return XS_GLOBAL;
	case MOD_shared: case MOD_shared_cta: case MOD_shared_cluster: return XS_SHARED;
	case MOD_local: return XS_LOCAL;
	case MOD_const: return XS_CONST;
	case MOD_param: return XS_KPARAM;
	}
	return XS_GENERIC;
}

/* Operands are kept in PTX order with vectors flattened; a memory operand
 * contributes its base register (XK_NONE for an absolute address) and its
 * offset goes to imm (the second memory operand's to target). */
typedef struct OpList {
	XOpd v[160];            /* wgmma.mma_async: up to 128 registers of D, 4 of A, 5 more */
	unsigned n;
	bool over;              /* more did not fit */
} OpList;

static void add(OpList *l, XOpd o)
{
	if (l->n < NELEM(l->v))
		l->v[l->n++] = o;
	else
		l->over = true;
}

/* The type an operand position reads, from the form. */
static unsigned opnd_type(const IsaForm *f, unsigned i, const uint8_t *tys)
{
	if (!f || i >= f->nopnd)
		return tys[0];
	const IsaOpnd *s = &f->opnd[i];
	if (s->slot >= 0)
		return tys[s->slot];
	if (s->slot == -1)
		return s->type;
	return tys[0];
}

/* An opaque variable or parameter named directly (.surfref, .texref,
 * .samplerref): it holds an object's handle (0 until the host binds one),
 * loaded into a temporary.  A register holds a handle or, for indirect
 * access, the address of such a variable. */
static XOpd image_handle(Lw *w, const Instr *in, const Opnd *o)
{
	if (o->kind == OK_SYM && o->res == R_REG)
		return opnd(w, in, o, TY_u64);
	uint64_t lv;
	if (o->kind != OK_SYM || !pmap_get(&w->map, o->ref, &lv) ||
	    (LV_KIND(lv) != LV_GLOBAL && LV_KIND(lv) != LV_KPARAM)) {
		lw_err(w, o->pos, "'%.*s' is not an image ptxvm can use yet", (int)o->name.n, o->name.p);
		return (XOpd){ XK_NONE, 0, 0, 0 };
	}
	XOpd t = temp_slot(w);
	XOpd *ops = arena_alloc(&w->p->arena, 2 * sizeof *ops);
	ops[0] = t;
	ops[1] = (XOpd){ XK_NONE, 0, 0, 0 };
	emit(w, (XIns){ .op = OPC_ld, .ty = TY_u64, .vec = 1, .n = 2, .o = ops, .guard = -1,
			.sp = LV_KIND(lv) == LV_GLOBAL ? XS_GLOBAL : XS_KPARAM, .imm = (int64_t)LV_VAL(lv),
			.src = in, .line = in->pos.line, .sub = MOD_NONE, .sub2 = MOD_NONE });
	return t;
}

/* A memory operand's address [a] as a value in a slot, in space sp. */
static XOpd addr_value(Lw *w, const Instr *in, const Opnd *o, uint8_t sp)
{
	int64_t imm;
	XOpd a = mem_opnd(w, o, &sp, &imm);
	return addr_slot(w, in, a, imm);
}

/* cp.async.bulk.tensor and its reduce and prefetch forms into the layout
 * TNO_* (prog.h). */
static void lower_tensor(Lw *w, const Instr *in, XIns *x, OpList *l)
{
	for (unsigned i = 0; i < TNO_C + 8; i++)
		l->v[i] = (XOpd){ XK_NONE, 0, 0, 0 };
	bool load = !has(in, MOD_prefetch) && ptx_mem_space(in, 0) == SP_SHARED;
	x->sub2 = has(in, MOD_prefetch) ? MOD_prefetch : has(in, MOD_reduce) ? MOD_reduce
		  : load ? MOD_shared_cluster : MOD_global;
	x->target = pick(in, (const uint16_t[]){ MOD_add, MOD_min, MOD_max, MOD_inc, MOD_dec, MOD_and, MOD_or,
						 MOD_xor, MOD_NONE });
	x->sp = XS_SHARED;
	unsigned i = 0, d = 0;
	if (load)
		l->v[TNO_SMEM] = addr_value(w, in, &in->opnd[i++], XS_SHARED);
	const Opnd *t = &in->opnd[i++];
	if (t->kind == OK_MEM && t->n == 2) {
		Opnd base = *t;
		base.n = 1;
		l->v[TNO_MAP] = addr_value(w, in, &base, XS_GENERIC);
		const Opnd *c = &t->elems[1];
		for (uint32_t k = 0; c->kind == OK_VEC && k < c->n && k < 5; k++, d++)
			l->v[TNO_C + d] = opnd(w, in, &c->elems[k], TY_b32);
	}
	x->vec = (uint8_t)d;
	if (load)
		l->v[TNO_MBAR] = addr_value(w, in, &in->opnd[i++], XS_SHARED);
	else if (x->sub2 != MOD_prefetch && i < in->nopnd)
		l->v[TNO_SMEM] = addr_value(w, in, &in->opnd[i++], XS_SHARED);
	x->irnd = 0;
	x->ty2 = has(in, MOD_im2col) || has(in, MOD_im2col_no_offs);
	if (i < in->nopnd && in->opnd[i].kind == OK_VEC) {
		const Opnd *v = &in->opnd[i++];
		for (uint32_t k = 0; k < v->n && d + k < 8; k++)
			l->v[TNO_C + d + k] = opnd(w, in, &v->elems[k], TY_b16);
		x->irnd = 1;
	}
	if (has(in, MOD_multicast_cluster) && i < in->nopnd)
		l->v[TNO_MASK] = opnd(w, in, &in->opnd[i++], TY_u16);
	l->n = TNO_C + d + (x->irnd && d > 2 ? d - 2 : 0);
}

/* tex and tld4: d{|p}, [t, {s,} c] {, lod | dPdx, dPdy} {, offsets} {, depth}
 * into the layout TXO_*. */
static void lower_tex(Lw *w, const Instr *in, const XIns *x, OpList *l)
{
	for (unsigned i = 0; i < TXO__COUNT; i++)
		l->v[i] = (XOpd){ XK_NONE, 0, 0, 0 };
	l->n = TXO__COUNT;
	const Opnd *d = &in->opnd[0];
	if (d->kind == OK_PIPE) {
		l->v[TXO_P] = opnd(w, in, &d->elems[1], TY_pred);
		d = &d->elems[0];
	}
	for (uint32_t k = 0; k < d->n && k < 4; k++)
		l->v[TXO_D + k] = opnd(w, in, &d->elems[k], x->ty);
	const Opnd *m = &in->opnd[1];
	l->v[TXO_T] = image_handle(w, in, &m->elems[0]);
	if (m->n == 3)
		l->v[TXO_S] = image_handle(w, in, &m->elems[1]);
	const Opnd *c = &m->elems[m->n - 1];
	bool layered = x->sub == MOD_a1d || x->sub == MOD_a2d || x->sub == MOD_acube || x->sub == MOD_g2dms ||
		       x->sub == MOD_a2dms;
	unsigned nc = c->kind == OK_VEC ? c->n : 1;
	for (unsigned k = 0; k < nc && k < 4; k++)
		l->v[TXO_C + k] = opnd(w, in, c->kind == OK_VEC ? &c->elems[k] : c, layered && k == 0 ? TY_u32 : x->ty2);
	unsigned i = 2;
	if (x->sub2 == MOD_level && i < in->nopnd)
		l->v[TXO_LOD] = opnd(w, in, &in->opnd[i++], x->ty2);
	for (unsigned g = 0; x->sub2 == MOD_grad && g < 2 && i < in->nopnd; g++, i++) {
		const Opnd *v = &in->opnd[i];
		unsigned n = v->kind == OK_VEC ? v->n : 1;
		for (unsigned k = 0; k < n && k < 4; k++)
			l->v[(g ? TXO_DY : TXO_DX) + k] = opnd(w, in, v->kind == OK_VEC ? &v->elems[k] : v, TY_f32);
	}
	if (i < in->nopnd && in->opnd[i].kind == OK_VEC) {
		const Opnd *v = &in->opnd[i++];
		for (unsigned k = 0; k < v->n && k < 4; k++)
			l->v[TXO_OFF + k] = opnd(w, in, &v->elems[k], TY_s32);
	}
	if (i < in->nopnd)
		l->v[TXO_DEPTH] = opnd(w, in, &in->opnd[i], TY_f32);
}

/* A video instruction's modifiers and operand marks, for the executor:
 * sub the secondary operation (.add .min .max), sub2 the comparison,
 * shift mode or vmad's scale, irnd vmad's .po.  imm, scalar forms: a
 * selector code per operand d, a, b in bits 0-3, 4-7, 8-11 (0 the word,
 * 1-4 .b0-.b3, 5-6 .h0-.h1) and vmad's negated a, b, c in bits 17-19;
 * SIMD forms: the source element of each lane of a (bits 0-15) and b
 * (16-31), a nibble per lane, counting a's halves or bytes then b's, and
 * the destination mask in bits 32-35. */
static void video_fields(XIns *x, const Instr *in, bool simd, unsigned lanes)
{
	x->sub = pick(in, (const uint16_t[]){ MOD_add, MOD_min, MOD_max, MOD_NONE });
	x->sub2 = pick(in, sel_cmp);
	if (x->sub2 == MOD_NONE)
		x->sub2 = pick(in, (const uint16_t[]){ MOD_clamp, MOD_wrap, MOD_shr7, MOD_shr15, MOD_NONE });
	x->irnd = has(in, MOD_po);
	uint64_t v = 0;
	if (simd)
		v = lanes == 2 ? 0x00320010ull | 3ull << 32 : 0x76543210ull | 15ull << 32;
	for (unsigned k = 0; k < in->nopnd && k < 4; k++) {
		const Opnd *o = &in->opnd[k];
		if (!simd && o->minus)
			v |= 1ull << (16 + k);
		if (!o->selk || k == 3)
			continue;
		if (!simd) {
			v |= (uint64_t)(o->selk == 'b' ? 1 + o->seld : 5 + o->seld) << (4 * k);
		} else if (k == 0) {
			uint64_t m = 0;
			for (unsigned i = 0; i < o->seln; i++)
				m |= 1ull << (o->seld >> (4 * i) & 15);
			v = (v & ~(15ull << 32)) | m << 32;
		} else {
			unsigned sh = k == 1 ? 0 : 16;
			v = (v & ~(0xffffull << sh)) | (uint64_t)(o->seld & 0xffff) << sh;
		}
	}
	x->imm = (int64_t)v;
}

/* The .callprototype or .calltargets label of an indirect call, as an
 * XSig the executor checks the callee against. */
static uint32_t call_sig(Lw *w, const Stmt *ls)
{
	Prog *p = w->p;
	p->sigs = xrealloc(p->sigs, (p->nsigs + 1) * sizeof *p->sigs);
	XSig *g = &p->sigs[p->nsigs];
	*g = (XSig){ .name = sdup(w, ls->name) };
	if (ls->kind == ST_PROTO && ls->proto) {
		const Func *f = ls->proto;
		g->rets = arena_alloc(&p->arena, (f->nrets + 1) * sizeof *g->rets);
		g->params = arena_alloc(&p->arena, (f->nparams + 1) * sizeof *g->params);
		for (uint32_t i = 0; i < f->nrets; i++)
			g->rets[i] = formal_sig(&f->rets[i]);
		for (uint32_t i = 0; i < f->nparams; i++)
			g->params[i] = formal_sig(&f->params[i]);
		g->nrets = f->nrets;
		g->nparams = f->nparams;
	} else {
		g->fns = arena_alloc(&p->arena, (ls->nlist + 1) * sizeof *g->fns);
		for (uint32_t i = 0; i < ls->nlist; i++) {
			uint64_t lv;
			if (ls->list[i].res == R_FUNC && pmap_get(&w->map, ls->list[i].ref, &lv) &&
			    LV_KIND(lv) == LV_FUNC)
				g->fns[g->nfns++] = (uint32_t)LV_VAL(lv);
		}
	}
	return p->nsigs++;
}

static void lower_instr(Lw *w, const Stmt *st)
{
	const Instr *in = st->in;
	const IsaForm *f = in->form != 0xffff ? &isa_form[in->form] : NULL;
	XIns x = { .op = in->opc, .guard = -1, .src = in, .line = in->pos.line, .vec = 1,
		   .sub = MOD_NONE, .sub2 = MOD_NONE };
	uint8_t tys[4] = { TY__COUNT, TY__COUNT, TY__COUNT, TY__COUNT };
	unsigned nty = 0;
	for (unsigned i = 0; i < in->nmods; i++) {
		unsigned m = in->mods[i];
		if (isa_mod_is_type(m) && nty < 4)
			tys[nty++] = (uint8_t)m;
		switch (m) {
		case MOD_rn: x.rnd = FP_RN; break;
		case MOD_rz: x.rnd = FP_RZ; break;
		case MOD_rm: x.rnd = FP_RM; break;
		case MOD_rp: x.rnd = FP_RP; break;
		case MOD_rna: x.rnd = FP_RNA; break;
		case MOD_rni: x.rnd = FP_RN; x.irnd = 1; break;
		case MOD_rzi: x.rnd = FP_RZ; x.irnd = 1; break;
		case MOD_rmi: x.rnd = FP_RM; x.irnd = 1; break;
		case MOD_rpi: x.rnd = FP_RP; x.irnd = 1; break;
		case MOD_ftz: x.flags |= XF_FTZ; break;
		case MOD_sat: x.flags |= XF_SAT; break;
		case MOD_cc: x.flags |= XF_CC; break;
		case MOD_NaN: x.flags |= XF_NAN; break;
		case MOD_uni: x.flags |= XF_UNI; break;
		case MOD_approx: x.flags |= XF_APPROX; break;
		case MOD_full: x.flags |= XF_FULL; break;
		case MOD_satfinite: x.flags |= XF_SATFINITE; break;
		case MOD_relaxed: case MOD_volatile: case MOD_mmio: x.flags |= XF_MMATOMIC; break;
		case MOD_acquire: x.flags |= XF_MMATOMIC | XF_ACQUIRE; break;
		case MOD_release: x.flags |= XF_MMATOMIC | XF_RELEASE; break;
		case MOD_relu: x.flags |= XF_RELU; break;
		case MOD_oob: x.flags |= XF_OOB; break;
		case MOD_L2_cache_hint: x.flags |= XF_L2HINT; break;
		case MOD_xorsign: x.flags |= XF_XORSIGN; break;
		case MOD_v2: x.vec = 2; break;
		case MOD_v4: x.vec = 4; break;
		case MOD_v8: x.vec = 8; break;
		}
	}
	x.ty = tys[0];
	x.ty2 = tys[1];
	x.ty3 = tys[2];
	if (in->opc == OPC_call)
		x.target = UINT32_MAX;  /* an indirect call's XSig, or a direct call's function */
	if (in->guard) {
		XOpd g = reg_opnd(w, in->guard);
		x.guard = (int32_t)g.idx;
		x.gneg = in->guard->neg;
	}
	switch (in->opc) {
	case OPC_setp: case OPC_set:
		x.sub = pick(in, sel_cmp);
		x.sub2 = pick(in, sel_bool);
		break;
	case OPC_mul: case OPC_mad: case OPC_mul24: case OPC_mad24: case OPC_madc: case OPC_dp2a:
		x.sub = pick(in, sel_hilo);
		/* mad.f32 without a rounding modifier (ops.def's GONE row) for an
		 * sm_1x target: irnd tells the executor (ops.inc, f32_arith); for
		 * later targets it is mad.rn.f32, the default rounding */
		x.irnd = in->opc == OPC_mad && x.ty == TY_f32 && f && f->gone_ptx && w->m->sm < 20;
		break;
	case OPC_shfl: case OPC_vote: case OPC_shf: case OPC_match:
		x.sub = pick(in, sel_mode);
		x.sub2 = pick(in, sel_clamp);
		break;
	case OPC_atom: case OPC_red: case OPC_redux:
		x.sub = pick(in, sel_atom);
		break;
	case OPC_bar: case OPC_barrier:
		x.sub = pick(in, sel_bar);
		x.sub2 = pick(in, sel_atom);
		if (has(in, MOD_cluster))       /* barrier.cluster.arrive, .wait */
			x.sub = has(in, MOD_arrive) ? MOD_cluster : MOD_NONE;
		if (has(in, MOD_warp))
			x.sub = MOD_warp;
		break;
	case OPC_testp:
		x.sub = pick(in, sel_testp);
		break;
	case OPC_suq:
		x.sub = pick(in, (const uint16_t[]){ MOD_width, MOD_height, MOD_depth, MOD_channel_data_type,
			MOD_channel_order, MOD_array_size, MOD_memory_layout, MOD_NONE });
		break;
	case OPC_tex:
	case OPC_tld4:
		x.sub = pick(in, (const uint16_t[]){ MOD_g1d, MOD_g2d, MOD_g3d, MOD_a1d, MOD_a2d, MOD_cube, MOD_acube,
			MOD_g2dms, MOD_a2dms, MOD_NONE });
		x.sub2 = in->opc == OPC_tex ? pick(in, (const uint16_t[]){ MOD_base, MOD_level, MOD_grad, MOD_NONE })
			 : pick(in, (const uint16_t[]){ MOD_r, MOD_g, MOD_b, MOD_a, MOD_NONE });
		x.irnd = w->m->texmode_independent;
		break;
	case OPC_txq:
		x.sub = pick(in, (const uint16_t[]){ MOD_width, MOD_height, MOD_depth, MOD_channel_data_type,
			MOD_channel_order, MOD_normalized_coords, MOD_force_unnormalized_coords, MOD_filter_mode,
			MOD_addr_mode_0, MOD_addr_mode_1, MOD_addr_mode_2, MOD_array_size, MOD_num_mipmap_levels,
			MOD_num_samples, MOD_NONE });
		x.sub2 = has(in, MOD_level) ? MOD_level : MOD_NONE;
		x.irnd = w->m->texmode_independent;
		break;
	case OPC_istypep:
		x.sub = pick(in, (const uint16_t[]){ MOD_texref, MOD_samplerref, MOD_surfref, MOD_NONE });
		break;
	case OPC_sured:
		x.imm = pick(in, sel_atom);     /* the reduction */
		/* geometry, boundary mode and .p as for suld/sust */
		__attribute__((fallthrough));
	case OPC_suld:
	case OPC_sust:
		x.sub = pick(in, (const uint16_t[]){ MOD_g1d, MOD_g2d, MOD_g3d, MOD_a1d, MOD_a2d, MOD_NONE });
		x.sub2 = pick(in, (const uint16_t[]){ MOD_trap, MOD_clamp, MOD_zero, MOD_NONE });
		x.irnd = has(in, MOD_p);        /* formatted */
		break;
	case OPC_prmt:
		x.sub = pick(in, sel_prmt);
		break;
	case OPC_bfind:
		x.sub = pick(in, sel_clamp);
		break;
	case OPC_szext:
	case OPC_bmsk:
		x.sub2 = pick(in, sel_clamp);
		break;
	case OPC_lop3:
		x.sub2 = pick(in, sel_bool);
		break;
	case OPC_cvta:
		x.sub = has(in, MOD_to);
		break;
	case OPC_cvt:
		if (has(in, MOD_pack)) {        /* cvt.pack: the narrow type */
			x.sub = MOD_pack;
			x.sub2 = pick(in, (const uint16_t[]){ MOD_u16, MOD_s16, MOD_u8, MOD_s8, MOD_u4, MOD_s4,
				MOD_u2, MOD_s2, MOD_NONE });
		}
		break;
	case OPC_vadd: case OPC_vsub: case OPC_vabsdiff: case OPC_vmin: case OPC_vmax: case OPC_vshl:
	case OPC_vshr: case OPC_vmad: case OPC_vset:
		video_fields(&x, in, false, 1);
		break;
	case OPC_vadd2: case OPC_vsub2: case OPC_vavrg2: case OPC_vabsdiff2: case OPC_vmin2: case OPC_vmax2:
	case OPC_vset2:
		video_fields(&x, in, true, 2);
		break;
	case OPC_vadd4: case OPC_vsub4: case OPC_vavrg4: case OPC_vabsdiff4: case OPC_vmin4: case OPC_vmax4:
	case OPC_vset4:
		video_fields(&x, in, true, 4);
		break;
	case OPC_ldmatrix: case OPC_stmatrix: case OPC_movmatrix:
		x.sub = has(in, MOD_trans);
		break;
	case OPC_mbarrier:
		x.sub = pick(in, (const uint16_t[]){ MOD_init, MOD_inval, MOD_arrive, MOD_arrive_drop,
			MOD_expect_tx, MOD_complete_tx, MOD_test_wait, MOD_try_wait, MOD_pending_count, MOD_NONE });
		x.sub2 = has(in, MOD_parity) ? MOD_parity : x.sub != MOD_expect_tx && has(in, MOD_expect_tx)
			 ? MOD_expect_tx : MOD_NONE;      /* arrive{_drop}.expect_tx */
		break;
	case OPC_tensormap:
		/* tensormap.replace: the field, and the dimension ordinal (an
		 * immediate) of the forms that take one; or cp_fenceproxy */
		x.sub = pick(in, (const uint16_t[]){ MOD_cp_fenceproxy, MOD_global_address, MOD_rank, MOD_box_dim, MOD_global_dim,
			MOD_global_stride, MOD_element_stride, MOD_elemtype, MOD_interleave_layout, MOD_swizzle_mode,
			MOD_fill_mode, MOD_NONE });
		if (in->nopnd == 3 && in->opnd[1].kind == OK_INT)
			x.target = (uint32_t)in->opnd[1].ival;
		break;
	case OPC_cp:
		/* cp.async: a copy, its mbarrier arrival, group bookkeeping, or bulk */
		x.sub = has(in, MOD_commit_group) || has(in, MOD_wait_group) || has(in, MOD_wait_all)
			? MOD_wait_all : has(in, MOD_prefetch) ? MOD_prefetch : has(in, MOD_bulk) ? MOD_bulk
			: has(in, MOD_mbarrier) ? MOD_arrive : MOD_async;
		x.sub2 = has(in, MOD_noinc);
		x.irnd = has(in, MOD_multicast_cluster);
		if (x.sub == MOD_bulk && has(in, MOD_reduce))
			x.sub = MOD_reduce;     /* cp.reduce.async.bulk: sub2 below */
		if (has(in, MOD_tensor))
			x.sub = MOD_tensor;     /* [tensor-map, {coordinates}]: lower_tensor */
		break;
	}
	uint16_t spm = pick(in, sel_space);
	x.sp = space_of(spm);
	if (x.sp == XS_GENERIC && ptx_mem_space(in, 0) == SP_SHARED && in->opc != OPC_ldmatrix &&
	    in->opc != OPC_stmatrix)
		x.sp = XS_SHARED;       /* cp.async.mbarrier.arrive.b64 [%r]: a shared address */
	if (in->opc == OPC_cvta || in->opc == OPC_isspacep)
		x.sub2 = x.sp;
	if (x.sp == XS_KPARAM && !w->f->entry)
		x.sp = XS_FRAME;

	/* operands */
	OpList l = { .n = 0 };
	bool fixed = in->opc == OPC_tex || in->opc == OPC_tld4 || (in->opc == OPC_cp && x.sub == MOD_tensor);
	if (in->opc == OPC_cp && fixed)
		lower_tensor(w, in, &x, &l);
	else if (fixed)
		lower_tex(w, in, &x, &l);
	const Stmt *label = NULL;
	unsigned nmem = 0;
	for (unsigned i = 0; !fixed && i < in->nopnd; i++) {
		const Opnd *o = &in->opnd[i];
		unsigned ty = opnd_type(f, i, tys);
		if (in->opc == OPC_call || (f && f->anyopnds))
			ty = TY_b64;
		MmaShape ms;
		if ((in->opc == OPC_mma && mma_decode(in->mods, in->nmods, &ms)) ||
		    (in->opc == OPC_wmma && wmma_decode(in->mods, in->nmods, &ms) && ms.what == WM_MMA)) {
			/* c's immediates: f32, f64 or 32-bit integers */
			int mt = ms.type[i < 4 ? i : 0];
			ty = i >= 4 ? TY_b32 : mt == MT_F32 ? TY_f32 : mt == MT_F64 ? TY_f64 : TY_b32;   /* mma.sp: e, f */
		}
		if (o->kind == OK_MEM && (in->opc == OPC_suld || in->opc == OPC_sust || in->opc == OPC_suq ||
					  in->opc == OPC_sured)) {
			/* [surface, coordinates]: the handle, then each coordinate */
			const Opnd *sf = o->n ? &o->elems[0] : NULL;
			if (!sf || sf->kind != OK_SYM) {
				lw_err(w, o->pos, "this surface operand is not executable yet");
				continue;
			}
			add(&l, image_handle(w, in, sf));
			const Opnd *cv = o->n > 1 ? &o->elems[1] : NULL;
			unsigned nc = 0;
			if (cv && cv->kind == OK_VEC)
				for (uint32_t k = 0; k < cv->n; k++, nc++)
					add(&l, opnd(w, in, &cv->elems[k], TY_s32));
			else if (cv)
				add(&l, opnd(w, in, cv, TY_s32)), nc = 1;
			x.target = nc;
			continue;
		}
		if (o->kind == OK_MEM && in->opc == OPC_txq) {
			add(&l, o->n ? image_handle(w, in, &o->elems[0]) : (XOpd){ XK_NONE, 0, 0, 0 });
			continue;
		}
		switch (o->kind) {
		case OK_MEM: {
			int64_t imm;
			uint8_t sp = x.sp ? x.sp : XS_GENERIC;
			XOpd a = mem_opnd(w, o, &sp, &imm);
			if (nmem == 2) {
				/* a third address (cp.async.bulk's mbarrier): a slot of its own */
				add(&l, addr_slot(w, in, a, imm));
				nmem++;
				break;
			}
			add(&l, a);
			if (nmem++ == 0) {
				x.imm = imm;
				x.sp = sp;
			} else {
				x.target = (uint32_t)imm;
				x.sub2 = sp;
			}
			break;
		}
		case OK_VEC:
			for (uint32_t k = 0; k < o->n; k++)
				add(&l, opnd(w, in, &o->elems[k], ty));
			if (in->opc == OPC_mov)
				x.vec = (uint8_t)o->n, x.sub2 = (uint16_t)(i == 0 ? 2 : 1);
			else if (!f || !f->vecmods)
				x.vec = (uint8_t)o->n;
			break;
		case OK_PIPE:
			add(&l, opnd(w, in, &o->elems[0], ty));
			add(&l, o->n > 1 ? opnd(w, in, &o->elems[1], ty) : (XOpd){ XK_NONE, 0, 0, 0 });
			break;
		case OK_LIST:
			/* call (rets), f, (args): counts go to sub / sub2 */
			if (i == 0)
				x.sub = (uint16_t)o->n;
			else
				x.sub2 = (uint16_t)o->n;
			for (uint32_t k = 0; k < o->n; k++)
				add(&l, opnd(w, in, &o->elems[k], TY_b64));
			break;
		case OK_SYM:
			if (o->res == R_LABEL) {
				const Stmt *ls = o->ref;
				if (in->opc == OPC_brx && ls->kind == ST_TARGETS) {
					x.target = (uint32_t)w->ntargets;
					x.imm = ls->nlist;
					for (uint32_t k = 0; k < ls->nlist; k++) {
						w->targets = vec_grow(w->targets, &w->captargets, w->ntargets + 1,
								      sizeof *w->targets);
						/* statement index now, instruction index after the body */
						w->targets[w->ntargets++] =
							(uint32_t)((const Stmt *)ls->list[k].ref - w->f->body);
					}
				} else if (in->opc == OPC_bra) {
					label = ls;     /* resolved after the body */
				} else if (in->opc == OPC_call) {
					x.target = call_sig(w, ls);
				}
				break;
			}
			if (o->res == R_FUNC && in->opc == OPC_call) {
				uint64_t lv = 0;
				pmap_get(&w->map, o->ref, &lv);
				x.target = (uint32_t)LV_VAL(lv);
				x.irnd = 1;     /* direct */
				break;
			}
			add(&l, opnd(w, in, o, ty));
			break;
		default:
			add(&l, opnd(w, in, o, ty));
			break;
		}
	}
	if (in->opc == OPC_cp && x.sub == MOD_bulk)     /* the source's space, which the modifiers name */
		x.sub2 = ptx_mem_space(in, 1) == SP_SHARED ? XS_SHARED : XS_GLOBAL;
	if (in->opc == OPC_tensormap && x.sub == MOD_cp_fenceproxy)   /* global <- shared::cta */
		x.sub2 = XS_SHARED;
	if (in->opc == OPC_cp && x.sub == MOD_reduce)   /* the source is shared::cta */
		x.sub2 = pick(in, cp_reductions);
	if (l.over)
		lw_err(w, in->pos, "an instruction of more than %zu operand registers is not executable yet", NELEM(l.v));
	x.n = (uint8_t)l.n;
	x.o = arena_alloc(&w->p->arena, (l.n ? l.n : 1) * sizeof *x.o);
	memcpy(x.o, l.v, l.n * sizeof *x.o);
	emit(w, x);
	w->patch[w->ncode - 1] = label;
}

/* ---- reconvergence: immediate post-dominators --------------------------- */
/* Successors of instruction i (n = the exit). */
static unsigned succs(const XFunc *f, uint32_t i, uint32_t *out)
{
	const XIns *x = &f->code[i];
	uint32_t n = f->ncode;
	unsigned k = 0;
	switch (x->op) {
	case OPC_bra:
		out[k++] = x->target;
		if (x->guard >= 0)
			out[k++] = i + 1;
		return k;
	case OPC_brx:
		for (int64_t t = 0; t < x->imm && k < 62; t++)
			out[k++] = f->targets[x->target + t];
		return k;
	case OPC_ret: case OPC_exit: case OPC_trap:
		out[k++] = n;
		if (x->guard >= 0)
			out[k++] = i + 1;
		return k;
	default:
		out[k++] = i + 1;
		return k;
	}
}

static void compute_rpc(XFunc *f)
{
	uint32_t n = f->ncode, N = n + 1;
	uint32_t *cnt = xcalloc(N + 1, sizeof *cnt), *pred, *po = xmalloc(N * sizeof *po);
	uint32_t *num = xmalloc(N * sizeof *num), *ip = xmalloc(N * sizeof *ip);
	uint32_t s[64];
	/* predecessor lists, counted then filled */
	for (uint32_t i = 0; i < n; i++) {
		unsigned k = succs(f, i, s);
		for (unsigned j = 0; j < k; j++)
			cnt[(s[j] > n ? n : s[j]) + 1]++;
	}
	for (uint32_t i = 0; i < N; i++)
		cnt[i + 1] += cnt[i];
	pred = xmalloc((cnt[N] + 1) * sizeof *pred);
	uint32_t *fill = xmalloc(N * sizeof *fill);
	memcpy(fill, cnt, N * sizeof *fill);
	for (uint32_t i = 0; i < n; i++) {
		unsigned k = succs(f, i, s);
		for (unsigned j = 0; j < k; j++)
			pred[fill[s[j] > n ? n : s[j]]++] = i;
	}
	/* postorder of the reverse graph from the exit, iteratively */
	uint32_t *stk = xmalloc(N * sizeof *stk), *it = xcalloc(N, sizeof *it), sp = 0, np = 0;
	for (uint32_t i = 0; i < N; i++)
		num[i] = UINT32_MAX;
	uint8_t *seen = xcalloc(N, 1);
	stk[sp++] = n;
	seen[n] = 1;
	while (sp) {
		uint32_t v = stk[sp - 1];
		if (cnt[v] + it[v] < cnt[v + 1]) {
			uint32_t u = pred[cnt[v] + it[v]++];
			if (!seen[u]) {
				seen[u] = 1;
				stk[sp++] = u;
			}
		} else {
			num[v] = np;
			po[np++] = v;
			sp--;
		}
	}
	/* Cooper-Harvey-Kennedy on the reverse graph */
	for (uint32_t i = 0; i < N; i++)
		ip[i] = UINT32_MAX;
	ip[n] = n;
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t k = np - 1; k-- > 0;) {           /* reverse postorder, skip exit */
			uint32_t b = po[k], nd = UINT32_MAX;
			unsigned c = succs(f, b, s);
			for (unsigned j = 0; j < c; j++) {
				uint32_t q = s[j] > n ? n : s[j];
				if (ip[q] == UINT32_MAX)
					continue;
				if (nd == UINT32_MAX) {
					nd = q;
					continue;
				}
				uint32_t a = q, bb = nd;
				while (a != bb) {
					while (num[a] < num[bb])
						a = ip[a];
					while (num[bb] < num[a])
						bb = ip[bb];
				}
				nd = a;
			}
			if (nd != UINT32_MAX && ip[b] != nd) {
				ip[b] = nd;
				changed = true;
			}
		}
	}
	f->rpc = xmalloc(N * sizeof *f->rpc);
	for (uint32_t i = 0; i < N; i++)
		f->rpc[i] = ip[i] == UINT32_MAX ? n : ip[i];    /* no way out: the exit */
	free(cnt); free(pred); free(po); free(num); free(ip); free(fill); free(stk); free(it);
	free(seen);
}

/* ---- registers read before they are written ----------------------------- */
/* Whether x writes its destination operand k in every lane it runs for (or
 * faults): the common lane-local opcodes, unguarded, 64 bits at most.  Any
 * other write may leave lanes as they were, so it kills nothing below. */
static bool kills(const XIns *x, unsigned k)
{
	const XOpd *o = &x->o[k];
	if (x->guard >= 0 || o->kind != XK_REG || o->bytes > 8 || type_bytes(x->ty) > 8 ||
	    type_bytes(x->ty2) > 8)
		return false;
	switch (x->op) {
	case OPC_ld: case OPC_ldu:
		return k < x->vec && x->n > x->vec;
	case OPC_mov:
		return k == 0 && x->sub2 != 2 && x->ty != TY_pred;
	case OPC_cvta: case OPC_cvt: case OPC_add: case OPC_sub: case OPC_mul: case OPC_mad: case OPC_fma:
	case OPC_and: case OPC_or: case OPC_xor: case OPC_not: case OPC_shl: case OPC_shr: case OPC_selp:
	case OPC_min: case OPC_max: case OPC_neg: case OPC_abs: case XOP_FRAMEADDR:
		return k == 0 && x->ty != TY_pred;
	}
	return false;
}

/* The slots of operand o (two for a 128-bit register or instruction). */
static void opd_slots(const XIns *x, const XOpd *o, uint32_t *first, uint32_t *n)
{
	*first = o->idx;
	*n = o->bytes > 8 || type_bytes(x->ty) > 8 || type_bytes(x->ty2) > 8 || type_bytes(x->ty3) > 8 ? 2 : 1;
}

/* Each instruction's shape, of those shapes.def lists. */
static void compute_shape(Prog *p, XFunc *f)
{
	f->shape = arena_alloc(&p->arena, f->ncode + 1);
	for (uint32_t i = 0; i < f->ncode; i++) {
		const XIns *x = &f->code[i];
		unsigned bits = x->ty < TY__COUNT ? isa_type[x->ty].bytes * 8u : 64u;
		bool sg = x->ty < TY__COUNT && isa_type[x->ty].kind == TK_S;
		uint8_t s = XSH_NONE;
#define SH(name, op, ty, ty2, sp, sub, sub2, n) \
		if (s == XSH_NONE && shape_is(x, op, ty, ty2, sp, sub, sub2, n, bits, sg)) \
			s = XSH_##name;
#include "shapes.def"
#undef SH
		f->shape[i] = s;
	}
}

/* Backward liveness over the instructions (compute_rpc's successors):
 * each lane follows a path of the graph, so a slot that every path from
 * an instruction writes before reading is dead there.  Every register
 * operand counts as read, but a destination that kills() writes; a lane
 * of another may be read (shfl and such) only through an operand, so
 * cross-lane readers are reads like any other.  Functions (whose return
 * values leave at the exit), brx with more targets than succs lists, and
 * programs too large for the bit sets have none (prog.h). */
uint64_t *prog_live(const XFunc *f, uint32_t *words_out)
{
	uint32_t n = f->ncode, ns = f->nslots, words = (ns + 63) / 64;
	uint32_t s[64];
	*words_out = words;
	bool all = !f->entry || !ns || (uint64_t)(n + 1) * words > (1u << 21);
	for (uint32_t i = 0; i < n && !all; i++)
		all = f->code[i].op == OPC_brx && f->code[i].imm >= 62;
	if (all)
		return NULL;
	uint64_t *live = calloc((size_t)(n + 1) * words, sizeof *live), *out = malloc(words * sizeof *out);
	if (!live || !out) {
		free(live);
		free(out);
		return NULL;
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = n; i-- > 0;) {
			const XIns *x = &f->code[i];
			memset(out, 0, words * sizeof *out);
			unsigned k = succs(f, i, s);
			for (unsigned j = 0; j < k; j++) {
				const uint64_t *q = live + (size_t)(s[j] > n ? n : s[j]) * words;
				for (uint32_t w = 0; w < words; w++)
					out[w] |= q[w];
			}
			for (unsigned j = 0; j < x->n; j++)
				if (kills(x, j))
					out[x->o[j].idx / 64] &= ~(1ull << (x->o[j].idx % 64));
			for (unsigned j = 0; j < x->n; j++) {
				uint32_t a, c;
				if (x->o[j].kind != XK_REG || kills(x, j))
					continue;
				opd_slots(x, &x->o[j], &a, &c);
				for (uint32_t b = a; b < a + c && b < ns; b++)
					out[b / 64] |= 1ull << (b % 64);
			}
			uint64_t *in = live + (size_t)i * words;
			if (memcmp(in, out, words * sizeof *out)) {
				memcpy(in, out, words * sizeof *out);
				changed = true;
			}
		}
	}
	free(out);
	return live;
}

/* f->zero: the slots live at the entry of a kernel, which may be read
 * unwritten and are zeroed when a frame starts (all of them without the
 * analysis); every path writes the others before reading them. */
static void compute_zero(XFunc *f)
{
	uint32_t n = f->ncode, ns = f->nslots, words;
	uint64_t *live = prog_live(f, &words);
	/* runs of the entry's live slots (all of them without the analysis) */
	f->zero = xmalloc((ns + 1) * sizeof *f->zero);
	f->nzero = 0;
	for (uint32_t b = 0; b < ns;) {
		bool z = !live || (n && live[b / 64] >> (b % 64) & 1);
		uint32_t e = b + 1;
		while (z && e < ns && (!live || live[e / 64] >> (e % 64) & 1))
			e++;
		if (z) {
			f->zero[f->nzero++] = b;
			f->zero[f->nzero++] = e - b;
		}
		b = e;
	}
	free(live);
}

/* ---- functions ---------------------------------------------------------- */
static void lower_func(Lw *w, XFunc *xf, const Func *f)
{
	w->xf = xf;
	w->f = f;
	w->ncode = w->nconst = 0;
	w->nslots = w->npreds = 0;
	w->frame = 0;
	w->ntargets = 0;
	rmap_clear(&w->regs);
	xf->name = sdup(w, f->name);
	xf->ast = f;
	xf->entry = f->entry;
	uint64_t top;
	if (f->entry && pmap_get(&w->ktop, f, &top)) {
		xf->shared_static = top & ~(1ull << 63);
		xf->shared_dyn = top >> 63 ? w->ext_shared : xf->shared_static;
	} else {
		xf->shared_static = xf->shared_dyn = XSMEM_RESERVED;
	}
	if (f->entry) {
		/* the checker holds the parameter space to ptxas's limit */
		uint64_t off = 0;
		xf->kparams = arena_alloc(&w->p->arena, (f->nparams + 1) * sizeof *xf->kparams);
		for (uint32_t i = 0; i < f->nparams; i++) {
			const Decl *d = &f->params[i];
			uint64_t a = decl_align(d), n = decl_bytes(d);
			off = align_up(off, a);
			pmap_put(&w->map, d, LV(LV_KPARAM, off));
			const char *tn = d->type < TY__ALL ? isa_type[d->type].name : "?";
			xf->kparams[i] = (XKParam){ sdup(w, d->name), tn, (uint32_t)off, (uint32_t)n, (uint32_t)a, d->ptr };
			off = sat_add(off, n);
		}
		if (off > UINT32_MAX)
			lw_err(w, f->pos, "kernel '%.*s' has %llu bytes of parameters", (int)f->name.n, f->name.p,
			       (unsigned long long)off);
		xf->nparams = f->nparams;
		xf->param_bytes = (uint32_t)off;
	} else {
		xf->rets = arena_alloc(&w->p->arena, (f->nrets + 1) * sizeof *xf->rets);
		xf->params = arena_alloc(&w->p->arena, (f->nparams + 1) * sizeof *xf->params);
		for (uint32_t i = 0; i < f->nrets; i++)
			xf->rets[i] = lower_formal(w, &f->rets[i]);
		for (uint32_t i = 0; i < f->nparams; i++)
			xf->params[i] = lower_formal(w, &f->params[i]);
		xf->nrets = f->nrets;
		xf->nparams = f->nparams;
	}
	if (!f->has_body)
		return;
	w->stmt_pc = xrealloc(w->stmt_pc, (f->nbody + 1) * sizeof *w->stmt_pc);
	for (uint32_t i = 0; i < f->nbody; i++)
		if (f->body[i].kind == ST_DECL)
			declare_var(w, f->body[i].decl);
	XLoc cur = { 0, 0 };
	w->any_loc = false;
	for (uint32_t i = 0; i < f->nbody && !w->err; i++) {
		const Stmt *s = &f->body[i];
		w->stmt_pc[i] = (uint32_t)w->ncode;
		if (s->kind == ST_LOC)
			source_loc(w, s, &cur);
		if (s->kind == ST_INSTR)
			lower_instr(w, s);
		w->loc = vec_grow(w->loc, &w->caploc, w->ncode + 1, sizeof *w->loc);
		for (size_t k = w->stmt_pc[i]; k < w->ncode; k++)
			w->loc[k] = cur;
	}
	w->stmt_pc[f->nbody] = (uint32_t)w->ncode;
	if (w->err)
		return;
	for (size_t i = 0; i < w->ncode; i++)
		if (w->patch[i])
			w->code[i].target = w->stmt_pc[w->patch[i] - f->body];
	for (size_t i = 0; i < w->ntargets; i++)
		w->targets[i] = w->stmt_pc[w->targets[i]];
	xf->ncode = (uint32_t)w->ncode;
	xf->code = arena_alloc(&w->p->arena, (w->ncode + 1) * sizeof *xf->code);
	if (w->ncode)
		memcpy(xf->code, w->code, w->ncode * sizeof *xf->code);
	if (w->any_loc) {
		xf->loc = arena_alloc(&w->p->arena, (w->ncode + 1) * sizeof *xf->loc);
		memcpy(xf->loc, w->loc, w->ncode * sizeof *xf->loc);
	}
	xf->nconst = (uint32_t)w->nconst;
	xf->konst = xmalloc((w->nconst + 1) * 32 * sizeof *xf->konst);
	if (w->nconst)
		memcpy(xf->konst, w->konst, w->nconst * 32 * sizeof *xf->konst);
	xf->targets = arena_alloc(&w->p->arena, (w->ntargets + 1) * sizeof *xf->targets);
	if (w->ntargets)
		memcpy(xf->targets, w->targets, w->ntargets * sizeof *xf->targets);
	xf->ntargets = (uint32_t)w->ntargets;
	xf->nslots = w->nslots;
	xf->npreds = w->npreds;
	xf->frame_bytes = align_up(w->frame, 16);
	compute_rpc(xf);
	compute_zero(xf);
	compute_shape(w->p, xf);
	xf->alone = 1;
	for (uint32_t i = 0; i < xf->ncode; i++) {
		const XIns *x = &xf->code[i];
		if (x->op == OPC_atom || x->op == OPC_red || x->op == OPC_sured || x->op == OPC_call ||
		    ((x->op == OPC_ld || x->op == OPC_ldu || x->op == OPC_st) && (x->flags & XF_MMATOMIC)))
			xf->alone = 0;
	}
	xf->lowered = 1;
}

Prog *prog_lower(const Module *m, DevMem *mem, char **err, int *code)
{
	isa_init();
	Lw w = { .m = m, .mem = mem };
	Prog *p = xcalloc(1, sizeof *p);
	w.p = p;
	p->file = m->filename;
	place_vars(&w);
	source_files(&w);
	for (uint32_t i = 0; i < m->ntop; i++)
		if (m->top[i].kind == TOP_FUNC && !m->top[i].func->proto)
			p->nfn++;
	p->fn = xcalloc(p->nfn + 1, sizeof *p->fn);
	uint32_t k = 0;
	for (uint32_t i = 0; i < m->ntop && !w.err; i++)
		if (m->top[i].kind == TOP_FUNC && !m->top[i].func->proto) {
			/* a function that cannot be lowered is marked, not fatal: the
			 * module's other kernels still run */
			lower_func(&w, &p->fn[k], m->top[i].func);
			p->fn[k++].why = w.err;
			w.err = NULL;
		}
	free(w.code);
	free(w.konst);
	free(w.stmt_pc);
	free(w.patch);
	free(w.targets);
	free(w.loc);
	pmap_free(&w.map);
	pmap_free(&w.ktop);
	rmap_free(&w.regs);
	if (w.err) {
		*err = w.err;
		*code = w.oom ? 2 /* PTXVM_ERROR_OUT_OF_MEMORY */ : 0;
		prog_free(p, mem);
		return NULL;
	}
	return p;
}

void prog_free(Prog *p, DevMem *mem)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nvars; i++)
		if (p->vars[i].sp == XS_GLOBAL)
			mem_free(mem, p->vars[i].addr, 0);
	if (p->const_bytes)
		mem_free(mem, p->const_base, 0);
	for (uint32_t i = 0; i < p->nfn; i++) {
		free(p->fn[i].konst);
		free(p->fn[i].rpc);
		free(p->fn[i].zero);
		free(p->fn[i].why);
	}
	free(p->fn);
	free(p->sregs);
	free(p->cta_sregs);
	free(p->vars);
	free(p->sigs);
	arena_free(&p->arena);
	free(p);
}

const char *prog_source(const Prog *p, const XFunc *f, uint32_t pc, uint32_t *line)
{
	if (!f->loc || pc >= f->ncode || !f->loc[pc].file)
		return NULL;
	*line = f->loc[pc].line;
	return p->files[f->loc[pc].file - 1];
}

int prog_find(const Prog *p, const char *name)
{
	for (uint32_t i = 0; i < p->nfn; i++)
		if (!strcmp(p->fn[i].name, name))
			return (int)i;
	return -1;
}
