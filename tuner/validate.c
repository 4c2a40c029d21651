// SPDX-License-Identifier: GPL-2.0-only
/*
 * validate.c - memtune validate MIX.yaml [--config ID]: run the mix
 * co-scheduled, every workload pinned where the configuration puts it,
 * first unregulated (memreg absent or in monitor-only mode), then under
 * regulation with the configuration applied; report each workload's
 * slowdown against its solo run (the metric of the MemGuard and MemPol
 * papers), deadline misses of real-time workloads and memreg's throttle
 * statistics; store it all as one validation run.
 *
 * Deadline misses: a periodic memcal-load reports its jobs and misses
 * ($MEMCAL_LOAD_REPORT); any other real-time command counts as one job
 * whose deadline is the mix's deadline_us.  Per-job latency: every
 * real-time workload's jobs are also timed solo, co-run unregulated and
 * co-run regulated (validate_latency.c: its own job report, or cyclictest
 * beside it) and the distributions stored with the validation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "memtune_cmds.h"
#include "validate_latency.h"
#include "workload_run.h"

/**
 * struct validate_opts - options of 'memtune validate'.
 * @id:       --config.
 * @runs:     co-scheduled repetitions per mode (median kept).
 * @timeout_s: per co-scheduled run.
 * @reg:      where memreg is.
 * @keep:     leave memreg loaded when validate loaded it.
 */
struct validate_opts {
	int64_t id;
	unsigned runs;
	unsigned timeout_s;
	struct tune_reg reg;
	bool keep;
};

/**
 * struct co_result - one workload in one mode.
 * @ns:     median co-scheduled execution time.
 * @jobs, @misses: deadline accounting (summed over runs).
 */
struct co_result {
	double ns;
	int64_t jobs, misses;
};

/* read_report - jobs and misses from a memcal-load report; 0 if read. */
static int read_report(const char *path, int64_t *jobs, int64_t *misses)
{
	FILE *f = fopen(path, "r");
	long long j, m, mx;
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "jobs %lld misses %lld max_ns %lld", &j, &m, &mx);
	fclose(f);
	if (n != 3)
		return -1;
	*jobs = j;
	*misses = m;
	return 0;
}

/* cmp_d - qsort comparator for doubles. */
static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * co_run - run every workload of @m at once (only workload @only when it
 * is not -1), pinned per @c, @o->runs times; fill @res per workload and
 * add the real-time workloads' job times to @lat's condition @cond.
 * Returns 0 or a CLI exit code.
 */
static int co_run(struct cli_ctx *ctx, const struct mix *m,
		  const struct tune_config *c, const struct validate_opts *o,
		  int only, enum vlat_cond cond, struct vlat *lat,
		  struct co_result *res)
{
	struct runner_job jobs[MIX_MAX_WORKLOADS];
	char paths[MIX_MAX_WORKLOADS][64], err[512];
	int first = only < 0 ? 0 : only, n = only < 0 ? m->n : 1;
	double *t = calloc((size_t)m->n * o->runs, sizeof(double));
	int rc = 0;

	if (!t)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	memset(res, 0, sizeof(*res) * (size_t)m->n);
	for (unsigned r = 0; r < o->runs && !rc; r++) {
		int started = 0;

		for (int i = 0; i < m->n; i++) {
			int fd;

			memset(&jobs[i], 0, sizeof(jobs[i]));
			if (i < first || i >= first + n)
				continue;
			snprintf(paths[i], sizeof(paths[i]),
				 "/tmp/memtune-report-XXXXXX");
			fd = mkstemp(paths[i]);
			if (fd >= 0) {
				close(fd);
				unlink(paths[i]);
			}
			jobs[i].argv = m->wl[i].argv;
			jobs[i].cpu = c->wl[i].cpu;
			jobs[i].report_path = paths[i];
		}
		for (int i = first; i < first + n && !rc; i++, started++) {
			vlat_start(lat, i, &jobs[i]);
			if (runner_start(&jobs[i], err, sizeof(err)))
				rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload "
					       "'%s': %s", m->wl[i].name, err);
		}
		if (runner_wait_all(jobs + first, started, (uint64_t)o->timeout_s
				    * 1000000000ull, err, sizeof(err)) && !rc)
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
		for (int i = first; i < first + started; i++) {
			int64_t j = 0, mi = 0;

			if (!rc && runner_exit_ok(&jobs[i], err, sizeof(err)))
				rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload "
					       "'%s' failed co-scheduled: %s",
					       m->wl[i].name, err);
			t[(size_t)i * o->runs + r] =
				(double)(jobs[i].end_ns - jobs[i].start_ns);
			if (!read_report(paths[i], &j, &mi)) {
				res[i].jobs += j;
				res[i].misses += mi;
			} else if (m->wl[i].rt) {
				res[i].jobs++;
				res[i].misses += t[(size_t)i * o->runs + r] >
						 (double)m->wl[i].deadline_ns;
			}
			vlat_collect(lat, cond, i, paths[i]);
			unlink(paths[i]);
		}
	}
	for (int i = first; !rc && i < first + n; i++) {
		qsort(t + (size_t)i * o->runs, o->runs, sizeof(double), cmp_d);
		res[i].ns = t[(size_t)i * o->runs + o->runs / 2];
	}
	free(t);
	return rc;
}

/* solo_ns - the newest solo profile time of each workload. */
static int on_solo(const struct memcal_profile *p, void *user)
{
	void **ctx = user;
	const struct mix *m = ctx[0];
	double *solo = ctx[1];
	int i = mix_find(m, p->workload);

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

/*
 * regulate - bring memreg into the regulated state of @c; false (with a
 * note) when that is not possible here.
 */
static bool regulate(struct cli_ctx *ctx, struct validate_opts *o,
		     const struct tune_config *c, char *note, size_t len)
{
	char err[512];
	int rc;

	/* loaded: stage this configuration (monitor off) and commit;
	 * else load memreg with it */
	rc = tune_reg_apply(&o->reg, c, err, sizeof(err));
	if (rc) {
		snprintf(note, len, "regulated run skipped: %s", err);
		cli_warn(ctx, "%s", note);
		return false;
	}
	return true;
}

/* stats_all - per-CPU statistics snapshot (zeros where unreadable). */
static void stats_all(struct validate_opts *o, const struct tune_config *c,
		      struct tune_reg_stats *s)
{
	for (int i = 0; i < c->n_cpus; i++)
		if (tune_reg_stats(&o->reg, c->cpus[i].cpu, &s[i]))
			memset(&s[i], 0, sizeof(s[i]));
}

/* output - the results as a table or JSON. */
static int output(struct cli_ctx *ctx, int64_t vid, bool regulated,
		  const char *note, const struct memcal_validation_result *r,
		  int n, const struct vlat *lat, const struct mix *m)
{
	json_t *a = json_array();

	if (!ctx->json) {
		fprintf(ctx->out, "validation %lld (%s)%s%s\n", (long long)vid,
			regulated ? "unregulated and regulated" :
			"unregulated only", note[0] ? ": " : "", note);
		fprintf(ctx->out, "%-16s %4s %10s %9s %9s %6s %9s %12s\n",
			"workload", "cpu", "solo_ms", "unreg_x", "reg_x",
			"misses", "throttles", "throttled_ms");
	}
	for (int i = 0; i < n; i++) {
		double su = r[i].solo_ns > 0 ? r[i].unregulated_ns /
			    r[i].solo_ns : 0;
		double sr = r[i].solo_ns > 0 && regulated ? r[i].regulated_ns /
			    r[i].solo_ns : 0;

		if (ctx->json)
			json_array_append_new(a, json_pack(
				"{s:s,s:i,s:f,s:f,s:f,s:f,s:f,s:f,s:I,s:I,s:I,"
				"s:I}", "workload", r[i].workload, "cpu",
				r[i].cpu, "solo_ns", r[i].solo_ns,
				"unregulated_ns", r[i].unregulated_ns,
				"regulated_ns", r[i].regulated_ns,
				"slowdown_unregulated", su,
				"slowdown_regulated", sr, "deadline_ns",
				r[i].deadline_ns, "jobs", (json_int_t)r[i].jobs,
				"deadline_misses",
				(json_int_t)r[i].deadline_misses, "throttles",
				(json_int_t)r[i].throttles, "throttled_ns",
				(json_int_t)r[i].throttled_ns));
		else {
			char reg[16] = "-";

			if (regulated)
				snprintf(reg, sizeof(reg), "%.2f", sr);
			fprintf(ctx->out, "%-16s %4d %10.1f %9.2f %9s %6lld "
				"%9lld %12.1f\n", r[i].workload, r[i].cpu,
				r[i].solo_ns / 1e6, su, reg,
				(long long)r[i].deadline_misses,
				(long long)r[i].throttles,
				(double)r[i].throttled_ns / 1e6);
		}
	}
	if (ctx->json)
		return cli_emit_json(ctx, json_pack("{s:I,s:b,s:s,s:o,s:o}",
						    "validation_id",
						    (json_int_t)vid, "regulated",
						    regulated, "notes", note,
						    "results", a, "latency",
						    vlat_json(lat, m)));
	json_decref(a);
	vlat_print(ctx->out, lat, m);
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
	if (vlat_store(db, v->id, lat, m))
		goto fail;
	if (!memcal_db_commit(db))
		return 0;
fail:
	memcal_db_rollback(db);
	return cli_error(ctx, CLI_EXIT_FAILURE, "%s", memcal_db_errmsg(db));
}

/* validate_option - option callback. */
static int validate_option(struct cli_ctx *ctx, int key, const char *arg,
			   void *user)
{
	struct validate_opts *o = user;
	const char *why;
	uint64_t v;

	switch (key) {
	case 'c':
		return tune_parse_id(ctx, arg, &o->id);
	case 'r':
	case 't':
		if (cli_parse_u64(arg, 1, key == 'r' ? 50 : 86400, &v, &why))
			return cli_error(ctx, CLI_EXIT_USAGE, "--%s %s: %s",
					 key == 'r' ? "runs" : "timeout", arg,
					 why);
		if (key == 'r')
			o->runs = (unsigned)v;
		else
			o->timeout_s = (unsigned)v;
		return 0;
	case 'm':
		o->reg.module = arg;
		return 0;
	case 's':
		o->reg.sysfs = arg;
		return 0;
	case 'k':
		o->keep = true;
		return 0;
	}
	return CLI_EXIT_USAGE;
}

/*
 * run_modes - the unregulated and (where possible) regulated co-runs and
 * the per-workload results.  Returns 0 or a CLI exit code.
 */
static int run_modes(struct cli_ctx *ctx, const struct mix *m,
		     const struct tune_config *c, struct validate_opts *o,
		     const double *solo, struct memcal_validation *v,
		     struct memcal_validation_result *r, struct vlat *lat,
		     char *note, size_t len)
{
	struct co_result un[MIX_MAX_WORKLOADS], re[MIX_MAX_WORKLOADS];
	struct tune_reg_stats s0[TUNE_MAX_CPUS], s1[TUNE_MAX_CPUS];
	char err[512];
	bool was_loaded = tune_reg_loaded(&o->reg);
	int rc;

	if (was_loaded && tune_reg_monitor(&o->reg, true, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot switch memreg "
				 "to monitor-only for the unregulated run: %s",
				 err);
	for (int i = 0; i < m->n; i++)
		if (lat->probe[i] != VLAT_NONE) {
			cli_info(ctx, "'%s' alone, its jobs timed",
				 m->wl[i].name);
			rc = co_run(ctx, m, c, o, i, VLAT_SOLO, lat, un);
			if (rc)
				return rc;
		}
	cli_info(ctx, "co-scheduled run, unregulated (%u run%s)", o->runs,
		 o->runs == 1 ? "" : "s");
	rc = co_run(ctx, m, c, o, -1, VLAT_UNREG, lat, un);
	if (rc)
		return rc;
	v->regulated = regulate(ctx, o, c, note, len);
	memset(re, 0, sizeof(re));
	memset(s0, 0, sizeof(s0));
	memset(s1, 0, sizeof(s1));
	if (v->regulated) {
		cli_info(ctx, "co-scheduled run, regulated");
		stats_all(o, c, s0);
		rc = co_run(ctx, m, c, o, -1, VLAT_REG, lat, re);
		stats_all(o, c, s1);
		if (o->reg.loaded_here && !o->keep &&
		    tune_reg_unload(&o->reg, err, sizeof(err)))
			cli_warn(ctx, "could not unload memreg: %s", err);
		if (rc)
			return rc;
	}
	for (int i = 0; i < m->n; i++) {
		int k = -1;

		for (int j = 0; j < c->n_cpus; j++)
			if (c->cpus[j].cpu == c->wl[i].cpu)
				k = j;
		memset(&r[i], 0, sizeof(r[i]));
		snprintf(r[i].workload, sizeof(r[i].workload), "%s",
			 m->wl[i].name);
		r[i].cpu = c->wl[i].cpu;
		r[i].solo_ns = solo[i];
		r[i].unregulated_ns = un[i].ns;
		r[i].regulated_ns = re[i].ns;
		r[i].deadline_ns = (double)m->wl[i].deadline_ns;
		r[i].jobs = v->regulated ? re[i].jobs : un[i].jobs;
		r[i].deadline_misses = v->regulated ? re[i].misses :
				       un[i].misses;
		if (k >= 0) {
			r[i].throttles = (int64_t)(s1[k].throttles -
						   s0[k].throttles);
			r[i].throttled_ns = (int64_t)(s1[k].throttled_ns -
						      s0[k].throttled_ns);
		}
	}
	return 0;
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

	if (vlat_any(lat) && !regulated) {
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
 * memtune_cmd_validate() - 'memtune validate MIX.yaml [--config ID]
 * [--runs N] [--module PATH] [--sysfs DIR] [--keep]'.
 */
int memtune_cmd_validate(struct cli_ctx *ctx, int argc, char **argv)
{
	static const struct cli_option opts[] = {
		{ "config", 'c', "ID", 'c', "tuned configuration (default: the "
		  "newest)" },
		{ "runs", 'r', "N", 'r', "co-scheduled runs per mode, median "
		  "kept (1)" },
		{ "timeout", 0, "S", 't', "kill a co-scheduled run after S "
		  "seconds (600)" },
		{ "module", 0, "PATH", 'm', "memreg.ko to load if memreg is not "
		  "loaded" },
		{ "sysfs", 0, "DIR", 's', "memreg's sysfs root "
		  "(/sys/kernel/memreg)" },
		{ "keep", 0, NULL, 'k', "leave memreg loaded afterwards" },
		{ NULL, 0, NULL, 0, NULL },
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
			       validate_option, &o, m, &db);
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
	rc = vlat_init(lat, m, cpus_of(c, m->n, cpus));
	if (!rc)
		rc = run_modes(ctx, m, c, &o, solo, &v, r, lat, note,
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
		vlat_free(lat);
	free(lat);
	free(c);
	if (m)
		mix_free(m);
	free(m);
	memcal_db_close(db);
	return rc;
}
