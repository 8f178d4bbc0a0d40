/* t_tma.c: tensor maps and the tensor memory accelerator: the encoders'
 * argument rules (CUDA's cuTensorMapEncodeTiled / Im2col), and the
 * kernels of tests/cuda/tma.cu: loads of 1 to 5 dimensions with element
 * strides, out-of-bound fill (zeros, NaN) and the three swizzles, a map in
 * global memory, stores and reductions, im2col loads, .multicast::cluster,
 * prefetches, and bad maps; and tensormap.replace (tests/cuda/
 * tmreplace.sm_90a.cu) on each field, each against a CPU model written
 * here from the rules of docs/TENSOR.md.
 */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct T {
	ptxvm_device *d;
	ptxvm_program *p;
} T;

static uint64_t rs = 0x243f6a8885a308d3ull;
static uint8_t rnd8(void)
{
	rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
	return (uint8_t)(rs >> 24);
}

static void check(int good, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int good, const char *fmt, ...)
{
	if (good) {
		passed++;
		return;
	}
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	fail("tma: %s", buf);
}

static uint64_t up(T *t, const void *p, size_t n)
{
	uint64_t a = 0;
	ptxvm_mem_alloc(t->d, n, &a);
	ptxvm_memcpy_htod(t->d, a, p, n);
	return a;
}

static uint64_t zeros(T *t, size_t n)
{
	void *z = calloc(1, n);
	uint64_t a = up(t, z, n);
	free(z);
	return a;
}

static ptxvm_result launch(T *t, const char *k, unsigned g, unsigned b, void **args)
{
	const ptxvm_kernel *kh = ptxvm_kernel_find(t->p, k);
	if (!kh)
		return PTXVM_ERROR_NOT_FOUND;
	ptxvm_launch_config cfg = { { g, 1, 1 }, { b, 1, 1 }, 0, { 0, 0, 0 } };
	return ptxvm_launch(t->d, kh, &cfg, args, NULL);
}

/* ---- the model ------------------------------------------------------------ */
/* A tensor as the host sees it: bytes, element size, dims, byte strides. */
typedef struct Ten {
	unsigned rank, esize;
	uint64_t dim[5], stride[5];     /* stride[0] = esize */
	uint8_t *host;
	size_t bytes;
	uint64_t dev;
} Ten;

/* Dims with each row padded to `pad` bytes; random contents, uploaded. */
static void ten_make(T *t, Ten *x, unsigned rank, unsigned esize, const uint64_t *dim, unsigned pad)
{
	memset(x, 0, sizeof *x);
	x->rank = rank, x->esize = esize;
	x->stride[0] = esize;
	for (unsigned i = 0; i < rank; i++)
		x->dim[i] = dim[i];
	uint64_t s = (dim[0] * esize + pad - 1) / pad * pad;
	for (unsigned i = 1; i < rank; i++) {
		x->stride[i] = s;
		s *= dim[i];
	}
	x->bytes = s;
	x->host = malloc(s);
	for (size_t i = 0; i < s; i++)
		x->host[i] = rnd8();
	x->dev = up(t, x->host, s);
}

/* The 16-byte chunk of a 128-byte row of shared memory goes to chunk
 * (c XOR row) over the swizzle's 1, 2 or 3 bits; the row is the address's
 * 128-byte line. */
static uint32_t swz(unsigned mode, uint32_t a)
{
	if (!mode)
		return a;
	uint32_t bits = (1u << mode) - 1, row = a / 128, chunk = a / 16 % 8;
	uint32_t nc = (chunk & ~bits) | ((chunk ^ row) & bits);
	return a / 128 * 128 + nc * 16 + a % 16;
}

static void fill(uint8_t *p, unsigned esize, int nan)
{
	uint64_t v = 0;
	if (nan)
		v = esize == 2 ? 0x7ff7 : esize == 4 ? 0x7fffffff : 0x7fffffffffffffffull;
	memcpy(p, &v, esize);
}

/* The shared box a tile load gives: box b, element strides es (ignored
 * for dimension 0), at coordinates c, the box at shared address sa. */
static size_t ref_tile(const Ten *x, const uint32_t *b, const uint32_t *es, const int *c, unsigned sw, int nan,
		       uint32_t sa, uint8_t *out)
{
	unsigned n[5] = { 1, 1, 1, 1, 1 };
	for (unsigned i = 0; i < x->rank; i++)
		n[i] = i == 0 ? b[0] : (b[i] + es[i] - 1) / es[i];
	size_t k = 0;
	for (unsigned j4 = 0; j4 < n[4]; j4++)
	for (unsigned j3 = 0; j3 < n[3]; j3++)
	for (unsigned j2 = 0; j2 < n[2]; j2++)
	for (unsigned j1 = 0; j1 < n[1]; j1++)
	for (unsigned j0 = 0; j0 < n[0]; j0++, k++) {
		unsigned j[5] = { j0, j1, j2, j3, j4 };
		uint64_t off = 0;
		int in = 1;
		for (unsigned i = 0; i < x->rank; i++) {
			int64_t g = c[i] + (int64_t)j[i] * (i ? es[i] : 1);
			if (g < 0 || (uint64_t)g >= x->dim[i])
				in = 0;
			else
				off += (uint64_t)g * x->stride[i];
		}
		uint8_t *e = out + (swz(sw, sa + (uint32_t)(k * x->esize)) - sa);
		if (in)
			memcpy(e, x->host + off, x->esize);
		else
			fill(e, x->esize, nan);
	}
	return k * x->esize;
}

static const char *load_kernel(int global)
{
	return global == 2 ? "tma_load_const" : global ? "tma_load_global" : "tma_load";
}

/* Runs tma_load with the map a parameter (global 0), in global memory (1)
 * or in constant memory (2), and compares with the model. */
static void t_load(T *t, const char *what, unsigned dtype, const Ten *x, const uint32_t *box, const uint32_t *es,
		   unsigned sw, int nan, const int *c, int global)
{
	_Alignas(64) uint8_t map[128];
	ptxvm_result r = ptxvm_tensor_map_tiled(t->d, map, dtype, x->rank, x->dev, x->dim, x->stride + 1, box, es, 0, sw,
						0, nan);
	check(r == PTXVM_SUCCESS, "%s: encode: %s", what, ptxvm_device_message(t->d));
	if (r)
		return;
	static uint8_t want[16384 + 128], got[16384];
	int rank = (int)x->rank;
	int co[5] = { 0 };
	memcpy(co, c, sizeof(int) * x->rank);
	uint64_t dout = zeros(t, sizeof got), dsa = zeros(t, 4), dmap = up(t, map, sizeof map);
	unsigned bytes = 1;
	for (unsigned i = 0; i < x->rank; i++)
		bytes *= i == 0 ? box[0] : (box[i] + es[i] - 1) / es[i];
	bytes *= x->esize;
	void *args[] = { global ? (void *)&dmap : (void *)map, &rank, co, &bytes, &dout, &dsa };
	uint64_t cmap = 0;
	size_t cbytes = 0;
	if (global == 2 && (ptxvm_program_global(t->p, "const_map", &cmap, &cbytes) || cbytes != 128 ||
			    ptxvm_memcpy_htod(t->d, cmap, map, 128)))
		check(0, "%s: const_map: %s", what, ptxvm_device_message(t->d));
	r = launch(t, load_kernel(global), 1, 64, global == 2 ? args + 1 : args);
	check(r == PTXVM_SUCCESS, "%s: launch: %s: %s", what, ptxvm_result_name(r), ptxvm_device_message(t->d));
	if (r == PTXVM_SUCCESS) {
		uint32_t sa = 0;
		ptxvm_memcpy_dtoh(t->d, &sa, dsa, 4);
		ptxvm_memcpy_dtoh(t->d, got, dout, bytes);
		memset(want, 0xee, sizeof want);
		size_t n = ref_tile(x, box, es, c, sw, nan, sa, want);
		check(n == bytes && !memcmp(want, got, bytes), "%s: the box differs from the model", what);
	}
	ptxvm_mem_free(t->d, dout);
	ptxvm_mem_free(t->d, dsa);
	ptxvm_mem_free(t->d, dmap);
}

static void ten_free(T *t, Ten *x)
{
	ptxvm_mem_free(t->d, x->dev);
	free(x->host);
}

static void t_loads(T *t)
{
	Ten x;
	/* 1-d u8: inside, before the start, past the end */
	ten_make(t, &x, 1, 1, (const uint64_t[]){ 1000 }, 16);
	t_load(t, "1d u8", 0, &x, (const uint32_t[]){ 64 }, (const uint32_t[]){ 1 }, 0, 0, (const int[]){ 10 }, 0);
	t_load(t, "1d u8 before 0", 0, &x, (const uint32_t[]){ 64 }, (const uint32_t[]){ 1 }, 0, 0, (const int[]){ -16 }, 0);
	t_load(t, "1d u8 past the end", 0, &x, (const uint32_t[]){ 64 }, (const uint32_t[]){ 1 }, 0, 0, (const int[]){ 990 }, 0);
	ten_free(t, &x);
	/* 2-d f32, padded rows, a corner box: zeros, then NaN; 32B swizzle */
	ten_make(t, &x, 2, 4, (const uint64_t[]){ 37, 23 }, 64);
	const uint32_t b2[] = { 8, 5 }, e1[] = { 1, 1, 1, 1, 1 };
	t_load(t, "2d f32", 7, &x, b2, e1, 0, 0, (const int[]){ 3, 4 }, 0);
	t_load(t, "2d f32 corner, zero fill", 7, &x, b2, e1, 0, 0, (const int[]){ 32, 20 }, 0);
	t_load(t, "2d f32 corner, NaN fill", 7, &x, b2, e1, 0, 1, (const int[]){ 32, -2 }, 0);
	t_load(t, "2d f32 32B swizzle", 7, &x, b2, e1, 1, 0, (const int[]){ 30, 17 }, 0);
	t_load(t, "2d f32 from a map in global memory", 7, &x, b2, e1, 0, 0, (const int[]){ 1, 2 }, 1);
	t_load(t, "2d f32 from a map in constant memory", 7, &x, b2, e1, 1, 1, (const int[]){ 33, 19 }, 2);
	ten_free(t, &x);
	/* 3-d u16 with element strides 2 and 3 (dimension 0's is ignored), 128B swizzle */
	ten_make(t, &x, 3, 2, (const uint64_t[]){ 20, 9, 7 }, 16);
	t_load(t, "3d u16 element strides", 1, &x, (const uint32_t[]){ 16, 3, 4 }, (const uint32_t[]){ 5, 2, 3 }, 0, 0,
	       (const int[]){ 2, 1, 0 }, 0);
	t_load(t, "3d u16 128B swizzle", 1, &x, (const uint32_t[]){ 16, 8, 7 }, e1, 3, 0, (const int[]){ 8, 2, 1 }, 0);
	t_load(t, "3d f16 NaN fill", 6, &x, (const uint32_t[]){ 8, 4, 2 }, e1, 0, 1, (const int[]){ 15, 7, 6 }, 0);
	ten_free(t, &x);
	/* 4-d f64 */
	ten_make(t, &x, 4, 8, (const uint64_t[]){ 6, 5, 4, 3 }, 16);
	t_load(t, "4d f64", 8, &x, (const uint32_t[]){ 2, 2, 2, 2 }, e1, 0, 1, (const int[]){ -1, 3, 2, 1 }, 0);
	t_load(t, "4d f64 64B swizzle", 8, &x, (const uint32_t[]){ 8, 5, 4, 3 }, e1, 2, 0, (const int[]){ 0, 0, 0, 0 }, 0);
	ten_free(t, &x);
	/* 5-d u32 */
	ten_make(t, &x, 5, 4, (const uint64_t[]){ 4, 3, 3, 2, 2 }, 16);
	t_load(t, "5d u32", 2, &x, (const uint32_t[]){ 4, 2, 2, 2, 1 }, e1, 0, 0, (const int[]){ 0, 1, 2, 1, 1 }, 0);
	t_load(t, "5d u32 strided, 64B swizzle", 2, &x, (const uint32_t[]){ 8, 3, 3, 2, 2 },
	       (const uint32_t[]){ 1, 2, 1, 2, 1 }, 2, 0, (const int[]){ -2, 0, 0, 0, 1 }, 0);
	ten_free(t, &x);
	/* 2-d u8 with 128-byte rows and the 128B swizzle */
	ten_make(t, &x, 2, 1, (const uint64_t[]){ 300, 40 }, 16);
	t_load(t, "2d u8 128B swizzle", 0, &x, (const uint32_t[]){ 128, 24 }, e1, 3, 0, (const int[]){ 200, 20 }, 0);
	ten_free(t, &x);
}

/* ---- stores and reductions -------------------------------------------------- */
static void t_store(T *t, const char *what, unsigned dtype, unsigned rank, const uint64_t *dim, const uint32_t *box,
		    unsigned sw, const int *c, int op)
{
	Ten x;
	ten_make(t, &x, rank, dtype == 7 || dtype == 3 ? 4 : 2, dim, 16);
	if (op) {       /* small values: sums are exact in every type */
		for (size_t i = 0; i < x.bytes; i += x.esize) {
			int v = (int)(rnd8() % 41) - 20;
			if (dtype == 7) {
				float f = (float)v;
				memcpy(x.host + i, &f, 4);
			} else {
				memcpy(x.host + i, &v, 4);
			}
		}
		ptxvm_memcpy_htod(t->d, x.dev, x.host, x.bytes);
	}
	_Alignas(64) uint8_t map[128];
	const uint32_t e1[] = { 1, 1, 1, 1, 1 };
	ptxvm_result r = ptxvm_tensor_map_tiled(t->d, map, dtype, rank, x.dev, x.dim, x.stride + 1, box, e1, 0, sw, 0, 0);
	check(r == PTXVM_SUCCESS, "%s: encode: %s", what, ptxvm_device_message(t->d));
	unsigned bytes = x.esize;
	for (unsigned i = 0; i < rank; i++)
		bytes *= box[i];
	static uint8_t in[16384], want[65536], got[65536];
	for (unsigned i = 0; i < bytes; i += x.esize) {
		int v = (int)(rnd8() % 41) - 20;
		if (dtype == 7) {
			float f = (float)v;
			memcpy(in + i, &f, 4);
		} else {
			memcpy(in + i, &v, x.esize);
		}
	}
	uint64_t din = up(t, in, bytes);
	int co[5] = { 0 }, rk = (int)rank;
	memcpy(co, c, sizeof(int) * rank);
	void *args[] = { map, &rk, co, &bytes, &din, &op };
	r = launch(t, "tma_store", 1, 64, args);
	check(r == PTXVM_SUCCESS, "%s: launch: %s: %s", what, ptxvm_result_name(r), ptxvm_device_message(t->d));
	/* the model: each in-bound element of the box, read from its swizzled
	 * place in shared memory (the box is 1024-byte aligned) */
	memcpy(want, x.host, x.bytes);
	unsigned n = bytes / x.esize;
	for (unsigned k = 0; k < n; k++) {
		unsigned j = k;
		uint64_t off = 0;
		int inb = 1;
		for (unsigned i = 0; i < rank; i++) {
			int64_t g = c[i] + (int64_t)(j % box[i]);
			j /= box[i];
			if (g < 0 || (uint64_t)g >= x.dim[i])
				inb = 0;
			else
				off += (uint64_t)g * x.stride[i];
		}
		if (!inb)
			continue;
		const uint8_t *s = in + swz(sw, k * x.esize);
		if (!op) {
			memcpy(want + off, s, x.esize);
		} else if (dtype == 7) {
			float a, b;
			memcpy(&a, want + off, 4), memcpy(&b, s, 4);
			a += b;
			memcpy(want + off, &a, 4);
		} else {
			int32_t a, b;
			memcpy(&a, want + off, 4), memcpy(&b, s, 4);
			a = op == 1 ? a + b : a > b ? a : b;
			memcpy(want + off, &a, 4);
		}
	}
	ptxvm_memcpy_dtoh(t->d, got, x.dev, x.bytes);
	if (r == PTXVM_SUCCESS)
		check(!memcmp(want, got, x.bytes), "%s: global memory differs from the model", what);
	ptxvm_mem_free(t->d, din);
	ten_free(t, &x);
}

static void t_stores(T *t)
{
	t_store(t, "2d store", 3, 2, (const uint64_t[]){ 20, 10 }, (const uint32_t[]){ 8, 4 }, 0, (const int[]){ 4, 2 }, 0);
	t_store(t, "2d store, partly out of bounds", 3, 2, (const uint64_t[]){ 20, 10 }, (const uint32_t[]){ 8, 4 }, 0,
		(const int[]){ 16, -2 }, 0);
	t_store(t, "3d store, 64B swizzle", 1, 3, (const uint64_t[]){ 40, 6, 5 }, (const uint32_t[]){ 32, 4, 2 }, 2,
		(const int[]){ 10, 3, 3 }, 0);
	t_store(t, "2d reduce add s32", 3, 2, (const uint64_t[]){ 20, 10 }, (const uint32_t[]){ 8, 4 }, 0,
		(const int[]){ 14, 7 }, 1);
	t_store(t, "3d reduce add f32", 7, 3, (const uint64_t[]){ 12, 5, 4 }, (const uint32_t[]){ 8, 2, 3 }, 0,
		(const int[]){ 6, 1, 2 }, 1);
	t_store(t, "2d reduce max s32", 3, 2, (const uint64_t[]){ 20, 10 }, (const uint32_t[]){ 8, 4 }, 1,
		(const int[]){ -3, 1 }, 2);
}

/* ---- im2col ------------------------------------------------------------------ */
/* The model: pixel p of the column walks W by its element stride inside
 * [lower, dim - 1 + upper], then H, then the next image; each reads
 * `ch` channels from c[0] at (pixel + offsets). */
static void t_im2col(T *t, const char *what, unsigned rank, const uint64_t *dim, const int *lower, const int *upper,
		     unsigned ch, unsigned px, const uint32_t *es, const int *c, int offw, int offh)
{
	Ten x;
	ten_make(t, &x, rank, 2, dim, 16);
	_Alignas(64) uint8_t map[128];
	ptxvm_result r = ptxvm_tensor_map_im2col(t->d, map, 1, rank, x.dev, x.dim, x.stride + 1, lower, upper, ch, px,
						 es, 0, 0, 0, 0);
	check(r == PTXVM_SUCCESS, "%s: encode: %s", what, ptxvm_device_message(t->d));
	unsigned bytes = ch * px * 2;
	uint64_t dout = zeros(t, bytes), dsa = zeros(t, 4);
	int co[5] = { 0 }, rk = (int)rank;
	memcpy(co, c, sizeof(int) * rank);
	void *args[] = { map, &rk, co, &offw, &offh, &bytes, &dout, &dsa };
	r = launch(t, "tma_im2col", 1, 32, args);
	check(r == PTXVM_SUCCESS, "%s: launch: %s: %s", what, ptxvm_result_name(r), ptxvm_device_message(t->d));
	static uint8_t want[65536], got[65536];
	int64_t w = c[1], h = rank == 4 ? c[2] : 0, n = c[rank - 1];
	int off[2] = { offw, offh };
	for (unsigned p = 0; p < px; p++) {
		for (unsigned k = 0; k < ch; k++) {
			int64_t pos[4] = { c[0] + (int64_t)k, w + off[0], rank == 4 ? h + off[1] : n, n };
			int inb = 1;
			uint64_t o = 0;
			for (unsigned i = 0; i < rank; i++) {
				if (pos[i] < 0 || (uint64_t)pos[i] >= x.dim[i])
					inb = 0;
				else
					o += (uint64_t)pos[i] * x.stride[i];
			}
			uint8_t *e = want + (p * ch + k) * 2;
			if (inb)
				memcpy(e, x.host + o, 2);
			else
				e[0] = e[1] = 0;
		}
		w += es[1];
		if (w > (int64_t)dim[1] - 1 + upper[0]) {
			w = lower[0];
			if (rank == 3) {
				n++;
			} else {
				h += es[2];
				if (h > (int64_t)dim[2] - 1 + upper[1])
					h = lower[1], n++;
			}
		}
	}
	if (r == PTXVM_SUCCESS) {
		ptxvm_memcpy_dtoh(t->d, got, dout, bytes);
		check(!memcmp(want, got, bytes), "%s: the column differs from the model", what);
	}
	ptxvm_mem_free(t->d, dout);
	ptxvm_mem_free(t->d, dsa);
	ten_free(t, &x);
}

static void t_im2cols(T *t)
{
	const uint32_t e1[] = { 1, 1, 1, 1, 1 };
	t_im2col(t, "im2col 3d", 3, (const uint64_t[]){ 16, 10, 2 }, (const int[]){ -1 }, (const int[]){ -1 }, 16, 12,
		 e1, (const int[]){ 0, -1, 0 }, 2, 0);
	t_im2col(t, "im2col 4d strided", 4, (const uint64_t[]){ 8, 5, 4, 2 }, (const int[]){ -1, -1 },
		 (const int[]){ -2, -1 }, 8, 10, (const uint32_t[]){ 1, 2, 1, 1 }, (const int[]){ 0, -1, -1, 0 }, 1, 2);
	t_im2col(t, "im2col 4d, channels past C", 4, (const uint64_t[]){ 8, 3, 3, 1 }, (const int[]){ 0, 0 },
		 (const int[]){ 0, 0 }, 16, 9, e1, (const int[]){ 0, 0, 0, 0 }, 0, 0);
}

/* ---- multicast ------------------------------------------------------------------ */
static void t_multicast(T *t, unsigned short mask)
{
	Ten x;
	ten_make(t, &x, 2, 1, (const uint64_t[]){ 64, 16 }, 16);
	_Alignas(64) uint8_t map[128];
	const uint32_t e1[] = { 1, 1 };
	ptxvm_tensor_map_tiled(t->d, map, 0, 2, x.dev, x.dim, x.stride + 1, (const uint32_t[]){ 64, 4 }, e1, 0, 0, 0, 0);
	uint8_t raw[256];
	for (int i = 0; i < 256; i++)
		raw[i] = rnd8();
	unsigned bytes = 256;
	int xx = 0, yy = 5;
	uint64_t draw = up(t, raw, sizeof raw), dout = zeros(t, 4 * 2 * bytes);
	void *args[] = { map, &xx, &yy, &bytes, &mask, &draw, &dout };
	ptxvm_result r = launch(t, "tma_multicast", 4, 64, args);
	if (mask >> 4) {
		check(r == PTXVM_ERROR_ILLEGAL_INSTRUCTION && strstr(ptxvm_device_message(t->d), "ctaMask"),
		      "multicast to CTA 4 of a cluster of 4: %s: %s", ptxvm_result_name(r), ptxvm_device_message(t->d));
	} else {
		check(r == PTXVM_SUCCESS, "multicast 0x%x: %s: %s", mask, ptxvm_result_name(r), ptxvm_device_message(t->d));
		static uint8_t want[2048], got[2048];
		memset(want, 0, sizeof want);
		for (unsigned rk = 0; rk < 4; rk++)
			if (mask >> rk & 1) {
				memcpy(want + rk * 512, x.host + 5 * x.stride[1], 256);
				memcpy(want + rk * 512 + 256, raw, 256);
			}
		ptxvm_memcpy_dtoh(t->d, got, dout, sizeof got);
		if (r == PTXVM_SUCCESS)
		check(!memcmp(want, got, sizeof got), "multicast 0x%x: the CTAs' boxes differ from the model", mask);
	}
	ptxvm_mem_free(t->d, draw);
	ptxvm_mem_free(t->d, dout);
	ten_free(t, &x);
}

/* ---- clusters of up to 16 CTAs ------------------------------------------------------ */
static ptxvm_result launch_cl(T *t, const char *k, unsigned g, unsigned cl, void **args)
{
	const ptxvm_kernel *kh = ptxvm_kernel_find(t->p, k);
	if (!kh)
		return PTXVM_ERROR_NOT_FOUND;
	ptxvm_launch_config cfg = { { g, 1, 1 }, { 64, 1, 1 }, 0, { cl, 1, 1 } };
	return ptxvm_launch(t->d, kh, &cfg, args, NULL);
}

static void t_wide(T *t, unsigned n, unsigned g, unsigned short mask)
{
	uint8_t raw[256];
	for (int i = 0; i < 256; i++)
		raw[i] = rnd8();
	static uint8_t want[64 * 264], got[64 * 264];
	uint64_t draw = up(t, raw, sizeof raw), dout = zeros(t, g * 264);
	void *args[] = { &draw, &mask, &dout };
	ptxvm_result r = launch_cl(t, "cluster_wide", g, n, args);
	check(r == PTXVM_SUCCESS, "a cluster of %u CTAs, mask 0x%x: %s: %s", n, mask, ptxvm_result_name(r),
	      ptxvm_device_message(t->d));
	for (unsigned b = 0; b < g; b++) {
		uint32_t rk = b % n, peer = (rk + 1) % n;
		memcpy(want + b * 264, &rk, 4);
		memcpy(want + b * 264 + 4, &n, 4);
		if (mask >> peer & 1)
			memcpy(want + b * 264 + 8, raw, 256);
		else
			memset(want + b * 264 + 8, 0xff, 256);
	}
	ptxvm_memcpy_dtoh(t->d, got, dout, g * 264);
	if (r == PTXVM_SUCCESS)
		check(!memcmp(want, got, g * 264), "a cluster of %u CTAs, mask 0x%x: ranks, size or lines differ", n, mask);
	ptxvm_mem_free(t->d, draw);
	ptxvm_mem_free(t->d, dout);
}

static void t_clusters(T *t)
{
	t_wide(t, 16, 32, 0xffff);
	t_wide(t, 16, 16, 0x8421);
	t_wide(t, 12, 24, 0x0ff0);
	t_wide(t, 8, 16, 0x00ff);
	uint64_t d0 = zeros(t, 64 * 264);
	unsigned short mask = 1;
	void *args[] = { &d0, &mask, &d0 };
	ptxvm_result r = launch_cl(t, "cluster_wide", 34, 17, args);
	check(r == PTXVM_ERROR_INVALID_VALUE && strstr(ptxvm_device_message(t->d), "at most 16"),
	      "a cluster of 17 CTAs: %s: %s", ptxvm_result_name(r), ptxvm_device_message(t->d));
	/* a ctaMask bit past the cluster's 12 CTAs */
	mask = 0x1000;
	r = launch_cl(t, "cluster_wide", 12, 12, args);
	check(r == PTXVM_ERROR_ILLEGAL_INSTRUCTION && strstr(ptxvm_device_message(t->d), "ctaMask"),
	      "ctaMask 0x1000 in a cluster of 12: %s: %s", ptxvm_result_name(r), ptxvm_device_message(t->d));
	ptxvm_mem_free(t->d, d0);
}

/* ---- cp.reduce.async.bulk -------------------------------------------------------------- */
static uint16_t f16_of(float f)         /* small integers only: exact */
{
	if (f == 0)
		return 0;
	uint16_t sign = f < 0 ? 0x8000 : 0;
	float a = f < 0 ? -f : f;
	int e = 0;
	while (a >= 2)
		a /= 2, e++;
	return (uint16_t)(sign | (e + 15) << 10 | (uint16_t)((a - 1) * 1024));
}

static float f16_to(uint16_t h)
{
	if (!(h & 0x7fff))
		return 0;
	float m = 1 + (float)(h & 1023) / 1024, v = m;
	for (int e = (h >> 10 & 31) - 15; e > 0; e--)
		v *= 2;
	return h & 0x8000 ? -v : v;
}

static void t_bulk_reduce(T *t)
{
	enum { N = 512 };
	static const char *const name[] = { "add.s32", "min.u32", "max.s64", "add.f32", "add.noftz.f16", "xor.b64",
					    "inc.u32", "add.u64", "max.bf16", "and.b32" };
	for (int which = 0; which < 10; which++) {
		uint8_t a[N], b[N], want[N], got[N];
		for (int i = 0; i < N; i++)
			a[i] = rnd8(), b[i] = rnd8();
		if (which == 3 || which == 4 || which == 8) {   /* small integers: exact sums */
			for (int i = 0; i < N; i += which == 3 ? 4 : 2) {
				int x = (int)(rnd8() % 33) - 16, y = (int)(rnd8() % 33) - 16;
				if (which == 3) {
					float fx = (float)x, fy = (float)y;
					memcpy(a + i, &fx, 4), memcpy(b + i, &fy, 4);
				} else if (which == 4) {
					uint16_t hx = f16_of((float)x), hy = f16_of((float)y);
					memcpy(a + i, &hx, 2), memcpy(b + i, &hy, 2);
				} else {        /* bf16: the upper half of an f32 */
					float fx = (float)x, fy = (float)y;
					memcpy(a + i, (uint8_t *)&fx + 2, 2), memcpy(b + i, (uint8_t *)&fy + 2, 2);
				}
			}
		}
		if (which == 6)         /* inc wraps to 0 past its operand */
			for (int i = 0; i < N; i += 4)
				a[i + 1] = a[i + 2] = a[i + 3] = 0, b[i + 1] = b[i + 2] = b[i + 3] = 0;
		for (int i = 0; i < N;) {
			int32_t s1, s2;
			uint32_t u1, u2;
			int64_t l1, l2;
			uint64_t q1, q2;
			float f1, f2;
			switch (which) {
			case 0: memcpy(&s1, b + i, 4), memcpy(&s2, a + i, 4), s1 = (int32_t)((uint32_t)s1 + (uint32_t)s2);
				memcpy(want + i, &s1, 4), i += 4; break;
			case 1: memcpy(&u1, b + i, 4), memcpy(&u2, a + i, 4), u1 = u1 < u2 ? u1 : u2;
				memcpy(want + i, &u1, 4), i += 4; break;
			case 2: memcpy(&l1, b + i, 8), memcpy(&l2, a + i, 8), l1 = l1 > l2 ? l1 : l2;
				memcpy(want + i, &l1, 8), i += 8; break;
			case 3: memcpy(&f1, b + i, 4), memcpy(&f2, a + i, 4), f1 += f2;
				memcpy(want + i, &f1, 4), i += 4; break;
			case 4: {
				uint16_t h1, h2;
				memcpy(&h1, b + i, 2), memcpy(&h2, a + i, 2);
				h1 = f16_of(f16_to(h1) + f16_to(h2));
				memcpy(want + i, &h1, 2), i += 2;
				break;
			}
			case 5: memcpy(&q1, b + i, 8), memcpy(&q2, a + i, 8), q1 ^= q2;
				memcpy(want + i, &q1, 8), i += 8; break;
			case 6: memcpy(&u1, b + i, 4), memcpy(&u2, a + i, 4), u1 = u1 >= u2 ? 0 : u1 + 1;
				memcpy(want + i, &u1, 4), i += 4; break;
			case 7: memcpy(&q1, b + i, 8), memcpy(&q2, a + i, 8), q1 += q2;
				memcpy(want + i, &q1, 8), i += 8; break;
			case 8: {
				float x = 0, y = 0;
				memcpy((uint8_t *)&x + 2, b + i, 2), memcpy((uint8_t *)&y + 2, a + i, 2);
				memcpy(want + i, (uint8_t *)(x > y ? &x : &y) + 2, 2), i += 2;
				break;
			}
			default: memcpy(&u1, b + i, 4), memcpy(&u2, a + i, 4), u1 &= u2;
				memcpy(want + i, &u1, 4), i += 4; break;
			}
		}
		uint64_t din = up(t, a, N), dout = up(t, b, N);
		unsigned n = N;
		void *args[] = { &din, &dout, &n, &which };
		ptxvm_result r = launch(t, "bulk_reduce_global", 1, 64, args);
		ptxvm_memcpy_dtoh(t->d, got, dout, N);
		check(r == PTXVM_SUCCESS && !memcmp(want, got, N), "cp.reduce.async.bulk %s: %s: %s", name[which],
		      ptxvm_result_name(r), r ? ptxvm_device_message(t->d) : "the sums differ from the model");
		ptxvm_mem_free(t->d, din);
		ptxvm_mem_free(t->d, dout);
	}
	/* into the other CTA of a cluster of 2, on its mbarrier */
	uint32_t got[128];
	uint64_t dout = zeros(t, sizeof got);
	void *args[] = { &dout };
	ptxvm_result r = launch(t, "bulk_reduce_cluster", 2, 64, args);
	ptxvm_memcpy_dtoh(t->d, got, dout, sizeof got);
	int bad = 0;
	for (unsigned rk = 0; rk < 2; rk++)
		for (unsigned i = 0; i < 64; i++)
			bad += got[rk * 64 + i] != i + (rk ^ 1) * 1000 + i;
	check(r == PTXVM_SUCCESS && !bad, "cp.reduce.async.bulk into a cluster peer: %s: %s (%d wrong)",
	      ptxvm_result_name(r), ptxvm_device_message(t->d), bad);
	ptxvm_mem_free(t->d, dout);
}

/* ---- bad maps and bad arguments ---------------------------------------------------- */
static void expect_fault(T *t, const char *what, const char *k, void **args, ptxvm_result want, const char *text)
{
	ptxvm_result r = launch(t, k, 1, 32, args);
	const char *m = ptxvm_device_message(t->d);
	check(r == want && strstr(m, text), "%s: %s (%s), wanted %s with \"%s\"", what, ptxvm_result_name(r), m,
	      ptxvm_result_name(want), text);
}

static void t_bad_maps(T *t)
{
	Ten x;
	ten_make(t, &x, 2, 4, (const uint64_t[]){ 16, 16 }, 16);
	const uint32_t box[] = { 4, 4 }, e1[] = { 1, 1, 1 };
	_Alignas(64) uint8_t good[128], bad[128];
	ptxvm_tensor_map_tiled(t->d, good, 2, 2, x.dev, x.dim, x.stride + 1, box, e1, 0, 0, 0, 0);
	uint64_t dout = zeros(t, 4096), dsa = zeros(t, 4);
	int rank = 2, co[5] = { 0 }, done = 0;
	unsigned bytes = 64;
	void *args[] = { bad, &rank, co, &bytes, &dout, &dsa };
	memset(bad, 0, sizeof bad);
	expect_fault(t, "a zero map", "tma_load", args, PTXVM_ERROR_ILLEGAL_INSTRUCTION, "not a tensor map");
	memcpy(bad, good, sizeof bad);
	bad[30] ^= 1;
	expect_fault(t, "a changed byte", "tma_load", args, PTXVM_ERROR_ILLEGAL_INSTRUCTION, "damaged");
	memcpy(bad, good, sizeof bad);
	rank = 3;
	expect_fault(t, "a 2-d map in a 3-d copy", "tma_load", args, PTXVM_ERROR_ILLEGAL_INSTRUCTION, "rank");
	rank = 2;
	int offs = 0;
	void *ia[] = { good, &rank, co, &offs, &offs, &bytes, &dout, &dsa };
	rank = 3;
	_Alignas(64) uint8_t g3[128];
	ptxvm_tensor_map_tiled(t->d, g3, 2, 3, x.dev, (const uint64_t[]){ 16, 4, 4 },
			       (const uint64_t[]){ 64, 256 }, (const uint32_t[]){ 4, 2, 2 }, e1, 0, 0, 0, 0);
	ia[0] = g3;
	expect_fault(t, "a tile map in an im2col copy", "tma_im2col", ia, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
		     "cuTensorMapEncodeIm2col");
	rank = 2;
	/* a map in global memory at an address that is not 64-byte aligned */
	uint64_t dmaps = zeros(t, 256);
	ptxvm_memcpy_htod(t->d, dmaps + 16, good, 128);
	uint64_t mis = dmaps + 16;
	void *ga[] = { &mis, &rank, co, &bytes, &dout, &dsa };
	expect_fault(t, "a map 16 bytes past alignment", "tma_load_global", ga, PTXVM_ERROR_MISALIGNED_ADDRESS,
		     "64-byte aligned");
	uint64_t wild = 0x10;
	ga[0] = &wild;
	expect_fault(t, "a map at address 0x10", "tma_load_global", ga, PTXVM_ERROR_MISALIGNED_ADDRESS, "aligned");
	wild = 0x40;
	expect_fault(t, "a map at address 0x40", "tma_load_global", ga, PTXVM_ERROR_ILLEGAL_ADDRESS, "0x40");
	/* a valid map of a tensor at an address no allocation holds */
	ptxvm_tensor_map_tiled(t->d, bad, 2, 2, 0x1000, x.dim, x.stride + 1, box, e1, 0, 0, 0, 0);
	expect_fault(t, "a tensor no allocation holds", "tma_load", args, PTXVM_ERROR_ILLEGAL_ADDRESS, "");
	/* boxes larger than shared memory: 16 MiB, and 2^43 bytes (past 32 bits) */
	const uint32_t huge[5] = { 256, 256, 256, 256, 256 };
	const uint64_t hd[5] = { 16, 16, 16, 16, 16 }, hs[4] = { 2048, 32768, 1 << 19, 1 << 23 };
	_Alignas(64) uint8_t big[128];
	int hr = 3, hco[5] = { 0 };
	void *hargs[] = { big, &hr, hco, &bytes, &dout, &dsa };
	ptxvm_tensor_map_tiled(t->d, big, 0, 3, x.dev, hd, hs, huge, (const uint32_t[]){ 1, 1, 1, 1, 1 }, 0, 0, 0, 0);
	expect_fault(t, "a box of 16 MiB", "tma_load", hargs, PTXVM_ERROR_ILLEGAL_ADDRESS, "more than a CTA's shared");
	hr = 5;
	ptxvm_tensor_map_tiled(t->d, big, 8, 5, x.dev, hd, hs, huge, (const uint32_t[]){ 1, 1, 1, 1, 1 }, 0, 0, 0, 0);
	expect_fault(t, "a box of 2^43 bytes", "tma_load", hargs, PTXVM_ERROR_ILLEGAL_ADDRESS, "more than a CTA's shared");
	/* ... whose out-of-bound boxes read nothing */
	co[0] = -8;
	co[1] = 20;
	ptxvm_result r = launch(t, "tma_load", 1, 32, args);
	check(r == PTXVM_SUCCESS, "a box wholly out of bounds reads no memory: %s: %s", ptxvm_result_name(r),
	      ptxvm_device_message(t->d));
	co[0] = co[1] = 0;
	/* replace the address: the same map now loads */
	r = ptxvm_tensor_map_replace_address(t->d, bad, x.dev);
	check(r == PTXVM_SUCCESS && launch(t, "tma_load", 1, 32, args) == PTXVM_SUCCESS, "replace address: %s",
	      ptxvm_device_message(t->d));
	check(ptxvm_tensor_map_replace_address(t->d, bad, x.dev + 8) == PTXVM_ERROR_INVALID_VALUE,
	      "replace address with a misaligned one");
	/* the box's shared memory is 128-byte aligned: a box of 40 bytes (not a
	 * multiple of 16) is refused at encoding instead */
	/* prefetch: a good map runs; a zero one faults */
	uint64_t ddone = zeros(t, 4);
	int px = 1, py = 1;
	void *pa[] = { good, &px, &py, &ddone };
	r = launch(t, "tma_prefetch", 1, 32, pa);
	ptxvm_memcpy_dtoh(t->d, &done, ddone, 4);
	check(r == PTXVM_SUCCESS && done == 1, "prefetch: %s: %s", ptxvm_result_name(r), ptxvm_device_message(t->d));
	memset(bad, 0, sizeof bad);
	pa[0] = bad;
	expect_fault(t, "prefetch of a zero map", "tma_prefetch", pa, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
		     "not a tensor map");
	ptxvm_mem_free(t->d, ddone);
	ptxvm_mem_free(t->d, dmaps);
	ptxvm_mem_free(t->d, dout);
	ptxvm_mem_free(t->d, dsa);
	ten_free(t, &x);
}

/* ---- the encoders' rules ----------------------------------------------------------- */
static void t_encode(T *t)
{
	_Alignas(64) uint8_t m[192];
	const uint64_t dim[] = { 64, 8, 4, 4, 4, 4 }, str[] = { 256, 2048, 8192, 32768, 131072 };
	const uint32_t box[] = { 16, 4, 2, 2, 2, 2 }, e1[] = { 1, 1, 1, 1, 1, 1 };
	uint64_t a = 0x100000;
	struct {
		const char *what;
		unsigned dtype, rank;
		uint64_t addr, d0, s0;
		uint32_t b0, e0;
		unsigned il, sw, oob;
	} bad[] = {
		{ "rank 0", 7, 0, a, 64, 256, 16, 1, 0, 0, 0 },
		{ "rank 6", 7, 6, a, 64, 256, 16, 1, 0, 0, 0 },
		{ "address 8 past alignment", 7, 2, a + 8, 64, 256, 16, 1, 0, 0, 0 },
		{ "dimension 0", 7, 2, a, 0, 256, 16, 1, 0, 0, 0 },
		{ "dimension 2^32 + 1", 7, 2, a, (1ull << 32) + 1, 256, 16, 1, 0, 0, 0 },
		{ "stride 8", 7, 2, a, 64, 8, 16, 1, 0, 0, 0 },
		{ "stride 2^40", 7, 2, a, 64, 1ull << 40, 16, 1, 0, 0, 0 },
		{ "box 0", 7, 2, a, 64, 256, 0, 1, 0, 0, 0 },
		{ "box 257", 0, 2, a, 64, 256, 257, 1, 0, 0, 0 },
		{ "inner box of 8 bytes", 0, 2, a, 64, 256, 8, 1, 0, 0, 0 },
		{ "element stride 0", 7, 2, a, 64, 256, 16, 0, 0, 0, 0 },
		{ "element stride 9", 7, 2, a, 64, 256, 16, 9, 0, 0, 0 },
		{ "interleave 3", 7, 3, a, 64, 256, 16, 1, 3, 0, 0 },
		{ "interleave with rank 2", 7, 2, a, 64, 256, 16, 1, 1, 0, 0 },
		{ "32B interleave without the 32B swizzle", 7, 3, a, 64, 256, 16, 1, 2, 2, 0 },
		{ "swizzle 4 (compute capability 10)", 7, 2, a, 64, 256, 16, 1, 0, 4, 0 },
		{ "32B swizzle of a 64-byte row", 7, 2, a, 64, 256, 16, 1, 0, 1, 0 },
		{ "NaN fill of integers", 2, 2, a, 64, 256, 16, 1, 0, 0, 1 },
		{ "oobFill 2", 7, 2, a, 64, 256, 16, 1, 0, 0, 2 },
		{ "data type 13 (packed, compute capability 10)", 13, 2, a, 64, 256, 16, 1, 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		uint64_t d[6], s[5];
		uint32_t b[6], e[6];
		memcpy(d, dim, sizeof d), memcpy(s, str, sizeof s), memcpy(b, box, sizeof b), memcpy(e, e1, sizeof e);
		d[0] = bad[i].d0, s[0] = bad[i].s0, b[0] = bad[i].b0, e[1] = bad[i].e0;
		memset(m, 0x5a, sizeof m);
		ptxvm_result r = ptxvm_tensor_map_tiled(t->d, m, bad[i].dtype, bad[i].rank, bad[i].addr, d, s, b, e,
							bad[i].il, bad[i].sw, 0, bad[i].oob);
		check(r == PTXVM_ERROR_INVALID_VALUE && m[0] == 0x5a && m[127] == 0x5a && *ptxvm_device_message(t->d),
		      "tiled: %s: %s", bad[i].what, ptxvm_result_name(r));
	}
	check(ptxvm_tensor_map_tiled(t->d, m, 7, 5, a, dim, str, box, e1, 0, 0, 0, 1) == PTXVM_SUCCESS,
	      "tiled: a valid 5-d map: %s", ptxvm_device_message(t->d));
	check(ptxvm_tensor_map_tiled(t->d, m, 7, 3, a, dim, str, (const uint32_t[]){ 3, 4, 2 },
				     (const uint32_t[]){ 2, 1, 1 }, 2, 1, 0, 0) == PTXVM_SUCCESS,
	      "tiled: a valid 32B-interleaved map: %s", ptxvm_device_message(t->d));
	check(ptxvm_tensor_map_tiled(t->d, m + 16, 7, 2, a, dim, str, box, e1, 0, 0, 0, 0) == PTXVM_ERROR_INVALID_VALUE,
	      "tiled: a map not 64-byte aligned");
	check(ptxvm_tensor_map_tiled(t->d, NULL, 7, 2, a, dim, str, box, e1, 0, 0, 0, 0) == PTXVM_ERROR_INVALID_VALUE,
	      "tiled: a NULL map");
	check(ptxvm_tensor_map_tiled(t->d, m, 7, 2, a, NULL, str, box, e1, 0, 0, 0, 0) == PTXVM_ERROR_INVALID_VALUE,
	      "tiled: NULL dimensions");
	/* im2col */
	const int lo[] = { -1, -1, -1 }, hi[] = { -1, -1, -1 };
	check(ptxvm_tensor_map_im2col(t->d, m, 6, 4, a, (const uint64_t[]){ 8, 5, 5, 2 }, str, lo, hi, 8, 32, e1, 0, 0,
				      0, 1) == PTXVM_SUCCESS, "im2col: a valid 4-d map: %s", ptxvm_device_message(t->d));
	check(ptxvm_tensor_map_im2col(t->d, m, 6, 2, a, dim, str, lo, hi, 8, 32, e1, 0, 0, 0, 0) ==
	      PTXVM_ERROR_INVALID_VALUE, "im2col: rank 2");
	check(ptxvm_tensor_map_im2col(t->d, m, 6, 4, a, dim, str, (const int[]){ -129, 0 }, hi, 8, 32, e1, 0, 0, 0, 0) ==
	      PTXVM_ERROR_INVALID_VALUE, "im2col: a rank-4 corner of -129");
	check(ptxvm_tensor_map_im2col(t->d, m, 6, 5, a, dim, str, lo, (const int[]){ 0, 16, 0 }, 8, 32, e1, 0, 0, 0, 0) ==
	      PTXVM_ERROR_INVALID_VALUE, "im2col: a rank-5 corner of 16");
	check(ptxvm_tensor_map_im2col(t->d, m, 6, 3, a, dim, str, lo, hi, 0, 32, e1, 0, 0, 0, 0) ==
	      PTXVM_ERROR_INVALID_VALUE, "im2col: no channels");
	check(ptxvm_tensor_map_im2col(t->d, m, 0, 3, a, dim, str, lo, hi, 257, 32, e1, 0, 0, 0, 0) ==
	      PTXVM_ERROR_INVALID_VALUE, "im2col: 257 channels");
	check(ptxvm_tensor_map_im2col(t->d, m, 6, 3, a, dim, str, lo, hi, 8, 1025, e1, 0, 0, 0, 0) ==
	      PTXVM_ERROR_INVALID_VALUE, "im2col: 1025 pixels");
	check(ptxvm_tensor_map_im2col(t->d, m, 6, 3, a, dim, str, (const int[]){ 0 }, (const int[]){ -8 }, 8, 32, e1, 0,
				      0, 0, 0) == PTXVM_ERROR_INVALID_VALUE, "im2col: an empty bounding box");
}

/* ---- tensormap.replace (sm_90a): tests/cuda/tmreplace.sm_90a.cu ---------------------- */
/* The kernels' Rep, field for field; the mask names the fields replaced. */
enum {
	R_ADDR = 1, R_RANK = 2, R_BOX = 4, R_GDIM = 8, R_GSTRIDE = 16, R_ESTRIDE = 32, R_ELEMTYPE = 64,
	R_INTERLEAVE = 128, R_SWIZZLE = 256, R_FILL = 512, R_GSTRIDE4 = 1024,
	R_DIMS = R_BOX | R_GDIM | R_GSTRIDE | R_ESTRIDE,
};
typedef struct Rep {
	uint64_t addr, gstride[4];
	uint32_t gdim[5], box[5], estride[5];
	int32_t rank_m1, elemtype, interleave, swizzle, fill;
	uint32_t mask;
} Rep;

/* A Rep that describes tensor x (its address, rank, dims, strides) with
 * box b and element strides es; unused ordinals get 1 and 16. */
static Rep rep_of(const Ten *x, const uint32_t *b, const uint32_t *es, uint32_t mask)
{
	Rep r = { .addr = x->dev, .rank_m1 = (int32_t)x->rank - 1, .mask = mask };
	for (unsigned i = 0; i < 5; i++) {
		r.gdim[i] = i < x->rank ? (uint32_t)x->dim[i] : 1;
		r.box[i] = i < x->rank ? b[i] : 1;
		r.estride[i] = i < x->rank ? es[i] : 1;
		if (i < 4)
			r.gstride[i] = i + 1 < x->rank ? x->stride[i + 1] : 16;
	}
	return r;
}

/* Runs tmr_global (or tmr_shared: 1 writing the map back with stores, 2
 * with tensormap.cp_fenceproxy) on a copy of map0 in global memory
 * with r, loading the box at c of `rank` dimensions; compares with the
 * model's box (the tensor the replaced map describes), or with the fault
 * expected (want_r, and text in the message). */
static void t_rep(T *t, const char *what, const uint8_t *map0, const Rep *r, int rank, const int *c,
		  const Ten *x, const uint32_t *b, const uint32_t *es, unsigned sw, int nan, int shared,
		  ptxvm_result want_r, const char *text)
{
	uint64_t dmaps = zeros(t, 512), dout = zeros(t, 16384);
	ptxvm_memcpy_htod(t->d, dmaps, map0, 128);
	uint64_t src = dmaps, dst = dmaps + 256;
	if (text && !strcmp(text, "64-byte aligned"))
		ptxvm_memcpy_htod(t->d, src += 16, map0, 128);
	int co[5] = { 0 };
	memcpy(co, c, sizeof(int) * (unsigned)rank);
	static uint8_t want[16384 + 128], got[16384];
	memset(want, 0xee, sizeof want);
	unsigned bytes = x ? (unsigned)ref_tile(x, b, es, co, sw, nan, 0, want) : 64;
	void *ga[] = { &src, (void *)r, &rank, co, &bytes, &dout };
	int cp = shared == 2;
	void *sa[] = { &src, &dst, (void *)r, &rank, co, &bytes, &dout, &cp };
	ptxvm_result res = launch(t, shared ? "tmr_shared" : "tmr_global", 1, 64, shared ? sa : ga);
	const char *msg = ptxvm_device_message(t->d);
	if (want_r != PTXVM_SUCCESS) {
		check(res == want_r && strstr(msg, text), "replace: %s: %s (%s), wanted %s with \"%s\"", what,
		      ptxvm_result_name(res), msg, ptxvm_result_name(want_r), text);
	} else {
		check(res == PTXVM_SUCCESS, "replace: %s: %s: %s", what, ptxvm_result_name(res), msg);
		ptxvm_memcpy_dtoh(t->d, got, dout, bytes);
		if (res == PTXVM_SUCCESS)
			check(!memcmp(want, got, bytes), "replace: %s: the box differs from the model", what);
	}
	ptxvm_mem_free(t->d, dmaps);
	ptxvm_mem_free(t->d, dout);
}

static void t_replace(T *t)
{
	const uint32_t e1[] = { 1, 1, 1, 1, 1 }, b2[] = { 8, 5 };
	Ten a, b, c3, d64, h16, u8, i3, i32b;
	ten_make(t, &a, 2, 4, (const uint64_t[]){ 37, 23 }, 64);
	ten_make(t, &b, 2, 4, (const uint64_t[]){ 37, 23 }, 64);
	_Alignas(64) uint8_t ma[128], zero[128] = { 0 };
	ptxvm_tensor_map_tiled(t->d, ma, 7, 2, a.dev, a.dim, a.stride + 1, b2, e1, 0, 0, 0, 0);
	const int c34[] = { 3, 4 };
	t_rep(t, "nothing replaced", ma, &(Rep){ .mask = 0 }, 2, c34, &a, b2, e1, 0, 0, 0, 0, NULL);
	Rep r = rep_of(&b, b2, e1, R_ADDR);
	t_rep(t, "global_address", ma, &r, 2, c34, &b, b2, e1, 0, 0, 0, 0, NULL);
	t_rep(t, "global_address in shared memory", ma, &r, 2, c34, &b, b2, e1, 0, 0, 1, 0, NULL);
	/* a 2-d map made a 3-d one: rank, every dimension's fields */
	ten_make(t, &c3, 3, 4, (const uint64_t[]){ 20, 9, 7 }, 16);
	const uint32_t b3[] = { 8, 3, 4 }, es3[] = { 1, 2, 3 };
	r = rep_of(&c3, b3, es3, R_ADDR | R_RANK | R_DIMS);
	t_rep(t, "rank 2 to 3, box_dim, global_dim, global_stride, element_stride", ma, &r, 3, (const int[]){ 2, 1, 0 },
	      &c3, b3, es3, 0, 0, 0, 0, NULL);
	t_rep(t, "the same in shared memory", ma, &r, 3, (const int[]){ 15, 7, 5 }, &c3, b3, es3, 0, 0, 1, 0, NULL);
	t_rep(t, "the same, copied by tensormap.cp_fenceproxy", ma, &r, 3, (const int[]){ 15, 7, 5 }, &c3, b3, es3, 0, 0,
	      2, 0, NULL);
	/* elemtype as the PTX manual numbers it: 9 is .f64 (CUDA's 8), 10 .bf16 (CUDA's 9), 8 .f32.ftz, 0 .u8 */
	ten_make(t, &d64, 2, 8, (const uint64_t[]){ 10, 6 }, 16);
	const uint32_t bd[] = { 4, 3 };
	r = rep_of(&d64, bd, e1, R_ADDR | R_DIMS | R_ELEMTYPE);
	r.elemtype = 9;
	t_rep(t, "elemtype 9 (.f64)", ma, &r, 2, (const int[]){ 7, 4 }, &d64, bd, e1, 0, 0, 0, 0, NULL);
	ten_make(t, &h16, 2, 2, (const uint64_t[]){ 30, 6 }, 16);
	const uint32_t bh[] = { 16, 4 };
	r = rep_of(&h16, bh, e1, R_ADDR | R_DIMS | R_ELEMTYPE | R_FILL);
	r.elemtype = 10, r.fill = 1;
	t_rep(t, "elemtype 10 (.bf16), NaN fill", ma, &r, 2, (const int[]){ 20, -1 }, &h16, bh, e1, 0, 1, 0, 0, NULL);
	r = rep_of(&a, b2, e1, R_ELEMTYPE | R_FILL);
	r.elemtype = 8, r.fill = 1;
	t_rep(t, "elemtype 8 (.f32.ftz), NaN fill", ma, &r, 2, (const int[]){ 33, 20 }, &a, b2, e1, 0, 1, 0, 0, NULL);
	r.fill = 0;
	t_rep(t, "fill_mode 0", ma, &r, 2, (const int[]){ 33, 20 }, &a, b2, e1, 0, 0, 0, 0, NULL);
	/* swizzle_mode: 128B rows of u8, each swizzle */
	ten_make(t, &u8, 2, 1, (const uint64_t[]){ 300, 40 }, 16);
	const uint32_t bu[] = { 128, 24 }, bu32[] = { 32, 24 };
	for (int sw = 0; sw <= 3; sw++) {
		char what[64];
		snprintf(what, sizeof what, "elemtype 0 (.u8), swizzle_mode %d", sw);
		const uint32_t *bx = sw == 1 ? bu32 : bu;
		r = rep_of(&u8, bx, e1, R_ADDR | R_DIMS | R_ELEMTYPE | R_SWIZZLE);
		r.elemtype = 0, r.swizzle = sw;
		if (sw == 2)
			r.box[0] = 64;
		uint32_t bb[2] = { r.box[0], r.box[1] };
		t_rep(t, what, ma, &r, 2, (const int[]){ 200, 20 }, &u8, bb, e1, (unsigned)sw, 0, sw % 3, 0, NULL);
	}
	/* interleave_layout: 16B, with an inner box of 8 bytes (valid only
	 * interleaved); 32B, which takes the 32B swizzle and 32-byte strides */
	ten_make(t, &i3, 3, 2, (const uint64_t[]){ 12, 6, 5 }, 32);
	const uint32_t bi[] = { 4, 3, 2 }, bi2[] = { 16, 3, 2 };
	r = rep_of(&i3, bi, e1, R_ADDR | R_RANK | R_DIMS | R_ELEMTYPE | R_INTERLEAVE);
	r.elemtype = 1, r.interleave = 1;
	t_rep(t, "interleave_layout 1 (16B)", ma, &r, 3, (const int[]){ 9, 4, 3 }, &i3, bi, e1, 0, 0, 0, 0, NULL);
	ten_make(t, &i32b, 3, 2, (const uint64_t[]){ 16, 6, 5 }, 32);
	r = rep_of(&i32b, bi2, e1, R_ADDR | R_RANK | R_DIMS | R_ELEMTYPE | R_INTERLEAVE | R_SWIZZLE);
	r.elemtype = 1, r.interleave = 2, r.swizzle = 1;
	t_rep(t, "interleave_layout 2 (32B), swizzle_mode 1", ma, &r, 3, (const int[]){ 0, 2, 1 }, &i32b, bi2, e1, 1,
	      0, 1, 0, NULL);
	/* a map built from 128 zero bytes, field by field (as Triton does) */
	r = rep_of(&c3, b3, es3, 0x3ff);
	r.elemtype = 7, r.interleave = 0, r.swizzle = 0, r.fill = 0;
	t_rep(t, "every field, on zeroed bytes", zero, &r, 3, (const int[]){ 3, 2, 1 }, &c3, b3, es3, 0, 0, 0, 0, NULL);
	t_rep(t, "every field, on zeroed bytes in shared memory", zero, &r, 3, (const int[]){ -3, 2, 1 }, &c3, b3, es3,
	      0, 0, 2, 0, NULL);
	r.mask = 0x3ff & ~R_RANK;
	t_rep(t, "every field but rank, on zeroed bytes", zero, &r, 3, (const int[]){ 3, 2, 1 }, NULL, NULL, NULL, 0, 0,
	      0, PTXVM_ERROR_ILLEGAL_INSTRUCTION, "mode, rank or data type is invalid");
	/* values a field cannot hold end the launch, naming the instruction */
	static const struct { const char *what; uint32_t mask; int field, v; const char *text; } bad[] = {
		{ "box_dim 0", R_BOX, 0, 0, "tensormap.replace.box_dim" },
		{ "box_dim 257", R_BOX, 0, 257, "1 to 256" },
		{ "element_stride 9", R_ESTRIDE, 1, 9, "tensormap.replace.element_stride" },
		{ "global_dim 0", R_GDIM, 2, 0, "each global dimension" },
		{ "global_stride 8", R_GSTRIDE, 3, 8, "multiple of 16" },
		{ "global_stride 2^40", R_GSTRIDE, 3, -1, "below 2^40" },
		{ "rank 6", R_RANK, 4, 5, "rank minus one" },
		{ "global_address 8 past alignment", R_ADDR, 5, 8, "16-byte aligned" },
		{ "global_stride of ordinal 4", R_GSTRIDE4, 6, 0, "ordinal is 0 to 3" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		r = rep_of(&a, b2, e1, bad[i].mask);
		switch (bad[i].field) {
		case 0: r.box[0] = (uint32_t)bad[i].v; break;
		case 1: r.estride[1] = (uint32_t)bad[i].v; break;
		case 2: r.gdim[1] = (uint32_t)bad[i].v; break;
		case 3: r.gstride[0] = bad[i].v < 0 ? 1ull << 40 : (uint64_t)bad[i].v; break;
		case 4: r.rank_m1 = bad[i].v; break;
		case 5: r.addr += (uint64_t)bad[i].v; break;
		}
		t_rep(t, bad[i].what, ma, &r, 2, c34, NULL, NULL, NULL, 0, 0, (int)(i & 1), PTXVM_ERROR_ILLEGAL_INSTRUCTION,
		      bad[i].text);
	}
	/* fields valid alone, not together: the copy refuses the map */
	r = rep_of(&a, (const uint32_t[]){ 16, 5 }, e1, R_BOX | R_SWIZZLE);
	r.swizzle = 1;
	t_rep(t, "a 64-byte inner box with the 32B swizzle", ma, &r, 2, c34, NULL, NULL, NULL, 0, 0, 0,
	      PTXVM_ERROR_ILLEGAL_INSTRUCTION, "swizzle span");
	r = rep_of(&a, b2, e1, R_ELEMTYPE | R_FILL);
	r.elemtype = 2, r.fill = 1;
	t_rep(t, "NaN fill of .u32", ma, &r, 2, c34, NULL, NULL, NULL, 0, 0, 0, PTXVM_ERROR_ILLEGAL_INSTRUCTION,
	      "NaN fill needs");
	/* where the map is */
	r = rep_of(&b, b2, e1, R_ADDR);
	t_rep(t, "a map 16 bytes past alignment", ma, &r, 2, c34, NULL, NULL, NULL, 0, 0, 0,
	      PTXVM_ERROR_MISALIGNED_ADDRESS, "64-byte aligned");
	_Alignas(64) uint8_t mi[128];
	ptxvm_tensor_map_im2col(t->d, mi, 1, 3, i3.dev, i3.dim, i3.stride + 1, (const int[]){ 0 }, (const int[]){ 0 },
				8, 4, e1, 0, 0, 0, 0);
	t_rep(t, "an im2col map", mi, &r, 2, c34, NULL, NULL, NULL, 0, 0, 0, PTXVM_ERROR_ILLEGAL_INSTRUCTION, "im2col");
	uint64_t wild = 0x40;
	int rank = 2, co[5] = { 0 };
	unsigned bytes = 64;
	void *ga[] = { &wild, &r, &rank, co, &bytes, &wild };
	ptxvm_result res = launch(t, "tmr_global", 1, 32, ga);
	check(res == PTXVM_ERROR_ILLEGAL_ADDRESS && strstr(ptxvm_device_message(t->d), "0x40"),
	      "replace: a map at address 0x40: %s: %s", ptxvm_result_name(res), ptxvm_device_message(t->d));
	Ten *all[] = { &a, &b, &c3, &d64, &h16, &u8, &i3, &i32b };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		ten_free(t, all[i]);
}

void test_tma(const char *root)
{
	char path[4096], why[512];
	size_t len;
	snprintf(path, sizeof path, "%s/tests/ptx/tma.ptx", root);
	char *text = slurp(path, &len);
	if (!text) {
		fail("tma: %s unreadable", path);
		return;
	}
	ptxvm_device_opts o = { 0 };
	o.workers = 2;
	T t = { ptxvm_device_create(&o), NULL };
	t.p = load_ptx(t.d, path, text, why, sizeof why);
	free(text);
	t_encode(&t);
	if (!t.p) {
		fail("tma: %s", why);
	} else {
		t_loads(&t);
		t_stores(&t);
		t_im2cols(&t);
		t_multicast(&t, 0xf);
		t_multicast(&t, 0xa);
		t_multicast(&t, 0x1);
		t_multicast(&t, 0x13);
		t_clusters(&t);
		t_bulk_reduce(&t);
		t_bad_maps(&t);
		ptxvm_program_unload(t.p);
	}
	ptxvm_device_destroy(t.d);
	/* tensormap.replace: sm_90a code on an sm_90a device */
	snprintf(path, sizeof path, "%s/tests/ptx/tmreplace.sm_90a.ptx", root);
	text = slurp(path, &len);
	o.arch = "sm_90a";
	o.timeout = 20;         /* a box that never completes its mbarrier ends, not hangs */
	T ta = { ptxvm_device_create(&o), NULL };
	ptxvm_check_opts co = { .arch = "sm_90a" };
	ptxvm_module *m = text ? ptxvm_module_load(path, text, len, &co) : NULL;
	free(text);
	if (!m || ptxvm_module_errors(m) || ptxvm_program_load(ta.d, m, &ta.p)) {
		fail("tma: %s does not load: %s", path, ptxvm_device_message(ta.d));
	} else {
		t_replace(&ta);
		ptxvm_program_unload(ta.p);
	}
	ptxvm_module_free(m);
	ptxvm_device_destroy(ta.d);
}
