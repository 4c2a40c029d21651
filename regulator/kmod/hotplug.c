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
 * Locking: everything here runs with the CPU hotplug lock held (hotplug
 * callbacks, or cpus_read_lock() in the commit/load paths) and then
 * mrk_mutex.  mrk_cpu.running is only changed under both.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>

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

/* Stop regulating @c's CPU and wait for its timer, irq_work and thread. */
void mrk_cpu_stop(struct mrk_cpu *c)
{
	if (!c->running)
		return;
	mrk_timer_stop(c);
	mrk_counters_stop(c);
	mrk_throttle_stop(c);
	c->running = false;
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

/* cpuhp startup callback: runs on @cpu as it comes online. */
static int mrk_cpu_online(unsigned int cpu)
{
	int ret;

	mutex_lock(&mrk_mutex);
	if (cpu == mrk_active.core.master_cpu)
		mrk_master_start();
	ret = mrk_cpu_start(per_cpu_ptr(&mrk_cpus, cpu));
	mutex_unlock(&mrk_mutex);
	/* never fail the online operation: the CPU just runs unregulated */
	if (ret)
		mrk_set_error("cpu %u online: regulation not restarted (%d)",
			      cpu, ret);
	return 0;
}

/* cpuhp teardown callback: runs on @cpu before it goes offline. */
static int mrk_cpu_offline(unsigned int cpu)
{
	mutex_lock(&mrk_mutex);
	mrk_cpu_stop(per_cpu_ptr(&mrk_cpus, cpu));
	if (cpu == mrk_active.core.master_cpu)
		mrk_master_stop();
	mutex_unlock(&mrk_mutex);
	return 0;
}

/*
 * Register the dynamic hotplug state; this also runs mrk_cpu_online() on
 * every online CPU, which starts regulation.  Caller holds no lock.
 */
int mrk_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "memreg:online",
				mrk_cpu_online, mrk_cpu_offline);
	if (ret < 0)
		return ret;
	mrk_hp_state = ret;
	return 0;
}

/* Remove the hotplug state; this runs mrk_cpu_offline() on every CPU. */
void mrk_hotplug_exit(void)
{
	cpuhp_remove_state(mrk_hp_state);
}
