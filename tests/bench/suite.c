/* suite.c: one form of one kernel of the three-form benchmark (suite.sh).
 *
 *   suite FORM KERNEL OUT
 *
 * (`suite ocl-platform` names the OpenCL platform the ocl form uses.)
 *
 * FORM: c (plain C, one thread), omp (plain C, OpenMP, 2 threads), ocl
 * (OpenCL C of suite.cl, on the first OpenCL platform: PoCL where it is
 * installed), ptxvm1 / ptxvm2 (suite.ptx on ptxvm's interpreter with 1 or
 * 2 workers), jit1 / jit2 (the same on its compiling tier).
 * Makes the kernel's inputs (deterministic), runs it, writes its output to
 * OUT and prints "SECONDS PEAK_RSS_KB COMPILE_SECONDS": the seconds of the kernel's
 * launches alone (inputs made and copied before, outputs read after; for
 * OpenCL, the program built and the launches run once before, so that
 * PoCL's compilation is not counted), and the process's peak resident set.
 * The plain C does the operations of suite.cu in the same order (fmaf where
 * it has fmaf; build with -ffp-contract=off), so the outputs must agree
 * byte for byte.
 */
#define _GNU_SOURCE
#include "../../include/ptxvm.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#ifdef WITH_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif

#define M (1 << 20)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "suite: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	exit(2);
}

/* ---- the kernels: buffers, scalars, geometry --------------------------- */

enum { Z, F32, U32 };                   /* a buffer's contents: zeros, random floats, random words */
typedef struct Buf {
	size_t bytes;
	int init;
} Buf;

/* An argument: a buffer (its index) or a scalar. */
typedef struct Arg {
	char kind;                      /* 'b' buffer, 'i' int, 'f' float */
	int buf;
	int i;
	float f;
} Arg;

typedef struct Kernel {
	const char *name;
	Buf buf[4];
	int nbuf;
	Arg arg[6];
	int narg;
	unsigned grid[2], block[2];
	int launches;                   /* > 1: the first two buffers swap between launches */
	int out;                        /* the buffer the result is in */
} Kernel;

#define N16 (16 * M)
#define MM 1024                         /* matmul n */
#define SW 4096                         /* stencil side */
#define CN (1 << 20)                    /* collatz count */

static const Kernel kernels[] = {
	{ "vec_add", { { 4 * N16, F32 }, { 4 * N16, F32 }, { 4 * N16, Z } }, 3,
	  { { 'b', .buf = 0 }, { 'b', .buf = 1 }, { 'b', .buf = 2 }, { 'i', .i = N16 } }, 4, { N16 / 256, 1 }, { 256, 1 }, 1, 2 },
	{ "saxpy", { { 4 * N16, F32 }, { 4 * N16, F32 }, { 4 * N16, Z } }, 3,
	  { { 'f', .f = 1.5f }, { 'b', .buf = 0 }, { 'b', .buf = 1 }, { 'b', .buf = 2 }, { 'i', .i = N16 } }, 5, { N16 / 256, 1 },
	  { 256, 1 }, 1, 2 },
	{ "fma_loop", { { 4 * 512 * 1024, Z } }, 1, { { 'b', .buf = 0 }, { 'i', .i = 96 } }, 2, { 2048, 1 }, { 256, 1 }, 1, 0 },
	{ "block_reduce", { { 4 * N16, F32 }, { 4 * N16 / 256, Z } }, 2,
	  { { 'b', .buf = 0 }, { 'b', .buf = 1 }, { 'i', .i = N16 } }, 3, { N16 / 256, 1 }, { 256, 1 }, 1, 1 },
	{ "histogram", { { 4 * N16, U32 }, { 1024, Z } }, 2, { { 'b', .buf = 0 }, { 'b', .buf = 1 }, { 'i', .i = N16 } }, 3,
	  { 1024, 1 }, { 256, 1 }, 1, 1 },
	{ "histogram_shared", { { 4 * N16, U32 }, { 1024, Z } }, 2, { { 'b', .buf = 0 }, { 'b', .buf = 1 }, { 'i', .i = N16 } }, 3,
	  { 1024, 1 }, { 256, 1 }, 1, 1 },
	{ "matmul", { { 4 * MM * MM, F32 }, { 4 * MM * MM, F32 }, { 4 * MM * MM, Z } }, 3,
	  { { 'b', .buf = 0 }, { 'b', .buf = 1 }, { 'b', .buf = 2 }, { 'i', .i = MM } }, 4, { MM / 16, MM / 16 }, { 16, 16 }, 1, 2 },
	{ "stencil5", { { 4 * SW * SW, F32 }, { 4 * SW * SW, Z } }, 2,
	  { { 'b', .buf = 0 }, { 'b', .buf = 1 }, { 'i', .i = SW }, { 'i', .i = SW } }, 4, { SW / 16, SW / 16 }, { 16, 16 }, 10, 0 },
	{ "collatz", { { 4 * CN, Z } }, 1, { { 'b', .buf = 0 }, { 'i', .i = CN } }, 2, { CN / 256, 1 }, { 256, 1 }, 1, 0 },
};

/* Deterministic inputs: xorshift64; floats in [0, 1). */
static void fill(void *p, const Buf *b, unsigned seed)
{
	uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 1);
	size_t n = b->bytes / 4;
	uint32_t *w = p;
	for (size_t i = 0; i < n; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		uint32_t r = (uint32_t)(s >> 32);
		if (b->init == F32) {
			float f = (float)(r >> 8) * (1.0f / 16777216.0f);
			memcpy(&w[i], &f, 4);
		} else
			w[i] = b->init == U32 ? r : 0;
	}
}

/* ---- plain C: the same operations in the same order ---------------------- */

static void c_kernel(const Kernel *k, void **B, int nt)
{
	(void)nt;
	const char *nm = k->name;
	if (!strcmp(nm, "vec_add")) {
		const float *a = B[0], *b = B[1];
		float *c = B[2];
#pragma omp parallel for num_threads(nt) if (nt > 1)
		for (int i = 0; i < N16; i++)
			c[i] = a[i] + b[i];
	} else if (!strcmp(nm, "saxpy")) {
		const float *x = B[0], *y = B[1];
		float *o = B[2];
#pragma omp parallel for num_threads(nt) if (nt > 1)
		for (int i = 0; i < N16; i++)
			o[i] = fmaf(1.5f, x[i], y[i]);
	} else if (!strcmp(nm, "fma_loop")) {
		float *o = B[0];
#pragma omp parallel for num_threads(nt) if (nt > 1)
		for (int i = 0; i < 512 * 1024; i++) {
			float x = (float)i * 1e-6f;
			for (int it = 0; it < 96; it++) {
				x = fmaf(x, 0.999f, 0.001f);
				x = fmaf(x, 1.001f, -0.002f);
				x = fmaf(x, 0.998f, 0.003f);
				x = fmaf(x, 1.002f, -0.001f);
				x = fmaf(x, 0.997f, 0.002f);
				x = fmaf(x, 1.003f, -0.003f);
				x = fmaf(x, 0.996f, 0.001f);
				x = fmaf(x, 1.004f, -0.001f);
			}
			o[i] = x;
		}
	} else if (!strcmp(nm, "block_reduce")) {
		const float *in = B[0];
		float *o = B[1];
#pragma omp parallel for num_threads(nt) if (nt > 1)
		for (int blk = 0; blk < N16 / 256; blk++) {
			float s[256];
			memcpy(s, in + (size_t)blk * 256, sizeof s);
			for (int w = 128; w > 0; w >>= 1)
				for (int t = 0; t < w; t++)
					s[t] += s[t + w];
			o[blk] = s[0];
		}
	} else if (!strncmp(nm, "histogram", 9)) {
		const uint32_t *in = B[0];
		uint32_t *bins = B[1];
#pragma omp parallel num_threads(nt) if (nt > 1)
		{
			uint32_t h[256] = { 0 };
#pragma omp for
			for (int i = 0; i < N16; i++)
				h[in[i] & 255]++;
			for (int b = 0; b < 256; b++)
#pragma omp atomic
				bins[b] += h[b];
		}
	} else if (!strcmp(nm, "matmul")) {
		const float *A = B[0], *Bm = B[1];
		float *C = B[2];
#pragma omp parallel for num_threads(nt) if (nt > 1)
		for (int i = 0; i < MM; i++) {
			float *c = C + (size_t)i * MM;
			for (int j = 0; j < MM; j++)
				c[j] = 0.0f;
			for (int k = 0; k < MM; k++) {
				float a = A[(size_t)i * MM + k];
				const float *b = Bm + (size_t)k * MM;
				for (int j = 0; j < MM; j++)
					c[j] = fmaf(a, b[j], c[j]);
			}
		}
	} else if (!strcmp(nm, "stencil5")) {
		float *p = B[0], *q = B[1];
		for (int s = 0; s < 10; s++) {
#pragma omp parallel for num_threads(nt) if (nt > 1)
			for (int y = 0; y < SW; y++)
				for (int x = 0; x < SW; x++) {
					int i = y * SW + x;
					if (x == 0 || y == 0 || x == SW - 1 || y == SW - 1)
						q[i] = p[i];
					else
						q[i] = ((((p[i] + p[i - 1]) + p[i + 1]) + p[i - SW]) + p[i + SW]) * 0.2f;
				}
			float *t = p;
			p = q;
			q = t;
		}
	} else if (!strcmp(nm, "collatz")) {
		uint32_t *st = B[0];
#pragma omp parallel for num_threads(nt) if (nt > 1) schedule(dynamic, 4096)
		for (int i = 0; i < CN; i++) {
			uint64_t v = (uint64_t)i + 1;
			uint32_t s = 0;
			while (v != 1) {
				v = (v & 1) ? 3 * v + 1 : v >> 1;
				s++;
			}
			st[i] = s;
		}
	}
}

/* ---- ptxvm ---------------------------------------------------------------- */

/* jit: the compiling tier (1) or the interpreter (-1); *compile: the
 * seconds it took to generate, compile or load the code, which the time
 * returned leaves out. */
static double run_ptxvm(const Kernel *k, void **host, unsigned workers, int jit, double *compile)
{
	ptxvm_module *m = ptxvm_module_load_file("tests/bench/suite.ptx", NULL);
	if (!m || ptxvm_module_errors(m))
		die("tests/bench/suite.ptx does not load", m ? ptxvm_module_diagnostics(m) : NULL);
	ptxvm_device_opts o = { .workers = workers, .timeout = 0, .jit = jit };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p;
	if (!d || ptxvm_program_load(d, m, &p))
		die("cannot load the program", NULL);
	const ptxvm_kernel *kr = ptxvm_kernel_find(p, k->name);
	if (!kr)
		die("no such kernel in suite.ptx", k->name);
	uint64_t dp[4];
	for (int b = 0; b < k->nbuf; b++)
		if (ptxvm_mem_alloc(d, k->buf[b].bytes, &dp[b]) ||
		    ptxvm_memcpy_htod(d, dp[b], host[b], k->buf[b].bytes))
			die("cannot allocate device memory", NULL);
	ptxvm_launch_config cfg = { { k->grid[0], k->grid[1], 1 }, { k->block[0], k->block[1], 1 }, 0 };
	double t = 0;
	int out = k->out;
	for (int l = 0; l < k->launches; l++) {
		void *args[6];
		uint64_t bp[6];
		for (int a = 0; a < k->narg; a++) {
			const Arg *g = &k->arg[a];
			int b = g->buf;
			if (k->launches > 1 && g->kind == 'b' && b < 2 && (l & 1))
				b ^= 1;
			bp[a] = dp[b];
			args[a] = g->kind == 'b' ? (void *)&bp[a] : g->kind == 'i' ? (void *)&g->i : (void *)&g->f;
		}
		ptxvm_launch_stats st;
		double t0 = now();
		ptxvm_result r = ptxvm_launch(d, kr, &cfg, args, &st);
		t += now() - t0 - st.jit_seconds;
		*compile += st.jit_seconds;
		if (r)
			die("the launch failed", ptxvm_device_message(d));
		if (jit > 0 && !st.compiled)
			die("the kernel was not compiled", st.jit_note);
	}
	if (k->launches > 1)
		out = (k->launches & 1) ? 1 : 0;
	if (ptxvm_memcpy_dtoh(d, host[out], dp[out], k->buf[out].bytes))
		die("cannot read the result", NULL);
	ptxvm_device_destroy(d);
	ptxvm_module_free(m);
	return t;
}

/* ---- OpenCL ---------------------------------------------------------------- */

#ifdef WITH_OPENCL
static void clcheck(cl_int e, const char *what)
{
	if (e != CL_SUCCESS) {
		char b[32];
		snprintf(b, sizeof b, "error %d", (int)e);
		die(what, b);
	}
}

static double run_ocl(const Kernel *k, void **host)
{
	cl_platform_id pl;
	cl_device_id dev;
	cl_uint np = 0;
	cl_int e;
	clcheck(clGetPlatformIDs(1, &pl, &np), "no OpenCL platform");
	if (!np)
		die("no OpenCL platform", NULL);
	clcheck(clGetDeviceIDs(pl, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "no OpenCL device");
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	clcheck(e, "clCreateContext");
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
	clcheck(e, "clCreateCommandQueue");
	FILE *f = fopen("tests/bench/suite.cl", "rb");
	if (!f)
		die("cannot read tests/bench/suite.cl", NULL);
	static char src[1 << 16];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	const char *s = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &s, &len, &e);
	clcheck(e, "clCreateProgramWithSource");
	if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
		static char log[1 << 16];
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		die("suite.cl does not build", log);
	}
	cl_kernel kr = clCreateKernel(prog, k->name, &e);
	clcheck(e, "clCreateKernel");
	cl_mem mb[4];
	for (int b = 0; b < k->nbuf; b++) {
		mb[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, k->buf[b].bytes, NULL, &e);
		clcheck(e, "clCreateBuffer");
	}
	size_t gs[2] = { (size_t)k->grid[0] * k->block[0], (size_t)k->grid[1] * k->block[1] };
	size_t ls[2] = { k->block[0], k->block[1] };
	double t = 0;
	for (int pass = 0; pass < 2; pass++) {  /* the first compiles and warms; the second is timed */
		for (int b = 0; b < k->nbuf; b++)
			clcheck(clEnqueueWriteBuffer(q, mb[b], CL_TRUE, 0, k->buf[b].bytes, host[b], 0, NULL, NULL),
				"clEnqueueWriteBuffer");
		double t0 = now();
		for (int l = 0; l < k->launches; l++) {
			for (int a = 0; a < k->narg; a++) {
				const Arg *g = &k->arg[a];
				int b = g->buf;
				if (k->launches > 1 && g->kind == 'b' && b < 2 && (l & 1))
					b ^= 1;
				clcheck(g->kind == 'b' ? clSetKernelArg(kr, (cl_uint)a, sizeof(cl_mem), &mb[b])
					: g->kind == 'i' ? clSetKernelArg(kr, (cl_uint)a, sizeof(int), &g->i)
					: clSetKernelArg(kr, (cl_uint)a, sizeof(float), &g->f), "clSetKernelArg");
			}
			clcheck(clEnqueueNDRangeKernel(q, kr, k->grid[1] > 1 ? 2 : 1, NULL, gs, ls, 0, NULL, NULL),
				"clEnqueueNDRangeKernel");
		}
		clcheck(clFinish(q), "clFinish");
		t = now() - t0;
	}
	int out = k->launches > 1 ? ((k->launches & 1) ? 1 : 0) : k->out;
	clcheck(clEnqueueReadBuffer(q, mb[out], CL_TRUE, 0, k->buf[out].bytes, host[out], 0, NULL, NULL),
		"clEnqueueReadBuffer");
	for (int b = 0; b < k->nbuf; b++)
		clReleaseMemObject(mb[b]);
	clReleaseKernel(kr);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return t;
}
#endif

int main(int argc, char **argv)
{
#ifdef WITH_OPENCL
	if (argc == 2 && !strcmp(argv[1], "ocl-platform")) {      /* the platform the ocl form uses */
		cl_platform_id pl;
		cl_uint np = 0;
		char name[256] = "", ver[256] = "";
		if (clGetPlatformIDs(1, &pl, &np) != CL_SUCCESS || !np)
			die("no OpenCL platform", NULL);
		clGetPlatformInfo(pl, CL_PLATFORM_NAME, sizeof name, name, NULL);
		clGetPlatformInfo(pl, CL_PLATFORM_VERSION, sizeof ver, ver, NULL);
		printf("%s (%s)\n", name, ver);
		return 0;
	}
#endif
	if (argc != 4)
		die("usage: suite c|omp|ocl|ptxvm1|ptxvm2|jit1|jit2 KERNEL OUT", NULL);
	const char *form = argv[1];
	const Kernel *k = NULL;
	for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
		if (!strcmp(kernels[i].name, argv[2]))
			k = &kernels[i];
	if (!k)
		die("no such kernel", argv[2]);
	void *host[4];
	for (int b = 0; b < k->nbuf; b++) {
		host[b] = malloc(k->buf[b].bytes);
		if (!host[b])
			die("out of memory", NULL);
		fill(host[b], &k->buf[b], (unsigned)b);
	}
	double t, compile = 0;
	int out = k->launches > 1 ? ((k->launches & 1) ? 1 : 0) : k->out;
	if (!strcmp(form, "c") || !strcmp(form, "omp")) {
		double t0 = now();
		c_kernel(k, host, form[0] == 'o' ? 2 : 1);
		t = now() - t0;
	} else if (!strcmp(form, "ptxvm1") || !strcmp(form, "ptxvm2")) {
		t = run_ptxvm(k, host, form[5] == '1' ? 1 : 2, -1, &compile);
	} else if (!strcmp(form, "jit1") || !strcmp(form, "jit2")) {
		t = run_ptxvm(k, host, form[3] == '1' ? 1 : 2, 1, &compile);
	} else if (!strcmp(form, "ocl")) {
#ifdef WITH_OPENCL
		t = run_ocl(k, host);
#else
		die("built without OpenCL", NULL);
#endif
	} else {
		die("no such form", form);
	}
	FILE *f = fopen(argv[3], "wb");
	if (!f || fwrite(host[out], 1, k->buf[out].bytes, f) != k->buf[out].bytes || fclose(f))
		die("cannot write the output", argv[3]);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%.6f %ld %.6f\n", t, ru.ru_maxrss, compile);
	return 0;
}
