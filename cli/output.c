// SPDX-License-Identifier: GPL-2.0-only
/*
 * output.c - the one writer of machine output.  Results and errors both
 * leave through here so that --json always yields exactly one JSON document
 * on stdout, and text mode always sends errors to stderr.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "cli.h"

/**
 * cli_emit_json() - print @doc as the command's JSON result and free it.
 * @ctx: context (its @out receives the document).
 * @doc: a new reference; stolen.
 *
 * Return: CLI_EXIT_OK, or CLI_EXIT_FAILURE when the document could not be
 * written (reported on stderr).
 */
int cli_emit_json(struct cli_ctx *ctx, json_t *doc)
{
	int rc;

	if (!doc) {
		fprintf(ctx->err, "%s: out of memory building JSON output\n",
			ctx->tool);
		return CLI_EXIT_FAILURE;
	}
	rc = json_dumpf(doc, ctx->out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(doc);
	fputc('\n', ctx->out);
	if (rc || fflush(ctx->out)) {
		fprintf(ctx->err, "%s: cannot write output\n", ctx->tool);
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

/* exit_name - stable machine name of an exit code, for JSON errors. */
static const char *exit_name(int code)
{
	switch (code) {
	case CLI_EXIT_USAGE:
		return "usage";
	case CLI_EXIT_UNSUPPORTED:
		return "unsupported";
	default:
		return "failure";
	}
}

/**
 * cli_error() - report an error and return @code for the caller to return.
 * @ctx:  context.
 * @code: CLI_EXIT_* code the command will exit with.
 * @fmt:  message: what was wrong and what to do.
 *
 * In JSON mode the error is {"error": {"command", "code", "kind",
 * "message"}} on stdout; otherwise "tool command: message" on stderr.
 */
int cli_error(struct cli_ctx *ctx, int code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->json) {
		json_t *err = json_pack("{s:s?, s:i, s:s, s:s}",
					"command", ctx->command, "code", code,
					"kind", exit_name(code), "message", msg);

		cli_emit_json(ctx, json_pack("{s:o}", "error", err));
	} else if (ctx->command) {
		fprintf(ctx->err, "%s %s: %s\n", ctx->tool, ctx->command, msg);
	} else {
		fprintf(ctx->err, "%s: %s\n", ctx->tool, msg);
	}
	return code;
}

/* vreport - shared body of warn/info/debug: prefix and print to stderr. */
static void vreport(struct cli_ctx *ctx, const char *prefix, const char *fmt,
		    va_list ap)
{
	fprintf(ctx->err, "%s: %s", ctx->tool, prefix);
	vfprintf(ctx->err, fmt, ap);
	fputc('\n', ctx->err);
}

/* cli_warn() - a warning on stderr; shown even in JSON mode, not with -q. */
void cli_warn(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->verbosity < 0)
		return;
	va_start(ap, fmt);
	vreport(ctx, "warning: ", fmt, ap);
	va_end(ap);
}

/* cli_info() - a progress note on stderr unless -q or --json. */
void cli_info(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->verbosity < 0 || ctx->json)
		return;
	va_start(ap, fmt);
	vreport(ctx, "", fmt, ap);
	va_end(ap);
}

/* cli_debug() - detail on stderr, only with -v. */
void cli_debug(struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->verbosity < 1)
		return;
	va_start(ap, fmt);
	vreport(ctx, "", fmt, ap);
	va_end(ap);
}
