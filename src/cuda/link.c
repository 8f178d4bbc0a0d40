/* link.c: cuLink*: PTX inputs linked into one module.
 *
 * ptxvm runs PTX, so a link's output is PTX text that cuModuleLoadData
 * takes.  Each input (PTX text; the best PTX entry for the device of a fat
 * binary, of the fat binary a host object of nvcc -c or -dc carries, or of
 * each object of an archive of them) is checked as relocatable code when it is added, as the
 * driver's ptxas does (CUDA_ERROR_INVALID_PTX, the diagnostics in the
 * error log).  cuLinkComplete then does what nvlink does, on the text of
 * the module-scope statements:
 *   - a symbol defined .visible in two inputs is a multiple definition; a
 *     .weak function defined again becomes a prototype of the one kept (the
 *     first, or the .visible one), a .weak variable a declaration of it;
 *   - an .extern function takes the linkage of the definition another
 *     input makes (a prototype), an .extern variable stays a declaration
 *     before its definition and is dropped after it;
 *   - an .extern symbol no input defines is an undefined reference, unless
 *     it is a system call the device provides (vprintf, malloc ...: the
 *     whole-program check of the result decides, as ptxas would) or an
 *     entry point of the device runtime, which ptxvm provides (so that
 *     libcudadevrt.a, an input, adds nothing);
 *   - a symbol without linkage that another input names too is renamed in
 *     its input (NAME$link<input>), as it is private to its input;
 *   - .file numbers are renumbered so that each input keeps its files,
 *     and .loc follows;
 *   - one header: the newest .version, the highest .target.
 * Errors are nvlink's lines in CU_JIT_ERROR_LOG_BUFFER and cuLinkComplete
 * returns CUDA_ERROR_UNKNOWN (999), as the driver does (to confirm on
 * hardware). */
#include "cu.h"
#include "fatbin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CUlink_st *CUlinkState;

enum { CU_JIT_INFO_LOG_BUFFER = 3, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4, CU_JIT_ERROR_LOG_BUFFER = 5,
       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };
enum { CU_JIT_INPUT_CUBIN, CU_JIT_INPUT_PTX, CU_JIT_INPUT_FATBINARY, CU_JIT_INPUT_OBJECT, CU_JIT_INPUT_LIBRARY };

typedef struct Input {
	char *name, *text;
} Input;

typedef struct CuLink {
	CuObj obj;
	Input *in;
	size_t nin;
	char *out;              /* cuLinkComplete's PTX, until cuLinkDestroy */
	char *err, *info;       /* the caller's log buffers (cuLinkCreate's options) */
	size_t errsz, infosz;
	char *log;              /* what the error log holds */
	size_t loglen;
} CuLink;

/* The outputs of live links: cuModuleLoadData loads them as whole
 * programs linked with the device runtime, as the driver's linker output
 * is (cu_link_output). */
static pthread_mutex_t outputs_lock = PTHREAD_MUTEX_INITIALIZER;
static const void **outputs;
static size_t noutputs;

static void output_set(const char *old, const char *now)
{
	pthread_mutex_lock(&outputs_lock);
	size_t i = 0;
	while (old && i < noutputs && outputs[i] != old)
		i++;
	if (old && i < noutputs) {
		if (now)
			outputs[i] = now;
		else
			outputs[i] = outputs[--noutputs];
	} else if (now) {
		const void **g = realloc(outputs, (noutputs + 1) * sizeof *g);
		if (g) {
			outputs = g;
			outputs[noutputs++] = now;
		}
	}
	pthread_mutex_unlock(&outputs_lock);
}

int cu_link_output(const void *image)
{
	pthread_mutex_lock(&outputs_lock);
	size_t i = 0;
	while (i < noutputs && outputs[i] != image)
		i++;
	pthread_mutex_unlock(&outputs_lock);
	return i < noutputs;
}

static void link_drop(void *rec)
{
	CuLink *l = rec;
	if (l->out)
		output_set(l->out, NULL);
	for (size_t i = 0; i < l->nin; i++) {
		free(l->in[i].name);
		free(l->in[i].text);
	}
	free(l->in);
	free(l->out);
	free(l->log);
}

/* Adds a line to the error log (the caller's buffer shows all of it that fits). */
static void log_line(CuLink *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_line(CuLink *l, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	size_t n = strlen(line);
	char *g = realloc(l->log, l->loglen + n + 2);
	if (!g)
		return;
	l->log = g;
	memcpy(l->log + l->loglen, line, n);
	l->loglen += n;
	l->log[l->loglen++] = '\n';
	l->log[l->loglen] = 0;
	if (l->err && l->errsz) {
		size_t sz = l->errsz;
		cu_put_log(l->err, &sz, l->log);
	}
}

static CUresult link_fail(CuLink *l, CUresult r, const char *msg)
{
	cu_warn("cuLink: %.*s", (int)strcspn(msg, "\n"), msg);
	log_line(l, "%s", msg);
	return r;
}

CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, CUlinkState *out)
{
	if (cu_ready())
		return CUDA_ERROR_NOT_INITIALIZED;
	if (!out || (n && (!opts || !vals)))
		return CUDA_ERROR_INVALID_VALUE;
	CuLink *l = calloc(1, sizeof *l);
	if (!l || !cu_obj_add(l, CU_KIND_LINK)) {
		free(l);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	l->obj.drop = link_drop;
	for (unsigned i = 0; i < n; i++)
		switch (opts[i]) {
		case CU_JIT_ERROR_LOG_BUFFER: l->err = vals[i]; break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: l->errsz = (size_t)(uintptr_t)vals[i]; break;
		case CU_JIT_INFO_LOG_BUFFER: l->info = vals[i]; break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: l->infosz = (size_t)(uintptr_t)vals[i]; break;
		default: break;         /* optimisation hints and the like change nothing here */
		}
	if (l->err && l->errsz)
		l->err[0] = 0;
	if (l->info && l->infosz)
		l->info[0] = 0;
	*out = CU_HANDLE(CUlinkState, l);
	return CUDA_SUCCESS;
}

/* Checks PTX text as relocatable code, as the driver's ptxas checks each
 * input, and adds it (it takes ptx). */
static CUresult add_ptx(CuLink *l, const char *name, char *ptx)
{
	ptxvm_check_opts o = { .arch = cu_dev.arch, .compile_only = 1, .newer_versions = 1 };
	ptxvm_module *m = ptxvm_module_load(name, ptx, strlen(ptx), &o);
	if (!m) {
		free(ptx);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (ptxvm_module_errors(m)) {
		char *d = ptxvm_module_diagnostics(m);
		ptxvm_module_free(m);
		free(ptx);
		CUresult r = link_fail(l, CUDA_ERROR_INVALID_PTX, d ? d : "the PTX has errors");
		free(d);
		return r;
	}
	ptxvm_module_free(m);
	Input *in = realloc(l->in, (l->nin + 1) * sizeof *in);
	char *nm = strdup(name);
	if (!in || !nm) {
		if (in)
			l->in = in;
		free(nm);
		free(ptx);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	l->in = in;
	l->in[l->nin++] = (Input){ nm, ptx };
	return CUDA_SUCCESS;
}

/* A fat binary's PTX for the device (len: its size, or unbounded). */
static CUresult add_fatbin(CuLink *l, const char *name, const void *fat, size_t len)
{
	char *ptx = NULL, why[256] = "";
	int r = cuda_fatbin_ptx(fat, len, cu_dev.arch, &ptx, why, sizeof why);
	if (r) {
		char msg[600];
		snprintf(msg, sizeof msg, "%s: %s", name, why);
		return link_fail(l, r, msg);
	}
	return add_ptx(l, name, ptx);
}

/* A host object (nvcc -c or -dc): the PTX of the fat binary it carries. */
static CUresult add_object(CuLink *l, const char *name, const void *obj, size_t len)
{
	const void *fat;
	size_t fatlen;
	char why[256] = "";
	int r = cuda_object_fatbin(obj, len, &fat, &fatlen, why, sizeof why);
	if (r) {
		char msg[600];
		snprintf(msg, sizeof msg, "%s: %s", name, why);
		return link_fail(l, r, msg);
	}
	return add_fatbin(l, name, fat, fatlen);
}

/* An archive of host objects (ar): each member's device code.  Members
 * without any (host code only) are skipped, as nvlink skips them. */
static CUresult add_library(CuLink *l, const char *name, const unsigned char *a, size_t len)
{
	const char *base = strrchr(name, '/');
	if (len < 8 || memcmp(a, "!<arch>\n", 8))
		return link_fail(l, CUDA_ERROR_INVALID_IMAGE, "a library input is not an archive (ar)");
	if (strstr(base ? base + 1 : name, "cudadevrt"))
		return CUDA_SUCCESS;    /* the device runtime: ptxvm provides its entry points itself */
	size_t at = 8, objects = 0;
	while (at + 60 <= len) {
		const unsigned char *h = a + at;
		char sz[11] = "", member[17] = "";
		memcpy(sz, h + 48, 10);
		memcpy(member, h, 16);
		char *end;
		unsigned long long n = strtoull(sz, &end, 10);
		if (end == sz || memcmp(h + 58, "`\n", 2) || n > len - at - 60)
			return link_fail(l, CUDA_ERROR_INVALID_IMAGE, "the archive's member headers are damaged");
		const unsigned char *data = h + 60;
		for (int i = 15; i >= 0 && (member[i] == ' ' || member[i] == '/'); i--)
			member[i] = 0;
		if (member[0] && n >= 64 && !memcmp(data, "\177ELF", 4)) {
			const void *fat;
			size_t fatlen;
			char why[256], full[600];
			snprintf(full, sizeof full, "%s(%s)", name, member);
			if (!cuda_object_fatbin(data, (size_t)n, &fat, &fatlen, why, sizeof why)) {
				CUresult r = add_fatbin(l, full, fat, fatlen);
				if (r)
					return r;
				objects++;
			}
		}
		at += 60 + (size_t)n + (n & 1);
	}
	return objects ? CUDA_SUCCESS : link_fail(l, CUDA_ERROR_NO_BINARY_FOR_GPU, "the archive holds no device code");
}

CUresult cuLinkAddData_v2(CUlinkState h, int type, void *data, size_t size, const char *name, unsigned n, int *opts,
			  void **vals)
{
	CuLink *l = cu_obj_get(h, CU_KIND_LINK);
	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!data || !size)
		return CUDA_ERROR_INVALID_VALUE;
	if (!name || !*name)
		name = "<unnamed>";
	switch (type) {
	case CU_JIT_INPUT_PTX: {
		char *ptx = malloc(size + 1);
		if (!ptx)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(ptx, data, size);
		ptx[size] = 0;
		return add_ptx(l, name, ptx);
	}
	case CU_JIT_INPUT_FATBINARY: return add_fatbin(l, name, data, size);
	case CU_JIT_INPUT_OBJECT: return add_object(l, name, data, size);
	case CU_JIT_INPUT_LIBRARY: return add_library(l, name, data, size);
	default:
		return link_fail(l, CUDA_ERROR_NOT_SUPPORTED, "cubins and LTO IR cannot be linked: ptxvm runs PTX, "
				 "and links PTX, fat binaries with PTX, and host objects and archives that carry them");
	}
}

CUresult cuLinkAddFile_v2(CUlinkState h, int type, const char *path, unsigned n, int *opts, void **vals)
{
	if (!cu_obj_get(h, CU_KIND_LINK))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!path)
		return CUDA_ERROR_INVALID_VALUE;
	char *buf;
	size_t len;
	CUresult rr = cu_read_file(path, &buf, &len);
	if (rr)
		return rr;
	CUresult r = cuLinkAddData_v2(h, type, buf, len, path, n, opts, vals);
	free(buf);
	return r;
}

/* ---- the text: tokens and module-scope statements ------------------------------------ */
enum { T_END, T_WORD, T_NUM, T_STR, T_PUNCT };

typedef struct Tok {
	int kind;
	size_t at, len;
} Tok;

static int word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' || c == '.'; }
static int word_char(char c) { return word_start(c) || (c >= '0' && c <= '9'); }

/* The token at *i (comments and white space skipped). */
static Tok next(const char *s, size_t *i)
{
	for (;;) {
		while (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r')
			(*i)++;
		if (s[*i] == '/' && s[*i + 1] == '/') {
			while (s[*i] && s[*i] != '\n')
				(*i)++;
		} else if (s[*i] == '/' && s[*i + 1] == '*') {
			const char *e = strstr(s + *i + 2, "*/");
			*i = e ? (size_t)(e - s) + 2 : strlen(s);
		} else {
			break;
		}
	}
	Tok t = { T_END, *i, 0 };
	char c = s[*i];
	if (!c)
		return t;
	size_t j = *i + 1;
	if (word_start(c)) {
		t.kind = T_WORD;
		while (word_char(s[j]))
			j++;
	} else if (c >= '0' && c <= '9') {
		t.kind = T_NUM;
		while (word_char(s[j]))
			j++;
	} else if (c == '"') {
		t.kind = T_STR;
		while (s[j] && s[j] != '"' && s[j] != '\n')
			j += s[j] == '\\' && s[j + 1] ? 2 : 1;
		if (s[j] == '"')
			j++;
	} else {
		t.kind = T_PUNCT;
	}
	t.len = j - *i;
	*i = j;
	return t;
}

static int is(const char *s, Tok t, const char *w) { return t.len == strlen(w) && !strncmp(s + t.at, w, t.len); }

enum { K_OTHER, K_FUNC, K_VAR, K_SHARED };
enum { L_NONE, L_EXTERN, L_VISIBLE, L_WEAK, L_COMMON };

typedef struct Sym {
	size_t input;
	int kind, link, def;
	Tok name;
	Tok linktok;            /* the linkage directive (len 0: none) */
	size_t start, end;      /* the statement */
	size_t body, body_end;  /* a function's body {...}; 0 without */
	size_t init;            /* a variable's initializer: where its '=' is; 0 without */
} Sym;

/* One edit of an input's text: [start, end) becomes repl. */
typedef struct Edit {
	size_t start, end;
	char *repl;
} Edit;

typedef struct Linker {
	CuLink *l;
	Sym *sym;
	size_t nsym;
	Edit *edit;
	size_t nedit;
	unsigned version, sm;   /* the newest .version (x10), the highest sm */
	char target[128];
	unsigned *files;        /* per input: its highest .file number */
	int failed, oom;
} Linker;

static void add_edit(Linker *k, size_t input, size_t start, size_t end, const char *repl)
{
	Edit *e = realloc(k->edit, (k->nedit + 1) * sizeof *e);
	char *r = strdup(repl);
	if (!e || !r) {
		free(r);
		k->edit = e ? e : k->edit;
		k->oom = 1;
		return;
	}
	k->edit = e;
	/* the input is kept in the high bits of the offsets: edits sort by input */
	k->edit[k->nedit++] = (Edit){ (input << 40) | start, (input << 40) | end, r };
}

/* The module-scope statements of input n: headers are noted and cut,
 * declarations become symbols. */
static void scan(Linker *k, size_t n)
{
	const char *s = k->l->in[n].text;
	size_t i = 0;
	for (;;) {
		Tok t = next(s, &i);
		if (t.kind == T_END)
			return;
		size_t start = t.at;
		if (is(s, t, ".version") || is(s, t, ".target") || is(s, t, ".address_size") || is(s, t, ".file")) {
			size_t eol = start;
			while (s[eol] && s[eol] != '\n')
				eol++;
			Tok a = next(s, &i);
			if (is(s, t, ".version") && a.kind == T_NUM) {
				unsigned v = (unsigned)(strtod(s + a.at, NULL) * 10 + 0.5);
				if (v > k->version)
					k->version = v;
			} else if (is(s, t, ".target") && a.kind == T_WORD && a.len > 3 && !strncmp(s + a.at, "sm_", 3)) {
				unsigned sm = (unsigned)strtoul(s + a.at + 3, NULL, 10);
				size_t tl = eol - a.at;
				const char *cm = memmem(s + a.at, tl, "//", 2);
				if (cm)
					tl = (size_t)(cm - (s + a.at));
				while (tl && (s[a.at + tl - 1] == ' ' || s[a.at + tl - 1] == '\r' || s[a.at + tl - 1] == '\t'))
					tl--;
				if (sm >= k->sm && tl < sizeof k->target) {
					k->sm = sm;
					memcpy(k->target, s + a.at, tl);
					k->target[tl] = 0;
				}
			} else if (is(s, t, ".file") && a.kind == T_NUM) {
				unsigned f = (unsigned)strtoul(s + a.at, NULL, 10);
				if (f > k->files[n])
					k->files[n] = f;
				i = eol;
				continue;       /* kept, renumbered with .loc (rename) */
			}
			if (!is(s, t, ".file"))
				add_edit(k, n, start, eol, "");
			i = eol;
			continue;
		}
		/* a declaration: directives, a name, then ';', an initializer or a body */
		Sym y = { .input = n, .start = start };
		int eq = 0, seen_kind = 0;
		for (Tok u = t; u.kind != T_END; u = next(s, &i)) {
			if (u.kind == T_PUNCT && s[u.at] == ';') {
				y.end = u.at + 1;
				break;
			}
			if (u.kind == T_PUNCT && s[u.at] == '=' && !eq) {
				eq = 1;
				y.init = u.at;
			}
			if (u.kind == T_PUNCT && (s[u.at] == '{' || (s[u.at] == '(' && !y.name.len && y.kind == K_FUNC))) {
				/* a body, an initializer, or a function's return parameters */
				char open = s[u.at], close = open == '{' ? '}' : ')';
				int depth = 1;
				Tok v;
				while (depth && (v = next(s, &i)).kind != T_END)
					if (v.kind == T_PUNCT)
						depth += s[v.at] == open ? 1 : s[v.at] == close ? -1 : 0;
				if (open == '{' && !eq) {
					y.body = u.at;
					y.body_end = i;
					y.end = i;
					y.def = 1;
					break;
				}
				continue;
			}
			if (u.kind != T_WORD)
				continue;
			if (!seen_kind) {
				if (is(s, u, ".extern") || is(s, u, ".visible") || is(s, u, ".weak") || is(s, u, ".common")) {
					y.link = is(s, u, ".extern") ? L_EXTERN : is(s, u, ".visible") ? L_VISIBLE :
						 is(s, u, ".weak") ? L_WEAK : L_COMMON;
					y.linktok = u;
				} else if (is(s, u, ".func") || is(s, u, ".entry")) {
					y.kind = K_FUNC;
					seen_kind = 1;
				} else if (is(s, u, ".global") || is(s, u, ".const")) {
					y.kind = K_VAR;
					seen_kind = 1;
				} else if (is(s, u, ".shared")) {
					y.kind = K_SHARED;
					seen_kind = 1;
				}
			} else if (!y.name.len && s[u.at] != '.') {
				y.name = u;
			}
		}
		if (!y.end)
			y.end = i;
		if (y.kind == K_VAR || y.kind == K_SHARED)
			y.def = y.link != L_EXTERN;
		if (y.kind == K_OTHER || !y.name.len)
			continue;
		Sym *g = realloc(k->sym, (k->nsym + 1) * sizeof *g);
		if (!g) {
			k->oom = 1;
			return;
		}
		k->sym = g;
		k->sym[k->nsym++] = y;
	}
}

static const char *text(const Linker *k, const Sym *y) { return k->l->in[y->input].text; }
static int same(const Linker *k, const Sym *a, const Sym *b)
{
	return a->name.len == b->name.len && !memcmp(text(k, a) + a->name.at, text(k, b) + b->name.at, a->name.len);
}

static void fail(Linker *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(Linker *k, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	log_line(k->l, "error   : %s", line);
	if (!k->failed)
		cu_warn("cuLinkComplete: %s", line);
	k->failed = 1;
}

/* Resolves the global symbols across the inputs; an .extern function no
 * input defines is left to the whole-program check (*unresolved). */
static void resolve(Linker *k, const Sym ***unresolved, size_t *nun)
{
	for (size_t a = 0; a < k->nsym; a++) {
		Sym *y = &k->sym[a];
		const char *s = text(k, y);
		int nl = (int)y->name.len;
		const char *nm = s + y->name.at;
		const char *in = k->l->in[y->input].name;
		if (y->link == L_NONE) {
			/* private to its input: renamed where another input names it */
			for (size_t b = 0; b < k->nsym; b++) {
				const Sym *o = &k->sym[b];
				if (o->input != y->input && same(k, y, o) && (o->link != L_NONE || o->input < y->input)) {
					char *r = malloc(y->name.len + 32);
					if (!r) {
						k->oom = 1;
						return;
					}
					snprintf(r, y->name.len + 32, "%.*s$link%zu", nl, nm, y->input);
					/* every token of the input that is the name */
					size_t i = 0;
					for (Tok t; (t = next(s, &i)).kind != T_END;)
						if (t.kind == T_WORD && t.len == y->name.len && !memcmp(s + t.at, nm, t.len))
							add_edit(k, y->input, t.at, t.at + t.len, r);
					free(r);
					break;
				}
			}
			continue;
		}
		/* the first definition of the name decides; is this one it? */
		const Sym *def = NULL;
		for (size_t b = 0; b < k->nsym; b++) {
			const Sym *o = &k->sym[b];
			if (o->link == L_NONE || !o->def || !same(k, y, o))
				continue;
			if (!def || (o->link == L_VISIBLE && def->link != L_VISIBLE))
				def = o;
		}
		if (y->kind == K_SHARED) {      /* .extern .shared: dynamic shared memory, one declaration */
			for (size_t b = 0; b < a; b++)
				if (k->sym[b].kind == K_SHARED && k->sym[b].input != y->input && same(k, y, &k->sym[b])) {
					add_edit(k, y->input, y->start, y->end, "");
					break;
				}
			continue;
		}
		if (y->def && def != y) {
			if (y->link == L_VISIBLE && def->link == L_VISIBLE) {
				fail(k, "Multiple definition of '%.*s' in '%s', first defined in '%s'", nl, nm, in,
				     k->l->in[def->input].name);
			} else if (y->kind == K_FUNC) {
				/* a .weak function defined again: a prototype of the one kept */
				add_edit(k, y->input, y->body, y->body_end, ";");
				if (y->linktok.len)
					add_edit(k, y->input, y->linktok.at, y->linktok.at + y->linktok.len,
						 def->link == L_VISIBLE ? ".visible" : ".weak");
			} else if (def->input < y->input) {
				/* a .weak variable defined again: dropped after the one kept */
				add_edit(k, y->input, y->start, y->end, "");
			} else {
				/* ... or, before it, a declaration of it */
				add_edit(k, y->input, y->linktok.at, y->linktok.at + y->linktok.len, ".extern");
				if (y->init)
					add_edit(k, y->input, y->init, y->end - 1, "");
			}
			continue;
		}
		if (y->def || y->link != L_EXTERN)
			continue;
		if (!def) {
			char nm0[256];
			snprintf(nm0, sizeof nm0, "%.*s", nl, nm);
			if (y->kind == K_FUNC && ptxvm_device_runtime_provides(nm0))
				continue;       /* the device runtime's: provided by ptxvm */
			if (y->kind == K_VAR)
				fail(k, "Undefined reference to '%.*s' in '%s'", nl, nm, in);
			else {
				const Sym **u = realloc(*unresolved, (*nun + 1) * sizeof *u);
				if (!u) {
					k->oom = 1;
					return;
				}
				*unresolved = u;
				u[(*nun)++] = y;
			}
		} else if (y->kind == K_FUNC) {
			add_edit(k, y->input, y->linktok.at, y->linktok.at + y->linktok.len,
				 def->link == L_VISIBLE ? ".visible" : ".weak");
		} else if (def->input < y->input) {
			add_edit(k, y->input, y->start, y->end, "");    /* defined above already */
		}
	}
}

/* .file N and .loc N of input n become N + base. */
static void renumber(Linker *k, size_t n, unsigned base)
{
	if (!base)
		return;
	const char *s = k->l->in[n].text;
	size_t i = 0;
	for (Tok t; (t = next(s, &i)).kind != T_END;) {
		if (t.kind != T_WORD || !(is(s, t, ".file") || is(s, t, ".loc")))
			continue;
		Tok f = next(s, &i);
		if (f.kind != T_NUM)
			continue;
		char num[32];
		snprintf(num, sizeof num, "%lu", strtoul(s + f.at, NULL, 10) + base);
		add_edit(k, n, f.at, f.at + f.len, num);
	}
}

static int by_start(const void *a, const void *b)
{
	const Edit *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The linked text: one header, then each input with its edits. */
static char *emit(Linker *k)
{
	qsort(k->edit, k->nedit, sizeof *k->edit, by_start);
	size_t cap = 256;
	for (size_t n = 0; n < k->l->nin; n++)
		cap += strlen(k->l->in[n].text) + strlen(k->l->in[n].name) + 16;
	for (size_t e = 0; e < k->nedit; e++)
		cap += strlen(k->edit[e].repl);
	char *out = malloc(cap);
	if (!out)
		return NULL;
	size_t len = (size_t)snprintf(out, cap, ".version %u.%u\n.target %s\n.address_size 64\n", k->version / 10,
				      k->version % 10, k->sm ? k->target : cu_dev.arch);
	size_t e = 0;
	for (size_t n = 0; n < k->l->nin; n++) {
		const char *s = k->l->in[n].text;
		len += (size_t)snprintf(out + len, cap - len, "\n// ---- %s\n", k->l->in[n].name);
		size_t at = 0, sl = strlen(s);
		for (; e < k->nedit && k->edit[e].start >> 40 == n; e++) {
			size_t st = k->edit[e].start & ((1ull << 40) - 1), en = k->edit[e].end & ((1ull << 40) - 1);
			if (st < at)
				continue;       /* inside an edit already made (a cut statement) */
			memcpy(out + len, s + at, st - at);
			len += st - at;
			size_t rl = strlen(k->edit[e].repl);
			memcpy(out + len, k->edit[e].repl, rl);
			len += rl;
			at = en;
		}
		memcpy(out + len, s + at, sl - at);
		len += sl - at;
	}
	out[len] = 0;
	return out;
}

CUresult cuLinkComplete(CUlinkState h, void **out, size_t *size)
{
	CuLink *l = cu_obj_get(h, CU_KIND_LINK);
	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	if (!out || !size)
		return CUDA_ERROR_INVALID_VALUE;
	if (!l->nin)
		return link_fail(l, CUDA_ERROR_INVALID_VALUE, "nothing was added to the link");
	Linker k = { .l = l, .files = calloc(l->nin, sizeof *k.files) };
	const Sym **unresolved = NULL;
	size_t nun = 0;
	char *ptx = NULL;
	if (!k.files) {
		k.oom = 1;
		goto done;
	}
	for (size_t n = 0; n < l->nin && !k.oom; n++)
		scan(&k, n);
	if (!k.oom)
		resolve(&k, &unresolved, &nun);
	unsigned base = 0;
	for (size_t n = 0; n < l->nin && !k.oom; n++) {
		renumber(&k, n, base);
		base += k.files[n];
	}
	if (k.oom || k.failed)
		goto done;
	ptx = emit(&k);
	if (!ptx) {
		k.oom = 1;
		goto done;
	}
	/* the whole program: system calls resolve, anything else left is undefined */
	ptxvm_check_opts o = { .arch = cu_dev.arch, .device_runtime = 1, .newer_versions = 1 };
	ptxvm_module *m = ptxvm_module_load("linked.ptx", ptx, strlen(ptx), &o);
	if (!m) {
		k.oom = 1;
	} else if (ptxvm_module_errors(m)) {
		char *d = ptxvm_module_diagnostics(m);
		for (size_t u = 0; u < nun; u++) {
			const Sym *y = unresolved[u];
			char q[300];
			snprintf(q, sizeof q, "'%.*s'", (int)y->name.len, text(&k, y) + y->name.at);
			if (d && strstr(d, q))
				fail(&k, "Undefined reference to %s in '%s'", q, l->in[y->input].name);
		}
		if (!k.failed)  /* not a link error: say what the check found */
			fail(&k, "the linked PTX does not check: %s", d ? d : "?");
		free(d);
	}
	ptxvm_module_free(m);
done:
	for (size_t e = 0; e < k.nedit; e++)
		free(k.edit[e].repl);
	free(k.edit);
	free(k.sym);
	free(k.files);
	free(unresolved);
	if (k.oom || k.failed) {
		free(ptx);
		if (k.oom)
			return CUDA_ERROR_OUT_OF_MEMORY;
		return CUDA_ERROR_UNKNOWN;
	}
	output_set(l->out, ptx);
	free(l->out);
	l->out = ptx;
	if (l->info && l->infosz) {
		char line[256];
		size_t sz = l->infosz;
		snprintf(line, sizeof line, "info    : linked %zu input%s into PTX for %s", l->nin, l->nin == 1 ? "" : "s",
			 k.sm ? k.target : cu_dev.arch);
		cu_put_log(l->info, &sz, line);
	}
	*out = l->out;
	*size = strlen(l->out) + 1;
	return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState h)
{
	CuLink *l = cu_obj_get(h, CU_KIND_LINK);
	if (!l)
		return CUDA_ERROR_INVALID_HANDLE;
	link_drop(l);
	cu_obj_free(h, CU_KIND_LINK);
	return CUDA_SUCCESS;
}

CUresult cuLinkCreate(unsigned n, int *opts, void **vals, CUlinkState *out) { return cuLinkCreate_v2(n, opts, vals, out); }
CUresult cuLinkAddData(CUlinkState l, int type, void *data, size_t size, const char *name, unsigned n, int *opts,
		       void **vals)
{
	return cuLinkAddData_v2(l, type, data, size, name, n, opts, vals);
}
CUresult cuLinkAddFile(CUlinkState l, int type, const char *path, unsigned n, int *opts, void **vals)
{
	return cuLinkAddFile_v2(l, type, path, n, opts, vals);
}
