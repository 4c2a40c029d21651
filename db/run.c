// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - calibration runs.  A run row is written in the same transaction
 * as its measurements, after they were taken, so every stored run is whole.
 */
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"

static const struct memcal_db_col run_col[] = {
	MEMCAL_DB_COL(struct memcal_run, id, 'k'),
	MEMCAL_DB_COL(struct memcal_run, platform_id, 'I'),
	MEMCAL_DB_COL(struct memcal_run, kind, 't'),
	MEMCAL_DB_COL(struct memcal_run, tool_version, 't'),
	MEMCAL_DB_COL_STR(struct memcal_run, params_json, "params", "{}"),
	MEMCAL_DB_COL(struct memcal_run, started_at, 't'),
	MEMCAL_DB_COL(struct memcal_run, finished_at, 't'),
	MEMCAL_DB_COL_STR(struct memcal_run, notes, "notes", ""),
};
static const struct memcal_db_cols run_cols =
	MEMCAL_DB_COLS(struct memcal_run, run_col);

/**
 * memcal_db_run_store() - insert @run; sets @run->id.
 * @db: database, inside a transaction.
 * @run: started_at and finished_at are filled with "now" when empty.
 */
int memcal_db_run_store(memcal_db *db, struct memcal_run *run)
{
	if (!run->started_at[0])
		memcal_db_timestamp(run->started_at);
	if (!run->finished_at[0])
		memcal_db_timestamp(run->finished_at);
	if (!run->tool_version[0])
		strncpy(run->tool_version, MEMCAL_VERSION,
			sizeof(run->tool_version) - 1);
	return memcal_db_insert_row(db, &run->id, "calibration_run", &run_cols,
				    run, NULL, NULL, "");
}

/**
 * memcal_db_run_get() - load run @id.  Free with memcal_db_run_free().
 * Return: OK or ENOTFOUND.
 */
int memcal_db_run_get(memcal_db *db, int64_t id, struct memcal_run *run)
{
	return memcal_db_get(db, &run_cols, "FROM calibration_run WHERE id = ?",
			     id, run, "no calibration run %lld in %s: 'memcal"
			     " show' lists the runs", (long long)id, db->path);
}

/**
 * memcal_db_run_latest() - the newest run, optionally of one @kind.
 * @kind: "full", "quick", "overhead", "bandwidth" (full or quick), or NULL
 *        for any.
 * Return: OK or ENOTFOUND.
 */
int memcal_db_run_latest(memcal_db *db, const char *kind, int64_t *id)
{
	sqlite3_stmt *st;
	int rc;

	if (kind && !strcmp(kind, "bandwidth"))
		rc = memcal_db_query(db, &st, "SELECT id FROM calibration_run WHERE"
			      " kind IN ('full','quick') ORDER BY id DESC"
			      " LIMIT 1", "");
	else
		rc = memcal_db_query(db, &st, "SELECT id FROM calibration_run WHERE"
			      " ?1 IS NULL OR kind = ?1 ORDER BY id DESC"
			      " LIMIT 1", "t", kind);
	return rc ? rc : memcal_db_fetch_one(db, st, id, &memcal_db_id_cols,
					     "no %s%scalibration run in %s yet:"
					     " run 'memcal %s' first",
					     kind ? kind : "", kind ? " " : "",
					     db->path,
					     kind && !strcmp(kind, "overhead") ?
					     "overhead" : "run");
}

/* memcal_db_run_free() - release what a load allocated. */
void memcal_db_run_free(struct memcal_run *run)
{
	free(run->params_json);
	free(run->notes);
	run->params_json = NULL;
	run->notes = NULL;
}

MEMCAL_DB_EMIT_FREE(emit_run, memcal_db_run_fn,
		    struct memcal_run, memcal_db_run_free)

/* memcal_db_run_list() - every calibration run, newest first. */
int memcal_db_run_list(memcal_db *db, memcal_db_run_fn fn, void *user)
{
	struct memcal_run r;
	sqlite3_stmt *st;
	int rc = memcal_db_select(db, &st, &run_cols, "FROM calibration_run"
				  " ORDER BY id DESC", "");

	return rc ? rc : memcal_db_walk(db, st, &r, &run_cols, emit_run,
					(void *)fn, user);
}
