// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_show.c - `memcal show` on the report fixture database: the run's
 * text against golden files (tests/fixtures/show/; MEMCAL_UPDATE_GOLDEN=1
 * rewrites them) with every figure the help promises (bandwidth, loaded
 * latency, sustainable bandwidth, PMU, overhead points and models), notes
 * wrapped at word boundaries, and each headline figure equal to the one
 * `memcal report` gives for the same run.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memcal_db.h"
#include "fixture_report.h"
#include "report_run.h"
#include "results.h"

#define GOLDEN_DIR MEMCAL_SOURCE_DIR "/tests/fixtures/show/"

int cal_cmd_show(struct cli_ctx *ctx, int argc, char **argv);

static char db_path[128];
static struct fix_ids ids;

/* make_db - the full report fixture in a fresh directory. */
static void make_db(void)
{
	const char *dir = fix_tmpdir();

	cr_assert(dir);
	snprintf(db_path, sizeof(db_path), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(db_path, FIX_ALL, &ids), 0);
}

/* show - `memcal show ARGS` on the fixture; its stdout. */
static char *show(const char *const *args)
{
	struct run_out o;

	run_command(&o, cal_cmd_show, "memcal", "show", db_path, args);
	cr_assert_eq(o.rc, 0, "show failed: %s", o.err);
	free(o.err);
	return o.out;
}

/* expect_golden - @got equals tests/fixtures/show/@name. */
static void expect_golden(const char *got, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), GOLDEN_DIR "%s", name);
	golden_check(path, got);
}

/* longest_line - the most columns any line of @s takes. */
static size_t longest_line(const char *s)
{
	size_t most = 0;

	while (*s) {
		size_t n = strcspn(s, "\n");

		most = n > most ? n : most;
		s += n + (s[n] == '\n');
	}
	return most;
}

Test(show, run_lists_every_figure_it_promises)
{
	char id[32], *s;

	make_db();
	snprintf(id, sizeof(id), "%lld", (long long)ids.run_id);
	s = show((const char *const[]){ "--run", id, NULL });
	expect_golden(s, "fixture-run.txt");
	/* 80 columns, but for the notes' one word longer than a line */
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, "\n");

		cr_expect(n <= 80 || memchr(p, '/', n), "%zu columns: %.*s", n,
			  (int)n, p);
		p += n + (p[n] == '\n');
	}
	/* the loaded-latency points: 8 read and 5 write */
	cr_expect_eq(count_str(s, "\n  read   cpu 0   load 3   pace "), 8);
	cr_expect_eq(count_str(s, "\n  write  cpu 0   load 3   pace "), 5);
	cr_expect(strstr(s, "  23.80 GB/s   420.0 [407.4..436.8]\n"));
	/* the family: five mixes, the all-write one a lower bound */
	cr_expect_eq(count_str(s, "\n    GB/s@ns "), 5);
	cr_expect(strstr(s, "\n    0%  avx2         9.00      8.10 >=          "
			 "9.00     100.0  [lower bound]\n"));
	free(s);
	snprintf(id, sizeof(id), "%lld", (long long)ids.overhead_run_id);
	s = show((const char *const[]){ "--run", id, NULL });
	expect_golden(s, "fixture-overhead-run.txt");
	/* 4 cores x 8 periods, and one fitted model per core */
	cr_expect_eq(count_str(s, " us  compute proxy  "), 32);
	cr_expect(strstr(s, "\n  cpu 0   compute proxy  cost   25.300 us  "
			 "base 1.000  r2 0.990\n"));
	cr_expect(strstr(s, "\n  cpu 3   compute proxy  cost    3.400 us  "));
	free(s);
}

Test(show, notes_wrap_at_words_and_lose_nothing)
{
	char id[32], *s, *notes, *end, *joined, *w;
	const char *want = "machine busy before the run: up to 100% of a CPU "
			   "used by other processes; buffer on node 0 at "
			   "/sys/devices/system/node/node0/hugepages/"
			   "hugepages-2048kB/nr_hugepages_mempolicy; figures "
			   "may be low";

	make_db();
	snprintf(id, sizeof(id), "%lld", (long long)ids.run_id);
	s = show((const char *const[]){ "--run", id, NULL });
	notes = strstr(s, "\nNotes: ");
	cr_assert(notes);
	notes += 8;
	end = strstr(notes, "\n\n");
	cr_assert(end);
	*end = '\0';
	/* lines fit, but for the one word longer than a line */
	for (char *p = notes; *p;) {
		size_t n = strcspn(p, "\n");

		cr_expect(n <= 78 || memchr(p, '/', n), "line too long: %.*s",
			  (int)n, p);
		p += n + (p[n] == '\n');
	}
	/* the words, in order, each whole: joined back they are the notes */
	joined = calloc(1, strlen(notes) + 1);
	w = joined;
	for (char *p = notes; *p; p++)
		if (*p == '\n') {
			*w++ = ' ';
			p += strspn(p + 1, " ");
		} else {
			*w++ = *p;
		}
	cr_expect_str_eq(joined, want);
	free(joined);
	free(s);
}

Test(show, wrapped_text_never_cuts_a_word)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cal_print_wrapped(f, "note: ", "alpha beta gamma delta epsilon "
			     "zeta eta theta iota kappa lambda mu", 24);
	cal_print_wrapped(f, "> ", "a-very-long-word-that-cannot-fit "
			     "tail", 10);
	fclose(f);
	cr_expect_str_eq(buf, "note: alpha beta gamma\n"
			      "      delta epsilon zeta\n"
			      "      eta theta iota\n"
			      "      kappa lambda mu\n"
			      "> a-very-long-word-that-cannot-fit\n"
			      "  tail\n");
	cr_expect_leq(longest_line("note: alpha beta gamma"), 24);
	free(buf);
}

/* number - the number at @key of @o (NAN when absent or null). */
static double number(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

Test(show, headline_equals_the_reports_figures)
{
	struct run_out o;
	json_t *sh, *rep, *h = NULL, *sum, *sus;
	size_t i;
	json_t *e;

	make_db();
	run_command(&o, cal_cmd_show, "memcal", "show", db_path,
		    (const char *const[]){ "--json", NULL });
	cr_assert_eq(o.rc, 0, "%s", o.err);
	sh = json_loads(o.out, 0, NULL);
	run_out_free(&o);
	run_report(&o, "memcal", db_path, (const char *const[]){
		   "--format", "json", NULL });
	cr_assert_eq(o.rc, 0, "%s", o.err);
	rep = json_loads(o.out, 0, NULL);
	run_out_free(&o);
	cr_assert(sh && rep);
	/* show may wrap its document in an envelope: find the run */
	json_array_foreach(json_object_get(json_is_object(json_object_get(sh,
			   "result")) ? json_object_get(sh, "result") : sh,
			   "runs"), i, e)
		if (json_integer_value(json_object_get(e, "id")) == ids.run_id)
			h = json_object_get(e, "headline");
	cr_assert(json_is_object(h), "no headline of run %lld",
		  (long long)ids.run_id);
	sum = json_object_get(json_is_object(json_object_get(rep, "result")) ?
			      json_object_get(rep, "result") : rep, "summary");
	sus = json_object_get(json_is_object(json_object_get(rep, "result")) ?
			      json_object_get(rep, "result") : rep,
			      "sustainable");
	cr_assert(json_is_object(sum) && json_is_array(sus));
	/* one core: the per-core rows 9.85..10.15 GB/s average 10 GB/s */
	cr_expect_eq(number(h, "core_read_bps"),
		     number(sum, "single_core_read_bps"));
	cr_expect_eq(number(h, "core_write_bps"),
		     number(sum, "single_core_write_bps"));
	cr_expect_eq(number(h, "aggregate_read_bps"),
		     number(sum, "peak_read_bps"));
	cr_expect_eq(number(h, "aggregate_read_cores"),
		     number(sum, "peak_read_cores"));
	cr_expect_eq(number(h, "aggregate_write_bps"),
		     number(sum, "peak_write_bps"));
	cr_expect_eq(number(h, "aggregate_write_cores"),
		     number(sum, "peak_write_cores"));
	cr_expect(fabs(number(h, "core_read_bps") - 10e9) < 1);
	json_array_foreach(sus, i, e) {
		char key[64];

		snprintf(key, sizeof(key), "sustainable_%s_bps",
			 json_string_value(json_object_get(e, "traffic")));
		cr_expect_eq(number(h, key), number(e, "bandwidth_bps"), "%s",
			     key);
	}
	/* the family's figures, as the report's curves give them */
	sus = json_object_get(json_is_object(json_object_get(rep, "result")) ?
			      json_object_get(rep, "result") : rep,
			      "mix_curves");
	cr_assert_eq(json_array_size(json_object_get(h, "family")), 5);
	json_array_foreach(sus, i, e) {
		json_t *f = json_array_get(json_object_get(h, "family"), i);

		cr_expect_eq(number(f, "read_pct"), number(e, "read_pct"));
		cr_expect_eq(number(f, "sustainable_bps"),
			     number(e, "sustainable_bps"));
	}
	json_decref(sh);
	json_decref(rep);
}

/* result_of - the document of a command's stdout, out of its envelope. */
static json_t *result_of(const char *out)
{
	json_t *doc = json_loads(out, 0, NULL), *res;

	cr_assert(doc, "not JSON: %.200s", out);
	res = json_object_get(doc, "result");
	res = json_incref(json_is_object(res) ? res : doc);
	json_decref(doc);
	return res;
}

/* show_run_json - `memcal show --run @id --json`, its result. */
static json_t *show_run_json(int64_t id)
{
	struct run_out o;
	char arg[32];
	json_t *res;

	snprintf(arg, sizeof(arg), "%lld", (long long)id);
	run_command(&o, cal_cmd_show, "memcal", "show", db_path,
		    (const char *const[]){ "--run", arg, "--json", NULL });
	cr_assert_eq(o.rc, 0, "%s", o.err);
	res = result_of(o.out);
	run_out_free(&o);
	return res;
}

/* has_median - a row of @rows has exactly @v as its median. */
static bool has_median(json_t *rows, double v)
{
	size_t i;
	json_t *e;

	json_array_foreach(rows, i, e)
		if (json_real_value(json_object_get(e, "median_bps")) == v)
			return true;
	return false;
}

/*
 * `memcal show --run ID --json` and `memcal report --run ID --format
 * json` print every figure of the run the same, digit for digit: a row
 * with twelve significant digits is added so that a writer with fewer
 * prints it differently.  The report's overhead figures are those of the
 * board's overhead run, which show prints for that run.
 */
Test(show, run_figures_equal_the_reports_digit_for_digit)
{
	static const char *const keys[] = { "bandwidth", "latency",
		"sustainable", "mix_curves", "guaranteed", "pmu", "pmu_events",
		"pmu_selfchecks", "cpu_kinds" };
	struct memcal_bw odd = { .kind = "read", .scope = "core", .cpus = "3",
		.n_cpus = 1, .variant = "c", .buffer_bytes = 1 << 30,
		.read_share = 1, .repetitions = 3,
		.median_bps = 12345678901.234567, .min_bps = 1.1111111111111e10,
		.max_bps = 1.3333333333333e10 };
	json_t *sh, *shov, *rep;
	struct run_out o;
	char arg[32], err[256];
	memcal_db *db;

	make_db();
	cr_assert_eq(memcal_db_open(db_path, 0, &db, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_bw_store(db, ids.run_id, &odd), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
	sh = show_run_json(ids.run_id);
	shov = show_run_json(ids.overhead_run_id);
	snprintf(arg, sizeof(arg), "%lld", (long long)ids.run_id);
	run_report(&o, "memcal", db_path, (const char *const[]){
		   "--run", arg, "--format", "json", NULL });
	cr_assert_eq(o.rc, 0, "%s", o.err);
	rep = result_of(o.out);
	run_out_free(&o);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_t *a = json_object_get(sh, keys[k]);
		json_t *b = json_object_get(rep, keys[k]);

		cr_assert(a && b, "%s missing: show %p, report %p", keys[k],
			  (void *)a, (void *)b);
		cr_expect(json_equal(a, b), "%s differs", keys[k]);
	}
	cr_expect(json_equal(json_object_get(shov, "overhead"),
			     json_object_get(rep, "overhead")));
	cr_expect(json_equal(json_object_get(shov, "overhead_models"),
			     json_object_get(rep, "overhead_models")));
	cr_expect_gt(json_array_size(json_object_get(rep, "overhead")), 0);
	/* the added row, parsed back: all twelve digits */
	cr_expect(has_median(json_object_get(sh, "bandwidth"), 12345678901.2));
	cr_expect(has_median(json_object_get(rep, "bandwidth"),
			     12345678901.2));
	json_decref(sh);
	json_decref(shov);
	json_decref(rep);
}

Test(show, livelocked_points_are_lower_bounds)
{
	char id[32], *s;

	snprintf(db_path, sizeof(db_path), "%s/charts.db", fix_tmpdir());
	cr_assert_eq(fix_create_charts(db_path, &ids), 0);
	snprintf(id, sizeof(id), "%lld", (long long)ids.overhead_run_id);
	s = show((const char *const[]){ "--run", id, NULL });
	cr_expect_eq(count_str(s, "livelocked: lower bound"), 1);
	cr_expect(strstr(s, "  cpu 1       20 us  compute proxy  master >= "
			 "2.200 [2.178..2.222] livelocked: lower bound\n"),
		  "%s", s);
	free(s);
}

/*
 * A figure stored as wide says so wherever it is printed: show's table
 * and JSON, the report's HTML table and CSV note.
 */
Test(show, a_wide_spread_is_shown_with_its_figure)
{
	struct memcal_bw wide = { .kind = "ntwrite", .scope = "aggregate",
		.cpus = "0-1", .n_cpus = 2, .variant = "avx2",
		.buffer_bytes = 1 << 30, .repetitions = 9, .median_bps = 3e10,
		.min_bps = 2e10, .max_bps = 4e10, .spread = 0.075,
		.spread_wide = true };
	char arg[32], err[256], *s;
	struct run_out o;
	json_t *sh, *row, *found = NULL;
	memcal_db *db;
	size_t i;

	make_db();
	cr_assert_eq(memcal_db_open(db_path, 0, &db, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_bw_store(db, ids.run_id, &wide), 0);
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
	snprintf(arg, sizeof(arg), "%lld", (long long)ids.run_id);
	s = show((const char *const[]){ "--run", arg, NULL });
	cr_expect(strstr(s, "  ntwrite  aggregate cpus 0-1      avx2      30.00 "
			 "[20.00..40.00] +-7.5% WIDE\n"), "%s", s);
	cr_expect(strstr(s, "[9.36..10.15] +-1.2%\n"), "a tight one: %s", s);
	free(s);
	sh = show_run_json(ids.run_id);
	json_array_foreach(json_object_get(sh, "bandwidth"), i, row)
		if (!strcmp(json_string_value(json_object_get(row, "kind")),
			    "ntwrite") &&
		    json_real_value(json_object_get(row, "median_bps")) == 3e10)
			found = row;
	cr_assert(found, "the wide row in show --json");
	cr_expect(json_is_true(json_object_get(found, "spread_wide")));
	cr_expect_float_eq(json_real_value(json_object_get(found, "spread")),
			   0.075, 1e-12);
	json_decref(sh);
	run_report(&o, "memcal", db_path, (const char *const[]){
		   "--run", arg, "--format", "html", NULL });
	cr_assert_eq(o.rc, 0, "%s", o.err);
	cr_expect(strstr(o.out, "7.5 WIDE"), "html table");
	run_out_free(&o);
	run_report(&o, "memcal", db_path, (const char *const[]){
		   "--run", arg, "--format", "csv", NULL });
	cr_assert_eq(o.rc, 0, "%s", o.err);
	cr_expect(strstr(o.out, "spread +-7.5% WIDE"), "csv note");
	run_out_free(&o);
}
