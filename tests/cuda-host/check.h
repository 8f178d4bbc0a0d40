// check.h: what the self-checking programs of tests/cuda-host share.
// Each check prints one "PASS what" or "FAIL what: detail" line; main ends
// with `return finish();`, non-zero when anything failed.  A runtime call
// that must succeed is wrapped in CK(): its failure ends the program.
#ifndef CUDA_HOST_CHECK_H
#define CUDA_HOST_CHECK_H

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks_failed, checks_passed;

#define CK(call)                                                                                    \
	do {                                                                                        \
		cudaError_t e_ = (call);                                                            \
		if (e_ != cudaSuccess) {                                                            \
			printf("FAIL %s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_), \
			       cudaGetErrorString(e_));                                             \
			fflush(stdout);                                                             \
			exit(1);                                                                    \
		}                                                                                   \
	} while (0)

// One check: ok, and a description (printf format) of what was checked.
static void expect(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void expect(bool ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf(ok ? "PASS " : "FAIL ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	if (ok)
		checks_passed++;
	else
		checks_failed++;
}

// Compares n values with a reference; names the first difference.
template <typename T> static void expect_eq(const char *what, const T *got, const T *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&got[i], &want[i], sizeof(T))) {
			expect(false, "%s: element %zu differs (of %zu)", what, i, n);
			return;
		}
	expect(true, "%s (%zu elements)", what, n);
}

static int finish(void)
{
	printf("%s: %d checks passed, %d failed\n", checks_failed ? "FAIL" : "PASS", checks_passed, checks_failed);
	return checks_failed != 0;
}

#endif
