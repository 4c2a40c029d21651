// SPDX-License-Identifier: GPL-2.0
/*
 * hotplug - memreg across CPU hotplug (the hotplug groups of the x86-64
 * flavors; arm64's cycles group runs `hotplug cpu1` too):
 *
 *   hotplug cpu1 P MIN W1     cpu1 offline and online, commits racing it
 *                             (cpu1-offline, cpu1-online, commit-vs-hotplug)
 *   hotplug share-cpu-offline spare sharing with cpu1 offline
 */
#define _GNU_SOURCE
#include "checklib.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * share-cpu-offline: both CPUs regulated at 20 page faults per 10 ms
 * period with spare sharing under a platform ceiling of 80 (loaded by
 * init.sh); cpu1 offline while cpu0 hogs: every CPU still there is
 * throttled, so the master shares (80 - 20) / 1 more with cpu0, which then
 * uses well above its budget per period.
 */
static int share_cpu_offline(void)
{
	char err[256];
	int rc = mr_write(MR_CPU1_ONLINE, "0\n");
	struct mr_pp r;

	mr_sleep(0.2);
	r = mr_per_period(0, 1, "read_shared");
	mr_write(MR_CPU1_ONLINE, "1\n");
	return mr_check("share-cpu-offline", rc == 0 && r.stat > 0 && r.events > r.periods * 20 * 1.3,
			"cpu1 offline (rc=%d), cpu0 hogging with a budget of 20/period: shared=%lld used %lld/period over %lld periods error='%s'",
			rc, r.stat, r.used, r.periods, mr_gets(err, sizeof(err), "error"));
}

/* thread_state: the state letter of CPU's throttle thread ("memreg/N",
 * field 3 of its /proc stat), '?' when there is none */
static char thread_state(int cpu)
{
	char want[32], st[8];
	pid_t pid;

	snprintf(want, sizeof(want), "memreg/%d", cpu);
	pid = mr_task_pid(want);
	if (pid < 0 || mr_stat_field(pid, 3, st, sizeof(st)))
		return '?';
	return st[0];
}

/* pin_pid: move process PID to CPU (a worker whose CPU went away) */
static void pin_pid(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(pid, sizeof(set), &set);
}

/*
 * hotplug P MIN W1: with memreg loaded and regulating both CPUs at P us
 * (init.sh), and W1 the pid of a workload pinned to cpu1: cpu1 offline
 * (regulation stops there, its smpboot throttle thread parked, periods
 * frozen) and online again (running, periods advance by more than MIN in
 * 0.5 s, throttles again); then 30 commits racing 15 offline/online
 * cycles of cpu1 (a commit creates its counters outside the hotplug lock:
 * neither side may deadlock or fail, and cpu1 must end regulated).
 * Checks cpu1-offline, cpu1-online, commit-vs-hotplug; the module stays
 * loaded.
 */
static int hotplug(long long P, long long min, pid_t w1)
{
	long long th1, p2, p3, p4, th4, p5, p6, r_off, r_on;
	int rc0, rc1, ok, commits = 0, hprc, rcf, i;
	char err[256], on[8];
	char thr_off;
	pid_t hp;

	mr_sleep(0.5);
	th1 = mr_cpu(1, "throttles");
	rc0 = mr_write(MR_CPU1_ONLINE, "0\n");
	mr_sleep(0.3);
	r_off = mr_cpu(1, "running");
	thr_off = thread_state(1);
	p2 = mr_cpu(1, "periods");
	mr_sleep(0.3);
	p3 = mr_cpu(1, "periods");
	rc1 = mr_write(MR_CPU1_ONLINE, "1\n");
	pin_pid(w1, 1);
	mr_sleep(0.5);
	r_on = mr_cpu(1, "running"); p4 = mr_cpu(1, "periods"); th4 = mr_cpu(1, "throttles");
	ok = mr_check("cpu1-offline", rc0 == 0 && r_off == 0 && thr_off == 'P' && p2 == p3,
		      "rc=%d running=%lld thread-state=%c periods frozen %lld->%lld", rc0, r_off, thr_off, p2, p3);
	ok &= mr_check("cpu1-online", rc1 == 0 && r_on == 1 && p4 > p3 + min && th4 > th1,
		       "rc=%d running=%lld periods %lld->%lld throttles %lld->%lld", rc1, r_on, p3, p4, th1, th4);
	fflush(stdout);
	hp = fork();
	if (hp == 0) {
		int bad = 0;

		for (i = 0; i < 15; i++) {
			bad += mr_write(MR_CPU1_ONLINE, "0\n") != 0;
			mr_sleep(0.02);
			bad += mr_write(MR_CPU1_ONLINE, "1\n") != 0;
		}
		_exit(bad);
	}
	for (i = 0; i < 30; i++) {
		mr_putll(P + i % 4 * P / 4, "period_us");
		commits += mr_commit() == 0;
	}
	hprc = mr_reap(hp);
	pin_pid(w1, 1);
	mr_putll(P, "period_us");
	rcf = mr_commit();
	mr_sleep(0.5);
	p5 = mr_cpu(1, "periods");
	mr_sleep(0.5);
	p6 = mr_cpu(1, "periods");
	{
		FILE *f = fopen(MR_CPU1_ONLINE, "r");

		if (!f || !fgets(on, sizeof(on), f))
			strcpy(on, "?");
		if (f)
			fclose(f);
		on[strcspn(on, "\n")] = '\0';
	}
	mr_gets(err, sizeof(err), "error");
	return ok & mr_check("commit-vs-hotplug",
			     commits == 30 && hprc == 0 && rcf == 0 && !strcmp(on, "1") &&
				     mr_cpu(1, "running") == 1 && p6 > p5 + min && !strcmp(err, "none"),
			     "commits ok=%d/30 hotplug-loop failures=%d online=%s final-commit rc=%d running=%lld periods %lld->%lld error='%s'",
			     commits, hprc, on, rcf, mr_cpu(1, "running"), p5, p6, err);
}

static int cmd_cpu1(char **a)
{
	return !hotplug(atoll(a[0]), atoll(a[1]), (pid_t)atol(a[2]));
}

static int cmd_share_cpu_offline(char **a)
{
	(void)a;
	return !share_cpu_offline();
}

static const struct mr_cmd cmds[] = {
	{ "cpu1", 3, "P MIN W1", cmd_cpu1 },
	{ "share-cpu-offline", 0, "", cmd_share_cpu_offline },
};

int main(int argc, char **argv)
{
	return mr_dispatch(cmds, sizeof(cmds) / sizeof(cmds[0]), argc, argv);
}
