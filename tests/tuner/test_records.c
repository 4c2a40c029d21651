// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_records.c - memtune list, show and delete against golden output:
 * a scratch database seeded with two workload profiles, a configuration
 * planned from them (the exporters' fixture document) and a validation of
 * it, all with fixed timestamps.  MEMCAL_UPDATE_GOLDEN=1 rewrites the
 * golden files under tests/fixtures/records/ (review the diff).
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "memcal_db_records.h"
#include "memcal_db_tune.h"

#define RECS MEMCAL_SOURCE_DIR "/tests/fixtures/records/"

/* add_profile - a profile of @workload with a fixed time and binary. */
static int64_t add_profile(memcal_db *db, const char *workload, int cpu,
			   const char *at)
{
	static uint64_t rd[4] = { 6400, 6400, 12800, 0 }, wr[4] = { 0 };
	struct memcal_profile p = { .platform_id = 1, .cpu = cpu, .runs = 3,
		.exec_median_ns = 20e6, .exec_min_ns = 19e6,
		.exec_max_ns = 22e6, .trace_period_us = 100, .trace_len = 4,
		.trace_read = rd, .trace_write = wr,
		.argv_json = "[\"memcal-load\",\"read\",\"--mb\",\"4\"]" };
	struct memcal_binary b = { .path = "/usr/bin/memcal-load",
		.size = 30912, .hash = "c26e26a137c04c98" };

	snprintf(p.mix, sizeof(p.mix), "golden");
	snprintf(p.workload, sizeof(p.workload), "%s", workload);
	snprintf(p.criticality, sizeof(p.criticality), cpu ? "rt" : "be");
	snprintf(p.trace_source, sizeof(p.trace_source), "calibrated");
	snprintf(p.created_at, sizeof(p.created_at), "%s", at);
	cr_assert_eq(memcal_db_profile_store(db, &p), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_profile_binary_set(db, p.id, &b), 0);
	return p.id;
}

/*
 * seed_records - profiles 1 (control) and 2 (stream), configuration 1
 * planned from both, validation 1 of it, and a third profile no
 * configuration uses.
 */
static void seed_records(const char *path)
{
	struct memcal_validation_result r = { .cpu = 1, .solo_ns = 20e6,
		.unregulated_ns = 31e6, .regulated_ns = 24e6,
		.deadline_ns = 25e6, .jobs = 40, .deadline_misses = 2,
		.throttles = 17, .throttled_ns = 900000 };
	struct memcal_validation v = { .regulated = true,
		.started_at = "2026-12-02T12:10:00Z",
		.finished_at = "2026-12-02T12:11:00Z", .notes = "synthetic" };
	struct memcal_config c = { .platform_id = 1, .calibration_run_id = 1,
		.mix = "golden", .period_us = 1000, .master_cpu = 0,
		.created_at = "2026-12-02T12:05:00Z" };
	int64_t ids[2];
	memcal_db *db;
	char err[256];

	seed(path, 10e9, 20000);
	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_db_begin(db), 0);
	ids[0] = add_profile(db, "control", 1, "2026-12-02T12:00:00Z");
	ids[1] = add_profile(db, "stream", 0, "2026-12-02T12:00:00Z");
	c.document = slurp(RECS "config.json");
	cr_assert(c.document);
	c.profile_ids = ids;
	c.n_profiles = 2;
	cr_assert_eq(memcal_db_config_store(db, &c), 0, "%s",
		     memcal_db_errmsg(db));
	free(c.document);
	v.config_id = c.id;
	cr_assert_eq(memcal_db_validation_store(db, &v), 0);
	snprintf(r.workload, sizeof(r.workload), "control");
	cr_assert_eq(memcal_db_validation_result_store(db, v.id, &r), 0);
	add_profile(db, "spare", 0, "2026-12-02T12:20:00Z");
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
}

/* records_db - a scratch database with the seeded records. */
static void records_db(char *db, size_t len)
{
	char dir[64];

	scratch(dir, sizeof(dir));
	snprintf(db, len, "%s/m.db", dir);
	seed_records(db);
}

Test(records, list_newest_first)
{
	struct out *o = malloc(sizeof(*o));
	char db[128];

	records_db(db, sizeof(db));
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "list", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "list.golden", o->out);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "list",
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "list_json.golden", o->out);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "list", "--kind",
		"profile", "--mix", "golden", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "list_profiles.golden", o->out);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "list", "--kind",
		"plans", NULL });
	cr_assert_eq(o->rc, 2, "%s", o->text);
	cr_assert(strstr(o->text, "config, profile or validation"), "%s",
		  o->text);
	free(o);
}

Test(records, show_each_kind)
{
	struct out *o = malloc(sizeof(*o));
	char db[128];

	records_db(db, sizeof(db));
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "show_config.golden", o->out);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show", "--profile",
		"1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "show_profile.golden", o->out);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show",
		"--validation", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "show_validation.golden", o->out);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "show",
		"--profile", "3", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "show_profile_json.golden", o->out);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show", "9", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "no tuned configuration 9"), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show", "1",
		"--profile", "2", NULL });
	cr_assert_eq(o->rc, 2, "%s", o->text);
	free(o);
}

/* count - the first column of the first row of @sql on @db. */
static long count(const char *db, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long n = -1;

	cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
		     SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK,
		     "%s", sqlite3_errmsg(h));
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

Test(records, delete_refuses_dependents_unless_forced)
{
	struct out *o = malloc(sizeof(*o));
	char db[128];

	records_db(db, sizeof(db));
	/* a profile a configuration was planned from: refused, all kept */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "delete",
		"--profile", "1", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	golden_check(RECS "delete_refused.golden", o->text);
	cr_assert_eq(count(db, "SELECT count(*) FROM workload_profile"), 3);
	cr_assert_eq(count(db, "SELECT count(*) FROM tuned_config"), 1);
	/* a profile nothing uses goes alone */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "delete",
		"--profile", "3", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "delete_profile.golden", o->text);
	/* --force: the configuration and its validation go first */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "delete",
		"--profile", "1", "--force", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "delete_forced.golden", o->text);
	cr_assert_eq(count(db, "SELECT count(*) FROM workload_profile"), 1);
	cr_assert_eq(count(db, "SELECT count(*) FROM tuned_config"), 0);
	cr_assert_eq(count(db, "SELECT count(*) FROM validation_run"), 0);
	/* nothing points at a deleted row */
	cr_assert_eq(count(db, "SELECT (SELECT count(*) FROM config_profile)"
			   " + (SELECT count(*) FROM validation_result)"), 0);
	cr_assert_eq(count(db, "SELECT count(*) FROM pragma_foreign_key_check"),
		     0);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "delete",
		"--validation", "1", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "no validation 1"), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "delete", NULL });
	cr_assert_eq(o->rc, 2, "%s", o->text);
	free(o);
}

Test(records, delete_config_with_its_validation_as_json)
{
	struct out *o = malloc(sizeof(*o));
	char db[128];

	records_db(db, sizeof(db));
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "delete", "1",
		NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "config 1 is used by validation 1"), "%s",
		  o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "delete",
		"1", "--force", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	golden_check(RECS "delete_config_json.golden", o->out);
	cr_assert_eq(count(db, "SELECT count(*) FROM workload_profile"), 3,
		     "the profiles stay: they depend on nothing");
	free(o);
}
