/* pool.c: the pool of threads (pool.h).  A thread that has run its job
 * waits for the next; one idle for POOL_IDLE seconds ends, and at most
 * POOL_MAX wait at once (any more end at once).  The shared libraries are
 * linked -z nodelete (Makefile): a dlclose leaves the code the waiting
 * threads are in. */
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#define POOL_IDLE 10
#define POOL_MAX 256

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work;
	PoolJob *queue;         /* jobs waiting for a thread, oldest first */
	unsigned idle;          /* threads waiting for a job */
	unsigned queued;
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, 0 };

static void *pool_thread(void *arg)
{
	PoolJob *job = arg;
	while (job) {
		void *(*fn)(void *) = job->fn;
		fn(job->arg);
		pthread_mutex_lock(&pool.lock);
		if (pool.idle >= POOL_MAX) {
			pthread_mutex_unlock(&pool.lock);
			break;
		}
		pool.idle++;
		struct timespec dl;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += POOL_IDLE;
		while (!pool.queue && pthread_cond_timedwait(&pool.work, &pool.lock, &dl) != ETIMEDOUT)
			;
		job = pool.queue;
		if (job) {
			pool.queue = job->next;
			pool.queued--;
		}
		pool.idle--;
		pthread_mutex_unlock(&pool.lock);
	}
	return NULL;
}

/* A child of fork has none of the parent's threads: it starts with an
 * empty pool, else its launches would queue for threads that are not
 * there and wait for ever. */
static void pool_prepare(void) { pthread_mutex_lock(&pool.lock); }
static void pool_parent(void) { pthread_mutex_unlock(&pool.lock); }
static void pool_child(void)
{
	pool.queue = NULL;
	pool.idle = pool.queued = 0;
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.work, NULL);
}
static void pool_once(void) { pthread_atfork(pool_prepare, pool_parent, pool_child); }

bool pool_run(PoolJob *job)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, pool_once);
	pthread_mutex_lock(&pool.lock);
	if (pool.idle > pool.queued) {
		job->next = NULL;
		PoolJob **q = &pool.queue;
		while (*q)
			q = &(*q)->next;
		*q = job;
		pool.queued++;
		pthread_cond_signal(&pool.work);
		pthread_mutex_unlock(&pool.lock);
		return true;
	}
	pthread_mutex_unlock(&pool.lock);
	pthread_attr_t a;
	pthread_t th;
	if (pthread_attr_init(&a))
		return false;
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	bool ok = pthread_create(&th, &a, pool_thread, job) == 0;
	pthread_attr_destroy(&a);
	return ok;
}
