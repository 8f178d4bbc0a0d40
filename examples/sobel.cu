// sobel.cu: Sobel edge magnitude of an 8-bit image, read through a surface
// with clamped borders and written through another.  `make demo` runs it
// on a generated image and writes the edges as a PNG.
extern "C" __global__ void sobel(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	int p[3][3];
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			p[dy + 1][dx + 1] = surf2Dread<unsigned char>(src, x + dx, y + dy, cudaBoundaryModeClamp);
	int gx = p[0][2] + 2 * p[1][2] + p[2][2] - p[0][0] - 2 * p[1][0] - p[2][0];
	int gy = p[2][0] + 2 * p[2][1] + p[2][2] - p[0][0] - 2 * p[0][1] - p[0][2];
	int m = abs(gx) + abs(gy);
	surf2Dwrite<unsigned char>((unsigned char)(m > 255 ? 255 : m), dst, x, y);
}
