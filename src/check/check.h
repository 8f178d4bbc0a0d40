/* check.h: the semantic checker, which judges a module as ptxas does. */
#ifndef PTXVM_CHECK_H
#define PTXVM_CHECK_H

#include "../front/ast.h"

typedef struct CheckOpts {
	unsigned arch;          /* the device's sm number (default 90): a module
				   whose .target is newer cannot run on it */
	char arch_suffix;       /* 'a' for sm_90a etc. */
	bool newer_versions;    /* PTX ISA 9.1 and 9.2 too (ptxvm_check_opts) */
	bool compile_only;      /* relocatable code (ptxas --compile-only):
				   functions and .unified symbols defined
				   elsewhere are valid */
	bool (*provided)(const char *name);     /* functions the device provides
				   beyond the system calls, so that a whole
				   program may call them undefined (the
				   device runtime, once linked); or NULL */
} CheckOpts;

/* Checks m, recording diagnostics in m->diags and filling the resolved
 * fields of the AST.  Returns the number of errors (0 = valid). */
size_t ptx_check(Module *m, const CheckOpts *opt);

/* The space of the k-th memory operand of an instruction: the k-th state
 * space its modifiers name, else the space the instruction implies
 * (ldmatrix, st.async: .shared), else SP_NONE (generic). */
int ptx_mem_space(const Instr *in, int k);

/* Parse "sm_90", "sm_90a"; returns false if it is not a known target. */
bool ptx_target_lookup(const char *name, size_t n, unsigned *sm, char *suffix, unsigned *min_ptx);

#endif
