#!/bin/bash
# printf.sh BUILD: device printf's ground truth.  Builds tests/hw/printf.cu
# with nvcc, runs each of its modes on ptxvm's BUILD/lib/libcuda.so.1 and
# compares the output, byte for byte, with every golden file recorded on a
# GPU (tests/hw/golden/*.printf.txt).  Says why when it cannot.  Ends with
# "hw-printf: N passed, N failed".
#
# printf.sh --record NAME: on a machine with an NVIDIA GPU, runs the modes on
# its own driver and writes tests/hw/golden/NAME.printf.txt.
B=build
RECORD=
if [ "$1" = --record ]; then
	RECORD=$2
	[ -n "$RECORD" ] || { echo "usage: tests/hw/printf.sh --record NAME" >&2; exit 2; }
else
	B=${1:-build}
fi
cd "$(dirname "$0")/../.." || exit 2
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$(command -v nvcc || echo "$CUDA_HOME/bin/nvcc")}
MODES="formats|mixed|fifo_4096|fifo_600000|fifo_2097152"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
done_() { echo "hw-printf: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

# runs of lines "WORD N ..." with N counting up by one: the first and last
ranges() {
	awk 'function out() { if (n) print w " " a (n > 1 ? ".." b " (" n " lines)" : ""); n = 0 }
	     /^(small|wide) [0-9]+/ { if (n && $1 == w && $2 + 0 == b + 1) { b = $2; n++; next }
	                               out(); w = $1; a = b = $2; n = 1; next }
	     { out(); print } END { out() }'
}

# every mode in its own process, each preceded by "== MODE"
run_all() {
	for m in $(echo "$MODES" | tr '|' ' '); do
		echo "== $m"
		# shellcheck disable=SC2046
		{ timeout 60 "$T/printf" $(echo "$m" | tr _ ' ') 2>&1 || echo "exit status $?"; } | ranges
	done
}

if [ ! -x "$NVCC" ]; then
	echo "hw-printf: skipped: nvcc not found (set NVCC or CUDA_HOME): tests/hw/printf.cu cannot be built"
	[ -z "$RECORD" ] || exit 1
	done_
fi
if ! "$NVCC" -arch=sm_90 -diag-suppress 181,225,226 -o "$T/printf" tests/hw/printf.cu >"$T/err" 2>&1; then
	echo "FAIL hw-printf: nvcc cannot build tests/hw/printf.cu:"
	sed 's/^/    /' "$T/err" | head -5
	fail=$((fail + 1))
	[ -z "$RECORD" ] || exit 1
	done_
fi
if [ -n "$RECORD" ]; then
	mkdir -p tests/hw/golden
	run_all >"tests/hw/golden/$RECORD.printf.txt"
	echo "hw-printf: recorded tests/hw/golden/$RECORD.printf.txt ($(wc -l <"tests/hw/golden/$RECORD.printf.txt") lines)"
	exit 0
fi

golden=$(ls tests/hw/golden/*.printf.txt 2>/dev/null)
if [ -z "$golden" ]; then
	echo "hw-printf: no golden file recorded yet (tests/hw/golden/*.printf.txt; record one on a GPU: tests/hw/README.md): nothing compared"
	done_
fi
if [ ! -f "$B/lib/libcuda.so.1" ]; then
	echo "hw-printf: skipped: ptxvm's libcuda.so.1 is not built ($B/lib/libcuda.so.1): the program cannot run on ptxvm"
	done_
fi
# a sanitizer build's libcuda.so.1 needs the sanitizer's runtime, which
# nvcc's program does not carry: it is preloaded (as tests/cuda-host does)
pre=""
case " $HOST_LDFLAGS " in *-fsanitize=address*)
	pre=$(${CC:-cc} -print-file-name=libclang_rt.asan-x86_64.so) ;;
esac
LD_PRELOAD=$pre ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
	LD_LIBRARY_PATH=$(cd "$B/lib" && pwd) run_all >"$T/out"
# mode by mode, as tests/hw/run.sh compares its groups: a mode agrees, or
# differs in exactly as many lines as tests/hw/differences.txt says
known=0
section() { awk -v m="$2" '/^== / { on = ($2 == m); next } on' "$1"; }
for g in $golden; do
	name=$(basename "$g" | sed 's/\..*//')
	for m in $(echo "$MODES" | tr '|' ' '); do
		n=$(diff <(section "$g" "$m") <(section "$T/out" "$m") |
			awk '/^</ { a++ } /^>/ { b++ } END { print (a > b ? a : b) + 0 }')
		k=$(awk -v n="$name" -v g="$m" '$1 == "printf" && $2 == n && $3 == g { print $4; exit }' tests/hw/differences.txt)
		why=$(awk -v n="$name" -v g="$m" '$1 == "printf" && $2 == n && $3 == g { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print; exit }' tests/hw/differences.txt)
		if [ "$n" -eq 0 ] && [ -z "$k" ]; then
			pass=$((pass + 1))
		elif [ -n "$k" ] && [ "$n" -eq "$k" ]; then
			known=$((known + 1))
			echo "hw-printf: known difference: $m: $n lines differ from $name: $why"
		else
			fail=$((fail + 1))
			echo "FAIL hw-printf: $m: $n lines differ from $g${k:+, tests/hw/differences.txt says $k: update it}:"
			diff <(section "$g" "$m") <(section "$T/out" "$m") | grep '^[<>]' | head -n 4 |
				sed 's/^</    GPU:  /; s/^>/    ptxvm:/'
		fi
	done
done
done_
