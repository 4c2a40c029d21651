// SPDX-License-Identifier: GPL-2.0
/*
 * master.c - the master core: memreg_master_tick() once per period (NLMS
 * update, platform ceiling, publication of next-period budgets, voiding
 * stale pool words) and memreg_master_share() when every regulated CPU is
 * throttled, both on the configured master CPU in hard-irq context.
 *
 * The tick runs a quarter period after each grid point, i.e. after the
 * CPUs' own replenishments.  When the master CPU is itself regulated, its
 * period timer carries the tick: that CPU's periods start a quarter period
 * after the grid (mrk_cpu.offset_ns) and its timer handler ticks right
 * after replenishing, so the master costs no interrupt of its own.  An
 * unregulated master CPU gets a pinned hard hrtimer for the tick
 * (HRTIMER_MODE_ABS_PINNED_HARD: hard irq also on PREEMPT_RT) at the same
 * instants.  Either way no thread is woken: a regulated master CPU held
 * in injected idle by its throttle thread still takes the timer interrupt,
 * so the tick is never starved by its own CPU's throttle.  A late expiry
 * ticks for the period it lands in; periods it jumped over are counted by
 * the core (memreg.master_skipped) and put into the last error by a work
 * item (the error lock sleeps on PREEMPT_RT), at most once per
 * MRK_REPORT_DELAY: a tick late every period must not wake a kworker and
 * format the error every period.
 * No mode that needs the tick (LMS, reclaim, sharing): no tick at all, and
 * every CPU's periods sit on the grid.
 *
 * Spare sharing: a throttled CPU's overflow irq_work pokes the master
 * CPU with smp_call_function_single_async() (irq_work_queue_on() is not
 * exported to modules) on the poking CPU's own csd (a csd must never be
 * sent twice at once: one per sender serialises them); the master's
 * callback decides and sends each throttled CPU its share csd, whose
 * callback takes the grant with memreg_accept_share() in hard irq on that
 * CPU (throttle.c).
 *
 * Locking: mrk_master_lock (raw spinlock) serialises the two master entry
 * points, which the core requires; both run with interrupts off on the
 * master CPU.  mrk_master_running gates ticks, pokes and share decisions;
 * it is published with WRITE_ONCE() under mrk_mutex and read in hard irq.
 * Stopping clears it, then waits, with RCU grace periods (hard-irq
 * regions are RCU readers), for every poke and share callback in flight.
 * The master is started before, and stopped after, the master CPU's
 * period timer (switch.c, hotplug.c), so that timer knows at its start
 * whether it carries the tick.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "mrk.h"

DEFINE_RAW_SPINLOCK(mrk_master_lock);
atomic_t mrk_share_req = ATOMIC_INIT(0);
atomic_t mrk_perf_throttled_cpu = ATOMIC_INIT(0);	/* cpu + 1, 0: none */
static bool mrk_master_running;
static bool mrk_master_timed;		/* the tick timer is armed (mrk_mutex) */
static bool mrk_master_riding;		/* the master CPU's period timer ticks (mrk_mutex) */
static u64 mrk_master_period_ns;	/* copied at start, read by the tick */
static struct hrtimer mrk_master_timer;
static atomic_t mrk_master_skips = ATOMIC_INIT(0);	/* new skips to report */

static void mrk_master_report(struct work_struct *work);
static DECLARE_DELAYED_WORK(mrk_report_work, mrk_master_report);

/* Reports noticed within this window are written once, at its end. */
#define MRK_REPORT_DELAY	max(1UL, msecs_to_jiffies(20))

/*
 * Whether @cfg has a mode that needs the per-period tick: LMS (predict),
 * reclaim (donate to the pool) or sharing (refresh the share word).
 */
static bool mrk_master_needed(const struct mrk_cfg *cfg)
{
	return cfg->core.flags & (MEMREG_F_LMS | MEMREG_F_RECLAIM | MEMREG_F_SHARE);
}

/*
 * Master IPI callback (hard irq on the master CPU): take a pending share
 * request, run the core's sharing decision for the current period and,
 * when it decided, send every throttled CPU its share csd.  A release or
 * a new period (share=spare, proportional) also goes to an exempt CPU,
 * which the core counts as throttled though it is never held: it must
 * take the new period for the next one to start.
 */
static void mrk_master_share_fn(void *unused)
{
	bool grant = mrk_active.core.share_mode == MEMREG_SHARE_GRANT;
	struct mrk_cpu *me;
	unsigned int cpu;
	u64 period, mask;
	int ret;

	if (!READ_ONCE(mrk_master_running) || !atomic_xchg(&mrk_share_req, 0))
		return;
	raw_spin_lock(&mrk_master_lock);
	period = div64_u64(ktime_get_ns(), mrk_active.core.period_ns);
	me = mrk_core_enter(false);
	ret = memreg_master_share(mrk_core, period, NULL);
	mrk_core_exit(me);
	raw_spin_unlock(&mrk_master_lock);
	if (ret != MEMREG_OK)
		return;
	mask = grant ? 0 : (u64)atomic64_read(&mrk_core->throttled_mask);
	for_each_online_cpu(cpu) {
		struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);
		bool held = READ_ONCE(c->throttled) ||
			    (cpu < MEMREG_MAX_CPUS && ((mask >> cpu) & 1));

		/* busy: a share callback is pending there and will take it */
		if (READ_ONCE(c->started) && held)
			smp_call_function_single_async(cpu, &c->share_csd);
	}
}

/*
 * Ask the master CPU for a spare-sharing decision (mrk_share_req is set).
 * Hard irq on a regulated CPU, after its core calls returned and its
 * counters were armed: on the master CPU itself the decision runs right
 * here.  A busy csd means this CPU's last poke is still pending; it will
 * see the request.
 */
void mrk_master_poke(void)
{
	if (READ_ONCE(mrk_master_running))
		smp_call_function_single_async(mrk_active.core.master_cpu,
					       &this_cpu_ptr(&mrk_cpus)->poke_csd);
}

/*
 * Have the report work say what the tick or a period timer noticed, within
 * MRK_REPORT_DELAY; while it is pending this only tests its pending bit.
 */
void mrk_master_report_queue(void)
{
	queue_delayed_work(system_wq, &mrk_report_work, MRK_REPORT_DELAY);
}

/*
 * Report work (process context): put into the last error that perf
 * throttled a counter (a period timer saw a new throttle and noted the
 * CPU) and that master ticks were skipped since the last report.
 */
static void mrk_master_report(struct work_struct *work)
{
	int cpu = atomic_xchg(&mrk_perf_throttled_cpu, 0) - 1;
	struct mrk_cpu *c = cpu >= 0 ? per_cpu_ptr(&mrk_cpus, cpu) : NULL;

	if (c)
		mrk_set_error("cpu %d: perf throttled its counter %lld times, "
			      "budgets unenforced meanwhile: raise kernel."
			      "perf_event_max_sample_rate or lower slack_div", cpu,
			      (long long)atomic64_read(&c->perf_throttled));
	if (atomic_xchg(&mrk_master_skips, 0))
		mrk_set_error("master cpu %u: %llu period ticks skipped since the "
			      "last commit (its timer fired whole periods late, or "
			      "the CPU was offline): those periods' budgets fell "
			      "back to the guarantees; a longer period_us or a less "
			      "loaded master_cpu avoids it",
			      READ_ONCE(mrk_active.core.master_cpu),
			      READ_ONCE(mrk_core->master_skipped));
}

/**
 * mrk_master_tick() - memreg_master_tick() for @period, on the master CPU
 * @period: the grid period the tick falls in
 *
 * Hard irq, interrupts off: the master CPU's period timer after its
 * replenishment, or the master's own tick timer.  Skips found by the core
 * are reported through the report work.
 */
void mrk_master_tick(u64 period)
{
	struct mrk_cpu *me;
	u64 skipped;

	if (!READ_ONCE(mrk_master_running))
		return;
	raw_spin_lock(&mrk_master_lock);
	skipped = mrk_core->master_skipped;
	me = mrk_core_enter(false);
	memreg_master_tick(mrk_core, period);
	mrk_core_exit(me);
	skipped = mrk_core->master_skipped - skipped;
	raw_spin_unlock(&mrk_master_lock);
	if (skipped) {
		atomic_set(&mrk_master_skips, 1);
		mrk_master_report_queue();
	}
}

/*
 * The master's own tick timer (pinned hard hrtimer on an unregulated
 * master CPU): tick for the period it fires in, then the next expiry a
 * quarter period after the next grid point.
 */
static enum hrtimer_restart mrk_master_tick_fn(struct hrtimer *t)
{
	u64 p = mrk_master_period_ns, period;

	period = div64_u64(ktime_to_ns(hrtimer_cb_get_time(t)), p);
	mrk_master_tick(period);
	hrtimer_set_expires(t, ns_to_ktime((period + 1) * p + p / 4));
	return HRTIMER_RESTART;
}

/* IPI callback: arm the tick on the master CPU, where it stays pinned. */
static void mrk_master_arm_local(void *unused)
{
	u64 p = mrk_master_period_ns, now = ktime_get_ns();
	u64 first = div64_u64(now, p) * p + p / 4;

	if (first <= now)
		first += p;
	hrtimer_start(&mrk_master_timer, ns_to_ktime(first),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

/*
 * Initialise the tick timer and every CPU's poke csd once, at module load
 * (before any counter exists).
 */
void mrk_master_init(void)
{
	unsigned int cpu;

	hrtimer_init(&mrk_master_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_ABS_PINNED_HARD);
	mrk_master_timer.function = mrk_master_tick_fn;
	for_each_possible_cpu(cpu)
		INIT_CSD(&per_cpu_ptr(&mrk_cpus, cpu)->poke_csd,
			 mrk_master_share_fn, NULL);
}

/*
 * Start the master on the configured master CPU: accept pokes and, if a
 * mode needs it, have the tick run: on the master CPU's period timer if
 * that CPU is regulated (its timer is started after this and asks
 * mrk_master_rides()), else (also when its counters failed) on the tick
 * timer.  Process context,
 * mrk_mutex held (and the CPU hotplug lock, or on the master CPU in its
 * online callback).  A master CPU that is offline leaves the master
 * stopped (budgets then stay at the guarantees); hotplug starts it later.
 */
int mrk_master_start(void)
{
	int cpu = mrk_active.core.master_cpu;

	lockdep_assert_held(&mrk_mutex);
	if (mrk_master_running || !cpu_online(cpu))
		return 0;
	WRITE_ONCE(mrk_master_running, true);
	if (!mrk_master_needed(&mrk_active))
		return 0;
	if (mrk_cpu_counting(cpu)) {
		mrk_master_riding = true;
		return 0;
	}
	mrk_master_period_ns = mrk_active.core.period_ns;
	mrk_master_timed = true;
	smp_call_function_single(cpu, mrk_master_arm_local, NULL, 1);
	return 0;
}

/*
 * Whether @cpu's period timer, being started now, carries the master
 * tick.  mrk_mutex held.
 */
bool mrk_master_rides(unsigned int cpu)
{
	lockdep_assert_held(&mrk_mutex);
	return mrk_master_riding && cpu == mrk_active.core.master_cpu;
}

/*
 * Whether a timer that ticks is queued or running (sysfs master_timer):
 * the tick timer, or the master CPU's period timer carrying the tick; read
 * from the hrtimers themselves, so a timer that is not there shows as 0.
 */
int mrk_master_armed(void)
{
	unsigned int cpu = READ_ONCE(mrk_active.core.master_cpu);

	return hrtimer_active(&mrk_master_timer) ||
	       (cpu < nr_cpu_ids && mrk_timer_armed(per_cpu_ptr(&mrk_cpus, cpu)));
}

/* Wait until @csd is not queued (its callback may still be running). */
static void mrk_csd_wait(call_single_data_t *csd)
{
	while (smp_load_acquire(&csd->node.u_flags) & CSD_FLAG_LOCK)
		cpu_relax();
}

/*
 * Stop the master, if running: cancel the tick timer (the master CPU's
 * period timer, if it carried the tick, is already stopped), then wait
 * for pokes and share decisions in flight (a grace period: they run with
 * interrupts off), for the csds they sent, and for those csds' callbacks
 * (a second grace period).  Only sharing sends csds.  mrk_mutex held.
 */
void mrk_master_stop(void)
{
	unsigned int cpu;

	lockdep_assert_held(&mrk_mutex);
	if (!mrk_master_running)
		return;
	WRITE_ONCE(mrk_master_running, false);
	if (mrk_master_timed)
		hrtimer_cancel(&mrk_master_timer);
	mrk_master_timed = false;
	mrk_master_riding = false;
	if (mrk_active.core.flags & MEMREG_F_SHARE) {
		synchronize_rcu();
		for_each_possible_cpu(cpu) {
			mrk_csd_wait(&per_cpu_ptr(&mrk_cpus, cpu)->poke_csd);
			mrk_csd_wait(&per_cpu_ptr(&mrk_cpus, cpu)->share_csd);
		}
		synchronize_rcu();
	}
	atomic_set(&mrk_share_req, 0);
}

/* Wait for the report work; module exit, after everything stopped. */
void mrk_master_exit(void)
{
	cancel_delayed_work_sync(&mrk_report_work);
}
