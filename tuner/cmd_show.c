// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_show.c - 'memtune show [ID | --profile ID | --validation ID]': one
 * configuration (plan, reasons, provenance), workload profile or
 * validation in full; no record named: the newest configuration.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_db_job_latency.h"
#include "memcal_figures.h"
#include "memcal_figures.h"
#include "memtune_cmds.h"
#include "validate.h"

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

/**
 * struct shown - one validation as read back for show.
 * @res, @n_res:  its results, in mix order.
 * @lat, @n_lat:  its per-job latency rows.
 * @has_static:   the static condition ran (false for a validation stored
 *                before it existed, or run with --no-static).
 */
struct shown {
	struct memcal_validation_result *res;
	size_t n_res;
	struct memcal_job_latency *lat;
	size_t n_lat;
	bool has_static;
};

/* on_result - collect one validation result (callback). */
static int on_result(const struct memcal_validation_result *r, void *user)
{
	struct shown *s = user;

	s->has_static |= r->has_static;
	return fig_push((void **)&s->res, &s->n_res, sizeof(*r), r);
}

/* on_latency - collect one latency row, its histogram dropped (callback). */
static int on_latency(const struct memcal_job_latency *l, void *user)
{
	struct shown *s = user;
	struct memcal_job_latency c = *l;

	c.histogram = NULL;
	return fig_push((void **)&s->lat, &s->n_lat, sizeof(c), &c);
}

/* cell - @v with @dec decimals in @buf when @ok, else "-". */
static const char *cell(char *buf, size_t len, bool ok, int dec, double v)
{
	if (!ok)
		return "-";
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}

/*
 * print_compare - static against regulated, side by side: each workload's
 * slowdown per condition, then a real-time workload's p99 job latency and
 * misses, a best-effort workload's throughput (solo time over co-run
 * time).  A validation without the static condition says so.
 */
static void print_compare(FILE *f, const struct shown *s, bool regulated)
{
	fprintf(f, "static against regulated (slowdown: co-run time / solo "
		"time; throughput: solo time / co-run time):\n");
	if (!s->has_static)
		fprintf(f, "  static not measured (validation without the "
			"static condition)\n");
	fprintf(f, "  %-16s %-4s %8s %8s %8s  %s\n", "workload", "kind",
		"unreg_x", "static_x", "reg_x",
		"p99_ms or throughput (unreg/static/reg), misses (static/reg)");
	for (size_t i = 0; i < s->n_res; i++) {
		const struct memcal_validation_result *r = &s->res[i];
		bool rt = r->deadline_ns > 0;
		char b[FIG_N_CORUN][24], x[FIG_N_CORUN][24], m[24];
		const char *bs[FIG_N_CORUN], *xs[FIG_N_CORUN];

		for (int k = 0; k < FIG_N_CORUN; k++) {
			const struct memcal_job_latency *l =
				fig_job_latency_find(s->lat, s->n_lat,
							r->workload,
							fig_corun_name[k]);
			double t = fig_corun_ns(r, regulated, k);
			bool ok = !isnan(t) && r->solo_ns > 0;

			xs[k] = cell(x[k], sizeof(x[k]), ok, 2, t / r->solo_ns);
			if (rt)
				bs[k] = cell(b[k], sizeof(b[k]), ok && l, 3,
					     l ? (double)l->p99_ns / 1e6 : 0);
			else
				bs[k] = cell(b[k], sizeof(b[k]), ok, 2,
					     r->solo_ns / t);
		}
		fprintf(f, "  %-16s %-4s %8s %8s %8s  %s %s/%s/%s", r->workload,
			rt ? "rt" : "be", xs[0], xs[1], xs[2],
			rt ? "p99_ms" : "throughput", bs[0], bs[1], bs[2]);
		if (rt)
			fprintf(f, ", misses %s/%lld",
				cell(m, sizeof(m), r->has_static, 0,
				     (double)r->static_deadline_misses),
				(long long)r->deadline_misses);
		fputc('\n', f);
	}
}

/* show_validation - validation run @id with its results. */
static int show_validation(struct cli_ctx *ctx, memcal_db *db, int64_t id)
{
	struct memcal_validation v;
	struct shown s = { 0 };
	json_t *arr, *lat;
	int rc = 0;

	if (memcal_db_validation_get(db, id, &v))
		return tune_db_error(ctx, db);
	if (memcal_db_validation_result_list(db, id, on_result, &s) ||
	    memcal_db_job_latency_list(db, id, on_latency, &s)) {
		rc = tune_db_error(ctx, db);
		goto out;
	}
	if (ctx->json) {
		arr = json_array();
		lat = json_array();
		for (size_t i = 0; i < s.n_res; i++)
			json_array_append_new(arr, tune_validate_result_json(
					      &s.res[i], v.regulated));
		for (size_t i = 0; i < s.n_lat; i++)
			json_array_append_new(lat, fig_job_latency_row_json(
					      &s.lat[i]));
		rc = cli_emit_json(ctx, json_pack(
			"{s:s,s:I,s:I,s:s,s:s,s:b,s:b,s:s,s:o,s:o}", "kind",
			"validation", "id", (json_int_t)id, "config_id",
			(json_int_t)v.config_id, "started_at", v.started_at,
			"finished_at", v.finished_at, "regulated",
			v.regulated, "static", s.has_static, "notes",
			v.notes ? v.notes : "", "results", arr, "latency",
			lat));
		goto out;
	}
	fprintf(ctx->out, "validation %lld of configuration %lld: %s to %s, "
		"%s\n", (long long)id, (long long)v.config_id, v.started_at,
		v.finished_at, tune_validate_conditions(v.regulated,
							s.has_static));
	if (v.notes && v.notes[0])
		fprintf(ctx->out, "  notes: %s\n", v.notes);
	fprintf(ctx->out, "  %-16s %3s %10s %10s %10s %10s %6s %6s %9s %10s "
		"%9s %9s\n", "workload", "cpu", "solo_ms", "unreg_ms", "reg_ms",
		"deadline_ms", "jobs", "misses", "throttles", "static_ms",
		"st_misses", "st_thrott");
	for (size_t i = 0; i < s.n_res; i++) {
		const struct memcal_validation_result *r = &s.res[i];
		char st[3][24];

		fprintf(ctx->out, "  %-16s %3d %10.1f %10.1f %10.1f %10.1f "
			"%6lld %6lld %9lld %10s %9s %9s\n", r->workload, r->cpu,
			r->solo_ns / 1e6, r->unregulated_ns / 1e6,
			r->regulated_ns / 1e6, r->deadline_ns / 1e6,
			(long long)r->jobs, (long long)r->deadline_misses,
			(long long)r->throttles,
			cell(st[0], 24, r->has_static, 1,
			     r->static_ns / 1e6),
			cell(st[1], 24, r->has_static, 0,
			     (double)r->static_deadline_misses),
			cell(st[2], 24, r->has_static, 0,
			     (double)r->static_throttles));
	}
	print_compare(ctx->out, &s, v.regulated);
out:
	free(s.res);
	free(s.lat);
	memcal_db_validation_free(&v);
	return rc;
}

/**
 * tune_cmd_show() - 'memtune show [ID | --profile ID | --validation
 * ID]'; no record named: the newest configuration.
 */
int tune_cmd_show(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		CLI_OPT("profile", 0, "ID", 'P', "show workload profile ID"),
		CLI_OPT("validation", 0, "ID", 'V', "show validation ID"),
		CLI_OPT_END,
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
