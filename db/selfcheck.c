// SPDX-License-Identifier: GPL-2.0-only
/*
 * selfcheck.c - the pmu_selfcheck table: the PMU self-checks of a
 * calibration run with their verdicts (memcal_db_selfcheck.h).
 */
#include "db_internal.h"
#include "memcal_db_selfcheck.h"

static const struct memcal_db_col selfcheck_col[] = {
	MEMCAL_DB_COL_AS(struct memcal_selfcheck, check, "check_name", 't'),
	MEMCAL_DB_COL(struct memcal_selfcheck, cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_selfcheck, event, 't'),
	MEMCAL_DB_COL(struct memcal_selfcheck, expected, 'd'),
	MEMCAL_DB_COL(struct memcal_selfcheck, measured, 'd'),
	MEMCAL_DB_COL(struct memcal_selfcheck, tolerance_pct, 'd'),
	MEMCAL_DB_COL(struct memcal_selfcheck, verdict, 't'),
	MEMCAL_DB_COL(struct memcal_selfcheck, message, 't'),
};
static const struct memcal_db_cols selfcheck_cols =
	MEMCAL_DB_COLS(struct memcal_selfcheck, selfcheck_col);

/**
 * memcal_db_selfcheck_store() - one self-check of run @run_id.  Inside a
 * transaction.
 */
int memcal_db_selfcheck_store(memcal_db *db, int64_t run_id,
			      const struct memcal_selfcheck *c)
{
	return memcal_db_insert_row(db, NULL, "pmu_selfcheck", &selfcheck_cols,
				    c, NULL, "run_id", "I", run_id);
}

MEMCAL_DB_EMIT(emit_selfcheck, memcal_db_selfcheck_fn)

/**
 * memcal_db_selfcheck_list() - the self-checks of @run_id in the order
 * they ran.  A run stored before the table existed has none.
 */
int memcal_db_selfcheck_list(memcal_db *db, int64_t run_id,
			     memcal_db_selfcheck_fn fn, void *user)
{
	struct memcal_selfcheck c;

	return memcal_db_list(db, &selfcheck_cols, "FROM pmu_selfcheck WHERE"
			      " run_id = ? ORDER BY id", run_id, &c,
			      emit_selfcheck, (void *)fn, user);
}
