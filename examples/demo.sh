#!/bin/sh
# demo.sh BUILD: what ptxvm does today, self-checking: an image filtered
# through surfaces and written as a PNG, a divergent integer kernel, the
# checker and the printer.
set -e
X=${1:-build}/ptxvm
cd "$(dirname "$0")/.."
T=$(mktemp -d /tmp/ptxvm-demo.XXXXXX)
trap 'rm -rf "$T"' EXIT

echo "== ptxvm run examples/sobel.ptx: Sobel edges of a generated image, through surfaces"
W=256 H=192
OUT=${1:-build}/demo
mkdir -p "$OUT"
# a test image: rings around the centre, inverted in one corner
LC_ALL=C awk -v W=$W -v H=$H 'BEGIN { for (y = 0; y < H; y++) for (x = 0; x < W; x++) {
	v = int(sqrt((x - W / 2) ^ 2 + (y - H / 2) ^ 2) / 12) % 2 ? 200 : 40
	if (x > W * 3 / 4 && y > H * 2 / 3) v = 255 - v
	printf "%c", v } }' >"$T/in.raw"
run_sobel() {
	"$X" run examples/sobel.ptx --grid $(((W + 15) / 16)),$(((H + 7) / 8)) --block 16,8 \
		--arg surf2d:u8x1:${W}x$H:in="$T/in.raw" --arg surf2d:u8x1:${W}x$H:out="$1" --arg s32:$W --arg s32:$H
}
run_sobel "$T/edges.raw"
# every pixel recomputed by awk, borders clamped
od -An -tu1 -v "$T/in.raw" | tr -s ' ' '\n' | sed '/^$/d' >"$T/in.txt"
od -An -tu1 -v "$T/edges.raw" | tr -s ' ' '\n' | sed '/^$/d' >"$T/got.txt"
awk -v W=$W -v H=$H '
	function c(v, n) { return v < 0 ? 0 : v >= n ? n - 1 : v }
	function p(x, y) { return img[c(y, H) * W + c(x, W)] }
	{ img[NR - 1] = $1 }
	END { for (y = 0; y < H; y++) for (x = 0; x < W; x++) {
		gx = p(x+1,y-1) + 2*p(x+1,y) + p(x+1,y+1) - p(x-1,y-1) - 2*p(x-1,y) - p(x-1,y+1)
		gy = p(x-1,y+1) + 2*p(x,y+1) + p(x+1,y+1) - p(x-1,y-1) - 2*p(x,y-1) - p(x+1,y-1)
		m = (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy); print (m > 255 ? 255 : m) } }' "$T/in.txt" >"$T/want.txt"
cmp -s "$T/got.txt" "$T/want.txt" || { echo "the edges differ from awk's"; exit 1; }
echo "   ${W}x$H pixels, every one equal to awk's Sobel with clamped borders"
if run_sobel "$OUT/edges.png" 2>"$T/err"; then
	echo "   the edges are in $OUT/edges.png"
else
	# built without libpng: a PGM instead (a header and the raw bytes)
	{ printf 'P5\n%d %d\n255\n' $W $H; cat "$T/edges.raw"; } >"$OUT/edges.pgm"
	echo "   the edges are in $OUT/edges.pgm ($(sed -n 's/.*built without \(libpng\).*/no \1 in this build/p' "$T/err"))"
fi

echo
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
