// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cpu_kind.c - the cpu_kind table: kinds come back in the order
 * stored with every field intact, a kind without CPUs is refused, a
 * schema-6 database is migrated with its runs kept, and deleting a run
 * deletes its kinds.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "db_internal.h"
#include "fixture_db.h"
#include "memcal_db_cpu_kind.h"

/**
 * struct seen - kinds listed.
 * @n:    count.
 * @kind: copies of them.
 */
struct seen {
	int n;
	struct memcal_cpu_kind kind[4];
};

/* on_kind - memcal_db_cpu_kind_list() callback: keep a copy. */
static int on_kind(const struct memcal_cpu_kind *k, void *user)
{
	struct seen *s = user;

	cr_assert_lt(s->n, 4);
	s->kind[s->n++] = *k;
	return 0;
}

/* kind - the big (@big) or LITTLE kind of a two-kind board. */
static struct memcal_cpu_kind kind(bool big)
{
	struct memcal_cpu_kind k = { .perf_type = big ? 9 : 8 };

	snprintf(k.cpus, sizeof(k.cpus), "%s", big ? "4-7" : "0-3");
	snprintf(k.label, sizeof(k.label), "%s", big ? "Cortex-A76" : "Cortex-A55");
	snprintf(k.perf_pmu, sizeof(k.perf_pmu), "armv8_cortex_a%s", big ? "76" : "55");
	snprintf(k.event[0], sizeof(k.event[0]), "%d:0x2a", k.perf_type);
	snprintf(k.event_name[0], sizeof(k.event_name[0]), "L3D_CACHE_REFILL");
	if (big)
		snprintf(k.why[1], sizeof(k.why[1]), "no write event documented");
	else
		snprintf(k.event[1], sizeof(k.event[1]), "8:0x18");
	return k;
}

/* open_rw - open @path read-write. */
static memcal_db *open_rw(const char *path)
{
	char err[512] = "";
	memcal_db *db;

	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s", err);
	return db;
}

Test(cpu_kind, stored_kinds_come_back_and_go_with_their_run)
{
	const char *path = "/tmp/memcal-test-cpu-kind.db";
	struct memcal_cpu_kind a = kind(false), b = kind(true), none = kind(true);
	struct fixture_ids ids;
	struct seen s = { 0 };
	memcal_db *db;
	sqlite3 *h;

	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	/* back to schema 6: no cpu_kind table */
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, FIXTURE_UNDO_V8 "DROP TABLE cpu_kind;"
				  "PRAGMA user_version = 6", NULL, NULL, NULL),
		     SQLITE_OK);
	sqlite3_close(h);
	db = open_rw(path);
	cr_expect_eq(fixture_db_user_version(path), MEMCAL_DB_SCHEMA_VERSION);
	none.cpus[0] = '\0';
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_expect_neq(memcal_db_cpu_kind_store(db, ids.run_id, &none), 0,
		      "a kind without CPUs is refused");
	cr_expect(strstr(memcal_db_errmsg(db), "Cortex-A76"), "%s", memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_cpu_kind_store(db, ids.run_id, &a), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_cpu_kind_store(db, ids.run_id, &b), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_assert_eq(memcal_db_cpu_kind_list(db, ids.run_id, on_kind, &s), 0);
	cr_assert_eq(s.n, 2);
	cr_expect_eq(memcmp(&s.kind[0], &a, sizeof(a)), 0, "LITTLE kind intact");
	cr_expect_eq(memcmp(&s.kind[1], &b, sizeof(b)), 0, "big kind intact");
	memcal_db_close(db);
	cr_assert_eq(sqlite3_open(path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "PRAGMA foreign_keys=ON;"
				  "DELETE FROM calibration_run", NULL, NULL, NULL),
		     SQLITE_OK, "%s", sqlite3_errmsg(h));
	sqlite3_close(h);
	db = open_rw(path);
	s.n = 0;
	cr_assert_eq(memcal_db_cpu_kind_list(db, ids.run_id, on_kind, &s), 0);
	cr_expect_eq(s.n, 0, "the run's kinds went with it");
	memcal_db_close(db);
	unlink(path);
}
