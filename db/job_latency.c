// SPDX-License-Identifier: GPL-2.0-only
/*
 * job_latency.c - the job_latency table: per-job latency distributions of
 * a validation's real-time workloads (memcal_db_job_latency.h).
 */
#include <stdlib.h>

#include "db_internal.h"
#include "memcal_db_job_latency.h"

static const struct memcal_db_col job_latency_col[] = {
	MEMCAL_DB_COL(struct memcal_job_latency, workload, 't'),
	MEMCAL_DB_COL(struct memcal_job_latency, cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_job_latency, condition, 't'),
	MEMCAL_DB_COL(struct memcal_job_latency, probe, 't'),
	MEMCAL_DB_COL(struct memcal_job_latency, period_ns, 'I'),
	MEMCAL_DB_COL(struct memcal_job_latency, deadline_ns, 'I'),
	MEMCAL_DB_COL(struct memcal_job_latency, samples, 'I'),
	MEMCAL_DB_COL(struct memcal_job_latency, p50_ns, 'I'),
	MEMCAL_DB_COL(struct memcal_job_latency, p99_ns, 'I'),
	MEMCAL_DB_COL(struct memcal_job_latency, max_ns, 'I'),
	MEMCAL_DB_COL(struct memcal_job_latency, misses, 'I'),
	MEMCAL_DB_COL(struct memcal_job_latency, overflow, 'I'),
	MEMCAL_DB_COL_STR(struct memcal_job_latency, histogram, "histogram",
			  "[]"),
};
static const struct memcal_db_cols job_latency_cols =
	MEMCAL_DB_COLS(struct memcal_job_latency, job_latency_col);

/**
 * memcal_db_job_latency_store() - one workload's distribution in one
 * condition of validation @validation_id.  Inside a transaction.
 */
int memcal_db_job_latency_store(memcal_db *db, int64_t validation_id,
			    const struct memcal_job_latency *l)
{
	return memcal_db_insert_row(db, NULL, "job_latency", &job_latency_cols,
				    l, NULL, "validation_id", "I",
				    validation_id);
}

/* emit_latency - typed callback trampoline; frees the histogram after. */
static int emit_latency(const void *row, void *fn, void *user)
{
	struct memcal_job_latency *l = (struct memcal_job_latency *)row;
	int rc = ((memcal_db_job_latency_fn)fn)(l, user);

	free(l->histogram);
	l->histogram = NULL;
	return rc;
}

/**
 * memcal_db_job_latency_list() - the distributions of @validation_id, by
 * workload in mix order, then solo, unregulated, static, regulated.  @fn's row
 * (and its histogram) is valid only during the call.
 */
int memcal_db_job_latency_list(memcal_db *db, int64_t validation_id,
			   memcal_db_job_latency_fn fn, void *user)
{
	struct memcal_job_latency l;

	return memcal_db_list(db, &job_latency_cols, "FROM job_latency"
			      " WHERE validation_id = ? ORDER BY"
			      " (SELECT MIN(id) FROM job_latency x WHERE"
			      " x.validation_id = job_latency.validation_id AND"
			      " x.workload = job_latency.workload),"
			      " CASE condition WHEN 'solo' THEN 0 WHEN"
			      " 'unregulated' THEN 1 WHEN 'static' THEN 2"
			      " ELSE 3 END", validation_id, &l, emit_latency,
			      (void *)fn, user);
}
