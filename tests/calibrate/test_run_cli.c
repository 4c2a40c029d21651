// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_run_cli.c - `memcal run` end to end: bad input (missing cores,
 * absurd sizes, a topology file that does not parse, a newer or locked
 * database) exits non-zero with a clear message and writes nothing; a
 * tiny --quick run succeeds and stores one run, on two cores with the
 * bandwidth-latency family of five read shares.  SERIAL: it measures.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memcal_db.h"
#include "shell.h"

#define MEMCAL MEMCAL_BINARY_DIR "/calibrate/memcal"
#define FIXTURES MEMCAL_SOURCE_DIR "/tests/fixtures/topology/"
#define TINY "--quick --size 1M --repeat 1"

static char dir[64];
static char db[128];

/* setup - a private directory; the database path inside it. */
static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/memcal-run-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
}

TestSuite(run_cli, .init = setup);

/* run - "ENV memcal run ARGS --db <db>"; output (stdout+stderr) in @out. */
static int run(const char *env, const char *args, char *out, size_t len,
	       bool only_stdout)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s run %s --db %s %s", env ? env : "",
		 MEMCAL, args, db, only_stdout ? "2>/dev/null" : "2>&1");
	return test_sh_buf(cmd, out, len);
}

/* runs_stored - run rows in the database, -1 when it does not exist. */
static int runs_stored(void)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int n = -1;

	if (access(db, F_OK))
		return -1;
	cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
		     SQLITE_OK);
	if (sqlite3_prepare_v2(h, "SELECT count(*) FROM calibration_run", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return n;
}

Test(run_cli, nonexistent_core_is_a_usage_error)
{
	char out[4096];

	cr_expect_eq(run(NULL, TINY " --cores 0,4095", out, sizeof(out), false),
		     2, "%s", out);
	cr_expect(strstr(out, "CPU 4095 does not exist") != NULL, "%s", out);
	cr_expect_eq(runs_stored(), -1, "no database was created");
}

Test(run_cli, malformed_core_list_is_a_usage_error)
{
	char out[4096];

	cr_expect_eq(run(NULL, TINY " --cores 3-1", out, sizeof(out), false), 2);
	cr_expect(strstr(out, "--cores") != NULL, "%s", out);
}

Test(run_cli, absurd_sizes_are_refused)
{
	char out[4096];

	cr_expect_eq(run(NULL, "--quick --size 1T", out, sizeof(out), false), 1,
		     "%s", out);
	cr_expect(strstr(out, "do not fit") != NULL, "%s", out);
	cr_expect_eq(run(NULL, "--quick --size 1K", out, sizeof(out), false), 2);
	cr_expect(strstr(out, "too small") != NULL, "%s", out);
	cr_expect_eq(run(NULL, "--quick --size lots", out, sizeof(out), false), 2);
	cr_expect_eq(run(NULL, "--quick --repeat 0", out, sizeof(out), false), 2);
	cr_expect_eq(runs_stored(), -1);
}

Test(run_cli, malformed_topology_file_is_refused)
{
	char out[4096];

	cr_expect_eq(run("HWLOC_XMLFILE=" FIXTURES "malformed.xml", TINY, out,
			 sizeof(out), false), 1, "%s", out);
	cr_expect(strstr(out, "not a valid hwloc XML topology") != NULL, "%s",
		  out);
	cr_expect_eq(run("HWLOC_XMLFILE=/nonexistent.xml", TINY, out,
			 sizeof(out), false), 1);
	cr_expect(strstr(out, "/nonexistent.xml") != NULL, "%s", out);
	cr_expect_eq(runs_stored(), -1);
}

Test(run_cli, cores_are_checked_against_the_described_board)
{
	char out[4096];

	cr_expect_eq(run("HWLOC_XMLFILE=" FIXTURES "cortex-a53-4core.xml",
			 TINY " --cores 5", out, sizeof(out), false), 2);
	cr_expect(strstr(out, "this board has CPUs 0-3") != NULL, "%s", out);
}

Test(run_cli, newer_database_is_refused_untouched)
{
	memcal_db *h;
	sqlite3 *s;
	sqlite3_stmt *st;
	char out[4096], err[256];
	int version = 0;

	cr_assert_eq(memcal_db_open(db, MEMCAL_DB_OPEN_CREATE, &h, err,
				    sizeof(err)), 0);
	memcal_db_close(h);
	cr_assert_eq(sqlite3_open(db, &s), SQLITE_OK);
	sqlite3_exec(s, "PRAGMA user_version = 999", NULL, NULL, NULL);
	sqlite3_close(s);
	cr_expect_eq(run(NULL, TINY, out, sizeof(out), false), 1, "%s", out);
	cr_expect(strstr(out, "newer") != NULL, "%s", out);
	cr_assert_eq(sqlite3_open(db, &s), SQLITE_OK);
	sqlite3_prepare_v2(s, "PRAGMA user_version", -1, &st, NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	cr_expect_eq(version, 999);
}

Test(run_cli, locked_database_is_refused_before_measuring)
{
	memcal_db *h;
	sqlite3 *s;
	char out[4096], err[256];

	cr_assert_eq(memcal_db_open(db, MEMCAL_DB_OPEN_CREATE, &h, err,
				    sizeof(err)), 0);
	memcal_db_close(h);
	cr_assert_eq(sqlite3_open(db, &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, "BEGIN IMMEDIATE", NULL, NULL, NULL),
		     SQLITE_OK);
	cr_expect_eq(run(NULL, TINY, out, sizeof(out), false), 1, "%s", out);
	cr_expect(strstr(out, "another process") != NULL, "%s", out);
	sqlite3_exec(s, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(s);
	cr_expect_eq(runs_stored(), 0);
}

Test(run_cli, errors_are_json_with_json)
{
	char out[4096];
	json_t *doc;

	cr_expect_eq(run(NULL, TINY " --json --cores 4095", out, sizeof(out),
			 true), 2);
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc, "not JSON: %s", out);
	cr_expect_not_null(json_object_get(doc, "error"));
	json_decref(doc);
}

/*
 * stored_rows - the rows @sql selects from the test database, each as its
 * text columns joined by @sep and ended by ';', into @buf.
 */
static void stored_rows(const char *sql, char sep, char *buf, size_t len)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	size_t off = 0;

	buf[0] = '\0';
	cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
		     SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK,
		     "%s", sqlite3_errmsg(h));
	while (sqlite3_step(st) == SQLITE_ROW && off < len) {
		for (int c = 0; c < sqlite3_column_count(st) && off < len; c++)
			off += (size_t)snprintf(buf + off, len - off, "%s%c",
						sqlite3_column_text(st, c),
						c + 1 < sqlite3_column_count(st) ?
						sep : ';');
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
}

/* stored_checks - "check:verdict;" per stored self-check, in order. */
static void stored_checks(char *buf, size_t len)
{
	stored_rows("SELECT check_name, verdict FROM pmu_selfcheck WHERE"
		    " run_id = 1 ORDER BY id", ':', buf, len);
}

/*
 * The self-checks of a run are stored with verdicts: without a usable
 * PMU the three that need one are skipped (never passed), with the PMU
 * status as the reason; the PMU-user check always decides.
 */
static void check_selfchecks(json_t *res)
{
	json_t *pmu = json_object_get(res, "pmu"), *sc, *e;
	char got[512];
	size_t i;

	stored_checks(got, sizeof(got));
	cr_expect(strstr(got, "read-count:") && strstr(got, "write-count:") &&
		  strstr(got, "delivery:") && strstr(got, "pmu-users:"),
		  "stored: %s", got);
	cr_expect(strstr(got, "pmu-users:pass;") ||
		  strstr(got, "pmu-users:warn;"), "stored: %s", got);
	sc = json_object_get(res, "pmu_selfchecks");
	cr_expect_geq(json_array_size(sc), 4);
	json_array_foreach(sc, i, e) {
		const char *v = json_string_value(json_object_get(e, "verdict"));
		const char *m = json_string_value(json_object_get(e, "message"));

		cr_expect(v && m && *m, "check %zu without verdict or message",
			  i);
		if (!json_is_true(json_object_get(pmu, "available")) &&
		    strcmp(json_string_value(json_object_get(e, "check")),
			   "pmu-users")) {
			cr_expect_str_eq(v, "skip", "%s", m);
			cr_expect(strstr(m, "no usable PMU counter"), "%s", m);
		}
	}
}

/*
 * check_unit - run 1 records the unit that measured it: this hostname and
 * /etc/machine-id as read here (empty when unreadable), not imported.
 */
static void check_unit(void)
{
	char got[512], want[512], mid[64] = "";
	struct utsname u;
	FILE *f = fopen("/etc/machine-id", "r");

	if (f) {
		if (!fgets(mid, sizeof(mid), f))
			mid[0] = '\0';
		mid[strcspn(mid, "\n")] = '\0';
		fclose(f);
	}
	cr_assert_eq(uname(&u), 0);
	snprintf(want, sizeof(want), "%s|%s|-|-;", u.nodename, mid);
	stored_rows("SELECT hostname, machine_id, coalesce(content_key, '-'),"
		    " coalesce(imported_at, '-') FROM run_unit WHERE"
		    " run_id = 1", '|', got, sizeof(got));
	cr_expect_str_eq(got, want);
}

Test(run_cli, tiny_quick_run_stores_one_run, .timeout = 120)
{
	static char out[1 << 20];
	json_t *doc, *bw;

	cr_assert_eq(run(NULL, TINY " --json --cores 0", out, sizeof(out),
			 true), 0, "%s", out);
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc, "not JSON: %.200s", out);
	cr_expect(json_is_true(json_object_get(doc, "ok")));
	json_object_update(doc, json_object_get(doc, "result"));
	cr_expect_gt(json_integer_value(json_object_get(doc, "run_id")), 0);
	bw = json_object_get(doc, "bandwidth");
	cr_expect_geq(json_array_size(bw), 6, "per core and aggregate rows");
	cr_expect_gt(json_real_value(json_object_get(json_array_get(bw, 0),
						     "median_bps")), 0);
	cr_expect_eq(json_array_size(json_object_get(doc, "sustainable")), 2);
	cr_expect_not_null(json_object_get(doc, "pmu"));
	check_selfchecks(doc);
	json_decref(doc);
	cr_expect_eq(runs_stored(), 1);
	check_unit();
	cr_expect_eq(run(NULL, TINY " --cores 0", out, sizeof(out), false), 0,
		     "%s", out);
	cr_expect(strstr(out, "stored as run 2") != NULL, "%s", out);
	cr_expect(strstr(out, "sustainable read") != NULL, "%s", out);
	cr_expect(strstr(out, "PMU self-checks:") != NULL, "%s", out);
}

/* mix_rows - mix_curve rows stored, by descending read share, into @pct. */
static int mix_rows(int *pct, int max)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int n = 0;

	cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
		     SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, "SELECT read_pct FROM mix_curve "
					"ORDER BY read_pct DESC", -1, &st,
					NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW && n < max)
		pct[n++] = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

Test(run_cli, two_core_quick_run_stores_the_family, .timeout = 120)
{
	static char out[1 << 20];
	json_t *doc, *mix, *c, *lat;
	int pct[8], n;
	size_t i;

	cr_assert_eq(run(NULL, TINY " --json --cores 0-1", out, sizeof(out),
			 true), 0, "%s", out);
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc, "not JSON: %.200s", out);
	json_object_update(doc, json_object_get(doc, "result"));
	mix = json_object_get(doc, "mix_curves");
	cr_assert_eq(json_array_size(mix), 5, "one curve per read share");
	json_array_foreach(mix, i, c) {
		json_t *pts = json_object_get(c, "points");
		double sus = json_real_value(json_object_get(c,
						"sustainable_bps"));

		cr_expect_eq(json_integer_value(json_object_get(c, "read_pct")),
			     100 - 25 * (json_int_t)i);
		cr_expect_eq(json_integer_value(json_object_get(c, "load_cpus")),
			     1);
		cr_expect_eq(json_array_size(pts), 3, "quick: 3 load levels");
		cr_expect_gt(json_real_value(json_object_get(c, "peak_bps")), 0);
		cr_expect_geq(sus, json_real_value(json_object_get(c,
							 "knee_bps")));
		if (json_is_true(json_object_get(c, "lower_bound")))
			cr_expect_geq(sus, json_real_value(json_object_get(c,
				      "peak_bps")), "a lower bound is at "
				      "least the unpaced peak");
	}
	/* a lower-bound curve between all reads and all writes is at least
	 * those two time-shared at its mix */
	{
		double r100 = json_real_value(json_object_get(json_array_get(
				mix, 0), "sustainable_bps"));
		double r0 = json_real_value(json_object_get(json_array_get(
				mix, 4), "sustainable_bps"));

		for (i = 1; i < 4; i++) {
			double share = 1 - 0.25 * (double)i, ts;

			c = json_array_get(mix, i);
			if (!json_is_true(json_object_get(c, "lower_bound")))
				continue;
			ts = 1 / (share / r100 + (1 - share) / r0);
			cr_expect_geq(json_real_value(json_object_get(c,
				      "sustainable_bps")), ts * (1 - 1e-9),
				      "%zu: below the time-shared endpoints", i);
		}
	}
	/* the 100 % curve is the read traffic class: the same sweep */
	lat = json_object_get(doc, "latency");
	c = json_array_get(mix, 0);
	cr_expect_eq(json_real_value(json_object_get(json_array_get(lat, 2),
						     "latency_ns")),
		     json_real_value(json_object_get(json_array_get(
			json_object_get(c, "points"), 2), "latency_ns")));
	json_decref(doc);
	n = mix_rows(pct, 8);
	cr_assert_eq(n, 5, "five curves stored");
	for (int k = 0; k < n; k++)
		cr_expect_eq(pct[k], 100 - 25 * k);
}

Test(run_cli, unexpected_argument_is_a_usage_error)
{
	char out[4096];

	cr_expect_eq(run(NULL, "--quick extra", out, sizeof(out), false), 2);
	cr_expect(strstr(out, "unexpected argument") != NULL, "%s", out);
}

Test(run_cli, killed_run_leaves_no_run, .timeout = 60)
{
	memcal_db *h;
	char err[256];
	pid_t pid;
	int st;

	/* Create the database first so that its absence proves nothing. */
	cr_assert_eq(memcal_db_open(db, MEMCAL_DB_OPEN_CREATE, &h, err,
				    sizeof(err)), 0);
	memcal_db_close(h);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		execl(MEMCAL, MEMCAL, "run", "--db", db, "-q", (char *)NULL);
		_exit(127);
	}
	usleep(1500000);	/* mid-measurement: a full run takes longer */
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	cr_expect(WIFSIGNALED(st), "memcal was still running when killed");
	cr_expect_eq(runs_stored(), 0, "a killed run stored nothing");
}

Test(run_cli, declared_figures_need_a_source_and_a_range)
{
	char out[4096];

	cr_expect_eq(run(NULL, TINY " --guaranteed-read 3000", out, sizeof(out),
			 false), 2);
	cr_expect(strstr(out, "--guaranteed-read needs --source TEXT"), "%s",
		  out);
	cr_expect_eq(run(NULL, TINY " --source DIMM", out, sizeof(out), false),
		     2);
	cr_expect(strstr(out, "give --guaranteed-read or --guaranteed-write"),
		  "%s", out);
	cr_expect_eq(run(NULL, TINY " --guaranteed-write 0.5 --source x", out,
			 sizeof(out), false), 2);
	cr_expect(strstr(out, "--guaranteed-write '0.5': out of range"), "%s",
		  out);
	cr_expect_eq(run(NULL, TINY " --guaranteed-read 2e7 --source x", out,
			 sizeof(out), false), 2);
	cr_expect_eq(run(NULL, TINY " --guaranteed-read 3GB --source x", out,
			 sizeof(out), false), 2);
	cr_expect(strstr(out, "not a number"), "%s", out);
	cr_expect_eq(runs_stored(), -1, "nothing was measured or created");
	/* with --replay they are checked and shown, and nothing is stored */
	cr_expect_eq(run(NULL, "--replay " MEMCAL_SOURCE_DIR
			 "/tests/fixtures/boards/rk3588 --guaranteed-read 3200 "
			 "--source 'LPDDR4X tRC'", out, sizeof(out), false), 0,
		     "%s", out);
	cr_expect(strstr(out, "read  declared    declared    3.20"), "%s", out);
	cr_expect(strstr(out, "source: LPDDR4X tRC"), "%s", out);
	cr_expect_eq(runs_stored(), -1);
}

/* guar_rows - "traffic/method/status;" per stored guaranteed figure. */
static void guar_rows(char *buf, size_t len)
{
	stored_rows("SELECT traffic, method, status FROM guaranteed_bandwidth"
		    " WHERE run_id = 1 ORDER BY traffic, method", '/', buf, len);
}

Test(run_cli, quick_run_stores_every_guaranteed_figure, .timeout = 120)
{
	static char out[1 << 20];
	json_t *doc, *g, *e;
	char rows[512];
	size_t i, stands = 0;

	cr_assert_eq(run(NULL, TINY " --json --cores 0 --guaranteed-write "
			 "1234.5 --source 'DDR4-2400 tRC'", out, sizeof(out),
			 true), 0, "%s", out);
	guar_rows(rows, sizeof(rows));
	cr_expect_str_eq(rows, "read/random-line/measured;read/single-bank/"
			 "skipped;write/declared/declared;write/random-line/"
			 "measured;write/single-bank/skipped;");
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc, "not JSON: %.200s", out);
	g = json_object_get(json_object_get(doc, "result"), "guaranteed");
	cr_assert_eq(json_array_size(g), 5);
	json_array_foreach(g, i, e) {
		const char *m = json_string_value(json_object_get(e, "method"));
		const char *t = json_string_value(json_object_get(e, "traffic"));

		if (!json_is_true(json_object_get(e, "stands")))
			continue;
		stands++;
		/* the declared write stands; the measured read stands */
		cr_expect_str_eq(m, strcmp(t, "write") ? "random-line"
						       : "declared");
		if (!strcmp(t, "write"))
			cr_expect_eq(json_real_value(json_object_get(e,
				     "bandwidth_bps")), 1234.5e6);
		else
			cr_expect_gt(json_integer_value(json_object_get(e,
				     "streams")), 0);
	}
	cr_expect_eq(stands, 2);
	json_decref(doc);
}
