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
