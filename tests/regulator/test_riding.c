// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_riding.c - the period arithmetic of a master that rides its own
 * period timer (regulator/kmod/master.c): the master CPU's periods start a
 * quarter period after the grid, so its period p reaches into grid period
 * p + 1.  A spare grant of grid period p + 1, decided while the master is
 * still held in its period p, counts the master in its division: the
 * master must be able to take it there, and only once.
 */
#include <criterion/criterion.h>

#include "reg_helpers.h"

static const uint64_t zero2[2] = { 0, 0 };

Test(riding, the_master_takes_the_grant_of_the_grid_period_it_reaches_into)
{
	struct memreg_cfg cfg;
	struct memreg *r = reg_new();
	struct memreg_arm a;
	uint64_t g[2];

	/* CPU 0 on the grid, CPU 1 the riding master; sharing, ceiling 1000 */
	reg_cfg(&cfg, 2, 100, 1000, 1000, MEMREG_F_SHARE | MEMREG_F_UNCOUNTED_WRITE, 1);
	cfg.master_cpu = 1;
	cr_assert_eq(memreg_init(r, &cfg, NULL), MEMREG_OK);

	/* grid 5.00: CPU 0 starts 5; 5.25: the master starts its 5 */
	cr_assert_eq(memreg_replenish(r, 0, 5, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(memreg_replenish(r, 1, 5, zero2, 0, &a), MEMREG_OK);
	/* 5.5: the master exhausts its budget and is held until 6.25 */
	cr_assert_eq(memreg_overflow(r, 1, 0, 100, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	/* 6.00: CPU 0 starts 6 and exhausts it at once: every CPU is held */
	cr_assert_eq(memreg_replenish(r, 0, 6, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(memreg_overflow(r, 0, 0, 100, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 6, g), MEMREG_OK);
	cr_assert_eq(g[0], 400, "(1000 - 2 x 100) / 2: %llu", (unsigned long long)g[0]);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_RUN);
	/* 6.1: the master, still in its period 5, takes its half */
	cr_assert_eq(memreg_accept_share(r, 1, &a), MEMREG_OK,
		     "the master could not take the grant of grid period 6 in its period 5");
	cr_assert_eq(a.action, MEMREG_RUN);
	cr_assert_eq(a.budget[0], 500);
	/* 6.25: the master starts its 6: the grant of 6 is not taken twice */
	cr_assert_eq(memreg_replenish(r, 1, 6, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(memreg_overflow(r, 1, 0, 100, &a), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 1, &a), MEMREG_ENOSPC);
	cr_assert_eq(r->cpu[1].budget[0], 100);
	cr_assert_eq(r->cpu[0].stats.shared[0] + r->cpu[1].stats.shared[0], 800,
		     "the grant of period 6 handed out once per CPU");
	free(r);
}
