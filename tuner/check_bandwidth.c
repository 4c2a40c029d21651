// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_bandwidth.c - the bandwidth item of 'memtune check': a short
 * all-core read measurement (calibrate's quick read kernel) held against
 * the calibration's figure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check_int.h"
#include "cli.h"
#include "measure.h"
#include "memcal_platform.h"

/**
 * tune_check_bw_verdict() - the bandwidth item from the calibration's
 * figure @calibrated and the unit's @measured (bytes/s), within
 * @tolerance_pct either way: below fails (the guarantees assume memory
 * this unit does not have), above warns (the budgets are conservative).
 * @cpus: where it was measured; @foreign: share of the machine others
 * used meanwhile (named when it could explain a failure).
 */
void tune_check_bw_verdict(struct tune_check_item *it, double calibrated,
			   double measured, double tolerance_pct,
			   const char *cpus, double foreign)
{
	double dev = 100.0 * (measured - calibrated) / calibrated;
	char busy[160] = "";

	it->name = tune_check_item_name(TUNE_ITEM_BANDWIDTH);
	if (foreign > MEMCAL_FOREIGN_WARN)
		snprintf(busy, sizeof(busy), " (other programs used %.0f %% "
			 "of the machine meanwhile: check again on an idle "
			 "unit)", 100 * foreign);
	if (dev < -tolerance_pct) {
		it->verdict = TUNE_CHECK_FAIL;
		snprintf(it->reason, sizeof(it->reason), "read bandwidth on "
			 "CPUs %s is %.2f GB/s, %.0f %% below the "
			 "calibration's %.2f GB/s (tolerance %g %%): this "
			 "unit's memory is slower than the tuned board's "
			 "(population, speed or a fault) and the guarantees "
			 "would not hold; check its memory or re-tune on it%s",
			 cpus, measured / 1e9, -dev, calibrated / 1e9,
			 tolerance_pct, busy);
	} else if (dev > tolerance_pct) {
		it->verdict = TUNE_CHECK_WARN;
		snprintf(it->reason, sizeof(it->reason), "read bandwidth on "
			 "CPUs %s is %.2f GB/s, %.0f %% above the "
			 "calibration's %.2f GB/s (tolerance %g %%): the "
			 "budgets are conservative here; re-tune to use the "
			 "difference", cpus, measured / 1e9, dev,
			 calibrated / 1e9, tolerance_pct);
	} else {
		it->verdict = TUNE_CHECK_PASS;
		snprintf(it->reason, sizeof(it->reason), "read bandwidth on "
			 "CPUs %s is %.2f GB/s, within %g %% of the "
			 "calibration's %.2f GB/s (%+.0f %%)", cpus,
			 measured / 1e9, tolerance_pct, calibrated / 1e9, dev);
	}
}

/*
 * measure_read - all-core read bandwidth on @cpus; 0 or a MEMCAL_E* code
 * with @err.  A few seconds, not a calibration: together the buffers
 * cover twice the last-level cache (a streaming read that large misses
 * it), at least 64 MiB each, where the calibration's quick run gives each
 * CPU four times the cache; never more than @cal_bytes, the calibration's
 * own buffer (0: unknown), so that a calibration made with small buffers
 * (--size) is compared like with like.
 */
static int measure_read(const unsigned *cpus, unsigned n, uint64_t cal_bytes,
			double *bps, double *foreign, char *err,
			size_t errlen)
{
	struct memcal_bw_spec s = { .op = MEMCAL_OP_READ, .n_use = n,
				    .reps = 3, .warmup = 1, .passes = 1 };
	struct memcal_bench *b = calloc(1, sizeof(*b));
	struct memcal_topology t;
	struct memcal_bw_result res;
	uint64_t bytes = MEMCAL_BUF_MIN_BYTES;
	int rc;

	if (!b) {
		snprintf(err, errlen, "out of memory");
		return MEMCAL_ENOMEM;
	}
	rc = memcal_platform_topology_load(&t, NULL, err, errlen);
	if (rc)
		goto out_free;
	for (unsigned i = 0; i < n; i++) {
		uint64_t llc = cal_buffer_default_size(&t, cpus[i], true) /
			       MEMCAL_BUF_LLC_FACTOR_QUICK;

		if (2 * llc / n > bytes)
			bytes = 2 * llc / n;
	}
	if (cal_bytes && cal_bytes < bytes)
		bytes = cal_bytes;
	rc = cal_bench_init(b, &t, cpus, n, (size_t)bytes, err, errlen);
	if (rc)
		goto out_topo;
	rc = cal_measure_bw(b, &s, &res, err, errlen);
	if (!rc) {
		*bps = res.agg.median;
		*foreign = res.foreign;
	}
	cal_bench_fini(b);
out_topo:
	memcal_platform_topology_free(&t);
out_free:
	free(b);
	return rc;
}

/**
 * tune_check_bandwidth() - measure the read bandwidth where the
 * calibration measured its figure and judge it (tune_check_bw_verdict()).
 */
void tune_check_bandwidth(const struct tune_config *c,
			  const struct tune_check_opts *o,
			  struct tune_check *r)
{
	const struct tune_machine *cfg = &c->machine;
	uint32_t cpus[TUNE_MACHINE_MAX_CPUS];
	unsigned ucpus[TUNE_MACHINE_MAX_CPUS];
	char err[512];
	const char *why;
	size_t n = 0;

	if (o->no_bandwidth) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_SKIP, "skipped "
		    "(--no-bandwidth): the unit's bandwidth was not compared "
		    "with the calibration's");
		return;
	}
	if (!(cfg->bw_read_bps > 0) || !cfg->bw_cpus[0]) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_WARN, "unknown: the "
		    "configuration carries no calibration bandwidth figure "
		    "(planned by an older memtune, or from a calibration "
		    "without an all-core read measurement); plan it again");
		return;
	}
	if (cli_parse_u32_list(cfg->bw_cpus, 0, 4095, cpus,
			       TUNE_MACHINE_MAX_CPUS, &n, &why) || !n) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_FAIL, "the "
		    "configuration's bandwidth CPUs '%s' are not a CPU list",
		    cfg->bw_cpus);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!tune_check_find_cpu(&r->here, (int)cpus[i])) {
			set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_FAIL, "the "
			    "calibration measured on CPUs %s; this unit has no "
			    "CPU %u: re-tune on this board type", cfg->bw_cpus,
			    cpus[i]);
			return;
		}
		ucpus[i] = cpus[i];
	}
	r->calibrated_bps = cfg->bw_read_bps;
	snprintf(r->bw_cpus, sizeof(r->bw_cpus), "%s", cfg->bw_cpus);
	if (measure_read(ucpus, (unsigned)n, cfg->bw_buffer_bytes,
			 &r->measured_bps, &r->foreign, err, sizeof(err))) {
		set(r, TUNE_ITEM_BANDWIDTH, TUNE_CHECK_FAIL, "cannot measure "
		    "the read bandwidth on CPUs %s: %s", cfg->bw_cpus, err);
		return;
	}
	tune_check_bw_verdict(&r->items[TUNE_ITEM_BANDWIDTH], cfg->bw_read_bps,
			      r->measured_bps, o->tolerance_pct, cfg->bw_cpus,
			      r->foreign);
}
