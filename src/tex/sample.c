/* sample.c: the one sampler (tex.h): texel decoding, addressing, point and
 * linear filtering, cubemaps, layers, mipmaps, gathers.
 *
 * A lookup runs in this order: the layer; the coordinates (NaN is 0; a
 * cubemap direction becomes a face and face coordinates); the level of
 * detail and the levels it blends; in each level, the coordinates in
 * texels (normalized ones times the level's size, plus the offset), the
 * texels of the footprint through the address mode, and the filter.
 * Linear filtering is the Programming Guide's: xB = x - 0.5, i = floor(xB),
 * alpha = frac(xB) rounded to 8 fractional bits, the weights (256 - A)/256
 * and A/256 nested dimension by dimension in double precision, rounded to
 * f32 once at the end.  docs/TEXTURES.md states every rule and marks what
 * is ptxvm's choice.
 */
#include "tex.h"
#include "../exec/fp.h"
#include "../../include/ptxvm.h"

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

static const uint32_t ONE = 0x3f800000u;        /* 1.0f */

/* sRGB to linear, of an 8-bit value: the standard curve in double, rounded
 * to f32. */
static float srgb_decode(unsigned v)
{
	double c = v / 255.0;
	return (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
}

/* The four components of the texel at p: f32 bits where the result is
 * floating point, else integers.  Components the format lacks are 0, and
 * 1 for alpha. */
static void texel(const TexView *v, const uint8_t *p, uint32_t o[4])
{
	unsigned n = v->channels, cb = v->esize / n;
	o[0] = o[1] = o[2] = 0;
	o[3] = v->fresult ? ONE : 1;
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
				r = bitsof(srgb_decode(r));
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
			r = bitsof(f16_to_f32((uint16_t)r));
			break;
		default:        /* u32, s32, f32: the bits */
			break;
		}
		o[ch] = r;
	}
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

/* The face of direction (x, y, z), with sc, tc and |ma|: the largest
 * magnitude selects, x before y before z on a tie. */
static int cube_face(double x, double y, double z, double *sc, double *tc, double *ma)
{
	double ax = fabs(x), ay = fabs(y), az = fabs(z);
	int f = ax >= ay && ax >= az ? (x >= 0 ? 0 : 1) : ay >= az ? (y >= 0 ? 2 : 3) : (z >= 0 ? 4 : 5);
	switch (f) {    /* the components the face's s and t axes pick (no products: a component may be infinite) */
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
 * address modes, a cube face for seamless filtering (-1: none), and the
 * depth compare value. */
typedef struct Loc {
	const TexView *v;
	const TexLevel *lv;
	uint32_t layer;
	uint8_t mode[3];
	int face;               /* seamless cube: the face; else -1 */
	const uint32_t *depth;
} Loc;

/* The texel at raw indices (x, y, z): addressed, or the border colour. */
static void fetch_bits(const Loc *c, int64_t x, int64_t y, int64_t z, uint32_t o[4])
{
	const TexView *v = c->v;
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
	if (x < 0 || y < 0 || z < 0) {
		memcpy(o, v->s.border, 16);
		return;
	}
	texel(v, lv->data + layer * lv->layer + (size_t)z * lv->slice + (size_t)y * lv->row + (size_t)x * v->esize, o);
}

/* A texel's components as doubles (a depth compare replaces the first by
 * 1.0 or 0.0); a seamless cube corner outside both edges is the mean of
 * the three texels that meet there. */
static void fetch_d(const Loc *c, int64_t x, int64_t y, int64_t z, double o[4])
{
	uint32_t b[4];
	int64_t n = c->lv->w;
	if (c->face >= 0 && (x < 0 || x >= n) && (y < 0 || y >= n)) {
		int64_t xi = x < 0 ? 0 : n - 1, yi = y < 0 ? 0 : n - 1;
		double a[4], e[4], f[4];
		fetch_d(c, xi, yi, z, a);
		fetch_d(c, x, yi, z, e);
		fetch_d(c, xi, y, z, f);
		for (int k = 0; k < 4; k++)
			o[k] = (a[k] + e[k] + f[k]) / 3;
		return;
	}
	fetch_bits(c, x, y, z, b);
	bool fl = c->v->fresult;
	for (int k = 0; k < 4; k++)
		o[k] = fl ? (double)f32of(b[k]) : c->v->format == PTXVM_FORMAT_U32 || c->v->format == PTXVM_FORMAT_U16 ||
		       c->v->format == PTXVM_FORMAT_U8 ? (double)b[k] : (double)(int32_t)b[k];
	if (c->depth) {
		o[0] = f32of(*c->depth) <= o[0] ? 1.0 : 0.0;
		o[1] = o[2] = 0;
		o[3] = 1;
	}
}

/* floor of |x| < 2^52 (texel coordinates are bounded by LIM) without a
 * libm call. */
static inline double ffloor(double x)
{
	double t = (double)(int64_t)x;
	return t > x ? t - 1 : t;
}

/* (256 - a) * x + a * y: a weight of 0 leaves the other texel out. */
static inline double lerp256(double x, double y, int a)
{
	return a == 0 ? 256 * x : a == 256 ? 256 * y : (256 - a) * x + a * y;
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

/* The components filtered at texel-space coordinates u[0..dims-1] of a
 * level, in double precision (not yet rounded). */
static void filter_level(const Loc *c, unsigned dims, const double u[3], bool linear, double r[4])
{
	const TexLevel *lv = c->lv;
	int64_t n[3] = { lv->w, lv->h, lv->d };
	Axis ax[3] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
	for (unsigned k = 0; k < dims; k++)
		ax[k] = axis(u[k], n[k], linear, c->mode[k]);
	if (!linear) {
		fetch_d(c, ax[0].i, ax[1].i, ax[2].i, r);
		return;
	}
	double t[8][4];
	unsigned nt = 1u << dims;
	for (unsigned j = 0; j < nt; j++)
		fetch_d(c, ax[0].i + (j & 1), ax[1].i + (j >> 1 & 1), ax[2].i + (j >> 2 & 1), t[j]);
	for (int k = 0; k < 4; k++) {
		double x0 = lerp256(t[0][k], t[1][k], ax[0].a);
		if (dims == 1) {
			r[k] = x0 / 256;
			continue;
		}
		double y0 = lerp256(x0, lerp256(t[2][k], t[3][k], ax[0].a), ax[1].a);
		if (dims == 2) {
			r[k] = y0 / 65536;
			continue;
		}
		double y1 = lerp256(lerp256(t[4][k], t[5][k], ax[0].a), lerp256(t[6][k], t[7][k], ax[0].a), ax[1].a);
		r[k] = lerp256(y0, y1, ax[2].a) / 16777216;
	}
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

/* Coordinate x of dimension d in texels of level l: a normalized one
 * (reduced to one period under wrap and mirror) times the level's size;
 * an unnormalized one is in texels of level 0, scaled to level l; plus
 * the offset (none on cube faces). */
static double texel_coord(const Look *k, unsigned l, unsigned d, double x)
{
	const TexLevel *lv = &k->v->lv[l];
	double n = d == 0 ? lv->w : d == 1 ? lv->h : lv->d;
	double n0 = d == 0 ? k->v->lv[0].w : d == 1 ? k->v->lv[0].h : k->v->lv[0].d;
	double u = k->normalized ? reduce(x, k->mode[d]) * n : l ? x * n / n0 : x;
	u = isnan(u) ? 0 : u < -LIM ? -LIM : u > LIM ? LIM : u;
	return u + (k->face >= 0 ? 0 : k->q->off[d]);
}

/* Filtered components at level l (double, not rounded). */
static void look_level(const Look *k, unsigned l, const double x[3], double r[4])
{
	const TexView *v = k->v;
	const TexLevel *lv = &v->lv[l];
	double u[3];
	for (unsigned d = 0; d < k->dims; d++)
		u[d] = texel_coord(k, l, d, x[d]);
	Loc c = { v, lv, k->layer, { k->mode[0], k->mode[1], k->mode[2] },
		  k->face >= 0 && v->s.seamless ? k->face : -1, k->q->has_depth ? &k->q->depth : NULL };
	filter_level(&c, k->dims, u, v->s.filter, r);
}

/* The levels a level of detail reads: l0 alone (a == 0), or l0 and
 * l0 + 1 blended with weight a/256.  lam has the bias; the clamps, then
 * rounding to 8 fractional bits, then the mipmap filter decide. */
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
	lam = floor(lam * 256 + 0.5) / 256;
	if (lam <= 0 || !last)
		return p;                       /* magnification: level 0 */
	if (!s->mipfilter) {
		double l = lam <= 0.5 ? 0 : ceil(lam + 0.5) - 1;
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

/* Components at the levels of a plan (double, not rounded). */
static void look_plan(const Look *k, Plan p, const double x[3], double r[4])
{
	double r1[4];
	look_level(k, p.l0, x, r);
	if (!p.a)
		return;
	look_level(k, p.l0 + 1, x, r1);
	for (int i = 0; i < 4; i++)
		r[i] = lerp256(r[i], r1[i], p.a) / 256;
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
	*lam = log2(pmax / probes) + v->s.bias;
	*major = px >= py ? gx : gy;
	return probes;
}

static void look_aniso(const Look *k, Plan p, unsigned probes, const double g[3], double r[4])
{
	double acc[4] = { 0, 0, 0, 0 };
	for (unsigned i = 1; i <= probes; i++) {
		double t = (double)i / (probes + 1) - 0.5, x[3], pr[4];
		for (unsigned d = 0; d < 3; d++)
			x[d] = k->x[d] + t * g[d];
		look_plan(k, p, x, pr);
		for (int c = 0; c < 4; c++)
			acc[c] += pr[c];
	}
	for (int c = 0; c < 4; c++)
		r[c] = acc[c] / probes;
}

/* ---- the lookup -------------------------------------------------------------- */

static const uint8_t geom_dims[] = { [TEX_G1D] = 1, [TEX_G2D] = 2, [TEX_G3D] = 3, [TEX_GA1D] = 1, [TEX_GA2D] = 2,
				     [TEX_GCUBE] = 2, [TEX_GACUBE] = 2 };

/* Texel fetch: .s32 coordinates are texel indices of the level .level
 * names (else level 0), unfiltered, through the address modes. */
static void fetch_texel(const TexView *v, const TexQuery *q, uint32_t layer, uint32_t out[4])
{
	unsigned l = 0;
	if (q->mip == TEX_LEVEL) {
		int32_t lod = (int32_t)q->lod;
		l = lod < 0 ? 0 : lod >= v->nlevels ? v->nlevels - 1u : (unsigned)lod;
	}
	int64_t i[3] = { 0, 0, 0 };
	for (unsigned d = 0; d < geom_dims[q->geom]; d++)
		i[d] = (int64_t)(int32_t)q->c[d] + q->off[d];
	Loc c = { v, &v->lv[l], layer, { v->s.addr[0], v->s.addr[1], v->s.addr[2] }, -1,
		  q->has_depth ? &q->depth : NULL };
	if (!q->has_depth) {
		fetch_bits(&c, i[0], i[1], i[2], out);
		return;
	}
	double r[4];
	fetch_d(&c, i[0], i[1], i[2], r);
	for (int k = 0; k < 4; k++)
		out[k] = bitsof((float)r[k]);
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
		  k->face >= 0 && v->s.seamless ? k->face : -1, k->q->has_depth ? &k->q->depth : NULL };
	static const int8_t di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
	unsigned comp = (unsigned)k->q->gather;
	for (int t = 0; t < 4; t++) {
		int64_t x = ax[0].i + di[t], y = ax[1].i + dj[t];
		if (k->q->has_depth || (c.face >= 0 && (x < 0 || x >= n[0]) && (y < 0 || y >= n[1]))) {
			double r[4];
			fetch_d(&c, x, y, 0, r);
			out[t] = v->fresult || k->q->has_depth ? bitsof((float)r[k->q->has_depth ? 0 : comp])
							      : (uint32_t)(int64_t)r[comp];
		} else {
			uint32_t b[4];
			fetch_bits(&c, x, y, 0, b);
			out[t] = b[comp];
		}
	}
}

/* The common lookup on its own: one level, a 1D or 2D geometry (layered
 * or not), float coordinates, no depth compare, no gather, no clamp_ogl;
 * the general path's rules without its generality (the tests hold both to
 * the reference). */
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
			x = reduce(x, s->addr[d]) * (double)n[d];
		u[d] = (isnan(x) ? 0 : x < -LIM ? -LIM : x > LIM ? LIM : x) + q->off[d];
	}
	const uint8_t *base = lv->data + layer * lv->layer;
	size_t row = lv->row, es = v->esize;
	if (!s->filter) {
		int64_t x = address((int64_t)ffloor(u[0]), n[0], s->addr[0]);
		int64_t y = dims > 1 ? address((int64_t)ffloor(u[1]), n[1], s->addr[1]) : 0;
		if (x < 0 || y < 0)
			memcpy(out, s->border, 16);
		else
			texel(v, base + (size_t)y * row + (size_t)x * es, out);
		return;
	}
	Axis ax = axis(u[0], n[0], true, s->addr[0]), ay = { 0, 0 };
	int64_t xs[2] = { address(ax.i, n[0], s->addr[0]), address(ax.i + 1, n[0], s->addr[0]) }, ys[2] = { 0, 0 };
	if (dims > 1) {
		ay = axis(u[1], n[1], true, s->addr[1]);
		ys[0] = address(ay.i, n[1], s->addr[1]);
		ys[1] = address(ay.i + 1, n[1], s->addr[1]);
	}
	unsigned nt = dims > 1 ? 4 : 2;
	if (v->format == PTXVM_FORMAT_F32 && v->channels == 1 && xs[0] >= 0 && xs[1] >= 0 && ys[0] >= 0 &&
	    ys[1] >= 0) {
		/* one f32 channel, no border texel: the others are 0, 0, 1 */
		float f[4];
		for (unsigned j = 0; j < nt; j++)
			memcpy(&f[j], base + (size_t)ys[j >> 1] * row + (size_t)xs[j & 1] * 4, 4);
		double r = lerp256(f[0], f[1], ax.a);
		r = dims > 1 ? lerp256(r, lerp256(f[2], f[3], ax.a), ay.a) / 65536 : r / 256;
		out[0] = bitsof((float)r);
		out[1] = out[2] = 0;
		out[3] = ONE;
		return;
	}
	double t[4][4];
	for (unsigned j = 0; j < nt; j++) {
		int64_t x = xs[j & 1], y = ys[j >> 1];
		uint32_t b[4];
		if (x < 0 || y < 0)
			memcpy(b, s->border, 16);
		else
			texel(v, base + (size_t)y * row + (size_t)x * es, b);
		for (int k = 0; k < 4; k++)
			t[j][k] = f32of(b[k]);
	}
	for (int k = 0; k < 4; k++) {
		double r = lerp256(t[0][k], t[1][k], ax.a);
		r = dims > 1 ? lerp256(r, lerp256(t[2][k], t[3][k], ax.a), ay.a) / 65536 : r / 256;
		out[k] = bitsof((float)r);
	}
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
		for (int d = 0; d < 2; d++)
			if (isnan(k.x[d]))      /* two infinite components */
				k.x[d] = 0;
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
	double lam = (q->mip == TEX_LEVEL ? coord(q->lod) : 0) + v->s.bias, r[4];
	const double *major = gx;
	unsigned probes = q->mip == TEX_GRAD ? grad_lod(&k, gx, gy, &lam, &major) : 1;
	Plan p = plan(v, lam);
	if (probes > 1) {
		look_aniso(&k, p, probes, major, r);
	} else if (!p.a && !v->s.filter && !q->has_depth) {
		/* one level, point sampled: the texel's own bits */
		const TexLevel *lv = &v->lv[p.l0];
		int64_t n[3] = { lv->w, lv->h, lv->d }, i[3] = { 0, 0, 0 };
		for (unsigned d = 0; d < k.dims; d++)
			i[d] = axis(texel_coord(&k, p.l0, d, k.x[d]), n[d], false, k.mode[d]).i;
		Loc c = { v, lv, k.layer, { k.mode[0], k.mode[1], k.mode[2] }, -1, NULL };
		fetch_bits(&c, i[0], i[1], i[2], out);
		return;
	} else {
		look_plan(&k, p, k.x, r);
	}
	for (int c = 0; c < 4; c++)
		out[c] = bitsof((float)r[c]);
}

void tex_sample(const TexView *v, const TexQuery *q, unsigned n, uint32_t (*out)[4])
{
	if (!n)
		return;
	unsigned g = q->geom;
	bool flat = !q->icoord && v->nlevels == 1 && (g == TEX_G1D || g == TEX_G2D || g == TEX_GA1D || g == TEX_GA2D) &&
		    !q->has_depth && q->gather < 0 && (q->mip != TEX_GRAD || v->s.max_aniso <= 1) &&
		    v->s.addr[0] != TEX_CLAMP_OGL && v->s.addr[1] != TEX_CLAMP_OGL;
	for (unsigned i = 0; i < n; i++) {
		if (flat)
			sample_flat(v, &q[i], layer_of(v, &q[i]), out[i]);
		else
			sample_one(v, &q[i], out[i]);
	}
}
