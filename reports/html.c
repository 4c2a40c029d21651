// SPDX-License-Identifier: GPL-2.0-only
/*
 * html.c - the report as one self-contained HTML page: inline CSS and SVG,
 * no script, no external resource, readable on screen and printed.  Order:
 * summary (board, calibration, headline figures, tuned choices and why),
 * warnings, what is missing, the charts, then the data tables.
 */
#include <math.h>
#include <string.h>

#include "report.h"
#include "svg.h"

static const char css[] =
	"body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;"
	"margin:24px auto;max-width:1000px;color:#111;line-height:1.4;"
	"padding:0 16px}"
	"h1{font-size:24px;margin-bottom:4px}h2{font-size:19px;border-bottom:"
	"1px solid #ccc;padding-bottom:3px;margin-top:32px}h3{font-size:15px}"
	".meta{color:#555;font-size:13px;margin-top:0}"
	"table{border-collapse:collapse;font-size:13px;margin:8px 0}"
	"td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;"
	"vertical-align:top}th{background:#f3f3f3}td.num{text-align:right;"
	"font-variant-numeric:tabular-nums}"
	"table.kv th{width:210px}.wide{overflow-x:auto}"
	"td.out{background:#fde0dc;font-weight:bold}"
	".warn{background:#fff4e5;border-left:4px solid #e69f00;padding:6px"
	" 12px;margin:12px 0}.absent{background:#f4f4f4;border-left:4px solid"
	" #888;padding:6px 12px;margin:12px 0}"
	".warn li,.absent li{margin:3px 0;font-size:13px}"
	"figure{margin:18px 0;break-inside:avoid;page-break-inside:avoid}"
	"figure svg{max-width:100%;height:auto;border:1px solid #e2e2e2}"
	"figcaption{font-size:12px;color:#444;margin-top:4px}"
	"@media print{body{margin:0;max-width:none}h2{break-after:avoid}}";

/* report_html_escape() - write @s as HTML text (the XML escaping of svg.c). */
void report_html_escape(FILE *f, const char *s)
{
	report_svg_escape(f, s);
}

/* row - one <tr><th>key</th><td>value</td></tr>, the value escaped. */
static void row(FILE *f, const char *key, const char *val)
{
	fputs("<tr><th>", f);
	report_html_escape(f, key);
	fputs("</th><td>", f);
	report_html_escape(f, val);
	fputs("</td></tr>\n", f);
}

/* gbps - "12.34 GB/s" (or "-" for a value not measured). */
static const char *gbps(double bps, char *buf, size_t len)
{
	if (isnan(bps))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f GB/s", bps / 1e9);
	return buf;
}

/* summary_board - the board and the calibration rows. */
static void summary_board(FILE *f, const struct report *r)
{
	const struct memcal_platform *p = &r->platform;
	const struct memcal_run *run = r->have_run ? &r->run : &r->overhead_run;
	char buf[512];

	if (r->have_platform) {
		snprintf(buf, sizeof(buf), "%s (%s), host %s", p->cpu_model,
			 p->arch, p->hostname);
		row(f, "Board", buf);
		snprintf(buf, sizeof(buf), "%d package(s), %d NUMA node(s), "
			 "%d cores, %d hardware threads; kernel %s", p->packages,
			 p->numa_nodes, p->cores, p->pus, p->kernel);
		row(f, "Topology", buf);
	}
	if (r->have_run || r->have_overhead_run) {
		snprintf(buf, sizeof(buf), "run %lld (%s), %s to %s, memcal %s",
			 (long long)run->id, run->kind, run->started_at,
			 run->finished_at, run->tool_version);
		row(f, "Calibrated", buf);
	}
	if (r->have_run && r->have_overhead_run &&
	    r->overhead_run.id != r->run.id) {
		snprintf(buf, sizeof(buf), "run %lld (%s), %s",
			 (long long)r->overhead_run.id, r->overhead_run.kind,
			 r->overhead_run.finished_at);
		row(f, "Overhead measured", buf);
	}
}

/* summary_figures - the headline bandwidth, knee, PMU, overhead figures. */
static void summary_figures(FILE *f, const struct report *r)
{
	static const char *const kinds[] = { "read", "write", "ntwrite" };
	static const char *const names[] = {
		"Peak read bandwidth", "Peak write bandwidth",
		"Peak non-temporal write",
	};
	char buf[512], b1[32], b2[32];
	int n;

	for (int k = 0; k < 3 && r->cal.n_bw; k++) {
		double v = fig_bw_peak(&r->cal, kinds[k], &n);

		if (isnan(v))
			continue;
		snprintf(buf, sizeof(buf), "%s with %d core%s (one core: %s)",
			 gbps(v, b1, sizeof(b1)), n, n == 1 ? "" : "s",
			 gbps(fig_bw_at(&r->cal, kinds[k], 1, NULL, NULL), b2,
			      sizeof(b2)));
		row(f, names[k], buf);
	}
	for (size_t i = 0; i < r->cal.n_sus; i++) {
		const struct memcal_sustainable *s = &r->cal.sus[i];
		char key[64];

		snprintf(key, sizeof(key), "Sustainable %s bandwidth",
			 s->traffic);
		snprintf(buf, sizeof(buf), "%s%s (idle latency %.0f ns; %s)%s",
			 s->lower_bound ? ">= " : "",
			 gbps(s->bandwidth_bps, b1, sizeof(b1)),
			 s->idle_latency_ns, s->criterion,
			 s->lower_bound ? " - lower bound only" : "");
		row(f, key, buf);
	}
	if (r->cal.have_pmu) {
		snprintf(buf, sizeof(buf), "%s%s%s", r->cal.pmu.available ?
			 r->cal.pmu.pmu_name : "no usable PMU",
			 r->cal.pmu.message[0] ? ": " : "", r->cal.pmu.message);
		row(f, "PMU", buf);
	}
	if (r->ovh.n_ov) {
		int shortest = 0;

		for (size_t i = 0; i < r->ovh.n_ov; i++)
			if (!shortest || r->ovh.ov[i].period_us < shortest)
				shortest = r->ovh.ov[i].period_us;
		n = snprintf(buf, sizeof(buf), "at %d us:", shortest);
		for (size_t i = 0; i < r->ovh.n_ov && n < (int)sizeof(buf) - 60;
		     i++) {
			const struct memcal_overhead_point *p = &r->ovh.ov[i];

			if (p->period_us == shortest)
				n += snprintf(buf + n, sizeof(buf) - (size_t)n,
					      " CPU %d%s%s %s%.3fx;", p->cpu,
					      p->master_cpu == p->cpu ?
					      " (master on it)" : "",
					      strcmp(p->benchmark, "compute") ?
					      " memory" : "",
					      p->lower_bound ? ">= " : "",
					      p->ratio_median);
		}
		snprintf(buf + n, sizeof(buf) - (size_t)n, " method %s",
			 report_overhead_proxy(r) ? "proxy (upper bound)" :
			 "memreg");
		row(f, "Interrupt overhead C'/C", buf);
	}
}

/* summary_tuning - the tuned configuration and why its choices. */
static void summary_tuning(FILE *f, const struct report *r)
{
	const char *why;
	char buf[640];
	double taps, mu, head;

	snprintf(buf, sizeof(buf), "configuration %lld of mix '%s', %s",
		 (long long)r->config.id, r->config.mix, r->config.created_at);
	row(f, "Tuned", buf);
	why = report_doc_reason(r, "period");
	snprintf(buf, sizeof(buf), "%d us - %s", r->config.period_us,
		 why ? why : "the configuration document gives no reason");
	row(f, "Period", buf);
	why = report_doc_reason(r, "master");
	snprintf(buf, sizeof(buf), "CPU %d - %s", r->config.master_cpu,
		 why ? why : "the configuration document gives no reason");
	row(f, "Master core", buf);
	why = report_doc_reason(r, "mix");
	if (why)
		row(f, "Read/write mix", why);
	taps = report_doc_number(r->doc, (const char *const[]){ "lms.taps",
								 NULL });
	mu = report_doc_number(r->doc, (const char *const[]){ "lms.mu", NULL });
	head = report_doc_number(r->doc, (const char *const[]){
					 "lms.headroom_pct", NULL });
	if (!isnan(taps)) {
		snprintf(buf, sizeof(buf), "%.0f taps, mu %.3f, headroom %.0f %%",
			 taps, mu, head);
		row(f, "LMS", buf);
	}
}

/* list - a warning or missing-data box (nothing if @n is 0). */
static void list(FILE *f, const char *cls, const char *title,
		 const char (*items)[REPORT_NOTE_LEN], size_t n)
{
	if (!n)
		return;
	fprintf(f, "<div class=\"%s\"><h3>%s</h3><ul>\n", cls, title);
	for (size_t i = 0; i < n; i++) {
		fputs("<li>", f);
		report_html_escape(f, items[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul></div>\n", f);
}

/**
 * struct section - one chart of the page.
 * @fn:      draws it.
 * @tuning:  belongs to the memtune report only.
 * @caption: what it shows, under it.
 */
struct section {
	int (*fn)(FILE *, const struct report *);
	bool tuning;
	const char *caption;
};

static const struct section sections[] = {
	{ report_chart_budgets, true, "Guaranteed budget of each regulated core and "
	  "their sum per traffic class, against the board's sustainable "
	  "bandwidth (a log axis when they span more than 1.5 decades)." },
	{ report_chart_validation, true, "Slowdown of each workload against its solo "
	  "run, co-scheduled without the regulator, under static budgets "
	  "(each core held to its guarantee, no LMS, no sharing) and with "
	  "the tuned regulation." },
	{ report_chart_job_latency, true, "Per-job latency of each real-time "
	  "workload alone, co-run without the regulator, under static "
	  "budgets and with the tuned regulation: the 99th percentile and "
	  "the deadline are marked." },
	{ report_chart_lms, true, "Per-period demand and the NLMS prediction made for "
	  "it one period ahead." },
	{ report_chart_bandwidth, false, "Aggregate bandwidth as more cores run the "
	  "same kernel at once." },
	{ report_chart_latency, false, "Latency of a pointer chase as the other cores "
	  "load the memory; past the knee latency grows fast." },
	{ report_chart_family, false, "The same curve for each read/write mix of the "
	  "load, from all reads to all writes: the planner takes the "
	  "sustainable figure at the workloads' own mix from this family." },
	{ report_chart_overhead, false, "Cost of the periodic regulation interrupt: "
	  "each core's slowdown at each period, with the master core on it "
	  "(thick) and elsewhere (dashed); open triangles are lower bounds "
	  "of a livelocked core." },
};

/* report_chart_count() - number of charts a report of @r contains. */
int report_chart_count(const struct report *r)
{
	bool tuning = r->tool && !strcmp(r->tool, "memtune");
	int n = 0;

	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		n += tuning || !sections[i].tuning;
	return n;
}

/* charts - the figures, each with its caption. */
static int charts(FILE *f, const struct report *r)
{
	bool tuning = r->tool && !strcmp(r->tool, "memtune");

	fputs("<h2 id=\"charts\">Charts</h2>\n", f);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		if (sections[i].tuning && !tuning)
			continue;
		fputs("<figure>\n", f);
		if (sections[i].fn(f, r))
			return MEMCAL_ENOMEM;
		fputs("<figcaption>", f);
		report_html_escape(f, sections[i].caption);
		fputs("</figcaption></figure>\n", f);
	}
	return 0;
}

/**
 * report_write_html() - write the whole page for @r to @f.
 * Return: 0, MEMCAL_ENOMEM, or MEMCAL_EIO when writing failed.
 */
int report_write_html(FILE *f, const struct report *r)
{
	bool tuning = r->tool && !strcmp(r->tool, "memtune");
	const char *host = r->have_platform ? r->platform.hostname : "no board";
	int rc;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset="
	      "\"utf-8\">\n<meta name=\"generator\" content=\"memcal "
	      MEMCAL_VERSION "\">\n<title>", f);
	fprintf(f, "%s report: ", tuning ? "memtune" : "memcal");
	report_html_escape(f, host);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
	fprintf(f, "<h1>%s report: ", tuning ? "Tuning" : "Calibration");
	report_html_escape(f, host);
	fputs("</h1>\n<p class=\"meta\">Generated ", f);
	report_html_escape(f, r->generated_at);
	fputs(" by " , f);
	report_html_escape(f, r->tool ? r->tool : "memcal");
	fputs(" " MEMCAL_VERSION " from ", f);
	report_html_escape(f, r->db_path);
	fputs(".</p>\n<h2 id=\"summary\">Summary</h2>\n<table class=\"kv\">\n",
	      f);
	if (tuning && r->have_config)
		summary_tuning(f, r);
	summary_board(f, r);
	summary_figures(f, r);
	fputs("</table>\n", f);
	list(f, "warn", "Warnings", (const char (*)[REPORT_NOTE_LEN])r->warnings,
	     r->n_warnings);
	list(f, "absent", "Missing from the database",
	     (const char (*)[REPORT_NOTE_LEN])r->missing, r->n_missing);
	rc = charts(f, r);
	if (!rc)
		rc = report_write_html_tables(f, r);
	if (!rc && !tuning)
		rc = report_write_fleet_html(f, r);
	fputs("</body>\n</html>\n", f);
	if (rc)
		return rc;
	return ferror(f) ? MEMCAL_EIO : 0;
}
