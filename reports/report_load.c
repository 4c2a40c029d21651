// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_load.c - read a calibration from the database into struct report:
 * the run, its board, its bandwidth, latency, sustainable-bandwidth and PMU
 * rows, and the interrupt-overhead points of the newest overhead run of the
 * same board.  Whatever is absent is noted in r->missing, never an error;
 * only a database failure or a --run that names no run fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* report_push() - append @item (@elem bytes) to the array *@arr of *@n. */
int report_push(void **arr, size_t *n, size_t elem, const void *item)
{
	void *p = realloc(*arr, (*n + 1) * elem);

	if (!p)
		return -ENOMEM;
	memcpy((char *)p + *n * elem, item, elem);
	*arr = p;
	(*n)++;
	return 0;
}

/*
 * note - format one sentence into the next slot of @tab (dropped if full).
 * A sentence longer than a slot ends in " [...]", so that the cut shows.
 */
static void note(char (*tab)[REPORT_NOTE_LEN], size_t *n, const char *fmt,
		 va_list ap)
{
	static const char more[] = " [...]";

	if (*n >= REPORT_MAX_NOTES)
		return;
	if (vsnprintf(tab[*n], REPORT_NOTE_LEN, fmt, ap) >= REPORT_NOTE_LEN)
		memcpy(tab[*n] + REPORT_NOTE_LEN - sizeof(more), more,
		       sizeof(more));
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(tab[i], tab[*n]))
			return;		/* said already */
	(*n)++;
}

/* report_warn() - add a warning the reader must see. */
void report_warn(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note(r->warnings, &r->n_warnings, fmt, ap);
	va_end(ap);
}

/* report_missing() - record something the database does not hold. */
void report_missing(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note(r->missing, &r->n_missing, fmt, ap);
	va_end(ap);
}

/* collect_bw - memcal_db_bw_list() callback: keep the row. */
static int collect_bw(const struct memcal_bw *bw, void *user)
{
	struct report *r = user;

	return report_push((void **)&r->bw, &r->n_bw, sizeof(*bw), bw);
}

/* collect_lat - memcal_db_latency_list() callback. */
static int collect_lat(const struct memcal_latency_point *pt, void *user)
{
	struct report *r = user;

	return report_push((void **)&r->lat, &r->n_lat, sizeof(*pt), pt);
}

/* collect_sus - memcal_db_sustainable_list() callback (at most 4 kept). */
static int collect_sus(const struct memcal_sustainable *s, void *user)
{
	struct report *r = user;

	if (r->n_sus < sizeof(r->sus) / sizeof(r->sus[0]))
		r->sus[r->n_sus++] = *s;
	return 0;
}

/* collect_mix - memcal_db_mix_curve_list() callback. */
static int collect_mix(const struct memcal_mix_curve *c, void *user)
{
	struct report *r = user;

	return report_push((void **)&r->mix, &r->n_mix, sizeof(*c), c);
}

/* collect_ev - memcal_db_pmu_event_list() callback. */
static int collect_ev(const struct memcal_pmu_event *e, void *user)
{
	struct report *r = user;

	return report_push((void **)&r->ev, &r->n_ev, sizeof(*e), e);
}

/* collect_sc - memcal_db_selfcheck_list() callback. */
static int collect_sc(const struct memcal_selfcheck *c, void *user)
{
	struct report *r = user;

	return report_push((void **)&r->sc, &r->n_sc, sizeof(*c), c);
}

/* collect_ov - memcal_db_overhead_list() callback. */
static int collect_ov(const struct memcal_overhead_point *pt, void *user)
{
	struct report *r = user;

	return report_push((void **)&r->ov, &r->n_ov, sizeof(*pt), pt);
}

/* collect_om - memcal_db_overhead_model_list() callback. */
static int collect_om(const struct memcal_overhead_model *m, void *user)
{
	struct report *r = user;

	return report_push((void **)&r->om, &r->n_om, sizeof(*m), m);
}

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

/* collect_guar - keep a guaranteed-bandwidth figure (as many as fit). */
static int collect_guar(const struct memcal_guaranteed *g, void *user)
{
	struct report *r = user;

	if (r->n_guar < sizeof(r->guar) / sizeof(r->guar[0]))
		r->guar[r->n_guar++] = *g;
	return 0;
}

/**
 * report_guaranteed() - the guaranteed figure of the run that stands for
 * class @traffic (memcal_db_guaranteed_choose()), or NULL when none.
 */
const struct memcal_guaranteed *report_guaranteed(const struct report *r,
						  const char *traffic)
{
	return memcal_db_guaranteed_choose(r->guar, r->n_guar, traffic);
}

/* load_measurements - the bandwidth-side rows of r->run. */
static int load_measurements(struct report *r, memcal_db *db)
{
	int64_t id = r->run.id;
	int rc;

	rc = memcal_db_bw_list(db, id, collect_bw, r);
	if (!rc)
		rc = memcal_db_latency_list(db, id, collect_lat, r);
	if (!rc)
		rc = memcal_db_sustainable_list(db, id, collect_sus, r);
	if (!rc)
		rc = memcal_db_mix_curve_list(db, id, collect_mix, r);
	if (!rc)
		rc = memcal_db_guaranteed_list(db, id, collect_guar, r);
	if (!rc)
		rc = memcal_db_pmu_event_list(db, id, collect_ev, r);
	if (!rc)
		rc = memcal_db_selfcheck_list(db, id, collect_sc, r);
	if (rc)
		return rc;
	rc = memcal_db_pmu_status_get(db, id, &r->pmu);
	if (rc == MEMCAL_OK)
		r->have_pmu = true;
	else if (rc != MEMCAL_ENOTFOUND)
		return rc;
	return 0;
}

/* load_overhead - the overhead rows of r->overhead_run. */
static int load_overhead(struct report *r, memcal_db *db)
{
	int rc = memcal_db_overhead_list(db, r->overhead_run.id, collect_ov, r);

	return rc ? rc : memcal_db_overhead_model_list(db, r->overhead_run.id,
						       collect_om, r);
}

/* mix_warning - which curves of the family give only lower bounds. */
static void mix_warning(struct report *r)
{
	char shares[64] = "";
	size_t len = 0, n = 0;

	for (size_t i = 0; i < r->n_mix; i++)
		if (r->mix[i].lower_bound && len < sizeof(shares)) {
			len += (size_t)snprintf(shares + len, sizeof(shares) - len,
						"%s%d", n++ ? ", " : "",
						r->mix[i].read_pct);
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
	if (r->have_pmu && !r->pmu.available)
		report_warn(r, "No usable hardware PMU on this board (%s): memory "
			    "traffic cannot be counted by hardware events, so "
			    "the regulator can only run with a stand-in "
			    "counter here.", r->pmu.message[0] ? r->pmu.message :
			    "none found");
	for (size_t i = 0; i < r->n_sc; i++)
		if (!strcmp(r->sc[i].verdict, "fail"))
			report_warn(r, "PMU self-check %s failed: %s",
				    r->sc[i].check, r->sc[i].message);
	for (size_t i = 0; i < r->n_sus; i++)
		if (r->sus[i].lower_bound)
			report_warn(r, "The sustainable %s bandwidth (%.2f GB/s)"
				    " is only a lower bound: the cores could "
				    "not load the memory enough to reach the "
				    "latency knee.", r->sus[i].traffic,
				    r->sus[i].bandwidth_bps / 1e9);
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

		if (!r->n_bw)
			report_missing(r, "Run %lld stored no bandwidth "
				       "measurements.", id);
		if (!r->n_lat)
			report_missing(r, "Run %lld stored no loaded-latency "
				       "points.", id);
		if (!r->n_sus)
			report_missing(r, "Run %lld stored no sustainable "
				       "bandwidth.", id);
		if (!r->n_mix)
			report_missing(r, "Run %lld stored no bandwidth-latency "
				       "family across read/write mixes: run "
				       "'memcal run' again with this memcal.",
				       id);
		if (!r->have_pmu)
			report_missing(r, "Run %lld stored no PMU verdict.", id);
	}
	if (!r->have_overhead_run || !r->n_ov)
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
 * MEMCAL_DB_* code on a database failure, or -ENOMEM.
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
		rc = load_measurements(r, db);
	if (!rc && r->have_run && !r->have_overhead_run) {
		/* a full run may carry its own overhead points */
		r->overhead_run = r->run;
		r->overhead_run.params_json = r->overhead_run.notes = NULL;
		rc = load_overhead(r, db);
		r->have_overhead_run = !rc && r->n_ov;
		if (!r->have_overhead_run)
			memset(&r->overhead_run, 0, sizeof(r->overhead_run));
	} else if (!rc && r->have_overhead_run) {
		rc = load_overhead(r, db);
	}
	if (rc)
		return rc;
	check_warnings(r);
	check_missing(r);
	return 0;
}

/**
 * report_no_database() - fill @r for a database file that does not exist
 * yet (as `memcal show` does, this is an empty report, not an error).
 * @path: where the database was looked for.
 */
void report_no_database(struct report *r, const char *path)
{
	memcal_db_timestamp(r->generated_at);
	snprintf(r->db_path, sizeof(r->db_path), "%s", path);
	report_missing(r, "There is no database at %s yet: run 'memcal run' "
		       "and 'memcal overhead' on the board%s.", path,
		       r->tool && !strcmp(r->tool, "memtune") ?
		       ", then 'memtune profile' and 'memtune plan'" : "");
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
	free(r->bw);
	free(r->lat);
	free(r->mix);
	free(r->ev);
	free(r->sc);
	free(r->ov);
	free(r->om);
	free(r->cores);
	free(r->res);
	report_job_latency_free(r);
	free(r->lms.actual);
	free(r->lms.predicted);
	memset(r, 0, sizeof(*r));
}
