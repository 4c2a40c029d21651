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
 * KEEP - define keep_@arr, the list callback that appends a row of
 * @type to @f->@arr: the database API hands each row type its own
 * callback type, so one function per table.
 */
#define KEEP(arr, type, list, store)					\
	static int keep_##arr(const type *x, void *u)			\
	{								\
		struct fig_run *f = u;					\
									\
		return fig_push((void **)&f->arr, &f->n_##arr,		\
				sizeof(*x), x);				\
	}
FIG_RUN_ROWS(KEEP)
#undef KEEP

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
#define LIST(arr, type, list, store)					\
	if (!rc)							\
		rc = list(db, run_id, keep_##arr, f);
	FIG_RUN_ROWS(LIST)
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
#define FREE(arr, type, list, store) free(f->arr);
	FIG_RUN_ROWS(FREE)
#undef FREE
	memset(f, 0, sizeof(*f));
}
