/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db.h - the typed API to memcal's SQLite database.
 *
 * This is the only place SQL lives.  The database is one file in WAL mode
 * with foreign keys on and STRICT tables; its schema version is PRAGMA
 * user_version and migrations only move forward.  A database written by a
 * newer memcal is refused (MEMCAL_ENEWER) and never modified.
 *
 * Transactions: every write goes through memcal_db_begin() (BEGIN IMMEDIATE)
 * and memcal_db_commit().  A tool measures first and then stores one whole
 * run inside a single transaction, so a process killed half-way leaves no
 * half-written run.  The store functions below do not open transactions of
 * their own; they fail with MEMCAL_EMISUSE outside one.
 *
 * Every function returns a status code of memcal_status.h (MEMCAL_OK or
 * MEMCAL_E*); memcal_db_errmsg() gives a sentence saying what went wrong
 * and what to do.
 */
#ifndef MEMCAL_DB_H
#define MEMCAL_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcal_status.h"

/* Current schema version written by this build. */
#define MEMCAL_DB_SCHEMA_VERSION 11

/* Open flags. */
#define MEMCAL_DB_OPEN_CREATE	0x1	/* create file (and parent dir) */
#define MEMCAL_DB_OPEN_READONLY	0x2	/* never write, never migrate */

typedef struct memcal_db memcal_db;

int memcal_db_default_path(char *buf, size_t len);
int memcal_db_open(const char *path, unsigned flags, memcal_db **out,
		   char *err, size_t errlen);
void memcal_db_close(memcal_db *db);
const char *memcal_db_errmsg(const memcal_db *db);
const char *memcal_db_path(const memcal_db *db);
void memcal_db_set_busy_timeout(memcal_db *db, int ms);
/* The timestamp format of every table: UTC ISO 8601, "2026-12-02T16:07:53Z". */
void memcal_db_timestamp(char buf[32]);

int memcal_db_begin(memcal_db *db);
int memcal_db_commit(memcal_db *db);
void memcal_db_rollback(memcal_db *db);

/**
 * MEMCAL_DB_ROW_API() - declare the functions of a row type whose rows
 * belong to an owner, many to one (a run's bandwidth measurements, a
 * validation's results).
 * @name:  the row type's name in the function names.
 * @stype: the row type.
 * @owner: the owner's id parameter (run_id, validation_id).
 *
 * Declares memcal_db_<name>_store(), storing one row of @owner inside a
 * transaction; memcal_db_<name>_fn, the callback type; and
 * memcal_db_<name>_list(), calling @fn once per row of @owner in a stable
 * order with a pointer valid only during the call.  A non-zero return
 * from @fn stops the walk and is returned.  Each use names what it
 * declares in a comment, so that a search for a function finds it.
 */
#define MEMCAL_DB_ROW_API(name, stype, owner)				\
int memcal_db_##name##_store(memcal_db *db, int64_t owner,		\
			     const stype *row);				\
typedef int (*memcal_db_##name##_fn)(const stype *, void *user);	\
int memcal_db_##name##_list(memcal_db *db, int64_t owner,		\
			    memcal_db_##name##_fn fn, void *user)

/* ---- platforms --------------------------------------------------------- */

/**
 * struct memcal_platform - identity of a board.
 * @id:          row id (output of store/lookup).
 * @fingerprint: stable identity: hash of model, arch and topology shape.
 * @hostname:    node name at calibration time.
 * @arch:        uname machine ("x86_64", "aarch64").
 * @cpu_model:   /proc/cpuinfo model name or MIDR description.
 * @kernel:      uname release.
 * @packages, @numa_nodes, @cores, @pus: topology counts.
 * @topology_json: full topology (caches, sharing) as a JSON document.
 */
struct memcal_platform {
	int64_t id;
	char fingerprint[65];
	char hostname[128];
	char arch[32];
	char cpu_model[128];
	char kernel[128];
	int packages, numa_nodes, cores, pus;
	char *topology_json;	/* owned by caller on store; malloc'd on load */
};

int memcal_db_platform_store(memcal_db *db, struct memcal_platform *p);
int memcal_db_platform_get(memcal_db *db, int64_t id,
			   struct memcal_platform *p);
void memcal_db_platform_free(struct memcal_platform *p);

/* ---- calibration runs -------------------------------------------------- */

/**
 * struct memcal_run - one invocation of `memcal run` or `memcal overhead`.
 * @id:           row id (output of store).
 * @platform_id:  board it measured.
 * @kind:         "full", "quick" or "overhead".
 * @tool_version: memcal version that measured it.
 * @params_json:  the parameters (cores, size, repeat, ...) as JSON.
 * @started_at, @finished_at: ISO-8601 UTC timestamps.
 * @notes:        free text (warnings such as "no PMU"), may be empty.
 */
struct memcal_run {
	int64_t id;
	int64_t platform_id;
	char kind[16];
	char tool_version[32];
	char *params_json;
	char started_at[32];
	char finished_at[32];
	char *notes;
};

int memcal_db_run_store(memcal_db *db, struct memcal_run *run);
int memcal_db_run_get(memcal_db *db, int64_t id, struct memcal_run *run);
int memcal_db_run_latest(memcal_db *db, const char *kind, int64_t *id);
void memcal_db_run_free(struct memcal_run *run);

/* ---- measurements of a run --------------------------------------------- */

/**
 * struct memcal_bw - one bandwidth measurement.
 * @kind:     "read", "write", "ntwrite", "copy" or "mixed".
 * @scope:    "core" (one core alone) or "aggregate" (n cores together).
 * @cpus:     CPU list as text ("0-3").
 * @n_cpus:   number of CPUs that ran concurrently.
 * @variant:  kernel variant ("avx512", "avx2", "sse2", "neon", "c").
 * @buffer_bytes: bytes per thread.
 * @read_share: for "mixed", fraction of threads reading (else 0).
 * @repetitions: repetitions kept.
 * @median_bps, @min_bps, @max_bps: bytes per second the kernel moved as
 *            program-visible bytes (stores count once, not RFO traffic).
 * @spread:   half the width of the median's 95 % confidence interval over
 *            the median (0.02: +-2 %); NAN when not measured (older runs).
 * @spread_wide: the spread stayed above the calibration's limit: the
 *            figure is stored with a warning.
 */
struct memcal_bw {
	char kind[16];
	char scope[16];
	char cpus[64];
	int n_cpus;
	char variant[16];
	int64_t buffer_bytes;
	double read_share;
	int repetitions;
	double median_bps, min_bps, max_bps;
	double spread;
	bool spread_wide;
};

/**
 * struct memcal_latency_point - one loaded-latency sample.
 * @traffic:      "read" or "write": what the load generators do.
 * @chase_cpu:    CPU running the pointer chase.
 * @load_cpus:    number of CPUs generating traffic.
 * @pace:         offered load as a fraction of the generators' maximum.
 * @bandwidth_bps: measured aggregate bandwidth of the generators.
 * @latency_ns, @latency_min_ns, @latency_max_ns: chase latency per load.
 */
struct memcal_latency_point {
	char traffic[16];
	int chase_cpu;
	int load_cpus;
	double pace;
	double bandwidth_bps;
	double latency_ns, latency_min_ns, latency_max_ns;
};

/**
 * struct memcal_sustainable - sustainable bandwidth for one traffic class.
 * @traffic:      "read" or "write".
 * @bandwidth_bps: highest bandwidth within the latency bound.
 * @idle_latency_ns: latency with no load.
 * @bound_ratio:  allowed latency / idle latency (the criterion parameter).
 * @criterion:    prose naming the criterion used.
 * @lower_bound:  true when the machine could not load its memory and the
 *                figure is only a lower bound.
 */
struct memcal_sustainable {
	char traffic[16];
	double bandwidth_bps;
	double idle_latency_ns;
	double bound_ratio;
	char criterion[256];
	bool lower_bound;
};

/**
 * struct memcal_pmu_status - whether a usable PMU was found.
 * @available: a hardware PMU that counts memory traffic exists.
 * @pmu_name:  libpfm4 PMU name ("armv8_cortex_a53", "skx", ...), or "".
 * @message:   what was found or why nothing was.
 */
struct memcal_pmu_status {
	bool available;
	char pmu_name[64];
	char message[256];
};

/**
 * struct memcal_pmu_event - a candidate memory-traffic event.
 * @name:       libpfm4 event string.
 * @pmu:        libpfm4 PMU name.
 * @traffic:    "read" or "write".
 * @perf_type, @perf_config, @perf_config1: perf_event_attr encoding.
 * @perf_pmu:   sysfs name of the PMU of @perf_type
 *              (bus/event_source/devices/NAME), "" if none has that type.
 * @opened:     perf_event_open succeeded.
 * @bytes_per_event: validated bytes per count (0 when not validated).
 * @error_pct:  validation error in percent.
 * @chosen:     the event picked for this traffic class.
 * @message:    why it was rejected, or "".
 */
struct memcal_pmu_event {
	char name[128];
	char pmu[64];
	char traffic[16];
	uint32_t perf_type;
	uint64_t perf_config;
	uint64_t perf_config1;
	char perf_pmu[64];
	bool opened;
	double bytes_per_event;
	double error_pct;
	bool chosen;
	char message[256];
};

/**
 * struct memcal_overhead_point - slowdown C'/C at one core and period.
 * @cpu:        core the benchmark ran on.
 * @period_us:  regulation period.
 * @benchmark:  "compute" or "memory".
 * @method:     "memreg" (module in monitor-only mode) or "proxy" (user-space
 *              periodic timer: an upper bound, never the regulator's figure).
 * @master_cpu: master core during the measurement (-1 if none).
 * @repetitions: repetitions kept.
 * @ratio_median, @ratio_min, @ratio_max: C'/C.
 * @lower_bound: a run hit the wall-clock bound (the core livelocked): the
 *              ratio was extrapolated from the work done and is only a
 *              lower bound.
 */
struct memcal_overhead_point {
	int cpu;
	int period_us;
	char benchmark[16];
	char method[16];
	int master_cpu;
	int repetitions;
	double ratio_median, ratio_min, ratio_max;
	bool lower_bound;
};

/**
 * struct memcal_overhead_model - fitted overhead model for one core.
 * @cpu, @benchmark, @method: which points were fitted.
 * @cost_per_irq_ns: fixed cost per period (ratio - 1 = cost / period).
 * @base_ratio:  ratio at infinite period (ideally 1).
 * @r2:          coefficient of determination of the fit.
 */
struct memcal_overhead_model {
	int cpu;
	char benchmark[16];
	char method[16];
	double cost_per_irq_ns;
	double base_ratio;
	double r2;
};

/* memcal_db_bw_store(), memcal_db_bw_fn, memcal_db_bw_list() */
MEMCAL_DB_ROW_API(bw, struct memcal_bw, run_id);
/* memcal_db_latency_store(), memcal_db_latency_fn, memcal_db_latency_list() */
MEMCAL_DB_ROW_API(latency, struct memcal_latency_point, run_id);
/*
 * memcal_db_sustainable_store(), memcal_db_sustainable_fn,
 * memcal_db_sustainable_list()
 */
MEMCAL_DB_ROW_API(sustainable, struct memcal_sustainable, run_id);
/*
 * memcal_db_pmu_event_store(), memcal_db_pmu_event_fn,
 * memcal_db_pmu_event_list()
 */
MEMCAL_DB_ROW_API(pmu_event, struct memcal_pmu_event, run_id);
/*
 * memcal_db_overhead_store(), memcal_db_overhead_fn,
 * memcal_db_overhead_list()
 */
MEMCAL_DB_ROW_API(overhead, struct memcal_overhead_point, run_id);
/*
 * memcal_db_overhead_model_store(), memcal_db_overhead_model_fn,
 * memcal_db_overhead_model_list()
 */
MEMCAL_DB_ROW_API(overhead_model, struct memcal_overhead_model, run_id);

int memcal_db_pmu_status_store(memcal_db *db, int64_t run_id,
			       const struct memcal_pmu_status *s);
int memcal_db_pmu_status_get(memcal_db *db, int64_t run_id,
			     struct memcal_pmu_status *s);

/* Runs of a platform, newest first. */
typedef int (*memcal_db_run_fn)(const struct memcal_run *, void *user);
int memcal_db_run_list(memcal_db *db, memcal_db_run_fn fn, void *user);
typedef int (*memcal_db_platform_fn)(const struct memcal_platform *,
				     void *user);
int memcal_db_platform_list(memcal_db *db, memcal_db_platform_fn fn,
			    void *user);

/*
 * Tuning data (workload profiles, traces, tuned configurations, validation
 * runs) has its API in db/include/memcal_db_tune.h.
 */

#endif /* MEMCAL_DB_H */
