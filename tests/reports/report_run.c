// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_run.c - helpers of the report tests: run a report command with
 * captured output, count substrings, read a file, compare with a golden
 * file (MEMCAL_UPDATE_GOLDEN=1 rewrites it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_run.h"

int memcal_cmd_report(struct cli_ctx *ctx, int argc, char **argv);
int memtune_cmd_report(struct cli_ctx *ctx, int argc, char **argv);

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
	return run_command(o, !strcmp(tool, "memtune") ? memtune_cmd_report :
			   memcal_cmd_report, tool, "report", db, args);
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

/*
 * golden_match() - true when @got equals the golden file @path.  With
 * MEMCAL_UPDATE_GOLDEN set in the environment the file is written from
 * @got first.  On a mismatch or a missing file, @why says which.
 */
bool golden_match(const char *got, const char *path, char *why, size_t len)
{
	char *want;
	size_t i = 0;

	if (getenv("MEMCAL_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "w");

		if (!f || fputs(got, f) == EOF || fclose(f)) {
			snprintf(why, len, "cannot write %s", path);
			return false;
		}
	}
	want = slurp(path);
	if (!want) {
		snprintf(why, len, "missing %s (MEMCAL_UPDATE_GOLDEN=1 writes "
			 "it)", path);
		return false;
	}
	while (got[i] && got[i] == want[i])
		i++;
	if (got[i] || want[i])
		snprintf(why, len, "%s differs at byte %zu: got \"%.60s\", "
			 "want \"%.60s\"", path, i, got + i, want + i);
	else
		why[0] = '\0';
	free(want);
	return !why[0];
}
