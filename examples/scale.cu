// scale.cu: y = a * x over n elements, for any element type: the kernel of
// the README's first example and of examples/host.c.
template <typename T>
__global__ void scale(T *y, const T *x, T a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i];
}

template __global__ void scale<float>(float *, const float *, float, int);
template __global__ void scale<double>(double *, const double *, double, int);
