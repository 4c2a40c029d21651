// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * master.c - the master CPU's per-period work: feed every CPU's demand to
 * its predictors, turn predictions into budgets that respect the
 * guarantees, the per-CPU ceilings and the platform ceiling, publish them
 * for the next period, and refresh stale cross-CPU words.
 *
 * Runs on the master CPU only, once per period, never concurrently with
 * itself; it reads the regulated CPUs' demand words and writes their
 * next_budget words and the pool words of the next period, all atomically
 * (see memreg.h); it also adds to the CPUs' stats.donated.
 *
 * Timing: in period p the master sees the demand of p - 1 (recorded at
 * each CPU's replenishment for p) and publishes budgets for p + 1, so a
 * budget is always predicted two periods ahead of the newest demand it
 * knows; the predictors run with horizon 2 for that reason.
 *
 * Reclaim: a CPU that used less than its budget last period keeps its
 * use plus one quantum for the next period and the rest goes to that
 * period's pool, from which any CPU that exhausts its budget takes; the
 * pool is filled before the period starts, so the regulated CPUs' timers
 * do no atomic read-modify-write for reclaim.
 *
 * The platform-ceiling rule: with b_i = clamp(pred_i + headroom,
 * g_i, c_i), if S = sum b_i exceeds the ceiling C, every budget keeps its
 * guarantee and the excess over the guarantees is scaled down by the same
 * factor:  b_i' = g_i + (b_i - g_i) * (C - G) / (S - G),  G = sum g_i.
 * G <= C holds by validation, each product is < 2^64 (both factors <= E),
 * and rounding down gives sum b_i' <= G + (C - G) = C.
 *
 * A class no CPU counts (MEMREG_F_UNCOUNTED_*) is skipped whole: its
 * budgets stay the guarantees (memreg_base_budget()), and its pool and
 * share words are never used, so they need no refreshing.
 *
 * Offline CPUs (memreg_cpu_set_online()) are left out of all of it: no
 * prediction, no budget, no share of G or S; with reclaim and without LMS
 * their guarantee is donated to the next period's pool (without LMS the
 * online budgets are their guarantees, so G_online + donated <= C).
 */
#include "memreg_internal.h"

/* Prediction -> budget in [guaranteed, ceiling] for one CPU and class. */
static inline memreg_u64 memreg_budget_from_pred(const struct memreg_cpu_cfg *cc,
						 memreg_u32 cls, memreg_u32 pred,
						 memreg_u32 headroom)
{
	memreg_u64 b = pred + (((memreg_u64)pred * headroom) >> MEMREG_Q_SHIFT);

	if (b < cc->guaranteed[cls])
		b = cc->guaranteed[cls];
	if (b > cc->ceiling[cls])
		b = cc->ceiling[cls];
	return b;	/* <= ceiling <= E */
}

/*
 * Install the pool word of @period + 1 with what the master donated, @d
 * (0..E), voiding the leftovers of @period - 1 that share its slot; make a
 * stale word of @period current (if the master was late last period) and
 * refresh the share word, so that no tag ever gets 2^31 periods old.
 */
static void memreg_refresh_words(struct memreg *r, memreg_u32 cls,
				 memreg_u64 period, memreg_u64 d)
{
	memreg_atomic64_t *now = memreg_pool_slot(&r->pool, cls, period);
	memreg_s64 w = memreg_atomic64_read(now);

	memreg_pool_donate_inline(&r->pool, cls, period + 1, d);
	memreg_atomic64_set(&r->pool.donated[(period + 1) & 1][cls],
			    memreg_pack(period + 1, d));
	if (memreg_tag_before(memreg_word_tag(w), period))
		memreg_atomic64_cmpxchg(now, w, memreg_pack(period, 0));
	w = memreg_atomic64_read(&r->share[cls]);
	if (memreg_tag_before(memreg_word_tag(w), period - 1))
		memreg_atomic64_cmpxchg(&r->share[cls], w,
					memreg_pack(period - 1, 0));
}

/*
 * A CPU that counted more than the budget it ended @period - 1 with
 * (reclaim takes and spare grants included) overflowed it and was
 * throttled (the overflow fires past the budget, so a throttled CPU
 * always counts more than it): what it used is only a lower bound of
 * what it wanted.  Feeding that censored figure to the predictor would
 * hold the prediction at the budget (or pull it down after any stall), so
 * the predictor is fed the use plus a quarter instead: while the CPU
 * keeps exhausting its budget the prediction climbs geometrically, up to
 * the CPU's ceiling, and it settles on the real demand once a period ends
 * unthrottled.  The test is against the final budget the CPU recorded
 * (memreg_cpu.censored), not the published one: reclaim publishes a
 * donor's last use plus a quantum, and a donor that passes it takes its
 * guarantee back without ever being throttled.  Bounds: @used <= 2^32 - 1
 * by the demand word's packing, so used + used / 4 fits in 64 bits and is
 * clamped to 32 bits.
 */
static memreg_u64 memreg_uncensor(struct memreg_cpu *c, memreg_u32 cls,
				  memreg_u64 period, memreg_u64 used)
{
	memreg_s64 w = memreg_atomic64_read(&c->censored);
	memreg_u64 fed;

	if (memreg_word_tag(w) != (memreg_u32)(period - 1) ||
	    !((memreg_word_val(w) >> cls) & 1))
		return used;
	fed = used + used / 4 + 1;
	return fed > 0xffffffffULL ? 0xffffffffULL : fed;
}

/*
 * Feed class @cls's demand of @period - 1 to the predictor of every CPU
 * in @on (active and online) and derive each one's budget for @period + 1
 * into @budget: clamped prediction with LMS, the guarantee without.
 * @last gets the demand, or MEMREG_BUDGET_INF where the CPU recorded
 * none.  *@late is set when one of them already started @period + 1 (the
 * same pass over the CPUs, so that a late tick costs no scan of its own).
 * Returns the sum.
 */
static memreg_u64 memreg_predict(struct memreg *r, memreg_u32 cls,
				 memreg_u64 period, memreg_u64 on,
				 memreg_u32 *budget, memreg_u64 *last,
				 int *late)
{
	const struct memreg_cfg *cfg = &r->cfg;
	memreg_u64 sum = 0;
	memreg_u32 cpu;
	int ahead = 0;

	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		struct memreg_cpu *c = &r->cpu[cpu];
		struct memreg_lms_state *s = &c->lms[cls];
		memreg_u32 pred = s->last_pred;
		memreg_s64 w;

		if (!((on >> cpu) & 1))
			continue;	/* not regulated, or offline */
		w = memreg_atomic64_read(&c->demand[cls]);
		last[cpu] = MEMREG_BUDGET_INF;
		/* periods only grow: one past @period was started */
		ahead |= MEMREG_READ_ONCE(c->period) > period;
		if (period && MEMREG_READ_ONCE(c->started) &&
		    memreg_word_tag(w) == (memreg_u32)(period - 1)) {
			last[cpu] = memreg_word_val(w);
			pred = memreg_lms_update(s, cfg->lms.mu,
						 memreg_uncensor(c, cls, period,
								 last[cpu]));
		} else {
			r->master_missing++;
		}
		if (cfg->flags & MEMREG_F_LMS)
			budget[cpu] = (memreg_u32)memreg_budget_from_pred(&cfg->cpu[cpu],
								       cls, pred,
								       cfg->lms.headroom);
		else
			budget[cpu] = (memreg_u32)c->guaranteed[cls];
		sum += budget[cpu];
	}
	*late |= ahead;
	return sum;
}

int memreg_master_tick(struct memreg *r, memreg_u64 period)
{
	const struct memreg_cfg *cfg = &r->cfg;
	memreg_u32 *budget = r->tick_budget;
	memreg_u64 *last = r->tick_last;
	memreg_u32 cpu, cls;
	int publish = (cfg->flags & MEMREG_F_PUBLISHED) &&
		      !(cfg->flags & MEMREG_F_MONITOR);
	memreg_u64 on = memreg_online(r);
	int late = 0;

	if (r->master_ticks && period <= r->master_period)
		return MEMREG_ESTALE;	/* twice in a period would donate twice */
	if (r->master_ticks && period - r->master_period > 1)
		r->master_skipped = memreg_sat_add(r->master_skipped,
						   period - r->master_period - 1);
	r->master_ticks++;
	r->master_period = period;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_u64 sum, gsum = 0, donated = 0;
		int reclaim, offline_gives;

		if (cfg->flags & MEMREG_F_UNCOUNTED(cls))
			continue;	/* nothing counted: nothing to do */
		sum = memreg_predict(r, cls, period, on, budget, last, &late);
		if (!publish) {
			memreg_refresh_words(r, cls, period, 0);
			continue;
		}
		/*
		 * A tick so late that a CPU already started @period + 1 (on
		 * the guarantee, nothing being published for it yet) must not
		 * donate for that period: the CPUs would take the donation on
		 * top of budgets that never gave it up.  It still publishes,
		 * without the reclaim cut: the budgets are then at least the
		 * guarantees, and each CPU runs on either its guarantee or its
		 * published budget.  Once late, the tick stays late for the
		 * next class.  Only a tick that publishes can donate.
		 */
		reclaim = (cfg->flags & MEMREG_F_RECLAIM) && !late;
		/* offline, without LMS: its guarantee to the pool */
		offline_gives = reclaim && !(cfg->flags & MEMREG_F_LMS);
		for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
			if ((on >> cpu) & 1) {
				gsum += cfg->cpu[cpu].guaranteed[cls];
			} else if (offline_gives && cfg->cpu[cpu].active) {
				memreg_u64 d = cfg->cpu[cpu].guaranteed[cls];

				donated += d;
				r->cpu[cpu].stats.donated[cls] =
					memreg_sat_add(r->cpu[cpu].stats.donated[cls], d);
			}
		}
		if (sum > cfg->platform_ceiling[cls]) {
			memreg_u64 avail = cfg->platform_ceiling[cls] - gsum;
			memreg_u64 excess = sum - gsum;	/* > avail >= 0 */

			for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
				memreg_u64 g = cfg->cpu[cpu].guaranteed[cls];

				if (!((on >> cpu) & 1))
					continue;
				budget[cpu] = (memreg_u32)(g +
					memreg_div64_u64((budget[cpu] - g) * avail, excess));
			}
		}
		for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
			if (!((on >> cpu) & 1))
				continue;
			/*
			 * Reclaim: keep last known use plus one quantum, give
			 * the rest to the pool of period + 1.  keep >= 1, so
			 * the published budget stays >= 1.
			 */
			if (reclaim && last[cpu] != MEMREG_BUDGET_INF) {
				memreg_u64 keep = last[cpu] + cfg->reclaim_quantum;

				if (keep < budget[cpu]) {
					memreg_u64 d = budget[cpu] - keep;

					budget[cpu] = (memreg_u32)keep;
					donated += d;	/* sum <= ceiling <= E */
					r->cpu[cpu].stats.donated[cls] =
						memreg_sat_add(r->cpu[cpu].stats.donated[cls], d);
				}
			}
			memreg_atomic64_set(&r->cpu[cpu].next_budget[(period + 1) & 1][cls],
					    memreg_pack(period + 1, budget[cpu]));
		}
		memreg_refresh_words(r, cls, period, donated);
	}
	if (late && publish && (cfg->flags & MEMREG_F_RECLAIM))
		r->master_late++;
	return MEMREG_OK;
}
