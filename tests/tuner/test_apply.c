// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_apply.c - memtune apply and validate through the binary against a
 * fake memreg sysfs tree (committed values, a rival regulator, another
 * board, a module that cannot load), and profile with a counter event.
 * The real module is exercised in QEMU by qemu_e2e.sh.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "memcal_db.h"
#include "memcal_db_tune.h"

/*
 * apply_per_cpu_events - @cfg with its CPUs given events of their own
 * (cpu 0 raw:0x08, cpu 1 raw:0x11) applied with --file: each CPU's
 * cpuN/read_event and write_event are written before commit; then one
 * with a per-CPU event that is no memreg spec is refused naming the CPU,
 * and nothing of it is written.  This machine has no PMU, so 'memtune
 * check' fails the raw events: --force applies them to the fake tree.
 */
static void apply_per_cpu_events(struct out *o, const char *db,
				 const char *dir, const char *root, json_t *cfg)
{
	json_t *doc = json_deep_copy(cfg), *cpus = json_object_get(doc, "cpus");
	char file[300], sub[300], gone[320], buf[128];

	for (size_t i = 0; i < 2; i++) {
		json_t *c = json_array_get(cpus, i);

		json_object_set_new(c, "kind", json_string(i ? "big" : "LITTLE"));
		json_object_set_new(json_object_get(c, "read"), "event",
				    json_string(i ? "raw:0x11" : "raw:0x08"));
		json_object_set_new(json_object_get(c, "write"), "event",
				    json_string(i ? "4:0x19" : "4:0x18"));
	}
	snprintf(file, sizeof(file), "%s/pcpu.json", dir);
	cr_assert_eq(json_dump_file(doc, file, 0), 0);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--file",
		file, "--sysfs", root, "--force", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	for (int c = 0; c < 2; c++) {
		snprintf(sub, sizeof(sub), "%s/cpu%d", root, c);
		get(sub, "read_event", buf, sizeof(buf));
		cr_assert_str_eq(buf, c ? "raw:0x11" : "raw:0x08", "cpu%d", c);
		get(sub, "write_event", buf, sizeof(buf));
		cr_assert_str_eq(buf, c ? "4:0x19" : "4:0x18", "cpu%d", c);
	}
	json_object_set_new(json_object_get(json_array_get(cpus, 1), "read"),
			    "event", json_string("raw:0xzz"));
	cr_assert_eq(json_dump_file(doc, file, 0), 0);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--file",
		file, "--sysfs", root, "--force", NULL });
	cr_assert_neq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "cpu 1 read.event 'raw:0xzz'"), "rc %d: %s", o->rc, o->text);
	snprintf(sub, sizeof(sub), "%s/cpu1", root);
	get(sub, "read_event", buf, sizeof(buf));
	cr_assert_str_eq(buf, "raw:0x11", "nothing of the refused file written");

	/* a memreg without cpuN/read_event cannot take a CPU's own event */
	json_object_set_new(json_object_get(json_array_get(cpus, 1), "read"),
			    "event", json_string("raw:0x11"));
	cr_assert_eq(json_dump_file(doc, file, 0), 0);
	snprintf(gone, sizeof(gone), "%s/read_event", sub);
	cr_assert_eq(unlink(gone), 0);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "apply", "--file",
		file, "--sysfs", root, "--force", NULL });
	cr_assert_neq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "no cpu1/read_event") &&
		  strstr(o->text, "predates per-CPU events"), "%s", o->text);
	test_put(sub, "read_event", "raw:0x11\n");
	json_decref(doc);
}

Test(apply, apply_and_validate_against_fake_sysfs, .timeout = 240)
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
	doc = json_result(o->out, &je);
	cr_assert(doc);
	cfg = json_object_get(doc, "document");

	fake_sysfs(dir, root, sizeof(root), true);
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
	get(cpu1, "read_event", buf, sizeof(buf));
	cr_assert_str_eq(buf, "default", "no event of its own: the global one");
	apply_per_cpu_events(o, db, dir, root, cfg);

	/* a rival regulator is refused */
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	test_put(dir, "modules", "memguard 16384 0 - Live 0x0\n");
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
	doc = json_result(o->out, &je);
	cr_assert(doc, "%s", o->text);
	cr_assert(json_is_true(json_object_get(doc, "regulated")), "%s",
		  o->text);
	get(root, "monitor", buf, sizeof(buf));
	cr_assert_str_eq(buf, "0", "left regulating, not monitoring");
	/*
	 * The regulated figure is there: a ratio of two measured times.  Its
	 * size is the host's (a solo run the host delayed gives a slowdown
	 * below 1), so only its presence is judged.
	 */
	cr_assert(json_is_real(json_object_get(json_array_get(
		json_object_get(doc, "results"), 0), "slowdown_regulated")),
		"%s", o->out);
	cr_assert_gt(json_real_value(json_object_get(json_array_get(
		json_object_get(doc, "results"), 0), "slowdown_regulated")),
		0, "%s", o->out);
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

Test(apply, profile_with_a_counter_event_samples_a_pmu_trace, .timeout = 120)
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
	doc = json_result(o->out, &je);
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

