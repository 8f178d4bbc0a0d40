/* ast.h: a PTX module as the parser reads it.
 *
 * The front end records what the text says, with positions; the checker
 * decides what is valid and fills in the resolved fields (marked "check:").
 * All nodes live in the module's arena.
 */
#ifndef PTXVM_AST_H
#define PTXVM_AST_H

#include "../util/util.h"
#include "../isa/isa.h"

typedef struct Str {
	const char *p;
	uint32_t n;
} Str;

/* State spaces. */
typedef enum {
	SP_NONE, SP_REG, SP_SREG, SP_CONST, SP_GLOBAL, SP_LOCAL, SP_PARAM,
	SP_SHARED, SP_TEX, SP__COUNT
} Space;
extern const char *const space_name[SP__COUNT];

/* Linkage and other declaration flags. */
enum {
	L_VISIBLE = 1, L_EXTERN = 2, L_WEAK = 4, L_COMMON = 8,
};

/* ---- initializers ------------------------------------------------------- */
typedef enum {
	IN_INT,         /* integer constant (folded) */
	IN_FLOAT,       /* floating literal */
	IN_SYM,         /* var, var+off, generic(var)+off */
	IN_MASK,        /* 0xFF00(expr): sub = the expression (IN_INT or IN_SYM) */
	IN_LIST,        /* { ... } */
	IN_FIELDS,      /* { name = value, ... } for opaque types */
} InitKind;

typedef struct Init Init;
struct Init {
	InitKind kind;
	Pos pos;
	uint8_t generic;        /* IN_SYM: generic(var) */
	uint8_t fkind;          /* IN_FLOAT: 0 decimal, 'f' 0f, 'd' 0d */
	uint8_t is_unsigned;    /* IN_INT: 'U' suffix or too big for s64 */
	uint64_t ival;          /* IN_INT value, IN_FLOAT bits (f64 for decimal), IN_MASK mask */
	double fval;            /* IN_FLOAT decimal value */
	Str name;               /* IN_SYM symbol; IN_FIELDS: field name (per item) */
	int64_t off;            /* IN_SYM offset */
	Init *sub;              /* IN_MASK operand; IN_FIELDS item value */
	Init *items;            /* IN_LIST / IN_FIELDS: array of n */
	uint32_t n;
	Str word;               /* IN_FIELDS value that is a word (nearest, wrap, ...) */
};

/* ---- declarations ------------------------------------------------------- */
typedef struct Decl {
	Pos pos;
	Str name;
	uint8_t space;          /* Space */
	uint8_t type;           /* TY_* incl. opaque */
	uint8_t vec;            /* 0, 2, 4, 8 */
	uint8_t linkage;        /* L_* */
	uint8_t managed;        /* .attribute(.managed) */
	uint8_t unified;        /* .attribute(.unified(a,b)) */
	uint8_t ptr;            /* .param .u64 .ptr ... */
	uint8_t ptr_space;      /* .ptr .global: the pointed-to space (SP_*) */
	uint8_t ptr_opaque;     /* .ptr .texref etc.: TY_* */
	uint32_t align;         /* .align N (0 = default) */
	uint32_t ptr_align;     /* .ptr .align N */
	uint64_t uuid[2];
	int64_t range;          /* %r<N>: N, else -1 */
	uint8_t ndim;
	uint8_t dim_omitted;    /* first dimension written as [] */
	uint64_t dim[4];        /* extents (dim[0] = 0 when omitted) */
	Pos attr_pos;           /* where .attribute or .ptr was written */
	Init *init;
	uint8_t has_init;
	uint8_t nvec;           /* how many .vN qualifiers were written */
	uint8_t vec_after_type; /* .vN written after the type */
	uint8_t seen;           /* check: declared so far, in module order */
} Decl;

/* ---- operands ----------------------------------------------------------- */
typedef enum {
	OK_SYM,         /* a name: register, variable, label, function, sreg */
	OK_INT,         /* integer immediate */
	OK_FLOAT,       /* floating immediate */
	OK_VEC,         /* { a, b, ... } */
	OK_MEM,         /* [ a ], [ a + off ], [ a, b, ... ] */
	OK_LIST,        /* ( a, b, ... ) call arguments */
	OK_PIPE,        /* a | b */
	OK_SINK,        /* _ */
} OpndKind;

typedef struct Opnd Opnd;
struct Opnd {
	uint8_t kind;           /* OpndKind */
	uint8_t neg;            /* !p */
	uint8_t fkind;          /* OK_FLOAT: 0 decimal, 'f', 'd' */
	uint8_t is_unsigned;    /* OK_INT */
	uint8_t comp;           /* OK_SYM: component .x .y .z .w = 1..4, 0 none */
	uint8_t minus;          /* OK_SYM: -reg (vmad's negated sources) */
	uint8_t selk;           /* OK_SYM: video selector .b... or .h...: 'b', 'h'; 0 none */
	uint8_t seln;           /* its number of digits (9: more than 8) */
	uint32_t seld;          /* its digits as written, one per hex nibble (.b3210: 0x3210) */
	uint8_t has_off;        /* OK_MEM, OK_SYM: an offset was written */
	Pos pos;
	Str name;               /* OK_SYM */
	uint64_t ival;          /* OK_INT value; OK_FLOAT bits */
	double fval;            /* OK_FLOAT decimal */
	int64_t off;            /* OK_MEM: offset applied to elems[0]; OK_SYM: var+off */
	Opnd *elems;            /* OK_VEC, OK_MEM, OK_LIST, OK_PIPE */
	uint32_t n;
	/* check: what a name resolved to */
	uint8_t res;            /* R_* */
	void *ref;              /* Decl*, struct Func*, or label index */
	int32_t regidx;         /* for %r<N> ranges: the N, else -1 */
};

enum { R_NONE, R_REG, R_VAR, R_SREG, R_LABEL, R_FUNC, R_PARAM };

/* ---- statements --------------------------------------------------------- */
#define MAXMODS 16

typedef struct Instr {
	Pos pos;
	uint16_t opc;
	uint16_t form;          /* check: index into isa_form, or 0xffff */
	uint8_t nmods, nopnd;
	uint16_t mods[MAXMODS];
	Pos modpos[MAXMODS];
	Opnd *guard;            /* @p / @!p, or NULL */
	Opnd *opnd;
} Instr;

typedef enum {
	ST_INSTR, ST_LABEL, ST_DECL, ST_OPEN, ST_CLOSE,
	ST_LOC,                 /* .loc: text kept verbatim */
	ST_PRAGMA,              /* .pragma "..."; */
	ST_TARGETS,             /* label: .branchtargets / .calltargets list */
	ST_PROTO,               /* label: .callprototype ... */
} StmtKind;

struct Func;
typedef struct Stmt {
	uint8_t kind;
	Pos pos;
	Str name;               /* ST_LABEL, ST_TARGETS, ST_PROTO */
	Str text;               /* ST_LOC, ST_PRAGMA: the rest of the directive */
	uint8_t tkind;          /* ST_TARGETS: 'b' branchtargets, 'c' calltargets */
	Opnd *list;             /* ST_TARGETS names */
	uint32_t nlist;
	Instr *in;
	Decl *decl;
	struct Func *proto;
} Stmt;

/* ---- functions ---------------------------------------------------------- */
typedef struct PerfDir {
	uint8_t kind;           /* PD_* */
	uint8_t n;
	uint32_t v[3];
	Str text;               /* PD_PRAGMA string */
	Pos pos;
} PerfDir;

enum {
	PD_MAXNTID, PD_REQNTID, PD_MINNCTAPERSM, PD_MAXNCTAPERSM, PD_MAXNREG,
	PD_PRAGMA, PD_NORETURN, PD_REQNCTAPERCLUSTER, PD_EXPLICITCLUSTER,
	PD_MAXCLUSTERRANK, PD_BLOCKSARECLUSTERS, PD__COUNT
};
extern const char *const perf_name[PD__COUNT];

typedef struct Func {
	Pos pos;
	Str name;
	uint8_t entry;          /* .entry, else .func */
	uint8_t linkage;
	uint8_t proto;          /* a .callprototype */
	uint8_t has_body;
	uint8_t unified, managed;       /* .attribute(...) */
	uint64_t uuid[2];
	Decl *rets, *params;
	uint32_t nrets, nparams;
	uint8_t has_rets;       /* "( ... )" before the name was written */
	PerfDir *perf;
	uint32_t nperf;
	Stmt *body;
	uint32_t nbody;
	/* check: */
	uint8_t abi_used;       /* called, or its address taken, by an instruction */
	uint32_t mark;          /* visited by the walk of the entry being measured */
} Func;

/* ---- module ------------------------------------------------------------- */
typedef enum { TOP_DECL, TOP_FUNC, TOP_FILE, TOP_SECTION, TOP_ALIAS } TopKind;

typedef struct Top {
	uint8_t kind;
	Pos pos;
	Decl *decl;
	Func *func;
	uint32_t fileno;        /* TOP_FILE */
	Str text;               /* TOP_FILE: the rest after the number; TOP_SECTION: whole text; TOP_ALIAS */
} Top;

typedef struct Target {
	Str name;
	Pos pos;
} Target;

typedef struct Module {
	Arena arena;
	Diags diags;
	const char *filename;
	const char *src;
	size_t srclen;

	uint8_t has_version;
	uint8_t ver_major, ver_minor;
	Pos ver_pos;
	Target *targets;
	uint32_t ntargets;
	Pos target_pos;
	uint8_t has_asize;
	uint32_t address_size;  /* 64 when not given */
	Pos asize_pos;
	/* the order of the header directives: the number of module items
	 * (directives, declarations, functions) seen before each */
	uint32_t ver_seq, target_seq, asize_seq;
	uint8_t has_debug_sections;

	Top *top;
	uint32_t ntop;

	/* check: derived */
	uint32_t sm;            /* target sm number */
	uint8_t sm_suffix;      /* 'a' or 'f' for sm_90a etc., else 0 */
	uint8_t texmode_independent;
	uint8_t debug, map_f64;
	uint32_t ptx;           /* major*10+minor */
} Module;

#endif
