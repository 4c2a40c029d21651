// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_delivery.c - the overflow-delivery check (pmu_delivery.h).  It uses
 * libc and the kernel's perf headers only, so a guest program can build
 * it alone (tests/arm64/guest/selfcheck.c).
 *
 * File map:
 *   ring buffer walk           count_records()
 *   verdict                    cal_pmu_delivery_verdict()
 *   delivery check             cal_pmu_check_delivery()
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pmu_delivery.h"

/* Ring buffer: one metadata page and this many data pages (power of 2). */
#define RING_PAGES 64

/**
 * struct ring_tally - what the ring buffer held.
 * @samples:   PERF_RECORD_SAMPLE records (one per delivered overflow).
 * @lost:      samples perf dropped because the buffer was full.
 * @throttled: a PERF_RECORD_THROTTLE was seen.
 */
struct ring_tally {
	uint64_t samples;
	uint64_t lost;
	bool throttled;
};

/*
 * count_records - walk the records between data_tail and data_head and
 * consume them, so a long check never overruns the buffer.
 */
static void count_records(struct perf_event_mmap_page *meta,
			  struct ring_tally *t)
{
	unsigned char *data = (unsigned char *)meta + meta->data_offset;
	uint64_t size = meta->data_size, head, tail = meta->data_tail;

	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	while (tail < head) {
		struct perf_event_header h;
		uint64_t off = tail % size;

		/* A header may wrap around the end of the buffer. */
		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			t->samples++;
		} else if (h.type == PERF_RECORD_THROTTLE) {
			t->throttled = true;
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t lost[2];

			for (size_t i = 0; i < sizeof(lost); i++)
				((unsigned char *)lost)[i] =
					data[(off + sizeof(h) + i) % size];
			t->lost += lost[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * cal_pmu_delivery_verdict - from @d's count, expected and delivered
 * overflows, rate and throttle flag, set @d->pass and @d->message.
 * @period is the sample period the check used.
 */
void cal_pmu_delivery_verdict(struct memcal_delivery *d, uint64_t period,
				 double needed_per_s)
{
	double ratio = d->expected > 0 ? (double)d->delivered / d->expected
				       : 0;

	d->pass = false;
	if (!d->count) {
		snprintf(d->message, sizeof(d->message), "cpu %u: the event "
			 "counted nothing while the load ran: it cannot "
			 "regulate this traffic", d->cpu);
	} else if (d->expected < 10) {
		snprintf(d->message, sizeof(d->message), "cpu %u: %llu events "
			 "make only %.1f overflows of %llu: too few to judge "
			 "delivery (a longer load or a smaller period)", d->cpu,
			 (unsigned long long)d->count, d->expected,
			 (unsigned long long)period);
	} else if (!d->delivered) {
		snprintf(d->message, sizeof(d->message), "cpu %u: %llu events "
			 "(%.0f overflows of %llu) but no overflow interrupt "
			 "arrived: the PMU interrupt is not delivered on this "
			 "CPU (check the board's PMU interrupt wiring and "
			 "affinity)", d->cpu, (unsigned long long)d->count,
			 d->expected, (unsigned long long)period);
	} else if (d->throttled || ratio < MEMCAL_DELIVERY_MIN_RATIO) {
		snprintf(d->message, sizeof(d->message), "cpu %u: %llu of %.0f "
			 "overflow interrupts arrived (%.0f%%)%s", d->cpu,
			 (unsigned long long)d->delivered, d->expected,
			 100 * ratio, d->throttled ? "; perf throttled the "
			 "counter: raise kernel.perf_event_max_sample_rate" :
			 "");
	} else if (d->rate_per_s < needed_per_s) {
		snprintf(d->message, sizeof(d->message), "cpu %u: interrupts "
			 "arrive, but only %.0f/s of the %.0f/s needed: the "
			 "load made too little traffic for this check",
			 d->cpu, d->rate_per_s, needed_per_s);
	} else {
		d->pass = true;
		snprintf(d->message, sizeof(d->message), "cpu %u: %llu of %.0f "
			 "overflow interrupts delivered (%.0f/s, %.0f/s "
			 "needed)", d->cpu, (unsigned long long)d->delivered,
			 d->expected, d->rate_per_s, needed_per_s);
	}
}

/*
 * cal_pmu_check_delivery - count @attr (its sample_period set: one
 * overflow per that many events) on the calling thread, pinned to @cpu,
 * while @load runs for @seconds, and compare the overflow interrupts that
 * arrived with the ones the count implies and with @needed_per_s.
 *
 * Return: 0 with @d filled (a failed check is a result), or -errno when
 * the event cannot be opened or mapped (@d->message says which).
 */
int cal_pmu_check_delivery(const struct perf_event_attr *attr,
			      unsigned cpu, double needed_per_s,
			      double seconds, memcal_load_fn load, void *user,
			      struct memcal_delivery *d)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * (RING_PAGES + 1);
	struct perf_event_attr a = *attr;
	struct ring_tally t = { 0 };
	struct timespec t0, t1;
	cpu_set_t set, old;
	void *ring;
	int fd, rc = 0;

	memset(d, 0, sizeof(*d));
	d->cpu = cpu;
	if (!a.sample_period) {
		snprintf(d->message, sizeof(d->message), "no sample period");
		return -EINVAL;
	}
	a.size = sizeof(a);
	a.disabled = 1;
	a.exclude_hv = 1;
	a.sample_type = PERF_SAMPLE_IP;
	a.wakeup_events = 1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_getaffinity(0, sizeof(old), &old) ||
	    sched_setaffinity(0, sizeof(set), &set)) {
		rc = -errno;
		snprintf(d->message, sizeof(d->message), "cannot run on cpu "
			 "%u: %s", cpu, strerror(-rc));
		return rc;
	}
	fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		rc = -errno;
		snprintf(d->message, sizeof(d->message), "cpu %u: "
			 "perf_event_open: %s%s", cpu, strerror(-rc),
			 rc == -ENOENT || rc == -EOPNOTSUPP ? ": no PMU counts "
			 "this event on this CPU (a kernel without the PMU "
			 "driver, or a virtual machine without a PMU)" :
			 rc == -EACCES || rc == -EPERM ? ": not allowed (run "
			 "as root, or lower kernel.perf_event_paranoid)" : "");
		goto out_affinity;
	}
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		rc = -errno;
		snprintf(d->message, sizeof(d->message), "cpu %u: cannot map "
			 "the sample buffer: %s", cpu, strerror(-rc));
		goto out_fd;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (double done = 0; done < seconds; done += seconds / 20) {
		load(seconds / 20, user);
		count_records(ring, &t);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	count_records(ring, &t);
	if (read(fd, &d->count, sizeof(d->count)) != sizeof(d->count))
		d->count = 0;
	d->delivered = t.samples + t.lost;
	d->throttled = t.throttled;
	d->expected = (double)d->count / (double)a.sample_period;
	d->rate_per_s = (double)d->delivered /
			((double)(t1.tv_sec - t0.tv_sec) +
			 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	cal_pmu_delivery_verdict(d, a.sample_period, needed_per_s);
	munmap(ring, len);
out_fd:
	close(fd);
out_affinity:
	sched_setaffinity(0, sizeof(old), &old);
	return rc;
}
