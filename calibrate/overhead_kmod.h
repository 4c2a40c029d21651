/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * overhead_kmod.h - can memreg.ko be loaded here, and loading/unloading
 * it in monitor-only mode at a given period and master core, for the
 * real (method "memreg") overhead measurement.
 *
 * libc only (finit_module/delete_module system calls), so the QEMU guest
 * programs build it too.  The probe says in one sentence why the real
 * measurement is impossible: not root, no module support in the running
 * kernel (/proc/modules absent), module file missing, memreg already
 * loaded by someone else, or the load failed with errno.
 */
#ifndef MEMCAL_OVERHEAD_KMOD_H
#define MEMCAL_OVERHEAD_KMOD_H

#include <stddef.h>
#include <stdint.h>

#include "memcal_status.h"

/* Name the module registers (for delete_module and /sys/module). */
#define OVH_MEMREG_NAME	"memreg"

int cal_ovh_kmod_find(const char *hint, char *path, size_t len);
int cal_ovh_kmod_probe(const char *hint, char *path, size_t plen, char *why,
		   size_t wlen);
int cal_ovh_kmod_load(const char *path, unsigned period_us, int master_cpu,
		  const char *extra, char *why, size_t wlen);
int cal_ovh_kmod_unload(char *why, size_t wlen);
int cal_ovh_kmod_loaded(void);
int cal_ovh_kmod_periods(unsigned cpu, uint64_t *val);

#endif /* MEMCAL_OVERHEAD_KMOD_H */
