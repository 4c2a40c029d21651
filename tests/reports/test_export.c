// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_export.c - the CSV and JSON exports: they parse (an RFC 4180 reader
 * here, jansson for JSON), they carry every stored row, and their numbers
 * equal the database's and each other's.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_report.h"
#include "memcal_db.h"
#include "report_run.h"

#define NCOL 10

/**
 * struct csv - a parsed CSV document.
 * @rows:   rows of NCOL fields each (malloc'd strings).
 * @n:      number of rows, header included.
 */
struct csv {
	char *(*rows)[NCOL];
	size_t n;
};

/*
 * parse_csv - RFC 4180: quoted fields may hold commas, quotes (doubled)
 * and newlines.  Every row must have exactly NCOL fields.
 */
static void parse_csv(const char *s, struct csv *c)
{
	char field[2048];
	size_t len = 0, col = 0;
	bool quoted = false;

	c->rows = NULL;
	c->n = 0;
	while (*s) {
		if (!col && !len && !quoted) {
			c->rows = realloc(c->rows, (c->n + 1) * sizeof(*c->rows));
			memset(c->rows[c->n], 0, sizeof(c->rows[c->n]));
			c->n++;
		}
		if (quoted) {
			if (*s == '"' && s[1] == '"') {
				field[len++] = '"';
				s += 2;
			} else if (*s == '"') {
				quoted = false;
				s++;
			} else {
				field[len++] = *s++;
			}
			continue;
		}
		if (*s == '"' && !len) {
			quoted = true;
			s++;
		} else if (*s == ',' || *s == '\n') {
			cr_assert_lt(col, NCOL, "row %zu has too many fields", c->n);
			field[len] = '\0';
			c->rows[c->n - 1][col++] = strdup(field);
			len = 0;
			if (*s == '\n') {
				cr_assert_eq(col, NCOL, "row %zu has %zu fields",
					     c->n, col);
				col = 0;
			}
			s++;
		} else {
			field[len++] = *s++;
		}
		cr_assert_lt(len, sizeof(field));
	}
	cr_assert_eq(col, 0, "last line not terminated");
}

/* free_csv - release a parsed document. */
static void free_csv(struct csv *c)
{
	for (size_t i = 0; i < c->n; i++)
		for (int k = 0; k < NCOL; k++)
			free(c->rows[i][k]);
	free(c->rows);
}

/* rows_of - number of rows of @dataset. */
static size_t rows_of(const struct csv *c, const char *dataset)
{
	size_t n = 0;

	for (size_t i = 1; i < c->n; i++)
		n += !strcmp(c->rows[i][0], dataset);
	return n;
}

/* find - the first row of @dataset whose series is @series. */
static char **find(const struct csv *c, const char *dataset,
		   const char *series)
{
	for (size_t i = 1; i < c->n; i++)
		if (!strcmp(c->rows[i][0], dataset) &&
		    !strcmp(c->rows[i][1], series))
			return c->rows[i];
	return NULL;
}

/* rel_eq - @a and @b agree to 1e-9 relative. */
static bool rel_eq(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-12;
}

static char db_path[128];
static struct fix_ids ids;

/* export - run @tool report --format @fmt on a full fixture. */
static char *export(const char *tool, const char *fmt)
{
	const char *args[] = { "--format", fmt, NULL };
	struct run_out o;
	const char *dir = fix_tmpdir();

	cr_assert(dir);
	snprintf(db_path, sizeof(db_path), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(db_path, FIX_ALL, &ids), 0);
	cr_assert_eq(run_report(&o, tool, db_path, args), 0, "%s", o.err);
	free(o.err);
	return o.out;
}

/**
 * struct bw_cursor - walks the stored bandwidth rows beside the CSV rows.
 * @c: the CSV.  @next: index of the next CSV row to compare.
 */
struct bw_cursor {
	const struct csv *c;
	size_t next;
};

/* match_bw - memcal_db_bw_list() callback: the next "bandwidth" row. */
static int match_bw(const struct memcal_bw *bw, void *user)
{
	struct bw_cursor *k = user;
	char **row = NULL, series[48];

	while (k->next < k->c->n && strcmp(k->c->rows[k->next][0], "bandwidth"))
		k->next++;
	cr_assert_lt(k->next, k->c->n, "CSV has fewer bandwidth rows");
	row = k->c->rows[k->next++];
	snprintf(series, sizeof(series), "%s/%s", bw->kind, bw->scope);
	cr_expect_str_eq(row[1], series);
	cr_expect_eq(atoi(row[3]), bw->n_cpus);
	cr_expect(rel_eq(strtod(row[5], NULL), bw->median_bps));
	cr_expect(rel_eq(strtod(row[7], NULL), bw->min_bps));
	cr_expect(rel_eq(strtod(row[8], NULL), bw->max_bps));
	cr_expect_str_eq(row[6], "B/s");
	return 0;
}

Test(report_csv, parses_and_matches_the_database)
{
	char *s = export("memtune", "csv");
	struct csv c;
	struct bw_cursor k;
	char err[256];
	memcal_db *db;
	char **row;

	parse_csv(s, &c);
	cr_assert_gt(c.n, 1);
	cr_expect_str_eq(c.rows[0][0], "dataset");
	cr_expect_str_eq(c.rows[0][9], "note");
	cr_expect_eq(rows_of(&c, "bandwidth"), 3 * (4 + 3));
	cr_expect_eq(rows_of(&c, "latency"), 8 + 5);
	cr_expect_eq(rows_of(&c, "sustainable"), 2);
	cr_expect_eq(rows_of(&c, "overhead"), 4 * 8);
	cr_expect_eq(rows_of(&c, "budget"), 3 * 2);
	cr_expect_eq(rows_of(&c, "validation_regulated"), 3);
	cr_expect_eq(rows_of(&c, "validation_static"), 3);
	/* best-effort 'video' and 'compress', three conditions each */
	cr_expect_eq(rows_of(&c, "validation_throughput"), 2 * 3);
	cr_expect_eq(rows_of(&c, "job_latency"), 4);
	cr_expect_eq(rows_of(&c, "job_deadline_misses"), 4);
	cr_expect_eq(rows_of(&c, "lms_actual"), 200);
	cr_expect_eq(rows_of(&c, "lms_predicted"), 200);
	cr_expect_geq(rows_of(&c, "warning"), 3);
	cr_assert_eq(memcal_db_open(db_path, MEMCAL_DB_OPEN_READONLY, &db, err,
				    sizeof(err)), 0);
	k = (struct bw_cursor){ &c, 1 };
	cr_expect_eq(memcal_db_bw_list(db, ids.run_id, match_bw, &k), 0);
	memcal_db_close(db);
	row = find(&c, "sustainable", "read");
	cr_assert(row);
	cr_expect(rel_eq(strtod(row[5], NULL), FIX_SUS_READ));
	cr_expect_str_eq(row[9], "latency <= 1.5 x idle");
	cr_assert(find(&c, "sustainable", "write (lower bound)"));
	row = find(&c, "summary", "peak_read");
	cr_assert(row);
	cr_expect(rel_eq(strtod(row[5], NULL), FIX_PEAK_READ));
	cr_expect_str_eq(row[3], "4");
	/* one core: the same figure as the page's and the JSON's */
	row = find(&c, "summary", "single_core_read");
	cr_assert(row);
	cr_expect(rel_eq(strtod(row[5], NULL), 10e9));
	row = find(&c, "summary", "period");
	cr_assert(row);
	cr_expect_str_eq(row[5], "1000");
	cr_expect(strstr(row[9], "shortest period"));
	/* a field with a comma, quotes or '<' survives quoting */
	row = find(&c, "validation_unregulated", FIX_ESCAPED_WL);
	cr_assert(row, "workload with special characters lost");
	cr_expect(rel_eq(strtod(row[5], NULL), 1.55));
	/* static beside regulated; a row without it says so, no zeros */
	row = find(&c, "validation_static", "video");
	cr_assert(row);
	cr_expect(rel_eq(strtod(row[5], NULL), 1.85));
	cr_expect_str_eq(row[8], "2400", "static throttles");
	row = find(&c, "validation_static", "compress");
	cr_assert(row);
	cr_expect_str_eq(row[5], "");
	cr_expect_str_eq(row[9], "static not measured");
	row = find(&c, "validation_throughput", "video static");
	cr_assert(row);
	cr_expect(rel_eq(strtod(row[5], NULL), 4.0 / 7.4));
	row = find(&c, "validation_throughput", "compress static");
	cr_assert(row);
	cr_expect_str_eq(row[5], "");
	cr_expect_str_eq(row[9], "not measured");
	free_csv(&c);
	free(s);
}

/* number_at - the number at @key of @obj (NAN when absent or null). */
static double number_at(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

Test(report_json, parses_and_matches_the_database)
{
	char *s = export("memtune", "json");
	json_error_t jerr;
	json_t *doc = json_loads(s, 0, &jerr), *a, *v;
	size_t i;

	cr_assert(doc, "not JSON: %s at line %d", jerr.text, jerr.line);
	cr_expect_str_eq(json_string_value(json_object_get(doc, "schema")),
			 "memcal.report/2");
	cr_expect_str_eq(json_string_value(json_object_get(doc, "tool")),
			 "memtune");
	cr_expect_eq(json_integer_value(json_object_get(doc, "charts")), 8);
	a = json_object_get(doc, "job_latency");
	cr_expect_eq(json_array_size(a), 4);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(a, 2),
		"condition")), "static");
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(a, 1),
		"p99_ns")), 21000000);
	cr_expect_eq(json_integer_value(json_object_get(json_array_get(a, 1),
		"deadline_misses")), 2);
	cr_expect_str_eq(json_string_value(json_object_get(
		json_object_get(doc, "platform"), "hostname")), FIX_HOST);
	cr_expect_eq(json_array_size(json_object_get(doc, "bandwidth")), 21);
	cr_expect_eq(json_array_size(json_object_get(doc, "latency")), 13);
	a = json_object_get(doc, "sustainable");
	cr_assert_eq(json_array_size(a), 2);
	json_array_foreach(a, i, v) {
		const char *t = json_string_value(json_object_get(v, "traffic"));

		cr_expect(rel_eq(number_at(v, "bandwidth_bps"),
				 !strcmp(t, "read") ? FIX_SUS_READ :
				 FIX_SUS_WRITE));
		cr_expect_eq(json_is_true(json_object_get(v, "lower_bound")),
			     strcmp(t, "read") != 0);
	}
	v = json_object_get(doc, "summary");
	cr_expect(rel_eq(number_at(v, "peak_read_bps"), FIX_PEAK_READ));
	cr_expect(rel_eq(number_at(v, "single_core_read_bps"), 10e9));
	cr_expect_eq(json_integer_value(json_object_get(v,
		"overhead_master_cpu")), FIX_MASTER);
	cr_expect(json_is_true(json_object_get(v, "overhead_proxy")));
	cr_expect(json_is_false(json_object_get(v, "pmu_available")));
	cr_expect_eq(json_array_size(json_object_get(doc, "overhead")), 32);
	v = json_object_get(doc, "config");
	cr_expect_eq(json_integer_value(json_object_get(v, "period_us")),
		     FIX_PERIOD_US);
	cr_expect(strstr(json_string_value(json_object_get(v, "master_reason")),
			 "runs no workload"));
	cr_expect_str_eq(json_string_value(json_object_get(json_object_get(v,
		"document"), "format")), "memcal.tuned-config");
	a = json_object_get(doc, "budgets");
	cr_assert_eq(json_array_size(a), 3);
	cr_expect(rel_eq(number_at(json_array_get(a, 1), "read_bps"), 4e9));
	cr_expect(json_is_null(json_object_get(json_array_get(a, 2),
					       "read_events")));
	a = json_object_get(json_object_get(doc, "validation"), "results");
	cr_expect_eq(json_array_size(a), 3);
	cr_expect_str_eq(json_string_value(json_object_get(json_array_get(a, 0),
		"workload")), FIX_ESCAPED_WL);
	cr_expect(json_is_true(json_object_get(json_object_get(doc,
		"validation"), "static")));
	v = json_array_get(a, 1);
	cr_expect(rel_eq(number_at(v, "slowdown_static"), 1.85));
	cr_expect(rel_eq(number_at(v, "throughput_regulated"), 4.0 / 5.9));
	cr_expect_eq(json_integer_value(json_object_get(v, "static_throttles")),
		     2400);
	v = json_array_get(a, 2);
	cr_expect(json_is_false(json_object_get(v, "has_static")));
	cr_expect(json_is_null(json_object_get(v, "static_ns")));
	cr_expect(json_is_null(json_object_get(v, "slowdown_static")));
	cr_expect(json_is_null(json_object_get(v, "throughput_static")));
	v = json_object_get(doc, "lms");
	cr_expect_eq(json_array_size(json_object_get(v, "actual_bps")), 200);
	cr_expect_eq(json_array_size(json_object_get(v, "predicted_bps")), 200);
	cr_expect_geq(json_array_size(json_object_get(doc, "warnings")), 3);
	cr_expect_eq(json_array_size(json_object_get(doc, "missing")), 0,
		     "%s", json_dumps(json_object_get(doc, "missing"), 0));
	json_decref(doc);
	free(s);
}

Test(report_json, json_and_csv_agree)
{
	char *j = export("memcal", "json"), *s;
	json_t *doc = json_loads(j, 0, NULL), *a;
	const char *args[] = { "--format", "csv", NULL };
	struct run_out o;
	struct csv c;
	size_t k = 0;

	cr_assert(doc);
	cr_assert_eq(run_report(&o, "memcal", db_path, args), 0);
	s = o.out;
	parse_csv(s, &c);
	a = json_object_get(doc, "overhead");
	for (size_t i = 1; i < c.n; i++) {
		json_t *p;

		if (strcmp(c.rows[i][0], "overhead"))
			continue;
		p = json_array_get(a, k++);
		cr_assert(p);
		cr_expect_eq(atoi(c.rows[i][2]),
			     json_integer_value(json_object_get(p, "cpu")));
		cr_expect(rel_eq(strtod(c.rows[i][5], NULL),
				 number_at(p, "ratio_median")));
	}
	cr_expect_eq(k, json_array_size(a));
	/* a memcal report carries no tuning data */
	cr_expect_null(json_object_get(doc, "config"));
	cr_expect_eq(rows_of(&c, "budget"), 0);
	free_csv(&c);
	free(s);
	free(o.err);
	json_decref(doc);
	free(j);
}

Test(report_json, family_in_json_and_csv_alike)
{
	char *j = export("memcal", "json"), *s;
	json_t *doc = json_loads(j, 0, NULL), *mix, *c;
	const char *args[] = { "--format", "csv", NULL };
	struct run_out o;
	struct csv csv;
	size_t i;
	char **row;

	cr_assert(doc);
	mix = json_object_get(doc, "mix_curves");
	cr_assert_eq(json_array_size(mix), 5, "one curve per read share");
	cr_assert_eq(run_report(&o, "memcal", db_path, args), 0);
	s = o.out;
	parse_csv(s, &csv);
	cr_expect_eq(rows_of(&csv, "mix_latency"), 5 * 5);
	cr_expect_eq(rows_of(&csv, "mix_sustainable"), 5);
	json_array_foreach(mix, i, c) {
		int pct = (int)json_integer_value(json_object_get(c, "read_pct"));
		bool lb = json_is_true(json_object_get(c, "lower_bound"));
		char series[64];

		cr_expect_eq(pct, 100 - 25 * (int)i);
		cr_expect_eq(json_array_size(json_object_get(c, "points")), 5);
		snprintf(series, sizeof(series), "%d%% read%s", pct,
			 lb ? " (lower bound)" : "");
		row = find(&csv, "mix_sustainable", series);
		cr_assert(row, "no CSV row %s", series);
		cr_expect_eq(atoi(row[3]), pct);
		cr_expect(rel_eq(strtod(row[5], NULL),
				 number_at(c, "sustainable_bps")));
		cr_expect(rel_eq(strtod(row[7], NULL), number_at(c, "knee_bps")));
		cr_expect(rel_eq(strtod(row[8], NULL), number_at(c, "peak_bps")));
	}
	cr_expect(rel_eq(number_at(json_array_get(mix, 0), "sustainable_bps"),
			 FIX_SUS_READ));
	cr_expect(json_is_true(json_object_get(json_array_get(mix, 4),
					       "lower_bound")));
	free_csv(&csv);
	free(s);
	free(o.err);
	json_decref(doc);
	free(j);
}

Test(report_json, empty_database)
{
	const char *args[] = { "--format", "json", NULL };
	const char *dir = fix_tmpdir();
	struct run_out o;
	json_t *doc;

	snprintf(db_path, sizeof(db_path), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(db_path, 0, &ids), 0);
	cr_assert_eq(run_report(&o, "memtune", db_path, args), 0);
	doc = json_loads(o.out, 0, NULL);
	cr_assert(doc);
	cr_expect(json_is_null(json_object_get(doc, "run")));
	cr_expect(json_is_null(json_object_get(doc, "config")));
	cr_expect(json_is_null(json_object_get(json_object_get(doc, "summary"),
					       "peak_read_bps")));
	cr_expect_geq(json_array_size(json_object_get(doc, "missing")), 2);
	json_decref(doc);
	run_out_free(&o);
}
