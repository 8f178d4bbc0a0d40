/* errtab.c: the texts kernels' cudaGetErrorName and cudaGetErrorString
 * return, as bytes of read-only device memory (the host places them once
 * per device, docs/EXECUTION.md).  Each error's name, then its
 * description: the name in words ("cudaErrorInvalidValue": "invalid
 * value"), as the driver library describes CUresult; after them all, the
 * text for a code that is no cudaError_t. */
#include "exec.h"

#include <ctype.h>
#include <string.h>

static const struct { int code; const char *name; } errs[] = {
#define X(name, value) { value, #name },
#include "cudart_errors.def"
#undef X
};
#define NERR (sizeof errs / sizeof *errs)
static const char unknown[] = "unrecognized error code";

/* Whether a word starts at n[i]: a capital after a small letter or a
 * digit, or before a small letter after a capital ("ECCUncorrectable"). */
static bool word_starts(const char *n, size_t i)
{
	return i && isupper((unsigned char)n[i]) &&
	       (!isupper((unsigned char)n[i - 1]) || islower((unsigned char)n[i + 1]));
}

/* The words of a name after "cuda" and "Error", in small letters but for
 * words of capitals only (ECC, MPS); their length.  out: NULL to count. */
static size_t words(const char *n, char *out)
{
	n += 4;                                 /* "cuda" */
	if (!strncmp(n, "Error", 5))
		n += 5;
	size_t k = 0;
	for (size_t s = 0, e; n[s]; s = e) {
		bool caps = true;
		for (e = s + 1; n[e] && !word_starts(n, e); e++)
			caps &= !islower((unsigned char)n[e]);
		caps &= e - s > 1;
		if (s && out)
			out[k] = ' ';
		k += s > 0;
		for (size_t j = s; j < e; j++, k++)
			if (out)
				out[k] = caps ? n[j] : (char)tolower((unsigned char)n[j]);
	}
	return k;
}

size_t exec_errtab(uint8_t *out)
{
	size_t at = 0;
	for (size_t i = 0; i < NERR; i++) {
		size_t n = strlen(errs[i].name) + 1, w = words(errs[i].name, NULL);
		if (out) {
			memcpy(out + at, errs[i].name, n);
			words(errs[i].name, (char *)out + at + n);
			out[at + n + w] = 0;
		}
		at += n + w + 1;
	}
	if (out)
		memcpy(out + at, unknown, sizeof unknown);
	return at + sizeof unknown;
}

uint64_t exec_errtab_at(int64_t code, bool text)
{
	uint64_t at = 0;
	for (size_t i = 0; i < NERR; i++) {
		size_t n = strlen(errs[i].name) + 1;
		if (errs[i].code == code)
			return text ? at + n : at;
		at += n + words(errs[i].name, NULL) + 1;
	}
	return at;
}

bool launch_uses_errtab(const Prog *p)
{
	for (uint32_t i = 0; i < p->nfn; i++)
		if (!(p->fn[i].ast && p->fn[i].ast->has_body) && strstr(p->fn[i].name, "GetError") &&
		    (strstr(p->fn[i].name, "Name") || strstr(p->fn[i].name, "String")))
			return true;
	return false;
}
