/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * overhead.h - per-core, per-period regulation interrupt overhead: the
 * measurement behind `memcal overhead` (and the overhead part of the full
 * `memcal run`).
 *
 * For every measured core c, every candidate period P and every
 * benchmark (compute, memory), C is the benchmark's time on c with no
 * regulator and C' its time with the regulator's periodic interrupt at P;
 * the stored figure is C'/C (median, min, max over repetitions, C and C'
 * interleaved in every repetition so drift cancels).  The master-core
 * effect is the same with the master on c and on another core.
 *
 * Two methods:
 *  - "memreg": memreg.ko loaded in monitor-only mode at P with the
 *    master core set (timers and counting, no throttling): the regulator's
 *    own cost, the definition used in the literature.
 *  - "proxy":  where memreg cannot be loaded, a SCHED_FIFO user-space
 *    thread per core (the benchmark's core and the master core) woken by
 *    an absolute clock_nanosleep every P, running the regulator core's
 *    per-period code (memreg_replenish, and memreg_master_tick on the
 *    master).  A user-space wake-up costs far more than an hrtimer
 *    interrupt, so this is an UPPER BOUND, stored with method "proxy" and
 *    never presented as the regulator's figure.
 *
 * Short periods can livelock a core (in a VM a user-space timer costs
 * 40-100 us per expiry).  Every run is bounded (OVH_MAX_RATIO x C); a run
 * that hits the bound is "ruined": its point is stored as measured (the
 * ratio extrapolated from the work done, a lower bound of the truth) with
 * a note, its remaining repetitions and all shorter periods of that core
 * and benchmark are skipped with a warning.  Periods are measured from
 * the longest down for that reason.
 *
 * Model: per core and benchmark, ratio(P) = base + cost / P fitted by
 * least squares over the measured (not ruined) periods with the master
 * elsewhere (on a one-core machine: the master points) and a ratio of at
 * most OVH_FIT_MAX_RATIO (the linear regime); cost is the time one period
 * costs the core (ns per interrupt).
 */
#ifndef MEMCAL_OVERHEAD_H
#define MEMCAL_OVERHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "cli.h"
#include "memcal_db.h"
#include "overhead_bench.h"
#include "memcal_platform.h"

/* Most periods and cores one run measures. */
#define OVH_MAX_PERIODS		32
#define OVH_MAX_CPUS		64
/* Default repetitions, benchmark duration, bound. */
#define OVH_DEFAULT_REPEAT	10
#define OVH_DEFAULT_BENCH_MS	40
#define OVH_MAX_RATIO		8.0
/* Points above this ratio are left out of the model fit (overhead_model.c). */
#define OVH_FIT_MAX_RATIO	2.0
/* Periods: regulator minimum (memreg: 10 us) and an absurdity bound. */
#define OVH_PERIOD_MIN_US	10u
#define OVH_PERIOD_MAX_US	1000000u

/* The default candidate periods in microseconds. */
extern const uint32_t cal_ovh_default_periods[];
extern const size_t cal_ovh_n_default_periods;

/**
 * struct overhead_params - what to measure.
 * @periods_us:  candidate periods (any order; measured longest first).
 * @n_periods:   entries in @periods_us.
 * @cpus:        OS numbers of the cores to measure.
 * @n_cpus:      entries in @cpus.
 * @repeat:      repetitions per point (C and C' interleaved).
 * @bench:       which benchmarks run (indexed by enum ovh_bench).
 * @bench_ms:    target duration of one baseline run C, milliseconds.
 * @master_effect: also measure with the master on the benchmark's core.
 * @force_proxy: use the proxy even when memreg could be loaded.
 * @module_path: memreg.ko to load (NULL: $MEMREG_KO or /lib/modules).
 * @mem_bytes:   memory benchmark buffer (0: 4 x the core's LLC, >= 64 MiB).
 */
struct overhead_params {
	uint32_t periods_us[OVH_MAX_PERIODS];
	size_t n_periods;
	unsigned cpus[OVH_MAX_CPUS];
	size_t n_cpus;
	unsigned repeat;
	bool bench[OVH_BENCH_COUNT];
	unsigned bench_ms;
	bool master_effect;
	bool force_proxy;
	const char *module_path;
	uint64_t mem_bytes;
};

/**
 * struct overhead_point - one measured (core, period, benchmark, master).
 * @db:        the row stored (ratio median/min/max, method, ...).
 * @ruined:    a run hit the wall-clock bound (livelock): the ratio is
 *             extrapolated and a lower bound.
 * @c_ns:      median baseline time C of the kept repetitions.
 * @cp_ns:     median C' of the kept repetitions.
 * @ticks:     timer expiries seen over all repetitions (proxy).
 * @overruns:  timer periods missed over all repetitions (proxy).
 * @dropped:   repetitions dropped because their C collapsed (host noise).
 * @foreign:   highest foreign-load share seen (calibrate/stats.h).
 */
struct overhead_point {
	struct memcal_overhead_point db;
	bool ruined;
	double c_ns, cp_ns;
	uint64_t ticks, overruns;
	unsigned dropped;
	double foreign;
};

/**
 * struct overhead_result - everything one measurement produced.
 * @method:      "memreg" or "proxy".
 * @method_why:  why this method (e.g. the reason memreg cannot load).
 * @fifo:        proxy timers ran SCHED_FIFO.
 * @timer_res_ns: clock_getres(CLOCK_MONOTONIC).
 * @units:       benchmark units per run, per benchmark (0: not run).
 * @bench_ms:    target C in milliseconds.
 * @mem_bytes:   memory benchmark buffer bytes.
 * @repeat:      repetitions asked for.
 * @pts, @n_pts: the points, in measurement order.
 * @models, @n_models: fitted models.
 * @notes:       warnings and flags as text, one per line (malloc'd).
 * @params_json: the parameters as a JSON text (malloc'd), for the run row.
 * @elapsed_s:   wall time of the measurement.
 * @started_at:  ISO-8601 UTC time the measurement started.
 * @starved_retries: proxy runs rerun because the timer on the
 *               benchmark's core barely fired (kept off the figures).
 */
struct overhead_result {
	char method[16];
	char method_why[320];
	bool fifo;
	double timer_res_ns;
	uint64_t units[OVH_BENCH_COUNT];
	unsigned bench_ms;
	uint64_t mem_bytes;
	unsigned repeat;
	struct overhead_point *pts;
	size_t n_pts;
	struct memcal_overhead_model *models;
	size_t n_models;
	char *notes;
	char *params_json;
	double elapsed_s;
	char started_at[32];
	unsigned starved_retries;
};

/* overhead.c */
void cal_overhead_params_default(struct overhead_params *p,
			     const struct memcal_topology *t);
int cal_overhead_validate_periods(const uint32_t *periods, size_t n,
			      uint64_t res_ns, char *err, size_t len);
int cal_overhead_validate(const struct overhead_params *p,
		      const struct memcal_topology *t, char *err, size_t len);
int cal_overhead_measure(struct cli_ctx *ctx, const struct memcal_topology *t,
		     const struct overhead_params *p, struct overhead_result *r,
		     char *err, size_t len);
uint64_t cal_overhead_timer_res_ns(void);
char *cal_overhead_params_json(const struct overhead_params *p);
bool cal_overhead_other_core(const struct memcal_topology *t, unsigned cpu,
			     unsigned *other);
void cal_overhead_result_free(struct overhead_result *r);
void cal_overhead_note(struct overhead_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* overhead_model.c */
int cal_overhead_fit(const double *period_ns, const double *ratio, size_t n,
		 double *cost_ns, double *base, double *r2);
int cal_overhead_fit_models(struct overhead_result *r);

/* overhead_store.c */
int cal_overhead_store(memcal_db *db, int64_t run_id,
		   const struct overhead_result *r);
json_t *cal_overhead_to_json(const struct overhead_result *r);
void cal_overhead_print_summary(FILE *f, const struct overhead_result *r);
int cal_overhead_record(memcal_db *db, const struct memcal_topology *t,
		    const struct overhead_result *r, int64_t *run_id,
		    char *err, size_t len);

#endif /* MEMCAL_OVERHEAD_H */
