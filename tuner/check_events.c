// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_events.c - the events item of 'memtune check': each regulated
 * CPU's events opened on it, their overflow delivery measured with
 * calibrate's self-check (pmu_delivery.c) under a load they count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "check_int.h"
#include "memreg.h"
#include "pmu_delivery.h"

/**
 * struct event_load - what the delivery check runs while it counts: page
 * faults on fresh pages (the software stand-in events count them) and a
 * streaming read well beyond the caches (hardware memory events).
 * @buf, @bytes: the read buffer (a whole number of MiB).
 * @pos:         where the next read starts.
 * @sink:        the reads' sum, kept.
 */
struct event_load {
	unsigned char *buf;
	size_t bytes, pos;
	volatile uint64_t sink;
};

/* now_s - monotonic seconds. */
static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* run_load - memcal_load_fn: faults and reads for @seconds, in steps
 * short enough (64 fresh pages, 1 MiB of the buffer) to end on time. */
static void run_load(double seconds, void *user)
{
	struct event_load *l = user;
	double end = now_s() + seconds;

	do {
		size_t len = 64 * 4096, chunk = 1 << 20;
		unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t sum = 0;

		if (p != MAP_FAILED) {
			madvise(p, len, MADV_NOHUGEPAGE);
			for (size_t i = 0; i < len; i += 4096)
				p[i] = (unsigned char)i;
			munmap(p, len);
		}
		for (size_t i = 0; l->buf && i < chunk; i += 64)
			sum += l->buf[l->pos + i];
		if (l->buf)
			l->pos = (l->pos + chunk) % l->bytes;
		l->sink += sum;
	} while (now_s() < end);
}

/*
 * resolve - @spec as a perf encoding: memreg's own spec syntax, or
 * PMU_NAME:CONFIG with the type read from this unit's event source.
 * Sets @counted (false for "none"); returns 0, or MEMCAL_ESYNTAX or
 * MEMCAL_ENOTFOUND with @why.
 */
static int resolve(const char *spec, struct perf_event_attr *a,
		   bool *counted, char *why, size_t len)
{
	struct memreg_event ev;
	const char *w = "";
	char name[64];
	const char *colon = strchr(spec, ':');
	unsigned long long config;
	char *end;
	long type;

	memset(a, 0, sizeof(*a));
	*counted = true;
	if (!memreg_event_parse(spec, (memreg_u32)strlen(spec), &ev, &w)) {
		a->type = ev.type;
		a->config = ev.config;
		*counted = ev.counted;
		return 0;
	}
	if (!colon || (size_t)(colon - spec) >= sizeof(name)) {
		snprintf(why, len, "'%s' is not an event spec: %s", spec, w);
		return MEMCAL_ESYNTAX;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(colon - spec), spec);
	config = strtoull(colon + 1, &end, 0);
	if (*end || end == colon + 1) {
		snprintf(why, len, "'%s' is not an event spec: %s", spec, w);
		return MEMCAL_ESYNTAX;
	}
	type = tune_check_pmu_type(name);
	if (type < 0) {
		snprintf(why, len, "event '%s': no PMU named %s on this unit",
			 spec, name);
		return MEMCAL_ENOTFOUND;
	}
	a->type = (uint32_t)type;
	a->config = config;
	return 0;
}

/*
 * numbered_elsewhere - a numeric dynamic PMU type in @spec that is not
 * the type of the PMU the configuration counts CPU @cpu with: PMU numbers
 * are given at boot in registration order, so on another kernel or device
 * tree the number names another PMU.  True with @why.
 */
static bool numbered_elsewhere(const struct tune_config *c, int cpu,
			       const char *spec, const struct perf_event_attr *a,
			       char *why, size_t len)
{
	const struct tune_machine_cpu *p =
		tune_check_find_cpu(&c->machine, cpu);
	long here;

	if (!p || !p->pmu[0] || a->type < PERF_TYPE_MAX ||
	    spec[0] < '0' || spec[0] > '9')
		return false;
	here = tune_check_pmu_type(p->pmu);
	if (here < 0 || here == (long)a->type)
		return false;
	snprintf(why, len, "names perf type %u, but %s, the PMU the "
		 "configuration counts this CPU with, is type %ld on this "
		 "unit: the number names another PMU here; export the events "
		 "by PMU name (%s:CONFIG) or re-tune", a->type, p->pmu, here,
		 p->pmu);
	return true;
}

/*
 * deliver - open @a on @cpu and measure its overflow delivery at @needed
 * per second: a short count first, to choose a sample period that makes
 * about four times the overflows needed.  Returns true when it passed;
 * @msg says what was seen.
 */
static bool deliver(struct perf_event_attr *a, unsigned cpu, double needed,
		    struct event_load *l, char *msg, size_t len)
{
	struct memcal_delivery d;
	double rate, t0 = now_s();
	int rc;

	a->sample_period = 1ull << 62;
	rc = cal_pmu_check_delivery(a, cpu, needed, 0.05, run_load, l, &d);
	if (rc || !d.count) {
		if (!rc)
			cal_pmu_delivery_verdict(&d, a->sample_period, needed);
		snprintf(msg, len, "%s", d.message);
		return false;
	}
	rate = (double)d.count / (now_s() - t0);
	a->sample_period = (uint64_t)(rate / (4 * needed));
	if (!a->sample_period)
		a->sample_period = 1;
	rc = cal_pmu_check_delivery(a, cpu, needed, 0.25, run_load, l, &d);
	snprintf(msg, len, "%s", d.message);
	return !rc && d.pass;
}

/**
 * tune_check_events() - each regulated CPU's read and write events,
 * opened on that CPU and checked to deliver overflows at the rate the
 * budgets need (one a period).  CPUs this unit lacks are the cpu-kinds
 * item's to report.
 */
void tune_check_events(const struct tune_config *c, struct tune_check *r)
{
	struct event_load l = { .bytes = 64u << 20 };
	double needed = 1e6 / (c->period_us > 0 ? c->period_us : 1000);
	char msg[384], last[384] = "";
	int checked = 0;

	l.buf = mmap(NULL, l.bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l.buf == MAP_FAILED)
		l.buf = NULL;
	else
		memset(l.buf, 1, l.bytes);
	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];

		if (!p->regulated)
			continue;
		for (int k = 0; k < TUNE_NR_CLASSES; k++) {
			const char *spec = tune_cpu_event(c, p, k);
			struct perf_event_attr a;
			bool counted;
			int rc;

			if (k && !strcmp(spec, tune_cpu_event(c, p, 0)))
				continue;	/* the same event: once */
			rc = resolve(spec, &a, &counted, msg, sizeof(msg));
			if (!rc && !counted)
				continue;	/* "none" */
			if (!rc && numbered_elsewhere(c, p->cpu, spec, &a, msg,
						      sizeof(msg)))
				rc = MEMCAL_EBOARD;
			if (!rc && deliver(&a, (unsigned)p->cpu, needed, &l,
					   msg, sizeof(msg))) {
				checked++;
				snprintf(last, sizeof(last), "%s", msg);
				continue;
			}
			set(r, TUNE_ITEM_EVENTS, TUNE_CHECK_FAIL, "cpu %d %s "
			    "event '%s': %s", p->cpu, k ? "write" : "read",
			    spec, msg);
			goto out;
		}
	}
	if (checked)
		set(r, TUNE_ITEM_EVENTS, TUNE_CHECK_PASS, "%d events open on "
		    "their CPUs and deliver at the %.0f/s a %d us period "
		    "needs (last: %s)", checked, needed, c->period_us, last);
	else
		set(r, TUNE_ITEM_EVENTS, TUNE_CHECK_SKIP, "skipped: the "
		    "configuration counts no event on any regulated CPU");
out:
	if (l.buf)
		munmap(l.buf, l.bytes);
}
