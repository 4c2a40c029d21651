// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_output.c - the JSON writer, errors, and the progress bar (drawn on
 * a terminal, silent on a pipe or with -q).
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <jansson.h>
#include <pty.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* drain - everything readable from @fd without blocking forever. */
static size_t drain(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;

	while (n < cap - 1 && (r = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	return n;
}

Test(output, progress_is_drawn_on_a_terminal)
{
	int master, slave;
	char buf[4096];
	FILE *err;
	struct cli_ctx ctx = { .tool = "t" };
	struct cli_progress p;

	cr_assert_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	err = fdopen(slave, "w");
	ctx.err = err;
	cli_progress_begin(&p, &ctx, "measuring", 4);
	cr_assert(p.enabled);
	cli_progress_step(&p, "read");
	cli_progress_step(&p, "write");
	cli_progress_end(&p);
	fclose(err);
	drain(master, buf, sizeof(buf));
	close(master);
	cr_assert_not_null(strstr(buf, "measuring ["), "%s", buf);
	cr_assert_not_null(strstr(buf, "2/4 write"), "%s", buf);
}

Test(output, progress_is_silent_on_a_pipe_and_with_quiet)
{
	int fds[2];
	char buf[256];
	struct cli_ctx ctx = { .tool = "t" };
	struct cli_progress p;

	cr_assert_eq(pipe(fds), 0);
	ctx.err = fdopen(fds[1], "w");
	cli_progress_begin(&p, &ctx, "measuring", 2);
	cli_progress_step(&p, "x");
	cli_progress_end(&p);
	cr_assert_not(p.enabled);
	fclose(ctx.err);
	cr_assert_eq(drain(fds[0], buf, sizeof(buf)), 0, "nothing on a pipe");
	close(fds[0]);

	int master, slave;
	cr_assert_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	ctx.err = fdopen(slave, "w");
	ctx.verbosity = -1;
	cli_progress_begin(&p, &ctx, "measuring", 2);
	cr_assert_not(p.enabled, "-q turns the bar off on a terminal too");
	fclose(ctx.err);
	close(master);
}

Test(output, json_error_document)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct cli_ctx ctx = { .tool = "memcal", .command = "run",
			       .json = true, .out = out, .err = stderr };
	json_t *j, *e;

	cr_assert_eq(cli_error(&ctx, CLI_EXIT_UNSUPPORTED, "no %s here",
			       "PMU"), 77);
	fclose(out);
	j = json_loads(buf, 0, NULL);
	cr_assert_not_null(j, "%s", buf);
	e = json_object_get(j, "error");
	cr_assert_str_eq(json_string_value(json_object_get(e, "message")),
			 "no PMU here");
	cr_assert_str_eq(json_string_value(json_object_get(e, "kind")),
			 "unsupported");
	cr_assert_str_eq(json_string_value(json_object_get(j, "command")),
			 "run");
	cr_assert_str_eq(json_string_value(json_object_get(j, "tool")),
			 "memcal");
	cr_assert_str_eq(json_string_value(json_object_get(j, "version")),
			 MEMCAL_VERSION);
	cr_assert(json_is_false(json_object_get(j, "ok")));
	cr_assert(json_is_array(json_object_get(j, "warnings")));
	cr_assert_eq(json_integer_value(json_object_get(e, "code")), 77);
	json_decref(j);
	free(buf);
}

Test(output, text_error_goes_to_stderr_only)
{
	char *obuf = NULL, *ebuf = NULL;
	size_t olen = 0, elen = 0;
	FILE *out = open_memstream(&obuf, &olen);
	FILE *err = open_memstream(&ebuf, &elen);
	struct cli_ctx ctx = { .tool = "memtune", .command = "plan",
			       .out = out, .err = err };

	cr_assert_eq(cli_error(&ctx, CLI_EXIT_FAILURE, "bad mix"), 1);
	fclose(out);
	fclose(err);
	cr_assert_eq(olen, 0);
	cr_assert_str_eq(ebuf, "memtune plan: bad mix\n");
	free(obuf);
	free(ebuf);
}

/* fake_cmd - records that it ran and what the context held. */
static int fake_cmd(struct cli_ctx *ctx, int argc, char **argv)
{
	(void)argc;
	fprintf(ctx->out, "ran %s json=%d db=%s v=%d\n", argv[0], ctx->json,
		ctx->db_path ? ctx->db_path : "-", ctx->verbosity);
	return 5;
}

Test(output, dispatch_applies_common_options_before_the_command,
     .init = cr_redirect_stdout)
{
	static const struct cli_command cmds[] = {
		{ "go", fake_cmd, "fake" }, { NULL, NULL, NULL } };
	static const struct cli_tool tool = { "t", "test tool", cmds };
	char *argv[] = { "t", "--db", "/x.db", "-v", "-v", "go", NULL };

	cr_assert_eq(cli_main(&tool, 6, argv), 5, "command's code returned");
	fflush(stdout);
	cr_assert_stdout_eq_str("ran go json=0 db=/x.db v=2\n");
}

Test(output, envelope_carries_result_and_warnings)
{
	char *buf = NULL, *ebuf = NULL;
	size_t len = 0, elen = 0;
	FILE *out = open_memstream(&buf, &len);
	FILE *err = open_memstream(&ebuf, &elen);
	struct cli_ctx ctx = { .tool = "memtune", .command = "export",
			       .json = true, .out = out, .err = err };
	json_t *j;

	cli_warn(&ctx, "no %s here", "resctrl");
	cr_assert_eq(cli_emit_json(&ctx, json_pack("{s:i}", "config_id", 3)),
		     0);
	cr_assert_eq(cli_error(&ctx, 1, "late"), 1);
	fclose(out);
	fclose(err);
	j = json_loads(buf, 0, NULL);
	cr_assert_not_null(j, "exactly one document: %s", buf);
	cr_assert(json_is_true(json_object_get(j, "ok")));
	cr_assert_str_eq(json_string_value(json_object_get(j, "tool")),
			 "memtune");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(j,
		     "result"), "config_id")), 3);
	cr_assert_str_eq(json_string_value(json_array_get(json_object_get(j,
			 "warnings"), 0)), "no resctrl here");
	cr_assert_not_null(strstr(ebuf, "warning: no resctrl here"), "%s",
			   ebuf);
	cr_assert_not_null(strstr(ebuf, "memtune export: late"),
			   "an error after the document goes to stderr: %s",
			   ebuf);
	json_decref(j);
	json_decref(ctx.warnings);
	free(buf);
	free(ebuf);
}

Test(output, synopsis_is_generated_from_the_option_table)
{
	static const struct cli_option opts[] = {
		CLI_OPT("format", 'f', "FMT", 'f', "format"),
		CLI_OPT("out", 'o', "FILE", 'o', "where"),
		CLI_OPT("keep", 0, NULL, 'k', "keep"),
		CLI_OPT_END,
	};
	char *s = cli_synopsis("memtune", "export", "--format FMT", opts);

	cr_assert_str_eq(s, "memtune export --format FMT [--out FILE] [--keep]"
			 " [COMMON]");
	free(s);
}

/**
 * struct stored_args - what the stored-option tests parse into.
 * @out:    CLI_STORE_STRING.
 * @name:   CLI_STORE_NONEMPTY.
 * @force:  CLI_STORE_FLAG.
 * @id:     CLI_STORE_ID.
 * @count:  CLI_STORE_UINT, 2..9.
 * @keys:   the keys the callback saw, in order.
 * @n_keys: entries in @keys.
 */
struct stored_args {
	const char *out;
	const char *name;
	bool force;
	int64_t id;
	unsigned count;
	int keys[4];
	int n_keys;
};

/* stored_cb - records the keys of the options that do not store. */
static int stored_cb(struct cli_ctx *ctx, int key, const char *arg,
		     void *user)
{
	struct stored_args *a = user;

	(void)ctx;
	(void)arg;
	if (a->n_keys < 4)
		a->keys[a->n_keys++] = key;
	return 0;
}

static const struct cli_option stored_opts[] = {
	CLI_OPT_STRING("out", 'o', "FILE", struct stored_args, out, "where"),
	CLI_OPT_NONEMPTY("name", 0, "NAME", struct stored_args, name, "the name",
			 "a name to use"),
	CLI_OPT_FLAG("force", 'f', struct stored_args, force, "force"),
	CLI_OPT_ID("run", 'r', struct stored_args, id, "run"),
	CLI_OPT_UINT("count", 'n', "N", struct stored_args, count, 2, 9,
		     "count"),
	CLI_OPT("keep", 'k', NULL, 'k', "keep"),
	CLI_OPT("level", 0, "N", 300, "level"),
	CLI_OPT_END,
};

/*
 * parse_stored - cli_parse_options() of @argv with stored_opts into @a;
 * stderr into *@ebuf (caller frees).
 */
static int parse_stored(char **argv, struct stored_args *a, char **ebuf)
{
	size_t elen = 0;
	FILE *err = open_memstream(ebuf, &elen);
	struct cli_ctx ctx = { .tool = "t", .command = "c", .out = err,
			       .err = err };
	int argc = 0, rc;

	while (argv[argc])
		argc++;
	rc = cli_parse_options(&ctx, argc, argv, NULL, stored_opts,
			       stored_cb, a, NULL);
	fclose(err);
	return rc;
}

Test(output, stored_options_store_themselves)
{
	char *argv[] = { "c", "-o", "x.json", "--name", "n1", "--force",
			 "--json", NULL };
	struct stored_args a = { 0 };
	char *ebuf = NULL;

	cr_assert_eq(parse_stored(argv, &a, &ebuf), 0, "%s", ebuf);
	cr_assert_str_eq(a.out, "x.json");
	cr_assert_str_eq(a.name, "n1");
	cr_assert(a.force);
	cr_assert_eq(a.n_keys, 0, "no stored option reaches the callback");
	free(ebuf);
}

Test(output, short_stored_flag_and_string)
{
	char *argv[] = { "c", "-fo", "-", NULL };
	struct stored_args a = { 0 };
	char *ebuf = NULL;

	cr_assert_eq(parse_stored(argv, &a, &ebuf), 0, "%s", ebuf);
	cr_assert(a.force);
	cr_assert_str_eq(a.out, "-");
	free(ebuf);
}

Test(output, empty_nonempty_option_is_refused_by_name)
{
	char *argv[] = { "c", "--name", "", NULL };
	struct stored_args a = { 0 };
	char *ebuf = NULL;

	cr_assert_eq(parse_stored(argv, &a, &ebuf), CLI_EXIT_USAGE);
	cr_assert_str_eq(ebuf, "t c: --name needs the name\n");
	cr_assert_null(a.name);
	free(ebuf);
}

/*
 * number_cases - a CLI_OPT_ID (--run, -r) or CLI_OPT_UINT (--count, -n,
 * 2..9) value, what parsing it returns, how its message starts, and what
 * is stored (a refused value stores nothing).
 */
static const struct {
	const char *opt, *arg;
	int rc;
	const char *err;
	int64_t id;
	unsigned count;
} number_cases[] = {
	{ "--run", "42", 0, "", 42, 0 },
	{ "-r", "0", CLI_EXIT_USAGE, "t c: --run '0': ", 0, 0 },
	{ "--run", "4x", CLI_EXIT_USAGE, "t c: --run '4x': ", 0, 0 },
	{ "--count", "9", 0, "", 0, 9 },
	{ "-n", "1", CLI_EXIT_USAGE,
	  "t c: --count '1': number out of range (2..9)\n", 0, 0 },
	{ "--count", "three", CLI_EXIT_USAGE, "t c: --count 'three': ", 0, 0 },
};

Test(output, stored_numbers_are_checked_before_they_are_stored)
{
	for (size_t i = 0; i < sizeof(number_cases) / sizeof(number_cases[0]);
	     i++) {
		const char *opt = number_cases[i].opt, *arg = number_cases[i].arg;
		char *argv[] = { "c", (char *)opt, (char *)arg, NULL };
		struct stored_args a = { 0 };
		char *ebuf = NULL;

		cr_expect_eq(parse_stored(argv, &a, &ebuf), number_cases[i].rc,
			     "%s %s", opt, arg);
		cr_expect(!strncmp(ebuf, number_cases[i].err,
				   strlen(number_cases[i].err)),
			  "%s %s: '%s'", opt, arg, ebuf);
		cr_expect_eq(a.id, number_cases[i].id, "%s %s", opt, arg);
		cr_expect_eq(a.count, number_cases[i].count, "%s %s", opt, arg);
		cr_expect_eq(a.n_keys, 0, "%s %s reached the callback", opt,
			     arg);
		free(ebuf);
	}
}

Test(output, callback_gets_the_options_that_do_not_store)
{
	char *argv[] = { "c", "-k", "--out", "o", "--level", "3", "-f", NULL };
	struct stored_args a = { 0 };
	char *ebuf = NULL;

	cr_assert_eq(parse_stored(argv, &a, &ebuf), 0, "%s", ebuf);
	cr_assert_eq(a.n_keys, 2);
	cr_assert_eq(a.keys[0], 'k');
	cr_assert_eq(a.keys[1], 300);
	cr_assert_str_eq(a.out, "o");
	cr_assert(a.force);
	free(ebuf);
}

Test(output, stored_common_options_reach_the_context,
     .init = cr_redirect_stdout)
{
	static const struct cli_command cmds[] = {
		{ "go", fake_cmd, "fake" }, { NULL, NULL, NULL } };
	static const struct cli_tool tool = { "t", "test tool", cmds };
	char *argv[] = { "t", "--db", "/y.db", "--json", "go", NULL };

	cr_assert_eq(cli_main(&tool, 5, argv), 5);
	fflush(stdout);
	cr_assert_stdout_eq_str("ran go json=1 db=/y.db v=0\n");
}
