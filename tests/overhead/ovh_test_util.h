/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ovh_test_util.h - helpers shared by the overhead tests: a cli_ctx whose
 * output goes to a temporary file, running `memcal overhead` in-process,
 * and a scratch database path.
 */
#ifndef OVH_TEST_UTIL_H
#define OVH_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "memcal_cmds.h"

/**
 * struct ovh_run - one in-process `memcal overhead`.
 * @rc:   exit code.
 * @out:  what it wrote on stdout (malloc'd, NUL-terminated).
 * @json: @out parsed (NULL when not JSON); owned.
 */
struct ovh_run {
	int rc;
	char *out;
	json_t *json;
};

/* ovh_tmp_db - a fresh path for a database under /tmp (not created). */
static inline void ovh_tmp_db(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/tmp/memcal-ovh-test-%s-%d.db", tag, (int)getpid());
	unlink(buf);
}

/* ovh_cmd - run cal_cmd_overhead with @args (NULL-terminated),
 * --json, the database @db; capture stdout. */
static inline struct ovh_run ovh_cmd(const char *db, const char *const *args)
{
	struct ovh_run r = { 0, NULL, NULL };
	struct cli_ctx ctx;
	char *argv[32];
	int argc = 0;
	FILE *out = tmpfile();
	long n;

	memset(&ctx, 0, sizeof(ctx));
	ctx.tool = "memcal";
	ctx.command = "overhead";
	ctx.db_path = db;
	ctx.json = true;
	ctx.verbosity = -1;
	ctx.out = out;
	ctx.err = stderr;
	argv[argc++] = (char *)"overhead";
	argv[argc++] = (char *)"--json";
	for (; *args && argc < 31; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	r.rc = cal_cmd_overhead(&ctx, argc, argv);
	fflush(out);
	n = ftell(out);
	r.out = calloc(1, (size_t)(n > 0 ? n : 0) + 1);
	rewind(out);
	if (n > 0 && fread(r.out, 1, (size_t)n, out) != (size_t)n)
		r.out[0] = '\0';
	fclose(out);
	r.json = json_loads(r.out, 0, NULL);
	if (json_object_get(r.json, "result"))	/* the envelope's result */
		json_object_update(r.json, json_object_get(r.json, "result"));
	return r;
}

/* ovh_run_free - release a captured run. */
static inline void ovh_run_free(struct ovh_run *r)
{
	free(r->out);
	json_decref(r->json);
}

#endif /* OVH_TEST_UTIL_H */
