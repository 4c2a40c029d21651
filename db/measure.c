// SPDX-License-Identifier: GPL-2.0-only
/*
 * measure.c - the measurements of a calibration run: bandwidth, loaded
 * latency, sustainable bandwidth, PMU events, interrupt overhead.  Stores
 * must run inside a transaction; lists walk one run's rows in a stable
 * order (the order they were stored in).
 */
#include <math.h>
#include <string.h>

#include "db_internal.h"

/* memcal_db_bw_store() - store one bandwidth measurement of @run_id. */
int memcal_db_bw_store(memcal_db *db, int64_t run_id,
		       const struct memcal_bw *bw)
{
	return memcal_db_exec(db, "INSERT INTO bandwidth (run_id, kind, scope, cpus,"
		       " n_cpus, variant, buffer_bytes, read_share,"
		       " repetitions, median_bps, min_bps, max_bps, spread,"
		       " spread_wide)"
		       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", "ItttitIdiddddb",
		       run_id, bw->kind, bw->scope, bw->cpus, bw->n_cpus,
		       bw->variant, bw->buffer_bytes, bw->read_share,
		       bw->repetitions, bw->median_bps, bw->min_bps,
		       bw->max_bps, bw->spread, (int)bw->spread_wide);
}

/* decode_bw - a bandwidth row into struct memcal_bw. */
static void decode_bw(sqlite3_stmt *st, void *row)
{
	struct memcal_bw *bw = row;

	memcal_db_col_text(st, 0, bw->kind, sizeof(bw->kind));
	memcal_db_col_text(st, 1, bw->scope, sizeof(bw->scope));
	memcal_db_col_text(st, 2, bw->cpus, sizeof(bw->cpus));
	bw->n_cpus = sqlite3_column_int(st, 3);
	memcal_db_col_text(st, 4, bw->variant, sizeof(bw->variant));
	bw->buffer_bytes = sqlite3_column_int64(st, 5);
	bw->read_share = sqlite3_column_double(st, 6);
	bw->repetitions = sqlite3_column_int(st, 7);
	bw->median_bps = sqlite3_column_double(st, 8);
	bw->min_bps = sqlite3_column_double(st, 9);
	bw->max_bps = sqlite3_column_double(st, 10);
	bw->spread = sqlite3_column_type(st, 11) == SQLITE_NULL
		     ? NAN : sqlite3_column_double(st, 11);
	bw->spread_wide = sqlite3_column_int(st, 12) != 0;
}

/* emit_bw - hand a decoded row to the caller's typed callback. */
static int emit_bw(const void *row, void *fn, void *user)
{
	return ((memcal_db_bw_fn)fn)(row, user);
}

/* memcal_db_bw_list() - every bandwidth measurement of @run_id. */
int memcal_db_bw_list(memcal_db *db, int64_t run_id, memcal_db_bw_fn fn,
		      void *user)
{
	struct memcal_bw bw;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT kind, scope, cpus, n_cpus, variant,"
			  " buffer_bytes, read_share, repetitions, median_bps,"
			  " min_bps, max_bps, spread, spread_wide"
			  " FROM bandwidth WHERE run_id = ?"
			  " ORDER BY id", "I", run_id);

	return rc ? rc : memcal_db_walk(db, st, &bw, decode_bw, emit_bw, (void *)fn,
				 user);
}

/* memcal_db_latency_store() - store one loaded-latency point. */
int memcal_db_latency_store(memcal_db *db, int64_t run_id,
			    const struct memcal_latency_point *pt)
{
	return memcal_db_exec(db, "INSERT INTO latency_point (run_id, traffic,"
		       " chase_cpu, load_cpus, pace, bandwidth_bps, latency_ns,"
		       " latency_min_ns, latency_max_ns)"
		       " VALUES (?,?,?,?,?,?,?,?,?)", "Itiiddddd", run_id,
		       pt->traffic, pt->chase_cpu, pt->load_cpus, pt->pace,
		       pt->bandwidth_bps, pt->latency_ns, pt->latency_min_ns,
		       pt->latency_max_ns);
}

/* decode_latency - a latency_point row into its struct. */
static void decode_latency(sqlite3_stmt *st, void *row)
{
	struct memcal_latency_point *pt = row;

	memcal_db_col_text(st, 0, pt->traffic, sizeof(pt->traffic));
	pt->chase_cpu = sqlite3_column_int(st, 1);
	pt->load_cpus = sqlite3_column_int(st, 2);
	pt->pace = sqlite3_column_double(st, 3);
	pt->bandwidth_bps = sqlite3_column_double(st, 4);
	pt->latency_ns = sqlite3_column_double(st, 5);
	pt->latency_min_ns = sqlite3_column_double(st, 6);
	pt->latency_max_ns = sqlite3_column_double(st, 7);
}

/* emit_latency - typed callback trampoline. */
static int emit_latency(const void *row, void *fn, void *user)
{
	return ((memcal_db_latency_fn)fn)(row, user);
}

/* memcal_db_latency_list() - every loaded-latency point of @run_id. */
int memcal_db_latency_list(memcal_db *db, int64_t run_id,
			   memcal_db_latency_fn fn, void *user)
{
	struct memcal_latency_point pt;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT traffic, chase_cpu, load_cpus, pace,"
			  " bandwidth_bps, latency_ns, latency_min_ns,"
			  " latency_max_ns FROM latency_point WHERE run_id = ?"
			  " ORDER BY id", "I", run_id);

	return rc ? rc : memcal_db_walk(db, st, &pt, decode_latency, emit_latency,
				 (void *)fn, user);
}

/* memcal_db_sustainable_store() - the sustainable bandwidth of a class. */
int memcal_db_sustainable_store(memcal_db *db, int64_t run_id,
				const struct memcal_sustainable *s)
{
	return memcal_db_exec(db, "INSERT INTO sustainable_bandwidth (run_id, traffic,"
		       " bandwidth_bps, idle_latency_ns, bound_ratio, criterion,"
		       " lower_bound) VALUES (?,?,?,?,?,?,?)", "Itdddtb",
		       run_id, s->traffic, s->bandwidth_bps,
		       s->idle_latency_ns, s->bound_ratio, s->criterion,
		       (int)s->lower_bound);
}

/* decode_sustainable - a sustainable_bandwidth row into its struct. */
static void decode_sustainable(sqlite3_stmt *st, void *row)
{
	struct memcal_sustainable *s = row;

	memcal_db_col_text(st, 0, s->traffic, sizeof(s->traffic));
	s->bandwidth_bps = sqlite3_column_double(st, 1);
	s->idle_latency_ns = sqlite3_column_double(st, 2);
	s->bound_ratio = sqlite3_column_double(st, 3);
	memcal_db_col_text(st, 4, s->criterion, sizeof(s->criterion));
	s->lower_bound = sqlite3_column_int(st, 5);
}

/* emit_sustainable - typed callback trampoline. */
static int emit_sustainable(const void *row, void *fn, void *user)
{
	return ((memcal_db_sustainable_fn)fn)(row, user);
}

/* memcal_db_sustainable_list() - read then write class of @run_id. */
int memcal_db_sustainable_list(memcal_db *db, int64_t run_id,
			       memcal_db_sustainable_fn fn, void *user)
{
	struct memcal_sustainable s;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT traffic, bandwidth_bps,"
			  " idle_latency_ns, bound_ratio, criterion, lower_bound"
			  " FROM sustainable_bandwidth WHERE run_id = ?"
			  " ORDER BY traffic", "I", run_id);

	return rc ? rc : memcal_db_walk(db, st, &s, decode_sustainable,
				 emit_sustainable, (void *)fn, user);
}

/* memcal_db_pmu_status_store() - whether @run_id found a usable PMU. */
int memcal_db_pmu_status_store(memcal_db *db, int64_t run_id,
			       const struct memcal_pmu_status *s)
{
	return memcal_db_exec(db, "INSERT INTO pmu_status (run_id, available,"
		       " pmu_name, message) VALUES (?,?,?,?)", "Ibtt", run_id,
		       (int)s->available, s->pmu_name, s->message);
}

/* decode_pmu_status - a pmu_status row into its struct. */
static void decode_pmu_status(sqlite3_stmt *st, void *row)
{
	struct memcal_pmu_status *s = row;

	s->available = sqlite3_column_int(st, 0);
	memcal_db_col_text(st, 1, s->pmu_name, sizeof(s->pmu_name));
	memcal_db_col_text(st, 2, s->message, sizeof(s->message));
}

/**
 * memcal_db_pmu_status_get() - the PMU verdict of @run_id.
 * Return: MEMCAL_OK, MEMCAL_ENOTFOUND when the run stored none.
 */
int memcal_db_pmu_status_get(memcal_db *db, int64_t run_id,
			     struct memcal_pmu_status *s)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT available, pmu_name, message FROM"
			  " pmu_status WHERE run_id = ?", "I", run_id);

	return rc ? rc : memcal_db_fetch_one(db, st, s, decode_pmu_status,
				      "run %lld has no PMU status",
				      (long long)run_id);
}

/* memcal_db_pmu_event_store() - one candidate event and its validation. */
int memcal_db_pmu_event_store(memcal_db *db, int64_t run_id,
			      const struct memcal_pmu_event *e)
{
	return memcal_db_exec(db, "INSERT INTO pmu_event (run_id, name, pmu, traffic,"
		       " perf_type, perf_config, perf_config1, opened,"
		       " bytes_per_event, error_pct, chosen, message, perf_pmu)"
		       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", "ItttiIIbddbtt",
		       run_id, e->name, e->pmu, e->traffic, (int)e->perf_type,
		       (int64_t)e->perf_config, (int64_t)e->perf_config1,
		       (int)e->opened, e->bytes_per_event, e->error_pct,
		       (int)e->chosen, e->message, e->perf_pmu);
}

/* decode_pmu_event - a pmu_event row into its struct. */
static void decode_pmu_event(sqlite3_stmt *st, void *row)
{
	struct memcal_pmu_event *e = row;

	memcal_db_col_text(st, 0, e->name, sizeof(e->name));
	memcal_db_col_text(st, 1, e->pmu, sizeof(e->pmu));
	memcal_db_col_text(st, 2, e->traffic, sizeof(e->traffic));
	e->perf_type = (uint32_t)sqlite3_column_int(st, 3);
	e->perf_config = (uint64_t)sqlite3_column_int64(st, 4);
	e->perf_config1 = (uint64_t)sqlite3_column_int64(st, 5);
	e->opened = sqlite3_column_int(st, 6);
	e->bytes_per_event = sqlite3_column_double(st, 7);
	e->error_pct = sqlite3_column_double(st, 8);
	e->chosen = sqlite3_column_int(st, 9);
	memcal_db_col_text(st, 10, e->message, sizeof(e->message));
	memcal_db_col_text(st, 11, e->perf_pmu, sizeof(e->perf_pmu));
}

/* emit_pmu_event - typed callback trampoline. */
static int emit_pmu_event(const void *row, void *fn, void *user)
{
	return ((memcal_db_pmu_event_fn)fn)(row, user);
}

/* memcal_db_pmu_event_list() - every candidate event of @run_id. */
int memcal_db_pmu_event_list(memcal_db *db, int64_t run_id,
			     memcal_db_pmu_event_fn fn, void *user)
{
	struct memcal_pmu_event e;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT name, pmu, traffic, perf_type,"
			  " perf_config, perf_config1, opened, bytes_per_event,"
			  " error_pct, chosen, message, perf_pmu FROM pmu_event"
			  " WHERE run_id = ? ORDER BY id", "I", run_id);

	return rc ? rc : memcal_db_walk(db, st, &e, decode_pmu_event, emit_pmu_event,
				 (void *)fn, user);
}

/* memcal_db_overhead_store() - one C'/C point. */
int memcal_db_overhead_store(memcal_db *db, int64_t run_id,
			     const struct memcal_overhead_point *pt)
{
	return memcal_db_exec(db, "INSERT INTO overhead_point (run_id, cpu, period_us,"
		       " benchmark, method, master_cpu, repetitions,"
		       " ratio_median, ratio_min, ratio_max, lower_bound)"
		       " VALUES (?,?,?,?,?,?,?,?,?,?,?)", "Iiittiidddb", run_id,
		       pt->cpu, pt->period_us, pt->benchmark, pt->method,
		       pt->master_cpu, pt->repetitions, pt->ratio_median,
		       pt->ratio_min, pt->ratio_max, (int)pt->lower_bound);
}

/* decode_overhead - an overhead_point row into its struct. */
static void decode_overhead(sqlite3_stmt *st, void *row)
{
	struct memcal_overhead_point *pt = row;

	pt->cpu = sqlite3_column_int(st, 0);
	pt->period_us = sqlite3_column_int(st, 1);
	memcal_db_col_text(st, 2, pt->benchmark, sizeof(pt->benchmark));
	memcal_db_col_text(st, 3, pt->method, sizeof(pt->method));
	pt->master_cpu = sqlite3_column_int(st, 4);
	pt->repetitions = sqlite3_column_int(st, 5);
	pt->ratio_median = sqlite3_column_double(st, 6);
	pt->ratio_min = sqlite3_column_double(st, 7);
	pt->ratio_max = sqlite3_column_double(st, 8);
	pt->lower_bound = sqlite3_column_int(st, 9);
}

/* emit_overhead - typed callback trampoline. */
static int emit_overhead(const void *row, void *fn, void *user)
{
	return ((memcal_db_overhead_fn)fn)(row, user);
}

/* memcal_db_overhead_list() - points of @run_id by cpu, period. */
int memcal_db_overhead_list(memcal_db *db, int64_t run_id,
			    memcal_db_overhead_fn fn, void *user)
{
	struct memcal_overhead_point pt;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT cpu, period_us, benchmark, method,"
			  " master_cpu, repetitions, ratio_median, ratio_min,"
			  " ratio_max, lower_bound FROM overhead_point"
			  " WHERE run_id = ?"
			  " ORDER BY id", "I", run_id);

	return rc ? rc : memcal_db_walk(db, st, &pt, decode_overhead, emit_overhead,
				 (void *)fn, user);
}

/* memcal_db_overhead_model_store() - a fitted per-core model. */
int memcal_db_overhead_model_store(memcal_db *db, int64_t run_id,
				   const struct memcal_overhead_model *m)
{
	return memcal_db_exec(db, "INSERT INTO overhead_model (run_id, cpu, benchmark,"
		       " method, cost_per_irq_ns, base_ratio, r2)"
		       " VALUES (?,?,?,?,?,?,?)", "Iittddd", run_id, m->cpu,
		       m->benchmark, m->method, m->cost_per_irq_ns,
		       m->base_ratio, m->r2);
}

/* decode_overhead_model - an overhead_model row into its struct. */
static void decode_overhead_model(sqlite3_stmt *st, void *row)
{
	struct memcal_overhead_model *m = row;

	m->cpu = sqlite3_column_int(st, 0);
	memcal_db_col_text(st, 1, m->benchmark, sizeof(m->benchmark));
	memcal_db_col_text(st, 2, m->method, sizeof(m->method));
	m->cost_per_irq_ns = sqlite3_column_double(st, 3);
	m->base_ratio = sqlite3_column_double(st, 4);
	m->r2 = sqlite3_column_double(st, 5);
}

/* emit_overhead_model - typed callback trampoline. */
static int emit_overhead_model(const void *row, void *fn, void *user)
{
	return ((memcal_db_overhead_model_fn)fn)(row, user);
}

/* memcal_db_overhead_model_list() - models of @run_id by cpu. */
int memcal_db_overhead_model_list(memcal_db *db, int64_t run_id,
				  memcal_db_overhead_model_fn fn, void *user)
{
	struct memcal_overhead_model m;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT cpu, benchmark, method,"
			  " cost_per_irq_ns, base_ratio, r2 FROM overhead_model"
			  " WHERE run_id = ? ORDER BY cpu, benchmark, method",
			  "I", run_id);

	return rc ? rc : memcal_db_walk(db, st, &m, decode_overhead_model,
				 emit_overhead_model, (void *)fn, user);
}
