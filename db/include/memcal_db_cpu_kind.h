/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_cpu_kind.h - the kinds of CPU a calibration run found (a
 * big.LITTLE board's Cortex-A76 and A55, an Intel hybrid part's P- and
 * E-cores) and the counter event each kind uses, as memreg event specs.
 * One row per run and kind in the table cpu_kind; memtune plans each
 * CPU's event from them.  Same rules as memcal_db.h: writes only inside
 * memcal_db_begin()/memcal_db_commit().
 */
#ifndef MEMCAL_DB_CPU_KIND_H
#define MEMCAL_DB_CPU_KIND_H

#include "memcal_db.h"

/**
 * struct memcal_cpu_kind - CPUs of one kind and their events.
 * @cpus:       the kind's OS CPU numbers as a cpulist ("0-3").
 * @label:      human name ("Cortex-A55").
 * @perf_pmu:   the sysfs event source serving these CPUs ("" if none).
 * @perf_type:  its perf type number (-1 if unknown).
 * @event:      per class (0 read, 1 write), the memreg event spec the
 *              kind counts with ("raw:0x17"), or "" when it has none.
 * @event_name: per class, the documented event's name ("L2D_CACHE_REFILL").
 * @why:        per class, why @event is "" (else "").
 */
struct memcal_cpu_kind {
	char cpus[128];
	char label[64];
	char perf_pmu[64];
	int perf_type;
	char event[2][32];
	char event_name[2][64];
	char why[2][256];
};

/*
 * memcal_db_cpu_kind_store(), memcal_db_cpu_kind_fn,
 * memcal_db_cpu_kind_list()
 */
MEMCAL_DB_ROW_API(cpu_kind, struct memcal_cpu_kind, run_id);

#endif /* MEMCAL_DB_CPU_KIND_H */
