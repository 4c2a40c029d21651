/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results.h - everything one `memcal run` measured, held in memory until
 * it is stored in the database in one transaction (so an interrupted run
 * leaves nothing); figures/ reads a stored run back (fig_run_load()).
 *
 * The rows are the database's own structs (db/include/memcal_db.h): what is
 * printed, emitted as JSON and stored is the same data.
 */
#ifndef MEMCAL_RESULTS_H
#define MEMCAL_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "kernels.h"
#include "memcal_db.h"
#include "memcal_db_mix.h"
#include "memcal_db_selfcheck.h"
#include "memcal_db_cpu_kind.h"
#include "memcal_db_guaranteed.h"
#include "memcal_figures.h"
#include "memcal_platform.h"

/**
 * struct memcal_run_result - one calibration run.
 * @platform: the board (fingerprint, names, topology JSON).
 * @run:      the run row (kind, version, parameters, times, notes).
 * @fig:      its figures, in the form fig_run_load() reads them back.
 * @overhead: interrupt-overhead figures of a full run (owned), or NULL.
 */
struct overhead_result;

struct memcal_run_result {
	struct memcal_platform platform;
	struct memcal_run run;
	struct fig_run fig;
	struct overhead_result *overhead;
};

/*
 * CAL_RESULT_ADD - append the row *@row to the figure array @arr of
 * result @r (@row must point to @arr's element type); MEMCAL_OK or
 * MEMCAL_ENOMEM with the array unchanged.
 */
#define CAL_RESULT_ADD(r, arr, row)					\
	fig_push((void **)&(r)->fig.arr, &(r)->fig.n_##arr,		\
		 sizeof(*(r)->fig.arr), 1 ? (row) : (r)->fig.arr)

int cal_result_add_selfcheck(void *r, const struct memcal_selfcheck *c);
int cal_result_add_guaranteed(struct memcal_run_result *r,
			       const struct memcal_guaranteed *g);
int cal_result_note(struct memcal_run_result *r, const char *note);
void cal_result_free(struct memcal_run_result *r);

int cal_run_row_store(memcal_db *db, struct memcal_platform *plat,
		      struct memcal_run *run);
int cal_txn_end(memcal_db *db, int rc);
int cal_result_store(memcal_db *db, struct memcal_run_result *r,
			char *err, size_t errlen);

void cal_result_print(const struct memcal_run_result *r, FILE *out);
void cal_selfchecks_print(FILE *out, const struct memcal_selfcheck *c,
			     size_t n);
void cal_print_wrapped(FILE *out, const char *lead, const char *text,
			 int width);
json_t *cal_result_to_json(memcal_db *db, const struct memcal_run_result *r);
void cal_guaranteed_print(FILE *out, json_t *arr);
void cal_cpu_kinds_print(FILE *out, json_t *arr);
void cal_mix_print(FILE *out, json_t *arr);

#endif /* MEMCAL_RESULTS_H */
