// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * update.c - changing the budgets and parameters of a running regulator
 * without re-initialising it (memreg_update()).
 */
#include "memreg_internal.h"

/* Flags whose change needs memreg_init(): what the glue counts. */
#define MEMREG_F_FIXED	(MEMREG_F_MONITOR | MEMREG_F_UNCOUNTED_READ | \
			 MEMREG_F_UNCOUNTED_WRITE)

int memreg_update(struct memreg *r, const struct memreg_cfg *cfg,
		  const char **why)
{
	const struct memreg_cfg *old = &r->cfg;
	memreg_u32 cpu, cls;
	int retap, ret = memreg_cfg_validate(cfg, why);

	if (ret)
		return ret;
	if (cfg->period_ns != old->period_ns || cfg->nr_cpus != old->nr_cpus ||
	    cfg->master_cpu != old->master_cpu ||
	    (cfg->flags & MEMREG_F_FIXED) != (old->flags & MEMREG_F_FIXED)) {
		if (why)
			*why = "the period, CPUs, master CPU, monitor mode or "
			       "counted classes changed: re-initialise";
		return MEMREG_EINVAL;
	}
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		if (!cfg->cpu[cpu].active != !old->cpu[cpu].active) {
			if (why)
				*why = "the set of regulated CPUs changed: "
				       "re-initialise";
			return MEMREG_EINVAL;
		}
	}
	/* the predictors' history only means something for the same taps */
	retap = cfg->lms.taps != old->lms.taps;
	/* a share word means something else in another sharing mode */
	if (cfg->share_mode != old->share_mode)
		for (cls = 0; cls < MEMREG_NR_CLASSES; cls++)
			memreg_atomic64_set(&r->share[cls], 0);
	r->cfg = *cfg;
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		if (!cfg->cpu[cpu].active)
			continue;
		for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
			r->cpu[cpu].guaranteed[cls] = cfg->cpu[cpu].guaranteed[cls];
			r->cpu[cpu].ceiling[cls] = cfg->cpu[cpu].ceiling[cls];
			if (retap)
				memreg_lms_init(&r->cpu[cpu].lms[cls], cfg->lms.taps,
						2, cfg->lms.cold_start[cls]);
		}
	}
	if (why)
		*why = "";
	return MEMREG_OK;
}
