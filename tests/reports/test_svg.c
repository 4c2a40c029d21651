// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_svg.c - the SVG writer's geometry: scales, nice numbers and ticks,
 * ranges, tick labels, segment clipping, XML escaping, and what a chart
 * actually writes (marks outside the plot dropped or cut, legend outside
 * the plot, placeholders).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_status.h"
#include "svg.h"

/*
 * capture - run @fn on a memstream and return the text (malloc'd).  Not
 * inlined: GCC 12's -Wdangling-pointer takes the string open_memstream
 * left in the local @buf for a pointer to @buf itself once this is inlined.
 */
static __attribute__((noinline)) char *capture(void (*fn)(FILE *, void *),
					       void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

Test(svg_scale, linear_maps_ends_and_middle)
{
	struct svg_scale s = { 0, 10, 100, 600, false };

	cr_expect_float_eq(report_svg_scale_map(&s, 0), 100, 1e-9);
	cr_expect_float_eq(report_svg_scale_map(&s, 10), 600, 1e-9);
	cr_expect_float_eq(report_svg_scale_map(&s, 2.5), 225, 1e-9);
	/* y axes run downwards */
	s = (struct svg_scale){ 0, 100, 400, 50, false };
	cr_expect_float_eq(report_svg_scale_map(&s, 100), 50, 1e-9);
	cr_expect_float_eq(report_svg_scale_map(&s, 50), 225, 1e-9);
}

Test(svg_scale, log_maps_decades_evenly_and_rejects_nonpositive)
{
	struct svg_scale s = { 10, 1000, 0, 200, true };

	cr_expect_float_eq(report_svg_scale_map(&s, 10), 0, 1e-9);
	cr_expect_float_eq(report_svg_scale_map(&s, 100), 100, 1e-9);
	cr_expect_float_eq(report_svg_scale_map(&s, 1000), 200, 1e-9);
	cr_expect(isnan(report_svg_scale_map(&s, 0)));
	cr_expect(isnan(report_svg_scale_map(&s, -5)));
}

Test(svg_scale, degenerate_interval_maps_to_middle)
{
	struct svg_scale s = { 5, 5, 0, 100, false };

	cr_expect_float_eq(report_svg_scale_map(&s, 5), 50, 1e-9);
}

Test(svg_ticks, nice_numbers)
{
	cr_expect_float_eq(report_svg_nice_num(0.13, true), 0.1, 1e-12);
	cr_expect_float_eq(report_svg_nice_num(1.6, true), 2, 1e-12);
	cr_expect_float_eq(report_svg_nice_num(3.4, true), 5, 1e-12);
	cr_expect_float_eq(report_svg_nice_num(7.5, true), 10, 1e-12);
	cr_expect_float_eq(report_svg_nice_num(2.1, false), 5, 1e-12);
	cr_expect_float_eq(report_svg_nice_num(26.5, false), 50, 1e-12);
	cr_expect_float_eq(report_svg_nice_num(-1, false), 1, 1e-12);
}

Test(svg_ticks, linear_ticks_are_nice_and_inside)
{
	struct svg_ticks t;

	cr_assert_eq(report_svg_linear_ticks(0, 1, 6, &t), 0);
	cr_expect_eq(t.n, 6);
	cr_expect_float_eq(t.step, 0.2, 1e-12);
	cr_expect_float_eq(t.v[5], 1, 1e-12);
	cr_assert_eq(report_svg_linear_ticks(0, 27.3, 6, &t), 0);
	cr_expect_float_eq(t.step, 5, 1e-12);
	cr_expect_eq(t.n, 6);		/* 0 5 10 15 20 25 */
	cr_expect_float_eq(t.v[t.n - 1], 25, 1e-12);
	cr_assert_eq(report_svg_linear_ticks(-3, 3, 7, &t), 0);
	cr_expect_float_eq(t.v[0], -3, 1e-12);
	for (size_t i = 0; i < t.n; i++)
		cr_expect(t.v[i] >= -3 - 1e-9 && t.v[i] <= 3 + 1e-9);
	/* an exact zero, not -1e-17 */
	cr_assert_eq(report_svg_linear_ticks(-0.3, 0.3, 7, &t), 0);
	for (size_t i = 0; i < t.n; i++)
		if (fabs(t.v[i]) < 1e-9)
			cr_expect(t.v[i] == 0 && !signbit(t.v[i]));
}

Test(svg_ticks, linear_ticks_edge_cases)
{
	struct svg_ticks t;

	cr_expect_eq(report_svg_linear_ticks(NAN, 1, 5, &t), MEMCAL_EINVAL);
	cr_assert_eq(report_svg_linear_ticks(4, 4, 5, &t), 0);
	cr_expect_eq(t.n, 1);
	cr_assert_eq(report_svg_linear_ticks(10, 0, 5, &t), 0);	/* swapped */
	cr_expect(t.n >= 3 && t.v[0] == 0);
	cr_assert_eq(report_svg_linear_ticks(0, 1e6, 200, &t), 0);	/* capped */
	cr_expect(t.n <= SVG_MAX_TICKS);
}

Test(svg_ticks, log_ticks)
{
	struct svg_ticks t;
	static const double want[] = { 10, 20, 50, 100, 200, 500, 1000 };

	cr_assert_eq(report_svg_log_ticks(10, 1000, &t), 0);
	cr_assert_eq(t.n, 7);
	for (size_t i = 0; i < 7; i++)
		cr_expect_float_eq(t.v[i], want[i], 1e-9);
	cr_assert_eq(report_svg_log_ticks(1, 1e6, &t), 0);	/* decades only */
	cr_expect_eq(t.n, 7);
	cr_expect_eq(report_svg_log_ticks(0, 10, &t), MEMCAL_EINVAL);
}

Test(svg_ticks, nice_range)
{
	double lo = 0.3, hi = 26.7;

	report_svg_nice_range(&lo, &hi, 6, false);
	cr_expect_float_eq(lo, 0, 1e-12);
	cr_expect_float_eq(hi, 30, 1e-12);
	lo = 12;
	hi = 700;
	report_svg_nice_range(&lo, &hi, 0, true);
	cr_expect_float_eq(lo, 10, 1e-9);
	cr_expect_float_eq(hi, 1000, 1e-9);
	lo = hi = 5;
	report_svg_nice_range(&lo, &hi, 5, false);
	cr_expect(lo < 5 && hi > 5);
}

Test(svg_ticks, tick_labels)
{
	char b[32];

	report_svg_format_tick(25, 5, b, sizeof(b));
	cr_expect_str_eq(b, "25");
	report_svg_format_tick(0.4, 0.2, b, sizeof(b));
	cr_expect_str_eq(b, "0.4");
	report_svg_format_tick(1.05, 0.05, b, sizeof(b));
	cr_expect_str_eq(b, "1.05");
	report_svg_format_tick(200, 0, b, sizeof(b));
	cr_expect_str_eq(b, "200");
}

Test(svg_clip, segment_inside_crossing_outside)
{
	double x0 = 1, y0 = 1, x1 = 9, y1 = 9;

	cr_expect(report_svg_clip_segment(0, 0, 10, 10, &x0, &y0, &x1, &y1));
	cr_expect(x0 == 1 && y1 == 9);
	x0 = -10; y0 = 5; x1 = 20; y1 = 5;
	cr_expect(report_svg_clip_segment(0, 0, 10, 10, &x0, &y0, &x1, &y1));
	cr_expect_float_eq(x0, 0, 1e-12);
	cr_expect_float_eq(x1, 10, 1e-12);
	x0 = -5; y0 = -5; x1 = 5; y1 = 5;
	cr_expect(report_svg_clip_segment(0, 0, 10, 10, &x0, &y0, &x1, &y1));
	cr_expect_float_eq(x0, 0, 1e-12);
	cr_expect_float_eq(y0, 0, 1e-12);
	x0 = 11; y0 = 0; x1 = 20; y1 = 10;
	cr_expect_not(report_svg_clip_segment(0, 0, 10, 10, &x0, &y0, &x1, &y1));
	x0 = 5; y0 = -1; x1 = 5; y1 = -8;	/* vertical, above */
	cr_expect_not(report_svg_clip_segment(0, 0, 10, 10, &x0, &y0, &x1, &y1));
	x0 = NAN; y0 = 0; x1 = 1; y1 = 1;
	cr_expect_not(report_svg_clip_segment(0, 0, 10, 10, &x0, &y0, &x1, &y1));
}

/* write_escape - capture() body for the escaping test. */
static void write_escape(FILE *f, void *arg)
{
	report_svg_escape(f, arg);
}

Test(svg_text, escaping)
{
	char *s = capture(write_escape, "a<b & \"c\" 'd'>\x01\tµs");

	cr_expect_str_eq(s, "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;\tµs");
	free(s);
	cr_expect_float_eq(report_svg_text_width("µs", 10), 2 * 10 * 0.56, 1e-9);
}

/* draw_clipped - a chart whose series stray outside the plot. */
static void draw_clipped(FILE *f, void *arg)
{
	struct svg_chart c;
	double x[] = { -5, 5, 15 }, y[] = { 5, 5, 5 };
	double px[] = { 5, 50, NAN }, py[] = { 5, 5, 5 };

	(void)arg;
	cr_assert_eq(report_svg_chart_begin(&c, f, "t<1>", "T & t", "sub", 700, 400),
		     0);
	report_svg_chart_set_x(&c, 0, 10, false);
	report_svg_chart_set_y(&c, 0, 10, false);
	report_svg_chart_axes(&c, "x (units)", "y (units)", NULL, NULL);
	report_svg_series_line(&c, x, y, 3, "#000", 2, NULL);
	report_svg_series_points(&c, px, py, 3, "#f00", 3, NULL);
	report_svg_bar(&c, 8, 12, 0, 20, "#00f", NULL);
	report_svg_legend_add(&c, "a & b", "#000", NULL, 2, false);
	report_svg_chart_end(&c);
}

Test(svg_chart, marks_are_clipped_to_the_plot)
{
	char *s = capture(draw_clipped, NULL);
	struct svg_chart c;
	const char *p;
	double x0, y0, x1, y1, bx, by, bw, bh;

	/* same layout as draw_clipped, to know the plot rectangle */
	FILE *devnull = fopen("/dev/null", "w");

	report_svg_chart_begin(&c, devnull, "x", "x", NULL, 700, 400);
	fclose(devnull);
	cr_assert(strstr(s, "id=\"t&lt;1&gt;\""));
	cr_expect(strstr(s, "T &amp; t"));
	cr_expect(strstr(s, "a &amp; b"));
	cr_expect(strstr(s, "clip-path=\"url(#t<1>-clip)\"") ||
		  strstr(s, "-clip)"));
	/* the line is cut at both x edges */
	p = strstr(s, " d=\"M");
	cr_assert(p);
	cr_assert_eq(sscanf(p, " d=\"M%lf %lf", &x0, &y0), 2);
	cr_expect_float_eq(x0, c.px0, 0.01);
	p = strchr(p + 4, '"');		/* end of d="..." */
	while (p[-1] != 'L')
		p--;
	cr_assert_eq(sscanf(p, "%lf %lf", &x1, &y1), 2);
	cr_expect_float_eq(x1, c.px1, 0.01);
	cr_expect_float_eq(y1, y0, 0.01);
	/* one point inside, the other two dropped */
	cr_expect(strstr(s, "<circle"));
	cr_expect_null(strstr(strstr(s, "<circle") + 1, "<circle"));
	/* the bar is cut at the right and top edges */
	p = strstr(s, "class=\"bar\"");
	cr_assert(p);
	cr_assert_eq(sscanf(p, "class=\"bar\" x=\"%lf\" y=\"%lf\" width=\"%lf\" "
			    "height=\"%lf\"", &bx, &by, &bw, &bh), 4);
	cr_expect(bx + bw <= c.px1 + 0.01);
	cr_expect_float_eq(by, c.py0, 0.01);
	cr_expect(by + bh <= c.py1 + 0.01);
	/* the legend sits right of the plot */
	p = strstr(s, "class=\"legend\"");
	cr_assert(p);
	cr_assert_eq(sscanf(strstr(p, "x1=\""), "x1=\"%lf\"", &x0), 1);
	cr_expect(x0 > c.px1);
	cr_expect(strstr(s, "</svg>"));
	free(s);
}

/* draw_placeholder - capture() body. */
static void draw_placeholder(FILE *f, void *arg)
{
	(void)arg;
	report_svg_placeholder(f, "chart-x", "Title", 700, 400, "No data: run <x>.");
}

Test(svg_chart, placeholder_says_what_is_missing)
{
	char *s = capture(draw_placeholder, NULL);

	cr_expect(strstr(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			 "id=\"chart-x\" class=\"chart missing\""));
	cr_expect(strstr(s, "No data: run &lt;x&gt;."));
	free(s);
}

Test(svg_chart, rejects_a_chart_too_small)
{
	struct svg_chart c;
	FILE *f = fopen("/dev/null", "w");

	cr_expect_eq(report_svg_chart_begin(&c, f, "x", "t", NULL, 100, 50),
		     MEMCAL_EINVAL);
	fclose(f);
}
