/* t_texk.c: the texture kernels of tests/cuda/textures.cu (nvcc's PTX in
 * tests/ptx/textures.ptx) and the module-scope .texref kernels of
 * tests/ptx/texrefs.ptx (written by hand: CUDA 12 removed texture
 * references from the language, and PTX from other front ends still has
 * them), and a kernel made with the module builder, run on textures of
 * pseudo-random texels and compared with the reference model
 * (texmodel.c) and, for the arithmetic around the lookups, with the same
 * f32 operations in C (fmaf where nvcc fused).
 *
 * Each kernel counts one pass, or one fail naming it, the first differing
 * element and both values.
 */
#include "test.h"
#include "texmodel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ptxvm_device *dv;
static ptxvm_program *P, *PR;
static const char *kname;
static int kbad;

#define KFAIL(...) do { if (!kbad++) fail(__VA_ARGS__); } while (0)

static void kb(const char *name)
{
	kname = name;
	kbad = 0;
}

static void ke(void)
{
	if (!kbad)
		passed++;
}

/* A texture of kind (one level, or nl mipmap levels) with the sampling given. */
static void tex_of(Ref *R, Dev *D, int kind, int fmt, int ch, int nl, int filter, int norm, int addr, int readnorm)
{
	ref_shape(R, kind);
	if (nl > 1)
		ref_mip_shape(R, kind, nl);
	R->fmt = fmt;
	R->ch = ch;
	R->es = fmt_size[fmt] * ch;
	R->filter = filter;
	R->mipfilter = filter;
	R->norm = norm;
	R->readnorm = readnorm;
	R->addr[0] = R->addr[1] = R->addr[2] = addr;
	R->maxlod = nl > 1 ? 100 : 0;
	R->aniso = 1;
	ref_fill(R);
	if (ref_make(dv, R, D))
		KFAIL("texk: %s: texture_create: %s", kname, ptxvm_device_message(dv));
}

static void tex_done(Ref *R, Dev *D)
{
	ref_unmake(dv, D);
	ref_free(R);
}

static Q look_q(int geom, float x, float y, float z)
{
	Q q;
	memset(&q, 0, sizeof q);
	q.geom = geom;
	q.gather = -1;
	q.c[0] = bitsf(x);
	q.c[1] = bitsf(y);
	q.c[2] = bitsf(z);
	return q;
}

static float look_f(const Ref *R, Q q, int k)
{
	uint32_t o[4];
	ref_look(R, &q, o);
	return fbits(o[k]);
}

static uint32_t look_u(const Ref *R, Q q, int k)
{
	uint32_t o[4];
	ref_look(R, &q, o);
	return o[k];
}

static uint64_t dalloc(size_t n)
{
	uint64_t p = 0;
	if (ptxvm_mem_alloc(dv, n, &p))
		KFAIL("texk: %s: mem_alloc: %s", kname, ptxvm_device_message(dv));
	return p;
}

static int launch(ptxvm_program *p, const char *k, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
		  unsigned bz, void **args)
{
	ptxvm_launch_config cfg = { { gx, gy, gz }, { bx, by, bz }, 0, { 0, 0, 0 } };
	const ptxvm_kernel *kk = ptxvm_kernel_find(p, k);
	ptxvm_result r = kk ? ptxvm_launch(dv, kk, &cfg, args, NULL) : PTXVM_ERROR_NOT_FOUND;
	if (r)
		KFAIL("texk: %s: launch: %s %s", kname, ptxvm_result_name(r), ptxvm_device_message(dv));
	return r;
}

/* Compares n 32-bit words, floats as bits (any NaN matches a NaN). */
static void cmp(const uint32_t *got, const uint32_t *want, size_t n, int floats)
{
	for (size_t i = 0; i < n; i++) {
		int nan = floats && isnan(fbits(got[i])) && isnan(fbits(want[i]));
		if (got[i] != want[i] && !nan) {
			KFAIL("texk: %s: element %zu: got %08x (%g), want %08x (%g)", kname, i, got[i], fbits(got[i]),
			      want[i], fbits(want[i]));
			return;
		}
	}
}

static void fetch_back(uint64_t d, uint32_t *h, size_t words)
{
	ptxvm_memcpy_dtoh(dv, h, d, words * 4);
}

/* ---- textures.cu ------------------------------------------------------------------ */

static void k_fetch(void)
{
	kb("tex_fetch1d");
	Ref F, I;
	Dev DF, DI;
	int n = 40;
	tex_of(&F, &DF, KLIN, PTXVM_FORMAT_F32, 1, 1, 0, 0, AC, 0);
	tex_of(&I, &DI, KLIN, PTXVM_FORMAT_S32, 1, 1, 0, 0, AC, 0);
	uint64_t of = dalloc(4u * n), oi = dalloc(4u * n);
	void *args[] = { &DF.tex, &DI.tex, &of, &oi, &n };
	uint32_t gf[40], gi[40], wf[40], wi[40];
	if (!launch(P, "tex_fetch1d", 2, 1, 1, 32, 1, 1, args)) {
		fetch_back(of, gf, 40);
		fetch_back(oi, gi, 40);
		for (int i = 0; i < n; i++) {
			Q q = look_q(0, 0, 0, 0);
			q.icoord = 1;
			q.c[0] = (uint32_t)i;           /* past the buffer's 7 elements: zero */
			wf[i] = look_u(&F, q, 0);
			q.c[0] = (uint32_t)(n - 1 - i);
			wi[i] = look_u(&I, q, 0);
		}
		cmp(gf, wf, 40, 1);
		cmp(gi, wi, 40, 0);
	}
	tex_done(&F, &DF);
	tex_done(&I, &DI);
	ke();

	kb("tex_fetch1d_norm");
	tex_of(&F, &DF, KLIN, PTXVM_FORMAT_U8, 4, 1, 0, 0, AC, 1);
	n = 9;
	uint64_t o = dalloc(16u * n);
	void *a2[] = { &DF.tex, &o, &n };
	uint32_t g[36], w[36];
	if (!launch(P, "tex_fetch1d_norm", 1, 1, 1, 32, 1, 1, a2)) {
		fetch_back(o, g, 36);
		for (int i = 0; i < n; i++) {
			Q q = look_q(0, 0, 0, 0);
			q.icoord = 1;
			q.c[0] = (uint32_t)i;
			ref_look(&F, &q, w + 4 * i);
		}
		cmp(g, w, 36, 1);
	}
	tex_done(&F, &DF);
	ke();
}

static void k_1d(void)
{
	kb("tex_1d");
	Ref R;
	Dev D;
	tex_of(&R, &D, K1D, PTXVM_FORMAT_F32, 1, 1, 1, 0, AC, 0);
	int n = 9;
	float off = -0.3f;
	uint64_t o = dalloc(4u * n);
	void *args[] = { &D.tex, &o, &off, &n };
	uint32_t g[9], w[9];
	if (!launch(P, "tex_1d", 1, 1, 1, 32, 1, 1, args)) {
		fetch_back(o, g, 9);
		for (int i = 0; i < n; i++)
			w[i] = bitsf(look_f(&R, look_q(0, (float)i + 0.5f + off, 0, 0), 0));
		cmp(g, w, 9, 1);
	}
	tex_done(&R, &D);
	ke();

	kb("tex_1d_int4");
	tex_of(&R, &D, K1D, PTXVM_FORMAT_S32, 4, 1, 0, 1, AW, 0);
	n = 7;
	void *a2[] = { &D.tex, &o, &n };
	uint32_t g4[28], w4[28];
	ptxvm_mem_free(dv, o);
	o = dalloc(16u * n);
	a2[1] = &o;
	if (!launch(P, "tex_1d_int4", 1, 1, 1, 32, 1, 1, a2)) {
		fetch_back(o, g4, 28);
		for (int i = 0; i < n; i++) {
			Q q = look_q(0, ((float)i + 0.5f) / (float)n, 0, 0);
			ref_look(&R, &q, w4 + 4 * i);
		}
		cmp(g4, w4, 28, 0);
	}
	tex_done(&R, &D);
	ptxvm_mem_free(dv, o);
	ke();
}

static void k_2d(void)
{
	kb("tex_2d_resample");
	Ref R;
	Dev D;
	tex_of(&R, &D, K2D, PTXVM_FORMAT_F32, 1, 1, 1, 0, AC, 0);
	int w = 13, h = 9;
	float sx = 0.4f, sy = 0.47f;
	uint64_t o = dalloc(16u * w * h);
	void *args[] = { &D.tex, &o, &w, &h, &sx, &sy };
	static uint32_t g[4 * 13 * 9], ws[4 * 13 * 9];
	if (!launch(P, "tex_2d_resample", 2, 2, 1, 8, 8, 1, args)) {
		fetch_back(o, g, (size_t)w * h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				ws[y * w + x] = bitsf(look_f(&R, look_q(1, ((float)x + 0.5f) * sx, ((float)y + 0.5f) * sy, 0), 0));
		cmp(g, ws, (size_t)w * h, 1);
	}
	tex_done(&R, &D);
	ke();

	kb("tex_2d_rgba");
	tex_of(&R, &D, K2D, PTXVM_FORMAT_U8, 4, 1, 1, 0, AB, 1);
	void *a2[] = { &D.tex, &o, &w, &h };
	if (!launch(P, "tex_2d_rgba", 2, 2, 1, 8, 8, 1, a2)) {
		fetch_back(o, g, 4u * w * h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				uint32_t *c = ws + 4 * (y * w + x);
				Q q = look_q(1, (float)x + 0.5f, (float)y + 0.5f, 0);
				ref_look(&R, &q, c);
				float l = fmaf(fbits(c[2]), 0.114f, fmaf(fbits(c[0]), 0.299f, fbits(c[1]) * 0.587f));
				c[3] = bitsf(l);
			}
		cmp(g, ws, 4u * w * h, 1);
	}
	tex_done(&R, &D);
	ke();

	kb("tex_2d_uint");
	tex_of(&R, &D, K2D, PTXVM_FORMAT_U32, 1, 1, 0, 0, AC, 0);
	if (!launch(P, "tex_2d_uint", 2, 2, 1, 8, 8, 1, a2)) {
		fetch_back(o, g, (size_t)w * h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				ws[y * w + x] = look_u(&R, look_q(1, (float)(w - 1 - x) + 0.5f, (float)y + 0.5f, 0), 0);
		cmp(g, ws, (size_t)w * h, 0);
	}
	tex_done(&R, &D);
	ptxvm_mem_free(dv, o);
	ke();
}

static void k_3d(void)
{
	kb("tex_3d");
	Ref R;
	Dev D;
	tex_of(&R, &D, K3D, PTXVM_FORMAT_F32, 1, 1, 1, 0, AM, 0);
	int w = 6, h = 5, d = 4;
	uint64_t o = dalloc(4u * w * h * d);
	void *args[] = { &D.tex, &o, &w, &h, &d };
	uint32_t g[120], ws[120];
	if (!launch(P, "tex_3d", 1, 1, 1, 8, 8, 4, args)) {
		fetch_back(o, g, 120);
		for (int z = 0; z < d; z++)
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					ws[(z * h + y) * w + x] = bitsf(look_f(&R, look_q(2, (float)x + 1.0f, (float)y + 0.5f,
											  (float)z + 0.75f), 0));
		cmp(g, ws, 120, 1);
	}
	tex_done(&R, &D);
	ke();

	kb("tex_3d_int");
	tex_of(&R, &D, K3D, PTXVM_FORMAT_S16, 2, 1, 0, 0, AB, 0);
	R.border[0] = fbits(0x1234);
	ref_unmake(dv, &D);
	ref_make(dv, &R, &D);
	if (!launch(P, "tex_3d_int", 1, 1, 1, 8, 8, 4, args)) {
		fetch_back(o, g, 120);
		for (int z = 0; z < d; z++)
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					ws[(z * h + y) * w + x] = look_u(&R, look_q(2, (float)x + 0.5f, (float)y + 0.5f,
										     (float)z + 0.5f), 0);
		cmp(g, ws, 120, 0);
	}
	tex_done(&R, &D);
	ptxvm_mem_free(dv, o);
	ke();
}

static void k_layered(void)
{
	kb("tex_1d_layered");
	Ref R;
	Dev D;
	tex_of(&R, &D, K1DL, PTXVM_FORMAT_F16, 1, 1, 1, 0, AC, 0);
	int w = 5, layers = 3;
	uint64_t o = dalloc(64u * 4 * 4 * 3);
	void *args[] = { &D.tex, &o, &w, &layers };
	uint32_t g[240], ws[240];
	if (!launch(P, "tex_1d_layered", 1, 1, 1, 32, 1, 1, args)) {
		fetch_back(o, g, 5);
		for (int x = 0; x < w; x++) {
			float s = 0.0f;
			for (int l = 0; l < layers; l++) {
				Q q = look_q(3, (float)x + 0.5f, 0, 0);
				q.layer = (uint32_t)l;
				s += look_f(&R, q, 0);
			}
			ws[x] = bitsf(s / (float)layers);
		}
		cmp(g, ws, 5, 1);
	}
	tex_done(&R, &D);
	ke();

	kb("tex_2d_layered");
	tex_of(&R, &D, K2DL, PTXVM_FORMAT_UNORM16, 4, 1, 1, 0, AW, 0);
	int h = 3;
	void *a2[] = { &D.tex, &o, &w, &h };
	if (!launch(P, "tex_2d_layered", 1, 1, 3, 8, 8, 1, a2)) {
		fetch_back(o, g, 4u * w * h * 3);
		for (int l = 0; l < 3; l++)
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					Q q = look_q(4, (float)x + 0.25f, (float)y + 0.75f, 0);
					q.layer = (uint32_t)l;
					ref_look(&R, &q, ws + 4 * ((l * h + y) * w + x));
				}
		cmp(g, ws, 4u * w * h * 3, 1);
	}
	tex_done(&R, &D);
	ptxvm_mem_free(dv, o);
	ke();
}

static void k_cube(void)
{
	enum { N = 40 };
	float dirs[N][4];
	for (int i = 0; i < N; i++) {
		for (int k = 0; k < 3; k++)
			dirs[i][k] = (float)((int)(tm_rnd() % 2001) - 1000) / 400.0f;
		dirs[i][3] = (float)(i % 3);
	}
	dirs[0][0] = 1, dirs[0][1] = 1, dirs[0][2] = 0;         /* a tie */
	uint64_t in = dalloc(sizeof dirs), o = dalloc(16u * N);
	ptxvm_memcpy_htod(dv, in, dirs, sizeof dirs);
	int n = N;
	uint32_t g[4 * N], ws[4 * N];
	for (int seamless = 0; seamless < 2; seamless++) {
		kb(seamless ? "tex_cubemap (seamless)" : "tex_cubemap");
		Ref R;
		Dev D;
		ref_shape(&R, KCUBE);
		R.fmt = PTXVM_FORMAT_F32;
		R.ch = 1;
		R.es = 4;
		R.filter = 1;
		R.seamless = seamless;
		ref_fill(&R);
		ref_make(dv, &R, &D);
		void *args[] = { &D.tex, &in, &o, &n };
		if (!launch(P, "tex_cubemap", 2, 1, 1, 32, 1, 1, args)) {
			fetch_back(o, g, N);
			for (int i = 0; i < N; i++)
				ws[i] = bitsf(look_f(&R, look_q(5, dirs[i][0], dirs[i][1], dirs[i][2]), 0));
			cmp(g, ws, N, 1);
		}
		tex_done(&R, &D);
		ke();
	}
	kb("tex_cubemap_layered");
	Ref R;
	Dev D;
	ref_shape(&R, KCUBEL);
	R.fmt = PTXVM_FORMAT_SNORM8;
	R.ch = 4;
	R.es = 4;
	R.filter = 1;
	ref_fill(&R);
	ref_make(dv, &R, &D);
	void *args[] = { &D.tex, &in, &o, &n };
	if (!launch(P, "tex_cubemap_layered", 2, 1, 1, 32, 1, 1, args)) {
		fetch_back(o, g, 4 * N);
		for (int i = 0; i < N; i++) {
			Q q = look_q(6, dirs[i][0], dirs[i][1], dirs[i][2]);
			q.layer = (uint32_t)(int)dirs[i][3];
			ref_look(&R, &q, ws + 4 * i);
		}
		cmp(g, ws, 4 * N, 1);
	}
	tex_done(&R, &D);
	ke();
	ptxvm_mem_free(dv, in);
	ptxvm_mem_free(dv, o);
}

static void k_gather(void)
{
	kb("tex_2d_gather");
	Ref R;
	Dev D;
	tex_of(&R, &D, K2D, PTXVM_FORMAT_F32, 4, 1, 0, 0, AB, 0);
	int w = 5, h = 4;
	uint64_t o = dalloc(64u * w * h);
	void *args[] = { &D.tex, &o, &w, &h };
	uint32_t g[320], ws[320];
	if (!launch(P, "tex_2d_gather", 1, 1, 1, 8, 8, 1, args)) {
		fetch_back(o, g, 16u * w * h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				for (int c = 0; c < 4; c++) {
					Q q = look_q(1, (float)x + 1.0f, (float)y + 1.0f, 0);
					q.gather = c;
					ref_look(&R, &q, ws + 4 * ((y * w + x) * 4 + c));
				}
		cmp(g, ws, 16u * w * h, 1);
	}
	tex_done(&R, &D);
	ke();

	kb("tex_2d_gather_int");
	tex_of(&R, &D, K2D, PTXVM_FORMAT_S8, 2, 1, 0, 1, AM, 0);
	if (!launch(P, "tex_2d_gather_int", 1, 1, 1, 8, 8, 1, args)) {
		fetch_back(o, g, 4u * w * h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				Q q = look_q(1, ((float)x + 1.0f), ((float)y + 1.0f), 0);
				q.gather = 0;
				ref_look(&R, &q, ws + 4 * (y * w + x));
			}
		cmp(g, ws, 4u * w * h, 0);
	}
	tex_done(&R, &D);
	ptxvm_mem_free(dv, o);
	ke();
}

static void k_lod(void)
{
	static const float levels[] = { 0.0f, 0.6f, 1.25f, 2.9f };
	for (size_t li = 0; li < sizeof levels / sizeof levels[0]; li++) {
		float level = levels[li];
		char name[64];
		snprintf(name, sizeof name, "tex_lod (level %g)", level);
		kb(name);
		Ref R1, R2, R3;
		Dev D1, D2, D3;
		tex_of(&R1, &D1, K1D, PTXVM_FORMAT_F32, 1, 4, 1, 1, AW, 0);
		tex_of(&R2, &D2, K2D, PTXVM_FORMAT_U8, 1, 4, 1, 1, AM, 1);
		tex_of(&R3, &D3, K3D, PTXVM_FORMAT_F16, 1, 3, 1, 1, AC, 0);
		int n = 21;
		uint64_t o = dalloc(16u * n);
		void *args[] = { &D1.tex, &D2.tex, &D3.tex, &o, &level, &n };
		uint32_t g[84], ws[84];
		if (!launch(P, "tex_lod", 1, 1, 1, 32, 1, 1, args)) {
			fetch_back(o, g, 84);
			for (int i = 0; i < n; i++) {
				float u = ((float)i + 0.5f) / (float)n;
				Q q = look_q(0, u, 0, 0);
				q.mip = 1;
				q.lod = bitsf(level);
				ws[4 * i] = look_u(&R1, q, 0);
				q = look_q(1, u, 1.0f - u, 0);
				q.mip = 1;
				q.lod = bitsf(level);
				ws[4 * i + 1] = look_u(&R2, q, 0);
				q = look_q(2, u, 0.5f, 1.0f - u);
				q.mip = 1;
				q.lod = bitsf(level);
				ws[4 * i + 2] = look_u(&R3, q, 0);
				ws[4 * i + 3] = bitsf(level);
			}
			cmp(g, ws, 84, 1);
		}
		tex_done(&R1, &D1);
		tex_done(&R2, &D2);
		tex_done(&R3, &D3);
		ke();

		snprintf(name, sizeof name, "tex_lod_layered (level %g)", level);
		kb(name);
		Ref L1, L2, C, CL;
		Dev E1, E2, EC, ECL;
		tex_of(&L1, &E1, K1DL, PTXVM_FORMAT_F32, 1, 3, 1, 1, AC, 0);
		tex_of(&L2, &E2, K2DL, PTXVM_FORMAT_F32, 2, 3, 1, 1, AW, 0);
		tex_of(&C, &EC, KCUBE, PTXVM_FORMAT_F32, 1, 3, 1, 1, AC, 0);
		tex_of(&CL, &ECL, KCUBEL, PTXVM_FORMAT_UNORM8, 4, 3, 1, 1, AC, 0);
		void *a2[] = { &E1.tex, &E2.tex, &EC.tex, &ECL.tex, &o, &level, &n };
		if (!launch(P, "tex_lod_layered", 1, 1, 1, 32, 1, 1, a2)) {
			fetch_back(o, g, 84);
			for (int i = 0; i < n; i++) {
				float u = ((float)i + 0.5f) / (float)n;
				Q q = look_q(3, u, 0, 0);
				q.layer = (uint32_t)(i & 1);
				q.mip = 1;
				q.lod = bitsf(level);
				ws[4 * i] = look_u(&L1, q, 0);
				q = look_q(4, u, u, 0);
				q.layer = (uint32_t)(i & 3);
				q.mip = 1;
				q.lod = bitsf(level);
				ws[4 * i + 1] = look_u(&L2, q, 0);
				q = look_q(5, 1.0f, u + -0.5f, 0.25f);
				q.mip = 1;
				q.lod = bitsf(level);
				ws[4 * i + 2] = look_u(&C, q, 0);
				q = look_q(6, -1.0f, 0.5f - u, 0.25f);
				q.layer = (uint32_t)(i & 1);
				q.mip = 1;
				q.lod = bitsf(level);
				ws[4 * i + 3] = look_u(&CL, q, 0);
			}
			cmp(g, ws, 84, 1);
		}
		tex_done(&L1, &E1);
		tex_done(&L2, &E2);
		tex_done(&C, &EC);
		tex_done(&CL, &ECL);
		ptxvm_mem_free(dv, o);
		ke();
	}
}

static void k_grad(void)
{
	static const float gs[] = { 0.0f, 0.02f, 0.09f, 0.3f };
	for (size_t gi = 0; gi < sizeof gs / sizeof gs[0]; gi++) {
		float gr = gs[gi];
		char name[64];
		snprintf(name, sizeof name, "tex_grad (g = %g)", gr);
		kb(name);
		Ref R[6];
		Dev D[6];
		static const int kinds[6] = { K1D, K2D, K3D, K1DL, K2DL, KCUBE };
		for (int k = 0; k < 6; k++)
			tex_of(&R[k], &D[k], kinds[k], PTXVM_FORMAT_F32, 1, 3, 1, 1, AC, 0);
		int n = 17;
		uint64_t o = dalloc(4u * n);
		void *args[] = { &D[0].tex, &D[1].tex, &D[2].tex, &D[3].tex, &D[4].tex, &D[5].tex, &o, &gr, &n };
		uint32_t g[17], ws[17];
		if (!launch(P, "tex_grad", 1, 1, 1, 32, 1, 1, args)) {
			fetch_back(o, g, 17);
			for (int i = 0; i < n; i++) {
				float u = ((float)i + 0.5f) / (float)n, r = 0.0f;
				Q q[6] = { look_q(0, u, 0, 0), look_q(1, u, u, 0), look_q(2, u, u, u), look_q(3, u, 0, 0),
					   look_q(4, u, u, 0), look_q(5, 1.0f, u, -u) };
				q[3].layer = 1;
				q[4].layer = 2;
				for (int k = 0; k < 6; k++) {
					q[k].mip = 2;
					q[k].dx[0] = bitsf(gr);
					q[k].dy[0] = bitsf(k == 0 || k == 3 ? gr : 0);
					q[k].dy[1] = bitsf(k == 0 || k == 3 ? 0 : gr);
					r += look_f(&R[k], q[k], 0);
				}
				ws[i] = bitsf(r);
			}
			cmp(g, ws, 17, 1);
		}
		for (int k = 0; k < 6; k++)
			tex_done(&R[k], &D[k]);
		ptxvm_mem_free(dv, o);
		ke();
	}
}

static void k_misc(void)
{
	kb("tex_resident");
	Ref A, B;
	Dev DA, DB;
	tex_of(&A, &DA, K2D, PTXVM_FORMAT_F32, 1, 1, 1, 0, AC, 0);
	tex_of(&B, &DB, K3D, PTXVM_FORMAT_F16, 1, 1, 0, 0, AC, 0);
	int n = 8;
	uint64_t o = dalloc(4u * n), res = dalloc(4u * n);
	void *args[] = { &DA.tex, &DB.tex, &o, &res, &n };
	uint32_t g[8], gr[8], ws[8], wr[8];
	if (!launch(P, "tex_resident", 1, 1, 1, 32, 1, 1, args)) {
		fetch_back(o, g, 8);
		fetch_back(res, gr, 8);
		for (int i = 0; i < n; i++) {
			float u = (float)i + 0.5f;
			ws[i] = bitsf(look_f(&A, look_q(1, u, 0.5f, 0), 0) + look_f(&B, look_q(2, u, 0.5f, 0.5f), 0));
			wr[i] = 3;
		}
		cmp(g, ws, 8, 1);
		cmp(gr, wr, 8, 0);
	}
	tex_done(&A, &DA);
	tex_done(&B, &DB);
	ke();

	kb("tex_2d_small_types");
	tex_of(&A, &DA, K2D, PTXVM_FORMAT_S8, 4, 1, 0, 0, AC, 0);
	tex_of(&B, &DB, K2D, PTXVM_FORMAT_S16, 1, 1, 0, 0, AC, 0);
	int w = 5, h = 4;
	uint64_t o4 = dalloc(16u * w * h);
	void *a2[] = { &DA.tex, &DB.tex, &o4, &w, &h };
	uint32_t g4[80], w4[80];
	if (!launch(P, "tex_2d_small_types", 1, 1, 1, 8, 8, 1, a2)) {
		fetch_back(o4, g4, 80);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				uint32_t c[4], s[4];
				Q q = look_q(1, (float)x + 0.5f, (float)y + 0.5f, 0);
				ref_look(&A, &q, c);
				ref_look(&B, &q, s);
				uint32_t *e = w4 + 4 * (y * w + x);
				e[0] = (uint32_t)(int)(int8_t)c[0];
				e[1] = (uint32_t)(int)(int8_t)c[1];
				e[2] = (uint32_t)((int)(int8_t)c[2] + (int)(int8_t)c[3]);
				e[3] = (uint32_t)(int)(int16_t)s[0];
			}
		cmp(g4, w4, 80, 0);
	}
	tex_done(&A, &DA);
	tex_done(&B, &DB);
	ptxvm_mem_free(dv, o);
	ptxvm_mem_free(dv, res);
	ptxvm_mem_free(dv, o4);
	ke();
}

/* ---- texrefs.ptx: module-scope .texref variables ------------------------------------ */

static void k_texrefs(void)
{
	Ref R2, RF, RL;
	Dev D2, DF, DL;
	kb("texref_2d");
	tex_of(&R2, &D2, K2D, PTXVM_FORMAT_F32, 1, 1, 1, 0, AC, 0);
	tex_of(&RF, &DF, KLIN, PTXVM_FORMAT_S32, 1, 1, 0, 0, AC, 0);
	tex_of(&RL, &DL, K2DL, PTXVM_FORMAT_U16, 1, 1, 0, 1, AW, 0);
	if (ptxvm_program_bind_texture(PR, "tex_image", D2.tex) || ptxvm_program_bind_texture(PR, "tex_buffer", DF.tex) ||
	    ptxvm_program_bind_texture(PR, "tex_layers", DL.tex))
		KFAIL("texk: bind_texture: %s", ptxvm_device_message(dv));
	int w = 13, h = 9;
	uint64_t o = dalloc(16u * w * h);
	void *args[] = { &o, &w, &h };
	static uint32_t g[4 * 13 * 9], ws[4 * 13 * 9];
	if (!launch(PR, "texref_2d", 2, 2, 1, 8, 8, 1, args)) {
		fetch_back(o, g, (size_t)w * h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				ws[y * w + x] = bitsf(look_f(&R2, look_q(1, (float)x * 0.5f, (float)y * 0.5f, 0), 0));
		cmp(g, ws, (size_t)w * h, 1);
	}
	ke();

	kb("texref_fetch");
	int n = 12;
	void *a2[] = { &o, &n };
	if (!launch(PR, "texref_fetch", 1, 1, 1, 32, 1, 1, a2)) {
		fetch_back(o, g, 12);
		for (int i = 0; i < n; i++) {
			Q q = look_q(0, 0, 0, 0);
			q.icoord = 1;
			q.c[0] = (uint32_t)(i - 2);
			ws[i] = look_u(&RF, q, 0);
		}
		cmp(g, ws, 12, 0);
	}
	ke();

	kb("texref_layers");
	int layers = 3;
	void *a3[] = { &o, &layers };
	if (!launch(PR, "texref_layers", 1, 1, 1, 32, 1, 1, a3)) {
		fetch_back(o, g, 32);
		for (int i = 0; i < 32; i++) {
			Q q = look_q(4, (float)(i % 8) / 7.0f, (float)(i / 8) / 3.0f, 0);
			q.layer = (uint32_t)(i % layers);
			ws[i] = look_u(&RL, q, 0);
		}
		cmp(g, ws, 32, 1);
	}
	ke();

	kb("texref_indirect");
	if (!launch(PR, "texref_indirect", 2, 2, 1, 8, 8, 1, args)) {
		fetch_back(o, g, (size_t)w * h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				ws[y * w + x] = bitsf(look_f(&R2, look_q(1, (float)x * 0.5f, (float)y * 0.5f, 0), 0));
		cmp(g, ws, (size_t)w * h, 1);
	}
	ke();

	/* the builder: __itex2D_float on a .texref the builder declares, as cicc lowers tex2D */
	kb("builder: __itex2D_float on a .texref");
	ptxvm_builder *b = ptxvm_builder_create("sm_90", 80, 0);
	ptxvm_build_image(b, PTXVM_TEXREF, "img", NULL);
	ptxvm_builder_fn *f = ptxvm_build_kernel(b, "sample");
	ptxvm_build_param(f, ".u64", "out");
	ptxvm_build_regs(f, "b32", "%r", 4);
	ptxvm_build_regs(f, "f32", "%f", 8);
	ptxvm_build_regs(f, "b64", "%rd", 4);
	ptxvm_build_ins(f, "ld.param.u64", "%rd1", "[out]", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r1", "%tid.x", NULL);
	ptxvm_build_ins(f, "cvt.rn.f32.u32", "%f1", "%r1", NULL);
	ptxvm_build_ins(f, "mul.f32", "%f1", "%f1", "0f3EC00000", NULL);      /* 0.375 */
	ptxvm_build_ins(f, "mov.f32", "%f2", "0f3FC00000", NULL);             /* 1.5 */
	if (ptxvm_build_builtin(f, "__itex2D_float", 0, "%f3", "%f4", "%f5", "%f6", "img", "%f1", "%f2", NULL))
		KFAIL("texk: %s: %s", kname, ptxvm_builder_error(b));
	ptxvm_build_ins(f, "mul.wide.u32", "%rd2", "%r1", "4", NULL);
	ptxvm_build_ins(f, "add.u64", "%rd3", "%rd1", "%rd2", NULL);
	ptxvm_build_ins(f, "st.global.f32", "[%rd3]", "%f3", NULL);
	ptxvm_build_ins(f, "ret", NULL);
	ptxvm_module *m = ptxvm_builder_module(b, NULL);
	ptxvm_program *pb = NULL;
	if (!m || ptxvm_module_errors(m) || ptxvm_program_load(dv, m, &pb) ||
	    ptxvm_program_bind_texture(pb, "img", D2.tex)) {
		KFAIL("texk: %s: %s %s", kname, ptxvm_builder_error(b), ptxvm_device_message(dv));
	} else {
		void *a4[] = { &o };
		if (!launch(pb, "sample", 1, 1, 1, 32, 1, 1, a4)) {
			fetch_back(o, g, 32);
			for (int i = 0; i < 32; i++)
				ws[i] = bitsf(look_f(&R2, look_q(1, (float)i * 0.375f, 1.5f, 0), 0));
			cmp(g, ws, 32, 1);
		}
		ptxvm_program_unload(pb);
	}
	ptxvm_module_free(m);
	ptxvm_builder_destroy(b);
	ke();
	tex_done(&R2, &D2);
	tex_done(&RF, &DF);
	tex_done(&RL, &DL);
	ptxvm_mem_free(dv, o);
}

static ptxvm_program *load(const char *root, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	ptxvm_module *m = ptxvm_module_load_file(path, NULL);
	ptxvm_program *p = NULL;
	if (!m || ptxvm_module_errors(m) || ptxvm_program_load(dv, m, &p)) {
		fail("texk: cannot load %s: %s", rel, ptxvm_device_message(dv));
		p = NULL;
	}
	ptxvm_module_free(m);
	return p;
}

void test_texk(const char *root)
{
	ptxvm_device_opts o = { .workers = 2 };
	dv = ptxvm_device_create(&o);
	P = load(root, "tests/ptx/textures.ptx");
	PR = load(root, "tests/ptx/texrefs.ptx");
	if (P) {
		k_fetch();
		k_1d();
		k_2d();
		k_3d();
		k_layered();
		k_cube();
		k_gather();
		k_lod();
		k_grad();
		k_misc();
	}
	if (PR)
		k_texrefs();
	ptxvm_device_destroy(dv);
}
