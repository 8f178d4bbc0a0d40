#!/bin/sh
# run.sh BUILD: every test of `make test`; the last line is "N passed, N failed".
B=${1:-build}
cd "$(dirname "$0")/.." || exit 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
pass=0
fail=0
for t in "$B/tests/runner ." "tests/cli.sh $B" "tests/hw/run.sh $B" "tests/cuda-driver/run.sh $B" "tests/cuda-host/run.sh $B"; do
	$t >"$out" 2>&1 || status=1
	grep -v '^runner: [0-9]\|^cli: [0-9]\|^hw: [0-9]\|^cuda-driver: [0-9]\|^cuda-host: [0-9]' "$out"
	line=$(grep -E '^(runner|cli|hw|cuda-driver|cuda-host): [0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ $status -eq 0 ]
