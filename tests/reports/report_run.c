// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_run.c - helpers of the report tests: run a report command with
 * captured output, count substrings, read a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_run.h"

int memcal_cmd_report(struct cli_ctx *ctx, int argc, char **argv);
int memtune_cmd_report(struct cli_ctx *ctx, int argc, char **argv);

/*
 * run_report() - `@tool report ARGS --db @db` with stdout/stderr in @o.
 * @args: NULL-terminated; "--json" among them works as on the command line.
 * Return: the exit code (also in @o->rc).
 */
int run_report(struct run_out *o, const char *tool, const char *db,
	       const char *const *args)
{
	char *argv[32];
	size_t olen = 0, elen = 0;
	struct cli_ctx ctx = { .tool = tool, .command = "report",
			       .db_path = db };
	int argc = 0;

	argv[argc++] = "report";
	for (; args && *args && argc < 31; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	o->out = o->err = NULL;
	ctx.out = open_memstream(&o->out, &olen);
	ctx.err = open_memstream(&o->err, &elen);
	o->rc = !strcmp(tool, "memtune") ? memtune_cmd_report(&ctx, argc, argv)
					 : memcal_cmd_report(&ctx, argc, argv);
	fclose(ctx.out);
	fclose(ctx.err);
	return o->rc;
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

/* slurp() - the whole file @path as a string (malloc'd), or NULL. */
char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[len] = '\0';
	fclose(f);
	return buf;
}
