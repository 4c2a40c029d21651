// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plan_cli.c - 'memtune plan' and the guaranteed figure end to end:
 * a calibration run without one is refused with what to do, and
 * --guarantees-from-streaming plans anyway with a warning that 'memtune
 * show' and every export format carry.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"

/* drop_guaranteed - remove every guaranteed figure from @db. */
static void drop_guaranteed(const char *db)
{
	sqlite3 *h;

	cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "DELETE FROM guaranteed_bandwidth", NULL,
				  NULL, NULL), SQLITE_OK, "%s",
		     sqlite3_errmsg(h));
	sqlite3_close(h);
}

Test(plan_cli, no_guaranteed_figure_is_refused_unless_streaming_is_asked,
     .timeout = 180)
{
	static const char *const fmts[] = { "json", "modprobe", "modules-load",
					    "systemd", "resctrl", "pqos" };
	char dir[64], db[128], mix[128], file[160];
	struct out *o = malloc(sizeof(*o));
	char *text;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/m.db", dir);
	seed(db, 10e9, 20000);
	drop_guaranteed(db);
	write_mix(dir, mix, sizeof(mix), small_mix);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "profile", mix,
		NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);

	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix, NULL });
	cr_assert_eq(o->rc, 1, "%s", o->text);
	cr_assert(strstr(o->text, "has no guaranteed read bandwidth"), "%s",
		  o->text);
	cr_assert(strstr(o->text, "'memcal run' again"), "%s", o->text);
	cr_assert(strstr(o->text, "--guarantees-from-streaming"), "%s",
		  o->text);

	run(o, (const char *const[]){ MEMTUNE, "--db", db, "plan", mix,
		"--guarantees-from-streaming", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "guarantees were planned from the streaming"),
		  "%s", o->text);
	cr_assert(strstr(o->text, "read guaranteed pool"), "%s", o->text);
	run(o, (const char *const[]){ MEMTUNE, "--db", db, "show", "1", NULL });
	cr_assert_eq(o->rc, 0, "%s", o->text);
	cr_assert(strstr(o->text, "guarantees were planned from the streaming"),
		  "show: %s", o->text);

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(file, sizeof(file), "%s/out.%s", dir, fmts[i]);
		run(o, (const char *const[]){ MEMTUNE, "--db", db, "export",
			"--format", fmts[i], "--out", file, NULL });
		cr_assert_eq(o->rc, 0, "%s: %s", fmts[i], o->text);
		text = slurp(file);
		cr_assert(text, "%s not written", file);
		cr_expect(strstr(text, "guarantees were planned from the "
				 "streaming"), "%s carries no warning:\n%s",
			  fmts[i], text);
		free(text);
	}
	free(o);
}
