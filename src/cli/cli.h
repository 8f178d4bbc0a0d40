/* cli.h: what the command-line files share. */
#ifndef PTXVM_CLI_H
#define PTXVM_CLI_H

#include "../../include/ptxvm.h"
#include <stdint.h>

extern const char usage[];

/* A whole file ('-' = stdin); NULL after reporting why. */
char *slurp(const char *path, size_t *len);
/* Loads and checks a module, printing diagnostics; *status becomes 1 for
 * invalid PTX, 2 for an unreadable file or unknown target. */
ptxvm_module *load(const char *path, const ptxvm_check_opts *o, int *status);

int cmd_run(int argc, char **argv);
int cmd_builtins(int argc, char **argv);

/* PNG images for surface arguments (png.c): rows x w samples of `channels`
 * channels of `bits` (8 or 16) bits, little-endian in memory.  0, or -1
 * after a message on stderr. */
int image_read_png(const char *path, unsigned w, unsigned rows, unsigned channels, unsigned bits, uint8_t *dst);
int image_write_png(const char *path, unsigned w, unsigned rows, unsigned channels, unsigned bits,
		    const uint8_t *src);
int cmd_sass(int argc, char **argv);

/* The C++ name of an Itanium-mangled name ("_Z5scaleIfEvPT_S0_i" gives
 * "void scale<float>(float*, float, int)"); NULL when it is not one
 * (demangle.c).  The caller frees. */
char *demangle(const char *mangled);

#endif
