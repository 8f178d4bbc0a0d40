/* isa.h: the PTX instruction set as data.
 *
 * The tables (types.def, mods.def, groups.def, ops.def, sregs.def) are
 * included here with different macro definitions to make the enums, and in
 * isa.c to make the descriptors.  isa_init() compiles the form strings of
 * ops.def into IsaForm records once; after that all of this is read-only.
 */
#ifndef PTXVM_ISA_H
#define PTXVM_ISA_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- types -------------------------------------------------------------- */
enum {
#define T(name, bytes, kind) TY_##name,
#include "types.def"
#undef T
	TY__COUNT,
	/* The opaque types are not fundamental types: they name no register
	 * type and no modifier, so they live past the end. */
	TY_texref = TY__COUNT, TY_samplerref, TY_surfref,
	TY__ALL
};

enum { TK_B = 'B', TK_U = 'U', TK_S = 'S', TK_F = 'F', TK_P = 'P', TK_O = 'O' };

typedef struct IsaType {
	const char *name;
	uint8_t bytes;
	char kind;              /* TK_* */
} IsaType;
extern const IsaType isa_type[TY__ALL];

/* ---- modifiers: the types first, so that a type's modifier id is its type id */
enum {
#define T(name, bytes, kind) MOD_##name,
#include "types.def"
#undef T
#define M(cname, word) MOD_##cname,
#include "mods.def"
#undef M
	MOD__COUNT
};
#define MOD_NONE 0xffff
#define MODSET_WORDS ((MOD__COUNT + 63) / 64)
extern const char *const isa_mod_name[MOD__COUNT];
static inline bool isa_mod_is_type(unsigned m) { return m < TY__COUNT; }

/* ---- opcodes ------------------------------------------------------------ */
/* ops.def's SMA(sm): a row of the arch-specific target sm_<sm>a only. */
#define ISA_SM_ARCH 0x80
#define SMA(sm) (ISA_SM_ARCH | (sm))
/* ops.def's GONE(sm, ptx): a row of every target from sm_10 that targets
 * sm_<sm> and later lost at PTX ISA <ptx> (the bytes above the first). */
#define GONE(sm, ptx) ((unsigned)(ptx) << 16 | (unsigned)(sm) << 8 | 10u)

enum {
#define OP(name) OPC_##name,
#define F(op, form, opnds, ptx, sm)
#include "ops.def"
#undef OP
#undef F
	OPC__COUNT
};

/* One element of a compiled form: a set of words, required or optional. */
typedef struct IsaElem {
	uint64_t set[MODSET_WORDS];
	uint8_t optional;
	int8_t slot;            /* type slot number, or -1 */
	uint16_t single;        /* the word, if the set has exactly one; else MOD_NONE */
	uint8_t off, len;       /* where the element is written in the form text */
} IsaElem;

/* One operand spec: see the header of ops.def. */
typedef struct IsaOpnd {
	char kind;              /* d a r i p P q m l f * */
	int8_t slot;            /* type slot, -1 = fixed type, -2 = untyped */
	uint8_t type;           /* fixed type when slot == -1 */
	uint8_t relaxed;        /* '~': register may be wider */
	uint8_t optional;       /* '?' */
} IsaOpnd;

#define ISA_MAXELEM 20
#define ISA_MAXOPND 10

typedef struct IsaForm {
	uint16_t opc;
	uint8_t nelem, nopnd, nslot;
	uint8_t ptx, sm;        /* gates: ptx major*10+minor, sm number */
	uint8_t arch;           /* 'a': only the target sm_<sm>a (SMA), else 0 */
	uint8_t gone_sm, gone_ptx;      /* GONE: the row does not exist for targets
					   sm_<gone_sm> and later at PTX ISA gone_ptx
					   and later; 0, 0 for the other rows */
	uint8_t vecmods;        /* some element can take .v2/.v4/.v8 */
	uint8_t anyopnds;       /* operands "*": a variable list, checked by
				   the opcode's own rule */
	uint8_t lead;           /* '^': the first element is part of the name
				   and must be written first (mul.hi, suld.b) */
	const char *text;       /* the form string, for messages */
	IsaElem elem[ISA_MAXELEM];
	IsaOpnd opnd[ISA_MAXOPND];
} IsaForm;

typedef struct IsaOp {
	const char *name;
	uint16_t first, nform;  /* forms[first .. first+nform) */
} IsaOp;

extern const IsaOp *isa_op;     /* [OPC__COUNT] */
extern const IsaForm *isa_form;
extern size_t isa_nform;

/* ---- special registers -------------------------------------------------- */
enum {
#define S(cname, text, type, vec, ptx, sm) SREG_##cname,
#include "sregs.def"
#undef S
	SREG__COUNT
};

typedef struct IsaSreg {
	const char *name;       /* "%tid" */
	uint8_t type;           /* TY_* of one component */
	uint8_t vec;            /* 0 scalar, else number of components (.x .y .z .w) */
	uint8_t ptx, sm;
} IsaSreg;
extern const IsaSreg isa_sreg[SREG__COUNT];

/* ---- lookups ------------------------------------------------------------ */
void isa_init(void);    /* idempotent, thread-safe; aborts if a table is malformed */

/* Opcode by mnemonic, or -1. */
int isa_lookup_op(const char *s, size_t n);
/* Modifier by word (without the dot), or MOD_NONE. */
unsigned isa_lookup_mod(const char *s, size_t n);
/* Modifiers with a gate of their own (modgates.def): the gate an
 * instruction with these modifiers needs, raised from *ptx, *sm. */
void isa_mod_gates(const uint16_t *mods, int n, uint8_t *ptx, uint8_t *sm);
/* The words of an element as written, e.g. ".trap, .clamp or .zero". */
void isa_elem_words(const IsaForm *f, const IsaElem *e, char *buf, size_t n);
/* Special register by name (with the %), or -1. */
int isa_lookup_sreg(const char *s, size_t n);

static inline bool isa_set_has(const uint64_t *set, unsigned m)
{
	return (set[m >> 6] >> (m & 63)) & 1;
}

/* Self-check of the tables, for the test suite: returns the number of
 * problems and appends a description of each to *out (if non-NULL). */
struct Buf;
int isa_selftest(struct Buf *out);

#endif
