// SPDX-License-Identifier: GPL-2.0
/*
 * switch.c - switching the whole regulator to a configuration: at load, at
 * each commit, and to nothing at unload.
 *
 * Perf counters are created and released holding mrk_cfg_mutex only, never
 * the CPU hotplug lock nor mrk_mutex: a software event's static key takes
 * the hotplug lock itself, and a read-side recursion deadlocks behind a
 * pending hotplug writer (whose callbacks in turn wait for mrk_mutex).  So
 * a switch runs in three steps: create the new counters while the old
 * ones still regulate (unlocked; a failure refuses the switch with nothing
 * stopped), stop every CPU, detach its counters, install the new ones and
 * start every CPU that is still online (locked), release the old counters
 * (unlocked).  A commit that changes only budgets and parameters is
 * applied live instead, without touching counters or statistics.  A CPU that went
 * offline in between is recognised by its offline generation and handled
 * by its hotplug work (hotplug.c), like one that came online.
 *
 * Locking: mrk_cfg_mutex (outermost) serialises switches and the per-CPU
 * hotplug work; mrk_active is written only with mrk_cfg_mutex and
 * mrk_mutex both held, so either one suffices to read it.  Then
 * cpus_read_lock(), then mrk_mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/stop_machine.h>

#include "mrk.h"

/*
 * Stop every CPU and the master, detaching the counters.
 * cpus_read_lock(), mrk_cfg_mutex and mrk_mutex held.
 */
static void mrk_detach_all(void)
{
	unsigned int cpu;

	lockdep_assert_held(&mrk_cfg_mutex);
	lockdep_assert_held(&mrk_mutex);

	for_each_possible_cpu(cpu)
		mrk_cpu_detach(per_cpu_ptr(&mrk_cpus, cpu));
	mrk_master_stop();
}

/* Release every detached counter.  mrk_cfg_mutex only. */
static void mrk_release_all(void)
{
	unsigned int cpu;

	lockdep_assert_held(&mrk_cfg_mutex);

	for_each_possible_cpu(cpu)
		mrk_counters_release(per_cpu_ptr(&mrk_cpus, cpu));
}


/*
 * The MEMREG_F_UNCOUNTED_* flags of @cfg: a class whose event is "none"
 * on every regulated CPU, which the core's master then leaves alone.
 */
static u32 mrk_uncounted(const struct mrk_cfg *cfg)
{
	unsigned int cpu, cls;
	u32 f = 0;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		bool counted = false;

		for (cpu = 0; cpu < cfg->core.nr_cpus && !counted; cpu++) {
			const char *spec = mrk_cpu_event(cfg, cpu, cls);
			struct memreg_event ev;

			/* a spec that does not parse (checked before) counts */
			counted = cfg->core.cpu[cpu].active &&
				  (memreg_event_parse(spec, strnlen(spec, MRK_EVENT_LEN),
						      &ev, NULL) || ev.counted);
		}
		if (!counted)
			f |= MEMREG_F_UNCOUNTED(cls);
	}
	return f;
}

/* Release every created but not installed counter.  mrk_cfg_mutex only. */
static void mrk_discard_all(void)
{
	unsigned int cpu;

	lockdep_assert_held(&mrk_cfg_mutex);

	for_each_possible_cpu(cpu)
		mrk_counters_discard(per_cpu_ptr(&mrk_cpus, cpu));
}

/*
 * mrk_core_cfg - @cfg's core configuration into @core, with the classes no
 * CPU counts marked (the core's copy only: staged and active must compare
 * equal), checked by the core; the reason in `error` when it refuses.
 */
static int mrk_core_cfg(const struct mrk_cfg *cfg, struct memreg_cfg *core)
{
	const char *why = "";
	int ret;

	*core = cfg->core;
	core->flags |= mrk_uncounted(cfg);
	ret = memreg_cfg_validate(core, &why);
	if (ret)
		mrk_set_error("core refused the configuration: %s", why);
	return ret;
}

/*
 * Make @cfg the active configuration and regulate with it: create the new
 * counters while the old ones still regulate, then stop and detach
 * everything, re-initialise the core, install the new counters, start
 * every regulated online CPU and the master, and release the old
 * counters.  A counter that cannot be created on an online CPU refuses
 * the switch before anything stopped: the old configuration goes on
 * regulating and the reason is returned (and recorded).  mrk_cfg_mutex
 * held, no other lock; @cfg has passed mrk_cfg_check() and is not
 * mrk_active itself.
 */
int mrk_switch(const struct mrk_cfg *cfg)
{
	static struct memreg_cfg core;	/* mrk_cfg_mutex; too big for the stack */
	char err[MRK_ERR_LEN];
	const char *why = "";
	unsigned int cpu;
	int ret;

	lockdep_assert_held(&mrk_cfg_mutex);

	ret = mrk_core_cfg(cfg, &core);
	if (ret)
		return ret;
	for_each_possible_cpu(cpu) {
		ret = mrk_cpu_prepare(per_cpu_ptr(&mrk_cpus, cpu), cfg, err,
				      sizeof(err));
		if (ret) {
			mrk_discard_all();
			mrk_set_error("%s: not switched, nothing stopped", err);
			return ret;
		}
	}

	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	mrk_detach_all();
	mrk_active = *cfg;
	memreg_init(mrk_core, &core, &why);	/* validated above */
	for_each_possible_cpu(cpu) {
		struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);

		if (!cpu_online(cpu))
			mrk_core_set_online(cpu, false);
		/* the glue's statistics, like the core's */
		c->errors = 0;
		atomic64_set(&c->perf_throttled, 0);
		c->perf_throttled_seen = 0;
		c->lost = 0;
		atomic64_set(&c->overflows, 0);
	}
	atomic_set(&mrk_perf_throttled_cpu, 0);
	ret = mrk_master_start();
	for_each_online_cpu(cpu) {
		if (ret)
			break;
		ret = mrk_cpu_start(per_cpu_ptr(&mrk_cpus, cpu));
	}
	if (ret)
		mrk_detach_all();
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();
	mrk_release_all();	/* the old, dead or (on failure) all counters */
	mrk_discard_all();	/* created for a CPU that went away meanwhile */
	return ret;
}

/*
 * Whether switching from @old to @cfg can be done live (mrk_switch_live()):
 * the same period, CPUs, master CPU, events, thread priorities, monitor
 * and sharing modes, and the master ticking or not as before; only
 * budgets, ceilings, platform ceilings, exemptions, the LMS and reclaim
 * parameters, the LMS and reclaim modes and slack_div differ.  Sharing
 * stays out: stopping the master waits for its csds only while it is on.
 */
static bool mrk_live_ok(const struct mrk_cfg *old, const struct mrk_cfg *cfg)
{
	const u32 live = MEMREG_F_LMS | MEMREG_F_RECLAIM;
	const u32 tick = live | MEMREG_F_SHARE;
	unsigned int cpu, cls;

	if (old->core.period_ns != cfg->core.period_ns ||
	    old->core.nr_cpus != cfg->core.nr_cpus ||
	    old->core.master_cpu != cfg->core.master_cpu ||
	    (old->core.flags & ~live) != (cfg->core.flags & ~live) ||
	    !(old->core.flags & tick) != !(cfg->core.flags & tick) ||
	    old->throttle_prio != cfg->throttle_prio ||
	    old->rt_prio != cfg->rt_prio)
		return false;
	for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++) {
		if (!old->core.cpu[cpu].active != !cfg->core.cpu[cpu].active)
			return false;
		if (!cfg->core.cpu[cpu].active)
			continue;
		for (cls = 0; cls < MEMREG_NR_CLASSES; cls++)
			if (strncmp(mrk_cpu_event(old, cpu, cls),
				    mrk_cpu_event(cfg, cpu, cls), MRK_EVENT_LEN))
				return false;
	}
	return true;
}

/*
 * stop_machine() callback: every CPU spins with interrupts off, so no
 * per-core or master entry point of the core runs while its
 * configuration changes.
 */
static int mrk_live_fn(void *arg)
{
	const char *why = "";
	struct mrk_cpu *me;
	int ret;

	me = mrk_core_enter(false);
	ret = memreg_update(mrk_core, arg, &why);
	mrk_core_exit(me);
	return ret;
}

/*
 * Apply @cfg without stopping anything (mrk_live_ok() said it may be):
 * the core's budgets and parameters change at once under stop_machine()
 * and take effect at each CPU's next period; counters, statistics, the
 * throttle state and the master stay.  A slack-scheme counter gets its
 * new granule (perf_event_period()).  A CPU left without counters
 * (mrk_cpu.failed) is retried by its hotplug work.  mrk_cfg_mutex held,
 * no other lock (stop_machine() takes the CPU hotplug lock).
 */
static int mrk_switch_live(const struct mrk_cfg *cfg)
{
	static struct memreg_cfg core;	/* mrk_cfg_mutex */
	unsigned int cpu, cls;
	int ret;

	lockdep_assert_held(&mrk_cfg_mutex);

	ret = mrk_core_cfg(cfg, &core);
	if (ret)
		return ret;
	ret = stop_machine(mrk_live_fn, &core, NULL);
	if (ret) {
		mrk_set_error("core refused the configuration live (%d)", ret);
		return ret;
	}
	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	mrk_active = *cfg;
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();

	for_each_possible_cpu(cpu) {
		struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);

		if (READ_ONCE(c->failed)) {
			schedule_work(&c->hp_work);
			continue;
		}
		for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
			u64 g = cfg->core.cpu[cpu].guaranteed[cls];
			u64 sample = max_t(u64, 1, g / cfg->slack_div);

			/* c->event is stable: it changes under mrk_cfg_mutex */
			if (!c->event[cls] || c->rearm[cls] || !c->sample[cls] ||
			    c->sample[cls] == sample)
				continue;
			if (!perf_event_period(c->event[cls], sample))
				c->sample[cls] = sample;
		}
	}
	return 0;
}

/*
 * Switch to @cfg: live when only budgets and parameters change
 * (mrk_switch_live()), else, and when nothing changed at all (a commit
 * that re-creates the counters and resets the statistics), by
 * re-creating the counters (mrk_switch());
 * if that fails after the old configuration stopped, back to it.
 * mrk_cfg_mutex held, no other lock.  Returns the error of the first
 * switch.
 */
int mrk_apply(const struct mrk_cfg *cfg)
{
	static struct mrk_cfg old;	/* mrk_cfg_mutex */
	int ret;

	lockdep_assert_held(&mrk_cfg_mutex);

	/* committing nothing new re-creates: the way to restart counters */
	if (memcmp(&mrk_active, cfg, sizeof(*cfg)) && mrk_live_ok(&mrk_active, cfg))
		return mrk_switch_live(cfg);
	old = mrk_active;
	ret = mrk_switch(cfg);
	/* refused before stopping: the old configuration still runs */
	if (ret && memcmp(&mrk_active, &old, sizeof(old)) &&
	    mrk_switch(&old))
		mrk_set_error("could not restore the previous configuration; "
			      "regulation is stopped");
	return ret;
}


/* Stop everything and release every counter.  No lock held. */
void mrk_stop_everything(void)
{
	mutex_lock(&mrk_cfg_mutex);
	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	mrk_detach_all();
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();
	mrk_release_all();
	mutex_unlock(&mrk_cfg_mutex);
}
