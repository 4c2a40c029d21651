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
#include "memcal_db_unit.h"

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

/*
 * FIG_RUN_ROWS - every row array of struct fig_run, for code that does
 * the same to each: X(array, row type, database list function, database
 * store function), in the order runs are loaded and stored.
 */
#define FIG_RUN_ROWS(X)							\
	X(bw, struct memcal_bw, memcal_db_bw_list, memcal_db_bw_store)	\
	X(lat, struct memcal_latency_point, memcal_db_latency_list,	\
	  memcal_db_latency_store)					\
	X(sus, struct memcal_sustainable, memcal_db_sustainable_list,	\
	  memcal_db_sustainable_store)					\
	X(mix, struct memcal_mix_curve, memcal_db_mix_curve_list,	\
	  memcal_db_mix_curve_store)					\
	X(guar, struct memcal_guaranteed, memcal_db_guaranteed_list,	\
	  memcal_db_guaranteed_store)					\
	X(ev, struct memcal_pmu_event, memcal_db_pmu_event_list,	\
	  memcal_db_pmu_event_store)					\
	X(sc, struct memcal_selfcheck, memcal_db_selfcheck_list,	\
	  memcal_db_selfcheck_store)					\
	X(kinds, struct memcal_cpu_kind, memcal_db_cpu_kind_list,	\
	  memcal_db_cpu_kind_store)					\
	X(ov, struct memcal_overhead_point, memcal_db_overhead_list,	\
	  memcal_db_overhead_store)					\
	X(om, struct memcal_overhead_model, memcal_db_overhead_model_list, \
	  memcal_db_overhead_model_store)

/* run.c */
int fig_push(void **arr, size_t *n, size_t elem, const void *item);
int fig_run_load(memcal_db *db, int64_t run_id, struct fig_run *f);
void fig_run_free(struct fig_run *f);

/* doc_read.c: the read side of fig_run_json(), and storing a run's rows. */
int fig_run_from_json(json_t *fig, struct fig_run *f, char *err, size_t len);
int fig_run_store(memcal_db *db, int64_t run_id, const struct fig_run *f);

/*
 * document.c: the portable document of one calibration.  A reader takes
 * any minor version of its major and refuses a newer major.
 */
#define FIG_DOC_MAJOR 1
#define FIG_DOC_SCHEMA "memcal.calibration/1"
/* The significant digits the document is written with (cli_json_dumpf()). */
#define FIG_DOC_PRECISION 12

/**
 * struct fig_doc - one document read by fig_doc_parse().
 * @platform: the board type (topology_json malloc'd).
 * @unit:     the unit, with the document's content key.
 * @run:      the run row (params_json and notes malloc'd).
 * @fig:      its figures.
 */
struct fig_doc {
	struct memcal_platform platform;
	struct memcal_unit unit;
	struct memcal_run run;
	struct fig_run fig;
};

int fig_doc_key(json_t *doc, char key[65]);
int fig_doc_build(memcal_db *db, int64_t run_id, const char *exporter,
		  json_t **out);
int fig_doc_parse(json_t *doc, struct fig_doc *d, char *err, size_t len);
void fig_doc_free(struct fig_doc *d);
int fig_doc_store(memcal_db *db, struct fig_doc *d, const char *from,
		  const char *now, int64_t *run_id);

/*
 * fleet.c: the units of one board type side by side, and the outliers
 * among them: per figure, |x - median| > k * 1.4826 * MAD, the MAD at
 * least FIG_FLEET_MAD_FLOOR of the median.
 */
#define FIG_FLEET_K_DEFAULT 3.5
#define FIG_FLEET_MAD_FLOOR 0.01
#define FIG_FLEET_MIN_UNITS 3

/**
 * struct fig_fleet_figure - one figure (column) over the units.
 * @name:       "bw read core 0 median_bps" (section, row, value).
 * @n:          units that have it.
 * @median, @mad: over those units.
 * @threshold:  k * 1.4826 * the floored MAD.
 * @judged:     at least FIG_FLEET_MIN_UNITS units have it.
 * @n_outliers: units flagged on it.
 */
struct fig_fleet_figure {
	char name[96];
	size_t n;
	double median, mad, threshold;
	bool judged;
	size_t n_outliers;
};

/**
 * struct fig_fleet_unit - one unit (row).
 * @run_id:     its newest full or quick run.
 * @started_at: when that run started.
 * @unit:       its identity (a run without one: the board's hostname).
 * @v:          its value of each figure, NaN where it has none.
 * @n_outliers: figures it is flagged on.
 */
struct fig_fleet_unit {
	int64_t run_id;
	char started_at[32];
	struct memcal_unit unit;
	double *v;
	size_t n_outliers;
};

/**
 * struct fig_fleet - the units of one board type.
 * @platform_id, @platform: the board type.
 * @units, @n_units: the units, by hostname.
 * @figs, @n_figs:   the figures, in the order first seen.
 * @k:               the rule's k (fig_fleet_judge()).
 */
struct fig_fleet {
	int64_t platform_id;
	struct memcal_platform platform;
	struct fig_fleet_unit *units;
	size_t n_units;
	struct fig_fleet_figure *figs;
	size_t n_figs;
	double k;
};

int fig_fleet_load(memcal_db *db, int64_t platform_id, struct fig_fleet *fl);
int fig_fleet_judge(struct fig_fleet *fl, double k);
bool fig_fleet_outlier(const struct fig_fleet *fl, size_t u, size_t c);
json_t *fig_fleet_json(const struct fig_fleet *fl);
void fig_fleet_free(struct fig_fleet *fl);

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
