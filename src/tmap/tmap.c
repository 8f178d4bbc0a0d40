/* tmap.c: tensor maps: their encoding, its checks, and the order in which
 * a copy visits the elements of a box (docs/TENSOR.md). */
#include "tmap.h"

#include <string.h>

#include "../exec/fp.h"

static const uint8_t esize_of[TMAP__TYPES] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };

static bool is_float(unsigned t)
{
	return t >= TMAP_F16 && t != TMAP_U64 && t != TMAP_S64;
}

/* ---- the 128 bytes ----------------------------------------------------------
 *   0  'p' 't' 'm' 1      magic and version
 *   4  mode rank dtype interleave swizzle l2promo oobfill 0
 *  12  u16 channels, u16 pixels (im2col)
 *  16  u64 address
 *  24  u32 dim[i] - 1, five
 *  44  u32 0
 *  48  u64 stride[i + 1] in bytes, four
 *  80  u8 box[i] - 1, five;  85  u8 estride[i] - 1, five;  90  u16 0
 *  92  i32 lower[3];  104  i32 upper[3];  116  eight zero bytes
 * 124  u32 FNV-1a of bytes 0-123
 * Little-endian, as the device. */
static const uint8_t magic[4] = { 'p', 't', 'm', 1 };

static uint32_t fnv(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void put(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint64_t get(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << 8 * i;
	return v;
}

static void write_map(uint8_t out[TMAP_BYTES], const TMap *m)
{
	uint8_t b[TMAP_BYTES] = { 0 };
	memcpy(b, magic, 4);
	b[4] = m->mode, b[5] = m->rank, b[6] = m->dtype, b[7] = m->interleave;
	b[8] = m->swizzle, b[9] = m->l2promo, b[10] = m->oob_nan;
	put(b + 12, m->channels, 2);
	put(b + 14, m->pixels, 2);
	put(b + 16, m->addr, 8);
	for (unsigned i = 0; i < m->rank; i++) {
		put(b + 24 + 4 * i, m->dim[i] - 1, 4);
		if (i)
			put(b + 48 + 8 * (i - 1), m->stride[i], 8);
		b[80 + i] = (uint8_t)(m->box[i] - 1);
		b[85 + i] = (uint8_t)(m->estride[i] - 1);
	}
	for (unsigned i = 0; i < 3; i++) {
		put(b + 92 + 4 * i, (uint32_t)m->lower[i], 4);
		put(b + 104 + 4 * i, (uint32_t)m->upper[i], 4);
	}
	put(b + 124, fnv(b, 124), 4);
	memcpy(out, b, TMAP_BYTES);
}

/* The checks both encoders make and the decoder repeats: CUDA's rules for
 * cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col, in their order. */
static const char *validate(const TMap *m)
{
	unsigned r = m->rank;
	if (m->dtype >= TMAP__TYPES)
		return "the data type is not a CUtensorMapDataType of compute capability 9.0";
	if (m->mode == TMAP_IM2COL ? r < 3 || r > 5 : r < 1 || r > 5)
		return m->mode == TMAP_IM2COL ? "an im2col tensor has rank 3, 4 or 5" : "the rank is 1 to 5";
	if (m->interleave > 2)
		return "interleave is not a CUtensorMapInterleave";
	if (m->interleave && r < 3)
		return "an interleaved tensor has rank 3 or more";
	if (m->addr % (m->interleave == 2 ? 32 : 16))
		return m->interleave == 2 ? "the global address of a 32B-interleaved tensor is 32-byte aligned"
					  : "the global address is 16-byte aligned";
	for (unsigned i = 0; i < r; i++)
		if (m->dim[i] == 0 || m->dim[i] > (1ull << 32))
			return "each global dimension is 1 to 2^32";
	for (unsigned i = 1; i < r; i++) {
		uint64_t s = m->stride[i];
		if (s % 16 || s >= (1ull << 40))
			return "each global stride is a multiple of 16 below 2^40";
		if (m->interleave == 2 && s % 32)
			return "the strides of a 32B-interleaved tensor are multiples of 32";
	}
	uint32_t inner;
	if (m->mode == TMAP_TILE) {
		for (unsigned i = 0; i < r; i++)
			if (m->box[i] == 0 || m->box[i] > 256)
				return "each box dimension is 1 to 256";
		inner = m->box[0] * m->esize;
		if (!m->interleave && inner % 16)
			return "the box's inner dimension (boxDim[0] times the element size) is a multiple of 16 bytes";
	} else {
		static const int32_t lim[6] = { 0, 0, 0, 32768, 128, 16 };
		for (unsigned i = 0; i < r - 2; i++)
			if (m->lower[i] < -lim[r] || m->lower[i] >= lim[r] || m->upper[i] < -lim[r] ||
			    m->upper[i] >= lim[r])
				return r == 3 ? "the pixel box corners of a rank-3 tensor are in -32768..32767"
				       : r == 4 ? "the pixel box corners of a rank-4 tensor are in -128..127"
				       : "the pixel box corners of a rank-5 tensor are in -16..15";
		for (unsigned i = 0; i < r - 2; i++)
			if ((int64_t)m->dim[i + 1] + m->upper[i] - m->lower[i] <= 0)
				return "the pixel bounding box is empty";
		if (m->channels == 0 || m->channels > 256)
			return "channelsPerPixel is 1 to 256";
		if (m->pixels == 0 || m->pixels > 1024)
			return "pixelsPerColumn is 1 to 1024";
		inner = m->channels * m->esize;
		if (!m->interleave && inner % 16)
			return "channelsPerPixel times the element size is a multiple of 16 bytes";
	}
	for (unsigned i = 0; i < r; i++)
		if (m->estride[i] == 0 || m->estride[i] > 8)
			return "each element stride is 1 to 8";
	if (m->swizzle > 3)
		return "the swizzle is NONE, 32B, 64B or 128B on compute capability 9.0";
	if (m->interleave == 2 && m->swizzle != 1)
		return "a 32B-interleaved tensor takes the 32B swizzle";
	if (!m->interleave && m->swizzle && inner > (16u << m->swizzle))
		return "the box's inner dimension exceeds the swizzle span";
	if (m->l2promo > 3)
		return "l2Promotion is not a CUtensorMapL2promotion";
	if (m->oob_nan > 1)
		return "oobFill is not a CUtensorMapFloatOOBfill";
	if (m->oob_nan && !is_float(m->dtype))
		return "NaN fill needs a floating-point data type";
	return NULL;
}

static const char *common(TMap *m, unsigned dtype, unsigned rank, uint64_t addr, const uint64_t *dim,
			  const uint64_t *strides, const uint32_t *estrides, unsigned interleave, unsigned swizzle,
			  unsigned l2promo, unsigned oobfill)
{
	memset(m, 0, sizeof *m);
	if (dtype >= TMAP__TYPES)
		return "the data type is not a CUtensorMapDataType of compute capability 9.0";
	if (rank < 1 || rank > 5)
		return "the rank is 1 to 5";
	if (!dim || !estrides || (rank > 1 && !strides))
		return "an array argument is NULL";
	m->rank = (uint8_t)rank, m->dtype = (uint8_t)dtype, m->esize = esize_of[dtype];
	m->interleave = (uint8_t)(interleave > 255 ? 255 : interleave);
	m->swizzle = (uint8_t)(swizzle > 255 ? 255 : swizzle);
	m->l2promo = (uint8_t)(l2promo > 255 ? 255 : l2promo);
	m->oob_nan = (uint8_t)(oobfill > 255 ? 255 : oobfill);
	m->addr = addr;
	m->stride[0] = m->esize;
	for (unsigned i = 0; i < rank; i++) {
		m->dim[i] = dim[i];
		m->estride[i] = estrides[i];
		if (i)
			m->stride[i] = strides[i - 1];
	}
	return NULL;
}

const char *tmap_encode_tiled(uint8_t out[TMAP_BYTES], unsigned dtype, unsigned rank, uint64_t addr,
			      const uint64_t *dim, const uint64_t *strides, const uint32_t *box,
			      const uint32_t *estrides, unsigned interleave, unsigned swizzle, unsigned l2promo,
			      unsigned oobfill)
{
	TMap m;
	const char *why = common(&m, dtype, rank, addr, dim, strides, estrides, interleave, swizzle, l2promo,
				 oobfill);
	if (!why && !box)
		why = "an array argument is NULL";
	if (why)
		return why;
	m.mode = TMAP_TILE;
	for (unsigned i = 0; i < rank; i++)
		m.box[i] = box[i];
	if ((why = validate(&m)))
		return why;
	write_map(out, &m);
	return NULL;
}

const char *tmap_encode_im2col(uint8_t out[TMAP_BYTES], unsigned dtype, unsigned rank, uint64_t addr,
			       const uint64_t *dim, const uint64_t *strides, const int *lower, const int *upper,
			       unsigned channels, unsigned pixels, const uint32_t *estrides, unsigned interleave,
			       unsigned swizzle, unsigned l2promo, unsigned oobfill)
{
	TMap m;
	const char *why = common(&m, dtype, rank, addr, dim, strides, estrides, interleave, swizzle, l2promo,
				 oobfill);
	if (why)
		return why;
	m.mode = TMAP_IM2COL;
	if (rank < 3)
		return "an im2col tensor has rank 3, 4 or 5";
	if (!lower || !upper)
		return "an array argument is NULL";
	for (unsigned i = 0; i < rank - 2; i++)
		m.lower[i] = lower[i], m.upper[i] = upper[i];
	m.channels = channels > 65535 ? 65535 : channels;
	m.pixels = pixels > 65535 ? 65535 : pixels;
	if ((why = validate(&m)))
		return why;
	write_map(out, &m);
	return NULL;
}

const char *tmap_decode(const uint8_t in[TMAP_BYTES], TMap *m)
{
	if (memcmp(in, magic, 4))
		return "these 128 bytes are not a tensor map (cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col makes one)";
	if (get(in + 124, 4) != fnv(in, 124))
		return "the tensor map is damaged (its check value does not match its contents)";
	memset(m, 0, sizeof *m);
	m->mode = in[4], m->rank = in[5], m->dtype = in[6], m->interleave = in[7];
	m->swizzle = in[8], m->l2promo = in[9], m->oob_nan = in[10];
	if ((m->mode != TMAP_TILE && m->mode != TMAP_IM2COL) || m->rank < 1 || m->rank > 5 ||
	    m->dtype >= TMAP__TYPES)
		return "the tensor map's mode, rank or data type is invalid";
	m->esize = esize_of[m->dtype];
	m->channels = (uint32_t)get(in + 12, 2);
	m->pixels = (uint32_t)get(in + 14, 2);
	m->addr = get(in + 16, 8);
	m->stride[0] = m->esize;
	for (unsigned i = 0; i < m->rank; i++) {
		m->dim[i] = get(in + 24 + 4 * i, 4) + 1;
		if (i)
			m->stride[i] = get(in + 48 + 8 * (i - 1), 8);
		m->box[i] = m->mode == TMAP_TILE ? in[80 + i] + 1u : 0;
		m->estride[i] = in[85 + i] + 1u;
	}
	for (unsigned i = 0; i < 3; i++) {
		m->lower[i] = (int32_t)(uint32_t)get(in + 92 + 4 * i, 4);
		m->upper[i] = (int32_t)(uint32_t)get(in + 104 + 4 * i, 4);
	}
	const char *why = validate(m);
	return why ? why : NULL;
}

const char *tmap_replace_address(uint8_t map[TMAP_BYTES], uint64_t addr)
{
	TMap m;
	const char *why = tmap_decode(map, &m);
	if (why)
		return why;
	m.addr = addr;
	if ((why = validate(&m)))
		return why;
	write_map(map, &m);
	return NULL;
}

/* The element types as tensormap.replace.elemtype numbers them (the PTX
 * manual's table: .f32.ftz before .f64 and .bf16, unlike
 * CUtensorMapDataType); 13-15 are sm_100's packed types. */
static const uint8_t ptx_elemtype[] = {
	TMAP_U8, TMAP_U16, TMAP_U32, TMAP_S32, TMAP_U64, TMAP_S64, TMAP_F16, TMAP_F32, TMAP_F32_FTZ, TMAP_F64,
	TMAP_BF16, TMAP_TF32, TMAP_TF32_FTZ,
};

/* Each field's own range; the rules that tie fields together (the inner
 * box, the swizzle span, 32B interleave, NaN fill) wait until a copy
 * reads the map, since a kernel replaces fields one at a time. */
const char *tmap_replace(uint8_t map[TMAP_BYTES], unsigned field, unsigned ord, uint64_t value)
{
	uint8_t b[TMAP_BYTES];
	memcpy(b, map, sizeof b);
	if (memcmp(b, magic, 4)) {      /* no map yet: these bytes become one, field by field */
		memcpy(b, magic, 4);
		b[4] = TMAP_TILE;
	}
	if (b[4] == TMAP_IM2COL)
		return "tensormap.replace.tile on an im2col map";
	b[4] = TMAP_TILE;
	bool dimensioned = field == TMAP_F_BOX_DIM || field == TMAP_F_GLOBAL_DIM || field == TMAP_F_GLOBAL_STRIDE ||
			   field == TMAP_F_ELEMENT_STRIDE;
	if (dimensioned && ord >= (field == TMAP_F_GLOBAL_STRIDE ? TMAP_MAX_RANK - 1 : TMAP_MAX_RANK))
		return field == TMAP_F_GLOBAL_STRIDE ? "global_stride's ordinal is 0 to 3 (the stride of dimension 1 to 4)"
						     : "the dimension ordinal is 0 to 4";
	switch (field) {
	case TMAP_F_ADDRESS:
		if (value % 16)
			return "the global address is 16-byte aligned";
		put(b + 16, value, 8);
		break;
	case TMAP_F_RANK:
		if (value > 4)
			return "rank takes the rank minus one, 0 to 4";
		b[5] = (uint8_t)(value + 1);
		break;
	case TMAP_F_BOX_DIM:
		if (value == 0 || value > 256)
			return "each box dimension is 1 to 256";
		b[80 + ord] = (uint8_t)(value - 1);
		break;
	case TMAP_F_GLOBAL_DIM:
		if (value == 0 || value > UINT32_MAX)
			return "each global dimension is 1 to 2^32 - 1";
		put(b + 24 + 4 * ord, value - 1, 4);
		break;
	case TMAP_F_GLOBAL_STRIDE:
		if (value % 16 || value >= (1ull << 40))
			return "each global stride is a multiple of 16 below 2^40";
		put(b + 48 + 8 * ord, value, 8);
		break;
	case TMAP_F_ELEMENT_STRIDE:
		if (value == 0 || value > 8)
			return "each element stride is 1 to 8";
		b[85 + ord] = (uint8_t)(value - 1);
		break;
	case TMAP_F_ELEMTYPE:
		if (value >= sizeof ptx_elemtype)
			return value <= 15 ? "element types 13 to 15 (packed) are compute capability 10's"
					   : "elemtype is 0 to 15";
		b[6] = ptx_elemtype[value];
		break;
	case TMAP_F_INTERLEAVE:
		if (value > 2)
			return "interleave_layout is 0 (none), 1 (16B) or 2 (32B)";
		b[7] = (uint8_t)value;
		break;
	case TMAP_F_SWIZZLE:
		if (value > 3)
			return "swizzle_mode is 0 (none), 1 (32B), 2 (64B) or 3 (128B) on compute capability 9.0";
		b[8] = (uint8_t)value;
		break;
	case TMAP_F_FILL:
		if (value > 1)
			return "fill_mode is 0 (zeros) or 1 (NaN)";
		b[10] = (uint8_t)value;
		break;
	default:
		return "no such tensor map field";
	}
	put(b + 124, fnv(b, 124), 4);
	memcpy(map, b, TMAP_BYTES);
	return NULL;
}

/* ---- the box ------------------------------------------------------------- */
/* Elements along dimension i of a tile box: ceil(box / estride), where
 * dimension 0 takes no stride unless the tensor is interleaved. */
static uint32_t tile_count(const TMap *m, unsigned i)
{
	uint32_t es = i == 0 && !m->interleave ? 1 : m->estride[i];
	return (m->box[i] + es - 1) / es;
}

uint64_t tmap_box_bytes(const TMap *m)
{
	if (m->mode == TMAP_IM2COL)
		return (uint64_t)m->channels * m->pixels * m->esize;
	uint64_t n = m->esize;
	for (unsigned i = 0; i < m->rank; i++)
		n *= tile_count(m, i);
	return n;
}

void tmap_iter(TMapIter *it, const TMap *m, const int32_t *coords, const uint16_t *off)
{
	memset(it, 0, sizeof *it);
	it->m = m;
	for (unsigned i = 0; i < m->rank; i++)
		it->c[i] = coords[i];
	it->start0 = coords[0];
	if (m->mode == TMAP_IM2COL) {
		for (unsigned i = 0; i + 2 < m->rank; i++)
			it->off[i] = off ? off[i] : 0;
		it->n0 = m->channels;
	} else {
		it->n0 = tile_count(m, 0);
	}
	it->left = tmap_box_bytes(m) / m->esize;
}

/* The next pixel of an im2col traversal: W steps by its element stride
 * within the bounding box [lower, dim - 1 + upper]; past its end it goes
 * back to lower and H steps, and so on; past D, the next image (N + 1). */
static void next_pixel(TMapIter *it)
{
	const TMap *m = it->m;
	unsigned ns = m->rank - 2;
	for (unsigned i = 0; i < ns; i++) {
		int64_t *p = &it->c[i + 1];
		*p += m->estride[i + 1];
		if (*p <= (int64_t)m->dim[i + 1] - 1 + m->upper[i])
			return;
		*p = m->lower[i];
	}
	it->c[m->rank - 1] += 1;
}

/* Advances the tile counters past the end of a dimension-0 run. */
static void next_row(TMapIter *it)
{
	const TMap *m = it->m;
	for (unsigned i = 1; i < m->rank; i++) {
		if (++it->j[i] < tile_count(m, i)) {
			it->c[i] += m->estride[i];
			return;
		}
		it->c[i] -= (int64_t)m->estride[i] * (it->j[i] - 1);
		it->j[i] = 0;
	}
}

bool tmap_next(TMapIter *it, uint64_t *ga)
{
	const TMap *m = it->m;
	if (!it->left)
		return false;
	it->left--;
	int64_t pos[TMAP_MAX_RANK];
	uint32_t es0 = m->interleave ? m->estride[0] : 1;
	pos[0] = it->start0 + (int64_t)it->j0 * (m->mode == TMAP_IM2COL ? 1 : es0);
	for (unsigned i = 1; i < m->rank; i++)
		pos[i] = it->c[i] + (m->mode == TMAP_IM2COL && i + 1 < m->rank ? it->off[i - 1] : 0);
	if (++it->j0 == it->n0) {
		it->j0 = 0;
		if (m->mode == TMAP_IM2COL)
			next_pixel(it);
		else
			next_row(it);
	}
	uint64_t a = m->addr;
	for (unsigned i = 0; i < m->rank; i++) {
		if (pos[i] < 0 || (uint64_t)pos[i] >= m->dim[i])
			return false;
		a += (uint64_t)pos[i] * m->stride[i];
	}
	*ga = a;
	return true;
}

uint64_t tmap_swizzle(const TMap *m, uint64_t a)
{
	/* 32B, 64B, 128B: bits 4, 4-5, 4-6 take the XOR of bits 7, 7-8, 7-9 */
	uint64_t mask = (1u << m->swizzle) - 1;
	return m->swizzle ? a ^ ((a >> 7 & mask) << 4) : a;
}

uint64_t tmap_oob_value(const TMap *m)
{
	if (!m->oob_nan)
		return 0;
	switch (m->dtype) {
	case TMAP_F16: case TMAP_BF16: return FP_OOB_NAN16;   /* what fma.oob recognizes */
	case TMAP_F64: return FP_F64_CNAN;
	default: return FP_F32_CNAN;
	}
}
