// SPDX-License-Identifier: GPL-2.0-only
/*
 * run.c - the one loader of a run's figures: every row the database holds
 * for one run, read in one pass per table into struct fig_run.
 */
#include <stdlib.h>
#include <string.h>

#include "memcal_figures.h"
#include "memcal_status.h"

/**
 * fig_push() - append @item (@elem bytes) to the array *@arr of *@n.
 * Return: MEMCAL_OK, or MEMCAL_ENOMEM with the array unchanged.
 */
int fig_push(void **arr, size_t *n, size_t elem, const void *item)
{
	void *p = realloc(*arr, (*n + 1) * elem);

	if (!p)
		return MEMCAL_ENOMEM;
	memcpy((char *)p + *n * elem, item, elem);
	*arr = p;
	(*n)++;
	return MEMCAL_OK;
}

/*
 * KEEP - define keep_@name, the list callback that appends a row of
 * @type to @f->@arr: the database API hands each row type its own
 * callback type, so one function per table.
 */
#define KEEP(name, type, arr)						\
	static int keep_##name(const type *x, void *u)			\
	{								\
		struct fig_run *f = u;					\
									\
		return fig_push((void **)&f->arr, &f->n_##arr,		\
				sizeof(*x), x);				\
	}

KEEP(bw, struct memcal_bw, bw)
KEEP(lat, struct memcal_latency_point, lat)
KEEP(sus, struct memcal_sustainable, sus)
KEEP(mix, struct memcal_mix_curve, mix)
KEEP(guar, struct memcal_guaranteed, guar)
KEEP(ev, struct memcal_pmu_event, ev)
KEEP(sc, struct memcal_selfcheck, sc)
KEEP(kind, struct memcal_cpu_kind, kinds)
KEEP(ov, struct memcal_overhead_point, ov)
KEEP(om, struct memcal_overhead_model, om)

/**
 * fig_run_load() - every figure row of run @run_id into @f (zeroed
 * first; release with fig_run_free()).  A run that stored no PMU verdict
 * (an overhead run) has @f->have_pmu false; rows a run did not store are
 * empty arrays.  The run's own row is memcal_db_run_get()'s.
 * Return: MEMCAL_OK, or the database's code with its message on @db
 * (@f then holds nothing).
 */
int fig_run_load(memcal_db *db, int64_t run_id, struct fig_run *f)
{
	int rc = MEMCAL_OK;

	memset(f, 0, sizeof(*f));
#define LIST(fn, keep) (rc ? rc : fn(db, run_id, keep, f))
	rc = LIST(memcal_db_bw_list, keep_bw);
	rc = LIST(memcal_db_latency_list, keep_lat);
	rc = LIST(memcal_db_sustainable_list, keep_sus);
	rc = LIST(memcal_db_mix_curve_list, keep_mix);
	rc = LIST(memcal_db_guaranteed_list, keep_guar);
	rc = LIST(memcal_db_pmu_event_list, keep_ev);
	rc = LIST(memcal_db_selfcheck_list, keep_sc);
	rc = LIST(memcal_db_cpu_kind_list, keep_kind);
	rc = LIST(memcal_db_overhead_list, keep_ov);
	rc = LIST(memcal_db_overhead_model_list, keep_om);
#undef LIST
	if (!rc) {
		rc = memcal_db_pmu_status_get(db, run_id, &f->pmu);
		f->have_pmu = rc == MEMCAL_OK;
		if (rc == MEMCAL_ENOTFOUND)
			rc = MEMCAL_OK;
	}
	if (rc)
		fig_run_free(f);
	return rc;
}

/* fig_run_free() - release what fig_run_load() allocated. */
void fig_run_free(struct fig_run *f)
{
	free(f->bw);
	free(f->lat);
	free(f->sus);
	free(f->mix);
	free(f->guar);
	free(f->ev);
	free(f->sc);
	free(f->kinds);
	free(f->ov);
	free(f->om);
	memset(f, 0, sizeof(*f));
}
