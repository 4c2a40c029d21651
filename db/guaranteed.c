// SPDX-License-Identifier: GPL-2.0-only
/*
 * guaranteed.c - the guaranteed_bandwidth table: per run, class and method
 * the bandwidth the memory guarantees under row misses
 * (memcal_db_guaranteed.h).
 */
#include <string.h>

#include "db_internal.h"
#include "memcal_db_guaranteed.h"

#define COLUMNS "traffic, method, status, bandwidth_bps, min_bps, max_bps," \
		" cpus, n_cpus, buffer_bytes, streams, repetitions, criterion," \
		" source"

/*
 * PREFERENCE - the order in which a class's figures stand for it: what the
 * user declared, then the single-bank worst case, then random lines.
 */
#define PREFERENCE "CASE method WHEN 'declared' THEN 0 WHEN 'single-bank'" \
		   " THEN 1 ELSE 2 END"

/**
 * memcal_db_guaranteed_store() - figure @g of run @run_id.  Inside a
 * transaction; a figure of another class, method or status, a measured or
 * declared figure that is not positive, or a skip without its reason is
 * refused (MEMCAL_EINVAL) before SQLite sees it.
 */
int memcal_db_guaranteed_store(memcal_db *db, int64_t run_id,
			       const struct memcal_guaranteed *g)
{
	bool skipped = !strcmp(g->status, "skipped");

	if ((strcmp(g->traffic, "read") && strcmp(g->traffic, "write")) ||
	    (strcmp(g->method, "random-line") &&
	     strcmp(g->method, "single-bank") &&
	     strcmp(g->method, "declared")) ||
	    (!skipped && strcmp(g->status, "measured") &&
	     strcmp(g->status, "declared")))
		return memcal_db_fail(db, MEMCAL_EINVAL, "a guaranteed-bandwidth "
			       "figure of class '%s', method '%s', status "
			       "'%s' cannot be stored", g->traffic, g->method,
			       g->status);
	if (skipped ? !g->source[0] : !(g->bandwidth_bps > 0))
		return memcal_db_fail(db, MEMCAL_EINVAL, "the %s %s guaranteed "
			       "bandwidth is %s", g->method, g->traffic,
			       skipped ? "skipped without a reason" :
			       "not a positive figure");
	return memcal_db_exec(db, "INSERT INTO guaranteed_bandwidth (run_id, "
		       COLUMNS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		       "ItttdddtiIiitt", run_id, g->traffic, g->method,
		       g->status, g->bandwidth_bps, g->min_bps, g->max_bps,
		       g->cpus, g->n_cpus, g->buffer_bytes, g->streams,
		       g->repetitions, g->criterion, g->source);
}

/* decode_guaranteed - a row of COLUMNS into @row. */
static void decode_guaranteed(sqlite3_stmt *st, void *row)
{
	struct memcal_guaranteed *g = row;

	memset(g, 0, sizeof(*g));
	memcal_db_col_text(st, 0, g->traffic, sizeof(g->traffic));
	memcal_db_col_text(st, 1, g->method, sizeof(g->method));
	memcal_db_col_text(st, 2, g->status, sizeof(g->status));
	g->bandwidth_bps = sqlite3_column_double(st, 3);
	g->min_bps = sqlite3_column_double(st, 4);
	g->max_bps = sqlite3_column_double(st, 5);
	memcal_db_col_text(st, 6, g->cpus, sizeof(g->cpus));
	g->n_cpus = sqlite3_column_int(st, 7);
	g->buffer_bytes = sqlite3_column_int64(st, 8);
	g->streams = sqlite3_column_int(st, 9);
	g->repetitions = sqlite3_column_int(st, 10);
	memcal_db_col_text(st, 11, g->criterion, sizeof(g->criterion));
	memcal_db_col_text(st, 12, g->source, sizeof(g->source));
}

/* emit_guaranteed - typed callback trampoline. */
static int emit_guaranteed(const void *row, void *fn, void *user)
{
	return ((memcal_db_guaranteed_fn)fn)(row, user);
}

/**
 * memcal_db_guaranteed_list() - every figure of @run_id, skipped ones
 * included: reads before writes, each class in the order of
 * memcal_db_guaranteed_pick().  @fn's row is valid only during the call.
 */
int memcal_db_guaranteed_list(memcal_db *db, int64_t run_id,
			      memcal_db_guaranteed_fn fn, void *user)
{
	struct memcal_guaranteed g;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " COLUMNS " FROM"
			  " guaranteed_bandwidth WHERE run_id = ? ORDER BY"
			  " traffic = 'write', " PREFERENCE, "I", run_id);

	return rc ? rc : memcal_db_walk(db, st, &g, decode_guaranteed,
				 emit_guaranteed, (void *)fn, user);
}

/**
 * memcal_db_guaranteed_pick() - the figure that stands for class @traffic
 * of @run_id: a declared one, else the single-bank one, else the random-
 * line one; skipped methods never.  Return: OK, or ENOTFOUND with a
 * message saying how to get one.
 */
int memcal_db_guaranteed_pick(memcal_db *db, int64_t run_id,
			      const char *traffic, struct memcal_guaranteed *g)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " COLUMNS " FROM"
			  " guaranteed_bandwidth WHERE run_id = ? AND"
			  " traffic = ? AND status <> 'skipped' ORDER BY "
			  PREFERENCE " LIMIT 1", "It", run_id, traffic);

	memset(g, 0, sizeof(*g));
	return rc ? rc : memcal_db_fetch_one(db, st, g, decode_guaranteed,
				      "calibration run %lld has no guaranteed "
				      "%s bandwidth: run 'memcal run' again "
				      "(this memcal measures it), or declare "
				      "one with --guaranteed-%s MBPS --source "
				      "TEXT", (long long)run_id, traffic,
				      traffic);
}
