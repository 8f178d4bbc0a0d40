#!/bin/sh
# cli.sh BUILD: the ptxvm command line: exit codes, diagnostics format, fmt, run.
# A line per section as it finishes ("group cli-NAME  N passed, N failed,
# S s"); PTXVM_TEST_FULL=1 (make test-full) adds the slow sweeps: every
# builtin module checked, and assembled by ptxas where it exists.
B=${1:-build}
X="$B/ptxvm"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

# section NAME: closes the previous section's progress line, opens NAME's
sec=
now() { date +%s.%N; }
section() {
	if [ -n "$sec" ]; then
		printf 'group %-12s %6d passed, %d failed, %5.1f s\n' "cli-$sec" $((pass - sec_pass)) $((fail - sec_fail)) \
			"$(awk -v a="$sec_t0" -v b="$(now)" 'BEGIN { print b - a }')"
	fi
	sec=$1 sec_pass=$pass sec_fail=$fail sec_t0=$(now)
}

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

section check
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
# relocatable code: -rdc=true output calls functions another module defines
expect 1 "relocatable module as a whole program" -- "$X" check tests/corpus/ptx/rdc.ptx
expect 0 "relocatable module with -c" -- "$X" check -c tests/corpus/ptx/rdc.ptx
expect 0 "relocatable module with --compile-only" -- "$X" fmt --compile-only tests/corpus/ptx/rdc.ptx
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
# a decimal literal is read whole: past 64 digits, a 1 decides a tie in rounding
grep -v 'error:' tests/check/float_literals.ptx >"$T/floats.ptx"
expect 0 "fmt of long float literals" -- "$X" fmt "$T/floats.ptx"
grep_in "$T/out" "long = 1.0000000000000002;" "a float literal read to its last digit"
expect 2 "fmt of two files" -- "$X" fmt "$T/ok.ptx" "$T/ok.ptx"
printf '\000\377garbage {{{ [[ ;;' >"$T/junk.ptx"
expect 1 "binary junk" -- "$X" check "$T/junk.ptx"
# 100,000 levels of nesting: a diagnostic, not a stack overflow
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "{"; printf ".version 9.0\n.target sm_90\n.address_size 64\n.global .u32 a[1] = %s1;\n", s }' >"$T/deep.ptx"
expect 1 "deep nesting" -- "$X" check "$T/deep.ptx"
grep_in "$T/err" "nesting deeper than" "deep nesting is reported"
printf '.version 9.0\n.target sm_90\n.address_size 64\n.address_size 64\n' >"$T/dup.ptx"
expect 1 "a directive rejected before it is consumed" -- timeout 10 "$X" check "$T/dup.ptx"

# ---- run ----
section run
cat >"$T/vadd.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n, .param .f32 s)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<5>;
	.reg .b64 %rd<10>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	ld.param.u64 %rd3, [c];
	ld.param.u32 %r1, [n];
	ld.param.f32 %f4, [s];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.s32 %p1, %r5, %r1;
	@%p1 bra DONE;
	mul.wide.s32 %rd7, %r5, 4;
	add.s64 %rd8, %rd1, %rd7;
	ld.global.f32 %f1, [%rd8];
	add.s64 %rd8, %rd2, %rd7;
	ld.global.f32 %f2, [%rd8];
	fma.rn.f32 %f3, %f1, %f4, %f2;
	add.s64 %rd8, %rd3, %rd7;
	st.global.f32 [%rd8], %f3;
DONE:
	ret;
}
.visible .entry oob(.param .u64 a)
{
	.reg .b64 %rd<2>;
	.reg .b32 %r<2>;
	ld.param.u64 %rd1, [a];
	ld.global.u32 %r1, [%rd1+64];
	ret;
}
P
# 0..99 as f32
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<100f", *range(100)))' >"$T/a.bin"
expect 0 "run vadd" -- "$X" run "$T/vadd.ptx" --kernel vadd --grid 2 --block 64 \
	--arg buf:400:in="$T/a.bin" --arg buf:400:in="$T/a.bin" --arg buf:400:out="$T/c.bin" \
	--arg u32:100 --arg f32:2 --stats
grep_in "$T/err" '"kernel": "vadd", "grid": \[2, 1, 1\], "block": \[64, 1, 1\], "workers": [0-9]*, "thread_instructions": [0-9]*, "warp_instructions": 80, "seconds": ' "--stats JSON"
expect 0 "run writes c = 2a + b" -- python3 -c 'import struct,sys; c = struct.unpack("<100f", open(sys.argv[1], "rb").read()); sys.exit(c != tuple(3.0 * i for i in range(100)))' "$T/c.bin"
expect 0 "run with one worker" -- "$X" run "$T/vadd.ptx" --kernel vadd --grid 2 --block 64 --workers 1 \
	--arg buf:400:in="$T/a.bin" --arg buf:400 --arg buf:400:out="$T/c1.bin" --arg u32:100 --arg f32:2
expect 3 "run: out of bounds" -- "$X" run "$T/vadd.ptx" --kernel oob --grid 1 --block 1 --arg buf:64
grep_in "$T/err" "CUDA_ERROR_ILLEGAL_ADDRESS: kernel 'oob', CTA (0,0,0), thread (0,0,0), ld.global.u32 at .*vadd.ptx:37: global load of 4 bytes at 0x[0-9a-f]* is 4 bytes past the end of a 64-byte allocation at 0x[0-9a-f]*$" "run: the fault report"
# Fault reports name the CUDA source line when the PTX carries line info
# (nvcc -lineinfo), and the allocation the access missed
S=tests/ptx/sanitize.lineinfo.ptx
expect 3 "run: past the end, with line info" -- "$X" run $S --kernel _Z8past_endPfi --grid 1 --block 96 --arg buf:256 --arg s32:64
grep_in "$T/err" "thread (64,0,0), ld.global.f32 at .*sanitize.lineinfo.ptx:[0-9]* (.*tests/cuda/sanitize.cu:11): global load of 4 bytes at 0x[0-9a-f]* is 4 bytes past the end of a 256-byte allocation at 0x" "run: the source line and the nearest allocation"
expect 3 "run: extern shared never sized" -- "$X" run $S --kernel _Z7reversePf --grid 1 --block 64 --arg buf:256
grep_in "$T/err" "st.shared.f32 at .*(.*sanitize.cu:19): shared store of 4 bytes at 0x[0-9a-f]* is 4 bytes past the end of the CTA's [0-9]* bytes of shared memory (1024 reserved, [0-9]* static, 0 dynamic); the launch gave no dynamic shared memory: the module.s extern __shared__ array has 0 bytes unless the launch sizes it" "run: the hint for unsized shared memory"
expect 0 "run: extern shared sized" -- "$X" run $S --kernel _Z7reversePf --grid 1 --block 64 --arg buf:256 --shared 256
expect 3 "run: no line info, no source line" -- "$X" run tests/ptx/sanitize.ptx --kernel _Z8past_endPfi --grid 1 --block 96 --arg buf:256 --arg s32:64
grep_in "$T/err" "ld.global.f32 at .*sanitize.ptx:[0-9]*: global load" "run: without .loc the PTX line alone"
# --check: compute-sanitizer's checks; exit status 5 when they find errors
expect 5 "run --check=memcheck: past the end" -- "$X" run $S --kernel _Z8past_endPfi --grid 1 --block 96 --arg buf:256 --arg s32:64 --check=memcheck
grep_in "$T/err" "^========= Invalid __global__ read of size 4 bytes$" "--check=memcheck: the report"
grep_in "$T/err" "^=========     at _Z8past_endPfi in .*sanitize.cu:11 (" "--check=memcheck: the site"
grep_in "$T/err" "^=========     and is 4 bytes past the end of a 256-byte allocation at 0x" "--check=memcheck: the allocation"
grep_in "$T/err" "^========= ERROR SUMMARY: 1 error$" "--check=memcheck: the summary"
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<512i", *range(512)))' >"$T/i512.bin"
expect 5 "run --check racecheck: a racy block sum" -- "$X" run $S --kernel _Z8sum_racyPKiPi --grid 2 --block 256 --arg buf:2048:in="$T/i512.bin" --arg buf:8 --check racecheck
grep_in "$T/err" "^========= Error: Race reported between Read access at _Z8sum_racyPKiPi in .*sanitize.cu:33 (" "--check=racecheck: the first site"
grep_in "$T/err" "^=========     and Write access at _Z8sum_racyPKiPi in .*sanitize.cu:29 (.*) \[[0-9]* hazards\]$" "--check=racecheck: the second site"
grep_in "$T/err" "^========= ERROR SUMMARY: 1 error$" "--check=racecheck: one error"
expect 0 "run --check=all: a tree reduction is clean" -- "$X" run $S --kernel _Z8sum_treePKiPi --grid 2 --block 256 --arg buf:2048:in="$T/i512.bin" --arg buf:8:out="$T/sum.bin" --check=all
grep_in "$T/err" "^========= ERROR SUMMARY: 0 errors$" "--check=all: clean"
expect 0 "run: the tree reduction's sums" -- python3 -c 'import struct,sys; sys.exit(struct.unpack("<2i", open(sys.argv[1], "rb").read()) != (sum(range(256)), sum(range(256, 512))))' "$T/sum.bin"
expect 5 "run --check=initcheck: input never written" -- "$X" run $S --kernel _Z11read_uninitPKiPii --grid 1 --block 64 --arg buf:260 --arg buf:256 --arg s32:64 --check=initcheck
grep_in "$T/err" "^========= Uninitialized __global__ memory read of size 4 bytes$" "--check=initcheck: the report"
grep_in "$T/err" "^========= ERROR SUMMARY: 1 error$" "--check=initcheck: once"
expect 5 "run --check=synccheck: a divergent barrier" -- "$X" run $S --kernel _Z17divergent_barrierPi --grid 1 --block 64 --arg buf:256 --check=synccheck
grep_in "$T/err" "^========= Barrier error detected. Divergent thread(s) in warp$" "--check=synccheck: the report"
expect 5 "run --check=synccheck: warps at different barriers" -- "$X" run $S --kernel _Z13split_barrierPi --grid 2 --block 64 --arg buf:256 --check=synccheck
grep_in "$T/err" "^========= Barrier error detected. Divergent thread(s) in block$" "--check=synccheck: the block report"
expect 5 "run: PTXVM_CHECK is read by the library" -- env PTXVM_CHECK=synccheck "$X" run $S --kernel _Z17divergent_barrierPi --grid 1 --block 64 --arg buf:256
grep_in "$T/err" "^========= ERROR SUMMARY: 1 error$" "PTXVM_CHECK: the summary"
expect 0 "run: without checks, no report" -- "$X" run $S --kernel _Z17divergent_barrierPi --grid 1 --block 64 --arg buf:256
expect 2 "run: --check with an unknown check" -- "$X" run $S --kernel _Z17divergent_barrierPi --grid 1 --block 64 --arg buf:256 --check=leakcheck
grep_in "$T/err" "bad --check 'leakcheck'" "--check: the unknown name"
expect 2 "run: two kernels, none named" -- "$X" run "$T/vadd.ptx" --grid 1 --block 1
grep_in "$T/err" "name one with --kernel: vadd oob" "run: the kernels are listed"
expect 2 "run: no such kernel" -- "$X" run "$T/vadd.ptx" --kernel nope --grid 1 --block 1
expect 2 "run: missing --grid" -- "$X" run "$T/vadd.ptx" --kernel oob --block 1 --arg buf:4
expect 2 "run: bad --block" -- "$X" run "$T/vadd.ptx" --kernel oob --grid 1 --block 0 --arg buf:4
# clusters: each CTA of a pair reads the other's shared memory (0..31)
expect 0 "run --cluster" -- "$X" run tests/ptx/cluster.ptx --kernel cluster_peek --grid 4 --block 32 \
	--cluster 2 --arg buf:128:out="$T/peek.bin" --arg u32:1
expect 0 "run --cluster: the other CTA's shared memory" -- python3 -c 'import struct,sys; sys.exit(struct.unpack("<32i", open(sys.argv[1], "rb").read()) != tuple(range(32)))' "$T/peek.bin"
expect 3 "run --cluster: mapa past the cluster" -- "$X" run tests/ptx/cluster.ptx --kernel cluster_peek --grid 4 \
	--block 32 --cluster 2 --arg buf:128 --arg u32:2
grep_in "$T/err" "CUDA_ERROR_ILLEGAL_ADDRESS: .*mapa to CTA rank 2 of a cluster of 2 CTAs" "run --cluster: the mapa report"
expect 2 "run: --cluster not dividing the grid" -- "$X" run tests/ptx/cluster.ptx --kernel cluster_peek --grid 3 \
	--block 32 --cluster 2 --arg buf:128 --arg u32:0
grep_in "$T/err" "not made of clusters of 2x1x1" "run: the cluster shape report"
# device launches: relocatable code runs with -c; a child's fault names both kernels
expect 3 "run -c: a fault in a grid launched from a kernel" -- "$X" run -c tests/ptx/cdp.rdc.ptx --kernel cdp_parent \
	--grid 1 --block 32 --arg u64:16 --arg buf:64 --arg s32:64
grep_in "$T/err" "CUDA_ERROR_ILLEGAL_ADDRESS: kernel 'cdp_add'.*launched from kernel 'cdp_parent'" "run -c: the child's report"
expect 1 "run: relocatable code without -c" -- "$X" run tests/ptx/cdp.rdc.ptx --kernel cdp_parent \
	--grid 1 --block 32 --arg u64:16 --arg buf:64 --arg s32:64
# arch-specific code: wgmma and setmaxnreg run on a device of that target only
expect 0 "run --arch sm_90a" -- "$X" run tests/ptx/wgmma.sm_90a.ptx --arch sm_90a --kernel regs --grid 1 --block 256 \
	--arg buf:1024:out="$T/regs.bin"
if [ "$(od -An -tu4 -j 1020 "$T/regs.bin" | tr -d ' ')" = "765" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: run --arch sm_90a: out[255] is $(od -An -tu4 -j 1020 "$T/regs.bin")"; fi
expect 1 "run: sm_90a code on the default sm_90 device" -- "$X" run tests/ptx/wgmma.sm_90a.ptx --kernel regs --grid 1 --block 256 --arg buf:1024
grep_in "$T/err" "sm_90a" "run: the refusal names the target"
expect 2 "run: an unknown --arch" -- "$X" run tests/ptx/wgmma.sm_90a.ptx --arch sm_91 --kernel regs --grid 1 --block 256 --arg buf:1024
expect 2 "run: bad --cluster" -- "$X" run tests/ptx/cluster.ptx --kernel cluster_peek --grid 2 --block 32 \
	--cluster 0 --arg buf:128 --arg u32:0
expect 2 "run: too many threads" -- "$X" run "$T/vadd.ptx" --kernel oob --grid 1 --block 2048 --arg buf:4
grep_in "$T/err" "at most 1024 threads" "run: the limit is named"
expect 2 "run: wrong argument count" -- "$X" run "$T/vadd.ptx" --kernel oob --grid 1 --block 1
expect 2 "run: a scalar where a buffer goes" -- "$X" run "$T/vadd.ptx" --kernel vadd --grid 1 --block 1 \
	--arg u32:1 --arg buf:4 --arg buf:4 --arg u32:1 --arg f32:1
grep_in "$T/err" "is 4 bytes but parameter 0 ('a', .u64) is 8" "run: the mismatch is named"
expect 2 "run: bad SPEC" -- "$X" run "$T/vadd.ptx" --kernel oob --grid 1 --block 1 --arg s8:300
grep_in "$T/err" "bad --arg 's8:300'" "run: the bad SPEC is named"
expect 2 "run: unreadable input" -- "$X" run "$T/vadd.ptx" --kernel oob --grid 1 --block 1 --arg buf:4:in="$T/none"
expect 1 "run: invalid PTX" -- "$X" run "$T/bad.ptx" --grid 1 --block 1
grep_in "$T/err" "^ptxvm run: CUDA_ERROR_INVALID_PTX: .*bad.ptx has 2 errors$" "run: invalid PTX says CUDA_ERROR_INVALID_PTX"
cat >"$T/spin.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.visible .entry spin()
{
L:
	bra.uni L;
}
P
expect 3 "run: the watchdog" -- "$X" run "$T/spin.ptx" --grid 1 --block 32 --timeout 0.3
grep_in "$T/err" "CUDA_ERROR_LAUNCH_TIMEOUT" "run: a timeout is named"

# ---- help, kernels by C++ name, typed arguments, several launches ----
section help
for c in check fmt run sass builtins; do
	expect 0 "$c --help" -- "$X" $c --help
	grep_in "$T/out" "^usage: ptxvm $c" "$c --help prints its usage"
	expect 0 "help $c" -- "$X" help $c
	grep_in "$T/out" "^usage: ptxvm $c" "help $c prints its usage"
done
expect 2 "help of no command" -- "$X" help frobnicate
grep_in "$T/err" "no command 'frobnicate'" "help: the unknown command is named"
"$X" run --help >"$T/help"
grep_in "$T/help" "the launch may run 60 s unless --timeout says" "run --help: the default time limit"
grep_in "$T/help" "4 valid PTX" "run --help: exit status 4"

section kernels
cat >"$T/cxx.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.global .align 4 .u32 gv;
.extern .func (.param .b64 r) malloc(.param .b64 n);
.visible .entry _Z5scaleIfEvPT_S0_i(.param .u64 x, .param .f32 a, .param .u32 n)
{
	.reg .pred %p;
	.reg .b32 %r<3>;
	.reg .f32 %f<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [x];
	ld.param.f32 %f1, [a];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	setp.ge.u32 %p, %r2, %r1;
	@%p bra DONE;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd1, %rd1, %rd2;
	ld.global.f32 %f2, [%rd1];
	mul.rn.f32 %f2, %f2, %f1;
	st.global.f32 [%rd1], %f2;
DONE:
	ret;
}
.visible .entry _Z5scaleIdEvPT_S0_i(.param .u64 x, .param .f64 a, .param .u32 n)
{
	ret;
}
.visible .entry _ZN2ns6offsetEPiNS_4PairE(.param .u64 out, .param .align 4 .b8 p[8])
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [p];
	ld.param.u32 %r2, [p+4];
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r2, %r3, %r1;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd1, %rd1, %rd2;
	st.global.u32 [%rd1], %r4;
	ret;
}
.visible .entry _Z5applyIZ4mainEUliE_EvT_Pi(.param .align 1 .b8 f[1], .param .u64 x)
{
	ret;
}
.visible .entry _Z5applyIZ4mainEUliE0_EvT_Pi(.param .align 1 .b8 f[1], .param .u64 x)
{
	ret;
}
.visible .entry bump()
{
	.reg .b32 %r;
	ld.global.u32 %r, [gv];
	add.u32 %r, %r, 1;
	st.global.u32 [gv], %r;
	ret;
}
.visible .entry heap()
{
	.reg .b64 %rd;
	.param .b64 n;
	.param .b64 r;
	st.param.b64 [n], 16;
	call (r), malloc, (n);
	ret;
}
P
expect 0 "run --list" -- "$X" run "$T/cxx.ptx" --list
grep_in "$T/out" "^void scale<float>(float\*, float, int)$" "--list: a template kernel's C++ name"
grep_in "$T/out" "^    --kernel _Z5scaleIfEvPT_S0_i$" "--list: its PTX name"
grep_in "$T/out" "^    1  .f32         4 bytes  float  a$" "--list: a parameter's PTX and C++ types and name"
grep_in "$T/out" "^ns::offset(int\*, ns::Pair)$" "--list: a namespace and a struct"
grep_in "$T/out" "^    1  .b8\[8\]       8 bytes  ns::Pair  p$" "--list: a struct by value"
grep_in "$T/out" "^void apply<main::{lambda(int)#2}>(main::{lambda(int)#2}, int\*)$" "--list: an extended lambda (a name local to main)"
# every kernel of the fixtures, corpora and examples, demangled as c++filt does
# (tests/demangle.txt: the PTX name, a tab, what c++filt printed for it)
for f in tests/corpus/ptx/*.ptx tests/ptx/*.ptx examples/*.ptx; do
	a=sm_90
	case "$f" in *.sm_90a.ptx) a=sm_90a ;; esac
	"$X" run "$f" --arch $a --list 2>/dev/null | awk '/^[^ ]/ { c = $0 } /^    --kernel / { print $2 "\t" c }'
done | LC_ALL=C sort -u >"$T/pairs"
if cmp -s "$T/pairs" tests/demangle.txt; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: --list C++ names differ from tests/demangle.txt:"; diff "$T/pairs" tests/demangle.txt | head -5; fi
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<4f", 1, 2, 3, 4))' >"$T/x4.bin"
for k in 'scale<float>' '_Z5scaleIfEvPT_S0_i' 'scale<float>(float*, float, int)' 'void scale<float>(float*, float, int)' 'scale<f'; do
	expect 0 "run --kernel '$k'" -- "$X" run "$T/cxx.ptx" --kernel "$k" --grid 1 --block 4 \
		--arg buf:16:in="$T/x4.bin":out=- --arg f32:2 --arg u32:4
	if [ "$(od -An -tf4 "$T/out" | tr -s ' ')" = " 2 4 6 8" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: --kernel '$k' out=- gives $(od -An -tf4 "$T/out")"; fi
done
expect 2 "run: an ambiguous --kernel" -- "$X" run "$T/cxx.ptx" --kernel scale --grid 1 --block 1 --arg buf:4 --arg f32:1 --arg u32:1
grep_in "$T/err" "'scale' names 2 kernels" "run: the ambiguous name is said"
grep_in "$T/err" "scale<double>(double\*, double, int)  (_Z5scaleIdEvPT_S0_i)" "run: the candidates are listed"
expect 2 "run: a misspelt --kernel" -- "$X" run "$T/cxx.ptx" --kernel 'scael<float>' --grid 1 --block 1
grep_in "$T/err" "no kernel named 'scael<float>' in the module; did you mean 'scale<float>(float\*, float, int)'" "run: the nearest name is suggested"
expect 2 "run: an integer for a float parameter" -- "$X" run "$T/cxx.ptx" --kernel 'scale<float>' --grid 1 --block 1 \
	--arg buf:4 --arg u32:2 --arg u32:1
grep_in "$T/err" "'u32:2' is an integer but parameter 1 ('a', .f32) is a float: write f32:VALUE, or b32:0x... for its bits" "run: the type mismatch is named"
expect 2 "run: a float for an integer parameter" -- "$X" run "$T/cxx.ptx" --kernel 'scale<float>' --grid 1 --block 1 \
	--arg buf:4 --arg f32:2 --arg f32:1
expect 2 "run: a buffer for a float parameter" -- "$X" run "$T/cxx.ptx" --kernel 'scale<double>' --grid 1 --block 1 \
	--arg buf:4 --arg buf:8 --arg u32:1
expect 0 "run: b32 bits for a float parameter, in= from stdin" -- sh -c "\"$X\" run \"$T/cxx.ptx\" --kernel 'scale<float>' \
	--grid 1 --block 4 --arg buf:16:in=-:out=\"$T/x3.bin\" --arg b32:0x40400000 --arg s32:4 <\"$T/x4.bin\""
if [ "$(od -An -tf4 "$T/x3.bin" | tr -s ' ')" = " 3 6 9 12" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: b32:0x40400000 gives $(od -An -tf4 "$T/x3.bin")"; fi
expect 2 "run: stdin read twice" -- sh -c "\"$X\" run \"$T/cxx.ptx\" --kernel 'scale<float>' --grid 1 --block 1 \
	--arg buf:4:in=-:pad --arg b32:0 --arg bytes:4:in=- </dev/null"
grep_in "$T/err" "stdin (in=-) is read by another argument already" "run: a second in=- is refused"
expect 2 "run: a bad --arg names the problem, not the grammar" -- "$X" run "$T/cxx.ptx" --kernel bump --grid 1 --block 1 --arg u8:256
grep_in "$T/err" "bad --arg 'u8:256': 256 is out of range for u8$" "run: the range is named"

section structs
expect 0 "run: a struct by value in hex" -- "$X" run "$T/cxx.ptx" --kernel ns::offset --grid 1 --block 4 \
	--arg buf:16:out="$T/o.bin" --arg bytes:0a00000003000000
if [ "$(od -An -tu4 "$T/o.bin" | tr -s ' ')" = " 10 13 16 19" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: bytes:HEX gives $(od -An -tu4 "$T/o.bin")"; fi
printf '\005\000\000\000\002\000\000\000' >"$T/pair.bin"
expect 0 "run: a struct by value from a file" -- "$X" run "$T/cxx.ptx" --kernel 'ns::offset(int*, ns::Pair)' --grid 1 --block 4 \
	--arg buf:16:out="$T/o.bin" --arg bytes:8:in="$T/pair.bin"
if [ "$(od -An -tu4 "$T/o.bin" | tr -s ' ')" = " 5 7 9 11" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: bytes:8:in= gives $(od -An -tu4 "$T/o.bin")"; fi
expect 2 "run: a struct of the wrong size" -- "$X" run "$T/cxx.ptx" --kernel ns::offset --grid 1 --block 1 \
	--arg buf:16 --arg bytes:0a000000
grep_in "$T/err" "'bytes:0a000000' is 4 bytes but parameter 1 ('p', .b8) is 8" "run: the struct size is named"

section launches
printf '\051\000\000\000' >"$T/gv.bin"
expect 0 "run: --global in and out over two launches" -- "$X" run "$T/cxx.ptx" --global gv:in="$T/gv.bin":out="$T/gv2.bin" \
	--kernel bump --grid 1 --block 1 --launch --kernel bump --grid 1 --block 1
if [ "$(od -An -tu4 "$T/gv2.bin" | tr -d ' ')" = "43" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: --global gives $(od -An -tu4 "$T/gv2.bin")"; fi
cat >"$T/const.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.const .align 4 .u32 factor;
.global .align 4 .u32 res;
.visible .entry k()
{
	.reg .b32 %r;
	ld.const.u32 %r, [factor];
	mul.lo.u32 %r, %r, 3;
	st.global.u32 [res], %r;
	ret;
}
P
printf '\007\000\000\000' >"$T/f.bin"
expect 0 "run: --global sets a __constant__ variable" -- "$X" run "$T/const.ptx" --global factor:in="$T/f.bin" \
	--global res:out=- --grid 1 --block 1
if [ "$(od -An -tu4 "$T/out" | tr -d ' ')" = "21" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: a __constant__ set by --global gives $(od -An -tu4 "$T/out")"; fi
printf abc >"$T/three"
expect 2 "run: --global in= of the wrong size" -- "$X" run "$T/const.ptx" --global factor:in="$T/three" --grid 1 --block 1
grep_in "$T/err" "has 3 bytes; the argument has 4 (add :pad" "run: the --global size mismatch is named"
expect 2 "run: --global of no variable" -- "$X" run "$T/cxx.ptx" --global nope --kernel bump --grid 1 --block 1
grep_in "$T/err" "no .global or .const variable named 'nope'" "run: the missing variable is named"
# one buffer, three launches, two of them through an alias 8 bytes in
expect 0 "run: launches over a named buffer and its alias" -- "$X" run "$T/cxx.ptx" --buf x:16:in="$T/x4.bin":out=- \
	--kernel 'scale<float>' --grid 1 --block 4 --arg @x --arg f32:2 --arg u32:4 \
	--launch --kernel 'scale<float>' --grid 1 --block 2 --arg @x+8 --arg f32:3 --arg u32:2 \
	--launch --kernel 'scale<float>' --grid 1 --block 1 --arg @x+12 --arg f32:0.5 --arg u32:1
if [ "$(od -An -tf4 "$T/out" | tr -s ' ')" = " 2 4 18 12" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: three launches give $(od -An -tf4 "$T/out")"; fi
# buffers as large as their files: buf:in=FILE, --buf NAME:in=FILE
expect 0 "run: buf:in=FILE takes the file's size" -- "$X" run "$T/cxx.ptx" --kernel 'scale<float>' --grid 1 --block 4 \
	--arg buf:in="$T/x4.bin":out=- --arg f32:4 --arg u32:4
if [ "$(od -An -tf4 "$T/out" | tr -s ' ')" = " 4 8 12 16" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: buf:in=FILE gives $(od -An -tf4 "$T/out")"; fi
expect 0 "run: --buf NAME:in=FILE takes the file's size" -- "$X" run "$T/cxx.ptx" --buf v:in="$T/x4.bin":out=- \
	--kernel 'scale<float>' --grid 1 --block 4 --arg @v --arg f32:-1 --arg u32:4
if [ "$(od -An -tf4 "$T/out" | tr -s ' ')" = " -1 -2 -3 -4" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: --buf v:in=FILE gives $(od -An -tf4 "$T/out")"; fi
: >"$T/empty"
expect 2 "run: buf:in= an empty file" -- "$X" run "$T/cxx.ptx" --kernel 'scale<float>' --grid 1 --block 4 \
	--arg buf:in="$T/empty" --arg f32:4 --arg u32:4
grep_in "$T/err" "is empty: a buffer has at least one byte" "run: the empty file is named"
expect 2 "run: @NAME of no --buf" -- "$X" run "$T/cxx.ptx" --kernel 'scale<float>' --grid 1 --block 1 --arg @y --arg f32:1 --arg u32:1
grep_in "$T/err" "no --buf named 'y'" "run: the missing buffer is named"
expect 2 "run: a launch without --grid" -- "$X" run "$T/cxx.ptx" --kernel bump --grid 1 --block 1 --launch --kernel bump --block 1
grep_in "$T/err" "each launch (between --launch options) needs --grid and --block" "run: the incomplete launch is named"
expect 0 "run: device malloc" -- "$X" run "$T/cxx.ptx" --kernel heap --grid 1 --block 1
cat >"$T/graphlaunch.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) cudaCGGetRank(.param .b64 rank, .param .b64 h);
.visible .entry k()
{
	.param .b64 pn;
	.param .b64 ph;
	.param .b32 r;
	st.param.b64 [pn], 1;
	st.param.b64 [ph], 0;
	call.uni (r), cudaCGGetRank, (pn, ph);
	ret;
}
P
expect 4 "run: valid PTX ptxvm cannot run yet" -- "$X" run -c "$T/graphlaunch.ptx" --grid 1 --block 1
grep_in "$T/err" "CUDA_ERROR_NOT_SUPPORTED: .*cudaCGGetRank" "run: exit 4 says CUDA_ERROR_NOT_SUPPORTED"

# ---- examples/host.c, the C interface's example, built as its comment says ----
section host
HCC=${CC:-cc}
if $HCC -std=gnu11 -Wall -Wextra -Werror examples/host.c -o "$T/host" -Iinclude -L"$B" -lptxvm \
	-Wl,-rpath,"$(cd "$B" && pwd)" $HOST_LDFLAGS 2>"$T/err"; then
	pass=$((pass + 1))
	expect 0 "host.c in the build tree" -- "$T/host" examples/scale.ptx
	grep_in "$T/out" "^scale<float>: 1000 elements, y\[999\] = 2497.5, [0-9]* warp instructions: ok$" "host.c: its result"
	expect 1 "host.c on an invalid module" -- "$T/host" examples/broken.ptx
	grep_in "$T/err" "broken.ptx:[0-9]*:[0-9]*: error: " "host.c: the diagnostics"
else
	fail=$((fail + 1))
	echo "FAIL cli: examples/host.c does not build in the build tree:"
	sed 's/^/    /' "$T/err" | head -5
fi
if command -v pkg-config >/dev/null; then
	make -s install B="$B" PREFIX="$T/prefix" >/dev/null 2>"$T/err" || { fail=$((fail + 1)); echo "FAIL cli: make install:"; head -3 "$T/err"; }
	export PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig"
	if $HCC examples/host.c -o "$T/host2" $(pkg-config --cflags --libs ptxvm) \
		-Wl,-rpath,"$(pkg-config --variable=libdir ptxvm)" $HOST_LDFLAGS 2>"$T/err"; then
		expect 0 "host.c built with pkg-config against make install" -- "$T/host2" examples/scale.ptx
		grep_in "$T/out" ": ok$" "host.c (installed): its result"
	else
		fail=$((fail + 1))
		echo "FAIL cli: examples/host.c does not build with pkg-config:"
		sed 's/^/    /' "$T/err" | head -5
	fi
	unset PKG_CONFIG_PATH
else
	echo "cli: pkg-config not found: examples/host.c is not built against an installed ptxvm"
fi

# docs/API.md names every function include/ptxvm.h declares
section docs
sed -n 's/^[a-z].*[ *]\(ptxvm_[a-z0-9_]*\)(.*/\1/p' include/ptxvm.h | sort -u >"$T/fns"
missing=$(for f in $(cat "$T/fns"); do grep -q "\b$f\b" docs/API.md || echo "$f"; done)
if [ "$(wc -l <"$T/fns")" -ge 80 ] && [ -z "$missing" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: docs/API.md does not name (of $(wc -l <"$T/fns") functions):" $missing; fi

# ---- the sandbox: calls, limits (docs/SECURITY.md) ----
section sandbox
cat >"$T/sandbox.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.visible .entry kern(.param .u32 x)
{
	ret;
}
.visible .entry callkern(.param .u64 out)
{
	.reg .b64 %rd;
	.param .b32 a;
	.param .b32 r;
	mov.u64 %rd, kern;
	P: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (r), %rd, (a), P;
	ret;
}
.visible .entry regs(.param .u64 out)
{
	.reg .b32 %r<200000000>;
	.reg .b64 %rd;
	ld.param.u64 %rd, [out];
	mov.u32 %r199999999, 5;
	st.global.u32 [%rd], %r199999999;
	ret;
}
.visible .entry local(.param .u64 out)
{
	.local .align 4 .b8 buf[4294967296];
	.reg .b32 %r;
	ld.local.u32 %r, [buf+4];
	ret;
}
.extern .shared .align 4 .b8 dyn[];
.visible .entry shared(.param .u64 out)
{
	.reg .b32 %r;
	ld.shared.u32 %r, [dyn];
	ret;
}
P
expect 3 "run: an indirect call to a kernel" -- "$X" run "$T/sandbox.ptx" --kernel callkern --grid 1 --block 1 --arg buf:4
grep_in "$T/err" "CUDA_ERROR_ILLEGAL_ADDRESS: kernel 'callkern', CTA (0,0,0), thread (0,0,0), call at .*sandbox.ptx:15: indirect call to 0x400000000000: 'kern' is a kernel (.entry); only .func functions can be called" "run: the call is refused with a report"
expect 0 "run: 200 M declared registers" -- "$X" run "$T/sandbox.ptx" --kernel regs --grid 2 --block 1024 --arg buf:4:out="$T/regs.bin"
expect 0 "run: the register holds its value" -- python3 -c 'import struct,sys; sys.exit(struct.unpack("<I", open(sys.argv[1], "rb").read()) != (5,))' "$T/regs.bin"
expect 3 "run: 4 GiB of .local a thread" -- "$X" run "$T/sandbox.ptx" --kernel local --grid 1 --block 1 --arg buf:4
grep_in "$T/err" "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.*kernel 'local': 4294967296 bytes of local variables and a 16384-byte call stack exceed the 524288 bytes" "run: local memory is not truncated"
expect 2 "run: shared memory past 227 KiB" -- "$X" run "$T/sandbox.ptx" --kernel shared --grid 1 --block 1 --shared 232449 --arg buf:4
grep_in "$T/err" "kernel 'shared': 0 bytes of static and 232449 of dynamic shared memory exceed the 232448 bytes" "run: the shared limit is named"
expect 0 "run: 227 KiB of shared memory" -- "$X" run "$T/sandbox.ptx" --kernel shared --grid 1 --block 1 --shared 232448 --arg buf:4
cat >"$T/predcall.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.func f(.reg .pred a)
{
	ret;
}
.visible .entry k()
{
	.reg .pred %p;
	setp.eq.u32 %p, 1, 1;
	call f, (%p);
	ret;
}
P
expect 1 "check: a .pred parameter of a called function" -- "$X" check "$T/predcall.ptx"
grep_in "$T/err" "predcall.ptx:4:20: error: passing predicate, 8-bit and 16-bit parameters to device functions is not supported: parameter 'a' of function 'f' is .pred" "check: ptxas's ABI rule"
cat >"$T/limits.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 big[4294967296];
.visible .entry k(.param .align 4 .b8 buf[4352], .param .u64 o)
{
	.reg .b32 %r;
	ld.shared.u32 %r, [big];
	ret;
}
P
expect 1 "check: a kernel's parameter space and static shared memory" -- "$X" check "$T/limits.ptx"
grep_in "$T/err" "limits.ptx:5:17: error: kernel 'k' uses too much parameter space (0x1108 bytes, 0x1100 max; up to 0x7ffc needs PTX ISA 8.1)" "check: parameter space"
grep_in "$T/err" "limits.ptx:5:17: error: kernel 'k' uses too much shared data (0x100000000 bytes, 0xc000 max)" "check: 4 GiB of .shared is not truncated"

section surfaces
# surfaces: examples/box_blur.ptx over a raw 8-bit image, checked by python
python3 -c 'import random,sys; random.seed(7); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(29 * 13)))' >"$T/img.raw"
expect 0 "run with surface arguments" -- "$X" run examples/box_blur.ptx --grid 2,2 --block 16,8 \
	--arg surf2d:u8x1:29x13:in="$T/img.raw" --arg surf2d:u8x1:29x13:out="$T/blur.raw" --arg s32:29 --arg s32:13
expect 0 "the blurred image is right" -- python3 -c '
import sys
d = open(sys.argv[1], "rb").read(); g = open(sys.argv[2], "rb").read(); W, H = 29, 13
c = lambda v, n: min(max(v, 0), n - 1)
sys.exit(any(g[y * W + x] != sum(d[c(y + j, H) * W + c(x + i, W)] for j in (-1, 0, 1) for i in (-1, 0, 1)) // 9
	     for y in range(H) for x in range(W)))' "$T/img.raw" "$T/blur.raw"
expect 2 "run: a bad surface SPEC" -- "$X" run examples/box_blur.ptx --grid 1 --block 1 \
	--arg surf2d:u8x3:4x4 --arg surf2d:u8x1:4x4 --arg s32:4 --arg s32:4
grep_in "$T/err" "bad --arg 'surf2d:u8x3:4x4'" "run: the bad surface SPEC is named"
# PNG: written, then read back exactly (blurring the PNG gives what blurring
# the same bytes raw gives); without libpng, a clear refusal
blur() { "$X" run examples/box_blur.ptx --grid 2,2 --block 16,8 --arg surf2d:u8x1:29x13:in="$1" \
	--arg surf2d:u8x1:29x13:out="$2" --arg s32:29 --arg s32:13; }
if blur "$T/img.raw" "$T/blur.png" 2>"$T/err"; then
	pass=$((pass + 1))
	expect 0 "run: a PNG as input" -- blur "$T/blur.png" "$T/twice.raw"
	expect 0 "run: the same bytes raw" -- blur "$T/blur.raw" "$T/twice2.raw"
	if cmp -s "$T/twice.raw" "$T/twice2.raw"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: a PNG does not read back exactly"; fi
	expect 2 "run: a PNG of the wrong size" -- "$X" run examples/box_blur.ptx --grid 1 --block 1 \
		--arg surf2d:u8x1:28x13:in="$T/blur.png" --arg surf2d:u8x1:4x4 --arg s32:4 --arg s32:4
	grep_in "$T/err" "is a 29x13 gray image of 8 bits; the array needs 28x13 gray of 8 bits" "run: the PNG mismatch is named"
	# 16-bit gray and 8-bit RGBA: raw -> PNG -> raw is exact
	cat >"$T/copy.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.visible .entry copy16(.param .u64 a, .param .u64 b)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	shl.b32 %r3, %r1, 1;
	suld.b.2d.b16.trap %r4, [%rd1, {%r3, %r2}];
	sust.b.2d.b16.trap [%rd2, {%r3, %r2}], %r4;
	ret;
}
.visible .entry copy32(.param .u64 a, .param .u64 b)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	shl.b32 %r3, %r1, 2;
	suld.b.2d.b32.trap %r4, [%rd1, {%r3, %r2}];
	sust.b.2d.b32.trap [%rd2, {%r3, %r2}], %r4;
	ret;
}
P
	python3 -c 'import random,sys; random.seed(3); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(8 * 6 * 4)))' >"$T/px.raw"
	for spec in copy16:u16x1 copy32:u8x4; do
		k=${spec%%:*} f=${spec#*:}
		expect 0 "run: $f to PNG" -- "$X" run "$T/copy.ptx" --kernel $k --grid 1 --block 8,6 \
			--arg surf2d:$f:8x6:in="$T/px.raw":truncate --arg surf2d:$f:8x6:out="$T/$k.png"
		expect 0 "run: $f from PNG" -- "$X" run "$T/copy.ptx" --kernel $k --grid 1 --block 8,6 \
			--arg surf2d:$f:8x6:in="$T/$k.png" --arg surf2d:$f:8x6:out="$T/$k.raw"
		n=$(($(wc -c <"$T/$k.raw")))
		if head -c $n "$T/px.raw" | cmp -s - "$T/$k.raw"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: $f does not survive a PNG round trip"; fi
	done
	# the IHDR's bit depth and colour type: 16-bit gray (0), 8-bit RGBA (6)
	for want in "copy16 16 0" "copy32 8 6"; do
		set -- $want
		got=$(od -An -tu1 -j 24 -N 2 "$T/$1.png" | tr -s ' ' ' ' | sed 's/^ //')
		if [ "$got" = "$2 $3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: $1.png has depth and colour type $got, expected $2 $3"; fi
	done
else
	grep_in "$T/err" "built without libpng" "run: PNG without libpng is refused clearly"
fi

section textures
# textures: examples/magnify.ptx at scale 1 reads every texel at its centre
# (the input comes back exactly); at scale 2, bilinear filtering of a
# 2x1 image, checked by python; bad texture SPECs are named
python3 -c 'import random,sys; random.seed(11); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(6 * 5 * 4)))' >"$T/rgba.raw"
expect 0 "run with a texture argument" -- "$X" run examples/magnify.ptx --grid 1 --block 8,8 \
	--arg tex2d:u8x4:6x5:in="$T/rgba.raw":filter=linear:readmode=float --arg surf2d:u8x4:6x5:out="$T/same.raw" \
	--arg s32:6 --arg s32:5 --arg f32:1
if cmp -s "$T/rgba.raw" "$T/same.raw"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: a texture read at texel centres does not give its texels"; fi
# a PNG as a texture's input: the picture written through a surface as a
# PNG, read back through a texture, gives the same bytes (without libpng,
# the refusal is checked with the surfaces above)
if "$X" run examples/magnify.ptx --grid 1 --block 8,8 --arg tex2d:u8x4:6x5:in="$T/rgba.raw":readmode=float \
	--arg surf2d:u8x4:6x5:out="$T/rgba.png" --arg s32:6 --arg s32:5 --arg f32:1 2>/dev/null; then
	expect 0 "run: a PNG texture" -- "$X" run examples/magnify.ptx --grid 1 --block 8,8 \
		--arg tex2d:u8x4:6x5:in="$T/rgba.png":readmode=float --arg surf2d:u8x4:6x5:out="$T/back.raw" \
		--arg s32:6 --arg s32:5 --arg f32:1
	if cmp -s "$T/rgba.raw" "$T/back.raw"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: a PNG texture does not read back its pixels"; fi
fi
printf '\000\000\000\377\377\200\100\377' >"$T/two.raw"
expect 0 "run: a bilinear texture, wrapped, normalized" -- "$X" run examples/magnify.ptx --grid 1 --block 4,1 \
	--arg tex2d:u8x4:2x1:in="$T/two.raw":filter=linear:readmode=float:address=wrap:normalized \
	--arg surf2d:u8x4:4x1:out="$T/four.raw" --arg s32:4 --arg s32:1 --arg f32:4
expect 0 "the filtered texels are right" -- python3 -c '
import sys
g = open(sys.argv[1], "rb").read(); t = [(0, 0, 0, 255), (255, 128, 64, 255)]
# x = (X + 0.5) / 4 normalized, times the width 2: 0.25, 0.75, 1.25, 1.75 texels;
# alpha of x - 0.5, in 1/256; wrap: texel -1 is texel 1
want = []
for X in range(4):
	u = (X + 0.5) / 4 * 2 - 0.5; i = int(u // 1); a = int((u - i) * 256 + 0.5)
	for k in range(4):
		f = ((256 - a) * t[i % 2][k] / 255 + a * t[(i + 1) % 2][k] / 255) / 256
		want.append(int(f * 255 + 0.5))
sys.exit(list(g) != want)' "$T/four.raw"
expect 2 "run: a texture takes no out=" -- "$X" run examples/magnify.ptx --grid 1 --block 1 \
	--arg tex2d:u8x4:2x1:out="$T/x.raw" --arg surf2d:u8x4:4x1 --arg s32:4 --arg s32:1 --arg f32:4
grep_in "$T/err" "bad --arg 'tex2d:u8x4:2x1:out=" "run: the texture with out= is named"
expect 2 "run: an unknown texture option" -- "$X" run examples/magnify.ptx --grid 1 --block 1 \
	--arg tex2d:u8x4:2x1:filter=cubic --arg surf2d:u8x4:4x1 --arg s32:4 --arg s32:1 --arg f32:4
grep_in "$T/err" "address=wrap|clamp|mirror|border" "run: the usage names the texture options"
expect 2 "run: linear filtering of integers is refused" -- "$X" run examples/magnify.ptx --grid 1 --block 1 \
	--arg tex2d:u8x4:2x1:filter=linear --arg surf2d:u8x4:4x1 --arg s32:4 --arg s32:1 --arg f32:4
grep_in "$T/err" "linear filtering needs a floating-point result" "run: the refused texture says why"
expect 3 "run: a texture where the kernel samples 2D from a 1D texture" -- "$X" run examples/magnify.ptx --grid 1 \
	--block 1 --arg tex1d:f32x4:4 --arg surf2d:u8x4:4x1 --arg s32:4 --arg s32:1 --arg f32:4
grep_in "$T/err" "a 2D geometry on a texture that is not 2D" "run: the wrong texture kind is named"

section hostile
# hostile kernels and inputs: the time limit, the printf FIFO, bounded reads
for t in nan inf -inf -1 1e10 junk 5s ''; do
	expect 2 "run: --timeout '$t'" -- "$X" run "$T/ok.ptx" --grid 1 --block 1 --arg buf:4 --timeout "$t"
	grep_in "$T/err" "bad --timeout '$t': expected seconds from 0 to 1e9 (0: no limit)" "run: --timeout '$t' is refused"
done
"$X" --help >"$T/help"
grep_in "$T/help" "the launch may run 60 s unless --timeout says" "usage: the default time limit"
expect 3 "run: printf forever under --timeout 0.5" -- "$X" run tests/hostile/watchdog.ptx --kernel printf_wide \
	--grid 8 --block 1024 --timeout 0.5 --printf-fifo 1048576
grep_in "$T/err" "CUDA_ERROR_LAUNCH_TIMEOUT: kernel 'printf_wide', CTA (.*), thread (.*), .* at tests/hostile/watchdog.ptx:[0-9]*: the launch ran longer than its limit of 0.5 s" "run: the watchdog stops a printf loop"
if [ "$(wc -c <"$T/out")" -le 1048576 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: printf forever printed $(wc -c <"$T/out") bytes, more than the FIFO"; fi
grep_in "$T/err" "device printf calls dropped: the output exceeded the 1048576-byte printf FIFO" "run: dropped printf calls are counted"
expect 3 "run: atomics forever under --timeout 0.3" -- "$X" run tests/hostile/watchdog.ptx --kernel atom_storm \
	--grid 100000 --block 1024 --arg buf:8 --timeout 0.3
grep_in "$T/err" "CUDA_ERROR_LAUNCH_TIMEOUT: kernel 'atom_storm'" "run: the watchdog stops an atomics storm"
expect 0 "run: --printf-fifo 60" -- "$X" run tests/hostile/fifo.ptx --kernel lines --grid 3 --block 4 --arg buf:48 \
	--printf-fifo 60
printf 'cta 0 thread 0\ncta 0 thread 1\ncta 0 thread 2\ncta 0 thread 3\n' >"$T/want"
if cmp -s "$T/out" "$T/want"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: --printf-fifo 60 printed:"; sed 's/^/    /' "$T/out" | head -5; fi
grep_in "$T/err" "warning: 8 device printf calls dropped: the output exceeded the 60-byte printf FIFO" "run: --printf-fifo counts what it dropped"
for v in 0 -5 junk 99999999999; do
	expect 2 "run: --printf-fifo $v" -- "$X" run tests/hostile/fifo.ptx --kernel lines --grid 1 --block 1 --arg buf:4 --printf-fifo $v
	grep_in "$T/err" "bad --printf-fifo '$v'" "run: --printf-fifo $v is refused"
done
expect 0 "run: in=/dev/zero:truncate reads no more than the buffer" -- "$X" run "$T/ok.ptx" --grid 1 --block 1 \
	--arg buf:4096:in=/dev/zero:truncate:out="$T/z.bin"
if [ "$(wc -c <"$T/z.bin")" -eq 4096 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: in=/dev/zero: out= has $(wc -c <"$T/z.bin") bytes"; fi
expect 2 "run: a longer in= file is an error" -- "$X" run "$T/ok.ptx" --grid 1 --block 1 --arg buf:4096:in=/dev/zero
grep_in "$T/err" "'/dev/zero' is longer than the argument's 4096 bytes (add :truncate to use its first 4096)" "run: a longer in= file is named"
printf 'abc' >"$T/abc"
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\tret;\n}\n' >"$T/nop.ptx"
expect 2 "run: a shorter in= file is an error" -- "$X" run "$T/nop.ptx" --grid 1 --block 1 --arg buf:8:in="$T/abc"
grep_in "$T/err" "'$T/abc' has 3 bytes; the argument has 8 (add :pad to make the rest zero)" "run: a shorter in= file is named"
# PTX ISA 9.2 (CUDA 13.2's nvcc): run takes it as the driver does, check keeps to ptxas 13.0's 9.0
printf '.version 9.2\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %%rd<2>;\n\tld.param.u64 %%rd1, [p];\n\tst.global.u32 [%%rd1], 92;\n\tret;\n}\n' >"$T/v92.ptx"
expect 0 "run: PTX ISA 9.2" -- "$X" run "$T/v92.ptx" --grid 1 --block 1 --arg buf:4:out="$T/v92.out"
if [ "$(od -An -tu4 "$T/v92.out" | tr -d ' \n')" = 92 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: the 9.2 kernel wrote $(od -An -tu4 "$T/v92.out")"; fi
expect 1 "check: PTX ISA 9.2 is ptxas 13.0's error" -- "$X" check "$T/v92.ptx"
grep_in "$T/err" "unsupported PTX ISA .version 9.2 (the newest is 9.0)" "check: 9.2 is named"
sed 's/version 9.2/version 9.3/' "$T/v92.ptx" >"$T/v93.ptx"
expect 1 "run: PTX ISA 9.3 is refused" -- "$X" run "$T/v93.ptx" --grid 1 --block 1 --arg buf:4
grep_in "$T/err" "unsupported PTX ISA .version 9.3 (the newest is 9.2)" "run: 9.3 is named"
expect 0 "run: a shorter in= file with :pad" -- "$X" run "$T/nop.ptx" --grid 1 --block 1 --arg buf:8:in="$T/abc":pad:out="$T/abc.out"
if [ "$(od -An -tx1 "$T/abc.out" | tr -d ' \n')" = "6162630000000000" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: a shorter in= file gives $(od -An -tx1 "$T/abc.out")"; fi
expect 0 "run: a raw surface from /dev/zero" -- "$X" run examples/box_blur.ptx --grid 1 --block 4,4 \
	--arg surf2d:u8x1:4x4:in=/dev/zero:truncate --arg surf2d:u8x1:4x4 --arg s32:4 --arg s32:4
expect 2 "run: a raw surface from /dev/zero without :truncate" -- "$X" run examples/box_blur.ptx --grid 1 --block 4,4 \
	--arg surf2d:u8x1:4x4:in=/dev/zero --arg surf2d:u8x1:4x4 --arg s32:4 --arg s32:4
grep_in "$T/err" "is longer than the argument's 16 bytes" "run: a longer surface file is named"
expect 2 "run: in= a directory" -- "$X" run "$T/ok.ptx" --grid 1 --block 1 --arg buf:8:in="$T"
grep_in "$T/err" "cannot read '$T': Is a directory" "run: an unreadable in= file"
expect 2 "check: /dev/zero is refused, not read to the end of memory" -- "$X" check /dev/zero
grep_in "$T/err" "cannot read '/dev/zero': File too large" "check: an endless file"
if "$X" run examples/box_blur.ptx --grid 1 --block 4,4 --arg surf2d:u8x1:4x4 --arg surf2d:u8x1:4x4:out="$T/g.png" \
	--arg s32:4 --arg s32:4 2>/dev/null; then
	head -c 40 "$T/g.png" >"$T/cut.png"
	printf 'not a png at all' >"$T/junk.png"
	python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); i = d.find(b"IDAT"); d[i + 6] ^= 0xff; open(sys.argv[2], "wb").write(d)' "$T/g.png" "$T/bad.png"
	for png in "cut.png:Read Error" "junk.png:Not a PNG file" "bad.png:IDAT"; do
		f=${png%%:*} why=${png#*:}
		expect 2 "run: a broken PNG ($f)" -- "$X" run examples/box_blur.ptx --grid 1 --block 4,4 \
			--arg surf2d:u8x1:4x4:in="$T/$f" --arg surf2d:u8x1:4x4 --arg s32:4 --arg s32:4
		grep_in "$T/err" "'$T/$f' is not a readable PNG file: $why" "run: the broken PNG $f is named with libpng's reason"
	done
fi
awk 'BEGIN { printf ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"; for (i = 0; i < 100000; i++) print "{"; for (i = 0; i < 100000; i++) print "}"; print "}" }' >"$T/blocks.ptx"
expect 0 "fmt: 100,000 nested blocks" -- "$X" fmt "$T/blocks.ptx"
if [ "$(wc -c <"$T/out")" -lt 4000000 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: fmt of 100,000 nested blocks printed $(wc -c <"$T/out") bytes"; fi
awk 'BEGIN { for (i = 0; i < 50000; i++) printf "mem 0x%x 8\nshared 0x%x 4\n", 65536 + (50000 - i) * 16, 33554432 + i * 16; print "R1 = 0x10010"; print "R2 = 3"; print "ATOM.ADD R0, [R1], R2" }' >"$T/regions.sass"
expect 0 "sass: 50,000 regions and windows" -- "$X" sass "$T/regions.sass"
grep_in "$T/out" "^mem 0x10010 u32 0x00000003 0x00000000$" "sass: the ATOM of a file of 50,000 regions"

section builtins
# builtins: the listing, one builtin, usage errors; every --module checks
# clean, and assembles with ptxas where ptxas exists (make test-full; make
# test takes every 40th: the runner's builtins group checks and runs them all)
expect 0 "builtins" -- "$X" builtins
cp "$T/out" "$T/list"
if [ "$(wc -l <"$T/list")" -eq 1932 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL cli: builtins lists $(wc -l <"$T/list") lines, expected 1932"; fi
grep_in "$T/list" "^612	__nvvm_sust_b_2d_v2i32_zero	sust.b.2d.v2.b32.zero \[s, {x, y}\], {c0, c1}$" "builtins: a store line"
grep_in "$T/list" "^647	__itex2DLayeredLod_float4	tex.level.a2d.v4.f32.f32 {d0, d1, d2, d3}, \[t, {layer, x, y, y}\], lod$" "builtins: a handler line"
expect 0 "builtins ID" -- "$X" builtins 529
grep_in "$T/out" "^name	__nvvm_sust_b_1d_i8_trap$" "builtins: ID 529 decomposed"
expect 0 "builtins handler name" -- "$X" builtins __isurfCubemapread_short2
grep_in "$T/out" "^ptx	suld.b.a2d.v2.b16.trap {d0, d1}, \[s, {face, x, y, y}\]$" "builtins: a cubemap read lowered"
grep_in "$T/out" "^operands	d0, d1, s, x, y, face$" "builtins: its operands"
expect 2 "builtins: unknown" -- "$X" builtins 700
grep_in "$T/err" "no builtin has ID '700'" "builtins: 700 refused with a reason"
expect 2 "builtins: long surface" -- "$X" builtins __isurf2Dread_long
grep_in "$T/err" "use int, or longlong for 64 bits" "builtins: the long rule explained"
expect 2 "builtins: usage" -- "$X" builtins --module
# by the CUDA function a user knows
expect 0 "builtins surf2Dwrite" -- "$X" builtins surf2Dwrite
grep_in "$T/out" "^__nvvm_sust_b_2d_v4i32_trap\|	__nvvm_sust_b_2d_v4i32_trap	sust.b.2d.v4.b32.trap" "builtins surf2Dwrite: a 2D store"
grep_in "$T/out" "	__isurf2Dwrite_v2_float4	" "builtins surf2Dwrite: the handler's 2D write"
if grep -q "_1d_\|__isurf3D\|read" "$T/out"; then fail=$((fail + 1)); echo "FAIL cli: builtins surf2Dwrite lists other builtins"; else pass=$((pass + 1)); fi
expect 0 "builtins tex2D" -- "$X" builtins tex2D
grep_in "$T/out" "	__itex2D_float4	tex.2d.v4.f32.f32 {d0, d1, d2, d3}, \[t, {x, y}\]$" "builtins tex2D: the float4 fetch"
if grep -q "Lod\|Layered\|Grad\|gather" "$T/out"; then fail=$((fail + 1)); echo "FAIL cli: builtins tex2D lists tex2DLod and others"; else pass=$((pass + 1)); fi
expect 0 "builtins tex2DGrad" -- "$X" builtins tex2DGrad
grep_in "$T/out" "	__itex2DGrad_v2_float	" "builtins tex2DGrad: the _v2 handler"
expect 2 "builtins: no such CUDA function" -- "$X" builtins tex9D
grep_in "$T/err" "no CUDA surface or texture function 'tex9D'" "builtins: the unknown function is named"
if [ -n "$PTXVM_TEST_FULL" ]; then
	cut -f2 "$T/list" >"$T/names"
else
	awk 'NR % 40 == 1 { print $2 }' "$T/list" >"$T/names"
	echo "cli: builtins: $(wc -l <"$T/names") of the $(wc -l <"$T/list") builtin modules through the command line; make test-full takes every one"
fi
bad=0
for name in $(cat "$T/names"); do
	"$X" builtins --module "$name" >"$T/b.ptx" && "$X" check "$T/b.ptx" >"$T/berr" 2>&1 ||
		{ bad=$((bad + 1)); echo "FAIL cli: builtins --module $name does not check:"; head -3 "$T/berr"; }
done
if [ $bad -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ -x "$PTXAS" ]; then
	bad=0
	for name in $(cat "$T/names"); do
		"$X" builtins --module "$name" >"$T/b.ptx" && "$PTXAS" -arch=sm_90 -o /dev/null "$T/b.ptx" 2>"$T/berr" ||
			{ bad=$((bad + 1)); echo "FAIL cli: ptxas rejects builtins --module $name:"; head -3 "$T/berr"; }
	done
	if [ $bad -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
else
	echo "cli: ptxas not found: the builtin modules are not assembled (set PTXAS=...)"
fi

section jit
# The compiling tier (src/jit) runs vadd and oob of the module above with
# the same results and the same fault report as the interpreter, says it
# ran compiled, finds its code in the cache the second time, and without a
# compiler falls back to the interpreter, saying why.
J="env PTXVM_CACHE_DIR=$B/jit-cache"
for t in jit no-jit; do
	expect 0 "run --$t vadd" -- $J "$X" run "$T/vadd.ptx" --kernel vadd --grid 2 --block 64 --$t --stats \
		--arg buf:400:in="$T/a.bin" --arg buf:400:in="$T/a.bin" --arg buf:400:out="$T/c-$t.bin" \
		--arg u32:100 --arg f32:2
	cp "$T/err" "$T/stats-$t"
	expect 3 "run --$t oob" -- $J "$X" run "$T/vadd.ptx" --kernel oob --grid 1 --block 1 --arg buf:64 --$t
	cp "$T/err" "$T/oob-$t"
done
grep_in "$T/stats-jit" '"compiled": true' "run --jit: compiled"
grep_in "$T/stats-no-jit" '"compiled": false, "jit_seconds": 0.000000, "jit_cache_hit": false, "jit_note": ""' \
	"run --no-jit: interpreted"
expect 0 "run --jit: the interpreter's results" -- cmp "$T/c-jit.bin" "$T/c-no-jit.bin"
expect 0 "run --jit: the interpreter's fault report" -- cmp "$T/oob-jit" "$T/oob-no-jit"
grep_in "$T/oob-jit" "CUDA_ERROR_ILLEGAL_ADDRESS: kernel 'oob', CTA (0,0,0), thread (0,0,0), ld.global.u32 at .*vadd.ptx:37:" \
	"run --jit: the fault names the instruction"
expect 0 "PTXVM_JIT=1: from the cache" -- env PTXVM_JIT=1 PTXVM_CACHE_DIR="$B/jit-cache" "$X" run "$T/vadd.ptx" \
	--kernel vadd --grid 2 --block 64 --stats --arg buf:400 --arg buf:400 --arg buf:400 --arg u32:100 --arg f32:2
grep_in "$T/err" '"compiled": true, "jit_seconds": [0-9.]*, "jit_cache_hit": true' "PTXVM_JIT=1: compiled, a cache hit"
expect 0 "run --jit without a compiler" -- env PTXVM_CC=/nonexistent/cc PTXVM_CACHE_DIR="$T/jc" PTXVM_LOG=1 \
	"$X" run "$T/vadd.ptx" --kernel vadd --grid 2 --block 64 --jit --stats --arg buf:400:in="$T/a.bin" \
	--arg buf:400:in="$T/a.bin" --arg buf:400:out="$T/c-nocc.bin" --arg u32:100 --arg f32:2
grep_in "$T/err" '"compiled": false.*"jit_note": "no C compiler' "without a compiler: interpreted, saying why"
grep_in "$T/err" "ptxvm: the compiling tier is off for" "without a compiler: PTXVM_LOG says so"
expect 0 "without a compiler: the same results" -- cmp "$T/c-nocc.bin" "$T/c-no-jit.bin"

# The tier's compiler: clang where PATH has it (here a clang that notes its
# runs and hands them to cc), unless PTXVM_CC names one.
mkdir -p "$T/ccbin"
printf '#!/bin/sh\necho "$@" >>"%s/clang-ran"\nexec cc "$@"\n' "$T" >"$T/ccbin/clang"
chmod +x "$T/ccbin/clang"
expect 0 "run --jit: clang on PATH" -- env PATH="$T/ccbin:$PATH" PTXVM_CACHE_DIR="$T/jcl" "$X" run "$T/vadd.ptx" \
	--kernel vadd --grid 2 --block 64 --jit --stats --arg buf:400 --arg buf:400 --arg buf:400 --arg u32:100 --arg f32:2
grep_in "$T/err" '"compiled": true' "clang on PATH: compiled"
expect 0 "clang on PATH: the tier ran it" -- test -s "$T/clang-ran"
rm -f "$T/clang-ran"
expect 0 "run --jit: PTXVM_CC=cc" -- env PATH="$T/ccbin:$PATH" PTXVM_CC=cc PTXVM_CACHE_DIR="$T/jcc" "$X" run \
	"$T/vadd.ptx" --kernel vadd --grid 2 --block 64 --jit --stats --arg buf:400 --arg buf:400 --arg buf:400 \
	--arg u32:100 --arg f32:2
grep_in "$T/err" '"compiled": true' "PTXVM_CC=cc: compiled"
expect 1 "PTXVM_CC=cc: clang not run" -- test -e "$T/clang-ran"

section
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
