/* t_sass.c: the SASS ATOM front end (src/sass, include/ptxvm.h).
 *
 *   forms      every syntax form accepted, and run to the expected result
 *   rules      each register, immediate and size rule: rejected at the
 *              expected column with the expected message
 *   grid       every operation x size spelling: accepted iff the table has it
 *   exec       results: guards, RZ, PT, address arithmetic (32-bit wrap,
 *              .E, negative offsets, absolute), 64-bit pairs, CAS, sparse
 *   errors     misaligned address, address out of range, invalid address
 *              space: the code, the line, the address, the message
 *   format     the file format's own errors, and the state text
 *   fixtures   tests/sass/NAME.sass against NAME.out ("exit N", then the
 *              exact stdout of `ptxvm sass`, or its stderr when N != 0)
 */
#include "test.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...) do { if (cond) passed++; else fail(__VA_ARGS__); } while (0)

static ptxvm_sass *ld(const char *text)
{
	return ptxvm_sass_load("t.sass", text, strlen(text));
}

/* The setup every one-line test gets, on lines 1-5. */
#define PRE "R1 = 0x1000\nR2 = 0x1000\nR4 = 3\nR5 = 4\nmem 0x1000 64\n"
#define PRE_LINES 5

/* ---- accepted forms --------------------------------------------------------- */
static const char *const good[] = {
	"ATOM.ADD R0, [R1 + 4], R4",
	"ATOM.ADD R0, [R1+4], R4;",
	"ATOM.ADD R0, [R1 - 400], R4 ;",
	"ATOM.ADD R0, [R1 + -4], R4",
	"ATOM.ADD R0, [R1], R4",
	"ATOM.ADD R0, [R1 + 524287], R4",
	"ATOM.ADD R0, [R1 - 524288], R4",
	"ATOM.ADD R0, [R1 + 0x7ffff], R4",
	"ATOM.ADD.S32 R9, [0xfff00], R8",
	"ATOM.ADD R9, [0], R8",
	"ATOM.ADD R9, [0xfffff], R8",
	"ATOM.E.ADD R0, [R2 + 8], R4",
	"ATOM.E.ADD.U64 R0, [R2 - 8], R4",
	"ATOM.E.ADD R0, [0x10], R4",
	"ATOM.E.ADD R0, [RZ + 0x10], R4",
	"ATOM.ADD.F32.FTZ.RN R0, [R1 - 400], R9",
	"ATOM.ADD.U64 R0, [R4 + 8], R2",
	"ATOM.MIN.S64 R0, [R4 + 8], R2",
	"ATOM.MAX.F16x2.RN R0, [R1], R3",
	"ATOM.MIN.F16X2.FTZ.RN R0, [R1], R3",
	"ATOM.ADD.F64.RN R0, [R1], R2",
	"ATOM.ADD.32 R0, [R1], R3",
	"ATOM.ADD.64 R0, [R1], R2",
	"ATOM.INC R0, [R1], R3",
	"ATOM.DEC.U32 R0, [R1], R3",
	"ATOM.SAFEADD.U64 R0, [R1], R2",
	"ATOM.SAFEADD.64 RZ, [R1], RZ",
	"ATOM.EXCH.S32 RZ, [R1], RZ",
	"ATOM.CAS R0, [R1 + 4], R2, R3",
	"ATOM.CAS.S32 R0, [R1], R2, RZ",
	"ATOM.CAS.64 R0, [R1], R4, R6",
	"ATOM.CAS.U64 R0, [R1], R8, RZ",
	"ATOM.E.CAS.64 R2, [R4 + 8], R8, R10",
	"ATOM.CAS R0, [0x100], R2, R3",
	"ATOM.ADD P0, R0, [R1], R3",
	"ATOM.E.ADD.U64 PT, R0, [R2], R4",
	"ATOM.CAS P6, R0, [R1], R2, R3",
	"ATOM.E.CAS.64 P1, R0, [R2], R4, R6",
	"@P0 ATOM.ADD R0, [R1], R3",
	"@!P6 ATOM.ADD R0, [R1], R3",
	"@PT ATOM.ADD R0, [R1], R3",
	"@!PT ATOM.ADD R0, [R1], R3",
	"@P2 ATOM.CAS P3, R0, [R1], R2, R3 ;",
	"ATOM.ADD R254, [R253], R252",
	"atom.add r0, [r1], r3",
	"ATOM.ADD R0, [R1], R3 &req={0,1} &rd=0x1 &wr=0x2 ?WAIT4_END_GROUP ;",
	"ATOM.ADD R0, [R1], R3 ; # a comment",
	"  ATOM.ADD R0, [R1], R3 // a comment",
	"ATOM.ADD RZ, [RZ], RZ",
};

static void test_sass_good(void)
{
	char buf[512];
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		snprintf(buf, sizeof buf, PRE "%s\n", good[i]);
		ptxvm_sass *s = ld(buf);
		char *d = ptxvm_sass_diagnostics(s);
		CHECK(s && ptxvm_sass_errors(s) == 0 && ptxvm_sass_count(s) == 1, "sass forms: '%s' rejected:\n%s",
		      good[i], d ? d : "(null)");
		free(d);
		ptxvm_sass_free(s);
	}
}

/* ---- rejected: the column and a piece of the message ------------------------ */
typedef struct Bad {
	const char *line;
	unsigned col;
	const char *msg;
} Bad;

static const Bad bad[] = {
	/* CAS */
	{ "ATOM.CAS R0, [R1], R3, R4", 20, "Rb must be even (R2n)" },
	{ "ATOM.CAS R0, [R1], RZ, R3", 20, "Rb cannot be RZ" },
	{ "ATOM.CAS R0, [R1], R2, R4", 24, "Rc must be R3 (Rb+1) or RZ, not R4" },
	{ "ATOM.CAS.64 R0, [R1], R2, R4", 23, "Rb must be a multiple of 4 (R4n)" },
	{ "ATOM.CAS.U64 R0, [R1], R6, R8", 24, "Rb must be a multiple of 4" },
	{ "ATOM.CAS.64 R0, [R1], R4, R5", 27, "Rc must be R6 (Rb+2) or RZ, not R5" },
	{ "ATOM.CAS.64 R0, [R1], RZ, RZ", 23, "Rb cannot be RZ" },
	{ "ATOM.CAS.64 R0, [R1], R252, R254", 29, "R254, R255 would include RZ" },
	{ "ATOM.CAS.64 R1, [R1], R4, R6", 13, "must start at an even register, not R1" },
	{ "ATOM.CAS R0, [R1], R2", 22, "missing operand: ATOM.CAS takes Rd, [Ra + ImmS20], Rb, Rc" },
	{ "ATOM.CAS P0, R0, [R1], R2", 26, "missing operand: ATOM.CAS takes Ps, Rd, [Ra], Rb, Rc" },
	/* pairs */
	{ "ATOM.ADD.U64 R1, [R1], R2", 14, "destination Rd is the register pair R1, R2" },
	{ "ATOM.ADD.U64 R0, [R1], R3", 24, "operand Rb is the register pair R3, R4" },
	{ "ATOM.MIN.S64 R254, [R1], R2", 14, "cannot be R254" },
	{ "ATOM.ADD.F64.RN R0, [R1], R5", 27, "must start at an even register" },
	{ "ATOM.SAFEADD.U64 R0, [R1], R3", 28, "must start at an even register" },
	{ "ATOM.E.ADD R0, [R3], R2", 17, "Ra must be even, not R3" },
	{ "ATOM.E.ADD R0, [R254 + 4], R2", 17, "Ra cannot be R254" },
	/* immediates */
	{ "ATOM.ADD R0, [R1 + 0x80000], R2", 20, "does not fit ImmS20" },
	{ "ATOM.ADD R0, [R1 - 524289], R2", 20, "does not fit ImmS20" },
	{ "ATOM.E.ADD R0, [R2 + 0x100000], R4", 22, "does not fit ImmS20" },
	{ "ATOM.ADD R0, [0x100000], R2", 15, "does not fit ImmU20" },
	{ "ATOM.ADD R0, [-4], R2", 15, "does not fit ImmU20" },
	{ "ATOM.ADD R0, [R1 + 99999999999999999999], R2", 20, "does not fit in 64 bits" },
	{ "ATOM.ADD R0, [R1 + x], R2", 20, "expected an immediate offset" },
	{ "ATOM.ADD R0, [R1 + 4, R2", 21, "expected ']'" },
	/* sparse */
	{ "ATOM.ADD P0, R0, [R1 + 4], R2", 24, "immediate offsets are not supported with a sparse predicate" },
	{ "ATOM.ADD P0, R0, [0x10], R2", 18, "needs a register address [Ra]" },
	{ "ATOM.ADD P0, R0, [R1], R2, R3", 28, "only ATOM.CAS takes a fourth operand Rc" },
	{ "ATOM.ADD P7, R0, [R1], R2", 10, "'P7' is not a predicate" },
	{ "ATOM.ADD R0, P0, [R1], R2", 14, "expected the address" },
	{ "ATOM.ADD R0, [R1], P0", 20, "found a predicate" },
	/* sizes and operations */
	{ "ATOM.INC.U64 R0, [R1], R2", 10, "ATOM.INC does not take .U64: its sizes are .U32" },
	{ "ATOM.DEC.S32 R0, [R1], R2", 10, "ATOM.DEC does not take .S32" },
	{ "ATOM.ADD.S64 R0, [R1], R2", 10, "ATOM.ADD does not take .S64" },
	{ "ATOM.EXCH.S64 R0, [R1], R2", 11, "its sizes are .U32, .S32 or .U64" },
	{ "ATOM.CAS.S64 R0, [R1], R4, R6", 10, "ATOM.CAS does not take .S64" },
	{ "ATOM.AND.F32.FTZ.RN R0, [R1], R2", 10, "ATOM.AND does not take .F32.FTZ.RN" },
	{ "ATOM.MIN.F64.RN R0, [R1], R2", 10, "ATOM.MIN does not take .F64.RN" },
	{ "ATOM.SAFEADD R0, [R1], R2", 13, "ATOM.SAFEADD needs a size" },
	{ "ATOM.SAFEADD.U32 R0, [R1], R2", 14, "its sizes are .U64" },
	{ "ATOM.ADD.F32 R0, [R1], R2", 10, "written in full, .F32.FTZ.RN" },
	{ "ATOM.ADD.F16x2 R0, [R1], R2", 10, "written in full" },
	{ "ATOM.ADD.F32.RN R0, [R1], R2", 10, "written in full" },
	{ "ATOM.ADD.128 R0, [R1], R2", 10, ".128 (.U128) is recognised but illegal" },
	{ "ATOM.CAS.U128 R0, [R1], R4, R6", 10, "illegal" },
	{ "ATOM.ADD.U16 R0, [R1], R2", 10, "unknown size '.U16'" },
	{ "ATOM.FOO R0, [R1], R2", 6, "unknown ATOM operation '.FOO'" },
	{ "ATOM R0, [R1], R2", 5, "ATOM needs an operation" },
	{ "ATOM.E R0, [R1], R2", 7, "ATOM needs an operation" },
	{ "ATOM.ADD.E R0, [R1], R2", 10, ".E must come right after ATOM" },
	{ "ATOM.E.E.ADD R0, [R1], R2", 8, ".E must come right after ATOM" },
	{ "RED.ADD R0, [R1], R2", 1, "unknown instruction 'RED'" },
	{ "ATOMS.ADD R0, [R1], R2", 1, "unknown instruction 'ATOMS'" },
	/* registers and predicates */
	{ "ATOM.ADD R255, [R1], R2", 10, "'R255' is not a register" },
	{ "ATOM.ADD R256, [R1], R2", 10, "is not a register" },
	{ "ATOM.ADD R01, [R1], R2", 10, "is not a register" },
	{ "ATOM.ADD X0, [R1], R2", 10, "expected a register" },
	{ "@P7 ATOM.ADD R0, [R1], R2", 2, "'P7' is not a predicate" },
	{ "@Q ATOM.ADD R0, [R1], R2", 2, "expected a predicate (P0..P6 or PT) after '@'" },
	{ "@P0ATOM.ADD R0, [R1], R2", 2, "expected a predicate" },
	/* operands */
	{ "ATOM.ADD R0, [R1], R2, R3", 24, "only ATOM.CAS takes a fourth operand Rc" },
	{ "ATOM.CAS R0, [R1], R2, R3, R4", 28, "too many operands" },
	{ "ATOM.ADD R0, [R1]", 18, "missing operand" },
	{ "ATOM.ADD", 9, "missing operand" },
	{ "ATOM.ADD R0, R1, R2", 14, "expected the address [Ra + ImmS20] or [ImmU20]" },
	{ "ATOM.ADD R0, [R1], R2 junk", 23, "unexpected 'junk' after the instruction" },
	{ "ATOM.ADD R0, [R1], R2 ; ;", 25, "unexpected ';'" },
	{ "ATOM.ADD R0, [R1], R2 &req={0", 23, "unterminated annotation" },
};

static void test_sass_bad(void)
{
	char buf[512];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const Bad *b = &bad[i];
		snprintf(buf, sizeof buf, PRE "%s\n", b->line);
		ptxvm_sass *s = ld(buf);
		ptxvm_diag d = { 0 };
		bool ok = s && ptxvm_sass_errors(s) == 1 && ptxvm_sass_diag(s, 0, &d) == 0 && d.line == PRE_LINES + 1 &&
			  d.col == b->col && strstr(d.message, b->msg) && ptxvm_sass_count(s) == 0;
		CHECK(ok, "sass rules: '%s': got %zu errors, first %u:%u '%s'; expected %u:%u '%s'", b->line,
		      ptxvm_sass_errors(s), d.line, d.col, d.message ? d.message : "", PRE_LINES + 1, b->col, b->msg);
		/* nothing runs */
		CHECK(ptxvm_sass_run(s) == PTXVM_ERROR_INVALID_PTX && strstr(ptxvm_sass_message(s), "has errors"),
		      "sass rules: '%s' ran", b->line);
		ptxvm_sass_free(s);
	}
	/* the diagnostics text: file:line:col, the line, a caret */
	ptxvm_sass *s = ld(PRE "ATOM.CAS R0, [R1], R3, R4\n");
	char *d = ptxvm_sass_diagnostics(s);
	CHECK(d && strstr(d, "t.sass:6:20: error: ATOM.CAS: Rb must be even") &&
	      strstr(d, "\nATOM.CAS R0, [R1], R3, R4\n                   ^\n"), "sass rules: diagnostics text:\n%s", d);
	free(d);
	ptxvm_sass_free(s);
	/* one error per line, every bad line reported */
	s = ld("ATOM.FOO R0, [R1], R2\nATOM.ADD R255, [R1], R2\nATOM.ADD R0, [R1], R2\n");
	ptxvm_diag d1, d2;
	CHECK(ptxvm_sass_errors(s) == 2 && ptxvm_sass_diag(s, 0, &d1) == 0 && ptxvm_sass_diag(s, 1, &d2) == 0 &&
	      d1.line == 1 && d2.line == 2 && ptxvm_sass_diag(s, 2, &d2) == -1, "sass rules: errors per line");
	ptxvm_sass_free(s);
}

/* ---- the grid: operation x size spelling ------------------------------------ */
static void test_sass_grid(void)
{
	static const char *const ops[] = { "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH",
					   "SAFEADD", "CAS" };
	static const struct {
		const char *sz;
		int bytes;
		const char *name;       /* the table's name, for the expected verdict */
	} szs[] = {
		{ "", 4, "U32" }, { ".U32", 4, "U32" }, { ".32", 4, "U32" }, { ".S32", 4, "S32" },
		{ ".U64", 8, "U64" }, { ".64", 8, "U64" }, { ".S64", 8, "S64" },
		{ ".F32.FTZ.RN", 4, "F32.FTZ.RN" }, { ".F16x2.RN", 4, "F16x2.RN" },
		{ ".F16x2.FTZ.RN", 4, "F16x2.FTZ.RN" }, { ".F64.RN", 8, "F64.RN" },
		{ ".128", 16, NULL }, { ".U128", 16, NULL },
	};
	static const char *const allowed[] = {
		"ADD U32 S32 U64 F32.FTZ.RN F16x2.RN F16x2.FTZ.RN F64.RN ", "MIN U32 S32 U64 S64 F16x2.RN F16x2.FTZ.RN ",
		"MAX U32 S32 U64 S64 F16x2.RN F16x2.FTZ.RN ", "INC U32 ", "DEC U32 ", "AND U32 S32 U64 ",
		"OR U32 S32 U64 ", "XOR U32 S32 U64 ", "EXCH U32 S32 U64 ", "SAFEADD U64 ", "CAS U32 S32 U64 ",
	};
	char buf[512], key[32];
	int accepted = 0;
	for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
		for (size_t z = 0; z < sizeof szs / sizeof szs[0]; z++) {
			bool cas = !strcmp(ops[o], "CAS");
			const char *regs = cas ? (szs[z].bytes == 8 ? "R0, [R2], R4, R6" : "R0, [R2], R4, R5")
					       : "R0, [R2], R4";
			snprintf(buf, sizeof buf, PRE "ATOM.%s%s %s\n", ops[o], szs[z].sz, regs);
			snprintf(key, sizeof key, " %s ", szs[z].name ? szs[z].name : "-");
			bool want = strstr(allowed[o], key) != NULL;
			ptxvm_sass *s = ld(buf);
			bool got = ptxvm_sass_errors(s) == 0;
			accepted += got;
			ptxvm_diag d = { 0 };
			ptxvm_sass_diag(s, 0, &d);
			CHECK(got == want, "sass grid: ATOM.%s%s %s (%s)", ops[o], szs[z].sz, got ? "accepted" : "rejected",
			      d.message ? d.message : "");
			if (got) {      /* and runs */
				ptxvm_result r = ptxvm_sass_run(s);
				CHECK(r == PTXVM_SUCCESS, "sass grid: ATOM.%s%s: run %d: %s", ops[o], szs[z].sz, r,
				      ptxvm_sass_message(s));
			}
			ptxvm_sass_free(s);
		}
	/* 37 cells; .U32 also as "" and .32 (10 ops), .U64 also as .64 (9) */
	CHECK(accepted == 37 + 20 + 9, "sass grid: %d spellings accepted, expected 66", accepted);
}

/* ---- execution ------------------------------------------------------------------ */
static uint32_t word(ptxvm_sass *s, uint64_t a)
{
	uint32_t v = 0xdeadbeef;
	ptxvm_sass_read(s, a, &v, 4);
	return v;
}

/* Runs text; checks the result, "Rn=V" / "Pn=V" / "M[A]=V" expectations. */
static void run_expect(const char *what, const char *text, ptxvm_result want, const char *expect)
{
	ptxvm_sass *s = ld(text);
	if (!s || ptxvm_sass_errors(s)) {
		char *d = ptxvm_sass_diagnostics(s);
		fail("sass exec %s: invalid:\n%s", what, d ? d : "");
		free(d);
		ptxvm_sass_free(s);
		return;
	}
	ptxvm_result r = ptxvm_sass_run(s);
	CHECK(r == want, "sass exec %s: result %d, expected %d (%s)", what, r, want, ptxvm_sass_message(s));
	const char *p = expect;
	while (p && *p) {
		unsigned long long k, v;
		int n = 0;
		if (sscanf(p, " R%llu=%lli%n", &k, &v, &n) == 2)
			CHECK(ptxvm_sass_reg(s, (unsigned)k) == (uint32_t)v, "sass exec %s: R%llu = 0x%x, expected 0x%llx",
			      what, k, ptxvm_sass_reg(s, (unsigned)k), v);
		else if (sscanf(p, " P%llu=%lli%n", &k, &v, &n) == 2)
			CHECK(ptxvm_sass_pred(s, (unsigned)k) == (int)v, "sass exec %s: P%llu = %d, expected %llu", what, k,
			      ptxvm_sass_pred(s, (unsigned)k), v);
		else if (sscanf(p, " M[%lli]=%lli%n", &k, &v, &n) == 2)
			CHECK(word(s, k) == (uint32_t)v, "sass exec %s: M[0x%llx] = 0x%x, expected 0x%llx", what, k,
			      word(s, k), v);
		else {
			fail("sass exec %s: bad expectation '%s'", what, p);
			break;
		}
		p += n;
	}
	ptxvm_sass_free(s);
}

static void test_run(void)
{
	run_expect("add", "R1 = 0x1000\nR2 = 5\nmem 0x1000 u32 10 20\nATOM.ADD R0, [R1 + 4], R2\n", PTXVM_SUCCESS,
		   "R0=20 M[0x1000]=10 M[0x1004]=25 R1=0x1000");
	run_expect("seed example: negative offset",
		   "R1 = 0x1190\nR9 = f32:2.5\nmem 0x1000 f32 1.5\nATOM.ADD.F32.FTZ.RN R0, [R1 - 400], R9;\n",
		   PTXVM_SUCCESS, "R0=0x3fc00000 M[0x1000]=0x40800000");
	run_expect("seed example: 64-bit pairs",
		   "R4 = 0x1000\nR2.64 = 0x100000001\nmem 0x1000 u64 0 0xffffffff\nATOM.ADD.U64 R0, [R4 + 8], R2\n",
		   PTXVM_SUCCESS, "R0=0xffffffff R1=0 M[0x1008]=0 M[0x100c]=2 R2=1 R3=1");
	run_expect("seed example: absolute address",
		   "R8 = -3\nmem 0xfff00 s32 5\nATOM.ADD.S32 R9, [0xfff00], R8\n", PTXVM_SUCCESS,
		   "R9=5 M[0xfff00]=2");
	run_expect("seed example: signed 64-bit min",
		   "R4 = 0x1000\nR2.64 = -5\nmem 0x1000 u64 0 7\nATOM.MIN.S64 R0, [R4 + 8], R2\n", PTXVM_SUCCESS,
		   "R0=7 R1=0 M[0x1008]=0xfffffffb M[0x100c]=0xffffffff");
	run_expect("32-bit address wraps",
		   "R1 = 0xffffff00\nR2 = 1\nmem 0x100 4\nATOM.ADD R0, [R1 + 0x200], R2\n", PTXVM_SUCCESS,
		   "R0=0 M[0x100]=1");
	run_expect("32-bit address wraps below 0",
		   "R1 = 0x10\nR2 = 1\nmem 0xfffffff0 16\nATOM.ADD R0, [R1 - 0x14], R2\n", PTXVM_SUCCESS,
		   "M[0xfffffffc]=1");
	run_expect(".E: the 64-bit pair plus the offset",
		   "R2.64 = 0x100000010\nR4 = 7\nmem 0x100000000 16\nATOM.E.ADD R0, [R2 - 8], R4\n", PTXVM_SUCCESS,
		   "R0=0");
	run_expect("no .E: only the low word of the pair",
		   "R2.64 = 0x100000010\nR4 = 7\nmem 0x8 8\nATOM.ADD R0, [R2 - 8], R4\nATOM.E.ADD R0, [RZ + 0x8], R4\n",
		   PTXVM_SUCCESS, "R0=7 M[0x8]=14");
	{
		ptxvm_sass *s = ld("R2.64 = 0x100000010\nR4 = 7\nmem 0x100000000 16\nATOM.E.ADD R0, [R2 - 8], R4\n");
		uint32_t v = 0;
		CHECK(ptxvm_sass_run(s) == PTXVM_SUCCESS && ptxvm_sass_read(s, 0x100000008ull, &v, 4) == PTXVM_SUCCESS &&
		      v == 7, "sass exec .E: memory above 4 GiB (0x%x)", v);
		ptxvm_sass_free(s);
	}
	run_expect("guards", "R1 = 0x1000\nR2 = 1\nP1 = 1\nmem 0x1000 4\n"
		   "@P0 ATOM.ADD R10, [R1], R2\n@!P0 ATOM.ADD R11, [R1], R2\n@P1 ATOM.ADD R12, [R1], R2\n"
		   "@!P1 ATOM.ADD R13, [R1], R2\n@PT ATOM.ADD R14, [R1], R2\n@!PT ATOM.ADD R15, [R1], R2\n",
		   PTXVM_SUCCESS, "M[0x1000]=3 R11=0 R12=1 R14=2 R10=0 R13=0 R15=0");
	run_expect("RZ reads 0 and discards", "R1 = 0x1000\nmem 0x1000 u32 9\nATOM.EXCH RZ, [R1], RZ\n"
		   "ATOM.ADD R0, [R1], RZ\n", PTXVM_SUCCESS, "R0=0 M[0x1000]=0");
	run_expect("Rd is Rb: the operand read first", "R1 = 0x1000\nR2 = 5\nmem 0x1000 u32 9\n"
		   "ATOM.ADD R2, [R1], R2\n", PTXVM_SUCCESS, "R2=9 M[0x1000]=14");
	run_expect("INC and DEC", "R1 = 0x1000\nR2 = 2\nmem 0x1000 u32 1 0\n"
		   "ATOM.INC R10, [R1], R2\nATOM.INC R11, [R1], R2\nATOM.INC R12, [R1], R2\n"
		   "ATOM.DEC R13, [R1 + 4], R2\nATOM.DEC R14, [R1 + 4], R2\n", PTXVM_SUCCESS,
		   "R10=1 R11=2 R12=0 M[0x1000]=1 R13=0 R14=2 M[0x1004]=1");
	run_expect("CAS 32", "R1 = 0x1000\nR2 = 9\nR3 = 42\nmem 0x1000 u32 9 8\n"
		   "ATOM.CAS R10, [R1], R2, R3\nATOM.CAS R11, [R1 + 4], R2, R3\n", PTXVM_SUCCESS,
		   "R10=9 M[0x1000]=42 R11=8 M[0x1004]=8");
	run_expect("CAS with Rc = RZ swaps in 0", "R1 = 0x1000\nR2 = 9\nR3 = 42\nmem 0x1000 u32 9\n"
		   "ATOM.CAS R10, [R1], R2, RZ\n", PTXVM_SUCCESS, "R10=9 M[0x1000]=0");
	run_expect("CAS 64", "R1 = 0x1000\nR4.64 = 0x500000009\nR6.64 = 0x0000000700000002\n"
		   "mem 0x1000 u64 0x500000009 0x400000009\n"
		   "ATOM.CAS.64 R10, [R1], R4, R6\nATOM.CAS.64 R12, [R1 + 8], R4, R6\n", PTXVM_SUCCESS,
		   "R10=9 R11=5 M[0x1000]=2 M[0x1004]=7 R12=9 R13=4 M[0x1008]=9 M[0x100c]=4");
	run_expect("SAFEADD", "R1 = 0x1000\nR2 = 1\nR3 = 3\nmem 0x1000 u64 1\n"
		   "ATOM.SAFEADD.U64 R10, [R1], R2\nATOM.SAFEADD.U64 R12, [R1], R2\nATOM.SAFEADD.U64 R14, [R1], R2\n",
		   PTXVM_SUCCESS, "R10=1 R12=2 R14=0 M[0x1000]=1 M[0x1004]=0");
	run_expect("F16x2 per half", "R1 = 0x1000\nR2 = 0x3c00bc00\nmem 0x1000 u32 0x3c003c00 0x3c003c00\n"
		   "ATOM.ADD.F16x2.RN R10, [R1], R2\nATOM.MIN.F16x2.RN R11, [R1 + 4], R2\n", PTXVM_SUCCESS,
		   "R10=0x3c003c00 M[0x1000]=0x40000000 M[0x1004]=0x3c00bc00");
	run_expect("F64", "R1 = 0x1000\nR2.64 = f64:0.25\nmem 0x1000 f64 1.5\nATOM.ADD.F64.RN R10, [R1], R2\n",
		   PTXVM_SUCCESS, "R10=0 R11=0x3ff80000 M[0x1000]=0 M[0x1004]=0x3ffc0000");
	run_expect("sparse: performed, Ps false",
		   "R1 = 0x1000\nR2 = 1\nP3 = 1\nmem 0x1000 u32 5\nATOM.ADD P3, R10, [R1], R2\n", PTXVM_SUCCESS,
		   "P3=0 R10=5 M[0x1000]=6");
	run_expect("sparse page: not performed, Ps true, Rd 0",
		   "R1 = 0x1000\nR2 = 1\nR10 = 77\nR12 = 7\nmem 0x1000 u32 5\nsparse 0x1000 0x1000\n"
		   "ATOM.ADD P3, R10, [R1], R2\nATOM.ADD R12, [R1], R2\nATOM.ADD.U64 PT, R14, [R1], R2\n",
		   PTXVM_SUCCESS, "P3=1 R10=0 R12=0 M[0x1000]=5");
	run_expect("sparse page without a region", "R1 = 0x9000\nR2 = 1\nsparse 0x9000 16\n"
		   "ATOM.CAS P0, R10, [R1], R2, R3\n", PTXVM_SUCCESS, "P0=1 R10=0");
	run_expect("a guard off skips the faults", "R1 = 0x1003\nR2 = 1\n@P0 ATOM.ADD R0, [R1], R2\n",
		   PTXVM_SUCCESS, "R0=0");
	/* runs are repeatable: each starts from the initial state */
	ptxvm_sass *s = ld("R1 = 0x1000\nR2 = 1\nmem 0x1000 4\nATOM.ADD R0, [R1], R2\nATOM.ADD R0, [R1], R2\n");
	ptxvm_sass_run(s);
	CHECK(ptxvm_sass_run(s) == PTXVM_SUCCESS && ptxvm_sass_reg(s, 0) == 1 && word(s, 0x1000) == 2 &&
	      ptxvm_sass_reg(s, 255) == 0 && ptxvm_sass_pred(s, 7) == 1 && ptxvm_sass_message(s)[0] == 0,
	      "sass exec: a second run starts afresh");
	ptxvm_sass_free(s);
}

/* ---- execution errors ------------------------------------------------------------ */
static void expect_fault(const char *what, const char *text, ptxvm_result want, unsigned line, uint64_t addr,
			 const char *msg)
{
	ptxvm_sass *s = ld(text);
	ptxvm_result r = ptxvm_sass_errors(s) ? PTXVM_ERROR_INVALID_PTX : ptxvm_sass_run(s);
	CHECK(r == want && ptxvm_sass_fault_line(s) == line && ptxvm_sass_fault_address(s) == addr &&
	      strstr(ptxvm_sass_message(s), msg), "sass errors %s: result %d line %u address 0x%llx message '%s'",
	      what, r, ptxvm_sass_fault_line(s), (unsigned long long)ptxvm_sass_fault_address(s),
	      ptxvm_sass_message(s));
	ptxvm_sass_free(s);
}

static void test_sass_errors(void)
{
	const char *base = "R1 = 0x1000\nR2 = 1\nR6 = 0x20008\nmem 0x1000 16\nshared 0x20000 0x1000\nlocal 0x40000 0x100\n";
	char buf[512];
#define T(ins, want, line, addr, msg) \
	snprintf(buf, sizeof buf, "%sATOM.ADD R0, [R1], R2\n%s\n", base, ins); \
	expect_fault(ins, buf, want, line, addr, msg)
	T("ATOM.ADD R0, [R1 + 2], R2", PTXVM_ERROR_MISALIGNED_ADDRESS, 8, 0x1002,
	  "t.sass:8: misaligned address (address 0x1002): an access of 4 bytes needs an address that is a multiple of 4, "
	  "in `ATOM.ADD R0, [R1 + 2], R2`");
	T("ATOM.ADD.U64 R0, [R1 + 4], R2", PTXVM_ERROR_MISALIGNED_ADDRESS, 8, 0x1004, "multiple of 8");
	T("ATOM.CAS.64 R0, [R1 + 12], R4, R6", PTXVM_ERROR_MISALIGNED_ADDRESS, 8, 0x100c, "misaligned address");
	T("ATOM.ADD R0, [R1 + 16], R2", PTXVM_ERROR_ILLEGAL_ADDRESS, 8, 0x1010,
	  "address out of range (address 0x1010): no memory region holds the 4 bytes 0x1010..0x1013");
	T("ATOM.ADD.U64 R0, [R1 - 8], R2", PTXVM_ERROR_ILLEGAL_ADDRESS, 8, 0xff8, "address out of range");
	T("ATOM.ADD R0, [0], R2", PTXVM_ERROR_ILLEGAL_ADDRESS, 8, 0, "address out of range");
	T("ATOM.E.ADD R0, [R6 + 0xff8], R2", PTXVM_ERROR_ILLEGAL_ADDRESS, 8, 0x21000, "out of range");
	T("ATOM.ADD R0, [0x20010], R2", PTXVM_ERROR_INVALID_ADDRESS_SPACE, 8, 0x20010,
	  "invalid address space (address 0x20010): the address is in the shared window 0x20000..0x20fff");
	T("ATOM.ADD R0, [0x40002], R2", PTXVM_ERROR_INVALID_ADDRESS_SPACE, 8, 0x40002, "local window");
	T("ATOM.ADD P0, R0, [R6], R2", PTXVM_ERROR_INVALID_ADDRESS_SPACE, 8, 0x20008, "invalid address space");
#undef T
	/* the first failing instruction stops the run; earlier ones took effect */
	ptxvm_sass *s = ld("R1 = 0x1000\nR2 = 1\nmem 0x1000 16\nATOM.ADD R0, [R1], R2\n\nATOM.ADD R3, [R1 + 1], R2\n"
			   "ATOM.ADD R4, [R1], R2\n");
	CHECK(ptxvm_sass_run(s) == PTXVM_ERROR_MISALIGNED_ADDRESS && ptxvm_sass_fault_line(s) == 6 &&
	      word(s, 0x1000) == 1 && ptxvm_sass_reg(s, 4) == 0, "sass errors: the run stops at the fault");
	ptxvm_sass_free(s);
	/* the order: address space, then alignment, then range */
	expect_fault("space before alignment", "shared 0x2000 16\nATOM.ADD R0, [0x2001], R2\n",
		     PTXVM_ERROR_INVALID_ADDRESS_SPACE, 2, 0x2001, "invalid address space");
	expect_fault("alignment before range", "ATOM.ADD R0, [0x3001], R2\n", PTXVM_ERROR_MISALIGNED_ADDRESS, 1,
		     0x3001, "misaligned");
	expect_fault("an access across the end of a region", "mem 0x1000 6\nATOM.ADD.U64 R0, [0x1000], R2\n",
		     PTXVM_ERROR_ILLEGAL_ADDRESS, 2, 0x1000, "0x1000..0x1007");
}

/* ---- the file format ------------------------------------------------------------ */
static const Bad fbad[] = {
	{ "ATOM.ADD R0, [R1], R2\nR3 = 1", 1, "must come before the first instruction" },
	{ "R3 = 0x100000000", 6, "does not fit in 32 bits" },
	{ "R3 = -0x80000001", 6, "does not fit in 32 bits" },
	{ "R3.64 = 1", 1, "starts at an even register" },
	{ "R4.32 = 1", 4, "expected '.64'" },
	{ "RZ = 1", 1, "RZ is always zero" },
	{ "PT = 1", 1, "PT is always true" },
	{ "P0 = 2", 6, "a predicate is 0 or 1" },
	{ "P9 = 1", 1, "is not a predicate" },
	{ "R3 = f64:1.0", 6, "does not fit here" },
	{ "R3 = f32:abc", 10, "is not a floating-point number" },
	{ "R3 1", 4, "expected '='" },
	{ "R3 = 1 2", 8, "unexpected '2' after the value" },
	{ "mem 0x1000 8", 5, "overlaps the region 0x1000..0x103f of line 5" },
	{ "mem 0x2000 0", 12, "the size must be at least 1" },
	{ "mem 0x2000 0x2000000", 12, "at most" },
	{ "mem 0xfffffffffffffff0 0x20", 24, "wraps past 2^64" },
	{ "mem 0x2000 u8 256", 15, "does not fit in 8 bits" },
	{ "mem 0x2000 u16", 15, "expected at least one u16 value" },
	{ "mem 0x2000 q32 1", 12, "expected a size or a type" },
	{ "mem -5 4", 5, "cannot be negative" },
	{ "set 0x1038 u32 1 2 3", 5, "not inside one memory region" },
	{ "set 0x1000 x 1", 12, "expected a type" },
	{ "shared 0x1020 0x10", 8, "overlaps the region of line 5" },
	{ "local 0x5000 0x10\nshared 0x5008 8", 8, "overlaps the local window of line 6" },
	{ "shared 0x5000 0x10\nmem 0x4ff0 0x20", 5, "overlaps the shared window" },
	{ "junk", 1, "unknown instruction 'junk'" },
	{ "= 5", 1, "expected an ATOM instruction, a register or predicate setting" },
};

static void test_sass_format(void)
{
	char buf[512];
	for (size_t i = 0; i < sizeof fbad / sizeof fbad[0]; i++) {
		const Bad *b = &fbad[i];
		snprintf(buf, sizeof buf, PRE "%s\n", b->line);
		ptxvm_sass *s = ld(buf);
		ptxvm_diag d = { 0 };
		unsigned want_line = PRE_LINES + 1 + (strchr(b->line, '\n') != NULL);
		bool ok = s && ptxvm_sass_errors(s) == 1 && ptxvm_sass_diag(s, 0, &d) == 0 && d.line == want_line &&
			  d.col == b->col && strstr(d.message, b->msg);
		CHECK(ok, "sass format: '%s': got %zu errors, first %u:%u '%s'; expected %u:%u '%s'", b->line,
		      ptxvm_sass_errors(s), d.line, d.col, d.message ? d.message : "", want_line, b->col, b->msg);
		ptxvm_sass_free(s);
	}
	/* values, set, comments, an empty file */
	run_expect("initial values", "# comment only\n\nR3 = -1\nR4.64 = -2\nR6 = 0x7fffffff // c\nP2 = 1\n"
		   "mem 0x100 u8 1 2 3 4\nmem 0x104 s16 -1, 2\nmem 0x108 u64 0x1122334455667788\n"
		   "mem 0x110 32\nset 0x114 u32 0xabcdef01\nset 0x100 u8 9\n", PTXVM_SUCCESS,
		   "R3=0xffffffff R4=0xfffffffe R5=0xffffffff R6=0x7fffffff P2=1 M[0x100]=0x04030209 M[0x104]=0x0002ffff "
		   "M[0x108]=0x55667788 M[0x10c]=0x11223344 M[0x114]=0xabcdef01 M[0x110]=0");
	ptxvm_sass *s = ld("");
	CHECK(s && ptxvm_sass_errors(s) == 0 && ptxvm_sass_run(s) == PTXVM_SUCCESS && ptxvm_sass_count(s) == 0,
	      "sass format: an empty file runs");
	char *st = ptxvm_sass_state(s);
	CHECK(st && !strcmp(st, ""), "sass format: an empty state");
	free(st);
	ptxvm_sass_free(s);
	/* the state text: changed or non-zero registers, predicates, regions */
	s = ld("R1 = 0x1000\nR2 = 3\nR7 = 5\nP1 = 1\nmem 0x1000 u32 1 2 3 4 5 6 7 8 9\nmem 0x2001 u8 1 2 3\n"
	       "ATOM.EXCH R7, [R1 + 4], RZ\nATOM.ADD P1, R8, [R1], R2\n");
	ptxvm_sass_run(s);
	st = ptxvm_sass_state(s);
	const char *want = "R1 = 0x00001000\nR2 = 0x00000003\nR7 = 0x00000002\nR8 = 0x00000001\nP1 = 0\n"
			   "mem 0x1000 u32 0x00000004 0x00000000 0x00000003 0x00000004 0x00000005 0x00000006 "
			   "0x00000007 0x00000008\nmem 0x1020 u32 0x00000009\nmem 0x2001 u8 0x01 0x02 0x03\n";
	CHECK(st && !strcmp(st, want), "sass format: state text:\n%s\nexpected:\n%s", st, want);
	/* the state text reads back as a file with the same state */
	ptxvm_sass *t = ld(st);
	char *st2 = t && ptxvm_sass_run(t) == PTXVM_SUCCESS ? ptxvm_sass_state(t) : NULL;
	/* (P1 = 0 is shown as changed the first time only) */
	const char *want2 = "R1 = 0x00001000\nR2 = 0x00000003\nR7 = 0x00000002\nR8 = 0x00000001\n";
	CHECK(st2 && !strncmp(st2, want2, strlen(want2)) && !strcmp(st2 + strlen(want2), strstr(want, "mem")),
	      "sass format: the state text does not read back:\n%s", st2);
	free(st2);
	ptxvm_sass_free(t);
	free(st);
	ptxvm_sass_free(s);
	/* the API on NULL and bad arguments */
	CHECK(ptxvm_sass_load("x", NULL, 3) == NULL && ptxvm_sass_load_file("/nonexistent/x.sass") == NULL &&
	      ptxvm_sass_run(NULL) == PTXVM_ERROR_INVALID_VALUE && ptxvm_sass_errors(NULL) == 0 &&
	      ptxvm_sass_diagnostics(NULL) == NULL && ptxvm_sass_state(NULL) == NULL && ptxvm_sass_reg(NULL, 1) == 0 &&
	      ptxvm_sass_count(NULL) == 0 && ptxvm_sass_read(NULL, 0, NULL, 0) == PTXVM_ERROR_INVALID_VALUE,
	      "sass api: NULL arguments");
	ptxvm_sass_free(NULL);
	s = ld("mem 0x10 8\n");
	uint8_t b8[16];
	CHECK(ptxvm_sass_read(s, 0x10, b8, 8) == PTXVM_SUCCESS && ptxvm_sass_read(s, 0x10, b8, 9) ==
	      PTXVM_ERROR_ILLEGAL_ADDRESS && ptxvm_sass_read(s, 0xf, b8, 1) == PTXVM_ERROR_ILLEGAL_ADDRESS &&
	      ptxvm_sass_reg(s, 300) == 0 && ptxvm_sass_pred(s, 9) == 0, "sass api: reads out of range");
	ptxvm_sass_free(s);
}

/* ---- fixtures ------------------------------------------------------------------ */
static void test_sass_fixtures(const char *root)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/tests/sass", root);
	DIR *d = opendir(dir);
	if (!d) {
		fail("sass fixtures: no directory %s", dir);
		return;
	}
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".sass"))
			continue;
		char path[4600], out[4600], name[300];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		snprintf(out, sizeof out, "%s/%.*s.out", dir, (int)(l - 5), e->d_name);
		snprintf(name, sizeof name, "%s", e->d_name);
		size_t len;
		char *want = slurp(out, &len);
		if (!want) {
			fail("sass fixtures: %s has no .out file", name);
			continue;
		}
		n++;
		int status = -1;
		sscanf(want, "exit %d", &status);
		const char *body = strchr(want, '\n');
		body = body ? body + 1 : "";
		ptxvm_sass *s = ptxvm_sass_load_file(path);
		/* messages name the file as given: compare with the name only */
		char *got = NULL;
		int st = 0;
		if (!s) {
			st = 2;
		} else if (ptxvm_sass_errors(s)) {
			st = 1;
			got = ptxvm_sass_diagnostics(s);
		} else if (ptxvm_sass_run(s)) {
			st = 3;
			got = malloc(strlen(ptxvm_sass_message(s)) + 2);
			sprintf(got, "%s\n", ptxvm_sass_message(s));
		} else {
			got = ptxvm_sass_state(s);
		}
		/* replace the directory part of the path with "tests/sass/" */
		char *g2 = NULL;
		if (got) {
			size_t pl = strlen(path), cap = strlen(got) * 2 + 64, k = 0;
			g2 = malloc(cap);
			const char *rel = "tests/sass/";
			for (const char *q = got; *q;) {
				if (!strncmp(q, path, pl)) {
					k += (size_t)sprintf(g2 + k, "%s%s", rel, name);
					q += pl;
				} else {
					g2[k++] = *q++;
				}
			}
			g2[k] = 0;
		}
		CHECK(st == status && g2 && !strcmp(g2, body), "sass fixtures: %s: exit %d (expected %d), output:\n%s"
		      "expected:\n%s", name, st, status, g2 ? g2 : "", body);
		free(g2);
		free(got);
		free(want);
		ptxvm_sass_free(s);
	}
	closedir(d);
	CHECK(n >= 3, "sass fixtures: only %d fixtures", n);
}

void test_sass(const char *root)
{
	test_sass_good();
	test_sass_bad();
	test_sass_grid();
	test_run();
	test_sass_errors();
	test_sass_format();
	test_sass_fixtures(root);
}
