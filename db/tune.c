// SPDX-License-Identifier: GPL-2.0-only
/*
 * tune.c - memtune's tables: workload profiles (traces stored as blobs of
 * little-endian u64, one per sample), tuned configurations with the
 * profiles they came from, and validation runs with their results.
 */
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"
#include "memcal_db_records.h"
#include "memcal_db_tune.h"

static const struct memcal_db_col profile_col[] = {
	MEMCAL_DB_COL(struct memcal_profile, id, 'k'),
	MEMCAL_DB_COL(struct memcal_profile, platform_id, 'I'),
	MEMCAL_DB_COL(struct memcal_profile, mix, 't'),
	MEMCAL_DB_COL(struct memcal_profile, workload, 't'),
	MEMCAL_DB_COL_STR(struct memcal_profile, argv_json, "argv", "[]"),
	MEMCAL_DB_COL(struct memcal_profile, criticality, 't'),
	MEMCAL_DB_COL(struct memcal_profile, cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_profile, runs, 'i'),
	MEMCAL_DB_COL(struct memcal_profile, exec_median_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_profile, exec_min_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_profile, exec_max_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_profile, trace_source, 't'),
	MEMCAL_DB_COL(struct memcal_profile, trace_period_us, 'i'),
	/* before the traces: decoding them needs their length */
	MEMCAL_DB_COL(struct memcal_profile, trace_len, 'I'),
	MEMCAL_DB_COL_U64S(struct memcal_profile, trace_read, trace_len),
	MEMCAL_DB_COL_U64S(struct memcal_profile, trace_write, trace_len),
	MEMCAL_DB_COL(struct memcal_profile, created_at, 't'),
};
static const struct memcal_db_cols profile_cols =
	MEMCAL_DB_COLS(struct memcal_profile, profile_col);

/* A configuration's profiles are rows of config_profile, read apart. */
static const struct memcal_db_col config_col[] = {
	MEMCAL_DB_COL(struct memcal_config, id, 'k'),
	MEMCAL_DB_COL(struct memcal_config, platform_id, 'I'),
	MEMCAL_DB_COL_OPT(struct memcal_config, calibration_run_id, 'I'),
	MEMCAL_DB_COL(struct memcal_config, mix, 't'),
	MEMCAL_DB_COL_STR(struct memcal_config, document, "document", NULL),
	MEMCAL_DB_COL(struct memcal_config, period_us, 'i'),
	MEMCAL_DB_COL(struct memcal_config, master_cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_config, created_at, 't'),
};
static const struct memcal_db_cols config_cols =
	MEMCAL_DB_COLS(struct memcal_config, config_col);

static const struct memcal_db_col validation_col[] = {
	MEMCAL_DB_COL(struct memcal_validation, id, 'k'),
	MEMCAL_DB_COL(struct memcal_validation, config_id, 'I'),
	MEMCAL_DB_COL(struct memcal_validation, started_at, 't'),
	MEMCAL_DB_COL(struct memcal_validation, finished_at, 't'),
	MEMCAL_DB_COL(struct memcal_validation, regulated, 'b'),
	MEMCAL_DB_COL_STR(struct memcal_validation, notes, "notes", ""),
};
static const struct memcal_db_cols validation_cols =
	MEMCAL_DB_COLS(struct memcal_validation, validation_col);

/* The static figures are NULL for a validation without a static run. */
static const struct memcal_db_col validation_result_col[] = {
	MEMCAL_DB_COL(struct memcal_validation_result, workload, 't'),
	MEMCAL_DB_COL(struct memcal_validation_result, cpu, 'i'),
	MEMCAL_DB_COL(struct memcal_validation_result, solo_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_validation_result, unregulated_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_validation_result, regulated_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_validation_result, deadline_ns, 'd'),
	MEMCAL_DB_COL(struct memcal_validation_result, jobs, 'I'),
	MEMCAL_DB_COL(struct memcal_validation_result, deadline_misses, 'I'),
	MEMCAL_DB_COL(struct memcal_validation_result, throttles, 'I'),
	MEMCAL_DB_COL(struct memcal_validation_result, throttled_ns, 'I'),
	MEMCAL_DB_COL_AS(struct memcal_validation_result, has_static,
			 "static_ns", '?'),
	MEMCAL_DB_COL_IF(struct memcal_validation_result, static_ns, 'd',
			 has_static),
	MEMCAL_DB_COL_IF(struct memcal_validation_result,
			 static_deadline_misses, 'I', has_static),
	MEMCAL_DB_COL_IF(struct memcal_validation_result, static_throttles,
			 'I', has_static),
	MEMCAL_DB_COL_IF(struct memcal_validation_result, static_throttled_ns,
			 'I', has_static),
};
static const struct memcal_db_table validation_result_table =
	MEMCAL_DB_TABLE(struct memcal_validation_result, validation_result_col,
			"validation_result", "validation_id", " ORDER BY id");

/**
 * memcal_db_profile_store() - store a workload profile; sets @p->id.
 * @db: database, inside a transaction.
 */
int memcal_db_profile_store(memcal_db *db, struct memcal_profile *p)
{
	if (p->trace_len > (size_t)INT32_MAX / 8)
		return memcal_db_fail(db, MEMCAL_EINVAL, "trace of %zu samples is "
			       "too long to store", p->trace_len);
	if (!p->created_at[0])
		memcal_db_timestamp(p->created_at);
	return memcal_db_insert_row(db, &p->id, "workload_profile",
				    &profile_cols, p, NULL, NULL, "");
}

/* memcal_db_profile_free() - release what a load allocated. */
void memcal_db_profile_free(struct memcal_profile *p)
{
	free(p->argv_json);
	free(p->trace_read);
	free(p->trace_write);
	p->argv_json = NULL;
	p->trace_read = p->trace_write = NULL;
}

/**
 * memcal_db_profile_get() - load profile @id.
 * Free with memcal_db_profile_free().  Return: OK or ENOTFOUND.
 */
int memcal_db_profile_get(memcal_db *db, int64_t id, struct memcal_profile *p)
{
	return memcal_db_get(db, &profile_cols, "FROM workload_profile WHERE"
			     " id = ?", id, p, "no workload profile %lld",
			     (long long)id);
}

MEMCAL_DB_EMIT_FREE(emit_profile, memcal_db_profile_fn,
		    struct memcal_profile, memcal_db_profile_free)

/**
 * memcal_db_profile_latest() - the newest profile of each workload of
 * @mix on @platform_id, by workload name.
 */
int memcal_db_profile_latest(memcal_db *db, int64_t platform_id,
			     const char *mix, memcal_db_profile_fn fn,
			     void *user)
{
	struct memcal_profile p;
	sqlite3_stmt *st;
	int rc = memcal_db_select(db, &st, &profile_cols, "FROM"
				  " workload_profile WHERE id IN (SELECT"
				  " max(id) FROM workload_profile WHERE"
				  " platform_id = ?1 AND mix = ?2 GROUP BY"
				  " workload) ORDER BY workload", "It",
				  platform_id, mix);

	return rc ? rc : memcal_db_walk(db, st, &p, &profile_cols,
					emit_profile, (void *)fn, user);
}

/**
 * memcal_db_config_store() - store a tuned configuration and the profiles
 * it came from; sets @c->id.  @db: inside a transaction.
 */
int memcal_db_config_store(memcal_db *db, struct memcal_config *c)
{
	int rc;

	if (!c->created_at[0])
		memcal_db_timestamp(c->created_at);
	rc = memcal_db_insert_row(db, &c->id, "tuned_config", &config_cols, c,
				  NULL, NULL, "");
	for (size_t i = 0; !rc && i < c->n_profiles; i++)
		rc = memcal_db_exec(db, "INSERT INTO config_profile (config_id,"
			     " profile_id) VALUES (?,?)", "II", c->id,
			     c->profile_ids[i]);
	return rc;
}

/**
 * memcal_db_config_get() - load configuration @id with its provenance.
 * Free with memcal_db_config_free().  Return: OK or ENOTFOUND.
 */
int memcal_db_config_get(memcal_db *db, int64_t id, struct memcal_config *c)
{
	int64_t n = 0;
	sqlite3_stmt *st;
	int rc = memcal_db_get(db, &config_cols, "FROM tuned_config WHERE"
			       " id = ?", id, c, "no tuned configuration %lld"
			       " in %s: run 'memtune plan' first",
			       (long long)id, db->path);

	if (!rc)
		rc = memcal_db_query(db, &st, "SELECT count(*) FROM"
				     " config_profile WHERE config_id = ?",
				     "I", id);
	if (!rc)
		rc = memcal_db_fetch_one(db, st, &n, &memcal_db_id_cols,
					 "no count");
	if (rc)
		return rc;
	c->profile_ids = calloc((size_t)n + 1, sizeof(*c->profile_ids));
	if (!c->profile_ids)
		return memcal_db_fail(db, MEMCAL_ERROR, "out of memory");
	rc = memcal_db_query(db, &st, "SELECT profile_id FROM config_profile WHERE"
		      " config_id = ? ORDER BY profile_id", "I", id);
	while (!rc && (rc = memcal_db_step(db, st)) == SQLITE_ROW) {
		if (c->n_profiles < (size_t)n)
			c->profile_ids[c->n_profiles++] =
				sqlite3_column_int64(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? MEMCAL_OK : rc;
}

/* memcal_db_config_free() - release what a load allocated. */
void memcal_db_config_free(struct memcal_config *c)
{
	free(c->document);
	free(c->profile_ids);
	c->document = NULL;
	c->profile_ids = NULL;
	c->n_profiles = 0;
}

/* memcal_db_config_latest() - id of the newest tuned configuration. */
int memcal_db_config_latest(memcal_db *db, int64_t *id)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT id FROM tuned_config ORDER BY id"
			  " DESC LIMIT 1", "");

	return rc ? rc : memcal_db_fetch_one(db, st, id, &memcal_db_id_cols,
					     "no tuned configuration yet: run"
					     " 'memtune plan MIX.yaml' first");
}

/* memcal_db_validation_store() - a validation run; sets @v->id. */
int memcal_db_validation_store(memcal_db *db, struct memcal_validation *v)
{
	if (!v->started_at[0])
		memcal_db_timestamp(v->started_at);
	if (!v->finished_at[0])
		memcal_db_timestamp(v->finished_at);
	return memcal_db_insert_row(db, &v->id, "validation_run",
				    &validation_cols, v, NULL, NULL, "");
}

/*
 * memcal_db_validation_result_store(), memcal_db_validation_result_list():
 * each workload's outcome of a validation, in the order stored; the static
 * figures only with has_static (else they stay NULL).
 */
MEMCAL_DB_DEFINE_ROWS(validation_result, struct memcal_validation_result)

/**
 * memcal_db_validation_latest() - newest validation of @config_id.
 * Free with memcal_db_validation_free().  Return: OK or ENOTFOUND.
 */
int memcal_db_validation_latest(memcal_db *db, int64_t config_id,
				struct memcal_validation *v)
{
	int rc = memcal_db_get(db, &validation_cols, "FROM validation_run"
			       " WHERE config_id = ? ORDER BY id DESC LIMIT 1",
			       config_id, v, "configuration %lld has not been"
			       " validated: run 'memtune validate MIX.yaml'",
			       (long long)config_id);

	v->config_id = config_id;
	return rc;
}

/* memcal_db_validation_free() - release what a load allocated. */
void memcal_db_validation_free(struct memcal_validation *v)
{
	free(v->notes);
	v->notes = NULL;
}

/**
 * memcal_db_validation_get() - validation run @id, with the configuration
 * it validated.  Free with memcal_db_validation_free().
 * Return: OK or ENOTFOUND.
 */
int memcal_db_validation_get(memcal_db *db, int64_t id,
			     struct memcal_validation *v)
{
	return memcal_db_get(db, &validation_cols, "FROM validation_run WHERE"
			     " id = ?", id, v, "no validation %lld: 'memtune"
			     " list' shows what there is", (long long)id);
}
