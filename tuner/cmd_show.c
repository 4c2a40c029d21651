// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_show.c - 'memtune show [ID | --profile ID | --validation ID]': one
 * configuration (plan, reasons, provenance), workload profile or
 * validation in full; no record named: the newest configuration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memtune_cmds.h"

/* print_provenance - where configuration @id came from, and its validations. */
static int print_provenance(struct cli_ctx *ctx, memcal_db *db,
			    const struct tune_config *c, int64_t id)
{
	struct rec_sink s = { .ctx = ctx };
	struct memcal_config row;
	FILE *f = ctx->out;

	fprintf(f, "provenance:\n  created %s by memtune %s from %s (p%g, "
		"margin %g%%, traces: %s)\n", c->created_at, c->tool_version,
		c->mix_file, c->percentile, c->margin_pct, c->trace_sources);
	fprintf(f, "  platform %lld (%s, %s), calibration run %lld, overhead "
		"run %lld (%s)\n", (long long)c->platform_id, c->arch,
		c->cpu_model, (long long)c->calibration_run_id,
		(long long)c->overhead_run_id, c->overhead_method);
	if (memcal_db_config_get(db, id, &row))
		return tune_db_error(ctx, db);
	for (size_t i = 0; i < row.n_profiles; i++) {
		struct memcal_record r;

		if (!memcal_db_record_get(db, "profile", row.profile_ids[i],
					  &r))
			fprintf(f, "  profile %lld: %s, %s\n", (long long)r.id,
				r.name, r.created_at);
	}
	memcal_db_config_free(&row);
	fprintf(f, "validations:\n");
	if (memcal_db_record_dependents(db, "config", id, tune_rec_sink, &s))
		return tune_db_error(ctx, db);
	if (!s.n)
		fprintf(f, "  none: run 'memtune validate MIX.yaml --config "
			"%lld'\n", (long long)id);
	return 0;
}

/* show_config - configuration @id: plan, reasons, provenance. */
static int show_config(struct cli_ctx *ctx, memcal_db *db, int64_t id)
{
	struct tune_config *c = calloc(1, sizeof(*c));
	struct rec_sink s = { .ctx = ctx };
	int rc;

	if (!c)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	rc = tune_load_config(ctx, db, id, NULL, c, &id);
	if (!rc && ctx->json) {
		s.arr = json_array();
		if (memcal_db_record_dependents(db, "config", id,
						tune_rec_sink, &s)) {
			json_decref(s.arr);
			rc = tune_db_error(ctx, db);
		} else {
			rc = cli_emit_json(ctx, json_pack("{s:s,s:I,s:o,s:o}",
				"kind", "config", "id", (json_int_t)id,
				"document", tune_config_to_json(c), "validations",
				s.arr));
		}
	} else if (!rc) {
		tune_config_print(ctx->out, c, id);
		rc = print_provenance(ctx, db, c, id);
	}
	free(c);
	return rc;
}

/* trace_mean - mean bandwidth of @n samples of @tick_us. */
static double trace_mean(const uint64_t *v, size_t n, int tick_us)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += (double)v[i];
	return n && tick_us > 0 ? s / ((double)n * tick_us * 1e-6) : 0;
}

/* show_profile - workload profile @id and what depends on it. */
static int show_profile(struct cli_ctx *ctx, memcal_db *db, int64_t id)
{
	struct rec_sink s = { .ctx = ctx };
	struct memcal_profile p;
	struct memcal_binary b;
	double r, w;
	int rc = 0;

	if (memcal_db_profile_get(db, id, &p))
		return tune_db_error(ctx, db);
	if (memcal_db_profile_binary_get(db, id, &b)) {
		memcal_db_profile_free(&p);
		return tune_db_error(ctx, db);
	}
	r = trace_mean(p.trace_read, p.trace_len, p.trace_period_us);
	w = trace_mean(p.trace_write, p.trace_len, p.trace_period_us);
	if (ctx->json) {
		s.arr = json_array();
		if (memcal_db_record_dependents(db, "profile", id, tune_rec_sink,
						&s))
			rc = tune_db_error(ctx, db);
		else
			rc = cli_emit_json(ctx, json_pack(
				"{s:s,s:I,s:s,s:s,s:I,s:o,s:{s:s,s:I,s:s},s:s,"
				"s:i,s:i,s:f,s:f,s:f,s:s,s:i,s:I,s:f,s:f,s:s,"
				"s:O}", "kind", "profile", "id", (json_int_t)id,
				"mix", p.mix, "workload", p.workload,
				"platform_id", (json_int_t)p.platform_id,
				"argv", json_loads(p.argv_json ? p.argv_json :
						   "[]", 0, NULL),
				"binary", "path", b.path, "size",
				(json_int_t)b.size, "hash", b.hash,
				"criticality", p.criticality, "cpu", p.cpu,
				"runs", p.runs, "exec_median_ns",
				p.exec_median_ns, "exec_min_ns", p.exec_min_ns,
				"exec_max_ns", p.exec_max_ns, "trace_source",
				p.trace_source, "trace_period_us",
				p.trace_period_us, "trace_len",
				(json_int_t)p.trace_len, "mean_read_bps", r,
				"mean_write_bps", w, "created_at",
				p.created_at, "used_by", s.arr));
		json_decref(s.arr);
		memcal_db_profile_free(&p);
		return rc;
	}
	fprintf(ctx->out, "workload profile %lld: '%s' of mix '%s' "
		"(platform %lld)\n", (long long)id, p.workload, p.mix,
		(long long)p.platform_id);
	fprintf(ctx->out, "  created   %s\n  command   %s\n", p.created_at,
		p.argv_json ? p.argv_json : "[]");
	if (b.path[0])
		fprintf(ctx->out, "  binary    %s (%lld bytes, hash %s)\n",
			b.path, (long long)b.size, b.hash);
	else
		fprintf(ctx->out, "  binary    not recorded: profile the mix "
			"again before planning from it\n");
	fprintf(ctx->out, "  %s on cpu %d, %d runs: median %.1f ms (min %.1f, "
		"max %.1f)\n", !strcmp(p.criticality, "rt") ? "real-time" :
		"best-effort", p.cpu, p.runs, p.exec_median_ns / 1e6,
		p.exec_min_ns / 1e6, p.exec_max_ns / 1e6);
	fprintf(ctx->out, "  trace     %s, %zu samples of %d us: mean read "
		"%.1f MB/s, write %.1f MB/s\n", p.trace_source, p.trace_len,
		p.trace_period_us, r / 1e6, w / 1e6);
	fprintf(ctx->out, "used by:\n");
	memcal_db_profile_free(&p);
	if (memcal_db_record_dependents(db, "profile", id, tune_rec_sink, &s))
		return tune_db_error(ctx, db);
	if (!s.n)
		fprintf(ctx->out, "  no configuration\n");
	return 0;
}

/* result_json - one validation result as an object (validation_result
 * callback). */
static int result_json(const struct memcal_validation_result *r, void *user)
{
	return json_array_append_new(user, json_pack(
		"{s:s,s:i,s:f,s:f,s:f,s:f,s:I,s:I,s:I,s:I}", "workload",
		r->workload, "cpu", r->cpu, "solo_ns", r->solo_ns,
		"unregulated_ns", r->unregulated_ns, "regulated_ns",
		r->regulated_ns, "deadline_ns", r->deadline_ns, "jobs",
		(json_int_t)r->jobs, "deadline_misses",
		(json_int_t)r->deadline_misses, "throttles",
		(json_int_t)r->throttles, "throttled_ns",
		(json_int_t)r->throttled_ns));
}

/* result_line - one validation result as a line (callback). */
static int result_line(const struct memcal_validation_result *r, void *user)
{
	fprintf(user, "  %-16s %3d %10.1f %10.1f %10.1f %10.1f %6lld %6lld "
		"%9lld\n", r->workload, r->cpu, r->solo_ns / 1e6,
		r->unregulated_ns / 1e6, r->regulated_ns / 1e6,
		r->deadline_ns / 1e6, (long long)r->jobs,
		(long long)r->deadline_misses, (long long)r->throttles);
	return 0;
}

/* show_validation - validation run @id with its results. */
static int show_validation(struct cli_ctx *ctx, memcal_db *db, int64_t id)
{
	struct memcal_validation v;
	json_t *arr = NULL;
	int rc = 0;

	if (memcal_db_validation_get(db, id, &v))
		return tune_db_error(ctx, db);
	if (ctx->json) {
		arr = json_array();
		if (memcal_db_validation_result_list(db, id, result_json, arr))
			rc = tune_db_error(ctx, db);
		else
			rc = cli_emit_json(ctx, json_pack(
				"{s:s,s:I,s:I,s:s,s:s,s:b,s:s,s:O}", "kind",
				"validation", "id", (json_int_t)id, "config_id",
				(json_int_t)v.config_id, "started_at",
				v.started_at, "finished_at", v.finished_at,
				"regulated", v.regulated, "notes",
				v.notes ? v.notes : "", "results", arr));
		json_decref(arr);
		memcal_db_validation_free(&v);
		return rc;
	}
	fprintf(ctx->out, "validation %lld of configuration %lld: %s to %s, "
		"%s\n", (long long)id, (long long)v.config_id, v.started_at,
		v.finished_at, v.regulated ? "unregulated and regulated" :
		"unregulated only");
	if (v.notes && v.notes[0])
		fprintf(ctx->out, "  notes: %s\n", v.notes);
	fprintf(ctx->out, "  %-16s %3s %10s %10s %10s %10s %6s %6s %9s\n",
		"workload", "cpu", "solo_ms", "unreg_ms", "reg_ms",
		"deadline_ms", "jobs", "misses", "throttles");
	memcal_db_validation_free(&v);
	if (memcal_db_validation_result_list(db, id, result_line, ctx->out))
		return tune_db_error(ctx, db);
	return 0;
}

/**
 * tune_cmd_show() - 'memtune show [ID | --profile ID | --validation
 * ID]'; no record named: the newest configuration.
 */
int tune_cmd_show(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "profile", 0, "ID", 'P', "show workload profile ID" },
		{ "validation", 0, "ID", 'V', "show validation ID" },
		{ NULL, 0, NULL, 0, NULL },
	};
	struct rec_opts o;
	memcal_db *db = NULL;
	int rc = tune_rec_args(ctx, argc, argv, "[ID | --profile ID | "
			       "--validation ID]", opts, &o, false);

	if (!rc)
		rc = tune_open_db(ctx, false, &db);
	if (rc)
		return rc;
	if (o.kind && !strcmp(o.kind, "profile"))
		rc = show_profile(ctx, db, o.id);
	else if (o.kind && !strcmp(o.kind, "validation"))
		rc = show_validation(ctx, db, o.id);
	else
		rc = show_config(ctx, db, o.id);
	memcal_db_close(db);
	return rc;
}
