// SPDX-License-Identifier: GPL-2.0
/*
 * throttle.c - idling a CPU that exhausted its budget until its next period.
 *
 * The overflow path's hard irq_work (IRQ_WORK_INIT_HARD: hard-irq context
 * also on PREEMPT_RT; counter.c) sets mrk_cpu.throttled and wakes the
 * CPU's throttle thread.  That thread is SCHED_FIFO and bound to the CPU:
 * while it holds the CPU in injected idle, nothing of lower priority (the
 * memory-hungry work) runs there.  The period timer clears the flag; the
 * thread then reports how long it held the CPU and sleeps again.  A spare
 * grant, release or new period (share=grant, spare, proportional) arrives
 * as a call-single IPI from the master (master.c), whose callback calls
 * memreg_accept_share() in hard-irq context and lifts the throttle; the
 * CPU whose throttle made every CPU throttled waits for that answer
 * before its first injection, the others notice it between injections.
 *
 * Locking: mrk_cpu.throttled is written on its own CPU only, in hard irq
 * (timer, the two irq_works) or by the IPI that stops the CPU; the thread
 * reads it with READ_ONCE().  Parking (CPU offline) and stopping (unload)
 * end the hold after the current idle injection.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/smpboot.h>
#include <uapi/linux/sched/types.h>

#include "mrk.h"
#include "trace.h"

/*
 * The SCHED_FIFO priority the throttle threads run at under @cfg:
 * throttle_prio, lowered below rt_prio when that is set, so that a
 * real-time task of priority rt_prio or above preempts a throttle at once
 * (the scheduler does the rest: the thread stays runnable, so nothing of
 * lower priority gets the CPU back while the RT task runs).
 */
static u32 mrk_throttle_prio(const struct mrk_cfg *cfg)
{
	if (cfg->rt_prio)
		return min(cfg->throttle_prio, cfg->rt_prio - 1);
	return cfg->throttle_prio;
}

/*
 * Check the throttle options of @cfg (commit and module load): priorities
 * in range, and an rt_prio that leaves a real-time priority for the
 * throttle threads below it.  Writes a one-line reason to @err.
 */
int mrk_throttle_check(const struct mrk_cfg *cfg, char *err, size_t len)
{
	if (cfg->throttle_prio < 1 || cfg->throttle_prio > MRK_THROTTLE_PRIO_MAX) {
		scnprintf(err, len, "throttle_prio %u out of range 1..%u",
			  cfg->throttle_prio, MRK_THROTTLE_PRIO_MAX);
		return -ERANGE;
	}
	if (cfg->rt_prio > MRK_RT_PRIO_MAX) {
		scnprintf(err, len, "rt_prio %u out of range 0 (off) or 2..%u",
			  cfg->rt_prio, MRK_RT_PRIO_MAX);
		return -ERANGE;
	}
	if (cfg->rt_prio == 1) {
		scnprintf(err, len, "rt_prio 1 leaves no SCHED_FIFO priority below "
			  "it for the throttle threads (use 2..%u, or 0 for off)",
			  MRK_RT_PRIO_MAX);
		return -EINVAL;
	}
	return 0;
}

/* Run @p (a throttle thread) at SCHED_FIFO priority @prio if it is not. */
static void mrk_throttle_set_prio(struct task_struct *p, u32 prio)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_FIFO,
		.sched_priority	= prio,
	};

	if (p->policy == SCHED_FIFO && p->rt_priority == prio)
		return;
	if (sched_setattr_nocheck(p, &attr))
		mrk_set_error("cpu %d: cannot set the throttle thread to "
			      "SCHED_FIFO %u", task_cpu(p), prio);
}

/*
 * Mark @c throttled and get its thread running.  Called on @c's CPU in
 * hard irq (the overflow irq_work).  @action MEMREG_THROTTLE_ALL also
 * requests a spare-sharing decision: returns true when the caller must
 * poke the master (mrk_master_poke()), which it does once it has armed
 * the counters, because on the master CPU the grant is taken at once.
 */
bool mrk_throttle_now(struct mrk_cpu *c, int action)
{
	bool share = action == MEMREG_THROTTLE_ALL &&
		(mrk_active.core.flags & MEMREG_F_SHARE);

	lockdep_assert_irqs_disabled();
	if (mrk_active.core.cpu[c->cpu].exempt) {
		/*
		 * Monitored, never held (the core counted an exempt overrun);
		 * its exhausted budget still completes "every CPU throttled".
		 */
		if (share && !atomic_read(&mrk_share_req)) {
			atomic_set(&mrk_share_req, 1);
			return true;
		}
		return false;
	}
	WRITE_ONCE(c->throttled, 1);
	if (share)
		atomic_set(&mrk_share_req, 1);
	if (c->thread)
		wake_up_process(c->thread);
	return atomic_read(&mrk_share_req);
}

/*
 * share=proportional started a new period on @c: record the one that
 * ended, as the period timer does, under the same period number (its
 * events count from the grid period's start).
 */
static void mrk_trace_new_period(struct mrk_cpu *c, const u64 budget[])
{
	u64 used[MEMREG_NR_CLASSES] = { 0, 0 };
	unsigned int cls;

	if (!trace_period_enabled())
		return;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++)
		if (c->event[cls])
			used[cls] = mrk_counter_read(c->event[cls]) -
				    c->period_start[cls];
	trace_period(c->cpu, c->period, used[0], used[1], budget[0], budget[1],
		     1, c->stale);
}

/*
 * Share IPI callback on @info's CPU (hard irq), sent by the master when it
 * published a spare grant, a release or a new period: take it and, if the
 * CPU may run again, lift the throttle and re-arm its counters to the new
 * remaining budget (a release arms nothing: no overflow is needed before
 * the period ends).  An exempt CPU, never held, takes a release or a new
 * period too.
 */
static void mrk_share_ipi(void *info)
{
	struct mrk_cpu *c = info;
	u64 budget[MEMREG_NR_CLASSES];
	struct memreg_arm arm;
	struct mrk_cpu *me;
	int ret;

	if (!READ_ONCE(c->started) || c->cpu != smp_processor_id() ||
	    (!c->throttled && !mrk_core->cpu[c->cpu].throttled))
		return;
	budget[0] = mrk_core->cpu[c->cpu].budget[0];
	budget[1] = mrk_core->cpu[c->cpu].budget[1];
	me = mrk_core_enter(true);
	ret = memreg_accept_share(mrk_core, c->cpu, &arm);
	mrk_core_exit(me);
	if (ret != MEMREG_OK)
		return;
	if (mrk_active.core.share_mode == MEMREG_SHARE_PROPORTIONAL)
		mrk_trace_new_period(c, budget);
	if (arm.action == MEMREG_RUN) {
		WRITE_ONCE(c->throttled, 0);
		mrk_counters_arm(c, &arm);
	}
}

/* smpboot: the throttle thread of @cpu has work while the CPU is throttled. */
static int mrk_throttle_should_run(unsigned int cpu)
{
	return READ_ONCE(per_cpu_ptr(&mrk_cpus, cpu)->throttled);
}

/*
 * How long one idle injection of a throttled CPU may last (ns): until the
 * period boundary, but at most MRK_IDLE_MAX_NS so that a commit, a park
 * (CPU going offline) or an unload, which clear the throttle, never wait
 * long for the thread; with spare sharing on at most a sixteenth of the
 * period (at least MRK_IDLE_MIN_NS), because a grant is noticed only
 * between injections.
 */
#define MRK_IDLE_MIN_NS		(10 * NSEC_PER_USEC)
#define MRK_IDLE_MAX_NS		(2 * NSEC_PER_MSEC)
/* cpuidle exit latency allowed while rt_prio promises a prompt wake-up */
#define MRK_IDLE_RT_LATENCY_NS	(100 * NSEC_PER_USEC)
/* otherwise at most this fraction of the period: 5 % at each wake */
#define MRK_IDLE_LATENCY_DIV	20

/* how long after an injection's end its fold timer first looks */
#define MRK_FOLD_DELAY_NS	(10 * NSEC_PER_USEC)
/* how often it looks again while that injection has not returned */
#define MRK_FOLD_RETRY_NS	(100 * NSEC_PER_USEC)

/*
 * play_idle_precise() ends an injection from its own hard hrtimer with
 * set_tsk_need_resched(current), without folding it into the preempt
 * count.  When a task of higher priority preempted the injection (an RT
 * task above rt_prio or throttle_prio), that task is current then and
 * carries a need_resched that cond_resched() and preempt_enable() do not
 * see on a kernel without full preemption, while resched_curr() skips a
 * task whose flag is already set: a kernel loop that polls need_resched()
 * (zap_pte_range() in munmap or at exit) then spins forever: a soft
 * lockup.  One timer per CPU, expiring just after each injection's
 * end, folds a set flag for whichever task is current, and looks again
 * every MRK_FOLD_RETRY_NS for as long as play_idle_precise() has not
 * returned: the injection's own timer can expire after any fixed margin
 * (an interrupt or a preemption between arming the two), and while a
 * preempting task runs the injection cannot return.  Once it has
 * returned its thread ran, so any flag was consumed by a schedule().
 * An injection that is not preempted costs at most one expiry.
 */
static DEFINE_PER_CPU(struct hrtimer, mrk_fold_timer);
static DEFINE_PER_CPU(bool, mrk_in_injection);

static enum hrtimer_restart mrk_fold_fn(struct hrtimer *t)
{
	if (test_tsk_need_resched(current))
		set_preempt_need_resched();
	if (!READ_ONCE(*this_cpu_ptr(&mrk_in_injection)))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(MRK_FOLD_RETRY_NS));
	return HRTIMER_RESTART;
}

/*
 * Length of @c's next idle injection (ns), as described above, in period
 * @period: read before the caller tested the throttle, so that a period
 * timer firing between the two either clears the throttle the caller
 * sees or leaves an end in the past (the shortest slice), never a slice
 * to the end of the next period.
 */
static u64 mrk_idle_slice(const struct mrk_cpu *c, u64 period)
{
	u64 now = ktime_get_ns();
	u64 end = (period + 1) * c->period_ns + c->offset_ns;
	u64 cap = MRK_IDLE_MAX_NS;

	if (mrk_active.core.flags & MEMREG_F_SHARE)
		cap = clamp_t(u64, c->period_ns / 16, MRK_IDLE_MIN_NS, cap);
	return clamp_t(u64, end > now ? end - now : 0, MRK_IDLE_MIN_NS, cap);
}

/* how long a newly held CPU waits, running, for a pending share decision */
#define MRK_SHARE_WAIT_NS	(30 * NSEC_PER_USEC)

/*
 * This CPU's throttle asked the master for a share decision (it made
 * every CPU throttled): the answer comes within microseconds, and an
 * idle injection, which cannot end early, would hold a released CPU to
 * the injection's end.  Wait for it, spinning, at most MRK_SHARE_WAIT_NS.
 * CPUs held before the decision notice it at their next injection's end.
 */
static void mrk_throttle_await_share(struct mrk_cpu *c)
{
	u64 t0;

	if (!(mrk_active.core.flags & MEMREG_F_SHARE) ||
	    !atomic_read(&mrk_share_req))
		return;
	t0 = ktime_get_ns();
	while (READ_ONCE(c->throttled) && !kthread_should_park() &&
	       !need_resched() && ktime_get_ns() - t0 < MRK_SHARE_WAIT_NS)
		cpu_relax();
}

/*
 * The cpuidle exit latency an injection on @c allows (ns): the wake at the
 * period start, and every interrupt routed to a held CPU, pay it, so at
 * most 1/MRK_IDLE_LATENCY_DIV of the period (the deepest states of some
 * boards take hundreds of microseconds to leave), and at most
 * MRK_IDLE_RT_LATENCY_NS while rt_prio promises a prompt wake-up.  Not
 * inlined: the rt QEMU group reads its result with a kretprobe (cpuidle's
 * functions are notrace, and a TCG guest has no cpuidle driver).
 */
static noinline u64 mrk_idle_latency(const struct mrk_cpu *c)
{
	u64 lat = div_u64(c->period_ns, MRK_IDLE_LATENCY_DIV);

	if (mrk_active.rt_prio)
		lat = min_t(u64, lat, MRK_IDLE_RT_LATENCY_NS);
	return lat;
}

/*
 * smpboot thread body, called when mrk_throttle_should_run(): keep the CPU
 * idle until the period timer (or a spare grant) lifts the throttle, or the
 * thread must park (CPU going offline) or stop (unload).
 *
 * The CPU idles by idle injection, play_idle_precise() (what
 * drivers/powercap/idle_inject.c and intel_powerclamp use): the thread
 * stays the CPU's current, runnable SCHED_FIFO task, so nothing of lower
 * priority (the memory hog) is picked, while the CPU runs the idle loop
 * (cpuidle, halt or wfi, the tick stopped) and the time counts as idle in
 * /proc/stat.  A task of higher priority that wakes on the CPU sets
 * need_resched, the idle loop schedules it at once and the injection
 * resumes when it sleeps (rt_prio relies on that).  Interrupts (the
 * period timer, the master's tick, IPIs) are taken as usual.  An injection
 * cannot be ended early, so each lasts at most mrk_idle_slice(); a spare
 * grant that lifted the throttle is noticed between two.
 */
static void mrk_throttle_fn(unsigned int cpu)
{
	struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);
	u64 latency = mrk_idle_latency(c);
	struct hrtimer *fold = this_cpu_ptr(&mrk_fold_timer);
	u64 t0 = ktime_get_ns();

	mrk_throttle_await_share(c);
	for (;;) {
		/*
		 * The period before the flag: the period timer runs on this
		 * CPU and writes them in the other order (timer.c).
		 */
		u64 period = READ_ONCE(c->period);
		u64 slice;

		if (!READ_ONCE(c->throttled) || kthread_should_park() ||
		    kthread_should_stop())
			break;
		slice = mrk_idle_slice(c, period);
		WRITE_ONCE(*this_cpu_ptr(&mrk_in_injection), true);
		hrtimer_start(fold, ns_to_ktime(slice + MRK_FOLD_DELAY_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
		play_idle_precise(slice, latency);
		WRITE_ONCE(*this_cpu_ptr(&mrk_in_injection), false);
	}
	/* back on the CPU: any task that preempted the injection scheduled */
	hrtimer_cancel(fold);
	atomic64_add(ktime_get_ns() - t0, &c->throttled_ns);
}

/* smpboot setup: the thread runs at SCHED_FIFO, mrk_throttle_prio(). */
static void mrk_throttle_setup(unsigned int cpu)
{
	mrk_throttle_set_prio(current, mrk_throttle_prio(&mrk_active));
}

/* smpboot park (CPU going offline): forget any throttle. */
static void mrk_throttle_park(unsigned int cpu)
{
	WRITE_ONCE(per_cpu_ptr(&mrk_cpus, cpu)->throttled, 0);
}

static DEFINE_PER_CPU(struct task_struct *, mrk_throttle_task);

static struct smp_hotplug_thread mrk_throttle_threads = {
	.store			= &mrk_throttle_task,
	.thread_should_run	= mrk_throttle_should_run,
	.thread_fn		= mrk_throttle_fn,
	.setup			= mrk_throttle_setup,
	.park			= mrk_throttle_park,
	.thread_comm		= "memreg/%u",
};

/*
 * Initialise every CPU's overflow hard irq_work and share csd (once: a
 * counter's overflow handler may queue one as soon as the counter
 * exists) and create the
 * per-CPU throttle threads (smpboot: real per-CPU kthreads, parked while
 * their CPU is offline, so the scheduler never pushes one to another
 * CPU).  Module init, before the hotplug state.
 */
int mrk_throttle_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);
		struct hrtimer *fold = per_cpu_ptr(&mrk_fold_timer, cpu);

		c->work = IRQ_WORK_INIT_HARD(mrk_overflow_work);
		INIT_CSD(&c->share_csd, mrk_share_ipi, c);
		hrtimer_init(fold, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		fold->function = mrk_fold_fn;
	}
	return smpboot_register_percpu_thread(&mrk_throttle_threads);
}

/* Stop and free the throttle threads; module exit, after every CPU stopped. */
void mrk_throttle_exit(void)
{
	smpboot_unregister_percpu_thread(&mrk_throttle_threads);
}

/*
 * Prepare @c's throttle path (irq_work, flags) for regulation.  Process
 * context, mrk_mutex held, CPU online.
 */
int mrk_throttle_start(struct mrk_cpu *c)
{
	lockdep_assert_held(&mrk_mutex);
	c->throttled = 0;
	atomic64_set(&c->throttled_ns, 0);
	atomic_set(&c->ovf_pending, 0);
	c->thread = per_cpu(mrk_throttle_task, c->cpu);
	if (!c->thread)
		return -ENODEV;
	mrk_throttle_set_prio(c->thread, mrk_throttle_prio(&mrk_active));
	return 0;
}

/*
 * Stop @c's throttle path.  The timer is stopped and started is 0 on the
 * CPU, so a queued irq_work or share IPI does nothing (mrk_master_stop()
 * waits for share IPIs); wait for a pending irq_work, then release the
 * idling thread.
 */
void mrk_throttle_stop(struct mrk_cpu *c)
{
	irq_work_sync(&c->work);
	WRITE_ONCE(c->throttled, 0);
}
