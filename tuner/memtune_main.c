// SPDX-License-Identifier: GPL-2.0-only
/*
 * memtune_main.c - memtune(1): from a workload mix to a tuned, validated,
 * exported regulator configuration.  The subcommands are a table, as in
 * bpftool; each lives in its own file.
 */
#include "memcal_report.h"
#include "memtune_cmds.h"

static const struct cli_command memtune_commands[] = {
	{ "profile", tune_cmd_profile,
	  "run each workload solo, pinned; store its time and traffic trace" },
	{ "plan", tune_cmd_plan,
	  "choose period, master core, budgets, LMS parameters; explain" },
	{ "check", tune_cmd_check,
	  "does a configuration fit this unit? pass/warn/fail per item" },
	{ "apply", tune_cmd_apply,
	  "check, then load memreg with a tuned configuration (LMS on)" },
	{ "validate", tune_cmd_validate,
	  "run the mix co-scheduled, unregulated and regulated; slowdowns" },
	{ "export", tune_cmd_export,
	  "render a configuration for deployment" },
	{ "report", report_cmd_memtune,
	  "write a tuning report" },
	{ "list", tune_cmd_list,
	  "configurations, profiles and validations, newest first" },
	{ "show", tune_cmd_show,
	  "one configuration (plan, reasons, provenance) or record" },
	{ "delete", tune_cmd_delete,
	  "delete a record; --force: with what depends on it" },
	{ NULL, NULL, NULL },
};

static const struct cli_tool memtune_tool = {
	.name = "memtune",
	.summary = "tune, validate and export memory-bandwidth regulation "
		   "for a workload mix",
	.commands = memtune_commands,
};

/* main - hand everything to the shared dispatcher. */
int main(int argc, char **argv)
{
	return cli_main(&memtune_tool, argc, argv);
}
