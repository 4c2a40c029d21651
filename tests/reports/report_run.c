// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_run.c - helpers of the report tests: run a report command with
 * captured output and count substrings (files are read and compared with
 * golden files by tests/common/golden.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memcal_report.h"
#include "report_run.h"


/*
 * run_command() - `@tool @command ARGS --db @db` with stdout/stderr in @o,
 * run in-process by calling @fn (the command's entry point).
 * @args: NULL-terminated; "--json" among them works as on the command line.
 * Return: the exit code (also in @o->rc).
 */
int run_command(struct run_out *o, run_cmd_fn fn, const char *tool,
		const char *command, const char *db, const char *const *args)
{
	char *argv[32];
	size_t olen = 0, elen = 0;
	struct cli_ctx ctx = { .tool = tool, .command = command,
			       .db_path = db };
	int argc = 0;

	argv[argc++] = (char *)command;
	for (; args && *args && argc < 31; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	o->out = o->err = NULL;
	ctx.out = open_memstream(&o->out, &olen);
	ctx.err = open_memstream(&o->err, &elen);
	o->rc = fn(&ctx, argc, argv);
	fclose(ctx.out);
	fclose(ctx.err);
	return o->rc;
}

/*
 * run_report() - `@tool report ARGS --db @db` with stdout/stderr in @o.
 * Return: the exit code (also in @o->rc).
 */
int run_report(struct run_out *o, const char *tool, const char *db,
	       const char *const *args)
{
	return run_command(o, !strcmp(tool, "memtune") ? report_cmd_memtune :
			   report_cmd_memcal, tool, "report", db, args);
}

/* run_out_free() - release the captured text. */
void run_out_free(struct run_out *o)
{
	free(o->out);
	free(o->err);
	o->out = o->err = NULL;
}

/* count_str() - non-overlapping occurrences of @needle in @hay. */
size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	while (hay && (hay = strstr(hay, needle))) {
		n++;
		hay += len;
	}
	return n;
}
