/* t_forms.c: every instruction form the executor claims, executed.
 *
 * tests/isa-forms/cases.txt holds a module ptxas accepted for every row of
 * ops.def.  Each accepted module for sm_90 or below is loaded and launched
 * with one warp (registers start at zero, so memory forms usually fault at
 * address 0: that is an answer too), those for sm_90a on an sm_90a device.  A launch may succeed, fail with a
 * guest error, or be refused as not executable, with a reason; it must
 * never reach the executor's fallback ("this instruction is not executable
 * yet"), which would mean an opcode without a case.  Every opcode outside
 * src/isa/noexec.def must run in some form, and every opcode inside it
 * must be refused, so the table and the executor agree.
 */
#include "test.h"
#include "../src/isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const noexec[OPC__COUNT] = {
#define NX(op, why) [OPC_##op] = why,
#include "../src/isa/noexec.def"
#undef NX
};

void test_forms(const char *root)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/isa-forms/cases.txt", root);
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		fail("forms: cannot read %s", path);
		return;
	}
	ptxvm_device_opts o = { .workers = 1, .timeout = 2, .printf_stream = NULL };
	ptxvm_device *d90 = ptxvm_device_create(&o);
	o.arch = "sm_90a";                      /* the arch-specific forms (wgmma) run there */
	ptxvm_device *d90a = ptxvm_device_create(&o);
	uint8_t ran[OPC__COUNT] = { 0 }, refused[OPC__COUNT] = { 0 };
	int cases = 0, ok = 0, faults = 0, refusals = 0, bad = 0;
	for (char *p = text; (p = strstr(p, "@@ ")) && (p == text || p[-1] == '\n');) {
		char name[128] = "", verdict[16] = "", op[64] = "";
		sscanf(p + 3, "%127s %15s", name, verdict);
		char *body = strchr(p, '\n');
		if (!body)
			break;
		body++;
		char *end = strstr(body, "\n@@ ");
		size_t blen = end ? (size_t)(end + 1 - body) : strlen(body);
		p = body + blen;
		unsigned sm = 0;
		const char *s = strstr(name, ".sm_");
		if (s)
			sm = (unsigned)atoi(s + 4);
		if (strcmp(verdict, "ok") || strncmp(name, "F.", 2) || sm > 90)
			continue;
		sscanf(name + 2, "%63[^.]", op);
		int opc = isa_lookup_op(op, strlen(op));
		bool arch = strstr(name, ".sm_90a") != NULL;
		ptxvm_device *d = arch ? d90a : d90;
		ptxvm_check_opts co = { .arch = arch ? "sm_90a" : NULL };
		ptxvm_module *m = ptxvm_module_load(name, body, blen, &co);
		ptxvm_program *pg = NULL;
		if (opc < 0 || ptxvm_module_errors(m) || ptxvm_program_load(d, m, &pg)) {
			fail("forms: %s does not load: %s", name, ptxvm_device_message(d));
			ptxvm_module_free(m);
			continue;
		}
		ptxvm_module_free(m);
		cases++;
		const ptxvm_kernel *k = ptxvm_kernel_at(pg, 0);
		size_t pb = ptxvm_kernel_params_size(k);
		uint8_t *params = calloc(pb + 1, 1);
		ptxvm_launch_config cfg = { { 1, 1, 1 }, { 32, 1, 1 }, 0, { 0, 0, 0 } };
		ptxvm_result r = ptxvm_launch_packed(d, k, &cfg, params, pb, NULL);
		free(params);
		const char *msg = ptxvm_device_message(d);
		if (strstr(msg, "this instruction is not executable yet")) {
			fail("forms: %s reached the executor's fallback: %s", name, msg);
			bad++;
		} else if (r == PTXVM_ERROR_NOT_SUPPORTED) {
			refusals++;
			refused[opc] = 1;
		} else {
			r ? faults++ : ok++;
			ran[opc] = 1;
		}
		ptxvm_program_unload(pg);
	}
	ptxvm_device_destroy(d90);
	ptxvm_device_destroy(d90a);
	free(text);
	int missing = 0;
	for (int i = 0; i < OPC__COUNT; i++) {
		if (noexec[i] && ran[i]) {
			fail("forms: %s is in noexec.def but ran", isa_op[i].name);
			missing++;
		} else if (!noexec[i] && !ran[i] && refused[i]) {
			fail("forms: %s is executable by the table but no form of it ran", isa_op[i].name);
			missing++;
		}
	}
	if (!bad && !missing)
		passed++;
	printf("forms: %d forms launched: %d ran, %d stopped with a guest error, %d refused as not "
	       "executable yet\n", cases, ok, faults, refusals);
}
