// CUB's block- and warp-wide primitives, one kernel each.
#include <cub/cub.cuh>

constexpr int T = 128, I = 4;

__global__ void block_reduce(const int *in, int *out)
{
    using R = cub::BlockReduce<int, T>;
    __shared__ typename R::TempStorage t;
    int v = R(t).Sum(in[blockIdx.x * T + threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

__global__ void block_reduce_raking_max(const float *in, float *out)
{
    using R = cub::BlockReduce<float, T, cub::BLOCK_REDUCE_RAKING>;
    __shared__ typename R::TempStorage t;
    float v = R(t).Reduce(in[blockIdx.x * T + threadIdx.x], cuda::maximum<>());
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

__global__ void block_scan(const int *in, int *out)
{
    using S = cub::BlockScan<int, T>;
    __shared__ typename S::TempStorage t;
    int k[I];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * T * I, k);
    S(t).ExclusiveSum(k, k);
    cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * T * I, k);
}

__global__ void block_scan_warp_scans(const long long *in, long long *out)
{
    using S = cub::BlockScan<long long, T, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename S::TempStorage t;
    long long v = in[threadIdx.x], agg = 0;
    S(t).InclusiveScan(v, v, cuda::maximum<>(), agg);
    out[threadIdx.x] = v + agg;
}

__global__ void block_radix_sort(unsigned *keys, float *vals)
{
    using S = cub::BlockRadixSort<unsigned, T, I, float>;
    __shared__ typename S::TempStorage t;
    unsigned k[I];
    float v[I];
    cub::LoadDirectStriped<T>(threadIdx.x, keys, k);
    cub::LoadDirectStriped<T>(threadIdx.x, vals, v);
    S(t).SortDescending(k, v);
    cub::StoreDirectBlocked(threadIdx.x, keys, k);
    cub::StoreDirectBlocked(threadIdx.x, vals, v);
}

__global__ void block_load_store(const double *in, double *out)
{
    using L = cub::BlockLoad<double, T, I, cub::BLOCK_LOAD_TRANSPOSE>;
    using St = cub::BlockStore<double, T, I, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename L::TempStorage l;
        typename St::TempStorage s;
    } t;
    double v[I];
    L(t.l).Load(in, v);
    __syncthreads();
    for (int i = 0; i < I; i++)
        v[i] *= 2;
    St(t.s).Store(out, v);
}

__global__ void block_histogram(const unsigned char *in, unsigned *hist)
{
    using H = cub::BlockHistogram<unsigned char, T, I, 256>;
    __shared__ typename H::TempStorage t;
    __shared__ unsigned bins[256];
    unsigned char v[I];
    cub::LoadDirectStriped<T>(threadIdx.x, in, v);
    H(t).Histogram(v, bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += T)
        atomicAdd(&hist[b], bins[b]);
}

__global__ void block_discontinuity(const int *in, int *flags)
{
    using D = cub::BlockDiscontinuity<int, T>;
    __shared__ typename D::TempStorage t;
    int v[I], f[I];
    cub::LoadDirectBlocked(threadIdx.x, in, v);
    D(t).FlagHeads(f, v, cuda::std::not_equal_to<>());
    cub::StoreDirectBlocked(threadIdx.x, flags, f);
}

__global__ void block_exchange(int *io)
{
    using X = cub::BlockExchange<int, T, I>;
    __shared__ typename X::TempStorage t;
    int v[I];
    cub::LoadDirectBlocked(threadIdx.x, io, v);
    X(t).BlockedToStriped(v);
    cub::StoreDirectStriped<T>(threadIdx.x, io, v);
}

__global__ void block_merge_sort(int *io)
{
    using M = cub::BlockMergeSort<int, T, I>;
    __shared__ typename M::TempStorage t;
    int v[I];
    cub::LoadDirectBlocked(threadIdx.x, io, v);
    M(t).Sort(v, cuda::std::less<>());
    cub::StoreDirectBlocked(threadIdx.x, io, v);
}

__global__ void block_adjacent_difference(const int *in, int *out)
{
    using A = cub::BlockAdjacentDifference<int, T>;
    __shared__ typename A::TempStorage t;
    int v[I], d[I];
    cub::LoadDirectBlocked(threadIdx.x, in, v);
    A(t).SubtractLeft(v, d, cuda::std::minus<>());
    cub::StoreDirectBlocked(threadIdx.x, out, d);
}

__global__ void block_run_length_decode(const int *vals, const unsigned *lens, int *out)
{
    using D = cub::BlockRunLengthDecode<int, T, 1, I>;
    __shared__ typename D::TempStorage t;
    int v[1] = { vals[threadIdx.x] };
    unsigned l[1] = { lens[threadIdx.x] % 4 };
    unsigned total;
    D d(t, v, l, total);
    int o[I];
    d.RunLengthDecode(o, 0);
    cub::StoreDirectBlocked(threadIdx.x, out, o);
}

__global__ void warp_reduce_scan(const int *in, int *out)
{
    using R = cub::WarpReduce<int>;
    using S = cub::WarpScan<int>;
    __shared__ typename R::TempStorage r[T / 32];
    __shared__ typename S::TempStorage s[T / 32];
    int w = threadIdx.x / 32;
    int v = in[threadIdx.x];
    int sum = R(r[w]).Sum(v);
    int mx = R(r[w]).Reduce(v, cuda::maximum<>());
    int pre;
    S(s[w]).ExclusiveSum(v, pre);
    out[threadIdx.x] = sum + mx + pre;
}

__global__ void warp_reduce_logical(const unsigned *in, unsigned *out)
{
    using R = cub::WarpReduce<unsigned, 16>;
    __shared__ typename R::TempStorage r[T / 16];
    unsigned v = R(r[threadIdx.x / 16]).HeadSegmentedSum(in[threadIdx.x], threadIdx.x % 5 == 0);
    out[threadIdx.x] = v;
}

__global__ void warp_merge_sort(float *io)
{
    using M = cub::WarpMergeSort<float, I, 32>;
    __shared__ typename M::TempStorage t[T / 32];
    float v[I];
    cub::LoadDirectBlocked(threadIdx.x, io, v);
    M(t[threadIdx.x / 32]).Sort(v, cuda::std::less<>());
    cub::StoreDirectBlocked(threadIdx.x, io, v);
}

__global__ void warp_exchange_load(const short *in, short *out)
{
    using L = cub::WarpLoad<short, I, cub::WARP_LOAD_TRANSPOSE, 32>;
    using X = cub::WarpExchange<short, I, 32>;
    __shared__ typename L::TempStorage l[T / 32];
    __shared__ typename X::TempStorage x[T / 32];
    int w = threadIdx.x / 32;
    short v[I];
    L(l[w]).Load(in + w * 32 * I, v);
    X(x[w]).BlockedToStriped(v, v);
    cub::StoreDirectBlocked(threadIdx.x, out, v);
}
