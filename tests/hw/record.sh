#!/bin/sh
# record.sh NAME [LOGDIR]: what a machine with an NVIDIA GPU records for
# ptxvm, in one go (tests/hw/README.md, "Recording on a GPU"):
#   - the probes' golden files: tests/hw/golden/NAME.* (run.sh --record,
#     printf.sh --record), to be committed;
#   - LOGDIR/cuda-host.log and cuda-host.tar.gz: tests/cuda-host's programs
#     run on the GPU's own driver (CUDA_HOST_NATIVE=1), which shows that
#     what they check is what the hardware does;
#   - LOGDIR/cuda-driver.log: the sections of tests/cuda-driver/driver.c
#     that hold on any driver (graph_memory, device_graphs), on the GPU's;
#   - LOGDIR/python.log: the Python clients' cases on the GPU (the two that
#     assert ptxvm's device name fail there by design);
#   - tests/hw/golden/NAME.native.txt, to be committed: the verdicts of
#     those runs (summaries and FAIL lines), what the logs come to;
#   - tests/hw/golden/NAME.isa-named.txt: tests/hw/isa.c's groups that run
#     only when named (mad1x, wmmaalign), to fold into NAME.isa.txt.
# LOGDIR defaults to build/hw-NAME.  Needs nvcc, cc and the NVIDIA driver.
NAME=$1
[ -n "$NAME" ] || { echo "usage: tests/hw/record.sh NAME [LOGDIR]" >&2; exit 2; }
cd "$(dirname "$0")/../.." || exit 2
LOG=${2:-build/hw-$NAME}
mkdir -p "$LOG"
st=0
{
	date -u
	nvidia-smi 2>&1 | head -n 20
} >"$LOG/machine.log"
tests/hw/run.sh --record "$NAME" || st=1
tests/hw/printf.sh --record "$NAME" || st=1
CUDA_HOST_NATIVE=1 JOBS=${JOBS:-$(nproc)} tests/cuda-host/run.sh build/hw-native >"$LOG/cuda-host.log" 2>&1
tail -n 1 "$LOG/cuda-host.log"
tar -czf "$LOG/cuda-host.tar.gz" --exclude='*.static' --exclude='*.shared' -C build/hw-native cuda-host
cc -std=gnu11 -I"${CUDA_HOME:-/usr/local/cuda}/include" -o "$LOG/cuda-driver" tests/cuda-driver/driver.c -lcuda -ldl &&
	"$LOG/cuda-driver" graph_memory >"$LOG/cuda-driver.log" 2>&1
tail -n 1 "$LOG/cuda-driver.log"
rm -f "$LOG/cuda-driver"
# the isa groups run only when named until a GPU has recorded them
# (tests/hw/isa.c): their output, to fold into NAME.isa.txt and the groups
if cc -std=gnu11 -O2 -I"${CUDA_HOME:-/usr/local/cuda}/include" -o "$LOG/isa" tests/hw/isa.c -lcuda -lm; then
	for g in mad1x wmmaalign; do
		"$LOG/isa" "$g"
	done >"tests/hw/golden/$NAME.isa-named.txt" 2>"$LOG/isa-named.log"
	echo "hw: recorded tests/hw/golden/$NAME.isa-named.txt ($(wc -l <"tests/hw/golden/$NAME.isa-named.txt") lines)"
	rm -f "$LOG/isa"
fi
{
	for t in tests/pyclients/cuda_bindings.py tests/pyclients/cupy_kernels.py tests/numba/kernels.py; do
		echo "== $t"
		PYTHONUNBUFFERED=1 timeout 300 python3 "$t" 2>&1 | tail -n 60
	done
} >"$LOG/python.log"
grep -E '^(== |[a-z-]+: [0-9]+ passed)' "$LOG/python.log"
{
	sed -n 's/^gpu: /gpu: /p' "tests/hw/golden/$NAME.info"
	for f in cuda-host cuda-driver python; do
		echo "== $f"
		grep -E '^(== |FAIL|[a-z-]+: [0-9]+ passed)' "$LOG/$f.log"
	done
} >"tests/hw/golden/$NAME.native.txt"
exit $st
