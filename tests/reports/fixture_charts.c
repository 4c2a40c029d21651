// SPDX-License-Identifier: GPL-2.0-only
/*
 * fixture_charts.c - a database whose charts need care (see
 * fixture_report.h, fix_create_charts()): a 2-core board whose knee lies
 * past the measured latency curve, an overhead sweep with the master on
 * each core and elsewhere and a livelocked (lower-bound) point, budgets of
 * 1.26 GB/s next to a 75 GB/s ceiling, and a workload trace of 100 us
 * ticks under a 1000 us regulation period.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixture_report.h"
#include "memcal_db.h"
#include "memcal_db_tune.h"

/* charts_calibration - board, a full run and an overhead sweep. */
static int charts_calibration(memcal_db *db, struct fix_ids *ids)
{
	static const int periods[] = { 20, 50, 100, 1000 };
	struct memcal_platform p = {
		.fingerprint = "fixture-charts-0001",
		.hostname = "charts-board",
		.arch = "x86_64", .cpu_model = "fixture EPYC", .kernel = "6.1",
		.packages = 1, .numa_nodes = 1, .cores = 2, .pus = 2,
		.topology_json = "{}",
	};
	struct memcal_run run = {
		.kind = "full", .tool_version = "0.1.0", .params_json = "{}",
		.started_at = "2026-02-01T00:00:00Z",
		.finished_at = "2026-02-01T00:05:00Z", .notes = "",
	};
	struct memcal_run ovr = run;
	struct memcal_sustainable s = {
		.traffic = "read", .bandwidth_bps = 75e9,
		.idle_latency_ns = 100, .bound_ratio = 1.5, .lower_bound = true,
		.criterion = "latency <= 1.5 x idle never exceeded",
	};
	int rc = memcal_db_platform_store(db, &p);

	ids->platform_id = p.id;
	run.platform_id = ovr.platform_id = p.id;
	if (!rc)
		rc = memcal_db_run_store(db, &run);
	ids->run_id = run.id;
	for (int n = 1; !rc && n <= 2; n++) {
		struct memcal_bw bw = {
			.kind = "read", .scope = "aggregate", .n_cpus = n,
			.variant = "avx2", .buffer_bytes = 1 << 26,
			.repetitions = 3, .median_bps = n * 37.5e9,
		};

		snprintf(bw.cpus, sizeof(bw.cpus), n == 1 ? "0" : "0-1");
		bw.min_bps = bw.median_bps * 0.97;
		bw.max_bps = bw.median_bps * 1.02;
		rc = memcal_db_bw_store(db, run.id, &bw);
	}
	/* the curve ends at 14 GB/s; the knee (a lower bound) is 75 GB/s */
	for (int i = 0; !rc && i < 4; i++) {
		struct memcal_latency_point pt = {
			.traffic = "read", .chase_cpu = 0, .load_cpus = 1,
			.pace = i / 3.0, .bandwidth_bps = 14e9 * i / 3,
			.latency_ns = 100 + 3 * i,
		};

		pt.latency_min_ns = pt.latency_ns - 2;
		pt.latency_max_ns = pt.latency_ns + 2;
		rc = memcal_db_latency_store(db, run.id, &pt);
	}
	if (!rc)
		rc = memcal_db_sustainable_store(db, run.id, &s);
	snprintf(ovr.kind, sizeof(ovr.kind), "overhead");
	snprintf(ovr.started_at, sizeof(ovr.started_at),
		 "2026-02-01T01:00:00Z");
	snprintf(ovr.finished_at, sizeof(ovr.finished_at),
		 "2026-02-01T01:10:00Z");
	if (!rc)
		rc = memcal_db_run_store(db, &ovr);
	ids->overhead_run_id = ovr.id;
	/* each core with the master elsewhere, then on itself */
	for (int cpu = 0; !rc && cpu < 2; cpu++)
		for (int on = 0; !rc && on < 2; on++)
			for (int i = 0; !rc && i < 4; i++) {
				double cost = on ? 18.0 + 6 * cpu : 2.0 + cpu;
				struct memcal_overhead_point pt = {
					.cpu = cpu, .period_us = periods[i],
					.benchmark = "compute",
					.method = "proxy",
					.master_cpu = on ? cpu : 1 - cpu,
					.repetitions = 3,
					.ratio_median = 1 + cost / periods[i],
					/* cpu 1 livelocks at 20 us */
					.lower_bound = on && cpu == 1 && !i,
				};

				pt.ratio_min = pt.ratio_median * 0.99;
				pt.ratio_max = pt.ratio_median * 1.01;
				rc = memcal_db_overhead_store(db, ovr.id, &pt);
			}
	return rc;
}

/* The document: LMS on, 1000 us, budgets 1.26 and 3 GB/s. */
static const char charts_doc[] =
	"{\"format\":\"memcal.tuned-config\",\"version\":1,\"mix\":\"charts\","
	"\"period_us\":1000,\"master_cpu\":1,"
	"\"modes\":{\"lms\":true,\"reclaim\":true,\"share\":false,"
	"\"monitor\":false},"
	"\"lms\":{\"taps\":4,\"mu\":0.5,\"mu_q16\":32768,\"headroom_pct\":20,"
	"\"headroom_q16\":13107},"
	"\"counters\":{\"read\":{\"bytes_per_event\":64},"
	"\"write\":{\"bytes_per_event\":64}},"
	"\"cpus\":[{\"cpu\":0,\"role\":\"rt\",\"regulated\":true,"
	"\"workloads\":[\"control\"],\"read\":{\"guaranteed_bps\":1.26e9},"
	"\"write\":{\"guaranteed_bps\":0.6e9}},"
	"{\"cpu\":1,\"role\":\"be\",\"regulated\":true,\"master\":true,"
	"\"workloads\":[\"stream\"],\"read\":{\"guaranteed_bps\":3e9},"
	"\"write\":{\"guaranteed_bps\":1.5e9}}],"
	"\"explain\":[],\"warnings\":[]}";

/* charts_tuning - a profile of 100 us ticks and the configuration. */
static int charts_tuning(memcal_db *db, struct fix_ids *ids)
{
	static uint64_t rd[FIX_CHARTS_TICKS], wr[FIX_CHARTS_TICKS];
	struct memcal_profile p = {
		.platform_id = ids->platform_id, .mix = "charts",
		.workload = "control", .argv_json = "[\"control\"]",
		.criticality = "rt", .cpu = 0, .runs = 1,
		.exec_median_ns = 1e8, .exec_min_ns = 1e8, .exec_max_ns = 1e8,
		.trace_source = "declared", .trace_period_us = 100,
		.trace_len = FIX_CHARTS_TICKS, .trace_read = rd,
		.trace_write = wr, .created_at = "2026-02-01T02:00:00Z",
	};
	struct memcal_config c = {
		.platform_id = ids->platform_id, .mix = "charts",
		.document = (char *)charts_doc, .period_us = 1000,
		.master_cpu = 1, .created_at = "2026-02-01T03:00:00Z",
		.n_profiles = 1,
	};
	int rc;

	for (int i = 0; i < FIX_CHARTS_TICKS; i++) {
		rd[i] = fix_charts_tick(i);
		wr[i] = rd[i] / 4;
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
 * fix_charts_tick() - bytes the fixture's trace reads in tick @i: a slow
 * wave with noise from tick to tick, so that 100 us ticks and 1000 us
 * periods look different.
 */
uint64_t fix_charts_tick(int i)
{
	return (uint64_t)(150e3 + 60e3 * sin(i / 40.0) + (i % 7) * 9e3);
}

/* fill_charts - fix_write() filler of fix_create_charts(). */
static int fill_charts(memcal_db *db, unsigned parts, struct fix_ids *ids)
{
	int rc = charts_calibration(db, ids);

	(void)parts;
	return rc ? rc : charts_tuning(db, ids);
}

/**
 * fix_create_charts() - create the database @path described above.
 * Return: 0 or a db code.
 */
int fix_create_charts(const char *path, struct fix_ids *ids)
{
	return fix_write(path, fill_charts, 0, ids);
}
