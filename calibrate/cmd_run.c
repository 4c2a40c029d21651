// SPDX-License-Identifier: GPL-2.0-only
/* cmd_run.c - placeholder until `memcal run` lands; it fails loudly. */
#include "memcal_cmds.h"

/* memcal_cmd_run - not implemented yet: say so and fail. */
int memcal_cmd_run(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(ctx, CLI_EXIT_FAILURE,
			 "'memcal run' is not implemented in this build yet");
}
