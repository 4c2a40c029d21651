// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_util.c - helpers of the memtune end-to-end tests: run the binary
 * with its output captured, scratch directories, a database seeded with
 * a synthetic platform profile, mix files.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_util.h"
#include "memcal_db_guaranteed.h"
#include "memcal_db_mix.h"
#include "memcal_db_tune.h"
#include "memcal_platform.h"

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
void run(struct out *o, const char *const *args)
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
void scratch(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/memtune-test-XXXXXX");
	cr_assert(mkdtemp(dir));
}

/*
 * seed - a 2-CPU platform with sustainable read/write bandwidth @bps, a
 * fifth of it guaranteed (random-line), and an overhead model (memreg
 * method) of @ovh_ns per period (<= 0: no overhead run at all).
 */
/*
 * seed_family - the bandwidth-latency family of the seeded full run: five
 * curves, @gbs[i] GB/s sustainable at 100 - 25 i % read.
 */
void seed_family(const char *dbpath, const double *gbs)
{
	memcal_db *db;
	int64_t run;
	char err[256];

	cr_assert_eq(memcal_db_open(dbpath, 0, &db, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_db_run_latest(db, "full", &run), 0);
	cr_assert_eq(memcal_db_begin(db), 0);
	for (int i = 0; i < 5; i++) {
		struct memcal_mix_curve c = { .read_pct = 100 - 25 * i,
			.variant = "c", .load_cpus = 1, .bound_ratio = 1.5,
			.idle_latency_ns = 100, .criterion = "synthetic",
			.n_points = 1 };

		c.sustainable_bps = c.knee_bps = c.peak_bps = gbs[i] * 1e9;
		c.points[0] = (struct memcal_mix_point){ 0, 0, 100, 100, 100 };
		cr_assert_eq(memcal_db_mix_curve_store(db, run, &c), 0, "%s",
			     memcal_db_errmsg(db));
	}
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
}

/* seed - seed_fp() for a board that is not this machine. */
void seed(const char *dbpath, double bps, double ovh_ns)
{
	seed_fp(dbpath, bps, ovh_ns, "test-board");
}

/* seed_fp - the seeded platform with fingerprint @fingerprint. */
void seed_fp(const char *dbpath, double bps, double ovh_ns,
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
	for (int k = 0; k < 2; k++) {
		struct memcal_guaranteed g = { .bandwidth_bps = bps / 5,
			.min_bps = bps / 5, .max_bps = bps / 5, .n_cpus = 2,
			.repetitions = 1 };

		snprintf(g.traffic, sizeof(g.traffic), k ? "write" : "read");
		snprintf(g.method, sizeof(g.method), "random-line");
		snprintf(g.status, sizeof(g.status), "measured");
		snprintf(g.criterion, sizeof(g.criterion), "synthetic");
		cr_assert_eq(memcal_db_guaranteed_store(db, r.id, &g), 0, "%s",
			     memcal_db_errmsg(db));
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
void write_mix(const char *dir, char *path, size_t len,
		      const char *body)
{
	FILE *f;

	snprintf(path, len, "%s/mix.yaml", dir);
	f = fopen(path, "w");
	cr_assert(f);
	fputs(body, f);
	fclose(f);
}

const char small_mix[] =
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

/* this_fingerprint - the fingerprint memcal gives this machine. */
void this_fingerprint(char *out, size_t len)
{
	struct memcal_topology t;
	struct memcal_platform p;
	char err[256];

	cr_assert_eq(memcal_platform_topology_load(&t, NULL, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_platform_describe(&t, &p), 0);
	snprintf(out, len, "%s", p.fingerprint);
	memcal_db_platform_free(&p);
	memcal_platform_topology_free(&t);
}

/* get - the first line of @dir/@name. */
void get(const char *dir, const char *name, char *buf, size_t len)
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

/*
 * fake_sysfs - a memreg sysfs tree for 2 CPUs under @dir/memreg; with
 * @rt_exempt, each CPU has the real-time exemption's rt_exempt attribute.
 */
void fake_sysfs(const char *dir, char *root, size_t len, bool rt_exempt)
{
	static const char *const global[] = { "commit", "error", "period_us",
		"master_cpu", "read_event", "write_event", "platform_read",
		"platform_write", "monitor", "lms", "reclaim", "share",
		"lms_taps", "lms_mu", "lms_headroom", "reclaim_quantum", NULL };
	static const char *const percpu[] = { "regulated", "read_guaranteed",
		"write_guaranteed", "read_ceiling", "write_ceiling",
		"throttles", "throttled_ns", "periods", "read_event",
		"write_event", NULL };
	char sub[512];

	snprintf(root, len, "%s/memreg", dir);
	cr_assert_eq(mkdir(root, 0755), 0);
	for (int i = 0; global[i]; i++)
		test_put(root, global[i], "0\n");
	test_put(root, "error", "none\n");
	for (int c = 0; c < 2; c++) {
		snprintf(sub, sizeof(sub), "%s/cpu%d", root, c);
		cr_assert_eq(mkdir(sub, 0755), 0);
		for (int i = 0; percpu[i]; i++)
			test_put(sub, percpu[i], "7\n");
		if (rt_exempt)
			test_put(sub, "rt_exempt", "7\n");
	}
}

/**
 * json_result() - the "result" of the JSON envelope in @out (a new
 * reference), or NULL when @out is not a successful envelope.
 */
json_t *json_result(const char *out, json_error_t *je)
{
	json_t *env = json_loads(out, 0, je), *r;

	r = json_incref(json_object_get(env, "result"));
	json_decref(env);
	return r;
}
