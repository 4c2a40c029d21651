// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_report.c - `memcal report` and `memtune report`.
 *
 *   memcal report  [--run ID]    [--out FILE] [--format html|csv|json]
 *   memtune report [--config ID] [--out FILE] [--format html|csv|json]
 *
 * Without --run/--config the newest one is reported.  The report goes to
 * --out FILE (cli_output_open(): a regular file is replaced atomically, so
 * a failed write leaves the old file; a device or FIFO is written
 * through), or to stdout when --out is absent or "-".  With --json, stdout
 * carries the JSON envelope instead: "--out -" (or no --out with --format
 * json) puts the report into it ("document" for json, "files" otherwise);
 * without --out, html and csv are written to "memcal-report-run<ID>.<ext>"
 * (or "memtune-report-config<ID>.<ext>") in the current directory; the
 * result names "db", "out", "format", "run_id", "config_id", "charts",
 * "report_warnings" and "missing".
 *
 * Missing data never fails the command: the report says what is missing.
 * A database that does not exist is an error (a mistyped --db must not
 * pass as an empty report).  The database is opened read-only and never
 * modified.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "memcal_report.h"
#include "report.h"

enum { OPT_FORMAT = 256 };

/**
 * struct report_opts - the options of a report command.
 * @id:     --run or --config value, 0 for the newest.
 * @out:    --out value, or NULL.
 * @format: --format value.
 */
struct report_opts {
	int64_t id;
	const char *out;
	enum report_format format;
};

static const char *const format_names[] = { "html", "csv", "json" };

/* on_option - cli_parse_options() callback for the report options. */
static int on_option(struct cli_ctx *ctx, int key, const char *arg,
		     void *user)
{
	struct report_opts *o = user;

	switch (key) {
	case OPT_FORMAT:
		for (int i = 0; i < 3; i++)
			if (!strcmp(arg, format_names[i])) {
				o->format = (enum report_format)i;
				return 0;
			}
		return cli_error(ctx, CLI_EXIT_USAGE, "unknown format '%s': use "
				 "html, csv or json", arg);
	default:
		return CLI_EXIT_USAGE;
	}
}

/*
 * render - write @r to @f in @format.  Return: 0, MEMCAL_ENOMEM or
 * MEMCAL_EIO.
 */
static int render(FILE *f, const struct report *r, enum report_format format)
{
	switch (format) {
	case REPORT_CSV:
		return report_write_csv(f, r);
	case REPORT_JSON:
		return report_write_json(f, r);
	default:
		return report_write_html(f, r);
	}
}

/* add_ids - the ids a report describes, under the shared key names. */
static void add_ids(json_t *o, const struct report *r)
{
	json_object_set_new(o, "run_id", r->have_run ?
			    json_integer(r->run.id) : json_null());
	json_object_set_new(o, "overhead_run_id", r->have_overhead_run ?
			    json_integer(r->overhead_run.id) : json_null());
	json_object_set_new(o, "config_id", r->have_config ?
			    json_integer(r->config.id) : json_null());
}

/* result_json - the machine output describing a report written to @out. */
static json_t *result_json(const struct report *r, const char *db,
			   const char *out, enum report_format format)
{
	json_t *w = json_array(), *m = json_array(), *o;

	for (size_t i = 0; i < r->n_warnings; i++)
		json_array_append_new(w, json_string(r->warnings[i]));
	for (size_t i = 0; i < r->n_missing; i++)
		json_array_append_new(m, json_string(r->missing[i]));
	o = json_pack("{s:s, s:s, s:s, s:i, s:o, s:o}", "db", db, "out", out,
		      "format", format_names[format], "charts",
		      format == REPORT_HTML ? report_chart_count(r) : 0,
		      "report_warnings", w, "missing", m);
	if (o)
		add_ids(o, r);
	return o;
}

/* default_name - "memcal-report-run3.html" and the like. */
static void default_name(const struct report *r, enum report_format format,
			 char *buf, size_t len)
{
	const char *ext = format_names[format];

	if (r->have_config)
		snprintf(buf, len, "memtune-report-config%lld.%s",
			 (long long)r->config.id, ext);
	else if (r->have_run || r->have_overhead_run)
		snprintf(buf, len, "%s-report-run%lld.%s", r->tool,
			 (long long)(r->have_run ? r->run.id :
				     r->overhead_run.id), ext);
	else
		snprintf(buf, len, "%s-report.%s", r->tool, ext);
}

/*
 * emit_carried - --json with the report on stdout: the envelope carries it,
 * as "document" (the report's JSON object) for --format json, else as
 * "files": [{"name": "-", "content"}].
 */
static int emit_carried(struct cli_ctx *ctx, const struct report *r,
			const char *db, enum report_format format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *res;
	int rc;

	if (!f)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = render(f, r, format);
	if (fclose(f) || rc) {
		free(text);
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot render the "
				 "report: out of memory");
	}
	res = result_json(r, db, "-", format);
	cli_carry(res, format == REPORT_JSON, text);
	free(text);
	return cli_emit_json(ctx, res);
}

/*
 * emit - send the loaded report where the options say (outfile.c decides
 * how each kind of --out path is written).  With --json the report goes to
 * --out; "--out -", or no --out with --format json, puts it into the
 * JSON envelope; no --out with html or csv writes the default file name.
 */
static int emit(struct cli_ctx *ctx, const struct report *r,
		const struct report_opts *o, const char *db)
{
	char name[PATH_MAX];
	const char *path = o->out;
	struct cli_output out;
	int rc, n;

	if (ctx->json && ((path && !strcmp(path, "-")) ||
			  (!path && o->format == REPORT_JSON)))
		return emit_carried(ctx, r, db, o->format);
	if (!path && ctx->json) {
		default_name(r, o->format, name, sizeof(name));
		path = name;
	}
	rc = cli_output_open(ctx, &out, path);
	if (rc)
		return rc;
	rc = render(out.f, r, o->format);
	if (rc)
		return cli_output_fail(ctx, &out,
				       rc == MEMCAL_ENOMEM ? ENOMEM : 0);
	rc = cli_output_commit(ctx, &out);
	if (rc || out.is_stdout)
		return rc;
	if (ctx->json)
		return cli_emit_json(ctx, result_json(r, db, path, o->format));
	n = o->format == REPORT_HTML ? report_chart_count(r) : 0;
	if (ctx->verbosity >= 0)
		fprintf(ctx->out, "wrote %s (%s; %d chart%s, %zu warning%s, %zu "
			"missing item%s)\n", path, format_names[o->format], n,
			n == 1 ? "" : "s", r->n_warnings,
			r->n_warnings == 1 ? "" : "s", r->n_missing,
			r->n_missing == 1 ? "" : "s");
	return CLI_EXIT_OK;
}

/*
 * report_command - the body both commands share: parse options, open the
 * database read-only, load, write.  @tool is "memcal" or "memtune".
 */
static int report_command(struct cli_ctx *ctx, int argc, char **argv,
			  const char *tool)
{
	bool tune = !strcmp(tool, "memtune");
	const struct cli_option opts[] = {
		CLI_OPT_ID(tune ? "config" : "run", tune ? 'c' : 0,
			   struct report_opts, id,
			   tune ? "tuned configuration to report (default: "
			   "the newest)" : "calibration run to report "
			   "(default: the newest)"),
		CLI_OPT_STRING("out", 'o', "FILE", struct report_opts, out,
			       "write the report to FILE, or - for stdout "
			       "(default: stdout; with --json, a file named "
			       "after the run or config in the current "
			       "directory)"),
		CLI_OPT("format", 'f', "FMT", OPT_FORMAT, "html (default; "
			"charts inline), csv or json"),
		CLI_OPT_END,
	};
	struct report_opts o = { 0 };
	struct report *r;
	char path[PATH_MAX], err[512];
	memcal_db *db;
	int first, rc;

	rc = cli_parse_options(ctx, argc, argv, NULL, opts, on_option, &o,
			       &first);
	if (rc)
		return rc;
	if (first < argc)
		return cli_error(ctx, CLI_EXIT_USAGE, "unexpected argument '%s'; "
				 "see '%s report --help'", argv[first], tool);
	if (ctx->db_path) {
		snprintf(path, sizeof(path), "%s", ctx->db_path);
	} else if (memcal_db_default_path(path, sizeof(path))) {
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot work out the "
				 "database path: set $MEMCAL_DB or use --db");
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	r->tool = tune ? "memtune" : "memcal";
	db = NULL;
	if (memcal_db_open(path, MEMCAL_DB_OPEN_READONLY, &db, err,
			   sizeof(err))) {
		free(r);
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	} else {
		rc = tune ? report_load_tuning(r, db, o.id) :
			    report_load_calibration(r, db, o.id);
	}
	if (rc) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s",
			       rc == MEMCAL_ENOMEM ? "out of memory" :
			       memcal_db_errmsg(db));
	} else {
		for (size_t i = 0; i < r->n_missing; i++)
			cli_debug(ctx, "missing: %s", r->missing[i]);
		rc = emit(ctx, r, &o, path);
	}
	report_free(r);
	free(r);
	if (db)
		memcal_db_close(db);
	return rc;
}

/* report_cmd_memcal() - `memcal report`: a board's calibration. */
int report_cmd_memcal(struct cli_ctx *ctx, int argc, char **argv)
{
	return report_command(ctx, argc, argv, "memcal");
}

/* report_cmd_memtune() - `memtune report`: a tuned mix and its board. */
int report_cmd_memtune(struct cli_ctx *ctx, int argc, char **argv)
{
	return report_command(ctx, argc, argv, "memtune");
}
