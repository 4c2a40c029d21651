// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu_kind.c - the cpu_kind table: the kinds of CPU of a calibration run
 * and each kind's read and write event (memcal_db_cpu_kind.h).
 */
#include <string.h>

#include "db_internal.h"
#include "memcal_db_cpu_kind.h"

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
	return memcal_db_exec(db, "INSERT INTO cpu_kind (run_id, cpus, label,"
		       " perf_pmu, perf_type, read_event, write_event,"
		       " read_name, write_name, read_why, write_why) VALUES"
		       " (?,?,?,?,?,?,?,?,?,?,?)", "Itttitttttt", run_id,
		       k->cpus, k->label, k->perf_pmu, k->perf_type,
		       k->event[0], k->event[1], k->event_name[0],
		       k->event_name[1], k->why[0], k->why[1]);
}

/**
 * memcal_db_cpu_kind_list() - the kinds of @run_id in the order they were
 * stored (lowest CPU first).  @fn's row is valid only during the call.
 */
int memcal_db_cpu_kind_list(memcal_db *db, int64_t run_id,
			    memcal_db_cpu_kind_fn fn, void *user)
{
	struct memcal_cpu_kind k;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT cpus, label, perf_pmu, perf_type,"
			  " read_event, write_event, read_name, write_name,"
			  " read_why, write_why FROM cpu_kind WHERE run_id = ?"
			  " ORDER BY rowid", "I", run_id);

	if (rc)
		return rc;
	while ((rc = memcal_db_step(db, st)) == SQLITE_ROW) {
		memset(&k, 0, sizeof(k));
		memcal_db_col_text(st, 0, k.cpus, sizeof(k.cpus));
		memcal_db_col_text(st, 1, k.label, sizeof(k.label));
		memcal_db_col_text(st, 2, k.perf_pmu, sizeof(k.perf_pmu));
		k.perf_type = sqlite3_column_int(st, 3);
		for (int c = 0; c < 2; c++) {
			memcal_db_col_text(st, 4 + c, k.event[c], sizeof(k.event[c]));
			memcal_db_col_text(st, 6 + c, k.event_name[c],
				    sizeof(k.event_name[c]));
			memcal_db_col_text(st, 8 + c, k.why[c], sizeof(k.why[c]));
		}
		rc = fn(&k, user);
		if (rc)
			break;
	}
	if (rc == SQLITE_DONE)
		rc = MEMCAL_OK;
	sqlite3_finalize(st);
	return rc;
}
