// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - the in-memory run and storing it (one transaction per run);
 * a stored run is read back by figures/' fig_run_load().
 */
#include "results.h"
#include "overhead.h"
#include "unit_id.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * cal_result_add_selfcheck - append a self-check to the result @r (a
 * struct memcal_run_result; void so it serves as memcal_selfcheck_add_fn).
 * Returns MEMCAL_OK or MEMCAL_ENOMEM.
 */
int cal_result_add_selfcheck(void *r, const struct memcal_selfcheck *c)
{
	return CAL_RESULT_ADD((struct memcal_run_result *)r, sc, c);
}

/*
 * cal_result_add_guaranteed - append a guaranteed-bandwidth figure;
 * MEMCAL_OK, or MEMCAL_ENOMEM when the run already holds
 * MEMCAL_DB_GUARANTEED_MAX of them.
 */
int cal_result_add_guaranteed(struct memcal_run_result *r,
			      const struct memcal_guaranteed *g)
{
	if (r->fig.n_guar >= MEMCAL_DB_GUARANTEED_MAX)
		return MEMCAL_ENOMEM;
	return CAL_RESULT_ADD(r, guar, g);
}

/*
 * cal_result_note - append a sentence to the run's notes ("; "
 * separated).  Returns MEMCAL_OK or MEMCAL_ENOMEM.
 */
int cal_result_note(struct memcal_run_result *r, const char *note)
{
	size_t old = r->run.notes ? strlen(r->run.notes) : 0;
	char *p = realloc(r->run.notes, old + strlen(note) + 3);

	if (!p)
		return MEMCAL_ENOMEM;
	if (old)
		strcpy(p + old, "; ");
	strcpy(p + old + (old ? 2 : 0), note);
	r->run.notes = p;
	return MEMCAL_OK;
}

/* cal_result_free - release everything the result owns. */
void cal_result_free(struct memcal_run_result *r)
{
	free(r->platform.topology_json);
	free(r->run.params_json);
	free(r->run.notes);
	if (r->overhead) {
		cal_overhead_result_free(r->overhead);
		free(r->overhead);
	}
	fig_run_free(&r->fig);
	memset(r, 0, sizeof(*r));
}

/*
 * cal_run_row_store - the platform @plat (found or added), the run row @run
 * on it and the unit here that measured it, inside the caller's
 * transaction; sets @run's platform_id and id.  Returns MEMCAL_OK or the
 * memcal_status of the first failed store.
 */
int cal_run_row_store(memcal_db *db, struct memcal_platform *plat,
		      struct memcal_run *run)
{
	int rc = memcal_db_platform_store(db, plat);

	if (rc)
		return rc;
	run->platform_id = plat->id;
	rc = memcal_db_run_store(db, run);
	if (!rc) {
		struct memcal_unit u;

		cal_unit_here(plat, NULL, &u);
		rc = memcal_db_unit_store(db, run->id, &u);
	}
	return rc;
}

/*
 * store_rows - every row of @r, inside the caller's transaction: its
 * figures through fig_run_store() with the PMU verdict ("not examined"
 * when no PMU phase ran), then its overhead figures, of which
 * cal_overhead_store() keeps only the measured.
 */
static int store_rows(memcal_db *db, struct memcal_run_result *r)
{
	int rc = cal_run_row_store(db, &r->platform, &r->run);

	r->fig.have_pmu = true;
	if (!rc)
		rc = fig_run_store(db, r->run.id, &r->fig);
	if (!rc && r->overhead)
		rc = cal_overhead_store(db, r->run.id, r->overhead);
	return rc;
}

/*
 * cal_txn_end - end the caller's transaction by @rc, the outcome of what
 * it wrote: committed when MEMCAL_OK, else rolled back (as is a failed
 * commit).  Without an open transaction it only returns @rc.  Returns
 * MEMCAL_OK or the failure's memcal_status (its sentence in
 * memcal_db_errmsg()).
 */
int cal_txn_end(memcal_db *db, int rc)
{
	if (!rc)
		rc = memcal_db_commit(db);
	if (rc)
		memcal_db_rollback(db);
	return rc;
}

/*
 * cal_result_store - store the whole run in ONE transaction: either
 * every row is stored (and r->run.id set) or none is.  Returns MEMCAL_OK,
 * or a memcal_status with a sentence in @err on failure.
 */
int cal_result_store(memcal_db *db, struct memcal_run_result *r,
			char *err, size_t errlen)
{
	int rc = memcal_db_begin(db);

	if (rc) {
		snprintf(err, errlen, "%s", memcal_db_errmsg(db));
		return rc;
	}
	rc = cal_txn_end(db, store_rows(db, r));
	if (rc) {
		snprintf(err, errlen, "%s; nothing of this run was stored",
			 memcal_db_errmsg(db));
		r->run.id = 0;
	}
	return rc;
}
