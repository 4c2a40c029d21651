// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_golden.c - the tuning report's explanations and warnings in the
 * three formats, against golden files (tests/fixtures/report/; rewrite
 * them with MEMCAL_UPDATE_GOLDEN=1).  The configuration is the kind a
 * planner writes: the master core's reason, listed first, speaks of the
 * overhead "per period", the period's reason comes second, and there are
 * three warnings.  Each reason must sit next to the choice it explains,
 * found by its key in "reasons", and every warning must be shown.  The
 * validation parts (tuning-validation.*) come from the full fixture: static
 * budgets against regulation, one workload stored without the static
 * condition.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_report.h"
#include "memcal_db.h"
#include "report.h"
#include "report_run.h"

#define GOLDEN_DIR MEMCAL_SOURCE_DIR "/tests/fixtures/report/"

#define MASTER_WHY "master core 3: not a real-time core; cheapest by " \
	"measured overhead (2.5 us per period, proxy) plus load (1 " \
	"best-effort workload on it)"
#define PERIOD_WHY "period 1000 us: the lowest cost 0.021; overhead per " \
	"period from the proxy measurement"

#define MIX_WHY "read/write mix: the workloads' traces are 80.0 % read; " \
	"the bandwidth-latency family sustains 15600.0 MB/s at that mix"

/* A planner's document: explanations keyed by "reasons", 3 warnings. */
static const char doc[] =
	"{\"format\":\"memcal.tuned-config\",\"version\":1,\"mix\":\"golden\","
	"\"period_us\":1000,\"master_cpu\":3,"
	"\"modes\":{\"lms\":false,\"reclaim\":true,\"share\":false,"
	"\"monitor\":false},"
	"\"lms\":{\"taps\":4,\"mu\":0.5,\"mu_q16\":32768,\"headroom_pct\":20,"
	"\"headroom_q16\":13107},"
	"\"counters\":{\"read\":{\"bytes_per_event\":64},"
	"\"write\":{\"bytes_per_event\":64}},"
	"\"cpus\":[{\"cpu\":1,\"role\":\"rt\",\"regulated\":true,"
	"\"workloads\":[\"radar\"],\"read\":{\"guaranteed_bps\":6e9},"
	"\"write\":{\"guaranteed_bps\":2e9}},"
	"{\"cpu\":3,\"role\":\"be\",\"regulated\":true,\"master\":true,"
	"\"workloads\":[\"video\"],\"read\":{\"guaranteed_bps\":1.26e9},"
	"\"write\":{\"guaranteed_bps\":1e9}}],"
	"\"explain\":[\"workload 'radar' (real-time) placed on cpu 1\","
	"\"" MASTER_WHY "\","
	"\"period candidates, cost = overhead + regulation error: 500 us "
	"0.034, 1000 us 0.021\","
	"\"" PERIOD_WHY "\",\"" MIX_WHY "\"],"
	"\"reasons\":{\"master\":\"" MASTER_WHY "\",\"period\":\"" PERIOD_WHY
	"\",\"mix\":\"" MIX_WHY "\"},"
	"\"warnings\":[\"first: counter events are assumed, not validated\","
	"\"second: the trace of 'video' is shorter than ten periods\","
	"\"third: cpu 3 runs a workload and the master\"]}";

static struct report rep;

/* load - the fixture database with the golden configuration, loaded. */
static void load(void)
{
	const char *dir = fix_tmpdir();
	char path[128];
	struct fix_ids ids;

	cr_assert(dir);
	snprintf(path, sizeof(path), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(path, FIX_BANDWIDTH | FIX_LATENCY | FIX_PMU |
				FIX_OVERHEAD, &ids), 0);
	cr_assert_eq(fix_add_config(path, doc, &ids), 0);
	cr_assert_eq(fix_load_tuning(path, ids.config_id, &rep), 0);
	/* what differs from run to run, fixed */
	snprintf(rep.generated_at, sizeof(rep.generated_at),
		 "2026-01-02T08:00:00Z");
	snprintf(rep.db_path, sizeof(rep.db_path), "fixture.db");
}

/* render - @fn's output for the loaded report, as a string. */
static char *render(int (*fn)(FILE *, const struct report *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f);
	cr_assert_eq(fn(f, &rep), 0);
	fclose(f);
	return buf;
}

/* expect_golden - @got equals tests/fixtures/report/@name. */
static void expect_golden(const char *got, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), GOLDEN_DIR "%s", name);
	golden_check(path, got);
}

Test(report_golden, html_reasons_and_every_warning)
{
	char *s, *from, *to;

	load();
	s = render(report_write_html);
	from = strstr(s, "<h2 id=\"summary\">");
	to = strstr(s, "<h2 id=\"charts\">");
	cr_assert(from && to && from < to);
	*to = '\0';
	expect_golden(from, "tuning-summary.html");
	/* the facts the golden file must hold, said once more */
	cr_expect(strstr(from, "<th>Period</th><td>1000 us - " PERIOD_WHY));
	cr_expect(strstr(from, "<th>Master core</th><td>CPU 3 - " MASTER_WHY));
	cr_expect(strstr(from, "<th>Read/write mix</th><td>read/write mix: the "
			 "workloads&#39; traces are 80.0 % read; the "
			 "bandwidth-latency family sustains 15600.0 MB/s"));
	cr_expect(strstr(from, "Planner: first:"));
	cr_expect(strstr(from, "Planner: second:"));
	cr_expect(strstr(from, "Planner: third:"));
	free(s);
	report_free(&rep);
}

Test(report_golden, csv_reasons_and_every_warning)
{
	char *s, *line, *save = NULL, *kept;
	size_t n = 0, len = 0;
	FILE *f;

	load();
	s = render(report_write_csv);
	f = open_memstream(&kept, &len);
	/*
	 * the header, the summary rows, the self-checks and the notes: no
	 * measurements
	 */
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!n++ || !strncmp(line, "summary,", 8) ||
		    !strncmp(line, "selfcheck,", 10) ||
		    !strncmp(line, "warning,", 8) ||
		    !strncmp(line, "missing,", 8))
			fprintf(f, "%s\n", line);
	fclose(f);
	expect_golden(kept, "tuning-summary.csv");
	cr_expect(strstr(kept, "summary,period,,,,1000,us,,,\"" PERIOD_WHY
			 "\"\n") || strstr(kept, "summary,period,,,,1000,us,,,"
			 PERIOD_WHY "\n"));
	cr_expect(strstr(kept, "summary,read_write_mix,,,,,,,," MIX_WHY "\n"),
		  "the mix reason by its key");
	cr_expect(strstr(kept, "selfcheck,delivery,1,250,overflows,0,overflows"
			 ",,,\"fail, raw:0x17, within 10%: cpu 1: 2500000 "
			 "events (250 overflows of 10000) but no overflow "
			 "interrupt arrived\"\n"), "the delivery check of "
		  "CPU 1 with its event and verdict");
	cr_expect(strstr(kept, "selfcheck,read-count,,,,,,,,skip: no "
			 "hardware PMU: perf_event_open ENOENT\n"),
		  "a skipped check has no figures");
	cr_expect_eq(count_str(kept, "\nwarning,,,,,,,,,Planner: ") +
		     count_str(kept, "\nwarning,,,,,,,,,\"Planner: "), 3);
	free(kept);
	free(s);
	report_free(&rep);
}

Test(report_golden, json_reasons_and_every_warning)
{
	json_t *o, *cfg, *keep;
	char *s;
	size_t n = 0;

	load();
	o = report_to_json(&rep);
	cr_assert(o);
	cfg = json_object_get(o, "config");
	cr_assert(json_is_object(cfg));
	json_object_del(cfg, "document");
	keep = json_pack("{s:O, s:O, s:O}", "config", cfg, "warnings",
			 json_object_get(o, "warnings"), "missing",
			 json_object_get(o, "missing"));
	s = json_dumps(keep, JSON_INDENT(2) | JSON_SORT_KEYS);
	cr_assert(s);
	s = realloc(s, strlen(s) + 2);
	strcat(s, "\n");
	expect_golden(s, "tuning-summary.json");
	cr_expect_str_eq(json_string_value(json_object_get(cfg,
			 "period_reason")), PERIOD_WHY);
	cr_expect_str_eq(json_string_value(json_object_get(cfg,
			 "master_reason")), MASTER_WHY);
	cr_expect_str_eq(json_string_value(json_object_get(cfg,
			 "mix_reason")), MIX_WHY);
	for (size_t i = 0; i < json_array_size(json_object_get(o, "warnings"));
	     i++)
		n += !strncmp(json_string_value(json_array_get(json_object_get(
			o, "warnings"), i)), "Planner: ", 9);
	cr_expect_eq(n, 3);
	free(s);
	json_decref(keep);
	json_decref(o);
	report_free(&rep);
}

Test(report_golden, no_reason_key_means_no_reason_shown)
{
	/* a document without "reasons": no sentence is guessed from words */
	json_t *d = json_loads(doc, 0, NULL);
	const char *dir = fix_tmpdir();
	char path[128], *text;
	struct fix_ids ids;

	cr_assert(d && dir);
	json_object_del(d, "reasons");
	text = json_dumps(d, 0);
	snprintf(path, sizeof(path), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(path, FIX_BANDWIDTH | FIX_OVERHEAD, &ids), 0);
	cr_assert_eq(fix_add_config(path, text, &ids), 0);
	cr_assert_eq(fix_load_tuning(path, ids.config_id, &rep), 0);
	cr_expect_null(report_doc_reason(&rep, "period"));
	cr_expect_null(report_doc_reason(&rep, "master"));
	free(text);
	json_decref(d);
	report_free(&rep);
}

Test(report_golden, a_note_too_long_says_it_was_cut)
{
	char *big = malloc(REPORT_NOTE_LEN * 2);

	cr_assert(big);
	memset(big, 'x', REPORT_NOTE_LEN * 2 - 1);
	big[REPORT_NOTE_LEN * 2 - 1] = '\0';
	memset(&rep, 0, sizeof(rep));
	report_warn(&rep, "Notes of run 1: %s", big);
	cr_assert_eq(rep.n_warnings, 1);
	cr_expect_eq(strlen(rep.warnings[0]), REPORT_NOTE_LEN - 1);
	cr_expect(!strcmp(rep.warnings[0] + REPORT_NOTE_LEN - 7, " [...]"),
		  "ends in \"%s\"", rep.warnings[0] + REPORT_NOTE_LEN - 7);
	free(big);
}

/*
 * load_validated - the full fixture (a validation with the static
 * condition for two workloads, 'compress' without it) loaded as a tuning
 * report, the run-dependent fields fixed.
 */
static void load_validated(void)
{
	const char *dir = fix_tmpdir();
	char path[128];
	struct fix_ids ids;

	cr_assert(dir);
	snprintf(path, sizeof(path), "%s/memcal.db", dir);
	cr_assert_eq(fix_create(path, FIX_ALL, &ids), 0);
	cr_assert_eq(fix_load_tuning(path, ids.config_id, &rep), 0);
	snprintf(rep.generated_at, sizeof(rep.generated_at),
		 "2026-01-02T08:00:00Z");
	snprintf(rep.db_path, sizeof(rep.db_path), "fixture.db");
}

/* cut - a copy of @s from @from up to the end of the next @to. */
static char *cut(const char *s, const char *from, const char *to)
{
	const char *a = strstr(s, from), *b = a ? strstr(a, to) : NULL;

	cr_assert(a && b, "'%s' ... '%s' not found", from, to);
	return strndup(a, (size_t)(b - a) + strlen(to));
}

Test(report_golden, validation_static_against_regulated)
{
	char *s, *svg, *tab, *cmp, *all, *line, *save = NULL, *kept;
	size_t len = 0;
	json_t *o, *keep;
	FILE *f;

	load_validated();
	/* HTML: the slowdown chart and the two validation tables */
	s = render(report_write_html);
	svg = cut(s, "id=\"chart-validation\"", "</svg>");
	tab = cut(s, "<h3>Validation results</h3>", "</table>\n");
	cmp = cut(s, "<h3>Static budgets against regulation</h3>",
		  "</table>\n");
	cr_assert(asprintf(&all, "%s\n%s%s", svg, tab, cmp) > 0);
	expect_golden(all, "tuning-validation.html");
	cr_expect(strstr(svg, "static not measured"), "compress's static slot");
	cr_expect(strstr(tab, "<td>static not measured</td>"));
	free(all);
	free(svg);
	free(tab);
	free(cmp);
	free(s);
	/* CSV: the validation and per-job latency rows */
	s = render(report_write_csv);
	f = open_memstream(&kept, &len);
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "validation_", 11) ||
		    !strncmp(line, "job_", 4))
			fprintf(f, "%s\n", line);
	fclose(f);
	expect_golden(kept, "tuning-validation.csv");
	free(kept);
	free(s);
	/* JSON: the validation object and the latency rows */
	o = report_to_json(&rep);
	cr_assert(o);
	keep = json_pack("{s:O, s:O}", "validation", json_object_get(o,
			 "validation"), "job_latency", json_object_get(o,
			 "job_latency"));
	s = json_dumps(keep, JSON_INDENT(2) | JSON_SORT_KEYS);
	cr_assert(s);
	s = realloc(s, strlen(s) + 2);
	strcat(s, "\n");
	expect_golden(s, "tuning-validation.json");
	free(s);
	json_decref(keep);
	json_decref(o);
	report_free(&rep);
}
