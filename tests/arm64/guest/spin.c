/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spin - guest-side workload for the arm64 memreg checks that regulate on
 * the PMU's CPU_CYCLES event (raw 0x11): a CPU-bound user-space loop pinned
 * to one CPU.  Cycles stand in for memory traffic (the emulated PMU counts
 * no cache refills), so a budget of B cycles per period should leave the
 * loop about B / (cycles per period) of the CPU; the rest of each period is
 * held by memreg's throttle thread.
 *
 *   spin -c CPU -t SECONDS
 *
 * Output (one line):
 *   "spin cpu=C secs=S cpu_secs=U share=F loops=N rate=R t0=NS"
 * S is CLOCK_MONOTONIC wall time, U the thread's CPU time (time it really
 * ran: preemption by the throttle thread is not counted), F = U / S,
 * R loops per wall second, NS the CLOCK_MONOTONIC start.
 * Linked statically for the initramfs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Nanoseconds of clock @clk. */
static long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Entry point: parse -c/-t, pin, spin, report. */
int main(int argc, char **argv)
{
	volatile unsigned long sink = 0;
	long long t0, c0, end, now, loops = 0;
	double secs = 1, wall, cpu_s;
	int cpu = -1, opt;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:t:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 't': secs = atof(optarg); break;
		default:
			fprintf(stderr, "usage: spin -c CPU -t SECONDS\n");
			return 2;
		}
	}
	if (secs <= 0) {
		fprintf(stderr, "spin: -t must be positive\n");
		return 2;
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("spin: sched_setaffinity");
			return 1;
		}
	}
	t0 = clock_ns(CLOCK_MONOTONIC);
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	end = t0 + (long long)(secs * 1e9);
	do {
		for (int k = 0; k < 1000; k++)
			sink = sink + (unsigned long)k;
		loops++;
		now = clock_ns(CLOCK_MONOTONIC);
	} while (now < end);
	wall = (now - t0) / 1e9;
	cpu_s = (clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e9;
	printf("spin cpu=%d secs=%.3f cpu_secs=%.3f share=%.4f loops=%lld "
	       "rate=%.0f t0=%lld\n", cpu, wall, cpu_s, cpu_s / wall, loops,
	       loops / wall, t0);
	return 0;
}
