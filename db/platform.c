// SPDX-License-Identifier: GPL-2.0-only
/*
 * platform.c - boards.  A board is identified by its fingerprint (computed
 * by the caller from CPU model, architecture and topology shape); storing
 * a known board again refreshes its hostname, kernel and topology.
 */
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"

/**
 * memcal_db_platform_store() - insert or refresh a board; sets @p->id.
 * @db: database, inside a transaction.  @p: the board.
 */
int memcal_db_platform_store(memcal_db *db, struct memcal_platform *p)
{
	char now[32];
	sqlite3_stmt *st;
	int rc = memcal_db_require_txn(db, "storing a platform");

	if (rc)
		return rc;
	if (!p->fingerprint[0])
		return memcal_db_fail(db, MEMCAL_EINVAL, "platform has no fingerprint");
	memcal_db_timestamp(now);
	rc = memcal_db_query(db, &st, "INSERT INTO platform (fingerprint, hostname,"
		      " arch, cpu_model, kernel, packages, numa_nodes, cores,"
		      " pus, topology, created_at, updated_at)"
		      " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
		      " ON CONFLICT (fingerprint) DO UPDATE SET"
		      " hostname = excluded.hostname, kernel = excluded.kernel,"
		      " topology = excluded.topology,"
		      " updated_at = excluded.updated_at RETURNING id",
		      "tttttiiiittt", p->fingerprint, p->hostname, p->arch,
		      p->cpu_model, p->kernel, p->packages, p->numa_nodes,
		      p->cores, p->pus,
		      p->topology_json ? p->topology_json : "{}", now, now);
	if (rc)
		return rc;
	rc = memcal_db_step(db, st);
	if (rc == SQLITE_ROW) {
		p->id = sqlite3_column_int64(st, 0);
		rc = MEMCAL_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? MEMCAL_ERROR : rc;
}

#define PLATFORM_COLUMNS "id, fingerprint, hostname, arch, cpu_model, kernel," \
	" packages, numa_nodes, cores, pus, topology"

/* decode_platform - a platform row; topology_json is malloc'd. */
static void decode_platform(sqlite3_stmt *st, void *row)
{
	struct memcal_platform *p = row;

	p->id = sqlite3_column_int64(st, 0);
	memcal_db_col_text(st, 1, p->fingerprint, sizeof(p->fingerprint));
	memcal_db_col_text(st, 2, p->hostname, sizeof(p->hostname));
	memcal_db_col_text(st, 3, p->arch, sizeof(p->arch));
	memcal_db_col_text(st, 4, p->cpu_model, sizeof(p->cpu_model));
	memcal_db_col_text(st, 5, p->kernel, sizeof(p->kernel));
	p->packages = sqlite3_column_int(st, 6);
	p->numa_nodes = sqlite3_column_int(st, 7);
	p->cores = sqlite3_column_int(st, 8);
	p->pus = sqlite3_column_int(st, 9);
	p->topology_json = memcal_db_col_strdup(st, 10);
}

/**
 * memcal_db_platform_get() - load board @id into @p.
 * Free with memcal_db_platform_free().  Return: OK or ENOTFOUND.
 */
int memcal_db_platform_get(memcal_db *db, int64_t id,
			   struct memcal_platform *p)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " PLATFORM_COLUMNS " FROM platform"
			  " WHERE id = ?", "I", id);

	memset(p, 0, sizeof(*p));
	return rc ? rc : memcal_db_fetch_one(db, st, p, decode_platform,
				      "no platform %lld", (long long)id);
}

/* memcal_db_platform_free() - release what a load allocated. */
void memcal_db_platform_free(struct memcal_platform *p)
{
	free(p->topology_json);
	p->topology_json = NULL;
}

/* emit_platform - call the typed callback, then free the row's strings. */
static int emit_platform(const void *row, void *fn, void *user)
{
	struct memcal_platform *p = (struct memcal_platform *)row;
	int rc = ((memcal_db_platform_fn)fn)(p, user);

	memcal_db_platform_free(p);
	return rc;
}

/* memcal_db_platform_list() - every board, oldest first. */
int memcal_db_platform_list(memcal_db *db, memcal_db_platform_fn fn,
			    void *user)
{
	struct memcal_platform p;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " PLATFORM_COLUMNS " FROM platform"
			  " ORDER BY id", "");

	return rc ? rc : memcal_db_walk(db, st, &p, decode_platform, emit_platform,
				 (void *)fn, user);
}
