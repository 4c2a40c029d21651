// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_validate.c - 'memtune validate MIX.yaml [--config ID]': the command
 * line of a validation.  It checks that the configuration is this mix's
 * and that every workload has a solo profile, has validate.c run the mix
 * unregulated, under static budgets and regulated, and stores and prints
 * the slowdowns, deadline misses, throttle statistics and per-job latency
 * as one validation run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memtune_cmds.h"
#include "validate.h"

/* on_solo - the newest solo profile time of each workload. */
static int on_solo(const struct memcal_profile *p, void *user)
{
	void **ctx = user;
	const struct mix *m = ctx[0];
	double *solo = ctx[1];
	int i = tune_mix_find(m, p->workload);

	if (i >= 0 && solo[i] == 0)
		solo[i] = p->exec_median_ns;
	return 0;
}

/* check_match - the configuration must be for this mix and placement. */
static int check_match(struct cli_ctx *ctx, const struct mix *m,
		       const struct tune_config *c)
{
	if (strcmp(c->mix, m->name) || c->n_wl != m->n)
		return cli_error(ctx, CLI_EXIT_FAILURE, "configuration is for "
				 "mix '%s' (%d workloads), not '%s' (%d): plan "
				 "this mix first ('memtune plan %s')", c->mix,
				 c->n_wl, m->name, m->n, m->path);
	for (int i = 0; i < m->n; i++)
		if (strcmp(c->wl[i].name, m->wl[i].name))
			return cli_error(ctx, CLI_EXIT_FAILURE, "workload %d is "
					 "'%s' in the configuration but '%s' in "
					 "%s: plan it again", i, c->wl[i].name,
					 m->wl[i].name, m->path);
	return 0;
}

/* output - the results as a table or JSON. */
static int output(struct cli_ctx *ctx, int64_t vid, bool regulated,
		  const char *note, const struct memcal_validation_result *r,
		  int n, const struct vlat *lat, const struct mix *m)
{
	bool has_static = n > 0 && r[0].has_static;
	json_t *a = json_array();

	if (!ctx->json) {
		fprintf(ctx->out, "validation %lld (%s)%s%s\n", (long long)vid,
			tune_validate_conditions(regulated, has_static),
			note[0] ? ": " : "", note);
		fprintf(ctx->out, "%-16s %4s %10s %9s %9s %9s %6s %9s %12s "
			"%9s %9s\n", "workload", "cpu", "solo_ms", "unreg_x",
			"static_x", "reg_x", "misses", "throttles",
			"throttled_ms", "st_misses", "st_thrott");
	}
	for (int i = 0; i < n; i++) {
		char reg[16] = "-", st[16] = "-", sm[24] = "-", sth[24] = "-";

		if (ctx->json) {
			json_array_append_new(a, tune_validate_result_json(
					      &r[i], regulated));
			continue;
		}
		if (regulated && r[i].solo_ns > 0)
			snprintf(reg, sizeof(reg), "%.2f",
				 r[i].regulated_ns / r[i].solo_ns);
		if (r[i].has_static && r[i].solo_ns > 0) {
			snprintf(st, sizeof(st), "%.2f",
				 r[i].static_ns / r[i].solo_ns);
			snprintf(sm, sizeof(sm), "%lld",
				 (long long)r[i].static_deadline_misses);
			snprintf(sth, sizeof(sth), "%lld",
				 (long long)r[i].static_throttles);
		}
		fprintf(ctx->out, "%-16s %4d %10.1f %9.2f %9s %9s %6lld %9lld "
			"%12.1f %9s %9s\n", r[i].workload, r[i].cpu,
			r[i].solo_ns / 1e6, r[i].solo_ns > 0 ?
			r[i].unregulated_ns / r[i].solo_ns : 0, st, reg,
			(long long)r[i].deadline_misses,
			(long long)r[i].throttles,
			(double)r[i].throttled_ns / 1e6, sm, sth);
	}
	if (ctx->json)
		return cli_emit_json(ctx, json_pack("{s:I,s:b,s:b,s:s,s:o,s:o}",
						    "validation_id",
						    (json_int_t)vid, "regulated",
						    regulated, "static",
						    has_static, "notes", note,
						    "results", a, "latency",
						    tune_vlat_json(lat, m)));
	json_decref(a);
	tune_vlat_print(ctx->out, lat, m);
	return 0;
}

/* store - the validation run and its results in one transaction. */
static int store(struct cli_ctx *ctx, memcal_db *db,
		 struct memcal_validation *v,
		 const struct memcal_validation_result *r, int n,
		 const struct vlat *lat, const struct mix *m)
{
	if (memcal_db_begin(db) || memcal_db_validation_store(db, v))
		goto fail;
	for (int i = 0; i < n; i++)
		if (memcal_db_validation_result_store(db, v->id, &r[i]))
			goto fail;
	if (tune_vlat_store(db, v->id, lat, m))
		goto fail;
	if (!memcal_db_commit(db))
		return 0;
fail:
	memcal_db_rollback(db);
	return cli_error(ctx, CLI_EXIT_FAILURE, "%s", memcal_db_errmsg(db));
}

/* cpus_of - each workload's core in @c, into @cpus. */
static const int *cpus_of(const struct tune_config *c, int n, int *cpus)
{
	for (int i = 0; i < n; i++)
		cpus[i] = c->wl[i].cpu;
	return cpus;
}

/*
 * latency_notes - append to @note what per-job timing could not measure:
 * the regulated distributions without a regulator, and @lat's own note.
 */
static void latency_notes(struct cli_ctx *ctx, const struct vlat *lat,
			  bool regulated, char *note, size_t len)
{
	size_t n = strlen(note);

	if (tune_vlat_any(lat) && !regulated) {
		snprintf(note + n, len - n, "%sper-job latency: regulated "
			 "distribution unavailable (memreg could not be "
			 "loaded here); solo and co-run unregulated stored",
			 n ? "; " : "");
		cli_warn(ctx, "%s", note + n + (n ? 2 : 0));
		n = strlen(note);
	}
	if (lat->note[0]) {
		snprintf(note + n, len - n, "%s%s", n ? "; " : "", lat->note);
		cli_warn(ctx, "%s", lat->note);
	}
}

/**
 * tune_cmd_validate() - 'memtune validate MIX.yaml [--config ID]
 * [--runs N] [--module PATH] [--sysfs DIR] [--keep] [--no-static]'.
 */
int tune_cmd_validate(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		TUNE_OPT_CONFIG(struct validate_opts),
		CLI_OPT_UINT("runs", 'r', "N", struct validate_opts, runs, 1,
			     50, "co-scheduled runs per mode, median kept (1)"),
		TUNE_OPT_TIMEOUT(struct validate_opts, "kill a co-scheduled "
				 "run after S seconds (600)"),
		TUNE_OPT_REG(struct validate_opts, "memreg.ko to load if "
			     "memreg is not loaded"),
		CLI_OPT_FLAG("keep", 0, struct validate_opts, keep, "leave "
			     "memreg loaded afterwards"),
		CLI_OPT_FLAG("no-static", 0, struct validate_opts, no_static,
			     "leave out the static-budget run "
			     "(MemGuard-style, ceiling = guarantee)"),
		CLI_OPT_END,
	};
	struct validate_opts o = { .runs = 1, .timeout_s = 600 };
	struct memcal_validation_result r[MIX_MAX_WORKLOADS];
	struct tune_config *c = calloc(1, sizeof(*c));
	struct mix *m = calloc(1, sizeof(*m));
	struct memcal_validation v;
	double solo[MIX_MAX_WORKLOADS] = { 0 };
	char note[1200] = "";
	struct vlat *lat = calloc(1, sizeof(*lat));
	int cpus[MIX_MAX_WORKLOADS];
	memcal_db *db = NULL;
	int rc;
	void *pctx[2] = { m, solo };

	memset(&v, 0, sizeof(v));
	if (!c || !m || !lat) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
		goto out;
	}
	rc = tune_mix_prologue(ctx, argc, argv, "MIX.yaml [--config ID]", opts,
			       NULL, &o, m, &db);
	if (!rc)
		rc = tune_load_config(ctx, db, o.id, NULL, c, &v.config_id);
	if (!rc)
		rc = check_match(ctx, m, c);
	if (rc)
		goto out;
	memcal_db_profile_latest(db, c->platform_id, m->name, on_solo, pctx);
	for (int i = 0; i < m->n && !rc; i++)
		if (solo[i] <= 0)
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload '%s' has "
				       "no solo profile: run 'memtune profile "
				       "%s' first", m->wl[i].name, m->path);
	if (rc)
		goto out;
	memcal_db_timestamp(v.started_at);
	rc = tune_vlat_init(lat, m, cpus_of(c, m->n, cpus));
	if (!rc)
		rc = tune_validate_run(ctx, m, c, &o, solo, &v, r, lat, note,
				  sizeof(note));
	if (rc)
		goto out;
	memcal_db_timestamp(v.finished_at);
	latency_notes(ctx, lat, v.regulated, note, sizeof(note));
	v.notes = note;
	rc = store(ctx, db, &v, r, m->n, lat, m);
	if (!rc)
		rc = output(ctx, v.id, v.regulated, note, r, m->n, lat, m);
out:
	if (lat)
		tune_vlat_free(lat);
	free(lat);
	return tune_cmd_end(rc, m, c, db);
}
