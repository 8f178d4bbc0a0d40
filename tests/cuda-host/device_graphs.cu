// nvcc-flags: -rdc=true
// device_graphs.cu: graphs launched from kernels (CUDA's device graph
// launch).  Each kernel appends its mark to a log, so the order of the
// graphs' runs can be checked against what the programming guide
// guarantees: fire-and-forget graphs run after their launch and complete
// before the launching graph's tail launches, which run in the order they
// were queued; a graph relaunches itself by tail launch until a counter
// says stop; a sibling launch runs in the launcher's parent environment;
// and the calls CUDA refuses return their errors.
#include "check.h"

__device__ int log_n;
__device__ int log_v[512];
__device__ unsigned long long seen_exec;        // cudaGetCurrentGraphExec() in the relaunch loop
__device__ int errs[16];

__device__ void mark(int m) { log_v[atomicAdd(&log_n, 1)] = m; }

__global__ void marker(int m)
{
	if (threadIdx.x == 0)
		mark(m);
}

// 10: launches a and b fire-and-forget, t1 and t2 as tail launches, mixed
__global__ void launcher(cudaGraphExec_t a, cudaGraphExec_t b, cudaGraphExec_t t1, cudaGraphExec_t t2)
{
	if (threadIdx.x != 0)
		return;
	mark(10);
	errs[0] = cudaGraphLaunch(t1, cudaStreamGraphTailLaunch);
	errs[1] = cudaGraphLaunch(a, cudaStreamGraphFireAndForget);
	errs[2] = cudaGraphLaunch(t2, cudaStreamGraphTailLaunch);
	errs[3] = cudaGraphLaunch(b, cudaStreamGraphFireAndForget);
	errs[4] = cudaGraphLaunch(a, cudaStreamGraphFireAndForget);  // a is queued already
	errs[5] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphFireAndForget);  // a host graph: 0
}

// 20: relaunches its own graph until *count reaches max
__global__ void relaunch(int *count, int max)
{
	if (threadIdx.x != 0)
		return;
	mark(20);
	seen_exec = (unsigned long long)cudaGetCurrentGraphExec();
	if (*count < max) {
		errs[6] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
		errs[7] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);   // one at a time
		errs[8] = cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphFireAndForget);  // it is running
	}
	++*count;
}

// 21 + which: tail-launches the other of two graphs until *count reaches 4
__global__ void pingpong(cudaGraphExec_t *two, int which, int *count)
{
	if (threadIdx.x != 0)
		return;
	mark(21 + which);
	if (*count < 4)
		errs[13 + *count % 2] = cudaGraphLaunch(two[1 - which], cudaStreamGraphTailLaunch);
	++*count;
}

// 31: launches s as a sibling and pt as its tail
__global__ void sibling_parent(cudaGraphExec_t s, cudaGraphExec_t pt)
{
	if (threadIdx.x != 0)
		return;
	mark(31);
	errs[9] = cudaGraphLaunch(s, cudaStreamGraphFireAndForgetAsSibling);
	errs[10] = cudaGraphLaunch(pt, cudaStreamGraphTailLaunch);
}

// 30: launches p fire-and-forget and lt as its tail
__global__ void sibling_root(cudaGraphExec_t p, cudaGraphExec_t lt)
{
	if (threadIdx.x != 0)
		return;
	mark(30);
	errs[11] = cudaGraphLaunch(p, cudaStreamGraphFireAndForget);
	errs[12] = cudaGraphLaunch(lt, cudaStreamGraphTailLaunch);
}

// calls that fail, from where r says
__global__ void refused(cudaGraphExec_t g, cudaGraphExec_t host_graph, cudaGraphExec_t not_uploaded, int *r)
{
	if (threadIdx.x != 0)
		return;
	r[0] = cudaGraphLaunch(g, cudaStreamGraphFireAndForget);                    // not in a graph
	r[1] = cudaGetLastError();
	r[2] = (int)(cudaGetCurrentGraphExec() != 0);
}

__global__ void refused_in_graph(cudaGraphExec_t g, cudaGraphExec_t host_graph, cudaGraphExec_t not_uploaded, int *r)
{
	if (threadIdx.x != 0)
		return;
	r[0] = cudaGraphLaunch(not_uploaded, cudaStreamGraphFireAndForget);
	r[1] = cudaGraphLaunch(host_graph, cudaStreamGraphFireAndForget);
	r[2] = cudaGraphLaunch((cudaGraphExec_t)0x1234, cudaStreamGraphTailLaunch);
	r[3] = cudaGraphLaunch(g, (cudaStream_t)0);                                  // an ordinary stream
	r[4] = cudaGraphLaunch(g, cudaStreamGraphFireAndForget);                     // this one is fine
}

// launches count graphs of gs fire-and-forget, or g count times as a tail
__global__ void many(cudaGraphExec_t *gs, cudaGraphExec_t g, int count, int *r)
{
	if (threadIdx.x != 0)
		return;
	for (int i = 0; i < count; i++)
		r[i] = cudaGraphLaunch(gs ? gs[i] : g, gs ? cudaStreamGraphFireAndForget : cudaStreamGraphTailLaunch);
}

__global__ void count_up(int *c)
{
	if (threadIdx.x == 0)
		atomicAdd(c, 1);
}

__global__ void store_to(int *p)
{
	if (threadIdx.x == 0)
		*p = 1;
}

__global__ void cdp_child() {}
__global__ void cdp_parent() { cdp_child<<<1, 1>>>(); }

// A graph of one kernel node, made by capture on s.
template <typename... A, typename... B>
static cudaGraph_t capture(cudaStream_t s, void (*k)(A...), B... args)
{
	cudaGraph_t g;
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	k<<<1, 32, 0, s>>>(args...);
	CK(cudaStreamEndCapture(s, &g));
	return g;
}

static cudaGraphExec_t device_graph(cudaStream_t s, cudaGraph_t g)
{
	cudaGraphExec_t e;
	CK(cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagDeviceLaunch));
	CK(cudaGraphUpload(e, s));
	return e;
}

static void read_log(int *v, int *n)
{
	CK(cudaMemcpyFromSymbol(n, log_n, sizeof *n));
	CK(cudaMemcpyFromSymbol(v, log_v, sizeof(int) * 512));
	int zero = 0;
	CK(cudaMemcpyToSymbol(log_n, &zero, sizeof zero));
}

static int at(const int *v, int n, int m)
{
	for (int i = 0; i < n; i++)
		if (v[i] == m)
			return i;
	return -1;
}

static void print_log(const char *what, const int *v, int n)
{
	printf("%s:", what);
	for (int i = 0; i < n; i++)
		printf(" %d", v[i]);
	printf("\n");
}

// On ptxvm, the schedule docs/EXECUTION.md describes (one of those CUDA
// allows) is checked exactly; a GPU may run concurrent graphs in any order.
static void expect_schedule(bool on_ptxvm, const char *what, const int *v, int n, const int *want, int nw)
{
	if (!on_ptxvm) {
		printf("skipped: %s: the exact order is ptxvm's schedule, not the device's\n", what);
		return;
	}
	expect(n == nw && !memcmp(v, want, nw * sizeof *v), "ptxvm's schedule: %s", what);
}

int main()
{
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	bool on_ptxvm = !strcmp(prop.name, "ptxvm");
	cudaStream_t s;
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	int v[512], n, e[16];

	// fire-and-forget and tail launches from a host graph's kernel
	cudaGraphExec_t a = device_graph(s, capture(s, marker, 1)), b = device_graph(s, capture(s, marker, 2));
	cudaGraphExec_t t1 = device_graph(s, capture(s, marker, 3)), t2 = device_graph(s, capture(s, marker, 4));
	cudaGraphExec_t l;
	CK(cudaGraphInstantiate(&l, capture(s, launcher, a, b, t1, t2), 0));
	CK(cudaGraphLaunch(l, s));
	CK(cudaStreamSynchronize(s));
	read_log(v, &n);
	CK(cudaMemcpyFromSymbol(e, errs, sizeof e));
	print_log("fire-and-forget and tail", v, n);
	expect(n == 5 && at(v, n, 10) == 0, "the launcher and 4 graphs ran, the launcher first (%d marks)", n);
	expect(at(v, n, 1) >= 0 && at(v, n, 2) >= 0 && at(v, n, 3) > at(v, n, 1) && at(v, n, 3) > at(v, n, 2) &&
		       at(v, n, 4) == at(v, n, 3) + 1,
	       "the tail launches ran after the fire-and-forget graphs, in the order they were queued");
	int sched1[5] = { 10, 1, 2, 3, 4 };
	expect_schedule(on_ptxvm, "the launcher, its fire-and-forget graphs in launch order, its tails", v, n, sched1, 5);
	int want_e[6] = { cudaSuccess, cudaSuccess, cudaSuccess, cudaSuccess, cudaErrorInvalidValue,
			  cudaErrorInvalidValue };
	expect_eq("the launches' results (a graph queued already, a host graph's handle)", e, want_e, 6);

	// a graph that relaunches itself: launched from the host, which uploads it
	int *count;
	CK(cudaMalloc(&count, sizeof *count));
	CK(cudaMemset(count, 0, sizeof *count));
	cudaGraph_t rg = capture(s, relaunch, count, 5);
	cudaGraphExec_t r;
	CK(cudaGraphInstantiateWithFlags(&r, rg, cudaGraphInstantiateFlagDeviceLaunch));
	CK(cudaGraphLaunch(r, s));
	CK(cudaStreamSynchronize(s));
	int hc;
	unsigned long long seen;
	CK(cudaMemcpy(&hc, count, sizeof hc, cudaMemcpyDeviceToHost));
	CK(cudaMemcpyFromSymbol(&seen, seen_exec, sizeof seen));
	CK(cudaMemcpyFromSymbol(e, errs, sizeof e));
	read_log(v, &n);
	expect(hc == 6 && n == 6, "the graph ran 6 times, relaunching itself 5 (count %d, %d runs)", hc, n);
	expect(seen == (unsigned long long)r, "cudaGetCurrentGraphExec() is the graph's exec (%#llx, %#llx)", seen,
	       (unsigned long long)r);
	int want_r[3] = { cudaSuccess, cudaErrorInvalidValue, cudaErrorInvalidValue };
	expect_eq("a second self relaunch, and a fire-and-forget launch of the running graph, fail", e + 6, want_r, 3);

	// two graphs that tail-launch each other in turn: the one that ended
	// may run again
	cudaGraphExec_t two[2], *dtwo;
	CK(cudaMalloc(&dtwo, sizeof two));
	CK(cudaMemset(count, 0, sizeof *count));
	for (int i = 0; i < 2; i++)
		two[i] = device_graph(s, capture(s, pingpong, dtwo, i, count));
	CK(cudaMemcpy(dtwo, two, sizeof two, cudaMemcpyHostToDevice));
	CK(cudaGraphLaunch(two[0], s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(&hc, count, sizeof hc, cudaMemcpyDeviceToHost));
	CK(cudaMemcpyFromSymbol(e, errs, sizeof e));
	read_log(v, &n);
	int want_pp[5] = { 21, 22, 21, 22, 21 };
	expect(hc == 5 && n == 5, "two graphs tail-launched each other 4 times (count %d, %d runs)", hc, n);
	expect_eq("they ran in turn", v, want_pp, n < 5 ? n : 5);
	expect(e[13] == cudaSuccess && e[14] == cudaSuccess, "their launches succeeded (%d, %d)", e[13], e[14]);

	// sibling: p (launched fire-and-forget by a host graph) launches s1 as
	// its sibling and pt as its tail; the host graph's tail lt comes last
	cudaGraphExec_t s1 = device_graph(s, capture(s, marker, 32)), pt = device_graph(s, capture(s, marker, 33));
	cudaGraphExec_t lt = device_graph(s, capture(s, marker, 34));
	cudaGraphExec_t p = device_graph(s, capture(s, sibling_parent, s1, pt));
	cudaGraphExec_t root;
	CK(cudaGraphInstantiate(&root, capture(s, sibling_root, p, lt), 0));
	CK(cudaGraphLaunch(root, s));
	CK(cudaStreamSynchronize(s));
	read_log(v, &n);
	CK(cudaMemcpyFromSymbol(e, errs, sizeof e));
	print_log("sibling", v, n);
	expect(n == 5 && at(v, n, 30) == 0 && at(v, n, 31) == 1 && at(v, n, 32) > 1 && at(v, n, 33) > 1 &&
		       at(v, n, 34) == 4,
	       "the sibling and the tail ran after their launcher, and before the root's tail launch");
	int sched2[5] = { 30, 31, 33, 32, 34 };
	expect_schedule(on_ptxvm, "the sibling runs in the root's environment, after the launcher's tail", v, n,
			sched2, 5);
	int want_s[4] = { 0, 0, 0, 0 };
	expect_eq("the sibling's and the tails' launches succeeded", e + 9, want_s, 4);

	// what is refused
	int *rr, hr[8];
	CK(cudaMalloc(&rr, sizeof hr));
	cudaGraphExec_t nu, hostg;
	CK(cudaGraphInstantiateWithFlags(&nu, capture(s, marker, 40), cudaGraphInstantiateFlagDeviceLaunch));
	CK(cudaGraphInstantiate(&hostg, capture(s, marker, 41), 0));
	refused<<<1, 1, 0, s>>>(a, hostg, nu, rr);
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hr, rr, 3 * sizeof *hr, cudaMemcpyDeviceToHost));
	int want_f[3] = { cudaErrorNotPermitted, cudaErrorNotPermitted, 0 };
	expect_eq("a kernel outside any graph may not launch one (the error, then cudaGetLastError, "
		  "cudaGetCurrentGraphExec() == 0)", hr, want_f, 3);
	cudaGraphExec_t rig;
	CK(cudaGraphInstantiate(&rig, capture(s, refused_in_graph, a, hostg, nu, rr), 0));
	CK(cudaGraphLaunch(rig, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hr, rr, 5 * sizeof *hr, cudaMemcpyDeviceToHost));
	read_log(v, &n);
	int want_g[5] = { cudaErrorInvalidValue, cudaErrorInvalidValue, cudaErrorInvalidValue, cudaErrorInvalidValue,
			  cudaSuccess };
	expect_eq("launches of a graph not uploaded, a host graph, a forged handle, into an ordinary stream", hr,
		  want_g, 5);
	expect(n == 1 && v[0] == 1, "only the valid launch ran (%d marks)", n);

	// limits: 120 fire-and-forget launches per graph run, 255 pending tail launches
	const int nf = 121, nt = 256;
	cudaGraphExec_t fs[nf], *dfs;
	int *counter, *res, hres[nt], want_l[nt];
	CK(cudaMalloc(&counter, sizeof *counter));
	CK(cudaMemset(counter, 0, sizeof *counter));
	CK(cudaMalloc(&res, sizeof hres));
	for (int i = 0; i < nf; i++)
		fs[i] = device_graph(s, capture(s, count_up, counter));
	CK(cudaMalloc(&dfs, sizeof fs));
	CK(cudaMemcpy(dfs, fs, sizeof fs, cudaMemcpyHostToDevice));
	cudaGraphExec_t mf;
	CK(cudaGraphInstantiate(&mf, capture(s, many, dfs, (cudaGraphExec_t)0, nf, res), 0));
	CK(cudaGraphLaunch(mf, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hres, res, nf * sizeof *hres, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(&hc, counter, sizeof hc, cudaMemcpyDeviceToHost));
	for (int i = 0; i < nf; i++)
		want_l[i] = i < 120 ? cudaSuccess : cudaErrorLaunchPendingCountExceeded;
	expect_eq("120 fire-and-forget launches, the 121st refused", hres, want_l, nf);
	expect(hc == 120, "120 graphs ran (%d)", hc);
	CK(cudaMemset(counter, 0, sizeof *counter));
	cudaGraphExec_t mt;
	CK(cudaGraphInstantiate(&mt, capture(s, many, (cudaGraphExec_t *)0, fs[0], nt, res), 0));
	CK(cudaGraphLaunch(mt, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hres, res, nt * sizeof *hres, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(&hc, counter, sizeof hc, cudaMemcpyDeviceToHost));
	for (int i = 0; i < nt; i++)
		want_l[i] = i < 255 ? cudaSuccess : cudaErrorLaunchPendingCountExceeded;
	expect_eq("255 tail launches pending, the 256th refused", hres, want_l, nt);
	expect(hc == 255, "the graph ran 255 times (%d)", hc);

	// instantiation for device launch: what CUDA refuses
	cudaGraph_t cg = capture(s, cdp_parent), empty, hg;
	cudaGraphExec_t x;
	expect(cudaGraphInstantiateWithFlags(&x, cg, cudaGraphInstantiateFlagDeviceLaunch) == cudaErrorInvalidValue,
	       "a kernel that launches grids is refused");
	(void)cudaGetLastError();      // the refusal is the runtime's last error
	CK(cudaGraphCreate(&empty, 0));
	expect(cudaGraphInstantiateWithFlags(&x, empty, cudaGraphInstantiateFlagDeviceLaunch) == cudaErrorInvalidValue,
	       "an empty graph is refused");
	(void)cudaGetLastError();      // the refusal is the runtime's last error
	hg = capture(s, marker, 50);
	expect(cudaGraphInstantiateWithFlags(&x, hg, cudaGraphInstantiateFlagDeviceLaunch |
							  cudaGraphInstantiateFlagAutoFreeOnLaunch) == cudaErrorInvalidValue,
	       "DeviceLaunch with AutoFreeOnLaunch is refused");
	(void)cudaGetLastError();      // the refusal is the runtime's last error
	cudaGraphInstantiateParams ip = {};
	ip.flags = cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUpload;
	ip.uploadStream = s;
	CK(cudaGraphInstantiateWithParams(&x, hg, &ip));
	unsigned long long fl;
	CK(cudaGraphExecGetFlags(x, &fl));
	expect(fl == cudaGraphInstantiateFlagDeviceLaunch, "the exec's flags are DeviceLaunch (%llu)", fl);
	cudaGraphExec_t ul;
	CK(cudaGraphInstantiate(&ul, capture(s, refused_in_graph, x, hostg, nu, rr), 0));
	CK(cudaGraphLaunch(ul, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hr, rr, 5 * sizeof *hr, cudaMemcpyDeviceToHost));
	read_log(v, &n);
	expect(hr[4] == cudaSuccess && n == 1 && v[0] == 50, "a graph uploaded by cudaGraphInstantiateWithParams runs "
	       "from a kernel (%d, %d marks)", hr[4], n);

	// a destroyed graph's handle is refused; a fault in a graph launched
	// from a kernel is the host's launch's failure (last: it ends the context)
	cudaGraphExec_t gone = device_graph(s, capture(s, marker, 60));
	CK(cudaGraphExecDestroy(gone));
	cudaGraphExec_t sg;
	CK(cudaGraphInstantiate(&sg, capture(s, refused_in_graph, gone, hostg, nu, rr), 0));
	CK(cudaGraphLaunch(sg, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(hr, rr, sizeof *hr, cudaMemcpyDeviceToHost));
	expect(hr[0] == cudaErrorInvalidValue, "a destroyed graph's handle: cudaErrorInvalidValue (%d)", hr[0]);
	cudaGraphExec_t faulty = device_graph(s, capture(s, store_to, (int *)0x10)), fl_root;
	CK(cudaGraphInstantiate(&fl_root, capture(s, many, (cudaGraphExec_t *)0, faulty, 1, rr), 0));
	cudaError_t le = cudaGraphLaunch(fl_root, s), se = cudaStreamSynchronize(s);
	expect(se == cudaErrorIllegalAddress && (le == cudaSuccess || le == se),
	       "a fault in a graph launched from a kernel fails the host's launch (%s, %s)", cudaGetErrorName(le),
	       cudaGetErrorName(se));
	return finish();
}
