/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * db_internal.h - private to db/: the connection struct and the helpers
 * every table file uses to run SQL with typed bindings.
 */
#ifndef MEMCAL_DB_INTERNAL_H
#define MEMCAL_DB_INTERNAL_H

#include <limits.h>
#include <stddef.h>
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
int memcal_db_query(memcal_db *db, sqlite3_stmt **st, const char *sql,
	     const char *fmt, ...);
int memcal_db_vquery(memcal_db *db, sqlite3_stmt **st, const char *sql,
		     const char *fmt, va_list ap);
int memcal_db_finish(memcal_db *db, sqlite3_stmt *st, int64_t *id);
int memcal_db_step(memcal_db *db, sqlite3_stmt *st);

void memcal_db_col_text(sqlite3_stmt *st, int col, char *buf, size_t len);
char *memcal_db_col_strdup(sqlite3_stmt *st, int col);

int memcal_db_migrate(memcal_db *db);

/**
 * struct memcal_db_col - one column of a row type: where the column's value
 * lives in the C struct, so that the SELECT list, the decoder and the INSERT
 * of a table are all generated from one list and cannot drift apart.
 * @name:  the SQL column (in a read-only list, any expression).
 * @type:  how the member is stored; the letters of the bind format where
 *         one fits:
 *         'i' an int-sized integer (int, uint32_t),
 *         'I' an 8-byte integer (int64_t, uint64_t, size_t),
 *         'b' bool, stored 0/1,
 *         'd' double,
 *         'n' double, NAN stored as NULL and NULL read as NAN,
 *         't' char array, truncated to its size on read (NULL reads ""),
 *         's' malloc'd string (char *), a NULL pointer binds @dflt,
 *         'k' the row's id (int64_t): read, never inserted (the insert
 *             returns it),
 *         '?' bool: whether the column is not NULL; read only,
 *         'B' uint64_t * array as a blob of little-endian u64, as many as
 *             the size_t at @ref says (a column decoded before this one).
 * @flags: MEMCAL_DB_OPT: zero or "" binds NULL (NULL reads back as zero or
 *         ""); MEMCAL_DB_IF: binds NULL unless the bool at @ref is true.
 * @off:   offsetof() the member.
 * @size:  sizeof() the member.
 * @ref:   the member this one depends on (see 'B', MEMCAL_DB_IF).
 * @dflt:  's': the text bound for a NULL pointer (NULL binds NULL).
 */
struct memcal_db_col {
	const char *name;
	char type;
	unsigned char flags;
	size_t off;
	size_t size;
	size_t ref;
	const char *dflt;
};

#define MEMCAL_DB_OPT	0x1
#define MEMCAL_DB_IF	0x2

/*
 * 0, or a compile error when type code @code cannot describe a member of
 * @size bytes (a float given 'd' would be written past its end).
 */
#define MEMCAL_DB_SIZE_CHECK(code, size)					\
	(0 * sizeof(struct { int ok : (						\
	  (code) == 'd' || (code) == 'n' ? (size) == sizeof(double) :	\
	  (code) == 'b' || (code) == '?' ? (size) == sizeof(bool) :	\
	  (code) == 's' || (code) == 'B' ? (size) == sizeof(void *) :	\
	  (code) == 'I' || (code) == 'k' ? (size) == sizeof(int64_t) :	\
	  (code) == 'i' ? (size) <= sizeof(int64_t) :			\
	  (code) == 't' ? (size) > 0 : 0) ? 1 : -1; }))

#define MEMCAL_DB_COL_FULL(stype, member, column, code, flags_, ref_, dflt_) \
	{ .name = (column), .type = (code), .flags = (flags_),		\
	  .off = offsetof(stype, member),				\
	  .size = sizeof(((stype *)0)->member) +			\
		  MEMCAL_DB_SIZE_CHECK(code, sizeof(((stype *)0)->member)), \
	  .ref = (ref_), .dflt = (dflt_) }

/* A column named like its member; a column named otherwise. */
#define MEMCAL_DB_COL(stype, member, code) \
	MEMCAL_DB_COL_FULL(stype, member, #member, code, 0, 0, NULL)
#define MEMCAL_DB_COL_AS(stype, member, column, code) \
	MEMCAL_DB_COL_FULL(stype, member, column, code, 0, 0, NULL)
/* Zero or "" stored as NULL (nullable keys, unique columns). */
#define MEMCAL_DB_COL_OPT(stype, member, code) \
	MEMCAL_DB_COL_FULL(stype, member, #member, code, MEMCAL_DB_OPT, 0, NULL)
/* A malloc'd string stored as @dflt when the pointer is NULL. */
#define MEMCAL_DB_COL_STR(stype, member, column, dflt) \
	MEMCAL_DB_COL_FULL(stype, member, column, 's', 0, 0, dflt)
/* Stored only when the bool member @flag is true, else NULL. */
#define MEMCAL_DB_COL_IF(stype, member, code, flag) \
	MEMCAL_DB_COL_FULL(stype, member, #member, code, MEMCAL_DB_IF,	\
			   offsetof(stype, flag), NULL)
/* A uint64_t array of @count (a size_t member) elements, as a blob. */
#define MEMCAL_DB_COL_U64S(stype, member, count) \
	MEMCAL_DB_COL_FULL(stype, member, #member, 'B', 0,		\
			   offsetof(stype, count), NULL)

/**
 * struct memcal_db_cols - the columns of a row type, in SELECT order.
 * @col:  the columns.
 * @n:    how many.
 * @size: sizeof() the struct: decoding zeroes it first, so that what no
 *        column fills (padding, the tail of a string) compares equal.
 */
struct memcal_db_cols {
	const struct memcal_db_col *col;
	size_t n;
	size_t size;
};

#define MEMCAL_DB_COLS(stype, array) \
	{ (array), sizeof(array) / sizeof((array)[0]), sizeof(stype) }

/**
 * struct memcal_db_table - a table whose rows belong to an owner (a run, a
 * validation), many rows to one owner: what its generated store and list
 * functions need.
 * @name:  the SQL table.
 * @owner: the column holding the owner's id, bound before the columns.
 * @cols:  the columns of the row type.
 * @rest:  what follows the SELECT list in a read of one owner's rows:
 *         FROM @name WHERE @owner = ?, then the list's order.
 */
struct memcal_db_table {
	const char *name;
	const char *owner;
	struct memcal_db_cols cols;
	const char *rest;
};

/*
 * MEMCAL_DB_TABLE() - the struct memcal_db_table of table @name_, whose
 * rows are @stype with the columns @array and belong to the owner whose
 * id is in column @owner_; @order follows the WHERE of a list
 * (" ORDER BY id", or "" where nothing lists the rows).
 */
#define MEMCAL_DB_TABLE(stype, array, name_, owner_, order)		\
	{ .name = name_, .owner = owner_,				\
	  .cols = MEMCAL_DB_COLS(stype, array),				\
	  .rest = "FROM " name_ " WHERE " owner_ " = ?" order }

/* memcal_db_table_store() - one row of @t for owner @owner_id. */
int memcal_db_table_store(memcal_db *db, const struct memcal_db_table *t,
			  int64_t owner_id, const void *row);

/* A row that is one int64_t in column 0 (an id, a count). */
extern const struct memcal_db_cols memcal_db_id_cols;

/* Generated from a column table (columns.c). */
void memcal_db_decode(sqlite3_stmt *st, int first,
		      const struct memcal_db_cols *t, void *row);
int memcal_db_bind_row(memcal_db *db, sqlite3_stmt *st, int first,
		       const struct memcal_db_cols *t, const void *row);
char *memcal_db_col_list(const struct memcal_db_cols *t, const char *pattern);
int memcal_db_select(memcal_db *db, sqlite3_stmt **st,
		     const struct memcal_db_cols *t, const char *rest,
		     const char *fmt, ...);
int memcal_db_insert_row(memcal_db *db, int64_t *id, const char *table,
			 const struct memcal_db_cols *t, const void *row,
			 const char *tail, const char *lead, const char *fmt,
			 ...);

/*
 * memcal_db_walk() - step @st to the end: for each row, @t decodes it into
 * @row and @emit hands it on; a non-zero @emit return stops the walk and
 * is returned.  @st is finalized.  Typed list functions wrap this.
 */
typedef int (*db_emit_fn)(const void *row, void *fn, void *user);
int memcal_db_walk(memcal_db *db, sqlite3_stmt *st, void *row,
		   const struct memcal_db_cols *t, db_emit_fn emit, void *fn,
		   void *user);

/*
 * MEMCAL_DB_EMIT() - define @name, the db_emit_fn that hands each decoded
 * row as it is to the caller's callback, of type @fn_type.
 */
#define MEMCAL_DB_EMIT(name, fn_type)					\
static int name(const void *row, void *fn, void *user)			\
{									\
	return ((fn_type)fn)(row, user);				\
}

/*
 * MEMCAL_DB_EMIT_FREE() - the same for a row of type @stype that owns
 * memory: @release(row) frees it once the callback returns.
 */
#define MEMCAL_DB_EMIT_FREE(name, fn_type, stype, release)		\
static int name(const void *row, void *fn, void *user)			\
{									\
	stype *r = (stype *)row;					\
	int rc = ((fn_type)fn)(r, user);				\
									\
	release(r);							\
	return rc;							\
}

/*
 * MEMCAL_DB_DEFINE_STORE() - define memcal_db_<name>_store() (declared by
 * MEMCAL_DB_ROW_API()): a row of @stype stored in <name>_table for its
 * owner, inside a transaction.
 */
#define MEMCAL_DB_DEFINE_STORE(name, stype)				\
int memcal_db_##name##_store(memcal_db *db, int64_t owner_id,		\
			     const stype *row)				\
{									\
	return memcal_db_table_store(db, &name##_table, owner_id, row);	\
}

/*
 * MEMCAL_DB_DEFINE_LIST() - define memcal_db_<name>_list() (declared by
 * MEMCAL_DB_ROW_API()): the rows of one owner in <name>_table, in its
 * order, each decoded into an @stype and handed to the caller's
 * memcal_db_<name>_fn by @emit (a db_emit_fn).
 */
#define MEMCAL_DB_DEFINE_LIST(name, stype, emit)			\
int memcal_db_##name##_list(memcal_db *db, int64_t owner_id,		\
			    memcal_db_##name##_fn fn, void *user)	\
{									\
	stype row;							\
									\
	return memcal_db_list(db, &name##_table.cols,			\
			      name##_table.rest, owner_id, &row, emit,	\
			      (void *)fn, user);			\
}

/*
 * MEMCAL_DB_DEFINE_ROWS() - the store and list of a row type with nothing
 * to check or free: MEMCAL_DB_DEFINE_STORE(), and MEMCAL_DB_DEFINE_LIST()
 * handing each row as it is.
 */
#define MEMCAL_DB_DEFINE_ROWS(name, stype)				\
MEMCAL_DB_EMIT(emit_##name, memcal_db_##name##_fn)			\
MEMCAL_DB_DEFINE_STORE(name, stype)					\
MEMCAL_DB_DEFINE_LIST(name, stype, emit_##name)

/*
 * memcal_db_fetch_one() - step @st once: a row is decoded by @t into @row
 * and gives MEMCAL_OK; no row gives MEMCAL_ENOTFOUND with the message @fmt.
 * @st is finalized.
 */
int memcal_db_fetch_one(memcal_db *db, sqlite3_stmt *st, void *row,
			const struct memcal_db_cols *t, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int memcal_db_vfetch_one(memcal_db *db, sqlite3_stmt *st, void *row,
			 const struct memcal_db_cols *t, const char *fmt,
			 va_list ap) __attribute__((format(printf, 5, 0)));

/* memcal_db_list() - memcal_db_select() with one int64_t, then a walk. */
int memcal_db_list(memcal_db *db, const struct memcal_db_cols *t,
		   const char *rest, int64_t key, void *row, db_emit_fn emit,
		   void *fn, void *user);

/*
 * memcal_db_get() - @row zeroed, then memcal_db_select() with one int64_t
 * and memcal_db_fetch_one(): the one row a key names, or ENOTFOUND with
 * the message @fmt.
 */
int memcal_db_get(memcal_db *db, const struct memcal_db_cols *t,
		  const char *rest, int64_t key, void *row, const char *fmt,
		  ...) __attribute__((format(printf, 6, 7)));

/*
 * JOB_LATENCY_TABLE - the CREATE TABLE of job_latency, named @name, whose
 * condition is one of @conditions (SQL string literals).  Migration 7 -> 8
 * copies the table to widen the conditions, so both it and 3 -> 4 take the
 * columns from here.  Released migrations never change: what this expands
 * to must stay, byte for byte, the text those two sent (the tests' schema
 * 7 fixture, FIXTURE_UNDO_V8, builds that table with it too).
 */
#define JOB_LATENCY_TABLE(name, conditions)				\
	"CREATE TABLE " name " ("					\
	"  id INTEGER PRIMARY KEY,"					\
	"  validation_id INTEGER NOT NULL REFERENCES validation_run(id)" \
	"    ON DELETE CASCADE,"						\
	"  workload TEXT NOT NULL,"					\
	"  cpu INTEGER NOT NULL,"					\
	"  condition TEXT NOT NULL"					\
	"    CHECK (condition IN (" conditions ")),"			\
	"  probe TEXT NOT NULL CHECK (probe IN ('cyclictest','self')),"	\
	"  period_ns INTEGER NOT NULL CHECK (period_ns > 0),"		\
	"  deadline_ns INTEGER NOT NULL CHECK (deadline_ns > 0),"	\
	"  samples INTEGER NOT NULL CHECK (samples > 0),"		\
	"  p50_ns INTEGER NOT NULL CHECK (p50_ns >= 0),"		\
	"  p99_ns INTEGER NOT NULL CHECK (p99_ns >= p50_ns),"		\
	"  max_ns INTEGER NOT NULL CHECK (max_ns >= 0),"		\
	"  misses INTEGER NOT NULL CHECK (misses BETWEEN 0 AND samples)," \
	"  overflow INTEGER NOT NULL CHECK (overflow BETWEEN 0 AND samples)," \
	"  histogram TEXT NOT NULL CHECK (json_valid(histogram)),"	\
	"  UNIQUE (validation_id, workload, condition)"			\
	") STRICT"

#endif /* MEMCAL_DB_INTERNAL_H */
