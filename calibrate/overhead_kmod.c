// SPDX-License-Identifier: GPL-2.0-only
/*
 * overhead_kmod.c - probe, load and unload memreg.ko in monitor-only
 * mode for `memcal overhead` (see overhead_kmod.h).  Loading goes through
 * the memreg_ctl library (regulator/ctl, libc only, so the guest programs
 * compile it too).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity, CPU_SET: also in guest builds */
#endif
#include "overhead_kmod.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "memreg_ctl.h"

/* is_file - @p names a readable regular file. */
static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, R_OK) == 0;
}

/*
 * cal_ovh_kmod_find - where memreg.ko is: @hint if given, else $MEMREG_KO,
 * else /lib/modules/<release>/{extra,updates,updates/dkms}/memreg.ko.
 * Returns 0 with @path filled, or MEMCAL_ENOTFOUND.
 */
int cal_ovh_kmod_find(const char *hint, char *path, size_t len)
{
	static const char *const sub[] = { "extra", "updates",
					   "updates/dkms", "kernel/extra" };
	const char *env = getenv("MEMREG_KO");
	struct utsname u;

	if (hint && *hint) {
		snprintf(path, len, "%s", hint);
		return is_file(path) ? 0 : MEMCAL_ENOTFOUND;
	}
	if (env && *env) {
		snprintf(path, len, "%s", env);
		return is_file(path) ? 0 : MEMCAL_ENOTFOUND;
	}
	if (uname(&u) == 0) {
		for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
			snprintf(path, len, "/lib/modules/%s/%s/memreg.ko",
				 u.release, sub[i]);
			if (is_file(path))
				return 0;
		}
	}
	snprintf(path, len, "memreg.ko");
	return MEMCAL_ENOTFOUND;
}

/* cal_ovh_kmod_loaded - 1 when memreg is loaded now (/sys/module/memreg). */
int cal_ovh_kmod_loaded(void)
{
	return access("/sys/module/" OVH_MEMREG_NAME, F_OK) == 0;
}

/*
 * cal_ovh_kmod_load - load @path with monitor=1 period_us=@period_us
 * master_cpu=@master_cpu (if >= 0) and @extra (more parameters, may be
 * NULL).  Returns 0, or MEMCAL_ERROR with the errno in @why.
 */
int cal_ovh_kmod_load(const char *path, unsigned period_us, int master_cpu,
		  const char *extra, char *why, size_t wlen)
{
	char params[512];
	struct memreg_ctl *c;
	int rc;

	if (master_cpu >= 0)
		snprintf(params, sizeof(params),
			 "monitor=1 period_us=%u master_cpu=%d %s", period_us,
			 master_cpu, extra ? extra : "");
	else
		snprintf(params, sizeof(params), "monitor=1 period_us=%u %s",
			 period_us, extra ? extra : "");
	c = memreg_ctl_open(NULL);
	if (!c) {
		memcal_errf(why, wlen, "out of memory");
		return MEMCAL_ERROR;
	}
	rc = memreg_ctl_load(c, path, params);
	if (rc)
		memcal_errf(why, wlen, "loading %s (%s) failed: %s (errno %d)",
		    path, params, memreg_ctl_error(c)[0] ?
		    memreg_ctl_error(c) : strerror(-rc), -rc);
	memreg_ctl_close(c);
	return rc ? (rc == -ENOENT ? MEMCAL_ENOTFOUND : MEMCAL_ERROR) : 0;
}

/* cal_ovh_kmod_unload - remove memreg; 0, or MEMCAL_ERROR with errno. */
int cal_ovh_kmod_unload(char *why, size_t wlen)
{
	int e = 0;
	struct memreg_ctl *c = memreg_ctl_open(NULL);

	for (int tries = 0; c && tries < 50; tries++) {
		e = -memreg_ctl_unload(c);
		if (!e || (e != EAGAIN && e != EBUSY))
			break;
		usleep(20000);
	}
	memreg_ctl_close(c);
	if (!c)
		e = ENOMEM;
	if (!e)
		return 0;
	memcal_errf(why, wlen, "unloading memreg failed: %s (errno %d)", strerror(e), e);
	return MEMCAL_ERROR;
}

/*
 * cal_ovh_kmod_periods - periods memreg has accounted on @cpu so far (its
 * per-CPU "periods" statistic), so a run can say how many regulation
 * periods it really saw.  Returns 0, MEMCAL_ENOMEM or MEMCAL_EIO.
 */
int cal_ovh_kmod_periods(unsigned cpu, uint64_t *val)
{
	struct memreg_ctl *c = memreg_ctl_open(NULL);
	int rc = c ? memreg_ctl_read_u64(c, (int)cpu, "periods", val) : 0;

	memreg_ctl_close(c);
	return !c ? MEMCAL_ENOMEM : rc ? MEMCAL_EIO : 0;
}

/*
 * cal_ovh_kmod_probe - can the real measurement run here?  Checks, in order:
 * root, module support (/proc/modules), memreg not already loaded (its
 * parameters could not be set), the module file, and a trial load at
 * 1 ms followed by an unload.  Returns 0 with @path filled, or an
 * OVH_KMOD_E* code with the reason in @why.
 */
int cal_ovh_kmod_probe(const char *hint, char *path, size_t plen, char *why,
		   size_t wlen)
{
	int rc;

	memcal_errf(why, wlen, "memreg loadable");
	if (geteuid() != 0) {
		memcal_errf(why, wlen, "not root: loading memreg.ko needs root");
		return MEMCAL_EPERM;
	}
	if (access("/proc/modules", F_OK) != 0) {
		memcal_errf(why, wlen, "the running kernel has no module support "
		    "(/proc/modules absent)");
		return MEMCAL_EUNSUPPORTED;
	}
	{
		struct memreg_ctl *c = memreg_ctl_open(NULL);
		char other[64] = "";
		enum memreg_ctl_loaded l = c ? memreg_ctl_detect(c, NULL, other,
						sizeof(other)) : MEMREG_CTL_NONE;

		memreg_ctl_close(c);
		if (l == MEMREG_CTL_OTHER) {
			memcal_errf(why, wlen, "another regulator (%s) is loaded; "
			    "unload it first", other);
			return MEMCAL_EBUSY;
		}
	}
	if (cal_ovh_kmod_loaded()) {
		memcal_errf(why, wlen, "memreg is already loaded; unload it first so "
		    "that memcal can load it in monitor-only mode");
		return MEMCAL_EBUSY;
	}
	if (cal_ovh_kmod_find(hint, path, plen)) {
		memcal_errf(why, wlen, "module file missing (%s; set MEMREG_KO or "
		    "install memreg.ko)", path);
		return MEMCAL_ENOTFOUND;
	}
	rc = cal_ovh_kmod_load(path, 1000, -1, NULL, why, wlen);
	if (rc)
		return rc;
	return cal_ovh_kmod_unload(why, wlen);
}
