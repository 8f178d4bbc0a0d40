/* harness.h: how fuzz_exec.c launches a module, shared with the tests that
 * replay its findings (tests/t_hostile.c), so that a finding replays
 * as it was found, but for the launch's time limit, which the caller
 * chooses: the fuzzer a short one, the replay a long one (no finding is a
 * timeout, and a sanitizer build on a busy machine is slow).
 *
 * The module is loaded onto a fresh device and its first kernel launched
 * on a small grid: 8-byte parameters get a buffer of HARNESS_BUF bytes
 * (or, for a parameter whose name says "surf" or a .surfref one, a surface
 * object over a small 2D array; "tex" or .texref, a texture object, linear
 * and clamped, over a small f32 array; "samp" or .samplerref, a sampler
 * object), other scalars the value 16, arrays zeros.  The time limit and
 * a small printf FIFO keep every run bounded.
 */
#ifndef PTXVM_FUZZ_HARNESS_H
#define PTXVM_FUZZ_HARNESS_H

#include "../../include/ptxvm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HARNESS_BUF 1024
#define HARNESS_MAX_PARAMS 64

typedef struct HarnessRun {
	int checked;            /* the module checked clean */
	int launched;           /* a kernel was launched; then: */
	ptxvm_result result;
	char message[1024];
	uint8_t buf0[HARNESS_BUF];      /* the first buffer after the launch */
} HarnessRun;

static FILE *harness_null(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* Runs text, its launch limited to timeout seconds; fails (returns -1)
 * only where the library broke its own interface, which the caller treats
 * as a crash. */
static int harness_run(const char *text, size_t size, double timeout, HarnessRun *out)
{
	memset(out, 0, sizeof *out);
	ptxvm_module *m = ptxvm_module_load("fuzz.ptx", text, size, NULL);
	if (!m)
		return -1;
	if (ptxvm_module_errors(m)) {
		ptxvm_module_free(m);
		return 0;
	}
	out->checked = 1;
	ptxvm_device_opts o = { .workers = 2, .timeout = timeout, .printf_stream = harness_null(),
				.printf_fifo_bytes = 4096 };
	ptxvm_device *d = ptxvm_device_create(&o);
	if (!d)
		return -1;
	ptxvm_program *p = NULL;
	ptxvm_result r = ptxvm_program_load(d, m, &p);
	ptxvm_module_free(m);
	const ptxvm_kernel *k = r == PTXVM_SUCCESS && ptxvm_kernel_count(p) ? ptxvm_kernel_at(p, 0) : NULL;
	int rc = 0;
	if (!k || ptxvm_kernel_param_count(k) > HARNESS_MAX_PARAMS) {
		out->result = r;
		snprintf(out->message, sizeof out->message, "%s", ptxvm_device_message(d));
		ptxvm_device_destroy(d);
		return 0;
	}
	size_t n = ptxvm_kernel_params_size(k);
	uint8_t *params = calloc(n + 1, 1);
	uint64_t first = 0;
	for (size_t i = 0; i < ptxvm_kernel_param_count(k) && !rc; i++) {
		ptxvm_param_info pi;
		if (ptxvm_kernel_param(k, i, &pi) || pi.offset + pi.size > n) {
			rc = -1;
			break;
		}
		uint64_t v = 0;
		ptxvm_texture_desc td = { { PTXVM_ADDRESS_CLAMP, PTXVM_ADDRESS_CLAMP, PTXVM_ADDRESS_CLAMP },
					  PTXVM_FILTER_LINEAR, PTXVM_READ_ELEMENT_TYPE, .normalized_coords = 1 };
		if (pi.size == 8 && (!strcmp(pi.type, "surfref") || strstr(pi.name, "surf"))) {
			ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_U32, 1, 8, 8, 0, 0 };
			uint64_t a;
			if (ptxvm_array_create(d, &ad, &a) || ptxvm_surface_create(d, a, &v))
				rc = -1;
		} else if (pi.size == 8 && (!strcmp(pi.type, "texref") || strstr(pi.name, "tex"))) {
			ptxvm_array_desc ad = { PTXVM_ARRAY_2D, PTXVM_FORMAT_F32, 1, 8, 8, 0, 0 };
			ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY };
			if (ptxvm_array_create(d, &ad, &rd.array) || ptxvm_texture_create(d, &rd, &td, &v))
				rc = -1;
		} else if (pi.size == 8 && (!strcmp(pi.type, "samplerref") || strstr(pi.name, "samp"))) {
			if (ptxvm_sampler_create(d, &td, &v))
				rc = -1;
		} else if (pi.size == 8) {
			uint8_t init[HARNESS_BUF];
			for (size_t b = 0; b < sizeof init; b++)
				init[b] = (uint8_t)(b * 37 + i);
			if (ptxvm_mem_alloc(d, HARNESS_BUF, &v) || ptxvm_memcpy_htod(d, v, init, sizeof init))
				rc = -1;
			if (!first)
				first = v;
		} else if (pi.size <= 4) {
			v = 16;
		}
		if (pi.size <= 8)
			memcpy(params + pi.offset, &v, pi.size);
	}
	if (!rc) {
		ptxvm_launch_config cfg = { { 2, 1, 1 }, { 32, 2, 1 }, 64, { 0, 0, 0 } };
		out->launched = 1;
		out->result = ptxvm_launch_packed(d, k, &cfg, params, n, NULL);
		snprintf(out->message, sizeof out->message, "%s", ptxvm_device_message(d));
		if (out->result != PTXVM_SUCCESS && !out->message[0])
			rc = -1;        /* a failure must say why */
		if (first && ptxvm_memcpy_dtoh(d, out->buf0, first, HARNESS_BUF))
			rc = -1;
	}
	free(params);
	ptxvm_device_destroy(d);
	return rc;
}

#endif
