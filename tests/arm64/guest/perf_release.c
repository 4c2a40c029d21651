/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_release - guest-side diagnostic for the arm64 QEMU suite: the perf
 * calls memreg makes at load and unload, without memreg.  Pinned to
 * RUN_CPU, it opens a CPU-wide sampling counter on COUNTED_CPU and one on
 * RUN_CPU (the PMU's overflow interrupt fires on both), each with a ring
 * buffer that asks for a wake-up per sample, so that every overflow also
 * queues an irq_work (a self-IPI), as memreg's throttle does; it lets them
 * run and closes them.  Closing the remote one calls
 * perf_event_release_kernel() -> perf_remove_from_context(), a cross-CPU
 * function call to COUNTED_CPU, exactly the call a hung memreg rmmod was
 * seen waiting in.  A hang here, with no module loaded,
 * puts the fault in the emulator or the kernel, not in memreg.
 *
 *   perf_release -n CYCLES -c COUNTED_CPU -s RUN_CPU [-e RAW] [-p PERIOD]
 *                [-u MICROSECONDS]
 *
 * Prints "perf_release cycle N" every 10 cycles and, last,
 * "perf_release done ok=N/M" (exit 0 when every cycle opened and closed).
 * Linked statically for the initramfs.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Open a CPU-wide raw counter on @cpu overflowing every @period events. */
static int counter_open(unsigned long raw, unsigned long period, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = raw;
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP;
	a.wakeup_events = 1;
	a.pinned = 1;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
}

/* Ring buffer size: one control page and 8 data pages. */
#define RING_BYTES(pg) (9 * (pg))

/*
 * Open the counter of @cpu with its ring buffer; -1 on failure (reported).
 * The mapping is returned in @ring.
 */
static int counter_ring(unsigned long raw, unsigned long period, int cpu,
			void **ring)
{
	long pg = sysconf(_SC_PAGESIZE);
	int fd = counter_open(raw, period, cpu);

	if (fd < 0) {
		perror("perf_release: perf_event_open");
		return -1;
	}
	*ring = mmap(NULL, RING_BYTES(pg), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*ring == MAP_FAILED) {
		perror("perf_release: mmap");
		close(fd);
		return -1;
	}
	return fd;
}

/* Unmap @ring and close @fd. */
static void counter_close(int fd, void *ring)
{
	munmap(ring, RING_BYTES(sysconf(_SC_PAGESIZE)));
	close(fd);
}

/* Entry point: parse the options, pin, cycle the counters, report. */
int main(int argc, char **argv)
{
	unsigned long raw = 0x11, period = 875000;
	int n = 100, counted = 0, run = 1, us = 50000, ok = 0, i, o;
	cpu_set_t set;

	while ((o = getopt(argc, argv, "n:c:s:e:p:u:")) != -1) {
		switch (o) {
		case 'n': n = atoi(optarg); break;
		case 'c': counted = atoi(optarg); break;
		case 's': run = atoi(optarg); break;
		case 'e': raw = strtoul(optarg, NULL, 0); break;
		case 'p': period = strtoul(optarg, NULL, 0); break;
		case 'u': us = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: perf_release -n CYCLES -c COUNTED_CPU -s RUN_CPU [-e RAW] [-p PERIOD] [-u US]\n");
			return 2;
		}
	}
	CPU_ZERO(&set);
	CPU_SET(run, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("perf_release: sched_setaffinity");
		return 1;
	}
	for (i = 1; i <= n; i++) {
		void *rr, *lr;
		int rfd = counter_ring(raw, period, counted, &rr);
		int lfd = counter_ring(raw, period, run, &lr);

		if (rfd >= 0 && lfd >= 0) {
			usleep(us);
			ok++;
		}
		if (rfd >= 0)
			counter_close(rfd, rr);
		if (lfd >= 0)
			counter_close(lfd, lr);
		if (i % 10 == 0) {
			printf("perf_release cycle %d\n", i);
			fflush(stdout);
		}
	}
	printf("perf_release done ok=%d/%d\n", ok, n);
	return ok == n ? 0 : 1;
}
