/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * db_internal.h - private to db/: the connection struct and the helpers
 * every table file uses to run SQL with typed bindings.
 */
#ifndef MEMCAL_DB_INTERNAL_H
#define MEMCAL_DB_INTERNAL_H

#include <limits.h>
#include <stdarg.h>

#include <sqlite3.h>

#include "memcal_db.h"

/**
 * struct memcal_db - one open database.
 * @h:        SQLite connection.
 * @path:     file name as opened.
 * @errmsg:   the last error, as a sentence for the user.
 * @in_txn:   a memcal_db_begin() transaction is open.
 * @readonly: opened with MEMCAL_DB_OPEN_READONLY.
 */
struct memcal_db {
	sqlite3 *h;
	char path[PATH_MAX];
	char errmsg[768];
	bool in_txn;
	bool readonly;
};

int memcal_db_fail(memcal_db *db, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int memcal_db_sqlite_fail(memcal_db *db, int src, const char *what);
int memcal_db_require_txn(memcal_db *db, const char *what);

/*
 * Bindings are described by a format string, one letter a parameter:
 *   i int, I int64_t, d double, b bool (as 0/1), t const char * (NULL binds
 *   NULL), B blob (const void *, int length: two arguments).
 */
int memcal_db_prepare(memcal_db *db, const char *sql, sqlite3_stmt **st);
int memcal_db_bind(memcal_db *db, sqlite3_stmt *st, const char *fmt, va_list ap);
int memcal_db_exec(memcal_db *db, const char *sql, const char *fmt, ...);
int memcal_db_insert(memcal_db *db, int64_t *id, const char *sql, const char *fmt,
	      ...);
int memcal_db_query(memcal_db *db, sqlite3_stmt **st, const char *sql,
	     const char *fmt, ...);
int memcal_db_vquery(memcal_db *db, sqlite3_stmt **st, const char *sql,
		     const char *fmt, va_list ap);
int memcal_db_finish(memcal_db *db, sqlite3_stmt *st, int64_t *id);
int memcal_db_step(memcal_db *db, sqlite3_stmt *st);

void memcal_db_col_text(sqlite3_stmt *st, int col, char *buf, size_t len);
char *memcal_db_col_strdup(sqlite3_stmt *st, int col);

int memcal_db_migrate(memcal_db *db);

/*
 * memcal_db_walk() - step @st to the end: for each row, @decode fills @row and
 * @emit hands it on; a non-zero @emit return stops the walk and is
 * returned.  @st is finalized.  Typed list functions wrap this.
 */
typedef void (*db_decode_fn)(sqlite3_stmt *st, void *row);
typedef int (*db_emit_fn)(const void *row, void *fn, void *user);
int memcal_db_walk(memcal_db *db, sqlite3_stmt *st, void *row, db_decode_fn decode,
	    db_emit_fn emit, void *fn, void *user);

/*
 * memcal_db_fetch_one() - step @st once: a row is decoded into @row and gives
 * MEMCAL_OK; no row gives MEMCAL_ENOTFOUND with the message @fmt.
 * @st is finalized.  memcal_db_decode_id() decodes column 0 into an int64_t.
 */
int memcal_db_fetch_one(memcal_db *db, sqlite3_stmt *st, void *row,
		 db_decode_fn decode, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void memcal_db_decode_id(sqlite3_stmt *st, void *row);

#endif /* MEMCAL_DB_INTERNAL_H */
