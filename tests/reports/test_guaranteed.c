// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_guaranteed.c - the guaranteed bandwidth in the calibration report:
 * loaded from the fixture database (random-line read 2.5 GB/s and write
 * 1.5 GB/s, single-bank skipped), the figure that stands for each class,
 * drawn on the streaming bandwidth chart, a "guaranteed" dataset in the CSV and array
 * in the JSON, each figure with its method, status and criterion.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_db.h"
#include "memcal_db.h"
#include "report.h"

static struct report rep;

/* load - the common fixture database, loaded as `memcal report` does. */
static void load(void)
{
	char path[] = "/tmp/memcal-guar-XXXXXX", err[256];
	struct fixture_ids ids;
	memcal_db *db;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_READONLY, &db, err,
				    sizeof(err)), 0, "%s", err);
	memset(&rep, 0, sizeof(rep));
	rep.tool = "memcal";
	cr_assert_eq(report_load_calibration(&rep, db, ids.run_id), 0);
	memcal_db_close(db);
	unlink(path);
}

/* render - @fn's output for the loaded report as a string. */
static char *render(int (*fn)(FILE *, const struct report *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	fn(f, &rep);
	fclose(f);
	return buf;
}

Test(report_guaranteed, loaded_and_picked_per_class, .init = load,
     .fini = NULL)
{
	const struct memcal_guaranteed *rd = report_guaranteed(&rep, "read");
	const struct memcal_guaranteed *wr = report_guaranteed(&rep, "write");

	cr_assert_eq(rep.cal.n_guar, 4);
	cr_assert(rd && wr);
	cr_expect_str_eq(rd->method, "random-line");
	cr_expect_eq(rd->bandwidth_bps, 2.5e9);
	cr_expect_str_eq(wr->method, "random-line");
	cr_expect_eq(wr->bandwidth_bps, 1.5e9);
	/* a declared figure stands before a measured one */
	snprintf(rep.cal.guar[1].method, sizeof(rep.cal.guar[1].method), "declared");
	snprintf(rep.cal.guar[1].status, sizeof(rep.cal.guar[1].status), "declared");
	rep.cal.guar[1].bandwidth_bps = 1e9;
	cr_expect_eq(report_guaranteed(&rep, "read"), &rep.cal.guar[1]);
	report_free(&rep);
}

Test(report_guaranteed, drawn_on_the_streaming_bandwidth_chart, .init = load)
{
	char *svg = render(report_chart_bandwidth);

	cr_expect(strstr(svg, "<g class=\"guaranteed\" data-traffic=\"read\" "
			 "data-method=\"random-line\" data-bps=\"2.5e+09\">"),
		  "%s", svg);
	cr_expect(strstr(svg, "<g class=\"guaranteed\" data-traffic=\"write\" "
			 "data-method=\"random-line\" data-bps=\"1.5e+09\">"));
	cr_expect(strstr(svg, "guaranteed read 2.50 GB/s"));
	cr_expect(strstr(svg, "(random-line)"));
	cr_expect(strstr(svg, "median of 5 repetitions"),
		  "the criterion is in the tooltip");
	cr_expect_null(strstr(svg, "data-method=\"single-bank\""),
		       "a skipped figure is not drawn");
	free(svg);
	report_free(&rep);
}

Test(report_guaranteed, html_table_lists_every_figure, .init = load)
{
	char *html = render(report_write_html_tables);

	cr_expect(strstr(html, "<h3>Guaranteed bandwidth (every access a row "
			 "miss)</h3>"), "%s", html);
	cr_expect(strstr(html, "<tr><td>read</td><td>random-line</td>"
			 "<td>measured</td><td class=\"num\">2.50</td>"
			 "<td class=\"num\">2.40</td><td class=\"num\">2.60"
			 "</td><td class=\"num\">0-3</td><td class=\"num\">16"
			 "</td><td class=\"num\">5</td><td>yes</td>"),
		  "the read figure stands for its class: %s", html);
	cr_expect(strstr(html, "<tr><td>write</td><td>single-bank</td>"
			 "<td>skipped</td><td>-</td><td>-</td><td>-</td>"
			 "<td>-</td><td class=\"num\">0</td><td class=\"num\">"
			 "0</td><td>no</td><td>-</td><td>the DRAM address "
			 "mapping"), "a skipped figure shows its reason, no "
			 "figure: %s", html);
	free(html);
	report_free(&rep);
}

Test(report_guaranteed, csv_and_json_carry_every_figure, .init = load)
{
	char *csv = render(report_write_csv), *js = render(report_write_json);
	json_t *doc = json_loads(js, 0, NULL), *arr, *e;
	size_t i, stands = 0, skipped = 0;

	cr_expect(strstr(csv, "guaranteed,read/random-line,,4,cores,2500000000,"
			 "B/s,2400000000,2600000000,\"measured, stands; median "
			 "of 5 repetitions, random lines from every core\""),
		  "%s", csv);
	cr_expect(strstr(csv, "guaranteed,write/single-bank,,,cores,,B/s,,,"
			 "skipped; the DRAM address mapping of Cortex-A53 "
			 "boards is not in the table\n"), "%s", csv);
	cr_assert(doc, "report JSON parses");
	arr = json_object_get(doc, "guaranteed");
	if (!arr)
		arr = json_object_get(json_object_get(doc, "calibration"),
				      "guaranteed");
	cr_assert_eq(json_array_size(arr), 4, "%s", js);
	json_array_foreach(arr, i, e) {
		const char *st = json_string_value(json_object_get(e, "status"));

		cr_expect(json_string_value(json_object_get(e, "method")));
		cr_expect(json_string_value(json_object_get(e, "criterion")));
		stands += json_is_true(json_object_get(e, "stands"));
		if (!strcmp(st, "skipped")) {
			skipped++;
			cr_expect(*json_string_value(json_object_get(e, "source")),
				  "a skip says why");
			cr_expect(json_is_false(json_object_get(e, "stands")));
		}
	}
	cr_expect_eq(stands, 2, "one figure stands per class");
	cr_expect_eq(skipped, 2);
	json_decref(doc);
	free(csv);
	free(js);
	report_free(&rep);
}
