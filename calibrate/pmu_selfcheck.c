// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_selfcheck.c - overflow-delivery check and PMU-user detection (see
 * pmu_selfcheck.h).
 *
 * File map:
 *   ring buffer walk           count_records()
 *   delivery check             memcal_pmu_check_delivery()
 *   other PMU users            nmi_watchdog_on(), scan_perf_holders(),
 *                              memcal_pmu_find_users()
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cpu_types.h"
#include "pmu_selfcheck.h"

/* Ring buffer: one metadata page and this many data pages (power of 2). */
#define RING_PAGES 64

/* Share of the implied overflows that must arrive for a pass. */
#define DELIVERY_MIN_RATIO 0.9

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
 * memcal_pmu_delivery_verdict - from @d's count, expected and delivered
 * overflows, rate and throttle flag, set @d->pass and @d->message.
 * @period is the sample period the check used.
 */
void memcal_pmu_delivery_verdict(struct memcal_delivery *d, uint64_t period,
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
	} else if (d->throttled || ratio < DELIVERY_MIN_RATIO) {
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
 * memcal_pmu_check_delivery - count @attr (its sample_period set: one
 * overflow per that many events) on the calling thread, pinned to @cpu,
 * while @load runs for @seconds, and compare the overflow interrupts that
 * arrived with the ones the count implies and with @needed_per_s.
 *
 * Return: 0 with @d filled (a failed check is a result), or -errno when
 * the event cannot be opened or mapped (@d->message says which).
 */
int memcal_pmu_check_delivery(const struct perf_event_attr *attr,
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
			 "perf_event_open: %s", cpu, strerror(-rc));
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
	memcal_pmu_delivery_verdict(d, a.sample_period, needed_per_s);
	munmap(ring, len);
out_fd:
	close(fd);
out_affinity:
	sched_setaffinity(0, sizeof(old), &old);
	return rc;
}

/* nmi_watchdog_on - kernel.nmi_watchdog is 1 (procfs root honoured). */
static bool nmi_watchdog_on(void)
{
	char path[512], buf[8] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/nmi_watchdog",
		 memcal_procfs_root());
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] == '1';
}

/* holds_perf - process directory @pid has a perf event file open. */
static bool holds_perf(const char *root, const char *pid)
{
	char path[512];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/fd", root, pid);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char link[800], target[64];
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%.255s", path, e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		found = !strcmp(target, "anon_inode:[perf_event]");
	}
	closedir(d);
	return found;
}

/* scan_perf_holders - every other process with perf events open. */
static void scan_perf_holders(struct memcal_pmu_users *u)
{
	const char *root = memcal_procfs_root();
	char self[32];
	struct dirent *e;
	DIR *d = opendir(root);

	snprintf(self, sizeof(self), "%d", (int)getpid());
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[600], comm[32] = "?";
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    !strcmp(e->d_name, self) || !holds_perf(root, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", root, e->d_name);
		f = fopen(path, "r");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				snprintf(comm, sizeof(comm), "?");
			comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		if (u->n_holders < 4)
			snprintf(u->holders[u->n_holders],
				 sizeof(u->holders[0]), "%.12s (%.30s)",
				 e->d_name, comm);
		u->n_holders++;
	}
	closedir(d);
}

/*
 * memcal_pmu_find_users - who else holds counters: the NMI watchdog (a
 * cycles counter on every CPU) and processes with perf events open (perf
 * record/stat, profilers).  @u->message names them and how to free them.
 * Return: 1 when someone does, 0 when the PMU is free.
 */
int memcal_pmu_find_users(struct memcal_pmu_users *u)
{
	size_t off = 0;

	memset(u, 0, sizeof(*u));
	u->nmi_watchdog = nmi_watchdog_on();
	scan_perf_holders(u);
	if (u->nmi_watchdog)
		off += (size_t)snprintf(u->message, sizeof(u->message),
					"the NMI watchdog holds a counter on "
					"every CPU (free it: sysctl "
					"kernel.nmi_watchdog=0)");
	if (u->n_holders) {
		off += (size_t)snprintf(u->message + off,
					sizeof(u->message) - off,
					"%s%u process%s hold%s perf events "
					"(stop %s", off ? "; " : "",
					u->n_holders,
					u->n_holders > 1 ? "es" : "",
					u->n_holders > 1 ? "" : "s",
					u->n_holders > 1 ? "them" : "it");
		for (unsigned i = 0; i < u->n_holders && i < 4 &&
		     off < sizeof(u->message); i++)
			off += (size_t)snprintf(u->message + off,
						sizeof(u->message) - off,
						"%s%s", i ? ", " : ": ",
						u->holders[i]);
		if (off < sizeof(u->message))
			snprintf(u->message + off, sizeof(u->message) - off,
				 ")");
	}
	return u->nmi_watchdog || u->n_holders;
}
