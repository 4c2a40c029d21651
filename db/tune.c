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

/* trace_encode - @n values as a little-endian byte array (malloc'd). */
static unsigned char *trace_encode(const uint64_t *v, size_t n)
{
	unsigned char *b = malloc(n ? n * 8 : 1);

	for (size_t i = 0; b && i < n; i++)
		for (int k = 0; k < 8; k++)
			b[i * 8 + k] = (unsigned char)(v[i] >> (8 * k));
	return b;
}

/* trace_decode - a blob column back into @n values (malloc'd). */
static uint64_t *trace_decode(sqlite3_stmt *st, int col, size_t n)
{
	const unsigned char *b = sqlite3_column_blob(st, col);
	size_t len = (size_t)sqlite3_column_bytes(st, col);
	uint64_t *v = calloc(n ? n : 1, sizeof(*v));

	if (!v || len < n * 8 || (n && !b))
		return v;	/* short blob: zeros, caught by trace_len check */
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			v[i] |= (uint64_t)b[i * 8 + k] << (8 * k);
	return v;
}

/**
 * memcal_db_profile_store() - store a workload profile; sets @p->id.
 * @db: database, inside a transaction.
 */
int memcal_db_profile_store(memcal_db *db, struct memcal_profile *p)
{
	unsigned char *r, *w;
	int rc;

	if (p->trace_len > (size_t)INT32_MAX / 8)
		return memcal_db_fail(db, MEMCAL_EINVAL, "trace of %zu samples is "
			       "too long to store", p->trace_len);
	if (!p->created_at[0])
		memcal_db_timestamp(p->created_at);
	r = trace_encode(p->trace_read, p->trace_len);
	w = trace_encode(p->trace_write, p->trace_len);
	if (!r || !w) {
		free(r);
		free(w);
		return memcal_db_fail(db, MEMCAL_ERROR, "out of memory");
	}
	rc = memcal_db_insert(db, &p->id, "INSERT INTO workload_profile (platform_id,"
		       " mix, workload, argv, criticality, cpu, runs,"
		       " exec_median_ns, exec_min_ns, exec_max_ns, trace_source,"
		       " trace_period_us, trace_len, trace_read, trace_write,"
		       " created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		       "IttttiidddtiIBBt", p->platform_id, p->mix, p->workload,
		       p->argv_json ? p->argv_json : "[]", p->criticality,
		       p->cpu, p->runs, p->exec_median_ns, p->exec_min_ns,
		       p->exec_max_ns, p->trace_source, p->trace_period_us,
		       (int64_t)p->trace_len, r, (int)(p->trace_len * 8), w,
		       (int)(p->trace_len * 8), p->created_at);
	free(r);
	free(w);
	return rc;
}

#define PROFILE_COLUMNS "id, platform_id, mix, workload, argv, criticality," \
	" cpu, runs, exec_median_ns, exec_min_ns, exec_max_ns, trace_source," \
	" trace_period_us, trace_len, trace_read, trace_write, created_at"

/* decode_profile - a workload_profile row; arrays and argv malloc'd. */
static void decode_profile(sqlite3_stmt *st, void *row)
{
	struct memcal_profile *p = row;

	p->id = sqlite3_column_int64(st, 0);
	p->platform_id = sqlite3_column_int64(st, 1);
	memcal_db_col_text(st, 2, p->mix, sizeof(p->mix));
	memcal_db_col_text(st, 3, p->workload, sizeof(p->workload));
	p->argv_json = memcal_db_col_strdup(st, 4);
	memcal_db_col_text(st, 5, p->criticality, sizeof(p->criticality));
	p->cpu = sqlite3_column_int(st, 6);
	p->runs = sqlite3_column_int(st, 7);
	p->exec_median_ns = sqlite3_column_double(st, 8);
	p->exec_min_ns = sqlite3_column_double(st, 9);
	p->exec_max_ns = sqlite3_column_double(st, 10);
	memcal_db_col_text(st, 11, p->trace_source, sizeof(p->trace_source));
	p->trace_period_us = sqlite3_column_int(st, 12);
	p->trace_len = (size_t)sqlite3_column_int64(st, 13);
	p->trace_read = trace_decode(st, 14, p->trace_len);
	p->trace_write = trace_decode(st, 15, p->trace_len);
	memcal_db_col_text(st, 16, p->created_at, sizeof(p->created_at));
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
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT " PROFILE_COLUMNS
			  " FROM workload_profile WHERE id = ?", "I", id);

	memset(p, 0, sizeof(*p));
	return rc ? rc : memcal_db_fetch_one(db, st, p, decode_profile,
				      "no workload profile %lld", (long long)id);
}

/* emit_profile - call the typed callback, then free the row. */
static int emit_profile(const void *row, void *fn, void *user)
{
	struct memcal_profile *p = (struct memcal_profile *)row;
	int rc = ((memcal_db_profile_fn)fn)(p, user);

	memcal_db_profile_free(p);
	return rc;
}

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
	int rc = memcal_db_query(db, &st, "SELECT " PROFILE_COLUMNS
			  " FROM workload_profile WHERE id IN (SELECT max(id)"
			  " FROM workload_profile WHERE platform_id = ?1 AND"
			  " mix = ?2 GROUP BY workload) ORDER BY workload",
			  "It", platform_id, mix);

	return rc ? rc : memcal_db_walk(db, st, &p, decode_profile, emit_profile,
				 (void *)fn, user);
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
	rc = memcal_db_insert(db, &c->id, "INSERT INTO tuned_config (platform_id,"
		       " calibration_run_id, mix, document, period_us,"
		       " master_cpu, created_at) VALUES (?,nullif(?,0),?,?,?,?,?)",
		       "IIttiit", c->platform_id, c->calibration_run_id, c->mix,
		       c->document, c->period_us, c->master_cpu,
		       c->created_at);
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
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT platform_id,"
			  " ifnull(calibration_run_id, 0), mix, document,"
			  " period_us, master_cpu, created_at,"
			  " (SELECT count(*) FROM config_profile WHERE"
			  " config_id = ?1) FROM tuned_config WHERE id = ?1",
			  "I", id);

	memset(c, 0, sizeof(*c));
	if (rc)
		return rc;
	rc = memcal_db_step(db, st);
	if (rc == SQLITE_DONE)
		rc = memcal_db_fail(db, MEMCAL_ENOTFOUND, "no tuned configuration "
			     "%lld in %s: run 'memtune plan' first",
			     (long long)id, db->path);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return rc;
	}
	c->id = id;
	c->platform_id = sqlite3_column_int64(st, 0);
	c->calibration_run_id = sqlite3_column_int64(st, 1);
	memcal_db_col_text(st, 2, c->mix, sizeof(c->mix));
	c->document = memcal_db_col_strdup(st, 3);
	c->period_us = sqlite3_column_int(st, 4);
	c->master_cpu = sqlite3_column_int(st, 5);
	memcal_db_col_text(st, 6, c->created_at, sizeof(c->created_at));
	c->profile_ids = calloc((size_t)sqlite3_column_int(st, 7) + 1,
				sizeof(*c->profile_ids));
	sqlite3_finalize(st);
	if (!c->profile_ids)
		return memcal_db_fail(db, MEMCAL_ERROR, "out of memory");
	rc = memcal_db_query(db, &st, "SELECT profile_id FROM config_profile WHERE"
		      " config_id = ? ORDER BY profile_id", "I", id);
	while (!rc && (rc = memcal_db_step(db, st)) == SQLITE_ROW) {
		c->profile_ids[c->n_profiles++] = sqlite3_column_int64(st, 0);
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

	return rc ? rc : memcal_db_fetch_one(db, st, id, memcal_db_decode_id, "no tuned "
				      "configuration yet: run 'memtune plan "
				      "MIX.yaml' first");
}

/* memcal_db_validation_store() - a validation run; sets @v->id. */
int memcal_db_validation_store(memcal_db *db, struct memcal_validation *v)
{
	if (!v->started_at[0])
		memcal_db_timestamp(v->started_at);
	if (!v->finished_at[0])
		memcal_db_timestamp(v->finished_at);
	return memcal_db_insert(db, &v->id, "INSERT INTO validation_run (config_id,"
			 " started_at, finished_at, regulated, notes)"
			 " VALUES (?,?,?,?,?)", "Ittbt", v->config_id,
			 v->started_at, v->finished_at, (int)v->regulated,
			 v->notes ? v->notes : "");
}

/**
 * memcal_db_validation_result_store() - one workload's outcome; the static
 * figures only with @r->has_static (else they stay NULL).
 */
int memcal_db_validation_result_store(memcal_db *db, int64_t validation_id,
				const struct memcal_validation_result *r)
{
	int64_t id;
	int rc = memcal_db_insert(db, &id, "INSERT INTO validation_result"
			   " (validation_id, workload, cpu, solo_ns,"
			   " unregulated_ns, regulated_ns, deadline_ns, jobs,"
			   " deadline_misses, throttles, throttled_ns) VALUES"
			   " (?,?,?,?,?,?,?,?,?,?,?)", "ItiddddIIII",
			   validation_id, r->workload, r->cpu, r->solo_ns,
			   r->unregulated_ns, r->regulated_ns, r->deadline_ns,
			   r->jobs, r->deadline_misses, r->throttles,
			   r->throttled_ns);

	if (rc || !r->has_static)
		return rc;
	return memcal_db_exec(db, "UPDATE validation_result SET static_ns = ?,"
		       " static_deadline_misses = ?, static_throttles = ?,"
		       " static_throttled_ns = ? WHERE id = ?", "dIIII",
		       r->static_ns, r->static_deadline_misses,
		       r->static_throttles, r->static_throttled_ns, id);
}

/* decode_validation - a validation_run row; notes malloc'd. */
static void decode_validation(sqlite3_stmt *st, void *row)
{
	struct memcal_validation *v = row;

	v->id = sqlite3_column_int64(st, 0);
	memcal_db_col_text(st, 1, v->started_at, sizeof(v->started_at));
	memcal_db_col_text(st, 2, v->finished_at, sizeof(v->finished_at));
	v->regulated = sqlite3_column_int(st, 3);
	v->notes = memcal_db_col_strdup(st, 4);
}

/**
 * memcal_db_validation_latest() - newest validation of @config_id.
 * Free with memcal_db_validation_free().  Return: OK or ENOTFOUND.
 */
int memcal_db_validation_latest(memcal_db *db, int64_t config_id,
				struct memcal_validation *v)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT id, started_at, finished_at,"
			  " regulated, notes FROM validation_run WHERE"
			  " config_id = ? ORDER BY id DESC LIMIT 1", "I",
			  config_id);

	memset(v, 0, sizeof(*v));
	v->config_id = config_id;
	return rc ? rc : memcal_db_fetch_one(db, st, v, decode_validation,
				      "configuration %lld has not been "
				      "validated: run 'memtune validate "
				      "MIX.yaml'", (long long)config_id);
}

/* memcal_db_validation_free() - release what a load allocated. */
void memcal_db_validation_free(struct memcal_validation *v)
{
	free(v->notes);
	v->notes = NULL;
}

/* decode_validation_result - a validation_result row into its struct. */
static void decode_validation_result(sqlite3_stmt *st, void *row)
{
	struct memcal_validation_result *r = row;

	memcal_db_col_text(st, 0, r->workload, sizeof(r->workload));
	r->cpu = sqlite3_column_int(st, 1);
	r->solo_ns = sqlite3_column_double(st, 2);
	r->unregulated_ns = sqlite3_column_double(st, 3);
	r->regulated_ns = sqlite3_column_double(st, 4);
	r->deadline_ns = sqlite3_column_double(st, 5);
	r->jobs = sqlite3_column_int64(st, 6);
	r->deadline_misses = sqlite3_column_int64(st, 7);
	r->throttles = sqlite3_column_int64(st, 8);
	r->throttled_ns = sqlite3_column_int64(st, 9);
	r->has_static = sqlite3_column_type(st, 10) != SQLITE_NULL;
	r->static_ns = sqlite3_column_double(st, 10);
	r->static_deadline_misses = sqlite3_column_int64(st, 11);
	r->static_throttles = sqlite3_column_int64(st, 12);
	r->static_throttled_ns = sqlite3_column_int64(st, 13);
}

/* emit_validation_result - typed callback trampoline. */
static int emit_validation_result(const void *row, void *fn, void *user)
{
	return ((memcal_db_validation_result_fn)fn)(row, user);
}

/* memcal_db_validation_result_list() - results of @validation_id. */
int memcal_db_validation_result_list(memcal_db *db, int64_t validation_id,
				     memcal_db_validation_result_fn fn,
				     void *user)
{
	struct memcal_validation_result r;
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT workload, cpu, solo_ns,"
			  " unregulated_ns, regulated_ns, deadline_ns, jobs,"
			  " deadline_misses, throttles, throttled_ns,"
			  " static_ns, static_deadline_misses, static_throttles,"
			  " static_throttled_ns FROM"
			  " validation_result WHERE validation_id = ?"
			  " ORDER BY id", "I", validation_id);

	return rc ? rc : memcal_db_walk(db, st, &r, decode_validation_result,
				 emit_validation_result, (void *)fn, user);
}

/**
 * memcal_db_validation_get() - validation run @id, with the configuration
 * it validated.  Free with memcal_db_validation_free().
 * Return: OK or ENOTFOUND.
 */
int memcal_db_validation_get(memcal_db *db, int64_t id,
			     struct memcal_validation *v)
{
	sqlite3_stmt *st;
	int rc = memcal_db_query(db, &st, "SELECT id, started_at, finished_at,"
			  " regulated, notes FROM validation_run WHERE id = ?",
			  "I", id);

	memset(v, 0, sizeof(*v));
	if (!rc)
		rc = memcal_db_fetch_one(db, st, v, decode_validation, "no validation "
				  "%lld: 'memtune list' shows what there is",
				  (long long)id);
	if (!rc)
		rc = memcal_db_query(db, &st, "SELECT config_id FROM validation_run"
			      " WHERE id = ?", "I", id);
	if (!rc)
		rc = memcal_db_fetch_one(db, st, &v->config_id, memcal_db_decode_id, "no "
				  "validation %lld", (long long)id);
	return rc;
}
