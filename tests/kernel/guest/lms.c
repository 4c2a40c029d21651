// SPDX-License-Identifier: GPL-2.0
/*
 * lms - the lms group's checks: cpu1's demand steps low -> high -> low
 * (paced /pfload) and the LMS predictor's budget follows it
 * (lms-low, lms-high, lms-step-up, lms-step-down, lms-sysfs).
 *
 *   lms P Ls Hs L H G C    the figures of `sizing lms R0`, with which
 *                          init.sh loaded memreg
 */
#include "checklib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* median_window: the median of the budgets (USED: the use) of the periods
 * numbered in (A, B] whose budget the master published (stale periods
 * run on the guarantee: they say nothing of the predictor); their count
 * in *JUDGED */
static double median_window(const struct mr_period *p, size_t n, long long a, long long b, int used,
			    long long *judged)
{
	double *v = calloc(n ? n : 1, sizeof(*v)), m;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (p[i].idx > a && p[i].idx <= b && !p[i].stale)
			v[k++] = (double)(used ? p[i].used : p[i].budget);
	m = mr_median(v, k);
	free(v);
	*judged = (long long)k;
	return m;
}

/* stale_in: the periods numbered in (A, B] that ran on the guarantee
 * because the master published no budget for them */
static long long stale_in(const struct mr_period *p, size_t n, long long a, long long b)
{
	long long c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		c += p[i].idx > a && p[i].idx <= b && p[i].stale;
	return c;
}

/* periods_until: the periods the regulator ran after period K (trace
 * lines, not grid slots: when the host freezes the emulator for a while
 * the period number jumps with no replenishment, no prediction and no
 * demand) until the budget first reached at least LO (or at most HI):
 * their count, 99999 if never.  A stale period (the master's tick came a
 * whole period late, so the CPU ran on its guarantee) never counts as
 * reaching the level, and the count restarts after it: its use, censored
 * at the guarantee, is what the predictor learns from next, so the climb
 * starts again from there.  The level must still be reached within the
 * bound in an unbroken run of published budgets. */
static long long periods_until(const struct mr_period *p, size_t n, long long k, double lo, double hi)
{
	long long c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i].idx <= k)
			continue;
		if (p[i].stale) {
			c = 0;
			continue;
		}
		c++;
		if (p[i].budget >= lo && p[i].budget <= hi)
			return c;
	}
	return 99999;
}

static int lms(char **a)
{
	long long P = atoll(a[0]), L = atoll(a[3]), H = atoll(a[4]), G = atoll(a[5]), C = atoll(a[6]);
	long long pred = 0, perr, ticks, skipped, t0, k0, k1, k2, h, up, down, nlo, nhi, slo, shi, sup, sdown;
	double lo, hi, hiu, lou;
	char rates[64], line[256] = "";
	char *argv[] = { "/pfload", "-c", "1", "-p", "2000", "-r", rates, NULL };
	struct mr_period *p;
	size_t n, i;
	pid_t w;
	FILE *f;
	int k, ok = 1;

	snprintf(rates, sizeof(rates), "%s,%s,%s", a[1], a[2], a[1]);
	mr_trace_on("period");
	w = mr_spawn("/tmp/lms.out", argv);
	mr_sleep(2.4);	/* inside the high phase: sample the prediction 5 times */
	for (k = 0; k < 5; k++) {
		long long v = mr_cpu(1, "read_predicted");

		if (v > pred)
			pred = v;
		mr_sleep(0.2);
	}
	perr = mr_cpu(1, "read_pred_error");
	ticks = mr_get("master_ticks");
	skipped = mr_get("master_skipped");
	mr_reap(w);
	mr_trace_off("period");
	f = fopen("/tmp/lms.out", "r");
	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	t0 = (long long)mr_field(line, "t0", 0);
	k0 = t0 / (P * 1000);
	k1 = k0 + 2000000 / P;
	k2 = k1 + 2000000 / P;
	n = mr_trace_periods(1, &p);
	printf("lms trace (period-k0:used/budget, s: stale), every 10th: k0=%lld lines=%zu\n", k0, n);
	for (i = 0; i < n; i++)
		if ((p[i].idx - k0) % 10 == 0)
			printf("%lld:%lld/%lld%s ", p[i].idx - k0, p[i].used, p[i].budget,
			       p[i].stale ? "s" : "");
	putchar('\n');
	/* medians over the second half of the first low and of the high
	 * phase (robust to the emulator's stalls, which drop the paced demand) */
	h = (k1 - k0) / 2;
	lo = median_window(p, n, k1 - h, k1, 0, &nlo);
	hi = median_window(p, n, k2 - h, k2, 0, &nhi);
	hiu = median_window(p, n, k2 - h, k2, 1, &nhi);
	lou = median_window(p, n, k1 - h, k1, 1, &nlo);
	slo = stale_in(p, n, k1 - h, k1);
	shi = stale_in(p, n, k2 - h, k2);
	sup = stale_in(p, n, k1, k2);
	sdown = stale_in(p, n, k2, k2 + (k2 - k1));
	up = periods_until(p, n, k1, 0.9 * (double)H, INFINITY);
	down = periods_until(p, n, k2, -INFINITY, 1.6 * (double)L);
	free(p);
	/*
	 * Levels are judged against the use the predictor actually saw:
	 * under TCG the paced demand collapses whenever the host stalls the
	 * guest, and a throttled period's use is censored at its budget, so
	 * the nominal L and H are not what reaches the core.  The budget must
	 * stay at or above the observed use (with the guarantee as floor) and
	 * not run away from it.  Only periods with a published budget are
	 * judged (a loaded host delays the master's tick by whole periods,
	 * and those periods run on the guarantee); at least a third of each
	 * window must have one, or there is nothing to judge.
	 */
	ok &= mr_check("lms-low", lo >= 0.9 * lou && lo <= 1.6 * lou + (double)G && nlo * 3 >= h,
		       "period=%lldus nominal demand=%lld/period: median use=%.0f median budget=%.0f over %lld published periods of %lld (%lld stale) (guarantee %lld, mu 0.5, headroom 25 %%)",
		       P, L, lou, lo, nlo, h, slo, G);
	ok &= mr_check("lms-high", hi >= 0.9 * hiu && hi <= 1.6 * hiu + (double)G && hiu > 1.5 * lou && nhi * 3 >= h,
		       "nominal demand=%lld/period: median use=%.0f median budget=%.0f in the 2nd half of the high phase over %lld published periods of %lld (%lld stale)",
		       H, hiu, hi, nhi, h, shi);
	ok &= mr_check("lms-step-up", up <= 20,
		       "demand %lld->%lld/period: budget >= 90%% of %lld after %lld published periods (%lld stale periods in the phase)",
		       L, H, H, up, sup);
	ok &= mr_check("lms-step-down", down <= 20,
		       "demand %lld->%lld/period: budget <= 160%% of %lld after %lld published periods (%lld stale periods in the phase)",
		       H, L, L, down, sdown);
	ok &= mr_check("lms-sysfs", ticks > 150 && pred >= G / 2.0 && pred <= C && perr > 0,
		       "during the high phase: max of 5 read_predicted=%lld read_pred_error=%lld master_ticks=%lld master_skipped=%lld",
		       pred, perr, ticks, skipped);
	return ok;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 8) {
		fprintf(stderr, "usage: lms P Ls Hs L H G C\n");
		return 2;
	}
	return !lms(argv + 1);
}
