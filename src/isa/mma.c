/* mma.c: the fragments of mma (mma.h), from the PTX manual's figures.
 *
 * Notation of the figures: g = lane / 4 (groupID), t = lane % 4
 * (threadID_in_group); a lane's elements are numbered low to high, e of
 * them to a 32-bit register (two .f16, four .s8, eight .s4, 32 .b1; one
 * .tf32, .f32 or .s32; one .f64 to a 64-bit register).  For every shape but
 * m8n8k4 .f16 the figures follow one rule:
 *   A (row-major): row g + 8*((i/e)%2), column t*e + i%e + 4e*(i/2e)
 *   B (col-major): row t*e + i%e + 4e*(i/e), column g
 *   C, D:          row g + 8*(i/2), column 2t + i%2
 *
 * mma.sp's A fragment is that of the dense shape with half the K: it holds
 * the kept elements of each row, in order.  The figures of the metadata
 * follow one rule too, in units of 16 bits (.f16, .bf16, .tf32) or 8 bits
 * (.s8, .u8, .e4m3, .e5m2, .s4, .u4): each chunk of four units of a row
 * keeps two, whose 2-bit indices (the first kept the low bits) make a
 * nibble; lane 4g + q of a quad holds, of rows g and g+8, the nibbles of
 * units 16q'..16q'+15 in bits 0-15 and 16-31, where q = sel*n + q' and n
 * (1, 2 or 4) is the number of lanes a row's units need.  A .tf32 element
 * is two units (indices 0b0100 or 0b1110: its low index, halved, is its
 * column in the pair); a .s4/.u4 pair is one.
 * wgmma (m64nNkK) splits the product by rows among the warpgroup's four
 * warps: warp w holds rows 16w..16w+15 of D and, from registers, of A,
 * each as mma.m16n8kK's fragment; D's repeats every 8 columns, its element
 * i in column 8*(i/4) + 2t + i%2, row g + 8*((i/2)%2) (the manual's
 * figures for wgmma's D and A).
 *
 * wmma's fragments are opaque: the manual gives their register counts, not
 * which element each holds.  An H200 shows (docs/EXECUTION.md; tests/hw,
 * group wmma: m16n16k16 .f16 A and B, .f32 C): a fragment is a row of
 * mma.m16n8kK fragments, K the wmma shape's, by the rule above, tiling
 * A along M (16 rows each), B along N (8 columns each), C and D in
 * row-major order of 16 x 8 tiles; for M = 8 a tile has 8 rows (rows g
 * only, as mma.m8n8kK).  Where the registers hold more elements than the
 * tiles (.f16 A and B of 8 registers) the tiles repeat.  m8n32k16 is
 * m32n8k16 transposed (D' = B'A'): its A is laid out as that shape's B,
 * its B as that A, its C and D as that C, each transposed (group wmmax).
 */
#include "mma.h"
#include "isa.h"

#include <stdio.h>

static int elem_type(unsigned m)
{
	switch (m) {
	case MOD_f16: return MT_F16;
	case MOD_bf16: return MT_BF16;
	case MOD_tf32: return MT_TF32;
	case MOD_f32: return MT_F32;
	case MOD_f64: return MT_F64;
	case MOD_e4m3: return MT_E4M3;
	case MOD_e5m2: return MT_E5M2;
	case MOD_s8: return MT_S8;
	case MOD_u8: return MT_U8;
	case MOD_s4: return MT_S4;
	case MOD_u4: return MT_U4;
	case MOD_b1: return MT_B1;
	case MOD_s32: return MT_S32;
	}
	return -1;
}

bool mma_decode(const uint16_t *mods, unsigned nmods, MmaShape *s)
{
	static const struct { uint16_t mod; uint8_t m, n; uint16_t k; } shapes[] = {
		{ MOD_m8n8k4, 8, 8, 4 }, { MOD_m8n8k16, 8, 8, 16 }, { MOD_m8n8k32, 8, 8, 32 },
		{ MOD_m8n8k128, 8, 8, 128 }, { MOD_m16n8k4, 16, 8, 4 }, { MOD_m16n8k8, 16, 8, 8 },
		{ MOD_m16n8k16, 16, 8, 16 }, { MOD_m16n8k32, 16, 8, 32 }, { MOD_m16n8k64, 16, 8, 64 },
		{ MOD_m16n8k128, 16, 8, 128 }, { MOD_m16n8k256, 16, 8, 256 },
	};
	*s = (MmaShape){ 0 };
	int types[4], words[2];
	unsigned nt = 0, nw = 0, nl = 0;
	for (unsigned i = 0; i < nmods; i++) {
		unsigned m = mods[i];
		for (unsigned k = 0; k < sizeof shapes / sizeof *shapes; k++)
			if (shapes[k].mod == m)
				s->m = shapes[k].m, s->n = shapes[k].n, s->k = shapes[k].k;
		int t = elem_type(m);
		if (t >= 0 && isa_mod_is_type(m) && nt < 4)
			types[nt++] = t;
		else if (t >= 0 && nw < 2)
			words[nw++] = t;
		if (m == MOD_row || m == MOD_col) {     /* alayout, then blayout */
			if (nl == 0)
				s->acol = m == MOD_col;
			else
				s->brow = m == MOD_row;
			nl++;
		}
		if (m == MOD_satfinite)
			s->satfinite = 1;
		if (m == MOD_and)
			s->bop = 1;
		if (m == MOD_sp || m == MOD_sp_ordered_metadata)
			s->sp = 1;
	}
	if (!s->m || (nt != 4 && !(nt == 2 && nw == 2)))
		return false;
	s->type[MMA_D] = (uint8_t)types[0];
	s->type[MMA_A] = (uint8_t)(nt == 4 ? types[1] : words[0]);
	s->type[MMA_B] = (uint8_t)(nt == 4 ? types[2] : words[1]);
	s->type[MMA_C] = (uint8_t)types[nt - 1];
	return true;
}

bool wmma_decode(const uint16_t *mods, unsigned nmods, MmaShape *s)
{
	static const struct { uint16_t mod; uint8_t m, n; uint16_t k; } shapes[] = {
		{ MOD_m16n16k16, 16, 16, 16 }, { MOD_m8n32k16, 8, 32, 16 }, { MOD_m32n8k16, 32, 8, 16 },
		{ MOD_m16n16k8, 16, 16, 8 }, { MOD_m8n8k32, 8, 8, 32 }, { MOD_m8n8k128, 8, 8, 128 },
		{ MOD_m8n8k4, 8, 8, 4 },
	};
	*s = (MmaShape){ .wmma = 1, .what = 0xff };
	int types[4];
	unsigned nt = 0, nl = 0;
	bool load = false;
	for (unsigned i = 0; i < nmods; i++) {
		unsigned m = mods[i];
		for (unsigned k = 0; k < sizeof shapes / sizeof *shapes; k++)
			if (shapes[k].mod == m)
				s->m = shapes[k].m, s->n = shapes[k].n, s->k = shapes[k].k;
		int t = elem_type(m);
		if (t >= 0 && nt < 4)
			types[nt++] = t;
		switch (m) {
		case MOD_load: load = true; break;
		case MOD_store: s->what = WM_STORE_D; break;
		case MOD_mma: s->what = WM_MMA; break;
		case MOD_a: s->what = WM_LOAD_A; break;
		case MOD_b: s->what = WM_LOAD_B; break;
		case MOD_c: s->what = WM_LOAD_C; break;
		case MOD_satfinite: s->satfinite = 1; break;
		case MOD_and: s->bop = 1; break;
		case MOD_rz: s->rnd = 1; break;
		case MOD_rm: s->rnd = 2; break;
		case MOD_rp: s->rnd = 3; break;
		case MOD_row: case MOD_col:
			if (nl++ == 0)
				s->acol = m == MOD_col;
			else
				s->brow = m == MOD_row;
			break;
		}
	}
	if (!s->m || nt == 0 || s->what == 0xff || (load && s->what > WM_LOAD_C))
		return false;
	if (s->what == WM_MMA) {
		if (nt == 2)            /* .dtype.ctype: A and B are .f16 */
			types[3] = types[1], types[1] = types[2] = MT_F16;
		else if (nt != 4)
			return false;
		for (int op = 0; op < 4; op++)
			s->type[op] = (uint8_t)types[op];
	} else {
		/* load/store: the moved operand's type; the others as mma's */
		for (int op = 0; op < 4; op++)
			s->type[op] = (uint8_t)types[0];
	}
	return true;
}

bool wgmma_decode(const uint16_t *mods, unsigned nmods, MmaShape *s)
{
	*s = (MmaShape){ .m = 64, .wg = 1 };
	int types[3];
	unsigned nt = 0;
	for (unsigned i = 0; i < nmods; i++) {
		const char *w = isa_mod_name[mods[i]];
		unsigned n, k;
		char end;
		if (sscanf(w, "m64n%uk%u%c", &n, &k, &end) == 2)
			s->n = (uint16_t)n, s->k = (uint16_t)k;
		int t = elem_type(mods[i]);
		if (t >= 0 && nt < 3)
			types[nt++] = t;
		if (mods[i] == MOD_satfinite)
			s->satfinite = 1;
		if (mods[i] == MOD_and)
			s->bop = 1;
		if (mods[i] == MOD_sp)
			s->sp = 1;
	}
	if (!s->k || nt != 3)
		return false;
	s->type[MMA_D] = s->type[MMA_C] = (uint8_t)types[0];
	s->type[MMA_A] = (uint8_t)types[1];
	s->type[MMA_B] = (uint8_t)types[2];
	return true;
}

/* The canonical layouts of the manual's "matrix descriptor" section:
 * 8-row core matrices whose rows are 16 bytes apart, or, swizzled, rows of
 * the swizzle's width W (32, 64 or 128 bytes) in 8-row atoms; K-major: the
 * 32 bytes of K a row holds are two 16-byte chunks, LBO apart unswizzled,
 * adjacent in a swizzled row (K beyond W, as .sp's 64-byte B rows in a
 * 32-byte swizzle: the next W bytes LBO on, to confirm on hardware); groups
 * of 8 rows are SBO apart.  MN-major
 * (16-bit types): 16-byte chunks of 8 MN elements, each K row of a core
 * matrix (or swizzle atom) 16 (W) bytes on; unswizzled, chunks are SBO apart
 * and groups of 8 K rows LBO apart; swizzled, W/16 chunks share a row,
 * further chunks are LBO apart and groups of 8 K rows SBO apart.  Swizzling
 * then XORs address bits 4.. (the 16-byte chunk) with bits 7.. (the row in
 * the 1024-byte pattern), 1, 2 or 3 bits for W = 32, 64, 128, less the
 * base offset (bits 49-51): the pattern repeats at absolute shared
 * addresses, and the base offset moves it, so that bo = (start >> 7) % 8
 * makes a tile that starts inside a pattern read as one at its start (an
 * H200: tests/hw, group wgmma). */
uint64_t wgmma_desc_addr(uint64_t d, bool trans, unsigned bits, unsigned mn, unsigned k, unsigned *shift)
{
	uint64_t start = (d & 0x3fff) << 4, lbo = (d >> 16 & 0x3fff) << 4, sbo = (d >> 32 & 0x3fff) << 4;
	unsigned swz = (unsigned)(d >> 62), w = swz == 1 ? 128 : swz == 2 ? 64 : swz == 3 ? 32 : 16;
	uint64_t a;
	*shift = 0;
	if (!trans) {
		unsigned kb = k * bits, byte = kb / 8;  /* in the row's K: 32 bytes, 64 for .sp's B */
		a = start + mn / 8 * sbo + mn % 8 * w + (swz ? byte / w * lbo + byte % w : byte / 16 * lbo + byte % 16);
		*shift = kb % 8;
	} else {
		unsigned b = mn * bits / 8, chunk = b / 16, per = w / 16;
		if (!swz)
			a = start + chunk * sbo + k % 8 * 16 + k / 8 * lbo + b % 16;
		else
			a = start + chunk % per * 16 + chunk / per * lbo + k % 8 * w + k / 8 * sbo + b % 16;
	}
	if (swz)
		a ^= (((a >> 7) - WG_DESC_BASE_OFFSET(d)) & (w / 16 - 1)) << 4;
	return a;
}

int wmma_operand(const MmaShape *s)
{
	switch (s->what) {
	case WM_LOAD_A: return MMA_A;
	case WM_LOAD_B: return MMA_B;
	case WM_LOAD_C: return MMA_C;
	default: return MMA_D;
	}
}

unsigned mma_bits(int t)
{
	switch (t) {
	case MT_F16: case MT_BF16: return 16;
	case MT_E4M3: case MT_E5M2: case MT_S8: case MT_U8: return 8;
	case MT_S4: case MT_U4: return 4;
	case MT_B1: return 1;
	case MT_F64: return 64;
	default: return 32;
	}
}

static bool quadpairs(const MmaShape *s)
{
	return s->k == 4 && s->m == 8 && s->type[MMA_A] == MT_F16;
}

unsigned mma_groups(const MmaShape *s)
{
	return !s->wmma && quadpairs(s) ? 4 : 1;
}

static void dims(const MmaShape *s, int op, unsigned *rows, unsigned *cols)
{
	*rows = op == MMA_B ? s->k : s->m;
	*cols = op == MMA_A ? s->k : s->n;
}

unsigned mma_elems(const MmaShape *s, int op)
{
	if (s->wmma) {
		unsigned bits, n = mma_regs(s, op, &bits), eb = mma_bits(s->type[op]);
		return eb == 64 ? n : n * (32 / eb);
	}
	if (quadpairs(s))
		return op == MMA_A || op == MMA_B ? 4 : 8;
	unsigned m = s->wg ? 16 : s->m;         /* wgmma: a warp's rows */
	unsigned rows = op == MMA_B ? s->k : m, cols = op == MMA_A ? s->k >> s->sp : s->n;
	return rows * cols / 32;
}

/* mma.sp: bits of a metadata unit, and lanes of a quad a row's units need */
static unsigned sp_unit(const MmaShape *s)
{
	return mma_bits(s->type[MMA_A]) >= 16 ? 16 : 8;
}

static unsigned sp_lanes(const MmaShape *s)
{
	return s->k * mma_bits(s->type[MMA_A]) / sp_unit(s) / 16;
}

unsigned mma_sp_selmax(const MmaShape *s)
{
	unsigned n = sp_lanes(s);
	/* ptxas 13.0 takes 0..3 for m16n8k32 .f32.f16.f16.f32 (0..1 for the
	 * same shape with .f16 or .bf16); the manual: 0 or 1 */
	if (n == 2 && s->type[MMA_A] == MT_F16 && s->type[MMA_D] == MT_F32 && !s->wg)
		return 3;
	return 4 / n - 1;
}

void mma_sp_index(const MmaShape *s, unsigned row, unsigned kc, unsigned sel, unsigned *lane, unsigned *bit)
{
	unsigned ub = sp_unit(s), unit = kc * mma_bits(s->type[MMA_A]) / ub;   /* kept unit */
	unsigned chunk = unit / 2, n = sp_lanes(s);
	/* a selector beyond the manual's range wraps in the quad (to confirm on hardware) */
	*lane = (row % 8) * 4 + (sel * n + chunk / 4) % 4;
	*bit = (row >= 8 ? 16 : 0) + (chunk % 4) * 4 + (unit % 2) * 2;
}

unsigned mma_sp_col(const MmaShape *s, unsigned kc, unsigned idx)
{
	unsigned eb = mma_bits(s->type[MMA_A]), ub = sp_unit(s), unit = kc * eb / ub;
	return ((unit / 2 * 4 + idx) * ub + kc * eb % ub) / eb;
}

unsigned mma_regs(const MmaShape *s, int op, unsigned *bits)
{
	unsigned eb = mma_bits(s->type[op]);
	*bits = eb == 64 ? 64 : 32;
	if (s->wmma) {          /* the manual's register counts */
		unsigned rows, cols;
		dims(s, op, &rows, &cols);
		if ((op == MMA_A || op == MMA_B) && s->type[op] == MT_F16)
			return 8;
		return rows * cols / 32 * eb / *bits;
	}
	return mma_elems(s, op) * eb / *bits;
}

void mma_elem(const MmaShape *s, int op, unsigned l, unsigned i, unsigned *row, unsigned *col, unsigned *grp)
{
	unsigned g = l / 4, t = l % 4;
	*grp = 0;
	unsigned e = mma_bits(s->type[op]) == 64 ? 1 : 32 / mma_bits(s->type[op]);
	if (s->wmma && s->m < s->n) {
		/* m8n32k16 is m32n8k16 transposed: A as that B, B as that A */
		MmaShape tr = *s;
		tr.m = s->n, tr.n = s->m;
		tr.type[MMA_A] = s->type[MMA_B], tr.type[MMA_B] = s->type[MMA_A];
		mma_elem(&tr, op == MMA_A ? MMA_B : op == MMA_B ? MMA_A : op, l, i, col, row, grp);
		return;
	}
	if (s->wmma) {
		/* tiles of mma.m16n8kK's fragments (m8n8kK's where M is 8):
		 * A's along M, B's along N, C's and D's in row-major order */
		unsigned rows, cols, tm = s->m < 16 ? s->m : 16, h = tm / 8;
		dims(s, op, &rows, &cols);
		unsigned trows = op == MMA_B ? s->k : tm, tcols = op == MMA_A ? s->k : 8;
		unsigned per = trows * tcols / 32, across = cols / tcols, tile = i / per % (rows / trows * across);
		unsigned j = i % per, r, c;
		switch (op) {
		case MMA_A: r = g + 8 * ((j / e) % h), c = t * e + j % e + 4 * e * (j / (e * h)); break;
		case MMA_B: r = t * e + j % e + 4 * e * (j / e), c = g; break;
		default: r = g + 8 * ((j / 2) % h), c = 2 * t + j % 2; break;
		}
		*row = tile / across * trows + r, *col = tile % across * tcols + c;
		return;
	}
	if (quadpairs(s)) {
		/* four products: quad pair q is lanes 4q..4q+3 (the low group)
		 * and 16+4q..16+4q+3 (the high group, rows or columns 4..7) */
		unsigned hi = l >= 16 ? 4 : 0;
		*grp = g % 4;
		switch (op) {
		case MMA_A:
			if (s->acol)
				*row = i % 4 + hi, *col = t;
			else
				*row = t + hi, *col = i;
			return;
		case MMA_B:
			if (s->brow)
				*row = t, *col = i + hi;
			else
				*row = i, *col = t + hi;
			return;
		default:
			if (s->type[op] == MT_F32)
				*row = (t & 1) + (i & 2) + hi, *col = (i & 4) + (t & 2) + (i & 1);
			else
				*row = t + hi, *col = i;
			return;
		}
	}
	switch (op) {
	case MMA_A:
		*row = g + 8 * ((i / e) % 2);
		*col = t * e + i % e + 4 * e * (i / (2 * e));
		return;
	case MMA_B:
		*row = t * e + i % e + 4 * e * (i / e);
		*col = g;
		return;
	default:
		*row = g + 8 * (i / 2 % 2);
		*col = 8 * (i / 4) + 2 * t + i % 2;     /* mma: i < 4 */
		return;
	}
}
