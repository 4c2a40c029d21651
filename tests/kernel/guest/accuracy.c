// SPDX-License-Identifier: GPL-2.0
/*
 * accuracy - what memreg counts and how closely it holds a budget, on the
 * x86-64 guest's software events (no PMU there: page-faults driven by
 * /pfload, or cpu-clock); init.sh loads memreg, this program measures and
 * prints the MEMREG-CHECK lines:
 *
 *   accuracy budgets          cpu1 at 10/25/50/75 % of its rate (group accuracy)
 *   accuracy core-context     no nested or non-irq core entry (accuracy, arm64 accuracy)
 *   accuracy rearm-cpu-clock  cpu1: one overflow per throttled period (group load)
 *
 * The bounds and the reasons for them are beside each check.
 */
#include "checklib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * rearm-cpu-clock: cpu-clock counts 10 ms per 10 ms period: a 5 ms budget
 * is exhausted every period; re-armed, that is one overflow per period
 * (slack scheme: 16 per period).  A period whose timer the host delays
 * past the overflow goes unthrottled (both expire in one interrupt), hence
 * only 30 % of the periods must throttle (a loaded host saw 53 %).  Every
 * throttle needs an overflow; the statistics are read one after another
 * while cpu1 runs, so an overflow and its throttle can fall on either side
 * of the window (seen: 108 overflows, 109 throttles), hence the allowance
 * of 2.  Overuse is printed only: cpu-clock also counts the time spent
 * throttled.
 */
static int rearm_cpu_clock(void)
{
	long long n0, o0, t0, u0, n, o, t, u;

	n0 = mr_cpu(1, "periods"); o0 = mr_cpu(1, "overflows");
	t0 = mr_cpu(1, "throttles"); u0 = mr_cpu(1, "read_overuse");
	mr_pf(1, 1);
	n = mr_cpu(1, "periods") - n0; o = mr_cpu(1, "overflows") - o0;
	t = mr_cpu(1, "throttles") - t0; u = mr_cpu(1, "read_overuse") - u0;
	return mr_check("rearm-cpu-clock", n >= 50 && t >= n * 0.3 && o <= n * 1.2 && o + 2 >= t,
			"periods=%lld overflows=%lld (%.2f per period) throttles=%lld overuse=%lld ns (%lld per throttle)",
			n, o, mr_per((double)o, (double)n), t, u, mr_round(mr_per((double)u, (double)t)));
}

/*
 * core-context: on every CPU, no entry into the regulator core nested
 * inside another (cpuN/core_nested) and no per-core entry outside hard-irq
 * context (cpuN/core_outside_irq) since the module was loaded, while cpu1
 * took overflows.
 */
static int core_context(void)
{
	char detail[1024] = "", path[64];
	long long nest = 0, outside = 0;
	size_t k = 0;
	int c;

	for (c = 0; c < 64; c++) {
		snprintf(path, sizeof(path), MR_SYSFS "/cpu%d", c);
		if (access(path, F_OK))
			continue;
		nest += mr_cpu(c, "core_nested");
		outside += mr_cpu(c, "core_outside_irq");
		k += (size_t)snprintf(detail + k, sizeof(detail) - k,
				      " cpu%d: nested=%lld outside_irq=%lld overflows=%lld", c,
				      mr_cpu(c, "core_nested"), mr_cpu(c, "core_outside_irq"),
				      mr_cpu(c, "overflows"));
		if (k >= sizeof(detail))
			break;
	}
	return mr_check("core-context", nest == 0 && outside == 0 && mr_cpu(1, "overflows") > 0,
			"%s", detail);
}

/*
 * accuracy: slack_div=16 (loaded by init.sh), so that one overflow's slack
 * (B / 16) is well inside the +-10 % asked of the achieved rate (B / 8
 * allowed a period to overshoot by 12.5 % and still be within its slack).
 * The achieved rate is measured per period, from memreg:period: the events
 * of the periods that ran for their nominal length and in which the
 * workload's demand reached the budget (they ended throttled), over their
 * budgets.  Under TCG the vCPU is a host thread: when the host schedules it
 * out for milliseconds, guest time goes on without the workload running,
 * so the workload's own wall-clock rate falls below the budget in periods
 * where it simply could not demand it (CI saw 0.84-0.90 of the target with
 * the host's speed the same before and after), and a late timer stretches
 * a period.  That rate is printed beside; the statistics check compares
 * memreg's count with the workload's own.  At least a third of the periods
 * must have been throttled (else the host was too slow to judge: retried).
 */
struct acc {
	long long max_over, n_over, ran, nom, thr, su, sb;
};

/* accuracy_periods: of the traced periods, the largest overshoot of a
 * period's budget and how many overshot by more than one overflow's slack
 * S; of the periods of nominal length (the next period's number is one
 * more: the timer ran on time), how many ended throttled and their summed
 * use and budget */
static struct acc accuracy_periods(long long s)
{
	struct mr_period *p;
	size_t n = mr_trace_periods(1, &p), i;
	struct acc a = { 0 };

	a.ran = (long long)n;
	for (i = 0; i < n; i++) {
		long long d = p[i].used - p[i].budget;

		if (d > a.max_over)
			a.max_over = d;
		if (d > s)
			a.n_over++;
		if (i + 1 < n && p[i + 1].idx == p[i].idx + 1) {
			a.nom++;
			if (p[i].throttled) {
				a.thr++;
				a.su += p[i].used;
				a.sb += p[i].budget;
			}
		}
	}
	free(p);
	return a;
}

/* stats_ok: memreg counted what the workload faulted */
static int stats_ok(double faults, long long counted)
{
	return counted >= faults * 0.98 && counted <= faults * 1.05 + 200;
}

static int accuracy(void)
{
	static const int pcts[] = { 10, 25, 50, 75 };
	long long e0, e1, P, B = 0, S = 0;
	char name[32], sname[32], err[256];
	struct mr_pf base, run = { 0 };
	int ok = 1;
	size_t i;

	e0 = mr_cpu(1, "read_events");
	base = mr_pf(1, 2);
	e1 = mr_cpu(1, "read_events");
	P = mr_pick_period(base.rate);
	mr_putll(P, "period_us");
	ok &= mr_check("baseline-stats", base.faults > 1000 && stats_ok(base.faults, e1 - e0),
		       "unregulated rate=%.0f/s faults=%.0f counted=%lld", base.rate, base.faults, e1 - e0);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		int p = pcts[i], try = 1, committed = 1;
		long long n0, n1, t0, t1;
		struct acc a = { 0 };
		double ra = 0, ratio, target;

		snprintf(name, sizeof(name), "accuracy-%d", p);
		snprintf(sname, sizeof(sname), "stats-%d", p);
		for (;;) {
			mr_put("1\n", "monitor");
			mr_commit();
			ra = mr_pf(1, 1).rate;
			B = mr_round(ra * p / 100 * (double)P / 1e6);
			S = B / 16 < 1 ? 1 : B / 16;
			mr_putll(B, "cpu1/read_guaranteed");
			mr_put("0\n", "monitor");
			if (mr_commit()) {
				committed = 0;
				break;
			}
			mr_sleep(0.1);
			e0 = mr_cpu(1, "read_events"); n0 = mr_cpu(1, "periods"); t0 = mr_cpu(1, "throttles");
			mr_trace_on("period");
			run = mr_pf(1, 2);
			mr_trace_off("period");
			e1 = mr_cpu(1, "read_events"); n1 = mr_cpu(1, "periods"); t1 = mr_cpu(1, "throttles");
			a = accuracy_periods(S);
			if (a.thr >= a.ran / 3 || try >= 4)
				break;
			printf("%s: only %lld of %lld periods throttled (host too slow to demand the budget), retrying\n",
			       name, a.thr, a.ran);
			try++;
		}
		if (!committed) {
			ok &= mr_check(name, 0, "commit refused: %s", mr_gets(err, sizeof(err), "error"));
			ok &= mr_check(sname, 0, "not measured: the budget's commit was refused");
			continue;
		}
		target = (double)(B * 1000000 / P);
		ratio = a.sb > 0 ? round((double)a.su / (double)a.sb * 1000) / 1000 : 0;
		ok &= mr_check(name, ratio >= 0.9 && ratio <= 1.1 && a.n_over == 0 && a.thr >= a.ran / 3.0 &&
				       a.ran > 1.5e6 / (double)P,
			       "budget=%lld/period (slack %lld) achieved %lld/%lld=%.3f of the budget in %lld throttled periods of %lld nominal, %lld ran; max_over=%lld periods_over_slack=%lld; workload wall rate %.0f/s for target %.0f/s (%.3f), unregulated %.0f/s try=%d",
			       B, S, a.su, a.sb, ratio, a.thr, a.nom, a.ran, a.max_over, a.n_over,
			       run.rate, target, mr_per(run.rate, target), ra, try);
		ok &= mr_check(sname, stats_ok(run.faults, e1 - e0) && (n1 - n0) >= 1.8e6 / (double)P &&
				       (n1 - n0) <= 2.6e6 / (double)P && t1 - t0 > 0,
			       "faults=%.0f counted=%lld periods=%lld throttles=%lld secs=%.3f",
			       run.faults, e1 - e0, n1 - n0, t1 - t0, run.secs);
	}
	return ok;
}

static int cmd_budgets(char **a)
{
	(void)a;
	return !accuracy();
}

static int cmd_core_context(char **a)
{
	(void)a;
	return !core_context();
}

static int cmd_rearm_cpu_clock(char **a)
{
	(void)a;
	return !rearm_cpu_clock();
}

static const struct mr_cmd cmds[] = {
	{ "budgets", 0, "", cmd_budgets },
	{ "core-context", 0, "", cmd_core_context },
	{ "rearm-cpu-clock", 0, "", cmd_rearm_cpu_clock },
};

int main(int argc, char **argv)
{
	return mr_dispatch(cmds, sizeof(cmds) / sizeof(cmds[0]), argc, argv);
}
