/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - repetition statistics and foreign-load detection.
 *
 * Repetitions on a shared VM occasionally collapse (the host takes the
 * core and a repetition delivers about half).  cal_stats_compute()
 * drops a repetition that is worse than the median of all repetitions by
 * more than MEMCAL_COLLAPSE_RATIO, then reports median/min/max of the
 * rest.  /proc/stat snapshots taken around a measurement tell how much of
 * the machine something else used meanwhile.
 */
#ifndef MEMCAL_STATS_H
#define MEMCAL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A repetition below this share of the median (or, for times, above
 * median / ratio) is a collapse and is dropped. */
#define MEMCAL_COLLAPSE_RATIO	0.6

/* Confidence of the interval around the median (order statistics). */
#define MEMCAL_CI_LEVEL		0.95
/* Repetitions stop once the interval's half-width is within this share
 * of the median (or the measurement's time budget is spent). */
#define MEMCAL_SPREAD_TARGET	0.02
/* A figure whose half-width stays above this share is stored as wide. */
#define MEMCAL_SPREAD_WIDE	0.05

/**
 * struct memcal_stats - summary of repetitions.
 * @median, @min, @max: over the kept repetitions.
 * @n:       repetitions measured.
 * @kept:    repetitions kept.
 * @dropped: repetitions dropped as collapses.
 * @ci_lo, @ci_hi: MEMCAL_CI_LEVEL confidence interval of the median
 *           (order statistics of the kept repetitions; [min, max] when
 *           too few repetitions give that confidence).
 * @spread:  half the interval's width over the median (0.02: +-2 %).
 */
struct memcal_stats {
	double median, min, max;
	unsigned n, kept, dropped;
	double ci_lo, ci_hi, spread;
};

int cal_stats_compute(const double *samples, unsigned n,
			 bool higher_is_better, struct memcal_stats *out);
double cal_median(double *v, unsigned n);
unsigned cal_median_ci_rank(unsigned n);
double cal_spread(const double *samples, unsigned n);

/**
 * struct memcal_procstat_cpu - one cpuN line of /proc/stat, in jiffies.
 * @id:    the CPU's number.
 * @busy:  user+nice+system+irq+softirq.
 * @total: all of them (including idle, iowait, steal).
 * @steal: time the hypervisor took.
 */
struct memcal_procstat_cpu {
	unsigned id;
	uint64_t busy, total, steal;
};

/**
 * struct memcal_procstat - one snapshot of /proc/stat.
 * @cpu, @n_cpus: the cpuN lines read.
 * @procs_running: runnable tasks at the time of the snapshot.
 */
struct memcal_procstat {
	struct memcal_procstat_cpu *cpu;
	size_t n_cpus;
	unsigned procs_running;
};

int cal_procstat_read(struct memcal_procstat *s);
void cal_procstat_free(struct memcal_procstat *s);
double cal_procstat_foreign(const struct memcal_procstat *before,
			       const struct memcal_procstat *after,
			       const unsigned *measured, unsigned n_measured);

#endif /* MEMCAL_STATS_H */
