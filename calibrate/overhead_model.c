// SPDX-License-Identifier: GPL-2.0-only
/*
 * overhead_model.c - the per-core overhead model ratio(P) = base + cost/P,
 * fitted by ordinary least squares in x = 1/P, so that the planner can
 * interpolate between measured periods (see overhead.h).
 */
#include "overhead.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * cal_overhead_fit - least-squares fit of ratio = base + cost / period over
 * @n points (@period_ns > 0, finite ratios).  Fills @cost_ns (the time
 * one period costs the core), @base (ratio at an infinite period) and
 * @r2 (coefficient of determination; 1 for a perfect fit, also when all
 * ratios are equal and fitted exactly).  Returns 0, or -EINVAL with fewer
 * than two distinct periods or a bad value.
 */
int cal_overhead_fit(const double *period_ns, const double *ratio, size_t n,
		 double *cost_ns, double *base, double *r2)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, mx, my, vx, b, a;
	double ss_res = 0, ss_tot = 0;

	if (n < 2)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		double x;

		if (!(period_ns[i] > 0) || !isfinite(ratio[i]))
			return -EINVAL;
		x = 1.0 / period_ns[i];
		sx += x;
		sy += ratio[i];
	}
	mx = sx / (double)n;
	my = sy / (double)n;
	for (size_t i = 0; i < n; i++) {
		double dx = 1.0 / period_ns[i] - mx;

		sxx += dx * dx;
		sxy += dx * (ratio[i] - my);
	}
	vx = sxx / (double)n;
	if (!(vx > 1e-30 * mx * mx))
		return -EINVAL;	/* all periods equal */
	b = sxy / sxx;
	a = my - b * mx;
	for (size_t i = 0; i < n; i++) {
		double e = ratio[i] - (a + b / period_ns[i]);
		double d = ratio[i] - my;

		ss_res += e * e;
		ss_tot += d * d;
	}
	*cost_ns = b;
	*base = a;
	if (ss_tot > 1e-24)
		*r2 = 1.0 - ss_res / ss_tot;
	else
		*r2 = ss_res <= 1e-24 ? 1.0 : 0.0;
	return 0;
}

/*
 * use_point - whether point @p belongs to the fit of (@cpu, @bench):
 * measured, not ruined, at most @max_ratio, and with the master
 * elsewhere unless @master_only.
 */
static bool use_point(const struct overhead_point *p, int cpu,
		      const char *bench, bool master_only, double max_ratio)
{
	if (p->db.cpu != cpu || strcmp(p->db.benchmark, bench) || p->ruined ||
	    !isfinite(p->db.ratio_median) || p->db.repetitions < 1 ||
	    p->db.ratio_median > max_ratio)
		return false;
	return master_only ? p->db.master_cpu == cpu : p->db.master_cpu != cpu;
}

/*
 * fit_one - fit the model of (@cpu, @bench) into @m from the points with
 * the master elsewhere (else, as on a one-core machine, the master
 * points).  A fixed cost c per period really gives ratio = P / (P - c),
 * which is base + c/P only while c << P; so points above
 * OVH_FIT_MAX_RATIO (periods the planner would never choose) are left
 * out when at least two others remain.  Returns 0, or -EINVAL when fewer
 * than two periods qualify.
 */
static int fit_one(const struct overhead_result *r, int cpu,
		   const char *bench, struct memcal_overhead_model *m)
{
	double *x = calloc(r->n_pts + 1, sizeof(*x));
	double *y = calloc(r->n_pts + 1, sizeof(*y));
	size_t k = 0;
	int rc = -EINVAL;

	if (!x || !y)
		goto out;
	for (int pass = 0; pass < 4 && k < 2; pass++) {
		k = 0;
		for (size_t i = 0; i < r->n_pts; i++) {
			const struct overhead_point *p = &r->pts[i];

			if (!use_point(p, cpu, bench, pass & 1, pass < 2 ?
				       OVH_FIT_MAX_RATIO : INFINITY))
				continue;
			x[k] = (double)p->db.period_us * 1000.0;
			y[k] = p->db.ratio_median;
			k++;
		}
	}
	memset(m, 0, sizeof(*m));
	m->cpu = cpu;
	snprintf(m->benchmark, sizeof(m->benchmark), "%s", bench);
	snprintf(m->method, sizeof(m->method), "%s", r->method);
	rc = cal_overhead_fit(x, y, k, &m->cost_per_irq_ns, &m->base_ratio, &m->r2);
out:
	free(x);
	free(y);
	return rc;
}

/*
 * cal_overhead_fit_models - one model per (core, benchmark) present in
 * @r->pts, appended to @r->models; a pair with fewer than two usable
 * periods gets no model and a note.  Returns 0 or -ENOMEM.
 */
int cal_overhead_fit_models(struct overhead_result *r)
{
	free(r->models);
	r->models = calloc(r->n_pts + 1, sizeof(*r->models));
	r->n_models = 0;
	if (!r->models)
		return -ENOMEM;
	for (size_t i = 0; i < r->n_pts; i++) {
		const struct overhead_point *p = &r->pts[i];
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = r->pts[j].db.cpu == p->db.cpu &&
			       !strcmp(r->pts[j].db.benchmark, p->db.benchmark);
		if (seen)
			continue;
		if (fit_one(r, p->db.cpu, p->db.benchmark,
			    &r->models[r->n_models]) == 0)
			r->n_models++;
		else
			cal_overhead_note(r, "no model for cpu %d %s: fewer than two "
				      "usable periods", p->db.cpu,
				      p->db.benchmark);
	}
	return 0;
}
