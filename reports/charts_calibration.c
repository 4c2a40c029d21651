// SPDX-License-Identifier: GPL-2.0-only
/*
 * charts_calibration.c - the charts of a board's calibration: bandwidth
 * against the number of cores, loaded latency against aggregate bandwidth
 * with the sustainable-bandwidth knee, the family of those curves across
 * read/write mixes, and the interrupt overhead C'/C
 * against the period per core with the master core highlighted (the shape
 * of Figure 1 of the MemGuard overhead reproduction report).
 *
 * Each chart function writes one <svg>, or a placeholder saying what is
 * missing, and returns 0, or MEMCAL_ENOMEM when memory ran out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"

#define MAX_PTS 256
#define W REPORT_CHART_WIDTH
#define H REPORT_CHART_HEIGHT

/**
 * struct xy - one point of a series being assembled, with its spread.
 * @x, @y:   position in display units.
 * @lo, @hi: whisker ends (NAN: none).
 */
struct xy {
	double x, y, lo, hi;
};

/* cmp_x - qsort order of struct xy by x. */
static int cmp_x(const void *a, const void *b)
{
	const struct xy *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/*
 * draw_series - line, whiskers and @m markers of @n points of @pts in
 * @color; @width and @dash style the line.
 */
static void draw_series(struct svg_chart *c, const struct xy *pts, size_t n,
			const char *color, double width, const char *dash,
			enum svg_marker m, const char *name)
{
	double x[MAX_PTS], y[MAX_PTS];

	if (n > MAX_PTS)
		n = MAX_PTS;
	for (size_t i = 0; i < n; i++) {
		x[i] = pts[i].x;
		y[i] = pts[i].y;
		if (!isnan(pts[i].lo) && !isnan(pts[i].hi))
			report_svg_error_bar(c, x[i], pts[i].lo, pts[i].hi, color);
	}
	report_svg_series_line(c, x, y, n, color, width, dash);
	report_svg_series_markers(c, x, y, n, color, width > 2 ? 4 : 3, m, name);
}

/*
 * latency_axes - the axes of a loaded-latency chart: aggregate bandwidth
 * from 0 past @xmax GB/s, latency from 0 past @ymax ns.
 */
static void latency_axes(struct svg_chart *c, double xmax, double ymax,
			 struct svg_ticks *xt, struct svg_ticks *yt)
{
	report_svg_chart_fit_x(c, 0, xmax * 1.05, 7, false, xt);
	report_svg_chart_fit_y(c, 0, ymax * 1.08, 6, false, yt);
	report_svg_chart_axes(c, "aggregate bandwidth of the load (GB/s)",
		       "latency (ns)", xt, yt);
}

/*
 * guaranteed_lines - the guaranteed figure that stands for each class as
 * a horizontal line in the colour of its streaming series (every access a
 * row miss, against what streaming reaches), its figure and method in the
 * legend, its criterion in the group's tooltip (<title>).  Each sits in a <g
 * class="guaranteed" data-traffic=...> for the tests.
 */
static void guaranteed_lines(struct svg_chart *c, const struct report *r)
{
	static const char *const cls[2] = { "read", "write" };

	for (int k = 0; k < 2; k++) {
		const struct memcal_guaranteed *g = report_guaranteed(r, cls[k]);
		const char *color = report_svg_palette((size_t)k);
		char label[160], tip[480];

		if (!g)
			continue;
		snprintf(label, sizeof(label), "guaranteed %s %.2f GB/s",
			 g->traffic, g->bandwidth_bps / 1e9);
		snprintf(tip, sizeof(tip), "%s (%s); %s", label, g->method,
			 g->criterion);
		fprintf(c->f, "<g class=\"guaranteed\" data-traffic=\"%s\" "
			"data-method=\"%s\" data-bps=\"%.6g\"><title>",
			g->traffic, g->method, g->bandwidth_bps);
		report_svg_escape(c->f, tip);
		fputs("</title>\n", c->f);
		/* unlabelled: near the axis the labels of both would collide */
		report_svg_hline(c, g->bandwidth_bps / 1e9, NAN, NAN, color,
				 "2 3", NULL);
		fputs("</g>\n", c->f);
		report_svg_legend_add(c, label, color, "2 3", 1.5, false);
		snprintf(label, sizeof(label), "(%s)", g->method);
		report_svg_legend_add(c, label, "none", NULL, 0, false);
	}
}

/**
 * report_chart_bandwidth() - aggregate bandwidth against the number of cores
 * running at once: read, write and non-temporal write, median with min-max
 * whiskers, the sustainable read bandwidth as a dashed line and the
 * guaranteed read and write bandwidth as dotted ones.
 */
int report_chart_bandwidth(FILE *f, const struct report *r)
{
	static const char *const kinds[] = { "read", "write", "ntwrite" };
	static const char *const names[] = {
		"read", "write (stores)", "non-temporal write",
	};
	const char *title = "Bandwidth against number of cores";
	const struct memcal_sustainable *s = fig_sustainable(&r->cal, "read");
	int maxn = fig_max_cpus(&r->cal);
	struct svg_chart c;
	struct svg_ticks xt = { .step = 1 }, yt;
	struct xy pts[3][MAX_PTS];
	size_t np[3] = { 0 };
	double ymax = 0;

	if (!maxn) {
		report_svg_placeholder(f, "chart-bandwidth", title, W, H,
				"No bandwidth measurements: run 'memcal run'.");
		return 0;
	}
	for (int k = 0; k < 3; k++)
		for (int n = 1; n <= maxn && np[k] < MAX_PTS; n++) {
			double lo, hi, v = fig_bw_at(&r->cal, kinds[k], n, &lo, &hi);

			if (isnan(v))
				continue;
			pts[k][np[k]++] = (struct xy){ n, v / 1e9, lo / 1e9,
						       hi / 1e9 };
			ymax = fmax(ymax, fmax(v, hi) / 1e9);
		}
	if (s)
		ymax = fmax(ymax, s->bandwidth_bps / 1e9);
	report_svg_chart_begin(&c, f, "chart-bandwidth", title, "Median over the "
			"repetitions, whiskers min to max; program-visible "
			"bytes (a store counts once, not its RFO traffic).", W,
			H);
	report_svg_chart_set_x(&c, 0.5, maxn + 0.5, false);
	if (maxn <= 16) {
		for (int n = 1; n <= maxn; n++)
			xt.v[xt.n++] = n;
	} else {
		report_svg_linear_ticks(1, maxn, 8, &xt);
	}
	report_svg_chart_fit_y(&c, 0, ymax * 1.05, 6, false, &yt);
	report_svg_chart_axes(&c, "cores running at once", "bandwidth (GB/s)", &xt,
		       &yt);
	for (int k = 0; k < 3; k++) {
		if (!np[k])
			continue;
		draw_series(&c, pts[k], np[k], report_svg_palette((size_t)k), 2, NULL,
			    SVG_MARK_CIRCLE, names[k]);
		report_svg_legend_add(&c, names[k], report_svg_palette((size_t)k), NULL, 2,
			       false);
	}
	if (s) {
		char label[96];

		snprintf(label, sizeof(label), "sustainable read %s%.1f GB/s",
			 s->lower_bound ? ">= " : "", s->bandwidth_bps / 1e9);
		report_svg_hline(&c, s->bandwidth_bps / 1e9, NAN, NAN, "#444444",
			  "6 4", label);
		report_svg_legend_add(&c, "sustainable read", "#444444", "6 4", 1.5,
			       false);
	}
	guaranteed_lines(&c, r);
	report_svg_chart_end(&c);
	return 0;
}

/* latency_series - the points of one traffic class, sorted by bandwidth. */
static size_t latency_series(const struct report *r, const char *traffic,
			     struct xy *pts, double *xmax, double *ymax)
{
	size_t n = 0;

	for (size_t i = 0; i < r->cal.n_lat && n < MAX_PTS; i++) {
		const struct memcal_latency_point *p = &r->cal.lat[i];

		if (strcmp(p->traffic, traffic))
			continue;
		pts[n++] = (struct xy){ p->bandwidth_bps / 1e9, p->latency_ns,
					p->latency_min_ns, p->latency_max_ns };
		*xmax = fmax(*xmax, p->bandwidth_bps / 1e9);
		*ymax = fmax(*ymax, fmax(p->latency_ns, p->latency_max_ns));
	}
	qsort(pts, n, sizeof(*pts), cmp_x);
	return n;
}

/*
 * draw_knee - the knee of one traffic class over its measured curve @pts
 * (@n points, sorted by bandwidth): the latency bound as a line over the
 * curve's bandwidth range only, and the sustainable bandwidth as a
 * vertical line when it lies on the curve.  A knee past the curve's last
 * point (a lower bound taken from the bandwidth phase) is a note at the
 * curve's end: no line is drawn where nothing was measured.  Both lines
 * sit in a <g class="knee"> for the tests.
 */
static void draw_knee(struct svg_chart *c, const struct memcal_sustainable *s,
		      const struct xy *pts, size_t n, const char *color)
{
	double knee = s->bandwidth_bps / 1e9, x0 = pts[0].x, x1 = pts[n - 1].x;
	char label[128];

	fprintf(c->f, "<g class=\"knee\" data-traffic=\"%s\" "
		"data-curve-x0=\"%.6g\" data-curve-x1=\"%.6g\">\n",
		s->traffic, x0, x1);
	snprintf(label, sizeof(label), "%s bound %.0f ns (%.2gx)", s->traffic,
		 s->idle_latency_ns * s->bound_ratio, s->bound_ratio);
	report_svg_hline(c, s->idle_latency_ns * s->bound_ratio, x0, x1, color, "2 3",
		  NULL);
	report_svg_legend_add(c, label, color, "2 3", 1.5, false);
	snprintf(label, sizeof(label), "knee %s: %s%.1f GB/s", s->traffic,
		 s->lower_bound ? ">= " : "", knee);
	if (knee >= x0 && knee <= x1 * (1 + 1e-9)) {
		report_svg_vline(c, knee, color, "6 4", label);
	} else {
		char note[160];

		snprintf(note, sizeof(note), "%s, past the measured curve",
			 label);
		/* above the end of the bound line, where the curve stops */
		report_svg_note(c, x1, s->idle_latency_ns * s->bound_ratio, "end",
			 color, note);
	}
	fputs("</g>\n", c->f);
	snprintf(label, sizeof(label), "%s knee%s", s->traffic,
		 s->lower_bound ? " (lower bound)" : "");
	report_svg_legend_add(c, label, color, "6 4", 1.5, false);
}

/*
 * report_chart_latency() - pointer-chase latency against the aggregate bandwidth
 * of the load generators, per traffic class, with the sustainable
 * bandwidth (the knee) and the latency bound marked.
 */
int report_chart_latency(FILE *f, const struct report *r)
{
	static const char *const traffic[] = { "read", "write" };
	const char *title = "Loaded latency against aggregate bandwidth";
	struct xy pts[2][MAX_PTS];
	size_t np[2];
	double xmax = 0, ymax = 0;
	struct svg_chart c;
	struct svg_ticks xt, yt;

	for (int k = 0; k < 2; k++)
		np[k] = latency_series(r, traffic[k], pts[k], &xmax, &ymax);
	if (!np[0] && !np[1]) {
		report_svg_placeholder(f, "chart-latency", title, W, H,
				"No loaded-latency points: run 'memcal run' "
				"(not --quick).");
		return 0;
	}
	/* the x axis is the curves': a knee past them is noted, not drawn */
	for (size_t i = 0; i < r->cal.n_sus; i++)
		ymax = fmax(ymax, r->cal.sus[i].idle_latency_ns *
			    r->cal.sus[i].bound_ratio);
	report_svg_chart_begin(&c, f, "chart-latency", title, "Pointer-chase latency "
			"while the other cores generate traffic; whiskers min "
			"to max. The knee is the sustainable bandwidth.", W, H);
	latency_axes(&c, xmax, ymax, &xt, &yt);
	for (int k = 0; k < 2; k++) {
		const struct memcal_sustainable *s =
			fig_sustainable(&r->cal, traffic[k]);
		const char *color = report_svg_palette((size_t)k);
		char label[128];

		if (np[k]) {
			draw_series(&c, pts[k], np[k], color, 2, NULL,
				    SVG_MARK_CIRCLE, traffic[k]);
			snprintf(label, sizeof(label), "%s traffic", traffic[k]);
			report_svg_legend_add(&c, label, color, NULL, 2, false);
		}
		if (!s || !np[k])
			continue;
		draw_knee(&c, s, pts[k], np[k], color);
	}
	report_svg_chart_end(&c);
	return 0;
}

/*
 * report_chart_family() - the bandwidth-latency family: one line per read/write
 * mix of the load generators (100 % read to 0 %), latency against their
 * aggregate bandwidth, the legend naming each mix's sustainable figure.
 * Each curve sits in a <g class="mix" data-read-pct=...> for the tests.
 */
int report_chart_family(FILE *f, const struct report *r)
{
	static const enum svg_marker marks[] = { SVG_MARK_CIRCLE,
						 SVG_MARK_SQUARE };
	const char *title = "Loaded latency across read/write mixes";
	double xmax = 0, ymax = 0;
	struct svg_chart c;
	struct svg_ticks xt, yt;

	for (size_t i = 0; i < r->cal.n_mix; i++)
		for (int p = 0; p < r->cal.mix[i].n_points; p++) {
			const struct memcal_mix_point *pt = &r->cal.mix[i].points[p];

			xmax = fmax(xmax, pt->bandwidth_bps / 1e9);
			ymax = fmax(ymax, fmax(pt->latency_ns,
					       pt->latency_max_ns));
		}
	if (!r->cal.n_mix || !(xmax > 0)) {
		report_svg_placeholder(f, "chart-family", title, W, H,
				"No bandwidth-latency family across read/write "
				"mixes: run 'memcal run' with this memcal.");
		return 0;
	}
	report_svg_chart_begin(&c, f, "chart-family", title, "Pointer-chase latency "
			"while the other cores read the given share of the "
			"lines they touch and write the rest; whiskers min to "
			"max.", W, H);
	latency_axes(&c, xmax, ymax, &xt, &yt);
	for (size_t i = 0; i < r->cal.n_mix; i++) {
		const struct memcal_mix_curve *m = &r->cal.mix[i];
		const char *color = report_svg_palette(i);
		struct xy pts[MEMCAL_MIX_MAX_POINTS];
		size_t n = 0;
		char label[128];

		for (int p = 0; p < m->n_points; p++)
			pts[n++] = (struct xy){
				m->points[p].bandwidth_bps / 1e9,
				m->points[p].latency_ns,
				m->points[p].latency_min_ns,
				m->points[p].latency_max_ns };
		qsort(pts, n, sizeof(*pts), cmp_x);
		snprintf(label, sizeof(label), "%d %% read: sustainable %s%.1f "
			 "GB/s", m->read_pct, m->lower_bound ? ">= " : "",
			 m->sustainable_bps / 1e9);
		fprintf(f, "<g class=\"mix\" data-read-pct=\"%d\" "
			"data-sustainable-bps=\"%.6g\" data-lower-bound=\"%d\">\n",
			m->read_pct, m->sustainable_bps, m->lower_bound);
		draw_series(&c, pts, n, color, 2, i % 2 ? "6 3" : NULL,
			    marks[i % 2], label);
		fputs("</g>\n", f);
		report_svg_legend_add(&c, label, color, i % 2 ? "6 3" : NULL, 2, false);
	}
	report_svg_chart_end(&c);
	return 0;
}

/**
 * struct ov_series - the overhead points of one core, benchmark, method
 * and master placement.
 * @cpu, @benchmark, @method: identity.
 * @on_master: the points were measured with the master on @cpu itself
 *             (the stored master_cpu equals the core), not elsewhere.
 * @master:    the master core of the points (the first one's, when
 *             @on_master is false and they differ).
 * @pts, @n:   points, sorted by period.
 * @low:       the points that are lower bounds (a livelocked core).
 * @n_low:     their number.
 */
struct ov_series {
	int cpu;
	const char *benchmark;
	const char *method;
	bool on_master;
	int master;
	struct xy pts[64];
	size_t n;
	struct xy low[64];
	size_t n_low;
};

/* ov_group - find or add the series of @p in @s (at most @cap). */
static struct ov_series *ov_group(struct ov_series *s, size_t *n, size_t cap,
				  const struct memcal_overhead_point *p)
{
	bool on = p->master_cpu == p->cpu;

	for (size_t i = 0; i < *n; i++)
		if (s[i].cpu == p->cpu && s[i].on_master == on &&
		    !strcmp(s[i].benchmark, p->benchmark) &&
		    !strcmp(s[i].method, p->method))
			return &s[i];
	if (*n >= cap)
		return NULL;
	s[*n] = (struct ov_series){ .cpu = p->cpu, .benchmark = p->benchmark,
				    .method = p->method, .on_master = on,
				    .master = p->master_cpu };
	return &s[(*n)++];
}

/* cpu_color - the colour of @cpu: its rank among the cores of @r->ovh.ov. */
static const char *cpu_color(const struct report *r, int cpu)
{
	size_t rank = 0;

	for (size_t i = 0; i < r->ovh.n_ov; i++) {
		bool seen = false;

		if (r->ovh.ov[i].cpu >= cpu)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = r->ovh.ov[j].cpu == r->ovh.ov[i].cpu;
		rank += !seen;
	}
	return report_svg_palette(rank);
}

/* ov_label - the legend text of series @g. */
static void ov_label(const struct ov_series *g, char *buf, size_t len)
{
	bool memory = !strcmp(g->benchmark, "memory");

	if (g->on_master)
		snprintf(buf, len, "CPU %d, master on it%s", g->cpu,
			 memory ? ", memory" : "");
	else if (g->master >= 0)
		snprintf(buf, len, "CPU %d, master on CPU %d%s", g->cpu,
			 g->master, memory ? ", memory" : "");
	else
		snprintf(buf, len, "CPU %d, no master%s", g->cpu,
			 memory ? ", memory" : "");
}

/*
 * report_chart_overhead() - C'/C against the regulation period (log scale), one
 * line per core, benchmark and master placement: the points measured with
 * the master on the core itself (thick, solid) are never joined to those
 * measured with the master elsewhere (thin, dashed); which is which is the
 * stored master core of each point.  Points that are only lower bounds (a
 * livelocked core) get an open triangle.
 */
int report_chart_overhead(FILE *f, const struct report *r)
{
	const char *title = "Interrupt overhead C'/C against period, per core";
	struct ov_series *s;
	size_t ns = 0, n_low = 0;
	double xlo = INFINITY, xhi = 0, ylo = 1, yhi = 1;
	struct svg_chart c;
	struct svg_ticks xt, yt;
	char sub[240];

	if (!r->ovh.n_ov) {
		report_svg_placeholder(f, "chart-overhead", title, W, H,
				"No interrupt-overhead measurements: run "
				"'memcal overhead'.");
		return 0;
	}
	s = calloc(SVG_MAX_LEGEND, sizeof(*s));
	if (!s)
		return MEMCAL_ENOMEM;
	for (size_t i = 0; i < r->ovh.n_ov; i++) {
		const struct memcal_overhead_point *p = &r->ovh.ov[i];
		struct ov_series *g = ov_group(s, &ns, SVG_MAX_LEGEND - 2, p);
		struct xy pt = { p->period_us, p->ratio_median, p->ratio_min,
				 p->ratio_max };

		if (!g || g->n >= 64 || p->period_us <= 0)
			continue;
		g->pts[g->n++] = pt;
		if (p->lower_bound) {
			g->low[g->n_low++] = pt;
			n_low++;
		}
		xlo = fmin(xlo, p->period_us);
		xhi = fmax(xhi, p->period_us);
		ylo = fmin(ylo, fmin(p->ratio_median, p->ratio_min));
		yhi = fmax(yhi, fmax(p->ratio_median, p->ratio_max));
	}
	snprintf(sub, sizeof(sub), "Run time with the periodic interrupt over "
		 "run time without; median, whiskers min to max; method: %s. "
		 "Thick: the master runs on that core; dashed: elsewhere.",
		 report_overhead_proxy(r) ? "proxy (user-space timer, an upper "
		 "bound)" : "memreg in monitor-only mode");
	report_svg_chart_begin(&c, f, "chart-overhead", title, sub, W, H);
	report_svg_chart_fit_x(&c, xlo, xhi, 0, true, &xt);
	ylo = ylo > 0.95 ? 1 : ylo;
	report_svg_chart_fit_y(&c, ylo, yhi + (yhi - ylo) * 0.05, 6, false,
			       &yt);
	report_svg_chart_axes(&c, "regulation period (us, log scale)",
		       "slowdown C'/C", &xt, &yt);
	report_svg_hline(&c, 1, NAN, NAN, "#888888", "3 3", NULL);
	/* master-on-core series drawn last, on top */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ns; i++) {
			struct ov_series *g = &s[i];
			const char *color = cpu_color(r, g->cpu);
			double width = g->on_master ? 3.2 : 1.6;
			const char *dash = g->on_master ? NULL : "6 3";
			enum svg_marker m = strcmp(g->benchmark, "memory") ?
					    SVG_MARK_CIRCLE : SVG_MARK_SQUARE;
			char label[96];

			if (g->on_master != (pass == 1))
				continue;
			qsort(g->pts, g->n, sizeof(g->pts[0]), cmp_x);
			ov_label(g, label, sizeof(label));
			draw_series(&c, g->pts, g->n, color, width, dash, m,
				    label);
			report_svg_legend_marker(&c, label, color, dash, width, m);
		}
	for (size_t i = 0; i < ns; i++) {
		double x[64], y[64];

		for (size_t k = 0; k < s[i].n_low; k++) {
			x[k] = s[i].low[k].x;
			y[k] = s[i].low[k].y;
		}
		if (s[i].n_low)
			report_svg_series_markers(&c, x, y, s[i].n_low,
					   cpu_color(r, s[i].cpu), 5,
					   SVG_MARK_LOWER_BOUND, "livelocked");
	}
	if (n_low)
		report_svg_legend_marker(&c, "livelocked: lower bound", "#333333",
				  NULL, 0, SVG_MARK_LOWER_BOUND);
	report_svg_legend_add(&c, "no overhead (1.0)", "#888888", "3 3", 1.5, false);
	report_svg_chart_end(&c);
	free(s);
	return 0;
}
