/* texmodel.c: the reference model of texture sampling (texmodel.h): the
 * rules of docs/TEXTURES.md -- the hardware's, as an H200 answered them,
 * and ptxvm's choices where none has -- written apart from src/tex, and
 * reference textures made on a device. */
#include "texmodel.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t seed = 0x9e3779b9u;
uint32_t tm_rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

float fbits(uint32_t b)
{
	float f;
	memcpy(&f, &b, 4);
	return f;
}

uint32_t bitsf(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

/* ---- the reference model ------------------------------------------------------ */

const char *const kind_name[NKIND] = { "1D", "2D", "3D", "1D layered", "2D layered", "cubemap",
					      "layered cubemap", "linear", "pitch-2D" };
const char *const fmt_name[12] = { "u8", "u16", "u32", "s8", "s16", "s32", "f16", "f32", "unorm8",
					"unorm16", "snorm8", "snorm16" };
const int fmt_size[12] = { 1, 2, 4, 1, 2, 4, 2, 4, 1, 2, 1, 2 };

static int floatfmt(int f) { return f == PTXVM_FORMAT_F16 || f == PTXVM_FORMAT_F32 || f >= PTXVM_FORMAT_UNORM8; }
int small_int(int f)
{
	return f == PTXVM_FORMAT_U8 || f == PTXVM_FORMAT_U16 || f == PTXVM_FORMAT_S8 || f == PTXVM_FORMAT_S16;
}
/* The result is floating point: float formats, or 8/16-bit integers in
 * normalized-float read mode. */
int fres(const Ref *R) { return floatfmt(R->fmt) || (R->readnorm && small_int(R->fmt)); }
int signed_fmt(int f) { return f == PTXVM_FORMAT_S8 || f == PTXVM_FORMAT_S16 || f == PTXVM_FORMAT_S32; }

/* An f16 bit pattern as a double, from its fields. */
static double half_value(uint16_t h)
{
	int e = h >> 10 & 31, m = h & 1023;
	double s = h & 0x8000 ? -1 : 1;
	if (e == 31)
		return m ? NAN : s * INFINITY;
	return e ? s * ldexp(1024 + m, e - 25) : s * ldexp(m, -24);
}

/* A double rounded to f16, nearest even. */
uint16_t to_half(double x)
{
	if (isnan(x))
		return 0x7fff;
	uint16_t s = signbit(x) ? 0x8000 : 0;
	x = fabs(x);
	if (x >= 65520)
		return s | 0x7c00;
	int e;
	frexp(x, &e);                   /* x = f * 2^e, f in [0.5, 1) */
	int q = e - 11 < -24 ? -24 : e - 11;    /* the quantum's exponent */
	double r = nearbyint(ldexp(x, -q));
	double v = ldexp(r, q);
	if (v == 0)
		return s;
	/* encode v */
	int ve;
	frexp(v, &ve);
	if (ve - 1 < -14)               /* subnormal */
		return s | (uint16_t)ldexp(v, 24);
	if (ve - 1 > 15)
		return s | 0x7c00;
	return s | (uint16_t)((ve - 1 + 15) << 10) | (uint16_t)(ldexp(v, 11 - ve) - 1024);
}

/* sRGB's decoding as an H200 does it (tests/hw/golden/h200.txt): f32
 * results of 8 significant bits. */
static const uint32_t srgb_f32[256] = {
	0x00000000, 0x39a00000, 0x3a200000, 0x3a700000, 0x3aa00000, 0x3ac80000, 0x3af00000, 0x3b0c0000,
	0x3b200000, 0x3b340000, 0x3b480000, 0x3b5c0000, 0x3b700000, 0x3b840000, 0x3b900000, 0x3b9c0000,
	0x3baa0000, 0x3bb80000, 0x3bc60000, 0x3bd60000, 0x3be60000, 0x3bf60000, 0x3c030000, 0x3c0c0000,
	0x3c160000, 0x3c1f0000, 0x3c290000, 0x3c340000, 0x3c3e0000, 0x3c490000, 0x3c550000, 0x3c600000,
	0x3c6c0000, 0x3c7a0000, 0x3c830000, 0x3c8a0000, 0x3c910000, 0x3c980000, 0x3c9f0000, 0x3ca60000,
	0x3cae0000, 0x3cb60000, 0x3cbe0000, 0x3cc60000, 0x3cce0000, 0x3cd70000, 0x3ce00000, 0x3ce90000,
	0x3cf20000, 0x3cfc0000, 0x3d030000, 0x3d080000, 0x3d0d0000, 0x3d120000, 0x3d170000, 0x3d1c0000,
	0x3d220000, 0x3d280000, 0x3d2d0000, 0x3d330000, 0x3d390000, 0x3d3f0000, 0x3d450000, 0x3d4c0000,
	0x3d520000, 0x3d580000, 0x3d600000, 0x3d660000, 0x3d6c0000, 0x3d740000, 0x3d7a0000, 0x3d810000,
	0x3d850000, 0x3d880000, 0x3d8c0000, 0x3d900000, 0x3d940000, 0x3d980000, 0x3d9c0000, 0x3da00000,
	0x3da40000, 0x3da90000, 0x3dad0000, 0x3db10000, 0x3db60000, 0x3dba0000, 0x3dbf0000, 0x3dc30000,
	0x3dc80000, 0x3dcd0000, 0x3dd10000, 0x3dd60000, 0x3ddb0000, 0x3de00000, 0x3de50000, 0x3dea0000,
	0x3df00000, 0x3df40000, 0x3dfa0000, 0x3e000000, 0x3e020000, 0x3e050000, 0x3e080000, 0x3e0b0000,
	0x3e0e0000, 0x3e110000, 0x3e140000, 0x3e170000, 0x3e1a0000, 0x3e1d0000, 0x3e200000, 0x3e230000,
	0x3e260000, 0x3e290000, 0x3e2c0000, 0x3e300000, 0x3e330000, 0x3e360000, 0x3e3a0000, 0x3e3d0000,
	0x3e400000, 0x3e440000, 0x3e470000, 0x3e4b0000, 0x3e4e0000, 0x3e520000, 0x3e560000, 0x3e590000,
	0x3e5d0000, 0x3e610000, 0x3e650000, 0x3e680000, 0x3e6c0000, 0x3e700000, 0x3e740000, 0x3e780000,
	0x3e7c0000, 0x3e800000, 0x3e820000, 0x3e840000, 0x3e860000, 0x3e880000, 0x3e8a0000, 0x3e8d0000,
	0x3e8f0000, 0x3e910000, 0x3e930000, 0x3e950000, 0x3e980000, 0x3e9a0000, 0x3e9c0000, 0x3e9e0000,
	0x3ea10000, 0x3ea30000, 0x3ea50000, 0x3ea80000, 0x3eaa0000, 0x3ead0000, 0x3eaf0000, 0x3eb20000,
	0x3eb40000, 0x3eb60000, 0x3eb90000, 0x3ebc0000, 0x3ebe0000, 0x3ec10000, 0x3ec30000, 0x3ec60000,
	0x3ec80000, 0x3ecb0000, 0x3ece0000, 0x3ed10000, 0x3ed30000, 0x3ed60000, 0x3ed90000, 0x3edb0000,
	0x3ede0000, 0x3ee10000, 0x3ee40000, 0x3ee70000, 0x3eea0000, 0x3eed0000, 0x3ef00000, 0x3ef20000,
	0x3ef60000, 0x3ef80000, 0x3efc0000, 0x3efe0000, 0x3f010000, 0x3f020000, 0x3f040000, 0x3f050000,
	0x3f070000, 0x3f090000, 0x3f0a0000, 0x3f0c0000, 0x3f0d0000, 0x3f0f0000, 0x3f110000, 0x3f120000,
	0x3f140000, 0x3f160000, 0x3f170000, 0x3f190000, 0x3f1b0000, 0x3f1c0000, 0x3f1e0000, 0x3f200000,
	0x3f210000, 0x3f230000, 0x3f250000, 0x3f270000, 0x3f290000, 0x3f2a0000, 0x3f2c0000, 0x3f2e0000,
	0x3f300000, 0x3f320000, 0x3f330000, 0x3f350000, 0x3f370000, 0x3f390000, 0x3f3b0000, 0x3f3d0000,
	0x3f3f0000, 0x3f410000, 0x3f430000, 0x3f450000, 0x3f470000, 0x3f490000, 0x3f4b0000, 0x3f4d0000,
	0x3f4f0000, 0x3f510000, 0x3f530000, 0x3f550000, 0x3f570000, 0x3f590000, 0x3f5b0000, 0x3f5d0000,
	0x3f5f0000, 0x3f610000, 0x3f630000, 0x3f650000, 0x3f680000, 0x3f6a0000, 0x3f6c0000, 0x3f6e0000,
	0x3f700000, 0x3f720000, 0x3f740000, 0x3f760000, 0x3f7a0000, 0x3f7c0000, 0x3f7e0000, 0x3f800000,
};

/* Component k of the texel at p, as the 32 bits the lookup returns. */
static uint32_t rdecode(const Ref *R, const uint8_t *p, int k)
{
	if (k >= R->ch)
		return 0;               /* a component the format lacks, alpha too */
	int cs = fmt_size[R->fmt];
	p += k * cs;
	uint32_t raw = 0;
	for (int i = 0; i < cs; i++)
		raw |= (uint32_t)p[i] << 8 * i;
	int norm = R->fmt >= PTXVM_FORMAT_UNORM8 || (R->readnorm && small_int(R->fmt));
	switch (R->fmt) {
	case PTXVM_FORMAT_U8: case PTXVM_FORMAT_UNORM8:
		if (norm && R->srgb && k < 3)
			return srgb_f32[raw];
		return norm ? bitsf((float)(raw / 255.0)) : raw;
	case PTXVM_FORMAT_U16: case PTXVM_FORMAT_UNORM16:
		return norm ? bitsf((float)(raw / 65535.0)) : raw;
	case PTXVM_FORMAT_S8: case PTXVM_FORMAT_SNORM8: {
		int v = raw >= 128 ? (int)raw - 256 : (int)raw;
		return norm ? bitsf(v == -128 ? -1.0f : (float)(v / 127.0)) : (uint32_t)v;
	}
	case PTXVM_FORMAT_S16: case PTXVM_FORMAT_SNORM16: {
		int v = raw >= 32768 ? (int)raw - 65536 : (int)raw;
		return norm ? bitsf(v == -32768 ? -1.0f : (float)(v / 32767.0)) : (uint32_t)v;
	}
	case PTXVM_FORMAT_F16: {
		double v = half_value((uint16_t)raw);
		/* a NaN: sign, all-ones exponent, the 10 payload bits at the top */
		return isnan(v) ? (raw & 0x8000) << 16 | 0xffu << 23 | (raw & 0x3ff) << 13 : bitsf((float)v);
	}
	default:
		return raw;
	}
}

/* The value of component k of an 8- or 16-bit texel read as normalized
 * floats (not sRGB) in the units the filter sums: 1/65535 for unsigned
 * ones (8-bit values times 257), 1/32767 for signed 16-bit ones, 1/127
 * for signed 8-bit ones (-32768 and -128 too); NOUNITS for others. */
#define NOUNITS LONG_MIN
static int has_units(const Ref *R, int k)
{
	int norm = R->fmt >= PTXVM_FORMAT_UNORM8 || (R->readnorm && small_int(R->fmt));
	return k < R->ch && norm && !(R->srgb && k < 3);
}

static long norm_units(const Ref *R, const uint8_t *p, int k)
{
	if (!has_units(R, k))
		return NOUNITS;
	switch (R->fmt) {
	case PTXVM_FORMAT_U8: case PTXVM_FORMAT_UNORM8:
		return 257L * p[k];
	case PTXVM_FORMAT_U16: case PTXVM_FORMAT_UNORM16:
		return p[2 * k] | (long)p[2 * k + 1] << 8;
	case PTXVM_FORMAT_S8: case PTXVM_FORMAT_SNORM8: {
		return p[k] >= 128 ? (long)p[k] - 256 : p[k];
	}
	case PTXVM_FORMAT_S16: case PTXVM_FORMAT_SNORM16: {
		long v = p[2 * k] | (long)p[2 * k + 1] << 8;
		return v >= 32768 ? v - 65536 : v;
	}
	}
	return NOUNITS;
}

/* The unit of norm_units's values: 65535, 32767 or 127 per 1.0. */
static double norm_den(const Ref *R)
{
	if (R->fmt == PTXVM_FORMAT_S8 || R->fmt == PTXVM_FORMAT_SNORM8)
		return 127;
	return signed_fmt(R->fmt) || R->fmt == PTXVM_FORMAT_SNORM16 ? 32767 : 65535;
}

/* The border colour's component c in those units, cut towards zero. */
static long border_units(const Ref *R, float c)
{
	double den = norm_den(R), lo = den == 65535 ? 0 : -1;
	c = c != c ? 0 : c < lo ? (float)lo : c > 1 ? 1 : c;
	if (R->fmt == PTXVM_FORMAT_U8 || R->fmt == PTXVM_FORMAT_UNORM8)
		return 257 * (long)(c * 255.0);
	return (long)(c * den);
}

/* As a double (integers by the format's signedness). */
static double dval(const Ref *R, uint32_t b)
{
	return fres(R) ? (double)fbits(b) : signed_fmt(R->fmt) ? (double)(int32_t)b : (double)b;
}

/* ---- addressing and faces (doubles throughout) ---- */

/* -1: the border colour. */
static double raddr(double i, double n, int mode)
{
	if (i >= 0 && i < n)
		return i;
	if (mode == AW)
		return i - n * floor(i / n);
	if (mode == AM) {
		double m = i - 2 * n * floor(i / (2 * n));
		return m < n ? m : 2 * n - 1 - m;
	}
	if (mode == AC)
		return i < 0 ? 0 : n - 1;
	return -1;
}

/* The Programming Guide's cubemap table, ties as an H200 breaks them: x
 * only with the largest magnitude of all three, else y with one larger
 * than z's, else z; a zero or infinite largest magnitude gives no face
 * but the centre (ma = 0) of +z, or of -z for a negative z. */
static int rface3(double x, double y, double z, double *sc, double *tc, double *ma)
{
	double ax = fabs(x), ay = fabs(y), az = fabs(z);
	double big = ax > ay ? ax : ay;
	big = big > az ? big : az;
	if (big == 0 || isinf(big)) {
		*ma = *sc = *tc = 0;
		return signbit(z) ? 5 : 4;
	}
	if (ax > ay && ax > az) {
		*ma = ax;
		*tc = -y;
		*sc = x >= 0 ? -z : z;
		return x >= 0 ? 0 : 1;
	}
	if (ay > az) {
		*ma = ay;
		*sc = x;
		*tc = y >= 0 ? z : -z;
		return y >= 0 ? 2 : 3;
	}
	*ma = az;
	*tc = -y;
	*sc = z >= 0 ? x : -x;
	return z >= 0 ? 4 : 5;
}

/* The face and (s, t) in [-1, 1]. */
static int rface(double x, double y, double z, double *s, double *t)
{
	double sc, tc, ma;
	int f = rface3(x, y, z, &sc, &tc, &ma);
	*s = ma > 0 ? sc / ma : 0;
	*t = ma > 0 ? tc / ma : 0;
	return f;
}

/* Face f's point (s, t) (in [-1, 1] on the face) as a direction. */
static void face_dir(int f, double s, double t, double v[3])
{
	switch (f) {
	case 0: v[0] = 1; v[1] = -t; v[2] = -s; break;
	case 1: v[0] = -1; v[1] = -t; v[2] = s; break;
	case 2: v[0] = s; v[1] = 1; v[2] = t; break;
	case 3: v[0] = s; v[1] = -1; v[2] = -t; break;
	case 4: v[0] = s; v[1] = -t; v[2] = 1; break;
	default: v[0] = -s; v[1] = -t; v[2] = -1; break;
	}
}

typedef struct Where {
	const Ref *R;
	int l;
	double layer;                   /* cubes: the first face's layer */
	int face;                       /* seamless: the face, else -1 */
	int mode[3];
} Where;

/* The texel (all four components, bits) at raw indices; u (if not NULL)
 * gets each component's value in 1/65535 where the filter sums those
 * (norm_units; the border colour cut to those units), else NOUNITS. */
static void rtexel_bits(const Where *W, double x, double y, double z, uint32_t o[4], long u[4])
{
	const Ref *R = W->R;
	int l = W->l;
	double layer = W->layer;
	if (u)
		u[0] = u[1] = u[2] = u[3] = NOUNITS;
	if (W->face >= 0 && (x < 0 || x >= R->w[l] || y < 0 || y >= R->h[l])) {
		/* the texel centre beyond the face, projected onto the cube */
		double n = R->w[l], v[3], s, t;
		face_dir(W->face, (2 * x + 1) / n - 1, (2 * y + 1) / n - 1, v);
		int g = rface(v[0], v[1], v[2], &s, &t);
		x = floor((s + 1) / 2 * n);
		y = floor((t + 1) / 2 * n);
		layer += g;
	} else {
		x = raddr(x, R->w[l], W->mode[0]);
		y = raddr(y, R->h[l], W->mode[1]);
		z = raddr(z, R->d[l], W->mode[2]);
		if (W->face >= 0)
			layer += W->face;
	}
	if (x < 0 || y < 0 || z < 0) {
		for (int k = 0; k < 4; k++) {   /* only the format's components */
			o[k] = k < R->ch ? bitsf(R->border[k]) : 0;
			if (u && has_units(R, k))
				u[k] = border_units(R, R->border[k]);
		}
		return;
	}
	size_t row = (((size_t)layer * R->d[l] + (size_t)z) * R->h[l] + (size_t)y);
	const uint8_t *p = R->lv[l] + row * R->pitch[l] + (size_t)x * R->es;
	for (int k = 0; k < 4; k++) {
		o[k] = rdecode(R, p, k);
		if (u)
			u[k] = norm_units(R, p, k);
	}
}

/* A texel's components as doubles, and their units (rtexel_bits). */
static void rtexel_u(const Where *W, double x, double y, double z, double o[4], long u[4])
{
	uint32_t b[4];
	rtexel_bits(W, x, y, z, b, u);
	for (int k = 0; k < 4; k++)
		o[k] = dval(W->R, b[k]);
}

/* A texel as doubles; a seamless cube's corner outside both edges (for
 * tld4) is the mean of the three texels that meet there. */
static void rtexel(const Where *W, double x, double y, double z, double o[4])
{
	const Ref *R = W->R;
	double n = R->w[W->l];
	long u[4];
	if (W->face >= 0 && (x < 0 || x >= n) && (y < 0 || y >= n)) {
		double xi = x < 0 ? 0 : n - 1, yi = y < 0 ? 0 : n - 1, a[4], b[4], c[4];
		rtexel(W, xi, yi, z, a);
		rtexel(W, x, yi, z, b);
		rtexel(W, xi, y, z, c);
		for (int k = 0; k < 4; k++)
			o[k] = (a[k] + b[k] + c[k]) / 3;
		return;
	}
	rtexel_u(W, x, y, z, o, u);
}

/* ---- the filter: weighted texels, summed as the hardware sums them ---- */

typedef struct Terms {
	int n;
	double w[24], v[24][4];
	long u[24][4];
} Terms;

static void add_term(Terms *T, const Where *W, double w, double x, double y, double z)
{
	if (w == 0)
		return;                 /* a texel of weight 0 plays no part */
	T->w[T->n] = w;
	rtexel_u(W, x, y, z, T->v[T->n], T->u[T->n]);
	T->n++;
}

/* x rounded to an integer, halves up; halves down. */
static double half_up(double x) { return floor(x + 0.5); }
static double half_down(double x) { return ceil(x - 0.5); }

/* The four weights of a 2D footprint with alphas a (x), b (y) out of a
 * share of 256: w[dy][dx].  The x+1 column takes share * a / 256 (halves
 * up); in it the y+1 texel takes column * b / 256 (halves up), in the x
 * column halves go down. */
static void weights2(double share, int a, int b, double w[2][2])
{
	double col1 = half_up(share * a / 256), col0 = share - col1;
	w[1][1] = half_up(col1 * b / 256);
	w[0][1] = col1 - w[1][1];
	w[1][0] = half_down(col0 * b / 256);
	w[0][0] = col0 - w[1][0];
}

/* Texel coordinates of dimension k at level l.  A normalized coordinate
 * (after wrap or mirror folds it into one period) is held with 21
 * fractional bits, cut towards -inf, before it is scaled. */
static double tcoord(const Ref *R, int l, int k, double x, int normalized, int mode, double off)
{
	double n = k == 0 ? R->w[l] : k == 1 ? R->h[l] : R->d[l];
	double n0 = k == 0 ? R->w[0] : k == 1 ? R->h[0] : R->d[0];
	double u;
	if (normalized) {
		if (isinf(x) && (mode == AW || mode == AM))
			x = 0;
		if (mode == AW)
			x -= floor(x);
		else if (mode == AM)
			x -= 2 * floor(x / 2);
		u = floor(ldexp(x, 21)) * n / 2097152;
	} else {
		u = l ? x * n / n0 : x;
	}
	if (isnan(u))
		u = 0;
	if (fabs(u) > 1048576)          /* far and infinite coordinates saturate at 2^20 texels */
		u = copysign(1048576, u);
	return u + off;
}

/* The terms of level W->l at coordinates x, share of 256.  A 1D texture
 * is a 2D one of one row, filtered at y = 0: on its upper edge. */
static void rlevel(const Ref *R, const Where *W0, int dims, const double x[3], int normalized, const double off[3],
		   double share, Terms *T)
{
	Where W = *W0;
	double u[3] = { 0, 0, 0 };
	for (int k = 0; k < dims; k++) {
		u[k] = tcoord(R, W.l, k, x[k], normalized, W.mode[k], off[k]);
		if (W.mode[k] == AOGL) {
			double n = k == 0 ? R->w[W.l] : k == 1 ? R->h[W.l] : R->d[W.l];
			u[k] = u[k] < 0 ? 0 : u[k] > n ? n : u[k];
		}
	}
	if (!R->filter) {
		add_term(T, &W, share, floor(u[0]), floor(u[1]), floor(u[2]));
		return;
	}
	if (dims == 1) {
		dims = 2;
		u[1] = tcoord(R, W.l, 1, 0, normalized, W.mode[1], 0);
	}
	double i[3] = { 0, 0, 0 };
	int a[3] = { 0, 0, 0 };
	for (int k = 0; k < dims; k++) {
		double xb = u[k] - 0.5;
		i[k] = floor(xb);
		a[k] = (int)floor((xb - i[k]) * 256 + 0.5);
	}
	double slab[2] = { share, 0 };
	if (dims == 3) {                /* depth first */
		slab[1] = half_up(share * a[2] / 256);
		slab[0] = share - slab[1];
	}
	double nw = R->w[W.l], nh = R->h[W.l];
	for (int dz = 0; dz < (dims == 3 ? 2 : 1); dz++) {
		double w[2][2];
		weights2(slab[dz], a[0], a[1], w);
		for (int dy = 0; dy < 2; dy++)
			for (int dx = 0; dx < 2; dx++) {
				double xx = i[0] + dx, yy = i[1] + dy;
				if (W.face >= 0 && (xx < 0 || xx >= nw) && (yy < 0 || yy >= nh)) {
					/* a seamless cube's corner: a third of its weight
					 * (rounded) to each texel beyond an edge, the rest
					 * to the face's own corner texel */
					double third = half_up(w[dy][dx] / 3), xi = xx < 0 ? 0 : nw - 1, yi = yy < 0 ? 0 : nh - 1;
					add_term(T, &W, w[dy][dx] - 2 * third, xi, yi, 0);
					add_term(T, &W, third, xx, yi, 0);
					add_term(T, &W, third, xi, yy, 0);
				} else {
					add_term(T, &W, w[dy][dx], xx, yy, i[2] + dz);
				}
			}
	}
}

/* x rounded to f32, ties away from zero. */
static float away(double x)
{
	float f = (float)x;
	if ((double)f == x)
		return f;
	float g = nextafterf(f, (double)f < x ? INFINITY : -INFINITY);
	double df = fabs(x - (double)f), dg = fabs(x - (double)g);
	if (df != dg)
		return df < dg ? f : g;
	return fabsf(f) > fabsf(g) ? f : g;
}

/* x rounded to f16 (as an f32), ties away from zero; beyond its range
 * infinite. */
static float away16(double x)
{
	double a = fabs(x), q = ldexp(1, -24);  /* the quantum: subnormals' at least */
	while (q * 2048 <= a)
		q *= 2;
	double r = floor(a / q + 0.5) * q;
	return (float)copysign(r >= 65520 ? INFINITY : r, x);
}

/* Component k of the terms (weights summing to 256), f32 bits.  All in
 * units (norm_units): their sum over 256, halves up, as a count of units
 * of 1/den.  Else each value cut (towards zero) to a multiple of 2^-4 of the
 * last significand bit of the largest (f16 textures: of an 11-bit
 * significand; sRGB's R, G, B: the last bit of an 8-bit one), the sum
 * over 256 rounded to f32 (f16 for both) ties away; an infinity or NaN
 * among them: IEEE's sum. */
static uint32_t rsum(const Terms *T, int k, int half, int srgb, double den)
{
	int units = 1, odd = 0;
	double top = 0;
	for (int i = 0; i < T->n; i++) {
		double v = T->v[i][k];
		units &= T->u[i][k] != NOUNITS;
		if (!isfinite(v))
			odd = 1;
		else if (fabs(v) > top)
			top = fabs(v);
	}
	double S = 0;
	if (units) {
		for (int i = 0; i < T->n; i++)
			S += T->w[i] * (double)T->u[i][k];
		/* 1/127 units scaled exactly to 1/32767; halves up; -1 at least */
		double q = den == 127 ? floor(S * 32767 / (127.0 * 256) + 0.5) : floor(S / 256 + 0.5);
		float r = (float)q / (den == 65535 ? 65535.0f : 32767.0f);
		return bitsf(r < -1 ? -1.0f : r);
	}
	if (odd) {
		for (int i = 0; i < T->n; i++)
			S += T->w[i] * T->v[i][k];
		return S != S ? 0x7fffffffu : bitsf((float)(S / 256));   /* the GPU's NaN */
	}
	if (top == 0)
		return 0;
	int e;
	frexp(top, &e);                 /* top in [2^(e-1), 2^e): its last bit is 2^(e-24), f16's 2^(e-11) */
	double grid = ldexp(1, e - (srgb ? 8 : half ? 15 : 28));
	for (int i = 0; i < T->n; i++)
		S += T->w[i] * (trunc(T->v[i][k] / grid) * grid);
	return bitsf(half || srgb ? away16(S / 256) : away(S / 256));
}

static double fc(uint32_t b)
{
	float f = fbits(b);
	return isnan(f) ? 0 : f;
}

/* The expected result of a lookup. */
void ref_look(const Ref *R, const Q *q, uint32_t out[4])
{
	static const int gdims[] = { 1, 2, 3, 1, 2, 2, 2 };
	int g = q->geom, dims = gdims[g], cube = g >= 5, layered = g == 3 || g == 4 || g == 6;
	int normalized = R->norm, mode[3] = { R->addr[0], R->addr[1], R->addr[2] }, fl = fres(R);
	int filter = R->filter, mipfilter = R->mipfilter;
	if (R->kind == KLIN) {
		normalized = 0;
		mode[0] = mode[1] = mode[2] = AB;
	}
	for (int k = 0; k < 3; k++)
		if (!normalized && (mode[k] == AW || mode[k] == AM))
			mode[k] = AC;
	Ref RR = *R;
	if (!fl || R->kind == KLIN)
		filter = mipfilter = 0;
	RR.filter = filter;
	RR.mipfilter = mipfilter;
	if (R->kind == KLIN)
		memset(RR.border, 0, sizeof RR.border);
	R = &RR;
	double layer = 0;
	if (layered) {
		double nlay = g == 6 ? R->layers / 6 : R->layers;
		layer = q->layer < nlay ? q->layer : nlay - 1;
	}
	/* a depth compare operand changes nothing: CUDA's samplers compare
	 * nothing, and the hardware returns the texels */
	Where W = { R, 0, layer, -1, { mode[0], mode[1], mode[2] } };
	double off[3] = { 0, 0, 0 };
	for (int k = 0; k < 3; k++)
		off[k] = q->has_off ? q->off[k] : 0;
	if (q->icoord) {
		int l = q->mip == 1 ? (int32_t)q->lod : 0;
		W.l = l < 0 ? 0 : l >= R->nl ? R->nl - 1 : l;
		double i[3] = { 0, 0, 0 }, size[3] = { R->w[W.l], R->h[W.l], R->d[W.l] };
		for (int k = 0; k < dims; k++) {
			i[k] = (int32_t)q->c[k] + off[k];
			if (i[k] < 0 || i[k] >= size[k]) {      /* outside: zeros, no border */
				out[0] = out[1] = out[2] = out[3] = 0;
				return;
			}
		}
		rtexel_bits(&W, i[0], i[1], i[2], out, NULL);
		return;
	}
	double x[3] = { fc(q->c[0]), fc(q->c[1]), fc(q->c[2]) };
	double gx[3] = { fc(q->dx[0]), fc(q->dx[1]), fc(q->dx[2]) }, gy[3] = { fc(q->dy[0]), fc(q->dy[1]), fc(q->dy[2]) };
	if (q->mip != 2)
		memset(gx, 0, sizeof gx), memset(gy, 0, sizeof gy);
	if (cube) {
		double sc, tc, ma;
		int f = rface3(x[0], x[1], x[2], &sc, &tc, &ma);
		/* face axes: derivative of s = sc / ma, with sc, ma linear in the direction */
		double v0[3], vs[3], vt[3];
		face_dir(f, 0, 0, v0);
		face_dir(f, 1, 0, vs);
		face_dir(f, 0, 1, vt);
		double S[3], T[3], M[3];
		for (int k = 0; k < 3; k++)
			M[k] = v0[k], S[k] = vs[k] - v0[k], T[k] = vt[k] - v0[k];
		double dsx = 0, dtx = 0, dmx = 0, dsy = 0, dty = 0, dmy = 0;
		for (int k = 0; k < 3; k++) {
			dsx += gx[k] * S[k]; dtx += gx[k] * T[k]; dmx += gx[k] * M[k];
			dsy += gy[k] * S[k]; dty += gy[k] * T[k]; dmy += gy[k] * M[k];
		}
		if (ma > 0) {
			gx[0] = (dsx * ma - sc * dmx) / (2 * ma * ma);
			gx[1] = (dtx * ma - tc * dmx) / (2 * ma * ma);
			gy[0] = (dsy * ma - sc * dmy) / (2 * ma * ma);
			gy[1] = (dty * ma - tc * dmy) / (2 * ma * ma);
		}
		gx[2] = gy[2] = 0;
		x[0] = ma > 0 ? (sc / ma + 1) / 2 : 0.5;
		x[1] = ma > 0 ? (tc / ma + 1) / 2 : 0.5;
		x[2] = 0;
		normalized = 1;
		W.mode[0] = W.mode[1] = W.mode[2] = AC;
		W.layer = layer * 6;
		W.face = f;
		if (!R->seamless) {
			W.layer += f;
			W.face = -1;
		}
		off[0] = off[1] = off[2] = 0;
	}
	if (q->gather >= 0) {
		double u[2];
		for (int k = 0; k < 2; k++)
			u[k] = tcoord(R, 0, k, x[k], normalized, W.mode[k], off[k]);
		double i0 = floor(u[0] - 0.5), j0 = floor(u[1] - 0.5);
		static const int di[4] = { 0, 1, 1, 0 }, dj[4] = { 1, 1, 0, 0 };
		for (int t = 0; t < 4; t++) {
			double xx = i0 + di[t], yy = j0 + dj[t];
			int corner = W.face >= 0 && (xx < 0 || xx >= R->w[0]) && (yy < 0 || yy >= R->h[0]);
			if (corner) {
				double r[4];
				rtexel(&W, xx, yy, 0, r);
				double v = r[q->gather];
				out[t] = fl ? bitsf((float)v) : (uint32_t)(int64_t)v;
			} else {
				uint32_t b[4];
				rtexel_bits(&W, xx, yy, 0, b, NULL);
				out[t] = b[q->gather];
			}
		}
		return;
	}
	/* the level of detail */
	double lam = (q->mip == 1 ? fc(q->lod) : 0) + R->bias;
	int probes = 1;
	const double *major = gx;
	if (q->mip == 2) {
		double px = 0, py = 0;
		for (int k = 0; k < (cube ? 2 : dims); k++) {
			double n = k == 0 ? R->w[0] : k == 1 ? R->h[0] : R->d[0], sc = normalized ? n : 1;
			px += (gx[k] * sc) * (gx[k] * sc);
			py += (gy[k] * sc) * (gy[k] * sc);
		}
		px = sqrt(px);
		py = sqrt(py);
		double pmax = px > py ? px : py, pmin = px > py ? py : px;
		int an = fl && R->aniso > 1 ? R->aniso : 1;
		if (an > 1 && pmax > 0) {
			double nn = pmin > 0 ? ceil(pmax / pmin) : an;
			probes = nn < an ? (int)nn : an;
		}
		lam = ceil(256 * log2(pmax / probes)) / 256 + R->bias;   /* rounded up */
		major = px >= py ? gx : gy;
	}
	if (isnan(lam))
		lam = 0;
	if (lam < R->minlod)
		lam = R->minlod;
	if (lam > R->maxlod)
		lam = R->maxlod;
	lam = floor(lam * 256) / 256;           /* cut to 8 fractional bits */
	int l0 = 0, la = 0;
	if (lam > 0 && R->nl > 1) {
		if (!mipfilter) {
			double l = floor(lam + 0.5);    /* the nearest, halves up */
			l0 = l > R->nl - 1 ? R->nl - 1 : (int)l;
		} else if (floor(lam) >= R->nl - 1) {
			l0 = R->nl - 1;
		} else {
			l0 = (int)floor(lam);
			la = (int)((lam - l0) * 256);
		}
	}
	if (probes == 1 && !la && !filter) {
		double u[3] = { 0, 0, 0 };
		W.l = l0;
		for (int k = 0; k < dims; k++)
			u[k] = floor(tcoord(R, l0, k, x[k], normalized, W.mode[k], off[k]));
		if (W.face >= 0) {      /* point sampling never leaves the face */
			W.layer += W.face;
			W.face = -1;
		}
		rtexel_bits(&W, u[0], u[1], u[2], out, NULL);
		return;
	}
	/* each probe: the terms of its level or two levels (la / 256 to the
	 * second), summed; the probes' f32 results averaged in double */
	double acc[4] = { 0, 0, 0, 0 };
	for (int p = 1; p <= probes; p++) {
		double xp[3];
		double tt = probes > 1 ? (double)p / (probes + 1) - 0.5 : 0;
		for (int k = 0; k < 3; k++)
			xp[k] = probes > 1 ? x[k] + tt * major[k] : x[k];
		Terms T;
		T.n = 0;
		W.l = l0;
		rlevel(R, &W, dims, xp, normalized, off, 256 - la, &T);
		if (la) {
			W.l = l0 + 1;
			rlevel(R, &W, dims, xp, normalized, off, la, &T);
		}
		for (int k = 0; k < 4; k++)
			acc[k] += fbits(rsum(&T, k, R->fmt == PTXVM_FORMAT_F16, k < 3 && R->srgb && fl, norm_den(R)));
	}
	for (int k = 0; k < 4; k++)
		out[k] = probes > 1 ? bitsf((float)(acc[k] / probes)) : bitsf((float)acc[k]);
}

/* ---- textures on the device --------------------------------------------------------- */

static const ptxvm_array_kind akind[] = { PTXVM_ARRAY_1D, PTXVM_ARRAY_2D, PTXVM_ARRAY_3D, PTXVM_ARRAY_1D_LAYERED,
					  PTXVM_ARRAY_2D_LAYERED, PTXVM_ARRAY_CUBEMAP, PTXVM_ARRAY_CUBEMAP_LAYERED,
					  PTXVM_ARRAY_1D, PTXVM_ARRAY_2D };

/* A float value whose weighted sums are exact: 17-bit multiples of 1/64. */
float nice_f32(void) { return (float)((int32_t)(tm_rnd() % 131071u) - 65535) / 64.0f; }
/* An f16 of exponent 2^-4 .. 2^10, either sign. */
uint16_t nice_f16(void)
{
	return (uint16_t)((tm_rnd() & 0x8000) | (uint32_t)(11 + tm_rnd() % 15) << 10 | (tm_rnd() & 1023));
}

/* Random texels for the reference's levels (sizes already set). */
void ref_fill(Ref *R)
{
	for (int l = 0; l < R->nl; l++) {
		size_t rows = (size_t)R->h[l] * R->d[l] * R->layers;
		R->pitch[l] = R->kind == KPITCH ? ((size_t)R->w[l] * R->es + 63) / 64 * 64 : (size_t)R->w[l] * R->es;
		R->lv[l] = calloc(rows * R->pitch[l] + 1, 1);
		for (size_t r = 0; r < rows; r++)
			for (int x = 0; x < R->w[l] * R->ch; x++) {
				uint8_t *p = R->lv[l] + r * R->pitch[l] + (size_t)x * fmt_size[R->fmt];
				if (R->fmt == PTXVM_FORMAT_F32) {
					float f = nice_f32();
					memcpy(p, &f, 4);
				} else if (R->fmt == PTXVM_FORMAT_F16) {
					uint16_t h = nice_f16();
					memcpy(p, &h, 2);
				} else {
					for (int i = 0; i < fmt_size[R->fmt]; i++)
						p[i] = (uint8_t)tm_rnd();
				}
			}
	}
}

void ref_free(Ref *R)
{
	for (int l = 0; l < R->nl; l++)
		free(R->lv[l]);
}

/* The device's copy of the reference's texels, and a texture object over
 * it with the reference's sampling.  0, or the result of a refusal. */
ptxvm_result ref_make(ptxvm_device *dv, const Ref *R, Dev *D)
{
	memset(D, 0, sizeof *D);
	ptxvm_array_desc ad = { akind[R->kind], (ptxvm_format)R->fmt, (unsigned)R->ch, (size_t)R->w[0], 0, 0, 0 };
	int cube = R->kind == KCUBE || R->kind == KCUBEL;
	if (R->kind != K1D && R->kind != K1DL && R->kind != KLIN)
		ad.height = (size_t)R->h[0];
	if (R->kind == K3D)
		ad.depth = (size_t)R->d[0];
	if (R->kind == K1DL || R->kind == K2DL || R->kind == KCUBEL)
		ad.layers = (size_t)(cube ? R->layers / 6 : R->layers);
	ptxvm_resource_desc rd;
	memset(&rd, 0, sizeof rd);
	if (R->kind == KLIN || R->kind == KPITCH) {
		size_t bytes = R->pitch[0] * (size_t)R->h[0];
		if (ptxvm_mem_alloc(dv, bytes, &D->dptr) || ptxvm_memcpy_htod(dv, D->dptr, R->lv[0], bytes))
			return PTXVM_ERROR_OUT_OF_MEMORY;
		rd.type = R->kind == KLIN ? PTXVM_RESOURCE_LINEAR : PTXVM_RESOURCE_PITCH2D;
		rd.dptr = D->dptr;
		rd.format = (ptxvm_format)R->fmt;
		rd.channels = (unsigned)R->ch;
		rd.bytes = bytes;
		rd.width = (size_t)R->w[0];
		rd.height = (size_t)R->h[0];
		rd.pitch = R->pitch[0];
	} else if (R->nl > 1) {
		if (ptxvm_mipmapped_array_create(dv, &ad, (unsigned)R->nl, &D->mip))
			return PTXVM_ERROR_INVALID_VALUE;
		for (int l = 0; l < R->nl; l++) {
			uint64_t a;
			size_t bytes = R->pitch[l] * (size_t)R->h[l] * (size_t)R->d[l] * (size_t)R->layers;
			if (ptxvm_mipmapped_array_level(dv, D->mip, (unsigned)l, &a) || ptxvm_array_bytes(dv, a) != bytes ||
			    ptxvm_array_write(dv, a, R->lv[l], bytes))
				return PTXVM_ERROR_INVALID_VALUE;
		}
		rd.type = PTXVM_RESOURCE_MIPMAPPED_ARRAY;
		rd.mipmap = D->mip;
	} else {
		if (ptxvm_array_create(dv, &ad, &D->arr))
			return PTXVM_ERROR_INVALID_VALUE;
		size_t bytes = R->pitch[0] * (size_t)R->h[0] * (size_t)R->d[0] * (size_t)R->layers;
		if (ptxvm_array_write(dv, D->arr, R->lv[0], bytes))
			return PTXVM_ERROR_INVALID_VALUE;
		rd.type = PTXVM_RESOURCE_ARRAY;
		rd.array = D->arr;
	}
	ptxvm_texture_desc td;
	memset(&td, 0, sizeof td);
	for (int k = 0; k < 3; k++)
		td.address_mode[k] = (ptxvm_address_mode)R->addr[k];
	td.filter_mode = (ptxvm_filter_mode)R->filter;
	td.mipmap_filter_mode = (ptxvm_filter_mode)R->mipfilter;
	td.read_mode = R->readnorm ? PTXVM_READ_NORMALIZED_FLOAT : PTXVM_READ_ELEMENT_TYPE;
	td.srgb = R->srgb;
	td.normalized_coords = R->norm;
	td.seamless_cubemap = R->seamless;
	td.max_anisotropy = (unsigned)R->aniso;
	memcpy(td.border_color, R->border, sizeof td.border_color);
	td.mipmap_level_bias = R->bias;
	td.min_mipmap_level_clamp = R->minlod;
	td.max_mipmap_level_clamp = R->maxlod;
	return ptxvm_texture_create(dv, &rd, &td, &D->tex);
}

void ref_unmake(ptxvm_device *dv, Dev *D)
{
	if (D->tex)
		ptxvm_texture_destroy(dv, D->tex);
	if (D->arr)
		ptxvm_array_destroy(dv, D->arr);
	if (D->mip)
		ptxvm_mipmapped_array_destroy(dv, D->mip);
	if (D->dptr)
		ptxvm_mem_free(dv, D->dptr);
}

void ref_shape(Ref *R, int kind)
{
	memset(R, 0, sizeof *R);
	R->kind = kind;
	R->nl = 1;
	R->w[0] = 5;
	R->h[0] = R->d[0] = 1;
	R->layers = 1;
	switch (kind) {
	case K2D: R->h[0] = 4; break;
	case K3D: R->h[0] = 4; R->d[0] = 3; break;
	case K1DL: R->layers = 3; break;
	case K2DL: R->h[0] = 3; R->layers = 3; break;
	case KCUBE: R->w[0] = R->h[0] = 4; R->layers = 6; break;
	case KCUBEL: R->w[0] = R->h[0] = 3; R->layers = 12; break;
	case KLIN: R->w[0] = 7; break;
	case KPITCH: R->w[0] = 6; R->h[0] = 3; break;
	}
}

void ref_mip_shape(Ref *R, int kind, int nl)
{
	int w = 13, h = kind == K1D || kind == K1DL ? 1 : 9, d = kind == K3D ? 6 : 1;
	if (kind == KCUBE || kind == KCUBEL)
		w = h = 8;
	R->nl = nl;
	for (int l = 0; l < nl; l++) {
		R->w[l] = w >> l ? w >> l : 1;
		R->h[l] = h >> l ? h >> l : 1;
		R->d[l] = d >> l ? d >> l : 1;
	}
}
