#!/bin/sh
# run.sh BUILD: the driver library's tests.  Its export list against
# src/cuda/api.def (and api.def against the toolkit's headers where they
# are), then driver.c, built with cuda.h alone and run on BUILD/lib.
# The last line is "cuda-driver: N passed, N failed".
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
CUDA_INC=${CUDA_INC:-${CUDA_HOME:-/usr/local/cuda}/include}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cuda-driver: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Exactly the entry points of api.def are exported, nothing else.
sed -n 's/^CU_API([^,]*, [0-9]*, \([A-Za-z0-9_]*\), [0-9])$/\1/p' src/cuda/api.def | sort -u >"$tmp/want"
nm -D --defined-only "$B/lib/libcuda.so.1" | awk '{print $3}' | sort >"$tmp/have"
if cmp -s "$tmp/want" "$tmp/have"; then ok; else
	bad "exports differ from src/cuda/api.def:"; diff "$tmp/want" "$tmp/have" | head -20
fi

# A dlclose must not unmap the library: the launch workers' threads wait in
# its code for the next launch (src/exec/pool.c; the Makefile's -z nodelete).
if readelf -d "$B/lib/libcuda.so.1" 2>/dev/null | grep -q 'Flags:.*NODELETE'; then ok; else
	bad "libcuda.so.1 is not marked NODELETE (-Wl,-z,nodelete): a dlclose would unmap the code its pooled threads wait in"
fi

# docs/CUDA.md lists every entry point with its status, as the objects have it
tests/cuda-driver/status.sh "$B" >"$tmp/status"
sed -n '/^<!-- status begin/,/^<!-- status end/p' docs/CUDA.md >"$tmp/documented"
if cmp -s "$tmp/status" "$tmp/documented"; then ok; else
	bad "docs/CUDA.md's list of entry points is stale (tests/cuda-driver/status.sh $B --write)"
fi

if [ ! -f "$CUDA_INC/cuda.h" ] || [ ! -f "$CUDA_INC/cudaTypedefs.h" ]; then
	echo "cuda-driver: skipping driver.c and the api.def check: no cuda.h in $CUDA_INC (set CUDA_HOME)"
	echo "cuda-driver: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

# api.def is what gen-api.py makes from these headers.
if python3 src/cuda/gen-api.py "$CUDA_INC" >"$tmp/api.def" && cmp -s "$tmp/api.def" src/cuda/api.def; then ok; else
	bad "src/cuda/api.def is not what src/cuda/gen-api.py makes from $CUDA_INC"
fi

mkdir -p "$B/tests"
if ${CC:-cc} -std=gnu11 -Wall -Werror -I"$CUDA_INC" -o "$B/tests/cuda-driver" tests/cuda-driver/driver.c \
	-L"$B/lib" -lcuda -ldl $HOST_LDFLAGS; then
	ok
	# host objects and an archive of them for cuLink (nvcc -dc), where nvcc is
	NVCC=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
	objs=""
	if [ -x "$NVCC" ] && "$NVCC" -dc -arch=sm_90 -o "$tmp/main.o" tests/cuda-driver/link/main.rdc.cu &&
		"$NVCC" -dc -arch=sm_90 -o "$tmp/lib.o" tests/cuda-driver/link/lib.rdc.cu &&
		ar rcs "$tmp/liblink.a" "$tmp/lib.o"; then
		objs="$tmp/main.o $tmp/liblink.a"
	fi
	PTXVM_TEST_OBJECTS=$objs LD_LIBRARY_PATH="$B/lib" PTXVM_LOG=1 "$B/tests/cuda-driver" >"$tmp/out" 2>"$tmp/err"
	st=$?
	grep -v '^cuda-driver: [0-9]' "$tmp/out"
	line=$(grep -E '^cuda-driver: [0-9]+ passed, [0-9]+ failed' "$tmp/out" | tail -n 1)
	if [ -z "$line" ]; then
		bad "driver.c printed no summary (exit $st)"; cat "$tmp/err"
	else
		pass=$((pass + $(echo "$line" | sed 's/^[a-z-]*: \([0-9]*\) passed.*/\1/')))
		f=$(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
		fail=$((fail + f))
		[ "$st" -eq 0 ] || [ "$f" -ne 0 ] || bad "driver.c exited $st"
	fi
	# kernels and the host see one table of device attributes, whatever the target
	for arch in sm_80 sm_89 sm_100 sm_120; do
		PTXVM_ARCH=$arch LD_LIBRARY_PATH="$B/lib" "$B/tests/cuda-driver" attributes >"$tmp/attr" 2>&1
		st=$?
		line=$(grep -E '^cuda-driver: [0-9]+ passed, 0 failed' "$tmp/attr")
		if [ "$st" -eq 0 ] && [ -n "$line" ]; then ok; else
			bad "device attributes with PTXVM_ARCH=$arch (exit $st):"; cat "$tmp/attr"
		fi
	done
	# PTXVM_LOG=1: an unimplemented function names itself, once
	n=$(grep -c "cuGraphKernelNodeCopyAttributes is not supported" "$tmp/err")
	if [ "$n" -eq 1 ]; then ok; else bad "cuGraphKernelNodeCopyAttributes named $n times on stderr with PTXVM_LOG=1, want once"; fi
	# the fault is reported on stderr, naming the kernel and the PTX line
	if grep -q "kernel 'fault'.*module.ptx:[0-9]" "$tmp/err"; then ok; else
		bad "no fault report on stderr:"; cat "$tmp/err"
	fi
else
	bad "driver.c does not build against $CUDA_INC/cuda.h"
fi
echo "cuda-driver: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
