/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtwake - guest-side real-time probe for the memreg QEMU checks: a
 * SCHED_FIFO task pinned to one CPU that sleeps to absolute deadlines
 * (clock_nanosleep, TIMER_ABSTIME) every INTERVAL microseconds and
 * measures how late it wakes, i.e. how long the CPU was held from it.
 *
 *   rtwake -c CPU -p PRIO -i INTERVAL_US -t SECONDS
 *
 * Output (one line): "rtwake cpu=C prio=P wakes=N p50_us=A p99_us=B
 * max_us=M over1ms=K" (K wakes later than 1 ms).  Exit 1 when it cannot
 * set its CPU or policy, 2 on bad usage.
 *
 * Linked statically for the initramfs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_WAKES 200000

static long lat_ns[MAX_WAKES];

/* qsort comparator for latencies */
static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static long ts_ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { 0 };
	struct timespec next, now;
	long interval_us = 2000, secs = 2, end, i, n = 0, over = 0;
	int cpu = 0, prio = 20, opt;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:p:i:t:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 'p': prio = atoi(optarg); break;
		case 'i': interval_us = atol(optarg); break;
		case 't': secs = atol(optarg); break;
		default:
			fprintf(stderr, "usage: rtwake -c CPU -p PRIO -i INTERVAL_US -t SECONDS\n");
			return 2;
		}
	}
	if (interval_us < 100 || secs < 1 || prio < 1 || prio > 99) {
		fprintf(stderr, "rtwake: interval >= 100 us, seconds >= 1, prio 1..99\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("rtwake: sched_setaffinity");
		return 1;
	}
	sp.sched_priority = prio;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("rtwake: sched_setscheduler");
		return 1;
	}
	mlockall(MCL_CURRENT | MCL_FUTURE);
	memset(lat_ns, 0, sizeof(lat_ns));	/* fault the table in now */
	clock_gettime(CLOCK_MONOTONIC, &next);
	end = ts_ns(&next) + secs * 1000000000L;
	while (n < MAX_WAKES) {
		next.tv_nsec += interval_us * 1000;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		if (ts_ns(&next) > end)
			break;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		lat_ns[n] = ts_ns(&now) - ts_ns(&next);
		if (lat_ns[n] > 1000000)
			over++;
		n++;
		/* a late wake skips the deadlines it missed */
		if (ts_ns(&now) > ts_ns(&next) + interval_us * 1000)
			next = now;
	}
	qsort(lat_ns, n, sizeof(lat_ns[0]), cmp_long);
	i = n ? (n * 99 + 99) / 100 - 1 : 0;
	printf("rtwake cpu=%d prio=%d wakes=%ld p50_us=%ld p99_us=%ld max_us=%ld over1ms=%ld\n",
	       cpu, prio, n, n ? lat_ns[n / 2] / 1000 : 0, n ? lat_ns[i] / 1000 : 0,
	       n ? lat_ns[n - 1] / 1000 : 0, over);
	return 0;
}
