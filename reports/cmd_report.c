// SPDX-License-Identifier: GPL-2.0-only
/* cmd_report.c - placeholder until the reports land; it fails loudly. */
#include "cli.h"

int memcal_cmd_report(struct cli_ctx *ctx, int argc, char **argv);
int memtune_cmd_report(struct cli_ctx *ctx, int argc, char **argv);

/* memcal_cmd_report - not implemented yet: say so and fail. */
int memcal_cmd_report(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(ctx, CLI_EXIT_FAILURE,
			 "'memcal report' is not implemented in this build yet");
}

/* memtune_cmd_report - not implemented yet: say so and fail. */
int memtune_cmd_report(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(ctx, CLI_EXIT_FAILURE,
			 "'memtune report' is not implemented in this build yet");
}
