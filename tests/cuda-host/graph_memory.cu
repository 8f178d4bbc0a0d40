// Graph memory nodes, case by case: each call's answer is printed, and
// graph_memory.expected holds what an H200 (driver 580, CUDA 13 runtime)
// printed for this program, so that the output must be the hardware's.
// Left out of it: the "attrs" lines, the device's graph memory attributes,
// which ptxvm counts differently (docs/CUDA.md, "Graph memory").
#include "check.h"

// One call and its answer, the error cleared.
#define P(label, call) do { cudaError_t e_ = (call); printf("%-60s %s\n", label, cudaGetErrorName(e_)); cudaGetLastError(); } while (0)

__global__ void fill(int *x, int k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) x[i] = x[i] * k + i;
}

static cudaMemAllocNodeParams params(size_t bytes)
{
	cudaMemAllocNodeParams p = {};
	p.poolProps.allocType = cudaMemAllocationTypePinned;
	p.poolProps.location.type = cudaMemLocationTypeDevice;
	p.poolProps.location.id = 0;
	p.bytesize = bytes;
	return p;
}

// The node count of a captured graph, which is destroyed.
static void nodes_of(cudaGraph_t g)
{
	size_t k = 0;
	if (g && cudaGraphGetNodes(g, NULL, &k) == cudaSuccess)
		printf("graph nodes %zu\n", k);
	if (g)
		cudaGraphDestroy(g);
}

static void attrs(const char *when)
{
	unsigned long long v[4];
	cudaGraphMemAttributeType a[4] = { cudaGraphMemAttrUsedMemCurrent, cudaGraphMemAttrUsedMemHigh,
		cudaGraphMemAttrReservedMemCurrent, cudaGraphMemAttrReservedMemHigh };
	for (int i = 0; i < 4; i++) { v[i] = 12345; cudaDeviceGetGraphMemAttribute(0, a[i], &v[i]); }
	printf("attrs %-30s used %llu usedhigh %llu reserved %llu reservedhigh %llu\n", when, v[0], v[1], v[2], v[3]);
}

int main()
{
	const int n = 1000;
	int *h, *out;
	cudaMallocHost(&h, n * 4);
	cudaMallocHost(&out, n * 4);
	cudaStream_t s;
	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	attrs("start");
	// 1. capture
	cudaGraph_t g;
	int *tmp = NULL;
	P("begin capture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	P("cudaMallocAsync in capture", cudaMallocAsync(&tmp, n * 4, s));
	printf("tmp nonnull %d aligned256 %d\n", tmp != NULL, ((unsigned long long)tmp % 256) == 0);
	P("memcpy in", cudaMemcpyAsync(tmp, h, n * 4, cudaMemcpyHostToDevice, s));
	fill<<<(n + 127) / 128, 128, 0, s>>>(tmp, 5, n);
	P("memcpy out", cudaMemcpyAsync(out, tmp, n * 4, cudaMemcpyDeviceToHost, s));
	P("cudaFreeAsync in capture", cudaFreeAsync(tmp, s));
	P("end capture", cudaStreamEndCapture(s, &g));
	attrs("after capture");
	size_t nn = 0;
	cudaGraphGetNodes(g, NULL, &nn);
	cudaGraphNode_t nodes[8];
	cudaGraphGetNodes(g, nodes, &nn);
	printf("nodes %zu types", nn);
	for (size_t i = 0; i < nn; i++) { cudaGraphNodeType t; cudaGraphNodeGetType(nodes[i], &t); printf(" %d", (int)t); }
	printf("\n");
	cudaMemAllocNodeParams ap = {};
	P("alloc get params", cudaGraphMemAllocNodeGetParams(nodes[0], &ap));
	printf("params dptr==tmp %d bytes %zu allocType %d handleTypes %d loc %d/%d access %zu maxSize %zu\n", ap.dptr == tmp, ap.bytesize,
	       (int)ap.poolProps.allocType, (int)ap.poolProps.handleTypes, (int)ap.poolProps.location.type, ap.poolProps.location.id,
	       ap.accessDescCount, ap.poolProps.maxSize);
	if (ap.accessDescCount) printf("access0 loc %d/%d flags %d\n", (int)ap.accessDescs[0].location.type, ap.accessDescs[0].location.id, (int)ap.accessDescs[0].flags);
	void *fp = NULL;
	P("free get params", cudaGraphMemFreeNodeGetParams(nodes[nn - 1], &fp));
	printf("free dptr==tmp %d\n", fp == tmp);
	P("alloc get params on free node", cudaGraphMemAllocNodeGetParams(nodes[nn - 1], &ap));
	P("cudaFree of graph alloc before any launch", cudaFree(tmp));
	cudaGraphExec_t x, x2;
	P("instantiate", cudaGraphInstantiate(&x, g, 0));
	P("instantiate second", cudaGraphInstantiate(&x2, g, 0));
	attrs("after instantiate");
	for (int round = 1; round <= 2; round++) {
		for (int i = 0; i < n; i++) h[i] = i * round;
		P("launch", cudaGraphLaunch(x, s));
		P("sync", cudaStreamSynchronize(s));
		int bad = 0;
		for (int i = 0; i < n; i++) if (out[i] != i * round * 5 + i) bad++;
		printf("round %d bad %d\n", round, bad);
		expect(bad == 0, "launch %d of the captured graph computes every element", round);
	}
	attrs("after launches");
	P("cudaFree of alloc freed in its graph, after launch", cudaFree(tmp));
	P("cudaFreeAsync of alloc freed in its graph", cudaFreeAsync(tmp, s));
	P("sync", cudaStreamSynchronize(s));
	unsigned long long fl = 99;
	P("exec get flags", cudaGraphExecGetFlags(x, &fl));
	printf("flags %llu\n", fl);
	P("free node twice in same graph", cudaGraphAddMemFreeNode(&nodes[7], g, &nodes[nn - 1], 1, tmp));
	P("exec destroy", cudaGraphExecDestroy(x));
	P("instantiate again after destroy", cudaGraphInstantiate(&x, g, 0));
	P("exec destroy", cudaGraphExecDestroy(x));
	P("trim", cudaDeviceGraphMemTrim(0));
	attrs("after trim");
	P("graph destroy", cudaGraphDestroy(g));
	attrs("after graph destroy");

	// 2. not freed in graph
	cudaGraph_t a;
	cudaGraphCreate(&a, 0);
	cudaGraphNode_t an, kn;
	cudaMemAllocNodeParams p = params(n * 4);
	P("add alloc node", cudaGraphAddMemAllocNode(&an, a, NULL, 0, &p));
	int *q = (int *)p.dptr;
	cudaMemsetParams mp = {};
	mp.dst = q; mp.value = 3; mp.elementSize = 4; mp.width = n; mp.height = 1;
	P("add memset", cudaGraphAddMemsetNode(&kn, a, &an, 1, &mp));
	P("cudaFree before the graph ran", cudaFree(q));
	P("instantiate", cudaGraphInstantiate(&x, a, 0));
	P("launch 1", cudaGraphLaunch(x, s));
	P("sync", cudaStreamSynchronize(s));
	P("copy out after launch", cudaMemcpy(out, q, n * 4, cudaMemcpyDeviceToHost));
	printf("value %d %d\n", out[0], out[n - 1]);
	expect(out[0] == 3 && out[n - 1] == 3, "the graph's fill is seen after the launch");
	P("launch 2 unfreed", cudaGraphLaunch(x, s));
	P("sync", cudaStreamSynchronize(s));
	P("getlasterror after", cudaGetLastError());
	P("cudaFree outside", cudaFree(q));
	P("cudaFree outside twice", cudaFree(q));
	P("launch 3 after free", cudaGraphLaunch(x, s));
	P("sync", cudaStreamSynchronize(s));
	P("cudaFreeAsync outside", cudaFreeAsync(q, s));
	P("sync", cudaStreamSynchronize(s));
	P("cudaFreeAsync outside twice", cudaFreeAsync(q, s));
	P("sync", cudaStreamSynchronize(s));
	P("exec destroy", cudaGraphExecDestroy(x));
	P("instantiate autofree", cudaGraphInstantiateWithFlags(&x, a, cudaGraphInstantiateFlagAutoFreeOnLaunch));
	P("exec get flags", cudaGraphExecGetFlags(x, &fl));
	printf("flags %llu\n", fl);
	P("autofree launch 1", cudaGraphLaunch(x, s));
	P("autofree launch 2", cudaGraphLaunch(x, s));
	P("sync", cudaStreamSynchronize(s));
	// 3. freed in another graph
	cudaGraph_t b;
	cudaGraphCreate(&b, 0);
	cudaGraphNode_t bn, bn2;
	P("free node in another graph", cudaGraphAddMemFreeNode(&bn, b, NULL, 0, q));
	P("free node in the owning graph after", cudaGraphAddMemFreeNode(&bn2, a, &kn, 1, q));
	P("free node in third graph", cudaGraphAddMemFreeNode(&bn2, b, NULL, 0, q));
	cudaGraphExec_t xb;
	P("instantiate b", cudaGraphInstantiate(&xb, b, 0));
	P("launch b (frees a's)", cudaGraphLaunch(xb, s));
	P("sync", cudaStreamSynchronize(s));
	P("launch b again (nothing to free)", cudaGraphLaunch(xb, s));
	P("sync", cudaStreamSynchronize(s));
	P("launch a noautofree-needed", cudaGraphLaunch(x, s));
	P("sync", cudaStreamSynchronize(s));
	P("destroy exec a with live alloc", cudaGraphExecDestroy(x));
	P("destroy graph a with live alloc", cudaGraphDestroy(a));
	P("copy from live alloc of destroyed graph", cudaMemcpy(out, q, n * 4, cudaMemcpyDeviceToHost));
	printf("value %d\n", out[5]);
	expect(out[5] == 3, "a live allocation outlives its graph");
	attrs("live alloc, graph destroyed");
	P("cudaFree live alloc of destroyed graph", cudaFree(q));
	attrs("after that free");
	P("destroy exec b", cudaGraphExecDestroy(xb));
	P("destroy graph b", cudaGraphDestroy(b));

	// 4. errors
	cudaGraph_t c;
	cudaGraphCreate(&c, 0);
	int *plain;
	cudaMalloc(&plain, 256);
	P("free node of cudaMalloc memory", cudaGraphAddMemFreeNode(&bn, c, NULL, 0, plain));
	P("free node of garbage", cudaGraphAddMemFreeNode(&bn, c, NULL, 0, (void *)0x1234));
	p = params(0);
	P("alloc node 0 bytes", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	p = params(256);
	p.poolProps.location.id = 3;
	P("alloc node device 3", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	p = params(256);
	p.poolProps.allocType = cudaMemAllocationTypeInvalid;
	P("alloc node type invalid", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	p = params(256);
	p.poolProps.location.type = cudaMemLocationTypeHost;
	P("alloc node host location", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	p = params(256);
	cudaMemAccessDesc ad = {};
	ad.location.type = cudaMemLocationTypeDevice; ad.location.id = 0; ad.flags = cudaMemAccessFlagsProtReadWrite;
	p.accessDescs = &ad; p.accessDescCount = 1;
	P("alloc node with own-device access", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	ad.flags = cudaMemAccessFlagsProtRead;
	P("alloc node with own-device read access", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	p = params(256);
	p.poolProps.handleTypes = cudaMemHandleTypePosixFileDescriptor;
	P("alloc node with handle types", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	p = params(1);
	P("alloc node 1 byte", cudaGraphAddMemAllocNode(&an, c, NULL, 0, &p));
	printf("1-byte dptr aligned256 %d\n", (int)(((unsigned long long)p.dptr) % 256 == 0));
	P("destroy c", cudaGraphDestroy(c));
	// capture errors
	P("begin capture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	P("cudaFreeAsync of cudaMalloc memory in capture", cudaFreeAsync(plain, s));
	cudaStreamCaptureStatus st;
	cudaStreamIsCapturing(s, &st);
	printf("capture status %d\n", (int)st);
	P("end capture", cudaStreamEndCapture(s, &g));
	nodes_of(g);
	P("begin capture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	void *z = NULL;
	P("cudaMallocAsync 0 bytes in capture", cudaMallocAsync(&z, 0, s));
	cudaStreamIsCapturing(s, &st);
	printf("capture status %d z %p\n", (int)st, z);
	P("end capture", cudaStreamEndCapture(s, &g));
	nodes_of(g);
	P("begin capture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	P("cudaFreeAsync garbage in capture", cudaFreeAsync((void *)0x1234, s));
	cudaStreamIsCapturing(s, &st);
	printf("capture status %d\n", (int)st);
	P("end capture", cudaStreamEndCapture(s, &g));
	nodes_of(g);
	P("begin capture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	P("cudaFreeAsync NULL in capture", cudaFreeAsync(NULL, s));
	cudaStreamIsCapturing(s, &st);
	printf("capture status %d\n", (int)st);
	P("end capture", cudaStreamEndCapture(s, &g));
	nodes_of(g);
	// capture alloc, end, destroy graph without instantiating
	P("begin capture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	P("cudaMallocAsync", cudaMallocAsync(&z, 4096, s));
	P("end capture", cudaStreamEndCapture(s, &g));
	P("cudaFree of never-run alloc", cudaFree(z));
	P("destroy", cudaGraphDestroy(g));
	attrs("end");
	P("high reset nonzero", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &fl));
	unsigned long long zero = 0;
	P("high reset zero", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
	P("reserved high reset zero", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
	P("set current", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero));
	attrs("after reset");
	P("get attr device 1", cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemCurrent, &fl));
	P("trim device 1", cudaDeviceGraphMemTrim(1));
	printf("done\n");
	return finish();
}
