// SPDX-License-Identifier: GPL-2.0-only
/*
 * unit.c - the run_unit table: which unit measured a run, and for an
 * imported run its content key and origin (memcal_db_unit.h).
 */
#include <string.h>

#include "db_internal.h"
#include "memcal_db_unit.h"

/**
 * memcal_db_unit_store() - record the unit of run @run_id.  Inside a
 * transaction.  A content key already stored fails (the run is there):
 * the caller looks it up first (memcal_db_unit_by_key()) to say which.
 */
int memcal_db_unit_store(memcal_db *db, int64_t run_id,
			 const struct memcal_unit *u)
{
	int rc = memcal_db_require_txn(db, "storing a run's unit");

	if (rc)
		return rc;
	return memcal_db_exec(db, "INSERT INTO run_unit (run_id, hostname,"
		       " machine_id, serial, kernel, content_key, imported_at,"
		       " imported_from) VALUES (?,?,?,?,?,?,?,?)", "Ittttttt",
		       run_id, u->hostname, u->machine_id, u->serial,
		       u->kernel, u->content_key[0] ? u->content_key : NULL,
		       u->imported_at[0] ? u->imported_at : NULL,
		       u->imported_from);
}

/* decode_unit - a run_unit row (NULLs read as ""). */
static void decode_unit(sqlite3_stmt *st, void *row)
{
	struct memcal_unit *u = row;

	memcal_db_col_text(st, 0, u->hostname, sizeof(u->hostname));
	memcal_db_col_text(st, 1, u->machine_id, sizeof(u->machine_id));
	memcal_db_col_text(st, 2, u->serial, sizeof(u->serial));
	memcal_db_col_text(st, 3, u->kernel, sizeof(u->kernel));
	memcal_db_col_text(st, 4, u->content_key, sizeof(u->content_key));
	memcal_db_col_text(st, 5, u->imported_at, sizeof(u->imported_at));
	memcal_db_col_text(st, 6, u->imported_from, sizeof(u->imported_from));
}

/**
 * memcal_db_unit_get() - the unit of run @run_id.
 * Return: OK, or ENOTFOUND for a run stored without one (measured before
 * schema 10).
 */
int memcal_db_unit_get(memcal_db *db, int64_t run_id, struct memcal_unit *u)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT hostname, machine_id, serial,"
			  " kernel, content_key, imported_at, imported_from"
			  " FROM run_unit WHERE run_id = ?", "I", run_id);

	memset(u, 0, sizeof(*u));
	return rc ? rc : memcal_db_fetch_one(db, st, u, decode_unit,
				      "run %lld has no unit recorded",
				      (long long)run_id);
}

/**
 * memcal_db_unit_by_key() - the imported run whose content key is @key.
 * Return: OK, or ENOTFOUND.
 */
int memcal_db_unit_by_key(memcal_db *db, const char *key, int64_t *run_id)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT run_id FROM run_unit WHERE"
			  " content_key = ?", "t", key);

	return rc ? rc : memcal_db_fetch_one(db, st, run_id,
				      memcal_db_decode_id,
				      "no run with content key %s", key);
}

/**
 * memcal_db_platform_find() - the board whose fingerprint is @fingerprint.
 * Return: OK, or ENOTFOUND.
 */
int memcal_db_platform_find(memcal_db *db, const char *fingerprint,
			    int64_t *id)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT id FROM platform WHERE"
			  " fingerprint = ?", "t", fingerprint);

	return rc ? rc : memcal_db_fetch_one(db, st, id, memcal_db_decode_id,
				      "no board with fingerprint %s",
				      fingerprint);
}
