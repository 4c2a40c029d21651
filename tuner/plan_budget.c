// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_budget.c - per-core read and write budgets for one period.
 *
 * Two pools (plan_pool.c).  Guarantees come from the guaranteed pool:
 * a real-time core gets its own trace's need, the mix's percentile of
 * the per-period demand plus its margin, never below the floor of
 * plan_floor.c; a best-effort core a small stated guarantee, the least of
 * its trace's p10, 5 % of the pool and an even share of what the
 * real-time cores leave of it, at least PLAN_MIN_EVENTS.  The streaming
 * sustainable figure at the workloads' mix (plan_mix.c) is the platform
 * ceiling; the headroom above the sum of the guarantees is what cores
 * grow into: a best-effort core's ceiling is its guarantee plus all of
 * it, a real-time core's its own peak demand plus the margin, capped
 * the same way.  When the real-time needs exceed the pool the mix
 * cannot be regulated and the planner says so.
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

/* events_up - @bytes in events, rounded up, at least PLAN_MIN_EVENTS. */
static uint64_t events_up(double bytes, double bpe)
{
	double e = ceil(bytes / bpe);

	return e < PLAN_MIN_EVENTS ? PLAN_MIN_EVENTS : (uint64_t)e;
}

/* events_down - @bytes in events, rounded down, at least PLAN_MIN_EVENTS. */
static uint64_t events_down(double bytes, double bpe)
{
	double e = floor(bytes / bpe);

	return e < PLAN_MIN_EVENTS ? PLAN_MIN_EVENTS : (uint64_t)e;
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
 * settle - the static budgets LMS settles on when every core is busy:
 * each best-effort core's guarantee raised by its share of the headroom
 * @head_ev in proportion to its percentile demand @pct (weights summing
 * to @be_w), so the budgets fill the platform ceiling.  For the period
 * choice only (plan_period.c): a replay with the small stated guarantees
 * alone would measure the guarantees, not the regulation.
 */
static void settle(const struct plan_traces *t, const double *pct, double be_w,
		   uint64_t head_ev, int k, struct tune_config *out)
{
	for (int c = 0; c < t->nr_cpus; c++) {
		struct tune_budget *b = &tune_config_cpu(out, c)->b[k];

		if (!t->has_work[c] || t->rt[c])
			continue;
		b->guaranteed_events += (uint64_t)((double)head_ev *
					(pct[c] > 0 ? pct[c] : 1) / be_w);
	}
}

/*
 * fit_class - budgets of class @k at period @sec seconds: guarantees
 * inside the guaranteed pool @pool, ceilings up to the platform ceiling
 * in @mix; MEMCAL_ENOFIT with a message when they cannot fit.
 */
static int fit_class(const struct plan_input *in, const struct plan_traces *t,
		     size_t tpp, double sec, int k, const struct plan_mix *mix,
		     const struct plan_pool *pool, struct tune_config *out,
		     bool explain, bool settled, char *err, size_t errlen)
{
	static const char *const cls[] = { "read", "write" };
	double sustain = mix->ceiling_bps[k];
	double plat = sustain * sec, rt_sum = 0, rt_pool = 0, be_cap = 0;
	double poolb = pool->pool_bps[k] * sec;
	double pct[TUNE_MAX_CPUS], mx[TUNE_MAX_CPUS], low[TUNE_MAX_CPUS];
	double bpe, floor_sum = 0, be_w = 0;
	struct tune_plan_floor fl[TUNE_MAX_CPUS];
	double margin = 1.0 + in->mix->margin_pct / 100.0;
	uint64_t ev_sum = 0, ev_pool = 0, pool_ev, head_ev;
	int n_be = 0;

	bpe = out->counter[k].bytes_per_event;
	out->ceiling_bps[k] = sustain;
	out->ceiling_events[k] = events_down(plat, bpe);
	pool_ev = events_down(poolb, bpe);
	if (pool_ev > out->ceiling_events[k])
		pool_ev = out->ceiling_events[k];
	for (int c = 0; c < t->nr_cpus; c++) {
		period_stats(t, c, k, tpp, in->mix->percentile, &pct[c],
			     &mx[c]);
		if (!t->has_work[c])
			continue;
		if (t->rt[c]) {
			double need;

			tune_plan_floor(in, c, k, sec, &fl[c]);
			floor_sum += fl[c].bytes;
			need = fmax(pct[c] * margin, fl[c].bytes);
			rt_sum += need;
			if (!tune_config_cpu(out, c)->rt_exempt)
				rt_pool += need;
		} else {
			n_be++;
			be_w += pct[c] > 0 ? pct[c] : 1;
			period_stats(t, c, k, tpp, PLAN_BE_PERCENTILE, &low[c],
				     &mx[c]);
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
	if (rt_sum > plat || (n_be && plat - rt_sum <
				 (double)n_be * PLAN_MIN_EVENTS * bpe)) {
		snprintf(err, errlen, "budgets cannot fit: the real-time cores "
			 "need %.1f MB/s of %s traffic (p%g of their traces + "
			 "%g%%, at least their floors)%s, but the board sustains "
			 "%.1f MB/s; lower the "
			 "percentile or margin, make a workload best-effort, "
			 "or run 'memcal run' again if the calibration is "
			 "wrong", rt_sum / sec / 1e6, cls[k],
			 in->mix->percentile, in->mix->margin_pct,
			 n_be ? " and the best-effort cores need at least "
			 PLAN_STR(PLAN_MIN_EVENTS) " events each" : "",
			 plat / sec / 1e6);
		return MEMCAL_ENOFIT;
	}
	if (n_be)
		be_cap = (poolb - rt_pool) / n_be;
	for (int c = 0; c < t->nr_cpus; c++) {
		struct tune_budget *b = &tune_config_cpu(out, c)->b[k];
		double g;

		memset(b, 0, sizeof(*b));
		if (!t->has_work[c])
			continue;
		if (t->rt[c]) {
			g = fmax(pct[c] * margin, fl[c].bytes);
			b->guaranteed_events = events_up(g, bpe);
			b->floor_events = events_up(fl[c].bytes, bpe);
			/* its ceiling for now; capped by the headroom below */
			b->ceiling_events = events_down(fmax(g, mx[c] * margin),
							bpe);
		} else {
			/* the stated best-effort guarantee (plan_pool.c) */
			g = fmin(fmin(PLAN_BE_POOL_SHARE * poolb, low[c]),
				 be_cap);
			b->guaranteed_events = events_down(g, bpe);
		}
		ev_sum += b->guaranteed_events;
		if (!tune_config_cpu(out, c)->rt_exempt)
			ev_pool += b->guaranteed_events;
	}
	/* rounding up the real-time guarantees may overshoot the pool by a
	 * few events: take them back from the best-effort cores */
	for (int c = 0; (ev_pool > pool_ev || ev_sum > out->ceiling_events[k]) &&
	     c < t->nr_cpus; c++) {
		struct tune_budget *b = &tune_config_cpu(out, c)->b[k];
		uint64_t over = ev_pool > pool_ev ? ev_pool - pool_ev : 0;
		uint64_t give;

		if (ev_sum > out->ceiling_events[k] &&
		    ev_sum - out->ceiling_events[k] > over)
			over = ev_sum - out->ceiling_events[k];
		if (!t->has_work[c] || t->rt[c] ||
		    b->guaranteed_events <= PLAN_MIN_EVENTS)
			continue;
		give = b->guaranteed_events - PLAN_MIN_EVENTS < over ?
		       b->guaranteed_events - PLAN_MIN_EVENTS : over;
		b->guaranteed_events -= give;
		ev_sum -= give;
		ev_pool -= give;
	}
	if (ev_pool > pool_ev || ev_sum > out->ceiling_events[k]) {
		snprintf(err, errlen, "budgets cannot fit: %s guarantees of "
			 "%llu events per period exceed the guaranteed pool's "
			 "%llu (platform ceiling %llu)", cls[k],
			 (unsigned long long)ev_pool, (unsigned long long)pool_ev,
			 (unsigned long long)out->ceiling_events[k]);
		return MEMCAL_ENOFIT;
	}
	/*
	 * The headroom, platform ceiling minus every guarantee, is what a
	 * core may grow into: a best-effort core up to its guarantee plus
	 * all of it (LMS divides it by predicted demand, sharing grants what
	 * is left), a real-time core up to its own peak, never past it.
	 */
	head_ev = out->ceiling_events[k] - ev_sum;
	if (settled)
		settle(t, pct, be_w, head_ev, k, out);
	for (int c = 0; c < t->nr_cpus; c++) {
		struct tune_budget *b = &tune_config_cpu(out, c)->b[k];

		if (!t->has_work[c])
			continue;
		if (!t->rt[c] || b->ceiling_events > b->guaranteed_events +
		    head_ev)
			b->ceiling_events = b->guaranteed_events + head_ev;
		if (b->ceiling_events < b->guaranteed_events)
			b->ceiling_events = b->guaranteed_events;
	}
	if (n_be && !head_ev)
		tune_config_warn(out, "no %s headroom: the guarantees take the "
			    "whole %.1f MB/s platform ceiling, so best-effort "
			    "cores cannot grow past their guarantees", cls[k],
			    sustain / 1e6);
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
				       "best-effort, guaranteed the least of "
				       "p%d of its trace, %g%% of the "
				       "guaranteed pool and an even share of "
				       "what real-time cores leave of it (at "
				       "least %d events); its ceiling adds the "
				       "headroom", c, cls[k],
				       b->guaranteed_bps / 1e6,
				       b->ceiling_bps / 1e6, PLAN_BE_PERCENTILE,
				       PLAN_BE_POOL_SHARE * 100, PLAN_MIN_EVENTS);
	}
	if (explain)
		tune_config_explain(out, "%s: guaranteed pool %.1f MB/s (%s), "
			       "sum of guarantees %.1f MB/s%s, platform ceiling "
			       "%.1f MB/s (streaming sustainable%s), headroom "
			       "%.1f MB/s", cls[k], pool->pool_bps[k] / 1e6,
			       pool->streaming ? "streaming, "
			       "--guarantees-from-streaming" :
			       in->guaranteed_method[k],
			       (double)ev_sum * bpe / sec / 1e6,
			       ev_sum != ev_pool ? " (rt_exempt cores' needs "
			       "outside the pool)" : "", sustain / 1e6,
			       mix->from_family ? " at the mix" : "",
			       (double)head_ev * bpe / sec / 1e6);
	return MEMCAL_OK;
}

/*
 * class_reserve - what class @k must be given before the rest is split by
 * the mix (plan_mix.c, plan_pool.c), in bytes per second at period @sec:
 * each real-time core's guarantee as fit_class() rounds it (its trace's
 * need or its floor), PLAN_MIN_EVENTS for each best-effort core, and one
 * event of slack for rounding the class ceiling down to whole events.
 * @all:  (out) all of it, which the platform ceiling must hold.
 * @pool: (out) the same without the rt_exempt cores' needs, which the
 *        guaranteed pool must hold: the regulator holds no one back for
 *        them.
 */
static void class_reserve(const struct plan_input *in,
			  const struct plan_traces *t, size_t tpp, double sec,
			  int k, const struct tune_config *out, double *all,
			  double *pool)
{
	double margin = 1.0 + in->mix->margin_pct / 100.0;
	double bpe = out->counter[k].bytes_per_event, ev = 1, exempt = 0;

	for (int c = 0; c < t->nr_cpus; c++) {
		const struct tune_cpu *p = tune_config_cpu_const(out, c);
		struct tune_plan_floor fl;
		double pct, mx, need;

		if (!t->has_work[c])
			continue;
		if (!t->rt[c]) {
			ev += PLAN_MIN_EVENTS;
			continue;
		}
		period_stats(t, c, k, tpp, in->mix->percentile, &pct, &mx);
		tune_plan_floor(in, c, k, sec, &fl);
		need = (double)events_up(fmax(pct * margin, fl.bytes), bpe);
		ev += need;
		if (p && p->rt_exempt)
			exempt += need;
	}
	*all = ev * bpe / sec;
	*pool = (ev - exempt) * bpe / sec;
}

/**
 * tune_plan_budgets() - set every CPU's budgets in @out for @period_us.
 * @t:       per-core traces.
 * @explain: record the reasoning in @out (only for the final choice).
 * @settled: the best-effort guarantees raised to the static budgets LMS
 *           settles on under full load (settle(); the period choice).
 *
 * Return: MEMCAL_OK, MEMCAL_EINVAL (period not a multiple of the trace tick)
 * or MEMCAL_ENOFIT with @err saying what does not fit and what to do.
 */
int tune_plan_budgets(const struct plan_input *in, const struct plan_traces *t,
		 uint32_t period_us, struct tune_config *out, bool explain,
		 bool settled, char *err, size_t errlen)
{
	double reserve[TUNE_NR_CLASSES], in_pool[TUNE_NR_CLASSES];
	struct plan_pool pool;
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
		class_reserve(in, t, tpp, period_us / 1e6, k, out, &reserve[k],
			      &in_pool[k]);
	rc = tune_plan_mix_ceilings(in, t, reserve, period_us / 1e6, &mix, err,
			       errlen);
	if (!rc)
		rc = tune_plan_pool(in, &mix, in_pool, period_us / 1e6, &pool, err,
				    errlen);
	if (rc)
		return rc;
	if (explain) {
		tune_plan_mix_explain(in, &mix, out);
		tune_plan_pool_explain(in, &pool, out);
	}
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		rc = fit_class(in, t, tpp, period_us / 1e6, k, &mix, &pool, out,
			       explain, settled, err, errlen);
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
