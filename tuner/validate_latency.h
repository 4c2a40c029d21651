/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * validate_latency.h - the per-job latency part of 'memtune validate':
 * for each real-time workload, which probe times its jobs (its own job
 * report, or cyclictest beside it), the distributions gathered in each
 * condition (solo, co-run unregulated, co-run under static budgets,
 * co-run regulated), and their storage and display.
 */
#ifndef MEMTUNE_VALIDATE_LATENCY_H
#define MEMTUNE_VALIDATE_LATENCY_H

#include <jansson.h>
#include <stdio.h>

#include "latency_probe.h"
#include "memcal_db.h"
#include "mix.h"
#include "workload_run.h"

/*
 * The conditions a real-time workload's jobs are timed in, in the order
 * they run and are listed (the database lists them in the same order).
 */
enum vlat_cond {
	VLAT_SOLO, VLAT_UNREG, VLAT_STATIC, VLAT_REG, VLAT_N_COND
};

/**
 * enum vlat_probe - how a real-time workload's jobs are timed.
 * @VLAT_NONE:       not timed (best-effort, or no probe available).
 * @VLAT_SELF:       its own job report (memcal-load --period-us).
 * @VLAT_CYCLICTEST: cyclictest at its period, pinned beside it.
 */
enum vlat_probe { VLAT_NONE, VLAT_SELF, VLAT_CYCLICTEST };

/**
 * struct vlat - latency state of one validation.
 * @probe:  per workload, how it is timed.
 * @dist:   per workload and condition, the merged distribution.
 * @live:   per workload, the cyclictest of the run in progress.
 * @cpu:    per workload, the core it runs on.
 * @period_ns, @deadline_ns: per workload.
 * @n:      workloads.
 * @note:   what could not be timed, and why (empty when everything was).
 * @static_off: the static condition was left out (--no-static), so its
 *          missing distributions say so rather than "no regulator".
 */
struct vlat {
	enum vlat_probe probe[MIX_MAX_WORKLOADS];
	struct lat_dist dist[MIX_MAX_WORKLOADS][VLAT_N_COND];
	struct lat_probe live[MIX_MAX_WORKLOADS];
	int cpu[MIX_MAX_WORKLOADS];
	uint64_t period_ns[MIX_MAX_WORKLOADS], deadline_ns[MIX_MAX_WORKLOADS];
	int n;
	char note[512];
	bool static_off;
};

extern const char *const tune_vlat_cond_name[VLAT_N_COND];

void tune_note_add(char *note, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int tune_vlat_init(struct vlat *v, const struct mix *m, const int *cpus);
void tune_vlat_free(struct vlat *v);
bool tune_vlat_any(const struct vlat *v);
int tune_vlat_start(struct vlat *v, int i, struct runner_job *job);
void tune_vlat_collect(struct vlat *v, enum vlat_cond cond, int i,
		  const char *report_path);
int tune_vlat_store(memcal_db *db, int64_t validation_id, const struct vlat *v,
	       const struct mix *m);
void tune_vlat_print(FILE *f, const struct vlat *v, const struct mix *m);
json_t *tune_vlat_json(const struct vlat *v, const struct mix *m);

#endif /* MEMTUNE_VALIDATE_LATENCY_H */
