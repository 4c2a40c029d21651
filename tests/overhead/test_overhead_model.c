// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_overhead_model.c - the overhead model fit on synthetic points:
 * exact recovery of cost and base, r2, refusal of degenerate input, and
 * which points cal_overhead_fit_models() uses (master elsewhere, not
 * livelocked, linear regime).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "overhead.h"

/* A cost of 40 us per period and base 1.02, at five periods: exact. */
Test(overhead_model, exact_recovery)
{
	const double per[] = { 20e3, 50e3, 100e3, 500e3, 1000e3 };
	double y[5], cost, base, r2;

	for (int i = 0; i < 5; i++)
		y[i] = 1.02 + 40e3 / per[i];
	cr_assert_eq(cal_overhead_fit(per, y, 5, &cost, &base, &r2), 0);
	cr_assert_float_eq(cost, 40e3, 1e-6);
	cr_assert_float_eq(base, 1.02, 1e-12);
	cr_assert_float_eq(r2, 1.0, 1e-12);
}

/* Noisy points: the fit is the least-squares one and r2 below 1. */
Test(overhead_model, noisy_points)
{
	const double per[] = { 100e3, 200e3, 500e3, 1000e3 };
	const double noise[] = { 0.01, -0.01, 0.01, -0.01 };
	double y[4], cost, base, r2;

	for (int i = 0; i < 4; i++)
		y[i] = 1.0 + 10e3 / per[i] + noise[i];
	cr_assert_eq(cal_overhead_fit(per, y, 4, &cost, &base, &r2), 0);
	cr_assert(fabs(cost - 10e3) < 3e3, "cost %g", cost);
	cr_assert(fabs(base - 1.0) < 0.02, "base %g", base);
	cr_assert(r2 > 0.5 && r2 < 1.0, "r2 %g", r2);
}

/* Flat ratios: zero cost, the base, a perfect fit. */
Test(overhead_model, flat)
{
	const double per[] = { 100e3, 1000e3 };
	const double y[] = { 1.1, 1.1 };
	double cost, base, r2;

	cr_assert_eq(cal_overhead_fit(per, y, 2, &cost, &base, &r2), 0);
	cr_assert_float_eq(cost, 0, 1e-9);
	cr_assert_float_eq(base, 1.1, 1e-12);
	cr_assert_float_eq(r2, 1.0, 1e-12);
}

/* One point, equal periods, a zero period or a non-finite ratio: refused. */
Test(overhead_model, degenerate)
{
	const double p1[] = { 100e3 }, y1[] = { 1.2 };
	const double p2[] = { 100e3, 100e3 }, y2[] = { 1.2, 1.3 };
	const double p3[] = { 0, 100e3 }, y3[] = { 1.2, 1.3 };
	const double p4[] = { 50e3, 100e3 }, y4[] = { INFINITY, 1.3 };
	double c, b, r;

	cr_assert_neq(cal_overhead_fit(p1, y1, 1, &c, &b, &r), 0);
	cr_assert_neq(cal_overhead_fit(p2, y2, 2, &c, &b, &r), 0);
	cr_assert_neq(cal_overhead_fit(p3, y3, 2, &c, &b, &r), 0);
	cr_assert_neq(cal_overhead_fit(p4, y4, 2, &c, &b, &r), 0);
}

/* add - append a synthetic point to @r. */
static void add(struct overhead_result *r, int cpu, int period_us,
		int master, double ratio, bool ruined)
{
	struct overhead_point *p = &r->pts[r->n_pts++];

	memset(p, 0, sizeof(*p));
	p->db.cpu = cpu;
	p->db.period_us = period_us;
	snprintf(p->db.benchmark, sizeof(p->db.benchmark), "compute");
	snprintf(p->db.method, sizeof(p->db.method), "proxy");
	p->db.master_cpu = master;
	p->db.repetitions = 3;
	p->db.ratio_median = p->db.ratio_min = p->db.ratio_max = ratio;
	p->ruined = ruined;
}

/*
 * Models per core from master-elsewhere points only; livelocked points
 * and points above OVH_FIT_MAX_RATIO are left out; a core with a single
 * usable period gets no model but a note.
 */
Test(overhead_model, fit_models_selects_points)
{
	struct overhead_point pts[16];
	struct overhead_result r;

	memset(&r, 0, sizeof(r));
	r.pts = pts;
	snprintf(r.method, sizeof(r.method), "proxy");
	/* cpu 0: exact 1 + 30us/P at 100/200/1000 us, master on cpu 1 */
	add(&r, 0, 1000, 1, 1.03, false);
	add(&r, 0, 200, 1, 1.15, false);
	add(&r, 0, 100, 1, 1.30, false);
	add(&r, 0, 20, 1, 7.5, true);		/* livelocked: ignored */
	add(&r, 0, 32, 1, 3.0, false);		/* non-linear regime: ignored */
	add(&r, 0, 100, 0, 9.0, false);		/* on the master: ignored */
	/* cpu 1: only one period */
	add(&r, 1, 1000, 0, 1.05, false);
	cr_assert_eq(cal_overhead_fit_models(&r), 0);
	cr_assert_eq(r.n_models, 1);
	cr_assert_eq(r.models[0].cpu, 0);
	cr_assert_str_eq(r.models[0].benchmark, "compute");
	cr_assert_str_eq(r.models[0].method, "proxy");
	cr_assert_float_eq(r.models[0].cost_per_irq_ns, 30e3, 1e-6);
	cr_assert_float_eq(r.models[0].base_ratio, 1.0, 1e-9);
	cr_assert(r.notes && strstr(r.notes, "no model for cpu 1"));
	free(r.models);
	free(r.notes);
}

/* A one-core machine has only master points: those are fitted. */
Test(overhead_model, master_only_core)
{
	struct overhead_point pts[4];
	struct overhead_result r;

	memset(&r, 0, sizeof(r));
	r.pts = pts;
	snprintf(r.method, sizeof(r.method), "memreg");
	add(&r, 0, 1000, 0, 1.01, false);
	add(&r, 0, 100, 0, 1.10, false);
	cr_assert_eq(cal_overhead_fit_models(&r), 0);
	cr_assert_eq(r.n_models, 1);
	cr_assert_float_eq(r.models[0].cost_per_irq_ns, 10e3, 1e-6);
	cr_assert_str_eq(r.models[0].method, "memreg");
	free(r.models);
	free(r.notes);
}
