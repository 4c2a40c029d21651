// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_tune.c - the tuning part of a report: the tuned configuration and
 * its JSON document (format "memcal.tuned-config", tuner/tuned_config.h), read
 * defensively (every field may be missing or of another type: it is then
 * skipped), the calibration it came from, its newest validation, and the
 * LMS trace.
 *
 * LMS trace: the database stores no per-period predictions of a run.  When
 * the configuration enables LMS and one of its workload profiles has a
 * recorded trace, the trace is replayed through the regulator core's own
 * fixed-point NLMS predictor (regulator/core/lms.c, the code memreg runs)
 * with the configuration's taps and step size; the chart says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "memcal_figures.h"
#include "memreg.h"

/*
 * doc_path - the value at a dotted @path ("read.guaranteed_bps") under
 * @obj, or NULL when any step is missing or not an object.
 */
static json_t *doc_path(const json_t *obj, const char *path)
{
	char key[64];
	const char *dot;

	while (obj && json_is_object(obj)) {
		dot = strchr(path, '.');
		if (!dot)
			return json_object_get(obj, path);
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		obj = json_object_get(obj, key);
		path = dot + 1;
	}
	return NULL;
}

/*
 * report_doc_number() - the first of @keys (dotted paths, NULL-terminated)
 * that holds a number under @obj; NAN when none does.
 */
double report_doc_number(const json_t *obj, const char *const *keys)
{
	for (; keys && *keys; keys++) {
		json_t *v = doc_path(obj, *keys);

		if (json_is_number(v))
			return json_number_value(v);
	}
	return NAN;
}

/* doc_string - string at @path under @obj, or NULL. */
static const char *doc_string(const json_t *obj, const char *path)
{
	json_t *v = doc_path(obj, path);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * report_doc_reason() - the document's explanation of the choice @key
 * ("period", "master"): the sentence the planner stored under that key of
 * its "reasons" object, else NULL.  Looked up by key, never by the words
 * of a sentence: the master's reason speaks of overhead "per period" too.
 */
const char *report_doc_reason(const struct report *r, const char *key)
{
	json_t *why = r->doc ? json_object_get(r->doc, "reasons") : NULL;
	json_t *s = json_is_object(why) ? json_object_get(why, key) : NULL;

	return json_is_string(s) && json_string_length(s) ?
	       json_string_value(s) : NULL;
}

/*
 * report_bytes_per_event() - bytes one counter event of @traffic stands
 * for: the document's counter, else the calibration's chosen PMU event;
 * NAN when neither says.
 */
double report_bytes_per_event(const struct report *r, const char *traffic)
{
	char path[64];
	double v;

	snprintf(path, sizeof(path), "counters.%s.bytes_per_event", traffic);
	v = report_doc_number(r->doc, (const char *const[]){ path, NULL });
	if (v > 0)
		return v;
	for (size_t i = 0; i < r->cal.n_ev; i++)
		if (r->cal.ev[i].chosen && !strcmp(r->cal.ev[i].traffic, traffic) &&
		    r->cal.ev[i].bytes_per_event > 0)
			return r->cal.ev[i].bytes_per_event;
	return NAN;
}

/*
 * class_budget - one class of one "cpus" entry: guaranteed bytes/s and
 * events/period, converting events when only they are given.
 */
static void class_budget(const struct report *r, const json_t *cpu,
			 const char *cls, double *bps, double *events)
{
	char p1[64], p2[64], p3[64], p4[64];
	double bpe = report_bytes_per_event(r, cls);
	double period = r->config.period_us * 1e-6;

	snprintf(p1, sizeof(p1), "%s.guaranteed_bps", cls);
	snprintf(p2, sizeof(p2), "%s_budget_bps", cls);
	snprintf(p3, sizeof(p3), "%s.guaranteed_events", cls);
	snprintf(p4, sizeof(p4), "%s_budget_events", cls);
	*bps = report_doc_number(cpu, (const char *const[]){ p1, p2, NULL });
	*events = report_doc_number(cpu, (const char *const[]){ p3, p4, NULL });
	if (isnan(*bps) && !isnan(*events) && bpe > 0 && period > 0)
		*bps = *events * bpe / period;
}

/*
 * read_cores - the per-CPU budgets of the document's "cpus" array; 0 or
 * MEMCAL_ENOMEM.
 */
static int read_cores(struct report *r)
{
	json_t *cpus = json_object_get(r->doc, "cpus");
	size_t i;
	json_t *c;

	if (!json_is_array(cpus))
		cpus = json_object_get(r->doc, "cores");
	if (!json_is_array(cpus))
		return 0;
	json_array_foreach(cpus, i, c) {
		struct report_core_budget b = { .cpu = -1 };
		json_t *wl = json_object_get(c, "workloads");
		const char *role = doc_string(c, "role");
		double cpu = report_doc_number(c, (const char *const[]){
						       "cpu", NULL });

		if (!json_is_object(c) || isnan(cpu))
			continue;
		b.cpu = (int)cpu;
		if (json_is_array(wl) && json_array_size(wl)) {
			size_t k, len = 0;
			json_t *name;

			json_array_foreach(wl, k, name)
				if (json_is_string(name) &&
				    len < sizeof(b.workload) - 1)
					len += (size_t)snprintf(b.workload + len,
						sizeof(b.workload) - len, "%s%s",
						len ? ", " : "",
						json_string_value(name));
		} else if (doc_string(c, "workload"))
			snprintf(b.workload, sizeof(b.workload), "%s",
				 doc_string(c, "workload"));
		b.rt = role && !strcmp(role, "rt");
		if (role && !strcmp(role, "idle"))
			continue;
		json_t *reg = json_object_get(c, "regulated");

		if (json_is_false(reg))
			continue;
		class_budget(r, c, "read", &b.read_bps, &b.read_events);
		class_budget(r, c, "write", &b.write_bps, &b.write_events);
		if (fig_push((void **)&r->cores, &r->n_cores, sizeof(b), &b))
			return MEMCAL_ENOMEM;
	}
	return 0;
}

/*
 * report_read_config_doc() - parse r->config.document and take the
 * per-core budgets, warnings and provenance hints from it.  A document
 * that does not parse is a warning, not a failure.  Return: 0 or -1.
 */
int report_read_config_doc(struct report *r, memcal_db *db)
{
	json_error_t jerr;
	json_t *warnings, *w;
	size_t i;

	(void)db;
	r->doc = r->config.document ? json_loads(r->config.document, 0, &jerr)
				    : NULL;
	if (!r->doc) {
		report_warn(r, "The document of configuration %lld does not "
			    "parse as JSON; only its headline figures are "
			    "shown.", (long long)r->config.id);
		return 0;
	}
	warnings = json_object_get(r->doc, "warnings");
	if (json_is_array(warnings))
		json_array_foreach(warnings, i, w)
			if (json_is_string(w))
				report_warn(r, "Planner: %s", json_string_value(w));
	return read_cores(r);
}

/* pick_profile - memcal_db_profile_get() the best trace: rt, longest. */
static int pick_profile(struct report *r, memcal_db *db,
			struct memcal_profile *best)
{
	bool have = false;

	for (size_t i = 0; i < r->config.n_profiles; i++) {
		struct memcal_profile p;
		bool better;

		if (memcal_db_profile_get(db, r->config.profile_ids[i], &p))
			continue;
		better = !have || (p.trace_len >= 4 &&
				   (!strcmp(p.criticality, "rt") >
				    !strcmp(best->criticality, "rt") ||
				    (!strcmp(p.criticality, "rt") ==
				     !strcmp(best->criticality, "rt") &&
				     p.trace_len > best->trace_len)));
		if (better && p.trace_len >= 4) {
			if (have)
				memcal_db_profile_free(best);
			*best = p;
			have = true;
		} else {
			memcal_db_profile_free(&p);
		}
	}
	return have ? 0 : -1;
}

/*
 * lms_ticks_per_period - how many trace ticks of @tick_us make one
 * regulation period of @period_us (at least 1: a trace coarser than the
 * period is replayed at its own tick).
 */
static size_t lms_ticks_per_period(int period_us, int tick_us)
{
	long k = tick_us > 0 ? lround((double)period_us / tick_us) : 1;

	return k > 1 ? (size_t)k : 1;
}

/*
 * replay_lms - feed a profile's read trace through the core's NLMS at the
 * regulation period, as memreg runs it: the trace's ticks (often 100 us)
 * are summed into periods of the configuration's length first, and a
 * partial period at the end is dropped.  Returns 0, MEMCAL_ENOMEM, or the
 * status of reading the profile.
 */
static int replay_lms(struct report *r, memcal_db *db)
{
	struct memcal_profile p;
	struct memreg_lms_state s;
	double taps = report_doc_number(r->doc, (const char *const[]){
					    "lms.taps", NULL });
	double mu = report_doc_number(r->doc, (const char *const[]){
					  "lms.mu_q16", NULL });
	double bpe = report_bytes_per_event(r, "read");
	size_t k, n;
	double dt;
	memreg_u32 pred;

	if (json_is_false(doc_path(r->doc, "modes.lms"))) {
		report_missing(r, "LMS adaptation is off in configuration %lld: "
			       "there is no prediction to show.",
			       (long long)r->config.id);
		return 0;
	}
	if (isnan(mu))
		mu = report_doc_number(r->doc, (const char *const[]){
					   "lms.mu", NULL }) * MEMREG_ONE;
	if (isnan(taps) || isnan(mu) || pick_profile(r, db, &p))
		return 0;
	if (!(bpe > 0))
		bpe = 64;	/* one cache line: NLMS is scale-invariant */
	k = lms_ticks_per_period(r->config.period_us, p.trace_period_us);
	n = p.trace_len / k;
	dt = (double)k * p.trace_period_us * 1e-6;
	r->lms.actual = calloc(n ? n : 1, sizeof(double));
	r->lms.predicted = calloc(n ? n : 1, sizeof(double));
	if (!r->lms.actual || !r->lms.predicted || !(dt > 0)) {
		memcal_db_profile_free(&p);
		return MEMCAL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		double bytes = 0;

		for (size_t j = 0; j < k; j++)
			bytes += (double)p.trace_read[i * k + j];
		r->lms.actual[i] = bytes / dt;
	}
	memreg_lms_init(&s, (memreg_u32)taps, 1,
			(memreg_u64)(n ? r->lms.actual[0] * dt / bpe : 0));
	pred = s.last_pred;
	for (size_t i = 0; i < n; i++) {
		r->lms.predicted[i] = pred * bpe / dt;
		pred = memreg_lms_update(&s, (memreg_u32)mu, (memreg_u64)(
					 r->lms.actual[i] * dt / bpe));
	}
	r->lms.n = n;
	r->lms.cpu = p.cpu;
	r->lms.period_us = (int)(k * (size_t)p.trace_period_us);
	snprintf(r->lms.source, sizeof(r->lms.source), "read trace of "
		 "workload '%.100s' (%s, %d us ticks summed into %d us "
		 "periods) replayed through memreg's fixed-point NLMS, %d "
		 "taps, mu %.3f", p.workload, p.trace_source,
		 p.trace_period_us, r->lms.period_us, (int)taps,
		 mu / MEMREG_ONE);
	memcal_db_profile_free(&p);
	return 0;
}

/* collect_res - memcal_db_validation_result_list() callback. */
static int collect_res(const struct memcal_validation_result *v, void *user)
{
	struct report *r = user;

	return fig_push((void **)&r->res, &r->n_res, sizeof(*v), v);
}

/**
 * report_has_static() - whether @r's validation ran the static condition
 * for any workload (false for one stored before it existed).
 */
bool report_has_static(const struct report *r)
{
	for (size_t i = 0; i < r->n_res; i++)
		if (r->res[i].has_static)
			return true;
	return false;
}

/* load_validation - the newest validation of the configuration. */
static int load_validation(struct report *r, memcal_db *db)
{
	int rc = memcal_db_validation_latest(db, r->config.id, &r->validation);

	if (rc == MEMCAL_ENOTFOUND) {
		report_missing(r, "Configuration %lld was never validated: run "
			       "'memtune validate MIX.yaml --config %lld'.",
			       (long long)r->config.id, (long long)r->config.id);
		return 0;
	}
	if (rc)
		return rc;
	r->have_validation = true;
	if (!r->validation.regulated)
		report_warn(r, "Validation %lld ran unregulated only (memreg "
			    "was not loaded): the regulated slowdowns are "
			    "missing.", (long long)r->validation.id);
	if (r->validation.notes && r->validation.notes[0])
		report_warn(r, "Notes of validation %lld: %s",
			    (long long)r->validation.id, r->validation.notes);
	rc = memcal_db_validation_result_list(db, r->validation.id,
					      collect_res, r);
	if (!rc && !r->n_res)
		report_missing(r, "Validation %lld stored no results.",
			       (long long)r->validation.id);
	else if (!rc && !report_has_static(r))
		report_missing(r, "Validation %lld has no static condition "
			       "(static not measured): run 'memtune validate "
			       "MIX.yaml --config %lld' to compare static "
			       "budgets with the tuned regulation.",
			       (long long)r->validation.id,
			       (long long)r->config.id);
	if (!rc)
		rc = report_load_job_latency(r, db);
	return rc;
}

/**
 * report_load_tuning() - fill @r for `memtune report`: the configuration
 * @config_id (0: the newest), the calibration it used, its validation.
 *
 * Return: 0 (missing data is noted in @r), MEMCAL_ENOTFOUND when
 * @config_id names no configuration, another memcal_status on a database
 * failure, or MEMCAL_ENOMEM.
 */
int report_load_tuning(struct report *r, memcal_db *db, int64_t config_id)
{
	int64_t cal = 0;
	int rc;

	if (!config_id) {
		rc = memcal_db_config_latest(db, &config_id);
		if (rc == MEMCAL_ENOTFOUND) {
			report_missing(r, "The database holds no tuned "
				       "configuration: run 'memtune profile' "
				       "and 'memtune plan' on a mix.");
			return report_load_calibration(r, db, 0);
		}
		if (rc)
			return rc;
	}
	rc = memcal_db_config_get(db, config_id, &r->config);
	if (rc)
		return rc;
	r->config.id = config_id;
	r->have_config = true;
	rc = report_read_config_doc(r, db);
	if (rc)
		return rc;
	cal = r->config.calibration_run_id;
	if (!cal)
		report_warn(r, "Configuration %lld does not name the calibration "
			    "it used; the newest calibration is shown.",
			    (long long)config_id);
	rc = report_load_calibration(r, db, cal);
	if (rc == MEMCAL_ENOTFOUND && cal) {
		report_missing(r, "Calibration run %lld, which configuration "
			       "%lld came from, is no longer in the database.",
			       (long long)cal, (long long)config_id);
		rc = report_load_calibration(r, db, 0);
	}
	if (rc)
		return rc;
	if (!r->n_cores)
		report_missing(r, "The document of configuration %lld lists no "
			       "per-core budgets.", (long long)config_id);
	rc = load_validation(r, db);
	if (!rc)
		rc = replay_lms(r, db);
	if (!rc && !r->lms.n && !json_is_false(doc_path(r->doc, "modes.lms")))
		report_missing(r, "No LMS trace: the configuration has no LMS "
			       "parameters or none of its workload profiles "
			       "recorded a trace.");
	return rc;
}
