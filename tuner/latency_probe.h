/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_probe.h - per-job timing of a real-time workload during
 * 'memtune validate': a latency distribution (1 us buckets), its
 * percentiles and deadline misses, filled either from the workload's own
 * job report (memcal-load with --period-us writes one "job_ns N" line per
 * job) or from cyclictest (rt-tests) run pinned beside the workload on its
 * core at the workload's period, whose histogram (-h) and summary (-q)
 * output this module parses.
 */
#ifndef MEMTUNE_LATENCY_PROBE_H
#define MEMTUNE_LATENCY_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "memcal_status.h"

/* Largest histogram kept, in 1 us buckets (200 ms). */
#define LAT_MAX_BUCKETS 200000u
/* SCHED_FIFO priority of the cyclictest thread. */
#define LAT_PROBE_PRIORITY 80

/**
 * struct lat_dist - a latency distribution in 1 us buckets.
 * @counts:      @n_buckets counters; bucket i holds samples in
 *               [i, i + 1) us (malloc'd).
 * @n_buckets:   histogram range in us.
 * @overflow:    samples at or past @n_buckets us.
 * @samples:     all samples, overflow included.
 * @max_ns:      largest sample (exact where the source gives it).
 * @deadline_ns: a sample above it is a deadline miss.
 * @misses:      samples above @deadline_ns.
 */
struct lat_dist {
	uint64_t *counts;
	size_t n_buckets;
	uint64_t overflow;
	uint64_t samples;
	uint64_t max_ns;
	uint64_t deadline_ns;
	uint64_t misses;
};

/**
 * struct lat_probe - a cyclictest run beside a workload.
 * @pid:      cyclictest's pid (0: not running).
 * @out_path: file its stdout and stderr go to.
 * @cpu:      core it is pinned to.
 * @range_us: its histogram range (-h).
 */
struct lat_probe {
	pid_t pid;
	char out_path[64];
	int cpu;
	unsigned range_us;
};

size_t tune_lat_range_us(uint64_t deadline_ns);
int tune_lat_dist_init(struct lat_dist *d, size_t n_buckets, uint64_t deadline_ns);
void tune_lat_dist_free(struct lat_dist *d);
void tune_lat_dist_add(struct lat_dist *d, uint64_t ns);
int tune_lat_dist_merge(struct lat_dist *d, const struct lat_dist *s);
uint64_t tune_lat_dist_percentile(const struct lat_dist *d, double pct);

int tune_lat_parse_cyclictest(const char *text, struct lat_dist *d, char *err,
			 size_t errlen);
int tune_lat_parse_job_report(const char *text, struct lat_dist *d, char *err,
			 size_t errlen);
int tune_lat_read_job_report(const char *path, struct lat_dist *d, char *err,
			size_t errlen);

bool tune_lat_reports_jobs(char *const *argv);
bool tune_lat_cyclictest_available(char *why, size_t len);
int tune_lat_probe_start(struct lat_probe *p, int cpu, uint64_t period_ns,
		    uint64_t deadline_ns, char *err, size_t errlen);
int tune_lat_probe_stop(struct lat_probe *p, uint64_t deadline_ns,
		   struct lat_dist *d, char *err, size_t errlen);

#endif /* MEMTUNE_LATENCY_PROBE_H */
