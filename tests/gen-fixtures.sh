#!/bin/sh
# Regenerate the PTX fixtures in tests/ptx/ from the CUDA sources in
# tests/cuda/, then check every fixture with ptxas.
#
#   tests/cuda/NAME.cu  --nvcc -arch=sm_90 -ptx-->  tests/ptx/NAME.ptx
#   (NAME.rdc.cu with -rdc=true, checked with ptxas -c; NAME.sm_90a.cu
#   with -arch=sm_90a)
#   examples/NAME.cu    --nvcc -arch=sm_90 -ptx-->  examples/NAME.ptx
#   tests/cuda-driver/link/NAME.rdc.cu  --(-rdc=true -lineinfo)-->  NAME.rdc.ptx
#
# Run from the repository root (the script also cds there itself).
# Without a CUDA toolkit the committed fixtures are kept and the script
# succeeds.  Environment overrides: NVCC, PTXAS, ARCH (default sm_90).

set -eu

cd "$(dirname "$0")/.."

ARCH=${ARCH:-sm_90}

if [ -z "${NVCC:-}" ]; then
    if command -v nvcc >/dev/null 2>&1; then
        NVCC=$(command -v nvcc)
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        NVCC=/usr/local/cuda/bin/nvcc
    else
        echo "gen-fixtures: nvcc not found; keeping the committed fixtures"
        exit 0
    fi
fi

if [ -z "${PTXAS:-}" ]; then
    if [ -x "$(dirname "$NVCC")/ptxas" ]; then
        PTXAS=$(dirname "$NVCC")/ptxas
    elif command -v ptxas >/dev/null 2>&1; then
        PTXAS=$(command -v ptxas)
    else
        echo "gen-fixtures: ptxas not found next to $NVCC" >&2
        exit 1
    fi
fi

mkdir -p tests/ptx

status=0
produced=""
for src in tests/cuda/*.cu; do
    [ -e "$src" ] || continue
    name=$(basename "$src" .cu)
    out="tests/ptx/$name.ptx"
    tmp="tests/ptx/.$name.ptx.tmp"
    # NAME.rdc.cu: relocatable device code (device launches), judged by
    # ptxas --compile-only
    rdc=""
    case "$name" in *.rdc) rdc="-rdc=true" ;; esac
    # NAME.sm_90a.cu: arch-specific code (wgmma), for that target
    arch=$ARCH
    case "$name" in *.sm_90a) arch=sm_90a ;; esac
    echo "gen-fixtures: nvcc -arch=$arch $rdc $src -> $out"
    if "$NVCC" -arch="$arch" -ptx $rdc -o "$tmp" "$src"; then
        mv -f "$tmp" "$out"
        produced="$produced $out"
    else
        rm -f "$tmp"
        echo "gen-fixtures: FAILED to compile $src" >&2
        status=1
    fi
done

# The examples' kernels: examples/NAME.cu -> examples/NAME.ptx
for src in examples/*.cu; do
    [ -e "$src" ] || continue
    out="${src%.cu}.ptx"
    tmp="$out.tmp"
    # NAME.rdc.cu: relocatable device code (device launches), judged by
    # ptxas --compile-only
    rdc=""
    case "$name" in *.rdc) rdc="-rdc=true" ;; esac
    echo "gen-fixtures: nvcc $rdc $src -> $out"
    if "$NVCC" -arch="$ARCH" -ptx $rdc -o "$tmp" "$src"; then
        mv -f "$tmp" "$out"
        produced="$produced $out"
    else
        rm -f "$tmp"
        echo "gen-fixtures: FAILED to compile $src" >&2
        status=1
    fi
done

# The driver test's link inputs: tests/cuda-driver/link/NAME.rdc.cu ->
# NAME.rdc.ptx, relocatable, with line information (.file, .loc)
for src in tests/cuda-driver/link/*.rdc.cu; do
    [ -e "$src" ] || continue
    out="${src%.cu}.ptx"
    tmp="$out.tmp"
    echo "gen-fixtures: nvcc -rdc=true -lineinfo $src -> $out"
    if "$NVCC" -arch="$ARCH" -ptx -rdc=true -lineinfo -o "$tmp" "$src"; then
        mv -f "$tmp" "$out"
        produced="$produced $out"
    else
        rm -f "$tmp"
        echo "gen-fixtures: FAILED to compile $src" >&2
        status=1
    fi
done

# Variants with debug information, so that .file, .loc and DWARF .section
# directives are fixtures too:  NAME.lineinfo.ptx (-lineinfo), NAME.debug.ptx (-G).
for spec in surfaces:-lineinfo:lineinfo functions:-G:debug sanitize:-lineinfo:lineinfo; do
    name=${spec%%:*}; rest=${spec#*:}; flag=${rest%%:*}; tag=${rest#*:}
    out="tests/ptx/$name.$tag.ptx"
    tmp="tests/ptx/.$name.$tag.ptx.tmp"
    echo "gen-fixtures: nvcc $flag tests/cuda/$name.cu -> $out"
    if "$NVCC" -arch="$ARCH" -ptx $flag -o "$tmp" "tests/cuda/$name.cu"; then
        mv -f "$tmp" "$out"
        produced="$produced $out"
    else
        rm -f "$tmp"
        echo "gen-fixtures: FAILED to compile tests/cuda/$name.cu with $flag" >&2
        status=1
    fi
done

for ptx in $produced; do
    c=""
    case "$ptx" in *.rdc.ptx) c="-c" ;; esac
    arch=$ARCH
    case "$ptx" in *.sm_90a.ptx) arch=sm_90a ;; esac
    if "$PTXAS" -arch="$arch" $c -o /dev/null "$ptx"; then
        echo "gen-fixtures: ptxas ok   $ptx"
    else
        echo "gen-fixtures: ptxas REJECTED $ptx" >&2
        status=1
    fi
done

exit $status
