/* registry.c: the process-wide parts of the public interface: the
 * handles of modules, programs and kernels, and each thread's messages.
 *
 * ptxvm.h names modules, programs and kernels with pointer types but no
 * device to look them up in (ptxvm_program_unload(p)), so their handles
 * live in one table for the process.  The values handed out are handles
 * (util/handle.h) cast to the pointer types, never addresses: a stale or
 * doubly freed one is recognised, never dereferenced.  Every use takes a
 * reference under the registry's lock, so an object freed by one thread
 * while another uses it lives until that use ends.  Neither the table nor
 * the messages couple devices: each device stays independent.
 */
#include "host.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static Handles reg;
static bool reg_ready;

uint64_t reg_add(RegObj *o, uint16_t tag)
{
	pthread_mutex_lock(&reg_lock);
	if (!reg_ready)
		reg_ready = handles_init(&reg, NULL, NULL);
	o->refs = 1;
	uint64_t h = reg_ready ? handle_add(&reg, tag, &o->h) : 0;
	pthread_mutex_unlock(&reg_lock);
	return h;
}

/* The object whose reference a use takes: a kernel's program. */
static RegObj *holder(RegObj *o) { return o->owner ? o->owner : o; }

RegObj *reg_get(uint64_t h, uint16_t tag)
{
	pthread_mutex_lock(&reg_lock);
	RegObj *o = reg_ready ? (RegObj *)handle_find(&reg, h, tag) : NULL;
	if (o)
		holder(o)->refs++;
	pthread_mutex_unlock(&reg_lock);
	return o;
}

void reg_put(RegObj *o)
{
	if (!o)
		return;
	o = holder(o);
	pthread_mutex_lock(&reg_lock);
	bool last = --o->refs == 0;
	pthread_mutex_unlock(&reg_lock);
	if (last)
		o->destroy(o);
}

bool reg_remove(uint64_t h, uint16_t tag)
{
	pthread_mutex_lock(&reg_lock);
	RegObj *o = reg_ready ? (RegObj *)handle_find(&reg, h, tag) : NULL;
	if (o)
		handle_remove(&reg, h, tag);
	pthread_mutex_unlock(&reg_lock);
	if (o && !o->owner)
		reg_put(o);     /* the reference the handle held */
	return o != NULL;
}

/* ---- messages ------------------------------------------------------------
 * A thread's message for a device: the list is the thread's own (no lock),
 * freed when the thread exits; an entry exists only while the thread's
 * last call on that device failed. */
typedef struct TMsg {
	struct TMsg *next;
	uint64_t dev;
	char *text;
} TMsg;

static pthread_key_t msg_key;
static pthread_once_t msg_once = PTHREAD_ONCE_INIT;
static bool msg_ok;

static void msg_free_all(void *p)
{
	for (TMsg *m = p, *n; m; m = n) {
		n = m->next;
		free(m->text);
		free(m);
	}
}

static void msg_init(void) { msg_ok = pthread_key_create(&msg_key, msg_free_all) == 0; }

/* Removes the thread's entry for dev; returns the list. */
static TMsg *msg_drop(uint64_t dev)
{
	pthread_once(&msg_once, msg_init);
	if (!msg_ok)
		return NULL;
	TMsg *head = pthread_getspecific(msg_key);
	for (TMsg **p = &head; *p; p = &(*p)->next)
		if ((*p)->dev == dev) {
			TMsg *m = *p;
			*p = m->next;
			free(m->text);
			free(m);
			break;
		}
	return head;
}

void host_vsay(uint64_t dev, const char *fmt, va_list ap)
{
	TMsg *head = msg_drop(dev), *m = NULL;
	char *text = NULL;
	if (msg_ok && fmt && vasprintf(&text, fmt, ap) >= 0 && (m = malloc(sizeof *m))) {
		*m = (TMsg){ head, dev, text };
		head = m;
	} else if (text && !m) {
		free(text);
	}
	if (msg_ok)
		pthread_setspecific(msg_key, head);
}

void host_forget(uint64_t dev)
{
	TMsg *head = msg_drop(dev);
	if (msg_ok)
		pthread_setspecific(msg_key, head);
}

const char *host_message(uint64_t dev)
{
	pthread_once(&msg_once, msg_init);
	if (!msg_ok)
		return "";
	for (const TMsg *m = pthread_getspecific(msg_key); m; m = m->next)
		if (m->dev == dev)
			return m->text;
	return "";
}
