#!/bin/sh
# run.sh BUILD: the CUDA programs of tests/cuda-host (*.cu), built by nvcc
# with NVIDIA's runtime linked statically (nvcc's default) and shared
# (-cudart shared), and run against ptxvm's BUILD/lib/libcuda.so.1.  A
# program passes when it exits 0, prints PASS lines and no FAIL line, and
# its output holds the lines of NAME.expected, in their order, where there
# is one.  A program's first line "// nvcc-flags: FLAGS" adds nvcc flags
# and further sources (rdc.cu: -rdc=true and a second file, in a
# subdirectory so that it is not taken for a program).
# Binaries are cached in BUILD/cuda-host (rebuilt when a source is newer);
# builds and runs go in parallel.  Every program runs statically linked;
# the shared linkage runs for $SHARED (all with CUDA_HOST_FULL=1).
# Without nvcc or ptxvm's libcuda.so.1 it says why and skips.
# CUDA_HOST_NATIVE=1 runs the programs on the machine's own driver instead
# (a GPU's: tests/hw/README.md), to show that what they check is what the
# hardware does.
# Ends with "cuda-host: N passed, N failed".
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
SHARED="vector_add errors printf streams graphs rdc dynamic_parallelism device_graphs"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$(command -v nvcc || echo "$CUDA_HOME/bin/nvcc")}
ARCH=${ARCH:-sm_90}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
OUT=$B/cuda-host
pass=0
fail=0
done_() { echo "cuda-host: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

# run.sh --one BUILD NAME LINK: builds (if stale) and runs one program;
# prints nothing, leaves OUT/NAME.LINK.{build,out,rc}
if [ "$1" = --one ]; then
	B=$2 OUT=$2/cuda-host
	name=$3 link=$4 bin=$OUT/$3.$4 src=tests/cuda-host/$3.cu
	# a first line "// nvcc-flags: ..." adds flags and sources (-rdc=true)
	flags=$(sed -n '1s|^// nvcc-flags: ||p' "$src")
	stale=""
	# and the sources it includes (conditional_whole.cu: another program)
	incl=$(sed -n 's|^#include "\(.*\.cu\)"$|tests/cuda-host/\1|p' "$src")
	for f in $src tests/cuda-host/check.h $(printf '%s\n' $flags | grep '\.cu$') $incl; do
		[ "$f" -nt "$bin" ] && stale=1
	done
	if [ ! -x "$bin" ] || [ -n "$stale" ]; then
		# the toolkit's libraries (the shared runtime, cuBLAS) found where they are
		rt="-Xlinker -rpath=$(dirname "$(dirname "$NVCC")")/lib64"
		[ "$link" = shared ] && rt="-cudart shared $rt"
		if ! "$NVCC" -arch="$ARCH" $rt $flags -o "$bin.tmp" "$src" >"$OUT/$name.$link.build" 2>&1; then
			echo build >"$OUT/$name.$link.rc"
			exit 0
		fi
		mv "$bin.tmp" "$bin"
	fi
	# A sanitizer build's libcuda.so.1 needs the sanitizer's runtime, which
	# nvcc's programs do not carry: it is preloaded (their leaks are not ours).
	pre=""
	case " $HOST_LDFLAGS " in *-fsanitize=address*)
		pre=$(${CC:-cc} -print-file-name=libclang_rt.asan-x86_64.so) ;;
	esac
	lib=$(cd "$B/lib" 2>/dev/null && pwd)
	[ -n "${CUDA_HOST_NATIVE:-}" ] && lib=""
	LD_PRELOAD=$pre ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
	LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 120 "$bin" \
		>"$OUT/$name.$link.out" 2>&1
	echo $? >"$OUT/$name.$link.rc"
	exit 0
fi

if [ ! -x "$NVCC" ]; then
	echo "cuda-host: skipped: nvcc not found (set NVCC or CUDA_HOME): the programs cannot be built"
	done_
fi
if [ -z "${CUDA_HOST_NATIVE:-}" ] && [ ! -f "$B/lib/libcuda.so.1" ]; then
	echo "cuda-host: skipped: libcuda.so.1 not built ($B/lib/libcuda.so.1): the programs have no driver to run on"
	done_
fi
mkdir -p "$OUT"
list=""
for src in tests/cuda-host/*.cu; do
	name=$(basename "$src" .cu)
	list="$list $name.static"
	case " $SHARED " in *" $name "*) list="$list $name.shared" ;; *) [ -n "${CUDA_HOST_FULL:-}" ] && list="$list $name.shared" ;; esac
done
rm -f "$OUT"/*.rc
printf '%s\n' $list | sed 's/\./ /' | NVCC=$NVCC ARCH=$ARCH xargs -P "$JOBS" -n 2 "$0" --one "$B"

for t in $list; do
	name=${t%.*}
	rc=$(cat "$OUT/$t.rc" 2>/dev/null || echo none)
	why=""
	if [ "$rc" = build ]; then
		why="nvcc failed: $(head -n 3 "$OUT/$t.build" | tr '\n' ' ')"
	elif [ "$rc" != 0 ]; then
		why="exit status $rc"
	elif grep -q '^FAIL' "$OUT/$t.out"; then
		why="a check failed"
	elif ! grep -q '^PASS' "$OUT/$t.out"; then
		why="no check ran"
	elif [ -f "tests/cuda-host/$name.expected" ]; then
		from=1  # each expected line comes after the one before it
		while IFS= read -r line; do
			n=$(tail -n "+$from" "$OUT/$t.out" | grep -nxF -m 1 -- "$line" | cut -d: -f1)
			[ -n "$n" ] || { why="output lacks the line '$line' after its line $((from - 1))"; break; }
			from=$((from + n))
		done <"tests/cuda-host/$name.expected"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL cuda-host: $t: $why (output: $OUT/$t.out)"
		[ -f "$OUT/$t.out" ] && grep -E '^FAIL|rror|ptxvm' "$OUT/$t.out" | head -n 5 | sed 's/^/    /'
	fi
done
done_
