/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodfail - guest-side checks of how memreg.ko changes its configuration
 * and copes with counters it cannot have or perf would throttle (x86 QEMU
 * groups "hotplug" and "nohz"; a PMU taken away on arm64: pmubusy.c):
 * loads and unloads MODULE itself, runs /pfload hogs, reads
 * /sys/kernel/memreg and prints one "MEMREG-CHECK <name> PASS|FAIL
 * <detail>" line per check:
 *
 *   kmodfail live       (group hotplug)
 *   live-commit-budgets  cpu-clock counters, cpu1 held by a hog every
 *                        period: a commit that changes only cpu1's
 *                        guarantee keeps periods and throttles counting on
 *                        (no reset), the new budget shows in
 *                        cpu1/read_budget within 2 of cpu1's periods, no
 *                        error
 *   live-commit-events   then a commit that changes the event: counters
 *                        re-created, statistics reset
 *   live-commit-slack    page faults (slack scheme), guarantee 160, a hog
 *                        on cpu1: a live commit of slack_div 8 -> 1 keeps
 *                        the periods counting and cuts the overflows per
 *                        period at least 4-fold (the new granule reached
 *                        the counter)
 *
 *   kmodfail failed     (group hotplug)
 *   cpu-counters-failed  cpu1 offline, its own event staged as raw:0x11
 *                        (no PMU in this guest: it cannot be created) and
 *                        committed; back online its counters fail: it is
 *                        not regulated (running 0), cpu1/counter_error
 *                        holds the errno, error (the kernel log, as a
 *                        later report may replace it) names the CPU and
 *                        the event, and cpu0,
 *                        throttled alone, still gets spare grants (cpu1 is
 *                        left out of "every CPU throttled")
 *   cpu-counters-retry   the next commit (cpu1's event back to the global
 *                        one) creates them: cpu1 runs, counter_error 0
 *
 *   kmodfail nohz       (group nohz, booted with nohz_full=1)
 *   rate-tick-equal      perf throttles at interrupts >= its per-tick
 *                        limit: with kernel.perf_event_max_sample_rate 500
 *                        (2 per tick at HZ 250) a counter that may take 2
 *                        interrupts per tick (sharing on) is refused
 *   nohz-rate-refused    cpu1 is nohz_full: perf counts overflow
 *                        interrupts per scheduler tick, which a tick-less
 *                        CPU may not take for seconds, so with
 *                        max_sample_rate 2500 (10 per tick) a 50 ms
 *                        cpu-clock counter (one interrupt per period) is
 *                        refused on cpu1 naming nohz_full (loaded anyway,
 *                        it would be perf-throttled: the detail shows it);
 *                        the same on cpu0, and monitor-only on cpu1, load
 *   nohz-accepted-runs   the configuration accepted on housekeeping cpu0,
 *                        a hog held every period for 3 s: throttles > 0
 *                        and perf_throttled 0
 *
 *   kmodfail live|failed|nohz MODULE
 *
 * Exit status: 0 when every check passed, 1 otherwise, 2 on bad usage.
 * Linked statically, with checklib, for the initramfs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checklib.h"

static const char *ko;	/* MODULE */
static int failed;

#define result(name, pass, ...) \
	(failed |= !mr_check(name, pass, __VA_ARGS__))

/* Overflows per period of cpu1 over @secs seconds; its periods in *@n. */
static double ovf_rate(double secs, long long *n)
{
	long long o0 = mr_cpu(1, "overflows"), p0 = mr_cpu(1, "periods");

	mr_sleep(secs);
	*n = mr_cpu(1, "periods");
	return mr_per((double)(mr_cpu(1, "overflows") - o0), (double)(*n - p0));
}

/*
 * A slack-scheme counter (page faults) overflows every guarantee /
 * slack_div events: a live commit of slack_div 8 -> 1 must give it the
 * new granule (perf_event_period()) without re-creating it.
 */
static void check_live_slack(void)
{
	long long p0, pc, p1;
	double r0, r1;
	pid_t h;
	int rc;

	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_budget=160,160 "
		       "platform_read=320 slack_div=8");
	if (rc) {
		result("live-commit-slack", 0, "insmod rc=%d", rc);
		return;
	}
	h = mr_hog(1, 30);
	mr_sleep(0.3);
	r0 = ovf_rate(1.0, &p0);
	mr_putll(1, "slack_div");
	rc = mr_commit();
	pc = mr_cpu(1, "periods");
	mr_sleep(0.1);
	r1 = ovf_rate(1.0, &p1);
	mr_stop(h);
	mr_rmmod();
	result("live-commit-slack",
	       !rc && pc >= p0 && r0 >= 1.0 && r1 <= r0 / 4,
	       "page faults, guarantee 160: slack_div 8 -> 1 commit rc=%d: cpu1 "
	       "periods %lld -> %lld at the commit (no reset), overflows per "
	       "period %.2f -> %.2f (granule 20 -> 160)", rc, p0, pc, r0, r1);
}

/*
 * A budgets-only commit applies live; an event change re-creates.  cpu1's
 * periods are 10 ms of cpu-clock (ns) with a 5 ms guarantee, so a hog
 * there is held in every period.
 */
static int do_live(char **args)
{
	const long long nb = 3000000;
	long long p0, t0, pc, tc, pm = -1, p1, t1, e1, b = 0;
	char err[256];
	pid_t h;
	int rc, i;

	ko = args[0];
	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_event=cpu-clock "
		       "read_budget=5000000,5000000 platform_read=20000000");
	if (rc) {
		result("live-commit-budgets", 0, "insmod rc=%d", rc);
		result("live-commit-events", 0, "insmod rc=%d", rc);
		return failed;
	}
	h = mr_hog(1, 30);
	mr_sleep(1.0);
	p0 = mr_cpu(1, "periods");
	t0 = mr_cpu(1, "throttles");
	mr_putll(nb, "cpu1/read_guaranteed");
	rc = mr_commit();
	pc = mr_cpu(1, "periods");
	tc = mr_cpu(1, "throttles");
	for (i = 0; i < 200; i++) {
		long long p = mr_cpu(1, "periods");

		b = mr_cpu(1, "read_budget");
		if (b == nb) {
			pm = p;
			break;
		}
		mr_sleep(0.01);
	}
	mr_sleep(0.5);
	p1 = mr_cpu(1, "periods");
	t1 = mr_cpu(1, "throttles");
	e1 = mr_cpu(1, "errors");
	mr_gets(err, sizeof(err), "error");
	result("live-commit-budgets",
	       !rc && pc >= p0 && tc >= t0 && p1 > pc && t1 > tc && pm >= 0 &&
	       pm - pc <= 2 && !e1 && !strcmp(err, "none"),
	       "commit rc=%d: cpu1 periods %lld -> %lld at commit -> %lld, "
	       "throttles %lld -> %lld -> %lld, read_budget %lld (want %lld) "
	       "seen %lld periods after the commit, errors %lld, error='%s'",
	       rc, p0, pc, p1, t0, tc, t1, b, nb, pm < 0 ? -1 : pm - pc, e1,
	       err);

	mr_put("page-faults", "read_event");
	rc = mr_commit();
	pc = mr_cpu(1, "periods");
	mr_sleep(0.3);
	result("live-commit-events",
	       !rc && pc < p1 && mr_cpu(1, "running") == 1,
	       "read_event cpu-clock -> page-faults, commit rc=%d: cpu1 periods "
	       "%lld before, %lld right after (reset), running %lld", rc, p1,
	       pc, mr_cpu(1, "running"));
	mr_stop(h);
	mr_rmmod();
	check_live_slack();
	return failed;
}

/*
 * cpu1's counters cannot be created when it comes online (raw:0x11 on a
 * guest without a PMU, staged while it was offline, so commit's probe of
 * online CPUs does not see it).
 */
static int do_failed(char **args)
{
	struct mr_left l;
	long long ce, run;
	char err[256];
	pid_t h0, h1;
	int rc, r0, r1;

	ko = args[0];
	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_budget=20,20 "
		       "platform_read=80 share=1");
	if (rc) {
		result("cpu-counters-failed", 0, "insmod rc=%d", rc);
		result("cpu-counters-retry", 0, "insmod rc=%d", rc);
		return failed;
	}
	h0 = mr_hog(0, 30);
	h1 = mr_hog(1, 30);
	r0 = mr_set_online(1, 0);
	mr_put("raw:0x11", "cpu1/read_event");
	rc = mr_commit();
	r1 = mr_set_online(1, 1);
	mr_sleep(0.5);
	ce = mr_cpu(1, "counter_error");
	run = mr_cpu(1, "running");
	mr_gets(err, sizeof(err), "error");
	l = mr_left_out();
	result("cpu-counters-failed",
	       !r0 && !r1 && !rc && ce > 0 && run == 0 && l.logged &&
	       strstr(l.msg, "raw:0x11") != NULL && l.th[1] > l.th[0] &&
	       l.sh[1] > l.sh[0],
	       "cpu1 offline rc=%d, cpu1/read_event raw:0x11 committed rc=%d, "
	       "online rc=%d: cpu1 counter_error %lld running %lld, logged "
	       "error '%s' (error now '%s'); cpu0 throttles %lld -> %lld, "
	       "read_shared %lld -> %lld",
	       r0, rc, r1, ce, run, l.msg, err, l.th[0], l.th[1], l.sh[0],
	       l.sh[1]);

	mr_put("default", "cpu1/read_event");
	rc = mr_commit();
	mr_sleep(0.3);
	ce = mr_cpu(1, "counter_error");
	run = mr_cpu(1, "running");
	mr_gets(err, sizeof(err), "error");
	result("cpu-counters-retry", !rc && ce == 0 && run == 1,
	       "cpu1/read_event default, commit rc=%d: counter_error %lld "
	       "running %lld error='%s'", rc, ce, run, err);
	mr_stop(h0);
	mr_stop(h1);
	mr_rmmod();
	return failed;
}

#define RATE "/proc/sys/kernel/perf_event_max_sample_rate"

/* Load with @params; on success unload.  The insmod status. */
static int try_load(const char *params)
{
	int rc = mr_insmod(ko, params);

	if (!rc)
		mr_rmmod();
	return rc;
}

/* The last memreg line of the kernel log, in @buf. */
static const char *last_msg(char *buf, size_t n)
{
	char *argv[] = { "/bin/sh", "-c", "dmesg | grep memreg: | tail -1 | cut -c1-220", NULL };

	if (mr_run(buf, n, argv) < 0)
		buf[0] = '\0';
	return buf;
}

/* Read kernel.perf_event_max_sample_rate into @rate ("" if unreadable). */
static void read_rate(char *rate, size_t n)
{
	FILE *f = fopen(RATE, "r");

	rate[0] = '\0';
	if (f) {
		if (!fgets(rate, (int)n, f))
			rate[0] = '\0';
		fclose(f);
	}
	rate[strcspn(rate, "\n")] = '\0';
}

/*
 * Regulate @cpu with 50 ms cpu-clock periods (one overflow each) while a
 * hog runs there for 3 s; its throttles and perf_throttled in @th, @pt.
 * The insmod status.
 */
static int run_held(int cpu, long long *th, long long *pt)
{
	char p[160];
	pid_t h;
	int rc;

	snprintf(p, sizeof(p), "cpus=%d period_us=50000 read_event=cpu-clock "
		 "read_budget=25000000 platform_read=50000000", cpu);
	rc = mr_insmod(ko, p);
	if (rc)
		return rc;
	h = mr_hog(cpu, 30);
	mr_sleep(3.0);
	*th = mr_cpu(cpu, "throttles");
	*pt = mr_cpu(cpu, "perf_throttled");
	mr_stop(h);
	mr_rmmod();
	return 0;
}

static int do_nohz(char **args)
{
	char rate[32], msg[256], msg1[256];
	int r_eq, r_ok, r1, r0, rm;
	long long th = -1, pt = -1, th1 = -1, pt1 = -1;

	ko = args[0];
	read_rate(rate, sizeof(rate));
	/* 500/s is 2 per tick at HZ 250; sharing makes it 2 per period */
	mr_write(RATE, "500");
	r_eq = try_load("cpus=0 period_us=10000 read_event=cpu-clock "
			"read_budget=5000000 platform_read=20000000 share=1");
	last_msg(msg, sizeof(msg));
	r_ok = try_load("cpus=0 period_us=10000 read_event=cpu-clock "
			"read_budget=5000000 platform_read=20000000");
	result("rate-tick-equal", r_eq != 0 && r_ok == 0,
	       "max_sample_rate 500 (2 per tick): 2 interrupts per period "
	       "(share=1) insmod rc=%d '%s'; 1 per period rc=%d", r_eq, msg,
	       r_ok);

	/* 2500/s: 10 per tick, 20 interrupts per second at 50 ms periods */
	mr_write(RATE, "2500");
	r1 = run_held(1, &th1, &pt1);
	last_msg(msg1, sizeof(msg1));
	r0 = try_load("cpus=0 period_us=50000 read_event=cpu-clock "
		      "read_budget=25000000 platform_read=50000000");
	rm = try_load("cpus=1 period_us=50000 read_event=cpu-clock "
		      "read_budget=25000000 platform_read=50000000 monitor=1");
	result("nohz-rate-refused",
	       r1 != 0 && strstr(msg1, "nohz_full") != NULL && r0 == 0 && !rm,
	       "max_sample_rate 2500, 50 ms cpu-clock periods: on nohz_full "
	       "cpu1 insmod rc=%d '%s' (if loaded, held 3 s: throttles %lld "
	       "perf_throttled %lld); on cpu0 rc=%d; cpu1 monitor-only rc=%d",
	       r1, msg1, th1, pt1, r0, rm);

	r0 = run_held(0, &th, &pt);
	result("nohz-accepted-runs", !r0 && th > 0 && pt == 0,
	       "the same on housekeeping cpu0 (accepted, rc=%d), hog held 3 s: "
	       "throttles %lld perf_throttled %lld", r0, th, pt);
	mr_write(RATE, rate[0] ? rate : "100000");
	return failed;
}

int main(int argc, char **argv)
{
	static const struct mr_cmd cmds[] = {
		{ "live", 1, "MODULE", do_live },
		{ "failed", 1, "MODULE", do_failed },
		{ "nohz", 1, "MODULE", do_nohz },
	};

	return mr_dispatch(cmds, sizeof(cmds) / sizeof(cmds[0]), argc, argv);
}
