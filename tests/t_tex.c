/* t_tex.c: textures against a reference model (texmodel.c) written from
 * the rules of docs/TEXTURES.md: the hardware's quantisation (alpha and the
 * level of detail in 8 fractional bits, integer weights summing to 256,
 * the sum in fixed point, rounded once).
 *
 *   matrix   every resource kind (1D, 2D, 3D, 1D and 2D layered, cubemap,
 *            layered cubemap, linear and pitch-2D memory) x format x
 *            channel count x address mode x filter x normalized or not x
 *            read mode, at coordinates inside, on texel centres and edges,
 *            just outside, far outside, negative, NaN and +-inf, with
 *            alpha's rounding probed at odd multiples of 1/512; a
 *            combination CUDA forbids must be refused instead
 *   mip      mipmapped arrays: tex.level and tex.grad (isotropic and
 *            anisotropic), both mipmap filters, bias and clamps
 *   gather   tld4, every component, on 2D, layered and cubemap textures
 *   fetch    .s32 coordinates (texel fetches, tex1Dfetch), with offsets
 *   wide     the filter's fixed-point sum: f32 and f16 texels far apart
 *   extras   offsets, depth compare, f16 and f16x2 results, the |p
 *            predicate, seamless cubemaps, sRGB, independent mode
 *   api      txq, istypep, refusals, region copies, binding
 *
 * The texels of float formats are chosen so that every weighted sum is
 * exact in double (17-bit f32 values, f16 of a bounded exponent range);
 * special values (NaN, inf, subnormals) are tested point-sampled.
 * Prints the number of lookups compared.
 */
#include "test.h"
#include "texmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ptxvm_device *dv;
static long lookups, bad_lookups;
static int case_bad;

#define CFAIL(...) do { if (!case_bad++) fail(__VA_ARGS__); } while (0)

/* ---- kernels -------------------------------------------------------------------- */

static const char *const gname[] = { "1d", "2d", "3d", "a1d", "a2d", "cube", "acube" };
static const int gcoords[] = { 1, 2, 4, 2, 4, 4, 4 }, ggrad[] = { 1, 2, 4, 1, 2, 4, 4 };

typedef struct Kern {
	char key[96];
	ptxvm_program *p;
} Kern;
static Kern kerns[512];
static int nkerns;

/* The kernel of one instruction variant: each lane reads a record of 16
 * words -- c0..c3 (the PTX coordinate vector), lod, dx0..2, dy0..2,
 * depth, off0..2, - -- and writes 8: the four results, the predicate. */
static ptxvm_program *kernel(const char *op, int g, int icoord, int mip, const char *dty, int off, int depth,
			     int pred, int independent)
{
	char key[96];
	snprintf(key, sizeof key, "%s.%d.%d.%d.%s.%d.%d.%d.%d", op, g, icoord, mip, dty, off, depth, pred, independent);
	for (int i = 0; i < nkerns; i++)
		if (!strcmp(kerns[i].key, key))
			return kerns[i].p;
	const char *ct = icoord ? "s32" : "f32";
	int f16 = !strcmp(dty, "f16"), f16x2 = !strcmp(dty, "f16x2"), fl = !strcmp(dty, "f32");
	char ins[512], co[128] = "", d[96], gr[160] = "", of[96] = "";
	int layered = g == 3 || g == 4 || g == 6;
	for (int k = 0; k < gcoords[g]; k++) {
		char e[16];
		snprintf(e, sizeof e, "%s%s%d", k ? ", " : "", layered && k == 0 ? "%r" : icoord ? "%r" : "%f", 10 + k);
		strcat(co, e);
	}
	if (f16x2)
		snprintf(d, sizeof d, "{%%r30, %%r31}");
	else if (f16)
		snprintf(d, sizeof d, "{%%h0, %%h1, %%h2, %%h3}");
	else if (fl)
		snprintf(d, sizeof d, "{%%f30, %%f31, %%f32, %%f33}");
	else
		snprintf(d, sizeof d, "{%%r30, %%r31, %%r32, %%r33}");
	if (mip == 1)
		snprintf(gr, sizeof gr, ", %s14", icoord ? "%r" : "%f");
	else if (mip == 2) {
		int n = ggrad[g];
		snprintf(gr, sizeof gr, ", {%%f15%s%s}, {%%f18%s%s}", n > 1 ? ", %f16" : "", n > 2 ? ", %f17, %f17" : "",
			 n > 1 ? ", %f19" : "", n > 2 ? ", %f20, %f20" : "");
	}
	if (off) {
		int n = g == 0 || g == 3 ? 1 : g == 2 ? 4 : 2;
		snprintf(of, sizeof of, ", {%%r22%s%s}", n > 1 ? ", %r23" : "", n > 2 ? ", %r24, %r24" : "");
	}
	snprintf(ins, sizeof ins, "%s%s.%s.%s.%s.%s %s%s, [%%rd1, %s{%s}]%s%s%s;", op,
		 !strcmp(op, "tex") && mip ? (mip == 1 ? ".level" : mip == 2 ? ".grad" : ".base") : "", gname[g],
		 f16x2 ? "v2" : "v4", dty, ct, d, pred ? "|%p2" : "", independent ? "%rd9, " : "", co, gr, of,
		 depth ? ", %f21" : "");
	char ptx[4096];
	const char *st;
	if (f16x2)
		st = "st.global.v2.b32 [%rd7], {%r30, %r31};";
	else if (f16)
		st = "st.global.b16 [%rd7], %h0; st.global.b16 [%rd7+4], %h1; st.global.b16 [%rd7+8], %h2; "
		     "st.global.b16 [%rd7+12], %h3;";
	else if (fl)
		st = "st.global.v4.f32 [%rd7], {%f30, %f31, %f32, %f33};";
	else
		st = "st.global.v4.b32 [%rd7], {%r30, %r31, %r32, %r33};";
	snprintf(ptx, sizeof ptx,
		 ".version 8.0\n.target sm_90%s\n.address_size 64\n"
		 ".visible .entry k(.param .u64 t, .param .u64 s, .param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
		 ".reg .b32 %%r<40>; .reg .f32 %%f<40>; .reg .b64 %%rd<12>; .reg .pred %%p<3>; .reg .f16 %%h<4>;\n"
		 "ld.param.u64 %%rd1, [t]; ld.param.u64 %%rd9, [s]; ld.param.u64 %%rd2, [in]; ld.param.u64 %%rd3, [out];\n"
		 "ld.param.u32 %%r1, [n];\n"
		 "mov.u32 %%r2, %%ctaid.x; mov.u32 %%r3, %%ntid.x; mov.u32 %%r4, %%tid.x; mad.lo.u32 %%r5, %%r2, %%r3, %%r4;\n"
		 "setp.ge.u32 %%p1, %%r5, %%r1; @%%p1 bra DONE;\n"
		 "mul.wide.u32 %%rd4, %%r5, 64; add.u64 %%rd5, %%rd2, %%rd4;\n"
		 "ld.global.v4.b32 {%%r10, %%r11, %%r12, %%r13}, [%%rd5];\n"
		 "ld.global.v4.b32 {%%r14, %%r15, %%r16, %%r17}, [%%rd5+16];\n"
		 "ld.global.v4.b32 {%%r18, %%r19, %%r20, %%r21}, [%%rd5+32];\n"
		 "ld.global.v4.b32 {%%r22, %%r23, %%r24, %%r25}, [%%rd5+48];\n"
		 "mov.b32 %%f10, %%r10; mov.b32 %%f11, %%r11; mov.b32 %%f12, %%r12; mov.b32 %%f13, %%r13;\n"
		 "mov.b32 %%f14, %%r14; mov.b32 %%f15, %%r15; mov.b32 %%f16, %%r16; mov.b32 %%f17, %%r17;\n"
		 "mov.b32 %%f18, %%r18; mov.b32 %%f19, %%r19; mov.b32 %%f20, %%r20; mov.b32 %%f21, %%r21;\n"
		 "setp.eq.u32 %%p2, %%r1, 0;\n"
		 "mul.wide.u32 %%rd6, %%r5, 32; add.u64 %%rd7, %%rd3, %%rd6;\n"
		 "%s\n%s\n"
		 "selp.u32 %%r35, 1, 0, %%p2; st.global.u32 [%%rd7+16], %%r35;\n"
		 "DONE:\nret;\n}\n", independent ? ", texmode_independent" : "", ins, st);
	ptxvm_module *m = ptxvm_module_load(key, ptx, strlen(ptx), NULL);
	ptxvm_program *p = NULL;
	if (ptxvm_module_errors(m) || ptxvm_program_load(dv, m, &p)) {
		char *dg = ptxvm_module_diagnostics(m);
		fail("tex: the kernel of %s does not load: %s%s\n%s", key, ptxvm_device_message(dv), dg ? dg : "", ptx);
		free(dg);
		p = NULL;
	}
	ptxvm_module_free(m);
	if (nkerns < (int)(sizeof kerns / sizeof kerns[0])) {
		snprintf(kerns[nkerns].key, sizeof kerns[nkerns].key, "%s", key);
		kerns[nkerns++].p = p;
	}
	return p;
}

/* Runs the lookups through the kernel and compares each with the
 * reference.  what names the case in a failure. */
static void run(const Ref *R, uint64_t tex, uint64_t smp, const Q *qs, int n, const char *op, int mip,
		const char *dty, int off, int depth, int pred, const char *what)
{
	const Q *q0 = &qs[0];
	ptxvm_program *p = kernel(op, q0->geom, q0->icoord, mip, dty, off, depth, pred, smp != 0);
	if (!p) {
		case_bad++;
		return;
	}
	uint32_t *in = calloc((size_t)n * 16, 4), *out = calloc((size_t)n * 8, 4);
	for (int i = 0; i < n; i++) {
		const Q *q = &qs[i];
		uint32_t *w = in + i * 16;
		int layered = q->geom == 3 || q->geom == 4 || q->geom == 6;
		int k = 0;
		if (layered)
			w[k++] = q->layer;
		for (int j = 0; k < 4; j++)
			w[k++] = j < 3 ? q->c[j] : 0;
		w[4] = q->lod;
		for (int j = 0; j < 3; j++)
			w[5 + j] = q->dx[j], w[8 + j] = q->dy[j], w[12 + j] = (uint32_t)q->off[j];
		w[11] = q->depth;
	}
	uint64_t din, dout;
	ptxvm_mem_alloc(dv, (size_t)n * 64, &din);
	ptxvm_mem_alloc(dv, (size_t)n * 32, &dout);
	ptxvm_memcpy_htod(dv, din, in, (size_t)n * 64);
	unsigned un = (unsigned)n;
	void *args[] = { &tex, &smp, &din, &dout, &un };
	ptxvm_launch_config cfg = { { (un + 63) / 64, 1, 1 }, { 64, 1, 1 }, 0, { 0, 0, 0 } };
	ptxvm_result r = ptxvm_launch(dv, ptxvm_kernel_at(p, 0), &cfg, args, NULL);
	if (r) {
		CFAIL("tex: %s: the launch failed: %s", what, ptxvm_device_message(dv));
	} else {
		ptxvm_memcpy_dtoh(dv, out, dout, (size_t)n * 32);
		for (int i = 0; i < n; i++) {
			uint32_t want[4], got[4];
			ref_look(R, &qs[i], want);
			int f16 = !strcmp(dty, "f16"), f16x2 = !strcmp(dty, "f16x2");
			int fl = fres(R);
			for (int k = 0; k < 4; k++) {
				got[k] = out[i * 8 + k];
				if (f16 || f16x2)       /* the 32 bits as an f32, integers' too; NaN is 0x7fff */
					want[k] = to_half(fbits(want[k]));
			}
			if (f16) {
				for (int k = 0; k < 4; k++)
					got[k] &= 0xffff;
			} else if (f16x2) {
				uint32_t a = out[i * 8], b = out[i * 8 + 1];
				got[0] = a & 0xffff, got[1] = a >> 16, got[2] = b & 0xffff, got[3] = b >> 16;
			} else if (!strcmp(dty, "s32") || !strcmp(dty, "u32") || !strcmp(dty, "f32")) {
				/* bits as they are */
			}
			int same = 1;
			for (int k = 0; k < 4; k++) {
				uint32_t a = got[k], b = want[k];
				int nan = !f16 && !f16x2 && fl && isnan(fbits(a)) && isnan(fbits(b));
				same &= a == b || nan;
			}
			if (pred && out[i * 8 + 4] != 1)
				same = 0;
			lookups++;
			if (!same) {
				bad_lookups++;
				const Q *q = &qs[i];
				CFAIL("tex: %s: lookup %d (layer %u, c %08x %08x %08x = %g %g %g, lod %g, off %d %d %d): "
				      "got %08x %08x %08x %08x, want %08x %08x %08x %08x", what, i, q->layer, q->c[0], q->c[1],
				      q->c[2], fbits(q->c[0]), fbits(q->c[1]), fbits(q->c[2]), fbits(q->lod), q->off[0],
				      q->off[1], q->off[2], got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
			}
		}
	}
	ptxvm_mem_free(dv, din);
	ptxvm_mem_free(dv, dout);
	free(in);
	free(out);
}

/* ---- coordinates ------------------------------------------------------------------- */

/* Interesting positions on an axis of n texels, in texels: centres, edges,
 * inside, just outside, negative, far outside, NaN, infinities, and
 * alpha's rounding probes (odd multiples of 1/512 past a centre). */
static int axis_values(int n, double *v)
{
	int k = 0;
	double N = n;
	double list[] = { 0.5, 1.5, N - 0.5, 0, 1, N, N / 2 + 0.3, 1.25, 2.75, -0.01, N + 0.01, -0.5, N + 0.5,
			  -2.7, -N - 1.3, 1e6, -1e6, 3 * N + 0.3, NAN, INFINITY, -INFINITY,
			  1.5 + 1.0 / 512, 1.5 + 3.0 / 512, 0.5 + 255.0 / 512, 1.5 - 1.0 / 512, 2.0 + 1.0 / 1024,
			  N - 1 + 0.5 + 129.0 / 512, 0.999, 7.25 };
	for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
		v[k++] = list[i];
	return k;
}

/* A coordinate's bits: texels, or divided by the size when normalized. */
static uint32_t cbits(double t, int n, int normalized)
{
	float f = (float)(normalized && isfinite(t) ? t / n : t);
	return bitsf(f);
}

/* Cube directions: near each face's centre and edges, the diagonals (ties
 * of the major axis), random ones, zero, NaN and infinite components. */
static int cube_dirs(float (*v)[3])
{
	static const float fixed[][3] = {
		{ 1, 0.2f, -0.3f }, { -1, 0.5f, 0.25f }, { 0.1f, 1, -0.7f }, { -0.3f, -1, 0.6f }, { 0.45f, 0.2f, 1 },
		{ -0.6f, 0.9f, -1 }, { 1, 1, 0 }, { 1, 1, 1 }, { -1, 1, -1 }, { 0, -1, -1 }, { 1, 0.999f, 0.2f },
		{ 2, -1.999f, 1.5f }, { 0, 0, 0 }, { NAN, 1, 0.5f }, { INFINITY, 1, 0 }, { 0.5f, -INFINITY, 0.1f },
		{ 1, 0.9999f, -0.9999f }, { -3, 0.01f, 2.99f }, { 0.25f, 0.5f, -1 }, { 1e-3f, 1e-3f, -2e-3f },
	};
	int n = 0;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++, n++)
		memcpy(v[n], fixed[i], sizeof fixed[i]);
	for (int i = 0; i < 28; i++, n++)
		for (int k = 0; k < 3; k++)
			v[n][k] = (float)((int)(tm_rnd() % 2001) - 1000) / 500.0f;
	return n;
}

static const uint32_t layer_list[] = { 0, 1, 2, 3, 1000000, 0xffffffffu };

/* Lookups of geometry g over the reference's texture. */
static int make_queries(const Ref *R, int g, int icoord, Q *qs)
{
	int n = 0;
	if (g >= 5) {
		float dirs[64][3];
		int nd = cube_dirs(dirs);
		for (int i = 0; i < nd; i++, n++) {
			memset(&qs[n], 0, sizeof qs[n]);
			qs[n].geom = g;
			qs[n].gather = -1;
			for (int k = 0; k < 3; k++)
				qs[n].c[k] = bitsf(dirs[i][k]);
			qs[n].layer = layer_list[i % 6];
		}
		return n;
	}
	int dims = g == 0 || g == 3 ? 1 : g == 2 ? 3 : 2;
	double v[3][40];
	int nv[3];
	int size[3] = { R->w[0], R->h[0], R->d[0] };
	for (int k = 0; k < dims; k++)
		nv[k] = axis_values(size[k], v[k]);
	int total = 2 * nv[0];
	for (int i = 0; i < total; i++, n++) {
		Q *q = &qs[n];
		memset(q, 0, sizeof *q);
		q->geom = g;
		q->gather = -1;
		q->icoord = icoord;
		for (int k = 0; k < dims; k++) {
			int j = k == 0 ? i % nv[0] : k == 1 ? (i * 7 + 3) % nv[1] : (i * 13 + 5) % nv[2];
			double t = v[k][j];
			if (icoord)
				q->c[k] = (uint32_t)(int32_t)(isfinite(t) ? (fabs(t) > 1e5 ? (t > 0 ? 70000 : -70000) : floor(t)) : -3);
			else
				q->c[k] = cbits(t, size[k], R->norm && R->kind != KLIN);
		}
		q->layer = layer_list[i % 6];
	}
	return n;
}

/* ---- the matrix ------------------------------------------------------------------- */

static const int kind_geom[] = { 0, 1, 2, 3, 4, 5, 6, 0, 1 };

/* The dtype a kernel uses for a texture: f32 for float results, else the
 * format's signedness. */
static const char *dtype(const Ref *R) { return fres(R) ? "f32" : signed_fmt(R->fmt) ? "s32" : "u32"; }

static void matrix(void)
{
	static Q qs[128];
	int textures = 0, refused = 0;
	for (int kind = 0; kind < NKIND; kind++)
		for (int f = 0; f < 12; f++)
			for (int ch = 1; ch <= 4; ch *= 2)
				for (int am = 0; am < 4; am++)
					for (int filt = 0; filt < 2; filt++)
						for (int nrm = 0; nrm < 2; nrm++)
							for (int rm = 0; rm < (small_int(f) ? 2 : 1); rm++) {
		Ref R;
		ref_shape(&R, kind);
		R.fmt = f;
		R.ch = ch;
		R.es = fmt_size[f] * ch;
		R.addr[0] = am;
		R.addr[1] = (am + 1) % 4;       /* a second mode on the other axes */
		R.addr[2] = (am + 3) % 4;
		R.filter = filt;
		R.norm = nrm;
		R.readnorm = rm;
		R.seamless = (kind == KCUBE || kind == KCUBEL) && (am & 1);
		for (int k = 0; k < 4; k++)
			R.border[k] = fres(&R) ? (float)(k + 1) * 0.25f - 2.0f : fbits((uint32_t)(k * 1000 + 7));
		ref_fill(&R);
		char what[160];
		snprintf(what, sizeof what, "%s %sx%d, address %d, %s, %snormalized, %s%s", kind_name[kind], fmt_name[f], ch,
			 am, filt ? "linear" : "point", nrm ? "" : "un", rm ? "normalized float" : "element type",
			 R.seamless ? ", seamless" : "");
		Dev D;
		ptxvm_result r = ref_make(dv, &R, &D);
		int forbidden = filt && !fres(&R) && kind != KLIN;
		case_bad = 0;
		if (forbidden) {
			if (r != PTXVM_ERROR_INVALID_VALUE || !strstr(ptxvm_device_message(dv), "linear filtering"))
				CFAIL("tex: %s: linear filtering of integer texels was not refused (%d: %s)", what, r,
				      ptxvm_device_message(dv));
			refused++;
		} else if (r) {
			CFAIL("tex: %s: texture_create failed: %s", what, ptxvm_device_message(dv));
		} else {
			int n = make_queries(&R, kind_geom[kind], 0, qs);
			run(&R, D.tex, 0, qs, n, "tex", 0, dtype(&R), 0, 0, 0, what);
			textures++;
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
							}
	printf("tex: matrix: %d textures sampled, %d combinations refused as CUDA refuses them\n", textures, refused);
}

/* ---- mipmaps ------------------------------------------------------------------------ */

static void mipmaps(void)
{
	static Q qs[256];
	static const int kinds[] = { K1D, K2D, K3D, K1DL, K2DL, KCUBE, KCUBEL };
	static const int fmts[] = { PTXVM_FORMAT_F32, PTXVM_FORMAT_UNORM8, PTXVM_FORMAT_F16, PTXVM_FORMAT_U16 };
	static const float lods[] = { -1, 0, 0.25f, 0.5f, 0.5f + 1.0f / 512, 0.75f, 1, 1.3f, 1.5f, 2, 2.6f, 3,
				      3.9f, 7, 100, NAN, INFINITY, -INFINITY, 1.0f / 1024, 1.0f + 3.0f / 512 };
	static const float grads[] = { 0, 0.01f, 0.07f, 0.1f, 0.2f, 0.33f, 0.5f, 1, 2.5f, 40, NAN, INFINITY };
	int n_tex = 0;
	for (size_t ki = 0; ki < sizeof kinds / sizeof kinds[0]; ki++)
		for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
			for (int mf = 0; mf < 2; mf++)
				for (int filt = 0; filt < 2; filt++)
					for (int setting = 0; setting < 3; setting++) {
		int kind = kinds[ki];
		Ref R;
		ref_shape(&R, kind);
		ref_mip_shape(&R, kind, kind == K3D ? 3 : 4);
		R.fmt = fmts[fi];
		R.ch = fi == 1 ? 4 : fi == 3 ? 2 : 1;
		R.es = fmt_size[R.fmt] * R.ch;
		R.readnorm = 1;
		R.addr[0] = (int)(fi + setting) % 4;
		R.addr[1] = (int)(fi + setting + 1) % 4;
		R.addr[2] = AC;
		R.filter = filt;
		R.mipfilter = mf;
		R.norm = 1;
		R.border[0] = 0.5f;
		R.border[3] = -1;
		R.maxlod = setting == 0 ? 100 : setting == 1 ? 1.6f : 0;
		R.minlod = setting == 1 ? 0.3f : 0;
		R.bias = setting == 2 ? 0.75f : setting == 1 ? -0.5f : 0;
		R.aniso = setting == 0 ? 4 : setting == 1 ? 16 : 0;
		ref_fill(&R);
		char what[160];
		snprintf(what, sizeof what, "mipmapped %s %sx%d, mip %s, %s, setting %d", kind_name[kind], fmt_name[R.fmt],
			 R.ch, mf ? "linear" : "point", filt ? "linear" : "point", setting);
		Dev D;
		case_bad = 0;
		if (ref_make(dv, &R, &D)) {
			CFAIL("tex: %s: texture_create failed: %s", what, ptxvm_device_message(dv));
		} else {
			int g = kind_geom[kind];
			int n = make_queries(&R, g, 0, qs);
			if (n > 40)
				n = 40;
			/* tex.level at each lod */
			int nq = 0;
			static Q ql[1024];
			for (size_t li = 0; li < sizeof lods / sizeof lods[0]; li++)
				for (int i = 0; i < n; i += 3, nq++) {
					ql[nq] = qs[(i + (int)li) % n];
					ql[nq].mip = 1;
					ql[nq].lod = bitsf(lods[li]);
				}
			run(&R, D.tex, 0, ql, nq, "tex", 1, "f32", 0, 0, 0, what);
			/* tex.grad */
			nq = 0;
			for (size_t gi = 0; gi < sizeof grads / sizeof grads[0]; gi++)
				for (size_t gj = 0; gj < sizeof grads / sizeof grads[0]; gj += 2)
					for (int i = 0; i < n; i += 7, nq++) {
						Q *q = &ql[nq];
						*q = qs[(i + (int)gi * 3 + (int)gj) % n];
						q->mip = 2;
						float a = grads[gi], b = grads[gj];
						q->dx[0] = bitsf(a);
						q->dx[1] = bitsf(b * 0.5f);
						q->dx[2] = bitsf(-b);
						q->dy[0] = bitsf(-b * 0.25f);
						q->dy[1] = bitsf(a);
						q->dy[2] = bitsf(b);
					}
			run(&R, D.tex, 0, ql, nq, "tex", 2, "f32", 0, 0, 0, what);
			/* tex with no mipmap mode: level 0 with the bias */
			run(&R, D.tex, 0, qs, n, "tex", 0, "f32", 0, 0, 0, what);
			n_tex++;
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
					}
	printf("tex: mip: %d mipmapped textures, tex.level at %zu levels of detail, tex.grad at %zu gradients\n", n_tex,
	       sizeof lods / sizeof lods[0], (sizeof grads / sizeof grads[0]) * ((sizeof grads / sizeof grads[0] + 1) / 2));
}

/* ---- gathers, fetches, offsets, depth compare, half results ------------------------ */

static void extras(void)
{
	static Q qs[128];
	static const int kinds[] = { K2D, K2DL, KCUBE, KCUBEL };
	static const int fmts[] = { PTXVM_FORMAT_F32, PTXVM_FORMAT_U8, PTXVM_FORMAT_S16, PTXVM_FORMAT_F16,
				    PTXVM_FORMAT_SNORM8, PTXVM_FORMAT_U32 };
	int ngather = 0, nfetch = 0, nother = 0;
	/* tld4: every component, normalized or not, seamless or not */
	for (size_t ki = 0; ki < 4; ki++)
		for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
			for (int am = 0; am < 4; am++)
				for (int comp = 0; comp < 4; comp++) {
		Ref R;
		ref_shape(&R, kinds[ki]);
		R.fmt = fmts[fi];
		R.ch = comp < 2 ? 2 : 4;
		R.es = fmt_size[R.fmt] * R.ch;
		R.addr[0] = am;
		R.addr[1] = (am + 2) % 4;
		R.norm = comp & 1;
		R.seamless = comp >= 2;
		R.readnorm = fi == 1;
		R.border[1] = 3.5f;
		R.border[2] = -0.25f;
		ref_fill(&R);
		char what[160];
		snprintf(what, sizeof what, "tld4.%c on %s %sx%d, address %d%s", "rgba"[comp], kind_name[R.kind],
			 fmt_name[R.fmt], R.ch, am, R.seamless ? ", seamless" : "");
		Dev D;
		case_bad = 0;
		if (ref_make(dv, &R, &D)) {
			CFAIL("tex: %s: texture_create failed: %s", what, ptxvm_device_message(dv));
		} else {
			int n = make_queries(&R, kind_geom[R.kind], 0, qs);
			for (int i = 0; i < n; i++)
				qs[i].gather = comp;
			char op[8];
			snprintf(op, sizeof op, "tld4.%c", "rgba"[comp]);
			run(&R, D.tex, 0, qs, n, op, 0, dtype(&R), 0, 0, 0, what);
			ngather++;
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
				}
	/* texel fetches (.s32 coordinates), with offsets and levels; linear memory is tex1Dfetch */
	static const int fkinds[] = { K1D, K2D, K3D, K1DL, K2DL, KLIN, KPITCH };
	for (size_t ki = 0; ki < sizeof fkinds / sizeof fkinds[0]; ki++)
		for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
			for (int am = 0; am < 4; am++)
				for (int v = 0; v < 3; v++) {
		Ref R;
		ref_shape(&R, fkinds[ki]);
		R.fmt = fmts[fi];
		R.ch = 1 << (am % 3);
		R.es = fmt_size[R.fmt] * R.ch;
		R.addr[0] = R.addr[1] = R.addr[2] = am;
		R.norm = v == 2;
		R.readnorm = (am & 1) && small_int(R.fmt);
		R.border[0] = 9.0f;
		if (v == 1 && R.kind != KLIN && R.kind != KPITCH)
			ref_mip_shape(&R, R.kind, 3);
		ref_fill(&R);
		char what[160];
		snprintf(what, sizeof what, "texel fetch on %s %sx%d, address %d, variant %d", kind_name[R.kind],
			 fmt_name[R.fmt], R.ch, am, v);
		Dev D;
		case_bad = 0;
		if (ref_make(dv, &R, &D)) {
			CFAIL("tex: %s: texture_create failed: %s", what, ptxvm_device_message(dv));
		} else {
			int g = kind_geom[R.kind], n = make_queries(&R, g, 1, qs);
			for (int i = 0; i < n; i++) {
				qs[i].has_off = v >= 1;
				for (int k = 0; k < 3; k++)
					qs[i].off[k] = v >= 1 ? (int)(tm_rnd() % 16) - 8 : 0;
				qs[i].mip = v == 1 ? 1 : 0;
				qs[i].lod = (uint32_t)((int)(i % 6) - 1);
			}
			run(&R, D.tex, 0, qs, n, "tex", v == 1 ? 1 : 0, dtype(&R), v >= 1, 0, 0, what);
			nfetch++;
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
				}
	/* float coordinates with offsets, depth compare, the predicate, half results, sRGB */
	static const int okinds[] = { K1D, K2D, K3D, K1DL, K2DL, KCUBE, KCUBEL };
	static const char *const dts[] = { "f32", "f16", "f16x2" };
	for (size_t ki = 0; ki < sizeof okinds / sizeof okinds[0]; ki++)
		for (int am = 0; am < 4; am++)
			for (int v = 0; v < 6; v++) {
		Ref R;
		ref_shape(&R, okinds[ki]);
		R.fmt = v == 5 ? PTXVM_FORMAT_UNORM8 : v == 4 ? PTXVM_FORMAT_U8 : v & 1 ? PTXVM_FORMAT_F16 : PTXVM_FORMAT_F32;
		R.ch = v >= 4 ? 4 : 1 + (v & 1);
		R.es = fmt_size[R.fmt] * R.ch;
		R.addr[0] = R.addr[1] = R.addr[2] = am;
		R.filter = v != 3;
		R.norm = v & 1;
		R.readnorm = 1;
		R.srgb = v >= 4;
		R.border[0] = 0.75f;
		ref_fill(&R);
		int cube = R.kind == KCUBE || R.kind == KCUBEL;
		int off = !cube && v < 4, depth = v == 2 || v == 3, pred = v & 1;
		const char *dt = dts[v % 3];
		char what[160];
		snprintf(what, sizeof what, "%s %sx%d, address %d, %s%s%s%s%s", kind_name[R.kind], fmt_name[R.fmt], R.ch, am,
			 dt, off ? ", offsets" : "", depth ? ", depth compare" : "", pred ? ", |p" : "",
			 R.srgb ? ", sRGB" : "");
		Dev D;
		case_bad = 0;
		if (ref_make(dv, &R, &D)) {
			CFAIL("tex: %s: texture_create failed: %s", what, ptxvm_device_message(dv));
		} else {
			int n = make_queries(&R, kind_geom[R.kind], 0, qs);
			for (int i = 0; i < n; i++) {
				qs[i].has_off = off;
				qs[i].has_depth = depth;
				qs[i].depth = bitsf(i % 5 ? nice_f32() / 64 : 0);
				for (int k = 0; k < 3; k++)
					qs[i].off[k] = off ? (int)(tm_rnd() % 16) - 8 : 0;
			}
			run(&R, D.tex, 0, qs, n, "tex", 0, dt, off, depth, pred, what);
			nother++;
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
			}
	/* half results of integer texels: their bits as an f32, rounded */
	for (int v = 0; v < 4; v++) {
		Ref R;
		ref_shape(&R, K2D);
		R.fmt = v & 1 ? PTXVM_FORMAT_S16 : PTXVM_FORMAT_U32;
		R.ch = 4;
		R.es = fmt_size[R.fmt] * R.ch;
		R.addr[0] = R.addr[1] = AB;
		R.border[0] = fbits(0x12345);
		ref_fill(&R);
		const char *dt = v < 2 ? "f16" : "f16x2";
		char what[96];
		snprintf(what, sizeof what, "2D %sx4 integers as %s", fmt_name[R.fmt], dt);
		Dev D;
		case_bad = 0;
		if (ref_make(dv, &R, &D)) {
			CFAIL("tex: %s: texture_create failed: %s", what, ptxvm_device_message(dv));
		} else {
			int n = make_queries(&R, kind_geom[R.kind], 0, qs);
			run(&R, D.tex, 0, qs, n, "tex", 0, dt, 0, 0, 0, what);
			nother++;
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
	}
	printf("tex: extras: %d gathers, %d texel-fetch textures, %d offset/depth/half/sRGB textures\n", ngather, nfetch,
	       nother);
}

/* The filter's fixed-point sum: f32 and f16 texels of exponents far
 * apart (24-bit random significands, 2^-40 .. 2^40; f16 over its whole
 * range), so that the bits below the largest texel's are cut as the
 * hardware cuts them; 2D, 3D and mipmapped, clamp and border. */
static void wide(void)
{
	static Q qs[128];
	int nwide = 0;
	for (int v = 0; v < 8; v++) {
		Ref R;
		int kind = v % 4 == 0 ? K2D : v % 4 == 1 ? K3D : v % 4 == 2 ? K2DL : K2D;
		ref_shape(&R, kind);
		if (v % 4 == 3)
			ref_mip_shape(&R, K2D, 3);
		R.fmt = v < 4 ? PTXVM_FORMAT_F32 : PTXVM_FORMAT_F16;
		R.ch = v & 1 ? 2 : 1;
		R.es = fmt_size[R.fmt] * R.ch;
		R.addr[0] = R.addr[1] = R.addr[2] = v & 2 ? AB : AC;
		R.filter = R.mipfilter = 1;
		R.norm = v % 4 == 3;
		R.maxlod = 8;
		R.border[0] = -3.0e-5f, R.border[1] = 7.5e6f;
		for (int l = 0; l < R.nl; l++) {
			size_t rows = (size_t)R.h[l] * R.d[l] * R.layers;
			R.pitch[l] = (size_t)R.w[l] * R.es;
			R.lv[l] = calloc(rows * R.pitch[l] + 1, 1);
			for (size_t i = 0; i < rows * (size_t)R.w[l] * R.ch; i++) {
				if (R.fmt == PTXVM_FORMAT_F32) {
					uint32_t b = (tm_rnd() & 0x807fffffu) | (uint32_t)(127 - 40 + tm_rnd() % 81) << 23;
					memcpy(R.lv[l] + 4 * i, &b, 4);
				} else {
					uint16_t h = (uint16_t)(tm_rnd() % 0x7c00 | (tm_rnd() & 0x8000));
					memcpy(R.lv[l] + 2 * i, &h, 2);
				}
			}
		}
		char what[96];
		snprintf(what, sizeof what, "wide %s %sx%d, %s", kind_name[kind], fmt_name[R.fmt], R.ch,
			 v & 2 ? "border" : "clamp");
		Dev D;
		case_bad = 0;
		if (ref_make(dv, &R, &D)) {
			CFAIL("tex: %s: texture_create failed: %s", what, ptxvm_device_message(dv));
		} else {
			int n = make_queries(&R, kind_geom[kind], 0, qs);
			if (R.nl > 1)
				for (int i = 0; i < n; i++) {
					qs[i].mip = 1;
					qs[i].lod = bitsf((float)(i % 9) * 0.21f);
				}
			run(&R, D.tex, 0, qs, n, "tex", R.nl > 1, "f32", 0, 0, 0, what);
			nwide++;
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
	}
	printf("tex: wide: %d textures of texels far apart\n", nwide);
}

/* Point-sampled special f32 and f16 texels (NaN, infinities, subnormals,
 * -0) come back as they are. */
static void specials(void)
{
	static const uint32_t f32s[] = { 0x7fc00001u, 0xff800000u, 0x7f800000u, 0x00000001u, 0x80000000u, 0x7f7fffffu,
					 0x807fffffu, 0x3f800000u };
	static const uint16_t f16s[] = { 0x7e01, 0xfc00, 0x7c00, 0x0001, 0x8000, 0x7bff, 0x83ff, 0x3c00 };
	for (int half = 0; half < 2; half++) {
		Ref R;
		ref_shape(&R, K1D);
		R.w[0] = 8;
		R.fmt = half ? PTXVM_FORMAT_F16 : PTXVM_FORMAT_F32;
		R.ch = 1;
		R.es = fmt_size[R.fmt];
		R.pitch[0] = (size_t)R.w[0] * R.es;
		R.lv[0] = malloc(R.pitch[0]);
		for (int i = 0; i < 8; i++)
			if (half)
				memcpy(R.lv[0] + 2 * i, &f16s[i], 2);
			else
				memcpy(R.lv[0] + 4 * i, &f32s[i], 4);
		Dev D;
		case_bad = 0;
		if (ref_make(dv, &R, &D)) {
			CFAIL("tex: special texels: texture_create failed: %s", ptxvm_device_message(dv));
		} else {
			Q qs[8];
			memset(qs, 0, sizeof qs);
			for (int i = 0; i < 8; i++) {
				qs[i].gather = -1;
				qs[i].c[0] = bitsf((float)i + 0.5f);
			}
			run(&R, D.tex, 0, qs, 8, "tex", 0, "f32", 0, 0, 0, half ? "special f16 texels" : "special f32 texels");
		}
		ref_unmake(dv, &D);
		ref_free(&R);
		if (!case_bad)
			passed++;
	}
}

/* ---- the interface: txq, istypep, refusals, copies, references ----------------------- */

static ptxvm_program *load_tex(const char *name, const char *ptx)
{
	char why[1024];
	ptxvm_program *p = load_ptx(dv, name, ptx, why, sizeof why);
	if (!p)
		fail("tex: %s", why);
	return p;
}

/* Launches kernel k of p on one thread with the given arguments; the
 * result code. */
static ptxvm_result launch1(ptxvm_program *p, const char *k, void **args)
{
	ptxvm_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, { 0, 0, 0 } };
	return ptxvm_launch(dv, ptxvm_kernel_find(p, k), &cfg, args, NULL);
}

#define CHECK(cond, ...) do { if (cond) passed++; else fail(__VA_ARGS__); } while (0)

static const char txq_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry q(.param .u64 t, .param .u64 out, .param .u32 lvl)\n{\n"
	".reg .b32 %r<20>; .reg .b64 %rd<4>; .reg .pred %p<5>;\n"
	"ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out]; ld.param.u32 %r19, [lvl];\n"
	"txq.width.b32 %r1, [%rd1]; txq.height.b32 %r2, [%rd1]; txq.depth.b32 %r3, [%rd1];\n"
	"txq.channel_data_type.b32 %r4, [%rd1]; txq.channel_order.b32 %r5, [%rd1];\n"
	"txq.normalized_coords.b32 %r6, [%rd1]; txq.filter_mode.b32 %r7, [%rd1];\n"
	"txq.addr_mode_0.b32 %r8, [%rd1]; txq.addr_mode_1.b32 %r9, [%rd1]; txq.addr_mode_2.b32 %r10, [%rd1];\n"
	"txq.array_size.b32 %r11, [%rd1]; txq.num_mipmap_levels.b32 %r12, [%rd1]; txq.num_samples.b32 %r13, [%rd1];\n"
	"txq.level.width.b32 %r14, [%rd1], %r19; txq.level.height.b32 %r15, [%rd1], %r19;\n"
	"txq.level.depth.b32 %r16, [%rd1], %r19; txq.force_unnormalized_coords.b32 %r17, [%rd1];\n"
	"istypep.texref %p1, %rd1; istypep.samplerref %p2, %rd1; istypep.surfref %p3, %rd1;\n"
	"selp.u32 %r18, 1, 0, %p1; selp.u32 %r0, 2, 0, %p2; or.b32 %r18, %r18, %r0; selp.u32 %r0, 4, 0, %p3;\n"
	"or.b32 %r18, %r18, %r0;\n"
	"st.global.v4.b32 [%rd2], {%r1, %r2, %r3, %r4}; st.global.v4.b32 [%rd2+16], {%r5, %r6, %r7, %r8};\n"
	"st.global.v4.b32 [%rd2+32], {%r9, %r10, %r11, %r12}; st.global.v4.b32 [%rd2+48], {%r13, %r14, %r15, %r16};\n"
	"st.global.v2.b32 [%rd2+64], {%r17, %r18};\n"
	"ret;\n}\n"
	".visible .entry is(.param .u64 h, .param .u64 out)\n{\n"
	".reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<4>;\n"
	"ld.param.u64 %rd1, [h]; ld.param.u64 %rd2, [out];\n"
	"istypep.texref %p1, %rd1; istypep.samplerref %p2, %rd1; istypep.surfref %p3, %rd1;\n"
	"selp.u32 %r1, 1, 0, %p1; selp.u32 %r2, 2, 0, %p2; or.b32 %r1, %r1, %r2; selp.u32 %r2, 4, 0, %p3;\n"
	"or.b32 %r1, %r1, %r2; st.global.u32 [%rd2], %r1;\n"
	"ret;\n}\n"
	".visible .entry g3(.param .u64 t, .param .u64 out)\n{\n"
	".reg .f32 %f<8>; .reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out]; mov.f32 %f1, 0f3F000000;\n"
	"tex.3d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1, %f1, %f1, %f1}];\n"
	"st.global.f32 [%rd2], %f2;\n"
	"ret;\n}\n";

/* txq and istypep on every kind of texture, and what the launch says of
 * a bad handle, a destroyed array, freed memory and a wrong geometry. */
static void queries(void)
{
	ptxvm_program *p = load_tex("txq", txq_ptx);
	if (!p)
		return;
	uint64_t out;
	ptxvm_mem_alloc(dv, 128, &out);
	for (int kind = 0; kind < NKIND; kind++) {
		Ref R;
		ref_shape(&R, kind);
		R.fmt = kind == KLIN ? PTXVM_FORMAT_S16 : PTXVM_FORMAT_U8;
		R.ch = kind == KPITCH ? 2 : 4;
		R.es = fmt_size[R.fmt] * R.ch;
		R.readnorm = kind & 1;
		R.norm = 1;
		R.addr[0] = AW;
		R.addr[1] = AM;
		R.addr[2] = AB;
		R.filter = R.readnorm;
		if (kind == K2D || kind == KCUBEL)
			ref_mip_shape(&R, kind, 3);
		ref_fill(&R);
		Dev D;
		if (ref_make(dv, &R, &D)) {
			fail("tex: txq on %s: texture_create: %s", kind_name[kind], ptxvm_device_message(dv));
			ref_free(&R);
			continue;
		}
		uint32_t lvl = R.nl > 1 ? 2 : 0, got[18];
		void *args[] = { &D.tex, &out, &lvl };
		ptxvm_result r = launch1(p, "q", args);
		ptxvm_memcpy_dtoh(dv, got, out, sizeof got);
		int layered = kind == K1DL || kind == K2DL || kind == KCUBEL, lin = kind == KLIN;
		int normf = R.readnorm && small_int(R.fmt);
		uint32_t cdt = R.fmt == PTXVM_FORMAT_U8 ? (normf ? 0x10D2 : 0x10DA) : (normf ? 0x10D1 : 0x10D8);
		uint32_t want[18] = {
			(uint32_t)R.w[0], (uint32_t)R.h[0], (uint32_t)R.d[0], cdt, R.ch == 4 ? 0x10B5u : 0x10B2u,
			lin ? 0 : 1, lin ? 0 : (uint32_t)R.filter,
			lin ? 4 : 0, lin ? 4 : 1, 4,      /* wrap, mirror, clamp_to_border in PTX's enumeration */
			layered ? (uint32_t)(kind == KCUBEL ? R.layers / 6 : R.layers) : 0, (uint32_t)R.nl, 0,
			(uint32_t)R.w[lvl], (uint32_t)R.h[lvl], (uint32_t)R.d[lvl], 0, 1 };
		int same = !r;
		for (int i = 0; i < 18; i++)
			same &= got[i] == want[i];
		CHECK(same, "tex: txq on %s: got %u %u %u %x %x %u %u %u %u %u %u %u %u %u %u %u %u %u (%s)", kind_name[kind],
		      got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7], got[8], got[9], got[10], got[11],
		      got[12], got[13], got[14], got[15], got[16], got[17], ptxvm_device_message(dv));
		/* a texture of the wrong geometry, then one whose resource is gone */
		if (kind != K3D) {
			void *a2[] = { &D.tex, &out };
			r = launch1(p, "g3", a2);
			CHECK(r == PTXVM_ERROR_LAUNCH_FAILED && strstr(ptxvm_device_message(dv), "not 3D"),
			      "tex: tex.3d on a %s texture: %d %s", kind_name[kind], r, ptxvm_device_message(dv));
		}
		uint64_t t = D.tex;
		D.tex = 0;
		if (D.arr) {
			ptxvm_array_destroy(dv, D.arr);
			D.arr = 0;
		} else if (D.mip) {
			ptxvm_mipmapped_array_destroy(dv, D.mip);
			D.mip = 0;
		} else {
			ptxvm_mem_free(dv, D.dptr);
			D.dptr = 0;
		}
		void *targs[] = { &t, &out, &lvl };
		r = launch1(p, "q", targs);
		CHECK(r == PTXVM_ERROR_ILLEGAL_ADDRESS && (strstr(ptxvm_device_message(dv), "destroyed") ||
							   strstr(ptxvm_device_message(dv), "no longer allocated")),
		      "tex: txq on a %s texture whose resource is gone: %d %s", kind_name[kind], r, ptxvm_device_message(dv));
		ptxvm_texture_destroy(dv, t);
		ref_unmake(dv, &D);
		ref_free(&R);
	}
	/* istypep on objects of each type and on other numbers */
	uint64_t arr, surf, smp, tex;
	ptxvm_array_desc ad = { PTXVM_ARRAY_1D, PTXVM_FORMAT_F32, 1, 4, 0, 0, 0 };
	ptxvm_texture_desc td;
	memset(&td, 0, sizeof td);
	ptxvm_array_create(dv, &ad, &arr);
	ptxvm_surface_create(dv, arr, &surf);
	ptxvm_sampler_create(dv, &td, &smp);
	ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY, .array = arr };
	ptxvm_texture_create(dv, &rd, &td, &tex);
	uint64_t hs[] = { tex, smp, surf, arr, 0, 12345, out };
	uint32_t want[] = { 1, 2, 4, 0, 0, 0, 0 };
	for (int i = 0; i < 7; i++) {
		void *args[] = { &hs[i], &out };
		uint32_t got = 99;
		ptxvm_result r = launch1(p, "is", args);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == want[i], "tex: istypep of handle %d: %u, want %u (%s)", i, got, want[i],
		      ptxvm_device_message(dv));
	}
	/* txq on a sampler object or on nothing fails the launch */
	uint32_t lvl = 0;
	void *args[] = { &smp, &out, &lvl };
	ptxvm_result r = launch1(p, "q", args);
	CHECK(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(dv), "not a texture object"),
	      "tex: txq on a sampler object: %d %s", r, ptxvm_device_message(dv));
	ptxvm_texture_destroy(dv, tex);
	ptxvm_sampler_destroy(dv, smp);
	ptxvm_surface_destroy(dv, surf);
	ptxvm_array_destroy(dv, arr);
	ptxvm_mem_free(dv, out);
	ptxvm_program_unload(p);
}

/* Descriptions CUDA refuses, and wrong handles. */
static void refusals(void)
{
	uint64_t arr, arr32, mem, h;
	ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_U8, 4, 8, 8, 0, 0 };
	ptxvm_array_create(dv, &ad, &arr);
	ad.format = PTXVM_FORMAT_S32;
	ptxvm_array_create(dv, &ad, &arr32);
	ptxvm_mem_alloc(dv, 4096, &mem);
	ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY, .array = arr };
	ptxvm_texture_desc td;
	struct R { ptxvm_resource_desc r; ptxvm_texture_desc t; const char *msg; } rs[16];
	int n = 0;
	memset(rs, 0, sizeof rs);
	/* linear filtering of integers */
	rs[n].r = rd; rs[n].t.filter_mode = PTXVM_FILTER_LINEAR; rs[n++].msg = "linear filtering";
	/* 32-bit integers read as normalized floats */
	rs[n].r = rd; rs[n].r.array = arr32; rs[n].t.read_mode = PTXVM_READ_NORMALIZED_FLOAT; rs[n++].msg = "32-bit";
	/* sRGB of texels not read as float */
	rs[n].r = rd; rs[n].t.srgb = 1; rs[n++].msg = "sRGB";
	/* enumerations out of range */
	rs[n].r = rd; rs[n].t.address_mode[1] = (ptxvm_address_mode)7; rs[n++].msg = "address mode";
	rs[n].r = rd; rs[n].t.filter_mode = (ptxvm_filter_mode)2; rs[n++].msg = "filter mode";
	rs[n].r = rd; rs[n].t.max_anisotropy = 17; rs[n++].msg = "max_anisotropy";
	rs[n].r = rd; rs[n].t.read_mode = (ptxvm_read_mode)3; rs[n++].msg = "read mode";
	rs[n].r = rd; rs[n].r.type = (ptxvm_resource_type)9; rs[n++].msg = "resource type";
	rs[n].r = rd; rs[n].r.array = 42; rs[n++].msg = "not an array";
	/* device memory */
	ptxvm_resource_desc lin = { .type = PTXVM_RESOURCE_LINEAR, .dptr = mem, .format = PTXVM_FORMAT_F32, .channels = 1,
				    .bytes = 8192 };
	rs[n].r = lin; rs[n++].msg = "not inside one";
	lin.bytes = 16;
	lin.dptr = mem + 2;
	rs[n].r = lin; rs[n++].msg = "aligned";
	lin.dptr = mem;
	lin.channels = 3;
	rs[n].r = lin; rs[n++].msg = "channels";
	ptxvm_resource_desc pit = { .type = PTXVM_RESOURCE_PITCH2D, .dptr = mem, .format = PTXVM_FORMAT_F32, .channels = 1,
				    .width = 10, .height = 4, .pitch = 48 };
	rs[n].r = pit; rs[n++].msg = "multiple of 32";
	pit.pitch = 32;
	rs[n].r = pit; rs[n++].msg = "at least";
	pit.pitch = 1024;
	pit.height = 8;
	rs[n].r = pit; rs[n++].msg = "not inside one";
	for (int i = 0; i < n; i++) {
		ptxvm_result r = ptxvm_texture_create(dv, &rs[i].r, &rs[i].t, &h);
		CHECK((r == PTXVM_ERROR_INVALID_VALUE || r == PTXVM_ERROR_INVALID_HANDLE) &&
		      strstr(ptxvm_device_message(dv), rs[i].msg),
		      "tex: refusal %d: %d %s (want '%s')", i, r, ptxvm_device_message(dv), rs[i].msg);
	}
	memset(&td, 0, sizeof td);
	CHECK(ptxvm_texture_create(dv, NULL, &td, &h) == PTXVM_ERROR_INVALID_VALUE, "tex: NULL resource accepted");
	/* mipmapped arrays: level counts, levels of nothing */
	ptxvm_array_desc md = { PTXVM_ARRAY_2D, PTXVM_FORMAT_F32, 1, 16, 5, 0, 0 };
	uint64_t mm, lv;
	CHECK(ptxvm_mipmapped_array_create(dv, &md, 6, &mm) == PTXVM_ERROR_INVALID_VALUE &&
	      strstr(ptxvm_device_message(dv), "1 to 5 levels"), "tex: 6 levels of 16x5: %s", ptxvm_device_message(dv));
	CHECK(ptxvm_mipmapped_array_create(dv, &md, 0, &mm) == PTXVM_ERROR_INVALID_VALUE, "tex: 0 levels accepted");
	if (ptxvm_mipmapped_array_create(dv, &md, 5, &mm)) {
		fail("tex: 5 levels of 16x5: %s", ptxvm_device_message(dv));
	} else {
		uint32_t sizes[5][2] = { { 16, 5 }, { 8, 2 }, { 4, 1 }, { 2, 1 }, { 1, 1 } };
		for (unsigned l = 0; l < 5; l++) {
			ptxvm_mipmapped_array_level(dv, mm, l, &lv);
			CHECK(ptxvm_array_bytes(dv, lv) == 4u * sizes[l][0] * sizes[l][1], "tex: level %u holds %zu bytes", l,
			      ptxvm_array_bytes(dv, lv));
		}
		CHECK(ptxvm_mipmapped_array_level(dv, mm, 5, &lv) == PTXVM_ERROR_INVALID_VALUE, "tex: level 5 of 5");
		CHECK(ptxvm_array_destroy(dv, lv) == PTXVM_ERROR_INVALID_HANDLE, "tex: a level destroyed by itself");
		CHECK(ptxvm_mipmapped_array_destroy(dv, mm) == PTXVM_SUCCESS, "tex: mipmapped_array_destroy");
		CHECK(ptxvm_array_bytes(dv, lv) == 0, "tex: a level outlived its chain");
		CHECK(ptxvm_mipmapped_array_destroy(dv, mm) == PTXVM_ERROR_INVALID_HANDLE, "tex: destroyed twice");
	}
	/* destroying the wrong kind of object */
	uint64_t smp;
	ptxvm_sampler_create(dv, &td, &smp);
	ptxvm_texture_create(dv, &rd, &td, &h);
	CHECK(ptxvm_texture_destroy(dv, smp) == PTXVM_ERROR_INVALID_HANDLE, "tex: texture_destroy of a sampler");
	CHECK(ptxvm_sampler_destroy(dv, h) == PTXVM_ERROR_INVALID_HANDLE, "tex: sampler_destroy of a texture");
	CHECK(ptxvm_texture_destroy(dv, h) == PTXVM_SUCCESS && ptxvm_texture_destroy(dv, h) == PTXVM_ERROR_INVALID_HANDLE,
	      "tex: texture_destroy twice");
	ptxvm_sampler_destroy(dv, smp);
	ptxvm_array_destroy(dv, arr);
	ptxvm_array_destroy(dv, arr32);
	ptxvm_mem_free(dv, mem);
}

/* Region copies between host, device memory and arrays, against a host
 * model of every side. */
static void copies(void)
{
	/* a 3D array of 6 x 5 x 4 two-byte elements, a host box and a device box */
	ptxvm_array_desc ad = { PTXVM_ARRAY_3D, PTXVM_FORMAT_U16, 1, 6, 5, 4, 0 };
	uint64_t a, b, dm;
	ptxvm_array_create(dv, &ad, &a);
	ad.kind = PTXVM_ARRAY_2D_LAYERED;
	ad.depth = 0;
	ad.layers = 4;
	ptxvm_array_create(dv, &ad, &b);
	enum { NA = 6 * 5 * 4 * 2, HP = 20, HH = 7, HD = 5 };
	uint8_t am[NA], bm[NA], hm[HP * HH * HD], dmm[HP * HH * HD], got[NA];
	for (int i = 0; i < NA; i++)
		am[i] = (uint8_t)tm_rnd(), bm[i] = (uint8_t)tm_rnd();
	for (int i = 0; i < HP * HH * HD; i++)
		hm[i] = (uint8_t)tm_rnd(), dmm[i] = (uint8_t)tm_rnd();
	ptxvm_array_write(dv, a, am, NA);
	ptxvm_array_write(dv, b, bm, NA);
	ptxvm_mem_alloc(dv, sizeof dmm, &dm);
	ptxvm_memcpy_htod(dv, dm, dmm, sizeof dmm);
	/* the model: copy a box between byte images of given pitch and height */
#define BOX(dst, dp, dh, dx, dy, dz, src, sp, sh, sx, sy, sz, W, H, D) \
	for (size_t k_ = 0; k_ < (D); k_++) for (size_t r_ = 0; r_ < (H); r_++) \
		memmove((dst) + ((dz) + k_) * (dp) * (dh) + ((dy) + r_) * (dp) + (dx), \
			(src) + ((sz) + k_) * (sp) * (sh) + ((sy) + r_) * (sp) + (sx), (W))
	int steps = 0, ok = 1;
	for (int step = 0; step < 60; step++) {
		ptxvm_copy3d c;
		memset(&c, 0, sizeof c);
		int st = (int)(tm_rnd() % 3) + 1, dt = (int)(tm_rnd() % 3) + 1;
		int arr_b = tm_rnd() & 1;          /* which array an array side is */
		uint8_t *sm = st == 1 ? hm : st == 2 ? dmm : arr_b ? bm : am;
		uint8_t *tm = dt == 1 ? hm : dt == 2 ? dmm : (tm_rnd() & 1 ? bm : am);
		size_t sp = st == 3 ? 12 : HP, sh = st == 3 ? 5 : HH, tp = dt == 3 ? 12 : HP, th = dt == 3 ? 5 : HH;
		size_t sdep = st == 3 ? 4 : HD, tdep = dt == 3 ? 4 : HD;
		size_t W = 2 * (1 + tm_rnd() % 5), H = 1 + tm_rnd() % 4, D = 1 + tm_rnd() % 3;
		size_t sx = 2 * (tm_rnd() % ((sp - W) / 2 + 1)), sy = tm_rnd() % (sh - H + 1), sz = tm_rnd() % (sdep - D + 1);
		size_t tx = 2 * (tm_rnd() % ((tp - W) / 2 + 1)), ty = tm_rnd() % (th - H + 1), tz = tm_rnd() % (tdep - D + 1);
		c.src_type = (ptxvm_memory_type)st;
		c.src_host = hm;
		c.src_device = dm;
		c.src_array = sm == bm ? b : a;
		c.src_pitch = sp;
		c.src_height = sh;
		c.src_x_bytes = sx, c.src_y = sy, c.src_z = sz;
		c.dst_type = (ptxvm_memory_type)dt;
		c.dst_host = hm;
		c.dst_device = dm;
		c.dst_array = tm == bm ? b : a;
		c.dst_pitch = tp;
		c.dst_height = th;
		c.dst_x_bytes = tx, c.dst_y = ty, c.dst_z = tz;
		c.width_bytes = W, c.height = H, c.depth = D;
		uint8_t tmp[HP * HH * HD];
		size_t sbytes = st == 3 ? NA : sizeof hm;
		memcpy(tmp, sm, sbytes);
		BOX(tm, tp, th, tx, ty, tz, tmp, sp, sh, sx, sy, sz, W, H, D);
		ptxvm_result r = ptxvm_memcpy3d(dv, &c);
		if (r) {
			fail("tex: copy step %d (%d to %d): %s", step, st, dt, ptxvm_device_message(dv));
			ok = 0;
			break;
		}
		steps++;
	}
	ptxvm_array_read(dv, a, got, NA);
	ok &= !memcmp(got, am, NA);
	ptxvm_array_read(dv, b, got, NA);
	ok &= !memcmp(got, bm, NA);
	uint8_t dgot[sizeof dmm];
	ptxvm_memcpy_dtoh(dv, dgot, dm, sizeof dmm);
	ok &= !memcmp(dgot, dmm, sizeof dmm);
	CHECK(ok, "tex: %d region copies leave the arrays or device memory unlike the model", steps);
	/* refusals */
	ptxvm_copy3d c;
	memset(&c, 0, sizeof c);
	c.src_type = PTXVM_MEMORY_HOST;
	c.src_host = hm;
	c.src_pitch = HP;
	c.dst_type = PTXVM_MEMORY_ARRAY;
	c.dst_array = a;
	c.width_bytes = 4, c.height = 2, c.depth = 1;
	c.dst_x_bytes = 1;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(dv), "whole elements"),
	      "tex: copy to x = 1 byte of 2-byte elements: %s", ptxvm_device_message(dv));
	c.dst_x_bytes = 10;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(dv), "does not fit"),
	      "tex: copy past the row: %s", ptxvm_device_message(dv));
	c.dst_x_bytes = 0;
	c.dst_z = 4;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_VALUE, "tex: copy past the last slice");
	c.dst_z = 0;
	c.src_pitch = 2;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(dv), "pitch"),
	      "tex: copy with a pitch shorter than the row: %s", ptxvm_device_message(dv));
	c.src_pitch = HP;
	c.src_type = PTXVM_MEMORY_DEVICE;
	c.src_device = dm + sizeof dmm - 8;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(dv), "device allocation"),
	      "tex: copy from past an allocation: %s", ptxvm_device_message(dv));
	c.src_type = (ptxvm_memory_type)7;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_VALUE, "tex: copy from memory type 7");
	c.src_type = PTXVM_MEMORY_HOST;
	c.src_host = NULL;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_VALUE, "tex: copy from a NULL host pointer");
	c.dst_array = 77;
	c.src_host = hm;
	CHECK(ptxvm_memcpy3d(dv, &c) == PTXVM_ERROR_INVALID_HANDLE, "tex: copy to a non-array");
	ptxvm_array_destroy(dv, a);
	ptxvm_array_destroy(dv, b);
	ptxvm_mem_free(dv, dm);
}

/* Module-scope .texref and .samplerref: static initializers, binding,
 * .param .texref, indirect access, independent mode. */
static const char ref_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".global .texref plain;\n"
	".global .texref fixed = { width = 33, height = 7, channel_data_type = 0x10DE, channel_order = 0x10B0, "
	"filter_mode = linear, addr_mode_0 = clamp_to_border, normalized_coords = 0, num_mipmap_levels = 1 };\n"
	".visible .entry look(.param .u64 out, .param .f32 x, .param .u32 which)\n{\n"
	".reg .f32 %f<8>; .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [out]; ld.param.f32 %f1, [x]; ld.param.u32 %r1, [which]; mov.f32 %f2, 0f3F000000;\n"
	"setp.eq.u32 %p1, %r1, 0;\n"
	"@%p1 tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [plain, {%f1, %f2}];\n"
	"@!%p1 tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [fixed, {%f1, %f2}];\n"
	"st.global.f32 [%rd1], %f3;\n"
	"ret;\n}\n"
	".visible .entry ind(.param .u64 out, .param .f32 x)\n{\n"
	".reg .f32 %f<8>; .reg .b64 %rd<4>; .reg .b32 %r<4>; .reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [out]; ld.param.f32 %f1, [x]; mov.f32 %f2, 0f3F000000;\n"
	"mov.u64 %rd2, fixed;\n"
	"tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%f1, %f2}];\n"
	"istypep.texref %p1, %rd2; selp.u32 %r1, 1, 0, %p1;\n"
	"st.global.f32 [%rd1], %f3; st.global.u32 [%rd1+4], %r1;\n"
	"ret;\n}\n"
	".visible .entry desc(.param .u64 out)\n{\n"
	".reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\n"
	"txq.width.b32 %r1, [fixed]; txq.height.b32 %r2, [fixed]; txq.channel_data_type.b32 %r3, [fixed];\n"
	"txq.filter_mode.b32 %r4, [fixed]; txq.addr_mode_0.b32 %r5, [fixed]; txq.num_mipmap_levels.b32 %r6, [fixed];\n"
	"st.global.v4.b32 [%rd1], {%r1, %r2, %r3, %r4}; st.global.v2.b32 [%rd1+16], {%r5, %r6};\n"
	"ret;\n}\n"
	".visible .entry par(.param .texref t, .param .u64 out, .param .f32 x)\n{\n"
	".reg .f32 %f<8>; .reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out]; ld.param.f32 %f1, [x]; mov.f32 %f2, 0f3F000000;\n"
	"tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [t, {%f1, %f2}];\n"
	"st.global.f32 [%rd1], %f3;\n"
	"ret;\n}\n";

static const char indep_ptx[] =
	".version 8.0\n.target sm_90, texmode_independent\n.address_size 64\n"
	".global .texref img = { normalized_coords = 1 };\n"
	".global .samplerref smp = { addr_mode_0 = wrap, addr_mode_1 = clamp_to_edge, filter_mode = linear };\n"
	".global .samplerref unnorm = { force_unnormalized_coords = 1, filter_mode = nearest };\n"
	".visible .entry look(.param .u64 out, .param .f32 x, .param .u32 which)\n{\n"
	".reg .f32 %f<8>; .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [out]; ld.param.f32 %f1, [x]; ld.param.u32 %r1, [which]; mov.f32 %f2, 0f3F000000;\n"
	"setp.eq.u32 %p1, %r1, 0;\n"
	"@%p1 tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [img, smp, {%f1, %f2}];\n"
	"@!%p1 tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [img, unnorm, {%f1, %f2}];\n"
	"txq.addr_mode_0.b32 %r2, [smp]; txq.force_unnormalized_coords.b32 %r3, [unnorm];\n"
	"txq.filter_mode.b32 %r4, [smp]; txq.normalized_coords.b32 %r5, [img];\n"
	"st.global.f32 [%rd1], %f3; st.global.v4.b32 [%rd1+16], {%r2, %r3, %r4, %r5};\n"
	"ret;\n}\n"
	".visible .entry par(.param .texref t, .param .samplerref s, .param .u64 out, .param .f32 x)\n{\n"
	".reg .f32 %f<8>; .reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out]; ld.param.f32 %f1, [x]; mov.f32 %f2, 0f3F000000;\n"
	"tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [t, s, {%f1, %f2}];\n"
	"st.global.f32 [%rd1], %f3;\n"
	"ret;\n}\n";

static void references(void)
{
	/* a 1-row-high 2D f32 texture 0, 10, 20, ... 70 */
	float row[8];
	for (int i = 0; i < 8; i++)
		row[i] = (float)(10 * i);
	ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_F32, 1, 8, 1, 0, 0 };
	uint64_t arr, tex, out, smp;
	ptxvm_array_create(dv, &ad, &arr);
	ptxvm_array_write(dv, arr, row, sizeof row);
	ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY, .array = arr };
	ptxvm_texture_desc td;
	memset(&td, 0, sizeof td);
	td.address_mode[0] = td.address_mode[1] = PTXVM_ADDRESS_CLAMP;
	td.border_color[0] = -5;
	ptxvm_texture_create(dv, &rd, &td, &tex);       /* point, clamp, unnormalized */
	ptxvm_mem_alloc(dv, 64, &out);
	ptxvm_program *p = load_tex("texref", ref_ptx);
	if (p) {
		float x = 1.75f, got = 0;
		uint32_t which = 0, info[6];
		void *args[] = { &out, &x, &which };
		ptxvm_result r = launch1(p, "look", args);
		CHECK(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(dv), "not a texture object"),
		      "tex: an unbound .texref: %d %s", r, ptxvm_device_message(dv));
		which = 1;
		r = launch1(p, "look", args);
		CHECK(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(dv), "static description"),
		      "tex: a .texref with only its initializer: %d %s", r, ptxvm_device_message(dv));
		void *dargs[] = { &out };
		r = launch1(p, "desc", dargs);
		ptxvm_memcpy_dtoh(dv, info, out, sizeof info);
		CHECK(!r && info[0] == 33 && info[1] == 7 && info[2] == 0x10DE && info[3] == 1 && info[4] == 4 && info[5] == 1,
		      "tex: txq of an initializer: %u %u %x %u %u %u (%s)", info[0], info[1], info[2], info[3], info[4],
		      info[5], ptxvm_device_message(dv));
		CHECK(ptxvm_program_bind_texture(p, "plain", tex) == PTXVM_SUCCESS &&
		      ptxvm_program_bind_texture(p, "fixed", tex) == PTXVM_SUCCESS, "tex: bind_texture: %s",
		      ptxvm_device_message(dv));
		/* plain: the object's point sampling; fixed: its initializer's linear filtering and border */
		which = 0;
		r = launch1(p, "look", args);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == 10, "tex: a bound .texref, point: %g (%s)", got, ptxvm_device_message(dv));
		which = 1;
		r = launch1(p, "look", args);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == 12.5f, "tex: a bound .texref with linear filtering from its initializer: %g (%s)", got,
		      ptxvm_device_message(dv));
		x = -1;
		r = launch1(p, "look", args);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == -5, "tex: clamp_to_border from the initializer: %g", got);
		r = launch1(p, "desc", dargs);
		ptxvm_memcpy_dtoh(dv, info, out, sizeof info);
		CHECK(!r && info[0] == 8 && info[1] == 1 && info[2] == 0x10DE && info[3] == 1 && info[4] == 4,
		      "tex: txq of a bound .texref: %u %u %x %u %u", info[0], info[1], info[2], info[3], info[4]);
		/* indirect: the address of the variable */
		x = 2.25f;
		void *iargs[] = { &out, &x };
		uint32_t iv[2];
		r = launch1(p, "ind", iargs);
		ptxvm_memcpy_dtoh(dv, iv, out, 8);
		memcpy(&got, iv, 4);
		CHECK(!r && got == 17.5f && iv[1] == 1, "tex: indirect access through mov.u64: %g %u (%s)", got, iv[1],
		      ptxvm_device_message(dv));
		/* a .param .texref takes a texture object */
		void *pargs[] = { &tex, &out, &x };
		r = launch1(p, "par", pargs);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == 20, "tex: a .param .texref: %g (%s)", got, ptxvm_device_message(dv));
		CHECK(ptxvm_program_bind_texture(p, "nothing", tex) == PTXVM_ERROR_NOT_FOUND, "tex: binding an unknown name");
		ptxvm_sampler_create(dv, &td, &smp);
		CHECK(ptxvm_program_bind_texture(p, "plain", smp) == PTXVM_ERROR_INVALID_HANDLE,
		      "tex: binding a sampler to a .texref");
		CHECK(ptxvm_program_bind_sampler(p, "plain", smp) == PTXVM_ERROR_NOT_FOUND,
		      "tex: binding a .texref as a .samplerref");
		ptxvm_sampler_destroy(dv, smp);
		/* destroying the bound texture */
		uint64_t t2;
		ptxvm_texture_create(dv, &rd, &td, &t2);
		ptxvm_program_bind_texture(p, "fixed", t2);
		ptxvm_texture_destroy(dv, t2);
		r = launch1(p, "look", args);
		CHECK(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(dv), "destroyed"),
		      "tex: a .texref whose texture was destroyed: %d %s", r, ptxvm_device_message(dv));
		ptxvm_program_unload(p);
	}
	/* independent mode */
	p = load_tex("independent", indep_ptx);
	if (p) {
		td.normalized_coords = 1;
		uint64_t t2;
		ptxvm_texture_create(dv, &rd, &td, &t2);
		ptxvm_program_bind_texture(p, "img", t2);
		float x = 1.0f / 16 + 1, got = 0;      /* normalized, wrapped: 1.0625 * 8 = 8.5 -> texel 0 */
		uint32_t which = 0, info[4];
		void *args[] = { &out, &x, &which };
		ptxvm_result r = launch1(p, "look", args);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		ptxvm_memcpy_dtoh(dv, info, out + 16, 16);
		CHECK(!r && got == 0 && info[0] == 0 && info[1] == 1 && info[2] == 1 && info[3] == 1,
		      "tex: independent mode with a static sampler: %g, txq %u %u %u %u (%s)", got, info[0], info[1],
		      info[2], info[3], ptxvm_device_message(dv));
		which = 1;
		x = 3.5f;                       /* forced unnormalized, nearest: texel 3 */
		r = launch1(p, "look", args);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == 30, "tex: force_unnormalized_coords: %g (%s)", got, ptxvm_device_message(dv));
		/* a sampler object bound over the static one: its clamp and point sampling, the
		 * initializer's linear filter still named */
		ptxvm_texture_desc sd;
		memset(&sd, 0, sizeof sd);
		sd.normalized_coords = 1;
		sd.address_mode[0] = PTXVM_ADDRESS_CLAMP;
		ptxvm_sampler_create(dv, &sd, &smp);
		CHECK(ptxvm_program_bind_sampler(p, "smp", smp) == PTXVM_SUCCESS, "tex: bind_sampler: %s",
		      ptxvm_device_message(dv));
		which = 0;
		x = 0.25f;                      /* 2.0: linear between texels 1 and 2 */
		r = launch1(p, "look", args);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == 15, "tex: a bound sampler under the initializer's fields: %g (%s)", got,
		      ptxvm_device_message(dv));
		/* .param .texref and .param .samplerref */
		void *pargs[] = { &t2, &smp, &out, &x };
		r = launch1(p, "par", pargs);
		ptxvm_memcpy_dtoh(dv, &got, out, 4);
		CHECK(!r && got == 20, "tex: .param .texref and .samplerref: %g (%s)", got, ptxvm_device_message(dv));
		void *bargs[] = { &t2, &t2, &out, &x };
		r = launch1(p, "par", bargs);
		CHECK(r == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(dv), "not a sampler object"),
		      "tex: a texture object as the sampler: %d %s", r, ptxvm_device_message(dv));
		ptxvm_sampler_destroy(dv, smp);
		ptxvm_texture_destroy(dv, t2);
		ptxvm_program_unload(p);
	}
	/* a value a field cannot take fails the load, naming it */
	static const char badinit[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
				      ".global .texref t = { filter_mode = wrap };\n"
				      ".visible .entry k()\n{\nret;\n}\n";
	ptxvm_module *m = ptxvm_module_load("bad.ptx", badinit, strlen(badinit), NULL);
	ptxvm_program *bp = NULL;
	ptxvm_result r = ptxvm_program_load(dv, m, &bp);
	CHECK(r == PTXVM_ERROR_NOT_SUPPORTED && strstr(ptxvm_device_message(dv), "bad.ptx:4:") &&
	      strstr(ptxvm_device_message(dv), "nearest or linear"), "tex: filter_mode = wrap: %d %s", r,
	      ptxvm_device_message(dv));
	ptxvm_module_free(m);
	/* multi-sample geometries are refused by name */
	static const char ms[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
				 ".visible .entry k(.param .u64 t)\n{\n.reg .f32 %f<4>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
				 "ld.param.u64 %rd1, [t];\n"
				 "tex.2dms.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd1, {%r0, %r1, %r2, %r3}];\nret;\n}\n";
	p = load_tex("ms", ms);
	if (p) {
		void *args[] = { &tex };
		r = launch1(p, "k", args);
		CHECK(r == PTXVM_ERROR_NOT_SUPPORTED && strstr(ptxvm_device_message(dv), "multi-sample"),
		      "tex: tex.2dms: %d %s", r, ptxvm_device_message(dv));
		ptxvm_program_unload(p);
	}
	ptxvm_texture_destroy(dv, tex);
	ptxvm_array_destroy(dv, arr);
	ptxvm_mem_free(dv, out);
}

void test_tex(const char *root)
{
	(void)root;
	ptxvm_device_opts o = { .workers = 2 };
	dv = ptxvm_device_create(&o);
	matrix();
	mipmaps();
	extras();
	wide();
	specials();
	queries();
	refusals();
	copies();
	references();
	for (int i = 0; i < nkerns; i++)
		ptxvm_program_unload(kerns[i].p);
	nkerns = 0;
	ptxvm_device_destroy(dv);
	printf("tex: %ld lookups compared with the reference, %ld differ\n", lookups, bad_lookups);
}
