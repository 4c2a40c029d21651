// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_show.c - `memcal show`: what the database holds.  Without --run it
 * lists the boards and the calibration runs with their headline figures;
 * with --run ID it prints every figure of that run.  The same data is built
 * once as JSON and printed either as JSON or as text, so the two outputs
 * cannot disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_cmds.h"
#include "memcal_db.h"
#include "memcal_figures.h"
#include "results.h"

/**
 * struct show_args - parsed options of `memcal show`.
 * @run_id: --run value, 0 when not given.
 */
struct show_args {
	int64_t run_id;
};

static const struct cli_option show_options[] = {
	CLI_OPT_ID("run", 0, struct show_args, run_id,
		   "show every figure of run ID"),
	CLI_OPT_END,
};

/* add_platform - one board as a JSON object appended to the array. */
static int add_platform(const struct memcal_platform *p, void *user)
{
	json_t *topo = json_loads(p->topology_json, 0, NULL);

	json_array_append_new(user, json_pack(
		"{s:I, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:o}",
		"id", (json_int_t)p->id, "fingerprint", p->fingerprint,
		"hostname", p->hostname, "arch", p->arch,
		"cpu_model", p->cpu_model, "kernel", p->kernel,
		"packages", p->packages, "numa_nodes", p->numa_nodes,
		"cores", p->cores, "pus", p->pus,
		"topology", topo ? topo : json_null()));
	return 0;
}

/* run_json - the run's own row as a JSON object (without figures). */
static json_t *run_json(const struct memcal_run *r)
{
	json_t *params = json_loads(r->params_json, 0, NULL);

	return json_pack("{s:I, s:I, s:s, s:s, s:s, s:s, s:o, s:s}",
			 "id", (json_int_t)r->id,
			 "platform_id", (json_int_t)r->platform_id,
			 "kind", r->kind, "tool_version", r->tool_version,
			 "started_at", r->started_at,
			 "finished_at", r->finished_at,
			 "params", params ? params : json_object(),
			 "notes", r->notes);
}

/**
 * run_figures() - every figure stored for @run_id, as fig_run_json()'s
 * keys in @o (the form the reports write too).
 * Return: MEMCAL_OK or the database's code (message on @db).
 */
static int run_figures(memcal_db *db, int64_t run_id, json_t *o)
{
	struct fig_run f;
	json_t *j;
	int rc = fig_run_load(db, run_id, &f);

	if (rc)
		return rc;
	j = fig_run_json(&f);
	fig_run_free(&f);
	if (!j)
		return MEMCAL_ENOMEM;
	json_object_update(o, j);
	json_decref(j);
	return MEMCAL_OK;
}

/* str_of - the string member @key of @o, NULL when there is none. */
static const char *str_of(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* int_of - the integer member @key of @o, 0 when there is none. */
static long long int_of(json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

/* real_of - the real member @key of @o, 0 when there is none. */
static double real_of(json_t *o, const char *key)
{
	return json_real_value(json_object_get(o, key));
}

/* flag_of - whether the member @key of @o is true. */
static bool flag_of(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* worst_overhead - the largest median C'/C of @arr and its method. */
static double worst_overhead(json_t *arr, const char **method)
{
	double worst = 0;
	size_t i;
	json_t *e;

	*method = NULL;
	json_array_foreach(arr, i, e) {
		double v = real_of(e, "ratio_median");

		if (v > worst) {
			worst = v;
			*method = str_of(e, "method");
		}
	}
	return worst;
}

/* bw_or_zero - a figure for JSON: 0 when it was not measured. */
static double bw_or_zero(double v)
{
	return isnan(v) ? 0 : v;
}

/*
 * guar_headline - the guaranteed figure that stands for each class and
 * its method into @h ("guaranteed_read_bps", "guaranteed_read_method",
 * the same for write; 0 and null when the run has none).
 */
static void guar_headline(json_t *h, json_t *arr)
{
	static const char *const cls[2] = { "read", "write" };

	for (int c = 0; c < 2; c++) {
		json_t *e, *pick = NULL;
		char key[64];
		size_t i;

		json_array_foreach(arr, i, e)
			if (flag_of(e, "stands") &&
			    !strcmp(str_of(e, "traffic"), cls[c]))
				pick = e;
		snprintf(key, sizeof(key), "guaranteed_%s_bps", cls[c]);
		json_object_set_new(h, key, json_real(pick ?
				    real_of(pick, "bandwidth_bps") : 0));
		snprintf(key, sizeof(key), "guaranteed_%s_method", cls[c]);
		json_object_set(h, key, pick ? json_object_get(pick, "method")
					     : json_null());
	}
}

/* family - each curve's sustainable figure, for the headline. */
static json_t *family(const struct fig_run *f)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < f->n_mix; i++)
		json_array_append_new(a, json_pack("{s:i, s:o, s:b}",
			"read_pct", f->mix[i].read_pct, "sustainable_bps",
			fig_num(f->mix[i].sustainable_bps), "lower_bound",
			f->mix[i].lower_bound));
	return a;
}

/**
 * headline() - the few figures a run is known by: one core and peak
 * bandwidth and the sustainable bandwidth, computed from the run's rows
 * by figures/' own functions so that `memcal show` and `memcal report`
 * print the same numbers; PMU and overhead from @fig (run_figures()'s).
 * Return: a new JSON object, or NULL on a database or memory failure.
 */
static json_t *headline(memcal_db *db, int64_t run_id, json_t *fig)
{
	json_t *pmu = json_object_get(fig, "pmu");
	json_t *ovh = json_object_get(fig, "overhead");
	const struct memcal_sustainable *sr, *sw;
	const char *method;
	double worst = worst_overhead(ovh, &method), pr, pw;
	struct fig_run f;
	int nr = 0, nw = 0;
	json_t *h;

	if (fig_run_load(db, run_id, &f))
		return NULL;
	pr = fig_bw_peak(&f, "read", &nr);
	pw = fig_bw_peak(&f, "write", &nw);
	sr = fig_sustainable(&f, "read");
	sw = fig_sustainable(&f, "write");
	h = json_pack("{s:f, s:f, s:f, s:i, s:f, s:i, s:f, s:f, s:b, s:b, s:o,"
		      " s:I, s:f, s:s?, s:o}",
		"core_read_bps", bw_or_zero(fig_bw_at(&f, "read", 1, NULL,
						      NULL)),
		"core_write_bps", bw_or_zero(fig_bw_at(&f, "write", 1, NULL,
						       NULL)),
		"aggregate_read_bps", bw_or_zero(pr), "aggregate_read_cores",
		nr, "aggregate_write_bps", bw_or_zero(pw),
		"aggregate_write_cores", nw,
		"sustainable_read_bps", sr ? sr->bandwidth_bps : 0,
		"sustainable_write_bps", sw ? sw->bandwidth_bps : 0,
		"sustainable_read_lower_bound", sr && sr->lower_bound,
		"sustainable_write_lower_bound", sw && sw->lower_bound,
		"pmu_available", pmu && json_is_object(pmu) ?
			json_incref(json_object_get(pmu, "available")) :
			json_null(),
		"overhead_points", (json_int_t)json_array_size(ovh),
		"overhead_worst_ratio", worst, "overhead_method", method,
		"family", family(&f));
	if (h)
		guar_headline(h, json_object_get(fig, "guaranteed"));
	fig_run_free(&f);
	return h;
}

/**
 * struct list_state - accumulates the run listing.
 * @db:   database (to read each run's figures).
 * @runs: JSON array being filled.
 * @rc:   first database error.
 */
struct list_state {
	memcal_db *db;
	json_t *runs;
	int rc;
};

/* add_run - one run of the listing with its headline figures. */
static int add_run(const struct memcal_run *r, void *user)
{
	struct list_state *ls = user;
	json_t *o = run_json(r), *fig = json_object();

	json_t *h;

	ls->rc = run_figures(ls->db, r->id, fig);
	h = ls->rc ? NULL : headline(ls->db, r->id, fig);
	if (!ls->rc && !h)
		ls->rc = MEMCAL_ERROR;
	json_object_set_new(o, "headline", h ? h : json_null());
	json_decref(fig);
	json_array_append_new(ls->runs, o);
	return ls->rc;
}

/* print_gbs - a bandwidth in GB/s, "-" when not measured. */
static void print_gbs(FILE *f, const char *label, json_t *o, const char *key,
		      const char *flag_key)
{
	double v = real_of(o, key);

	if (v > 0)
		fprintf(f, "  %-28s %8.2f GB/s%s\n", label, v / 1e9,
			flag_key && flag_of(o, flag_key) ?
			"  (lower bound: too few cores to load memory)" : "");
	else
		fprintf(f, "  %-28s %8s\n", label, "-");
}

/* print_peak - the peak bandwidth of @kind and the core count it took. */
static void print_peak(FILE *f, const char *kind, json_t *h)
{
	char label[64], key[64];
	long long n;

	snprintf(key, sizeof(key), "aggregate_%s_cores", kind);
	n = int_of(h, key);
	snprintf(label, sizeof(label), "%s, peak (%lld core%s)", kind, n,
		 n == 1 ? "" : "s");
	snprintf(key, sizeof(key), "aggregate_%s_bps", kind);
	print_gbs(f, label, h, key, NULL);
}

/*
 * print_family - the sustainable figure at each read share, one line
 * ("100% 18.00, ..., 0% >=9.00 GB/s"); nothing for a run without one.
 */
static void print_family(FILE *f, json_t *arr)
{
	char line[256];
	size_t i, len = 0;
	json_t *e;

	if (!json_array_size(arr))
		return;
	line[0] = '\0';
	json_array_foreach(arr, i, e)
		if (len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
				"%s%lld%% %s%.2f", i ? ", " : "",
				int_of(e, "read_pct"),
				flag_of(e, "lower_bound") ? ">=" : "",
				real_of(e, "sustainable_bps") / 1e9);
	fprintf(f, "  %-28s %s GB/s\n", "sustainable by read share", line);
}

/* print_guar_headline - the guaranteed figure of each class and its method. */
static void print_guar_headline(FILE *f, json_t *h)
{
	static const char *const cls[2] = { "read", "write" };

	for (int c = 0; c < 2; c++) {
		char key[64], label[64];
		const char *m;
		double v;

		snprintf(key, sizeof(key), "guaranteed_%s_method", cls[c]);
		m = str_of(h, key);
		snprintf(key, sizeof(key), "guaranteed_%s_bps", cls[c]);
		v = real_of(h, key);
		snprintf(label, sizeof(label), "guaranteed %s", cls[c]);
		if (m && v > 0)
			fprintf(f, "  %-28s %8.2f GB/s  (%s)\n", label, v / 1e9,
				m);
		else
			fprintf(f, "  %-28s %8s\n", label, "-");
	}
}

/* print_listing - text form of the listing built by show_listing(). */
static void print_listing(FILE *f, json_t *doc)
{
	json_t *plats = json_object_get(doc, "platforms");
	json_t *runs = json_object_get(doc, "runs");
	size_t i;
	json_t *e;

	fprintf(f, "Database: %s\n", str_of(doc, "db"));
	if (!json_array_size(plats)) {
		fprintf(f, "No board calibrated yet: run 'memcal run'.\n");
		return;
	}
	fprintf(f, "\nPlatforms:\n");
	json_array_foreach(plats, i, e)
		fprintf(f, "  #%lld %s  %s, %s, %lld cores / %lld threads, "
			"%lld NUMA node(s), kernel %s\n", int_of(e, "id"),
			str_of(e, "hostname"), str_of(e, "cpu_model"),
			str_of(e, "arch"), int_of(e, "cores"), int_of(e, "pus"),
			int_of(e, "numa_nodes"), str_of(e, "kernel"));
	fprintf(f, "\nRuns (newest first):\n");
	json_array_foreach(runs, i, e) {
		json_t *h = json_object_get(e, "headline");
		json_t *pmu = json_object_get(h, "pmu_available");
		bool overhead_run = !strcmp(str_of(e, "kind"), "overhead");

		fprintf(f, "run %lld  %s  platform #%lld  %s .. %s\n",
			int_of(e, "id"), str_of(e, "kind"),
			int_of(e, "platform_id"), str_of(e, "started_at"),
			str_of(e, "finished_at"));
		if (overhead_run || int_of(h, "overhead_points")) {
			const char *m = str_of(h, "overhead_method");

			fprintf(f, "  %-28s %lld, worst C'/C %.3f%s\n",
				"overhead points", int_of(h, "overhead_points"),
				real_of(h, "overhead_worst_ratio"),
				m && !strcmp(m, "proxy") ?
				" (user-space proxy: an upper bound)" : "");
			if (overhead_run)
				continue;
		}
		print_gbs(f, "read, one core", h, "core_read_bps", NULL);
		print_gbs(f, "write, one core", h, "core_write_bps", NULL);
		print_peak(f, "read", h);
		print_peak(f, "write", h);
		print_gbs(f, "sustainable read", h, "sustainable_read_bps",
			  "sustainable_read_lower_bound");
		print_gbs(f, "sustainable write", h, "sustainable_write_bps",
			  "sustainable_write_lower_bound");
		print_family(f, json_object_get(h, "family"));
		print_guar_headline(f, h);
		fprintf(f, "  %-28s %s\n", "PMU", json_is_null(pmu) ? "-" :
			json_is_true(pmu) ? "available" : "none (no hardware PMU)");
	}
}

/* bw_row - one bandwidth measurement with its spread. */
static void bw_row(FILE *f, json_t *e)
{
	json_t *sp = json_object_get(e, "spread");
	char spread[40] = "";

	if (json_is_number(sp))
		snprintf(spread, sizeof(spread), " +-%.1f%%%s",
			 json_number_value(sp) * 100,
			 flag_of(e, "spread_wide") ? " WIDE" : "");
	fprintf(f, "  %-8s %-9s cpus %-8s %-7s %7.2f [%.2f..%.2f]%s\n",
		str_of(e, "kind"), str_of(e, "scope"), str_of(e, "cpus"),
		str_of(e, "variant"), real_of(e, "median_bps") / 1e9,
		real_of(e, "min_bps") / 1e9, real_of(e, "max_bps") / 1e9,
		spread);
}

/* latency_row - one loaded-latency point. */
static void latency_row(FILE *f, json_t *e)
{
	fprintf(f, "  %-6s cpu %-3lld load %-3lld pace %4.2f %7.2f GB/s %7.1f "
		"[%.1f..%.1f]\n", str_of(e, "traffic"), int_of(e, "chase_cpu"),
		int_of(e, "load_cpus"), real_of(e, "pace"),
		real_of(e, "bandwidth_bps") / 1e9, real_of(e, "latency_ns"),
		real_of(e, "latency_min_ns"), real_of(e, "latency_max_ns"));
}

/* sustainable_row - the sustainable bandwidth of a class and why. */
static void sustainable_row(FILE *f, json_t *e)
{
	char lead[96];

	snprintf(lead, sizeof(lead), "  %-6s %7.2f GB/s%s  ",
		 str_of(e, "traffic"), real_of(e, "bandwidth_bps") / 1e9,
		 flag_of(e, "lower_bound") ? " lower bound" : "");
	cal_print_wrapped(f, lead, str_of(e, "criterion"), 78);
}

/* overhead_row - one C'/C point. */
static void overhead_row(FILE *f, json_t *e)
{
	bool lower = flag_of(e, "lower_bound");

	fprintf(f, "  cpu %-3lld %6lld us  %-7s %-6s%s %s%.3f [%.3f..%.3f]%s\n",
		int_of(e, "cpu"), int_of(e, "period_us"),
		str_of(e, "benchmark"), str_of(e, "method"),
		int_of(e, "cpu") == int_of(e, "master_cpu") ? " master" : "",
		lower ? ">= " : "", real_of(e, "ratio_median"),
		real_of(e, "ratio_min"), real_of(e, "ratio_max"),
		lower ? " livelocked: lower bound" : "");
}

/* model_row - the fitted overhead model of one core. */
static void model_row(FILE *f, json_t *e)
{
	fprintf(f, "  cpu %-3lld %-7s %-6s cost %8.3f us  base %.3f  r2 %.3f\n",
		int_of(e, "cpu"), str_of(e, "benchmark"), str_of(e, "method"),
		real_of(e, "cost_per_irq_ns") / 1e3, real_of(e, "base_ratio"),
		real_of(e, "r2"));
}

/**
 * struct row_section - a section of `memcal show --run` that lists an
 * array of show's JSON form, one line an element.
 * @title: its heading.
 * @key:   the array.
 * @row:   prints one element.
 */
struct row_section {
	const char *title;
	const char *key;
	void (*row)(FILE *f, json_t *e);
};

/* The measured figures and the interrupt overhead, each ended by NULLs. */
static const struct row_section measured_sections[] = {
	{ "\nBandwidth (program-visible bytes; median [min..max] GB/s "
	  "+-spread):\n", "bandwidth", bw_row },
	{ "\nLoaded latency (pointer chase under load; median [min..max] "
	  "ns):\n", "latency", latency_row },
	{ "\nSustainable bandwidth:\n", "sustainable", sustainable_row },
	{ NULL, NULL, NULL },
};
static const struct row_section overhead_sections[] = {
	{ "\nInterrupt overhead C'/C (median [min..max]; proxy: an upper "
	  "bound):\n", "overhead", overhead_row },
	{ "\nOverhead models (C'/C = base + cost per interrupt / period):\n",
	  "overhead_models", model_row },
	{ NULL, NULL, NULL },
};

/*
 * print_sections - the sections @s of @doc up to the one without a
 * title: each its title, its rows, "(none)" when it has none.
 */
static void print_sections(FILE *f, json_t *doc, const struct row_section *s)
{
	for (; s->title; s++) {
		json_t *arr = json_object_get(doc, s->key), *e;
		size_t i;

		fputs(s->title, f);
		json_array_foreach(arr, i, e)
			s->row(f, e);
		if (!json_array_size(arr))
			fprintf(f, "  (none)\n");
	}
}

/*
 * print_selfchecks - the self-checks of @arr (show's JSON form) in the
 * layout `memcal run` prints them.
 */
static void print_selfchecks(FILE *f, json_t *arr)
{
	size_t n = json_array_size(arr), i;
	struct memcal_selfcheck *c = calloc(n ? n : 1, sizeof(*c));
	json_t *e;

	if (!c)
		return;
	json_array_foreach(arr, i, e) {
		json_t *cpu = json_object_get(e, "cpu");

		snprintf(c[i].check, sizeof(c[i].check), "%s",
			 str_of(e, "check"));
		c[i].cpu = json_is_integer(cpu) ?
			   (int)json_integer_value(cpu) : -1;
		snprintf(c[i].verdict, sizeof(c[i].verdict), "%s",
			 str_of(e, "verdict"));
		snprintf(c[i].message, sizeof(c[i].message), "%s",
			 str_of(e, "message"));
	}
	cal_selfchecks_print(f, c, n);
	free(c);
}

/* print_run - text form of one run's figures. */
static void print_run(FILE *f, json_t *doc)
{
	json_t *run = json_object_get(doc, "run");
	json_t *pmu = json_object_get(doc, "pmu");
	size_t i;
	json_t *e;

	fprintf(f, "Run %lld (%s) on platform #%lld, memcal %s\n"
		"Ran %s .. %s\n", int_of(run, "id"), str_of(run, "kind"),
		int_of(run, "platform_id"), str_of(run, "tool_version"),
		str_of(run, "started_at"), str_of(run, "finished_at"));
	if (*str_of(run, "notes"))
		cal_print_wrapped(f, "Notes: ", str_of(run, "notes"), 78);
	print_sections(f, doc, measured_sections);
	fputc('\n', f);
	if (json_array_size(json_object_get(doc, "guaranteed")))
		cal_guaranteed_print(f, json_object_get(doc, "guaranteed"));
	else
		fprintf(f, "Guaranteed bandwidth:\n  (none)\n");
	if (json_array_size(json_object_get(doc, "mix_curves"))) {
		fputc('\n', f);
		cal_mix_print(f, json_object_get(doc, "mix_curves"));
	}
	fputc('\n', f);
	cal_print_wrapped(f, "PMU: ", json_is_object(pmu) ?
			  str_of(pmu, "message") : "not examined in this run",
			  78);
	json_array_foreach(json_object_get(doc, "pmu_events"), i, e)
		fprintf(f, "  %-40s %-5s %s%s\n", str_of(e, "name"),
			str_of(e, "traffic"),
			flag_of(e, "chosen") ? "chosen " : "",
			str_of(e, "message"));
	print_selfchecks(f, json_object_get(doc, "pmu_selfchecks"));
	cal_cpu_kinds_print(f, json_object_get(doc, "cpu_kinds"));
	print_sections(f, doc, overhead_sections);
}

/**
 * cal_cmd_show() - `memcal show [--run ID]`.
 *
 * The database is opened read-only; one that does not exist is an error
 * naming the path and 'memcal run', which creates it.
 */
int cal_cmd_show(struct cli_ctx *ctx, int argc, char **argv)
{
	struct show_args args = { 0 };
	memcal_db *db = NULL;
	json_t *doc;
	int rc;

	rc = cli_parse_options(ctx, argc, argv, "[--run ID]", show_options,
			       NULL, &args, NULL);
	if (rc)
		return rc;
	rc = cal_open_db(ctx, MEMCAL_DB_OPEN_READONLY, &db);
	if (rc)
		return rc;

	if (args.run_id) {
		struct memcal_run r;

		rc = memcal_db_run_get(db, args.run_id, &r);
		if (rc)
			goto db_failed;
		doc = json_pack("{s:s, s:I, s:o}", "db", memcal_db_path(db),
				"run_id", (json_int_t)args.run_id,
				"run", run_json(&r));
		memcal_db_run_free(&r);
		rc = run_figures(db, args.run_id, doc);
	} else {
		struct list_state ls = { .db = db, .runs = json_array() };
		json_t *plats = json_array();

		doc = json_pack("{s:s, s:o, s:o}", "db",
				memcal_db_path(db), "platforms", plats,
				"runs", ls.runs);
		rc = memcal_db_platform_list(db, add_platform, plats);
		if (!rc)
			rc = memcal_db_run_list(db, add_run, &ls);
	}
	if (rc) {
		json_decref(doc);
		goto db_failed;
	}
	memcal_db_close(db);
	if (ctx->json)
		return cli_emit_json(ctx, doc);
	if (json_object_get(doc, "run"))
		print_run(ctx->out, doc);
	else
		print_listing(ctx->out, doc);
	json_decref(doc);
	return CLI_EXIT_OK;

db_failed:
	rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", memcal_db_errmsg(db));
	memcal_db_close(db);
	return rc;
}
