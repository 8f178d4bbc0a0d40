// The device runtime beyond launches (nvcc -rdc=true): events ordering two
// streams of child grids, and the queries, limits and allocations kernels
// can make.  Driven by tests/t_devrt.c.

// a[i] = a[i] * m + v over the grid's 32 elements.
extern "C" __global__ void ev_step(int *a, int m, int v)
{
    a[threadIdx.x] = a[threadIdx.x] * m + v;
}

// Thread 0 launches ev_step (x3 + 1) into stream s1, records event e in s1,
// makes s2 wait for e and launches ev_step (x5 + 2) into s2: with the
// order the event gives, a[i] becomes (3 a[i] + 1) * 5 + 2.  info gets the
// calls' answers, in the order below.
extern "C" __global__ void ev_parent(int *a, long long *info)
{
    if (threadIdx.x != 0)
        return;
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaEvent_t e, bad;
    info[0] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    ev_step<<<1, 32, 0, s1>>>(a, 3, 1);
    info[1] = cudaEventRecord(e, s1);
    info[2] = cudaStreamWaitEvent(s2, e, 0);
    ev_step<<<1, 32, 0, s2>>>(a, 5, 2);
    info[3] = cudaEventRecordWithFlags(e, s1, 0);
    info[4] = cudaEventDestroy(e);
    // events made without cudaEventDisableTiming are refused
    info[5] = cudaEventCreateWithFlags(&bad, 0);
    info[6] = cudaGetLastError();
    // a handle that is no event
    info[7] = cudaEventRecord((cudaEvent_t)0x1234, s1);
    info[8] = cudaGetLastError();
    int n = -1, v = -1;
    info[9] = cudaGetDeviceCount(&n);
    info[10] = n;
    info[11] = cudaRuntimeGetVersion(&v);
    info[12] = v;
    size_t heap = 0, fifo = 0, stack = 0, pend = 0, sync = 7;
    info[13] = cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    info[14] = (long long)heap;
    cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize);
    info[15] = (long long)fifo;
    cudaDeviceGetLimit(&stack, cudaLimitStackSize);
    info[16] = (long long)stack;
    cudaDeviceGetLimit(&pend, cudaLimitDevRuntimePendingLaunchCount);
    info[17] = (long long)pend;
    info[18] = cudaDeviceGetLimit(&sync, cudaLimitDevRuntimeSyncDepth);
    info[19] = cudaGetLastError();
    cudaFuncCache cc = cudaFuncCachePreferL1;
    info[20] = cudaDeviceGetCacheConfig(&cc);
    info[21] = cc;
    int *p = nullptr;
    info[22] = cudaMalloc((void **)&p, 256);
    info[23] = p != nullptr && ((unsigned long long)p & 15) == 0;
    if (p) {
        p[63] = 42;
        info[24] = p[63];
    }
    info[25] = cudaFree(p);
    info[26] = cudaFree((void *)a);     // not a block of the device heap
    info[27] = cudaGetLastError();
    cudaSharedMemConfig sc = cudaSharedMemBankSizeEightByte;
    info[28] = cudaDeviceGetSharedMemConfig(&sc);
    info[29] = sc;
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
}

// Copies and fills in kernels, ordered with launches of the same thread:
// ev_step (x2 + 1) on a[0..31], then a[32..63] = a[0..31] (after the
// step), a[64..95] filled with 0x01 bytes, a[8..15] filled with zeros
// (after the copy took them); the tail launch of ev_step (x1 + 1000) on
// a[64..95] comes last.  info: the calls' answers.
extern "C" __global__ void ev_copy(int *a, int *info)
{
    if (threadIdx.x != 0)
        return;
    ev_step<<<1, 32>>>(a, 2, 1);
    info[0] = cudaMemcpyAsync(a + 32, a, 32 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
    info[1] = cudaMemsetAsync(a + 64, 1, 32 * sizeof(int), 0);
    info[2] = cudaMemsetAsync(a + 8, 0, 8 * sizeof(int));
    ev_step<<<1, 32, 0, cudaStreamTailLaunch>>>(a + 64, 1, 1000);
    info[3] = cudaMemcpyAsync(a, a, 4, cudaMemcpyHostToDevice, 0);
    info[4] = cudaGetLastError();
    info[5] = a[32];    // the copy has not run yet: still what the host wrote
}

// A copy past the end of an allocation: the launch fails, naming the call.
extern "C" __global__ void ev_copy_bad(int *a, int n)
{
    cudaMemcpyAsync(a, a + n, 64, cudaMemcpyDeviceToDevice, 0);
}

// 2D and 3D copies and fills in kernels, on a 3 x 4 x 16-byte box of a
// pitched volume (pitch 32 bytes, 6 rows a plane) in m:
//   m2 rows 1..4, bytes 4..19 of plane 0 <- rows 0..3 bytes 0..15 of src2
//   (cudaMemcpy2DAsync, pitch 16 in src2), then bytes 8..11 of rows 2..3
//   set to 0xab (cudaMemset2DAsync);
//   m3 = the box at (x 2, y 1, z 0) of vol copied to (x 0, y 0, z 1)
//   (cudaMemcpy3DAsync), then the box at (0, 0, 2) filled with 0x5c
//   (cudaMemset3DAsync).  info: the calls' answers.
extern "C" __global__ void ev_copy3(unsigned char *m2, const unsigned char *src2, unsigned char *vol,
                                    unsigned char *m3, int *info)
{
    info[0] = cudaMemcpy2DAsync(m2 + 32 + 4, 32, src2, 16, 16, 4, cudaMemcpyDeviceToDevice, 0);
    info[1] = cudaMemset2DAsync(m2 + 64 + 8, 32, 0xab, 4, 2, 0);
    info[2] = cudaMemcpy2DAsync(m2, 8, src2, 16, 16, 4, cudaMemcpyDefault, 0);     // pitch below the width
    cudaMemcpy3DParms p = {};
    p.srcPtr = cudaPitchedPtr{ vol, 32, 32, 6 };
    p.srcPos = cudaPos{ 2, 1, 0 };
    p.dstPtr = cudaPitchedPtr{ m3, 32, 32, 6 };
    p.dstPos = cudaPos{ 0, 0, 1 };
    p.extent = cudaExtent{ 16, 4, 3 };
    p.kind = cudaMemcpyDeviceToDevice;
    info[3] = cudaMemcpy3DAsync(&p, 0);
    info[4] = cudaMemset3DAsync(cudaPitchedPtr{ m3 + 2 * 32 * 6, 32, 32, 6 }, 0x5c, cudaExtent{ 16, 4, 1 }, 0);
    info[5] = cudaGetLastError();
}

// Copies that would never end: planes that overlap are refused
// (cudaErrorInvalidValue, info[0]); rows 2^63 bytes apart leave memory at
// the second row, which fails the launch.
extern "C" __global__ void ev_copy_wild(unsigned char *m, int *info)
{
    info[0] = cudaMemset3DAsync(cudaPitchedPtr{ m, 32, 32, 0 }, 1, cudaExtent{ 16, 4, 1000000000 }, 0);
    cudaMemset2DAsync(m, 1ull << 63, 1, 16, ~0ull, 0);
}

// The launch API of before CUDA 12's <<<>>> lowering, called by hand:
// a parameter buffer of 64-byte alignment filled for ev_step (a, 3, -4),
// launched; launched again (cudaErrorInvalidValue); a buffer too small for
// ev_copy3's 40 bytes of parameters (cudaErrorInvalidValue); a CTA of 2048
// threads (cudaErrorInvalidConfiguration).  info: the answers.
extern "C" __global__ void ev_launch_v1(int *a, int *info)
{
    void *buf = cudaGetParameterBuffer(64, 16);
    info[0] = buf != nullptr && ((unsigned long long)buf & 63) == 0;
    *(int **)buf = a;
    ((int *)buf)[2] = 3;
    ((int *)buf)[3] = -4;
    info[1] = cudaLaunchDevice((void *)ev_step, buf, dim3(1), dim3(32), 0, 0);
    info[2] = cudaLaunchDevice((void *)ev_step, buf, dim3(1), dim3(32), 0, 0);
    void *small = cudaGetParameterBuffer(8, 24);
    info[3] = cudaLaunchDevice((void *)ev_copy3, small, dim3(1), dim3(1), 0, 0);
    void *b2 = cudaGetParameterBuffer(16, 16);
    *(int **)b2 = a;
    info[4] = cudaLaunchDevice((void *)ev_step, b2, dim3(1), dim3(2048), 0, 0);
}

// How many CTAs of ev_step fit on a multiprocessor (sm_90: 2048 threads,
// 32 CTAs, 64K registers, 228 KiB of shared memory, 1 KiB reserved a CTA).
extern "C" __global__ void ev_occupancy(int *info)
{
    int n = -1;
    info[0] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)ev_step, 128, 0);
    info[1] = n;
    info[2] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)ev_step, 1024, 0);
    info[3] = n;
    info[4] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)ev_step, 32, 200000);
    info[5] = n;
    info[6] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)ev_step, 2048, 0);
    info[7] = n;
    info[8] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, (const void *)ev_step, 32, 0, 1);
    info[9] = n;
    info[10] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, (const void *)ev_step, 32, 0, 2);
}
