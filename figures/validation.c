// SPDX-License-Identifier: GPL-2.0-only
/*
 * validation.c - the shapes of a validation both tools and the report
 * print: the co-run conditions and each one's time, a workload's
 * slowdowns, static figures and throughputs per condition, and the JSON
 * form and lookup of a per-job latency row (`memtune validate`, `memtune
 * show` and the tuning report).
 */
#include <math.h>
#include <string.h>

#include "memcal_figures.h"

/* The co-run conditions of a validation, in the order every view lists. */
const char *const fig_corun_name[FIG_N_CORUN] = { "unregulated", "static",
						  "regulated" };

/**
 * fig_corun_ns() - workload @v's co-run time in condition @k (an index
 * of fig_corun_name), in ns; NAN when that condition did not run (no
 * static run stored, a validation without the regulated run) or has no
 * time, so that no view takes a missing figure for 0.
 * @regulated: the validation ran the regulated condition.
 */
double fig_corun_ns(const struct memcal_validation_result *v,
		    bool regulated, int k)
{
	double t = k == 0 ? v->unregulated_ns :
		   k == 1 ? (v->has_static ? v->static_ns : NAN) :
		   (regulated ? v->regulated_ns : NAN);

	return t > 0 ? t : NAN;
}

/**
 * fig_job_latency_find() - the row of workload @wl in condition @cond
 * among the @n rows @jl, or NULL when it was not timed there.
 */
const struct memcal_job_latency *
fig_job_latency_find(const struct memcal_job_latency *jl, size_t n,
		     const char *wl, const char *cond)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(jl[i].workload, wl) && !strcmp(jl[i].condition, cond))
			return &jl[i];
	return NULL;
}

/**
 * fig_job_latency_row_json() - one row's figures as a JSON object, the
 * form both 'memtune validate --json' and the report's JSON use.
 */
json_t *fig_job_latency_row_json(const struct memcal_job_latency *l)
{
	return json_pack("{s:s,s:i,s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			 "workload", l->workload, "cpu", l->cpu, "condition",
			 l->condition, "probe", l->probe, "period_ns",
			 (json_int_t)l->period_ns, "deadline_ns",
			 (json_int_t)l->deadline_ns, "samples",
			 (json_int_t)l->samples, "p50_ns",
			 (json_int_t)l->p50_ns, "p99_ns",
			 (json_int_t)l->p99_ns, "max_ns",
			 (json_int_t)l->max_ns, "deadline_misses",
			 (json_int_t)l->misses);
}

/* ratio_or_null - @a / @b when both are measurements, else null. */
static json_t *ratio_or_null(double a, double b)
{
	return a > 0 && b > 0 ? json_real(a / b) : json_null();
}

/**
 * fig_validation_conditions_json() - add to @e workload @v's static
 * figures (null when the static condition did not run, never 0), the
 * slowdown of each condition (co-run time over solo time; null for a
 * condition that did not run) and, for a best-effort workload, its
 * throughput (solo time over co-run time) in each.  One form for the
 * report and for validate's and show's --json.
 * @regulated: the validation ran the regulated condition.
 */
void fig_validation_conditions_json(json_t *e,
				    const struct memcal_validation_result *v,
				    bool regulated)
{
	bool s = v->has_static;
	char key[40];

	json_object_set_new(e, "has_static", json_boolean(s));
	json_object_set_new(e, "static_ns", s ? fig_num(v->static_ns) :
			    json_null());
	json_object_set_new(e, "static_deadline_misses", s ?
			    json_integer(v->static_deadline_misses) :
			    json_null());
	json_object_set_new(e, "static_throttles", s ?
			    json_integer(v->static_throttles) : json_null());
	json_object_set_new(e, "static_throttled_ns", s ?
			    json_integer(v->static_throttled_ns) :
			    json_null());
	for (int k = 0; k < FIG_N_CORUN; k++) {
		double t = fig_corun_ns(v, regulated, k);

		snprintf(key, sizeof(key), "slowdown_%s", fig_corun_name[k]);
		json_object_set_new(e, key, ratio_or_null(t, v->solo_ns));
		if (v->deadline_ns > 0)
			continue;
		snprintf(key, sizeof(key), "throughput_%s",
			 fig_corun_name[k]);
		json_object_set_new(e, key, ratio_or_null(v->solo_ns, t));
	}
}
