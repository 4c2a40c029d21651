// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcal_main.c - memcal(1): calibrate a board once and keep its platform
 * profile in the database.  The subcommands are a table, as in bpftool.
 */
#include "memcal_cmds.h"
#include "memcal_report.h"

static const struct cli_command memcal_commands[] = {
	{ "run", cal_cmd_run,
	  "calibrate this board: topology, bandwidth, latency, PMU events" },
	{ "overhead", cal_cmd_overhead,
	  "measure per-core, per-period regulation interrupt overhead" },
	{ "show", cal_cmd_show,
	  "list what the database holds, or one run in detail" },
	{ "export", cal_cmd_export,
	  "write one run as a portable document for another database" },
	{ "import", cal_cmd_import,
	  "add the runs of exported documents, each once" },
	{ "compare", cal_cmd_compare,
	  "the units of one board type side by side, outliers flagged" },
	{ "report", report_cmd_memcal,
	  "write a calibration report" },
	{ NULL, NULL, NULL },
};

static const struct cli_tool memcal_tool = {
	.name = "memcal",
	.summary = "calibrate a board's memory bandwidth and regulation costs",
	.commands = memcal_commands,
};

/* main - hand everything to the shared dispatcher. */
int main(int argc, char **argv)
{
	return cli_main(&memcal_tool, argc, argv);
}
