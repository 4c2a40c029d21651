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

#include "cli_util.h"
#include "memcal_db_tune.h"


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
	cr_assert_eq(access(db, F_OK), -1, "plan and profile created no file");
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "export",
		"--format", "json", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "\"ok\": false"), "%s", o->text);
	cr_assert(strstr(o->text, "\"error\""), "%s", o->text);
	cr_assert(strstr(o->text, "memcal run"), "%s", o->text);
	cr_assert_eq(access(db, F_OK), -1, "export created no file");
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
	doc = json_result(o->out, &je);
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
	doc = json_result(o->out, &je);
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
	doc = json_result(o->out, &je);
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
