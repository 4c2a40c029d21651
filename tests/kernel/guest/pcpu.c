/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcpu - guest-side verdicts of the per-CPU event checks (the arm64
 * group pcpu on the PMU, the x86-64 load group's pcpu-* checks on
 * software events): each CPU's read counter counts the event that CPU
 * was given (memreg's read_event_cpus= parameter and cpuN/read_event
 * files), and a bad per-CPU spec refuses the commit and leaves the
 * running configuration alone.
 *
 *   pcpu -n NAME -e SPEC0,SPEC1 [-t SECONDS]
 *       Check that cpu0/read_event and cpu1/read_event read SPEC0 and
 *       SPEC1, then spin on each CPU in turn and check that it counts at
 *       the rate of its own event: raw:0x11 (CPU_CYCLES) one per guest ns
 *       under -icount, raw:0x08 (INST_RETIRED) one per instruction, i.e.
 *       1/16 of that at -icount shift=4, cpu-clock one per ns of the
 *       CPU's time, page-faults about none.
 *   pcpu -n NAME -s CPU=SPEC,CPU=SPEC
 *       Write each CPU's cpuN/read_event and commit; a check that the
 *       commit succeeds.
 *   pcpu -n NAME -b CPU=SPEC -e SPEC0,SPEC1
 *       Stage a bad spec for CPU and commit: the commit must fail, error
 *       must name the CPU and the spec, the CPUs must still count SPEC0 and
 *       SPEC1, and after "0" to commit the file reads the running spec.
 *
 * Each check prints one line through checklib's mr_check().  Exit status
 * 0 when every check of the call passed.  Linked statically.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checklib.h"

static int failed;

/* mr_check() of "NAME-SUFFIX"; remembers a failure. */
static void verdict(const char *name, const char *suffix, int ok, const char *detail)
{
	char full[96];

	snprintf(full, sizeof(full), "%s-%s", name, suffix);
	failed |= !mr_check(full, ok, "%s", detail);
}

/* CLOCK_MONOTONIC in microseconds. */
static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/*
 * Spin pinned to @cpu for @secs; returns cpuN/read_events counted per us
 * of the spin (the statistic moves once per period: the spin is many
 * periods long).
 */
static double rate_on(int cpu, double secs)
{
	volatile unsigned long sink = 0;
	long long e0, e1;
	double t0, t1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	usleep(30000);	/* let a period boundary pass on the new CPU */
	e0 = mr_cpu(cpu, "read_events");
	t0 = now_us();
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
	} while (now_us() - t0 < secs * 1e6);
	usleep(30000);	/* the period in progress reaches the statistic */
	e1 = mr_cpu(cpu, "read_events");
	t1 = now_us();
	return (double)(e1 - e0) / (t1 - t0);
}

/*
 * Is @rate (events per us of a busy CPU) what @spec counts?  Cycles and
 * cpu-clock: one per guest ns (1000/us; interrupts and the period
 * boundaries included, 600..1400).  Instructions at -icount shift=4: one per 16 ns (62.5/us;
 * 20..200 allows the idle instants of the usleep()s).  Page faults: the
 * spin takes none (< 1/us).
 */
static int rate_fits(const char *spec, double rate, const char **want)
{
	if (!strcmp(spec, "raw:0x11")) {
		*want = "600..1400/us (CPU_CYCLES, 1 per guest ns)";
		return rate >= 600 && rate <= 1400;
	}
	if (!strcmp(spec, "raw:0x08")) {
		*want = "20..200/us (INST_RETIRED, 1 per 16 guest ns)";
		return rate >= 20 && rate <= 200;
	}
	if (!strcmp(spec, "cpu-clock")) {
		*want = "600..1400/us (cpu-clock, 1 per ns)";
		return rate >= 600 && rate <= 1400;
	}
	if (!strcmp(spec, "page-faults")) {
		*want = "< 1/us (page faults: the spin takes none)";
		return rate >= 0 && rate < 1;
	}
	*want = "(no expectation for this spec)";
	return 0;
}

/* Both CPUs read back and count their own spec. */
static void check_counts(const char *name, const char *spec[2], double secs)
{
	char got[2][64], detail[512];
	const char *want[2];
	double rate[2];
	int cpu, ok;

	for (cpu = 0; cpu < 2; cpu++)
		mr_gets(got[cpu], sizeof(got[cpu]), "cpu%d/read_event", cpu);
	snprintf(detail, sizeof(detail), "cpu0/read_event=%s (want %s) cpu1/read_event=%s (want %s)",
		 got[0], spec[0], got[1], spec[1]);
	verdict(name, "readback", !strcmp(got[0], spec[0]) && !strcmp(got[1], spec[1]), detail);
	for (cpu = 0; cpu < 2; cpu++)
		rate[cpu] = rate_on(cpu, secs);
	ok = rate_fits(spec[0], rate[0], &want[0]);
	ok &= rate_fits(spec[1], rate[1], &want[1]);
	snprintf(detail, sizeof(detail), "cpu0 %s: %.1f events/us busy, want %s; "
		 "cpu1 %s: %.1f events/us busy, want %s", spec[0], rate[0], want[0],
		 spec[1], rate[1], want[1]);
	verdict(name, "counts", ok, detail);
}

/* Split "A,B" into two specs (in place). */
static int split2(char *s, const char *out[2])
{
	char *c = strchr(s, ',');

	if (!c)
		return -1;
	*c = '\0';
	out[0] = s;
	out[1] = c + 1;
	return 0;
}

/* Write each "CPU=SPEC" of @list to cpuN/read_event; 0 or an errno. */
static int stage(char *list, char *detail, size_t len)
{
	char *tok, *save = NULL;
	size_t n = 0;
	int err;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			return EINVAL;
		*eq = '\0';
		err = -mr_put(eq + 1, "cpu%s/read_event", tok);
		n += (size_t)snprintf(detail + n, n < len ? len - n : 0, "cpu%s/read_event=%s (%s); ",
				      tok, eq + 1, err ? strerror(err) : "staged");
		if (err)
			return err;
	}
	return 0;
}

/* Entry point: -s, then -b, then -e, each as the usage above says. */
int main(int argc, char **argv)
{
	char *expect = NULL, *set = NULL, *bad = NULL, detail[512], err[256];
	const char *name = "pcpu", *spec[2];
	double secs = 1;
	int opt, e;

	while ((opt = getopt(argc, argv, "n:e:s:b:t:")) != -1) {
		switch (opt) {
		case 'n': name = optarg; break;
		case 'e': expect = optarg; break;
		case 's': set = optarg; break;
		case 'b': bad = optarg; break;
		case 't': secs = atof(optarg); break;
		default:
			fprintf(stderr, "usage: pcpu -n NAME [-s CPU=SPEC,...] [-b CPU=SPEC] [-e SPEC0,SPEC1] [-t S]\n");
			return 2;
		}
	}
	if (set) {
		e = stage(set, detail, sizeof(detail));
		if (!e)
			e = -mr_commit();
		mr_gets(err, sizeof(err), "error");
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 "commit: %s, error='%s'", e ? strerror(e) : "ok", err);
		verdict(name, "commit", !e && !strcmp(err, "none"), detail);
	}
	if (bad) {
		char cpu[8], want[96], *eq = strchr(bad, '=');
		char back[64];
		int staged, committed;

		if (!eq || eq - bad >= (long)sizeof(cpu))
			return 2;
		snprintf(cpu, sizeof(cpu), "%.*s", (int)(eq - bad), bad);
		snprintf(want, sizeof(want), "cpu %s: read_event '%s'", cpu, eq + 1);
		staged = stage(bad, detail, sizeof(detail));
		committed = -mr_commit();
		mr_gets(err, sizeof(err), "error");
		snprintf(detail + strlen(detail), sizeof(detail) - strlen(detail),
			 "commit: %s, error='%s' (must name \"%s\")",
			 committed ? strerror(committed) : "accepted", err, want);
		verdict(name, "refused", !staged && committed == EINVAL &&
			(strstr(err, want) || mr_klog_has(want)), detail);
		mr_put("0\n", "commit");
		mr_gets(back, sizeof(back), "cpu%s/read_event", cpu);
		snprintf(detail, sizeof(detail), "after commit 0: cpu%s/read_event reads '%s', pending=%lld",
			 cpu, back, mr_get("pending"));
		verdict(name, "discarded", strcmp(back, eq + 1) && mr_get("pending") == 0, detail);
	}
	if (expect) {
		if (split2(expect, spec))
			return 2;
		check_counts(name, spec, secs);
	}
	return failed;
}
