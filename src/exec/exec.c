/* exec.c: the warp interpreter.
 *
 * warp_run() takes the top of a warp's reconvergence stack and executes
 * one instruction for the active lanes, in a loop over the lanes, until
 * the warp blocks, yields or ends.  Each case of the big switch is the
 * specification of its opcode, as the PTX ISA manual states it, with the
 * undocumented choices named and kept in docs/EXECUTION.md.
 */
#include "warp.h"
#include "lane.h"
#include "../lower/shape.h"
#include "fp.h"
#include "mma.h"
#include "printf.h"
#include "san.h"
#include "../atom/atom.h"
#include "../surf/surf.h"
#include "../tex/tex.h"
#include "../tmap/tmap.h"
#include "../../include/ptxvm.h"

#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FULL 0xffffffffu

/* Runs body for each lane l of mask m (lane order); hint, pragmas for the
 * full warp's loop. */
#define LANES_HINTED(m, hint, ...) do { \
	uint32_t _m = (m); \
	if (_m == FULL) { \
		hint \
		for (unsigned l = 0; l < 32; l++) { __VA_ARGS__; } \
	} else { \
		while (_m) { \
			unsigned l = (unsigned)__builtin_ctz(_m); \
			_m &= _m - 1; \
			__VA_ARGS__; \
		} \
	} \
} while (0)
#define LANES(m, ...) LANES_HINTED(m, , __VA_ARGS__)

/* LANES for a body that reads and writes lane l alone (of slots, which
 * are disjoint or the same, never overlapping otherwise): the full warp's
 * loop is then free of dependencies between lanes, and the compiler may
 * run several lanes at once without checking the slots for overlap. */
#if defined(__clang__) && defined(EXEC_JIT)
/* the compiling tier's code, built with -w: clang's ivdep, eight lanes at
 * a time (as GCC takes them; clang's own choice, four, narrows each slot
 * to 32 bits in a register of half the width: the FMA loop 15% more host
 * instructions than with eight) */
#define LANES_IVDEP _Pragma("clang loop vectorize(assume_safety) vectorize_width(8)")
#define LANES_UNROLL
#elif defined(__clang__)
#define LANES_IVDEP     /* clang's equivalent warns where it cannot vectorise */
#define LANES_UNROLL    /* clang unrolls such loops itself */
#else
#define LANES_IVDEP _Pragma("GCC ivdep")
#define LANES_UNROLL _Pragma("GCC unroll 4")
#endif
#define LANES_EW(m, ...) LANES_HINTED(m, LANES_IVDEP LANES_UNROLL, __VA_ARGS__)

/* D[l] = extb(expr, bits, sg) for the lanes of act, with the usual widths
 * as loops of their own (no variable shift per lane). */
#define EXT_LANES(act, D, bits, sg, expr) do { \
	if ((bits) == 32 && (sg)) \
		LANES_EW(act, D[l] = (uint64_t)(int64_t)(int32_t)(expr)); \
	else if ((bits) == 32) \
		LANES_EW(act, D[l] = (uint32_t)(expr)); \
	else if ((bits) == 64) \
		LANES_EW(act, D[l] = (uint64_t)(expr)); \
	else \
		LANES_EW(act, D[l] = extb(expr, bits, sg)); \
} while (0)

/* D[l] = lane_value(f, xk, a, b, c, k) for the lanes of act (lane.h), a,
 * b and c expressions of the lane l, f a constant: the extension's loop
 * chosen once, as EXT_LANES chooses it. */
#define FORM_LANES(act, f, D, a, b, c, k) do { \
	unsigned eb_; \
	bool es_; \
	lane_ext(f, xk, &eb_, &es_); \
	EXT_LANES(act, D, eb_, es_, lane_raw(f, xk, a, b, c, k)); \
} while (0)

static inline double f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t bf64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* The number of lanes of a mask, inline (without -mpopcnt the builtin is a
 * library call; with it, as the compiling tier builds where the host has
 * it, one instruction). */
static inline unsigned popc32(uint32_t v)
{
#ifdef __POPCNT__
	return (unsigned)__builtin_popcount(v);
#else
	v = v - ((v >> 1) & 0x55555555u);
	v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
	return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
#endif
}

/* ---- faults ------------------------------------------------------------- */
static void instr_text(const XIns *x, char *buf, size_t n)
{
	size_t k = 0;
	const Instr *in = x->src;
	if (!in) {
		snprintf(buf, n, "?");
		return;
	}
	k += (size_t)snprintf(buf, n, "%s", isa_op[in->opc].name);
	for (unsigned i = 0; i < in->nmods && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, ".%s", isa_mod_name[in->mods[i]]);
}

/* The program's instruction that x stands for: the compiling tier runs
 * constant copies (src/jit), without the source statement (x->src), and
 * maps them back for the report and for the statements that mma, wmma,
 * wgmma and shfl decode. */
#ifndef EXEC_REAL_INS
#define EXEC_REAL_INS(p, fn, x) (x)
#endif

void exec_fault(Cta *c, const Warp *w, const XIns *x, int lane, int code, const char *fmt, ...)
{
	Launch *L = c->L;
	pthread_mutex_lock(&L->lock);
	if (!L->code) {
		char msg[1024], ins[128] = "";
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		Buf b = { 0 };
		buf_printf(&b, "%s: kernel '%s'", ptxvm_result_name((ptxvm_result)code), L->k->name);
		buf_printf(&b, ", CTA (%u,%u,%u)", c->id[0], c->id[1], c->id[2]);
		if (w && lane >= 0) {
			uint32_t t = w->idx * 32 + (uint32_t)lane;
			uint32_t bx = L->block[0], by = L->block[1];
			buf_printf(&b, ", thread (%u,%u,%u)", t % bx, t / bx % by, t / (bx * by));
		}
		if (x) {
			const XFunc *fn = w && w->nfr ? w->fr[w->nfr - 1].fn : L->k;
			x = EXEC_REAL_INS(L->p, fn, x);
			instr_text(x, ins, sizeof ins);
			buf_printf(&b, ", %s at %s:%u", ins, L->p->file, x->line);
			uint32_t line;
			const char *src = prog_source(L->p, fn, (uint32_t)(x - fn->code), &line);
			if (src)
				buf_printf(&b, " (%s:%u)", src, line);
			if (fn != L->k)
				buf_printf(&b, " (in function '%s')", fn->name);
		}
		buf_printf(&b, ": %s", msg);
		L->code = code;
		L->report = b.p;
	}
	atomic_store(&L->stop, 1);
	pthread_mutex_unlock(&L->lock);
}

/* ---- memory ------------------------------------------------------------- */
static const char *space_word[] = { "", "global", "shared", "local", "const", "param", "local", "generic" };

/* Where an access of n bytes at a (in space sp, the window's offset for
 * shared and local memory) falls, for a fault report: how far past the
 * end of the nearest allocation or before its start, and why shared
 * memory may be too small. */
static void out_of_bounds(const Cta *c, unsigned sp, uint64_t a, unsigned n, char *buf, size_t len)
{
	const Launch *L = c->L;
	const Alloc *al = sp == XS_GLOBAL ? mem_nearest(L->mem, a) : NULL;
	if (al && a >= al->base) {
		snprintf(buf, len, "is %llu bytes past the end of a %llu-byte allocation at 0x%llx",
			 (unsigned long long)(a + n - al->base - al->size), (unsigned long long)al->size,
			 (unsigned long long)al->base);
	} else if (al) {
		snprintf(buf, len, "is %llu bytes before a %llu-byte allocation at 0x%llx",
			 (unsigned long long)(al->base - a), (unsigned long long)al->size, (unsigned long long)al->base);
	} else if (sp == XS_SHARED) {
		uint64_t own = L->shared_bytes - XSMEM_RESERVED - L->dyn_shared;
		int k = snprintf(buf, len, "is %llu bytes past the end of the CTA's %u bytes of shared memory (%u "
				 "reserved, %llu static, %u dynamic)", (unsigned long long)(a + n - L->shared_bytes),
				 L->shared_bytes, XSMEM_RESERVED, (unsigned long long)own, L->dyn_shared);
		if (!L->dyn_shared && L->p->dyn_shared && k > 0 && (size_t)k < len)
			snprintf(buf + k, len - (size_t)k, "; the launch gave no dynamic shared memory: the module's "
				 "extern __shared__ array has 0 bytes unless the launch sizes it (--shared BYTES, "
				 "ptxvm_launch_config.shared_bytes, the third <<<>>> argument)");
	} else {
		snprintf(buf, len, "is outside every allocation");
	}
}

/* Why xlate_span refuses an access. */
enum { XF_MISALIGNED, XF_CONST_STORE, XF_BOUNDS };

/* Reports an access that xlate_span refuses; kept out of its path. */
static __attribute__((noinline, cold)) uint8_t *xlate_fault(Cta *c, Warp *w, const XIns *x, unsigned l,
							     unsigned osp, unsigned sp, uint64_t orig, uint64_t a,
							     unsigned n, unsigned align, bool wr, int why)
{
	Launch *L = c->L;
	if (why == XF_MISALIGNED) {
		if (L->chk)
			san_invalid(c, w, x, l, sp, orig, n, wr, true, NULL);
		exec_fault(c, w, x, (int)l, PTXVM_ERROR_MISALIGNED_ADDRESS,
			   "%s address 0x%llx is not aligned to the %u-byte %s", space_word[osp],
			   (unsigned long long)orig, align, align == n ? "access" : "boundary it needs");
	} else if (why == XF_CONST_STORE) {
		exec_fault(c, w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
			   "store to constant memory at 0x%llx", (unsigned long long)orig);
	} else {
		char where[512];
		out_of_bounds(c, sp, a, n, where, sizeof where);
		if (L->chk)
			san_invalid(c, w, x, l, sp, orig, n, wr, false, where);
		exec_fault(c, w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS, "%s %s of %u bytes at 0x%llx %s",
			   space_word[osp], wr ? "store" : "load", n, (unsigned long long)orig, where);
	}
	return NULL;
}

/* The allocation that holds [a, a + n) among those the CTA's last global
 * accesses hit, or NULL. */
static inline const Alloc *alloc_cached(const Cta *c, uint64_t a, uint64_t n)
{
	for (unsigned i = 0; i < sizeof c->last / sizeof *c->last; i++) {
		const Alloc *al = c->last[i];
		if (al && a >= al->base && a - al->base <= al->size && n <= al->size - (a - al->base))
			return al;
	}
	return NULL;
}

/* Whether global memory at a, n bytes, is the device's alone: not memory
 * the host reaches itself (mapped host memory, managed memory:
 * ALLOC_BORROWED; a __managed__ variable: ALLOC_HOST).  For an access
 * xlate_warp or xlate_span has just admitted, so cached. */
static inline bool device_only(const Cta *c, uint64_t a, uint64_t n)
{
	const Alloc *al = alloc_cached(c, a, n);
	return al && !(al->flags & (ALLOC_BORROWED | ALLOC_HOST));
}

/* Makes al the most recent of c->last. */
static void alloc_remember(Cta *c, const Alloc *al)
{
	memmove(&c->last[1], &c->last[0], sizeof c->last - sizeof *c->last);
	c->last[0] = al;
}

/* The host address of an access of n bytes aligned to align (a power of
 * two) by lane l, or NULL after a fault.  With checks on (c->chk), global
 * and shared accesses leave the fast path (no allocation is cached in
 * c->last, c->shared_lim is 0) and are shown to the checks (san.h); without
 * them, the fast path is what it would be without checks at all. */
static uint8_t *xlate_span(Cta *c, Warp *w, const XIns *x, unsigned l, unsigned sp, uint64_t a,
			   unsigned n, unsigned align, bool wr)
{
	Launch *L = c->L;
	uint64_t orig = a;
	unsigned osp = sp;
	if (sp == XS_FRAME) {
		a += w->fr[w->nfr - 1].lbase;
		sp = XS_LOCAL;
	} else if (sp == XS_GENERIC) {
		if (mem_in_window(a, MEM_SHARED_BASE))
			sp = XS_SHARED, a -= MEM_SHARED_BASE;
		else if (mem_in_window(a, MEM_LOCAL_BASE))
			sp = XS_LOCAL, a -= MEM_LOCAL_BASE;
		else if (mem_in_window(a, MEM_PARAM_BASE))
			sp = XS_KPARAM, a -= MEM_PARAM_BASE;
		else
			sp = XS_GLOBAL;
	}
	if (a & (align - 1))
		return xlate_fault(c, w, x, l, osp, sp, orig, a, n, align, wr, XF_MISALIGNED);
	switch (sp) {
	case XS_GLOBAL: {
		const Alloc *al = alloc_cached(c, a, n);
		if (!al) {
			al = mem_find(L->mem, a, n);
			if (!al)
				break;
			if (!c->chk)
				alloc_remember(c, al);
			else if (!wr || al->kind != ALLOC_CONST)  /* checks: every access comes this way */
				san_access(c, w, x, l, al, a - al->base, n, wr);
		}
		if (wr && al->kind == ALLOC_CONST)
			return xlate_fault(c, w, x, l, osp, sp, orig, a, n, align, wr, XF_CONST_STORE);
		return al->host + (a - al->base);
	}
	case XS_CONST:
		if (a <= L->p->const_bytes && n <= L->p->const_bytes - a && !wr)
			return mem_host(L->mem, L->p->const_base + a, n);
		break;
	case XS_SHARED: {
		/* the shared::cluster window: CTA rank r's memory at
		 * (r + 1) << CLUSTER_SHIFT, mapa's results (docs/EXECUTION.md) */
		const Cta *t = c;
		if (a >> CLUSTER_SHIFT) {
			uint64_t r = (a >> CLUSTER_SHIFT) - 1;
			if (r >= c->cl->n) {
				exec_fault(c, w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
					   "%s %s of %u bytes at 0x%llx: shared::cluster address of CTA rank %llu, in a "
					   "cluster of %u CTAs", space_word[osp], wr ? "store" : "load", n,
					   (unsigned long long)orig, (unsigned long long)r, c->cl->n);
				return NULL;
			}
			t = &c->cl->cta[r];
			a &= CLUSTER_OFFSET;
		}
		if (a <= t->shared_lim && n <= t->shared_lim - a)
			return t->shared + a;
		if (c->chk && a <= L->shared_bytes && n <= L->shared_bytes - a) {
			if (t == c)     /* checks: every access of the CTA's own memory comes this way */
				san_access(c, w, x, l, NULL, a, n, wr);
			return t->shared + a;
		}
		break;
	}
	case XS_LOCAL:
		if (a <= L->local_bytes && n <= L->local_bytes - a)
			return c->local + (size_t)(w->idx * 32 + l) * L->local_bytes + a;
		break;
	case XS_KPARAM:
		if (a <= L->param_bytes && n <= L->param_bytes - a && !wr)
			return (uint8_t *)L->params + a;
		break;
	}
	return xlate_fault(c, w, x, l, osp, sp, orig, a, n, align, wr, XF_BOUNDS);
}

/* A warp's access, translated once: the addresses of the lanes of an
 * access, from lo to hi (their OR any), each of n bytes aligned to align.
 * When every lane's bytes lie in one
 * allocation (or the CTA's shared memory, the parameter buffer, the
 * constant bank) and every address is aligned, sets *delta so that lane
 * l's bytes are at host address a[l] + *delta and *space is the space
 * they are in (generic resolved), and returns true.  Else
 * false: the caller goes lane by lane with xlate_span, which reports the
 * first lane that faults exactly (the lane, address and allocation).  Local
 * memory, whose host address differs per lane, always goes lane by lane;
 * so do global and shared accesses when checks are on (c->chk), for the
 * checks see accesses in xlate_span alone.
 * This is the one place a warp's access is checked as a whole.  Inlined
 * into each access, whose space, width and direction are then constants:
 * the check of a global load is its allocation's bounds and little else. */
static inline __attribute__((always_inline)) bool xlate_warp(Cta *c, unsigned sp, uint64_t lo, uint64_t hi, uint64_t any, unsigned n,
		       unsigned align, bool wr, uintptr_t *delta, unsigned *space)
{
	const Launch *L = c->L;
	if (any & (align - 1) || hi > UINT64_MAX - n)
		return false;
	uint64_t bias = 0;      /* guest window base: host = a - bias + host(space) */
	if (sp == XS_GENERIC) {
		if (lo >= MEM_GLOBAL_BASE)
			sp = XS_GLOBAL;         /* every window lies below the allocations */
		else if (mem_in_window(lo, MEM_SHARED_BASE) && mem_in_window(hi, MEM_SHARED_BASE))
			sp = XS_SHARED, bias = MEM_SHARED_BASE;
		else if (mem_in_window(lo, MEM_PARAM_BASE) && mem_in_window(hi, MEM_PARAM_BASE))
			sp = XS_KPARAM, bias = MEM_PARAM_BASE;
		else
			return false;
	}
	uint64_t s0 = lo - bias, len = hi + n - lo;
	uint8_t *h;
	switch (sp) {
	case XS_GLOBAL: {
		const Alloc *al = alloc_cached(c, s0, len);
		if (!al) {
			al = mem_find(L->mem, s0, len);
			if (!al || c->chk)
				return false;   /* checks: lane by lane, through xlate_span (san.h) */
			alloc_remember(c, al);
		}
		if (wr && al->kind == ALLOC_CONST)
			return false;
		h = al->host + (s0 - al->base);
		break;
	}
	case XS_CONST:
		if (wr || s0 > L->p->const_bytes || len > L->p->const_bytes - s0 ||
		    !(h = mem_host(L->mem, L->p->const_base + s0, len)))
			return false;
		break;
	case XS_SHARED:         /* shared_lim: 0 with checks, which see accesses lane by lane */
		if (s0 > c->shared_lim || len > c->shared_lim - s0)
			return false;
		h = c->shared + s0;
		break;
	case XS_KPARAM:
		if (wr || s0 > L->param_bytes || len > L->param_bytes - s0)
			return false;
		h = (uint8_t *)L->params + s0;
		break;
	default:
		return false;
	}
	*delta = (uintptr_t)h - (uintptr_t)lo;
	*space = sp;
	return true;
}

static inline uint8_t *at(uint64_t a, uintptr_t delta)
{
	return (uint8_t *)(uintptr_t)(a + delta);
}

/* The host address of an access of n bytes (a power of two), aligned to n. */
static inline uint8_t *xlate(Cta *c, Warp *w, const XIns *x, unsigned l, unsigned sp, uint64_t a,
			     unsigned n, bool wr)
{
	return xlate_span(c, w, x, l, sp, a, n, n, wr);
}

/* Every plain ld/st of guest memory goes through load_le and store_le: a
 * race between the guest's threads on them is the guest's (undefined in PTX
 * as in C, docs/EXECUTION.md), so ThreadSanitizer is told to pass over
 * these two (tests/tsan.supp) and over nothing else of the executor. */
static inline uint64_t load_le(const uint8_t *p, unsigned n)
{
	switch (n) {
	case 1: return *p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static inline void store_le(uint8_t *p, uint64_t v, unsigned n)
{
	switch (n) {
	case 1: *p = (uint8_t)v; break;
	case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
	case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

/* ---- frames and the reconvergence stack --------------------------------- */
/* Room for one more entry on w's stack; false (the launch failed) without
 * host memory. */
static __attribute__((noinline, cold)) bool grow_stack(Warp *w)
{
	uint32_t cap = w->capst ? w->capst * 2 : 8;
	Entry *st = cap > w->capst ? realloc(w->st, (size_t)cap * sizeof *st) : NULL;
	if (!st) {
		exec_fault(w->cta, w, NULL, -1, PTXVM_ERROR_OUT_OF_MEMORY,
			   "no host memory for a reconvergence stack of %u entries", w->nst + 1);
		return false;
	}
	w->st = st;
	w->capst = cap;
	return true;
}

/* Pushes an entry; pointers into the stack are stale afterwards.  Without
 * host memory the launch fails (the entry is not pushed, and the warp
 * stops at its next instruction).  Inline, its growth apart: a call was
 * a tenth of a warp's start in vector add. */
static inline __attribute__((always_inline)) void push(Warp *w, uint32_t pc, uint32_t rpc, uint32_t mask)
{
	if (w->nst + 1 > w->capst && !grow_stack(w))
		return;
	w->st[w->nst++] = (Entry){ pc, rpc, mask };
}

/* Host bytes of the registers of one activation of fn (a warp's). */
static uint64_t frame_regs(const XFunc *fn)
{
	return ((uint64_t)fn->nslots * 32 + 1) * sizeof(uint64_t) + ((uint64_t)fn->npreds + 1) * sizeof(uint32_t);
}

int exec_resources(const Launch *L, char *msg, size_t n)
{
	uint64_t per_warp = frame_regs(L->k) + ((uint64_t)L->p->nsregs * 32 + 1) * sizeof(uint64_t);
	uint64_t cta = per_warp * L->nwarps;
	if (cta <= EXEC_MAX_REGS)
		return 0;
	snprintf(msg, n, "%u registers and %u predicates per thread need %llu MiB for a CTA of %u threads, more "
		 "than its limit of %llu MiB", L->k->nslots, L->k->npreds, (unsigned long long)(cta >> 20),
		 L->nthreads, EXEC_MAX_REGS >> 20);
	return 1;
}

/* Room for n elements of size sz at *p, which holds *cap, zeroed if clear:
 * the memory of an earlier frame or warp is reused; false without host
 * memory (*p unchanged). */
static inline bool room(void **p, size_t *cap, size_t n, size_t sz, bool clear)
{
	if (n > *cap) {
		void *q = calloc(n, sz);
		if (!q)
			return false;
		free(*p);
		*p = q;
		*cap = n;
		return true;
	}
	if (clear)
		memset(*p, 0, n * sz);
	return true;
}

/* Room for one more frame on w's; false without host memory. */
static __attribute__((noinline, cold)) bool grow_frames(Warp *w)
{
	uint32_t cap = w->capfr ? w->capfr * 2 : 4;
	Frame *fr = realloc(w->fr, (size_t)cap * sizeof *fr);
	if (!fr)
		return false;
	memset(fr + w->capfr, 0, (size_t)(cap - w->capfr) * sizeof *fr);
	w->fr = fr;
	w->capfr = cap;
	return true;
}

/* A new frame for fn, its predicates zeroed and the registers that may be
 * read before they are written (fn->zero); false (nothing pushed) without
 * host memory.  Inline, its growth apart, as push. */
static inline __attribute__((always_inline)) bool push_frame(Warp *w, const XFunc *fn, uint32_t lbase,
							     uint32_t call_pc, uint32_t mask)
{
	if (w->nfr + 1 > w->capfr && !grow_frames(w))
		return false;
	Frame *f = &w->fr[w->nfr];
	void *r = f->r, *p = f->p;
	if (!room(&r, &f->rcap, (size_t)fn->nslots * 32 + 1, sizeof(uint64_t), false) ||
	    (f->r = r, !room(&p, &f->pcap, (size_t)fn->npreds + 1, sizeof(uint32_t), true)))
		return false;
	for (uint32_t i = 0; i < fn->nzero; i += 2)
		memset((uint64_t *)r + (size_t)fn->zero[i] * 32, 0, (size_t)fn->zero[i + 1] * 32 * sizeof(uint64_t));
	w->cta->reg_bytes += frame_regs(fn);
	*f = (Frame){ .fn = fn, .r = r, .p = p, .rcap = f->rcap, .pcap = f->pcap, .lbase = lbase,
		      .depth = w->nst, .call_pc = call_pc, .mask = mask };
	w->nfr++;
	return true;
}

/* Pops the top frame; its host memory stays for the next push. */
static void pop_frame(Warp *w)
{
	Frame *f = &w->fr[--w->nfr];
	w->cta->reg_bytes -= frame_regs(f->fn);
}

/* The value of special register sreg (component comp) in warp idx, for
 * those that are the same in every lane (warp_init sets the others). */
static inline __attribute__((always_inline)) uint64_t sreg_value(const Cta *c, unsigned sreg, unsigned comp, uint32_t idx)
{
	const Launch *L = c->L;
	switch (sreg) {
	case SREG_ntid: return comp < 3 ? L->block[comp] : 0;
	case SREG_ctaid: return comp < 3 ? c->id[comp] : 0;
	case SREG_nctaid: return comp < 3 ? L->grid[comp] : 0;
	case SREG_warpid: return idx;
	case SREG_nwarpid: return 64;
	case SREG_smid: return c->worker;
	case SREG_nsmid: return L->workers;
	case SREG_gridid: return L->grid_id;
	case SREG_clusterid: return comp < 3 ? c->id[comp] / L->cluster[comp] : 0;
	case SREG_nclusterid: return comp < 3 ? L->grid[comp] / L->cluster[comp] : 0;
	case SREG_cluster_ctaid: return comp < 3 ? c->id[comp] % L->cluster[comp] : 0;   /* fixed by rank */
	case SREG_cluster_nctaid: return comp < 3 ? L->cluster[comp] : 0;
	case SREG_cluster_ctarank: return c->rank;      /* a Cta of a worker keeps its rank */
	case SREG_cluster_nctarank: return L->ncl;
	case SREG_is_explicit_cluster: return L->explicit_cluster;
	case SREG_total_smem_size: return L->shared_bytes - XSMEM_RESERVED;
	case SREG_aggr_smem_size: return L->shared_bytes;
	case SREG_dynamic_smem_size: return L->dyn_shared;
	case SREG_reserved_smem_offset_begin: return 0;
	case SREG_reserved_smem_offset_end: return XSMEM_OFFSET_END;
	case SREG_reserved_smem_offset_cap: return XSMEM_RESERVED;
	case SREG_reserved_smem_offset_0: return 0;
	case SREG_reserved_smem_offset_1: return XSMEM_OFFSET_1;
	case SREG_envreg1: return (uint32_t)(L->grid_ws >> 32);
	case SREG_envreg2: return (uint32_t)L->grid_ws;
	case SREG_current_graph_exec: return L->graph ? L->graph->exec : 0;
	default: return 0;     /* %pm*, other %envreg*: zero */
	}
}

void cta_sreg_values(Cta *c)
{
	const Prog *p = c->L->p;
	for (uint32_t k = 0; k < p->ncta_sregs; k++) {
		const XSreg *s = &p->sregs[p->cta_sregs[k]];
		c->ctav[k] = sreg_value(c, s->sreg, s->comp ? s->comp - 1u : 0, 0);
	}
}

bool warp_init(Cta *c, Warp *w, uint32_t idx)
{
	Launch *L = c->L;
	/* the host memory of this Warp's last use is kept (warp_fini) */
	Entry *st = w->st;
	Frame *fr = w->fr;
	uint64_t *sreg = w->sreg;
	uint32_t capst = w->capst, capfr = w->capfr;
	size_t sregcap = w->sregcap;
	/* a Warp serves one launch (its worker's), always as warp idx: only the
	 * registers that name the CTA change from one CTA to the next */
	bool sreg_set = w->sreg_set && w->idx == idx;
	memset(w, 0, offsetof(Warp, scratch));  /* in place: a compound literal would be a copy of its own */
	w->cta = c, w->idx = idx, w->st = st, w->capst = capst, w->fr = fr, w->capfr = capfr, w->sreg = sreg;
	w->sregcap = sregcap;
	uint32_t first = idx * 32, n = L->nthreads - first < 32 ? L->nthreads - first : 32;
	w->valid = n == 32 ? FULL : (1u << n) - 1;
	const Prog *p = L->p;
	void *sr = w->sreg;
	bool ok = sreg_set || room(&sr, &w->sregcap, (size_t)p->nsregs * 32 + 1, sizeof *w->sreg, true);
	w->sreg = sr;
	if (!ok || !push_frame(w, L->k, 0, 0, w->valid)) {
		exec_fault(c, NULL, NULL, -1, PTXVM_ERROR_OUT_OF_MEMORY,
			   "no host memory for the registers of warp %u (%u registers per thread)", idx, L->k->nslots);
		return false;
	}
	w->lsp = (uint32_t)L->k->frame_bytes;
	push(w, 0, L->k->ncode, w->valid);
	w->fr[0].depth = 0;
	w->state = W_RUN;
	if (sreg_set) {
		for (uint32_t k = 0; k < p->ncta_sregs; k++) {
			uint64_t v = c->ctav[k], *s = w->sreg + (size_t)p->cta_sregs[k] * 32;
			if (s[0] != v)  /* guest code cannot write them: %ctaid.y of a 1D grid stays */
				LANES_EW(FULL, s[l] = v);       /* vectorised: the loop was half of warp_init */
		}
		w->sreg_set = true;
		return w->nst == 1;
	}
	uint32_t bx = L->block[0], by = L->block[1];
	/* %tid of each lane: the first by division, the others counting on */
	uint32_t tid[32][3], tx = first % bx, ty = first / bx % by, tz = first / (bx * by);
	for (unsigned l = 0; l < 32; l++) {
		tid[l][0] = tx, tid[l][1] = ty, tid[l][2] = tz;
		if (++tx == bx && (tx = 0, ++ty == by))
			ty = 0, tz++;
	}
	for (uint32_t i = 0; i < p->nsregs; i++) {
		uint64_t *s = w->sreg + (size_t)i * 32;
		unsigned comp = p->sregs[i].comp ? p->sregs[i].comp - 1u : 0;
		switch (p->sregs[i].sreg) {
		case SREG_tid:
			for (unsigned l = 0; l < 32; l++)
				s[l] = comp < 3 ? tid[l][comp] : 0;
			break;
		case SREG_laneid:
			for (unsigned l = 0; l < 32; l++)
				s[l] = l;
			break;
		case SREG_lanemask_eq:
			for (unsigned l = 0; l < 32; l++)
				s[l] = 1u << l;
			break;
		case SREG_lanemask_le:
			for (unsigned l = 0; l < 32; l++)
				s[l] = l == 31 ? FULL : (2u << l) - 1;
			break;
		case SREG_lanemask_lt:
			for (unsigned l = 0; l < 32; l++)
				s[l] = (1u << l) - 1;
			break;
		case SREG_lanemask_ge:
			for (unsigned l = 0; l < 32; l++)
				s[l] = FULL << l;
			break;
		case SREG_lanemask_gt:
			for (unsigned l = 0; l < 32; l++)
				s[l] = l == 31 ? 0 : FULL << (l + 1);
			break;
		default: {      /* the same in every lane */
			uint64_t v = sreg_value(c, p->sregs[i].sreg, comp, idx);
			for (unsigned l = 0; l < 32; l++)
				s[l] = v;
			break;
		}
		}
	}
	w->sreg_set = true;
	return w->nst == 1;
}

void warp_fini(Warp *w)
{
	while (w->nfr)
		pop_frame(w);
	w->nst = 0;
}

void warp_free(Warp *w)
{
	warp_fini(w);
	for (uint32_t i = 0; i < w->capfr; i++) {
		free(w->fr[i].r);
		free(w->fr[i].p);
	}
	free(w->fr);
	free(w->st);
	free(w->sreg);
	w->fr = NULL;
	w->st = NULL;
	w->sreg = NULL;
	w->capst = w->capfr = 0;
	w->sregcap = 0;
	w->sreg_set = false;
}

/* ---- operand access ----------------------------------------------------- */
typedef struct Ctx {
	Cta *c;
	Warp *w;
	Frame *f;
	const XIns *x;
	const XIns *xk;         /* where exec_one reads x's shape: x, or a constant of it (ops.inc) */
	uint64_t *base[5];
	const XIns *code;       /* the top frame's function's, and their shapes */
	const uint8_t *shape;
} Ctx;

#define SLOT(i) (X->base[x->o[i].kind] + (size_t)x->o[i].idx * 32)

static inline uint32_t pred_read(const Ctx *X, const XOpd *o)
{
	uint32_t v = o->kind == XK_PRED ? X->f->p[o->idx] : o->kind == XK_CONST
		     ? (X->f->fn->konst[(size_t)o->idx * 32] ? FULL : 0)
		     : o->kind == XK_SREG ? (X->base[XK_SREG][(size_t)o->idx * 32] ? FULL : 0) : 0;    /* %is_explicit_cluster */
	return o->neg ? ~v : v;
}

static inline void pred_write(Ctx *X, const XOpd *o, uint32_t act, uint32_t v)
{
	if (o->kind == XK_PRED)
		X->f->p[o->idx] = (X->f->p[o->idx] & ~act) | (v & act);
}

/* ---- integer helpers ---------------------------------------------------- */
static uint64_t mulhi_u64(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
static int64_t mulhi_s64(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }

/* The high half of a*b for a type of `bits` (a, b already extended). */
static uint64_t mul_hi(uint64_t a, uint64_t b, unsigned bits, bool sg)
{
	if (bits == 64)
		return sg ? (uint64_t)mulhi_s64((int64_t)a, (int64_t)b) : mulhi_u64(a, b);
	uint64_t p = sg ? (uint64_t)((int64_t)a * (int64_t)b) : a * b;
	return sg ? (uint64_t)((int64_t)p >> bits) : p >> bits;
}

static uint64_t sat_s32(int64_t v) { return (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v); }

/* Integer division: div and rem by zero give all ones, signed or not (an
 * H200's); the most negative value divided by -1 wraps.  docs/EXECUTION.md. */
static uint64_t idiv(uint64_t a, uint64_t b, unsigned bits, bool sg, bool rem)
{
	if (sg) {
		int64_t x = sx(a, bits), y = sx(b, bits);
		if (y == 0)
			return ~0ull;
		if (y == -1)
			return rem ? 0 : (uint64_t)(0 - (uint64_t)x);
		return (uint64_t)(rem ? x % y : x / y);
	}
	uint64_t x = zx(a, bits), y = zx(b, bits);
	if (y == 0)
		return ~0ull;
	return rem ? x % y : x / y;
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, uint16_t mode)
{
	uint64_t v = (uint64_t)b << 32 | a;
	uint8_t byte[8];
	for (int i = 0; i < 8; i++)
		byte[i] = (uint8_t)(v >> (8 * i));
	uint32_t r = 0;
	unsigned sel[4];
	unsigned s = c & 3;
	switch (mode) {
	case MOD_f4e: for (int i = 0; i < 4; i++) sel[i] = (s + (unsigned)i) & 7; break;
	case MOD_b4e: for (int i = 0; i < 4; i++) sel[i] = (s + 8 - (unsigned)i) & 7; sel[0] = s; sel[1] = (s + 7) & 7; sel[2] = (s + 6) & 7; sel[3] = (s + 5) & 7; break;
	case MOD_rc8: for (int i = 0; i < 4; i++) sel[i] = s; break;
	case MOD_ecl: sel[0] = s; sel[1] = s > 1 ? s : 1; sel[2] = s > 2 ? s : 2; sel[3] = 3; break;
	case MOD_ecr: sel[0] = 0; sel[1] = s < 1 ? s : 1; sel[2] = s < 2 ? s : 2; sel[3] = s; break;
	case MOD_rc16: sel[0] = (s & 1) * 2; sel[1] = (s & 1) * 2 + 1; sel[2] = sel[0]; sel[3] = sel[1]; break;
	default: {
		for (int i = 0; i < 4; i++) {
			unsigned n = (c >> (4 * i)) & 15;
			uint8_t bt = byte[n & 7];
			if (n & 8)      /* replicate the sign bit */
				bt = (bt & 0x80) ? 0xff : 0;
			r |= (uint32_t)bt << (8 * i);
		}
		return r;
	}
	}
	for (int i = 0; i < 4; i++)
		r |= (uint32_t)byte[sel[i]] << (8 * i);
	return r;
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned bits, bool sg)
{
	pos &= 0xff;
	len &= 0xff;
	uint64_t x = zx(a, bits);
	bool sbit;
	if (sg)
		sbit = len == 0 ? false : ((x >> ((pos + len - 1 < bits - 1) ? pos + len - 1 : bits - 1)) & 1);
	else
		sbit = false;
	uint64_t d = 0;
	for (unsigned i = 0; i < bits; i++) {
		bool bit = i < len && pos + i < bits ? (x >> (pos + i)) & 1 : sbit;
		d |= (uint64_t)bit << i;
	}
	return sg ? (uint64_t)sx(d, bits) : d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned bits)
{
	pos &= 0xff;
	len &= 0xff;
	uint64_t d = b;
	for (unsigned i = 0; i < len && pos + i < bits; i++)
		d = (d & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
	return zx(d, bits);
}

static uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	return __builtin_bswap32(v);
}

static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < 8; i++)
		if (lut >> i & 1)
			r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
	return r;
}

static int fcmp_code(uint16_t cmp)
{
	switch (cmp) {
	case MOD_eq: return FC_EQ; case MOD_ne: return FC_NE; case MOD_lt: return FC_LT;
	case MOD_le: return FC_LE; case MOD_gt: return FC_GT; case MOD_ge: return FC_GE;
	case MOD_equ: return FC_EQU; case MOD_neu: return FC_NEU; case MOD_ltu: return FC_LTU;
	case MOD_leu: return FC_LEU; case MOD_gtu: return FC_GTU; case MOD_geu: return FC_GEU;
	case MOD_num: return FC_NUM; case MOD_nan: return FC_NAN;
	}
	return FC_EQ;
}

/* A comparison of type ty (ftz applies to f32 inputs). */
static bool cmp_any(uint16_t cmp, unsigned ty, uint64_t a, uint64_t b, bool ftz)
{
	switch (ty) {
	case TY_f32:
		if (ftz)
			a = f32_ftz((uint32_t)a), b = f32_ftz((uint32_t)b);
		return f32_cmp((uint32_t)a, (uint32_t)b, fcmp_code(cmp));
	case TY_f64:
		return f64_cmp(a, b, fcmp_code(cmp));
	case TY_f16:
		if (ftz)
			a = f16_ftz((uint16_t)a), b = f16_ftz((uint16_t)b);
		return f16_cmp((uint16_t)a, (uint16_t)b, fcmp_code(cmp));
	case TY_bf16:
		return bf16_cmp((uint16_t)a, (uint16_t)b, fcmp_code(cmp));
	}
	return icmp(cmp, a, b, tbits(ty), tsigned(ty));
}

static bool boolop(uint16_t op, bool a, bool c)
{
	return op == MOD_and ? a && c : op == MOD_or ? a || c : op == MOD_xor ? a != c : a;
}

/* boolop on 32 lanes at once. */
static inline uint32_t boolop_mask(uint16_t op, uint32_t a, uint32_t c)
{
	return op == MOD_and ? a & c : op == MOD_or ? a | c : op == MOD_xor ? a ^ c : a;
}


/* The mask whose bit l is t[l] (each 0 or 1): eight bytes at a time, each
 * multiplied into the top byte at its own bit. */
static inline uint32_t pack_lanes(const uint8_t *t)
{
	uint32_t r = 0;
	for (unsigned k = 0; k < 4; k++) {
		uint64_t v;
		memcpy(&v, t + 8 * k, 8);
		r |= (uint32_t)((v * 0x0102040810204080ull) >> 56) << (8 * k);
	}
	return r;
}

/* icmp of the lanes of act, as a mask: one loop per comparison and
 * signedness, so that the choice is made once per instruction (icmp, with
 * both constant, folds to the one comparison); icmp_lanes instantiates it
 * for the usual widths as constants. */
static inline __attribute__((always_inline)) uint32_t icmp_lanes_w(uint16_t cmp, const uint64_t *A, const uint64_t *B, unsigned bits, bool sg,
			   uint32_t act)
{
	uint32_t r = 0;
	/* all 32 lanes into bytes, then packed: a loop without a carried
	 * dependency (the comparison reads no state, inactive lanes drop out).
	 * Built for AVX2 (the compiling tier), each lane's bit shifted into
	 * place and or-ed instead, which the vectoriser does with fewer
	 * shuffles: a fifth faster; without AVX2 three times slower. */
#if defined(__AVX2__)
#define ICMP_FULL(c, s) do { \
		for (unsigned l = 0; l < 32; l++) \
			r |= (uint32_t)icmp(c, A[l], B[l], bits, s) << l; \
	} while (0)
#else
#define ICMP_FULL(c, s) do { \
		uint8_t t[32]; \
		LANES_UNROLL \
		for (unsigned l = 0; l < 32; l++) \
			t[l] = (uint8_t)icmp(c, A[l], B[l], bits, s); \
		r = pack_lanes(t); \
	} while (0)
#endif
#define ICMP_LOOP(c, s) do { \
		if (act == FULL) \
			ICMP_FULL(c, s); \
		else \
			LANES(act, r |= (uint32_t)icmp(c, A[l], B[l], bits, s) << l); \
	} while (0)
#define ICMP_CASE(c) case c: if (sg) ICMP_LOOP(c, true); else ICMP_LOOP(c, false); break
#define ICMP_CASE_U(c) case c: ICMP_LOOP(c, false); break      /* the same either way */
	switch (cmp) {
	ICMP_CASE_U(MOD_eq);
	ICMP_CASE_U(MOD_ne);
	ICMP_CASE(MOD_lt);
	ICMP_CASE(MOD_le);
	ICMP_CASE(MOD_gt);
	ICMP_CASE(MOD_ge);
	ICMP_CASE_U(MOD_lo);
	ICMP_CASE_U(MOD_ls);
	ICMP_CASE_U(MOD_hi);
	ICMP_CASE_U(MOD_hs);
	}
#undef ICMP_CASE_U
#undef ICMP_CASE
#undef ICMP_LOOP
#undef ICMP_FULL
	return r;
}

/* Inline, so that a shaped copy of exec_one keeps its comparison's loop
 * alone (and the AVX2 copy vectorises it). */
static inline __attribute__((always_inline)) uint32_t icmp_lanes(uint16_t cmp, const uint64_t *A, const uint64_t *B,
								  unsigned bits, bool sg, uint32_t act)
{
	if (bits == 32)
		return icmp_lanes_w(cmp, A, B, 32, sg, act);
	if (bits == 64)
		return icmp_lanes_w(cmp, A, B, 64, sg, act);
	return icmp_lanes_w(cmp, A, B, bits, sg, act);
}

/* ---- floating point ------------------------------------------------------ */
/* One binary f32 operation in rounding mode rnd; the common case, round to
 * nearest, runs natively. */
static inline __attribute__((always_inline)) uint32_t f32_op(unsigned op, uint32_t a, uint32_t b, uint32_t c, int rnd)
{
	if (rnd == FP_RN) {
		float r;
		switch (op) {
		case OPC_add: r = f32(a) + f32(b); break;
		case OPC_sub: r = f32(a) - f32(b); break;
		case OPC_mul: r = f32(a) * f32(b); break;
		default: r = fmaf(f32(a), f32(b), f32(c)); break;
		}
		uint32_t v = (uint32_t)bf32(r);
		return (v & 0x7fffffffu) > 0x7f800000u ? FP_F32_CNAN : v;
	}
	switch (op) {
	case OPC_add: return f32_add(a, b, rnd);
	case OPC_sub: return f32_sub(a, b, rnd);
	case OPC_mul: return f32_mul(a, b, rnd);
	default: return f32_fma(a, b, c, rnd);
	}
}

static inline uint64_t f64_op(unsigned op, uint64_t a, uint64_t b, uint64_t c, int rnd)
{
	if (rnd == FP_RN) {
		double r;
		switch (op) {
		case OPC_add: r = f64(a) + f64(b); break;
		case OPC_sub: r = f64(a) - f64(b); break;
		case OPC_mul: r = f64(a) * f64(b); break;
		default: r = fma(f64(a), f64(b), f64(c)); break;
		}
		uint64_t v = bf64(r);
		if ((v & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull)
			return v;
		/* a NaN: fp.c says which */
	}
	switch (op) {
	case OPC_add: return f64_add(a, b, rnd);
	case OPC_sub: return f64_sub(a, b, rnd);
	case OPC_mul: return f64_mul(a, b, rnd);
	default: return f64_fma(a, b, c, rnd);
	}
}

/* neg or abs of one f16 or bf16 value (only f16 has .ftz) */
static inline uint16_t h_negabs(uint16_t a, bool bf, bool ftz, bool neg)
{
	if (bf)
		return bf16_negabs(a, neg);
	return f16_negabs(ftz ? f16_ftz(a) : a, neg);
}

/* Half-precision arithmetic on one 16-bit value. */
static uint16_t h_op(unsigned op, bool bf, uint16_t a, uint16_t b, uint16_t c, int rnd, bool ftz, bool sat, bool relu)
{
	if (ftz && !bf)
		a = f16_ftz(a), b = f16_ftz(b), c = f16_ftz(c);
	uint16_t r;
	switch (op) {
	case OPC_add: r = bf ? bf16_add(a, b, rnd) : f16_add(a, b, rnd); break;
	case OPC_sub: r = bf ? bf16_sub(a, b, rnd) : f16_sub(a, b, rnd); break;
	case OPC_mul: r = bf ? bf16_mul(a, b, rnd) : f16_mul(a, b, rnd); break;
	default: r = bf ? bf16_fma(a, b, c, rnd) : f16_fma(a, b, c, rnd); break;
	}
	if (ftz && !bf)
		r = f16_ftz(r);
	if (sat)
		r = bf ? r : f16_sat(r);
	if (relu && (r & 0x8000))       /* negative or -NaN: +0; NaN stays NaN */
		r = ((bf ? (r & 0x7fff) > 0x7f80 : (r & 0x7fff) > 0x7c00)) ? r : 0;
	return r;
}

/* ---- warp-wide operations ----------------------------------------------- */
/* A .sync instruction's membermask is each lane's own: the lanes of a
 * converged warp may name different groups (the tiles of a partition, the
 * groups of a labeled partition), each then synchronising and exchanging
 * among its own.  Each active lane must be in its mask, and every lane a
 * mask names must be here: on the hardware the absent ones would be waited
 * for; a reconvergence stack cannot.  M: the masks, by lane. */
static bool sync_ok(Ctx *X, uint32_t act, const uint64_t *M)
{
	Warp *w = X->w;
	for (uint32_t a = act; a; a &= a - 1) {
		unsigned l = (unsigned)__builtin_ctz(a);
		uint32_t member = (uint32_t)M[l];
		uint32_t missing = member & w->valid & ~w->exited & ~act;
		if (!(member >> l & 1)) {
			exec_fault(X->c, w, X->x, (int)l, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
				   "lane %u executes a .sync instruction whose membermask 0x%08x excludes it", l, member);
			return false;
		}
		if (missing) {
			exec_fault(X->c, w, X->x, (int)l, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
				   "membermask 0x%08x names lanes 0x%08x that are not converged here "
				   "(ptxvm runs a warp's diverged paths one after another)", member, missing);
			return false;
		}
	}
	return true;
}

/* ---- calls -------------------------------------------------------------- */
enum {
	BI_NONE, BI_VPRINTF, BI_ASSERT, BI_MALLOC, BI_ALIGNED_MALLOC, BI_FREE,
	/* the device runtime (cudadevrt), as nvcc 12+ names it (__cudaCDP2...) or
	 * as earlier ones did (cuda...) */
	BI_PARAMBUF, BI_LAUNCH, BI_LASTERR, BI_PEEKERR, BI_GETDEVICE, BI_ATTR, BI_STREAM_NEW, BI_STREAM_DEL,
	BI_EVENT_NEW, BI_EVENT_RECORD, BI_EVENT_DEL, BI_STREAM_WAIT, BI_DEVCOUNT, BI_VERSION, BI_LIMIT,
	BI_CACHECFG, BI_SMEMCFG, BI_CUMALLOC, BI_CUFREE, BI_MEMCPY, BI_MEMSET, BI_MEMCPY2D, BI_MEMSET2D,
	BI_MEMCPY3D, BI_MEMSET3D, BI_PARAMBUF1, BI_LAUNCH1, BI_OCCUPANCY, BI_ERRNAME, BI_ERRSTR,
	BI_FUNCATTR, BI_GRAPHLAUNCH, BI_SETCOND, BI_NODEPARAM, BI_NODEENABLE, BI_NODEGRID, BI_NODEAPPLY,
};

static const struct { const char *name; int bi; } devrt_fn[] = {
	{ "GetParameterBufferV2", BI_PARAMBUF }, { "LaunchDeviceV2", BI_LAUNCH },
	{ "GetLastError", BI_LASTERR }, { "PeekAtLastError", BI_PEEKERR }, { "GetDevice", BI_GETDEVICE },
	{ "DeviceGetAttribute", BI_ATTR }, { "StreamCreateWithFlags", BI_STREAM_NEW },
	{ "StreamDestroy", BI_STREAM_DEL }, { "EventCreateWithFlags", BI_EVENT_NEW },
	{ "EventRecord", BI_EVENT_RECORD }, { "EventRecord_ptsz", BI_EVENT_RECORD },
	{ "EventRecordWithFlags", BI_EVENT_RECORD }, { "EventRecordWithFlags_ptsz", BI_EVENT_RECORD },
	{ "EventDestroy", BI_EVENT_DEL }, { "StreamWaitEvent", BI_STREAM_WAIT },
	{ "StreamWaitEvent_ptsz", BI_STREAM_WAIT }, { "GetDeviceCount", BI_DEVCOUNT },
	{ "RuntimeGetVersion", BI_VERSION }, { "DeviceGetLimit", BI_LIMIT },
	{ "DeviceGetCacheConfig", BI_CACHECFG }, { "DeviceGetSharedMemConfig", BI_SMEMCFG },
	{ "Malloc", BI_CUMALLOC }, { "Free", BI_CUFREE }, { "MemcpyAsync", BI_MEMCPY },
	{ "MemcpyAsync_ptsz", BI_MEMCPY }, { "MemsetAsync", BI_MEMSET }, { "MemsetAsync_ptsz", BI_MEMSET },
	{ "Memcpy2DAsync", BI_MEMCPY2D }, { "Memcpy2DAsync_ptsz", BI_MEMCPY2D }, { "Memset2DAsync", BI_MEMSET2D },
	{ "Memset2DAsync_ptsz", BI_MEMSET2D }, { "Memcpy3DAsync", BI_MEMCPY3D }, { "Memcpy3DAsync_ptsz", BI_MEMCPY3D },
	{ "Memset3DAsync", BI_MEMSET3D }, { "Memset3DAsync_ptsz", BI_MEMSET3D },
	{ "GetParameterBuffer", BI_PARAMBUF1 }, { "LaunchDevice", BI_LAUNCH1 }, { "LaunchDevice_ptsz", BI_LAUNCH1 },
	{ "OccupancyMaxActiveBlocksPerMultiprocessor", BI_OCCUPANCY },
	{ "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", BI_OCCUPANCY },
	{ "GetErrorName", BI_ERRNAME }, { "GetErrorString", BI_ERRSTR }, { "FuncGetAttributes", BI_FUNCATTR },
	{ "LaunchDeviceV2_ptsz", BI_LAUNCH }, { "GraphLaunch", BI_GRAPHLAUNCH },
	{ "GraphSetConditional", BI_SETCOND }, { "GraphKernelNodeSetParam", BI_NODEPARAM },
	{ "GraphKernelNodeSetEnabled", BI_NODEENABLE }, { "GraphKernelNodeSetGridDim", BI_NODEGRID },
	{ "GraphKernelNodeUpdatesApply", BI_NODEAPPLY },
};

#define RUNTIME_VERSION 13000           /* cudaRuntimeGetVersion: the CUDA ptxvm implements */
#define EVENT_DISABLE_TIMING 2          /* cudaEventDisableTiming */
/* A device-side event: a tag, the grid that made it, a number; the device
 * runs a grid's children in the order of their launches, so every event
 * recorded has happened by the time any later launch runs (recording and
 * waiting order nothing more) */
#define EVENT_TAG 0xe7ull
static uint64_t event_handle(const Launch *L, unsigned n)
{
	return EVENT_TAG << 56 | (L->grid_id & 0xffffffffull) << 24 | (n & 0xffffff);
}
static bool event_valid(const Launch *L, uint64_t e)
{
	return e >> 56 == EVENT_TAG && (e >> 24 & 0xffffffffull) == (L->grid_id & 0xffffffffull) && (e & 0xffffff) &&
	       (e & 0xffffff) <= atomic_load(&L->events);
}
#define STREAM_TAIL 3                   /* cudaStreamTailLaunch */

static int devrt_of(const char *name)
{
	const char *n = !strncmp(name, "__cudaCDP2", 10) ? name + 10 : !strncmp(name, "cuda", 4) ? name + 4 : NULL;
	for (size_t i = 0; n && i < sizeof devrt_fn / sizeof *devrt_fn; i++)
		if (!strcmp(n, devrt_fn[i].name))
			return devrt_fn[i].bi;
	return BI_NONE;
}

bool exec_devrt_provides(const char *name) { return name && devrt_of(name) != BI_NONE; }

static int builtin_of(const XFunc *f)
{
	if (f->ast && f->ast->has_body)
		return BI_NONE;
	if (!strcmp(f->name, "vprintf"))
		return BI_VPRINTF;
	if (!strcmp(f->name, "__assertfail"))
		return BI_ASSERT;
	if (!strcmp(f->name, "malloc"))
		return BI_MALLOC;
	if (!strcmp(f->name, "__cuda_syscall_aligned_malloc"))
		return BI_ALIGNED_MALLOC;      /* what __nv_aligned_device_malloc compiles to */
	if (!strcmp(f->name, "free"))
		return BI_FREE;
	return devrt_of(f->name);
}

typedef struct StrCtx {
	Ctx *X;
	unsigned lane;
} StrCtx;

/* The bytes a lane can read at generic address a without faulting: a host
 * pointer and how many follow it in the same region, or NULL. */
static const uint8_t *span(Ctx *X, unsigned lane, uint64_t a, uint64_t *avail)
{
	Cta *c = X->c;
	if (mem_in_window(a, MEM_LOCAL_BASE)) {
		uint64_t o = a - MEM_LOCAL_BASE;
		*avail = o < c->L->local_bytes ? c->L->local_bytes - o : 0;
		return *avail ? c->local + (size_t)(X->w->idx * 32 + lane) * c->L->local_bytes + o : NULL;
	}
	if (mem_in_window(a, MEM_SHARED_BASE)) {
		uint64_t o = a - MEM_SHARED_BASE;
		*avail = o < c->L->shared_bytes ? c->L->shared_bytes - o : 0;
		return *avail ? c->shared + o : NULL;
	}
	if (mem_in_window(a, MEM_PARAM_BASE))
		return NULL;
	const Alloc *al = mem_find(c->L->mem, a, 1);
	*avail = al ? al->size - (a - al->base) : 0;
	return al ? al->host + (a - al->base) : NULL;
}

/* Reads n bytes of a lane's guest memory at a generic address without
 * faulting; returns NULL if not readable. */
static const uint8_t *peek(Ctx *X, unsigned lane, uint64_t a, uint64_t n)
{
	uint64_t avail;
	const uint8_t *p = span(X, lane, a, &avail);
	return p && avail >= n ? p : NULL;
}

/* Reads a guest string for printf's %s (bounded by max): false if it is
 * not readable up to its NUL or max. */
static bool read_str(void *vctx, uint64_t addr, Buf *out, size_t max)
{
	StrCtx *s = vctx;
	uint64_t avail;
	const uint8_t *p = span(s->X, s->lane, addr, &avail);
	if (!p)
		return false;
	size_t n = avail < max ? (size_t)avail : max;
	const uint8_t *nul = memchr(p, 0, n);
	buf_put(out, (const char *)p, nul ? (size_t)(nul - p) : n);
	return nul || n == max;
}

/* The value of a .param argument of a call: 8 bytes at the local address
 * the operand holds. */
static uint64_t param_arg(Ctx *X, unsigned lane, const uint64_t *slot)
{
	const uint8_t *p = peek(X, lane, MEM_LOCAL_BASE + slot[lane], 8);
	uint64_t v = 0;
	if (p)
		memcpy(&v, p, 8);
	return v;
}

/* The attributes cudaDeviceGetAttribute answers in kernels: the device's
 * own table, the one cuDeviceGetAttribute reads; false for no attribute. */
static bool device_attr(const Launch *L, unsigned a, int *v)
{
	if (a < 1 || a > DEVICE_ATTR_MAX || !L->attrs)
		return false;
	*v = L->attrs[a];
	return true;
}

/* The bytes of a lane's .param argument i (a struct such as dim3), or NULL. */
static const uint8_t *param_bytes(Ctx *X, unsigned lane, const uint64_t *slot, unsigned n)
{
	return peek(X, lane, MEM_LOCAL_BASE + slot[lane], n);
}

static bool cdp_shape_ok(const uint32_t g[3], const uint32_t b[3])
{
	for (int i = 0; i < 3; i++)
		if (!g[i] || !b[i])
			return false;
	return (uint64_t)b[0] * b[1] * b[2] <= EXEC_MAX_THREADS && b[2] <= 64 && g[0] <= 0x7fffffffu &&
	       g[1] <= 65535 && g[2] <= 65535;
}

/* cudaGetParameterBufferV2 and cudaLaunchDeviceV2 (dynamic parallelism),
 * and the other entry points of the device runtime, lane by lane. */
static int call_devrt(Ctx *X, int bi, uint32_t act, unsigned nret, unsigned narg)
{
	const XIns *x = X->x;
	Cta *c = X->c;
	Launch *L = c->L;
	Cdp *cd = L->cdp;
	const Prog *p = L->p;
	uint64_t *rs = nret ? SLOT(0) : NULL;
	LANES(act, {
		uint64_t a0 = narg > 0 ? param_arg(X, l, SLOT(nret)) : 0, r = 0;
		uint16_t *err = &X->w->cdp_err[l];
		switch (bi) {
		case BI_PARAMBUF:
		case BI_PARAMBUF1: {
			/* (kernel address, dim3 grid, dim3 block, shared bytes), or
			 * (alignment, bytes) with the kernel and shape at the launch */
			CdpBuf b = { 0 };
			uint64_t need, align = 16;
			if (bi == BI_PARAMBUF) {
				uint64_t fi = a0 - MEM_FUNC_BASE;
				const uint8_t *gp = narg > 2 ? param_bytes(X, l, SLOT(nret + 1), 12) : NULL;
				const uint8_t *bp = narg > 2 ? param_bytes(X, l, SLOT(nret + 2), 12) : NULL;
				if (fi >= p->nfn || !p->fn[fi].entry || !gp || !bp) {
					exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
						   "cudaGetParameterBufferV2 of 0x%llx, which is no kernel of the program",
						   (unsigned long long)a0);
					return -1;
				}
				b.k = &p->fn[fi];
				b.shared = narg > 3 ? (uint32_t)param_arg(X, l, SLOT(nret + 3)) : 0;
				memcpy(b.grid, gp, 12);
				memcpy(b.block, bp, 12);
				need = b.k->param_bytes;
			} else {
				need = narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0;
				if (a0 > align && !(a0 & (a0 - 1)) && a0 <= 4096)
					align = a0;     /* a power of two up to a page; else 16 */
			}
			need = need > cd->pool_bytes ? cd->pool_bytes + 1 : ((need + 15) & ~15ull);
			if (!need)
				need = 16;
			bool nomem = false;
			pthread_mutex_lock(&cd->lock);
			uint64_t at = (cd->pool + cd->used + align - 1) & ~(align - 1);
			if (at - cd->pool + need <= cd->pool_bytes && cd->nbuf == cd->capbuf) {
				CdpBuf *nb = realloc(cd->buf, (cd->capbuf * 2 + 16) * sizeof *nb);
				if (nb)
					cd->buf = nb, cd->capbuf = cd->capbuf * 2 + 16;
				nomem = !nb;
			}
			if (!nomem && at - cd->pool + need <= cd->pool_bytes) {
				b.addr = at;
				b.size = need;
				cd->used = at - cd->pool + need;
				cd->buf[cd->nbuf++] = b;
				r = b.addr;
			}
			pthread_mutex_unlock(&cd->lock);
			if (nomem) {
				exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for device launches");
				return -1;
			}
			break;
		}
		case BI_LAUNCH:
		case BI_LAUNCH1: {
			/* (parameter buffer, stream), or (kernel address, parameter
			 * buffer, dim3 grid, dim3 block, shared bytes, stream): the grid
			 * joins this one's children */
			bool v1 = bi == BI_LAUNCH1;
			uint64_t pbuf = v1 ? (narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0) : a0;
			uint64_t stream = narg > (v1 ? 5u : 1u) ? param_arg(X, l, SLOT(nret + (v1 ? 5 : 1))) : 0;
			const XFunc *k1 = NULL;
			uint32_t g1[3], b1[3], sh1 = 0;
			if (v1) {
				uint64_t fi = a0 - MEM_FUNC_BASE;
				const uint8_t *gp = narg > 3 ? param_bytes(X, l, SLOT(nret + 2), 12) : NULL;
				const uint8_t *bp = narg > 3 ? param_bytes(X, l, SLOT(nret + 3), 12) : NULL;
				if (fi >= p->nfn || !p->fn[fi].entry || !gp || !bp) {
					exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
						   "cudaLaunchDevice of 0x%llx, which is no kernel of the program",
						   (unsigned long long)a0);
					return -1;
				}
				k1 = &p->fn[fi];
				memcpy(g1, gp, 12);
				memcpy(b1, bp, 12);
				sh1 = narg > 4 ? (uint32_t)param_arg(X, l, SLOT(nret + 4)) : 0;
			}
			pthread_mutex_lock(&cd->lock);
			size_t lo = 0, hi = cd->nbuf;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (cd->buf[mid].addr < pbuf)
					lo = mid + 1;
				else
					hi = mid;
			}
			CdpBuf *b = lo < cd->nbuf && cd->buf[lo].addr == pbuf && !cd->buf[lo].launched ? &cd->buf[lo] : NULL;
			/* each version launches only the buffers of its own kind */
			if (b && v1 != !b->k)
				b = NULL;
			if (b && v1 && k1->param_bytes > b->size)
				b = NULL;               /* too small for the kernel's parameters */
			if (b && v1) {
				b->k = k1, b->shared = sh1;
				memcpy(b->grid, g1, sizeof g1);
				memcpy(b->block, b1, sizeof b1);
			}
			uint8_t *pb = b ? mem_host(L->mem, pbuf, b->k->param_bytes ? b->k->param_bytes : 1) : NULL;
			if (!pb)
				r = cudaErrorInvalidValue;
			else if (!cdp_shape_ok(b->grid, b->block))
				r = cudaErrorInvalidConfiguration;
			else if (L->depth + 1 >= CDP_MAX_DEPTH)
				r = cudaErrorLaunchMaxDepthExceeded;
			else if (cd->pending >= L->max_pending)
				r = cudaErrorLaunchPendingCountExceeded;
			if (r && b && v1)
				b->k = NULL;            /* the buffer stays cudaGetParameterBuffer's */
			if (!r) {
				Child k = { .k = b->k, .shared = b->shared, .tail = stream == STREAM_TAIL,
					    .params = malloc(b->k->param_bytes + 1) };
				memcpy(k.grid, b->grid, sizeof k.grid);
				memcpy(k.block, b->block, sizeof k.block);
				if (k.params && L->nkids == L->capkids) {
					Child *nk = realloc(L->kids, (L->capkids * 2 + 8) * sizeof *nk);
					if (nk)
						L->kids = nk, L->capkids = L->capkids * 2 + 8;
				}
				if (k.params && L->nkids < L->capkids) {
					memcpy(k.params, pb, b->k->param_bytes);
					L->kids[L->nkids++] = k;
					b->launched = true;
					cd->pending++;
				} else {
					free(k.params);
					r = (uint64_t)-1;
				}
			}
			pthread_mutex_unlock(&cd->lock);
			if (r == (uint64_t)-1) {
				exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for a device launch");
				return -1;
			}
			break;
		}
		case BI_LASTERR:
		case BI_PEEKERR:
			r = *err;
			if (bi == BI_LASTERR)
				*err = 0;
			break;
		case BI_GETDEVICE:
		case BI_STREAM_NEW: {
			/* (int *device) -> 0; (cudaStream_t *, flags) -> a handle, only
			 * non-blocking streams existing in kernels */
			unsigned n = bi == BI_GETDEVICE ? 4 : 8;
			uint32_t flags = narg > 1 ? (uint32_t)param_arg(X, l, SLOT(nret + 1)) : 0;
			if (bi == BI_STREAM_NEW && flags != 1) {
				r = cudaErrorInvalidValue;
				break;
			}
			uint8_t *q = xlate(c, X->w, x, l, XS_GENERIC, a0, n, true);
			if (!q)
				return -1;
			store_le(q, bi == BI_GETDEVICE ? 0 : 0x100 + (uint64_t)l, n);
			break;
		}
		case BI_ATTR: {
			/* (int *value, attribute, device) */
			unsigned at = narg > 1 ? (uint32_t)param_arg(X, l, SLOT(nret + 1)) : 0;
			int v;
			if (!device_attr(L, at, &v)) {
				r = cudaErrorInvalidValue;   /* as the device runtime answers */
				break;
			}
			uint8_t *q = xlate(c, X->w, x, l, XS_GENERIC, a0, 4, true);
			if (!q)
				return -1;
			store_le(q, (uint64_t)(uint32_t)v, 4);
			break;
		}
		case BI_STREAM_DEL:
			break;
		case BI_EVENT_NEW: {
			/* (cudaEvent_t *, flags): kernels' events order streams only */
			uint32_t flags = narg > 1 ? (uint32_t)param_arg(X, l, SLOT(nret + 1)) : 0;
			if (flags != EVENT_DISABLE_TIMING) {
				r = cudaErrorInvalidValue;
				break;
			}
			uint8_t *q = xlate(c, X->w, x, l, XS_GENERIC, a0, 8, true);
			if (!q)
				return -1;
			store_le(q, event_handle(L, atomic_fetch_add(&L->events, 1) + 1), 8);
			break;
		}
		case BI_EVENT_RECORD:
		case BI_STREAM_WAIT: {
			/* (event, stream{, flags}), (stream, event, flags): flags 0 */
			uint64_t ev = bi == BI_EVENT_RECORD ? a0 : narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0;
			uint32_t flags = narg > 2 ? (uint32_t)param_arg(X, l, SLOT(nret + 2)) : 0;
			r = !event_valid(L, ev) ? cudaErrorInvalidResourceHandle : flags ? cudaErrorInvalidValue : 0;
			break;
		}
		case BI_EVENT_DEL:
			r = event_valid(L, a0) ? 0 : cudaErrorInvalidResourceHandle;
			break;
		case BI_DEVCOUNT:
		case BI_VERSION:
		case BI_CACHECFG:
		case BI_SMEMCFG: {
			/* (int *): one device; the version; cudaFuncCachePreferNone;
			 * cudaSharedMemBankSizeFourByte */
			uint8_t *q = xlate(c, X->w, x, l, XS_GENERIC, a0, 4, true);
			if (!q)
				return -1;
			store_le(q, bi == BI_DEVCOUNT ? 1 : bi == BI_VERSION ? RUNTIME_VERSION : bi == BI_CACHECFG ? 0 : 1, 4);
			break;
		}
		case BI_LIMIT: {
			/* (size_t *, cudaLimit) */
			unsigned lim = narg > 1 ? (uint32_t)param_arg(X, l, SLOT(nret + 1)) : 0;
			uint64_t v;
			switch (lim) {
			case 0: v = L->stack_bytes; break;                              /* StackSize */
			case 1: v = L->printf_fifo ? L->printf_fifo : FIFO_DEFAULT_BYTES; break;  /* PrintfFifoSize */
			case 2: v = L->heap_limit; break;                               /* MallocHeapSize */
			case 4: v = L->max_pending; break;                      /* DevRuntimePendingLaunchCount */
			default: v = 0, r = cudaErrorUnsupportedLimit; break;
			}
			if (r)
				break;
			uint8_t *q = xlate(c, X->w, x, l, XS_GENERIC, a0, 8, true);
			if (!q)
				return -1;
			store_le(q, v, 8);
			break;
		}
		case BI_CUMALLOC: {
			/* (void **, size): the device heap, as malloc */
			uint64_t n = narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0;
			uint64_t b = L->heap ? heap_alloc(L->heap, n, 0) : 0;
			uint8_t *q = xlate(c, X->w, x, l, XS_GENERIC, a0, 8, true);
			if (!q)
				return -1;
			store_le(q, b, 8);
			r = b ? 0 : cudaErrorMemoryAllocation;
			break;
		}
		case BI_MEMCPY:
		case BI_MEMSET:
		case BI_MEMCPY2D:
		case BI_MEMSET2D:
		case BI_MEMCPY3D:
		case BI_MEMSET3D: {
			/* queued among the grid's launches, to run in their order:
			 *   (dst, src, bytes, kind, stream), (dst, byte, bytes, stream),
			 *   (dst, dpitch, src, spitch, width, height, kind, stream),
			 *   (dst, pitch, byte, width, height, stream),
			 *   (const cudaMemcpy3DParms *, stream),
			 *   (cudaPitchedPtr, byte, cudaExtent, stream) */
			Child k = { .rows = 1, .planes = 1, .fill = bi == BI_MEMSET || bi == BI_MEMSET2D || bi == BI_MEMSET3D };
			uint64_t arg[8] = { a0 };
			for (unsigned i = 1; i < narg && i < 8; i++)
				arg[i] = param_arg(X, l, SLOT(nret + i));
			uint32_t kind = 3;                              /* cudaMemcpyDeviceToDevice */
			unsigned si;                                    /* the stream's argument */
			if (bi == BI_MEMCPY || bi == BI_MEMSET) {
				k.dst = a0, k.src = arg[1], k.bytes = arg[2];
				kind = bi == BI_MEMCPY ? (uint32_t)arg[3] : 3;
				si = bi == BI_MEMCPY ? 4 : 3;
			} else if (bi == BI_MEMCPY2D || bi == BI_MEMSET2D) {
				bool cp = bi == BI_MEMCPY2D;
				k.dst = a0, k.dpitch = arg[1], k.src = arg[2], k.spitch = cp ? arg[3] : 0;
				k.bytes = arg[cp ? 4 : 3], k.rows = arg[cp ? 5 : 4];
				kind = cp ? (uint32_t)arg[6] : 3;
				si = cp ? 7 : 5;
				if (k.dpitch < k.bytes || (cp && k.spitch < k.bytes))
					r = cudaErrorInvalidPitchValue;
			} else if (bi == BI_MEMSET3D) {
				/* cudaPitchedPtr {ptr, pitch, xsize, ysize}, cudaExtent {width, height, depth} */
				const uint8_t *pp = narg > 2 ? param_bytes(X, l, SLOT(nret), 32) : NULL;
				const uint8_t *ep = narg > 2 ? param_bytes(X, l, SLOT(nret + 2), 24) : NULL;
				if (!pp || !ep) {
					r = cudaErrorInvalidValue;
					break;
				}
				uint64_t f[7];
				memcpy(f, pp, 32);
				memcpy(f + 4, ep, 24);
				k.dst = f[0], k.dpitch = f[1], k.dslice = f[1] * f[3], k.src = arg[1];
				k.bytes = f[4], k.rows = f[5], k.planes = f[6];
				si = 3;
				if (k.dpitch < k.bytes)
					r = cudaErrorInvalidPitchValue;
				else if (k.planes > 1 && (f[3] < k.rows || (f[3] && k.dslice / f[3] != f[1])))
					r = cudaErrorInvalidValue;   /* planes that overlap (a run that never ends) */
			} else {
				/* cudaMemcpy3DParms: srcArray, srcPos {x, y, z}, srcPtr {ptr, pitch,
				 * xsize, ysize}, dstArray, dstPos, dstPtr, extent {w, h, d}, kind */
				uint8_t *pp = xlate(c, X->w, x, l, XS_GENERIC, a0, 160, false);
				if (!pp)
					return -1;
				uint64_t f[20];
				memcpy(f, pp, 160);
				if (f[0] || f[8]) {     /* CUDA arrays: none in kernels */
					r = cudaErrorInvalidValue;
					break;
				}
				k.src = f[4] + f[3] * f[5] * f[7] + f[2] * f[5] + f[1], k.spitch = f[5], k.sslice = f[5] * f[7];
				k.dst = f[12] + f[11] * f[13] * f[15] + f[10] * f[13] + f[9], k.dpitch = f[13];
				k.dslice = f[13] * f[15];
				k.bytes = f[16], k.rows = f[17], k.planes = f[18];
				kind = (uint32_t)f[19];
				si = 1;
				if (k.dpitch < k.bytes || k.spitch < k.bytes)
					r = cudaErrorInvalidPitchValue;
				else if (k.planes > 1 && (f[7] < k.rows || f[15] < k.rows || (f[7] && k.sslice / f[7] != f[5]) ||
							  (f[15] && k.dslice / f[15] != f[13])))
					r = cudaErrorInvalidValue;   /* planes that overlap (a run that never ends) */
			}
			if (!r && kind != 3 && kind != 4)       /* cudaMemcpyDeviceToDevice, cudaMemcpyDefault */
				r = cudaErrorInvalidMemcpyDirection;
			if (r)
				break;
			k.tail = (si < narg ? param_arg(X, l, SLOT(nret + si)) : 0) == STREAM_TAIL;
			pthread_mutex_lock(&cd->lock);
			if (L->nkids == L->capkids) {
				Child *nk = realloc(L->kids, (L->capkids * 2 + 8) * sizeof *nk);
				if (nk)
					L->kids = nk, L->capkids = L->capkids * 2 + 8;
			}
			bool room = L->nkids < L->capkids;
			if (room)
				L->kids[L->nkids++] = k;
			pthread_mutex_unlock(&cd->lock);
			if (!room) {
				exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_OUT_OF_MEMORY, "no host memory for a device copy");
				return -1;
			}
			break;
		}
		case BI_OCCUPANCY: {
			/* (int *blocks, kernel address, block threads, dynamic shared
			 * bytes{, flags}): the driver's answer (exec_occupancy) */
			uint64_t fi = (narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0) - MEM_FUNC_BASE;
			int block = narg > 2 ? (int)(uint32_t)param_arg(X, l, SLOT(nret + 2)) : 0;
			uint64_t dyn = narg > 3 ? param_arg(X, l, SLOT(nret + 3)) : 0;
			uint32_t flags = narg > 4 ? (uint32_t)param_arg(X, l, SLOT(nret + 4)) : 0;
			if (fi >= p->nfn || !p->fn[fi].entry) {
				exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
					   "cudaOccupancyMaxActiveBlocksPerMultiprocessor of 0x%llx, which is no kernel of "
					   "the program", (unsigned long long)(fi + MEM_FUNC_BASE));
				return -1;
			}
			if (flags > 1 || !L->attrs) {   /* cudaOccupancyDefault, ...DisableCachingOverride */
				r = cudaErrorInvalidValue;
				break;
			}
			uint8_t *q = xlate(c, X->w, x, l, XS_GENERIC, a0, 4, true);
			if (!q)
				return -1;
			uint64_t shared = p->fn[fi].shared_dyn - XSMEM_RESERVED;
			int n = dyn > UINT32_MAX ? 0 : exec_occupancy(L->attrs, exec_max_threads(&p->fn[fi]), block, shared + dyn);
			store_le(q, (uint64_t)(uint32_t)n, 4);
			break;
		}
		case BI_ERRNAME:
		case BI_ERRSTR:
			/* (cudaError_t) -> the text in read-only device memory */
			r = L->errtab + exec_errtab_at((int32_t)a0, bi == BI_ERRSTR);
			break;
		case BI_FUNCATTR: {
			/* (cudaFuncAttributes *, kernel address): the host's table of
			 * the kernel (KAttrs), in the struct's order: sharedSizeBytes,
			 * constSizeBytes, localSizeBytes (size_t), then ints:
			 * maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion,
			 * cacheModeCA, maxDynamicSharedSizeBytes, preferredShmemCarveout,
			 * clusterDimMustBeSet, requiredCluster{Width,Height,Depth},
			 * clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed,
			 * reserved[16] (zero) */
			static const uint8_t order[] = { 1, 2, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14 };
			uint64_t fi = (narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0) - MEM_FUNC_BASE;
			if (fi >= p->nfn || !p->fn[fi].entry || !L->kattr) {
				r = cudaErrorInvalidDeviceFunction;
				break;
			}
			uint8_t *q = xlate_span(c, X->w, x, l, XS_GENERIC, a0, 144, 8, true);
			if (!q)
				return -1;
			memset(q, 0, 144);
			for (unsigned i = 0, at = 0; i < KATTR_N; at += i < 3 ? 8 : 4, i++)
				store_le(q + at, (uint64_t)(int64_t)atomic_load_explicit(&L->kattr[fi].v[order[i]],
											memory_order_relaxed), i < 3 ? 8 : 4);
			break;
		}
		case BI_GRAPHLAUNCH:
			/* (cudaGraphExec_t, stream): the host layer queues it in the
			 * environment of the graph this grid is a node of; a grid of
			 * no graph may not launch one */
			r = L->graph ? (uint64_t)(uint32_t)L->graph->launch(L->graph, a0, narg > 1 ?
					param_arg(X, l, SLOT(nret + 1)) : 0) : cudaErrorNotPermitted;
			break;
		case BI_SETCOND:
			/* (handle, value), returning nothing: the value of a conditional
			 * node of the graph this grid is a node of; a handle is looked
			 * up there, never followed, and one it does not know faults */
			if (!L->graph || L->graph->set_cond(L->graph, a0, narg > 1 ? (uint32_t)param_arg(X, l, SLOT(nret + 1))
									  : 0)) {
				exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
					   "cudaGraphSetConditional of handle %#llx, which is no conditional handle of %s",
					   (unsigned long long)a0, L->graph ? "the graph this kernel runs in" :
					   "a graph (this kernel does not run as a graph's node)");
				return -1;
			}
			break;
		case BI_NODEPARAM:
		case BI_NODEENABLE:
		case BI_NODEGRID:
		case BI_NODEAPPLY: {
			/* (node, offset, const void *value, size), (node, bool),
			 * (node, dim3), (const cudaGraphKernelNodeUpdate *, count):
			 * updates of device-updatable kernel nodes, which the host
			 * layer looks up; the guest's bytes are read here, at any
			 * alignment (a bad pointer faults), a batch stopping at its
			 * first refusal */
			uint64_t arg[4] = { a0 };
			for (unsigned i = 1; i < narg && i < 4; i++)
				arg[i] = param_arg(X, l, SLOT(nret + i));
			if (!L->graph) {
				r = cudaErrorNotSupported;      /* a kernel of no graph (to confirm on hardware) */
				break;
			}
			uint64_t n = bi == BI_NODEAPPLY ? arg[1] : 1;
			for (uint64_t i = 0; i < n && !r; i++) {
				struct ptxvm_node_update u = { .node = a0 };
				uint64_t ptr = arg[2], size = arg[3];
				if (bi == BI_NODEAPPLY) {
					/* node, field (+4), then at 16: dim3, or {pValue, offset,
					 * size}, or isEnabled; 40 bytes each */
					if (i >= (1u << 20) || a0 + i * 40 < a0) {
						r = cudaErrorInvalidValue;
						break;
					}
					const uint8_t *q = peek(X, l, a0 + i * 40, 40);
					if (!q) {
						exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
							   "cudaGraphKernelNodeUpdatesApply: update %llu at 0x%llx is not "
							   "memory the thread may read", (unsigned long long)i,
							   (unsigned long long)(a0 + i * 40));
						return -1;
					}
					uint32_t f;
					memcpy(&u.node, q, 8);
					memcpy(&f, q + 8, 4);
					u.field = (int)f;
					memcpy(u.grid, q + 16, 12);
					memcpy(&u.enabled, q + 16, 4);
					memcpy(&ptr, q + 16, 8);
					memcpy(&u.offset, q + 24, 8);
					memcpy(&size, q + 32, 8);
				} else if (bi == BI_NODEPARAM) {
					u.field = 2, u.offset = arg[1];
				} else if (bi == BI_NODEENABLE) {
					u.field = 3, u.enabled = (uint32_t)arg[1] & 0xff;
				} else {
					const uint8_t *gp = narg > 1 ? param_bytes(X, l, SLOT(nret + 1), 12) : NULL;
					if (!gp) {
						r = cudaErrorInvalidValue;
						break;
					}
					u.field = 1;
					memcpy(u.grid, gp, 12);
				}
				if (u.field == 2) {
					if (size > 32764) {     /* beyond any kernel's parameters */
						r = cudaErrorInvalidValue;
						break;
					}
					u.size = (size_t)size;
					u.value = size ? peek(X, l, ptr, size) : NULL;
					if (size && !u.value) {
						exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
							   "a kernel node's new parameters: %llu bytes at 0x%llx are not "
							   "memory the thread may read", (unsigned long long)size,
							   (unsigned long long)ptr);
						return -1;
					}
				}
				r = (uint64_t)(uint32_t)L->graph->update(L->graph, &u);
			}
			break;
		}
		case BI_CUFREE:
			/* (pointer): a block of the device heap, or NULL */
			r = !a0 ? 0 : L->heap && heap_free(L->heap, a0) == HEAP_OK ? 0 : cudaErrorInvalidDevicePointer;
			break;
		}
		/* returns a pointer, never an error */
		bool ptr = bi == BI_PARAMBUF || bi == BI_PARAMBUF1 || bi == BI_ERRNAME || bi == BI_ERRSTR;
		if (!ptr && bi != BI_LASTERR && bi != BI_PEEKERR && r)
			*err = (uint16_t)r;
		uint8_t *q = rs ? (uint8_t *)peek(X, l, MEM_LOCAL_BASE + rs[l], ptr ? 8 : 4) : NULL;
		if (q)
			store_le(q, r, ptr ? 8 : 4);
	});
	return 0;
}

static int call_builtin(Ctx *X, int bi, uint32_t act, unsigned nret, unsigned narg)
{
	const XIns *x = X->x;
	Cta *c = X->c;
	if (bi == BI_VPRINTF) {
		if (narg < 2)
			return 0;
		uint64_t *fs = SLOT(nret), *as = SLOT(nret + 1);
		uint64_t *rs = nret ? SLOT(0) : NULL;
		LANES(act, {
			if (atomic_load_explicit(&c->L->stop, memory_order_relaxed))
				return -1;      /* the watchdog: not a lane more */
			uint64_t fa = param_arg(X, l, fs), aa = param_arg(X, l, as);
			Buf fmt = { 0 };
			StrCtx sc = { X, l };
			int r;
			if (!read_str(&sc, fa, &fmt, 1u << 16)) {
				r = -1;
			} else {
				/* the argument buffer: up to 32 arguments of at most 8 bytes */
				size_t n = 0;
				const uint8_t *args = NULL;
				for (size_t k = 32 * 8 + 8; k >= 8 && aa; k -= 8)
					if ((args = peek(X, l, aa, k))) {
						n = k;
						break;
					}
				c->rec.len = 0;
				r = dev_printf(&c->rec, fmt.p ? fmt.p : "", args, n, read_str, &sc);
				if (c->L->fifo)
					fifo_cta_put(&c->pf, c->rec.p, c->rec.len);
			}
			buf_free(&fmt);
			if (rs) {
				uint8_t *p = (uint8_t *)peek(X, l, MEM_LOCAL_BASE + rs[l], 4);
				if (p)
					store_le(p, (uint32_t)r, 4);
			}
		});
		return 0;
	}
	if (bi == BI_ASSERT) {
		unsigned l = (unsigned)__builtin_ctz(act);
		Buf msg = { 0 }, file = { 0 };
		StrCtx sc = { X, l };
		read_str(&sc, narg > 0 ? param_arg(X, l, SLOT(nret)) : 0, &msg, 1024);
		read_str(&sc, narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0, &file, 1024);
		uint64_t line = narg > 2 ? param_arg(X, l, SLOT(nret + 2)) & 0xffffffffu : 0;
		exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ASSERT, "assertion '%s' failed at %s:%u",
			   msg.p ? msg.p : "?", file.p ? file.p : "?", (unsigned)line);
		buf_free(&msg);
		buf_free(&file);
		return -1;
	}
	if (bi >= BI_PARAMBUF)
		return call_devrt(X, bi, act, nret, narg);
	/* malloc, __nv_aligned_device_malloc and free: the device heap, lane
	 * by lane in lane order (heap.h) */
	Heap *h = c->L->heap;
	uint64_t *rs = nret ? SLOT(0) : NULL;
	LANES(act, {
		uint64_t a0 = narg > 0 ? param_arg(X, l, SLOT(nret)) : 0;
		if (bi == BI_FREE) {
			int r = h ? heap_free(h, a0) : a0 ? HEAP_NOT_BLOCK : HEAP_OK;
			if (r != HEAP_OK) {
				exec_fault(c, X->w, x, (int)l, PTXVM_ERROR_ILLEGAL_ADDRESS,
					   "free(0x%llx): %s", (unsigned long long)a0, r == HEAP_FREED ?
					   "the block was freed already (a double free)" :
					   "no block of the device heap starts there (an address malloc did not "
					   "return, or a block freed already)");
				return -1;
			}
		} else {
			uint64_t align = bi == BI_ALIGNED_MALLOC && narg > 1 ? param_arg(X, l, SLOT(nret + 1)) : 0;
			uint64_t r = h ? heap_alloc(h, a0, align) : 0;
			uint8_t *p = rs ? (uint8_t *)peek(X, l, MEM_LOCAL_BASE + rs[l], 8) : NULL;
			if (p)
				store_le(p, r, 8);
		}
	});
	return 0;
}

static const char *formal_text(const XParam *q, char *buf, size_t n)
{
	if (q->is_pred)
		snprintf(buf, n, ".reg .pred");
	else
		snprintf(buf, n, "%s of %llu byte%s", q->is_reg ? ".reg" : ".param", (unsigned long long)q->bytes,
			 q->bytes == 1 ? "" : "s");
	return buf;
}

static int formals_differ(const XParam *a, const XParam *b)
{
	return a->is_reg != b->is_reg || a->is_pred != b->is_pred || a->bytes != b->bytes || a->is_pred;
}

/* Why fn cannot be the target of an indirect call through signature sig
 * (XSig index): a kernel, a function outside the .calltargets list, or
 * formals that differ from the .callprototype's in number, space or size
 * (the types may differ: the hardware passes bits).  0 when it can. */
static int call_mismatch(const Prog *p, const XFunc *fn, uint32_t sig, char *why, size_t n)
{
	if (fn->entry) {
		snprintf(why, n, "'%s' is a kernel (.entry); only .func functions can be called", fn->name);
		return 1;
	}
	if (sig >= p->nsigs)
		return 0;
	const XSig *g = &p->sigs[sig];
	if (g->fns) {
		for (uint32_t i = 0; i < g->nfns; i++)
			if (&p->fn[g->fns[i]] == fn)
				return 0;
		snprintf(why, n, "'%s' is not in the call's .calltargets list '%s'", fn->name, g->name);
		return 1;
	}
	if (fn->nparams != g->nparams || fn->nrets != g->nrets) {
		snprintf(why, n, "'%s' takes %u parameters and returns %u values; the call's prototype '%s' takes %u "
			 "and returns %u", fn->name, fn->nparams, fn->nrets, g->name, g->nparams, g->nrets);
		return 1;
	}
	char a[48], b[48];
	for (uint32_t i = 0; i < g->nrets + g->nparams; i++) {
		bool ret = i < g->nrets;
		const XParam *f = ret ? &fn->rets[i] : &fn->params[i - g->nrets];
		const XParam *q = ret ? &g->rets[i] : &g->params[i - g->nrets];
		if (formals_differ(f, q)) {
			snprintf(why, n, "%s %u of '%s' is %s; the call's prototype '%s' has %s",
				 ret ? "return value" : "parameter", ret ? i : i - g->nrets, fn->name,
				 formal_text(f, a, sizeof a), g->name, formal_text(q, b, sizeof b));
			return 1;
		}
	}
	return 0;
}

/* Enters fn for the lanes of act: copies the arguments into the new frame. */
static bool enter(Ctx *X, const XFunc *fn, uint32_t act, uint32_t pc, unsigned nret, unsigned first_arg,
		  unsigned narg)
{
	Warp *w = X->w;
	const XIns *x = X->x;
	Launch *L = X->c->L;
	uint32_t lbase = (w->lsp + 15) & ~15u;
	if (fn->frame_bytes > L->local_bytes - lbase || w->nfr >= 4096 ||
	    X->c->reg_bytes + frame_regs(fn) > EXEC_MAX_REGS) {
		exec_fault(X->c, w, x, __builtin_ctz(act), PTXVM_ERROR_HARDWARE_STACK_ERROR,
			   "call stack overflow entering '%s' (%u frames; a frame of %llu bytes at %u of the thread's "
			   "%u bytes of local memory; %llu MiB of registers)", fn->name, w->nfr,
			   (unsigned long long)fn->frame_bytes, lbase, L->local_bytes,
			   (unsigned long long)((X->c->reg_bytes + frame_regs(fn)) >> 20));
		return false;
	}
	const uint64_t *cbase[5];
	memcpy(cbase, X->base, sizeof cbase);
	if (!push_frame(w, fn, lbase, pc, act)) {
		exec_fault(X->c, w, x, __builtin_ctz(act), PTXVM_ERROR_OUT_OF_MEMORY,
			   "no host memory for the registers of '%s' (%u per thread)", fn->name, fn->nslots);
		return false;
	}
	Frame *f = &w->fr[w->nfr - 1];
	w->lsp = lbase + (uint32_t)fn->frame_bytes;
	for (unsigned i = 0; i < narg && i < fn->nparams; i++) {
		const XParam *fp = &fn->params[i];
		const XOpd *o = &x->o[first_arg + i];
		const uint64_t *src = cbase[o->kind] + (size_t)o->idx * 32;
		if (fp->is_pred || (fp->is_reg && fp->slot >= fn->nslots)) {
			continue;       /* never called: the checker refuses predicate parameters */
		} else if (fp->is_reg) {
			LANES(act, f->r[(size_t)fp->slot * 32 + l] = src[l]);
		} else {
			LANES(act, {
				const uint8_t *s = peek(X, l, MEM_LOCAL_BASE + src[l], fp->bytes);
				uint8_t *d = X->c->local + (size_t)(w->idx * 32 + l) * L->local_bytes + lbase + fp->off;
				if (s)
					memmove(d, s, fp->bytes);
			});
		}
	}
	(void)nret;
	push(w, 0, fn->ncode, act);
	return true;
}

/* Leaves the top frame: copies return values to the caller. */
static void leave(Warp *w)
{
	Cta *c = w->cta;
	Launch *L = c->L;
	Frame *f = &w->fr[w->nfr - 1];
	Frame *caller = &w->fr[w->nfr - 2];
	const XIns *x = &caller->fn->code[f->call_pc];
	unsigned nret = x->sub == MOD_NONE ? 0 : x->sub;
	for (unsigned i = 0; i < nret && i < f->fn->nrets; i++) {
		const XParam *rp = &f->fn->rets[i];
		const XOpd *o = &x->o[i];
		if (rp->is_pred || (rp->is_reg && rp->slot >= f->fn->nslots))
			continue;       /* never called: the checker refuses predicate returns */
		if (rp->is_reg) {
			if (o->kind == XK_REG)
				LANES(f->mask, caller->r[(size_t)o->idx * 32 + l] = f->r[(size_t)rp->slot * 32 + l]);
		} else if (o->kind == XK_REG) {
			/* the operand holds the local address of the caller's variable */
			LANES(f->mask, {
				uint64_t a = caller->r[(size_t)o->idx * 32 + l];
				uint8_t *base = c->local + (size_t)(w->idx * 32 + l) * L->local_bytes;
				if (a <= L->local_bytes && rp->bytes <= L->local_bytes - a)
					memmove(base + a, base + f->lbase + rp->off, rp->bytes);
			});
		}
	}
	w->lsp = f->lbase;
	pop_frame(w);
}

/* ---- the interpreter ---------------------------------------------------- */
static void set_base(Ctx *X)
{
	Warp *w = X->w;
	X->f = &w->fr[w->nfr - 1];
	X->base[XK_REG] = X->f->r;
	X->base[XK_CONST] = X->f->fn->konst;
	X->code = X->f->fn->code;
	X->shape = X->f->fn->shape;
	X->base[XK_SREG] = w->sreg;
	X->base[XK_PRED] = w->scratch;
	X->base[XK_NONE] = w->scratch;
}

static uint64_t read_sreg(Launch *L, unsigned which, bool hi)
{
	double t = exec_now() - L->t0;
	uint64_t ns = (uint64_t)(t * 1e9);
	switch (which) {
	case X_SR_CLOCK: return (uint32_t)ns;           /* a 1 GHz clock */
	case X_SR_CLOCK64: return hi ? ns >> 32 : ns;
	case X_SR_GTIMER:       /* wall-clock nanoseconds, advancing monotonically */
		return L->gtimer0 + ns;
	case X_SR_GTIMER_LO: return (uint32_t)read_sreg(L, X_SR_GTIMER, false);
	case X_SR_GTIMER_HI: return read_sreg(L, X_SR_GTIMER, false) >> 32;
	}
	return 0;
}

/* LF_CVTA's k: what cvta.space adds to a space's address to make it
 * generic (cvta.to.space: subtracts), modulo 2^64. */
static inline uint64_t cvta_off(const Ctx *X, const XIns *xk)
{
	uint64_t base = xk->sub2 == XS_SHARED ? MEM_SHARED_BASE : xk->sub2 == XS_LOCAL ? MEM_LOCAL_BASE
			: xk->sub2 == XS_KPARAM ? MEM_PARAM_BASE : xk->sub2 == XS_CONST ? X->c->L->p->const_base : 0;
	return xk->sub ? 0 - base : base;
}

#include "ops.inc"

void warp_bar_red_done(Warp *w, const Barrier *b)
{
	const XIns *x = w->bar_ins;
	Frame *f = &w->fr[w->nfr - 1];
	if (x->sub2 == MOD_popc) {
		if (x->o[0].kind == XK_REG)
			LANES(w->bar_mask, f->r[(size_t)x->o[0].idx * 32 + l] = b->red_count);
	} else if (x->o[0].kind == XK_PRED) {
		bool v = x->sub2 == MOD_and ? b->red_count == b->red_total : b->red_count > 0;
		f->p[x->o[0].idx] = (f->p[x->o[0].idx] & ~w->bar_mask) | (v ? w->bar_mask : 0);
	}
}

/* Sanitizer builds leave the shaped copies out: instrumented, the copies
 * of exec_one take clang tens of minutes to compile, and each is exec_one
 * with constants, so the sanitizers still see every line they run. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EXEC_NO_SHAPES
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EXEC_NO_SHAPES
#endif
#endif

#if !defined(EXEC_JIT) && !defined(EXEC_NO_SHAPES)
/* exec_one for the instructions of each shape of shapes.def (lowering
 * numbers them in XFunc.shape), with the shape a constant: the compiler
 * folds exec_one's switches on opcode, types, modifiers and flags away and
 * keeps that instruction's lane loop, in a function of its own.  The
 * semantics are exec_one's; the copy only knows the shape beforehand. */
typedef int Shaped(Ctx *X, Entry *e, uint32_t m, uint32_t act);
/* Each copy three times, chosen when the library loads (as fma_lanes_f32
 * is): for hosts with AVX-512 (x86-64-v4), whose lane loops take eight
 * 64-bit slots at a time, narrow them to 32 bits and back in one
 * instruction and compare into mask registers (the stencil 15%, the block
 * reduction 12% faster than with AVX2 alone); for hosts with AVX2, whose
 * loops take four lanes with the sign extension, 32-bit products and
 * 64-bit comparisons SSE2 lacks; and for the others.  Both wider targets
 * have FMA, so the library is built with -ffp-contract=off (Makefile): a
 * product and a sum fused would round differently. */
#if defined(__x86_64__)
#define SHAPE_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define SHAPE_CLONES
#endif
/* tbits and tsigned of each type as constants, for the copies' shapes:
 * static, so that the compiler folds them as it would a local without
 * building one at each instruction run */
enum {
#define T(name, bytes, kind) SHB_TY_##name = (bytes) * 8, SHS_TY_##name = TK_##kind == TK_S,
#include "../isa/types.def"
#undef T
	SHB_TY__COUNT = 64, SHS_TY__COUNT = 0
};
#define SH(name, op_, ty_, ty2_, sp_, sub_, sub2_, n_) \
	SHAPE_CLONES static int shaped_##name(Ctx *X, Entry *e, uint32_t m, uint32_t act) \
	{ \
		static const XIns k = { .op = op_, .ty = ty_, .ty2 = ty2_, .ty3 = TY__COUNT, .sp = sp_, \
					.sub = sub_, .sub2 = sub2_, .vec = 1, .n = n_, .bits = SHB_##ty_, .sg = SHS_##ty_ }; \
		X->xk = &k; \
		int r = exec_one(X, e, m, act); \
		X->xk = X->x; \
		return r; \
	}
#include "../lower/shapes.def"
#undef SH
/* An instruction of no listed shape: exec_one itself, out of line, so
 * that warp_loop, without exec_one's body, keeps its state in registers. */
static __attribute__((noinline)) int exec_any(Ctx *X, Entry *e, uint32_t m, uint32_t act)
{
	return exec_one(X, e, m, act);
}
static Shaped *const shaped[XSH__COUNT] = {
	[XSH_NONE] = exec_any,
#define SH(name, ...) [XSH_##name] = shaped_##name,
#include "../lower/shapes.def"
#undef SH
};
#endif

/* k instructions run by the lanes act, x the last, which becomes the
 * current one: counted, as warp instructions (*nwarp) and as the lanes
 * they left idle (*nidle, the lanes not in act, for each), so that a full
 * warp's count is an add and a test; warp_loop makes thread instructions
 * of them.  exec_guard's count of one instruction, and the compiling
 * tier's of a group (unguarded instructions) at once. */
static inline __attribute__((always_inline)) void exec_count(Ctx *X, uint32_t act, const XIns *x, unsigned k,
							     uint64_t *nidle, uint64_t *nwarp)
{
	X->x = x;
	X->xk = x;
	*nwarp += k;
	if (act != FULL)
		*nidle += (uint64_t)k * popc32(~act);
}

/* Instruction x of the top entry (live lanes m) becomes the current one:
 * the lanes its guard lets run it, counted. */
static inline __attribute__((always_inline)) uint32_t exec_guard(Ctx *X, uint32_t m, const XIns *x,
								 uint64_t *nidle, uint64_t *nwarp)
{
	uint32_t act = m;
	if (x->guard >= 0) {
		uint32_t g = X->f->p[x->guard];
		act = m & (x->gneg ? ~g : g);
	}
	exec_count(X, act, x, 1, nidle, nwarp);
	return act;
}

/* One instruction x of the top entry e (live lanes m): its guard, the
 * counts, its semantics. */
static inline __attribute__((always_inline)) int exec_step(Ctx *X, Entry *e, uint32_t m, const XIns *x,
							   uint64_t *nidle, uint64_t *nwarp)
{
	uint32_t act = exec_guard(X, m, x, nidle, nwarp);
#if !defined(EXEC_JIT) && !defined(EXEC_NO_SHAPES)
	return shaped[X->shape[e->pc]](X, e, m, act);
#else
	return exec_one(X, e, m, act);
#endif
}

/* The compiling tier (src/jit) includes this file with EXEC_STEP naming
 * its own dispatch, which runs the instruction at e->pc and may run those
 * after it, within *budget, as this loop would (src/jit/jit.c); the
 * interpreter takes the instruction from the program. */
#ifndef EXEC_STEP
#define EXEC_STEP(X, e, m, nidle, nwarp, budget) exec_step(X, e, m, &(X)->code[(e)->pc], nidle, nwarp)
#endif

static inline __attribute__((always_inline)) int warp_loop(Cta *c, Warp *w, uint64_t budget)
{
	Ctx X = { .c = c, .w = w };
	set_base(&X);
	atomic_int *stop = &c->L->stop;
	uint64_t nidle = 0, nwarp = 0;
	int r = RUN_YIELD;
	while (budget--) {
		if (!w->nst) {
			r = RUN_DONE;
			break;
		}
		Entry *e = &w->st[w->nst - 1];
		uint32_t m = e->mask & ~w->exited;
		if (e->pc == e->rpc || !m) {
			w->nst--;
			if (w->nfr && w->nst == w->fr[w->nfr - 1].depth) {
				if (w->nfr == 1) {      /* the kernel returned */
					w->exited |= w->valid;
					w->nst = 0;
					r = RUN_DONE;
					break;
				}
				leave(w);
				set_base(&X);
			}
			continue;
		}
		int s = EXEC_STEP(&X, e, m, &nidle, &nwarp, &budget);
		if (s != RUN_GO) {
			r = s;
			break;
		}
		if (atomic_load_explicit(stop, memory_order_relaxed)) {
			r = RUN_FAULT;
			break;
		}
	}
	w->nthr += 32 * nwarp - nidle;    /* the lanes that ran them */
	w->nwarp += nwarp;
	if (atomic_load_explicit(&c->L->stop, memory_order_relaxed))
		r = RUN_FAULT;
	return r;
}

#ifndef EXEC_JIT
int warp_run(Cta *c, Warp *w, uint64_t budget)
{
	return warp_loop(c, w, budget);
}
#endif
