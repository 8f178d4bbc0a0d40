#!/bin/sh
# demo.sh BUILD: what ptxvm does today, self-checking: an image filtered
# through surfaces and written as a PNG, an image magnified through a
# bilinear texture, a divergent integer kernel, the checker and the
# printer.
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
echo "== ptxvm run examples/magnify.ptx: a 24x16 image magnified 8x through a bilinear texture"
SW=24 SH=16 S=8
BW=$((SW * S)) BH=$((SH * S))
# a small RGBA picture: a diagonal gradient, a red disc, a white frame
LC_ALL=C awk -v W=$SW -v H=$SH 'BEGIN { for (y = 0; y < H; y++) for (x = 0; x < W; x++) {
	r = 20 + 9 * x; g = 40 + 12 * y; b = 200 - 6 * x - 4 * y
	if ((x - 11.5) ^ 2 + (y - 7.5) ^ 2 < 26) { r = 230; g = 30; b = 40 }
	if (x == 0 || y == 0 || x == W - 1 || y == H - 1) r = g = b = 250
	printf "%c%c%c%c", r, g, b, 255 } }' >"$T/small.raw"
magnify() {
	"$X" run examples/magnify.ptx --grid $((($1 + 15) / 16)),$((($2 + 7) / 8)) --block 16,8 \
		--arg tex2d:u8x4:${SW}x$SH:in="$T/small.raw":filter=linear:readmode=float \
		--arg surf2d:u8x4:${1}x$2:out="$4" --arg s32:$1 --arg s32:$2 --arg f32:$3
}
magnify $BW $BH $S "$T/big.raw"
# every pixel recomputed by awk: Programming Guide bilinear filtering, alpha
# in 1/256, clamped edges (awk works in double, the texture unit's result is
# rounded to f32 first: equal within 1)
od -An -tu1 -v "$T/small.raw" | tr -s ' ' '\n' | sed '/^$/d' >"$T/small.txt"
od -An -tu1 -v "$T/big.raw" | tr -s ' ' '\n' | sed '/^$/d' >"$T/big.txt"
awk -v SW=$SW -v SH=$SH -v S=$S -v BW=$BW -v BH=$BH '
	function fl(v) { return v >= 0 ? int(v) : (v == int(v) ? v : int(v) - 1) }
	function c(v, n) { return v < 0 ? 0 : v >= n ? n - 1 : v }
	function t(x, y, k) { return img[(c(y, SH) * SW + c(x, SW)) * 4 + k] / 255 }
	NR == FNR { img[NR - 1] = $1; next }
	{ got[FNR - 1] = $1 }
	END { bad = 0
		for (Y = 0; Y < BH; Y++) for (X = 0; X < BW; X++) {
			u = (X + 0.5) / S - 0.5; v = (Y + 0.5) / S - 0.5
			i = fl(u); j = fl(v); a = int((u - i) * 256 + 0.5); b = int((v - j) * 256 + 0.5)
			for (k = 0; k < 4; k++) {
				f = ((256 - b) * ((256 - a) * t(i, j, k) + a * t(i + 1, j, k)) + b * ((256 - a) * t(i, j + 1, k) + a * t(i + 1, j + 1, k))) / 65536
				w = int(f * 255 + 0.5); d = got[(Y * BW + X) * 4 + k] - w
				if (d > 1 || d < -1) bad++ } }
		exit bad > 0 }' "$T/small.txt" "$T/big.txt" || { echo "the magnified image differs from awk's"; exit 1; }
echo "   ${BW}x$BH pixels, every one within 1 of awk's bilinear filter with alpha in 1/256"
if magnify $BW $BH $S "$OUT/magnified.png" 2>"$T/err"; then
	magnify $SW $SH 1 "$OUT/small.png"
	echo "   the picture is in $OUT/small.png, magnified in $OUT/magnified.png"
else
	{ printf 'P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n' $BW $BH; cat "$T/big.raw"; } >"$OUT/magnified.pam"
	echo "   the magnified picture is in $OUT/magnified.pam ($(sed -n 's/.*built without \(libpng\).*/no \1 in this build/p' "$T/err"))"
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
echo "== ptxvm check: tests/ptx (nvcc's PTX of tests/cuda/*.cu, and hand-written texture references)"
lines=$(cat tests/ptx/*.ptx | wc -l)
"$X" check $(ls tests/ptx/*.ptx | grep -v -e '\.rdc\.ptx$' -e '\.sm_90a\.ptx$')
# relocatable code (nvcc -rdc=true) calls the device runtime: checked as ptxas -c does
"$X" check -c tests/ptx/*.rdc.ptx
# arch-specific code (nvcc -arch=sm_90a: wgmma) is checked for that target
"$X" check --arch sm_90a tests/ptx/*.sm_90a.ptx
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
