/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knee.h - sustainable bandwidth from a loaded-latency curve.
 *
 * Criterion (stored with every figure): the sustainable bandwidth is the
 * highest aggregate bandwidth at which the loaded latency stays within
 * @bound_ratio times the idle latency.  The caller passes, per point, the
 * best (lowest) latency of its repetitions: foreign load on a shared
 * machine only ever adds time, so the minimum is the robust estimate.  Idle latency is the latency of the
 * lowest-bandwidth point.  Walking the points in order of bandwidth, the
 * curve "leaves the bound" at the first point above it that is followed
 * by another point above it (or is the last point): a single noisy spike
 * that falls back inside the bound does not end the curve.  The figure is
 * interpolated linearly between the last point inside and the first point
 * outside, at the bandwidth where latency crosses the bound.
 *
 * The default bound 1.5 sits where measured DRAM curves turn: below the
 * knee, queueing adds tens of per cent; past it latency grows several-fold
 * within a few per cent of bandwidth, so the figure is insensitive to the
 * exact ratio between about 1.3 and 2.
 *
 * A curve that never leaves the bound (the load generators could not load
 * the memory) yields the highest bandwidth measured, flagged lower_bound.
 */
#ifndef MEMCAL_KNEE_H
#define MEMCAL_KNEE_H

#include <stdbool.h>
#include <stddef.h>

/* Default allowed latency / idle latency. */
#define MEMCAL_KNEE_BOUND_RATIO	1.5

/**
 * struct memcal_curve_point - one (bandwidth, latency) sample.
 * @bw:  aggregate bytes/s.
 * @lat: latency, ns.
 */
struct memcal_curve_point {
	double bw;
	double lat;
};

/**
 * struct memcal_knee - the outcome.
 * @bandwidth:   sustainable bytes/s.
 * @idle_lat:    latency at the lowest-bandwidth point, ns.
 * @bound_ratio: the criterion's parameter.
 * @lower_bound: the curve never left the bound: @bandwidth is only a
 *               lower bound.
 * @knee_index:  index (in bandwidth order) of the first point outside the
 *               bound, or -1.
 * @criterion:   the criterion in words, for storing.
 */
struct memcal_knee {
	double bandwidth;
	double idle_lat;
	double bound_ratio;
	bool lower_bound;
	int knee_index;
	char criterion[256];
};

int cal_knee_find(const struct memcal_curve_point *pts, size_t n,
		     double bound_ratio, struct memcal_knee *out);

#endif /* MEMCAL_KNEE_H */
