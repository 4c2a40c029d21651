// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * budget.c - the per-core path: period replenishment, overflow handling
 * and throttle/unthrottle decisions.
 *
 * Every function here runs on the CPU it is about (hard-irq timer, PMU
 * overflow or irq_work context in the module), touches only that CPU's
 * struct memreg_cpu plus the lock-free cross-CPU words, and must stay
 * cheap: the target is <= 150 instructions per call (bench/regulator_cost).
 * The glue must not run two of them at once for the same CPU.
 */
#include "memreg_internal.h"

/* Fill @arm; @rearm: the classes whose counter the glue must re-arm. */
static inline void memreg_fill_arm(const struct memreg_cpu *c,
				   struct memreg_arm *arm, memreg_u32 action,
				   memreg_u32 rearm)
{
	memreg_u32 cls;

	arm->action = action;
	arm->rearm = rearm;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_u64 b = c->budget[cls], u = c->used[cls];

		arm->budget[cls] = b;
		arm->remaining[cls] = b == MEMREG_BUDGET_INF ? MEMREG_BUDGET_INF :
				      (u < b ? b - u : 0);
	}
}

/*
 * Account class @cls of the span that ended: statistics and the demand
 * record the master reads at its next tick.  @consumed is saturated to E.
 */
static MEMREG_ALWAYS_INLINE memreg_u32 memreg_account(struct memreg_cpu *restrict c,
						      memreg_u32 cls,
						      memreg_u64 consumed)
{
	struct memreg_stats *st = &c->stats;
	memreg_u64 u = memreg_sat_events(consumed);
	memreg_u64 b = c->budget[cls];

	st->consumed[cls] = memreg_sat_add(st->consumed[cls], u);
	memreg_atomic64_set(&c->demand[cls], memreg_pack(c->period, u));
	if (u <= b)
		return 0;
	st->overuse[cls] = memreg_sat_add(st->overuse[cls], u - b);
	return 1U << cls;
}

/*
 * Pick class @cls's budget for @period: the budget the master published
 * for it (already lowered by what it donated for this CPU), or the
 * guarantee.  Resets the use count and fills @arm for the class.
 */
static MEMREG_ALWAYS_INLINE void memreg_pick(struct memreg *restrict r,
					     struct memreg_cpu *restrict c,
					     memreg_u32 cls, memreg_u64 period,
					     int *restrict stale,
					     struct memreg_arm *restrict arm)
{
	memreg_u64 b = memreg_base_budget(r, c, cls, period, stale);

	c->used[cls] = 0;
	c->budget[cls] = b;
	arm->budget[cls] = b;
	arm->remaining[cls] = b;
}

/*
 * @cpu came back online and the master has not yet published a budget for
 * it for @period (it left the CPU out while it was away): cap each such
 * class's budget at what the platform ceiling leaves after the other
 * online CPUs' budgets for @period, what the master donated to its pool
 * and the spare grants of @period.  Cold: only until the master includes
 * the CPU again, one or two periods; kept out of line so that the hot
 * path pays one test for it.
 */
static __attribute__((__noinline__, __cold__))
void memreg_rejoin_cap(struct memreg *r, struct memreg_cpu *c, memreg_u32 cpu,
		       memreg_u64 period, struct memreg_arm *arm)
{
	memreg_u64 on = memreg_online(r) & ~((memreg_u64)1 << cpu);
	memreg_u32 cls, o, n = 0, stale_any = 0;

	for (o = 0; o < r->cfg.nr_cpus; o++)
		n += (memreg_u32)((on >> o) & 1);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_u64 sum = 0, ceil = r->cfg.platform_ceiling[cls], left;
		memreg_s64 w;
		int stale = 0;

		memreg_base_budget(r, c, cls, period, &stale);
		if (!stale)
			continue;
		stale_any = 1;
		for (o = 0; o < r->cfg.nr_cpus; o++)
			if ((on >> o) & 1)
				sum += memreg_base_budget(r, &r->cpu[o], cls, period,
							  &stale);
		w = memreg_atomic64_read(&r->pool.donated[period & 1][cls]);
		if (memreg_word_tag(w) == (memreg_u32)period)
			sum += memreg_word_val(w);
		w = memreg_atomic64_read(&r->share[cls]);
		if (memreg_word_tag(w) == (memreg_u32)period)
			sum += memreg_word_val(w) * n;
		left = sum < ceil ? ceil - sum : 0;
		if (c->budget[cls] > left) {
			c->budget[cls] = left;
			arm->budget[cls] = left;
			arm->remaining[cls] = left;
		}
	}
	if (!stale_any)
		c->rejoin = 0;
}

int memreg_replenish(struct memreg *restrict r, memreg_u32 cpu,
		     memreg_u64 period,
		     const memreg_u64 consumed[restrict MEMREG_NR_CLASSES],
		     memreg_u64 throttled_ns, struct memreg_arm *restrict arm)
{
	struct memreg_cpu *c;
	memreg_u32 flags = r->cfg.flags;
	int stale = 0;

	if (memreg_unlikely(!memreg_cpu_ok(r, cpu)))
		return MEMREG_ENODEV;
	c = &r->cpu[cpu];
	MEMREG_HIDE_VAR(c);
	if (memreg_likely(c->started)) {
		struct memreg_stats *st = &c->stats;
		memreg_u64 skipped = period - c->period - 1;

		/* skipped is huge when period <= c->period (unsigned wrap) */
		if (memreg_unlikely(skipped)) {
			if (period <= c->period)
				return MEMREG_ESTALE;
			st->overruns = memreg_sat_add(st->overruns, skipped);
		}
		st->periods++;
		st->throttled_ns = memreg_sat_add(st->throttled_ns, throttled_ns);
		memreg_u32 cut = memreg_account(c, MEMREG_READ, consumed[MEMREG_READ]) |
				 memreg_account(c, MEMREG_WRITE, consumed[MEMREG_WRITE]);

		/* only the LMS predictor reads it (memreg_uncensor()) */
		if (flags & MEMREG_F_LMS)
			memreg_atomic64_set(&c->censored,
					    memreg_pack(c->period, cut));
	} else {
		MEMREG_WRITE_ONCE(c->started, 1);
	}
	c->period = period;
	arm->action = MEMREG_RUN;
	if (c->throttled) {	/* first, so that @cpu is dead afterwards */
		c->throttled = 0;
		memreg_mask_clear(&r->throttled_mask, (memreg_u64)1 << cpu);
	}
	if (memreg_unlikely(flags & MEMREG_F_MONITOR)) {
		c->used[MEMREG_READ] = c->used[MEMREG_WRITE] = 0;
		c->budget[MEMREG_READ] = c->budget[MEMREG_WRITE] = MEMREG_BUDGET_INF;
		memreg_fill_arm(c, arm, MEMREG_RUN, MEMREG_ARM_ALL);
	} else {
		arm->rearm = MEMREG_ARM_ALL;
		memreg_pick(r, c, MEMREG_READ, period, &stale, arm);
		memreg_pick(r, c, MEMREG_WRITE, period, &stale, arm);
		c->stats.stale_budgets += (memreg_u64)stale;
		if (memreg_unlikely(c->rejoin))
			memreg_rejoin_cap(r, c, cpu, period, arm);
	}
	return MEMREG_OK;
}

/*
 * Mark class @cls of @cpu exhausted; returns MEMREG_THROTTLE(_ALL).  An
 * exempt CPU is marked the same way (it counts as exhausted for spare
 * sharing) but the period is counted as an exempt overrun, not a throttle.
 */
static memreg_u32 memreg_throttle(struct memreg *r, struct memreg_cpu *c,
				  memreg_u32 cpu, memreg_u32 cls)
{
	memreg_u64 mask, on;

	if (!c->throttled) {
		if (memreg_unlikely(r->cfg.cpu[cpu].exempt))
			c->stats.exempt_overruns++;
		else
			c->stats.throttles++;
		mask = memreg_mask_set(&r->throttled_mask, (memreg_u64)1 << cpu);
	} else {
		mask = (memreg_u64)memreg_atomic64_read(&r->throttled_mask);
	}
	c->throttled |= 1U << cls;
	on = memreg_online(r);
	return (mask & on) == on ? MEMREG_THROTTLE_ALL : MEMREG_THROTTLE;
}

int memreg_overflow(struct memreg *r, memreg_u32 cpu, memreg_u32 cls,
		    memreg_u64 consumed, struct memreg_arm *arm)
{
	struct memreg_cpu *c;
	memreg_u64 u, b;

	if (memreg_unlikely(cls >= MEMREG_NR_CLASSES))
		return MEMREG_EINVAL;
	if (memreg_unlikely(!memreg_cpu_ok(r, cpu)))
		return MEMREG_ENODEV;
	c = &r->cpu[cpu];
	u = memreg_sat_events(consumed);
	b = c->budget[cls];
	c->used[cls] = u;
	if (u < b) {		/* early overflow, or monitor-only (b == INF) */
		memreg_fill_arm(c, arm, c->throttled ? MEMREG_THROTTLE : MEMREG_RUN,
				1U << cls);
		return MEMREG_OK;
	}
	if (r->cfg.flags & MEMREG_F_RECLAIM) {
		memreg_u64 room = c->ceiling[cls];
		memreg_u64 want;

		if (b < c->guaranteed[cls]) {
			/*
			 * A donor: only the master's donation puts a budget
			 * below the guarantee.  It gets it back first, from the
			 * pool while the pool still holds it, and in full.
			 */
			memreg_u64 back = c->guaranteed[cls] - b;
			memreg_u64 got = memreg_pool_take_inline(&r->pool, cls,
								 c->period, back);

			b = c->guaranteed[cls];
			c->budget[cls] = b;
			c->stats.reclaimed[cls] = memreg_sat_add(c->stats.reclaimed[cls], got);
			c->stats.restored[cls] = memreg_sat_add(c->stats.restored[cls],
								back - got);
			if (u < b) {
				memreg_fill_arm(c, arm, c->throttled ?
						MEMREG_THROTTLE : MEMREG_RUN, 1U << cls);
				return MEMREG_OK;
			}
		}
		want = (u - b) + r->cfg.reclaim_quantum;

		room = room > b ? room - b : 0;
		if (want > room)
			want = room;
		if (want) {
			memreg_u64 got = memreg_pool_take_inline(&r->pool, cls,
								 c->period, want);

			b += got;
			c->budget[cls] = b;
			c->stats.reclaimed[cls] = memreg_sat_add(c->stats.reclaimed[cls], got);
			if (u < b) {
				memreg_fill_arm(c, arm, c->throttled ?
						MEMREG_THROTTLE : MEMREG_RUN, 1U << cls);
				return MEMREG_OK;
			}
		}
	}
	memreg_fill_arm(c, arm, memreg_throttle(r, c, cpu, cls), 1U << cls);
	return MEMREG_OK;
}

int memreg_cpu_set_online(struct memreg *r, memreg_u32 cpu, int online)
{
	struct memreg_cpu *c;
	memreg_u64 bit = (memreg_u64)1 << cpu;

	if (memreg_unlikely(!memreg_cpu_ok(r, cpu)))
		return MEMREG_ENODEV;
	c = &r->cpu[cpu];
	if (c->throttled) {
		c->throttled = 0;
		memreg_mask_clear(&r->throttled_mask, bit);
	}
	MEMREG_WRITE_ONCE(c->started, 0);
	c->rejoin = !!online;
	if (online)
		memreg_mask_set(&r->online_mask, bit);
	else
		memreg_mask_clear(&r->online_mask, bit);
	return MEMREG_OK;
}

/*
 * Spare or proportional sharing: take the release or the new period the
 * master published for @c's period, if not taken yet.  A decision for
 * the next period is taken too: the master decides by the grid period,
 * and a CPU whose periods start after the grid (the master CPU carrying
 * the tick) or whose timer is late is still in the previous one while
 * throttled with the others; it is released (or starts anew) for what is
 * left of its own period.  Returns 1 if it took something.
 */
static int memreg_take_release(struct memreg *r, struct memreg_cpu *c)
{
	memreg_u32 cls, mode = r->cfg.share_mode;
	memreg_u64 gen = 0, t = 0;
	int stale = 0;

	for (cls = 0; cls < MEMREG_NR_CLASSES && !gen; cls++) {
		memreg_s64 w = memreg_atomic64_read(&r->share[cls]);
		memreg_u32 tag = memreg_word_tag(w);

		if (r->cfg.flags & MEMREG_F_UNCOUNTED(cls))
			continue;
		if (tag == (memreg_u32)c->period)
			t = c->period;
		else if (tag == (memreg_u32)(c->period + 1))
			t = c->period + 1;
		else
			continue;
		gen = memreg_word_val(w);
	}
	if (!gen || (c->share_period == t + 1 &&
		     (mode == MEMREG_SHARE_SPARE || c->share_gen >= gen)))
		return 0;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_u64 b = c->budget[cls];

		if ((r->cfg.flags & MEMREG_F_UNCOUNTED(cls)) ||
		    b == MEMREG_BUDGET_INF)
			continue;
		if (mode == MEMREG_SHARE_SPARE)
			c->budget[cls] = MEMREG_BUDGET_INF;
		else	/* used <= E and a budget <= E: no overflow */
			c->budget[cls] = c->used[cls] +
				memreg_base_budget(r, c, cls, c->period, &stale);
	}
	if (mode == MEMREG_SHARE_SPARE) {
		c->stats.released++;
	} else {
		c->stats.periods++;
		c->stats.restarts++;
	}
	MEMREG_WRITE_ONCE(c->share_gen, gen);
	MEMREG_WRITE_ONCE(c->share_period, t + 1);
	return 1;
}


/*
 * memreg_take_grant - share=grant: add this period's grant to each class
 * of CPU @c, once per period.  Returns 1 when something was taken.
 */
static int memreg_take_grant(struct memreg *r, struct memreg_cpu *c)
{
	memreg_u64 gp = c->period;
	memreg_u32 cls;
	int got = 0;

	if (c->share_period == gp + 1)
		return 0;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_s64 w = memreg_atomic64_read(&r->share[cls]);
		memreg_u64 g = memreg_word_val(w);
		memreg_u64 ceil = c->ceiling[cls];
		memreg_u64 b = c->budget[cls];

		if (memreg_word_tag(w) != (memreg_u32)gp || !g ||
		    b == MEMREG_BUDGET_INF)
			continue;
		if (b + g > ceil)
			g = ceil > b ? ceil - b : 0;
		c->budget[cls] = b + g;
		c->stats.shared[cls] = memreg_sat_add(c->stats.shared[cls], g);
		got = 1;
	}
	if (got)
		c->share_period = gp + 1;
	return got;
}

int memreg_accept_share(struct memreg *r, memreg_u32 cpu,
			struct memreg_arm *arm)
{
	struct memreg_cpu *c;
	memreg_u32 cls, exhausted = 0;
	int got;

	if (memreg_unlikely(!memreg_cpu_ok(r, cpu)))
		return MEMREG_ENODEV;
	c = &r->cpu[cpu];
	if (r->cfg.share_mode != MEMREG_SHARE_GRANT)
		got = memreg_take_release(r, c);
	else
		got = memreg_take_grant(r, c);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++)
		if (c->used[cls] >= c->budget[cls])
			exhausted |= 1U << cls;
	if (c->throttled && !exhausted) {
		c->throttled = 0;
		memreg_mask_clear(&r->throttled_mask, (memreg_u64)1 << cpu);
	} else if (c->throttled) {
		c->throttled = exhausted;	/* still throttled: mask bit stays */
	}
	memreg_fill_arm(c, arm, c->throttled ? MEMREG_THROTTLE : MEMREG_RUN,
			MEMREG_ARM_ALL);
	return got ? MEMREG_OK : MEMREG_ENOSPC;
}
