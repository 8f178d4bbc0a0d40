// CUDA arrays and surface objects in every geometry: 1D, 2D, 3D, 1D and 2D
// layered, cubemap, cubemap layered.  Kernels store through a surface and
// the host reads the array back; the host fills an array and kernels load
// through a surface.  Element: one 32-bit unsigned; x in bytes.
#include "check.h"

enum Geo { G1D, G2D, G3D, G1DL, G2DL, GCUBE, GCUBEL };
static const char *const names[] = { "1D", "2D", "3D", "1D layered", "2D layered", "cubemap", "cubemap layered" };

__host__ __device__ static unsigned pattern(int x, int y, int z, unsigned salt)
{
	return (unsigned)x * 0x9e3779b1u ^ (unsigned)y * 0x85ebca6bu ^ (unsigned)z * 0xc2b2ae35u ^ salt;
}

// x, y and z are the element's coordinates in the array's memory: z is the
// depth, layer, face, or layer * 6 + face.
__global__ void store(cudaSurfaceObject_t s, int geo, int w, unsigned salt)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
	if (x >= w)
		return;
	unsigned v = pattern(x, y, z, salt);
	switch (geo) {
	case G1D: surf1Dwrite(v, s, x * 4); break;
	case G2D: surf2Dwrite(v, s, x * 4, y); break;
	case G3D: surf3Dwrite(v, s, x * 4, y, z); break;
	case G1DL: surf1DLayeredwrite(v, s, x * 4, z); break;
	case G2DL: surf2DLayeredwrite(v, s, x * 4, y, z); break;
	case GCUBE: surfCubemapwrite(v, s, x * 4, y, z); break;
	case GCUBEL: surfCubemapLayeredwrite(v, s, x * 4, y, z); break;
	}
}

__global__ void load(cudaSurfaceObject_t s, int geo, int w, int h, unsigned *out)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
	if (x >= w)
		return;
	unsigned v = 0;
	switch (geo) {
	case G1D: v = surf1Dread<unsigned>(s, x * 4); break;
	case G2D: v = surf2Dread<unsigned>(s, x * 4, y); break;
	case G3D: v = surf3Dread<unsigned>(s, x * 4, y, z); break;
	case G1DL: v = surf1DLayeredread<unsigned>(s, x * 4, z); break;
	case G2DL: v = surf2DLayeredread<unsigned>(s, x * 4, y, z); break;
	case GCUBE: v = surfCubemapread<unsigned>(s, x * 4, y, z); break;
	case GCUBEL: v = surfCubemapLayeredread<unsigned>(s, x * 4, y, z); break;
	}
	out[((size_t)z * h + y) * w + x] = v;
}

// array <-> packed host buffer of w x h x d elements
static void copy(cudaArray_t a, unsigned *host, int w, int h, int d, bool to_array)
{
	cudaMemcpy3DParms p = {};
	cudaPitchedPtr hp = make_cudaPitchedPtr(host, w * sizeof(unsigned), w, h);
	if (to_array) {
		p.srcPtr = hp;
		p.dstArray = a;
		p.kind = cudaMemcpyHostToDevice;
	} else {
		p.srcArray = a;
		p.dstPtr = hp;
		p.kind = cudaMemcpyDeviceToHost;
	}
	p.extent = make_cudaExtent(w, h, d);
	CK(cudaMemcpy3D(&p));
}

int main()
{
	cudaChannelFormatDesc f = cudaCreateChannelDesc<unsigned>();
	for (int geo = G1D; geo <= GCUBEL; geo++) {
		// the memory's extent: w x h x d; what cudaMalloc3DArray is given
		int w = 13, h = 5, d = 4;
		cudaExtent e;
		unsigned flags = cudaArraySurfaceLoadStore;
		switch (geo) {
		case G1D: h = 1, d = 1, e = make_cudaExtent(w, 0, 0); break;
		case G2D: d = 1, e = make_cudaExtent(w, h, 0); break;
		case G3D: e = make_cudaExtent(w, h, d); break;
		case G1DL: h = 1, d = 3, e = make_cudaExtent(w, 0, 3), flags |= cudaArrayLayered; break;
		case G2DL: d = 3, e = make_cudaExtent(w, h, 3), flags |= cudaArrayLayered; break;
		case GCUBE: w = h = 8, d = 6, e = make_cudaExtent(8, 8, 6), flags |= cudaArrayCubemap; break;
		default: w = h = 8, d = 12, e = make_cudaExtent(8, 8, 12), flags |= cudaArrayCubemap | cudaArrayLayered; break;
		}
		size_t n = (size_t)w * h * d;
		unsigned *got = (unsigned *)malloc(n * 4), *want = (unsigned *)malloc(n * 4);
		cudaArray_t a;
		if (geo == G1D || geo == G2D)
			CK(cudaMallocArray(&a, &f, w, geo == G1D ? 0 : h, flags));
		else
			CK(cudaMalloc3DArray(&a, &f, e, flags));
		cudaResourceDesc rd = {};
		rd.resType = cudaResourceTypeArray;
		rd.res.array.array = a;
		cudaSurfaceObject_t s = 0;
		CK(cudaCreateSurfaceObject(&s, &rd));
		dim3 grid((w + 31) / 32, h, d);
		char what[96];

		unsigned salt = 0x1000u * (unsigned)geo + 1;
		store<<<grid, 32>>>(s, geo, w, salt);
		CK(cudaGetLastError());
		CK(cudaDeviceSynchronize());
		copy(a, got, w, h, d, false);
		for (int z = 0; z < d; z++)
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					want[((size_t)z * h + y) * w + x] = pattern(x, y, z, salt);
		snprintf(what, sizeof what, "%s array: surface stores, read back by cudaMemcpy3D", names[geo]);
		expect_eq(what, got, want, n);

		salt ^= 0xabcdef00u;
		for (int z = 0; z < d; z++)
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					want[((size_t)z * h + y) * w + x] = pattern(x, y, z, salt);
		copy(a, want, w, h, d, true);
		unsigned *dout;
		CK(cudaMalloc(&dout, n * 4));
		CK(cudaMemset(dout, 0, n * 4));
		load<<<grid, 32>>>(s, geo, w, h, dout);
		CK(cudaMemcpy(got, dout, n * 4, cudaMemcpyDeviceToHost));
		snprintf(what, sizeof what, "%s array: written by cudaMemcpy3D, surface loads", names[geo]);
		expect_eq(what, got, want, n);

		cudaChannelFormatDesc qf;
		cudaExtent qe;
		unsigned qflags = 0;
		CK(cudaArrayGetInfo(&qf, &qe, &qflags, a));
		expect(qe.width == e.width && qe.height == e.height && qe.depth == e.depth && qflags == flags && qf.x == 32,
		       "%s array: cudaArrayGetInfo (%zu x %zu x %zu, flags 0x%x)", names[geo], qe.width, qe.height,
		       qe.depth, qflags);
		CK(cudaDestroySurfaceObject(s));
		CK(cudaFreeArray(a));
		CK(cudaFree(dout));
		free(got);
		free(want);
	}

	// 2D arrays through cudaMemcpy2DToArray / FromArray, at an offset
	cudaArray_t a;
	CK(cudaMallocArray(&a, &f, 16, 16, cudaArraySurfaceLoadStore));
	unsigned blk[4][5], back[4][5];
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 5; x++)
			blk[y][x] = pattern(x, y, 7, 0);
	CK(cudaMemcpy2DToArray(a, 3 * 4, 2, blk, 5 * 4, 5 * 4, 4, cudaMemcpyHostToDevice));
	CK(cudaMemcpy2DFromArray(back, 5 * 4, a, 3 * 4, 2, 5 * 4, 4, cudaMemcpyDeviceToHost));
	expect_eq("cudaMemcpy2DToArray / FromArray at (3, 2)", &back[0][0], &blk[0][0], 20);
	CK(cudaFreeArray(a));

	// a surface object over an array not made for surfaces: an H200's
	// driver makes it all the same
	CK(cudaMallocArray(&a, &f, 16, 16, 0));
	cudaResourceDesc rd = {};
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	cudaSurfaceObject_t s;
	cudaError_t e = cudaCreateSurfaceObject(&s, &rd);
	expect(e == cudaSuccess,
	       "a surface object over an array without cudaArraySurfaceLoadStore: %s", cudaGetErrorName(e));
	if (e == cudaSuccess)
		CK(cudaDestroySurfaceObject(s));
	CK(cudaFreeArray(a));
	return finish();
}
