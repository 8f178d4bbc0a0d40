#!/bin/sh
# cuda.sh BUILD: the driver library's cost (tests/bench/cuda_launch.c):
# launch overhead through cuLaunchKernel against ptxvm_launch, and where
# nvcc exists a vector add through NVIDIA's runtime against the same PTX
# through the C API.  Skips, saying why, without cuda.h or nvcc.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f "$CUDA_HOME/include/cuda.h" ]; then
	echo "cuda bench: skipped: no cuda.h under $CUDA_HOME/include"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
${CC:-cc} -O2 -I"$CUDA_HOME/include" -o "$T/launch" tests/bench/cuda_launch.c "$B/libptxvm.a" -L"$B/lib" -lcuda \
	-lpthread -lm || exit 1
NVCC=${NVCC:-$(command -v nvcc || echo "$CUDA_HOME/bin/nvcc")}
if [ -x "$NVCC" ] && "$NVCC" -arch=sm_90 -o "$T/vecadd" tests/bench/cuda_vecadd.cu &&
	"$NVCC" -arch=sm_90 -ptx -o "$T/vecadd.ptx" tests/bench/cuda_vecadd.cu; then
	LD_LIBRARY_PATH="$B/lib" "$T/launch" "$T/vecadd.ptx" _Z6vecaddPKfS0_Pfj || exit 1
	LD_LIBRARY_PATH="$B/lib" "$T/vecadd" || exit 1
else
	LD_LIBRARY_PATH="$B/lib" "$T/launch" || exit 1
	echo "cuda bench: nvcc not found: no runtime vector add"
fi
