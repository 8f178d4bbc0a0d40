/* sample.c: the one sampler (tex.h): texel decoding, addressing, point and
 * linear filtering, cubemaps, layers, mipmaps, gathers.
 *
 * A lookup runs in this order: the layer; the coordinates (NaN is 0; a
 * cubemap direction becomes a face and face coordinates); the level of
 * detail and the levels it blends; in each level, the coordinates in
 * texels (normalized ones in 21-bit fixed point times the level's size,
 * plus the offset), the texels of the footprint through the address mode,
 * and the filter.  Linear filtering is the hardware's, as an H200 showed
 * it: alpha = frac(x - 0.5) rounded to 8 fractional bits, integer weights
 * that sum to 256 over every texel of the lookup (split2), and a sum in
 * fixed point (accumulate).  docs/TEXTURES.md states every rule and says
 * which were measured and which are ptxvm's choice.
 */
#include "tex.h"
#include "../exec/fp.h"
#include "../../include/ptxvm.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define LIM 1048576.0   /* |texel coordinate| beyond this changes no result */

static inline float f32of(uint32_t b)
{
	float f;
	memcpy(&f, &b, 4);
	return f;
}

static inline uint32_t bitsof(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

/* sRGB to linear, of an 8-bit value: the hardware's table (measured on an
 * H200, tests/hw/golden/h200.txt), whose values have 8 significant bits:
 * bfloat16, the high half of the f32 result.  It is not the standard curve
 * rounded (251 gives 0.9609375 where the curve is 0.96469). */
static const uint16_t srgb_bf16[256] = {
	0x0000, 0x39a0, 0x3a20, 0x3a70, 0x3aa0, 0x3ac8, 0x3af0, 0x3b0c, 0x3b20, 0x3b34, 0x3b48, 0x3b5c,
	0x3b70, 0x3b84, 0x3b90, 0x3b9c, 0x3baa, 0x3bb8, 0x3bc6, 0x3bd6, 0x3be6, 0x3bf6, 0x3c03, 0x3c0c,
	0x3c16, 0x3c1f, 0x3c29, 0x3c34, 0x3c3e, 0x3c49, 0x3c55, 0x3c60, 0x3c6c, 0x3c7a, 0x3c83, 0x3c8a,
	0x3c91, 0x3c98, 0x3c9f, 0x3ca6, 0x3cae, 0x3cb6, 0x3cbe, 0x3cc6, 0x3cce, 0x3cd7, 0x3ce0, 0x3ce9,
	0x3cf2, 0x3cfc, 0x3d03, 0x3d08, 0x3d0d, 0x3d12, 0x3d17, 0x3d1c, 0x3d22, 0x3d28, 0x3d2d, 0x3d33,
	0x3d39, 0x3d3f, 0x3d45, 0x3d4c, 0x3d52, 0x3d58, 0x3d60, 0x3d66, 0x3d6c, 0x3d74, 0x3d7a, 0x3d81,
	0x3d85, 0x3d88, 0x3d8c, 0x3d90, 0x3d94, 0x3d98, 0x3d9c, 0x3da0, 0x3da4, 0x3da9, 0x3dad, 0x3db1,
	0x3db6, 0x3dba, 0x3dbf, 0x3dc3, 0x3dc8, 0x3dcd, 0x3dd1, 0x3dd6, 0x3ddb, 0x3de0, 0x3de5, 0x3dea,
	0x3df0, 0x3df4, 0x3dfa, 0x3e00, 0x3e02, 0x3e05, 0x3e08, 0x3e0b, 0x3e0e, 0x3e11, 0x3e14, 0x3e17,
	0x3e1a, 0x3e1d, 0x3e20, 0x3e23, 0x3e26, 0x3e29, 0x3e2c, 0x3e30, 0x3e33, 0x3e36, 0x3e3a, 0x3e3d,
	0x3e40, 0x3e44, 0x3e47, 0x3e4b, 0x3e4e, 0x3e52, 0x3e56, 0x3e59, 0x3e5d, 0x3e61, 0x3e65, 0x3e68,
	0x3e6c, 0x3e70, 0x3e74, 0x3e78, 0x3e7c, 0x3e80, 0x3e82, 0x3e84, 0x3e86, 0x3e88, 0x3e8a, 0x3e8d,
	0x3e8f, 0x3e91, 0x3e93, 0x3e95, 0x3e98, 0x3e9a, 0x3e9c, 0x3e9e, 0x3ea1, 0x3ea3, 0x3ea5, 0x3ea8,
	0x3eaa, 0x3ead, 0x3eaf, 0x3eb2, 0x3eb4, 0x3eb6, 0x3eb9, 0x3ebc, 0x3ebe, 0x3ec1, 0x3ec3, 0x3ec6,
	0x3ec8, 0x3ecb, 0x3ece, 0x3ed1, 0x3ed3, 0x3ed6, 0x3ed9, 0x3edb, 0x3ede, 0x3ee1, 0x3ee4, 0x3ee7,
	0x3eea, 0x3eed, 0x3ef0, 0x3ef2, 0x3ef6, 0x3ef8, 0x3efc, 0x3efe, 0x3f01, 0x3f02, 0x3f04, 0x3f05,
	0x3f07, 0x3f09, 0x3f0a, 0x3f0c, 0x3f0d, 0x3f0f, 0x3f11, 0x3f12, 0x3f14, 0x3f16, 0x3f17, 0x3f19,
	0x3f1b, 0x3f1c, 0x3f1e, 0x3f20, 0x3f21, 0x3f23, 0x3f25, 0x3f27, 0x3f29, 0x3f2a, 0x3f2c, 0x3f2e,
	0x3f30, 0x3f32, 0x3f33, 0x3f35, 0x3f37, 0x3f39, 0x3f3b, 0x3f3d, 0x3f3f, 0x3f41, 0x3f43, 0x3f45,
	0x3f47, 0x3f49, 0x3f4b, 0x3f4d, 0x3f4f, 0x3f51, 0x3f53, 0x3f55, 0x3f57, 0x3f59, 0x3f5b, 0x3f5d,
	0x3f5f, 0x3f61, 0x3f63, 0x3f65, 0x3f68, 0x3f6a, 0x3f6c, 0x3f6e, 0x3f70, 0x3f72, 0x3f74, 0x3f76,
	0x3f7a, 0x3f7c, 0x3f7e, 0x3f80,
};

/* The four components of the texel at p: f32 bits where the result is
 * floating point, else integers.  Components the format lacks are 0,
 * alpha too. */
static void texel(const TexView *v, const uint8_t *p, uint32_t o[4])
{
	unsigned n = v->channels, cb = v->esize / n;
	o[0] = o[1] = o[2] = o[3] = 0;
	if (v->format == PTXVM_FORMAT_F32 || v->format == PTXVM_FORMAT_U32 || v->format == PTXVM_FORMAT_S32) {
		memcpy(o, p, 4 * n);    /* the bits as they are (a little-endian host) */
		return;
	}
	for (unsigned ch = 0; ch < n; ch++, p += cb) {
		uint32_t r = cb == 1 ? p[0] : cb == 2 ? (uint32_t)(p[0] | p[1] << 8)
			     : (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		switch (v->format) {
		case PTXVM_FORMAT_U8: case PTXVM_FORMAT_UNORM8:
			if (v->srgb && ch < 3)
				r = (uint32_t)srgb_bf16[r] << 16;
			else if (v->norm)
				r = bitsof((float)r / 255.0f);
			break;
		case PTXVM_FORMAT_U16: case PTXVM_FORMAT_UNORM16:
			if (v->norm)
				r = bitsof((float)r / 65535.0f);
			break;
		case PTXVM_FORMAT_S8: case PTXVM_FORMAT_SNORM8:
			r = (uint32_t)(int32_t)(int8_t)r;
			if (v->norm)
				r = bitsof(fmaxf((float)(int32_t)r / 127.0f, -1.0f));
			break;
		case PTXVM_FORMAT_S16: case PTXVM_FORMAT_SNORM16:
			r = (uint32_t)(int32_t)(int16_t)r;
			if (v->norm)
				r = bitsof(fmaxf((float)(int32_t)r / 32767.0f, -1.0f));
			break;
		case PTXVM_FORMAT_F16:
			/* a NaN keeps its sign and payload, shifted into place */
			r = (r & 0x7c00) == 0x7c00 && (r & 0x3ff) ? (r & 0x8000) << 16 | 0x7f800000u | (r & 0x3ff) << 13
								  : bitsof(f16_to_f32((uint16_t)r));
			break;
		default:        /* u32, s32, f32: the bits */
			break;
		}
		o[ch] = r;
	}
}

/* The border colour as a texel of the view: the components the format
 * lacks are 0, as a texel's. */
static void border_texel(const TexView *v, uint32_t o[4])
{
	for (unsigned k = 0; k < 4; k++)
		o[k] = k < v->channels ? v->s.border[k] : 0;
}

/* ---- addressing ------------------------------------------------------------ */

/* Texel index i of an axis of n texels under an address mode; -1 for the
 * border colour. */
static inline int64_t address(int64_t i, int64_t n, unsigned mode)
{
	if (i >= 0 && i < n)
		return i;
	switch (mode) {
	case TEX_WRAP:
		i %= n;
		return i < 0 ? i + n : i;
	case TEX_MIRROR: {
		int64_t p = 2 * n;
		i %= p;
		if (i < 0)
			i += p;
		return i < n ? i : p - 1 - i;
	}
	case TEX_CLAMP:
		return i < 0 ? 0 : n - 1;
	default:        /* border, clamp_ogl */
		return -1;
	}
}

/* Cube faces (+x -x +y -y +z -z): the major axis, and the axes of the
 * face's s and t, as in the Programming Guide's table. */
static const int8_t face_m[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
static const int8_t face_s[6][3] = { { 0, 0, -1 }, { 0, 0, 1 }, { 1, 0, 0 }, { 1, 0, 0 }, { 1, 0, 0 }, { -1, 0, 0 } };
static const int8_t face_t[6][3] = { { 0, -1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 }, { 0, -1, 0 }, { 0, -1, 0 } };

/* The face of direction (x, y, z) (no NaN), with sc, tc and |ma|.  x
 * takes the face only with a magnitude larger than both others', y with
 * one larger than z's: ties go to z, then y.  A direction of zero or
 * infinite magnitude has no face: it reads the centre of +z (-z when z is
 * negative), *ma = 0. */
static int cube_face(double x, double y, double z, double *sc, double *tc, double *ma)
{
	double ax = fabs(x), ay = fabs(y), az = fabs(z), m = fmax(ax, fmax(ay, az));
	if (m == 0 || isinf(m)) {
		*sc = *tc = *ma = 0;
		return signbit(z) ? 5 : 4;
	}
	int f = ax > ay && ax > az ? (x >= 0 ? 0 : 1) : ay > az ? (y >= 0 ? 2 : 3) : (z >= 0 ? 4 : 5);
	switch (f) {    /* the components the face's s and t axes pick */
	case 0: *sc = -z; *tc = -y; *ma = ax; break;
	case 1: *sc = z; *tc = -y; *ma = ax; break;
	case 2: *sc = x; *tc = z; *ma = ay; break;
	case 3: *sc = x; *tc = -z; *ma = ay; break;
	case 4: *sc = x; *tc = -y; *ma = az; break;
	default: *sc = -x; *tc = -y; *ma = az; break;
	}
	return f;
}

/* Seamless cubemaps: texel (x, y) of face f just outside the face (one
 * coordinate at -1 or n) is the texel of the neighbouring face that the
 * face, folded over its edge, puts there; exact, in texel units times 2. */
static int cube_neighbour(int f, int64_t n, int64_t *x, int64_t *y)
{
	int64_t sc = 2 * *x + 1 - n, tc = 2 * *y + 1 - n, p[3];
	const int8_t *edge = *x < 0 || *x >= n ? face_s[f] : face_t[f];
	int64_t over = *x < 0 || *x >= n ? sc : tc, keep = *x < 0 || *x >= n ? tc : sc;
	const int8_t *kax = *x < 0 || *x >= n ? face_t[f] : face_s[f];
	int64_t sg = over < 0 ? -1 : 1, m = 2 * n - (over < 0 ? -over : over);
	for (int k = 0; k < 3; k++)
		p[k] = sg * edge[k] * n + face_m[f][k] * m + kax[k] * keep;
	double s, t, ma;
	int g = cube_face((double)p[0], (double)p[1], (double)p[2], &s, &t, &ma);
	*x = ((int64_t)s + n - 1) / 2;
	*y = ((int64_t)t + n - 1) / 2;
	return g;
}

/* Where a level is read: the level, the layer (or cube face layer), the
 * address modes, and a cube face for seamless filtering (-1: none). */
typedef struct Loc {
	const TexView *v;
	const TexLevel *lv;
	uint32_t layer;
	uint8_t mode[3];
	int face;               /* seamless cube: the face; else -1 */
} Loc;

/* The texel at raw indices (x, y, z), addressed: its bytes, or NULL for
 * the border colour. */
static const uint8_t *texel_at(const Loc *c, int64_t x, int64_t y, int64_t z)
{
	const TexLevel *lv = c->lv;
	uint32_t layer = c->layer;
	if (c->face >= 0 && (x < 0 || x >= lv->w || y < 0 || y >= lv->h)) {
		int g = cube_neighbour(c->face, lv->w, &x, &y);
		layer = layer - (uint32_t)c->face + (uint32_t)g;
	} else {
		x = address(x, lv->w, c->mode[0]);
		y = address(y, lv->h, c->mode[1]);
		z = address(z, lv->d, c->mode[2]);
	}
	if (x < 0 || y < 0 || z < 0)
		return NULL;
	return lv->data + layer * lv->layer + (size_t)z * lv->slice + (size_t)y * lv->row + (size_t)x * c->v->esize;
}

/* The texel at raw indices (x, y, z): addressed, or the border colour
 * (then true). */
static bool fetch_bits(const Loc *c, int64_t x, int64_t y, int64_t z, uint32_t o[4])
{
	const uint8_t *p = texel_at(c, x, y, z);
	if (!p)
		border_texel(c->v, o);
	else
		texel(c->v, p, o);
	return !p;
}

/* A texel as the filter reads it: its components as doubles (integers by
 * the format's signedness) and, for those of an 8- or 16-bit texel read
 * as normalized floats, an integer value u in units of 1/65535 (unsigned:
 * 8-bit values times 257), of 1/32767 (signed 16-bit values as they are,
 * -32768 too) or of 1/127 (signed 8-bit values as they are, -128 too),
 * unit saying which (0: none).  The border colour of such a texture is
 * cut (towards zero) to the format's own units first.  A seamless cube
 * corner outside both edges (for tld4) is the mean of the three texels
 * that meet there. */
enum { UNIT_NONE, UNIT_UNORM, UNIT_SNORM, UNIT_SNORM8 };

typedef struct Tap {
	double v[4];
	int32_t u[4];
	uint8_t unit[4];
} Tap;

static void fetch_tap(const Loc *c, int64_t x, int64_t y, int64_t z, Tap *t)
{
	const TexView *v = c->v;
	int64_t n = c->lv->w;
	memset(t->unit, UNIT_NONE, sizeof t->unit);
	if (c->face >= 0 && (x < 0 || x >= n) && (y < 0 || y >= n)) {
		int64_t xi = x < 0 ? 0 : n - 1, yi = y < 0 ? 0 : n - 1;
		Tap a, e, f;
		fetch_tap(c, xi, yi, z, &a);
		fetch_tap(c, x, yi, z, &e);
		fetch_tap(c, xi, y, z, &f);
		for (int k = 0; k < 4; k++)
			t->v[k] = (a.v[k] + e.v[k] + f.v[k]) / 3;
		return;
	}
	uint32_t b[4];
	const uint8_t *p = texel_at(c, x, y, z);
	if (p)
		texel(v, p, b);
	else
		border_texel(v, b);
	unsigned f = v->format;
	bool fl = v->fresult, sg = f == PTXVM_FORMAT_S32 || f == PTXVM_FORMAT_S16 || f == PTXVM_FORMAT_S8;
	for (int k = 0; k < 4; k++)
		t->v[k] = fl ? (double)f32of(b[k]) : sg ? (double)(int32_t)b[k] : (double)b[k];
	if (!v->norm)
		return;
	for (unsigned k = v->srgb ? 3 : 0; k < v->channels; k++) {
		if (!p) {
			float bc = f32of(b[k]);
			bool sn = f == PTXVM_FORMAT_S8 || f == PTXVM_FORMAT_SNORM8 || f == PTXVM_FORMAT_S16 ||
				  f == PTXVM_FORMAT_SNORM16;
			bc = isnan(bc) ? 0 : fminf(fmaxf(bc, sn ? -1.0f : 0.0f), 1.0f);
			switch (f) {
			case PTXVM_FORMAT_U8: case PTXVM_FORMAT_UNORM8:
				t->u[k] = 257 * (int32_t)(bc * 255), t->unit[k] = UNIT_UNORM;
				break;
			case PTXVM_FORMAT_U16: case PTXVM_FORMAT_UNORM16:
				t->u[k] = (int32_t)(bc * 65535), t->unit[k] = UNIT_UNORM;
				break;
			case PTXVM_FORMAT_S8: case PTXVM_FORMAT_SNORM8:
				t->u[k] = (int32_t)(bc * 127), t->unit[k] = UNIT_SNORM8;
				break;
			case PTXVM_FORMAT_S16: case PTXVM_FORMAT_SNORM16:
				t->u[k] = (int32_t)(bc * 32767), t->unit[k] = UNIT_SNORM;
				break;
			}
			continue;
		}
		switch (f) {
		case PTXVM_FORMAT_U8: case PTXVM_FORMAT_UNORM8:
			t->u[k] = 257 * p[k], t->unit[k] = UNIT_UNORM;
			break;
		case PTXVM_FORMAT_U16: case PTXVM_FORMAT_UNORM16:
			t->u[k] = p[2 * k] | p[2 * k + 1] << 8, t->unit[k] = UNIT_UNORM;
			break;
		case PTXVM_FORMAT_S8: case PTXVM_FORMAT_SNORM8:
			t->u[k] = (int8_t)p[k], t->unit[k] = UNIT_SNORM8;
			break;
		case PTXVM_FORMAT_S16: case PTXVM_FORMAT_SNORM16:
			t->u[k] = (int16_t)(p[2 * k] | p[2 * k + 1] << 8), t->unit[k] = UNIT_SNORM;
			break;
		}
	}
}

/* floor of |x| < 2^52 (texel coordinates are bounded by LIM) without a
 * libm call. */
static inline double ffloor(double x)
{
	double t = (double)(int64_t)x;
	return t > x ? t - 1 : t;
}

/* One axis of a footprint: the first texel index and, for linear
 * filtering, alpha in 1/256 (the second texel is i + 1). */
typedef struct Axis {
	int64_t i;
	int a;
} Axis;

static inline Axis axis(double u, int64_t n, bool linear, unsigned mode)
{
	if (mode == TEX_CLAMP_OGL)
		u = u < 0 ? 0 : u > (double)n ? (double)n : u;
	Axis r = { 0, 0 };
	if (!linear) {
		r.i = (int64_t)ffloor(u);
		return r;
	}
	double xb = u - 0.5, fl = ffloor(xb);
	r.i = (int64_t)fl;
	r.a = (int)((xb - fl) * 256 + 0.5);       /* >= 0.5: the conversion is the floor */
	return r;
}

/* The texels a lookup filters, with integer weights that sum to 256 over
 * all of them (both levels of a mipmap blend). */
typedef struct Taps {
	unsigned n;
	int w[16];
	Tap t[16];
} Taps;

/* A share w of the 256 split between the four texels of a 2D footprint
 * (i, j), (i+1, j), (i, j+1), (i+1, j+1) with alphas a and b: first along
 * x, the i+1 side getting w.a/256 rounded half up; then each side along
 * y, the j+1 part of side i+1 rounded half up, of side i half down.  (So
 * the corner (i+1, j+1) gets a.b/256 rounded half up of a whole 256, and
 * the others the differences, exactly.) */
static void split2(int w, int a, int b, int o[4])
{
	int ax = (w * a + 128) >> 8, v11 = (ax * b + 128) >> 8, v01 = ((w - ax) * b + 127) >> 8;
	o[0] = w - ax - v01;
	o[1] = ax - v11;
	o[2] = v01;
	o[3] = v11;
}


/* The footprint of a level at texel-space coordinates u[0..dims-1] (2 or
 * 3 dimensions), share w of the weight: texels of weight 0 are left out. */
static void level_taps(const Loc *c, unsigned dims, const double u[3], bool linear, int w, Taps *T)
{
	const TexLevel *lv = c->lv;
	int64_t n[3] = { lv->w, lv->h, lv->d };
	Axis ax[3] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
	for (unsigned k = 0; k < dims; k++)
		ax[k] = axis(u[k], n[k], linear, c->mode[k]);
	if (!linear) {
		T->w[T->n] = w;
		fetch_tap(c, ax[0].i, ax[1].i, ax[2].i, &T->t[T->n++]);
		return;
	}
	int wz[2] = { w, 0 };
	if (dims > 2) {         /* depth first, as a mipmap blend's levels */
		wz[1] = (w * ax[2].a + 128) >> 8;
		wz[0] = w - wz[1];
	}
	for (int z = 0; z < (dims > 2 ? 2 : 1); z++) {
		int w4[4];
		split2(wz[z], ax[0].a, ax[1].a, w4);
		for (int j = 0; j < 4; j++) {
			int64_t x = ax[0].i + (j & 1), y = ax[1].i + (j >> 1);
			if (c->face >= 0 && (x < 0 || x >= n[0]) && (y < 0 || y >= n[1]) && w4[j]) {
				/* a seamless cube's corner: its weight goes to the three
				 * texels that meet there, a third (rounded) to each of
				 * the two beyond the edges, the rest to the face's own */
				int64_t xi = x < 0 ? 0 : n[0] - 1, yi = y < 0 ? 0 : n[1] - 1;
				int t = (w4[j] + 1) / 3;
				T->w[T->n] = w4[j] - 2 * t;
				fetch_tap(c, xi, yi, 0, &T->t[T->n++]);
				T->w[T->n] = t;
				fetch_tap(c, x, yi, 0, &T->t[T->n++]);
				T->w[T->n] = t;
				fetch_tap(c, xi, y, 0, &T->t[T->n++]);
			} else if (w4[j]) {
				T->w[T->n] = w4[j];
				fetch_tap(c, x, y, ax[2].i + z, &T->t[T->n++]);
			}
		}
	}
}

/* An exact double rounded to p significant bits (f32: 24, f16: 11, with
 * the subnormal quantum below; f16's overflow is infinite), ties away
 * from zero. */
static float round_away(double x, int p)
{
	if (x == 0)
		return (float)x;
	int e, qmin = p == 11 ? -24 : -149;
	frexp(x, &e);                           /* |x| in [2^(e-1), 2^e) */
	int q = e - p < qmin ? qmin : e - p;    /* the quantum there */
	double r = ldexp(floor(ldexp(fabs(x), -q) + 0.5), q);
	return (float)copysign(p == 11 && r >= 65520 ? INFINITY : r, x);
}

/* How the filter holds a texture's values (measured): the bits kept of
 * each, from the largest one's leading bit down, and the significant bits
 * of the result. */
typedef struct Prec {
	int keep, out;
} Prec;

static Prec prec_of(const TexView *v, int k)
{
	if (v->srgb && k < 3)
		return (Prec){ 8, 11 };         /* the sRGB table's 8 bits; an f16 result */
	if (v->format == PTXVM_FORMAT_F16)
		return (Prec){ 15, 11 };        /* f16's 11 bits and 4 more; an f16 result */
	return (Prec){ 28, 24 };                /* f32's 24 bits and 4 more */
}

/* Component k of the weighted taps, as f32 bits.  Normalized integer
 * texels are summed in their units (1/65535, 1/32767, 1/127), the sum
 * rounded half up to a unit of 1/65535 or 1/32767 (1/127's exactly
 * scaled), then divided (f32), signed ones no lower than -1.  Other values are aligned to the largest
 * exponent among them, keeping p.keep bits from its leading one -- bits
 * further down are cut off, towards zero --, summed exactly and rounded
 * to p.out significant bits, ties away from zero.  An infinite or NaN
 * texel makes the sum IEEE's. */
static uint32_t accumulate(const Taps *T, int k, Prec p)
{
	bool fixed = true, special = false;
	int e = INT_MIN, unit = T->n ? T->t[0].unit[k] : UNIT_NONE;
	for (unsigned i = 0; i < T->n; i++) {
		double x = T->t[i].v[k];
		fixed = fixed && unit != UNIT_NONE && T->t[i].unit[k] == unit;
		if (!isfinite(x)) {
			special = true;
		} else if (x != 0) {
			int ex;
			frexp(x, &ex);
			e = ex > e ? ex : e;
		}
	}
	if (fixed) {
		int64_t s = 0;
		for (unsigned i = 0; i < T->n; i++)
			s += (int64_t)T->w[i] * T->t[i].u[k];
		if (unit == UNIT_SNORM8) {      /* s / (127 * 256) in 1/32767, halves up */
			int64_t a = 2 * 32767 * s + 127 * 256, d = 2 * 127 * 256;
			s = a >= 0 ? a / d : -((-a + d - 1) / d);
		} else {
			s = s >= 0 ? (s + 128) >> 8 : -((-s + 127) >> 8);      /* halves up */
		}
		float r = (float)s / (unit == UNIT_UNORM ? 65535.0f : 32767.0f);
		return bitsof(r < -1 ? -1.0f : r);
	}
	if (special) {          /* a NaN sum is 0x7fffffff, as the GPU's */
		double s = 0;
		for (unsigned i = 0; i < T->n; i++)
			s += T->w[i] * T->t[i].v[k];
		return isnan(s) ? 0x7fffffffu : bitsof((float)(s / 256));
	}
	if (e == INT_MIN)
		return 0;
	double s = 0;   /* exact: terms below 2^(keep + 8), at most 16 of them */
	for (unsigned i = 0; i < T->n; i++)
		s += T->w[i] * trunc(ldexp(T->t[i].v[k], p.keep - e));
	return bitsof(round_away(ldexp(s, e - p.keep - 8), p.out));
}

/* ---- coordinates and levels of detail ------------------------------------- */

static inline double coord(uint32_t b)
{
	float f = f32of(b);
	return isnan(f) ? 0.0 : (double)f;
}

/* A normalized coordinate under wrap or mirror, reduced to one period
 * first (exactly), so that far coordinates keep their place. */
static double reduce(double x, unsigned mode)
{
	if (isinf(x) && (mode == TEX_WRAP || mode == TEX_MIRROR))
		return 0;
	if (mode == TEX_WRAP)
		return x - floor(x);
	if (mode == TEX_MIRROR)
		return x - 2 * floor(x / 2);
	return x;
}

/* A lookup in float coordinates after the layer and face are known: x[k]
 * are normalized or texel coordinates as the view says (cube faces:
 * normalized). */
typedef struct Look {
	const TexView *v;
	const TexQuery *q;
	unsigned dims;
	uint32_t layer;
	int face;               /* cubes: the face, else -1 */
	bool normalized;
	uint8_t mode[3];
	double x[3];
} Look;

/* A normalized coordinate as the hardware holds it: a fixed-point number
 * of 21 fractional bits, cut towards -inf (0.2f times 5 texels is texel
 * 0: 0.2f is a little above 1/5, its cut a little below). */
static inline double fixed21(double x)
{
	return floor(x * 2097152.0) / 2097152.0;
}

/* Coordinate x of dimension d in texels of level l: a normalized one
 * (reduced to one period under wrap and mirror, in fixed point) times the
 * level's size; an unnormalized one is in texels of level 0, scaled to
 * level l; plus the offset (none on cube faces). */
static double texel_coord(const Look *k, unsigned l, unsigned d, double x)
{
	const TexLevel *lv = &k->v->lv[l];
	double n = d == 0 ? lv->w : d == 1 ? lv->h : lv->d;
	double n0 = d == 0 ? k->v->lv[0].w : d == 1 ? k->v->lv[0].h : k->v->lv[0].d;
	double u = k->normalized ? fixed21(reduce(x, k->mode[d])) * n : l ? x * n / n0 : x;
	u = isnan(u) ? 0 : u < -LIM ? -LIM : u > LIM ? LIM : u;
	return u + (k->face >= 0 ? 0 : k->q->off[d]);
}

/* The footprint of level l, share w of the weight.  A 1D texture is
 * filtered as a 2D one of height 1 at y = 0, on the edge of its row:
 * half of the weight falls on row -1 (the border colour, under border
 * addressing). */
static void look_level(const Look *k, unsigned l, const double x[3], int w, Taps *T)
{
	const TexView *v = k->v;
	const TexLevel *lv = &v->lv[l];
	double u[3] = { 0, 0, 0 };
	unsigned dims = k->dims;
	for (unsigned d = 0; d < dims; d++)
		u[d] = texel_coord(k, l, d, x[d]);
	if (dims == 1 && v->s.filter) {
		u[1] = texel_coord(k, l, 1, 0);
		dims = 2;
	}
	Loc c = { v, lv, k->layer, { k->mode[0], k->mode[1], k->mode[2] },
		  k->face >= 0 && v->s.seamless ? k->face : -1 };
	level_taps(&c, dims, u, v->s.filter, w, T);
}

/* The levels a level of detail reads: l0 alone (a == 0), or l0 and
 * l0 + 1 blended with weight a/256.  lam has the bias; the clamps, then
 * cutting to 8 fractional bits (towards -inf), then the mipmap filter decide. */
typedef struct Plan {
	unsigned l0;
	int a;
} Plan;

static Plan plan(const TexView *v, double lam)
{
	const TexSampler *s = &v->s;
	unsigned last = v->nlevels - 1u;
	Plan p = { 0, 0 };
	if (isnan(lam))
		lam = 0;
	lam = fmin(fmax(lam, s->minlod), s->maxlod);
	lam = floor(lam * 256) / 256;           /* cut to 8 fractional bits */
	if (lam <= 0 || !last)
		return p;                       /* magnification: level 0 */
	if (!s->mipfilter) {
		double l = floor(lam + 0.5);    /* the nearest level, 0.5 rounding up */
		p.l0 = l >= last ? last : (unsigned)l;
		return p;
	}
	double fl = floor(lam);
	if (fl >= last) {
		p.l0 = last;
		return p;
	}
	p.l0 = (unsigned)fl;
	p.a = (int)((lam - fl) * 256);
	return p;
}

/* The filtered components at the levels of a plan, f32 bits. */
static void look_plan(const Look *k, Plan p, const double x[3], uint32_t r[4])
{
	Taps T;
	T.n = 0;
	look_level(k, p.l0, x, 256 - p.a, &T);
	if (p.a)
		look_level(k, p.l0 + 1, x, p.a, &T);
	for (int c = 0; c < 4; c++)
		r[c] = accumulate(&T, c, prec_of(k->v, c));
}

/* tex.grad: the gradients in texels of level 0 give the level of detail
 * log2(rho), rho the longer of the two (isotropic), or the longer over
 * the probe count N = min(ceil(longer / shorter), max_anisotropy), with N
 * probes along the longer, averaged (EXT_texture_filter_anisotropic).
 * Returns the probe count and sets *lam and *major (the longer). */
static unsigned grad_lod(const Look *k, const double gx[3], const double gy[3], double *lam,
			 const double **major)
{
	const TexView *v = k->v;
	const TexLevel *l0 = &v->lv[0];
	double n0[3] = { l0->w, l0->h, l0->d }, px = 0, py = 0;
	for (unsigned d = 0; d < k->dims; d++) {
		double sc = k->normalized ? n0[d] : 1, a = gx[d] * sc, b = gy[d] * sc;
		px += a * a;
		py += b * b;
	}
	px = sqrt(px);
	py = sqrt(py);
	double pmax = fmax(px, py), pmin = fmin(px, py);
	unsigned probes = 1;
	if (v->s.max_aniso > 1 && pmax > 0) {
		double nn = pmin > 0 ? ceil(pmax / pmin) : v->s.max_aniso;
		probes = nn < v->s.max_aniso ? (unsigned)nn : v->s.max_aniso;
	}
	*lam = ceil(log2(pmax / probes) * 256) / 256 + v->s.bias;
	*major = px >= py ? gx : gy;
	return probes;
}

/* The probes' f32 results averaged in double, rounded once. */
static void look_aniso(const Look *k, Plan p, unsigned probes, const double g[3], uint32_t r[4])
{
	double acc[4] = { 0, 0, 0, 0 };
	for (unsigned i = 1; i <= probes; i++) {
		double t = (double)i / (probes + 1) - 0.5, x[3];
		uint32_t pr[4];
		for (unsigned d = 0; d < 3; d++)
			x[d] = k->x[d] + t * g[d];
		look_plan(k, p, x, pr);
		for (int c = 0; c < 4; c++)
			acc[c] += f32of(pr[c]);
	}
	for (int c = 0; c < 4; c++)
		r[c] = bitsof((float)(acc[c] / probes));
}

/* ---- the lookup -------------------------------------------------------------- */

static const uint8_t geom_dims[] = { [TEX_G1D] = 1, [TEX_G2D] = 2, [TEX_G3D] = 3, [TEX_GA1D] = 1, [TEX_GA2D] = 2,
				     [TEX_GCUBE] = 2, [TEX_GACUBE] = 2 };

/* Texel fetch: .s32 coordinates are texel indices of the level .level
 * names (else level 0), unfiltered; an index outside the level reads 0 in
 * all four components, whatever the address mode (no border colour). */
static void fetch_texel(const TexView *v, const TexQuery *q, uint32_t layer, uint32_t out[4])
{
	unsigned l = 0;
	if (q->mip == TEX_LEVEL) {
		int32_t lod = (int32_t)q->lod;
		l = lod < 0 ? 0 : lod >= v->nlevels ? v->nlevels - 1u : (unsigned)lod;
	}
	const TexLevel *lv = &v->lv[l];
	int64_t i[3] = { 0, 0, 0 }, n[3] = { lv->w, lv->h, lv->d };
	for (unsigned d = 0; d < geom_dims[q->geom]; d++) {
		i[d] = (int64_t)(int32_t)q->c[d] + q->off[d];
		if (i[d] < 0 || i[d] >= n[d]) {
			memset(out, 0, 16);
			return;
		}
	}
	Loc c = { v, lv, layer, { TEX_CLAMP, TEX_CLAMP, TEX_CLAMP }, -1 };
	fetch_bits(&c, i[0], i[1], i[2], out);
}

/* tld4: the four texels of the bilinear footprint of level 0, component
 * q->gather of each, counter-clockwise from the lower left: (i, j+1),
 * (i+1, j+1), (i+1, j), (i, j). */
static void gather(const Look *k, uint32_t out[4])
{
	const TexView *v = k->v;
	const TexLevel *lv = &v->lv[0];
	int64_t n[2] = { lv->w, lv->h };
	Axis ax[2];
	for (unsigned d = 0; d < 2; d++)
		ax[d] = axis(texel_coord(k, 0, d, k->x[d]), n[d], true, k->mode[d]);
	Loc c = { v, lv, k->layer, { k->mode[0], k->mode[1], k->mode[2] },
		  k->face >= 0 && v->s.seamless ? k->face : -1 };
	static const int8_t di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
	unsigned comp = (unsigned)k->q->gather;
	for (int t = 0; t < 4; t++) {
		int64_t x = ax[0].i + di[t], y = ax[1].i + dj[t];
		if (c.face >= 0 && (x < 0 || x >= n[0]) && (y < 0 || y >= n[1])) {
			Tap r;
			fetch_tap(&c, x, y, 0, &r);
			out[t] = v->fresult ? bitsof((float)r.v[comp]) : (uint32_t)(int64_t)r.v[comp];
		} else {
			uint32_t b[4];
			fetch_bits(&c, x, y, 0, b);
			out[t] = b[comp];
		}
	}
}

/* The common lookup on its own: one level, a 1D or 2D geometry (layered
 * or not), float coordinates, point sampled, no gather,
 * no clamp_ogl; the general path's rules without its generality (the
 * tests hold both to the reference). */
static void sample_flat(const TexView *v, const TexQuery *q, uint32_t layer, uint32_t out[4])
{
	const TexSampler *s = &v->s;
	const TexLevel *lv = &v->lv[0];
	unsigned dims = geom_dims[q->geom];
	int64_t n[2] = { lv->w, lv->h };
	double u[2] = { 0, 0 };
	for (unsigned d = 0; d < dims; d++) {
		double x = coord(q->c[d]);
		if (s->normalized)
			x = fixed21(reduce(x, s->addr[d])) * (double)n[d];
		u[d] = (isnan(x) ? 0 : x < -LIM ? -LIM : x > LIM ? LIM : x) + q->off[d];
	}
	int64_t x = address((int64_t)ffloor(u[0]), n[0], s->addr[0]);
	int64_t y = dims > 1 ? address((int64_t)ffloor(u[1]), n[1], s->addr[1]) : 0;
	if (x < 0 || y < 0)
		border_texel(v, out);
	else
		texel(v, lv->data + layer * lv->layer + (size_t)y * lv->row + (size_t)x * v->esize, out);
}

/* The layer a lookup reads: an array's index, clamped to the last. */
static inline uint32_t layer_of(const TexView *v, const TexQuery *q)
{
	unsigned g = q->geom;
	if (g != TEX_GA1D && g != TEX_GA2D && g != TEX_GACUBE)
		return 0;
	uint32_t n = g == TEX_GACUBE ? v->layers / 6 : v->layers;
	return q->layer < n ? q->layer : n - 1;
}

/* Any lookup, the general way. */
static void sample_one(const TexView *v, const TexQuery *q, uint32_t out[4])
{
	unsigned g = q->geom;
	bool cube = g == TEX_GCUBE || g == TEX_GACUBE;
	uint32_t layer = layer_of(v, q);
	if (q->icoord) {
		fetch_texel(v, q, layer, out);
		return;
	}
	Look k = { v, q, geom_dims[g], layer, -1, v->s.normalized,
		   { v->s.addr[0], v->s.addr[1], v->s.addr[2] }, { 0, 0, 0 } };
	double gx[3] = { 0, 0, 0 }, gy[3] = { 0, 0, 0 };
	for (unsigned d = 0; d < 3; d++) {
		k.x[d] = coord(q->c[d]);
		gx[d] = q->mip == TEX_GRAD ? coord(q->dx[d]) : 0;
		gy[d] = q->mip == TEX_GRAD ? coord(q->dy[d]) : 0;
	}
	if (cube) {
		/* the major axis picks the face; s = (sc / |ma| + 1) / 2 and t likewise;
		 * the derivatives of s and t by the quotient rule */
		double sc, tc, ma;
		int f = cube_face(k.x[0], k.x[1], k.x[2], &sc, &tc, &ma);
		int mi = f / 2;
		double dsx = gx[0] * face_s[f][0] + gx[1] * face_s[f][1] + gx[2] * face_s[f][2];
		double dtx = gx[0] * face_t[f][0] + gx[1] * face_t[f][1] + gx[2] * face_t[f][2];
		double dsy = gy[0] * face_s[f][0] + gy[1] * face_s[f][1] + gy[2] * face_s[f][2];
		double dty = gy[0] * face_t[f][0] + gy[1] * face_t[f][1] + gy[2] * face_t[f][2];
		double dmx = gx[mi] * face_m[f][mi], dmy = gy[mi] * face_m[f][mi];
		k.face = f;
		k.layer = layer * 6 + (uint32_t)f;
		k.normalized = true;
		k.mode[0] = k.mode[1] = k.mode[2] = TEX_CLAMP;
		k.x[0] = ma > 0 ? (sc / ma + 1) / 2 : 0.5;
		k.x[1] = ma > 0 ? (tc / ma + 1) / 2 : 0.5;
		k.x[2] = 0;
		if (ma > 0) {
			gx[0] = (dsx * ma - sc * dmx) / (2 * ma * ma);
			gx[1] = (dtx * ma - tc * dmx) / (2 * ma * ma);
			gy[0] = (dsy * ma - sc * dmy) / (2 * ma * ma);
			gy[1] = (dty * ma - tc * dmy) / (2 * ma * ma);
		}
		gx[2] = gy[2] = 0;
	}
	if (q->gather >= 0) {
		gather(&k, out);
		return;
	}
	double lam = (q->mip == TEX_LEVEL ? coord(q->lod) : 0) + v->s.bias;
	const double *major = gx;
	unsigned probes = q->mip == TEX_GRAD ? grad_lod(&k, gx, gy, &lam, &major) : 1;
	Plan p = plan(v, lam);
	if (probes > 1) {
		look_aniso(&k, p, probes, major, out);
	} else if (!p.a && !v->s.filter) {
		/* one level, point sampled: the texel's own bits */
		const TexLevel *lv = &v->lv[p.l0];
		int64_t n[3] = { lv->w, lv->h, lv->d }, i[3] = { 0, 0, 0 };
		for (unsigned d = 0; d < k.dims; d++)
			i[d] = axis(texel_coord(&k, p.l0, d, k.x[d]), n[d], false, k.mode[d]).i;
		Loc c = { v, lv, k.layer, { k.mode[0], k.mode[1], k.mode[2] }, -1 };
		fetch_bits(&c, i[0], i[1], i[2], out);
	} else {
		look_plan(&k, p, k.x, out);
	}
}

void tex_sample(const TexView *v, const TexQuery *q, unsigned n, uint32_t (*out)[4])
{
	if (!n)
		return;
	unsigned g = q->geom;
	bool flat = !q->icoord && !v->s.filter && v->nlevels == 1 && (g == TEX_G1D || g == TEX_G2D || g == TEX_GA1D || g == TEX_GA2D) &&
		    q->gather < 0 && (q->mip != TEX_GRAD || v->s.max_aniso <= 1) &&
		    v->s.addr[0] != TEX_CLAMP_OGL && v->s.addr[1] != TEX_CLAMP_OGL;
	for (unsigned i = 0; i < n; i++) {
		if (flat)
			sample_flat(v, &q[i], layer_of(v, &q[i]), out[i]);
		else
			sample_one(v, &q[i], out[i]);
	}
}
