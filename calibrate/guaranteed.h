/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guaranteed.h - the guaranteed bandwidth of `memcal run`: what the memory
 * delivers when every access misses its DRAM row (MemGuard's guaranteed
 * bandwidth, the pool real-time guarantees are drawn from), beside the
 * streaming figures (the ceiling of what is shared best-effort).
 *
 * Three methods (db/include/memcal_db_guaranteed.h):
 *   random-line  every measured core at once reads (then dirties) random
 *                cache lines of its own buffer (randline.h), with enough
 *                independent chains per core to fill the memory system;
 *   single-bank  the same aimed at one DRAM bank, where the board's
 *                address mapping is documented (dram_banks.h); otherwise
 *                stored as skipped with the reason;
 *   declared     the user's figures (--guaranteed-read/-write, --source).
 */
#ifndef MEMCAL_GUARANTEED_H
#define MEMCAL_GUARANTEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure.h"
#include "memcal_db_guaranteed.h"

/* Length of one timed repetition (all cores together). */
#define MEMCAL_GUAR_REP_NS_FULL		100000000ull
#define MEMCAL_GUAR_REP_NS_QUICK	50000000ull
/* The write warm-up runs this many repetitions' time: it must dirty the
 * whole last-level cache so that every later access evicts a dirty line. */
#define MEMCAL_GUAR_WRITE_WARMUP	3
/* Declared figures accepted, MB/s (10^6 bytes/s). */
#define MEMCAL_GUAR_DECLARED_MIN_MBPS	1.0
#define MEMCAL_GUAR_DECLARED_MAX_MBPS	10000000.0

/**
 * struct memcal_guar_spec - how to measure.
 * @reps:    repetitions kept for the median.
 * @warmup:  repetitions run first and discarded.
 * @rep_ns:  length of one repetition.
 * @line:    cache-line size, bytes.
 * @streams: independent chains per core, or 0 to pick them by the sweep.
 * @offs, @n_offs: single-bank: the line offsets of the bank inside each
 *           MEMCAL_DRAM_PLAN_PAGE page; NULL for random lines anywhere.
 */
struct memcal_guar_spec {
	unsigned reps, warmup;
	uint64_t rep_ns;
	unsigned line;
	unsigned streams;
	const uint32_t *offs;
	size_t n_offs;
};

int cal_guaranteed_measure(struct memcal_bench *b,
			   const struct memcal_guar_spec *s, const char *method,
			   struct memcal_guaranteed out[2], double *foreign,
			   char *err, size_t errlen);
double cal_guaranteed_rep(struct memcal_bench *b, unsigned line,
			  unsigned streams, bool write, uint64_t ns,
			  const uint32_t *offs, size_t n_offs);
void cal_guaranteed_skipped(struct memcal_guaranteed *g, const char *traffic,
			    const char *method, const char *reason);
int cal_guaranteed_declared(struct memcal_guaranteed *g, const char *traffic,
			    double mbps, const char *source, char *err,
			    size_t errlen);

#endif /* MEMCAL_GUARANTEED_H */
