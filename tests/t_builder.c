/* t_builder.c: the module builder (part of the builtins group).
 *
 *   emission   handles by value and by pointer, module-scope images with
 *              sampler initializers: the exact lines, a clean check, and
 *              ptxas's verdict where it exists
 *   images     seed 004's four "Invalid image type" messages
 *   refusals   bad builtins, operand counts, arguments, mnemonics and
 *              names are refused and add nothing
 *   end to end kernels built with builtin calls give, on ptxvm, what the
 *              nvcc-compiled kernels of tests/cuda/surfaces.cu give
 */
#include "test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int bad;

#define CHECK(cond, ...) ((cond) ? (void)0 : (void)(bad++, fail(__VA_ARGS__)))

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)) != NULL; p += n)
		if ((p == text || p[-1] == '\n' || p[-1] == '\t') && (p[n] == '\n' || p[n] == 0))
			return true;
	return false;
}

/* The text checks clean; where ptxas exists, it assembles too. */
static void check_text(const char *what, const char *text)
{
	ptxvm_module *m = ptxvm_module_load(what, text, strlen(text), NULL);
	if (ptxvm_module_errors(m)) {
		char *d = ptxvm_module_diagnostics(m);
		bad++, fail("builder: %s does not check:\n%s", what, d);
		free(d);
	}
	ptxvm_module_free(m);
	const char *ptxas = "/usr/local/cuda/bin/ptxas";
	if (access(ptxas, X_OK) != 0) {
		printf("builder: %s not found: ptxas's verdict on %s is skipped\n", ptxas, what);
		return;
	}
	char path[] = "/tmp/ptxvm-builder-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		bad++, fail("builder: cannot write %s", path);
		if (fd >= 0)
			close(fd), unlink(path);
		return;
	}
	close(fd);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "%s -arch=sm_90 -o /dev/null %s 2>&1", ptxas, path);
	FILE *p = popen(cmd, "r");
	char out[512] = "";
	size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
	out[n] = 0;
	int rc = p ? pclose(p) : -1;
	CHECK(rc == 0, "builder: ptxas rejects %s: %s", what, out);
	unlink(path);
}

static void emission(void)
{
	ptxvm_builder *b = ptxvm_builder_create("sm_90", 80, 0);
	ptxvm_sampler smp = { { "wrap", "clamp_to_edge", NULL }, "linear", NULL };
	CHECK(ptxvm_build_image(b, PTXVM_TEXREF, "gt", &smp) == 0, "builder: texref: %s", ptxvm_builder_error(b));
	CHECK(ptxvm_build_image(b, PTXVM_SURFREF, "gs", NULL) == 0, "builder: surfref: %s", ptxvm_builder_error(b));
	CHECK(ptxvm_build_image(b, PTXVM_SAMPLERREF, "gsm", NULL) == -1 &&
	      strstr(ptxvm_builder_error(b), "texmode_independent"),
	      "builder: a .samplerref in unified mode was taken, or refused without naming texmode_independent");
	ptxvm_builder_fn *f = ptxvm_build_kernel(b, "k");
	CHECK(ptxvm_build_image_param(f, PTXVM_TEXREF, 0, "pt") == 0 && ptxvm_build_image_param(f, PTXVM_SURFREF, 0, "ps") == 0 &&
	      ptxvm_build_image_param(f, PTXVM_TEXREF, 1, "ppt") == 0 && ptxvm_build_image_param(f, PTXVM_SURFREF, 1, "pps") == 0 &&
	      ptxvm_build_image_param(f, PTXVM_SAMPLERREF, 1, "ppsm") == 0 && ptxvm_build_param(f, ".u64", "out") == 0,
	      "builder: image parameters: %s", ptxvm_builder_error(b));
	ptxvm_build_regs(f, "b32", "%r", 8);
	ptxvm_build_regs(f, "f32", "%f", 8);
	ptxvm_build_ins(f, "mov.u32", "%r1", "%tid.x", NULL);
	CHECK(ptxvm_build_builtin(f, "__isurf1Dread_int", 1, "%r2", "ps", "%r1", NULL) == 0 &&
	      ptxvm_build_builtin(f, "__isurf2Dwrite_v2_int", 0, "%r2", "gs", "%r1", "%r1", NULL) == 0 &&
	      ptxvm_build_builtin(f, "__itex1Dfetch_float4", 0, "%f0", "%f1", "%f2", "%f3", "pt", "%r1", NULL) == 0 &&
	      ptxvm_build_builtin(f, "__itex2Dgather_float4", 3, "%f0", "%f1", "%f2", "%f3", "gt", "%f4", "%f5", NULL) == 0 &&
	      ptxvm_build_ins(f, "ret", NULL) == 0,
	      "builder: calls on handles: %s", ptxvm_builder_error(b));
	char *t = ptxvm_builder_print(b);
	if (!t) {
		bad++, fail("builder: unified module: %s", ptxvm_builder_error(b));
	} else {
		static const char *const lines[] = {
			".global .texref gt = { addr_mode_0 = wrap, addr_mode_1 = clamp_to_edge, filter_mode = linear };",
			".global .surfref gs;",
			".param .texref pt,", ".param .surfref ps,", ".param .u64 .ptr .texref ppt,",
			".param .u64 .ptr .surfref pps,", ".param .u64 .ptr .samplerref ppsm,",
			"suld.b.1d.b32.clamp {%r2}, [ps, {%r1}];",
			"sust.b.2d.b32.zero [gs, {%r1, %r1}], {%r2};",
			"tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [pt, {%r1}];",
			"tld4.a.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [gt, {%f4, %f5}];",
		};
		for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
			CHECK(has_line(t, lines[i]), "builder: unified module lacks '%s':\n%s", lines[i], t);
		check_text("the unified builder module", t);
	}
	free(t);
	ptxvm_builder_destroy(b);

	b = ptxvm_builder_create("sm_90", 80, PTXVM_TEXMODE_INDEPENDENT);
	ptxvm_sampler full = { { "clamp_to_border", "mirror", "wrap" }, "nearest", "1" };
	CHECK(ptxvm_build_image(b, PTXVM_SAMPLERREF, "smp", &full) == 0 && ptxvm_build_image(b, PTXVM_TEXREF, "tx", NULL) == 0,
	      "builder: independent images: %s", ptxvm_builder_error(b));
	f = ptxvm_build_kernel(b, "k2");
	CHECK(ptxvm_build_image_param(f, PTXVM_SAMPLERREF, 0, "psm") == 0, "builder: sampler param: %s",
	      ptxvm_builder_error(b));
	ptxvm_build_ins(f, "ret", NULL);
	CHECK(ptxvm_build_builtin(f, "__itex2D_float", 0, "%f0", "%f1", "%f2", "%f3", "tx", "%f4", "%f5", NULL) == -1 &&
	      strstr(ptxvm_builder_error(b), "unified"),
	      "builder: a unified-mode texture builtin in an independent module was taken");
	t = ptxvm_builder_print(b);
	if (!t) {
		bad++, fail("builder: independent module: %s", ptxvm_builder_error(b));
	} else {
		CHECK(has_line(t, ".target sm_90, texmode_independent"), "builder: no texmode_independent:\n%s", t);
		CHECK(has_line(t, ".global .samplerref smp = { addr_mode_0 = clamp_to_border, addr_mode_1 = mirror, "
			       "addr_mode_2 = wrap, filter_mode = nearest, force_unnormalized_coords = 1 };"),
		      "builder: the sampler initializer:\n%s", t);
		CHECK(has_line(t, ".param .samplerref psm"), "builder: the sampler parameter:\n%s", t);
		check_text("the independent builder module", t);
	}
	free(t);
	ptxvm_builder_destroy(b);
}

/* The call is refused, and its message says needle. */
#define REFUSED(b, call, needle) \
	CHECK((call) == -1 && strstr(ptxvm_builder_error(b), needle), "builder: %s: taken, or refused with '%s' " \
	      "(expected '%s')", #call, ptxvm_builder_error(b), needle)

static void images(void)
{
	ptxvm_builder *b = ptxvm_builder_create(NULL, 0, 0);
	ptxvm_build_image(b, PTXVM_TEXREF, "gt", NULL);
	ptxvm_build_image(b, PTXVM_SURFREF, "gs", NULL);
	ptxvm_builder_fn *f = ptxvm_build_kernel(b, "k");
	ptxvm_build_image_param(f, PTXVM_TEXREF, 0, "pt");
	ptxvm_build_image_param(f, PTXVM_SURFREF, 0, "ps");
	REFUSED(b, ptxvm_build_builtin(f, "__isurf2Dread_int", 2, "%r1", "gt", "%r2", "%r3", NULL),
		"Invalid image type in .suld");
	REFUSED(b, ptxvm_build_builtin(f, "__nvvm_sust_b_2d_i32_trap", 0, "pt", "%r2", "%r3", "%r1", NULL),
		"Invalid image type in .sust");
	REFUSED(b, ptxvm_build_builtin(f, "__itex2D_float4", 0, "%f1", "%f2", "%f3", "%f4", "ps", "%f5", "%f6", NULL),
		"Invalid image type in .tex");
	REFUSED(b, ptxvm_build_ins(f, "suq.width.b32", "%r1", "[gt]", NULL), "Invalid image type in suq.");
	REFUSED(b, ptxvm_build_ins(f, "suld.b.1d.b32.trap", "{%r1}", "[pt, {%r2}]", NULL), "Invalid image type in .suld");
	REFUSED(b, ptxvm_build_ins(f, "tex.1d.v4.f32.s32", "{%f1, %f2, %f3, %f4}", "[gs, {%r2}]", NULL),
		"Invalid image type in .tex");
	/* the right image types and plain .u64 objects pass */
	CHECK(ptxvm_build_builtin(f, "__isurf2Dread_int", 2, "%r1", "gs", "%r2", "%r3", NULL) == 0 &&
	      ptxvm_build_builtin(f, "__itex2D_float4", 0, "%f1", "%f2", "%f3", "%f4", "gt", "%f5", "%f6", NULL) == 0 &&
	      ptxvm_build_builtin(f, "__itex2D_float4", 0, "%f1", "%f2", "%f3", "%f4", "%rd1", "%f5", "%f6", NULL) == 0 &&
	      ptxvm_build_ins(f, "suq.width.b32", "%r1", "[gs]", NULL) == 0,
	      "builder: a legal handle was refused: %s", ptxvm_builder_error(b));
	ptxvm_builder_destroy(b);
}

static void refusals(void)
{
	ptxvm_builder *b = ptxvm_builder_create("sm_90", 80, 0);
	ptxvm_builder_fn *f = ptxvm_build_kernel(b, "k");
	ptxvm_build_regs(f, "b32", "%r", 4);
	char *before = ptxvm_builder_print(b);
	REFUSED(b, ptxvm_build_builtin(f, "__isurf2Dread_int", 2, "%r1", "%rd1", "%r2", NULL), "takes 4 operands (d, s, x, y)");
	REFUSED(b, ptxvm_build_builtin(f, "__isurf2Dread_long", 2, "%r1", "%rd1", "%r2", "%r3", NULL), "longlong");
	REFUSED(b, ptxvm_build_builtin(f, "__isurf2Dread_int", 5, "%r1", "%rd1", "%r2", "%r3", NULL), "boundary mode 5");
	REFUSED(b, ptxvm_build_builtin(f, "__itex2Dgather_int4", 4, "%r0", "%r1", "%r2", "%r3", "%rd1", "%f1", "%f2", NULL),
		"component 4");
	REFUSED(b, ptxvm_build_builtin(f, "__nvvm_sust_b_2d_i32_wrap", 0, "%rd1", "%r1", "%r2", "%r3", NULL),
		"not a surface store");
	REFUSED(b, ptxvm_build_builtin(f, "__isurf1Dread_int", 2, "%r1", "%rd1", "{%r2}", NULL), "one register or value");
	REFUSED(b, ptxvm_build_ins(f, "frob.s32", "%r1", NULL), "unknown instruction 'frob'");
	REFUSED(b, ptxvm_build_ins(f, "add.q32", "%r1", "%r2", "%r3", NULL), "unknown modifier '.q32'");
	REFUSED(b, ptxvm_build_ins(f, "add.s32", "%r1", "%r2; ret", NULL), "operand 2");
	REFUSED(b, ptxvm_build_regs(f, "b32", "r", 4), "prefix");
	REFUSED(b, ptxvm_build_param(f, "u64", "p"), "parameter type");
	REFUSED(b, ptxvm_build_label(f, "1x"), "not a label");
	REFUSED(b, ptxvm_build_image(b, (ptxvm_image)9, "x", NULL), "image kind 9");
	REFUSED(b, ptxvm_build_image(b, PTXVM_TEXREF, "t", &(ptxvm_sampler){ { "bounce", NULL, NULL }, NULL, NULL }),
		"addr_mode_0 = 'bounce'");
	REFUSED(b, ptxvm_build_image(b, PTXVM_SURFREF, "s", &(ptxvm_sampler){ { NULL, NULL, NULL }, "linear", NULL }),
		"no sampler fields");
	REFUSED(b, ptxvm_build_image(b, PTXVM_TEXREF, "t", &(ptxvm_sampler){ { NULL, NULL, NULL }, NULL, "1" }),
		"force_unnormalized_coords is a field of .samplerref only");
	REFUSED(b, ptxvm_build_global(b, ".global .u32 a; .global .u32 b"), "not one declaration");
	char *after = ptxvm_builder_print(b);
	CHECK(before && after && !strcmp(before, after), "builder: a refused call changed the module:\n%s\n---\n%s",
	      before, after);
	free(before);
	free(after);
	/* operand text the front end cannot read fails at printing, with the place */
	ptxvm_build_ins(f, "add.s32", "%r1", "%r2 +* 3", NULL);
	char *t = ptxvm_builder_print(b);
	CHECK(!t && strstr(ptxvm_builder_error(b), "do not parse") && strstr(ptxvm_builder_error(b), "<builder>:"),
	      "builder: a malformed operand printed, or failed without a place: %s", ptxvm_builder_error(b));
	free(t);
	ptxvm_builder_destroy(b);
	CHECK(ptxvm_builder_create("sm_5", 0, 0) == NULL, "builder: an unknown target was taken");
}

/* ---- end to end --------------------------------------------------------------- */
/* x, y of the thread from the launch: %r8, %r12; %p1 when outside w x h */
static void thread_xy(ptxvm_builder_fn *f, const char *w, const char *h)
{
	ptxvm_build_ins(f, "mov.u32", "%r5", "%ctaid.x", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r6", "%ntid.x", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r7", "%tid.x", NULL);
	ptxvm_build_ins(f, "mad.lo.s32", "%r8", "%r5", "%r6", "%r7", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r9", "%ctaid.y", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r10", "%ntid.y", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r11", "%tid.y", NULL);
	ptxvm_build_ins(f, "mad.lo.s32", "%r12", "%r9", "%r10", "%r11", NULL);
	ptxvm_build_ins(f, "setp.ge.s32", "%p1", "%r8", w, NULL);
	ptxvm_build_ins(f, "setp.ge.s32", "%p2", "%r12", h, NULL);
	ptxvm_build_ins(f, "or.pred", "%p1", "%p1", "%p2", NULL);
}

/* surf2d_invert_uchar4: p = surf2Dread<uchar4>; p.xyz = 255 - p.xyz; write back */
static ptxvm_module *build_invert(void)
{
	ptxvm_builder *b = ptxvm_builder_create("sm_90", 80, 0);
	ptxvm_builder_fn *f = ptxvm_build_kernel(b, "invert");
	ptxvm_build_param(f, ".u64", "img");
	ptxvm_build_param(f, ".u32", "width");
	ptxvm_build_param(f, ".u32", "height");
	ptxvm_build_regs(f, "b32", "%r", 16);
	ptxvm_build_regs(f, "b16", "%rs", 16);
	ptxvm_build_regs(f, "b64", "%rd", 2);
	ptxvm_build_regs(f, "pred", "%p", 3);
	ptxvm_build_ins(f, "ld.param.u64", "%rd1", "[img]", NULL);
	ptxvm_build_ins(f, "ld.param.u32", "%r1", "[width]", NULL);
	ptxvm_build_ins(f, "ld.param.u32", "%r2", "[height]", NULL);
	thread_xy(f, "%r1", "%r2");
	ptxvm_build_ins(f, "@%p1 bra", "DONE", NULL);
	ptxvm_build_ins(f, "shl.b32", "%r13", "%r8", "2", NULL);
	ptxvm_build_builtin(f, "__isurf2Dread_uchar4", 2, "%rs1", "%rs2", "%rs3", "%rs4", "%rd1", "%r13", "%r12", NULL);
	ptxvm_build_ins(f, "mov.u16", "%rs9", "255", NULL);
	ptxvm_build_ins(f, "sub.s16", "%rs5", "%rs9", "%rs1", NULL);
	ptxvm_build_ins(f, "sub.s16", "%rs6", "%rs9", "%rs2", NULL);
	ptxvm_build_ins(f, "sub.s16", "%rs7", "%rs9", "%rs3", NULL);
	ptxvm_build_builtin(f, "__isurf2Dwrite_v2_uchar4", 2, "%rs5", "%rs6", "%rs7", "%rs4", "%rd1", "%r13", "%r12", NULL);
	ptxvm_build_label(f, "DONE");
	ptxvm_build_ins(f, "ret", NULL);
	ptxvm_module *m = ptxvm_builder_module(b, NULL);
	if (!m)
		fail("builder: invert: %s", ptxvm_builder_error(b));
	ptxvm_builder_destroy(b);
	return m;
}

/* surf2d_uint_shift_write: v = (y * width + x) * 2654435761 stored at
 * (x + dx, y + dy), zero mode, through the store builtin __nvvm_sust_b_2d_i32_zero */
static ptxvm_module *build_shift(void)
{
	ptxvm_builder *b = ptxvm_builder_create("sm_90", 80, 0);
	ptxvm_builder_fn *f = ptxvm_build_kernel(b, "shift");
	ptxvm_build_param(f, ".u64", "dst");
	ptxvm_build_param(f, ".u32", "dx");
	ptxvm_build_param(f, ".u32", "dy");
	ptxvm_build_param(f, ".u32", "width");
	ptxvm_build_param(f, ".u32", "height");
	ptxvm_build_regs(f, "b32", "%r", 20);
	ptxvm_build_regs(f, "b64", "%rd", 2);
	ptxvm_build_regs(f, "pred", "%p", 3);
	ptxvm_build_ins(f, "ld.param.u64", "%rd1", "[dst]", NULL);
	ptxvm_build_ins(f, "ld.param.u32", "%r1", "[dx]", NULL);
	ptxvm_build_ins(f, "ld.param.u32", "%r2", "[dy]", NULL);
	ptxvm_build_ins(f, "ld.param.u32", "%r3", "[width]", NULL);
	ptxvm_build_ins(f, "ld.param.u32", "%r4", "[height]", NULL);
	thread_xy(f, "%r3", "%r4");
	ptxvm_build_ins(f, "@%p1 bra", "DONE", NULL);
	ptxvm_build_ins(f, "mad.lo.s32", "%r13", "%r12", "%r3", "%r8", NULL);
	ptxvm_build_ins(f, "mul.lo.s32", "%r14", "%r13", "-1640531535", NULL);
	ptxvm_build_ins(f, "add.s32", "%r15", "%r8", "%r1", NULL);
	ptxvm_build_ins(f, "shl.b32", "%r16", "%r15", "2", NULL);
	ptxvm_build_ins(f, "add.s32", "%r17", "%r12", "%r2", NULL);
	ptxvm_build_builtin(f, "608", 0, "%rd1", "%r16", "%r17", "%r14", NULL);
	ptxvm_build_label(f, "DONE");
	ptxvm_build_ins(f, "ret", NULL);
	ptxvm_module *m = ptxvm_builder_module(b, NULL);
	if (!m)
		fail("builder: shift: %s", ptxvm_builder_error(b));
	ptxvm_builder_destroy(b);
	return m;
}

/* Runs kernel k of program p and kernel k2 of the built module on two
 * arrays made alike; their contents must come out equal. */
static void same_result(ptxvm_device *d, const ptxvm_kernel *k1, ptxvm_module *m, const char *what,
			const ptxvm_array_desc *ad, void **args_tail, size_t ntail, ptxvm_launch_config cfg)
{
	ptxvm_program *p2 = NULL;
	if (!m || ptxvm_module_errors(m) || ptxvm_program_load(d, m, &p2)) {
		char *dg = ptxvm_module_diagnostics(m);
		bad++, fail("builder: %s: the built module does not load: %s%s", what, dg ? dg : "", ptxvm_device_message(d));
		free(dg);
		return;
	}
	uint64_t a[2], s[2];
	size_t bytes = 0;
	unsigned char *init = NULL, *got[2] = { NULL, NULL };
	for (int i = 0; i < 2; i++) {
		ptxvm_array_create(d, ad, &a[i]);
		ptxvm_surface_create(d, a[i], &s[i]);
		bytes = ptxvm_array_bytes(d, a[i]);
		if (!init) {
			init = malloc(bytes);
			for (size_t j = 0; j < bytes; j++)
				init[j] = (unsigned char)(j * 37 + 11);
		}
		ptxvm_array_write(d, a[i], init, bytes);
		void *args[8] = { &s[i] };
		for (size_t j = 0; j < ntail; j++)
			args[1 + j] = args_tail[j];
		const ptxvm_kernel *k = i == 0 ? k1 : ptxvm_kernel_at(p2, 0);
		if (ptxvm_launch(d, k, &cfg, args, NULL))
			bad++, fail("builder: %s: launch %d fails: %s", what, i, ptxvm_device_message(d));
		got[i] = malloc(bytes);
		ptxvm_array_read(d, a[i], got[i], bytes);
		ptxvm_array_destroy(d, a[i]);
	}
	CHECK(!memcmp(got[0], got[1], bytes), "builder: %s: the built kernel and nvcc's disagree", what);
	CHECK(memcmp(got[0], init, bytes), "builder: %s: the kernels changed nothing", what);
	free(init);
	free(got[0]);
	free(got[1]);
	ptxvm_program_unload(p2);
}

static void end_to_end(const char *root)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/ptx/surfaces.ptx", root);
	ptxvm_module *nv = ptxvm_module_load_file(path, NULL);
	ptxvm_device_opts o = { .workers = 2 };
	ptxvm_device *d = ptxvm_device_create(&o);
	ptxvm_program *p = NULL;
	if (!nv || ptxvm_module_errors(nv) || ptxvm_program_load(d, nv, &p)) {
		bad++, fail("builder: tests/ptx/surfaces.ptx does not load");
	} else {
		int w = 13, h = 7, dx = 2, dy = -1;
		ptxvm_array_desc inv = { PTXVM_ARRAY_2D, PTXVM_FORMAT_U8, 4, (size_t)w, (size_t)h, 0, 0 };
		ptxvm_module *m = build_invert();
		same_result(d, ptxvm_kernel_find(p, "surf2d_invert_uchar4"), m, "surf2d_invert_uchar4", &inv,
			    (void *[]){ &w, &h }, 2, (ptxvm_launch_config){ { 2, 2, 1 }, { 8, 4, 1 }, 0, { 0, 0, 0 } });
		ptxvm_module_free(m);
		ptxvm_array_desc sh = { PTXVM_ARRAY_2D, PTXVM_FORMAT_U32, 1, 9, 5, 0, 0 };
		w = 9, h = 5;
		m = build_shift();
		same_result(d, ptxvm_kernel_find(p, "surf2d_uint_shift_write"), m, "surf2d_uint_shift_write", &sh,
			    (void *[]){ &dx, &dy, &w, &h }, 4, (ptxvm_launch_config){ { 2, 2, 1 }, { 8, 4, 1 }, 0, { 0, 0, 0 } });
		ptxvm_module_free(m);
	}
	ptxvm_program_unload(p);
	ptxvm_module_free(nv);
	ptxvm_device_destroy(d);
}

void test_builtins_builder(const char *root)
{
	void (*parts[3])(void) = { emission, images, refusals };
	for (int i = 0; i < 3; i++) {
		bad = 0;
		parts[i]();
		if (!bad)
			passed++;
	}
	bad = 0;
	end_to_end(root);
	if (!bad)
		passed++;
}
