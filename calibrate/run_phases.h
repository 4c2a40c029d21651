/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_phases.h - the measuring part of `memcal run`: given a topology and the
 * options, run every phase (per-core and aggregate bandwidth, mixed
 * traffic, loaded latency, sustainable bandwidth, PMU events) and fill a
 * struct memcal_run_result.  It touches no database; cmd_run.c stores the
 * result afterwards in one transaction.
 */
#ifndef MEMCAL_RUN_PHASES_H
#define MEMCAL_RUN_PHASES_H

#include <stdbool.h>
#include <stdint.h>

#include "results.h"
#include "memcal_platform.h"

/* Repetitions kept (and warm-ups discarded) per measurement. */
#define MEMCAL_REPS_FULL	10
#define MEMCAL_REPS_QUICK	3
#define MEMCAL_WARMUP_FULL	2
#define MEMCAL_WARMUP_QUICK	1
/*
 * Shortest timed repetition, and how many repetitions a bandwidth figure
 * may take beyond the ones above to bring the spread of its median within
 * MEMCAL_SPREAD_TARGET (stats.h), until its kept repetitions have taken
 * the budget.  A pass over buffers of several times the LLC is usually
 * longer than the shortest repetition already, so the calibration takes
 * no longer there; small buffers get more passes.  An explicit --repeat
 * keeps exactly that many.
 */
#define MEMCAL_REP_NS_FULL	100000000ull
#define MEMCAL_REP_NS_QUICK	50000000ull
#define MEMCAL_MAX_REPS_FULL	20
#define MEMCAL_MAX_REPS_QUICK	7
#define MEMCAL_BW_BUDGET_NS_FULL	1500000000ull
#define MEMCAL_BW_BUDGET_NS_QUICK	500000000ull
/* Loaded-latency sweep: repetitions per point and chase time each. */
#define MEMCAL_LAT_REPS_FULL	5
#define MEMCAL_LAT_REPS_QUICK	3
#define MEMCAL_CHASE_NS_FULL	100000000ull
#define MEMCAL_CHASE_NS_QUICK	30000000ull
/* Pace steps of the sweep from idle (0) to full speed (1). */
#define MEMCAL_PACE_STEPS_FULL	10
#define MEMCAL_PACE_STEPS_QUICK	2
/* How long the machine is watched for foreign load before measuring. */
#define MEMCAL_IDLE_CHECK_NS	200000000L
/* Smallest --size accepted (bytes per thread). */
#define MEMCAL_MIN_SIZE		(64u << 10)

/**
 * struct memcal_run_opts - what to measure.
 * @quick:   the coarse pass.
 * @cpus:    OS CPUs to measure, ascending as given; NULL: every core.
 * @n_cpus:  entries in @cpus.
 * @size:    bytes per thread, 0 for the topology-derived default.
 * @repeat:  repetitions per measurement, 0 for the default.
 */
struct memcal_run_opts {
	bool quick;
	const unsigned *cpus;
	unsigned n_cpus;
	uint64_t size;
	unsigned repeat;
};

/* Progress callback: one step done, @what is starting next. */
typedef void (*memcal_step_fn)(void *user, const char *what);

unsigned cal_run_steps(const struct memcal_run_opts *o);
int cal_run_measure(const struct memcal_topology *t,
		       const struct memcal_run_opts *o,
		       struct memcal_run_result *r, memcal_step_fn step,
		       void *user, char *err, size_t errlen);

#endif /* MEMCAL_RUN_PHASES_H */
