/* proc.c: cuGetProcAddress over the export list (api.c). */
#include "cu.h"

#include <string.h>


enum { CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2 };
enum { CU_GET_PROC_ADDRESS_SUCCESS, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT };

/* The newest version of name not after `version`: the per-thread-stream
 * variant when flags ask for one and there is one, else the ordinary. */
CUresult cuGetProcAddress_v2(const char *name, void **pfn, int version, uint64_t flags, int *status)
{
	if (!name || !pfn || (flags & ~(uint64_t)3))
		return CUDA_ERROR_INVALID_VALUE;
	const CuEntry *best = NULL, *best_pt = NULL;
	int known = 0;
	int want_pt = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
	for (size_t i = 0; i < cu_api_count; i++) {
		const CuEntry *e = &cu_api[i];
		if (strcmp(e->name, name))
			continue;
		known = 1;
		if (e->version > version)
			continue;
		if (!e->stream && (!best || e->version >= best->version))
			best = e;
		if (e->stream && want_pt && (!best_pt || e->version >= best_pt->version))
			best_pt = e;
	}
	if (best_pt)
		best = best_pt;
	*pfn = best ? best->fn : NULL;
	if (status)
		*status = best ? CU_GET_PROC_ADDRESS_SUCCESS
		       : known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	if (!best)
		cu_log("cuGetProcAddress(%s, %d, %llu): %s", name, version, (unsigned long long)flags,
		       known ? "only in a newer version" : "no such function");
	return best ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuGetProcAddress(const char *name, void **pfn, int version, uint64_t flags)
{
	return cuGetProcAddress_v2(name, pfn, version, flags, NULL);
}
