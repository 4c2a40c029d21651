/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_reports.h - what the reports library offers the tools beyond
 * their report commands: the headline figures of a calibration run,
 * computed from its stored rows by one set of functions (report_summary.c)
 * that both `memcal show` and the reports call, so that the two never
 * print different numbers for the same figure; the JSON form of a job
 * latency row and the lookup of one, shared by `memtune validate`/`show`
 * and the tuning report; the co-run conditions of a validation and each
 * one's time (NAN where it did not run); the
 * slowdowns, static figures and throughputs of a validation result per
 * condition, shared by `memtune validate`/`show` and the tuning report; the
 * JSON form of a curve of the bandwidth-latency family; that of a PMU
 * self-check, shared by `memcal run`, `memcal show` and the calibration
 * report; and
 * the growable-array helper they use.
 */
#ifndef MEMCAL_REPORTS_H
#define MEMCAL_REPORTS_H

#include <stddef.h>

#include <jansson.h>

#include "memcal_db.h"
#include "memcal_db_guaranteed.h"
#include "memcal_db_job_latency.h"
#include "memcal_db_mix.h"
#include "memcal_db_selfcheck.h"
#include "memcal_db_tune.h"

int report_push(void **arr, size_t *n, size_t elem, const void *item);
json_t *report_job_latency_row_json(const struct memcal_job_latency *l);
const struct memcal_job_latency *
report_job_latency_find(const struct memcal_job_latency *jl, size_t n,
			const char *wl, const char *cond);
json_t *report_mix_curve_json(const struct memcal_mix_curve *c);
json_t *report_selfcheck_json(const struct memcal_selfcheck *c);
void report_validation_conditions_json(json_t *e,
				       const struct memcal_validation_result *v,
				       bool regulated);
json_t *report_guaranteed_json(const struct memcal_guaranteed *g, size_t n);

#define REPORT_N_CORUN 3
extern const char *const report_corun_name[REPORT_N_CORUN];
double report_corun_ns(const struct memcal_validation_result *v,
		       bool regulated, int k);

double report_figures_bw_at(const struct memcal_bw *bw, size_t n, const char *kind,
		     int n_cpus, double *lo, double *hi);
int report_figures_max_cpus(const struct memcal_bw *bw, size_t n);
double report_figures_bw_peak(const struct memcal_bw *bw, size_t n,
		       const char *kind, int *n_cpus);
const struct memcal_sustainable *
report_figures_sustainable(const struct memcal_sustainable *sus, size_t n,
		    const char *traffic);

#endif /* MEMCAL_REPORTS_H */
