/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_cmds.h - the subcommands of memcal(1).  Each lives in its own
 * file (cmd_<name>.c); memcal_main.c holds the table.
 */
#ifndef MEMCAL_CMDS_H
#define MEMCAL_CMDS_H

#include "cli.h"

int cal_cmd_run(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_overhead(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_show(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_export(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_import(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_compare(struct cli_ctx *ctx, int argc, char **argv);

#endif /* MEMCAL_CMDS_H */
