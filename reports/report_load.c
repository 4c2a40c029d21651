// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_load.c - read a calibration from the database into struct report:
 * the run, its board, its figure rows (fig_run_load(), the loader `memcal
 * show` uses too), and the interrupt-overhead points of the newest
 * overhead run of the same board.  Whatever is absent is noted in r->missing, never an error;
 * only a database failure or a --run that names no run fails.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/**
 * struct run_pick - what find_run() looks for among the runs.
 * @platform_id: board the run must have measured.
 * @overhead:    want an "overhead" run (else "full" or "quick").
 * @id:          result: newest matching run, 0 if none.
 */
struct run_pick {
	int64_t platform_id;
	bool overhead;
	int64_t id;
};

/* find_run - memcal_db_run_list() callback (newest first): first match. */
static int find_run(const struct memcal_run *run, void *user)
{
	struct run_pick *p = user;
	bool ov = !strcmp(run->kind, "overhead");

	if (run->platform_id != p->platform_id || ov != p->overhead)
		return 0;
	p->id = run->id;
	return 1;		/* stop the walk */
}

/* newest_run_of - newest run of @platform_id of the other kind, or 0. */
static int newest_run_of(memcal_db *db, int64_t platform_id, bool overhead,
			 int64_t *id)
{
	struct run_pick p = { platform_id, overhead, 0 };
	int rc = memcal_db_run_list(db, find_run, &p);

	*id = p.id;
	return rc == 1 ? 0 : rc;
}

/**
 * report_guaranteed() - the guaranteed figure of the run that stands for
 * class @traffic (memcal_db_guaranteed_choose()), or NULL when none.
 */
const struct memcal_guaranteed *report_guaranteed(const struct report *r,
						  const char *traffic)
{
	return memcal_db_guaranteed_choose(r->cal.guar, r->cal.n_guar, traffic);
}

/* mix_warning - which curves of the family give only lower bounds. */
static void mix_warning(struct report *r)
{
	char shares[64] = "";
	size_t len = 0, n = 0;

	for (size_t i = 0; i < r->cal.n_mix; i++)
		if (r->cal.mix[i].lower_bound && len < sizeof(shares)) {
			len += (size_t)snprintf(shares + len, sizeof(shares) - len,
						"%s%d", n++ ? ", " : "",
						r->cal.mix[i].read_pct);
		}
	if (n)
		report_warn(r, "The sustainable figures of the bandwidth-latency "
			    "family at %s %% read are only lower bounds: the "
			    "cores could not load the memory enough to reach "
			    "the latency knee at those mixes.", shares);
}

/* check_warnings - warnings that follow from the calibration data. */
static void check_warnings(struct report *r)
{
	if (r->cal.have_pmu && !r->cal.pmu.available)
		report_warn(r, "No usable hardware PMU on this board (%s): memory "
			    "traffic cannot be counted by hardware events, so "
			    "the regulator can only run with a stand-in "
			    "counter here.", r->cal.pmu.message[0] ? r->cal.pmu.message :
			    "none found");
	for (size_t i = 0; i < r->cal.n_sc; i++)
		if (!strcmp(r->cal.sc[i].verdict, "fail"))
			report_warn(r, "PMU self-check %s failed: %s",
				    r->cal.sc[i].check, r->cal.sc[i].message);
	for (size_t i = 0; i < r->cal.n_sus; i++)
		if (r->cal.sus[i].lower_bound)
			report_warn(r, "The sustainable %s bandwidth (%.2f GB/s)"
				    " is only a lower bound: the cores could "
				    "not load the memory enough to reach the "
				    "latency knee.", r->cal.sus[i].traffic,
				    r->cal.sus[i].bandwidth_bps / 1e9);
	mix_warning(r);
	if (report_overhead_proxy(r))
		report_warn(r, "Interrupt-overhead figures come from the proxy "
			    "method (a user-space periodic timer): they are an "
			    "upper bound, not the cost of memreg itself.");
	if (r->have_run && !strcmp(r->run.kind, "quick"))
		report_warn(r, "Run %lld is a quick calibration: fewer sizes "
			    "and repetitions than a full one.",
			    (long long)r->run.id);
	if (r->have_run && r->run.notes && r->run.notes[0])
		report_warn(r, "Notes of run %lld: %s", (long long)r->run.id,
			    r->run.notes);
	if (r->have_overhead_run && r->overhead_run.id != r->run.id &&
	    r->overhead_run.notes && r->overhead_run.notes[0])
		report_warn(r, "Notes of overhead run %lld: %s",
			    (long long)r->overhead_run.id, r->overhead_run.notes);
}

/* check_missing - say what the calibration lacks. */
static void check_missing(struct report *r)
{
	if (!r->have_run && !r->have_overhead_run) {
		report_missing(r, "The database holds no calibration run: run "
			       "'memcal run' and 'memcal overhead' on the "
			       "board.");
		return;
	}
	if (!r->have_platform)
		report_missing(r, "The board of this calibration is not in "
			       "the database.");
	if (!r->have_run) {
		report_missing(r, "No bandwidth calibration of this board: run "
			       "'memcal run'.");
	} else {
		long long id = (long long)r->run.id;

		if (!r->cal.n_bw)
			report_missing(r, "Run %lld stored no bandwidth "
				       "measurements.", id);
		if (!r->cal.n_lat)
			report_missing(r, "Run %lld stored no loaded-latency "
				       "points.", id);
		if (!r->cal.n_sus)
			report_missing(r, "Run %lld stored no sustainable "
				       "bandwidth.", id);
		if (!r->cal.n_mix)
			report_missing(r, "Run %lld stored no bandwidth-latency "
				       "family across read/write mixes: run "
				       "'memcal run' again with this memcal.",
				       id);
		if (!r->cal.have_pmu)
			report_missing(r, "Run %lld stored no PMU verdict.", id);
	}
	if (!r->have_overhead_run || !r->ovh.n_ov)
		report_missing(r, "No interrupt-overhead measurements of this "
			       "board: run 'memcal overhead'.");
}

/**
 * report_load_calibration() - fill the calibration part of @r.
 * @r:      report, zeroed by the caller except @tool.
 * @db:     open database.
 * @run_id: run to report, or 0 for the newest (bandwidth runs first, then
 *          overhead runs).  An overhead run given here is completed by the
 *          newest bandwidth run of the same board, and the other way round.
 *
 * Return: 0, MEMCAL_ENOTFOUND when @run_id names no run, another
 * memcal_status on a database failure, or MEMCAL_ENOMEM.
 */
int report_load_calibration(struct report *r, memcal_db *db, int64_t run_id)
{
	struct memcal_run run;
	int64_t other = 0;
	bool ov;
	int rc;

	if (!r->generated_at[0])
		memcal_db_timestamp(r->generated_at);
	snprintf(r->db_path, sizeof(r->db_path), "%s", memcal_db_path(db));
	if (!run_id) {
		rc = memcal_db_run_latest(db, "bandwidth", &run_id);
		if (rc == MEMCAL_ENOTFOUND)
			rc = memcal_db_run_latest(db, "overhead", &run_id);
		if (rc == MEMCAL_ENOTFOUND) {
			check_missing(r);
			return 0;
		}
		if (rc)
			return rc;
	}
	rc = memcal_db_run_get(db, run_id, &run);
	if (rc)
		return rc;
	ov = !strcmp(run.kind, "overhead");
	rc = newest_run_of(db, run.platform_id, !ov, &other);
	if (!rc && other) {
		struct memcal_run *dst = ov ? &r->run : &r->overhead_run;

		rc = memcal_db_run_get(db, other, dst);
		if (!rc)
			*(ov ? &r->have_run : &r->have_overhead_run) = true;
	}
	if (ov) {
		r->overhead_run = run;
		r->have_overhead_run = true;
	} else {
		r->run = run;
		r->have_run = true;
	}
	if (!rc) {
		rc = memcal_db_platform_get(db, run.platform_id, &r->platform);
		if (rc == MEMCAL_OK)
			r->have_platform = true;
		else if (rc == MEMCAL_ENOTFOUND)
			rc = 0;
	}
	if (!rc && r->have_run)
		rc = fig_run_load(db, r->run.id, &r->cal);
	if (!rc && r->have_run && !r->have_overhead_run) {
		/* a full run may carry its own overhead points */
		rc = fig_run_load(db, r->run.id, &r->ovh);
		r->have_overhead_run = !rc && r->ovh.n_ov;
		if (r->have_overhead_run) {
			r->overhead_run = r->run;
			r->overhead_run.params_json = NULL;
			r->overhead_run.notes = NULL;
		}
	} else if (!rc && r->have_overhead_run) {
		rc = fig_run_load(db, r->overhead_run.id, &r->ovh);
	}
	if (!rc)
		rc = report_load_fleet(r, db);
	if (rc)
		return rc;
	check_warnings(r);
	check_missing(r);
	return 0;
}

/* report_free() - release everything a load allocated. */
void report_free(struct report *r)
{
	if (r->have_run)
		memcal_db_run_free(&r->run);
	if (r->have_overhead_run)
		memcal_db_run_free(&r->overhead_run);
	if (r->have_platform)
		memcal_db_platform_free(&r->platform);
	if (r->have_config)
		memcal_db_config_free(&r->config);
	if (r->have_validation)
		memcal_db_validation_free(&r->validation);
	json_decref(r->doc);
	fig_run_free(&r->cal);
	fig_run_free(&r->ovh);
	fig_fleet_free(&r->fleet);
	free(r->cores);
	free(r->res);
	report_job_latency_free(r);
	free(r->lms.actual);
	free(r->lms.predicted);
	memset(r, 0, sizeof(*r));
}
