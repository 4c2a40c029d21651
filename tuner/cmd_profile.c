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

/**
 * tune_cmd_profile() - 'memtune profile MIX.yaml [--runs N]
 * [--timeout S]'.
 */
int tune_cmd_profile(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		CLI_OPT_UINT("runs", 'r', "N", struct profile_opts, runs, 1,
			     PROFILE_MAX_RUNS, "solo runs per workload "
			     "(default: the mix's 'runs', else 3)"),
		TUNE_OPT_TIMEOUT(struct profile_opts, "kill a run after S "
				 "seconds (600)"),
		CLI_OPT_END,
	};
	struct profile_opts o = { 0, 600 };
	struct mix *m = calloc(1, sizeof(*m));
	memcal_db *db = NULL;
	int rc;

	if (!m)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = tune_mix_prologue(ctx, argc, argv, "MIX.yaml [--runs N]", opts,
			       NULL, &o, m, &db);
	if (!rc)
		rc = tune_profile_mix(ctx, db, m, o.runs, o.timeout_s, false);
	return tune_cmd_end(rc, m, NULL, db);
}
