// SPDX-License-Identifier: GPL-2.0
/*
 * counter.c - one perf counter per regulated CPU per traffic class, the
 * overflow path that feeds the core's memreg_overflow(), and the re-arming
 * of a counter to what is left of its budget.
 *
 * Two arming schemes, chosen per class by the event (mrk_event_rearms()):
 *  - re-armed (hardware/raw events, cpu-clock): at each period start,
 *    after a reclaim take and after a spare grant the counter is set to
 *    overflow when the budget left is used up (stop with PERF_EF_UPDATE,
 *    sample period and period_left = what is left, start with
 *    PERF_EF_RELOAD, on the owning CPU with interrupts off); once the CPU
 *    is throttled it is armed beyond the period's end (MRK_ARM_NEVER).  A
 *    busy CPU takes one overflow interrupt per period and class, plus one
 *    per reclaim take.
 *  - slack (page-faults and the other software events, whose start()
 *    ignores PERF_EF_RELOAD and whose period cannot be changed from hard
 *    irq): the sample period is fixed at max(1, guarantee / slack_div)
 *    when the counter is created and the core is asked at each overflow
 *    whether the budget is exhausted.
 *
 * Context: the overflow handler runs on the counter's CPU in NMI (x86
 * hardware PMU), hard irq (arm64 PMU, cpu-clock) or process context with
 * preemption off (page-faults); it only records the class atomically and
 * queues the CPU's hard irq_work, which calls the core in hard-irq context
 * on that CPU, where the period timer cannot interleave.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include "mrk.h"
#include "trace.h"

/*
 * Read a CPU-bound counter on its own CPU with interrupts disabled: the
 * same steps as perf_event_read_local(), which is not exported to modules.
 */
u64 mrk_counter_read(struct perf_event *ev)
{
	if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE)
		ev->pmu->read(ev);
	return local64_read(&ev->count);
}

/*
 * Has perf throttled @ev (too many overflow interrupts in one tick,
 * kernel.perf_event_max_sample_rate)?  Until perf's next tick lifts it the
 * counter still counts but calls no overflow handler, so budgets are not
 * enforced.  perf marks it by setting hw.interrupts to its MAX_INTERRUPTS,
 * ~0, which is not exported.  On @ev's CPU with interrupts off.
 */
bool mrk_counter_throttled(struct perf_event *ev)
{
	return READ_ONCE(ev->hw.interrupts) == ~0ULL;
}

/*
 * Has perf taken @ev off the PMU for good: ERROR (a pinned event that
 * could not be scheduled, e.g. when the PMU was taken by an exclusive
 * group) or OFF (disabled, or its CPU's perf context went down)?  It then
 * neither counts nor overflows: budgets go unenforced.  Any context.
 */
bool mrk_counter_lost(struct perf_event *ev)
{
	return READ_ONCE(ev->state) < PERF_EVENT_STATE_INACTIVE;
}

/*
 * Set @ev, counting on this CPU, to overflow after @left more events (the
 * MemGuard way: stop and fold the count in, new sample period and period
 * left, start reloading the hardware counter).  Interrupts off, on @ev's
 * CPU.  A counter perf has throttled is left alone: perf restarts it at
 * its next tick.
 */
static void mrk_counter_rearm(struct perf_event *ev, u64 left)
{
	lockdep_assert_irqs_disabled();
	if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
	    mrk_counter_throttled(ev))
		return;
	left = clamp_t(u64, left, 1, MRK_ARM_NEVER);
	ev->pmu->stop(ev, PERF_EF_UPDATE);
	ev->hw.sample_period = left;
	local64_set(&ev->hw.period_left, left);
	ev->pmu->start(ev, PERF_EF_RELOAD);
}

/**
 * mrk_counters_arm() - re-arm @c's re-armed counters after a core call
 * @c:   the CPU's state; called on that CPU, hard irq, interrupts off
 * @arm: what the core said: while the CPU runs, each class is armed to its
 *       remaining budget; while it is throttled, beyond the period's end
 *
 * Monitor-only budgets (MEMREG_BUDGET_INF) leave the counter as created
 * (counting, no sample period).  Slack-scheme counters are not touched.
 */
void mrk_counters_arm(struct mrk_cpu *c, const struct memreg_arm *arm)
{
	unsigned int cls;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		u64 left = arm->remaining[cls];

		if (!c->event[cls] || !c->rearm[cls] || left == MEMREG_BUDGET_INF)
			continue;
		if (arm->action != MEMREG_RUN || READ_ONCE(c->throttled))
			left = MRK_ARM_NEVER;
		mrk_counter_rearm(c->event[cls], left);
	}
}

/*
 * Overflow of class @cls: note it and queue the CPU's hard irq_work.
 * Atomics only: this may run in NMI, nested inside the core.
 */
static void mrk_overflow(struct perf_event *ev, unsigned int cls)
{
	struct mrk_cpu *c = ev->overflow_handler_context;

	atomic64_inc(&c->overflows);
	if (!READ_ONCE(c->started))
		return;		/* not regulating yet, or stopping */
	atomic_or(1U << cls, &c->ovf_pending);
	irq_work_queue(&c->work);
}

/* Overflow handler of the read-class counter. */
static void mrk_overflow_read(struct perf_event *ev,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	mrk_overflow(ev, MEMREG_READ);
}

/* Overflow handler of the write-class counter. */
static void mrk_overflow_write(struct perf_event *ev,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	mrk_overflow(ev, MEMREG_WRITE);
}

/**
 * mrk_overflow_work() - the overflow path proper, hard irq_work on the CPU
 * @work: the CPU's mrk_cpu.work
 *
 * For every class whose counter overflowed: tell the core how much was
 * counted this period, re-arm (reclaim take, early overflow) or throttle;
 * last, if every CPU is throttled, poke the master for a spare grant.
 */
void mrk_overflow_work(struct irq_work *work)
{
	struct mrk_cpu *c = container_of(work, struct mrk_cpu, work);
	unsigned int pending = atomic_xchg(&c->ovf_pending, 0);
	struct memreg_arm arm;
	struct mrk_cpu *me;
	unsigned int cls;
	bool poke = false;
	u64 consumed;
	int ret;

	if (!READ_ONCE(c->started) || c->cpu != smp_processor_id())
		return;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (!(pending & (1U << cls)) || !c->event[cls])
			continue;
		consumed = mrk_counter_read(c->event[cls]) - c->period_start[cls];
		me = mrk_core_enter(true);
		ret = memreg_overflow(mrk_core, c->cpu, cls, consumed, &arm);
		mrk_core_exit(me);
		if (ret) {
			c->errors++;
			continue;
		}
		if (arm.action != MEMREG_RUN && !c->throttled) {
			trace_throttle(c->cpu, c->period, cls, consumed,
				       arm.budget[cls]);
			poke |= mrk_throttle_now(c, arm.action);
		}
		mrk_counters_arm(c, &arm);
	}
	if (poke)
		mrk_master_poke();
}

/*
 * Create one counter for @spec on @cpu with sample period @sample (0: count
 * only) and @handler.  Returns the event or an ERR_PTR; a pinned event that
 * could not be scheduled (PMU busy) is released and reported as -EBUSY.
 */
static struct perf_event *mrk_counter_create(const char *spec, int cpu,
					     u64 sample,
					     perf_overflow_handler_t handler,
					     void *ctx)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	int ret;

	ret = mrk_parse_event(spec, &attr, NULL);
	if (ret)
		return ERR_PTR(ret);
	attr.sample_period = sample;
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, handler, ctx);
	if (IS_ERR(ev))
		return ev;
	if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE) {
		perf_event_release_kernel(ev);
		return ERR_PTR(-EBUSY);
	}
	return ev;
}

/*
 * Check that @spec names an event this kernel can count on @cpu, by
 * creating and releasing a counter.  "none" is always accepted.  On
 * failure a message goes to @err.  Process context, @cpu online.
 */
int mrk_counter_probe(const char *spec, int cpu, char *err, size_t len)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	const char *why = "";
	int ret;

	ret = mrk_parse_event(spec, &attr, &why);
	if (ret == -ENOENT)
		return 0;	/* "none" */
	if (ret) {
		scnprintf(err, len, "event '%s': %s", spec, why);
		return ret;
	}
	ev = mrk_counter_create(spec, cpu, 0, NULL, NULL);
	if (IS_ERR(ev)) {
		scnprintf(err, len, "event '%s': this kernel cannot count it "
			  "on cpu %d (error %ld%s)", spec, cpu, PTR_ERR(ev),
			  PTR_ERR(ev) == -ENOENT ? ", no such event or no PMU" : "");
		return PTR_ERR(ev);
	}
	perf_event_release_kernel(ev);
	return 0;
}

/*
 * Create the counters of @c's CPU for @cfg into @c->fresh (the caller
 * installs them, mrk_cpu_start()); the installed ones are not touched, so
 * the CPU keeps regulating with them meanwhile.  Holding mrk_cfg_mutex
 * only: creating a software event takes the CPU hotplug lock itself.
 * Returns 0, -ENODEV if the CPU is (going) offline, or another error with
 * "cpu N: cannot create ..." in @err.  On failure nothing is left.
 */
int mrk_counters_create(struct mrk_cpu *c, const struct mrk_cfg *cfg,
			char *err, size_t len)
{
	static const perf_overflow_handler_t handlers[MEMREG_NR_CLASSES] = {
		mrk_overflow_read, mrk_overflow_write,
	};
	const struct memreg_cpu_cfg *cc = &cfg->core.cpu[c->cpu];
	bool monitor = cfg->core.flags & MEMREG_F_MONITOR;
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int cls;

	lockdep_assert_held(&mrk_cfg_mutex);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		const char *spec = mrk_cpu_event(cfg, c->cpu, cls);
		bool rearm;
		u64 sample;

		if (mrk_parse_event(spec, &attr, NULL))
			continue;	/* "none" (specs were checked) */
		rearm = !monitor && mrk_event_rearms(&attr);
		sample = monitor ? 0 : rearm ? max_t(u64, 1, cc->guaranteed[cls]) :
			max_t(u64, 1, cc->guaranteed[cls] / cfg->slack_div);
		ev = mrk_counter_create(spec, c->cpu, sample, handlers[cls], c);
		if (IS_ERR(ev)) {
			/* -ENODEV: perf already took the CPU down */
			scnprintf(err, len, "cpu %d: cannot create the %s counter "
				  "'%s' (error %ld%s)", c->cpu,
				  cls ? "write" : "read", spec, PTR_ERR(ev),
				  PTR_ERR(ev) == -EBUSY ? ": PMU busy" :
				  PTR_ERR(ev) == -ENOENT ? ": no such event or no PMU" : "");
			mrk_counters_discard(c);
			return PTR_ERR(ev);
		}
		c->fresh[cls] = ev;
		c->fresh_sample[cls] = sample;
		c->fresh_rearm[cls] = rearm;
	}
	return 0;
}

/*
 * Release the created but not installed counters of @c (mrk_cfg_mutex
 * only).
 */
void mrk_counters_discard(struct mrk_cpu *c)
{
	unsigned int cls;

	lockdep_assert_held(&mrk_cfg_mutex);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (c->fresh[cls]) {
			perf_event_release_kernel(c->fresh[cls]);
			c->fresh[cls] = NULL;
		}
	}
	c->prepared = false;
}

/*
 * Release the detached counters of @c (mrk_cfg_mutex only).
 * perf_event_release_kernel() removes an event from its CPU synchronously,
 * so no overflow handler of it runs afterwards.
 */
void mrk_counters_release(struct mrk_cpu *c)
{
	unsigned int cls;

	lockdep_assert_held(&mrk_cfg_mutex);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (c->detached[cls]) {
			perf_event_release_kernel(c->detached[cls]);
			c->detached[cls] = NULL;
		}
	}
}
