// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_apply.c - 'memtune apply [--config ID | --file JSON]': the command
 * line of loading memreg with a tuned configuration, after 'memtune
 * check' passed (apply.c checks the board and the kernel and drives
 * memreg).
 */
#include <stdio.h>
#include <stdlib.h>

#include "apply.h"
#include "memtune_cmds.h"

/**
 * struct apply_args - options of 'memtune apply'.
 * @id:    --config.
 * @file:  --file.
 * @reg:   module, sysfs root.
 * @force_board: skip the board check and 'memtune check' (--force-board,
 *         for the QEMU test whose guest is not the board the
 *         configuration was planned on).
 * @force: apply even when 'memtune check' fails (--force).
 */
struct apply_args {
	int64_t id;
	const char *file;
	struct tune_reg reg;
	bool force_board;
	bool force;
};

/**
 * tune_cmd_apply() - 'memtune apply [--config ID | --file JSON]
 * [--module PATH] [--sysfs DIR] [--force-board] [--force]': 'memtune
 * check' first (cmd_check.c), refusing on a failed item unless --force.
 */
int tune_cmd_apply(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		TUNE_OPT_CONFIG(struct apply_args),
		TUNE_OPT_FILE(struct apply_args, "apply a JSON export instead "
			      "(no database needed)"),
		TUNE_OPT_REG(struct apply_args, "memreg.ko to load (default: "
			     "under /lib/modules/$(uname -r))"),
		CLI_OPT_FLAG("force-board", 0, struct apply_args, force_board,
			     "apply even if the configuration was tuned on "
			     "another board (skips check too)"),
		CLI_OPT_FLAG("force", 0, struct apply_args, force, "apply "
			     "even if 'memtune check' fails (the failed items "
			     "are still printed)"),
		CLI_OPT_END,
	};
	struct apply_args a = { 0 };
	struct tune_config *c = calloc(1, sizeof(*c));
	memcal_db *db = NULL;
	char err[768];
	int64_t id = 0;
	int first, rc;

	if (!c)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = cli_parse_options(ctx, argc, argv, "[--config ID | --file JSON]",
			       opts, NULL, &a, &first);
	if (!rc && first != argc)
		rc = cli_error(ctx, CLI_EXIT_USAGE, "apply takes no arguments; "
			       "see 'memtune apply --help'");
	if (!rc)
		rc = tune_open_config(ctx, a.id, a.file, c, &id, &db);
	if (!rc && !a.force_board)
		rc = tune_check_gate(ctx, c, a.force);
	if (!rc && !a.force_board && tune_reg_check_board(c, err, sizeof(err)))
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	if (!rc) {
		int r = tune_reg_apply(&a.reg, c, err, sizeof(err));

		if (r)
			rc = cli_error(ctx, cli_exit_for(r), "cannot apply "
				       "configuration %lld: %s", (long long)id,
				       err);
	}
	if (!rc && ctx->json)
		rc = cli_emit_json(ctx, json_pack("{s:I,s:i,s:i,s:b,s:b}",
			"config_id", (json_int_t)id, "period_us", c->period_us,
			"master_cpu", c->master_cpu, "lms", c->lms, "loaded",
			a.reg.loaded_here));
	else if (!rc)
		fprintf(ctx->out, "memreg %s configuration %lld: period %d us, "
			"master cpu %d, LMS %s\n", a.reg.loaded_here ?
			"loaded with" : "switched to", (long long)id,
			c->period_us, c->master_cpu, c->lms ? "on" : "off");
	return tune_cmd_end(rc, NULL, c, db);
}
