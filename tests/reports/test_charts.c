// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_charts.c - structural checks of the charts on the chart fixture
 * (fix_create_charts()): the overhead chart keeps "master on this core"
 * and "master elsewhere" apart, as the stored master of each point says,
 * and marks the livelocked point; the knee is never drawn past the
 * measured curve; small budgets next to a large ceiling get a log axis;
 * the LMS chart is drawn per regulation period, not per trace tick.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_report.h"
#include "memcal_db.h"
#include "report.h"
#include "report_run.h"

static struct report rep;
static struct fix_ids ids;

/* load - the chart fixture, loaded as `memtune report` loads it. */
static void load(void)
{
	const char *dir = fix_tmpdir();
	char path[128];

	cr_assert(dir);
	snprintf(path, sizeof(path), "%s/charts.db", dir);
	cr_assert_eq(fix_create_charts(path, &ids), 0);
	cr_assert_eq(fix_load_tuning(path, ids.config_id, &rep), 0);
}

/* draw - one chart of the loaded report as a string. */
static char *draw(int (*chart)(FILE *, const struct report *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	cr_assert_eq(chart(f, &rep), 0);
	fclose(f);
	cr_assert(!strstr(buf, "class=\"chart missing\""),
		  "the chart was not drawn");
	return buf;
}

/*
 * path_xs - the x coordinates of the vertices of the @which-th series
 * path (<path fill="none" ... d="...">) of @svg into @xs (at most @cap);
 * their number, or -1 when there is no such path.
 */
static int path_xs(const char *svg, int which, double *xs, int cap)
{
	const char *p = svg;
	int n = 0;

	for (int i = 0; i <= which; i++) {
		p = strstr(p, "<path fill=\"none\"");
		if (!p)
			return -1;
		p++;
	}
	p = strstr(p, " d=\"");
	cr_assert(p);
	for (p += 4; *p && *p != '"' && n < cap;) {
		char *end;

		if (*p == 'M' || *p == 'L') {
			xs[n++] = strtod(p + 1, &end);
			strtod(end, &end);
			p = end;
		} else {
			p++;
		}
	}
	return n;
}

Test(charts, overhead_series_follow_the_stored_master)
{
	char *s;
	double xs[64];

	load();
	s = draw(report_chart_overhead);
	/* two cores x two placements: four lines, none joining another's */
	cr_expect_eq(count_str(s, "<path fill=\"none\""), 4);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(path_xs(s, i, xs, 64), 4, "series %d", i);
	cr_expect(strstr(s, ">CPU 0, master on it</text>"));
	cr_expect(strstr(s, ">CPU 0, master on CPU 1</text>"));
	cr_expect(strstr(s, ">CPU 1, master on it</text>"));
	cr_expect(strstr(s, ">CPU 1, master on CPU 0</text>"));
	/* on-core lines are thick and solid, the others dashed */
	cr_expect_eq(count_str(s, "stroke-width=\"3.2\" stroke-linejoin="
			       "\"round\" d="), 2);
	cr_expect_eq(count_str(s, "stroke-width=\"1.6\" stroke-linejoin="
			       "\"round\" stroke-dasharray=\"6 3\" d="), 2);
	/* the livelocked point: its own marker, and a legend entry */
	cr_expect_eq(count_str(s, "class=\"mark lower-bound\""), 2);
	cr_expect(strstr(s, ">livelocked: lower bound</text>"));
	cr_expect(strstr(s, "livelocked: 20, 2.2 (lower bound)</title>"));
	free(s);
	report_free(&rep);
}

Test(charts, knee_not_drawn_past_the_curve)
{
	char *s, *knee, *end;
	double xs[64], lo = INFINITY, hi = -INFINITY;
	int n;

	load();
	s = draw(report_chart_latency);
	n = path_xs(s, 0, xs, 64);
	cr_assert_eq(n, 4);
	for (int i = 0; i < n; i++) {
		lo = fmin(lo, xs[i]);
		hi = fmax(hi, xs[i]);
	}
	knee = strstr(s, "<g class=\"knee\"");
	cr_assert(knee);
	end = strstr(knee, "</g>");
	cr_assert(end);
	*end = '\0';
	/* every line of the knee lies within the curve's x range */
	for (char *l = knee; (l = strstr(l, "<line ")); l++) {
		double x1 = strtod(strstr(l, "x1=\"") + 4, NULL);
		double x2 = strtod(strstr(l, "x2=\"") + 4, NULL);

		cr_expect(x1 >= lo - 0.01 && x1 <= hi + 0.01 &&
			  x2 >= lo - 0.01 && x2 <= hi + 0.01,
			  "knee line %.1f..%.1f past the curve %.1f..%.1f", x1,
			  x2, lo, hi);
	}
	/* the 75 GB/s knee is said, not drawn */
	cr_expect(strstr(knee, "knee read: &gt;= 75.0 GB/s, past the measured "
			 "curve"));
	free(s);
	report_free(&rep);
}

/* bar_height - the height of the bar whose tooltip is @title. */
static double bar_height(const char *svg, const char *title)
{
	char want[160];
	const char *t, *r;

	snprintf(want, sizeof(want), "<title>%s</title>", title);
	t = strstr(svg, want);
	cr_assert(t, "no bar %s", title);
	for (r = t; r > svg && strncmp(r, "<rect ", 6); r--)
		;
	return strtod(strstr(r, "height=\"") + 8, NULL);
}

Test(charts, small_budgets_next_to_a_large_ceiling_get_a_log_axis)
{
	char *s;

	load();
	s = draw(report_chart_budgets);
	cr_expect(strstr(s, "guaranteed bandwidth (GB/s, log scale)"));
	/* 1.26 GB/s next to 75 GB/s: a bar a reader can see and read */
	cr_expect_gt(bar_height(s, "CPU 0 read: 1.260 GB/s"), 60);
	cr_expect_gt(bar_height(s, "CPU 0 write: 0.600 GB/s"), 30);
	cr_expect(strstr(s, ">1.26</text>"));
	cr_expect(strstr(s, ">read: sustainable (lower bound) 75.00 GB/s"
			 "</text>"));
	free(s);
	report_free(&rep);
}

Test(charts, budgets_of_one_decade_stay_linear)
{
	char *s;

	rep = (struct report){ .tool = "memtune", .have_config = true };
	rep.cores = calloc(2, sizeof(*rep.cores));
	rep.cores[0] = (struct report_core_budget){ .cpu = 0,
		.read_bps = 5e9, .write_bps = 2e9 };
	rep.cores[1] = (struct report_core_budget){ .cpu = 1,
		.read_bps = 6e9, .write_bps = 3e9 };
	rep.n_cores = 2;
	s = draw(report_chart_budgets);
	cr_expect(strstr(s, "guaranteed bandwidth (GB/s)</text>"));
	cr_expect_null(strstr(s, "log scale"));
	free(s);
	report_free(&rep);
}

Test(charts, lms_drawn_at_the_regulation_period)
{
	char *s;
	double xs[256], first = 0;

	load();
	/* 2000 ticks of 100 us are 200 periods of 1000 us */
	cr_expect_eq(rep.lms.period_us, 1000);
	cr_expect_eq(rep.lms.n, FIX_CHARTS_TICKS / 10);
	for (int i = 0; i < 10; i++)
		first += (double)fix_charts_tick(i);
	cr_expect(fabs(rep.lms.actual[0] - first / 1e-3) < 1,
		  "first period %g B/s, want %g", rep.lms.actual[0],
		  first / 1e-3);
	s = draw(report_chart_lms);
	/* at most 150 periods, each a point of the actual series */
	cr_expect_eq(path_xs(s, 0, xs, 256), 150);
	cr_expect_eq(count_str(s, "<title>actual: "), 150);
	cr_expect(strstr(s, "150 of 200 periods of 1000 us shown"));
	free(s);
	report_free(&rep);
}
