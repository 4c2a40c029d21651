/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - the data of a report, loaded from the database once
 * (report_load.c, report_tune.c) and rendered by html.c, csv.c and
 * report_json.c; the charts are drawn by charts_calibration.c and
 * charts_tuning.c.  Nothing here writes to the database.
 *
 * A report never fails because data is missing: whatever the database
 * lacks is recorded in @missing (one sentence each, saying what to run to
 * get it), and the charts that need it say so in their place.
 */
#ifndef MEMCAL_REPORT_H
#define MEMCAL_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "cli.h"
#include "memcal_db.h"
#include "memcal_db_tune.h"
#include "memcal_db_job_latency.h"
#include "memcal_figures.h"

#define REPORT_MAX_NOTES 32
#define REPORT_NOTE_LEN 4096

/* Output formats. */
enum report_format {
	REPORT_HTML = 0,
	REPORT_CSV = 1,
	REPORT_JSON = 2,
};

/**
 * struct report_core_budget - one core's share of a tuned configuration.
 * @cpu:      OS CPU number.
 * @workload: workload placed on it ("" if the document names none).
 * @read_bps, @write_bps: guaranteed budget in bytes per second (NAN when
 *            the document gives none and no conversion was possible).
 * @read_events, @write_events: the same in events per period (NAN when
 *            absent).
 * @rt:       the core runs a real-time workload.
 */
struct report_core_budget {
	int cpu;
	char workload[128];
	double read_bps, write_bps;
	double read_events, write_events;
	bool rt;
};

/**
 * struct report_lms_trace - predicted and actual demand over time.
 * @source:    where it came from, in words ("" when there is none).
 * @cpu:       core the trace belongs to.
 * @period_us: time between samples.
 * @n:         number of samples.
 * @actual, @predicted: demand per sample, bytes per second (malloc'd).
 */
struct report_lms_trace {
	char source[320];
	int cpu;
	int period_us;
	size_t n;
	double *actual;
	double *predicted;
};

/**
 * struct report - everything one report shows.
 * @tool:        "memcal" or "memtune": which report this is.
 * @db_path:     database it was read from.
 * @generated_at: ISO-8601 UTC time the report was made.
 * @have_run:    @run (the calibration run reported) was found.
 * @run:         that run.
 * @have_overhead_run: @overhead_run was found.
 * @overhead_run: the run the overhead points come from (may be @run).
 * @have_platform: @platform was found.
 * @platform:    the board.
 * @cal:         every figure row of @run (fig_run_load()); its overhead
 *               rows are not used: @ovh holds those.
 * @ovh:         the figure rows of @overhead_run: its overhead points and
 *               models (@ovh.ov, @ovh.om) are the report's.
 * @have_config: @config (memtune report) was found.
 * @config:      the tuned configuration.
 * @doc:         its JSON document, parsed (NULL if unparsable).
 * @cores, @n_cores: per-core budgets read from @doc.
 * @have_validation: @validation was found.
 * @validation:  the newest validation of @config.
 * @res, @n_res: its per-workload results.
 * @jl, @n_jl:   its per-job latency distributions (report_job_latency.c).
 * @lms:         the LMS trace, if any.
 * @have_fleet:  the database holds two or more units of @platform.
 * @fleet:       those units, judged (report_fleet.c).
 * @warnings, @n_warnings: what the reader must keep in mind.
 * @missing, @n_missing: what the database lacks for this report.
 */
struct report {
	const char *tool;
	char db_path[512];
	char generated_at[32];

	bool have_run;
	struct memcal_run run;
	bool have_overhead_run;
	struct memcal_run overhead_run;
	bool have_platform;
	struct memcal_platform platform;
	struct fig_run cal;
	struct fig_run ovh;

	bool have_config;
	struct memcal_config config;
	json_t *doc;
	struct report_core_budget *cores;
	size_t n_cores;
	bool have_validation;
	struct memcal_validation validation;
	struct memcal_validation_result *res;
	size_t n_res;
	struct memcal_job_latency *jl;
	size_t n_jl;
	struct report_lms_trace lms;
	bool have_fleet;
	struct fig_fleet fleet;

	char warnings[REPORT_MAX_NOTES][REPORT_NOTE_LEN];
	size_t n_warnings;
	char missing[REPORT_MAX_NOTES][REPORT_NOTE_LEN];
	size_t n_missing;
};

/* report_load.c */
int report_load_calibration(struct report *r, memcal_db *db, int64_t run_id);
int report_load_tuning(struct report *r, memcal_db *db, int64_t config_id);
void report_free(struct report *r);
const struct memcal_guaranteed *report_guaranteed(const struct report *r,
						  const char *traffic);
/* report_warn() - add a warning the reader must see (cli_note_add()). */
#define report_warn(r, ...) CLI_NOTE_ADD((r)->warnings, &(r)->n_warnings, __VA_ARGS__)
/* report_missing() - record something the database does not hold. */
#define report_missing(r, ...) CLI_NOTE_ADD((r)->missing, &(r)->n_missing, __VA_ARGS__)

/* report_tune.c: the tuned-config document, read defensively. */
int report_read_config_doc(struct report *r, memcal_db *db);
const char *report_doc_reason(const struct report *r, const char *key);
double report_doc_number(const json_t *obj, const char *const *keys);
double report_bytes_per_event(const struct report *r, const char *traffic);
bool report_has_static(const struct report *r);

/* report_summary.c: headline figures shared by every format. */
/* report_overhead_master() of points without one master (negative). */
#define REPORT_NO_MASTER (-1)
int report_overhead_master(const struct report *r);
bool report_overhead_proxy(const struct report *r);

/*
 * Charts: each writes one <svg> (a placeholder when data is missing);
 * 0 or MEMCAL_ENOMEM.
 */
#define REPORT_CHART_WIDTH 780.0
#define REPORT_CHART_HEIGHT 400.0
int report_chart_bandwidth(FILE *f, const struct report *r);
int report_chart_latency(FILE *f, const struct report *r);
int report_chart_family(FILE *f, const struct report *r);
int report_chart_overhead(FILE *f, const struct report *r);
int report_chart_budgets(FILE *f, const struct report *r);
int report_chart_validation(FILE *f, const struct report *r);
int report_chart_lms(FILE *f, const struct report *r);
int report_chart_count(const struct report *r);

/* report_job_latency.c: per-job latency of the real-time workloads. */
int report_load_job_latency(struct report *r, memcal_db *db);
void report_job_latency_free(struct report *r);
int report_chart_job_latency(FILE *f, const struct report *r);
json_t *report_job_latency_json(const struct report *r);

/*
 * Renderers.  Each returns MEMCAL_OK, MEMCAL_ENOMEM or MEMCAL_EIO.
 */
int report_write_html(FILE *f, const struct report *r);
int report_load_fleet(struct report *r, memcal_db *db);
int report_write_fleet_html(FILE *f, const struct report *r);
int report_write_html_tables(FILE *f, const struct report *r);
int report_write_csv(FILE *f, const struct report *r);
json_t *report_to_json(const struct report *r);
int report_write_json(FILE *f, const struct report *r);
void report_html_escape(FILE *f, const char *s);

#endif /* MEMCAL_REPORT_H */
