/* solo.c: the process's one gate for running alone (solo.h). */
#include "solo.h"

#include <pthread.h>

static struct {
	pthread_mutex_t lock;
	pthread_cond_t given;   /* owner gave up, or ended */
	unsigned running;       /* launches between solo_begin and solo_end */
	Launch *owner;          /* the one running alone; NULL: none */
} gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL };

/* A child of fork has none of the parent's launches. */
static void gate_prepare(void) { pthread_mutex_lock(&gate.lock); }
static void gate_parent(void) { pthread_mutex_unlock(&gate.lock); }
static void gate_child(void)
{
	gate.running = 0;
	gate.owner = NULL;
	pthread_mutex_init(&gate.lock, NULL);
	pthread_cond_init(&gate.given, NULL);
}
static void gate_once(void) { pthread_atfork(gate_prepare, gate_parent, gate_child); }

/* The launch this thread is a worker of, if any. */
static _Thread_local const Launch *mine;

void solo_worker(const Launch *L)
{
	mine = L;
}

/* Ends L's running alone, if it does (gate.lock held). */
static void release(Launch *L)
{
	L->solo = false;
	if (gate.owner == L) {
		gate.owner = NULL;
		pthread_cond_broadcast(&gate.given);
	}
}

/* Counts a user of device memory in, once no launch runs alone.  The
 * alone launch's own worker (a graph callback of the embedder, run inside
 * an instruction, that copies) ends it at once: waiting would be for
 * itself. */
static void enter(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, gate_once);
	pthread_mutex_lock(&gate.lock);
	if (gate.owner && gate.owner == mine)
		release(gate.owner);
	while (gate.owner) {
		atomic_store_explicit(&gate.owner->solo_give, 1, memory_order_relaxed);
		pthread_cond_wait(&gate.given, &gate.lock);
	}
	gate.running++;
}

void solo_begin(Launch *L, bool one)
{
	atomic_init(&L->solo_give, 0);
	enter();
	L->solo = one && gate.running == 1;
	if (L->solo)
		gate.owner = L;
	pthread_mutex_unlock(&gate.lock);
}

/* The unlock publishes the plain writes made alone to the one that waits
 * in enter(), which locks next. */
void solo_give(Launch *L)
{
	pthread_mutex_lock(&gate.lock);
	release(L);
	pthread_mutex_unlock(&gate.lock);
}

void solo_end(Launch *L)
{
	pthread_mutex_lock(&gate.lock);
	release(L);
	gate.running--;
	pthread_mutex_unlock(&gate.lock);
}

void solo_host_begin(void)
{
	enter();
	pthread_mutex_unlock(&gate.lock);
}

void solo_host_end(void)
{
	pthread_mutex_lock(&gate.lock);
	gate.running--;
	pthread_mutex_unlock(&gate.lock);
}
