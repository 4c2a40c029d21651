// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - the headline figures of a run, derived from its rows in
 * one place so that `memcal show`, the HTML page, the CSV, the JSON and
 * the charts print the same number for the same figure.
 */
#include <math.h>
#include <string.h>

#include "memcal_figures.h"

/**
 * fig_bw_at() - bandwidth of traffic @kind with @n_cpus cores at once,
 * bytes per second: the figure every output shows for that core count.
 * @lo, @hi: (optional) the spread: min and max of the repetitions.
 *
 * Rule: aggregate rows win (the scaling curve measures 1..N cores the same
 * way); among them the best kernel variant (highest median).  Without an
 * aggregate row, the mean of the per-core ("core") rows with that many
 * CPUs.  Return: NAN when nothing was measured.
 */
double fig_bw_at(const struct fig_run *f, const char *kind, int n_cpus,
		 double *lo, double *hi)
{
	double best = NAN, blo = NAN, bhi = NAN, sum = 0, smin = INFINITY,
	       smax = 0;
	size_t n_core = 0;

	for (size_t i = 0; i < f->n_bw; i++) {
		const struct memcal_bw *b = &f->bw[i];

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

/* fig_max_cpus() - the most CPUs any bandwidth row of @f ran at once. */
int fig_max_cpus(const struct fig_run *f)
{
	int most = 0;

	for (size_t i = 0; i < f->n_bw; i++)
		if (f->bw[i].n_cpus > most)
			most = f->bw[i].n_cpus;
	return most;
}

/*
 * fig_bw_peak() - the highest fig_bw_at() of @kind over every core count;
 * *@n_cpus (optional) gets the count.  NAN if none.
 */
double fig_bw_peak(const struct fig_run *f, const char *kind, int *n_cpus)
{
	int most = fig_max_cpus(f), at = 0;
	double best = NAN;

	for (int k = 1; k <= most; k++) {
		double v = fig_bw_at(f, kind, k, NULL, NULL);

		if (!isnan(v) && (isnan(best) || v > best)) {
			best = v;
			at = k;
		}
	}
	if (n_cpus)
		*n_cpus = at;
	return best;
}

/**
 * fig_sustainable() - the sustainable figure of class @traffic ("read",
 * "write"), or NULL when the run has none.
 */
const struct memcal_sustainable *fig_sustainable(const struct fig_run *f,
						 const char *traffic)
{
	for (size_t i = 0; i < f->n_sus; i++)
		if (!strcmp(f->sus[i].traffic, traffic))
			return &f->sus[i];
	return NULL;
}
