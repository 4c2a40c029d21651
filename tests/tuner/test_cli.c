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
	{
		/* cpu 1 is real-time and its compute writes nothing: it
		 * still gets its floor, and no less */
		json_t *w = json_object_get(json_array_get(json_object_get(
			cfg, "cpus"), 1), "write");
		json_int_t fl = json_integer_value(json_object_get(w,
							"floor_events"));

		cr_assert_gt(fl, 0, "no write floor: %s", o->out);
		cr_assert_geq(json_integer_value(json_object_get(w,
			"guaranteed_events")), fl);
	}
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
	/* a slowdown was measured (a ratio of two timed runs; how large
	 * depends on the host's load, which is not under test) */
	cfg = json_array_get(json_object_get(doc, "results"), 1);
	cr_assert_gt(json_real_value(json_object_get(cfg,
			"slowdown_unregulated")), 0.0, "%s", o->text);
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
	cr_assert(strstr(o->text, "do not fit the guaranteed bandwidth"), "%s",
		  o->text);
	cr_assert(strstr(o->text, "20.0 MB/s read"), "%s", o->text);
	cr_assert(strstr(o->text, "--guarantees-from-streaming"), "%s",
		  o->text);
	/* 500 MB/s is past the streaming figure too */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix,
		"--guarantees-from-streaming", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "budgets cannot fit"), "%s", o->text);
	cr_assert(strstr(o->text, "100.0 MB/s"), "%s", o->text);
	free(o);
}

/*
 * profiled_small - a scratch directory @dir (64 bytes) with database @db
 * (128) seeded at 10 GB/s and @ovh_ns, and small_mix as @mix (128),
 * profiled once.
 */
static void profiled_small(char *dir, char *db, char *mix, double ovh_ns)
{
	struct out *o = malloc(sizeof(*o));

	scratch(dir, 64);
	snprintf(db, 128, "%s/m.db", dir);
	seed(db, 10e9, ovh_ns);
	write_mix(dir, mix, 128, small_mix);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		"--runs", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	free(o);
}

Test(cli, plan_without_overhead_says_run_memcal_overhead, .timeout = 120)
{
	char dir[64], db[128], mix[128];
	struct out *o = malloc(sizeof(*o));

	profiled_small(dir, db, mix, 0);
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

/* configs - tuned configurations stored in @db (memtune list --json). */
static size_t configs(const char *db)
{
	struct out *o = malloc(sizeof(*o));
	json_t *doc;
	size_t n;

	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "list",
		"--kind", "config", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, NULL);
	cr_assert(doc, "%s", o->text);
	n = json_array_size(json_object_get(doc, "records"));
	json_decref(doc);
	free(o);
	return n;
}

Test(cli, plan_names_the_read_write_mix_it_used, .timeout = 120)
{
	static const double gbs[] = { 12, 10, 8, 6, 4 };
	char dir[64], db[128], mix[128];
	struct out *o = malloc(sizeof(*o));
	json_error_t je;
	json_t *doc, *cfg;
	const char *why;
	double sum;

	profiled_small(dir, db, mix, 20000);
	seed_family(db, gbs);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	doc = json_result(o->out, &je);
	cr_assert(doc, "plan output is not JSON: %s", o->text);
	cfg = json_object_get(doc, "document");
	why = json_string_value(json_object_get(json_object_get(cfg,
				"reasons"), "mix"));
	cr_assert(why, "no mix reason: %s", o->out);
	cr_expect(strstr(why, "% read; the bandwidth-latency family sustains"),
		  "%s", why);
	/* one figure at the mix, between 4 and 12 GB/s, split in two */
	sum = json_number_value(json_object_get(json_object_get(cfg,
			"platform_ceiling"), "read_bps")) +
	      json_number_value(json_object_get(json_object_get(cfg,
			"platform_ceiling"), "write_bps"));
	cr_expect(sum >= 4e9 && sum <= 12e9, "ceilings sum to %g", sum);
	cr_expect(sum < 20e9, "not two independent 10 GB/s ceilings");
	json_decref(doc);
	free(o);
}

Test(cli, plan_twice_stores_one_configuration, .timeout = 120)
{
	char dir[64], db[128], mix[128];
	struct out *o = malloc(sizeof(*o));

	profiled_small(dir, db, mix, 20000);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "tuned configuration 1 "), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "configuration 1 was planned from the same "
			 "inputs"), "%s", o->text);
	cr_assert(strstr(o->text, "tuned configuration 1 "), "%s", o->text);
	cr_assert_eq(configs(db), 1);
	/* another option is another input: a second configuration */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		mix, "--periods", "1000,2000", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->out, "\"config_id\": 2"), "%s", o->out);
	cr_assert_eq(configs(db), 2);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "--json", "plan",
		mix, "--periods", "1000,2000", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->out, "\"existing\": true"), "%s", o->out);
	cr_assert_eq(configs(db), 2);
	free(o);
}

/* copy_file - @from to @to, executable. */
static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
	size_t n;

	cr_assert(a && b);
	while ((n = fread(buf, 1, sizeof(buf), a)) > 0)
		cr_assert_eq(fwrite(buf, 1, n, b), n);
	fclose(a);
	fclose(b);
	cr_assert_eq(chmod(to, 0755), 0);
}

Test(cli, changed_argv_refuses_with_the_profile_command, .timeout = 120)
{
	char dir[64], db[128], mix[128], want[256];
	struct out *o = malloc(sizeof(*o));
	char *edited = strdup(small_mix), *p;

	profiled_small(dir, db, mix, 20000);
	p = strstr(edited, "--mb 96");
	cr_assert(p);
	memcpy(p, "--mb 48", 7);	/* the stream now reads half as much */
	write_mix(dir, mix, sizeof(mix), edited);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "workload 'stream'"), "%s", o->text);
	cr_assert(strstr(o->text, "its command changed"), "%s", o->text);
	snprintf(want, sizeof(want), "'memtune profile %s'", mix);
	cr_assert(strstr(o->text, want), "%s", o->text);
	cr_assert_eq(configs(db), 0, "nothing was planned");
	/* a changed core is a changed profile too */
	p = strstr(edited, "cpu: 1");
	memcpy(p, "cpu: 0", 6);
	write_mix(dir, mix, sizeof(mix), edited);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		"--runs", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	p = strstr(edited, "cpu: 0");
	memcpy(p, "cpu: 1", 6);
	write_mix(dir, mix, sizeof(mix), edited);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "profiled on cpu 0, the mix now declares "
			 "cpu 1"), "%s", o->text);
	/* --reprofile profiles it again, then plans */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix,
		"--reprofile", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "profiling mix 'small' again"), "%s",
		  o->text);
	cr_assert(strstr(o->text, "tuned configuration 1 "), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "planned from the same inputs"), "%s",
		  o->text);
	free(edited);
	free(o);
}

Test(cli, changed_or_missing_binary_refuses, .timeout = 120)
{
	char dir[64], db[128], mix[128], bin[128], body[1024], want[256];
	struct out *o = malloc(sizeof(*o));
	FILE *f;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	snprintf(bin, sizeof(bin), "%s/load", dir);
	seed(db, 10e9, 20000);
	copy_file(MEMCAL_BINARY_DIR "/tuner/memcal-load", bin);
	snprintf(body, sizeof(body),
		 "name: own\n"
		 "runs: 1\n"
		 "workloads:\n"
		 "  - name: control\n"
		 "    argv: [%s, compute, --iters, \"100000\"]\n"
		 "    criticality: rt\n"
		 "    deadline_us: 100000\n"
		 "    cpu: 1\n", bin);
	write_mix(dir, mix, sizeof(mix), body);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	/* rebuilt: same path, other contents */
	f = fopen(bin, "ab");
	cr_assert(f);
	fputs("rebuilt", f);
	fclose(f);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "changed since it was profiled"), "%s",
		  o->text);
	snprintf(want, sizeof(want), "'memtune profile %s'", mix);
	cr_assert(strstr(o->text, want), "%s", o->text);
	/* gone */
	cr_assert_eq(unlink(bin), 0);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "is not an executable file here"), "%s",
		  o->text);
	cr_assert(strstr(o->text, want), "%s", o->text);
	cr_assert_eq(configs(db), 0);
	free(o);
}
