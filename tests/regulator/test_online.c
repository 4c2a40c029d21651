// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_online.c - a regulated CPU offline and back (memreg_cpu_set_online()):
 * spare sharing, the master's platform sums and reclaim count only the
 * CPUs that are there.
 */
#include <criterion/criterion.h>

#include "memreg_internal.h"	/* memreg_pool_available() */
#include "reg_helpers.h"

static const uint64_t zero2[2] = { 0, 0 };

/* Three CPUs guaranteed 100 each, sharing under a ceiling of 1000. */
static struct memreg *three_sharing(void)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;

	reg_cfg(&c, 3, 100, 1000, 1000, MEMREG_F_SHARE, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	return r;
}

Test(online, sharing_triggers_with_an_unthrottled_cpu_offline)
{
	struct memreg *r = three_sharing();
	struct memreg_arm a;
	uint64_t g[2];

	cr_assert_eq(memreg_cpu_set_online(r, 2, 0), MEMREG_OK);
	memreg_replenish(r, 0, 1, zero2, 0, &a);
	memreg_replenish(r, 1, 1, zero2, 0, &a);
	memreg_overflow(r, 0, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	memreg_overflow(r, 1, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL, "cpu 2 is away: every CPU there is throttled");
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_OK);
	cr_assert_eq(g[0], 400, "(1000 - 2 x 100) / 2 CPUs online, not 3: %lu",
		     (unsigned long)g[0]);
	free(r);
}

Test(online, a_cpu_back_online_counts_again)
{
	struct memreg *r = three_sharing();
	struct memreg_arm a;
	uint64_t g[2];

	memreg_cpu_set_online(r, 2, 0);
	memreg_cpu_set_online(r, 2, 1);
	memreg_replenish(r, 0, 1, zero2, 0, &a);
	memreg_replenish(r, 1, 1, zero2, 0, &a);
	memreg_replenish(r, 2, 1, zero2, 0, &a);
	memreg_overflow(r, 0, 0, 100, &a);
	memreg_overflow(r, 1, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE, "cpu 2 is back and running");
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_ENOSPC);
	memreg_overflow(r, 2, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_OK);
	cr_assert_eq(g[0], 233, "(1000 - 300) / 3");
	free(r);
}

Test(online, offline_throttled_cpu_leaves_the_throttled_mask)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;

	reg_cfg(&c, 2, 100, 1000, 1000, MEMREG_F_SHARE, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	memreg_replenish(r, 1, 1, zero2, 0, &a);
	memreg_overflow(r, 1, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	memreg_cpu_set_online(r, 1, 0);
	cr_assert_eq((uint64_t)memreg_atomic64_read(&r->throttled_mask), 0);
	cr_assert_eq(memreg_cpu_set_online(r, 5, 0), MEMREG_ENODEV, "not regulated");
	free(r);
}

Test(online, no_overrun_counted_for_the_time_away)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint64_t used[2] = { 50, 0 };

	reg_cfg(&c, 2, 100, 1000, 1000, 0, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	memreg_replenish(r, 1, 1, zero2, 0, &a);
	memreg_replenish(r, 1, 2, used, 0, &a);
	memreg_cpu_set_online(r, 1, 0);
	memreg_cpu_set_online(r, 1, 1);
	cr_assert_eq(memreg_replenish(r, 1, 500, used, 0, &a), MEMREG_OK);
	cr_assert_eq(r->cpu[1].stats.overruns, 0, "498 periods away are no overrun");
	cr_assert_eq(r->cpu[1].stats.periods, 1);
	cr_assert_eq(memreg_replenish(r, 1, 501, used, 0, &a), MEMREG_OK);
	cr_assert_eq(r->cpu[1].stats.periods, 2);
	free(r);
}

/* Replenish every CPU in @on at period @p with demand @d, then the master. */
static void lms_period(struct memreg *r, uint64_t p, uint32_t on, uint64_t d,
		       struct memreg_arm *a)
{
	uint64_t used[2] = { d, d };
	uint32_t cpu;

	for (cpu = 0; cpu < 2; cpu++)
		if ((on >> cpu) & 1)
			memreg_replenish(r, cpu, p, used, 0, &a[cpu]);
	memreg_master_tick(r, p);
}

Test(online, stale_prediction_of_an_offline_cpu_leaves_the_platform_sum)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a[2];
	uint64_t p;

	reg_cfg(&c, 2, 100, 900, 1000, MEMREG_F_LMS, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	for (p = 0; p < 40; p++)
		lms_period(r, p, 3, 800, a);
	/* both predict ~880: scaled to 100 + 780 * 800 / 1560 each */
	cr_assert_leq(a[0].budget[0], 520, "scaled: %lu", (unsigned long)a[0].budget[0]);
	cr_assert_geq(a[0].budget[0], 480, "scaled: %lu", (unsigned long)a[0].budget[0]);
	memreg_cpu_set_online(r, 1, 0);
	for (; p < 45; p++)
		lms_period(r, p, 1, 800, a);
	cr_assert_geq(a[0].budget[0], 850, "cpu 1 is away, its prediction no longer counts: %lu",
		      (unsigned long)a[0].budget[0]);
	cr_assert_leq(a[0].budget[0], 900);
	free(r);
}

Test(online, offline_cpu_guarantee_goes_to_the_pool)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a[2];
	uint64_t p, got;

	reg_cfg(&c, 2, 100, 200, 200, MEMREG_F_RECLAIM, 10);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	memreg_cpu_set_online(r, 1, 0);
	for (p = 0; p < 4; p++)
		lms_period(r, p, 1, 100, a);
	cr_assert_eq(a[0].budget[0], 100, "cpu 0 used all of it: keeps it");
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 3), 100, "cpu 1's guarantee");
	got = a[0].budget[0];
	while (a[0].action == MEMREG_RUN) {
		memreg_overflow(r, 0, 0, got, &a[0]);
		got = a[0].budget[0];
	}
	cr_assert_eq(got, 200, "the whole platform while cpu 1 is away");
	cr_assert_eq(r->cpu[0].stats.reclaimed[0], 100);
	free(r);
}
