// SPDX-License-Identifier: GPL-2.0-only
/* cmd_overhead.c - placeholder until `memcal overhead` lands; it fails loudly. */
#include "memcal_cmds.h"

/* memcal_cmd_overhead - not implemented yet: say so and fail. */
int memcal_cmd_overhead(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error(ctx, CLI_EXIT_FAILURE,
			 "'memcal overhead' is not implemented in this build yet");
}
