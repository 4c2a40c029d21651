// SPDX-License-Identifier: GPL-2.0-only
/*
 * validate.c - the runs of 'memtune validate' (cmd_validate.c): the mix
 * co-scheduled, every workload pinned where the configuration puts it,
 * first unregulated (memreg absent or in monitor-only mode), then under
 * MemGuard-style static budgets (each core held to its guarantee, no
 * adaptation or sharing; tune_validate_static_config()), then under
 * regulation with the configuration applied; each workload's time
 * against its solo run (the slowdown, the metric of the MemGuard and
 * MemPol papers), deadline misses of real-time workloads and memreg's
 * throttle statistics.
 *
 * Deadline misses: a periodic memcal-load reports its jobs and misses
 * ($MEMCAL_LOAD_REPORT); any other real-time command counts as one job
 * whose deadline is the mix's deadline_us.  Per-job latency: every
 * real-time workload's jobs are also timed solo and in each co-run
 * condition (validate_latency.c: its own job report, or cyclictest
 * beside it) and the distributions stored with the validation; static
 * and regulated co-runs are timed alike, so their figures compare.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memcal_figures.h"
#include "validate.h"
#include "workload_run.h"

/**
 * struct co_result - one workload in one mode.
 * @ns:     median co-scheduled execution time.
 * @jobs, @misses: deadline accounting (summed over runs).
 */
struct co_result {
	double ns;
	int64_t jobs, misses;
};

/*
 * read_report - jobs and misses from a memcal-load report; 0,
 * MEMCAL_ECANTOPEN or MEMCAL_ESYNTAX.
 */
static int read_report(const char *path, int64_t *jobs, int64_t *misses)
{
	FILE *f = fopen(path, "r");
	long long j, m, mx;
	int n;

	if (!f)
		return MEMCAL_ECANTOPEN;
	n = fscanf(f, "jobs %lld misses %lld max_ns %lld", &j, &m, &mx);
	fclose(f);
	if (n != 3)
		return MEMCAL_ESYNTAX;
	*jobs = j;
	*misses = m;
	return 0;
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
			tune_vlat_start(lat, i, &jobs[i]);
			if (tune_runner_start(&jobs[i], err, sizeof(err)))
				rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload "
					       "'%s': %s", m->wl[i].name, err);
		}
		if (tune_runner_wait_all(jobs + first, started, (uint64_t)o->timeout_s
				    * 1000000000ull, err, sizeof(err)) && !rc)
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
		for (int i = first; i < first + started; i++) {
			int64_t j = 0, mi = 0;

			if (!rc && tune_runner_exit_ok(&jobs[i], err, sizeof(err)))
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
			tune_vlat_collect(lat, cond, i, paths[i]);
			unlink(paths[i]);
		}
	}
	for (int i = first; !rc && i < first + n; i++) {
		tune_runner_sort_times(t + (size_t)i * o->runs, o->runs);
		res[i].ns = t[(size_t)i * o->runs + o->runs / 2];
	}
	free(t);
	return rc;
}

/**
 * tune_validate_conditions() - the co-run conditions a validation holds, in
 * words, for its headline ("unregulated, static and regulated", ...).
 */
const char *tune_validate_conditions(bool regulated, bool has_static)
{
	if (has_static)
		return regulated ? "unregulated, static and regulated" :
				   "unregulated and static";
	return regulated ? "unregulated and regulated" : "unregulated only";
}

/**
 * tune_validate_result_json() - one workload's figures of a validation, for
 * validate's and show's --json: the stored times, counts and throttle
 * statistics, the slowdowns (co-run time over solo time) and, for a
 * best-effort workload, the throughput (solo time over co-run time) of
 * each condition; a static figure is null when the static condition did
 * not run, never 0.
 */
json_t *tune_validate_result_json(const struct memcal_validation_result *r,
				  bool regulated)
{
	json_t *o = json_pack("{s:s,s:i,s:f,s:f,s:f,s:f,s:I,s:I,s:I,s:I}",
			      "workload", r->workload, "cpu", r->cpu,
			      "solo_ns", r->solo_ns, "unregulated_ns",
			      r->unregulated_ns, "regulated_ns",
			      r->regulated_ns, "deadline_ns", r->deadline_ns,
			      "jobs", (json_int_t)r->jobs, "deadline_misses",
			      (json_int_t)r->deadline_misses, "throttles",
			      (json_int_t)r->throttles, "throttled_ns",
			      (json_int_t)r->throttled_ns);

	if (o)
		fig_validation_conditions_json(o, r, regulated);
	return o;
}

/**
 * tune_validate_static_config() - @c as MemGuard-style static budgets, in
 * @s: every CPU's ceiling fixed at its guarantee, LMS, reclaim and sharing
 * off, regulating (not monitor-only); period, master, events, CPUs,
 * exemptions and platform ceiling stay as tuned, so the only difference
 * from the regulated run is what adaptation and sharing would move.
 */
void tune_validate_static_config(const struct tune_config *c,
				 struct tune_config *s)
{
	*s = *c;
	s->lms = s->reclaim = s->share = s->monitor = false;
	for (int i = 0; i < s->n_cpus; i++)
		for (int k = 0; k < TUNE_NR_CLASSES; k++) {
			struct tune_budget *b = &s->cpus[i].b[k];

			b->ceiling_bps = b->guaranteed_bps;
			b->ceiling_events = b->guaranteed_events;
		}
}

/* stats_all - per-CPU statistics snapshot (zeros where unreadable). */
static void stats_all(struct validate_opts *o, const struct tune_config *c,
		      struct tune_reg_stats *s)
{
	for (int i = 0; i < c->n_cpus; i++)
		if (tune_reg_stats(&o->reg, c->cpus[i].cpu, &s[i]))
			memset(&s[i], 0, sizeof(s[i]));
}

/**
 * struct cond_out - what one regulated condition measured.
 * @ran:  memreg took the configuration and the co-run happened.
 * @res:  per workload.
 * @d:    per CPU of the configuration, memreg's statistics over the run.
 */
struct cond_out {
	bool ran;
	struct co_result res[MIX_MAX_WORKLOADS];
	struct tune_reg_stats d[TUNE_MAX_CPUS];
};

/*
 * cond_run - bring memreg into configuration @applied (loaded with it, or
 * staged and committed) and co-run @m placed as @c, in condition @cond;
 * memreg's statistics are read around the run.  A configuration memreg
 * cannot take here is a note (@out->ran false), not a failure.  Returns 0
 * or a CLI exit code.
 */
static int cond_run(struct cli_ctx *ctx, const struct mix *m,
		    const struct tune_config *c,
		    const struct tune_config *applied,
		    struct validate_opts *o, enum vlat_cond cond,
		    struct vlat *lat, struct cond_out *out, char *note,
		    size_t len)
{
	struct tune_reg_stats s0[TUNE_MAX_CPUS], s1[TUNE_MAX_CPUS];
	const char *name = tune_vlat_cond_name[cond];
	char err[512];
	int rc;

	memset(out, 0, sizeof(*out));
	rc = tune_reg_apply(&o->reg, applied, err, sizeof(err));
	if (rc) {
		tune_note_add(note, len, "%s run skipped: %s", name, err);
		cli_warn(ctx, "%s run skipped: %s", name, err);
		return 0;
	}
	out->ran = true;
	cli_info(ctx, "co-scheduled run, %s%s", name, cond == VLAT_STATIC ?
		 " (static budgets: ceiling = guarantee, no LMS, no reclaim, "
		 "no sharing)" : "");
	stats_all(o, c, s0);
	rc = co_run(ctx, m, c, o, -1, cond, lat, out->res);
	stats_all(o, c, s1);
	for (int k = 0; k < c->n_cpus; k++) {
		out->d[k].throttles = s1[k].throttles - s0[k].throttles;
		out->d[k].throttled_ns = s1[k].throttled_ns -
					 s0[k].throttled_ns;
	}
	return rc;
}

/* cpu_index - position of workload @i's core in @c->cpus, or -1. */
static int cpu_index(const struct tune_config *c, int i)
{
	int k = -1;

	for (int j = 0; j < c->n_cpus; j++)
		if (c->cpus[j].cpu == c->wl[i].cpu)
			k = j;
	return k;
}

/**
 * tune_validate_run() - the unregulated, static (unless @o->no_static) and
 * regulated co-runs of @m placed as @c says, and the per-workload results
 * in @r.  The static run comes before the regulated one so that memreg is
 * left in the tuned configuration.
 * @solo: each workload's solo execution time (ns).
 * @v:    (out) whether the regulated run happened.
 * @lat:  per-job latency, filled per condition.
 * @note: (out) why a regulated or static run was skipped, if one was.
 *
 * Return: 0 or a CLI exit code (the message printed).
 */
int tune_validate_run(struct cli_ctx *ctx, const struct mix *m,
		 const struct tune_config *c, struct validate_opts *o,
		 const double *solo, struct memcal_validation *v,
		 struct memcal_validation_result *r, struct vlat *lat,
		 char *note, size_t len)
{
	struct co_result un[MIX_MAX_WORKLOADS];
	struct cond_out *st = calloc(1, sizeof(*st)), *re = calloc(1,
								  sizeof(*re));
	struct tune_config *sc = malloc(sizeof(*sc));
	char err[512];
	bool was_loaded = tune_reg_loaded(&o->reg);
	int rc = 0;

	if (!st || !re || !sc) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
		goto out;
	}
	if (was_loaded && tune_reg_monitor(&o->reg, true, err, sizeof(err))) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "cannot switch memreg "
			       "to monitor-only for the unregulated run: %s",
			       err);
		goto out;
	}
	for (int i = 0; i < m->n && !rc; i++)
		if (lat->probe[i] != VLAT_NONE) {
			cli_info(ctx, "'%s' alone, its jobs timed",
				 m->wl[i].name);
			rc = co_run(ctx, m, c, o, i, VLAT_SOLO, lat, un);
		}
	if (rc)
		goto out;
	cli_info(ctx, "co-scheduled run, unregulated (%u run%s)", o->runs,
		 o->runs == 1 ? "" : "s");
	rc = co_run(ctx, m, c, o, -1, VLAT_UNREG, lat, un);
	if (rc)
		goto out;
	lat->static_off = o->no_static;
	if (!o->no_static) {
		tune_validate_static_config(c, sc);
		rc = cond_run(ctx, m, c, sc, o, VLAT_STATIC, lat, st, note,
			      len);
	}
	if (!rc)
		rc = cond_run(ctx, m, c, c, o, VLAT_REG, lat, re, note, len);
	v->regulated = re->ran;
	if (o->reg.loaded_here && !o->keep &&
	    tune_reg_unload(&o->reg, err, sizeof(err)))
		cli_warn(ctx, "could not unload memreg: %s", err);
	if (rc)
		goto out;
	for (int i = 0; i < m->n; i++) {
		int k = cpu_index(c, i);

		memset(&r[i], 0, sizeof(r[i]));
		snprintf(r[i].workload, sizeof(r[i].workload), "%s",
			 m->wl[i].name);
		r[i].cpu = c->wl[i].cpu;
		r[i].solo_ns = solo[i];
		r[i].unregulated_ns = un[i].ns;
		r[i].regulated_ns = re->res[i].ns;
		r[i].deadline_ns = (double)m->wl[i].deadline_ns;
		r[i].jobs = re->ran ? re->res[i].jobs : un[i].jobs;
		r[i].deadline_misses = re->ran ? re->res[i].misses :
				       un[i].misses;
		r[i].has_static = st->ran;
		r[i].static_ns = st->res[i].ns;
		r[i].static_deadline_misses = st->res[i].misses;
		if (k >= 0) {
			r[i].throttles = (int64_t)re->d[k].throttles;
			r[i].throttled_ns = (int64_t)re->d[k].throttled_ns;
			r[i].static_throttles = (int64_t)st->d[k].throttles;
			r[i].static_throttled_ns =
				(int64_t)st->d[k].throttled_ns;
		}
	}
out:
	free(st);
	free(re);
	free(sc);
	return rc;
}
