// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - the dispatcher and option parser shared by memcal and memtune.
 *
 * Common options may stand before the subcommand (memcal --json show) or
 * among its own options (memcal show --json); both reach the same context.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum {
	OPT_HELP = 1000,
	OPT_VERSION,
	OPT_QUIET,
	OPT_VERBOSE,
};

#define NOT_COMMON (-2)	/* apply_common(): not a common option */

/*
 * The getopt values of the options that store themselves: past every
 * key, the command's at OWN_STORED + index, the common ones' at
 * COMMON_STORED + index.
 */
#define OWN_STORED	0x10000
#define COMMON_STORED	0x20000

/*
 * The options every command accepts, in the order --help lists them;
 * the stored ones are stored in the struct cli_ctx.
 */
static const struct cli_option common_options[] = {
	CLI_OPT_STRING("db", 0, "PATH", struct cli_ctx, db_path,
		       "database file (default: $MEMCAL_DB, else see memcal(1))"),
	CLI_OPT_FLAG("json", 0, struct cli_ctx, json,
		     "machine output on stdout, errors too"),
	CLI_OPT("quiet", 'q', NULL, OPT_QUIET, "print less; no progress bar"),
	CLI_OPT("verbose", 'v', NULL, OPT_VERBOSE, "print more (repeatable)"),
	CLI_OPT("help", 'h', NULL, OPT_HELP, "show this help and exit"),
	CLI_OPT("version", 0, NULL, OPT_VERSION, "show the version and exit"),
	CLI_OPT_END,
};

/* count_options - number of entries before the NULL terminator. */
static size_t count_options(const struct cli_option *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

#define HELP_WIDTH 80	/* no help line is wider (tests/cli check it) */
#define HELP_INDENT 29	/* column where an option's help text starts */

/*
 * print_wrapped - @text from column @col (already written) to
 * HELP_WIDTH, breaking at spaces; continuation lines start at @indent.
 */
static void print_wrapped(FILE *f, const char *text, int col, int indent)
{
	while (*text) {
		int room = HELP_WIDTH - col, len = (int)strlen(text), cut;

		if (len <= room) {
			fprintf(f, "%s", text);
			break;
		}
		for (cut = room; cut > 0 && text[cut] != ' '; cut--)
			;
		if (cut == 0)	/* one word wider than the line */
			for (cut = room; text[cut] && text[cut] != ' '; cut++)
				;
		fprintf(f, "%.*s\n%*s", cut, text, indent, "");
		text += cut;
		while (*text == ' ')
			text++;
		col = indent;
	}
	fputc('\n', f);
}

/* option_left - "-o, --out FILE" or "    --json" for @o into @buf. */
static void option_left(const struct cli_option *o, char *buf, size_t len)
{
	if (o->short_name)
		snprintf(buf, len, "-%c, --%s%s%s", o->short_name, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(buf, len, "    --%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
}

/* print_option_help - one aligned, wrapped entry per option of @opts. */
static void print_option_help(FILE *f, const struct cli_option *opts)
{
	for (size_t i = 0; opts && opts[i].name; i++) {
		char left[64];
		int col;

		option_left(&opts[i], left, sizeof(left));
		col = fprintf(f, "  %-26s ", left);
		if (col > HELP_INDENT) {
			fprintf(f, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		}
		print_wrapped(f, opts[i].help, col, HELP_INDENT);
	}
}

/* mentions - @synopsis already names option --@name (as a whole word). */
static bool mentions(const char *synopsis, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = synopsis; p && (p = strstr(p, "--")); p += 2)
		if (!strncmp(p + 2, name, n) &&
		    !(isalnum((unsigned char)p[2 + n]) || p[2 + n] == '-'))
			return true;
	return false;
}

/**
 * cli_synopsis() - the full synopsis of a command, generated from its
 * option table: @args (positional arguments and any options written out
 * there, such as a required one), then "[--name ARG]" for every other
 * option of @opts.  The common options are summarised as "[COMMON]".
 * @tool, @command: names.  @args: may be NULL.  @opts: may be NULL.
 *
 * Return: a malloc'd string, or NULL when out of memory.
 */
char *cli_synopsis(const char *tool, const char *command, const char *args,
		   const struct cli_option *opts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s %s", tool, command);
	if (args && *args)
		fprintf(f, " %s", args);
	for (size_t i = 0; opts && opts[i].name; i++)
		if (!mentions(args, opts[i].name))
			fprintf(f, " [--%s%s%s]", opts[i].name,
				opts[i].arg ? " " : "",
				opts[i].arg ? opts[i].arg : "");
	fprintf(f, " [COMMON]");
	fclose(f);
	return buf;
}

/* print_synopsis - "Usage: " and @syn wrapped at brackets to 80 columns. */
static void print_synopsis(FILE *f, const char *syn)
{
	int col = fprintf(f, "Usage: ");
	const char *p = syn;

	while (*p) {
		const char *end = p;
		int n;

		/* a word, or a whole "[...]" group, is never split */
		if (*p == '[') {
			int depth = 0;

			do {
				depth += *end == '[' ? 1 : *end == ']' ? -1 : 0;
				end++;
			} while (*end && depth);
		} else {
			end = p + strcspn(p, " ");
		}
		n = (int)(end - p);
		if (col > 7 && col + 1 + n > HELP_WIDTH) {
			fprintf(f, "\n%*s", 7, "");
			col = 7;
		} else if (col > 7) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", n, p);
		p = end;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/*
 * getopt_val - what getopt returns for @opts[@i]: its key, or @stored +
 * @i when it stores itself.
 */
static int getopt_val(const struct cli_option *opts, size_t i, int stored)
{
	return opts[i].store == CLI_STORE_NONE ? opts[i].key :
		stored + (int)i;
}

/*
 * fill_getopt - append @opts to the getopt_long table @lo and the short
 * option string @shorts, both sized by the caller; @stored as for
 * getopt_val().
 */
static void fill_getopt(const struct cli_option *opts, int stored,
			struct option *lo, size_t *nlo, char *shorts,
			size_t *nshort)
{
	for (size_t i = 0; opts && opts[i].name; i++) {
		lo[*nlo].name = opts[i].name;
		lo[*nlo].has_arg = opts[i].arg ? required_argument : no_argument;
		lo[*nlo].flag = NULL;
		lo[*nlo].val = getopt_val(opts, i, stored);
		(*nlo)++;
		if (opts[i].short_name) {
			shorts[(*nshort)++] = (char)opts[i].short_name;
			if (opts[i].arg)
				shorts[(*nshort)++] = ':';
		}
	}
}

/*
 * short_to_key - map a short option letter returned by getopt to the
 * getopt_val() of the entry that declares it (which may differ from the
 * letter).
 */
static int short_to_key(const struct cli_option *opts, int stored, int c)
{
	for (size_t i = 0; opts && opts[i].name; i++)
		if (opts[i].short_name == c)
			return getopt_val(opts, i, stored);
	return c;
}

/*
 * store_option - store @arg, or true, as @o says in the structure at
 * @base.  Return: 0, or CLI_EXIT_USAGE for an empty CLI_STORE_NONEMPTY
 * or a bad CLI_STORE_ID or CLI_STORE_UINT (error reported).
 */
static int store_option(struct cli_ctx *ctx, const struct cli_option *o,
			const char *arg, void *base)
{
	char *at = (char *)base + o->offset;

	if (o->store == CLI_STORE_FLAG) {
		*(bool *)at = true;
		return 0;
	}
	if (o->store == CLI_STORE_ID)
		return cli_option_id(ctx, o->name, arg, (int64_t *)at);
	if (o->store == CLI_STORE_UINT) {
		const char *why;
		uint64_t v;

		if (cli_parse_u64(arg, o->min, o->max, &v, &why))
			return cli_error(ctx, CLI_EXIT_USAGE, "--%s '%s': %s "
					 "(%u..%u)", o->name, arg, why, o->min,
					 o->max);
		*(unsigned *)at = (unsigned)v;
		return 0;
	}
	if (o->store == CLI_STORE_NONEMPTY && !*arg)
		return cli_error(ctx, CLI_EXIT_USAGE, "--%s needs %s", o->name,
				 o->need);
	*(const char **)at = arg;
	return 0;
}

/*
 * stored_option - the entry of @opts that getopt value @c stands for
 * when it stores itself (see getopt_val()), else NULL.
 */
static const struct cli_option *stored_option(const struct cli_option *opts,
					      int stored, int c)
{
	if (c < stored || (size_t)(c - stored) >= count_options(opts))
		return NULL;
	return &opts[c - stored];
}

/* tool_usage - the tool-level --help: common options and the command table. */
static void tool_usage(const struct cli_tool *tool, FILE *f)
{
	fprintf(f, "%s - %s\n\nUsage: %s [COMMON] COMMAND [OPTIONS] [ARGS]\n\n"
		"Commands:\n", tool->name, tool->summary, tool->name);
	for (const struct cli_command *c = tool->commands; c->name; c++) {
		int col = fprintf(f, "  %-10s ", c->name);

		print_wrapped(f, c->summary, col, col);
	}
	fprintf(f, "\nCommon options (accepted by every command):\n");
	print_option_help(f, common_options);
	fprintf(f, "\nRun '%s COMMAND --help' for a command's synopsis and "
		"options.\nExit status: 0 ok, 1 failure, 2 usage error, 77 not "
		"supported on this\nhardware.  See %s(1).\n", tool->name,
		tool->name);
}

/* options_json - [{"long", "short", "arg", "help"}] of @opts. */
static json_t *options_json(const struct cli_option *opts)
{
	json_t *a = json_array();

	for (size_t i = 0; opts && opts[i].name; i++) {
		char s[3] = { '-', (char)opts[i].short_name, '\0' };
		char l[64];

		snprintf(l, sizeof(l), "--%s", opts[i].name);
		json_array_append_new(a, json_pack("{s:s, s:s?, s:s?, s:s}",
			"long", l, "short", opts[i].short_name ? s : NULL,
			"arg", opts[i].arg, "help", opts[i].help));
	}
	return a;
}

/*
 * show_help - --help of the tool (@command NULL) or of a command, as text,
 * or with --json as the result {"text", "synopsis", "options",
 * "commands"}.  Return: CLI_HELP_SHOWN or CLI_EXIT_FAILURE.
 */
static int show_help(struct cli_ctx *ctx, const char *args,
		     const struct cli_option *opts)
{
	char *text = NULL, *syn = NULL;
	size_t len = 0;
	FILE *f = ctx->json ? open_memstream(&text, &len) : ctx->out;
	json_t *res, *cmds = NULL;

	if (!f)
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	if (!ctx->command) {
		tool_usage(ctx->def, f);
	} else {
		syn = cli_synopsis(ctx->tool, ctx->command, args, opts);
		print_synopsis(f, syn ? syn : "");
		fprintf(f, "\nOptions:\n");
		print_option_help(f, opts);
		fprintf(f, "\nCommon options:\n");
		print_option_help(f, common_options);
		fprintf(f, "\nSee %s(1).\n", ctx->tool);
	}
	if (!ctx->json) {
		free(syn);
		return CLI_HELP_SHOWN;
	}
	fclose(f);
	if (!ctx->command) {
		cmds = json_array();
		for (const struct cli_command *c = ctx->def->commands; c->name;
		     c++)
			json_array_append_new(cmds, json_pack("{s:s, s:s}",
				"name", c->name, "summary", c->summary));
	}
	res = json_pack("{s:s, s:s?, s:o, s:o, s:o*}", "text", text ? text : "",
			"synopsis", syn, "options", options_json(opts),
			"common_options", options_json(common_options),
			"commands", cmds);
	free(text);
	free(syn);
	return cli_emit_json(ctx, res) ? CLI_EXIT_FAILURE : CLI_HELP_SHOWN;
}

/* show_version - --version as text or as the result {"version"}. */
static int show_version(struct cli_ctx *ctx)
{
	if (!ctx->json) {
		fprintf(ctx->out, "%s %s\n", ctx->tool, MEMCAL_VERSION);
		return CLI_HELP_SHOWN;
	}
	return cli_emit_json(ctx, json_pack("{s:s}", "version",
					    MEMCAL_VERSION)) ?
		CLI_EXIT_FAILURE : CLI_HELP_SHOWN;
}

/*
 * apply_common - handle one common option that does not store itself;
 * returns 0, CLI_HELP_SHOWN for --help/--version (already printed), an
 * exit code when printing them failed, or NOT_COMMON when @key is not
 * such an option.
 */
static int apply_common(struct cli_ctx *ctx, int key, const char *synopsis,
			const struct cli_option *opts)
{
	switch (key) {
	case OPT_QUIET:
		ctx->verbosity = -1;
		return 0;
	case OPT_VERBOSE:
		if (ctx->verbosity < 0)
			ctx->verbosity = 0;
		ctx->verbosity++;
		return 0;
	case OPT_VERSION:
		return show_version(ctx);
	case OPT_HELP:
		return show_help(ctx, synopsis, opts);
	default:
		return NOT_COMMON;
	}
}

/**
 * cli_parse_options() - parse a subcommand's options.
 * @ctx:       context; common options are applied to it.
 * @argc, @argv: argv[0] is the subcommand name.
 * @synopsis:  positional arguments (and any option that must be written
 *             out, such as a required one) for the generated synopsis.
 * @opts:      the subcommand's own options (may be NULL).
 * @fn:        called for each of @opts found that does not store itself
 *             (CLI_STORE_NONE), in order; may be NULL when none is such.
 * @user:      the structure the stored options are stored in; handed to
 *             @fn.
 * @first_arg: set to the index of the first positional argument; NULL
 *             for a command that takes none (one is a usage error).
 *
 * Return: 0, CLI_HELP_SHOWN when --help or --version was handled, or a
 * CLI_EXIT_* code (a usage error has been reported through cli_error()).
 */
int cli_parse_options(struct cli_ctx *ctx, int argc, char **argv,
		      const char *synopsis, const struct cli_option *opts,
		      cli_option_fn fn, void *user, int *first_arg)
{
	size_t n = count_options(opts) + count_options(common_options);
	struct option *lo = calloc(n + 1, sizeof(*lo));
	char *shorts = calloc(2 * n + 3, 1);
	const struct cli_option *o;
	size_t nlo = 0, nshort = 0;
	int rc = 0, c;

	if (!lo || !shorts) {
		free(lo);
		free(shorts);
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	}
	shorts[nshort++] = '+';		/* stop at the first positional */
	shorts[nshort++] = ':';		/* report a missing argument as ':' */
	fill_getopt(opts, OWN_STORED, lo, &nlo, shorts, &nshort);
	fill_getopt(common_options, COMMON_STORED, lo, &nlo, shorts, &nshort);

	/* --json anywhere applies to errors found before it, too. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			ctx->json = true;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == '?' || c == ':') {
			const char *bad = argv[optind - 1];

			rc = cli_error(ctx, CLI_EXIT_USAGE, "%s option '%s'; "
				       "see '%s %s --help'",
				       c == ':' ? "missing argument to" :
				       "unknown", bad ? bad : "?", ctx->tool,
				       ctx->command ? ctx->command : "");
			break;
		}
		c = short_to_key(opts, OWN_STORED,
				 short_to_key(common_options, COMMON_STORED, c));
		if ((o = stored_option(common_options, COMMON_STORED, c)))
			rc = store_option(ctx, o, optarg, ctx);
		else if ((o = stored_option(opts, OWN_STORED, c)))
			rc = store_option(ctx, o, optarg, user);
		else
			rc = apply_common(ctx, c, synopsis, opts);
		if (rc == NOT_COMMON)
			rc = fn ? fn(ctx, c, optarg, user) : CLI_EXIT_USAGE;
		if (rc)
			break;
	}
	if (first_arg)
		*first_arg = optind;
	else if (!rc && optind < argc)
		rc = cli_error(ctx, CLI_EXIT_USAGE, "unexpected argument '%s'",
			       argv[optind]);
	free(lo);
	free(shorts);
	return rc;
}

/* find_command - the table entry named @name, or NULL. */
static const struct cli_command *find_command(const struct cli_tool *tool,
					      const char *name)
{
	for (const struct cli_command *c = tool->commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/*
 * dispatch - parse the options before the command and find it; sets
 * ctx->command.  Return: 0 (run argv[*first]), CLI_HELP_SHOWN, or an exit
 * code (error reported).
 */
static int dispatch(struct cli_ctx *ctx, const struct cli_tool *tool,
		    int argc, char **argv, int *first)
{
	const struct cli_command *cmd;
	int rc;

	rc = cli_parse_options(ctx, argc, argv, "COMMAND [ARGS]", NULL,
			       NULL, NULL, first);
	if (rc)
		return rc;
	if (*first >= argc) {
		if (ctx->json)
			return cli_error(ctx, CLI_EXIT_USAGE,
					 "no command given; see '%s --help'",
					 tool->name);
		tool_usage(tool, ctx->err);
		return CLI_EXIT_USAGE;
	}
	cmd = find_command(tool, argv[*first]);
	if (!cmd)
		return cli_error(ctx, CLI_EXIT_USAGE,
				 "unknown command '%s'; see '%s --help'",
				 argv[*first], tool->name);
	ctx->command = cmd->name;
	return 0;
}

/**
 * cli_main() - entry point of a tool: parse common options, dispatch.
 * @tool: the tool's table.
 * @argc, @argv: from main().
 *
 * Return: the process exit code.
 */
int cli_main(const struct cli_tool *tool, int argc, char **argv)
{
	struct cli_sink sink;
	struct cli_ctx ctx = {
		.tool = tool->name, .err = stderr, .def = tool,
	};
	const struct cli_command *cmd;
	int first = 1, rc;

	fflush(stdout);
	ctx.out = cli_sink_open(&sink, STDOUT_FILENO, false);
	if (ctx.out)
		ctx.out_sink = &sink;
	else
		ctx.out = stdout;
	rc = dispatch(&ctx, tool, argc, argv, &first);
	if (!rc && (cmd = find_command(tool, argv[first])))
		rc = cmd->fn(&ctx, argc - first, argv + first);
	if (rc == CLI_HELP_SHOWN)
		rc = CLI_EXIT_OK;
	if (fflush(ctx.out) || ferror(ctx.out))
		rc = rc ? rc : cli_stdout_failed(&ctx, errno);
	else if (ctx.out_failed && !rc)
		rc = CLI_EXIT_FAILURE;
	if (ctx.out != stdout)
		fclose(ctx.out);
	json_decref(ctx.warnings);
	return rc;
}
