// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * memreg_ctl.c - user-space control of memreg.ko: module load/unload
 * through finit_module(2)/delete_module(2) and staging, committing and
 * reading attributes under a configurable sysfs root (see memreg_ctl.h).
 */
#include "memreg_ctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/**
 * struct memreg_ctl - a control handle
 * @root: the sysfs root (no trailing slash)
 * @err:  the last error message
 */
struct memreg_ctl {
	char root[512];
	char err[512];
};

/* Record a printf-style error message on @c; returns @ret. */
static int ctl_fail(struct memreg_ctl *c, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int ctl_fail(struct memreg_ctl *c, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return ret;
}

/* Open a handle; see memreg_ctl.h. */
struct memreg_ctl *memreg_ctl_open(const char *root)
{
	struct memreg_ctl *c = calloc(1, sizeof(*c));
	size_t n;

	if (!c)
		return NULL;
	if (!root)
		root = getenv("MEMREG_SYSFS_ROOT");
	if (!root || !*root)
		root = MEMREG_CTL_DEFAULT_ROOT;
	snprintf(c->root, sizeof(c->root), "%s", root);
	n = strlen(c->root);
	while (n > 1 && c->root[n - 1] == '/')
		c->root[--n] = '\0';
	return c;
}

/* Close a handle. */
void memreg_ctl_close(struct memreg_ctl *c)
{
	free(c);
}

/* The last error message. */
const char *memreg_ctl_error(const struct memreg_ctl *c)
{
	return c->err;
}

/* The sysfs root in use. */
const char *memreg_ctl_root(const struct memreg_ctl *c)
{
	return c->root;
}

/* Build ROOT/name or ROOT/cpuN/name into @path; -ENAMETOOLONG/-EINVAL. */
static int ctl_path(struct memreg_ctl *c, int cpu, const char *name,
		    char *path, size_t len)
{
	int n;

	if (!name || !*name || strchr(name, '/') || strstr(name, ".."))
		return ctl_fail(c, -EINVAL, "bad attribute name '%s'",
				name ? name : "(null)");
	if (cpu < 0)
		n = snprintf(path, len, "%s/%s", c->root, name);
	else
		n = snprintf(path, len, "%s/cpu%d/%s", c->root, cpu, name);
	if (n < 0 || (size_t)n >= len)
		return ctl_fail(c, -ENAMETOOLONG, "path too long");
	return 0;
}

/* Read an attribute as a string; see memreg_ctl.h. */
int memreg_ctl_read(struct memreg_ctl *c, int cpu, const char *name,
		    char *buf, size_t len)
{
	char path[768];
	ssize_t n;
	int fd, ret;

	if (!len)
		return -EINVAL;
	ret = ctl_path(c, cpu, name, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ctl_fail(c, -errno, "%s: %s", path, strerror(errno));
	n = read(fd, buf, len - 1);
	ret = errno;
	close(fd);
	if (n < 0)
		return ctl_fail(c, -ret, "%s: %s", path, strerror(ret));
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* Read a numeric attribute; see memreg_ctl.h. */
int memreg_ctl_read_u64(struct memreg_ctl *c, int cpu, const char *name,
			uint64_t *val)
{
	char buf[64], *end;
	unsigned long long v;
	int ret;

	ret = memreg_ctl_read(c, cpu, name, buf, sizeof(buf));
	if (ret)
		return ret;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return ctl_fail(c, -EINVAL, "%s: not a number: '%s'", name, buf);
	*val = v;
	return 0;
}

/* Read the module's last error; see memreg_ctl.h. */
int memreg_ctl_last_error(struct memreg_ctl *c, char *buf, size_t len)
{
	return memreg_ctl_read(c, -1, "error", buf, len);
}

/*
 * Write @value (a newline is appended) in one write() to an attribute.
 * A refusal by the module is reported with the module's error file.
 */
static int ctl_write(struct memreg_ctl *c, int cpu, const char *name,
		     const char *value)
{
	char path[768], line[4096], why[256];
	ssize_t n;
	int fd, ret, len;

	ret = ctl_path(c, cpu, name, path, sizeof(path));
	if (ret)
		return ret;
	len = snprintf(line, sizeof(line), "%s\n", value ? value : "");
	if (len < 0 || (size_t)len >= sizeof(line))
		return ctl_fail(c, -E2BIG, "%s: value too long", name);
	/* O_TRUNC as a shell redirection does: a no-op on sysfs, needed on the
	 * regular files of a fake tree */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return ctl_fail(c, -errno, "%s: %s", path, strerror(errno));
	n = write(fd, line, (size_t)len);
	ret = errno;
	close(fd);
	if (n == len)
		return 0;
	if (n >= 0)
		return ctl_fail(c, -EIO, "%s: short write", path);
	if (memreg_ctl_last_error(c, why, sizeof(why)) == 0 && strcmp(why, "none"))
		return ctl_fail(c, -ret, "%s=%s refused: %s", name, value, why);
	return ctl_fail(c, -ret, "%s=%s refused: %s", name, value, strerror(ret));
}

/* Stage a global attribute. */
int memreg_ctl_stage(struct memreg_ctl *c, const char *name,
		     const char *value)
{
	return ctl_write(c, -1, name, value);
}

/* Stage a per-CPU attribute. */
int memreg_ctl_stage_cpu(struct memreg_ctl *c, int cpu, const char *name,
			 const char *value)
{
	if (cpu < 0)
		return ctl_fail(c, -EINVAL, "bad cpu %d", cpu);
	return ctl_write(c, cpu, name, value);
}

/* Apply the staged configuration. */
int memreg_ctl_commit(struct memreg_ctl *c)
{
	return ctl_write(c, -1, "commit", "1");
}

/* Discard the staged configuration. */
int memreg_ctl_discard(struct memreg_ctl *c)
{
	return ctl_write(c, -1, "commit", "0");
}

/* Load the module with finit_module(2). */
int memreg_ctl_load(struct memreg_ctl *c, const char *ko_path,
		    const char *params)
{
	int fd, ret;

	fd = open(ko_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ctl_fail(c, -errno, "%s: %s", ko_path, strerror(errno));
	ret = (int)syscall(SYS_finit_module, fd, params ? params : "", 0);
	ret = ret ? errno : 0;
	close(fd);
	if (!ret)
		return 0;
	if (ret == EEXIST)
		return ctl_fail(c, -EEXIST, "memreg is already loaded");
	return ctl_fail(c, -ret, "loading %s refused: %s (the kernel log says why)",
			ko_path, strerror(ret));
}

/* Unload the module with delete_module(2). */
int memreg_ctl_unload(struct memreg_ctl *c)
{
	if (syscall(SYS_delete_module, "memreg", O_NONBLOCK) == 0)
		return 0;
	if (errno == ENOENT)
		return ctl_fail(c, -ENOENT, "memreg is not loaded");
	return ctl_fail(c, -errno, "unloading memreg: %s", strerror(errno));
}

/* Which regulator is loaded. */
enum memreg_ctl_loaded memreg_ctl_detect(struct memreg_ctl *c,
					 const char *modules_path,
					 char *other, size_t other_len)
{
	static const char *const others[] = { "memguard", "bwlock", "memguard_rt", "mempol" };
	char line[512], name[128];
	struct stat st;
	FILE *f;
	size_t i;

	if (stat(c->root, &st) == 0 && S_ISDIR(st.st_mode))
		return MEMREG_CTL_MEMREG;
	f = fopen(modules_path ? modules_path : "/proc/modules", "re");
	if (!f)
		return MEMREG_CTL_NONE;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s", name) != 1)
			continue;
		if (!strcmp(name, "memreg")) {
			fclose(f);
			return MEMREG_CTL_MEMREG;
		}
		for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
			if (strcmp(name, others[i]))
				continue;
			if (other && other_len)
				snprintf(other, other_len, "%s", name);
			fclose(f);
			return MEMREG_CTL_OTHER;
		}
	}
	fclose(f);
	return MEMREG_CTL_NONE;
}
