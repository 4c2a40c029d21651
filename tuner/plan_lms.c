// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_lms.c - choose the NLMS parameters (taps, step, headroom) and the
 * reclaim/share modes by the same replay the period came from: every
 * combination of a small grid is simulated at the chosen period and the
 * cheapest wins (regulation error, plus the prediction error for LMS);
 * on a tie the simpler setting (fewer taps, smaller step) is kept, and a
 * mode stays on unless switching it off is strictly better.  The grid is
 * searched in two passes (taps x step at 10 % headroom, then the headroom
 * at the best of those) to keep the replays few.
 *
 * A mode must show that it matters: LMS, reclaim and spare sharing are
 * each replayed off against the chosen configuration, and a mode whose
 * on and off replays are identical (the same per-period budgets and
 * served traffic on every core) is reported as "no effect in the replay"
 * and left off, so the exported configuration never claims an effect the
 * replay did not show (and memreg does not run work that changes nothing
 * on this mix).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

static const uint32_t taps_grid[] = { 1, 2, 4, 8 };
static const uint32_t mu_grid[] = { 16384, 32768, 65536 };	/* Q16 */
static const uint32_t head_grid[] = { 6554, 16384, 32768 };	/* Q16 */

/*
 * try_cfg - replay @c; on success and if cheaper than *@best, keep it in
 * @keep.  Returns the replay's code.
 */
static int try_cfg(const struct plan_input *in, const struct plan_traces *t,
		   struct tune_config *c, struct tune_config *keep,
		   double *best, bool *have, char *err, size_t errlen)
{
	struct plan_score s;
	int rc = tune_plan_replay(in, t, c, &s, err, errlen);

	if (rc)
		return rc;
	if (!*have || s.cost < *best - 1e-9) {
		*best = s.cost;
		*have = true;
		memcpy(keep, c, sizeof(*keep));
	}
	return MEMCAL_OK;
}

/* mode_of - @c's switch of mode @m (0 LMS, 1 reclaim, 2 share). */
static bool *mode_of(struct tune_config *c, int m)
{
	return m == 0 ? &c->lms : m == 1 ? &c->reclaim : &c->share;
}

/*
 * same_as_off - whether the replay of @c equals the replay of @c with
 * mode @m (mode_of()) switched off; @c itself is left as it was.
 * Returns the replays' code.
 */
static int same_as_off(const struct plan_input *in, const struct plan_traces *t,
		       struct tune_config *c, int m, bool *same, char *err,
		       size_t errlen)
{
	bool *mode = mode_of(c, m);
	struct plan_score on, off;
	int rc;

	*same = false;
	if (!*mode)
		return MEMCAL_OK;
	rc = tune_plan_replay(in, t, c, &on, err, errlen);
	*mode = false;
	if (!rc)
		rc = tune_plan_replay(in, t, c, &off, err, errlen);
	*mode = true;
	if (!rc)
		*same = on.digest == off.digest;
	return rc;
}

/*
 * effects - switch off, in @c, each mode whose on and off replays are
 * identical (LMS first: without it the others may then matter less),
 * marking it in @no_effect.  Returns the replays' code.
 */
static int effects(const struct plan_input *in, const struct plan_traces *t,
		   struct tune_config *c, bool *no_effect, char *err,
		   size_t errlen)
{
	int rc = MEMCAL_OK;

	for (int m = 0; !rc && m < 3; m++) {
		rc = same_as_off(in, t, c, m, &no_effect[m], err, errlen);
		if (!rc && no_effect[m])
			*mode_of(c, m) = false;
	}
	return rc;
}

/*
 * Weight of the traffic above the platform ceiling in the mode choice
 * when a real-time workload shares the platform (it is what delays its
 * memory accesses); with best-effort work only it costs nothing.
 */
#define W_PLATFORM 1.0

/* has_rt - whether a real-time workload runs on one of @t's cores. */
static bool has_rt(const struct plan_traces *t)
{
	for (int c = 0; c < t->nr_cpus; c++)
		if (t->has_work[c] && t->rt[c])
			return true;
	return false;
}

/*
 * share_mode - with sharing on in @keep, replay it in each sharing mode
 * (grant, spare, proportional) and keep the cheapest; with a real-time
 * workload the traffic above the platform ceiling is counted (spare and
 * proportional hand out beyond it, a grant never does).  On a tie the
 * simpler mode stays (grant, then spare).  @costs: per mode.  Returns the
 * replays' code.
 */
static int share_mode(const struct plan_input *in, const struct plan_traces *t,
		      struct tune_config *keep, struct tune_config *c,
		      double costs[3], char *err, size_t errlen)
{
	double w = has_rt(t) ? W_PLATFORM : 0;
	uint32_t best = MEMREG_SHARE_GRANT;
	int rc = MEMCAL_OK;

	for (uint32_t m = 0; !rc && m <= MEMREG_SHARE_MAX; m++) {
		struct plan_score s;

		memcpy(c, keep, sizeof(*c));
		c->share_mode = m;
		rc = tune_plan_replay(in, t, c, &s, err, errlen);
		if (rc)
			break;
		costs[m] = s.cost + w * s.platform_excess;
		if (costs[m] < costs[best] - 1e-9)
			best = m;
	}
	keep->share_mode = best;
	return rc;
}

/**
 * tune_plan_lms() - set @out's LMS parameters and modes: LMS, reclaim and
 * sharing on unless switching one off replays cheaper, or its on and off
 * replays are identical (no effect: off).
 * Return: MEMCAL_OK or the replay's error.
 */
int tune_plan_lms(const struct plan_input *in, const struct plan_traces *t,
	     struct tune_config *out, char *err, size_t errlen)
{
	struct tune_config *c = malloc(sizeof(*c));
	struct tune_config *keep = malloc(sizeof(*keep));
	double best = 0, lms_best;
	bool have = false, off_by_cost[2], no_effect[3];
	double costs[3] = { 0, 0, 0 };
	int rc = MEMCAL_OK;

	if (!c || !keep) {
		free(c);
		free(keep);
		return MEMCAL_ENOMEM;
	}
	out->lms = out->reclaim = out->share = true;
	out->share_mode = MEMREG_SHARE_GRANT;
	out->monitor = false;
	/* taps x step at the default headroom, then the headroom */
	for (size_t a = 0; !rc && a < sizeof(taps_grid) / 4; a++)
		for (size_t b = 0; !rc && b < sizeof(mu_grid) / 4; b++) {
			memcpy(c, out, sizeof(*c));
			c->taps = taps_grid[a];
			c->mu_q16 = mu_grid[b];
			c->headroom_q16 = head_grid[0];
			rc = try_cfg(in, t, c, keep, &best, &have, err, errlen);
		}
	for (size_t h = 1; !rc && h < sizeof(head_grid) / 4; h++) {
		memcpy(c, keep, sizeof(*c));
		c->headroom_q16 = head_grid[h];
		rc = try_cfg(in, t, c, keep, &best, &have, err, errlen);
	}
	if (rc)
		goto out;
	lms_best = best;
	/* modes: switch reclaim and share off one at a time and together */
	for (int m = 1; !rc && m < 4; m++) {
		memcpy(c, keep, sizeof(*c));
		c->reclaim = !(m & 1);
		c->share = !(m & 2);
		rc = try_cfg(in, t, c, keep, &best, &have, err, errlen);
	}
	if (rc)
		goto out;
	off_by_cost[0] = !keep->reclaim;
	off_by_cost[1] = !keep->share;
	rc = effects(in, t, keep, no_effect, err, errlen);
	if (!rc && keep->share)
		rc = share_mode(in, t, keep, c, costs, err, errlen);
	if (rc)
		goto out;
	out->taps = keep->taps;
	out->mu_q16 = keep->mu_q16;
	out->headroom_q16 = keep->headroom_q16;
	out->lms = keep->lms;
	out->reclaim = keep->reclaim;
	out->share = keep->share;
	out->share_mode = keep->share_mode;
	if (no_effect[0])
		tune_config_explain(out, "LMS: no effect in the replay (on and off "
			       "replays give the same per-period budgets and "
			       "served traffic), so it is left off");
	else
		tune_config_explain(out, "LMS on: %u taps, step %.2f, headroom "
			       "%.0f%%: the cheapest of %zu replayed "
			       "combinations (cost %.3f); the replay with LMS "
			       "off differs", out->taps, out->mu_q16 / 65536.0,
			       out->headroom_q16 * 100.0 / 65536.0,
			       sizeof(taps_grid) / 4 * sizeof(mu_grid) / 4 +
			       sizeof(head_grid) / 4 - 1, lms_best);
	for (int m = 0; m < 2; m++) {
		const char *name = m ? "spare sharing" : "reclaim";

		if (no_effect[m + 1])
			tune_config_explain(out, "%s: no effect in the replay (on "
				       "and off replays give the same per-period "
				       "budgets and served traffic), so it is "
				       "left off", name);
		else if (off_by_cost[m])
			tune_config_explain(out, "%s off: switching it off replayed "
				       "cheaper", name);
		else
			tune_config_explain(out, "%s on: no mode switched off "
				       "replayed cheaper, and the replay with it "
				       "off differs", name);
	}
	if (out->share)
		tune_config_explain(out, "sharing mode %s: the cheapest replay "
			       "(grant %.3f, spare %.3f, proportional %.3f; %s; "
			       "a tie keeps the simpler mode)",
			       memreg_share_name(out->share_mode), costs[0],
			       costs[1], costs[2], has_rt(t) ?
			       "traffic above the platform ceiling counted, "
			       "a real-time workload shares it" :
			       "best-effort work only: traffic above the "
			       "platform ceiling costs nothing");
out:
	free(c);
	free(keep);
	return rc;
}
