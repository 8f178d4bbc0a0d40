/* mmaref.h: the tests' reference for a tensor core's floating-point sum
 * (docs/FLOAT.md 19, as recorded on an H200 by tests/hw/isa.c, group mma).
 *
 * D = C + sum of the products of a row of A and a column of B: the
 * products are exact; every term, C included, is cut towards zero to 26
 * significant bits counted from the leading bit of the largest term; the
 * cut terms add exactly, and the sum is rounded once: towards zero to an
 * f32 D (but one past f32's range is an infinity), to nearest even to an
 * f16 D.  Products of .e4m3 and .e5m2 elements are not cut: their sum
 * (taken in double, in k order) is rounded to nearest even.  Written with
 * integers, apart from src/exec/mma.c.
 */
#ifndef PTXVM_MMAREF_H
#define PTXVM_MMAREF_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* The exact sum before D's rounding; infinities and NaNs as plain sums. */
static inline double mmaref_sum(double c, const double *p, unsigned n, bool fp8)
{
	double plain = c;
	if (fp8) {
		for (unsigned k = 0; k < n; k++)
			plain += p[k];
		return plain;
	}
	int top = c != 0 ? ilogb(c) : -100000;
	for (unsigned k = 0; k < n; k++) {
		plain += p[k];
		if (!isfinite(p[k]))
			return plain;
		if (p[k] != 0 && ilogb(p[k]) > top)
			top = ilogb(p[k]);
	}
	if (!isfinite(c) || top == -100000)
		return plain;
	int64_t units = (int64_t)ldexp(c, 25 - top);    /* the cast cuts towards zero */
	for (unsigned k = 0; k < n; k++)
		units += (int64_t)ldexp(p[k], 25 - top);
	return ldexp((double)units, top - 25);
}

/* x rounded to an f32 D: towards zero, or to nearest even for .e4m3 and
 * .e5m2 products; past f32's range an infinity either way. */
static inline float mmaref_f32(double x, bool fp8)
{
	float f = (float)x;
	if (!fp8 && isfinite(x) && fabs(x) < 0x1p128 && fabs((double)f) > fabs(x))
		f = nextafterf(f, 0.0f);
	return f;
}

#endif
