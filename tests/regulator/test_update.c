// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_update.c - memreg_update(): budgets and parameters changed on a
 * running regulator apply at each CPU's next period and keep statistics,
 * per-core state and predictors; what would need re-initialising is
 * refused and leaves the regulator untouched.
 */
#include <criterion/criterion.h>

#include "reg_helpers.h"

static const uint64_t zero2[2] = { 0, 0 };

/* Two CPUs guaranteed 100 each under a ceiling of 1000, run 3 periods. */
static struct memreg *two_running(struct memreg_cfg *c, uint32_t flags)
{
	struct memreg *r = reg_new();
	struct memreg_arm a;
	uint64_t p, used[2] = { 100, 0 };

	reg_cfg(c, 2, 100, 1000, 1000, flags, 10);
	cr_assert_eq(memreg_init(r, c, NULL), MEMREG_OK);
	for (p = 1; p <= 3; p++) {
		memreg_replenish(r, 0, p, used, 0, &a);
		memreg_replenish(r, 1, p, used, 0, &a);
		memreg_overflow(r, 0, 0, 100, &a);
	}
	return r;
}

Test(update, new_guarantee_at_the_next_period_statistics_kept)
{
	struct memreg_cfg c;
	struct memreg *r = two_running(&c, 0);
	uint64_t periods = r->cpu[0].stats.periods;
	uint64_t throttles = r->cpu[0].stats.throttles;
	struct memreg_arm a;
	const char *why = NULL;

	cr_assert_eq(throttles, 3);
	c.cpu[0].guaranteed[0] = 300;
	cr_assert_eq(memreg_update(r, &c, &why), MEMREG_OK, "%s", why);
	cr_assert_eq(r->cpu[0].stats.periods, periods, "statistics kept");
	cr_assert_eq(r->cpu[0].stats.throttles, throttles);
	cr_assert_eq(r->cpu[0].budget[0], 100, "this period's budget stays");
	cr_assert_eq(memreg_replenish(r, 0, 4, zero2, 0, &a), MEMREG_OK,
		     "the period goes on: not reset to a first call");
	cr_assert_eq(a.budget[0], 300, "the new guarantee at the next period");
	cr_assert_eq(r->cpu[0].stats.periods, periods + 1);
	memreg_overflow(r, 0, 0, 200, &a);
	cr_assert_eq(a.action, MEMREG_RUN, "200 of 300 used");
	free(r);
}

Test(update, lms_parameters_and_modes_live_taps_restart_predictors)
{
	struct memreg_cfg c;
	struct memreg *r = two_running(&c, MEMREG_F_LMS);
	uint64_t upd = r->cpu[0].lms[0].updates;

	r->cpu[0].lms[0].updates = upd = 7;
	c.lms.mu = MEMREG_ONE;
	c.flags |= MEMREG_F_RECLAIM;
	cr_assert_eq(memreg_update(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(r->cpu[0].lms[0].updates, upd, "same taps: predictor kept");
	cr_assert_eq(r->cfg.flags & MEMREG_F_RECLAIM, MEMREG_F_RECLAIM);
	c.lms.taps = 8;
	cr_assert_eq(memreg_update(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(r->cpu[0].lms[0].taps, 8, "new taps: predictor restarted");
	cr_assert_eq(r->cpu[0].lms[0].updates, 0);
	free(r);
}

Test(update, what_needs_a_reinit_is_refused_untouched)
{
	struct memreg_cfg c, bad;
	struct memreg *r = two_running(&c, 0);
	const char *why = NULL;

	bad = c;
	bad.period_ns *= 2;
	cr_assert_eq(memreg_update(r, &bad, &why), MEMREG_EINVAL);
	cr_assert(why && *why);
	bad = c;
	bad.cpu[1].active = 0;
	bad.cpu[0].guaranteed[0] = 500;
	cr_assert_eq(memreg_update(r, &bad, NULL), MEMREG_EINVAL);
	cr_assert_eq(r->cpu[0].guaranteed[0], 100, "refused: nothing applied");
	bad = c;
	bad.flags |= MEMREG_F_MONITOR;
	cr_assert_eq(memreg_update(r, &bad, NULL), MEMREG_EINVAL);
	bad = c;
	bad.cpu[0].guaranteed[0] = 950;	/* sum 1050 > platform 1000 */
	cr_assert_neq(memreg_update(r, &bad, NULL), MEMREG_OK);
	cr_assert_eq(r->cfg.cpu[0].guaranteed[0], 100);
	free(r);
}
