/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.h - everything one `memcal run` measured, held in memory until
 * it is stored in the database in one transaction (so an interrupted run
 * leaves nothing); figures/ reads a stored run back (fig_run_load()).
 *
 * The rows are the database's own structs (db/include/memcal_db.h): what is
 * printed, emitted as JSON and stored is the same data.
 */
#ifndef MEMCAL_RESULTS_H
#define MEMCAL_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "kernels.h"
#include "memcal_db.h"
#include "memcal_db_mix.h"
#include "memcal_db_selfcheck.h"
#include "memcal_db_cpu_kind.h"
#include "memcal_db_guaranteed.h"
#include "memcal_platform.h"

/**
 * struct memcal_run_result - one calibration run.
 * @platform:   the board (fingerprint, names, topology JSON).
 * @run:        the run row (kind, version, parameters, times, notes).
 * @bw:         bandwidth rows, @n_bw of them.
 * @lat:        loaded-latency rows, @n_lat of them.
 * @sus:        sustainable bandwidth rows (read, write), @n_sus of them.
 * @mix:        the bandwidth-latency family, one curve per read share
 *              from 100 % down to 0 %, @n_mix of them.
 * @pmu:        PMU status.
 * @pmu_events: candidate events, @n_pmu_events of them.
 * @checks:     PMU self-checks with their verdicts, @n_checks of them.
 * @cap_bw, @cap_lat, @cap_pmu, @cap_checks: allocated capacities.
 * @guar:     guaranteed-bandwidth figures, one per class and method
 *            (skipped ones included), @n_guar of them.
 * @overhead: interrupt-overhead figures of a full run (owned), or NULL.
 */
struct overhead_result;

struct memcal_run_result {
	struct memcal_platform platform;
	struct memcal_run run;
	struct memcal_bw *bw;
	size_t n_bw, cap_bw;
	struct memcal_latency_point *lat;
	size_t n_lat, cap_lat;
	struct memcal_sustainable sus[2];
	size_t n_sus;
	struct memcal_mix_curve mix[MEMCAL_MIX_COUNT];
	size_t n_mix;
	struct memcal_pmu_status pmu;
	struct memcal_pmu_event *pmu_events;
	size_t n_pmu_events, cap_pmu;
	struct memcal_selfcheck *checks;
	size_t n_checks, cap_checks;
	struct memcal_cpu_kind kinds[8];	/* MEMCAL_MAX_CPU_TYPES */
	size_t n_kinds;
	struct memcal_guaranteed guar[MEMCAL_DB_GUARANTEED_MAX];
	size_t n_guar;
	struct overhead_result *overhead;	/* full runs; owned, may be NULL */
};

int cal_result_add_bw(struct memcal_run_result *r,
			 const struct memcal_bw *bw);
int cal_result_add_latency(struct memcal_run_result *r,
			      const struct memcal_latency_point *pt);
int cal_result_add_pmu_event(struct memcal_run_result *r,
				const struct memcal_pmu_event *e);
int cal_result_add_selfcheck(void *r, const struct memcal_selfcheck *c);
int cal_result_add_guaranteed(struct memcal_run_result *r,
			       const struct memcal_guaranteed *g);
int cal_result_note(struct memcal_run_result *r, const char *note);
void cal_result_free(struct memcal_run_result *r);

int cal_run_row_store(memcal_db *db, struct memcal_platform *plat,
		      struct memcal_run *run);
int cal_txn_end(memcal_db *db, int rc);
int cal_result_store(memcal_db *db, struct memcal_run_result *r,
			char *err, size_t errlen);

void cal_result_print(const struct memcal_run_result *r, FILE *out);
void cal_selfchecks_print(FILE *out, const struct memcal_selfcheck *c,
			     size_t n);
void cal_print_wrapped(FILE *out, const char *lead, const char *text,
			 int width);
json_t *cal_result_to_json(memcal_db *db, const struct memcal_run_result *r);
void cal_guaranteed_print(FILE *out, json_t *arr);
void cal_cpu_kinds_print(FILE *out, json_t *arr);
void cal_mix_print(FILE *out, json_t *arr);

#endif /* MEMCAL_RESULTS_H */
