#!/bin/sh
# exec.sh BUILD: execution throughput.  Runs kernels of
# tests/bench/suite.ptx (made by nvcc from suite.cu, committed, so no CUDA
# is needed) with `ptxvm run --stats` on 1 worker and on the default (every
# core), best of $RUNS (2) each, and the same computation in plain C
# (native.c, built here with ${CC:-cc} -O2, one thread, best of 3).  Prints
# thread-instructions per second, ptxvm's time on 1 worker against native C's
# and its peak RSS (--stats' peak_rss_kb: the buffers, no second copy), and fails if
# any ptxvm output differs from native C's: the kernels and native.c do the
# same float operations in the same order, so every result is exact.
set -e
B=${1:-build}
X="$B/ptxvm"
cd "$(dirname "$0")/../.."
K=tests/bench/suite.ptx
T=$(mktemp -d /tmp/ptxvm-exec.XXXXXX)
trap 'rm -rf "$T"' EXIT

# fmaf is one instruction where the CPU has FMA (otherwise a libm call);
# -ffp-contract=off: no other multiply-add may be fused
CFLAGS_NATIVE=${CFLAGS_NATIVE:-"-O2 -ffp-contract=off"}
if [ -z "$NO_MFMA" ] && grep -qw fma /proc/cpuinfo 2>/dev/null &&
	echo 'int main(void){return 0;}' | ${CC:-cc} -mfma -x c -o "$T/probe" - 2>/dev/null; then
	CFLAGS_NATIVE="$CFLAGS_NATIVE -mfma"
fi
N="$T/native"
echo "\$ ${CC:-cc} $CFLAGS_NATIVE -o native tests/bench/native.c -lm -lpthread"
${CC:-cc} $CFLAGS_NATIVE -o "$N" tests/bench/native.c -lm -lpthread

calc() { awk "BEGIN { print ($1) }"; }
field() { sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" "$2" | tail -n 1; }
show() { echo "$*" | sed "s|$T/|\$T/|g"; }
fail=0
RUNS=${RUNS:-2}     # ptxvm runs of each kind; the fastest counts
fma_it=0 fma_ratio=0 tex_ratio=0

# bench NAME NATIVE_OUT PTXVM_OUT GRID BLOCK ARGS...: ptxvm on 1 worker and
# on all (best of $RUNS each: the machine may be shared), native C (whose time
# is in $T/native.t), compare every run's output, print the line.
bench() {
	name=$1 want=$2 got=$3 grid=$4 block=$5
	shift 5
	show "\$ $X run $K --kernel $name --grid $grid --block $block $* --stats [--workers 1]"
	outs=
	for w in 1 all; do
		wopt=
		[ $w = all ] || wopt="--workers $w"
		: >"$T/stats.$w"
		r=1
		while [ $r -le "$RUNS" ]; do
			if ! "$X" run $K --kernel "$name" --grid "$grid" --block "$block" "$@" --stats $wopt \
				2>"$T/err"; then
				cat "$T/err"
				echo "$name: FAILED: ptxvm run exited with an error"
				fail=1
				return 0
			fi
			# keep the fastest run's stats
			s=$(field seconds "$T/err")
			if [ ! -s "$T/stats.$w" ] || [ "$(calc "$s < $(field seconds "$T/stats.$w")")" = 1 ]; then
				cp "$T/err" "$T/stats.$w"
			fi
			mv "$got" "$got.$w.$r"
			outs="$outs $w.$r"
			r=$((r + 1))
		done
	done
	ti=$(field thread_instructions "$T/stats.1")
	s1=$(field seconds "$T/stats.1")
	sa=$(field seconds "$T/stats.all")
	wa=$(field workers "$T/stats.all")
	nt=$(cat "$T/native.t")
	[ "$wa" = 1 ] && ws=worker || ws=workers
	ratio=$(calc "$s1 / $nt")
	rss=$(field peak_rss_kb "$T/stats.1")
	printf '%s: %.0f M thread-instr/s (%s %s), %.0f M/s (1 worker); native C %.3f s, ptxvm 1 worker %.2f s = %.1fx; peak RSS %.0f MiB\n' \
		"$name" "$(calc "$ti / $sa / 1e6")" "$wa" "$ws" "$(calc "$ti / $s1 / 1e6")" "$nt" "$s1" "$ratio" \
		"$(calc "${rss:-0} / 1024")"
	if [ "$name" = fma_loop ]; then
		fma_it=$(calc "$ti / $sa / 1e6")
		fma_ratio=$ratio
	fi
	[ "$name" = tex_resample ] && tex_ratio=$ratio
	for o in $outs; do
		if ! cmp -s "$want" "$got.$o"; then
			byte=$(cmp "$want" "$got.$o" 2>&1 | sed -n 's/.*differ: \(char\|byte\) \([0-9]*\).*/\2/p')
			echo "$name: FAILED: ptxvm's output (workers: ${o%.*}, run ${o#*.}) differs from native C's" \
				"from byte $byte (element $(((${byte:-1} - 1) / 4)))"
			fail=1
		fi
		rm -f "$got.$o"
	done
}

echo "ptxvm: the kernel's time from --stats, best of $RUNS runs; native C: one thread, best of 3"

# inputs: deterministic (native gen KIND COUNT SEED FILE)
M=1048576
"$N" gen f32 $((16 * M)) 1 "$T/a"
"$N" gen f32 $((16 * M)) 2 "$T/b"
"$N" gen u32 $((16 * M)) 3 "$T/h"

# 1. fma_loop: 512K threads, each a chain of 96 x 8 dependent FMAs
n=$((512 * 1024)) it=96
"$N" fma_loop $n $it "$T/fma.want" >"$T/native.t"
bench fma_loop "$T/fma.want" "$T/fma.got" $((n / 256)) 256 \
	--arg buf:$((4 * n)):out="$T/fma.got" --arg s32:$it

# 2. vec_add: 16M floats, c = a + b
n=$((16 * M))
"$N" vec_add $n "$T/a" "$T/b" "$T/add.want" >"$T/native.t"
bench vec_add "$T/add.want" "$T/add.got" $((n / 256)) 256 \
	--arg buf:$((4 * n)):in="$T/a" --arg buf:$((4 * n)):in="$T/b" \
	--arg buf:$((4 * n)):out="$T/add.got" --arg s32:$n

# 3. block_reduce: 4M floats, one 256-element tree sum per CTA
n=$((4 * M))
"$N" block_reduce $n "$T/a" "$T/red.want" >"$T/native.t"
bench block_reduce "$T/red.want" "$T/red.got" $((n / 256)) 256 \
	--arg buf:$((4 * n)):in="$T/a":truncate --arg buf:$((n / 64)):out="$T/red.got" --arg s32:$n

# 4. histogram: 16M words into 256 bins, 1024 CTAs of 256 threads, 64 words a
# thread; with atomics on global bins, then on bins in shared memory
n=$((16 * M))
"$N" histogram $n "$T/h" "$T/hist.want" >"$T/native.t"
for k in histogram histogram_shared; do
	bench $k "$T/hist.want" "$T/$k.got" 1024 256 \
		--arg buf:$((4 * n)):in="$T/h" --arg buf:1024:out="$T/$k.got" --arg s32:$n
done

# 5. tex_resample: a 1024 x 1024 f32 image magnified to 4096 x 4096 through a
# bilinear texture (clamped, unnormalized), 16 x 16 threads a CTA
sw=1024 w=4096
"$N" tex_resample $sw $sw $w $w 0.25 "$T/a" "$T/tex.want" >"$T/native.t"
bench tex_resample "$T/tex.want" "$T/tex.got" $((w / 16)),$((w / 16)) 16,16 \
	--arg tex2d:f32x1:${sw}x$sw:in="$T/a":truncate:filter=linear:address=clamp \
	--arg buf:$((4 * w * w)):out="$T/tex.got" --arg s32:$w --arg s32:$w --arg f32:0.25 --arg f32:0.25

# 6. atomic throughput: 64K threads, 64 atomic adds each, all on one counter
# (fully contended) or each on its own (uncontended); ptxvm on every core
# against C11 atomic_fetch_add from 2 threads doing the same adds
n=65536 it=64
for mode in contended spread; do
	k=atomic_$mode
	[ $mode = contended ] && bytes=4 || bytes=$((4 * n))
	nt=$("$N" atomics $mode $n $it "$T/$k.want")
	show "\$ $X run $K --kernel $k --grid $((n / 256)) --block 256 --arg buf:$bytes:out=\$T/$k.got --arg s32:$it --stats"
	"$X" run $K --kernel $k --grid $((n / 256)) --block 256 --arg buf:$bytes:out="$T/$k.got" --arg s32:$it \
		--stats 2>"$T/err" || { cat "$T/err"; fail=1; continue; }
	s=$(field seconds "$T/err")
	w=$(field workers "$T/err")
	if ! cmp -s "$T/$k.want" "$T/$k.got"; then
		echo "$k: FAILED: the counters differ from native C's"
		fail=1
	fi
	printf '%s: ptxvm %.0f M atomic adds/s (%s workers); C11 atomic_fetch_add from 2 threads %.0f M/s\n' \
		"$k" "$(calc "$n * $it / $s / 1e6")" "$w" "$(calc "$n * $it / $nt / 1e6")"
done

met() { [ "$(calc "$1")" = 1 ] && echo met || echo "not met"; }
printf 'target: >= 500 M thread-instructions/s on the FMA loop and at most 20x native C (now %.0f M/s: %s; %.1fx: %s)\n' \
	"$fma_it" "$(met "$fma_it >= 500")" "$fma_ratio" "$(met "$fma_ratio <= 20")"
printf 'target: bilinear texture resampling on 1 worker within 10x native C (now %.1fx: %s)\n' \
	"$tex_ratio" "$(met "$tex_ratio <= 10")"
if [ $fail != 0 ]; then
	echo "exec bench: FAILED (outputs differ)"
	exit 1
fi
echo "exec bench: all outputs equal native C's"
