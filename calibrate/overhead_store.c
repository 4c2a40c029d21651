// SPDX-License-Identifier: GPL-2.0-only
/*
 * overhead_store.c - what `memcal overhead` does with a measurement:
 * store it (one transaction with its platform and run row), emit it as
 * JSON, and print the cores x periods summary (see overhead.h).
 */
#include "overhead.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

/*
 * cal_overhead_store - the points and models of @r into run @run_id, inside
 * the caller's transaction (the full `memcal run` calls this from its
 * own).  A point without any kept repetition is not stored.  Returns
 * MEMCAL_OK or the memcal_status of the first failed store (its sentence
 * in memcal_db_errmsg()).
 */
int cal_overhead_store(memcal_db *db, int64_t run_id,
		   const struct overhead_result *r)
{
	int rc = MEMCAL_OK;

	for (size_t i = 0; i < r->n_pts && !rc; i++)
		if (r->pts[i].db.repetitions > 0 &&
		    isfinite(r->pts[i].db.ratio_median))
			rc = memcal_db_overhead_store(db, run_id, &r->pts[i].db);
	for (size_t i = 0; i < r->n_models && !rc; i++)
		rc = memcal_db_overhead_model_store(db, run_id, &r->models[i]);
	return rc;
}

/*
 * cal_overhead_record - store @r as its own run of kind "overhead": the
 * platform (found or added), the run row (parameters, start time, notes)
 * and every point and model, in ONE transaction, so nothing is left
 * half-written.  Sets @run_id.  Returns MEMCAL_OK, or a memcal_status
 * with a sentence in @err on failure.
 */
int cal_overhead_record(memcal_db *db, const struct memcal_topology *t,
		    const struct overhead_result *r, int64_t *run_id,
		    char *err, size_t len)
{
	struct memcal_platform plat;
	struct memcal_run run;
	int rc;

	if (memcal_platform_describe(t, &plat)) {
		memcal_db_platform_free(&plat);
		snprintf(err, len, "cannot describe this platform");
		return MEMCAL_ERROR;
	}
	memset(&run, 0, sizeof(run));
	snprintf(run.kind, sizeof(run.kind), "overhead");
	snprintf(run.started_at, sizeof(run.started_at), "%s", r->started_at);
	run.params_json = r->params_json;
	run.notes = r->notes;
	rc = memcal_db_begin(db);
	if (!rc)
		rc = cal_run_row_store(db, &plat, &run);
	if (!rc)
		rc = cal_overhead_store(db, run.id, r);
	rc = cal_txn_end(db, rc);
	if (rc) {
		snprintf(err, len, "storing the overhead run failed: %s",
			 memcal_db_errmsg(db));
	} else {
		*run_id = run.id;
	}
	memcal_db_platform_free(&plat);
	return rc;
}

/* real_or_null - a JSON real, or null for a value that is not finite. */
static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* point_json - one point as JSON. */
static json_t *point_json(const struct overhead_point *p)
{
	return json_pack("{s:i, s:i, s:s, s:s, s:i, s:b, s:i, s:o, s:o, s:o, "
			 "s:b, s:o, s:o, s:I, s:I, s:i, s:o}",
			 "cpu", p->db.cpu, "period_us", p->db.period_us,
			 "benchmark", p->db.benchmark, "method", p->db.method,
			 "master_cpu", p->db.master_cpu,
			 "on_master", p->db.master_cpu == p->db.cpu,
			 "repetitions", p->db.repetitions,
			 "ratio_median", real_or_null(p->db.ratio_median),
			 "ratio_min", real_or_null(p->db.ratio_min),
			 "ratio_max", real_or_null(p->db.ratio_max),
			 "livelocked", p->ruined,
			 "c_ms", real_or_null(p->c_ns / 1e6),
			 "c_prime_ms", real_or_null(p->cp_ns / 1e6),
			 "ticks", (json_int_t)p->ticks,
			 "overruns", (json_int_t)p->overruns,
			 "dropped", (int)p->dropped,
			 "foreign", real_or_null(p->foreign));
}

/* notes_json - the notes, one string per line. */
static json_t *notes_json(const char *notes)
{
	json_t *a = json_array();
	const char *s = notes;

	while (s && *s) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		json_array_append_new(a, json_stringn(s, n));
		s += n + (e ? 1 : 0);
	}
	return a;
}

/*
 * cal_overhead_to_json - the whole result as one JSON object: method and why,
 * whether the figures are an upper bound, the points and the models.
 * Returns a new reference or NULL.
 */
json_t *cal_overhead_to_json(const struct overhead_result *r)
{
	json_t *o = json_object(), *pts = json_array(), *mods = json_array();

	for (size_t i = 0; i < r->n_pts; i++)
		json_array_append_new(pts, point_json(&r->pts[i]));
	for (size_t i = 0; i < r->n_models; i++) {
		const struct memcal_overhead_model *m = &r->models[i];

		json_array_append_new(mods, json_pack(
			"{s:i, s:s, s:s, s:o, s:o, s:o}", "cpu", m->cpu,
			"benchmark", m->benchmark, "method", m->method,
			"cost_per_irq_ns", real_or_null(m->cost_per_irq_ns),
			"base_ratio", real_or_null(m->base_ratio),
			"r2", real_or_null(m->r2)));
	}
	json_object_set_new(o, "method", json_string(r->method));
	json_object_set_new(o, "method_reason", json_string(r->method_why));
	json_object_set_new(o, "upper_bound",
			    json_boolean(!strcmp(r->method, "proxy")));
	if (!strcmp(r->method, "proxy"))
		json_object_set_new(o, "proxy_timer", json_string(
			r->fifo ? "SCHED_FIFO" : "SCHED_OTHER"));
	json_object_set_new(o, "timer_resolution_ns",
			    json_real(r->timer_res_ns));
	json_object_set_new(o, "bench_ms", json_integer(r->bench_ms));
	json_object_set_new(o, "repeat", json_integer(r->repeat));
	json_object_set_new(o, "memory_buffer_bytes",
			    json_integer((json_int_t)r->mem_bytes));
	json_object_set_new(o, "elapsed_s", json_real(r->elapsed_s));
	json_object_set_new(o, "points", pts);
	json_object_set_new(o, "models", mods);
	json_object_set_new(o, "notes", notes_json(r->notes));
	return o;
}

/* find_point - the point of (@cpu, @bench, @period, master on core?). */
static const struct overhead_point *
find_point(const struct overhead_result *r, int cpu, const char *bench,
	   int period, bool on_master)
{
	for (size_t i = 0; i < r->n_pts; i++) {
		const struct overhead_point *p = &r->pts[i];

		if (p->db.cpu == cpu && p->db.period_us == period &&
		    !strcmp(p->db.benchmark, bench) &&
		    (p->db.master_cpu == cpu) == on_master)
			return p;
	}
	return NULL;
}

/* print_table - one benchmark's cores x periods table, one row per core
 * and master placement present. */
static void print_table(FILE *f, const struct overhead_result *r,
			const char *bench, const int *per, size_t n_per)
{
	int cpus[OVH_MAX_CPUS];
	size_t n_cpus = 0;

	for (size_t i = 0; i < r->n_pts; i++) {
		bool seen = false;

		if (strcmp(r->pts[i].db.benchmark, bench))
			continue;
		for (size_t j = 0; j < n_cpus; j++)
			seen |= cpus[j] == r->pts[i].db.cpu;
		if (!seen && n_cpus < OVH_MAX_CPUS)
			cpus[n_cpus++] = r->pts[i].db.cpu;
	}
	if (!n_cpus)
		return;
	fprintf(f, "\n%s benchmark, C'/C median (min..max over repetitions):\n"
		"  %-14s", bench, "core");
	for (size_t j = 0; j < n_per; j++)
		fprintf(f, " %17d us", per[j]);
	fputc('\n', f);
	for (int on_master = 0; on_master < 2; on_master++) {
		for (size_t c = 0; c < n_cpus; c++) {
			char label[32];
			bool any = false;

			for (size_t j = 0; j < n_per && !any; j++)
				any = find_point(r, cpus[c], bench, per[j],
						 on_master) != NULL;
			if (!any)
				continue;
			snprintf(label, sizeof(label), "cpu %d%s", cpus[c],
				 on_master ? " (master)" : "");
			fprintf(f, "  %-14s", label);
			for (size_t j = 0; j < n_per; j++) {
				const struct overhead_point *p = find_point(
					r, cpus[c], bench, per[j], on_master);
				char cell[40];

				if (!p)
					snprintf(cell, sizeof(cell), "skipped");
				else if (!isfinite(p->db.ratio_median))
					snprintf(cell, sizeof(cell), "n/a");
				else
					snprintf(cell, sizeof(cell),
						 "%s%.2f (%.2f..%.2f)",
						 p->ruined ? ">" : "",
						 p->db.ratio_median,
						 p->db.ratio_min, p->db.ratio_max);
				fprintf(f, " %20s", cell);
			}
			fputc('\n', f);
		}
	}
}

/* cmp_int_desc - qsort: longest period first. */
static int cmp_int_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x < y) - (x > y);
}

/*
 * cal_overhead_print_summary - the human summary: method (and, for the
 * proxy, that it is an upper bound), one cores x periods table per
 * benchmark with the master-core rows, the fitted models, the notes.
 */
void cal_overhead_print_summary(FILE *f, const struct overhead_result *r)
{
	int per[OVH_MAX_PERIODS];
	size_t n_per = 0;

	for (size_t i = 0; i < r->n_pts; i++) {
		bool seen = false;

		for (size_t j = 0; j < n_per; j++)
			seen |= per[j] == r->pts[i].db.period_us;
		if (!seen && n_per < OVH_MAX_PERIODS)
			per[n_per++] = r->pts[i].db.period_us;
	}
	qsort(per, n_per, sizeof(per[0]), cmp_int_desc);
	fprintf(f, "Interrupt overhead, method %s: %s\n", r->method,
		r->method_why);
	if (!strcmp(r->method, "proxy"))
		fprintf(f, "  PROXY: a user-space periodic timer stands in for "
			"memreg; these figures are an UPPER BOUND of the\n"
			"  regulator's cost, not memreg's own figures.\n");
	fprintf(f, "  C = %u ms benchmark runs, %u repetitions, C and C' "
		"interleaved; '>' = livelocked (lower bound)\n", r->bench_ms,
		r->repeat);
	print_table(f, r, "compute", per, n_per);
	print_table(f, r, "memory", per, n_per);
	if (r->n_models)
		fprintf(f, "\nModel ratio(P) = base + cost / P (master "
			"elsewhere):\n");
	for (size_t i = 0; i < r->n_models; i++) {
		const struct memcal_overhead_model *m = &r->models[i];

		fprintf(f, "  cpu %d %-8s cost %8.1f us per period, base %.3f, "
			"r2 %.3f\n", m->cpu, m->benchmark,
			m->cost_per_irq_ns / 1000.0, m->base_ratio, m->r2);
	}
	if (r->notes && *r->notes)
		fprintf(f, "\nNotes:\n%s", r->notes);
	fprintf(f, "Measured in %.1f s.\n", r->elapsed_s);
}
