// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_summary.c - the figures a report derives from the stored rows,
 * computed in one place so that the HTML page, the CSV and the JSON agree
 * with each other and with the charts.
 */
#include <math.h>
#include <string.h>

#include "report.h"

/**
 * report_bw_at() - bandwidth of traffic @kind with @n_cpus cores at once,
 * bytes per second, as the bandwidth chart plots it.
 * @lo, @hi: (optional) the spread: min and max of the repetitions.
 *
 * Rule: aggregate rows win; among them the best kernel variant (highest
 * median).  Without an aggregate row, the mean of the one-core ("core")
 * rows with that many CPUs.  Return: NAN when nothing was measured.
 */
double report_bw_at(const struct report *r, const char *kind, int n_cpus,
		    double *lo, double *hi)
{
	double best = NAN, blo = NAN, bhi = NAN, sum = 0, smin = INFINITY,
	       smax = 0;
	size_t n_core = 0;

	for (size_t i = 0; i < r->n_bw; i++) {
		const struct memcal_bw *b = &r->bw[i];

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

/* report_max_cpus() - the most CPUs any bandwidth row ran at once. */
int report_max_cpus(const struct report *r)
{
	int n = 0;

	for (size_t i = 0; i < r->n_bw; i++)
		if (r->bw[i].n_cpus > n)
			n = r->bw[i].n_cpus;
	return n;
}

/*
 * report_peak_bw() - the highest bandwidth of @kind over every core count
 * (report_bw_at()); *@n_cpus (optional) gets the count.  NAN if none.
 */
double report_peak_bw(const struct report *r, const char *kind, int *n_cpus)
{
	double best = NAN;
	int at = 0;

	for (int n = 1; n <= report_max_cpus(r); n++) {
		double v = report_bw_at(r, kind, n, NULL, NULL);

		if (!isnan(v) && (isnan(best) || v > best)) {
			best = v;
			at = n;
		}
	}
	if (n_cpus)
		*n_cpus = at;
	return best;
}

/*
 * report_overhead_master() - the master core of the overhead
 * measurements: the master_cpu most points name, or -1 if none does.
 */
int report_overhead_master(const struct report *r)
{
	int best = -1;
	size_t best_n = 0;

	for (size_t i = 0; i < r->n_ov; i++) {
		int m = r->ov[i].master_cpu;
		size_t n = 0;

		if (m < 0)
			continue;
		for (size_t j = 0; j < r->n_ov; j++)
			n += r->ov[j].master_cpu == m;
		if (n > best_n) {
			best_n = n;
			best = m;
		}
	}
	return best;
}

/*
 * report_master_cpu() - the master core to highlight: the tuned
 * configuration's when there is one, else the overhead measurements'.
 */
int report_master_cpu(const struct report *r)
{
	if (r->have_config)
		return r->config.master_cpu;
	return report_overhead_master(r);
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
