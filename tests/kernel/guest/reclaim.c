// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim - the reclaim group's checks: cpu1 demanding beyond its budget
 * with a flag off, then on (reclaim: cpu0's donation; share: the spare
 * share under the platform ceiling).
 *
 *   reclaim FLAG STAT B    checks FLAG-off and FLAG-on
 */
#include "checklib.h"

#include <stdio.h>
#include <stdlib.h>

/*
 * flag-ab FLAG STAT B: cpu1 demanding with a budget of B read events per
 * period.  With FLAG off it uses its budget and STAT (cpu1's reclaimed or
 * shared events) stays 0; switched on by commit, it uses at least 1.3x its
 * budget, never more than twice it (what it can be given is one more
 * budget: cpu0's donation, or the spare share) plus one overflow's slack
 * (B / 8), and STAT grows.  Measured in cpu1's own events per period, which
 * the host's load cannot skew.
 */
static int flag_ab(const char *flag, const char *stat, long long B)
{
	char off[64], on[64], err[256];
	struct mr_pp r;
	int ok;

	snprintf(off, sizeof(off), "%s-off", flag);
	snprintf(on, sizeof(on), "%s-on", flag);
	mr_sleep(0.2);
	r = mr_per_period(1, 2, stat);
	ok = mr_check(off, r.used >= B * 0.85 && r.used <= B * 1.15 && r.stat == 0,
		      "budget=%lld/period cpu1 used=%lld/period over %lld periods %s=%lld",
		      B, r.used, r.periods, stat, r.stat);
	mr_put("1\n", "%s", flag);
	if (mr_commit())
		return mr_check(on, 0, "commit: %s", mr_gets(err, sizeof(err), "error"));
	mr_sleep(0.2);
	r = mr_per_period(1, 2, stat);
	return ok & mr_check(on, r.used >= B * 1.3 && r.used <= B * 2.125 && r.stat > 0,
			     "budget=%lld/period cpu1 used=%lld/period (%.2fx, at most 2x + slack) over %lld periods %s=%lld cpu0: donated=%lld shared=%lld",
			     B, r.used, (double)r.used / (double)B, r.periods, stat, r.stat,
			     mr_cpu(0, "read_donated"), mr_cpu(0, "read_shared"));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 4) {
		fprintf(stderr, "usage: reclaim FLAG STAT B\n");
		return 2;
	}
	return !flag_ab(argv[1], argv[2], atoll(argv[3]));
}
