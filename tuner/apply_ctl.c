// SPDX-License-Identifier: GPL-2.0-only
/*
 * apply_ctl.c - the low-level side of 'memtune apply' and 'validate',
 * through regulator/ctl (memreg_ctl): finit_module() with parameters,
 * sysfs staging and commit, the module's last error, per-CPU statistics,
 * delete_module().  The sysfs root is struct tune_reg.sysfs (NULL: the
 * library's default, $MEMREG_SYSFS_ROOT or /sys/kernel/memreg), so tests
 * can run against a fake tree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "apply.h"
#include "export.h"
#include "memreg_ctl.h"

/* ctl_rc - a TUNE_REG_* code for a negative errno from memreg_ctl. */
static int ctl_rc(int e)
{
	if (e == -EPERM || e == -EACCES)
		return MEMCAL_EPERM;
	if (e == -ENOSYS || e == -ENOENT)
		return MEMCAL_EUNSUPPORTED;
	return MEMCAL_ERROR;
}

/* open_ctl - a handle on @r's root, or NULL with @err. */
static struct memreg_ctl *open_ctl(const struct tune_reg *r, char *err,
				   size_t errlen)
{
	struct memreg_ctl *c = memreg_ctl_open(r->sysfs);

	if (!c)
		snprintf(err, errlen, "out of memory");
	return c;
}

/** tune_reg_loaded() - whether memreg's sysfs tree is present. */
bool tune_reg_loaded(const struct tune_reg *r)
{
	struct memreg_ctl *c = memreg_ctl_open(r->sysfs);
	char path[4096];
	bool yes = false;

	if (c) {
		struct stat st;

		/* stat, not open: "commit" is write-only in the real tree */
		snprintf(path, sizeof(path), "%s/commit", memreg_ctl_root(c));
		yes = !stat(path, &st);
	}
	memreg_ctl_close(c);
	return yes;
}

/* stage_u64 - memreg_ctl_stage{,_cpu}() of a number (@cpu < 0: global). */
static int stage_u64(struct memreg_ctl *c, int cpu, const char *name,
		     unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	return cpu < 0 ? memreg_ctl_stage(c, name, buf) :
			 memreg_ctl_stage_cpu(c, cpu, name, buf);
}

/*
 * stage_exempt - cpuN/rt_exempt of @p: 1 when the configuration exempts
 * it, 0 where the attribute exists (clearing an earlier exemption).  A
 * memreg without the attribute is refused only when an exemption is
 * asked for.  Returns 0 or a negative errno with @err set.
 */
static int stage_exempt(struct memreg_ctl *c, const struct tune_cpu *p,
			char *err, size_t errlen)
{
	char cur[16];

	if (memreg_ctl_read(c, p->cpu, "rt_exempt", cur, sizeof(cur))) {
		if (!p->rt_exempt)
			return 0;
		snprintf(err, errlen, "this memreg has no cpu%d/rt_exempt: it "
			 "predates the real-time exemption; load a memreg.ko "
			 "built from this tree", p->cpu);
		return -EINVAL;	/* a failure to fix, not "no memreg here" */
	}
	return stage_u64(c, p->cpu, "rt_exempt", p->rt_exempt);
}

/*
 * stage_events - cpuN/read_event and cpuN/write_event of @p: the CPU's
 * own event when the configuration gives it one, "default" (the global
 * event) where the attribute exists otherwise.  A memreg without the
 * attributes is refused only when a CPU needs its own event.  Returns 0
 * or a negative errno with @err set.
 */
static int stage_events(struct memreg_ctl *c, const struct tune_cpu *p,
			char *err, size_t errlen)
{
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		const char *name = k ? "write_event" : "read_event";
		char cur[64];
		int rc;

		if (memreg_ctl_read(c, p->cpu, name, cur, sizeof(cur))) {
			if (!p->event[k][0])
				continue;
			snprintf(err, errlen, "this memreg has no cpu%d/%s: it "
				 "predates per-CPU events; load a memreg.ko built "
				 "from this tree", p->cpu, name);
			return -EINVAL;
		}
		rc = memreg_ctl_stage_cpu(c, p->cpu, name,
					  p->event[k][0] ? p->event[k] : "default");
		if (rc) {
			snprintf(err, errlen, "memreg refused cpu%d/%s '%s': %s",
				 p->cpu, name, p->event[k], memreg_ctl_error(c));
			return rc;
		}
	}
	return 0;
}

/* stage_cpu - the per-CPU values of @p under cpuN/. */
static int stage_cpu(struct memreg_ctl *c, const struct tune_cpu *p)
{
	static const char *const names[4] = { "read_guaranteed",
		"write_guaranteed", "read_ceiling", "write_ceiling" };
	int rc = stage_u64(c, p->cpu, "regulated", p->regulated);

	for (int i = 0; !rc && p->regulated && i < 4; i++) {
		const struct tune_budget *b = &p->b[i % 2];

		rc = stage_u64(c, p->cpu, names[i], i < 2 ?
			       b->guaranteed_events : b->ceiling_events);
	}
	return rc;
}

/**
 * tune_ctl_stage_commit() - stage every value of @c in sysfs and commit;
 * on a refusal the staged values are discarded.
 * Return: MEMCAL_OK, EPERM or EFAIL with @err (memreg's reason).
 */
int tune_ctl_stage_commit(struct tune_reg *r, const struct tune_config *c,
			  char *err, size_t errlen)
{
	const struct {
		const char *name;
		unsigned long long v;
	} g[] = {
		{ "period_us", (unsigned long long)c->period_us },
		{ "master_cpu", (unsigned long long)c->master_cpu },
		{ "platform_read", c->ceiling_events[0] },
		{ "platform_write", c->ceiling_events[1] },
		{ "monitor", c->monitor }, { "lms", c->lms },
		{ "reclaim", c->reclaim },
		{ "lms_taps", c->taps }, { "lms_mu", c->mu_q16 },
		{ "lms_headroom", c->headroom_q16 },
		{ "reclaim_quantum", c->reclaim_quantum },
	};
	struct memreg_ctl *h = open_ctl(r, err, errlen);
	int rc;

	if (!h)
		return MEMCAL_ERROR;
	rc = memreg_ctl_stage(h, "read_event", c->counter[0].event);
	if (!rc)
		rc = memreg_ctl_stage(h, "share", tune_export_share(c));
	if (!rc)
		rc = memreg_ctl_stage(h, "write_event", c->counter[1].event);
	for (size_t i = 0; !rc && i < sizeof(g) / sizeof(g[0]); i++)
		rc = stage_u64(h, -1, g[i].name, g[i].v);
	for (int i = 0; !rc && i < c->n_cpus; i++)
		rc = stage_cpu(h, &c->cpus[i]);
	for (int i = 0; !rc && i < c->n_cpus; i++)
		if ((rc = stage_exempt(h, &c->cpus[i], err, errlen)) ||
		    (rc = stage_events(h, &c->cpus[i], err, errlen))) {
			memreg_ctl_discard(h);
			memreg_ctl_close(h);
			return ctl_rc(rc);
		}
	if (!rc)
		rc = memreg_ctl_commit(h);
	if (rc) {
		snprintf(err, errlen, "memreg refused the configuration: %s",
			 memreg_ctl_error(h));
		memreg_ctl_discard(h);
	}
	memreg_ctl_close(h);
	return rc ? ctl_rc(rc) : MEMCAL_OK;
}

/**
 * tune_ctl_load() - finit_module(@ko) with @c as parameters; memreg then
 * starts regulated.  Return: a TUNE_REG_* code with @err.
 */
int tune_ctl_load(struct tune_reg *r, const char *ko,
		  const struct tune_config *c, char *err, size_t errlen)
{
	char params[8192];
	struct memreg_ctl *h;
	int rc;

	if (tune_export_module_params(c, params, sizeof(params))) {
		snprintf(err, errlen, "module parameters too long");
		return MEMCAL_ERROR;
	}
	h = open_ctl(r, err, errlen);
	if (!h)
		return MEMCAL_ERROR;
	rc = memreg_ctl_load(h, ko, params);
	if (rc == -EPERM || rc == -EACCES)
		snprintf(err, errlen, "loading %s needs root (CAP_SYS_MODULE)",
			 ko);
	else if (rc == -ENOSYS)
		snprintf(err, errlen, "this kernel cannot load modules");
	else if (rc)
		snprintf(err, errlen, "memreg refused to load with the "
			 "configuration: %s (see dmesg)", memreg_ctl_error(h));
	memreg_ctl_close(h);
	if (rc)
		return ctl_rc(rc);
	if (!tune_reg_loaded(r)) {
		snprintf(err, errlen, "memreg loaded but its sysfs tree is "
			 "missing");
		return MEMCAL_ERROR;
	}
	return MEMCAL_OK;
}

/**
 * tune_reg_monitor() - switch monitor-only mode (budgets infinite) on or
 * off and commit.  Return: a TUNE_REG_* code with @err.
 */
int tune_reg_monitor(struct tune_reg *r, bool on, char *err, size_t errlen)
{
	struct memreg_ctl *h;
	int rc;

	if (!tune_reg_loaded(r)) {
		snprintf(err, errlen, "memreg is not loaded");
		return MEMCAL_EUNSUPPORTED;
	}
	h = open_ctl(r, err, errlen);
	if (!h)
		return MEMCAL_ERROR;
	rc = memreg_ctl_stage(h, "monitor", on ? "1" : "0");
	if (!rc)
		rc = memreg_ctl_commit(h);
	if (rc) {
		snprintf(err, errlen, "%s", memreg_ctl_error(h));
		memreg_ctl_discard(h);
	}
	memreg_ctl_close(h);
	return rc ? ctl_rc(rc) : MEMCAL_OK;
}

/**
 * tune_reg_stats() - CPU @cpu's counters; 0, or MEMCAL_ENOMEM or
 * ctl_rc() of the failed read when unreadable.
 */
int tune_reg_stats(struct tune_reg *r, int cpu, struct tune_reg_stats *s)
{
	struct memreg_ctl *h = memreg_ctl_open(r->sysfs);
	int rc;

	if (!h)
		return MEMCAL_ENOMEM;
	rc = memreg_ctl_read_u64(h, cpu, "throttles", &s->throttles);
	if (!rc)
		rc = memreg_ctl_read_u64(h, cpu, "throttled_ns",
					 &s->throttled_ns);
	if (!rc)
		rc = memreg_ctl_read_u64(h, cpu, "periods", &s->periods);
	memreg_ctl_close(h);
	return rc ? ctl_rc(rc) : MEMCAL_OK;
}

/**
 * tune_reg_unload() - delete_module("memreg").
 * Return: MEMCAL_OK or EFAIL with @err.
 */
int tune_reg_unload(struct tune_reg *r, char *err, size_t errlen)
{
	struct memreg_ctl *h = open_ctl(r, err, errlen);
	int rc;

	if (!h)
		return MEMCAL_ERROR;
	rc = memreg_ctl_unload(h);
	if (rc)
		snprintf(err, errlen, "rmmod memreg: %s", memreg_ctl_error(h));
	memreg_ctl_close(h);
	if (rc)
		return MEMCAL_ERROR;
	r->loaded_here = false;
	return MEMCAL_OK;
}
