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

/*
 * FIXTURE_UNDO_V11 - SQL taking a current database back to schema 10 (no
 * spread columns in bandwidth).  It sets no user_version: the caller does.
 */
#define FIXTURE_UNDO_V11 \
	"ALTER TABLE bandwidth DROP COLUMN spread;" \
	"ALTER TABLE bandwidth DROP COLUMN spread_wide;"

/*
 * FIXTURE_UNDO_V10 - SQL taking a current database back to schema 9 (no
 * run_unit).  It sets no user_version: the caller does.
 */
#define FIXTURE_UNDO_V10 FIXTURE_UNDO_V11 "DROP TABLE run_unit;"

/*
 * FIXTURE_UNDO_V9 - SQL taking a current database back to schema 8 (no
 * pmu_event.perf_pmu).  It sets no user_version: the caller does.
 */
#define FIXTURE_UNDO_V9 FIXTURE_UNDO_V10 \
	"ALTER TABLE pmu_event DROP COLUMN perf_pmu;"

/*
 * FIXTURE_UNDO_V8 - SQL taking a current database back to schema 7 (no
 * guaranteed_bandwidth, no static validation columns, a job_latency that
 * knows no 'static' condition), for tests of older migrations.  It sets
 * no user_version: the caller does.  The job_latency it creates is
 * schema 7's own text, JOB_LATENCY_TABLE() of db/db_internal.h, which a
 * test using it includes.
 */
#define FIXTURE_UNDO_V8 FIXTURE_UNDO_V9 \
	"DROP TABLE guaranteed_bandwidth;" \
	"ALTER TABLE validation_result DROP COLUMN static_ns;" \
	"ALTER TABLE validation_result DROP COLUMN static_deadline_misses;" \
	"ALTER TABLE validation_result DROP COLUMN static_throttles;" \
	"ALTER TABLE validation_result DROP COLUMN static_throttled_ns;" \
	"DROP TABLE job_latency;" \
	JOB_LATENCY_TABLE("job_latency", "'solo','unregulated','regulated'") ";"

int fixture_db_populate(memcal_db *db, struct fixture_ids *ids);
int fixture_db_create(const char *path, struct fixture_ids *ids);
/* The schema version (PRAGMA user_version) of the file @path; -1 unread. */
int fixture_db_user_version(const char *path);

#endif
