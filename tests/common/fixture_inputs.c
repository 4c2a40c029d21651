// SPDX-License-Identifier: GPL-2.0-only
/* fixture_inputs.c - the planner's inputs from an extended fixture. */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "fixture_db.h"
#include "fixture_inputs.h"

/**
 * fixture_inputs() - @ti as tune_inputs_platform() loads it from the
 * fixture database after @store has added @n rows of @rows to the
 * fixture's calibration run.  The database is a temporary file, removed
 * before the return.
 * Return: the id of the calibration run.
 */
int64_t fixture_inputs(struct tune_inputs *ti, fixture_store_fn *store,
		       const void *rows, size_t n)
{
	char path[] = "/tmp/memcal-inputs-XXXXXX.db", err[512] = "";
	struct fixture_ids ids;
	memcal_db *db;
	int fd = mkstemps(path, 3);

	cr_assert_geq(fd, 0);
	close(fd);
	unlink(path);
	cr_assert_eq(fixture_db_create(path, &ids), 0);
	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_db_begin(db), 0);
	for (size_t i = 0; i < n; i++)
		store(db, ids.run_id, rows, i);
	cr_assert_eq(memcal_db_commit(db), 0);
	memset(ti, 0, sizeof(*ti));
	cr_assert_eq(tune_inputs_platform(db, ti, err, sizeof(err)), 0, "%s",
		     err);
	memcal_db_close(db);
	unlink(path);
	return ids.run_id;
}
