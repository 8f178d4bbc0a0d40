// box_blur.cu: a 3x3 box blur reading and writing 8-bit images through
// surface objects, clamped at the borders.  `make demo` checks its PTX.
extern "C" __global__ void box_blur(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	unsigned sum = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			sum += surf2Dread<unsigned char>(src, (x + dx) * 1, y + dy, cudaBoundaryModeClamp);
	surf2Dwrite<unsigned char>((unsigned char)(sum / 9), dst, x, y);
}
