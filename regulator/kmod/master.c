// SPDX-License-Identifier: GPL-2.0
/*
 * master.c - the master core: a SCHED_FIFO thread bound to the master CPU
 * that runs memreg_master_tick() once per period (NLMS update, platform
 * ceiling, publication of next-period budgets, voiding stale pool words)
 * and memreg_master_share() when every regulated CPU is throttled.  This
 * keeps adaptation off the regulated CPUs' timer path.
 *
 * The thread sleeps on an absolute hrtimer a quarter period after each
 * grid point, i.e. after the CPUs' own replenishments.  Spare-share
 * requests wake it early (mrk_master_poke() from hard-irq irq_work).
 *
 * Locking: mrk_master_lock (raw spinlock, interrupts off) serialises the
 * two master entry points, which the core requires; a throttled master
 * CPU's throttle thread takes it with trylock to share.  mrk_master_thread
 * is published with WRITE_ONCE and read in hard-irq context; stopping
 * clears it and waits an RCU grace period (hard-irq regions are RCU
 * readers) before kthread_stop(), so a poke never wakes a freed task.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "mrk.h"

DEFINE_RAW_SPINLOCK(mrk_master_lock);
atomic_t mrk_share_req = ATOMIC_INIT(0);
atomic_t mrk_perf_throttled_cpu = ATOMIC_INIT(0);	/* cpu + 1, 0: none */
unsigned long mrk_share_gen;
static struct task_struct *mrk_master_thread;

/* Wake the master thread; hard-irq safe. */
void mrk_master_poke(void)
{
	struct task_struct *t = READ_ONCE(mrk_master_thread);

	if (t)
		wake_up_process(t);
}

/*
 * Take a pending share request and run the core's spare-sharing decision
 * for the current period; on a grant bump mrk_share_gen so that throttled
 * CPUs' threads call memreg_accept_share().  Master CPU only.  Returns
 * true if it ran.
 */
bool mrk_master_try_share(void)
{
	u64 period, grant[MEMREG_NR_CLASSES];
	unsigned long flags;
	struct mrk_cpu *me;
	int ret;

	if (!raw_spin_trylock_irqsave(&mrk_master_lock, flags))
		return false;
	if (atomic_xchg(&mrk_share_req, 0)) {
		period = div64_u64(ktime_get_ns(), mrk_active.core.period_ns);
		me = mrk_core_enter(false);
		ret = memreg_master_share(mrk_core, period, grant);
		mrk_core_exit(me);
		if (ret == MEMREG_OK)
			WRITE_ONCE(mrk_share_gen, mrk_share_gen + 1);
	}
	raw_spin_unlock_irqrestore(&mrk_master_lock, flags);
	return true;
}

/*
 * Say (as the last error, in process context) that perf throttled a
 * counter: a timer saw it at the end of a period and noted the CPU.
 */
static void mrk_master_report_perf_throttle(void)
{
	int cpu = atomic_xchg(&mrk_perf_throttled_cpu, 0) - 1;

	if (cpu < 0)
		return;
	mrk_set_error("cpu %d: perf throttled its counter in %llu periods, "
		      "budgets unenforced meanwhile: raise kernel."
		      "perf_event_max_sample_rate or lower slack_div", cpu,
		      READ_ONCE(per_cpu_ptr(&mrk_cpus, cpu)->perf_throttled));
}

/*
 * The master thread: per period, one memreg_master_tick() and a report of
 * counters perf throttled; in between, spare-share requests.
 */
static int mrk_master_fn(void *unused)
{
	u64 p = mrk_active.core.period_ns;
	u64 last = 0;

	while (!kthread_should_stop()) {
		u64 now = ktime_get_ns();
		u64 period = div64_u64(now, p);
		ktime_t wake;

		if (atomic_read(&mrk_share_req))
			mrk_master_try_share();
		if (period != last && now - period * p >= p / 4) {
			struct mrk_cpu *me;

			raw_spin_lock_irq(&mrk_master_lock);
			me = mrk_core_enter(false);
			memreg_master_tick(mrk_core, period);
			mrk_core_exit(me);
			raw_spin_unlock_irq(&mrk_master_lock);
			mrk_master_report_perf_throttle();
			last = period;
		}
		/* next tick: a quarter period after the next grid point */
		wake = ns_to_ktime((period == last ? period + 1 : period) * p + p / 4);
		set_current_state(TASK_INTERRUPTIBLE);
		if (!atomic_read(&mrk_share_req) && !kthread_should_stop())
			schedule_hrtimeout(&wake, HRTIMER_MODE_ABS);
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/*
 * Start the master thread on the configured master CPU.  Process context,
 * mrk_mutex held.  A master CPU that is offline leaves the thread stopped
 * (budgets then stay at the guarantees); hotplug starts it later.
 */
int mrk_master_start(void)
{
	int cpu = mrk_active.core.master_cpu;
	struct task_struct *t;

	lockdep_assert_held(&mrk_mutex);
	if (mrk_master_thread || !cpu_online(cpu))
		return 0;
	t = kthread_create_on_cpu(mrk_master_fn, NULL, cpu, "memreg_master/%u");
	if (IS_ERR(t)) {
		mrk_set_error("master cpu %d: cannot create the master thread "
			      "(%ld)", cpu, PTR_ERR(t));
		return PTR_ERR(t);
	}
	sched_set_fifo_low(t);
	WRITE_ONCE(mrk_master_thread, t);
	wake_up_process(t);
	return 0;
}

/* Stop the master thread, if running, and wait for it.  mrk_mutex held. */
void mrk_master_stop(void)
{
	struct task_struct *t = mrk_master_thread;

	lockdep_assert_held(&mrk_mutex);
	if (!t)
		return;
	WRITE_ONCE(mrk_master_thread, NULL);
	synchronize_rcu();
	kthread_stop(t);
	atomic_set(&mrk_share_req, 0);
}
