/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_selfcheck.h - the PMU self-checks of a calibration run, one
 * row per check (and per CPU for the per-CPU ones), each with its verdict
 * and the message that explains it.  Same rules as memcal_db.h: writes
 * only inside memcal_db_begin()/memcal_db_commit().
 */
#ifndef MEMCAL_DB_SELFCHECK_H
#define MEMCAL_DB_SELFCHECK_H

#include "memcal_db.h"

/**
 * struct memcal_selfcheck - one self-check and its verdict.
 * @check:         "read-count", "write-count", "delivery" or "pmu-users".
 * @cpu:           the CPU it ran on, -1 when it is not per CPU.
 * @event:         the event checked ("" when none).
 * @expected:      what the check expected (lines, overflows; 0 if none).
 * @measured:      what it measured.
 * @tolerance_pct: how far @measured may be from @expected, in per cent.
 * @verdict:       "pass", "fail", "warn" (works, but something needs
 *                 attention) or "skip" (could not run here; @message
 *                 says why).
 * @message:       the verdict in words, with the remedy when it fails.
 */
struct memcal_selfcheck {
	char check[16];
	int cpu;
	char event[128];
	double expected;
	double measured;
	double tolerance_pct;
	char verdict[8];
	char message[512];
};

/*
 * memcal_db_selfcheck_store(), memcal_db_selfcheck_fn,
 * memcal_db_selfcheck_list()
 */
MEMCAL_DB_ROW_API(selfcheck, struct memcal_selfcheck, run_id);

#endif /* MEMCAL_DB_SELFCHECK_H */
