#!/bin/sh
# bench.sh BUILD: the front end's throughput.  Builds a module of at least
# 100,000 lines from the fixtures (for sm_90a, relocatable: gen.py), times
# `ptxvm check --arch sm_90a -c` on it (best of 5 runs, whole process), and
# times ptxas -arch=sm_90a -c on the same file where ptxas exists.  Prints
# lines per second and the ratio.  Then exec.sh: the
# execution engine's throughput against native C; cuda.sh: the CUDA driver
# layer; then suite.sh: kernels as ptxvm, plain C (1 and 2 threads) and
# PoCL in one run.
set -e
B=${1:-build}
X="$B/ptxvm"
cd "$(dirname "$0")/../.."
F=$(mktemp /tmp/ptxvm-bench.XXXXXX.ptx)
trap 'rm -f "$F" "$F.err"' EXIT
python3 tests/bench/gen.py "$F" 100000
lines=$(wc -l <"$F")
"$X" check --arch sm_90a -c "$F"

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
best=
for i in 1 2 3 4 5; do
	t0=$(now); "$X" check --arch sm_90a -c "$F"; t1=$(now)
	t=$(calc "$t1 - $t0")
	if [ -z "$best" ] || [ "$(calc "$t < $best")" = 1 ]; then best=$t; fi
done
printf 'ptxvm check -c: %d lines in %.3f s = %.2f M lines/s (best of 5, one core)\n' \
	"$lines" "$best" "$(calc "$lines / $best / 1000000")"

PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ -x "$PTXAS" ]; then
	t0=$(now)
	if "$PTXAS" -arch=sm_90a -c -o /dev/null "$F" 2>"$F.err"; then
		t1=$(now)
		pt=$(calc "$t1 - $t0")
		printf 'ptxas -arch=sm_90a -c: %.2f s; ptxvm check -c is %.0fx faster\n' "$pt" "$(calc "$pt / $best")"
	else
		# e.g. the copies of a debug fixture repeat its .file indices and
		# $L__info_string labels, which ptxas rejects and ptxvm check accepts
		echo "ptxas rejects the module ($(grep -c 'error' "$F.err") errors; first: $(grep -m1 error "$F.err" | sed 's/.*error *: *//')): no comparison"
	fi
	rm -f "$F.err"
else
	echo "ptxas not found: no comparison (set PTXAS=...)"
fi

echo
tests/bench/exec.sh "$B"

echo
tests/bench/cuda.sh "$B"

echo
tests/bench/suite.sh "$B"
