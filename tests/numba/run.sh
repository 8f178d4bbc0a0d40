#!/bin/sh
# run.sh BUILD: Numba's CUDA target (numba-cuda from PyPI, with NVIDIA's
# NVVM from PyPI to compile Python to PTX) runs the unmodified kernels of
# kernels.py on ptxvm's BUILD/lib/libcuda.so.1.  The virtual environment
# is made once in BUILD/numba-venv (needs PyPI the first time).  Without
# ptxvm's libcuda.so.1 or python3's venv it says why and skips.
# Ends with "numba: N passed, N failed".
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
skip() { echo "numba: skipped: $1"; echo "numba: 0 passed, 0 failed"; exit 0; }
[ -f "$B/lib/libcuda.so.1" ] || skip "libcuda.so.1 not built ($B/lib/libcuda.so.1): Numba has no driver to run on"
V=$B/numba-venv
if [ ! -x "$V/bin/python" ] || ! "$V/bin/python" -c 'import numba.cuda' 2>/dev/null; then
	python3 -m venv "$V" || skip "python3 cannot make a virtual environment (install python3-venv)"
	"$V/bin/pip" install -q "numba-cuda[cu13]" numpy || {
		echo "FAIL numba: pip could not install numba-cuda[cu13]"
		echo "numba: 0 passed, 1 failed"
		exit 1
	}
fi
L=$(cd "$B/lib" && pwd)
# the NVIDIA bindings load libcuda.so.1 by name: the loader's path decides
LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} NUMBA_CUDA_DRIVER=$L/libcuda.so.1 \
	timeout 600 "$V/bin/python" tests/numba/kernels.py
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
	echo "FAIL numba: kernels.py ended with status $rc"
	echo "numba: 0 passed, 1 failed"
	exit 1
fi
exit $rc
