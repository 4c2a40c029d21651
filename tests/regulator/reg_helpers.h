/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * reg_helpers.h - small builders shared by the regulator unit tests.
 */
#ifndef REG_HELPERS_H
#define REG_HELPERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memreg.h"

/*
 * A configuration for @n CPUs, each guaranteed @g events per class, per-CPU
 * ceilings @ceil, platform ceiling @plat, @flags, quantum @q.
 */
static inline void reg_cfg(struct memreg_cfg *cfg, uint32_t n, uint64_t g,
			   uint64_t ceil, uint64_t plat, uint32_t flags,
			   uint32_t q)
{
	uint32_t cpu, c;

	memreg_cfg_defaults(cfg, n);
	cfg->flags = flags;
	cfg->reclaim_quantum = q;
	for (c = 0; c < MEMREG_NR_CLASSES; c++) {
		cfg->platform_ceiling[c] = plat;
		cfg->lms.cold_start[c] = g;
		for (cpu = 0; cpu < n; cpu++) {
			cfg->cpu[cpu].guaranteed[c] = g;
			cfg->cpu[cpu].ceiling[c] = ceil;
		}
	}
}

/* A zeroed, heap-allocated struct memreg (it is ~43 KiB). */
static inline struct memreg *reg_new(void)
{
	struct memreg *r = calloc(1, sizeof(*r));

	return r;
}

/* Deterministic pseudo-random numbers (xorshift64). */
static inline uint64_t reg_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

#endif /* REG_HELPERS_H */
