// SPDX-License-Identifier: GPL-2.0-only
/*
 * job_latency.c - the job_latency table: per-job latency distributions of
 * a validation's real-time workloads (memcal_db_job_latency.h).
 */
#include <stdlib.h>

#include "db_internal.h"
#include "memcal_db_job_latency.h"

/*
 * IN_MIX_ORDER - a validation's rows by workload in mix order (the order
 * of each workload's first row), then solo, unregulated, static,
 * regulated.
 */
#define IN_MIX_ORDER							\
	" ORDER BY (SELECT MIN(id) FROM job_latency x WHERE"		\
	" x.validation_id = job_latency.validation_id AND"		\
	" x.workload = job_latency.workload),"				\
	" CASE condition WHEN 'solo' THEN 0 WHEN 'unregulated' THEN 1"	\
	" WHEN 'static' THEN 2 ELSE 3 END"

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
static const struct memcal_db_table job_latency_table =
	MEMCAL_DB_TABLE(struct memcal_job_latency, job_latency_col,
			"job_latency", "validation_id", IN_MIX_ORDER);

/*
 * memcal_db_job_latency_store() - one workload's distribution in one
 * condition of a validation.  Inside a transaction.
 */
MEMCAL_DB_DEFINE_STORE(job_latency, struct memcal_job_latency)

/* emit_latency - typed callback trampoline; frees the histogram after. */
static int emit_latency(const void *row, void *fn, void *user)
{
	struct memcal_job_latency *l = (struct memcal_job_latency *)row;
	int rc = ((memcal_db_job_latency_fn)fn)(l, user);

	free(l->histogram);
	l->histogram = NULL;
	return rc;
}

/*
 * memcal_db_job_latency_list() - the distributions of a validation in mix
 * order (IN_MIX_ORDER).  @fn's row (and its histogram) is valid only
 * during the call.
 */
MEMCAL_DB_DEFINE_LIST(job_latency, struct memcal_job_latency, emit_latency)
