// SPDX-License-Identifier: GPL-2.0-only
/*
 * memtune_main.c - memtune(1): from a workload mix to a tuned, validated,
 * exported regulator configuration.  The subcommands are a table, as in
 * bpftool; each lives in its own file.
 */
#include "memtune_cmds.h"

static const struct cli_command memtune_commands[] = {
	{ "profile", memtune_cmd_profile,
	  "run each workload solo, pinned; store its time and traffic trace" },
	{ "plan", memtune_cmd_plan,
	  "choose period, master core, budgets, LMS parameters; explain" },
	{ "apply", memtune_cmd_apply,
	  "load memreg with a tuned configuration (LMS on)" },
	{ "validate", memtune_cmd_validate,
	  "run the mix co-scheduled, unregulated and regulated; slowdowns" },
	{ "export", memtune_cmd_export,
	  "render a configuration for deployment" },
	{ "report", memtune_cmd_report,
	  "write a tuning report" },
	{ "list", memtune_cmd_list,
	  "configurations, profiles and validations, newest first" },
	{ "show", memtune_cmd_show,
	  "one configuration (plan, reasons, provenance) or record" },
	{ "delete", memtune_cmd_delete,
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
