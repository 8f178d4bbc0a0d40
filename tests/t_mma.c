/* t_mma.c: the warp-wide matrix instructions against references written
 * here from the PTX ISA manual's fragment figures.
 *
 *   ldmatrix   .x1/.x2/.x4, with and without .trans, through a .shared
 *              32-bit address, a generic 64-bit one, a 32-bit address
 *              without a state space and a .shared::cta 64-bit one; row
 *              addresses permuted across the lanes
 *   stmatrix   the same forms, over a sentinel-filled shared buffer
 *   movmatrix  the transpose of a fragment
 *   faults     a partial warp, a row outside shared memory, a misaligned row
 *
 * Each kernel is PTX generated here, checked and launched on one warp; the
 * reference places each fragment element where the manual's figure for
 * the form says thread t holds it (row t/4, columns 2(t%4) and 2(t%4)+1).
 */
#include "test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Runs kernel "k" of text on one CTA of `threads` threads with two
 * buffers (in: nin bytes, out: nout bytes, 0xee-filled) and copies out
 * back; returns the launch's result, or -1 (with why) if it does not load. */
static int launch(ptxvm_device *d, const char *name, const char *text, const void *in, size_t nin, void *out,
		  size_t nout, unsigned threads, char *why, size_t nwhy)
{
	ptxvm_program *p = load_ptx(d, name, text, why, nwhy);
	if (!p)
		return -1;
	uint64_t din = 0, dout = 0;
	int r = -1;
	if (ptxvm_mem_alloc(d, nin ? nin : 1, &din) || ptxvm_mem_alloc(d, nout, &dout) ||
	    (nin && ptxvm_memcpy_htod(d, din, in, nin)) || ptxvm_memset_d8(d, dout, 0xee, nout)) {
		snprintf(why, nwhy, "%s: device memory: %s", name, ptxvm_device_message(d));
	} else {
		ptxvm_launch_config c = { { 1, 1, 1 }, { threads, 1, 1 }, 0 };
		void *args[] = { &din, &dout };
		r = ptxvm_launch(d, ptxvm_kernel_find(p, "k"), &c, args, NULL);
		if (r)
			snprintf(why, nwhy, "%s: %s: %s", name, ptxvm_result_name((ptxvm_result)r),
				 ptxvm_device_message(d));
		else if (ptxvm_memcpy_dtoh(d, out, dout, nout))
			r = -1, snprintf(why, nwhy, "%s: copy back: %s", name, ptxvm_device_message(d));
	}
	if (din)
		ptxvm_mem_free(d, din);
	if (dout)
		ptxvm_mem_free(d, dout);
	ptxvm_program_unload(p);
	return r;
}

/* ---- ldmatrix, stmatrix, movmatrix ------------------------------------- */
/* Matrix k's row i lives in the 16-byte shared slot perm(8k + i). */
static unsigned perm(unsigned l) { return (l * 5 + 3) % 32; }
/* The 16-bit shared contents loaded by ldmatrix: distinct values. */
static uint16_t elem(unsigned i) { return (uint16_t)(i * 37 + 11); }
/* The register k of lane t before stmatrix / movmatrix: distinct halves. */
static uint32_t frag(unsigned k, unsigned t) { return (uint32_t)(k * 256 + t * 2) | (uint32_t)(k * 256 + t * 2 + 1) << 16; }

/* How each form reaches shared memory: the row address register, the
 * state-space words, and the PTX that makes the address from %r9 (the
 * shared-window offset). */
static const struct Addr {
	const char *name, *space, *reg, *make;
} addrs[] = {
	{ "shared32", ".shared", "%r9", "" },
	{ "generic64", "", "%rd5", "cvt.u64.u32 %rd5, %r9;\n\tcvta.shared.u64 %rd5, %rd5;\n" },
	{ "nospace32", "", "%r9", "" },
	{ "cta64", ".shared::cta", "%rd5", "cvt.u64.u32 %rd5, %r9;\n" },
};

/* The kernel: shared slots 0..31 get in's 512 bytes (ldmatrix) or the
 * sentinel (stmatrix); lane l's row address is slot perm(l). */
static void matrix_kernel(char *t, size_t n, bool st, unsigned nm, bool trans, const struct Addr *a)
{
	char regs[64] = "", stores[512] = "", inits[512] = "";
	size_t o = 0, so = 0, io = 0;
	for (unsigned k = 0; k < nm; k++) {
		o += (size_t)snprintf(regs + o, sizeof regs - o, "%s%%r%u", k ? ", " : "", 20 + k);
		so += (size_t)snprintf(stores + so, sizeof stores - so, "\tst.global.u32 [%%rd6+%u], %%r%u;\n", k * 128,
				       20 + k);
		/* frag(k, t) = (k*256 + 2t) | (k*256 + 2t + 1) << 16 */
		io += (size_t)snprintf(inits + io, sizeof inits - io,
				       "\tmad.lo.u32 %%r%u, %%r1, 0x20002, %u;\n", 20 + k, k * 256 | (k * 256 + 1) << 16);
	}
	char body[1024];
	if (st)
		snprintf(body, sizeof body,
			 "%s\tstmatrix.sync.aligned.m8n8.x%u%s%s.b16 [%s], {%s};\n\tbar.sync 0;\n"
			 "\tld.shared.v4.u32 {%%r2, %%r3, %%r4, %%r5}, [%%r7];\n"
			 "\tadd.s64 %%rd7, %%rd2, %%rd3;\n\tst.global.v4.u32 [%%rd7], {%%r2, %%r3, %%r4, %%r5};\n",
			 inits, nm, trans ? ".trans" : "", a->space, a->reg, regs);
	else
		snprintf(body, sizeof body, "\tldmatrix.sync.aligned.m8n8.x%u%s%s.b16 {%s}, [%s];\n%s", nm,
			 trans ? ".trans" : "", a->space, regs, a->reg, stores);
	snprintf(t, n, HDR
		 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		 "\t.reg .b32 %%r<32>;\n\t.reg .b64 %%rd<8>;\n"
		 "\t.shared .align 16 .b8 sm[512];\n"
		 "\tld.param.u64 %%rd1, [in];\n\tld.param.u64 %%rd2, [out];\n"
		 "\tmov.u32 %%r1, %%laneid;\n"
		 "\tmul.wide.u32 %%rd3, %%r1, 16;\n\tadd.s64 %%rd4, %%rd1, %%rd3;\n"
		 "\t%s\n"
		 "\tmov.u32 %%r6, sm;\n\tmad.lo.u32 %%r7, %%r1, 16, %%r6;\n"
		 "\tst.shared.v4.u32 [%%r7], {%%r2, %%r3, %%r4, %%r5};\n\tbar.sync 0;\n"
		 "\tmad.lo.u32 %%r8, %%r1, 5, 3;\n\tand.b32 %%r8, %%r8, 31;\n\tmad.lo.u32 %%r9, %%r8, 16, %%r6;\n"
		 "%s"
		 "\tmul.wide.u32 %%rd6, %%r1, 4;\n\tadd.s64 %%rd6, %%rd2, %%rd6;\n"
		 "%s\tret;\n}\n",
		 st ? "mov.u32 %r2, 0xeeeeeeee;\n\tmov.u32 %r3, %r2;\n\tmov.u32 %r4, %r2;\n\tmov.u32 %r5, %r2;"
		    : "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];",
		 a->make, body);
}

static void test_ldst(ptxvm_device *d)
{
	uint16_t in[256];
	for (unsigned i = 0; i < 256; i++)
		in[i] = elem(i);
	int cases = 0, bad = 0;
	for (int st = 0; st < 2; st++)
		for (unsigned nm = 1; nm <= 4; nm *= 2)
			for (int trans = 0; trans < 2; trans++)
				for (size_t ai = 0; ai < sizeof addrs / sizeof *addrs; ai++) {
					char text[4096], why[1024], name[96];
					snprintf(name, sizeof name, "%s.x%u%s.%s", st ? "stmatrix" : "ldmatrix", nm,
						 trans ? ".trans" : "", addrs[ai].name);
					matrix_kernel(text, sizeof text, st, nm, trans, &addrs[ai]);
					uint32_t got[128], want[128];
					uint16_t *w16 = (uint16_t *)want;
					memset(want, 0xee, sizeof want);
					/* M[k][i][j]: matrix k as the figure places it */
					uint16_t M[4][8][8];
					for (unsigned k = 0; k < nm; k++)
						for (unsigned i = 0; i < 8; i++)
							for (unsigned j = 0; j < 8; j++)
								M[k][i][j] = in[perm(8 * k + i) * 8 + j];
					for (unsigned k = 0; k < nm; k++)
						for (unsigned t = 0; t < 32; t++)
							for (unsigned h = 0; h < 2; h++) {
								unsigned r = t / 4, c = 2 * (t % 4) + h;
								if (trans) {     /* the fragment of the transpose */
									unsigned x = r;
									r = c, c = x;
								}
								if (st)  /* stored: row r of matrix k at slot perm(8k+r) */
									w16[perm(8 * k + r) * 8 + c] =
										(uint16_t)(frag(k, t) >> 16 * h);
								else
									w16[(k * 32 + t) * 2 + h] = M[k][r][c];
							}
					cases++;
					int r = launch(d, name, text, in, sizeof in, got, st ? 512 : nm * 128, 32, why,
						       sizeof why);
					if (r) {
						fail("mma: %s", why);
						bad++;
						continue;
					}
					for (unsigned i = 0; i < (st ? 128 : nm * 32); i++)
						if (got[i] != want[i]) {
							fail("mma: %s: word %u is 0x%08x, expected 0x%08x", name, i, got[i],
							     want[i]);
							bad++;
							break;
						}
				}
	if (!bad)
		passed++;
	if (verbose)
		printf("mma: %d ldmatrix/stmatrix forms\n", cases);
}

static void test_movmatrix(ptxvm_device *d)
{
	const char *text = HDR
		".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
		"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %laneid;\n"
		"\tmad.lo.u32 %r2, %r1, 0x20002, 0x10000;\n"
		"\tmovmatrix.sync.aligned.m8n8.trans.b16 %r3, %r2;\n"
		"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd2, %rd1, %rd2;\n\tst.global.u32 [%rd2], %r3;\n"
		"\tret;\n}\n";
	uint16_t A[8][8];
	for (unsigned t = 0; t < 32; t++)
		for (unsigned h = 0; h < 2; h++)
			A[t / 4][2 * (t % 4) + h] = (uint16_t)(frag(0, t) >> 16 * h);
	uint32_t want[32], got[32];
	for (unsigned t = 0; t < 32; t++)      /* lane t holds D = A^T at row t/4, columns 2(t%4) + h */
		want[t] = A[2 * (t % 4)][t / 4] | (uint32_t)A[2 * (t % 4) + 1][t / 4] << 16;
	char why[1024];
	int r = launch(d, "movmatrix", text, NULL, 0, got, sizeof got, 32, why, sizeof why);
	if (r) {
		fail("mma: %s", why);
		return;
	}
	for (unsigned t = 0; t < 32; t++)
		if (got[t] != want[t]) {
			fail("mma: movmatrix: lane %u holds 0x%08x, expected 0x%08x", t, got[t], want[t]);
			return;
		}
	passed++;
}

/* Faults: each names its cause. */
static void test_faults(ptxvm_device *d)
{
	static const struct {
		const char *name, *make, *insn;
		unsigned threads;
		int code;
		const char *msg;
	} cases[] = {
		{ "partial warp", "mov.u32 %r2, sm;", "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r2];", 16,
		  PTXVM_ERROR_ILLEGAL_INSTRUCTION, "all 32 lanes" },
		{ "global row", "ld.param.u64 %rd2, [out];", "ldmatrix.sync.aligned.m8n8.x4.b16 {%r3, %r4, %r5, %r6}, [%rd2];",
		  32, PTXVM_ERROR_ILLEGAL_ADDRESS, "not in shared memory" },
		{ "misaligned row", "mov.u32 %r2, sm;\n\tadd.u32 %r2, %r2, 8;",
		  "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r2], {%r3};", 32, PTXVM_ERROR_MISALIGNED_ADDRESS,
		  "not aligned" },
		{ "rows past shared", "mov.u32 %r2, 0x40000;", "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r3, %r4}, [%r2];",
		  32, PTXVM_ERROR_ILLEGAL_ADDRESS, "" },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[2048], why[1024];
		uint32_t out[4];
		snprintf(text, sizeof text, HDR
			 ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
			 "\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n\t.shared .align 16 .b8 sm[512];\n"
			 "\tmov.u32 %%r3, 0;\n\t%s\n\t%s\n\tret;\n}\n", cases[i].make, cases[i].insn);
		int r = launch(d, cases[i].name, text, NULL, 0, out, sizeof out, cases[i].threads, why, sizeof why);
		if (r != cases[i].code || !strstr(why, cases[i].msg)) {
			fail("mma: %s: expected %s (\"%s\"), got %d: %s", cases[i].name,
			     ptxvm_result_name((ptxvm_result)cases[i].code), cases[i].msg, r, r ? why : "success");
			bad++;
		}
	}
	if (!bad)
		passed++;
}

void test_mma(const char *root)
{
	(void)root;
	ptxvm_device *d = ptxvm_device_create(NULL);
	if (!d) {
		fail("mma: ptxvm_device_create failed");
		return;
	}
	test_ldst(d);
	test_movmatrix(d);
	test_faults(d);
	ptxvm_device_destroy(d);
}
