"""CuPy on ptxvm's libcuda.so.1: array arithmetic, reductions, and the
kernels a user writes (ElementwiseKernel, ReductionKernel, RawKernel,
RawModule), each checked against NumPy.  Run by tests/pyclients/run.sh,
which sets CUPY_COMPILE_WITH_PTX=1 and CUPY_ACCELERATORS= (docs/CUDA.md).
Prints "cupy: N passed, N failed"."""

import numpy as np
import cupy as cp

from suite import Suite

suite = Suite("cupy")
case = suite.case


rng = np.random.default_rng(12)


@case
def vector_add():
    a = rng.standard_normal(100_003).astype(np.float32)
    b = rng.standard_normal(100_003).astype(np.float32)
    got = (cp.asarray(a) + cp.asarray(b)).get()
    assert np.array_equal(got, a + b)


@case
def ufuncs():
    x = rng.uniform(-3, 3, 4097)
    d = cp.asarray(x)
    # correctly rounded operations are bit-exact; the others within an ulp or two
    assert np.array_equal((d * d - 2 * d).get(), x * x - 2 * x)
    assert np.array_equal(cp.sqrt(cp.abs(d)).get(), np.sqrt(np.abs(x)))
    np.testing.assert_allclose(cp.exp(d).get(), np.exp(x), rtol=1e-15)
    np.testing.assert_allclose(cp.sin(d).get(), np.sin(x), rtol=1e-15, atol=1e-15)
    i = rng.integers(-1000, 1000, 5000, dtype=np.int32)
    di = cp.asarray(i)
    assert np.array_equal((di // 7 + di % 7 + (di << 3) ^ di).get(), i // 7 + i % 7 + (i << 3) ^ i)
    assert np.array_equal(cp.where(di > 0, di, -di).get(), np.abs(i))


@case
def reductions():
    m = rng.integers(-10_000, 10_000, (300, 257)).astype(np.int64)
    d = cp.asarray(m)
    assert int(d.sum()) == int(m.sum())
    assert np.array_equal(d.sum(axis=0).get(), m.sum(axis=0))
    assert np.array_equal(d.max(axis=1).get(), m.max(axis=1))
    assert int(d.argmin()) == int(m.argmin())
    f = rng.standard_normal(1 << 16)
    np.testing.assert_allclose(float(cp.asarray(f).mean()), f.mean(), rtol=1e-12)
    assert np.array_equal(cp.cumsum(cp.asarray(m[0])).get(), np.cumsum(m[0]))


@case
def indexing_and_copies():
    m = rng.standard_normal((64, 48))
    d = cp.asarray(m)
    assert np.array_equal(d.T.copy().get(), m.T)
    assert np.array_equal(d[::3, 5:40:2].get(), m[::3, 5:40:2])
    idx = rng.integers(0, 64, 100)
    assert np.array_equal(d[cp.asarray(idx)].get(), m[idx])
    d[d < 0] = 0
    assert np.array_equal(d.get(), np.where(m < 0, 0, m))
    assert np.array_equal(cp.concatenate([d, d]).get(), np.concatenate([np.where(m < 0, 0, m)] * 2))


@case
def elementwise_kernel():
    saxpy = cp.ElementwiseKernel("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y", "saxpy")
    x = rng.standard_normal(10_000).astype(np.float32)
    y = rng.standard_normal(10_000).astype(np.float32)
    got = saxpy(np.float32(2.5), cp.asarray(x), cp.asarray(y)).get()
    want = (np.float32(2.5) * x + y).astype(np.float32)
    # the kernel may fuse into an FMA: within one rounding of the product
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


@case
def reduction_kernel():
    l2 = cp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    v = rng.integers(0, 100, (50, 1000)).astype(np.float64)
    got = l2(cp.asarray(v), axis=1).get()
    np.testing.assert_allclose(got, np.sqrt((v * v).sum(axis=1)), rtol=1e-15)


@case
def raw_kernel():
    k = cp.RawKernel(r'''
extern "C" __global__ void add(const float *a, const float *b, float *c, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}''', "add")
    n = 5000
    a = cp.arange(n, dtype=cp.float32)
    b = cp.full(n, 0.5, dtype=cp.float32)
    c = cp.empty_like(a)
    k(((n + 255) // 256,), (256,), (a, b, c, cp.int32(n)))
    assert np.array_equal(c.get(), np.arange(n, dtype=np.float32) + 0.5)
    assert k.attributes["max_threads_per_block"] >= 256


@case
def raw_module_templates_shared_atomics():
    mod = cp.RawModule(code=r'''
template <typename T>
__global__ void block_sum(const T *x, T *out, int n)
{
	extern __shared__ unsigned char raw[];
	T *s = reinterpret_cast<T *>(raw);
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? x[i] : T(0);
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(out, s[0]);
}''', name_expressions=["block_sum<int>", "block_sum<unsigned long long>"])
    k = mod.get_function("block_sum<int>")
    n = 100_000
    x = rng.integers(-50, 50, n).astype(np.int32)
    out = cp.zeros(1, dtype=cp.int32)
    k(((n + 127) // 128,), (128,), (cp.asarray(x), out, cp.int32(n)), shared_mem=128 * 4)
    assert int(out[0]) == int(x.sum())
    k64 = mod.get_function("block_sum<unsigned long long>")
    y = rng.integers(0, 1 << 40, 3000, dtype=np.uint64)
    out64 = cp.zeros(1, dtype=cp.uint64)
    k64(((3000 + 255) // 256,), (256,), (cp.asarray(y), out64, cp.int32(3000)), shared_mem=256 * 8)
    assert int(out64[0]) == int(y.sum(dtype=np.uint64))


@case
def streams_and_events():
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        a = cp.arange(1 << 16, dtype=cp.int64)
        e0 = s.record()
        b = a * 3
        e1 = s.record()
    s.synchronize()
    assert cp.cuda.get_elapsed_time(e0, e1) >= 0
    assert int(b[-1]) == 3 * ((1 << 16) - 1)
    pinned = cp.cuda.alloc_pinned_memory(8 * (1 << 16))
    h = np.frombuffer(pinned, np.int64, 1 << 16)
    b.get(out=h, stream=s)
    s.synchronize()
    assert h[12345] == 3 * 12345


@case
def async_memory_pool():
    old = cp.cuda.get_allocator()
    cp.cuda.set_allocator(cp.cuda.MemoryAsyncPool().malloc)
    try:
        a = cp.arange(10_000, dtype=cp.int64)
        assert int((a * a).sum()) == sum(i * i for i in range(10_000))
    finally:
        cp.cuda.set_allocator(old)


@case
def texture_object():
    from cupy.cuda import runtime, texture
    ch = texture.ChannelFormatDescriptor(32, 0, 0, 0, runtime.cudaChannelFormatKindFloat)
    arr = texture.CUDAarray(ch, 8, 4)
    h = rng.standard_normal((4, 8)).astype(np.float32)
    arr.copy_from(h)
    res = texture.ResourceDescriptor(runtime.cudaResourceTypeArray, cuArr=arr)
    desc = texture.TextureDescriptor((runtime.cudaAddressModeClamp,) * 2, runtime.cudaFilterModePoint,
                                     runtime.cudaReadModeElementType)
    tex = texture.TextureObject(res, desc)
    k = cp.RawKernel(r'''
extern "C" __global__ void read(cudaTextureObject_t t, float *o)
{
	int x = threadIdx.x, y = threadIdx.y;
	o[y * 8 + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);     // texel centres
	o[32 + y * 8 + x] = tex2D<float>(t, x + 8.5f, y - 3.5f); // clamped to the edge
}''', "read")
    o = cp.zeros(64, dtype=cp.float32)
    k((1,), (8, 4), (tex, o))
    got = o.get()
    assert np.array_equal(got[:32], h.ravel())
    assert np.array_equal(got[32:], np.tile(h[0, 7], 32))


@case
def fuse():
    @cp.fuse()
    def f(x, y):
        return x * y + x

    x = rng.integers(-100, 100, 1000)
    y = rng.integers(-100, 100, 1000)
    assert np.array_equal(f(cp.asarray(x), cp.asarray(y)).get(), x * y + x)


@case
def graph_capture():
    s = cp.cuda.Stream(non_blocking=True)
    x = cp.zeros(1000, dtype=cp.float64)
    with s:
        s.begin_capture()
        y = x + 1
        y *= 3
        x[:] = y
        g = s.end_capture()
    assert not x.any()          # captured, not run
    for _ in range(4):
        g.launch(s)
    s.synchronize()
    assert float(x[0]) == ((((0 + 1) * 3 + 1) * 3 + 1) * 3 + 1) * 3 and bool((x == x[0]).all())


def prebuilt_kernels():
    """CuPy's kernels compiled when CuPy was built (CUB, Thrust's sort, its
    random generators) and cuBLAS's carry SASS, and PTX for compute_120
    only: no PTX ptxvm's default sm_90 device can take (docs/CUDA.md);
    cupy_prebuilt.py runs them on an sm_120 device."""
    x = rng.integers(0, 1000, 1000)
    try:
        ok = np.array_equal(cp.sort(cp.asarray(x)).get(), np.sort(x))
    except Exception as e:
        print(f"SKIP cupy: prebuilt kernels (sort, CUB, cuBLAS, random) cannot load: {type(e).__name__}: {e}")
        return
    suite.result(ok, "prebuilt kernels (cupy.sort)" if ok else "cupy.sort ran, and sorted wrongly")


prebuilt_kernels()
suite.done()
