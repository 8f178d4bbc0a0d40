// lib.rdc.cu: what main.rdc.cu links with (see there).
__device__ int scale = 3;
static __device__ int bias = 5;
template <typename T> __device__ __noinline__ T add1(T v) { return v + 1; }

// twice(v) = 2 (v + 1) - 2 + bias
__device__ int twice(int v) { return add1(v) * 2 - 2 + bias; }
