#!/bin/sh
# suite.sh BUILD: the three-form benchmark.  Each kernel of suite.cu runs as
# ptxvm on its committed PTX (1 and 2 workers, on the interpreter and on
# the compiling tier, whose compile time is the first round's: the later
# ones find the code in a cache of their own), as plain C (suite.c, built
# here with ${CC:-cc} -O2 -march=native -ffp-contract=off: one thread, and
# OpenMP with 2 threads) and, where an OpenCL platform is installed (PoCL:
# Debian's pocl-opencl-icd and ocl-icd-opencl-dev), as the OpenCL C of
# suite.cl.  Every form's output is compared with plain C's first (they must
# be equal byte for byte); the time of each form is the median of $ROUNDS
# rounds (3), the forms' order rotated from round to round; peak RSS is the
# largest of the rounds.  KERNELS and ONLY choose kernels and forms.
# Installs nothing.
set -e
B=${1:-build}
cd "$(dirname "$0")/../.."
T=$(mktemp -d /tmp/ptxvm-suite.XXXXXX)
trap 'rm -rf "$T"' EXIT
PTXVM_CACHE_DIR=$T/cache
export PTXVM_CACHE_DIR
ROUNDS=${ROUNDS:-3}
KERNELS=${KERNELS:-"vec_add saxpy fma_loop block_reduce histogram histogram_shared matmul stencil5 collatz"}

OCL=
if pkg-config --exists OpenCL 2>/dev/null && echo '#include <CL/cl.h>' | ${CC:-cc} -E -x c - >/dev/null 2>&1; then
	OCL="-DWITH_OPENCL $(pkg-config --libs OpenCL)"
fi
OMP=-fopenmp
echo 'int main(void){return 0;}' | ${CC:-cc} -fopenmp -x c -o "$T/probe" - 2>/dev/null || OMP=
CMD="${CC:-cc} -O2 -march=native -ffp-contract=off $OMP -o suite tests/bench/suite.c $B/libptxvm.a ${OCL:+$OCL }-lpthread -lm"
echo "\$ $CMD"
${CC:-cc} -O2 -march=native -ffp-contract=off $OMP ${OCL%% *} -o "$T/suite" tests/bench/suite.c "$B/libptxvm.a" \
	${OCL#* } -lpthread -lm
FORMS="c ptxvm1 ptxvm2 jit1 jit2"
[ -n "$OMP" ] && FORMS="$FORMS omp" || echo "no OpenMP (-fopenmp): the 2-thread C column is empty"
if [ -n "$OCL" ] && "$T/suite" ocl vec_add "$T/probe.out" >/dev/null 2>"$T/err"; then
	FORMS="$FORMS ocl"
	echo "OpenCL: $("$T/suite" ocl-platform)"
else
	echo "PoCL: not measured ($( [ -n "$OCL" ] && sed -n 1p "$T/err" || echo 'no OpenCL headers or library: install pocl-opencl-icd ocl-icd-opencl-dev'))"
fi
rm -f "$T/probe.out"
# ONLY="ptxvm1 ...": plain C and these forms alone (e.g. an older build's ptxvm)
[ -n "$ONLY" ] && FORMS="c $ONLY"

median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { print ($1) }"; }
fail=0
echo "rounds: $ROUNDS, median time of each form, forms rotated; outputs compared with plain C's"
printf '| kernel | C 1 thread | C OpenMP 2 | PoCL | ptxvm 1 worker | ptxvm 2 | ptxvm 1w / C | ptxvm 1w / PoCL | 2w speedup | compiled 1w | compiled 2w | compiled 1w / C | compiled 1w / PoCL | compiled 2w speedup | compile | peak RSS ptxvm / C |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for k in $KERNELS; do
	set -- $FORMS
	n=$#
	for r in $(seq 1 "$ROUNDS"); do
		# rotate: round r starts at form (r - 1) mod n
		i=0 order=
		for f in $FORMS; do order="$order $f"; done
		j=0
		while [ $j -lt $(((r - 1) % n)) ]; do
			order="$(echo $order | cut -d' ' -f2-) $(echo $order | cut -d' ' -f1)"
			j=$((j + 1))
		done
		for f in $order; do
			if ! "$T/suite" "$f" "$k" "$T/$k.$f.out" >"$T/res" 2>"$T/err"; then
				echo "$k ($f): FAILED: $(cat "$T/err")"
				fail=1
				continue
			fi
			read -r s rss cs <"$T/res"
			echo "$s" >>"$T/$k.$f.t"
			echo "$cs" >>"$T/$k.$f.cs"
			echo "$rss" >>"$T/$k.$f.rss"
		done
		for f in $FORMS; do
			[ "$f" = c ] || [ ! -f "$T/$k.$f.out" ] && continue
			if ! cmp -s "$T/$k.c.out" "$T/$k.$f.out"; then
				echo "$k: FAILED: the output of $f differs from plain C's"
				fail=1
			fi
		done
	done
	for f in c omp ocl ptxvm1 ptxvm2 jit1 jit2; do
		if [ -f "$T/$k.$f.t" ]; then
			eval "t_$f=$(median <"$T/$k.$f.t")"
			eval "m_$f=$(sort -n "$T/$k.$f.rss" | tail -n 1)"
		else
			eval "t_$f="
			eval "m_$f="
		fi
	done
	sec() { [ -n "$1" ] && printf '%.3f s' "$1" || printf -- '-'; }
	rat() { [ -n "$1" ] && [ -n "$2" ] && printf '%.1fx' "$(calc "$1 / $2")" || printf -- '-'; }
	cs=$(cat "$T/$k.jit1.cs" "$T/$k.jit2.cs" 2>/dev/null | sort -n | tail -n 1)
	printf '| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s MiB |\n' "$k" \
		"$(sec "$t_c")" "$(sec "$t_omp")" \
		"$(sec "$t_ocl")" "$(sec "$t_ptxvm1")" "$(sec "$t_ptxvm2")" "$(rat "$t_ptxvm1" "$t_c")" \
		"$(rat "$t_ptxvm1" "$t_ocl")" "$(rat "$t_ptxvm1" "$t_ptxvm2")" \
		"$(sec "$t_jit1")" "$(sec "$t_jit2")" "$(rat "$t_jit1" "$t_c")" "$(rat "$t_jit1" "$t_ocl")" \
		"$(rat "$t_jit1" "$t_jit2")" "$(sec "$cs")" \
		"$(calc "int(${m_ptxvm1:-0} / 1024 + 0.5)")" "$(calc "int(${m_c:-0} / 1024 + 0.5)")"
done
if [ $fail != 0 ]; then
	echo "suite: FAILED"
	exit 1
fi
echo "suite: every output equals plain C's"
