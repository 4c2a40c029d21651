// SPDX-License-Identifier: GPL-2.0-only
/*
 * records.c - memtune's records as one list (see memcal_db_records.h):
 * configurations, workload profiles and validation runs side by side,
 * newest first; deletion that never leaves a row pointing at nothing; the
 * binary identity of profiles and the inputs key of configurations.
 */
#include <stdio.h>
#include <string.h>

#include "db_internal.h"
#include "memcal_db_records.h"

/*
 * Every record as (kind, rank, id, created_at, mix, name, parent_id,
 * detail, dependents); rank orders kinds created in the same second.
 */
#define RECORDS_FROM \
	"FROM (" \
	" SELECT 'config' AS kind, 0 AS rank, c.id AS id," \
	"  c.created_at AS created_at, c.mix AS mix, '' AS name," \
	"  0 AS parent_id, printf('period %d us, master cpu %d', c.period_us," \
	"  c.master_cpu) AS detail, (SELECT count(*) FROM validation_run v" \
	"  WHERE v.config_id = c.id) AS dependents FROM tuned_config c" \
	" UNION ALL" \
	" SELECT 'profile', 1, p.id, p.created_at, p.mix, p.workload, 0," \
	"  printf('cpu %d, %d runs, median %.1f ms, trace %s', p.cpu, p.runs," \
	"  p.exec_median_ns / 1e6, p.trace_source), (SELECT count(*) FROM" \
	"  config_profile cp WHERE cp.profile_id = p.id)" \
	"  FROM workload_profile p" \
	" UNION ALL" \
	" SELECT 'validation', 2, v.id, v.started_at, c.mix, '', v.config_id," \
	"  printf('configuration %d, %s', v.config_id, CASE v.regulated" \
	"  WHEN 1 THEN 'unregulated and regulated' ELSE 'unregulated only'" \
	"  END), 0 FROM validation_run v JOIN tuned_config c" \
	"  ON c.id = v.config_id)"

#define RECORDS_ORDER " ORDER BY created_at DESC, rank, id DESC"

/* The columns of RECORDS_FROM a record holds (rank only orders them). */
static const struct memcal_db_col record_col[] = {
	MEMCAL_DB_COL(struct memcal_record, kind, 't'),
	MEMCAL_DB_COL(struct memcal_record, id, 'I'),
	MEMCAL_DB_COL(struct memcal_record, created_at, 't'),
	MEMCAL_DB_COL(struct memcal_record, mix, 't'),
	MEMCAL_DB_COL(struct memcal_record, name, 't'),
	MEMCAL_DB_COL(struct memcal_record, parent_id, 'I'),
	MEMCAL_DB_COL(struct memcal_record, detail, 't'),
	MEMCAL_DB_COL(struct memcal_record, dependents, 'I'),
};
static const struct memcal_db_cols record_cols =
	MEMCAL_DB_COLS(struct memcal_record, record_col);

static const struct memcal_db_col binary_col[] = {
	MEMCAL_DB_COL_AS(struct memcal_binary, path, "binary_path", 't'),
	MEMCAL_DB_COL_AS(struct memcal_binary, size, "binary_size", 'I'),
	MEMCAL_DB_COL_AS(struct memcal_binary, hash, "binary_hash", 't'),
};
static const struct memcal_db_cols binary_cols =
	MEMCAL_DB_COLS(struct memcal_binary, binary_col);

MEMCAL_DB_EMIT(emit_record, memcal_db_record_fn)

/* kind_ok - whether @kind names a record kind. */
static int kind_ok(memcal_db *db, const char *kind)
{
	if (kind && (!strcmp(kind, "config") || !strcmp(kind, "profile") ||
		     !strcmp(kind, "validation")))
		return MEMCAL_OK;
	return memcal_db_fail(db, MEMCAL_EINVAL, "unknown record kind '%s': "
		       "config, profile or validation", kind ? kind : "");
}

/**
 * memcal_db_record_list() - every record, newest first.
 * @kind: only this kind (NULL: all).  @mix: only this mix (NULL: all).
 */
int memcal_db_record_list(memcal_db *db, const char *kind, const char *mix,
			  memcal_db_record_fn fn, void *user)
{
	struct memcal_record r;
	sqlite3_stmt *st;
	int rc = kind ? kind_ok(db, kind) : MEMCAL_OK;

	if (!rc)
		rc = memcal_db_select(db, &st, &record_cols, RECORDS_FROM
				      " WHERE (?1 IS NULL OR kind = ?1) AND"
				      " (?2 IS NULL OR mix = ?2)" RECORDS_ORDER,
				      "tt", kind, mix);
	return rc ? rc : memcal_db_walk(db, st, &r, &record_cols, emit_record,
					(void *)fn, user);
}

/**
 * memcal_db_record_get() - record @id of @kind.
 * Return: OK, EINVAL (unknown kind) or ENOTFOUND.
 */
int memcal_db_record_get(memcal_db *db, const char *kind, int64_t id,
			 struct memcal_record *r)
{
	sqlite3_stmt *st;
	int rc = kind_ok(db, kind);

	if (!rc)
		rc = memcal_db_select(db, &st, &record_cols, RECORDS_FROM
				      " WHERE kind = ?1 AND id = ?2", "tI", kind,
				      id);
	return rc ? rc : memcal_db_fetch_one(db, st, r, &record_cols,
					     "no %s %lld: 'memtune list' shows"
					     " what there is", kind,
					     (long long)id);
}

/**
 * memcal_db_record_dependents() - the records that depend directly on
 * record @id of @kind: a configuration's validations, the configurations
 * planned from a profile.  A validation has none.
 */
int memcal_db_record_dependents(memcal_db *db, const char *kind, int64_t id,
				memcal_db_record_fn fn, void *user)
{
	struct memcal_record r;
	int rc = kind_ok(db, kind);

	if (rc)
		return rc;
	if (!strcmp(kind, "config"))
		rc = memcal_db_list(db, &record_cols, RECORDS_FROM " WHERE"
				    " kind = 'validation' AND parent_id = ?1"
				    RECORDS_ORDER, id, &r, emit_record,
				    (void *)fn, user);
	else if (!strcmp(kind, "profile"))
		rc = memcal_db_list(db, &record_cols, RECORDS_FROM " WHERE"
				    " kind = 'config' AND id IN (SELECT"
				    " config_id FROM config_profile WHERE"
				    " profile_id = ?1)" RECORDS_ORDER, id, &r,
				    emit_record, (void *)fn, user);
	return rc;
}

/**
 * struct del_ctx - state of one deletion.
 * @ids:  dependents collected before any row goes.
 * @n:    how many.
 * @over: more than fit in @ids.
 */
struct del_ctx {
	int64_t ids[256];
	int n;
	bool over;
};

/* collect - keep a dependent's id. */
static int collect(const struct memcal_record *r, void *user)
{
	struct del_ctx *d = user;

	if (d->n == (int)(sizeof(d->ids) / sizeof(d->ids[0]))) {
		d->over = true;
		return 1;
	}
	d->ids[d->n++] = r->id;
	return 0;
}

/* delete_row - report record @id of @kind to @fn, then delete its row. */
static int delete_row(memcal_db *db, const char *kind, int64_t id,
		      memcal_db_record_fn fn, void *user)
{
	static const char *const sql[][2] = {
		{ "config", "DELETE FROM tuned_config WHERE id = ?" },
		{ "profile", "DELETE FROM workload_profile WHERE id = ?" },
		{ "validation", "DELETE FROM validation_run WHERE id = ?" },
	};
	struct memcal_record r;
	int rc = memcal_db_record_get(db, kind, id, &r);

	if (!rc && fn && fn(&r, user))
		return memcal_db_fail(db, MEMCAL_ERROR, "deletion stopped");
	for (size_t i = 0; !rc && i < sizeof(sql) / sizeof(sql[0]); i++)
		if (!strcmp(kind, sql[i][0]))
			return memcal_db_exec(db, sql[i][1], "I", id);
	return rc;
}

/*
 * delete_tree - delete record @id of @kind after (with @force) everything
 * that depends on it, dependents first so that no row is left pointing at
 * a deleted one.  Cascades remove what only belongs to a row (a
 * validation's results, a configuration's profile links).
 */
static int delete_tree(memcal_db *db, const char *kind, int64_t id,
		       bool force, memcal_db_record_fn fn, void *user)
{
	const char *child = !strcmp(kind, "profile") ? "config" :
			    !strcmp(kind, "config") ? "validation" : NULL;
	struct del_ctx d = { .n = 0 };
	int rc;

	if (!child)
		return delete_row(db, kind, id, fn, user);
	rc = memcal_db_record_dependents(db, kind, id, collect, &d);
	if (rc < 0 || (rc && !d.over))
		return rc;
	if (d.n && !force) {
		char list[512] = "";
		size_t used = 0;

		for (int i = 0; i < d.n && used < sizeof(list); i++)
			used += (size_t)snprintf(list + used, sizeof(list) -
						 used, "%s%lld", i ? ", " : "",
						 (long long)d.ids[i]);
		return memcal_db_fail(db, MEMCAL_EINVAL, "%s %lld is used by %s %s%s:"
			       " nothing was deleted; delete %s first, or give"
			       " --force to delete %s as well", kind,
			       (long long)id, !strcmp(child, "config") ?
			       (d.n > 1 ? "configurations" : "configuration") :
			       (d.n > 1 ? "validations" : "validation"), list,
			       d.over ? ", ..." : "", d.n > 1 ? "those" : "that",
			       d.n > 1 ? "them" : "it");
	}
	for (int i = 0; i < d.n; i++) {
		rc = delete_tree(db, child, d.ids[i], force, fn, user);
		if (rc)
			return rc;
	}
	if (d.over)	/* more dependents than one pass holds */
		return delete_tree(db, kind, id, force, fn, user);
	return delete_row(db, kind, id, fn, user);
}

/**
 * memcal_db_record_delete() - delete record @id of @kind; @db inside a
 * transaction.  A record others depend on is refused (EINVAL, the message
 * names them) unless @force, which deletes them first.  @fn (may be NULL)
 * sees each record just before it is deleted.
 */
int memcal_db_record_delete(memcal_db *db, const char *kind, int64_t id,
			    bool force, memcal_db_record_fn fn, void *user)
{
	struct memcal_record r;
	int rc = memcal_db_require_txn(db, "deleting a record");

	if (!rc)
		rc = memcal_db_record_get(db, kind, id, &r);
	return rc ? rc : delete_tree(db, kind, id, force, fn, user);
}

/** memcal_db_profile_binary_set() - record what profile @profile_id ran. */
int memcal_db_profile_binary_set(memcal_db *db, int64_t profile_id,
				 const struct memcal_binary *b)
{
	return memcal_db_exec(db, "UPDATE workload_profile SET binary_path = ?,"
		       " binary_size = ?, binary_hash = ? WHERE id = ?", "tItI",
		       b->path, b->size, b->hash, profile_id);
}

/**
 * memcal_db_profile_binary_get() - what profile @profile_id ran (@b->path
 * "" for a profile stored before binaries were recorded).
 */
int memcal_db_profile_binary_get(memcal_db *db, int64_t profile_id,
				 struct memcal_binary *b)
{
	return memcal_db_get(db, &binary_cols, "FROM workload_profile WHERE"
			     " id = ?", profile_id, b, "no workload profile"
			     " %lld", (long long)profile_id);
}

/** memcal_db_config_key_set() - the inputs key of @config_id. */
int memcal_db_config_key_set(memcal_db *db, int64_t config_id,
			     const char *key)
{
	return memcal_db_exec(db, "UPDATE tuned_config SET inputs_key = ? WHERE"
		       " id = ?", "tI", key, config_id);
}

/**
 * memcal_db_config_find_key() - the newest configuration planned from
 * inputs with @key.  Return: OK or ENOTFOUND.
 */
int memcal_db_config_find_key(memcal_db *db, const char *key, int64_t *id)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT id FROM tuned_config WHERE"
			  " inputs_key = ? AND inputs_key != '' ORDER BY id"
			  " DESC LIMIT 1", "t", key);

	return rc ? rc : memcal_db_fetch_one(db, st, id, &memcal_db_id_cols,
					     "no configuration with these"
					     " inputs");
}
