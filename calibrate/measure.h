/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * measure.h - bandwidth measurements on a set of pinned cores.
 *
 * A bench owns one pinned worker per CPU and one buffer per worker on that
 * worker's NUMA node.  cal_measure_bw() runs a kernel on a chosen set
 * of the workers together (barrier start), discards warm-up repetitions,
 * repeats, drops collapsed repetitions (stats.h) and reports the aggregate
 * bandwidth: the sum of the bytes every worker moved divided by the time
 * from the first worker's start to the last worker's end.
 *
 * A repetition lasts at least @min_rep_ns: the warm-ups time one pass and
 * set the passes per repetition, since a short repetition is dominated by
 * the wake-up of the workers and whatever the host did in that instant.
 * After @reps repetitions it goes on until the median's confidence
 * interval is within MEMCAL_SPREAD_TARGET, @max_reps are kept or
 * @budget_ns is spent; the spread stays in the result either way.
 */
#ifndef MEMCAL_MEASURE_H
#define MEMCAL_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buffers.h"
#include "kernels.h"
#include "stats.h"
#include "threads.h"
#include "memcal_platform.h"

/* A repetition measured while others used more than this share of the
 * machine (cal_procstat_foreign) is reported as disturbed. */
#define MEMCAL_FOREIGN_WARN	0.10

/**
 * struct memcal_bench - workers and buffers for measurements.
 * @topo:   topology the CPUs come from.
 * @team:   pinned workers, one per entry of @cpus.
 * @n:      number of workers.
 * @cpus:   OS CPU of each worker.
 * @bufs:   one buffer per worker, on the worker's node.
 * @bytes:  usable bytes of each buffer (a whole number of granules).
 * @sink:   reductions of read kernels end up here (never optimised away).
 */
struct memcal_bench {
	const struct memcal_topology *topo;
	struct memcal_team *team;
	unsigned n;
	unsigned *cpus;
	struct memcal_buffer *bufs;
	size_t bytes;
	volatile uint64_t sink;
};

/**
 * struct memcal_bw_spec - what to measure.
 * @op:      kernel every selected worker runs (unless @ops is set).
 * @ops:     per-worker kernel (indexed by worker), for mixed traffic; or NULL.
 * @kernel:  when set, every selected worker runs it (a mixed kernel) and
 *           @op and @ops are ignored.
 * @use:     per-worker flag: take part; NULL means workers 0..@n_use-1.
 * @n_use:   with @use NULL, how many leading workers take part.
 * @reps:    repetitions kept for statistics (>= 1).
 * @warmup:  repetitions run first and discarded.
 * @passes:  kernel calls per repetition over the whole buffer (>= 1);
 *           with @min_rep_ns the least number.
 * @min_rep_ns: shortest repetition, ns (0: @passes as given).
 * @max_reps: most repetitions kept (0 or below @reps: exactly @reps).
 * @budget_ns: time after which no further repetition starts once @reps
 *           are kept (0: no limit but @max_reps).
 */
struct memcal_bw_spec {
	enum memcal_op op;
	const enum memcal_op *ops;
	const struct memcal_kernel *kernel;
	const bool *use;
	unsigned n_use;
	unsigned reps;
	unsigned warmup;
	unsigned passes;
	uint64_t min_rep_ns;
	unsigned max_reps;
	uint64_t budget_ns;
};

/**
 * struct memcal_bw_result - outcome of one measurement.
 * @agg:       aggregate bytes/s over the repetitions (median/min/max).
 * @variant:   kernel variant used ("avx2", ...; "mixed" variants joined).
 * @bytes:     program-visible bytes per worker per repetition.
 * @n_workers: workers that took part.
 * @foreign:   highest foreign-load share seen during the repetitions.
 * @passes:    kernel calls over the buffer per repetition.
 */
struct memcal_bw_result {
	struct memcal_stats agg;
	char variant[16];
	uint64_t bytes;
	unsigned n_workers;
	double foreign;
	unsigned passes;
};

int cal_bench_init(struct memcal_bench *b, const struct memcal_topology *t,
		      const unsigned *cpus, unsigned n, size_t bytes,
		      char *err, size_t errlen);
void cal_bench_fini(struct memcal_bench *b);
int cal_measure_bw(struct memcal_bench *b, const struct memcal_bw_spec *s,
		      struct memcal_bw_result *r, char *err, size_t errlen);

#endif /* MEMCAL_MEASURE_H */
