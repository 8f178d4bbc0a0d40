"""CuPy's prebuilt kernels on ptxvm: those compiled when CuPy was built
(Thrust's sort, CUB's reductions and scans), whose fat binaries carry PTX
ISA 9.2 for compute_120 only.  Run by tests/pyclients/run.sh on an sm_120
device (PTXVM_ARCH=sm_120) with CUB on (CUPY_ACCELERATORS=cub); each
result checked against NumPy.  Prints "cupy-prebuilt: N passed, N failed"."""

import numpy as np
import cupy as cp

from suite import Suite

suite = Suite("cupy-prebuilt")
case = suite.case

rng = np.random.default_rng(7)


@case
def thrust_sort():
    x = rng.permutation(5000).astype(np.int32)
    assert np.array_equal(cp.sort(cp.asarray(x)).get(), np.arange(5000, dtype=np.int32))
    f = rng.standard_normal(3001).astype(np.float32)
    assert np.array_equal(cp.sort(cp.asarray(f)).get(), np.sort(f))


@case
def thrust_argsort_unique():
    x = rng.integers(0, 50, 2000)
    d = cp.asarray(x)
    # argsort is not stable: the keys it orders are what is compared
    assert np.array_equal(x[cp.argsort(d).get()], np.sort(x))
    assert np.array_equal(cp.unique(d).get(), np.unique(x))


@case
def cub_reductions():
    i = rng.integers(-10**6, 10**6, 100_003)
    d = cp.asarray(i)
    assert int(d.sum()) == int(i.sum())
    assert int(d.min()) == int(i.min()) and int(d.max()) == int(i.max())
    assert np.array_equal(cp.cumsum(d).get(), np.cumsum(i))


suite.done()
