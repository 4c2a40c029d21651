// SPDX-License-Identifier: GPL-2.0-only
/*
 * columns.c - rows described by a column table (struct memcal_db_col):
 * the SELECT list, the decoder and the INSERT of a table are generated from
 * one list, so a column cannot be read at another's position.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db_internal.h"

static const struct memcal_db_col id_col[] = {
	{ .name = "id", .type = 'I', .off = 0, .size = sizeof(int64_t) },
};

const struct memcal_db_cols memcal_db_id_cols = MEMCAL_DB_COLS(int64_t, id_col);

/* get_int - the integer member of @size bytes at @p, sign-extended. */
static int64_t get_int(const void *p, size_t size)
{
	int8_t v8;
	int16_t v16;
	int32_t v32;
	int64_t v64 = 0;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, size < 8 ? size : 8);
		return v64;
	}
}

/* put_int - store @v in the integer member of @size bytes at @p. */
static void put_int(void *p, size_t size, int64_t v)
{
	int8_t v8 = (int8_t)v;
	int16_t v16 = (int16_t)v;
	int32_t v32 = (int32_t)v;

	switch (size) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &v, size < 8 ? size : 8);
		break;
	}
}

/* put_bool - store @v as a bool (only 0 or 1 is a valid bool). */
static void put_bool(void *p, bool v)
{
	memcpy(p, &v, sizeof(v));
}

/* get_bool - the bool at @p. */
static bool get_bool(const void *p)
{
	bool v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* u64s_encode - @n values as a little-endian byte array (malloc'd). */
static unsigned char *u64s_encode(const uint64_t *v, size_t n)
{
	unsigned char *b = malloc(n ? n * 8 : 1);

	for (size_t i = 0; b && i < n; i++)
		for (int k = 0; k < 8; k++)
			b[i * 8 + k] = (unsigned char)(v[i] >> (8 * k));
	return b;
}

/*
 * u64s_decode - blob column @col back into @n values (malloc'd).  A short
 * blob gives zeros: the caller's length checks catch it.
 */
static uint64_t *u64s_decode(sqlite3_stmt *st, int col, size_t n)
{
	const unsigned char *b = sqlite3_column_blob(st, col);
	size_t len = (size_t)sqlite3_column_bytes(st, col);
	uint64_t *v = calloc(n ? n : 1, sizeof(*v));

	if (!v || len < n * 8 || (n && !b))
		return v;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			v[i] |= (uint64_t)b[i * 8 + k] << (8 * k);
	return v;
}

/* decode_col - column @i of @st into the member @c describes. */
static void decode_col(sqlite3_stmt *st, int i, const struct memcal_db_col *c,
		       unsigned char *row)
{
	void *p = row + c->off;
	double d;
	size_t n;

	switch (c->type) {
	case 'i':
	case 'I':
	case 'k':
		put_int(p, c->size, sqlite3_column_int64(st, i));
		break;
	case 'b':
		put_bool(p, sqlite3_column_int64(st, i) != 0);
		break;
	case '?':
		put_bool(p, sqlite3_column_type(st, i) != SQLITE_NULL);
		break;
	case 'd':
	case 'n':
		d = c->type == 'n' && sqlite3_column_type(st, i) == SQLITE_NULL ?
		    NAN : sqlite3_column_double(st, i);
		memcpy(p, &d, sizeof(d));
		break;
	case 't':
		memcal_db_col_text(st, i, p, c->size);
		break;
	case 's':
		*(char **)p = memcal_db_col_strdup(st, i);
		break;
	case 'B':
		memcpy(&n, row + c->ref, sizeof(n));
		*(uint64_t **)p = u64s_decode(st, i, n);
		break;
	}
}

/**
 * memcal_db_decode() - the columns of @t, from column @first of @st on,
 * into the struct at @row, zeroed first.  Strings ('s') and arrays ('B')
 * are malloc'd: the row type's free function releases them.
 */
void memcal_db_decode(sqlite3_stmt *st, int first,
		      const struct memcal_db_cols *t, void *row)
{
	memset(row, 0, t->size);
	for (size_t i = 0; i < t->n; i++)
		decode_col(st, first + (int)i, &t->col[i], row);
}

/* inserted - whether column @c is written by an insert. */
static bool inserted(const struct memcal_db_col *c)
{
	return c->type != 'k' && c->type != '?';
}

/* bind_col - bind parameter @i of @st to the member @c describes. */
static int bind_col(sqlite3_stmt *st, int i, const struct memcal_db_col *c,
		    const unsigned char *row)
{
	const void *p = row + c->off;
	const char *s;
	int64_t v;
	double d;
	size_t n;

	if ((c->flags & MEMCAL_DB_IF) && !get_bool(row + c->ref))
		return sqlite3_bind_null(st, i);
	switch (c->type) {
	case 'i':
	case 'I':
	case 'b':
		v = c->type == 'b' ? get_bool(p) : get_int(p, c->size);
		if ((c->flags & MEMCAL_DB_OPT) && !v)
			return sqlite3_bind_null(st, i);
		return sqlite3_bind_int64(st, i, v);
	case 'd':
	case 'n':
		memcpy(&d, p, sizeof(d));
		if (c->type == 'n' && isnan(d))
			return sqlite3_bind_null(st, i);
		return sqlite3_bind_double(st, i, d);
	case 't':
		s = p;
		n = strnlen(s, c->size);
		if ((c->flags & MEMCAL_DB_OPT) && !n)
			return sqlite3_bind_null(st, i);
		return sqlite3_bind_text(st, i, s, (int)n, SQLITE_TRANSIENT);
	case 's':
		memcpy(&s, p, sizeof(s));
		if (!s)
			s = c->dflt;
		return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) :
			   sqlite3_bind_null(st, i);
	case 'B': {
		const uint64_t *a;
		unsigned char *b;

		memcpy(&n, row + c->ref, sizeof(n));
		memcpy(&a, p, sizeof(a));
		if (n > (size_t)INT32_MAX / 8)
			return SQLITE_TOOBIG;
		b = u64s_encode(a, n);
		if (!b)
			return SQLITE_NOMEM;
		/* SQLite frees @b, also when the bind fails. */
		return sqlite3_bind_blob(st, i, b, (int)(n * 8), free);
	}
	default:
		return SQLITE_MISUSE;
	}
}

/**
 * memcal_db_bind_row() - bind the inserted columns of @t (all but 'k' and
 * '?'), from the struct at @row, to parameters @first on of @st.
 */
int memcal_db_bind_row(memcal_db *db, sqlite3_stmt *st, int first,
		       const struct memcal_db_cols *t, const void *row)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < t->n && rc == SQLITE_OK; i++)
		if (inserted(&t->col[i]))
			rc = bind_col(st, first++, &t->col[i], row);
	return rc == SQLITE_OK ? MEMCAL_OK :
		memcal_db_sqlite_fail(db, rc, "binding values");
}

/*
 * append_list - the names of @t (only those inserted with @insert), each
 * through @pattern (a printf format with one %s; NULL: the name as is),
 * separated by ", ".
 */
static void append_list(sqlite3_str *s, const struct memcal_db_cols *t,
			const char *pattern, bool insert)
{
	const char *sep = "";

	for (size_t i = 0; i < t->n; i++) {
		if (insert && !inserted(&t->col[i]))
			continue;
		sqlite3_str_appendall(s, sep);
		sqlite3_str_appendf(s, pattern ? pattern : "%s",
				    t->col[i].name);
		sep = ", ";
	}
}

/**
 * memcal_db_col_list() - every column name of @t, through @pattern (a
 * printf format with one %s; NULL: the name as is), separated by ", ".
 * Return: the list, to release with sqlite3_free(); NULL without memory.
 */
char *memcal_db_col_list(const struct memcal_db_cols *t, const char *pattern)
{
	sqlite3_str *s = sqlite3_str_new(NULL);

	append_list(s, t, pattern, false);
	return sqlite3_str_finish(s);
}

/* query_str - finish @s and prepare it, binding @fmt's parameters. */
static int query_str(memcal_db *db, sqlite3_stmt **st, sqlite3_str *s,
		     const char *fmt, va_list ap)
{
	char *sql = sqlite3_str_finish(s);
	int rc;

	if (!sql)
		return memcal_db_fail(db, MEMCAL_ERROR, "out of memory");
	rc = memcal_db_vquery(db, st, sql, fmt, ap);
	sqlite3_free(sql);
	return rc;
}

/**
 * memcal_db_select() - prepare "SELECT <the columns of @t> @rest" and bind
 * @fmt's parameters (as memcal_db_query()).  The caller steps and
 * finalizes; the rows decode with @t.
 */
int memcal_db_select(memcal_db *db, sqlite3_stmt **st,
		     const struct memcal_db_cols *t, const char *rest,
		     const char *fmt, ...)
{
	sqlite3_str *s = sqlite3_str_new(db->h);
	va_list ap;
	int rc;

	sqlite3_str_appendall(s, "SELECT ");
	append_list(s, t, NULL, false);
	sqlite3_str_appendf(s, " %s", rest);
	va_start(ap, fmt);
	rc = query_str(db, st, s, fmt, ap);
	va_end(ap);
	return rc;
}

/**
 * memcal_db_insert_row() - insert the struct at @row into @table, inside
 * the open transaction.
 * @id:    if not NULL, the new row's id (see memcal_db_finish()).
 * @t:     the row type; its 'k' and '?' columns are not written.
 * @tail:  SQL after the VALUES list (an upsert clause), or NULL.
 * @lead:  columns written before @t's that the struct does not hold (the
 *         run a row belongs to), "run_id, points"; NULL for none.
 * @fmt:   their bind format, one letter a column of @lead; then the values.
 */
int memcal_db_insert_row(memcal_db *db, int64_t *id, const char *table,
			 const struct memcal_db_cols *t, const void *row,
			 const char *tail, const char *lead, const char *fmt,
			 ...)
{
	int rc = memcal_db_require_txn(db, "an insert");
	size_t nparam = strlen(fmt);
	sqlite3_stmt *st;
	sqlite3_str *s;
	va_list ap;

	if (rc)
		return rc;
	s = sqlite3_str_new(db->h);
	sqlite3_str_appendf(s, "INSERT INTO %s (%s%s", table,
			    lead ? lead : "", lead ? ", " : "");
	append_list(s, t, NULL, true);
	sqlite3_str_appendall(s, ") VALUES (");
	for (size_t i = 0; i < t->n; i++)
		if (inserted(&t->col[i]))
			nparam++;
	for (size_t i = 0; i < nparam; i++)
		sqlite3_str_appendall(s, i ? ",?" : "?");
	sqlite3_str_appendf(s, ")%s", tail ? tail : "");
	va_start(ap, fmt);
	rc = query_str(db, &st, s, fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	rc = memcal_db_bind_row(db, st, (int)strlen(fmt) + 1, t, row);
	if (rc) {
		sqlite3_finalize(st);
		return rc;
	}
	return memcal_db_finish(db, st, id);
}

/**
 * memcal_db_list() - "SELECT <the columns of @t> @rest" with @key bound to
 * its one parameter; each row is decoded into @row and handed to @emit
 * (see memcal_db_walk()).
 */
int memcal_db_list(memcal_db *db, const struct memcal_db_cols *t,
		   const char *rest, int64_t key, void *row, db_emit_fn emit,
		   void *fn, void *user)
{
	sqlite3_stmt *st;
	int rc = memcal_db_select(db, &st, t, rest, "I", key);

	return rc ? rc : memcal_db_walk(db, st, row, t, emit, fn, user);
}

/* memcal_db_table_store() - see db_internal.h. */
int memcal_db_table_store(memcal_db *db, const struct memcal_db_table *t,
			  int64_t owner_id, const void *row)
{
	return memcal_db_insert_row(db, NULL, t->name, &t->cols, row, NULL,
				    t->owner, "I", owner_id);
}

/* memcal_db_get() - see db_internal.h. */
int memcal_db_get(memcal_db *db, const struct memcal_db_cols *t,
		  const char *rest, int64_t key, void *row, const char *fmt,
		  ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int rc;

	memset(row, 0, t->size);
	rc = memcal_db_select(db, &st, t, rest, "I", key);
	if (rc)
		return rc;
	va_start(ap, fmt);
	rc = memcal_db_vfetch_one(db, st, row, t, fmt, ap);
	va_end(ap);
	return rc;
}
