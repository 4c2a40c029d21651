// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * master.c - the master CPU's per-period work: feed every CPU's demand to
 * its predictors, turn predictions into budgets that respect the
 * guarantees, the per-CPU ceilings and the platform ceiling, publish them
 * for the next period, and refresh stale cross-CPU words.
 *
 * Runs on the master CPU only, once per period, never concurrently with
 * itself; it reads the regulated CPUs' demand words and writes their
 * next_budget words, both atomically (see memreg.h).
 *
 * Timing: in period p the master sees the demand of p - 1 (recorded at
 * each CPU's replenishment for p) and publishes budgets for p + 1, so a
 * budget is always predicted two periods ahead of the newest demand it
 * knows; the predictors run with horizon 2 for that reason.
 *
 * The platform-ceiling rule: with b_i = clamp(pred_i + headroom,
 * g_i, c_i), if S = sum b_i exceeds the ceiling C, every budget keeps its
 * guarantee and the excess over the guarantees is scaled down by the same
 * factor:  b_i' = g_i + (b_i - g_i) * (C - G) / (S - G),  G = sum g_i.
 * G <= C holds by validation, each product is < 2^64 (both factors <= E),
 * and rounding down gives sum b_i' <= G + (C - G) = C.
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

/* Make stale pool and share words current (see reclaim.c). */
static void memreg_refresh_words(struct memreg *r, memreg_u64 period)
{
	memreg_u32 cls;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_s64 w = memreg_atomic64_read(&r->pool.slot[cls]);

		if (memreg_tag_before(memreg_word_tag(w), period))
			memreg_atomic64_cmpxchg(&r->pool.slot[cls], w,
						memreg_pack(period, 0));
		w = memreg_atomic64_read(&r->share[cls]);
		if (memreg_tag_before(memreg_word_tag(w), period - 1))
			memreg_atomic64_cmpxchg(&r->share[cls], w,
						memreg_pack(period - 1, 0));
	}
}

int memreg_master_tick(struct memreg *r, memreg_u64 period)
{
	const struct memreg_cfg *cfg = &r->cfg;
	memreg_u64 budget[MEMREG_MAX_CPUS];
	memreg_u32 cpu, cls;

	r->master_ticks++;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_u64 sum = 0, gsum = 0;

		for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
			struct memreg_cpu *c = &r->cpu[cpu];
			struct memreg_lms_state *s = &c->lms[cls];
			memreg_s64 w;
			memreg_u32 pred = s->last_pred;

			if (!cfg->cpu[cpu].active)
				continue;
			w = memreg_atomic64_read(&c->demand[cls]);
			if (period && MEMREG_READ_ONCE(c->started) &&
			    memreg_word_tag(w) == (memreg_u32)(period - 1))
				pred = memreg_lms_update(s, cfg->lms.mu,
							 memreg_word_val(w));
			else
				r->master_missing++;
			budget[cpu] = memreg_budget_from_pred(&cfg->cpu[cpu], cls,
							      pred, cfg->lms.headroom);
			sum += budget[cpu];
			gsum += cfg->cpu[cpu].guaranteed[cls];
		}
		if (!(cfg->flags & MEMREG_F_LMS) || (cfg->flags & MEMREG_F_MONITOR))
			continue;
		if (sum > cfg->platform_ceiling[cls]) {
			memreg_u64 avail = cfg->platform_ceiling[cls] - gsum;
			memreg_u64 excess = sum - gsum;	/* > avail >= 0 */

			for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
				memreg_u64 g = cfg->cpu[cpu].guaranteed[cls];

				if (!cfg->cpu[cpu].active)
					continue;
				budget[cpu] = g + memreg_div64_u64((budget[cpu] - g) * avail,
								   excess);
			}
		}
		for (cpu = 0; cpu < cfg->nr_cpus; cpu++)
			if (cfg->cpu[cpu].active)
				memreg_atomic64_set(&r->cpu[cpu].next_budget[cls],
						    memreg_pack(period + 1, budget[cpu]));
	}
	memreg_refresh_words(r, period);
	return MEMREG_OK;
}
