/* tensor.c: the interface's tensor maps (include/ptxvm.h), over src/tmap. */
#include "host.h"
#include "../tmap/tmap.h"

#include <stdint.h>

static ptxvm_result done(ptxvm_device *d, const char *fn, const void *map, const char *why)
{
	if (!why && !map)
		why = "the map is NULL";
	if (!why && (uintptr_t)map % 64)
		why = "the map is not 64-byte aligned";
	if (why)
		return host_say(d, PTXVM_ERROR_INVALID_VALUE, "%s: %s", fn, why);
	return host_say(d, PTXVM_SUCCESS, NULL);
}

ptxvm_result ptxvm_tensor_map_tiled(ptxvm_device *d, void *map, unsigned dtype, unsigned rank, uint64_t addr,
				    const uint64_t *dims, const uint64_t *strides, const uint32_t *box,
				    const uint32_t *element_strides, unsigned interleave, unsigned swizzle,
				    unsigned l2promo, unsigned oobfill)
{
	const char *fn = "ptxvm_tensor_map_tiled";
	if (!map || (uintptr_t)map % 64)
		return done(d, fn, map, NULL);
	return done(d, fn, map, tmap_encode_tiled(map, dtype, rank, addr, dims, strides, box, element_strides,
						  interleave, swizzle, l2promo, oobfill));
}

ptxvm_result ptxvm_tensor_map_im2col(ptxvm_device *d, void *map, unsigned dtype, unsigned rank, uint64_t addr,
				     const uint64_t *dims, const uint64_t *strides, const int *lower_corner,
				     const int *upper_corner, unsigned channels_per_pixel, unsigned pixels_per_column,
				     const uint32_t *element_strides, unsigned interleave, unsigned swizzle,
				     unsigned l2promo, unsigned oobfill)
{
	const char *fn = "ptxvm_tensor_map_im2col";
	if (!map || (uintptr_t)map % 64)
		return done(d, fn, map, NULL);
	return done(d, fn, map, tmap_encode_im2col(map, dtype, rank, addr, dims, strides, lower_corner,
						   upper_corner, channels_per_pixel, pixels_per_column,
						   element_strides, interleave, swizzle, l2promo, oobfill));
}

ptxvm_result ptxvm_tensor_map_replace_address(ptxvm_device *d, void *map, uint64_t addr)
{
	const char *fn = "ptxvm_tensor_map_replace_address";
	if (!map || (uintptr_t)map % 64)
		return done(d, fn, map, NULL);
	return done(d, fn, map, tmap_replace_address(map, addr));
}
