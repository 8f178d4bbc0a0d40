/* pool.h: threads that stay for the next job, so that a launch's workers
 * cost no thread creation (a thread's start and join were most of the
 * time of a launch of a small grid). */
#ifndef PTXVM_POOL_H
#define PTXVM_POOL_H

#include <stdbool.h>

/* A job: fn(arg) on a thread of the pool.  The caller keeps the job until
 * fn has started; the pool does not touch it after. */
typedef struct PoolJob {
	void *(*fn)(void *);
	void *arg;
	struct PoolJob *next;
} PoolJob;

/* Runs the job on an idle thread of the pool, or a new one; false if no
 * thread could start. */
bool pool_run(PoolJob *job);

#endif
