// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - /sys/kernel/memreg/: global attributes and one directory per
 * CPU (cpuN/), one value per file.  The ABI is documented in README.md.
 *
 * Control files (0644, writable by root only) read and write the *staged*
 * configuration; nothing changes in the running regulator until "1" is
 * written to commit (0200), which checks the staged configuration as a
 * whole and applies it atomically ("0" discards the staged changes).  A
 * refused write or commit returns an error and leaves the reason in
 * "error".  Statistics are 0444.
 *
 * Every write is parsed NUL-safely: only printable non-space bytes up to
 * @count (one trailing newline is accepted), numbers go through
 * kstrto*() and are range-checked, strings are length- and
 * character-checked.
 *
 * Attributes are table-driven: struct mrk_attr describes a field of
 * struct mrk_cfg (global) or of struct memreg_cpu_cfg (per CPU) by kind,
 * offset and range, or a statistic by id.
 *
 * Locking: show/store of control files take mrk_mutex; statistics are read
 * racily with READ_ONCE (64-bit words written by their owning CPU).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "mrk.h"

/**
 * enum mrk_kind - how an attribute maps to its field
 * @MRK_U32:    u32 field, decimal, range [@lo, @hi]
 * @MRK_U64:    u64 field, decimal, range [@lo, @hi]
 * @MRK_PERIOD: core.period_ns shown and written in microseconds
 * @MRK_FLAG:   one bit of core.flags, 0 or 1
 * @MRK_EVENT:  event spec string
 * @MRK_CPU_EVENT: a CPU's own event spec for class @off, staged as written
 *              (parsed at commit); "default" clears it, reads show the
 *              spec the CPU will count (its own, else the global one)
 * @MRK_STAT:   read-only statistic @id
 */
enum mrk_kind {
	MRK_U32, MRK_U64, MRK_PERIOD, MRK_FLAG, MRK_EVENT, MRK_CPU_EVENT, MRK_STAT
};

/**
 * struct mrk_attr - one sysfs file
 * @ka:   the kobject attribute (name, mode, show, store)
 * @kind: enum mrk_kind
 * @off:  byte offset of the field in struct mrk_cfg or memreg_cpu_cfg
 * @lo:   smallest accepted value
 * @hi:   largest accepted value
 * @id:   statistic id or flag bit
 */
struct mrk_attr {
	struct kobj_attribute	ka;
	enum mrk_kind		kind;
	size_t			off;
	u64			lo;
	u64			hi;
	unsigned int		id;
};

#define to_mrk_attr(a) container_of(a, struct mrk_attr, ka)

static struct kobject *mrk_kobj;
static struct kobject *mrk_cpu_kobj[MEMREG_MAX_CPUS];

/*
 * Copy a user write into @out (NUL-terminated, one trailing newline
 * removed).  Refuses empty input, anything longer than @len - 1 and any
 * byte that is not a printable non-space character (embedded NULs, further
 * newlines, spaces, control bytes).
 */
static int mrk_take_input(const char *buf, size_t count, char *out, size_t len)
{
	size_t i;

	if (count && buf[count - 1] == '\n')
		count--;
	if (!count || count >= len)
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (!isgraph((unsigned char)buf[i]))
			return -EINVAL;
	memcpy(out, buf, count);
	out[count] = '\0';
	return 0;
}

/*
 * Parse a decimal u64 in [@lo, @hi] from a write; sets the error.  Decimal
 * only, as the ABI says: base 0 would read "010" as 8.
 */
static int mrk_parse_u64(const char *name, const char *buf, size_t count,
			 u64 lo, u64 hi, u64 *val)
{
	char tmp[24];
	int ret;

	ret = mrk_take_input(buf, count, tmp, sizeof(tmp));
	if (!ret)
		ret = kstrtou64(tmp, 10, val);
	if (ret) {
		mrk_set_error("%s: not an unsigned decimal number", name);
		return -EINVAL;
	}
	if (*val < lo || *val > hi) {
		mrk_set_error("%s: %llu out of range %llu..%llu", name, *val,
			      lo, hi);
		return -ERANGE;
	}
	return 0;
}

/* Pointer to the staged field of @a for @cpu (-1: global). */
static void *mrk_field(const struct mrk_attr *a, int cpu)
{
	if (cpu < 0)
		return (char *)&mrk_staged + a->off;
	return (char *)&mrk_staged.core.cpu[cpu] + a->off;
}

/* CPU number of a per-CPU directory kobject, -1 for the top directory. */
static int mrk_kobj_cpu(struct kobject *kobj)
{
	unsigned int cpu;

	if (kobj == mrk_kobj || kstrtouint(kobject_name(kobj) + 3, 10, &cpu))
		return -1;
	return cpu;
}

/* Statistic id >> 1 of cpuN/{read,write}_pmu_type, shown signed. */
#define MRK_STAT_PMU_TYPE	26

/* Read one statistic of @cpu (see the table below for the ids). */
static u64 mrk_stat(unsigned int id, unsigned int cpu)
{
	const struct memreg_cpu *rc = &mrk_core->cpu[cpu];
	const struct memreg_stats *s = &rc->stats;
	const struct mrk_cpu *c = per_cpu_ptr(&mrk_cpus, cpu);
	unsigned int cls = id & 1;
	u64 n;

	switch (id >> 1) {
	case 0: return READ_ONCE(s->periods);
	case 1: return READ_ONCE(s->throttles);
	case 2: return READ_ONCE(s->throttled_ns);
	case 3: return READ_ONCE(s->overruns);
	case 4: return READ_ONCE(s->stale_budgets);
	case 5: return READ_ONCE(s->consumed[cls]);
	case 6: return READ_ONCE(s->overuse[cls]);
	case 7: return READ_ONCE(s->donated[cls]);
	case 8: return READ_ONCE(s->reclaimed[cls]);
	case 9: return READ_ONCE(s->shared[cls]);
	case 10: return READ_ONCE(rc->budget[cls]);
	case 11: return READ_ONCE(rc->lms[cls].last_pred);
	case 12:
		n = READ_ONCE(rc->lms[cls].updates);
		return n ? div64_u64(READ_ONCE(rc->lms[cls].abs_err_sum), n) : 0;
	case 13: return READ_ONCE(c->running);
	case 14: return READ_ONCE(c->errors);
	case 15: return READ_ONCE(c->throttled);
	case 16: return atomic64_read(&c->perf_throttled);
	case 17: return atomic64_read(&c->overflows);
	case 18: return READ_ONCE(c->core_nested);
	case 19: return READ_ONCE(c->core_outside_irq);
	case 20: return READ_ONCE(s->restored[cls]);
	case 21: return READ_ONCE(s->exempt_overruns);
	case 22: return READ_ONCE(c->failed);
	case 23: return READ_ONCE(c->lost);
	case 24: return READ_ONCE(s->released);
	case 25: return READ_ONCE(s->restarts);
	}
	return 0;
}

/* show() of every table-driven attribute. */
static ssize_t mrk_show(struct kobject *kobj, struct kobj_attribute *ka,
			char *buf)
{
	const struct mrk_attr *a = to_mrk_attr(ka);
	int cpu = mrk_kobj_cpu(kobj);
	ssize_t n = 0;
	void *f;

	if (a->kind == MRK_STAT && a->id >> 1 == MRK_STAT_PMU_TYPE)
		/* -1: no counter; a PMU's type otherwise (names resolved) */
		return sysfs_emit(buf, "%lld\n", cpu < 0 ? -1LL :
				  (long long)READ_ONCE(per_cpu_ptr(&mrk_cpus, cpu)->
						       pmu_type[a->id & 1]) - 1);
	if (a->kind == MRK_STAT)
		return sysfs_emit(buf, "%llu\n", cpu < 0 ? 0 : mrk_stat(a->id, cpu));
	mutex_lock(&mrk_mutex);
	f = mrk_field(a, cpu);
	switch (a->kind) {
	case MRK_U32:
		n = sysfs_emit(buf, "%u\n", *(u32 *)f);
		break;
	case MRK_U64:
		n = sysfs_emit(buf, "%llu\n", *(u64 *)f);
		break;
	case MRK_PERIOD:
		n = sysfs_emit(buf, "%llu\n",
			       div64_u64(mrk_staged.core.period_ns, NSEC_PER_USEC));
		break;
	case MRK_FLAG:
		n = sysfs_emit(buf, "%d\n", !!(mrk_staged.core.flags & a->id));
		break;
	case MRK_EVENT:
		n = sysfs_emit(buf, "%s\n", (char *)f);
		break;
	case MRK_CPU_EVENT:
		n = sysfs_emit(buf, "%s\n", mrk_cpu_event(&mrk_staged, cpu, a->off));
		break;
	case MRK_STAT:
		break;
	}
	mutex_unlock(&mrk_mutex);
	return n;
}

/* Check an event spec written to sysfs: printable, no spaces, parseable. */
static int mrk_check_event(const char *name, const char *spec)
{
	struct perf_event_attr attr;
	const char *why = "";
	const char *p;
	int ret;

	for (p = spec; *p; p++)
		if (!isgraph(*p))
			goto bad;
	ret = mrk_parse_event(spec, &attr, NULL, &why);
	if (ret == 0 || ret == -ENOENT)
		return 0;
	mrk_set_error("%s: '%s': %s", name, spec, why);
	return -EINVAL;
bad:
	mrk_set_error("%s: not an event spec (none, page-faults, cpu-clock, "
		      "raw:0xNN, TYPE:CONFIG, PMU_NAME:CONFIG)", name);
	return -EINVAL;
}

/* store() of every writable table-driven attribute: stage the value. */
static ssize_t mrk_store(struct kobject *kobj, struct kobj_attribute *ka,
			 const char *buf, size_t count)
{
	const struct mrk_attr *a = to_mrk_attr(ka);
	int cpu = mrk_kobj_cpu(kobj);
	const char *why = "";
	char str[MRK_EVENT_LEN];
	int ret = 0;
	u64 v = 0;

	if (a->kind == MRK_EVENT || a->kind == MRK_CPU_EVENT) {
		if (mrk_take_input(buf, count, str, sizeof(str))) {
			mrk_set_error("%s: empty, too long (max %d) or contains NUL",
				      ka->attr.name, MRK_EVENT_LEN - 1);
			return -EINVAL;
		}
		if (a->kind == MRK_EVENT)
			ret = mrk_check_event(ka->attr.name, str);
	} else {
		ret = mrk_parse_u64(ka->attr.name, buf, count, a->lo, a->hi, &v);
	}
	if (ret)
		return ret;
	if (a->kind == MRK_PERIOD &&
	    memreg_validate_period(v * NSEC_PER_USEC, &why)) {
		mrk_set_error("%s: %s", ka->attr.name, why);
		return -ERANGE;
	}
	mutex_lock(&mrk_mutex);
	switch (a->kind) {
	case MRK_U32:
		*(u32 *)mrk_field(a, cpu) = (u32)v;
		break;
	case MRK_U64:
		*(u64 *)mrk_field(a, cpu) = v;
		break;
	case MRK_PERIOD:
		mrk_staged.core.period_ns = v * NSEC_PER_USEC;
		break;
	case MRK_FLAG:
		if (v)
			mrk_staged.core.flags |= a->id;
		else
			mrk_staged.core.flags &= ~a->id;
		break;
	case MRK_EVENT:
		strscpy((char *)mrk_field(a, cpu), str, MRK_EVENT_LEN);
		break;
	case MRK_CPU_EVENT:
		/* padded: "pending" compares whole configurations */
		strscpy_pad(mrk_staged.cpu_event[cpu][a->off],
			    strcmp(str, "default") ? str : "", MRK_EVENT_LEN);
		break;
	case MRK_STAT:
		break;
	}
	mutex_unlock(&mrk_mutex);
	return count;
}

#define MRK_ATTR(_name, _mode, _kind, _off, _lo, _hi, _id)		\
	{ .ka = __ATTR(_name, _mode, mrk_show,				\
		       (_mode) & 0200 ? mrk_store : NULL),		\
	  .kind = _kind, .off = _off, .lo = _lo, .hi = _hi, .id = _id }
#define MRK_G(name, kind, field, lo, hi)				\
	MRK_ATTR(name, 0644, kind, offsetof(struct mrk_cfg, field), lo, hi, 0)
#define MRK_F(name, bit)	MRK_ATTR(name, 0644, MRK_FLAG, 0, 0, 1, bit)
#define MRK_C(name, kind, field, lo, hi)				\
	MRK_ATTR(name, 0644, kind, offsetof(struct memreg_cpu_cfg, field), \
		 lo, hi, 0)
#define MRK_S(name, id)		MRK_ATTR(name, 0444, MRK_STAT, 0, 0, 0, id)

#define E MEMREG_EVENTS_MAX
static struct mrk_attr mrk_global_attrs[] = {
	MRK_ATTR(period_us, 0644, MRK_PERIOD, 0, 1, 1000000, 0),
	MRK_G(master_cpu, MRK_U32, core.master_cpu, 0, MEMREG_MAX_CPUS - 1),
	MRK_G(read_event, MRK_EVENT, event[MEMREG_READ], 0, 0),
	MRK_G(write_event, MRK_EVENT, event[MEMREG_WRITE], 0, 0),
	MRK_G(platform_read, MRK_U64, core.platform_ceiling[MEMREG_READ], 1, E),
	MRK_G(platform_write, MRK_U64, core.platform_ceiling[MEMREG_WRITE], 1, E),
	MRK_F(monitor, MEMREG_F_MONITOR),
	MRK_F(lms, MEMREG_F_LMS),
	MRK_F(reclaim, MEMREG_F_RECLAIM),
	MRK_G(lms_taps, MRK_U32, core.lms.taps, MEMREG_MIN_TAPS, MEMREG_MAX_TAPS),
	MRK_G(lms_mu, MRK_U32, core.lms.mu, 1, MEMREG_MU_MAX),
	MRK_G(lms_headroom, MRK_U32, core.lms.headroom, 0, MEMREG_HEADROOM_MAX),
	MRK_G(lms_cold_read, MRK_U64, core.lms.cold_start[MEMREG_READ], 0, E),
	MRK_G(lms_cold_write, MRK_U64, core.lms.cold_start[MEMREG_WRITE], 0, E),
	MRK_G(reclaim_quantum, MRK_U32, core.reclaim_quantum, 0, E),
	MRK_G(slack_div, MRK_U32, slack_div, 1, MRK_SLACK_MAX),
	MRK_G(throttle_prio, MRK_U32, throttle_prio, 1, MRK_THROTTLE_PRIO_MAX),
	MRK_G(rt_prio, MRK_U32, rt_prio, 0, MRK_RT_PRIO_MAX),
};

static struct mrk_attr mrk_cpu_attrs[] = {
	MRK_C(regulated, MRK_U32, active, 0, 1),
	MRK_C(read_guaranteed, MRK_U64, guaranteed[MEMREG_READ], 1, E),
	MRK_C(write_guaranteed, MRK_U64, guaranteed[MEMREG_WRITE], 1, E),
	MRK_C(read_ceiling, MRK_U64, ceiling[MEMREG_READ], 1, E),
	MRK_C(write_ceiling, MRK_U64, ceiling[MEMREG_WRITE], 1, E),
	MRK_S(periods, 0), MRK_S(throttles, 2), MRK_S(throttled_ns, 4),
	MRK_S(overruns, 6), MRK_S(stale_budgets, 8),
	MRK_S(read_events, 10), MRK_S(write_events, 11),
	MRK_S(read_overuse, 12), MRK_S(write_overuse, 13),
	MRK_S(read_donated, 14), MRK_S(write_donated, 15),
	MRK_S(read_reclaimed, 16), MRK_S(write_reclaimed, 17),
	MRK_S(read_shared, 18), MRK_S(write_shared, 19),
	MRK_S(read_budget, 20), MRK_S(write_budget, 21),
	MRK_S(read_predicted, 22), MRK_S(write_predicted, 23),
	MRK_S(read_pred_error, 24), MRK_S(write_pred_error, 25),
	MRK_S(running, 26), MRK_S(errors, 28), MRK_S(throttled, 30),
	MRK_S(perf_throttled, 32), MRK_S(overflows, 34),
	MRK_S(core_nested, 36), MRK_S(core_outside_irq, 38),
	MRK_S(read_restored, 40), MRK_S(write_restored, 41),
	MRK_C(rt_exempt, MRK_U32, exempt, 0, 1),
	MRK_S(exempt_overruns, 42),
	MRK_S(counter_error, 44), MRK_S(counters_lost, 46),
	MRK_S(released, 48), MRK_S(restarts, 50),
	MRK_S(read_pmu_type, 52), MRK_S(write_pmu_type, 53),
	MRK_ATTR(read_event, 0644, MRK_CPU_EVENT, MEMREG_READ, 0, 0, 0),
	MRK_ATTR(write_event, 0644, MRK_CPU_EVENT, MEMREG_WRITE, 0, 0, 0),
};
#undef E

/* commit: "1" applies the staged configuration, "0" discards it. */
static ssize_t commit_store(struct kobject *kobj, struct kobj_attribute *ka,
			    const char *buf, size_t count)
{
	u64 v;
	int ret;

	ret = mrk_parse_u64("commit", buf, count, 0, 1, &v);
	if (ret)
		return ret;
	if (!v) {
		mutex_lock(&mrk_mutex);
		mrk_staged = mrk_active;
		mutex_unlock(&mrk_mutex);
		return count;
	}
	ret = mrk_commit();
	return ret ? ret : count;
}

/*
 * share: what happens once every regulated CPU is throttled (staged like
 * the other control files).  Takes 0 or off, 1 or grant, spare,
 * proportional; shows 0 and 1 for off and grant, as when it was a flag.
 */
static ssize_t share_show(struct kobject *kobj, struct kobj_attribute *ka,
			  char *buf)
{
	bool on;
	u32 mode;

	mutex_lock(&mrk_mutex);
	on = mrk_staged.core.flags & MEMREG_F_SHARE;
	mode = mrk_staged.core.share_mode;
	mutex_unlock(&mrk_mutex);
	if (!on || mode == MEMREG_SHARE_GRANT)
		return sysfs_emit(buf, "%d\n", on);
	return sysfs_emit(buf, "%s\n", memreg_share_name(mode));
}

static ssize_t share_store(struct kobject *kobj, struct kobj_attribute *ka,
			   const char *buf, size_t count)
{
	u32 on = 0, mode = MEMREG_SHARE_GRANT;
	char str[16];

	if (mrk_take_input(buf, count, str, sizeof(str)) ||
	    memreg_share_parse(str, &on, &mode)) {
		mrk_set_error("share: 0 (off), 1 (grant), off, grant, spare or "
			      "proportional");
		return -EINVAL;
	}
	mutex_lock(&mrk_mutex);
	if (on)
		mrk_staged.core.flags |= MEMREG_F_SHARE;
	else
		mrk_staged.core.flags &= ~MEMREG_F_SHARE;
	mrk_staged.core.share_mode = mode;
	mutex_unlock(&mrk_mutex);
	return count;
}

/* error: the last refused write, commit or runtime failure ("none"). */
static ssize_t error_show(struct kobject *kobj, struct kobj_attribute *ka,
			  char *buf)
{
	char err[MRK_ERR_LEN];

	mrk_get_error(err, sizeof(err));
	return sysfs_emit(buf, "%s\n", err);
}

/* pending: 1 if the staged configuration differs from the active one. */
static ssize_t pending_show(struct kobject *kobj, struct kobj_attribute *ka,
			    char *buf)
{
	int d;

	mutex_lock(&mrk_mutex);
	d = memcmp(&mrk_staged, &mrk_active, sizeof(mrk_active)) != 0;
	mutex_unlock(&mrk_mutex);
	return sysfs_emit(buf, "%d\n", d);
}

/* master_ticks: memreg_master_tick() calls since the last commit. */
static ssize_t master_ticks_show(struct kobject *kobj,
				 struct kobj_attribute *ka, char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(mrk_core->master_ticks));
}

/*
 * master_skipped: periods the master tick jumped over since the last
 * commit (late timer, master CPU offline).
 */
static ssize_t master_skipped_show(struct kobject *kobj,
				   struct kobj_attribute *ka, char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(mrk_core->master_skipped));
}

/* master_timer: 1 while a timer that ticks for the master is armed, else 0. */
static ssize_t master_timer_show(struct kobject *kobj,
				 struct kobj_attribute *ka, char *buf)
{
	return sysfs_emit(buf, "%d\n", mrk_master_armed());
}

/* version: the module's version string. */
static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *ka,
			    char *buf)
{
	return sysfs_emit(buf, "0.1.0\n");
}

static struct kobj_attribute mrk_commit_attr = __ATTR_WO(commit);
static struct kobj_attribute mrk_error_attr = __ATTR_RO(error);
static struct kobj_attribute mrk_pending_attr = __ATTR_RO(pending);
static struct kobj_attribute mrk_ticks_attr = __ATTR_RO(master_ticks);
static struct kobj_attribute mrk_skipped_attr = __ATTR_RO(master_skipped);
static struct kobj_attribute mrk_mtimer_attr = __ATTR_RO(master_timer);
static struct kobj_attribute mrk_version_attr = __ATTR_RO(version);
static struct kobj_attribute mrk_share_attr = __ATTR_RW(share);

static struct attribute *mrk_global_list[ARRAY_SIZE(mrk_global_attrs) + 9];
static struct attribute *mrk_cpu_list[ARRAY_SIZE(mrk_cpu_attrs) + 1];
static const struct attribute_group mrk_global_group = {
	.attrs = mrk_global_list,
};
static const struct attribute_group mrk_cpu_group = {
	.attrs = mrk_cpu_list,
};

/* Fill the attribute pointer lists from the tables. */
static void mrk_build_lists(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(mrk_global_attrs); i++)
		mrk_global_list[n++] = &mrk_global_attrs[i].ka.attr;
	mrk_global_list[n++] = &mrk_commit_attr.attr;
	mrk_global_list[n++] = &mrk_error_attr.attr;
	mrk_global_list[n++] = &mrk_pending_attr.attr;
	mrk_global_list[n++] = &mrk_ticks_attr.attr;
	mrk_global_list[n++] = &mrk_skipped_attr.attr;
	mrk_global_list[n++] = &mrk_mtimer_attr.attr;
	mrk_global_list[n++] = &mrk_version_attr.attr;
	mrk_global_list[n++] = &mrk_share_attr.attr;
	mrk_global_list[n] = NULL;
	for (i = 0; i < ARRAY_SIZE(mrk_cpu_attrs); i++)
		mrk_cpu_list[i] = &mrk_cpu_attrs[i].ka.attr;
	mrk_cpu_list[i] = NULL;
}

/* Remove the per-CPU directories and the top directory. */
void mrk_sysfs_exit(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < MEMREG_MAX_CPUS; cpu++) {
		if (mrk_cpu_kobj[cpu]) {
			sysfs_remove_group(mrk_cpu_kobj[cpu], &mrk_cpu_group);
			kobject_put(mrk_cpu_kobj[cpu]);
			mrk_cpu_kobj[cpu] = NULL;
		}
	}
	if (mrk_kobj) {
		sysfs_remove_group(mrk_kobj, &mrk_global_group);
		kobject_put(mrk_kobj);
		mrk_kobj = NULL;
	}
}

/* Create /sys/kernel/memreg and cpuN/ for every possible CPU slot. */
int mrk_sysfs_init(void)
{
	unsigned int cpu;
	int ret;

	mrk_build_lists();
	mrk_kobj = kobject_create_and_add("memreg", kernel_kobj);
	if (!mrk_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(mrk_kobj, &mrk_global_group);
	if (ret) {
		kobject_put(mrk_kobj);
		mrk_kobj = NULL;
		return ret;
	}
	for (cpu = 0; cpu < mrk_nr_cpus; cpu++) {
		struct kobject *k;
		char name[16];

		if (!cpu_possible(cpu))
			continue;
		snprintf(name, sizeof(name), "cpu%u", cpu);
		k = kobject_create_and_add(name, mrk_kobj);
		if (!k) {
			ret = -ENOMEM;
			goto err;
		}
		ret = sysfs_create_group(k, &mrk_cpu_group);
		if (ret) {
			kobject_put(k);
			goto err;
		}
		mrk_cpu_kobj[cpu] = k;
	}
	return 0;
err:
	mrk_sysfs_exit();
	return ret;
}
