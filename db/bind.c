// SPDX-License-Identifier: GPL-2.0-only
/*
 * bind.c - running SQL with typed parameters, and turning SQLite's result
 * codes into memcal's, with a sentence the user can act on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db_internal.h"

/**
 * memcal_db_fail() - record an error message and return @rc.
 * @db: database.  @rc: a MEMCAL_E* status.  @fmt: the message.
 */
int memcal_db_fail(memcal_db *db, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(db->errmsg, sizeof(db->errmsg), fmt, ap);
	va_end(ap);
	return rc;
}

/**
 * memcal_db_sqlite_fail() - map an SQLite failure while doing @what.
 * @db: database.  @src: SQLite (extended) result code.  @what: activity.
 *
 * Return: the matching MEMCAL_E* status, with the message set.
 */
int memcal_db_sqlite_fail(memcal_db *db, int src, const char *what)
{
	const char *detail = db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(src);

	switch (src & 0xff) {
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return memcal_db_fail(db, MEMCAL_ENOTADB,
			       "%s is not a memcal database or is damaged "
			       "(%s while %s); it was not modified: pass "
			       "another --db or move it aside", db->path,
			       detail, what);
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return memcal_db_fail(db, MEMCAL_EBUSY,
			       "%s is locked by another process (%s while %s); "
			       "try again when it has finished", db->path,
			       detail, what);
	case SQLITE_CANTOPEN:
		return memcal_db_fail(db, MEMCAL_ECANTOPEN,
			       "cannot open %s (%s): check the path and its "
			       "permissions", db->path, detail);
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return memcal_db_fail(db, MEMCAL_EREADONLY,
			       "%s cannot be written (%s while %s): check its "
			       "permissions and those of its directory",
			       db->path, detail, what);
	case SQLITE_CONSTRAINT:
		return memcal_db_fail(db, MEMCAL_EINVAL,
			       "invalid data refused by %s (%s while %s)",
			       db->path, detail, what);
	default:
		return memcal_db_fail(db, MEMCAL_ERROR, "database error on %s: %s "
			       "(while %s)", db->path, detail, what);
	}
}

/* memcal_db_require_txn - writes happen only inside memcal_db_begin(). */
int memcal_db_require_txn(memcal_db *db, const char *what)
{
	if (db->in_txn)
		return MEMCAL_OK;
	return memcal_db_fail(db, MEMCAL_EMISUSE, "%s outside a transaction "
		       "(call memcal_db_begin first)", what);
}

/* memcal_db_prepare - compile @sql. */
int memcal_db_prepare(memcal_db *db, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db->h, sql, -1, st, NULL);

	return rc == SQLITE_OK ? MEMCAL_OK :
		memcal_db_sqlite_fail(db, rc, "preparing a statement");
}

/* memcal_db_bind - bind parameters 1..n of @st as described by @fmt. */
int memcal_db_bind(memcal_db *db, sqlite3_stmt *st, const char *fmt, va_list ap)
{
	int rc = SQLITE_OK;

	for (int i = 1; *fmt && rc == SQLITE_OK; fmt++, i++) {
		switch (*fmt) {
		case 'i':
			rc = sqlite3_bind_int(st, i, va_arg(ap, int));
			break;
		case 'b':
			rc = sqlite3_bind_int(st, i, va_arg(ap, int) ? 1 : 0);
			break;
		case 'I':
			rc = sqlite3_bind_int64(st, i, va_arg(ap, int64_t));
			break;
		case 'd':
			rc = sqlite3_bind_double(st, i, va_arg(ap, double));
			break;
		case 't': {
			const char *s = va_arg(ap, const char *);

			rc = s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT)
			       : sqlite3_bind_null(st, i);
			break;
		}
		case 'B': {
			const void *p = va_arg(ap, const void *);
			int n = va_arg(ap, int);

			rc = sqlite3_bind_blob(st, i, p ? p : "", n,
					       SQLITE_TRANSIENT);
			break;
		}
		default:
			return memcal_db_fail(db, MEMCAL_EMISUSE,
				       "bad bind format '%c'", *fmt);
		}
	}
	return rc == SQLITE_OK ? MEMCAL_OK :
		memcal_db_sqlite_fail(db, rc, "binding values");
}

/**
 * memcal_db_step() - advance @st.
 *
 * Return: SQLITE_ROW, SQLITE_DONE, or a MEMCAL_E* status (all below 100).
 */
int memcal_db_step(memcal_db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc;
	return memcal_db_sqlite_fail(db, rc, "running a statement");
}

/**
 * memcal_db_finish() - step the bound write @st to the end and finalize it.
 * @id: if not NULL, the new row's id: the first column of a row @st
 *      returns (RETURNING id: an upsert that updated inserts nothing),
 *      else the last inserted rowid.
 */
int memcal_db_finish(memcal_db *db, sqlite3_stmt *st, int64_t *id)
{
	bool returned = false;
	int rc;

	while ((rc = memcal_db_step(db, st)) == SQLITE_ROW)
		if (id && !returned) {
			*id = sqlite3_column_int64(st, 0);
			returned = true;
		}
	if (rc == SQLITE_DONE) {
		rc = MEMCAL_OK;
		if (id && !returned)
			*id = sqlite3_last_insert_rowid(db->h);
	}
	sqlite3_finalize(st);
	return rc;
}

/* memcal_db_exec - run a write statement inside the open transaction. */
int memcal_db_exec(memcal_db *db, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int rc = memcal_db_require_txn(db, "a write");

	if (rc)
		return rc;
	va_start(ap, fmt);
	rc = memcal_db_vquery(db, &st, sql, fmt, ap);
	va_end(ap);
	return rc ? rc : memcal_db_finish(db, st, NULL);
}

/* memcal_db_vquery - memcal_db_query() with a va_list. */
int memcal_db_vquery(memcal_db *db, sqlite3_stmt **st, const char *sql,
		     const char *fmt, va_list ap)
{
	int rc = memcal_db_prepare(db, sql, st);

	if (rc)
		return rc;
	rc = memcal_db_bind(db, *st, fmt, ap);
	if (rc) {
		sqlite3_finalize(*st);
		*st = NULL;
	}
	return rc;
}

/* memcal_db_query - prepare and bind a read; the caller steps and finalizes. */
int memcal_db_query(memcal_db *db, sqlite3_stmt **st, const char *sql,
	     const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = memcal_db_vquery(db, st, sql, fmt, ap);
	va_end(ap);
	return rc;
}

/* memcal_db_col_text - copy a text column into @buf ("" for NULL). */
void memcal_db_col_text(sqlite3_stmt *st, int col, char *buf, size_t len)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	snprintf(buf, len, "%s", s ? (const char *)s : "");
}

/* memcal_db_col_strdup - a malloc'd copy of a text column ("" for NULL). */
char *memcal_db_col_strdup(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	return strdup(s ? (const char *)s : "");
}

/* memcal_db_timestamp() - the current UTC time as ISO 8601 ("2026-12-02T16:07:53Z"). */
void memcal_db_timestamp(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* memcal_db_walk - see db_internal.h. */
int memcal_db_walk(memcal_db *db, sqlite3_stmt *st, void *row,
		   const struct memcal_db_cols *t, db_emit_fn emit, void *fn,
		   void *user)
{
	int rc;

	while ((rc = memcal_db_step(db, st)) == SQLITE_ROW) {
		memcal_db_decode(st, 0, t, row);
		rc = emit(row, fn, user);
		if (rc)
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? MEMCAL_OK : rc;
}

/* memcal_db_vfetch_one - see db_internal.h. */
int memcal_db_vfetch_one(memcal_db *db, sqlite3_stmt *st, void *row,
			 const struct memcal_db_cols *t, const char *fmt,
			 va_list ap)
{
	int rc = memcal_db_step(db, st);

	if (rc == SQLITE_ROW) {
		memcal_db_decode(st, 0, t, row);
		rc = MEMCAL_OK;
	} else if (rc == SQLITE_DONE) {
		vsnprintf(db->errmsg, sizeof(db->errmsg), fmt, ap);
		rc = MEMCAL_ENOTFOUND;
	}
	sqlite3_finalize(st);
	return rc;
}

/* memcal_db_fetch_one - see db_internal.h. */
int memcal_db_fetch_one(memcal_db *db, sqlite3_stmt *st, void *row,
			const struct memcal_db_cols *t, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = memcal_db_vfetch_one(db, st, row, t, fmt, ap);
	va_end(ap);
	return rc;
}
