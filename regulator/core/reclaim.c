// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * reclaim.c - the global reclaim pool and the spare-sharing decision.
 *
 * The pool
 * --------
 * Per class two words, used by even and odd periods, each packed
 * {period tag, amount}.  Who donates: the master, in period p, for period
 * p + 1 (memreg_master_tick()): a CPU's budget for p + 1 is its base budget
 * minus what it donated, so donating costs the per-core path nothing; and
 * the unit tests donate and take through memreg_internal.h.  Rules for
 * the word of period p, each applied inside a cmpxchg loop so that the
 * word is only ever replaced by a value computed from the exact word it
 * replaces:
 *
 *   donate(p, d):  tag == p      -> amount += d (saturating at E; the
 *                                   excess is forfeited, never created)
 *                  tag before p  -> the word is stale: replace it by
 *                                   {p, d}; the stale amount is void
 *                  tag after p   -> the donor is late: accept nothing
 *   take(p, w):    tag == p      -> t = min(amount, w); amount -= t
 *                  otherwise     -> take nothing
 *
 * Invariant: for every period p, the amounts taken with tag p sum to at
 * most the amounts accepted with tag p.  Proof: while the tag is p, the
 * amount equals (accepted with tag p) - (taken with tag p) >= 0 and only
 * a take lowers it by what it returns; once the tag moves past p it never
 * returns to p (a donor only installs its own, later period, and the
 * master's refresh only installs the current period over an older one),
 * so nothing can be taken with tag p afterwards.  Tags are 32 bits; the
 * master refreshes the word each period, so a tag is never 2^31 periods
 * old and the serial-number comparison is unambiguous.
 *
 * The donate/take loops themselves are memreg_pool_*_inline() in
 * memreg_internal.h, so the per-core path inlines them.
 *
 * Spare sharing
 * -------------
 * When a per-core overflow sees every active online CPU throttled it
 * returns MEMREG_THROTTLE_ALL; the glue pokes the master CPU, which calls
 * memreg_master_share().  That publishes, at most once per period, a
 * per-CPU grant {p, g} with g = (platform ceiling - sum of the period's
 * published budgets of the online CPUs - what the master donated for the
 * period) / active online CPUs (an offline CPU uses nothing; with reclaim
 * and no LMS its guarantee is in the donated sum).  Reclaim only moves budget between CPUs (a donor's published
 * budget is lower by what it donated), so that sum bounds what was handed
 * out, and sum + donated + n * g <= ceiling.  Each CPU adds g at most once
 * per period (memreg_accept_share()).
 *
 * That is cfg.share_mode MEMREG_SHARE_GRANT.  The two modes of MemGuard
 * need no arithmetic: MEMREG_SHARE_SPARE publishes, once per period, that
 * every CPU is released until the period ends (each takes an infinite
 * budget for the rest of it); MEMREG_SHARE_PROPORTIONAL publishes a new
 * period, numbered within the grid period, each time every online CPU
 * is throttled again after taking the last one (each gets its period's
 * budget again on top of what it used).
 *
 * Donors first
 * ------------
 * A CPU whose budget the master lowered below its guarantee by donating
 * gets, at its first overflow, its budget back up to the guarantee before
 * it takes anything else (memreg_overflow()): as much as the pool still
 * holds comes out of the pool; what others already took is given anyway
 * (stats.restored).  A guarantee is a reservation: in such a period the
 * platform sum may pass the ceiling by what others took of guaranteed
 * donations, never by more.
 */
#include "memreg_internal.h"

/*
 * Whether every CPU of @on took new period @gen of @period (proportional
 * sharing): a poke that comes before they all did belongs to the round
 * already decided.  The owners' fields are read racily: a stale read only
 * delays the next round to the next poke.
 */
static int memreg_all_took(const struct memreg *r, memreg_u64 on,
			   memreg_u64 period, memreg_u64 gen)
{
	memreg_u32 cpu;

	if (!gen)
		return 1;
	for (cpu = 0; cpu < r->cfg.nr_cpus; cpu++) {
		const struct memreg_cpu *c = &r->cpu[cpu];

		if (!((on >> cpu) & 1))
			continue;
		if (MEMREG_READ_ONCE(c->share_period) != period + 1 ||
		    MEMREG_READ_ONCE(c->share_gen) != gen)
			return 0;
	}
	return 1;
}

/*
 * Spare and proportional sharing: publish, in the share word of every
 * counted class, 1 (spare: released, once per period) or the number of
 * the next new period (proportional).
 */
static int memreg_master_release(struct memreg *r, memreg_u64 period,
				 memreg_u64 on)
{
	memreg_u32 cls, mode = r->cfg.share_mode;
	int published = 0;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_s64 old = memreg_atomic64_read(&r->share[cls]);
		memreg_u64 cur = memreg_word_tag(old) == (memreg_u32)period ?
				 memreg_word_val(old) : 0;
		memreg_u64 next;

		if (r->cfg.flags & MEMREG_F_UNCOUNTED(cls))
			continue;
		if (mode == MEMREG_SHARE_SPARE) {
			if (cur) {	/* already released this period */
				published = 1;
				continue;
			}
			next = 1;
		} else {
			if (!memreg_all_took(r, on, period, cur))
				continue;
			next = cur + 1;
		}
		/* One winner per decision if two pokes race. */
		if (memreg_atomic64_cmpxchg(&r->share[cls], old,
					    memreg_pack(period, next)) == old)
			published = 1;
	}
	return published ? MEMREG_OK : MEMREG_ENOSPC;
}

int memreg_master_share(struct memreg *r, memreg_u64 period,
			memreg_u64 grant[MEMREG_NR_CLASSES])
{
	memreg_u64 mask = (memreg_u64)memreg_atomic64_read(&r->throttled_mask);
	memreg_u64 on = memreg_online(r);
	memreg_u32 cpu, cls, n = 0;
	int published = 0;

	if (grant)
		grant[MEMREG_READ] = grant[MEMREG_WRITE] = 0;
	if (!(r->cfg.flags & MEMREG_F_SHARE) || (r->cfg.flags & MEMREG_F_MONITOR))
		return MEMREG_ENOSPC;
	if (!on || (mask & on) != on)
		return MEMREG_ENOSPC;
	if (r->cfg.share_mode != MEMREG_SHARE_GRANT)
		return memreg_master_release(r, period, on);
	for (cpu = 0; cpu < r->cfg.nr_cpus; cpu++)
		n += (memreg_u32)((on >> cpu) & 1);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_u64 sum = 0, ceil = r->cfg.platform_ceiling[cls], g;
		memreg_s64 old = memreg_atomic64_read(&r->share[cls]), dw;
		int stale = 0;

		if (r->cfg.flags & MEMREG_F_UNCOUNTED(cls))
			continue;	/* no counter: a grant would go unused */
		if (memreg_word_tag(old) == (memreg_u32)period &&
		    memreg_word_val(old)) {
			if (grant)	/* already decided for this period */
				grant[cls] = memreg_word_val(old);
			published = 1;
			continue;
		}
		dw = memreg_atomic64_read(&r->pool.donated[period & 1][cls]);
		if (memreg_word_tag(dw) == (memreg_u32)period)
			sum = memreg_word_val(dw);
		for (cpu = 0; cpu < r->cfg.nr_cpus; cpu++)
			if ((on >> cpu) & 1)
				sum += memreg_base_budget(r, &r->cpu[cpu], cls,
							  period, &stale);
		g = sum < ceil ? memreg_div64_u64(ceil - sum, n) : 0;
		if (!g)
			continue;
		/* One winner per period if two pokes race. */
		if (memreg_atomic64_cmpxchg(&r->share[cls], old,
					    memreg_pack(period, g)) != old)
			continue;
		if (grant)
			grant[cls] = g;
		published = 1;
	}
	return published ? MEMREG_OK : MEMREG_ENOSPC;
}
