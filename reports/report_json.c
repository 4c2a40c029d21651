// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_json.c - the report's data as one JSON document (schema
 * "memcal.report/2"): the same rows the page and the CSV show, in base
 * units (B/s, ns, us), with the warnings and what is missing.  A value
 * that was not measured is null (JSON has no NaN).
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "report.h"

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
		double v = fig_bw_peak(&r->cal, kinds[k], &n);
		char key[32];

		snprintf(key, sizeof(key), "peak_%s_bps", kinds[k]);
		json_object_set_new(s, key, fig_num(v));
		snprintf(key, sizeof(key), "peak_%s_cores", kinds[k]);
		json_object_set_new(s, key, n ? json_integer(n) : json_null());
		snprintf(key, sizeof(key), "single_core_%s_bps", kinds[k]);
		json_object_set_new(s, key, fig_num(fig_bw_at(&r->cal, kinds[k], 1,
							     NULL, NULL)));
	}
	json_object_set_new(s, "overhead_master_cpu",
			    json_integer(report_overhead_master(r)));
	json_object_set_new(s, "overhead_proxy",
			    json_boolean(report_overhead_proxy(r)));
	json_object_set_new(s, "pmu_available", r->cal.have_pmu ?
			    json_boolean(r->cal.pmu.available) : json_null());
	return s;
}

/*
 * calibration_json - the figures of the run into @o, in fig_run_json()'s
 * form (`memcal show --run ID --json` prints the same), the overhead
 * points and models being those of the overhead run.
 */
static void calibration_json(json_t *o, const struct report *r)
{
	struct fig_run fig = r->cal;
	json_t *f;

	fig.ov = r->ovh.ov;
	fig.n_ov = r->ovh.n_ov;
	fig.om = r->ovh.om;
	fig.n_om = r->ovh.n_om;
	f = fig_run_json(&fig);
	json_object_update(o, f);
	json_decref(f);
}

/* array_of - a JSON array of @n doubles. */
static json_t *array_of(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, fig_num(v[i]));
	return a;
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
			fig_num(c->read_bps), "write_bps", fig_num(c->write_bps),
			"read_events", fig_num(c->read_events), "write_events",
			fig_num(c->write_events)));
	}
	json_object_set_new(o, "budgets", b);
	for (size_t i = 0; i < r->n_res; i++) {
		const struct memcal_validation_result *v = &r->res[i];

		json_t *e = json_pack(
			"{s:s, s:i, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I}",
			"workload", v->workload, "cpu", v->cpu, "solo_ns",
			fig_num(v->solo_ns), "unregulated_ns",
			fig_num(v->unregulated_ns), "regulated_ns",
			fig_num(v->regulated_ns), "deadline_ns",
			fig_num(v->deadline_ns), "jobs", (json_int_t)v->jobs,
			"deadline_misses", (json_int_t)v->deadline_misses,
			"throttles", (json_int_t)v->throttles, "throttled_ns",
			(json_int_t)v->throttled_ns);

		fig_validation_conditions_json(e, v, r->validation.regulated);
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
			      "memcal.report/2", "tool",
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
	if (r->have_fleet && !(r->tool && !strcmp(r->tool, "memtune")))
		json_object_set_new(o, "fleet", fig_fleet_json(&r->fleet));
	if (r->tool && !strcmp(r->tool, "memtune"))
		tuning_json(o, r);
	json_object_set_new(o, "warnings", notes((const char (*)
		[REPORT_NOTE_LEN])r->warnings, r->n_warnings));
	json_object_set_new(o, "missing", notes((const char (*)
		[REPORT_NOTE_LEN])r->missing, r->n_missing));
	return o;
}

/**
 * report_write_json() - the document of report_to_json() on @f, written
 * by cli_json_dumpf() like every memcal document.
 * Return: MEMCAL_OK, MEMCAL_ENOMEM or MEMCAL_EIO.
 */
int report_write_json(FILE *f, const struct report *r)
{
	json_t *o = report_to_json(r);
	bool ok;

	if (!o)
		return MEMCAL_ENOMEM;
	ok = cli_json_dumpf(o, f);
	json_decref(o);
	return ok && !ferror(f) ? MEMCAL_OK : MEMCAL_EIO;
}
