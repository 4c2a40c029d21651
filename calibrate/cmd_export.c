// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_export.c - `memcal export --run ID [--out FILE]`: one calibration as
 * a portable document (figures/document.c, "memcal.calibration/1") that
 * `memcal import` adds to another database.  The document goes to --out
 * (replaced atomically) or stdout; with --json and --out, stdout carries
 * the envelope naming the file and the document's content key; with
 * --json alone the document is the envelope's result.
 */
#include <stdint.h>
#include <string.h>

#include "memcal_cmds.h"
#include "memcal_db.h"
#include "memcal_figures.h"

_Static_assert(FIG_DOC_PRECISION == CLI_JSON_PRECISION,
	       "the content key is computed at the precision documents are "
	       "written with");


/**
 * struct export_args - parsed options of `memcal export`.
 * @run_id: --run value, 0 when not given.
 * @out:    --out value, NULL for stdout.
 */
struct export_args {
	int64_t run_id;
	const char *out;
};

static const struct cli_option export_options[] = {
	CLI_OPT_ID("run", 0, struct export_args, run_id, "the run to export "
		   "(required: 'memcal show' lists them)"),
	CLI_OPT_STRING("out", 'o', "FILE", struct export_args, out, "write "
		       "the document to FILE (default: stdout)"),
	CLI_OPT_END,
};

/**
 * cal_cmd_export() - `memcal export --run ID [--out FILE]`.
 *
 * The database is opened read-only; nothing is written but the document.
 */
int cal_cmd_export(struct cli_ctx *ctx, int argc, char **argv)
{
	struct export_args a = { 0 };
	struct cli_output out;
	memcal_db *db = NULL;
	json_t *doc;
	int rc;

	rc = cli_parse_options(ctx, argc, argv, "--run ID [--out FILE]",
			       export_options, NULL, &a, NULL);
	if (rc)
		return rc;
	if (!a.run_id)
		return cli_error(ctx, CLI_EXIT_USAGE, "--run ID is required: "
				 "'memcal show' lists the runs");
	rc = cal_open_db(ctx, MEMCAL_DB_OPEN_READONLY, &db);
	if (rc)
		return rc;
	rc = fig_doc_build(db, a.run_id, MEMCAL_VERSION, &doc);
	if (rc) {
		rc = cli_error(ctx, cli_exit_for(rc), "%s", rc == MEMCAL_ENOMEM ?
			       "out of memory" : memcal_db_errmsg(db));
		memcal_db_close(db);
		return rc;
	}
	memcal_db_close(db);
	if (ctx->json && (!a.out || !strcmp(a.out, "-")))
		return cli_emit_json(ctx, doc);
	rc = cli_output_open(ctx, &out, a.out);
	if (rc) {
		json_decref(doc);
		return rc;
	}
	if (!cli_json_dumpf(doc, out.f)) {
		json_decref(doc);
		return cli_output_fail(ctx, &out, 0);
	}
	rc = cli_output_commit(ctx, &out);
	if (!rc && !out.is_stdout && ctx->json)
		rc = cli_emit_json(ctx, json_pack("{s:I, s:s, s:O, s:s}",
				   "run_id", (json_int_t)a.run_id, "out", a.out,
				   "content_key", json_object_get(doc,
				   "content_key"), "schema", FIG_DOC_SCHEMA));
	else if (!rc && !out.is_stdout && ctx->verbosity >= 0)
		fprintf(ctx->out, "run %lld exported to %s\n",
			(long long)a.run_id, a.out);
	json_decref(doc);
	return rc;
}
