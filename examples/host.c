/* host.c: a complete host program on ptxvm's C interface, the way a CUDA
 * program drives a GPU through the driver API: load a PTX module (nvcc
 * -arch=sm_90 -ptx examples/scale.cu), find a kernel, copy data to the
 * device, launch, copy the result back, check it.
 *
 * Build, against an installed ptxvm (make install PREFIX=...):
 *
 *   cc examples/host.c -o host $(pkg-config --cflags --libs ptxvm) \
 *      -Wl,-rpath,$(pkg-config --variable=libdir ptxvm)
 *   ./host examples/scale.ptx
 *
 * or in the build tree: cc examples/host.c -Iinclude -Lbuild -lptxvm
 * -Wl,-rpath,$PWD/build.  `make test` builds and runs it both ways.
 */
#include <ptxvm.h>

#include <stdio.h>
#include <stdlib.h>

#define N 1000

/* Every call returns a CUDA error code; the device says what went wrong. */
#define CHECK(call) \
	do { \
		ptxvm_result r_ = (call); \
		if (r_ != PTXVM_SUCCESS) { \
			fprintf(stderr, "%s failed: %s: %s\n", #call, ptxvm_result_name(r_), \
				ptxvm_device_message(dev)); \
			exit(1); \
		} \
	} while (0)

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "examples/scale.ptx";

	/* 1. Check the module as ptxas would; diagnostics read like gcc's. */
	ptxvm_module *m = ptxvm_module_load_file(path, NULL);
	if (!m || ptxvm_module_errors(m)) {
		char *diag = ptxvm_module_diagnostics(m);
		fprintf(stderr, "%s", diag ? diag : "cannot read the module\n");
		free(diag);
		return 1;
	}

	/* 2. A device, and the module loaded onto it (cuModuleLoadData). */
	ptxvm_device *dev = ptxvm_device_create(NULL);
	ptxvm_program *prog;
	CHECK(ptxvm_program_load(dev, m, &prog));
	ptxvm_module_free(m);

	/* 3. The kernel by its PTX name: scale<float> is mangled, as for
	 *    cuModuleGetFunction (`ptxvm run FILE --list` shows the names). */
	const ptxvm_kernel *k = ptxvm_kernel_find(prog, "_Z5scaleIfEvPT_PKS0_S0_i");
	if (!k) {
		fprintf(stderr, "no kernel scale<float> in %s\n", path);
		return 1;
	}

	/* 4. Device memory, and the input copied in. */
	float x[N], y[N];
	for (int i = 0; i < N; i++)
		x[i] = (float)i;
	uint64_t dx, dy;
	CHECK(ptxvm_mem_alloc(dev, sizeof x, &dx));
	CHECK(ptxvm_mem_alloc(dev, sizeof y, &dy));
	CHECK(ptxvm_memcpy_htod(dev, dx, x, sizeof x));

	/* 5. The launch: a pointer to each parameter's value, in order. */
	float a = 2.5f;
	int n = N;
	void *args[] = { &dy, &dx, &a, &n };
	ptxvm_launch_config cfg = { { (N + 255) / 256, 1, 1 }, { 256, 1, 1 }, 0, { 0, 0, 0 } };
	ptxvm_launch_stats st;
	CHECK(ptxvm_launch(dev, k, &cfg, args, &st));

	/* 6. The result back, and checked. */
	CHECK(ptxvm_memcpy_dtoh(dev, y, dy, sizeof y));
	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += y[i] != a * x[i];
	printf("scale<float>: %d elements, y[%d] = %g, %llu warp instructions: %s\n", N, N - 1, (double)y[N - 1],
	       (unsigned long long)st.warp_instructions, bad ? "WRONG" : "ok");

	CHECK(ptxvm_mem_free(dev, dx));
	CHECK(ptxvm_mem_free(dev, dy));
	ptxvm_program_unload(prog);
	ptxvm_device_destroy(dev);
	return bad != 0;
}
