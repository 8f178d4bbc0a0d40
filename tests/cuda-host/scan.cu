// Thrust's inclusive_scan, CUB's single-pass scan with decoupled look-back:
// a tile publishes its status and value with one st.relaxed.v2 and later
// tiles read them with one ld.relaxed.v2, from other workers.  Each half of
// such a vector access must be seen with the other (docs/EXECUTION.md); when
// ptxvm made it one access per element, 15 of 16 million sums came out
// wrong on 2 workers with the machine otherwise idle (busy, the workers
// rarely overlap: t_threads' tear case is the sharper test).  32-bit values
// (8-byte tile descriptors) and 64-bit ones (16-byte), checked against the
// sums on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include "check.h"

template <typename T> static void scan(const char *what, size_t n)
{
	thrust::device_vector<T> in(n), out(n);
	thrust::sequence(in.begin(), in.end());
	thrust::inclusive_scan(in.begin(), in.end(), out.begin());
	thrust::host_vector<T> got = out;
	T sum = 0;
	size_t bad = 0, first = n;
	for (size_t i = 0; i < n; i++) {
		sum += (T)i;
		if (got[i] != sum && !bad++)
			first = i;
	}
	expect(bad == 0, "%s: inclusive_scan of %zu values, %zu wrong (the first at %zu)", what, n, bad, first);
}

int main(void)
{
	scan<unsigned>("32-bit", (size_t)1 << 24);
	scan<unsigned long long>("64-bit", (size_t)1 << 23);
	return finish();
}
