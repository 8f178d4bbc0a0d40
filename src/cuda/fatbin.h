/* fatbin.h: the PTX inside what nvcc embeds in a program.
 *
 * cuModuleLoadData, cuModuleLoadFatBinary and cuLibraryLoadData receive one
 * of four things: the wrapper nvcc registers (magic 0x466243b1, pointing at
 * a fat binary), a fat binary (magic 0xBA55ED50), PTX text, or an ELF cubin.
 * ptxvm runs PTX, so each comes down to the best PTX text for the device's
 * target, or to a CUresult and a one-line reason.  The layout is described
 * in fatbin.c.  Self-contained (libc, and libzstd / liblz4 where the build
 * found them), so the test runner compiles it too.
 */
#ifndef PTXVM_CUDA_FATBIN_H
#define PTXVM_CUDA_FATBIN_H

#include <stddef.h>
#include <stdint.h>

/* len when the caller does not know the image's size (the driver's entry
 * points are given a pointer only): the headers' sizes are then trusted. */
#define CUDA_FATBIN_UNBOUNDED SIZE_MAX

/* The PTX of image for target ("sm_90", "sm_86", "compute_80"...): from a
 * fat binary, the PTX entry of the highest architecture not above the
 * target's, decompressed where it is compressed; PTX text is copied.  A
 * fat binary without PTX whose cubins define no function and no variable
 * (the device-link image the static runtime registers) is an empty module:
 * its PTX is a module header for the target, and why says so.
 * Returns a CUresult value: 0 with *ptx_out a malloc'd NUL-terminated text,
 * else CUDA_ERROR_INVALID_VALUE (1: NULL arguments, a target that is not
 * sm_N / compute_N), CUDA_ERROR_OUT_OF_MEMORY (2), CUDA_ERROR_INVALID_IMAGE
 * (200: not any of the four, truncated or inconsistent),
 * CUDA_ERROR_NO_BINARY_FOR_GPU (209: no PTX for the target; the reason names
 * the architectures there are, e.g. SASS-only ones, or the image is a
 * cubin), CUDA_ERROR_NOT_SUPPORTED (801: the entry's codec was not built in;
 * the reason names the library), with a one-line reason in why. */
int cuda_fatbin_ptx(const void *image, size_t len, const char *target, char **ptx_out, char *why,
		    size_t whylen);

/* The fat binary a host object (ELF, as nvcc -c and -dc write them)
 * carries in its __nv_relfatbin or .nv_fatbin section: *fatbin points
 * into object, *fatlen its section's size.  Returns 0, or
 * CUDA_ERROR_INVALID_IMAGE (not such an object, sizes outside it),
 * CUDA_ERROR_NO_BINARY_FOR_GPU (no such section; a cubin), with a reason. */
int cuda_object_fatbin(const void *object, size_t len, const void **fatbin, size_t *fatlen, char *why,
		       size_t whylen);

/* Which codecs this build decompresses: "zstd lz4", "zstd", ... or "". */
const char *cuda_fatbin_codecs(void);

#endif
