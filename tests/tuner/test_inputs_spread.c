// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_inputs_spread.c - a calibration that stored bandwidth figures with
 * a wide spread gives memtune's plan a warning that names the widest; a
 * calibration without one gives none.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_inputs.h"

/* store_bw - fixture_store_fn: bandwidth row @i of @rows. */
static void store_bw(memcal_db *db, int64_t run_id, const void *rows,
		     size_t i)
{
	const struct memcal_bw *bw = rows;

	cr_assert_eq(memcal_db_bw_store(db, run_id, &bw[i]), 0, "%s",
		     memcal_db_errmsg(db));
}

/* wide_note - the note about wide figures, or NULL. */
static const char *wide_note(const struct tune_inputs *ti)
{
	for (int i = 0; i < ti->n_notes; i++)
		if (strstr(ti->notes[i], "wide spread"))
			return ti->notes[i];
	return NULL;
}

Test(inputs, wide_bandwidth_figures_are_carried_as_a_warning)
{
	struct memcal_bw bw[2] = {
		{ .kind = "read", .scope = "aggregate", .cpus = "0-1",
		  .n_cpus = 2, .variant = "avx2", .buffer_bytes = 1 << 20,
		  .repetitions = 9, .median_bps = 5e10, .min_bps = 4e10,
		  .max_bps = 6e10, .spread = 0.061, .spread_wide = true },
		{ .kind = "ntwrite", .scope = "core", .cpus = "1",
		  .n_cpus = 1, .variant = "avx2", .buffer_bytes = 1 << 20,
		  .repetitions = 9, .median_bps = 2e10, .min_bps = 1e10,
		  .max_bps = 3e10, .spread = 0.093, .spread_wide = true },
	};
	struct tune_inputs *ti = calloc(1, sizeof(*ti));
	const char *n;

	cr_assert(ti);
	fixture_inputs(ti, store_bw, bw, 0);
	cr_expect_null(wide_note(ti), "the fixture's figures are tight");
	tune_inputs_free(ti);
	fixture_inputs(ti, store_bw, bw, 2);
	n = wide_note(ti);
	cr_assert(n, "no warning about the wide figures");
	cr_expect(strstr(n, "2 bandwidth figure(s)"), "%s", n);
	cr_expect(strstr(n, "ntwrite core on CPU 1, +-9.3 %"), "%s", n);
	tune_inputs_free(ti);
	free(ti);
}
