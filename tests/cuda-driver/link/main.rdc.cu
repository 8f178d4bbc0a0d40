// main.rdc.cu: relocatable code that tests/cuda-driver/driver.c links with
// lib.rdc.cu through cuLinkAddFile: it uses lib's variable `scale` and
// function `twice`; both define the template add1<int> (.weak) and a static
// `bias` of their own (the same private name in each).  make fixtures
// writes main.rdc.ptx (nvcc -arch=sm_90 -rdc=true -lineinfo -ptx).
extern __device__ int scale;
extern __device__ int twice(int);
template <typename T> __device__ __noinline__ T add1(T v) { return v + 1; }
static __device__ int bias = 1000;

// out[t] = twice(t + 1) * scale + bias
extern "C" __global__ void kmain(int *out)
{
	int t = threadIdx.x;
	out[t] = twice(add1(t)) * scale + bias;
}
