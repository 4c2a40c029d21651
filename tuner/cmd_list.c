// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_list.c - 'memtune list [--kind KIND] [--mix NAME]': every
 * configuration, workload profile and validation, newest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memtune_cmds.h"

/**
 * tune_cmd_list() - 'memtune list [--kind KIND] [--mix NAME]'.
 */
int tune_cmd_list(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		CLI_OPT("kind", 0, "KIND", 'K', "only config, profile or "
			"validation records"),
		CLI_OPT_STRING("mix", 0, "NAME", struct rec_opts, mix, "only "
			       "records of this mix"),
		CLI_OPT_END,
	};
	struct rec_sink s = { .ctx = ctx };
	struct rec_opts o;
	memcal_db *db = NULL;
	int rc = tune_rec_args(ctx, argc, argv, "[--kind KIND] [--mix NAME]",
			       opts, &o, false);

	if (!rc && o.id)
		rc = cli_error(ctx, CLI_EXIT_USAGE, "list takes no record; "
			       "use 'memtune show'");
	if (!rc)
		rc = tune_open_db(ctx, false, &db);
	if (rc)
		return rc;
	if (ctx->json)
		s.arr = json_array();
	else
		fprintf(ctx->out, "%-10s %5s  %-20s  %-16s %s\n", "kind", "id",
			"created", "mix", "what");
	if (memcal_db_record_list(db, o.kind, o.mix, tune_rec_sink, &s)) {
		json_decref(s.arr);
		rc = tune_db_error(ctx, db);
	} else if (ctx->json) {
		rc = cli_emit_json(ctx, json_pack("{s:o}", "records", s.arr));
	} else if (!s.n) {
		fprintf(ctx->out, "(no records%s%s%s)\n", o.mix ? " of mix '" :
			"", o.mix ? o.mix : "", o.mix ? "'" : "");
	}
	memcal_db_close(db);
	return rc;
}
