// SPDX-License-Identifier: GPL-2.0-only
/*
 * validate.c - the runs of 'memtune validate' (cmd_validate.c): the mix
 * co-scheduled, every workload pinned where the configuration puts it,
 * first unregulated (memreg absent or in monitor-only mode), then under
 * regulation with the configuration applied; each workload's time
 * against its solo run (the slowdown, the metric of the MemGuard and
 * MemPol papers), deadline misses of real-time workloads and memreg's
 * throttle statistics.
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
		qsort(t + (size_t)i * o->runs, o->runs, sizeof(double), cmp_d);
		res[i].ns = t[(size_t)i * o->runs + o->runs / 2];
	}
	free(t);
	return rc;
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

/**
 * tune_validate_run() - the unregulated and (where possible) regulated co-runs
 * of @m placed as @c says, and the per-workload results in @r.
 * @solo: each workload's solo execution time (ns).
 * @v:    (out) whether the regulated run happened.
 * @lat:  per-job latency, filled per condition.
 * @note: (out) why the regulated run was skipped, if it was.
 *
 * Return: 0 or a CLI exit code (the message printed).
 */
int tune_validate_run(struct cli_ctx *ctx, const struct mix *m,
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
