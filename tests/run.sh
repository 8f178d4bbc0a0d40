#!/bin/sh
# run.sh BUILD [full]: every test of `make test` (with `full`, of `make
# test-full`: the slow sweeps too).  Each group's line ("group NAME  N
# passed, N failed, S s") appears as the group finishes; the last line is
# "N passed, N failed".
B=${1:-build}
if [ "$2" = full ]; then
	PTXVM_TEST_FULL=1 CUDA_HOST_FULL=1
	export PTXVM_TEST_FULL CUDA_HOST_FULL
fi
cd "$(dirname "$0")/.." || exit 2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
status=0
pass=0
fail=0
t0=$(date +%s.%N)
for t in "$B/tests/runner ." "tests/cli.sh $B" "tests/hw/run.sh $B" "tests/hw/printf.sh $B" "tests/cuda-driver/run.sh $B" "tests/cuda-host/run.sh $B"; do
	# the output as it comes, less the program's summary, which is added up
	{ $t 2>&1; echo $? >"$T/rc"; } | tee "$T/out" | grep --line-buffered -v '^\(runner\|cli\|hw\|hw-printf\|cuda-driver\|cuda-host\): [0-9]'
	[ "$(cat "$T/rc")" -eq 0 ] || status=1
	line=$(grep -E '^(runner|cli|hw|hw-printf|cuda-driver|cuda-host): [0-9]+ passed, [0-9]+ failed' "$T/out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "FAIL $t printed no summary"
		fail=$((fail + 1))
		continue
	fi
	p=$(echo "$line" | sed 's/^[a-z-]*: \([0-9]*\) passed.*/\1/')
	f=$(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
	echo "$line"
	pass=$((pass + p))
	fail=$((fail + f))
done
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f s\n", b - a }'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ $status -eq 0 ]
