// nvcc-flags: -rdc=true
// conditional_graphs.cu: conditional graph nodes and child graphs through
// the runtime, as a CUDA program uses them.  A WHILE node's body counts a
// counter down, its kernel setting the condition to whether it is still
// above 0 (cudaGraphSetConditional), so the turns equal the start; an IF
// node with an else body and a SWITCH run the body the value picks; a
// child graph runs in its node's place, and changes to the graph it was
// made from after do not reach it.
#include "check.h"

__global__ void countdown(cudaGraphConditionalHandle h, unsigned *p)
{
	if (threadIdx.x == 0) {
		unsigned left = --p[0];
		p[1]++;
		cudaGraphSetConditional(h, left != 0);
	}
}

__global__ void setv(cudaGraphConditionalHandle h, unsigned v) { cudaGraphSetConditional(h, v); }

__global__ void mark(unsigned *p, unsigned i) { atomicAdd(&p[i], 1u); }

static cudaGraphNode_t cond_node(cudaGraph_t g, cudaGraphNode_t *dep, cudaGraphConditionalHandle h,
				 cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t **body)
{
	cudaGraphNodeParams np = {};
	np.type = cudaGraphNodeTypeConditional;
	np.conditional.handle = h;
	np.conditional.type = type;
	np.conditional.size = size;
	cudaGraphNode_t n;
	CK(cudaGraphAddNode(&n, g, dep, NULL, dep ? 1 : 0, &np));
	*body = np.conditional.phGraph_out;
	return n;
}

// a kernel node of one block of one thread
template <typename A, typename B>
static cudaGraphNode_t kernel_node(cudaGraph_t g, cudaGraphNode_t *dep, void (*f)(A, B), A a, B b)
{
	cudaKernelNodeParams kp;
	memset(&kp, 0, sizeof kp);
	void *args[] = { &a, &b };
	kp.func = (void *)f;
	kp.gridDim = dim3(1);
	kp.blockDim = dim3(1);
	kp.kernelParams = args;
	cudaGraphNode_t n;
	CK(cudaGraphAddKernelNode(&n, g, dep, dep ? 1 : 0, &kp));
	return n;
}

int main()
{
	unsigned *p;
	CK(cudaMalloc(&p, 8 * sizeof *p));
	cudaStream_t s;
	CK(cudaStreamCreate(&s));
	unsigned w[8];

	// WHILE: turns == start, for several starts, the default reassigned at each launch
	cudaGraph_t g;
	cudaGraph_t *body;
	cudaGraphConditionalHandle h;
	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
	cond_node(g, NULL, h, cudaGraphCondTypeWhile, 1, &body);
	kernel_node(body[0], NULL, countdown, h, p);
	cudaGraphExec_t x;
	CK(cudaGraphInstantiate(&x, g, 0));
	const unsigned starts[] = { 10, 1, 100 };
	for (unsigned start : starts) {
		unsigned init[2] = { start, 0 };
		CK(cudaMemcpy(p, init, sizeof init, cudaMemcpyHostToDevice));
		CK(cudaGraphLaunch(x, s));
		CK(cudaStreamSynchronize(s));
		CK(cudaMemcpy(w, p, 2 * sizeof *w, cudaMemcpyDeviceToHost));
		expect(w[0] == 0 && w[1] == start, "a WHILE node counts %u down in %u turns (%u left)", start, w[1], w[0]);
	}
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));

	// IF with an else body, and SWITCH: the body the value set before picks
	for (unsigned v = 0; v < 4; v++) {
		CK(cudaGraphCreate(&g, 0));
		CK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
		cudaGraphNode_t set = kernel_node(g, NULL, setv, h, v);
		cond_node(g, &set, h, cudaGraphCondTypeIf, 2, &body);
		kernel_node(body[0], NULL, mark, p, 0u);
		kernel_node(body[1], NULL, mark, p, 1u);
		cudaGraphConditionalHandle hs;
		CK(cudaGraphConditionalHandleCreate(&hs, g, 0, cudaGraphCondAssignDefault));
		cudaGraphNode_t set2 = kernel_node(g, NULL, setv, hs, v);
		cond_node(g, &set2, hs, cudaGraphCondTypeSwitch, 3, &body);
		for (unsigned i = 0; i < 3; i++)
			kernel_node(body[i], NULL, mark, p, 2 + i);
		CK(cudaGraphInstantiate(&x, g, 0));
		CK(cudaMemset(p, 0, 8 * sizeof *p));
		CK(cudaGraphLaunch(x, s));
		CK(cudaStreamSynchronize(s));
		CK(cudaMemcpy(w, p, sizeof w, cudaMemcpyDeviceToHost));
		expect(w[0] == (v != 0) && w[1] == (v == 0), "IF/else on %u: then %u, else %u", v, w[0], w[1]);
		expect(w[2] == (v == 0) && w[3] == (v == 1) && w[4] == (v == 2),
		       "SWITCH of 3 on %u: bodies %u %u %u", v, w[2], w[3], w[4]);
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));
	}

	// a child graph: copied when its node is made
	cudaGraph_t child, parent;
	CK(cudaGraphCreate(&child, 0));
	kernel_node(child, NULL, mark, p, 5u);
	CK(cudaGraphCreate(&parent, 0));
	cudaGraphNode_t c1, c2;
	CK(cudaGraphAddChildGraphNode(&c1, parent, NULL, 0, child));
	CK(cudaGraphAddChildGraphNode(&c2, parent, &c1, 1, child));
	kernel_node(child, NULL, mark, p, 6u);         // after the nodes were made: not in the parent
	CK(cudaGraphInstantiate(&x, parent, 0));
	CK(cudaMemset(p, 0, 8 * sizeof *p));
	CK(cudaGraphLaunch(x, s));
	CK(cudaGraphLaunch(x, s));
	CK(cudaStreamSynchronize(s));
	CK(cudaMemcpy(w, p, sizeof w, cudaMemcpyDeviceToHost));
	expect(w[5] == 4 && w[6] == 0, "two launches of two child graph nodes: %u marks, %u of a later change",
	       w[5], w[6]);
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(parent));
	CK(cudaGraphDestroy(child));
	CK(cudaStreamDestroy(s));
	CK(cudaFree(p));
	return finish();
}
