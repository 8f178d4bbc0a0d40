// Device malloc, __nv_aligned_device_malloc and free: blocks that outlive
// the launch that made them, alignment, exhaustion and the faults of a
// bad free.  Driven by tests/t_devrt.c.
#include <cstdint>

// Each thread t of the grid takes (t % 7 + 1) ints, fills them with t and
// records the block; 0 when malloc gave NULL.
extern "C" __global__ void malloc_fill(int **blocks, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    unsigned k = t % 7 + 1;
    int *p = (int *)malloc(k * sizeof(int));
    if (p)
        for (unsigned i = 0; i < k; i++)
            p[i] = (int)t;
    blocks[t] = p;
}

// In a later launch: sums each thread's block, then frees it.
extern "C" __global__ void malloc_sum_free(int **blocks, long long *sums, unsigned n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int *p = blocks[t];
    long long s = -1;
    if (p) {
        s = 0;
        for (unsigned i = 0; i < t % 7 + 1; i++)
            s += p[i];
    }
    sums[t] = s;
    free(p);
}

// One thread takes blocks of `chunk` bytes until malloc gives NULL, chained
// through their first word; frees them all and does it again.  counts[0]
// and counts[1]: the blocks of each round; counts[2]: whether a request
// larger than the whole heap gave NULL; counts[3]: whether free(NULL) and
// malloc(0) behave (malloc(0) gives NULL or a block that can be freed).
extern "C" __global__ void malloc_exhaust(unsigned long long chunk, unsigned long long heap,
                                          unsigned long long *counts)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    for (int round = 0; round < 2; round++) {
        void **head = 0;
        unsigned long long c = 0;
        for (;;) {
            void **p = (void **)malloc(chunk);
            if (!p)
                break;
            *p = head;
            head = p;
            c++;
        }
        while (head) {
            void **next = (void **)*head;
            free(head);
            head = next;
        }
        counts[round] = c;
    }
    counts[2] = malloc(heap + 1) == 0;
    free(0);
    void *z = malloc(0);
    free(z);
    counts[3] = 1;
}

// __nv_aligned_device_malloc: the address of each block, or 0.
extern "C" __global__ void malloc_aligned(unsigned long long *addrs)
{
    unsigned t = threadIdx.x;
    size_t align = (size_t)1 << (t % 12);             // 1 .. 2048
    void *p = __nv_aligned_device_malloc(24 + t, align);
    addrs[t] = (unsigned long long)(uintptr_t)p;
    if (t == 0) {
        addrs[blockDim.x] = (unsigned long long)(uintptr_t)__nv_aligned_device_malloc(16, 48);   // not a power of 2
    }
    if (p)
        ((unsigned char *)p)[23 + t] = 1;
    free(p);
}

// Faults: free of an address malloc did not return (mode 0), a double free
// (mode 1), a store `off` ints past a fresh block (mode 2).
extern "C" __global__ void malloc_abuse(int mode, long long off)
{
    int *p = (int *)malloc(64);
    if (mode == 0)
        free(p + 1);
    if (mode == 1) {
        free(p);
        free(p);
    }
    if (mode == 2) {
        p[off] = 7;
        free(p);
    }
}
