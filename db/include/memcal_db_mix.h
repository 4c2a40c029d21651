/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_mix.h - the bandwidth-latency family of a calibration run:
 * one curve per read share (100, 75, 50, 25, 0 %), each with its loaded-
 * latency points, the knee and the sustainable figure found on it.  One
 * row per run and read share in the table mix_curve.  Same rules as
 * memcal_db.h: writes only inside memcal_db_begin()/memcal_db_commit().
 */
#ifndef MEMCAL_DB_MIX_H
#define MEMCAL_DB_MIX_H

#include "memcal_db.h"

/* Points one curve holds at most (a full run measures 11). */
#define MEMCAL_MIX_MAX_POINTS 32

/**
 * struct memcal_mix_point - one point of a curve.
 * @pace:           offered load as a share of the generators' full speed.
 * @bandwidth_bps:  measured aggregate bandwidth of the generators.
 * @latency_ns, @latency_min_ns, @latency_max_ns: chase latency per load.
 */
struct memcal_mix_point {
	double pace;
	double bandwidth_bps;
	double latency_ns, latency_min_ns, latency_max_ns;
};

/**
 * struct memcal_mix_curve - loaded latency at one read/write mix.
 * @read_pct:        share of the generators' lines read, in per cent
 *                   (the rest written).
 * @variant:         mixed-kernel variant ("avx512", "neon", "c", ...).
 * @chase_cpu:       CPU running the pointer chase.
 * @load_cpus:       CPUs generating the mixed traffic.
 * @peak_bps:        aggregate bandwidth of every measured core running
 *                   the mixed kernel unpaced.
 * @knee_bps:        bandwidth where latency crosses @bound_ratio x idle
 *                   (with @lower_bound: the highest the sweep reached).
 * @sustainable_bps: the figure the planner uses: @knee_bps, or with
 *                   @lower_bound the larger of @knee_bps and @peak_bps.
 * @idle_latency_ns: latency of the lowest-bandwidth point.
 * @bound_ratio:     the criterion's parameter.
 * @lower_bound:     the curve never left the bound (the cores cannot load
 *                   the memory): the figures are lower bounds.
 * @criterion:       the criterion in words.
 * @n_points:        entries of @points (at least 1).
 * @points:          the sweep, by ascending pace.
 */
struct memcal_mix_curve {
	int read_pct;
	char variant[16];
	int chase_cpu, load_cpus;
	double peak_bps, knee_bps, sustainable_bps;
	double idle_latency_ns, bound_ratio;
	bool lower_bound;
	char criterion[256];
	int n_points;
	struct memcal_mix_point points[MEMCAL_MIX_MAX_POINTS];
};

/*
 * memcal_db_mix_curve_store(), memcal_db_mix_curve_fn,
 * memcal_db_mix_curve_list()
 */
MEMCAL_DB_ROW_API(mix_curve, struct memcal_mix_curve, run_id);

#endif /* MEMCAL_DB_MIX_H */
