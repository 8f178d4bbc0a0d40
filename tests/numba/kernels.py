"""Unmodified Numba CUDA kernels on whatever libcuda.so.1 the loader finds
(tests/numba/run.sh points it at ptxvm's).  Each check prints PASS or FAIL
with what it compared; the references are computed by numpy on the host.
Ends with "numba: N passed, N failed".

kernels.py --ptx DIR writes the PTX Numba makes for sm_90 of the kernels
that compile without a driver (a device function needs a context) into
DIR/NAME.ptx, for `ptxvm check`."""
import os
import sys

import cuda.pathfinder as _pathfinder

# ptxvm runs PTX.  Where nvJitLink can be loaded, Numba compiles kernels to
# LTO-IR and links them to a SASS cubin, which no PTX driver can run; with
# nvJitLink hidden, Numba hands PTX to cuda.core, which links it with the
# driver's cuLink* functions.  The kernels themselves are unmodified.
_load = _pathfinder.load_nvidia_dynamic_lib


def _without_nvjitlink(name):
    if name == "nvJitLink":
        raise _pathfinder.DynamicLibNotFoundError("hidden: ptxvm's driver links PTX itself")
    return _load(name)


_pathfinder.load_nvidia_dynamic_lib = _without_nvjitlink

import numpy as np  # noqa: E402
from numba import cuda, int32  # noqa: E402

passed = failed = 0


def expect(ok, what):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + what, flush=True)
    if ok:
        passed += 1
    else:
        failed += 1


@cuda.jit
def vadd(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


@cuda.jit
def block_sum(x, out):
    # shared-memory tree reduction per block, blocks merged with an atomic
    s = cuda.shared.array(256, int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < x.size else 0
    cuda.syncthreads()
    w = 128
    while w > 0:
        if t < w:
            s[t] += s[t + w]
        cuda.syncthreads()
        w //= 2
    if t == 0:
        cuda.atomic.add(out, 0, s[0])


@cuda.jit(device=True)
def clamp_mul(v, k, hi):
    r = v * k
    return hi if r > hi else r


@cuda.jit
def apply(x, out, k, hi):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = clamp_mul(x[i], k, hi)


@cuda.jit
def warp_ops(x, shfl, total, ballot):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = x[i]
    shfl[i] = cuda.shfl_down_sync(0xFFFFFFFF, v, 1)
    t = v
    off = 16
    while off > 0:
        t += cuda.shfl_xor_sync(0xFFFFFFFF, t, off)
        off //= 2
    total[i] = t
    b = cuda.ballot_sync(0xFFFFFFFF, v % 3 == 0)
    if lane == 0:
        ballot[i // 32] = b


def main():
    dev = cuda.get_current_device()
    print("numba: device %s, compute capability %s" % (dev.name, dev.compute_capability), flush=True)

    n = 10007
    a = np.arange(n, dtype=np.float32) * np.float32(0.25)
    b = np.float32(1) / (np.arange(n, dtype=np.float32) + np.float32(1))
    c = np.zeros(n, dtype=np.float32)
    vadd[(n + 127) // 128, 128](a, b, c)
    expect(np.array_equal(c, a + b), "vector add of %d floats" % n)

    x = (np.arange(n, dtype=np.int32) * 7919) % 1000 - 500
    out = np.zeros(1, dtype=np.int32)
    block_sum[(n + 255) // 256, 256](x, out)
    expect(int(out[0]) == int(x.sum()), "shared-memory reduction with atomics: %d" % out[0])

    y = np.linspace(-3, 3, 1000).astype(np.float32)
    r = np.zeros_like(y)
    apply[8, 128](y, r, np.float32(2.5), np.float32(4.0))
    want = np.minimum(y * np.float32(2.5), np.float32(4.0))
    expect(np.array_equal(r, want), "a device function")

    m = 256
    w = (np.arange(m, dtype=np.int32) * 37) % 101
    shfl = np.zeros(m, dtype=np.int32)
    total = np.zeros(m, dtype=np.int32)
    ballot = np.zeros(m // 32, dtype=np.uint32)
    warp_ops[2, 128](w, shfl, total, ballot)
    ws = w.reshape(-1, 32)
    want_shfl = np.concatenate([ws[:, 1:], ws[:, 31:]], axis=1).reshape(-1)
    want_total = np.repeat(ws.sum(axis=1), 32)
    want_ballot = np.array([sum(1 << k for k in range(32) if row[k] % 3 == 0) for row in ws], dtype=np.uint32)
    expect(np.array_equal(shfl, want_shfl), "shfl_down_sync")
    expect(np.array_equal(total, want_total), "a warp sum by shfl_xor_sync")
    expect(np.array_equal(ballot, want_ballot), "ballot_sync")

    d = cuda.to_device(a)
    h = d.copy_to_host()
    expect(np.array_equal(h, a), "to_device / copy_to_host")
    print("numba: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def write_ptx(out):
    from numba import types as T

    sigs = {
        "vadd": (vadd, (T.float32[::1], T.float32[::1], T.float32[::1])),
        "block_sum": (block_sum, (T.int32[::1], T.int32[::1])),
        "warp_ops": (warp_ops, (T.int32[::1], T.int32[::1], T.int32[::1], T.uint32[::1])),
    }
    for name, (kernel, sig) in sigs.items():
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(ptx)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--ptx":
        write_ptx(sys.argv[2])
        sys.exit(0)
    try:
        sys.exit(main())
    except Exception as e:  # the driver refused something: say what, count it
        import traceback

        traceback.print_exc()
        expect(False, "numba raised %s: %s" % (type(e).__name__, str(e).strip().splitlines()[-1] if str(e).strip() else ""))
        print("numba: %d passed, %d failed" % (passed, failed))
        sys.exit(1)
