/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrk.h - memreg.ko, the kernel glue around the portable regulator core
 * (regulator/core/include/memreg.h): shared declarations.  Glue symbols are
 * prefixed mrk_ so they never collide with the core's memreg_ names.
 *
 * Subsystems, one per file:
 *   main.c     module parameters, boot configuration, init/exit unwind
 *   config.c   event specs, validation, the staged -> active commit, errors
 *   counter.c  perf counters (one per CPU per class) and the overflow path
 *   timer.c    the pinned hard-irq period timer of each regulated CPU
 *   throttle.c irq_work + SCHED_FIFO throttle thread per CPU
 *   master.c   the master core's tick (on the master CPU's period timer,
 *              or its own hard hrtimer) and spare sharing
 *   sysfs.c    /sys/kernel/memreg/
 *   switch.c   configuration switches (load, commit, unload)
 *   hotplug.c  start/stop of one CPU, cpuhp state
 *
 * Locking rules (resctrl style):
 *  - mrk_cfg_mutex (outermost) serialises whole-configuration switches
 *    (load, commit, unload) and the per-CPU hotplug work; perf counters are
 *    created and released holding it and nothing else (switch.c says why).
 *    Hotplug callbacks never take it.
 *  - mrk_mutex protects mrk_staged, mrk_active, the core's struct memreg
 *    outside the regulation paths (memreg_init()), the start/stop of every
 *    CPU and of the master, and the last-error string.  It nests
 *    inside the CPU hotplug lock: hotplug callbacks run with the hotplug
 *    lock held and take mrk_mutex; every other path takes cpus_read_lock()
 *    before mrk_mutex.  Each rule is asserted with lockdep_assert_held()
 *    where a function states it, except the hotplug lock:
 *    lockdep_assert_cpus_held() is not exported to modules.
 *  - The core's per-core entry points (memreg_replenish/overflow/
 *    accept_share) for a CPU run only on that CPU in hard-irq context:
 *    its period timer (hard hrtimer), the hard irq_work queued by the
 *    counters' overflow handler (which itself only does atomics: it may
 *    run in NMI) and the share IPI (call-single csd) the master sends when
 *    it published a spare grant.  They therefore never nest or run
 *    concurrently for one CPU; mrk_core_enter() counts any entry that
 *    breaks this.
 *  - memreg_master_tick()/memreg_master_share() run under mrk_master_lock
 *    (a raw spinlock) on the master CPU only, in hard irq: the master
 *    CPU's period timer (or the master's own tick timer) and the poke
 *    IPIs.
 *  - struct mrk_cpu fields are owned by their CPU unless marked otherwise;
 *    other CPUs read them with READ_ONCE() (64-bit architectures only).
 */
#ifndef MRK_H
#define MRK_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "memreg.h"		/* the portable core */

#define MRK_EVENT_LEN	MEMREG_EVENT_LEN
#define MRK_ERR_LEN	200
#define MRK_SLACK_MAX	1024
#define MRK_THROTTLE_PRIO	50	/* default SCHED_FIFO priority of the throttle threads */
#define MRK_THROTTLE_PRIO_MAX	98
#define MRK_RT_PRIO_MAX		99
/*
 * Events to arm a re-armed counter with once its CPU is throttled: more
 * than any class counts in one period (a PMU driver clamps it to its
 * counter width; cpu-clock counts nanoseconds, periods are <= 1 s).
 */
#define MRK_ARM_NEVER	(1ULL << 40)

/**
 * struct mrk_cfg - a complete configuration: the core's plus the glue's
 * @core:      the regulator core's configuration (budgets, flags, LMS)
 * @event:     counter event per class: "none", "page-faults", "cpu-clock",
 *             "raw:0xNN", "TYPE:CONFIG" or "PMU_NAME:CONFIG" (numbers in C
 *             syntax; a PMU name is resolved to its type each time a
 *             counter is created: load, commit, CPU online)
 * @cpu_event: per CPU and class, the CPU's own event spec ("" : @event);
 *             held as written until mrk_cfg_check() parses it
 * @slack_div: a counter overflows every max(1, guaranteed / slack_div)
 *             events, so a period overshoots its budget by at most that
 *             many events plus the throttle latency (1..MRK_SLACK_MAX)
 * @throttle_prio: SCHED_FIFO priority of the throttle threads
 *             (1..MRK_THROTTLE_PRIO_MAX)
 * @rt_prio:   0, or 2..MRK_RT_PRIO_MAX: a real-time task of this priority or
 *             above is never held off a throttled CPU (the throttle threads
 *             run below it); per-CPU exemption is core.cpu[].exempt
 */
struct mrk_cfg {
	struct memreg_cfg	core;
	char			event[MEMREG_NR_CLASSES][MRK_EVENT_LEN];
	char			cpu_event[MEMREG_MAX_CPUS][MEMREG_NR_CLASSES][MRK_EVENT_LEN];
	u32			slack_div;
	u32			throttle_prio;
	u32			rt_prio;
};

/**
 * struct mrk_cpu - the glue's state for one CPU
 * @cpu:          CPU number
 * @running:      counters, thread and timer are up (mrk_mutex)
 * @started:      the timer ran the first replenishment (owner)
 * @timer:        the period timer: pinned, hard-irq mode
 * @period_ns:    period length (copied at start, read by the timer)
 * @offset_ns:    where this CPU's periods start after the global grid:
 *                a quarter period on a master CPU whose timer carries
 *                the master tick (master.c), else 0 (set at start)
 * @ticks:        this CPU's period timer runs the master tick after its
 *                replenishment (set at start)
 * @period:       number of the current period,
 *                (ktime - offset_ns) / period_ns (owner)
 * @event:        perf counter per class, NULL if the class is not counted
 *                (installed: read by the timer and overflow path)
 * @detached:     counters off the regulation path, waiting to be released
 *                without locks (mrk_cfg_mutex)
 * @fresh:        counters created for the configuration being switched
 *                to, not yet installed (mrk_cfg_mutex); a switch creates
 *                them while the old ones still regulate
 * @fresh_sample: @sample of each @fresh counter
 * @fresh_rearm:  @rearm of each @fresh counter
 * @prepared:     @fresh holds the counters for the configuration being
 *                installed (mrk_cfg_mutex)
 * @prepared_gen: @offline_gen when they were created (mrk_cfg_mutex)
 * @offline_gen:  times the CPU went offline (mrk_mutex): counters created
 *                before the last offline are dead
 * @sample:       overflow granularity per class (events) of a counter
 *                that is not re-armed; the first arming of one that is
 * @rearm:        per class, the counter is re-armed to what is left of the
 *                budget (hardware/raw events and cpu-clock); otherwise it
 *                overflows every @sample events (other software events)
 * @period_start: counter value at the last replenishment (owner)
 * @halted:       classes whose counter the period timer stopped to read
 *                it and has yet to restart (bit = 1 << class; set and
 *                cleared within one run of the owner's timer handler)
 * @throttled:    non-zero while the CPU idles until its next period
 *                (written by the owner's timer/overflow/thread)
 * @throttled_ns: throttled time not yet reported to the core (thread adds,
 *                timer takes with atomic64_xchg)
 * @ovf_pending:  classes whose counter overflowed and that @work has not
 *                yet handled (bit = 1 << class; overflow handler sets)
 * @overflows:    overflow handler calls (PMU interrupts for a hardware
 *                counter) since the last commit
 * @work:         hard irq_work queued by the overflow handler: calls the
 *                core for the pending classes, re-arms, throttles
 * @share_csd:    call-single csd the master sends to this CPU when it
 *                published a spare grant: memreg_accept_share() (throttle.c)
 * @poke_csd:     call-single csd this CPU sends to the master CPU to ask
 *                for a spare-sharing decision (master.c); one per sender,
 *                since a csd must not be sent twice at once
 * @core_depth:   core entries in progress on this CPU (mrk_core_enter())
 * @core_nested:  core entries while another was in progress on this CPU
 * @core_outside_irq: per-core entry points entered outside hard-irq
 *                context (or in NMI)
 * @thread:       the SCHED_FIFO smpboot throttle thread of @cpu
 * @errors:       core entry points that returned an error (owner)
 * @perf_throttled: times perf throttled a counter of this CPU: its
 *                overflows went undelivered until perf's next tick
 *                (overflow handler, possibly in NMI)
 * @perf_throttled_seen: @perf_throttled at the last period end, so that
 *                the timer reports new throttles once (owner's timer)
 * @stale:        the current period's budget is the guarantee because the
 *                master published none for it (owner's timer; traced)
 * @hp_work:      deferred hotplug work (hotplug.c)
 * @failed:       0, or the errno (positive) of the counter creation that
 *                failed while the CPU is online and regulated: it then
 *                runs unregulated and the core counts it as away
 *                (hotplug.c); retried at the next commit or online
 *                (mrk_mutex; sysfs cpuN/counter_error)
 * @lost:         periods whose timer found a counter that perf had moved
 *                to ERROR or OFF (owner's timer; sysfs cpuN/counters_lost)
 * @restart:      non-zero when the hotplug work must re-create the
 *                counters of the running CPU (a counter was lost)
 * @pmu_type:     per class, 1 + the perf type the installed counter was
 *                created with (a PMU name resolved then), 0 without one
 *                (mrk_mutex writes; sysfs cpuN/read_pmu_type reads)
 */
struct mrk_cpu {
	int			cpu;
	bool			running;
	int			started;
	struct hrtimer		timer;
	u64			period_ns;
	u64			offset_ns;
	bool			ticks;
	u64			period;
	struct perf_event	*event[MEMREG_NR_CLASSES];
	struct perf_event	*detached[MEMREG_NR_CLASSES];
	struct perf_event	*fresh[MEMREG_NR_CLASSES];
	u64			fresh_sample[MEMREG_NR_CLASSES];
	bool			fresh_rearm[MEMREG_NR_CLASSES];
	bool			prepared;
	u64			prepared_gen;
	u64			offline_gen;
	u64			sample[MEMREG_NR_CLASSES];
	bool			rearm[MEMREG_NR_CLASSES];
	u64			period_start[MEMREG_NR_CLASSES];
	unsigned int		halted;
	int			throttled;
	atomic64_t		throttled_ns;
	atomic_t		ovf_pending;
	atomic64_t		overflows;
	struct irq_work		work;
	call_single_data_t	share_csd;
	call_single_data_t	poke_csd;
	int			core_depth;
	u64			core_nested;
	u64			core_outside_irq;
	struct task_struct	*thread;
	u64			errors;
	atomic64_t		perf_throttled;
	u64			perf_throttled_seen;
	int			stale;
	struct work_struct	hp_work;
	int			failed;
	u64			lost;
	atomic_t		restart;
	u32			pmu_type[MEMREG_NR_CLASSES];
};

DECLARE_PER_CPU(struct mrk_cpu, mrk_cpus);

extern struct mutex mrk_cfg_mutex;
extern struct mutex mrk_mutex;
extern struct mrk_cfg mrk_active;
extern struct mrk_cfg mrk_staged;
extern struct memreg *mrk_core;
extern raw_spinlock_t mrk_master_lock;
extern atomic_t mrk_share_req;
extern atomic_t mrk_perf_throttled_cpu;
extern unsigned int mrk_nr_cpus;

/**
 * mrk_core_enter_on() - account one entry into the regulator core
 * @me:      this CPU's state (this_cpu_ptr(&mrk_cpus)), which a period
 *           timer or overflow work already holds
 * @percore: a per-core entry point (must run in hard-irq context)
 *
 * Called with interrupts off right before a call into regulator/core;
 * counts, on this CPU, entries made while another is in progress (an NMI
 * or interrupt nesting into the core) and per-core entries made outside
 * hard-irq context.  Both stay 0 when the glue keeps its rules; sysfs
 * shows them as cpuN/core_nested and cpuN/core_outside_irq.  Two
 * increments: always on.  Returns @me for mrk_core_exit().
 */
static inline struct mrk_cpu *mrk_core_enter_on(struct mrk_cpu *me,
						bool percore)
{
	lockdep_assert_irqs_disabled();
	if (me->core_depth++)
		me->core_nested++;
	if (percore && (!in_hardirq() || in_nmi()))
		me->core_outside_irq++;
	return me;
}

/* mrk_core_enter_on() for this CPU. */
static inline struct mrk_cpu *mrk_core_enter(bool percore)
{
	return mrk_core_enter_on(this_cpu_ptr(&mrk_cpus), percore);
}

/* The core call that mrk_core_enter() accounted has returned. */
static inline void mrk_core_exit(struct mrk_cpu *me)
{
	me->core_depth--;
}

/**
 * mrk_cpu_event() - the event spec class @cls of @cpu counts under @cfg
 * @cfg: a configuration
 * @cpu: CPU slot (< MEMREG_MAX_CPUS)
 * @cls: enum memreg_class
 *
 * The CPU's own spec (cpuN/read_event, read_event_cpus=) if it has one,
 * else the global read_event/write_event.
 */
static inline const char *mrk_cpu_event(const struct mrk_cfg *cfg,
					unsigned int cpu, unsigned int cls)
{
	return cfg->cpu_event[cpu][cls][0] ? cfg->cpu_event[cpu][cls] :
					     cfg->event[cls];
}

/* config.c */
int mrk_parse_event(const char *spec, struct perf_event_attr *attr,
		    char *pmu, const char **why);
int mrk_parse_event_cpus(struct mrk_cfg *cfg, unsigned int cls,
			 const char *name, const char *list, char *err,
			 size_t len);
bool mrk_event_rearms(const struct perf_event_attr *attr);
int mrk_cfg_check(const struct mrk_cfg *cfg, char *err, size_t len);
int mrk_commit(void);
void mrk_set_error(const char *fmt, ...) __printf(1, 2);
void mrk_get_error(char *buf, size_t len);
void mrk_clear_error(void);

/* counter.c */
int mrk_counters_create(struct mrk_cpu *c, const struct mrk_cfg *cfg,
			char *err, size_t len);
void mrk_counters_arm(struct mrk_cpu *c, const struct memreg_arm *arm);
void mrk_counters_release(struct mrk_cpu *c);
void mrk_counters_discard(struct mrk_cpu *c);
void mrk_counters_resume(struct mrk_cpu *c);

/*
 * Has perf throttled @ev (too many overflow interrupts in one tick,
 * kernel.perf_event_max_sample_rate)?  Until perf's next tick lifts it the
 * counter calls no overflow handler, so budgets are not enforced.  perf
 * marks it by setting hw.interrupts to its MAX_INTERRUPTS, ~0, which is
 * not exported, before it calls the handler of the overflow that
 * throttles.  On @ev's CPU with interrupts off.
 */
static inline bool mrk_counter_throttled(struct perf_event *ev)
{
	return READ_ONCE(ev->hw.interrupts) == ~0ULL;
}

/*
 * Read a CPU-bound counter on its own CPU with interrupts disabled: the
 * same steps as perf_event_read_local(), which is not exported to modules.
 */
static inline u64 mrk_counter_read(struct perf_event *ev)
{
	if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE)
		ev->pmu->read(ev);
	return local64_read(&ev->count);
}

/*
 * Is @c held after a core call that said @arm: its counters are then armed
 * beyond the period's end (MRK_ARM_NEVER), whatever their budgets.
 */
static __always_inline bool mrk_arm_held(const struct mrk_cpu *c,
					 const struct memreg_arm *arm)
{
	return arm->action != MEMREG_RUN || READ_ONCE(c->throttled);
}

/*
 * Give @ev, stopped with its count folded in, a sample period of @left
 * events (at least 1, at most MRK_ARM_NEVER) and start it, reloading the
 * hardware counter: the MemGuard way to re-arm.  Interrupts off, on
 * @ev's CPU.
 */
static __always_inline void mrk_counter_start_at(struct perf_event *ev,
						 u64 left)
{
	left = clamp_t(u64, left, 1, MRK_ARM_NEVER);
	ev->hw.sample_period = left;
	local64_set(&ev->hw.period_left, left);
	ev->pmu->start(ev, PERF_EF_RELOAD);
}

/*
 * What is left of @budget once @ev has counted from @start (its count at
 * the period start), taken from the live count a stop just folded in,
 * never from the core's view of the class's use, which is only as fresh
 * as the class's last overflow; MRK_ARM_NEVER for no overflow before the
 * period ends.
 */
static __always_inline u64 mrk_counter_left(struct perf_event *ev,
					    u64 budget, u64 start)
{
	u64 used;

	if (budget == MRK_ARM_NEVER)
		return MRK_ARM_NEVER;
	used = local64_read(&ev->count) - start;
	return budget > used ? budget - used : 1;
}

int mrk_counter_probe(const char *spec, int cpu, char *err, size_t len);

/* timer.c */
void mrk_timer_init(struct mrk_cpu *c);
bool mrk_timer_armed(struct mrk_cpu *c);
void mrk_timer_start(struct mrk_cpu *c);
void mrk_timer_stop(struct mrk_cpu *c);

/* throttle.c */
int mrk_throttle_init(void);
void mrk_throttle_exit(void);
int mrk_throttle_start(struct mrk_cpu *c);
void mrk_throttle_stop(struct mrk_cpu *c);
bool mrk_throttle_now(struct mrk_cpu *c, int action);
int mrk_throttle_check(const struct mrk_cfg *cfg, char *err, size_t len);
void mrk_overflow_work(struct irq_work *work);

/* master.c */
void mrk_master_init(void);
void mrk_master_exit(void);
int mrk_master_start(void);
void mrk_master_stop(void);
void mrk_master_poke(void);
void mrk_master_report_queue(void);
int mrk_master_armed(void);
bool mrk_master_rides(unsigned int cpu);
void mrk_master_tick(u64 period);

/* hotplug.c */
bool mrk_cfg_regulated(const struct mrk_cfg *cfg, unsigned int cpu);
bool mrk_cpu_regulated(unsigned int cpu);
bool mrk_cpu_counting(unsigned int cpu);
void mrk_core_set_online(unsigned int cpu, bool online);
int mrk_cpu_start(struct mrk_cpu *c);
void mrk_cpu_detach(struct mrk_cpu *c);
int mrk_cpu_prepare(struct mrk_cpu *c, const struct mrk_cfg *cfg, char *err,
		    size_t len);
void mrk_cpu_lost(struct mrk_cpu *c);
int mrk_hotplug_init(void);
void mrk_hotplug_exit(void);

/* switch.c */
int mrk_switch(const struct mrk_cfg *cfg);
int mrk_apply(const struct mrk_cfg *cfg);
void mrk_stop_everything(void);

/* sysfs.c */
int mrk_sysfs_init(void);
void mrk_sysfs_exit(void);

#endif /* MRK_H */
