// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_common.c - what memcal's subcommands share: opening the database
 * of --db (or the default path) with the failure reported as an exit code,
 * and the --run ID option.
 */
#include "memcal_cmds.h"

/**
 * cal_open_db() - open the command's database with @flags
 * (MEMCAL_DB_OPEN_*).
 * Return: 0, or CLI_EXIT_FAILURE with the reason reported.
 */
int cal_open_db(struct cli_ctx *ctx, unsigned flags, memcal_db **db)
{
	char err[1024];

	if (memcal_db_open(ctx->db_path, flags, db, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	return 0;
}

/**
 * cal_parse_run() - the --run ID of show and export into @id.
 * Return: 0, or CLI_EXIT_USAGE with the reason reported.
 */
int cal_parse_run(struct cli_ctx *ctx, const char *arg, int64_t *id)
{
	const char *why;

	if (cli_parse_id(arg, id, &why))
		return cli_error(ctx, CLI_EXIT_USAGE, "--run '%s': %s", arg,
				 why);
	return 0;
}
