/* SPDX-License-Identifier: GPL-2.0 */
/*
 * headroom - guest-side checks that LMS and spare sharing move the
 * headroom above the guarantees (the memtune end-to-end guest,
 * tests/kernel/guest/memtune_e2e.sh, with memreg already loaded by
 * 'memtune apply' from a configuration whose platform ceiling is well
 * above the sum of the guarantees).  Traffic is the guest's stand-in
 * counter, page faults: a hog is a loop of memcal-load processes on one
 * CPU, each faulting its fresh 64 MiB buffer in.  Budgets and use come from every
 * period's memreg:period record (tracefs), grants from cpuN/read_shared.
 *
 *   be-budget-rises     the real-time CPU idle, the best-effort hog's
 *                       budget is above its guarantee in at least a
 *                       tenth of the periods the master published a
 *                       budget for, and so is its 90th percentile
 *   be-budget-falls     the real-time CPU busy too: the best-effort
 *                       median budget falls to at most 0.85 x the level
 *                       LMS lifted it to with that CPU idle (the idle
 *                       phase's 90th percentile: NLMS on the hog's bursty
 *                       demand drops it to the guarantee now and then, as
 *                       it lifts the busy phase's now and then when the
 *                       real-time prediction dips), never below the
 *                       guarantee, because the
 *                       platform rule binds: in the periods both CPUs
 *                       have a published budget for, their sum never
 *                       passes the platform ceiling and its median is at
 *                       least 0.9 x it (not the hog's demand falling)
 *   rt-budget-guaranteed in every period of both phases the real-time
 *                       CPU's budget is at least its guarantee
 *   share-none-alone    LMS off, the best-effort CPU alone throttled: no
 *                       spare grant (read_shared does not move)
 *   share-grants-counted LMS off, both CPUs throttled: both count spare
 *                       grants, each a whole number of grants of
 *                       (platform ceiling - guarantees) / 2, at most one
 *                       per period (periods and overruns), every period
 *                       record's budget is the guarantee or the guarantee
 *                       plus one grant, and some are raised
 *
 *   headroom RT_CPU BE_CPU [SECONDS]
 *
 * SECONDS (default 8) is the traced window of each LMS phase (the sharing
 * phases take two thirds of it); each LMS phase first lets the budgets
 * settle for half of it, each sharing phase for a sixth.  The checks compare counts and budgets of periods,
 * never wall-clock times: under TCG a loaded host stretches everything.
 * Prints MEMREG-CHECK lines (the e2e guest renames them MEMTUNE-CHECK).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checklib.h"

/**
 * struct phase - what the period records of one CPU in one phase show.
 * @n:         periods recorded
 * @fresh:     of them, periods with a budget the master published
 * @above:     of @fresh, periods whose budget was above the guarantee
 * @budget:    median budget of the @fresh periods (-1: none)
 * @p90:       90th percentile of the same budgets (-1: none)
 * @used:      median events counted per period (-1: none)
 * @min:       the smallest budget of any period (-1: none)
 * @throttled: periods that ended throttled
 * @at:        periods whose budget was exactly @at_budget (set by the
 *             caller of summarise(): a ceiling, a granted budget)
 * @odd:       periods whose budget was neither the guarantee nor @at_budget
 */
struct phase {
	size_t n, fresh, above, throttled, at, odd;
	double budget, p90, used;
	long long min;
};

/* summarise - CPU's period records of the trace just taken, against its
 * guarantee G and the budget AT (a ceiling, a granted budget) */
static struct phase summarise(int cpu, long long g, long long at)
{
	struct mr_period *p = NULL;
	struct phase s = { .budget = -1, .p90 = -1, .used = -1, .min = -1 };
	size_t i, n = mr_trace_periods(cpu, &p);
	double *b = calloc(n + 1, sizeof(*b)), *u = calloc(n + 1, sizeof(*u));

	for (i = 0; b && u && i < n; i++) {
		u[i] = (double)p[i].used;
		if (s.min < 0 || p[i].budget < s.min)
			s.min = p[i].budget;
		s.throttled += p[i].throttled != 0;
		s.at += p[i].budget == at;
		s.odd += p[i].budget != at && p[i].budget != g;
		if (p[i].stale)
			continue;
		b[s.fresh++] = (double)p[i].budget;
		s.above += p[i].budget > g;
	}
	s.n = b && u ? n : 0;
	s.budget = mr_median(b, s.fresh);
	s.p90 = mr_quantile(b, s.fresh, 0.9);
	s.used = mr_median(u, s.n);
	free(b);
	free(u);
	free(p);
	return s;
}

/* Attributes that could not be read, named for the check lines: no check
 * passes while one is missing (a missing value is never read as 0). */
static char missing[256];

/* attr - the integer attribute NAME of CPU (cpuN/NAME; the global NAME
 * when CPU < 0); -1, and its name added to missing[], when unreadable */
static long long attr(int cpu, const char *name)
{
	char buf[64], *end;
	const char *v = cpu < 0 ? mr_gets(buf, sizeof(buf), "%s", name)
				: mr_gets(buf, sizeof(buf), "cpu%d/%s", cpu, name);
	long long x = strtoll(v, &end, 10);
	size_t k = strlen(missing);

	if (*v && !*end)
		return x;
	if (cpu < 0)
		snprintf(missing + k, sizeof(missing) - k, " %s", name);
	else
		snprintf(missing + k, sizeof(missing) - k, " cpu%d/%s", cpu, name);
	return -1;
}

/**
 * struct pairs - the periods both CPUs have a published budget for.
 * @n:    such periods
 * @over: of them, periods whose budgets sum above the platform ceiling
 * @sum:  median sum of the two budgets (-1: none)
 */
struct pairs {
	size_t n, over;
	double sum;
};

/* pair_up - CPUs A's and B's period records of the trace just taken,
 * matched by period number, against the platform ceiling CEIL */
static struct pairs pair_up(int a, int b, long long ceil)
{
	struct mr_period *p = NULL, *q = NULL;
	struct pairs r = { .sum = -1 };
	size_t n = mr_trace_periods(a, &p), m = mr_trace_periods(b, &q), i = 0, j = 0;
	double *v = calloc(n + 1, sizeof(*v));

	while (v && i < n && j < m) {
		if (p[i].idx < q[j].idx) {
			i++;
		} else if (p[i].idx > q[j].idx) {
			j++;
		} else {
			if (!p[i].stale && !q[j].stale) {
				v[r.n++] = (double)(p[i].budget + q[j].budget);
				r.over += p[i].budget + q[j].budget > ceil;
			}
			i++;
			j++;
		}
	}
	r.sum = mr_median(v, r.n);
	free(v);
	free(p);
	free(q);
	return r;
}

/* hog - a loop of memcal-load processes pinned to CPU, each faulting a
 * 64 MiB buffer in (16,384 page faults, seconds of steady demand under
 * TCG: a short process's start and exit are dips in which LMS lowers
 * the budget, which then climbs back only 1 + headroom a period), in a
 * process group of its own; its pid (= the group), -1 when it could not
 * start */
static pid_t hog(int cpu)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid)
		return pid;
	setpgid(0, 0);
	if (mr_pin(cpu))
		_exit(1);
	for (;;) {
		pid_t w = fork();

		if (w == 0) {
			if (!freopen("/dev/null", "w", stdout))
				_exit(126);
			execlp("memcal-load", "memcal-load", "write", "--mb", "64",
			       "--size", "67108864", (char *)NULL);
			_exit(127);
		}
		if (w < 0 || mr_reap(w) == 127)
			_exit(1);
	}
}

/* stop - end the hog PID and the memcal-load it runs */
static void stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* trace - record every period of S seconds */
static void trace(double s)
{
	mr_trace_on("period");
	mr_sleep(s);
	mr_trace_off("period");
}

int main(int argc, char **argv)
{
	int rt, be, fail = 0;
	double s;
	long long grt, gbe, cbe, ceil, grant, sh0[2], sh1[2], sh2[2], t0, t1;
	long long pe1[2], pe2[2], ov1[2], ov2[2];
	struct phase ra, ba, rb, bb, rc, bc;
	struct pairs pb;
	pid_t hb, hr;
	char err[256];

	if (argc < 3) {
		fprintf(stderr, "usage: headroom RT_CPU BE_CPU [SECONDS]\n");
		return 2;
	}
	rt = atoi(argv[1]);
	be = atoi(argv[2]);
	s = argc > 3 ? atof(argv[3]) : 8;
	if (rt == be || rt < 0 || be < 0 || s <= 0) {
		fprintf(stderr, "headroom: two different CPUs and a positive time, please\n");
		return 2;
	}
	grt = attr(rt, "read_guaranteed");
	gbe = attr(be, "read_guaranteed");
	cbe = attr(be, "read_ceiling");
	ceil = attr(-1, "platform_read");
	printf("headroom: rt cpu%d guarantee %lld ceiling %lld, be cpu%d guarantee %lld ceiling %lld, platform %lld, period %lld us, lms %lld share %lld\n",
	       rt, grt, attr(rt, "read_ceiling"), be, gbe, cbe, ceil,
	       attr(-1, "period_us"), attr(-1, "lms"), attr(-1, "share"));
	mr_pin(rt);	/* the checker's own faults land on the idle CPU */

	/* LMS: the real-time CPU idle, then busy */
	hb = hog(be);
	mr_sleep(s / 2);	/* LMS climbs from the guarantee */
	trace(s);
	ra = summarise(rt, grt, grt);
	ba = summarise(be, gbe, cbe);
	fail |= !mr_check("be-budget-rises", !*missing && ba.fresh >= 20 && ba.p90 > gbe &&
			  ba.above * 10 >= ba.fresh && ra.used < grt,
			  "cpu%d (be, guarantee %lld, ceiling %lld): budget p90 %.0f, median %.0f, above the guarantee in %zu of %zu published periods (%zu at the ceiling, %zu stale), median use %.0f; cpu%d (rt, guarantee %lld) idle: median use %.0f%s%s",
			  be, gbe, cbe, ba.p90, ba.budget, ba.above, ba.fresh, ba.at,
			  ba.n - ba.fresh, ba.used, rt, grt, ra.used,
			  *missing ? "; unreadable:" : "", missing);
	hr = hog(rt);
	mr_sleep(s / 2);
	trace(s);
	rb = summarise(rt, grt, grt);
	bb = summarise(be, gbe, cbe);
	pb = pair_up(rt, be, ceil);
	fail |= !mr_check("be-budget-falls", !*missing && bb.fresh >= 20 && ba.p90 > gbe &&
			  bb.budget <= 0.85 * ba.p90 && bb.min >= gbe &&
			  pb.n >= 20 && pb.over == 0 && pb.sum >= 0.9 * (double)ceil,
			  "cpu%d (be): median budget %.0f with cpu%d busy against p90 %.0f with it idle (ratio %.2f; busy p90 %.0f, idle median %.0f), lowest %lld (guarantee %lld), %zu published periods, median use %.0f; cpu%d (rt): median use %.0f, median budget %.0f; both published in %zu periods: median sum %.0f of the platform ceiling %lld, %zu above it%s%s",
			  be, bb.budget, rt, ba.p90, mr_per(bb.budget, ba.p90), bb.p90,
			  ba.budget, bb.min, gbe, bb.fresh, bb.used, rt, rb.used, rb.budget,
			  pb.n, pb.sum, ceil, pb.over,
			  *missing ? "; unreadable:" : "", missing);
	fail |= !mr_check("rt-budget-guaranteed", !*missing && ra.n >= 20 && rb.n >= 20 &&
			  ra.min >= grt && rb.min >= grt,
			  "cpu%d (rt, guarantee %lld): lowest budget %lld in %zu periods idle (%zu stale), %lld in %zu periods busy (%zu stale, %zu throttled, median budget %.0f)%s%s",
			  rt, grt, ra.min, ra.n, ra.n - ra.fresh, rb.min, rb.n,
			  rb.n - rb.fresh, rb.throttled, rb.budget,
			  *missing ? "; unreadable:" : "", missing);

	/* spare sharing with budgets at the guarantees (LMS off) */
	stop(hr);
	mr_putll(0, "lms");
	if (mr_commit())
		fprintf(stderr, "headroom: commit of lms=0 refused: %s\n",
			mr_gets(err, sizeof(err), "error"));
	grant = (ceil - grt - gbe) / 2;
	mr_sleep(s / 6);
	t0 = attr(be, "throttles");
	sh0[0] = attr(rt, "read_shared");
	sh0[1] = attr(be, "read_shared");
	trace(2 * s / 3);
	sh1[0] = attr(rt, "read_shared");
	sh1[1] = attr(be, "read_shared");
	t1 = attr(be, "throttles");
	bc = summarise(be, gbe, gbe + grant);
	fail |= !mr_check("share-none-alone", !*missing && attr(-1, "lms") == 0 && t1 > t0 &&
			  sh1[0] == sh0[0] && sh1[1] == sh0[1] && bc.n >= 20,
			  "lms=%lld; cpu%d (be) alone throttled in %lld periods (%zu of %zu traced): read_shared cpu%d %lld -> %lld, cpu%d %lld -> %lld%s%s",
			  attr(-1, "lms"), be, t1 - t0, bc.throttled, bc.n, rt, sh0[0],
			  sh1[0], be, sh0[1], sh1[1],
			  *missing ? "; unreadable:" : "", missing);
	hr = hog(rt);
	mr_sleep(s / 6);
	sh1[0] = attr(rt, "read_shared");
	sh1[1] = attr(be, "read_shared");
	pe1[0] = attr(rt, "periods");
	pe1[1] = attr(be, "periods");
	ov1[0] = attr(rt, "overruns");
	ov1[1] = attr(be, "overruns");
	trace(2 * s / 3);
	sh2[0] = attr(rt, "read_shared");
	sh2[1] = attr(be, "read_shared");
	pe2[0] = attr(rt, "periods");
	pe2[1] = attr(be, "periods");
	ov2[0] = attr(rt, "overruns");
	ov2[1] = attr(be, "overruns");
	rc = summarise(rt, grt, grt + grant);
	bc = summarise(be, gbe, gbe + grant);
	stop(hr);
	stop(hb);
	fail |= !mr_check("share-grants-counted", !*missing && grant > 0 &&
			  sh2[0] > sh1[0] && sh2[1] > sh1[1] &&
			  (sh2[0] - sh1[0]) % grant == 0 &&
			  (sh2[1] - sh1[1]) % grant == 0 && rc.at > 0 && bc.at > 0 &&
			  sh2[0] - sh1[0] <= grant * (pe2[0] - pe1[0] + ov2[0] - ov1[0] + 1) &&
			  sh2[1] - sh1[1] <= grant * (pe2[1] - pe1[1] + ov2[1] - ov1[1] + 1) &&
			  rc.odd == 0 && bc.odd == 0 && rc.n >= 20 && bc.n >= 20,
			  "both busy, grant (%lld - %lld - %lld) / 2 = %lld: read_shared cpu%d +%lld (%lld grants in %lld periods, %lld overruns), cpu%d +%lld (%lld grants in %lld periods, %lld overruns) while traced; periods with the guarantee plus a grant: cpu%d %zu of %zu (%zu throttled, %zu other budgets), cpu%d %zu of %zu (%zu throttled, %zu other budgets)%s%s",
			  ceil, grt, gbe, grant, rt, sh2[0] - sh1[0],
			  grant > 0 ? (sh2[0] - sh1[0]) / grant : -1,
			  pe2[0] - pe1[0], ov2[0] - ov1[0], be, sh2[1] - sh1[1],
			  grant > 0 ? (sh2[1] - sh1[1]) / grant : -1,
			  pe2[1] - pe1[1], ov2[1] - ov1[1], rt, rc.at, rc.n, rc.throttled, rc.odd, be, bc.at, bc.n,
			  bc.throttled, bc.odd,
			  *missing ? "; unreadable:" : "", missing);
	return fail;
}
