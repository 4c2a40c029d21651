/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_report.h - what the reports library offers the tools: their
 * `report` subcommands.  Everything else a report needs is private
 * (report.h); the data shapes the tools share with it are figures/'
 * (memcal_figures.h).
 */
#ifndef MEMCAL_REPORT_PUBLIC_H
#define MEMCAL_REPORT_PUBLIC_H

#include "cli.h"

int report_cmd_memcal(struct cli_ctx *ctx, int argc, char **argv);
int report_cmd_memtune(struct cli_ctx *ctx, int argc, char **argv);

#endif /* MEMCAL_REPORT_PUBLIC_H */
