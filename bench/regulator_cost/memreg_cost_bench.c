// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * memreg_cost_bench.c - drive the regulator core's hot paths in a loop so
 * that run_callgrind.sh can count instructions per call with callgrind.
 *
 * usage: memreg_cost_bench plain|lms|reclaim|full [PERIODS]
 *   plain    static budgets: no LMS, no reclaim, no sharing
 *   lms      LMS-published budgets (N = 4)
 *   reclaim  static budgets + reclaim pool
 *   full     LMS + reclaim + sharing, the most work per call
 *
 * Each period: 4 CPUs replenish (CPU 2 and 3 idle, so they donate), the
 * master ticks (8 LMS updates, N = 4), CPUs 0 and 1 overflow until they
 * throttle (taking from the pool first in "full").  Prints the number of
 * calls of each entry point so the script can divide the inclusive
 * instruction counts by them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memreg.h"

#define NCPU 4

/* Demand of @cpu in period @p: CPUs 0/1 busy and varying, 2/3 idle. */
static memreg_u64 demand(memreg_u32 cpu, memreg_u64 p)
{
	if (cpu >= 2)
		return p % 7;
	return 9000 + (p * 7919 + cpu * 104729) % 4000;
}

int main(int argc, char **argv)
{
	static struct memreg r;
	struct memreg_cfg cfg;
	struct memreg_arm a;
	unsigned long periods = argc > 2 ? strtoul(argv[2], NULL, 10) : 20000;
	unsigned long n_rep = 0, n_ovf = 0, n_tick = 0, n_lms = 0;
	memreg_u64 used[NCPU][2];
	const char *mode = argc > 1 ? argv[1] : "";
	memreg_u32 flags;
	memreg_u32 cpu, c;
	memreg_u64 p;
	const char *why;

	if (!strcmp(mode, "plain")) {
		flags = 0;
	} else if (!strcmp(mode, "lms")) {
		flags = MEMREG_F_LMS;
	} else if (!strcmp(mode, "reclaim")) {
		flags = MEMREG_F_RECLAIM;
	} else if (!strcmp(mode, "full")) {
		flags = MEMREG_F_LMS | MEMREG_F_RECLAIM | MEMREG_F_SHARE;
	} else {
		fprintf(stderr, "usage: %s plain|lms|reclaim|full [PERIODS]\n", argv[0]);
		return 2;
	}
	memreg_cfg_defaults(&cfg, NCPU);
	cfg.flags = flags;
	cfg.lms.taps = 4;
	cfg.reclaim_quantum = 2000;
	for (c = 0; c < 2; c++) {
		cfg.platform_ceiling[c] = 40000;
		for (cpu = 0; cpu < NCPU; cpu++) {
			cfg.cpu[cpu].guaranteed[c] = 8000;
			cfg.cpu[cpu].ceiling[c] = 20000;
		}
		cfg.lms.cold_start[c] = 8000;
	}
	if (memreg_init(&r, &cfg, &why)) {
		fprintf(stderr, "config refused: %s\n", why);
		return 1;
	}
	memset(used, 0, sizeof(used));
	for (p = 0; p < periods; p++) {
		for (cpu = 0; cpu < NCPU; cpu++) {
			memreg_replenish(&r, cpu, p, used[cpu], 1000, &a);
			n_rep++;
			used[cpu][0] = used[cpu][1] = demand(cpu, p);
		}
		memreg_master_tick(&r, p);
		n_tick++;
		n_lms += (p > 0) * NCPU * 2;
		for (cpu = 0; cpu < 2; cpu++) {
			memreg_u64 u = r.cpu[cpu].budget[0];

			for (;;) {
				memreg_overflow(&r, cpu, MEMREG_READ, u, &a);
				n_ovf++;
				if (a.action != MEMREG_RUN)
					break;
				u = a.budget[0];
			}
			if (u > used[cpu][0])
				used[cpu][0] = u;
		}
	}
	printf("mode=%s periods=%lu replenish=%lu overflow=%lu master_tick=%lu lms_update=%lu\n",
	       mode, periods, n_rep, n_ovf, n_tick, n_lms);
	return 0;
}
