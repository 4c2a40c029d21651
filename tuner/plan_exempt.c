// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_exempt.c - the real-time exemption (mix key rt_exempt: true): the
 * real-time cores stay regulated in the sense of monitored (their traffic
 * is counted) but memreg never throttles them.  The budget rule is the
 * one plan_budget.c applies to every plan: the real-time cores' needs
 * (their traces' percentile plus the margin) are budgeted and the
 * best-effort cores grow only into what the platform ceiling leaves
 * after every guarantee.  An exempt core's need is no reservation the
 * regulator can hold the others to, so it stays outside the guaranteed
 * pool (plan_pool.c) but inside the platform ceiling.  With the exemption
 * that rule is the only thing keeping the real-time cores' traffic inside
 * the sustainable bandwidth, so the plan states the sum, and the replay (the
 * exempt cores unthrottled in regulator/sim, as memreg runs them) states
 * the real-time traffic it saw against the sustainable bandwidth.
 */
#include <stdlib.h>
#include <string.h>

#include "memreg_sim.h"
#include "plan.h"

/**
 * tune_plan_exempt_mark() - when the mix asks for it, mark every regulated
 * core that runs a real-time workload as exempt in @out.
 */
void tune_plan_exempt_mark(const struct plan_input *in, const struct plan_traces *t,
		      struct tune_config *out)
{
	if (!in->mix->rt_exempt)
		return;
	for (int c = 0; c < t->nr_cpus; c++) {
		struct tune_cpu *p = tune_config_cpu(out, c);

		if (p && p->regulated && t->has_work[c] && t->rt[c])
			p->rt_exempt = true;
	}
}

/* exempt_list - the exempt CPUs of @c as "1, 3"; false when none. */
static bool exempt_list(const struct tune_config *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->n_cpus && used < len; i++)
		if (c->cpus[i].rt_exempt)
			used += (size_t)snprintf(buf + used, len - used, "%s%d",
						 used ? ", " : "",
						 c->cpus[i].cpu);
	return used > 0;
}

/**
 * tune_plan_exempt_explain_budgets() - the reason sentence of the budget rule
 * under the exemption, per class: real-time needs plus best-effort
 * budgets against the sustainable bandwidth.
 */
void tune_plan_exempt_explain_budgets(const struct plan_input *in,
				 struct tune_config *out)
{
	static const char *const cls[] = { "read", "write" };
	char cpus[128];

	if (!exempt_list(out, cpus, sizeof(cpus)))
		return;
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		double rt = 0, be = 0;

		for (int i = 0; i < out->n_cpus; i++) {
			const struct tune_cpu *p = &out->cpus[i];

			if (p->rt_exempt)
				rt += p->b[k].guaranteed_bps;
			else if (p->regulated)
				be += p->b[k].guaranteed_bps;
		}
		tune_config_explain(out, "real-time exemption (%s): cpu %s monitored, "
			       "never throttled; their needs %.1f MB/s (p%g of "
			       "their traces + %g%%) plus the best-effort "
			       "budgets %.1f MB/s make %.1f MB/s, inside the "
			       "%.1f MB/s the board sustains", cls[k], cpus,
			       rt / 1e6, in->mix->percentile,
			       in->mix->margin_pct, be / 1e6, (rt + be) / 1e6,
			       out->ceiling_bps[k] / 1e6);
	}
}

/**
 * tune_plan_exempt_score() - after a replay of @c: per class, the exempt
 * cores' traffic per period (served, since nothing throttles them) at
 * its peak and at the mix percentile, the peak of all cores' traffic, and
 * the periods in which the exempt cores alone exceeded the sustainable
 * bandwidth, into @s (zero when no core is exempt).
 */
void tune_plan_exempt_score(const struct tune_config *c,
		       const struct memreg_sim_result *res, double percentile,
		       struct plan_score *s)
{
	double sec = (double)res->period_ns / 1e9;
	uint64_t *v;

	memset(s->exempt, 0, sizeof(s->exempt));
	s->exempt_periods = res->nr_periods;
	if (!res->nr_periods || !(sec > 0))
		return;
	v = calloc(res->nr_periods, sizeof(*v));
	if (!v)
		return;
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		struct plan_exempt_figures *f = &s->exempt[k];
		double bpe = c->counter[k].bytes_per_event;

		for (size_t p = 0; p < res->nr_periods; p++) {
			uint64_t all = 0;

			v[p] = 0;
			for (uint32_t cpu = 0; cpu < res->nr_cores; cpu++) {
				const struct tune_cpu *tc =
					tune_config_cpu_const(c, (int)cpu);
				uint64_t e = res->periods[p * res->nr_cores +
							  cpu].consumed[k];

				all += e;
				if (tc && tc->rt_exempt) {
					v[p] += e;
					f->any = true;
				}
			}
			if ((double)all * bpe / sec > f->total_peak_bps)
				f->total_peak_bps = (double)all * bpe / sec;
			if ((double)v[p] * bpe / sec > c->ceiling_bps[k])
				f->over_periods++;
		}
		/* tune_plan_percentile() sorts @v: the peak is last afterwards */
		f->pct_bps = tune_plan_percentile(v, res->nr_periods, percentile) *
			     bpe / sec;
		f->peak_bps = (double)v[res->nr_periods - 1] * bpe / sec;
	}
	free(v);
}

/**
 * tune_plan_exempt_explain_replay() - the reason sentence of the replay under
 * the exemption, with its numbers; a warning when the exempt cores'
 * traffic alone went past the sustainable bandwidth in some period.
 */
void tune_plan_exempt_explain_replay(const struct plan_input *in,
				const struct plan_score *s,
				struct tune_config *out)
{
	static const char *const cls[] = { "read", "write" };

	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		const struct plan_exempt_figures *f = &s->exempt[k];

		if (!f->any)
			continue;
		tune_config_explain(out, "replay with the real-time cores exempt "
			       "(%s): their traffic, never throttled, is "
			       "%.1f MB/s at p%g and %.1f MB/s at its peak, "
			       "inside the %.1f MB/s the board sustains in "
			       "%zu of %zu periods; all cores together peak at "
			       "%.1f MB/s", cls[k], f->pct_bps / 1e6,
			       in->mix->percentile, f->peak_bps / 1e6,
			       out->ceiling_bps[k] / 1e6,
			       s->exempt_periods - f->over_periods,
			       s->exempt_periods, f->total_peak_bps / 1e6);
		if (f->over_periods)
			tune_config_warn(out, "with the real-time exemption the "
				    "real-time cores' %s traffic alone exceeded "
				    "the sustainable bandwidth in %zu of %zu "
				    "replayed periods: nothing throttles it; "
				    "make a workload best-effort or drop "
				    "rt_exempt", cls[k], f->over_periods,
				    s->exempt_periods);
	}
}
