/* error.c: cuGetErrorName and cuGetErrorString, for every CUresult. */
#include "cu.h"

#include <ctype.h>
#include <string.h>

static const struct { int code; const char *name; } errors[] = {
#define X(name, value) { value, #name },
#include "errors.def"
#undef X
};

/* The description: the name without its prefix, in words ("invalid value"),
 * made once per code. */
static char text[sizeof errors / sizeof *errors][64];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void describe(void)
{
	for (size_t i = 0; i < sizeof errors / sizeof *errors; i++) {
		const char *n = errors[i].name;
		n += strncmp(n, "CUDA_ERROR_", 11) ? 5 : 11;    /* CUDA_SUCCESS: "success" */
		size_t j = 0;
		for (; n[j] && j < sizeof text[i] - 1; j++)
			text[i][j] = n[j] == '_' ? ' ' : (char)tolower((unsigned char)n[j]);
		text[i][j] = 0;
	}
}

static int find(int code)
{
	for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
		if (errors[i].code == code)
			return (int)i;
	return -1;
}

CUresult cuGetErrorName(int code, const char **out)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	int i = find(code);
	if (i < 0) {
		*out = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	*out = errors[i].name;
	return CUDA_SUCCESS;
}

CUresult cuGetErrorString(int code, const char **out)
{
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	int i = find(code);
	if (i < 0) {
		*out = NULL;
		return CUDA_ERROR_INVALID_VALUE;
	}
	pthread_once(&once, describe);
	*out = text[i];
	return CUDA_SUCCESS;
}
