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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "memcal_db_tune.h"
#include "results.h"
#include "topology.h"

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
 * an overhead model (memreg method) of @ovh_ns per period (<= 0: no
 * overhead run at all).
 */
static void seed_fp(const char *dbpath, double bps, double ovh_ns,
		    const char *fingerprint);

/* seed - seed_fp() for a board that is not this machine. */
static void seed(const char *dbpath, double bps, double ovh_ns)
{
	seed_fp(dbpath, bps, ovh_ns, "test-board");
}

/* seed_fp - the seeded platform with fingerprint @fingerprint. */
static void seed_fp(const char *dbpath, double bps, double ovh_ns,
		    const char *fingerprint)
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
	snprintf(p.fingerprint, sizeof(p.fingerprint), "%s", fingerprint);
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
	if (ovh_ns <= 0) {	/* no 'memcal overhead' run */
		cr_assert_eq(memcal_db_commit(db), 0);
		memcal_db_close(db);
		return;
	}
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

/* this_fingerprint - the fingerprint memcal gives this machine. */
static void this_fingerprint(char *out, size_t len)
{
	struct memcal_topology t;
	struct memcal_platform p;
	char err[256];

	cr_assert_eq(memcal_topology_load(&t, NULL, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_platform_describe(&t, &p), 0);
	snprintf(out, len, "%s", p.fingerprint);
	memcal_db_platform_free(&p);
	memcal_topology_free(&t);
}

/* put - write @value into @dir/@name (a fake sysfs attribute). */
static void put(const char *dir, const char *name, const char *value)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert(f, "%s", path);
	fputs(value, f);
	fclose(f);
}

/* get - the first line of @dir/@name. */
static void get(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert(f, "%s", path);
	cr_assert(fgets(buf, (int)len, f), "%s is empty", path);
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* fake_sysfs - a memreg sysfs tree for 2 CPUs under @dir/memreg. */
static void fake_sysfs(const char *dir, char *root, size_t len)
{
	static const char *const global[] = { "commit", "error", "period_us",
		"master_cpu", "read_event", "write_event", "platform_read",
		"platform_write", "monitor", "lms", "reclaim", "share",
		"lms_taps", "lms_mu", "lms_headroom", "reclaim_quantum", NULL };
	static const char *const percpu[] = { "regulated", "read_guaranteed",
		"write_guaranteed", "read_ceiling", "write_ceiling",
		"throttles", "throttled_ns", "periods", NULL };
	char sub[512];

	snprintf(root, len, "%s/memreg", dir);
	cr_assert_eq(mkdir(root, 0755), 0);
	for (int i = 0; global[i]; i++)
		put(root, global[i], "0\n");
	put(root, "error", "none\n");
	for (int c = 0; c < 2; c++) {
		snprintf(sub, sizeof(sub), "%s/cpu%d", root, c);
		cr_assert_eq(mkdir(sub, 0755), 0);
		for (int i = 0; percpu[i]; i++)
			put(sub, percpu[i], "7\n");
	}
}

Test(cli, apply_and_validate_against_fake_sysfs, .timeout = 240)
{
	char dir[64], db[128], mix[128], root[256], fp[80], buf[128];
	char cpu1[300], want[64], mods[300];
	struct out *o = malloc(sizeof(*o));
	json_error_t je;
	json_t *doc, *cfg, *c1;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	this_fingerprint(fp, sizeof(fp));
	seed_fp(db, 10e9, 20000, fp);
	write_mix(dir, mix, sizeof(mix), small_mix);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		"--runs", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_loads(o->out, 0, &je);
	cr_assert(doc);
	cfg = json_object_get(doc, "document");

	fake_sysfs(dir, root, sizeof(root));
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--sysfs",
		root, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "switched to configuration"), "%s", o->text);
	get(root, "period_us", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%lld", (long long)json_integer_value(
		 json_object_get(cfg, "period_us")));
	cr_assert_str_eq(buf, want);
	get(root, "master_cpu", buf, sizeof(buf));
	cr_assert_str_eq(buf, "0");
	get(root, "lms", buf, sizeof(buf));
	cr_assert_str_eq(buf, "1", "LMS adaptation on");
	get(root, "commit", buf, sizeof(buf));
	cr_assert_str_eq(buf, "1", "the staged values were committed");
	snprintf(cpu1, sizeof(cpu1), "%s/cpu1", root);
	get(cpu1, "regulated", buf, sizeof(buf));
	cr_assert_str_eq(buf, "1");
	c1 = json_object_get(json_array_get(json_object_get(cfg, "cpus"), 1),
			     "read");
	get(cpu1, "read_guaranteed", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%lld", (long long)json_integer_value(
		 json_object_get(c1, "guaranteed_events")));
	cr_assert_str_eq(buf, want);
	get(root, "read_event", buf, sizeof(buf));
	cr_assert_str_eq(buf, "page-faults", "no PMU: the software stand-in");

	/* a rival regulator is refused */
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	put(dir, "modules", "memguard 16384 0 - Live 0x0\n");
	setenv("MEMTUNE_PROC_MODULES", mods, 1);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--sysfs",
		root, NULL });
	unsetenv("MEMTUNE_PROC_MODULES");
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "another bandwidth regulator"), "%s",
		  o->text);

	/* validate: unregulated in monitor mode, then regulated */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "validate",
		mix, "--sysfs", root, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	json_decref(doc);
	doc = json_loads(o->out, 0, &je);
	cr_assert(doc, "%s", o->text);
	cr_assert(json_is_true(json_object_get(doc, "regulated")), "%s",
		  o->text);
	get(root, "monitor", buf, sizeof(buf));
	cr_assert_str_eq(buf, "0", "left regulating, not monitoring");
	cr_assert_gt(json_real_value(json_object_get(json_array_get(
		json_object_get(doc, "results"), 0), "slowdown_regulated")),
		0.3, "%s", o->out);
	json_decref(doc);

	/* a configuration for another board is refused */
	snprintf(db, sizeof(db), "%s/other.db", dir);
	seed(db, 10e9, 20000);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		"--runs", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--sysfs",
		root, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "tuned for another board"), "%s", o->text);

	/* memreg not loaded and not loadable: exit 77 with the reason */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply",
		"--force-board", "--sysfs", "/nonexistent", "--module",
		"/nonexistent/memreg.ko", NULL });
	cr_assert_eq(o->rc, 77, "%s", o->text);
	cr_assert(strstr(o->text, "cannot load modules") ||
		  strstr(o->text, "/nonexistent/memreg.ko"), "%s", o->text);
	free(o);
}

Test(cli, profile_with_a_counter_event_samples_a_pmu_trace, .timeout = 120)
{
	static const char mix_text[] =
		"name: faults\n"
		"runs: 1\n"
		"workloads:\n"
		"  - name: toucher\n"
		"    command: memcal-load write --mb 64 --size 33554432\n"
		"    criticality: be\n";
	struct memcal_pmu_event e = { .perf_type = 1 /* PERF_TYPE_SOFTWARE */,
		.perf_config = 2 /* PERF_COUNT_SW_PAGE_FAULTS */,
		.opened = true, .bytes_per_event = 4096, .chosen = true };
	char dir[64], db[128], mix[128], err[256];
	struct out *o = malloc(sizeof(*o));
	memcal_db *h;
	json_error_t je;
	json_t *doc, *p;
	int64_t run_id;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 10e9, 20000);
	/* a validated "event" that this machine can count: page faults, one
	 * page each -- stands in for a memory-traffic PMU event */
	cr_assert_eq(memcal_db_open(db, 0, &h, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(memcal_db_run_latest(h, "bandwidth", &run_id), 0);
	snprintf(e.name, sizeof(e.name), "page-faults");
	snprintf(e.pmu, sizeof(e.pmu), "perf");
	snprintf(e.traffic, sizeof(e.traffic), "read");
	cr_assert_eq(memcal_db_begin(h), 0);
	cr_assert_eq(memcal_db_pmu_event_store(h, run_id, &e), 0, "%s",
		     memcal_db_errmsg(h));
	cr_assert_eq(memcal_db_commit(h), 0);
	memcal_db_close(h);
	write_mix(dir, mix, sizeof(mix), mix_text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "profile",
		mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_loads(o->out, 0, &je);
	cr_assert(doc, "%s", o->text);
	p = json_array_get(json_object_get(doc, "profiles"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(p, "trace_source")),
			 "pmu", "%s", o->out);
	/* 32 MiB touched once = 8192 faults x 4 KiB, spread over the run */
	cr_assert_gt(json_real_value(json_object_get(p, "mean_read_bps")) *
		     json_real_value(json_object_get(p, "exec_median_ns")) / 1e9,
		     16e6, "%s", o->out);
	json_decref(doc);
	free(o);
}

Test(cli, plan_without_overhead_says_run_memcal_overhead, .timeout = 120)
{
	char dir[64], db[128], mix[128];
	struct out *o = malloc(sizeof(*o));

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 10e9, 0);
	write_mix(dir, mix, sizeof(mix), small_mix);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		"--runs", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "run 'memcal overhead' first"), "%s",
		  o->text);
	/* a stated figure is accepted and said to be assumed */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		mix, "--assume-overhead-ns", "30000", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->out, "\"overhead_method\": \"assumed\""), "%s",
		  o->out);
	free(o);
}
