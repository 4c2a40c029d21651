/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * memreg.h - the portable memory-bandwidth regulator core.
 *
 * This is the whole API of regulator/core/.  Its two callers are the kernel
 * glue (regulator/kmod/) and the simulator (regulator/sim/); unit tests drive
 * it period by period.  No allocation: the caller owns a struct memreg
 * (about 43 KiB; the module should vzalloc() it) and everything lives inside.
 *
 * Model
 * -----
 * Time is cut into regulation periods numbered by the caller (the glue uses
 * ktime / period_ns, so every CPU agrees on the number of "now").  Each
 * regulated CPU has, per traffic class (read, write), a budget of counted
 * PMU events for the period.  Three entry points run on the regulated CPU
 * itself and are cheap (the "per-core path"):
 *
 *   memreg_replenish()     at the CPU's period timer: account the period
 *                          that ended, pick this period's budgets (as the
 *                          master published them), unthrottle; tells the
 *                          glue how far to arm each counter.  No atomic
 *                          read-modify-write on the common path.
 *   memreg_overflow()      at a counter overflow: take from the reclaim pool
 *                          or decide to throttle; reports whether every
 *                          active CPU is now throttled (the glue then pokes
 *                          the master CPU, e.g. with irq_work).
 *   memreg_accept_share()  when the glue tells a throttled CPU that the
 *                          master published a spare grant.
 *
 * Two entry points run on the master CPU, off the regulated CPUs' timer path:
 *
 *   memreg_master_tick()   once per period: NLMS update for every CPU and
 *                          class, clamp to [guaranteed, ceiling], enforce
 *                          the platform ceiling, move each CPU's
 *                          guaranteed-but-unused budget into the reclaim
 *                          pool of the next period, publish next-period
 *                          budgets.
 *   memreg_master_share()  when poked because every active CPU is
 *                          throttled: decide the spare grant.
 *
 * The core never calls another CPU, never sleeps and takes no lock.  All
 * data written by one CPU and read by another is a packed {period tag,
 * value} word in a memreg_atomic64_t, so a reader can always tell whether
 * the value belongs to the period it is in (memreg_internal.h).
 *
 * Concurrency rules
 * -----------------
 *  - struct memreg_cfg inside struct memreg is read-only while regulating.
 *    To change it the glue stops all timers/counters, calls memreg_init()
 *    again (the sysfs "commit"), and restarts them.
 *  - struct memreg_cpu fields marked "owner" are written only by that CPU's
 *    per-core entry points, which the glue must not run concurrently for
 *    the same CPU (hard-irq timer and PMU overflow on the same CPU do not
 *    nest when the glue calls the overflow path with interrupts off or from
 *    irq_work; memreg_accept_share() likewise).  Other CPUs may read them
 *    racily for statistics only (64-bit reads are whole on 64-bit CPUs).
 *  - Fields marked "master" are written only by memreg_master_tick(), which
 *    the glue must not run concurrently with itself.
 *  - Fields of type memreg_atomic64_t may be touched from any CPU.
 *
 * Units and bounds (the no-overflow argument, checked by the unit tests)
 * ----------------------------------------------------------------------
 *  E := MEMREG_EVENTS_MAX = 2^32 - 1.  Every events-per-period quantity that
 *  enters the core (budgets, ceilings, demand, counter readings) is first
 *  saturated to E, so it fits a u32.  Internally:
 *   - budgets: guaranteed_i <= ceiling_i <= E, a period's budget including
 *     reclaim and spare grants never exceeds the CPU ceiling (<= E); sums
 *     over at most 64 CPUs are < 2^38 in a u64.
 *   - proportional scaling b' = g + (b - g) * A / X with b - g <= E and
 *     A <= E: the product is < 2^64.
 *   - reclaim pool and spare grants: 32-bit amounts; a donation is added
 *     with saturation at E (excess is forfeited, never created).
 *   - NLMS (lms.c): weights Q24 in [-4, 4] (|w| <= 2^26); the update works
 *     on inputs shifted right so that every tap and the target are < 2^12;
 *     then |w.x| <= 16 * 2^26 * 2^12 = 2^42, the error |e| < 2^43 (Q24),
 *     mu <= 2^17 so |mu * e| < 2^60, the per-tap step
 *     |mu * e / |x|^2| * x_i <= 2^60 (because x_i <= |x|^2 for x_i >= 1);
 *     the prediction uses unshifted taps: |sum w_i x_i| <= 16 * 2^26 * E
 *     < 2^62.  All intermediates are 64-bit; results are saturated back
 *     to [0, E].
 *   - statistics: event and ns counters are u64 with saturating adds;
 *     periods and throttles grow by one per period (2^64 periods: never).
 *   - period tags are the low 32 bits of the period number; the master
 *     refreshes stale tags each period so no word survives 2^32 periods.
 */
#ifndef MEMREG_H
#define MEMREG_H

#include "memreg_port.h"

/*
 * The module's version string (MODULE_VERSION, /sys/module/memreg/version);
 * memtune records it in each configuration and 'memtune check' compares it.
 */
#define MEMREG_VERSION		"0.1.0"

/* Fixed sizes (no allocation). */
#define MEMREG_MAX_CPUS		64	/* CPU slots; a u64 bitmask covers them */
#define MEMREG_NR_CLASSES	2
#define MEMREG_MAX_TAPS		16
#define MEMREG_MIN_TAPS		1

/**
 * enum memreg_class - traffic classes, each with its own counter and budget
 * @MEMREG_READ: read traffic (e.g. L2 refills / LLC misses)
 * @MEMREG_WRITE: write traffic (e.g. L2 write-backs)
 */
enum memreg_class {
	MEMREG_READ = 0,
	MEMREG_WRITE = 1,
};

/* Saturation bound of every events-per-period quantity (see above). */
/*
 * memreg.ko's default slack_div: a counter overflows every guarantee /
 * slack_div events, and a guarantee below it is refused on an event that
 * cannot be re-armed (one interrupt per event); planners give no less.
 */
#define MEMREG_SLACK_DIV_DEFAULT	8
#define MEMREG_EVENTS_MAX	0xffffffffULL
/* Budget reported in monitor-only mode: do not arm the counter. */
#define MEMREG_BUDGET_INF	(~(memreg_u64)0)

/* Fixed point: Q16 (1.0 == MEMREG_ONE). */
#define MEMREG_Q_SHIFT		16
#define MEMREG_ONE		(1U << MEMREG_Q_SHIFT)
#define MEMREG_MU_MAX		(2U * MEMREG_ONE - 1)	/* NLMS stable only for mu < 2 */
#define MEMREG_HEADROOM_MAX	(4U * MEMREG_ONE)	/* +400 % */
/* NLMS weights: Q24 (1.0 == MEMREG_W_ONE), clamped to +-4.0. */
#define MEMREG_W_SHIFT		24
#define MEMREG_W_ONE		(1 << MEMREG_W_SHIFT)
#define MEMREG_WEIGHT_MAX	(4 * (memreg_s32)MEMREG_W_ONE)

/* Accepted regulation periods: 10 us .. 1 s. */
#define MEMREG_PERIOD_MIN_NS	10000ULL
#define MEMREG_PERIOD_MAX_NS	1000000000ULL

/* Result codes: 0 or a negative errno-style value. */
#define MEMREG_OK		0
#define MEMREG_EINVAL		(-22)	/* a value out of its range */
#define MEMREG_ERANGE		(-34)	/* values inconsistent with each other */
#define MEMREG_ENODEV		(-19)	/* CPU not regulated / master invalid */
#define MEMREG_ESTALE		(-116)	/* period number went backwards */
#define MEMREG_ENOSPC		(-28)	/* nothing to share / pool empty */

/* struct memreg_cfg.flags */
#define MEMREG_F_MONITOR	0x1U	/* budgets infinite: count only */
#define MEMREG_F_LMS		0x2U	/* NLMS-adapted budgets (master) */
#define MEMREG_F_RECLAIM	0x4U	/* donate/take through the pool */
#define MEMREG_F_SHARE		0x8U	/* share once all throttled (share_mode) */
/*
 * No CPU counts the class (the glue has no counter for it): the master
 * leaves it alone (no prediction, publication, pool or grant) and its
 * budgets stay the guarantees, never counted as stale.
 */
#define MEMREG_F_UNCOUNTED_READ	0x10U
#define MEMREG_F_UNCOUNTED_WRITE 0x20U
#define MEMREG_F_ALL		0x3fU
/* The MEMREG_F_UNCOUNTED_* flag of class @cls. */
#define MEMREG_F_UNCOUNTED(cls)	(MEMREG_F_UNCOUNTED_READ << (cls))

/*
 * struct memreg_cfg.share_mode: what MEMREG_F_SHARE does once every active
 * online CPU is throttled in a period.
 */
#define MEMREG_SHARE_GRANT	0	/* (ceiling - sum of budgets) / n, once */
#define MEMREG_SHARE_SPARE	1	/* release every CPU until the period
					 * ends (MemGuard's spare sharing) */
#define MEMREG_SHARE_PROPORTIONAL 2	/* start a new period at once: budgets
					 * replenished (MemGuard's
					 * proportional share) */
#define MEMREG_SHARE_MAX	2

/* What the glue must do after a per-core entry point (memreg_arm.action). */
#define MEMREG_RUN		0	/* run; re-arm counters per @remaining */
#define MEMREG_THROTTLE		1	/* throttle until the next period */
#define MEMREG_THROTTLE_ALL	2	/* throttle, and every active CPU is
					 * throttled: poke the master CPU to
					 * call memreg_master_share() */

/**
 * struct memreg_lms_cfg - NLMS adaptation parameters (global)
 * @taps: number of taps N, MEMREG_MIN_TAPS..MEMREG_MAX_TAPS
 * @mu: step size, Q16, 1..MEMREG_MU_MAX (0 < mu < 2)
 * @headroom: Q16 fraction added to a prediction to form the budget
 *	(budget = pred + pred * headroom), 0..MEMREG_HEADROOM_MAX
 * @cold_start: per class, the demand (events/period) assumed for every
 *	period before real history exists: the history is prefilled with it
 *	and the weights start at 1/N each, so the first predictions equal it.
 *	Saturated to MEMREG_EVENTS_MAX by memreg_init().
 */
struct memreg_lms_cfg {
	memreg_u32 taps;
	memreg_u32 mu;
	memreg_u32 headroom;
	memreg_u64 cold_start[MEMREG_NR_CLASSES];
};

/**
 * struct memreg_cpu_cfg - per-CPU budget limits
 * @active: non-zero if this CPU is regulated
 * @guaranteed: per class, events per period always available to the CPU:
 *	its static budget without LMS and its minimum with LMS.  >= 1.
 * @ceiling: per class, the most events per period the CPU may ever get
 *	(LMS, reclaim and spare grants included).  >= @guaranteed, <= E.
 * @exempt: 0 or 1.  1: the CPU is monitored and budgeted as usual but the
 *	glue never holds it (a real-time core): an exhausted budget counts
 *	in stats.exempt_overruns instead of stats.throttles, and the per-core
 *	entry points still report MEMREG_THROTTLE(_ALL) so that the glue and
 *	the spare-sharing decision see the budget as used up.
 */
struct memreg_cpu_cfg {
	memreg_u32 active;
	memreg_u64 guaranteed[MEMREG_NR_CLASSES];
	memreg_u64 ceiling[MEMREG_NR_CLASSES];
	memreg_u32 exempt;
};

/**
 * struct memreg_cfg - complete regulator configuration
 * @period_ns: regulation period, MEMREG_PERIOD_MIN_NS..MEMREG_PERIOD_MAX_NS
 * @nr_cpus: CPU slots in use, 1..MEMREG_MAX_CPUS (slot == OS CPU number)
 * @master_cpu: CPU that runs memreg_master_*(); < @nr_cpus.  It may itself
 *	be regulated or not.
 * @flags: MEMREG_F_*
 * @platform_ceiling: per class, the sustainable traffic of the whole
 *	platform in events per period.  Rule: the sum over active CPUs of
 *	@cpu[].guaranteed never exceeds it (memreg_cfg_validate() refuses a
 *	config that breaks it; memreg_cfg_fit_guaranteed() scales the
 *	guarantees down proportionally instead), and the master scales LMS
 *	budgets so that their sum never exceeds it either.
 * @reclaim_quantum: events a CPU takes from the pool per overflow, and the
 *	slack the master leaves a CPU above its last known use when it
 *	donates the rest; >= 1 when MEMREG_F_RECLAIM is set
 * @lms: NLMS parameters (used when MEMREG_F_LMS is set)
 * @share_mode: MEMREG_SHARE_*, what sharing does when every active online
 *	CPU is throttled (used when MEMREG_F_SHARE is set).  Spare and
 *	proportional sharing hand out more than the platform ceiling in
 *	such a period, by design: every CPU has used its budget, so the
 *	guarantees were kept and what is left of the period is best effort.
 * @cpu: per-CPU limits, indexed by CPU number
 */
struct memreg_cfg {
	memreg_u64 period_ns;
	memreg_u32 nr_cpus;
	memreg_u32 master_cpu;
	memreg_u32 flags;
	memreg_u32 reclaim_quantum;
	memreg_u32 share_mode;
	memreg_u64 platform_ceiling[MEMREG_NR_CLASSES];
	struct memreg_lms_cfg lms;
	struct memreg_cpu_cfg cpu[MEMREG_MAX_CPUS];
};

/**
 * struct memreg_arm - what the glue must do after a per-core entry point
 * @action: MEMREG_RUN, MEMREG_THROTTLE or MEMREG_THROTTLE_ALL
 * @remaining: per class, events the CPU may still cause in this period
 *	before the counter must overflow (arm the counter's sample period to
 *	it); MEMREG_BUDGET_INF means do not arm (monitor-only mode); 0 for an
 *	exhausted class
 * @budget: per class, the CPU's total budget for this period so far
 * @rearm: classes (bit = 1 << class) whose counter the glue must re-arm
 *	now; while the CPU runs, any other class's counter must be left as it
 *	is: the core learns a class's count only at that class's own
 *	overflow, so it cannot tell what is left of another class's budget.
 *	A re-armed class is best armed to @budget minus its live count
 *	(@remaining is the same figure as of the count the core was given)
 */
struct memreg_arm {
	memreg_u32 action;
	memreg_u64 remaining[MEMREG_NR_CLASSES];
	memreg_u64 budget[MEMREG_NR_CLASSES];
	memreg_u32 rearm;
};

/* memreg_arm.rearm of every class */
#define MEMREG_ARM_ALL	((1U << MEMREG_NR_CLASSES) - 1)

/**
 * struct memreg_stats - per-CPU statistics (monotonic, saturating)
 * @periods: periods accounted by memreg_replenish()
 * @throttles: transitions from running to throttled
 * @throttled_ns: time spent throttled, as reported by the glue
 * @overruns: periods skipped between two replenishments (timer overruns)
 * @stale_budgets: periods started without a budget published for them
 *	(master late): the guaranteed budget was used instead
 * @consumed: per class, events counted
 * @overuse: per class, events counted beyond the period's budget (counter
 *	slack / overflow latency)
 * @donated: per class, events of this CPU's budget the master donated to
 *	the reclaim pool (written by the master, not the owner)
 * @reclaimed: per class, events taken from the reclaim pool
 * @shared: per class, events received as spare grants
 * @restored: per class, events a donor got back to restore its guarantee
 *	beyond what was left of the pool (others had taken its donation);
 *	in that period the platform ceiling yields to the guarantee
 * @exempt_overruns: periods in which an exempt CPU (memreg_cpu_cfg.exempt)
 *	exhausted a budget and would have been throttled
 * @released: periods in which spare sharing released the CPU until the
 *	period's end (MEMREG_SHARE_SPARE)
 * @restarts: periods proportional sharing started early, once every CPU
 *	was throttled (MEMREG_SHARE_PROPORTIONAL); each is also in @periods
 */
struct memreg_stats {
	memreg_u64 periods;
	memreg_u64 throttles;
	memreg_u64 throttled_ns;
	memreg_u64 overruns;
	memreg_u64 stale_budgets;
	memreg_u64 consumed[MEMREG_NR_CLASSES];
	memreg_u64 overuse[MEMREG_NR_CLASSES];
	memreg_u64 donated[MEMREG_NR_CLASSES];
	memreg_u64 reclaimed[MEMREG_NR_CLASSES];
	memreg_u64 shared[MEMREG_NR_CLASSES];
	memreg_u64 restored[MEMREG_NR_CLASSES];
	memreg_u64 exempt_overruns;
	memreg_u64 released;
	memreg_u64 restarts;
};

/**
 * struct memreg_lms_state - NLMS predictor of one CPU and class
 * @w: weights, Q24, clamped to +-MEMREG_WEIGHT_MAX
 * @hist: demand history, @hist[0] newest; taps + horizon - 1 entries used
 * @pending: the last two predictions made (pending[0] newest), to score
 *	each prediction when the demand it predicted arrives
 * @taps: N
 * @horizon: how many periods ahead the prediction is (1 or 2)
 * @abs_err_sum: sum of |demand - prediction made for it|, events
 * @sq_err_sum: sum of squared errors, saturating (events^2)
 * @updates: number of scored predictions
 * @last_pred: the latest prediction (events per period)
 * @fixed_mu: 0, or the step size of the last update when that update was
 *	a fixed point (its taps and demand all equal to @hist[0], weights
 *	unchanged): the same demand again then changes nothing but the
 *	score and @pending, so memreg_lms_update() returns @last_pred at once
 */
struct memreg_lms_state {
	memreg_s32 w[MEMREG_MAX_TAPS];
	memreg_u32 hist[MEMREG_MAX_TAPS + 1];
	memreg_u32 pending[2];
	memreg_u32 taps;
	memreg_u32 horizon;
	memreg_u64 abs_err_sum;
	memreg_u64 sq_err_sum;
	memreg_u64 updates;
	memreg_u32 last_pred;
	memreg_u32 fixed_mu;
};

/**
 * struct memreg_cpu - runtime state of one CPU slot
 * @period: (owner) number of the current period
 * @budget: (owner) per class, this period's budget so far
 * @used: (owner) per class, events counted at the last notification
 * @throttled: (owner) bitmask of exhausted classes (bit = 1 << class)
 * @started: (owner) non-zero once the first replenishment ran
 * @rejoin: (owner) set when the CPU comes back online, cleared at the
 *	first period the master published a budget for: until then its
 *	budget is at most what the platform ceiling leaves the others
 * @share_period: (owner) tag+1 of the period whose spare grant was taken
 * @share_gen: (owner; memreg_master_share() reads it) the last new period
 *	of @share_period taken (proportional sharing)
 * @stats: (owner) statistics
 * @guaranteed: (init) copy of the CPU's configured guarantee per class
 * @ceiling: (init) copy of the CPU's configured ceiling per class
 * @next_budget: (master writes, owner and memreg_master_share() read)
 *	[period & 1][class], packed {period tag, budget} published for the
 *	period named by the tag; two, so that the current period's budgets
 *	stay readable while the master publishes the next period's
 * @demand: (owner writes, master reads) per class, packed {period tag,
 *	events counted in that period}
 * @censored: (owner writes with LMS on, master reads) packed {period
 *	tag, classes (bit = 1 << class) that counted past the budget they
 *	ended that period with, reclaim takes and grants included}: only
 *	their demand was cut short by the regulator
 * @lms: (master) per class predictor
 */
struct memreg_cpu {
	memreg_u64 period;
	memreg_u64 budget[MEMREG_NR_CLASSES];
	memreg_u64 used[MEMREG_NR_CLASSES];
	memreg_u32 throttled;
	memreg_u32 started;
	memreg_u32 rejoin;
	memreg_u64 share_period;
	memreg_u64 share_gen;
	struct memreg_stats stats;
	memreg_u64 guaranteed[MEMREG_NR_CLASSES];
	memreg_u64 ceiling[MEMREG_NR_CLASSES];
	memreg_atomic64_t next_budget[2][MEMREG_NR_CLASSES];
	memreg_atomic64_t demand[MEMREG_NR_CLASSES];
	memreg_atomic64_t censored;
	struct memreg_lms_state lms[MEMREG_NR_CLASSES];
} __attribute__((__aligned__(64)));

/**
 * struct memreg_pool - the global reclaim pool
 * @slot: [period & 1][class], packed {period tag, events donated and not
 *	yet taken in that period}.  Two slots, so that the master can fill
 *	the next period's while CPUs take from the current one.  Only cmpxchg
 *	loops modify a slot (reclaim.c): a donor adds to the slot of its
 *	period (a slot of an older period is first voided), a taker
 *	subtracts from the slot of its own period only, so in every period
 *	total taken <= total donated.
 * @donated: [period & 1][class], packed {period tag, total the master
 *	donated for that period} (for the spare-sharing arithmetic)
 */
struct memreg_pool {
	memreg_atomic64_t slot[2][MEMREG_NR_CLASSES];
	memreg_atomic64_t donated[2][MEMREG_NR_CLASSES];
} __attribute__((__aligned__(64)));

/**
 * struct memreg - the whole regulator
 * @cfg: configuration, read-only while regulating
 * @active_mask: CPUs with @cfg.cpu[].active set, bit = 1 << cpu
 * @nr_active: number of bits in @active_mask
 * @online_mask: CPUs of @active_mask that are online (all after
 *	memreg_init(); memreg_cpu_set_online() changes it).  Spare sharing,
 *	its division and the master's platform sums count only these CPUs.
 * @throttled_mask: CPUs currently throttled (any class); set by
 *	memreg_overflow(), cleared by memreg_replenish() and
 *	memreg_accept_share(); cmpxchg-updated
 * @share: per class, packed {period tag, value} published by
 *	memreg_master_share(): the spare grant per CPU (grant), 1 (spare:
 *	released) or the number of new periods started in the tagged one
 *	(proportional)
 * @pool: the reclaim pool
 * @master_ticks: (master) memreg_master_tick() calls
 * @master_period: (master) the period of the last memreg_master_tick()
 * @master_skipped: (master) periods without a tick between two ticks
 *	(the glue's tick came whole periods late, or its CPU was away)
 * @master_late: (master) ticks with reclaim on that ran after a CPU had
 *	started the period they publish for: they donated nothing
 *	(memreg_master_tick(); not counted while nothing is published)
 * @master_missing: (master) CPU-class demand records absent at a tick
 * @tick_budget: (master) memreg_master_tick()'s budgets per CPU
 * @tick_last: (master) and last demands: here, not on its stack, which
 *	a kernel that zeroes automatic variables would clear at every tick
 * @cpu: per-CPU state
 */
struct memreg {
	struct memreg_cfg cfg;
	memreg_u64 active_mask;
	memreg_u32 nr_active;
	memreg_atomic64_t online_mask;
	memreg_atomic64_t throttled_mask;
	memreg_atomic64_t share[MEMREG_NR_CLASSES];
	struct memreg_pool pool;
	memreg_u64 master_ticks;
	memreg_u64 master_period;
	memreg_u64 master_skipped;
	memreg_u64 master_late;
	memreg_u64 master_missing;
	memreg_u32 tick_budget[MEMREG_MAX_CPUS];
	memreg_u64 tick_last[MEMREG_MAX_CPUS];
	struct memreg_cpu cpu[MEMREG_MAX_CPUS];
};

/* ---- configuration (budget.c) ---------------------------------------- */

/*
 * Fill @cfg with a usable default for @nr_cpus CPUs (clamped to 1..64): a
 * 1 ms period, master CPU 0, all CPUs active, no flags, a platform
 * ceiling of 1,000,000 events per class split evenly into guarantees,
 * per-CPU ceilings equal to the platform ceiling, 4 taps, mu 0.5,
 * headroom 10 %, cold start = the guarantee, reclaim quantum 1 %.
 */
void memreg_cfg_defaults(struct memreg_cfg *cfg, memreg_u32 nr_cpus);

/*
 * Single-value validators for sysfs writes.  Each returns MEMREG_OK or
 * MEMREG_EINVAL and, if @why is not NULL, points *why at a static,
 * NUL-terminated one-line message ("" on success).
 */
int memreg_validate_period(memreg_u64 period_ns, const char **why);
int memreg_validate_taps(memreg_u32 taps, const char **why);
int memreg_validate_mu(memreg_u32 mu, const char **why);
int memreg_validate_headroom(memreg_u32 headroom, const char **why);
int memreg_validate_flags(memreg_u32 flags, const char **why);

/*
 * Parse a sharing setting, the one parser of the module, the simulator
 * and the tuner: "0" or "off" (sets *@on to 0), "1" or "grant", "spare",
 * "proportional" (*@on 1 and *@mode the MEMREG_SHARE_* value).  Returns
 * MEMREG_OK or MEMREG_EINVAL (nothing written).  memreg_share_name() is
 * the name of @mode ("grant", "spare", "proportional"; "?" if unknown).
 */
int memreg_share_parse(const char *s, memreg_u32 *on, memreg_u32 *mode);
const char *memreg_share_name(memreg_u32 mode);

/*
 * Validate a whole configuration: every field in range and the rules
 * between them (guaranteed >= 1, guaranteed <= ceiling <= E, master CPU
 * in range, at least one active CPU, sum of guarantees <= platform
 * ceiling, reclaim quantum >= 1 with reclaim).  Returns MEMREG_OK,
 * MEMREG_EINVAL, MEMREG_ERANGE or MEMREG_ENODEV with a static message.
 */
int memreg_cfg_validate(const struct memreg_cfg *cfg, const char **why);

/*
 * Scale the guarantees of the active CPUs down proportionally, per class,
 * so that their sum does not exceed the platform ceiling (each stays >= 1,
 * rounding down, so the sum ends <= ceiling).  Returns the number of
 * classes that had to be scaled, or MEMREG_ERANGE if the ceiling is below
 * the number of active CPUs (a guarantee of 1 each cannot fit).
 */
int memreg_cfg_fit_guaranteed(struct memreg_cfg *cfg);

/*
 * Validate @cfg and, if valid, (re)initialise @r from it: copies the
 * configuration, zeroes all state and statistics, prefills the LMS
 * predictors with the cold-start demand, publishes nothing (first periods
 * run on the guarantees).  The glue must have stopped every timer and
 * counter.  Returns what memreg_cfg_validate() returns; on error @r is
 * left untouched.
 */
int memreg_init(struct memreg *r, const struct memreg_cfg *cfg,
		const char **why);

/*
 * Change the configuration of a running @r to @cfg without resetting it
 * (update.c): budgets, ceilings, platform ceilings, exemptions, the
 * reclaim quantum, the LMS parameters (a change of taps restarts the
 * predictors from the cold start) and the LMS, reclaim and share flags.
 * Statistics, per-core state, the pool and published budgets stay: each
 * CPU gets the new guarantee at its next period, the master's new budgets
 * the period after.  The period, CPU slots, master CPU, the set of active
 * CPUs and the MONITOR and UNCOUNTED flags must not change (MEMREG_EINVAL:
 * re-initialise with memreg_init()).  No entry point may run meanwhile
 * (the kernel glue calls it under stop_machine()).  Returns what
 * memreg_cfg_validate() returns, or MEMREG_EINVAL; on error @r is left
 * untouched.
 */
int memreg_update(struct memreg *r, const struct memreg_cfg *cfg,
		  const char **why);

/* ---- per-core path (budget.c, reclaim.c) ------------------------------ */

/*
 * Start period @period on @cpu.  @consumed[c] is the number of class-c
 * events counted since the previous replenishment (ignored on the first
 * call); @throttled_ns the time the CPU spent throttled in that span.
 * Records the demand for the master, updates statistics, picks this
 * period's budgets (monitor: infinite; with LMS or reclaim the budget the
 * master published for @period, else, or if none was published, the
 * guarantee), clears the throttle and fills @arm (action MEMREG_RUN).  @period must
 * increase strictly per CPU: MEMREG_ESTALE otherwise, MEMREG_ENODEV for
 * an inactive CPU; on error nothing changes.
 */
int memreg_replenish(struct memreg *r, memreg_u32 cpu, memreg_u64 period,
		     const memreg_u64 consumed[MEMREG_NR_CLASSES],
		     memreg_u64 throttled_ns, struct memreg_arm *arm);

/*
 * The class-@cls counter of @cpu overflowed, having counted @consumed
 * events since this period's replenishment.  If budget remains (an early
 * or spurious overflow) the CPU keeps running; otherwise, with reclaim on,
 * a donor (budget below its guarantee: the master donated part of it)
 * first gets its own donation back up to its guarantee, from the pool as
 * far as it still holds it and regardless where others took it (counted
 * in stats.restored), so that a CPU is never throttled below its
 * guarantee; then it takes up to the reclaim quantum from the pool (never
 * beyond its ceiling); otherwise it throttles.  Fills @arm; returns MEMREG_OK (or
 * MEMREG_EINVAL / MEMREG_ENODEV for a bad class / CPU).
 */
int memreg_overflow(struct memreg *r, memreg_u32 cpu, memreg_u32 cls,
		    memreg_u64 consumed, struct memreg_arm *arm);

/*
 * A throttled @cpu learns (from the glue, after memreg_master_share()
 * published a decision for its period) that it may run again.  Grant:
 * adds the grant of the current period once, capped by the CPU ceiling.
 * Spare: every counted class's budget becomes MEMREG_BUDGET_INF until the
 * next replenishment (do not arm the counters: no overflow is needed
 * before the period ends), once per period (stats.released).
 * Proportional: a new period starts: every counted class gets its
 * period's budget again on top of what it used (remaining = that budget),
 * counted in stats.periods and stats.restarts, once per new period the
 * master started.  Fills @arm with MEMREG_RUN if every class then has
 * budget left, else with MEMREG_THROTTLE.  Returns MEMREG_OK, or
 * MEMREG_ENOSPC if there was nothing new for this period (already taken,
 * none published, or zero).
 */
int memreg_accept_share(struct memreg *r, memreg_u32 cpu,
			struct memreg_arm *arm);

/*
 * Tell the core that regulated @cpu went offline (@online 0) or came back
 * (@online 1).  While it is away it is left out of "every active CPU
 * throttled", of the spare grant's division and of the master's sums
 * (its stale prediction no longer counts against the platform ceiling);
 * with reclaim and without LMS the master donates its guarantee to the
 * pool each period.  Resets the CPU's per-core state (throttle, start),
 * so the glue must call it while that CPU's per-core entry points cannot
 * run (timer stopped, not yet started).  Returns MEMREG_OK, or
 * MEMREG_ENODEV for a CPU that is not regulated.
 */
int memreg_cpu_set_online(struct memreg *r, memreg_u32 cpu, int online);

/* ---- master path (master.c, reclaim.c) -------------------------------- */

/*
 * Master work for period @period (call on the master CPU during @period,
 * after its own replenishment).  For each active CPU and class: if the
 * CPU recorded its demand of @period - 1, feed it to the predictor; with
 * MEMREG_F_LMS, derive a budget clamp(pred + headroom, guaranteed,
 * ceiling) and scale the excess over the guarantees down proportionally
 * if the sum exceeds the platform ceiling (without LMS the budget is the
 * guarantee); with MEMREG_F_RECLAIM, keep for the CPU its demand of
 * @period - 1 plus one reclaim quantum and donate the rest of the budget
 * to the pool of @period + 1; publish the budgets for @period + 1 (with
 * LMS or reclaim).  Also voids pool and share words older than @period.
 * Budgets reach a CPU one period after the demand they were predicted
 * from, so the predictors look two periods ahead.  Periods between the
 * last tick's and @period are added to master_skipped.  Returns
 * MEMREG_OK, or MEMREG_ESTALE (doing nothing) if @period is not after the
 * last tick's.
 */
int memreg_master_tick(struct memreg *r, memreg_u64 period);

/*
 * Called on the master CPU when a per-core path returned
 * MEMREG_THROTTLE_ALL in period @period.  If sharing is on and every
 * active online CPU is still throttled, decides by cfg.share_mode.
 * Grant: publishes, once per period, a spare grant per CPU and class =
 * (platform ceiling - sum of this period's budgets) / active CPUs, and
 * copies it to @grant (may be NULL).  Spare: publishes, once per period,
 * the release of every CPU.  Proportional: publishes a new period, once
 * every online CPU took the previous one (a second poke for the same
 * round starts nothing).  @grant is 0 in the last two modes.  The glue
 * then notifies the throttled CPUs, which call memreg_accept_share().
 * Returns MEMREG_OK when something was published for @period (or a grant
 * already was), MEMREG_ENOSPC otherwise.
 */
int memreg_master_share(struct memreg *r, memreg_u64 period,
			memreg_u64 grant[MEMREG_NR_CLASSES]);

/* ---- NLMS predictor (lms.c), also used by tests and the benchmark ----- */

/*
 * Reset @s: N = @taps (clamped to 1..16), @horizon 1 or 2 (clamped),
 * history and pending predictions = @cold_start (saturated to E), weights
 * 1/N each.
 */
void memreg_lms_init(struct memreg_lms_state *s, memreg_u32 taps,
		     memreg_u32 horizon, memreg_u64 cold_start);

/*
 * Feed the demand @demand (saturated to E) of the next period: score the
 * prediction made for it, take one NLMS step with step size @mu (Q16,
 * clamped to 1..MEMREG_MU_MAX), shift it into the history, and return the
 * new prediction for @horizon periods ahead (events, 0..E).
 */
memreg_u32 memreg_lms_update(struct memreg_lms_state *s, memreg_u32 mu,
			     memreg_u64 demand);

/* ---- counter event specs (event.c) ------------------------------------ */

/* Longest spec is MEMREG_EVENT_LEN - 1 characters. */
#define MEMREG_EVENT_LEN	32
/* perf_event_attr type and software config values (the stable perf ABI). */
#define MEMREG_EV_TYPE_SOFTWARE		1U
#define MEMREG_EV_TYPE_TRACEPOINT	2U
#define MEMREG_EV_TYPE_RAW		4U
#define MEMREG_EV_TYPE_BREAKPOINT	5U
#define MEMREG_EV_SW_CPU_CLOCK		0ULL
#define MEMREG_EV_SW_PAGE_FAULTS	2ULL
/*
 * The type of a spec that names its PMU ("NAME:CONFIG"): the number is
 * the kernel's to give (resolved when a counter is created); perf types
 * are ints, so no real type is this.
 */
#define MEMREG_EV_TYPE_NAMED		0xffffffffU
/* Highest numeric type a spec may give (perf types are ints). */
#define MEMREG_EV_TYPE_MAX		0x7fffffffU

/**
 * struct memreg_event - one parsed counter event spec
 * @counted: 0 for "none" (the class is not counted on that CPU), else 1
 * @type:    perf_event_attr.type, or MEMREG_EV_TYPE_NAMED when the spec
 *           names its PMU
 * @config:  perf_event_attr.config
 * @pmu:     the PMU name of a "NAME:CONFIG" spec (points into the spec,
 *           not NUL-terminated, @pmu_len characters), else NULL
 * @pmu_len: length of @pmu
 */
struct memreg_event {
	memreg_u32 counted;
	memreg_u32 type;
	memreg_u64 config;
	const char *pmu;
	memreg_u32 pmu_len;
};

/**
 * struct memreg_event_entry - one CPUS:SPEC entry of a per-CPU event list
 * @first:    first CPU of the entry
 * @last:     last CPU of the entry (== @first for one CPU)
 * @spec:     the SPEC text (not NUL-terminated), @spec_len characters
 * @spec_len: length of @spec
 * @event:    @spec parsed
 * @tok:      the whole entry as written (for messages), @tok_len characters;
 *            set on success and on failure
 * @tok_len:  length of @tok
 */
struct memreg_event_entry {
	memreg_u32 first;
	memreg_u32 last;
	const char *spec;
	memreg_u32 spec_len;
	struct memreg_event event;
	const char *tok;
	memreg_u32 tok_len;
};

/**
 * struct memreg_event_iter - walks a per-CPU event list
 * @pos:     the next entry
 * @seen:    CPUs named so far (a CPU named twice is refused)
 * @nr_cpus: CPUs 0..@nr_cpus-1 may be named
 */
struct memreg_event_iter {
	const char *pos;
	memreg_u64 seen;
	memreg_u32 nr_cpus;
};

/*
 * Parse the spec s[0..len): "none" or "" (not counted), "page-faults",
 * "cpu-clock", "raw:CODE", "TYPE:CONFIG" or "PMU_NAME:CONFIG" (numbers
 * decimal, 0x hex or 0 octal; a PMU name as in
 * /sys/bus/event_source/devices/: a letter or '_', then letters, digits,
 * '_', '-' or '.'; "software" is type 1; tracepoint and breakpoint types
 * refused; at most 31 characters).
 * Returns MEMREG_OK, or MEMREG_EINVAL with a static reason in *why.
 */
int memreg_event_parse(const char *spec, memreg_u32 len,
		       struct memreg_event *ev, const char **why);

/*
 * Walk the NUL-terminated list "CPUS:SPEC,CPUS:SPEC" (CPUS: N or N-M, all
 * below @nr_cpus, each CPU at most once; one trailing newline allowed):
 * memreg_event_list_next() returns 1 with the next entry in *e, 0 at the
 * end, or MEMREG_EINVAL with a static reason in *why and the offending
 * entry in e->tok.  An empty list has no entries.
 */
void memreg_event_list_begin(struct memreg_event_iter *it, const char *list,
			     memreg_u32 nr_cpus);
int memreg_event_list_next(struct memreg_event_iter *it,
			   struct memreg_event_entry *e, const char **why);

/* ---- small helpers ---------------------------------------------------- */

/* Saturating u64 addition. */
static inline memreg_u64 memreg_sat_add(memreg_u64 a, memreg_u64 b)
{
	memreg_u64 s = a + b;

	return s < a ? ~(memreg_u64)0 : s;
}

/* Saturate @v to MEMREG_EVENTS_MAX. */
static inline memreg_u64 memreg_sat_events(memreg_u64 v)
{
	return v > MEMREG_EVENTS_MAX ? MEMREG_EVENTS_MAX : v;
}

#endif /* MEMREG_H */
