#!/bin/sh
# run.sh BUILD: Python's CUDA clients besides Numba (tests/numba), from
# PyPI, unmodified, on ptxvm's BUILD/lib/libcuda.so.1:
#   1. cuda_bindings.py: cuda-python's driver and runtime bindings and
#      cuda.core, with NVRTC making PTX;
#   2. cupy_kernels.py: CuPy's arrays, reductions and user kernels.  CuPy
#      makes SASS unless CUPY_COMPILE_WITH_PTX=1, and its prebuilt CUB
#      kernels hold no PTX for the device (CUPY_ACCELERATORS= turns them
#      off): docs/CUDA.md, "Python";
#   3. CuPy left to make SASS fails loudly, with the driver's reason.
# The virtual environment is made once in BUILD/pyclients-venv (PyPI is
# needed then; without it, or without python3-venv, this says why and
# skips).  Ends with "pyclients: N passed, N failed".
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
pass=0
fail=0
done_() { echo "pyclients: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }
V=$B/pyclients-venv
# NVRTC of CUDA 13.0 writes PTX ISA 9.0, the newest ptxvm reads; a venv made
# for other requirements is brought to these (the stamp says which it has)
REQ='cuda-python==13.0.* cuda-core==1.* cupy-cuda13x==14.* cuda-toolkit[nvrtc,cudart]==13.0.* numpy'
if [ "$(cat "$V/ptxvm-requirements" 2>/dev/null)" != "$REQ" ] || ! "$V/bin/python" -c 'import cupy, cuda.bindings' 2>/dev/null; then
	[ -x "$V/bin/python" ] || python3 -m venv "$V" ||
		{ echo "pyclients: skipped: python3 cannot make a virtual environment (python3-venv)"; done_; }
	set -f # the brackets of $REQ are not patterns
	# shellcheck disable=SC2086
	if ! "$V/bin/pip" install -q $REQ >"$V/pip.log" 2>&1; then
		echo "pyclients: skipped: pip could not install $REQ into $V (is PyPI reachable?):"
		tail -n 3 "$V/pip.log" | sed 's/^/    /'
		done_
	fi
	set +f
	echo "$REQ" >"$V/ptxvm-requirements"
fi
if [ ! -f "$B/lib/libcuda.so.1" ]; then
	echo "pyclients: skipped: libcuda.so.1 not built ($B/lib/libcuda.so.1)"
	done_
fi
L=$(cd "$B/lib" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the NVIDIA bindings and CuPy load libcuda.so.1 by name: the loader's path
# decides; CuPy's kernel cache is this run's own
export LD_LIBRARY_PATH="$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CUPY_CACHE_DIR="$T/cupy-cache"

# run NAME SCRIPT [ENV...]: a script that ends with "NAME: N passed, N failed"
run() {
	name=$1 script=$2
	shift 2
	env "$@" timeout 900 "$V/bin/python" "$script" >"$T/run" 2>&1
	rc=$?
	grep -v "^$name: [0-9]* passed" "$T/run"
	line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed" "$T/run" | tail -n 1)
	if [ -z "$line" ]; then
		echo "FAIL pyclients: $script ended with status $rc and no summary"
		fail=$((fail + 1))
	else
		pass=$((pass + $(echo "$line" | sed 's/^[^:]*: \([0-9]*\) passed.*/\1/')))
		fail=$((fail + $(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')))
	fi
}
run cuda-python tests/pyclients/cuda_bindings.py
run cupy tests/pyclients/cupy_kernels.py CUPY_COMPILE_WITH_PTX=1 CUPY_ACCELERATORS=
run cupy-prebuilt tests/pyclients/cupy_prebuilt.py CUPY_COMPILE_WITH_PTX=1 CUPY_ACCELERATORS=cub PTXVM_ARCH=sm_120

# CuPy as installed makes cubins (SASS), which ptxvm refuses by name
env -u CUPY_COMPILE_WITH_PTX "$V/bin/python" -c 'import cupy; print(int(cupy.arange(5).sum()))' >"$T/sass" 2>&1
if grep -q 'CUDA_ERROR_NO_BINARY_FOR_GPU' "$T/sass" && grep -q 'the image is a cubin (SASS for sm_' "$T/sass"; then
	pass=$((pass + 1))
	echo "PASS pyclients: CuPy making SASS fails with: $(grep -o 'cuModuleLoadData: the image is a cubin[^,]*' "$T/sass" | head -n 1)"
else
	fail=$((fail + 1))
	echo "FAIL pyclients: CuPy making SASS did not fail with CUDA_ERROR_NO_BINARY_FOR_GPU and the driver's reason:"
	tail -n 3 "$T/sass" | sed 's/^/    /'
fi
done_
