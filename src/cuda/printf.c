/* printf.c: device printf output, held until a synchronisation point.
 *
 * On a GPU the records of device printf wait in the context's FIFO until
 * the host flushes it, at the points the CUDA Programming Guide lists
 * ("Formatted Output"): the start of a kernel launch, cuCtxSynchronize,
 * cuStreamSynchronize, cuEventSynchronize, a blocking copy, module load
 * and unload, context destruction, before a stream callback.  A program
 * whose host printf comes before such a point therefore prints before its
 * kernels' output, whatever the launches did meanwhile.
 *
 * ptxvm's launches finish before their call returns and write their output
 * (already held to the FIFO's size, docs/PRINTF.md) to the device's printf
 * stream.  That stream is this file's: it keeps the text, and cu_printf_flush
 * writes it to stdout, at the points above.  Since a launch flushes what was
 * held before it starts, what is held is at most one launch's FIFO. */
#include "cu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;  /* held, and the order of flushes */
static char *held;
static size_t len, cap;
static _Atomic int pending;     /* len != 0: a flush with nothing held takes no lock */
static int blocking;    /* CUDA_LAUNCH_BLOCKING=1: a launch flushes when it ends too */
static FILE *stream;    /* the device's printf stream, open until the process ends */

static ssize_t keep(void *cookie, const char *p, size_t n)
{
	(void)cookie;
	pthread_mutex_lock(&lock);
	if (len + n > cap) {
		size_t c = cap ? cap : 4096;
		while (c < len + n)
			c *= 2;
		char *nb = realloc(held, c);
		if (!nb) {      /* no host memory: the record is lost, as a full FIFO loses it */
			pthread_mutex_unlock(&lock);
			return (ssize_t)n;
		}
		held = nb;
		cap = c;
	}
	memcpy(held + len, p, n);
	len += n;
	atomic_store(&pending, 1);
	pthread_mutex_unlock(&lock);
	return (ssize_t)n;
}

void cu_printf_flush(void)
{
	if (!atomic_load(&pending))
		return;
	pthread_mutex_lock(&lock);
	if (len) {
		fwrite(held, 1, len, stdout);
		fflush(stdout);
		len = 0;
	}
	atomic_store(&pending, 0);
	if (cap > (1u << 20)) {         /* a large launch's text is not kept for ever */
		free(held);
		held = NULL;
		cap = 0;
	}
	pthread_mutex_unlock(&lock);
}

void cu_printf_launched(void)
{
	if (blocking)
		cu_printf_flush();
}

void *cu_printf_stream(void)
{
	const char *b = getenv("CUDA_LAUNCH_BLOCKING");
	blocking = b && strcmp(b, "1") == 0;
	stream = fopencookie(NULL, "w", (cookie_io_functions_t){ .write = keep });
	if (!stream)
		return NULL;
	setvbuf(stream, NULL, _IONBF, 0);       /* each launch's text reaches keep whole */
	return stream;
}
