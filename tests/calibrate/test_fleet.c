// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_fleet.c - `memcal export`, `import` and `compare` end to end.
 * Each of the ten recorded boards (tests/fixtures/boards: topology and
 * kinds of CPU from the replay) gets a database of its own with one run
 * of deterministic figures, and eleven more units of one of them (rpi5)
 * are generated with a fixed jitter of at most 1.5 %, one of them with
 * read bandwidth 20 % low.  Every unit exports its run; the documents
 * are imported into one database and compared (text and JSON golden:
 * the planted unit and only it is flagged).  Importing again adds
 * nothing; a malformed or newer document is refused and leaves the
 * database as it was; export, import, export gives the same figures
 * digit for digit.  A document the database refuses (a negative figure
 * under a valid key) leaves nothing, and the one before it stays.  The
 * calibration report of a fleet unit gets the fleet section.
 */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <errno.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_db.h"
#include "golden.h"
#include "memcal_db.h"
#include "memcal_db_cpu_kind.h"
#include "memcal_db_guaranteed.h"
#include "memcal_db_mix.h"
#include "memcal_db_selfcheck.h"
#include "memcal_db_unit.h"
#include "memcal_figures.h"
#include "replay.h"
#include "shell.h"

#define BOARDS MEMCAL_SOURCE_DIR "/tests/fixtures/boards/"
#define GOLDEN MEMCAL_SOURCE_DIR "/tests/fixtures/fleet/"
#define MEMCAL MEMCAL_BINARY_DIR "/calibrate/memcal"

/* The recorded boards and their architecture. */
static const struct {
	const char *name, *arch;
} boards[] = {
	{ "adl", "x86_64" }, { "imx8m", "aarch64" }, { "orin", "aarch64" },
	{ "rk3588", "aarch64" }, { "rpi4", "aarch64" }, { "rpi5", "aarch64" },
	{ "spr", "x86_64" }, { "zcu102", "aarch64" }, { "zen4", "x86_64" },
	{ "zen5", "x86_64" },
};
#define N_BOARDS (sizeof(boards) / sizeof(boards[0]))
#define FLEET_BOARD 5		/* rpi5 */
#define FLEET_UNITS 12
#define PLANTED 7		/* rpi5-07: read bandwidth 20 % low */

static char dir[64];

/* jitter - the fixed deviation of unit @u's figure @f: -1.5 % .. +1.5 %. */
static double jitter(int u, int f)
{
	return 1 + ((u * 7 + f * 3 + u * f * f) % 13 - 6) * 0.0025;
}

/* sh - run @cmd in the scratch directory; stdout into @out (malloc'd). */
static int sh(const char *cmd, char **out)
{
	char full[4096];

	snprintf(full, sizeof(full), "cd %s && %s", dir, cmd);
	return test_sh(full, out);
}

/*
 * The units' databases and documents take seconds to make (21 databases,
 * 21 runs of memcal export; far longer under the sanitizers), and Criterion
 * runs each test in a process of its own.  So the runner makes them once,
 * in a template directory, before any test starts; each test works in a
 * copy of its own, since most of them write fleet.db there.  The runner's
 * set-up cannot use Criterion's asserts: a failure ends the program.
 */
#define TEMPLATE_ENV "MEMCAL_FLEET_TEMPLATE"

static char template_dir[64];

/* need - end the program, naming @what and @msg, unless @cond holds. */
#define need(cond, msg) \
	((cond) ? (void)0 : set_up_failed(#cond, msg))

static void set_up_failed(const char *what, const char *msg)
{
	char cmd[128];

	fprintf(stderr, "test_fleet: set-up failed: %s: %s\n", what, msg);
	if (*template_dir) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", template_dir);
		if (system(cmd))
			fprintf(stderr, "test_fleet: %s failed\n", cmd);
	}
	exit(1);
}

/*
 * store_unit() - a database @db holding one run of @board as unit
 * @host, its figures scaled by @scale and jittered by unit @u; @read_low
 * scales the read bandwidth rows on top.
 */
static void store_unit(const char *db, int b, const char *host, int u,
		       double read_low)
{
	struct memcal_replay r;
	struct memcal_platform p = { 0 };
	struct memcal_unit un = { 0 };
	struct memcal_run run = {
		.kind = "full", .tool_version = "0.1.0",
		.params_json = "{\"repeat\":5,\"size\":268435456}",
	};
	char path[512], err[1024] = "";
	memcal_db *h;
	json_t *topo;
	int f = 0, cores;

	snprintf(path, sizeof(path), BOARDS "%s", boards[b].name);
	need(cal_replay_load(path, &r, err, sizeof(err)) == 0, err);
	topo = memcal_platform_topology_to_json(&r.topo);
	json_object_del(topo, "source");	/* the checkout's path */
	p.topology_json = json_dumps(topo, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(topo);
	snprintf(p.fingerprint, sizeof(p.fingerprint), "%s-%0*d", boards[b].name,
		 (int)(63 - strlen(boards[b].name)), 0);
	snprintf(p.hostname, sizeof(p.hostname), "%s", host);
	snprintf(p.arch, sizeof(p.arch), "%s", boards[b].arch);
	snprintf(p.cpu_model, sizeof(p.cpu_model), "%s", r.types.types[0].label);
	snprintf(p.kernel, sizeof(p.kernel), "6.1.0-%d", b);
	p.packages = (int)r.topo.n_packages;
	p.numa_nodes = (int)r.topo.n_nodes;
	p.cores = cores = (int)r.topo.n_cores;
	p.pus = (int)r.topo.n_pus;
	snprintf(run.started_at, sizeof(run.started_at),
		 "2026-03-%02dT10:00:00Z", u + 1);
	snprintf(run.finished_at, sizeof(run.finished_at),
		 "2026-03-%02dT10:20:00Z", u + 1);
	snprintf(un.hostname, sizeof(un.hostname), "%s", host);
	snprintf(un.machine_id, sizeof(un.machine_id), "%032x", 0x5eed00 +
		 b * 100 + u);
	snprintf(un.kernel, sizeof(un.kernel), "%s", p.kernel);
	if (u % 2)
		snprintf(un.serial, sizeof(un.serial), "SN-%s-%04d", host, u);

	unlink(db);
	need(memcal_db_open(db, MEMCAL_DB_OPEN_CREATE, &h, err,
				    sizeof(err)) == 0, err);
	need(memcal_db_begin(h) == 0, memcal_db_errmsg(h));
	need(memcal_db_platform_store(h, &p) == 0, memcal_db_errmsg(h));
	run.platform_id = p.id;
	need(memcal_db_run_store(h, &run) == 0, memcal_db_errmsg(h));
	need(memcal_db_unit_store(h, run.id, &un) == 0, memcal_db_errmsg(h));
	for (int k = 0; k < 3; k++) {
		static const char *const kind[] = { "read", "write", "ntwrite" };

		for (int n = 1; n <= cores; n += cores - 1 ? cores - 1 : 1) {
			struct memcal_bw bw = {
				.n_cpus = n, .variant = "c",
				.buffer_bytes = 1 << 28, .repetitions = 5,
			};

			snprintf(bw.kind, sizeof(bw.kind), "%s", kind[k]);
			snprintf(bw.scope, sizeof(bw.scope), "%s",
				 n == 1 ? "core" : "aggregate");
			snprintf(bw.cpus, sizeof(bw.cpus), n == 1 ? "0" :
				 "0-%d", n - 1);
			bw.median_bps = (4e9 + 1e9 * b) * (n == 1 ? 1 : 2.5) /
					(k + 1) * jitter(u, f++) *
					(k ? 1 : read_low);
			bw.min_bps = bw.median_bps * 0.98;
			bw.max_bps = bw.median_bps * 1.01;
			need(memcal_db_bw_store(h, run.id, &bw) == 0, memcal_db_errmsg(h));
			if (n == cores)
				break;
		}
	}
	for (int t = 0; t < 2; t++) {
		struct memcal_sustainable s = {
			.bandwidth_bps = (3e9 + 8e8 * b) / (t + 1) *
					 jitter(u, f++),
			.idle_latency_ns = (90 + 5 * b) * jitter(u, f++),
			.bound_ratio = 1.5, .criterion = "latency <= 1.5 x idle",
		};

		snprintf(s.traffic, sizeof(s.traffic), t ? "write" : "read");
		need(memcal_db_sustainable_store(h, run.id, &s) == 0, memcal_db_errmsg(h));
	}
	for (int i = 0; i < 3; i++) {
		struct memcal_latency_point pt = {
			.traffic = "read", .chase_cpu = 0,
			.load_cpus = cores - 1, .pace = i / 2.0,
			.bandwidth_bps = 2e9 * i * jitter(u, f),
			.latency_ns = (90 + 5 * b + 40 * i * i) * jitter(u, f + 1),
		};

		f += 2;
		pt.latency_min_ns = pt.latency_ns - 3;
		pt.latency_max_ns = pt.latency_ns + 3;
		need(memcal_db_latency_store(h, run.id, &pt) == 0, memcal_db_errmsg(h));
	}
	{
		struct memcal_mix_curve c = {
			.read_pct = 100, .variant = "c", .chase_cpu = 0,
			.load_cpus = cores - 1, .bound_ratio = 1.5,
			.criterion = "latency <= 1.5 x idle", .n_points = 2,
		};

		c.peak_bps = (4e9 + 1e9 * b) * 2.5 * jitter(u, f++) * read_low;
		c.knee_bps = c.peak_bps * 0.8;
		c.sustainable_bps = c.peak_bps * 0.75;
		c.idle_latency_ns = (90 + 5 * b) * jitter(u, f++);
		c.points[0] = (struct memcal_mix_point){ 0, 0, c.idle_latency_ns,
			c.idle_latency_ns - 2, c.idle_latency_ns + 2 };
		c.points[1] = (struct memcal_mix_point){ 1, c.peak_bps,
			c.idle_latency_ns * 3, c.idle_latency_ns * 2.9,
			c.idle_latency_ns * 3.1 };
		need(memcal_db_mix_curve_store(h, run.id, &c) == 0, memcal_db_errmsg(h));
	}
	{
		struct memcal_guaranteed g = {
			.traffic = "read", .method = "random-line",
			.status = "measured", .cpus = "0", .n_cpus = 1,
			.buffer_bytes = 1 << 28, .streams = 16,
			.repetitions = 5, .criterion = "median of 5",
		};
		struct memcal_pmu_status ps = {
			.available = b != 1, .pmu_name = "recorded",
			.message = "replayed board",
		};
		struct memcal_selfcheck sc = {
			.check = "delivery", .cpu = 0, .event = "r2a",
			.expected = 1000, .measured = 998 + b,
			.tolerance_pct = 5, .verdict = "pass",
			.message = "overflow interrupts arrive",
		};
		struct memcal_pmu_event ev = {
			.name = "BUS_ACCESS_RD", .pmu = "recorded",
			.traffic = "read", .perf_type = 8,
			.perf_config = 0x60, .opened = true,
			.bytes_per_event = 64, .error_pct = 1.5, .chosen = true,
		};

		g.bandwidth_bps = (1e9 + 2e8 * b) * jitter(u, f++);
		g.min_bps = g.bandwidth_bps * 0.97;
		g.max_bps = g.bandwidth_bps * 1.02;
		need(memcal_db_guaranteed_store(h, run.id, &g) == 0, memcal_db_errmsg(h));
		need(memcal_db_pmu_status_store(h, run.id, &ps) == 0, memcal_db_errmsg(h));
		need(memcal_db_selfcheck_store(h, run.id, &sc) == 0, memcal_db_errmsg(h));
		need(memcal_db_pmu_event_store(h, run.id, &ev) == 0, memcal_db_errmsg(h));
	}
	for (size_t i = 0; i < r.types.n; i++) {
		struct memcal_cpu_kind k;

		cal_cpu_type_kind(&r.types, i, &k);
		need(memcal_db_cpu_kind_store(h, run.id, &k) == 0, memcal_db_errmsg(h));
	}
	need(memcal_db_commit(h) == 0, memcal_db_errmsg(h));
	memcal_db_close(h);
	free(p.topology_json);
	cal_replay_free(&r);
}

/*
 * make_template - a directory with one database per unit (unit-NAME.db)
 * and each unit's exported document (NAME.json): the ten boards (rpi5's
 * is fleet unit rpi5-01) and eleven more units of rpi5.  The tests learn
 * where it is from the environment, which their processes inherit.
 */
ReportHook(PRE_ALL)(struct criterion_test_set *tests)
{
	char db[128], host[32], cmd[512];

	(void)tests;
	snprintf(template_dir, sizeof(template_dir), "/tmp/memcal-fleet-XXXXXX");
	need(mkdtemp(template_dir), strerror(errno));
	for (size_t b = 0; b < N_BOARDS; b++) {
		snprintf(host, sizeof(host), b == FLEET_BOARD ? "%s-01" :
			 "%s-board", boards[b].name);
		snprintf(db, sizeof(db), "%s/unit-%s.db", template_dir, host);
		store_unit(db, (int)b, host, b == FLEET_BOARD ? 1 : 0, 1);
	}
	for (int u = 2; u <= FLEET_UNITS; u++) {
		snprintf(db, sizeof(db), "%s/unit-rpi5-%02d.db", template_dir,
			 u);
		snprintf(host, sizeof(host), "rpi5-%02d", u);
		store_unit(db, FLEET_BOARD, host, u, u == PLANTED ? 0.8 : 1);
	}
	snprintf(cmd, sizeof(cmd), "cd %s && for d in unit-*.db; do "
		 "n=${d#unit-}; " MEMCAL " --db $d export --run 1 --out "
		 "${n%%.db}.json >/dev/null || exit 1; done", template_dir);
	need(system(cmd) == 0, "memcal export");
	need(setenv(TEMPLATE_ENV, template_dir, 1) == 0, strerror(errno));
}

/* remove_template - remove the template directory, after every test. */
ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	char cmd[128];

	(void)stats;
	if (!*template_dir)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", template_dir);
	need(system(cmd) == 0, cmd);
}

/* setup - a scratch directory of this test's own: a copy of the template. */
static void setup(void)
{
	const char *from = getenv(TEMPLATE_ENV);
	char cmd[256];

	cr_assert_not_null(from, "no template: " TEMPLATE_ENV " is not set");
	snprintf(dir, sizeof(dir), "/tmp/memcal-fleet-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -p %s/* %s", from, dir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* teardown - remove the scratch directory. */
static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(fleet, .init = setup, .fini = teardown, .timeout = 60);

/*
 * dump() - every row of every table of database @name in the scratch
 * directory, as text (malloc'd): what "the database is unchanged" means.
 */
static char *dump(const char *name)
{
	char path[128], *out = NULL;
	sqlite3_stmt *tabs;
	size_t len = 0;
	sqlite3 *h;
	FILE *f = open_memstream(&out, &len);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	cr_assert_eq(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL),
		     SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, "SELECT name FROM sqlite_master WHERE"
					" type = 'table' ORDER BY name", -1,
					&tabs, NULL), SQLITE_OK);
	while (sqlite3_step(tabs) == SQLITE_ROW) {
		char sql[256];
		sqlite3_stmt *st;

		snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"",
			 sqlite3_column_text(tabs, 0));
		cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL),
			     SQLITE_OK);
		fprintf(f, "%s\n", sqlite3_column_text(tabs, 0));
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (int c = 0; c < sqlite3_column_count(st); c++)
				fprintf(f, "|%s", sqlite3_column_text(st, c) ?
					(const char *)sqlite3_column_text(st, c) :
					"NULL");
			fputc('\n', f);
		}
		sqlite3_finalize(st);
	}
	sqlite3_finalize(tabs);
	sqlite3_close(h);
	fclose(f);
	return out;
}

/* import_all - import every unit's document into fleet.db; its output. */
static char *import_all(int *rc)
{
	char *out;

	*rc = sh(MEMCAL " --db fleet.db import adl-board.json imx8m-board.json"
		 " orin-board.json rk3588-board.json rpi4-board.json"
		 " spr-board.json zcu102-board.json zen4-board.json"
		 " zen5-board.json rpi5-??.json 2>&1", &out);
	return out;
}

Test(fleet, compare_names_the_planted_outlier_and_only_it)
{
	char cmd[512], *out, *json;
	json_t *doc, *b;
	json_error_t je;
	int rc;

	out = import_all(&rc);
	cr_assert_eq(rc, 0, "%s", out);
	golden_check(GOLDEN "import.txt", out);
	free(out);
	snprintf(cmd, sizeof(cmd), MEMCAL " --db fleet.db compare --board "
		 "%s-", boards[FLEET_BOARD].name);
	cr_assert_eq(sh(cmd, &out), 0, "%s", out);
	golden_check(GOLDEN "compare-rpi5.txt", out);
	cr_assert_not_null(strstr(out, "rpi5-07 (run"));
	free(out);
	snprintf(cmd, sizeof(cmd), MEMCAL " --db fleet.db --json compare "
		 "--board %s-", boards[FLEET_BOARD].name);
	cr_assert_eq(sh(cmd, &json), 0);
	golden_check(GOLDEN "compare-rpi5.json", json);
	doc = json_loads(json, 0, &je);
	cr_assert_not_null(doc, "%s", je.text);
	b = json_array_get(json_object_get(json_object_get(doc, "result"),
					   "boards"), 0);
	cr_assert_eq(json_integer_value(json_object_get(b, "unit_count")),
		     FLEET_UNITS);
	cr_assert(json_array_size(json_object_get(b, "outliers")) > 0);
	for (size_t i = 0; i < json_array_size(json_object_get(b, "outliers"));
	     i++)
		cr_assert_str_eq(json_string_value(json_object_get(
			json_array_get(json_object_get(b, "outliers"), i),
			"unit")), "rpi5-07");
	json_decref(doc);
	free(json);
	/* bad input: usage errors that say why */
	cr_expect_eq(sh(MEMCAL " --db fleet.db compare --board nope 2>&1",
			&out), 2);
	cr_expect_not_null(strstr(out, "matches no board"), "%s", out);
	free(out);
	cr_expect_eq(sh(MEMCAL " --db fleet.db compare --k 0 2>&1", &out), 2);
	free(out);
	cr_expect_eq(sh(MEMCAL " --db fleet.db compare --all --board r 2>&1",
			&out), 2);
	free(out);
	cr_expect_eq(sh(MEMCAL " --db fleet.db export 2>&1", &out), 2);
	cr_expect_not_null(strstr(out, "--run ID is required"), "%s", out);
	free(out);
	cr_expect_eq(sh(MEMCAL " --db fleet.db import 2>&1", &out), 2);
	free(out);
	/* every other board: one unit, cannot be judged */
	cr_assert_eq(sh(MEMCAL " --db fleet.db compare --all", &out), 0);
	golden_check(GOLDEN "compare-all.txt", out);
	free(out);
}

Test(fleet, import_twice_adds_nothing)
{
	char *before, *after, *out;
	int rc;

	free(import_all(&rc));
	cr_assert_eq(rc, 0);
	before = dump("fleet.db");
	out = import_all(&rc);
	cr_assert_eq(rc, 0, "%s", out);
	golden_check(GOLDEN "import-again.txt", out);
	after = dump("fleet.db");
	cr_assert_str_eq(before, after);
	free(out);
	/* a unit's own run, exported and imported back, is already there */
	cr_assert_eq(sh(MEMCAL " --db unit-rpi5-03.db import rpi5-03.json",
			&out), 0);
	cr_assert_str_eq(out, "rpi5-03.json: skipped: run 1 of unit rpi5-03 "
			 "is already in the database\n");
	free(out);
	free(before);
	free(after);
}

/* edit - write @to: document @from with the sed script @sed applied. */
static void edit(const char *from, const char *to, const char *sed)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "sed '%s' %s > %s", sed, from, to);
	cr_assert_eq(sh(cmd, NULL), 0);
}

Test(fleet, bad_documents_are_refused_and_store_nothing)
{
	char *before, *after, *out;
	int rc;

	free(import_all(&rc));
	cr_assert_eq(rc, 0);
	edit("zen4-board.json", "newer.json",
	     "s|memcal.calibration/1|memcal.calibration/2|");
	edit("zen4-board.json", "notjson.json", "s|^}$||");
	edit("zen4-board.json", "badfig.json",
	     "0,/\"median_bps\": [0-9.e+]*/s//\"median_bps\": \"fast\"/");
	edit("zen4-board.json", "changed.json",
	     "0,/\"median_bps\": [0-9]/s//\"median_bps\": 9/");
	cr_assert_eq(sh("echo '{\"schema\": \"memcal.calibration/1\"}' > "
			"empty.json", NULL), 0);
	before = dump("fleet.db");
	rc = sh(MEMCAL " --db fleet.db import newer.json notjson.json"
		" badfig.json changed.json empty.json missing.json 2>&1", &out);
	cr_assert_eq(rc, 1, "%s", out);
	golden_check(GOLDEN "import-refused.txt", out);
	after = dump("fleet.db");
	cr_assert_str_eq(before, after);
	free(out);
	free(before);
	free(after);
}

/* figures_of - the "figures" and "content_key" of document @path as text. */
static char *figures_of(const char *name)
{
	char path[128];
	json_error_t je;
	json_t *doc, *part;
	char *s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	doc = json_load_file(path, 0, &je);
	cr_assert_not_null(doc, "%s: %s", name, je.text);
	part = json_pack("{s:O, s:O, s:O, s:O}", "figures",
			 json_object_get(doc, "figures"), "unit",
			 json_object_get(doc, "unit"), "platform",
			 json_object_get(doc, "platform"), "content_key",
			 json_object_get(doc, "content_key"));
	s = json_dumps(part, JSON_INDENT(1) | JSON_SORT_KEYS |
		       JSON_REAL_PRECISION(12));
	json_decref(part);
	json_decref(doc);
	return s;
}

Test(fleet, export_import_export_keeps_every_digit)
{
	static const char *const order[] = {
		"adl-board", "imx8m-board", "orin-board", "rk3588-board",
		"rpi4-board", "spr-board", "zcu102-board", "zen4-board",
		"zen5-board", "rpi5-01",
	};
	char path[128], cmd[256], *a, *b;
	int rc;

	snprintf(path, sizeof(path), "%s/zen4-board.json", dir);
	a = slurp(path);
	golden_check(GOLDEN "export-zen4.json", a);
	free(a);
	free(import_all(&rc));
	cr_assert_eq(rc, 0);
	/* runs 1..10 are the ten boards' documents, in import_all()'s order */
	for (int i = 0; i < 10; i++) {
		snprintf(cmd, sizeof(cmd), MEMCAL " --db fleet.db export --run "
			 "%d --out again-%d.json", i + 1, i);
		cr_assert_eq(sh(cmd, NULL), 0);
		snprintf(path, sizeof(path), "%s.json", order[i]);
		a = figures_of(path);
		snprintf(path, sizeof(path), "again-%d.json", i);
		b = figures_of(path);
		cr_assert_str_eq(a, b, "%s changed on the way", order[i]);
		free(a);
		free(b);
	}
}

Test(fleet, a_run_older_than_units_exports_the_board_hostname_only)
{
	char path[128], err[512], *out;
	struct fixture_ids ids;
	memcal_db *h;
	sqlite3 *s;
	json_t *doc;

	snprintf(path, sizeof(path), "%s/old.db", dir);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	cr_assert_eq(sqlite3_open(path, &s), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(s, FIXTURE_UNDO_V10 "PRAGMA user_version = 9",
				  NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
	/* the upgrade a writing command does */
	cr_assert_eq(memcal_db_open(path, 0, &h, err, sizeof(err)), 0, "%s",
		     err);
	memcal_db_close(h);
	cr_assert_eq(sh(MEMCAL " --db old.db export --run 1", &out), 0);
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc);
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc,
			 "unit"), "hostname")), "board");
	cr_expect(json_is_null(json_object_get(json_object_get(doc, "unit"),
					       "machine_id")));
	cr_expect(json_is_null(json_object_get(json_object_get(doc, "unit"),
					       "serial")));
	json_decref(doc);
	free(out);
}

Test(fleet, the_report_has_a_fleet_section_with_the_flagged_unit)
{
	char path[128], *out, *html;
	json_t *doc, *fl;
	int rc;

	free(import_all(&rc));
	cr_assert_eq(rc, 0);
	cr_assert_eq(sh(MEMCAL " --db fleet.db report --run 11 --out r.html",
			NULL), 0);
	snprintf(path, sizeof(path), "%s/r.html", dir);
	html = slurp(path);
	cr_assert_not_null(strstr(html, "<h2 id=\"fleet\">Fleet</h2>"));
	cr_expect_not_null(strstr(html, "<li>rpi5-07 (run 16): bw read core 0"
				  " median_bps"));
	cr_expect_null(strstr(html, "<li>rpi5-02"), "only rpi5-07 is flagged");
	cr_expect_not_null(strstr(html, "rpi5-02 (this report)"));
	free(html);
	cr_assert_eq(sh(MEMCAL " --db fleet.db report --run 11 --format json",
			&out), 0);
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc);
	fl = json_object_get(doc, "fleet");
	cr_expect_eq(json_integer_value(json_object_get(fl, "unit_count")),
		     FLEET_UNITS);
	for (size_t i = 0; i < json_array_size(json_object_get(fl, "outliers"));
	     i++)
		cr_expect_str_eq(json_string_value(json_object_get(
			json_array_get(json_object_get(fl, "outliers"), i),
			"unit")), "rpi5-07");
	json_decref(doc);
	free(out);
	/* one unit of a board: no fleet section */
	cr_assert_eq(sh(MEMCAL " --db fleet.db report --run 8 --format json",
			&out), 0);
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc);
	cr_expect_null(json_object_get(doc, "fleet"));
	json_decref(doc);
	free(out);
}

Test(fleet, a_document_the_database_refuses_leaves_nothing_and_earlier_stay)
{
	char path[128], key[65], *before, *after, *out;
	json_error_t je;
	json_t *doc, *bw;
	int rc;

	/* a well-formed document with a current key, and a negative figure */
	snprintf(path, sizeof(path), "%s/zen5-board.json", dir);
	doc = json_load_file(path, 0, &je);
	cr_assert_not_null(doc, "%s", je.text);
	bw = json_array_get(json_object_get(json_object_get(doc, "figures"),
					    "bandwidth"), 0);
	json_object_set_new(bw, "median_bps", json_real(-1e9));
	cr_assert_eq(fig_doc_key(doc, key), 0);
	json_object_set_new(doc, "content_key", json_string(key));
	snprintf(path, sizeof(path), "%s/negative.json", dir);
	cr_assert_eq(json_dump_file(doc, path, JSON_INDENT(2) |
				    JSON_REAL_PRECISION(12)), 0);
	json_decref(doc);
	before = dump("unit-zen4-board.db");
	rc = sh(MEMCAL " --db unit-zen4-board.db import rpi5-02.json"
		" negative.json 2>&1", &out);
	cr_assert_eq(rc, 1, "%s", out);
	cr_expect_not_null(strstr(out, "rpi5-02.json: imported as run 2"), "%s",
			   out);
	cr_expect_not_null(strstr(out, "negative.json: refused, nothing "
				  "stored: "), "%s", out);
	free(out);
	after = dump("unit-zen4-board.db");
	cr_expect_str_neq(before, after, "rpi5-02 was stored");
	cr_assert_eq(sh(MEMCAL " --db unit-zen4-board.db show --json", &out), 0);
	doc = json_loads(out, 0, NULL);
	cr_assert_not_null(doc);
	cr_expect_eq(json_array_size(json_object_get(json_object_get(doc,
		     "result"), "runs")), 2, "the unit's run and rpi5-02's");
	cr_expect_eq(json_array_size(json_object_get(json_object_get(doc,
		     "result"), "platforms")), 2, "zen4 and rpi5, no zen5");
	json_decref(doc);
	free(out);
	free(before);
	free(after);
}
