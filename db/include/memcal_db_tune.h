/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_tune.h - database API for memtune: workload profiles with their
 * per-period traffic traces, tuned configurations with their provenance, and
 * validation runs.  Same rules as memcal_db.h: writes only inside
 * memcal_db_begin()/memcal_db_commit(), enum memcal_status results.
 */
#ifndef MEMCAL_DB_TUNE_H
#define MEMCAL_DB_TUNE_H

#include "memcal_db.h"

/**
 * struct memcal_profile - one workload of a mix, profiled solo.
 * @id:            row id (output of store).
 * @platform_id:   board it ran on.
 * @mix:           mix name (from the mix file).
 * @workload:      workload name within the mix.
 * @argv_json:     the command as a JSON array of strings.
 * @criticality:   "rt" or "be" (best-effort).
 * @cpu:           core it ran on.
 * @runs:          solo repetitions.
 * @exec_median_ns, @exec_min_ns, @exec_max_ns: solo execution time.
 * @trace_source:  "pmu" (measured), "declared" (from the mix file) or
 *                 "calibrated" (synthesised from memcal's kernels).
 * @trace_period_us: granularity of the trace.
 * @trace_len:     number of trace samples.
 * @trace_read, @trace_write: bytes per sample; malloc'd on load, caller's
 *                 on store.
 * @created_at:    ISO-8601 UTC.
 */
struct memcal_profile {
	int64_t id;
	int64_t platform_id;
	char mix[128];
	char workload[128];
	char *argv_json;
	char criticality[8];
	int cpu;
	int runs;
	double exec_median_ns, exec_min_ns, exec_max_ns;
	char trace_source[16];
	int trace_period_us;
	size_t trace_len;
	uint64_t *trace_read;
	uint64_t *trace_write;
	char created_at[32];
};

int memcal_db_profile_store(memcal_db *db, struct memcal_profile *p);
int memcal_db_profile_get(memcal_db *db, int64_t id, struct memcal_profile *p);
/* Newest profile of each workload of @mix on @platform_id. */
typedef int (*memcal_db_profile_fn)(const struct memcal_profile *, void *user);
int memcal_db_profile_latest(memcal_db *db, int64_t platform_id,
			     const char *mix, memcal_db_profile_fn fn,
			     void *user);
void memcal_db_profile_free(struct memcal_profile *p);

/**
 * struct memcal_config - a tuned configuration and its provenance.
 * @id:            row id (output of store).
 * @platform_id:   board it was tuned for.
 * @calibration_run_id: the calibration it used.
 * @mix:           mix name.
 * @document:      the versioned JSON tuned configuration (docs/design.md).
 * @period_us, @master_cpu: headline choices, duplicated for listing.
 * @created_at:    ISO-8601 UTC.
 * @profile_ids, @n_profiles: workload profiles it came from.
 */
struct memcal_config {
	int64_t id;
	int64_t platform_id;
	int64_t calibration_run_id;
	char mix[128];
	char *document;
	int period_us;
	int master_cpu;
	char created_at[32];
	int64_t *profile_ids;
	size_t n_profiles;
};

int memcal_db_config_store(memcal_db *db, struct memcal_config *c);
int memcal_db_config_get(memcal_db *db, int64_t id, struct memcal_config *c);
int memcal_db_config_latest(memcal_db *db, int64_t *id);
void memcal_db_config_free(struct memcal_config *c);

/**
 * struct memcal_validation - one `memtune validate` run.
 * @id:          row id (output of store).
 * @config_id:   configuration validated.
 * @started_at, @finished_at: ISO-8601 UTC.
 * @regulated:   true when memreg was loaded (false: unregulated only).
 * @notes:       warnings, may be empty.
 */
struct memcal_validation {
	int64_t id;
	int64_t config_id;
	char started_at[32];
	char finished_at[32];
	bool regulated;
	char *notes;
};

/**
 * struct memcal_validation_result - one workload's outcome.
 * @workload:       name.
 * @cpu:            core.
 * @solo_ns:        solo execution time (from its profile).
 * @unregulated_ns: co-scheduled, no regulator.
 * @regulated_ns:   co-scheduled under memreg (0 if not run).
 * @deadline_ns:    real-time deadline (0 for best-effort).
 * @jobs:           jobs (periodic releases) observed.
 * @deadline_misses: jobs past their deadline, regulated.
 * @throttles, @throttled_ns: memreg statistics of its core.
 * @has_static:     the static condition ran (MemGuard-style static
 *                  budgets: the guarantees only, no LMS, no sharing); the
 *                  four static figures below are meaningful only then
 *                  (NULL in the database otherwise).
 * @static_ns:      co-scheduled under the static budgets.
 * @static_deadline_misses: jobs past their deadline, static.
 * @static_throttles, @static_throttled_ns: memreg statistics, static.
 */
struct memcal_validation_result {
	char workload[128];
	int cpu;
	double solo_ns;
	double unregulated_ns;
	double regulated_ns;
	double deadline_ns;
	int64_t jobs;
	int64_t deadline_misses;
	int64_t throttles;
	int64_t throttled_ns;
	bool has_static;
	double static_ns;
	int64_t static_deadline_misses;
	int64_t static_throttles;
	int64_t static_throttled_ns;
};

int memcal_db_validation_store(memcal_db *db, struct memcal_validation *v);
int memcal_db_validation_latest(memcal_db *db, int64_t config_id,
				struct memcal_validation *v);
/*
 * memcal_db_validation_result_store(), memcal_db_validation_result_fn,
 * memcal_db_validation_result_list()
 */
MEMCAL_DB_ROW_API(validation_result, struct memcal_validation_result,
		  validation_id);
void memcal_db_validation_free(struct memcal_validation *v);

#endif /* MEMCAL_DB_TUNE_H */
