// SPDX-License-Identifier: GPL-2.0
/*
 * hotplug.c - starting and stopping one CPU, and the CPU hotplug state
 * that stops and restarts a CPU as it goes offline and online.  Switching
 * the whole regulator to a configuration is in switch.c.
 *
 * Start order on a CPU: throttle path, counters installed, timer; stop is
 * the reverse.  The throttle threads are smpboot threads (throttle.c): the
 * kernel parks them before a CPU goes offline and unparks them when it is
 * back.  Counters are created and released outside the hotplug lock
 * (switch.c says why), so an offline CPU's counters are released by its
 * deferred hotplug work, not by the callback.
 *
 * Locking: mrk_cfg_mutex (outermost) serialises switches and the per-CPU
 * hotplug work, and owns mrk_cpu.detached/prepared.  Then cpus_read_lock()
 * (or a hotplug callback), then mrk_mutex; mrk_cpu.running and offline_gen
 * change only under both.
 *
 * The core is told when a regulated CPU goes away and comes back
 * (memreg_cpu_set_online()), so that spare sharing, its division and the
 * master's sums count only the CPUs that are there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/lockdep.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "mrk.h"

DEFINE_PER_CPU(struct mrk_cpu, mrk_cpus);
DEFINE_MUTEX(mrk_cfg_mutex);
static enum cpuhp_state mrk_hp_state;
static bool mrk_unloading;	/* mrk_mutex */

/* Is @cpu regulated by @cfg? */
bool mrk_cfg_regulated(const struct mrk_cfg *cfg, unsigned int cpu)
{
	return cpu < cfg->core.nr_cpus && cfg->core.cpu[cpu].active;
}

/* Is @cpu regulated by the active configuration? */
bool mrk_cpu_regulated(unsigned int cpu)
{
	return mrk_cfg_regulated(&mrk_active, cpu);
}

/*
 * Is @cpu regulated and not left without counters (mrk_cpu.failed)?  A
 * failed master CPU has no period timer to carry the tick (master.c).
 * mrk_mutex held.
 */
bool mrk_cpu_counting(unsigned int cpu)
{
	return mrk_cpu_regulated(cpu) && !per_cpu_ptr(&mrk_cpus, cpu)->failed;
}

/*
 * Tell the core that regulated @cpu is @online or not.  Its timer and
 * irq_works are stopped or not yet started, as memreg_cpu_set_online()
 * requires.  mrk_mutex held.
 */
void mrk_core_set_online(unsigned int cpu, bool online)
{
	unsigned long flags;
	struct mrk_cpu *me;

	lockdep_assert_held(&mrk_mutex);
	if (!mrk_cpu_regulated(cpu))
		return;
	local_irq_save(flags);
	me = mrk_core_enter(false);
	memreg_cpu_set_online(mrk_core, cpu, online);
	mrk_core_exit(me);
	local_irq_restore(flags);
}

/*
 * Start regulating @c's CPU with the counters prepared for it (throttle
 * path, counters, core told it is there, timer).  A CPU without prepared
 * counters, or one that went offline since they were created (they are
 * dead), is left to its hotplug work.  cpus_read_lock() or a hotplug
 * callback, mrk_mutex and mrk_cfg_mutex held; the CPU online.
 */
int mrk_cpu_start(struct mrk_cpu *c)
{
	unsigned int cls;
	int ret;

	lockdep_assert_held(&mrk_mutex);
	lockdep_assert_held(&mrk_cfg_mutex);
	if (c->running || !mrk_cpu_regulated(c->cpu) || !c->prepared ||
	    c->prepared_gen != c->offline_gen)
		return 0;
	ret = mrk_throttle_start(c);
	if (ret)
		return ret;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		c->event[cls] = c->fresh[cls];
		WRITE_ONCE(c->pmu_type[cls],
			   c->event[cls] ? c->event[cls]->attr.type + 1 : 0);
		c->sample[cls] = c->fresh_sample[cls];
		c->rearm[cls] = c->fresh_rearm[cls];
		c->fresh[cls] = NULL;
	}
	c->prepared = false;
	WRITE_ONCE(c->failed, 0);
	mrk_core_set_online(c->cpu, true);
	mrk_timer_start(c);
	c->running = true;
	return 0;
}

/*
 * IPI callback on @c's own CPU, interrupts off: no overflow handler of this
 * CPU can be half-way through a throttle decision now, and every later one
 * sees started == 0 and does nothing.
 */
static void mrk_cpu_release_local(void *arg)
{
	struct mrk_cpu *c = arg;

	WRITE_ONCE(c->started, 0);
	WRITE_ONCE(c->throttled, 0);
}

/*
 * Stop @c's timer and throttle path and wait for them, keeping its
 * counters attached (they are released later, without the hotplug lock).
 * Safe in a hotplug callback.  cpus_read_lock() or a hotplug callback and
 * mrk_mutex held.
 */
static void mrk_cpu_quiesce(struct mrk_cpu *c)
{
	lockdep_assert_held(&mrk_mutex);
	if (!c->running)
		return;
	mrk_timer_stop(c);
	/*
	 * With the timer gone nothing lifts a throttle any more.  Clearing the
	 * flag from another CPU would race with an overflow handler that saw
	 * started == 1 just before and throttles just after: the FIFO thread
	 * would then hold the CPU for ever.  Do it on the CPU itself.
	 */
	smp_call_function_single(c->cpu, mrk_cpu_release_local, c, 1);
	mrk_throttle_stop(c);
	c->running = false;
}

/*
 * Quiesce @c and move its counters to @c->detached for release.  Locks as
 * mrk_cpu_quiesce(), plus mrk_cfg_mutex.
 */
void mrk_cpu_detach(struct mrk_cpu *c)
{
	unsigned int cls;

	lockdep_assert_held(&mrk_cfg_mutex);
	mrk_cpu_quiesce(c);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (!c->event[cls])
			continue;
		/* detached is empty here: every path releases before unlocking */
		c->detached[cls] = c->event[cls];
		c->event[cls] = NULL;
		WRITE_ONCE(c->pmu_type[cls], 0);
	}
}

/*
 * Create @c's counters for @cfg into @c->fresh, tagged with the CPU's
 * offline generation; the installed ones keep regulating meanwhile.
 * mrk_cfg_mutex only.  Returns 0 (also when the CPU is not regulated or
 * went offline) or a negative errno with the reason in @err.
 */
int mrk_cpu_prepare(struct mrk_cpu *c, const struct mrk_cfg *cfg, char *err,
		    size_t len)
{
	u64 gen = READ_ONCE(c->offline_gen);
	int ret;

	lockdep_assert_held(&mrk_cfg_mutex);

	if (!mrk_cfg_regulated(cfg, c->cpu) || !cpu_online(c->cpu))
		return 0;
	ret = mrk_counters_create(c, cfg, err, len);
	/*
	 * Raced with an offline: perf's context goes down after this CPU's
	 * teardown callback scheduled the hotplug work (which handles it),
	 * while cpu_online() may still say yes.
	 */
	if (ret == -ENODEV)
		return 0;
	if (ret)
		return ret;
	c->prepared = true;
	c->prepared_gen = gen;
	return 0;
}

/*
 * @c is online and regulated but its counters could not be created (@ret,
 * the reason in @why): leave it unregulated and out of the core's sums,
 * its spare-sharing division and "every CPU throttled" (as if it were
 * away), and say so in error.  A master CPU moves the tick to the tick
 * timer, since no period timer of its own carries it.  Retried at the
 * next commit or online.  cpus_read_lock(), mrk_mutex and mrk_cfg_mutex
 * held.
 */
static void mrk_cpu_fail(struct mrk_cpu *c, int ret, const char *why)
{
	lockdep_assert_held(&mrk_mutex);
	lockdep_assert_held(&mrk_cfg_mutex);
	if (c->running || !mrk_cpu_regulated(c->cpu))
		return;
	mrk_core_set_online(c->cpu, false);
	WRITE_ONCE(c->failed, ret < 0 ? -ret : EIO);
	if (c->cpu == mrk_active.core.master_cpu) {
		mrk_master_stop();
		mrk_master_start();
	}
	mrk_set_error("%s: cpu %d is not regulated (retried at the next commit "
		      "or when it comes online again)", why, c->cpu);
}

/*
 * Deferred part of a hotplug transition, in process context outside the
 * hotplug callbacks: release the counters of a CPU that went offline, and
 * start a CPU that came online (or whose counters died in a race, or were
 * lost, or could not be created before: mrk_cpu.failed).
 */
static void mrk_cpu_work(struct work_struct *w)
{
	struct mrk_cpu *c = container_of(w, struct mrk_cpu, hp_work);
	char why[MRK_ERR_LEN];
	bool start, restart;
	int ret = 0;

	mutex_lock(&mrk_cfg_mutex);
	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	restart = atomic_xchg(&c->restart, 0);
	if (!c->running || restart)
		mrk_cpu_detach(c);
	start = !mrk_unloading && !c->running && cpu_online(c->cpu);
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();
	mrk_counters_release(c);

	if (start)
		ret = mrk_cpu_prepare(c, &mrk_active, why, sizeof(why));
	if (start) {
		cpus_read_lock();
		mutex_lock(&mrk_mutex);
		if (!mrk_unloading && cpu_online(c->cpu) && ret)
			mrk_cpu_fail(c, ret, why);
		if (!mrk_unloading && cpu_online(c->cpu) && !ret) {
			/* a failed master CPU carries the tick again */
			if (c->failed && c->cpu == mrk_active.core.master_cpu) {
				mrk_master_stop();
				WRITE_ONCE(c->failed, 0);
				mrk_master_start();
			}
			ret = mrk_cpu_start(c);
			if (ret)
				mrk_set_error("cpu %d online: regulation not restarted (%d)",
					      c->cpu, ret);
		}
		mutex_unlock(&mrk_mutex);
		cpus_read_unlock();
		mrk_counters_discard(c);	/* not installed: dead or unused */
	}
	mutex_unlock(&mrk_cfg_mutex);
}

/*
 * A period timer of @c found a counter that perf took off the PMU
 * (mrk_counters_halt()): have the hotplug work re-create the CPU's
 * counters, or leave it unregulated and reported if that fails.  Hard irq
 * on @c's CPU; the work is queued once per loss.
 */
void mrk_cpu_lost(struct mrk_cpu *c)
{
	if (!atomic_xchg(&c->restart, 1))
		schedule_work(&c->hp_work);
}

/*
 * cpuhp startup callback (on @cpu as it comes online): restart the master
 * (its tick) if this is its CPU and defer the CPU's own start to mrk_cpu_work().
 * Never fails the online operation.
 */
static int mrk_cpu_online(unsigned int cpu)
{
	mutex_lock(&mrk_mutex);
	if (!mrk_unloading) {
		/* the core hears of it once its counters exist (mrk_cpu_start()) */
		if (cpu == mrk_active.core.master_cpu)
			mrk_master_start();
		schedule_work(&per_cpu_ptr(&mrk_cpus, cpu)->hp_work);
	}
	mutex_unlock(&mrk_mutex);
	return 0;
}

/*
 * cpuhp teardown callback (on @cpu before it goes offline): stop its timer
 * and throttle path now; its counters are detached by perf's own teardown
 * and released later by mrk_cpu_work().  Counters created for this CPU
 * before now are dead from here on: the generation says so.
 */
static int mrk_cpu_offline(unsigned int cpu)
{
	struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);

	mutex_lock(&mrk_mutex);
	WRITE_ONCE(c->offline_gen, c->offline_gen + 1);
	WRITE_ONCE(c->failed, 0);	/* away now, not failed */
	mrk_cpu_quiesce(c);
	if (!mrk_unloading)
		mrk_core_set_online(cpu, false);
	if (cpu == mrk_active.core.master_cpu)
		mrk_master_stop();
	if (!mrk_unloading)
		schedule_work(&c->hp_work);
	mutex_unlock(&mrk_mutex);
	return 0;
}

/* Remove the hotplug state (callbacks not run) and wait for its work. */
static void mrk_hotplug_remove(void)
{
	unsigned int cpu;

	mutex_lock(&mrk_mutex);
	mrk_unloading = true;
	mutex_unlock(&mrk_mutex);
	cpuhp_remove_state_nocalls(mrk_hp_state);
	for_each_possible_cpu(cpu)
		cancel_work_sync(&per_cpu_ptr(&mrk_cpus, cpu)->hp_work);
}

/*
 * Register the dynamic hotplug state without running its callbacks, then
 * start regulating with the load-time configuration mrk_active (so that a
 * failure fails the load).  No lock held.
 */
int mrk_hotplug_init(void)
{
	static struct mrk_cfg boot;	/* init only */
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu)
		INIT_WORK(&per_cpu_ptr(&mrk_cpus, cpu)->hp_work, mrk_cpu_work);
	mrk_unloading = false;
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "memreg:online",
					mrk_cpu_online, mrk_cpu_offline);
	if (ret < 0)
		return ret;
	mrk_hp_state = ret;
	boot = mrk_active;
	mutex_lock(&mrk_cfg_mutex);
	ret = mrk_switch(&boot);
	mutex_unlock(&mrk_cfg_mutex);
	if (ret)
		mrk_hotplug_exit();
	return ret;
}

/*
 * Unload: remove the hotplug state, wait for deferred work, stop
 * everything and release the counters.
 */
void mrk_hotplug_exit(void)
{
	unsigned int cpu;

	mrk_hotplug_remove();
	mrk_stop_everything();
	/* a period timer that found a lost counter may have queued it since */
	for_each_possible_cpu(cpu)
		cancel_work_sync(&per_cpu_ptr(&mrk_cpus, cpu)->hp_work);
}
