// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_run.c - `memcal run`: calibrate this board and store the run.
 *
 * Order matters for "nothing half-written": every input is checked first
 * (topology, CPUs, size, repetitions), the database is opened and its
 * write lock probed before anything is measured, everything is measured
 * into memory (run_phases.c), and only then is the whole run stored in one
 * transaction (results.c).  A run killed at any point stores nothing.
 */
#include "memcal_cmds.h"

#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <math.h>

#include "buffers.h"
#include "guaranteed.h"
#include "memcal_db.h"
#include "memcal_figures.h"
#include "overhead.h"
#include "replay.h"
#include "results.h"
#include "run_phases.h"
#include "memcal_platform.h"

/* Highest CPU number --cores accepts before looking at the topology. */
#define RUN_MAX_CPU	65535u
/* How long `memcal run` waits for another writer to finish (ms). */
#define RUN_DB_BUSY_MS	2000
/* Most repetitions --repeat accepts. */
#define RUN_MAX_REPEAT	1000
/* Repetitions per interrupt-overhead point inside a full run. */
#define RUN_OVERHEAD_REPEAT 3

enum { OPT_SIZE = 256, OPT_GUAR_READ, OPT_GUAR_WRITE };

/**
 * struct run_args - the options as given.
 * @quick:  --quick.
 * @cores:  --cores text, or NULL.
 * @size:   --size value (0: default).
 * @repeat: --repeat value (0: default).
 * @no_overhead: --no-overhead.
 * @replay: --replay folder, or NULL.
 * @mbps:   --guaranteed-read and --guaranteed-write in MB/s (0: not given).
 * @source: --source text, or NULL.
 */
struct run_args {
	bool quick;
	bool no_overhead;
	const char *cores;
	const char *replay;
	uint64_t size;
	unsigned repeat;
	double mbps[2];
	const char *source;
};

static const struct cli_option run_options[] = {
	CLI_OPT_FLAG("quick", 0, struct run_args, quick, "coarse pass: fewer "
		     "repetitions, smaller buffers, 3 load levels"),
	CLI_OPT_STRING("cores", 0, "LIST", struct run_args, cores, "CPUs to "
		       "measure, OS numbers (\"0-3,6\"); default: every core"),
	CLI_OPT("size", 0, "BYTES", OPT_SIZE, "buffer bytes per thread "
		"(default: 8x the LLC, 4x with --quick)"),
	CLI_OPT_UINT("repeat", 0, "N", struct run_args, repeat, 1,
		     RUN_MAX_REPEAT, "exactly N repetitions per measurement "
		     "(default: at least 10, 3 with --quick, more until the "
		     "median is tight)"),
	CLI_OPT_FLAG("no-overhead", 0, struct run_args, no_overhead, "leave "
		     "out the interrupt-overhead sweep of a full run"),
	CLI_OPT_NONEMPTY("replay", 0, "DIR", struct run_args, replay,
			 "the "
			 "folder of a recorded board",
			 "discovery only, on the board recorded in DIR: the "
			 "events it picks per CPU type; measures and stores "
			 "nothing"),
	CLI_OPT("guaranteed-read", 0, "MBPS", OPT_GUAR_READ, "declare the "
		"guaranteed read bandwidth, MB/s (needs --source); it stands "
		"for the read class"),
	CLI_OPT("guaranteed-write", 0, "MBPS", OPT_GUAR_WRITE, "declare the "
		"guaranteed write bandwidth, MB/s (needs --source)"),
	CLI_OPT_NONEMPTY("source", 0, "TEXT", struct run_args, source,
			 "the "
			 "text saying where the declared figures come from",
			 "where the declared figures come from (e.g. "
			 "\"DDR4-2400 tRC, 1 channel\")"),
	CLI_OPT_END,
};

/* parse_mbps - a declared figure in MB/s: a finite number, in range. */
static int parse_mbps(struct cli_ctx *ctx, const char *opt, const char *arg,
		      double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v))
		return cli_error(ctx, CLI_EXIT_USAGE, "--%s '%s': not a number "
				 "(MB/s, e.g. 6400)", opt, arg);
	if (v < MEMCAL_GUAR_DECLARED_MIN_MBPS ||
	    v > MEMCAL_GUAR_DECLARED_MAX_MBPS)
		return cli_error(ctx, CLI_EXIT_USAGE, "--%s '%s': out of range "
				 "(%g..%g MB/s)", opt, arg,
				 MEMCAL_GUAR_DECLARED_MIN_MBPS,
				 MEMCAL_GUAR_DECLARED_MAX_MBPS);
	*out = v;
	return 0;
}

/* on_option - store one option of `memcal run`; usage errors exit 2. */
static int on_option(struct cli_ctx *ctx, int key, const char *arg,
		     void *user)
{
	struct run_args *a = user;
	const char *why = NULL;

	switch (key) {
	case OPT_GUAR_READ:
		return parse_mbps(ctx, "guaranteed-read", arg, &a->mbps[0]);
	case OPT_GUAR_WRITE:
		return parse_mbps(ctx, "guaranteed-write", arg, &a->mbps[1]);
	case OPT_SIZE:
		if (cli_parse_size(arg, &a->size, &why))
			return cli_error(ctx, CLI_EXIT_USAGE, "--size '%s': %s",
					 arg, why);
		if (a->size < MEMCAL_MIN_SIZE)
			return cli_error(ctx, CLI_EXIT_USAGE,
					 "--size '%s' is too small: at least "
					 "%u KiB per thread", arg,
					 MEMCAL_MIN_SIZE >> 10);
		return 0;
	default:
		return CLI_EXIT_USAGE;
	}
}

/*
 * pick_cpus - resolve --cores against the topology into @cpus (caller
 * frees).  Every CPU must exist; without --cores every core is measured.
 */
static int pick_cpus(struct cli_ctx *ctx, const struct memcal_topology *t,
		     const char *list, unsigned **cpus, unsigned *n)
{
	uint32_t *v;
	size_t cnt = 0;
	const char *why = NULL;
	char have[128];

	*cpus = NULL;
	*n = 0;
	memcal_platform_cpulist_format(t->pus, t->n_pus, have, sizeof(have));
	if (!list) {
		*cpus = calloc(t->n_cores, sizeof(**cpus));
		if (!*cpus)
			return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
		memcpy(*cpus, t->cpus, t->n_cores * sizeof(**cpus));
		*n = t->n_cores;
		return 0;
	}
	v = calloc(t->n_pus, sizeof(*v));
	if (!v)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	if (cli_parse_u32_list(list, 0, RUN_MAX_CPU, v, t->n_pus, &cnt, &why)) {
		free(v);
		return cli_error(ctx, CLI_EXIT_USAGE, "--cores '%s': %s (this "
				 "board has CPUs %s)", list, why, have);
	}
	for (size_t i = 0; i < cnt; i++)
		if (!memcal_platform_topology_has_pu(t, v[i])) {
			unsigned bad = v[i];

			free(v);
			return cli_error(ctx, CLI_EXIT_USAGE, "--cores: CPU %u "
					 "does not exist (this board has CPUs "
					 "%s)", bad, have);
		}
	*cpus = (unsigned *)v;	/* uint32_t and unsigned are the same here */
	*n = (unsigned)cnt;
	return 0;
}

/* open_db - open (creating) the database and make sure we can write. */
static int open_db(struct cli_ctx *ctx, memcal_db **db)
{
	char err[512];
	int rc = memcal_db_open(ctx->db_path, MEMCAL_DB_OPEN_CREATE, db, err,
				sizeof(err));

	if (rc)
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	memcal_db_set_busy_timeout(*db, RUN_DB_BUSY_MS);
	rc = memcal_db_begin(*db);	/* probe the write lock now ... */
	if (rc) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s%s",
			       memcal_db_errmsg(*db),
			       rc == MEMCAL_EBUSY ? " (another process is "
			       "writing it; try again when it is done)" : "");
		memcal_db_close(*db);
		*db = NULL;
		return rc;
	}
	memcal_db_rollback(*db);	/* ... but hold nothing while measuring */
	return 0;
}

/*
 * declared - the declared figures of @a into @g (*@n of them): --source
 * is required with either figure and applies to nothing without one.
 */
static int declared(struct cli_ctx *ctx, const struct run_args *a,
		    struct memcal_guaranteed *g, size_t *n)
{
	static const char *const cls[2] = { "read", "write" };
	char err[256];

	*n = 0;
	if ((a->mbps[0] > 0 || a->mbps[1] > 0) && !a->source)
		return cli_error(ctx, CLI_EXIT_USAGE, "--guaranteed-%s needs "
				 "--source TEXT saying where the figure comes "
				 "from (e.g. --source \"DDR4-2400 tRC 45.75 ns, "
				 "1 channel\")", a->mbps[0] > 0 ? "read" :
				 "write");
	if (a->source && !(a->mbps[0] > 0 || a->mbps[1] > 0))
		return cli_error(ctx, CLI_EXIT_USAGE, "--source describes a "
				 "declared figure: give --guaranteed-read or "
				 "--guaranteed-write with it");
	for (int c = 0; c < 2; c++) {
		if (!(a->mbps[c] > 0))
			continue;
		if (cal_guaranteed_declared(&g[*n], cls[c], a->mbps[c],
					    a->source, err, sizeof(err)))
			return cli_error(ctx, CLI_EXIT_USAGE, "%s", err);
		(*n)++;
	}
	return 0;
}

/* on_step - runner progress callback: advance the bar. */
static void on_step(void *user, const char *what)
{
	cli_progress_step(user, what);
}

/* check_size - the buffers must fit; warn when they hardly exceed the LLC. */
static int check_size(struct cli_ctx *ctx, const struct memcal_topology *t,
		      const struct run_args *a, const unsigned *cpus,
		      unsigned n)
{
	char err[256];
	uint64_t per = cal_buffer_size_for(t, cpus, n, a->size, a->quick);

	if (per > UINT64_MAX / n ||
	    cal_buffer_check_total(per * n, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s",
				 per > UINT64_MAX / n ? "--size is absurdly "
				 "large" : err);
	for (unsigned i = 0; a->size && i < n; i++) {
		const struct memcal_cache *llc = memcal_platform_topology_llc(t, cpus[i]);
		uint64_t llc_bytes = cal_llc_sizing_bytes(llc, NULL);

		if (llc_bytes && a->size < 2 * llc_bytes) {
			cli_warn(ctx, "--size is below twice the %llu KiB "
				 "last-level cache of CPU %u: figures will "
				 "include cache bandwidth",
				 (unsigned long long)(llc_bytes >> 10), cpus[i]);
			break;
		}
	}
	return 0;
}

/*
 * measure_overhead - the interrupt-overhead sweep of a full run (the same
 * measurement as `memcal overhead` with RUN_OVERHEAD_REPEAT repetitions on
 * the run's CPUs), attached to @r so it is stored in the run's transaction.
 * A sweep that fails does not lose the bandwidth figures: it is noted.
 */
static void measure_overhead(struct cli_ctx *ctx,
			     const struct memcal_topology *t,
			     const unsigned *cpus, unsigned n,
			     struct memcal_run_result *r)
{
	struct overhead_params p;
	struct overhead_result *o = calloc(1, sizeof(*o));
	char err[512], note[600];

	if (!o)
		return;
	cal_overhead_params_default(&p, t);
	p.n_cpus = 0;
	for (unsigned i = 0; i < n && i < OVH_MAX_CPUS; i++)
		p.cpus[p.n_cpus++] = cpus[i];
	p.repeat = RUN_OVERHEAD_REPEAT;
	if (cal_overhead_validate(&p, t, err, sizeof(err)) ||
	    cal_overhead_measure(ctx, t, &p, o, err, sizeof(err))) {
		cli_warn(ctx, "interrupt overhead not measured: %s", err);
		snprintf(note, sizeof(note), "interrupt overhead not measured: "
			 "%s", err);
		cal_result_note(r, note);
		cal_overhead_result_free(o);
		free(o);
		return;
	}
	if (o->notes) {
		char *copy = strdup(o->notes), *save = NULL;

		for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL;
		     line; line = strtok_r(NULL, "\n", &save))
			cal_result_note(r, line);
		free(copy);
	}
	r->overhead = o;
	memcal_db_timestamp(r->run.finished_at);	/* the run ends after the sweep */
}

/* emit - the summary (or JSON) of a stored run. */
static int emit(struct cli_ctx *ctx, memcal_db *db,
		const struct memcal_run_result *r)
{
	if (ctx->json) {
		json_t *doc = cal_result_to_json(db, r);

		if (!doc)
			return cli_error(ctx, CLI_EXIT_FAILURE, "run %lld was "
					 "stored but cannot be read back: %s",
					 (long long)r->run.id,
					 memcal_db_errmsg(db));
		json_object_set_new(doc, "db", json_string(memcal_db_path(db)));
		return cli_emit_json(ctx, doc);
	}
	cal_result_print(r, ctx->out);
	if (r->overhead)
		cal_overhead_print_summary(ctx->out, r->overhead);
	fprintf(ctx->out, "stored as run %lld in %s\n", (long long)r->run.id,
		memcal_db_path(db));
	return CLI_EXIT_OK;
}

/*
 * replay - `memcal run --replay DIR`: discovery on a recorded board,
 * printed per CPU type.  The database is never opened.
 */
static int replay(struct cli_ctx *ctx, const struct run_args *a,
		  const struct memcal_guaranteed *g, size_t n_g)
{
	struct memcal_replay r;
	char err[1024];
	int rc;

	if (a->cores || a->size || a->repeat || a->no_overhead)
		return cli_error(ctx, CLI_EXIT_USAGE, "--replay measures "
				 "nothing: --%s does not apply to it (drop it, "
				 "or drop --replay to calibrate this board)",
				 a->cores ? "cores" : a->size ? "size" :
				 a->repeat ? "repeat" : "no-overhead");
	if (cal_replay_load(a->replay, &r, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s; nothing was "
				 "stored", err);
	if (ctx->json) {
		json_t *doc = cal_replay_to_json(&r);

		if (doc && n_g)	/* checked and shown, stored nowhere */
			json_object_set_new(doc, "guaranteed",
					    fig_guaranteed_json(g, n_g));
		rc = cli_emit_json(ctx, doc);
	} else {
		cal_replay_print(&r, ctx->out);
		if (n_g) {
			json_t *arr = fig_guaranteed_json(g, n_g);

			fprintf(ctx->out, "declared (checked, not stored: "
				"--replay stores nothing):\n");
			cal_guaranteed_print(ctx->out, arr);
			json_decref(arr);
		}
		rc = CLI_EXIT_OK;
	}
	cal_replay_free(&r);
	return rc;
}

/*
 * cal_cmd_run - `memcal run [--quick] [--cores LIST] [--size BYTES]
 * [--repeat N] [--replay DIR] [--guaranteed-read MBPS]
 * [--guaranteed-write MBPS] [--source TEXT]`.
 */
int cal_cmd_run(struct cli_ctx *ctx, int argc, char **argv)
{
	struct run_args a = { 0 };
	struct memcal_topology t;
	struct memcal_run_opts o;
	struct memcal_run_result r;
	struct cli_progress bar;
	struct memcal_guaranteed decl[2];
	size_t n_decl = 0;
	memcal_db *db = NULL;
	unsigned *cpus = NULL, n = 0;
	char err[512];
	int rc;

	rc = cli_parse_options(ctx, argc, argv, "[--quick] [--cores LIST] "
			       "[--size BYTES] [--repeat N] [--replay DIR] "
			       "[--guaranteed-read MBPS] [--guaranteed-write "
			       "MBPS] [--source TEXT]",
			       run_options,
			       on_option, &a, NULL);
	if (rc == CLI_HELP_SHOWN)
		return CLI_EXIT_OK;
	if (rc)
		return rc;
	rc = declared(ctx, &a, decl, &n_decl);
	if (rc)
		return rc;
	if (a.replay)
		return replay(ctx, &a, decl, n_decl);
	if (memcal_platform_topology_load(&t, NULL, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	rc = pick_cpus(ctx, &t, a.cores, &cpus, &n);
	if (!rc)
		rc = check_size(ctx, &t, &a, cpus, n);
	if (!rc && !t.this_system)
		cli_warn(ctx, "the topology (%s) does not describe this machine; "
			 "CPUs are pinned by number", t.source);
	if (!rc)
		rc = open_db(ctx, &db);
	if (rc)
		goto out;
	o = (struct memcal_run_opts){ .quick = a.quick, .cpus = cpus,
				      .n_cpus = n, .size = a.size,
				      .repeat = a.repeat };
	memset(&r, 0, sizeof(r));
	cli_progress_begin(&bar, ctx, a.quick ? "memcal run --quick"
			   : "memcal run", cal_run_steps(&o) + 1);
	rc = cal_run_measure(&t, &o, &r, on_step, &bar, err, sizeof(err));
	cli_progress_end(&bar);
	if (!rc && !a.quick && !a.no_overhead)
		measure_overhead(ctx, &t, cpus, n, &r);
	for (size_t i = 0; !rc && i < n_decl; i++)
		if (cal_result_add_guaranteed(&r, &decl[i])) {
			snprintf(err, sizeof(err), "out of memory");
			rc = MEMCAL_ENOMEM;
		}
	if (rc) {
		rc = cli_error(ctx, cli_exit_for(rc), "%s; nothing was stored",
			       err);
	} else if (cal_result_store(db, &r, err, sizeof(err))) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	} else {
		rc = emit(ctx, db, &r);
	}
	cal_result_free(&r);
out:
	memcal_db_close(db);
	free(cpus);
	memcal_platform_topology_free(&t);
	return rc;
}
