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
static const struct memcal_db_cols bw_cols =
	MEMCAL_DB_COLS(struct memcal_bw, bw_col);

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
static const struct memcal_db_cols latency_cols =
	MEMCAL_DB_COLS(struct memcal_latency_point, latency_col);

static const struct memcal_db_col sustainable_col[] = {
	MEMCAL_DB_COL(struct memcal_sustainable, traffic, 't'),
	MEMCAL_DB_COL(struct memcal_sustainable, bandwidth_bps, 'd'),
	MEMCAL_DB_COL(struct memcal_sustainable, idle_latency_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_sustainable, bound_ratio, 'd'),
	MEMCAL_DB_COL(struct memcal_sustainable, criterion, 't'),
	MEMCAL_DB_COL(struct memcal_sustainable, lower_bound, 'b'),
};
static const struct memcal_db_cols sustainable_cols =
	MEMCAL_DB_COLS(struct memcal_sustainable, sustainable_col);

static const struct memcal_db_col pmu_status_col[] = {
	MEMCAL_DB_COL(struct memcal_pmu_status, available, 'b'),
	MEMCAL_DB_COL(struct memcal_pmu_status, pmu_name, 't'),
	MEMCAL_DB_COL(struct memcal_pmu_status, message, 't'),
};
static const struct memcal_db_cols pmu_status_cols =
	MEMCAL_DB_COLS(struct memcal_pmu_status, pmu_status_col);

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
static const struct memcal_db_cols pmu_event_cols =
	MEMCAL_DB_COLS(struct memcal_pmu_event, pmu_event_col);

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
static const struct memcal_db_cols overhead_cols =
	MEMCAL_DB_COLS(struct memcal_overhead_point, overhead_col);

static const struct memcal_db_col model_col[] = {
	MEMCAL_DB_COL(struct memcal_overhead_model, cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_overhead_model, benchmark, 't'),
	MEMCAL_DB_COL(struct memcal_overhead_model, method, 't'),
	MEMCAL_DB_COL(struct memcal_overhead_model, cost_per_irq_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_overhead_model, base_ratio, 'd'),
	MEMCAL_DB_COL(struct memcal_overhead_model, r2, 'd'),
};
static const struct memcal_db_cols model_cols =
	MEMCAL_DB_COLS(struct memcal_overhead_model, model_col);

/* store - one row of @t into @table for run @run_id. */
static int store(memcal_db *db, const char *table,
		 const struct memcal_db_cols *t, int64_t run_id,
		 const void *row)
{
	return memcal_db_insert_row(db, NULL, table, t, row, NULL, "run_id",
				    "I", run_id);
}

/* memcal_db_bw_store() - store one bandwidth measurement of @run_id. */
int memcal_db_bw_store(memcal_db *db, int64_t run_id,
		       const struct memcal_bw *bw)
{
	return store(db, "bandwidth", &bw_cols, run_id, bw);
}

MEMCAL_DB_EMIT(emit_bw, memcal_db_bw_fn)

/* memcal_db_bw_list() - every bandwidth measurement of @run_id. */
int memcal_db_bw_list(memcal_db *db, int64_t run_id, memcal_db_bw_fn fn,
		      void *user)
{
	struct memcal_bw bw;

	return memcal_db_list(db, &bw_cols, "FROM bandwidth WHERE run_id = ?"
			      " ORDER BY id", run_id, &bw, emit_bw, (void *)fn,
			      user);
}

/* memcal_db_latency_store() - store one loaded-latency point. */
int memcal_db_latency_store(memcal_db *db, int64_t run_id,
			    const struct memcal_latency_point *pt)
{
	return store(db, "latency_point", &latency_cols, run_id, pt);
}

MEMCAL_DB_EMIT(emit_latency, memcal_db_latency_fn)

/* memcal_db_latency_list() - every loaded-latency point of @run_id. */
int memcal_db_latency_list(memcal_db *db, int64_t run_id,
			   memcal_db_latency_fn fn, void *user)
{
	struct memcal_latency_point pt;

	return memcal_db_list(db, &latency_cols, "FROM latency_point WHERE"
			      " run_id = ? ORDER BY id", run_id, &pt,
			      emit_latency, (void *)fn, user);
}

/* memcal_db_sustainable_store() - the sustainable bandwidth of a class. */
int memcal_db_sustainable_store(memcal_db *db, int64_t run_id,
				const struct memcal_sustainable *s)
{
	return store(db, "sustainable_bandwidth", &sustainable_cols, run_id, s);
}

MEMCAL_DB_EMIT(emit_sustainable, memcal_db_sustainable_fn)

/* memcal_db_sustainable_list() - read then write class of @run_id. */
int memcal_db_sustainable_list(memcal_db *db, int64_t run_id,
			       memcal_db_sustainable_fn fn, void *user)
{
	struct memcal_sustainable s;

	return memcal_db_list(db, &sustainable_cols, "FROM sustainable_bandwidth"
			      " WHERE run_id = ? ORDER BY traffic", run_id, &s,
			      emit_sustainable, (void *)fn, user);
}

/* memcal_db_pmu_status_store() - whether @run_id found a usable PMU. */
int memcal_db_pmu_status_store(memcal_db *db, int64_t run_id,
			       const struct memcal_pmu_status *s)
{
	return store(db, "pmu_status", &pmu_status_cols, run_id, s);
}

/**
 * memcal_db_pmu_status_get() - the PMU verdict of @run_id.
 * Return: MEMCAL_OK, MEMCAL_ENOTFOUND when the run stored none.
 */
int memcal_db_pmu_status_get(memcal_db *db, int64_t run_id,
			     struct memcal_pmu_status *s)
{
	return memcal_db_get(db, &pmu_status_cols, "FROM pmu_status WHERE"
			     " run_id = ?", run_id, s, "run %lld has no PMU"
			     " status", (long long)run_id);
}

/* memcal_db_pmu_event_store() - one candidate event and its validation. */
int memcal_db_pmu_event_store(memcal_db *db, int64_t run_id,
			      const struct memcal_pmu_event *e)
{
	return store(db, "pmu_event", &pmu_event_cols, run_id, e);
}

MEMCAL_DB_EMIT(emit_pmu_event, memcal_db_pmu_event_fn)

/* memcal_db_pmu_event_list() - every candidate event of @run_id. */
int memcal_db_pmu_event_list(memcal_db *db, int64_t run_id,
			     memcal_db_pmu_event_fn fn, void *user)
{
	struct memcal_pmu_event e;

	return memcal_db_list(db, &pmu_event_cols, "FROM pmu_event WHERE"
			      " run_id = ? ORDER BY id", run_id, &e,
			      emit_pmu_event, (void *)fn, user);
}

/* memcal_db_overhead_store() - one C'/C point. */
int memcal_db_overhead_store(memcal_db *db, int64_t run_id,
			     const struct memcal_overhead_point *pt)
{
	return store(db, "overhead_point", &overhead_cols, run_id, pt);
}

MEMCAL_DB_EMIT(emit_overhead, memcal_db_overhead_fn)

/* memcal_db_overhead_list() - points of @run_id in the order stored. */
int memcal_db_overhead_list(memcal_db *db, int64_t run_id,
			    memcal_db_overhead_fn fn, void *user)
{
	struct memcal_overhead_point pt;

	return memcal_db_list(db, &overhead_cols, "FROM overhead_point WHERE"
			      " run_id = ? ORDER BY id", run_id, &pt,
			      emit_overhead, (void *)fn, user);
}

/* memcal_db_overhead_model_store() - a fitted per-core model. */
int memcal_db_overhead_model_store(memcal_db *db, int64_t run_id,
				   const struct memcal_overhead_model *m)
{
	return store(db, "overhead_model", &model_cols, run_id, m);
}

MEMCAL_DB_EMIT(emit_overhead_model, memcal_db_overhead_model_fn)

/* memcal_db_overhead_model_list() - models of @run_id by cpu. */
int memcal_db_overhead_model_list(memcal_db *db, int64_t run_id,
				  memcal_db_overhead_model_fn fn, void *user)
{
	struct memcal_overhead_model m;

	return memcal_db_list(db, &model_cols, "FROM overhead_model WHERE"
			      " run_id = ? ORDER BY cpu, benchmark, method",
			      run_id, &m, emit_overhead_model, (void *)fn,
			      user);
}
