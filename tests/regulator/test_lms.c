// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_lms.c - the fixed-point NLMS predictor (convergence on constant,
 * step, periodic and noisy demand; extremes) and the master tick (clamps,
 * the platform-ceiling rule, publication and staleness).
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "reg_helpers.h"

/* Absolute difference. */
static uint64_t adiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

Test(lms, cold_start_predicts_the_cold_start_value)
{
	struct memreg_lms_state s;
	uint32_t i;

	memreg_lms_init(&s, 4, 2, 777);
	cr_assert_eq(s.last_pred, 777);
	for (i = 0; i < 4; i++)
		cr_assert_eq(s.w[i], MEMREG_W_ONE / 4);
	/* feeding the same value keeps it: 4 * (1/4) == 1 exactly */
	cr_assert_eq(memreg_lms_update(&s, MEMREG_ONE / 2, 777), 777);
	cr_assert_eq(s.abs_err_sum, 0);
	cr_assert_eq(s.updates, 1);
}

Test(lms, constant_demand_converges_quickly)
{
	uint32_t taps, h;

	for (taps = 1; taps <= 16; taps++) {
		for (h = 1; h <= 2; h++) {
			struct memreg_lms_state s;
			uint32_t p, pred = 0, t;

			memreg_lms_init(&s, taps, h, 0);
			for (p = 0; p < 40; p++)
				pred = memreg_lms_update(&s, MEMREG_ONE / 2, 100000);
			/* after taps + horizon periods the history is full */
			cr_assert_leq(adiff(pred, 100000), 100, "taps %u h %u pred %u",
				      taps, h, pred);
			for (t = 0; t < 20; t++)
				pred = memreg_lms_update(&s, MEMREG_ONE / 2, 100000);
			cr_assert_leq(adiff(pred, 100000), 10);
		}
	}
}

/*
 * Feed @n demands from @next to a predictor and to a reference copy whose
 * fast path is defeated (fixed_mu cleared before every update): every
 * prediction and the whole learned state must match bit for bit.
 * Returns how many updates came at a fixed point (the fast path's case).
 */
static uint32_t fast_path_matches(uint32_t taps, uint32_t h, uint32_t mu,
				  uint64_t (*next)(uint32_t), uint32_t n)
{
	struct memreg_lms_state s, ref;
	uint32_t i, fast = 0;

	memreg_lms_init(&s, taps, h, 500);
	memreg_lms_init(&ref, taps, h, 500);
	for (i = 0; i < n; i++) {
		uint64_t d = next(i);
		uint64_t before = s.abs_err_sum;
		int was_fixed = s.fixed_mu == mu &&
				(uint32_t)memreg_sat_events(d) == s.hist[0];
		uint32_t p, q;

		ref.fixed_mu = 0;
		p = memreg_lms_update(&s, mu, d);
		q = memreg_lms_update(&ref, mu, d);
		fast += was_fixed;
		cr_assert_eq(p, q, "taps %u h %u update %u: %u vs %u", taps, h, i, p, q);
		cr_assert_arr_eq(s.w, ref.w, sizeof(s.w));
		cr_assert_arr_eq(s.hist, ref.hist, sizeof(s.hist));
		cr_assert_arr_eq(s.pending, ref.pending, sizeof(s.pending));
		cr_assert_eq(s.abs_err_sum, ref.abs_err_sum);
		cr_assert_eq(s.sq_err_sum, ref.sq_err_sum);
		cr_assert_eq(s.updates, ref.updates);
		cr_assert_geq(s.abs_err_sum, before);
	}
	return fast;
}

/* Steady runs of zeros and of constants, steps between them, noise. */
static uint64_t steady_then_noisy(uint32_t i)
{
	if (i < 40)
		return 0;
	if (i < 90)
		return 12345;
	if (i < 140)
		return (i * 2654435761u) % 50000;
	if (i < 200)
		return 0xffffffffULL;
	return i % 3 ? 777 : 778;
}

Test(lms, fast_path_is_bit_exact_and_steady_state_reaches_it)
{
	uint32_t taps, h, fast;

	for (taps = 1; taps <= 16; taps++) {
		for (h = 1; h <= 2; h++) {
			fast = fast_path_matches(taps, h, MEMREG_ONE / 2,
						 steady_then_noisy, 260);
			/* the zeros alone: a fixed point after taps + h of them */
			cr_assert_geq(fast, 40 - taps - h - 2, "taps %u h %u: %u at a fixed point",
				      taps, h, fast);
			fast_path_matches(taps, h, MEMREG_MU_MAX, steady_then_noisy, 260);
			fast_path_matches(taps, h, 1, steady_then_noisy, 260);
		}
	}
}

/* Periods until |pred - target| <= tol * target, feeding @target. */
static uint32_t periods_to_settle(struct memreg_lms_state *s, uint32_t mu,
				  uint32_t target, double tol, uint32_t limit)
{
	uint32_t p;

	for (p = 1; p <= limit; p++) {
		uint32_t pred = memreg_lms_update(s, mu, target);

		if ((double)adiff(pred, target) <= tol * target)
			return p;
	}
	return limit + 1;
}

Test(lms, step_up_and_down_is_followed_within_bounded_periods)
{
	struct memreg_lms_state s;
	uint32_t p, up, down;

	memreg_lms_init(&s, 4, 2, 20000);
	for (p = 0; p < 100; p++)
		memreg_lms_update(&s, MEMREG_ONE / 2, 20000);
	up = periods_to_settle(&s, MEMREG_ONE / 2, 200000, 0.05, 100);
	cr_assert_leq(up, 12, "low->high took %u periods", up);
	for (p = 0; p < 50; p++)
		memreg_lms_update(&s, MEMREG_ONE / 2, 200000);
	down = periods_to_settle(&s, MEMREG_ONE / 2, 20000, 0.05, 100);
	cr_assert_leq(down, 12, "high->low took %u periods", down);
}

Test(lms, periodic_demand_is_learned)
{
	static const uint32_t wave[4] = { 10000, 10000, 50000, 50000 };
	struct memreg_lms_state s;
	uint64_t err = 0, naive = 0;
	uint32_t p, pred;

	memreg_lms_init(&s, 4, 2, 10000);
	for (p = 0; p < 3000; p++)
		memreg_lms_update(&s, MEMREG_ONE / 2, wave[p % 4]);
	/* horizon 2: the prediction made now is for two periods ahead */
	for (p = 3000; p < 3200; p++) {
		pred = memreg_lms_update(&s, MEMREG_ONE / 2, wave[p % 4]);
		err += adiff(pred, wave[(p + 2) % 4]);
		naive += adiff(wave[p % 4], wave[(p + 2) % 4]);	/* "same as now" */
	}
	cr_assert_lt(err / 200, 1500, "mean error %lu of amplitude 40000",
		     (unsigned long)(err / 200));
	cr_assert_lt(err * 10, naive, "NLMS must beat persistence tenfold");
}

Test(lms, noisy_demand_error_stays_near_the_noise)
{
	struct memreg_lms_state s;
	uint64_t seed = 0x1234567, err = 0;
	uint32_t p;

	memreg_lms_init(&s, 8, 2, 0);
	for (p = 0; p < 2000; p++) {
		uint32_t noise = (uint32_t)(reg_rand(&seed) % 20001);	/* +-10 % */
		uint32_t d = 100000 - 10000 + noise;
		uint32_t pred = memreg_lms_update(&s, MEMREG_ONE / 8, d);

		if (p >= 1000)
			err += adiff(pred, 100000);
	}
	/* the prediction of the mean is within 3 % on average */
	cr_assert_lt(err / 1000, 3000, "mean |pred - mean| = %lu",
		     (unsigned long)(err / 1000));
	cr_assert_eq(s.updates, 2000);
	cr_assert_gt(s.abs_err_sum / s.updates, 4000, "scored error is the noise");
	cr_assert_lt(s.abs_err_sum / s.updates, 7000);
}

Test(lms, extremes_never_overflow_and_stay_in_range)
{
	static const uint64_t nasty[] = { 0, ~0ULL, MEMREG_EVENTS_MAX, 1, 0, 0,
					  MEMREG_EVENTS_MAX, 0, 65535, 65536,
					  ~0ULL >> 1, 3, MEMREG_EVENTS_MAX - 1 };
	uint64_t seed = 99;
	uint32_t taps, mu_i, p, i;
	const uint32_t mus[] = { 1, MEMREG_ONE / 2, MEMREG_ONE, MEMREG_MU_MAX,
				 0, ~0U };	/* last two are clamped */

	for (taps = 1; taps <= 16; taps += 5) {
		for (mu_i = 0; mu_i < sizeof(mus) / sizeof(mus[0]); mu_i++) {
			struct memreg_lms_state s;

			memreg_lms_init(&s, taps, 2, ~0ULL);
			cr_assert_eq(s.last_pred, MEMREG_EVENTS_MAX);
			for (p = 0; p < 3000; p++) {
				uint64_t d = p < 1300 ? nasty[p % 13] :
					     (reg_rand(&seed) & 1 ? reg_rand(&seed) : 0);
				uint32_t pred = memreg_lms_update(&s, mus[mu_i], d);

				cr_assert_leq((uint64_t)pred, MEMREG_EVENTS_MAX);
				for (i = 0; i < MEMREG_MAX_TAPS; i++) {
					cr_assert_leq(s.w[i], MEMREG_WEIGHT_MAX);
					cr_assert_geq(s.w[i], -MEMREG_WEIGHT_MAX);
				}
			}
			/* and it still learns a constant afterwards */
			for (p = 0; p < 400; p++)
				memreg_lms_update(&s, MEMREG_ONE / 2, 5000000);
			cr_assert_leq(adiff(s.last_pred, 5000000), 50000,
				      "taps %u mu %u pred %u", taps, mus[mu_i], s.last_pred);
		}
	}
}

/* Drive @r for one period: every CPU replenishes with @demand, master ticks. */
static void drive_period(struct memreg *r, uint64_t p, const uint64_t *demand)
{
	struct memreg_arm a;
	uint32_t cpu;

	for (cpu = 0; cpu < r->cfg.nr_cpus; cpu++) {
		uint64_t used[2] = { demand[cpu], demand[cpu] };

		if (r->cfg.cpu[cpu].active)
			cr_assert_eq(memreg_replenish(r, cpu, p, used, 0, &a), MEMREG_OK);
	}
	memreg_master_tick(r, p);
}

Test(master, budgets_clamped_to_guarantee_and_ceiling)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	const uint64_t demand[3] = { 10, 3000, 100000 };
	uint64_t p;

	reg_cfg(&c, 3, 100, 5000, 1000000, MEMREG_F_LMS, 1);
	c.lms.headroom = 0;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	for (p = 0; p < 60; p++)
		drive_period(r, p, demand);
	memreg_replenish(r, 0, 60, demand, 0, &a);
	cr_assert_eq(a.budget[0], 100, "below the guarantee: raised to it");
	memreg_replenish(r, 1, 60, demand, 0, &a);
	cr_assert_leq(adiff(a.budget[0], 3000), 3, "in range: the prediction (%lu)",
		      (unsigned long)a.budget[0]);
	memreg_replenish(r, 2, 60, demand, 0, &a);
	cr_assert_eq(a.budget[1], 5000, "above the ceiling: cut to it");
	cr_assert_eq(r->cpu[0].stats.stale_budgets, 1, "only period 0 had none");
	free(r);
}

Test(master, sum_of_budgets_never_exceeds_platform_ceiling)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	const uint64_t demand[2] = { 5000, 5000 };

	reg_cfg(&c, 2, 100, 10000, 1000, MEMREG_F_LMS, 1);
	c.lms.headroom = MEMREG_ONE / 10;
	c.lms.cold_start[0] = c.lms.cold_start[1] = 5000;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	drive_period(r, 0, demand);
	drive_period(r, 1, demand);
	/* pred 5000 -> 5500 each, sum 11000 > 1000:
	 * b = 100 + (5500 - 100) * (1000 - 200) / (11000 - 200) = 500 */
	memreg_replenish(r, 0, 2, demand, 0, &a);
	cr_assert_eq(a.budget[0], 500);
	memreg_replenish(r, 1, 2, demand, 0, &a);
	cr_assert_eq(a.budget[1], 500);

	/* asymmetric: the guarantees stay, the excess shares the rest */
	{
		uint64_t seed = 5, q;

		for (q = 3; q < 300; q++) {
			uint64_t d[2] = { reg_rand(&seed) % 20000, reg_rand(&seed) % 20000 };
			uint64_t b0, b1;

			memreg_master_tick(r, q - 1);	/* extra ticks are harmless */
			memreg_replenish(r, 0, q, d, 0, &a);
			b0 = a.budget[0];
			cr_assert_geq(b0, 100);
			memreg_replenish(r, 1, q, d, 0, &a);
			b1 = a.budget[0];
			cr_assert_geq(b1, 100);
			cr_assert_leq(b0 + b1, 1000, "period %lu: %lu + %lu",
				      (unsigned long)q, (unsigned long)b0, (unsigned long)b1);
			memreg_master_tick(r, q);
		}
	}
	free(r);
}

Test(master, late_master_falls_back_to_guarantee)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	const uint64_t demand[2] = { 800, 800 };

	reg_cfg(&c, 1, 100, 1000, 1000, MEMREG_F_LMS, 1);
	c.lms.headroom = 0;
	c.lms.cold_start[0] = c.lms.cold_start[1] = 800;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	drive_period(r, 0, demand);	/* publishes for period 1 */
	memreg_replenish(r, 0, 1, demand, 0, &a);
	cr_assert_eq(a.budget[0], 800);
	/* no tick in period 1: period 2 has nothing published for it */
	memreg_replenish(r, 0, 2, demand, 0, &a);
	cr_assert_eq(a.budget[0], 100);
	cr_assert_eq(r->cpu[0].stats.stale_budgets, 2);	/* period 0 and 2 */
	/* a publication for a later period is not used early either */
	memreg_master_tick(r, 5);	/* publishes for 6 */
	memreg_replenish(r, 0, 3, demand, 0, &a);
	cr_assert_eq(a.budget[0], 100);
	free(r);
}

Test(master, skipped_periods_between_ticks_are_counted)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;

	reg_cfg(&c, 1, 100, 1000, 1000, MEMREG_F_LMS, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(memreg_master_tick(r, 7), MEMREG_OK);
	cr_assert_eq(r->master_skipped, 0, "the first tick skips nothing");
	cr_assert_eq(memreg_master_tick(r, 8), MEMREG_OK);
	cr_assert_eq(r->master_skipped, 0);
	cr_assert_eq(memreg_master_tick(r, 11), MEMREG_OK);	/* 9, 10 missed */
	cr_assert_eq(r->master_skipped, 2);
	cr_assert_eq(memreg_master_tick(r, 11), MEMREG_ESTALE);
	cr_assert_eq(memreg_master_tick(r, 10), MEMREG_ESTALE);
	cr_assert_eq(r->master_skipped, 2, "a refused tick counts nothing");
	cr_assert_eq(r->master_ticks, 3);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(r->master_skipped, 0, "a new configuration starts at 0");
	free(r);
}

Test(master, lms_budget_follows_a_step_through_the_full_path)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint64_t p, d[2] = { 0, 0 }, settle = 0;

	reg_cfg(&c, 1, 1000, 1000000, 1000000, MEMREG_F_LMS, 1);
	c.lms.headroom = 0;
	c.lms.cold_start[0] = c.lms.cold_start[1] = 10000;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	for (p = 0; p < 200; p++) {
		d[0] = p < 100 ? 10000 : 300000;
		memreg_replenish(r, 0, p, d, 0, &a);
		if (p >= 100 && !settle && adiff(a.budget[0], 300000) <= 15000)
			settle = p - 100;
		memreg_master_tick(r, p);
	}
	cr_assert_gt(settle, 0);
	cr_assert_leq(settle, 15, "budget reached the new demand after %lu periods",
		      (unsigned long)settle);
	cr_assert_eq(r->master_ticks, 200);
	free(r);
}

Test(master, extreme_inputs_keep_budgets_in_range)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint64_t seed = 0xdeadbeef, p;
	uint32_t cpu, cls, n = 64;

	memreg_cfg_defaults(&c, n);
	c.flags = MEMREG_F_LMS | MEMREG_F_RECLAIM;
	c.lms.taps = 16;
	c.lms.mu = MEMREG_MU_MAX;
	c.lms.headroom = MEMREG_HEADROOM_MAX;
	c.reclaim_quantum = 0xffffffffu;
	for (cls = 0; cls < 2; cls++) {
		c.platform_ceiling[cls] = MEMREG_EVENTS_MAX;
		c.lms.cold_start[cls] = ~0ULL;
		for (cpu = 0; cpu < n; cpu++) {
			c.cpu[cpu].guaranteed[cls] = 1 + cpu;
			c.cpu[cpu].ceiling[cls] = cpu & 1 ? MEMREG_EVENTS_MAX : 1000 + cpu;
		}
	}
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	for (p = 0; p < 200; p++) {
		uint64_t sum[2] = { 0, 0 };

		for (cpu = 0; cpu < n; cpu++) {
			uint64_t x = reg_rand(&seed);
			uint64_t used[2] = { x & 1 ? ~0ULL : x, x & 2 ? 0 : x >> 3 };

			cr_assert_eq(memreg_replenish(r, cpu, p, used, ~0ULL, &a), MEMREG_OK);
			for (cls = 0; cls < 2; cls++) {
				uint64_t b = r->cpu[cpu].budget[cls];

				cr_assert_leq(b, c.cpu[cpu].ceiling[cls]);
				sum[cls] += b;
			}
			/* a huge overflow: takes at most up to the ceiling */
			memreg_overflow(r, cpu, 0, ~0ULL, &a);
			cr_assert_leq(a.budget[0], c.cpu[cpu].ceiling[0]);
		}
		for (cls = 0; cls < 2; cls++)
			cr_assert_leq(sum[cls], MEMREG_EVENTS_MAX);
		memreg_master_tick(r, p);
		for (cpu = 0; cpu < n; cpu++) {
			for (cls = 0; cls < 2; cls++) {
				int64_t w = memreg_atomic64_read(
					&r->cpu[cpu].next_budget[(p + 1) & 1][cls]);
				uint64_t b = (uint32_t)w;

				cr_assert_eq((uint64_t)w >> 32, (p + 1) & 0xffffffffu);
				cr_assert_geq(b, c.cpu[cpu].guaranteed[cls]);
				cr_assert_leq(b, c.cpu[cpu].ceiling[cls]);
			}
		}
	}
	free(r);
}

/*
 * A class no CPU counts (MEMREG_F_UNCOUNTED_WRITE): the master leaves it
 * alone (no prediction, no donation, no grant) and its budgets stay the
 * guarantees without counting as stale, while the read class gets
 * exactly what it gets without the flag.
 */
Test(master, an_uncounted_class_is_left_alone)
{
	const uint32_t f = MEMREG_F_LMS | MEMREG_F_RECLAIM | MEMREG_F_SHARE;
	struct memreg *r = reg_new(), *ref = reg_new();
	struct memreg_cfg c, cref;
	struct memreg_arm a, aref;
	uint64_t p, used[2] = { 0, 0 }, grant[2], stale10[2] = { 0, 0 };
	uint32_t cpu;

	reg_cfg(&c, 2, 100, 400, 1000, f | MEMREG_F_UNCOUNTED_WRITE, 5);
	reg_cfg(&cref, 2, 100, 400, 1000, f, 5);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(memreg_init(ref, &cref, NULL), MEMREG_OK);
	for (p = 0; p < 60; p++) {
		for (cpu = 0; cpu < 2; cpu++) {
			used[0] = 50 + 7 * (p % 5) + 20 * cpu;
			cr_assert_eq(memreg_replenish(r, cpu, p, used, 0, &a), MEMREG_OK);
			cr_assert_eq(memreg_replenish(ref, cpu, p, used, 0, &aref), MEMREG_OK);
			cr_assert_eq(a.budget[0], aref.budget[0], "read budget, period %lu",
				     (unsigned long)p);
			cr_assert_eq(a.budget[1], 100, "write stays the guarantee");
		}
		memreg_master_tick(r, p);
		memreg_master_tick(ref, p);
		if (p == 10)	/* the first periods have nothing published */
			for (cpu = 0; cpu < 2; cpu++)
				stale10[cpu] = r->cpu[cpu].stats.stale_budgets;
	}
	for (cpu = 0; cpu < 2; cpu++) {
		cr_assert_eq(r->cpu[cpu].lms[1].updates, 0, "no write prediction");
		cr_assert_eq(r->cpu[cpu].stats.donated[1], 0, "no write donation");
		cr_assert_gt(ref->cpu[cpu].stats.donated[1], 0, "the reference donates");
		cr_assert_eq(r->cpu[cpu].stats.donated[0], ref->cpu[cpu].stats.donated[0]);
		cr_assert_eq(r->cpu[cpu].stats.stale_budgets, stale10[cpu],
			     "no stale write budget once reads are published");
	}
	/* every CPU throttled on read: a read grant, none for writes */
	for (cpu = 0; cpu < 2; cpu++)
		memreg_overflow(r, cpu, 0, 400, &a);
	cr_assert_eq(memreg_master_share(r, p, grant), MEMREG_OK);
	cr_assert_gt(grant[0], 0);
	cr_assert_eq(grant[1], 0);
	free(r);
	free(ref);
}
