// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_mix.c - the bandwidth-latency family across read/write mixes as
 * JSON: one form for `memcal run`, `memcal show` and the report.
 */
#include "memcal_reports.h"

/**
 * report_mix_curve_json() - one curve of the family as JSON (new
 * reference): its figures and its points by ascending pace.
 */
json_t *report_mix_curve_json(const struct memcal_mix_curve *c)
{
	json_t *pts = json_array();

	for (int i = 0; i < c->n_points; i++)
		json_array_append_new(pts, json_pack(
			"{s:f, s:f, s:f, s:f, s:f}", "pace", c->points[i].pace,
			"bandwidth_bps", c->points[i].bandwidth_bps,
			"latency_ns", c->points[i].latency_ns,
			"latency_min_ns", c->points[i].latency_min_ns,
			"latency_max_ns", c->points[i].latency_max_ns));
	return json_pack("{s:i, s:s, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:b, "
			 "s:s, s:o}", "read_pct", c->read_pct,
			 "variant", c->variant, "chase_cpu", c->chase_cpu,
			 "load_cpus", c->load_cpus, "peak_bps", c->peak_bps,
			 "knee_bps", c->knee_bps,
			 "sustainable_bps", c->sustainable_bps,
			 "idle_latency_ns", c->idle_latency_ns,
			 "bound_ratio", c->bound_ratio,
			 "lower_bound", c->lower_bound,
			 "criterion", c->criterion, "points", pts);
}
