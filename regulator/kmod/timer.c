// SPDX-License-Identifier: GPL-2.0
/*
 * timer.c - the period timer of each regulated CPU.
 *
 * One hrtimer per CPU, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD: it
 * expires in hard-irq context also on PREEMPT_RT and stays on its CPU.
 * Expiries sit on a global grid (multiples of the period), so every CPU
 * agrees on the number of the current period, which tags the reclaim pool
 * and the master's budgets.  The handler stops the counters it re-arms
 * (reading the others), calls memreg_replenish(), lifts the throttle and
 * starts the counters again armed to the new period's budgets (counter.c).
 * The master CPU's timer, when it carries the master tick, sits a quarter
 * period after the grid (its period p runs from grid point p plus that
 * offset) and ticks after re-arming the counters (master.c says why).
 *
 * Locking: the handler runs on its own CPU with interrupts off; it is the
 * only writer of mrk_cpu.period/period_start/started besides the start path,
 * which runs before the timer is armed.  hrtimer_cancel() waits for a
 * running handler.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/smp.h>

#include "mrk.h"
#include "trace.h"

/*
 * Period timer handler: account the period that ended, start the one that
 * begins now (the core picks its budgets), unthrottle, re-arm at the next
 * grid point.  Missed grid points show up in the core's overrun count.  A
 * counter perf took off the PMU (ERROR, OFF) is counted and handed to the
 * hotplug work, which re-creates the CPU's counters or reports it.
 */
static enum hrtimer_restart mrk_timer_fn(struct hrtimer *t)
{
	struct mrk_cpu *c = container_of(t, struct mrk_cpu, timer);
	u64 consumed[MEMREG_NR_CLASSES] = { 0, 0 };
	const struct memreg_cpu *rc = &mrk_core->cpu[c->cpu];
	u64 budget[MEMREG_NR_CLASSES];
	u64 stale0 = rc->stats.stale_budgets;
	int was_throttled = c->throttled;
	bool lost = false;
	struct memreg_arm arm;
	struct mrk_cpu *me;
	unsigned int cls;
	u64 now, period, throttles;
	int ret;

	throttles = atomic64_read(&c->perf_throttled);
	if (throttles != c->perf_throttled_seen) {
		c->perf_throttled_seen = throttles;
		atomic_set(&mrk_perf_throttled_cpu, c->cpu + 1);
		mrk_master_report_queue();
	}
	now = ktime_to_ns(hrtimer_cb_get_time(t));
	period = div64_u64(now > c->offset_ns ? now - c->offset_ns : 0,
			   c->period_ns);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		u64 v;

		if (!c->event[cls])
			continue;
		v = mrk_counter_halt(c, cls);
		consumed[cls] = v - c->period_start[cls];
		c->period_start[cls] = v;
		lost |= mrk_counter_lost(c->event[cls]);
	}
	if (lost) {
		c->lost++;
		mrk_cpu_lost(c);
	}
	if (!c->started)
		consumed[0] = consumed[1] = 0;
	/* the ended period's final budget (reclaim and grants included) */
	budget[0] = rc->budget[0];
	budget[1] = rc->budget[1];
	me = mrk_core_enter(true);
	ret = memreg_replenish(mrk_core, c->cpu, period, consumed,
			       atomic64_xchg(&c->throttled_ns, 0), &arm);
	mrk_core_exit(me);
	if (ret) {
		c->errors++;
		mrk_counters_resume(c);
	} else {
		if (c->started)
			trace_period(c->cpu, c->period, consumed[0], consumed[1],
				     budget[0], budget[1], was_throttled, c->stale);
		c->stale = rc->stats.stale_budgets != stale0;
		WRITE_ONCE(c->period, period);
		WRITE_ONCE(c->throttled, 0);
		WRITE_ONCE(c->started, 1);
		mrk_counters_arm(c, &arm);
	}
	if (c->ticks)
		mrk_master_tick(period);
	hrtimer_set_expires(t, ns_to_ktime((period + 1) * c->period_ns +
					   c->offset_ns));
	return HRTIMER_RESTART;
}

/* Initialise the timer of @c once, at module load. */
void mrk_timer_init(struct mrk_cpu *c)
{
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	c->timer.function = mrk_timer_fn;
}

/* IPI callback: arm the timer on the CPU it must stay pinned to. */
static void mrk_timer_arm_local(void *arg)
{
	struct mrk_cpu *c = arg;

	hrtimer_start(&c->timer, ktime_get(), HRTIMER_MODE_ABS_PINNED_HARD);
}

/*
 * Start the period timer of @c: the first expiry is immediate and performs
 * the first replenishment.  Process context, mrk_mutex held, CPU online,
 * the master started; pinned timers must be armed on their CPU, hence the
 * IPI when called from another CPU (never from interrupt context).
 */
void mrk_timer_start(struct mrk_cpu *c)
{
	lockdep_assert_held(&mrk_mutex);
	c->period_ns = mrk_active.core.period_ns;
	WRITE_ONCE(c->ticks, mrk_master_rides(c->cpu));
	c->offset_ns = c->ticks ? c->period_ns / 4 : 0;
	c->started = 0;
	smp_call_function_single(c->cpu, mrk_timer_arm_local, c, 1);
}

/* Stop the period timer of @c and wait for a running handler. */
void mrk_timer_stop(struct mrk_cpu *c)
{
	hrtimer_cancel(&c->timer);
	WRITE_ONCE(c->started, 0);
	WRITE_ONCE(c->ticks, false);
}

/* Whether @c's period timer carries the master tick and is armed. */
bool mrk_timer_armed(struct mrk_cpu *c)
{
	return READ_ONCE(c->ticks) && hrtimer_active(&c->timer);
}
