// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cli.c - memtune end to end through its binary against a scratch
 * database seeded with a synthetic platform profile: bad input refused
 * with what to run first, profile -> plan -> export on a small mix of
 * memcal-load workloads, budgets that cannot fit, validate without memreg.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memcal_db_tune.h"

#define MEMTUNE MEMCAL_BINARY_DIR "/tuner/memtune"
#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/mix/"

/**
 * struct out - a finished memtune run.
 * @rc:   exit status.
 * @text: stdout, then stderr.
 * @out:  stdout alone (the JSON document with --json).
 */
struct out {
	int rc;
	char text[65536];
	char out[65536];
};

/* slurp_fd - read @fd to its end into @buf (NUL-terminated). */
static size_t slurp_fd(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t got;

	while (n + 1 < cap && (got = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = '\0';
	return n;
}

/* run - memtune with @args (NULL-terminated), output captured. */
static void run(struct out *o, const char *const *args)
{
	char errpath[] = "/tmp/memtune-test-err-XXXXXX";
	int p[2], efd = mkstemp(errpath), status;
	size_t n;
	pid_t pid;

	cr_assert_geq(efd, 0);
	unlink(errpath);
	cr_assert_eq(pipe(p), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		dup2(p[1], 1);
		dup2(efd, 2);
		close(p[0]);
		execv(MEMTUNE, (char *const *)args);
		_exit(127);
	}
	close(p[1]);
	n = slurp_fd(p[0], o->out, sizeof(o->out));
	close(p[0]);
	waitpid(pid, &status, 0);
	memcpy(o->text, o->out, n + 1);
	lseek(efd, 0, SEEK_SET);
	slurp_fd(efd, o->text + n, sizeof(o->text) - n);
	close(efd);
	o->rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* scratch - a fresh directory for this test's database and files. */
static void scratch(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/memtune-test-XXXXXX");
	cr_assert(mkdtemp(dir));
}

/*
 * seed - a 2-CPU platform with sustainable read/write bandwidth @bps and
 * an overhead model (memreg method) of @ovh_ns per period.
 */
static void seed(const char *dbpath, double bps, double ovh_ns)
{
	struct memcal_platform p = { .packages = 1, .numa_nodes = 1,
		.cores = 2, .pus = 2, .topology_json = "{}" };
	struct memcal_run r = { .kind = "full", .params_json = "{}" };
	struct memcal_run ro = { .kind = "overhead", .params_json = "{}" };
	struct memcal_sustainable s = { .bound_ratio = 2,
		.idle_latency_ns = 100 };
	struct memcal_pmu_status pmu = { .available = false };
	memcal_db *db;
	char err[256];

	cr_assert_eq(memcal_db_open(dbpath, MEMCAL_DB_OPEN_CREATE, &db, err,
				    sizeof(err)), 0, "%s", err);
	snprintf(p.fingerprint, sizeof(p.fingerprint), "test-board");
	snprintf(p.arch, sizeof(p.arch), "x86_64");
	snprintf(p.cpu_model, sizeof(p.cpu_model), "synthetic");
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_platform_store(db, &p), 0, "%s",
		     memcal_db_errmsg(db));
	r.platform_id = ro.platform_id = p.id;
	snprintf(r.tool_version, sizeof(r.tool_version), "test");
	snprintf(ro.tool_version, sizeof(ro.tool_version), "test");
	cr_assert_eq(memcal_db_run_store(db, &r), 0, "%s",
		     memcal_db_errmsg(db));
	for (int k = 0; k < 2; k++) {
		snprintf(s.traffic, sizeof(s.traffic), k ? "write" : "read");
		s.bandwidth_bps = bps;
		snprintf(s.criterion, sizeof(s.criterion), "synthetic");
		cr_assert_eq(memcal_db_sustainable_store(db, r.id, &s), 0);
	}
	snprintf(pmu.message, sizeof(pmu.message), "no PMU (synthetic)");
	cr_assert_eq(memcal_db_pmu_status_store(db, r.id, &pmu), 0);
	cr_assert_eq(memcal_db_run_store(db, &ro), 0);
	for (int cpu = 0; cpu < 2; cpu++) {
		struct memcal_overhead_model m = { .cpu = cpu,
			.cost_per_irq_ns = ovh_ns, .base_ratio = 1, .r2 = 1 };

		snprintf(m.benchmark, sizeof(m.benchmark), "compute");
		snprintf(m.method, sizeof(m.method), "memreg");
		cr_assert_eq(memcal_db_overhead_model_store(db, ro.id, &m), 0,
			     "%s", memcal_db_errmsg(db));
	}
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
}

/* write_mix - a small mix of memcal-load workloads into @dir/mix.yaml. */
static void write_mix(const char *dir, char *path, size_t len,
		      const char *body)
{
	FILE *f;

	snprintf(path, len, "%s/mix.yaml", dir);
	f = fopen(path, "w");
	cr_assert(f);
	fputs(body, f);
	fclose(f);
}

static const char small_mix[] =
	"name: small\n"
	"runs: 2\n"
	"workloads:\n"
	"  - name: control\n"
	"    argv: [memcal-load, compute, --iters, \"200000\", --period-us,"
	" \"5000\", --jobs, \"10\"]\n"
	"    criticality: rt\n"
	"    period_us: 5000\n"
	"    cpu: 1\n"
	"    read_mbps: 50\n"
	"  - name: stream\n"
	"    command: memcal-load read --mb 96 --size 8388608\n"
	"    criticality: be\n";

Test(cli, no_platform_profile_says_run_memcal_run)
{
	char dir[64], db[128];
	struct out *o = malloc(sizeof(*o));

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan",
		FIX "good_full.yaml", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "run 'memcal run' first"), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile",
		FIX "good_minimal.yaml", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "run 'memcal run' first"), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "export",
		"--format", "json", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "\"error\""), "%s", o->text);
	cr_assert(strstr(o->text, "memtune plan"), "%s", o->text);
	free(o);
}

Test(cli, mix_naming_missing_core)
{
	char dir[64], db[128];
	struct out *o = malloc(sizeof(*o));

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 10e9, 20000);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan",
		FIX "cpu_missing.yaml", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "line 4:"), "%s", o->text);
	cr_assert(strstr(o->text, "cpu 99, which does not exist"), "%s",
		  o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile",
		FIX "cpu_missing.yaml", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "does not exist"), "%s", o->text);
	free(o);
}

Test(cli, broken_mix_names_line)
{
	struct out *o = malloc(sizeof(*o));

	run(o, (const char *const[]){ MEMTUNE, "--db", "/nonexistent/x.db",
		"plan", FIX "bad_type.yaml", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "bad_type.yaml: line 8, column 10"), "%s",
		  o->text);
	run(o, (const char *const[]){ MEMTUNE, "plan", NULL });
	cr_assert_eq(o->rc, 2, "%s", o->text);
	free(o);
}

Test(cli, plan_before_profile_says_profile_first)
{
	char dir[64], db[128], mix[128];
	struct out *o = malloc(sizeof(*o));

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 10e9, 20000);
	write_mix(dir, mix, sizeof(mix), small_mix);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "run 'memtune profile"), "%s", o->text);
	free(o);
}

Test(cli, profile_plan_export_validate, .timeout = 240)
{
	static const char *const fmts[] = { "json", "modprobe", "systemd",
					    "resctrl", "pqos" };
	char dir[64], db[128], mix[128], file[160];
	struct out *o = malloc(sizeof(*o));
	json_error_t je;
	json_t *doc, *cfg;
	int master;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 10e9, 20000);
	write_mix(dir, mix, sizeof(mix), small_mix);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "profile",
		mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_loads(o->out, 0, &je);
	cr_assert(doc, "profile output is not JSON: %s", o->text);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(
		json_object_get(doc, "profiles"), 1), "trace_source")),
		"calibrated", "memcal-load's own trace is used");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(
		json_object_get(doc, "profiles"), 0), "trace_source")),
		"declared", "compute has no traffic: the declared need");
	json_decref(doc);

	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_loads(o->out, 0, &je);
	cr_assert(doc, "plan output is not JSON: %s", o->text);
	cfg = json_object_get(doc, "document");
	master = (int)json_integer_value(json_object_get(cfg, "master_cpu"));
	cr_assert_eq(master, 0, "cpu 1 is real-time: the master must be 0");
	cr_assert_str_eq(json_string_value(json_object_get(cfg, "format")),
			 "memcal.tuned-config");
	cr_assert(json_array_size(json_object_get(cfg, "explain")) >= 4);
	json_decref(doc);

	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "master cpu 0"), "%s", o->text);
	cr_assert(strstr(o->text, "why:"), "%s", o->text);

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(file, sizeof(file), "%s/out.%s", dir, fmts[i]);
		run(o, (const char *const[]){ MEMTUNE, "--db", db, "export",
			"--format", fmts[i], "--out", file, NULL });
		cr_assert_eq(o->rc, 0, "%s: %s", fmts[i], o->text);
		cr_assert_eq(access(file, R_OK), 0, "%s not written", file);
	}
	/* the JSON export applies as a file: it parses back */
	snprintf(file, sizeof(file), "%s/out.json", dir);
	run(o, (const char *const[]){ MEMTUNE, "export", "--file", file,
		"--format", "modprobe", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "options memreg period_us="), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "export", "--format",
		"yaml", NULL });
	cr_assert_eq(o->rc, 2, "%s", o->text);

	/* no memreg here: validate runs unregulated only and says so */
	snprintf(file, sizeof(file), "%s/no-memreg", dir);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "validate",
		mix, "--sysfs", file, "--module", "/nonexistent/memreg.ko",
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_loads(o->out, 0, &je);
	cr_assert(doc, "validate output is not JSON: %s", o->text);
	cr_assert(json_is_false(json_object_get(doc, "regulated")), "%s",
		  o->text);
	cr_assert(strstr(json_string_value(json_object_get(doc, "notes")),
			 "regulated run skipped"), "%s", o->text);
	cfg = json_array_get(json_object_get(doc, "results"), 1);
	cr_assert_gt(json_real_value(json_object_get(cfg,
			"slowdown_unregulated")), 0.3, "%s", o->text);
	cfg = json_array_get(json_object_get(doc, "results"), 0);
	cr_assert_eq(json_integer_value(json_object_get(cfg, "jobs")), 10,
		     "%s", o->text);
	json_decref(doc);
	free(o);
}

Test(cli, budgets_that_cannot_fit)
{
	static const char mix_text[] =
		"name: greedy\n"
		"runs: 1\n"
		"workloads:\n"
		"  - name: control\n"
		"    argv: [memcal-load, compute, --iters, \"100000\"]\n"
		"    criticality: rt\n"
		"    deadline_us: 100000\n"
		"    cpu: 1\n"
		"    read_mbps: 500\n";
	char dir[64], db[128], mix[128];
	struct out *o = malloc(sizeof(*o));

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 100e6, 20000);	/* sustains 100 MB/s */
	write_mix(dir, mix, sizeof(mix), mix_text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "budgets cannot fit"), "%s", o->text);
	cr_assert(strstr(o->text, "100.0 MB/s"), "%s", o->text);
	free(o);
}
