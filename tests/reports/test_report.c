// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report.c - the HTML report on the fixture database, compared
 * structurally: every chart's <svg> present, the numbers of the page are
 * the database's, text escaped, nothing external; empty and partial
 * databases give a report that says what is missing; the command's
 * options, output files and errors.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_report.h"
#include "memcal_db.h"
#include "report_run.h"

static char db_path[128];
static struct fix_ids ids;

/* make_db - a fresh fixture database with @parts in its own directory. */
static void make_db(unsigned parts)
{
	const char *dir = fix_tmpdir();

	cr_assert(dir);
	snprintf(db_path, sizeof(db_path), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(db_path, parts, &ids), 0);
}

/* html - run @tool report (HTML on stdout) and check it succeeded. */
static char *html(const char *tool, const char *const *args)
{
	struct run_out o;

	run_report(&o, tool, db_path, args);
	cr_assert_eq(o.rc, 0, "%s report failed: %s", tool, o.err);
	free(o.err);
	cr_assert(o.out && !strncmp(o.out, "<!DOCTYPE html>", 15));
	cr_assert(strstr(o.out, "</html>"));
	return o.out;
}

/*
 * self_contained - no script, no link, no URL but the SVG namespace;
 * elements balanced.
 */
static void self_contained(const char *s)
{
	const char *p = s;

	cr_expect_null(strstr(s, "<script"));
	cr_expect_null(strstr(s, "<link"));
	cr_expect_null(strstr(s, "href="));
	cr_expect_null(strstr(s, "src="));
	cr_expect_null(strstr(s, "@import"));
	/* the SVG elements are balanced (a cheap well-formedness check) */
	cr_expect_eq(count_str(s, "<svg "), count_str(s, "</svg>"));
	cr_expect_eq(count_str(s, "<g "), count_str(s, "</g>"));
	cr_expect_eq(count_str(s, "<text "), count_str(s, "</text>"));
	cr_expect_eq(count_str(s, "<figure>"), count_str(s, "</figure>"));
	cr_expect_eq(count_str(s, "<table"), count_str(s, "</table>"));
	while ((p = strstr(p, "http")))
		cr_expect(!strncmp(p++, "http://www.w3.org/2000/svg", 26),
			  "external URL in the page: %.40s", p - 1);
}

/* check_bw_row - memcal_db_bw_list() callback: the row is in the table. */
static int check_bw_row(const struct memcal_bw *bw, void *user)
{
	char cell[96];

	snprintf(cell, sizeof(cell), "<td class=\"num\">%.2f</td><td class="
		 "\"num\">%.2f</td><td class=\"num\">%.2f</td>",
		 bw->median_bps / 1e9, bw->min_bps / 1e9, bw->max_bps / 1e9);
	cr_expect(strstr(user, cell), "bandwidth row %s %s %d missing: %s",
		  bw->kind, bw->scope, bw->n_cpus, cell);
	return 0;
}

/* check_ov_row - memcal_db_overhead_list() callback. */
static int check_ov_row(const struct memcal_overhead_point *p, void *user)
{
	char cell[128];

	snprintf(cell, sizeof(cell), "<td class=\"num\">%d</td><td class="
		 "\"num\">%d</td><td>%s</td><td>%s</td>", p->cpu, p->period_us,
		 p->benchmark, p->method);
	cr_expect(strstr(user, cell), "overhead row missing: %s", cell);
	snprintf(cell, sizeof(cell), "%.3f", p->ratio_median);
	cr_expect(strstr(user, cell));
	return 0;
}

Test(report_html, calibration_on_the_fixture)
{
	char *s;
	memcal_db *db;
	char err[256];

	make_db(FIX_ALL);
	s = html("memcal", NULL);
	self_contained(s);
	cr_expect_eq(count_str(s, "<svg "), 4);
	cr_expect(strstr(s, "id=\"chart-bandwidth\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-latency\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-family\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-overhead\" class=\"chart\""));
	cr_expect_null(strstr(s, "chart missing"));
	cr_expect_null(strstr(s, "chart-budgets"));
	/* summary: board, run, headline figures from the database */
	cr_expect(strstr(s, FIX_HOST));
	cr_expect(strstr(s, "Cortex-A72 (fixture) (aarch64)"));
	cr_expect(strstr(s, "run 1 (full), 2026-01-02T03:04:05Z"));
	cr_expect(strstr(s, "26.00 GB/s with 4 cores (one core: 10.00 GB/s)"));
	cr_expect(strstr(s, "28.00 GB/s with 4 cores"));
	cr_expect(strstr(s, "18.00 GB/s (idle latency 100 ns; latency &lt;= "
			 "1.5 x idle)"));
	cr_expect(strstr(s, "&gt;= 9.00 GB/s"));
	cr_expect(strstr(s, "at 10 us: CPU 0 (master on it) 3.530x; CPU 1 "
			 "1.280x;"));
	/* warnings where they apply */
	cr_expect(strstr(s, "No usable hardware PMU"));
	cr_expect(strstr(s, "proxy method"));
	cr_expect(strstr(s, "only a lower bound"));
	cr_expect(strstr(s, "Notes of overhead run 2: proxy: no memreg"));
	cr_expect(strstr(s, "PMU self-check delivery failed: cpu 1: 2500000 "
			 "events"), "a failed self-check is a warning");
	cr_expect_null(strstr(s, "PMU self-check read-count failed"),
		       "a skipped one is not");
	/* the self-checks with their verdicts */
	cr_expect(strstr(s, "PMU self-checks"));
	cr_expect(strstr(s, "<td>delivery</td><td class=\"num\">1</td><td>"
			 "raw:0x17</td><td class=\"num\">250</td><td class="
			 "\"num\">0</td><td class=\"num\">10</td><td>fail"
			 "</td>"));
	cr_expect(strstr(s, "<td>read-count</td><td>all</td><td>-</td>"));
	cr_expect(strstr(s, "<td>pmu-users</td><td>all</td><td>-</td><td "
			 "class=\"num\">0</td><td class=\"num\">0</td><td "
			 "class=\"num\">0</td><td>pass</td><td>no other user "
			 "of the PMU</td>"));
	/* charts: legends, master placement as stored, knee marked, units */
	cr_expect(strstr(s, "CPU 0, master on it"));
	cr_expect(strstr(s, "CPU 1, master on CPU 0"));
	cr_expect(strstr(s, "knee read: 18.0 GB/s"));
	cr_expect(strstr(s, "knee write: &gt;= 9.0 GB/s"));
	cr_expect(strstr(s, "bandwidth (GB/s)"));
	cr_expect(strstr(s, "regulation period (us, log scale)"));
	/* every stored row is in the data tables */
	cr_assert_eq(memcal_db_open(db_path, MEMCAL_DB_OPEN_READONLY, &db, err,
				    sizeof(err)), 0);
	cr_expect_eq(memcal_db_bw_list(db, ids.run_id, check_bw_row, s), 0);
	cr_expect_eq(memcal_db_overhead_list(db, ids.overhead_run_id,
					     check_ov_row, s), 0);
	memcal_db_close(db);
	free(s);
}

/*
 * job_latency_chart - the per-job latency chart of the fixture: one CDF
 * and one p99 dot per condition, the deadline line, the legend figures.
 */
static void job_latency_chart(const char *s)
{
	const char *a = strstr(s, "id=\"chart-job-latency\" class=\"chart\"");
	char *svg;

	cr_assert(a, "no per-job latency chart");
	svg = strndup(a, (size_t)(strstr(a, "</svg>") - a));
	cr_expect_eq(count_str(svg, "<path fill=\"none\""), 4, "%s", svg);
	cr_expect_eq(count_str(svg, "<circle"), 4, "%s", svg);
	cr_expect(strstr(svg, "deadline 20 ms"), "%s", svg);
	cr_expect(strstr(svg, ">p99<"), "%s", svg);
	cr_expect(strstr(svg, "solo: p99 6.00 ms, 0/100 late"), "%s", svg);
	cr_expect(strstr(svg, "unregulated: p99 21.00 ms, 2/100 late"), "%s",
		  svg);
	cr_expect(strstr(svg, "regulated: p99 8.00 ms, 0/100 late"), "%s",
		  svg);
	cr_expect(strstr(svg, "static: p99 7.40 ms, 0/100 late"), "%s", svg);
	free(svg);
}

/*
 * validation_chart - the slowdown chart of the fixture: per workload an
 * unregulated, a static and a regulated bar, except 'compress', stored
 * without the static condition, which says so instead of a bar at 0; the
 * side-by-side table gives p99, misses and throughput.
 */
static void validation_chart(const char *s)
{
	const char *a = strstr(s, "id=\"chart-validation\" class=\"chart\"");
	char *svg;

	cr_assert(a, "no validation chart");
	svg = strndup(a, (size_t)(strstr(a, "</svg>") - a));
	cr_expect_eq(count_str(svg, "static not measured"), 1, "%s", svg);
	cr_expect(strstr(svg, "static (guarantees only)"), "%s", svg);
	cr_expect(strstr(svg, "video static: 1.850x, throughput 0.541"), "%s",
		  svg);
	cr_expect(strstr(svg, "video regulated: 1.475x, throughput 0.678"),
		  "%s", svg);
	free(svg);
	cr_expect(strstr(s, "<h3>Static budgets against regulation</h3>"));
	/* video: slowdowns 1.3 / 1.85 / 1.475, throughput 0.769 / 0.541 / 0.678 */
	cr_expect(strstr(s, "<td>video</td><td>best-effort</td><td class=\"num\">"
			 "1.300</td><td class=\"num\">1.850</td>"
			 "<td class=\"num\">1.475</td>"), "video's slowdowns");
	cr_expect(strstr(s, "<td class=\"num\">0.769</td><td class=\"num\">"
			 "0.541</td><td class=\"num\">0.678</td>"),
		  "video's throughput");
	cr_expect(strstr(s, "<td>compress</td><td class=\"num\">3</td>"),
		  "compress in the results table");
	cr_expect(strstr(s, "<td>static not measured</td>"));
}

Test(report_html, family_of_curves_one_line_per_mix)
{
	const char *p;
	char *s;
	int seen = 0;

	make_db(FIX_ALL);
	s = html("memcal", NULL);
	p = strstr(s, "id=\"chart-family\"");
	cr_assert_not_null(p, "no family chart");
	/* one group per mix, from all reads to all writes, each a line */
	for (int pct = 100; pct >= 0; pct -= 25) {
		char want[96], legend[96];
		const char *g;

		snprintf(want, sizeof(want), "<g class=\"mix\" "
			 "data-read-pct=\"%d\"", pct);
		g = strstr(p, want);
		cr_expect_not_null(g, "no curve for %d %% read", pct);
		if (!g)
			continue;
		cr_expect_lt(g - p, strstr(p, "</svg>") - p,
			     "the %d %% curve is outside the family chart", pct);
		cr_expect_lt(strstr(g, "<path fill=\"none\"") - g,
			     strstr(g, "</g>") - g, "%d %%: no line", pct);
		snprintf(legend, sizeof(legend), "%d %% read: sustainable %s",
			 pct, pct ? "" : "&gt;= ");
		cr_expect_not_null(strstr(p, legend), "legend lacks '%s'",
				   legend);
		seen++;
		p = g;
	}
	cr_expect_eq(seen, 5);
	cr_expect(strstr(s, "100 % read: sustainable 18.0 GB/s"));
	cr_expect(strstr(s, "0 % read: sustainable &gt;= 9.0 GB/s"));
	/* the table and the lower-bound warning name the mixes */
	cr_expect(strstr(s, "Bandwidth-latency family"));
	cr_expect(strstr(s, "family at 0 % read are only lower bounds"));
	free(s);
}

Test(report_html, family_missing_from_an_older_run_is_said)
{
	char *s;
	sqlite3 *h;

	make_db(FIX_ALL);
	cr_assert_eq(sqlite3_open(db_path, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "DELETE FROM mix_curve", 0, 0, 0),
		     SQLITE_OK);
	sqlite3_close(h);
	s = html("memcal", NULL);
	cr_expect(strstr(s, "id=\"chart-family\" class=\"chart missing\""));
	cr_expect(strstr(s, "No bandwidth-latency family across read/write "
			 "mixes: run &#39;memcal run&#39; with this memcal."));
	cr_expect(strstr(s, "stored no bandwidth-latency family"));
	free(s);
}

Test(report_html, tuning_on_the_fixture)
{
	char *s;

	make_db(FIX_ALL);
	s = html("memtune", NULL);
	self_contained(s);
	cr_expect_eq(count_str(s, "<svg "), 8);
	cr_expect_null(strstr(s, "chart missing"), "a chart is missing");
	job_latency_chart(s);
	cr_expect(strstr(s, "id=\"chart-budgets\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-validation\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-lms\" class=\"chart\""));
	/* chosen period and master, and why (from the document) */
	cr_expect(strstr(s, "configuration 1 of mix &#39;demo&#39;"));
	cr_expect(strstr(s, "1000 us - Period 1000 us: the shortest period"));
	cr_expect(strstr(s, "CPU 0 - Master CPU 0: it runs no workload"));
	cr_expect(strstr(s, "4 taps, mu 0.500, headroom 20 %"));
	cr_expect(strstr(s, "Planner: Counter events are assumed"));
	/* names are escaped everywhere, never raw */
	cr_expect(strstr(s, "radar &amp; &lt;fft&gt;"));
	cr_expect_null(strstr(s, "<fft>"));
	/* budgets: events converted with 64 B/event over 1 ms */
	cr_expect(strstr(s, "<td class=\"num\">2</td><td>be</td><td>video</td>"
			 "<td class=\"num\">4.000</td>"));
	cr_expect(strstr(s, "read: sum 15.00 GB/s"));
	cr_expect(strstr(s, "sustainable 18.00 GB/s"));
	/* validation slowdowns */
	cr_expect(strstr(s, "<td class=\"num\">1.550</td><td class=\"num\">"
			 "1.050</td>"));
	cr_expect(strstr(s, "regulated (memreg)"));
	validation_chart(s);
	/* LMS: the trace replayed through the regulator core */
	cr_expect(strstr(s, "1000 us ticks summed into 1000 us periods) "
			 "replayed through"));
	cr_expect(strstr(s, "memreg&#39;s fixed-point NLMS, 4 taps"));
	cr_expect(strstr(s, "LMS prediction"));
	free(s);
}

Test(report_html, empty_database_says_what_is_missing)
{
	char *s;

	make_db(0);
	s = html("memcal", NULL);
	self_contained(s);
	cr_expect_eq(count_str(s, "class=\"chart missing\""), 4);
	cr_expect(strstr(s, "holds no calibration run"));
	cr_expect(strstr(s, "No bandwidth measurements: run &#39;memcal run&#39;"));
	cr_expect(strstr(s, "holds no data for this report yet"));
	free(s);
	s = html("memtune", NULL);
	cr_expect_eq(count_str(s, "class=\"chart missing\""), 8);
	cr_expect(strstr(s, "holds no tuned configuration"));
	cr_expect(strstr(s, "No tuned configuration: run &#39;memtune plan"));
	free(s);
}

Test(report_html, partial_database_draws_what_it_has)
{
	char *s;

	make_db(FIX_BANDWIDTH);
	s = html("memcal", NULL);
	cr_expect(strstr(s, "id=\"chart-bandwidth\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-latency\" class=\"chart missing\""));
	cr_expect(strstr(s, "id=\"chart-family\" class=\"chart missing\""));
	cr_expect(strstr(s, "id=\"chart-overhead\" class=\"chart missing\""));
	cr_expect(strstr(s, "Run 1 stored no loaded-latency points."));
	cr_expect(strstr(s, "Run 1 stored no PMU verdict."));
	cr_expect(strstr(s, "run &#39;memcal overhead&#39;"));
	cr_expect_null(strstr(s, "No usable hardware PMU"));
	free(s);
}

Test(report_html, overhead_only_database)
{
	char *s;

	make_db(FIX_OVERHEAD);
	s = html("memcal", NULL);
	cr_expect(strstr(s, "id=\"chart-overhead\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-bandwidth\" class=\"chart missing\""));
	cr_expect(strstr(s, "No bandwidth calibration of this board"));
	cr_expect(strstr(s, "run 1 (overhead)"));
	free(s);
}

Test(report_html, config_never_validated)
{
	char *s;

	make_db(FIX_BANDWIDTH | FIX_CONFIG);
	s = html("memtune", NULL);
	cr_expect(strstr(s, "id=\"chart-budgets\" class=\"chart\""));
	cr_expect(strstr(s, "id=\"chart-validation\" class=\"chart missing\""));
	cr_expect(strstr(s, "was never validated: run &#39;memtune validate"));
	/* no latency rows: the budgets are compared with the doc's ceiling */
	cr_expect(strstr(s, "platform ceiling 18.00 GB/s"));
	free(s);
}

Test(report_html, the_tuners_own_document)
{
	char *doc, *s;
	const char *args[] = { "--config", "2", NULL };

	/* the exporters' golden configuration, written by tuner/tuned_config.c */
	doc = slurp(MEMCAL_SOURCE_DIR "/tests/fixtures/export/config.json");
	cr_assert(doc);
	make_db(FIX_ALL);
	cr_assert_eq(fix_add_config(db_path, doc, &ids), 0);
	cr_assert_eq(ids.config_id, 2);
	s = html("memtune", args);
	cr_expect(strstr(s, "configuration 2 of mix &#39;golden&#39;"));
	/* no "reasons" object: no row borrows a sentence by its words */
	cr_expect(strstr(s, "CPU 0 - the configuration document gives no "
			 "reason"));
	cr_expect(strstr(s, "1000 us - the configuration document gives no "
			 "reason"));
	cr_expect(strstr(s, "<li>master core 0: not a real-time core</li>"));
	cr_expect(strstr(s, "4 taps, mu 0.500, headroom 10 %"));
	/* idle, unregulated CPU 0 left out; CPU 3 carries two workloads */
	cr_expect_null(strstr(s, "<td class=\"num\">0</td><td>be"));
	cr_expect(strstr(s, "<td class=\"num\">3</td><td>be</td><td>writer, "
			 "compute</td><td class=\"num\">4.864</td><td class="
			 "\"num\">2.432</td>"));
	cr_expect(strstr(s, "read: sum 9.98 GB/s"));
	cr_expect(strstr(s, "id=\"chart-budgets\" class=\"chart\""));
	/* no profiles linked: the LMS chart says what is missing */
	cr_expect(strstr(s, "id=\"chart-lms\" class=\"chart missing\""));
	cr_expect(strstr(s, "was never validated"));
	free(s);
	free(doc);
}

Test(report_cli, out_file_and_json_result)
{
	struct run_out o;
	char out[256];
	const char *args[] = { "--json", "--out", out, NULL };
	json_t *doc, *rep;
	char *page;

	make_db(FIX_ALL);
	snprintf(out, sizeof(out), "%.200s.html", db_path);
	cr_assert_eq(run_report(&o, "memcal", db_path, args), 0, "%s", o.out);
	doc = json_loads(o.out, 0, NULL);
	cr_assert(doc, "not JSON: %s", o.out);
	cr_expect(json_is_true(json_object_get(doc, "ok")));
	rep = json_object_get(doc, "result");
	cr_expect_str_eq(json_string_value(json_object_get(rep, "out")), out);
	cr_expect_str_eq(json_string_value(json_object_get(rep, "format")),
			 "html");
	cr_expect_eq(json_integer_value(json_object_get(rep, "charts")), 4);
	cr_expect_eq(json_integer_value(json_object_get(rep, "run_id")), 1);
	cr_expect_geq(json_array_size(json_object_get(rep,
						      "report_warnings")), 3);
	json_decref(doc);
	page = slurp(out);
	cr_assert(page);
	cr_expect(!strncmp(page, "<!DOCTYPE html>", 15));
	free(page);
	run_out_free(&o);
}

Test(report_cli, json_mode_picks_a_file_name)
{
	struct run_out o;
	const char *args[] = { "--json", "--format", "csv", NULL };
	char cwd[512], *dir;

	make_db(FIX_ALL);
	cr_assert(getcwd(cwd, sizeof(cwd)));
	dir = strdup(db_path);
	*strrchr(dir, '/') = '\0';
	cr_assert_eq(chdir(dir), 0);
	cr_expect_eq(run_report(&o, "memtune", db_path, args), 0);
	cr_expect(strstr(o.out, "\"out\": \"memtune-report-config1.csv\""),
		  "%s", o.out);
	cr_expect_eq(access("memtune-report-config1.csv", R_OK), 0);
	run_out_free(&o);
	cr_assert_eq(chdir(cwd), 0);
	free(dir);
}

Test(report_cli, text_mode_out_file_and_dash)
{
	struct run_out o;
	char out[256];
	const char *args[] = { "--out", out, "--format", "json", NULL };
	const char *dash[] = { "--out", "-", "--format", "csv", NULL };

	make_db(FIX_ALL);
	snprintf(out, sizeof(out), "%.200s.json", db_path);
	cr_assert_eq(run_report(&o, "memcal", db_path, args), 0);
	cr_expect(strstr(o.out, "wrote "), "%s", o.out);
	cr_expect_eq(access(out, R_OK), 0);
	run_out_free(&o);
	cr_assert_eq(run_report(&o, "memcal", db_path, dash), 0);
	cr_expect(!strncmp(o.out, "dataset,series,", 15));
	run_out_free(&o);
}

Test(report_cli, errors)
{
	struct run_out o;
	const char *bad_run[] = { "--json", "--run", "999", NULL };
	const char *bad_fmt[] = { "--format", "pdf", NULL };
	const char *extra[] = { "junk", NULL };
	const char *bad_cfg[] = { "--config", "7", NULL };
	const char *bad_out[] = { "--out", "/nonexistent-dir/x.html", NULL };

	make_db(FIX_ALL);
	cr_expect_eq(run_report(&o, "memcal", db_path, bad_run), 1);
	cr_expect(strstr(o.out, "\"error\"") &&
		  strstr(o.out, "no calibration run 999"), "%s", o.out);
	run_out_free(&o);
	cr_expect_eq(run_report(&o, "memcal", db_path, bad_fmt), 2);
	cr_expect(strstr(o.err, "unknown format 'pdf'"));
	run_out_free(&o);
	cr_expect_eq(run_report(&o, "memcal", db_path, extra), 2);
	run_out_free(&o);
	cr_expect_eq(run_report(&o, "memtune", db_path, bad_cfg), 1);
	cr_expect(strstr(o.err, "7"), "%s", o.err);
	run_out_free(&o);
	cr_expect_eq(run_report(&o, "memcal", db_path, bad_out), 1);
	cr_expect(strstr(o.err, "cannot write /nonexistent-dir/x.html"));
	run_out_free(&o);
	cr_expect_eq(run_report(&o, "memcal", "/nonexistent-dir/memcal.db",
				bad_run), 1);
	cr_expect(strstr(o.out, "/nonexistent-dir"), "%s", o.out);
	run_out_free(&o);
}

Test(report_cli, no_database_file_is_an_error)
{
	struct run_out o;

	cr_expect_eq(run_report(&o, "memtune", "/nonexistent-dir/memcal.db",
				NULL), 1);
	cr_expect_str_eq(o.out, "", "no report for a database that is not "
			 "there");
	run_out_free(&o);
}

Test(report_cli, database_is_not_modified)
{
	struct run_out o;
	char *before, *after;

	make_db(FIX_ALL);
	before = slurp(db_path);
	cr_assert_eq(run_report(&o, "memtune", db_path, NULL), 0);
	run_out_free(&o);
	after = slurp(db_path);
	cr_assert(before && after);
	cr_expect_eq(memcmp(before, after, 4096), 0);
	free(before);
	free(after);
}
