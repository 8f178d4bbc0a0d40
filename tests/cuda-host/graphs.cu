// CUDA graphs made by stream capture: kernels, copies, fills, a host
// function and event records captured on one stream, instantiated once and
// launched several times; what cannot be captured invalidates the capture.
// Stream-ordered allocation becomes memory nodes, with CUDA's rules for a
// graph's allocations.  Then a graph built node by node, with dependencies.
#include "check.h"

__global__ void scale_add(int *x, int k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = x[i] * k + i;
}

static void CUDART_CB count(void *p) { ++*(int *)p; }

int main()
{
	const int n = 1000;
	int *d, *h, *out, calls = 0;
	CK(cudaMalloc(&d, n * sizeof *d));
	CK(cudaMallocHost(&h, n * sizeof *h));
	CK(cudaMallocHost(&out, n * sizeof *out));
	cudaStream_t s;
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	cudaEvent_t e0, e1;
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	for (int i = 0; i < n; i++)
		out[i] = -1;

	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	cudaStreamCaptureStatus st;
	CK(cudaStreamIsCapturing(s, &st));
	expect(st == cudaStreamCaptureStatusActive, "the stream is capturing (%d)", (int)st);
	CK(cudaEventRecordWithFlags(e0, s, cudaEventRecordExternal));   // a node that records e0
	CK(cudaMemsetAsync(d, 0, n * sizeof *d, s));
	CK(cudaMemcpyAsync(d, h, n / 2 * sizeof *d, cudaMemcpyHostToDevice, s));
	scale_add<<<(n + 127) / 128, 128, 0, s>>>(d, 3, n);
	scale_add<<<(n + 127) / 128, 128, 0, s>>>(d, 2, n);
	CK(cudaLaunchHostFunc(s, count, &calls));
	CK(cudaMemcpyAsync(out, d, n * sizeof *d, cudaMemcpyDeviceToHost, s));
	CK(cudaEventRecordWithFlags(e1, s, cudaEventRecordExternal));
	cudaGraph_t g;
	CK(cudaStreamEndCapture(s, &g));
	expect(calls == 0 && out[0] == -1 && out[n - 1] == -1, "nothing ran while the stream was captured");
	size_t nodes = 0;
	CK(cudaGraphGetNodes(g, NULL, &nodes));
	expect(nodes == 8, "the graph has the 8 captured operations (%zu)", nodes);
	CK(cudaStreamIsCapturing(s, &st));
	expect(st == cudaStreamCaptureStatusNone, "the capture ended (%d)", (int)st);

	cudaGraphExec_t x;
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphDestroy(g));        // the executable graph is a copy
	for (int round = 1; round <= 3; round++) {
		// the copy node reads the host buffer when the graph runs, not when it was captured
		for (int i = 0; i < n; i++)
			h[i] = i * round;
		CK(cudaGraphLaunch(x, s));
		CK(cudaStreamSynchronize(s));
		int bad = -1;
		for (int i = 0; i < n && bad < 0; i++) {
			int v = i < n / 2 ? i * round : 0;      // the fill, then the copy of half
			if (out[i] != (v * 3 + i) * 2 + i)
				bad = i;
		}
		if (bad < 0)
			expect(true, "graph launch %d computes all %d elements", round, n);
		else
			expect(false, "graph launch %d: element %d is %d", round, bad, out[bad]);
	}
	expect(calls == 3, "the host function ran once per launch (%d)", calls);
	float ms = -1;
	CK(cudaEventElapsedTime(&ms, e0, e1));
	expect(ms >= 0, "the graph's event records time it (%g ms)", ms);
	CK(cudaGraphExecDestroy(x));

	// a synchronisation inside a capture is refused and invalidates it
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	scale_add<<<1, 32, 0, s>>>(d, 1, 32);
	cudaError_t err = cudaStreamSynchronize(s);
	expect(err == cudaErrorStreamCaptureUnsupported, "cudaStreamSynchronize while capturing: %s",
	       cudaGetErrorName(err));
	CK(cudaStreamIsCapturing(s, &st));
	expect(st == cudaStreamCaptureStatusInvalidated, "the capture is invalidated (%d)", (int)st);
	err = cudaStreamEndCapture(s, &g);
	expect(err == cudaErrorStreamCaptureInvalidated && g == NULL, "cudaStreamEndCapture: %s",
	       cudaGetErrorName(err));
	(void)cudaGetLastError();

	// stream-ordered allocation is captured as memory nodes: an allocation
	// node whose address is the allocation's for the graph's life, a free
	// node (CUDA's graph memory nodes; an H200 runs this as written)
	{
		int *tmp = NULL;
		CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
		CK(cudaMallocAsync(&tmp, n * sizeof *tmp, s));
		expect(tmp != NULL && (size_t)tmp % 256 == 0, "cudaMallocAsync while capturing gives an address (%p)",
		       (void *)tmp);
		CK(cudaMemcpyAsync(tmp, h, n * sizeof *tmp, cudaMemcpyHostToDevice, s));
		scale_add<<<(n + 127) / 128, 128, 0, s>>>(tmp, 5, n);
		CK(cudaMemcpyAsync(out, tmp, n * sizeof *tmp, cudaMemcpyDeviceToHost, s));
		CK(cudaFreeAsync(tmp, s));
		CK(cudaStreamEndCapture(s, &g));
		cudaGraphNode_t v[5];
		size_t nv = 5;
		CK(cudaGraphGetNodes(g, v, &nv));
		cudaGraphNodeType first = cudaGraphNodeTypeEmpty, last = cudaGraphNodeTypeEmpty;
		CK(cudaGraphNodeGetType(v[0], &first));
		CK(cudaGraphNodeGetType(v[nv - 1], &last));
		expect(nv == 5 && first == cudaGraphNodeTypeMemAlloc && last == cudaGraphNodeTypeMemFree,
		       "the capture has 5 nodes (%zu), an allocation node first (%d) and a free node last (%d)", nv,
		       (int)first, (int)last);
		cudaMemAllocNodeParams ap = {};
		void *freed = NULL;
		CK(cudaGraphMemAllocNodeGetParams(v[0], &ap));
		CK(cudaGraphMemFreeNodeGetParams(v[nv - 1], &freed));
		expect(ap.dptr == tmp && ap.bytesize == n * sizeof *tmp && freed == tmp &&
		       ap.poolProps.allocType == cudaMemAllocationTypePinned &&
		       ap.poolProps.location.type == cudaMemLocationTypeDevice && ap.poolProps.location.id == 0,
		       "the nodes' parameters: the address, %zu bytes, pinned on device 0", ap.bytesize);
		err = cudaFree(tmp);
		expect(err == cudaErrorInvalidValue, "cudaFree of the graph's allocation before it ran: %s",
		       cudaGetErrorName(err));
		(void)cudaGetLastError();
		CK(cudaGraphInstantiate(&x, g, 0));
		cudaGraphExec_t x2;
		err = cudaGraphInstantiate(&x2, g, 0);
		expect(err == cudaErrorNotSupported, "a second instantiation of a graph with memory nodes: %s",
		       cudaGetErrorName(err));
		(void)cudaGetLastError();
		for (int round = 1; round <= 2; round++) {
			for (int i = 0; i < n; i++) {
				h[i] = 7 * i - round;
				out[i] = -1;
			}
			CK(cudaGraphLaunch(x, s));
			CK(cudaStreamSynchronize(s));
			int bad = -1;
			for (int i = 0; i < n && bad < 0; i++)
				if (out[i] != (7 * i - round) * 5 + i)
					bad = i;
			expect(bad < 0, "launch %d of the graph that allocates (first wrong element: %d)", round, bad);
		}
		err = cudaFree(tmp);
		expect(err == cudaErrorInvalidValue, "cudaFree of an allocation its graph frees: %s", cudaGetErrorName(err));
		(void)cudaGetLastError();
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphInstantiate(&x, g, 0));     // once the first is gone
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));

		// an address no allocation node returned cannot be freed in a
		// capture; the capture goes on
		CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
		err = cudaFreeAsync(d, s);
		expect(err == cudaErrorInvalidValue, "cudaFreeAsync of cudaMalloc's memory while capturing: %s",
		       cudaGetErrorName(err));
		CK(cudaStreamIsCapturing(s, &st));
		expect(st == cudaStreamCaptureStatusActive, "and the capture is still active (%d)", (int)st);
		CK(cudaStreamEndCapture(s, &g));
		CK(cudaGraphDestroy(g));
		(void)cudaGetLastError();
	}

	// an allocation the graph does not free outlives the launch: it is
	// freed outside, or by the next launch with auto-free-on-launch
	{
		CK(cudaGraphCreate(&g, 0));
		cudaMemAllocNodeParams ap = {};
		ap.poolProps.allocType = cudaMemAllocationTypePinned;
		ap.poolProps.location.type = cudaMemLocationTypeDevice;
		ap.poolProps.location.id = 0;
		ap.bytesize = n * sizeof(int);
		cudaGraphNode_t alloc, fill;
		CK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
		int *keep = (int *)ap.dptr;
		cudaMemsetParams mp = {};
		mp.dst = keep;
		mp.value = 0x5a5a;
		mp.elementSize = 4;
		mp.width = n;
		mp.height = 1;
		CK(cudaGraphAddMemsetNode(&fill, g, &alloc, 1, &mp));
		CK(cudaGraphInstantiate(&x, g, 0));
		CK(cudaGraphLaunch(x, s));
		CK(cudaStreamSynchronize(s));
		CK(cudaMemcpy(out, keep, n * sizeof *out, cudaMemcpyDeviceToHost));   // after the graph: still there
		int bad = -1;
		for (int i = 0; i < n && bad < 0; i++)
			if (out[i] != 0x5a5a)
				bad = i;
		expect(bad < 0, "the allocation outlives the launch (first wrong element: %d)", bad);
		err = cudaGraphLaunch(x, s);
		expect(err == cudaErrorInvalidValue, "a launch while its last allocation is not freed: %s",
		       cudaGetErrorName(err));
		(void)cudaGetLastError();
		CK(cudaFree(keep));
		err = cudaFree(keep);
		expect(err == cudaErrorInvalidValue, "freeing it twice: %s", cudaGetErrorName(err));
		(void)cudaGetLastError();
		CK(cudaGraphLaunch(x, s));      // freed: it may run again
		CK(cudaFreeAsync(keep, s));
		CK(cudaStreamSynchronize(s));
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
		unsigned long long flags = 0;
		CK(cudaGraphExecGetFlags(x, &flags));
		expect(flags == cudaGraphInstantiateFlagAutoFreeOnLaunch, "the executable graph's flags (%llu)", flags);
		CK(cudaGraphLaunch(x, s));
		CK(cudaGraphLaunch(x, s));      // the first launch's allocation is freed first
		CK(cudaStreamSynchronize(s));
		// destroying the graphs leaves the live allocation to be freed
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));
		CK(cudaMemcpy(out, keep, sizeof *out, cudaMemcpyDeviceToHost));
		expect(out[0] == 0x5a5a, "the live allocation survives its graph (%#x)", out[0]);
		CK(cudaFree(keep));
	}

	// a 2D copy is captured: rows of 16 ints, 64 apart on the host, 32 on the device
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CK(cudaMemcpy2DAsync(d, 32 * sizeof *d, h, 64 * sizeof *h, 16 * sizeof *d, 4, cudaMemcpyHostToDevice, s));
	CK(cudaMemcpy2DAsync(out, 16 * sizeof *out, d, 32 * sizeof *d, 16 * sizeof *d, 4, cudaMemcpyDeviceToHost, s));
	CK(cudaStreamEndCapture(s, &g));
	CK(cudaGraphInstantiate(&x, g, 0));
	for (int i = 0; i < n; i++)
		h[i] = 5 * i + 1;
	CK(cudaGraphLaunch(x, s));
	CK(cudaStreamSynchronize(s));
	int bad = -1;
	for (int i = 0; i < 64 && bad < 0; i++)
		if (out[i] != 5 * (i / 16 * 64 + i % 16) + 1)
			bad = i;
	expect(bad < 0, "the captured 2D copies (first wrong element: %d)", bad);
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));

	// fork and join: a second stream joins the capture by waiting on an
	// event recorded in it, works beside the first, and is joined back
	cudaStream_t s2;
	cudaEvent_t fork, back;
	CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
	CK(cudaEventCreateWithFlags(&back, cudaEventDisableTiming));
	const int half = n / 2;
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CK(cudaMemsetAsync(d, 0, n * sizeof *d, s));
	CK(cudaEventRecord(fork, s));
	CK(cudaStreamWaitEvent(s2, fork, 0));
	CK(cudaStreamIsCapturing(s2, &st));
	expect(st == cudaStreamCaptureStatusActive, "the forked stream is capturing (%d)", (int)st);
	scale_add<<<(n - half + 127) / 128, 128, 0, s2>>>(d + half, 2, n - half);
	scale_add<<<(half + 127) / 128, 128, 0, s>>>(d, 3, half);
	CK(cudaEventRecord(back, s2));
	CK(cudaStreamWaitEvent(s, back, 0));
	CK(cudaMemcpyAsync(out, d, n * sizeof *d, cudaMemcpyDeviceToHost, s));
	CK(cudaStreamEndCapture(s, &g));
	CK(cudaStreamIsCapturing(s2, &st));
	expect(st == cudaStreamCaptureStatusNone, "the forked stream's capture ended with the origin's (%d)", (int)st);
	size_t roots = 0;
	CK(cudaGraphGetNodes(g, NULL, &nodes));
	CK(cudaGraphGetRootNodes(g, NULL, &roots));
	expect(nodes == 4 && roots == 1, "the forked capture has 4 nodes (%zu), 1 root (%zu)", nodes, roots);
	for (int i = 0; i < n; i++)
		out[i] = -1;
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphLaunch(x, s));
	CK(cudaStreamSynchronize(s));
	bad = -1;
	for (int i = 0; i < n && bad < 0; i++)
		if (out[i] != (i < half ? i : i - half))
			bad = i;
	expect(bad < 0, "the forked and joined graph ran (first wrong element: %d)", bad);
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));

	// a stream that joined and was not joined back fails the capture
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CK(cudaEventRecord(fork, s));
	CK(cudaStreamWaitEvent(s2, fork, 0));
	scale_add<<<1, 32, 0, s2>>>(d, 1, 32);
	err = cudaStreamEndCapture(s, &g);
	expect(err == cudaErrorStreamCaptureUnjoined, "cudaStreamEndCapture with a stream not joined back: %s",
	       cudaGetErrorName(err));
	(void)cudaGetLastError();
	CK(cudaStreamIsCapturing(s2, &st));
	expect(st == cudaStreamCaptureStatusNone, "and no stream is left capturing (%d)", (int)st);
	CK(cudaStreamDestroy(s2));

	// a graph built node by node: a fill and a copy, then two kernels after
	// both, then a host function and a copy back after the kernels
	CK(cudaGraphCreate(&g, 0));
	cudaGraphNode_t fill, up, k1, k2, host, down;
	cudaMemsetParams fp = {};
	fp.dst = d;
	fp.value = 7;
	fp.elementSize = 4;
	fp.width = n;
	fp.height = 1;
	CK(cudaGraphAddMemsetNode(&fill, g, NULL, 0, &fp));
	CK(cudaGraphAddMemcpyNode1D(&up, g, &fill, 1, d, h, 10 * sizeof *d, cudaMemcpyHostToDevice));
	int k = 3, m = n / 2;
	void *args1[] = { &d, &k, &m };
	cudaKernelNodeParams kp = {};
	kp.func = (void *)scale_add;
	kp.gridDim = dim3((m + 127) / 128);
	kp.blockDim = dim3(128);
	kp.kernelParams = args1;
	cudaGraphNode_t both[] = { fill, up };
	CK(cudaGraphAddKernelNode(&k1, g, both, 2, &kp));
	int *second = d + m, k2v = 2, m2 = n - m;
	void *args2[] = { &second, &k2v, &m2 };
	kp.kernelParams = args2;
	CK(cudaGraphAddKernelNode(&k2, g, both, 2, &kp));
	cudaHostNodeParams hp = { count, &calls };
	cudaGraphNode_t kernels[] = { k1, k2 };
	CK(cudaGraphAddHostNode(&host, g, kernels, 2, &hp));
	CK(cudaGraphAddMemcpyNode1D(&down, g, &host, 1, out, d, n * sizeof *d, cudaMemcpyDeviceToHost));
	size_t count_nodes = 0;
	roots = 0;
	CK(cudaGraphGetNodes(g, NULL, &count_nodes));
	CK(cudaGraphGetRootNodes(g, NULL, &roots));
	cudaGraphNodeType type;
	CK(cudaGraphNodeGetType(k2, &type));
	expect(count_nodes == 6 && roots == 1 && type == cudaGraphNodeTypeKernel,
	       "the graph has 6 nodes (%zu), 1 root (%zu), a kernel node (%d)", count_nodes, roots, (int)type);
	CK(cudaGraphInstantiate(&x, g, 0));
	for (int i = 0; i < n; i++)
		h[i] = 100 + i;
	calls = 0;
	CK(cudaGraphLaunch(x, s));
	CK(cudaStreamSynchronize(s));
	bad = -1;
	for (int i = 0; i < n && bad < 0; i++) {
		int v = i < 10 ? 100 + i : 7;
		if (out[i] != (i < m ? v * 3 + i : v * 2 + (i - m)))
			bad = i;
	}
	expect(bad < 0 && calls == 1, "the graph built node by node ran (first wrong element %d, %d host calls)",
	       bad, calls);
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));

	// the stream works normally afterwards
	CK(cudaMemsetAsync(d, 0, sizeof *d, s));
	CK(cudaMemcpyAsync(out, d, sizeof *d, cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	expect(out[0] == 0, "the stream runs work again after the captures");
	CK(cudaStreamDestroy(s));
	return finish();
}
