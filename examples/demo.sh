#!/bin/sh
# demo.sh BUILD: what ptxvm does today, self-checking.
set -e
X=${1:-build}/ptxvm
cd "$(dirname "$0")/.."
T=$(mktemp -d /tmp/ptxvm-demo.XXXXXX)
trap 'rm -rf "$T"' EXIT

echo "== ptxvm run examples/collatz.ptx: Collatz stopping times of 1..1,000,000 on the CPU"
N=1000000
"$X" run examples/collatz.ptx --grid $(( (N + 255) / 256 )) --block 256 \
	--arg u32:$N --arg buf:$((4 * N)):out="$T/steps" --arg buf:8:out="$T/best" --stats 2>"$T/stats"
set -- $(od -An -tu4 "$T/best")
n=$((4294967295 - $1)); s=$2
echo "   the longest: n = $n, $s steps"
[ "$n" = 837799 ] && [ "$s" = 524 ] || { echo "expected n = 837799 with 524 steps"; exit 1; }
# every stopping time of 1..2000, recomputed by awk
od -An -tu4 -v -N 8000 "$T/steps" | tr -s ' ' '\n' | sed '/^$/d' >"$T/got"
awk 'BEGIN { for (i = 1; i <= 2000; i++) { v = i; s = 0; while (v != 1) { v = v % 2 ? 3 * v + 1 : v / 2; s++ } print s } }' >"$T/want"
cmp -s "$T/got" "$T/want" || { echo "stopping times differ from awk's"; exit 1; }
echo "   stopping times of 1..2000 agree with awk"
sed 's/^/   /' "$T/stats"

echo
echo "== ptxvm check: the PTX nvcc made from tests/cuda/*.cu"
lines=$(cat tests/ptx/*.ptx | wc -l)
"$X" check tests/ptx/*.ptx
echo "   $(ls tests/ptx/*.ptx | wc -l) modules, $lines lines: all valid"

echo
echo "== ptxvm fmt examples/box_blur.ptx (canonical form, first lines of the kernel)"
"$X" fmt examples/box_blur.ptx >"$T/fmt.ptx"
sed -n '/^.visible .entry/,/^$/p' "$T/fmt.ptx" | head -24
"$X" fmt "$T/fmt.ptx" | cmp -s - "$T/fmt.ptx" || { echo "fmt is not a fixed point"; exit 1; }
echo "   ... (fmt of fmt is identical)"

echo
echo "== ptxvm check examples/broken.ptx: every problem, with a caret"
if "$X" check examples/broken.ptx; then
	echo "broken.ptx was accepted"; exit 1
fi
echo
echo "demo: ok"
