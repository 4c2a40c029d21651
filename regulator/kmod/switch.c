// SPDX-License-Identifier: GPL-2.0
/*
 * switch.c - switching the whole regulator to a configuration: at load, at
 * each commit, and to nothing at unload.
 *
 * Perf counters are created and released holding mrk_cfg_mutex only, never
 * the CPU hotplug lock nor mrk_mutex: a software event's static key takes
 * the hotplug lock itself, and a read-side recursion deadlocks behind a
 * pending hotplug writer (whose callbacks in turn wait for mrk_mutex).  So
 * a switch runs in three steps: stop every CPU and detach its counters
 * (locked), release the old and create the new counters (unlocked), install
 * them and start every CPU that is still online (locked).  A CPU that went
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

/*
 * Make @cfg the active configuration and regulate with it: stop and detach
 * everything, re-initialise the core, create the new counters, start every
 * regulated online CPU and the master.  On failure nothing runs and the
 * error is returned (and recorded).  mrk_cfg_mutex held, no other lock;
 * @cfg has passed mrk_cfg_check() and is not mrk_active itself.
 */
int mrk_switch(const struct mrk_cfg *cfg)
{
	static struct memreg_cfg core;	/* mrk_cfg_mutex; too big for the stack */
	const char *why = "";
	unsigned int cpu;
	int ret;

	lockdep_assert_held(&mrk_cfg_mutex);

	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	mrk_detach_all();
	mrk_active = *cfg;
	/* the core's copy only: staged and active must compare equal */
	core = mrk_active.core;
	core.flags |= mrk_uncounted(&mrk_active);
	ret = memreg_init(mrk_core, &core, &why);
	if (ret)
		mrk_set_error("core refused the configuration: %s", why);
	else
		for_each_possible_cpu(cpu)
			if (!cpu_online(cpu))
				mrk_core_set_online(cpu, false);
	for_each_possible_cpu(cpu) {	/* the glue's statistics, like the core's */
		per_cpu_ptr(&mrk_cpus, cpu)->errors = 0;
		per_cpu_ptr(&mrk_cpus, cpu)->perf_throttled = 0;
		atomic64_set(&per_cpu_ptr(&mrk_cpus, cpu)->overflows, 0);
	}
	atomic_set(&mrk_perf_throttled_cpu, 0);
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();
	mrk_release_all();
	if (ret)
		return ret;

	for_each_possible_cpu(cpu) {
		ret = mrk_cpu_prepare(per_cpu_ptr(&mrk_cpus, cpu));
		if (ret)
			goto out_release;
	}

	cpus_read_lock();
	mutex_lock(&mrk_mutex);
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
out_release:
	mrk_release_all();	/* unused, dead or (on failure) all counters */
	return ret;
}

/*
 * Switch to @cfg; if that fails, back to the configuration that was active
 * before.  mrk_cfg_mutex held, no other lock.  Returns the error of the
 * first switch.
 */
int mrk_apply(const struct mrk_cfg *cfg)
{
	static struct mrk_cfg old;	/* mrk_cfg_mutex */
	int ret;

	lockdep_assert_held(&mrk_cfg_mutex);

	old = mrk_active;
	ret = mrk_switch(cfg);
	if (ret && mrk_switch(&old))
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
