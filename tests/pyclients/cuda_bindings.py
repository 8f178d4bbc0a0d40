"""cuda-python on ptxvm's libcuda.so.1: NVRTC compiles CUDA C++ to PTX, and
the driver API of cuda.bindings.driver loads, links and launches it; the
runtime API of cuda.bindings.runtime (NVIDIA's shared libcudart) and the
cuda.core objects run on the same driver.  Each case is checked against
NumPy.  Run by tests/pyclients/run.sh; prints "cuda-python: N passed, N
failed"."""
import ctypes

import numpy as np
from cuda.bindings import driver as cu, nvrtc, runtime as rt

from suite import Suite

suite = Suite("cuda-python")
case = suite.case


def ck(r):
    """The values of a binding's (status, values...) tuple, the status checked."""
    err, rest = r[0], r[1:]
    if isinstance(err, cu.CUresult) and err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"{err.name}: {cu.cuGetErrorString(err)[1]}")
    if isinstance(err, nvrtc.nvrtcResult) and err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        raise RuntimeError(err.name)
    if isinstance(err, rt.cudaError_t) and err != rt.cudaError_t.cudaSuccess:
        raise RuntimeError(err.name)
    return rest[0] if len(rest) == 1 else rest if rest else None


SRC = rb'''
__constant__ float scale;
__device__ unsigned long long launches;

extern "C" __global__ void axpb(const float *x, float *y, float b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = scale * x[i] + b;
	if (i == 0)
		atomicAdd(&launches, 1ull);
}

// one partial sum per block in shared memory, then one atomic per block
extern "C" __global__ void sum(const int *x, long long *out, int n)
{
	extern __shared__ long long part[];
	long long v = 0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		v += x[i];
	part[threadIdx.x] = v;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			part[threadIdx.x] += part[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd((unsigned long long *)out, (unsigned long long)part[0]);
}

// a warp-shuffle scan within each warp
extern "C" __global__ void warp_scan(const int *x, int *y)
{
	int v = x[threadIdx.x];
	for (int d = 1; d < 32; d <<= 1) {
		int u = __shfl_up_sync(0xffffffffu, v, d);
		if ((threadIdx.x & 31) >= d)
			v += u;
	}
	y[threadIdx.x] = v;
}
'''

rng = np.random.default_rng(7)
ck(cu.cuInit(0))
dev = ck(cu.cuDeviceGet(0))
ctx = ck(cu.cuDevicePrimaryCtxRetain(dev))
ck(cu.cuCtxSetCurrent(ctx))
major = ck(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
minor = ck(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev))


def compile_ptx(src, name):
    prog = ck(nvrtc.nvrtcCreateProgram(src, name, 0, [], []))
    opts = [f"--gpu-architecture=compute_{major}{minor}".encode(), b"-default-device"]
    try:
        ck(nvrtc.nvrtcCompileProgram(prog, len(opts), opts))
    except RuntimeError:
        size = ck(nvrtc.nvrtcGetProgramLogSize(prog))
        log = b" " * size
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise RuntimeError(log.decode())
    size = ck(nvrtc.nvrtcGetPTXSize(prog))
    ptx = b" " * size
    ck(nvrtc.nvrtcGetPTX(prog, ptx))
    return ptx


PTX = compile_ptx(SRC, b"kernels.cu")


def args(*vals):
    """kernelParams: each value in a NumPy scalar of its kernel type, kept alive with the array of pointers."""
    boxes = [np.array([v.value if hasattr(v, "value") else int(v)], dtype=np.uint64)
             if isinstance(v, cu.CUdeviceptr) else np.array([v]) for v in vals]
    ptrs = np.array([b.ctypes.data for b in boxes], dtype=np.uint64)
    return ptrs, boxes


def launch(f, grid, block, shared, stream, *vals):
    ptrs, boxes = args(*vals)
    ck(cu.cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shared, stream, ptrs.ctypes.data, 0))


@case
def device_properties():
    name = ck(cu.cuDeviceGetName(64, dev)).split(b"\0")[0]
    assert name == b"ptxvm", name
    assert ck(cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev)) == 32
    assert ck(cu.cuDriverGetVersion()) >= 13000
    free, total = ck(cu.cuMemGetInfo())
    assert 0 < free <= total


@case
def vector_axpb_with_constant_and_globals():
    mod = ck(cu.cuModuleLoadData(PTX))
    f = ck(cu.cuModuleGetFunction(mod, b"axpb"))
    dscale, size = ck(cu.cuModuleGetGlobal(mod, b"scale"))
    assert size == 4
    s = np.array([1.5], dtype=np.float32)
    ck(cu.cuMemcpyHtoD(dscale, s.ctypes.data, 4))
    n = 100_001
    x = rng.standard_normal(n).astype(np.float32)
    dx, dy = ck(cu.cuMemAlloc(x.nbytes)), ck(cu.cuMemAlloc(x.nbytes))
    ck(cu.cuMemcpyHtoD(dx, x.ctypes.data, x.nbytes))
    for _ in range(3):
        launch(f, (n + 255) // 256, 256, 0, 0, dx, dy, np.float32(0.25), np.int32(n))
    y = np.empty_like(x)
    ck(cu.cuMemcpyDtoH(y.ctypes.data, dy, y.nbytes))
    want = (np.float32(1.5) * x + np.float32(0.25)).astype(np.float32)
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-7)   # NVRTC may contract to an FMA
    dl, _ = ck(cu.cuModuleGetGlobal(mod, b"launches"))
    count = np.zeros(1, dtype=np.uint64)
    ck(cu.cuMemcpyDtoH(count.ctypes.data, dl, 8))
    assert count[0] == 3, count
    for p in (dx, dy):
        ck(cu.cuMemFree(p))
    ck(cu.cuModuleUnload(mod))


@case
def reduction_on_a_stream_with_events():
    jit_log = bytearray(4096)
    opts = [cu.CUjit_option.CU_JIT_ERROR_LOG_BUFFER, cu.CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES]
    mod = ck(cu.cuModuleLoadDataEx(PTX, len(opts), opts, [jit_log, len(jit_log)]))
    f = ck(cu.cuModuleGetFunction(mod, b"sum"))
    assert ck(cu.cuFuncGetAttribute(cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f)) >= 256
    n = 1 << 20
    x = rng.integers(-1 << 20, 1 << 20, n).astype(np.int32)
    s = ck(cu.cuStreamCreate(cu.CUstream_flags.CU_STREAM_NON_BLOCKING))
    e0, e1 = ck(cu.cuEventCreate(0)), ck(cu.cuEventCreate(0))
    dx = ck(cu.cuMemAllocAsync(x.nbytes, s))
    dout = ck(cu.cuMemAllocAsync(8, s))
    ck(cu.cuMemcpyHtoDAsync(dx, x.ctypes.data, x.nbytes, s))
    ck(cu.cuMemsetD32Async(dout, 0, 2, s))
    ck(cu.cuEventRecord(e0, s))
    launch(f, 64, 256, 256 * 8, s, dx, dout, np.int32(n))
    ck(cu.cuEventRecord(e1, s))
    got = np.zeros(1, dtype=np.int64)
    ck(cu.cuMemcpyDtoHAsync(got.ctypes.data, dout, 8, s))
    ck(cu.cuMemFreeAsync(dx, s))
    ck(cu.cuMemFreeAsync(dout, s))
    ck(cu.cuStreamSynchronize(s))
    assert ck(cu.cuEventElapsedTime(e0, e1)) >= 0
    assert got[0] == x.astype(np.int64).sum(), (got[0], x.sum())
    for e in (e0, e1):
        ck(cu.cuEventDestroy(e))
    ck(cu.cuStreamDestroy(s))
    ck(cu.cuModuleUnload(mod))


@case
def link_and_launch_ex():
    link = ck(cu.cuLinkCreate(0, [], []))
    ck(cu.cuLinkAddData(link, cu.CUjitInputType.CU_JIT_INPUT_PTX, PTX, len(PTX), b"kernels.ptx", 0, [], []))
    image, size = ck(cu.cuLinkComplete(link))
    mod = ck(cu.cuModuleLoadData(image))
    ck(cu.cuLinkDestroy(link))
    f = ck(cu.cuModuleGetFunction(mod, b"warp_scan"))
    x = rng.integers(0, 100, 128).astype(np.int32)
    dx, dy = ck(cu.cuMemAlloc(x.nbytes)), ck(cu.cuMemAlloc(x.nbytes))
    ck(cu.cuMemcpyHtoD(dx, x.ctypes.data, x.nbytes))
    cfg = cu.CUlaunchConfig()
    cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1
    cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = 128, 1, 1
    cfg.sharedMemBytes = 0
    cfg.hStream = 0
    cfg.numAttrs = 0
    ptrs, boxes = args(dx, dy)
    ck(cu.cuLaunchKernelEx(cfg, f, ptrs.ctypes.data, 0))
    y = np.empty_like(x)
    ck(cu.cuMemcpyDtoH(y.ctypes.data, dy, y.nbytes))
    want = np.concatenate([np.cumsum(w) for w in x.reshape(4, 32)]).astype(np.int32)
    assert np.array_equal(y, want)
    ck(cu.cuMemFree(dx))
    ck(cu.cuMemFree(dy))
    ck(cu.cuModuleUnload(mod))


@case
def graph_by_capture_and_by_nodes():
    mod = ck(cu.cuModuleLoadData(PTX))
    f = ck(cu.cuModuleGetFunction(mod, b"warp_scan"))
    x = rng.integers(0, 100, 64).astype(np.int32)
    y = np.zeros_like(x)
    dx, dy = ck(cu.cuMemAlloc(x.nbytes)), ck(cu.cuMemAlloc(x.nbytes))
    s = ck(cu.cuStreamCreate(cu.CUstream_flags.CU_STREAM_NON_BLOCKING))
    ck(cu.cuStreamBeginCapture(s, cu.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_GLOBAL))
    ck(cu.cuMemcpyHtoDAsync(dx, x.ctypes.data, x.nbytes, s))
    launch(f, 1, 64, 0, s, dx, dy)
    ck(cu.cuMemcpyDtoHAsync(y.ctypes.data, dy, y.nbytes, s))
    g = ck(cu.cuStreamEndCapture(s))
    assert not y.any()                  # captured, not run
    ge = ck(cu.cuGraphInstantiate(g, 0))
    want = np.concatenate([np.cumsum(w) for w in x.reshape(2, 32)]).astype(np.int32)
    for _ in range(2):
        ck(cu.cuGraphLaunch(ge, s))
    ck(cu.cuStreamSynchronize(s))
    assert np.array_equal(y, want), y
    # the same work as nodes: a fill after nothing, the kernel after it
    g2 = ck(cu.cuGraphCreate(0))
    fill = cu.CUDA_MEMSET_NODE_PARAMS()
    fill.dst, fill.value, fill.elementSize, fill.width, fill.height = dx, 1, 4, 64, 1
    _, ctx = cu.cuCtxGetCurrent()
    n1 = ck(cu.cuGraphAddMemsetNode(g2, None, 0, fill, ctx))
    kp = cu.CUDA_KERNEL_NODE_PARAMS()
    kp.func = f
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1
    kp.blockDimX, kp.blockDimY, kp.blockDimZ = 64, 1, 1
    ptrs, boxes = args(dx, dy)
    kp.kernelParams = ptrs.ctypes.data
    ck(cu.cuGraphAddKernelNode(g2, [n1], 1, kp))
    ge2 = ck(cu.cuGraphInstantiate(g2, 0))
    ck(cu.cuGraphLaunch(ge2, s))
    ck(cu.cuMemcpyDtoH(y.ctypes.data, dy, y.nbytes))
    assert np.array_equal(y, np.tile(np.arange(1, 33, dtype=np.int32), 2)), y
    for e in (ge, ge2):
        ck(cu.cuGraphExecDestroy(e))
    for gr in (g, g2):
        ck(cu.cuGraphDestroy(gr))
    ck(cu.cuStreamDestroy(s))
    ck(cu.cuMemFree(dx))
    ck(cu.cuMemFree(dy))
    ck(cu.cuModuleUnload(mod))


@case
def pinned_and_managed_memory():
    n = 4096
    h = ck(cu.cuMemHostAlloc(n * 4, cu.CU_MEMHOSTALLOC_DEVICEMAP))
    arr = np.ctypeslib.as_array(ctypes.cast(h, ctypes.POINTER(ctypes.c_uint32)), (n,))
    arr[:] = np.arange(n, dtype=np.uint32)
    d = ck(cu.cuMemHostGetDevicePointer(h, 0))
    m = ck(cu.cuMemAllocManaged(n * 4, cu.CUmemAttach_flags.CU_MEM_ATTACH_GLOBAL))
    ck(cu.cuMemcpyDtoD(m, d, n * 4))
    kind = ck(cu.cuPointerGetAttribute(cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_IS_MANAGED, m))
    assert kind == 1, kind
    mv = np.ctypeslib.as_array(ctypes.cast(int(m), ctypes.POINTER(ctypes.c_uint32)), (n,))
    assert np.array_equal(mv, np.arange(n, dtype=np.uint32))
    ck(cu.cuMemFree(m))
    ck(cu.cuMemFreeHost(h))


@case
def runtime_api():
    # NVIDIA's libcudart (from the PyPI toolkit) on the same driver
    assert ck(rt.cudaGetDeviceCount()) == 1
    props = ck(rt.cudaGetDeviceProperties(0))
    assert props.name.split(b"\0")[0] == b"ptxvm" and props.warpSize == 32
    n = 1000
    x = rng.standard_normal(n)
    d = ck(rt.cudaMalloc(x.nbytes))
    ck(rt.cudaMemcpy(d, x.ctypes.data, x.nbytes, rt.cudaMemcpyKind.cudaMemcpyHostToDevice))
    ck(rt.cudaMemset(d, 0, 8 * 10))
    y = np.empty_like(x)
    ck(rt.cudaMemcpy(y.ctypes.data, d, x.nbytes, rt.cudaMemcpyKind.cudaMemcpyDeviceToHost))
    ck(rt.cudaDeviceSynchronize())
    assert np.array_equal(y[10:], x[10:]) and not y[:10].any()
    ck(rt.cudaFree(d))


@case
def cuda_core():
    try:
        from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch as core_launch
    except ImportError:
        from cuda.core.experimental import Device, LaunchConfig, Program, ProgramOptions, launch as core_launch
    d = Device()
    d.set_current()
    s = d.create_stream()
    prog = Program(SRC.decode(), code_type="c++",
                   options=ProgramOptions(arch=f"compute_{major}{minor}", std="c++17"))
    mod = prog.compile("ptx")
    k = mod.get_kernel("warp_scan")
    x = np.arange(64, dtype=np.int32)
    bx, by = d.allocate(x.nbytes, stream=s), d.allocate(x.nbytes, stream=s)
    host = np.empty_like(x)
    ck(cu.cuMemcpyHtoDAsync(int(bx.handle), x.ctypes.data, x.nbytes, s.handle))
    core_launch(s, LaunchConfig(grid=1, block=64), k, bx, by)
    ck(cu.cuMemcpyDtoHAsync(host.ctypes.data, int(by.handle), x.nbytes, s.handle))
    s.sync()
    want = np.concatenate([np.cumsum(w) for w in x.reshape(2, 32)]).astype(np.int32)
    assert np.array_equal(host, want), host
    bx.close(s)
    by.close(s)


@case
def cuda_core_graph_builder():
    # a graph captured by cuda.core's GraphBuilder, forked in two and joined
    try:
        from cuda.core import Device, LaunchConfig, Program, ProgramOptions, launch as core_launch
    except ImportError:
        from cuda.core.experimental import Device, LaunchConfig, Program, ProgramOptions, launch as core_launch
    d = Device()
    d.set_current()
    s = d.create_stream()
    prog = Program(SRC.decode(), code_type="c++", options=ProgramOptions(arch=f"compute_{major}{minor}"))
    k = prog.compile("ptx").get_kernel("warp_scan")
    n = 64
    x = np.arange(n, dtype=np.int32)
    bx, by, bz = (d.allocate(x.nbytes, stream=s) for _ in range(3))
    ck(cu.cuMemcpyHtoDAsync(int(bx.handle), x.ctypes.data, x.nbytes, s.handle))
    gb = s.create_graph_builder().begin_building()
    left, right = gb.split(2)
    core_launch(left, LaunchConfig(grid=1, block=n), k, bx, by)
    core_launch(right, LaunchConfig(grid=1, block=n), k, bx, bz)
    joined = type(gb).join(left, right)
    core_launch(joined, LaunchConfig(grid=1, block=n), k, by, bx)
    graph = joined.end_building().complete()
    graph.launch(s)
    s.sync()
    got = [np.empty_like(x) for _ in range(3)]
    for h, b in zip(got, (bx, by, bz)):
        ck(cu.cuMemcpyDtoH(h.ctypes.data, int(b.handle), x.nbytes))
    scan = np.concatenate([np.cumsum(w) for w in x.reshape(2, 32)]).astype(np.int32)
    assert np.array_equal(got[1], scan) and np.array_equal(got[2], scan), got
    assert np.array_equal(got[0], np.concatenate([np.cumsum(w) for w in scan.reshape(2, 32)]).astype(np.int32))
    graph.close()
    for b in (bx, by, bz):
        b.close(s)


@case
def cuda_core_graph_definition():
    # a graph built node by node through cuda.core: a fill, then a kernel after it
    try:
        from cuda.core import Device, LaunchConfig, Program, ProgramOptions
        from cuda.core.graph import GraphDefinition
    except ImportError as e:
        raise RuntimeError(f"this cuda.core has no GraphDefinition: {e}")
    d = Device()
    d.set_current()
    s = d.create_stream()
    prog = Program(SRC.decode(), code_type="c++", options=ProgramOptions(arch=f"compute_{major}{minor}"))
    k = prog.compile("ptx").get_kernel("warp_scan")
    bx, by = (d.allocate(64 * 4, stream=s) for _ in range(2))
    s.sync()
    gd = GraphDefinition()
    gd.memset(bx, np.uint32(5), 64).launch(LaunchConfig(grid=1, block=64), k, bx, by)
    graph = gd.instantiate()
    graph.launch(s)
    s.sync()
    y = np.empty(64, dtype=np.int32)
    ck(cu.cuMemcpyDtoH(y.ctypes.data, int(by.handle), y.nbytes))
    assert np.array_equal(y, np.tile(np.arange(5, 5 * 33, 5, dtype=np.int32), 2)), y
    for b in (bx, by):
        b.close(s)


ck(cu.cuDevicePrimaryCtxRelease(dev))
suite.done()
