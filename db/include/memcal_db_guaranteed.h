/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_guaranteed.h - the guaranteed bandwidth of a calibration run:
 * what the memory delivers when every access misses its DRAM row
 * (MemGuard's guaranteed bandwidth), per class and method.  The planner
 * reserves real-time guarantees from it; the streaming sustainable figure
 * is only the ceiling of what is shared best-effort.  One row per run,
 * class and method in the table guaranteed_bandwidth; a method that could
 * not run is stored as skipped with its reason.  Same rules as
 * memcal_db.h: writes only inside memcal_db_begin()/memcal_db_commit().
 */
#ifndef MEMCAL_DB_GUARANTEED_H
#define MEMCAL_DB_GUARANTEED_H

#include "memcal_db.h"

/**
 * struct memcal_guaranteed - one guaranteed-bandwidth figure.
 * @traffic:       "read" or "write" (write: the write-backs of dirtied
 *                 random lines, bytes written back).
 * @method:        "random-line" (random cache lines from every measured
 *                 core at once, many independent misses each),
 *                 "single-bank" (every access to one DRAM bank, where the
 *                 address mapping is known) or "declared" (the user's
 *                 figure, e.g. from the DIMM's tRC).
 * @status:        "measured", "declared" or "skipped".
 * @bandwidth_bps: the figure (median over the repetitions); 0 if skipped.
 * @min_bps, @max_bps: the repetitions' spread (the figure for declared).
 * @cpus:          cpulist of the measured cores ("" if none).
 * @n_cpus:        how many.
 * @buffer_bytes:  bytes per core the random lines were drawn from.
 * @streams:       independent misses each core keeps in flight.
 * @repetitions:   repetitions behind the median.
 * @criterion:     what the figure is and how it was reached, in words.
 * @source:        declared: where the user's figure comes from; skipped:
 *                 why; measured: "" or a note.
 */
struct memcal_guaranteed {
	char traffic[8];
	char method[16];
	char status[16];
	double bandwidth_bps, min_bps, max_bps;
	char cpus[128];
	int n_cpus;
	int64_t buffer_bytes;
	int streams;
	int repetitions;
	char criterion[256];
	char source[256];
};

/* Figures one run holds at most: one per class and method. */
#define MEMCAL_DB_GUARANTEED_MAX 6

/*
 * memcal_db_guaranteed_store(), memcal_db_guaranteed_fn,
 * memcal_db_guaranteed_list()
 */
MEMCAL_DB_ROW_API(guaranteed, struct memcal_guaranteed, run_id);
int memcal_db_guaranteed_pick(memcal_db *db, int64_t run_id,
			      const char *traffic, struct memcal_guaranteed *g);
const struct memcal_guaranteed *
memcal_db_guaranteed_choose(const struct memcal_guaranteed *g, size_t n,
			    const char *traffic);

#endif /* MEMCAL_DB_GUARANTEED_H */
