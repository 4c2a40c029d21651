// SPDX-License-Identifier: GPL-2.0-only
/*
 * charts_tuning.c - the charts of a tuned mix: per-core budgets stacked
 * against the sustainable bandwidth, validation slowdowns per workload
 * (unregulated, under static budgets and regulated, side by side), and
 * LMS predicted against actual demand over time.  Same contract as
 * charts_calibration.c: the chart or a placeholder that names what is
 * missing, and 0 or MEMCAL_ENOMEM.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"

#define W REPORT_CHART_WIDTH
#define H REPORT_CHART_HEIGHT
/* Periods the LMS chart shows at most: each stays a few pixels wide. */
#define LMS_MAX_PLOT 150

/* ceiling_of - the sustainable bandwidth of @cls, else the document's
 * platform ceiling; *@what says which.  NAN when neither exists. */
static double ceiling_of(const struct report *r, const char *cls,
			 const char **what)
{
	const struct memcal_sustainable *s = fig_sustainable(&r->cal, cls);
	char path[64];

	if (s) {
		*what = s->lower_bound ? "sustainable (lower bound)" :
					 "sustainable";
		return s->bandwidth_bps;
	}
	snprintf(path, sizeof(path), "platform_ceiling.%s_bps", cls);
	*what = "platform ceiling";
	return report_doc_number(r->doc, (const char *const[]){ path, NULL });
}

/* Largest span (max / min) a linear budget axis keeps: ~1.5 decades. */
#define BUDGET_LINEAR_SPAN 31.6

/*
 * budget_axis - the y axis of the budget chart from the smallest budget
 * @vmin to @vmax (GB/s): linear from 0, or base-10 log when the values
 * span more than BUDGET_LINEAR_SPAN, so that a budget of 1 GB/s stays
 * readable next to a ceiling of 75 GB/s.  Return: the axis is log.
 */
static bool budget_axis(struct svg_chart *c, double vmin, double vmax,
			struct svg_ticks *yt)
{
	if (vmin > 0 && vmax / vmin > BUDGET_LINEAR_SPAN) {
		report_svg_chart_fit_y(c, vmin / 1.5, vmax * 1.5, 0, true, yt);
		return true;
	}
	report_svg_chart_fit_y(c, 0, vmax * 1.12, 6, false, yt);
	return false;
}

/*
 * no_chart - the placeholder of a tuning chart with nothing to draw: there
 * is no tuned configuration, or else @why.  Return: 0.
 */
static int no_chart(FILE *f, const struct report *r, const char *id,
		    const char *title, const char *why)
{
	report_svg_placeholder(f, id, title, W, H, !r->have_config ?
			       "No tuned configuration: run 'memtune plan'." :
			       why);
	return 0;
}

/*
 * report_chart_budgets() - for read and write, the guaranteed budget of each
 * regulated core as its own bar, then their sum, next to the sustainable
 * bandwidth; each bar carries its value.  The axis turns logarithmic when
 * the figures span more than about 1.5 decades.
 */
int report_chart_budgets(FILE *f, const struct report *r)
{
	static const char *const cls[] = { "read", "write" };
	const char *title = "Per-core budgets against the sustainable bandwidth";
	double total[2] = { 0, 0 }, ymax = 0, vmin = INFINITY;
	size_t nbar[2] = { 0, 0 };
	bool any = false, log;
	struct svg_chart c;
	struct svg_ticks yt;
	char n0[64], n1[64];
	const char *names[2] = { n0, n1 };

	for (size_t i = 0; i < r->n_cores; i++) {
		double v[2] = { r->cores[i].read_bps, r->cores[i].write_bps };

		for (int k = 0; k < 2; k++)
			if (v[k] > 0) {
				total[k] += v[k];
				vmin = fmin(vmin, v[k] / 1e9);
				nbar[k]++;
				any = true;
			}
	}
	if (!any)
		return no_chart(f, r, "chart-budgets", title, "The configuration "
				"gives no budgets in bytes per second.");
	for (int k = 0; k < 2; k++) {
		const char *what;
		double ceil = ceiling_of(r, cls[k], &what);

		ymax = fmax(ymax, fmax(total[k], isnan(ceil) ? 0 : ceil) / 1e9);
	}
	report_svg_chart_begin(&c, f, "chart-budgets", title, "Guaranteed budget of "
			"each regulated core and their sum, which must stay "
			"under the sustainable bandwidth.", W, H);
	log = budget_axis(&c, vmin, ymax, &yt);
	report_svg_chart_axes(&c, NULL, log ? "guaranteed bandwidth (GB/s, log "
		       "scale)" : "guaranteed bandwidth (GB/s)", NULL, &yt);
	snprintf(n0, sizeof(n0), "read: sum %.2f GB/s", total[0] / 1e9);
	snprintf(n1, sizeof(n1), "write: sum %.2f GB/s", total[1] / 1e9);
	report_svg_chart_categories(&c, names, 2, "traffic class");
	for (int k = 0; k < 2; k++) {
		double slot = 0.8 / (double)(nbar[k] + 1), x = k + 0.1;
		const char *what;
		double ceil = ceiling_of(r, cls[k], &what);
		char label[160];

		for (size_t i = 0; i <= r->n_cores; i++, x += slot) {
			bool sum = i == r->n_cores;
			const struct report_core_budget *b = &r->cores[i];
			double v = (sum ? total[k] : k ? b->write_bps :
				    b->read_bps) / 1e9;

			if (!(v > 0)) {
				x -= slot;
				continue;
			}
			if (sum)
				snprintf(label, sizeof(label), "%s sum: %.3f "
					 "GB/s", cls[k], v);
			else
				snprintf(label, sizeof(label), "CPU %d %s: "
					 "%.3f GB/s", b->cpu, cls[k], v);
			report_svg_bar(&c, x + slot * 0.08, x + slot * 0.92,
				log ? c.y.d0 : 0, v, sum ? "#777777" :
				report_svg_palette(i), label);
			snprintf(label, sizeof(label), "%.3g", v);
			report_svg_note(&c, x + slot / 2, v, "middle", "#222222",
				 label);
		}
		/* the ceiling is named in the legend, clear of the bars */
		if (!isnan(ceil))
			report_svg_hline(&c, ceil / 1e9, k + 0.05, k + 0.95, "#D55E00",
				  "6 4", NULL);
	}
	for (size_t i = 0; i < r->n_cores; i++) {
		const struct report_core_budget *b = &r->cores[i];
		char label[160];

		snprintf(label, sizeof(label), "CPU %d%s%s%s%s", b->cpu,
			 b->rt ? " rt" : " be", b->workload[0] ? " " : "",
			 b->workload, b->cpu == r->config.master_cpu ?
			 " (master)" : "");
		report_svg_legend_add(&c, label, report_svg_palette(i), NULL, 0, true);
	}
	report_svg_legend_add(&c, "sum of the budgets", "#777777", NULL, 0, true);
	for (int k = 0; k < 2; k++) {
		const char *what;
		double ceil = ceiling_of(r, cls[k], &what);
		char label[96];

		if (isnan(ceil))
			continue;
		snprintf(label, sizeof(label), "%s: %s %.2f GB/s", cls[k], what,
			 ceil / 1e9);
		report_svg_legend_add(&c, label, "#D55E00", "6 4", 1.5, false);
	}
	report_svg_chart_end(&c);
	return 0;
}

/*
 * val_bar - workload @i's slowdown bar in co-run condition @k (an index of
 * fig_corun_name), in its slot of the workload's category, or "not
 * measured" there when the condition has no time; a real-time workload's
 * bar says how many jobs it missed where the condition stores that.
 * @regulated: the validation ran the regulated condition.
 */
static void val_bar(struct svg_chart *c,
		    const struct memcal_validation_result *v, size_t i, int k,
		    bool regulated)
{
	static const double x0[FIG_N_CORUN] = { 0.08, 0.37, 0.66 };
	static const double x1[FIG_N_CORUN] = { 0.34, 0.63, 0.92 };
	static const size_t colour[FIG_N_CORUN] = { 1, 3, 0 };
	int64_t misses[FIG_N_CORUN] = { -1, v->static_deadline_misses,
					   v->deadline_misses };
	const char *cond = fig_corun_name[k];
	double ns = fig_corun_ns(v, regulated, k);
	double s = v->solo_ns > 0 ? ns / v->solo_ns : NAN;
	double mid = i + (x0[k] + x1[k]) / 2;
	char label[256];

	if (isnan(s)) {
		report_svg_note(c, mid, c->y.d0 + (c->y.d1 - c->y.d0) * 0.04,
				"middle", "#9a3b00", k == 1 ?
				"static not measured" : "not run");
		return;
	}
	if (v->deadline_ns > 0 && misses[k] < 0)	/* not stored for it */
		snprintf(label, sizeof(label), "%s %s: %.3fx", v->workload,
			 cond, s);
	else if (v->deadline_ns > 0)
		snprintf(label, sizeof(label), "%s %s: %.3fx, %lld jobs "
			 "missed", v->workload, cond, s, (long long)misses[k]);
	else
		snprintf(label, sizeof(label), "%s %s: %.3fx, throughput "
			 "%.3f (solo time / co-run time)", v->workload, cond, s,
			 1 / s);
	report_svg_bar(c, i + x0[k], i + x1[k], 0, s,
		       report_svg_palette(colour[k]), label);
	if (v->deadline_ns > 0 && misses[k] > 0) {
		snprintf(label, sizeof(label), "%lld misses",
			 (long long)misses[k]);
		report_svg_note(c, mid, s, "middle", "#9a3b00", label);
	}
}

/*
 * report_chart_validation() - slowdown against the solo run of each workload,
 * co-scheduled without the regulator, under static budgets (MemGuard:
 * each core held to its guarantee) and under the tuned regulation, side
 * by side; a workload stored before the static condition existed says
 * "static not measured" in its place.
 */
int report_chart_validation(FILE *f, const struct report *r)
{
	const char *title = "Validation: slowdown per workload";
	const char *names[64];
	size_t n = r->n_res < 64 ? r->n_res : 64;
	double ymax = 1;
	struct svg_chart c;
	struct svg_ticks yt;

	if (!n)
		return no_chart(f, r, "chart-validation", title, "No validation "
				"results: run 'memtune validate MIX.yaml'.");
	for (size_t i = 0; i < n; i++) {
		const struct memcal_validation_result *v = &r->res[i];

		names[i] = v->workload;
		for (int k = 0; k < FIG_N_CORUN && v->solo_ns > 0; k++)
			ymax = fmax(ymax, fig_corun_ns(v, r->validation.regulated,
							  k) / v->solo_ns);
	}
	report_svg_chart_begin(&c, f, "chart-validation", title, "Co-scheduled run "
			"time over solo run time (1 = no interference; a "
			"best-effort workload's throughput is its inverse); "
			"static: each core held to its guarantee, no LMS, no "
			"sharing; regulated: memreg with the tuned config.",
			W, H);
	report_svg_chart_fit_y(&c, 0, ymax * 1.12, 6, false, &yt);
	report_svg_chart_axes(&c, NULL, "slowdown (x solo run time)", NULL, &yt);
	report_svg_chart_categories(&c, names, n, "workload");
	for (size_t i = 0; i < n; i++) {
		const struct memcal_validation_result *v = &r->res[i];

		for (int k = 0; k < FIG_N_CORUN; k++)
			val_bar(&c, v, i, k, r->validation.regulated);
	}
	report_svg_hline(&c, 1, NAN, NAN, "#444444", "3 3", NULL);
	report_svg_legend_add(&c, "unregulated", report_svg_palette(1), NULL, 0, true);
	report_svg_legend_add(&c, "static (guarantees only)",
			      report_svg_palette(3), NULL, 0, true);
	report_svg_legend_add(&c, "regulated (memreg)", report_svg_palette(0), NULL, 0, true);
	report_svg_legend_add(&c, "solo run time", "#444444", "3 3", 1.5, false);
	report_svg_chart_end(&c);
	return 0;
}

/*
 * report_chart_lms() - actual demand and the LMS prediction made for it, per
 * regulation period (report_tune.c sums the trace's ticks into periods),
 * over time: the first LMS_MAX_PLOT periods, each a point.
 */
int report_chart_lms(FILE *f, const struct report *r)
{
	const char *title = "LMS: predicted against actual demand";
	size_t n = r->lms.n < LMS_MAX_PLOT ? r->lms.n : LMS_MAX_PLOT;
	double *t, ymax = 0, div = 1e9, xlo = 0, xhi;
	const char *unit = "GB/s";
	struct svg_chart c;
	struct svg_ticks xt, yt;
	char sub[400], ylabel[64];

	if (!n)
		return no_chart(f, r, "chart-lms", title, "No LMS trace: LMS is "
				"off or no profile recorded a trace.");
	t = calloc(n * 3, sizeof(double));
	if (!t)
		return MEMCAL_ENOMEM;
	for (size_t i = 0; i < n; i++)
		ymax = fmax(ymax, fmax(r->lms.actual[i], r->lms.predicted[i]));
	if (ymax < 1e9) {
		div = 1e6;
		unit = "MB/s";
	}
	for (size_t i = 0; i < n; i++) {
		t[i] = (double)i * r->lms.period_us / 1000.0;
		t[n + i] = r->lms.actual[i] / div;
		t[2 * n + i] = r->lms.predicted[i] / div;
	}
	xhi = t[n - 1] > 0 ? t[n - 1] : 1;
	snprintf(sub, sizeof(sub), "CPU %d, %s; %zu of %zu periods of %d us "
		 "shown.", r->lms.cpu, r->lms.source, n, r->lms.n,
		 r->lms.period_us);
	report_svg_chart_begin(&c, f, "chart-lms", title, sub, W, H);
	report_svg_chart_set_x(&c, xlo, xhi, false);
	report_svg_linear_ticks(xlo, xhi, 8, &xt);
	report_svg_chart_fit_y(&c, 0, ymax / div * 1.08, 6, false, &yt);
	snprintf(ylabel, sizeof(ylabel), "read demand (%s)", unit);
	report_svg_chart_axes(&c, "time (ms)", ylabel, &xt, &yt);
	report_svg_series_line(&c, t, t + n, n, report_svg_palette(0), 1.8, NULL);
	report_svg_series_points(&c, t, t + n, n, report_svg_palette(0), 2.2, "actual");
	report_svg_series_line(&c, t, t + 2 * n, n, report_svg_palette(1), 1.8, "5 3");
	report_svg_legend_marker(&c, "actual demand per period", report_svg_palette(0),
			  NULL, 1.8, SVG_MARK_CIRCLE);
	report_svg_legend_add(&c, "LMS prediction", report_svg_palette(1), "5 3", 1.8, false);
	report_svg_chart_end(&c);
	free(t);
	return 0;
}
