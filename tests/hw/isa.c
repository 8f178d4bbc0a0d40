/* isa.c: instruction ground truth.  The results that the PTX manual leaves
 * open and docs/FLOAT.md, docs/ATOM.md and docs/EXECUTION.md mark "to
 * confirm on hardware" -- NaN results and payloads, signed zeros in
 * min/max, .sat and .ftz, float to integer saturation, f8/tf32/packed
 * conversions, fma.oob, float atomics, the order and precision of mma
 * sums, integer division by zero -- computed by small kernels made through
 * the CUDA driver API alone (cuda.h) and printed one line per result.
 *
 * Built against NVIDIA's libcuda on a machine with a GPU, its output is a
 * golden file (tests/hw/golden/NAME.isa.txt); built against ptxvm's
 * libcuda.so.1 it must print the same bytes.  tests/hw/run.sh builds it and
 * compares; tests/hw/README.md says how to record.
 *
 *   isa [GROUP]        every group, or one (f32 f16 bf16 f64 cvt fp8 tf32
 *                      oob int atom misc surf surfx mma mma.sp wmma wgmma mmax wmmax
 *                      wgmmax; mad1x and wmmaalign only when named, until
 *                      a GPU has recorded them); isa --groups: their
 *                      names (run.sh runs each group in its own process, so
 *                      that an error that spoils the context spoils one group)
 *
 * Each line: GROUP CASE INPUTS : RESULTS, in hex at the width of their
 * type.  A module that does not load or a launch that fails prints
 * "GROUP CASE : error NAME" (the JIT's log on stderr) and the probe goes
 * on with the next one.  With ISA_PTX_DIR set, each case's PTX is written
 * there as GROUP-CASE.ptx (to check it with ptxas).
 */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static CUdevice dev;
static CUcontext ctx;

static const char *errname(CUresult r)
{
	const char *name = NULL;
	cuGetErrorName(r, &name);
	return name ? name : "?";
}

/* cuModuleLoadData, with the JIT's log on stderr when it refuses the PTX
 * (stdout compares GPU and ptxvm; their logs differ) */
static CUresult load(CUmodule *m, const char *ptx, const char *group, const char *cs)
{
	static char log[4096];
	CUjit_option o[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *v[] = { log, (void *)(uintptr_t)sizeof log };
	log[0] = 0;
	const char *dir = getenv("ISA_PTX_DIR"); /* to check the PTX with ptxas */
	if (dir) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s-%s.ptx", dir, group, cs);
		FILE *f = fopen(path, "w");
		if (f) {
			fputs(ptx, f);
			fclose(f);
		}
	}
	CUresult r = cuModuleLoadDataEx(m, ptx, 2, o, v);
	if (r)
		fprintf(stderr, "%s %s: %s: %s\n", group, cs, errname(r), log);
	return r;
}

/* One CTA of `threads` runs the kernel k(.param .u64 in, .param .u64 out)
 * of ptx: in's nin bytes copied to the device first, out's nout bytes
 * back after.  A failure prints "GROUP CASE : error NAME" and is returned. */
static CUresult run_k(const char *group, const char *cs, const char *ptx, const void *in, size_t nin, void *out,
		      size_t nout, unsigned threads)
{
	CUmodule mod;
	CUfunction f;
	CUdeviceptr din = 0, dout = 0;
	CUresult r = load(&mod, ptx, group, cs);
	if (!r) {
		if (!(r = cuModuleGetFunction(&f, mod, "k")) && !(r = cuMemAlloc(&din, nin)) &&
		    !(r = cuMemAlloc(&dout, nout)) && !(r = cuMemcpyHtoD(din, in, nin))) {
			void *args[] = { &din, &dout };
			if (!(r = cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, NULL, args, NULL)) && !(r = cuCtxSynchronize()))
				r = cuMemcpyDtoH(out, dout, nout);
		}
		if (din)
			cuMemFree(din);
		if (dout)
			cuMemFree(dout);
		cuModuleUnload(mod);
	}
	if (r)
		printf("%s %s : error %s\n", group, cs, errname(r));
	return r;
}

/* ---- one instruction over a list of inputs ----------------------------------
 * A thread reads three 64-bit inputs a, b, c, which the kernel also gives
 * as 16-bit (%ha ..), 32-bit (%ia .., %fa ..) and 64-bit (%da ..)
 * registers; the instruction under test writes the result %?o (and a
 * second one %?p), whose letter the Op names: h b16, i b32, f f32,
 * d f64, l b64.  %g is an 8-byte global scratch word and %s a shared one,
 * both the thread's own; %sf a surface object (op_surface). */

typedef struct Op {
	const char *name;   /* the case, usually the instruction */
	int nin;            /* inputs used: 1..3 */
	char in, out, out2; /* widths: h i f d l; out2 0 for none */
	const char *ptx;
} Op;

static int digits(char k) { return k == 'h' ? 4 : k == 'i' || k == 'f' ? 8 : 16; }

static const char *const move_out[] = {
	/* h */ "cvt.u64.u16 %o, %ho;",
	/* i */ "cvt.u64.u32 %o, %io;",
	/* f */ "mov.b32 %io, %fo; cvt.u64.u32 %o, %io;",
	/* d */ "mov.b64 %o, %do;",
	/* l */ "",
};
static const char *const move_out2[] = {
	"cvt.u64.u16 %p, %hp;", "cvt.u64.u32 %p, %ip;", "mov.b32 %ip, %fp; cvt.u64.u32 %p, %ip;", "mov.b64 %p, %dp;", "",
};
static int kind(char k) { return k == 'h' ? 0 : k == 'i' ? 1 : k == 'f' ? 2 : k == 'd' ? 3 : 4; }

/* The surface object the kernels get as their fourth parameter (%sf). */
static CUsurfObject op_surface;

/* Runs op over n input triples (3n words), writing 2n results; 0 or the
 * error. */
static CUresult run_op(const char *group, const Op *op, const uint64_t *in, unsigned n, uint64_t *out)
{
	/* PTX 7.8 is sm_90's first; these forms came with 8.1 */
	const char *ver = strstr(op->ptx, ".oob") || strstr(op->ptx, "satfinite.tf32") ||
				  strstr(op->ptx, "satfinite.bf16x2") ? "8.1" : "7.8";
	char ptx[8192];
	snprintf(ptx, sizeof ptx,
		 ".version %s\n.target sm_90\n.address_size 64\n"
		 "%s"
		 ".visible .entry k(.param .u64 in, .param .u64 out, .param .u32 n, .param .u64 sf)\n{\n"
		 ".reg .b64 %%a, %%b, %%c, %%o, %%p, %%g, %%s, %%sf, %%rd<8>;\n"
		 ".reg .b32 %%ia, %%ib, %%ic, %%io, %%ip, %%r<8>;\n"
		 ".reg .b16 %%ha, %%hb, %%hc, %%ho, %%hp;\n"
		 ".reg .f32 %%fa, %%fb, %%fc, %%fo, %%fp;\n"
		 ".reg .f64 %%da, %%db, %%dc, %%do, %%dp;\n"
		 ".reg .pred %%q<4>;\n"
		 ".shared .align 8 .b64 sh[128];\n"
		 "ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out]; ld.param.u32 %%r1, [n]; ld.param.u64 %%sf, [sf];\n"
		 "mov.u32 %%r2, %%ctaid.x; mov.u32 %%r3, %%ntid.x; mov.u32 %%r4, %%tid.x; mad.lo.u32 %%r5, %%r2, %%r3, %%r4;\n"
		 "setp.ge.u32 %%q1, %%r5, %%r1; @%%q1 bra DONE;\n"
		 "mul.wide.u32 %%rd3, %%r5, 24; add.u64 %%rd4, %%rd1, %%rd3; add.u64 %%rd5, %%rd2, %%rd3;\n"
		 "ld.global.u64 %%a, [%%rd4]; ld.global.u64 %%b, [%%rd4+8]; ld.global.u64 %%c, [%%rd4+16];\n"
		 "cvt.u32.u64 %%ia, %%a; cvt.u32.u64 %%ib, %%b; cvt.u32.u64 %%ic, %%c;\n"
		 "cvt.u16.u64 %%ha, %%a; cvt.u16.u64 %%hb, %%b; cvt.u16.u64 %%hc, %%c;\n"
		 "mov.b32 %%fa, %%ia; mov.b32 %%fb, %%ib; mov.b32 %%fc, %%ic;\n"
		 "mov.b64 %%da, %%a; mov.b64 %%db, %%b; mov.b64 %%dc, %%c;\n"
		 "mov.u64 %%o, 0; mov.u64 %%p, 0; mov.u32 %%io, 0; mov.u32 %%ip, 0; mov.u16 %%ho, 0; mov.u16 %%hp, 0;\n"
		 "mov.f32 %%fo, 0f00000000; mov.f32 %%fp, 0f00000000; mov.f64 %%do, 0d0000000000000000; mov.f64 %%dp, 0d0000000000000000;\n"
		 "add.u64 %%g, %%rd5, 16;\n"
		 "mov.u64 %%rd6, sh; mul.wide.u32 %%rd7, %%r4, 8; add.u64 %%s, %%rd6, %%rd7;\n"
		 "%s\n"
		 "%s %s\n"
		 "st.global.u64 [%%rd5], %%o; st.global.u64 [%%rd5+8], %%p;\n"
		 "DONE:\nret;\n}\n",
		 ver, strstr(op->ptx, "malloc") ? ".extern .func (.param .b64 r) malloc (.param .b64 s);\n" : "", op->ptx, move_out[kind(op->out)], op->out2 ? move_out2[kind(op->out2)] : "");
	CUmodule m;
	CUfunction f;
	CUdeviceptr din = 0, dout = 0;
	CUresult r = load(&m, ptx, group, op->name);
	if (r)
		return r;
	if (!(r = cuModuleGetFunction(&f, m, "k")) && !(r = cuMemAlloc(&din, (size_t)n * 24)) &&
	    !(r = cuMemAlloc(&dout, (size_t)n * 24)) && !(r = cuMemcpyHtoD(din, in, (size_t)n * 24))) {
		void *args[] = { &din, &dout, &n, &op_surface };
		if (!(r = cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL)) &&
		    !(r = cuCtxSynchronize())) {
			uint64_t *o3 = malloc((size_t)n * 24);
			if (!(r = cuMemcpyDtoH(o3, dout, (size_t)n * 24)))
				for (unsigned i = 0; i < n; i++)
					out[2 * i] = o3[3 * i], out[2 * i + 1] = o3[3 * i + 1];
			free(o3);
		}
	}
	if (din)
		cuMemFree(din);
	if (dout)
		cuMemFree(dout);
	cuModuleUnload(m);
	return r;
}

/* Runs op on every combination of a from A, b from B, c from C (the sets
 * unused by its inputs are ignored) and prints a line per combination. */
static void sweep(const char *group, const Op *op, const uint64_t *A, int na, const uint64_t *B, int nb,
		  const uint64_t *C, int nc)
{
	if (op->nin < 2)
		nb = 1;
	if (op->nin < 3)
		nc = 1;
	unsigned n = (unsigned)(na * nb * nc), i = 0;
	uint64_t *in = calloc((size_t)n * 3, 8), *out = calloc((size_t)n * 2, 8);
	for (int x = 0; x < na; x++)
		for (int y = 0; y < nb; y++)
			for (int z = 0; z < nc; z++, i++) {
				in[3 * i] = A[x];
				in[3 * i + 1] = op->nin > 1 ? B[y] : 0;
				in[3 * i + 2] = op->nin > 2 ? C[z] : 0;
			}
	CUresult r = run_op(group, op, in, n, out);
	if (r)
		printf("%s %s : error %s\n", group, op->name, errname(r));
	else
		for (i = 0; i < n; i++) {
			int w = digits(op->in);
			printf("%s %s", group, op->name);
			for (int k = 0; k < op->nin; k++)
				printf(" %0*llx", w, (unsigned long long)in[3 * i + k]);
			printf(" : %0*llx", digits(op->out), (unsigned long long)out[2 * i]);
			if (op->out2)
				printf(" %0*llx", digits(op->out2), (unsigned long long)out[2 * i + 1]);
			printf("\n");
		}
	free(in);
	free(out);
}

#define N(a) ((int)(sizeof(a) / sizeof(a)[0]))

/* Special values of each type: zeros, one, -1.5, the smallest subnormals,
 * the smallest normal, the largest finite, infinities, the canonical-looking
 * NaNs, NaNs with payloads and a signalling NaN. */
static const uint64_t F32[] = { 0x00000000, 0x80000000, 0x3f800000, 0xbfc00000, 0x00000001, 0x807fffff,
				0x00800000, 0x3f7fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
				0x7fc00000, 0x7fffffff, 0xffc00001, 0x7f800001 };
static const uint64_t F16[] = { 0x0000, 0x8000, 0x3c00, 0xbe00, 0x0001, 0x83ff, 0x0400, 0x3bff,
				0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7fff, 0xfe01, 0x7c01 };
static const uint64_t BF16[] = { 0x0000, 0x8000, 0x3f80, 0xbfc0, 0x0001, 0x807f, 0x0080, 0x3f7f,
				 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7fff, 0xffc1, 0x7f81 };
static const uint64_t F64[] = { 0, 0x8000000000000000, 0x3ff0000000000000, 0xbff8000000000000, 1,
				0x800fffffffffffff, 0x0010000000000000, 0x3fefffffffffffff, 0x7fefffffffffffff,
				0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
				0x7fffffffffffffff, 0xfff8000000000001, 0x7ff0000000000001 };
/* Addends of the fused multiply-adds. */
static const uint64_t F32C[] = { 0x80000000, 0x7fffffff, 0xff800000 };
static const uint64_t F16C[] = { 0x8000, 0x7fff, 0xfc00 };
static const uint64_t BF16C[] = { 0x8000, 0x7fff, 0xff80 };
static const uint64_t F64C[] = { 0x8000000000000000, 0x7fffffffffffffff, 0xfff0000000000000 };

static int want(const char *only, const char *g) { return !only || !strcmp(only, g); }

static void each(const char *group, const Op *ops, int n, const uint64_t *S, int ns, const uint64_t *C, int nc)
{
	for (int i = 0; i < n; i++)
		sweep(group, &ops[i], S, ns, S, ns, C, nc);
}

/* Arithmetic, min/max, .sat and .ftz on special values (FLOAT.md 1-3, 6-8). */
static void g_f32(void)
{
	static const Op ops[] = {
		{ "add.rn.f32", 2, 'f', 'f', 0, "add.rn.f32 %fo, %fa, %fb;" },
		{ "mul.rn.f32", 2, 'f', 'f', 0, "mul.rn.f32 %fo, %fa, %fb;" },
		{ "mul.rn.ftz.f32", 2, 'f', 'f', 0, "mul.rn.ftz.f32 %fo, %fa, %fb;" },
		{ "div.rn.f32", 2, 'f', 'f', 0, "div.rn.f32 %fo, %fa, %fb;" },
		{ "add.rn.sat.f32", 2, 'f', 'f', 0, "add.rn.sat.f32 %fo, %fa, %fb;" },
		{ "min.f32", 2, 'f', 'f', 0, "min.f32 %fo, %fa, %fb;" },
		{ "max.f32", 2, 'f', 'f', 0, "max.f32 %fo, %fa, %fb;" },
		{ "min.NaN.f32", 2, 'f', 'f', 0, "min.NaN.f32 %fo, %fa, %fb;" },
		{ "max.NaN.f32", 2, 'f', 'f', 0, "max.NaN.f32 %fo, %fa, %fb;" },
		{ "fma.rn.f32", 3, 'f', 'f', 0, "fma.rn.f32 %fo, %fa, %fb, %fc;" },
		{ "sqrt.rn.f32", 1, 'f', 'f', 0, "sqrt.rn.f32 %fo, %fa;" },
		{ "rcp.rn.f32", 1, 'f', 'f', 0, "rcp.rn.f32 %fo, %fa;" },
		{ "neg.f32", 1, 'f', 'f', 0, "neg.f32 %fo, %fa;" },
		{ "abs.f32", 1, 'f', 'f', 0, "abs.f32 %fo, %fa;" },
		{ "cvt.sat.f32.f32", 1, 'f', 'f', 0, "cvt.sat.f32.f32 %fo, %fa;" },
		{ "cvt.rni.f32.f32", 1, 'f', 'f', 0, "cvt.rni.f32.f32 %fo, %fa;" },
	};
	each("f32", ops, N(ops), F32, N(F32), F32C, N(F32C));
}

static void g_f16(void)
{
	static const Op ops[] = {
		{ "add.rn.f16", 2, 'h', 'h', 0, "add.rn.f16 %ho, %ha, %hb;" },
		{ "mul.rn.f16", 2, 'h', 'h', 0, "mul.rn.f16 %ho, %ha, %hb;" },
		{ "add.rn.sat.f16", 2, 'h', 'h', 0, "add.rn.sat.f16 %ho, %ha, %hb;" },
		{ "fma.rn.f16", 3, 'h', 'h', 0, "fma.rn.f16 %ho, %ha, %hb, %hc;" },
		{ "min.f16", 2, 'h', 'h', 0, "min.f16 %ho, %ha, %hb;" },
		{ "max.f16", 2, 'h', 'h', 0, "max.f16 %ho, %ha, %hb;" },
		{ "min.NaN.f16", 2, 'h', 'h', 0, "min.NaN.f16 %ho, %ha, %hb;" },
		{ "max.NaN.f16", 2, 'h', 'h', 0, "max.NaN.f16 %ho, %ha, %hb;" },
		{ "neg.f16", 1, 'h', 'h', 0, "neg.f16 %ho, %ha;" },
		{ "abs.f16", 1, 'h', 'h', 0, "abs.f16 %ho, %ha;" },
		{ "cvt.f32.f16", 1, 'h', 'f', 0, "cvt.f32.f16 %fo, %ha;" },
		{ "cvt.rzi.s32.f16", 1, 'h', 'i', 0, "cvt.rzi.s32.f16 %io, %ha;" },
		/* f16x2: the pair (a, b) is {b, a} in the register */
		{ "add.rn.f16x2", 2, 'h', 'i', 0, "mov.b32 %r6, {%ha, %hb}; add.rn.f16x2 %io, %r6, %r6;" },
		{ "max.f16x2", 2, 'h', 'i', 0, "mov.b32 %r6, {%ha, %hb}; mov.b32 %r7, {%hb, %ha}; max.f16x2 %io, %r6, %r7;" },
	};
	each("f16", ops, N(ops), F16, N(F16), F16C, N(F16C));
}

static void g_bf16(void)
{
	static const Op ops[] = {
		{ "add.rn.bf16", 2, 'h', 'h', 0, "add.rn.bf16 %ho, %ha, %hb;" },
		{ "mul.rn.bf16", 2, 'h', 'h', 0, "mul.rn.bf16 %ho, %ha, %hb;" },
		{ "fma.rn.bf16", 3, 'h', 'h', 0, "fma.rn.bf16 %ho, %ha, %hb, %hc;" },
		{ "min.bf16", 2, 'h', 'h', 0, "min.bf16 %ho, %ha, %hb;" },
		{ "max.bf16", 2, 'h', 'h', 0, "max.bf16 %ho, %ha, %hb;" },
		{ "min.NaN.bf16", 2, 'h', 'h', 0, "min.NaN.bf16 %ho, %ha, %hb;" },
		{ "neg.bf16", 1, 'h', 'h', 0, "neg.bf16 %ho, %ha;" },
		{ "cvt.f32.bf16", 1, 'h', 'f', 0, "cvt.f32.bf16 %fo, %ha;" },
	};
	each("bf16", ops, N(ops), BF16, N(BF16), BF16C, N(BF16C));
}

static void g_f64(void)
{
	static const Op ops[] = {
		{ "add.rn.f64", 2, 'd', 'd', 0, "add.rn.f64 %do, %da, %db;" },
		{ "mul.rn.f64", 2, 'd', 'd', 0, "mul.rn.f64 %do, %da, %db;" },
		{ "div.rn.f64", 2, 'd', 'd', 0, "div.rn.f64 %do, %da, %db;" },
		{ "fma.rn.f64", 3, 'd', 'd', 0, "fma.rn.f64 %do, %da, %db, %dc;" },
		{ "min.f64", 2, 'd', 'd', 0, "min.f64 %do, %da, %db;" },
		{ "max.f64", 2, 'd', 'd', 0, "max.f64 %do, %da, %db;" },
		{ "sqrt.rn.f64", 1, 'd', 'd', 0, "sqrt.rn.f64 %do, %da;" },
		{ "rcp.rn.f64", 1, 'd', 'd', 0, "rcp.rn.f64 %do, %da;" },
		{ "cvt.sat.f64.f64", 1, 'd', 'd', 0, "cvt.sat.f64.f64 %do, %da;" },
	};
	each("f64", ops, N(ops), F64, N(F64), F64C, N(F64C));
}

/* Conversions between float types and to integers (FLOAT.md 1, 9, 11). */
static void g_cvt(void)
{
	static const Op f32[] = {
		{ "cvt.rn.f16.f32", 1, 'f', 'h', 0, "cvt.rn.f16.f32 %ho, %fa;" },
		{ "cvt.rz.f16.f32", 1, 'f', 'h', 0, "cvt.rz.f16.f32 %ho, %fa;" },
		{ "cvt.rn.bf16.f32", 1, 'f', 'h', 0, "cvt.rn.bf16.f32 %ho, %fa;" },
		{ "cvt.rn.sat.f16.f32", 1, 'f', 'h', 0, "cvt.rn.sat.f16.f32 %ho, %fa;" },
		{ "cvt.f64.f32", 1, 'f', 'd', 0, "cvt.f64.f32 %do, %fa;" },
		{ "cvt.rzi.s32.f32", 1, 'f', 'i', 0, "cvt.rzi.s32.f32 %io, %fa;" },
		{ "cvt.rzi.u32.f32", 1, 'f', 'i', 0, "cvt.rzi.u32.f32 %io, %fa;" },
		{ "cvt.rni.s64.f32", 1, 'f', 'l', 0, "cvt.rni.s64.f32 %o, %fa;" },
		{ "cvt.rni.u64.f32", 1, 'f', 'l', 0, "cvt.rni.u64.f32 %o, %fa;" },
		{ "cvt.rni.s16.f32", 1, 'f', 'h', 0, "cvt.rni.s16.f32 %ho, %fa;" },
		{ "cvt.rni.u8.f32", 1, 'f', 'i', 0, "cvt.rni.u8.f32 %io, %fa;" },
		{ "cvt.rn.f16x2.f32", 2, 'f', 'i', 0, "cvt.rn.f16x2.f32 %io, %fa, %fb;" },
		{ "cvt.rn.relu.f16x2.f32", 2, 'f', 'i', 0, "cvt.rn.relu.f16x2.f32 %io, %fa, %fb;" },
		{ "cvt.rn.bf16x2.f32", 2, 'f', 'i', 0, "cvt.rn.bf16x2.f32 %io, %fa, %fb;" },
		{ "cvt.rn.satfinite.bf16x2.f32", 2, 'f', 'i', 0, "cvt.rn.satfinite.bf16x2.f32 %io, %fa, %fb;" },
	};
	static const Op f64[] = {
		{ "cvt.rn.f32.f64", 1, 'd', 'f', 0, "cvt.rn.f32.f64 %fo, %da;" },
		{ "cvt.rn.f16.f64", 1, 'd', 'h', 0, "cvt.rn.f16.f64 %ho, %da;" },
		{ "cvt.rzi.s64.f64", 1, 'd', 'l', 0, "cvt.rzi.s64.f64 %o, %da;" },
		{ "cvt.rzi.u32.f64", 1, 'd', 'i', 0, "cvt.rzi.u32.f64 %io, %da;" },
	};
	/* integers to integers and to floats */
	static const uint64_t I[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
				      0xffffffff, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff };
	static const Op ints[] = {
		{ "cvt.sat.s8.s32", 1, 'l', 'i', 0, "cvt.sat.s8.s32 %io, %ia;" },
		{ "cvt.s8.s32", 1, 'l', 'i', 0, "cvt.s8.s32 %io, %ia;" },
		{ "cvt.sat.u16.s64", 1, 'l', 'h', 0, "cvt.sat.u16.s64 %ho, %a;" },
		{ "cvt.sat.s32.u64", 1, 'l', 'i', 0, "cvt.sat.s32.u64 %io, %a;" },
		{ "cvt.rn.sat.f32.s32", 1, 'l', 'f', 0, "cvt.rn.sat.f32.s32 %fo, %ia;" },
		{ "cvt.rn.f16.s64", 1, 'l', 'h', 0, "cvt.rn.f16.s64 %ho, %a;" },
		{ "cvt.pack.sat.s8.s32.b32", 2, 'l', 'i', 0, "cvt.pack.sat.s8.s32.b32 %io, %ia, %ib, 0;" },
		{ "cvt.pack.sat.u8.s32.b32", 2, 'l', 'i', 0, "cvt.pack.sat.u8.s32.b32 %io, %ia, %ib, 0x11223344;" },
		{ "cvt.pack.sat.u16.s32", 2, 'l', 'i', 0, "cvt.pack.sat.u16.s32 %io, %ia, %ib;" },
	};
	each("cvt", f32, N(f32), F32, N(F32), NULL, 0);
	each("cvt", f64, N(f64), F64, N(F64), NULL, 0);
	each("cvt", ints, N(ints), I, N(I), NULL, 0);
}

/* e4m3 and e5m2 (FLOAT.md 16): every boundary of both formats from f32,
 * f16x2 pairs, and back. */
static void g_fp8(void)
{
	static const uint64_t S[] = {
		0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fffffff, 0xffc00001,
		0x43e00000, /* 448: e4m3 max */ 0x43e80000, /* 464: tie 448/480 */ 0x43f00000, /* 480 */
		0x43f80000, 0x44000000, 0x47600000, /* 57344: e5m2 max */ 0x47700000, /* 61440: tie */
		0x47800000, /* 65536 */ 0x3b000000, /* 2^-9: e4m3 min sub */ 0x3a800000, /* 2^-10: tie to 0 */
		0x3ac00000, /* 1.5*2^-10 */ 0x37800000, /* 2^-16: e5m2 min sub */ 0x37000000, 0x37400000,
		0x3f880000, /* 1.0625: e4m3 tie */ 0x3f980000, 0x3f900000, 0x3fa00000, 0x00000001, 0xbb000000,
	};
	static const Op ops[] = {
		{ "cvt.rn.satfinite.e4m3x2.f32", 2, 'f', 'h', 0, "cvt.rn.satfinite.e4m3x2.f32 %ho, %fa, %fb;" },
		{ "cvt.rn.satfinite.relu.e4m3x2.f32", 2, 'f', 'h', 0, "cvt.rn.satfinite.relu.e4m3x2.f32 %ho, %fa, %fb;" },
		{ "cvt.rn.satfinite.e5m2x2.f32", 2, 'f', 'h', 0, "cvt.rn.satfinite.e5m2x2.f32 %ho, %fa, %fb;" },
		{ "cvt.rn.satfinite.relu.e5m2x2.f32", 2, 'f', 'h', 0, "cvt.rn.satfinite.relu.e5m2x2.f32 %ho, %fa, %fb;" },
	};
	for (int i = 0; i < N(ops); i++) {
		/* a against a few b: each a once in each byte */
		static const uint64_t B[] = { 0x3f800000, 0x7fffffff, 0xc3f80000 };
		sweep("fp8", &ops[i], S, N(S), B, N(B), NULL, 0);
	}
	/* f16x2 sources: a sparse sweep of every bit position, and dense runs
	 * over e4m3's and e5m2's largest values and ties and their smallest
	 * subnormals; each f16 with its negation in the other half */
	static uint64_t H[2048];
	int nh = 0;
	for (int i = 0; i < 512; i++)
		H[nh++] = (uint64_t)(i * 128 + (i * 7 & 127));
	for (int v = 0x5ef0; v < 0x5f90; v++)
		H[nh++] = (uint64_t)v;
	for (int v = 0x7af0; v < 0x7c02; v++)
		H[nh++] = (uint64_t)v;
	for (int v = 0x13f0; v < 0x1c10; v += 8)
		H[nh++] = (uint64_t)v;
	for (int v = 0; v < 0x400; v += 4)
		H[nh++] = (uint64_t)v;
	for (int i = 0; i < nh; i++)
		H[i] |= (H[i] ^ 0x8000) << 16;
	static const Op hops[] = {
		{ "cvt.rn.satfinite.e4m3x2.f16x2", 1, 'i', 'h', 0, "cvt.rn.satfinite.e4m3x2.f16x2 %ho, %ia;" },
		{ "cvt.rn.satfinite.relu.e4m3x2.f16x2", 1, 'i', 'h', 0, "cvt.rn.satfinite.relu.e4m3x2.f16x2 %ho, %ia;" },
		{ "cvt.rn.satfinite.e5m2x2.f16x2", 1, 'i', 'h', 0, "cvt.rn.satfinite.e5m2x2.f16x2 %ho, %ia;" },
	};
	for (int i = 0; i < N(hops); i++)
		sweep("fp8", &hops[i], H, nh, NULL, 0, NULL, 0);
	/* back: every pair of codes whose second is the first's negation */
	static uint64_t E[256];
	for (int i = 0; i < 256; i++)
		E[i] = (uint64_t)i | (uint64_t)(i ^ 0x80) << 8;
	static const Op back[] = {
		{ "cvt.rn.f16x2.e4m3x2", 1, 'h', 'i', 0, "cvt.rn.f16x2.e4m3x2 %io, %ha;" },
		{ "cvt.rn.relu.f16x2.e4m3x2", 1, 'h', 'i', 0, "cvt.rn.relu.f16x2.e4m3x2 %io, %ha;" },
		{ "cvt.rn.f16x2.e5m2x2", 1, 'h', 'i', 0, "cvt.rn.f16x2.e5m2x2 %io, %ha;" },
	};
	for (int i = 0; i < N(back); i++)
		sweep("fp8", &back[i], E, N(E), NULL, 0, NULL, 0);
}

/* tf32 (FLOAT.md 15): the register's layout, ties, overflow, subnormals. */
static void g_tf32(void)
{
	static const uint64_t S[] = {
		0x00000000, 0x80000000, 0x3f800000, 0x3f801000, /* tie, even below */ 0x3f803000, /* tie, odd below */
		0x3f800fff, 0x3f801001, 0xbf801000, 0x7f7fffff, 0x7f7fefff, 0x7f7ff000, 0xff7fffff, 0x7f800000,
		0xff800000, 0x7fffffff, 0x7fc00000, 0xffc00001, 0x7f800001, 0x00000001, 0x00001000, 0x00003000,
		0x007fffff, 0x80001fff, 0x00800000, 0x3fffffff, 0x3effffff,
	};
	static const Op ops[] = {
		{ "cvt.rna.tf32.f32", 1, 'f', 'i', 0, "cvt.rna.tf32.f32 %io, %fa;" },
		{ "cvt.rna.satfinite.tf32.f32", 1, 'f', 'i', 0, "cvt.rna.satfinite.tf32.f32 %io, %fa;" },
		{ "cvt.rn.tf32.f32", 1, 'f', 'i', 0, "cvt.rn.tf32.f32 %io, %fa;" },
		{ "cvt.rn.relu.tf32.f32", 1, 'f', 'i', 0, "cvt.rn.relu.tf32.f32 %io, %fa;" },
		{ "cvt.rz.tf32.f32", 1, 'f', 'i', 0, "cvt.rz.tf32.f32 %io, %fa;" },
	};
	each("tf32", ops, N(ops), S, N(S), NULL, 0);
}

/* fma.oob (FLOAT.md 17): which NaN pattern counts as out of bounds. */
static void g_oob(void)
{
	static const uint64_t S[] = { 0x3c00, 0x0000, 0x7ff7, 0xfff7, 0x7fff, 0x7e00, 0x7c01, 0x7c00, 0xffff, 0x7ff6 };
	static const uint64_t SB[] = { 0x3f80, 0x0000, 0x7ff7, 0xfff7, 0x7fff, 0x7fc0, 0x7f81, 0x7f80, 0xffff, 0x7ff6 };
	static const Op ops[] = {
		{ "fma.rn.oob.f16", 3, 'h', 'h', 0, "fma.rn.oob.f16 %ho, %ha, %hb, %hc;" },
		{ "fma.rn.oob.relu.f16", 3, 'h', 'h', 0, "fma.rn.oob.relu.f16 %ho, %ha, %hb, %hc;" },
	};
	static const Op bops[] = {
		{ "fma.rn.oob.bf16", 3, 'h', 'h', 0, "fma.rn.oob.bf16 %ho, %ha, %hb, %hc;" },
	};
	static const uint64_t C[] = { 0x3c00, 0x7fff }, CB[] = { 0x3f80, 0x7fff };
	each("oob", ops, N(ops), S, N(S), C, N(C));
	each("oob", bops, N(bops), SB, N(SB), CB, N(CB));
}

/* Integer division by zero and INT_MIN / -1 (EXECUTION.md's table), and the
 * clamped video instructions. */
static void g_int(void)
{
	static const uint64_t S[] = { 0, 1, 7, 0xfffffff9, 0x7fffffff, 0x80000000, 0xffffffff };
	static const uint64_t L[] = { 0, 1, 7, 0xfffffffffffffff9, 0x7fffffffffffffff, 0x8000000000000000,
				      0xffffffffffffffff };
	static const Op ops[] = {
		{ "div.s32", 2, 'i', 'i', 0, "div.s32 %io, %ia, %ib;" },
		{ "rem.s32", 2, 'i', 'i', 0, "rem.s32 %io, %ia, %ib;" },
		{ "div.u32", 2, 'i', 'i', 0, "div.u32 %io, %ia, %ib;" },
		{ "rem.u32", 2, 'i', 'i', 0, "rem.u32 %io, %ia, %ib;" },
		{ "vshl.u32.u32.u32.sat.clamp", 2, 'i', 'i', 0, "vshl.u32.u32.u32.sat.clamp %io, %ia, %ib;" },
		{ "vmad.s32.s32.s32.sat", 3, 'i', 'i', 0, "vmad.s32.s32.s32.sat %io, %ia, %ib, %ic;" },
	};
	static const Op lops[] = {
		{ "div.s64", 2, 'l', 'l', 0, "div.s64 %o, %a, %b;" },
		{ "rem.s64", 2, 'l', 'l', 0, "rem.s64 %o, %a, %b;" },
		{ "div.u64", 2, 'l', 'l', 0, "div.u64 %o, %a, %b;" },
		{ "rem.u64", 2, 'l', 'l', 0, "rem.u64 %o, %a, %b;" },
	};
	static const uint64_t C[] = { 0, 0x80000000 };
	each("int", ops, N(ops), S, N(S), C, N(C));
	each("int", lops, N(lops), L, N(L), NULL, 0);
}

/* Float atomics (ATOM.md, atom_rmw): a word holding a gets b; prints the
 * old value and the word after. */
static void g_atom(void)
{
	static const Op f32[] = {
		{ "atom.global.add.f32", 2, 'f', 'f', 'i',
		  "st.global.b32 [%g], %ia; atom.global.add.f32 %fo, [%g], %fb; ld.global.b32 %ip, [%g];" },
		{ "atom.shared.add.f32", 2, 'f', 'f', 'i',
		  "st.shared.b32 [%s], %ia; atom.shared.add.f32 %fo, [%s], %fb; ld.shared.b32 %ip, [%s];" },
	};
	static const Op f16[] = {
		{ "atom.global.add.noftz.f16", 2, 'h', 'h', 'h',
		  "st.global.b16 [%g], %ha; atom.global.add.noftz.f16 %ho, [%g], %hb; ld.global.b16 %hp, [%g];" },
		{ "atom.shared.add.noftz.f16", 2, 'h', 'h', 'h',
		  "st.shared.b16 [%s], %ha; atom.shared.add.noftz.f16 %ho, [%s], %hb; ld.shared.b16 %hp, [%s];" },
		{ "atom.global.add.noftz.f16x2", 2, 'h', 'i', 'i',
		  "mov.b32 %r6, {%ha, %hb}; st.global.b32 [%g], %r6; mov.b32 %r7, {%hb, %ha};"
		  "atom.global.add.noftz.f16x2 %io, [%g], %r7; ld.global.b32 %ip, [%g];" },
	};
	static const Op bf16[] = {
		{ "atom.global.add.noftz.bf16", 2, 'h', 'h', 'h',
		  "st.global.b16 [%g], %ha; atom.global.add.noftz.bf16 %ho, [%g], %hb; ld.global.b16 %hp, [%g];" },
		{ "atom.global.add.noftz.bf16x2", 2, 'h', 'i', 'i',
		  "mov.b32 %r6, {%ha, %hb}; st.global.b32 [%g], %r6; mov.b32 %r7, {%hb, %ha};"
		  "atom.global.add.noftz.bf16x2 %io, [%g], %r7; ld.global.b32 %ip, [%g];" },
	};
	static const Op f64[] = {
		{ "atom.global.add.f64", 2, 'd', 'd', 'd',
		  "st.global.b64 [%g], %a; atom.global.add.f64 %do, [%g], %db; ld.global.f64 %dp, [%g];" },
	};
	each("atom", f32, N(f32), F32, N(F32), NULL, 0);
	each("atom", f16, N(f16), F16, N(F16), NULL, 0);
	each("atom", bf16, N(bf16), BF16, N(BF16), NULL, 0);
	each("atom", f64, N(f64), F64, N(F64), NULL, 0);
}

/* Choices of docs/EXECUTION.md's table: %nwarpid, the reserved shared
 * memory offsets, shfl from a lane outside the mask, stmatrix rows of two
 * lanes at one address, how many 4 KiB blocks the 8 MiB device heap holds
 * (docs/EXECUTION.md, device malloc) and whether malloc(0) is NULL. */
static void g_misc(void)
{
	static const Op one[] = {
		{ "nwarpid", 1, 'i', 'i', 0, "mov.u32 %io, %nwarpid;" },
		{ "reserved_smem_offset", 1, 'i', 'i', 'i',
		  "mov.u32 %io, %reserved_smem_offset_end; mov.u32 %ip, %reserved_smem_offset_1;" },
		{ "malloc-4096-count", 1, 'i', 'i', 'i',
		  "mov.u32 %r6, 0;\n"
		  "MLOOP: { .param .b64 pa; .param .b64 pr; st.param.b64 [pa], 4096; call.uni (pr), malloc, (pa); "
		  "ld.param.b64 %rd7, [pr]; }\n"
		  "setp.eq.u64 %q2, %rd7, 0; @%q2 bra MDONE; add.u32 %r6, %r6, 1; setp.lt.u32 %q3, %r6, 100000; @%q3 bra MLOOP;\n"
		  "MDONE: mov.u32 %io, %r6;\n"
		  "{ .param .b64 pa; .param .b64 pr; st.param.b64 [pa], 0; call.uni (pr), malloc, (pa); ld.param.b64 %rd7, [pr]; }\n"
		  "setp.eq.u64 %q2, %rd7, 0; selp.u32 %ip, 1, 0, %q2;" },
	};
	static const uint64_t Z[] = { 0 };
	for (int i = 0; i < N(one); i++)
		sweep("misc", &one[i], Z, 1, NULL, 0, NULL, 0);
	/* a warp: even lanes shuffle from lane a (odd: not in the mask) */
	static const Op warp[] = {
		{ "shfl.idx-inactive-source", 1, 'i', 'i', 0,
		  "and.b32 %r6, %r4, 1; setp.eq.u32 %q2, %r6, 0; add.u32 %r7, %r4, 0x100;"
		  "@%q2 shfl.sync.idx.b32 %io, %r7, %ia, 0x1f, 0x55555555;" },
		/* lanes 0 and 1 give the same row address; every lane reads back a
		 * word of the 128 bytes */
		{ "stmatrix-same-address", 1, 'i', 'i', 0,
		  "shl.b32 %r6, %r4, 1; shl.b32 %r7, %r6, 16; or.b32 %r7, %r7, %r6; or.b32 %r7, %r7, 0x10000;"
		  "st.shared.u32 [%s], 0xdeadbeef; st.shared.u32 [%s+4], 0xdeadbeef; bar.warp.sync 0xffffffff;"
		  "setp.eq.u32 %q2, %r4, 1; selp.u32 %r6, 0, %r4, %q2; mul.wide.u32 %rd7, %r6, 16; add.u64 %rd7, %rd6, %rd7;"
		  "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd7], {%r7}; bar.warp.sync 0xffffffff;"
		  "mul.wide.u32 %rd7, %r4, 4; add.u64 %rd7, %rd6, %rd7; ld.shared.u32 %io, [%rd7];" },
	};
	uint64_t L[32];
	for (int i = 0; i < 32; i++)
		L[i] = (uint64_t)(i + 1) % 32;
	for (int i = 0; i < N(warp); i++)
		sweep("misc", &warp[i], L, 32, NULL, 0, NULL, 0);
}

/* ---- surfaces -------------------------------------------------------------------
 * suld.b out of bounds under .clamp and .zero, at byte offsets that are not
 * a multiple of the element, negative and huge; layers of a layered array
 * past its end and negative; suq of unused dimensions (docs/SURFACES.md,
 * "Choices to confirm on hardware").  The arrays' elements are 32-bit, each
 * byte distinct: 0xLLYYXX0b for byte b of element (x, y) of layer l. */

static CUarray surf_array(unsigned w, unsigned h, unsigned layers, CUsurfObject *so)
{
	CUarray a = NULL;
	CUDA_ARRAY3D_DESCRIPTOR ad = { w, h, layers, CU_AD_FORMAT_UNSIGNED_INT32, 1,
				       CUDA_ARRAY3D_SURFACE_LDST | (layers ? CUDA_ARRAY3D_LAYERED : 0) };
	unsigned nl = layers ? layers : 1, hh = h ? h : 1;
	uint32_t *v = malloc((size_t)w * hh * nl * 4);
	for (unsigned l = 0; l < nl; l++)
		for (unsigned y = 0; y < hh; y++)
			for (unsigned x = 0; x < w; x++) {
				unsigned char *b = (unsigned char *)&v[(l * hh + y) * w + x];
				for (int i = 0; i < 4; i++)
					b[i] = (unsigned char)(i == 0 ? 0x10 + x : i == 1 ? 0x40 + y : i == 2 ? 0x80 + l : 0xc0 + x + 4 * y);
			}
	CUresult r = cuArray3DCreate(&a, &ad);
	if (!r) {
		CUDA_MEMCPY3D c;
		memset(&c, 0, sizeof c);
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = v;
		c.srcPitch = w * 4;
		c.srcHeight = hh;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a;
		c.WidthInBytes = w * 4;
		c.Height = hh;
		c.Depth = nl;
		r = cuMemcpy3D(&c);
	}
	if (!r) {
		CUDA_RESOURCE_DESC rd;
		memset(&rd, 0, sizeof rd);
		rd.resType = CU_RESOURCE_TYPE_ARRAY;
		rd.res.array.hArray = a;
		r = cuSurfObjectCreate(so, &rd);
	}
	free(v);
	if (r) {
		printf("surf array %ux%ux%u : error %s\n", w, h, layers, errname(r));
		if (a)
			cuArrayDestroy(a);
		return NULL;
	}
	return a;
}

/* A surface case faults on a GPU when its address is misaligned, and a
 * fault leaves the process unable to use CUDA again (neither a reset of
 * the primary context nor a new context recovers it on an H200): so each
 * case runs in its own launch, and after a fault the program starts
 * itself anew (exec), skipping the cases done (ISA_SURF_FROM). */
static char **self_argv;
static long surf_case;
static void surf_each(const char *g, const Op *op, unsigned w, unsigned h, unsigned l, const uint64_t *A, int na,
		      const uint64_t *B, int nb, const uint64_t *C, int nc)
{
	CUarray a = NULL;
	if (op->nin < 2)
		nb = 1;
	if (op->nin < 3)
		nc = 1;
	for (int x = 0; x < na; x++)
		for (int y = 0; y < nb; y++)
			for (int z = 0; z < nc; z++) {
				uint64_t in[3] = { A[x], op->nin > 1 ? B[y] : 0, op->nin > 2 ? C[z] : 0 }, out[2] = { 0, 0 };
				const char *from = getenv("ISA_SURF_FROM");
				if (surf_case++ < (from ? atol(from) : 0))
					continue;
				if (!a && !(a = surf_array(w, h, l, &op_surface)))
					return;
				CUresult r = run_op(g, op, in, 1, out);
				printf("%s %s", g, op->name);
				for (int k = 0; k < op->nin; k++)
					printf(" %0*llx", digits(op->in), (unsigned long long)in[k]);
				if (r) {
					printf(" : error %s\n", errname(r));
					char next[32];
					snprintf(next, sizeof next, "%ld", surf_case);
					fflush(stdout);
					setenv("ISA_SURF_FROM", next, 1);
					execv("/proc/self/exe", self_argv);
					printf("error isa: cannot start anew after a fault\n");
					exit(1);
				}
				printf(" : %0*llx", digits(op->out), (unsigned long long)out[0]);
				if (op->out2)
					printf(" %0*llx", digits(op->out2), (unsigned long long)out[1]);
				printf("\n");
			}
	if (a) {
		cuSurfObjectDestroy(op_surface);
		op_surface = 0;
		cuArrayDestroy(a);
	}
}

static void g_surf(void)
{
	static const uint64_t X[] = { 0, 1, 2, 3, 4, 5, 7, 12, 15, 16, 17, 100, 0xfffffffc, 0xffffffff, 0x7ffffffc, 0x80000000 };
	static const uint64_t Y[] = { 0, 1, 2, 3, 0xffffffff, 0x7fffffff };
	static const uint64_t L[] = { 0, 1, 2, 3, 0xffffffff, 0x80000000 };
	static const Op ops2d[] = {
		{ "suld.b.2d.b32.clamp", 2, 'i', 'i', 0, "suld.b.2d.b32.clamp %io, [%sf, {%ia, %ib}];" },
		{ "suld.b.2d.b32.zero", 2, 'i', 'i', 0, "suld.b.2d.b32.zero %io, [%sf, {%ia, %ib}];" },
		{ "suld.b.2d.b8.clamp", 2, 'i', 'i', 0, "suld.b.2d.b8.clamp %ho, [%sf, {%ia, %ib}]; cvt.u32.u16 %io, %ho;" },
	};
	static const Op ops1d[] = {
		{ "suld.b.1d.b32.clamp", 1, 'i', 'i', 0, "suld.b.1d.b32.clamp %io, [%sf, {%ia}];" },
		{ "suld.b.1d.b32.zero", 1, 'i', 'i', 0, "suld.b.1d.b32.zero %io, [%sf, {%ia}];" },
	};
	static const Op opsa[] = {
		{ "suld.b.a2d.b32.clamp", 3, 'i', 'i', 0, "suld.b.a2d.b32.clamp %io, [%sf, {%ic, %ia, %ib, %ib}];" },
		{ "suld.b.a2d.b32.zero", 3, 'i', 'i', 0, "suld.b.a2d.b32.zero %io, [%sf, {%ic, %ia, %ib, %ib}];" },
		{ "suld.b.a1d.b32.clamp", 3, 'i', 'i', 0, "suld.b.a1d.b32.clamp %io, [%sf, {%ic, %ia}];" },
	};
	static const Op q[] = {
		{ "suq", 1, 'i', 'i', 0,
		  "suq.width.b32 %r6, [%sf]; suq.height.b32 %r7, [%sf]; mov.b64 %o, {%r6, %r7};"
		  "suq.depth.b32 %r6, [%sf]; suq.array_size.b32 %r7, [%sf]; mov.b64 %p, {%r6, %r7};" },
		{ "suq.format", 1, 'i', 'i', 0,
		  "suq.channel_data_type.b32 %r6, [%sf]; suq.channel_order.b32 %r7, [%sf]; mov.b64 %o, {%r6, %r7};"
		  "suq.memory_layout.b32 %r6, [%sf]; mov.b64 %p, {%r6, %r6};" },
	};
	static const uint64_t Z[] = { 0 };
	struct { unsigned w, h, l; } shapes[] = { { 4, 3, 0 }, { 4, 0, 0 }, { 4, 3, 2 }, { 4, 0, 2 } };
	for (int i = 0; i < N(shapes); i++) {
		unsigned w = shapes[i].w, h = shapes[i].h, l = shapes[i].l;
		char g[32];
		snprintf(g, sizeof g, "surf-%ux%ux%u", w, h, l);
		if (i == 0)
			for (int k = 0; k < N(ops2d); k++)
				surf_each(g, &ops2d[k], w, h, l, X, N(X), Y, N(Y), NULL, 0);
		if (i == 1)
			for (int k = 0; k < N(ops1d); k++)
				surf_each(g, &ops1d[k], w, h, l, X, N(X), NULL, 0, NULL, 0);
		if (i == 2)
			for (int k = 0; k < N(opsa); k++)
				surf_each(g, &opsa[k], w, h, l, X, 4, Y, 3, L, N(L));
		for (int k = 0; k < N(q); k++) {
			Op o = q[k];
			o.out = 'l';
			o.out2 = 'l';
			surf_each(g, &o, w, h, l, Z, 1, NULL, 0, NULL, 0);
		}
	}
}

/* The surface rules surf leaves open (docs/SURFACES.md): how many bits of
 * a layer count (0xffff, 0x10000, 0x7fffffff); whether x must be a
 * multiple of the whole access or of one component (.v2.b16, .b16, .v2.b8
 * on 4-byte elements); stores at a byte offset (sust .b8 then a read of the
 * element) and misaligned; .a1d on a 2D layered array under .zero and
 * misaligned, and a store through it; .2d on a layered one; each suq
 * query alone. */
static void g_surfx(void)
{
	static const uint64_t X[] = { 0, 1, 2, 3, 4, 6 };
	static const uint64_t Y[] = { 0, 1 };
	static const uint64_t L[] = { 1, 0xffff, 0x10000, 0x10001, 0x7fffffff };
	static const Op ops2d[] = {
		{ "suld.b.2d.v2.b16.clamp", 2, 'i', 'i', 0, "suld.b.2d.v2.b16.clamp {%ho, %hp}, [%sf, {%ia, %ib}]; mov.b32 %io, {%ho, %hp};" },
		{ "suld.b.2d.b16.clamp", 2, 'i', 'i', 0, "suld.b.2d.b16.clamp %ho, [%sf, {%ia, %ib}]; cvt.u32.u16 %io, %ho;" },
		{ "suld.b.2d.v2.b8.clamp", 2, 'i', 'i', 0, "suld.b.2d.v2.b8.clamp {%ho, %hp}, [%sf, {%ia, %ib}]; cvt.u32.u16 %io, %hp; shl.b32 %io, %io, 16; cvt.u32.u16 %r6, %ho; or.b32 %io, %io, %r6;" },
		{ "sust.b.2d.b8.zero", 2, 'i', 'i', 0, "cvt.u16.u32 %ho, %ia; sust.b.2d.b8.zero [%sf, {%ia, %ib}], %ho; suld.b.2d.b32.trap %io, [%sf, {0, %ib}];" },
		{ "sust.b.2d.b32.zero", 2, 'i', 'i', 0, "sust.b.2d.b32.zero [%sf, {%ia, %ib}], 0x5a5a5a5a; suld.b.2d.b32.trap %io, [%sf, {0, %ib}];" },
	};
	static const Op opsa[] = {
		{ "suld.b.a2d.b32.clamp", 3, 'i', 'i', 0, "suld.b.a2d.b32.clamp %io, [%sf, {%ic, %ia, %ib, %ib}];" },
		{ "suld.b.a2d.b32.zero", 3, 'i', 'i', 0, "suld.b.a2d.b32.zero %io, [%sf, {%ic, %ia, %ib, %ib}];" },
		{ "suld.b.a1d.b32.zero", 3, 'i', 'i', 0, "suld.b.a1d.b32.zero %io, [%sf, {%ic, %ia}];" },
		{ "suld.b.2d.b32.clamp", 3, 'i', 'i', 0, "suld.b.2d.b32.clamp %io, [%sf, {%ia, %ib}];" },
		{ "sust.b.a1d.b32.clamp", 3, 'i', 'i', 0, "sust.b.a1d.b32.clamp [%sf, {%ic, %ia}], 0x5a5a5a5a; suld.b.a2d.b32.clamp %io, [%sf, {%ic, 0, 0, 0}];" },
	};
	static const char *const q[] = { "width", "height", "depth", "array_size", "channel_data_type", "channel_order", "memory_layout" };
	static const uint64_t Z[] = { 0 };
	struct { unsigned w, h, l; } shapes[] = { { 4, 3, 0 }, { 4, 3, 2 }, { 4, 0, 2 } };
	for (int i = 0; i < N(shapes); i++) {
		unsigned w = shapes[i].w, h = shapes[i].h, l = shapes[i].l;
		char g[32];
		snprintf(g, sizeof g, "surfx-%ux%ux%u", w, h, l);
		if (i == 0)
			for (int k = 0; k < N(ops2d); k++)
				surf_each(g, &ops2d[k], w, h, l, X, N(X), Y, N(Y), NULL, 0);
		if (i == 1)
			for (int k = 0; k < N(opsa); k++)
				surf_each(g, &opsa[k], w, h, l, X, 3, Y, 2, L, N(L));
		for (int k = 0; k < N(q); k++) {
			char name[64], ptx[128];
			snprintf(name, sizeof name, "suq.%s", q[k]);
			snprintf(ptx, sizeof ptx, "suq.%s.b32 %%io, [%%sf];", q[k]);
			Op o = { name, 1, 'i', 'i', 0, ptx };
			surf_each(g, &o, w, h, l, Z, 1, NULL, 0, NULL, 0);
		}
	}
}

/* ---- mma ------------------------------------------------------------------------
 * mma.sync.aligned.m16n8k16.row.col with f16 or bf16 A and B, f32 or f16
 * C and D (FLOAT.md 19).  Matrices are given whole; the fragments follow
 * the manual's figures: groupID g = lane / 4, t = lane % 4; A: a0,a1 row g
 * cols 2t, 2t+1; a2,a3 row g+8; a4..a7 as a0..a3 with cols + 8; B: b0,b1
 * rows 2t, 2t+1 col g, b2,b3 rows + 8; C, D: c0,c1 row g cols 2t, 2t+1;
 * c2,c3 row g+8.  Prints D per lane. */

typedef struct Mma {
	uint16_t a[16][16], b[16][8];
	uint32_t c[16][8]; /* f32 bits, or an f16 in the low half */
} Mma;

static void mma_launch(const char *group, const char *cs, const char *ins, uint32_t in[32][16]);

static void mma_run_g(const char *group, const char *cs, const char *ab, int f16acc, const Mma *m)
{
	uint32_t in[32][16];
	memset(in, 0, sizeof in);
	for (int l = 0; l < 32; l++) {
		int g = l / 4, t = l % 4;
		uint32_t *w = in[l];
		for (int i = 0; i < 4; i++) {
			int r = g + (i & 1) * 8, c = 2 * t + (i >> 1) * 8;
			w[i] = m->a[r][c] | (uint32_t)m->a[r][c + 1] << 16;
		}
		for (int i = 0; i < 2; i++)
			w[4 + i] = m->b[2 * t + 8 * i][g] | (uint32_t)m->b[2 * t + 8 * i + 1][g] << 16;
		for (int i = 0; i < 4; i++)
			w[8 + i] = m->c[g + (i >> 1) * 8][2 * t + (i & 1)];
		if (f16acc) {
			w[8] = (m->c[g][2 * t] & 0xffff) | m->c[g][2 * t + 1] << 16;
			w[9] = (m->c[g + 8][2 * t] & 0xffff) | m->c[g + 8][2 * t + 1] << 16;
		}
	}
	mma_launch(group, cs,
		   f16acc ? "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r11, %r12}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
			    "{%r7, %r8}; mov.u32 %r13, 0; mov.u32 %r14, 0;\n"
			    "st.global.v4.b32 [%rd6], {%r11, %r12, %r13, %r14};"
		   : !strcmp(ab, "bf16")
			   ? "mov.b32 %f1, %r7; mov.b32 %f2, %r8; mov.b32 %f3, %r9; mov.b32 %f4, %r10;\n"
			     "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%r11, %r12, %r13, %r14}, {%r1, %r2, %r3, "
			     "%r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};\n"
			     "st.global.v4.b32 [%rd6], {%r11, %r12, %r13, %r14};"
			   : "mov.b32 %f1, %r7; mov.b32 %f2, %r8; mov.b32 %f3, %r9; mov.b32 %f4, %r10;\n"
			     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r11, %r12, %r13, %r14}, {%r1, %r2, %r3, "
			     "%r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};\n"
			     "st.global.v4.b32 [%rd6], {%r11, %r12, %r13, %r14};",
		   in);
}

/* Runs one mma instruction (text ins) on one warp: lane l's words in[l]:
 * 0-3 A (%r1-%r4), 4-5 B (%r5, %r6), 8-11 C (%r7-%r10); D (%r11-%r14)
 * printed per lane as GROUP CASE lane NN : d0 d1 d2 d3. */
static void mma_launch(const char *group, const char *cs, const char *ins, uint32_t in[32][16])
{
	uint32_t out[32][4];
	char ptx[4096];
	snprintf(ptx, sizeof ptx,
		 ".version %s\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 ".reg .b32 %%r<20>; .reg .f32 %%f<8>; .reg .b64 %%rd<8>;\n"
		 "ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out]; mov.u32 %%r0, %%tid.x;\n"
		 "mul.wide.u32 %%rd3, %%r0, 64; add.u64 %%rd4, %%rd1, %%rd3;\n"
		 "mul.wide.u32 %%rd5, %%r0, 16; add.u64 %%rd6, %%rd2, %%rd5;\n"
		 "ld.global.v4.b32 {%%r1, %%r2, %%r3, %%r4}, [%%rd4]; ld.global.v2.b32 {%%r5, %%r6}, [%%rd4+16];\n"
		 "ld.global.v4.b32 {%%r7, %%r8, %%r9, %%r10}, [%%rd4+32];\n"
		 "%s\n"
		 "DONE:\nret;\n}\n",
		 strstr(ins, "e4m3") ? "8.4" : "7.8", ins);
	size_t nin = sizeof(uint32_t[32][16]);
	if (run_k(group, cs, ptx, in, nin, out, sizeof out, 32))
		return;
	for (int l = 0; l < 32; l++)
		printf("%s %s lane %02d : %08x %08x %08x %08x\n", group, cs, l, out[l][0], out[l][1], out[l][2], out[l][3]);
}

static void mma_run(const char *cs, const char *ab, int f16acc, const Mma *m)
{
	mma_run_g("mma", cs, ab, f16acc, m);
}

static void mma_run_in(const char *group, const char *cs, const char *ab, const Mma *m)
{
	mma_run_g(group, cs, ab, 0, m);
}

/* f16 and bf16 bits of small exact values: 2^e * m, m in [1, 2) with few bits. */
static uint16_t h16(int bf, int neg, int e, int frac4) /* frac4: 4 fraction bits at the top */
{
	if (bf)
		return (uint16_t)(neg << 15 | (e + 127) << 7 | frac4 << 3);
	return (uint16_t)(neg << 15 | (e + 15) << 10 | frac4 << 6);
}

static void g_mma(void)
{
	for (int bf = 0; bf < 2; bf++) {
		const char *ab = bf ? "bf16" : "f16";
		char cs[64];
		Mma m;
		/* 1. C = 4096 and sixteen products of 0.75 * 2^-12 each (below half an
		 * ulp of 4096 one at a time, six ulps together); row r uses the first
		 * r + 1 products only, column n starts from n ulps above 4096. */
		memset(&m, 0, sizeof m);
		for (int r = 0; r < 16; r++)
			for (int k = 0; k <= r; k++)
				m.a[r][k] = h16(bf, 0, -1, 8); /* 0.75 */
		for (int k = 0; k < 16; k++)
			for (int n = 0; n < 8; n++)
				m.b[k][n] = h16(bf, 0, -12, 0);
		for (int r = 0; r < 16; r++)
			for (int n = 0; n < 8; n++)
				m.c[r][n] = 0x45800000 + (uint32_t)n;
		snprintf(cs, sizeof cs, "%s-small-into-big", ab);
		mma_run(cs, ab, 0, &m);
		/* 2. cancellation: row r sums +2^r * B[k0], B[k1], -2^r * B[k2] with
		 * B's even rows 2^(4+n) and its odd rows 1.25 * 2^-(3+n), at k
		 * positions whose order differs by row; C = 0 or 1 */
		memset(&m, 0, sizeof m);
		for (int r = 0; r < 16; r++) {
			int k0 = 2 * r % 16, k1 = (2 * r + 3) % 16, k2 = (2 * r + 6) % 16;
			m.a[r][k0] = h16(bf, 0, r, 0);
			m.a[r][k1] = h16(bf, 0, 0, 0);
			m.a[r][k2] = h16(bf, 1, r, 0);
			for (int n = 0; n < 8; n++)
				m.c[r][n] = r & 1 ? 0x3f800000 : 0;
		}
		for (int k = 0; k < 16; k++)
			for (int n = 0; n < 8; n++)
				m.b[k][n] = k & 1 ? h16(bf, 0, -3 - n, 4) : h16(bf, 0, 4 + n, 0);
		snprintf(cs, sizeof cs, "%s-cancel", ab);
		mma_run(cs, ab, 0, &m);
		/* 3. subnormals: products and sums below f32's normal range, and
		 * subnormal inputs (f16 only has them below 2^-14) */
		memset(&m, 0, sizeof m);
		for (int r = 0; r < 16; r++)
			for (int k = 0; k < 16; k++)
				m.a[r][k] = bf ? h16(bf, r & 1, -60 - r, k & 15) : (uint16_t)((r & 1) << 15 | (r * 16 + k + 1));
		for (int k = 0; k < 16; k++)
			for (int n = 0; n < 8; n++)
				m.b[k][n] = bf ? h16(bf, 0, -60 - n, 0) : (uint16_t)(n < 4 ? (n + 1) : h16(0, 0, -14 + n, 0));
		for (int r = 0; r < 16; r++)
			for (int n = 0; n < 8; n++)
				m.c[r][n] = r < 8 ? 0 : (uint32_t)(0x00000001 + n) | (r & 1) << 31;
		snprintf(cs, sizeof cs, "%s-subnormal", ab);
		mma_run(cs, ab, 0, &m);
		/* 4. infinities and NaNs: row r puts a NaN or inf at k = r, column n
		 * picks which */
		memset(&m, 0, sizeof m);
		for (int r = 0; r < 16; r++)
			for (int k = 0; k < 16; k++)
				m.a[r][k] = h16(bf, 0, 0, 0);
		for (int r = 0; r < 16; r++)
			m.a[r][r] = r < 4	 ? (bf ? 0x7f80 : 0x7c00)
				    : r < 8	 ? (bf ? 0xff80 : 0xfc00)
				    : r < 12 ? (bf ? 0x7fc1 : 0x7e01)
						 : (bf ? 0xffff : 0xffff);
		for (int k = 0; k < 16; k++)
			for (int n = 0; n < 8; n++)
				m.b[k][n] = n == 0 ? 0 : h16(bf, n & 1, n, 0);
		for (int r = 0; r < 16; r++)
			for (int n = 0; n < 8; n++)
				m.c[r][n] = n == 7 ? 0x7fc00123 : n == 6 ? 0xff800000 : 0;
		snprintf(cs, sizeof cs, "%s-special", ab);
		mma_run(cs, ab, 0, &m);
		/* 5. rounding of the sum: exact sums just past f32 ties */
		memset(&m, 0, sizeof m);
		for (int r = 0; r < 16; r++)
			for (int k = 0; k < 16; k++)
				m.a[r][k] = k == 0 ? h16(bf, 0, 0, 0) : k <= r ? h16(bf, k & 1, -k + (k > 12 ? 12 : 0), 15) : 0;
		for (int k = 0; k < 16; k++)
			for (int n = 0; n < 8; n++)
				m.b[k][n] = k == 0 ? h16(bf, 0, 0, 0) : h16(bf, 0, -12 + n / 2, 0);
		for (int r = 0; r < 16; r++)
			for (int n = 0; n < 8; n++)
				m.c[r][n] = 0x3f800000 + (uint32_t)n;
		snprintf(cs, sizeof cs, "%s-ties", ab);
		mma_run(cs, ab, 0, &m);
	}
	/* f16 accumulation: C = 1024 (ulp 1) with small products; an
	 * overflowing sum; a NaN */
	Mma m;
	memset(&m, 0, sizeof m);
	for (int r = 0; r < 16; r++)
		for (int k = 0; k < 16; k++)
			m.a[r][k] = k <= r ? h16(0, 0, -2, 0) : 0; /* 0.25 */
	for (int k = 0; k < 16; k++)
		for (int n = 0; n < 8; n++)
			m.b[k][n] = n < 4 ? h16(0, 0, 0, 0) : h16(0, 0, 14, 15);
	for (int r = 0; r < 16; r++)
		for (int n = 0; n < 8; n++)
			m.c[r][n] = n == 0 ? 0x6400 : n == 1 ? 0x6401 : n == 2 ? 0x7bff : n == 3 ? 0x7e01 : n == 4 ? 0 : 0xfbff;
	mma_run("f16acc", "f16", 1, &m);
}

/* ---- mmax: what the mma group left open (docs/FLOAT.md 19) -----------------------
 * f16-neg: the small products of f16-small-into-big negated (A = -0.75),
 * C = -(4096 + n ulps) in columns 0-3, +(4096 + (n - 4) ulps) in 4-7:
 * whether a negative term is cut towards zero or towards -infinity, and
 * a negative sum rounded towards zero or down.  bf16-overflow: from C =
 * 0, row r (r < 8) one product +-2^(60+r) x 2^(56+n), rows 8-15 two equal
 * ones of +-2^(52+r) x 2^(56+n): what a sum past f32's range gives.
 * e4m3-k32: m16n8k32, C = 2^18 + n ulps (ulp 2^-5), row r 2(r + 1)
 * products of 0.75 x 2^-6 (0.375 ulp) at k = 15 - r .. 16 + r, across
 * k = 16: one sum of 32 terms or two of 16. */
static void g_mmax(void)
{
	Mma m;
	memset(&m, 0, sizeof m);
	for (int r = 0; r < 16; r++)
		for (int k = 0; k <= r; k++)
			m.a[r][k] = h16(0, 1, -1, 8); /* -0.75 */
	for (int k = 0; k < 16; k++)
		for (int n = 0; n < 8; n++)
			m.b[k][n] = h16(0, 0, -12, 0);
	for (int r = 0; r < 16; r++)
		for (int n = 0; n < 8; n++)
			m.c[r][n] = n < 4 ? 0xc5800000 + (uint32_t)n : 0x45800000 + (uint32_t)(n - 4);
	mma_run_in("mmax", "f16-neg", "f16", &m);
	memset(&m, 0, sizeof m);
	for (int r = 0; r < 16; r++) {
		m.a[r][0] = r < 8 ? h16(1, r & 1, 60 + r, 0) : h16(1, r & 1, 52 + r, 0);
		if (r >= 8)
			m.a[r][1] = m.a[r][0];
	}
	for (int n = 0; n < 8; n++)
		m.b[0][n] = m.b[1][n] = h16(1, 0, 56 + n, 0);
	mma_run_in("mmax", "bf16-overflow", "bf16", &m);
	/* e4m3: 0.75 is 0x34, 2^-6 0x08 */
	uint8_t a[16][32], b[32][8];
	memset(a, 0, sizeof a);
	for (int r = 0; r < 16; r++)
		for (int k = 15 - r; k <= 16 + r; k++)
			a[r][k] = 0x34;
	memset(b, 0x08, sizeof b);
	uint32_t in[32][16];
	memset(in, 0, sizeof in);
	for (int l = 0; l < 32; l++) {
		int g = l / 4, t = l % 4;
		for (int j = 0; j < 4; j++)     /* A: row g + 8(j % 2), columns 4t + 16(j / 2) .. + 3 */
			for (int i = 0; i < 4; i++)
				in[l][j] |= (uint32_t)a[g + 8 * (j % 2)][4 * t + 16 * (j / 2) + i] << 8 * i;
		for (int j = 0; j < 2; j++)     /* B: rows 4t + 16j .. + 3, column g */
			for (int i = 0; i < 4; i++)
				in[l][4 + j] |= (uint32_t)b[4 * t + 16 * j + i][g] << 8 * i;
		for (int i = 0; i < 4; i++)
			in[l][8 + i] = 0x48800000 + (uint32_t)(2 * t + (i & 1));
	}
	mma_launch("mmax", "e4m3-k32",
		   "mov.b32 %f1, %r7; mov.b32 %f2, %r8; mov.b32 %f3, %r9; mov.b32 %f4, %r10;\n"
		   "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r11, %r12, %r13, %r14}, {%r1, %r2, %r3, "
		   "%r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};\n"
		   "st.global.v4.b32 [%rd6], {%r11, %r12, %r13, %r14};",
		   in);
}


/* mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: A's kept
 * elements are lane * 4 + i + 1, B selects D[m][n] = (the kept element at
 * k = n) + 256 x (the one at k = n + 8), C = 0.  The metadata: one
 * pattern in every lane (normal pairs, duplicate indices, reversed), or a
 * different one by lane % 4, with sparsity selector 0 or 1 -- which lanes'
 * metadata count and whether two kept elements at one index both count
 * (FLOAT.md 19, EXECUTION.md mma.sp).  Prints D per lane. */
static void mma_sp_run(const char *cs, const uint32_t meta[4], int sel)
{
	uint32_t in[32][8], out[32][4];
	uint16_t h[129];
	for (int i = 0; i <= 128; i++) {
		int e = 0;
		while (i >> (e + 1))
			e++;
		h[i] = i ? (uint16_t)((e + 15) << 10 | ((i << (10 - e)) & 0x3ff)) : 0;
	}
	memset(in, 0, sizeof in);
	for (int l = 0; l < 32; l++) {
		int g = l / 4, t = l % 4;
		in[l][0] = h[l * 4 + 1] | (uint32_t)h[l * 4 + 2] << 16;
		in[l][1] = h[l * 4 + 3] | (uint32_t)h[l * 4 + 4] << 16;
		for (int i = 0; i < 2; i++) {
			int k0 = 2 * t + 8 * i, k1 = k0 + 1;
			uint16_t b0 = k0 == g ? 0x3c00 : k0 == g + 8 ? 0x5c00 : 0; /* 1, 256 */
			uint16_t b1 = k1 == g ? 0x3c00 : k1 == g + 8 ? 0x5c00 : 0;
			in[l][2 + i] = b0 | (uint32_t)b1 << 16;
		}
		in[l][4] = meta[t];
	}
	char ptx[2048];
	snprintf(ptx, sizeof ptx,
		 ".version 7.8\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 ".reg .b32 %%r<20>; .reg .f32 %%f<8>; .reg .b64 %%rd<8>;\n"
		 "ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out]; mov.u32 %%r0, %%tid.x;\n"
		 "mul.wide.u32 %%rd3, %%r0, 32; add.u64 %%rd4, %%rd1, %%rd3;\n"
		 "mul.wide.u32 %%rd5, %%r0, 16; add.u64 %%rd6, %%rd2, %%rd5;\n"
		 "ld.global.v4.b32 {%%r1, %%r2, %%r3, %%r4}, [%%rd4]; ld.global.b32 %%r5, [%%rd4+16];\n"
		 "mov.f32 %%f0, 0f00000000;\n"
		 "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%f1, %%f2, %%f3, %%f4}, {%%r1, %%r2}, {%%r3, %%r4}, "
		 "{%%f0, %%f0, %%f0, %%f0}, %%r5, %d;\n"
		 "st.global.v4.f32 [%%rd6], {%%f1, %%f2, %%f3, %%f4};\n"
		 "ret;\n}\n",
		 sel);
	if (run_k("mma", cs, ptx, in, sizeof in, out, sizeof out, 32))
		return;
	for (int l = 0; l < 32; l++)
		printf("mma %s lane %02d : %08x %08x %08x %08x\n", cs, l, out[l][0], out[l][1], out[l][2], out[l][3]);
}

static void g_mma_sp(void)
{
	static const struct {
		const char *name;
		uint32_t m;
	} pat[] = {
		{ "sp-01", 0x44444444 }, { "sp-23", 0xeeeeeeee }, { "sp-00", 0x00000000 },
		{ "sp-33", 0xffffffff }, { "sp-10", 0x11111111 }, { "sp-12", 0x99999999 }, { "sp-mixed", 0xe4e4e4e4 },
	};
	for (int i = 0; i < N(pat); i++) {
		uint32_t m[4] = { pat[i].m, pat[i].m, pat[i].m, pat[i].m };
		mma_sp_run(pat[i].name, m, 0);
	}
	uint32_t lanes[4] = { 0x44444444, 0xeeeeeeee, 0x99999999, 0x88888888 };
	mma_sp_run("sp-bylane-sel0", lanes, 0);
	mma_sp_run("sp-bylane-sel1", lanes, 1);
}

/* ---- wmma fragments -------------------------------------------------------------
 * The layout of wmma's opaque fragments (docs/EXECUTION.md, matrix
 * instructions: ptxvm chooses one): wmma.load of a 16x16 matrix whose
 * elements hold their own row-major index, printed per lane. */

static void wmma_run(const char *cs, const char *ins)
{
	uint32_t mat[256], out[32][8];
	for (int i = 0; i < 256; i++) {
		/* f32 of i, and for the f16 loads the f16 of i in both halves */
		float f = (float)i;
		memcpy(&mat[i], &f, 4);
	}
	uint16_t h[256];
	for (int i = 0; i < 256; i++) {
		int e = 0;
		while (i >> (e + 1))
			e++;
		h[i] = i ? (uint16_t)((e + 15) << 10 | ((i << (10 - e)) & 0x3ff)) : 0;
	}
	int half = strstr(ins, ".f16") != NULL;
	char ptx[2048];
	snprintf(ptx, sizeof ptx,
		 ".version 7.8\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 ".reg .b32 %%r<10>; .reg .b64 %%rd<8>;\n"
		 "ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out]; mov.u32 %%r9, %%tid.x;\n"
		 "%s {%%r0, %%r1, %%r2, %%r3, %%r4, %%r5, %%r6, %%r7}, [%%rd1], 16;\n"
		 "mul.wide.u32 %%rd3, %%r9, 32; add.u64 %%rd4, %%rd2, %%rd3;\n"
		 "st.global.v4.b32 [%%rd4], {%%r0, %%r1, %%r2, %%r3}; st.global.v4.b32 [%%rd4+16], {%%r4, %%r5, %%r6, %%r7};\n"
		 "ret;\n}\n",
		 ins);
	if (run_k("wmma", cs, ptx, half ? (void *)h : (void *)mat, half ? sizeof h : sizeof mat, out, sizeof out, 32))
		return;
	for (int l = 0; l < 32; l++) {
		printf("wmma %s lane %02d :", cs, l);
		for (int i = 0; i < 8; i++)
			printf(" %08x", out[l][i]);
		printf("\n");
	}
}

static void g_wmma(void)
{
	wmma_run("a.row.f16", "wmma.load.a.sync.aligned.row.m16n16k16.global.f16");
	wmma_run("b.col.f16", "wmma.load.b.sync.aligned.col.m16n16k16.global.f16");
	wmma_run("c.row.f32", "wmma.load.c.sync.aligned.row.m16n16k16.global.f32");
}

/* ---- wmmax: the fragments of the other shapes and types ------------------------
 * As wmma: a matrix whose elements hold their own index in memory order
 * (f16 or tf32/f32 of the index; u8: the index's low byte; f64), loaded
 * with leading dimension ld; each lane's nreg registers printed.  The
 * layout wmma's group showed (tiles of mma's fragments), where M is 32 or
 * 8, for .tf32, .u8 and .f64, an f16 C, and A and B of the other layout. */
static void wmmax_run(const char *cs, const char *ins, int kind, int nreg, int ld, int nelem)
{
	enum { F16, F32, U8, F64 };
	static uint8_t mat[512 * 8];
	static uint32_t out[32][8];
	static uint64_t out64[32][4];
	for (int i = 0; i < nelem; i++) {
		int e = 0, v = i;
		while (v >> (e + 1))
			e++;
		uint16_t h = v ? (uint16_t)((e + 15) << 10 | ((v << (10 - e)) & 0x3ff)) : 0;
		float f = (float)i;
		double d = (double)i;
		if (kind == F16)
			memcpy(mat + 2 * i, &h, 2);
		else if (kind == F32)
			memcpy(mat + 4 * i, &f, 4);
		else if (kind == U8)
			mat[i] = (uint8_t)i;
		else
			memcpy(mat + 8 * i, &d, 8);
	}
	size_t nbytes = (size_t)nelem * (kind == F16 ? 2 : kind == F32 ? 4 : kind == U8 ? 1 : 8);
	char regs[128] = "", ptx[2048];
	for (int i = 0; i < nreg; i++)
		snprintf(regs + strlen(regs), sizeof regs - strlen(regs), "%s%%%s%d", i ? ", " : "", kind == F64 ? "fd" : "r", i);
	char st[512] = "";
	for (int i = 0; i < nreg; i++)
		snprintf(st + strlen(st), sizeof st - strlen(st), "st.global.b%d [%%rd4+%d], %%%s%d;\n", kind == F64 ? 64 : 32,
			 kind == F64 ? 8 * i : 4 * i, kind == F64 ? "fd" : "r", i);
	snprintf(ptx, sizeof ptx,
		 ".version 7.8\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 ".reg .b32 %%r<10>; .reg .f64 %%fd<4>; .reg .b64 %%rd<8>;\n"
		 "ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out]; mov.u32 %%r9, %%tid.x;\n"
		 "%s {%s}, [%%rd1], %d;\n"
		 "mul.wide.u32 %%rd3, %%r9, 32; add.u64 %%rd4, %%rd2, %%rd3;\n"
		 "%s"
		 "ret;\n}\n",
		 ins, regs, ld, st);
	if (run_k("wmmax", cs, ptx, mat, nbytes, kind == F64 ? (void *)out64 : (void *)out, sizeof out, 32))
		return;
	for (int l = 0; l < 32; l++) {
		printf("wmmax %s lane %02d :", cs, l);
		for (int i = 0; i < nreg; i++)
			if (kind == F64)
				printf(" %016llx", (unsigned long long)out64[l][i]);
			else
				printf(" %08x", out[l][i]);
		printf("\n");
	}
}

static void g_wmmax(void)
{
	enum { F16, F32, U8, F64 };
	static const struct {
		const char *cs, *ins;
		int kind, nreg, ld, nelem;
	} c[] = {
		{ "a.col.f16", "wmma.load.a.sync.aligned.col.m16n16k16.global.f16", F16, 8, 16, 256 },
		{ "b.row.f16", "wmma.load.b.sync.aligned.row.m16n16k16.global.f16", F16, 8, 16, 256 },
		{ "c.row.f16", "wmma.load.c.sync.aligned.row.m16n16k16.global.f16", F16, 4, 16, 256 },
		{ "m32n8k16.a.row.f16", "wmma.load.a.sync.aligned.row.m32n8k16.global.f16", F16, 8, 16, 512 },
		{ "m32n8k16.b.col.f16", "wmma.load.b.sync.aligned.col.m32n8k16.global.f16", F16, 8, 16, 128 },
		{ "m32n8k16.c.row.f32", "wmma.load.c.sync.aligned.row.m32n8k16.global.f32", F32, 8, 8, 256 },
		{ "m8n32k16.a.row.f16", "wmma.load.a.sync.aligned.row.m8n32k16.global.f16", F16, 8, 16, 128 },
		{ "m8n32k16.b.col.f16", "wmma.load.b.sync.aligned.col.m8n32k16.global.f16", F16, 8, 16, 512 },
		{ "m8n32k16.c.row.f32", "wmma.load.c.sync.aligned.row.m8n32k16.global.f32", F32, 8, 32, 256 },
		{ "m16n16k8.a.row.tf32", "wmma.load.a.sync.aligned.row.m16n16k8.global.tf32", F32, 4, 8, 128 },
		{ "m16n16k8.b.col.tf32", "wmma.load.b.sync.aligned.col.m16n16k8.global.tf32", F32, 4, 8, 128 },
		{ "m16n16k16.a.row.u8", "wmma.load.a.sync.aligned.row.m16n16k16.global.u8", U8, 2, 16, 256 },
		{ "m16n16k16.b.col.u8", "wmma.load.b.sync.aligned.col.m16n16k16.global.u8", U8, 2, 16, 256 },
		{ "m8n8k4.a.row.f64", "wmma.load.a.sync.aligned.row.m8n8k4.global.f64", F64, 1, 4, 32 },
		{ "m8n8k4.b.col.f64", "wmma.load.b.sync.aligned.col.m8n8k4.global.f64", F64, 1, 4, 32 },
		{ "m8n8k4.c.row.f64", "wmma.load.c.sync.aligned.row.m8n8k4.global.f64", F64, 2, 8, 64 },
	};
	for (int i = 0; i < N(c); i++)
		wmmax_run(c[i].cs, c[i].ins, c[i].kind, c[i].nreg, c[i].ld, c[i].nelem);
}

/* ---- wgmma ----------------------------------------------------------------------
 * wgmma.mma_async m64n8k16 .f32.f16.f16, A and B from shared memory through
 * 128-byte-swizzled K-major descriptors (SBO 1,024), to settle how the
 * swizzle meets the start address and what the base offset (bits 49-51)
 * does (docs/EXECUTION.md, wgmma).  Shared memory: 12 KiB from a
 * 1,024-aligned start where every f16 holds its own index (byte offset / 2,
 * modulo 2,048), then B, written in the canonical layout: B[k][n] = 1 for
 * k = n, 2,048 for k = n + 8.  So D[m][n] = tag of the A element (m, n) +
 * 2,048 x tag of (m, n + 8): which bytes the hardware read for them.  Cases
 * differ by A's swizzle (128, 64, 32 bytes), start offset s and base
 * offset bo.  Prints D by rows. */

static void wgmma_run_t(unsigned sw, unsigned s, unsigned bo, int mn)
{
	static uint16_t sm[6656]; /* 12 KiB of tags, 1 KiB of B */
	float out[128][4];
	for (int i = 0; i < 6144; i++)
		sm[i] = 0;
	for (int i = 0; i < 6144; i++) {
		/* the f16 of the integer i % 2048 */
		int v = i % 2048, e = 0;
		if (!v) {
			sm[i] = 0;
			continue;
		}
		while (v >> (e + 1))
			e++;
		sm[i] = (uint16_t)((e + 15) << 10 | ((v << (10 - e)) & 0x3ff));
	}
	for (int i = 6144; i < 6656; i++)
		sm[i] = 0;
	for (int n = 0; n < 8; n++)
		for (int k = 0; k < 16; k++) {
			unsigned byte = (unsigned)(n * 128 + k * 2) ^ (unsigned)(n << 4);
			sm[6144 + byte / 2] = k == n ? 0x3c00 : k == n + 8 ? 0x6800 : 0;
		}
	/* the descriptors, less the start address the kernel adds */
	/* sw: the swizzle's width in bytes, 128, 64 or 32 (mode 1, 2, 3); SBO 8 rows of it */
	uint64_t mode = sw == 128 ? 1 : sw == 64 ? 2 : 3;
	/* MN-major (wgmmax): atoms of 8 K rows of sw bytes, LBO apart along M
	 * (64 f16 of M are 128 bytes), groups of 8 K rows SBO = 1,024 apart */
	uint64_t lbo = mn ? sw * 8 / 16 : 1, sbo = mn ? 1024 / 16 : sw * 8 / 16;
	uint64_t da = mode << 62 | sbo << 32 | lbo << 16 | (uint64_t)bo << 49 | s >> 4;
	uint64_t db = (uint64_t)1 << 62 | (uint64_t)64 << 32 | (uint64_t)1 << 16 | 12288 >> 4;
	static const char tmpl[] =
		".version 8.0\n.target sm_90a\n.address_size 64\n"
		".visible .entry w(.param .u64 in, .param .u64 out, .param .u64 da, .param .u64 db)\n.maxntid 128, 1, 1\n{\n"
		".reg .b64 %rd<12>; .reg .b32 %r<12>; .reg .f32 %f<4>; .reg .pred %p<2>;\n"
		".shared .align 1024 .b8 sm[13312];\n"
		"ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out]; ld.param.u64 %rd3, [da]; ld.param.u64 %rd4, [db];\n"
		"mov.u32 %r1, %tid.x; mov.u32 %r2, sm; mov.u32 %r3, %r1;\n"
		"COPY: setp.ge.u32 %p1, %r3, 3328; @%p1 bra COPIED;\n"
		"mul.wide.u32 %rd5, %r3, 4; add.u64 %rd6, %rd1, %rd5; ld.global.b32 %r4, [%rd6];\n"
		"shl.b32 %r5, %r3, 2; add.u32 %r6, %r2, %r5; st.shared.b32 [%r6], %r4;\n"
		"add.u32 %r3, %r3, 128; bra COPY;\n"
		"COPIED: fence.proxy.async.shared::cta;\n"
		"bar.sync 0;\n"
		"and.b32 %r7, %r2, 262128; shr.u32 %r7, %r7, 4; cvt.u64.u32 %rd7, %r7;\n"
		"add.u64 %rd8, %rd3, %rd7; add.u64 %rd9, %rd4, %rd7;\n"
		"mov.f32 %f0, 0f00000000; mov.f32 %f1, 0f00000000; mov.f32 %f2, 0f00000000; mov.f32 %f3, 0f00000000;\n"
		"setp.ne.u32 %p1, 0, 0;\n"
		"wgmma.fence.sync.aligned;\n"
		"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd8, %rd9, %p1, 1, 1, TRANS_A, 0;\n"
		"wgmma.commit_group.sync.aligned;\n"
		"wgmma.wait_group.sync.aligned 0;\n"
		"mul.wide.u32 %rd10, %r1, 16; add.u64 %rd11, %rd2, %rd10;\n"
		"st.global.v4.f32 [%rd11], {%f0, %f1, %f2, %f3};\n"
		"ret;\n}\n";
	char cs[32], ptx[sizeof tmpl];
	snprintf(cs, sizeof cs, "%ssw%u-s%04u-bo%u", mn ? "mn-" : "", sw, s, bo);
	const char *group = mn ? "wgmmax" : "wgmma";
	/* imm-trans-a: TRANS_A becomes "1", or "0" and a space */
	const char *at = strstr(tmpl, "TRANS_A");
	snprintf(ptx, sizeof ptx, "%.*s%s%s", (int)(at - tmpl), tmpl, mn ? "1      " : "0      ", at + 7);
	CUmodule mod;
	CUfunction f;
	CUdeviceptr din = 0, dout = 0;
	CUresult r = load(&mod, ptx, group, cs);
	if (!r) {
		if (!(r = cuModuleGetFunction(&f, mod, "w")) && !(r = cuMemAlloc(&din, sizeof sm)) &&
		    !(r = cuMemAlloc(&dout, sizeof out)) && !(r = cuMemcpyHtoD(din, sm, sizeof sm))) {
			void *args[] = { &din, &dout, &da, &db };
			if (!(r = cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, NULL, args, NULL)) && !(r = cuCtxSynchronize()))
				r = cuMemcpyDtoH(out, dout, sizeof out);
		}
		if (din)
			cuMemFree(din);
		if (dout)
			cuMemFree(dout);
		cuModuleUnload(mod);
	}
	if (r) {
		printf("%s %s : error %s\n", group, cs, errname(r));
		return;
	}
	/* thread 32w + 4g + t holds rows 16w + g (d0, d1) and + 8 (d2, d3), columns 2t, 2t + 1 */
	uint32_t d[64][8];
	for (int th = 0; th < 128; th++) {
		int w = th / 32, g = th % 32 / 4, t = th % 4;
		for (int i = 0; i < 4; i++)
			memcpy(&d[16 * w + g + 8 * (i >> 1)][2 * t + (i & 1)], &out[th][i], 4);
	}
	for (int m = 0; m < 64; m++) {
		printf("%s %s row %02d :", group, cs, m);
		for (int n = 0; n < 8; n++)
			printf(" %08x", d[m][n]);
		printf("\n");
	}
}

static void wgmma_run(unsigned sw, unsigned s, unsigned bo)
{
	wgmma_run_t(sw, s, bo, 0);
}

static void g_wgmma(void)
{
	static const unsigned S[] = { 0, 16, 32, 64, 128, 256, 384, 512, 640, 768, 896 };
	for (int i = 0; i < N(S); i++)
		wgmma_run(128, S[i], 0);
	/* A with 64- and 32-byte swizzles (B keeps 128) */
	static const unsigned S64[] = { 0, 16, 64, 128, 256, 512 };
	for (int i = 0; i < N(S64); i++)
		wgmma_run(64, S64[i], 0);
	for (int i = 0; i < N(S64); i++)
		wgmma_run(32, S64[i], 0);
	/* base offsets last: ptxvm refuses them */
	for (unsigned j = 1; j < 8; j++) {
		wgmma_run(128, 128 * j, j);
		wgmma_run(128, 0, j);
	}
	wgmma_run(64, 128, 1);
	wgmma_run(64, 256, 2);
	wgmma_run(32, 128, 1);
}

/* ---- wgmmax: the base offset with an MN-major A (imm-trans-a 1) ------------------
 * As wgmma, A read MN-major (docs/EXECUTION.md, wgmma): whether the
 * swizzle's row and the base offset act on the address as they do K-major. */
static void g_wgmmax(void)
{
	static const unsigned c[][3] = {
		{ 128, 0, 0 }, { 128, 128, 0 }, { 128, 0, 1 }, { 128, 128, 1 }, { 128, 256, 2 }, { 128, 0, 5 }, { 128, 896, 7 },
		{ 64, 0, 0 }, { 64, 128, 1 }, { 64, 0, 2 }, { 32, 0, 0 }, { 32, 128, 1 },
	};
	for (int i = 0; i < N(c); i++)
		wgmma_run_t(c[i][0], c[i][1], c[i][2], 1);
}

/* ---- mad1x: mad.f32 without a rounding modifier ---------------------------------
 * The form of sm_1x targets (PTX ISA 1.4, .target sm_10), which the manual
 * says the JIT makes fma.rn.ftz.f32 for later devices, and of sm_20 before
 * PTX ISA 3.2 (mad.rn.f32, the errata): docs/FLOAT.md 20.  Each thread
 * computes mad.f32 and mad.sat.f32 of one triple; 1+2^-23 squared less
 * 1+2^-22 is 2^-46 fused and 0 with sm_1x's truncated product. */
static void mad1x_run(const char *cs, const char *header)
{
	static const uint64_t AB[] = { 0x00000000, 0x80000000, 0x3f800000, 0xbfc00000, 0x00000001, 0x807fffff,
				       0x00800000, 0x3f7fffff, 0x7f7fffff, 0x7f800000, 0x7fffffff, 0x3f800001,
				       0x00400000, 0x4b000000, 0xa0000000, 0x1f800000 };
	static const uint64_t C[] = { 0x00000000, 0x80000000, 0xbf800002 };
	enum { NA = N(AB), NC = N(C), NT = NA * NA * NC };
	char ptx[2048];
	snprintf(ptx, sizeof ptx,
		 "%s\n"
		 ".entry k(.param .u64 in, .param .u64 out)\n{\n"
		 ".reg .u32 %%r<2>;\n.reg .u64 %%rd<6>;\n.reg .f32 %%f<6>;\n"
		 "cvt.u32.u16 %%r1, %%tid.x;\n"
		 "ld.param.u64 %%rd1, [in]; ld.param.u64 %%rd2, [out];\n"
		 "mul.wide.u32 %%rd3, %%r1, 12; add.u64 %%rd4, %%rd1, %%rd3;\n"
		 "ld.global.f32 %%f1, [%%rd4]; ld.global.f32 %%f2, [%%rd4+4]; ld.global.f32 %%f3, [%%rd4+8];\n"
		 "mad.f32 %%f4, %%f1, %%f2, %%f3;\nmad.sat.f32 %%f5, %%f1, %%f2, %%f3;\n"
		 "mul.wide.u32 %%rd3, %%r1, 8; add.u64 %%rd5, %%rd2, %%rd3;\n"
		 "st.global.f32 [%%rd5], %%f4; st.global.f32 [%%rd5+4], %%f5;\n"
		 "exit;\n}\n", header);
	uint32_t in[NT * 3], out[NT * 2];
	unsigned i = 0;
	for (int a = 0; a < NA; a++)
		for (int b = 0; b < NA; b++)
			for (int c = 0; c < NC; c++, i++)
				in[3 * i] = (uint32_t)AB[a], in[3 * i + 1] = (uint32_t)AB[b], in[3 * i + 2] = (uint32_t)C[c];
	if (run_k("mad1x", cs, ptx, in, sizeof in, out, sizeof out, NT))
		return;
	for (i = 0; i < NT; i++)
		printf("mad1x %s %08x %08x %08x : %08x %08x\n", cs, in[3 * i], in[3 * i + 1], in[3 * i + 2], out[2 * i],
		       out[2 * i + 1]);
}

static void g_mad1x(void)
{
	mad1x_run("sm_10", ".version 1.4\n.target sm_10, map_f64_to_f32\n");
	mad1x_run("sm_20", ".version 3.0\n.target sm_20\n");
}

/* ---- wmmaalign: the alignment a wmma load takes ---------------------------------
 * CUDA documents a 256-bit aligned matrix for load_matrix_sync; NVIDIA's
 * immaTensorCoreGemm loads 8-bit tiles 16 bytes into a row of shared
 * memory, and ptxvm takes 16 (docs/EXECUTION.md, to confirm on hardware).
 * One warp fills a shared tile with a pattern and loads an .u8 A fragment
 * (m16n16k16, row, 16 bytes a row) at each offset; every lane's two
 * registers are printed, or the error.  A fault spoils the context, so the
 * program starts itself anew after one (exec), skipping the offsets done
 * (ISA_WMMA_FROM). */
static void g_wmmaalign(void)
{
	static const unsigned off[] = { 0, 16, 32, 48, 8, 4, 1 };
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		".reg .b32 %r<16>;\n.reg .b64 %rd<4>;\n.shared .align 128 .b8 tile[1024];\n"
		"mov.u32 %r1, %tid.x;\nmov.u32 %r2, tile;\nshl.b32 %r3, %r1, 5;\nadd.u32 %r4, %r2, %r3;\n"
		"shl.b32 %r5, %r1, 3;\nmul.lo.u32 %r6, %r5, -1640531535;\n"          /* word i: i * 0x9e3779b1 */
		"add.u32 %r7, %r6, -1640531535;\nadd.u32 %r8, %r7, -1640531535;\nadd.u32 %r9, %r8, -1640531535;\n"
		"st.shared.v4.u32 [%r4], {%r6, %r7, %r8, %r9};\n"
		"add.u32 %r6, %r9, -1640531535;\nadd.u32 %r7, %r6, -1640531535;\nadd.u32 %r8, %r7, -1640531535;\n"
		"add.u32 %r9, %r8, -1640531535;\nst.shared.v4.u32 [%r4+16], {%r6, %r7, %r8, %r9};\n"
		"bar.sync 0;\nld.param.u64 %rd1, [in];\nld.global.u32 %r10, [%rd1];\nadd.u32 %r11, %r2, %r10;\n"
		"wmma.load.a.sync.aligned.row.m16n16k16.shared.u8 {%r12, %r13}, [%r11], 16;\n"
		"ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\n"
		"st.global.v2.u32 [%rd3], {%r12, %r13};\nret;\n}\n";
	const char *from = getenv("ISA_WMMA_FROM");
	for (int i = from ? atoi(from) : 0; i < N(off); i++) {
		char cs[32];
		snprintf(cs, sizeof cs, "u8.row+%u", off[i]);
		uint32_t out[64] = { 0 };
		if (run_k("wmmaalign", cs, ptx, &off[i], sizeof off[i], out, sizeof out, 32)) {
			char next[16];
			snprintf(next, sizeof next, "%d", i + 1);
			fflush(stdout);
			setenv("ISA_WMMA_FROM", next, 1);
			execv("/proc/self/exe", self_argv);
			printf("error isa: cannot start anew after a fault\n");
			exit(1);
		}
		printf("wmmaalign %s :", cs);
		for (int k = 0; k < 64; k++)
			printf(" %08x", out[k]);
		printf("\n");
	}
}

static const struct {
	const char *name;
	void (*run)(void);
} groups[] = {
	{ "f32", g_f32 }, { "f16", g_f16 }, { "bf16", g_bf16 }, { "f64", g_f64 }, { "cvt", g_cvt },
	{ "fp8", g_fp8 }, { "tf32", g_tf32 }, { "oob", g_oob }, { "int", g_int }, { "atom", g_atom }, { "misc", g_misc }, { "surf", g_surf }, { "surfx", g_surfx },
	{ "mma", g_mma }, { "mma.sp", g_mma_sp }, { "wmma", g_wmma }, { "wgmma", g_wgmma },
	{ "mmax", g_mmax }, { "wmmax", g_wmmax }, { "wgmmax", g_wgmmax },
};

/* isa [GROUP]: every group, or one; isa --groups: their names */
int main(int argc, char **argv)
{
	self_argv = argv;
	const char *only = argc > 1 ? argv[1] : NULL;
	if (only && !strcmp(only, "--groups")) {
		for (int i = 0; i < N(groups); i++)
			printf("%s\n", groups[i].name);
		return 0;
	}
	CUresult r;
	if ((r = cuInit(0)) || (r = cuDeviceGet(&dev, 0)) || (r = cuDevicePrimaryCtxRetain(&ctx, dev)) ||
	    (r = cuCtxSetCurrent(ctx))) {
		printf("error isa: no device: %s\n", errname(r));
		return 1;
	}
	for (int i = 0; i < N(groups); i++)
		if (want(only, groups[i].name)) {
			groups[i].run();
			fflush(stdout);
		}
	/* not among --groups (run.sh compares those with the golden files)
	 * until a GPU has recorded it */
	if (only && !strcmp(only, "mad1x"))
		g_mad1x();
	if (only && !strcmp(only, "wmmaalign"))
		g_wmmaalign();
	cuDevicePrimaryCtxRelease(dev);
	return 0;
}
