/* stream.c: streams, events, host callbacks, and the asynchronous forms of
 * copies and fills.  ptxvm's launches and copies complete before their
 * call returns, so every stream is always idle: work is in order, a query
 * finds it done, waiting on an event is already satisfied, and a callback
 * runs at once, after all the work submitted before it, on the calling
 * thread; a stream being captured records its work instead (graph.c).
 * Destroyed streams and events are freed; their stale handles are refused
 * (object.c). */
#include "cu.h"

#include <stdlib.h>
#include <time.h>

#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

typedef struct CuStream {
	CuObj obj;
	CUcontext ctx;
	unsigned flags;
	int priority;
} CuStream;

typedef struct CuEvent {
	CuObj obj;
	unsigned flags;
	int recorded;
	struct timespec when;
} CuEvent;

static int special(CUstream s) { return !s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD; }
/* A created stream (NULL for the special ones and stale handles). */
static CuStream *stream_of(CUstream s) { return special(s) ? NULL : cu_obj_get(s, CU_KIND_STREAM); }
static CuEvent *event_of(CUevent e) { return cu_obj_get(e, CU_KIND_EVENT); }

enum { CU_EVENT_DISABLE_TIMING = 0x2 };

CUresult cu_stream_check(CUstream s)
{
	return special(s) || stream_of(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

#define STREAM_CALL(c, s) CTX_CALL(c); do { CUresult r2_ = cu_stream_check(s); if (r2_) return r2_; } while (0)

CUresult cuStreamCreateWithPriority(CUstream *out, unsigned flags, int priority)
{
	CTX_CALL(c);
	if (!out || flags > 1)
		return CUDA_ERROR_INVALID_VALUE;
	CuStream *s = calloc(1, sizeof *s);
	if (!s || !cu_obj_add(s, CU_KIND_STREAM)) {
		free(s);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	s->ctx = CU_HANDLE(CUcontext, c);
	s->flags = flags;
	/* priorities are clamped to the range cuCtxGetStreamPriorityRange gives */
	s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority;
	*out = CU_HANDLE(CUstream, s);
	return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *out, unsigned flags) { return cuStreamCreateWithPriority(out, flags, 0); }

CUresult cuStreamDestroy_v2(CUstream s)
{
	CTX_CALL(c);
	if (special(s) || !cu_obj_free(s, CU_KIND_STREAM))
		return CUDA_ERROR_INVALID_HANDLE;
	return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream s) { return cuStreamDestroy_v2(s); }

CUresult cuStreamSynchronize(CUstream s)
{
	cu_printf_flush();
	STREAM_CALL(c, s);
	if (cu_capturing(s))
		return cu_capture_refuse(s, "cuStreamSynchronize");
	return cu_result(c, ptxvm_device_synchronize(cu_dev.dev), "cuStreamSynchronize");
}

CUresult cuStreamQuery(CUstream s)
{
	STREAM_CALL(c, s);
	if (cu_capturing(s))
		return cu_capture_refuse(s, "cuStreamQuery");
	return CUDA_SUCCESS;
}

CUresult cuStreamGetFlags(CUstream s, unsigned *flags)
{
	STREAM_CALL(c, s);
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	CuStream *st = stream_of(s);
	*flags = st ? st->flags : 0;
	return CUDA_SUCCESS;
}

CUresult cuStreamGetPriority(CUstream s, int *priority)
{
	STREAM_CALL(c, s);
	if (!priority)
		return CUDA_ERROR_INVALID_VALUE;
	CuStream *st = stream_of(s);
	*priority = st ? st->priority : 0;
	return CUDA_SUCCESS;
}

CUresult cuStreamGetCtx(CUstream s, CUcontext *out)
{
	STREAM_CALL(c, s);
	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	CuStream *st = stream_of(s);
	*out = st ? st->ctx : CU_HANDLE(CUcontext, c);
	return CUDA_SUCCESS;
}

CUresult cuStreamGetId(CUstream s, unsigned long long *id)
{
	STREAM_CALL(c, s);
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	*id = (unsigned long long)(uintptr_t)s;     /* unique: a slot's generation never repeats */
	return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
	STREAM_CALL(c, s);
	if (!event_of(e))
		return CUDA_ERROR_INVALID_HANDLE;
	if (flags > 1)                  /* CU_EVENT_WAIT_DEFAULT, CU_EVENT_WAIT_EXTERNAL */
		return CUDA_ERROR_INVALID_VALUE;
	if (flags && cu_capturing(s))
		return cu_capture_event_wait(s, e);
	return cu_capture_wait(s, e);   /* the event's work is done, unless it marks a capture */
}

typedef void (*CUstreamCallback)(CUstream s, CUresult status, void *data);
typedef void (*CUhostFn)(void *data);

CUresult cuStreamAddCallback(CUstream s, CUstreamCallback fn, void *data, unsigned flags)
{
	STREAM_CALL(c, s);
	if (!fn || flags)
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_capturing(s))
		return cu_capture_refuse(s, "cuStreamAddCallback");
	cu_printf_flush();      /* CUDA flushes the printf FIFO before a callback */
	fn(s, CUDA_SUCCESS, data);
	return CUDA_SUCCESS;
}

CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *data)
{
	STREAM_CALL(c, s);
	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	if (cu_capturing(s))
		return cu_capture_host(s, fn, data);
	cu_printf_flush();
	fn(data);
	return CUDA_SUCCESS;
}

CU_PT_ALIAS(cuStreamSynchronize, _ptsz);
CU_PT_ALIAS(cuStreamQuery, _ptsz);
CU_PT_ALIAS(cuStreamGetFlags, _ptsz);
CU_PT_ALIAS(cuStreamGetPriority, _ptsz);
CU_PT_ALIAS(cuStreamGetCtx, _ptsz);
CU_PT_ALIAS(cuStreamGetId, _ptsz);
CU_PT_ALIAS(cuStreamWaitEvent, _ptsz);
CU_PT_ALIAS(cuStreamAddCallback, _ptsz);
CU_PT_ALIAS(cuLaunchHostFunc, _ptsz);

/* ---- events ---------------------------------------------------------------------- */
CUresult cuEventCreate(CUevent *out, unsigned flags)
{
	CTX_CALL(c);
	if (!out || (flags & ~0x7u))
		return CUDA_ERROR_INVALID_VALUE;
	CuEvent *e = calloc(1, sizeof *e);
	if (!e || !cu_obj_add(e, CU_KIND_EVENT)) {
		free(e);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	e->flags = flags;
	*out = CU_HANDLE(CUevent, e);
	return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent e)
{
	CTX_CALL(c);
	return cu_obj_free(e, CU_KIND_EVENT) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuEventDestroy(CUevent e) { return cuEventDestroy_v2(e); }

/* In a capture, the event marks the stream's place (and with
 * CU_EVENT_RECORD_EXTERNAL becomes a node that records it in each launch
 * of the graph). */
static CUresult event_record(CUevent h, CUstream s, unsigned flags)
{
	STREAM_CALL(c, s);
	CuEvent *e = event_of(h);
	if (!e)
		return CUDA_ERROR_INVALID_HANDLE;
	if (cu_capturing(s))
		return cu_capture_event(s, h, flags & 1);
	cu_capture_forget(h);
	cu_event_stamp(h);
	return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent h, CUstream s) { return event_record(h, s, 0); }

void cu_event_stamp(CUevent h)
{
	CuEvent *e = event_of(h);
	if (!e)
		return;
	clock_gettime(CLOCK_MONOTONIC, &e->when);
	e->recorded = 1;
}

CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags)
{
	if (flags > 1)
		return CUDA_ERROR_INVALID_VALUE;
	return event_record(e, s, flags);
}

/* An event recorded in a capture in progress marks no work yet. */
CUresult cuEventQuery(CUevent e)
{
	CTX_CALL(c);
	return !event_of(e) ? CUDA_ERROR_INVALID_HANDLE : cu_capture_marked(e) ? CUDA_ERROR_CAPTURED_EVENT : CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent e)
{
	cu_printf_flush();
	CTX_CALL(c);
	return !event_of(e) ? CUDA_ERROR_INVALID_HANDLE : cu_capture_marked(e) ? CUDA_ERROR_CAPTURED_EVENT : CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *ms, CUevent ha, CUevent hb)
{
	CTX_CALL(c);
	if (!ms)
		return CUDA_ERROR_INVALID_VALUE;
	CuEvent *a = event_of(ha), *b = event_of(hb);
	if (!a || !b ||
	    ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) || !a->recorded || !b->recorded)
		return CUDA_ERROR_INVALID_HANDLE;
	*ms = (float)((double)(b->when.tv_sec - a->when.tv_sec) * 1e3 +
		      (double)(b->when.tv_nsec - a->when.tv_nsec) / 1e6);
	return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) { return cuEventElapsedTime(ms, a, b); }

CU_PT_ALIAS(cuEventRecord, _ptsz);
CU_PT_ALIAS(cuEventRecordWithFlags, _ptsz);

