/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfload - guest-side workload for the memreg QEMU checks: it drives the
 * software event PERF_COUNT_SW_PAGE_FAULTS (the stand-in for memory
 * traffic on a guest without a PMU) by touching fresh anonymous pages,
 * one minor fault per page, and reports what it did.
 *
 *   pfload -c CPU -t SECONDS            as fast as it can
 *   pfload -c CPU -p PHASE_MS -r R1,R2,...
 *                                       paced: Ri faults per second for
 *                                       PHASE_MS each (demand steps), paced
 *                                       in 1 ms slots
 *
 * Output (one line): "pfload cpu=C faults=N secs=S rate=R t0=NS" (R per
 * second; NS the CLOCK_MONOTONIC start, to line up with memreg periods).
 * It also keeps a counting PERF_COUNT_SW_PAGE_FAULTS event of its own open
 * while it runs.  That holds the kernel's software-event static key
 * enabled, so loading and unloading memreg (whose counters use the same
 * key) does not live-patch do_user_addr_fault() on every cycle: under
 * multi-threaded TCG the int3-based patching races with the other vCPU
 * executing that code and oopses with "int3" (an emulator artefact, seen
 * in the 50-cycle check).  Its own count is printed as own=N.
 *
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
#include <time.h>
#include <unistd.h>

#define PAGES 1024

static long pagesz;
static char *region;
static long next_page;

/* Monotonic time in nanoseconds. */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Cause one minor page fault; recycle the region every PAGES faults. */
static void one_fault(void)
{
	if (next_page == PAGES) {
		madvise(region, PAGES * pagesz, MADV_DONTNEED);
		next_page = 0;
	}
	region[next_page++ * pagesz] = 1;
}

/* Parse "a,b,c" into @r (at most 16); returns the count. */
static int parse_rates(char *s, long *r)
{
	int n = 0;

	for (char *t = strtok(s, ","); t && n < 16; t = strtok(NULL, ","))
		r[n++] = atol(t);
	return n;
}

/* Entry point: see the header comment. */
int main(int argc, char **argv)
{
	long rates[16], phase_ms = 0, faults = 0;
	int cpu = -1, nrates = 0, opt;
	double secs = 1;
	long long t0, end;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:t:p:r:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 't': secs = atof(optarg); break;
		case 'p': phase_ms = atol(optarg); break;
		case 'r': nrates = parse_rates(optarg, rates); break;
		default:
			fprintf(stderr, "usage: pfload -c CPU [-t S | -p MS -r R,...]\n");
			return 2;
		}
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("pfload: sched_setaffinity");
			return 1;
		}
	}
	struct perf_event_attr pa;
	long long own = -1;
	int pfd;

	memset(&pa, 0, sizeof(pa));
	pa.size = sizeof(pa);
	pa.type = PERF_TYPE_SOFTWARE;
	pa.config = PERF_COUNT_SW_PAGE_FAULTS;
	pfd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0);
	pagesz = sysconf(_SC_PAGESIZE);
	region = mmap(NULL, PAGES * pagesz, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		perror("pfload: mmap");
		return 1;
	}
	next_page = PAGES;
	t0 = now_ns();
	if (nrates && phase_ms) {
		secs = nrates * phase_ms / 1000.0;
		double quota = 0;

		for (int i = 0; i < nrates; i++) {
			for (long ms = 0; ms < phase_ms; ms++) {
				long long slot = t0 + ((long long)i * phase_ms + ms + 1) * 1000000LL;

				/* unmet demand of a slot is dropped, not carried */
				quota = quota - (long)quota + rates[i] / 1000.0;
				for (long k = 0; k < (long)quota && now_ns() < slot; k++) {
					one_fault();
					faults++;
				}
				while (now_ns() < slot)
					;
			}
		}
	} else {
		end = t0 + (long long)(secs * 1e9);
		while (now_ns() < end) {
			for (int k = 0; k < 16; k++)
				one_fault();
			faults += 16;
		}
	}
	secs = (now_ns() - t0) / 1e9;
	if (pfd >= 0 && read(pfd, &own, sizeof(own)) != sizeof(own))
		own = -1;
	printf("pfload cpu=%d faults=%ld secs=%.3f rate=%.0f t0=%lld own=%lld\n",
	       cpu, faults, secs, faults / secs, t0, own);
	return 0;
}
