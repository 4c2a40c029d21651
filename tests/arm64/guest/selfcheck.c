// SPDX-License-Identifier: GPL-2.0-only
/*
 * selfcheck.c - memcal's overflow-delivery self-check (calibrate/
 * pmu_delivery.c, built in) run in the arm64 guest, each verdict printed
 * as one MEMREG-CHECK line.
 *
 *   selfcheck            the guest has its emulated PMUv3 (-cpu max,pmu=on):
 *     selfcheck-delivery-cpuN  raw 0x11 (CPU_CYCLES) sampled for the rate
 *                              of a 1 ms regulation period passes on CPU N;
 *     selfcheck-counts-nothing raw 0x17 (L2D_CACHE_REFILL, which counts 0
 *                              under emulation) fails: "counted nothing";
 *     selfcheck-throttled      with kernel.perf_event_max_sample_rate cut
 *                              to 1000/s perf throttles the counter and
 *                              the check fails naming that sysctl.
 *   selfcheck --no-pmu   the guest booted without a PMU (pmu=off):
 *     selfcheck-nopmu-cpuN     the check cannot open the counter: it
 *                              returns -ENOENT, and its message names
 *                              perf_event_open and the missing PMU.
 *
 * It declares its checks first (MEMREG-PLAN, checklib).  Exit status: 0
 * when every check came out as stated, 1 otherwise.  Under -icount
 * CPU_CYCLES counts guest nanoseconds, so the figures do not depend on the
 * host's load.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checklib.h"
/*
 * memcal's check itself, compiled in: the harness builds each guest
 * program from one source file (and checklib), and pmu_delivery.c needs
 * only libc and the perf headers.
 */
#include "../../../calibrate/pmu_delivery.c"

/* Guest seconds each check runs its load. */
#define LOAD_S		0.5
/* CPU_CYCLES per second: one per guest nanosecond under -icount. */
#define CYCLES_PER_S	1e9

static int failed;

/* check - one MEMREG-CHECK line, "-cpuN" added for a CPU's check. */
static void check(const char *name, unsigned cpu, int pass,
		  const char *detail)
{
	char full[64];

	if (cpu != -1u)
		snprintf(full, sizeof(full), "%s-cpu%u", name, cpu);
	else
		snprintf(full, sizeof(full), "%s", name);
	failed |= !mr_check(full, pass, "%s", detail);
}

/* spin - keep this CPU busy for @seconds of guest time. */
static void spin(double seconds, void *user)
{
	struct timespec t0, t;
	volatile unsigned long n = 0;

	(void)user;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 1000; i++)
			n++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}

/* raw - a raw PMUv3 event sampled every @period counts, user space only. */
static struct perf_event_attr raw(unsigned long long code,
				  unsigned long long period)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_RAW;
	a.config = code;
	a.sample_period = period;
	a.exclude_kernel = 1;
	return a;
}

/* sysctl - write @value to /proc/sys/kernel/@name; 0 or -errno. */
static int sysctl(const char *name, const char *value)
{
	char path[128];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fputs(value, f) < 0)
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/* detail - "rc N: message" into @buf. */
static const char *detail(char *buf, size_t len, int rc,
			  const struct memcal_delivery *d)
{
	snprintf(buf, len, "rc %d: %s", rc, d->message);
	return buf;
}

/*
 * with_pmu - delivery passes on every CPU at the rate a 1 ms period
 * needs (four times that rate offered); a counter that counts nothing and
 * a throttled one fail with their reasons.
 */
static void with_pmu(unsigned ncpu)
{
	double needed = 1e6 / MEMCAL_SELFCHECK_PERIOD_US;
	struct perf_event_attr a = raw(0x11, CYCLES_PER_S / (4 * needed));
	struct memcal_delivery d;
	char buf[400];
	int rc, rc2;

	for (unsigned c = 0; c < ncpu; c++) {
		rc = cal_pmu_check_delivery(&a, c, needed, LOAD_S, spin,
					       NULL, &d);
		check("selfcheck-delivery", c, !rc && d.pass,
		      detail(buf, sizeof(buf), rc, &d));
	}
	a = raw(0x17, 1000);
	rc = cal_pmu_check_delivery(&a, 0, needed, LOAD_S, spin, NULL, &d);
	check("selfcheck-counts-nothing", -1u, !rc && !d.pass &&
	      strstr(d.message, "counted nothing"),
	      detail(buf, sizeof(buf), rc, &d));

	/* the rate can be written only while the automatic lowering is on */
	rc = sysctl("perf_cpu_time_max_percent", "25");
	rc2 = rc ? rc : sysctl("perf_event_max_sample_rate", "1000");
	a = raw(0x11, CYCLES_PER_S / (4 * needed));
	if (!rc2)
		rc2 = cal_pmu_check_delivery(&a, 0, needed, LOAD_S, spin,
						NULL, &d);
	else
		snprintf(d.message, sizeof(d.message), "cannot lower "
			 "kernel.perf_event_max_sample_rate: %s",
			 strerror(-rc2));
	check("selfcheck-throttled", -1u, !rc2 && !d.pass && d.throttled &&
	      strstr(d.message, "perf_event_max_sample_rate"),
	      detail(buf, sizeof(buf), rc2, &d));
	sysctl("perf_event_max_sample_rate", "200000");
	sysctl("perf_cpu_time_max_percent", "0");
}

/* without_pmu - the check cannot open the counter on any CPU, and says so. */
static void without_pmu(unsigned ncpu)
{
	struct perf_event_attr a = raw(0x11, 250000);
	struct memcal_delivery d;
	char buf[400];

	for (unsigned c = 0; c < ncpu; c++) {
		int rc = cal_pmu_check_delivery(&a, c, 1000, LOAD_S, spin,
						   NULL, &d);

		check("selfcheck-nopmu", c, rc == -ENOENT &&
		      strstr(d.message, "perf_event_open") &&
		      strstr(d.message, "no PMU counts this event"),
		      detail(buf, sizeof(buf), rc, &d));
	}
}

int main(int argc, char **argv)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned ncpu = n > 0 ? (unsigned)n : 1;

	bool nopmu = argc > 1 && !strcmp(argv[1], "--no-pmu");

	if (ncpu != 2) {
		mr_plan("selfcheck-cpus", NULL);
		mr_check("selfcheck-cpus", 0, "the guest has %u CPUs, the "
			 "checks are planned for 2", ncpu);
		return 1;
	}
	if (nopmu) {
		mr_plan("selfcheck-nopmu-cpu0", "selfcheck-nopmu-cpu1", NULL);
		without_pmu(ncpu);
	} else {
		mr_plan("selfcheck-delivery-cpu0", "selfcheck-delivery-cpu1",
			"selfcheck-counts-nothing", "selfcheck-throttled",
			NULL);
		with_pmu(ncpu);
	}
	return failed;
}
