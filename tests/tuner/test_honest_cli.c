// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_honest_cli.c - options and exports that say what they do, through
 * the memtune binary: an --assume-overhead-ns that a measurement
 * overrides is said to be ignored; --mba-mbps with --mba-percent is a
 * usage error; --format modprobe writes the modprobe.d file alone and
 * --format modules-load the modules-load.d one; a unit path systemd
 * cannot carry fails the export with the reason and writes nothing.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"

#define CONFIG MEMCAL_SOURCE_DIR "/tests/fixtures/export/config.json"

Test(honest_cli, assumed_overhead_ignored_is_said, .timeout = 120)
{
	char dir[64], db[128], mix[128];
	struct out *o = malloc(sizeof(*o));

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 10e9, 20000);
	write_mix(dir, mix, sizeof(mix), small_mix);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		"--runs", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix,
		"--assume-overhead-ns", "30000", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "--assume-overhead-ns 30000 was ignored: "
			 "run "), "%s", o->text);
	cr_assert(strstr(o->text, "measured the overhead (memreg), and a "
			 "measurement always wins"), "%s", o->text);
	/* without the option, no such note */
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert_null(strstr(o->text, "was ignored"), "%s", o->text);
	free(o);
}

Test(honest_cli, mba_units_conflict_is_usage_error)
{
	struct out *o = malloc(sizeof(*o));

	run(o, (const char *const[]){ MEMTUNE, "export", "--format", "resctrl",
		"--file", CONFIG, "--mba-mbps", "--mba-percent", NULL });
	cr_assert_eq(o->rc, 2, "%s", o->text);
	cr_assert(strstr(o->text, "--mba-mbps and --mba-percent contradict "
			 "each other"), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "export", "--format", "pqos",
		"--file", CONFIG, "--mba-percent", "--mba-mbps", NULL });
	cr_assert_eq(o->rc, 2, "%s", o->text);
	free(o);
}

Test(honest_cli, modprobe_and_modules_load_are_two_files)
{
	struct out *o = malloc(sizeof(*o));
	char dir[64], conf[128], load[128], *text;

	scratch(dir, sizeof(dir));
	snprintf(conf, sizeof(conf), "%s/memreg.conf", dir);
	snprintf(load, sizeof(load), "%s/modules-load.conf", dir);
	run(o, (const char *const[]){ MEMTUNE, "export", "--format",
		"modprobe", "--file", CONFIG, "--out", conf, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	text = slurp(conf);
	cr_assert(text);
	cr_assert(strstr(text, "\noptions memreg period_us=1000 "), "%s", text);
	cr_assert_null(strstr(text, "\nmemreg\n"), "%s", text);
	free(text);
	run(o, (const char *const[]){ MEMTUNE, "export", "--format",
		"modules-load", "--file", CONFIG, "--out", load, NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	text = slurp(load);
	cr_assert(text);
	cr_assert(strstr(text, "\nmemreg\n"), "%s", text);
	cr_assert_null(strstr(text, "options"), "%s", text);
	free(text);
	free(o);
}

Test(honest_cli, unit_path_systemd_cannot_carry_fails)
{
	struct out *o = malloc(sizeof(*o));
	char dir[64], unit[128];

	scratch(dir, sizeof(dir));
	snprintf(unit, sizeof(unit), "%s/memreg-tune.service", dir);
	run(o, (const char *const[]){ MEMTUNE, "export", "--format", "systemd",
		"--file", CONFIG, "--memtune", "/opt/it's/memtune", "--out",
		unit, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "--memtune '/opt/it's/memtune' holds a "
			 "quote or a backslash, which systemd refuses"), "%s",
		  o->text);
	cr_assert_neq(access(unit, F_OK), 0, "a refused export wrote %s",
		      unit);
	run(o, (const char *const[]){ MEMTUNE, "export", "--format", "systemd",
		"--file", CONFIG, "--config-path", "tuned.json", NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "is not an absolute path"), "%s", o->text);
	free(o);
}
