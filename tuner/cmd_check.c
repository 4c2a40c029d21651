// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_check.c - 'memtune check [--config ID | --file JSON] [--tolerance
 * PCT] [--no-bandwidth]': the command line of check.c, and the check
 * 'memtune apply' runs first (tune_check_gate()).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "memtune_cmds.h"

/**
 * struct check_args - options of 'memtune check'.
 * @id:   --config.
 * @file: --file.
 * @o:    tolerance and --no-bandwidth.
 */
struct check_args {
	int64_t id;
	const char *file;
	struct tune_check_opts o;
};

/* check_option - option callback. */
static int check_option(struct cli_ctx *ctx, int key, const char *arg,
			void *user)
{
	struct check_args *a = user;
	const char *why = "";
	char *end;

	switch (key) {
	case 't':
		a->o.tolerance_pct = strtod(arg, &end);
		if (end == arg || *end || !(a->o.tolerance_pct > 0) ||
		    !(a->o.tolerance_pct < 100))
			why = "must be a number of per cent above 0 and below "
			      "100";
		if (*why)
			return cli_error(ctx, CLI_EXIT_USAGE, "--tolerance "
					 "'%s': %s", arg, why);
		return 0;
	}
	return CLI_EXIT_USAGE;
}

/* print - the text form: one line per item, then the result. */
static void print(struct cli_ctx *ctx, const struct tune_check *r,
		  const struct tune_check_opts *o, const char *what)
{
	char names[256];
	int warned = 0, failed = tune_check_failed(r, names, sizeof(names));

	fprintf(ctx->out, "check of %s on this unit (bandwidth tolerance "
		"%g %%%s)\n", what, o->tolerance_pct, o->no_bandwidth ?
		", bandwidth skipped" : "");
	for (int i = 0; i < TUNE_NR_ITEMS; i++) {
		fprintf(ctx->out, "  %-4s  %-14s  %s\n",
			tune_check_verdict_name(r->items[i].verdict),
			r->items[i].name, r->items[i].reason);
		warned += r->items[i].verdict == TUNE_CHECK_WARN;
	}
	if (failed)
		fprintf(ctx->out, "result: fail (%s), %d warning%s\n", names,
			warned, warned == 1 ? "" : "s");
	else
		fprintf(ctx->out, "result: %s, %d warning%s\n", warned ? "pass "
			"with warnings" : "pass", warned, warned == 1 ? "" :
			"s");
}

/**
 * tune_check_gate() - the check 'memtune apply' runs before it loads
 * anything: every item printed to stderr (stdout stays the command's),
 * and a refusal naming the failed items unless @force.
 * Return: 0 or a CLI exit code (error reported).
 */
int tune_check_gate(struct cli_ctx *ctx, const struct tune_config *c,
		    bool force)
{
	struct tune_check_opts o = { .tolerance_pct = TUNE_CHECK_TOLERANCE_PCT };
	struct tune_check *r = calloc(1, sizeof(*r));
	char names[256];
	int failed;

	if (!r)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	tune_check_run(c, &o, r);
	for (int i = 0; i < TUNE_NR_ITEMS; i++)
		if (r->items[i].verdict != TUNE_CHECK_PASS)
			fprintf(ctx->err, "%s %s: check %s %s: %s\n", ctx->tool,
				ctx->command, r->items[i].name,
				tune_check_verdict_name(r->items[i].verdict),
				r->items[i].reason);
	failed = tune_check_failed(r, names, sizeof(names));
	free(r);
	if (failed && !force)
		return cli_error(ctx, CLI_EXIT_FAILURE, "the configuration does "
				 "not fit this unit: check failed (%s); "
				 "memreg was left as it was (see 'memtune "
				 "check', or --force to apply anyway)", names);
	if (failed)
		fprintf(ctx->err, "%s %s: check failed (%s); applying anyway "
			"(--force)\n", ctx->tool, ctx->command, names);
	return 0;
}

/**
 * tune_cmd_check() - 'memtune check [--config ID | --file JSON]
 * [--tolerance PCT] [--no-bandwidth]'.
 */
int tune_cmd_check(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		TUNE_OPT_CONFIG(struct check_args),
		TUNE_OPT_FILE(struct check_args, "check a JSON export instead "
			      "(no database needed)"),
		CLI_OPT("tolerance", 0, "PCT", 't', "how far the measured "
			"read bandwidth may be from the calibration's, in per "
			"cent (default 10)"),
		CLI_OPT_FLAG("no-bandwidth", 0, struct check_args,
			     o.no_bandwidth, "skip the bandwidth measurement "
			     "(the item shows skipped)"),
		CLI_OPT_END,
	};
	struct check_args a = { .o.tolerance_pct = TUNE_CHECK_TOLERANCE_PCT };
	struct tune_config *c = calloc(1, sizeof(*c));
	struct tune_check *r = calloc(1, sizeof(*r));
	memcal_db *db = NULL;
	char names[256], what[700];
	int64_t id = 0;
	int first, rc;

	if (!c || !r) {
		free(c);
		free(r);
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	}
	rc = cli_parse_options(ctx, argc, argv, "[--config ID | --file JSON] "
			       "[--tolerance PCT] [--no-bandwidth]", opts,
			       check_option, &a, &first);
	if (!rc && first != argc)
		rc = cli_error(ctx, CLI_EXIT_USAGE, "check takes no arguments; "
			       "see 'memtune check --help'");
	if (!rc && a.file && a.id)
		rc = cli_error(ctx, CLI_EXIT_USAGE, "give --config or --file, "
			       "not both");
	if (!rc)
		rc = tune_open_config(ctx, a.id, a.file, c, &id, &db);
	if (!rc) {
		tune_check_run(c, &a.o, r);
		if (a.file)
			snprintf(what, sizeof(what), "%s (mix '%s')", a.file,
				 c->mix);
		else
			snprintf(what, sizeof(what), "configuration %lld (mix "
				 "'%s')", (long long)id, c->mix);
		if (ctx->json) {
			json_t *doc = tune_check_json(r, &a.o);

			if (doc && a.file)
				json_object_set_new(doc, "file",
						    json_string(a.file));
			else if (doc)
				json_object_set_new(doc, "config_id",
						    json_integer(id));
			rc = cli_emit_json(ctx, doc);
		} else {
			print(ctx, r, &a.o, what);
		}
	}
	if (!rc && tune_check_failed(r, names, sizeof(names)))
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "the configuration does "
			       "not fit this unit: %s failed", names);
	free(r);
	return tune_cmd_end(rc, NULL, c, db);
}
