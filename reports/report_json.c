// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_json.c - the report's data as one JSON document (schema
 * "memcal.report/1"): the same rows the page and the CSV show, in base
 * units (B/s, ns, us), with the warnings and what is missing.  A value
 * that was not measured is null (JSON has no NaN).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report.h"

/* num - a JSON number, or null when @v is not finite. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* notes - an array of the strings of @tab. */
static json_t *notes(const char (*tab)[REPORT_NOTE_LEN], size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(tab[i]));
	return a;
}

/* run_json - a calibration run, or null. */
static json_t *run_json(bool have, const struct memcal_run *run)
{
	if (!have)
		return json_null();
	return json_pack("{s:I, s:I, s:s, s:s, s:s, s:s, s:s}", "id",
			 (json_int_t)run->id, "platform_id",
			 (json_int_t)run->platform_id, "kind", run->kind,
			 "tool_version", run->tool_version, "started_at",
			 run->started_at, "finished_at", run->finished_at,
			 "notes", run->notes ? run->notes : "");
}

/* platform_json - the board, or null. */
static json_t *platform_json(const struct report *r)
{
	const struct memcal_platform *p = &r->platform;

	if (!r->have_platform)
		return json_null();
	return json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i}",
			 "id", (json_int_t)p->id, "fingerprint", p->fingerprint,
			 "hostname", p->hostname, "arch", p->arch, "cpu_model",
			 p->cpu_model, "kernel", p->kernel, "packages",
			 p->packages, "numa_nodes", p->numa_nodes, "cores",
			 p->cores, "pus", p->pus);
}

/* summary_json - the headline figures. */
static json_t *summary_json(const struct report *r)
{
	static const char *const kinds[] = { "read", "write", "ntwrite" };
	json_t *s = json_object();

	for (int k = 0; s && k < 3; k++) {
		int n = 0;
		double v = report_peak_bw(r, kinds[k], &n);
		char key[32];

		snprintf(key, sizeof(key), "peak_%s_bps", kinds[k]);
		json_object_set_new(s, key, num(v));
		snprintf(key, sizeof(key), "peak_%s_cores", kinds[k]);
		json_object_set_new(s, key, n ? json_integer(n) : json_null());
		snprintf(key, sizeof(key), "single_core_%s_bps", kinds[k]);
		json_object_set_new(s, key, num(report_bw_at(r, kinds[k], 1,
							     NULL, NULL)));
	}
	json_object_set_new(s, "overhead_master_cpu",
			    json_integer(report_overhead_master(r)));
	json_object_set_new(s, "overhead_proxy",
			    json_boolean(report_overhead_proxy(r)));
	json_object_set_new(s, "pmu_available", r->have_pmu ?
			    json_boolean(r->pmu.available) : json_null());
	return s;
}

/**
 * report_selfcheck_json() - one PMU self-check as JSON.
 * @c: the check.
 *
 * Return: a new object (cpu null for a check that is not per CPU).
 */
json_t *report_selfcheck_json(const struct memcal_selfcheck *c)
{
	return json_pack("{s:s, s:o, s:s, s:o, s:o, s:o, s:s, s:s}", "check",
			 c->check, "cpu", c->cpu >= 0 ? json_integer(c->cpu) :
			 json_null(), "event", c->event, "expected",
			 num(c->expected), "measured", num(c->measured),
			 "tolerance_pct", num(c->tolerance_pct), "verdict",
			 c->verdict, "message", c->message);
}

/**
 * report_guaranteed_json() - @n guaranteed-bandwidth figures as the JSON
 * array `memcal run --json`, `memcal show --json` and the report carry as
 * "guaranteed": every field, and "stands" true on the figure that stands
 * for its class (memcal_db_guaranteed_choose()).
 */
json_t *report_guaranteed_json(const struct memcal_guaranteed *g, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:f, s:f, s:f, s:s, s:i, s:I, s:i, "
			"s:i, s:s, s:s, s:b}",
			"traffic", g[i].traffic, "method", g[i].method,
			"status", g[i].status, "bandwidth_bps", g[i].bandwidth_bps,
			"min_bps", g[i].min_bps, "max_bps", g[i].max_bps,
			"cpus", g[i].cpus, "n_cpus", g[i].n_cpus,
			"buffer_bytes", (json_int_t)g[i].buffer_bytes,
			"streams", g[i].streams, "repetitions", g[i].repetitions,
			"criterion", g[i].criterion, "source", g[i].source,
			"stands", memcal_db_guaranteed_choose(g, n, g[i].traffic) ==
				  &g[i]));
	return a;
}

/* calibration_json - add the calibration rows to @o. */
static void calibration_json(json_t *o, const struct report *r)
{
	json_t *a = json_array(), *lat = json_array(), *sus = json_array(),
	       *ev = json_array(), *ov = json_array(), *om = json_array(),
	       *mix = json_array(), *sc = json_array();

	for (size_t i = 0; i < r->n_mix; i++)
		json_array_append_new(mix, report_mix_curve_json(&r->mix[i]));

	for (size_t i = 0; i < r->n_bw; i++) {
		const struct memcal_bw *b = &r->bw[i];

		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:i, s:s, s:I, s:f, s:i, s:o, s:o, s:o}",
			"kind", b->kind, "scope", b->scope, "cpus", b->cpus,
			"n_cpus", b->n_cpus, "variant", b->variant,
			"buffer_bytes", (json_int_t)b->buffer_bytes,
			"read_share", b->read_share, "repetitions",
			b->repetitions, "median_bps", num(b->median_bps),
			"min_bps", num(b->min_bps), "max_bps", num(b->max_bps)));
	}
	for (size_t i = 0; i < r->n_lat; i++) {
		const struct memcal_latency_point *p = &r->lat[i];

		json_array_append_new(lat, json_pack(
			"{s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o}", "traffic",
			p->traffic, "chase_cpu", p->chase_cpu, "load_cpus",
			p->load_cpus, "pace", num(p->pace), "bandwidth_bps",
			num(p->bandwidth_bps), "latency_ns", num(p->latency_ns),
			"latency_min_ns", num(p->latency_min_ns),
			"latency_max_ns", num(p->latency_max_ns)));
	}
	for (size_t i = 0; i < r->n_sus; i++) {
		const struct memcal_sustainable *s = &r->sus[i];

		json_array_append_new(sus, json_pack(
			"{s:s, s:o, s:o, s:o, s:s, s:b}", "traffic", s->traffic,
			"bandwidth_bps", num(s->bandwidth_bps),
			"idle_latency_ns", num(s->idle_latency_ns),
			"bound_ratio", num(s->bound_ratio), "criterion",
			s->criterion, "lower_bound", s->lower_bound));
	}
	for (size_t i = 0; i < r->n_ev; i++) {
		const struct memcal_pmu_event *e = &r->ev[i];

		json_array_append_new(ev, json_pack(
			"{s:s, s:s, s:s, s:b, s:o, s:o, s:b, s:s}", "name",
			e->name, "pmu", e->pmu, "traffic", e->traffic, "opened",
			e->opened, "bytes_per_event", num(e->bytes_per_event),
			"error_pct", num(e->error_pct), "chosen", e->chosen,
			"message", e->message));
	}
	for (size_t i = 0; i < r->n_ov; i++) {
		const struct memcal_overhead_point *p = &r->ov[i];

		json_array_append_new(ov, json_pack(
			"{s:i, s:i, s:s, s:s, s:i, s:b, s:i, s:o, s:o, s:o, "
			"s:b}", "cpu", p->cpu, "period_us", p->period_us, "benchmark",
			p->benchmark, "method", p->method, "master_cpu",
			p->master_cpu, "on_master", p->master_cpu == p->cpu,
			"repetitions", p->repetitions,
			"ratio_median", num(p->ratio_median), "ratio_min",
			num(p->ratio_min), "ratio_max", num(p->ratio_max),
			"lower_bound", p->lower_bound));
	}
	for (size_t i = 0; i < r->n_om; i++) {
		const struct memcal_overhead_model *m = &r->om[i];

		json_array_append_new(om, json_pack(
			"{s:i, s:s, s:s, s:o, s:o, s:o}", "cpu", m->cpu,
			"benchmark", m->benchmark, "method", m->method,
			"cost_per_irq_ns", num(m->cost_per_irq_ns),
			"base_ratio", num(m->base_ratio), "r2", num(m->r2)));
	}
	json_object_set_new(o, "bandwidth", a);
	json_object_set_new(o, "latency", lat);
	json_object_set_new(o, "sustainable", sus);
	json_object_set_new(o, "mix_curves", mix);
	json_object_set_new(o, "guaranteed",
			    report_guaranteed_json(r->guar, r->n_guar));
	for (size_t i = 0; i < r->n_sc; i++)
		json_array_append_new(sc, report_selfcheck_json(&r->sc[i]));
	json_object_set_new(o, "pmu", r->have_pmu ? json_pack(
		"{s:b, s:s, s:s, s:o, s:o}", "available", r->pmu.available,
		"pmu_name", r->pmu.pmu_name, "message", r->pmu.message,
		"events", ev, "selfchecks", sc) :
		(json_decref(ev), json_decref(sc), json_null()));
	json_object_set_new(o, "overhead", json_pack("{s:o, s:o}", "points",
						     ov, "models", om));
}

/* array_of - a JSON array of @n doubles. */
static json_t *array_of(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, num(v[i]));
	return a;
}

/* ratio_or_null - @a / @b when both are measurements, else null. */
static json_t *ratio_or_null(double a, double b)
{
	return a > 0 && b > 0 ? json_real(a / b) : json_null();
}

/**
 * report_validation_conditions_json() - add to @e workload @v's static
 * figures (null when the static condition did not run, never 0), the
 * slowdown of each condition (co-run time over solo time; null for a
 * condition that did not run) and, for a best-effort workload, its
 * throughput (solo time over co-run time) in each.  One form for the
 * report and for validate's and show's --json.
 * @regulated: the validation ran the regulated condition.
 */
void report_validation_conditions_json(json_t *e,
				       const struct memcal_validation_result *v,
				       bool regulated)
{
	bool s = v->has_static;
	char key[40];

	json_object_set_new(e, "has_static", json_boolean(s));
	json_object_set_new(e, "static_ns", s ? num(v->static_ns) :
			    json_null());
	json_object_set_new(e, "static_deadline_misses", s ?
			    json_integer(v->static_deadline_misses) :
			    json_null());
	json_object_set_new(e, "static_throttles", s ?
			    json_integer(v->static_throttles) : json_null());
	json_object_set_new(e, "static_throttled_ns", s ?
			    json_integer(v->static_throttled_ns) :
			    json_null());
	for (int k = 0; k < REPORT_N_CORUN; k++) {
		double t = report_corun_ns(v, regulated, k);

		snprintf(key, sizeof(key), "slowdown_%s", report_corun_name[k]);
		json_object_set_new(e, key, ratio_or_null(t, v->solo_ns));
		if (v->deadline_ns > 0)
			continue;
		snprintf(key, sizeof(key), "throughput_%s",
			 report_corun_name[k]);
		json_object_set_new(e, key, ratio_or_null(v->solo_ns, t));
	}
}

/* tuning_json - add the configuration, budgets, validation and LMS. */
static void tuning_json(json_t *o, const struct report *r)
{
	const char *pw = report_doc_reason(r, "period");
	const char *mw = report_doc_reason(r, "master");
	const char *xw = report_doc_reason(r, "mix");
	json_t *b = json_array(), *res = json_array();

	json_object_set_new(o, "config", !r->have_config ? json_null() :
		json_pack("{s:I, s:s, s:I, s:i, s:i, s:s, s:s?, s:s?, s:s?, "
			  "s:O?}",
			  "id", (json_int_t)r->config.id, "mix", r->config.mix,
			  "calibration_run_id",
			  (json_int_t)r->config.calibration_run_id, "period_us",
			  r->config.period_us, "master_cpu",
			  r->config.master_cpu, "created_at",
			  r->config.created_at, "period_reason", pw,
			  "master_reason", mw, "mix_reason", xw,
			  "document", r->doc));
	for (size_t i = 0; i < r->n_cores; i++) {
		const struct report_core_budget *c = &r->cores[i];

		json_array_append_new(b, json_pack(
			"{s:i, s:s, s:b, s:o, s:o, s:o, s:o}", "cpu", c->cpu,
			"workload", c->workload, "rt", c->rt, "read_bps",
			num(c->read_bps), "write_bps", num(c->write_bps),
			"read_events", num(c->read_events), "write_events",
			num(c->write_events)));
	}
	json_object_set_new(o, "budgets", b);
	for (size_t i = 0; i < r->n_res; i++) {
		const struct memcal_validation_result *v = &r->res[i];

		json_t *e = json_pack(
			"{s:s, s:i, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I}",
			"workload", v->workload, "cpu", v->cpu, "solo_ns",
			num(v->solo_ns), "unregulated_ns",
			num(v->unregulated_ns), "regulated_ns",
			num(v->regulated_ns), "deadline_ns",
			num(v->deadline_ns), "jobs", (json_int_t)v->jobs,
			"deadline_misses", (json_int_t)v->deadline_misses,
			"throttles", (json_int_t)v->throttles, "throttled_ns",
			(json_int_t)v->throttled_ns);

		report_validation_conditions_json(e, v, r->validation.regulated);
		json_array_append_new(res, e);
	}
	json_object_set_new(o, "validation", !r->have_validation ?
		(json_decref(res), json_null()) :
		json_pack("{s:I, s:s, s:s, s:b, s:b, s:o}", "id",
			  (json_int_t)r->validation.id, "started_at",
			  r->validation.started_at, "finished_at",
			  r->validation.finished_at, "regulated",
			  r->validation.regulated, "static",
			  report_has_static(r), "results", res));
	json_object_set_new(o, "job_latency", report_job_latency_json(r));
	json_object_set_new(o, "lms", !r->lms.n ? json_null() :
		json_pack("{s:s, s:i, s:i, s:o, s:o}", "source", r->lms.source,
			  "cpu", r->lms.cpu, "period_us", r->lms.period_us,
			  "actual_bps", array_of(r->lms.actual, r->lms.n),
			  "predicted_bps", array_of(r->lms.predicted,
						    r->lms.n)));
}

/**
 * report_to_json() - the data of @r as a new JSON object (NULL when
 * memory ran out).
 */
json_t *report_to_json(const struct report *r)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:i}", "schema",
			      "memcal.report/1", "tool",
			      r->tool ? r->tool : "memcal", "generated_at",
			      r->generated_at, "database", r->db_path,
			      "charts", report_chart_count(r));

	if (!o)
		return NULL;
	json_object_set_new(o, "platform", platform_json(r));
	json_object_set_new(o, "run", run_json(r->have_run, &r->run));
	json_object_set_new(o, "overhead_run", run_json(r->have_overhead_run,
							&r->overhead_run));
	json_object_set_new(o, "summary", summary_json(r));
	calibration_json(o, r);
	if (r->tool && !strcmp(r->tool, "memtune"))
		tuning_json(o, r);
	json_object_set_new(o, "warnings", notes((const char (*)
		[REPORT_NOTE_LEN])r->warnings, r->n_warnings));
	json_object_set_new(o, "missing", notes((const char (*)
		[REPORT_NOTE_LEN])r->missing, r->n_missing));
	return o;
}

/**
 * report_write_json() - the document of report_to_json() on @f, indented.
 * Return: 0, -ENOMEM, -EIO.
 */
int report_write_json(FILE *f, const struct report *r)
{
	json_t *o = report_to_json(r);
	int rc;

	if (!o)
		return -ENOMEM;
	rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	json_decref(o);
	fputc('\n', f);
	return rc || ferror(f) ? -EIO : 0;
}
