/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smp4 - guest-side checks of memreg on four CPUs (the x86 QEMU group
 * "smp4", booted with -smp 4): every other group runs on two, where
 * "every CPU" and "the other CPU" coincide.  Loads and unloads /memreg.ko
 * itself, runs page-fault hogs (/pfload) on every CPU, and prints one
 * "MEMREG-CHECK <name> PASS|FAIL <detail>" line per check:
 *
 *   smp4-all-cpus        cpus=all: four regulated CPUs, each period
 *                        timer accounts for every 50 ms grid period of a
 *                        3 s window (periods + overruns), +-3 and 10 %
 *   smp4-master-rides    master CPU 3 (regulated): /proc/timer_list shows
 *                        its period timer a quarter period past the grid
 *                        and CPUs 0-2 on it, no tick timer; ticks >= 0.95
 *                        x CPU 3's periods
 *   smp4-throttle-share  hogs on all four CPUs at 10 page faults per
 *                        period each (ceiling 30, platform 200, share=1):
 *                        each CPU throttled in >= 0.5 of its periods and
 *                        granted spare budget (read_shared > 0) on each
 *   smp4-hotplug-share   CPU 1 offline for 1.5 s while the others hog:
 *                        CPUs 0, 2 and 3 keep their period timers running
 *                        (periods + overruns >= 0.8 of the wall periods)
 *                        and are still granted spare budget; back online,
 *                        CPU 1's periods advance
 *   smp4-master-offline  master CPU 3 offline for 1 s: the others keep
 *                        regulating (periods + overruns >= 0.8 of the
 *                        wall periods), the ticks it missed are counted in
 *                        master_skipped and named in error; back online,
 *                        it ticks again on its shifted period timer
 *   smp4-unload          rmmod works, /sys/kernel/memreg is gone, no
 *                        memreg thread is left
 *
 *   smp4 [-k MODULE]
 *
 * Bounds allow for TCG on a loaded 2-core host: four vCPUs share two host
 * cores, so a vCPU is descheduled for tens of ms at times; 50 ms periods
 * keep that within one period, and periods a stall skips count as
 * overruns, which every check of a CPU's periods includes (a loop run at
 * host load 4 saw two vCPUs run their timers in 39 of 54 wall periods).
 * Exit status: 0 when every check passed, 1 otherwise, 2 on bad usage.
 * Linked statically, with checklib, for the initramfs.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checklib.h"

#define NCPU	4
#define P_NS	50000000LL	/* period of every check */

static const char *ko = "/memreg.ko";
static int failed;

/* mr_check() that remembers a failure for the exit status */
#define result(name, pass, ...) \
	(failed |= !mr_check(name, pass, __VA_ARGS__))

/* Start /pfload on every CPU for @secs seconds into @pid. */
static void hogs(pid_t pid[NCPU], int secs)
{
	for (int c = 0; c < NCPU; c++) {
		char cs[8], ts[16];
		char *argv[] = { "/pfload", "-c", cs, "-t", ts, NULL };

		snprintf(cs, sizeof(cs), "%d", c);
		snprintf(ts, sizeof(ts), "%d", secs);
		pid[c] = mr_spawn(NULL, argv);
	}
}

static void stop_hogs(pid_t pid[NCPU])
{
	for (int c = 0; c < NCPU; c++)
		if (pid[c] > 0) {
			kill(pid[c], SIGKILL);
			mr_reap(pid[c]);
		}
}

/**
 * struct snap - per-CPU statistics at one instant
 * @t: CLOCK_MONOTONIC, ns
 * @periods, @overruns, @throttles, @shared: cpuN/ files
 * @ticks, @skipped: master_ticks, master_skipped
 */
struct snap {
	long long t;
	long long periods[NCPU], overruns[NCPU], throttles[NCPU], shared[NCPU];
	long long ticks, skipped;
};

static void snap(struct snap *s)
{
	s->t = mr_now_ns();
	for (int c = 0; c < NCPU; c++) {
		s->periods[c] = mr_cpu(c, "periods");
		s->overruns[c] = mr_cpu(c, "overruns");
		s->throttles[c] = mr_cpu(c, "throttles");
		s->shared[c] = mr_cpu(c, "read_shared");
	}
	s->ticks = mr_get("master_ticks");
	s->skipped = mr_get("master_skipped");
}

/* Wall-clock periods between @a and @b. */
static double wall(const struct snap *a, const struct snap *b)
{
	return (double)(b->t - a->t) / (double)P_NS;
}

/*
 * smp4-all-cpus: with no hog, every regulated CPU's timer accounts for
 * every grid period of the window: periods + overruns = wall periods
 * within 3 + 10 % (the reads are not simultaneous; a stalled vCPU's
 * skipped periods are overruns).
 */
static void check_all_cpus(const struct snap *a, const struct snap *b)
{
	char d[600];
	size_t k = 0;
	int ok = 1;
	double w = wall(a, b);

	for (int c = 0; c < NCPU; c++) {
		long long p = b->periods[c] - a->periods[c];
		long long g = p + b->overruns[c] - a->overruns[c];

		ok &= mr_cpu(c, "regulated") == 1 && p > 0 &&
		      g >= w * 0.9 - 3 && g <= w * 1.1 + 3;
		k += (size_t)snprintf(d + k, sizeof(d) - k, " cpu%d: regulated=%lld "
				      "periods=%lld overruns=%lld", c,
				      mr_cpu(c, "regulated"), p,
				      b->overruns[c] - a->overruns[c]);
	}
	result("smp4-all-cpus", ok, "wall periods=%.1f;%s", w, d);
}

/*
 * smp4-master-rides: the master CPU 3's period timer carries the tick a
 * quarter period past the grid; CPUs 0-2 on it; no tick timer; ticks
 * once per period of CPU 3.
 */
static void check_rides(const struct snap *a, const struct snap *b)
{
	struct mr_timers t[NCPU], m[NCPU];
	long long ticks = b->ticks - a->ticks, p3 = b->periods[3] - a->periods[3];
	char d[600];
	size_t k = 0;
	int rc = 0, ok = 1;

	for (int c = 0; c < NCPU; c++) {
		rc |= mr_timers_want(c, "mrk_timer_fn", P_NS, 1, &t[c]) |
		      mr_timers(c, "mrk_master_tick_fn", P_NS, &m[c]);
		ok &= t[c].n == 1 && !m[c].n &&
		      t[c].phase == (c == 3 ? P_NS / 4 : 0);
		k += (size_t)snprintf(d + k, sizeof(d) - k, " cpu%d: period timers "
				      "%d phase %lld, tick timers %d;", c, t[c].n,
				      t[c].phase, m[c].n);
	}
	result("smp4-master-rides", !rc && ok && p3 > 0 && ticks >= 0.95 * p3,
	       "timer_list (rc=%d, want phase %lld on cpu3, 0 elsewhere):%s "
	       "ticks=%lld cpu3 periods=%lld (ticks >= 0.95 x periods)", rc,
	       P_NS / 4, d, ticks, p3);
}

/*
 * smp4-throttle-share: every CPU hogs at a 10-fault guarantee: each is
 * throttled in at least half of its periods and gets spare grants.
 */
static void check_throttle_share(const struct snap *a, const struct snap *b)
{
	char d[600];
	size_t k = 0;
	int ok = 1;

	for (int c = 0; c < NCPU; c++) {
		long long p = b->periods[c] - a->periods[c];
		long long t = b->throttles[c] - a->throttles[c];
		long long s = b->shared[c] - a->shared[c];

		ok &= p > 0 && t >= 0.5 * p && s > 0;
		k += (size_t)snprintf(d + k, sizeof(d) - k, " cpu%d: periods=%lld "
				      "throttles=%lld shared=%lld;", c, p, t, s);
	}
	result("smp4-throttle-share", ok, "over %.1f wall periods (throttles >= "
	       "0.5 x periods, shared > 0):%s", wall(a, b), d);
}

/**
 * struct away - a CPU taken offline for a window and brought back
 * @a, @b: snapshots at the start and end of the window it was away
 * @c: a snapshot 1 s after it came back
 * @off, @on: the offline and online writes (0 or -errno)
 */
struct away {
	struct snap a, b, c;
	int off, on;
};

/* Take @cpu offline, snapshot a window of @secs, bring it back. */
static void away(int cpu, double secs, struct away *w)
{
	w->off = mr_set_online(cpu, 0);
	mr_sleep(0.2);
	snap(&w->a);
	mr_sleep(secs);
	snap(&w->b);
	w->on = mr_set_online(cpu, 1);
	mr_sleep(1.0);
	snap(&w->c);
}

/*
 * smp4-hotplug-share: CPU 1 offline while all hog; the others keep their
 * periods and still get grants (sharing counts online CPUs only); CPU 1
 * resumes when back.
 */
static void check_hotplug(void)
{
	struct away x;
	long long back;
	char d[600];
	size_t k = 0;
	int ok = 1;
	double w;

	away(1, 1.5, &x);
	w = wall(&x.a, &x.b);
	for (int i = 0; i < NCPU; i++) {
		long long p = x.b.periods[i] - x.a.periods[i];
		long long o = x.b.overruns[i] - x.a.overruns[i];
		long long s = x.b.shared[i] - x.a.shared[i];

		if (i == 1)
			continue;
		ok &= p + o >= 0.8 * w && s > 0;
		k += (size_t)snprintf(d + k, sizeof(d) - k, " cpu%d: periods=%lld "
				      "overruns=%lld shared=%lld;", i, p, o, s);
	}
	back = x.c.periods[1] - x.b.periods[1];
	result("smp4-hotplug-share", !x.off && !x.on && ok && back > 0,
	       "cpu1 offline (rc=%d) for %.1f wall periods:%s (periods + "
	       "overruns >= 0.8 x wall, shared > 0); online (rc=%d): cpu1 "
	       "periods +%lld (> 0)", x.off, w, d, x.on, back);
}

/*
 * smp4-master-offline: master CPU 3 away for 1 s: regulation on CPUs 0-2
 * goes on, the missed ticks are counted and reported; back online it
 * ticks again from its shifted period timer.
 */
static void check_master_offline(void)
{
	struct away x;
	struct mr_timers t;
	char err[256], d[400];
	size_t k = 0;
	int rc, ok = 1;
	double w;

	away(3, 1.0, &x);
	rc = mr_timers_want(3, "mrk_timer_fn", P_NS, 1, &t);
	mr_gets(err, sizeof(err), "error");
	w = wall(&x.a, &x.b);
	for (int i = 0; i < 3; i++) {
		long long p = x.b.periods[i] - x.a.periods[i];
		long long o = x.b.overruns[i] - x.a.overruns[i];

		ok &= p + o >= 0.8 * w;
		k += (size_t)snprintf(d + k, sizeof(d) - k, " cpu%d periods=%lld "
				      "overruns=%lld;", i, p, o);
	}
	result("smp4-master-offline",
	       !x.off && !x.on && ok && x.b.ticks == x.a.ticks &&
	       x.c.skipped - x.a.skipped >= w - 3 && x.c.ticks > x.b.ticks && !rc &&
	       t.n == 1 && t.phase == P_NS / 4 && strstr(err, "ticks skipped"),
	       "cpu3 offline (rc=%d) for %.1f wall periods:%s ticks %lld->%lld "
	       "(none while away); online (rc=%d): master_skipped +%lld (>= "
	       "%.0f), ticks %lld->%lld, cpu3 period timer %d at phase %lld "
	       "(want %lld); error='%s'", x.off, w, d, x.a.ticks, x.b.ticks,
	       x.on, x.c.skipped - x.a.skipped, w - 3, x.b.ticks, x.c.ticks,
	       t.n, t.phase, P_NS / 4, err);
}

int main(int argc, char **argv)
{
	pid_t pid[NCPU];
	struct snap a, b;
	int opt, rc, gone;

	while ((opt = getopt(argc, argv, "k:")) != -1) {
		if (opt != 'k') {
			fprintf(stderr, "usage: smp4 [-k MODULE]\n");
			return 2;
		}
		ko = optarg;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) != NCPU) {
		result("smp4-all-cpus", 0, "%ld CPUs online, the group needs %d",
		       sysconf(_SC_NPROCESSORS_ONLN), NCPU);
		return 1;
	}

	rc = mr_insmod(ko, "cpus=all master_cpu=3 period_us=50000 lms=1 reclaim=1 "
		  "share=1 read_budget=10 read_max=30 platform_read=200");
	if (rc) {
		result("smp4-all-cpus", 0, "insmod rc=%d", rc);
		return 1;
	}
	mr_sleep(0.3);
	snap(&a);
	mr_sleep(3);
	snap(&b);
	check_all_cpus(&a, &b);
	check_rides(&a, &b);
	mr_rmmod();

	/* sharing without LMS and reclaim: budgets stay at the guarantees */
	rc = mr_insmod(ko, "cpus=all master_cpu=3 period_us=50000 share=1 "
		  "read_budget=10 read_max=30 platform_read=200");
	if (rc) {
		result("smp4-throttle-share", 0, "insmod rc=%d", rc);
		return 1;
	}
	hogs(pid, 30);
	mr_sleep(0.5);
	snap(&a);
	mr_sleep(3);
	snap(&b);
	check_throttle_share(&a, &b);
	check_hotplug();
	check_master_offline();
	stop_hogs(pid);

	rc = mr_rmmod();
	mr_sleep(0.2);
	gone = access(MR_SYSFS, F_OK) != 0;
	result("smp4-unload", !rc && gone && mr_tasks("memreg") == 0,
	       "rmmod rc=%d, %s %s, memreg threads=%d", rc, MR_SYSFS,
	       gone ? "gone" : "still there", mr_tasks("memreg"));
	return failed;
}
