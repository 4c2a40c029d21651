/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * apply.h - drive memreg for memtune: load it with a tuned configuration
 * (module parameters, then sysfs staging and commit), switch monitor-only
 * mode for unregulated comparison runs, read per-CPU throttle statistics.
 * All of it takes a configurable sysfs root, so the tests can run against
 * a fake one (apply_ctl.c does the low-level part through memreg_ctl).
 */
#ifndef MEMTUNE_APPLY_H
#define MEMTUNE_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcal_status.h"
#include "tuned_config.h"

/**
 * struct tune_reg - where memreg lives and how to load it.
 * @sysfs:     sysfs root of memreg (NULL: memreg_ctl's default,
 *             $MEMREG_SYSFS_ROOT or /sys/kernel/memreg).
 * @module:    memreg.ko to load when memreg is not loaded (NULL: look in
 *             /lib/modules/$(uname -r)).
 * @proc_modules: list of loaded modules ("/proc/modules").
 * @loaded_here: (out) this process loaded the module.
 */
struct tune_reg {
	const char *sysfs;
	const char *module;
	const char *proc_modules;
	bool loaded_here;
};

/**
 * struct tune_reg_stats - one CPU's memreg statistics.
 * @throttles:    running -> throttled transitions.
 * @throttled_ns: time throttled.
 * @periods:      periods accounted.
 */
struct tune_reg_stats {
	uint64_t throttles;
	uint64_t throttled_ns;
	uint64_t periods;
};

bool tune_reg_loaded(const struct tune_reg *r);
int tune_reg_check_board(const struct tune_config *c, char *err,
			 size_t errlen);
int tune_reg_apply(struct tune_reg *r, const struct tune_config *c,
		   char *err, size_t errlen);
int tune_reg_monitor(struct tune_reg *r, bool on, char *err, size_t errlen);
int tune_reg_stats(struct tune_reg *r, int cpu, struct tune_reg_stats *s);
int tune_reg_unload(struct tune_reg *r, char *err, size_t errlen);
/* apply_ctl.c: the sysfs / finit_module side. */
int tune_ctl_stage_commit(struct tune_reg *r, const struct tune_config *c,
			  char *err, size_t errlen);
int tune_ctl_load(struct tune_reg *r, const char *ko,
		  const struct tune_config *c, char *err, size_t errlen);

#endif /* MEMTUNE_APPLY_H */
