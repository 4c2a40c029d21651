// SPDX-License-Identifier: GPL-2.0
/*
 * counter.c - one perf counter per regulated CPU per traffic class and the
 * overflow path that feeds the core's memreg_overflow().
 *
 * The counter is a CPU-bound, pinned kernel counter whose sample period is
 * fixed when it is created (perf_event_period() takes the context lock and
 * may IPI, so it cannot be called from the hard-irq period timer): it
 * overflows every mrk_cpu.sample events and the handler asks the core
 * whether the period's budget is exhausted.  A period therefore overshoots
 * its budget by at most one sample period plus the throttle latency.
 *
 * Locking: the overflow handler runs on the counter's CPU (NMI for a
 * hardware PMU, process context with preemption off for software events)
 * and disables interrupts around the core call, so it never interleaves
 * with that CPU's period timer.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
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
 * Common overflow path for class @cls: account with the core and throttle
 * the CPU when the core says so.
 */
static void mrk_overflow(struct perf_event *ev, unsigned int cls)
{
	struct mrk_cpu *c = ev->overflow_handler_context;
	struct memreg_arm arm;
	unsigned long flags;
	u64 consumed;
	int ret;

	local_irq_save(flags);
	if (!READ_ONCE(c->started) || c->cpu != smp_processor_id())
		goto out;
	consumed = mrk_counter_read(ev) - c->period_start[cls];
	ret = memreg_overflow(mrk_core, c->cpu, cls, consumed, &arm);
	if (ret) {
		c->errors++;
		goto out;
	}
	if (arm.action != MEMREG_RUN && !c->throttled) {
		trace_throttle(c->cpu, c->period, cls, consumed,
			       arm.budget[cls]);
		mrk_throttle_now(c, arm.action);
	}
out:
	local_irq_restore(flags);
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

	ret = mrk_parse_event(spec, &attr);
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
	int ret;

	ret = mrk_parse_event(spec, &attr);
	if (ret == -ENOENT)
		return 0;	/* "none" */
	if (ret) {
		scnprintf(err, len, "event '%s': not a valid event spec "
			  "(none, page-faults, cpu-clock, raw:0xNN, TYPE:CONFIG)",
			  spec);
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
 * Create the counters of @c's CPU for the active configuration into
 * @c->detached (the caller installs them).  Holding mrk_cfg_mutex only:
 * creating a software event takes the CPU hotplug lock itself.  Returns 0,
 * -ENODEV if the CPU is (going) offline, or another error, recorded as the
 * last error.  On failure nothing is left.
 */
int mrk_counters_create(struct mrk_cpu *c)
{
	static const perf_overflow_handler_t handlers[MEMREG_NR_CLASSES] = {
		mrk_overflow_read, mrk_overflow_write,
	};
	const struct memreg_cpu_cfg *cc = &mrk_active.core.cpu[c->cpu];
	bool monitor = mrk_active.core.flags & MEMREG_F_MONITOR;
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int cls;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (mrk_parse_event(mrk_active.event[cls], &attr))
			continue;	/* "none" (specs were checked) */
		c->sample[cls] = monitor ? 0 :
			max_t(u64, 1, cc->guaranteed[cls] / mrk_active.slack_div);
		ev = mrk_counter_create(mrk_active.event[cls], c->cpu,
					c->sample[cls], handlers[cls], c);
		if (IS_ERR(ev)) {
			if (PTR_ERR(ev) != -ENODEV || cpu_online(c->cpu))
				mrk_set_error("cpu %d: cannot create the %s counter "
					      "'%s' (error %ld)", c->cpu,
					      cls ? "write" : "read",
					      mrk_active.event[cls], PTR_ERR(ev));
			mrk_counters_release(c);
			return PTR_ERR(ev);
		}
		c->detached[cls] = ev;
	}
	return 0;
}

/*
 * Release the detached counters of @c (mrk_cfg_mutex only).
 * perf_event_release_kernel() removes an event from its CPU synchronously,
 * so no overflow handler of it runs afterwards.
 */
void mrk_counters_release(struct mrk_cpu *c)
{
	unsigned int cls;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (c->detached[cls]) {
			perf_event_release_kernel(c->detached[cls]);
			c->detached[cls] = NULL;
		}
	}
	c->prepared = false;
}
