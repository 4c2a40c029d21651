/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_cmds.h - the subcommands of memcal(1).  Each lives in its own
 * file (cmd_<name>.c); memcal_main.c holds the table; cmd_common.c what
 * they share.
 */
#ifndef MEMCAL_CMDS_H
#define MEMCAL_CMDS_H

#include "cli.h"
#include "memcal_db.h"

int cal_cmd_run(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_overhead(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_show(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_export(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_import(struct cli_ctx *ctx, int argc, char **argv);
int cal_cmd_compare(struct cli_ctx *ctx, int argc, char **argv);

int cal_open_db(struct cli_ctx *ctx, unsigned flags, memcal_db **db);

#endif /* MEMCAL_CMDS_H */
