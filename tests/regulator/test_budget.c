// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_budget.c - configuration validation, the sum-of-guarantees rule,
 * budget arithmetic and throttle/unthrottle sequences of the per-core path.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "reg_helpers.h"

static const uint64_t zero2[2] = { 0, 0 };

Test(config, defaults_are_valid)
{
	struct memreg_cfg cfg;
	const char *why = NULL;

	memreg_cfg_defaults(&cfg, 4);
	cr_assert_eq(memreg_cfg_validate(&cfg, &why), MEMREG_OK, "%s", why);
	cr_assert_str_eq(why, "");
	cr_assert_eq(cfg.nr_cpus, 4);
	cr_assert_leq(cfg.cpu[0].guaranteed[0] * 4, cfg.platform_ceiling[0]);
	memreg_cfg_defaults(&cfg, 1000);	/* clamped */
	cr_assert_eq(cfg.nr_cpus, MEMREG_MAX_CPUS);
	cr_assert_eq(memreg_cfg_validate(&cfg, NULL), MEMREG_OK);
}

/* Expect @cfg refused with @code and a message containing @needle. */
static void expect_refused(const struct memreg_cfg *cfg, int code, const char *needle)
{
	const char *why = NULL;

	cr_assert_eq(memreg_cfg_validate(cfg, &why), code, "message: %s", why ? why : "(null)");
	cr_assert_not_null(why);
	cr_assert(strstr(why, needle) != NULL, "'%s' lacks '%s'", why, needle);
}

Test(config, every_bad_field_is_refused_with_a_message)
{
	struct memreg_cfg base, c;

	reg_cfg(&base, 2, 100, 1000, 1000, 0, 10);
	cr_assert_eq(memreg_cfg_validate(&base, NULL), MEMREG_OK);

	c = base; c.period_ns = 0;
	expect_refused(&c, MEMREG_EINVAL, "period");
	c = base; c.period_ns = 2000000000ULL;
	expect_refused(&c, MEMREG_EINVAL, "period");
	c = base; c.lms.taps = 0;
	expect_refused(&c, MEMREG_EINVAL, "taps");
	c = base; c.lms.taps = 17;
	expect_refused(&c, MEMREG_EINVAL, "taps");
	c = base; c.lms.mu = 0;
	expect_refused(&c, MEMREG_EINVAL, "mu");
	c = base; c.lms.mu = MEMREG_MU_MAX + 1;
	expect_refused(&c, MEMREG_EINVAL, "mu");
	c = base; c.lms.mu = 2 * MEMREG_ONE;	/* NLMS needs mu < 2 */
	expect_refused(&c, MEMREG_EINVAL, "mu");
	c = base; c.lms.headroom = MEMREG_HEADROOM_MAX + 1;
	expect_refused(&c, MEMREG_EINVAL, "headroom");
	c = base; c.master_cpu = 2;
	expect_refused(&c, MEMREG_ENODEV, "master");
	c = base; c.nr_cpus = 0;
	expect_refused(&c, MEMREG_EINVAL, "nr_cpus");
	c = base; c.nr_cpus = 65;
	expect_refused(&c, MEMREG_EINVAL, "nr_cpus");
	c = base; c.flags = 0x100;
	expect_refused(&c, MEMREG_EINVAL, "flag");
	c = base; c.cpu[1].guaranteed[1] = 0;
	expect_refused(&c, MEMREG_EINVAL, "guaranteed");
	c = base; c.cpu[0].guaranteed[0] = 1001;
	expect_refused(&c, MEMREG_ERANGE, "ceiling");
	c = base; c.cpu[0].ceiling[0] = MEMREG_EVENTS_MAX + 1;
	expect_refused(&c, MEMREG_EINVAL, "ceiling");
	c = base; c.platform_ceiling[1] = 0;
	expect_refused(&c, MEMREG_EINVAL, "platform ceiling");
	c = base; c.cpu[0].active = c.cpu[1].active = 0;
	expect_refused(&c, MEMREG_ENODEV, "no active");
	c = base; c.flags = MEMREG_F_RECLAIM; c.reclaim_quantum = 0;
	expect_refused(&c, MEMREG_EINVAL, "quantum");
	c = base; c.cpu[0].guaranteed[0] = 600; c.cpu[1].guaranteed[0] = 401;
	expect_refused(&c, MEMREG_ERANGE, "sum of guaranteed");
	/* exactly at the ceiling is fine; an inactive CPU does not count */
	c = base; c.cpu[0].guaranteed[0] = 600; c.cpu[1].guaranteed[0] = 400;
	cr_assert_eq(memreg_cfg_validate(&c, NULL), MEMREG_OK);
	c.cpu[1].guaranteed[0] = 900; c.cpu[1].active = 0;
	cr_assert_eq(memreg_cfg_validate(&c, NULL), MEMREG_OK);
}

Test(config, single_value_validators)
{
	const char *why;

	cr_assert_eq(memreg_validate_period(MEMREG_PERIOD_MIN_NS, &why), MEMREG_OK);
	cr_assert_eq(memreg_validate_period(MEMREG_PERIOD_MIN_NS - 1, &why), MEMREG_EINVAL);
	cr_assert_eq(memreg_validate_period(MEMREG_PERIOD_MAX_NS, &why), MEMREG_OK);
	cr_assert_eq(memreg_validate_period(~0ULL, &why), MEMREG_EINVAL);
	cr_assert_eq(memreg_validate_taps(16, NULL), MEMREG_OK);
	cr_assert_eq(memreg_validate_mu(MEMREG_MU_MAX, NULL), MEMREG_OK);
	cr_assert_eq(memreg_validate_mu(2 * MEMREG_ONE - 1, NULL), MEMREG_OK);
	cr_assert_eq(memreg_validate_mu(2 * MEMREG_ONE, &why), MEMREG_EINVAL);
	cr_assert_eq(memreg_validate_headroom(0, NULL), MEMREG_OK);
	cr_assert_eq(memreg_validate_flags(MEMREG_F_ALL, NULL), MEMREG_OK);
	cr_assert_eq(memreg_validate_flags(MEMREG_F_ALL + 1, &why), MEMREG_EINVAL);
	cr_assert_gt(strlen(why), 0);
}

Test(config, fit_scales_guarantees_down_proportionally)
{
	struct memreg_cfg c;
	uint32_t cpu;

	reg_cfg(&c, 3, 100, 1000, 500, 0, 1);
	c.cpu[0].guaranteed[0] = 500;
	c.cpu[1].guaranteed[0] = 300;
	c.cpu[2].guaranteed[0] = 200;		/* sum 1000 > 500 */
	cr_assert_eq(memreg_cfg_fit_guaranteed(&c), 1);	/* only the read class */
	cr_assert_eq(c.cpu[0].guaranteed[0], 250);
	cr_assert_eq(c.cpu[1].guaranteed[0], 150);
	cr_assert_eq(c.cpu[2].guaranteed[0], 100);
	cr_assert_eq(c.cpu[0].guaranteed[1], 100);	/* write: 300 <= 500, untouched */
	cr_assert_eq(memreg_cfg_validate(&c, NULL), MEMREG_OK);

	/* rounding and the >= 1 floor still end at or below the ceiling */
	reg_cfg(&c, 64, 1, 10, 64, 0, 1);
	for (cpu = 0; cpu < 64; cpu++)
		c.cpu[cpu].guaranteed[0] = cpu == 0 ? 10 : 2;
	cr_assert_eq(memreg_cfg_fit_guaranteed(&c), 1);
	{
		uint64_t sum = 0;

		for (cpu = 0; cpu < 64; cpu++) {
			cr_assert_geq(c.cpu[cpu].guaranteed[0], 1);
			sum += c.cpu[cpu].guaranteed[0];
		}
		cr_assert_leq(sum, 64);
	}
	cr_assert_eq(memreg_cfg_validate(&c, NULL), MEMREG_OK);

	reg_cfg(&c, 4, 10, 10, 3, 0, 1);	/* 4 CPUs cannot fit in 3 */
	cr_assert_eq(memreg_cfg_fit_guaranteed(&c), MEMREG_ERANGE);
}

Test(config, init_refuses_bad_config_and_leaves_state)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	const char *why;

	reg_cfg(&c, 2, 100, 1000, 1000, 0, 1);
	cr_assert_eq(memreg_init(r, &c, &why), MEMREG_OK);
	cr_assert_eq(r->nr_active, 2);
	cr_assert_eq(r->active_mask, 3);
	c.period_ns = 1;
	cr_assert_eq(memreg_init(r, &c, &why), MEMREG_EINVAL);
	cr_assert_eq(r->cfg.period_ns, 1000000, "state changed by a refused init");
	free(r);
}

Test(budget, replenish_gives_guarantee_and_overflow_throttles_at_budget)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint64_t used[2];

	reg_cfg(&c, 2, 100, 1000, 1000, 0, 1);
	c.cpu[0].guaranteed[1] = 40;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(memreg_replenish(r, 0, 10, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_RUN);
	cr_assert_eq(a.budget[0], 100);
	cr_assert_eq(a.budget[1], 40);
	cr_assert_eq(a.remaining[0], 100);
	cr_assert_eq(a.remaining[1], 40);

	/* early overflow (counter slack the other way): keep running */
	cr_assert_eq(memreg_overflow(r, 0, MEMREG_READ, 70, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_RUN);
	cr_assert_eq(a.remaining[0], 30);

	/* exhausted: throttle, one throttle counted */
	cr_assert_eq(memreg_overflow(r, 0, MEMREG_READ, 103, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	cr_assert_eq(a.remaining[0], 0);
	cr_assert_eq(r->cpu[0].stats.throttles, 1);
	cr_assert_eq((uint64_t)memreg_atomic64_read(&r->throttled_mask), 1);
	cr_assert_eq(memreg_overflow(r, 0, MEMREG_WRITE, 40, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	cr_assert_eq(r->cpu[0].stats.throttles, 1, "second class must not recount");
	cr_assert_eq(r->cpu[0].throttled, 3);

	/* next period: unthrottle, account the period that ended */
	used[0] = 103;
	used[1] = 40;
	cr_assert_eq(memreg_replenish(r, 0, 11, used, 12345, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_RUN);
	cr_assert_eq(a.remaining[0], 100);
	cr_assert_eq(r->cpu[0].throttled, 0);
	cr_assert_eq((uint64_t)memreg_atomic64_read(&r->throttled_mask), 0);
	cr_assert_eq(r->cpu[0].stats.periods, 1);
	cr_assert_eq(r->cpu[0].stats.consumed[0], 103);
	cr_assert_eq(r->cpu[0].stats.consumed[1], 40);
	cr_assert_eq(r->cpu[0].stats.overuse[0], 3);
	cr_assert_eq(r->cpu[0].stats.overuse[1], 0);
	cr_assert_eq(r->cpu[0].stats.throttled_ns, 12345);
	cr_assert_eq(r->cpu[0].stats.overruns, 0);
	free(r);
}

Test(budget, all_throttled_is_reported_by_the_last_cpu_only)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint32_t cpu;

	reg_cfg(&c, 4, 10, 100, 100, 0, 1);
	c.cpu[3].active = 0;	/* not regulated: does not count */
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	for (cpu = 0; cpu < 3; cpu++)
		cr_assert_eq(memreg_replenish(r, cpu, 1, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(memreg_replenish(r, 3, 1, zero2, 0, &a), MEMREG_ENODEV);
	memreg_overflow(r, 0, 0, 10, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	memreg_overflow(r, 2, 1, 10, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	memreg_overflow(r, 1, 0, 12, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	/* one CPU moves on to the next period: no longer all throttled */
	memreg_replenish(r, 0, 2, zero2, 0, &a);
	memreg_overflow(r, 2, 0, 10, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	free(r);
}

Test(budget, bad_arguments_change_nothing)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;

	reg_cfg(&c, 2, 10, 100, 100, 0, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(memreg_replenish(r, 0, 5, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(memreg_replenish(r, 0, 5, zero2, 0, &a), MEMREG_ESTALE);
	cr_assert_eq(memreg_replenish(r, 0, 4, zero2, 0, &a), MEMREG_ESTALE);
	cr_assert_eq(r->cpu[0].period, 5);
	cr_assert_eq(r->cpu[0].stats.periods, 0);
	cr_assert_eq(memreg_replenish(r, 64, 6, zero2, 0, &a), MEMREG_ENODEV);
	cr_assert_eq(memreg_replenish(r, 2, 6, zero2, 0, &a), MEMREG_ENODEV);
	cr_assert_eq(memreg_overflow(r, 0, 2, 10, &a), MEMREG_EINVAL);
	cr_assert_eq(memreg_overflow(r, 7, 0, 10, &a), MEMREG_ENODEV);
	cr_assert_eq(memreg_accept_share(r, 9, &a), MEMREG_ENODEV);
	/* skipped periods are counted as overruns */
	cr_assert_eq(memreg_replenish(r, 0, 8, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(r->cpu[0].stats.overruns, 2);
	free(r);
}

Test(budget, monitor_mode_never_throttles)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint64_t used[2] = { 5000000, 7 };

	reg_cfg(&c, 1, 10, 100, 100, MEMREG_F_MONITOR | MEMREG_F_RECLAIM, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	memreg_replenish(r, 0, 1, zero2, 0, &a);
	cr_assert_eq(a.budget[0], MEMREG_BUDGET_INF);
	cr_assert_eq(a.remaining[1], MEMREG_BUDGET_INF);
	cr_assert_eq(memreg_overflow(r, 0, 0, ~0ULL, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_RUN);
	memreg_replenish(r, 0, 2, used, 0, &a);
	cr_assert_eq(a.action, MEMREG_RUN);
	cr_assert_eq(r->cpu[0].stats.consumed[0], 5000000);
	cr_assert_eq(r->cpu[0].stats.overuse[0], 0);
	cr_assert_eq(r->cpu[0].stats.throttles, 0);
	cr_assert_eq(r->cpu[0].stats.donated[0], 0);
	free(r);
}

Test(budget, huge_counter_values_saturate)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint64_t used[2] = { ~0ULL, ~0ULL };
	uint32_t p;

	reg_cfg(&c, 1, MEMREG_EVENTS_MAX, MEMREG_EVENTS_MAX, MEMREG_EVENTS_MAX, 0, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	memreg_replenish(r, 0, 1, used, ~0ULL, &a);
	for (p = 2; p < 6; p++) {
		cr_assert_eq(memreg_overflow(r, 0, 0, ~0ULL, &a), MEMREG_OK);
		cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);	/* E >= E: exhausted */
		memreg_replenish(r, 0, p, used, ~0ULL, &a);
	}
	cr_assert_eq(r->cpu[0].stats.consumed[0], 4 * MEMREG_EVENTS_MAX);
	cr_assert_eq(r->cpu[0].stats.overuse[0], 0);
	cr_assert_eq(r->cpu[0].stats.throttled_ns, ~0ULL, "saturating add");
	cr_assert_eq(a.budget[0], MEMREG_EVENTS_MAX);
	free(r);
}

Test(budget, exempt_cpu_counts_overruns_not_throttles)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	const char *why = "";

	reg_cfg(&c, 2, 10, 100, 100, 0, 1);
	c.cpu[1].exempt = 2;
	cr_assert_eq(memreg_init(r, &c, &why), MEMREG_EINVAL);
	cr_assert_str_eq(why, "exempt must be 0 or 1");
	c.cpu[1].exempt = 1;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(memreg_replenish(r, 0, 5, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(memreg_replenish(r, 1, 5, zero2, 0, &a), MEMREG_OK);

	/* the exempt CPU exhausts first: reported, counted as exempt overrun */
	cr_assert_eq(memreg_overflow(r, 1, MEMREG_READ, 10, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	cr_assert_eq(memreg_overflow(r, 1, MEMREG_READ, 20, &a), MEMREG_OK);
	cr_assert_eq(r->cpu[1].stats.exempt_overruns, 1, "once per period");
	cr_assert_eq(r->cpu[1].stats.throttles, 0);
	/* it counts as exhausted for sharing: the other CPU completes "all" */
	cr_assert_eq(memreg_overflow(r, 0, MEMREG_READ, 10, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	cr_assert_eq(r->cpu[0].stats.throttles, 1);
	cr_assert_eq(r->cpu[0].stats.exempt_overruns, 0);

	cr_assert_eq(memreg_replenish(r, 1, 6, zero2, 0, &a), MEMREG_OK);
	cr_assert_eq(memreg_overflow(r, 1, MEMREG_READ, 10, &a), MEMREG_OK);
	cr_assert_eq(r->cpu[1].stats.exempt_overruns, 2);
	cr_assert_eq(r->cpu[1].stats.throttles, 0);
	free(r);
}
