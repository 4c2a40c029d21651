/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memtune_cmds.h - the subcommands of memtune(1) and the helpers they
 * share (cmd_common.c).  memtune_main.c holds the table.
 */
#ifndef MEMTUNE_CMDS_H
#define MEMTUNE_CMDS_H

#include <stdbool.h>

#include "cli.h"
#include "tuned_config.h"
#include "memcal_db_records.h"
#include "memcal_db_tune.h"
#include "mix.h"

int tune_cmd_profile(struct cli_ctx *ctx, int argc, char **argv);
int tune_cmd_plan(struct cli_ctx *ctx, int argc, char **argv);
int tune_cmd_apply(struct cli_ctx *ctx, int argc, char **argv);
int tune_cmd_check(struct cli_ctx *ctx, int argc, char **argv);
int tune_check_gate(struct cli_ctx *ctx, const struct tune_config *c,
		    bool force);
int tune_cmd_validate(struct cli_ctx *ctx, int argc, char **argv);
int tune_cmd_export(struct cli_ctx *ctx, int argc, char **argv);
int tune_cmd_list(struct cli_ctx *ctx, int argc, char **argv);
int tune_cmd_show(struct cli_ctx *ctx, int argc, char **argv);
int tune_cmd_delete(struct cli_ctx *ctx, int argc, char **argv);

/* The most solo runs 'memtune profile --runs' takes (profile.c). */
#define PROFILE_MAX_RUNS 50

int tune_profile_mix(struct cli_ctx *ctx, memcal_db *db, const struct mix *m,
		unsigned runs, unsigned timeout_s, bool quiet);
int tune_open_db(struct cli_ctx *ctx, bool write, memcal_db **db);
int tune_load_mix(struct cli_ctx *ctx, const char *path, struct mix *m);
int tune_check_local_cpus(struct cli_ctx *ctx, const struct mix *m);
int tune_load_config(struct cli_ctx *ctx, memcal_db *db, int64_t id,
		     const char *file, struct tune_config *c,
		     int64_t *id_out);
int tune_open_config(struct cli_ctx *ctx, int64_t id, const char *file,
		     struct tune_config *c, int64_t *id_out, memcal_db **db);

/*
 * Option table entries several commands share, stored in @type: --config
 * in its int64_t id, --timeout (seconds) in its unsigned timeout_s,
 * --file in its file, --module and --sysfs in its struct tune_reg reg;
 * @help says what the command does with the --file JSON, the timeout or
 * the module.
 */
#define TUNE_OPT_CONFIG(type) \
	CLI_OPT_ID("config", 'c', type, id, "tuned configuration (default: " \
		   "the newest)")
#define TUNE_OPT_FILE(type, help) \
	CLI_OPT_STRING("file", 0, "JSON", type, file, help)
#define TUNE_OPT_TIMEOUT(type, help) \
	CLI_OPT_UINT("timeout", 0, "S", type, timeout_s, 1, 86400, help)
#define TUNE_OPT_REG(type, help) \
	CLI_OPT_STRING("module", 0, "PATH", type, reg.module, help), \
	CLI_OPT_STRING("sysfs", 0, "DIR", type, reg.sysfs, "memreg's sysfs " \
		       "root (/sys/kernel/memreg)")

int tune_parse_args(struct cli_ctx *ctx, int argc, char **argv,
		    const char *synopsis, const struct cli_option *opts,
		    cli_option_fn fn, void *user, char **pos, int maxpos,
		    int *npos);
int tune_mix_prologue(struct cli_ctx *ctx, int argc, char **argv,
		      const char *synopsis, const struct cli_option *opts,
		      cli_option_fn fn, void *user, struct mix *m,
		      memcal_db **db);

/**
 * struct rec_opts - options shared by list, show and delete.
 * @kind:  the kind addressed or listed (NULL: configuration / all).
 * @id:    the record addressed (0: none given).
 * @mix:   list: only this mix.
 * @force: delete: dependents too.
 */
struct rec_opts {
	const char *kind;
	int64_t id;
	const char *mix;
	bool force;
};

/**
 * struct rec_sink - where listed or deleted records go.
 * @ctx:   output.
 * @arr:   with --json, the array they are collected in.
 * @n:     how many.
 */
struct rec_sink {
	struct cli_ctx *ctx;
	json_t *arr;
	int n;
};

int tune_rec_args(struct cli_ctx *ctx, int argc, char **argv,
		  const char *synopsis, const struct cli_option *opts,
		  struct rec_opts *o, bool need);
int tune_rec_sink(const struct memcal_record *r, void *user);
int tune_db_error(struct cli_ctx *ctx, memcal_db *db);
int tune_cmd_end(int rc, struct mix *m, struct tune_config *c,
		 memcal_db *db);

#endif /* MEMTUNE_CMDS_H */
