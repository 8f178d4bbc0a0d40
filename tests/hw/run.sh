#!/bin/bash
# run.sh BUILD: hardware ground truth.  Builds tests/hw/probe.c (texture
# fetches) and tests/hw/isa.c (instruction results), both CUDA driver API,
# against ptxvm's libcuda.so.1 and compares their output, byte for byte,
# with every golden file recorded on a GPU under tests/hw/golden/: NAME.txt
# for the texture probe, NAME.isa.txt for the instruction probe.  Says so
# when it cannot (no cuda.h, no ptxvm libcuda, no golden file) instead of
# passing silently.  Ends with "hw: N passed, N failed".
#
# run.sh --record NAME: on a machine with an NVIDIA GPU, builds both probes
# against NVIDIA's libcuda and writes tests/hw/golden/NAME.txt and
# NAME.isa.txt (the outputs), NAME.isa.log (what the GPU's JIT said of the
# PTX it refused, if anything) and NAME.info (the GPU, the driver, the
# toolkit).  tests/hw/README.md.
B=build
RECORD=
if [ "$1" = --record ]; then
	RECORD=$2
	[ -n "$RECORD" ] || { echo "usage: tests/hw/run.sh --record NAME" >&2; exit 2; }
else
	B=${1:-build}
fi
cd "$(dirname "$0")/../.." || exit 2
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
# every group in its own process: one the GPU refuses leaves its error line
# and the others still run
probe_all() {
	for g in $("$1" --groups); do
		"$1" "$g" 2>>"$T/stderr"
	done
}
known=0
done_() {
	k=""
	[ "$known" -gt 0 ] && k=", $known groups with a known difference (tests/hw/differences.txt)"
	echo "hw: $pass passed, $fail failed$k"
	[ "$fail" -eq 0 ]
	exit $?
}

# compare GOLDEN OUT SRC: group by group (a line's first word), each group
# passes when it agrees line for line with the GPU's, or differs in exactly
# as many lines as tests/hw/differences.txt says, with the reason printed
# every time; a listed group that now agrees, or differs in another number
# of lines, fails, so that the list stays true.
compare() {
	name=$(basename "$1" | sed 's/\..*//')
	for grp in $(awk '!seen[$1]++ { print $1 }' "$1" "$2"); do
		n=$(diff <(awk -v g="$grp" '$1 == g' "$1") <(awk -v g="$grp" '$1 == g' "$2") |
			awk '/^</ { a++ } /^>/ { b++ } END { print (a > b ? a : b) + 0 }')
		k=$(awk -v p="$3" -v n="$name" -v g="$grp" '$1 == p && $2 == n && $3 == g { print $4; exit }' tests/hw/differences.txt)
		why=$(awk -v p="$3" -v n="$name" -v g="$grp" '$1 == p && $2 == n && $3 == g { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print; exit }' tests/hw/differences.txt)
		if [ "$n" -eq 0 ] && [ -z "$k" ]; then
			pass=$((pass + 1))
		elif [ -n "$k" ] && [ "$n" -eq "$k" ]; then
			known=$((known + 1))
			echo "hw: known difference: $3 $grp: $n lines differ from $name: $why"
		else
			fail=$((fail + 1))
			line=$(diff <(awk -v g="$grp" '$1 == g' "$1") <(awk -v g="$grp" '$1 == g' "$2") | grep -m 1 '^[<>]')
			if [ -n "$k" ]; then
				echo "FAIL hw: $3 $grp: $n lines differ from $1, tests/hw/differences.txt says $k: update it"
			else
				echo "FAIL hw: $3 $grp: $n lines differ from $1; the first:"
			fi
			diff <(awk -v g="$grp" '$1 == g' "$1") <(awk -v g="$grp" '$1 == g' "$2") | grep '^[<>]' | head -n 2 |
				sed 's/^</    GPU:  /; s/^>/    ptxvm:/'
		fi
	done
}
# the probes: source, golden file suffix (texture goldens are NAME.txt;
# NAME.WHAT.txt are other probes': isa, printf.sh's printf, attrs)
PROBES="probe:txt isa:isa.txt attrs:attrs.txt"
goldens() {
	if [ "$1" = txt ]; then
		ls tests/hw/golden/*.txt 2>/dev/null | grep -v -E '/[^/]*\.[^/]*\.txt$'
	else
		ls tests/hw/golden/*."$1" 2>/dev/null
	fi
}

if [ ! -f "$CUDA_HOME/include/cuda.h" ]; then
	echo "hw: skipped: no cuda.h under $CUDA_HOME/include (the probes are written against the CUDA driver API; set CUDA_HOME)"
	[ -z "$RECORD" ] || exit 1
	done_
fi

if [ -n "$RECORD" ]; then
	mkdir -p tests/hw/golden
	st=0
	for p in $PROBES; do
		src=${p%%:*} suf=${p#*:}
		out=tests/hw/golden/$RECORD.$suf
		if ! $CC -std=gnu11 -O2 -I"$CUDA_HOME/include" -o "$T/$src" "tests/hw/$src.c" -lcuda -lm; then
			echo "hw: tests/hw/$src.c does not build on this machine" >&2
			st=1
			continue
		fi
		: >"$T/stderr"
		CUDA_MODULE_LOADING=EAGER probe_all "$T/$src" >"$out"
		grep '^error' "$out" >&2
		[ "$src" = isa ] && rm -f "tests/hw/golden/$RECORD.isa.log" && [ -s "$T/stderr" ] && cp "$T/stderr" "tests/hw/golden/$RECORD.isa.log"
		echo "hw: recorded $out ($(wc -l <"$out") lines)"
	done
	{
		echo "recorded: $(date -u +%Y-%m-%dT%H:%MZ)"
		nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
		"$CUDA_HOME/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \(.*\),.*/toolkit: \1/p'
		echo "lines: $(wc -l <"tests/hw/golden/$RECORD.txt" 2>/dev/null)"
		echo "isa lines: $(wc -l <"tests/hw/golden/$RECORD.isa.txt" 2>/dev/null)"
	} >"tests/hw/golden/$RECORD.info"
	exit $st
fi

# the probes compile against this cuda.h (they cannot run without a libcuda)
for p in $PROBES; do
	src=${p%%:*}
	if $CC -std=gnu11 -Wall -Wextra -Werror -I"$CUDA_HOME/include" -fsyntax-only "tests/hw/$src.c" 2>"$T/err"; then
		pass=$((pass + 1))
	else
		echo "FAIL hw: tests/hw/$src.c does not compile against $CUDA_HOME/include/cuda.h:"
		sed 's/^/    /' "$T/err" | head -5
		fail=$((fail + 1))
	fi
done

# ptxvm's libcuda.so.1 (src/cuda)
LIB=
for d in "$B" "$B/cuda" "$B/lib"; do
	[ -f "$d/libcuda.so.1" ] && LIB=$d && break
done
for p in $PROBES; do
	src=${p%%:*} suf=${p#*:}
	golden=$(goldens "$suf")
	if [ -z "$golden" ]; then
		echo "hw: no golden *.$suf of tests/hw/$src.c recorded yet under tests/hw/golden (record one on a GPU: tests/hw/README.md): nothing compared"
	fi
	if [ -z "$LIB" ]; then
		echo "hw: skipped: ptxvm's libcuda.so.1 is not built ($B/libcuda.so.1): tests/hw/$src.c cannot run on ptxvm"
		continue
	fi
	if ! $CC -std=gnu11 -O2 -I"$CUDA_HOME/include" -o "$T/$src" "tests/hw/$src.c" -L"$LIB" -l:libcuda.so.1 -lm $HOST_LDFLAGS \
		-Wl,-rpath,"$(cd "$LIB" && pwd)" 2>"$T/err"; then
		echo "FAIL hw: tests/hw/$src.c does not build against $LIB/libcuda.so.1:"
		sed 's/^/    /' "$T/err" | head -5
		fail=$((fail + 1))
		continue
	fi
	probe_all "$T/$src" >"$T/out"
	# the texture probe stops at a refused call; the instruction probe
	# records refusals case by case, as the GPU's own refusals are recorded.
	# A refusal the GPU's recordings have too, line for line, is its answer.
	refused=$(grep '^error' "$T/out" | grep -v -x -F -f <(cat $golden /dev/null | grep '^error'))
	if [ "$src" = probe ] && [ -n "$refused" ]; then
		echo "FAIL hw: the probe failed on ptxvm: $(echo "$refused" | head -n 1)"
		fail=$((fail + 1))
	elif [ ! -s "$T/out" ]; then
		echo "FAIL hw: tests/hw/$src.c printed nothing on ptxvm: $(head -n 1 "$T/stderr")"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
	for g in $golden; do
		compare "$g" "$T/out" "$src"
	done
done
done_
