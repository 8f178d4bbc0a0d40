// part.cu: the other half of rdc.cu (nvcc -rdc=true): a __device__
// function, __device__ variables and a kernel that rdc.cu uses.
#include "../check.h"

__device__ int scale = 5;
__device__ int table[4] = { 10, 20, 30, 40 };
__device__ int hits;

__device__ int twice_plus(int x) { return 2 * x + table[x & 3]; }

// a kernel of this file that calls a function of the other
__device__ int square(int x);
__global__ void squares(int *out) { out[threadIdx.x] = square((int)threadIdx.x) + scale; }
