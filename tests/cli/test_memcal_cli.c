// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_memcal_cli.c - the memcal binary as a user runs it: exit codes,
 * JSON on stdout for results and errors, and `memcal show` against golden
 * files on the fixture database (hwloc-utilities style).
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_db.h"
#include "golden.h"
#include "shell.h"

#define MEMCAL MEMCAL_BINARY_DIR "/calibrate/memcal"
#define GOLDEN MEMCAL_SOURCE_DIR "/tests/fixtures/show/"

static char dir[256];
static char db[300];

/* setup - a temporary directory holding this test's database. */
static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/memcal-clitest-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	unsetenv("MEMCAL_DB");
}

/* teardown - remove it. */
static void teardown(void)
{
	char cmd[320];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(memcal_cli, .init = setup, .fini = teardown);

/**
 * run() - run a shell command line, capturing stdout (malloc'd, into
 * *@out) and returning the exit status.  stderr goes to @dir/stderr.
 */
static int run(char **out, const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 64, fmt, ap);
	va_end(ap);
	strcat(cmd, " 2>");
	strcat(cmd, dir);
	strcat(cmd, "/stderr");
	return test_sh(cmd, out);
}

/* read_stderr - what the last run() wrote to stderr (malloc'd). */
static char *read_stderr(void)
{
	char path[320], *s;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

/* replace_db_path - the database path in @s becomes "@DB@" (in place). */
static void replace_db_path(char *s)
{
	char *p;

	while ((p = strstr(s, db))) {
		size_t dl = strlen(db);

		memcpy(p, "@DB@", 4);
		memmove(p + 4, p + dl, strlen(p + dl) + 1);
	}
}

/* golden - compare @got with the golden file @name. */
static void golden(const char *got, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), GOLDEN "%s", name);
	golden_check(path, got);
}

/* parse_json - @s must be exactly one JSON document. */
static json_t *parse_json(const char *s)
{
	json_error_t e;
	json_t *j = json_loads(s, 0, &e);

	cr_assert_not_null(j, "invalid JSON (%s at %d:%d): %s", e.text,
			   e.line, e.column, s);
	return j;
}

/* result - the "result" of a successful envelope @j (borrowed). */
static json_t *result(json_t *j)
{
	cr_assert(json_is_true(json_object_get(j, "ok")), "not ok");
	cr_assert_str_eq(json_string_value(json_object_get(j, "tool")),
			 "memcal");
	return json_object_get(j, "result");
}

Test(memcal_cli, show_and_report_on_missing_database_fail)
{
	const char *cmds[] = { "show", "report", "report --format json" };
	char *out, *err;
	json_t *j;

	for (size_t i = 0; i < 3; i++) {
		cr_assert_eq(run(&out, MEMCAL " %s --db %s", cmds[i], db), 1);
		err = read_stderr();
		cr_assert_not_null(strstr(err, db), "%s", err);
		cr_assert_not_null(strstr(err, "'memcal run'"), "%s", err);
		cr_assert_eq(access(db, F_OK), -1, "%s created no file", cmds[i]);
		free(err);
		free(out);
	}
	cr_assert_eq(run(&out, MEMCAL " show --json --db %s", db), 1);
	j = parse_json(out);
	cr_assert(json_is_false(json_object_get(j, "ok")));
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(j,
		     "error"), "code")), 1);
	cr_assert_eq(access(db, F_OK), -1, "show created no database");
	json_decref(j);
	free(out);
}

Test(memcal_cli, show_on_empty_database)
{
	struct fixture_ids ids;
	char err[256], *out;
	memcal_db *h;
	json_t *j;

	cr_assert_eq(memcal_db_open(db, MEMCAL_DB_OPEN_CREATE, &h, err,
				    sizeof(err)), 0);
	memcal_db_close(h);
	(void)ids;
	cr_assert_eq(run(&out, MEMCAL " show --json --db %s", db), 0);
	j = parse_json(out);
	cr_assert_eq(json_array_size(json_object_get(result(j), "runs")), 0);
	json_decref(j);
	free(out);
	cr_assert_eq(run(&out, MEMCAL " show --db %s", db), 0);
	cr_assert_not_null(strstr(out, "No board calibrated yet"));
	free(out);
}

Test(memcal_cli, show_listing_matches_golden)
{
	struct fixture_ids ids;
	char *out;

	cr_assert_eq(fixture_db_create(db, &ids), 0);
	cr_assert_eq(run(&out, MEMCAL " show --db %s", db), 0);
	replace_db_path(out);
	golden(out, "listing.txt");
	free(out);
}

Test(memcal_cli, show_run_matches_golden)
{
	struct fixture_ids ids;
	char *out;

	cr_assert_eq(fixture_db_create(db, &ids), 0);
	cr_assert_eq(run(&out, MEMCAL " show --run %lld --db %s",
			 (long long)ids.run_id, db), 0);
	replace_db_path(out);
	golden(out, "run.txt");
	free(out);
	cr_assert_eq(run(&out, MEMCAL " show --run %lld --db %s",
			 (long long)ids.overhead_run_id, db), 0);
	replace_db_path(out);
	golden(out, "overhead-run.txt");
	free(out);
}

Test(memcal_cli, show_json_on_populated_database)
{
	struct fixture_ids ids;
	char *out;
	json_t *j, *runs, *h;

	cr_assert_eq(fixture_db_create(db, &ids), 0);
	cr_assert_eq(run(&out, MEMCAL " --json show --db %s", db), 0);
	j = parse_json(out);
	runs = json_object_get(result(j), "runs");
	cr_assert_eq(json_array_size(runs), 2);
	/* newest first: the overhead run, then the full run */
	h = json_object_get(json_array_get(runs, 1), "headline");
	cr_assert_float_eq(json_real_value(json_object_get(h,
			   "aggregate_read_bps")), 2e10, 1);
	cr_assert(json_is_true(json_object_get(h,
			       "sustainable_write_lower_bound")));
	cr_assert(json_is_false(json_object_get(h, "pmu_available")));
	json_decref(j);
	free(out);
	cr_assert_eq(run(&out, MEMCAL " show --json --run %lld --db %s",
			 (long long)ids.overhead_run_id, db), 0);
	j = parse_json(out);
	cr_assert_eq(json_array_size(json_object_get(result(j), "overhead")),
		     4);
	cr_assert_eq(json_integer_value(json_object_get(result(j), "run_id")),
		     ids.overhead_run_id, "the shared key for a run");
	cr_assert_str_eq(json_string_value(json_object_get(result(j), "db")),
			 db);
	cr_assert_eq(json_array_size(json_object_get(result(j),
						     "overhead_models")), 1);
	json_decref(j);
	free(out);
}

Test(memcal_cli, errors_are_json_with_json_and_text_without)
{
	char *out, *err;
	json_t *j;

	cr_assert_eq(run(&out, MEMCAL " frobnicate --json"), 2);
	j = parse_json(out);
	cr_assert_str_eq(json_string_value(json_object_get(
		json_object_get(j, "error"), "kind")), "usage");
	json_decref(j);
	free(out);
	cr_assert_eq(run(&out, MEMCAL " show --bogus"), 2);
	cr_assert_str_eq(out, "", "nothing on stdout for a text error");
	err = read_stderr();
	cr_assert_not_null(strstr(err, "unknown option '--bogus'"), "%s", err);
	free(err);
	free(out);
	cr_assert_eq(run(&out, MEMCAL " show --run 0 --json --db %s", db), 2);
	j = parse_json(out);
	cr_assert_not_null(strstr(json_string_value(json_object_get(
		json_object_get(j, "error"), "message")), "--run"));
	json_decref(j);
	free(out);
	cr_assert_eq(run(&out, MEMCAL " show --run 99 --json --db %s", db), 1,
		     "a run in a database that does not exist");
	free(out);
	cr_assert_eq(run(&out, MEMCAL), 2, "no command is a usage error");
	free(out);
}

Test(memcal_cli, corrupt_and_newer_databases_are_refused)
{
	char *out, *err;
	FILE *f = fopen(db, "w");

	fputs("not a database at all, just some text that is long enough\n",
	      f);
	fclose(f);
	cr_assert_eq(run(&out, MEMCAL " show --db %s", db), 1);
	err = read_stderr();
	cr_assert_not_null(strstr(err, "not a memcal database"), "%s", err);
	free(err);
	free(out);
}

Test(memcal_cli, help_and_version)
{
	char *out;

	cr_assert_eq(run(&out, MEMCAL " --help"), 0);
	cr_assert_not_null(strstr(out, "Commands:"));
	cr_assert_not_null(strstr(out, "overhead"));
	free(out);
	cr_assert_eq(run(&out, MEMCAL " show --help"), 0);
	cr_assert_not_null(strstr(out, "--run ID"));
	free(out);
	cr_assert_eq(run(&out, MEMCAL " --version"), 0);
	cr_assert_not_null(strstr(out, "memcal " MEMCAL_VERSION));
	free(out);
}
