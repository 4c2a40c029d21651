// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_guaranteed.c - schema 8: the guaranteed_bandwidth table (figures
 * come back intact, bad ones are refused, the figure standing for a class
 * follows the preference declared > single-bank > random-line and never a
 * skipped one) and the static validation condition; a schema-7 database
 * with a validation and a job-latency row is migrated with both kept.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db_internal.h"
#include "fixture_db.h"
#include "memcal_db_guaranteed.h"
#include "memcal_db_job_latency.h"
#include "memcal_db_tune.h"

/**
 * struct seen - figures listed.
 * @n:   count.
 * @fig: copies of them.
 */
struct seen {
	int n;
	struct memcal_guaranteed fig[8];
};

/* on_fig - memcal_db_guaranteed_list() callback: keep a copy. */
static int on_fig(const struct memcal_guaranteed *g, void *user)
{
	struct seen *s = user;

	cr_assert_lt(s->n, 8);
	s->fig[s->n++] = *g;
	return 0;
}

/* fig - a figure of class @traffic by @method with status @status. */
static struct memcal_guaranteed fig(const char *traffic, const char *method,
				    const char *status, double bps)
{
	struct memcal_guaranteed g = { .bandwidth_bps = bps, .min_bps = bps * 0.9,
		.max_bps = bps * 1.1, .n_cpus = 2, .buffer_bytes = 1 << 30,
		.streams = 16, .repetitions = 5 };

	snprintf(g.traffic, sizeof(g.traffic), "%s", traffic);
	snprintf(g.method, sizeof(g.method), "%s", method);
	snprintf(g.status, sizeof(g.status), "%s", status);
	snprintf(g.cpus, sizeof(g.cpus), "0-1");
	snprintf(g.criterion, sizeof(g.criterion), "median of 5 repetitions");
	if (!strcmp(status, "skipped")) {
		g.bandwidth_bps = g.min_bps = g.max_bps = 0;
		snprintf(g.source, sizeof(g.source), "the DRAM address "
			 "mapping of this board is not known");
	} else if (!strcmp(status, "declared")) {
		g.min_bps = g.max_bps = bps;
		snprintf(g.source, sizeof(g.source), "DDR4-2400 tRC 45 ns");
	}
	return g;
}

/* open_rw - open @path read-write. */
static memcal_db *open_rw(const char *path)
{
	char err[512] = "";
	memcal_db *db;

	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s", err);
	return db;
}

/* pick - the figure standing for @traffic, asserting there is one. */
static struct memcal_guaranteed pick(memcal_db *db, int64_t run,
				     const char *traffic)
{
	struct memcal_guaranteed g;

	cr_assert_eq(memcal_db_guaranteed_pick(db, run, traffic, &g), MEMCAL_OK,
		     "%s", memcal_db_errmsg(db));
	return g;
}

Test(guaranteed, figures_come_back_and_the_preferred_one_stands)
{
	const char *path = "/tmp/memcal-test-guaranteed.db";
	struct memcal_guaranteed rl = fig("read", "random-line", "measured", 9e9),
		sb = fig("read", "single-bank", "skipped", 0),
		wr = fig("write", "random-line", "measured", 4e9),
		dw = fig("write", "declared", "declared", 3e9), bad, got;
	struct fixture_ids ids;
	struct seen s = { 0 };
	memcal_db *db;
	sqlite3 *h;

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "DELETE FROM guaranteed_bandwidth", NULL,
				  NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	db = open_rw(path);
	cr_assert_eq(memcal_db_guaranteed_pick(db, ids.run_id, "read", &got),
		     MEMCAL_ENOTFOUND, "a run without figures has none to pick");
	cr_expect(strstr(memcal_db_errmsg(db), "--guaranteed-read"), "%s",
		  memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_begin(db), 0);
	bad = fig("read", "random-line", "measured", 0);
	cr_expect_eq(memcal_db_guaranteed_store(db, ids.run_id, &bad),
		     MEMCAL_EINVAL, "a measured figure of 0 is refused");
	bad = fig("read", "single-bank", "skipped", 0);
	bad.source[0] = '\0';
	cr_expect_eq(memcal_db_guaranteed_store(db, ids.run_id, &bad),
		     MEMCAL_EINVAL, "a skip without its reason is refused");
	bad = fig("copy", "random-line", "measured", 1e9);
	cr_expect_eq(memcal_db_guaranteed_store(db, ids.run_id, &bad),
		     MEMCAL_EINVAL, "an unknown class is refused");
	cr_expect(strstr(memcal_db_errmsg(db), "'copy'"), "%s",
		  memcal_db_errmsg(db));
	bad = fig("read", "declared", "measured", 1e9);
	cr_expect_neq(memcal_db_guaranteed_store(db, ids.run_id, &bad),
		      MEMCAL_OK, "a declared method must have declared status");
	memcal_db_rollback(db);

	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &wr), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &sb), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &rl), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &dw), 0, "%s",
		     memcal_db_errmsg(db));
	cr_expect_neq(memcal_db_guaranteed_store(db, ids.run_id, &dw), 0,
		      "one figure per run, class and method");
	memcal_db_rollback(db);

	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &wr), 0);
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &sb), 0);
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &rl), 0);
	cr_assert_eq(memcal_db_guaranteed_store(db, ids.run_id, &dw), 0);
	cr_assert_eq(memcal_db_commit(db), 0);

	cr_assert_eq(memcal_db_guaranteed_list(db, ids.run_id, on_fig, &s), 0);
	cr_assert_eq(s.n, 4);
	cr_expect_eq(memcmp(&s.fig[0], &sb, sizeof(sb)), 0,
		     "reads first, single-bank (skipped) before random-line");
	cr_expect_eq(memcmp(&s.fig[1], &rl, sizeof(rl)), 0, "random-line intact");
	cr_expect_eq(memcmp(&s.fig[2], &dw, sizeof(dw)), 0, "declared write first");
	cr_expect_eq(memcmp(&s.fig[3], &wr, sizeof(wr)), 0);
	got = pick(db, ids.run_id, "read");
	cr_expect_str_eq(got.method, "random-line",
			 "a skipped single-bank figure never stands for reads");
	got = pick(db, ids.run_id, "write");
	cr_expect_str_eq(got.method, "declared", "a declared figure wins");
	cr_expect_str_eq(got.source, "DDR4-2400 tRC 45 ns");
	memcal_db_close(db);
	unlink(path);
}

/**
 * struct results - validation results listed.
 * @r: where they go.
 * @n: how many so far.
 */
struct results {
	struct memcal_validation_result *r;
	int *n;
};

/* collect - memcal_db_validation_result_list() callback: keep a copy. */
static int collect(const struct memcal_validation_result *r, void *user)
{
	struct results *res = user;

	cr_assert_lt(*res->n, 2);
	res->r[(*res->n)++] = *r;
	return 0;
}

Test(guaranteed, static_condition_round_trips_and_stays_null_when_not_run)
{
	const char *path = "/tmp/memcal-test-guaranteed-static.db";
	struct memcal_config c = { .mix = "m", .document = "{}",
		.period_us = 1000, .master_cpu = 0 };
	struct memcal_validation v = { .regulated = true };
	struct memcal_validation_result a = { .workload = "rt", .cpu = 1,
		.solo_ns = 1e6, .unregulated_ns = 2e6, .regulated_ns = 1.2e6,
		.has_static = true, .static_ns = 1.5e6,
		.static_deadline_misses = 4, .static_throttles = 30,
		.static_throttled_ns = 7000 },
		b = { .workload = "be", .cpu = 0, .solo_ns = 1e6,
		.unregulated_ns = 1.1e6, .regulated_ns = 1.3e6 };
	struct memcal_validation_result got[2];
	struct fixture_ids ids;
	memcal_db *db;
	int n = 0;

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	db = open_rw(path);
	c.platform_id = ids.platform_id;
	c.calibration_run_id = ids.run_id;
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_config_store(db, &c), 0, "%s", memcal_db_errmsg(db));
	v.config_id = c.id;
	cr_assert_eq(memcal_db_validation_store(db, &v), 0);
	cr_assert_eq(memcal_db_validation_result_store(db, v.id, &a), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_validation_result_store(db, v.id, &b), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_assert_eq(memcal_db_validation_result_list(db, v.id, collect,
						     &(struct results){ got, &n }), 0);
	cr_assert_eq(n, 2);
	cr_expect(got[0].has_static);
	cr_expect_eq(got[0].static_ns, 1.5e6);
	cr_expect_eq(got[0].static_deadline_misses, 4);
	cr_expect_eq(got[0].static_throttles, 30);
	cr_expect_eq(got[0].static_throttled_ns, 7000);
	cr_expect_eq(got[0].regulated_ns, 1.2e6);
	cr_expect_not(got[1].has_static, "a result without the static run "
		      "reads back without it, not as zeros taken for figures");
	memcal_db_close(db);
	unlink(path);
}

/*
 * A schema-7 database (no guaranteed_bandwidth, no static columns, a
 * job_latency that knows no 'static' condition) keeps its validation and
 * its latency row through the upgrade; the old result has no static run,
 * and a 'static' latency row can be stored afterwards.
 */
Test(guaranteed, version_7_validations_survive_the_migration)
{
	const char *path = "/tmp/memcal-test-guaranteed-v7.db";
	struct memcal_validation_result got[2];
	struct memcal_job_latency l = { .workload = "rt", .cpu = 1,
		.condition = "static", .probe = "self", .period_ns = 1000000,
		.deadline_ns = 1000000, .samples = 10, .p50_ns = 5, .p99_ns = 9,
		.max_ns = 9, .histogram = "[[1,10]]" };
	struct fixture_ids ids;
	struct memcal_guaranteed g;
	memcal_db *db;
	sqlite3 *h;
	char sql[4096];
	int n = 0;

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	snprintf(sql, sizeof(sql),
		 "PRAGMA foreign_keys=ON;"
		 FIXTURE_UNDO_V8
		 "INSERT INTO tuned_config (platform_id, calibration_run_id, mix,"
		 " document, period_us, master_cpu, created_at) VALUES"
		 " (%lld, %lld, 'm', '{}', 1000, 0, 'now');"
		 "INSERT INTO validation_run (config_id, started_at, finished_at,"
		 " regulated) VALUES (last_insert_rowid(), 'a', 'b', 1);"
		 "INSERT INTO validation_result (validation_id, workload, cpu,"
		 " solo_ns, unregulated_ns, regulated_ns, deadline_ns, jobs,"
		 " deadline_misses, throttles, throttled_ns) VALUES"
		 " (last_insert_rowid(), 'rt', 1, 1, 2, 3, 4, 5, 6, 7, 8);"
		 "INSERT INTO job_latency (validation_id, workload, cpu, condition,"
		 " probe, period_ns, deadline_ns, samples, p50_ns, p99_ns, max_ns,"
		 " misses, overflow, histogram) VALUES ((SELECT MAX(id) FROM"
		 " validation_run), 'rt', 1, 'regulated', 'self', 1000000,"
		 " 1000000, 3, 1, 2, 2, 0, 0, '[]');"
		 "PRAGMA user_version = 7;", (long long)ids.platform_id,
		 (long long)ids.run_id);
	cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK, "%s",
		     sqlite3_errmsg(h));
	sqlite3_close(h);
	db = open_rw(path);
	cr_expect_eq(fixture_db_user_version(path), MEMCAL_DB_SCHEMA_VERSION);
	cr_assert_eq(memcal_db_validation_result_list(db, 1, collect,
						     &(struct results){ got, &n }), 0);
	cr_assert_eq(n, 1, "the validation result survives");
	cr_expect_eq(got[0].throttled_ns, 8);
	cr_expect_not(got[0].has_static, "an old validation has no static run");
	cr_expect_eq(memcal_db_guaranteed_pick(db, ids.run_id, "read", &g),
		     MEMCAL_ENOTFOUND, "an old run has no guaranteed figure");
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_expect_eq(memcal_db_job_latency_store(db, 1, &l), 0,
		     "a static latency row is accepted: %s", memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	{
		sqlite3_stmt *st;

		cr_assert_eq(sqlite3_prepare_v2(h, "SELECT COUNT(*) FROM"
				" job_latency", -1, &st, NULL), SQLITE_OK);
		cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
		cr_expect_eq(sqlite3_column_int(st, 0), 2,
			     "the old latency row survives beside the new one");
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	unlink(path);
}
