// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mix_curve.c - the mix_curve table: curves stored with their points
 * come back from 100 % read down to 0 %, points in order and every figure
 * intact; impossible curves are refused; a schema-4 database is migrated
 * with its runs kept; deleting a run deletes its curves; a database newer
 * than this memcal is refused untouched.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db_internal.h"
#include "fixture_db.h"
#include "memcal_db_mix.h"

/**
 * struct seen - curves listed.
 * @n:     count.
 * @curve: copies of them.
 */
struct seen {
	int n;
	struct memcal_mix_curve curve[6];
};

/* on_curve - memcal_db_mix_curve_list() callback: keep a copy. */
static int on_curve(const struct memcal_mix_curve *c, void *user)
{
	struct seen *s = user;

	cr_assert_lt(s->n, 6);
	s->curve[s->n++] = *c;
	return 0;
}

/* curve - a @pct % read curve of @n points with figures derived from both. */
static struct memcal_mix_curve curve(int pct, int n)
{
	struct memcal_mix_curve c = { .read_pct = pct, .variant = "avx2",
		.chase_cpu = 0, .load_cpus = 3, .peak_bps = 1e9 * (pct + 10),
		.knee_bps = 5e8 * (pct + 10), .sustainable_bps = 6e8 * (pct + 10),
		.idle_latency_ns = 90 + pct, .bound_ratio = 1.5,
		.lower_bound = pct < 50, .criterion = "latency <= 1.5 x idle",
		.n_points = n };

	for (int i = 0; i < n; i++)
		c.points[i] = (struct memcal_mix_point){
			.pace = (double)i / (n - 1), .bandwidth_bps = 1e9 * i + pct,
			.latency_ns = 100 + 7 * i + pct / 100.0,
			.latency_min_ns = 99 + 7 * i, .latency_max_ns = 101 + 7 * i,
		};
	return c;
}

/* open_db - open @path read-write. */
static memcal_db *open_db(const char *path)
{
	memcal_db *db;
	char err[256];

	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s",
		     err);
	return db;
}

Test(mix_curve, curves_round_trip_by_descending_share)
{
	const char *path = "/tmp/memcal-test-mix-rt.db";
	static const int pcts[] = { 25, 100, 0, 75, 50 };
	struct fixture_ids ids;
	struct seen s = { 0 };
	memcal_db *db;

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	db = open_db(path);
	cr_assert_eq(memcal_db_begin(db), 0);
	for (int i = 0; i < 5; i++) {
		struct memcal_mix_curve c = curve(pcts[i], 3 + i);

		cr_assert_eq(memcal_db_mix_curve_store(db, ids.run_id, &c), 0,
			     "%s", memcal_db_errmsg(db));
	}
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_assert_eq(memcal_db_mix_curve_list(db, ids.run_id, on_curve, &s), 0,
		     "%s", memcal_db_errmsg(db));
	cr_assert_eq(s.n, 5);
	for (int i = 0; i < 5; i++) {
		const struct memcal_mix_curve *got = &s.curve[i];
		int pct = 100 - 25 * i, n = 0;
		struct memcal_mix_curve want;

		for (int j = 0; j < 5; j++)
			if (pcts[j] == pct)
				n = 3 + j;
		want = curve(pct, n);
		cr_expect_eq(got->read_pct, pct);
		cr_expect_str_eq(got->variant, "avx2");
		cr_expect_eq(got->load_cpus, 3);
		cr_expect_eq(got->peak_bps, want.peak_bps);
		cr_expect_eq(got->knee_bps, want.knee_bps);
		cr_expect_eq(got->sustainable_bps, want.sustainable_bps);
		cr_expect_eq(got->idle_latency_ns, want.idle_latency_ns);
		cr_expect_eq(got->lower_bound, want.lower_bound);
		cr_expect_str_eq(got->criterion, want.criterion);
		cr_assert_eq(got->n_points, n, "%d %% curve", pct);
		for (int p = 0; p < n; p++) {
			cr_expect_eq(got->points[p].pace, want.points[p].pace);
			cr_expect_eq(got->points[p].bandwidth_bps,
				     want.points[p].bandwidth_bps);
			cr_expect_eq(got->points[p].latency_ns,
				     want.points[p].latency_ns);
			cr_expect_eq(got->points[p].latency_min_ns,
				     want.points[p].latency_min_ns);
			cr_expect_eq(got->points[p].latency_max_ns,
				     want.points[p].latency_max_ns);
		}
	}

	/* another run has no curves */
	s.n = 0;
	cr_assert_eq(memcal_db_mix_curve_list(db, ids.overhead_run_id, on_curve,
					      &s), 0);
	cr_expect_eq(s.n, 0);
	memcal_db_close(db);
	unlink(path);
}

Test(mix_curve, impossible_curves_are_refused_and_nothing_half_stored)
{
	const char *path = "/tmp/memcal-test-mix-bad.db";
	struct fixture_ids ids;
	struct memcal_mix_curve c;
	struct seen s = { 0 };
	memcal_db *db;

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	db = open_db(path);
	cr_assert_eq(memcal_db_begin(db), 0);
	c = curve(50, 0);
	cr_expect_eq(memcal_db_mix_curve_store(db, ids.run_id, &c),
		     MEMCAL_EINVAL);
	cr_expect_not_null(strstr(memcal_db_errmsg(db), "points"));
	c = curve(120, 3);
	cr_expect_eq(memcal_db_mix_curve_store(db, ids.run_id, &c),
		     MEMCAL_EINVAL);
	c = curve(50, 3);
	c.bound_ratio = 0.5;		/* a bound below idle latency */
	cr_expect_neq(memcal_db_mix_curve_store(db, ids.run_id, &c), 0);
	c = curve(50, 3);
	cr_expect_eq(memcal_db_mix_curve_store(db, ids.run_id, &c), 0);
	cr_expect_neq(memcal_db_mix_curve_store(db, ids.run_id, &c), 0,
		      "a second 50 %% curve of the same run");
	memcal_db_rollback(db);
	cr_assert_eq(memcal_db_mix_curve_list(db, ids.run_id, on_curve, &s), 0);
	cr_expect_eq(s.n, 0);
	memcal_db_close(db);
	unlink(path);
}

Test(mix_curve, schema_4_database_is_migrated_and_runs_cascade)
{
	const char *path = "/tmp/memcal-test-mix-v4.db";
	struct fixture_ids ids;
	struct memcal_mix_curve c = curve(75, 4);
	struct memcal_run run;
	struct seen s = { 0 };
	memcal_db *db;
	sqlite3 *h;
	sqlite3_stmt *st;
	char sql[160];

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	/* back to schema 4: no mix_curve table, nor the later ones */
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, FIXTURE_UNDO_V8 "DROP TABLE mix_curve;"
				  "DROP TABLE pmu_selfcheck;"
				  "DROP TABLE cpu_kind;"
				  "PRAGMA user_version = 4", NULL, NULL, NULL),
		     SQLITE_OK);
	sqlite3_close(h);
	db = open_db(path);
	cr_expect_eq(fixture_db_user_version(path), MEMCAL_DB_SCHEMA_VERSION);
	cr_assert_eq(memcal_db_run_get(db, ids.run_id, &run), 0,
		     "the run survives the migration");
	cr_expect_str_eq(run.kind, "full");
	memcal_db_run_free(&run);
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_mix_curve_store(db, ids.run_id, &c), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_assert_eq(memcal_db_mix_curve_list(db, ids.run_id, on_curve, &s), 0);
	cr_expect_eq(s.n, 1);
	memcal_db_close(db);

	/* deleting the run deletes its curves */
	snprintf(sql, sizeof(sql), "PRAGMA foreign_keys = ON;"
		 "DELETE FROM calibration_run WHERE id = %lld",
		 (long long)ids.run_id);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK, "%s",
		     sqlite3_errmsg(h));
	cr_assert_eq(sqlite3_prepare_v2(h, "SELECT count(*) FROM mix_curve",
					-1, &st, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_expect_eq(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	unlink(path);
}

Test(mix_curve, newer_database_is_refused_with_its_curves_untouched)
{
	const char *path = "/tmp/memcal-test-mix-newer.db";
	struct fixture_ids ids;
	struct memcal_mix_curve c = curve(25, 3);
	memcal_db *db;
	sqlite3 *h;
	sqlite3_stmt *st;
	char sql[96], err[512];

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	db = open_db(path);
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_mix_curve_store(db, ids.run_id, &c), 0);
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
		 MEMCAL_DB_SCHEMA_VERSION + 1);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	cr_expect_neq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0);
	cr_expect_not_null(strstr(err, "newer"), "%s", err);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, "SELECT count(*), max(read_pct) "
					"FROM mix_curve", -1, &st, NULL),
		     SQLITE_OK);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_expect_eq(sqlite3_column_int(st, 0), 1, "the curve is still there");
	cr_expect_eq(sqlite3_column_int(st, 1), 25);
	sqlite3_finalize(st);
	sqlite3_close(h);
	unlink(path);
}
