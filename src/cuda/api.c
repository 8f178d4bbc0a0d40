/* api.c: the export list (api.def) as a table for cuGetProcAddress, and
 * the default for every entry point this library does not implement: a
 * weak definition that returns CUDA_ERROR_NOT_SUPPORTED and, with
 * PTXVM_LOG=1, names itself once.  An implementation elsewhere in src/cuda
 * is a strong definition and replaces it at link time, in the table too. */
#include "cu.h"

#define CU_API(name, version, sym, stream) \
	__attribute__((weak)) CUresult sym(void); \
	__attribute__((weak)) CUresult sym(void) { static _Atomic int said; return cu_unsupported(#sym, &said); }
#include "api.def"
#undef CU_API

const CuEntry cu_api[] = {
#define CU_API(name, version, sym, stream) { #name, version, stream, (void *)sym },
#include "api.def"
#undef CU_API
};
const size_t cu_api_count = sizeof cu_api / sizeof *cu_api;
