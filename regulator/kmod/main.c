// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - memreg.ko: module parameters (the boot defaults, settable from
 * /etc/modprobe.d), building and checking the load-time configuration, and
 * module init/exit with unwinding in reverse order.
 *
 * A load with an invalid parameter fails with a message in the kernel log
 * and leaves nothing behind (no sysfs, no timer, no thread, no counter).
 *
 * Locking: init and exit run single-threaded with respect to sysfs (which is
 * created last and removed first); the configuration is checked without
 * locks, like a commit's snapshot (checking creates probe counters).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mrk.h"

struct memreg *mrk_core;
unsigned int mrk_nr_cpus;

static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "regulation period in microseconds (10..1000000; default 1000)");

static unsigned int master_cpu;
module_param(master_cpu, uint, 0444);
MODULE_PARM_DESC(master_cpu, "CPU running the master tick (LMS, reclaim pool, spare sharing; default 0; must be online)");

static char *cpus = "all";
module_param(cpus, charp, 0444);
MODULE_PARM_DESC(cpus, "regulated CPUs as a cpulist, e.g. 1-3 (default all: every possible CPU; CPUs 0-63 only)");

static char *read_event = "page-faults";
module_param(read_event, charp, 0444);
MODULE_PARM_DESC(read_event, "read-class event: none, page-faults, cpu-clock, raw:0xNN or TYPE:CONFIG (default page-faults, a software stand-in)");

static char *write_event = "none";
module_param(write_event, charp, 0444);
MODULE_PARM_DESC(write_event, "write-class event, same syntax (default none)");

static char *read_event_cpus = "";
module_param(read_event_cpus, charp, 0444);
MODULE_PARM_DESC(read_event_cpus, "per-CPU read events overriding read_event: CPUS:SPEC,CPUS:SPEC (CPUS: N or N-M), e.g. 0-3:raw:0x17,4-7:raw:0x2a");

static char *write_event_cpus = "";
module_param(write_event_cpus, charp, 0444);
MODULE_PARM_DESC(write_event_cpus, "per-CPU write events overriding write_event, same syntax");

static unsigned long long read_budget[MEMREG_MAX_CPUS];
static int n_read_budget;
module_param_array(read_budget, ullong, &n_read_budget, 0444);
MODULE_PARM_DESC(read_budget, "guaranteed read events per period, per CPU (one value: every CPU; default platform_read / CPUs)");

static unsigned long long write_budget[MEMREG_MAX_CPUS];
static int n_write_budget;
module_param_array(write_budget, ullong, &n_write_budget, 0444);
MODULE_PARM_DESC(write_budget, "guaranteed write events per period, per CPU");

static unsigned long long read_max[MEMREG_MAX_CPUS];
static int n_read_max;
module_param_array(read_max, ullong, &n_read_max, 0444);
MODULE_PARM_DESC(read_max, "per-CPU ceiling of read events per period (LMS/reclaim/share included; default platform_read)");

static unsigned long long write_max[MEMREG_MAX_CPUS];
static int n_write_max;
module_param_array(write_max, ullong, &n_write_max, 0444);
MODULE_PARM_DESC(write_max, "per-CPU ceiling of write events per period");

static unsigned long long platform_read = 1000000;
module_param(platform_read, ullong, 0444);
MODULE_PARM_DESC(platform_read, "platform ceiling (sustainable traffic) in read events per period");

static unsigned long long platform_write = 1000000;
module_param(platform_write, ullong, 0444);
MODULE_PARM_DESC(platform_write, "platform ceiling in write events per period");

static bool monitor;
module_param(monitor, bool, 0444);
MODULE_PARM_DESC(monitor, "monitor only: timers and counters, budgets infinite");

static bool lms;
module_param(lms, bool, 0444);
MODULE_PARM_DESC(lms, "adapt budgets with NLMS on the master core");

static bool reclaim;
module_param(reclaim, bool, 0444);
MODULE_PARM_DESC(reclaim, "donate unused guaranteed budget and take from the pool");

static char *share = "0";
module_param(share, charp, 0444);
MODULE_PARM_DESC(share, "once every regulated CPU is throttled: 0/off, 1/grant (spare grant), spare (release all until the period ends) or proportional (start a new period)");

static unsigned int lms_taps = 4;
module_param(lms_taps, uint, 0444);
MODULE_PARM_DESC(lms_taps, "NLMS taps (1..16)");

static unsigned int lms_mu = MEMREG_ONE / 2;
module_param(lms_mu, uint, 0444);
MODULE_PARM_DESC(lms_mu, "NLMS step size, Q16 (1..131071, below 2.0; 65536 = 1.0)");

static unsigned int lms_headroom = MEMREG_ONE / 10;
module_param(lms_headroom, uint, 0444);
MODULE_PARM_DESC(lms_headroom, "budget = prediction * (1 + headroom), Q16 (0..262144)");

static unsigned long long lms_cold_read;
module_param(lms_cold_read, ullong, 0444);
MODULE_PARM_DESC(lms_cold_read, "cold-start read demand per period (0: the CPU's guarantee)");

static unsigned long long lms_cold_write;
module_param(lms_cold_write, ullong, 0444);
MODULE_PARM_DESC(lms_cold_write, "cold-start write demand per period (0: the guarantee)");

static unsigned int reclaim_quantum;
module_param(reclaim_quantum, uint, 0444);
MODULE_PARM_DESC(reclaim_quantum, "events taken from the pool per overflow (0: 1/8 of the smallest guarantee)");

static unsigned int slack_div = MEMREG_SLACK_DIV_DEFAULT;
module_param(slack_div, uint, 0444);
MODULE_PARM_DESC(slack_div, "counter overflows every guarantee/slack_div events (1..1024)");

static unsigned int throttle_prio = MRK_THROTTLE_PRIO;
module_param(throttle_prio, uint, 0444);
MODULE_PARM_DESC(throttle_prio, "SCHED_FIFO priority of the throttle threads (1..98; default 50)");

static unsigned int rt_prio_param;	/* rt_prio() is a kernel helper */
module_param_named(rt_prio, rt_prio_param, uint, 0444);
MODULE_PARM_DESC(rt_prio, "0 (off) or 2..99: a SCHED_FIFO/RR task of this priority or above is never held off a throttled CPU");

static char *rt_exempt = "";
module_param(rt_exempt, charp, 0444);
MODULE_PARM_DESC(rt_exempt, "CPUs monitored but never throttled, as a cpulist (default none)");

/*
 * The real-time options of the boot configuration: throttle priority,
 * rt_prio and the rt_exempt cpulist into @cfg (ranges are checked by
 * mrk_cfg_check()).  Refuses an rt_exempt list that does not parse or
 * names a CPU beyond the slots, with a message in @err.
 */
static int mrk_params_rt(struct mrk_cfg *cfg, char *err, size_t len)
{
	cpumask_var_t mask;
	unsigned int cpu;
	int ret = 0;

	cfg->throttle_prio = throttle_prio;
	cfg->rt_prio = rt_prio_param;
	if (!rt_exempt[0])
		return 0;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(rt_exempt, mask);
	if (ret) {
		scnprintf(err, len, "rt_exempt '%s' is not a cpulist of existing CPUs",
			  rt_exempt);
		goto out;
	}
	for_each_cpu(cpu, mask) {
		if (cpu >= cfg->core.nr_cpus) {
			scnprintf(err, len, "cpu %u in rt_exempt=%s does not exist",
				  cpu, rt_exempt);
			ret = -ENODEV;
			goto out;
		}
		cfg->core.cpu[cpu].exempt = 1;
	}
out:
	free_cpumask_var(mask);
	return ret;
}

/*
 * Fill one per-CPU, per-class u64 field from a module_param_array: none
 * given keeps @dflt, one value applies to every CPU, otherwise value i is
 * CPU i's.
 */
static void mrk_fill_array(struct mrk_cfg *cfg, size_t off, unsigned int cls,
			   const unsigned long long *v, int n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < cfg->core.nr_cpus && n > 0; cpu++) {
		u64 *f = (u64 *)((char *)&cfg->core.cpu[cpu] + off) + cls;

		*f = n == 1 ? v[0] : (cpu < n ? v[cpu] : *f);
	}
}

/*
 * Set sharing in @core from the share parameter @s: what the sysfs file
 * takes, and y/n as when the parameter was a bool.
 */
static int mrk_share_param(const char *s, struct memreg_cfg *core,
			   char *err, size_t len)
{
	u32 on = 0, mode = MEMREG_SHARE_GRANT;
	bool b;

	if (memreg_share_parse(s, &on, &mode)) {
		if (kstrtobool(s, &b)) {
			scnprintf(err, len, "share must be 0, 1, off, grant, spare "
				  "or proportional");
			return -EINVAL;
		}
		on = b;
	}
	if (on)
		core->flags |= MEMREG_F_SHARE;
	core->share_mode = mode;
	return 0;
}

/*
 * Build the boot configuration from the module parameters into @cfg.
 * Range checks are left to mrk_cfg_check(); only what cannot be
 * represented is refused here, with a message in @err.
 */
static int mrk_params_to_cfg(struct mrk_cfg *cfg, char *err, size_t len)
{
	static cpumask_var_t mask;	/* init only */
	unsigned int cpu, cls, nreg = 0;
	u64 minb = U64_MAX;
	int ret = 0;

	memreg_cfg_defaults(&cfg->core, mrk_nr_cpus);
	cfg->core.period_ns = (u64)period_us * NSEC_PER_USEC;
	cfg->core.master_cpu = master_cpu;
	cfg->core.platform_ceiling[MEMREG_READ] = platform_read;
	cfg->core.platform_ceiling[MEMREG_WRITE] = platform_write;
	cfg->core.flags = (monitor ? MEMREG_F_MONITOR : 0) |
		(lms ? MEMREG_F_LMS : 0) | (reclaim ? MEMREG_F_RECLAIM : 0);
	ret = mrk_share_param(share, &cfg->core, err, len);
	if (ret)
		return ret;
	cfg->core.lms.taps = lms_taps;
	cfg->core.lms.mu = lms_mu;
	cfg->core.lms.headroom = lms_headroom;
	cfg->slack_div = slack_div;
	if (strscpy(cfg->event[MEMREG_READ], read_event, MRK_EVENT_LEN) < 0 ||
	    strscpy(cfg->event[MEMREG_WRITE], write_event, MRK_EVENT_LEN) < 0) {
		scnprintf(err, len, "event spec longer than %d characters",
			  MRK_EVENT_LEN - 1);
		return -EINVAL;
	}
	ret = mrk_parse_event_cpus(cfg, MEMREG_READ, "read_event_cpus",
				   read_event_cpus, err, len);
	if (!ret)
		ret = mrk_parse_event_cpus(cfg, MEMREG_WRITE, "write_event_cpus",
					   write_event_cpus, err, len);
	if (ret)
		return ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	if (strcmp(cpus, "all")) {
		ret = cpulist_parse(cpus, mask);
		if (ret) {
			scnprintf(err, len, ret == -ERANGE ?
				  "cpus '%s' names a CPU that does not exist" :
				  "cpus '%s' is not a cpulist", cpus);
			goto out;
		}
	} else if (nr_cpu_ids > MEMREG_MAX_CPUS) {
		scnprintf(err, len, "cpus=all: this machine has %u possible CPUs, "
			  "memreg regulates CPUs 0-%d only: name them with cpus=",
			  nr_cpu_ids, MEMREG_MAX_CPUS - 1);
		ret = -ERANGE;
		goto out;
	} else {
		cpumask_copy(mask, cpu_possible_mask);
	}
	for_each_cpu(cpu, mask) {
		if (cpu >= mrk_nr_cpus) {
			scnprintf(err, len, "cpu %u in cpus=%s does not exist "
				  "(or is beyond %d)", cpu, cpus, MEMREG_MAX_CPUS);
			ret = -ENODEV;
			goto out;
		}
	}
	for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++) {
		cfg->core.cpu[cpu].active = cpumask_test_cpu(cpu, mask);
		nreg += cfg->core.cpu[cpu].active;
	}
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++)
		for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++) {
			struct memreg_cpu_cfg *cc = &cfg->core.cpu[cpu];

			cc->guaranteed[cls] = nreg ?
				cfg->core.platform_ceiling[cls] / nreg : 1;
			cc->ceiling[cls] = cfg->core.platform_ceiling[cls];
		}
	mrk_fill_array(cfg, offsetof(struct memreg_cpu_cfg, guaranteed),
		       MEMREG_READ, read_budget, n_read_budget);
	mrk_fill_array(cfg, offsetof(struct memreg_cpu_cfg, guaranteed),
		       MEMREG_WRITE, write_budget, n_write_budget);
	mrk_fill_array(cfg, offsetof(struct memreg_cpu_cfg, ceiling),
		       MEMREG_READ, read_max, n_read_max);
	mrk_fill_array(cfg, offsetof(struct memreg_cpu_cfg, ceiling),
		       MEMREG_WRITE, write_max, n_write_max);
	for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++)
		if (cfg->core.cpu[cpu].active)
			minb = min(minb, cfg->core.cpu[cpu].guaranteed[MEMREG_READ]);
	cfg->core.lms.cold_start[MEMREG_READ] = lms_cold_read ?:
		(minb == U64_MAX ? 1 : minb);
	cfg->core.lms.cold_start[MEMREG_WRITE] = lms_cold_write ?:
		cfg->core.lms.cold_start[MEMREG_READ];
	cfg->core.reclaim_quantum = reclaim_quantum ?:
		(u32)clamp_t(u64, minb / 8, 1, MEMREG_EVENTS_MAX);
out:
	free_cpumask_var(mask);
	return ret;
}

/* Module init: boot configuration, core, per-CPU state, hotplug, sysfs. */
static int __init mrk_init(void)
{
	char err[MRK_ERR_LEN];
	const char *why = "";
	unsigned int cpu;
	int ret;

	mrk_nr_cpus = min_t(unsigned int, nr_cpu_ids, MEMREG_MAX_CPUS);
	mrk_core = vzalloc(sizeof(*mrk_core));
	if (!mrk_core)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);

		c->cpu = cpu;
		mrk_timer_init(c);
	}
	mrk_master_init();

	ret = mrk_params_to_cfg(&mrk_staged, err, sizeof(err));
	if (!ret)
		ret = mrk_params_rt(&mrk_staged, err, sizeof(err));
	if (!ret)
		ret = mrk_cfg_check(&mrk_staged, err, sizeof(err));
	if (!ret) {
		ret = memreg_init(mrk_core, &mrk_staged.core, &why);
		if (ret)
			scnprintf(err, sizeof(err), "%s", why);
	}
	mrk_active = mrk_staged;
	if (ret) {
		pr_err("refusing to load: %s\n", err);
		goto err_free;
	}

	ret = mrk_throttle_init();
	if (ret) {
		pr_err("cannot create the throttle threads (%d)\n", ret);
		goto err_free;
	}
	ret = mrk_hotplug_init();
	if (ret) {
		pr_err("cannot register the hotplug state (%d)\n", ret);
		goto err_threads;
	}
	ret = mrk_sysfs_init();
	if (ret) {
		pr_err("cannot create /sys/kernel/memreg (%d)\n", ret);
		goto err_hotplug;
	}
	pr_info("regulating, period %u us, master cpu %u, events %s/%s%s%s\n",
		period_us, master_cpu, mrk_active.event[0], mrk_active.event[1],
		read_event_cpus[0] || write_event_cpus[0] ? " (some CPUs their own)" : "",
		monitor ? ", monitor only" : "");
	return 0;

err_hotplug:
	mrk_hotplug_exit();
err_threads:
	mrk_master_exit();
	mrk_throttle_exit();
err_free:
	vfree(mrk_core);
	return ret;
}

/* Module exit: the reverse of mrk_init(), waiting for everything. */
static void __exit mrk_exit(void)
{
	mrk_sysfs_exit();
	mrk_hotplug_exit();
	mrk_master_exit();
	mrk_throttle_exit();
	vfree(mrk_core);
	pr_info("unloaded\n");
}

module_init(mrk_init);
module_exit(mrk_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("memreg: MemGuard-style per-core memory-bandwidth regulator");
MODULE_VERSION(MEMREG_VERSION);
