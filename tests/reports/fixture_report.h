/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fixture_report.h - databases for the report tests, built with the db/
 * API only: a 4-core board with a full calibration (bandwidth 1..4 cores,
 * latency curves with a knee, sustainable bandwidth, PMU "no PMU"), an
 * overhead run (per core x period, master core 0, proxy method), a tuned
 * configuration document, a workload profile with a trace, and a
 * validation run.  Parts can be left out to make partial databases.
 */
#ifndef MEMCAL_FIXTURE_REPORT_H
#define MEMCAL_FIXTURE_REPORT_H

#include <stdint.h>

#define FIX_BANDWIDTH	0x01	/* platform + full run with bandwidth */
#define FIX_LATENCY	0x02	/* latency points and sustainable bw */
#define FIX_PMU		0x04	/* PMU status "no PMU" */
#define FIX_OVERHEAD	0x08	/* overhead run */
#define FIX_CONFIG	0x10	/* profile + tuned config */
#define FIX_VALIDATION	0x20	/* validation run of the config */
#define FIX_ALL		0x3f

/* Values the tests compare the report with. */
#define FIX_HOST	"fixture-board"
#define FIX_SUS_READ	18e9
#define FIX_SUS_WRITE	9e9
#define FIX_PEAK_READ	26e9
#define FIX_PERIOD_US	1000
#define FIX_MASTER	0
#define FIX_ESCAPED_WL	"radar & <fft>"

/**
 * struct fix_ids - rows fix_create() stored (0 when left out).
 * @platform_id, @run_id, @overhead_run_id, @profile_id, @config_id,
 * @validation_id: row ids.
 */
struct fix_ids {
	int64_t platform_id, run_id, overhead_run_id;
	int64_t profile_id, config_id, validation_id;
};

int fix_create(const char *path, unsigned parts, struct fix_ids *ids);

struct memcal_db;
typedef int (*fix_fill_fn)(struct memcal_db *db, unsigned parts,
			   struct fix_ids *ids);
int fix_write(const char *path, fix_fill_fn fill, unsigned parts,
	      struct fix_ids *ids);

/* fixture_charts.c: the database whose charts need care. */
#define FIX_CHARTS_TICKS 2000	/* 100 us ticks: 200 periods of 1 ms */
int fix_create_charts(const char *path, struct fix_ids *ids);
uint64_t fix_charts_tick(int i);
int fix_add_config(const char *path, const char *doc, struct fix_ids *ids);
const char *fix_tmpdir(void);

struct report;
int fix_load_tuning(const char *path, int64_t config_id, struct report *r);

#endif /* MEMCAL_FIXTURE_REPORT_H */
