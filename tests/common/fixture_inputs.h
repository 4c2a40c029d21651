/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fixture_inputs.h - memtune's planner inputs from the fixture database
 * with rows of a test's own added to its calibration run, for tests of
 * what the tuner makes of a calibration (fixture_inputs.c).
 */
#ifndef MEMCAL_FIXTURE_INPUTS_H
#define MEMCAL_FIXTURE_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "inputs.h"
#include "memcal_db.h"

/*
 * fixture_store_fn - store row @i of @rows in run @run_id of @db (inside
 * a transaction); asserts with Criterion.
 */
typedef void fixture_store_fn(memcal_db *db, int64_t run_id,
			      const void *rows, size_t i);

int64_t fixture_inputs(struct tune_inputs *ti, fixture_store_fn *store,
		       const void *rows, size_t n);

#endif /* MEMCAL_FIXTURE_INPUTS_H */
