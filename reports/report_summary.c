// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_summary.c - what a report derives from its overhead points (the
 * master core, the proxy method) and the co-run conditions of a
 * validation; the bandwidth headline figures are figures/'s (fig_bw_at()
 * and its siblings), which `memcal show` prints too.
 */
#include <math.h>
#include <string.h>

#include "report.h"
#include "memcal_figures.h"

/*
 * report_overhead_master() - the master core of the overhead measurements
 * as the stored points say: the master_cpu every point names, or
 * REPORT_NO_MASTER when none does or they name different cores (a sweep
 * that moved the master).
 */
int report_overhead_master(const struct report *r)
{
	int master = REPORT_NO_MASTER;

	for (size_t i = 0; i < r->ovh.n_ov; i++) {
		if (r->ovh.ov[i].master_cpu < 0)
			continue;
		if (master >= 0 && r->ovh.ov[i].master_cpu != master)
			return REPORT_NO_MASTER;
		master = r->ovh.ov[i].master_cpu;
	}
	return master;
}

/* report_overhead_proxy() - any overhead figure comes from the proxy. */
bool report_overhead_proxy(const struct report *r)
{
	for (size_t i = 0; i < r->ovh.n_ov; i++)
		if (!strcmp(r->ovh.ov[i].method, "proxy"))
			return true;
	return false;
}
