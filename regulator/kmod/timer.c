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
 * starts the counters again armed to the new period's budgets
 * (mrk_counters_halt(), mrk_counters_restart()).
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

#include <linux/bitops.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/smp.h>

#include "mrk.h"
#include "trace.h"

/**
 * mrk_counters_halt() - the counts of @c's classes at a period's end
 * @c:        the CPU's state; its period timer, on that CPU, interrupts off
 * @consumed: each class's events in the period that ended (0 without a
 *            counter); @c->period_start moves to the new period
 *
 * A counter that the timer will re-arm is stopped rather than read: the
 * stop folds the count in as a read would, and the re-arm then only sets
 * the new period and starts it (mrk_counters_restart()), one PMU access
 * fewer each period; the regulator's own events while it decides the
 * new budgets are then counted in neither period, as in MemGuard.  A
 * stopped counter is marked in @c->halted, and mrk_counters_restart() or
 * mrk_counters_resume() starts it again before the timer returns.  A
 * counter perf has throttled is only read: perf restarts it at its next
 * tick.
 *
 * Return: true when perf took a counter off the PMU for good: ERROR (a
 * pinned event that could not be scheduled, e.g. when the PMU was taken
 * by an exclusive group) or OFF (disabled, or its CPU's perf context went
 * down).  It then neither counts nor overflows: budgets go unenforced.
 */
static bool mrk_counters_halt(struct mrk_cpu *c,
			      u64 consumed[MEMREG_NR_CLASSES])
{
	bool lost = false;
	unsigned int cls;

	lockdep_assert_irqs_disabled();
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		struct perf_event *ev = c->event[cls];
		int state;
		u64 v;

		if (!ev)
			continue;
		state = READ_ONCE(ev->state);
		if (state != PERF_EVENT_STATE_ACTIVE) {
			lost |= state < PERF_EVENT_STATE_INACTIVE;
		} else if (c->rearm[cls] && !mrk_counter_throttled(ev)) {
			ev->pmu->stop(ev, PERF_EF_UPDATE);
			c->halted |= 1U << cls;
		} else {
			ev->pmu->read(ev);
		}
		v = local64_read(&ev->count);
		consumed[cls] = v - c->period_start[cls];
		c->period_start[cls] = v;
	}
	return lost;
}

/**
 * mrk_counters_restart() - start again the counters the period timer
 * halted, armed for the new period
 * @c:   the CPU's state; its period timer, on that CPU, interrupts off
 * @arm: what memreg_replenish() said: while the CPU runs, each class it
 *       names in @arm->rearm is armed to what is left of its budget (the
 *       others keep counting toward the point they were armed for); while
 *       it is throttled, every class beyond the period's end
 *
 * Only halted counters need it: mrk_counters_halt() halts every counter
 * that is active, re-armed and not throttled by perf, and nothing changes
 * that while interrupts are off.
 */
static void mrk_counters_restart(struct mrk_cpu *c,
				 const struct memreg_arm *arm)
{
	bool held = mrk_arm_held(c, arm);
	unsigned int halted = c->halted;

	c->halted = 0;
	while (halted) {
		unsigned int cls = __ffs(halted);
		struct perf_event *ev = c->event[cls];

		halted &= halted - 1;
		if (held)
			mrk_counter_start_at(ev, MRK_ARM_NEVER);
		else if (arm->budget[cls] == MEMREG_BUDGET_INF ||
			 !(arm->rearm & (1U << cls)))
			ev->pmu->start(ev, PERF_EF_RELOAD);
		else
			mrk_counter_start_at(ev, mrk_counter_left(ev,
					arm->budget[cls], c->period_start[cls]));
	}
}

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
	struct memreg_arm arm;
	struct mrk_cpu *me;
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
	if (unlikely(mrk_counters_halt(c, consumed))) {
		c->lost++;
		mrk_cpu_lost(c);
	}
	if (!c->started)
		consumed[0] = consumed[1] = 0;
	/* the ended period's final budget (reclaim and grants included) */
	budget[0] = rc->budget[0];
	budget[1] = rc->budget[1];
	me = mrk_core_enter_on(c, true);	/* the timer is pinned to c's CPU */
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
		mrk_counters_restart(c, &arm);
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
