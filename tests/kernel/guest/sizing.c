// SPDX-License-Identifier: GPL-2.0
/*
 * sizing - the figures a group loads memreg with, from the unregulated
 * page-fault rate R0 (faults/s) its init.sh measured first; printed on
 * stdout for the shell:
 *
 *   sizing period R0          the period for budgets of a fraction of R0 (us)
 *   sizing budget R0 PCT P    PCT % of R0 in a period of P us (events)
 *   sizing lms R0             "P Ls Hs L H G C" of the lms group
 *
 * The period's reasons are beside mr_pick_period() (checklib.c).
 */
#include "checklib.h"

#include <stdio.h>
#include <stdlib.h>

static int period(char **a)
{
	return printf("%lld\n", mr_pick_period(atof(a[0]))) < 0;
}

static int budget(char **a)
{
	return printf("%lld\n", mr_round(atof(a[0]) * atof(a[1]) / 100 * atof(a[2]) / 1e6)) < 0;
}

/*
 * lms: demand low (20 % of R0) -> high (60 %) -> low for 2 s each, paced
 * by pfload; period from mr_pick_period (budgets of tens of events).
 * Prints the period, the low and high rates (faults/s), the low and high
 * demand per period, the guarantee and the ceiling.
 */
static int lms_params(char **a)
{
	double r0 = atof(a[0]);
	long long P = mr_pick_period(r0), Ls = mr_round(r0 * 0.2), Hs = mr_round(r0 * 0.6);
	long long L = mr_round((double)Ls * (double)P / 1e6), H = mr_round((double)Hs * (double)P / 1e6);
	long long G = L / 2 < 1 ? 1 : L / 2;

	return printf("%lld %lld %lld %lld %lld %lld %lld\n", P, Ls, Hs, L, H, G, H * 2) < 0;
}

static const struct mr_cmd cmds[] = {
	{ "period", 1, "R0", period },
	{ "budget", 3, "R0 PCT P", budget },
	{ "lms", 1, "R0", lms_params },
};

int main(int argc, char **argv)
{
	return mr_dispatch(cmds, sizeof(cmds) / sizeof(cmds[0]), argc, argv);
}
