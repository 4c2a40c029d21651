// SPDX-License-Identifier: GPL-2.0-only
/*
 * guaranteed.c - the guaranteed_bandwidth table: per run, class and method
 * the bandwidth the memory guarantees under row misses
 * (memcal_db_guaranteed.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "memcal_db_guaranteed.h"

#define COLUMNS "traffic, method, status, bandwidth_bps, min_bps, max_bps," \
		" cpus, n_cpus, buffer_bytes, streams, repetitions, criterion," \
		" source"

/*
 * preference - the order in which a class's figures stand for it: what the
 * user declared, then the single-bank worst case, then random lines.  The
 * one statement of the rule: listing, picking and choosing all use it.
 */
static const char *const preference[] = { "declared", "single-bank",
					  "random-line" };

/* rank - @method's place in preference[] (after them all if unknown). */
static size_t rank(const char *method)
{
	size_t n = sizeof(preference) / sizeof(*preference), i = 0;

	while (i < n && strcmp(method, preference[i]))
		i++;
	return i;
}

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

/**
 * memcal_db_guaranteed_choose() - of the @n figures @g, the one that stands
 * for class @traffic: declared, else single-bank, else random-line; never
 * a skipped one.  For figures not (yet) in the database too.
 * Return: the figure, or NULL when the class has none.
 */
const struct memcal_guaranteed *
memcal_db_guaranteed_choose(const struct memcal_guaranteed *g, size_t n,
			    const char *traffic)
{
	const struct memcal_guaranteed *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(g[i].traffic, traffic) &&
		    strcmp(g[i].status, "skipped") &&
		    (!best || rank(g[i].method) < rank(best->method)))
			best = &g[i];
	return best;
}

/* by_class_then_preference - qsort order: reads first, then preference[]. */
static int by_class_then_preference(const void *a, const void *b)
{
	const struct memcal_guaranteed *x = a, *y = b;
	int wx = !strcmp(x->traffic, "write"), wy = !strcmp(y->traffic, "write");

	if (wx != wy)
		return wx - wy;
	return (rank(x->method) > rank(y->method)) -
	       (rank(x->method) < rank(y->method));
}

/*
 * load_all - every figure of @run_id into @g (at most
 * MEMCAL_DB_GUARANTEED_MAX: one per class and method), *@n of them, reads
 * first, each class in preference order.
 */
static int load_all(memcal_db *db, int64_t run_id,
		    struct memcal_guaranteed *g, size_t *n)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " COLUMNS " FROM"
			  " guaranteed_bandwidth WHERE run_id = ?", "I",
			  run_id);

	*n = 0;
	if (rc)
		return rc;
	while ((rc = memcal_db_step(db, st)) == SQLITE_ROW)
		if (*n < MEMCAL_DB_GUARANTEED_MAX)
			decode_guaranteed(st, &g[(*n)++]);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc;
	qsort(g, *n, sizeof(*g), by_class_then_preference);
	return MEMCAL_OK;
}

/**
 * memcal_db_guaranteed_list() - every figure of @run_id, skipped ones
 * included: reads before writes, each class in the order of
 * memcal_db_guaranteed_pick().  @fn's row is valid only during the call.
 */
int memcal_db_guaranteed_list(memcal_db *db, int64_t run_id,
			      memcal_db_guaranteed_fn fn, void *user)
{
	struct memcal_guaranteed g[MEMCAL_DB_GUARANTEED_MAX];
	size_t n;
	int rc = load_all(db, run_id, g, &n);

	for (size_t i = 0; !rc && i < n; i++)
		rc = fn(&g[i], user);
	return rc;
}

/**
 * memcal_db_guaranteed_pick() - the figure that stands for class @traffic
 * of @run_id (memcal_db_guaranteed_choose()).  Return: OK, or ENOTFOUND
 * with a message saying how to get one.
 */
int memcal_db_guaranteed_pick(memcal_db *db, int64_t run_id,
			      const char *traffic, struct memcal_guaranteed *g)
{
	struct memcal_guaranteed all[MEMCAL_DB_GUARANTEED_MAX];
	const struct memcal_guaranteed *best;
	size_t n;
	int rc = load_all(db, run_id, all, &n);

	memset(g, 0, sizeof(*g));
	if (rc)
		return rc;
	best = memcal_db_guaranteed_choose(all, n, traffic);
	if (!best)
		return memcal_db_fail(db, MEMCAL_ENOTFOUND, "calibration run "
			       "%lld has no guaranteed %s bandwidth: run "
			       "'memcal run' again (this memcal measures it), "
			       "or declare one with --guaranteed-%s MBPS "
			       "--source TEXT", (long long)run_id, traffic,
			       traffic);
	*g = *best;
	return MEMCAL_OK;
}
