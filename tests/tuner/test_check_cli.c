// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_check_cli.c - 'memtune check' and the check 'memtune apply' runs
 * first, through the binary: a configuration planned here passes here
 * (the bandwidth item within a generous tolerance: the host is a loaded
 * 2-CPU machine); it fails naming the item when checked on a recorded
 * board (tests/fixtures/boards/rk3588 through the replay roots), when its
 * event does not open here (no hardware PMU: raw:0x17 gets ENOENT), and
 * when its calibration figure is three times this machine's; an older
 * configuration without provenance reports "unknown" warnings, not
 * passes.  apply refuses a failing configuration and leaves memreg's
 * (fake) sysfs untouched, and goes on with --force.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "memcal_db.h"

#define BOARDS MEMCAL_SOURCE_DIR "/tests/fixtures/boards/"

/**
 * struct env - one test's scratch directory, database and the
 * configuration planned here (the plan's JSON "document").
 */
struct env {
	char dir[64], db[128], file[256];
	json_t *cfg;
	struct out o;
};

/* add_bw - an all-core read figure in the seeded calibration run. */
static void add_bw(const char *path, double bps)
{
	struct memcal_bw b = { .n_cpus = 2, .repetitions = 3,
			       .buffer_bytes = 64 << 20 };
	memcal_db *db;
	int64_t run;
	char err[256];

	cr_assert_eq(memcal_db_open(path, 0, &db, err, sizeof(err)), 0, "%s",
		     err);
	cr_assert_eq(memcal_db_run_latest(db, "bandwidth", &run), 0);
	snprintf(b.kind, sizeof(b.kind), "read");
	snprintf(b.scope, sizeof(b.scope), "aggregate");
	snprintf(b.cpus, sizeof(b.cpus), "0-1");
	snprintf(b.variant, sizeof(b.variant), "c");
	b.median_bps = b.min_bps = b.max_bps = bps;
	cr_assert_eq(memcal_db_begin(db), 0);
	cr_assert_eq(memcal_db_bw_store(db, run, &b), 0, "%s",
		     memcal_db_errmsg(db));
	cr_assert_eq(memcal_db_commit(db), 0);
	memcal_db_close(db);
}

/* setup - seed this machine, profile and plan the small mix. */
static struct env *setup(void)
{
	struct env *e = calloc(1, sizeof(*e));
	char mix[128], fp[80];
	json_error_t je;
	json_t *doc;

	cr_assert(e);
	scratch(e->dir, sizeof(e->dir));
	snprintf(e->db, sizeof(e->db), "%s/m.db", e->dir);
	snprintf(e->file, sizeof(e->file), "%s/cfg.json", e->dir);
	this_fingerprint(fp, sizeof(fp));
	seed_fp(e->db, 10e9, 20000, fp);
	add_bw(e->db, 10e9);
	write_mix(e->dir, mix, sizeof(mix), small_mix);
	run(&e->o, (const char *const[]){ MEMTUNE, "--db", e->db, "profile",
		mix, "--runs", "1", NULL });
	cr_assert_eq(e->o.rc, 0, "%s", e->o.text);
	run(&e->o, (const char *const[]){ MEMTUNE, "--db", e->db, "--json",
		"plan", mix, NULL });
	cr_assert_eq(e->o.rc, 0, "%s", e->o.text);
	doc = json_result(e->o.out, &je);
	cr_assert(doc, "%s", e->o.text);
	e->cfg = json_incref(json_object_get(doc, "document"));
	json_decref(doc);
	return e;
}

/* save - @doc as the test's configuration file. */
static void save(struct env *e, json_t *doc)
{
	cr_assert_eq(json_dump_file(doc, e->file, 0), 0);
}

/* check_json - run 'memtune --json check --file' with @extra options;
 * the result object (a new reference). */
static json_t *check_json(struct env *e, const char *a1, const char *a2,
			  const char *a3)
{
	json_error_t je;
	json_t *r;

	run(&e->o, (const char *const[]){ MEMTUNE, "--json", "check",
		"--file", e->file, a1, a2, a3, NULL });
	r = json_result(e->o.out, &je);
	cr_assert(r, "rc %d: %s", e->o.rc, e->o.text);
	return r;
}

/* item - the verdict of @name in a check result, and its reason. */
static const char *item(json_t *r, const char *name, const char **reason)
{
	size_t i;
	json_t *it;

	json_array_foreach(json_object_get(r, "items"), i, it)
		if (!strcmp(json_string_value(json_object_get(it, "item")),
			    name)) {
			if (reason)
				*reason = json_string_value(json_object_get(
					it, "reason"));
			return json_string_value(json_object_get(it,
								 "verdict"));
		}
	cr_assert_fail("no item %s", name);
	return NULL;
}

/* set_bw - the configuration's calibration read figure. */
static void set_bw(json_t *cfg, double bps)
{
	json_t *bw = json_object_get(json_object_get(cfg, "provenance"),
				     "bandwidth");

	cr_assert(bw, "the plan recorded the calibration's read figure");
	json_object_set_new(bw, "read_bps", json_real(bps));
}

/* measured_here - this machine's read figure as check measures it. */
static double measured_here(struct env *e)
{
	json_t *r;
	double m;

	save(e, e->cfg);
	r = check_json(e, "--tolerance", "99", NULL);
	m = json_real_value(json_object_get(json_object_get(r, "bandwidth"),
					    "measured_bps"));
	cr_assert_gt(m, 0, "%s", e->o.text);
	json_decref(r);
	return m;
}

Test(check, passes_on_the_calibrating_machine, .timeout = 240)
{
	struct env *e = setup();
	const char *why, *items[] = { "cpu-kinds", "pmus", "events",
				      "memory-size", "smt", "kernel",
				      "memreg-version" };
	json_t *r;

	set_bw(e->cfg, measured_here(e));
	save(e, e->cfg);
	/* generous: the measurement shares 2 CPUs with other builds */
	r = check_json(e, "--tolerance", "60", NULL);
	cr_assert_eq(e->o.rc, 0, "%s", e->o.text);
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
		cr_assert_str_eq(item(r, items[i], &why), "pass", "%s: %s",
				 items[i], why);
	cr_assert(strcmp(item(r, "bandwidth", &why), "fail"), "%s", why);
	cr_assert(strstr(why, "tolerance") || strstr(why, "within 60 %"),
		  "%s", why);
	cr_assert_eq(json_real_value(json_object_get(r, "tolerance_pct")), 60);
	json_decref(r);

	/* the text form names each item and the tolerance */
	run(&e->o, (const char *const[]){ MEMTUNE, "check", "--file", e->file,
		"--no-bandwidth", NULL });
	cr_assert_eq(e->o.rc, 0, "%s", e->o.text);
	cr_assert(strstr(e->o.out, "bandwidth tolerance 10 %, bandwidth "
			 "skipped"), "%s", e->o.out);
	cr_assert(strstr(e->o.out, "  skip  bandwidth       skipped "
			 "(--no-bandwidth)"), "%s", e->o.out);
	cr_assert(strstr(e->o.out, "  pass  cpu-kinds "), "%s", e->o.out);
	json_decref(e->cfg);
	free(e);
}

Test(check, fails_on_another_board, .timeout = 240)
{
	struct env *e = setup();
	const char *why;
	json_t *r;

	save(e, e->cfg);
	/* the unit is the recorded RK3588: its files through the roots */
	setenv("MEMCAL_SYSFS_ROOT", BOARDS "rk3588/sys", 1);
	setenv("MEMCAL_PROCFS_ROOT", BOARDS "rk3588/proc", 1);
	setenv("HWLOC_XMLFILE", BOARDS "rk3588/topology.xml", 1);
	r = check_json(e, "--no-bandwidth", NULL, NULL);
	cr_assert_eq(e->o.rc, 1, "%s", e->o.text);
	cr_assert_str_eq(item(r, "cpu-kinds", &why), "fail", "%s", why);
	cr_assert(strstr(why, "CPU 0 is Cortex-A55 r2p0 (MIDR implementer "
			 "0x41 part 0xd05), the configuration was tuned for "),
		  "%s", why);
	cr_assert(strstr(why, "re-tune on this board type"), "%s", why);
	cr_assert_str_eq(item(r, "bandwidth", &why), "skip", "%s", why);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(r,
			 "failed"), 0)), "cpu-kinds");
	cr_assert(strstr(e->o.text, "cpu-kinds failed"), "%s", e->o.text);
	json_decref(r);
	json_decref(e->cfg);
	free(e);
}

Test(check, fails_when_its_event_does_not_open, .timeout = 240)
{
	struct env *e = setup();
	json_t *cpus = json_object_get(e->cfg, "cpus"), *c, *r;
	const char *why;
	size_t i;

	/* a hardware event: this machine has no PMU */
	json_array_foreach(cpus, i, c)
		json_object_set_new(json_object_get(c, "read"), "event",
				    json_string("raw:0x17"));
	save(e, e->cfg);
	r = check_json(e, "--no-bandwidth", NULL, NULL);
	cr_assert_eq(e->o.rc, 1, "%s", e->o.text);
	cr_assert_str_eq(item(r, "events", &why), "fail", "%s", why);
	cr_assert(strstr(why, "read event 'raw:0x17'") &&
		  strstr(why, "perf_event_open"), "%s", why);
	json_decref(r);
	json_decref(e->cfg);
	free(e);
}

Test(check, fails_outside_the_tolerance, .timeout = 240)
{
	struct env *e = setup();
	const char *why;
	json_t *r;

	set_bw(e->cfg, 3 * measured_here(e));
	save(e, e->cfg);
	r = check_json(e, NULL, NULL, NULL);
	cr_assert_eq(e->o.rc, 1, "%s", e->o.text);
	cr_assert_str_eq(item(r, "bandwidth", &why), "fail", "%s", why);
	cr_assert(strstr(why, "below the calibration's") &&
		  strstr(why, "(tolerance 10 %)"), "%s", why);
	json_decref(r);
	json_decref(e->cfg);
	free(e);
}

Test(check, older_configuration_is_unknown_not_pass, .timeout = 240)
{
	struct env *e = setup();
	json_t *prov = json_object_get(e->cfg, "provenance"), *r;
	const char *why, *items[] = { "cpu-kinds", "pmus", "memory-size",
				      "memory-type", "smt", "kernel",
				      "memreg-version", "bandwidth" };

	json_object_del(prov, "machine");
	json_object_del(prov, "bandwidth");
	save(e, e->cfg);
	r = check_json(e, NULL, NULL, NULL);
	cr_assert_eq(e->o.rc, 0, "warnings only: %s", e->o.text);
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		cr_assert_str_eq(item(r, items[i], &why), "warn", "%s: %s",
				 items[i], why);
		cr_assert(strstr(why, "unknown"), "%s: %s", items[i], why);
	}
	cr_assert_str_eq(json_string_value(json_object_get(r, "verdict")),
			 "warn");
	json_decref(r);
	json_decref(e->cfg);
	free(e);
}

Test(check, bad_options_are_usage_errors)
{
	static const char *const bad[] = { "0", "100", "ten", "-5", "10%" };
	char dir[64], file[128];

	scratch(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/none.json", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct out *o = malloc(sizeof(*o));

		run(o, (const char *const[]){ MEMTUNE, "check", "--file", file,
			"--tolerance", bad[i], NULL });
		cr_assert_eq(o->rc, 2, "%s: %s", bad[i], o->text);
		cr_assert(strstr(o->text, "--tolerance"), "%s", o->text);
		free(o);
	}
}

Test(check, apply_refuses_a_failing_configuration, .timeout = 240)
{
	struct env *e = setup();
	json_t *cpus = json_object_get(e->cfg, "cpus"), *c;
	char root[256], buf[64], want[32];
	size_t i;

	json_array_foreach(cpus, i, c)
		json_object_set_new(json_object_get(c, "read"), "event",
				    json_string("raw:0x17"));
	save(e, e->cfg);
	fake_sysfs(e->dir, root, sizeof(root), true);
	run(&e->o, (const char *const[]){ MEMTUNE, "apply", "--file", e->file,
		"--sysfs", root, NULL });
	cr_assert_eq(e->o.rc, 1, "%s", e->o.text);
	cr_assert(strstr(e->o.text, "check failed (events") &&
		  strstr(e->o.text, "--force"), "%s", e->o.text);
	get(root, "period_us", buf, sizeof(buf));
	cr_assert_str_eq(buf, "0", "nothing written");
	get(root, "commit", buf, sizeof(buf));
	cr_assert_str_eq(buf, "0", "nothing committed");

	run(&e->o, (const char *const[]){ MEMTUNE, "apply", "--file", e->file,
		"--sysfs", root, "--force", NULL });
	cr_assert_eq(e->o.rc, 0, "%s", e->o.text);
	cr_assert(strstr(e->o.text, "applying anyway (--force)"), "%s",
		  e->o.text);
	get(root, "period_us", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%lld", (long long)json_integer_value(
		 json_object_get(e->cfg, "period_us")));
	cr_assert_str_eq(buf, want);
	json_decref(e->cfg);
	free(e);
}
