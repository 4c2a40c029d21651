// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - the dispatcher and option parser shared by memcal and memtune.
 *
 * Common options may stand before the subcommand (memcal --json show) or
 * among its own options (memcal show --json); both reach the same context.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_DB = 1000,
	OPT_JSON,
	OPT_HELP,
	OPT_VERSION,
	OPT_QUIET,
	OPT_VERBOSE,
};

/* The options every command accepts, in the order --help lists them. */
static const struct cli_option common_options[] = {
	{ "db", 0, "PATH", OPT_DB, "database file (default: $MEMCAL_DB, else see memcal(1))" },
	{ "json", 0, NULL, OPT_JSON, "machine output on stdout, errors too" },
	{ "quiet", 'q', NULL, OPT_QUIET, "print less; no progress bar" },
	{ "verbose", 'v', NULL, OPT_VERBOSE, "print more (repeatable)" },
	{ "help", 'h', NULL, OPT_HELP, "show this help and exit" },
	{ "version", 0, NULL, OPT_VERSION, "show the version and exit" },
	{ NULL, 0, NULL, 0, NULL },
};

/* count_options - number of entries before the NULL terminator. */
static size_t count_options(const struct cli_option *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

/* print_option_help - one aligned line per option of @opts. */
static void print_option_help(FILE *f, const struct cli_option *opts)
{
	for (size_t i = 0; opts && opts[i].name; i++) {
		char left[64];

		if (opts[i].short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 opts[i].short_name, opts[i].name,
				 opts[i].arg ? " " : "",
				 opts[i].arg ? opts[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s",
				 opts[i].name, opts[i].arg ? " " : "",
				 opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-26s %s\n", left, opts[i].help);
	}
}

/*
 * fill_getopt - append @opts to the getopt_long table @lo and the short
 * option string @shorts, both sized by the caller.
 */
static void fill_getopt(const struct cli_option *opts, struct option *lo,
			size_t *nlo, char *shorts, size_t *nshort)
{
	for (size_t i = 0; opts && opts[i].name; i++) {
		lo[*nlo].name = opts[i].name;
		lo[*nlo].has_arg = opts[i].arg ? required_argument : no_argument;
		lo[*nlo].flag = NULL;
		lo[*nlo].val = opts[i].key;
		(*nlo)++;
		if (opts[i].short_name) {
			shorts[(*nshort)++] = (char)opts[i].short_name;
			if (opts[i].arg)
				shorts[(*nshort)++] = ':';
		}
	}
}

/*
 * short_to_key - map a short option letter returned by getopt to the key
 * of the entry that declares it (the key may differ from the letter).
 */
static int short_to_key(const struct cli_option *opts, int c)
{
	for (size_t i = 0; opts && opts[i].name; i++)
		if (opts[i].short_name == c)
			return opts[i].key;
	return c;
}

/* tool_usage - the tool-level --help: common options and the command table. */
static void tool_usage(const struct cli_tool *tool, FILE *f)
{
	fprintf(f, "%s - %s\n\nUsage: %s [OPTIONS] COMMAND [ARGS]\n\n"
		"Commands:\n", tool->name, tool->summary, tool->name);
	for (const struct cli_command *c = tool->commands; c->name; c++)
		fprintf(f, "  %-10s %s\n             %s %s %s\n", c->name,
			c->summary, tool->name, c->name, c->args);
	fprintf(f, "\nOptions (accepted by every command):\n");
	print_option_help(f, common_options);
	fprintf(f, "\nExit status: 0 ok, 1 failure, 2 usage error, "
		"77 not supported on this hardware.\nSee %s(1).\n", tool->name);
}

/*
 * apply_common - handle one common option; returns 0, CLI_HELP_SHOWN for
 * --help/--version (already printed), or 1 when @key is not common.
 */
static int apply_common(struct cli_ctx *ctx, int key, const char *arg,
			const char *synopsis, const struct cli_option *opts)
{
	switch (key) {
	case OPT_DB:
		ctx->db_path = arg;
		return 0;
	case OPT_JSON:
		ctx->json = true;
		return 0;
	case OPT_QUIET:
		ctx->verbosity = -1;
		return 0;
	case OPT_VERBOSE:
		if (ctx->verbosity < 0)
			ctx->verbosity = 0;
		ctx->verbosity++;
		return 0;
	case OPT_VERSION:
		fprintf(ctx->out, "%s %s\n", ctx->tool, MEMCAL_VERSION);
		return CLI_HELP_SHOWN;
	case OPT_HELP:
		if (!ctx->command) {
			tool_usage(ctx->def, ctx->out);
			return CLI_HELP_SHOWN;
		}
		fprintf(ctx->out, "Usage: %s %s %s\n\nOptions:\n", ctx->tool,
			ctx->command ? ctx->command : "", synopsis ? synopsis : "");
		print_option_help(ctx->out, opts);
		print_option_help(ctx->out, common_options);
		fprintf(ctx->out, "\nSee %s(1).\n", ctx->tool);
		return CLI_HELP_SHOWN;
	default:
		return 1;
	}
}

/**
 * cli_parse_options() - parse a subcommand's options.
 * @ctx:       context; common options are applied to it.
 * @argc, @argv: argv[0] is the subcommand name.
 * @synopsis:  argument synopsis for --help.
 * @opts:      the subcommand's own options (may be NULL).
 * @fn:        called for each of @opts found, in order.
 * @user:      handed to @fn.
 * @first_arg: set to the index of the first positional argument.
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
	size_t nlo = 0, nshort = 0;
	int rc = 0, c;

	if (!lo || !shorts) {
		free(lo);
		free(shorts);
		return cli_error(ctx, CLI_EXIT_FAILURE, "out of memory");
	}
	shorts[nshort++] = '+';		/* stop at the first positional */
	shorts[nshort++] = ':';		/* report a missing argument as ':' */
	fill_getopt(opts, lo, &nlo, shorts, &nshort);
	fill_getopt(common_options, lo, &nlo, shorts, &nshort);

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
		c = short_to_key(opts, short_to_key(common_options, c));
		rc = apply_common(ctx, c, optarg, synopsis, opts);
		if (rc == 1)
			rc = fn ? fn(ctx, c, optarg, user) : CLI_EXIT_USAGE;
		if (rc)
			break;
	}
	if (first_arg)
		*first_arg = optind;
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

/**
 * cli_main() - entry point of a tool: parse common options, dispatch.
 * @tool: the tool's table.
 * @argc, @argv: from main().
 *
 * Return: the process exit code.
 */
int cli_main(const struct cli_tool *tool, int argc, char **argv)
{
	struct cli_ctx ctx = {
		.tool = tool->name, .out = stdout, .err = stderr, .def = tool,
	};
	const struct cli_command *cmd;
	int first = 1, rc;

	rc = cli_parse_options(&ctx, argc, argv, "COMMAND [ARGS]", NULL,
			       NULL, NULL, &first);
	if (rc == CLI_HELP_SHOWN)
		return CLI_EXIT_OK;
	if (rc)
		return rc;
	if (first >= argc) {
		if (ctx.json)
			return cli_error(&ctx, CLI_EXIT_USAGE,
					 "no command given; see '%s --help'",
					 tool->name);
		tool_usage(tool, stderr);
		return CLI_EXIT_USAGE;
	}
	cmd = find_command(tool, argv[first]);
	if (!cmd)
		return cli_error(&ctx, CLI_EXIT_USAGE,
				 "unknown command '%s'; see '%s --help'",
				 argv[first], tool->name);
	ctx.command = cmd->name;
	rc = cmd->fn(&ctx, argc - first, argv + first);
	if (rc == CLI_HELP_SHOWN)
		rc = CLI_EXIT_OK;
	fflush(stdout);
	return rc;
}
