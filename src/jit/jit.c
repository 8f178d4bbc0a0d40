/* jit.c: the compiling tier (jit.h).
 *
 * The C it writes for a program is, in order: the interpreter's source
 * (exec.c, which includes ops.inc), with EXEC_JIT set and each function of
 * the library that exec.c calls turned into a pointer the library fills
 * when it loads the object (the list is exec.o's undefined symbols, taken
 * when the library is built: jit-embed.sh); for each opcode the program
 * has, exec_one with only that opcode's cases (split.h); each instruction
 * of the program as a static const XIns, and a function for each that
 * gives the constant to exec_guard and its opcode's exec_one, inlined, so
 * what is left of it is that instruction's semantics with its type,
 * widths and operand slots known; then the dispatch, a switch over
 * (function, pc) whose cases run on into the next instruction as
 * warp_loop would go on to it, where one or more lane-local instructions
 * in a row are also one loop over the lanes (emit_group) of their forms'
 * one-lane functions (exec/lane.h).  Nothing of an opcode's meaning is
 * written here.
 */
#include "jit.h"
#include "split.h"
#include "jit-incs.h"           /* the headers exec.c includes (jit-embed.sh) */
#include "../exec/warp.h"
#include "../util/util.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Made when the library is built (jit-embed.sh): the files exec.c is
 * compiled from, as (path, text) pairs ending with NULL, and the names of
 * the library's symbols it uses, one a line. */
extern const char *const jit_files[];
extern const char jit_symnames[];

/* The library's side of those symbols, in the same order. */
static void *const jit_symtab[] = {
#define JS(n) (void *)&n,
#include "jit-syms.h"
#undef JS
};

/* The generator writes every field of these; a field added to either must
 * be added to emit_ins too. */
_Static_assert(sizeof(XIns) == 56 && offsetof(XIns, src) == 48, "XIns changed: update emit_ins");
_Static_assert(sizeof(XOpd) == 8 && offsetof(XOpd, idx) == 4, "XOpd changed: update emit_ins");

struct Jit {
	void *dl;
	JitRun run;
	uint8_t *ok;            /* per function: every instruction compiled */
	uint8_t *kok;           /* per function: as a kernel, it runs compiled */
	const char **why;       /* per function: why not */
	const Prog *p;
	uint32_t nfn;
};

int jit_env(void)
{
	const char *e = getenv("PTXVM_JIT");
	if (!e || !*e)
		return -1;
	return strcmp(e, "0") != 0;
}

/* 64-bit FNV-1a, twice with different seeds: the cache's key, not a
 * defence (the cache directory is the user's own, jit_cache_dir). */
static void hash_add(uint64_t h[2], const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h[0] = (h[0] ^ (uint8_t)s[i]) * 0x100000001b3ull;
		h[1] = (h[1] ^ (uint8_t)s[i]) * 0x100000001b3ull;
	}
}

static void hash_hex(const uint64_t h[2], char out[33])
{
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
}

/* Why the tier leaves instruction x to the interpreter, or NULL. */
static const char *not_compiled(const XIns *x)
{
	if (x->op >= XOP__COUNT || exec_unsupported(x))
		return "an instruction the interpreter refuses";
	return NULL;
}

static void emit_ins(Buf *b, const XIns *x)
{
	buf_printf(b, "{ .op = %u, .ty = %u, .ty2 = %u, .ty3 = %u, .sp = %u, .rnd = %u, .irnd = %u, .flags = %u, "
		   ".sub = %u, .sub2 = %u, .vec = %u, .n = %u, .guard = %d, .gneg = %u, .bits = %u, .sg = %u, "
		   ".target = %uu, .imm = (int64_t)0x%llxull, .line = %uu, .o = (XOpd *)(const XOpd[]){ ",
		   x->op, x->ty, x->ty2, x->ty3, x->sp, x->rnd, x->irnd, x->flags, x->sub, x->sub2, x->vec, x->n,
		   (int)x->guard, x->gneg, x->bits, x->sg, x->target, (unsigned long long)x->imm, x->line);
	for (unsigned i = 0; i < x->n; i++)
		buf_printf(b, "{ %u, %u, %u, %uu }, ", x->o[i].kind, x->o[i].neg, x->o[i].bytes, x->o[i].idx);
	if (!x->n)
		buf_puts(b, "{ 0 }");
	buf_puts(b, "} }");
}

/* The program's C, and which functions it covers. */
/* jo_K: exec_one for the opcodes of key (split.h), a group of each
 * switch or none. */
static void emit_one(Buf *b, const Split *sp, const int *key, unsigned k)
{
	buf_printf(b, "static inline __attribute__((always_inline)) int jo_%u(Ctx *X, Entry *e, uint32_t m, "
		   "uint32_t act)\n{\n", k);
	for (unsigned i = 0; i < sp->nseg; i++) {
		const SplitSeg *g = &sp->seg[i];
		if (g->text) {
			buf_put(b, g->text, g->len);
			continue;
		}
		buf_puts(b, "\tswitch (xk->op) {\n");
		if (key[g->sw] >= 0)
			buf_put(b, sp->sw[g->sw].group[key[g->sw]].text, sp->sw[g->sw].group[key[g->sw]].len);
		buf_puts(b, "\t}\n");
	}
}

/* The longest run of instructions one function holds (see generate). */
#define JIT_RUN_MAX 48

/* Whether x is a load a group can take: ld.param of one element of at
 * most 64 bits, unguarded and plain, at an address every lane shares (a
 * parameter's name plus an offset), read once before the group's loop
 * (param_at). */
static bool ldp(const XIns *x)
{
	return x->op == OPC_ld && x->sp == XS_KPARAM && x->vec == 1 && x->bits <= 64 && !(x->flags & XF_MMATOMIC) &&
	       x->guard < 0 && x->n == 2 && x->o[0].kind == XK_REG &&
	       (x->o[1].kind == XK_NONE || x->o[1].kind == XK_CONST);
}

/* Whether instruction x can run in a group (emit_group): a parameter's
 * load (ldp), or unguarded, of a lane-local form (lane.h), its operands
 * registers, constants or special registers, and predicates where the
 * form has them (setp's destination, selp's last source, every operand of
 * and, or, xor .pred). */
static bool fusable(const XIns *x)
{
	if (ldp(x))
		return true;
	unsigned f = lane_form(x);
	if (x->guard >= 0 || f == LF_NONE || x->n < 2 || x->n > 4 || (f == LF_SELP && x->n != 4))
		return false;
	for (unsigned k = 0; k < x->n; k++) {
		bool pred = x->ty == TY_pred || (k == 0 && f == LF_SETP) || (k == 3 && f == LF_SELP);
		unsigned kind = x->o[k].kind;
		if (pred ? kind != XK_PRED || (k == 0 && x->o[k].neg)
			 : kind != XK_REG && (k == 0 || (kind != XK_CONST && kind != XK_SREG)))
			return false;
	}
	return true;
}

/* A register slot of a group (emit_group), and whether the group has read
 * it from memory or written it. */
typedef struct GSlot {
	uint8_t kind;
	uint32_t idx;
	bool read, written;
} GSlot;

/* The index of operand o's slot among the n of sl, added if new. */
static unsigned gslot(GSlot *sl, unsigned *n, const XOpd *o)
{
	unsigned t = 0;
	while (t < *n && !(sl[t].kind == o->kind && sl[t].idx == o->idx))
		t++;
	if (t == *n)
		sl[(*n)++] = (GSlot){ o->kind, o->idx, false, false };
	return t;
}

/* Instructions g0..g1 of function f, each fusable, as one loop over the
 * lanes: each lane's values in locals from one instruction to the next,
 * the slots read where the group first needs them and written once, at
 * the end of the lane, where live after it (live: prog_live's row of
 * g1 + 1, NULL for all; a dead one no path reads before it is written
 * again, in whichever tier); a predicate the group writes a lane's bit, its
 * mask written after the loop, one it reads first the mask before the
 * group.  Each instruction's result is lane_value (lane_raw for a
 * predicate), the semantics exec_one gives its form; a parameter (ldp) is
 * read once before the loop, where param_at admits it, as ld's own case
 * reads it; where it does not, the group leaves all to the instructions'
 * own cases before it has done anything.  The group runs where its run
 * took the budget at once (!each, see generate): it is counted at once
 * as its instructions are one by one (exec_count), and then goes on at
 * g1 + 1 (or returns, g1 the run's last, rlast); else each instruction
 * runs as its own case below it. */
static void emit_group(Buf *b, const XFunc *fn, uint32_t f, uint32_t g0, uint32_t g1, uint32_t rlast,
		       const uint64_t *live)
{
	enum { NS = 4 * JIT_RUN_MAX };
	GSlot sl[NS];
	struct { uint32_t idx, by; } pw[NS];    /* each predicate written, by the q of instruction by */
	unsigned ns = 0, np = 0;
	Buf par = { 0 }, pre = { 0 }, body = { 0 }, post = { 0 };
	for (uint32_t i = g0; i <= g1; i++) {
		const XIns *x = &fn->code[i];
		unsigned form = lane_form(x);
		if (ldp(x)) {
			buf_printf(&par, "\t\t\tconst uint8_t *const pp%u = param_at(X->c->L, addr_at(X, &jc_%u[%u], 1, 0), %uu);\n",
				   i, f, i, x->bits / 8);
			buf_printf(&pre, "\t\t\tconst uint64_t u%u = ext(load_le(pp%u, %uu), jc_%u[%u].ty);\n", i, i,
				   x->bits / 8, f, i);
			unsigned t = gslot(sl, &ns, &x->o[0]);
			buf_printf(&body, "\t\t\t\t%sv%u = u%u;\n", sl[t].read || sl[t].written ? "" : "uint64_t ", t, i);
			sl[t].written = true;
			continue;
		}
		char a[3][32] = { "0", "0", "0" }, k[16] = "0";
		for (unsigned o = 1; o < x->n; o++) {
			const XOpd *op = &x->o[o];
			if (op->kind == XK_PRED) {
				unsigned t = 0;
				while (t < np && pw[t].idx != op->idx)
					t++;
				if (t < np)
					snprintf(a[o - 1], sizeof a[o - 1], "%sq%u", op->neg ? "!" : "", pw[t].by);
				else {
					buf_printf(&pre, "\t\t\tconst uint32_t m%u_%u = pred_read(X, &jc_%u[%u].o[%u]);\n",
						   i, o, f, i, o);
					snprintf(a[o - 1], sizeof a[o - 1], "(m%u_%u >> l & 1)", i, o);
				}
				continue;
			}
			unsigned t = gslot(sl, &ns, op);
			if (!sl[t].read && !sl[t].written) {
				buf_printf(&body, "\t\t\t\tuint64_t v%u = s%u[l];\n", t, t);
				sl[t].read = true;
			}
			snprintf(a[o - 1], sizeof a[o - 1], "v%u", t);
		}
		if (form == LF_CVTA) {
			buf_printf(&pre, "\t\t\tconst uint64_t k%u = cvta_off(X, &jc_%u[%u]);\n", i, f, i);
			snprintf(k, sizeof k, "k%u", i);
		}
		const XOpd *d = &x->o[0];
		if (d->kind == XK_PRED) {
			buf_printf(&pre, "\t\t\tuint32_t p%u = 0;\n", i);
			buf_printf(&body, "\t\t\t\tuint32_t q%u = (uint32_t)lane_raw(%u, &jc_%u[%u], %s, %s, %s, 0);\n"
				   "\t\t\t\tp%u |= q%u << l;\n", i, form, f, i, a[0], a[1], a[2], i, i);
			buf_printf(&post, "\t\t\tpred_write(X, &jc_%u[%u].o[0], m, p%u);\n", f, i, i);
			unsigned t = 0;
			while (t < np && pw[t].idx != d->idx)
				t++;
			if (t == np)
				pw[np++].idx = d->idx;
			pw[t].by = i;
			continue;
		}
		unsigned t = gslot(sl, &ns, d);
		buf_printf(&body, "\t\t\t\t%sv%u = lane_value(%u, &jc_%u[%u], %s, %s, %s, %s);\n",
			   sl[t].read || sl[t].written ? "" : "uint64_t ", t, form, f, i, a[0], a[1], a[2], k);
		sl[t].written = true;
	}
	buf_puts(b, "\t\tif (!each) {\n");
	if (par.len) {
		/* a parameter xlate is to decide on: the instructions' own cases,
		 * from g0, with the budget the group took */
		buf_put(b, par.p, par.len);
		buf_puts(b, "\t\t\tif (");
		for (uint32_t i = g0, n = 0; i <= g1; i++)
			if (ldp(&fn->code[i]))
				buf_printf(b, "%s!pp%u", n++ ? " || " : "", i);
		buf_printf(b, ") {\n\t\t\t\t*budget += %uu;\n\t\t\t\teach = true;\n\t\t\t\tgoto jb_%u_%u;\n\t\t\t}\n",
			   rlast - g0, f, g0);
	}
	buf_printf(b, "\t\t\texec_count(X, m, &jc_%u[%u], %uu, nidle, nwarp);\n", f, g1, g1 - g0 + 1);
	buf_put(b, pre.p, pre.len);
	for (unsigned t = 0; t < ns; t++) {
		buf_printf(b, "\t\t\tuint64_t *const s%u = X->base[%u] + (size_t)%uu * 32;\n", t, sl[t].kind, sl[t].idx);
		if (sl[t].written && (!live || sl[t].kind != XK_REG || live[sl[t].idx / 64] >> (sl[t].idx % 64) & 1))
			buf_printf(&body, "\t\t\t\ts%u[l] = v%u;\n", t, t);
	}
	buf_puts(b, "\t\t\tLANES_EW(m, {\n");
	buf_put(b, body.p, body.len);
	buf_puts(b, "\t\t\t});\n");
	buf_put(b, post.p, post.len);
	buf_free(&pre);
	buf_free(&body);
	buf_free(&post);
	buf_printf(b, "\t\t\te->pc = %u;\n", g1 + 1);
	if (g1 == rlast)
		buf_puts(b, "\t\t\treturn RUN_GO;\n\t\t}\n");
	else
		buf_printf(b, "\t\t\tgoto jl_%u_%u;\n\t\t}\n", f, g1 + 1);
	if (par.len)
		buf_printf(b, "\tjb_%u_%u:\n", f, g0);
	buf_free(&par);
}

/* false: out of host memory */
static bool generate(const Prog *p, const XFunc *k, const Split *sp, Jit *j, Buf *b)
{
	buf_puts(b, "/* generated by ptxvm's compiling tier (src/jit/jit.c) */\n"
		 "#include <stdint.h>\n"
		 "#define EXEC_JIT 1\n"
		 "struct Ctx; struct Entry; struct XIns; struct XFunc; struct Prog;\n"
		 "static inline __attribute__((always_inline)) int jit_step(struct Ctx *, struct Entry *, uint32_t,"
		 " uint64_t *, uint64_t *, uint64_t *);\n"
		 "static const struct XIns *jit_real(const struct Prog *, const struct XFunc *, const struct XIns *);\n"
		 "#define EXEC_STEP(X, e, m, nidle, nwarp, budget) jit_step(X, e, m, nidle, nwarp, budget)\n"
		 "#define EXEC_REAL_INS(p, fn, x) jit_real(p, fn, x)\n");
	for (const char *s = jit_symnames; *s;) {
		const char *nl = strchr(s, '\n');
		buf_printf(b, "#define %.*s (*jit_p_%.*s)\n", (int)(nl - s), s, (int)(nl - s), s);
		s = nl + 1;
	}
	buf_puts(b, "#include \"src/exec/exec.c\"\n");
	for (const char *s = jit_symnames; *s;) {
		const char *nl = strchr(s, '\n');
		buf_printf(b, "__typeof__(jit_p_%.*s) jit_p_%.*s;\n", (int)(nl - s), s, (int)(nl - s), s);
		s = nl + 1;
	}
	buf_puts(b, "__attribute__((visibility(\"default\"))) void ptxvm_jit_bind(void *const *t)\n{\n");
	unsigned t = 0;
	for (const char *s = jit_symnames; *s; t++) {
		const char *nl = strchr(s, '\n');
		buf_printf(b, "\tjit_p_%.*s = (__typeof__(jit_p_%.*s))t[%u];\n", (int)(nl - s), s, (int)(nl - s), s, t);
		s = nl + 1;
	}
	buf_puts(b, "}\n");

	/* the functions kernel k may reach: the targets of its direct calls,
	 * and of theirs; every function where there is an indirect call */
	uint8_t *reach = calloc(p->nfn + 1, 1);
	if (!reach)
		return false;
	reach[k - p->fn] = 1;
	for (bool more = true; more;) {
		more = false;
		for (uint32_t f = 0; f < p->nfn; f++)
			for (uint32_t i = 0; reach[f] && p->fn[f].lowered && i < p->fn[f].ncode; i++) {
				const XIns *x = &p->fn[f].code[i];
				for (uint32_t g = 0; x->op == OPC_call && g < p->nfn; g++)
					if (!reach[g] && !p->fn[g].entry && (!x->irnd || g == x->target))
						reach[g] = 1, more = true;
			}
	}
	/* the instructions */
	bool all = true;        /* every function k may reach compiles */
	for (uint32_t f = 0; f < p->nfn; f++) {
		const XFunc *fn = &p->fn[f];
		if (!reach[f]) {
			j->why[f] = fn->entry ? "another kernel" : "not called";
			continue;
		}
		j->ok[f] = fn->lowered && fn->code && !fn->why;
		if (!j->ok[f]) {       /* a call to it faults, as interpreted */
			j->why[f] = "not lowered";
			continue;
		}
		for (uint32_t i = 0; i < fn->ncode && j->ok[f]; i++)
			if ((j->why[f] = not_compiled(&fn->code[i])))
				j->ok[f] = 0;
		all &= j->ok[f];
		if (!j->ok[f])
			continue;
		buf_printf(b, "static const XIns jc_%u[%u] = {\n", f, fn->ncode ? fn->ncode : 1);
		for (uint32_t i = 0; i < fn->ncode; i++) {
			buf_putc(b, '\t');
			emit_ins(b, &fn->code[i]);
			buf_puts(b, ",\n");
		}
		buf_puts(b, "};\n");
	}
	free(reach);
	uint32_t kf = (uint32_t)(k - p->fn);
	j->kok[kf] = j->ok[kf] && all;
	if (j->ok[kf] && !all)
		j->why[kf] = "it calls a function the tier leaves to the interpreter";

	/* the way back from a copy to the program's instruction */
	buf_puts(b, "static const struct XIns *jit_real(const struct Prog *p, const struct XFunc *fn, "
		 "const struct XIns *x)\n{\n\t(void)p;\n");
	for (uint32_t f = 0; f < p->nfn; f++)
		if (j->ok[f])
			buf_printf(b, "\tif (x >= jc_%u && x < jc_%u + %u)\n\t\treturn &fn->code[x - jc_%u];\n", f, f,
				   p->fn[f].ncode, f);
	buf_puts(b, "\treturn x;\n}\n");
	/* the copies, for the library's check that they are the program's */
	buf_puts(b, "__attribute__((visibility(\"default\"))) const XIns *ptxvm_jit_code(uint32_t f)\n{\n"
		 "\tswitch (f) {\n");
	for (uint32_t f = 0; f < p->nfn; f++)
		if (j->ok[f])
			buf_printf(b, "\tcase %u: return jc_%u;\n", f, f);
	buf_puts(b, "\t}\n\treturn 0;\n}\n");

	/* exec_one as each opcode needs it (split.h), once per opcode the
	 * program has */
	int key[256], *keys = NULL;
	unsigned nkeys = 0, nsw = sp->nsw, *kof = calloc(XOP__COUNT, sizeof *kof);
	bool ok = kof != NULL;
	for (uint32_t f = 0; ok && f < p->nfn; f++)
		for (uint32_t i = 0; ok && j->ok[f] && i < p->fn[f].ncode; i++) {
			unsigned op = p->fn[f].code[i].op;
			if (kof[op])
				continue;
			split_key(sp, op, key);
			unsigned n = 0;
			while (n < nkeys && memcmp(&keys[n * nsw], key, nsw * sizeof *key))
				n++;
			if (n == nkeys) {
				int *nk = realloc(keys, (nkeys + 1) * nsw * sizeof *nk);
				if (!(ok = nk != NULL))
					break;
				keys = nk;
				memcpy(&keys[nkeys++ * nsw], key, nsw * sizeof *key);
				emit_one(b, sp, key, n);
			}
			kof[op] = n + 1;
		}
	free(keys);
	if (!ok) {
		free(kof);
		return false;
	}
	/* each instruction a function the runs below inline */
	for (uint32_t f = 0; f < p->nfn; f++)
		for (uint32_t i = 0; j->ok[f] && i < p->fn[f].ncode; i++) {
			unsigned op = p->fn[f].code[i].op;
			buf_printf(b, "static inline __attribute__((always_inline)) int ji_%u_%u(Ctx *X, Entry *e, "
				   "uint32_t m, uint64_t *nidle, uint64_t *nwarp)\n{\n\treturn jo_%u(X, e, m, exec_guard(X, m, "
				   "&jc_%u[%u], nidle, nwarp));\n}\n", f, i, kof[op] - 1, f, i);
		}

	/* the dispatch.  A run is a stretch of instructions that goes on from
	 * one to the next as warp_loop would: after an instruction outside
	 * exec_one's control flow that returned RUN_GO (the same entry, at the
	 * next pc), unless the next is where an entry may end, the launch
	 * stops or the budget is spent.  Each run is a function of its own, a
	 * switch on the pc whose cases fall into the next, so that the
	 * compiler keeps what the instructions share (the frame, the mask)
	 * across them, while its work (time and memory) grows with the
	 * program's length and only with the square of a run's, which
	 * JIT_RUN_MAX bounds; per function, a table of the pc finds the run.
	 * Where the budget covers the rest of the run and the launch goes
	 * on, the run takes that much of the budget when it starts and does
	 * not test it, nor the stop flag, between its instructions (which
	 * warp_loop tests after the run): the budget it took is exact if the
	 * run ends at its last instruction, and no longer counts if it ends
	 * early, since warp_loop then returns.  A stop another worker asks
	 * for is seen up to JIT_RUN_MAX instructions later than warp_loop
	 * would see it, as a stop that comes during the run of one of
	 * warp_loop's instructions is seen after it. */
	buf_puts(b, "static __attribute__((noinline, cold)) int jit_lost(Ctx *X, Entry *e)\n{\n"
		 "\texec_fault(X->c, X->w, NULL, -1, PTXVM_ERROR_ILLEGAL_INSTRUCTION,\n"
		 "\t\t   \"the compiled code has no instruction %u of '%s'\", e->pc, X->f->fn->name);\n"
		 "\treturn RUN_FAULT;\n}\n"
		 "static inline __attribute__((always_inline)) int jit_on(Ctx *X, uint64_t *budget)\n{\n"
		 "\tif (atomic_load_explicit(&X->c->L->stop, memory_order_relaxed) || !*budget)\n"
		 "\t\treturn 0;\n\t--*budget;\n\treturn 1;\n}\n");
	for (uint32_t f = 0; f < p->nfn; f++) {
		const XFunc *fn = &p->fn[f];
		if (!j->ok[f])
			continue;
		uint8_t *meet = calloc(fn->ncode + 1, 1);
		uint32_t words;
		uint64_t *live = prog_live(fn, &words);     /* NULL: every slot live */
		if (!meet) {
			free(live);
			free(kof);
			return false;
		}
		/* meet bit 1, where an entry may end: the meeting points the
		 * control flow gives its entries (fn->rpc of its instructions:
		 * lowering gives every instruction one), the instruction after a
		 * call (lanes calling different functions wait there), and the
		 * exit */
		for (uint32_t i = 0; i < fn->ncode; i++)
			if (!split_straight(sp, fn->code[i].op)) {
				if (fn->rpc && fn->rpc[i] <= fn->ncode)
					meet[fn->rpc[i]] = 1;
				meet[i + 1] = 1;
			}
		meet[fn->ncode] = 1;
		/* bit 2, where a branch enters a run: a group starts there or
		 * not before (a loop's head in the middle of one would leave the
		 * loop to the instructions' own cases) */
		for (uint32_t i = 0; i < fn->ncode; i++) {
			const XIns *x = &fn->code[i];
			if (x->op == OPC_bra && x->target < fn->ncode)
				meet[x->target] |= 2;
			if (x->op == OPC_brx)
				for (int64_t q = 0; q < x->imm; q++)
					if (fn->targets[x->target + q] < fn->ncode)
						meet[fn->targets[x->target + q]] |= 2;
		}
		Buf d = { 0 };         /* jt_: the run of each pc */
		buf_printf(&d, "static int (*const jt_%u[%u])(Ctx *, Entry *, uint32_t, uint64_t *, uint64_t *, "
			   "uint64_t *) = {\n", f, fn->ncode ? fn->ncode : 1);
		for (uint32_t r = 0, i; r < fn->ncode; r = i) {
			uint32_t last = r;      /* the run is r..last */
			while (split_straight(sp, fn->code[last].op) && !(meet[last + 1] & 1) && last + 1 - r < JIT_RUN_MAX)
				last++;
			Buf rb = { 0 };         /* the run's cases */
			/* a group (emit_group) from i to g >= i, where the run has
			 * fusable instructions in a row, each also a case of its
			 * own (the run may be entered at any of them); one alone is
			 * a group too, its slots and form constants where its own
			 * case reads them from the instruction */
			uint32_t next = r;      /* where the next group may start */
			for (i = r; i <= last; i++) {
				buf_printf(&rb, "\tcase %u:\n", i);
				if (i == next && i > r && fusable(&fn->code[i - 1]))
					buf_printf(&rb, "\tjl_%u_%u:\n", f, i);     /* after a group */
				uint32_t g = i;
				bool grp = i >= next && fusable(&fn->code[i]);
				if (grp)
					while (g < last && fusable(&fn->code[g + 1]) && !(meet[g + 1] & 2))
						g++;
				if (grp) {
					emit_group(&rb, fn, f, i, g, last, live ? live + (size_t)(g + 1) * words : NULL);
					next = g + 1;
				}
				if (i == last)
					buf_printf(&rb, "\t\treturn ji_%u_%u(X, e, m, nidle, nwarp);\n", f, i);
				else
					buf_printf(&rb, "\t\ts = ji_%u_%u(X, e, m, nidle, nwarp);\n"
						   "\t\tif (s != RUN_GO || (each && !jit_on(X, budget)))\n\t\t\treturn s;\n",
						   f, i);
			}
			i = last;
			buf_printf(b, "static __attribute__((noinline)) int jr_%u_%u(Ctx *X, Entry *e, uint32_t m, "
				   "uint64_t *nidle, uint64_t *nwarp, uint64_t *budget)\n{\n\tint s;\n\t(void)s;\n"
				   "\tuint64_t left = %uu - e->pc;\n"
				   "\tbool each = left && (*budget < left || "
				   "atomic_load_explicit(&X->c->L->stop, memory_order_relaxed));\n"
				   "\tif (!each)\n\t\t*budget -= left;\n"
				   "\tswitch (e->pc) {\n", f, r, i);
			buf_put(b, rb.p, rb.len);
			buf_free(&rb);
			i++;
			buf_puts(b, "\t}\n\treturn jit_lost(X, e);\n}\n");
			buf_printf(&d, "\t[%u ... %u] = jr_%u_%u,\n", r, i - 1, f, r);
		}
		buf_printf(&d, "};\nstatic inline __attribute__((always_inline)) int jf_%u(Ctx *X, Entry *e, uint32_t m, "
			   "uint64_t *nidle, uint64_t *nwarp, uint64_t *budget)\n{\n"
			   "\treturn e->pc < %uu ? jt_%u[e->pc](X, e, m, nidle, nwarp, budget) : jit_lost(X, e);\n}\n",
			   f, fn->ncode, f);
		buf_put(b, d.p, d.len);
		buf_free(&d);
		free(meet);
		free(live);
	}
	free(kof);
	/* the function's runs: where the tier compiles kernel k alone (it
	 * calls nothing), every frame is k's */
	buf_puts(b, "static inline __attribute__((always_inline)) int jit_step(Ctx *X, Entry *e, uint32_t m, "
		 "uint64_t *nidle, uint64_t *nwarp, uint64_t *budget)\n{\n");
	unsigned nok = 0;
	for (uint32_t f = 0; f < p->nfn; f++)
		nok += j->ok[f];
	if (nok == 1 && j->ok[kf])
		buf_printf(b, "\treturn jf_%u(X, e, m, nidle, nwarp, budget);\n}\n", kf);
	else {
		buf_puts(b, "\tswitch (X->f->fn - X->c->L->p->fn) {\n");
		for (uint32_t f = 0; f < p->nfn; f++)
			if (j->ok[f])
				buf_printf(b, "\tcase %u: return jf_%u(X, e, m, nidle, nwarp, budget);\n", f, f);
		buf_puts(b, "\t}\n\treturn jit_lost(X, e);\n}\n");
	}
	buf_puts(b, "__attribute__((visibility(\"default\"))) int ptxvm_jit_run(Cta *c, Warp *w, uint64_t budget)\n{\n"
		 "\treturn warp_loop(c, w, budget);\n}\n");
	return true;
}

/* ---- the cache ---------------------------------------------------------- */

/* PTXVM_CACHE_DIR, else $XDG_CACHE_HOME/ptxvm, else ~/.cache/ptxvm; made
 * (0700) if absent.  A directory another user can write is refused:
 * whatever lies in it is loaded into this process. */
static bool cache_dir(char *out, size_t n, char *why, size_t wn)
{
	const char *d = getenv("PTXVM_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	if (d && *d)
		snprintf(out, n, "%s", d);
	else if (x && *x)
		snprintf(out, n, "%s/ptxvm", x);
	else if (h && *h)
		snprintf(out, n, "%s/.cache/ptxvm", h);
	else {
		snprintf(why, wn, "no cache directory: set PTXVM_CACHE_DIR, XDG_CACHE_HOME or HOME");
		return false;
	}
	if (strchr(out, '\'')) {
		snprintf(why, wn, "the cache directory '%.300s' has a quote in its name", out);
		return false;
	}
	/* make the path, each missing component 0700 */
	for (char *s = out + 1;; s++) {
		if (*s == '/' || !*s) {
			char c = *s;
			*s = 0;
			if (mkdir(out, 0700) && errno != EEXIST) {
				snprintf(why, wn, "cannot make the cache directory '%.300s': %s", out, strerror(errno));
				*s = c;
				return false;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	struct stat st;
	if (stat(out, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(why, wn, "the cache directory '%.300s' is not a directory of this user that only it can write",
			 out);
		return false;
	}
	return true;
}

static bool write_file(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(text, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

/* The interpreter's sources under dir/src-HASH, written once. */
static bool write_sources(const char *dir, const char *h, char *out, size_t n, char *why, size_t wn)
{
	snprintf(out, n, "%s/src-%s", dir, h);
	struct stat st;
	if (!stat(out, &st))
		return true;
	char tmp[4300];
	snprintf(tmp, sizeof tmp, "%s.%ld", out, (long)getpid());
	for (size_t i = 0; jit_files[i]; i += 2) {
		char path[4600];
		snprintf(path, sizeof path, "%s/%s", tmp, jit_files[i]);
		for (char *s = path + strlen(tmp) + 1; (s = strchr(s, '/')); s++) {
			*s = 0;
			mkdir(tmp, 0700);
			mkdir(path, 0700);
			*s = '/';
		}
		if (!write_file(path, jit_files[i + 1], strlen(jit_files[i + 1]))) {
			snprintf(why, wn, "cannot write '%.300s': %s", path, strerror(errno));
			return false;
		}
	}
	if (rename(tmp, out) && stat(out, &st)) {
		snprintf(why, wn, "cannot rename '%.300s': %s", tmp, strerror(errno));
		return false;
	}
	if (!stat(tmp, &st)) {  /* another process was first: remove ours */
		char cmd[4400];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
		if (system(cmd))
			(void)0;
	}
	return true;
}

/* Whether a directory of PATH holds an executable name. */
static bool on_path(const char *name)
{
	const char *p = getenv("PATH");
	while (p && *p) {
		size_t n = strcspn(p, ":");
		char f[4096];
		if (n && n < sizeof f - strlen(name) - 2) {
			snprintf(f, sizeof f, "%.*s/%s", (int)n, p, name);
			if (!access(f, X_OK))
				return true;
		}
		p += n + (p[n] == ':');
	}
	return false;
}

/* PTXVM_CC, else clang where PATH has it, else cc.  Clang narrows a lane
 * loop's 64-bit slots to 32-bit values with fewer shuffles than GCC 12
 * (docs/ARCHITECTURE.md, "The compiling tier"): 10-22% fewer host
 * instructions in the block reduction, the matrix multiply and the
 * stencil. */
static const char *jit_cc(void)
{
	const char *cc = getenv("PTXVM_CC");
	if (cc && *cc)
		return cc;
	return on_path("clang") ? "clang" : "cc";
}

/* -O2, and on an x86-64 host with AVX2 -mavx2, as the interpreter's
 * shaped copies are built (exec.c's SHAPE_CLONES): the lane loops on 64-bit
 * slots need it to go four lanes at a time (sign extension, 64-bit
 * comparisons, the coalescing test of a warp's addresses).  With FMA too,
 * -mfma: fmaf is then one instruction, and a group's fma.rn.f32 stays in
 * its loop over the lanes; products and sums are not fused, as compile's
 * -ffp-contract=off forbids it.  With POPCNT, -mpopcnt: a count of a
 * mask's lanes (exec_count) is then one instruction.  Not -march=native,
 * whose tuning on some hosts turns lane loops into slow gathers. */
static const char *jit_cflags(void)
{
	const char *f = getenv("PTXVM_JIT_CFLAGS");
	if (f && *f)
		return f;
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
		return __builtin_cpu_supports("fma") ? "-O2 -mavx2 -mfma -mpopcnt" : "-O2 -mavx2 -mpopcnt";
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return "-O2 -mavx2 -mfma";
	if (__builtin_cpu_supports("avx2"))
		return "-O2 -mavx2";
#endif
	return "-O2";
}

/* Runs the compiler; its messages go to log. */
static bool compile(const char *src, const char *inc, const char *so, const char *log, char *why, size_t wn)
{
	char *cmd;
	if (asprintf(&cmd, "exec %s -std=gnu11 -D_GNU_SOURCE %s -ffp-contract=off -fPIC -shared "
		     "-fvisibility=hidden -w -I'%s' -o '%s' '%s' >'%s' 2>&1", jit_cc(), jit_cflags(), inc, so, src,
		     log) < 0) {
		snprintf(why, wn, "out of host memory");
		return false;
	}
	char *argv[] = { "sh", "-c", cmd, NULL };
	pid_t pid;
	int e = posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ);
	free(cmd);
	if (e) {
		snprintf(why, wn, "cannot run the compiler: %s", strerror(e));
		return false;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(why, wn, "cannot wait for the compiler: %s", strerror(errno));
			return false;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		snprintf(why, wn, code == 127 ? "no C compiler ('%.300s' not found; set PTXVM_CC)"
			 : "the C compiler '%s' failed (its messages: %s)", jit_cc(), log);
		return false;
	}
	return true;
}

/* Whether the compiled copies of the instructions are the program's,
 * byte for byte but for the pointers: a field of XIns that emit_ins does
 * not write makes the tier refuse the program, loudly, instead of running
 * something else. */
static bool same_code(const Prog *p, const Jit *j, const XIns *(*code)(uint32_t), char *why, size_t wn)
{
	for (uint32_t f = 0; code && f < p->nfn; f++) {
		const XIns *c = j->ok[f] ? code(f) : NULL;
		for (uint32_t i = 0; c && i < p->fn[f].ncode; i++) {
			const XIns *x = &p->fn[f].code[i];
			XIns a, r;
			memcpy(&a, &c[i], sizeof a);
			memcpy(&r, x, sizeof r);
			a.o = r.o = NULL;
			a.src = r.src = NULL;
			if (memcmp(&a, &r, sizeof a) || (x->n && memcmp(c[i].o, x->o, x->n * sizeof *x->o))) {
				snprintf(why, wn, "the compiled copy of instruction %u of '%s' differs from it (a field of "
					 "XIns that src/jit/jit.c does not write)", i, p->fn[f].name);
				return false;
			}
		}
	}
	if (!code)
		snprintf(why, wn, "the compiled code has no ptxvm_jit_code");
	return code != NULL;
}

Jit *jit_compile(const Prog *p, const XFunc *k, JitInfo *info)
{
	double t0 = exec_now();
	info->hit = false;
	info->why[0] = 0;
	Jit *j = calloc(1, sizeof *j);
	if (!j || !(j->ok = calloc(p->nfn + 1, 1)) || !(j->kok = calloc(p->nfn + 1, 1)) ||
	    !(j->why = calloc(p->nfn + 1, sizeof *j->why))) {
		snprintf(info->why, sizeof info->why, "out of host memory");
		jit_free(j);
		return NULL;
	}
	j->nfn = p->nfn;
	j->p = p;

	/* the key: the sources, the compiler and its flags, the program's C */
	uint64_t hs[2] = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
	for (size_t i = 0; jit_files[i]; i++)
		hash_add(hs, jit_files[i], strlen(jit_files[i]) + 1);
	hash_add(hs, jit_symnames, strlen(jit_symnames));
	char sh[33], kh[33];
	hash_hex(hs, sh);
	const char *ops = NULL;
	for (size_t i = 0; jit_files[i]; i += 2)
		if (!strcmp(jit_files[i], "src/exec/ops.inc"))
			ops = jit_files[i + 1];
	Split sp;
	if (!ops) {
		snprintf(info->why, sizeof info->why, "the library was built without src/exec/ops.inc's text");
		jit_free(j);
		info->seconds = exec_now() - t0;
		return NULL;
	}
	if (!split_exec_one(ops, &sp, info->why, sizeof info->why)) {
		jit_free(j);
		info->seconds = exec_now() - t0;
		return NULL;
	}
	Buf b = { 0 };
	bool gen = generate(p, k, &sp, j, &b);
	split_free(&sp);
	if (!gen) {
		snprintf(info->why, sizeof info->why, "out of host memory");
		goto fail;
	}
	uint64_t hk[2] = { hs[0], hs[1] };
	hash_add(hk, jit_cc(), strlen(jit_cc()) + 1);
	hash_add(hk, jit_cflags(), strlen(jit_cflags()) + 1);
	hash_add(hk, b.p, b.len);
	hash_hex(hk, kh);

	/* the compiler takes about 0.1 s an instruction: a bound on what a
	 * launch waits for */
	uint64_t nins = 0, max = 2000;
	const char *mx = getenv("PTXVM_JIT_MAX_INS");
	if (mx && *mx)
		max = strtoull(mx, NULL, 10);
	for (uint32_t f = 0; f < p->nfn; f++)
		nins += j->ok[f] ? p->fn[f].ncode : 0;
	if (nins > max) {
		snprintf(info->why, sizeof info->why, "%llu instructions with the functions it may call: more than the "
			 "compiling tier takes (PTXVM_JIT_MAX_INS, %llu)", (unsigned long long)nins,
			 (unsigned long long)max);
		goto fail;
	}
	char dir[4096], inc[4200], so[4400], path[4400], log[4400];
	if (!cache_dir(dir, sizeof dir, info->why, sizeof info->why))
		goto fail;
	snprintf(so, sizeof so, "%s/%s.so", dir, kh);
	struct stat st;
	if (!stat(so, &st)) {
		info->hit = true;
	} else {
		if (!write_sources(dir, sh, inc, sizeof inc, info->why, sizeof info->why))
			goto fail;
		long pid = (long)getpid();
		snprintf(path, sizeof path, "%s/%s.%ld.c", dir, kh, pid);
		snprintf(log, sizeof log, "%s/%s.log", dir, kh);
		char tmp[4500];
		snprintf(tmp, sizeof tmp, "%s/%s.%ld.so", dir, kh, pid);
		if (!write_file(path, b.p, b.len)) {
			snprintf(info->why, sizeof info->why, "cannot write '%.300s': %s", path, strerror(errno));
			goto fail;
		}
		bool ok = compile(path, inc, tmp, log, info->why, sizeof info->why);
		if (getenv("PTXVM_JIT_KEEP"))   /* keep the C for reading */
			snprintf(log, sizeof log, "%s/%s.c", dir, kh), rename(path, log);
		else
			unlink(path);
		if (!ok || rename(tmp, so)) {
			if (ok)
				snprintf(info->why, sizeof info->why, "cannot rename '%.300s': %s", tmp, strerror(errno));
			unlink(tmp);
			goto fail;
		}
		snprintf(log, sizeof log, "%s/%s.log", dir, kh);
		unlink(log);
	}
	j->dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	void (*bind)(void *const *) = j->dl ? (void (*)(void *const *))dlsym(j->dl, "ptxvm_jit_bind") : NULL;
	j->run = j->dl ? (JitRun)dlsym(j->dl, "ptxvm_jit_run") : NULL;
	if (!bind || !j->run) {
		const char *e = dlerror();
		snprintf(info->why, sizeof info->why, "cannot load '%.300s': %s", so, e ? e : "no entry points");
		goto fail;
	}
	bind(jit_symtab);
	if (!same_code(p, j, (const XIns *(*)(uint32_t))dlsym(j->dl, "ptxvm_jit_code"), info->why, sizeof info->why))
		goto fail;
	buf_free(&b);
	info->seconds = exec_now() - t0;
	return j;
fail:
	buf_free(&b);
	jit_free(j);
	info->seconds = exec_now() - t0;
	return NULL;
}

JitRun jit_kernel(const Jit *j, const XFunc *k, const char **why)
{
	size_t f = (size_t)(k - j->p->fn);
	*why = NULL;
	if (f < j->nfn && j->kok[f])
		return j->run;
	*why = f < j->nfn && j->why[f] ? j->why[f] : "not compiled";
	return NULL;
}

void jit_free(Jit *j)
{
	if (!j)
		return;
	if (j->dl)
		dlclose(j->dl);
	free(j->ok);
	free(j->kok);
	free(j->why);
	free(j);
}
