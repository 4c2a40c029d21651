// SPDX-License-Identifier: GPL-2.0-only
/*
 * profile.c - the profiler behind 'memtune profile' (cmd_profile.c) and
 * 'memtune plan --reprofile': run each workload solo, pinned, several
 * times; store its execution time and its per-period traffic
 * trace.  The trace comes, in order of preference, from
 *   pmu         the board's validated memory-traffic events, counted on
 *               the workload's process and sampled every tick;
 *   calibrated  the bytes memcal's own kernels (memcal-load) report
 *               moving, tick by tick;
 *   declared    the need the mix file declares, spread evenly;
 * and is flagged with its source.  A workload with none of these gets a
 * zero trace and a warning.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "identity.h"
#include "inputs.h"
#include "memtune_cmds.h"
#include "workload_run.h"

#define TICK_US 100

/**
 * struct trace - one run's per-tick traffic.
 * @rd, @wr: bytes per tick (malloc'd).
 * @n:       ticks.
 * @tick_us: granularity.
 */
struct trace {
	uint64_t *rd, *wr;
	size_t n;
	uint32_t tick_us;
};

/**
 * struct pmu - counters on the profiled process.
 * @on:   a validated event exists for at least one class.
 * @cfg:  per class, the event (perf_type/config, bytes_per_event).
 * @fd:   per class, perf fd or -1.
 * @last: per class, count at the previous sample.
 */
struct pmu {
	bool on;
	struct tune_counter cfg[2];
	int fd[2];
	uint64_t last[2];
};

/* trace_push - append one tick to @t; 0 or MEMCAL_ENOMEM. */
static int trace_push(struct trace *t, uint64_t r, uint64_t w, size_t *cap)
{
	if (t->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 4096;
		uint64_t *a = realloc(t->rd, nc * 8), *b;

		if (!a)
			return MEMCAL_ENOMEM;
		t->rd = a;
		b = realloc(t->wr, nc * 8);
		if (!b)
			return MEMCAL_ENOMEM;
		t->wr = b;
		*cap = nc;
	}
	t->rd[t->n] = r;
	t->wr[t->n++] = w;
	return 0;
}

/*
 * trace_read_file - a memcal-load trace file; 0, MEMCAL_ECANTOPEN if
 * absent or MEMCAL_ESYNTAX if invalid or empty.
 */
static int trace_read_file(const char *path, struct trace *t)
{
	FILE *f = fopen(path, "r");
	unsigned long long r, w;
	unsigned tick = 0;
	size_t cap = 0;
	char line[128];

	memset(t, 0, sizeof(*t));
	if (!f)
		return MEMCAL_ECANTOPEN;
	if (!fgets(line, sizeof(line), f) ||
	    strncmp(line, "memcal-load-trace 1", 19) ||
	    fscanf(f, " tick_us %u", &tick) != 1 || !tick) {
		fclose(f);
		return MEMCAL_ESYNTAX;
	}
	if (!fgets(line, sizeof(line), f) || !fgets(line, sizeof(line), f)) {
		/* rest of tick line, then "mode ..." */
		fclose(f);
		return MEMCAL_ESYNTAX;
	}
	while (fscanf(f, "%llu %llu", &r, &w) == 2)
		if (trace_push(t, r, w, &cap))
			break;
	fclose(f);
	t->tick_us = tick;
	return t->n ? 0 : MEMCAL_ESYNTAX;
}

/* perf_open - a disabled, enable-on-exec counter on @pid. */
static int perf_open(pid_t pid, const struct tune_counter *c)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = c->perf_type;
	a.config = c->perf_config;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/*
 * pmu_attach - runner hook: open the counters before the child execs; 0
 * or MEMCAL_ECANTOPEN (errno says why).
 */
static int pmu_attach(pid_t pid, void *user)
{
	struct pmu *p = user;

	for (int k = 0; k < 2; k++) {
		p->fd[k] = -1;
		p->last[k] = 0;
		if (p->cfg[k].validated) {
			p->fd[k] = perf_open(pid, &p->cfg[k]);
			if (p->fd[k] < 0)
				return MEMCAL_ECANTOPEN;
		}
	}
	return 0;
}

/* pmu_close - close the counters. */
static void pmu_close(struct pmu *p)
{
	for (int k = 0; k < 2; k++)
		if (p->fd[k] >= 0) {
			close(p->fd[k]);
			p->fd[k] = -1;
		}
}

/* pmu_sample - bytes per class since the last sample. */
static void pmu_sample(struct pmu *p, uint64_t out[2])
{
	for (int k = 0; k < 2; k++) {
		uint64_t v = 0;

		out[k] = 0;
		if (p->fd[k] < 0 || read(p->fd[k], &v, 8) != 8)
			continue;
		out[k] = (uint64_t)((double)(v - p->last[k]) *
				    p->cfg[k].bytes_per_event);
		p->last[k] = v;
	}
}

/*
 * wait_sampling - reap @j, sampling the PMU every tick into @t (absolute
 * ticks, so the trace keeps time even when a sample is late).
 */
static void wait_sampling(struct runner_job *j, struct pmu *p, struct trace *t)
{
	struct timespec next;
	size_t cap = 0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	t->tick_us = TICK_US;
	for (;;) {
		uint64_t b[2];
		int status;

		next.tv_nsec += TICK_US * 1000;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		pmu_sample(p, b);
		trace_push(t, b[0], b[1], &cap);
		if (waitpid(j->pid, &status, WNOHANG) == j->pid) {
			j->end_ns = tune_runner_now_ns();
			j->status = status;
			j->done = 1;
			return;
		}
	}
}

/* declared_trace - the mix's declared need, spread evenly over @ns. */
static void declared_trace(const struct mix_workload *w, double ns,
			   struct trace *t)
{
	size_t cap = 0, n = (size_t)(ns / (TICK_US * 1000.0));
	double r = w->read_bps > 0 ? w->read_bps : 0;
	double wr = w->write_bps > 0 ? w->write_bps : 0;

	memset(t, 0, sizeof(*t));
	t->tick_us = TICK_US;
	if (n < 1)
		n = 1;
	for (size_t i = 0; i < n; i++)
		trace_push(t, (uint64_t)(r * TICK_US / 1e6),
			   (uint64_t)(wr * TICK_US / 1e6), &cap);
}

/* first_cpu - the lowest CPU this process may run on. */
static int first_cpu(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return 0;
}

/*
 * profile_one - run workload @w @runs times on @cpu and fill @p (trace of
 * the median run, malloc'd).  Returns 0 or a CLI exit code.
 */
static int profile_one(struct cli_ctx *ctx, const struct mix_workload *w,
		       int cpu, unsigned runs, unsigned timeout_s,
		       struct pmu *pmu, struct memcal_profile *p)
{
	double t[PROFILE_MAX_RUNS];
	struct trace tr[PROFILE_MAX_RUNS];
	char path[] = "/tmp/memtune-trace-XXXXXX", err[512];
	int fd = mkstemp(path), med = 0, rc = 0;

	memset(tr, 0, sizeof(tr));
	if (fd < 0)
		return cli_error(ctx, CLI_EXIT_FAILURE, "cannot create a "
				 "temporary file: %s", strerror(errno));
	close(fd);
	for (unsigned r = 0; r < runs && !rc; r++) {
		struct runner_job j = { .argv = w->argv, .cpu = cpu,
			.trace_path = path };

		unlink(path);
		if (pmu->on) {
			j.before_exec = pmu_attach;
			j.hook_user = pmu;
		}
		if (tune_runner_start(&j, err, sizeof(err))) {
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload '%s': "
				       "%s", w->name, err);
			break;
		}
		if (pmu->on)
			wait_sampling(&j, pmu, &tr[r]);
		else if (tune_runner_wait_all(&j, 1, (uint64_t)timeout_s *
					 1000000000ull, err, sizeof(err)))
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload '%s': "
				       "%s", w->name, err);
		pmu_close(pmu);
		if (!rc && tune_runner_exit_ok(&j, err, sizeof(err)))
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload '%s' "
				       "failed when run solo on cpu %d: %s",
				       w->name, cpu, err);
		t[r] = (double)(j.end_ns - j.start_ns);
		if (!rc && !pmu->on)
			trace_read_file(path, &tr[r]);
	}
	unlink(path);
	if (!rc) {
		double s[PROFILE_MAX_RUNS];

		memcpy(s, t, runs * sizeof(double));
		tune_runner_sort_times(s, runs);
		p->exec_median_ns = s[runs / 2];
		p->exec_min_ns = s[0];
		p->exec_max_ns = s[runs - 1];
		for (unsigned r = 0; r < runs; r++)
			if (t[r] == p->exec_median_ns)
				med = (int)r;
		p->cpu = cpu;
		p->runs = (int)runs;
		if (pmu->on)
			snprintf(p->trace_source, sizeof(p->trace_source), "pmu");
		else if (tr[med].n)
			snprintf(p->trace_source, sizeof(p->trace_source),
				 "calibrated");
		else {
			snprintf(p->trace_source, sizeof(p->trace_source),
				 "declared");
			declared_trace(w, p->exec_median_ns, &tr[med]);
			if (w->read_bps < 0 && w->write_bps < 0)
				cli_warn(ctx, "workload '%s': no PMU, no trace "
					 "from memcal-load and no declared "
					 "read_mbps/write_mbps: assumed no "
					 "memory traffic", w->name);
		}
		p->trace_period_us = (int)tr[med].tick_us;
		p->trace_len = tr[med].n;
		p->trace_read = tr[med].rd;
		p->trace_write = tr[med].wr;
		tr[med].rd = tr[med].wr = NULL;
	}
	for (unsigned r = 0; r < runs; r++) {
		free(tr[r].rd);
		free(tr[r].wr);
	}
	return rc;
}

/* mean_bps - mean bandwidth of a trace. */
static double mean_bps(const uint64_t *v, size_t n, int tick_us)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += (double)v[i];
	return n ? s / ((double)n * tick_us * 1e-6) : 0;
}

/*
 * store_and_print - one transaction for all profiles, each with the
 * identity of the binary it ran (@bin, same index), then the output.
 */
static int store_and_print(struct cli_ctx *ctx, memcal_db *db,
			   const struct mix *m, struct memcal_profile *p,
			   const struct memcal_binary *bin, bool quiet)
{
	json_t *arr = json_array();

	if (memcal_db_begin(db))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s",
				 memcal_db_errmsg(db));
	for (int i = 0; i < m->n; i++)
		if (memcal_db_profile_store(db, &p[i]) ||
		    memcal_db_profile_binary_set(db, p[i].id, &bin[i])) {
			memcal_db_rollback(db);
			json_decref(arr);
			return cli_error(ctx, CLI_EXIT_FAILURE, "%s",
					 memcal_db_errmsg(db));
		}
	if (memcal_db_commit(db) || quiet) {
		json_decref(arr);
		return quiet ? 0 : cli_error(ctx, CLI_EXIT_FAILURE, "%s",
					     memcal_db_errmsg(db));
	}
	if (!ctx->json)
		fprintf(ctx->out, "%-16s %4s %4s %10s %10s %11s %11s  %s\n",
			"workload", "cpu", "runs", "median_ms", "spread_ms",
			"read_MB/s", "write_MB/s", "trace");
	for (int i = 0; i < m->n; i++) {
		const struct memcal_profile *q = &p[i];
		double r = mean_bps(q->trace_read, q->trace_len,
				    q->trace_period_us);
		double w = mean_bps(q->trace_write, q->trace_len,
				    q->trace_period_us);

		if (ctx->json)
			json_array_append_new(arr, json_pack(
				"{s:I,s:s,s:i,s:i,s:f,s:f,s:f,s:s,s:i,s:I,s:f,"
				"s:f}", "id", (json_int_t)q->id, "workload",
				q->workload, "cpu", q->cpu, "runs", q->runs,
				"exec_median_ns", q->exec_median_ns,
				"exec_min_ns", q->exec_min_ns, "exec_max_ns",
				q->exec_max_ns, "trace_source",
				q->trace_source, "trace_period_us",
				q->trace_period_us, "trace_len",
				(json_int_t)q->trace_len, "mean_read_bps", r,
				"mean_write_bps", w));
		else
			fprintf(ctx->out, "%-16s %4d %4d %10.1f %10.1f %11.1f "
				"%11.1f  %s\n", q->workload, q->cpu, q->runs,
				q->exec_median_ns / 1e6,
				(q->exec_max_ns - q->exec_min_ns) / 1e6,
				r / 1e6, w / 1e6, q->trace_source);
	}
	if (ctx->json)
		return cli_emit_json(ctx, json_pack("{s:s,s:o}", "mix",
						    m->name, "profiles", arr));
	json_decref(arr);
	return 0;
}

/**
 * tune_profile_mix() - profile every workload of @m solo, pinned, and store
 * the profiles with the binary each ran, in one transaction.
 * @runs:      repetitions (0: the mix's).
 * @timeout_s: per run.
 * @quiet:     store only; print no table (plan --reprofile).
 *
 * Return: 0 or a CLI exit code (the message printed).
 */
int tune_profile_mix(struct cli_ctx *ctx, memcal_db *db, const struct mix *m,
		unsigned runs, unsigned timeout_s, bool quiet)
{
	struct memcal_profile *p = NULL;
	struct memcal_binary *bin = NULL;
	struct tune_inputs *ti = calloc(1, sizeof(*ti));
	struct pmu pmu;
	char err[512];
	int rc = 0;

	if (!ti)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	if (tune_inputs_platform(db, ti, err, sizeof(err))) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
		goto out;
	}
	for (int i = 0; i < ti->n_notes; i++)
		cli_debug(ctx, "%s", ti->notes[i]);
	memset(&pmu, 0, sizeof(pmu));
	memcpy(pmu.cfg, ti->in.counter, sizeof(pmu.cfg));
	pmu.on = pmu.cfg[0].validated || pmu.cfg[1].validated;
	pmu.fd[0] = pmu.fd[1] = -1;
	p = calloc((size_t)m->n, sizeof(*p));
	bin = calloc((size_t)m->n, sizeof(*bin));
	if (!p || !bin) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
		goto out;
	}
	for (int i = 0; i < m->n && !rc; i++) {
		const struct mix_workload *w = &m->wl[i];
		char *argv_json = tune_mix_argv_json(w);

		p[i].platform_id = ti->in.platform_id;
		snprintf(p[i].mix, sizeof(p[i].mix), "%s", m->name);
		snprintf(p[i].workload, sizeof(p[i].workload), "%s", w->name);
		snprintf(p[i].criticality, sizeof(p[i].criticality), "%s",
			 w->rt ? "rt" : "be");
		p[i].argv_json = argv_json;
		if (tune_ident_binary(w->argv[0], &bin[i], err, sizeof(err))) {
			rc = cli_error(ctx, CLI_EXIT_FAILURE, "workload '%s': "
				       "%s", w->name, err);
			break;
		}
		cli_info(ctx, "profiling '%s' (%u runs)", w->name,
			 runs ? runs : m->runs);
		rc = profile_one(ctx, w, w->cpu >= 0 ? w->cpu : first_cpu(),
				 runs ? runs : m->runs, timeout_s, &pmu, &p[i]);
	}
	if (!rc)
		rc = store_and_print(ctx, db, m, p, bin, quiet);
out:
	for (int i = 0; p && i < m->n; i++) {
		free(p[i].argv_json);
		free(p[i].trace_read);
		free(p[i].trace_write);
	}
	free(p);
	free(bin);
	tune_inputs_free(ti);
	free(ti);
	return rc;
}
