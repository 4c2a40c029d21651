// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_validate_latency.c - the RTAS'13 example mix end to end on this
 * machine (no memreg): per-job latency stored solo and co-run, regulated
 * said to be unavailable; the real-time exemption in the plan, the
 * modprobe export and apply's sysfs writes; cyclictest beside a
 * real-time command that does not time its own jobs.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "latency_probe.h"
#include "memcal_db_job_latency.h"

#define RTAS13 MEMCAL_SOURCE_DIR "/tuner/examples/rtas13.yaml"

/**
 * struct rows - the job_latency rows of one validation.
 * @n:    rows.
 * @cond: their conditions.
 * @samples, @p99, @misses: per row.
 * @probe: per row.
 */
struct rows {
	int n;
	char cond[8][16];
	char probe[8][16];
	int64_t samples[8], p99[8], misses[8];
};

/* collect - memcal_db_job_latency_list() callback. */
static int collect(const struct memcal_job_latency *l, void *user)
{
	struct rows *r = user;

	cr_assert_lt(r->n, 8);
	snprintf(r->cond[r->n], 16, "%s", l->condition);
	snprintf(r->probe[r->n], 16, "%s", l->probe);
	r->samples[r->n] = l->samples;
	r->p99[r->n] = l->p99_ns;
	r->misses[r->n] = l->misses;
	cr_assert(l->histogram && l->histogram[0] == '[', "histogram stored");
	r->n++;
	return 0;
}

/* stored - the latency rows of validation @vid in @dbpath. */
static void stored(const char *dbpath, int64_t vid, struct rows *r)
{
	memcal_db *db;
	char err[256];

	memset(r, 0, sizeof(*r));
	cr_assert_eq(memcal_db_open(dbpath, 0, &db, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(memcal_db_job_latency_list(db, vid, collect, r), 0);
	memcal_db_close(db);
}

/* explained - whether one of the plan's reasons contains @s. */
static bool explained(json_t *cfg, const char *s)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(cfg, "explain"), i, e)
		if (strstr(json_string_value(e), s))
			return true;
	return false;
}

Test(validate_latency, rtas13_example_without_memreg, .timeout = 300)
{
	char dir[64], db[128], fp[80], root[256], cpu[300], buf[64];
	char file[160], mix[128];
	struct out *o = malloc(sizeof(*o));
	json_error_t je;
	json_t *doc, *cfg, *lat, *row;
	struct rows r;
	int64_t vid;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	this_fingerprint(fp, sizeof(fp));
	seed_fp(db, 10e9, 20000, fp);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", RTAS13,
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		RTAS13, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, &je);
	cr_assert(doc, "%s", o->text);
	cfg = json_object_get(doc, "document");
	/* cpu 1 runs the real-time task: exempt; cpu 0 (the hog) is not */
	cr_assert(json_is_true(json_object_get(json_array_get(
		json_object_get(cfg, "cpus"), 1), "rt_exempt")), "%s", o->out);
	cr_assert_null(json_object_get(json_array_get(json_object_get(cfg,
		"cpus"), 0), "rt_exempt"), "%s", o->out);
	cr_assert(explained(cfg, "real-time exemption (read): cpu 1 "
			    "monitored, never throttled"), "%s", o->out);
	cr_assert(explained(cfg, "replay with the real-time cores exempt "
			    "(read)"), "%s", o->out);
	json_decref(doc);

	run(o, (const char *const[]){ MEMTUNE, "--db", db, "export",
		"--format", "modprobe", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, " rt_exempt=1"), "%s", o->text);

	/* apply writes cpuN/rt_exempt before commit */
	fake_sysfs(dir, root, sizeof(root), true);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--sysfs",
		root, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	snprintf(cpu, sizeof(cpu), "%s/cpu1", root);
	get(cpu, "rt_exempt", buf, sizeof(buf));
	cr_assert_str_eq(buf, "1");
	snprintf(cpu, sizeof(cpu), "%s/cpu0", root);
	get(cpu, "rt_exempt", buf, sizeof(buf));
	cr_assert_str_eq(buf, "0");
	/* a memreg without the attribute cannot exempt: refused, said why */
	snprintf(file, sizeof(file), "%s/old", dir);
	cr_assert_eq(mkdir(file, 0755), 0);
	fake_sysfs(file, root, sizeof(root), false);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--sysfs",
		root, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "predates the real-time exemption"), "%s",
		  o->text);

	/* validate here: no memreg, so solo and co-run only */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "validate",
		RTAS13, "--sysfs", "/nonexistent", "--module",
		"/nonexistent/memreg.ko", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, &je);
	cr_assert(doc, "%s", o->text);
	cr_assert(json_is_false(json_object_get(doc, "regulated")));
	cr_assert(strstr(json_string_value(json_object_get(doc, "notes")),
			 "regulated distribution unavailable"), "%s", o->out);
	lat = json_object_get(doc, "latency");
	cr_assert_eq(json_array_size(lat), 2, "%s", o->out);
	for (size_t i = 0; i < 2; i++) {
		row = json_array_get(lat, i);
		cr_assert_str_eq(json_string_value(json_object_get(row,
			"condition")), i ? "unregulated" : "solo");
		cr_assert_str_eq(json_string_value(json_object_get(row,
			"probe")), "self");
		cr_assert_eq(json_integer_value(json_object_get(row,
			"samples")), 100, "one sample per job");
		cr_assert_eq(json_integer_value(json_object_get(row,
			"deadline_ns")), 20000000);
		cr_assert_geq(json_integer_value(json_object_get(row,
			"p99_ns")), json_integer_value(json_object_get(row,
			"p50_ns")));
		cr_assert_gt(json_integer_value(json_object_get(row,
			"p50_ns")), 0);
	}
	vid = json_integer_value(json_object_get(doc, "validation_id"));
	json_decref(doc);
	stored(db, vid, &r);
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.cond[0], "solo");
	cr_assert_str_eq(r.cond[1], "unregulated");
	cr_assert_eq(r.samples[0], 100);
	cr_assert_gt(r.p99[1], 0);

	/* the table says what it could not measure */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "validate",
		RTAS13, "--sysfs", "/nonexistent", "--module",
		"/nonexistent/memreg.ko", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "regulated   not measured (no regulator)"),
		  "%s", o->text);

	/* rt_exempt is true or false, nothing else */
	write_mix(dir, mix, sizeof(mix), "name: x\nrt_exempt: yes\nworkloads:\n"
		  "  - name: a\n    command: memcal-load compute\n"
		  "    criticality: be\n");
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_neq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "line 2") && strstr(o->text,
		  "rt_exempt must be true or false"), "%s", o->text);
	free(o);
}

Test(validate_latency, cyclictest_beside_a_command, .timeout = 240)
{
	static const char mix_text[] =
		"name: loop\n"
		"runs: 1\n"
		"workloads:\n"
		"  - name: control\n"
		"    argv: [memcal-load, compute, --ms, \"1000\"]\n"
		"    criticality: rt\n"
		"    period_us: 20000\n"
		"    cpu: 1\n"
		"  - name: hog\n"
		"    command: memcal-load read --ms 1000\n"
		"    criticality: be\n"
		"    cpu: 0\n";
	char dir[64], db[128], fp[80], mix[128], why[256] = "";
	struct out *o = malloc(sizeof(*o));
	json_error_t je;
	json_t *doc, *row;
	struct rows r;

	cr_assert(tune_lat_cyclictest_available(why, sizeof(why)), "%s", why);
	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	this_fingerprint(fp, sizeof(fp));
	seed_fp(db, 10e9, 20000, fp);
	write_mix(dir, mix, sizeof(mix), mix_text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "validate",
		mix, "--sysfs", "/nonexistent", "--module",
		"/nonexistent/memreg.ko", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, &je);
	cr_assert(doc, "%s", o->text);
	cr_assert_eq(json_array_size(json_object_get(doc, "latency")), 2,
		     "%s", o->out);
	row = json_array_get(json_object_get(doc, "latency"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(row, "probe")),
			 "cyclictest");
	/* a 1 s run at a 20 ms interval: about 50 wake-ups */
	cr_assert_geq(json_integer_value(json_object_get(row, "samples")), 20,
		      "%s", o->out);
	cr_assert_leq(json_integer_value(json_object_get(row, "samples")), 60,
		      "%s", o->out);
	stored(db, json_integer_value(json_object_get(doc, "validation_id")),
	       &r);
	json_decref(doc);
	cr_assert_eq(r.n, 2);
	cr_assert_str_eq(r.probe[0], "cyclictest");
	cr_assert_gt(r.p99[0], 0, "a wake-up latency is never 0 us here");
	free(o);
}
