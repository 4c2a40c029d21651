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

static const struct memcal_db_col guaranteed_col[] = {
	MEMCAL_DB_COL(struct memcal_guaranteed, traffic, 't'),
	MEMCAL_DB_COL(struct memcal_guaranteed, method, 't'),
	MEMCAL_DB_COL(struct memcal_guaranteed, status, 't'),
	MEMCAL_DB_COL(struct memcal_guaranteed, bandwidth_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_guaranteed, min_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_guaranteed, max_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_guaranteed, cpus, 't'),
	MEMCAL_DB_COL(struct memcal_guaranteed, n_cpus, 'i'),
	MEMCAL_DB_COL(struct memcal_guaranteed, buffer_bytes, 'I'),
	MEMCAL_DB_COL(struct memcal_guaranteed, streams, 'i'),
	MEMCAL_DB_COL(struct memcal_guaranteed, repetitions, 'i'),
	MEMCAL_DB_COL(struct memcal_guaranteed, criterion, 't'),
	MEMCAL_DB_COL(struct memcal_guaranteed, source, 't'),
};
static const struct memcal_db_table guaranteed_table =
	MEMCAL_DB_TABLE(struct memcal_guaranteed, guaranteed_col,
			"guaranteed_bandwidth", "run_id", "");

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
	return memcal_db_table_store(db, &guaranteed_table, run_id, g);
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
	int rc = memcal_db_select(db, &st, &guaranteed_table.cols,
				  guaranteed_table.rest, "I", run_id);

	*n = 0;
	if (rc)
		return rc;
	while ((rc = memcal_db_step(db, st)) == SQLITE_ROW)
		if (*n < MEMCAL_DB_GUARANTEED_MAX)
			memcal_db_decode(st, 0, &guaranteed_table.cols,
					 &g[(*n)++]);
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
