// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_columns.c - the column tables of db/ (struct memcal_db_col) on a
 * scratch table: every type code survives an insert and a decode, NULL
 * reads as NAN for 'n', a string longer than its array is cut to fit, and
 * the generated SELECT list is the table's, in its order.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_internal.h"

/**
 * struct sample - a row of every type code.
 * @id: 'k'.  @n: 'i'.  @u: 'i' on an unsigned member.  @big: 'I'.
 * @flag: 'b'.  @x: 'd'.  @maybe: 'n'.  @name: 't'.  @opt: 't', optional.
 * @note: 's' with a default.  @count: the length of @vals ('B').
 * @has_extra: '?' of @extra, stored only when it is set.
 */
struct sample {
	int64_t id;
	int n;
	uint32_t u;
	int64_t big;
	bool flag;
	double x;
	double maybe;
	char name[8];
	char opt[8];
	char *note;
	size_t count;
	uint64_t *vals;
	bool has_extra;
	int64_t extra;
};

static const struct memcal_db_col sample_col[] = {
	MEMCAL_DB_COL(struct sample, id, 'k'),
	MEMCAL_DB_COL(struct sample, n, 'i'),
	MEMCAL_DB_COL(struct sample, u, 'i'),
	MEMCAL_DB_COL(struct sample, big, 'I'),
	MEMCAL_DB_COL(struct sample, flag, 'b'),
	MEMCAL_DB_COL_AS(struct sample, x, "x_value", 'd'),
	MEMCAL_DB_COL(struct sample, maybe, 'n'),
	MEMCAL_DB_COL(struct sample, name, 't'),
	MEMCAL_DB_COL_OPT(struct sample, opt, 't'),
	MEMCAL_DB_COL_STR(struct sample, note, "note", "-"),
	MEMCAL_DB_COL(struct sample, count, 'I'),
	MEMCAL_DB_COL_U64S(struct sample, vals, count),
	MEMCAL_DB_COL_AS(struct sample, has_extra, "extra", '?'),
	MEMCAL_DB_COL_IF(struct sample, extra, 'I', has_extra),
};
static const struct memcal_db_cols sample_cols =
	MEMCAL_DB_COLS(struct sample, sample_col);

#define SAMPLE_LIST "id, n, u, big, flag, x_value, maybe, name, opt, note," \
	" count, vals, extra, extra"

/*
 * open_scratch - a new database at @path with the table "sample" in it
 * (a path per test: Criterion runs them side by side).
 */
static memcal_db *open_scratch(const char *path)
{
	char err[512] = "";
	memcal_db *db;

	unlink(path);
	cr_assert_eq(memcal_db_open(path, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), 0, "%s", err);
	cr_assert_eq(sqlite3_exec(db->h, "CREATE TABLE sample (id INTEGER"
				  " PRIMARY KEY, parent INTEGER, n INTEGER,"
				  " u INTEGER, big INTEGER, flag INTEGER,"
				  " x_value REAL, maybe REAL, name TEXT,"
				  " opt TEXT, note TEXT, count INTEGER,"
				  " vals BLOB, extra INTEGER)", NULL, NULL,
				  NULL), SQLITE_OK, "%s", sqlite3_errmsg(db->h));
	return db;
}

/* fetch - row @id of "sample" decoded into @s; its strings malloc'd. */
static void fetch(memcal_db *db, int64_t id, struct sample *s)
{
	sqlite3_stmt *st;

	cr_assert_eq(memcal_db_select(db, &st, &sample_cols, "FROM sample"
				      " WHERE id = ?", "I", id), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_fetch_one(db, st, s, &sample_cols, "no row"),
		     0, "%s", memcal_db_errmsg(db));
}

/* is_null - whether column @col of row @id of "sample" is NULL. */
static bool is_null(memcal_db *db, int64_t id, const char *col)
{
	char sql[128];
	sqlite3_stmt *st;
	bool null;

	snprintf(sql, sizeof(sql), "SELECT %s IS NULL FROM sample WHERE"
		 " id = %lld", col, (long long)id);
	cr_assert_eq(sqlite3_prepare_v2(db->h, sql, -1, &st, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	null = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return null;
}

Test(columns, select_list_is_the_table)
{
	const char *path = "/tmp/memcal-test-columns-select.db";
	memcal_db *db = open_scratch(path);
	sqlite3_stmt *st;
	char *list = memcal_db_col_list(&sample_cols, NULL);
	char *pattern = memcal_db_col_list(&sample_cols, "s.%s");

	cr_expect_str_eq(list, SAMPLE_LIST);
	cr_expect_eq(strncmp(pattern, "s.id, s.n, s.u, ", 16), 0, "%s",
		     pattern);
	sqlite3_free(list);
	sqlite3_free(pattern);
	cr_assert_eq(memcal_db_select(db, &st, &sample_cols, "FROM sample", ""),
		     0, "%s", memcal_db_errmsg(db));
	cr_expect_str_eq(sqlite3_sql(st), "SELECT " SAMPLE_LIST " FROM sample");
	cr_assert_eq((size_t)sqlite3_column_count(st), sample_cols.n);
	for (size_t i = 0; i < sample_cols.n; i++)
		cr_expect_str_eq(sqlite3_column_name(st, (int)i),
				 sample_col[i].name, "column %zu", i);
	sqlite3_finalize(st);
	memcal_db_close(db);
	unlink(path);
}

Test(columns, every_type_code_round_trips)
{
	uint64_t vals[3] = { 1, UINT64_MAX - 4, 0x0102030405060708ull };
	struct sample a = {
		.n = -7, .u = 0xfffffff0u, .big = -(INT64_C(1) << 40),
		.flag = true, .x = 1.0 / 3, .maybe = 2.5, .name = "abc",
		.opt = "o", .note = "a note", .count = 3, .vals = vals,
		.has_extra = true, .extra = 99,
	};
	struct sample b = {
		.maybe = NAN, .name = "", .count = 0, .has_extra = false,
		.extra = 5,
	};
	struct sample got;
	int64_t ida = 0, idb = 0, parent = 0;
	const char *path = "/tmp/memcal-test-columns-types.db";
	memcal_db *db = open_scratch(path);
	sqlite3_stmt *st;

	cr_assert_neq(memcal_db_insert_row(db, &ida, "sample", &sample_cols,
					   &a, NULL, "parent", "I",
					   (int64_t)42), 0,
		      "inserts only inside a transaction");
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_insert_row(db, &ida, "sample", &sample_cols,
					  &a, NULL, "parent", "I",
					  (int64_t)42), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_insert_row(db, &idb, "sample", &sample_cols,
					  &b, NULL, NULL, ""), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	cr_expect_gt(ida, 0);
	cr_expect_eq(idb, ida + 1, "the new row's id comes back");

	cr_assert_eq(memcal_db_query(db, &st, "SELECT parent FROM sample"
				     " WHERE id = ?", "I", ida), 0);
	cr_assert_eq(memcal_db_fetch_one(db, st, &parent, &memcal_db_id_cols,
					 "no row"), 0);
	cr_expect_eq(parent, 42, "the leading column is written first");

	fetch(db, ida, &got);
	cr_expect_eq(got.id, ida);
	cr_expect_eq(got.n, -7);
	cr_expect_eq(got.u, 0xfffffff0u, "an unsigned int keeps its bits");
	cr_expect_eq(got.big, -(INT64_C(1) << 40));
	cr_expect(got.flag);
	cr_expect_eq(got.x, 1.0 / 3, "a double reads back bit for bit");
	cr_expect_eq(got.maybe, 2.5);
	cr_expect_str_eq(got.name, "abc");
	cr_expect_str_eq(got.opt, "o");
	cr_expect_str_eq(got.note, "a note");
	cr_assert_eq(got.count, 3);
	cr_expect_eq(memcmp(got.vals, vals, sizeof(vals)), 0);
	cr_expect(got.has_extra);
	cr_expect_eq(got.extra, 99);
	free(got.note);
	free(got.vals);

	cr_expect(is_null(db, idb, "maybe"), "NAN is stored as NULL");
	cr_expect(is_null(db, idb, "opt"), "an empty optional string is NULL");
	cr_expect(is_null(db, idb, "extra"), "not stored without its flag");
	cr_expect(is_null(db, idb, "parent"));
	fetch(db, idb, &got);
	cr_expect(isnan(got.maybe), "NULL reads as NAN");
	cr_expect_str_eq(got.opt, "");
	cr_expect_str_eq(got.note, "-", "a NULL string stores its default");
	cr_expect_eq(got.count, 0);
	cr_expect_not_null(got.vals);
	cr_expect_not(got.has_extra);
	cr_expect_eq(got.extra, 0);
	cr_expect_not(got.flag);
	free(got.note);
	free(got.vals);
	memcal_db_close(db);
	unlink(path);
}

Test(columns, text_is_cut_to_its_array)
{
	const char *path = "/tmp/memcal-test-columns-cut.db";
	memcal_db *db = open_scratch(path);
	struct sample got;

	cr_assert_eq(sqlite3_exec(db->h, "INSERT INTO sample (id, name, note)"
				  " VALUES (1, 'abcdefghijkl', NULL)", NULL,
				  NULL, NULL), SQLITE_OK);
	fetch(db, 1, &got);
	cr_expect_str_eq(got.name, "abcdefg", "7 characters and the NUL");
	cr_expect_str_eq(got.note, "", "a NULL string reads as \"\"");
	cr_expect_str_eq(got.opt, "");
	cr_expect_eq(got.count, 0);
	free(got.note);
	free(got.vals);
	memcal_db_close(db);
	unlink(path);
}
