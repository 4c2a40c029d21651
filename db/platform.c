// SPDX-License-Identifier: GPL-2.0-only
/*
 * platform.c - boards.  A board is identified by its fingerprint (computed
 * by the caller from CPU model, architecture and topology shape); storing
 * a known board again refreshes its hostname, kernel and topology.
 */
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"

static const struct memcal_db_col platform_col[] = {
	MEMCAL_DB_COL(struct memcal_platform, id, 'k'),
	MEMCAL_DB_COL(struct memcal_platform, fingerprint, 't'),
	MEMCAL_DB_COL(struct memcal_platform, hostname, 't'),
	MEMCAL_DB_COL(struct memcal_platform, arch, 't'),
	MEMCAL_DB_COL(struct memcal_platform, cpu_model, 't'),
	MEMCAL_DB_COL(struct memcal_platform, kernel, 't'),
	MEMCAL_DB_COL(struct memcal_platform, packages, 'i'),
	MEMCAL_DB_COL(struct memcal_platform, numa_nodes, 'i'),
	MEMCAL_DB_COL(struct memcal_platform, cores, 'i'),
	MEMCAL_DB_COL(struct memcal_platform, pus, 'i'),
	MEMCAL_DB_COL_STR(struct memcal_platform, topology_json, "topology",
			  "{}"),
};
static const struct memcal_db_cols platform_cols =
	MEMCAL_DB_COLS(struct memcal_platform, platform_col);

/**
 * memcal_db_platform_store() - insert or refresh a board; sets @p->id.
 * @db: database, inside a transaction.  @p: the board.
 */
int memcal_db_platform_store(memcal_db *db, struct memcal_platform *p)
{
	char now[32];
	int rc = memcal_db_require_txn(db, "storing a platform");

	if (rc)
		return rc;
	if (!p->fingerprint[0])
		return memcal_db_fail(db, MEMCAL_EINVAL, "platform has no fingerprint");
	memcal_db_timestamp(now);
	/* A known board keeps its id: the upsert returns it. */
	return memcal_db_insert_row(db, &p->id, "platform", &platform_cols, p,
				    " ON CONFLICT (fingerprint) DO UPDATE SET"
				    " hostname = excluded.hostname,"
				    " kernel = excluded.kernel,"
				    " topology = excluded.topology,"
				    " updated_at = excluded.updated_at"
				    " RETURNING id", "created_at, updated_at",
				    "tt", now, now);
}

/**
 * memcal_db_platform_get() - load board @id into @p.
 * Free with memcal_db_platform_free().  Return: OK or ENOTFOUND.
 */
int memcal_db_platform_get(memcal_db *db, int64_t id,
			   struct memcal_platform *p)
{
	return memcal_db_get(db, &platform_cols, "FROM platform WHERE id = ?",
			     id, p, "no platform %lld", (long long)id);
}

/* memcal_db_platform_free() - release what a load allocated. */
void memcal_db_platform_free(struct memcal_platform *p)
{
	free(p->topology_json);
	p->topology_json = NULL;
}

MEMCAL_DB_EMIT_FREE(emit_platform, memcal_db_platform_fn,
		    struct memcal_platform, memcal_db_platform_free)

/* memcal_db_platform_list() - every board, oldest first. */
int memcal_db_platform_list(memcal_db *db, memcal_db_platform_fn fn,
			    void *user)
{
	struct memcal_platform p;
	sqlite3_stmt *st;
	int rc = memcal_db_select(db, &st, &platform_cols, "FROM platform"
				  " ORDER BY id", "");

	return rc ? rc : memcal_db_walk(db, st, &p, &platform_cols,
					emit_platform, (void *)fn, user);
}
