/* t_fatbin.c: the PTX inside nvcc's fat binaries (src/cuda/fatbin.c).
 *
 * The fixtures in tests/fatbin are nvcc output (gen.sh says which command
 * made each); the expected PTX texts were cut out of the uncompressed
 * multi-arch fixture by offsets in gen.sh, independently of the parser.
 * Every buffer handed to the parser is a malloc of exactly its length, so
 * a read past it is an error under ASan.  Corrupt and truncated images
 * must come back with an error code and a reason, never a crash.
 */
#include "test.h"
#include "../src/cuda/fatbin.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OK = 0, INVALID_VALUE = 1, INVALID_IMAGE = 200, NO_BINARY = 209, NOT_SUPPORTED = 801 };

typedef struct Blob {
	uint8_t *p;
	size_t n;
} Blob;

static Blob fixture(const char *root, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/fatbin/%s", root, name);
	size_t n = 0;
	char *t = slurp(path, &n);
	Blob b = { NULL, 0 };
	if (!t) {
		fail("fatbin: cannot read %s", path);
		return b;
	}
	b.p = malloc(n ? n : 1);
	memcpy(b.p, t, n);
	b.n = n;
	free(t);
	return b;
}

static Blob dup_prefix(Blob b, size_t n)
{
	Blob c = { malloc(n ? n : 1), n };
	memcpy(c.p, b.p, n);
	return c;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}
static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

/* Offset of the n-th entry header whose kind is kind (1 PTX, 2 ELF), read
 * by hand from the layout gen.sh relies on; 0 if none. */
static size_t entry_at(Blob b, unsigned kind, int nth)
{
	size_t p = 16;
	while (p + 64 <= b.n) {
		if ((b.p[p] | b.p[p + 1] << 8) == (int)kind && nth-- == 0)
			return p;
		p += get32(b.p + p + 4) + get64(b.p + p + 8);
	}
	return 0;
}

/* Does the codec of these flags exist in this build?  Otherwise the
 * parser must say which library is missing. */
static bool have(const char *codec) { return strstr(cuda_fatbin_codecs(), codec) != NULL; }

/* One call: expected code, a text the reason must contain (rc != 0), and
 * the PTX expected (rc == 0). */
static void expect(const char *what, Blob img, size_t len, const char *target, int want_rc, const char *want_why,
		   const char *want_ptx)
{
	char why[512], *ptx = (char *)"untouched";
	int rc = cuda_fatbin_ptx(img.p, len, target, &ptx, why, sizeof why);
	if (rc != want_rc) {
		fail("fatbin: %s for %s: code %d, expected %d (%s)", what, target, rc, want_rc, why);
	} else if (rc == 0 && (!ptx || !want_ptx || strcmp(ptx, want_ptx))) {
		fail("fatbin: %s for %s: the PTX differs from the reference (%zu bytes, expected %zu)", what, target,
		     ptx ? strlen(ptx) : 0, want_ptx ? strlen(want_ptx) : 0);
	} else if (rc != 0 && (ptx != NULL || !why[0] || (want_why && !strstr(why, want_why)))) {
		fail("fatbin: %s for %s: reason '%s' should contain '%s' (and no result)", what, target, why,
		     want_why ? want_why : "");
	} else
		passed++;
	if (rc == 0)
		free(ptx);
}

/* An image compressed with codec: the PTX where the library is built in,
 * else NOT_SUPPORTED naming it. */
static void expect_codec(const char *what, Blob img, const char *codec, const char *lib, const char *target,
			 const char *ptx)
{
	if (have(codec))
		expect(what, img, img.n, target, OK, NULL, ptx);
	else
		expect(what, img, img.n, target, NOT_SUPPORTED, lib, NULL);
}

/* The extracted PTX checks clean and loads. */
static void loads(const char *what, const char *ptx)
{
	char why[1024];
	ptxvm_device *d = ptxvm_device_create(NULL);
	if (!d) {
		fail("fatbin: no device");
		return;
	}
	ptxvm_program *p = load_ptx(d, what, ptx, why, sizeof why);
	if (p) {
		passed++;
		ptxvm_program_unload(p);
	} else
		fail("fatbin: %s", why);
	ptxvm_device_destroy(d);
}

/* Never a crash, and a result is a NUL-terminated text; with a code the
 * reason is given. */
static int survive(const char *what, Blob img, const char *target)
{
	char why[512], *ptx = NULL;
	int rc = cuda_fatbin_ptx(img.p, img.n, target, &ptx, why, sizeof why);
	if (rc == 0) {
		if (!ptx || !ptx[0])
			fail("fatbin: %s: success without PTX", what);
		free(ptx);
	} else if (!why[0] || ptx)
		fail("fatbin: %s: code %d without a reason, or with a result", what, rc);
	return rc;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* A host object as nvcc -dc writes one, made here by the ELF64 layout:
 * header, the fat binary, the section names, and three section headers
 * (none, .shstrtab, __nv_relfatbin). */
static Blob host_object(Blob fat, const char *section)
{
	static const char names[] = "\0.shstrtab\0__nv_relfatbin\0.nv_fatbin";
	size_t fatoff = 64, stroff = fatoff + fat.n, shoff = (stroff + sizeof names + 7) & ~(size_t)7;
	Blob o = { calloc(1, shoff + 3 * 64), shoff + 3 * 64 };
	memcpy(o.p, "\177ELF", 4);
	o.p[4] = 2;     /* 64-bit */
	o.p[5] = 1;     /* little-endian */
	o.p[16] = 1;    /* ET_REL */
	put64(o.p + 0x28, shoff);
	o.p[0x3a] = 64; /* e_shentsize */
	o.p[0x3c] = 3;  /* e_shnum */
	o.p[0x3e] = 1;  /* e_shstrndx */
	memcpy(o.p + fatoff, fat.p, fat.n);
	memcpy(o.p + stroff, names, sizeof names);
	uint8_t *sh = o.p + shoff;
	put32(sh + 64, 1);
	put64(sh + 64 + 0x18, stroff);
	put64(sh + 64 + 0x20, sizeof names);
	put32(sh + 128, !strcmp(section, ".nv_fatbin") ? 26 : 11);
	put64(sh + 128 + 0x18, fatoff);
	put64(sh + 128 + 0x20, fat.n);
	if (strcmp(section, "__nv_relfatbin") && strcmp(section, ".nv_fatbin"))
		put32(sh + 128, 0);     /* a section with no name */
	return o;
}

/* What cuda_object_fatbin finds in an object, and that damage to it gives
 * an error, never a read outside it. */
static void objects(Blob plain)
{
	for (int k = 0; k < 2; k++) {
		Blob o = host_object(plain, k ? ".nv_fatbin" : "__nv_relfatbin");
		const void *fat = NULL;
		size_t n = 0;
		char why[256] = "";
		int rc = cuda_object_fatbin(o.p, o.n, &fat, &n, why, sizeof why);
		if (rc || fat != o.p + 64 || n != plain.n)
			fail("fatbin: the fat binary of a host object (%s): code %d, %s", k ? ".nv_fatbin" : "__nv_relfatbin",
			     rc, why);
		else
			passed++;
		/* every truncation: an error once the headers are cut */
		for (size_t len = 0; len < o.n; len++) {
			Blob c = dup_prefix(o, len);
			rc = cuda_object_fatbin(c.p, c.n, &fat, &n, why, sizeof why);
			if (rc == 0 && (fat < (const void *)c.p || (const uint8_t *)fat + n > c.p + c.n))
				fail("fatbin: an object cut to %zu bytes gave a fat binary outside it", len);
			free(c.p);
		}
		passed++;
		/* random damage: an answer inside the object, or an error */
		for (int t = 0; t < 2000; t++) {
			Blob c = dup_prefix(o, o.n);
			for (int f = 0; f < 1 + (int)(next() % 4); f++)
				c.p[next() % c.n] ^= (uint8_t)(1u << (next() % 8));
			rc = cuda_object_fatbin(c.p, c.n, &fat, &n, why, sizeof why);
			if (rc == 0 && (fat < (const void *)c.p || (const uint8_t *)fat + n > c.p + c.n))
				fail("fatbin: a damaged object gave a fat binary outside it");
			free(c.p);
		}
		passed++;
		free(o.p);
	}
	Blob o = host_object(plain, "none");
	const void *fat;
	size_t n;
	char why[256] = "";
	int rc = cuda_object_fatbin(o.p, o.n, &fat, &n, why, sizeof why);
	if (rc != NO_BINARY || !strstr(why, "no device code"))
		fail("fatbin: an object without device code: code %d, %s", rc, why);
	else
		passed++;
	o.p[7] = 0x41;  /* a cubin's OS ABI */
	rc = cuda_object_fatbin(o.p, o.n, &fat, &n, why, sizeof why);
	if (rc != NO_BINARY || !strstr(why, "cubin"))
		fail("fatbin: a cubin as a host object: code %d, %s", rc, why);
	else
		passed++;
	o.p[7] = 0;
	put64(o.p + 0x28, (uint64_t)o.n);       /* section headers past the end */
	rc = cuda_object_fatbin(o.p, o.n, &fat, &n, why, sizeof why);
	if (rc != INVALID_IMAGE)
		fail("fatbin: section headers outside the object: code %d, %s", rc, why);
	else
		passed++;
	free(o.p);
}

void test_fatbin(const char *root)
{
	size_t n80 = 0, n90 = 0;
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/fatbin/vadd.compute_80.ptx", root);
	char *ptx80 = slurp(path, &n80);
	snprintf(path, sizeof path, "%s/tests/fatbin/vadd.compute_90.ptx", root);
	char *ptx90 = slurp(path, &n90);
	if (!ptx80 || !ptx90 || !strstr(ptx80, ".target sm_80") || !strstr(ptx90, ".target sm_90")) {
		fail("fatbin: the reference PTX texts are missing or wrong");
		free(ptx80);
		free(ptx90);
		return;
	}
	Blob plain = fixture(root, "plain.fatbin"), multi = fixture(root, "multi.fatbin"),
	     none = fixture(root, "multi-none.fatbin"), sass = fixture(root, "sass.fatbin"),
	     lz4 = fixture(root, "lz4.fatbin"), allz = fixture(root, "all-zstd.fatbin"),
	     alll = fixture(root, "all-lz4.fatbin"), p100 = fixture(root, "ptx100.fatbin"),
	     cubin = fixture(root, "vadd.sm90.cubin"), dlink = fixture(root, "dlink.fatbin"),
	     sm90a = fixture(root, "sm90a.fatbin"), ptx90a = fixture(root, "ptx90a.fatbin"),
	     ptx100f = fixture(root, "ptx100f.fatbin");
	if (!plain.p || !multi.p || !none.p || !sass.p || !lz4.p || !allz.p || !alll.p || !p100.p || !cubin.p ||
	    !dlink.p || !sm90a.p || !ptx90a.p || !ptx100f.p)
		goto out;

	/* the choice: the highest PTX not above the target; PTX runs forward */
	expect("multi-none.fatbin", none, none.n, "sm_80", OK, NULL, ptx80);
	expect("multi-none.fatbin", none, none.n, "sm_86", OK, NULL, ptx80);
	expect("multi-none.fatbin", none, none.n, "sm_89", OK, NULL, ptx80);
	expect("multi-none.fatbin", none, none.n, "sm_90", OK, NULL, ptx90);
	expect("multi-none.fatbin", none, none.n, "sm_90a", OK, NULL, ptx90);
	expect("multi-none.fatbin", none, none.n, "compute_100", OK, NULL, ptx90);
	expect("multi-none.fatbin", none, none.n, "sm_75", NO_BINARY, "compute_80 compute_90", NULL);
	expect("multi-none.fatbin", none, CUDA_FATBIN_UNBOUNDED, "sm_90", OK, NULL, ptx90);

	/* each codec: zstd (nvcc's default), LZ4 (--compress-mode=speed) */
	expect_codec("multi.fatbin", multi, "zstd", "libzstd", "sm_86", ptx80);
	expect_codec("multi.fatbin", multi, "zstd", "libzstd", "sm_90", ptx90);
	expect_codec("plain.fatbin", plain, "zstd", "libzstd", "sm_90", ptx90);
	expect_codec("all-zstd.fatbin", allz, "zstd", "libzstd", "sm_90", ptx90);
	expect_codec("lz4.fatbin", lz4, "lz4", "liblz4", "sm_90", ptx90);
	expect_codec("all-lz4.fatbin", alll, "lz4", "liblz4", "sm_100", ptx90);

	/* what -G, -rdc=true and -lto add: longer entry headers, LTO-IR */
	{
		const char *const names[] = { "debug.fatbin", "rdc.fatbin", "lto.fatbin" };
		const char *const marks[] = { ".target sm_90, debug", ".target sm_90\n", ".target sm_90\n" };
		for (int i = 0; i < 3; i++) {
			Blob f = fixture(root, names[i]);
			char why[256], *ptx = NULL;
			int rc = f.p ? cuda_fatbin_ptx(f.p, f.n, "sm_90", &ptx, why, sizeof why) : -1;
			if (!have("zstd"))
				printf("fatbin: skipped %s: built without zstd\n", names[i]);
			else if (rc != OK || !strstr(ptx, marks[i]))
				fail("fatbin: %s: code %d (%s), or the PTX lacks '%s'", names[i], rc, rc ? why : "", marks[i]);
			else {
				passed++;
				loads(names[i], ptx);
			}
			free(ptx);
			free(f.p);
		}
	}

	/* no PTX for the device: the reason names what there is */
	expect("sass.fatbin", sass, sass.n, "sm_90", NO_BINARY, "only SASS for sm_80 sm_90", NULL);
	expect("ptx100.fatbin", p100, p100.n, "sm_90", NO_BINARY, "PTX is for compute_100 only", NULL);
	expect("vadd.sm90.cubin", cubin, cubin.n, "sm_90", NO_BINARY, "cubin (SASS for sm_90)", NULL);

	/* a fat binary whose cubins define nothing is an empty module */
	{
		char why[256], *ptx = NULL;
		int rc = cuda_fatbin_ptx(dlink.p, dlink.n, "sm_90", &ptx, why, sizeof why);
		if (rc != OK || !ptx || !strstr(ptx, ".target sm_90") || strstr(ptx, ".entry") || !strstr(why, "empty module"))
			fail("fatbin: dlink.fatbin: code %d, '%s': not an empty module", rc, why);
		else {
			passed++;
			loads("the empty module of dlink.fatbin", ptx);
		}
		free(ptx);
		/* its section headers moved past the end: not readable, so refused */
		Blob c = dup_prefix(dlink, dlink.n);
		put64(c.p + 16 + 64 + 0x28, 1ull << 40);
		expect("dlink.fatbin, section headers past the end", c, c.n, "sm_90", NO_BINARY, "only SASS for sm_90", NULL);
		free(c.p);
		/* the compressed cubin of all-zstd.fatbin alone: it defines the kernel */
		c = dup_prefix(allz, allz.n);
		put64(c.p + 8, 64 + get64(c.p + 16 + 8));
		if (have("zstd"))
			expect("all-zstd.fatbin's cubin alone", c, 16 + 64 + get64(c.p + 16 + 8), "sm_90", NO_BINARY,
			       "only SASS for sm_90", NULL);
		else
			printf("fatbin: skipped 'all-zstd.fatbin's cubin alone': built without zstd\n");
		free(c.p);
	}

	/* arch-specific and family PTX only where the device's target says so */
	{
		struct {
			Blob *img;
			const char *target;
			int rc;
			const char *has;        /* in the PTX, or in the reason */
		} v[] = {
			{ &sm90a, "sm_90", OK, ".target sm_90\n" },
			{ &sm90a, "sm_90a", OK, ".target sm_90a\n" },
			{ &sm90a, "sm_100", OK, ".target sm_90\n" },
			{ &sm90a, "sm_100a", OK, ".target sm_90\n" },
			{ &ptx90a, "sm_90a", OK, ".target sm_90a\n" },
			{ &ptx90a, "sm_90", NO_BINARY, "its PTX is for compute_90a only" },
			{ &ptx90a, "sm_100a", NO_BINARY, "compute_90a" },
			{ &ptx100f, "sm_100f", OK, ".target sm_100f\n" },
			{ &ptx100f, "sm_103a", OK, ".target sm_100f\n" },
			{ &ptx100f, "sm_100", NO_BINARY, "compute_100f only" },
			{ &ptx100f, "sm_110f", NO_BINARY, "compute_100f only" },
			{ &ptx100f, "sm_90f", NO_BINARY, "compute_100f only" },
		};
		for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
			if (!have("zstd")) {
				printf("fatbin: skipped the variant cases: built without zstd\n");
				break;
			}
			char why[256], *ptx = NULL;
			int rc = cuda_fatbin_ptx(v[i].img->p, v[i].img->n, v[i].target, &ptx, why, sizeof why);
			if (rc != v[i].rc || !strstr(rc ? why : ptx, v[i].has))
				fail("fatbin: variant case %zu for %s: code %d (%s), expected %d with '%s'", i, v[i].target, rc,
				     rc ? why : "PTX", v[i].rc, v[i].has);
			else
				passed++;
			free(ptx);
		}
	}

	/* bare PTX text is copied; the wrapper nvcc registers is followed */
	Blob text = { (uint8_t *)ptx90, n90 };
	expect("PTX text", text, n90, "sm_90", OK, NULL, ptx90);
	expect("PTX text", text, CUDA_FATBIN_UNBOUNDED, "sm_90", OK, NULL, ptx90);
	struct {
		uint32_t magic, version;
		const void *data, *rest;
	} wrap = { 0x466243b1, 1, none.p, NULL };
	Blob w = { (uint8_t *)&wrap, sizeof wrap };
	expect("wrapper", w, CUDA_FATBIN_UNBOUNDED, "sm_86", OK, NULL, ptx80);
	wrap.version = 7;
	expect("wrapper version 7", w, sizeof wrap, "sm_90", INVALID_IMAGE, "wrapper version 7", NULL);
	wrap.version = 1;
	wrap.data = NULL;
	expect("wrapper without data", w, sizeof wrap, "sm_90", INVALID_IMAGE, "without data", NULL);
	wrap.data = ptx90;
	expect("wrapper at text", w, sizeof wrap, "sm_90", INVALID_IMAGE, "points at no fat binary", NULL);

	/* arguments */
	expect("multi-none.fatbin", none, none.n, "gfx90a", INVALID_VALUE, "not sm_N", NULL);
	expect("multi-none.fatbin", none, none.n, "sm_", INVALID_VALUE, "not sm_N", NULL);
	char *res = NULL;
	if (cuda_fatbin_ptx(NULL, 10, "sm_90", &res, NULL, 0) != INVALID_VALUE ||
	    cuda_fatbin_ptx(none.p, none.n, NULL, &res, NULL, 0) != INVALID_VALUE ||
	    cuda_fatbin_ptx(none.p, none.n, "sm_90", NULL, NULL, 0) != INVALID_VALUE)
		fail("fatbin: NULL arguments are not refused");
	else
		passed++;
	Blob junk = dup_prefix(none, 64);
	junk.p[0] = 0x01;
	expect("binary junk", junk, junk.n, "sm_90", INVALID_IMAGE, "not a fat binary, a cubin or PTX text", NULL);
	free(junk.p);

	/* every truncation of a fat binary is refused: the header declares more */
	int bad = 0;
	Blob all[] = { none, multi, lz4, alll };
	for (size_t f = 0; f < sizeof all / sizeof all[0]; f++)
		for (size_t k = 4; k < all[f].n; k++) {
			Blob c = dup_prefix(all[f], k);
			char why[256], *ptx = NULL;
			if (cuda_fatbin_ptx(c.p, c.n, "sm_90", &ptx, why, sizeof why) != INVALID_IMAGE || ptx || !why[0])
				bad++;
			free(c.p);
		}
	if (bad)
		fail("fatbin: %d truncated fat binaries not refused as invalid images", bad);
	else
		passed++;

	/* truncations whose header is made to agree: entries cut short */
	bad = 0;
	for (size_t k = 16; k < none.n; k++) {
		Blob c = dup_prefix(none, k);
		put64(c.p + 8, k - 16);
		/* the compute_90 PTX is the last entry, so it is cut: the
		 * result is the compute_80 PTX (cut after it), no code (cut
		 * before it) or an invalid image */
		char why[256], *ptx = NULL;
		int rc = cuda_fatbin_ptx(c.p, c.n, "sm_90", &ptx, why, sizeof why);
		if (rc == 0 ? strcmp(ptx, ptx80) != 0 : (rc != INVALID_IMAGE && rc != NO_BINARY) || !why[0] || ptx)
			bad++;
		free(ptx);
		free(c.p);
	}
	if (bad)
		fail("fatbin: %d cut fat binaries not refused (or gave other PTX than compute_80)", bad);
	else
		passed++;

	/* inconsistent entries */
	size_t e = entry_at(none, 1, 1);   /* the compute_90 PTX, uncompressed */
	size_t z = entry_at(multi, 1, 1);  /* the compute_90 PTX, zstd */
	size_t l = entry_at(lz4, 1, 0);    /* the compute_90 PTX, LZ4 */
	if (!e || !z || !l) {
		fail("fatbin: the fixtures' PTX entries are not where gen.sh puts them");
		goto out;
	}
	struct {
		const char *what;
		Blob *img;
		size_t at;      /* field offset from the start of the image */
		int width;      /* 4 or 8 */
		uint64_t value;
		int rc;
		const char *why;
		const char *codec;      /* the code expected needs this codec */
	} mut[] = {
		{ "fat binary version 2", &none, 4, 4, 0x00100002, INVALID_IMAGE, "version 2", NULL },
		{ "header size 8", &none, 4, 4, 0x00080001, INVALID_IMAGE, "header size 8", NULL },
		{ "header size past the end", &none, 4, 4, 0xfff00001, INVALID_IMAGE, "header size", NULL },
		{ "entries of 2^63 bytes", &none, 8, 8, 1ull << 63, INVALID_IMAGE, "truncated", NULL },
		{ "entry header of 8 bytes", &none, e + 4, 4, 8, INVALID_IMAGE, "header 8", NULL },
		{ "entry header past the end", &none, e + 4, 4, 0x7fffffff, INVALID_IMAGE, "remain", NULL },
		{ "payload past the end", &none, e + 8, 8, ~0ull, INVALID_IMAGE, "remain", NULL },
		{ "unknown codec", &none, e + 16, 4, 12, NOT_SUPPORTED, "codec ptxvm does not know", NULL },
		{ "compressed size past the payload", &multi, z + 16, 4, 0x7fffffff, INVALID_IMAGE, "in a payload", NULL },
		{ "compressed size 0", &multi, z + 16, 4, 0, INVALID_IMAGE, "in a payload", NULL },
		{ "uncompressed size 2^40", &multi, z + 56, 8, 1ull << 40, INVALID_IMAGE, "uncompressed", NULL },
		{ "uncompressed size 0", &multi, z + 56, 8, 0, INVALID_IMAGE, "uncompressed", NULL },
		{ "uncompressed size one short", &multi, z + 56, 8, 0, INVALID_IMAGE, "zstd", "zstd" },
		{ "uncompressed size one over", &multi, z + 56, 8, 0, INVALID_IMAGE, "not the", "zstd" },
		{ "two codecs", &multi, z + 40, 8, 0xa011, INVALID_IMAGE, "two codecs", NULL },
		{ "lz4 size one short", &lz4, l + 56, 8, 0, INVALID_IMAGE, "LZ4", "lz4" },
		{ "lz4 size one over", &lz4, l + 56, 8, 0, INVALID_IMAGE, "not the", "lz4" },
	};
	for (size_t i = 0; i < sizeof mut / sizeof mut[0]; i++) {
		if (mut[i].codec && !have(mut[i].codec)) {
			printf("fatbin: skipped '%s': built without %s\n", mut[i].what, mut[i].codec);
			continue;
		}
		Blob c = dup_prefix(*mut[i].img, mut[i].img->n);
		uint64_t v = mut[i].value;
		if (strstr(mut[i].what, "one short"))
			v = get64(c.p + mut[i].at) - 1;
		else if (strstr(mut[i].what, "one over"))
			v = get64(c.p + mut[i].at) + 1;
		if (mut[i].width == 4)
			put32(c.p + mut[i].at, (uint32_t)v);
		else
			put64(c.p + mut[i].at, v);
		expect(mut[i].what, c, c.n, "sm_90", mut[i].rc, mut[i].why, NULL);
		free(c.p);
	}

	/* random damage: bytes flipped anywhere, never a crash */
	Blob src[] = { none, multi, lz4, allz, alll, sass, dlink, sm90a };
	for (size_t f = 0; f < sizeof src / sizeof src[0]; f++)
		for (int it = 0; it < 400; it++) {
			Blob c = dup_prefix(src[f], src[f].n);
			int flips = 1 + next() % 8;
			for (int k = 0; k < flips; k++)
				c.p[next() % c.n] ^= (uint8_t)(1u << (next() % 8));
			survive("random damage", c, "sm_90");
			free(c.p);
		}
	passed++;

	objects(plain);

	/* what comes out is PTX ptxvm checks and loads */
	loads("vadd.compute_80.ptx", ptx80);
	loads("vadd.compute_90.ptx", ptx90);
	if (verbose)
		printf("fatbin: codecs built in: '%s'\n", cuda_fatbin_codecs());
out:
	free(plain.p);
	free(multi.p);
	free(none.p);
	free(sass.p);
	free(lz4.p);
	free(allz.p);
	free(alll.p);
	free(p100.p);
	free(cubin.p);
	free(dlink.p);
	free(sm90a.p);
	free(ptx90a.p);
	free(ptx100f.p);
	free(ptx80);
	free(ptx90);
}
