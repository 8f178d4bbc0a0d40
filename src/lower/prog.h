/* prog.h: a checked module lowered for execution.
 *
 * Lowering numbers every register of a function, resolves labels to
 * instruction indices and functions to indices, decodes immediates into
 * read-only constant slots, places variables (global and .const at device
 * addresses, .shared at CTA offsets, .local and call parameters in the
 * thread's frame), and computes each branch's reconvergence point.  The
 * executor reads only this; it never looks at text or names.
 *
 * Values live in slots of 32 lanes x 64 bits.  A slot is addressed by an
 * operand's (kind, index): frame registers, the function's constants, or
 * the warp's special registers.  An instruction of type T reads the low
 * bits of T from a slot; it writes its result extended to 64 bits by T's
 * signedness, so a register wider than T (ld.s8 into .s32) reads right.
 * Predicates are 32-bit lane masks of their own.
 */
#ifndef PTXVM_PROG_H
#define PTXVM_PROG_H

#include "../front/ast.h"

/* The shared memory the driver reserves below a CTA's own (1 KB on sm_80
 * and later, as ptxas compiles %reserved_smem_offset_cap): [0, 1024) of
 * the shared window; .shared variables start above it.  Cooperative
 * groups keep their tile scratch there, at %reserved_smem_offset_1. */
#define XSMEM_RESERVED 1024u
/* %reserved_smem_offset_end and _1, the driver's values (an H200's, driver
 * 580): the part of the reserved bytes it uses ends at 0x120 */
#define XSMEM_OFFSET_END 0x120u
#define XSMEM_OFFSET_1 0u

/* Operand kinds: the first three index the slot bases of a warp. */
enum {
	XK_REG,         /* frame register slot */
	XK_CONST,       /* function constant slot (immediates, addresses) */
	XK_SREG,        /* warp special-register slot */
	XK_PRED,        /* predicate register (mask) */
	XK_NONE,        /* absent or the sink '_' */
};

typedef struct XOpd {
	uint8_t kind;
	uint8_t neg;            /* predicate source written !p */
	uint16_t bytes;         /* register width (0 for constants) */
	uint32_t idx;
} XOpd;                         /* no padding: see XIns */

/* Memory spaces after lowering. */
enum {
	XS_NONE, XS_GLOBAL, XS_SHARED, XS_LOCAL, XS_CONST,
	XS_KPARAM,              /* the kernel's parameter buffer (read-only) */
	XS_FRAME,               /* local memory relative to the frame base:
				   function .local variables and .param */
	XS_GENERIC,
};

/* Extra operations that lowering inserts. */
enum {
	XOP_RDSREG = OPC__COUNT,  /* d = a dynamic special register (sub: X_SR_*) */
	XOP_FRAMEADDR,            /* d = local address of frame offset imm */
	XOP_NOP,                  /* directives kept for positions; does nothing */
	XOP__COUNT
};
enum { X_SR_CLOCK, X_SR_CLOCK64, X_SR_GTIMER, X_SR_GTIMER_LO, X_SR_GTIMER_HI };

/* tex and tld4 operands, in a fixed layout (XK_NONE where absent): the
 * results, the residency predicate, the texture and sampler handles, the
 * coordinates (an array's layer first), the level, the gradients, the
 * offsets and the depth compare value.  sub: the geometry (MOD_g1d ...);
 * sub2: tex's mipmap mode (MOD_base, MOD_level, MOD_grad or MOD_NONE),
 * tld4's component (MOD_r ...); irnd: the module is in independent
 * texture mode (txq too). */
enum {
	TXO_D = 0, TXO_P = 4, TXO_T, TXO_S, TXO_C, TXO_LOD = TXO_C + 4, TXO_DX, TXO_DY = TXO_DX + 4,
	TXO_OFF = TXO_DY + 4, TXO_DEPTH = TXO_OFF + 4, TXO__COUNT
};

/* cp.async.bulk.tensor, cp.reduce.async.bulk.tensor and
 * cp.async.bulk.prefetch.tensor (sub MOD_tensor) operands, in a fixed
 * layout (XK_NONE where absent): the shared address (destination of a
 * load, source of a store), the tensor map's generic address, the
 * mbarrier, the ctaMask of .multicast::cluster, then vec coordinates and
 * the vec-2 im2col offsets.  sub2: MOD_shared_cluster (a load),
 * MOD_global (a store), MOD_reduce, MOD_prefetch; target: the reduction
 * (MOD_add ...); irnd: im2col offsets follow; ty2: the map is an im2col one. */
enum { TNO_SMEM, TNO_MAP, TNO_MBAR, TNO_MASK, TNO_C, TNO__FIXED = TNO_C };
/* cp.async.bulk (sub MOD_bulk; sub2 the source's XS_ space) and
 * cp.reduce.async.bulk (sub MOD_reduce; sub2 the reduction, MOD_add ...):
 * irnd is .multicast::cluster (the ctaMask follows the mbarrier). */

/* Instruction flags. */
enum {
	XF_FTZ = 1, XF_SAT = 2, XF_CC = 4, XF_NAN = 8, XF_UNI = 16, XF_APPROX = 32,
	XF_RELU = 64, XF_XORSIGN = 128, XF_FULL = 256, XF_SATFINITE = 512,
	/* memory-model qualifiers of ld/st: single-copy atomic, and ordered */
	XF_MMATOMIC = 1024, XF_ACQUIRE = 2048, XF_RELEASE = 4096,
	XF_OOB = 8192,           /* fma.oob */
	XF_L2HINT = 16384,       /* .L2::cache_hint: the last operand is a cache policy */
};

typedef struct XIns {
	uint16_t op;            /* OPC_* or XOP_* */
	uint8_t ty, ty2, ty3;   /* the instruction's type slots 0, 1 and 2 */
	uint8_t sp;             /* XS_* for memory instructions */
	uint8_t rnd;            /* FP_RN, FP_RZ, FP_RM, FP_RP */
	uint8_t irnd;           /* the rounding is to an integer (.rni ...); mad.f32:
				   an sm_1x target's, without a rounding modifier */
	uint16_t flags;         /* XF_* */
	uint16_t sub, sub2;     /* a modifier that selects the operation (MOD_*) */
	uint8_t vec;            /* vector width of a memory access (1 = scalar) */
	uint8_t n;              /* operands */
	int32_t guard;          /* predicate index, -1 when unguarded */
	uint8_t gneg;           /* @!p */
	uint8_t bits, sg;       /* ty's width in bits (64 past the table) and signedness, for
				   the executor's lane loops */
	uint8_t spare;          /* zero */
	uint32_t target;        /* branch target, barrier id; call: the function
				   (irnd 1, direct) or the XSig (indirect) */
	uint32_t line;          /* PTX line */
	int64_t imm;            /* memory offset; video: selectors (lower.c, video_fields) */
	XOpd *o;
	const Instr *src;       /* for reports */
} XIns;
/* XIns and XOpd have no padding: every byte is a field that initialisers
 * zero, so the compiling tier can compare its copies of a program's
 * instructions byte for byte (src/jit/jit.c, same_code), whatever the
 * compiler leaves in padding. */
_Static_assert(sizeof(XOpd) == 8, "XOpd has padding");
_Static_assert(sizeof(XIns) == 56, "XIns has padding");

/* A formal parameter or return value of a function (or of a prototype,
 * without a place). */
typedef struct XParam {
	uint8_t is_reg;         /* .reg: a register slot; else .param in the frame */
	uint8_t is_pred;        /* .reg .pred: the checker refuses it in a call */
	uint32_t slot;          /* register slot */
	uint64_t off;           /* frame offset for .param */
	uint64_t bytes;         /* size: the register's, or the .param's */
} XParam;

/* What an indirect call may reach: a .callprototype's formals, or a
 * .calltargets list of functions. */
typedef struct XSig {
	const char *name;       /* the label */
	XParam *rets, *params;
	uint32_t nrets, nparams;
	uint32_t *fns;          /* .calltargets: function indices; NULL for a prototype */
	uint32_t nfns;
} XSig;

/* Where an instruction came from in the source the PTX was compiled from
 * (.loc and .file, as nvcc -lineinfo and -G write them); file 0: none. */
typedef struct XLoc {
	uint32_t file;          /* index into Prog.files, 1-based; 0: no .loc */
	uint32_t line;
} XLoc;

typedef struct XFunc {
	const char *name;
	const Func *ast;
	uint8_t entry;
	XIns *code;
	uint32_t ncode;         /* ncode is the function's exit point */
	uint8_t *shape;         /* per instruction: its shape (shape.h), XSH_NONE for the rest */
	uint32_t *rpc;          /* per instruction: where a divergent branch reconverges */
	uint32_t nslots, npreds;
	/* the slots a new frame must hold zeroed, as runs (first, count): those
	 * some lane may read before it writes them (compute_zero) */
	uint32_t *zero;
	uint32_t nzero;
	uint64_t *konst;        /* nconst * 32 lanes, read-only */
	uint32_t nconst;
	uint64_t frame_bytes;   /* local memory of one activation */
	uint64_t shared_static; /* a kernel's shared window: the reserved bytes, then the static
				   .shared it reaches (lower.c, place_shared) */
	uint64_t shared_dyn;    /* where its dynamic shared memory starts: there, or above it where
				   it reaches the .extern .shared arrays */
	XParam *params, *rets;
	uint32_t nparams, nrets;
	/* kernels: the parameter buffer */
	uint32_t param_bytes;
	struct XKParam *kparams;
	/* indirect-branch tables (brx.idx): targets[tab .. tab+n) */
	uint32_t *targets;
	uint32_t ntargets;
	XLoc *loc;              /* per instruction when the PTX carries line info, else NULL */
	uint8_t lowered;        /* its code has been lowered */
	uint8_t alone;          /* none of its instructions lets a CTA wait for another: no
				   atom, red, sured, memory-model ld or st, or call (cta.c
				   deals such a kernel's CTAs in turns) */
	char *why;              /* why it cannot be lowered ("file:line:col: error: ..."),
				   malloc'd; NULL when it was */
} XFunc;

typedef struct XKParam {
	const char *name;
	const char *type;
	uint32_t off, bytes, align;
	uint8_t is_ptr;
} XKParam;

#define PROG_CTA_SREGS 10       /* %ctaid and %clusterid, each whole and .x .y .z .w */

/* Special registers that are fixed for a warp's lifetime: the warp keeps
 * one slot for each that the program reads. */
typedef struct XSreg {
	uint16_t sreg;          /* SREG_* */
	uint8_t comp;           /* 0 or 1..4 for .x .y .z .w */
} XSreg;

typedef struct XVar {
	const Decl *d;
	const char *name;
	uint8_t sp;             /* XS_GLOBAL or XS_CONST */
	uint64_t addr;          /* device address (for .const: of the bank byte) */
	uint64_t bytes;
} XVar;

struct DevMem;

typedef struct Prog {
	Arena arena;
	const char *file;
	XFunc *fn;
	uint32_t nfn;
	XSreg *sregs;
	uint32_t nsregs;
	uint32_t *cta_sregs;    /* the slots of those that name the CTA (%ctaid,
				   %clusterid): what a warp's start in another CTA rewrites;
				   at most PROG_CTA_SREGS, each (sreg, comp) once */
	uint32_t ncta_sregs;
	uint64_t shared_bytes;  /* the reserved window, then the static .shared of every kernel */
	uint32_t shared_align;
	uint8_t dyn_shared;     /* the module declares an .extern .shared array */
	uint64_t const_base;    /* device address of the .const bank */
	uint64_t const_bytes;
	uint64_t global_base;   /* device allocation of the .global variables */
	XVar *vars;
	uint32_t nvars;
	XSig *sigs;             /* of the indirect calls: XIns.target */
	uint32_t nsigs;
	char *error;            /* lowering failure (not executable), malloc'd */
	const char **files;     /* .file names by number (NULL where not declared) */
	uint32_t nfiles;
} Prog;

/* Lowers a valid module onto a device: allocates its variables in mem and
 * writes their initializers.  Returns NULL with *err set (malloc'd) when
 * the module uses something ptxvm cannot execute (*code 0), or device
 * memory runs out (*code PTXVM_ERROR_OUT_OF_MEMORY). */
Prog *prog_lower(const Module *m, struct DevMem *mem, char **err, int *code);
void prog_free(Prog *p, struct DevMem *mem);
/* Function index by name, or -1. */
int prog_find(const Prog *p, const char *name);
/* The slots live at each instruction of kernel f (read on some path from
 * it before they are written): n + 1 rows of *words 64-bit words, bit s of
 * row i slot s before instruction i, row n the exit (malloc'd); NULL where
 * f is not a kernel, is too large, or host memory is out. */
uint64_t *prog_live(const XFunc *f, uint32_t *words);
/* The source file and line of instruction pc of f, or NULL. */
const char *prog_source(const Prog *p, const XFunc *f, uint32_t pc, uint32_t *line);

#endif
