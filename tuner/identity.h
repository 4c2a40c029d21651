/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * identity.h - what a record was made from, as comparable keys: the
 * binary a workload runs (identity.c), the inputs a plan was made from,
 * and the check that a mix's profiles still describe what it runs
 * (profile_check.c).
 */
#ifndef MEMTUNE_IDENTITY_H
#define MEMTUNE_IDENTITY_H

#include "inputs.h"
#include "memcal_db_records.h"

int tune_ident_binary(const char *argv0, struct memcal_binary *b, char *err,
		 size_t errlen);
int tune_ident_inputs_key(const struct tune_inputs *ti, double assume_ns,
		     char key[65], char *err, size_t errlen);
int tune_profile_check(memcal_db *db, const struct mix *m,
		  const struct tune_inputs *ti, char *err, size_t errlen);

#endif /* MEMTUNE_IDENTITY_H */
