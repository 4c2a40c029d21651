// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_master.c - choose the master core, the one that runs the NLMS
 * update, the pool bookkeeping and spare sharing.  The reproduction of
 * MemGuard's overhead showed the task on the master core of a centralised
 * design paying 1.79x at 32 us, against 1.05-1.09x elsewhere: so the
 * master never sits on a real-time core, and among the others it goes
 * where it costs least: the measured per-period overhead of that core plus
 * its load (each best-effort workload on it counts one busy core).
 */
#include <stdio.h>
#include <string.h>

#include "plan.h"

/**
 * tune_plan_master() - set @out->master_cpu and explain the choice.
 * @cpu_of: per workload, its CPU (from tune_plan_assign()).
 *
 * Return: MEMCAL_OK, or MEMCAL_EINVAL when every core hosts real-time work.
 */
int tune_plan_master(const struct plan_input *in, const int *cpu_of,
		struct tune_config *out, char *err, size_t errlen)
{
	const struct mix *m = in->mix;
	double load[TUNE_MAX_CPUS] = { 0 };
	bool rt[TUNE_MAX_CPUS] = { false };
	int best = -1;
	double best_cost = 0;

	for (int i = 0; i < m->n; i++) {
		if (m->wl[i].rt)
			rt[cpu_of[i]] = true;
		else
			load[cpu_of[i]] += 1.0;
	}
	for (int c = 0; c < in->nr_cpus; c++) {
		/* overhead as a fraction of the core at a 1 ms reference */
		double cost = in->overhead_ns[c] / 1e6 + load[c];

		if (rt[c])
			continue;
		if (best < 0 || cost < best_cost - 1e-12) {
			best = c;
			best_cost = cost;
		}
	}
	if (best < 0) {
		snprintf(err, errlen, "every core runs a real-time workload, so "
			 "no core is left for the master: make one workload "
			 "best-effort or leave one core free");
		return MEMCAL_EINVAL;
	}
	out->master_cpu = best;
	tune_config_reason(out, TUNE_REASON_MASTER, "master core %d: not a "
		      "real-time core; cheapest by measured overhead (%.1f us "
		      "per period, %s) plus load (%.0f best-effort workload%s "
		      "on it)", best, in->overhead_ns[best] / 1000.0,
		      in->overhead_method, load[best],
		      load[best] == 1.0 ? "" : "s");
	return MEMCAL_OK;
}
