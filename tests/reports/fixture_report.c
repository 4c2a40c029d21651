// SPDX-License-Identifier: GPL-2.0-only
/*
 * fixture_report.c - builds the report tests' databases with the db/ API
 * (see fixture_report.h).  The figures follow the shapes the charts must
 * show: bandwidth that saturates with cores, a latency knee at 18 GB/s,
 * an overhead 1 + c/period that is much larger on the master core (the
 * MemGuard reproduction's Figure 1), budgets under the sustainable line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "fixture_report.h"
#include "memcal_db_selfcheck.h"
#include "memcal_db_job_latency.h"
#include "memcal_db.h"
#include "memcal_db_tune.h"
#include "report.h"

static char tmpdirs[8][64];
static int n_tmpdirs;

/* remove_tmpdirs - atexit(): delete the directories fix_tmpdir() made. */
static void remove_tmpdirs(void)
{
	char cmd[160];

	for (int i = 0; i < n_tmpdirs; i++) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%.63s'", tmpdirs[i]);
		if (system(cmd))
			fprintf(stderr, "fixture: could not remove %s\n",
				tmpdirs[i]);
	}
	n_tmpdirs = 0;
}

/*
 * fix_tmpdir() - a fresh temporary directory for one test, removed when
 * the test process exits.  Return: its path, or NULL.
 */
const char *fix_tmpdir(void)
{
	char *dir;

	if (n_tmpdirs >= 8)
		return NULL;
	if (!n_tmpdirs)
		atexit(remove_tmpdirs);
	dir = tmpdirs[n_tmpdirs];
	snprintf(dir, sizeof(tmpdirs[0]), "/tmp/memcal-rep-XXXXXX");
	if (!mkdtemp(dir))
		return NULL;
	n_tmpdirs++;
	return dir;
}

/* store_platform - the 4-core board. */
static int store_platform(memcal_db *db, struct fix_ids *ids)
{
	struct memcal_platform p = {
		.fingerprint = "fixture-fingerprint-0001",
		.hostname = FIX_HOST, .arch = "aarch64",
		.cpu_model = "Cortex-A72 (fixture)", .kernel = "6.1.0-fixture",
		.packages = 1, .numa_nodes = 1, .cores = 4, .pus = 4,
		.topology_json = "{}",
	};
	int rc = memcal_db_platform_store(db, &p);

	ids->platform_id = p.id;
	return rc;
}

/* store_bandwidth - the full run and its bandwidth rows. */
static int store_bandwidth(memcal_db *db, struct fix_ids *ids)
{
	static const char *const kinds[] = { "read", "write", "ntwrite" };
	static const double gbps[3][4] = {
		{ 10, 18, 24, 26 }, { 6, 10, 12, 13 }, { 12, 20, 26, 28 },
	};
	struct memcal_run run = {
		.platform_id = ids->platform_id, .kind = "full",
		.tool_version = "0.1.0", .params_json = "{\"repeat\":5}",
		.started_at = "2026-01-02T03:04:05Z",
		.finished_at = "2026-01-02T03:09:05Z",
		/* long enough to wrap; one word longer than a line */
		.notes = "machine busy before the run: up to 100% of a CPU "
			 "used by other processes; buffer on node 0 at "
			 "/sys/devices/system/node/node0/hugepages/"
			 "hugepages-2048kB/nr_hugepages_mempolicy; figures "
			 "may be low",
	};
	int rc = memcal_db_run_store(db, &run);

	ids->run_id = run.id;
	for (int k = 0; !rc && k < 3; k++)
		for (int n = 1; !rc && n <= 4; n++) {
			/* one core alone: a row per CPU, else one aggregate */
			for (int cpu = 0; !rc && cpu < (n == 1 ? 4 : 1); cpu++) {
				struct memcal_bw bw = {
					.n_cpus = n, .variant = "neon",
					.buffer_bytes = 1 << 28, .repetitions = 5,
					.median_bps = gbps[k][n - 1] * 1e9 +
						      (n == 1 ? (cpu - 1.5) * 1e8 : 0),
				};

				snprintf(bw.kind, sizeof(bw.kind), "%s", kinds[k]);
				snprintf(bw.scope, sizeof(bw.scope), "%s",
					 n == 1 ? "core" : "aggregate");
				snprintf(bw.cpus, sizeof(bw.cpus), n == 1 ? "%d" :
					 "0-%d", n == 1 ? cpu : n - 1);
				bw.min_bps = bw.median_bps * 0.95;
				bw.max_bps = bw.median_bps * 1.03;
				bw.spread = 0.012;
				rc = memcal_db_bw_store(db, run.id, &bw);
			}
		}
	return rc;
}

/* store_latency - two loaded-latency curves and the knees. */
static int store_latency(memcal_db *db, struct fix_ids *ids)
{
	static const double lat_r[] = { 100, 101, 103, 106, 112, 135, 210, 420 };
	static const double lat_w[] = { 100, 104, 112, 150, 260 };
	struct memcal_sustainable s = {
		.traffic = "read", .bandwidth_bps = FIX_SUS_READ,
		.idle_latency_ns = 100, .bound_ratio = 1.5,
		.criterion = "latency <= 1.5 x idle",
	};
	int rc = 0;

	for (int i = 0; !rc && i < 8; i++) {
		struct memcal_latency_point pt = {
			.traffic = "read", .chase_cpu = 0, .load_cpus = 3,
			.pace = i / 7.0, .bandwidth_bps = 3.4e9 * i,
			.latency_ns = lat_r[i],
		};

		pt.latency_min_ns = pt.latency_ns * 0.97;
		pt.latency_max_ns = pt.latency_ns * 1.04;
		rc = memcal_db_latency_store(db, ids->run_id, &pt);
	}
	for (int i = 0; !rc && i < 5; i++) {
		struct memcal_latency_point pt = {
			.traffic = "write", .chase_cpu = 0, .load_cpus = 3,
			.pace = i / 4.0, .bandwidth_bps = 2.9e9 * i,
			.latency_ns = lat_w[i],
		};

		pt.latency_min_ns = pt.latency_ns * 0.97;
		pt.latency_max_ns = pt.latency_ns * 1.04;
		rc = memcal_db_latency_store(db, ids->run_id, &pt);
	}
	if (!rc)
		rc = memcal_db_sustainable_store(db, ids->run_id, &s);
	if (!rc) {
		strcpy(s.traffic, "write");
		s.bandwidth_bps = FIX_SUS_WRITE;
		s.lower_bound = true;
		rc = memcal_db_sustainable_store(db, ids->run_id, &s);
	}
	return rc;
}

/*
 * store_mix - the bandwidth-latency family: five read shares, the knee
 * moving down from FIX_SUS_READ at 100 % read to a lower-bound
 * FIX_SUS_WRITE at 0 %, five points each.
 */
static int store_mix(memcal_db *db, struct fix_ids *ids)
{
	static const double lat[] = { 100, 103, 110, 150, 240 };
	int rc = 0;

	for (int m = 0; !rc && m < 5; m++) {
		struct memcal_mix_curve c = {
			.read_pct = 100 - 25 * m, .variant = "avx2",
			.chase_cpu = 0, .load_cpus = 3,
			.idle_latency_ns = 100, .bound_ratio = 1.5,
			.criterion = "latency <= 1.5 x idle", .n_points = 5,
		};
		double top = FIX_SUS_READ - (FIX_SUS_READ - FIX_SUS_WRITE) *
			     m / 4.0;

		c.lower_bound = m == 4;
		c.knee_bps = c.lower_bound ? top * 0.9 : top;
		c.peak_bps = c.lower_bound ? top : top * 1.2;
		c.sustainable_bps = top;
		for (int i = 0; i < 5; i++)
			c.points[i] = (struct memcal_mix_point){
				.pace = i / 4.0,
				.bandwidth_bps = top * 1.1 * i / 4.0,
				.latency_ns = lat[i] + 5 * m,
				.latency_min_ns = (lat[i] + 5 * m) * 0.97,
				.latency_max_ns = (lat[i] + 5 * m) * 1.04,
			};
		rc = memcal_db_mix_curve_store(db, ids->run_id, &c);
	}
	return rc;
}

/*
 * store_pmu - "no PMU", one rejected event, and self-checks: counts
 * skipped, delivery failed on CPU 1, nobody else on the PMU.
 */
static int store_pmu(memcal_db *db, struct fix_ids *ids)
{
	static const struct memcal_selfcheck checks[] = {
		{ "read-count", -1, "", 0, 0, 0, "skip",
		  "no hardware PMU: perf_event_open ENOENT" },
		{ "delivery", 1, "raw:0x17", 250, 0, 10, "fail",
		  "cpu 1: 2500000 events (250 overflows of 10000) but no "
		  "overflow interrupt arrived" },
		{ "pmu-users", -1, "", 0, 0, 0, "pass",
		  "no other user of the PMU" },
	};
	struct memcal_pmu_status st = {
		.available = false, .pmu_name = "",
		.message = "perf_event_open of hardware events fails with ENOENT",
	};
	struct memcal_pmu_event e = {
		.name = "LLC_MISSES", .pmu = "perf", .traffic = "read",
		.message = "event not found",
	};
	int rc = memcal_db_pmu_status_store(db, ids->run_id, &st);

	if (!rc)
		rc = memcal_db_pmu_event_store(db, ids->run_id, &e);
	for (size_t i = 0; !rc && i < sizeof(checks) / sizeof(checks[0]); i++)
		rc = memcal_db_selfcheck_store(db, ids->run_id, &checks[i]);
	return rc;
}

/* store_overhead - C'/C per core x period, master 0, proxy method. */
static int store_overhead(memcal_db *db, struct fix_ids *ids)
{
	static const int periods[] = { 10, 20, 32, 50, 100, 200, 500, 1000 };
	struct memcal_run run = {
		.platform_id = ids->platform_id, .kind = "overhead",
		.tool_version = "0.1.0", .params_json = "{}",
		.started_at = "2026-01-02T04:00:00Z",
		.finished_at = "2026-01-02T04:20:00Z",
		.notes = "proxy: no memreg module on this kernel",
	};
	int rc = memcal_db_run_store(db, &run);

	ids->overhead_run_id = run.id;
	for (int cpu = 0; !rc && cpu < 4; cpu++) {
		double cost = cpu == FIX_MASTER ? 25.3 : 2.5 + 0.3 * cpu;
		struct memcal_overhead_model m = {
			.cpu = cpu, .benchmark = "compute", .method = "proxy",
			.cost_per_irq_ns = cost * 1000, .base_ratio = 1,
			.r2 = 0.99,
		};

		for (size_t i = 0; !rc && i < 8; i++) {
			struct memcal_overhead_point pt = {
				.cpu = cpu, .period_us = periods[i],
				.benchmark = "compute", .method = "proxy",
				.master_cpu = FIX_MASTER, .repetitions = 5,
				.ratio_median = 1 + cost / periods[i],
			};

			pt.ratio_min = pt.ratio_median * 0.99;
			pt.ratio_max = pt.ratio_median * 1.01;
			rc = memcal_db_overhead_store(db, run.id, &pt);
		}
		if (!rc)
			rc = memcal_db_overhead_model_store(db, run.id, &m);
	}
	return rc;
}

/* The tuned-config document (format of tuner/tuned_config.h). */
static const char config_doc[] =
	"{\"format\":\"memcal.tuned-config\",\"version\":1,\"mix\":\"demo\","
	"\"period_us\":1000,\"master_cpu\":0,"
	"\"modes\":{\"lms\":true,\"reclaim\":true,\"share\":false,"
	"\"monitor\":false},"
	"\"lms\":{\"taps\":4,\"mu\":0.5,\"mu_q16\":32768,\"headroom_pct\":20,"
	"\"headroom_q16\":13107},"
	"\"counters\":{\"read\":{\"event\":\"page-faults\",\"bytes_per_event\":"
	"64,\"source\":\"assumed\"},\"write\":{\"event\":\"page-faults\","
	"\"bytes_per_event\":64,\"source\":\"assumed\"}},"
	"\"platform_ceiling\":{\"read_bps\":18e9,\"write_bps\":9e9},"
	"\"cpus\":["
	"{\"cpu\":0,\"role\":\"idle\",\"regulated\":false,\"master\":true,"
	"\"workloads\":[]},"
	"{\"cpu\":1,\"role\":\"rt\",\"regulated\":true,\"workloads\":"
	"[\"radar & <fft>\"],\"read\":{\"guaranteed_bps\":6e9,"
	"\"guaranteed_events\":93750},\"write\":{\"guaranteed_bps\":2e9,"
	"\"guaranteed_events\":31250}},"
	"{\"cpu\":2,\"role\":\"be\",\"regulated\":true,\"workloads\":"
	"[\"video\"],\"read\":{\"guaranteed_events\":62500},\"write\":"
	"{\"guaranteed_bps\":3e9}},"
	"{\"cpu\":3,\"role\":\"be\",\"regulated\":true,\"workloads\":"
	"[\"compress\"],\"read\":{\"guaranteed_bps\":5e9},\"write\":"
	"{\"guaranteed_bps\":3e9}}],"
	"\"provenance\":{\"calibration_run_id\":1,\"overhead_method\":\"proxy\"},"
	"\"explain\":[\"Period 1000 us: the shortest period whose measured "
	"overhead stays under 2 % on every regulated core.\","
	"\"Master CPU 0: it runs no workload, so the master's extra interrupt "
	"cost (1.79x at 32 us in the overhead sweep) falls on no critical task."
	"\"],"
	"\"reasons\":{\"period\":\"Period 1000 us: the shortest period whose "
	"measured overhead stays under 2 % on every regulated core.\","
	"\"master\":\"Master CPU 0: it runs no workload, so the master's extra "
	"interrupt cost (1.79x at 32 us in the overhead sweep) falls on no "
	"critical task.\"},"
	"\"warnings\":[\"Counter events are assumed, not validated: no PMU.\"]}";

/* store_config - a profile with a trace, and the configuration. */
static int store_config(memcal_db *db, struct fix_ids *ids)
{
	uint64_t rd[200], wr[200];
	struct memcal_profile p = {
		.platform_id = ids->platform_id, .mix = "demo",
		.workload = FIX_ESCAPED_WL, .argv_json = "[\"fft\",\"-n\",\"4\"]",
		.criticality = "rt", .cpu = 1, .runs = 3,
		.exec_median_ns = 2e8, .exec_min_ns = 1.9e8, .exec_max_ns = 2.2e8,
		.trace_source = "declared", .trace_period_us = 1000,
		.trace_len = 200, .trace_read = rd, .trace_write = wr,
		.created_at = "2026-01-02T05:00:00Z",
	};
	struct memcal_config c = {
		.platform_id = ids->platform_id, .mix = "demo",
		.document = (char *)config_doc, .period_us = FIX_PERIOD_US,
		.master_cpu = FIX_MASTER, .created_at = "2026-01-02T06:00:00Z",
		.n_profiles = 1,
	};
	int rc;

	for (int i = 0; i < 200; i++) {
		/* 4 MB per ms on average, a slow wave and a burst every 50 */
		rd[i] = (uint64_t)(4e6 + 1.5e6 * sin(i / 8.0) +
				   (i % 50 < 5 ? 3e6 : 0));
		wr[i] = rd[i] / 3;
	}
	rc = memcal_db_profile_store(db, &p);
	ids->profile_id = p.id;
	c.calibration_run_id = ids->run_id;
	c.profile_ids = &ids->profile_id;
	if (!rc)
		rc = memcal_db_config_store(db, &c);
	ids->config_id = c.id;
	return rc;
}

/*
 * store_validation - one regulated validation with three workloads: the
 * real-time one and 'video' also under static budgets (the real-time core
 * keeps its guarantee, best-effort 'video' loses the spare bandwidth LMS
 * and sharing gave it), 'compress' without the static condition (a row
 * stored before it existed).
 */
static int store_validation(memcal_db *db, struct fix_ids *ids)
{
	struct memcal_validation v = {
		.config_id = ids->config_id,
		.started_at = "2026-01-02T07:00:00Z",
		.finished_at = "2026-01-02T07:10:00Z", .regulated = true,
		.notes = "",
	};
	const struct memcal_validation_result res[] = {
		{ FIX_ESCAPED_WL, 1, 2e8, 3.1e8, 2.1e8, 2.5e8, 100, 0, 40, 3e6,
		  true, 2.05e8, 0, 12, 1e6 },
		{ "video", 2, 4e8, 5.2e8, 5.9e8, 0, 0, 0, 900, 9e7,
		  true, 7.4e8, 0, 2400, 3.1e8 },
		{ "compress", 3, 1e9, 1.4e9, 1.6e9, 0, 0, 0, 700, 2e8, false, 0, 0, 0, 0 },
	};
	/* the real-time workload's jobs, 20 ms deadline: solo, co-run
	 * unregulated (late tail, 2 misses), static and regulated */
	const struct memcal_job_latency jl[] = {
		{ FIX_ESCAPED_WL, 1, "solo", "self", 20000000, 20000000, 100,
		  5000000, 6000000, 6100000, 0, 0,
		  (char *)"[[5000,50],[5500,40],[6000,9],[6100,1]]" },
		{ FIX_ESCAPED_WL, 1, "unregulated", "self", 20000000, 20000000,
		  100, 9000000, 21000000, 23000000, 2, 0,
		  (char *)"[[8000,50],[12000,40],[15000,8],[21000,1],"
		  "[23000,1]]" },
		{ FIX_ESCAPED_WL, 1, "static", "self", 20000000, 20000000,
		  100, 5800000, 7400000, 7600000, 0, 0,
		  (char *)"[[5800,55],[6500,35],[7400,9],[7600,1]]" },
		{ FIX_ESCAPED_WL, 1, "regulated", "self", 20000000, 20000000,
		  100, 6000000, 8000000, 8200000, 0, 0,
		  (char *)"[[6000,60],[7000,30],[8000,9],[8200,1]]" },
	};
	int rc = memcal_db_validation_store(db, &v);

	ids->validation_id = v.id;
	for (size_t i = 0; !rc && i < 3; i++)
		rc = memcal_db_validation_result_store(db, v.id, &res[i]);
	for (size_t i = 0; !rc && i < sizeof(jl) / sizeof(jl[0]); i++)
		rc = memcal_db_job_latency_store(db, v.id, &jl[i]);
	return rc;
}

/**
 * fix_write() - create the database @path afresh and fill it with
 * @fill(@db, @parts, @ids) in one transaction (rolled back on failure).
 * Return: 0 or a db code.
 */
int fix_write(const char *path, fix_fill_fn fill, unsigned parts,
	      struct fix_ids *ids)
{
	char err[512];
	memcal_db *db;
	int rc;

	memset(ids, 0, sizeof(*ids));
	unlink(path);
	rc = memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "fixture: %s\n", err);
		return rc;
	}
	rc = memcal_db_begin(db);
	if (!rc)
		rc = fill(db, parts, ids);
	if (rc) {
		fprintf(stderr, "fixture: %s\n", memcal_db_errmsg(db));
		memcal_db_rollback(db);
	} else {
		rc = memcal_db_commit(db);
	}
	memcal_db_close(db);
	return rc;
}

/* fill_parts - fix_write() filler of fix_create(): the @parts asked. */
static int fill_parts(memcal_db *db, unsigned parts, struct fix_ids *ids)
{
	int rc = 0;

	if (parts & (FIX_BANDWIDTH | FIX_OVERHEAD))
		rc = store_platform(db, ids);
	if (!rc && (parts & FIX_BANDWIDTH))
		rc = store_bandwidth(db, ids);
	if (!rc && (parts & FIX_LATENCY) && ids->run_id)
		rc = store_latency(db, ids);
	if (!rc && (parts & FIX_LATENCY) && ids->run_id)
		rc = store_mix(db, ids);
	if (!rc && (parts & FIX_PMU) && ids->run_id)
		rc = store_pmu(db, ids);
	if (!rc && (parts & FIX_OVERHEAD))
		rc = store_overhead(db, ids);
	if (!rc && (parts & FIX_CONFIG) && ids->platform_id)
		rc = store_config(db, ids);
	if (!rc && (parts & FIX_VALIDATION) && ids->config_id)
		rc = store_validation(db, ids);
	return rc;
}

/**
 * fix_create() - create the database @path holding @parts (FIX_*); 0 for
 * an empty database with the schema only.  Return: 0 or a db code.
 */
int fix_create(const char *path, unsigned parts, struct fix_ids *ids)
{
	return fix_write(path, fill_parts, parts, ids);
}

/**
 * fix_add_config() - store one more tuned configuration, with document
 * @doc (text), for the platform and calibration run of @ids; sets
 * @ids->config_id.  The row's period and master core are the document's
 * (1000 us and CPU 0 when it does not say).  Return: 0 or a db code.
 */
int fix_add_config(const char *path, const char *doc, struct fix_ids *ids)
{
	struct memcal_config c = {
		.platform_id = ids->platform_id, .mix = "golden",
		.calibration_run_id = ids->run_id, .document = (char *)doc,
		.period_us = 1000, .master_cpu = 0,
		.created_at = "2026-01-02T06:30:00Z",
	};
	json_t *d = json_loads(doc, 0, NULL);
	char err[512];
	memcal_db *db;
	int rc;

	if (json_is_integer(json_object_get(d, "period_us")))
		c.period_us = (int)json_integer_value(json_object_get(d,
							"period_us"));
	if (json_is_integer(json_object_get(d, "master_cpu")))
		c.master_cpu = (int)json_integer_value(json_object_get(d,
							"master_cpu"));
	json_decref(d);
	rc = memcal_db_open(path, 0, &db, err, sizeof(err));
	if (rc)
		return rc;
	rc = memcal_db_begin(db);
	if (!rc)
		rc = memcal_db_config_store(db, &c);
	if (!rc)
		rc = memcal_db_commit(db);
	else
		memcal_db_rollback(db);
	ids->config_id = c.id;
	memcal_db_close(db);
	return rc;
}

/**
 * fix_load_tuning() - load configuration @config_id of the database @path
 * into @r as `memtune report` does (read-only).  Return: 0 or a db code.
 */
int fix_load_tuning(const char *path, int64_t config_id, struct report *r)
{
	char err[512];
	memcal_db *db;
	int rc;

	memset(r, 0, sizeof(*r));
	r->tool = "memtune";
	rc = memcal_db_open(path, MEMCAL_DB_OPEN_READONLY, &db, err,
			    sizeof(err));
	if (rc) {
		fprintf(stderr, "fixture: %s\n", err);
		return rc;
	}
	rc = report_load_tuning(r, db, config_id);
	memcal_db_close(db);
	return rc;
}
