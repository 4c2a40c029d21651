/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mastertick - guest-side checks of memreg's master tick (the x86 QEMU
 * group "master"): loads and unloads /memreg.ko itself, runs a page-fault
 * hog (/pfload) where a check needs one, reads /sys/kernel/memreg and
 * prints one "MEMREG-CHECK <name> PASS|FAIL <detail>" line per check:
 *
 *   master-timer-armed      LMS on, master CPU 1 (regulated): a timer that
 *                           ticks is armed, ticks once per period of the
 *                           master CPU's own period timer, no master
 *                           thread exists
 *   master-rides-period     same load: /proc/timer_list shows the tick
 *                           riding CPU 1's period timer (mrk_timer_fn
 *                           expiring a quarter period past the grid, no
 *                           mrk_master_tick_fn anywhere) while CPU 0's
 *                           period timer sits on the grid
 *   master-unregulated-ticks LMS on, master CPU 0 not regulated (cpus=1):
 *                           the master's own tick timer on CPU 0, a
 *                           quarter period past the grid, ticks once per
 *                           period of CPU 1
 *   master-no-tick          LMS, reclaim and sharing off: no timer, no
 *                           tick, no thread; committing LMS on arms it,
 *                           committing it off again disarms it
 *   master-throttled-ticks  master CPU 0 regulated and throttled early in
 *                           every period by a hog: master_ticks >= 0.95 x
 *                           the master CPU's periods
 *   master-skipped-reported the master CPU offline for 0.5 s: the ticks it
 *                           missed are counted in master_skipped and named
 *                           in error
 *
 *   mastertick [-k MODULE] [-t SECONDS]
 *
 * SECONDS (default 8) is the window of master-throttled-ticks (160
 * periods); master-timer-armed watches half of it.
 *
 * What the tick ratio measures, and why so: under TCG the guest's clock
 * is the host's, and a loaded host leaves a vCPU unscheduled for tens of
 * milliseconds (about one CFS latency, ~24 ms, at a host load of 15 on 2
 * cores).  Grid periods that pass meanwhile are ticked by nothing, in
 * any design: they show up as cpuN/overruns of the CPU's own period timer
 * and as master_skipped.  So
 *  - "periods" are the master CPU's own period-timer expiries
 *    (cpuN/periods), a hard hrtimer on the same CPU, not the wall-clock
 *    count (printed beside it: under load it measures the host);
 *  - the period is 50 ms: a tick lands in the next period, and skips its
 *    own, when it fires more than 3/4 period late, so with 4 ms periods a
 *    stall of 3 ms already costs a tick (the period timer has the whole
 *    period): with 4 ms periods at a host load of 4-6 the ratio was
 *    0.96-0.98 against the master CPU's periods and 0.91-0.93 against
 *    the wall clock, and runs at a load of 15 saw 0.70-0.92.  37.5 ms is well above a host scheduling stall, and still far below
 *    the hold: a tick the throttle starved (a thread below the throttle's
 *    priority) would miss nearly every period;
 *  - master_ticks + master_skipped must account for every grid period of
 *    the window (period-timer expiries + overruns): no skip is silent.
 *
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

static const char *ko = "/memreg.ko";
static int failed;

/* mr_check() that remembers a failure for the exit status */
#define result(name, pass, ...) \
	(failed |= !mr_check(name, pass, __VA_ARGS__))

/**
 * struct snap - what the checks read at one instant
 * @t: CLOCK_MONOTONIC, ns
 * @ticks: master_ticks
 * @skipped: master_skipped
 * @periods: the master CPU's period-timer expiries
 * @overruns: grid periods the master CPU's period timer jumped over
 * @throttles: the master CPU's throttles
 * @held_ns: the master CPU's throttled time
 */
struct snap {
	long long t, ticks, skipped, periods, overruns, throttles, held_ns;
};

static void snap(struct snap *s, int cpu)
{
	s->t = mr_now_ns();
	s->ticks = mr_get("master_ticks");
	s->skipped = mr_get("master_skipped");
	s->periods = mr_cpu(cpu, "periods");
	s->overruns = mr_cpu(cpu, "overruns");
	s->throttles = mr_cpu(cpu, "throttles");
	s->held_ns = mr_cpu(cpu, "throttled_ns");
}

/*
 * Ticks over a window: the tick ratio against the master CPU's periods,
 * and the accounting identity ticks + skipped = grid periods of the
 * window (= periods + overruns of the master CPU's own timer), within
 * @slack for the reads not being simultaneous.  Fills @detail.
 */
static int ticks_ok(const struct snap *a, const struct snap *b, long long p_ns,
		    long long slack, char *detail, size_t len)
{
	long long ticks = b->ticks - a->ticks, skipped = b->skipped - a->skipped;
	long long periods = b->periods - a->periods;
	long long grid = periods + (b->overruns - a->overruns);
	double wall = (double)(b->t - a->t) / (double)p_ns;
	double ratio = periods > 0 ? (double)ticks / (double)periods : 0;
	long long gap = ticks + skipped - grid;

	snprintf(detail, len, "ticks=%lld master-cpu periods=%lld ratio=%.3f "
		 "(>= 0.95) skipped=%lld overruns=%lld ticks+skipped-grid=%lld "
		 "(|.| <= %lld) wall-clock periods=%.0f ticks/wall=%.3f",
		 ticks, periods, ratio, skipped, b->overruns - a->overruns, gap,
		 slack, wall, wall > 0 ? ticks / wall : 0);
	return periods > 0 && ratio >= 0.95 && gap <= slack && -gap <= slack;
}

/*
 * master-rides-period: with master CPU 1 regulated and a mode on, CPU 1's
 * period timer carries the tick: it expires a quarter period past the
 * grid, CPU 0's on the grid, and no CPU has the master's own tick timer.
 */
static void check_rides(long long p_ns)
{
	struct mr_timers m0, m1, t0, t1;
	int rc;

	rc = mr_timers_want(0, "mrk_timer_fn", p_ns, 1, &t0) |
	     mr_timers_want(1, "mrk_timer_fn", p_ns, 1, &t1) |
	     mr_timers(0, "mrk_master_tick_fn", p_ns, &m0) |
	     mr_timers(1, "mrk_master_tick_fn", p_ns, &m1);
	result("master-rides-period",
	       !rc && t0.n == 1 && t1.n == 1 && !m0.n && !m1.n &&
	       t0.phase == 0 && t1.phase == p_ns / 4,
	       "timer_list (rc=%d): period timers cpu0 %d phase %lld ns, cpu1 "
	       "%d phase %lld ns (want 0 and %lld); master tick timers "
	       "cpu0 %d cpu1 %d (want 0)", rc, t0.n, t0.phase, t1.n, t1.phase,
	       p_ns / 4, m0.n, m1.n);
}

/* master-timer-armed: LMS on, master on CPU 1, nobody throttled. */
static void check_timer_armed(double secs)
{
	char d[400];
	struct snap a, b;
	long long timer;
	int rc, ok;

	rc = mr_insmod(ko, "cpus=0,1 master_cpu=1 period_us=50000 lms=1");
	if (rc) {
		result("master-timer-armed", 0, "insmod lms=1 master_cpu=1 rc=%d", rc);
		return;
	}
	mr_sleep(0.3);
	timer = mr_get("master_timer");
	snap(&a, 1);
	mr_sleep(secs);
	snap(&b, 1);
	ok = ticks_ok(&a, &b, 50000000, 3, d, sizeof(d));
	result("master-timer-armed", ok && timer == 1 && mr_tasks("memreg_master") == 0,
	       "master_timer=%lld master threads=%d %s", timer, mr_tasks("memreg_master"), d);
	check_rides(50000000);
	mr_rmmod();
}

/*
 * master-unregulated-ticks: LMS on, master CPU 0 outside cpus=: the
 * master's own tick timer on CPU 0, a quarter period past the grid,
 * ticks once per period of the regulated CPU 1.
 */
static void check_unregulated(double secs)
{
	const long long p_ns = 50000000;
	struct mr_timers m0, t0;
	char d[400];
	struct snap a, b;
	long long timer;
	int rc, ok;

	rc = mr_insmod(ko, "cpus=1 master_cpu=0 period_us=50000 lms=1");
	if (rc) {
		result("master-unregulated-ticks", 0, "insmod cpus=1 master_cpu=0 "
		       "lms=1 rc=%d", rc);
		return;
	}
	mr_sleep(0.3);
	timer = mr_get("master_timer");
	rc = mr_timers_want(0, "mrk_master_tick_fn", p_ns, 1, &m0) |
	     mr_timers(0, "mrk_timer_fn", p_ns, &t0);
	snap(&a, 1);
	mr_sleep(secs);
	snap(&b, 1);
	/* the identity uses CPU 1's grid: the master's timer is another's */
	ok = ticks_ok(&a, &b, p_ns, 3, d, sizeof(d));
	result("master-unregulated-ticks",
	       ok && !rc && timer == 1 && m0.n == 1 && m0.phase == p_ns / 4 &&
	       !t0.n,
	       "master_timer=%lld timer_list (rc=%d): cpu0 tick timers %d phase "
	       "%lld ns (want 1 at %lld), cpu0 period timers %d (want 0); "
	       "against cpu1: %s", timer, rc, m0.n, m0.phase, p_ns / 4, t0.n, d);
	mr_rmmod();
}

/*
 * master-no-tick: modes off (the defaults): no timer, no tick, while the
 * CPUs' own periods advance; LMS committed on arms it, off disarms it.
 */
static void check_no_tick(double secs)
{
	long long t0, k0, k1, p0, p1, t1, k2, t2, k3, k4;
	int rc, c1, c2;

	rc = mr_insmod(ko, "cpus=0,1 master_cpu=0 period_us=2000");
	if (rc) {
		result("master-no-tick", 0, "insmod (modes off) rc=%d", rc);
		return;
	}
	mr_sleep(0.2);
	t0 = mr_get("master_timer");
	k0 = mr_get("master_ticks");
	p0 = mr_cpu(0, "periods");
	mr_sleep(secs);
	t1 = mr_get("master_timer");
	k1 = mr_get("master_ticks");
	p1 = mr_cpu(0, "periods");
	c1 = mr_put("1", "lms") || mr_commit();
	mr_sleep(0.5);
	t2 = mr_get("master_timer");
	k2 = mr_get("master_ticks");
	c2 = mr_put("0", "lms") || mr_commit();
	mr_sleep(0.1);
	k3 = mr_get("master_ticks");
	mr_sleep(0.3);
	k4 = mr_get("master_ticks");
	result("master-no-tick",
	       t0 == 0 && t1 == 0 && k0 == 0 && k1 == 0 && p1 - p0 > 50 &&
	       mr_tasks("memreg_master") == 0 && !c1 && t2 == 1 && k2 > 10 && !c2 &&
	       mr_get("master_timer") == 0 && k3 == 0 && k4 == 0,
	       "modes off: master_timer=%lld,%lld ticks=%lld,%lld over %lld "
	       "cpu0 periods, master threads=%d; lms=1 committed (rc=%d): "
	       "master_timer=%lld ticks=%lld after 0.5 s; lms=0 committed "
	       "(rc=%d): master_timer=%lld ticks=%lld,%lld",
	       t0, t1, k0, k1, p1 - p0, mr_tasks("memreg_master"), c1, t2, k2, c2,
	       mr_get("master_timer"), k3, k4);
	mr_rmmod();
}

/*
 * master-throttled-ticks: the master CPU 0 regulated at 16 page faults
 * per 50 ms period (ceiling too, so LMS cannot lift it) under a hog that
 * exhausts that within about a millisecond: the CPU is held in injected
 * idle for most of every period, across the tick's quarter period, and
 * every period still gets its tick.
 */
static void check_throttled_ticks(double secs)
{
	const long long p_ns = 50000000;
	double held, thr;
	char d[400], err[256];
	struct snap a, b;
	pid_t h;
	int rc, ok;

	rc = mr_insmod(ko, "cpus=0,1 master_cpu=0 period_us=50000 lms=1 "
		  "read_budget=16,16 read_max=16,16");
	if (rc) {
		result("master-throttled-ticks", 0, "insmod rc=%d", rc);
		return;
	}
	h = mr_hog(0, (int)secs + 5);
	mr_sleep(0.3);
	snap(&a, 0);
	mr_sleep(secs);
	snap(&b, 0);
	mr_stop(h);
	mr_gets(err, sizeof(err), "error");
	ok = ticks_ok(&a, &b, p_ns, 3, d, sizeof(d));
	thr = b.periods > a.periods ? (double)(b.throttles - a.throttles) /
				      (double)(b.periods - a.periods) : 0;
	held = b.periods > a.periods ? (double)(b.held_ns - a.held_ns) /
				       ((double)(b.periods - a.periods) * p_ns) : 0;
	/*
	 * Throttled in >= 0.95 of the periods and held >= 0.75 of them on
	 * average: on average the hold starts before the tick's quarter.
	 */
	result("master-throttled-ticks", ok && thr >= 0.95 && held >= 0.75,
	       "%s throttles/period=%.3f (>= 0.95) held share=%.3f (>= 0.75) "
	       "error='%s'", d, thr, held, err);
	mr_rmmod();
}

/*
 * master-skipped-reported: master CPU 1 (reclaim on) offline for 0.5 s:
 * the tick stops with its CPU and, back online, jumps over at least the
 * periods it was away, which master_skipped counts and error names.
 */
static void check_skipped(void)
{
	const long long p_ns = 2000000;
	long long s0, s1, k0, k1, t_off, t_on, away;
	char err[256];
	int rc, r0, r1;

	rc = mr_insmod(ko, "cpus=0,1 master_cpu=1 period_us=2000 reclaim=1");
	if (rc) {
		result("master-skipped-reported", 0, "insmod rc=%d", rc);
		return;
	}
	mr_sleep(0.3);
	s0 = mr_get("master_skipped");
	r0 = mr_set_online(1, 0);
	t_off = mr_now_ns();
	mr_sleep(0.5);
	t_on = mr_now_ns();
	r1 = mr_set_online(1, 1);
	mr_sleep(0.3);
	s1 = mr_get("master_skipped");
	k0 = mr_get("master_ticks");
	mr_sleep(0.2);
	k1 = mr_get("master_ticks");
	mr_gets(err, sizeof(err), "error");
	/* the tick was away at least from t_off to t_on */
	away = (t_on - t_off) / p_ns;
	result("master-skipped-reported",
	       !r0 && !r1 && s1 - s0 >= away - 2 && k1 > k0 &&
	       strstr(err, "ticks skipped") != NULL,
	       "cpu1 offline (rc=%d) for %lld periods, online (rc=%d): "
	       "master_skipped %lld->%lld (>= %lld), ticks after %lld->%lld "
	       "error='%s'", r0, away, r1, s0, s1, away - 2, k0, k1, err);
	mr_rmmod();
}

int main(int argc, char **argv)
{
	double secs = 8;
	int opt;

	while ((opt = getopt(argc, argv, "k:t:")) != -1) {
		switch (opt) {
		case 'k': ko = optarg; break;
		case 't': secs = atof(optarg); break;
		default:
			fprintf(stderr, "usage: mastertick [-k MODULE] [-t SECONDS]\n");
			return 2;
		}
	}
	if (secs < 1 || secs > 60) {
		fprintf(stderr, "mastertick: -t 1..60 seconds\n");
		return 2;
	}
	check_timer_armed(secs / 2);	/* 50 ms periods */
	check_unregulated(secs / 4);
	check_no_tick(1);
	check_throttled_ticks(secs);
	check_skipped();
	return failed;
}
