/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu_selfcheck.h - checks that a chosen PMU event will really regulate:
 * its overflow interrupt is delivered at the rate the regulator needs, and
 * nobody else holds the PMU.
 *
 * The failure users of MemGuard-style regulators meet most is a counter
 * that silently does nothing: an overflow that never interrupts (a PMU
 * interrupt not wired or not routed on the board), perf throttling a
 * counter that overflows faster than kernel.perf_event_max_sample_rate,
 * or counters already taken by the NMI watchdog or a running perf.
 *
 * Delivery is measured from user space the way the regulator will use
 * the event (pmu_delivery.h).
 *
 * During `memcal run` every check is stored with a verdict (struct
 * memcal_selfcheck): the read and the write event each count a known
 * number of lines, separately; delivery on each CPU of the run; other
 * PMU users.  On a board with several kinds of CPU (big.LITTLE, hybrid)
 * each CPU is checked with the event the regulator will give it: its
 * kind's own documented event, else the run's (the rule memtune plans
 * by); the message names the kind and the event.  A check that cannot run on this machine is stored as
 * "skip" with the reason, never as a pass.
 */
#ifndef MEMCAL_PMU_SELFCHECK_H
#define MEMCAL_PMU_SELFCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "memcal_db_cpu_kind.h"
#include "memcal_db_selfcheck.h"
#include "pmu.h"
#include "pmu_delivery.h"

/*
 * A read or write event passes when it counts the lines a kernel moved
 * within this many per cent.
 */
#define MEMCAL_SELFCHECK_TOL_PCT	15.0
/* How long the load runs on each CPU for the delivery check. */
#define MEMCAL_SELFCHECK_DELIVERY_S	0.25

/**
 * struct memcal_pmu_users - who else holds performance counters.
 * @nmi_watchdog: the hard-lockup detector is on (it keeps a cycles counter
 *                on every CPU).
 * @n_holders:    processes with perf events open (other than this one).
 * @holders:      "pid (comm)" of the first few.
 * @paranoid:     kernel.perf_event_paranoid (-1..3; 2 when unreadable).
 * @message:      who holds what and how to free it ("" when nobody).
 */
struct memcal_pmu_users {
	bool nmi_watchdog;
	int paranoid;
	unsigned n_holders;
	char holders[4][48];
	char message[384];
};

int cal_pmu_find_users(struct memcal_pmu_users *u);

/**
 * struct memcal_selfcheck_event - the event a check counts on one CPU.
 * @attr:  its perf encoding (type, config, config1; nothing else set).
 * @event: its name as the check stores it ("9:0x2a", or the run's event).
 * @whose: the kind and event, for the check's message ("" when the CPU's
 *         kind is unknown).
 */
struct memcal_selfcheck_event {
	struct perf_event_attr attr;
	char event[128];
	char whose[384];
};

int cal_selfcheck_cpu_event(const struct memcal_pmu_report *r,
			       const struct memcal_cpu_kind *kinds,
			       size_t n_kinds, unsigned cpu,
			       const char *traffic,
			       struct memcal_selfcheck_event *e);

/*
 * Receives each self-check as it is decided; returns 0, non-zero when out
 * of memory (the self-checks then return MEMCAL_ENOMEM).
 */
typedef int (*memcal_selfcheck_add_fn)(void *user,
				       const struct memcal_selfcheck *c);

void cal_selfcheck_count_verdict(struct memcal_selfcheck *c,
				    const char *traffic, double lines,
				    double count);
int cal_selfcheck_counts(struct memcal_pmu_report *r, void *buf,
			    size_t bytes, unsigned line, double *read_rate,
			    memcal_selfcheck_add_fn add, void *user);
int cal_selfcheck_kind_counts(struct memcal_cpu_kind *kinds,
				 size_t n_kinds, const unsigned *cpus,
				 unsigned n, void *buf, size_t bytes,
				 unsigned line, memcal_selfcheck_add_fn add,
				 void *user);
int cal_selfcheck_delivery(const struct memcal_pmu_report *r,
			      const struct memcal_cpu_kind *kinds,
			      size_t n_kinds, const unsigned *cpus, unsigned n,
			      double read_rate, void *buf, size_t bytes,
			      memcal_selfcheck_add_fn add, void *user);
int cal_selfcheck_users(memcal_selfcheck_add_fn add, void *user);

#endif /* MEMCAL_PMU_SELFCHECK_H */
