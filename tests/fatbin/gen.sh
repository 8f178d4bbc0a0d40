#!/bin/sh
# Regenerate the fat binary fixtures of the runner's fatbin group from
# vadd.cu with nvcc; without a toolkit the committed ones are kept.
#
#   plain.fatbin       -arch=sm_90: SASS sm_90 + PTX compute_90 (zstd, nvcc's default)
#   multi.fatbin       SASS and PTX for sm_80 and sm_90
#   multi-none.fatbin  the same, --compress-mode=none
#   sass.fatbin        SASS only, for sm_80 and sm_90
#   lz4.fatbin         --compress-mode=speed: LZ4
#   all-zstd.fatbin    -Xfatbin -compress-all: the cubin compressed too
#   all-lz4.fatbin     the same with LZ4
#   ptx100.fatbin      PTX for compute_100 only
#   sm90a.fatbin       -arch=sm_90a: PTX compute_90 and compute_90a, SASS sm_90a
#   ptx90a.fatbin      PTX for compute_90a only (arch-specific)
#   ptx100f.fatbin     PTX for compute_100f only (family)
#   debug.fatbin       -G: entries with 72- and 128-byte headers and a file name
#   rdc.fatbin         -rdc=true: a PTX entry with a 96-byte header (options)
#   lto.fatbin         -lto: PTX beside an LTO-IR entry (kind 8)
#   vadd.sm90.cubin    an ELF cubin
#   dlink.fatbin       the device-link image that a program built by
#                      `nvcc -arch=sm_90` (static runtime) registers besides
#                      its own: one cubin defining nothing, cut out of the
#                      program's .nv_fatbin section
#   vadd.compute_80.ptx, vadd.compute_90.ptx   the PTX entries of
#                      multi-none.fatbin, cut out here by offsets, as the
#                      references of what the parser returns
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
	echo "fatbin/gen.sh: nvcc not found; keeping the committed fixtures"
	exit 0
fi
both="-gencode arch=compute_80,code=[sm_80,compute_80] -gencode arch=compute_90,code=[sm_90,compute_90]"
"$NVCC" -fatbin -arch=sm_90 -o plain.fatbin vadd.cu
"$NVCC" -fatbin $both -o multi.fatbin vadd.cu
"$NVCC" -fatbin $both --compress-mode=none -o multi-none.fatbin vadd.cu
"$NVCC" -fatbin -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -o sass.fatbin vadd.cu
"$NVCC" -fatbin -arch=sm_90 --compress-mode=speed -o lz4.fatbin vadd.cu
"$NVCC" -fatbin -arch=sm_90 -Xfatbin -compress-all -o all-zstd.fatbin vadd.cu
"$NVCC" -fatbin -arch=sm_90 --compress-mode=speed -Xfatbin -compress-all -o all-lz4.fatbin vadd.cu
"$NVCC" -fatbin -arch=compute_100 -code=compute_100 -o ptx100.fatbin vadd.cu
"$NVCC" -fatbin -arch=sm_90a -o sm90a.fatbin vadd.cu
"$NVCC" -fatbin -arch=compute_90a -code=compute_90a -o ptx90a.fatbin vadd.cu
"$NVCC" -fatbin -arch=compute_100f -code=compute_100f -o ptx100f.fatbin vadd.cu
"$NVCC" -fatbin -arch=sm_90 -G -o debug.fatbin vadd.cu
"$NVCC" -fatbin -arch=sm_90 -rdc=true -o rdc.fatbin vadd.cu
"$NVCC" -fatbin -arch=sm_90 -lto -o lto.fatbin vadd.cu
"$NVCC" -cubin -arch=sm_90 -o vadd.sm90.cubin vadd.cu
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo 'int main(void) { return 0; }' >"$T/main.c"
"$NVCC" -arch=sm_90 -o "$T/prog" vadd.cu "$T/main.c"
python3 - "$T/prog" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<Q", d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
sec = [struct.unpack_from("<IIQQQQ", d, shoff + i * shentsize) for i in range(shnum)]
strtab = sec[shstrndx][4]
def name(s):
    return d[strtab + s[0]:d.index(b"\0", strtab + s[0])].decode()
fat = next(s for s in sec if name(s) == ".nv_fatbin")
p, end = fat[4], fat[4] + fat[5]
while p < end:
    hsz, size = struct.unpack_from("<6xHQ", d, p)
    q, kinds = p + hsz, []
    while q < p + hsz + size:
        kind, ehsz, psz = struct.unpack_from("<H2xIQ", d, q)
        kinds.append(kind)
        q += ehsz + psz
    if kinds == [2]:
        open("dlink.fatbin", "wb").write(d[p:p + hsz + size])
    p = (p + hsz + size + 7) // 8 * 8
PY
python3 - <<'PY'
import struct
d = open("multi-none.fatbin", "rb").read()
_, _, hsz, size = struct.unpack_from("<IHHQ", d, 0)
p = hsz
while p < hsz + size:
    kind, ehsz, psz = struct.unpack_from("<H2xIQ", d, p)
    arch, = struct.unpack_from("<I", d, p + 28)
    if kind == 1:
        text = d[p + ehsz:p + ehsz + psz].split(b"\0")[0]
        open("vadd.compute_%d.ptx" % arch, "wb").write(text)
    p += ehsz + psz
PY
