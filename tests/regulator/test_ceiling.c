// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_ceiling.c - the platform ceiling holds in the periods around two
 * irregular events: a CPU coming back online before the master publishes
 * for it, and a master tick so late that CPUs already started the period
 * it publishes and donates for.  The sum checked is of the budgets each
 * CPU ended the period with (reclaim takes included).
 */
#include <criterion/criterion.h>

#include "reg_helpers.h"

/* Sum of the period's final budgets of class 0 over the online CPUs. */
static uint64_t budget_sum(const struct memreg *r, uint32_t n)
{
	uint64_t on = (uint64_t)memreg_atomic64_read(&r->online_mask), s = 0;
	uint32_t cpu;

	for (cpu = 0; cpu < n; cpu++)
		if ((on >> cpu) & 1)
			s += r->cpu[cpu].budget[0];
	return s;
}

/* CPU @cpu uses @want of class 0 in the current period, taking from the
 * pool at each overflow as the glue would. */
static void use(struct memreg *r, uint32_t cpu, uint64_t want)
{
	struct memreg_arm a;
	uint64_t t = 0;

	for (;;) {
		uint64_t b = r->cpu[cpu].budget[0];

		if (want < b || b == MEMREG_BUDGET_INF)
			return;
		t = b > t ? b : t + 1;
		cr_assert_eq(memreg_overflow(r, cpu, 0, t, &a), MEMREG_OK);
		if (a.action != MEMREG_RUN)
			return;
	}
}

Test(ceiling, a_cpu_back_online_stays_under_what_the_ceiling_leaves)
{
	struct memreg_cfg cfg;
	struct memreg *r = reg_new();
	const uint64_t busy[2] = { 5000, 0 }, none[2] = { 0, 0 };
	struct memreg_arm a;
	uint64_t p;

	/*
	 * LMS: CPU 1 is busy and predicted up to its ceiling 1000, which the
	 * master may give it while CPU 0 is away (sum 1000 <= 1000).  CPU 0
	 * comes back: until the master publishes for it, it must not run on
	 * its guarantee on top of that.
	 */
	reg_cfg(&cfg, 2, 100, 1000, 1000, MEMREG_F_LMS | MEMREG_F_UNCOUNTED_WRITE, 1);
	cr_assert_eq(memreg_init(r, &cfg, NULL), MEMREG_OK);
	cr_assert_eq(memreg_cpu_set_online(r, 0, 0), MEMREG_OK);
	for (p = 0; p < 40; p++) {
		cr_assert_eq(memreg_replenish(r, 1, p, busy, 0, &a), MEMREG_OK);
		cr_assert_eq(memreg_master_tick(r, p), MEMREG_OK);
	}
	cr_assert_eq(r->cpu[1].budget[0], 1000, "CPU 1 predicted to its ceiling: %llu",
		     (unsigned long long)r->cpu[1].budget[0]);
	cr_assert_eq(memreg_cpu_set_online(r, 0, 1), MEMREG_OK);
	for (; p < 45; p++) {
		cr_assert_eq(memreg_replenish(r, 1, p, busy, 0, &a), MEMREG_OK);
		cr_assert_eq(memreg_replenish(r, 0, p, none, 0, &a), MEMREG_OK);
		cr_assert_leq(a.budget[0], r->cpu[0].budget[0]);
		cr_assert_leq(budget_sum(r, 2), 1000,
			      "period %llu: CPU 0 back online with %llu, CPU 1 %llu: above the ceiling",
			      (unsigned long long)p,
			      (unsigned long long)r->cpu[0].budget[0],
			      (unsigned long long)r->cpu[1].budget[0]);
		cr_assert_eq(memreg_master_tick(r, p), MEMREG_OK);
	}
	cr_assert_geq(r->cpu[0].budget[0], 100,
		      "once the master published for it, CPU 0 has its guarantee: %llu",
		      (unsigned long long)r->cpu[0].budget[0]);
	free(r);
}

Test(ceiling, a_late_tick_donates_nothing_to_a_period_already_started)
{
	struct memreg_cfg cfg;
	struct memreg *r = reg_new();
	const uint64_t idle[2] = { 0, 0 }, busy[2] = { 5000, 0 };
	struct memreg_arm a;
	uint64_t p;

	/*
	 * Reclaim, no LMS: CPU 0 idle, CPU 1 busy, guarantees 500 each,
	 * ceiling 1000.  CPU 0's timer jumps over period 3 (an overrun) and
	 * starts period 4 before the tick of period 3, which comes more than
	 * 3/4 of a period late: CPU 0 then runs period 4 on its guarantee
	 * (nothing published for it yet), while the demand it just recorded
	 * still carries the tag of period 2, the one the tick of period 3
	 * reads.  Donating CPU 0's budget of period 4 then would let CPU 1
	 * take it on top of CPU 0's guarantee.
	 */
	reg_cfg(&cfg, 2, 500, 1000, 1000, MEMREG_F_RECLAIM | MEMREG_F_UNCOUNTED_WRITE, 10);
	cr_assert_eq(memreg_init(r, &cfg, NULL), MEMREG_OK);
	for (p = 0; p < 6; p++) {
		if (p != 3 && p != 4)
			cr_assert_eq(memreg_replenish(r, 0, p, idle, 0, &a), MEMREG_OK);
		if (p == 3)	/* CPU 0 jumps to 4, then the late tick of 3 */
			cr_assert_eq(memreg_replenish(r, 0, 4, idle, 0, &a), MEMREG_OK);
		cr_assert_eq(memreg_replenish(r, 1, p, busy, 0, &a), MEMREG_OK);
		cr_assert_eq(memreg_master_tick(r, p), MEMREG_OK);
		use(r, 1, 5000);
		if (p == 3)
			continue;	/* CPU 0 is in period 4 already */
		cr_assert_leq(budget_sum(r, 2), 1000,
			      "period %llu: budgets %llu + %llu above the ceiling",
			      (unsigned long long)p,
			      (unsigned long long)r->cpu[0].budget[0],
			      (unsigned long long)r->cpu[1].budget[0]);
	}
	cr_assert_gt(r->cpu[1].stats.reclaimed[0], 0, "CPU 1 took donations");
	cr_assert_gt(r->master_late, 0);
	free(r);
}
