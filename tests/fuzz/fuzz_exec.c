/* fuzz_exec.c: libFuzzer target for the whole path to the executor.
 *
 * Any byte sequence that checks clean is loaded onto a fresh device and
 * its first kernel launched as harness.h describes.  Whatever the kernel
 * does, the launch must end with a result and a message and leave the host
 * process intact: no crash, no hang, no leak, no undefined behaviour.  A
 * finding becomes a file of tests/fuzz/regress/, replayed by make test.
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	HarnessRun run;
	if (harness_run((const char *)data, size, 0.05, &run) < 0)     /* a runaway kernel ends soon */
		abort();
	return 0;
}
