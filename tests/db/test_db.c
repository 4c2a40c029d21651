// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_db.c - the database layer: schema, round trips, and every kind of
 * bad input the foundation issue names (not a database, newer schema,
 * unusable directories, a writer killed half-way, two writers at once,
 * an open while another process holds the file).
 *
 * Forked children never use cr_assert: Criterion's runner does not know
 * them, and an assertion there hangs the whole run.  They exit with a
 * status the parent asserts on instead (child_open()).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db_internal.h"
#include "fixture_db.h"
#include "memcal_db.h"
#include "memcal_db_selfcheck.h"
#include "memcal_db_tune.h"

static char dir[256];
static char path[300];

/* setup - a fresh temporary directory per test. */
static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/memcal-dbtest-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.db", dir);
}

/* teardown - remove the directory and its files. */
static void teardown(void)
{
	char cmd[320];

	chmod(dir, 0700);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(db, .init = setup, .fini = teardown);

/* open_ok - open @p with @flags, failing the test with the reason. */
static memcal_db *open_ok(const char *p, unsigned flags)
{
	char err[512] = "";
	memcal_db *db;
	int rc = memcal_db_open(p, flags, &db, err, sizeof(err));

	cr_assert_eq(rc, MEMCAL_OK, "open %s: %d %s", p, rc, err);
	return db;
}

/*
 * child_open - open @p read-write in a forked child; on failure say why
 * on stderr and exit 3, which the parent sees.
 */
static memcal_db *child_open(const char *p)
{
	char err[512] = "";
	memcal_db *db;

	if (memcal_db_open(p, 0, &db, err, sizeof(err))) {
		fprintf(stderr, "child %d: open %s: %s\n", (int)getpid(), p, err);
		_exit(3);
	}
	return db;
}

/* count_run - memcal_db_run_list() callback: count the runs. */
static int count_run(const struct memcal_run *r, void *user)
{
	(void)r;
	++*(int *)user;
	return 0;
}

/* pragma_int - an integer PRAGMA read with plain SQLite. */
static int pragma_int(const char *p, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int v = -1;

	cr_assert_eq(sqlite3_open_v2(p, &h, SQLITE_OPEN_READONLY, NULL),
		     SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/* slurp - whole file contents (malloc'd), for "unchanged" checks. */
static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	char *buf;

	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(*len + 1);
	cr_assert_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

Test(db, create_sets_schema_wal_and_strict)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);

	memcal_db_close(db);
	cr_assert_eq(pragma_int(path, "PRAGMA user_version"),
		     MEMCAL_DB_SCHEMA_VERSION);
	cr_assert_eq(pragma_int(path, "SELECT count(*) FROM pragma_table_list"
				" WHERE schema = 'main' AND type = 'table' AND"
				" name NOT LIKE 'sqlite_%' AND strict = 0"), 0,
		     "every table is STRICT");
	cr_assert_gt(pragma_int(path, "SELECT count(*) FROM pragma_table_list"
				" WHERE strict = 1"), 10);
	/* WAL survives in the file header (read/write version 2). */
	cr_assert_eq(pragma_int(path, "SELECT journal_mode = 'wal' FROM"
				" pragma_journal_mode"), 1);
}

Test(db, missing_file_without_create_is_refused)
{
	char err[512];
	memcal_db *db;

	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)),
		     MEMCAL_ECANTOPEN);
	cr_assert_not_null(strstr(err, "no database at"), "%s", err);
	cr_assert_eq(access(path, F_OK), -1, "nothing was created");
}

Test(db, missing_directory_is_named)
{
	char p[400], err[512];
	memcal_db *db;

	snprintf(p, sizeof(p), "%s/nope/m.db", dir);
	cr_assert_eq(memcal_db_open(p, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), MEMCAL_ECANTOPEN);
	cr_assert_not_null(strstr(err, "does not exist"), "%s", err);
}

Test(db, readonly_directory_is_named)
{
	char err[512];
	memcal_db *db;

	if (geteuid() == 0) {
		/* root ignores directory modes: use a read-only mount stand-in,
		 * a path under /proc where nothing can be created. */
		cr_assert_eq(memcal_db_open("/proc/memcal-test.db",
					    MEMCAL_DB_OPEN_CREATE, &db, err,
					    sizeof(err)), MEMCAL_ECANTOPEN);
	} else {
		cr_assert_eq(chmod(dir, 0500), 0);
		cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db,
					    err, sizeof(err)),
			     MEMCAL_ECANTOPEN);
	}
	cr_assert_gt(strlen(err), 10, "a reason is given: %s", err);
}

Test(db, not_a_database_is_refused_untouched)
{
	static const char junk[] = "this is a text file, not SQLite\n"
				   "0123456789abcdef0123456789abcdef\n";
	FILE *f = fopen(path, "w");
	char err[512], *after;
	memcal_db *db;
	size_t len;

	fputs(junk, f);
	fclose(f);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), MEMCAL_ENOTADB);
	cr_assert_not_null(strstr(err, "not a memcal database"), "%s", err);
	after = slurp(path, &len);
	cr_assert_eq(len, strlen(junk));
	cr_assert_eq(memcmp(after, junk, len), 0, "file unchanged");
	free(after);
}

Test(db, newer_schema_is_refused_untouched)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	char err[512], *before, *after;
	size_t blen, alen;
	struct stat sb1, sb2;
	sqlite3 *h;

	memcal_db_close(db);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "PRAGMA journal_mode = DELETE;"
				  "PRAGMA user_version = 99", 0, 0, 0),
		     SQLITE_OK);
	sqlite3_close(h);
	before = slurp(path, &blen);
	stat(path, &sb1);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), MEMCAL_ENEWER);
	cr_assert_not_null(strstr(err, "newer"), "%s", err);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_READONLY, &db, err,
				    sizeof(err)), MEMCAL_ENEWER);
	after = slurp(path, &alen);
	stat(path, &sb2);
	cr_assert_eq(alen, blen);
	cr_assert_eq(memcmp(before, after, alen), 0, "bytes unchanged");
	cr_assert_eq(sb1.st_mtim.tv_nsec, sb2.st_mtim.tv_nsec);
	cr_assert_eq(pragma_int(path, "PRAGMA user_version"), 99);
	free(before);
	free(after);
}

Test(db, old_empty_database_is_migrated)
{
	sqlite3 *h;
	memcal_db *db;

	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "CREATE TABLE unrelated (x)", 0, 0, 0),
		     SQLITE_OK);
	sqlite3_close(h);
	db = open_ok(path, 0);
	memcal_db_close(db);
	cr_assert_eq(pragma_int(path, "PRAGMA user_version"),
		     MEMCAL_DB_SCHEMA_VERSION);
	cr_assert_eq(pragma_int(path, "SELECT count(*) FROM unrelated"), 0);
}

/* count_lower - memcal_db_overhead_list() callback: count the points. */
static int count_lower(const struct memcal_overhead_point *pt, void *user)
{
	int *n = user;

	n[0]++;
	n[1] += pt->lower_bound;
	return 0;
}

Test(db, version_2_overhead_points_gain_lower_bound_false)
{
	struct fixture_ids ids;
	int n[2] = { 0, 0 };
	memcal_db *db;
	sqlite3 *h;

	cr_assert_eq(fixture_db_create(path, &ids), 0);
	/* back to schema 2: overhead_point without its lower_bound column */
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, FIXTURE_UNDO_V8 "PRAGMA foreign_keys=OFF;"
		"CREATE TABLE v1 AS SELECT id, run_id, cpu, period_us,"
		" benchmark, method, master_cpu, repetitions, ratio_median,"
		" ratio_min, ratio_max FROM overhead_point;"
		"DROP TABLE overhead_point;"
		"ALTER TABLE v1 RENAME TO overhead_point;"
		"PRAGMA user_version = 2;"
		"DROP TABLE job_latency;"
		"DROP TABLE mix_curve;"
		"DROP TABLE pmu_selfcheck;"
		"DROP TABLE cpu_kind;", 0, 0, 0), SQLITE_OK,
		"%s", sqlite3_errmsg(h));
	sqlite3_close(h);
	db = open_ok(path, 0);
	cr_assert_eq(memcal_db_overhead_list(db, ids.overhead_run_id,
					     count_lower, n), MEMCAL_OK);
	memcal_db_close(db);
	cr_assert_eq(pragma_int(path, "PRAGMA user_version"),
		     MEMCAL_DB_SCHEMA_VERSION);
	cr_expect_eq(n[0], 4, "points kept");
	cr_expect_eq(n[1], 0, "none of them a lower bound");
}

/* count_checks - memcal_db_selfcheck_list() callback: count, keep last. */
static int count_checks(const struct memcal_selfcheck *c, void *user)
{
	struct memcal_selfcheck *last = user;

	last->cpu++;
	snprintf(last->verdict, sizeof(last->verdict), "%s", c->verdict);
	snprintf(last->message, sizeof(last->message), "%s", c->message);
	return 0;
}

/*
 * A schema 5 database (no pmu_selfcheck) keeps its runs through the
 * upgrade, its old run has no self-checks, and a new one stores and lists
 * them; the table's checks refuse an unknown verdict and an empty message.
 */
Test(db, version_5_runs_gain_an_empty_selfcheck_table)
{
	struct fixture_ids ids;
	struct memcal_selfcheck seen = { .cpu = 0 };
	struct memcal_selfcheck c = { .check = "delivery", .cpu = 1,
		.event = "raw:0x11", .expected = 250, .measured = 249,
		.tolerance_pct = 10, .verdict = "pass",
		.message = "cpu 1: 249 of 250 overflow interrupts delivered" };
	struct memcal_run run;
	memcal_db *db;
	sqlite3 *h;

	cr_assert_eq(fixture_db_create(path, &ids), 0);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, FIXTURE_UNDO_V8 "DROP TABLE pmu_selfcheck;"
				  "DROP TABLE cpu_kind;"
				  "PRAGMA user_version = 5;", 0, 0, 0),
		     SQLITE_OK, "%s", sqlite3_errmsg(h));
	sqlite3_close(h);
	db = open_ok(path, 0);
	cr_assert_eq(pragma_int(path, "PRAGMA user_version"),
		     MEMCAL_DB_SCHEMA_VERSION);
	cr_assert_eq(memcal_db_run_get(db, ids.run_id, &run), MEMCAL_OK,
		     "the run survives the migration");
	memcal_db_run_free(&run);
	cr_assert_eq(memcal_db_selfcheck_list(db, ids.run_id, count_checks,
					      &seen), MEMCAL_OK);
	cr_expect_eq(seen.cpu, 0, "an old run has no self-checks");
	cr_assert_eq(memcal_db_begin(db), MEMCAL_OK);
	cr_assert_eq(memcal_db_selfcheck_store(db, ids.run_id, &c),
		     MEMCAL_OK, "%s", memcal_db_errmsg(db));
	snprintf(c.verdict, sizeof(c.verdict), "maybe");
	cr_expect_neq(memcal_db_selfcheck_store(db, ids.run_id, &c),
		      MEMCAL_OK, "an unknown verdict is refused");
	snprintf(c.verdict, sizeof(c.verdict), "fail");
	c.message[0] = '\0';
	cr_expect_neq(memcal_db_selfcheck_store(db, ids.run_id, &c),
		      MEMCAL_OK, "a verdict without a message is refused");
	memcal_db_rollback(db);
	cr_assert_eq(memcal_db_begin(db), MEMCAL_OK);
	snprintf(c.verdict, sizeof(c.verdict), "pass");
	snprintf(c.message, sizeof(c.message), "cpu 1: delivered");
	cr_assert_eq(memcal_db_selfcheck_store(db, ids.run_id, &c),
		     MEMCAL_OK, "%s", memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), MEMCAL_OK);
	cr_assert_eq(memcal_db_selfcheck_list(db, ids.run_id, count_checks,
					      &seen), MEMCAL_OK);
	cr_expect_eq(seen.cpu, 1);
	cr_expect_str_eq(seen.verdict, "pass");
	cr_expect_str_eq(seen.message, "cpu 1: delivered");
	memcal_db_close(db);
}

Test(db, writes_outside_a_transaction_are_refused)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	struct memcal_platform p = { .fingerprint = "x" };

	cr_assert_eq(memcal_db_platform_store(db, &p), MEMCAL_EMISUSE);
	cr_assert_not_null(strstr(memcal_db_errmsg(db), "transaction"));
	memcal_db_close(db);
}

Test(db, readonly_handle_cannot_write)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);

	memcal_db_close(db);
	db = open_ok(path, MEMCAL_DB_OPEN_READONLY);
	cr_assert_eq(memcal_db_begin(db), MEMCAL_EREADONLY);
	memcal_db_close(db);
}

Test(db, constraint_violation_rolls_back_whole_transaction)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	struct fixture_ids ids;
	struct memcal_bw bad = { .kind = "sideways", .scope = "core",
				 .cpus = "0", .n_cpus = 1, .variant = "c",
				 .buffer_bytes = 1, .repetitions = 1 };
	int64_t latest = 0;

	cr_assert_eq(fixture_db_populate(db, &ids), MEMCAL_OK);
	cr_assert_eq(memcal_db_begin(db), MEMCAL_OK);
	struct memcal_run run = { .platform_id = ids.platform_id,
				  .kind = "quick" };
	cr_assert_eq(memcal_db_run_store(db, &run), MEMCAL_OK);
	cr_assert_eq(memcal_db_bw_store(db, run.id, &bad), MEMCAL_EINVAL);
	memcal_db_rollback(db);
	cr_assert_eq(memcal_db_run_latest(db, "quick", &latest),
		     MEMCAL_ENOTFOUND);
	memcal_db_close(db);
}

/* count_bw - list callback counting rows and summing medians. */
static int count_bw(const struct memcal_bw *bw, void *user)
{
	double *acc = user;

	acc[0] += 1;
	acc[1] += bw->median_bps;
	return 0;
}

/* count_any - counts rows of any list. */
static int count_lat(const struct memcal_latency_point *pt, void *user)
{
	(void)pt;
	++*(int *)user;
	return 0;
}

/* check_sustainable - the fixture's two sustainable figures. */
static int check_sustainable(const struct memcal_sustainable *s, void *user)
{
	++*(int *)user;
	if (!strcmp(s->traffic, "write")) {
		cr_assert(s->lower_bound);
		cr_assert_float_eq(s->bandwidth_bps, 6e9, 1);
	} else {
		cr_assert_not(s->lower_bound);
		cr_assert_str_eq(s->criterion, "latency <= 1.5 x idle");
	}
	return 0;
}

/* stop_early - returns 42 to stop a walk. */
static int stop_early(const struct memcal_overhead_point *pt, void *user)
{
	(void)pt;
	++*(int *)user;
	return 42;
}

Test(db, calibration_round_trip)
{
	struct fixture_ids ids;
	struct memcal_pmu_status ps;
	struct memcal_platform p;
	struct memcal_run r;
	double acc[2] = { 0, 0 };
	int n = 0, m = 0, k = 0;
	int64_t latest;
	memcal_db *db;

	cr_assert_eq(fixture_db_create(path, &ids), MEMCAL_OK);
	db = open_ok(path, MEMCAL_DB_OPEN_READONLY);
	cr_assert_eq(memcal_db_platform_get(db, ids.platform_id, &p), 0);
	cr_assert_str_eq(p.cpu_model, "Cortex-A53");
	cr_assert_eq(p.cores, 4);
	cr_assert_not_null(strstr(p.topology_json, "1048576"));
	memcal_db_platform_free(&p);
	cr_assert_eq(memcal_db_run_get(db, ids.run_id, &r), 0);
	cr_assert_str_eq(r.kind, "full");
	cr_assert_str_eq(r.started_at, "2026-01-02T03:04:05Z");
	cr_assert_str_eq(r.notes, "no PMU");
	memcal_db_run_free(&r);
	cr_assert_eq(memcal_db_bw_list(db, ids.run_id, count_bw, acc), 0);
	cr_assert_float_eq(acc[0], 12, 0);
	/* sum over kinds k=0..2 and n=1..4 of 1e10*n*(k+1)/2 = 30e10 */
	cr_assert_float_eq(acc[1], 3e11, 1);
	cr_assert_eq(memcal_db_latency_list(db, ids.run_id, count_lat, &n), 0);
	cr_assert_eq(n, 5);
	cr_assert_eq(memcal_db_sustainable_list(db, ids.run_id,
						check_sustainable, &m), 0);
	cr_assert_eq(m, 2);
	cr_assert_eq(memcal_db_pmu_status_get(db, ids.run_id, &ps), 0);
	cr_assert_not(ps.available);
	cr_assert_eq(memcal_db_pmu_status_get(db, ids.overhead_run_id, &ps),
		     MEMCAL_ENOTFOUND);
	cr_assert_eq(memcal_db_overhead_list(db, ids.overhead_run_id,
					     stop_early, &k), 42);
	cr_assert_eq(k, 1, "a non-zero callback return stops the walk");
	cr_assert_eq(memcal_db_run_latest(db, NULL, &latest), 0);
	cr_assert_eq(latest, ids.overhead_run_id);
	cr_assert_eq(memcal_db_run_latest(db, "bandwidth", &latest), 0);
	cr_assert_eq(latest, ids.run_id);
	memcal_db_close(db);
}

Test(db, platform_store_is_idempotent_by_fingerprint)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	struct memcal_platform a = { .fingerprint = "fp", .hostname = "one",
				     .arch = "x86_64", .cpu_model = "m",
				     .kernel = "k1", .cores = 2, .pus = 2 };
	struct memcal_platform b = a, got;

	strcpy(b.kernel, "k2");
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_platform_store(db, &a), 0);
	cr_assert_eq(memcal_db_platform_store(db, &b), 0);
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_assert_eq(a.id, b.id);
	cr_assert_eq(memcal_db_platform_get(db, a.id, &got), 0);
	cr_assert_str_eq(got.kernel, "k2");
	memcal_db_platform_free(&got);
	memcal_db_close(db);
}

Test(db, tuning_round_trip)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	uint64_t rd[3] = { 1, UINT64_MAX, 1ULL << 40 }, wr[3] = { 7, 8, 9 };
	struct memcal_profile p = { .mix = "demo", .workload = "rt0",
		.argv_json = "[\"sleep\",\"1\"]", .criticality = "rt",
		.cpu = 1, .runs = 3, .exec_median_ns = 5e6,
		.trace_source = "declared", .trace_period_us = 100,
		.trace_len = 3, .trace_read = rd, .trace_write = wr };
	struct fixture_ids ids;
	struct memcal_profile got;
	struct memcal_config c = { .mix = "demo",
		.document = "{\"schema\":1}", .period_us = 1000,
		.master_cpu = 0, .n_profiles = 1 }, cg;
	struct memcal_validation v = { .regulated = true }, vg;
	struct memcal_validation_result res = { .workload = "rt0", .cpu = 1,
		.solo_ns = 1, .regulated_ns = 2, .deadline_misses = 3 };
	int64_t latest;

	cr_assert_eq(fixture_db_populate(db, &ids), 0);
	p.platform_id = c.platform_id = ids.platform_id;
	c.calibration_run_id = ids.run_id;
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_profile_store(db, &p), 0);
	c.profile_ids = &p.id;
	cr_assert_eq(memcal_db_config_store(db, &c), 0);
	v.config_id = c.id;
	cr_assert_eq(memcal_db_validation_store(db, &v), 0);
	cr_assert_eq(memcal_db_validation_result_store(db, v.id, &res), 0);
	cr_assert_eq(memcal_db_commit(db), 0);

	cr_assert_eq(memcal_db_profile_get(db, p.id, &got), 0);
	cr_assert_eq(got.trace_len, 3);
	cr_assert_eq(got.trace_read[1], UINT64_MAX);
	cr_assert_eq(got.trace_read[2], 1ULL << 40);
	cr_assert_eq(got.trace_write[2], 9);
	cr_assert_str_eq(got.argv_json, "[\"sleep\",\"1\"]");
	memcal_db_profile_free(&got);
	cr_assert_eq(memcal_db_config_latest(db, &latest), 0);
	cr_assert_eq(latest, c.id);
	cr_assert_eq(memcal_db_config_get(db, c.id, &cg), 0);
	cr_assert_eq(cg.n_profiles, 1);
	cr_assert_eq(cg.profile_ids[0], p.id);
	cr_assert_eq(cg.calibration_run_id, ids.run_id);
	cr_assert_str_eq(cg.document, "{\"schema\":1}");
	memcal_db_config_free(&cg);
	cr_assert_eq(memcal_db_validation_latest(db, c.id, &vg), 0);
	cr_assert(vg.regulated);
	memcal_db_validation_free(&vg);
	memcal_db_close(db);
}

Test(db, invalid_json_document_is_refused)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	struct fixture_ids ids;
	struct memcal_config c = { .mix = "m", .document = "{not json",
				   .period_us = 1000 };

	cr_assert_eq(fixture_db_populate(db, &ids), 0);
	c.platform_id = ids.platform_id;
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_config_store(db, &c), MEMCAL_EINVAL);
	memcal_db_rollback(db);
	memcal_db_close(db);
}

Test(db, killed_writer_leaves_no_half_run)
{
	int ready[2];
	pid_t pid;
	char c;
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	struct fixture_ids ids;
	int64_t latest;

	cr_assert_eq(fixture_db_populate(db, &ids), 0);
	memcal_db_close(db);
	cr_assert_eq(pipe(ready), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct memcal_run run = { .platform_id = ids.platform_id,
					  .kind = "quick" };
		struct memcal_bw bw = { .kind = "read", .scope = "core",
			.cpus = "0", .n_cpus = 1, .variant = "c",
			.buffer_bytes = 64, .repetitions = 1,
			.median_bps = 1, .min_bps = 1, .max_bps = 1 };

		db = child_open(path);
		memcal_db_begin(db);
		memcal_db_run_store(db, &run);
		for (int i = 0; i < 1000; i++)
			memcal_db_bw_store(db, run.id, &bw);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		pause();	/* killed here, mid-transaction */
		_exit(0);
	}
	cr_assert_eq(read(ready[0], &c, 1), 1);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	db = open_ok(path, 0);
	cr_assert_eq(memcal_db_run_latest(db, "quick", &latest),
		     MEMCAL_ENOTFOUND, "the killed run left nothing");
	cr_assert_eq(memcal_db_run_latest(db, "full", &latest), 0);
	memcal_db_close(db);
	cr_assert_eq(pragma_int(path, "SELECT integrity_check = 'ok' FROM"
				" pragma_integrity_check"), 1);
	cr_assert_eq(pragma_int(path, "SELECT count(*) FROM bandwidth WHERE"
				" variant = 'c'"), 0);
}

Test(db, second_writer_waits_then_reports_busy)
{
	int ready[2], go[2], st;
	pid_t pid;
	char c;
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);

	memcal_db_close(db);
	cr_assert_eq(pipe(ready), 0);
	cr_assert_eq(pipe(go), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		db = child_open(path);
		if (memcal_db_begin(db))
			_exit(2);
		if (write(ready[1], "x", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		memcal_db_commit(db);
		memcal_db_close(db);
		_exit(0);
	}
	cr_assert_eq(read(ready[0], &c, 1), 1);
	db = open_ok(path, 0);
	memcal_db_set_busy_timeout(db, 100);
	cr_assert_eq(memcal_db_begin(db), MEMCAL_EBUSY);
	cr_assert_not_null(strstr(memcal_db_errmsg(db), "locked"));
	/* Readers are not blocked by the writer (WAL). */
	int n = 0;
	cr_assert_eq(memcal_db_run_list(db, count_run, &n), MEMCAL_OK);
	cr_assert_eq(write(go[1], "x", 1), 1);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the first writer "
		  "failed (status %#x)", st);
	cr_assert_eq(memcal_db_begin(db), MEMCAL_OK);
	cr_assert_eq(memcal_db_commit(db), MEMCAL_OK);
	memcal_db_close(db);
}

Test(db, concurrent_writers_both_land)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	struct fixture_ids ids;
	pid_t pids[2];

	cr_assert_eq(fixture_db_populate(db, &ids), 0);
	memcal_db_close(db);
	for (int k = 0; k < 2; k++) {
		pids[k] = fork();
		cr_assert_geq(pids[k], 0);
		if (pids[k] == 0) {
			db = child_open(path);
			for (int i = 0; i < 40; i++) {
				struct memcal_run run = {
					.platform_id = ids.platform_id,
					.kind = "quick" };

				if (memcal_db_begin(db) ||
				    memcal_db_run_store(db, &run) ||
				    memcal_db_commit(db))
					_exit(1);
			}
			memcal_db_close(db);
			_exit(0);
		}
	}
	for (int k = 0; k < 2; k++) {
		int st;

		waitpid(pids[k], &st, 0);
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			  "writer %d failed (status %#x; 3: its open failed)",
			  k, st);
	}
	cr_assert_eq(pragma_int(path, "SELECT count(*) FROM calibration_run"
				" WHERE kind = 'quick'"), 80);
}

/*
 * A process holding the file exclusively (SQLite's EXCLUSIVE locking mode;
 * also what a last connection does briefly while it checkpoints on close)
 * makes even reading the schema version wait: the open must wait for it
 * like any statement, not fail at once with "database is locked".
 */
Test(db, open_waits_for_a_process_holding_the_file)
{
	int locked[2], st;
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	char err[512] = "", c;
	pid_t pid;
	int rc;

	memcal_db_close(db);
	cr_assert_eq(pipe(locked), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		sqlite3 *h;

		if (sqlite3_open(path, &h) != SQLITE_OK ||
		    sqlite3_exec(h, "PRAGMA locking_mode = EXCLUSIVE;"
				 "BEGIN EXCLUSIVE; COMMIT;", NULL, NULL,
				 NULL) != SQLITE_OK)
			_exit(2);
		if (write(locked[1], "x", 1) != 1)
			_exit(1);
		usleep(300000);
		sqlite3_close(h);
		_exit(0);
	}
	cr_assert_eq(read(locked[0], &c, 1), 1, "the lock holder failed");
	rc = memcal_db_open(path, 0, &db, err, sizeof(err));
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	cr_assert_eq(rc, MEMCAL_OK, "open while another process held the "
		     "file: %d %s", rc, err);
	memcal_db_close(db);
}

Test(db, default_path_follows_environment)
{
	char buf[512];

	setenv("MEMCAL_DB", "/x/y.db", 1);
	cr_assert_eq(memcal_db_default_path(buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "/x/y.db");
	unsetenv("MEMCAL_DB");
	cr_assert_eq(memcal_db_default_path(buf, sizeof(buf)), 0);
	if (geteuid() == 0)
		cr_assert_str_eq(buf, "/var/lib/memcal/memcal.db");
	setenv("MEMCAL_DB", "", 1);
	cr_assert_eq(memcal_db_default_path(buf, 4), MEMCAL_EINVAL);
}

/* count_entries - files in the test directory (the database included). */
static int count_entries(void)
{
	char cmd[320];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	cr_assert_not_null(p);
	cr_assert_eq(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

Test(db, readonly_open_of_a_clean_wal_file_creates_nothing)
{
	memcal_db *db = open_ok(path, MEMCAL_DB_OPEN_CREATE);
	int n = 0;

	memcal_db_close(db);
	cr_assert_eq(count_entries(), 1, "a clean close leaves the file alone");
	db = open_ok(path, MEMCAL_DB_OPEN_READONLY);
	cr_assert_eq(memcal_db_run_list(db, count_run, &n), MEMCAL_OK);
	cr_assert_eq(n, 0);
	memcal_db_close(db);
	cr_assert_eq(count_entries(), 1, "no -wal, -shm or -journal left");
}

Test(db, empty_file_is_refused_untouched_without_create)
{
	char err[512];
	memcal_db *db;
	struct stat sb;
	FILE *f = fopen(path, "w");

	fclose(f);
	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)),
		     MEMCAL_ENOTADB);
	cr_assert_not_null(strstr(err, "is empty"), "%s", err);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_READONLY, &db, err,
				    sizeof(err)), MEMCAL_ENOTADB);
	cr_assert_eq(stat(path, &sb), 0);
	cr_assert_eq(sb.st_size, 0, "the empty file stays empty");
	cr_assert_eq(count_entries(), 1);
}

Test(db, device_path_is_refused)
{
	char err[512], null[320] = "/dev/null";
	memcal_db *db;

	/* a private null device where root can make one: a regression then
	 * leaves its -journal here, not in /dev */
	snprintf(null, sizeof(null), "%s/null", dir);
	if (mknod(null, S_IFCHR | 0666, makedev(1, 3)))
		snprintf(null, sizeof(null), "/dev/null");
	cr_assert_eq(memcal_db_open(null, MEMCAL_DB_OPEN_CREATE, &db,
				    err, sizeof(err)), MEMCAL_ENOTADB);
	cr_assert_not_null(strstr(err, "character device"), "%s", err);
	cr_assert_eq(memcal_db_open(null, MEMCAL_DB_OPEN_READONLY, &db,
				    err, sizeof(err)), MEMCAL_ENOTADB);
	cr_assert_not_null(strstr(err, "not a database"), "%s", err);
	cr_assert_eq(memcal_db_open(dir, MEMCAL_DB_OPEN_READONLY, &db, err,
				    sizeof(err)), MEMCAL_ENOTADB);
	cr_assert_not_null(strstr(err, "directory"), "%s", err);
}

/* copy_event - keep the one pmu_event row a test stores. */
static int copy_event(const struct memcal_pmu_event *e, void *user)
{
	*(struct memcal_pmu_event *)user = *e;
	return 0;
}

/*
 * Schema 9: a candidate event keeps its PMU's sysfs name; rows of a
 * version-8 database gain '' (no name known: exports then warn).
 */
Test(db, version_8_pmu_events_gain_an_empty_pmu_name)
{
	struct memcal_pmu_event e = { .name = "EV", .pmu = "pfm",
		.traffic = "read", .perf_type = 9, .perf_config = 0x2a,
		.perf_pmu = "armv8_cortex_a76", .opened = true },
		seen = { .perf_pmu = "unset" };
	struct fixture_ids ids;
	memcal_db *db;
	sqlite3 *h;

	cr_assert_eq(fixture_db_create(path, &ids), 0);
	db = open_ok(path, 0);
	cr_assert_eq(memcal_db_begin(db), MEMCAL_OK);
	cr_assert_eq(memcal_db_pmu_event_store(db, ids.run_id, &e), MEMCAL_OK,
		     "%s", memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), MEMCAL_OK);
	cr_assert_eq(memcal_db_pmu_event_list(db, ids.run_id, copy_event, &seen),
		     MEMCAL_OK);
	cr_expect_str_eq(seen.perf_pmu, "armv8_cortex_a76");
	memcal_db_close(db);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, FIXTURE_UNDO_V9 "PRAGMA user_version = 8;",
				  0, 0, 0), SQLITE_OK, "%s", sqlite3_errmsg(h));
	sqlite3_close(h);
	db = open_ok(path, 0);
	cr_assert_eq(pragma_int(path, "PRAGMA user_version"),
		     MEMCAL_DB_SCHEMA_VERSION);
	cr_assert_eq(memcal_db_pmu_event_list(db, ids.run_id, copy_event, &seen),
		     MEMCAL_OK);
	cr_expect_str_empty(seen.perf_pmu);
	cr_expect_eq(seen.perf_type, 9, "the row survives the migration");
	memcal_db_close(db);
}

/* get_spread - memcal_db_bw_list() callback: keep the last row. */
static int get_spread(const struct memcal_bw *bw, void *user)
{
	*(struct memcal_bw *)user = *bw;
	return 0;
}

Test(db, bandwidth_spread_round_trips_and_version_10_rows_have_none)
{
	struct memcal_run run = { .kind = "quick" };
	struct memcal_bw bw = { .kind = "read", .scope = "aggregate",
		.cpus = "0-1", .n_cpus = 2, .variant = "avx2",
		.buffer_bytes = 1 << 20, .repetitions = 9, .median_bps = 5e10,
		.min_bps = 4e10, .max_bps = 6e10, .spread = 0.061,
		.spread_wide = true }, got;
	struct fixture_ids ids;
	memcal_db *db;
	sqlite3 *h;

	cr_assert_eq(fixture_db_create(path, &ids), 0);
	db = open_ok(path, 0);
	run.platform_id = ids.platform_id;
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_run_store(db, &run), 0);
	cr_assert_eq(memcal_db_bw_store(db, run.id, &bw), 0);
	bw.spread = -0.01;
	cr_expect_neq(memcal_db_bw_store(db, run.id, &bw), 0,
		      "a negative spread is refused");
	memcal_db_rollback(db);
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_run_store(db, &run), 0);
	bw.spread = 0.061;
	cr_assert_eq(memcal_db_bw_store(db, run.id, &bw), 0);
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_assert_eq(memcal_db_bw_list(db, run.id, get_spread, &got), 0);
	cr_expect_float_eq(got.spread, 0.061, 1e-12);
	cr_expect(got.spread_wide);
	memcal_db_close(db);

	/* back to schema 10: the rows it had gain no spread, not a zero one */
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, FIXTURE_UNDO_V11 "PRAGMA user_version = 10;",
				  0, 0, 0), SQLITE_OK, "%s", sqlite3_errmsg(h));
	sqlite3_close(h);
	db = open_ok(path, 0);
	cr_assert_eq(pragma_int(path, "PRAGMA user_version"),
		     MEMCAL_DB_SCHEMA_VERSION);
	cr_assert_eq(memcal_db_bw_list(db, run.id, get_spread, &got), 0);
	cr_expect(isnan(got.spread), "spread %g", got.spread);
	cr_expect_not(got.spread_wide);
	memcal_db_close(db);
}
