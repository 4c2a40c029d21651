// SPDX-License-Identifier: GPL-2.0
/*
 * hotplug.c - starting and stopping regulation on one CPU, on all CPUs,
 * and the CPU hotplug state that does it when a CPU goes offline/online.
 *
 * Start order on a CPU: throttle path, counters, timer; stop is the
 * reverse, so that by the time the throttle path is stopped no timer or
 * overflow can queue its irq_work any more.  The throttle threads
 * themselves are smpboot threads (throttle.c): the kernel parks them before
 * a CPU goes offline and unparks them when it is back.
 *
 * Perf counters are never created or released inside a hotplug callback:
 * software events take the hotplug lock through a static key there, which
 * deadlocks.  The callbacks stop/start what is safe (timer, throttle path,
 * master thread) and defer the counters to a work item.
 *
 * Locking: everything here runs with the CPU hotplug lock held (hotplug
 * callbacks, or cpus_read_lock() in the commit/load/work paths) and then
 * mrk_mutex.  mrk_cpu.running is only changed under both.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/workqueue.h>

#include "mrk.h"

DEFINE_PER_CPU(struct mrk_cpu, mrk_cpus);
static enum cpuhp_state mrk_hp_state;

/* Is @cpu regulated by the active configuration? */
static bool mrk_cpu_regulated(unsigned int cpu)
{
	return cpu < mrk_active.core.nr_cpus && mrk_active.core.cpu[cpu].active;
}

/*
 * Start regulating @c's CPU (thread, counters, timer).  The CPU must be
 * online.  On failure nothing is left running on it.
 */
int mrk_cpu_start(struct mrk_cpu *c)
{
	int ret;

	if (c->running || !mrk_cpu_regulated(c->cpu))
		return 0;
	ret = mrk_throttle_start(c);
	if (ret)
		return ret;
	ret = mrk_counters_start(c);
	if (ret)
		goto err_thread;
	mrk_timer_start(c);
	c->running = true;
	return 0;

err_thread:
	mrk_throttle_stop(c);
	return ret;
}

/*
 * Stop @c's timer and throttle path and wait for them, keeping its
 * counters (see mrk_cpu_offline()).  Safe in a hotplug callback.
 */
static void mrk_cpu_quiesce(struct mrk_cpu *c)
{
	if (!c->running)
		return;
	mrk_timer_stop(c);
	/*
	 * With the timer gone nothing lifts a throttle any more, and the
	 * overflow path ignores a stopped CPU (started == 0): release the
	 * throttle thread now, before anything below can sleep, or the FIFO
	 * thread would hold this CPU forever.
	 */
	WRITE_ONCE(c->throttled, 0);
	mrk_throttle_stop(c);
	c->running = false;
}

/*
 * Stop regulating @c's CPU: timer, irq_work, throttle, then release the
 * counters.  Not from a hotplug callback: releasing a software event drops
 * a static key, which takes the CPU hotplug lock.
 */
void mrk_cpu_stop(struct mrk_cpu *c)
{
	mrk_cpu_quiesce(c);
	mrk_counters_stop(c);
}

/*
 * Start the master thread and every regulated online CPU.  On failure
 * everything started here is stopped again.
 */
int mrk_start_all(void)
{
	unsigned int cpu;
	int ret;

	ret = mrk_master_start();
	if (ret)
		return ret;
	for_each_online_cpu(cpu) {
		ret = mrk_cpu_start(per_cpu_ptr(&mrk_cpus, cpu));
		if (ret) {
			mrk_stop_all();
			return ret;
		}
	}
	return 0;
}

/* Stop every CPU, then the master thread. */
void mrk_stop_all(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		mrk_cpu_stop(per_cpu_ptr(&mrk_cpus, cpu));
	mrk_master_stop();
}

static bool mrk_unloading;	/* mrk_mutex */

/*
 * Deferred part of a hotplug transition, in process context outside the
 * hotplug callbacks (perf counters cannot be created or released there,
 * see mrk_cpu_stop()): release counters left by an offline, and start
 * regulation on a CPU that came online.  Takes cpus_read_lock(), then
 * mrk_mutex.
 */
static void mrk_cpu_work(struct work_struct *w)
{
	struct mrk_cpu *c = container_of(w, struct mrk_cpu, hp_work);
	int ret = 0;

	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	if (!c->running)
		mrk_counters_stop(c);
	if (!mrk_unloading && cpu_online(c->cpu))
		ret = mrk_cpu_start(c);
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();
	if (ret)
		mrk_set_error("cpu %d online: regulation not restarted (%d)",
			      c->cpu, ret);
}

/*
 * cpuhp startup callback (on @cpu as it comes online): restart the master
 * thread if this is its CPU and defer the CPU's own start to mrk_cpu_work().
 * Never fails the online operation.
 */
static int mrk_cpu_online(unsigned int cpu)
{
	mutex_lock(&mrk_mutex);
	if (!mrk_unloading) {
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
 * and released later by mrk_cpu_work().
 */
static int mrk_cpu_offline(unsigned int cpu)
{
	struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);

	mutex_lock(&mrk_mutex);
	mrk_cpu_quiesce(c);
	if (cpu == mrk_active.core.master_cpu)
		mrk_master_stop();
	if (!mrk_unloading)
		schedule_work(&c->hp_work);
	mutex_unlock(&mrk_mutex);
	return 0;
}

/*
 * Register the dynamic hotplug state without running its callbacks, then
 * start regulation synchronously (so that a failure fails the load).
 * Caller holds no lock.
 */
int mrk_hotplug_init(void)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu)
		INIT_WORK(&per_cpu_ptr(&mrk_cpus, cpu)->hp_work, mrk_cpu_work);
	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	mrk_unloading = false;
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "memreg:online",
						   mrk_cpu_online,
						   mrk_cpu_offline);
	if (ret >= 0) {
		mrk_hp_state = ret;
		ret = mrk_start_all();
		if (ret)
			__cpuhp_remove_state_cpuslocked(mrk_hp_state, false);
	}
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();
	return ret < 0 ? ret : 0;
}

/*
 * Remove the hotplug state (callbacks not run), wait for deferred work,
 * stop everything.
 */
void mrk_hotplug_exit(void)
{
	unsigned int cpu;

	mutex_lock(&mrk_mutex);
	mrk_unloading = true;
	mutex_unlock(&mrk_mutex);
	cpuhp_remove_state_nocalls(mrk_hp_state);
	for_each_possible_cpu(cpu)
		cancel_work_sync(&per_cpu_ptr(&mrk_cpus, cpu)->hp_work);
	cpus_read_lock();
	mutex_lock(&mrk_mutex);
	mrk_stop_all();
	mutex_unlock(&mrk_mutex);
	cpus_read_unlock();
}
