// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_budget.c - per-core read and write budgets for one period.
 *
 * Real-time cores get a guaranteed share sized from their own trace: the
 * mix's percentile of the per-period demand plus its margin, never below
 * the floor of plan_floor.c (ceiling: the largest period's demand plus the
 * margin, never below the guarantee).  Best-effort cores share what
 * the real-time guarantees leave of the sustainable bandwidth (per class:
 * its share of the figure at the workloads' read/write mix, plan_mix.c), in
 * proportion to their own percentile demand, and may grow (LMS, reclaim,
 * spare sharing) up to that remainder.  The sum of guarantees never
 * exceeds the sustainable bandwidth; when the real-time guarantees alone
 * exceed it, the mix cannot be regulated and the planner says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* cmp_u64 - qsort comparator. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/**
 * tune_plan_percentile() - the @pct percentile (nearest rank) of @v[0..n-1];
 * sorts @v in place.  0 for an empty array.
 */
double tune_plan_percentile(uint64_t *v, size_t n, double pct)
{
	size_t rank;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	rank = (size_t)ceil(pct / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return (double)v[rank - 1];
}

/*
 * period_stats - percentile and maximum of CPU @cpu's class-@k demand per
 * period of @tpp ticks, in bytes.
 */
static void period_stats(const struct plan_traces *t, int cpu, int k,
			 size_t tpp, double pct, double *p, double *max)
{
	size_t np = t->len / tpp;
	uint64_t *v = calloc(np ? np : 1, sizeof(*v));

	*p = *max = 0;
	if (!v)
		return;
	for (size_t i = 0; i < np; i++) {
		for (size_t j = 0; j < tpp; j++)
			v[i] += t->bytes[((i * tpp + j) * (size_t)t->nr_cpus +
					  (size_t)cpu) * 2 + (size_t)k];
		if ((double)v[i] > *max)
			*max = (double)v[i];
	}
	*p = tune_plan_percentile(v, np, pct);
	free(v);
}

/* events_up - @bytes in events, rounded up, at least 1. */
static uint64_t events_up(double bytes, double bpe)
{
	double e = ceil(bytes / bpe);

	return e < 1 ? 1 : (uint64_t)e;
}

/* events_down - @bytes in events, rounded down, at least 1. */
static uint64_t events_down(double bytes, double bpe)
{
	double e = floor(bytes / bpe);

	return e < 1 ? 1 : (uint64_t)e;
}

/*
 * explain_rt - the reason for a real-time core's budget: its trace's
 * need, its floor and where the floor's figures come from.
 */
static void explain_rt(struct tune_config *out, int c, int k,
		       const struct tune_budget *b, const struct tune_plan_floor *f,
		       double need, double sec)
{
	tune_config_explain(out, "cpu %d %s budget %.1f MB/s guaranteed, %.1f MB/s "
		       "ceiling: real-time, the larger of p%g of its trace + "
		       "%g%% (%.1f MB/s) and its floor %.1f MB/s = %s "
		       "%.0f KiB%s once per %.0f us period "
		       "(%.1f MB/s) + %g%% of the %.1f MB/s sustainable "
		       "(%.1f MB/s)", c, k ? "write" : "read",
		       b->guaranteed_bps / 1e6, b->ceiling_bps / 1e6,
		       out->percentile, out->margin_pct, need / sec / 1e6,
		       b->floor_bps / 1e6, k ? "the write-backs of a refill "
		       "that evicts the dirty lines of its private caches" :
		       "a refill of its private caches",
		       (double)f->cache / 1024,
		       f->cache_known ? "" : " (assumed: the topology lists "
		       "none)", sec * 1e6, f->refill / sec / 1e6,
		       PLAN_FLOOR_NOISE_SHARE * 100,
		       f->noise / sec / 1e6 / PLAN_FLOOR_NOISE_SHARE,
		       f->noise / sec / 1e6);
	if (!f->cache_known && k == TUNE_READ)
		tune_config_warn(out, "cpu %d: the platform profile lists no cache "
			    "for it, so its floors assume %u KiB of private "
			    "cache; run 'memcal run' on a board whose topology "
			    "is visible for a measured figure", c,
			    PLAN_FLOOR_DEFAULT_CACHE / 1024);
}

/*
 * fit_class - budgets of class @k at period @sec seconds under its
 * platform ceiling in @mix; MEMCAL_ENOFIT with a message when the
 * real-time guarantees exceed it.
 */
static int fit_class(const struct plan_input *in, const struct plan_traces *t,
		     size_t tpp, double sec, int k, const struct plan_mix *mix,
		     struct tune_config *out, bool explain, char *err,
		     size_t errlen)
{
	static const char *const cls[] = { "read", "write" };
	double sustain = mix->ceiling_bps[k];
	double plat = sustain * sec, rt_sum = 0, be_w = 0;
	double pct[TUNE_MAX_CPUS], mx[TUNE_MAX_CPUS], bpe, floor_sum = 0;
	struct tune_plan_floor fl[TUNE_MAX_CPUS];
	double margin = 1.0 + in->mix->margin_pct / 100.0;
	uint64_t ev_sum = 0;
	int n_be = 0;

	bpe = out->counter[k].bytes_per_event;
	out->ceiling_bps[k] = sustain;
	out->ceiling_events[k] = events_down(plat, bpe);
	for (int c = 0; c < t->nr_cpus; c++) {
		period_stats(t, c, k, tpp, in->mix->percentile, &pct[c],
			     &mx[c]);
		if (!t->has_work[c])
			continue;
		if (t->rt[c]) {
			tune_plan_floor(in, c, k, sec, &fl[c]);
			floor_sum += fl[c].bytes;
			rt_sum += fmax(pct[c] * margin, fl[c].bytes);
		} else {
			n_be++;
			be_w += pct[c] > 0 ? pct[c] : 1;
		}
	}
	if (floor_sum > plat) {
		snprintf(err, errlen, "budgets cannot fit: the real-time cores' "
			 "floors alone need %.1f MB/s of %s traffic at a %.0f us "
			 "period (each: its private caches refilled once per "
			 "period, plus %g%% of the sustainable bandwidth for "
			 "what a profile cannot see), but the board sustains "
			 "%.1f MB/s; plan with longer periods (--periods), make "
			 "a workload best-effort, or run the real-time "
			 "workloads on fewer cores", floor_sum / sec / 1e6,
			 cls[k], sec * 1e6, PLAN_FLOOR_NOISE_SHARE * 100,
			 plat / sec / 1e6);
		return MEMCAL_ENOFIT;
	}
	if (rt_sum > plat || (n_be && plat - rt_sum < (double)n_be * bpe)) {
		snprintf(err, errlen, "budgets cannot fit: the real-time cores "
			 "need %.1f MB/s of %s traffic (p%g of their traces + "
			 "%g%%, at least their floors)%s, but the board sustains "
			 "%.1f MB/s; lower the "
			 "percentile or margin, make a workload best-effort, "
			 "or run 'memcal run' again if the calibration is "
			 "wrong", rt_sum / sec / 1e6, cls[k],
			 in->mix->percentile, in->mix->margin_pct,
			 n_be ? " and the best-effort cores need at least one "
			 "event each" : "", plat / sec / 1e6);
		return MEMCAL_ENOFIT;
	}
	for (int c = 0; c < t->nr_cpus; c++) {
		struct tune_budget *b = &tune_config_cpu(out, c)->b[k];
		double g, ce;

		memset(b, 0, sizeof(*b));
		if (!t->has_work[c])
			continue;
		if (t->rt[c]) {
			g = fmax(pct[c] * margin, fl[c].bytes);
			ce = fmax(g, mx[c] * margin);
			if (ce > plat)
				ce = plat;
			b->guaranteed_events = events_up(g, bpe);
			b->floor_events = events_up(fl[c].bytes, bpe);
		} else {
			g = (plat - rt_sum) * (pct[c] > 0 ? pct[c] : 1) / be_w;
			ce = plat - rt_sum;
			b->guaranteed_events = events_down(g, bpe);
		}
		b->ceiling_events = events_down(ce, bpe);
		if (b->ceiling_events < b->guaranteed_events)
			b->ceiling_events = b->guaranteed_events;
		ev_sum += b->guaranteed_events;
	}
	/* rounding up the real-time guarantees may overshoot by a few events:
	 * take them back from the best-effort cores */
	for (int c = 0; ev_sum > out->ceiling_events[k] && c < t->nr_cpus; c++) {
		struct tune_budget *b = &tune_config_cpu(out, c)->b[k];
		uint64_t over = ev_sum - out->ceiling_events[k];
		uint64_t give;

		if (!t->has_work[c] || t->rt[c] || b->guaranteed_events <= 1)
			continue;
		give = b->guaranteed_events - 1 < over ?
		       b->guaranteed_events - 1 : over;
		b->guaranteed_events -= give;
		ev_sum -= give;
	}
	if (ev_sum > out->ceiling_events[k]) {
		snprintf(err, errlen, "budgets cannot fit: %s guarantees of "
			 "%llu events per period exceed the platform's %llu",
			 cls[k], (unsigned long long)ev_sum,
			 (unsigned long long)out->ceiling_events[k]);
		return MEMCAL_ENOFIT;
	}
	for (int c = 0; c < t->nr_cpus; c++) {
		struct tune_budget *b = &tune_config_cpu(out, c)->b[k];

		b->guaranteed_bps = (double)b->guaranteed_events * bpe / sec;
		b->ceiling_bps = (double)b->ceiling_events * bpe / sec;
		b->floor_bps = (double)b->floor_events * bpe / sec;
		if (!explain || !t->has_work[c])
			continue;
		if (t->rt[c])
			explain_rt(out, c, k, b, &fl[c], pct[c] * margin, sec);
		else
			tune_config_explain(out, "cpu %d %s budget %.1f MB/s "
				       "guaranteed, %.1f MB/s ceiling: "
				       "best-effort, a share of what real-time "
				       "cores leave", c, cls[k],
				       b->guaranteed_bps / 1e6,
				       b->ceiling_bps / 1e6);
	}
	if (explain)
		tune_config_explain(out, "%s guarantees total %.1f MB/s of the "
			       "%.1f MB/s the board sustains%s", cls[k],
			       (double)ev_sum * bpe / sec / 1e6, sustain / 1e6,
			       mix->from_family ? " for this class at the mix" :
			       "");
	return MEMCAL_OK;
}

/*
 * class_reserve - what class @k must be given before the rest is split by
 * the mix (plan_mix.c), in bytes per second at period @sec: each
 * real-time core's guarantee as fit_class() rounds it (its trace's need
 * or its floor), one event for each best-effort core, and one event of
 * slack for rounding the class ceiling down to whole events.
 */
static double class_reserve(const struct plan_input *in,
			    const struct plan_traces *t, size_t tpp, double sec,
			    int k, const struct tune_config *out)
{
	double margin = 1.0 + in->mix->margin_pct / 100.0;
	double bpe = out->counter[k].bytes_per_event, ev = 1;

	for (int c = 0; c < t->nr_cpus; c++) {
		struct tune_plan_floor fl;
		double pct, mx;

		if (!t->has_work[c])
			continue;
		if (!t->rt[c]) {
			ev += 1;
			continue;
		}
		period_stats(t, c, k, tpp, in->mix->percentile, &pct, &mx);
		tune_plan_floor(in, c, k, sec, &fl);
		ev += (double)events_up(fmax(pct * margin, fl.bytes), bpe);
	}
	return ev * bpe / sec;
}

/**
 * tune_plan_budgets() - set every CPU's budgets in @out for @period_us.
 * @t:       per-core traces.
 * @explain: record the reasoning in @out (only for the final choice).
 *
 * Return: MEMCAL_OK, MEMCAL_EINVAL (period not a multiple of the trace tick)
 * or MEMCAL_ENOFIT with @err saying what does not fit and what to do.
 */
int tune_plan_budgets(const struct plan_input *in, const struct plan_traces *t,
		 uint32_t period_us, struct tune_config *out, bool explain,
		 char *err, size_t errlen)
{
	double reserve[TUNE_NR_CLASSES];
	struct plan_mix mix;
	size_t tpp;
	int rc;

	if (!t->tick_us || period_us % t->tick_us ||
	    period_us / t->tick_us > t->len) {
		snprintf(err, errlen, "period %u us does not fit the %u us "
			 "trace granularity and %zu samples", period_us,
			 t->tick_us, t->len);
		return MEMCAL_EINVAL;
	}
	tpp = period_us / t->tick_us;
	out->period_us = (int)period_us;
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		reserve[k] = class_reserve(in, t, tpp, period_us / 1e6, k, out);
	rc = tune_plan_mix_ceilings(in, t, reserve, period_us / 1e6, &mix, err,
			       errlen);
	if (rc)
		return rc;
	if (explain)
		tune_plan_mix_explain(in, &mix, out);
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		rc = fit_class(in, t, tpp, period_us / 1e6, k, &mix, out,
			       explain, err, errlen);
		if (rc)
			return rc;
	}
	/*
	 * A reclaim take of 1/8 of the smallest real guarantee, as memreg
	 * does, but never below 1/1000 of the platform ceiling: a class with
	 * a token guarantee of one event must not make every take one event
	 * (one overflow interrupt per event).
	 */
	out->reclaim_quantum = UINT32_MAX;
	for (int c = 0; c < t->nr_cpus; c++)
		for (int k = 0; k < TUNE_NR_CLASSES; k++) {
			uint64_t g = tune_config_cpu(out, c)->b[k].guaranteed_events;

			if (t->has_work[c] && g > 8 && g / 8 < out->reclaim_quantum)
				out->reclaim_quantum = (uint32_t)(g / 8);
		}
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		uint64_t floor_q = out->ceiling_events[k] / 1000;

		if (floor_q > UINT32_MAX)
			floor_q = UINT32_MAX;
		if (out->reclaim_quantum != UINT32_MAX &&
		    out->reclaim_quantum < floor_q)
			out->reclaim_quantum = (uint32_t)floor_q;
	}
	if (out->reclaim_quantum < 1 || out->reclaim_quantum == UINT32_MAX)
		out->reclaim_quantum = 1;
	return MEMCAL_OK;
}
