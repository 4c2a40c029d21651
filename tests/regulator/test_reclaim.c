// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_reclaim.c - the reclaim pool (period tags, stale donations, many
 * threads hammering it), reclaim through the per-core path, and the
 * spare-sharing decision.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>

#include "memreg_internal.h"	/* the pool's donate and take */
#include "reg_helpers.h"

static const uint64_t zero2[2] = { 0, 0 };

Test(pool, take_never_exceeds_what_was_donated)
{
	struct memreg_pool pool = { 0 };

	cr_assert_eq(memreg_pool_take_inline(&pool, 0, 5, 10), 0, "empty pool");
	cr_assert_eq(memreg_pool_donate_inline(&pool, 0, 5, 100), 100);
	cr_assert_eq(memreg_pool_donate_inline(&pool, 0, 5, 20), 20);
	cr_assert_eq(memreg_pool_available(&pool, 0, 5), 120);
	cr_assert_eq(memreg_pool_available(&pool, 1, 5), 0, "classes are separate");
	cr_assert_eq(memreg_pool_take_inline(&pool, 0, 5, 30), 30);
	cr_assert_eq(memreg_pool_take_inline(&pool, 0, 5, 1000), 90);
	cr_assert_eq(memreg_pool_take_inline(&pool, 0, 5, 1), 0);
	cr_assert_eq(memreg_pool_donate_inline(&pool, 0, 5, 0), 0);
	cr_assert_eq(memreg_pool_available(&pool, 0, 5), 0);
}

Test(pool, stale_period_donations_are_void)
{
	struct memreg_pool pool;

	memset(&pool, 0, sizeof(pool));
	cr_assert_eq(memreg_pool_donate_inline(&pool, 1, 7, 500), 500);
	cr_assert_eq(memreg_pool_take_inline(&pool, 1, 8, 10), 0, "donated for 7, not 8");
	cr_assert_eq(memreg_pool_take_inline(&pool, 1, 6, 10), 0, "nor for 6");
	cr_assert_eq(memreg_pool_take_inline(&pool, 1, 9, 10), 0, "nor for 9 (same slot)");
	cr_assert_eq(memreg_pool_donate_inline(&pool, 1, 8, 3), 3);
	cr_assert_eq(memreg_pool_available(&pool, 1, 8), 3);
	cr_assert_eq(memreg_pool_available(&pool, 1, 7), 500, "a CPU still in 7 may take");
	cr_assert_eq(memreg_pool_donate_inline(&pool, 1, 9, 4), 4, "9 reuses 7's slot");
	cr_assert_eq(memreg_pool_available(&pool, 1, 9), 4, "7's leftover voided");
	cr_assert_eq(memreg_pool_take_inline(&pool, 1, 7, 10), 0, "7 is gone for good");
	/* a late donor (still in 7) is refused and keeps its budget */
	cr_assert_eq(memreg_pool_donate_inline(&pool, 1, 7, 50), 0);
	cr_assert_eq(memreg_pool_available(&pool, 1, 9), 4);
	/* saturation forfeits, never creates */
	cr_assert_eq(memreg_pool_donate_inline(&pool, 0, 11, MEMREG_EVENTS_MAX), MEMREG_EVENTS_MAX);
	memreg_pool_donate_inline(&pool, 0, 11, 1000);
	cr_assert_eq(memreg_pool_available(&pool, 0, 11), MEMREG_EVENTS_MAX);
}

Test(pool, master_tick_voids_stale_words_so_tags_never_alias)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;

	reg_cfg(&c, 1, 10, 100, 100, MEMREG_F_RECLAIM, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(memreg_pool_donate_inline(&r->pool, 0, 9, 40), 40);
	memreg_master_tick(r, 10);	/* installs 11 in 9's slot */
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 9), 0);
	/* 2^32 periods later the tag would read 9 again; the master moved it on */
	cr_assert_eq(memreg_pool_take_inline(&r->pool, 0, (1ULL << 32) + 9, 40), 0);
	cr_assert_eq(memreg_pool_donate_inline(&r->pool, 0, 9, 5), 0, "late donor refused");
	/* the current period's slot is made current too if it was stale */
	cr_assert_eq(memreg_pool_donate_inline(&r->pool, 0, 10, 7), 7);
	memreg_master_tick(r, 12);	/* skipped 11: 10's slot is 12's */
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 10), 0);
	cr_assert_eq(memreg_pool_donate_inline(&r->pool, 0, 12, 1), 1, "12's slot is current");
	cr_assert_eq(memreg_master_tick(r, 12), MEMREG_ESTALE, "one tick per period");
	free(r);
}

#define HAMMER_THREADS 8
#define HAMMER_PERIODS 3000
#define HAMMER_OPS 200000

/**
 * struct hammer - shared state of the pool hammer
 * @pool: the pool under test
 * @cur: the period "now"; threads advance it
 * @donated: per period, amounts the pool accepted
 * @taken: per period, amounts the pool handed out
 */
static struct hammer {
	struct memreg_pool pool;
	_Atomic uint64_t cur;
	_Atomic uint64_t donated[HAMMER_PERIODS];
	_Atomic uint64_t taken[HAMMER_PERIODS];
} hm;

/* One hammering thread: random donates and takes, some in stale periods. */
static void *hammer_thread(void *arg)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL * ((uintptr_t)arg + 1);
	uint32_t i;

	for (i = 0; i < HAMMER_OPS; i++) {
		uint64_t x = reg_rand(&seed), p = atomic_load(&hm.cur);

		if ((x & 63) == 0 && p + 1 < HAMMER_PERIODS)
			atomic_compare_exchange_strong(&hm.cur, &p, p + 1);
		if ((x >> 8 & 7) == 0 && p >= 2)
			p -= 1 + (x >> 12 & 1);	/* a late CPU */
		if (x >> 20 & 1) {
			uint64_t a = memreg_pool_donate_inline(&hm.pool, 0, p, (x >> 24) % 1000 + 1);

			atomic_fetch_add(&hm.donated[p], a);
		} else {
			uint64_t t = memreg_pool_take_inline(&hm.pool, 0, p, (x >> 24) % 1500 + 1);

			atomic_fetch_add(&hm.taken[p], t);
		}
	}
	return NULL;
}

Test(pool, hammer_granted_le_donated_in_every_period, .timeout = 60)
{
	pthread_t th[HAMMER_THREADS];
	uint64_t p, tot_d = 0, tot_t = 0, busy = 0;
	uintptr_t i;

	for (i = 0; i < HAMMER_THREADS; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, hammer_thread, (void *)i), 0);
	for (i = 0; i < HAMMER_THREADS; i++)
		pthread_join(th[i], NULL);
	for (p = 0; p < HAMMER_PERIODS; p++) {
		uint64_t d = atomic_load(&hm.donated[p]), t = atomic_load(&hm.taken[p]);

		cr_assert_leq(t, d, "period %lu: taken %lu > donated %lu",
			      (unsigned long)p, (unsigned long)t, (unsigned long)d);
		tot_d += d;
		tot_t += t;
		busy += t > 0;
	}
	cr_assert_gt(tot_t, tot_d / 4, "the hammer must actually reclaim (%lu of %lu)",
		     (unsigned long)tot_t, (unsigned long)tot_d);
	cr_assert_gt(busy, 100, "takes in many periods");
}

#define API_CPUS 8
#define API_PERIODS 400

/**
 * struct api_hammer - per-core-path hammer: threads play CPUs in lockstep
 * @r: the regulator
 * @bar: period barrier
 * @donated: per period, what the master donated for it
 * @reclaimed: per period, sum of what the CPUs took
 * @over_ceiling: budgets seen above a CPU ceiling (must stay 0)
 * @under_guarantee: throttles before the CPU used its guarantee (must
 *	stay 0: a donor gets its donation back first)
 */
static struct api_hammer {
	struct memreg *r;
	pthread_barrier_t bar;
	_Atomic uint64_t donated[API_PERIODS];
	_Atomic uint64_t reclaimed[API_PERIODS];
	_Atomic uint64_t over_ceiling;
	_Atomic uint64_t under_guarantee;
} ah;

/* One CPU: replenish, then overflow until throttled or its demand is met. */
static void *api_thread(void *arg)
{
	uint32_t cpu = (uint32_t)(uintptr_t)arg;
	uint64_t seed = 77 + cpu, used[2] = { 0, 0 }, p;
	struct memreg_stats *st = &ah.r->cpu[cpu].stats;

	for (p = 0; p < API_PERIODS; p++) {
		struct memreg_arm a;
		uint64_t r0 = st->reclaimed[0];
		uint64_t want = reg_rand(&seed) % 3000, got = 0;

		pthread_barrier_wait(&ah.bar);
		memreg_replenish(ah.r, cpu, p, used, 0, &a);
		if (cpu == 0 && p + 1 < API_PERIODS) {	/* CPU 0 is the master */
			int64_t w;

			memreg_master_tick(ah.r, p);
			w = memreg_atomic64_read(&ah.r->pool.donated[(p + 1) & 1][0]);
			if ((uint64_t)w >> 32 == ((p + 1) & 0xffffffffu))
				atomic_store(&ah.donated[p + 1], (uint32_t)w);
		}
		while (a.action == MEMREG_RUN && got < want) {
			uint64_t step = a.remaining[0] < want - got ? a.remaining[0] : want - got;

			got += step;
			if (step == a.remaining[0])	/* reached the armed count */
				memreg_overflow(ah.r, cpu, 0, got, &a);
			if (a.budget[0] > ah.r->cfg.cpu[cpu].ceiling[0])
				atomic_fetch_add(&ah.over_ceiling, 1);
			if (a.action != MEMREG_RUN &&
			    got < ah.r->cfg.cpu[cpu].guaranteed[0])
				atomic_fetch_add(&ah.under_guarantee, 1);
		}
		used[0] = got;
		atomic_fetch_add(&ah.reclaimed[p], st->reclaimed[0] - r0);
	}
	return NULL;
}

Test(pool, hammer_through_the_per_core_path, .timeout = 60)
{
	pthread_t th[API_CPUS];
	struct memreg_cfg c;
	uint64_t p, tot = 0;
	uintptr_t i;

	ah.r = reg_new();
	reg_cfg(&c, API_CPUS, 1000, 2500, 8000, MEMREG_F_RECLAIM, 50);
	cr_assert_eq(memreg_init(ah.r, &c, NULL), MEMREG_OK);
	pthread_barrier_init(&ah.bar, NULL, API_CPUS);
	for (i = 0; i < API_CPUS; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, api_thread, (void *)i), 0);
	for (i = 0; i < API_CPUS; i++)
		pthread_join(th[i], NULL);
	for (p = 0; p < API_PERIODS; p++) {
		cr_assert_leq(atomic_load(&ah.reclaimed[p]), atomic_load(&ah.donated[p]),
			      "period %lu", (unsigned long)p);
		tot += atomic_load(&ah.reclaimed[p]);
	}
	cr_assert_gt(tot, 0, "reclaim must have happened");
	cr_assert_eq(atomic_load(&ah.over_ceiling), 0);
	cr_assert_eq(atomic_load(&ah.under_guarantee), 0);
	free(ah.r);
}

/* Period @p on CPUs 0 (having used @busy) and 1 (idle), then the master. */
static void two_cpu_period(struct memreg *r, uint64_t p, uint64_t busy,
			   struct memreg_arm *a0, struct memreg_arm *a1)
{
	uint64_t used0[2] = { busy, 0 };

	memreg_replenish(r, 0, p, used0, 0, a0);
	memreg_replenish(r, 1, p, zero2, 0, a1);
	memreg_master_tick(r, p);
}

Test(reclaim, idle_core_donates_and_busy_core_gets_more)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a, b;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		uint64_t got;

		reg_cfg(&c, 2, 100, 1000, 200, pass ? MEMREG_F_RECLAIM : 0, 10);
		cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
		two_cpu_period(r, 0, 0, &a, &b);	/* no history: no donation */
		two_cpu_period(r, 1, 100, &a, &b);	/* tick sees period 0 */
		cr_assert_eq(b.budget[0], 100);
		/* period 2: CPU 1 used nothing in 0: keeps 10, 90 went to the pool */
		two_cpu_period(r, 2, 100, &a, &b);
		cr_assert_eq(b.budget[0], pass ? 10 : 100);
		cr_assert_eq(a.budget[0], 100, "CPU 0 used all of it: keeps it");
		got = a.budget[0];
		for (;;) {
			memreg_overflow(r, 0, 0, got, &a);
			if (a.action != MEMREG_RUN)
				break;
			got = a.budget[0];
		}
		if (pass) {
			cr_assert_eq(a.budget[0], 190, "static 100 + the 90 donated");
			cr_assert_eq(r->cpu[0].stats.reclaimed[0], 90);
			cr_assert_eq(r->cpu[1].stats.donated[0], 90 * 2, "for periods 2 and 3");
		} else {
			cr_assert_eq(a.budget[0], 100, "exactly its budget without reclaim");
			cr_assert_eq(r->cpu[1].stats.donated[0], 0);
		}
		/* two periods later period 2's slot is reused: its leftovers are void */
		two_cpu_period(r, 3, 190, &a, &b);
		two_cpu_period(r, 4, 100, &a, &b);
		cr_assert_eq(memreg_pool_available(&r->pool, 0, 2), 0);
	}
	free(r);
}

Test(reclaim, takes_stop_at_the_cpu_ceiling)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a, b;

	reg_cfg(&c, 2, 100, 130, 200, MEMREG_F_RECLAIM, 50);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	two_cpu_period(r, 0, 0, &a, &b);
	two_cpu_period(r, 1, 0, &a, &b);	/* both idle in 0: 50 + 50 donated for 2 */
	two_cpu_period(r, 2, 0, &a, &b);
	cr_assert_eq(a.budget[0], 50);
	cr_assert_eq(b.budget[0], 50);
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 2), 100);
	memreg_overflow(r, 0, 0, 50, &a);		/* takes 50 */
	cr_assert_eq(a.budget[0], 100);
	memreg_overflow(r, 0, 0, 100, &a);		/* 30 more: ceiling 130 */
	cr_assert_eq(a.budget[0], 130);
	memreg_overflow(r, 0, 0, 130, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 2), 20);
	free(r);
}

Test(share, spare_excludes_what_was_donated)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a, b;
	uint64_t g[2];

	reg_cfg(&c, 2, 100, 1000, 1000, MEMREG_F_SHARE | MEMREG_F_RECLAIM, 10);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	two_cpu_period(r, 0, 0, &a, &b);
	two_cpu_period(r, 1, 100, &a, &b);
	two_cpu_period(r, 2, 100, &a, &b);	/* CPU 1: 10, 90 in the pool */
	memreg_overflow(r, 1, 0, 10, &a);		/* its 90 back first: 100 */
	cr_assert_eq(a.budget[0], 100);
	cr_assert_eq(a.action, MEMREG_RUN);
	memreg_overflow(r, 0, 0, 100, &a);		/* pool empty: throttled */
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	memreg_overflow(r, 1, 0, 100, &b);
	cr_assert_eq(b.action, MEMREG_THROTTLE_ALL);
	/* published budgets 100 + 10, donated 90: spare (1000 - 200) / 2 */
	cr_assert_eq(memreg_master_share(r, 2, g), MEMREG_OK);
	cr_assert_eq(g[0], 400, "grant %lu", (unsigned long)g[0]);
	free(r);
}

/*
 * Period 2 of two CPUs guaranteed 100 (quantum 10): CPU 1 was idle, so the
 * master left it 10 and donated 90; CPU 0 (a hog) takes @hog_takes of it
 * before CPU 1 needs its budget again.
 */
static void donor_setup(struct memreg *r, uint64_t hog_takes)
{
	struct memreg_cfg c;
	struct memreg_arm a, b;
	uint64_t got = 100;

	reg_cfg(&c, 2, 100, 1000, 200, MEMREG_F_RECLAIM, 10);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	two_cpu_period(r, 0, 0, &a, &b);
	two_cpu_period(r, 1, 100, &a, &b);
	two_cpu_period(r, 2, 100, &a, &b);
	cr_assert_eq(b.budget[0], 10);
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 2), 90);
	while (got < 100 + hog_takes) {
		memreg_overflow(r, 0, 0, got, &a);
		cr_assert_eq(a.action, MEMREG_RUN);
		got = a.budget[0];
	}
	cr_assert_eq(a.budget[0], 100 + hog_takes);
}

Test(reclaim, donor_gets_its_donation_back_after_a_hog_took_it)
{
	struct memreg *r = reg_new();
	struct memreg_arm a;

	donor_setup(r, 90);			/* the hog took all of it */
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 2), 0);
	memreg_overflow(r, 1, 0, 10, &a);
	cr_assert_eq(a.action, MEMREG_RUN, "never throttled below its guarantee");
	cr_assert_eq(a.budget[0], 100);
	cr_assert_eq(a.remaining[0], 90);
	cr_assert_eq(r->cpu[1].stats.restored[0], 90);
	cr_assert_eq(r->cpu[1].stats.reclaimed[0], 0, "nothing was left in the pool");
	memreg_overflow(r, 1, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE, "at its guarantee, nothing more");
	free(r);
}

Test(reclaim, donor_takes_from_the_pool_first_then_the_rest)
{
	struct memreg *r = reg_new();
	struct memreg_arm a;

	donor_setup(r, 50);			/* 40 of its 90 still pooled */
	memreg_overflow(r, 1, 0, 12, &a);
	cr_assert_eq(a.action, MEMREG_RUN);
	cr_assert_eq(a.budget[0], 100);
	cr_assert_eq(r->cpu[1].stats.reclaimed[0], 40);
	cr_assert_eq(r->cpu[1].stats.restored[0], 50);
	cr_assert_eq(memreg_pool_available(&r->pool, 0, 2), 0);
	/* a hog finds nothing more */
	memreg_overflow(r, 0, 0, 150, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	free(r);
}

Test(reclaim, donor_back_first_even_when_the_pool_is_untouched)
{
	struct memreg *r = reg_new();
	struct memreg_arm a;

	donor_setup(r, 0);
	memreg_overflow(r, 1, 0, 10, &a);
	cr_assert_eq(a.budget[0], 100, "one overflow restores the whole guarantee");
	cr_assert_eq(r->cpu[1].stats.reclaimed[0], 90);
	cr_assert_eq(r->cpu[1].stats.restored[0], 0);
	free(r);
}

/* Start period @p on @n CPUs and exhaust every one of them. */
static uint32_t exhaust_all(struct memreg *r, uint32_t n, uint64_t p)
{
	struct memreg_arm a;
	uint32_t cpu, last = 0;

	for (cpu = 0; cpu < n; cpu++)
		memreg_replenish(r, cpu, p, zero2, 0, &a);
	for (cpu = 0; cpu < n; cpu++) {
		memreg_overflow(r, cpu, MEMREG_READ, a.budget[0], &a);
		last = a.action;
	}
	return last;
}

Test(share, spare_is_granted_once_all_are_throttled)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	struct memreg_arm a;
	uint64_t g[2];

	reg_cfg(&c, 2, 100, 1000, 1000, MEMREG_F_SHARE, 1);
	c.cpu[1].ceiling[0] = 250;
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	memreg_replenish(r, 0, 1, zero2, 0, &a);
	memreg_replenish(r, 1, 1, zero2, 0, &a);
	memreg_overflow(r, 0, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_ENOSPC, "not all throttled");
	memreg_overflow(r, 1, 0, 100, &a);
	cr_assert_eq(a.action, MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_OK);
	cr_assert_eq(g[0], 400, "(1000 - 200) / 2");
	cr_assert_eq(g[1], 400);
	/* a second poke in the same period decides nothing new */
	cr_assert_eq(memreg_master_share(r, 1, g), MEMREG_OK);
	cr_assert_eq(g[0], 400);

	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_OK);
	cr_assert_eq(a.action, MEMREG_RUN);
	cr_assert_eq(a.budget[0], 500);
	cr_assert_eq(a.remaining[0], 400);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_ENOSPC, "once per period");
	cr_assert_eq(a.budget[0], 500);
	cr_assert_eq(memreg_accept_share(r, 1, &a), MEMREG_OK);
	cr_assert_eq(a.budget[0], 250, "capped by the CPU ceiling");
	cr_assert_eq((uint64_t)memreg_atomic64_read(&r->throttled_mask), 0);
	cr_assert_eq(r->cpu[0].stats.shared[0], 400);
	cr_assert_eq(r->cpu[1].stats.shared[0], 150);

	/* the grant belongs to period 1 only */
	memreg_replenish(r, 0, 2, zero2, 0, &a);
	memreg_overflow(r, 0, 0, 100, &a);
	cr_assert_eq(memreg_accept_share(r, 0, &a), MEMREG_ENOSPC);
	cr_assert_eq(a.action, MEMREG_THROTTLE);
	free(r);
}

Test(share, nothing_to_share_when_guarantees_fill_the_ceiling)
{
	struct memreg *r = reg_new();
	struct memreg_cfg c;
	uint64_t g[2];

	reg_cfg(&c, 2, 500, 1000, 1000, MEMREG_F_SHARE, 1);
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(exhaust_all(r, 2, 3), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 3, g), MEMREG_ENOSPC);
	cr_assert_eq(g[0], 0);

	reg_cfg(&c, 2, 100, 1000, 1000, 0, 1);	/* sharing off */
	cr_assert_eq(memreg_init(r, &c, NULL), MEMREG_OK);
	cr_assert_eq(exhaust_all(r, 2, 3), MEMREG_THROTTLE_ALL);
	cr_assert_eq(memreg_master_share(r, 3, g), MEMREG_ENOSPC);
	free(r);
}
