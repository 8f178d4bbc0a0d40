/* run.c: `ptxvm run`, kernel launches from the command line.
 *
 *   ptxvm run FILE.ptx --list
 *   ptxvm run FILE.ptx [--buf NAME:BYTES[:FILES]]... [--global NAME[:FILES]]...
 *             [--workers N] [--timeout S] [--printf-fifo BYTES] [--stats] [--check LIST]
 *             [--jit | --no-jit]
 *             LAUNCH [--launch LAUNCH]...
 *   LAUNCH:   [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]]
 *             [--cluster X[,Y[,Z]]] [--shared BYTES] [--arg SPEC]...
 *
 * Each --arg gives the next kernel parameter (`ptxvm run --help` lists the
 * SPECs); it must fit the parameter's PTX type.  The launches run in order
 * on one device; --buf buffers (@NAME, @NAME+OFFSET), --global variables
 * and the arrays of surface and texture arguments live across them, and
 * out= files are written when every launch succeeded.  A launch may run 60
 * seconds unless --timeout says otherwise (0: no limit).
 * Exit status: 0 success, 1 invalid PTX, 2 usage error, 3 launch failure,
 * 4 valid PTX that ptxvm cannot run yet.
 */
#include "cli.h"
#include "../util/util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <strings.h>

#define DEFAULT_TIMEOUT 60.0      /* seconds a launch may run unless --timeout says */
#define MAX_TIMEOUT 1e9
#define MAX_BYTES (1ull << 36)

/* in=FILE, out=FILE and how an input may differ in size */
typedef struct Files {
	char *in, *out;
	bool pad, truncate;     /* a shorter input is zero-filled; a longer one cut */
} Files;

enum { A_SCALAR, A_BUF, A_REF, A_SURF, A_TEX, A_BYTES };

typedef struct Arg {
	const char *spec;
	int kind;
	char sk;                /* a scalar's kind: u s f, or b (bits, any type) */
	ptxvm_array_desc desc;  /* a surface's or texture's array */
	ptxvm_texture_desc tdesc;       /* a texture's sampling */
	uint64_t array;
	uint8_t bytes[8];       /* a scalar's value */
	unsigned size;          /* a scalar's size */
	size_t nbytes;          /* a buffer's or bytes: argument's size */
	uint8_t *data;          /* bytes:HEX */
	Files f;
	char *ref;              /* @NAME */
	uint64_t off;           /* @NAME+OFFSET */
	uint64_t dptr;
} Arg;

typedef struct Launch {
	const char *kname;
	unsigned grid[3], block[3], cluster[3];    /* cluster: 0s unless --cluster */
	bool have_grid, have_block;
	uint64_t shared;
	Arg *args;
	int nargs;
} Launch;

/* --buf NAME:BYTES[:FILES] and --global NAME[:FILES] */
typedef struct Named {
	const char *spec;
	char *name;
	size_t bytes;
	Files f;
	uint64_t dptr;
} Named;

static char why[512];   /* what is wrong with the SPEC being parsed */

static bool no(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool no(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return false;
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("ptxvm run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

/* "X[,Y[,Z]]" */
static bool dims(const char *s, unsigned v[3])
{
	v[0] = v[1] = v[2] = 1;
	for (int i = 0; i < 3; i++) {
		char *e;
		errno = 0;
		unsigned long x = strtoul(s, &e, 10);
		if (e == s || errno || x == 0 || x > 0xffffffffu || *s == '-')
			return false;
		v[i] = (unsigned)x;
		if (!*e)
			return true;
		if (*e != ',')
			return false;
		s = e + 1;
	}
	return false;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *e;
	errno = 0;
	if (!*s || *s == '-')
		return false;
	*v = strtoull(s, &e, 0);
	return !*e && !errno;
}

/* One file option of a SPEC: in=FILE, out=FILE ('-': stdin, stdout),
 * pad, truncate.  False if tok is none of them. */
static bool file_option(Files *f, const char *tok, bool *ok)
{
	*ok = true;
	if (!strncmp(tok, "in=", 3)) {
		if (!tok[3] || f->in)
			*ok = no(f->in ? "a second in=" : "in= names no file");
		else
			f->in = strdup(tok + 3);
	} else if (!strncmp(tok, "out=", 4)) {
		if (!tok[4] || f->out)
			*ok = no(f->out ? "a second out=" : "out= names no file");
		else
			f->out = strdup(tok + 4);
	} else if (!strcmp(tok, "pad")) {
		f->pad = true;
	} else if (!strcmp(tok, "truncate")) {
		f->truncate = true;
	} else {
		return false;
	}
	return true;
}

/* The rest of a SPEC after strtok_r: file options, in any order. */
static bool parse_files(Files *f, char **save)
{
	for (char *tok; (tok = strtok_r(NULL, ":", save));) {
		bool ok;
		if (!file_option(f, tok, &ok))
			return no("unknown option '%s' (in=FILE, out=FILE, pad, truncate)", tok);
		if (!ok)
			return false;
	}
	return true;
}

/* A texture's option: filter=linear|point, address=wrap|clamp|mirror|border,
 * normalized, readmode=float|element. */
static bool parse_tex_option(ptxvm_texture_desc *t, const char *o)
{
	static const char *const addr[] = { "wrap", "clamp", "mirror", "border" };   /* ptxvm_address_mode */
	if (!strcmp(o, "normalized"))
		t->normalized_coords = 1;
	else if (!strcmp(o, "filter=linear") || !strcmp(o, "filter=point"))
		t->filter_mode = o[7] == 'l' ? PTXVM_FILTER_LINEAR : PTXVM_FILTER_POINT;
	else if (!strcmp(o, "readmode=float") || !strcmp(o, "readmode=element"))
		t->read_mode = o[9] == 'f' ? PTXVM_READ_NORMALIZED_FLOAT : PTXVM_READ_ELEMENT_TYPE;
	else if (!strncmp(o, "address=", 8)) {
		int m = -1;
		for (int i = 0; i < 4; i++)
			if (!strcmp(o + 8, addr[i]))
				m = i;
		if (m < 0)
			return false;
		t->address_mode[0] = t->address_mode[1] = t->address_mode[2] = (ptxvm_address_mode)m;
	} else
		return false;
	return true;
}

/* KIND:FORMAT:DIMS[:in=FILE][:out=FILE] for a surface, or
 * KIND:FORMAT:DIMS[:in=FILE][:OPTION]... for a texture, over a new array:
 * KIND surf or tex, then 1d 2d 3d 1dl 2dl cube cubel; FORMAT TYPExC (u8
 * u16 u32 s8 s16 s32 f16 f32 unorm8 unorm16 snorm8 snorm16, C 1, 2 or 4);
 * DIMS W, WxH or WxHxD, the last number of a layered kind its layer count
 * (a cubemap's W is its face size).  A texture is read-only: no out=. */
static bool parse_image(Arg *a, const char *kind, size_t kn, const char *rest)
{
	static const char *const kinds[] = { "1d", "2d", "3d", "1dl", "2dl", "cube", "cubel" };
	static const ptxvm_array_kind kval[] = { PTXVM_ARRAY_1D, PTXVM_ARRAY_2D, PTXVM_ARRAY_3D,
						 PTXVM_ARRAY_1D_LAYERED, PTXVM_ARRAY_2D_LAYERED,
						 PTXVM_ARRAY_CUBEMAP, PTXVM_ARRAY_CUBEMAP_LAYERED };
	static const unsigned ndims[] = { 1, 2, 3, 2, 3, 1, 2 };
	static const char *const types[] = { "u8", "u16", "u32", "s8", "s16", "s32", "f16", "f32",
					     "unorm8", "unorm16", "snorm8", "snorm16" };
	bool tex = kind[0] == 't';
	size_t pre = tex ? 3 : 4;
	int k = -1;
	for (int i = 0; i < 7; i++)
		if (strlen(kinds[i]) == kn - pre && !strncmp(kinds[i], kind + pre, kn - pre))
			k = i;
	if (k < 0)
		return no("unknown kind '%.*s' (%s1d %s2d %s3d %s1dl %s2dl %scube %scubel)", (int)kn, kind,
			  tex ? "tex" : "surf", tex ? "tex" : "surf", tex ? "tex" : "surf", tex ? "tex" : "surf",
			  tex ? "tex" : "surf", tex ? "tex" : "surf", tex ? "tex" : "surf");
	char *copy = strdup(rest), *save = NULL;
	char *fmt = strtok_r(copy, ":", &save), *dims = fmt ? strtok_r(NULL, ":", &save) : NULL;
	bool ok = fmt && dims;
	char *x = fmt ? strrchr(fmt, 'x') : NULL;
	int t = -1;
	if (ok && x) {
		*x = 0;
		for (int i = 0; i < 12; i++)
			if (!strcmp(types[i], fmt))
				t = i;
	}
	unsigned ch = x ? (unsigned)atoi(x + 1) : 0;
	if (!ok)
		ok = no("expected %s:FORMAT:DIMS", kind[0] == 't' ? "texKIND" : "surfKIND");
	else if (t < 0 || !(ch == 1 || ch == 2 || ch == 4))
		ok = no("unknown format '%s%s%s': TYPExC, TYPE u8 u16 u32 s8 s16 s32 f16 f32 unorm8 unorm16 "
			"snorm8 snorm16, C 1, 2 or 4 (u8x1, f32x4)", fmt ? fmt : "", x ? "x" : "", x ? x + 1 : "");
	uint64_t v[3] = { 0, 0, 0 };
	unsigned nv = 0;
	for (char *d = dims, *e; ok && d && *d; d = *e ? e + 1 : e) {
		e = d + strcspn(d, "x");
		char c = *e;
		*e = 0;
		ok = nv < 3 && parse_u64(d, &v[nv]) && v[nv] > 0;
		if (!ok)
			no("bad dimensions '%s': W, WxH or WxHxD of positive numbers", dims);
		nv++;
		*e = c;
	}
	if (ok && nv != ndims[k])
		ok = no("'%s' has %u dimensions; %.*s takes %u (W, WxH or WxHxD; a layered kind's last is its "
			"layer count)", dims, nv, (int)kn, kind, ndims[k]);
	if (tex) {
		for (char *tok; ok && (tok = strtok_r(NULL, ":", &save));) {
			if (!strncmp(tok, "out=", 4))
				ok = no("a texture is read-only: out= is for surfaces");
			else if (!file_option(&a->f, tok, &ok) && !parse_tex_option(&a->tdesc, tok))
				ok = no("unknown texture option '%s' (in=FILE, pad, truncate, filter=linear|point, "
					"address=wrap|clamp|mirror|border, normalized, readmode=float|element)", tok);
		}
	} else {
		ok = ok && parse_files(&a->f, &save);
	}
	free(copy);
	if (!ok)
		return false;
	ptxvm_array_desc *ad = &a->desc;
	ad->kind = kval[k];
	ad->format = (ptxvm_format)t;
	ad->channels = ch;
	ad->width = v[0];
	switch (ad->kind) {
	case PTXVM_ARRAY_2D: ad->height = v[1]; break;
	case PTXVM_ARRAY_3D: ad->height = v[1]; ad->depth = v[2]; break;
	case PTXVM_ARRAY_1D_LAYERED: ad->layers = v[1]; break;
	case PTXVM_ARRAY_2D_LAYERED: ad->height = v[1]; ad->layers = v[2]; break;
	case PTXVM_ARRAY_CUBEMAP: ad->height = v[0]; break;
	case PTXVM_ARRAY_CUBEMAP_LAYERED: ad->height = v[0]; ad->layers = v[1]; break;
	default: break;
	}
	a->kind = tex ? A_TEX : A_SURF;
	return true;
}


static const struct { const char *name; unsigned size; char kind; } scalar_types[] = {
	{ "u8", 1, 'u' }, { "u16", 2, 'u' }, { "u32", 4, 'u' }, { "u64", 8, 'u' },
	{ "s8", 1, 's' }, { "s16", 2, 's' }, { "s32", 4, 's' }, { "s64", 8, 's' },
	{ "f32", 4, 'f' }, { "f64", 8, 'f' },
	{ "b8", 1, 'b' }, { "b16", 2, 'b' }, { "b32", 4, 'b' }, { "b64", 8, 'b' },
};

static int hexdigit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* @NAME[+OFFSET] */
static bool parse_ref(Arg *a, const char *s)
{
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);
	if (!n)
		return no("expected @NAME or @NAME+OFFSET, a --buf by name");
	a->ref = strndup(s, n);
	if (plus && !parse_u64(plus + 1, &a->off))
		return no("bad offset '%s': a byte count", plus + 1);
	a->kind = A_REF;
	return true;
}

/* bytes:N:in=FILE[:pad|:truncate] or bytes:HEX: a parameter's bytes as
 * they are (a struct passed by value).  Without in=, the value is HEX: two
 * digits a byte, in memory order, an optional 0x before. */
static bool parse_bytes(Arg *a, const char *v)
{
	a->kind = A_BYTES;
	if (!strchr(v, ':')) {
		if (!strncmp(v, "0x", 2) || !strncmp(v, "0X", 2))
			v += 2;
		size_t n = strlen(v);
		if (!n || n % 2 || strspn(v, "0123456789abcdefABCDEF") != n || n / 2 > 0x8000)
			return no("'%s' is not bytes in hex (two digits a byte, in memory order); bytes:N:in=FILE "
				  "reads N bytes from a file", v);
		a->nbytes = n / 2;
		a->data = malloc(a->nbytes);
		for (size_t i = 0; i < a->nbytes; i++)
			a->data[i] = (uint8_t)(hexdigit(v[2 * i]) * 16 + hexdigit(v[2 * i + 1]));
		return true;
	}
	char *copy = strdup(v), *save = NULL;
	char *tok = strtok_r(copy, ":", &save);
	uint64_t n = 0;
	bool ok = tok && parse_u64(tok, &n) && n > 0 && n <= 0x8000;
	if (!ok)
		no("expected bytes:N:in=FILE (N from 1 to 32768) or bytes:HEX");
	a->nbytes = (size_t)n;
	ok = ok && parse_files(&a->f, &save);
	if (ok && a->f.out)
		ok = no("a parameter is read-only: out= is for buffers");
	else if (ok && !a->f.in)
		ok = no("bytes:N needs in=FILE (or write the bytes in hex: bytes:HEX)");
	free(copy);
	return ok;
}

static bool parse_arg(Arg *a)
{
	const char *s = a->spec, *colon = strchr(s, ':');
	if (s[0] == '@')
		return parse_ref(a, s + 1);
	if (!colon)
		return no("expected TYPE:VALUE, buf:BYTES, @NAME, bytes:..., surfKIND:... or texKIND:...");
	size_t tn = (size_t)(colon - s);
	const char *v = colon + 1;
	if ((tn >= 6 && !strncmp(s, "surf", 4)) || (tn >= 5 && !strncmp(s, "tex", 3)))
		return parse_image(a, s, tn, v);
	if (tn == 5 && !strncmp(s, "bytes", 5))
		return parse_bytes(a, v);
	if (tn == 3 && !strncmp(s, "buf", 3)) {
		a->kind = A_BUF;
		/* buf:in=FILE[:out=FILE]: as many bytes as the file has (nbytes 0 until read) */
		char *copy = strdup(v), *save = copy;
		uint64_t n = 0;
		bool ok = true;
		if (strncmp(v, "in=", 3)) {
			char *tok = strtok_r(copy, ":", &save);
			ok = tok && parse_u64(tok, &n) && n > 0 && n <= MAX_BYTES;
		}
		if (!ok)
			no("expected buf:BYTES[:in=FILE][:out=FILE][:pad][:truncate] (BYTES from 1 to 2^36) or "
			   "buf:in=FILE[:out=FILE]");
		a->nbytes = (size_t)n;
		ok = ok && parse_files(&a->f, &save);
		free(copy);
		return ok;
	}
	for (size_t i = 0; i < sizeof scalar_types / sizeof scalar_types[0]; i++) {
		if (strlen(scalar_types[i].name) != tn || strncmp(scalar_types[i].name, s, tn))
			continue;
		char *e;
		errno = 0;
		a->kind = A_SCALAR;
		a->size = scalar_types[i].size;
		a->sk = scalar_types[i].kind;
		unsigned bits = a->size * 8;
		if (a->sk == 'f') {
			double d = strtod(v, &e);
			if (e == v || *e)
				return no("'%s' is not a number", v);
			if (a->size == 4) {
				float f = (float)d;
				memcpy(a->bytes, &f, 4);
			} else
				memcpy(a->bytes, &d, 8);
			return true;
		}
		uint64_t u;
		if (a->sk == 's') {
			long long x = strtoll(v, &e, 0);
			if (e == v || *e)
				return no("'%s' is not an integer", v);
			if (errno || (bits < 64 && (x < -(1ll << (bits - 1)) || x > (1ll << (bits - 1)) - 1)))
				return no("%s is out of range for s%u", v, bits);
			u = (uint64_t)x;
		} else {
			if (!parse_u64(v, &u))
				return *v == '-' ? no("%s is negative; u%u is unsigned", v, bits)
						 : no("'%s' is not an unsigned integer", v);
			if (a->size < 8 && u >> bits)
				return no("%s is out of range for %c%u", v, a->sk, bits);
		}
		memcpy(a->bytes, &u, a->size);      /* little-endian host */
		return true;
	}
	return no("unknown type '%.*s' (u8..u64, s8..s64, f32, f64, b8..b64 for bits, buf, bytes, surf..., tex...)",
		  (int)tn, s);
}

static int write_out(const char *spec, const char *path, const void *p, size_t n)
{
	if (!strcmp(path, "-")) {
		if (fwrite(p, 1, n, stdout) != n || fflush(stdout)) {
			fprintf(stderr, "ptxvm run: '%s': cannot write to stdout: %s\n", spec, strerror(errno));
			return 2;
		}
		return 0;
	}
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(p, 1, n, f) == n;
	if (f && fclose(f))
		ok = false;
	if (!ok) {
		fprintf(stderr, "ptxvm run: '%s': cannot write '%s': %s\n", spec, path, strerror(errno));
		return 2;
	}
	return 0;
}

/* write_out of n bytes of device memory at dptr, a chunk at a time (no
 * host copy of a whole buffer). */
static int write_out_dev(ptxvm_device *d, const char *spec, const char *path, uint64_t dptr, size_t n)
{
	enum { CHUNK = 1 << 20 };
	bool std = !strcmp(path, "-");
	uint8_t *chunk = malloc(n < CHUNK ? n + 1 : CHUNK);
	FILE *f = !chunk ? NULL : std ? stdout : fopen(path, "wb");
	bool ok = f != NULL, copied = true;
	for (size_t at = 0; ok && copied && at < n;) {
		size_t k = n - at < CHUNK ? n - at : CHUNK;
		copied = ptxvm_memcpy_dtoh(d, chunk, dptr + at, k) == PTXVM_SUCCESS;
		ok = !copied || fwrite(chunk, 1, k, f) == k;
		at += k;
	}
	int e = chunk ? errno : ENOMEM;
	if (f && (std ? fflush(f) : fclose(f)))
		ok = false, e = errno;
	free(chunk);
	if (!copied) {
		fprintf(stderr, "ptxvm run: '%s': %s\n", spec, ptxvm_device_message(d));
		return 2;
	}
	if (!ok) {
		if (std)
			fprintf(stderr, "ptxvm run: '%s': cannot write to stdout: %s\n", spec, strerror(e));
		else
			fprintf(stderr, "ptxvm run: '%s': cannot write '%s': %s\n", spec, path, strerror(e));
		return 2;
	}
	return 0;
}

static bool is_png(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && !strcasecmp(path + n - 4, ".png");
}

/* The image shape of an array for PNG: its width, and rows of every
 * slice and layer; false (after a message) if its format has no PNG form. */
static bool png_shape(const Arg *a, unsigned *w, unsigned *rows, unsigned *bits)
{
	const ptxvm_array_desc *ad = &a->desc;
	if (ad->format != PTXVM_FORMAT_U8 && ad->format != PTXVM_FORMAT_U16 &&
	    ad->format != PTXVM_FORMAT_UNORM8 && ad->format != PTXVM_FORMAT_UNORM16) {
		fprintf(stderr, "ptxvm run: --arg '%s': PNG images are for 8- and 16-bit unsigned formats\n", a->spec);
		return false;
	}
	bool cube = ad->kind == PTXVM_ARRAY_CUBEMAP || ad->kind == PTXVM_ARRAY_CUBEMAP_LAYERED;
	size_t layers = (ad->layers ? ad->layers : 1) * (cube ? 6 : 1);
	*w = (unsigned)ad->width;
	*rows = (unsigned)((ad->height ? ad->height : 1) * (ad->depth ? ad->depth : 1) * layers);
	*bits = ad->format == PTXVM_FORMAT_U8 || ad->format == PTXVM_FORMAT_UNORM8 ? 8 : 16;
	return true;
}

/* The bytes of an in=FILE ('-': stdin) for an argument of n bytes, into
 * dst (n bytes, zeroed) or, where dst is NULL, into device memory at dptr
 * (n bytes) a chunk at a time, so that no host copy of a large input is
 * held beside the device's: at most n + 1 bytes are read, whatever the file
 * (a device such as /dev/zero included).  Its size must be n, unless pad
 * (a shorter file, the rest zero) or truncate (a longer one, its first n
 * bytes) says otherwise.  False after a message. */
static bool stdin_taken;

static bool read_input_to(const char *spec, const Files *fl, uint8_t *dst, ptxvm_device *d, uint64_t dptr,
			  size_t n)
{
	bool std = !strcmp(fl->in, "-");
	if (std && stdin_taken) {
		fprintf(stderr, "ptxvm run: '%s': stdin (in=-) is read by another argument already\n", spec);
		return false;
	}
	stdin_taken |= std;
	FILE *f = std ? stdin : fopen(fl->in, "rb");
	if (!f) {
		fprintf(stderr, "ptxvm run: '%s': cannot open '%s': %s\n", spec, fl->in, strerror(errno));
		return false;
	}
	enum { CHUNK = 1 << 20 };
	uint8_t *chunk = dst ? NULL : malloc(n < CHUNK ? n + 1 : CHUNK);
	size_t got = 0;
	bool copied = true;
	errno = 0;
	if (dst) {
		got = fread(dst, 1, n, f);
	} else if (chunk) {
		while (got < n) {
			size_t want = n - got < CHUNK ? n - got : CHUNK, k = fread(chunk, 1, want, f);
			copied = copied && (!k || ptxvm_memcpy_htod(d, dptr + got, chunk, k) == PTXVM_SUCCESS);
			got += k;
			if (k < want)
				break;
		}
	}
	int more = got == n ? fgetc(f) : EOF;
	bool bad = ferror(f) || (!dst && !chunk);
	int e = dst || chunk ? errno : ENOMEM;
	if (!std)
		fclose(f);
	free(chunk);
	const char *name = std ? "stdin" : fl->in;
	if (bad) {
		fprintf(stderr, "ptxvm run: '%s': cannot read '%s': %s\n", spec, name, strerror(e));
		return false;
	}
	if (!copied) {
		fprintf(stderr, "ptxvm run: '%s': %s\n", spec, ptxvm_device_message(d));
		return false;
	}
	if (more != EOF && !fl->truncate) {
		fprintf(stderr, "ptxvm run: '%s': '%s' is longer than the argument's %zu bytes (add :truncate to "
			"use its first %zu)\n", spec, name, n, n);
		return false;
	}
	if (got < n && !fl->pad) {
		fprintf(stderr, "ptxvm run: '%s': '%s' has %zu bytes; the argument has %zu (add :pad to make the "
			"rest zero)\n", spec, name, got, n);
		return false;
	}
	if (!dst && got < n && ptxvm_memset_d8(d, dptr + got, 0, n - got)) {
		fprintf(stderr, "ptxvm run: '%s': %s\n", spec, ptxvm_device_message(d));
		return false;
	}
	return true;
}

static bool read_input(const char *spec, const Files *fl, uint8_t *dst, size_t n)
{
	return read_input_to(spec, fl, dst, NULL, 0, n);
}

/* The size of a regular in=FILE, for a buffer as large as its file that
 * read_input_to fills on the device; 0 for stdin and other files, which
 * file_bytes reads whole instead. */
static size_t file_size(const Files *fl)
{
	struct stat st;
	if (!strcmp(fl->in, "-") || stat(fl->in, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return 0;
	return (size_t)st.st_size;
}

/* The whole of an in=FILE ('-': stdin), for a buffer as large as its
 * file; NULL after a message (an empty file too). */
static uint8_t *file_bytes(const char *spec, const Files *fl, size_t *n)
{
	bool std = !strcmp(fl->in, "-");
	if (std && stdin_taken) {
		fprintf(stderr, "ptxvm run: '%s': stdin (in=-) is read by another argument already\n", spec);
		return NULL;
	}
	stdin_taken |= std;
	char *p = read_file(fl->in, n);
	if (!p) {
		fprintf(stderr, "ptxvm run: '%s': cannot read '%s': %s\n", spec, std ? "stdin" : fl->in, strerror(errno));
		return NULL;
	}
	if (!*n) {
		fprintf(stderr, "ptxvm run: '%s': '%s' is empty: a buffer has at least one byte\n", spec,
			std ? "stdin" : fl->in);
		free(p);
		return NULL;
	}
	return (uint8_t *)p;
}

/* An array's contents from a file: a PNG image, or raw bytes, tightly
 * packed, row-major, layer after layer. */
static bool load_array(ptxvm_device *d, Arg *a)
{
	size_t n = ptxvm_array_bytes(d, a->array);
	uint8_t *img = calloc(n ? n : 1, 1);
	if (!img) {
		fprintf(stderr, "ptxvm run: --arg '%s': no host memory for %zu bytes\n", a->spec, n);
		return false;
	}
	bool ok;
	if (is_png(a->f.in)) {
		unsigned w, rows, bits;
		ok = png_shape(a, &w, &rows, &bits) && image_read_png(a->f.in, w, rows, a->desc.channels, bits, img) == 0;
	} else {
		ok = read_input(a->spec, &a->f, img, n);
	}
	if (ok)
		ptxvm_array_write(d, a->array, img, n);
	free(img);
	return ok;
}

static int save_image(const Arg *a, const void *p, size_t n)
{
	if (is_png(a->f.out)) {
		unsigned w, rows, bits;
		if (!png_shape(a, &w, &rows, &bits) || image_write_png(a->f.out, w, rows, a->desc.channels, bits, p))
			return 2;
		return 0;
	}
	return write_out(a->spec, a->f.out, p, n);
}

/* ---- kernels by name ---------------------------------------------------- */

/* A kernel's names: as in the PTX, its C++ name, and that without "void "
 * and without the parameters (what a user writes: "scale<float>"). */
typedef struct KName {
	const ptxvm_kernel *k;
	const char *mangled;
	char *cxx;              /* NULL when the name is not mangled */
	char *sig;              /* cxx without the return type */
	char *base;             /* sig without the parameters */
} KName;

/* Where a C++ signature's parameter list begins: its last top-level '('. */
static const char *params_at(const char *sig)
{
	const char *at = NULL;
	int depth = 0;
	for (const char *c = sig; *c; c++) {
		if (*c == '(' && depth == 0)
			at = c;
		if (*c == '(' || *c == '<')
			depth++;
		else if ((*c == ')' || *c == '>') && depth > 0)
			depth--;
	}
	return at;
}

static KName *kernel_names(const ptxvm_program *p, size_t *n)
{
	*n = ptxvm_kernel_count(p);
	KName *v = calloc(*n + 1, sizeof *v);
	for (size_t i = 0; i < *n; i++) {
		v[i].k = ptxvm_kernel_at(p, i);
		v[i].mangled = ptxvm_kernel_name(v[i].k);
		v[i].cxx = demangle(v[i].mangled);
		const char *sig = v[i].cxx ? v[i].cxx : v[i].mangled;
		if (!strncmp(sig, "void ", 5))
			sig += 5;
		v[i].sig = strdup(sig);
		const char *at = v[i].cxx ? params_at(v[i].sig) : NULL;
		v[i].base = at ? strndup(v[i].sig, (size_t)(at - v[i].sig)) : strdup(v[i].sig);
	}
	return v;
}

static void free_names(KName *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].cxx);
		free(v[i].sig);
		free(v[i].base);
	}
	free(v);
}

/* Levenshtein distance, for suggestions. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 200 || lb > 200)
		return (size_t)-1;
	size_t row[201];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

/* The kernel a --kernel names: its PTX (mangled) name, its C++ name with
 * or without "void " and the parameters, or a prefix of one of those that
 * only one kernel has.  NULL after a message: the candidates of an
 * ambiguous name, or the nearest names of a miss. */
static const ptxvm_kernel *find_kernel(const ptxvm_program *p, const char *want)
{
	size_t n, hits = 0;
	KName *v = kernel_names(p, &n);
	const ptxvm_kernel *k = NULL;
	/* exact, from the most to the least specific */
	for (int pass = 0; pass < 3 && !hits; pass++)
		for (size_t i = 0; i < n; i++) {
			const char *s = pass == 0 ? v[i].mangled : pass == 1 ? v[i].sig : v[i].base;
			if (!strcmp(s, want) || (pass == 1 && v[i].cxx && !strcmp(v[i].cxx, want))) {
				k = v[i].k;
				hits++;
			}
		}
	if (!hits) {
		size_t l = strlen(want);
		for (size_t i = 0; i < n; i++)
			if (!strncmp(v[i].sig, want, l) || !strncmp(v[i].mangled, want, l)) {
				k = v[i].k;
				hits++;
			}
	}
	if (hits > 1) {
		fprintf(stderr, "ptxvm run: --kernel '%s' names %zu kernels; name one of them:\n", want, hits);
		size_t l = strlen(want);
		for (size_t i = 0; i < n; i++)
			if (!strcmp(v[i].mangled, want) || !strcmp(v[i].sig, want) || !strcmp(v[i].base, want) ||
			    !strncmp(v[i].sig, want, l) || !strncmp(v[i].mangled, want, l))
				fprintf(stderr, "    %s%s%s%s\n", v[i].sig, v[i].cxx ? "  (" : "", v[i].cxx ? v[i].mangled : "",
					v[i].cxx ? ")" : "");
		k = NULL;
	} else if (!hits) {
		fprintf(stderr, "ptxvm run: no kernel named '%s' in the module", want);
		size_t best = (size_t)-1;
		for (size_t i = 0; i < n; i++) {
			size_t d1 = distance(want, v[i].base), d2 = distance(want, v[i].mangled);
			size_t d = d1 < d2 ? d1 : d2;
			if (d < best)
				best = d;
		}
		size_t shown = 0;
		for (size_t i = 0; i < n && best <= strlen(want) / 2 + 1; i++) {
			size_t d1 = distance(want, v[i].base), d2 = distance(want, v[i].mangled);
			if ((d1 < d2 ? d1 : d2) == best && shown++ < 5)
				fprintf(stderr, "%s '%s'", shown == 1 ? "; did you mean" : " or", v[i].sig);
		}
		if (shown)
			fputc('?', stderr);
		fprintf(stderr, "\n    (`ptxvm run FILE --list` lists its %zu kernel%s)\n", n, n == 1 ? "" : "s");
	}
	free_names(v, n);
	return hits == 1 ? k : NULL;
}

/* --list: every kernel, its C++ name, and each parameter's PTX type,
 * size and C++ type. */
static void list_kernels(const ptxvm_program *p)
{
	size_t n;
	KName *v = kernel_names(p, &n);
	for (size_t i = 0; i < n; i++) {
		size_t np = ptxvm_kernel_param_count(v[i].k);
		if (v[i].cxx)
			printf("%s\n    --kernel %s\n", v[i].cxx, v[i].mangled);
		else
			printf("%s\n", v[i].mangled);
		/* the C++ parameter types, split at top-level commas */
		const char *at = v[i].cxx ? params_at(v[i].cxx) : NULL;
		char **ct = calloc(np + 1, sizeof *ct);
		size_t nct = 0;
		if (at && at[1] != ')') {
			int depth = 0;
			const char *s = at + 1;
			for (const char *c = s; *c; c++) {
				if (*c == '(' || *c == '<' || *c == '[')
					depth++;
				else if ((*c == ')' || *c == '>' || *c == ']') && depth > 0)
					depth--;
				else if ((*c == ',' || *c == ')') && depth == 0) {
					if (nct < np)
						ct[nct] = strndup(s, (size_t)(c - s));
					nct++;
					s = c + 2;
					if (*c == ')')
						break;
				}
			}
		}
		for (size_t j = 0; j < np; j++) {
			ptxvm_param_info pi;
			ptxvm_kernel_param(v[i].k, j, &pi);
			char ty[64];
			if (!strcmp(pi.type, "b8"))
				snprintf(ty, sizeof ty, ".b8[%zu]", pi.size);  /* a struct by value */
			else
				snprintf(ty, sizeof ty, ".%s", pi.type);
			/* nvcc's parameter names repeat the kernel's: only others are shown */
			bool own = strncmp(pi.name, v[i].mangled, strlen(v[i].mangled)) != 0;
			printf("    %zu  %-8s %5zu bytes%s%s%s%s\n", j, ty, pi.size, nct == np && ct[j] ? "  " : "",
			       nct == np && ct[j] ? ct[j] : "", own ? "  " : "", own ? pi.name : "");
		}
		for (size_t j = 0; j < np; j++)
			free(ct[j]);
		free(ct);
	}
	free_names(v, n);
}

/* ---- arguments against parameters --------------------------------------- */

/* Whether a's value may go to parameter pi; a message if not. */
static bool fits(const Arg *a, const ptxvm_param_info *pi, int i)
{
	char t = pi->type[0];
	bool addr = a->kind == A_BUF || a->kind == A_REF || a->kind == A_SURF || a->kind == A_TEX;
	if (a->kind == A_BYTES) {
		if (a->nbytes != pi->size)
			return !bad("--arg '%s' is %zu bytes but parameter %d ('%s', .%s) is %zu", a->spec, a->nbytes, i,
				    pi->name, pi->type, pi->size);
		return true;
	}
	if (addr) {
		const char *what = a->kind == A_SURF ? "a surface object" : a->kind == A_TEX ? "a texture object"
											       : "a buffer address";
		if (pi->size != 8 || t == 'f')
			return !bad("--arg '%s' is %s, 8 bytes, but parameter %d ('%s', .%s) %s", a->spec, what, i,
				    pi->name, pi->type, pi->size != 8 ? "is not 64 bits wide" : "is a float");
		return true;
	}
	if (pi->size != a->size)
		return !bad("--arg '%s' is %u bytes but parameter %d ('%s', .%s) is %zu", a->spec, a->size, i, pi->name,
			    pi->type, pi->size);
	if (a->sk == 'b' || t == 'b')
		return true;    /* bits: any type of the size */
	if ((a->sk == 'f') != (t == 'f'))
		return !bad("--arg '%s' is %s but parameter %d ('%s', .%s) is %s: write %s%u:VALUE, or b%u:0x... for "
			    "its bits", a->spec, a->sk == 'f' ? "a float" : "an integer", i, pi->name, pi->type,
			    t == 'f' ? "a float" : "an integer", t == 'f' ? "f" : "u", a->size * 8, a->size * 8);
	return true;
}

static Named *find_named(Named *v, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* The parameter buffer of a launch, its arguments' buffers and arrays made;
 * NULL after a message (*rc set). */
static uint8_t *pack_args(ptxvm_device *d, const ptxvm_kernel *k, Launch *L, Named *bufs, int nbufs, int *rc)
{
	size_t np = ptxvm_kernel_param_count(k);
	if ((size_t)L->nargs != np) {
		fprintf(stderr, "ptxvm run: kernel '%s' takes %zu parameter%s; %d --arg given (`ptxvm run FILE --list` "
			"shows them)\n", ptxvm_kernel_name(k), np, np == 1 ? "" : "s", L->nargs);
		*rc = 2;
		return NULL;
	}
	uint8_t *pbuf = calloc(ptxvm_kernel_params_size(k) + 1, 1);
	for (int i = 0; i < L->nargs; i++) {
		ptxvm_param_info pi;
		ptxvm_kernel_param(k, (size_t)i, &pi);
		Arg *a = &L->args[i];
		if (!fits(a, &pi, i))
			goto fail;
		if (a->kind == A_SURF || a->kind == A_TEX) {
			uint64_t sobj;
			bool tex = a->kind == A_TEX;
			ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY };
			if (ptxvm_array_create(d, &a->desc, &a->array) ||
			    (tex ? (rd.array = a->array, ptxvm_texture_create(d, &rd, &a->tdesc, &sobj))
				 : ptxvm_surface_create(d, a->array, &sobj))) {
				bad("--arg '%s': %s", a->spec, ptxvm_device_message(d));
				goto fail;
			}
			if (a->f.in && !load_array(d, a))
				goto fail;
			memcpy(pbuf + pi.offset, &sobj, 8);
		} else if (a->kind == A_BUF) {
			uint8_t *whole = NULL;
			if (!a->nbytes)
				a->nbytes = file_size(&a->f);
			if (!a->nbytes && !(whole = file_bytes(a->spec, &a->f, &a->nbytes)))
				goto fail;
			if (whole) {
				bool ok = ptxvm_mem_alloc(d, a->nbytes, &a->dptr) == 0 &&
					  ptxvm_memcpy_htod(d, a->dptr, whole, a->nbytes) == 0;
				free(whole);
				if (!ok) {
					bad("--arg '%s': %s", a->spec, ptxvm_device_message(d));
					goto fail;
				}
				memcpy(pbuf + pi.offset, &a->dptr, 8);
				continue;
			}
			if (ptxvm_mem_alloc(d, a->nbytes, &a->dptr)) {
				bad("--arg '%s': %s", a->spec, ptxvm_device_message(d));
				goto fail;
			}
			if (a->f.in && !read_input_to(a->spec, &a->f, NULL, d, a->dptr, a->nbytes))
				goto fail;
			memcpy(pbuf + pi.offset, &a->dptr, 8);
		} else if (a->kind == A_REF) {
			Named *b = find_named(bufs, nbufs, a->ref);
			if (!b) {
				bad("--arg '%s': no --buf named '%s'", a->spec, a->ref);
				goto fail;
			}
			if (a->off > b->bytes) {
				bad("--arg '%s': offset %" PRIu64 " is past the end of the %zu-byte buffer '%s'", a->spec,
				    a->off, b->bytes, b->name);
				goto fail;
			}
			uint64_t p = b->dptr + a->off;
			memcpy(pbuf + pi.offset, &p, 8);
		} else if (a->kind == A_BYTES) {
			if (!a->data) {
				a->data = calloc(a->nbytes, 1);
				if (!read_input(a->spec, &a->f, a->data, a->nbytes))
					goto fail;
			}
			memcpy(pbuf + pi.offset, a->data, a->nbytes);
		} else {
			memcpy(pbuf + pi.offset, a->bytes, a->size);
		}
	}
	return pbuf;
fail:
	free(pbuf);
	*rc = 2;
	return NULL;
}

/* The exit status of a failed call, after its message with the CUDA error
 * name: 1 invalid PTX, 2 a bad request, 3 the launch failed, 4 valid PTX
 * that ptxvm cannot run yet. */
static int failed(ptxvm_device *d, ptxvm_result r)
{
	const char *msg = ptxvm_device_message(d);
	if (strstr(msg, ptxvm_result_name(r)))
		fprintf(stderr, "ptxvm run: %s\n", msg);
	else
		fprintf(stderr, "ptxvm run: %s: %s\n", ptxvm_result_name(r), msg);
	return r == PTXVM_ERROR_NOT_SUPPORTED ? 4 : r == PTXVM_ERROR_INVALID_PTX ? 1 : r == PTXVM_ERROR_INVALID_VALUE ? 2 : 3;
}

/* NAME:BYTES[:FILES] for --buf (bytes 0: no size, for --global) */
static bool parse_named(Named *b, const char *spec, bool sized)
{
	char *copy = strdup(spec), *save = NULL;
	char *name = strtok_r(copy, ":", &save);
	bool ok = name != NULL;
	if (!ok)
		no("expected NAME%s[:in=FILE][:out=FILE]", sized ? ":BYTES" : "");
	if (ok && sized && save && !strncmp(save, "in=", 3)) {
		b->bytes = 0;   /* NAME:in=FILE: as large as the file */
	} else if (ok && sized) {
		char *tok = strtok_r(NULL, ":", &save);
		uint64_t n = 0;
		ok = tok && parse_u64(tok, &n) && n > 0 && n <= MAX_BYTES;
		if (!ok)
			no("expected NAME:BYTES[:in=FILE][:out=FILE][:pad][:truncate] (BYTES from 1 to 2^36) or "
			   "NAME:in=FILE[:out=FILE]");
		b->bytes = (size_t)n;
	}
	if (ok)
		b->name = strdup(name);
	ok = ok && parse_files(&b->f, &save);
	free(copy);
	b->spec = spec;
	return ok;
}

/* A usage error: the message, then exit status 2 after cleaning up. */
#define USAGE(...) do { rc = bad(__VA_ARGS__); goto out; } while (0)

int cmd_run(int argc, char **argv)
{
	const char *file = NULL;
	bool stats = false, list = false;
	int jit = 0;            /* --jit 1, --no-jit -1: the compiling tier */
	uint64_t workers = 0, fifo_arg = 0;
	int rdc = 0;            /* relocatable code (nvcc -rdc=true), as check -c */
	const char *arch = NULL;        /* the device's target (sm_90: NULL) */
	unsigned checks = 0;
	double timeout = DEFAULT_TIMEOUT;
	Launch *launches = calloc((size_t)argc + 1, sizeof *launches);
	int nl = 1;
	Named *bufs = calloc((size_t)argc + 1, sizeof *bufs), *globals = calloc((size_t)argc + 1, sizeof *globals);
	int nbufs = 0, nglobals = 0, rc = 0;
	ptxvm_device *d = NULL;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		Launch *L = &launches[nl - 1];
		bool takes = !strcmp(o, "--grid") || !strcmp(o, "--block") || !strcmp(o, "--kernel") ||
			     !strcmp(o, "--cluster") ||
			     !strcmp(o, "--shared") || !strcmp(o, "--arg") || !strcmp(o, "--workers") ||
			     !strcmp(o, "--timeout") || !strcmp(o, "--printf-fifo") || !strcmp(o, "--buf") ||
			     !strcmp(o, "--global") || !strcmp(o, "--check") || !strcmp(o, "--arch");
		if (takes && !val)
			USAGE("%s needs a value", o);
		if (!strcmp(o, "--grid")) {
			if (!dims(val, L->grid))
				USAGE("bad --grid '%s': expected X[,Y[,Z]] of positive numbers", val);
			L->have_grid = true;
		} else if (!strcmp(o, "--block")) {
			if (!dims(val, L->block))
				USAGE("bad --block '%s': expected X[,Y[,Z]] of positive numbers", val);
			L->have_block = true;
		} else if (!strcmp(o, "--cluster")) {
			if (!dims(val, L->cluster))
				USAGE("bad --cluster '%s': expected X[,Y[,Z]] of positive numbers", val);
		} else if (!strcmp(o, "--kernel")) {
			if (L->kname)
				USAGE("a second --kernel ('%s') in one launch: start the next with --launch", val);
			L->kname = val;
		} else if (!strcmp(o, "--shared")) {
			if (!parse_u64(val, &L->shared) || L->shared > (1u << 30))
				USAGE("bad --shared '%s': expected a byte count", val);
		} else if (!strcmp(o, "--arch")) {
			ptxvm_module *t = ptxvm_module_load("arch", "", 0, &(ptxvm_check_opts){ .arch = val });
			if (!t)
				USAGE("unknown architecture '%s' (sm_90, sm_90a, ...)", val);
			ptxvm_module_free(t);
			arch = val;
		} else if (!strcmp(o, "--workers")) {
			if (!parse_u64(val, &workers) || workers == 0 || workers > 1024)
				USAGE("bad --workers '%s': expected 1 to 1024", val);
		} else if (!strcmp(o, "--timeout")) {
			char *e;
			errno = 0;
			timeout = strtod(val, &e);
			if (e == val || *e || errno || !(timeout >= 0 && timeout <= MAX_TIMEOUT))
				USAGE("bad --timeout '%s': expected seconds from 0 to 1e9 (0: no limit)", val);
		} else if (!strcmp(o, "--printf-fifo")) {
			if (!parse_u64(val, &fifo_arg) || fifo_arg == 0 || fifo_arg > (1ull << 32))
				USAGE("bad --printf-fifo '%s': expected 1 to 4294967296 bytes", val);
		} else if (!strcmp(o, "--arg")) {
			if (!L->args)
				L->args = calloc((size_t)argc, sizeof *L->args);
			Arg *a = &L->args[L->nargs++];
			a->spec = val;
			if (!parse_arg(a))
				USAGE("bad --arg '%s': %s", val, why);
		} else if (!strcmp(o, "--buf")) {
			Named *b = &bufs[nbufs++];
			if (!parse_named(b, val, true))
				USAGE("bad --buf '%s': %s", val, why);
			if (find_named(bufs, nbufs - 1, b->name))
				USAGE("--buf '%s': a second buffer named '%s'", val, b->name);
		} else if (!strcmp(o, "--global")) {
			if (!parse_named(&globals[nglobals++], val, false))
				USAGE("bad --global '%s': %s", val, why);
		} else if (!strcmp(o, "--launch")) {
			nl++;
			continue;
		} else if (!strcmp(o, "--stats")) {
			stats = true;
			continue;
		} else if (!strcmp(o, "--jit") || !strcmp(o, "--no-jit")) {
			jit = o[2] == 'j' ? 1 : -1;
			continue;
		} else if (!strcmp(o, "--list")) {
			list = true;
			continue;
		} else if (!strcmp(o, "-c") || !strcmp(o, "--compile-only")) {
			rdc = 1;
			continue;
		} else if (!strncmp(o, "--check", 7) && (o[7] == '=' || !o[7])) {
			const char *spec = o[7] ? o + 8 : val;
			if (ptxvm_check_parse(spec, &checks))
				USAGE("bad --check '%s': expected a comma-separated list of memcheck, racecheck, initcheck, "
				      "synccheck, or all", spec);
			if (o[7])
				continue;
		} else if (o[0] == '-' && o[1]) {
			USAGE("unknown option '%s' (`ptxvm run --help` lists them)", o);
		} else if (!file) {
			file = o;
			continue;
		} else {
			USAGE("more than one input file ('%s')", o);
		}
		i++;
	}
	if (!file)
		USAGE("%s", "no input file (`ptxvm run --help` shows how to run a kernel)");
	for (int l = 0; l < nl && !list; l++)
		if (!launches[l].have_grid || !launches[l].have_block)
			USAGE("%s%s needs --grid and --block", nl > 1 ? "each launch" : "the launch",
			      nl > 1 ? " (between --launch options)" : "");

	/* PTX ISA 9.1 and 9.2 too, as the CUDA driver takes them (newer nvcc's) */
	ptxvm_check_opts co = { .arch = arch, .compile_only = rdc, .newer_versions = 1 };
	int st = 0;
	ptxvm_module *m = load(file, &co, &st);
	if (st == 1)
		fprintf(stderr, "ptxvm run: %s: %s has %zu error%s\n", ptxvm_result_name(PTXVM_ERROR_INVALID_PTX), file,
			ptxvm_module_errors(m), ptxvm_module_errors(m) == 1 ? "" : "s");
	if (st) {
		ptxvm_module_free(m);
		rc = st;
		goto out;
	}
	ptxvm_device_opts dopts = { .workers = (unsigned)workers, .timeout = timeout, .jit = jit,
				    .printf_fifo_bytes = (size_t)fifo_arg, .checks = checks, .arch = arch };
	d = ptxvm_device_create(&dopts);
	size_t fifo = 0;
	ptxvm_device_get_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, &fifo);
	ptxvm_program *p = NULL;
	ptxvm_result r = ptxvm_program_load(d, m, &p);
	ptxvm_module_free(m);
	if (r) {
		rc = failed(d, r);
		goto out;
	}
	if (list) {
		list_kernels(p);
		goto out;
	}
	/* the kernels, then the buffers and variables that outlive a launch */
	const ptxvm_kernel **ks = calloc((size_t)nl, sizeof *ks);
	for (int l = 0; l < nl && !rc; l++) {
		if (launches[l].kname) {
			if (!(ks[l] = find_kernel(p, launches[l].kname)))
				rc = 2;
		} else if (ptxvm_kernel_count(p) == 1) {
			ks[l] = ptxvm_kernel_at(p, 0);
		} else {
			fprintf(stderr, "ptxvm run: the module has %zu kernels; name one with --kernel:",
				ptxvm_kernel_count(p));
			for (size_t i = 0; i < ptxvm_kernel_count(p); i++)
				fprintf(stderr, " %s", ptxvm_kernel_name(ptxvm_kernel_at(p, i)));
			fputs("\n    (`ptxvm run FILE --list` shows them with their C++ names)\n", stderr);
			rc = 2;
		}
	}
	for (int i = 0; i < nbufs && !rc; i++) {
		Named *b = &bufs[i];
		uint8_t *whole = NULL;
		if (!b->bytes)
			b->bytes = file_size(&b->f);
		if (!b->bytes && !(whole = file_bytes(b->spec, &b->f, &b->bytes))) {
			rc = 2;
			break;
		}
		if (ptxvm_mem_alloc(d, b->bytes, &b->dptr)) {
			free(whole);
			rc = bad("--buf '%s': %s", b->spec, ptxvm_device_message(d));
			break;
		}
		if (whole) {
			ptxvm_memcpy_htod(d, b->dptr, whole, b->bytes);
			free(whole);
		} else if (b->f.in && !read_input_to(b->spec, &b->f, NULL, d, b->dptr, b->bytes)) {
			rc = 2;
		}
	}
	for (int i = 0; i < nglobals && !rc; i++) {
		Named *g = &globals[i];
		if (ptxvm_program_global(p, g->name, &g->dptr, &g->bytes)) {
			rc = bad("--global '%s': the module has no .global or .const variable named '%s'", g->spec, g->name);
			break;
		}
		if (g->f.in && !read_input_to(g->spec, &g->f, NULL, d, g->dptr, g->bytes))
			rc = 2;
	}
	for (int l = 0; l < nl && !rc; l++) {
		Launch *L = &launches[l];
		const ptxvm_kernel *k = ks[l];
		uint8_t *pbuf = pack_args(d, k, L, bufs, nbufs, &rc);
		if (!pbuf)
			break;
		ptxvm_launch_config cfg = { { L->grid[0], L->grid[1], L->grid[2] },
					    { L->block[0], L->block[1], L->block[2] }, (size_t)L->shared,
					    { L->cluster[0], L->cluster[1], L->cluster[2] } };
		ptxvm_launch_stats s = { 0 };
		r = ptxvm_launch_packed(d, k, &cfg, pbuf, ptxvm_kernel_params_size(k), &s);
		free(pbuf);
		if (r)
			rc = failed(d, r);
		if (s.printf_dropped)
			fprintf(stderr, "ptxvm run: warning: %" PRIu64 " device printf call%s dropped: the output "
				"exceeded the %zu-byte printf FIFO\n", s.printf_dropped, s.printf_dropped == 1 ? "" : "s",
				fifo);
		struct rusage ru;
		if (stats && getrusage(RUSAGE_SELF, &ru))
			ru.ru_maxrss = 0;
		if (stats) {    /* peak_rss_kb: the process's peak resident set so far */
			for (char *q = s.jit_note; *q; q++)     /* JSON: our own words, and paths */
				if (*q == '"' || *q == '\\' || (unsigned char)*q < 32)
					*q = '?';
			fprintf(stderr,
				"{\"kernel\": \"%s\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
				"\"workers\": %u, \"thread_instructions\": %" PRIu64 ", \"warp_instructions\": %" PRIu64
				", \"seconds\": %.6f, \"printf_dropped\": %" PRIu64 ", \"peak_rss_kb\": %ld, "
				"\"compiled\": %s, \"jit_seconds\": %.6f, \"jit_cache_hit\": %s, \"jit_note\": \"%s\"}\n",
				ptxvm_kernel_name(k), L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
				L->block[2], s.workers, s.thread_instructions, s.warp_instructions, s.seconds,
				s.printf_dropped, (long)ru.ru_maxrss, s.compiled ? "true" : "false", s.jit_seconds,
				s.jit_cache_hit ? "true" : "false", s.jit_note);
		}
	}
	free(ks);
	if (rc)
		goto out;
	fflush(stdout);         /* device printf output before out=- */
	/* out= files, in the order of the command line's launches, then --buf, then --global */
	for (int l = 0; l < nl; l++)
		for (int i = 0; i < launches[l].nargs; i++) {
			Arg *a = &launches[l].args[i];
			if (!a->f.out)
				continue;
			if (a->kind == A_SURF) {
				size_t n = ptxvm_array_bytes(d, a->array);
				uint8_t *host = malloc(n ? n : 1);
				ptxvm_array_read(d, a->array, host, n);
				if (save_image(a, host, n))
					rc = 2;
				free(host);
			} else if (a->kind == A_BUF && write_out_dev(d, a->spec, a->f.out, a->dptr, a->nbytes)) {
				rc = 2;
			}
		}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < (pass ? nglobals : nbufs); i++) {
			Named *b = pass ? &globals[i] : &bufs[i];
			if (!b->f.out)
				continue;
			if (write_out_dev(d, b->spec, b->f.out, b->dptr, b->bytes))
				rc = 2;
		}
out:
	if (d) {
		/* the buffers go back, so that memcheck's leak check sees only the
		 * kernels'; with checks, errors found make the exit status 5 */
		for (int l = 0; l < nl; l++)
			for (int i = 0; i < launches[l].nargs; i++)
				if (launches[l].args[i].kind == A_BUF && launches[l].args[i].dptr)
					ptxvm_mem_free(d, launches[l].args[i].dptr);
		for (int i = 0; i < nbufs; i++)
			if (bufs[i].dptr)
				ptxvm_mem_free(d, bufs[i].dptr);
		if (ptxvm_device_check_finish(d))
			rc = 5;
	}
	ptxvm_device_destroy(d);
	for (int l = 0; l < nl; l++) {
		for (int i = 0; i < launches[l].nargs; i++) {
			Arg *a = &launches[l].args[i];
			free(a->f.in);
			free(a->f.out);
			free(a->ref);
			free(a->data);
		}
		free(launches[l].args);
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < (pass ? nglobals : nbufs); i++) {
			Named *b = pass ? &globals[i] : &bufs[i];
			free(b->name);
			free(b->f.in);
			free(b->f.out);
		}
	free(launches);
	free(bufs);
	free(globals);
	return rc;
}
