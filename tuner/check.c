// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - 'memtune check': compare a tuned configuration's provenance
 * with the unit it runs on, item by item (check.h), and render the
 * outcome.
 *
 * File map (private declarations in check_int.h):
 *   check.c            item and verdict names, the whole check
 *                      (tune_check_run()), its failures and its JSON
 *   check_compare.c    the machine items: check_cpus(), check_pmus(),
 *                      check_mem_*(), check_smt(), check_kernel(),
 *                      check_memreg(); tune_check_compare()
 *   check_events.c     tune_check_events(): open the events on their
 *                      CPUs and measure delivery at the budgets' rate
 *   check_bandwidth.c  tune_check_bw_verdict(), tune_check_bandwidth():
 *                      a short read measurement against the calibration
 *   machine.c          this machine's items, as a configuration records
 *                      them (tune_machine_probe())
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "check_int.h"
#include "memreg.h"

static const char *const item_names[TUNE_NR_ITEMS] = {
	"cpu-kinds", "pmus", "events", "memory-size", "memory-type", "smt",
	"kernel", "memreg-version", "bandwidth",
};

/** tune_check_item_name() - the stable name of item @id. */
const char *tune_check_item_name(enum tune_check_item_id id)
{
	return (unsigned)id < TUNE_NR_ITEMS ? item_names[id] : "?";
}

/** tune_check_verdict_name() - "pass", "warn", "fail" or "skip". */
const char *tune_check_verdict_name(enum tune_verdict v)
{
	static const char *const names[] = { "pass", "warn", "fail", "skip" };

	return (unsigned)v < 4 ? names[v] : "?";
}

/**
 * tune_check_run() - the whole check of @c on this machine into @r.
 */
void tune_check_run(const struct tune_config *c,
		    const struct tune_check_opts *o, struct tune_check *r)
{
	memset(r, 0, sizeof(*r));
	tune_machine_probe(&r->here);
	tune_check_compare(c, &r->here, MEMREG_VERSION, r);
	tune_check_events(c, r);
	tune_check_bandwidth(c, o, r);
}

/**
 * tune_check_failed() - how many items failed, their names
 * comma-separated in @names.
 */
int tune_check_failed(const struct tune_check *r, char *names, size_t len)
{
	size_t used = 0;
	int n = 0;

	if (len)
		names[0] = '\0';
	for (int i = 0; i < TUNE_NR_ITEMS; i++)
		if (r->items[i].verdict == TUNE_CHECK_FAIL) {
			n++;
			used += (size_t)snprintf(names + used, used < len ?
						 len - used : 0, "%s%s", used ?
						 ", " : "", item_names[i]);
		}
	return n;
}

/**
 * tune_check_json() - {verdict, failed: [names], tolerance_pct,
 * bandwidth: {calibrated_bps, measured_bps, cpus} | null, items: [{item,
 * verdict, reason}]}; NULL when out of memory.
 */
json_t *tune_check_json(const struct tune_check *r,
			const struct tune_check_opts *o)
{
	json_t *items = json_array(), *failed = json_array(), *bw;
	int warned = 0, nfail = 0;

	for (int i = 0; items && failed && i < TUNE_NR_ITEMS; i++) {
		const struct tune_check_item *it = &r->items[i];

		json_array_append_new(items, json_pack("{s:s,s:s,s:s}", "item",
			item_names[i], "verdict",
			tune_check_verdict_name(it->verdict), "reason",
			it->reason));
		if (it->verdict == TUNE_CHECK_FAIL) {
			nfail++;
			json_array_append_new(failed, json_string(item_names[i]));
		}
		warned += it->verdict == TUNE_CHECK_WARN;
	}
	bw = r->measured_bps > 0 ? json_pack("{s:f,s:f,s:s}", "calibrated_bps",
		r->calibrated_bps, "measured_bps", r->measured_bps, "cpus",
		r->bw_cpus) : json_null();
	return json_pack("{s:s,s:o,s:f,s:b,s:o,s:o}", "verdict", nfail ? "fail" :
			 warned ? "warn" : "pass", "failed", failed ? failed :
			 json_array(), "tolerance_pct", o->tolerance_pct,
			 "bandwidth_checked", !o->no_bandwidth, "bandwidth", bw,
			 "items", items ? items : json_array());
}

