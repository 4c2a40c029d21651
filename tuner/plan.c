// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan.c - the planner's sequence: place workloads, pick the master core,
 * build the per-core traces, choose the period by replay, choose the LMS
 * parameters and modes by replay, size the final budgets, and score the
 * result once more so that the document says what the replay predicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* init_config - identity, provenance and defaults from @in. */
static void init_config(const struct plan_input *in, struct tune_config *c)
{
	const struct mix *m = in->mix;
	size_t used = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->mix, sizeof(c->mix), "%s", m->name);
	snprintf(c->tool_version, sizeof(c->tool_version), "%s",
		 MEMCAL_VERSION);
	snprintf(c->fingerprint, sizeof(c->fingerprint), "%s",
		 in->fingerprint);
	snprintf(c->arch, sizeof(c->arch), "%s", in->arch);
	snprintf(c->cpu_model, sizeof(c->cpu_model), "%s", in->cpu_model);
	snprintf(c->overhead_method, sizeof(c->overhead_method), "%s",
		 in->overhead_method);
	snprintf(c->mix_file, sizeof(c->mix_file), "%s", m->path);
	c->platform_id = in->platform_id;
	c->calibration_run_id = in->calibration_run_id;
	c->overhead_run_id = in->overhead_run_id;
	if (in->machine)
		c->machine = *in->machine;
	c->nr_cpus = in->nr_cpus;
	c->percentile = m->percentile;
	c->margin_pct = m->margin_pct;
	c->lms = c->reclaim = c->share = true;
	c->taps = 4;
	c->mu_q16 = 32768;
	c->headroom_q16 = 6554;
	memcpy(c->counter, in->counter, sizeof(c->counter));
	for (int i = 0; i < m->n; i++) {
		const char *src = in->prof[i].source;

		if (in->prof[i].id && c->n_profiles < TUNE_MAX_WL)
			c->profile_ids[c->n_profiles++] = in->prof[i].id;
		if (!strstr(c->trace_sources, src) && used < sizeof(
			    c->trace_sources))
			used += (size_t)snprintf(c->trace_sources + used,
					sizeof(c->trace_sources) - used,
					"%s%s", used ? "," : "", src);
		if (strcmp(src, "pmu"))
			tune_config_warn(c, "workload '%s': its traffic trace is %s, "
				    "not measured by a PMU", m->wl[i].name,
				    !strcmp(src, "declared") ? "the need the "
				    "mix declares" : "the traffic memcal's own "
				    "calibrated kernels report moving");
	}
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		if (!c->counter[k].validated)
			tune_config_warn(c, "%s budgets are converted to counter "
				    "events at an assumed %.0f bytes per event "
				    "(event '%s'): no PMU event was validated on "
				    "this board", k ? "write" : "read",
				    c->counter[k].bytes_per_event,
				    c->counter[k].event);
	if (strcmp(in->overhead_method, "memreg"))
		tune_config_warn(c, "regulation overhead comes from the %s "
			    "measurement, not from memreg itself: the period "
			    "choice is conservative", in->overhead_method);
}

/**
 * tune_plan_run() - plan @in into @out (zeroed first).
 * Return: MEMCAL_OK or a PLAN_E* code with @err saying why and what to do.
 */
int tune_plan_run(const struct plan_input *in, struct tune_config *out,
	     char *err, size_t errlen)
{
	int cpu_of[MIX_MAX_WORKLOADS];
	struct plan_traces t;
	struct plan_score s;
	int rc;

	init_config(in, out);
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		if (!(in->counter[k].bytes_per_event > 0) ||
		    !(in->sustain_bps[k] > 0)) {
			snprintf(err, errlen, "the platform profile lacks a "
				 "sustainable %s bandwidth or a counter: run "
				 "'memcal run' first", k ? "write" : "read");
			return MEMCAL_EINVAL;
		}
	if (!in->guarantees_from_streaming &&
	    (!(in->guaranteed_bps[TUNE_READ] > 0) ||
	     !(in->guaranteed_bps[TUNE_WRITE] > 0))) {
		snprintf(err, errlen, "the platform profile has no guaranteed %s "
			 "bandwidth (what the memory delivers when every access "
			 "misses its row), which the guarantees must fit in: "
			 "run 'memcal run' again (it measures it), declare one, "
			 "or plan with --guarantees-from-streaming",
			 in->guaranteed_bps[TUNE_READ] > 0 ? "write" : "read");
		return MEMCAL_EINVAL;
	}
	rc = tune_plan_assign(in, cpu_of, out, err, errlen);
	if (!rc)
		rc = tune_plan_master(in, cpu_of, out, err, errlen);
	if (!rc)
		rc = tune_plan_events(in, out, err, errlen);
	if (rc)
		return rc;
	rc = tune_plan_traces_build(in, cpu_of, &t, err, errlen);
	if (rc)
		return rc;
	tune_plan_exempt_mark(in, &t, out);
	rc = tune_plan_period(in, &t, out, err, errlen);
	if (!rc)
		rc = tune_plan_lms(in, &t, out, err, errlen);
	if (!rc)
		rc = tune_plan_budgets(in, &t, (uint32_t)out->period_us, out, true,
				  false, err, errlen);
	if (!rc)
		rc = tune_plan_replay(in, &t, out, &s, err, errlen);
	if (!rc)
		tune_config_explain(out, "replay of the final configuration: "
			       "overhead %.1f%% of a regulated core, over-use "
			       "inside periods %.1f%% of traffic, real-time "
			       "cores throttled %.1f%% of the time, best-effort "
			       "demand unserved %.1f%%", s.overhead * 100,
			       s.overuse * 100, s.rt_throttle * 100,
			       s.be_unserved * 100);
	if (!rc) {
		tune_plan_exempt_explain_budgets(in, out);
		tune_plan_exempt_explain_replay(in, &s, out);
	}
	tune_plan_traces_free(&t);
	return rc;
}
