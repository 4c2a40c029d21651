// SPDX-License-Identifier: GPL-2.0-only
/*
 * schema.c - the schema and its forward-only migrations.
 *
 * migrations[i] takes a database from user_version i to i + 1.  A migration
 * is never edited once released; a change of schema is a new entry.  Each
 * runs in one BEGIN IMMEDIATE transaction together with the user_version
 * bump, so a failed migration leaves the database as it was.
 */
#include <stdio.h>

#include "db_internal.h"

static const char *const migrations[] = {
	/* 0 -> 1: everything memcal and memtune store. */
	"CREATE TABLE platform ("
	"  id INTEGER PRIMARY KEY,"
	"  fingerprint TEXT NOT NULL UNIQUE,"
	"  hostname TEXT NOT NULL,"
	"  arch TEXT NOT NULL,"
	"  cpu_model TEXT NOT NULL,"
	"  kernel TEXT NOT NULL,"
	"  packages INTEGER NOT NULL CHECK (packages >= 0),"
	"  numa_nodes INTEGER NOT NULL CHECK (numa_nodes >= 0),"
	"  cores INTEGER NOT NULL CHECK (cores >= 0),"
	"  pus INTEGER NOT NULL CHECK (pus >= 0),"
	"  topology TEXT NOT NULL CHECK (json_valid(topology)),"
	"  created_at TEXT NOT NULL,"
	"  updated_at TEXT NOT NULL"
	") STRICT;"

	"CREATE TABLE calibration_run ("
	"  id INTEGER PRIMARY KEY,"
	"  platform_id INTEGER NOT NULL REFERENCES platform(id),"
	"  kind TEXT NOT NULL CHECK (kind IN ('full','quick','overhead')),"
	"  tool_version TEXT NOT NULL,"
	"  params TEXT NOT NULL CHECK (json_valid(params)),"
	"  started_at TEXT NOT NULL,"
	"  finished_at TEXT NOT NULL,"
	"  notes TEXT NOT NULL DEFAULT ''"
	") STRICT;"
	"CREATE INDEX calibration_run_platform ON calibration_run(platform_id);"

	"CREATE TABLE bandwidth ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  kind TEXT NOT NULL"
	"    CHECK (kind IN ('read','write','ntwrite','copy','mixed')),"
	"  scope TEXT NOT NULL CHECK (scope IN ('core','aggregate')),"
	"  cpus TEXT NOT NULL,"
	"  n_cpus INTEGER NOT NULL CHECK (n_cpus > 0),"
	"  variant TEXT NOT NULL,"
	"  buffer_bytes INTEGER NOT NULL CHECK (buffer_bytes > 0),"
	"  read_share REAL NOT NULL CHECK (read_share BETWEEN 0 AND 1),"
	"  repetitions INTEGER NOT NULL CHECK (repetitions > 0),"
	"  median_bps REAL NOT NULL CHECK (median_bps >= 0),"
	"  min_bps REAL NOT NULL CHECK (min_bps >= 0),"
	"  max_bps REAL NOT NULL CHECK (max_bps >= min_bps)"
	") STRICT;"
	"CREATE INDEX bandwidth_run ON bandwidth(run_id);"

	"CREATE TABLE latency_point ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  traffic TEXT NOT NULL CHECK (traffic IN ('read','write')),"
	"  chase_cpu INTEGER NOT NULL,"
	"  load_cpus INTEGER NOT NULL CHECK (load_cpus >= 0),"
	"  pace REAL NOT NULL CHECK (pace >= 0),"
	"  bandwidth_bps REAL NOT NULL CHECK (bandwidth_bps >= 0),"
	"  latency_ns REAL NOT NULL CHECK (latency_ns > 0),"
	"  latency_min_ns REAL NOT NULL,"
	"  latency_max_ns REAL NOT NULL"
	") STRICT;"
	"CREATE INDEX latency_point_run ON latency_point(run_id);"

	"CREATE TABLE sustainable_bandwidth ("
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  traffic TEXT NOT NULL CHECK (traffic IN ('read','write')),"
	"  bandwidth_bps REAL NOT NULL CHECK (bandwidth_bps >= 0),"
	"  idle_latency_ns REAL NOT NULL,"
	"  bound_ratio REAL NOT NULL CHECK (bound_ratio >= 1),"
	"  criterion TEXT NOT NULL,"
	"  lower_bound INTEGER NOT NULL CHECK (lower_bound IN (0,1)),"
	"  PRIMARY KEY (run_id, traffic)"
	") STRICT;"

	"CREATE TABLE pmu_status ("
	"  run_id INTEGER PRIMARY KEY REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  available INTEGER NOT NULL CHECK (available IN (0,1)),"
	"  pmu_name TEXT NOT NULL,"
	"  message TEXT NOT NULL"
	") STRICT;"

	"CREATE TABLE pmu_event ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  pmu TEXT NOT NULL,"
	"  traffic TEXT NOT NULL CHECK (traffic IN ('read','write')),"
	"  perf_type INTEGER NOT NULL,"
	"  perf_config INTEGER NOT NULL,"	/* u64 stored bit-for-bit */
	"  perf_config1 INTEGER NOT NULL,"
	"  opened INTEGER NOT NULL CHECK (opened IN (0,1)),"
	"  bytes_per_event REAL NOT NULL,"
	"  error_pct REAL NOT NULL,"
	"  chosen INTEGER NOT NULL CHECK (chosen IN (0,1)),"
	"  message TEXT NOT NULL"
	") STRICT;"
	"CREATE INDEX pmu_event_run ON pmu_event(run_id);"

	"CREATE TABLE overhead_point ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  cpu INTEGER NOT NULL CHECK (cpu >= 0),"
	"  period_us INTEGER NOT NULL CHECK (period_us > 0),"
	"  benchmark TEXT NOT NULL CHECK (benchmark IN ('compute','memory')),"
	"  method TEXT NOT NULL CHECK (method IN ('memreg','proxy')),"
	"  master_cpu INTEGER NOT NULL,"
	"  repetitions INTEGER NOT NULL CHECK (repetitions > 0),"
	"  ratio_median REAL NOT NULL CHECK (ratio_median > 0),"
	"  ratio_min REAL NOT NULL,"
	"  ratio_max REAL NOT NULL"
	") STRICT;"
	"CREATE INDEX overhead_point_run ON overhead_point(run_id);"

	"CREATE TABLE overhead_model ("
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  cpu INTEGER NOT NULL,"
	"  benchmark TEXT NOT NULL,"
	"  method TEXT NOT NULL CHECK (method IN ('memreg','proxy')),"
	"  cost_per_irq_ns REAL NOT NULL,"
	"  base_ratio REAL NOT NULL,"
	"  r2 REAL NOT NULL,"
	"  PRIMARY KEY (run_id, cpu, benchmark, method)"
	") STRICT;"

	"CREATE TABLE workload_profile ("
	"  id INTEGER PRIMARY KEY,"
	"  platform_id INTEGER NOT NULL REFERENCES platform(id),"
	"  mix TEXT NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  argv TEXT NOT NULL CHECK (json_valid(argv)),"
	"  criticality TEXT NOT NULL CHECK (criticality IN ('rt','be')),"
	"  cpu INTEGER NOT NULL,"
	"  runs INTEGER NOT NULL CHECK (runs > 0),"
	"  exec_median_ns REAL NOT NULL,"
	"  exec_min_ns REAL NOT NULL,"
	"  exec_max_ns REAL NOT NULL,"
	"  trace_source TEXT NOT NULL"
	"    CHECK (trace_source IN ('pmu','declared','calibrated')),"
	"  trace_period_us INTEGER NOT NULL CHECK (trace_period_us > 0),"
	"  trace_len INTEGER NOT NULL CHECK (trace_len >= 0),"
	"  trace_read BLOB NOT NULL,"	/* trace_len little-endian u64 */
	"  trace_write BLOB NOT NULL,"
	"  created_at TEXT NOT NULL"
	") STRICT;"
	"CREATE INDEX workload_profile_mix ON workload_profile(platform_id, mix);"

	"CREATE TABLE tuned_config ("
	"  id INTEGER PRIMARY KEY,"
	"  platform_id INTEGER NOT NULL REFERENCES platform(id),"
	"  calibration_run_id INTEGER REFERENCES calibration_run(id),"
	"  mix TEXT NOT NULL,"
	"  document TEXT NOT NULL CHECK (json_valid(document)),"
	"  period_us INTEGER NOT NULL CHECK (period_us > 0),"
	"  master_cpu INTEGER NOT NULL,"
	"  created_at TEXT NOT NULL"
	") STRICT;"

	"CREATE TABLE config_profile ("
	"  config_id INTEGER NOT NULL REFERENCES tuned_config(id)"
	"    ON DELETE CASCADE,"
	"  profile_id INTEGER NOT NULL REFERENCES workload_profile(id),"
	"  PRIMARY KEY (config_id, profile_id)"
	") STRICT;"

	"CREATE TABLE validation_run ("
	"  id INTEGER PRIMARY KEY,"
	"  config_id INTEGER NOT NULL REFERENCES tuned_config(id)"
	"    ON DELETE CASCADE,"
	"  started_at TEXT NOT NULL,"
	"  finished_at TEXT NOT NULL,"
	"  regulated INTEGER NOT NULL CHECK (regulated IN (0,1)),"
	"  notes TEXT NOT NULL DEFAULT ''"
	") STRICT;"

	"CREATE TABLE validation_result ("
	"  id INTEGER PRIMARY KEY,"
	"  validation_id INTEGER NOT NULL REFERENCES validation_run(id)"
	"    ON DELETE CASCADE,"
	"  workload TEXT NOT NULL,"
	"  cpu INTEGER NOT NULL,"
	"  solo_ns REAL NOT NULL,"
	"  unregulated_ns REAL NOT NULL,"
	"  regulated_ns REAL NOT NULL,"
	"  deadline_ns REAL NOT NULL,"
	"  jobs INTEGER NOT NULL,"
	"  deadline_misses INTEGER NOT NULL,"
	"  throttles INTEGER NOT NULL,"
	"  throttled_ns INTEGER NOT NULL"
	") STRICT;",

	/*
	 * 1 -> 2: what a profile ran (the resolved binary: path, size and
	 * content hash; '' for rows profiled before) and the key of the
	 * inputs a configuration was planned from ('' for older rows).
	 */
	"ALTER TABLE workload_profile ADD COLUMN binary_path TEXT NOT NULL"
	"  DEFAULT '';"
	"ALTER TABLE workload_profile ADD COLUMN binary_size INTEGER NOT NULL"
	"  DEFAULT -1;"
	"ALTER TABLE workload_profile ADD COLUMN binary_hash TEXT NOT NULL"
	"  DEFAULT '';"
	"ALTER TABLE tuned_config ADD COLUMN inputs_key TEXT NOT NULL"
	"  DEFAULT '';"
	"CREATE INDEX tuned_config_inputs ON tuned_config(inputs_key);",

	/* 2 -> 3: overhead points of a livelocked core are lower bounds. */
	"ALTER TABLE overhead_point ADD COLUMN lower_bound INTEGER NOT NULL"
	"  DEFAULT 0 CHECK (lower_bound IN (0,1));",

	/* 3 -> 4: per-job latency distributions of real-time workloads. */
	JOB_LATENCY_TABLE("job_latency",
			  "'solo','unregulated','regulated'") ";",

	/*
	 * 4 -> 5: the bandwidth-latency family, one curve per run and read
	 * share; its points are a JSON array of objects.
	 */
	"CREATE TABLE mix_curve ("
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  read_pct INTEGER NOT NULL CHECK (read_pct BETWEEN 0 AND 100),"
	"  variant TEXT NOT NULL,"
	"  chase_cpu INTEGER NOT NULL,"
	"  load_cpus INTEGER NOT NULL CHECK (load_cpus >= 0),"
	"  peak_bps REAL NOT NULL CHECK (peak_bps >= 0),"
	"  knee_bps REAL NOT NULL CHECK (knee_bps >= 0),"
	"  sustainable_bps REAL NOT NULL CHECK (sustainable_bps >= 0),"
	"  idle_latency_ns REAL NOT NULL,"
	"  bound_ratio REAL NOT NULL CHECK (bound_ratio >= 1),"
	"  lower_bound INTEGER NOT NULL CHECK (lower_bound IN (0,1)),"
	"  criterion TEXT NOT NULL,"
	"  points TEXT NOT NULL"
	"    CHECK (json_valid(points) AND json_type(points) = 'array'),"
	"  PRIMARY KEY (run_id, read_pct)"
	") STRICT;",

	/*
	 * 5 -> 6: the PMU self-checks of a calibration run with their
	 * verdicts (cpu -1: a check that is not per CPU).
	 */
	"CREATE TABLE pmu_selfcheck ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  check_name TEXT NOT NULL CHECK (check_name IN"
	"    ('read-count','write-count','delivery','pmu-users')),"
	"  cpu INTEGER NOT NULL CHECK (cpu >= -1),"
	"  event TEXT NOT NULL,"
	"  expected REAL NOT NULL CHECK (expected >= 0),"
	"  measured REAL NOT NULL CHECK (measured >= 0),"
	"  tolerance_pct REAL NOT NULL CHECK (tolerance_pct >= 0),"
	"  verdict TEXT NOT NULL"
	"    CHECK (verdict IN ('pass','fail','warn','skip')),"
	"  message TEXT NOT NULL CHECK (message <> '')"
	") STRICT;"
	"CREATE INDEX pmu_selfcheck_run ON pmu_selfcheck(run_id);",

	/*
	 * 6 -> 7: the kinds of CPU a run found and each kind's read and
	 * write event as a memreg spec ('' with the reason when none).
	 */
	"CREATE TABLE cpu_kind ("
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  cpus TEXT NOT NULL CHECK (cpus <> ''),"
	"  label TEXT NOT NULL,"
	"  perf_pmu TEXT NOT NULL,"
	"  perf_type INTEGER NOT NULL,"
	"  read_event TEXT NOT NULL,"
	"  write_event TEXT NOT NULL,"
	"  read_name TEXT NOT NULL,"
	"  write_name TEXT NOT NULL,"
	"  read_why TEXT NOT NULL,"
	"  write_why TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, cpus)"
	") STRICT;",

	/*
	 * 7 -> 8: the guaranteed bandwidth (what the memory delivers when
	 * every access misses its row), one row per run, class and method,
	 * skipped methods with their reason; and the static condition of a
	 * validation (guarantees only, no LMS, no sharing) beside the
	 * regulated one: NULL in rows validated before it existed.
	 */
	"CREATE TABLE guaranteed_bandwidth ("
	"  run_id INTEGER NOT NULL REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  traffic TEXT NOT NULL CHECK (traffic IN ('read','write')),"
	"  method TEXT NOT NULL"
	"    CHECK (method IN ('random-line','single-bank','declared')),"
	"  status TEXT NOT NULL"
	"    CHECK (status IN ('measured','declared','skipped')),"
	"  bandwidth_bps REAL NOT NULL CHECK (bandwidth_bps >= 0),"
	"  min_bps REAL NOT NULL CHECK (min_bps >= 0),"
	"  max_bps REAL NOT NULL CHECK (max_bps >= min_bps),"
	"  cpus TEXT NOT NULL,"
	"  n_cpus INTEGER NOT NULL CHECK (n_cpus >= 0),"
	"  buffer_bytes INTEGER NOT NULL CHECK (buffer_bytes >= 0),"
	"  streams INTEGER NOT NULL CHECK (streams >= 0),"
	"  repetitions INTEGER NOT NULL CHECK (repetitions >= 0),"
	"  criterion TEXT NOT NULL,"
	"  source TEXT NOT NULL,"
	"  CHECK (status = 'skipped' OR bandwidth_bps > 0),"
	"  CHECK (status <> 'skipped' OR source <> ''),"
	"  CHECK ((method = 'declared') = (status = 'declared') OR"
	"         status = 'skipped'),"
	"  PRIMARY KEY (run_id, traffic, method)"
	") STRICT;"

	"ALTER TABLE validation_result ADD COLUMN static_ns REAL"
	"  CHECK (static_ns IS NULL OR static_ns >= 0);"
	"ALTER TABLE validation_result ADD COLUMN static_deadline_misses"
	"  INTEGER CHECK (static_deadline_misses IS NULL OR"
	"  static_deadline_misses >= 0);"
	"ALTER TABLE validation_result ADD COLUMN static_throttles INTEGER"
	"  CHECK (static_throttles IS NULL OR static_throttles >= 0);"
	"ALTER TABLE validation_result ADD COLUMN static_throttled_ns INTEGER"
	"  CHECK (static_throttled_ns IS NULL OR static_throttled_ns >= 0);"

	JOB_LATENCY_TABLE("job_latency_v8",
			  "'solo','unregulated','static','regulated'") ";"
	"INSERT INTO job_latency_v8 SELECT * FROM job_latency;"
	"DROP TABLE job_latency;"
	"ALTER TABLE job_latency_v8 RENAME TO job_latency;",

	/*
	 * 8 -> 9: the sysfs name of each candidate event's PMU
	 * (bus/event_source/devices/NAME, matched by type; '' for a type no
	 * PMU device has, and in rows stored before): memreg resolves names,
	 * a dynamic type number changes with the kernel.
	 */
	"ALTER TABLE pmu_event ADD COLUMN perf_pmu TEXT NOT NULL DEFAULT '';",

	/*
	 * 9 -> 10: the unit (one physical board of a board type) a run
	 * measured, and whether the run was imported from another unit's
	 * document: its content key keeps a run from being stored twice.
	 */
	"CREATE TABLE run_unit ("
	"  run_id INTEGER PRIMARY KEY REFERENCES calibration_run(id)"
	"    ON DELETE CASCADE,"
	"  hostname TEXT NOT NULL,"
	"  machine_id TEXT NOT NULL,"
	"  serial TEXT NOT NULL,"
	"  kernel TEXT NOT NULL,"
	"  content_key TEXT UNIQUE CHECK (content_key IS NULL OR"
	"    length(content_key) = 64),"
	"  imported_at TEXT,"
	"  imported_from TEXT NOT NULL DEFAULT '',"
	"  CHECK ((imported_at IS NULL) = (content_key IS NULL))"
	") STRICT;",

	/* 10 -> 11: the spread of every bandwidth figure (NULL: not measured,
	 * a run before this version) and whether it stayed wide. */
	"ALTER TABLE bandwidth ADD COLUMN spread REAL"
	"  CHECK (spread IS NULL OR spread >= 0);"
	"ALTER TABLE bandwidth ADD COLUMN spread_wide INTEGER NOT NULL"
	"  DEFAULT 0 CHECK (spread_wide IN (0, 1));",
};

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) ==
	       MEMCAL_DB_SCHEMA_VERSION,
	       "one migration per schema version");

/* read_version - PRAGMA user_version of the open database. */
static int read_version(memcal_db *db, int *version)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "PRAGMA user_version", "");

	if (rc)
		return rc;
	rc = memcal_db_step(db, st);
	*version = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? MEMCAL_OK : rc;
}

/* newer_error - the refusal for a database from a newer memcal. */
static int newer_error(memcal_db *db, int version)
{
	return memcal_db_fail(db, MEMCAL_ENEWER,
		       "%s has schema version %d, newer than this memcal "
		       "(version %s understands up to %d); it was left "
		       "untouched: use the newer memcal or another --db",
		       db->path, version, MEMCAL_VERSION,
		       MEMCAL_DB_SCHEMA_VERSION);
}

/**
 * memcal_db_migrate() - bring the schema up to MEMCAL_DB_SCHEMA_VERSION.
 * @db: an open database.
 *
 * Refuses a newer database without writing to it.  A read-only handle on
 * an old database is refused too (it cannot be upgraded).  Each step runs
 * in its own BEGIN IMMEDIATE transaction, re-reading the version inside
 * it, so two processes upgrading at once do not both apply a step.
 *
 * Return: MEMCAL_OK or an error code.
 */
int memcal_db_migrate(memcal_db *db)
{
	int version, rc;

	rc = read_version(db, &version);
	if (rc)
		return rc;
	if (version > MEMCAL_DB_SCHEMA_VERSION)
		return newer_error(db, version);
	if (version == MEMCAL_DB_SCHEMA_VERSION)
		return MEMCAL_OK;
	if (db->readonly)
		return memcal_db_fail(db, MEMCAL_EREADONLY,
			       "%s has schema version %d and needs upgrading "
			       "to %d, which a read-only open cannot do: run "
			       "a memcal command that writes (e.g. 'memcal "
			       "run') first", db->path, version,
			       MEMCAL_DB_SCHEMA_VERSION);
	while (version < MEMCAL_DB_SCHEMA_VERSION) {
		char bump[64];

		rc = memcal_db_begin(db);
		if (rc)
			return rc;
		rc = read_version(db, &version);
		if (rc || version >= MEMCAL_DB_SCHEMA_VERSION) {
			memcal_db_rollback(db);
			if (!rc && version > MEMCAL_DB_SCHEMA_VERSION)
				return newer_error(db, version);
			return rc;
		}
		rc = sqlite3_exec(db->h, migrations[version], NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			rc = memcal_db_sqlite_fail(db, rc, "upgrading the schema");
			memcal_db_rollback(db);
			return rc;
		}
		snprintf(bump, sizeof(bump), "PRAGMA user_version = %d",
			 version + 1);
		rc = sqlite3_exec(db->h, bump, NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			rc = memcal_db_sqlite_fail(db, rc, "recording the schema version");
			memcal_db_rollback(db);
			return rc;
		}
		rc = memcal_db_commit(db);
		if (rc)
			return rc;
		version++;
	}
	return MEMCAL_OK;
}
