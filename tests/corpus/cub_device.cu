// CUB's device-wide algorithms: the host calls instantiate their kernels
// (the tuned sm_90 policies: decoupled look-back, onesweep radix sort, and
// DeviceTransform's bulk copies of its input tiles).
#include <cub/cub.cuh>
#include <cub/device/device_transform.cuh>
#include <cuda/std/tuple>

struct axpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

void device_algorithms(int *d_in, int *d_out, unsigned *keys, float *vals, int n, void *tmp, size_t bytes,
                       cudaStream_t s)
{
    cub::DeviceReduce::Sum(tmp, bytes, d_in, d_out, n, s);
    cub::DeviceScan::ExclusiveSum(tmp, bytes, d_in, d_out, n, s);
    cub::DeviceRadixSort::SortPairs(tmp, bytes, keys, keys + n, vals, vals + n, n, 0, 32, s);
    cub::DeviceSelect::Flagged(tmp, bytes, d_in, (const char *)keys, d_out, d_out + n, n, s);
    cub::DeviceSegmentedReduce::Min(tmp, bytes, d_in, d_out, 8, d_in, d_in + 1, s);
    cub::DeviceTransform::Transform(cuda::std::make_tuple(vals, vals + n), vals + 2 * n, n, axpy{ 2.0f }, s);
}
