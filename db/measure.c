// SPDX-License-Identifier: GPL-2.0-only
/*
 * measure.c - the measurements of a calibration run: bandwidth, loaded
 * latency, sustainable bandwidth, PMU events, interrupt overhead.  Stores
 * must run inside a transaction; lists walk one run's rows in a stable
 * order (the order they were stored in).  Each table's columns are listed
 * once, below, for its insert, its SELECT and its decoder.
 */
#include "db_internal.h"

static const struct memcal_db_col bw_col[] = {
	MEMCAL_DB_COL(struct memcal_bw, kind, 't'),
	MEMCAL_DB_COL(struct memcal_bw, scope, 't'),
	MEMCAL_DB_COL(struct memcal_bw, cpus, 't'),
	MEMCAL_DB_COL(struct memcal_bw, n_cpus, 'i'),
	MEMCAL_DB_COL(struct memcal_bw, variant, 't'),
	MEMCAL_DB_COL(struct memcal_bw, buffer_bytes, 'I'),
	MEMCAL_DB_COL(struct memcal_bw, read_share, 'd'),
	MEMCAL_DB_COL(struct memcal_bw, repetitions, 'i'),
	MEMCAL_DB_COL(struct memcal_bw, median_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_bw, min_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_bw, max_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_bw, spread, 'n'),
	MEMCAL_DB_COL(struct memcal_bw, spread_wide, 'b'),
};
static const struct memcal_db_table bw_table =
	MEMCAL_DB_TABLE(struct memcal_bw, bw_col, "bandwidth",
			"run_id", " ORDER BY id");

static const struct memcal_db_col latency_col[] = {
	MEMCAL_DB_COL(struct memcal_latency_point, traffic, 't'),
	MEMCAL_DB_COL(struct memcal_latency_point, chase_cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_latency_point, load_cpus, 'i'),
	MEMCAL_DB_COL(struct memcal_latency_point, pace, 'd'),
	MEMCAL_DB_COL(struct memcal_latency_point, bandwidth_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_latency_point, latency_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_latency_point, latency_min_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_latency_point, latency_max_ns, 'd'),
};
static const struct memcal_db_table latency_table =
	MEMCAL_DB_TABLE(struct memcal_latency_point, latency_col,
			"latency_point", "run_id", " ORDER BY id");

static const struct memcal_db_col sustainable_col[] = {
	MEMCAL_DB_COL(struct memcal_sustainable, traffic, 't'),
	MEMCAL_DB_COL(struct memcal_sustainable, bandwidth_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_sustainable, idle_latency_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_sustainable, bound_ratio, 'd'),
	MEMCAL_DB_COL(struct memcal_sustainable, criterion, 't'),
	MEMCAL_DB_COL(struct memcal_sustainable, lower_bound, 'b'),
};
static const struct memcal_db_table sustainable_table =
	MEMCAL_DB_TABLE(struct memcal_sustainable, sustainable_col,
			"sustainable_bandwidth", "run_id", " ORDER BY traffic");

static const struct memcal_db_col pmu_status_col[] = {
	MEMCAL_DB_COL(struct memcal_pmu_status, available, 'b'),
	MEMCAL_DB_COL(struct memcal_pmu_status, pmu_name, 't'),
	MEMCAL_DB_COL(struct memcal_pmu_status, message, 't'),
};
static const struct memcal_db_table pmu_status_table =
	MEMCAL_DB_TABLE(struct memcal_pmu_status, pmu_status_col, "pmu_status",
			"run_id", "");

/* perf_type and perf_config are unsigned: stored as their signed bits. */
static const struct memcal_db_col pmu_event_col[] = {
	MEMCAL_DB_COL(struct memcal_pmu_event, name, 't'),
	MEMCAL_DB_COL(struct memcal_pmu_event, pmu, 't'),
	MEMCAL_DB_COL(struct memcal_pmu_event, traffic, 't'),
	MEMCAL_DB_COL(struct memcal_pmu_event, perf_type, 'i'),
	MEMCAL_DB_COL(struct memcal_pmu_event, perf_config, 'I'),
	MEMCAL_DB_COL(struct memcal_pmu_event, perf_config1, 'I'),
	MEMCAL_DB_COL(struct memcal_pmu_event, opened, 'b'),
	MEMCAL_DB_COL(struct memcal_pmu_event, bytes_per_event, 'd'),
	MEMCAL_DB_COL(struct memcal_pmu_event, error_pct, 'd'),
	MEMCAL_DB_COL(struct memcal_pmu_event, chosen, 'b'),
	MEMCAL_DB_COL(struct memcal_pmu_event, message, 't'),
	MEMCAL_DB_COL(struct memcal_pmu_event, perf_pmu, 't'),
};
static const struct memcal_db_table pmu_event_table =
	MEMCAL_DB_TABLE(struct memcal_pmu_event, pmu_event_col, "pmu_event",
			"run_id", " ORDER BY id");

static const struct memcal_db_col overhead_col[] = {
	MEMCAL_DB_COL(struct memcal_overhead_point, cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_overhead_point, period_us, 'i'),
	MEMCAL_DB_COL(struct memcal_overhead_point, benchmark, 't'),
	MEMCAL_DB_COL(struct memcal_overhead_point, method, 't'),
	MEMCAL_DB_COL(struct memcal_overhead_point, master_cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_overhead_point, repetitions, 'i'),
	MEMCAL_DB_COL(struct memcal_overhead_point, ratio_median, 'd'),
	MEMCAL_DB_COL(struct memcal_overhead_point, ratio_min, 'd'),
	MEMCAL_DB_COL(struct memcal_overhead_point, ratio_max, 'd'),
	MEMCAL_DB_COL(struct memcal_overhead_point, lower_bound, 'b'),
};
static const struct memcal_db_table overhead_table =
	MEMCAL_DB_TABLE(struct memcal_overhead_point, overhead_col,
			"overhead_point", "run_id", " ORDER BY id");

static const struct memcal_db_col overhead_model_col[] = {
	MEMCAL_DB_COL(struct memcal_overhead_model, cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_overhead_model, benchmark, 't'),
	MEMCAL_DB_COL(struct memcal_overhead_model, method, 't'),
	MEMCAL_DB_COL(struct memcal_overhead_model, cost_per_irq_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_overhead_model, base_ratio, 'd'),
	MEMCAL_DB_COL(struct memcal_overhead_model, r2, 'd'),
};
static const struct memcal_db_table overhead_model_table =
	MEMCAL_DB_TABLE(struct memcal_overhead_model, overhead_model_col,
			"overhead_model", "run_id",
			" ORDER BY cpu, benchmark, method");

/* memcal_db_bw_store(), memcal_db_bw_list(): bandwidth measurements */
MEMCAL_DB_DEFINE_ROWS(bw, struct memcal_bw)

/* memcal_db_latency_store(), memcal_db_latency_list(): loaded latency */
MEMCAL_DB_DEFINE_ROWS(latency, struct memcal_latency_point)

/*
 * memcal_db_sustainable_store(), memcal_db_sustainable_list(): the
 * sustainable bandwidth of each class, read then write.
 */
MEMCAL_DB_DEFINE_ROWS(sustainable, struct memcal_sustainable)

/* memcal_db_pmu_status_store() - whether a run found a usable PMU. */
MEMCAL_DB_DEFINE_STORE(pmu_status, struct memcal_pmu_status)

/**
 * memcal_db_pmu_status_get() - the PMU verdict of @run_id.
 * Return: MEMCAL_OK, MEMCAL_ENOTFOUND when the run stored none.
 */
int memcal_db_pmu_status_get(memcal_db *db, int64_t run_id,
			     struct memcal_pmu_status *s)
{
	return memcal_db_get(db, &pmu_status_table.cols, pmu_status_table.rest,
			     run_id, s, "run %lld has no PMU status",
			     (long long)run_id);
}

/*
 * memcal_db_pmu_event_store(), memcal_db_pmu_event_list(): each candidate
 * event and its validation.
 */
MEMCAL_DB_DEFINE_ROWS(pmu_event, struct memcal_pmu_event)

/* memcal_db_overhead_store(), memcal_db_overhead_list(): the C'/C points */
MEMCAL_DB_DEFINE_ROWS(overhead, struct memcal_overhead_point)

/*
 * memcal_db_overhead_model_store(), memcal_db_overhead_model_list(): the
 * fitted per-core models, by cpu, benchmark and method.
 */
MEMCAL_DB_DEFINE_ROWS(overhead_model, struct memcal_overhead_model)
