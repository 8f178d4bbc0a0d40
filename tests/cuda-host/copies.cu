// Pitched 2D and 3D memory: cudaMallocPitch, cudaMemcpy2D between every
// pair of host and device, sub-rectangles, cudaMemset2D; cudaMalloc3D,
// cudaMemcpy3D, cudaMemset3D; device-to-device and peer copies on one device.
#include "check.h"

__global__ void mark2d(unsigned short *p, size_t pitch, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		((unsigned short *)((char *)p + y * pitch))[x] += (unsigned short)(x + 1000 * y);
}

__global__ void mark3d(cudaPitchedPtr p, int w, int h, int d)
{
	int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
	if (x < w && y < h && z < d)
		((int *)((char *)p.ptr + (z * h + y) * p.pitch))[x] ^= x * 7 + y * 131 + z * 1031;
}

int main()
{
	// 2D: a host image through a pitched device image, sub-rectangles
	const int w = 37, h = 23;
	unsigned short img[h][w], back[h][w], want[h][w];
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			img[y][x] = (unsigned short)(y * 401 + x * 3);
	unsigned short *d;
	size_t pitch = 0;
	CK(cudaMallocPitch(&d, &pitch, w * sizeof(short), h));
	expect(pitch >= w * sizeof(short) && pitch % 128 == 0, "cudaMallocPitch: pitch %zu for %zu bytes", pitch,
	       w * sizeof(short));
	CK(cudaMemset2D(d, pitch, 0xab, w * sizeof(short), h));
	CK(cudaMemcpy2D(back, w * sizeof(short), d, pitch, w * sizeof(short), h, cudaMemcpyDeviceToHost));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			want[y][x] = 0xabab;
	expect_eq("cudaMemset2D", &back[0][0], &want[0][0], w * h);
	CK(cudaMemcpy2D(d, pitch, img, w * sizeof(short), w * sizeof(short), h, cudaMemcpyHostToDevice));
	mark2d<<<dim3((w + 15) / 16, (h + 7) / 8), dim3(16, 8)>>>(d, pitch, w, h);
	CK(cudaMemcpy2D(back, w * sizeof(short), d, pitch, w * sizeof(short), h, cudaMemcpyDeviceToHost));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			want[y][x] = (unsigned short)(img[y][x] + x + 1000 * y);
	expect_eq("cudaMemcpy2D host -> pitched -> kernel -> host", &back[0][0], &want[0][0], w * h);

	// a 10x6 rectangle at (5, 4) copied device-to-device to (0, 0) of a
	// second pitched image, then to the host at (2, 3)
	unsigned short *d2;
	size_t pitch2;
	CK(cudaMallocPitch(&d2, &pitch2, 16 * sizeof(short), 8));
	CK(cudaMemcpy2D(d2, pitch2, (char *)d + 4 * pitch + 5 * sizeof(short), pitch, 10 * sizeof(short), 6,
			cudaMemcpyDeviceToDevice));
	memset(back, 0, sizeof back);
	CK(cudaMemcpy2D(&back[3][2], w * sizeof(short), d2, pitch2, 10 * sizeof(short), 6, cudaMemcpyDeviceToHost));
	unsigned short want2[h][w];
	memset(want2, 0, sizeof want2);
	for (int y = 0; y < 6; y++)
		for (int x = 0; x < 10; x++)
			want2[3 + y][2 + x] = want[4 + y][5 + x];
	expect_eq("cudaMemcpy2D sub-rectangles, device to device to host", &back[0][0], &want2[0][0], w * h);
	expect(cudaMemcpy2D(d2, pitch2, d, pitch, pitch2 + 2, 2, cudaMemcpyDeviceToDevice) == cudaErrorInvalidPitchValue,
	       "a width above the destination pitch: cudaErrorInvalidPitchValue");
	CK(cudaMemcpy2DAsync(d2, pitch2, d, pitch, 16 * sizeof(short), 8, cudaMemcpyDeviceToDevice, 0));
	unsigned short row[16];
	CK(cudaMemcpy(row, (char *)d2 + 7 * pitch2, sizeof row, cudaMemcpyDeviceToHost));
	expect_eq("cudaMemcpy2DAsync, then a plain copy of row 7", row, &want[7][0], 16);

	// 3D
	const int W = 19, H = 7, D = 5;
	int vol[D][H][W], vback[D][H][W], vwant[D][H][W];
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				vol[z][y][x] = z * 100000 + y * 1000 + x;
	cudaPitchedPtr dp;
	cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
	CK(cudaMalloc3D(&dp, ext));
	CK(cudaMemset3D(dp, 0x11, ext));
	cudaMemcpy3DParms cp = {};
	cp.srcPtr = dp;
	cp.dstPtr = make_cudaPitchedPtr(vback, W * sizeof(int), W, H);
	cp.extent = ext;
	cp.kind = cudaMemcpyDeviceToHost;
	CK(cudaMemcpy3D(&cp));
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				vwant[z][y][x] = 0x11111111;
	expect_eq("cudaMemset3D", &vback[0][0][0], &vwant[0][0][0], W * H * D);
	cp = {};
	cp.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(int), W, H);
	cp.dstPtr = dp;
	cp.extent = ext;
	cp.kind = cudaMemcpyHostToDevice;
	CK(cudaMemcpy3D(&cp));
	mark3d<<<dim3(H, D), 32>>>(dp, W, H, D);
	cp = {};
	cp.srcPtr = dp;
	cp.dstPtr = make_cudaPitchedPtr(vback, W * sizeof(int), W, H);
	cp.extent = ext;
	cp.kind = cudaMemcpyDeviceToHost;
	CK(cudaMemcpy3D(&cp));
	for (int z = 0; z < D; z++)
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				vwant[z][y][x] = vol[z][y][x] ^ (x * 7 + y * 131 + z * 1031);
	expect_eq("cudaMemcpy3D host -> pitched volume -> kernel -> host", &vback[0][0][0], &vwant[0][0][0], W * H * D);

	// a 4x3x2 box at (3, 2, 1) of the volume into a packed host box
	int box[2][3][4], bwant[2][3][4];
	cp = {};
	cp.srcPtr = dp;
	cp.srcPos = make_cudaPos(3 * sizeof(int), 2, 1);
	cp.dstPtr = make_cudaPitchedPtr(box, 4 * sizeof(int), 4, 3);
	cp.extent = make_cudaExtent(4 * sizeof(int), 3, 2);
	cp.kind = cudaMemcpyDeviceToHost;
	CK(cudaMemcpy3D(&cp));
	for (int z = 0; z < 2; z++)
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 4; x++)
				bwant[z][y][x] = vwant[1 + z][2 + y][3 + x];
	expect_eq("cudaMemcpy3D of a box at an offset", &box[0][0][0], &bwant[0][0][0], 24);

	// linear device-to-device, cudaMemcpyDefault and peer copies on device 0
	int *a, *b;
	CK(cudaMalloc(&a, sizeof vol));
	CK(cudaMalloc(&b, sizeof vol));
	CK(cudaMemcpy(a, vol, sizeof vol, cudaMemcpyDefault));
	CK(cudaMemcpyPeer(b, 0, a, 0, sizeof vol));
	memset(vback, 0, sizeof vback);
	CK(cudaMemcpy(vback, b, sizeof vol, cudaMemcpyDefault));
	expect_eq("cudaMemcpyDefault and cudaMemcpyPeer within device 0", &vback[0][0][0], &vol[0][0][0], W * H * D);
	CK(cudaMemsetAsync(b, 0x7f, 12, 0));
	CK(cudaMemcpyAsync(a, b, 16, cudaMemcpyDeviceToDevice, 0));
	int four[4];
	CK(cudaMemcpy(four, a, 16, cudaMemcpyDeviceToHost));
	int fwant[4] = { 0x7f7f7f7f, 0x7f7f7f7f, 0x7f7f7f7f, vol[0][0][3] };
	expect_eq("cudaMemsetAsync of 12 bytes, then a device copy", four, fwant, 4);
	expect(cudaMemcpy(NULL, a, 16, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue,
	       "a copy to NULL: cudaErrorInvalidValue");
	CK(cudaFree(d));
	CK(cudaFree(d2));
	CK(cudaFree(dp.ptr));
	CK(cudaFree(a));
	CK(cudaFree(b));
	return finish();
}
