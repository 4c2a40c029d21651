// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_classes.c - two counted classes on one CPU, and what the master
 * learns from them:
 *  - re-arming one class (reclaim take, early overflow, spare grant) never
 *    moves the other class's overflow point past its budget;
 *  - LMS uncensoring under reclaim: a donor that never ran out of the
 *    budget it really had is fed its demand, not 1.25 x demand + 1.
 *
 * The counter model plays the glue (regulator/kmod/counter.c): both
 * classes count the same event stream (cpu-clock on both, as the guest
 * check does); a counter fires when its count reaches the point it was
 * armed for, and the glue re-arms a class only as struct memreg_arm says.
 */
#include <criterion/criterion.h>

#include "reg_helpers.h"

/**
 * struct ctr - the counter model of one CPU
 * @fire: per class, the count at which the class's counter overflows
 * @budget: per class, the budget the core last reported
 * @t: events counted since the period start (both classes)
 * @held: the CPU is throttled
 */
struct ctr {
	uint64_t fire[MEMREG_NR_CLASSES];
	uint64_t budget[MEMREG_NR_CLASSES];
	uint64_t t;
	int held;
};

/* Apply @a as the glue does: re-arm each class it names to what is left
 * of that class's budget at the live count. */
static void apply(struct ctr *k, const struct memreg_arm *a)
{
	uint32_t cls;

	k->held = a->action != MEMREG_RUN;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		k->budget[cls] = a->budget[cls];
		if (!(a->rearm & (1U << cls)))
			continue;
		k->fire[cls] = k->t + a->remaining[cls];
	}
}

/* Run CPU @cpu's period until it is throttled or @want events are
 * counted; returns the count. */
static uint64_t run_period(struct memreg *r, uint32_t cpu, struct ctr *k,
			   uint64_t want)
{
	struct memreg_arm a;

	while (!k->held && k->t < want) {
		uint32_t cls = k->fire[0] <= k->fire[1] ? 0 : 1;
		uint64_t at = k->fire[cls];

		if (at > want) {
			k->t = want;
			break;
		}
		k->t = at;
		cr_assert_eq(memreg_overflow(r, cpu, cls, k->t, &a), MEMREG_OK);
		apply(k, &a);
	}
	return k->t;
}

Test(classes, a_reclaim_take_on_one_class_leaves_the_other_armed)
{
	struct memreg_cfg cfg;
	struct memreg *r = reg_new();
	const char *why = NULL;
	uint64_t zero[2] = { 0, 0 }, last[2] = { 0, 0 }, p;
	struct memreg_arm a;

	/*
	 * CPU 1: read guaranteed 200, write 400 (its ceiling: it cannot
	 * take); CPU 0 an idle donor of read budget.  Both classes count
	 * the same stream, so CPU 1 must stop at its write budget, 400,
	 * while read keeps taking quanta of 100 from the pool.
	 */
	reg_cfg(&cfg, 2, 100, 900, 900, MEMREG_F_RECLAIM, 100);
	cfg.cpu[0].guaranteed[0] = 700;
	cfg.cpu[1].guaranteed[0] = 200;
	cfg.cpu[1].guaranteed[1] = 400;
	cfg.cpu[1].ceiling[1] = 400;
	cfg.platform_ceiling[1] = 500;
	cr_assert_eq(memreg_init(r, &cfg, &why), MEMREG_OK, "%s", why);
	for (p = 0; p < 50; p++) {
		struct ctr k = { { 0, 0 }, { 0, 0 }, 0, 0 };
		uint64_t used;

		cr_assert_eq(memreg_replenish(r, 0, p, zero, 0, &a), MEMREG_OK);
		cr_assert_eq(memreg_replenish(r, 1, p, last, 0, &a), MEMREG_OK);
		cr_assert_eq(a.rearm, 3U, "a period start arms both classes");
		apply(&k, &a);
		cr_assert_eq(memreg_master_tick(r, p), MEMREG_OK);
		used = run_period(r, 1, &k, 1000);
		last[0] = last[1] = used;
		cr_assert(k.held, "period %llu: CPU 1 ran the whole period",
			  (unsigned long long)p);
		cr_assert_leq(used, k.budget[1],
			      "period %llu: CPU 1 counted %llu, its write budget is %llu "
			      "(read budget %llu)", (unsigned long long)p,
			      (unsigned long long)used, (unsigned long long)k.budget[1],
			      (unsigned long long)k.budget[0]);
	}
	cr_assert_gt(r->cpu[1].stats.reclaimed[0], 0, "read took from the pool");
	free(r);
}

/*
 * CPU 0 wants 290..310 events a period against a guarantee of 1000; with
 * reclaim the master leaves it its last use plus a quantum of 5, so it
 * often overflows that lowered budget, takes its guarantee back and ends
 * the period far below it: never throttled, so its demand is its use.
 * CPU 1 is busy and throttled every period.  Returns the largest
 * prediction for CPU 0 after a warm-up, *dmax the largest demand.
 */
static uint64_t donor_predictions(uint64_t *dmax)
{
	struct memreg_cfg cfg;
	struct memreg *r = reg_new();
	const char *why = NULL;
	uint64_t used[2][2] = { { 0, 0 }, { 0, 0 } }, seed = 42, p, top = 0;
	struct memreg_arm a;
	uint32_t cpu;

	reg_cfg(&cfg, 2, 1000, 4000, 5000, MEMREG_F_LMS | MEMREG_F_RECLAIM, 5);
	cfg.flags |= MEMREG_F_UNCOUNTED_WRITE;
	cr_assert_eq(memreg_init(r, &cfg, &why), MEMREG_OK, "%s", why);
	*dmax = 0;
	for (p = 0; p < 600; p++) {
		struct ctr k[2];
		uint64_t want[2];

		memset(k, 0, sizeof(k));
		want[0] = 290 + reg_rand(&seed) % 21;
		want[1] = 5000;
		for (cpu = 0; cpu < 2; cpu++) {
			cr_assert_eq(memreg_replenish(r, cpu, p, used[cpu], 0, &a),
				     MEMREG_OK);
			apply(&k[cpu], &a);
			k[cpu].fire[1] = UINT64_MAX;	/* write counts nothing */
		}
		cr_assert_eq(memreg_master_tick(r, p), MEMREG_OK);
		for (cpu = 0; cpu < 2; cpu++) {
			uint64_t t = run_period(r, cpu, &k[cpu], want[cpu]);

			/* a throttled CPU counts past its budget (slack) */
			used[cpu][0] = k[cpu].held ? t + 1 : t;
		}
		cr_assert(!k[0].held, "period %llu: the donor was throttled",
			  (unsigned long long)p);
		if (p >= 100) {
			if (r->cpu[0].lms[0].last_pred > top)
				top = r->cpu[0].lms[0].last_pred;
			if (want[0] > *dmax)
				*dmax = want[0];
		}
	}
	free(r);
	return top;
}

Test(classes, a_donor_that_never_throttled_is_not_uncensored)
{
	uint64_t dmax, top = donor_predictions(&dmax);

	cr_assert_leq(top * 10, dmax * 11,
		      "the donor's prediction reached %llu, its demand at most %llu",
		      (unsigned long long)top, (unsigned long long)dmax);
}
