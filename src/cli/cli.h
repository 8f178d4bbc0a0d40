/* cli.h: what the command-line files share. */
#ifndef PTXVM_CLI_H
#define PTXVM_CLI_H

#include "../../include/ptxvm.h"

extern const char usage[];

/* A whole file ('-' = stdin); NULL after reporting why. */
char *slurp(const char *path, size_t *len);
/* Loads and checks a module, printing diagnostics; *status becomes 1 for
 * invalid PTX, 2 for an unreadable file or unknown target. */
ptxvm_module *load(const char *path, const ptxvm_check_opts *o, int *status);

int cmd_run(int argc, char **argv);
int cmd_sass(int argc, char **argv);

#endif
