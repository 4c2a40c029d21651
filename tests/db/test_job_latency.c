// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_job_latency.c - the job_latency table: rows stored and listed in
 * mix order then solo, unregulated, regulated; its checks refuse
 * impossible figures; a schema-1 database is migrated with its
 * validations kept; deleting a validation deletes its rows.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_internal.h"
#include "fixture_db.h"
#include "memcal_db_job_latency.h"
#include "memcal_db_tune.h"

/**
 * struct seen - rows listed.
 * @n:   count.
 * @key: "workload/condition" of each.
 */
struct seen {
	int n;
	char key[8][160];
};

/* on_row - memcal_db_job_latency_list() callback. */
static int on_row(const struct memcal_job_latency *l, void *user)
{
	struct seen *s = user;

	cr_assert_lt(s->n, 8);
	snprintf(s->key[s->n++], 160, "%s/%s %lld", l->workload,
		 l->condition, (long long)l->p99_ns);
	return 0;
}

/* row - a job_latency row of @wl in @cond with p99 @p99. */
static struct memcal_job_latency row(const char *wl, const char *cond,
				     int64_t p99)
{
	struct memcal_job_latency l = { .cpu = 1, .period_ns = 20000000,
		.deadline_ns = 20000000, .samples = 100, .p50_ns = 1000,
		.p99_ns = p99, .max_ns = p99, .misses = 0,
		.histogram = (char *)"[[1,99],[2,1]]" };

	snprintf(l.workload, sizeof(l.workload), "%s", wl);
	snprintf(l.condition, sizeof(l.condition), "%s", cond);
	snprintf(l.probe, sizeof(l.probe), "self");
	return l;
}

/* make - a database with a configuration and one validation; its id. */
static int64_t make(const char *path, memcal_db **db)
{
	struct fixture_ids ids;
	struct memcal_config c = { .mix = "m", .document = (char *)"{}",
		.period_us = 1000 };
	struct memcal_validation v = { .notes = (char *)"" };
	char err[256];

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	cr_assert_eq(memcal_db_open(path, 0, db, err, sizeof(err)), 0, "%s",
		     err);
	c.platform_id = ids.platform_id;
	c.calibration_run_id = ids.run_id;
	cr_assert_eq(memcal_db_begin(*db), 0);
	cr_assert_eq(memcal_db_config_store(*db, &c), 0, "%s",
		     memcal_db_errmsg(*db));
	v.config_id = c.id;
	cr_assert_eq(memcal_db_validation_store(*db, &v), 0);
	cr_assert_eq(memcal_db_commit(*db), 0);
	return v.id;
}

Test(job_latency, stored_and_listed_in_order)
{
	const char *path = "/tmp/memcal-test-joblat.db";
	struct memcal_job_latency bad;
	struct seen s = { 0 };
	memcal_db *db;
	int64_t vid = make(path, &db);

	cr_assert_eq(memcal_db_begin(db), 0);
	/* stored out of order: listed by workload (first stored first),
	 * then solo, unregulated, regulated */
	const struct memcal_job_latency rows[] = {
		row("rt", "regulated", 3000), row("rt", "solo", 1000),
		row("loop", "unregulated", 7000), row("rt", "unregulated",
						       9000),
	};
	for (size_t i = 0; i < 4; i++)
		cr_assert_eq(memcal_db_job_latency_store(db, vid, &rows[i]), 0,
			     "%s", memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_assert_eq(memcal_db_job_latency_list(db, vid, on_row, &s), 0);
	cr_assert_eq(s.n, 4);
	cr_expect_str_eq(s.key[0], "rt/solo 1000");
	cr_expect_str_eq(s.key[1], "rt/unregulated 9000");
	cr_expect_str_eq(s.key[2], "rt/regulated 3000");
	cr_expect_str_eq(s.key[3], "loop/unregulated 7000");

	/* impossible figures are refused, nothing half-stored */
	bad = row("x", "solo", 5);
	bad.p50_ns = 10;	/* p99 below the median */
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_expect_neq(memcal_db_job_latency_store(db, vid, &bad), 0);
	bad = row("x", "solo", 5);
	bad.misses = 101;	/* more misses than jobs */
	cr_expect_neq(memcal_db_job_latency_store(db, vid, &bad), 0);
	bad = row("x", "sideways", 5);
	cr_expect_neq(memcal_db_job_latency_store(db, vid, &bad), 0);
	bad = row("rt", "solo", 5);	/* a second solo row of rt */
	cr_expect_neq(memcal_db_job_latency_store(db, vid, &bad), 0);
	memcal_db_rollback(db);
	memcal_db_close(db);
	unlink(path);
}

Test(job_latency, schema_1_database_is_migrated)
{
	const char *path = "/tmp/memcal-test-joblat-v3.db";
	struct memcal_validation v;
	struct seen s = { 0 };
	memcal_db *db;
	int64_t vid = make(path, &db);
	struct memcal_job_latency l = row("rt", "solo", 5000);
	sqlite3 *h;
	char err[256];

	memcal_db_close(db);
	/* back to schema 3: the tables of 4 and later gone, the version 3 */
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, FIXTURE_UNDO_V8 "DROP TABLE job_latency;"
				  "DROP TABLE mix_curve;"
				  "DROP TABLE pmu_selfcheck;"
				  "DROP TABLE cpu_kind;"
				  "PRAGMA user_version = 3", NULL, NULL, NULL),
		     SQLITE_OK);
	sqlite3_close(h);
	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_db_validation_latest(db, 1, &v), 0,
		     "the validation survives the migration");
	cr_expect_eq(v.id, vid);
	memcal_db_validation_free(&v);
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_job_latency_store(db, vid, &l), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);

	/* deleting the validation deletes its latency rows */
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "PRAGMA foreign_keys = ON;"
				  "DELETE FROM validation_run", NULL, NULL,
				  NULL), SQLITE_OK);
	sqlite3_close(h);
	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0);
	cr_assert_eq(memcal_db_job_latency_list(db, vid, on_row, &s), 0);
	cr_expect_eq(s.n, 0);
	memcal_db_close(db);
	unlink(path);
}
