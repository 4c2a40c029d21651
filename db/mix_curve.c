// SPDX-License-Identifier: GPL-2.0-only
/*
 * mix_curve.c - the mix_curve table: one bandwidth-latency curve per run
 * and read share (memcal_db_mix.h).  A curve's points are a JSON array
 * in the row, built and taken apart by SQLite's JSON functions so that
 * no number is formatted or parsed here.
 */
#include "db_internal.h"
#include "memcal_db_mix.h"

static const struct memcal_db_col curve_col[] = {
	MEMCAL_DB_COL(struct memcal_mix_curve, read_pct, 'i'),
	MEMCAL_DB_COL(struct memcal_mix_curve, variant, 't'),
	MEMCAL_DB_COL(struct memcal_mix_curve, chase_cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_mix_curve, load_cpus, 'i'),
	MEMCAL_DB_COL(struct memcal_mix_curve, peak_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_curve, knee_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_curve, sustainable_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_curve, idle_latency_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_curve, bound_ratio, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_curve, lower_bound, 'b'),
	MEMCAL_DB_COL(struct memcal_mix_curve, criterion, 't'),
};
static const struct memcal_db_cols curve_cols =
	MEMCAL_DB_COLS(struct memcal_mix_curve, curve_col);

/* A point is an object of the points array: the names are its keys. */
static const struct memcal_db_col point_col[] = {
	MEMCAL_DB_COL(struct memcal_mix_point, pace, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_point, bandwidth_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_point, latency_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_point, latency_min_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_mix_point, latency_max_ns, 'd'),
};
static const struct memcal_db_cols point_cols =
	MEMCAL_DB_COLS(struct memcal_mix_point, point_col);

/*
 * EXACT - a key and its bound double as a JSON number with 17 significant
 * digits, so that it reads back bit for bit (SQLite's own rendering keeps
 * 15); a pattern of memcal_db_col_list().
 */
#define EXACT "'%s', json(printf('%%!.17g', ?))"

/*
 * store_points - append the points of @c to its row, in order: the values
 * of a point are parameters 1.. of one statement, run and share follow.
 */
static int store_points(memcal_db *db, int64_t run_id,
			const struct memcal_mix_curve *c)
{
	char *obj = memcal_db_col_list(&point_cols, EXACT);
	int n = (int)point_cols.n;
	char *sql = obj ? sqlite3_mprintf("UPDATE mix_curve SET points ="
					  " json_insert(points, '$[#]',"
					  " json_object(%s)) WHERE run_id = ?"
					  " AND read_pct = ?", obj) : NULL;
	sqlite3_stmt *st;
	int rc = sql ? memcal_db_prepare(db, sql, &st) :
		 memcal_db_fail(db, MEMCAL_ERROR, "out of memory");

	sqlite3_free(obj);
	sqlite3_free(sql);
	if (rc)
		return rc;
	if (sqlite3_bind_int64(st, n + 1, run_id) != SQLITE_OK ||
	    sqlite3_bind_int(st, n + 2, c->read_pct) != SQLITE_OK)
		rc = memcal_db_sqlite_fail(db, sqlite3_errcode(db->h),
					   "binding values");
	for (int i = 0; !rc && i < c->n_points; i++) {
		rc = memcal_db_bind_row(db, st, 1, &point_cols, &c->points[i]);
		if (!rc)
			rc = memcal_db_step(db, st);
		if (rc == SQLITE_DONE)
			rc = MEMCAL_OK;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/**
 * memcal_db_mix_curve_store() - curve @c of run @run_id.  Inside a
 * transaction; a curve without points, with too many or with a share
 * outside 0..100 is refused (MEMCAL_EINVAL).
 */
int memcal_db_mix_curve_store(memcal_db *db, int64_t run_id,
			      const struct memcal_mix_curve *c)
{
	int rc;

	if (c->n_points < 1 || c->n_points > MEMCAL_MIX_MAX_POINTS ||
	    c->read_pct < 0 || c->read_pct > 100)
		return memcal_db_fail(db, MEMCAL_EINVAL, "a %d %% read curve with "
			       "%d points cannot be stored (1 to %d points, "
			       "a share of 0 to 100 %%)", c->read_pct,
			       c->n_points, MEMCAL_MIX_MAX_POINTS);
	rc = memcal_db_insert_row(db, NULL, "mix_curve", &curve_cols, c, NULL,
				  "run_id, points", "It", run_id, "[]");
	return rc ? rc : store_points(db, run_id, c);
}

/**
 * memcal_db_mix_curve_list() - the curves of @run_id, from 100 % read
 * down to 0 %, each with its points by ascending pace.  @fn's row is
 * valid only during the call.
 */
int memcal_db_mix_curve_list(memcal_db *db, int64_t run_id,
			     memcal_db_mix_curve_fn fn, void *user)
{
	char *pts = memcal_db_col_list(&point_cols,
				       "json_extract(p.value, '$.%s')");
	char *rest = pts ? sqlite3_mprintf(", %s FROM mix_curve c,"
					   " json_each(c.points) p"
					   " WHERE c.run_id = ? ORDER BY"
					   " c.read_pct DESC,"
					   " CAST(p.key AS INTEGER)", pts) : NULL;
	struct memcal_mix_curve c;
	sqlite3_stmt *st;
	bool open = false;
	int rc = rest ? memcal_db_select(db, &st, &curve_cols, rest, "I",
					 run_id) :
		 memcal_db_fail(db, MEMCAL_ERROR, "out of memory");

	sqlite3_free(pts);
	sqlite3_free(rest);
	if (rc)
		return rc;
	while ((rc = memcal_db_step(db, st)) == SQLITE_ROW) {
		/* a new share starts a new curve (read_pct: column 0) */
		if (open && c.read_pct != sqlite3_column_int(st, 0)) {
			rc = fn(&c, user);
			open = false;
			if (rc)
				break;
		}
		if (!open) {
			memcal_db_decode(st, 0, &curve_cols, &c);
			open = true;
		}
		if (c.n_points < MEMCAL_MIX_MAX_POINTS)
			memcal_db_decode(st, (int)curve_cols.n, &point_cols,
					 &c.points[c.n_points++]);
	}
	if (rc == SQLITE_DONE)
		rc = open ? fn(&c, user) : MEMCAL_OK;
	sqlite3_finalize(st);
	return rc;
}
