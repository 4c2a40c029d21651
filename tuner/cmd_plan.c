// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_plan.c - memtune plan MIX.yaml: load the platform profile, the
 * overhead measurement and the mix's workload profiles, run the planner,
 * store the tuned configuration with its provenance and explain it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "inputs.h"
#include "memtune_cmds.h"

/**
 * struct plan_opts - options of 'memtune plan'.
 * @assume_ns: --assume-overhead-ns (0: refuse without a measurement).
 * @periods:   --periods, 0-terminated.
 * @reprofile: --reprofile: profile the mix first when a profile is
 *             missing or no longer matches it.
 * @streaming: --guarantees-from-streaming: reserve the guarantees from
 *             the streaming figure when no guaranteed one is wanted or
 *             measured.
 */
struct plan_opts {
	double assume_ns;
	uint32_t periods[PLAN_MAX_PERIODS];
	bool reprofile;
	bool streaming;
};

/* plan_option - option callback. */
static int plan_option(struct cli_ctx *ctx, int key, const char *arg,
		       void *user)
{
	struct plan_opts *o = user;
	const char *why;
	uint64_t v;
	size_t n;

	if (key == 'a') {
		if (cli_parse_u64(arg, 1, 100000000, &v, &why))
			return cli_error(ctx, CLI_EXIT_USAGE,
					 "--assume-overhead-ns %s: %s", arg, why);
		o->assume_ns = (double)v;
		return 0;
	}
	memset(o->periods, 0, sizeof(o->periods));
	if (cli_parse_u32_list(arg, 10, 1000000, o->periods,
			       PLAN_MAX_PERIODS - 1, &n, &why))
		return cli_error(ctx, CLI_EXIT_USAGE, "--periods %s: %s", arg,
				 why);
	return 0;
}

/*
 * store - the configuration row with its inputs key @key, in one
 * transaction; sets *@id.
 */
static int store(struct cli_ctx *ctx, memcal_db *db,
		 const struct tune_config *c, const char *doc,
		 const char *key, int64_t *id)
{
	struct memcal_config row;

	memset(&row, 0, sizeof(row));
	row.platform_id = c->platform_id;
	row.calibration_run_id = c->calibration_run_id;
	snprintf(row.mix, sizeof(row.mix), "%s", c->mix);
	row.document = (char *)doc;
	row.period_us = c->period_us;
	row.master_cpu = c->master_cpu;
	snprintf(row.created_at, sizeof(row.created_at), "%s", c->created_at);
	row.profile_ids = (int64_t *)c->profile_ids;
	row.n_profiles = (size_t)c->n_profiles;
	if (memcal_db_begin(db) || memcal_db_config_store(db, &row) ||
	    memcal_db_config_key_set(db, row.id, key) ||
	    memcal_db_commit(db)) {
		memcal_db_rollback(db);
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s",
				 memcal_db_errmsg(db));
	}
	*id = row.id;
	return 0;
}

/*
 * show_existing - configuration @id was planned from these very inputs:
 * say so and show it instead of storing a copy.
 */
static int show_existing(struct cli_ctx *ctx, memcal_db *db, int64_t id,
			 struct tune_config *c)
{
	int rc = tune_load_config(ctx, db, id, NULL, c, &id);

	if (rc)
		return rc;
	cli_info(ctx, "configuration %lld was planned from the same inputs "
		 "(mix file, profiles, platform profile, options): not stored "
		 "again", (long long)id);
	if (ctx->json)
		return cli_emit_json(ctx, json_pack("{s:I,s:b,s:o}",
						    "config_id", (json_int_t)id,
						    "existing", 1, "document",
						    tune_config_to_json(c)));
	tune_config_print(ctx->out, c, id);
	return 0;
}

static int plan_with(struct cli_ctx *ctx, memcal_db *db, const struct mix *m,
		     const struct plan_opts *o, struct tune_inputs *ti,
		     struct tune_config *c);

/*
 * reprofile - --reprofile and a profile missing or stale (@why): profile
 * the mix, then plan from the fresh inputs.
 */
static int reprofile(struct cli_ctx *ctx, memcal_db *db, const struct mix *m,
		     const struct plan_opts *o, struct tune_inputs *ti,
		     struct tune_config *c, const char *why)
{
	struct plan_opts again = *o;
	int rc;

	cli_info(ctx, "profiling mix '%s' again (--reprofile): %s", m->name,
		 why);
	again.reprofile = false;
	rc = tune_check_local_cpus(ctx, m);
	if (!rc)
		rc = tune_profile_mix(ctx, db, m, 0, 600, true);
	if (rc)
		return rc;
	tune_inputs_free(ti);
	memset(ti, 0, sizeof(*ti));
	return plan_with(ctx, db, m, &again, ti, c);
}

/* plan_with - plan @m against the database and store the result. */
static int plan_with(struct cli_ctx *ctx, memcal_db *db, const struct mix *m,
		     const struct plan_opts *o, struct tune_inputs *ti,
		     struct tune_config *c)
{
	bool exists[TUNE_MAX_CPUS];
	char err[1536], *doc, key[65];
	int64_t id = 0;
	json_t *j;
	int rc;

	if (tune_inputs_platform(db, ti, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	tune_inputs_machine(db, ti);
	for (int i = 0; i < TUNE_MAX_CPUS; i++)
		exists[i] = i < ti->in.nr_cpus;
	if (tune_mix_check_cpus(m, exists, ti->in.nr_cpus, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	if (tune_inputs_guaranteed(db, ti, o->streaming, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	tune_plan_floor_caches(ti->platform.topology_json, ti->in.nr_cpus,
			  ti->in.cache_bytes);
	if (tune_inputs_overhead(db, ti, o->assume_ns, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	if (tune_inputs_profiles(db, m, ti, err, sizeof(err)) ||
	    tune_profile_check(db, m, ti, err, sizeof(err)))
		return o->reprofile ? reprofile(ctx, db, m, o, ti, c, err) :
		       cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	memcpy(ti->in.periods_us, o->periods, sizeof(o->periods));
	if (tune_ident_inputs_key(ti, o->assume_ns, key, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	if (!memcal_db_config_find_key(db, key, &id))
		return show_existing(ctx, db, id, c);
	rc = tune_plan_run(&ti->in, c, err, sizeof(err));
	if (rc)
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot plan mix '%s': "
				 "%s", m->name, err);
	for (int i = 0; i < ti->n_notes; i++)
		tune_config_warn(c, "%s", ti->notes[i]);
	memcal_db_timestamp(c->created_at);
	j = tune_config_to_json(c);
	doc = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12)) : NULL;
	if (!doc) {
		json_decref(j);
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	}
	rc = store(ctx, db, c, doc, key, &id);
	free(doc);
	if (rc) {
		json_decref(j);
		return rc;
	}
	if (ctx->json)
		return cli_emit_json(ctx, json_pack("{s:s,s:I,s:o}", "db",
						    memcal_db_path(db),
						    "config_id", (json_int_t)id,
						    "document", j));
	json_decref(j);
	tune_config_print(ctx->out, c, id);
	return 0;
}

/**
 * tune_cmd_plan() - 'memtune plan MIX.yaml [--periods LIST_US]
 * [--assume-overhead-ns NS] [--reprofile] [--guarantees-from-streaming]'.
 */
int tune_cmd_plan(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		CLI_OPT("periods", 0, "LIST_US", 'p', "candidate periods in "
			"us (default 100,200,500,1000,2000,5000,10000,20000)"),
		CLI_OPT("assume-overhead-ns", 0, "NS", 'a', "regulation cost "
			"per period to assume when 'memcal overhead' has not "
			"run"),
		CLI_OPT_FLAG("reprofile", 0, struct plan_opts, reprofile,
			     "profile the mix first when a workload's profile "
			     "is missing or no longer matches it"),
		CLI_OPT_FLAG("guarantees-from-streaming", 0, struct plan_opts,
			     streaming, "reserve the guarantees from the "
			     "streaming sustainable bandwidth when the "
			     "calibration has no guaranteed figure (they may "
			     "not hold when every access misses its row; "
			     "warned)"),
		CLI_OPT_END,
	};
	struct plan_opts o;
	struct tune_inputs *ti = calloc(1, sizeof(*ti));
	struct tune_config *c = calloc(1, sizeof(*c));
	struct mix *m = calloc(1, sizeof(*m));
	memcal_db *db = NULL;
	char *mixpath = NULL;
	int npos, rc;

	memset(&o, 0, sizeof(o));
	if (!ti || !c || !m) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
		goto out;
	}
	rc = tune_parse_args(ctx, argc, argv, "MIX.yaml", opts, plan_option,
			     &o, &mixpath, 1, &npos);
	if (rc)
		goto out;
	if (npos != 1) {
		rc = cli_error(ctx, CLI_EXIT_USAGE, "plan takes one mix file; "
			       "see 'memtune plan --help'");
		goto out;
	}
	rc = tune_load_mix(ctx, mixpath, m);
	if (!rc)
		rc = tune_open_db(ctx, true, &db);
	if (!rc)
		rc = plan_with(ctx, db, m, &o, ti, c);
out:
	if (ti)
		tune_inputs_free(ti);
	free(ti);
	return tune_cmd_end(rc, m, c, db);
}
