// SPDX-License-Identifier: GPL-2.0-only
/*
 * job_latency.c - the job_latency table: per-job latency distributions of
 * a validation's real-time workloads (memcal_db_job_latency.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "memcal_db_job_latency.h"

/**
 * memcal_db_job_latency_store() - one workload's distribution in one
 * condition of validation @validation_id.  Inside a transaction.
 */
int memcal_db_job_latency_store(memcal_db *db, int64_t validation_id,
			    const struct memcal_job_latency *l)
{
	return memcal_db_exec(db, "INSERT INTO job_latency (validation_id,"
		       " workload, cpu, condition, probe, period_ns,"
		       " deadline_ns, samples, p50_ns, p99_ns, max_ns, misses,"
		       " overflow, histogram) VALUES"
		       " (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", "ItittIIIIIIIIt",
		       validation_id, l->workload, l->cpu, l->condition,
		       l->probe, l->period_ns, l->deadline_ns, l->samples,
		       l->p50_ns, l->p99_ns, l->max_ns, l->misses, l->overflow,
		       l->histogram ? l->histogram : "[]");
}

/* decode_latency - a job_latency row; histogram malloc'd. */
static void decode_latency(sqlite3_stmt *st, void *row)
{
	struct memcal_job_latency *l = row;

	memcal_db_col_text(st, 0, l->workload, sizeof(l->workload));
	l->cpu = sqlite3_column_int(st, 1);
	memcal_db_col_text(st, 2, l->condition, sizeof(l->condition));
	memcal_db_col_text(st, 3, l->probe, sizeof(l->probe));
	l->period_ns = sqlite3_column_int64(st, 4);
	l->deadline_ns = sqlite3_column_int64(st, 5);
	l->samples = sqlite3_column_int64(st, 6);
	l->p50_ns = sqlite3_column_int64(st, 7);
	l->p99_ns = sqlite3_column_int64(st, 8);
	l->max_ns = sqlite3_column_int64(st, 9);
	l->misses = sqlite3_column_int64(st, 10);
	l->overflow = sqlite3_column_int64(st, 11);
	l->histogram = memcal_db_col_strdup(st, 12);
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
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT workload, cpu, condition, probe,"
			  " period_ns, deadline_ns, samples, p50_ns, p99_ns,"
			  " max_ns, misses, overflow, histogram FROM"
			  " job_latency WHERE validation_id = ? ORDER BY"
			  " (SELECT MIN(id) FROM job_latency x WHERE"
			  " x.validation_id = job_latency.validation_id AND"
			  " x.workload = job_latency.workload),"
			  " CASE condition WHEN 'solo' THEN 0 WHEN"
			  " 'unregulated' THEN 1 WHEN 'static' THEN 2"
			  " ELSE 3 END", "I",
			  validation_id);

	memset(&l, 0, sizeof(l));
	return rc ? rc : memcal_db_walk(db, st, &l, decode_latency, emit_latency,
				 (void *)fn, user);
}
