// SPDX-License-Identifier: GPL-2.0-only
/*
 * output.c - the one writer of machine output.  Results and errors both
 * leave through here so that --json always yields exactly one JSON document
 * on stdout, in the one envelope of cli_envelope(), and text mode always
 * sends errors to stderr.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/**
 * cli_envelope() - the JSON document every command of both tools writes.
 * @ctx:  context (tool, command, warnings).
 * @ok:   true for a result, false for an error.
 * @body: the result object, or the error object; stolen.
 *
 * Return: {"tool", "command", "version", "ok", "result" | "error",
 * "warnings"}, or NULL when out of memory.
 */
json_t *cli_envelope(const struct cli_ctx *ctx, bool ok, json_t *body)
{
	json_t *w = ctx->warnings ? json_copy(ctx->warnings) : json_array();

	return json_pack("{s:s, s:s?, s:s, s:b, s:o, s:o}", "tool", ctx->tool,
			 "command", ctx->command, "version", MEMCAL_VERSION,
			 "ok", ok, ok ? "result" : "error", body,
			 "warnings", w);
}

/**
 * cli_stdout_failed() - report, once, that stdout could not be written.
 * @ctx: context.  @err: the errno behind it (0: from the sink, else EIO).
 *
 * The message goes to stderr in every mode: stdout is what failed.
 * Return: CLI_EXIT_FAILURE.
 */
int cli_stdout_failed(struct cli_ctx *ctx, int err)
{
	if (!ctx->out_failed)
		fprintf(ctx->err, "%s%s%s: cannot write the output to stdout: "
			"%s\n", ctx->tool, ctx->command ? " " : "",
			ctx->command ? ctx->command : "",
			strerror(cli_stream_errno(ctx->out_sink, err)));
	ctx->out_failed = true;
	return CLI_EXIT_FAILURE;
}

/**
 * cli_json_dumpf() - write @doc on @f the one way every memcal document is
 * written (command output, report, exported configuration): indented by
 * two, numbers with CLI_JSON_PRECISION significant digits, a final
 * newline.  The same figure therefore prints the same wherever it appears.
 * Return: true when written, false on a write error (see ferror(@f)).
 */
bool cli_json_dumpf(const json_t *doc, FILE *f)
{
	int rc = json_dumpf(doc, f, JSON_INDENT(2) |
			    JSON_REAL_PRECISION(CLI_JSON_PRECISION));

	return fputc('\n', f) != EOF && !rc;
}

/* write_doc - @doc (stolen) on @ctx->out, flushed; 0 or CLI_EXIT_FAILURE. */
static int write_doc(struct cli_ctx *ctx, json_t *doc)
{
	int rc;

	if (!doc) {
		fprintf(ctx->err, "%s: out of memory building JSON output\n",
			ctx->tool);
		return CLI_EXIT_FAILURE;
	}
	ctx->emitted = true;
	rc = !cli_json_dumpf(doc, ctx->out);
	json_decref(doc);
	if (rc || fflush(ctx->out) || ferror(ctx->out))
		return cli_stdout_failed(ctx, errno);
	return CLI_EXIT_OK;
}

/**
 * cli_emit_json() - print @doc as the command's JSON result, inside the
 * envelope (cli_envelope()), and free it.
 * @ctx: context (its @out receives the document).
 * @doc: the result object, a new reference; stolen.
 *
 * Return: CLI_EXIT_OK, or CLI_EXIT_FAILURE when the document could not be
 * written (reported on stderr).
 */
int cli_emit_json(struct cli_ctx *ctx, json_t *doc)
{
	if (!doc)
		return write_doc(ctx, NULL);
	return write_doc(ctx, cli_envelope(ctx, true, doc));
}

/**
 * cli_carry() - put output that stdout would have held into a JSON result:
 * @text as the object "document" when @is_json and it parses as one,
 * else as "files": [{"name": "-", "content": @text}].
 * @res: the result object (may be NULL: nothing is done).
 */
void cli_carry(json_t *res, bool is_json, const char *text)
{
	json_t *doc = is_json ? json_loads(text, 0, NULL) : NULL;

	if (!res) {
		json_decref(doc);
		return;
	}
	if (json_is_object(doc))
		json_object_set_new(res, "document", doc);
	else {
		json_decref(doc);
		json_object_set_new(res, "files", json_pack("[{s:s, s:s}]",
				    "name", "-", "content", text));
	}
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
 * In JSON mode the error is the envelope with "ok": false and
 * "error": {"code", "kind", "message"} on stdout, unless a document was
 * already written (stdout then holds that one document and the message
 * goes to stderr); otherwise "tool command: message" on stderr.
 */
int cli_error(struct cli_ctx *ctx, int code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->json && !ctx->emitted && !ctx->out_failed) {
		json_t *err = json_pack("{s:i, s:s, s:s}", "code", code,
					"kind", exit_name(code), "message", msg);

		write_doc(ctx, err ? cli_envelope(ctx, false, err) : NULL);
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

/**
 * cli_warn() - a warning on stderr (shown in JSON mode too, not with -q),
 * kept in JSON mode for the "warnings" array of the envelope (with -q
 * too).
 */
void cli_warn(struct cli_ctx *ctx, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->json) {	/* only an envelope carries them */
		if (!ctx->warnings)
			ctx->warnings = json_array();
		json_array_append_new(ctx->warnings, json_string(msg));
	}
	if (ctx->verbosity >= 0)
		fprintf(ctx->err, "%s: warning: %s\n", ctx->tool, msg);
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
