/* suite.cl: the kernels of suite.cu in OpenCL C, for PoCL (suite.sh): the
 * same operations in the same order, multiply-adds as fma, nothing else
 * contracted. */
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

__kernel void vec_add(__global const float *a, __global const float *b, __global float *c, int n)
{
	int i = get_global_id(0);
	if (i < n)
		c[i] = a[i] + b[i];
}

__kernel void saxpy(float alpha, __global const float *x, __global const float *y, __global float *out, int n)
{
	int i = get_global_id(0);
	if (i < n)
		out[i] = fma(alpha, x[i], y[i]);
}

__kernel void fma_loop(__global float *out, int iters)
{
	int i = get_global_id(0);
	float x = (float)i * 1e-6f;
	for (int k = 0; k < iters; k++) {
		x = fma(x, 0.999f, 0.001f);
		x = fma(x, 1.001f, -0.002f);
		x = fma(x, 0.998f, 0.003f);
		x = fma(x, 1.002f, -0.001f);
		x = fma(x, 0.997f, 0.002f);
		x = fma(x, 1.003f, -0.003f);
		x = fma(x, 0.996f, 0.001f);
		x = fma(x, 1.004f, -0.001f);
	}
	out[i] = x;
}

__kernel void block_reduce(__global const float *in, __global float *out, int n)
{
	__local float s[256];
	int t = get_local_id(0);
	int i = get_group_id(0) * 256 + t;
	s[t] = i < n ? in[i] : 0.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int w = 128; w > 0; w >>= 1) {
		if (t < w)
			s[t] += s[t + w];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (t == 0)
		out[get_group_id(0)] = s[0];
}

__kernel void histogram(__global const uint *in, __global uint *bins, int n)
{
	for (int i = get_global_id(0); i < n; i += get_global_size(0))
		atomic_inc(&bins[in[i] & 255]);
}

__kernel void histogram_shared(__global const uint *in, __global uint *bins, int n)
{
	__local uint s[256];
	int t = get_local_id(0);
	s[t] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = get_global_id(0); i < n; i += get_global_size(0))
		atomic_inc(&s[in[i] & 255]);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (s[t])
		atomic_add(&bins[t], s[t]);
}

__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int n)
{
	__local float As[16][16], Bs[16][16];
	int tx = get_local_id(0), ty = get_local_id(1);
	int row = get_group_id(1) * 16 + ty, col = get_group_id(0) * 16 + tx;
	float acc = 0.0f;
	for (int t = 0; t < n; t += 16) {
		As[ty][tx] = A[row * n + t + tx];
		Bs[ty][tx] = B[(t + ty) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < 16; k++)
			acc = fma(As[ty][k], Bs[k][tx], acc);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	C[row * n + col] = acc;
}

__kernel void stencil5(__global const float *in, __global float *out, int w, int h)
{
	int x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
	int i = y * w + x;
	if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
		out[i] = in[i];
	else
		out[i] = ((((in[i] + in[i - 1]) + in[i + 1]) + in[i - w]) + in[i + w]) * 0.2f;
}

__kernel void collatz(__global uint *steps, int count)
{
	int i = get_global_id(0);
	if (i >= count)
		return;
	ulong v = (ulong)i + 1;
	uint s = 0;
	while (v != 1) {
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		s++;
	}
	steps[i] = s;
}
