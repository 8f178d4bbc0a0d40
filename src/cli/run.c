/* run.c: `ptxvm run`, a kernel launch from the command line.
 *
 *   ptxvm run FILE.ptx [--kernel NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]]
 *             [--shared BYTES] [--arg SPEC]... [--workers N] [--timeout S]
 *             [--printf-fifo BYTES] [--stats]
 *
 * Each --arg gives the next kernel parameter: TYPE:VALUE for a scalar,
 * buf:BYTES[:in=FILE][:out=FILE] for a device buffer passed by address,
 * surfKIND:FORMAT:DIMS[:in=FILE][:out=FILE] for a surface object or
 * texKIND:FORMAT:DIMS[:in=FILE][:OPTION]... for a texture object over a
 * new array.
 * A launch may run 60 seconds unless --timeout says otherwise (0: no limit).
 * Exit status: 0 success, 1 invalid PTX, 2 usage error, 3 launch failure.
 */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_TIMEOUT 60.0      /* seconds a launch may run unless --timeout says */
#define MAX_TIMEOUT 1e9

typedef struct Arg {
	const char *spec;
	int is_buf;             /* 1 a buffer, 2 a surface, 3 a texture, over a new array */
	ptxvm_array_desc desc;  /* a surface's or texture's array */
	ptxvm_texture_desc tdesc;       /* a texture's sampling */
	uint64_t array;
	uint8_t bytes[8];       /* a scalar's value */
	unsigned size;          /* a scalar's size */
	size_t buf_bytes;
	const char *in, *out;
	uint64_t dptr;
} Arg;

static int bad(const char *fmt, const char *what)
{
	fputs("ptxvm run: ", stderr);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
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

/* The rest of a SPEC after strtok_r: in=FILE and out=FILE, in any order. */
static bool parse_files(Arg *a, char **save)
{
	for (char *tok; (tok = strtok_r(NULL, ":", save));) {
		if (!strncmp(tok, "in=", 3) && tok[3] && !a->in)
			a->in = strdup(tok + 3);
		else if (!strncmp(tok, "out=", 4) && tok[4] && !a->out)
			a->out = strdup(tok + 4);
		else
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
		return false;
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
	ok = ok && t >= 0 && (ch == 1 || ch == 2 || ch == 4);
	uint64_t v[3] = { 0, 0, 0 };
	unsigned nv = 0;
	for (char *d = dims, *e; ok && d && *d; d = *e ? e + 1 : e) {
		e = d + strcspn(d, "x");
		char c = *e;
		*e = 0;
		ok = nv < 3 && parse_u64(d, &v[nv]) && v[nv] > 0;
		nv++;
		*e = c;
	}
	ok = ok && nv == ndims[k];
	if (tex) {
		for (char *tok; ok && (tok = strtok_r(NULL, ":", &save));) {
			if (!strncmp(tok, "in=", 3) && tok[3] && !a->in)
				a->in = strdup(tok + 3);
			else
				ok = parse_tex_option(&a->tdesc, tok);
		}
	} else {
		ok = ok && parse_files(a, &save);
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
	a->is_buf = tex ? 3 : 2;
	return true;
}

static bool parse_arg(Arg *a)
{
	const char *s = a->spec, *colon = strchr(s, ':');
	if (!colon)
		return false;
	size_t tn = (size_t)(colon - s);
	const char *v = colon + 1;
	if ((tn >= 6 && !strncmp(s, "surf", 4)) || (tn >= 5 && !strncmp(s, "tex", 3)))
		return parse_image(a, s, tn, v);
	if (tn == 3 && !strncmp(s, "buf", 3)) {
		a->is_buf = 1;
		char *copy = strdup(v), *save = NULL;
		char *tok = strtok_r(copy, ":", &save);
		uint64_t n = 0;
		bool ok = tok && parse_u64(tok, &n) && n > 0 && n <= (1ull << 36);
		a->buf_bytes = (size_t)n;
		ok = ok && parse_files(a, &save);
		free(copy);
		return ok;
	}
	static const struct { const char *name; unsigned size; char kind; } types[] = {
		{ "u8", 1, 'u' }, { "u16", 2, 'u' }, { "u32", 4, 'u' }, { "u64", 8, 'u' },
		{ "s8", 1, 's' }, { "s16", 2, 's' }, { "s32", 4, 's' }, { "s64", 8, 's' },
		{ "f32", 4, 'f' }, { "f64", 8, 'f' },
	};
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		if (strlen(types[i].name) != tn || strncmp(types[i].name, s, tn))
			continue;
		char *e;
		errno = 0;
		a->size = types[i].size;
		if (types[i].kind == 'f') {
			double d = strtod(v, &e);
			if (e == v || *e)
				return false;
			if (a->size == 4) {
				float f = (float)d;
				memcpy(a->bytes, &f, 4);
			} else
				memcpy(a->bytes, &d, 8);
			return true;
		}
		uint64_t u;
		if (types[i].kind == 's') {
			long long x = strtoll(v, &e, 0);
			if (e == v || *e || errno)
				return false;
			unsigned bits = a->size * 8;
			if (bits < 64 && (x < -(1ll << (bits - 1)) || x > (1ll << (bits - 1)) - 1))
				return false;
			u = (uint64_t)x;
		} else {
			if (!parse_u64(v, &u))
				return false;
			if (a->size < 8 && u >> (a->size * 8))
				return false;
		}
		memcpy(a->bytes, &u, a->size);      /* little-endian host */
		return true;
	}
	return false;
}

static int write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n) {
		fprintf(stderr, "ptxvm run: cannot write '%s': %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return 2;
	}
	fclose(f);
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

/* The raw bytes of an in=FILE for an argument of n bytes, into dst (n
 * bytes, zeroed): at most n + 1 bytes are read, whatever the file (a
 * device such as /dev/zero included).  A shorter file leaves the rest
 * zero; of a longer one the first n bytes are taken; both with a warning.
 * False after a message when the file cannot be read. */
static bool read_input(const Arg *a, uint8_t *dst, size_t n)
{
	FILE *f = fopen(a->in, "rb");
	if (!f) {
		fprintf(stderr, "ptxvm run: --arg '%s': cannot open '%s': %s\n", a->spec, a->in, strerror(errno));
		return false;
	}
	errno = 0;
	size_t got = fread(dst, 1, n, f);
	int more = got == n ? fgetc(f) : EOF;
	bool bad = ferror(f);
	int e = errno;
	fclose(f);
	if (bad) {
		fprintf(stderr, "ptxvm run: --arg '%s': cannot read '%s': %s\n", a->spec, a->in, strerror(e));
		return false;
	}
	if (more != EOF)
		fprintf(stderr, "ptxvm run: warning: --arg '%s': '%s' is longer than the argument's %zu bytes; "
			"the rest of it is not used\n", a->spec, a->in, n);
	else if (got < n)
		fprintf(stderr, "ptxvm run: warning: --arg '%s': '%s' has %zu bytes, fewer than the argument's "
			"%zu; the rest is zero\n", a->spec, a->in, got, n);
	return true;
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
	if (is_png(a->in)) {
		unsigned w, rows, bits;
		ok = png_shape(a, &w, &rows, &bits) && image_read_png(a->in, w, rows, a->desc.channels, bits, img) == 0;
	} else {
		ok = read_input(a, img, n);
	}
	if (ok)
		ptxvm_array_write(d, a->array, img, n);
	free(img);
	return ok;
}

static int save_image(const Arg *a, const void *p, size_t n)
{
	if (is_png(a->out)) {
		unsigned w, rows, bits;
		if (!png_shape(a, &w, &rows, &bits) || image_write_png(a->out, w, rows, a->desc.channels, bits, p))
			return 2;
		return 0;
	}
	return write_file(a->out, p, n);
}

/* A usage error: the message, then exit status 2 after cleaning up. */
#define USAGE(...) do { rc = bad(__VA_ARGS__); goto free_args; } while (0)

int cmd_run(int argc, char **argv)
{
	const char *file = NULL, *kname = NULL;
	unsigned grid[3] = { 0 }, block[3] = { 0 };
	bool have_grid = false, have_block = false, stats = false;
	uint64_t shared = 0, workers = 0, fifo_arg = 0;
	double timeout = DEFAULT_TIMEOUT;
	Arg *args = calloc((size_t)argc, sizeof *args);
	int nargs = 0, rc = 0;
	ptxvm_device *d = NULL;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = !strcmp(o, "--grid") || !strcmp(o, "--block") || !strcmp(o, "--kernel") ||
			     !strcmp(o, "--shared") || !strcmp(o, "--arg") || !strcmp(o, "--workers") ||
			     !strcmp(o, "--timeout") || !strcmp(o, "--printf-fifo");
		if (takes && !val)
			USAGE("%s needs a value", o);
		if (!strcmp(o, "--grid")) {
			if (!dims(val, grid))
				USAGE("bad --grid '%s': expected X[,Y[,Z]] of positive numbers", val);
			have_grid = true;
		} else if (!strcmp(o, "--block")) {
			if (!dims(val, block))
				USAGE("bad --block '%s': expected X[,Y[,Z]] of positive numbers", val);
			have_block = true;
		} else if (!strcmp(o, "--kernel")) {
			kname = val;
		} else if (!strcmp(o, "--shared")) {
			if (!parse_u64(val, &shared) || shared > (1u << 30))
				USAGE("bad --shared '%s': expected a byte count", val);
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
			args[nargs].spec = val;
			if (!parse_arg(&args[nargs++]))
				USAGE("bad --arg '%s': expected TYPE:VALUE (u8 u16 u32 u64 s8 s16 s32 s64 f32 "
					   "f64), buf:BYTES[:in=FILE][:out=FILE], KIND:FORMAT:DIMS[:in=FILE][:out=FILE] "
					   "for a surface (KIND surf1d surf2d surf3d surf1dl surf2dl surfcube surfcubel; "
					   "FORMAT e.g. u8x1, f32x4, unorm8x4; DIMS W, WxH or WxHxD) or "
					   "KIND:FORMAT:DIMS[:in=FILE][:filter=linear][:address=wrap|clamp|mirror|border]"
					   "[:normalized][:readmode=float] for a texture (KIND tex1d ... texcubel)", val);
		} else if (!strcmp(o, "--stats")) {
			stats = true;
			continue;
		} else if (o[0] == '-' && o[1]) {
			USAGE("unknown option '%s'", o);
		} else if (!file) {
			file = o;
			continue;
		} else {
			USAGE("more than one input file ('%s')", o);
		}
		i++;
	}
	if (!file)
		USAGE("%s", "no input file");
	if (!have_grid || !have_block)
		USAGE("%s", "--grid and --block are required");

	ptxvm_check_opts co = { 0 };
	int st = 0;
	ptxvm_module *m = load(file, &co, &st);
	if (st) {
		ptxvm_module_free(m);
		rc = st;
		goto free_args;
	}
	ptxvm_device_opts dopts = { .workers = (unsigned)workers, .timeout = timeout,
				    .printf_fifo_bytes = (size_t)fifo_arg };
	d = ptxvm_device_create(&dopts);
	size_t fifo = 0;
	ptxvm_device_get_limit(d, PTXVM_LIMIT_PRINTF_FIFO_SIZE, &fifo);
	ptxvm_program *p = NULL;
	ptxvm_result r = ptxvm_program_load(d, m, &p);
	ptxvm_module_free(m);
	if (r) {
		fprintf(stderr, "ptxvm run: %s\n", ptxvm_device_message(d));
		rc = r == PTXVM_ERROR_NOT_SUPPORTED ? 1 : 3;
		goto out;
	}
	const ptxvm_kernel *k = NULL;
	if (kname) {
		k = ptxvm_kernel_find(p, kname);
		if (!k) {
			rc = bad("no kernel named '%s' in the module", kname);
			goto out;
		}
	} else if (ptxvm_kernel_count(p) == 1) {
		k = ptxvm_kernel_at(p, 0);
	} else {
		fprintf(stderr, "ptxvm run: the module has %zu kernels; name one with --kernel:",
			ptxvm_kernel_count(p));
		for (size_t i = 0; i < ptxvm_kernel_count(p); i++)
			fprintf(stderr, " %s", ptxvm_kernel_name(ptxvm_kernel_at(p, i)));
		fputc('\n', stderr);
		rc = 2;
		goto out;
	}
	size_t np = ptxvm_kernel_param_count(k);
	if ((size_t)nargs != np) {
		fprintf(stderr, "ptxvm run: kernel '%s' takes %zu parameters; %d --arg given\n",
			ptxvm_kernel_name(k), np, nargs);
		rc = 2;
		goto out;
	}
	uint8_t *pbuf = calloc(ptxvm_kernel_params_size(k) + 1, 1);
	for (int i = 0; i < nargs && !rc; i++) {
		ptxvm_param_info pi;
		ptxvm_kernel_param(k, (size_t)i, &pi);
		Arg *a = &args[i];
		if (a->is_buf >= 2) {
			uint64_t sobj;
			bool tex = a->is_buf == 3;
			if (pi.size != 8) {
				fprintf(stderr, "ptxvm run: --arg '%s': parameter %d ('%s', .%s) is not 64 bits wide "
					"and cannot take a %s object\n", a->spec, i, pi.name, pi.type, tex ? "texture" : "surface");
				rc = 2;
				break;
			}
			ptxvm_resource_desc rd = { .type = PTXVM_RESOURCE_ARRAY };
			if (ptxvm_array_create(d, &a->desc, &a->array) ||
			    (tex ? (rd.array = a->array, ptxvm_texture_create(d, &rd, &a->tdesc, &sobj))
				 : ptxvm_surface_create(d, a->array, &sobj))) {
				fprintf(stderr, "ptxvm run: --arg '%s': %s\n", a->spec, ptxvm_device_message(d));
				rc = 2;
				break;
			}
			if (a->in) {
				if (!load_array(d, a)) {
					rc = 2;
					break;
				}
			}
			memcpy(pbuf + pi.offset, &sobj, 8);
		} else if (a->is_buf) {
			if (pi.size != 8) {
				fprintf(stderr, "ptxvm run: --arg '%s': parameter %d ('%s', .%s) is not 64 bits wide "
					"and cannot take a buffer address\n", a->spec, i, pi.name, pi.type);
				rc = 2;
				break;
			}
			if (ptxvm_mem_alloc(d, a->buf_bytes, &a->dptr)) {
				fprintf(stderr, "ptxvm run: %s\n", ptxvm_device_message(d));
				rc = 2;
				break;
			}
			if (a->in) {
				uint8_t *data = calloc(a->buf_bytes, 1);
				if (!data)
					fprintf(stderr, "ptxvm run: --arg '%s': no host memory for %zu bytes\n", a->spec,
						a->buf_bytes);
				if (!data || !read_input(a, data, a->buf_bytes)) {
					free(data);
					rc = 2;
					break;
				}
				ptxvm_memcpy_htod(d, a->dptr, data, a->buf_bytes);
				free(data);
			}
			memcpy(pbuf + pi.offset, &a->dptr, 8);
		} else {
			if (pi.size != a->size) {
				fprintf(stderr, "ptxvm run: --arg '%s' is %u bytes but parameter %d ('%s', .%s) is %zu\n",
					a->spec, a->size, i, pi.name, pi.type, pi.size);
				rc = 2;
				break;
			}
			memcpy(pbuf + pi.offset, a->bytes, a->size);
		}
	}
	if (!rc) {
		ptxvm_launch_config cfg = { { grid[0], grid[1], grid[2] }, { block[0], block[1], block[2] },
					    (size_t)shared };
		ptxvm_launch_stats s = { 0 };
		r = ptxvm_launch_packed(d, k, &cfg, pbuf, ptxvm_kernel_params_size(k), &s);
		if (r == PTXVM_ERROR_INVALID_VALUE) {
			fprintf(stderr, "ptxvm run: %s\n", ptxvm_device_message(d));
			rc = 2;
		} else if (r == PTXVM_ERROR_NOT_SUPPORTED && strstr(ptxvm_device_message(d), ": error: ")) {
			fprintf(stderr, "%s\n", ptxvm_device_message(d));
			rc = 1;
		} else if (r) {
			const char *msg = ptxvm_device_message(d);
			if (!strstr(msg, ptxvm_result_name(r)))
				fprintf(stderr, "ptxvm run: %s: ", ptxvm_result_name(r));
			else
				fprintf(stderr, "ptxvm run: ");
			fprintf(stderr, "%s\n", msg);
			rc = 3;
		}
		if (s.printf_dropped)
			fprintf(stderr, "ptxvm run: warning: %" PRIu64 " device printf call%s dropped: the output "
				"exceeded the %zu-byte printf FIFO\n", s.printf_dropped, s.printf_dropped == 1 ? "" : "s",
				fifo);
		if (stats)
			fprintf(stderr,
				"{\"kernel\": \"%s\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
				"\"workers\": %u, \"thread_instructions\": %" PRIu64 ", \"warp_instructions\": %" PRIu64
				", \"seconds\": %.6f, \"printf_dropped\": %" PRIu64 "}\n",
				ptxvm_kernel_name(k), grid[0], grid[1], grid[2], block[0], block[1], block[2], s.workers,
				s.thread_instructions, s.warp_instructions, s.seconds, s.printf_dropped);
		for (int i = 0; i < nargs && !r; i++) {
			Arg *a = &args[i];
			if (!a->is_buf || !a->out)
				continue;
			if (a->is_buf >= 2) {
				size_t n = ptxvm_array_bytes(d, a->array);
				uint8_t *host = malloc(n ? n : 1);
				ptxvm_array_read(d, a->array, host, n);
				if (save_image(a, host, n))
					rc = 2;
				free(host);
				continue;
			}
			uint8_t *host = malloc(a->buf_bytes);
			ptxvm_memcpy_dtoh(d, host, a->dptr, a->buf_bytes);
			if (write_file(a->out, host, a->buf_bytes))
				rc = 2;
			free(host);
		}
	}
	free(pbuf);
out:
	ptxvm_device_destroy(d);
free_args:
	for (int i = 0; i < nargs; i++) {
		free((char *)args[i].in);
		free((char *)args[i].out);
	}
	free(args);
	return rc;
}
