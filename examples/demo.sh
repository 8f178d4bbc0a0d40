#!/bin/sh
# demo.sh BUILD: what ptxvm does today, self-checking.
set -e
X=${1:-build}/ptxvm
cd "$(dirname "$0")/.."

echo "== ptxvm check: the PTX nvcc made from tests/cuda/*.cu"
lines=$(cat tests/ptx/*.ptx | wc -l)
"$X" check tests/ptx/*.ptx
echo "   $(ls tests/ptx/*.ptx | wc -l) modules, $lines lines: all valid"

echo
echo "== ptxvm fmt examples/box_blur.ptx (canonical form, first lines of the kernel)"
"$X" fmt examples/box_blur.ptx >/tmp/ptxvm-demo.$$
sed -n '/^.visible .entry/,/^$/p' /tmp/ptxvm-demo.$$ | head -24
"$X" fmt /tmp/ptxvm-demo.$$ | cmp -s - /tmp/ptxvm-demo.$$ || { echo "fmt is not a fixed point"; exit 1; }
rm -f /tmp/ptxvm-demo.$$
echo "   ... (fmt of fmt is identical)"

echo
echo "== ptxvm check examples/broken.ptx: every problem, with a caret"
if "$X" check examples/broken.ptx; then
	echo "broken.ptx was accepted"; exit 1
fi
echo
echo "demo: ok"
