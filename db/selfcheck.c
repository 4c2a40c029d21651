// SPDX-License-Identifier: GPL-2.0-only
/*
 * selfcheck.c - the pmu_selfcheck table: the PMU self-checks of a
 * calibration run with their verdicts (memcal_db_selfcheck.h).
 */
#include "db_internal.h"
#include "memcal_db_selfcheck.h"

/**
 * memcal_db_selfcheck_store() - one self-check of run @run_id.  Inside a
 * transaction.
 */
int memcal_db_selfcheck_store(memcal_db *db, int64_t run_id,
			      const struct memcal_selfcheck *c)
{
	return memcal_db_exec(db, "INSERT INTO pmu_selfcheck (run_id, check_name,"
		       " cpu, event, expected, measured, tolerance_pct,"
		       " verdict, message) VALUES (?,?,?,?,?,?,?,?,?)",
		       "Ititdddtt", run_id, c->check, c->cpu, c->event,
		       c->expected, c->measured, c->tolerance_pct, c->verdict,
		       c->message);
}

/* decode_selfcheck - a pmu_selfcheck row into its struct. */
static void decode_selfcheck(sqlite3_stmt *st, void *row)
{
	struct memcal_selfcheck *c = row;

	memcal_db_col_text(st, 0, c->check, sizeof(c->check));
	c->cpu = sqlite3_column_int(st, 1);
	memcal_db_col_text(st, 2, c->event, sizeof(c->event));
	c->expected = sqlite3_column_double(st, 3);
	c->measured = sqlite3_column_double(st, 4);
	c->tolerance_pct = sqlite3_column_double(st, 5);
	memcal_db_col_text(st, 6, c->verdict, sizeof(c->verdict));
	memcal_db_col_text(st, 7, c->message, sizeof(c->message));
}

/* emit_selfcheck - typed callback trampoline. */
static int emit_selfcheck(const void *row, void *fn, void *user)
{
	return ((memcal_db_selfcheck_fn)fn)(row, user);
}

/**
 * memcal_db_selfcheck_list() - the self-checks of @run_id in the order
 * they ran.  A run stored before the table existed has none.
 */
int memcal_db_selfcheck_list(memcal_db *db, int64_t run_id,
			     memcal_db_selfcheck_fn fn, void *user)
{
	struct memcal_selfcheck c;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT check_name, cpu, event, expected,"
			  " measured, tolerance_pct, verdict, message FROM"
			  " pmu_selfcheck WHERE run_id = ? ORDER BY id", "I",
			  run_id);

	return rc ? rc : memcal_db_walk(db, st, &c, decode_selfcheck,
				 emit_selfcheck, (void *)fn, user);
}
