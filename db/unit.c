// SPDX-License-Identifier: GPL-2.0-only
/*
 * unit.c - the run_unit table: which unit measured a run, and for an
 * imported run its content key and origin (memcal_db_unit.h).
 */
#include <string.h>

#include "db_internal.h"
#include "memcal_db_unit.h"

/*
 * The content key is unique and an imported_at says the run was imported:
 * a measured run stores NULL in both, which reads back as "".
 */
static const struct memcal_db_col unit_col[] = {
	MEMCAL_DB_COL(struct memcal_unit, hostname, 't'),
	MEMCAL_DB_COL(struct memcal_unit, machine_id, 't'),
	MEMCAL_DB_COL(struct memcal_unit, serial, 't'),
	MEMCAL_DB_COL(struct memcal_unit, kernel, 't'),
	MEMCAL_DB_COL_OPT(struct memcal_unit, content_key, 't'),
	MEMCAL_DB_COL_OPT(struct memcal_unit, imported_at, 't'),
	MEMCAL_DB_COL(struct memcal_unit, imported_from, 't'),
};
static const struct memcal_db_table unit_table =
	MEMCAL_DB_TABLE(struct memcal_unit, unit_col, "run_unit", "run_id", "");

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
	return memcal_db_table_store(db, &unit_table, run_id, u);
}

/**
 * memcal_db_unit_get() - the unit of run @run_id.
 * Return: OK, or ENOTFOUND for a run stored without one (measured before
 * schema 10).
 */
int memcal_db_unit_get(memcal_db *db, int64_t run_id, struct memcal_unit *u)
{
	return memcal_db_get(db, &unit_table.cols, unit_table.rest, run_id, u,
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
					     &memcal_db_id_cols,
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

	return rc ? rc : memcal_db_fetch_one(db, st, id, &memcal_db_id_cols,
					     "no board with fingerprint %s",
					     fingerprint);
}
