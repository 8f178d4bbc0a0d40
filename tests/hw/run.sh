#!/bin/sh
# run.sh BUILD: texture ground truth.  Builds tests/hw/probe.c (CUDA driver
# API) against ptxvm's libcuda.so.1 and compares its output, byte for byte,
# with every golden file recorded on a GPU under tests/hw/golden/.  Says so
# when it cannot (no cuda.h, no ptxvm libcuda, no golden file) instead of
# passing silently.  Ends with "hw: N passed, N failed".
#
# run.sh --record NAME: on a machine with an NVIDIA GPU, builds the probe
# against NVIDIA's libcuda and writes tests/hw/golden/NAME.txt (the output)
# and NAME.info (the GPU, the driver, the toolkit).  tests/hw/README.md.
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
done_() { echo "hw: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

if [ ! -f "$CUDA_HOME/include/cuda.h" ]; then
	echo "hw: skipped: no cuda.h under $CUDA_HOME/include (the probe is written against the CUDA driver API; set CUDA_HOME)"
	[ -z "$RECORD" ] || exit 1
	done_
fi

if [ -n "$RECORD" ]; then
	mkdir -p tests/hw/golden
	$CC -std=gnu11 -O2 -I"$CUDA_HOME/include" -o "$T/probe" tests/hw/probe.c -lcuda -lm || exit 1
	CUDA_MODULE_LOADING=EAGER probe_all "$T/probe" >"tests/hw/golden/$RECORD.txt"
	grep '^error' "tests/hw/golden/$RECORD.txt" >&2
	{
		echo "recorded: $(date -u +%Y-%m-%dT%H:%MZ)"
		nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
		"$CUDA_HOME/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \(.*\),.*/toolkit: \1/p'
		echo "lines: $(wc -l <"tests/hw/golden/$RECORD.txt")"
	} >"tests/hw/golden/$RECORD.info"
	echo "hw: recorded tests/hw/golden/$RECORD.txt ($(wc -l <"tests/hw/golden/$RECORD.txt") fetches)"
	exit 0
fi

# the probe compiles against this cuda.h (it cannot run without a libcuda)
if $CC -std=gnu11 -Wall -Wextra -Werror -I"$CUDA_HOME/include" -fsyntax-only tests/hw/probe.c 2>"$T/err"; then
	pass=$((pass + 1))
else
	echo "FAIL hw: the probe does not compile against $CUDA_HOME/include/cuda.h:"
	sed 's/^/    /' "$T/err" | head -5
	fail=$((fail + 1))
fi

# ptxvm's libcuda.so.1 (src/cuda)
LIB=
for d in "$B" "$B/cuda" "$B/lib"; do
	[ -f "$d/libcuda.so.1" ] && LIB=$d && break
done
golden=$(ls tests/hw/golden/*.txt 2>/dev/null)
if [ -z "$golden" ]; then
	echo "hw: no golden file recorded yet under tests/hw/golden (record one on a GPU: tests/hw/README.md): nothing compared"
fi
if [ -z "$LIB" ]; then
	echo "hw: skipped: ptxvm's libcuda.so.1 is not built ($B/libcuda.so.1): the probe cannot run on ptxvm"
	done_
fi
if ! $CC -std=gnu11 -O2 -I"$CUDA_HOME/include" -o "$T/probe" tests/hw/probe.c -L"$LIB" -l:libcuda.so.1 -lm $HOST_LDFLAGS \
	-Wl,-rpath,"$(cd "$LIB" && pwd)" 2>"$T/err"; then
	echo "FAIL hw: the probe does not build against $LIB/libcuda.so.1:"
	sed 's/^/    /' "$T/err" | head -5
	fail=$((fail + 1))
	done_
fi
probe_all "$T/probe" >"$T/out"
if grep -q '^error' "$T/out"; then
	echo "FAIL hw: the probe failed on ptxvm: $(grep '^error' "$T/out" | head -n 1)"
	fail=$((fail + 1))
else
	pass=$((pass + 1))
fi
for g in $golden; do
	if cmp -s "$g" "$T/out"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		line=$(cmp "$g" "$T/out" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
		echo "FAIL hw: ptxvm differs from $g from line ${line:-?} ($(wc -l <"$T/out") lines, $(wc -l <"$g") recorded):"
		echo "    GPU:   $(sed -n "${line:-1}p" "$g")"
		echo "    ptxvm: $(sed -n "${line:-1}p" "$T/out")"
	fi
done
done_
