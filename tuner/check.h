/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - 'memtune check': does a tuned configuration fit the unit it
 * runs on?  Each item of the configuration's provenance (struct
 * tune_machine, machine.c) is compared with this machine's, then the
 * events are opened and their overflow delivery measured with
 * calibrate's self-check (pmu_delivery.c), then a short all-core read
 * bandwidth measurement (calibrate's quick read kernel) is held against
 * the calibration's figure.  Each item ends pass, warn, fail or skip with
 * a reason a user can act on; an item the configuration carries no
 * provenance for is a warning ("unknown"), never a pass.
 */
#ifndef MEMTUNE_CHECK_H
#define MEMTUNE_CHECK_H

#include <stdbool.h>

#include "tuned_config.h"

/* Default --tolerance: the bandwidth may be this many per cent off. */
#define TUNE_CHECK_TOLERANCE_PCT 10.0
/* Memory sizes this many per cent apart are the same population. */
#define TUNE_CHECK_MEM_SLACK_PCT 5.0

enum tune_verdict {
	TUNE_CHECK_PASS = 0,
	TUNE_CHECK_WARN,
	TUNE_CHECK_FAIL,
	TUNE_CHECK_SKIP,
};

enum tune_check_item_id {
	TUNE_ITEM_CPU_KINDS = 0,
	TUNE_ITEM_PMUS,
	TUNE_ITEM_EVENTS,
	TUNE_ITEM_MEM_SIZE,
	TUNE_ITEM_MEM_TYPE,
	TUNE_ITEM_SMT,
	TUNE_ITEM_KERNEL,
	TUNE_ITEM_MEMREG,
	TUNE_ITEM_BANDWIDTH,
	TUNE_NR_ITEMS,
};

/**
 * struct tune_check_item - one item's outcome.
 * @name:    stable name ("cpu-kinds", "bandwidth"; tune_check_item_name()).
 * @verdict: pass, warn, fail or skip.
 * @reason:  what was compared and, unless it passed, what to do.
 */
struct tune_check_item {
	const char *name;
	enum tune_verdict verdict;
	char reason[768];
};

/**
 * struct tune_check_opts - how to check.
 * @tolerance_pct: the bandwidth item's tolerance, in per cent (0..100).
 * @no_bandwidth:  skip the bandwidth measurement (the item says skipped).
 */
struct tune_check_opts {
	double tolerance_pct;
	bool no_bandwidth;
};

/**
 * struct tune_check - the outcome of a check.
 * @items:        per enum tune_check_item_id.
 * @here:         this machine's items as read.
 * @calibrated_bps, @bw_cpus: the calibration's figure and its CPUs.
 * @measured_bps: the bandwidth item's measurement (0: none taken).
 * @foreign:      share of the machine others used while it ran.
 */
struct tune_check {
	struct tune_check_item items[TUNE_NR_ITEMS];
	struct tune_machine here;
	double calibrated_bps;
	char bw_cpus[64];
	double measured_bps;
	double foreign;
};

const char *tune_check_item_name(enum tune_check_item_id id);
const char *tune_check_verdict_name(enum tune_verdict v);
void tune_machine_probe(struct tune_machine *m);
void tune_check_compare(const struct tune_config *c,
			const struct tune_machine *here,
			const char *memreg_shipped, struct tune_check *r);
void tune_check_events(const struct tune_config *c, struct tune_check *r);
void tune_check_bw_verdict(struct tune_check_item *it, double calibrated,
			   double measured, double tolerance_pct,
			   const char *cpus, double foreign);
void tune_check_bandwidth(const struct tune_config *c,
			  const struct tune_check_opts *o,
			  struct tune_check *r);
void tune_check_run(const struct tune_config *c,
		    const struct tune_check_opts *o, struct tune_check *r);
int tune_check_failed(const struct tune_check *r, char *names, size_t len);
json_t *tune_check_json(const struct tune_check *r,
			const struct tune_check_opts *o);

#endif /* MEMTUNE_CHECK_H */
