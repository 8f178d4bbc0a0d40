/* native.c: the kernels of suite.cu that exec.sh runs, in plain C, single-threaded, for
 * tests/bench/exec.sh.  Same float operations in the same order (fmaf where
 * the PTX has fma.rn; build with -ffp-contract=off so nothing else fuses), so
 * ptxvm's outputs must match these byte for byte.
 *
 *   native gen f32|u32 N SEED FILE      deterministic input data
 *   native fma_loop N ITERS OUT
 *   native vec_add N A B OUT
 *   native block_reduce N IN OUT        N a multiple of 256
 *   native histogram N IN OUT
 *   native tex_resample SW SH W H SCALE IN OUT
 *                                       bilinear resampling of an SW x SH
 *                                       f32 image to W x H, coordinates
 *                                       scaled by SCALE (docs/TEXTURES.md)
 *   native atomics contended|spread N ITERS OUT
 *                                       C11 atomic adds from 2 threads: N
 *                                       counters' worth of ITERS adds each,
 *                                       all on one counter or one apiece
 *
 * A kernel runs 3 times; it writes OUT from the last and prints the best
 * time in seconds on stdout.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "native: %s\n", what);
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static void *slurp(const char *path, size_t n)
{
	void *p = xmalloc(n);
	FILE *f = fopen(path, "rb");
	if (!f || fread(p, 1, n, f) != n)
		die("cannot read an input file (too short?)");
	fclose(f);
	return p;
}

static void spill(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		die("cannot write an output file");
}

/* ---- the kernels, thread by thread ---------------------------------------- */
static void fma_loop(float *out, int n, int iters)
{
	for (int i = 0; i < n; i++) {
		float x = (float)i * 1e-6f;
		for (int k = 0; k < iters; k++) {
			x = fmaf(x, 0.999f, 0.001f);
			x = fmaf(x, 1.001f, -0.002f);
			x = fmaf(x, 0.998f, 0.003f);
			x = fmaf(x, 1.002f, -0.001f);
			x = fmaf(x, 0.997f, 0.002f);
			x = fmaf(x, 1.003f, -0.003f);
			x = fmaf(x, 0.996f, 0.001f);
			x = fmaf(x, 1.004f, -0.001f);
		}
		out[i] = x;
	}
}

static void vec_add(const float *a, const float *b, float *c, int n)
{
	for (int i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

/* The CTA's tree in the same order: step w adds s[t + w] into s[t], t < w. */
static void block_reduce(const float *in, float *out, int n)
{
	float s[256];
	for (int b = 0; b < n / 256; b++) {
		memcpy(s, in + (size_t)b * 256, sizeof s);
		for (int w = 128; w > 0; w >>= 1)
			for (int t = 0; t < w; t++)
				s[t] += s[t + w];
		out[b] = s[0];
	}
}

static void histogram(const unsigned *in, unsigned *bins, int n)
{
	memset(bins, 0, 256 * sizeof *bins);
	for (int i = 0; i < n; i++)
		bins[in[i] & 255]++;
}

/* Texture filtering as docs/TEXTURES.md states it (what an H200 does):
 * x - 0.5, its floor and fraction, the fraction rounded to 1/256, clamped
 * edges; integer weights summing to 256, split x first (half up), then y
 * (half up in column i+1, half down in column i); each texel of a weight
 * cut towards zero to 1/16 of the last bit of the largest one's
 * significand, the products summed exactly, the sum over 256 rounded to
 * f32 ties away from zero.  Only what an f32 texture clamped and filtered
 * in 2D needs, as a C programmer would write it for speed: the tests'
 * reference model (tests/texmodel.c) covers every format and mode, in
 * doubles, and is no baseline for a time. */
static int clampi(double v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : (int)v; }

/* s * 2^e rounded to f32, ties away from zero (no subnormal results here). */
static float f32_away(int64_t s, int e)
{
	if (!s)
		return 0.0f;
	uint64_t m = s < 0 ? 0 - (uint64_t)s : (uint64_t)s;
	int bits = 64 - __builtin_clzll(m);
	if (bits > 24) {
		int sh = bits - 24;
		uint64_t rest = m & ((1ull << sh) - 1);
		m = (m >> sh) + (rest >= 1ull << (sh - 1));
		e += sh;
	}
	float f = ldexpf((float)m, e);
	return s < 0 ? -f : f;
}

/* The sum of four finite texels v of weights w (summing to 256): with E
 * the largest biased exponent among those weighted, a texel of exponent e
 * and 24-bit significand M is M * 2^(e - E + 4) units of 2^(E - 154), cut
 * towards zero. */
static float filter4(const float v[4], const int w[4])
{
	uint32_t bits[4];
	int emax = -1;
	for (int i = 0; i < 4; i++) {
		memcpy(&bits[i], &v[i], 4);
		int e = (int)(bits[i] >> 23 & 0xff);
		if (w[i] && (bits[i] & 0x7fffffffu) && (e ? e : 1) > emax)
			emax = e ? e : 1;
	}
	if (emax < 0)
		return 0.0f;
	int64_t sum = 0;
	for (int i = 0; i < 4; i++) {
		int e = (int)(bits[i] >> 23 & 0xff);
		int64_t m = (int64_t)((bits[i] & 0x7fffff) | (e ? 0x800000u : 0)) << 4;
		int sh = emax - (e ? e : 1);
		m = sh < 63 ? m >> sh : 0;
		sum += (int64_t)w[i] * (bits[i] >> 31 ? -m : m);
	}
	return f32_away(sum, emax - 154 - 8);
}

static void tex_resample(const float *img, int sw, int sh, float *out, int w, int h, float sx, float sy)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double u = (double)(((float)x + 0.5f) * sx) - 0.5, v = (double)(((float)y + 0.5f) * sy) - 0.5;
			double fu = floor(u), fv = floor(v);
			int a = (int)floor((u - fu) * 256 + 0.5), b = (int)floor((v - fv) * 256 + 0.5);
			int x0 = clampi(fu, sw), x1 = clampi(fu + 1, sw), y0 = clampi(fv, sh), y1 = clampi(fv + 1, sh);
			int w11 = (a * b + 128) >> 8, w01 = ((256 - a) * b + 127) >> 8;
			const float t[4] = { img[(size_t)y0 * sw + x0], img[(size_t)y0 * sw + x1], img[(size_t)y1 * sw + x0],
					     img[(size_t)y1 * sw + x1] };
			const int wt[4] = { 256 - a - w01, a - w11, w01, w11 };
			out[(size_t)y * w + x] = filter4(t, wt);
		}
}

/* ---- driver ---------------------------------------------------------------- */
static uint32_t rng(uint64_t *s)   /* splitmix64, top half */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static int num(const char *s)
{
	char *e;
	long v = strtol(s, &e, 0);
	if (e == s || *e || v <= 0 || v > 0x7fffffff)
		die("bad number");
	return (int)v;
}

/* Atomic throughput: threads [lo, hi) of the kernel, each ITERS adds of 1,
 * to counter 0 (contended) or to its own (spread). */
typedef struct AtomJob {
	_Atomic unsigned *c;
	int spread, lo, hi, iters;
} AtomJob;

static void *atom_job(void *arg)
{
	AtomJob *j = arg;
	for (int i = j->lo; i < j->hi; i++)
		for (int k = 0; k < j->iters; k++)
			atomic_fetch_add(&j->c[j->spread ? i : 0], 1u);
	return NULL;
}

#define TIMED(stmt)                                      \
	do {                                             \
		double best = 1e30;                      \
		for (int r_ = 0; r_ < 3; r_++) {         \
			double t0_ = now();              \
			stmt;                            \
			double t_ = now() - t0_;         \
			if (t_ < best)                   \
				best = t_;               \
		}                                        \
		printf("%.6f\n", best);                  \
	} while (0)

int main(int argc, char **argv)
{
	const char *k = argc > 1 ? argv[1] : "";
	if (!strcmp(k, "gen") && argc == 6) {
		int n = num(argv[3]);
		uint64_t seed = (uint64_t)num(argv[4]);
		uint32_t *p = xmalloc((size_t)n * 4);
		for (int i = 0; i < n; i++) {
			uint32_t r = rng(&seed);
			if (!strcmp(argv[2], "f32")) {
				float f = (float)(r >> 8) * (1.0f / 16777216.0f);   /* [0, 1), exact */
				memcpy(&p[i], &f, 4);
			} else if (!strcmp(argv[2], "u32")) {
				p[i] = r;
			} else {
				die("gen: f32 or u32");
			}
		}
		spill(argv[5], p, (size_t)n * 4);
		return 0;
	}
	if (!strcmp(k, "fma_loop") && argc == 5) {
		int n = num(argv[2]), iters = num(argv[3]);
		float *out = xmalloc((size_t)n * 4);
		TIMED(fma_loop(out, n, iters));
		spill(argv[4], out, (size_t)n * 4);
		return 0;
	}
	if (!strcmp(k, "vec_add") && argc == 6) {
		int n = num(argv[2]);
		float *a = slurp(argv[3], (size_t)n * 4), *b = slurp(argv[4], (size_t)n * 4);
		float *c = xmalloc((size_t)n * 4);
		memset(c, 0, (size_t)n * 4);   /* fault the pages in before timing */
		TIMED(vec_add(a, b, c, n));
		spill(argv[5], c, (size_t)n * 4);
		return 0;
	}
	if (!strcmp(k, "block_reduce") && argc == 5) {
		int n = num(argv[2]);
		if (n % 256)
			die("block_reduce: N must be a multiple of 256");
		float *in = slurp(argv[3], (size_t)n * 4), *out = xmalloc((size_t)n / 256 * 4);
		TIMED(block_reduce(in, out, n));
		spill(argv[4], out, (size_t)n / 256 * 4);
		return 0;
	}
	if (!strcmp(k, "histogram") && argc == 5) {
		int n = num(argv[2]);
		unsigned *in = slurp(argv[3], (size_t)n * 4), bins[256];
		TIMED(histogram(in, bins, n));
		spill(argv[4], bins, sizeof bins);
		return 0;
	}
	if (!strcmp(k, "tex_resample") && argc == 9) {
		int sw = num(argv[2]), sh = num(argv[3]), w = num(argv[4]), h = num(argv[5]);
		float sc = strtof(argv[6], NULL);
		float *in = slurp(argv[7], (size_t)sw * sh * 4), *out = xmalloc((size_t)w * h * 4);
		memset(out, 0, (size_t)w * h * 4);
		TIMED(tex_resample(in, sw, sh, out, w, h, sc, sc));
		spill(argv[8], out, (size_t)w * h * 4);
		return 0;
	}
	if (!strcmp(k, "atomics") && argc == 6) {
		int spread = !strcmp(argv[2], "spread");
		int n = num(argv[3]), iters = num(argv[4]);
		_Atomic unsigned *c = xmalloc((size_t)n * sizeof *c);
		AtomJob job[2];
		pthread_t th[2];
		double best = 1e30;
		for (int rep = 0; rep < 3; rep++) {
			for (int i = 0; i < n; i++)
				atomic_init(&c[i], 0);
			double t0 = now();
			for (int t = 0; t < 2; t++) {
				job[t] = (AtomJob){ c, spread, t * (n / 2), t ? n : n / 2, iters };
				pthread_create(&th[t], NULL, atom_job, &job[t]);
			}
			for (int t = 0; t < 2; t++)
				pthread_join(th[t], NULL);
			double t = now() - t0;
			if (t < best)
				best = t;
		}
		unsigned *out = xmalloc((size_t)n * sizeof *out);
		for (int i = 0; i < n; i++)
			out[i] = atomic_load(&c[i]);
		spill(argv[5], out, (size_t)(spread ? n : 1) * 4);
		printf("%.6f\n", best);
		return 0;
	}
	fputs("usage: native gen f32|u32 N SEED FILE | fma_loop N ITERS OUT | vec_add N A B OUT |\n"
	      "       block_reduce N IN OUT | histogram N IN OUT | tex_resample SW SH W H SCALE IN OUT |\n"
	      "       atomics contended|spread N ITERS OUT\n",
	      stderr);
	return 2;
}
