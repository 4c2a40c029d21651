/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency.h - loaded latency: pointer-chasing latency on one core while
 * the other cores generate paced memory traffic.
 *
 * The chase walks a random cyclic permutation of the cache lines of a
 * buffer far larger than the last-level cache (Sattolo's algorithm: one
 * cycle through every line), so each load depends on the previous one and
 * misses every cache; latency = time per load, the median over chunks of
 * MEMCAL_CHASE_CHUNK loads (robust against preemption).  Worker 0 of the
 * bench chases; workers 1..n-1 generate read, write or mixed traffic paced to a
 * share of their full speed by busy-waiting between chunks.  A sweep from
 * pace 0 (idle) to 1 (full speed) gives latency against the generators'
 * measured aggregate bandwidth.
 */
#ifndef MEMCAL_LATENCY_H
#define MEMCAL_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "measure.h"

/* Loads per timed chunk of the chase (latency = median over chunks). */
#define MEMCAL_CHASE_CHUNK	1024u
/* Bytes a generator moves between two pacing decisions. */
#define MEMCAL_PACE_CHUNK	(1u << 20)

/**
 * struct memcal_lat_point - one point of the sweep.
 * @pace:      offered load as a share of the generators' full speed.
 * @bw:        measured aggregate bytes/s of the generators (median rep).
 * @lat:       chase latency statistics, ns per load.
 */
struct memcal_lat_point {
	double pace;
	double bw;
	struct memcal_stats lat;
};

/**
 * struct memcal_lat_spec - a sweep.
 * @traffic:   MEMCAL_OP_READ or MEMCAL_OP_WRITE for the generators.
 * @kernel:    when set, the generators run it instead (a mixed kernel:
 *             cal_mix_kernel_best()), and @traffic is ignored.
 * @paces:     offered loads, ascending, from 0 to 1.
 * @n_paces:   entries in @paces.
 * @n_load:    generators (workers 1..n_load); 0 gives idle latency only.
 * @reps:      repetitions per point.
 * @chase_ns:  how long each repetition chases.
 */
struct memcal_lat_spec {
	enum memcal_op traffic;
	const struct memcal_kernel *kernel;
	const double *paces;
	unsigned n_paces;
	unsigned n_load;
	unsigned reps;
	uint64_t chase_ns;
};

int cal_chase_build(void *buf, size_t bytes, unsigned line, uint64_t seed);
double cal_chase_run(const void *buf, uint64_t min_ns, uint64_t *loads);
int cal_latency_sweep(struct memcal_bench *b,
			 const struct memcal_lat_spec *s,
			 struct memcal_lat_point *out, char *err,
			 size_t errlen);

#endif /* MEMCAL_LATENCY_H */
