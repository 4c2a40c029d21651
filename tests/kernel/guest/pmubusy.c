/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmubusy - guest-side checks of memreg.ko on a CPU whose PMU another
 * perf user has taken (arm64 QEMU group "pcpu": a pinned exclusive
 * CPU_CYCLES group, which the emulated PMU counts): loads and unloads
 * MODULE itself, reads /sys/kernel/memreg and prints one "MEMREG-CHECK
 * <name> PASS|FAIL <detail>" line per check:
 *
 *   pmubusy excl        (arm64 group pcpu)
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
 *   pmubusy held        (arm64 group pcpu)
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
 *   pmubusy excl|held MODULE
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

static const char *ko;	/* MODULE */
static int failed;

#define result(name, pass, ...) \
	(failed |= !mr_check(name, pass, __VA_ARGS__))

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
 * arm64: a pinned exclusive group of CPU_CYCLES on cpu1 takes its PMU, so
 * no other pinned counter can be scheduled there; commit's probe runs on
 * the master CPU (cpu0), so only the switch itself finds out.
 */
static int do_excl(char **args)
{
	long long p0, p1, p2, ev0, ev1, t[3] = { 0, 0, 0 };
	char err[256];
	int rc, fd;

	ko = args[0];
	rc = mr_insmod(ko, "cpus=0,1 period_us=10000 read_event=raw:0x11 "
		       "read_event_cpus=1:none read_budget=100000000,100000000 "
		       "platform_read=1000000000");
	if (rc) {
		result("commit-keeps-old", 0, "insmod rc=%d", rc);
		result("commit-after-release", 0, "insmod rc=%d", rc);
		return failed;
	}
	fd = open_exclusive(1);
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
	return failed;
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
	char *spin_argv[] = { "/spin", "-c", "0", "-t", "20", NULL };
	int rc, r[2], r2, r3, tries;
	struct mr_left l;
	long long ce, run;
	pid_t h, sp;
	char got;

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
	l = mr_left_out();
	result("cpu-counters-held",
	       !r[0] && !r[1] && got == 'y' && ce == 16 && run == 0 && l.logged &&
	       strstr(l.msg, "error -16") != NULL && l.th[1] > l.th[0] &&
	       l.sh[1] > l.sh[0],
	       "cpu1 offline rc=%d, online rc=%d with its PMU held by a pinned "
	       "exclusive group (holder '%c' on try %d of %d): cpu1 "
	       "counter_error %lld running %lld, logged error '%s'; cpu0 "
	       "throttles %lld -> %lld, read_shared "
	       "%lld -> %lld", r[0], r[1], got, tries, HELD_TRIES, ce, run, l.msg,
	       l.th[0], l.th[1], l.sh[0], l.sh[1]);
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

static int do_held(char **args)
{
	ko = args[0];
	check_held();
	check_held_master();
	return failed;
}

int main(int argc, char **argv)
{
	static const struct mr_cmd cmds[] = {
		{ "excl", 1, "MODULE", do_excl },
		{ "held", 1, "MODULE", do_held },
	};

	return mr_dispatch(cmds, sizeof(cmds) / sizeof(cmds[0]), argc, argv);
}
