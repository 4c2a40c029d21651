// SPDX-License-Identifier: GPL-2.0
/*
 * rtopts - the rt group's checks of memreg's real-time options
 * (throttle.c): idle while held, rt_prio, rt_exempt.
 *
 *   rtopts prio-sysfs         priorities staged and committed (rt-prio-sysfs)
 *   rtopts idle P B R0        a held CPU idles (rt-idle-while-held)
 *   rtopts exempt B           an exempt CPU is never throttled (rt-exempt)
 */
#include "checklib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* stat_idle: CPU's idle time in /proc/stat (USER_HZ ticks, 1/100 s) and
 * /proc/uptime in 1/100 s */
static void stat_idle(int cpu, double *idle, double *up)
{
	char line[512], tag[16];
	FILE *f = fopen("/proc/stat", "r");
	double u = 0;

	*idle = 0;
	snprintf(tag, sizeof(tag), "cpu%d ", cpu);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, tag, strlen(tag)))
			sscanf(line + strlen(tag), "%*s %*s %*s %lf", idle);
	if (f)
		fclose(f);
	f = fopen("/proc/uptime", "r");
	if (f && fscanf(f, "%lf", &u) != 1)
		u = 0;
	if (f)
		fclose(f);
	*up = round(u * 100);
}

/* idle_share: CPU's idle share of the elapsed time while ARGV runs (a
 * sleep of 2 s when NULL), to 3 decimals.  Against elapsed time, not the
 * sum of the /proc/stat fields: on a held CPU the tick also charges the
 * injected idle to the throttle thread as system time, so the fields add
 * up to more than the elapsed time (regulator/kmod/README.md). */
static double idle_share(int cpu, char *const argv[])
{
	double i0, u0, i1, u1;

	stat_idle(cpu, &i0, &u0);
	if (argv)
		mr_reap(mr_spawn(NULL, argv));
	else
		mr_sleep(2);
	stat_idle(cpu, &i1, &u1);
	return u1 > u0 ? round((i1 - i0) / (u1 - u0) * 1000) / 1000 : 0;
}


/*
 * rt-prio-sysfs: priorities are staged, checked and applied by commit: the
 * throttle thread starts at FIFO 50; rt_prio 1 is refused by commit,
 * throttle_prio 99 by the store; throttle_prio 30 and rt_prio 20 (the
 * thread one below it, 19) apply.
 */
static int rt_prio_sysfs(void)
{
	char e[256], e3[256];
	long p0 = mr_throttle_prio(1), p30, p19;
	int c1, c2, c3, c4, c5, ok;

	c1 = mr_put("1\n", "rt_prio");
	c2 = mr_commit();
	mr_gets(e, sizeof(e), "error");
	mr_put("0\n", "commit");
	c3 = mr_put("99\n", "throttle_prio");
	mr_gets(e3, sizeof(e3), "error");
	mr_put("30\n", "throttle_prio");
	c4 = mr_commit();
	p30 = mr_throttle_prio(1);
	mr_put("20\n", "rt_prio");
	c5 = mr_commit();
	p19 = mr_throttle_prio(1);
	ok = mr_check("rt-prio-sysfs",
		      p0 == 50 && c1 == 0 && c2 != 0 && strstr(e, "rt_prio 1") && c3 != 0 &&
			      strstr(e3, "throttle_prio") && c4 == 0 && p30 == 30 && c5 == 0 && p19 == 19 &&
			      mr_get("rt_prio") == 20 && mr_get("throttle_prio") == 30,
		      "default prio=%ld; rt_prio=1: store rc=%d commit rc=%d error='%s'; throttle_prio=99 rc=%d error='%s'; throttle_prio=30 commit rc=%d prio=%ld readback=%lld; rt_prio=20 rc=%d prio=%ld readback=%lld",
		      p0, c1, c2, e, c3, e3, c4, p30, mr_get("throttle_prio"), c5, p19, mr_get("rt_prio"));
	mr_put("0\n", "rt_prio");
	mr_put("50\n", "throttle_prio");
	mr_commit();
	return ok;
}

/*
 * rt-idle P B R0: a held CPU idles: /proc/stat idle share of cpu1 while
 * its hog is throttled; unregulated (monitor) first, so the check can
 * fail.  The emulator's interrupt handling is slow and not idle time, so
 * even a CPU with nothing to run shows only 0.6-0.95 of the elapsed time as
 * idle, depending on the host's load: the held share is judged against
 * that of cpu1 left idle for the same time just before.  6.1 accounts only
 * about 65 % of injected idle as idle, so a CPU held 0.8 of each period
 * shows about 0.5 of the idle CPU's share (CI saw 0.57, hand runs
 * 0.62-0.68); a spinning throttle shows about 0.02.
 */
static int rt_idle(long long P, long long B, double r0)
{
	char *hog[] = { "/pfload", "-c", "1", "-t", "2", NULL };
	double ref, free_, held, hf;
	long long n0, k0, n1, k1;

	mr_sleep(0.2);
	ref = idle_share(1, NULL);
	mr_put("1\n", "monitor");
	mr_commit();
	free_ = idle_share(1, hog);
	mr_put("0\n", "monitor");
	mr_commit();
	mr_sleep(0.2);
	n0 = mr_cpu(1, "throttled_ns"); k0 = mr_cpu(1, "periods");
	held = idle_share(1, hog);
	n1 = mr_cpu(1, "throttled_ns"); k1 = mr_cpu(1, "periods");
	hf = round(mr_per((double)(n1 - n0), (double)(k1 - k0)) / ((double)P * 1000) * 100) / 100;
	return mr_check("rt-idle-while-held", held >= 0.45 * ref && hf >= 0.6 && free_ < 0.3 * ref,
			"period=%lldus budget=%lld (7 %% of %.0f/s): idle share of elapsed time of cpu1 idle=%.3f, unregulated hog=%.3f, held %.2f of each period: idle share=%.3f, %.2f of the idle CPU's",
			P, B, r0, ref, free_, hf, held, mr_per(held, ref));
}

/* rt-exempt B: cpu1 exempt (sysfs), both CPUs hog beyond their budgets:
 * cpu1 is never throttled and counts its overruns, cpu0 is throttled.
 * The exemption is a live commit, which keeps the statistics: cpu1's
 * throttles are counted from the commit on (a program started on cpu1
 * before it, e.g. this one, may have been throttled once by its own page
 * faults). */
static int rt_exempt(long long B)
{
	char *hog0[] = { "/pfload", "-c", "0", "-t", "2", NULL };
	long long e0 = mr_cpu(1, "rt_exempt"), t0;
	struct mr_pp r;
	pid_t w;
	int rc;

	mr_put("1\n", "cpu1/rt_exempt");
	rc = mr_commit();
	t0 = mr_cpu(1, "throttles");
	w = mr_spawn(NULL, hog0);
	r = mr_per_period(1, 2, "exempt_overruns");
	mr_reap(w);
	return mr_check("rt-exempt",
			e0 == 0 && rc == 0 && mr_cpu(1, "rt_exempt") == 1 && t0 >= 0 &&
				mr_cpu(1, "throttles") == t0 &&
				r.stat > r.periods / 2.0 && r.used > B * 1.5 && mr_cpu(0, "throttles") > 0 &&
				mr_cpu(0, "exempt_overruns") == 0,
			"rt_exempt=0 at load, 1 after commit rc=%d (readback %lld): cpu1 budget=%lld used=%lld/period over %lld periods exempt_overruns=%lld throttles=%lld (%lld at the commit); cpu0 throttles=%lld exempt_overruns=%lld",
			rc, mr_cpu(1, "rt_exempt"), B, r.used, r.periods, r.stat, mr_cpu(1, "throttles"), t0,
			mr_cpu(0, "throttles"), mr_cpu(0, "exempt_overruns"));
}

static int cmd_prio_sysfs(char **a)
{
	(void)a;
	return !rt_prio_sysfs();
}

static int cmd_idle(char **a)
{
	return !rt_idle(atoll(a[0]), atoll(a[1]), atof(a[2]));
}

static int cmd_exempt(char **a)
{
	return !rt_exempt(atoll(a[0]));
}

static const struct mr_cmd cmds[] = {
	{ "prio-sysfs", 0, "", cmd_prio_sysfs },
	{ "idle", 3, "P B R0", cmd_idle },
	{ "exempt", 1, "B", cmd_exempt },
};

int main(int argc, char **argv)
{
	return mr_dispatch(cmds, sizeof(cmds) / sizeof(cmds[0]), argc, argv);
}
