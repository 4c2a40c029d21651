/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodfail - guest-side checks of how memreg.ko changes its configuration
 * and copes with counters it cannot have (x86 QEMU groups "hotplug" and
 * "nohz"): loads and unloads /memreg.ko itself, runs /pfload hogs, reads
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
 *   kmodfail excl       (arm64 group pcpu)
 *   commit-keeps-old     a pinned exclusive CPU_CYCLES group opened on
 *                        cpu1 takes its PMU; a commit that gives cpu1 the
 *                        global raw:0x11 (commit's probe on master cpu0
 *                        passes) cannot create cpu1's counter: it is
 *                        refused naming cpu 1, and cpu0's periods go on
 *                        counting from where they were (the old counters
 *                        kept regulating, nothing reset)
 *   commit-after-release the group closed, the same commit succeeds and
 *                        cpu1 counts
 *
 *   kmodfail held       (arm64 group pcpu)
 *   cpu-counters-held    share on, cpu0 spinning at a quarter of a
 *                        period's cycles; cpu1 offline, and a child opens
 *                        a pinned exclusive CPU_CYCLES group on cpu1 as
 *                        soon as it is back, racing memreg's hotplug work
 *                        for the PMU: when the group got there first, cpu1
 *                        is not regulated (running 0), counter_error 16
 *                        (EBUSY), the reason in the kernel log, cpu0 still
 *                        granted spare budget (cpu1 out of "every CPU
 *                        throttled"); when memreg did, it must regulate
 *                        cpu1 and the cycle is tried again (at most 6)
 *   cpu-counters-held-retry the group closed, offline and online again:
 *                        cpu1 regulated, counter_error 0
 *   cpu-counters-held-master the same with cpu1 the master CPU (reclaim
 *                        on): its period timer cannot carry the tick, so
 *                        the tick timer does: master_timer 1, ticks go on
 *
 *   kmodfail [-k MODULE] live|failed|nohz|excl|held
 *
 * Exit status: 0 when every check passed, 1 otherwise, 2 on bad usage.
 * Linked statically, with checklib, for the initramfs.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "checklib.h"

static const char *ko = "/memreg.ko";
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
static void check_live(void)
{
	const long long nb = 3000000;
	long long p0, t0, pc, tc, pm = -1, p1, t1, e1, b = 0;
	char err[256];
	pid_t h;
	int rc, i;

	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_event=cpu-clock "
		       "read_budget=5000000,5000000 platform_read=20000000");
	if (rc) {
		result("live-commit-budgets", 0, "insmod rc=%d", rc);
		result("live-commit-events", 0, "insmod rc=%d", rc);
		return;
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
}

/*
 * cpu1's counters cannot be created when it comes online (raw:0x11 on a
 * guest without a PMU, staged while it was offline, so commit's probe of
 * online CPUs does not see it).
 */
static void check_failed(void)
{
	char *grep_argv[] = { "/bin/sh", "-c", "dmesg | grep 'cpu 1 is not "
			      "regulated' | tail -1 | cut -c1-200", NULL };
	long long ce, run, s0, s1, th0, th1;
	char err[256], msg[256];
	pid_t h0, h1;
	int rc, r0, r1, logged;

	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_budget=20,20 "
		       "platform_read=80 share=1");
	if (rc) {
		result("cpu-counters-failed", 0, "insmod rc=%d", rc);
		result("cpu-counters-retry", 0, "insmod rc=%d", rc);
		return;
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
	/* a later report (a late master tick) may replace error: the log keeps it */
	logged = mr_run(msg, sizeof(msg), grep_argv) == 0;
	s0 = mr_cpu(0, "read_shared");
	th0 = mr_cpu(0, "throttles");
	mr_sleep(1.0);
	s1 = mr_cpu(0, "read_shared");
	th1 = mr_cpu(0, "throttles");
	result("cpu-counters-failed",
	       !r0 && !r1 && !rc && ce > 0 && run == 0 && logged &&
	       strstr(msg, "raw:0x11") != NULL && th1 > th0 && s1 > s0,
	       "cpu1 offline rc=%d, cpu1/read_event raw:0x11 committed rc=%d, "
	       "online rc=%d: cpu1 counter_error %lld running %lld, logged "
	       "error '%s' (error now '%s'); cpu0 throttles %lld -> %lld, "
	       "read_shared %lld -> %lld",
	       r0, rc, r1, ce, run, msg, err, th0, th1, s0, s1);

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

static void check_nohz(void)
{
	char rate[32], msg[256], msg1[256];
	int r_eq, r_ok, r1, r0, rm;
	long long th = -1, pt = -1, th1 = -1, pt1 = -1;

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
}

/*
 * arm64: a pinned exclusive group of CPU_CYCLES on cpu1 takes its PMU, so
 * no other pinned counter can be scheduled there; commit's probe runs on
 * the master CPU (cpu0), so only the switch itself finds out.
 */
static void check_excl(void)
{
	struct perf_event_attr attr;
	long long p0, p1, p2, ev0, ev1, t[3] = { 0, 0, 0 };
	char err[256];
	int rc, fd;

	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_event=raw:0x11 "
		       "read_event_cpus=1:none read_budget=100000000,100000000 "
		       "platform_read=1000000000");
	if (rc) {
		result("commit-keeps-old", 0, "insmod rc=%d", rc);
		result("commit-after-release", 0, "insmod rc=%d", rc);
		return;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = 0x11;
	attr.pinned = 1;
	attr.exclusive = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = (int)syscall(__NR_perf_event_open, &attr, -1, 1, -1, 0);
	mr_sleep(0.5);
	if (fd >= 0 && read(fd, t, sizeof(t)) != (ssize_t)sizeof(t))
		t[2] = -1;
	p0 = mr_cpu(0, "periods");
	mr_put("default", "cpu1/read_event");
	rc = mr_commit();
	p1 = mr_cpu(0, "periods");
	mr_gets(err, sizeof(err), "error");
	mr_sleep(0.3);
	p2 = mr_cpu(0, "periods");
	result("commit-keeps-old",
	       fd >= 0 && t[2] > 0 && rc != 0 && p1 >= p0 && p2 > p1 &&
	       strstr(err, "cpu 1: cannot create") != NULL &&
	       mr_cpu(0, "running") == 1,
	       "exclusive pinned group on cpu1 (fd %d, running %lld ns), "
	       "cpu1/read_event default: commit rc=%d error='%s'; cpu0 periods "
	       "%lld -> %lld at the commit -> %lld, running %lld", fd, t[2], rc,
	       err, p0, p1, p2, mr_cpu(0, "running"));
	if (fd >= 0)
		close(fd);
	rc = mr_commit();
	ev0 = mr_cpu(1, "read_events");
	mr_sleep(0.3);
	ev1 = mr_cpu(1, "read_events");
	result("commit-after-release", !rc && ev1 > ev0,
	       "group closed, commit again rc=%d: cpu1 read_events %lld -> %lld",
	       rc, ev0, ev1);
	mr_rmmod();
}

/* perf_event_open() of a pinned exclusive CPU_CYCLES group on @cpu. */
static int open_exclusive(int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = 0x11;
	attr.pinned = 1;
	attr.exclusive = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, 0);
}

/*
 * A child on cpu0 that opens the exclusive group on cpu1 as soon as perf
 * has cpu1 back (-ENODEV while it is offline) and holds it until killed.
 * Perf's context comes up a few online steps before memreg's hotplug work
 * creates its counters, but which of the two reaches the PMU first is the
 * scheduler's choice.  The group's own state says who did: perf installs
 * it on cpu1 before perf_event_open() returns, and a pinned group that
 * found the PMU taken is in error, which read() shows as 0 bytes.  Writes
 * to @wfd 'y' when the group has run on cpu1 for 0.1 s, 'n' when memreg's
 * counter was there first, '?' when the group could not be opened in 10 s.
 */
static pid_t holder(int wfd)
{
	long long end = mr_now_ns() + 10000000000LL, t[3] = { 0, 0, 0 };
	pid_t pid = fork();
	char got = '?';
	int fd = -1;

	if (pid)
		return pid;
	mr_pin(0);
	while (fd < 0 && mr_now_ns() < end)
		fd = open_exclusive(1);
	if (fd >= 0) {
		mr_sleep(0.1);
		got = read(fd, t, sizeof(t)) == (ssize_t)sizeof(t) && t[2] > 0 ?
		      'y' : 'n';
	}
	if (write(wfd, &got, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* Tries of held_cycle() for the holder to reach cpu1's PMU first. */
#define HELD_TRIES 6

/*
 * cpu1 offline, then online with a holder() racing memreg for its PMU:
 * the holder's verdict, the holder in *@h (the caller kills it), the
 * offline and online results in @r[0] and @r[1].
 */
static char held_cycle(pid_t *h, int r[2])
{
	char got = '?';
	int p[2];

	*h = -1;
	if (pipe(p))
		return '?';
	r[0] = mr_set_online(1, 0);
	*h = holder(p[1]);
	r[1] = mr_set_online(1, 1);
	if (read(p[0], &got, 1) != 1)
		got = '?';
	close(p[0]);
	close(p[1]);
	return got;
}

/* Stop the holder of held_cycle(), giving cpu1's PMU back. */
static void held_release(pid_t h)
{
	if (h > 0) {
		kill(h, SIGKILL);
		mr_reap(h);
	}
}

/*
 * arm64: cpu1's PMU taken by a pinned exclusive group when it comes back
 * online, so memreg cannot create its counter there.  A cycle the holder
 * lost is checked too (memreg must then regulate cpu1) and tried again.
 */
static void check_held(void)
{
	char *grep_argv[] = { "/bin/sh", "-c", "dmesg | grep 'cpu 1 is not "
			      "regulated' | tail -1 | cut -c1-200", NULL };
	char *spin_argv[] = { "/spin", "-c", "0", "-t", "20", NULL };
	long long ce, run, s0, s1, th0, th1;
	int rc, r[2], r2, r3, logged, tries;
	char msg[256] = "", got;
	pid_t h, sp;

	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_event=raw:0x11 "
		       "read_budget=2000000,2000000 platform_read=8000000 share=1");
	if (rc) {
		result("cpu-counters-held", 0, "insmod rc=%d", rc);
		result("cpu-counters-held-retry", 0, "insmod rc=%d", rc);
		return;
	}
	sp = mr_spawn(NULL, spin_argv);
	for (tries = 1;; tries++) {
		got = held_cycle(&h, r);
		mr_sleep(0.5);
		ce = mr_cpu(1, "counter_error");
		run = mr_cpu(1, "running");
		if (got != 'n' || tries == HELD_TRIES || ce != 0 || run != 1)
			break;
		held_release(h);
	}
	logged = mr_run(msg, sizeof(msg), grep_argv) == 0;
	s0 = mr_cpu(0, "read_shared");
	th0 = mr_cpu(0, "throttles");
	mr_sleep(1.0);
	s1 = mr_cpu(0, "read_shared");
	th1 = mr_cpu(0, "throttles");
	result("cpu-counters-held",
	       !r[0] && !r[1] && got == 'y' && ce == 16 && run == 0 && logged &&
	       strstr(msg, "error -16") != NULL && th1 > th0 && s1 > s0,
	       "cpu1 offline rc=%d, online rc=%d with its PMU held by a pinned "
	       "exclusive group (holder '%c' on try %d of %d): cpu1 "
	       "counter_error %lld running %lld, logged error '%s'; cpu0 "
	       "throttles %lld -> %lld, read_shared "
	       "%lld -> %lld", r[0], r[1], got, tries, HELD_TRIES, ce, run, msg,
	       th0, th1, s0, s1);
	held_release(h);
	r2 = mr_set_online(1, 0);
	r3 = mr_set_online(1, 1);
	mr_sleep(0.5);
	ce = mr_cpu(1, "counter_error");
	run = mr_cpu(1, "running");
	result("cpu-counters-held-retry", !r2 && !r3 && ce == 0 && run == 1,
	       "group closed, cpu1 offline rc=%d and online rc=%d again: "
	       "counter_error %lld running %lld", r2, r3, ce, run);
	mr_stop(sp);
	mr_rmmod();
}

/*
 * arm64: the same with cpu1 the master CPU (reclaim on, so it ticks): its
 * period timer cannot carry the tick while it has no counter, so the
 * master's own tick timer must.
 */
static void check_held_master(void)
{
	long long ce, k0, k1, s0, s1, tm;
	int rc, r[2], tries;
	char got;
	pid_t h;

	rc = mr_insmod(ko, "cpus=0,1 master_cpu=1 period_us=10000 "
		       "read_event=raw:0x11 read_budget=2000000,2000000 "
		       "platform_read=8000000 reclaim=1");
	if (rc) {
		result("cpu-counters-held-master", 0, "insmod rc=%d", rc);
		return;
	}
	for (tries = 1;; tries++) {
		got = held_cycle(&h, r);
		mr_sleep(0.5);
		ce = mr_cpu(1, "counter_error");
		if (got != 'n' || tries == HELD_TRIES || ce != 0 ||
		    mr_cpu(1, "running") != 1)
			break;
		held_release(h);
	}
	tm = mr_get("master_timer");
	k0 = mr_get("master_ticks");
	s0 = mr_get("master_skipped");
	mr_sleep(1.0);
	k1 = mr_get("master_ticks");
	s1 = mr_get("master_skipped");
	result("cpu-counters-held-master",
	       !r[0] && !r[1] && got == 'y' && ce == 16 && tm == 1 && k1 - k0 >= 20,
	       "master cpu1 offline rc=%d, online rc=%d with its PMU held (holder "
	       "'%c' on try %d of %d): counter_error %lld, master_timer %lld, "
	       "master_ticks %lld -> %lld in 1 s of 10 ms periods (skipped "
	       "%lld -> %lld)", r[0], r[1], got, tries, HELD_TRIES, ce, tm, k0,
	       k1, s0, s1);
	held_release(h);
	mr_rmmod();
}

/* The sub-commands: each runs its checks in order. */
static const struct {
	const char *name;
	void (*check[2])(void);
} modes[] = {
	{ "live", { check_live } },
	{ "failed", { check_failed } },
	{ "nohz", { check_nohz } },
	{ "excl", { check_excl } },
	{ "held", { check_held, check_held_master } },
};

int main(int argc, char **argv)
{
	size_t i, k;
	int opt;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "k:")) != -1) {
		switch (opt) {
		case 'k': ko = optarg; break;
		default: goto usage;
		}
	}
	for (i = 0; optind == argc - 1 && i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(argv[optind], modes[i].name))
			continue;
		for (k = 0; k < 2 && modes[i].check[k]; k++)
			modes[i].check[k]();
		return failed;
	}
usage:
	fprintf(stderr, "usage: kmodfail [-k MODULE] live|failed|nohz|excl|held\n");
	return 2;
}
