/* fifo.h: a launch's device printf FIFO (docs/PRINTF.md, "The FIFO").
 *
 * CUDA collects the records of device printf in a FIFO of
 * cudaLimitPrintfFifoSize bytes (1 MiB by default) and prints them when the
 * launch ends; what does not fit is lost.  ptxvm orders the records by CTA
 * (a CTA's own records in the order its warps made them) and keeps them
 * while they fit: the first record that does not fit, and every record
 * after it, are dropped.  Which records are kept is therefore the same for
 * any number of workers, and the host memory held for printf is bounded by
 * a few times the FIFO's size per worker, whatever the kernel prints.
 * The size of a record is the size of its text.
 */
#ifndef PTXVM_FIFO_H
#define PTXVM_FIFO_H

#include "../util/util.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* cudaLimitPrintfFifoSize when the program sets none: an H200 with driver
 * 580 reports 8,650,752 (132 multiprocessors x 64 KiB), not the guide's
 * 1 MiB (tests/cuda-host/printf.cu, run there by tests/hw/record.sh) */
#define FIFO_DEFAULT_BYTES (132u << 16)

/* The records of one CTA while it runs. */
typedef struct FifoCta {
	Buf recs;               /* records: a 4-byte length, then the text */
	size_t room;            /* text bytes this CTA may still keep */
	bool full;              /* a record did not fit: keep no more */
	uint64_t nrec;          /* records made, kept or not */
} FifoCta;

typedef struct FifoEntry FifoEntry;

typedef struct Fifo {
	size_t cap;             /* text bytes the FIFO holds */
	pthread_mutex_t lock;
	FifoEntry *e;           /* finished CTAs' records, by CTA */
	size_t n, capn;
	size_t bytes;           /* text bytes in e */
	uint64_t cut;           /* no CTA after this one keeps a record */
	uint64_t records;       /* records made by the finished CTAs */
} Fifo;

void fifo_init(Fifo *f, size_t cap);
/* CTA id starts: c gets the room it may fill. */
void fifo_cta_begin(Fifo *f, FifoCta *c, uint64_t id);
/* One record of the running CTA (n bytes of text; empty ones are nothing). */
void fifo_cta_put(FifoCta *c, const char *p, size_t n);
/* CTA id has finished: its records join the FIFO, c is emptied. */
void fifo_cta_end(Fifo *f, FifoCta *c, uint64_t id);
/* After the launch: writes the kept records in CTA order to out and frees
 * the FIFO; returns the number of records dropped. */
uint64_t fifo_finish(Fifo *f, FILE *out);

#endif
