#!/bin/sh
# run.sh BUILD: Numba's CUDA target (numba-cuda from PyPI, with NVIDIA's
# NVVM from PyPI to compile Python to PTX) and ptxvm.  The virtual
# environment is made once in BUILD/numba-venv (PyPI is needed then).
#   1. the PTX Numba makes for the kernels of kernels.py checks clean in
#      `ptxvm check`;
#   2. kernels.py runs them, unmodified, on ptxvm's BUILD/lib/libcuda.so.1
#      (skipped, saying why, while that library is not built).  It hides
#      nvJitLink from Numba, so that Numba links PTX through the driver's
#      cuLink* instead of making SASS.
# Ends with "numba: N passed, N failed".
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
pass=0
fail=0
done_() { echo "numba: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }
V=$B/numba-venv
# NVVM of CUDA 13.0 writes PTX ISA 9.0, the newest ptxvm reads; a venv made
# for other requirements is brought to these (the stamp says which it has)
REQ='numba-cuda[cu13] cuda-toolkit[cccl,cudart,nvrtc,nvvm]==13.0.* nvidia-nvjitlink==13.0.* numpy'
if [ "$(cat "$V/ptxvm-requirements" 2>/dev/null)" != "$REQ" ] || ! "$V/bin/python" -c 'import numba.cuda' 2>/dev/null; then
	[ -x "$V/bin/python" ] || python3 -m venv "$V" ||
		{ echo "numba: skipped: python3 cannot make a virtual environment (python3-venv)"; done_; }
	set -f # the brackets of $REQ are not patterns
	# shellcheck disable=SC2086
	if ! "$V/bin/pip" install -q $REQ; then
		echo "FAIL numba: pip could not install $REQ into $V"
		fail=1
		done_
	fi
	set +f
	echo "$REQ" >"$V/ptxvm-requirements"
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if "$V/bin/python" tests/numba/kernels.py --ptx "$T" >"$T/log" 2>&1; then
	for f in "$T"/*.ptx; do
		if "$B/ptxvm" check "$f" >"$T/check" 2>&1; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL numba: Numba's PTX for $(basename "$f" .ptx) does not check:"
			head -n 5 "$T/check" | sed 's/^/    /'
		fi
	done
else
	fail=$((fail + 1))
	echo "FAIL numba: Numba could not compile the kernels to PTX:"
	tail -n 5 "$T/log" | sed 's/^/    /'
fi

if [ ! -f "$B/lib/libcuda.so.1" ]; then
	echo "numba: skipped running the kernels: libcuda.so.1 not built ($B/lib/libcuda.so.1)"
	done_
fi
L=$(cd "$B/lib" && pwd)
# the NVIDIA bindings load libcuda.so.1 by name: the loader's path decides
LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} NUMBA_CUDA_DRIVER=$L/libcuda.so.1 \
	timeout 600 "$V/bin/python" tests/numba/kernels.py >"$T/run" 2>&1
rc=$?
cat "$T/run" | grep -v '^numba: [0-9]* passed'
line=$(grep -E '^numba: [0-9]+ passed, [0-9]+ failed' "$T/run" | tail -n 1)
if [ -z "$line" ]; then
	echo "FAIL numba: kernels.py ended with status $rc and no summary"
	fail=$((fail + 1))
else
	pass=$((pass + $(echo "$line" | sed 's/^numba: \([0-9]*\) passed.*/\1/')))
	fail=$((fail + $(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')))
fi
done_
