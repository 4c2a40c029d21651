// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mix_cli.c - every memtune command that loads a mix (profile, plan,
 * validate) on files that are not a mix: empty, comments only, /dev/null,
 * a directory, a FIFO nobody writes to, a huge file, a document that is a
 * scalar or a list, a name with a newline, a fraction where a whole
 * number belongs.  Each must end with exit 1 and one message naming the
 * file (and its line where one applies), never a signal, and must not
 * create the database it was pointed at.
 */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"

/**
 * struct bad_case - one input every mix-loading command must refuse.
 * @file:   file name in the scratch directory (or an absolute path).
 * @body:   its text; NULL for a special file made by make_special().
 * @phrase: what the message must say.
 */
struct bad_case {
	const char *file;
	const char *body;
	const char *phrase;
};

static const struct bad_case cases[] = {
	{ "empty.yaml", "", "the mix file is empty" },
	{ "comments.yaml", "# only\n# comments\n", "the mix file is empty" },
	{ "/dev/null", NULL, "/dev/null: the mix file is empty" },
	{ "adir", NULL, "is a directory" },
	{ "fifo", NULL, "is a pipe that no program is writing to" },
	{ "huge.yaml", NULL, "a mix file is at most 1048576 bytes" },
	{ "scalar.yaml", "hello\n", "line 1, column 1: a mix file is a "
	  "mapping" },
	{ "list.yaml", "- a\n- b\n", "not a list" },
	{ "newline.yaml", "name: m\nworkloads:\n  - name: \"a\\nb\"\n"
	  "    command: /bin/true\n    criticality: be\n",
	  "line 3, column 11: workload name holds a control character" },
	{ "fraction.yaml", "name: m\nworkloads:\n  - name: a\n"
	  "    command: /bin/true\n    criticality: rt\n"
	  "    period_us: 10000.5\n", "line 6, column 16: workload 'a': "
	  "period_us must be a whole number from 10 to 1000000" },
};

/* make_case - create @c in @dir; its path in @path. */
static void make_case(const char *dir, const struct bad_case *c, char *path,
		      size_t len)
{
	FILE *f;

	if (c->file[0] == '/') {
		snprintf(path, len, "%s", c->file);
		return;
	}
	snprintf(path, len, "%s/%s", dir, c->file);
	if (!strcmp(c->file, "adir"))
		cr_assert_eq(mkdir(path, 0700), 0);
	else if (!strcmp(c->file, "fifo"))
		cr_assert_eq(mkfifo(path, 0600), 0);
	else if (!strcmp(c->file, "huge.yaml")) {
		f = fopen(path, "w");
		cr_assert(f);
		fclose(f);
		cr_assert_eq(truncate(path, 2 << 20), 0);
	} else {
		f = fopen(path, "w");
		cr_assert(f);
		fputs(c->body, f);
		fclose(f);
	}
}

Test(mix_cli, every_loader_refuses_every_bad_file, .timeout = 120)
{
	static const char *const cmds[] = { "profile", "plan", "validate" };
	struct out *o = malloc(sizeof(*o));
	char dir[64], db[128], path[256];
	int n = 0;

	scratch(dir, sizeof(dir));
	snprintf(db, sizeof(db), "%s/never.db", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_case(dir, &cases[i], path, sizeof(path));
		for (size_t k = 0; k < 3; k++) {
			json_error_t je;
			json_t *doc;

			run(o, (const char *const[]){ MEMTUNE, "--db", db,
				cmds[k], path, NULL });
			cr_assert_eq(o->rc, 1, "%s %s: rc %d: %s", cmds[k],
				     path, o->rc, o->text);
			cr_assert(strstr(o->text, path), "%s %s: message does "
				  "not name the file: %s", cmds[k], path,
				  o->text);
			cr_assert(strstr(o->text, cases[i].phrase), "%s %s: "
				  "lacks '%s': %s", cmds[k], path,
				  cases[i].phrase, o->text);
			run(o, (const char *const[]){ MEMTUNE, "--db", db,
				"--json", cmds[k], path, NULL });
			cr_assert_eq(o->rc, 1, "%s --json %s: %s", cmds[k],
				     path, o->text);
			doc = json_loads(o->out, 0, &je);
			cr_assert(doc, "%s --json %s: no JSON: %s", cmds[k],
				  path, o->text);
			cr_assert(strstr(o->out, cases[i].phrase), "%s",
				  o->out);
			json_decref(doc);
			n++;
		}
	}
	cr_assert_eq(access(db, F_OK), -1, "a refused mix created %s", db);
	cr_assert_eq(n, 30);
	free(o);
}
