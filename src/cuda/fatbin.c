/* fatbin.c: the PTX inside what nvcc embeds in a program (see fatbin.h).
 *
 * The layout, little-endian, as nvcc 13 writes it (fields not listed are
 * not needed and not checked):
 *
 *   wrapper (what __cudaRegisterFatBinary receives, 24 bytes on LP64):
 *     u32 magic 0x466243b1, u32 version (1; 2 with prelinked fat binaries),
 *     pointer to the fat binary, pointer (file name or prelinked list)
 *   fat binary header (16 bytes):
 *     u32 magic 0xBA55ED50, u16 version 1, u16 header size (where the
 *     first entry begins), u64 size of the entries that follow it
 *   entry, one after another until that size is used up:
 *      0 u16 kind: 1 PTX, 2 ELF (a cubin: SASS); others are skipped
 *      4 u32 header size (64; 80 for PTX from CUDA 13): the payload follows
 *      8 u64 payload size, padded to 8
 *     16 u32 compressed size (0: not compressed)
 *     24 u16 minor, u16 major: the code's version (PTX ISA, or cubin ABI)
 *     28 u32 architecture (90: sm_90, or compute_90 for PTX)
 *     40 u64 flags: 0x8000 a zstd frame (nvcc's default), 0x2000 an LZ4
 *                   block (--compress-mode=speed); PTX text otherwise;
 *                   0x100000 arch-specific code (sm_90a), 0x200000
 *                   family code (sm_100f)
 *     56 u64 uncompressed size
 *
 * Uncompressed PTX is NUL-terminated inside its padded payload.  A cubin
 * is an ELF file with OS ABI 0x41; its e_flags carry the architecture in
 * bits 8-15 from ABI version 8 on, in bits 0-7 before.
 *
 * Which PTX entry: the highest architecture the device can run, and at
 * one architecture the most specific code.  Generic PTX runs on its
 * architecture and every later one; family PTX (compute_100f) only within
 * its family (10.x) from its own on; arch-specific PTX (compute_90a) only on
 * that architecture.  ptxvm's device is a generic target unless it is made
 * an 'a' or 'f' one (PTXVM_ARCH=sm_90a), and takes variant PTX only then.
 *
 * The input is untrusted: every size is checked against what contains it
 * before anything is read, and decompression writes into a buffer of the
 * declared size and must fill it exactly.
 */
#include "fatbin.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PTXVM_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef PTXVM_HAVE_LZ4
#include <lz4.h>
#endif

/* CUresult values (cuda.h), so that this file needs no toolkit header. */
enum {
	R_SUCCESS = 0,
	R_INVALID_VALUE = 1,
	R_OUT_OF_MEMORY = 2,
	R_INVALID_IMAGE = 200,
	R_NO_BINARY_FOR_GPU = 209,
	R_NOT_SUPPORTED = 801,
};

#define WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u
#define KIND_PTX 1
#define KIND_ELF 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_ARCH 0x100000u     /* arch-specific: compute_90a */
#define FLAG_FAMILY 0x200000u   /* family: compute_100f */
#define ENTRY_MIN 64
/* Sanity bounds where the caller cannot say how large the image is, and
 * for what a decompression may ask: larger is refused, never allocated. */
#define FATBIN_MAX (1ull << 32)
#define PTX_MAX (1ull << 30)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int say(char *why, size_t n, int r, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int say(char *why, size_t n, int r, const char *fmt, ...)
{
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return r;
}

const char *cuda_fatbin_codecs(void)
{
#if defined(PTXVM_HAVE_ZSTD) && defined(PTXVM_HAVE_LZ4)
	return "zstd lz4";
#elif defined(PTXVM_HAVE_ZSTD)
	return "zstd";
#elif defined(PTXVM_HAVE_LZ4)
	return "lz4";
#else
	return "";
#endif
}

/* The number of "sm_90a" / "compute_80"; 0 if it is neither.  *suffix
 * is 'a', 'f' or 0. */
static unsigned target_arch(const char *t, char *suffix)
{
	const char *d = !strncmp(t, "sm_", 3) ? t + 3 : !strncmp(t, "compute_", 8) ? t + 8 : NULL;
	unsigned v = 0;
	if (!d || *d < '1' || *d > '9')
		return 0;
	for (; *d >= '0' && *d <= '9' && v < 10000; d++)
		v = v * 10 + (unsigned)(*d - '0');
	*suffix = *d;
	return *d == 0 || ((*d == 'a' || *d == 'f') && d[1] == 0) ? v : 0;
}

/* How well a PTX entry of arch with these flags suits the device: 0 not
 * at all, else higher is better. */
static unsigned suits(unsigned arch, uint64_t flags, unsigned dev, char suffix)
{
	unsigned rank;
	if (flags & FLAG_ARCH) {
		if (suffix != 'a' || arch != dev)
			return 0;
		rank = 3;
	} else if (flags & FLAG_FAMILY) {
		if (!suffix || arch / 10 != dev / 10 || arch > dev)
			return 0;
		rank = 2;
	} else {
		if (arch > dev)
			return 0;
		rank = 1;
	}
	return arch * 4 + rank;
}

/* A copy of text[0..n) with a NUL; n is at most PTX_MAX. */
static int copy_text(const uint8_t *text, size_t n, char **out, char *why, size_t wn)
{
	char *p = malloc(n + 1);
	if (!p)
		return say(why, wn, R_OUT_OF_MEMORY, "no memory for %zu bytes of PTX", n);
	memcpy(p, text, n);
	p[n] = 0;
	*out = p;
	return R_SUCCESS;
}

/* PTX text: what is up to the first NUL (or len) must be text. */
static int bare_text(const uint8_t *img, size_t len, char **out, char *why, size_t wn)
{
	size_t n = 0;
	while (n < len && n <= PTX_MAX && img[n])
		n++;
	if (n > PTX_MAX)
		return say(why, wn, R_INVALID_IMAGE, "PTX text longer than %llu bytes", (unsigned long long)PTX_MAX);
	for (size_t i = 0; i < n; i++)
		if (img[i] < 0x20 && img[i] != '\t' && img[i] != '\n' && img[i] != '\r' && img[i] != '\f' &&
		    img[i] != '\v')
			return say(why, wn, R_INVALID_IMAGE,
				   "not a fat binary, a cubin or PTX text (byte 0x%02x at offset %zu)", img[i], i);
	if (n == 0)
		return say(why, wn, R_INVALID_IMAGE, "empty image: no PTX text");
	return copy_text(img, n, out, why, wn);
}

/* An ELF file given where PTX is expected: a cubin holds SASS only. */
static int refuse_elf(const uint8_t *img, size_t len, const char *target, char *why, size_t wn)
{
	if (len < 52 || img[4] != 2 || img[7] != 0x41)
		return say(why, wn, R_INVALID_IMAGE, "an ELF file that is not a 64-bit CUDA cubin");
	uint32_t fl = rd32(img + 48);
	unsigned arch = img[8] >= 8 ? (fl >> 8) & 0xff : fl & 0xff;
	return say(why, wn, R_NO_BINARY_FOR_GPU,
		   "the image is a cubin (SASS for sm_%u), and ptxvm runs PTX: load PTX for %s, or a fat "
		   "binary that holds PTX (nvcc -arch=sm_XX embeds it)",
		   arch, target);
}

/* Decompresses an entry's payload into a new buffer of usz bytes and a NUL. */
static int inflate(const uint8_t *src, uint64_t csz, uint64_t usz, uint64_t flags, char **out, char *why,
		   size_t wn)
{
	bool zstd = flags & FLAG_ZSTD, lz4 = flags & FLAG_LZ4;
	if (zstd && lz4)
		return say(why, wn, R_INVALID_IMAGE, "entry flags 0x%llx name two codecs", (unsigned long long)flags);
	if (usz == 0 || usz > PTX_MAX)
		return say(why, wn, R_INVALID_IMAGE, "compressed entry declares %llu bytes uncompressed",
			   (unsigned long long)usz);
	char *dst = malloc(usz + 1);
	if (!dst)
		return say(why, wn, R_OUT_OF_MEMORY, "no memory for %llu bytes", (unsigned long long)usz);
	size_t got = 0;
	bool ok = false;
	if (zstd) {
#ifdef PTXVM_HAVE_ZSTD
		size_t r = ZSTD_decompress(dst, usz, src, csz);
		ok = !ZSTD_isError(r);
		got = ok ? r : 0;
		if (!ok)
			say(why, wn, R_INVALID_IMAGE, "the entry's zstd data is corrupt: %s", ZSTD_getErrorName(r));
#else
		free(dst);
		return say(why, wn, R_NOT_SUPPORTED,
			   "the entry is zstd-compressed and this ptxvm was built without libzstd "
			   "(install libzstd-dev and rebuild, or compile with nvcc --compress-mode=none)");
#endif
	} else {
#ifdef PTXVM_HAVE_LZ4
		int r = csz > INT32_MAX || usz > INT32_MAX ? -1 : LZ4_decompress_safe((const char *)src, dst, (int)csz, (int)usz);
		ok = r >= 0;
		got = ok ? (size_t)r : 0;
		if (!ok)
			say(why, wn, R_INVALID_IMAGE, "the entry's LZ4 data is corrupt");
#else
		free(dst);
		return say(why, wn, R_NOT_SUPPORTED,
			   "the entry is LZ4-compressed and this ptxvm was built without liblz4 "
			   "(install liblz4-dev and rebuild, or compile with nvcc --compress-mode=none)");
#endif
	}
	if (ok && got != usz) {
		ok = false;
		say(why, wn, R_INVALID_IMAGE, "the entry decompresses to %zu bytes, not the %llu it declares", got,
		    (unsigned long long)usz);
	}
	if (!ok) {
		free(dst);
		return R_INVALID_IMAGE;
	}
	dst[usz] = 0;
	if (!dst[0]) {
		free(dst);
		return say(why, wn, R_INVALID_IMAGE, "the entry is empty");
	}
	*out = dst;
	return R_SUCCESS;
}

/* Whether a cubin defines nothing a program can use: no function and no
 * object symbol in a section.  nvlink's device-link image, which a program
 * built with the static runtime registers besides its own code, is such a
 * cubin.  -1 if it is not a well-formed 64-bit ELF file. */
static int elf_empty(const uint8_t *e, size_t n)
{
	if (n < 64 || memcmp(e, "\177ELF", 4) || e[4] != 2)
		return -1;
	uint64_t shoff = rd64(e + 0x28);
	uint16_t shentsize = rd16(e + 0x3a), shnum = rd16(e + 0x3c);
	if (shentsize < 64 || shoff > n || (uint64_t)shnum * shentsize > n - shoff)
		return -1;
	for (unsigned i = 0; i < shnum; i++) {
		const uint8_t *sh = e + shoff + (size_t)i * shentsize;
		if (rd32(sh + 4) != 2) /* SHT_SYMTAB */
			continue;
		uint64_t off = rd64(sh + 0x18), size = rd64(sh + 0x20), ent = rd64(sh + 0x38);
		if (ent < 24 || off > n || size > n - off)
			return -1;
		for (uint64_t k = 0; k + ent <= size; k += ent) {
			const uint8_t *sym = e + off + k;
			unsigned type = sym[4] & 0xf; /* STT_OBJECT 1, STT_FUNC 2 */
			if ((type == 1 || type == 2) && rd16(sym + 6) != 0)
				return 0;
		}
	}
	return 1;
}

/* Whether every cubin entry of a fat binary (sizes already checked) is
 * empty; one that cannot be read counts as not empty. */
static bool cubins_empty(const uint8_t *e, const uint8_t *end)
{
	char why[8];
	for (; e < end; e += rd32(e + 4) + rd64(e + 8)) {
		if (rd16(e) != KIND_ELF)
			continue;
		uint64_t flags = rd64(e + 40), psz = rd64(e + 8);
		uint32_t csz = rd32(e + 16);
		const uint8_t *data = e + rd32(e + 4);
		int r;
		if (flags & (FLAG_ZSTD | FLAG_LZ4)) {
			char *plain = NULL;
			uint64_t usz = rd64(e + 56);
			if (csz == 0 || csz > psz || inflate(data, csz, usz, flags, &plain, why, sizeof why))
				return false;
			r = elf_empty((const uint8_t *)plain, usz);
			free(plain);
		} else
			r = elf_empty(data, psz);
		if (r != 1)
			return false;
	}
	return true;
}

/* Appends " sm_N" (with its a or f) to a list of architectures, once each. */
static void add_arch(char *list, size_t n, const char *prefix, unsigned arch, uint64_t flags)
{
	char one[40];
	snprintf(one, sizeof one, " %s%u%s", prefix, arch,
		 flags & FLAG_ARCH ? "a" : flags & FLAG_FAMILY ? "f" : "");
	size_t l = strlen(list), k = strlen(one);
	for (const char *s = strstr(list, one); s; s = strstr(s + 1, one))
		if (s[k] == 0 || s[k] == ' ')
			return;
	if (l + k < n)
		memcpy(list + l, one, k + 1);
}

static int from_fatbin(const uint8_t *img, size_t len, const char *target, unsigned want, char suffix,
		       char **out, char *why, size_t wn)
{
	if (len < 16)
		return say(why, wn, R_INVALID_IMAGE, "fat binary truncated: %zu bytes, its header has 16", len);
	uint16_t version = rd16(img + 4), hsz = rd16(img + 6);
	uint64_t size = rd64(img + 8);
	if (version != 1)
		return say(why, wn, R_INVALID_IMAGE, "fat binary version %u (ptxvm reads version 1)", version);
	if (hsz < 16 || hsz > len)
		return say(why, wn, R_INVALID_IMAGE, "fat binary header size %u does not fit in %zu bytes", hsz, len);
	if (size > FATBIN_MAX || size > len - hsz)
		return say(why, wn, R_INVALID_IMAGE, "fat binary truncated: it declares %llu bytes of entries, %zu follow its header",
			   (unsigned long long)size, len - hsz);
	const uint8_t *end = img + hsz + size, *best = NULL;
	unsigned best_arch = 0, best_rank = 0;
	char ptx[256] = "", sass[256] = "";
	for (const uint8_t *e = img + hsz; e < end;) {
		size_t left = (size_t)(end - e);
		if (left < ENTRY_MIN)
			return say(why, wn, R_INVALID_IMAGE, "fat binary entry at offset %zu truncated: %zu bytes, a header has %d",
				   (size_t)(e - img), left, ENTRY_MIN);
		uint16_t kind = rd16(e);
		uint32_t ehsz = rd32(e + 4), arch = rd32(e + 28);
		uint64_t psz = rd64(e + 8);
		if (ehsz < ENTRY_MIN || ehsz > left || psz > left - ehsz)
			return say(why, wn, R_INVALID_IMAGE,
				   "fat binary entry at offset %zu: header %u + payload %llu bytes, %zu remain",
				   (size_t)(e - img), ehsz, (unsigned long long)psz, left);
		uint64_t flags = rd64(e + 40);
		unsigned rank = suits(arch, flags, want, suffix);
		if (kind == KIND_PTX) {
			add_arch(ptx, sizeof ptx, "compute_", arch, flags);
			if (rank > best_rank) {
				best = e;
				best_arch = arch;
				best_rank = rank;
			}
		} else if (kind == KIND_ELF)
			add_arch(sass, sizeof sass, "sm_", arch, flags);
		e += ehsz + psz;
	}
	if (!best) {
		if (ptx[0])
			return say(why, wn, R_NO_BINARY_FOR_GPU, "no PTX for %s in the fat binary: its PTX is for%s only%s%s",
				   target, ptx, sass[0] ? ", SASS for" : "", sass);
		if (sass[0] && cubins_empty(img + hsz, end)) {
			/* no code to translate: the module it stands for is empty */
			char text[160];
			snprintf(text, sizeof text,
				 "// a fat binary whose cubins define nothing: an empty module\n"
				 ".version 9.0\n.target sm_%u\n.address_size 64\n",
				 want);
			say(why, wn, R_SUCCESS, "the fat binary's cubins (SASS for%s) define nothing: an empty module", sass);
			return copy_text((const uint8_t *)text, strlen(text), out, why, wn);
		}
		if (sass[0])
			return say(why, wn, R_NO_BINARY_FOR_GPU,
				   "no PTX in the fat binary, only SASS for%s, and ptxvm runs PTX: build with "
				   "-arch=sm_XX or -gencode arch=compute_XX,code=compute_XX to embed PTX",
				   sass);
		return say(why, wn, R_NO_BINARY_FOR_GPU, "the fat binary holds no code (no PTX, no SASS)");
	}
	uint32_t ehsz = rd32(best + 4), csz = rd32(best + 16);
	uint64_t psz = rd64(best + 8), flags = rd64(best + 40), usz = rd64(best + 56);
	const uint8_t *data = best + ehsz;
	if (flags & (FLAG_ZSTD | FLAG_LZ4)) {
		if (csz == 0 || csz > psz)
			return say(why, wn, R_INVALID_IMAGE, "compressed PTX entry of %u bytes in a payload of %llu", csz,
				   (unsigned long long)psz);
		return inflate(data, csz, usz, flags, out, why, wn);
	}
	if (csz)
		return say(why, wn, R_NOT_SUPPORTED, "the PTX entry is compressed with a codec ptxvm does not know (flags 0x%llx)",
			   (unsigned long long)flags);
	size_t n = 0;
	while (n < psz && data[n])
		n++;
	if (n == 0)
		return say(why, wn, R_INVALID_IMAGE, "the PTX entry for compute_%u is empty", best_arch);
	if (n > PTX_MAX)
		return say(why, wn, R_INVALID_IMAGE, "PTX entry longer than %llu bytes", (unsigned long long)PTX_MAX);
	return copy_text(data, n, out, why, wn);
}

int cuda_fatbin_ptx(const void *image, size_t len, const char *target, char **ptx_out, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = 0;
	if (!image || !target || !ptx_out)
		return say(why, whylen, R_INVALID_VALUE, "NULL image, target or result");
	*ptx_out = NULL;
	char suffix = 0;
	unsigned want = target_arch(target, &suffix);
	if (!want)
		return say(why, whylen, R_INVALID_VALUE, "target '%.40s' is not sm_N or compute_N", target);
	const uint8_t *img = image;
	if (len >= 4 && rd32(img) == WRAPPER_MAGIC) {
		if (len < 16)
			return say(why, whylen, R_INVALID_IMAGE, "fat binary wrapper truncated: %zu bytes", len);
		uint32_t v = rd32(img + 4);
		const void *data;
		memcpy(&data, img + 8, sizeof data);
		if (v != 1 && v != 2)
			return say(why, whylen, R_INVALID_IMAGE, "fat binary wrapper version %u (ptxvm reads 1 and 2)", v);
		if (!data)
			return say(why, whylen, R_INVALID_IMAGE, "fat binary wrapper without data");
		img = data;
		len = CUDA_FATBIN_UNBOUNDED; /* the wrapper says where, not how much */
		if (rd32(img) != FATBIN_MAGIC)
			return say(why, whylen, R_INVALID_IMAGE, "fat binary wrapper points at no fat binary (magic 0x%08x)",
				   rd32(img));
	}
	if (len >= 4 && rd32(img) == FATBIN_MAGIC)
		return from_fatbin(img, len, target, want, suffix, ptx_out, why, whylen);
	if (len >= 4 && !memcmp(img, "\177ELF", 4))
		return refuse_elf(img, len, target, why, whylen);
	return bare_text(img, len, ptx_out, why, whylen);
}

/* ELF64 little-endian, as nvcc -dc writes host objects: the section
 * headers (e_shoff 0x28, e_shentsize 0x3a, e_shnum 0x3c, e_shstrndx 0x3e),
 * each with its name (0x00), offset (0x18) and size (0x20). */
int cuda_object_fatbin(const void *object, size_t len, const void **fatbin, size_t *fatlen, char *why,
		       size_t whylen)
{
	const uint8_t *b = object;
	if (!object || !fatbin || !fatlen)
		return say(why, whylen, R_INVALID_VALUE, "NULL object or result");
	if (len < 64 || memcmp(b, "\177ELF", 4) || b[4] != 2 || b[5] != 1)
		return say(why, whylen, R_INVALID_IMAGE, "not a 64-bit little-endian ELF object");
	if (b[7] == 0x41)
		return say(why, whylen, R_NO_BINARY_FOR_GPU, "a cubin, not a host object: ptxvm runs PTX, not SASS");
	uint64_t shoff = rd64(b + 0x28);
	uint16_t es = rd16(b + 0x3a), n = rd16(b + 0x3c), strndx = rd16(b + 0x3e);
	if (es < 64 || !n || strndx >= n || shoff > len || (uint64_t)n * es > len - shoff)
		return say(why, whylen, R_INVALID_IMAGE, "ELF section headers outside the object's %zu bytes", len);
	const uint8_t *sh = b + shoff, *st = sh + (size_t)strndx * es;
	uint64_t stoff = rd64(st + 0x18), stsize = rd64(st + 0x20);
	if (stoff > len || stsize > len - stoff)
		return say(why, whylen, R_INVALID_IMAGE, "ELF section names outside the object");
	const char *names = (const char *)b + stoff;
	for (uint16_t i = 0; i < n; i++) {
		const uint8_t *s = sh + (size_t)i * es;
		uint32_t nm = rd32(s);
		uint64_t off = rd64(s + 0x18), size = rd64(s + 0x20);
		if (nm >= stsize)
			continue;
		size_t room = (size_t)(stsize - nm);
		/* relocatable device code (nvcc -dc) or a whole program's; the
		 * name with its NUL inside the table */
		if (!(room > 14 && !memcmp(names + nm, "__nv_relfatbin", 15)) &&
		    !(room > 10 && !memcmp(names + nm, ".nv_fatbin", 11)))
			continue;
		if (off > len || size > len - off)
			return say(why, whylen, R_INVALID_IMAGE, "the object's fat binary section lies outside it");
		*fatbin = b + off;
		*fatlen = (size_t)size;
		return R_SUCCESS;
	}
	return say(why, whylen, R_NO_BINARY_FOR_GPU, "the object carries no device code (no __nv_relfatbin or "
		   ".nv_fatbin section)");
}
