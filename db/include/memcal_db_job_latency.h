/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_job_latency.h - per-job latency distributions that 'memtune
 * validate' measures for each real-time workload, one row per workload
 * and condition (solo, co-run unregulated, co-run under static budgets,
 * co-run regulated).  Same rules
 * as memcal_db.h: writes only inside memcal_db_begin()/memcal_db_commit().
 */
#ifndef MEMCAL_DB_JOB_LATENCY_H
#define MEMCAL_DB_JOB_LATENCY_H

#include "memcal_db.h"

/**
 * struct memcal_job_latency - one workload's job timing in one condition.
 * @workload:    workload name.
 * @cpu:         core it ran on.
 * @condition:   "solo", "unregulated", "static" or "regulated".
 * @probe:       "self" (the workload's own job report) or "cyclictest".
 * @period_ns, @deadline_ns: the workload's period and relative deadline.
 * @samples:     jobs (or probe wake-ups) timed.
 * @p50_ns, @p99_ns, @max_ns: median, 99th percentile, maximum.
 * @misses:      samples past the deadline.
 * @overflow:    samples past the histogram's range.
 * @histogram:   JSON array of [microseconds, count] pairs, ascending, zero
 *               counts left out (malloc'd on load, caller's on store).
 */
struct memcal_job_latency {
	char workload[128];
	int cpu;
	char condition[16];
	char probe[16];
	int64_t period_ns, deadline_ns;
	int64_t samples;
	int64_t p50_ns, p99_ns, max_ns;
	int64_t misses;
	int64_t overflow;
	char *histogram;
};

/*
 * memcal_db_job_latency_store(), memcal_db_job_latency_fn,
 * memcal_db_job_latency_list()
 */
MEMCAL_DB_ROW_API(job_latency, struct memcal_job_latency,
		  validation_id);

#endif /* MEMCAL_DB_JOB_LATENCY_H */
