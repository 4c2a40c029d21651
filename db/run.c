// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - calibration runs.  A run row is written in the same transaction
 * as its measurements, after they were taken, so every stored run is whole.
 */
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"

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
	return memcal_db_insert(db, &run->id, "INSERT INTO calibration_run"
			 " (platform_id, kind, tool_version, params, started_at,"
			 " finished_at, notes) VALUES (?,?,?,?,?,?,?)",
			 "Itttttt", run->platform_id, run->kind,
			 run->tool_version,
			 run->params_json ? run->params_json : "{}",
			 run->started_at, run->finished_at,
			 run->notes ? run->notes : "");
}

#define RUN_COLUMNS "id, platform_id, kind, tool_version, params, " \
	"started_at, finished_at, notes"

/* decode_run - a calibration_run row; the strings are malloc'd. */
static void decode_run(sqlite3_stmt *st, void *row)
{
	struct memcal_run *r = row;

	r->id = sqlite3_column_int64(st, 0);
	r->platform_id = sqlite3_column_int64(st, 1);
	memcal_db_col_text(st, 2, r->kind, sizeof(r->kind));
	memcal_db_col_text(st, 3, r->tool_version, sizeof(r->tool_version));
	r->params_json = memcal_db_col_strdup(st, 4);
	memcal_db_col_text(st, 5, r->started_at, sizeof(r->started_at));
	memcal_db_col_text(st, 6, r->finished_at, sizeof(r->finished_at));
	r->notes = memcal_db_col_strdup(st, 7);
}

/**
 * memcal_db_run_get() - load run @id.  Free with memcal_db_run_free().
 * Return: OK or ENOTFOUND.
 */
int memcal_db_run_get(memcal_db *db, int64_t id, struct memcal_run *run)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " RUN_COLUMNS " FROM calibration_run"
			  " WHERE id = ?", "I", id);

	memset(run, 0, sizeof(*run));
	return rc ? rc : memcal_db_fetch_one(db, st, run, decode_run,
				      "no calibration run %lld in %s: 'memcal "
				      "show' lists the runs", (long long)id,
				      db->path);
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
	return rc ? rc : memcal_db_fetch_one(db, st, id, memcal_db_decode_id, "no %s%s"
				      "calibration run in %s yet: run 'memcal "
				      "%s' first", kind ? kind : "",
				      kind ? " " : "", db->path,
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

/* emit_run - call the typed callback, then free the row's strings. */
static int emit_run(const void *row, void *fn, void *user)
{
	struct memcal_run *r = (struct memcal_run *)row;
	int rc = ((memcal_db_run_fn)fn)(r, user);

	memcal_db_run_free(r);
	return rc;
}

/* memcal_db_run_list() - every calibration run, newest first. */
int memcal_db_run_list(memcal_db *db, memcal_db_run_fn fn, void *user)
{
	struct memcal_run r;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " RUN_COLUMNS " FROM calibration_run"
			  " ORDER BY id DESC", "");

	return rc ? rc : memcal_db_walk(db, st, &r, decode_run, emit_run, (void *)fn,
				 user);
}
