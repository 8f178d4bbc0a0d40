/* run.c: running SASS ATOM instructions, and the public functions of
 * include/ptxvm.h's "SASS ATOM" section.
 *
 * Each instruction: the guard; the address (32-bit Ra + ImmS20,
 * zero-extended; .E: the 64-bit pair + ImmS20; absolute: ImmU20); then, in
 * this order, invalid address space (a shared or local window), misaligned
 * address, a sparse page (not performed), address out of range (no region
 * holds the whole access); then the atomic unit does the operation on the
 * region's host bytes.
 */
#include "sass.h"
#include "../host/host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number of items of a sorted array (of item bytes, a uint64_t base
 * first) whose base is at most a. */
static size_t upto(const void *v, size_t n, size_t item, uint64_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t base;
		memcpy(&base, (const char *)v + mid * item, sizeof base);
		if (base <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

SassRegion *sass_region(const ptxvm_sass *s, uint64_t a, uint64_t n)
{
	size_t i = upto(s->rg, s->nrg, sizeof *s->rg, a);
	SassRegion *r = i ? &s->rg[i - 1] : NULL;
	return r && a - r->base < r->size && n <= r->size - (a - r->base) ? r : NULL;
}

const SassWindow *sass_window(const ptxvm_sass *s, uint64_t a, bool sparse)
{
	if (sparse) {
		/* they may overlap: the highest last byte so far decides */
		size_t i = upto(s->sparse, s->nsparse, sizeof *s->sparse, a);
		return i && s->sparse_last[i - 1] >= a ? &s->sparse[i - 1] : NULL;
	}
	size_t i = upto(s->win, s->nwin, sizeof *s->win, a);
	const SassWindow *w = i ? &s->win[i - 1] : NULL;
	return w && a - w->base < w->size ? w : NULL;
}

ptxvm_sass *ptxvm_sass_load(const char *filename, const char *text, size_t len)
{
	if (!text && len)
		return NULL;
	ptxvm_sass *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	const char *name = filename ? filename : "<input>";
	s->file = malloc(strlen(name) + 1);
	s->src = malloc(len + 1);
	if (!s->file || !s->src) {
		free(s->file);
		free(s->src);
		free(s);
		return NULL;
	}
	strcpy(s->file, name);
	if (len)
		memcpy(s->src, text, len);
	s->src[len] = 0;
	s->len = len;
	s->diags.file = s->file;
	s->diags.src = s->src;
	s->diags.srclen = len;
	s->diags.limit = 100;
	s->pred0[SASS_PT] = 1;
	sass_parse(s);
	memcpy(s->reg, s->reg0, sizeof s->reg);
	memcpy(s->pred, s->pred0, sizeof s->pred);
	return s;
}

ptxvm_sass *ptxvm_sass_load_file(const char *path)
{
	size_t n;
	char *p = path ? read_file(path, &n) : NULL;
	if (!p)
		return NULL;
	ptxvm_sass *s = ptxvm_sass_load(strcmp(path, "-") ? path : "<stdin>", p, n);
	free(p);
	return s;
}

void ptxvm_sass_free(ptxvm_sass *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nrg; i++) {
		free(s->rg[i].alloc);
		free(s->rg[i].init);
	}
	free(s->rg);
	free(s->win);
	free(s->sparse);
	free(s->sparse_last);
	free(s->ins);
	diag_free(&s->diags);
	free(s->file);
	free(s->src);
	free(s);
}

size_t ptxvm_sass_errors(const ptxvm_sass *s) { return s ? s->diags.nerrors : 0; }
size_t ptxvm_sass_diag_count(const ptxvm_sass *s) { return s ? s->diags.n : 0; }
size_t ptxvm_sass_count(const ptxvm_sass *s) { return s ? s->nins : 0; }

int ptxvm_sass_diag(const ptxvm_sass *s, size_t i, ptxvm_diag *out)
{
	return s ? host_diag(&s->diags, i, out) : -1;
}

char *ptxvm_sass_diagnostics(const ptxvm_sass *s)
{
	return s ? diag_format_all(&s->diags) : NULL;
}

const char *ptxvm_sass_message(const ptxvm_sass *s) { return s ? s->msg : ""; }
unsigned ptxvm_sass_fault_line(const ptxvm_sass *s) { return s ? s->fault_line : 0; }
uint64_t ptxvm_sass_fault_address(const ptxvm_sass *s) { return s ? s->fault_addr : 0; }

uint32_t ptxvm_sass_reg(const ptxvm_sass *s, unsigned r)
{
	return s && r < SASS_RZ ? s->reg[r] : 0;
}

int ptxvm_sass_pred(const ptxvm_sass *s, unsigned p)
{
	if (p == SASS_PT)
		return 1;
	return s && p < SASS_PT ? s->pred[p] : 0;
}

ptxvm_result ptxvm_sass_read(const ptxvm_sass *s, uint64_t addr, void *dst, size_t n)
{
	if (!s || (!dst && n))
		return PTXVM_ERROR_INVALID_VALUE;
	SassRegion *r = sass_region(s, addr, n);
	if (!r)
		return PTXVM_ERROR_ILLEGAL_ADDRESS;
	if (n)
		memcpy(dst, r->mem + (addr - r->base), n);
	return PTXVM_SUCCESS;
}

/* ---- running ------------------------------------------------------------ */

static uint64_t rd64(const ptxvm_sass *s, uint8_t r)
{
	if (r == SASS_RZ)
		return 0;
	return s->reg[r] | (uint64_t)s->reg[r + 1] << 32;
}

static void wr(ptxvm_sass *s, uint8_t r, uint64_t v, bool wide)
{
	if (r == SASS_RZ)
		return;
	s->reg[r] = (uint32_t)v;
	if (wide)
		s->reg[r + 1] = (uint32_t)(v >> 32);
}

static ptxvm_result fault(ptxvm_sass *s, const SassIns *in, ptxvm_result res, uint64_t a, const char *name,
			  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static ptxvm_result fault(ptxvm_sass *s, const SassIns *in, ptxvm_result res, uint64_t a, const char *name,
			  const char *fmt, ...)
{
	char why[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	int n = in->len > 200 ? 200 : (int)in->len;
	snprintf(s->msg, sizeof s->msg, "%s:%u: %s (address 0x%llx): %s, in `%.*s`", s->file, in->line, name,
		 (unsigned long long)a, why, n, s->src + in->off);
	s->fault_line = in->line;
	s->fault_addr = a;
	return s->status = res;
}

static ptxvm_result step(ptxvm_sass *s, const SassIns *in)
{
	bool g = in->guard == SASS_PT ? true : s->pred[in->guard] != 0;
	if (in->guard_neg)
		g = !g;
	if (!g)
		return PTXVM_SUCCESS;
	const AtomSassSize *z = &atom_sass_size[in->size];
	bool wide = z->bytes == 8;
	uint64_t a;
	if (!in->has_ra)
		a = (uint64_t)in->imm;
	else if (in->ext)
		a = rd64(s, in->ra) + (uint64_t)in->imm;
	else
		a = (uint32_t)((in->ra == SASS_RZ ? 0 : s->reg[in->ra]) + (uint32_t)in->imm);
	const SassWindow *w = sass_window(s, a, false);
	if (w)
		return fault(s, in, PTXVM_ERROR_INVALID_ADDRESS_SPACE, a, "invalid address space",
			     "the address is in the %s window 0x%llx..0x%llx; ATOM needs global memory",
			     sass_window_name[w->kind], (unsigned long long)w->base,
			     (unsigned long long)(w->base + w->size - 1));
	if (a & (z->bytes - 1u))
		return fault(s, in, PTXVM_ERROR_MISALIGNED_ADDRESS, a, "misaligned address",
			     "an access of %u bytes needs an address that is a multiple of %u", z->bytes, z->bytes);
	if (sass_window(s, a, true)) {
		/* a sparse page: nothing is performed; Rd reads 0, Ps is true */
		wr(s, in->rd, 0, wide);
		if (in->sparse && in->ps != SASS_PT)
			s->pred[in->ps] = 1;
		return PTXVM_SUCCESS;
	}
	SassRegion *r = sass_region(s, a, z->bytes);
	if (!r)
		return fault(s, in, PTXVM_ERROR_ILLEGAL_ADDRESS, a, "address out of range",
			     "no memory region holds the %u bytes 0x%llx..0x%llx", z->bytes, (unsigned long long)a,
			     (unsigned long long)(a + z->bytes - 1));
	AtomVal b = { 0, 0 }, c = { 0, 0 }, old;
	if (in->op == AT_CAS) {
		b.lo = wide ? rd64(s, in->rb) : s->reg[in->rb];
		c.lo = in->rc == SASS_RZ ? 0 : wide ? rd64(s, in->rc) : s->reg[in->rc];
	} else {
		b.lo = wide ? rd64(s, in->rb) : in->rb == SASS_RZ ? 0 : s->reg[in->rb];
	}
	int e = atom_apply(in->op, z->ty, z->flags, r->mem + (a - r->base), b, c, &old);
	if (e)  /* the checker lets no such combination through */
		return fault(s, in, PTXVM_ERROR_ILLEGAL_INSTRUCTION, a, "illegal instruction", "%s", atom_error(e));
	wr(s, in->rd, old.lo, wide);
	if (in->sparse && in->ps != SASS_PT)
		s->pred[in->ps] = 0;
	return PTXVM_SUCCESS;
}

ptxvm_result ptxvm_sass_run(ptxvm_sass *s)
{
	if (!s)
		return PTXVM_ERROR_INVALID_VALUE;
	s->msg[0] = 0;
	s->fault_line = 0;
	s->fault_addr = 0;
	s->status = PTXVM_SUCCESS;
	if (s->diags.nerrors) {
		snprintf(s->msg, sizeof s->msg, "%s: the file has errors; nothing was run", s->file);
		return s->status = PTXVM_ERROR_INVALID_PTX;
	}
	memcpy(s->reg, s->reg0, sizeof s->reg);
	memcpy(s->pred, s->pred0, sizeof s->pred);
	for (size_t i = 0; i < s->nrg; i++)
		memcpy(s->rg[i].mem, s->rg[i].init, (size_t)s->rg[i].size);
	for (size_t i = 0; i < s->nins; i++) {
		ptxvm_result r = step(s, &s->ins[i]);
		if (r)
			return r;
	}
	return PTXVM_SUCCESS;
}

char *ptxvm_sass_state(const ptxvm_sass *s)
{
	if (!s)
		return NULL;
	Buf b = { 0 };
	for (unsigned r = 0; r < SASS_RZ; r++)
		if (s->reg[r] || s->reg[r] != s->reg0[r])
			buf_printf(&b, "R%u = 0x%08x\n", r, s->reg[r]);
	for (unsigned p = 0; p < SASS_PT; p++)
		if (s->pred[p] || s->pred[p] != s->pred0[p])
			buf_printf(&b, "P%u = %u\n", p, s->pred[p]);
	for (size_t i = 0; i < s->nrg; i++) {
		const SassRegion *r = &s->rg[i];
		bool words = !(r->base & 3) && !(r->size & 3);
		unsigned step = words ? 32 : 16;
		for (uint64_t o = 0; o < r->size; o += step) {
			buf_printf(&b, "mem 0x%llx %s", (unsigned long long)(r->base + o), words ? "u32" : "u8");
			for (uint64_t k = o; k < r->size && k < o + step; k += words ? 4 : 1) {
				if (words) {
					/* the image is little-endian, as ATOM reads it */
					uint32_t v = (uint32_t)r->mem[k] | (uint32_t)r->mem[k + 1] << 8 |
					    (uint32_t)r->mem[k + 2] << 16 | (uint32_t)r->mem[k + 3] << 24;
					buf_printf(&b, " 0x%08x", v);
				} else {
					buf_printf(&b, " 0x%02x", r->mem[k]);
				}
			}
			buf_putc(&b, '\n');
		}
	}
	if (!b.p)
		buf_puts(&b, "");
	return b.p;
}
