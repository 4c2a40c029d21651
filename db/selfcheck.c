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
static const struct memcal_db_table selfcheck_table =
	MEMCAL_DB_TABLE(struct memcal_selfcheck, selfcheck_col, "pmu_selfcheck",
			"run_id", " ORDER BY id");

/*
 * memcal_db_selfcheck_store(), memcal_db_selfcheck_list(): the self-checks
 * of a run, in the order they ran.  A run stored before the table existed
 * has none.
 */
MEMCAL_DB_DEFINE_ROWS(selfcheck, struct memcal_selfcheck)
