// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_job_latency.c - the per-job latency of a validation's real-time
 * workloads in the memtune report: loaded from the job_latency rows, drawn
 * as one cumulative distribution per workload and condition (solo, co-run
 * unregulated, co-run regulated) with each 99th percentile and the
 * deadline marked, and given to the JSON export.  Same chart contract as
 * charts_tuning.c: the chart or a placeholder naming what is missing,
 * and 0 or MEMCAL_ENOMEM.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"

#define W REPORT_CHART_WIDTH
#define H REPORT_CHART_HEIGHT

/* collect_jl - memcal_db_job_latency_list() callback: keep a copy. */
static int collect_jl(const struct memcal_job_latency *l, void *user)
{
	struct report *r = user;
	struct memcal_job_latency c = *l;

	c.histogram = strdup(l->histogram ? l->histogram : "[]");
	if (!c.histogram ||
	    fig_push((void **)&r->jl, &r->n_jl, sizeof(c), &c)) {
		free(c.histogram);
		return MEMCAL_EINVAL;
	}
	return 0;
}

/**
 * report_load_job_latency() - the latency rows of @r's validation; a
 * validation without them is noted as missing.
 */
int report_load_job_latency(struct report *r, memcal_db *db)
{
	int rc = memcal_db_job_latency_list(db, r->validation.id, collect_jl,
					    r);

	if (!rc && !r->n_jl)
		report_missing(r, "Validation %lld timed no real-time jobs: "
			       "per-job latency needs a real-time workload "
			       "(and cyclictest for one that does not report "
			       "its jobs).", (long long)r->validation.id);
	return rc;
}

/* report_job_latency_free() - release what report_load_job_latency kept. */
void report_job_latency_free(struct report *r)
{
	for (size_t i = 0; i < r->n_jl; i++)
		free(r->jl[i].histogram);
	free(r->jl);
	r->jl = NULL;
	r->n_jl = 0;
}

/*
 * cdf_points - the step curve of @l's histogram in ms and fractions,
 * ending at the maximum (overflow samples) with 1.  *@x and *@y are
 * malloc'd and *@n their number of points (0 when empty).  Returns 0 or
 * MEMCAL_ENOMEM.
 */
static int cdf_points(const struct memcal_job_latency *l, double **x,
		      double **y, size_t *n_out)
{
	json_t *h = json_loads(l->histogram, 0, NULL), *e;
	size_t n = json_array_size(h), k = 0, i;
	double cum = 0;

	*x = calloc(2 * n + 2, sizeof(double));
	*y = calloc(2 * n + 2, sizeof(double));
	*n_out = 0;
	if (!*x || !*y || l->samples <= 0) {
		json_decref(h);
		return !*x || !*y ? MEMCAL_ENOMEM : 0;
	}
	json_array_foreach(h, i, e) {
		double us = (double)json_integer_value(json_array_get(e, 0));

		(*x)[k] = us / 1000.0;
		(*y)[k++] = cum / (double)l->samples;
		cum += (double)json_integer_value(json_array_get(e, 1));
		(*x)[k] = us / 1000.0;
		(*y)[k++] = cum / (double)l->samples;
	}
	json_decref(h);
	if (l->overflow > 0 || !k) {
		(*x)[k] = (double)l->max_ns / 1e6;
		(*y)[k++] = cum / (double)l->samples;
		(*x)[k] = (double)l->max_ns / 1e6;
		(*y)[k++] = 1;
	}
	*n_out = k;
	return 0;
}

/* cond_index - 0 solo, 1 unregulated, 2 regulated, 3 static. */
static size_t cond_index(const char *cond)
{
	return !strcmp(cond, "solo") ? 0 : !strcmp(cond, "unregulated") ? 1 :
	       !strcmp(cond, "static") ? 3 : 2;
}

/**
 * report_chart_job_latency() - the cumulative distribution of per-job latency
 * of each real-time workload in each condition, with its p99 as a point
 * on the 0.99 line and the deadline as a vertical line.
 */
int report_chart_job_latency(FILE *f, const struct report *r)
{
	static const char *const dash[] = { NULL, "6 3", "2 2", "8 3 2 3" };
	const char *title = "Per-job latency of the real-time workloads";
	double xmax = 0, deadline = 0;
	struct svg_chart c;
	struct svg_ticks xt, yt;

	if (!r->n_jl) {
		report_svg_placeholder(f, "chart-job-latency", title, W, H,
				!r->have_validation ? "No validation: run "
				"'memtune validate MIX.yaml'." : "The "
				"validation timed no real-time jobs.");
		return 0;
	}
	for (size_t i = 0; i < r->n_jl; i++) {
		xmax = fmax(xmax, fmax((double)r->jl[i].max_ns,
				       (double)r->jl[i].deadline_ns) / 1e6);
		deadline = (double)r->jl[i].deadline_ns / 1e6;
	}
	report_svg_chart_begin(&c, f, "chart-job-latency", title, "Cumulative "
			"fraction of jobs finished (or woken, for cyclictest) "
			"within a latency; dots mark each 99th percentile.",
			W, H);
	report_svg_chart_fit_x(&c, 0, xmax * 1.08, 8, false, &xt);
	report_svg_chart_set_y(&c, 0, 1.05, false);
	report_svg_linear_ticks(0, 1, 5, &yt);
	report_svg_chart_axes(&c, "latency (ms)", "fraction of jobs", &xt, &yt);
	report_svg_hline(&c, 0.99, c.x.d0, c.x.d1, "#888888", "2 3", "p99");
	for (size_t i = 0; i < r->n_jl; i++) {
		const struct memcal_job_latency *l = &r->jl[i];
		size_t k = cond_index(l->condition);
		const char *col = report_svg_palette(k);
		double *x, *y, px = (double)l->p99_ns / 1e6, py = 0.99;
		size_t n;
		char label[96], tip[256];

		if (cdf_points(l, &x, &y, &n)) {
			free(x);
			free(y);
			return MEMCAL_ENOMEM;
		}
		report_svg_series_line(&c, x, y, n, col, 1.8, dash[k]);
		snprintf(tip, sizeof(tip), "%s %s: p99 %.3f ms", l->workload,
			 l->condition, px);
		report_svg_series_points(&c, &px, &py, 1, col, 4, tip);
		snprintf(label, sizeof(label), "%.24s %s: p99 %.2f ms, %lld/%lld "
			 "late", l->workload, l->condition, px,
			 (long long)l->misses, (long long)l->samples);
		report_svg_legend_add(&c, label, col, dash[k], 1.8, false);
		free(x);
		free(y);
	}
	{
		char dl[64];

		snprintf(dl, sizeof(dl), "deadline %.3g ms", deadline);
		report_svg_vline(&c, deadline, "#c0392b", "6 4", dl);
	}
	report_svg_chart_end(&c);
	return 0;
}

/* report_job_latency_json() - every row's figures as a JSON array. */
json_t *report_job_latency_json(const struct report *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->n_jl; i++)
		json_array_append_new(a, fig_job_latency_row_json(
					      &r->jl[i]));
	return a;
}
