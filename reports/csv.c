// SPDX-License-Identifier: GPL-2.0-only
/*
 * csv.c - the report's data as one CSV table (RFC 4180: comma-separated,
 * fields with a comma, quote or line break quoted, quotes doubled), in
 * long form so that every dataset shares one header:
 *
 *   dataset,series,cpu,x,x_unit,y,y_unit,y_min,y_max,note
 *
 * datasets: summary, bandwidth, latency, sustainable, mix_latency
 * (series "N% read", x B/s, y ns), mix_sustainable (x read share in per
 * cent, y sustainable B/s, y_min knee, y_max unpaced peak), guaranteed
 * (series "class/method", x cores, y B/s, y_min/y_max the spread, note
 * status, whether it stands for its class, criterion and source or the
 * reason it was skipped), overhead, budget,
 * validation_unregulated, validation_regulated, validation_static (y_min
 * misses, y_max throttles; note "static not measured" for a validation
 * without it), validation_throughput (best-effort workloads, series
 * "workload condition", y solo time over co-run time), job_latency (x jobs, y
 * p99 ns, y_min p50, y_max max), job_deadline_misses, lms_actual, lms_predicted,
 * selfcheck (series the check, x expected, y measured; note verdict,
 * event, tolerance and message), warning, missing.  Values are in base units (B/s, ns, us) with 10
 * significant digits; an empty field means "not applicable".
 */
#include <math.h>
#include <string.h>

#include "report.h"

#define CSV_HEADER "dataset,series,cpu,x,x_unit,y,y_unit,y_min,y_max,note\n"

/* field - one CSV field, quoted when it must be, then @end. */
static void field(FILE *f, const char *s, char end)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
	} else {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	}
	fputc(end, f);
}

/*
 * number - a numeric field: empty for NAN, else 10 significant digits;
 * then a comma.
 */
static void number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	fputc(',', f);
}

/**
 * struct csv_row - one line of the long table (NAN / -1 / NULL: empty).
 * @dataset, @series: what the row belongs to.
 * @cpu:    CPU number, or -1.
 * @x, @y, @y_min, @y_max: values.
 * @x_unit, @y_unit, @note: text.
 */
struct csv_row {
	const char *dataset, *series;
	int cpu;
	double x;
	const char *x_unit;
	double y;
	const char *y_unit;
	double y_min, y_max;
	const char *note;
};

/* line - write @w as one CSV line. */
static void line(FILE *f, const struct csv_row *w)
{
	field(f, w->dataset, ',');
	field(f, w->series, ',');
	if (w->cpu >= 0)
		fprintf(f, "%d", w->cpu);
	fputc(',', f);
	number(f, w->x);
	field(f, w->x_unit, ',');
	number(f, w->y);
	field(f, w->y_unit, ',');
	number(f, w->y_min);
	number(f, w->y_max);
	field(f, w->note, '\n');
}

/* summary - the headline figures (same rule as the page). */
static void summary(FILE *f, const struct report *r)
{
	static const char *const kinds[] = { "read", "write", "ntwrite" };

	for (int k = 0; k < 3; k++) {
		int n = 0;
		double v = fig_bw_peak(&r->cal, kinds[k], &n);
		char series[32];

		if (isnan(v))
			continue;
		snprintf(series, sizeof(series), "peak_%s", kinds[k]);
		line(f, &(struct csv_row){ "summary", series, -1, n, "cores", v,
					   "B/s", NAN, NAN, NULL });
		snprintf(series, sizeof(series), "single_core_%s", kinds[k]);
		line(f, &(struct csv_row){ "summary", series, -1, 1, "cores",
					   fig_bw_at(&r->cal, kinds[k], 1, NULL,
							NULL), "B/s", NAN, NAN,
					   NULL });
	}
	if (r->have_config) {
		line(f, &(struct csv_row){ "summary", "period", -1, NAN, NULL,
					   r->config.period_us, "us", NAN, NAN,
					   report_doc_reason(r, "period") });
		line(f, &(struct csv_row){ "summary", "master_cpu",
					   r->config.master_cpu, NAN, NULL, NAN,
					   NULL, NAN, NAN,
					   report_doc_reason(r, "master") });
		if (report_doc_reason(r, "mix"))
			line(f, &(struct csv_row){ "summary", "read_write_mix",
						   -1, NAN, NULL, NAN, NULL,
						   NAN, NAN,
						   report_doc_reason(r, "mix") });
	}
}

/* calibration - the rows of the calibration. */
static void calibration(FILE *f, const struct report *r)
{
	char series[160], note[128];

	for (size_t i = 0; i < r->cal.n_bw; i++) {
		const struct memcal_bw *b = &r->cal.bw[i];

		snprintf(series, sizeof(series), "%s/%s", b->kind, b->scope);
		if (isfinite(b->spread))
			snprintf(note, sizeof(note), "cpus %s, %s, spread +-%.1f%%%s",
				 b->cpus, b->variant, b->spread * 100,
				 b->spread_wide ? " WIDE" : "");
		else
			snprintf(note, sizeof(note), "cpus %s, %s", b->cpus,
				 b->variant);
		line(f, &(struct csv_row){ "bandwidth", series, -1, b->n_cpus,
					   "cores", b->median_bps, "B/s",
					   b->min_bps, b->max_bps, note });
	}
	for (size_t i = 0; i < r->cal.n_lat; i++) {
		const struct memcal_latency_point *p = &r->cal.lat[i];

		snprintf(note, sizeof(note), "%d load cpus, pace %.3g",
			 p->load_cpus, p->pace);
		line(f, &(struct csv_row){ "latency", p->traffic, p->chase_cpu,
					   p->bandwidth_bps, "B/s",
					   p->latency_ns, "ns", p->latency_min_ns,
					   p->latency_max_ns, note });
	}
	for (size_t i = 0; i < r->cal.n_sus; i++) {
		const struct memcal_sustainable *s = &r->cal.sus[i];

		snprintf(series, sizeof(series), "%s%s", s->traffic,
			 s->lower_bound ? " (lower bound)" : "");
		line(f, &(struct csv_row){ "sustainable", series, -1,
					   s->idle_latency_ns, "ns idle",
					   s->bandwidth_bps, "B/s", NAN, NAN,
					   s->criterion });
	}
	for (size_t i = 0; i < r->cal.n_mix; i++) {
		const struct memcal_mix_curve *m = &r->cal.mix[i];

		snprintf(series, sizeof(series), "%d%% read", m->read_pct);
		for (int p = 0; p < m->n_points; p++) {
			const struct memcal_mix_point *pt = &m->points[p];

			snprintf(note, sizeof(note), "%d load cpus, pace %.3g, "
				 "%s", m->load_cpus, pt->pace, m->variant);
			line(f, &(struct csv_row){ "mix_latency", series,
						   m->chase_cpu,
						   pt->bandwidth_bps, "B/s",
						   pt->latency_ns, "ns",
						   pt->latency_min_ns,
						   pt->latency_max_ns, note });
		}
		snprintf(series, sizeof(series), "%d%% read%s", m->read_pct,
			 m->lower_bound ? " (lower bound)" : "");
		line(f, &(struct csv_row){ "mix_sustainable", series, -1,
					   m->read_pct, "% read",
					   m->sustainable_bps, "B/s",
					   m->knee_bps, m->peak_bps,
					   m->criterion });
	}
	for (size_t i = 0; i < r->cal.n_guar; i++) {
		const struct memcal_guaranteed *g = &r->cal.guar[i];
		bool skipped = !strcmp(g->status, "skipped");
		char gnote[640];

		snprintf(series, sizeof(series), "%s/%s", g->traffic, g->method);
		snprintf(gnote, sizeof(gnote), "%s%s%s%s%s%s", g->status,
			 report_guaranteed(r, g->traffic) == g ? ", stands" : "",
			 g->criterion[0] ? "; " : "", g->criterion,
			 g->source[0] ? "; " : "", g->source);
		line(f, &(struct csv_row){ "guaranteed", series, -1,
					   skipped ? NAN : g->n_cpus, "cores",
					   skipped ? NAN : g->bandwidth_bps, "B/s",
					   skipped ? NAN : g->min_bps,
					   skipped ? NAN : g->max_bps, gnote });
	}
	for (size_t i = 0; i < r->ovh.n_ov; i++) {
		const struct memcal_overhead_point *p = &r->ovh.ov[i];

		snprintf(series, sizeof(series), "%s/%s", p->benchmark,
			 p->method);
		snprintf(note, sizeof(note), "master %d%s", p->master_cpu,
			 p->lower_bound ? ", livelocked: lower bound" : "");
		line(f, &(struct csv_row){ "overhead", series, p->cpu,
					   p->period_us, "us", p->ratio_median,
					   "ratio", p->ratio_min, p->ratio_max,
					   note });
	}
}

/*
 * selfchecks - the PMU self-checks: x what the check expected, y what it
 * measured (lines and events for the counts, overflows for delivery,
 * other users for pmu-users; both empty when skipped); the note is
 * "VERDICT, EVENT, within TOL%: MESSAGE" (the message names the kind of
 * CPU and its event).
 */
static void selfchecks(FILE *f, const struct report *r)
{
	for (size_t i = 0; i < r->cal.n_sc; i++) {
		const struct memcal_selfcheck *c = &r->cal.sc[i];
		bool skipped = !strcmp(c->verdict, "skip");
		bool count = !skipped && strstr(c->check, "-count");
		bool delivery = !skipped && !strcmp(c->check, "delivery");
		const char *msg = c->message;
		char note[800], tol[32] = "";

		if (c->tolerance_pct > 0)
			snprintf(tol, sizeof(tol), ", within %.0f%%",
				 c->tolerance_pct);
		/* a skip's message may say "skipped: " itself */
		if (skipped && !strncmp(msg, "skipped: ", 9))
			msg += 9;
		snprintf(note, sizeof(note), "%s%s%s%s: %s", c->verdict,
			 c->event[0] ? ", " : "", c->event, tol, msg);
		line(f, &(struct csv_row){ "selfcheck", c->check, c->cpu,
					   count || delivery ? c->expected : NAN,
					   count ? "lines" : delivery ?
					   "overflows" : NULL,
					   skipped ? NAN : c->measured,
					   count ? "events" : delivery ?
					   "overflows" : skipped ? NULL : "users",
					   NAN, NAN,
					   note });
	}
}

/*
 * validation_static - workload @v's static condition (x its time, y its
 * slowdown, y_min its misses, y_max its throttles; "static not measured"
 * with no figures when it did not run) and, for a best-effort workload,
 * its throughput per condition (y solo time over co-run time).
 */
static void validation_static(FILE *f, const struct report *r,
			      const struct memcal_validation_result *v)
{
	double solo = v->solo_ns > 0 ? v->solo_ns : NAN;

	if (v->has_static)
		line(f, &(struct csv_row){ "validation_static", v->workload,
					   v->cpu, v->static_ns, "ns",
					   v->static_ns / solo, "x solo",
					   (double)v->static_deadline_misses,
					   (double)v->static_throttles, NULL });
	else
		line(f, &(struct csv_row){ "validation_static", v->workload,
					   v->cpu, NAN, NULL, NAN, NULL, NAN,
					   NAN, "static not measured" });
	if (v->deadline_ns > 0)
		return;
	for (int k = 0; k < FIG_N_CORUN; k++) {
		double t = fig_corun_ns(v, r->validation.regulated, k);
		char series[160];

		snprintf(series, sizeof(series), "%s %s", v->workload,
			 fig_corun_name[k]);
		line(f, &(struct csv_row){ "validation_throughput", series,
					   v->cpu, t, "ns", solo / t,
					   "solo time / co-run time", NAN, NAN,
					   isnan(t) ? "not measured" : NULL });
	}
}

/* tuning - budgets, validation and the LMS trace. */
static void tuning(FILE *f, const struct report *r)
{
	for (size_t i = 0; i < r->n_cores; i++) {
		const struct report_core_budget *b = &r->cores[i];

		line(f, &(struct csv_row){ "budget", "read", b->cpu,
					   b->read_events, "events/period",
					   b->read_bps, "B/s", NAN, NAN,
					   b->workload });
		line(f, &(struct csv_row){ "budget", "write", b->cpu,
					   b->write_events, "events/period",
					   b->write_bps, "B/s", NAN, NAN,
					   b->workload });
	}
	for (size_t i = 0; i < r->n_res; i++) {
		const struct memcal_validation_result *v = &r->res[i];
		double solo = v->solo_ns > 0 ? v->solo_ns : NAN;

		line(f, &(struct csv_row){ "validation_unregulated", v->workload,
					   v->cpu, v->unregulated_ns, "ns",
					   v->unregulated_ns / solo, "x solo",
					   NAN, NAN, NULL });
		line(f, &(struct csv_row){ "validation_regulated", v->workload,
					   v->cpu, v->regulated_ns, "ns",
					   v->regulated_ns > 0 ?
					   v->regulated_ns / solo : NAN,
					   "x solo", NAN, NAN, NULL });
		validation_static(f, r, v);
	}
	for (size_t i = 0; i < r->n_jl; i++) {
		const struct memcal_job_latency *l = &r->jl[i];
		char series[160];

		snprintf(series, sizeof(series), "%s %s", l->workload,
			 l->condition);
		line(f, &(struct csv_row){ "job_latency", series, l->cpu,
					   (double)l->samples, "jobs",
					   (double)l->p99_ns, "ns p99",
					   (double)l->p50_ns,
					   (double)l->max_ns, l->probe });
		line(f, &(struct csv_row){ "job_deadline_misses", series,
					   l->cpu, (double)l->deadline_ns,
					   "ns deadline", (double)l->misses,
					   "jobs", NAN, NAN, l->probe });
	}
	for (size_t i = 0; i < r->lms.n; i++) {
		double t = (double)i * r->lms.period_us;

		line(f, &(struct csv_row){ "lms_actual", "read", r->lms.cpu, t,
					   "us", r->lms.actual[i], "B/s", NAN,
					   NAN, NULL });
		line(f, &(struct csv_row){ "lms_predicted", "read", r->lms.cpu,
					   t, "us", r->lms.predicted[i], "B/s",
					   NAN, NAN, NULL });
	}
}

/**
 * report_write_csv() - the data of @r as CSV on @f.
 * Return: 0, or MEMCAL_EIO when writing failed.
 */
int report_write_csv(FILE *f, const struct report *r)
{
	fputs(CSV_HEADER, f);
	summary(f, r);
	calibration(f, r);
	selfchecks(f, r);
	if (r->tool && !strcmp(r->tool, "memtune"))
		tuning(f, r);
	for (size_t i = 0; i < r->n_warnings; i++)
		line(f, &(struct csv_row){ "warning", NULL, -1, NAN, NULL, NAN,
					   NULL, NAN, NAN, r->warnings[i] });
	for (size_t i = 0; i < r->n_missing; i++)
		line(f, &(struct csv_row){ "missing", NULL, -1, NAN, NULL, NAN,
					   NULL, NAN, NAN, r->missing[i] });
	return ferror(f) ? MEMCAL_EIO : 0;
}
