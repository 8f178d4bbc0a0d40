/* builtins_api.c: the public builtin interface (ptxvm.h) over src/builtins
 * (and which device-runtime calls the executor provides),
 * and the sample module of each builtin, made with the builder. */
#include "host.h"
#include "../builtins/builtins.h"
#include "../exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char why[512];

size_t ptxvm_builtin_count(void) { return builtin_count(); }
const char *ptxvm_builtin_why(void) { return why; }

static void fill(const Builtin *b, ptxvm_builtin *out)
{
	memset(out, 0, sizeof *out);
	out->id = b->id;
	snprintf(out->name, sizeof out->name, "%s", b->name);
	Buf f = { 0 };
	builtin_form(b, &f);
	snprintf(out->ptx, sizeof out->ptx, "%s", f.p);
	buf_free(&f);
	if (b->id != HANDLER_ID) {
		out->mode = builtin_mode[b->sust_mode];
		out->dim = builtin_dim[b->sust_dim];
		out->type = builtin_type[b->sust_type];
	} else {
		out->operation = b->op;
		out->element = out->name + strlen(b->op) + 1;
	}
	out->argument = b->arg == BA_MODE ? "mode" : b->arg == BA_COMP ? "component" : NULL;
	out->operands = (unsigned)builtin_nopnd(b);
}

int ptxvm_builtin_at(size_t i, ptxvm_builtin *out)
{
	Builtin b;
	if (!out || !builtin_at(i, &b))
		return -1;
	fill(&b, out);
	return 0;
}

static bool find(const char *s, Builtin *b)
{
	if (!s) {
		snprintf(why, sizeof why, "no builtin named");
		return false;
	}
	return builtin_find(s, b, why, sizeof why);
}

int ptxvm_builtin_find(const char *s, ptxvm_builtin *out)
{
	Builtin b;
	if (!out || !find(s, &b))
		return -1;
	fill(&b, out);
	return 0;
}

const char *ptxvm_builtin_operand(const ptxvm_builtin *pb, unsigned i)
{
	Builtin b;
	char w[8];
	if (!pb || !builtin_find(pb->name, &b, w, sizeof w) || i >= builtin_nopnd(&b))
		return NULL;
	return builtin_opnd_name(&b, i);
}

/* ---- the sample module -----------------------------------------------------
 * One thread per element: x from %tid.x (in bytes for surfaces), y and z
 * from %tid.y and %tid.z, the layer from %ctaid.x; stored data derives
 * from the thread; a load's first result goes to out[0]. */
typedef struct Regs {
	unsigned n[5];          /* b16 b32 b64 f32 pred: the next free index */
	char names[32][16];
} Regs;

static const char *fresh(Regs *r, size_t i, const char *type)
{
	static const char *const types[5] = { "b16", "b32", "b64", "f32", "pred" };
	static const char *const prefix[5] = { "%rs", "%r", "%rd", "%f", "%p" };
	int k = 0;
	while (k < 4 && strcmp(types[k], type))
		k++;
	snprintf(r->names[i], sizeof r->names[i], "%s%u", prefix[k], r->n[k]++);
	return r->names[i];
}

static int log2u(unsigned v)
{
	int l = 0;
	while (v > 1)
		v >>= 1, l++;
	return l;
}

char *ptxvm_builtin_module(const char *s)
{
	Builtin bi;
	if (!find(s, &bi))
		return NULL;
	ptxvm_builder *b = ptxvm_builder_create("sm_90", 80, 0);
	char kname[64];
	snprintf(kname, sizeof kname, "use%s", bi.name);
	ptxvm_builder_fn *f = ptxvm_build_kernel(b, kname);
	ptxvm_build_param(f, ".u64", "handle");
	ptxvm_build_param(f, ".u64", "out");
	ptxvm_build_regs(f, "b16", "%rs", 8);
	ptxvm_build_regs(f, "b32", "%r", 16);
	ptxvm_build_regs(f, "b64", "%rd", 8);
	ptxvm_build_regs(f, "f32", "%f", 24);
	ptxvm_build_regs(f, "pred", "%p", 2);
	Regs r = { { 0, 5, 4, 0, 0 }, { { 0 } } };
	ptxvm_build_ins(f, "ld.param.u64", "%rd1", "[handle]", NULL);
	ptxvm_build_ins(f, "ld.param.u64", "%rd2", "[out]", NULL);
	ptxvm_build_ins(f, "cvta.to.global.u64", "%rd3", "%rd2", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r1", "%tid.x", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r2", "%tid.y", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r3", "%tid.z", NULL);
	ptxvm_build_ins(f, "mov.u32", "%r4", "%ctaid.x", NULL);
	size_t n = builtin_nopnd(&bi), h = builtin_handle_index(&bi);
	const char *op[32];
	bool surface = bi.kind == BK_SUST || bi.kind == BK_SULD;
	char shift[16];
	snprintf(shift, sizeof shift, "%d", log2u(bi.vec * bi.bits / 8u));
	int first_result = -1;
	for (size_t i = 0; i < n; i++) {
		const char *nm = builtin_opnd_name(&bi, i), *ty = builtin_opnd_type(&bi, i);
		if (i == h) {
			op[i] = "%rd1";
			continue;
		}
		op[i] = fresh(&r, i, ty);
		bool coord = !strcmp(nm, "x") || !strcmp(nm, "y") || !strcmp(nm, "z") || !strcmp(nm, "layer") ||
			     !strcmp(nm, "face") || !strcmp(nm, "layerface");
		const char *src = !strcmp(nm, "x") ? "%r1" : !strcmp(nm, "y") ? "%r2" : !strcmp(nm, "z") ? "%r3" : "%r4";
		if (coord && surface && !strcmp(nm, "x"))
			ptxvm_build_ins(f, "shl.b32", op[i], src, shift, NULL);
		else if (coord && !strcmp(ty, "f32"))
			ptxvm_build_ins(f, "cvt.rn.f32.u32", op[i], src, NULL);
		else if (coord)
			ptxvm_build_ins(f, "mov.u32", op[i], src, NULL);
		else if (bi.kind == BK_SUST && !strcmp(ty, "b16"))
			ptxvm_build_ins(f, "cvt.u16.u32", op[i], "%r1", NULL);
		else if (bi.kind == BK_SUST && !strcmp(ty, "b32"))
			ptxvm_build_ins(f, "add.u32", op[i], "%r1", "7", NULL);
		else if (bi.kind == BK_SUST)
			ptxvm_build_ins(f, "cvt.u64.u32", op[i], "%r1", NULL);
		else if (!strcmp(nm, "lod") || !strncmp(nm, "dx", 2) || !strncmp(nm, "dy", 2))
			ptxvm_build_ins(f, "mov.f32", op[i], !strcmp(nm, "lod") ? "0f3F800000" : "0f3E000000", NULL);
		else if (first_result < 0 && strcmp(ty, "pred"))
			first_result = (int)i;
	}
	host_build_builtin(f, bi.name, bi.arg == BA_MODE ? 2 : 0, op, n);
	if (first_result >= 0) {
		char st[32];
		snprintf(st, sizeof st, "st.global.%s", builtin_opnd_type(&bi, (size_t)first_result));
		ptxvm_build_ins(f, st, "[%rd3]", op[first_result], NULL);
	}
	ptxvm_build_ins(f, "ret", NULL);
	char *text = ptxvm_builder_print(b);
	if (!text)
		snprintf(why, sizeof why, "%s", ptxvm_builder_error(b));
	ptxvm_builder_destroy(b);
	return text;
}

int ptxvm_device_runtime_provides(const char *name) { return exec_devrt_provides(name); }
