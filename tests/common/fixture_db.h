/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fixture_db.h - builds a small, fully populated database with fixed
 * timestamps, for tests that read the database (show, reports, tuner).
 */
#ifndef MEMCAL_FIXTURE_DB_H
#define MEMCAL_FIXTURE_DB_H

#include <stdint.h>

#include "memcal_db.h"

/**
 * struct fixture_ids - what fixture_db_populate() stored.
 * @platform_id: the board.
 * @run_id:      a full calibration run with every kind of figure.
 * @overhead_run_id: an overhead run.
 */
struct fixture_ids {
	int64_t platform_id;
	int64_t run_id;
	int64_t overhead_run_id;
};

int fixture_db_populate(memcal_db *db, struct fixture_ids *ids);
int fixture_db_create(const char *path, struct fixture_ids *ids);

#endif
