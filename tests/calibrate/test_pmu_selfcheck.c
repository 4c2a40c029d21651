// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pmu_selfcheck.c - the overflow-delivery check run for real with a
 * software event standing in for a memory-traffic counter (this machine
 * has no hardware PMU; software events overflow through the same perf
 * path into the same ring buffer), the verdicts for what a board can get
 * wrong, and the detection of other PMU users on a recorded /proc.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpu_types.h"
#include "pmu_selfcheck.h"

/*
 * spin - burn @seconds of this thread's CPU time (task-clock counts it;
 * CPU time, not wall time, so a loaded machine changes nothing).
 */
static void spin(double seconds, void *user)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	(void)user;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			n++;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}

/*
 * An event that overflows every 1 ms of CPU time, 300 times; the rate a
 * regulator needs is checked by the verdicts below, not here (a shared
 * machine gives this thread an unknown share of the CPU).
 */
Test(selfcheck, software_overflows_are_delivered)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK, .sample_period = 1000000 };
	struct memcal_delivery d;

	cr_assert_eq(memcal_pmu_check_delivery(&a, 0, 1, 0.3, spin, NULL,
					       &d), 0, "%s", d.message);
	cr_log_info("%s", d.message);
	cr_expect(d.pass, "%s", d.message);
	cr_expect_gt(d.expected, 250, "%.1f overflows implied", d.expected);
	cr_expect_geq((double)d.delivered, 0.9 * d.expected, "%s", d.message);
	cr_expect_leq((double)d.delivered, d.expected + 2, "%s", d.message);
}

/* A counter that counts nothing while the load runs is refused (a pinned
 * thread never migrates). */
Test(selfcheck, counter_that_counts_nothing_fails)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_MIGRATIONS, .sample_period = 1 };
	struct memcal_delivery d;

	cr_assert_eq(memcal_pmu_check_delivery(&a, 0, 100, 0.05, spin, NULL,
					       &d), 0, "%s", d.message);
	cr_expect_not(d.pass);
	cr_expect(strstr(d.message, "counted nothing"), "%s", d.message);
}

/* The verdicts for what a board can get wrong, from their figures. */
Test(selfcheck, verdicts)
{
	struct memcal_delivery d = { .cpu = 3, .count = 1000000,
		.expected = 1000, .delivered = 0, .rate_per_s = 0 };

	memcal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass);
	cr_expect(strstr(d.message, "no overflow interrupt arrived"), "%s",
		  d.message);
	cr_expect(strstr(d.message, "cpu 3"), "%s", d.message);

	d.delivered = 400;
	d.throttled = true;
	d.rate_per_s = 400;
	memcal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass);
	cr_expect(strstr(d.message, "perf_event_max_sample_rate"), "%s",
		  d.message);

	d.delivered = 1000;
	d.throttled = false;
	d.rate_per_s = 100;
	memcal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass, "below the needed rate");

	d.rate_per_s = 1000;
	memcal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect(d.pass, "%s", d.message);

	d.count = 5000;
	d.expected = 5;
	memcal_pmu_delivery_verdict(&d, 1000, 500);
	cr_expect_not(d.pass, "too few overflows to judge");
}

/* A sample period of 0 is not a sampling counter. */
Test(selfcheck, no_sample_period_is_refused)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK };
	struct memcal_delivery d;

	cr_expect_lt(memcal_pmu_check_delivery(&a, 0, 1, 0.01, spin, NULL,
					       &d), 0);
}

/* mkproc - a recorded /proc: nmi_watchdog @wd, perf held by @pid/@comm. */
static void mkproc(char *root, const char *wd, const char *pid,
		   const char *comm)
{
	char p[512];
	FILE *f;

	strcpy(root, "/tmp/memcal-proc-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/sys", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/kernel", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/sys/kernel/nmi_watchdog", root);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fprintf(f, "%s\n", wd);
	fclose(f);
	if (!pid)
		return;
	snprintf(p, sizeof(p), "%s/%s", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/comm", root, pid);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fprintf(f, "%s\n", comm);
	fclose(f);
	snprintf(p, sizeof(p), "%s/%s/fd", root, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/fd/0", root, pid);
	cr_assert_eq(symlink("/dev/pts/0", p), 0);
	snprintf(p, sizeof(p), "%s/%s/fd/3", root, pid);
	cr_assert_eq(symlink("anon_inode:[perf_event]", p), 0);
	setenv("MEMCAL_PROCFS_ROOT", root, 1);
}

/* rmtree - remove the recorded /proc. */
static void rmtree(const char *root)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_assert_eq(system(cmd), 0);
	unsetenv("MEMCAL_PROCFS_ROOT");
}

Test(selfcheck, watchdog_and_perf_named_with_the_remedy)
{
	struct memcal_pmu_users u;
	char root[64];

	mkproc(root, "1", "4321", "perf");
	cr_expect_eq(memcal_pmu_find_users(&u), 1);
	cr_expect(u.nmi_watchdog);
	cr_expect_eq(u.n_holders, 1);
	cr_expect(strstr(u.message, "kernel.nmi_watchdog=0"), "%s", u.message);
	cr_expect(strstr(u.message, "4321 (perf)"), "%s", u.message);
	rmtree(root);
}

Test(selfcheck, free_pmu_has_no_message)
{
	struct memcal_pmu_users u;
	char root[64];

	mkproc(root, "0", NULL, NULL);
	setenv("MEMCAL_PROCFS_ROOT", root, 1);
	cr_expect_eq(memcal_pmu_find_users(&u), 0);
	cr_expect_str_eq(u.message, "");
	rmtree(root);
}
