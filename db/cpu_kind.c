// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu_kind.c - the cpu_kind table: the kinds of CPU of a calibration run
 * and each kind's read and write event (memcal_db_cpu_kind.h).
 */
#include "db_internal.h"
#include "memcal_db_cpu_kind.h"

/* Each kind has a read (index 0) and a write (1) event. */
static const struct memcal_db_col cpu_kind_col[] = {
	MEMCAL_DB_COL(struct memcal_cpu_kind, cpus, 't'),
	MEMCAL_DB_COL(struct memcal_cpu_kind, label, 't'),
	MEMCAL_DB_COL(struct memcal_cpu_kind, perf_pmu, 't'),
	MEMCAL_DB_COL(struct memcal_cpu_kind, perf_type, 'i'),
	MEMCAL_DB_COL_AS(struct memcal_cpu_kind, event[0], "read_event", 't'),
	MEMCAL_DB_COL_AS(struct memcal_cpu_kind, event[1], "write_event", 't'),
	MEMCAL_DB_COL_AS(struct memcal_cpu_kind, event_name[0], "read_name",
			 't'),
	MEMCAL_DB_COL_AS(struct memcal_cpu_kind, event_name[1], "write_name",
			 't'),
	MEMCAL_DB_COL_AS(struct memcal_cpu_kind, why[0], "read_why", 't'),
	MEMCAL_DB_COL_AS(struct memcal_cpu_kind, why[1], "write_why", 't'),
};
static const struct memcal_db_table cpu_kind_table =
	MEMCAL_DB_TABLE(struct memcal_cpu_kind, cpu_kind_col, "cpu_kind",
			"run_id", " ORDER BY rowid");

/**
 * memcal_db_cpu_kind_store() - kind @k of run @run_id.  Inside a
 * transaction; a kind without CPUs is refused (MEMCAL_EINVAL).
 */
int memcal_db_cpu_kind_store(memcal_db *db, int64_t run_id,
			     const struct memcal_cpu_kind *k)
{
	if (!k->cpus[0])
		return memcal_db_fail(db, MEMCAL_EINVAL, "CPU kind '%s' names no "
			       "CPU and cannot be stored", k->label);
	return memcal_db_table_store(db, &cpu_kind_table, run_id, k);
}

MEMCAL_DB_EMIT(emit_cpu_kind, memcal_db_cpu_kind_fn)

/*
 * memcal_db_cpu_kind_list() - the kinds of a run in the order they were
 * stored (lowest CPU first).
 */
MEMCAL_DB_DEFINE_LIST(cpu_kind, struct memcal_cpu_kind, emit_cpu_kind)
