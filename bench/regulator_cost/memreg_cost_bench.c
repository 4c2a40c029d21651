// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * memreg_cost_bench.c - drive the regulator core's hot paths in a loop so
 * that run_callgrind.sh can count instructions per call with callgrind.
 *
 * usage: memreg_cost_bench plain|lms|reclaim|full [PERIODS [CPUS [vary|steady]]]
 *   plain    static budgets: no LMS, no reclaim, no sharing
 *   lms      LMS-published budgets (N = 4)
 *   reclaim  static budgets + reclaim pool
 *   full     LMS + reclaim + sharing, the most work per call
 *
 * Each period: CPUS CPUs (default 4, 1..64) replenish, the master ticks
 * (2 LMS updates per CPU, N = 4), the busy half of the CPUs (at least
 * one) overflow until they throttle (taking from the pool first under
 * reclaim).  Workload "vary" (default): the busy CPUs' demand varies
 * around their budget, the idle ones use a few events (p mod 7), so they
 * donate.  "steady": the busy CPUs use a constant amount below their
 * budget and the idle ones nothing, the steady state of a monitored
 * system (nothing changes from period to period).  Prints the number of
 * calls of each entry point so the script can divide the inclusive
 * instruction counts by them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memreg.h"

/* Demand of @cpu in period @p; the first @busy CPUs are the busy ones. */
static memreg_u64 demand(memreg_u32 cpu, memreg_u32 busy, int steady,
			 memreg_u64 p)
{
	if (steady)
		return cpu < busy ? 6000 : 0;
	if (cpu >= busy)
		return p % 7;
	return 9000 + (p * 7919 + cpu * 104729) % 4000;
}

int main(int argc, char **argv)
{
	static struct memreg r;
	struct memreg_cfg cfg;
	struct memreg_arm a;
	unsigned long periods = argc > 2 ? strtoul(argv[2], NULL, 10) : 20000;
	unsigned long ncpu = argc > 3 ? strtoul(argv[3], NULL, 10) : 4;
	const char *load = argc > 4 ? argv[4] : "vary";
	unsigned long n_rep = 0, n_ovf = 0, n_tick = 0, n_lms = 0;
	memreg_u64 used[MEMREG_MAX_CPUS][2];
	const char *mode = argc > 1 ? argv[1] : "";
	memreg_u32 flags, busy, cpu, c;
	int steady = !strcmp(load, "steady");
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
		flags = ~0U;
	}
	if (flags == ~0U || ncpu < 1 || ncpu > MEMREG_MAX_CPUS ||
	    (!steady && strcmp(load, "vary"))) {
		fprintf(stderr, "usage: %s plain|lms|reclaim|full [PERIODS [CPUS 1..%d "
			"[vary|steady]]]\n", argv[0], MEMREG_MAX_CPUS);
		return 2;
	}
	busy = ncpu > 1 ? (memreg_u32)ncpu / 2 : 1;
	memreg_cfg_defaults(&cfg, (memreg_u32)ncpu);
	cfg.flags = flags;
	cfg.lms.taps = 4;
	cfg.reclaim_quantum = 2000;
	for (c = 0; c < 2; c++) {
		cfg.platform_ceiling[c] = 10000 * ncpu;
		for (cpu = 0; cpu < ncpu; cpu++) {
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
		for (cpu = 0; cpu < ncpu; cpu++) {
			memreg_replenish(&r, cpu, p, used[cpu], 1000, &a);
			n_rep++;
			used[cpu][0] = used[cpu][1] = demand(cpu, busy, steady, p);
		}
		memreg_master_tick(&r, p);
		n_tick++;
		n_lms += (p > 0) * ncpu * 2;
		for (cpu = 0; cpu < busy && !steady; cpu++) {
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
	printf("mode=%s cpus=%lu load=%s periods=%lu replenish=%lu overflow=%lu "
	       "master_tick=%lu lms_update=%lu\n",
	       mode, ncpu, load, periods, n_rep, n_ovf, n_tick, n_lms);
	return 0;
}
