// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_overhead.c - `memcal overhead`: per-core, per-period regulation
 * interrupt overhead C'/C, with the master-core comparison, stored as a
 * run of kind "overhead" (see overhead.h for what is measured and how).
 *
 * Order: parse, validate (bad input: exit 2, nothing measured or
 * stored), open the database (so a bad --db fails before minutes of
 * measuring), measure, store everything in one transaction, print.
 */
#include "memcal_cmds.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "overhead.h"

enum {
	OPT_PERIODS = 256,
	OPT_CORES,
	OPT_BENCH,
	OPT_NO_MASTER,
	OPT_SIZE,
};

/**
 * struct ovh_args - options as given, applied once the topology is known.
 * @p:          the request (periods, repeat, ... filled while parsing).
 * @cores_set:  --cores was given (else every core).
 * @cores:      --cores values.
 * @n_cores:    entries in @cores.
 */
struct ovh_args {
	struct overhead_params p;
	bool cores_set;
	uint32_t cores[OVH_MAX_CPUS];
	size_t n_cores;
};

static const struct cli_option overhead_options[] = {
	CLI_OPT("periods", 0, "LIST_US", OPT_PERIODS, "periods in "
		"microseconds (default 20,32,50,100,200,500,1000)"),
	CLI_OPT("cores", 0, "LIST", OPT_CORES, "cores to measure (default all)"),
	CLI_OPT_UINT("repeat", 0, "N", struct ovh_args, p.repeat, 1, 1000,
		     "repetitions per point, C and C' interleaved (default "
		     "10)"),
	CLI_OPT("benchmarks", 0, "LIST", OPT_BENCH, "compute,memory (default "
		"both)"),
	CLI_OPT_UINT("duration", 0, "MS", struct ovh_args, p.bench_ms, 1,
		     60000, "length of one baseline run C in ms (default 40)"),
	CLI_OPT_FLAG("proxy", 0, struct ovh_args, p.force_proxy, "use the "
		     "user-space timer proxy even if memreg could be loaded"),
	CLI_OPT("no-master", 0, NULL, OPT_NO_MASTER, "skip the runs with the "
		"master on the benchmark's core"),
	CLI_OPT_STRING("module", 0, "PATH", struct ovh_args, p.module_path,
		       "memreg.ko to load (default $MEMREG_KO, then "
		       "/lib/modules)"),
	CLI_OPT("size", 0, "BYTES", OPT_SIZE, "memory benchmark buffer "
		"(default 4 x the core's LLC)"),
	CLI_OPT_END,
};

/* parse_bench - "compute,memory" into @a->p.bench; 0 or exit 2. */
static int parse_bench(struct cli_ctx *ctx, struct ovh_args *a,
		       const char *arg)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	a->p.bench[OVH_BENCH_COMPUTE] = a->p.bench[OVH_BENCH_MEMORY] = false;
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		enum ovh_bench b;

		if (cal_ovh_bench_parse(t, &b))
			return cli_error(ctx, CLI_EXIT_USAGE, "--benchmarks: "
					 "unknown benchmark '%s' (compute, "
					 "memory)", t);
		a->p.bench[b] = true;
	}
	return 0;
}

/* on_option - apply one option of `memcal overhead`. */
static int on_option(struct cli_ctx *ctx, int key, const char *arg,
		     void *user)
{
	struct ovh_args *a = user;
	const char *why = NULL;
	uint64_t v;

	switch (key) {
	case OPT_PERIODS:
		if (cli_parse_u32_list(arg, 0, UINT32_MAX, a->p.periods_us,
				       OVH_MAX_PERIODS, &a->p.n_periods, &why))
			return cli_error(ctx, CLI_EXIT_USAGE, "--periods '%s': "
					 "%s", arg, why);
		return 0;
	case OPT_CORES:
		if (cli_parse_u32_list(arg, 0, 1u << 20, a->cores, OVH_MAX_CPUS,
				       &a->n_cores, &why))
			return cli_error(ctx, CLI_EXIT_USAGE, "--cores '%s': %s",
					 arg, why);
		a->cores_set = true;
		return 0;
	case OPT_SIZE:
		if (cli_parse_size(arg, &v, &why))
			return cli_error(ctx, CLI_EXIT_USAGE, "--size '%s': %s",
					 arg, why);
		if (v < OVH_MEMORY_CHUNK)
			return cli_error(ctx, CLI_EXIT_USAGE, "--size must be "
					 "at least %u bytes", OVH_MEMORY_CHUNK);
		a->p.mem_bytes = v;
		return 0;
	case OPT_BENCH:
		return parse_bench(ctx, a, arg);
	case OPT_NO_MASTER:
		a->p.master_effect = false;
		return 0;
	}
	return CLI_EXIT_USAGE;
}

/* emit - the result on stdout: JSON document or the human summary. */
static int emit(struct cli_ctx *ctx, memcal_db *db,
		const struct overhead_result *r, int64_t run_id)
{
	if (ctx->json) {
		json_t *doc = cal_overhead_to_json(r);

		if (!doc)
			return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
		json_object_set_new(doc, "run_id", json_integer(run_id));
		json_object_set_new(doc, "db",
				    json_string(memcal_db_path(db)));
		return cli_emit_json(ctx, doc);
	}
	cal_overhead_print_summary(ctx->out, r);
	fprintf(ctx->out, "Stored as run %lld in %s.\n", (long long)run_id,
		memcal_db_path(db));
	return CLI_EXIT_OK;
}

/*
 * cal_cmd_overhead - `memcal overhead [--periods LIST_US] [--cores
 * LIST] [--repeat N] ...`.  Exit 0, 1 (measurement or database failed),
 * 2 (bad input: nothing measured, nothing stored).
 */
int cal_cmd_overhead(struct cli_ctx *ctx, int argc, char **argv)
{
	struct ovh_args a;
	struct memcal_topology t;
	struct overhead_result r;
	memcal_db *db = NULL;
	char err[512];
	int64_t run_id = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	cal_overhead_params_default(&a.p, NULL);
	rc = cli_parse_options(ctx, argc, argv,
			       "[--periods LIST_US] [--cores LIST] [--repeat N]",
			       overhead_options, on_option, &a, NULL);
	if (rc == CLI_HELP_SHOWN)
		return CLI_EXIT_OK;
	if (rc)
		return rc;
	if (memcal_platform_topology_load(&t, NULL, err, sizeof(err)))
		return cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
	if (a.cores_set) {
		for (size_t i = 0; i < a.n_cores; i++)
			a.p.cpus[i] = a.cores[i];
		a.p.n_cpus = a.n_cores;
	} else {
		for (unsigned i = 0; i < t.n_cores && i < OVH_MAX_CPUS; i++)
			a.p.cpus[i] = t.cpus[i];
		a.p.n_cpus = t.n_cores < OVH_MAX_CPUS ? t.n_cores : OVH_MAX_CPUS;
	}
	if (cal_overhead_validate(&a.p, &t, err, sizeof(err))) {
		rc = cli_error(ctx, CLI_EXIT_USAGE, "%s", err);
		goto out_topo;
	}
	if (memcal_db_open(ctx->db_path, MEMCAL_DB_OPEN_CREATE, &db, err,
			   sizeof(err))) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
		goto out_topo;
	}
	rc = cal_overhead_measure(ctx, &t, &a.p, &r, err, sizeof(err));
	if (rc) {
		rc = cli_error(ctx, cli_exit_for(rc), "%s; nothing stored",
			       err);
		goto out_res;
	}
	if (cal_overhead_record(db, &t, &r, &run_id, err, sizeof(err))) {
		rc = cli_error(ctx, CLI_EXIT_FAILURE, "%s", err);
		goto out_res;
	}
	rc = emit(ctx, db, &r, run_id);
out_res:
	cal_overhead_result_free(&r);
	memcal_db_close(db);
out_topo:
	memcal_platform_topology_free(&t);
	return rc;
}
