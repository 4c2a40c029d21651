// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - counter event specs, whole-configuration checks, the atomic
 * staged -> active commit, and the last-error string.
 *
 * Locking: mrk_mutex (see mrk.h) protects mrk_staged and mrk_active;
 * mrk_commit() holds mrk_cfg_mutex throughout and mrk_mutex only while it
 * copies the staged configuration.  mrk_error has its own spinlock so that
 * it can be set from any context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tick.h>

#include "mrk.h"

struct mrk_cfg mrk_active;
struct mrk_cfg mrk_staged;
DEFINE_MUTEX(mrk_mutex);

static DEFINE_SPINLOCK(mrk_error_lock);
static char mrk_error[MRK_ERR_LEN] = "none";

/* Record @fmt as the last error (also logged) ; any context but NMI. */
void mrk_set_error(const char *fmt, ...)
{
	unsigned long flags;
	va_list ap;

	spin_lock_irqsave(&mrk_error_lock, flags);
	va_start(ap, fmt);
	vscnprintf(mrk_error, sizeof(mrk_error), fmt, ap);
	va_end(ap);
	spin_unlock_irqrestore(&mrk_error_lock, flags);
	pr_warn_ratelimited("%s\n", mrk_error);
}

/* Forget the last error (after a successful commit). */
void mrk_clear_error(void)
{
	unsigned long flags;

	spin_lock_irqsave(&mrk_error_lock, flags);
	strscpy(mrk_error, "none", sizeof(mrk_error));
	spin_unlock_irqrestore(&mrk_error_lock, flags);
}

/* Copy the last error into @buf (NUL-terminated). */
void mrk_get_error(char *buf, size_t len)
{
	unsigned long flags;

	spin_lock_irqsave(&mrk_error_lock, flags);
	strscpy(buf, mrk_error, len);
	spin_unlock_irqrestore(&mrk_error_lock, flags);
}

/*
 * Parse an event spec (regulator/core/event.c: "none", "page-faults",
 * "cpu-clock", "raw:CODE", "TYPE:CONFIG", "PMU_NAME:CONFIG") into a
 * counting perf_event_attr (no sample period).  A spec that names its PMU
 * gets type MEMREG_EV_TYPE_NAMED and the name in @pmu (when not NULL,
 * MRK_EVENT_LEN bytes; "" otherwise): the type is resolved where a counter
 * is created (mrk_counter_create()), since PMU drivers register and go
 * between commits.  Returns 0, -ENOENT for "none" (class not counted) or
 * -EINVAL with the reason in *@why when @why is not NULL.
 */
int mrk_parse_event(const char *spec, struct perf_event_attr *attr,
		    char *pmu, const char **why)
{
	struct memreg_event ev;

	BUILD_BUG_ON(MEMREG_EV_TYPE_SOFTWARE != PERF_TYPE_SOFTWARE ||
		     MEMREG_EV_TYPE_RAW != PERF_TYPE_RAW ||
		     MEMREG_EV_TYPE_TRACEPOINT != PERF_TYPE_TRACEPOINT ||
		     MEMREG_EV_TYPE_BREAKPOINT != PERF_TYPE_BREAKPOINT ||
		     MEMREG_EV_SW_PAGE_FAULTS != PERF_COUNT_SW_PAGE_FAULTS ||
		     MEMREG_EV_SW_CPU_CLOCK != PERF_COUNT_SW_CPU_CLOCK);
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->pinned = 1;
	if (pmu)
		pmu[0] = '\0';
	if (memreg_event_parse(spec, strnlen(spec, MRK_EVENT_LEN), &ev, why))
		return -EINVAL;
	if (!ev.counted)
		return -ENOENT;
	attr->type = ev.type;
	attr->config = ev.config;
	if (pmu && ev.pmu)
		scnprintf(pmu, MRK_EVENT_LEN, "%.*s", (int)ev.pmu_len, ev.pmu);
	return 0;
}

/**
 * mrk_event_rearms() - is a counter of @attr re-armed each period?
 * @attr: a parsed event spec
 *
 * Hardware and raw PMU events (a PMU named in the spec is never the
 * software one: "software:N" parses to its fixed type) and cpu-clock take
 * a new period through
 * pmu->stop(PERF_EF_UPDATE) / pmu->start(PERF_EF_RELOAD) with the period
 * left set (counter.c).  The other software events (page-faults, ...)
 * cannot: their start() ignores PERF_EF_RELOAD and keeps the period they
 * were created with, so they overflow every slack granule instead.
 */
bool mrk_event_rearms(const struct perf_event_attr *attr)
{
	return attr->type != PERF_TYPE_SOFTWARE ||
	       attr->config == PERF_COUNT_SW_CPU_CLOCK;
}

/*
 * kernel.perf_event_max_sample_rate, read from procfs: the variable behind
 * it is not exported to modules.  Process context.  Returns the rate, or a
 * negative errno when it cannot be read (no procfs mounted).
 */
static int mrk_max_sample_rate(void)
{
	char buf[24];
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int rate;

	f = filp_open("/proc/sys/kernel/perf_event_max_sample_rate", O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		return n ? (int)n : -EIO;
	buf[n] = '\0';
	if (kstrtoint(strim(buf), 10, &rate))
		return -EINVAL;
	return rate;
}

/*
 * The overflow interrupts one counter of class @cls of @cpu takes in a
 * period of @cfg when the CPU uses its budget.  Re-armed: one at the
 * budget, one more after a spare grant and, with reclaim, one for a
 * donor's own donation plus one per reclaim take (each takes at least the
 * quantum; the pool holds at most the other CPUs' budgets: their
 * guarantees, or with LMS their ceilings, and never more than the
 * platform ceiling).  Slack scheme: one per granule up to the guarantee,
 * i.e. about slack_div (a budget that LMS, reclaim or sharing raises
 * above the guarantee adds overflows at the same granule; perf throttling
 * them is reported at run time).
 */
static u64 mrk_overflows_per_period(const struct mrk_cfg *cfg, unsigned int cpu,
				    unsigned int cls, bool rearm)
{
	const struct memreg_cpu_cfg *cc = &cfg->core.cpu[cpu];
	u64 sample, pool = 0, q = max_t(u64, 1, cfg->core.reclaim_quantum);
	u32 f = cfg->core.flags;
	unsigned int j;

	if (!rearm) {
		sample = max_t(u64, 1, cc->guaranteed[cls] / cfg->slack_div);
		return div64_u64(cc->guaranteed[cls] + sample - 1, sample);
	}
	if (!(f & MEMREG_F_RECLAIM))
		return 1 + !!(f & MEMREG_F_SHARE);
	for (j = 0; j < cfg->core.nr_cpus; j++)
		if (j != cpu && cfg->core.cpu[j].active)
			pool += (f & MEMREG_F_LMS) ? cfg->core.cpu[j].ceiling[cls] :
						     cfg->core.cpu[j].guaranteed[cls];
	pool = min(pool, cfg->core.platform_ceiling[cls]);
	return 2 + !!(f & MEMREG_F_SHARE) + div64_u64(pool + q - 1, q);
}

/*
 * Refuse what would make perf throttle a counter or storm the CPU with
 * interrupts: a slack-scheme guarantee below slack_div (a granule of less
 * than one event: an overflow per event), and an overflow rate above
 * kernel.perf_event_max_sample_rate per second or at perf's per-tick
 * limit.  perf (__perf_event_account_interrupt()) counts a counter's
 * overflow interrupts per scheduler tick, starting at 1 with the first
 * one after a tick, and throttles the one that brings the count to
 * max_samples_per_tick = DIV_ROUND_UP(rate, HZ): k interrupts between two
 * ticks are safe only when k == 1 or k < that limit.  Between two ticks
 * fall the interrupts of one period (period >= tick) or of the periods
 * one tick spans.  A nohz_full CPU may stop its tick for as long as one
 * task runs there (perf_event_task_tick() is what advances the count, the
 * housekeeping CPU's remote tick does not), so every interrupt of a
 * re-armed counter that overflows each period piles up into one tick:
 * refused there, monitor-only is fine.  (Page faults and the other
 * software events of the slack scheme overflow one event at a time, which
 * perf never throttles.)  Monitor-only takes no overflow.  Writes
 * the reason to @err; returns 0 or -ERANGE.
 */
static int mrk_check_overflows(const struct mrk_cfg *cfg, char *err, size_t len)
{
	const u64 tick_ns = NSEC_PER_SEC / HZ;
	struct perf_event_attr attr;
	unsigned int cpu, cls;
	int rate = -1;

	if (cfg->core.flags & MEMREG_F_MONITOR)
		return 0;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++) {
			const struct memreg_cpu_cfg *cc = &cfg->core.cpu[cpu];
			u64 n, k, per_s, per_tick;
			bool rearm;

			if (!cc->active ||
			    mrk_parse_event(mrk_cpu_event(cfg, cpu, cls), &attr, NULL,
					    NULL))
				continue;	/* "none" (specs were checked) */
			rearm = mrk_event_rearms(&attr);
			if (!rearm && cc->guaranteed[cls] < cfg->slack_div) {
				scnprintf(err, len, "cpu %u: %s guarantee %llu is below "
					  "slack_div %u: event '%s' would overflow at every "
					  "event; raise the guarantee or lower slack_div",
					  cpu, cls ? "write" : "read", cc->guaranteed[cls],
					  cfg->slack_div, mrk_cpu_event(cfg, cpu, cls));
				return -ERANGE;
			}
			if (rearm && cpu < nr_cpu_ids && tick_nohz_full_cpu(cpu)) {
				scnprintf(err, len, "cpu %u is nohz_full: perf counts overflow "
					  "interrupts per scheduler tick, which a tick-less CPU "
					  "may not take for seconds, and would throttle its %s "
					  "counter: regulate housekeeping CPUs only, or "
					  "monitor=1", cpu, cls ? "write" : "read");
				return -ERANGE;
			}
			if (rate < 0)
				rate = mrk_max_sample_rate();
			if (rate < 0) {
				pr_warn_once("cannot read kernel.perf_event_max_sample_rate (%d): "
					     "overflow rate not checked\n", rate);
				return 0;
			}
			n = mrk_overflows_per_period(cfg, cpu, cls, rearm);
			per_s = div64_u64(n * NSEC_PER_SEC + cfg->core.period_ns - 1,
					  cfg->core.period_ns);
			k = n * div64_u64(tick_ns + cfg->core.period_ns - 1,
					  cfg->core.period_ns);
			per_tick = DIV_ROUND_UP((u64)rate, HZ);
			if (per_s > (u64)rate || (k > 1 && k >= per_tick)) {
				scnprintf(err, len, "cpu %u: the %s counter may take %llu "
					  "overflow interrupts per %llu us period (%llu/s, %llu "
					  "per tick), at or above kernel.perf_event_max_sample_rate "
					  "%d (perf throttles at %llu per tick): raise it, lengthen "
					  "period_us, lower slack_div or raise reclaim_quantum",
					  cpu, cls ? "write" : "read", n,
					  div64_u64(cfg->core.period_ns, NSEC_PER_USEC),
					  per_s, k, rate, per_tick);
				return -ERANGE;
			}
		}
	}
	return 0;
}

/*
 * Parse every event spec of @cfg, the global ones and each CPU's own:
 * the per-CPU ones are staged as written and first parsed here.  Writes
 * "cpu N: read_event 'SPEC': reason" to @err; returns 0 or -EINVAL.
 */
static int mrk_check_events(const struct mrk_cfg *cfg, char *err, size_t len)
{
	static const char *const name[MEMREG_NR_CLASSES] = {
		"read_event", "write_event",
	};
	struct perf_event_attr attr;
	unsigned int cpu, cls;
	const char *why;

	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (mrk_parse_event(cfg->event[cls], &attr, NULL, &why) == -EINVAL) {
			scnprintf(err, len, "%s '%s': %s", name[cls],
				  cfg->event[cls], why);
			return -EINVAL;
		}
		for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++) {
			const char *spec = cfg->cpu_event[cpu][cls];

			if (spec[0] &&
			    mrk_parse_event(spec, &attr, NULL, &why) == -EINVAL) {
				scnprintf(err, len, "cpu %u: %s '%s': %s", cpu,
					  name[cls], spec, why);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/*
 * Give class @cls of the CPUs that @list (the module parameter @name,
 * "CPUS:SPEC,CPUS:SPEC") names their own event spec in @cfg.  Writes
 * "NAME: 'ENTRY': reason" to @err; returns 0 or -EINVAL.
 */
int mrk_parse_event_cpus(struct mrk_cfg *cfg, unsigned int cls,
			 const char *name, const char *list, char *err,
			 size_t len)
{
	struct memreg_event_entry e;
	struct memreg_event_iter it;
	const char *why = "";
	unsigned int cpu;
	int ret;

	memreg_event_list_begin(&it, list, cfg->core.nr_cpus);
	while ((ret = memreg_event_list_next(&it, &e, &why)) == 1)
		for (cpu = e.first; cpu <= e.last; cpu++)
			/* spec_len < MRK_EVENT_LEN: the parser checked it */
			scnprintf(cfg->cpu_event[cpu][cls], MRK_EVENT_LEN, "%.*s",
				  (int)e.spec_len, e.spec);
	if (ret) {
		scnprintf(err, len, "%s: '%.*s': %s", name, (int)e.tok_len,
			  e.tok, why);
		return -EINVAL;
	}
	return 0;
}

/*
 * Check @cfg as a whole: the core's rules (ranges, guarantees vs ceilings,
 * their sum vs the platform ceiling), plus what only the kernel knows: the
 * regulated CPUs and the master CPU exist and are online, the events can
 * be counted, perf will deliver every overflow.  Writes a one-line reason
 * to @err.  Process context,
 * holding neither the CPU hotplug lock nor mrk_mutex (probing creates perf
 * counters); the online checks are advisory, a switch copes with a CPU
 * that goes away.  Returns 0 or a negative errno.
 */
int mrk_cfg_check(const struct mrk_cfg *cfg, char *err, size_t len)
{
	const char *why = "";
	unsigned int cpu, cls, n = 0;
	int ret;

	ret = memreg_cfg_validate(&cfg->core, &why);
	if (ret) {
		scnprintf(err, len, "%s", why);
		return ret;
	}
	if (cfg->slack_div < 1 || cfg->slack_div > MRK_SLACK_MAX) {
		scnprintf(err, len, "slack_div %u out of range 1..%u",
			  cfg->slack_div, MRK_SLACK_MAX);
		return -EINVAL;
	}
	ret = mrk_check_events(cfg, err, len);
	if (!ret)
		ret = mrk_throttle_check(cfg, err, len);
	if (!ret)
		ret = mrk_check_overflows(cfg, err, len);
	if (ret)
		return ret;
	if (cfg->core.master_cpu >= nr_cpu_ids ||
	    !cpu_online(cfg->core.master_cpu)) {
		scnprintf(err, len, "master cpu %u is not online",
			  cfg->core.master_cpu);
		return -ENODEV;
	}
	for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++) {
		if (!cfg->core.cpu[cpu].active)
			continue;
		if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
			scnprintf(err, len, "cpu %u does not exist", cpu);
			return -ENODEV;
		}
		n++;
	}
	if (!n) {
		scnprintf(err, len, "no CPU is regulated");
		return -EINVAL;
	}
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		ret = mrk_counter_probe(cfg->event[cls], cfg->core.master_cpu,
					err, len);
		if (ret)
			return ret;
		/*
		 * Each CPU's own spec on that CPU (another CPU type may lack
		 * the event); one that is offline is checked by its hotplug
		 * work when it returns, which reports a failure in error.
		 */
		for (cpu = 0; cpu < cfg->core.nr_cpus; cpu++) {
			if (!cfg->core.cpu[cpu].active || !cfg->cpu_event[cpu][cls][0] ||
			    !cpu_online(cpu))
				continue;
			ret = mrk_counter_probe(cfg->cpu_event[cpu][cls], cpu, err, len);
			if (ret == -ENODEV && !cpu_online(cpu))
				ret = 0;
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * The sysfs "commit": check a snapshot of the staged configuration and
 * switch to it (mrk_apply()).  On failure the active configuration is
 * unchanged, the staged one is kept for correction and the reason is the
 * last error.  Takes mrk_cfg_mutex, and mrk_mutex only to take the
 * snapshot: checking probes perf counters, which must not be created under
 * the CPU hotplug lock or mrk_mutex (switch.c says why).
 */
int mrk_commit(void)
{
	static struct mrk_cfg snap;	/* mrk_cfg_mutex */
	char err[MRK_ERR_LEN];
	int ret;

	mutex_lock(&mrk_cfg_mutex);
	mutex_lock(&mrk_mutex);
	snap = mrk_staged;
	mutex_unlock(&mrk_mutex);
	ret = mrk_cfg_check(&snap, err, sizeof(err));
	if (ret)
		mrk_set_error("commit refused: %s", err);
	else
		ret = mrk_apply(&snap);
	if (!ret)
		mrk_clear_error();
	mutex_unlock(&mrk_cfg_mutex);
	return ret;
}
