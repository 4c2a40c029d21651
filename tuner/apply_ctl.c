// SPDX-License-Identifier: GPL-2.0-only
/*
 * apply_ctl.c - the low-level side of 'memtune apply' and 'validate':
 * finit_module() with parameters, sysfs staging and commit, the last
 * error, per-CPU statistics, delete_module().  Everything under a
 * configurable sysfs root (struct tune_reg.sysfs) so that tests can run
 * against a fake tree.  The sysfs layout is memreg's (regulator/kmod/
 * sysfs.c): global attributes, "commit", "error", and cpuN/ directories.
 *
 * regulator/ctl (memreg_ctl) was not yet available when this was
 * written; this file is the only place to change when memtune moves to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "apply.h"
#include "export.h"

#define DEFAULT_SYSFS "/sys/kernel/memreg"

/* root - the sysfs root in use. */
static const char *root(const struct tune_reg *r)
{
	return r->sysfs ? r->sysfs : DEFAULT_SYSFS;
}

/** tune_reg_loaded() - whether memreg's sysfs tree is present. */
bool tune_reg_loaded(const struct tune_reg *r)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/commit", root(r));
	return !stat(path, &st);
}

/* read_attr - first line of @root/@name into @buf; -1 on failure. */
static int read_attr(const struct tune_reg *r, const char *name, char *buf,
		     size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root(r), name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * write_attr - write @value to @root/@name in one write(), as sysfs
 * wants; on failure @err says which attribute and memreg's reason.
 */
static int write_attr(const struct tune_reg *r, const char *name,
		      const char *value, char *err, size_t errlen)
{
	char path[4096], why[256] = "";
	size_t n = strlen(value);
	int fd, e = 0;

	snprintf(path, sizeof(path), "%s/%s", root(r), name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		e = errno;
	else if (write(fd, value, n) != (ssize_t)n)
		e = errno ? errno : EIO;
	if (fd >= 0 && close(fd) && !e)
		e = errno;
	if (!e)
		return TUNE_REG_OK;
	if (read_attr(r, "error", why, sizeof(why)) || !strcmp(why, "none"))
		snprintf(why, sizeof(why), "%s", strerror(e));
	snprintf(err, errlen, "memreg refused %s=%s: %s", name, value, why);
	return e == EACCES || e == EPERM ? TUNE_REG_EPERM : TUNE_REG_EFAIL;
}

/* write_u64 - write_attr() of a number. */
static int write_u64(const struct tune_reg *r, const char *name,
		     unsigned long long v, char *err, size_t errlen)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	return write_attr(r, name, buf, err, errlen);
}

/* commit - apply the staged values at once. */
static int commit(const struct tune_reg *r, char *err, size_t errlen)
{
	return write_attr(r, "commit", "1", err, errlen);
}

/* stage_cpu - the per-CPU values of @p under cpuN/. */
static int stage_cpu(const struct tune_reg *r, const struct tune_cpu *p,
		     char *err, size_t errlen)
{
	static const char *const names[4] = { "read_guaranteed",
		"write_guaranteed", "read_ceiling", "write_ceiling" };
	char name[64];
	int rc;

	snprintf(name, sizeof(name), "cpu%d/regulated", p->cpu);
	rc = write_u64(r, name, p->regulated, err, errlen);
	for (int i = 0; !rc && p->regulated && i < 4; i++) {
		const struct tune_budget *b = &p->b[i % 2];

		snprintf(name, sizeof(name), "cpu%d/%s", p->cpu, names[i]);
		rc = write_u64(r, name, i < 2 ? b->guaranteed_events :
			       b->ceiling_events, err, errlen);
	}
	return rc;
}

/**
 * tune_ctl_stage_commit() - stage every value of @c in sysfs and commit;
 * on a refusal the staged values are discarded ("commit" 0).
 * Return: TUNE_REG_OK, EPERM or EFAIL with @err.
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
		{ "reclaim", c->reclaim }, { "share", c->share },
		{ "lms_taps", c->taps }, { "lms_mu", c->mu_q16 },
		{ "lms_headroom", c->headroom_q16 },
		{ "reclaim_quantum", c->reclaim_quantum },
	};
	int rc = write_attr(r, "read_event", c->counter[0].event, err, errlen);

	if (!rc)
		rc = write_attr(r, "write_event", c->counter[1].event, err,
				errlen);
	for (size_t i = 0; !rc && i < sizeof(g) / sizeof(g[0]); i++)
		rc = write_u64(r, g[i].name, g[i].v, err, errlen);
	for (int i = 0; !rc && i < c->n_cpus; i++)
		rc = stage_cpu(r, &c->cpus[i], err, errlen);
	if (!rc)
		rc = commit(r, err, errlen);
	if (rc) {
		char ignore[64];

		write_attr(r, "commit", "0", ignore, sizeof(ignore));
	}
	return rc;
}

/**
 * tune_ctl_load() - finit_module(@ko) with @c as parameters; memreg then
 * starts regulated.  Return: a TUNE_REG_* code with @err.
 */
int tune_ctl_load(struct tune_reg *r, const char *ko,
		  const struct tune_config *c, char *err, size_t errlen)
{
	char params[8192];
	int fd, e = 0;

	if (export_module_params(c, params, sizeof(params))) {
		snprintf(err, errlen, "module parameters too long");
		return TUNE_REG_EFAIL;
	}
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", ko, strerror(errno));
		return TUNE_REG_ENOMOD;
	}
	if (syscall(SYS_finit_module, fd, params, 0))
		e = errno;
	close(fd);
	if (e == EPERM || e == EACCES) {
		snprintf(err, errlen, "loading %s needs root (CAP_SYS_MODULE)",
			 ko);
		return TUNE_REG_EPERM;
	}
	if (e == ENOSYS) {
		snprintf(err, errlen, "this kernel cannot load modules");
		return TUNE_REG_ENOMOD;
	}
	if (e) {
		snprintf(err, errlen, "memreg refused to load with the "
			 "configuration (%s); see dmesg for its reason",
			 strerror(e));
		return TUNE_REG_EFAIL;
	}
	if (!tune_reg_loaded(r)) {
		snprintf(err, errlen, "memreg loaded but %s is missing",
			 root(r));
		return TUNE_REG_EFAIL;
	}
	return TUNE_REG_OK;
}

/**
 * tune_reg_monitor() - switch monitor-only mode (budgets infinite) on or
 * off and commit.  Return: a TUNE_REG_* code with @err.
 */
int tune_reg_monitor(struct tune_reg *r, bool on, char *err, size_t errlen)
{
	int rc;

	if (!tune_reg_loaded(r)) {
		snprintf(err, errlen, "memreg is not loaded (%s missing)",
			 root(r));
		return TUNE_REG_ENOMOD;
	}
	rc = write_attr(r, "monitor", on ? "1" : "0", err, errlen);
	return rc ? rc : commit(r, err, errlen);
}

/** tune_reg_stats() - CPU @cpu's counters; -1 when unreadable. */
int tune_reg_stats(struct tune_reg *r, int cpu, struct tune_reg_stats *s)
{
	static const char *const names[3] = { "throttles", "throttled_ns",
					      "periods" };
	uint64_t *dst[3] = { &s->throttles, &s->throttled_ns, &s->periods };

	for (int i = 0; i < 3; i++) {
		char name[64], buf[64];

		snprintf(name, sizeof(name), "cpu%d/%s", cpu, names[i]);
		if (read_attr(r, name, buf, sizeof(buf)))
			return -1;
		*dst[i] = strtoull(buf, NULL, 10);
	}
	return 0;
}

/**
 * tune_reg_unload() - delete_module("memreg").
 * Return: TUNE_REG_OK or EFAIL with @err.
 */
int tune_reg_unload(struct tune_reg *r, char *err, size_t errlen)
{
	if (syscall(SYS_delete_module, "memreg", O_NONBLOCK)) {
		snprintf(err, errlen, "rmmod memreg: %s", strerror(errno));
		return TUNE_REG_EFAIL;
	}
	r->loaded_here = false;
	return TUNE_REG_OK;
}
