// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_delete.c - 'memtune delete ID | --profile ID | --validation ID
 * [--force]': one record, refusing what another record depends on
 * unless --force.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memtune_cmds.h"

/**
 * tune_cmd_delete() - 'memtune delete ID | --profile ID |
 * --validation ID [--force]': one transaction; what was deleted is
 * printed, a refusal deletes nothing.
 */
int tune_cmd_delete(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		CLI_OPT("profile", 0, "ID", 'P', "delete workload profile ID"),
		CLI_OPT("validation", 0, "ID", 'V', "delete validation ID"),
		CLI_OPT_FLAG("force", 0, struct rec_opts, force, "also delete "
			     "the records that depend on it"),
		CLI_OPT_END,
	};
	struct rec_sink s = { .ctx = ctx, .arr = json_array() };
	struct rec_opts o;
	json_t *r;
	size_t i;
	memcal_db *db = NULL;
	int rc = tune_rec_args(ctx, argc, argv, "ID | --profile ID | "
			       "--validation ID [--force]", opts, &o, true);

	if (!rc && !s.arr)
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	if (!rc)
		rc = tune_open_db(ctx, true, &db);
	if (rc) {
		json_decref(s.arr);
		return rc;
	}
	if (memcal_db_begin(db) ||
	    memcal_db_record_delete(db, o.kind, o.id, o.force,
				    tune_rec_sink, &s) ||
	    memcal_db_commit(db)) {
		memcal_db_rollback(db);
		json_decref(s.arr);
		rc = tune_db_error(ctx, db);
	} else if (ctx->json) {
		rc = cli_emit_json(ctx, json_pack("{s:o}", "deleted", s.arr));
	} else {
		/* only once committed: what is printed is gone */
		json_array_foreach(s.arr, i, r)
			fprintf(ctx->out, "deleted %s %lld (mix '%s'): %s\n",
				json_string_value(json_object_get(r, "kind")),
				(long long)json_integer_value(
					json_object_get(r, "id")),
				json_string_value(json_object_get(r, "mix")),
				json_string_value(json_object_get(r, "detail")));
		json_decref(s.arr);
	}
	memcal_db_close(db);
	return rc;
}
