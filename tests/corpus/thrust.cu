// Thrust algorithms on device vectors: the host calls instantiate CUB's
// kernels (transform takes CUB's prefetching path, as Thrust asks for
// stable addresses; cub_device.cu has the bulk-copy one).
#include <thrust/device_vector.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/count.h>
#include <thrust/unique.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};
struct saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

void thrust_algorithms(int n)
{
    thrust::device_vector<int> v(n), w(n);
    thrust::device_vector<float> x(n), y(n);
    thrust::sequence(v.begin(), v.end());
    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy{ 2.0f });
    int s = thrust::reduce(v.begin(), v.end());
    thrust::inclusive_scan(v.begin(), v.end(), w.begin());
    int c = (int)thrust::count_if(v.begin(), v.end(), is_odd());
    thrust::unique(v.begin(), v.end());
    (void)s;
    (void)c;
}
