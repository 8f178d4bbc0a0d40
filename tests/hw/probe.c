/* probe.c: texture ground truth.  A fixed, large grid of texture fetches
 * -- formats x address modes x filters x coordinates, the positions that
 * separate rounding from truncation of the filter weight, cube faces,
 * layers, mipmap levels and gradients, gathers, texel fetches, depth
 * compare, txq -- made through the CUDA driver API alone (cuda.h), printed
 * one line per fetch.
 *
 * Built against NVIDIA's libcuda on a machine with a GPU, its output is a
 * golden file (tests/hw/golden/NAME.txt); built against ptxvm's
 * libcuda.so.1 it must print the same bytes.  tests/hw/run.sh builds it and
 * compares; tests/hw/README.md says how to record.
 *
 *   probe [GROUP]      every group, or one (alpha bilinear formats address
 *                      cube layers mip gather fetch txq depth half; the
 *                      diagnostic xfilter xcoord xfetch xcube xmore xmore2)
 *
 * Each line: GROUP CASE INPUTS : R0 R1 R2 R3, inputs and results in hex
 * (f32 bits for float results), so that a difference names the fetch.
 * Exit status 0, or 1 with the failing call on stderr.
 */
#include <cuda.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static CUcontext ctx;

static void check(CUresult r, const char *what, int line)
{
	if (r == CUDA_SUCCESS)
		return;
	const char *name = NULL;
	cuGetErrorName(r, &name);
	/* on stdout too: a call the GPU refuses is part of what is recorded */
	printf("error probe.c:%d: %s: %s (%d)\n", line, what, name ? name : "?", (int)r);
	fprintf(stderr, "probe.c:%d: %s: %s (%d)\n", line, what, name ? name : "?", (int)r);
	exit(1);
}
#define CK(call) check((call), #call, __LINE__)

/* cuModuleLoadData, with the JIT's log on stdout when it refuses the PTX */
static CUresult load(CUmodule *m, const char *ptx)
{
	static char log[4096];
	CUjit_option o[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *v[] = { log, (void *)(uintptr_t)sizeof log };
	log[0] = 0;
	CUresult r = cuModuleLoadDataEx(m, ptx, 2, o, v);
	if (r && log[0])
		printf("error jit: %s\n", log);
	return r;
}

static uint32_t bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}

/* ---- kernels -------------------------------------------------------------------
 * One kernel per instruction variant.  Each thread reads a record of 16
 * words -- c0..c3 (the PTX coordinate vector, an array's layer first), lod,
 * dx0..dx2, dy0..dy2, depth, off0..off2, - -- and writes 8: the four
 * results, the residency predicate, 3 unused. */

static const char *const gname[] = { "1d", "2d", "3d", "a1d", "a2d", "cube", "acube" };
static const int gcoords[] = { 1, 2, 4, 2, 4, 4, 4 }, ggrad[] = { 1, 2, 4, 1, 2, 4, 4 };
enum { G1D, G2D, G3D, GA1D, GA2D, GCUBE, GACUBE };

typedef struct Variant {
	const char *op;         /* "tex", "tld4.r" ... */
	int geom, icoord, mip;  /* mip: 0 none, 1 .level, 2 .grad */
	const char *dtype;      /* f32 u32 s32 f16 */
	int off, depth;
} Variant;

static CUfunction kernel_of(const Variant *v)
{
	static struct { char key[96]; CUmodule m; CUfunction f; } cache[64];
	static int n;
	char key[96];
	snprintf(key, sizeof key, "%s.%d.%d.%d.%s.%d.%d", v->op, v->geom, v->icoord, v->mip, v->dtype, v->off, v->depth);
	for (int i = 0; i < n; i++)
		if (!strcmp(cache[i].key, key))
			return cache[i].f;
	int g = v->geom, layered = g == GA1D || g == GA2D || g == GACUBE, f16 = !strcmp(v->dtype, "f16");
	char co[96] = "", gr[128] = "", of[64] = "", ins[512], ptx[4096];
	for (int k = 0; k < gcoords[g]; k++) {
		char e[16];
		snprintf(e, sizeof e, "%s%s%d", k ? ", " : "", (layered && k == 0) || v->icoord ? "%r" : "%f", 10 + k);
		strcat(co, e);
	}
	if (v->mip == 1)
		snprintf(gr, sizeof gr, ", %s14", v->icoord ? "%r" : "%f");
	else if (v->mip == 2)
		snprintf(gr, sizeof gr, ", {%%f15%s%s}, {%%f18%s%s}", ggrad[g] > 1 ? ", %f16" : "",
			 ggrad[g] > 2 ? ", %f17, %f17" : "", ggrad[g] > 1 ? ", %f19" : "", ggrad[g] > 2 ? ", %f20, %f20" : "");
	if (v->off) {
		int m = g == G1D || g == GA1D ? 1 : g == G3D ? 4 : 2;
		snprintf(of, sizeof of, ", {%%r22%s%s}", m > 1 ? ", %r23" : "", m > 2 ? ", %r24, %r24" : "");
	}
	snprintf(ins, sizeof ins, "%s%s.%s.v4.%s.%s %s|%%p2, [%%rd1, {%s}]%s%s%s;", v->op,
		 !strcmp(v->op, "tex") && v->mip ? (v->mip == 1 ? ".level" : ".grad") : "", gname[g], v->dtype,
		 v->icoord ? "s32" : "f32", f16 ? "{%h0, %h1, %h2, %h3}" : "{%r30, %r31, %r32, %r33}", co, gr, of,
		 v->depth ? ", %f21" : "");
	snprintf(ptx, sizeof ptx,
		 ".version 8.0\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 t, .param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
		 ".reg .b32 %%r<40>; .reg .f32 %%f<24>; .reg .b64 %%rd<8>; .reg .pred %%p<3>; .reg .f16 %%h<4>;\n"
		 "ld.param.u64 %%rd1, [t]; ld.param.u64 %%rd2, [in]; ld.param.u64 %%rd3, [out]; ld.param.u32 %%r1, [n];\n"
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
		 "%s\n"
		 "%s"
		 "mul.wide.u32 %%rd6, %%r5, 32; add.u64 %%rd7, %%rd3, %%rd6;\n"
		 "selp.u32 %%r34, 1, 0, %%p2;\n"
		 "st.global.v4.b32 [%%rd7], {%%r30, %%r31, %%r32, %%r33}; st.global.u32 [%%rd7+16], %%r34;\n"
		 "DONE:\nret;\n}\n", ins,
		 f16 ? "mov.b32 %r30, {%h0, %h0}; mov.b32 %r31, {%h1, %h1}; mov.b32 %r32, {%h2, %h2}; "
		       "mov.b32 %r33, {%h3, %h3};\n" : "");
	if (n == 64) {
		fprintf(stderr, "probe: too many kernel variants\n");
		exit(1);
	}
	snprintf(cache[n].key, sizeof cache[n].key, "%s", key);
	CK(load(&cache[n].m, ptx));
	CK(cuModuleGetFunction(&cache[n].f, cache[n].m, "k"));
	return cache[n++].f;
}

/* A lookup: the record of one thread. */
typedef struct Q {
	uint32_t w[16];
} Q;

/* Runs lookups of a variant on texture t; out gets 8 words a lookup. */
static void run(const Variant *v, CUtexObject t, const Q *q, unsigned n, uint32_t *out)
{
	CUfunction f = kernel_of(v);
	CUdeviceptr din, dout;
	CK(cuMemAlloc(&din, (size_t)n * 64));
	CK(cuMemAlloc(&dout, (size_t)n * 32));
	CK(cuMemcpyHtoD(din, q, (size_t)n * 64));
	void *args[] = { &t, &din, &dout, &n };
	CK(cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(out, dout, (size_t)n * 32));
	CK(cuMemFree(din));
	CK(cuMemFree(dout));
}

/* Prints each lookup: GROUP CASE c0 c1 c2 c3 [lod dx dy depth off] : results. */
static void print(const char *group, const char *cs, const Variant *v, const Q *q, unsigned n, const uint32_t *out)
{
	for (unsigned i = 0; i < n; i++) {
		const uint32_t *w = q[i].w, *o = out + 8 * i;
		printf("%s %s %08x %08x %08x %08x", group, cs, w[0], w[1], w[2], w[3]);
		if (v->mip == 1)
			printf(" lod %08x", w[4]);
		if (v->mip == 2)
			printf(" dx %08x %08x %08x dy %08x %08x %08x", w[5], w[6], w[7], w[8], w[9], w[10]);
		if (v->depth)
			printf(" ref %08x", w[11]);
		if (v->off)
			printf(" off %d %d %d", (int)w[12], (int)w[13], (int)w[14]);
		printf(" : %08x %08x %08x %08x%s\n", o[0], o[1], o[2], o[3], o[4] == 1 ? "" : " nonresident");
	}
}

/* ---- textures ---------------------------------------------------------------------- */

typedef struct Tex {
	CUarray a;
	CUmipmappedArray m;
	CUdeviceptr d;
	CUtexObject t;
} Tex;

/* An array (flags: CUDA_ARRAY3D_*), its texels from host data (tightly
 * packed, slice after slice), and a texture over it. */
static Tex tex_array(size_t w, size_t h, size_t d, unsigned flags, CUarray_format f, unsigned ch, const void *data,
		     const CUDA_TEXTURE_DESC *td, unsigned levels)
{
	Tex T;
	memset(&T, 0, sizeof T);
	CUDA_ARRAY3D_DESCRIPTOR ad = { w, h, d, f, ch, flags };
	size_t es = ch * (f == CU_AD_FORMAT_UNSIGNED_INT8 || f == CU_AD_FORMAT_SIGNED_INT8 ? 1
			  : f == CU_AD_FORMAT_UNSIGNED_INT16 || f == CU_AD_FORMAT_SIGNED_INT16 || f == CU_AD_FORMAT_HALF ? 2 : 4);
	CUDA_RESOURCE_DESC rd;
	memset(&rd, 0, sizeof rd);
	const unsigned char *p = data;
	if (levels) {
		CK(cuMipmappedArrayCreate(&T.m, &ad, levels));
		for (unsigned l = 0; l < levels; l++) {
			CUarray lv;
			CK(cuMipmappedArrayGetLevel(&lv, T.m, l));
			size_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1, ld = flags & CUDA_ARRAY3D_LAYERED ? d
			       : d >> l ? d >> l : 1;
			if (!h)
				lh = 0;
			if (!d)
				ld = 0;
			CUDA_MEMCPY3D c;
			memset(&c, 0, sizeof c);
			c.srcMemoryType = CU_MEMORYTYPE_HOST;
			c.srcHost = p;
			c.srcPitch = lw * es;
			c.srcHeight = lh ? lh : 1;
			c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
			c.dstArray = lv;
			c.WidthInBytes = lw * es;
			c.Height = lh ? lh : 1;
			c.Depth = ld ? ld : 1;
			CK(cuMemcpy3D(&c));
			p += lw * es * (lh ? lh : 1) * (ld ? ld : 1);
		}
		rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
		rd.res.mipmap.hMipmappedArray = T.m;
	} else {
		CK(cuArray3DCreate(&T.a, &ad));
		CUDA_MEMCPY3D c;
		memset(&c, 0, sizeof c);
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = data;
		c.srcPitch = w * es;
		c.srcHeight = h ? h : 1;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = T.a;
		c.WidthInBytes = w * es;
		c.Height = h ? h : 1;
		c.Depth = d ? d : 1;
		CK(cuMemcpy3D(&c));
		rd.resType = CU_RESOURCE_TYPE_ARRAY;
		rd.res.array.hArray = T.a;
	}
	CK(cuTexObjectCreate(&T.t, &rd, td, NULL));
	return T;
}

static Tex tex_linear(CUarray_format f, unsigned ch, const void *data, size_t bytes, const CUDA_TEXTURE_DESC *td)
{
	Tex T;
	memset(&T, 0, sizeof T);
	CK(cuMemAlloc(&T.d, bytes));
	CK(cuMemcpyHtoD(T.d, data, bytes));
	CUDA_RESOURCE_DESC rd;
	memset(&rd, 0, sizeof rd);
	rd.resType = CU_RESOURCE_TYPE_LINEAR;
	rd.res.linear.devPtr = T.d;
	rd.res.linear.format = f;
	rd.res.linear.numChannels = ch;
	rd.res.linear.sizeInBytes = bytes;
	CK(cuTexObjectCreate(&T.t, &rd, td, NULL));
	return T;
}

static void tex_free(Tex *T)
{
	CK(cuTexObjectDestroy(T->t));
	if (T->a)
		CK(cuArrayDestroy(T->a));
	if (T->m)
		CK(cuMipmappedArrayDestroy(T->m));
	if (T->d)
		CK(cuMemFree(T->d));
}

static CUDA_TEXTURE_DESC desc(CUaddress_mode am, CUfilter_mode fm, unsigned flags)
{
	CUDA_TEXTURE_DESC td;
	memset(&td, 0, sizeof td);
	td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
	td.filterMode = fm;
	td.flags = flags;
	return td;
}

/* A float lookup record: coordinates (layer first for arrays, as PTX). */
static Q qf(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3)
{
	Q q;
	memset(&q, 0, sizeof q);
	q.w[0] = c0, q.w[1] = c1, q.w[2] = c2, q.w[3] = c3;
	return q;
}

static int want(const char *only, const char *g) { return !only || !strcmp(only, g); }

/* ---- the groups ------------------------------------------------------------------- */

/* The filter weight: a 2-texel f32 texture 0, 1 sampled linearly at
 * x = 0.5 + k / 2048: the result is alpha itself, so its quantisation
 * (8 fractional bits? rounded or truncated?) shows directly. */
static void g_alpha(void)
{
	float tx[4] = { 0.0f, 1.0f, 0.0f, 256.0f };
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
	Variant v = { "tex", G1D, 0, 0, "f32", 0, 0 };
	enum { N = 2049 };
	static Q q[N];
	static uint32_t out[8 * N];
	for (int pair = 0; pair < 2; pair++) {
		Tex T = tex_array(2, 0, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx + 2 * pair, &td, 0);
		for (int k = 0; k < N; k++)
			q[k] = qf(bits(0.5f + (float)k / 2048.0f), 0, 0, 0);
		run(&v, T.t, q, N, out);
		print("alpha", pair ? "0-256" : "0-1", &v, q, N, out);
		tex_free(&T);
	}
}

/* Bilinear filtering of f32, of 8-bit unorm and of 16-bit values, on a
 * grid of fractional positions. */
static void g_bilinear(void)
{
	static const uint32_t f32s[9] = { 0x3f800000, 0x40400000, 0xc0a00000, 0x3dcccccd, 0x42c80000, 0xbf000000,
					  0x00800000, 0x4b800001, 0x3eaaaaab };
	uint8_t u8s[9] = { 0, 255, 128, 1, 254, 77, 200, 13, 99 };
	uint16_t u16s[9] = { 0, 65535, 32768, 1, 65534, 1234, 50000, 7, 40000 };
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
	Variant v = { "tex", G2D, 0, 0, "f32", 0, 0 };
	enum { S = 25 };
	static Q q[S * S];
	static uint32_t out[8 * S * S];
	for (int j = 0; j < S; j++)
		for (int i = 0; i < S; i++)
			q[j * S + i] = qf(bits(0.25f + (float)i * 0.109375f + (float)(i % 3) / 1024.0f),
					  bits(0.5f + (float)j * 0.0859375f + (float)(j % 5) / 4096.0f), 0, 0);
	struct { const char *name; CUarray_format f; const void *data; } fm[3] = {
		{ "f32", CU_AD_FORMAT_FLOAT, f32s }, { "unorm8", CU_AD_FORMAT_UNSIGNED_INT8, u8s },
		{ "unorm16", CU_AD_FORMAT_UNSIGNED_INT16, u16s } };
	for (int k = 0; k < 3; k++) {
		Tex T = tex_array(3, 3, 0, 0, fm[k].f, 1, fm[k].data, &td, 0);
		run(&v, T.t, q, S * S, out);
		print("bilinear", fm[k].name, &v, q, S * S, out);
		tex_free(&T);
	}
}

/* Every format and channel count point-sampled, in both read modes; the
 * components a format lacks. */
static void g_formats(void)
{
	static const struct { const char *name; CUarray_format f; int size, sgn; } fmts[] = {
		{ "u8", CU_AD_FORMAT_UNSIGNED_INT8, 1, 0 }, { "u16", CU_AD_FORMAT_UNSIGNED_INT16, 2, 0 },
		{ "u32", CU_AD_FORMAT_UNSIGNED_INT32, 4, 0 }, { "s8", CU_AD_FORMAT_SIGNED_INT8, 1, 1 },
		{ "s16", CU_AD_FORMAT_SIGNED_INT16, 2, 1 }, { "s32", CU_AD_FORMAT_SIGNED_INT32, 4, 1 },
		{ "f16", CU_AD_FORMAT_HALF, 2, 0 }, { "f32", CU_AD_FORMAT_FLOAT, 4, 0 } };
	static const uint32_t pat[16] = { 0x00000000, 0xffffffff, 0x80000000, 0x7fffffff, 0x00000001, 0x80008080,
					  0x7f7f7f7f, 0x81818181, 0x3c003c00, 0x7c00fc00, 0x7e017fff, 0x00010400,
					  0x3f800000, 0xbf800000, 0x12345678, 0xfedcba98 };
	uint8_t data[16 * 16];
	static Q q[16];
	static uint32_t out[8 * 16];
	for (int i = 0; i < 16; i++)
		q[i] = qf(bits((float)i + 0.5f), 0, 0, 0);
	for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
		for (unsigned ch = 1; ch <= 4; ch *= 2)
			for (int norm = 0; norm < 2; norm++) {
				if (norm && (fmts[f].size == 4 || fmts[f].f == CU_AD_FORMAT_HALF))
					continue;
				int es = fmts[f].size * (int)ch;
				for (int i = 0; i < 16; i++)
					for (int b = 0; b < es; b++)
						data[i * es + b] = (uint8_t)(pat[(i + b / 4) % 16] >> (8 * (b % 4)));
				CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT,
							    norm ? 0 : CU_TRSF_READ_AS_INTEGER);
				Tex T = tex_array(16, 0, 0, 0, fmts[f].f, ch, data, &td, 0);
				int fl = norm || fmts[f].f == CU_AD_FORMAT_HALF || fmts[f].f == CU_AD_FORMAT_FLOAT;
				Variant v = { "tex", G1D, 0, 0, fl ? "f32" : fmts[f].sgn ? "s32" : "u32", 0, 0 };
				run(&v, T.t, q, 16, out);
				char cs[32];
				snprintf(cs, sizeof cs, "%sx%u%s", fmts[f].name, ch, norm ? "-norm" : "");
				print("formats", cs, &v, q, 16, out);
				tex_free(&T);
			}
	/* sRGB */
	uint8_t srgb[256 * 4];
	for (int i = 0; i < 256 * 4; i++)
		srgb[i] = (uint8_t)(i / 4);
	static Q qs[256];
	static uint32_t os[8 * 256];
	for (int i = 0; i < 256; i++)
		qs[i] = qf(bits((float)i + 0.5f), 0, 0, 0);
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, CU_TRSF_SRGB);
	Tex T = tex_array(256, 0, 0, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, srgb, &td, 0);
	Variant v = { "tex", G1D, 0, 0, "f32", 0, 0 };
	run(&v, T.t, qs, 256, os);
	print("formats", "srgb8x4", &v, qs, 256, os);
	tex_free(&T);
}

/* Coordinates a 1D texture of 5 texels sees under each address mode:
 * inside, on centres and edges, just outside, far, negative, NaN, inf;
 * unnormalized and normalized, point and linear; a border colour. */
static void g_address(void)
{
	float tx[5] = { 10, 20, 30, 40, 50 };
	static const float xs[] = { 0, 0.5f, 1, 2.5f, 4.5f, 5, 4.99f, 5.01f, -0.01f, -0.5f, -1, -2.7f, 7.3f, 9.5f, 10.2f,
				    -7.25f, 1e6f, -1e6f, 1e30f, 3.3e38f, 0.75f, 1.25f, 2.125f, 3.875f, 6.5f, -4.5f };
	int nx = (int)(sizeof xs / sizeof xs[0]);
	static Q q[64];
	static uint32_t out[8 * 64];
	static const char *const mname[] = { "wrap", "clamp", "mirror", "border" };
	for (int am = 0; am < 4; am++)
		for (int fm = 0; fm < 2; fm++)
			for (int nrm = 0; nrm < 2; nrm++) {
				CUDA_TEXTURE_DESC td = desc((CUaddress_mode)am, (CUfilter_mode)fm,
							    nrm ? CU_TRSF_NORMALIZED_COORDINATES : 0);
				td.borderColor[0] = -1.5f, td.borderColor[1] = 2, td.borderColor[2] = 3, td.borderColor[3] = 4;
				Tex T = tex_array(5, 0, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
				int n = 0;
				for (int i = 0; i < nx; i++)
					q[n++] = qf(bits(nrm ? xs[i] / 5 : xs[i]), 0, 0, 0);
				q[n++] = qf(0x7fc00000, 0, 0, 0);       /* NaN */
				q[n++] = qf(0x7f800000, 0, 0, 0);       /* +inf */
				q[n++] = qf(0xff800000, 0, 0, 0);       /* -inf */
				q[n++] = qf(0x80000000, 0, 0, 0);       /* -0 */
				Variant v = { "tex", G1D, 0, 0, "f32", 0, 0 };
				run(&v, T.t, q, (unsigned)n, out);
				char cs[48];
				snprintf(cs, sizeof cs, "%s-%s-%s", mname[am], fm ? "linear" : "point", nrm ? "norm" : "unnorm");
				print("address", cs, &v, q, (unsigned)n, out);
				tex_free(&T);
			}
	/* the border colour of an integer texture */
	uint32_t it[5] = { 1, 2, 3, 4, 5 };
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
	td.borderColor[0] = 1.0f, td.borderColor[1] = -2.0f, td.borderColor[2] = 0.5f, td.borderColor[3] = 7;
	Tex T = tex_array(5, 0, 0, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, it, &td, 0);
	q[0] = qf(bits(-1), 0, 0, 0);
	q[1] = qf(bits(6), 0, 0, 0);
	Variant v = { "tex", G1D, 0, 0, "u32", 0, 0 };
	run(&v, T.t, q, 2, out);
	print("address", "border-u32", &v, q, 2, out);
	tex_free(&T);
}

/* Cube faces: directions near every face, ties of the major axis, zero,
 * NaN, infinities; seamless or not, point and linear. */
static void g_cube(void)
{
	enum { N = 8 };
	static float tx[6 * N * N];
	for (int i = 0; i < 6 * N * N; i++)
		tx[i] = (float)(i / (N * N)) * 100 + (float)(i % (N * N));
	static const float dirs[][3] = {
		{ 1, 0.2f, -0.3f }, { -1, 0.5f, 0.25f }, { 0.1f, 1, -0.7f }, { -0.3f, -1, 0.6f }, { 0.45f, 0.2f, 1 },
		{ -0.6f, 0.9f, -1 }, { 1, 1, 0 }, { 1, 1, 1 }, { -1, 1, -1 }, { 0, -1, -1 }, { 1, 0.999f, 0.2f },
		{ 2, -1.999f, 1.5f }, { 0, 0, 0 }, { 1, 0.9999f, -0.9999f }, { -3, 0.01f, 2.99f }, { 0.25f, 0.5f, -1 },
		{ 1, 0.97f, 0.97f }, { 1, -0.97f, 0.99f }, { 0.9f, 1, 0.95f }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, 0, -1 },
		{ 1, 0.125f, 0.875f }, { 1, 0.9375f, 0.0625f }, { -0.5f, 0.5f, 1 }, { 0.5f, -0.5f, -1 },
	};
	int nd = (int)(sizeof dirs / sizeof dirs[0]);
	static Q q[64];
	static uint32_t out[8 * 64];
	for (int seam = 0; seam < 2; seam++)
		for (int fm = 0; fm < 2; fm++) {
			CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, (CUfilter_mode)fm,
						    CU_TRSF_NORMALIZED_COORDINATES | (seam ? CU_TRSF_SEAMLESS_CUBEMAP : 0));
			Tex T = tex_array(N, N, 6, CUDA_ARRAY3D_CUBEMAP, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
			int n = 0;
			for (int i = 0; i < nd; i++)
				q[n++] = qf(bits(dirs[i][0]), bits(dirs[i][1]), bits(dirs[i][2]), 0);
			q[n++] = qf(0x7fc00000, bits(1), bits(0.5f), 0);
			q[n++] = qf(0x7f800000, bits(1), 0, 0);
			q[n++] = qf(bits(0.5f), 0xff800000, bits(0.1f), 0);
			q[n++] = qf(0x7f800000, 0x7f800000, 0, 0);
			Variant v = { "tex", GCUBE, 0, 0, "f32", 0, 0 };
			run(&v, T.t, q, (unsigned)n, out);
			char cs[32];
			snprintf(cs, sizeof cs, "%s-%s", seam ? "seamless" : "plain", fm ? "linear" : "point");
			print("cube", cs, &v, q, (unsigned)n, out);
			tex_free(&T);
		}
}

/* Layer indices, in range and beyond, of 1D and 2D layered textures and
 * a layered cubemap. */
static void g_layers(void)
{
	static float tx[4 * 4 * 12];
	for (int i = 0; i < 4 * 4 * 12; i++)
		tx[i] = (float)i;
	static const uint32_t layers[] = { 0, 1, 2, 3, 4, 11, 12, 100, 0x7fffffff, 0x80000000, 0xffffffff };
	int nl = (int)(sizeof layers / sizeof layers[0]);
	static Q q[32];
	static uint32_t out[8 * 32];
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
	Tex T = tex_array(4, 0, 3, CUDA_ARRAY3D_LAYERED, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
	for (int i = 0; i < nl; i++)
		q[i] = qf(layers[i], bits(2.5f), 0, 0);
	Variant v = { "tex", GA1D, 0, 0, "f32", 0, 0 };
	run(&v, T.t, q, (unsigned)nl, out);
	print("layers", "a1d", &v, q, (unsigned)nl, out);
	tex_free(&T);
	T = tex_array(4, 4, 3, CUDA_ARRAY3D_LAYERED, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
	for (int i = 0; i < nl; i++)
		q[i] = qf(layers[i], bits(1.5f), bits(2.5f), 0);
	v.geom = GA2D;
	run(&v, T.t, q, (unsigned)nl, out);
	print("layers", "a2d", &v, q, (unsigned)nl, out);
	tex_free(&T);
	td.flags = CU_TRSF_NORMALIZED_COORDINATES;
	T = tex_array(4, 4, 12, CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
	for (int i = 0; i < nl; i++)
		q[i] = qf(layers[i], bits(1), bits(0.3f), bits(-0.6f));
	v.geom = GACUBE;
	run(&v, T.t, q, (unsigned)nl, out);
	print("layers", "acube", &v, q, (unsigned)nl, out);
	tex_free(&T);
}

/* Mipmaps: a 2D chain of 5 levels (16x16 .. 1x1), each texel its level
 * times 1000 plus its position; tex.level across the level boundaries,
 * tex.grad across gradients, both mipmap filters; bias and clamps. */
static void g_mip(void)
{
	static float tx[16 * 16 + 8 * 8 + 4 * 4 + 2 * 2 + 1];
	int k = 0;
	for (int l = 0; l < 5; l++)
		for (int i = 0; i < (16 >> l) * (16 >> l); i++)
			tx[k++] = (float)(l * 1000 + i);
	static Q q[256];
	static uint32_t out[8 * 256];
	for (int mf = 0; mf < 2; mf++)
		for (int setting = 0; setting < 2; setting++) {
			CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR,
						    CU_TRSF_NORMALIZED_COORDINATES);
			td.mipmapFilterMode = (CUfilter_mode)mf;
			td.maxMipmapLevelClamp = setting ? 2.75f : 16;
			td.minMipmapLevelClamp = setting ? 0.25f : 0;
			td.mipmapLevelBias = setting ? 0.375f : 0;
			Tex T = tex_array(16, 16, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 5);
			int n = 0;
			for (int i = -8; i <= 40 * 4; i++) {
				q[n] = qf(bits(0.3f), bits(0.6f), 0, 0);
				q[n++].w[4] = bits((float)i / 32.0f);
			}
			Variant v = { "tex", G2D, 0, 1, "f32", 0, 0 };
			run(&v, T.t, q, (unsigned)n, out);
			char cs[32];
			snprintf(cs, sizeof cs, "level-%s-%d", mf ? "linear" : "point", setting);
			print("mip", cs, &v, q, (unsigned)n, out);
			n = 0;
			for (int i = 0; i < 64; i++) {
				float g = ldexpf(1.0f + (float)(i % 8) / 8.0f, i / 8 - 6);
				q[n] = qf(bits(0.3f), bits(0.6f), 0, 0);
				q[n].w[5] = bits(g), q[n].w[6] = 0;
				q[n].w[8] = 0, q[n].w[9] = bits(g * (i & 1 ? 0.5f : 1.0f));
				n++;
			}
			v.mip = 2;
			run(&v, T.t, q, (unsigned)n, out);
			snprintf(cs, sizeof cs, "grad-%s-%d", mf ? "linear" : "point", setting);
			print("mip", cs, &v, q, (unsigned)n, out);
			tex_free(&T);
		}
}

/* tld4: the four texels of the bilinear footprint, each component, in
 * the order the hardware returns them. */
static void g_gather(void)
{
	static float tx[4 * 4 * 4];
	for (int i = 0; i < 64; i++)
		tx[i] = (float)((i / 4) * 10 + i % 4);
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_POINT, 0);
	td.borderColor[0] = -1, td.borderColor[1] = -2, td.borderColor[2] = -3, td.borderColor[3] = -4;
	Tex T = tex_array(4, 4, 0, CUDA_ARRAY3D_TEXTURE_GATHER, CU_AD_FORMAT_FLOAT, 4, tx, &td, 0);
	static Q q[64];
	static uint32_t out[8 * 64];
	int n = 0;
	for (int j = 0; j < 6; j++)
		for (int i = 0; i < 6; i++)
			q[n++] = qf(bits((float)i * 0.8f - 0.3f), bits((float)j * 0.75f - 0.2f), 0, 0);
	for (int c = 0; c < 4; c++) {
		char op[8];
		snprintf(op, sizeof op, "tld4.%c", "rgba"[c]);
		Variant v = { op, G2D, 0, 0, "f32", 0, 0 };
		run(&v, T.t, q, (unsigned)n, out);
		print("gather", op, &v, q, (unsigned)n, out);
	}
	tex_free(&T);
}

/* Texel fetches: tex1Dfetch of linear memory in and out of range; .s32
 * coordinates on an array under clamp and border; offsets. */
static void g_fetch(void)
{
	int32_t lin[10];
	for (int i = 0; i < 10; i++)
		lin[i] = 100 + i;
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
	Tex T = tex_linear(CU_AD_FORMAT_SIGNED_INT32, 1, lin, sizeof lin, &td);
	static Q q[64];
	static uint32_t out[8 * 64];
	static const int32_t xs[] = { 0, 1, 9, 10, 11, -1, -2, 1000, -1000, 0x7fffffff, (int32_t)0x80000000 };
	int n = (int)(sizeof xs / sizeof xs[0]);
	for (int i = 0; i < n; i++)
		q[i] = qf((uint32_t)xs[i], 0, 0, 0);
	Variant v = { "tex", G1D, 1, 0, "s32", 0, 0 };
	run(&v, T.t, q, (unsigned)n, out);
	print("fetch", "linear", &v, q, (unsigned)n, out);
	tex_free(&T);
	static int32_t arr[5 * 4];
	for (int i = 0; i < 20; i++)
		arr[i] = i;
	for (int am = 1; am < 4; am += 2) {
		td = desc((CUaddress_mode)am, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
		td.borderColor[0] = 2.0f;
		T = tex_array(5, 4, 0, 0, CU_AD_FORMAT_SIGNED_INT32, 1, arr, &td, 0);
		n = 0;
		for (int i = 0; i < 11; i++) {
			q[n] = qf((uint32_t)xs[i], (uint32_t)xs[(i + 3) % 11], 0, 0);
			q[n].w[12] = (uint32_t)(i % 16 - 8);
			q[n].w[13] = (uint32_t)(7 - i % 16);
			n++;
		}
		v.geom = G2D;
		v.off = 0;
		run(&v, T.t, q, (unsigned)n, out);
		print("fetch", am == 1 ? "2d-clamp" : "2d-border", &v, q, (unsigned)n, out);
		v.off = 1;
		run(&v, T.t, q, (unsigned)n, out);
		print("fetch", am == 1 ? "2d-clamp-off" : "2d-border-off", &v, q, (unsigned)n, out);
		v.off = 0;
		tex_free(&T);
	}
}

/* txq of every field, on textures of several kinds (the kernel writes the
 * fields instead of lookups). */
static void g_txq(void)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry q(.param .u64 t, .param .u64 out)\n{\n"
		".reg .b32 %r<20>; .reg .b64 %rd<4>;\n"
		"ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out]; mov.u32 %r19, 1;\n"
		"txq.width.b32 %r1, [%rd1]; txq.height.b32 %r2, [%rd1]; txq.depth.b32 %r3, [%rd1];\n"
		"txq.channel_data_type.b32 %r4, [%rd1]; txq.channel_order.b32 %r5, [%rd1];\n"
		"txq.normalized_coords.b32 %r6, [%rd1]; txq.filter_mode.b32 %r7, [%rd1];\n"
		"txq.addr_mode_0.b32 %r8, [%rd1]; txq.addr_mode_1.b32 %r9, [%rd1]; txq.addr_mode_2.b32 %r10, [%rd1];\n"
		"txq.array_size.b32 %r11, [%rd1]; txq.num_mipmap_levels.b32 %r12, [%rd1]; txq.num_samples.b32 %r13, [%rd1];\n"
		"txq.level.width.b32 %r14, [%rd1], %r19; txq.level.height.b32 %r15, [%rd1], %r19;\n"
		"txq.level.depth.b32 %r16, [%rd1], %r19;\n"
		"st.global.v4.b32 [%rd2], {%r1, %r2, %r3, %r4}; st.global.v4.b32 [%rd2+16], {%r5, %r6, %r7, %r8};\n"
		"st.global.v4.b32 [%rd2+32], {%r9, %r10, %r11, %r12}; st.global.v4.b32 [%rd2+48], {%r13, %r14, %r15, %r16};\n"
		"ret;\n}\n";
	CUmodule m;
	CUfunction f;
	CK(load(&m, ptx));
	CK(cuModuleGetFunction(&f, m, "q"));
	CUdeviceptr d;
	CK(cuMemAlloc(&d, 64));
	static float tx[16 * 8 * 4 * 2];
	struct { const char *name; size_t w, h, dp; unsigned flags, levels, ch; CUarray_format f; unsigned tf; } ks[] = {
		{ "1d-u8x4", 16, 0, 0, 0, 0, 4, CU_AD_FORMAT_UNSIGNED_INT8, CU_TRSF_READ_AS_INTEGER },
		{ "2d-u8x4-norm", 16, 8, 0, 0, 0, 4, CU_AD_FORMAT_UNSIGNED_INT8, CU_TRSF_NORMALIZED_COORDINATES },
		{ "3d-f32", 8, 4, 2, 0, 0, 1, CU_AD_FORMAT_FLOAT, 0 },
		{ "a2d-s16x2", 8, 4, 3, CUDA_ARRAY3D_LAYERED, 0, 2, CU_AD_FORMAT_SIGNED_INT16, CU_TRSF_READ_AS_INTEGER },
		{ "cube-f16", 4, 4, 6, CUDA_ARRAY3D_CUBEMAP, 0, 1, CU_AD_FORMAT_HALF, 0 },
		{ "acube-f32", 4, 4, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 0, 1, CU_AD_FORMAT_FLOAT, 0 },
		{ "mip2d-f32", 16, 8, 0, 0, 3, 1, CU_AD_FORMAT_FLOAT, 0 },
	};
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_POINT, ks[i].tf);
		td.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR;
		td.addressMode[2] = CU_TR_ADDRESS_MODE_BORDER;
		Tex T = tex_array(ks[i].w, ks[i].h, ks[i].dp, ks[i].flags, ks[i].f, ks[i].ch, tx, &td, ks[i].levels);
		void *args[] = { &T.t, &d };
		CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		CK(cuCtxSynchronize());
		uint32_t o[16];
		CK(cuMemcpyDtoH(o, d, sizeof o));
		printf("txq %s :", ks[i].name);
		for (int k = 0; k < 16; k++)
			printf(" %08x", o[k]);
		printf("\n");
		tex_free(&T);
	}
	CK(cuMemFree(d));
	CK(cuModuleUnload(m));
}

/* Depth compare: the reference against f32 texels, point and linear. */
static void g_depth(void)
{
	float tx[9] = { 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f };
	static Q q[64];
	static uint32_t out[8 * 64];
	for (int fm = 0; fm < 2; fm++) {
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, (CUfilter_mode)fm, 0);
		Tex T = tex_array(3, 3, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
		int n = 0;
		for (int i = 0; i < 40; i++) {
			q[n] = qf(bits(0.5f + (float)(i % 5) * 0.4f), bits(0.5f + (float)(i / 5 % 3) * 0.6f), 0, 0);
			q[n++].w[11] = bits((float)(i % 11) * 0.1f - 0.05f * (float)(i % 2));
		}
		Variant v = { "tex", G2D, 0, 0, "f32", 0, 1 };
		run(&v, T.t, q, (unsigned)n, out);
		print("depth", fm ? "linear" : "point", &v, q, (unsigned)n, out);
		Variant g = { "tld4.r", G2D, 0, 0, "f32", 0, 1 };
		run(&g, T.t, q, (unsigned)n, out);
		print("depth", fm ? "gather-linear" : "gather-point", &g, q, (unsigned)n, out);
		tex_free(&T);
	}
}

/* .f16 results of float and integer textures. */
static void g_half(void)
{
	float tx[8] = { 0.1f, 65504, 65520, 1e-7f, -2.5f, 1e-5f, 3.0e-8f, 1.0f / 3 };
	int32_t it[8] = { 1, -1, 65535, 70000, -32769, 0x12345678, 0, 0x8000 };
	static Q q[16];
	static uint32_t out[8 * 16];
	for (int i = 0; i < 8; i++)
		q[i] = qf(bits((float)i + 0.5f), 0, 0, 0);
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
	Tex T = tex_array(8, 0, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
	Variant v = { "tex", G1D, 0, 0, "f16", 0, 0 };
	run(&v, T.t, q, 8, out);
	print("half", "f32", &v, q, 8, out);
	tex_free(&T);
	td.flags = CU_TRSF_READ_AS_INTEGER;
	T = tex_array(8, 0, 0, 0, CU_AD_FORMAT_SIGNED_INT32, 1, it, &td, 0);
	run(&v, T.t, q, 8, out);
	print("half", "s32", &v, q, 8, out);
	tex_free(&T);
}


/* ---- diagnostic groups: each isolates one rule the groups above showed ---- */

/* The filter's arithmetic: a 2-texel pair (a, b) sampled linearly at
 * weights A/256 (A = 1, 37, 128, 200, 255) shows how b is quantised
 * against a when their exponents lie 20 .. 31 apart (either sign); 2D
 * filtering of 8- and 16-bit signed normalized, f16, 4-channel unorm8,
 * 2-channel f32 and sRGB texels; a 2x2x2 f32 3D texture. */
static void g_xfilter(void)
{
	static Q q[256];
	static uint32_t out[8 * 256];
	static const int as[] = { 1, 37, 128, 200, 255 };
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
	Variant v2 = { "tex", G2D, 0, 0, "f32", 0, 0 };
	for (int gap = 20; gap <= 31; gap++)
		for (int sg = 0; sg < 2; sg++) {
			float tx[2] = { 1.6180339f * 4096.0f, (sg ? -1.0f : 1.0f) * ldexpf(1.4142135f, 12 - gap) };
			Tex T = tex_array(2, 1, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
			int n = 0;
			for (int i = 0; i < 5; i++)
				q[n++] = qf(bits(0.5f + (float)as[i] / 256.0f), bits(0.5f), 0, 0);
			run(&v2, T.t, q, (unsigned)n, out);
			char cs[32];
			snprintf(cs, sizeof cs, "gap%d%s", gap, sg ? "-neg" : "");
			print("xfilter", cs, &v2, q, (unsigned)n, out);
			tex_free(&T);
		}
	/* 2D filtering of more formats, on a 10 x 10 grid */
	int n = 0;
	for (int j = 0; j < 10; j++)
		for (int i = 0; i < 10; i++)
			q[n++] = qf(bits(0.3f + (float)i * 0.2265625f + (float)(i % 3) / 1024.0f),
				    bits(0.55f + (float)j * 0.1953125f + (float)(j % 4) / 2048.0f), 0, 0);
	int8_t s8[9] = { -128, 127, -127, 0, 1, -1, 64, -77, 100 };
	int16_t s16[9] = { -32768, 32767, -32767, 0, 1, -1, 1234, -20000, 30000 };
	uint16_t f16[9] = { 0x3c00, 0xc500, 0x3555, 0x0001, 0x7bff, 0x2e66, 0x8400, 0x4900, 0xb800 };
	uint8_t u8x4[36];
	for (int i = 0; i < 36; i++)
		u8x4[i] = (uint8_t)(i * 73 + 11);
	float f2[18];
	for (int i = 0; i < 9; i++)
		f2[2 * i] = (float)(i * 37 % 11) - 4.5f, f2[2 * i + 1] = ldexpf((float)(i * 53 % 7) + 0.1f, 20 - 3 * i);
	struct { const char *name; CUarray_format f; unsigned ch; const void *data; unsigned flags; } fm[] = {
		{ "snorm8", CU_AD_FORMAT_SIGNED_INT8, 1, s8, 0 }, { "snorm16", CU_AD_FORMAT_SIGNED_INT16, 1, s16, 0 },
		{ "f16", CU_AD_FORMAT_HALF, 1, f16, 0 }, { "unorm8x4", CU_AD_FORMAT_UNSIGNED_INT8, 4, u8x4, 0 },
		{ "f32x2", CU_AD_FORMAT_FLOAT, 2, f2, 0 }, { "srgb8x4", CU_AD_FORMAT_UNSIGNED_INT8, 4, u8x4, CU_TRSF_SRGB } };
	for (size_t k = 0; k < sizeof fm / sizeof fm[0]; k++) {
		CUDA_TEXTURE_DESC t2 = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, fm[k].flags);
		Tex T = tex_array(3, 3, 0, 0, fm[k].f, fm[k].ch, fm[k].data, &t2, 0);
		run(&v2, T.t, q, (unsigned)n, out);
		print("xfilter", fm[k].name, &v2, q, (unsigned)n, out);
		tex_free(&T);
	}
	/* a 3D texture: the order of the weights' rounding */
	float t3[8] = { 1, 10, 100, 1000, 10000, 100000, 1e6f, 1e7f };
	Tex T = tex_array(2, 2, 2, 0, CU_AD_FORMAT_FLOAT, 1, t3, &td, 0);
	n = 0;
	for (int i = 0; i < 27; i++)
		q[n++] = qf(bits(0.5f + (float)(i % 3 * 61 + 17) / 256.0f), bits(0.5f + (float)(i / 3 % 3 * 83 + 29) / 256.0f),
			    bits(0.5f + (float)(i / 9 * 71 + 43) / 256.0f), 0);
	Variant v3 = { "tex", G3D, 0, 0, "f32", 0, 0 };
	run(&v3, T.t, q, (unsigned)n, out);
	print("xfilter", "3d", &v3, q, (unsigned)n, out);
	tex_free(&T);
}

/* Coordinates near texel boundaries: unnormalized x = k -+ 2^-e, and
 * normalized ones near k/N on textures of 3, 5, 7 and 10 texels, point
 * and linear; f16 NaNs, signalling and quiet. */
static void g_xcoord(void)
{
	static Q q[256];
	static uint32_t out[8 * 256];
	float tx[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	Variant v = { "tex", G2D, 0, 0, "f32", 0, 0 };
	for (int fm = 0; fm < 2; fm++) {
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, (CUfilter_mode)fm, 0);
		Tex T = tex_array(10, 1, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
		int n = 0;
		for (int e = 4; e <= 22; e += 2) {
			q[n++] = qf(bits(3.0f - ldexpf(1, -e)), bits(0.5f), 0, 0);
			q[n++] = qf(bits(3.0f + ldexpf(1, -e)), bits(0.5f), 0, 0);
			q[n++] = qf(bits(3.5f - ldexpf(1, -e)), bits(0.5f), 0, 0);
		}
		run(&v, T.t, q, (unsigned)n, out);
		print("xcoord", fm ? "unnorm-linear" : "unnorm-point", &v, q, (unsigned)n, out);
		tex_free(&T);
	}
	static const int ns[] = { 3, 5, 7, 10 };
	for (int fm = 0; fm < 2; fm++)
		for (int w = 0; w < 4; w++) {
			CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, (CUfilter_mode)fm, CU_TRSF_NORMALIZED_COORDINATES);
			Tex T = tex_array((size_t)ns[w], 1, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
			int n = 0;
			for (int k = 1; k < ns[w]; k++) {
				float u = (float)k / (float)ns[w];
				if (fm)
					u = ((float)k - 0.5f + 0.3f) / (float)ns[w];
				for (int d = -3; d <= 3; d++)
					q[n++] = qf(bits(u) + (uint32_t)d, bits(0.5f), 0, 0);
			}
			run(&v, T.t, q, (unsigned)n, out);
			char cs[32];
			snprintf(cs, sizeof cs, "norm%d-%s", ns[w], fm ? "linear" : "point");
			print("xcoord", cs, &v, q, (unsigned)n, out);
			tex_free(&T);
		}
	uint16_t h[8] = { 0x7c01, 0xfc01, 0x7d00, 0x7e00, 0xfe00, 0x7fff, 0x7c00, 0x8000 };
	CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
	Tex T = tex_array(8, 0, 0, 0, CU_AD_FORMAT_HALF, 1, h, &td, 0);
	for (int i = 0; i < 8; i++)
		q[i] = qf(bits((float)i + 0.5f), 0, 0, 0);
	Variant v1 = { "tex", G1D, 0, 0, "f32", 0, 0 };
	run(&v1, T.t, q, 8, out);
	print("xcoord", "f16-nan", &v1, q, 8, out);
	tex_free(&T);
}

/* .s32 coordinates in range and out, with offsets, under each address
 * mode, on a 2D array and a 1D array. */
static void g_xfetch(void)
{
	static int32_t arr[5 * 4];
	for (int i = 0; i < 20; i++)
		arr[i] = i + 1;
	static Q q[64];
	static uint32_t out[8 * 64];
	static const int32_t xy[][2] = { { 0, 0 }, { 4, 3 }, { 2, 1 }, { 5, 0 }, { 0, 4 }, { -1, 0 }, { 0, -1 }, { 3, 2 } };
	static const int32_t of[][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { -1, -1 }, { 2, 3 }, { -3, 1 } };
	for (int am = 0; am < 4; am++) {
		CUDA_TEXTURE_DESC td = desc((CUaddress_mode)am, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
		td.borderColor[0] = 2.0f;
		Tex T = tex_array(5, 4, 0, 0, CU_AD_FORMAT_SIGNED_INT32, 1, arr, &td, 0);
		int n = 0;
		for (int i = 0; i < 8; i++)
			for (int o = 0; o < 6; o++) {
				q[n] = qf((uint32_t)xy[i][0], (uint32_t)xy[i][1], 0, 0);
				q[n].w[12] = (uint32_t)of[o][0];
				q[n].w[13] = (uint32_t)of[o][1];
				n++;
			}
		Variant v = { "tex", G2D, 1, 0, "s32", 1, 0 };
		run(&v, T.t, q, (unsigned)n, out);
		static const char *const mn[] = { "wrap", "clamp", "mirror", "border" };
		print("xfetch", mn[am], &v, q, (unsigned)n, out);
		tex_free(&T);
	}
}

/* Seamless cube corners and edges: directions (1, a, b) near the corner
 * of +x, +y and +z, linear, seamless or not. */
static void g_xcube(void)
{
	enum { N = 8 };
	static float tx[6 * N * N];
	for (int i = 0; i < 6 * N * N; i++)
		tx[i] = (float)(i / (N * N)) * 100 + (float)(i % (N * N));
	static const float ab[] = { 0.75f, 0.875f, 0.9375f, 0.96875f, 0.99f, 1.0f };
	static Q q[64];
	static uint32_t out[8 * 64];
	for (int seam = 0; seam < 2; seam++) {
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR,
					    CU_TRSF_NORMALIZED_COORDINATES | (seam ? CU_TRSF_SEAMLESS_CUBEMAP : 0));
		Tex T = tex_array(N, N, 6, CUDA_ARRAY3D_CUBEMAP, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
		int n = 0;
		for (int i = 0; i < 6; i++)
			for (int j = 0; j < 6; j++)
				q[n++] = qf(bits(1), bits(ab[i]), bits(ab[j]), 0);
		Variant v = { "tex", GCUBE, 0, 0, "f32", 0, 0 };
		run(&v, T.t, q, (unsigned)n, out);
		print("xcube", seam ? "seamless" : "plain", &v, q, (unsigned)n, out);
		tex_free(&T);
	}
}

/* txq one query per module: the GPU's JIT refused g_txq's module as a
 * whole (CUDA_ERROR_NOT_FOUND); this finds the query it refuses. */
static void g_xtxq(void)
{
	static const char *const qs[] = {
		"width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
		"filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "array_size", "num_mipmap_levels",
		"num_samples", "level.width", "level.height", "level.depth",
	};
	CUdeviceptr d;
	CK(cuMemAlloc(&d, 16));
	static float tx[16 * 8 * 4 * 2];
	for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++) {
		char ptx[1024];
		int lvl = !strncmp(qs[q], "level.", 6);
		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry q(.param .u64 t, .param .u64 out)\n{\n"
			 ".reg .b32 %%r<4>; .reg .b64 %%rd<4>;\n"
			 "ld.param.u64 %%rd1, [t]; ld.param.u64 %%rd2, [out]; mov.u32 %%r2, 1;\n"
			 "txq.%s.b32 %%r1, [%%rd1]%s;\nst.global.b32 [%%rd2], %%r1;\nret;\n}\n",
			 qs[q], lvl ? ", %r2" : "");
		CUmodule m;
		CUfunction f;
		CUresult r = load(&m, ptx);
		if (!r)
			r = cuModuleGetFunction(&f, m, "q");
		if (r) {
			const char *name = NULL;
			cuGetErrorName(r, &name);
			printf("xtxq %s : error %s\n", qs[q], name ? name : "?");
			continue;
		}
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_POINT, 0);
		Tex T = tex_array(16, 8, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 3);
		void *args[] = { &T.t, &d };
		uint32_t o = 0;
		CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(&o, d, sizeof o));
		printf("xtxq %s : %08x\n", qs[q], o);
		tex_free(&T);
		CK(cuModuleUnload(m));
	}
	CK(cuMemFree(d));
}

/* What the other groups left open, each case built so that its rule reads
 * off the results: a weight of 0 next to infinite texels; a border texel
 * mixed with normalized integer ones; coordinates past 2^20 texels (wrap);
 * normalized coordinates on wide textures; lod's fractional bits and the
 * LOD of diagonal and anisotropic gradients (on a chain whose level l is
 * 256·l everywhere, so a result is 256·λ); snorm8 expansion (every value
 * at a texel centre) and snorm8 sums at 17 weights; tld4 at seamless cube
 * corners (last: the GPU may refuse a gather array that is a cubemap). */
static void g_xmore(void)
{
	static Q q[256];
	static uint32_t out[8 * 256];
	Variant v1 = { "tex", G1D, 0, 0, "f32", 0, 0 }, v2 = { "tex", G2D, 0, 0, "f32", 0, 0 };
	int n = 0;
	/* weight 0 next to infinities and NaN: centres, and 1/256 past them */
	{
		float tx[6] = { 1, INFINITY, -INFINITY, NAN, 2, 3 };
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
		Tex T = tex_array(6, 0, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
		n = 0;
		for (int i = 0; i < 6; i++) {
			q[n++] = qf(bits((float)i + 0.5f), 0, 0, 0);
			q[n++] = qf(bits((float)i + 0.5f + 1.0f / 256), 0, 0, 0);
			q[n++] = qf(bits((float)i + 0.5f - 1.0f / 4096), 0, 0, 0);
		}
		run(&v1, T.t, q, (unsigned)n, out);
		print("xmore", "zero-weight", &v1, q, (unsigned)n, out);
		tex_free(&T);
	}
	/* a border texel beside normalized integers: x from -0.5 to 0.5 */
	{
		uint8_t u8[2] = { 255, 77 };
		uint16_t u16[2] = { 65535, 4321 };
		struct { const char *name; CUarray_format f; const void *d; float bc; } bm[] = {
			{ "border-unorm8", CU_AD_FORMAT_UNSIGNED_INT8, u8, 0.3f },
			{ "border-unorm16", CU_AD_FORMAT_UNSIGNED_INT16, u16, 0.3f },
			{ "border-unorm8-third", CU_AD_FORMAT_UNSIGNED_INT8, u8, 1.0f / 3 } };
		for (int k = 0; k < 3; k++) {
			CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_LINEAR, 0);
			td.borderColor[0] = bm[k].bc;
			Tex T = tex_array(2, 0, 0, 0, bm[k].f, 1, bm[k].d, &td, 0);
			n = 0;
			for (int i = 0; i <= 16; i++)
				q[n++] = qf(bits(-0.5f + (float)i / 16 + (i % 2 ? 1.0f / 512 : 0)), 0, 0, 0);
			run(&v1, T.t, q, (unsigned)n, out);
			print("xmore", bm[k].name, &v1, q, (unsigned)n, out);
			tex_free(&T);
		}
	}
	/* normalized wrap far out: u = +-(2^k + f) on 8 texels 1, 2, 4 .. 128 */
	{
		float tx[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
		for (int fm = 0; fm < 2; fm++) {
			CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_WRAP, (CUfilter_mode)fm, CU_TRSF_NORMALIZED_COORDINATES);
			Tex T = tex_array(8, 0, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
			n = 0;
			for (int k = 14; k <= 22; k++)
				for (int s = 0; s < 2; s++) {
					float m = s ? -ldexpf(1, k) : ldexpf(1, k);
					q[n++] = qf(bits(m + 0.3125f), 0, 0, 0);
					q[n++] = qf(bits(m + 0.703125f), 0, 0, 0);
				}
			run(&v1, T.t, q, (unsigned)n, out);
			print("xmore", fm ? "far-wrap-linear" : "far-wrap-point", &v1, q, (unsigned)n, out);
			tex_free(&T);
		}
	}
	/* normalized coordinates on textures 16384 and 65536 texels wide (texel i
	 * holds i): centres -+ ulps, and linear at (k + 0.5 + j/16) / N */
	{
		static float tx[65536];
		for (int i = 0; i < 65536; i++)
			tx[i] = (float)i;
		static const int ws[] = { 16384, 65536 };
		for (int w = 0; w < 2; w++)
			for (int fm = 0; fm < 2; fm++) {
				CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, (CUfilter_mode)fm,
							    CU_TRSF_NORMALIZED_COORDINATES);
				Tex T = tex_array((size_t)ws[w], 1, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 0);
				n = 0;
				static const int ks[] = { 1, 777, 4097, 12345 };
				for (int i = 0; i < 4; i++) {
					int k = ks[i] * (ws[w] / 16384);
					if (fm)
						for (int j = 0; j < 8; j++)
							q[n++] = qf(bits(((float)k + 0.5f + (float)(2 * j + 1) / 16.0f) / (float)ws[w]),
								    bits(0.5f), 0, 0);
					else
						for (int d = -2; d <= 2; d++)
							q[n++] = qf(bits((float)k / (float)ws[w]) + (uint32_t)d, bits(0.5f), 0, 0);
				}
				run(&v2, T.t, q, (unsigned)n, out);
				char cs[32];
				snprintf(cs, sizeof cs, "wide%d-%s", ws[w], fm ? "linear" : "point");
				print("xmore", cs, &v2, q, (unsigned)n, out);
				tex_free(&T);
			}
	}
	/* lod and gradients on a 64x64 chain, level l = 256·l: results are 256·λ */
	{
		static float tx[4096 + 1024 + 256 + 64 + 16 + 4 + 1];
		int k = 0;
		for (int l = 0; l < 7; l++)
			for (int i = 0; i < (64 >> l) * (64 >> l); i++)
				tx[k++] = (float)(256 * l);
		for (int an = 0; an < 2; an++) {
			CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR,
						    CU_TRSF_NORMALIZED_COORDINATES);
			td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
			td.maxMipmapLevelClamp = 16;
			td.maxAnisotropy = an ? 16 : 0;
			Tex T = tex_array(64, 64, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 7);
			Variant v = { "tex", G2D, 0, 1, "f32", 0, 0 };
			if (!an) {
				/* lod = 1 + (2j + 1)/1024 -+ 2^-14 (ties of 9 bits, either side) and 1 + j/4096 */
				n = 0;
				for (int j = 0; j < 16; j++) {
					float t = 1.0f + (float)(2 * j + 1) / 1024.0f;
					q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(t);
					q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(t - 1.0f / 16384);
					q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(t + 1.0f / 16384);
				}
				for (int j = 0; j < 16; j++)
					q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(2.0f + (float)j / 4096.0f);
				run(&v, T.t, q, (unsigned)n, out);
				print("xmore", "lod", &v, q, (unsigned)n, out);
			}
			/* gradients (in 1/64 units g): diagonal dx = (g, g), dy = (-g, g);
			 * dx = (g, 0), dy = (0, g/r); dx = (g, h), dy = (h, g) */
			n = 0;
			for (int i = 0; i < 8; i++) {
				float g = ldexpf(1.0f + (float)i / 8.0f, -5);
				q[n] = qf(bits(0.3f), bits(0.6f), 0, 0);
				q[n].w[5] = bits(g), q[n].w[6] = bits(g), q[n].w[8] = bits(-g), q[n].w[9] = bits(g);
				n++;
			}
			static const float rs[] = { 1, 1.5f, 2, 3, 4, 6, 8, 12, 16, 24, 32 };
			for (int i = 0; i < 11; i++) {
				float g = ldexpf(1, -3);
				q[n] = qf(bits(0.3f), bits(0.6f), 0, 0);
				q[n].w[5] = bits(g), q[n].w[6] = 0, q[n].w[8] = 0, q[n].w[9] = bits(g / rs[i]);
				n++;
			}
			for (int i = 0; i < 8; i++) {
				float g = ldexpf(1, -4), h = g * (float)i / 8.0f;
				q[n] = qf(bits(0.3f), bits(0.6f), 0, 0);
				q[n].w[5] = bits(g), q[n].w[6] = bits(h), q[n].w[8] = bits(h), q[n].w[9] = bits(g);
				n++;
			}
			v.mip = 2;
			run(&v, T.t, q, (unsigned)n, out);
			print("xmore", an ? "grad-aniso16" : "grad", &v, q, (unsigned)n, out);
			tex_free(&T);
		}
	}
	/* snorm8: every value at a texel centre (4 channels), then pairs at 17 weights */
	{
		int8_t all[256];
		for (int i = 0; i < 256; i++)
			all[i] = (int8_t)(i - 128);
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
		Tex T = tex_array(64, 0, 0, 0, CU_AD_FORMAT_SIGNED_INT8, 4, all, &td, 0);
		n = 0;
		for (int i = 0; i < 64; i++)
			q[n++] = qf(bits((float)i + 0.5f), 0, 0, 0);
		run(&v1, T.t, q, (unsigned)n, out);
		print("xmore", "snorm8-centre", &v1, q, (unsigned)n, out);
		tex_free(&T);
		static const int8_t pairs[2][8] = { { -1, -77, 100, -128, -3, -127, 1, 64 },
						    { 0, 0, -50, 127, 0, -126, 0, -65 } };
		for (int p = 0; p < 2; p++) {
			int8_t d[8] = { pairs[0][4 * p], pairs[0][4 * p + 1], pairs[0][4 * p + 2], pairs[0][4 * p + 3],
					pairs[1][4 * p], pairs[1][4 * p + 1], pairs[1][4 * p + 2], pairs[1][4 * p + 3] };
			Tex P = tex_array(2, 0, 0, 0, CU_AD_FORMAT_SIGNED_INT8, 4, d, &td, 0);
			n = 0;
			for (int i = 0; i <= 16; i++)
				q[n++] = qf(bits(0.5f + (float)(i * 16 - (i == 16)) / 256.0f + (i == 0 ? 1.0f / 256 : 0)), 0, 0, 0);
			run(&v1, P.t, q, (unsigned)n, out);
			print("xmore", p ? "snorm8-pairs1" : "snorm8-pairs0", &v1, q, (unsigned)n, out);
			tex_free(&P);
		}
	}
	/* tld4 near the corner of +x, +y, +z of a seamless cubemap */
	{
		enum { N = 4 };
		static float tx[6 * N * N];
		for (int i = 0; i < 6 * N * N; i++)
			tx[i] = (float)(i / (N * N)) * 100 + (float)(i % (N * N));
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR,
					    CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SEAMLESS_CUBEMAP);
		Tex T = tex_array(N, N, 6, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER, CU_AD_FORMAT_FLOAT, 1, tx,
				  &td, 0);
		static const float ab[] = { 0.5f, 0.9f, 1.0f };
		n = 0;
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				q[n++] = qf(bits(1), bits(ab[i]), bits(ab[j]), 0);
		Variant v = { "tld4.r", GCUBE, 0, 0, "f32", 0, 0 };
		run(&v, T.t, q, (unsigned)n, out);
		print("xmore", "tld4-cube", &v, q, (unsigned)n, out);
		tex_free(&T);
	}
}

/* More of what xmore asks, added after its recording: lod ties of 8 bits
 * and 9 bits and λ past 8 fractional bits (on a 64x64 chain whose level l
 * is 256·l everywhere, so a result is 256·λ); unnormalized coordinates on
 * levels past 0; snorm8 pairs at 33 weights, odd ones included. */
static void g_xmore2(void)
{
	static Q q[256];
	static uint32_t out[8 * 256];
	Variant v1 = { "tex", G1D, 0, 0, "f32", 0, 0 };
	int n = 0;
	{
		static float tx[4096 + 1024 + 256 + 64 + 16 + 4 + 1];
		int k = 0;
		for (int l = 0; l < 7; l++)
			for (int i = 0; i < (64 >> l) * (64 >> l); i++)
				tx[k++] = (float)(256 * l);
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR,
					    CU_TRSF_NORMALIZED_COORDINATES);
		td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
		td.maxMipmapLevelClamp = 16;
		Tex T = tex_array(64, 64, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 7);
		Variant v = { "tex", G2D, 0, 1, "f32", 0, 0 };
		/* lod = 1 + (2j + 1)/512 and 1 + (2j + 1)/1024 -+ 2^-14 (ties of 8
		 * and 9 bits, either side) and 2 + j/4096 */
		n = 0;
		for (int j = 0; j < 16; j++) {
			float t = 1.0f + (float)(2 * (j % 8) + 1) / (j < 8 ? 512.0f : 1024.0f);
			q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(t);
			q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(t - 1.0f / 16384);
			q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(t + 1.0f / 16384);
		}
		for (int j = 0; j < 16; j++)
			q[n] = qf(bits(0.3f), bits(0.6f), 0, 0), q[n++].w[4] = bits(2.0f + (float)j / 4096.0f);
		run(&v, T.t, q, (unsigned)n, out);
		print("xmore2", "lod", &v, q, (unsigned)n, out);
		tex_free(&T);
	}
	/* unnormalized coordinates on levels 1 .. 3 of a 16x16 chain (texel i of
	 * level l holds 1000·l + i), point: scaled to the level, or not? */
	{
		static float tx[16 * 16 + 8 * 8 + 4 * 4 + 2 * 2 + 1];
		int k = 0;
		for (int l = 0; l < 5; l++)
			for (int i = 0; i < (16 >> l) * (16 >> l); i++)
				tx[k++] = (float)(l * 1000 + i);
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
		td.maxMipmapLevelClamp = 16;
		Tex T = tex_array(16, 16, 0, 0, CU_AD_FORMAT_FLOAT, 1, tx, &td, 5);
		static const float xy[][2] = { { 5.5f, 9.25f }, { 7.75f, 3.5f }, { 1.5f, 14.5f } };
		n = 0;
		for (int l = 0; l < 4; l++)
			for (int i = 0; i < 3; i++) {
				q[n] = qf(bits(xy[i][0]), bits(xy[i][1]), 0, 0);
				q[n++].w[4] = bits((float)l);
			}
		Variant v = { "tex", G2D, 0, 1, "f32", 0, 0 };
		run(&v, T.t, q, (unsigned)n, out);
		print("xmore2", "unnorm-level", &v, q, (unsigned)n, out);
		tex_free(&T);
	}
	{
		CUDA_TEXTURE_DESC td = desc(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
		static const int8_t pairs[2][8] = { { -1, -77, 100, -128, -3, -127, 1, 64 },
						    { 0, 0, -50, 127, 0, -126, 0, -65 } };
		for (int p = 0; p < 2; p++) {
			int8_t d[8] = { pairs[0][4 * p], pairs[0][4 * p + 1], pairs[0][4 * p + 2], pairs[0][4 * p + 3],
					pairs[1][4 * p], pairs[1][4 * p + 1], pairs[1][4 * p + 2], pairs[1][4 * p + 3] };
			Tex P = tex_array(2, 0, 0, 0, CU_AD_FORMAT_SIGNED_INT8, 4, d, &td, 0);
			n = 0;
			for (int i = 0; i <= 32; i++)      /* weights 1 .. 255, odd and even */
				q[n++] = qf(bits(0.5f + (float)(i == 0 ? 1 : i == 32 ? 255 : 8 * i - i % 2) / 256.0f), 0, 0, 0);
			run(&v1, P.t, q, (unsigned)n, out);
			print("xmore2", p ? "snorm8-pairs1" : "snorm8-pairs0", &v1, q, (unsigned)n, out);
			tex_free(&P);
		}
	}
}

static const struct { const char *name; void (*run)(void); } groups[] = {
	{ "alpha", g_alpha }, { "bilinear", g_bilinear }, { "formats", g_formats }, { "address", g_address },
	{ "cube", g_cube }, { "layers", g_layers }, { "mip", g_mip }, { "gather", g_gather },
	{ "fetch", g_fetch }, { "txq", g_txq }, { "xtxq", g_xtxq }, { "depth", g_depth }, { "half", g_half },
	{ "xfilter", g_xfilter }, { "xcoord", g_xcoord }, { "xfetch", g_xfetch }, { "xcube", g_xcube },
	{ "xmore", g_xmore }, { "xmore2", g_xmore2 },
};

/* probe [GROUP]: every group, or one; probe --groups: their names */
int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	CUdevice dev;
	if (only && !strcmp(only, "--groups")) {
		for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
			printf("%s\n", groups[i].name);
		return 0;
	}
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
		if (want(only, groups[i].name))
			groups[i].run();
	CK(cuDevicePrimaryCtxRelease(dev));
	return 0;
}
