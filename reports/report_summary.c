// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_summary.c - the figures a report derives from the stored rows,
 * computed in one place so that the HTML page, the CSV, the JSON, the
 * charts and `memcal show` (figures_*(), report_figures.h) agree.
 */
#include <math.h>
#include <string.h>

#include "report.h"
#include "memcal_reports.h"

/**
 * report_figures_bw_at() - bandwidth of traffic @kind with @n_cpus cores at once,
 * bytes per second, from the @n rows @bw of one run: the figure every
 * output shows for that core count (the bandwidth chart, the reports'
 * "one core" and peak figures, `memcal show`).
 * @lo, @hi: (optional) the spread: min and max of the repetitions.
 *
 * Rule: aggregate rows win (the scaling curve measures 1..N cores the same
 * way); among them the best kernel variant (highest median).  Without an
 * aggregate row, the mean of the per-core ("core") rows with that many
 * CPUs.  Return: NAN when nothing was measured.
 */
double report_figures_bw_at(const struct memcal_bw *bw, size_t n, const char *kind,
		     int n_cpus, double *lo, double *hi)
{
	double best = NAN, blo = NAN, bhi = NAN, sum = 0, smin = INFINITY,
	       smax = 0;
	size_t n_core = 0;

	for (size_t i = 0; i < n; i++) {
		const struct memcal_bw *b = &bw[i];

		if (strcmp(b->kind, kind) || b->n_cpus != n_cpus)
			continue;
		if (!strcmp(b->scope, "aggregate")) {
			if (isnan(best) || b->median_bps > best) {
				best = b->median_bps;
				blo = b->min_bps;
				bhi = b->max_bps;
			}
		} else {
			sum += b->median_bps;
			smin = fmin(smin, b->min_bps);
			smax = fmax(smax, b->max_bps);
			n_core++;
		}
	}
	if (isnan(best) && n_core) {
		best = sum / (double)n_core;
		blo = smin;
		bhi = smax;
	}
	if (lo)
		*lo = blo;
	if (hi)
		*hi = bhi;
	return best;
}

/* report_figures_max_cpus() - the most CPUs any of the @n rows @bw ran at once. */
int report_figures_max_cpus(const struct memcal_bw *bw, size_t n)
{
	int most = 0;

	for (size_t i = 0; i < n; i++)
		if (bw[i].n_cpus > most)
			most = bw[i].n_cpus;
	return most;
}

/*
 * report_figures_bw_peak() - the highest report_figures_bw_at() of @kind over every core
 * count; *@n_cpus (optional) gets the count.  NAN if none.
 */
double report_figures_bw_peak(const struct memcal_bw *bw, size_t n,
		       const char *kind, int *n_cpus)
{
	int most = report_figures_max_cpus(bw, n), at = 0;
	double best = NAN;

	for (int k = 1; k <= most; k++) {
		double v = report_figures_bw_at(bw, n, kind, k, NULL, NULL);

		if (!isnan(v) && (isnan(best) || v > best)) {
			best = v;
			at = k;
		}
	}
	if (n_cpus)
		*n_cpus = at;
	return best;
}

/* report_figures_sustainable() - the row of @traffic among the @n rows, or NULL. */
const struct memcal_sustainable *
report_figures_sustainable(const struct memcal_sustainable *sus, size_t n,
		    const char *traffic)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(sus[i].traffic, traffic))
			return &sus[i];
	return NULL;
}

/* report_bw_at() - report_figures_bw_at() of the report's run. */
double report_bw_at(const struct report *r, const char *kind, int n_cpus,
		    double *lo, double *hi)
{
	return report_figures_bw_at(r->bw, r->n_bw, kind, n_cpus, lo, hi);
}

/* report_max_cpus() - report_figures_max_cpus() of the report's run. */
int report_max_cpus(const struct report *r)
{
	return report_figures_max_cpus(r->bw, r->n_bw);
}

/* report_peak_bw() - report_figures_bw_peak() of the report's run. */
double report_peak_bw(const struct report *r, const char *kind, int *n_cpus)
{
	return report_figures_bw_peak(r->bw, r->n_bw, kind, n_cpus);
}

/*
 * report_overhead_master() - the master core of the overhead measurements
 * as the stored points say: the master_cpu every point names, or
 * REPORT_NO_MASTER when none does or they name different cores (a sweep
 * that moved the master).
 */
int report_overhead_master(const struct report *r)
{
	int master = REPORT_NO_MASTER;

	for (size_t i = 0; i < r->n_ov; i++) {
		if (r->ov[i].master_cpu < 0)
			continue;
		if (master >= 0 && r->ov[i].master_cpu != master)
			return REPORT_NO_MASTER;
		master = r->ov[i].master_cpu;
	}
	return master;
}

/* report_overhead_proxy() - any overhead figure comes from the proxy. */
bool report_overhead_proxy(const struct report *r)
{
	for (size_t i = 0; i < r->n_ov; i++)
		if (!strcmp(r->ov[i].method, "proxy"))
			return true;
	return false;
}

/*
 * report_overhead_at() - median C'/C of @cpu at @period_us (first
 * benchmark stored, "compute" preferred), NAN when not measured.
 */
double report_overhead_at(const struct report *r, int cpu, int period_us)
{
	double any = NAN;

	for (size_t i = 0; i < r->n_ov; i++) {
		const struct memcal_overhead_point *p = &r->ov[i];

		if (p->cpu != cpu || p->period_us != period_us)
			continue;
		if (!strcmp(p->benchmark, "compute"))
			return p->ratio_median;
		if (isnan(any))
			any = p->ratio_median;
	}
	return any;
}

/* The co-run conditions of a validation, in the order every view lists. */
const char *const report_corun_name[REPORT_N_CORUN] = { "unregulated",
							"static",
							"regulated" };

/**
 * report_corun_ns() - workload @v's co-run time in condition @k (an index
 * of report_corun_name), in ns; NAN when that condition did not run (no
 * static run stored, a validation without the regulated run) or has no
 * time, so that no view takes a missing figure for 0.
 * @regulated: the validation ran the regulated condition.
 */
double report_corun_ns(const struct memcal_validation_result *v,
		       bool regulated, int k)
{
	double t = k == 0 ? v->unregulated_ns :
		   k == 1 ? (v->has_static ? v->static_ns : NAN) :
		   (regulated ? v->regulated_ns : NAN);

	return t > 0 ? t : NAN;
}
