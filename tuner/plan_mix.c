// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_mix.c - the platform ceiling per traffic class at the workloads'
 * own read/write mix.
 *
 * The memory does not sustain reads and writes as two independent
 * ceilings: what it sustains depends on their mix.  The calibration
 * measures a family of curves (read shares 100, 75, 50, 25 and 0 %), each
 * with its sustainable figure.  The planner takes the mix of the placed
 * workloads' traces (read bytes over all bytes), interpolates the family's
 * sustainable figure linearly in the read share between the two measured
 * shares around it, and splits that one figure between the classes: each
 * class first gets what it cannot do without (the real-time cores'
 * guarantees, PLAN_MIN_EVENTS per period for each best-effort core: computed
 * by plan_budget.c), the rest goes to reads and writes in the mix's
 * proportion.  A platform profile
 * without a family keeps the per-class figures, and the reasons say so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"

/**
 * tune_plan_mix_share() - the read share of all bytes in the traces @t of the
 * placed workloads, 0..1; NAN when they carry no traffic at all.
 */
double tune_plan_mix_share(const struct plan_traces *t)
{
	double rd = 0, wr = 0;

	for (size_t i = 0; i < t->len * (size_t)t->nr_cpus; i++) {
		rd += (double)t->bytes[i * 2];
		wr += (double)t->bytes[i * 2 + 1];
	}
	return rd + wr > 0 ? rd / (rd + wr) : NAN;
}

/**
 * tune_plan_mix_interpolate() - the family's sustainable figure at read share
 * @share (0..1) into @m: linear between the measured shares around it
 * (the nearest one outside the measured range), which it names in
 * @m->lo_pct and @m->hi_pct, a lower bound when either is one.
 *
 * Return: 0, or MEMCAL_ENOTFOUND when @f holds no curve.
 */
int tune_plan_mix_interpolate(const struct plan_family *f, double share,
			 struct plan_mix *m)
{
	double pct = share * 100;
	int lo = -1, hi = -1;

	for (int i = 0; i < f->n; i++) {
		if (f->read_pct[i] <= pct &&
		    (lo < 0 || f->read_pct[i] > f->read_pct[lo]))
			lo = i;
		if (f->read_pct[i] >= pct &&
		    (hi < 0 || f->read_pct[i] < f->read_pct[hi]))
			hi = i;
	}
	if (lo < 0)
		lo = hi;
	if (hi < 0)
		hi = lo;
	if (lo < 0)
		return MEMCAL_ENOTFOUND;
	m->lo_pct = f->read_pct[lo];
	m->hi_pct = f->read_pct[hi];
	m->lower_bound = f->lower_bound[lo] || f->lower_bound[hi];
	if (f->read_pct[hi] == f->read_pct[lo])
		m->total_bps = f->sustain_bps[lo];
	else
		m->total_bps = f->sustain_bps[lo] +
			       (f->sustain_bps[hi] - f->sustain_bps[lo]) *
			       (pct - f->read_pct[lo]) /
			       (f->read_pct[hi] - f->read_pct[lo]);
	m->lo_bps = f->sustain_bps[lo];
	m->hi_bps = f->sustain_bps[hi];
	return 0;
}

/**
 * tune_plan_mix_ceilings() - the platform ceiling of each class for the traces
 * @t at a period of @sec seconds, into @m: the family's figure at their
 * mix, each class first given its @reserve (bytes/s: what it cannot do
 * without), the rest split in the mix's proportion.  Without a family (or
 * without any traffic to take a mix from) the per-class figures stand.
 *
 * Return: MEMCAL_OK, or MEMCAL_ENOFIT with @err when the figure at the mix
 * cannot hold even the reserves.
 */
int tune_plan_mix_ceilings(const struct plan_input *in, const struct plan_traces *t,
		      const double *reserve, double sec, struct plan_mix *m,
		      char *err, size_t errlen)
{
	double rest;

	memset(m, 0, sizeof(*m));
	m->share = tune_plan_mix_share(t);
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		m->ceiling_bps[k] = in->sustain_bps[k];
	if (isnan(m->share) || tune_plan_mix_interpolate(&in->family, m->share, m))
		return MEMCAL_OK;
	m->from_family = true;
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		m->reserve_bps[k] = reserve[k];
	rest = m->total_bps - m->reserve_bps[TUNE_READ] -
	       m->reserve_bps[TUNE_WRITE];
	if (rest < 0) {
		snprintf(err, errlen, "budgets cannot fit: the workloads' mix is "
			 "%.0f %% read, at which the board sustains %.1f MB/s, "
			 "but the real-time guarantees (their traces' needs or "
			 "floors) and %d events per period for each best-effort "
			 "core need %.1f MB/s at a %.0f us period; plan with "
			 "longer periods (--periods), lower the percentile or "
			 "margin, or run the real-time workloads on fewer cores",
			 m->share * 100, m->total_bps / 1e6, PLAN_MIN_EVENTS,
			 (m->reserve_bps[0] + m->reserve_bps[1]) / 1e6,
			 sec * 1e6);
		return MEMCAL_ENOFIT;
	}
	m->ceiling_bps[TUNE_READ] = m->reserve_bps[TUNE_READ] +
				    rest * m->share;
	m->ceiling_bps[TUNE_WRITE] = m->reserve_bps[TUNE_WRITE] +
				     rest * (1 - m->share);
	return MEMCAL_OK;
}

/**
 * tune_plan_mix_explain() - the reason for the ceilings @m: the mix taken from
 * the traces and the figure used, or why the per-class figures stand.
 */
void tune_plan_mix_explain(const struct plan_input *in, const struct plan_mix *m,
		      struct tune_config *out)
{
	char from[160];

	if (!m->from_family) {
		tune_config_reason(out, TUNE_REASON_MIX, "read/write mix: %s, so "
			      "reads (%.1f MB/s) and writes (%.1f MB/s) are "
			      "planned against independent ceilings; run "
			      "'memcal run' for the bandwidth-latency family",
			      isnan(m->share) ? "the traces carry no traffic "
			      "to take a mix from" : "the platform profile "
			      "holds no bandwidth-latency family",
			      in->sustain_bps[TUNE_READ] / 1e6,
			      in->sustain_bps[TUNE_WRITE] / 1e6);
		return;
	}
	if (m->lo_pct == m->hi_pct)
		snprintf(from, sizeof(from), "its %d %% read curve", m->lo_pct);
	else
		snprintf(from, sizeof(from), "between its %d %% (%.1f MB/s) "
			 "and %d %% read (%.1f MB/s) curves", m->lo_pct,
			 m->lo_bps / 1e6, m->hi_pct, m->hi_bps / 1e6);
	tune_config_reason(out, TUNE_REASON_MIX, "read/write mix: the workloads' "
		      "traces are %.1f %% read; the bandwidth-latency family "
		      "sustains %s%.1f MB/s at that mix (%s%s), split %.1f MB/s "
		      "read and %.1f MB/s write after the real-time "
		      "guarantees and best-effort minimums (%.1f and %.1f "
		      "MB/s)",
		      m->share * 100, m->lower_bound ? ">= " : "",
		      m->total_bps / 1e6, from, m->lower_bound ?
		      ", a lower bound" : "",
		      m->ceiling_bps[TUNE_READ] / 1e6,
		      m->ceiling_bps[TUNE_WRITE] / 1e6,
		      m->reserve_bps[TUNE_READ] / 1e6,
		      m->reserve_bps[TUNE_WRITE] / 1e6);
}
