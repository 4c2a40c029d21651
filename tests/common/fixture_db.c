// SPDX-License-Identifier: GPL-2.0-only
/*
 * fixture_db.c - a 4-core board with one run of every kind of figure.
 * The values are round numbers so golden files stay readable.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "fixture_db.h"
#include "memcal_db_guaranteed.h"
#include "memcal_db_selfcheck.h"

/* store_calibration - the full run: bandwidth, latency, knee, PMU. */
static int store_calibration(memcal_db *db, struct fixture_ids *ids)
{
	struct memcal_run run = {
		.platform_id = ids->platform_id, .kind = "full",
		.tool_version = "0.1.0", .params_json = "{\"repeat\":5}",
		.started_at = "2026-01-02T03:04:05Z",
		.finished_at = "2026-01-02T03:06:05Z", .notes = "no PMU",
	};
	static const char *const kinds[] = { "read", "write", "ntwrite" };
	static const struct memcal_selfcheck checks[] = {
		{ "read-count", -1, "", 0, 0, 0, "skip",
		  "no hardware PMU: perf_event_open ENOENT" },
		{ "write-count", -1, "", 0, 0, 0, "skip",
		  "no hardware PMU: perf_event_open ENOENT" },
		{ "delivery", -1, "", 0, 0, 0, "skip",
		  "no hardware PMU: perf_event_open ENOENT" },
		{ "pmu-users", -1, "", 0, 1, 0, "warn",
		  "the NMI watchdog holds a counter on every CPU (free it: "
		  "sysctl kernel.nmi_watchdog=0)" },
	};
	/* a quarter of the streaming figures: every access a row miss */
	static const struct memcal_guaranteed guaranteed[] = {
		{ "read", "random-line", "measured", 2.5e9, 2.4e9, 2.6e9,
		  "0-3", 4, 1 << 28, 16, 5,
		  "median of 5 repetitions, random lines from every core", "" },
		{ "read", "single-bank", "skipped", 0, 0, 0, "", 0, 0, 0, 0, "",
		  "the DRAM address mapping of Cortex-A53 boards is not in "
		  "the table" },
		{ "write", "random-line", "measured", 1.5e9, 1.4e9, 1.6e9,
		  "0-3", 4, 1 << 28, 16, 5,
		  "median of 5 repetitions, random lines from every core", "" },
		{ "write", "single-bank", "skipped", 0, 0, 0, "", 0, 0, 0, 0, "",
		  "the DRAM address mapping of Cortex-A53 boards is not in "
		  "the table" },
	};
	int rc = memcal_db_run_store(db, &run);

	ids->run_id = run.id;
	for (int k = 0; !rc && k < 3; k++)
		for (int n = 1; !rc && n <= 4; n++) {
			struct memcal_bw bw = {
				.n_cpus = n, .variant = "avx2",
				.buffer_bytes = 1 << 28, .repetitions = 5,
				.median_bps = 1e10 * n * (k + 1) / 2,
			};

			snprintf(bw.kind, sizeof(bw.kind), "%s", kinds[k]);
			snprintf(bw.scope, sizeof(bw.scope), "%s",
				 n == 1 ? "core" : "aggregate");
			snprintf(bw.cpus, sizeof(bw.cpus), n == 1 ? "0" : "0-%d",
				 n - 1);
			bw.min_bps = bw.median_bps * 0.9;
			bw.max_bps = bw.median_bps * 1.1;
			bw.spread = 0.015;
			rc = memcal_db_bw_store(db, run.id, &bw);
		}
	for (int i = 0; !rc && i < 5; i++) {
		struct memcal_latency_point pt = {
			.traffic = "read", .chase_cpu = 0, .load_cpus = 3,
			.pace = i / 4.0, .bandwidth_bps = 5e9 * i,
			.latency_ns = i < 3 ? 100 + 5 * i : 100 + 100 * i,
		};

		pt.latency_min_ns = pt.latency_ns - 2;
		pt.latency_max_ns = pt.latency_ns + 2;
		rc = memcal_db_latency_store(db, run.id, &pt);
	}
	if (!rc) {
		struct memcal_sustainable s = {
			.traffic = "read", .bandwidth_bps = 1e10,
			.idle_latency_ns = 100, .bound_ratio = 1.5,
			.criterion = "latency <= 1.5 x idle",
		};

		rc = memcal_db_sustainable_store(db, run.id, &s);
		strcpy(s.traffic, "write");
		s.bandwidth_bps = 6e9;
		s.lower_bound = true;
		if (!rc)
			rc = memcal_db_sustainable_store(db, run.id, &s);
	}
	if (!rc) {
		struct memcal_pmu_status ps = {
			.available = false,
			.message = "no hardware PMU: perf_event_open ENOENT",
		};

		rc = memcal_db_pmu_status_store(db, run.id, &ps);
	}
	for (size_t i = 0; !rc && i < sizeof(checks) / sizeof(checks[0]); i++)
		rc = memcal_db_selfcheck_store(db, run.id, &checks[i]);
	for (size_t i = 0; !rc && i < sizeof(guaranteed) / sizeof(guaranteed[0]); i++)
		rc = memcal_db_guaranteed_store(db, run.id, &guaranteed[i]);
	return rc;
}

/* store_overhead - an overhead run: two cores, two periods, a model. */
static int store_overhead(memcal_db *db, struct fixture_ids *ids)
{
	struct memcal_run run = {
		.platform_id = ids->platform_id, .kind = "overhead",
		.tool_version = "0.1.0", .params_json = "{}",
		.started_at = "2026-01-02T04:00:00Z",
		.finished_at = "2026-01-02T04:01:00Z",
	};
	int rc = memcal_db_run_store(db, &run);

	ids->overhead_run_id = run.id;
	for (int cpu = 0; !rc && cpu < 2; cpu++)
		for (int p = 100; !rc && p <= 1000; p *= 10) {
			struct memcal_overhead_point pt = {
				.cpu = cpu, .period_us = p,
				.benchmark = "compute", .method = "proxy",
				.master_cpu = 0, .repetitions = 10,
				.ratio_median = 1 + 10.0 / p * (cpu ? 1 : 2),
			};

			pt.ratio_min = pt.ratio_median - 0.01;
			pt.ratio_max = pt.ratio_median + 0.01;
			rc = memcal_db_overhead_store(db, run.id, &pt);
		}
	if (!rc) {
		struct memcal_overhead_model m = {
			.cpu = 1, .benchmark = "compute", .method = "proxy",
			.cost_per_irq_ns = 10000, .base_ratio = 1, .r2 = 1,
		};

		rc = memcal_db_overhead_model_store(db, run.id, &m);
	}
	return rc;
}

/**
 * fixture_db_populate() - store the fixture board and runs in one
 * transaction.  Return: MEMCAL_OK or the failing code.
 */
int fixture_db_populate(memcal_db *db, struct fixture_ids *ids)
{
	struct memcal_platform p = {
		.fingerprint = "fixture-0001", .hostname = "board",
		.arch = "aarch64", .cpu_model = "Cortex-A53",
		.kernel = "6.1.0-test", .packages = 1, .numa_nodes = 1,
		.cores = 4, .pus = 4,
		.topology_json = "{\"caches\":[{\"level\":2,\"size\":1048576}]}",
	};
	int rc = memcal_db_begin(db);

	if (rc)
		return rc;
	rc = memcal_db_platform_store(db, &p);
	ids->platform_id = p.id;
	if (!rc)
		rc = store_calibration(db, ids);
	if (!rc)
		rc = store_overhead(db, ids);
	if (rc) {
		memcal_db_rollback(db);
		return rc;
	}
	return memcal_db_commit(db);
}

/* fixture_db_create() - create @path (removing an old one) and fill it. */
int fixture_db_create(const char *path, struct fixture_ids *ids)
{
	char err[512], side[4200];
	memcal_db *db;
	int rc;

	remove(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	remove(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	remove(side);
	rc = memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "fixture: %s\n", err);
		return rc;
	}
	rc = fixture_db_populate(db, ids);
	memcal_db_close(db);
	return rc;
}

/*
 * fixture_db_user_version - PRAGMA user_version of @path, read with plain
 * SQLite beside any open memcal handle (WAL lets it); -1 when unreadable.
 */
int fixture_db_user_version(const char *path)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int v = -1;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}
