/* fuzz_check.c: libFuzzer target for the front end.
 *
 * Any byte sequence must come back as a module with diagnostics, never a
 * crash, a hang or a leak; a module that checks clean must print, and its
 * printed text must check clean and print the same again.
 */
#include "../../include/ptxvm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ptxvm_module *m = ptxvm_module_load("fuzz.ptx", (const char *)data, size, NULL);
	if (!m)
		abort();
	char *d = ptxvm_module_diagnostics(m);
	free(d);
	if (ptxvm_module_errors(m) == 0) {
		size_t l1, l2;
		char *t1 = ptxvm_module_format(m, &l1);
		ptxvm_module *m1 = ptxvm_module_load("fuzz.ptx", t1, l1, NULL);
		if (ptxvm_module_errors(m1) != 0)
			abort();        /* the printer wrote something the checker rejects */
		char *t2 = ptxvm_module_format(m1, &l2);
		if (l1 != l2 || memcmp(t1, t2, l1))
			abort();        /* fmt is not a fixed point */
		free(t1);
		free(t2);
		ptxvm_module_free(m1);
	}
	ptxvm_module_free(m);
	return 0;
}
