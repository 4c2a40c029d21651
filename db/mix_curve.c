// SPDX-License-Identifier: GPL-2.0-only
/*
 * mix_curve.c - the mix_curve table: one bandwidth-latency curve per run
 * and read share (memcal_db_mix.h).  A curve's points are a JSON array
 * in the row, built and taken apart by SQLite's JSON functions so that
 * no number is formatted or parsed here.
 */
#include <string.h>

#include "db_internal.h"
#include "memcal_db_mix.h"

/*
 * EXACT - a bound double as a JSON number with 17 significant digits, so
 * that it reads back bit for bit (SQLite's own rendering keeps 15).
 */
#define EXACT "json(printf('%!.17g', ?))"

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
	rc = memcal_db_exec(db, "INSERT INTO mix_curve (run_id, read_pct, variant,"
		     " chase_cpu, load_cpus, peak_bps, knee_bps,"
		     " sustainable_bps, idle_latency_ns, bound_ratio,"
		     " lower_bound, criterion, points) VALUES"
		     " (?,?,?,?,?,?,?,?,?,?,?,?,'[]')", "Iitiidddddbt",
		     run_id, c->read_pct, c->variant, c->chase_cpu,
		     c->load_cpus, c->peak_bps, c->knee_bps, c->sustainable_bps,
		     c->idle_latency_ns, c->bound_ratio, (int)c->lower_bound,
		     c->criterion);
	for (int i = 0; !rc && i < c->n_points; i++) {
		const struct memcal_mix_point *p = &c->points[i];

		rc = memcal_db_exec(db, "UPDATE mix_curve SET points ="
			     " json_insert(points, '$[#]', json_object("
			     "'pace', " EXACT ", 'bandwidth_bps', " EXACT ","
			     " 'latency_ns', " EXACT ", 'latency_min_ns', "
			     EXACT ", 'latency_max_ns', " EXACT "))"
			     " WHERE run_id = ? AND read_pct = ?", "dddddIi",
			     p->pace, p->bandwidth_bps, p->latency_ns,
			     p->latency_min_ns, p->latency_max_ns, run_id,
			     c->read_pct);
	}
	return rc;
}

/* decode_curve - the curve columns (0..10) of a row into @c. */
static void decode_curve(sqlite3_stmt *st, struct memcal_mix_curve *c)
{
	memset(c, 0, sizeof(*c));
	c->read_pct = sqlite3_column_int(st, 0);
	memcal_db_col_text(st, 1, c->variant, sizeof(c->variant));
	c->chase_cpu = sqlite3_column_int(st, 2);
	c->load_cpus = sqlite3_column_int(st, 3);
	c->peak_bps = sqlite3_column_double(st, 4);
	c->knee_bps = sqlite3_column_double(st, 5);
	c->sustainable_bps = sqlite3_column_double(st, 6);
	c->idle_latency_ns = sqlite3_column_double(st, 7);
	c->bound_ratio = sqlite3_column_double(st, 8);
	c->lower_bound = sqlite3_column_int(st, 9);
	memcal_db_col_text(st, 10, c->criterion, sizeof(c->criterion));
}

/**
 * memcal_db_mix_curve_list() - the curves of @run_id, from 100 % read
 * down to 0 %, each with its points by ascending pace.  @fn's row is
 * valid only during the call.
 */
int memcal_db_mix_curve_list(memcal_db *db, int64_t run_id,
			     memcal_db_mix_curve_fn fn, void *user)
{
	struct memcal_mix_curve c;
	sqlite3_stmt *st;
	bool open = false;
	int rc = memcal_db_query(db, &st, "SELECT c.read_pct, c.variant, c.chase_cpu,"
			  " c.load_cpus, c.peak_bps, c.knee_bps,"
			  " c.sustainable_bps, c.idle_latency_ns,"
			  " c.bound_ratio, c.lower_bound, c.criterion,"
			  " json_extract(p.value, '$.pace'),"
			  " json_extract(p.value, '$.bandwidth_bps'),"
			  " json_extract(p.value, '$.latency_ns'),"
			  " json_extract(p.value, '$.latency_min_ns'),"
			  " json_extract(p.value, '$.latency_max_ns')"
			  " FROM mix_curve c, json_each(c.points) p"
			  " WHERE c.run_id = ?"
			  " ORDER BY c.read_pct DESC, CAST(p.key AS INTEGER)",
			  "I", run_id);

	if (rc)
		return rc;
	while ((rc = memcal_db_step(db, st)) == SQLITE_ROW) {
		struct memcal_mix_point *p;

		if (open && c.read_pct != sqlite3_column_int(st, 0)) {
			rc = fn(&c, user);
			open = false;
			if (rc)
				break;
		}
		if (!open) {
			decode_curve(st, &c);
			open = true;
		}
		if (c.n_points >= MEMCAL_MIX_MAX_POINTS)
			continue;
		p = &c.points[c.n_points++];
		p->pace = sqlite3_column_double(st, 11);
		p->bandwidth_bps = sqlite3_column_double(st, 12);
		p->latency_ns = sqlite3_column_double(st, 13);
		p->latency_min_ns = sqlite3_column_double(st, 14);
		p->latency_max_ns = sqlite3_column_double(st, 15);
	}
	if (rc == SQLITE_DONE)
		rc = open ? fn(&c, user) : MEMCAL_OK;
	sqlite3_finalize(st);
	return rc;
}
