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
 * no user_version: the caller does.
 */
#define FIXTURE_UNDO_V8 FIXTURE_UNDO_V9 \
	"DROP TABLE guaranteed_bandwidth;" \
	"ALTER TABLE validation_result DROP COLUMN static_ns;" \
	"ALTER TABLE validation_result DROP COLUMN static_deadline_misses;" \
	"ALTER TABLE validation_result DROP COLUMN static_throttles;" \
	"ALTER TABLE validation_result DROP COLUMN static_throttled_ns;" \
	"DROP TABLE job_latency;" \
	"CREATE TABLE job_latency (id INTEGER PRIMARY KEY," \
	" validation_id INTEGER NOT NULL REFERENCES validation_run(id)" \
	" ON DELETE CASCADE, workload TEXT NOT NULL," \
	" cpu INTEGER NOT NULL, condition TEXT NOT NULL CHECK" \
	" (condition IN ('solo','unregulated','regulated'))," \
	" probe TEXT NOT NULL CHECK (probe IN ('cyclictest','self'))," \
	" period_ns INTEGER NOT NULL CHECK (period_ns > 0)," \
	" deadline_ns INTEGER NOT NULL CHECK (deadline_ns > 0)," \
	" samples INTEGER NOT NULL CHECK (samples > 0)," \
	" p50_ns INTEGER NOT NULL CHECK (p50_ns >= 0)," \
	" p99_ns INTEGER NOT NULL CHECK (p99_ns >= p50_ns)," \
	" max_ns INTEGER NOT NULL CHECK (max_ns >= 0)," \
	" misses INTEGER NOT NULL CHECK (misses BETWEEN 0 AND samples)," \
	" overflow INTEGER NOT NULL CHECK (overflow BETWEEN 0 AND samples)," \
	" histogram TEXT NOT NULL CHECK (json_valid(histogram))," \
	" UNIQUE (validation_id, workload, condition)) STRICT;"

int fixture_db_populate(memcal_db *db, struct fixture_ids *ids);
int fixture_db_create(const char *path, struct fixture_ids *ids);
/* The schema version (PRAGMA user_version) of the file @path; -1 unread. */
int fixture_db_user_version(const char *path);

#endif
