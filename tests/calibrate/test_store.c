// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_store.c - a whole run stored through results.c in one transaction
 * and read back through the db list functions; a locked database and a
 * row the schema rejects both leave nothing behind.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "memcal_figures.h"
#include "results.h"

/* tmp_db - a fresh database path in a private directory. */
static void tmp_db(char *path, size_t len)
{
	char dir[] = "/tmp/memcal-store-XXXXXX";

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, len, "%s/m.db", dir);
}

/* make_run - a result with every kind of row, as run_phases.c fills it. */
static void make_run(struct memcal_run_result *r)
{
	struct memcal_topology t;
	char err[256];
	struct memcal_bw bw = { .kind = "read", .scope = "core", .cpus = "0",
				.n_cpus = 1, .variant = "avx2",
				.buffer_bytes = 1 << 28, .repetitions = 10,
				.median_bps = 15e9, .min_bps = 13e9,
				.max_bps = 16e9 };
	struct memcal_latency_point lat = { .traffic = "read", .chase_cpu = 0,
					    .load_cpus = 1, .pace = 0.5,
					    .bandwidth_bps = 7e9,
					    .latency_ns = 180,
					    .latency_min_ns = 170,
					    .latency_max_ns = 200 };
	struct memcal_pmu_event ev = { .name = "raw:0x17", .pmu = "arm_ac53",
				       .traffic = "read", .perf_type = 4,
				       .perf_config = 0x17, .opened = true,
				       .bytes_per_event = 64.2,
				       .error_pct = 0.3, .chosen = true };

	memset(r, 0, sizeof(*r));
	cr_assert_eq(memcal_platform_topology_load(&t, "pack:1 l2:1(size=1MiB) core:4 "
					  "pu:1", err, sizeof(err)), 0);
	cr_assert_eq(memcal_platform_describe(&t, &r->platform), 0);
	memcal_platform_topology_free(&t);
	snprintf(r->run.kind, sizeof(r->run.kind), "full");
	snprintf(r->run.tool_version, sizeof(r->run.tool_version), "test");
	snprintf(r->run.started_at, sizeof(r->run.started_at),
		 "2026-01-01T00:00:00Z");
	snprintf(r->run.finished_at, sizeof(r->run.finished_at),
		 "2026-01-01T00:01:00Z");
	r->run.params_json = strdup("{\"quick\":false}");
	cal_result_note(r, "first note");
	cal_result_note(r, "second note");
	cr_assert_eq(CAL_RESULT_ADD(r, bw, &bw), 0);
	snprintf(bw.kind, sizeof(bw.kind), "mixed");
	snprintf(bw.scope, sizeof(bw.scope), "aggregate");
	snprintf(bw.cpus, sizeof(bw.cpus), "0-1");
	bw.n_cpus = 2;
	bw.read_share = 0.5;
	cr_assert_eq(CAL_RESULT_ADD(r, bw, &bw), 0);
	cr_assert_eq(CAL_RESULT_ADD(r, lat, &lat), 0);
	lat.pace = 1;
	lat.latency_ns = 400;
	cr_assert_eq(CAL_RESULT_ADD(r, lat, &lat), 0);
	cr_assert_eq(CAL_RESULT_ADD(r, sus, (&(struct memcal_sustainable){
		.traffic = "read", .bandwidth_bps = 9e9,
		.idle_latency_ns = 175, .bound_ratio = 1.5,
		.criterion = "test criterion" })), 0);
	cr_assert_eq(CAL_RESULT_ADD(r, sus, (&(struct memcal_sustainable){
		.traffic = "write", .bandwidth_bps = 5e9,
		.idle_latency_ns = 175, .bound_ratio = 1.5,
		.criterion = "lower", .lower_bound = true })), 0);
	r->fig.pmu = (struct memcal_pmu_status){ .available = true,
		.pmu_name = "arm_ac53", .message = "1 of 1 open" };
	cr_assert_eq(CAL_RESULT_ADD(r, ev, &ev), 0);
}

/* count_rows - rows of @table, read with plain SQLite. */
static int count_rows(const char *path, const char *table)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	char sql[128];
	int n = -1;

	cr_assert_eq(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL),
		     SQLITE_OK);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return n;
}

Test(store, whole_run_round_trip)
{
	struct memcal_run_result r;
	struct memcal_platform plat;
	struct memcal_run run;
	struct fig_run back;
	memcal_db *db;
	char path[256], err[512];

	tmp_db(path, sizeof(path));
	make_run(&r);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), 0, "%s", err);
	cr_assert_eq(cal_result_store(db, &r, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_gt(r.run.id, 0);
	cr_assert_eq(memcal_db_run_get(db, r.run.id, &run), 0);
	cr_assert_eq(memcal_db_platform_get(db, run.platform_id, &plat), 0);
	cr_assert_eq(fig_run_load(db, r.run.id, &back), 0, "%s",
		     memcal_db_errmsg(db));
	cr_expect_str_eq(plat.fingerprint, r.platform.fingerprint);
	cr_expect_eq(plat.cores, 4);
	cr_expect_str_eq(run.kind, "full");
	cr_expect_str_eq(run.notes, "first note; second note");
	cr_assert_eq(back.n_bw, 2);
	cr_expect_str_eq(back.bw[1].kind, "mixed");
	cr_expect_str_eq(back.bw[1].cpus, "0-1");
	cr_expect_float_eq(back.bw[1].read_share, 0.5, 1e-12);
	cr_expect_float_eq(back.bw[0].median_bps, 15e9, 1);
	cr_assert_eq(back.n_lat, 2);
	cr_expect_float_eq(back.lat[1].latency_ns, 400, 1e-9);
	cr_assert_eq(back.n_sus, 2);
	cr_expect_str_eq(back.sus[0].criterion, "test criterion");
	cr_expect(back.sus[1].lower_bound);
	cr_expect(back.have_pmu);
	cr_expect(back.pmu.available);
	cr_expect_str_eq(back.pmu.pmu_name, "arm_ac53");
	cr_assert_eq(back.n_ev, 1);
	cr_expect(back.ev[0].chosen);
	cr_expect_float_eq(back.ev[0].bytes_per_event, 64.2, 1e-9);
	cr_expect_eq(back.ev[0].perf_config, 0x17);
	/* The same board stored twice is one platform row. */
	r.run.id = 0;
	cr_assert_eq(cal_result_store(db, &r, err, sizeof(err)), 0);
	cr_expect_eq(plat.id, r.platform.id);
	memcal_db_close(db);
	cr_expect_eq(count_rows(path, "platform"), 1);
	cr_expect_eq(count_rows(path, "calibration_run"), 2);
	memcal_db_run_free(&run);
	memcal_db_platform_free(&plat);
	fig_run_free(&back);
	cal_result_free(&r);
}

Test(store, rejected_row_leaves_nothing)
{
	struct memcal_run_result r;
	memcal_db *db;
	char path[256], err[512] = "";

	tmp_db(path, sizeof(path));
	make_run(&r);
	snprintf(r.fig.bw[1].kind, sizeof(r.fig.bw[1].kind), "bogus");
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), 0);
	cr_expect_neq(cal_result_store(db, &r, err, sizeof(err)), 0);
	cr_expect(strstr(err, "nothing of this run was stored") != NULL,
		  "message: %s", err);
	cr_expect_eq(r.run.id, 0);
	memcal_db_close(db);
	cr_expect_eq(count_rows(path, "calibration_run"), 0);
	cr_expect_eq(count_rows(path, "platform"), 0);
	cr_expect_eq(count_rows(path, "bandwidth"), 0);
	cal_result_free(&r);
}

Test(store, locked_database_is_refused_cleanly)
{
	struct memcal_run_result r;
	memcal_db *db;
	sqlite3 *other;
	char path[256], err[512] = "";

	tmp_db(path, sizeof(path));
	make_run(&r);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), 0);
	memcal_db_set_busy_timeout(db, 0);
	cr_assert_eq(sqlite3_open(path, &other), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL),
		     SQLITE_OK);
	cr_expect_eq(cal_result_store(db, &r, err, sizeof(err)),
		     MEMCAL_EBUSY, "message: %s", err);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	memcal_db_close(db);
	cr_expect_eq(count_rows(path, "calibration_run"), 0);
	cal_result_free(&r);
}

Test(store, summary_and_json_show_every_section)
{
	struct memcal_run_result r;
	char *txt = NULL, path[256], err[512];
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	memcal_db *db;
	json_t *doc;

	make_run(&r);
	cal_result_print(&r, f);
	fclose(f);
	cr_expect(strstr(txt, "bandwidth, GB/s") != NULL);
	cr_expect(strstr(txt, "loaded latency") != NULL);
	cr_expect(strstr(txt, "sustainable read  =  9.00 GB/s") != NULL, "%s",
		  txt);
	cr_expect(strstr(txt, "[lower bound]") != NULL);
	cr_expect(strstr(txt, "[chosen]") != NULL);
	free(txt);
	/* The JSON is the stored run, read back. */
	tmp_db(path, sizeof(path));
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), 0, "%s", err);
	cr_assert_eq(cal_result_store(db, &r, err, sizeof(err)), 0, "%s", err);
	doc = cal_result_to_json(db, &r);
	cr_assert_not_null(doc);
	cr_expect_eq(json_array_size(json_object_get(doc, "bandwidth")), 2);
	cr_expect_eq(json_array_size(json_object_get(doc, "pmu_events")), 1);
	cr_expect(json_is_true(json_object_get(json_object_get(doc, "pmu"),
					       "available")));
	cr_expect_not_null(json_object_get(json_object_get(doc, "platform"),
					   "topology"));
	json_decref(doc);
	memcal_db_close(db);
	cal_result_free(&r);
}

/* golden_path - the recorded summary of make_run()'s run. */
#define GOLDEN MEMCAL_SOURCE_DIR "/tests/fixtures/run/summary.txt"

Test(store, summary_matches_golden)
{
	struct memcal_run_result r;
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);

	make_run(&r);
	/* Fixed identity so the text does not depend on this machine. */
	r.run.id = 7;
	snprintf(r.platform.hostname, sizeof(r.platform.hostname), "board");
	snprintf(r.platform.cpu_model, sizeof(r.platform.cpu_model),
		 "ARM Cortex-A53");
	snprintf(r.platform.arch, sizeof(r.platform.arch), "aarch64");
	cal_result_print(&r, f);
	fclose(f);
	golden_check(GOLDEN, txt);
	free(txt);
	cal_result_free(&r);
}
