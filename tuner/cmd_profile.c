// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_profile.c - 'memtune profile MIX.yaml [--runs N] [--timeout S]': the
 * command line of the profiler (profile.c runs and stores the workloads).
 */
#include <stdlib.h>

#include "memtune_cmds.h"

/**
 * struct profile_opts - options of 'memtune profile'.
 * @runs:      repetitions (0: the mix's).
 * @timeout_s: per run.
 */
struct profile_opts {
	unsigned runs;
	unsigned timeout_s;
};

/* profile_option - option callback of 'memtune profile'. */
static int profile_option(struct cli_ctx *ctx, int key, const char *arg,
			  void *user)
{
	struct profile_opts *o = user;

	return tune_parse_runs(ctx, key, arg, PROFILE_MAX_RUNS, &o->runs,
			       &o->timeout_s);
}

/**
 * tune_cmd_profile() - 'memtune profile MIX.yaml [--runs N]
 * [--timeout S]'.
 */
int tune_cmd_profile(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		CLI_OPT("runs", 'r', "N", 'r', "solo runs per workload "
			"(default: the mix's 'runs', else 3)"),
		CLI_OPT("timeout", 0, "S", 't', "kill a run after S seconds "
			"(600)"),
		CLI_OPT_END,
	};
	struct profile_opts o = { 0, 600 };
	struct mix *m = calloc(1, sizeof(*m));
	memcal_db *db = NULL;
	int rc;

	if (!m)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = tune_mix_prologue(ctx, argc, argv, "MIX.yaml [--runs N]", opts,
			       profile_option, &o, m, &db);
	if (!rc)
		rc = tune_profile_mix(ctx, db, m, o.runs, o.timeout_s, false);
	return tune_cmd_end(rc, m, NULL, db);
}
