// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_share.c - the three sharing modes' decisions in the core: grant
 * (covered at length in test_reclaim.c), spare (MemGuard 2: every CPU
 * released until the period ends) and proportional (MemGuard 5: a new
 * period at once), and the one parser of the setting.
 */
#include <criterion/criterion.h>

#include "reg_helpers.h"

static const uint64_t zero2[2] = { 0, 0 };

/* Two CPUs guaranteed 100 events per class, sharing in @mode. */
static struct memreg *share_setup(uint32_t mode, uint32_t flags)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;

	reg_cfg(&c, 2, 100, 1000, 1000, MEMREG_F_SHARE | flags, 1);
	c.share_mode = mode;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	return r;
}

/* Start period @p on both CPUs and exhaust their read budgets at @used. */
static uint32_t throttle_both(struct memreg *r, uint64_t p, const uint64_t used[2])
{
	struct memreg_arm a;
	uint32_t cpu;

	if (p)
		for (cpu = 0; cpu < 2; cpu++)
			memreg_replenish(r, cpu, p, zero2, 0, &a);
	memreg_overflow(r, 0, MEMREG_READ, used[0], &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	memreg_overflow(r, 1, MEMREG_READ, used[1], &a);
	return a.action;
}

Test(share, parse_accepts_the_modes_and_the_old_booleans)
{
	static const struct {
		const char *s;
		int ok;
		memreg_u32 on, mode;
	} t[] = {
		{ "0", 1, 0, 7 }, { "off", 1, 0, 7 },
		{ "1", 1, 1, MEMREG_SHARE_GRANT }, { "grant", 1, 1, MEMREG_SHARE_GRANT },
		{ "spare", 1, 1, MEMREG_SHARE_SPARE },
		{ "proportional", 1, 1, MEMREG_SHARE_PROPORTIONAL },
		{ "2", 0, 9, 9 }, { "", 0, 9, 9 }, { "spar", 0, 9, 9 },
		{ "spare1", 0, 9, 9 }, { "Grant", 0, 9, 9 },
	};
	struct memreg_cfg c;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memreg_u32 on = 9, mode = t[i].ok && t[i].on == 0 ? 7 : 9;

		cr_expect_eq(memreg_share_parse(t[i].s, &on, &mode) == MEMREG_OK,
			     t[i].ok, "'%s'", t[i].s);
		cr_expect_eq(on, t[i].on, "'%s': on %u", t[i].s, on);
		cr_expect_eq(mode, t[i].mode, "'%s': mode %u", t[i].s, mode);
	}
	cr_expect_str_eq(memreg_share_name(MEMREG_SHARE_SPARE), "spare");
	cr_expect_str_eq(memreg_share_name(MEMREG_SHARE_PROPORTIONAL), "proportional");
	reg_cfg(&c, 2, 100, 1000, 1000, MEMREG_F_SHARE, 1);
	c.share_mode = MEMREG_SHARE_MAX + 1;
	cr_expect_eq(memreg_cfg_validate(&c, NULL), MEMREG_EINVAL);
}

Test(share, spare_releases_every_cpu_until_the_period_ends)
{
	struct memreg *r = share_setup(MEMREG_SHARE_SPARE, 0);
	const uint64_t used[2] = { 100, 104 };
	struct memreg_arm a;
	uint64_t g[2] = { 7, 7 };
	uint32_t cpu;

	memreg_replenish(r, 0, 1, zero2, 0, &a);
	memreg_replenish(r, 1, 1, zero2, 0, &a);
	memreg_overflow(r, 0, MEMREG_READ, 100, &a);
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_ENOSPC, "cpu1 still runs");
	cr_assert_eq(throttle_both(r, 0, used), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_OK);
	cr_assert_eq(g[0], 0, "no grant: a release");
	for (cpu = 0; cpu < 2; cpu++) {
		cr_assert_eq(memreg_accept_share(r, cpu, &a), MEMREG_OK);
		cr_assert_eq(a.action, MEMREG_RUN);
		cr_assert_eq(a.budget[0], MEMREG_BUDGET_INF, "released: no limit");
		cr_assert_eq(a.remaining[0], MEMREG_BUDGET_INF, "do not arm");
		cr_assert_eq(a.remaining[1], MEMREG_BUDGET_INF);
		/* no overflow throttles it again in this period */
		memreg_overflow(r, cpu, MEMREG_READ, 1000000, &a);
		cr_assert_eq(a.action, MEMREG_RUN);
		cr_assert_eq(memreg_accept_share(r, cpu, &a), MEMREG_ENOSPC, "once");
		cr_assert_eq(r->cpu[cpu].stats.released, 1);
		cr_assert_eq(r->cpu[cpu].stats.throttles, 1);
	}
	cr_assert_eq((uint64_t)memreg_atomic64_read(&r->throttled_mask), 0);
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_ENOSPC, "nobody throttled");

	/* the next period is regulated again, and released again when due */
	cr_assert_eq(throttle_both(r, 2, used), MEMREG_THROTTLE_ALL);
	cr_assert_eq(r->cpu[0].budget[0], 100);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_ENOSPC, "not decided yet");
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	cr_assert_eq(memreg_master_share(r, 2, g), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(r->cpu[0].stats.released, 2);
	free(r);
}

Test(share, spare_leaves_an_uncounted_class_alone)
{
	struct memreg *r = share_setup(MEMREG_SHARE_SPARE, MEMREG_F_UNCOUNTED_WRITE);
	const uint64_t used[2] = { 100, 100 };
	struct memreg_arm a;

	cr_assert_eq(throttle_both(r, 1, used), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(a.budget[0], MEMREG_BUDGET_INF);
	cr_assert_eq(a.budget[1], 100, "no counter: its budget stays");
	free(r);
}

Test(share, proportional_starts_a_new_period_at_once)
{
	struct memreg *r = share_setup(MEMREG_SHARE_PROPORTIONAL, 0);
	const uint64_t used[2] = { 100, 103 };
	struct memreg_arm a;
	uint32_t cpu;

	cr_assert_eq(throttle_both(r, 1, used), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_OK);
	/* a second poke before the CPUs took it starts nothing more */
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_ENOSPC);
	for (cpu = 0; cpu < 2; cpu++) {
		cr_assert_eq(memreg_accept_share(r, cpu, &a), MEMREG_OK);
		cr_assert_eq(a.action, MEMREG_RUN);
		cr_assert_eq(a.remaining[0], 100, "the budget replenished");
		cr_assert_eq(a.budget[0], used[cpu] + 100);
		cr_assert_eq(a.remaining[1], 100, "every class");
		cr_assert_eq(memreg_accept_share(r, cpu, &a), MEMREG_ENOSPC, "once");
		cr_assert_eq(r->cpu[cpu].stats.restarts, 1);
		cr_assert_eq(r->cpu[cpu].stats.periods, 1, "the new period counted");
	}
	/* cpu0 exhausts its new budget: not all throttled, nothing starts */
	memreg_overflow(r, 0, MEMREG_READ, 200, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_ENOSPC);
	memreg_overflow(r, 1, MEMREG_READ, 205, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_OK, "the third period");
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(a.remaining[0], 100);
	cr_assert_eq(r->cpu[0].stats.restarts, 2);
	cr_assert_eq(r->cpu[0].stats.throttles, 2);

	/* the grid period ends: everything starts over from 0 */
	memreg_replenish(r, 0, 2, used, 0, &a);
	cr_assert_eq(a.budget[0], 100);
	cr_assert_eq(r->cpu[0].stats.periods, 3, "1 grid period + 2 early ones");
	free(r);
}

Test(share, proportional_waits_for_a_cpu_that_has_not_taken_it)
{
	struct memreg *r = share_setup(MEMREG_SHARE_PROPORTIONAL, 0);
	const uint64_t used[2] = { 100, 100 };
	struct memreg_arm a;

	cr_assert_eq(throttle_both(r, 1, used), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	memreg_overflow(r, 0, MEMREG_READ, 200, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL, "cpu1 has not taken it yet");
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_ENOSPC,
		     "cpu1 did not run its new period yet");
	cr_assert_eq(memreg_accept_share(r, 1, &a), MEMREG_OK);
	cr_assert_eq(r->cpu[1].stats.restarts, 1);
	free(r);
}

Test(share, grant_mode_is_the_default_and_unchanged)
{
	struct memreg *r = share_setup(MEMREG_SHARE_GRANT, 0);
	const uint64_t used[2] = { 100, 100 };
	struct memreg_arm a;
	uint64_t g[2];

	cr_assert_eq(throttle_both(r, 1, used), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_OK);
	cr_assert_eq(g[0], 400);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(a.budget[0], 500);
	cr_assert_eq(r->cpu[0].stats.released + r->cpu[0].stats.restarts, 0);
	free(r);
}

Test(share, a_cpu_behind_the_grid_takes_the_next_periods_release)
{
	struct memreg *r = share_setup(MEMREG_SHARE_SPARE, 0);
	struct memreg_arm a;

	/* cpu0 (the master, a quarter period behind) still in period 1 */
	memreg_replenish(r, 0, 1, zero2, 0, &a);
	memreg_replenish(r, 1, 2, zero2, 0, &a);
	memreg_overflow(r, 0, MEMREG_READ, 100, &a);
	memreg_overflow(r, 1, MEMREG_READ, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 2, NULL), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK,
		     "released for the rest of its period 1");
	cr_assert_eq(a.budget[0], MEMREG_BUDGET_INF);
	cr_assert_eq(memreg_accept_share(r, 1, &a), MEMREG_OK);
	/* its period 2 starts regulated; period 2's release was taken */
	memreg_replenish(r, 0, 2, zero2, 0, &a);
	cr_assert_eq(a.budget[0], 100);
	memreg_overflow(r, 0, MEMREG_READ, 100, &a);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_ENOSPC);
	cr_assert_eq(r->cpu[0].stats.released, 1);
	/* a decision two periods ahead is not taken */
	memreg_replenish(r, 1, 4, zero2, 0, &a);
	memreg_overflow(r, 1, MEMREG_READ, 100, &a);
	cr_assert_eq(memreg_master_share(r, 4, NULL), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_ENOSPC);
	free(r);
}

Test(share, proportional_new_period_for_a_cpu_behind_the_grid)
{
	struct memreg *r = share_setup(MEMREG_SHARE_PROPORTIONAL, 0);
	struct memreg_arm a;

	memreg_replenish(r, 0, 1, zero2, 0, &a);
	memreg_replenish(r, 1, 2, zero2, 0, &a);
	memreg_overflow(r, 0, MEMREG_READ, 100, &a);
	memreg_overflow(r, 1, MEMREG_READ, 100, &a);
	cr_assert_eq(memreg_master_share(r, 2, NULL), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(a.remaining[0], 100);
	cr_assert_eq(memreg_accept_share(r, 1, &a), MEMREG_OK);
	memreg_overflow(r, 0, MEMREG_READ, 200, &a);
	memreg_overflow(r, 1, MEMREG_READ, 200, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 2, NULL), MEMREG_OK,
		     "both took the first new period");
	free(r);
}

Test(share, a_live_mode_change_voids_the_periods_decision)
{
	struct memreg *r = share_setup(MEMREG_SHARE_GRANT, 0);
	const uint64_t used[2] = { 100, 100 };
	struct memreg_cfg c = r->cfg;
	struct memreg_arm a;

	cr_assert_eq(throttle_both(r, 1, used), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_OK, "a grant of 400");
	c.share_mode = MEMREG_SHARE_PROPORTIONAL;
	cr_assert_eq(memreg_update(r, &c, NULL), MEMREG_OK);
	/* the grant's word is not read as 400 new periods already started */
	cr_assert_eq(memreg_master_share(r, 1, NULL), MEMREG_OK);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(a.remaining[0], 100);
	cr_assert_eq(r->cpu[0].stats.restarts, 1);
	free(r);
}
