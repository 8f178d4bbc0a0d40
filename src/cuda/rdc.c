/* rdc.c: the PTX of a program built with relocatable device code.
 *
 * With nvcc -rdc=true (separate compilation, dynamic parallelism), the
 * runtime registers nvlink's linked image, which holds SASS only; each
 * object's own fat binary, with its PTX, is in the __nv_relfatbin section
 * of the executable or shared library that carries the image.  When an
 * image has no PTX for the device, the loaded ELF file that holds it is
 * found (dl_iterate_phdr), its __nv_relfatbin section read from memory
 * (located by the file's section headers), and its fat binaries linked as
 * cuLink* links them (link.c).  A fat binary without PTX for the device is
 * left out: libcudadevrt's, whose entry points ptxvm provides itself; any
 * other leaves undefined references, which the link reports. */
#include "cu.h"
#include "fatbin.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* link.c's entry points (api.c declares them for the export list only) */
typedef struct CUlink_st *CUlinkState;
CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, CUlinkState *out);
CUresult cuLinkAddData_v2(CUlinkState h, int type, void *data, size_t size, const char *name, unsigned n, int *opts,
			  void **vals);
CUresult cuLinkComplete(CUlinkState h, void **out, size_t *size);
CUresult cuLinkDestroy(CUlinkState h);

typedef struct Find {
	uintptr_t addr;
	char path[4096];
	uintptr_t base;
	int found;
} Find;

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	Find *f = arg;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr - lo < ph->p_memsz) {
			snprintf(f->path, sizeof f->path, "%s", info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe");
			f->base = info->dlpi_addr;
			f->found = 1;
			return 1;
		}
	}
	return 0;
}

/* n bytes of the file f at offset off into a new buffer; NULL: cannot. */
static void *read_at(FILE *f, uint64_t off, uint64_t n)
{
	void *b = n && n < (1u << 30) ? malloc(n) : NULL;
	if (b && (fseeko(f, (off_t)off, SEEK_SET) || fread(b, 1, n, f) != n)) {
		free(b);
		b = NULL;
	}
	return b;
}

/* The __nv_relfatbin section of the object at path, loaded at base: its
 * address in memory and size; 0 when there is none.  Only the file's
 * headers are read: the section itself is in memory. */
static int relfatbin(const char *path, uintptr_t base, const unsigned char **at, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	ElfW(Ehdr) eh;
	ElfW(Shdr) *sh = NULL;
	char *names = NULL;
	int ok = 0;
	if (fread(&eh, sizeof eh, 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(ElfW(Shdr)) && eh.e_shnum &&
	    eh.e_shstrndx < eh.e_shnum && (sh = read_at(f, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof *sh)) &&
	    (names = read_at(f, sh[eh.e_shstrndx].sh_offset, sh[eh.e_shstrndx].sh_size))) {
		uint64_t nsz = sh[eh.e_shstrndx].sh_size;
		for (unsigned i = 0; i < eh.e_shnum && !ok; i++)
			if (sh[i].sh_name < nsz && nsz - sh[i].sh_name > 14 && !memcmp(names + sh[i].sh_name, "__nv_relfatbin", 15) &&
			    (sh[i].sh_flags & SHF_ALLOC) && sh[i].sh_addr) {
				*at = (const unsigned char *)(base + sh[i].sh_addr);
				*len = sh[i].sh_size;
				ok = 1;
			}
	}
	free(names);
	free(sh);
	fclose(f);
	return ok;
}

int cu_rdc_ptx(const void *image, char **ptx_out, char *why, size_t whylen)
{
	Find f = { .addr = (uintptr_t)image };
	const unsigned char *sec;
	size_t len;
	dl_iterate_phdr(find_object, &f);
	if (!f.found || !relfatbin(f.path, f.base, &sec, &len))
		return CUDA_ERROR_NOT_FOUND;
	char log[4096] = "";
	int opts[] = { 5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* ..._SIZE_BYTES */ };
	void *vals[] = { log, (void *)(uintptr_t)sizeof log };
	CUlinkState l;
	CUresult r = cuLinkCreate_v2(2, opts, vals, &l);
	if (r)
		return r;
	size_t used = 0, left = 0;
	/* the fat binaries one after another, each 8-byte aligned: magic,
	 * version, header size (16 bits each but the magic), size (64 bits) */
	for (size_t at = 0; !r && at + 16 <= len; at = (at + 7) & ~(size_t)7) {
		uint32_t magic;
		uint16_t hs;
		uint64_t fs;
		memcpy(&magic, sec + at, 4);
		memcpy(&hs, sec + at + 6, 2);
		memcpy(&fs, sec + at + 8, 8);
		if (!magic) {           /* padding between them */
			at += 8;
			continue;
		}
		if (magic != 0xBA55ED50u || hs < 16 || hs > len - at || fs > len - at - hs) {
			snprintf(why, whylen, "%s: __nv_relfatbin is damaged at offset %zu", f.path, at);
			r = CUDA_ERROR_INVALID_IMAGE;
			break;
		}
		char *p = NULL, w[256], name[64];
		if (cuda_fatbin_ptx(sec + at, hs + fs, cu_dev.arch, &p, w, sizeof w) == CUDA_ERROR_NO_BINARY_FOR_GPU) {
			left++;         /* libcudadevrt's (SASS, PTX for a newer target) or SASS only */
		} else {
			snprintf(name, sizeof name, "relocatable fat binary %zu", used + left);
			r = cuLinkAddData_v2(l, 2 /* CU_JIT_INPUT_FATBINARY */, (void *)(sec + at), hs + fs, name, 0, NULL, NULL);
			used++;
		}
		free(p);
		at += hs + fs;
	}
	void *out;
	size_t outlen;
	if (!r && !used) {
		snprintf(why, whylen, "%s: no relocatable fat binary in __nv_relfatbin has PTX for %s", f.path, cu_dev.arch);
		r = CUDA_ERROR_NO_BINARY_FOR_GPU;
	} else if (!r && (r = cuLinkComplete(l, &out, &outlen)) == 0) {
		*ptx_out = strdup(out);
		if (!*ptx_out)
			r = CUDA_ERROR_OUT_OF_MEMORY;
	} else if (r == CUDA_ERROR_UNKNOWN) {
		/* a link error: for the runtime, no image the device can run
		 * where inputs were left out (they lack PTX), else a failed JIT */
		r = left ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_PTX;
	}
	if (r && log[0])
		snprintf(why, whylen, "%s: linking the relocatable device code (__nv_relfatbin, %zu with PTX for %s, %zu "
			 "without, left out): %.*s", f.path, used, cu_dev.arch, left, (int)strcspn(log, "\n"), log);
	cuLinkDestroy(l);
	return r;
}
