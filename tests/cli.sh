#!/bin/sh
# cli.sh BUILD: the ptxvm command line: exit codes, diagnostics format, fmt.
B=${1:-build}
X="$B/ptxvm"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

# expect STATUS DESCRIPTION -- COMMAND...
expect() {
	want=$1; what=$2; shift 3
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL cli: $what: exit $got, expected $want"
		sed 's/^/    /' "$T/err" | head -5
	fi
}

# grep_in FILE PATTERN DESCRIPTION
grep_in() {
	if grep -q -- "$2" "$1"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL cli: $3: no '$2' in:"
		sed 's/^/    /' "$1" | head -5
	fi
}

cat >"$T/ok.ptx" <<'P'
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [p];
	mov.u32 %r1, 7;   // a comment
	add.s32 %r2, %r1, 0x10;
	st.global.u32 [%rd1], %r2;
	ret;
}
P
cat >"$T/bad.ptx" <<'P'
.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<3>;
	add.s32 %r1, %r9, 1;
	bogus.u32 %r1, %r2;
	ret;
}
P

expect 0 "--help" -- "$X" --help
grep_in "$T/out" "usage: ptxvm" "--help prints usage"
expect 0 "--version" -- "$X" --version
grep_in "$T/out" "ptxvm [0-9]" "--version prints the version"
expect 2 "no arguments" -- "$X"
expect 2 "unknown command" -- "$X" frobnicate
expect 2 "check without files" -- "$X" check
expect 2 "unknown option" -- "$X" check --bogus "$T/ok.ptx"
expect 2 "unknown --arch" -- "$X" check --arch sm_9000 "$T/ok.ptx"
expect 2 "missing file" -- "$X" check "$T/nonexistent.ptx"
grep_in "$T/err" "cannot open" "missing file is named"
expect 0 "valid module" -- "$X" check "$T/ok.ptx"
expect 0 "valid module from stdin" -- sh -c "\"$X\" check - < \"$T/ok.ptx\""
expect 1 "invalid module" -- "$X" check "$T/bad.ptx"
grep_in "$T/err" "bad.ptx:7:15: error: undefined identifier '%r9'" "file:line:col diagnostics"
grep_in "$T/err" "bad.ptx:8:2: error: unknown instruction 'bogus'" "every problem is reported"
grep_in "$T/err" "^	             ^" "a caret under the column"
expect 1 "valid and invalid together" -- "$X" check "$T/ok.ptx" "$T/bad.ptx"
expect 2 "unreadable file wins over invalid" -- "$X" check "$T/bad.ptx" "$T/nonexistent.ptx"
expect 1 "a module for a newer device" -- "$X" check --arch sm_80 "$T/ok.ptx"
expect 0 "fmt" -- "$X" fmt "$T/ok.ptx"
cp "$T/out" "$T/fmt1.ptx"
grep_in "$T/fmt1.ptx" "add.s32 %r2, %r1, 16;" "fmt canonical operands"
expect 0 "fmt of fmt" -- "$X" fmt "$T/fmt1.ptx"
if cmp -s "$T/out" "$T/fmt1.ptx"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: fmt is not a fixed point"; fi
expect 1 "fmt of an invalid module" -- "$X" fmt "$T/bad.ptx"
expect 2 "fmt of two files" -- "$X" fmt "$T/ok.ptx" "$T/ok.ptx"
printf '\000\377garbage {{{ [[ ;;' >"$T/junk.ptx"
expect 1 "binary junk" -- "$X" check "$T/junk.ptx"
# 100,000 levels of nesting: a diagnostic, not a stack overflow
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "{"; printf ".version 9.0\n.target sm_90\n.address_size 64\n.global .u32 a[1] = %s1;\n", s }' >"$T/deep.ptx"
expect 1 "deep nesting" -- "$X" check "$T/deep.ptx"
grep_in "$T/err" "nesting deeper than" "deep nesting is reported"
printf '.version 9.0\n.target sm_90\n.address_size 64\n.address_size 64\n' >"$T/dup.ptx"
expect 1 "a directive rejected before it is consumed" -- timeout 10 "$X" check "$T/dup.ptx"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
