// SPDX-License-Identifier: GPL-2.0-only
/*
 * validate_latency.c - per-job latency of the real-time workloads during
 * 'memtune validate' (validate_latency.h).
 *
 * A real-time workload that times its own jobs (memcal-load with
 * --period-us) is measured from its job report; any other real-time
 * command gets cyclictest pinned beside it on its core at its period (its
 * deadline when no period is given), started just before it and stopped
 * when it exits.  Every co-scheduled repetition of a condition adds to one
 * distribution per workload and condition; what could not be timed is
 * said in @note and stored with the validation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_db_job_latency.h"
#include "memcal_figures.h"
#include "validate_latency.h"

const char *const tune_vlat_cond_name[VLAT_N_COND] = { "solo", "unregulated",
						  "static", "regulated" };

/**
 * tune_note_add() - append a sentence to @note (a @len-byte string),
 * separated by "; ", once: a sentence it holds already is not repeated;
 * truncated if long.
 */
void tune_note_add(char *note, size_t len, const char *fmt, ...)
{
	size_t n = strlen(note);
	char s[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	if (strstr(note, s))
		return;
	snprintf(note + n, len - n, "%s%s", n ? "; " : "", s);
}

/**
 * tune_vlat_init() - decide how each real-time workload of @m (on @cpus) is
 * timed.  Return: 0, or -ENOMEM.
 */
int tune_vlat_init(struct vlat *v, const struct mix *m, const int *cpus)
{
	char why[256] = "";
	bool have_ct = tune_lat_cyclictest_available(why, sizeof(why));

	memset(v, 0, sizeof(*v));
	v->n = m->n;
	for (int i = 0; i < m->n; i++) {
		const struct mix_workload *w = &m->wl[i];

		v->cpu[i] = cpus[i];
		v->deadline_ns[i] = w->deadline_ns;
		v->period_ns[i] = w->period_ns ? w->period_ns : w->deadline_ns;
		if (!w->rt || !v->deadline_ns[i])
			continue;
		if (tune_lat_reports_jobs(w->argv))
			v->probe[i] = VLAT_SELF;
		else if (have_ct)
			v->probe[i] = VLAT_CYCLICTEST;
		else
			tune_note_add(v->note, sizeof(v->note), "latency of "
				      "'%s' not measured: %s", w->name, why);
	}
	return 0;
}

/* tune_vlat_free() - release every distribution and stop live probes. */
void tune_vlat_free(struct vlat *v)
{
	char err[256];

	for (int i = 0; i < v->n; i++) {
		struct lat_dist d;

		if (v->live[i].pid && !tune_lat_probe_stop(&v->live[i], 1, &d, err,
						      sizeof(err)))
			tune_lat_dist_free(&d);
		for (int k = 0; k < VLAT_N_COND; k++)
			tune_lat_dist_free(&v->dist[i][k]);
	}
}

/* tune_vlat_any() - whether any workload is timed. */
bool tune_vlat_any(const struct vlat *v)
{
	for (int i = 0; i < v->n; i++)
		if (v->probe[i] != VLAT_NONE)
			return true;
	return false;
}

/**
 * tune_vlat_start() - before workload @i's @job starts: start its cyclictest
 * (if that is its probe) and have the runner stop it when @job exits.
 * Return: 0; a probe that cannot start is noted, not fatal.
 */
int tune_vlat_start(struct vlat *v, int i, struct runner_job *job)
{
	char err[256];

	if (v->probe[i] != VLAT_CYCLICTEST)
		return 0;
	if (tune_lat_probe_start(&v->live[i], v->cpu[i], v->period_ns[i],
			    v->deadline_ns[i], err, sizeof(err))) {
		tune_note_add(v->note, sizeof(v->note), "cyclictest beside "
			      "'%s' did not start: %s", job->argv[0], err);
		return 0;
	}
	job->stop_pid = v->live[i].pid;
	return 0;
}

/* merge_into - add @d to workload @i's distribution of @cond. */
static void merge_into(struct vlat *v, int i, enum vlat_cond cond,
		       struct lat_dist *d)
{
	struct lat_dist *t = &v->dist[i][cond];

	if (!t->counts) {
		*t = *d;
		return;
	}
	tune_lat_dist_merge(t, d);
	tune_lat_dist_free(d);
}

/**
 * tune_vlat_collect() - after one run in @cond: add workload @i's job times
 * from its job report at @report_path, or from its cyclictest.
 */
void tune_vlat_collect(struct vlat *v, enum vlat_cond cond, int i,
		  const char *report_path)
{
	char err[256];
	struct lat_dist d;

	if (v->probe[i] == VLAT_CYCLICTEST && v->live[i].pid) {
		if (tune_lat_probe_stop(&v->live[i], v->deadline_ns[i], &d, err,
				   sizeof(err)))
			tune_note_add(v->note, sizeof(v->note), "cyclictest "
				      "gave no latency (%s): %s",
				      tune_vlat_cond_name[cond], err);
		else
			merge_into(v, i, cond, &d);
		return;
	}
	if (v->probe[i] != VLAT_SELF)
		return;
	if (tune_lat_dist_init(&d, tune_lat_range_us(v->deadline_ns[i]),
			  v->deadline_ns[i]))
		return;
	if (tune_lat_read_job_report(report_path, &d, err, sizeof(err))) {
		tune_note_add(v->note, sizeof(v->note), "no per-job times "
			      "from the job report (%s): %s",
			      tune_vlat_cond_name[cond], err);
		tune_lat_dist_free(&d);
	} else {
		merge_into(v, i, cond, &d);
	}
}

/* histogram_json - @d's non-empty buckets as "[[us,count],...]". */
static char *histogram_json(const struct lat_dist *d)
{
	json_t *a = json_array();
	char *s;

	for (size_t b = 0; b < d->n_buckets; b++)
		if (d->counts[b])
			json_array_append_new(a, json_pack("[I,I]",
				(json_int_t)b, (json_int_t)d->counts[b]));
	s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

/* to_row - workload @i's distribution of @cond as a database row. */
static void to_row(const struct vlat *v, const struct mix *m, int i, int k,
		   struct memcal_job_latency *l)
{
	const struct lat_dist *d = &v->dist[i][k];

	memset(l, 0, sizeof(*l));
	snprintf(l->workload, sizeof(l->workload), "%s", m->wl[i].name);
	l->cpu = v->cpu[i];
	snprintf(l->condition, sizeof(l->condition), "%s", tune_vlat_cond_name[k]);
	snprintf(l->probe, sizeof(l->probe), "%s",
		 v->probe[i] == VLAT_SELF ? "self" : "cyclictest");
	l->period_ns = (int64_t)v->period_ns[i];
	l->deadline_ns = (int64_t)v->deadline_ns[i];
	l->samples = (int64_t)d->samples;
	l->p50_ns = (int64_t)tune_lat_dist_percentile(d, 50);
	l->p99_ns = (int64_t)tune_lat_dist_percentile(d, 99);
	l->max_ns = (int64_t)d->max_ns;
	l->misses = (int64_t)d->misses;
	l->overflow = (int64_t)d->overflow;
}

/**
 * tune_vlat_store() - every non-empty distribution of @v as latency rows of
 * validation @validation_id (inside the caller's transaction).
 * Return: MEMCAL_OK or the database's error.
 */
int tune_vlat_store(memcal_db *db, int64_t validation_id, const struct vlat *v,
	       const struct mix *m)
{
	for (int i = 0; i < v->n; i++)
		for (int k = 0; k < VLAT_N_COND; k++) {
			struct memcal_job_latency l;
			int rc;

			if (!v->dist[i][k].samples)
				continue;
			to_row(v, m, i, k, &l);
			l.histogram = histogram_json(&v->dist[i][k]);
			rc = l.histogram ? memcal_db_job_latency_store(db,
				validation_id, &l) : MEMCAL_EINVAL;
			free(l.histogram);
			if (rc)
				return rc;
		}
	return MEMCAL_OK;
}

/**
 * tune_vlat_print() - the latency table: one line per timed workload and
 * condition, "not measured" where a condition has no distribution.
 */
void tune_vlat_print(FILE *f, const struct vlat *v, const struct mix *m)
{
	if (!tune_vlat_any(v))
		return;
	fprintf(f, "per-job latency\n%-16s %-11s %-10s %7s %9s %9s %9s %6s\n",
		"workload", "condition", "probe", "jobs", "p50_ms", "p99_ms",
		"max_ms", "misses");
	for (int i = 0; i < v->n; i++)
		for (int k = 0; k < VLAT_N_COND && v->probe[i]; k++) {
			struct memcal_job_latency l;

			if (!v->dist[i][k].samples) {
				fprintf(f, "%-16s %-11s not measured%s\n",
					m->wl[i].name, tune_vlat_cond_name[k],
					k == VLAT_STATIC && v->static_off ?
					" (--no-static)" : k >= VLAT_STATIC ?
					" (no regulator)" : "");
				continue;
			}
			to_row(v, m, i, k, &l);
			fprintf(f, "%-16s %-11s %-10s %7lld %9.3f %9.3f %9.3f "
				"%6lld\n", l.workload, l.condition, l.probe,
				(long long)l.samples, (double)l.p50_ns / 1e6,
				(double)l.p99_ns / 1e6, (double)l.max_ns / 1e6,
				(long long)l.misses);
		}
}

/* tune_vlat_json() - the measured distributions' figures as a JSON array. */
json_t *tune_vlat_json(const struct vlat *v, const struct mix *m)
{
	json_t *a = json_array();

	for (int i = 0; i < v->n; i++)
		for (int k = 0; k < VLAT_N_COND; k++) {
			struct memcal_job_latency l;

			if (!v->dist[i][k].samples)
				continue;
			to_row(v, m, i, k, &l);
			json_array_append_new(a,
					      fig_job_latency_row_json(&l));
		}
	return a;
}
