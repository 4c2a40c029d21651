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
 *    per reclaim take.  The period start's re-arm is the period timer's
 *    (timer.c), the others mrk_counters_arm()'s; both use the helpers
 *    of mrk.h.
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

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include "mrk.h"
#include "trace.h"

/**
 * mrk_counters_arm() - re-arm @c's re-armed counters after a core call
 * @c:   the CPU's state; called on that CPU, hard irq, interrupts off
 * @arm: what the core said: while the CPU runs, each class the core names
 *       in @arm->rearm is armed to what is left of its budget (the others
 *       keep counting toward the point they were armed for); while it is
 *       throttled, every class beyond the period's end
 *
 * Monitor-only budgets (MEMREG_BUDGET_INF) leave the counter as created
 * (counting, no sample period).  Slack-scheme counters are not touched,
 * nor is a counter perf has throttled: perf restarts it at its next tick.
 * Not for the period timer, whose counters are halted
 * (mrk_counters_restart()).
 */
void mrk_counters_arm(struct mrk_cpu *c, const struct memreg_arm *arm)
{
	bool held = mrk_arm_held(c, arm);
	unsigned int cls;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		struct perf_event *ev = c->event[cls];

		if (!ev || !c->rearm[cls] ||
		    arm->budget[cls] == MEMREG_BUDGET_INF ||
		    (!held && !(arm->rearm & (1U << cls))) ||
		    READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
		    mrk_counter_throttled(ev))
			continue;
		ev->pmu->stop(ev, PERF_EF_UPDATE);
		mrk_counter_start_at(ev, held ? MRK_ARM_NEVER :
				     mrk_counter_left(ev, arm->budget[cls],
						      c->period_start[cls]));
	}
}

/*
 * Start again, toward the point they were armed for, the counters of @c
 * that its period timer halted, when the core call failed and nothing is
 * re-armed.  The owner's timer, interrupts off.
 */
void mrk_counters_resume(struct mrk_cpu *c)
{
	unsigned int cls;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++)
		if (c->halted & (1U << cls))
			c->event[cls]->pmu->start(c->event[cls], PERF_EF_RELOAD);
	c->halted = 0;
}

/*
 * Overflow of class @cls: note it and queue the CPU's hard irq_work.
 * Atomics only: this may run in NMI, nested inside the core.
 */
static void mrk_overflow(struct perf_event *ev, unsigned int cls)
{
	struct mrk_cpu *c = ev->overflow_handler_context;

	atomic64_inc(&c->overflows);
	/*
	 * Counted here, at the overflow that throttles: perf's tick may lift
	 * the throttle before the period timer could see it.
	 */
	if (unlikely(mrk_counter_throttled(ev)))
		atomic64_inc(&c->perf_throttled);
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
		bool was;

		if (!(pending & (1U << cls)) || !c->event[cls])
			continue;
		consumed = mrk_counter_read(c->event[cls]) - c->period_start[cls];
		/*
		 * Exhausted already this period: an exempt CPU is never held,
		 * so its slack-scheme counter keeps overflowing; only its first
		 * exhaustion is traced and may ask the master for a grant.
		 */
		was = READ_ONCE(mrk_core->cpu[c->cpu].throttled);
		me = mrk_core_enter_on(c, true);	/* c's CPU: tested above */
		ret = memreg_overflow(mrk_core, c->cpu, cls, consumed, &arm);
		mrk_core_exit(me);
		if (ret) {
			c->errors++;
			continue;
		}
		if (arm.action != MEMREG_RUN && !c->throttled && !was) {
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
 * Dynamic PMU types tried when resolving a name: perf gives them from
 * PERF_TYPE_MAX upward, lowest free number first, so a system's PMUs sit
 * in a dense range well below this.
 */
#define MRK_PMU_TYPE_SCAN	512

/*
 * Does @type name PMU @name on @cpu now?  Creates @attr with that type,
 * disabled (never scheduled, so no PMU counts it), and compares the PMU
 * perf chose: perf_init_event() offers a type it does not know to every
 * PMU, and PERF_TYPE_RAW may be taken by a PMU of another type, so the
 * type must match as well as the name.  Reading ev->pmu is safe while the
 * event lives: it holds a reference on the PMU's module.  Returns 1, 0,
 * or a negative errno other than -ENOENT from a PMU that refused.
 */
static int mrk_pmu_try(const char *name, const struct perf_event_attr *attr,
		       u32 type, int cpu)
{
	struct perf_event_attr a = *attr;
	struct perf_event *ev;
	int match;

	a.type = type;
	a.disabled = 1;
	a.sample_period = 0;
	ev = perf_event_create_kernel_counter(&a, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return PTR_ERR(ev) == -ENOENT ? 0 : PTR_ERR(ev);
	match = ev->pmu->type == type && ev->pmu->name &&
		!strcmp(ev->pmu->name, name);
	perf_event_release_kernel(ev);
	return match;
}

/*
 * Is a PMU called @name registered (whether or not it takes an event on
 * @cpu)?  Asked only to word a refusal: the PMUs are the devices of the
 * event_source bus, found through the software PMU's device.
 */
static bool mrk_pmu_registered(const char *name, int cpu)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS, .disabled = 1,
	};
	struct perf_event *ev;
	struct device *dev = NULL;

	ev = perf_event_create_kernel_counter(&a, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return false;
	if (ev->pmu->dev && ev->pmu->dev->bus)
		dev = bus_find_device_by_name(ev->pmu->dev->bus, NULL, name);
	perf_event_release_kernel(ev);
	put_device(dev);
	return dev;
}

/**
 * mrk_pmu_resolve() - the perf type PMU @name has now, for an event on @cpu
 * @name: a PMU name, as in /sys/bus/event_source/devices/
 * @attr: the event (its type is ignored)
 * @cpu:  the CPU the counter will count on (a PMU may cover some CPUs only)
 * @type: the type found
 *
 * There is no exported lookup from a name to a type (pmu_idr and the pmus
 * list are private), so the candidate types are tried with the event
 * itself through the public perf_event_create_kernel_counter().  Process
 * context, holding neither the CPU hotplug lock nor mrk_mutex.  Returns
 * 0; -ENXIO when no PMU has that name; or the error of a PMU that exists
 * but refuses the event on @cpu (-ENOENT if none said why).
 */
static int mrk_pmu_resolve(const char *name, const struct perf_event_attr *attr,
			   int cpu, u32 *type)
{
	int ret, refused = -ENOENT;
	u32 t;

	for (t = PERF_TYPE_RAW; t < PERF_TYPE_MAX + MRK_PMU_TYPE_SCAN; t++) {
		if (t == PERF_TYPE_BREAKPOINT)
			continue;	/* fixed types: only RAW is a PMU's own */
		ret = mrk_pmu_try(name, attr, t, cpu);
		if (ret == 1) {
			*type = t;
			return 0;
		}
		if (ret < 0)
			refused = ret;
	}
	return mrk_pmu_registered(name, cpu) ? refused : -ENXIO;
}

/*
 * Create one counter for @spec on @cpu with sample period @sample (0: count
 * only) and @handler, resolving a PMU name to its type first.  Returns the
 * event or an ERR_PTR: -ENXIO for a PMU name no PMU has; a pinned event
 * that could not be scheduled (PMU busy) is released and reported as
 * -EBUSY.
 */
static struct perf_event *mrk_counter_create(const char *spec, int cpu,
					     u64 sample,
					     perf_overflow_handler_t handler,
					     void *ctx)
{
	struct perf_event_attr attr;
	char pmu[MRK_EVENT_LEN];
	struct perf_event *ev;
	int ret;

	ret = mrk_parse_event(spec, &attr, pmu, NULL);
	if (ret)
		return ERR_PTR(ret);
	if (pmu[0]) {
		ret = mrk_pmu_resolve(pmu, &attr, cpu, &attr.type);
		if (ret)
			return ERR_PTR(ret);
	}
	attr.sample_period = sample;
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, handler, ctx);
	if (IS_ERR(ev))
		return ev;
	/* the PMU may have gone, and its type been given again, meanwhile */
	if (pmu[0] && (ev->pmu->type != attr.type || !ev->pmu->name ||
		       strcmp(ev->pmu->name, pmu))) {
		perf_event_release_kernel(ev);
		return ERR_PTR(-EAGAIN);
	}
	if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE) {
		perf_event_release_kernel(ev);
		return ERR_PTR(-EBUSY);
	}
	return ev;
}

/*
 * Why creating a counter for @spec failed with @err, for a message that
 * has already named the spec and CPU: "" or ": reason".
 */
static const char *mrk_counter_why(long err)
{
	switch (err) {
	case -EBUSY:
		return ": PMU busy";
	case -ENOENT:
		return ": no such event or no PMU";
	case -ENXIO:
		return ": no such PMU in /sys/bus/event_source/devices: "
		       "load its driver or fix the name";
	case -EAGAIN:
		return ": its PMU changed while it was created; commit again";
	default:
		return "";
	}
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

	ret = mrk_parse_event(spec, &attr, NULL, &why);
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
			  mrk_counter_why(PTR_ERR(ev)));
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

		if (mrk_parse_event(spec, &attr, NULL, NULL))
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
				  mrk_counter_why(PTR_ERR(ev)));
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
 * Release each counter of @set and clear its slot (mrk_cfg_mutex only).
 * perf_event_release_kernel() removes an event from its CPU synchronously,
 * so no overflow handler of it runs afterwards.
 */
static void release_set(struct perf_event *set[MEMREG_NR_CLASSES])
{
	unsigned int cls;

	lockdep_assert_held(&mrk_cfg_mutex);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (set[cls]) {
			perf_event_release_kernel(set[cls]);
			set[cls] = NULL;
		}
	}
}

/* Release the created but not installed counters of @c. */
void mrk_counters_discard(struct mrk_cpu *c)
{
	release_set(c->fresh);
	c->prepared = false;
}

/* Release the detached counters of @c. */
void mrk_counters_release(struct mrk_cpu *c)
{
	release_set(c->detached);
}
