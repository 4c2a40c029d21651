// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_period.c - choose the regulation period.  Each candidate period is
 * tried for real: budgets are sized for it and the traces replayed through
 * regulator/sim with the default modes; its cost is the measured
 * per-period overhead of the regulated cores (cost per interrupt / period)
 * plus the regulation error with static budgets (over-use inside a
 * period, throttled time of real-time cores, unserved best-effort demand;
 * LMS is tuned afterwards at the chosen period, so its warm-up does not
 * bias the choice).  The static budgets are the ones LMS settles on under
 * full load, each best-effort core given a share of the headroom by its
 * demand (plan_budget.c): its small stated guarantee alone would measure
 * the guarantee, not the period.  Short periods cost
 * interrupts, long ones let bursts through: the cheapest total wins, the
 * longer period on a tie.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memreg.h"
#include "plan.h"

static const uint32_t default_periods[] = {
	100, 200, 500, 1000, 2000, 5000, 10000, 20000, 0
};

/* Replays need a few periods to mean anything. */
#define MIN_PERIODS_IN_TRACE 4

/**
 * tune_plan_period() - set @out->period_us (and budgets for it), explaining the
 * trade-off.  @out already holds placement, master and default modes.
 *
 * Return: MEMCAL_OK, MEMCAL_ENOFIT when no period lets the budgets fit,
 * MEMCAL_EINVAL when no candidate suits the traces, MEMCAL_ENOMEM/ESIM.
 */
int tune_plan_period(const struct plan_input *in, const struct plan_traces *t,
		struct tune_config *out, char *err, size_t errlen)
{
	const uint32_t *cand = in->periods_us[0] ? in->periods_us :
			       default_periods;
	struct tune_config *tmp = malloc(sizeof(*tmp));
	char line[TUNE_NOTE_LEN] = "";
	size_t used = 0;
	uint32_t best = 0;
	double best_cost = 0;
	int rc = MEMCAL_EINVAL, last_rc = MEMCAL_EINVAL;
	char last_err[1024] = "";

	if (!tmp)
		return MEMCAL_ENOMEM;
	for (int i = 0; i < PLAN_MAX_PERIODS && cand[i]; i++) {
		struct plan_score s;
		uint32_t p = cand[i];

		if (p % t->tick_us || p / t->tick_us * MIN_PERIODS_IN_TRACE >
		    t->len || (uint64_t)p * 1000 < MEMREG_PERIOD_MIN_NS)
			continue;
		memcpy(tmp, out, sizeof(*tmp));
		tmp->lms = false;	/* static budgets: LMS is tuned after */
		last_rc = tune_plan_budgets(in, t, p, tmp, false, true, last_err,
				       sizeof(last_err));
		if (last_rc == MEMCAL_ENOFIT)
			continue;
		if (last_rc)
			break;
		last_rc = tune_plan_replay(in, t, tmp, &s, last_err,
				      sizeof(last_err));
		if (last_rc)
			break;
		if (used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) -
					used, "%s%u us %.3f (ovh %.3f)",
					used ? ", " : "", p, s.cost,
					s.overhead);
		if (!best || s.cost < best_cost - 1e-9 ||
		    (s.cost <= best_cost + 1e-9 && p > best)) {
			best = p;
			best_cost = s.cost;
		}
	}
	if (!best) {
		snprintf(err, errlen, "%s", last_err[0] ? last_err :
			 "no candidate period suits the traces: they are too "
			 "short or their granularity divides no candidate; "
			 "profile longer workloads");
		free(tmp);
		return last_rc ? last_rc : MEMCAL_EINVAL;
	}
	tune_config_explain(out, "period candidates, cost = overhead + regulation "
		       "error replayed through regulator/sim: %s", line);
	rc = tune_plan_budgets(in, t, best, out, false, false, err, errlen);
	if (!rc)
		tune_config_reason(out, TUNE_REASON_PERIOD, "period %u us: the "
			      "lowest cost %.3f; overhead per period from the "
			      "%s measurement", best, best_cost,
			      in->overhead_method);
	free(tmp);
	return rc;
}
