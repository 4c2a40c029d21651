/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu_delivery.h - is a counter's overflow interrupt really delivered, at
 * the rate the regulator needs?  A sampling counter with the regulator's
 * sample period, a ring buffer that receives one record per overflow
 * interrupt, and a load that makes the event count: each
 * PERF_RECORD_SAMPLE is one delivered interrupt, PERF_RECORD_THROTTLE says
 * perf stopped delivering.  Depends on libc and the kernel's perf headers
 * only (a guest program builds it alone).
 */
#ifndef MEMCAL_PMU_DELIVERY_H
#define MEMCAL_PMU_DELIVERY_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/perf_event.h>

/*
 * The regulation period delivery is checked for: memreg.ko's default
 * period_us.  The regulator needs at most one overflow per period per CPU.
 */
#define MEMCAL_SELFCHECK_PERIOD_US	1000
/* Share of the implied overflows that must arrive for a pass. */
#define MEMCAL_DELIVERY_MIN_RATIO	0.9

/**
 * struct memcal_delivery - result of one overflow-delivery check.
 * @cpu:        CPU the check ran on.
 * @count:      events counted while the load ran.
 * @expected:   overflows the count implies (count / sample period).
 * @delivered:  overflow records received.
 * @throttled:  perf throttled the counter at least once.
 * @rate_per_s: delivered overflows per second.
 * @pass:       delivered >= 90 % of expected and at the needed rate.
 * @message:    the verdict in words, with the remedy when it fails.
 */
struct memcal_delivery {
	unsigned cpu;
	uint64_t count;
	double expected;
	uint64_t delivered;
	bool throttled;
	double rate_per_s;
	bool pass;
	char message[256];
};

/*
 * The load run while the counter samples: it must make the event count
 * for about @seconds.  @user is passed through.
 */
typedef void (*memcal_load_fn)(double seconds, void *user);

void cal_pmu_delivery_verdict(struct memcal_delivery *d, uint64_t period,
				 double needed_per_s);
int cal_pmu_check_delivery(const struct perf_event_attr *attr,
			      unsigned cpu, double needed_per_s,
			      double seconds, memcal_load_fn load, void *user,
			      struct memcal_delivery *d);

#endif /* MEMCAL_PMU_DELIVERY_H */
