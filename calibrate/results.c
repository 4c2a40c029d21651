// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - the in-memory run and storing it (one transaction per run);
 * a stored run is read back by figures/' fig_run_load().
 */
#include "results.h"
#include "overhead.h"
#include "unit_id.h"

#include "memcal_figures.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * grow - make room for one more element of @size in *@v (cap doubles);
 * MEMCAL_OK or MEMCAL_ENOMEM.
 */
static int grow(void **v, size_t n, size_t *cap, size_t size)
{
	void *p;
	size_t nc;

	if (n < *cap)
		return MEMCAL_OK;
	nc = *cap ? 2 * *cap : 16;
	p = realloc(*v, nc * size);
	if (!p)
		return MEMCAL_ENOMEM;
	*v = p;
	*cap = nc;
	return MEMCAL_OK;
}

/*
 * APPEND - append *@row to the growable array @v of @n elements and room
 * for @cap; MEMCAL_OK or MEMCAL_ENOMEM.
 */
#define APPEND(v, n, cap, row)						\
	(grow((void **)&(v), (n), &(cap), sizeof(*(v))) ?		\
	 MEMCAL_ENOMEM : ((v)[(n)++] = *(row), MEMCAL_OK))

/* cal_result_add_bw - append a bandwidth row; MEMCAL_OK or MEMCAL_ENOMEM. */
int cal_result_add_bw(struct memcal_run_result *r,
			 const struct memcal_bw *bw)
{
	return APPEND(r->bw, r->n_bw, r->cap_bw, bw);
}

/* cal_result_add_latency - append a latency row; MEMCAL_OK or MEMCAL_ENOMEM. */
int cal_result_add_latency(struct memcal_run_result *r,
			      const struct memcal_latency_point *pt)
{
	return APPEND(r->lat, r->n_lat, r->cap_lat, pt);
}

/*
 * cal_result_add_pmu_event - append a PMU candidate row; MEMCAL_OK or
 * MEMCAL_ENOMEM.
 */
int cal_result_add_pmu_event(struct memcal_run_result *r,
				const struct memcal_pmu_event *e)
{
	return APPEND(r->pmu_events, r->n_pmu_events, r->cap_pmu, e);
}

/*
 * cal_result_add_selfcheck - append a self-check to the result @r (a
 * struct memcal_run_result; void so it serves as memcal_selfcheck_add_fn).
 * Returns MEMCAL_OK or MEMCAL_ENOMEM.
 */
int cal_result_add_selfcheck(void *r, const struct memcal_selfcheck *c)
{
	struct memcal_run_result *res = r;

	return APPEND(res->checks, res->n_checks, res->cap_checks, c);
}

/*
 * cal_result_add_guaranteed - append a guaranteed-bandwidth figure;
 * MEMCAL_OK, or MEMCAL_ENOMEM when the run already holds
 * MEMCAL_DB_GUARANTEED_MAX of them.
 */
int cal_result_add_guaranteed(struct memcal_run_result *r,
			      const struct memcal_guaranteed *g)
{
	if (r->n_guar >= MEMCAL_DB_GUARANTEED_MAX)
		return MEMCAL_ENOMEM;
	r->guar[r->n_guar++] = *g;
	return MEMCAL_OK;
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
	free(r->bw);
	free(r->lat);
	free(r->pmu_events);
	free(r->checks);
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
 * figures through fig_run_store(), borrowing the arrays, then its
 * overhead figures, of which cal_overhead_store() keeps only the measured.
 */
static int store_rows(memcal_db *db, struct memcal_run_result *r)
{
	const struct fig_run f = {
		.bw = r->bw, .n_bw = r->n_bw, .lat = r->lat, .n_lat = r->n_lat,
		.sus = r->sus, .n_sus = r->n_sus, .mix = r->mix,
		.n_mix = r->n_mix, .guar = r->guar, .n_guar = r->n_guar,
		.have_pmu = true, .pmu = r->pmu, .ev = r->pmu_events,
		.n_ev = r->n_pmu_events, .sc = r->checks,
		.n_sc = r->n_checks, .kinds = r->kinds, .n_kinds = r->n_kinds,
	};
	int rc = cal_run_row_store(db, &r->platform, &r->run);

	if (!rc)
		rc = fig_run_store(db, r->run.id, &f);
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
