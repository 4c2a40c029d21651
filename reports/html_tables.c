// SPDX-License-Identifier: GPL-2.0-only
/*
 * html_tables.c - the data tables at the end of the HTML report: every row
 * the charts were drawn from, so that a reader can check a point, and the
 * planner's explanations.  Numbers are written with the same formats as
 * the CSV export.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "report.h"

/* head - a table title and its header row from @cols ('|'-separated). */
static void head(FILE *f, const char *title, const char *cols)
{
	fputs("<h3>", f);
	report_html_escape(f, title);
	fputs("</h3>\n<table>\n<tr>", f);
	while (*cols) {
		const char *bar = strchr(cols, '|');
		size_t n = bar ? (size_t)(bar - cols) : strlen(cols);

		fprintf(f, "<th>%.*s</th>", (int)n, cols);
		cols += n + (bar ? 1 : 0);
	}
	fputs("</tr>\n", f);
}

/*
 * cells - one table row from a format: each '|'-separated field of the
 * formatted text becomes a cell; fields that start with a digit or a minus
 * sign are right-aligned numbers; a "nan" field (not measured) shows "-".
 */
static void cells(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cells(FILE *f, const char *fmt, ...)
{
	char buf[1024], *p = buf;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("<tr>", f);
	for (;;) {
		char *bar = strchr(p, '|');
		bool num;

		if (bar)
			*bar = '\0';
		num = (*p >= '0' && *p <= '9') || (*p == '-' && p[1] &&
						    p[1] != ' ');
		if (!strcmp(p, "nan") || !strcmp(p, "-nan"))
			p = (char *)"-";	/* not measured */
		fputs(num ? "<td class=\"num\">" : "<td>", f);
		report_html_escape(f, p);
		fputs("</td>", f);
		if (!bar)
			break;
		p = bar + 1;
	}
	fputs("</tr>\n", f);
}

/*
 * gbps - @bps in GB/s with two decimals, in one of four rotating static
 * buffers (a row formats up to three).
 */
static const char *gbps(double bps)
{
	static char buf[4][32];
	static int next;
	char *b = buf[next++ & 3];

	snprintf(b, sizeof(buf[0]), "%.2f", bps / 1e9);
	return b;
}

/**
 * struct html_table - one data table of the page.
 * @title: its heading.
 * @cols:  the column names, '|'-separated.
 * @n_off: offset in struct report of its row count (a size_t).
 * @row:   writes row @i with cells().
 */
struct html_table {
	const char *title, *cols;
	size_t n_off;
	void (*row)(FILE *f, const struct report *r, size_t i);
};

/* write_table - @t's heading, header and rows; nothing without rows. */
static void write_table(FILE *f, const struct report *r,
			const struct html_table *t)
{
	size_t n = *(const size_t *)((const char *)r + t->n_off);

	if (!n)
		return;
	head(f, t->title, t->cols);
	for (size_t i = 0; i < n; i++)
		t->row(f, r, i);
	fputs("</table>\n", f);
}

/* p99_ms - @wl's p99 job latency in @cond (ms), NAN when not timed. */
static double p99_ms(const struct report *r, const char *wl, const char *cond)
{
	const struct memcal_job_latency *l =
		fig_job_latency_find(r->jl, r->n_jl, wl, cond);

	return l ? (double)l->p99_ns / 1e6 : NAN;
}

/*
 * row_static - static budgets against the tuned regulation, side by
 * side: slowdown per condition, then a real-time workload's p99 job
 * latency and misses, a best-effort workload's throughput (solo time over
 * co-run time).  "-" is not measured.
 */
static void row_static(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_validation_result *v = &r->res[i];
	double solo = v->solo_ns > 0 ? v->solo_ns : NAN;
	double t[FIG_N_CORUN];
	bool rt = v->deadline_ns > 0;

	for (int k = 0; k < FIG_N_CORUN; k++)
		t[k] = fig_corun_ns(v, r->validation.regulated, k);
	cells(f, "%s|%s|%.3f|%.3f|%.3f|%.3f|%.3f|%.3f|%.0f|%.0f|%.3f|%.3f|%.3f",
	      v->workload, rt ? "real-time" : "best-effort", t[0] / solo,
	      t[1] / solo, t[2] / solo,
	      rt ? p99_ms(r, v->workload, "unregulated") : NAN,
	      rt && v->has_static ? p99_ms(r, v->workload, "static") : NAN,
	      rt ? p99_ms(r, v->workload, "regulated") : NAN,
	      rt && v->has_static ? (double)v->static_deadline_misses : NAN,
	      rt && r->validation.regulated ? (double)v->deadline_misses :
	      NAN, rt ? NAN : solo / t[0], rt ? NAN : solo / t[1],
	      rt ? NAN : solo / t[2]);
}

/* row_core - one CPU's guaranteed budgets. */
static void row_core(FILE *f, const struct report *r, size_t i)
{
	const struct report_core_budget *b = &r->cores[i];

	cells(f, "%d|%s%s|%s|%.3f|%.3f|%.0f|%.0f", b->cpu, b->rt ? "rt" : "be",
	      b->cpu == r->config.master_cpu ? ", master" : "", b->workload,
	      b->read_bps / 1e9, b->write_bps / 1e9, b->read_events,
	      b->write_events);
}

/* row_result - one workload's validation, the static condition last. */
static void row_result(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_validation_result *v = &r->res[i];
	double solo = v->solo_ns > 0 ? v->solo_ns : NAN;
	char st[160];

	if (v->has_static)
		snprintf(st, sizeof(st), "%.3f|%.3f|%lld|%lld",
			 v->static_ns / 1e6, v->static_ns / solo,
			 (long long)v->static_deadline_misses,
			 (long long)v->static_throttles);
	else
		snprintf(st, sizeof(st), "static not measured|nan|nan|nan");
	cells(f, "%s|%d|%.3f|%.3f|%.3f|%.3f|%.3f|%.3f|%lld|%lld|%lld|%s",
	      v->workload, v->cpu, v->solo_ns / 1e6, v->unregulated_ns / 1e6,
	      v->regulated_ns / 1e6, v->unregulated_ns / solo,
	      v->regulated_ns > 0 ? v->regulated_ns / solo : NAN,
	      v->deadline_ns / 1e6, (long long)v->jobs,
	      (long long)v->deadline_misses, (long long)v->throttles, st);
}

/* The tuning's tables, in page order. */
static const struct html_table tuning_tables[] = {
	{ "Per-core guaranteed budgets", "CPU|role|workload|read (GB/s)|"
	  "write (GB/s)|read (events/period)|write (events/period)",
	  offsetof(struct report, n_cores), row_core },
	{ "Validation results", "workload|CPU|solo (ms)|unregulated (ms)|"
	  "regulated (ms)|unregulated slowdown|regulated slowdown|"
	  "deadline (ms)|jobs|misses|throttles|static (ms)|static slowdown|"
	  "static misses|static throttles",
	  offsetof(struct report, n_res), row_result },
	{ "Static budgets against regulation", "workload|kind|"
	  "unregulated slowdown|static slowdown|regulated slowdown|"
	  "p99 unregulated (ms)|p99 static (ms)|p99 regulated (ms)|"
	  "static misses|regulated misses|throughput unregulated|"
	  "throughput static|throughput regulated",
	  offsetof(struct report, n_res), row_static },
};

/* tables_tuning - explanations, per-core budgets and validation results. */
static void tables_tuning(FILE *f, const struct report *r)
{
	json_t *ex = r->doc ? json_object_get(r->doc, "explain") : NULL;
	size_t i;
	json_t *s;

	if (json_is_array(ex) && json_array_size(ex)) {
		fputs("<h3>Why these choices (planner)</h3>\n<ul>\n", f);
		json_array_foreach(ex, i, s)
			if (json_is_string(s)) {
				fputs("<li>", f);
				report_html_escape(f, json_string_value(s));
				fputs("</li>\n", f);
			}
		fputs("</ul>\n", f);
	}
	for (i = 0; i < sizeof(tuning_tables) / sizeof(tuning_tables[0]); i++)
		write_table(f, r, &tuning_tables[i]);
	if (r->n_res && !report_has_static(r))
		fputs("<p>static not measured: this validation ran before "
		      "the static condition existed, or with --no-static.</p>\n",
		      f);
}

/* row_bw - one bandwidth row. */
static void row_bw(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_bw *b = &r->cal.bw[i];
	char spread[32] = "-";

	if (isfinite(b->spread))
		snprintf(spread, sizeof(spread), "%.1f%s", b->spread * 100,
			 b->spread_wide ? " WIDE" : "");
	cells(f, "%s|%s|%s|%d|%s|%.0f|%d|%.2f|%.2f|%.2f|%s", b->kind,
	      b->scope, b->cpus, b->n_cpus, b->variant,
	      (double)b->buffer_bytes / (1 << 20), b->repetitions,
	      b->median_bps / 1e9, b->min_bps / 1e9, b->max_bps / 1e9, spread);
}

/* row_sus - one class's sustainable bandwidth. */
static void row_sus(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_sustainable *s = &r->cal.sus[i];

	cells(f, "%s|%.2f|%.1f|%.2f|%s|%s", s->traffic, s->bandwidth_bps / 1e9,
	      s->idle_latency_ns, s->bound_ratio, s->criterion,
	      s->lower_bound ? "yes" : "no");
}

/* row_guar - one guaranteed-bandwidth figure; a skipped one has none. */
static void row_guar(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_guaranteed *g = &r->cal.guar[i];
	bool skipped = !strcmp(g->status, "skipped");

	cells(f, "%s|%s|%s|%s|%s|%s|%s|%d|%d|%s|%s|%s", g->traffic, g->method,
	      g->status, skipped ? "-" : gbps(g->bandwidth_bps),
	      skipped ? "-" : gbps(g->min_bps),
	      skipped ? "-" : gbps(g->max_bps), g->cpus[0] ? g->cpus : "-",
	      g->streams, g->repetitions,
	      report_guaranteed(r, g->traffic) == g ? "yes" : "no",
	      g->criterion[0] ? g->criterion : "-",
	      g->source[0] ? g->source : "-");
}

/* row_mix - one curve of the bandwidth-latency family. */
static void row_mix(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_mix_curve *m = &r->cal.mix[i];

	cells(f, "%d|%s|%d|%.2f|%.2f|%.2f|%.1f|%s|%s", m->read_pct, m->variant,
	      m->load_cpus, m->peak_bps / 1e9, m->knee_bps / 1e9,
	      m->sustainable_bps / 1e9, m->idle_latency_ns, m->criterion,
	      m->lower_bound ? "yes" : "no");
}

/* row_lat - one loaded-latency point. */
static void row_lat(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_latency_point *p = &r->cal.lat[i];

	cells(f, "%s|%d|%d|%.2f|%.2f|%.1f|%.1f|%.1f", p->traffic, p->chase_cpu,
	      p->load_cpus, p->pace, p->bandwidth_bps / 1e9, p->latency_ns,
	      p->latency_min_ns, p->latency_max_ns);
}

/* row_ev - one PMU event candidate. */
static void row_ev(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_pmu_event *e = &r->cal.ev[i];

	cells(f, "%s|%s|%s|%s|%.1f|%.1f|%s|%s", e->name, e->pmu, e->traffic,
	      e->opened ? "yes" : "no", e->bytes_per_event, e->error_pct,
	      e->chosen ? "yes" : "no", e->message);
}

/* row_sc - one PMU self-check ("all": of every CPU). */
static void row_sc(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_selfcheck *c = &r->cal.sc[i];
	char cpu[16];

	if (c->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "%d", c->cpu);
	else
		snprintf(cpu, sizeof(cpu), "all");
	cells(f, "%s|%s|%s|%.0f|%.0f|%.0f|%s|%s", c->check, cpu,
	      c->event[0] ? c->event : "-", c->expected, c->measured,
	      c->tolerance_pct, c->verdict, c->message);
}

/* row_ov - one interrupt-overhead point. */
static void row_ov(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_overhead_point *p = &r->ovh.ov[i];

	cells(f, "%d|%d|%s|%s|%d|%d|%.3f|%.3f|%.3f", p->cpu, p->period_us,
	      p->benchmark, p->method, p->master_cpu, p->repetitions,
	      p->ratio_median, p->ratio_min, p->ratio_max);
}

/* row_om - one fitted overhead model. */
static void row_om(FILE *f, const struct report *r, size_t i)
{
	const struct memcal_overhead_model *m = &r->ovh.om[i];

	cells(f, "%d|%s|%s|%.0f|%.3f|%.3f", m->cpu, m->benchmark, m->method,
	      m->cost_per_irq_ns, m->base_ratio, m->r2);
}

/* The calibration's tables, in page order. */
static const struct html_table calibration_tables[] = {
	{ "Bandwidth", "kind|scope|CPUs|cores|variant|buffer (MiB)|"
	  "repetitions|median (GB/s)|min (GB/s)|max (GB/s)|spread (+-%)",
	  offsetof(struct report, cal.n_bw), row_bw },
	{ "Sustainable bandwidth", "traffic|bandwidth (GB/s)|"
	  "idle latency (ns)|bound (x idle)|criterion|lower bound",
	  offsetof(struct report, cal.n_sus), row_sus },
	{ "Guaranteed bandwidth (every access a row miss)",
	  "traffic|method|status|bandwidth (GB/s)|min (GB/s)|max (GB/s)|"
	  "CPUs|streams|repetitions|stands for the class|criterion|"
	  "source or reason",
	  offsetof(struct report, cal.n_guar), row_guar },
	{ "Bandwidth-latency family", "read share (%)|variant|load CPUs|"
	  "peak (GB/s)|knee (GB/s)|sustainable (GB/s)|idle latency (ns)|"
	  "criterion|lower bound",
	  offsetof(struct report, cal.n_mix), row_mix },
	{ "Loaded latency", "traffic|chase CPU|load CPUs|pace|"
	  "bandwidth (GB/s)|latency (ns)|min (ns)|max (ns)",
	  offsetof(struct report, cal.n_lat), row_lat },
	{ "PMU events", "event|PMU|traffic|opened|bytes/event|error (%)|"
	  "chosen|note",
	  offsetof(struct report, cal.n_ev), row_ev },
	{ "PMU self-checks", "check|CPU|event|expected|measured|"
	  "tolerance (%)|verdict|message",
	  offsetof(struct report, cal.n_sc), row_sc },
	{ "Interrupt overhead", "CPU|period (us)|benchmark|method|"
	  "master CPU|repetitions|C'/C median|min|max",
	  offsetof(struct report, ovh.n_ov), row_ov },
	{ "Overhead model (ratio = base + cost / period)", "CPU|benchmark|"
	  "method|cost per interrupt (ns)|base ratio|R2",
	  offsetof(struct report, ovh.n_om), row_om },
};

/**
 * report_write_html_tables() - the "Data" section of the page.
 * Return: 0 (write errors are caught by the caller's ferror()).
 */
int report_write_html_tables(FILE *f, const struct report *r)
{
	fputs("<h2 id=\"data\">Data</h2>\n", f);
	if (r->tool && !strcmp(r->tool, "memtune"))
		tables_tuning(f, r);
	for (size_t i = 0; i < sizeof(calibration_tables) /
	     sizeof(calibration_tables[0]); i++)
		write_table(f, r, &calibration_tables[i]);
	if (!r->cal.n_bw && !r->ovh.n_ov && !r->n_res && !r->n_cores)
		fputs("<p>The database holds no data for this report yet.</p>\n",
		      f);
	return 0;
}
