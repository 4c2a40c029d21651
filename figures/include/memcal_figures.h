/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_figures.h - the data shapes both tools and the reports share.
 * The figures one calibration run stored, in memory and as JSON: one
 * loader (fig_run_load()) and one JSON form (fig_run_json()) that `memcal
 * run --json`, `memcal show` and the reports all use, so the same figure
 * is never read or written two ways; the headline figures derived from
 * them; the JSON forms of the rows other documents embed (a curve of the
 * bandwidth-latency family, a PMU self-check, the guaranteed-bandwidth
 * figures, the kinds of CPU); a validation's co-run conditions and
 * per-job latency rows; and the growable-array helper the loaders use.
 *
 * Numbers that were not measured (NaN) are JSON null; the tools write
 * every document with cli_json_dumpf(), so a figure has the same digits
 * wherever it is printed.
 */
#ifndef MEMCAL_FIGURES_H
#define MEMCAL_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "memcal_db.h"
#include "memcal_db_cpu_kind.h"
#include "memcal_db_guaranteed.h"
#include "memcal_db_job_latency.h"
#include "memcal_db_mix.h"
#include "memcal_db_selfcheck.h"
#include "memcal_db_tune.h"

/**
 * struct fig_run - every figure row of one run (arrays malloc'd by
 * fig_run_load(), or borrowed from another owner: fig_run_json() only
 * reads them).
 * @bw, @n_bw:       bandwidth rows.
 * @lat, @n_lat:     loaded-latency points.
 * @sus, @n_sus:     sustainable bandwidth per traffic class.
 * @mix, @n_mix:     the bandwidth-latency family, 100 % read first.
 * @guar, @n_guar:   guaranteed-bandwidth figures, skipped ones included.
 * @have_pmu:        @pmu was stored (runs without a PMU verdict have none).
 * @pmu:             the PMU verdict.
 * @ev, @n_ev:       PMU events considered.
 * @sc, @n_sc:       PMU self-checks.
 * @kinds, @n_kinds: kinds of CPU and the event each counts with.
 * @ov, @n_ov:       interrupt-overhead points.
 * @om, @n_om:       fitted overhead models.
 */
struct fig_run {
	struct memcal_bw *bw;
	size_t n_bw;
	struct memcal_latency_point *lat;
	size_t n_lat;
	struct memcal_sustainable *sus;
	size_t n_sus;
	struct memcal_mix_curve *mix;
	size_t n_mix;
	struct memcal_guaranteed *guar;
	size_t n_guar;
	bool have_pmu;
	struct memcal_pmu_status pmu;
	struct memcal_pmu_event *ev;
	size_t n_ev;
	struct memcal_selfcheck *sc;
	size_t n_sc;
	struct memcal_cpu_kind *kinds;
	size_t n_kinds;
	struct memcal_overhead_point *ov;
	size_t n_ov;
	struct memcal_overhead_model *om;
	size_t n_om;
};

/* run.c */
int fig_push(void **arr, size_t *n, size_t elem, const void *item);
int fig_run_load(memcal_db *db, int64_t run_id, struct fig_run *f);
void fig_run_free(struct fig_run *f);

/* summary.c: headline figures derived from the rows. */
double fig_bw_at(const struct fig_run *f, const char *kind, int n_cpus,
		 double *lo, double *hi);
int fig_max_cpus(const struct fig_run *f);
double fig_bw_peak(const struct fig_run *f, const char *kind, int *n_cpus);
const struct memcal_sustainable *fig_sustainable(const struct fig_run *f,
						 const char *traffic);

/* json.c */
json_t *fig_num(double v);
json_t *fig_run_json(const struct fig_run *f);
json_t *fig_mix_curve_json(const struct memcal_mix_curve *c);
json_t *fig_selfcheck_json(const struct memcal_selfcheck *c);
json_t *fig_guaranteed_json(const struct memcal_guaranteed *g, size_t n);
json_t *fig_cpu_kinds_json(const struct memcal_cpu_kind *k, size_t n);
json_t *fig_pmu_event_json(const struct memcal_pmu_event *e);

/* validation.c: a validation's conditions and per-job latency rows. */
#define FIG_N_CORUN 3
extern const char *const fig_corun_name[FIG_N_CORUN];
double fig_corun_ns(const struct memcal_validation_result *v,
		    bool regulated, int k);
void fig_validation_conditions_json(json_t *e,
				    const struct memcal_validation_result *v,
				    bool regulated);
const struct memcal_job_latency *
fig_job_latency_find(const struct memcal_job_latency *jl, size_t n,
		     const char *wl, const char *cond);
json_t *fig_job_latency_row_json(const struct memcal_job_latency *l);

#endif /* MEMCAL_FIGURES_H */
