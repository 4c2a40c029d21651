// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.c - a run as a human summary table and as JSON.  `memcal run`
 * prints it at the end; its JSON is the stored run in figures/' form, the
 * one `memcal show` and the reports print.
 *
 * Bandwidths are program-visible bytes per second in GB/s (10^9): a
 * store counts once although ordinary stores cause about twice that DRAM
 * traffic (read for ownership, then write-back); a copy counts the bytes
 * read plus the bytes written.
 */
#include "results.h"

#include <string.h>

#include "memcal_figures.h"

/* print_bw - the bandwidth table. */
static void print_bw(const struct memcal_run_result *r, FILE *out)
{
	fprintf(out, "bandwidth, GB/s of program-visible bytes (stores count "
		"once, copy counts read + write):\n");
	fprintf(out, "  %-9s %-8s %-8s %5s %-7s %8s %8s %8s %4s %7s\n",
		"scope", "cpus", "kind", "read%", "kernel", "median", "min",
		"max", "reps", "+-%");
	for (size_t i = 0; i < r->fig.n_bw; i++) {
		const struct memcal_bw *b = &r->fig.bw[i];
		char share[8] = "-";

		if (!strcmp(b->kind, "mixed"))
			snprintf(share, sizeof(share), "%.0f",
				 b->read_share * 100);
		fprintf(out, "  %-9s %-8s %-8s %5s %-7s %8.2f %8.2f %8.2f %4d "
			"%7.1f%s\n", b->scope, b->cpus, b->kind, share,
			b->variant, b->median_bps / 1e9, b->min_bps / 1e9,
			b->max_bps / 1e9, b->repetitions, b->spread * 100,
			b->spread_wide ? " WIDE" : "");
	}
}

/* print_latency - loaded-latency curves, one line per point. */
static void print_latency(const struct memcal_run_result *r, FILE *out)
{
	if (!r->fig.n_lat)
		return;
	fprintf(out, "loaded latency (pointer chase on CPU %d):\n",
		r->fig.lat[0].chase_cpu);
	fprintf(out, "  %-7s %5s %5s %10s %9s %9s %9s\n", "traffic", "load",
		"pace", "GB/s", "ns", "min", "max");
	for (size_t i = 0; i < r->fig.n_lat; i++) {
		const struct memcal_latency_point *p = &r->fig.lat[i];

		fprintf(out, "  %-7s %5d %5.2f %10.2f %9.1f %9.1f %9.1f\n",
			p->traffic, p->load_cpus, p->pace, p->bandwidth_bps / 1e9,
			p->latency_ns, p->latency_min_ns, p->latency_max_ns);
	}
}

/* print_sustainable - sustainable bandwidth and its criterion. */
static void print_sustainable(const struct memcal_run_result *r, FILE *out)
{
	for (size_t i = 0; i < r->fig.n_sus; i++) {
		const struct memcal_sustainable *s = &r->fig.sus[i];

		fprintf(out, "sustainable %-5s %s %.2f GB/s (idle latency %.1f ns,"
			" bound %.2f x idle)%s\n", s->traffic,
			s->lower_bound ? ">=" : "= ", s->bandwidth_bps / 1e9,
			s->idle_latency_ns, s->bound_ratio,
			s->lower_bound ? " [lower bound]" : "");
		fprintf(out, "  criterion: %s\n", s->criterion);
	}
}

/**
 * cal_mix_print() - the family from its JSON (fig_mix_curve_json()
 * elements of @arr): per read share the unpaced peak, the knee, the
 * sustainable figure and the curve as bandwidth/latency pairs.
 */
void cal_mix_print(FILE *out, json_t *arr)
{
	size_t i, j;
	json_t *c, *p;
	char head[256];

	if (!json_array_size(arr))
		return;
	c = json_array_get(arr, 0);
	snprintf(head, sizeof(head), "bandwidth-latency family, by the share "
		 "of the lines the load cores read (the rest written; pointer "
		 "chase on CPU %lld, %lld load core(s)):",
		 json_integer_value(json_object_get(c, "chase_cpu")),
		 json_integer_value(json_object_get(c, "load_cpus")));
	cal_print_wrapped(out, "", head, 78);
	fprintf(out, "  %-5s %-7s %9s %9s %16s %9s\n", "read", "variant",
		"peak GB/s", "knee GB/s", "sustainable GB/s", "idle ns");
	json_array_foreach(arr, i, c) {
		bool lb = json_is_true(json_object_get(c, "lower_bound"));
		char curve[1024];
		size_t len = 0;

		fprintf(out, "  %3lld%%  %-7s %9.2f %9.2f %s%13.2f %9.1f%s\n",
			json_integer_value(json_object_get(c, "read_pct")),
			json_string_value(json_object_get(c, "variant")),
			json_real_value(json_object_get(c, "peak_bps")) / 1e9,
			json_real_value(json_object_get(c, "knee_bps")) / 1e9,
			lb ? ">= " : "   ",
			json_real_value(json_object_get(c, "sustainable_bps")) /
			1e9, json_real_value(json_object_get(c,
			"idle_latency_ns")), lb ? "  [lower bound]" : "");
		curve[0] = '\0';
		json_array_foreach(json_object_get(c, "points"), j, p)
			if (len < sizeof(curve))
				len += (size_t)snprintf(curve + len,
					sizeof(curve) - len, "%s%.2f@%.1f",
					j ? ", " : "", json_real_value(
					json_object_get(p, "bandwidth_bps")) / 1e9,
					json_real_value(json_object_get(p,
					"latency_ns")));
		cal_print_wrapped(out, "    GB/s@ns ", curve, 78);
	}
}

/**
 * cal_guaranteed_print() - the guaranteed-bandwidth figures of @arr (the
 * JSON above), one line each with its method, status and spread, then
 * its criterion and its source or the reason it was skipped; "[stands]"
 * marks the one each class is planned with.  Nothing for a run without.
 */
void cal_guaranteed_print(FILE *out, json_t *arr)
{
	size_t i;
	json_t *g;

	if (!json_array_size(arr))
		return;
	cal_print_wrapped(out, "", "Guaranteed bandwidth (every access a row "
			  "miss: the pool real-time guarantees are drawn "
			  "from), GB/s median [min..max]:", 78);
	json_array_foreach(arr, i, g) {
		const char *st = json_string_value(json_object_get(g, "status"));
		const char *src = json_string_value(json_object_get(g, "source"));
		bool skipped = !strcmp(st, "skipped");
		char lead[128];

		if (skipped)
			fprintf(out, "  %-5s %-11s %-8s %7s\n",
				json_string_value(json_object_get(g, "traffic")),
				json_string_value(json_object_get(g, "method")),
				st, "-");
		else
			fprintf(out, "  %-5s %-11s %-8s %7.2f [%.2f..%.2f]%s\n",
				json_string_value(json_object_get(g, "traffic")),
				json_string_value(json_object_get(g, "method")),
				st, json_real_value(json_object_get(g,
				"bandwidth_bps")) / 1e9,
				json_real_value(json_object_get(g, "min_bps")) / 1e9,
				json_real_value(json_object_get(g, "max_bps")) / 1e9,
				json_is_true(json_object_get(g, "stands")) ?
				"  [stands]" : "");
		if (!skipped)
			cal_print_wrapped(out, "    criterion: ", json_string_value(
					  json_object_get(g, "criterion")), 78);
		snprintf(lead, sizeof(lead), "    %s: ", skipped ? "reason" :
			 "source");
		if (src && *src)
			cal_print_wrapped(out, lead, src, 78);
	}
}

/**
 * cal_cpu_kinds_print() - the kinds of CPU of @arr (the JSON above)
 * and the event each counts with, the one memtune gives its CPUs, or why
 * it has none.  Nothing for a run that stored no kind.
 */
void cal_cpu_kinds_print(FILE *out, json_t *arr)
{
	static const char *const cls[2] = { "read", "write" };
	size_t i;
	json_t *k;

	if (json_array_size(arr))
		fprintf(out, "CPU kinds:\n");
	json_array_foreach(arr, i, k) {
		const char *pmu = json_string_value(json_object_get(k, "perf_pmu"));

		fprintf(out, "  cpus %s: %s (PMU %s)\n",
			json_string_value(json_object_get(k, "cpus")),
			json_string_value(json_object_get(k, "label")),
			pmu && *pmu ? pmu : "none");
		for (int c = 0; c < 2; c++) {
			json_t *o = json_object_get(k, cls[c]);
			const char *ev = json_string_value(json_object_get(o, "event"));
			char text[400];

			if (ev && *ev)
				snprintf(text, sizeof(text), "%s (%s)", ev,
					 json_string_value(json_object_get(o, "name")));
			else
				snprintf(text, sizeof(text), "none: %s",
					 json_string_value(json_object_get(o, "why")));
			cal_print_wrapped(out, c ? "    write " : "    read  ", text, 78);
		}
	}
}

/* print_pmu - PMU status and the candidates. */
static void print_pmu(const struct memcal_run_result *r, FILE *out)
{
	json_t *kinds;

	fprintf(out, "PMU: %s\n", r->fig.pmu.message[0] ? r->fig.pmu.message
		: "not examined");
	for (size_t i = 0; i < r->fig.n_ev; i++) {
		const struct memcal_pmu_event *e = &r->fig.ev[i];

		if (e->opened && e->bytes_per_event > 0)
			fprintf(out, "  %-5s %-50s %7.1f B/event (error %.1f%%)%s\n",
				e->traffic, e->name, e->bytes_per_event,
				e->error_pct, e->chosen ? " [chosen]" : "");
		else
			fprintf(out, "  %-5s %-50s %s\n", e->traffic, e->name,
				e->message[0] ? e->message : "not validated");
	}
	cal_selfchecks_print(out, r->fig.sc, r->fig.n_sc);
	kinds = fig_cpu_kinds_json(r->fig.kinds, r->fig.n_kinds);
	cal_cpu_kinds_print(out, kinds);
	json_decref(kinds);
}

/**
 * cal_selfchecks_print() - the PMU self-checks, one per line: check,
 * CPU, verdict, message (wrapped).  Nothing when there are none.
 */
void cal_selfchecks_print(FILE *out, const struct memcal_selfcheck *c,
			     size_t n)
{
	if (n)
		fprintf(out, "PMU self-checks:\n");
	for (size_t i = 0; i < n; i++) {
		char lead[64];

		if (c[i].cpu >= 0)
			snprintf(lead, sizeof(lead), "  %-11s cpu %-3d %-4s  ",
				 c[i].check, c[i].cpu, c[i].verdict);
		else
			snprintf(lead, sizeof(lead), "  %-11s %-7s %-4s  ",
				 c[i].check, "", c[i].verdict);
		cal_print_wrapped(out, lead, c[i].message, 78);
	}
}

/**
 * cal_print_wrapped() - print @text after @lead, wrapped at word
 * boundaries so that no line is longer than @width columns, continuation
 * lines indented by the width of @lead.  A word longer than a line is
 * printed whole on its own line, never cut; each line break of @text
 * starts a new line.
 */
void cal_print_wrapped(FILE *out, const char *lead, const char *text,
			 int width)
{
	int indent = (int)strlen(lead), col = indent;
	const char *p = text;

	fputs(lead, out);
	while (*p) {
		size_t word = strcspn(p, " \n");

		if (word) {
			if (col > indent && col + 1 + (int)word > width) {
				fprintf(out, "\n%*s", indent, "");
				col = indent;
			} else if (col > indent) {
				fputc(' ', out);
				col++;
			}
			fwrite(p, 1, word, out);
			col += (int)word;
			p += word;
		}
		if (*p == '\n' && p[1]) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		}
		if (*p)
			p++;
	}
	fputc('\n', out);
}

/*
 * cal_result_print - the summary: board, bandwidth table, latency
 * curves, sustainable bandwidth, PMU, notes.
 */
void cal_result_print(const struct memcal_run_result *r, FILE *out)
{
	const struct memcal_platform *p = &r->platform;

	fprintf(out, "memcal run %lld (%s) on %s: %s, %s, %d package(s), "
		"%d NUMA node(s), %d core(s), %d PU(s)\n",
		(long long)r->run.id, r->run.kind, p->hostname, p->cpu_model,
		p->arch, p->packages, p->numa_nodes, p->cores, p->pus);
	fprintf(out, "started %s, finished %s\n", r->run.started_at,
		r->run.finished_at);
	print_bw(r, out);
	print_latency(r, out);
	print_sustainable(r, out);
	if (r->fig.n_guar) {
		json_t *g = fig_guaranteed_json(r->fig.guar, r->fig.n_guar);

		cal_guaranteed_print(out, g);
		json_decref(g);
	}
	if (r->fig.n_mix) {
		json_t *mix = json_array();

		for (size_t i = 0; i < r->fig.n_mix; i++)
			json_array_append_new(mix,
					      fig_mix_curve_json(&r->fig.mix[i]));
		cal_mix_print(out, mix);
		json_decref(mix);
	}
	print_pmu(r, out);
	if (r->run.notes && r->run.notes[0])
		cal_print_wrapped(out, "notes: ", r->run.notes, 78);
}

/**
 * cal_result_to_json() - stored run @r as one JSON document: its own row,
 * its board, and its figures as the database holds them now
 * (fig_run_load(), fig_run_json(): what `memcal show --run ID --json`
 * prints for the run).
 * Return: a new object, or NULL on a database failure (message on @db)
 * or when memory ran out.
 */
json_t *cal_result_to_json(memcal_db *db, const struct memcal_run_result *r)
{
	const struct memcal_platform *p = &r->platform;
	json_t *topo = NULL, *params = NULL, *doc, *figs;
	struct fig_run f;

	if (fig_run_load(db, r->run.id, &f))
		return NULL;
	figs = fig_run_json(&f);
	fig_run_free(&f);
	if (p->topology_json)
		topo = json_loads(p->topology_json, 0, NULL);
	if (r->run.params_json)
		params = json_loads(r->run.params_json, 0, NULL);
	doc = json_pack("{s:I, s:s, s:s, s:s, s:s, s:o?, s:s?, "
			"s:{s:s, s:s, s:s, s:s, s:s, s:o?}}",
			"run_id", (json_int_t)r->run.id, "kind", r->run.kind,
			"tool_version", r->run.tool_version,
			"started_at", r->run.started_at,
			"finished_at", r->run.finished_at, "params", params,
			"notes", r->run.notes,
			"platform", "fingerprint", p->fingerprint,
			"hostname", p->hostname, "arch", p->arch,
			"cpu_model", p->cpu_model, "kernel", p->kernel,
			"topology", topo);
	if (doc && figs && !json_object_update(doc, figs)) {
		json_decref(figs);
		return doc;
	}
	json_decref(figs);
	json_decref(doc);
	return NULL;
}
